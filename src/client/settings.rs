//! The window's settings a player keeps between games: its size and the UI scale,
//! in `settings.ron` beside the saves. A malformed file is reported with its place and
//! left as it is until a setting changes.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::session::{save_dir, write_atomically};
use crate::engine::error::LocatedError;

/// The smallest and largest UI scale, and the step of Ctrl + / Ctrl −.
pub const UI_SCALE_MIN: f32 = 0.5;
pub const UI_SCALE_MAX: f32 = 3.0;
pub const UI_SCALE_STEP: f32 = 0.25;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The window's size in logical pixels.
    #[serde(default = "default_window")]
    pub window: (u32, u32),
    /// How much larger than normal the panels' text and buttons are drawn.
    #[serde(default = "default_scale")]
    pub ui_scale: f32,
}

fn default_window() -> (u32, u32) {
    (1280, 800)
}

fn default_scale() -> f32 {
    1.0
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            window: default_window(),
            ui_scale: default_scale(),
        }
    }
}

/// `settings.ron` in the save folder.
pub fn settings_path() -> PathBuf {
    save_dir().join("settings.ron")
}

impl Settings {
    /// The settings in `path`; the defaults when there is no such file.
    pub fn load(path: &Path) -> Result<Self, LocatedError> {
        let file = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(LocatedError::whole_file(&file, format!("cannot read: {e}"))),
        };
        let s: Self = ron::from_str(&text).map_err(|e| LocatedError::from_ron(&file, &text, &e))?;
        if !(UI_SCALE_MIN..=UI_SCALE_MAX).contains(&s.ui_scale) {
            return Err(LocatedError::at_text(
                &file,
                &text,
                "ui_scale",
                0,
                format!(
                    "ui_scale {} is outside {UI_SCALE_MIN}..={UI_SCALE_MAX}",
                    s.ui_scale
                ),
            ));
        }
        if s.window.0 < 320 || s.window.1 < 240 {
            return Err(LocatedError::at_text(
                &file,
                &text,
                "window",
                0,
                format!(
                    "a window of {}×{} is too small (320×240 at least)",
                    s.window.0, s.window.1
                ),
            ));
        }
        Ok(s)
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(std::io::Error::other)?;
        write_atomically(path, &format!("// bataille's window settings.\n{text}\n"))
    }

    /// The UI scale one step larger (`up`) or smaller, within the limits.
    pub fn stepped_scale(&self, up: bool) -> f32 {
        let step = if up { UI_SCALE_STEP } else { -UI_SCALE_STEP };
        clamp_scale(((self.ui_scale + step) / UI_SCALE_STEP).round() * UI_SCALE_STEP)
    }
}

/// Clamps a UI scale into its limits.
pub fn clamp_scale(scale: f32) -> f32 {
    scale.clamp(UI_SCALE_MIN, UI_SCALE_MAX)
}

//! The art catalogue (`assets/art.ron`): which image draws each terrain, hexside
//! feature and troop type, read and checked without rendering, so a new ruleset or
//! scenario is drawn by adding names to data and a missing image is an error naming it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::error::LocatedError;

/// How one terrain is drawn: a tile, and the elevation shade laid over it (a terrain
/// that is itself a height, like A la Charge's hills).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct TerrainArt {
    pub tile: String,
    #[serde(default)]
    pub shade: u8,
}

/// The fonts the window writes with.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct FontArt {
    pub regular: String,
    pub bold: String,
}

/// `assets/art.ron` as read: every path is relative to the assets folder.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ArtCatalogue {
    /// Where the art comes from and under what licence.
    pub source: String,
    /// Each terrain by the name rulesets give it in their terrain tables.
    pub terrain: BTreeMap<String, TerrainArt>,
    /// The overlays of elevation levels 1, 2, 3, ... (higher levels use the last).
    pub elevation: Vec<String>,
    /// Hexside features by name: river, stream, bridge, ford, road, field_defence and
    /// slope (drawn where the ground falls from one hex to the next).
    pub hexsides: BTreeMap<String, String>,
    /// The symbol images by name (NATO-style: infantry, cavalry, ...).
    pub symbols: BTreeMap<String, String>,
    /// Per ruleset id, each troop type (`CounterFace::troop`) and the symbol drawn.
    pub troops: BTreeMap<String, BTreeMap<String, String>>,
    pub fonts: FontArt,
}

/// The hexside features the map draws, by their names in `hexsides`.
pub const HEXSIDE_ART: [&str; 7] = [
    "river",
    "stream",
    "bridge",
    "ford",
    "road",
    "field_defence",
    "slope",
];

/// The `assets/` folder: the working directory's, else one beside or above the
/// program, else the source tree's.
pub fn assets_dir() -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("assets")];
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).map(|d| d.join("assets")));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets"));
    // Absolute: Bevy's asset server reads a relative folder from the program's own.
    candidates
        .into_iter()
        .find(|d| d.join("art.ron").is_file())
        .map(|d| d.canonicalize().unwrap_or(d))
}

impl ArtCatalogue {
    /// Reads and checks `art.ron` in `dir`: it parses, and every image and font it
    /// names is a file there. Errors name the file, line and column and the thing at
    /// fault.
    pub fn load(dir: &Path) -> Result<Self, LocatedError> {
        let path = dir.join("art.ron");
        let file = path.display().to_string();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| LocatedError::whole_file(&file, format!("cannot read: {e}")))?;
        let art: Self =
            ron::from_str(&text).map_err(|e| LocatedError::from_ron(&file, &text, &e))?;
        for (name, image) in art.files() {
            if !dir.join(image).is_file() {
                return Err(LocatedError::at_text(
                    &file,
                    &text,
                    &format!("\"{image}\""),
                    0,
                    format!("{name}: the asset `{image}` is not in {}", dir.display()),
                ));
            }
        }
        for (ruleset, troops) in &art.troops {
            for (troop, symbol) in troops {
                if !art.symbols.contains_key(symbol) {
                    return Err(LocatedError::at_text(
                        &file,
                        &text,
                        &format!("\"{troop}\": \"{symbol}\""),
                        0,
                        format!(
                            "troop `{troop}` of `{ruleset}` names the symbol `{symbol}`, which `symbols` lacks"
                        ),
                    ));
                }
            }
        }
        if let Some(missing) = HEXSIDE_ART.iter().find(|h| !art.hexsides.contains_key(**h)) {
            return Err(LocatedError::whole_file(
                &file,
                format!("`hexsides` lacks `{missing}`"),
            ));
        }
        if art.elevation.is_empty() {
            return Err(LocatedError::whole_file(
                &file,
                "`elevation` names no overlay",
            ));
        }
        Ok(art)
    }

    /// Every file the catalogue names, with what it draws.
    pub fn files(&self) -> Vec<(String, &str)> {
        let mut files: Vec<(String, &str)> = Vec::new();
        for (name, t) in &self.terrain {
            files.push((format!("terrain `{name}`"), &t.tile));
        }
        for (i, e) in self.elevation.iter().enumerate() {
            files.push((format!("elevation {}", i + 1), e));
        }
        for (name, h) in &self.hexsides {
            files.push((format!("hexside `{name}`"), h));
        }
        for (name, s) in &self.symbols {
            files.push((format!("symbol `{name}`"), s));
        }
        files.push(("the regular font".into(), &self.fonts.regular));
        files.push(("the bold font".into(), &self.fonts.bold));
        files
    }

    /// How a terrain is drawn.
    pub fn terrain(&self, name: &str) -> Result<&TerrainArt, String> {
        self.terrain
            .get(name)
            .ok_or_else(|| format!("assets/art.ron: no art for the terrain `{name}`"))
    }

    /// The overlay of an elevation level (1 and up).
    pub fn elevation(&self, level: u8) -> Option<&str> {
        let i = (level as usize).checked_sub(1)?;
        self.elevation
            .get(i.min(self.elevation.len().saturating_sub(1)))
            .map(String::as_str)
    }

    /// The symbol image of a troop type of a ruleset; `Ok(None)` for a blank type.
    pub fn troop_symbol(&self, ruleset: &str, troop: &str) -> Result<Option<&str>, String> {
        if troop.is_empty() {
            return Ok(None);
        }
        let symbol = self
            .troops
            .get(ruleset)
            .and_then(|t| t.get(troop))
            .ok_or_else(|| {
                format!("assets/art.ron: no symbol for the troop `{troop}` of `{ruleset}`")
            })?;
        Ok(self.symbols.get(symbol).map(String::as_str))
    }
}

//! The window's display settings at play: the UI scale (Ctrl + / Ctrl − / Ctrl 0, the
//! `ui-scale` input, the help screen's buttons) applied to the panels, and the window's
//! size and scale written to `settings.ron` when they change, so the next game opens
//! as this one was left.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::controller::{ClientSet, PlayerInput, UiScaleChange};
use super::settings::{Settings, clamp_scale};

/// The settings in force, and where to keep them (nowhere in an unattended run).
#[derive(Resource)]
pub struct Display {
    pub settings: Settings,
    pub path: Option<PathBuf>,
    /// A change not yet written, and since when (written once it has held 0.5 s, so a
    /// window dragged larger is written once, not every frame).
    unsaved_since: Option<Instant>,
    /// The zoom factor last given to egui.
    applied_scale: Option<f32>,
}

impl Display {
    pub fn new(settings: Settings, path: Option<PathBuf>) -> Self {
        Self {
            settings,
            path,
            unsaved_since: None,
            applied_scale: None,
        }
    }
}

pub struct DisplayPlugin;

impl Plugin for DisplayPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (
                scale_keys.in_set(ClientSet::Input),
                change_scale,
                remember_window_size,
            )
                .chain()
                .run_if(resource_exists::<Display>),
        )
        .add_systems(
            EguiPrimaryContextPass,
            apply_scale.run_if(resource_exists::<Display>),
        );
    }
}

/// Ctrl + (or =), Ctrl −, Ctrl 0: the panels larger, smaller, back to normal.
fn scale_keys(keys: Res<ButtonInput<KeyCode>>, mut input: MessageWriter<PlayerInput>) {
    if !keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]) {
        return;
    }
    if keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        input.write(PlayerInput::UiScale(UiScaleChange::Larger));
    }
    if keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        input.write(PlayerInput::UiScale(UiScaleChange::Smaller));
    }
    if keys.any_just_pressed([KeyCode::Digit0, KeyCode::Numpad0]) {
        input.write(PlayerInput::UiScale(UiScaleChange::Set(1.0)));
    }
}

fn change_scale(mut inputs: MessageReader<PlayerInput>, mut display: ResMut<Display>) {
    for input in inputs.read() {
        if let PlayerInput::UiScale(change) = input {
            let scale = match change {
                UiScaleChange::Larger => display.settings.stepped_scale(true),
                UiScaleChange::Smaller => display.settings.stepped_scale(false),
                UiScaleChange::Set(s) => clamp_scale(*s),
            };
            if scale != display.settings.ui_scale {
                display.settings.ui_scale = scale;
                display.unsaved_since = Some(Instant::now());
            }
        }
    }
}

/// Gives egui the scale when it changed.
fn apply_scale(mut contexts: EguiContexts, mut display: ResMut<Display>) -> Result {
    let scale = display.settings.ui_scale;
    if display.applied_scale != Some(scale) {
        contexts.ctx_mut()?.set_zoom_factor(scale);
        display.applied_scale = Some(scale);
    }
    Ok(())
}

/// Notes a new window size, and writes the settings once a change has held.
fn remember_window_size(
    window: Single<&Window, With<PrimaryWindow>>,
    mut display: ResMut<Display>,
) {
    let size = (
        window.resolution.width().round() as u32,
        window.resolution.height().round() as u32,
    );
    if size.0 >= 320 && size.1 >= 240 && size != display.settings.window {
        display.settings.window = size;
        display.unsaved_since = Some(Instant::now());
    }
    let Some(since) = display.unsaved_since else {
        return;
    };
    if since.elapsed() < Duration::from_millis(500) {
        return;
    }
    display.unsaved_since = None;
    if let Some(path) = &display.path
        && let Err(e) = display.settings.save(path)
    {
        eprintln!("bataille: cannot write {}: {e}", path.display());
    }
}

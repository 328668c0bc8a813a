//! The player aids inside the window: the help screen of keys and mouse actions (F1)
//! and the ruleset's aids (F2): its sequence of play with the current step lit, and
//! its tables, drawn from the data the rules read (`Ruleset::player_aids`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::controller::{Interaction, PlayerInput, UiScaleChange};
use super::display::Display;
use super::session::Session;

/// Every key and mouse action of the map, as the help screen lists them.
pub const HELP: &[(&str, &str)] = &[
    (
        "Left click",
        "select a unit (again: the next unit of the hex); move it to a shaded hex; choose attackers, then click the enemy to attack",
    ),
    (
        "Shift + click",
        "add a unit to the group that moves together, or drop it",
    ),
    ("Right click, Esc", "drop the selection"),
    (
        "Hover",
        "a move's path and cost, an attack's odds, or why it is refused (with the rule)",
    ),
    ("Drag, W A S D, arrows", "pan the map"),
    ("Wheel", "zoom on the cursor"),
    ("F", "fit the whole map"),
    ("E", "end the phase"),
    ("Ctrl+Z, Ctrl+Y", "undo, redo (back to the last die roll)"),
    ("Ctrl+S", "save"),
    ("Z", "enemy zones of control"),
    ("T", "threat map: where the enemy can attack next"),
    ("V", "line of sight: click two hexes"),
    ("L", "hex labels"),
    ("M", "minimap (click or drag it to move the view)"),
    ("F1", "this help"),
    ("F2", "player aids: sequence of play and tables"),
    (
        "Ctrl + / Ctrl - / Ctrl 0",
        "larger, smaller, normal panels (UI scale, kept between games)",
    ),
    (
        ", . Home End",
        "in a replay: step back, forward, to the start, to the end",
    ),
];

/// The help window and the player aids window, when asked for.
pub fn aids_windows(
    mut contexts: EguiContexts,
    session: Res<Session>,
    ui_state: Res<Interaction>,
    display: Option<Res<Display>>,
    mut input: MessageWriter<PlayerInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if ui_state.show_help {
        let mut open = true;
        egui::Window::new("Help: keys and mouse (F1)")
            .open(&mut open)
            .anchor(egui::Align2::LEFT_TOP, egui::vec2(12.0, 70.0))
            .resizable(false)
            .collapsible(false)
            .show(ctx, |ui| {
                egui::Grid::new("help_keys").striped(true).show(ui, |ui| {
                    for (key, what) in HELP {
                        ui.strong(*key);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
                ui.separator();
                ui.horizontal(|ui| {
                    let scale = display.as_ref().map_or(1.0, |d| d.settings.ui_scale);
                    ui.label(format!("UI scale: {:.0}%", scale * 100.0));
                    if ui.button("−").clicked() {
                        input.write(PlayerInput::UiScale(UiScaleChange::Smaller));
                    }
                    if ui.button("+").clicked() {
                        input.write(PlayerInput::UiScale(UiScaleChange::Larger));
                    }
                    if ui.button("100%").clicked() {
                        input.write(PlayerInput::UiScale(UiScaleChange::Set(1.0)));
                    }
                });
                ui.small(format!(
                    "Every refusal and log line names its rule ({}), so it can be found in the printed rules.",
                    session.game.turn().phase.rule
                ));
            });
        if !open {
            input.write(PlayerInput::ToggleHelp);
        }
    }
    Ok(())
}

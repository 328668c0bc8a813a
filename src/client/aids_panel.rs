//! The player aids inside the window: the help screen of keys and mouse actions (F1)
//! and the ruleset's aids (F2): its sequence of play with the current step lit, and
//! its tables, drawn from the data the rules read (`Ruleset::player_aids`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::controller::{Interaction, PlayerInput, UiScaleChange};
use super::display::Display;
use super::session::Session;
use crate::engine::view::{AidTable, PlayerAids};

/// Every key and mouse action of the map, as the help screen lists them.
pub const HELP: &[(&str, &str)] = &[
    (
        "Left click",
        "select a unit (again: the next of its hex); move it to a shaded hex; in combat, choose attackers, then click the enemy",
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
    mut aids: Local<Option<(u64, PlayerAids)>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(page) = ui_state.aid_page {
        // Made again only when the game changes (the current step moves).
        if aids
            .as_ref()
            .is_none_or(|(rev, _)| *rev != session.revision)
        {
            *aids = Some((session.revision, session.game.player_aids()));
        }
        if let Some((_, aids)) = aids.as_ref() {
            let phase = session.game.turn().phase;
            let current = aids.current_step(&phase);
            let mut open = true;
            egui::Window::new(format!("Player aids: {} (F2)", session.game.ruleset.name()))
                .open(&mut open)
                .default_pos(egui::pos2(12.0, 70.0))
                .default_size(egui::vec2(560.0, 480.0))
                .collapsible(false)
                .show(ctx, |ui| {
                    aids_pages(ui, aids, page, current, &mut input);
                });
            if !open {
                input.write(PlayerInput::ToggleAids);
            }
        }
    }
    if ui_state.show_help {
        let mut open = true;
        egui::Window::new("Help: keys and mouse (F1)")
            .open(&mut open)
            .default_pos(egui::pos2(12.0, 70.0))
            .resizable(false)
            .collapsible(false)
            .show(ctx, |ui| {
                egui::Grid::new("help_keys")
                    .striped(true)
                    .min_col_width(150.0)
                    .max_col_width(340.0)
                    .show(ui, |ui| {
                    for (key, what) in HELP {
                        ui.strong(*key);
                        ui.add(egui::Label::new(*what).wrap());
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

/// The tabs (sequence of play, then each table) and the page shown.
fn aids_pages(
    ui: &mut egui::Ui,
    aids: &PlayerAids,
    page: usize,
    current: Option<usize>,
    input: &mut MessageWriter<PlayerInput>,
) {
    ui.horizontal_wrapped(|ui| {
        if ui.selectable_label(page == 0, "Sequence of play").clicked() {
            input.write(PlayerInput::AidPage(0));
        }
        for (i, t) in aids.tables.iter().enumerate() {
            if ui
                .selectable_label(page == i + 1, &t.title)
                .on_hover_text(&t.rule)
                .clicked()
            {
                input.write(PlayerInput::AidPage(i + 1));
            }
        }
    });
    ui.separator();
    egui::ScrollArea::both()
        .id_salt("aid_page")
        .auto_shrink([false, false])
        .show(ui, |ui| match page.checked_sub(1) {
            None => sequence_page(ui, aids, current),
            Some(i) => match aids.tables.get(i) {
                Some(t) => table_page(ui, t),
                None => {
                    ui.label(format!(
                        "No page {page}: this ruleset has {} tables.",
                        aids.tables.len()
                    ));
                }
            },
        });
}

/// Every step of a turn, the current one lit.
fn sequence_page(ui: &mut egui::Ui, aids: &PlayerAids, current: Option<usize>) {
    egui::Grid::new("sequence").striped(true).show(ui, |ui| {
        for (i, step) in aids.sequence.iter().enumerate() {
            let now = current == Some(i);
            let mark = |text: &str| {
                let t = egui::RichText::new(text);
                if now {
                    t.strong().color(egui::Color32::from_rgb(255, 210, 80))
                } else {
                    t
                }
            };
            ui.label(mark(if now { "▶" } else { "" }));
            ui.label(mark(&format!("{}. {}", i + 1, step.label)));
            ui.label(mark(&step.rule));
            ui.label(mark(&step.detail));
            ui.end_row();
        }
    });
}

/// A table as the rules read it, its rule and its notes.
fn table_page(ui: &mut egui::Ui, t: &AidTable) {
    ui.strong(format!("{} ({})", t.title, t.rule));
    egui::Grid::new(("table", &t.title))
        .striped(true)
        .show(ui, |ui| {
            for c in &t.columns {
                ui.strong(c);
            }
            ui.end_row();
            for row in &t.rows {
                for cell in row {
                    ui.label(cell);
                }
                ui.end_row();
            }
        });
    for note in &t.notes {
        ui.small(note);
    }
}

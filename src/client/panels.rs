//! The egui panels: the scenario menu, the turn/phase bar with End phase, undo, redo
//! and save, the unit card, the hovered move or attack preview, the log, the decision
//! dialog, the hand-over screen and the game-over screen. Every button sends a
//! `PlayerInput`; nothing here decides a rule.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::catalog::{CatalogEntry, catalog, scenarios_dir};
use super::computer::ComputerTurn;
use super::controller::{
    HoverInfo, Interaction, PlayerInput, ReplayInput, pending_decision, units_seen_at,
};
use super::session::{Session, autosave_path};
use super::window::{ClientOptions, Screen, new_seed};
use crate::ai::{Level, Player};
use crate::engine::command::Command;
use crate::engine::hex::HexCoord;
use crate::engine::phase::PhaseKind;
use crate::engine::units::{Placement, SideId, UnitName, Units};

pub struct PanelsPlugin;

impl Plugin for PanelsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<MenuState>()
            .add_systems(
                EguiPrimaryContextPass,
                menu_screen.run_if(in_state(Screen::Menu)),
            )
            .add_systems(
                EguiPrimaryContextPass,
                (
                    game_panels,
                    super::minimap::minimap,
                    super::aids_panel::aids_windows,
                )
                    .chain()
                    .run_if(in_state(Screen::Playing))
                    .run_if(resource_exists::<Session>),
            );
    }
}

#[derive(Resource, Default)]
struct MenuState {
    entries: Option<Vec<CatalogEntry>>,
    error: Option<String>,
    /// Who plays each side of each scenario, as chosen in the menu (a person when
    /// absent).
    players: std::collections::HashMap<std::path::PathBuf, Vec<Player>>,
}

/// The choices of who plays a side.
const PLAYER_CHOICES: [Player; 4] = [
    Player::Human,
    Player::Computer(Level::Easy),
    Player::Computer(Level::Normal),
    Player::Computer(Level::Hard),
];

/// A drop-down of who plays a side; whether it changed.
fn player_choice(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    player: &mut Player,
) -> bool {
    let mut changed = false;
    egui::ComboBox::from_id_salt(id)
        .selected_text(player.to_string())
        .show_ui(ui, |ui| {
            for choice in PLAYER_CHOICES {
                changed |= ui
                    .selectable_value(player, choice, choice.to_string())
                    .changed();
            }
        });
    changed
}

/// A side's colour for text, as its ruleset gives it, a little lighter than the
/// counters so that it reads on the dark panels.
fn side_color32(game: &crate::engine::game::Game, side: SideId) -> egui::Color32 {
    let [r, g, b] = game.ruleset.side_colour(&game.world, side);
    let lift = |c: u8| c.saturating_add(((255 - c as u16) / 5) as u8);
    egui::Color32::from_rgb(lift(r), lift(g), lift(b))
}

fn menu_screen(
    mut contexts: EguiContexts,
    mut menu: ResMut<MenuState>,
    options: Res<ClientOptions>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let entries = menu
        .entries
        .get_or_insert_with(|| scenarios_dir().map(|d| catalog(&d)).unwrap_or_default())
        .clone();
    let mut start: Option<Result<Session, String>> = None;
    egui::CentralPanel::default().show(
        &mut egui::Ui::new(
            ctx.clone(),
            "menu".into(),
            egui::UiBuilder::new()
                .layer_id(egui::LayerId::background())
                .max_rect(ctx.viewport_rect()),
        ),
        |ui| {
            ui.heading("bataille — historical battles, the rules enforced");
            ui.add_space(6.0);
            let autosave = autosave_path();
            if autosave.exists() {
                if ui.button("▶ Resume last game").clicked() {
                    start = Some(
                        Session::load(&autosave, Some(autosave.clone())).map_err(|e| e.to_string()),
                    );
                }
                ui.add_space(6.0);
            }
            // Saved games (Ctrl+S writes them here).
            let mut saves: Vec<std::path::PathBuf> = std::fs::read_dir(super::session::save_dir())
                .map(|d| {
                    d.flatten()
                        .map(|e| e.path())
                        .filter(|p| p.to_string_lossy().ends_with(".save.ron"))
                        .collect()
                })
                .unwrap_or_default();
            saves.sort();
            if !saves.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.label("Saved games:");
                    for path in &saves {
                        let name = path
                            .file_name()
                            .map(|n| n.to_string_lossy().to_string())
                            .unwrap_or_default();
                        if ui.button(format!("Load {name}")).clicked() {
                            start = Some(
                                Session::load(path, Some(autosave_path()))
                                    .map_err(|e| e.to_string()),
                            );
                        }
                    }
                });
                ui.add_space(6.0);
            }
            if let Some(err) = &menu.error {
                ui.colored_label(egui::Color32::from_rgb(220, 80, 60), err);
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                let mut last_ruleset = String::new();
                for entry in &entries {
                    match &entry.summary {
                        Ok(s) => {
                            if s.ruleset != last_ruleset {
                                ui.add_space(8.0);
                                ui.heading(&s.ruleset);
                                last_ruleset = s.ruleset.clone();
                            }
                            let chosen = menu
                                .players
                                .entry(entry.path.clone())
                                .or_insert_with(|| vec![Player::Human; s.sides.len()]);
                            ui.group(|ui| {
                                ui.horizontal(|ui| {
                                    if ui.button("Play").clicked() {
                                        let players = chosen.clone();
                                        start = Some(
                                            Session::start(
                                                &entry.path,
                                                new_seed(&options),
                                                &options.options,
                                                Some(autosave_path()),
                                            )
                                            .map(|mut session| {
                                                session.players = players;
                                                session
                                            })
                                            .map_err(|e| e.to_string()),
                                        );
                                    }
                                    ui.strong(format!("{} — {}", s.name, s.date));
                                    ui.label(format!(
                                        "{}  ·  {} turns",
                                        s.sides.join(" vs "),
                                        s.turns
                                    ));
                                });
                                ui.horizontal_wrapped(|ui| {
                                    for (i, side) in s.sides.iter().enumerate() {
                                        ui.label(format!("{side}:"));
                                        player_choice(ui, (&entry.path, i), &mut chosen[i]);
                                    }
                                });
                                ui.label(egui::RichText::new(&s.history).italics());
                            });
                        }
                        Err(e) => {
                            ui.colored_label(
                                egui::Color32::from_rgb(220, 80, 60),
                                format!("{}: {e}", entry.path.display()),
                            );
                        }
                    }
                }
                if entries.is_empty() {
                    ui.label("No scenarios found: run from the folder that holds `scenarios/`.");
                }
            });
        },
    );
    match start {
        Some(Ok(session)) => {
            commands.insert_resource(session);
            next.set(Screen::Playing);
            menu.error = None;
        }
        Some(Err(e)) => menu.error = Some(e),
        None => {}
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn game_panels(
    mut contexts: EguiContexts,
    session: Res<Session>,
    ui_state: Res<Interaction>,
    mut input: MessageWriter<PlayerInput>,
    mut next: ResMut<NextState<Screen>>,
    mut panel_space: ResMut<super::camera::PanelSpace>,
    computer: Res<ComputerTurn>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &session.game;
    let world = &game.world;
    let turn = game.turn();
    let sides = &game.scenario.file.sides;
    let side_name = |s: SideId| sides[s.0 as usize].name.clone();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "game".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let mut send = |i: PlayerInput| {
        input.write(i);
    };

    // The hand-over screen hides everything else.
    if let Some(side) = ui_state.hand_over {
        egui::CentralPanel::default()
            .frame(egui::Frame::new().fill(egui::Color32::from_rgb(24, 24, 30)))
            .show(&mut root, |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() / 3.0);
                    ui.heading(
                        egui::RichText::new(format!("Hand the seat to {}", side_name(side)))
                            .size(32.0)
                            .color(side_color32(game, side)),
                    );
                    ui.label("Something on the map is hidden from the other player.");
                    ui.add_space(12.0);
                    if ui
                        .button(
                            egui::RichText::new(format!("I am {} — show the map", side_name(side)))
                                .size(20.0),
                        )
                        .clicked()
                    {
                        send(PlayerInput::HandOverDone);
                    }
                });
            });
        return Ok(());
    }

    // Top bar: turn, phase, side, morale, the buttons.
    let top_bar = egui::Panel::top("turn_bar").show(&mut root, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.strong(format!(
                "{} — turn {}/{}",
                game.scenario.file.name, turn.turn, turn.last_turn
            ));
            ui.separator();
            ui.label(if turn.phase.rule.is_empty() {
                turn.phase.label.to_string()
            } else {
                format!("{} ({})", turn.phase.label, turn.phase.rule)
            });
            ui.colored_label(side_color32(game, turn.active), side_name(turn.active));
            ui.separator();
            for m in game.ruleset.morale(world) {
                ui.colored_label(
                    side_color32(game, m.side),
                    format!("{} lost {} / {}", m.name, m.lost, m.level),
                )
                .on_hover_text("lost morale against the army's level (victory rules)");
            }
            if let Some(standing) = game.ruleset.standing(world) {
                // "VP 5 – 3 tactical", each figure in its side's colour; the words
                // on hover.
                ui.label(&standing.label).on_hover_text(&standing.detail);
                for (i, (side, score)) in standing.scores.iter().enumerate() {
                    if i > 0 {
                        ui.label("–");
                    }
                    ui.colored_label(side_color32(game, *side), score.to_string())
                        .on_hover_text(&standing.detail);
                }
                match &standing.ahead {
                    Some((side, level)) => {
                        ui.colored_label(side_color32(game, *side), level)
                            .on_hover_text(&standing.detail);
                    }
                    None => {
                        ui.label("draw").on_hover_text(&standing.detail);
                    }
                }
            }
            ui.separator();
            let over = game.is_over();
            let replaying = session.replay.is_some();
            if ui
                .add_enabled(!over && !replaying, egui::Button::new("End phase (E)"))
                .clicked()
            {
                send(PlayerInput::Submit(Command::EndPhase));
            }
            if ui
                .add_enabled(session.undo_blocked().is_none(), egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z: back to the last die roll, reveal or phase end")
                .clicked()
            {
                send(PlayerInput::Undo);
            }
            if ui
                .add_enabled(session.can_redo(), egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Y")
                .clicked()
            {
                send(PlayerInput::Redo);
            }
            if ui.button("Save").on_hover_text("Ctrl+S").clicked() {
                send(PlayerInput::Save);
            }
            if ui
                .add_enabled(!replaying, egui::Button::new("Replay"))
                .on_hover_text("step back through the game, and play on from any point")
                .clicked()
            {
                send(PlayerInput::Replay(ReplayInput::Open));
            }
            if ui
                .selectable_label(ui_state.show_zoc, "ZoC (Z)")
                .on_hover_text("shade the enemy's zones of control")
                .clicked()
            {
                send(PlayerInput::ToggleZoc);
            }
            if ui
                .selectable_label(ui_state.threats.is_some(), "Threats (T)")
                .on_hover_text(
                    "shade each hex by how many enemy units could attack it in their next phase; hover a hex for which, and with what odds",
                )
                .clicked()
            {
                send(PlayerInput::ToggleThreats);
            }
            if ui
                .selectable_label(ui_state.show_labels, "Labels (L)")
                .clicked()
            {
                send(PlayerInput::ToggleLabels);
            }
            if ui
                .selectable_label(ui_state.sight_tool, "Sight (V)")
                .on_hover_text(
                    "the line of sight between two hexes you click, as the rules read it",
                )
                .clicked()
            {
                send(PlayerInput::ToggleSight);
            }
            if ui
                .selectable_label(ui_state.aid_page.is_some(), "Aids (F2)")
                .on_hover_text("the sequence of play, this step lit, and the ruleset's tables")
                .clicked()
            {
                send(PlayerInput::ToggleAids);
            }
            if ui
                .selectable_label(ui_state.show_help, "Help (F1)")
                .on_hover_text("keys and mouse actions; the UI scale")
                .clicked()
            {
                send(PlayerInput::ToggleHelp);
            }
            for (i, side) in sides.iter().enumerate() {
                let mut player = session.players[i];
                ui.label(format!("{}:", side.name));
                if player_choice(ui, ("player", i), &mut player) {
                    send(PlayerInput::SetPlayer(side.id.clone(), player));
                }
            }
            if ui.button("Menu").clicked() {
                next.set(Screen::Menu);
            }
        });
        ui.horizontal(|ui| {
            // A what-if branch says where it left, whatever the last command said.
            if let Some(b) = &game.branch {
                ui.label(
                    egui::RichText::new(format!(
                        "What-if branch: from command {} of {}",
                        b.at, b.save
                    ))
                    .small()
                    .color(egui::Color32::from_rgb(230, 180, 60)),
                );
                ui.separator();
            }
            ui.label(egui::RichText::new(&ui_state.status).small());
        });
    });
    panel_space.top = top_bar.response.rect.height() * ctx.zoom_factor();

    // The replay bar: where the game stands, the steps, the timeline, the branch.
    if let Some(view) = &session.replay {
        egui::Panel::bottom("replay_bar").show(&mut root, |ui| {
            ui.horizontal(|ui| {
                ui.strong(format!("Replay: point {} of {}", view.at, view.commands.len()));
                let next = view
                    .commands
                    .get(view.at)
                    .map(|c| format!("next: {c}"))
                    .unwrap_or_else(|| "the end of the game".into());
                ui.label(next);
                // Where each turn and phase begins: a jump to any of them.
                let here = view
                    .marks
                    .iter()
                    .rev()
                    .find(|m| m.after <= view.at)
                    .map(|m| format!("turn {}, {} ({})", m.turn, m.phase, m.side))
                    .unwrap_or_default();
                egui::ComboBox::from_id_salt("replay_marks")
                    .selected_text(here)
                    .show_ui(ui, |ui| {
                        for m in &view.marks {
                            let label = format!("turn {}, {} ({})", m.turn, m.phase, m.side);
                            if ui.selectable_label(m.after == view.at, label).clicked() {
                                send(PlayerInput::Replay(ReplayInput::Seek(m.after)));
                            }
                        }
                    });
                if let Some(side) = view.watching {
                    ui.colored_label(
                        side_color32(game, side),
                        format!("watched by {}", side_name(side)),
                    )
                    .on_hover_text("what that side could not see stays hidden");
                }
            });
            ui.horizontal(|ui| {
                let step = |r: ReplayInput| PlayerInput::Replay(r);
                if ui.button("|◀").on_hover_text("Home").clicked() {
                    send(step(ReplayInput::Seek(0)));
                }
                if ui.button("◀").on_hover_text(",").clicked() {
                    send(step(ReplayInput::Step(-1)));
                }
                if ui.button("▶").on_hover_text(".").clicked() {
                    send(step(ReplayInput::Step(1)));
                }
                if ui.button("▶|").on_hover_text("End").clicked() {
                    send(step(ReplayInput::Seek(view.commands.len())));
                }
                let mut at = view.at;
                let width = (ui.available_width() - 260.0).max(120.0);
                ui.spacing_mut().slider_width = width;
                if ui
                    .add(egui::Slider::new(&mut at, 0..=view.commands.len()).show_value(false))
                    .changed()
                {
                    send(step(ReplayInput::Seek(at)));
                }
                if ui
                    .button("Play from here")
                    .on_hover_text("a what-if branch: the game goes on from this point, saved under its own name")
                    .clicked()
                {
                    send(step(ReplayInput::PlayFromHere));
                }
                if ui.button("Leave replay").clicked() {
                    send(step(ReplayInput::Leave));
                }
            });
        });
    }

    // Right panel: the unit, the hover, the log.
    let side = egui::Panel::right("side_panel")
        .exact_size(super::camera::RIGHT_PANEL)
        .show(&mut root, |ui| {
            let units = world.resource::<Units>();
            // The decision the rules wait for, at the head of the panel: it never
            // covers the hexes it is about, which are lit on the map.
            if let Some(thinking) = &computer.thinking {
                computer_box(ui, thinking, &side_name(thinking.side), side_color32(game, thinking.side));
            } else if let Some(decision) = pending_decision(&session) {
                decision_box(ui, &decision, &side_name(decision.side), side_color32(game, decision.side), &mut send);
            }
            if !computer.moves.is_empty() {
                egui::CollapsingHeader::new("The computer's moves")
                    .default_open(true)
                    .show(ui, |ui| {
                        for line in computer.moves.iter().rev().take(4) {
                            ui.small(line);
                        }
                    });
            }
            egui::ScrollArea::vertical()
                .id_salt("info")
                .max_height(ui.available_height() * 0.68)
                .show(ui, |ui| {
                    let status = game.ruleset.status_lines(world);
                    if !status.is_empty() {
                        for line in status {
                            ui.small(line);
                        }
                        ui.separator();
                    }
                    if let Some(h) = ui_state.hover {
                        for marked in game.ruleset.marked_hexes(world) {
                            if marked.hex == h {
                                ui.small(format!("{h}: {}", marked.text));
                            }
                        }
                    }
                    if ui_state.hover_info != HoverInfo::None {
                        // A preview of a fight no command declares (a C&M mêlée between
                        // units in contact) is not clicked.
                        let declarable = match &ui_state.hover_info {
                            HoverInfo::Attack(p) => game.ruleset.check(world, &p.command).is_ok(),
                            _ => true,
                        };
                        hover_panel(ui, &ui_state.hover_info, declarable);
                        ui.separator();
                    }
                    if let Some(id) = ui_state.selected {
                        let e = units.entity(id);
                        let name = world
                            .get::<UnitName>(e)
                            .map(|n| n.name.clone())
                            .unwrap_or_default();
                        let at = world
                            .get::<Placement>(e)
                            .map(|p| match p {
                                Placement::OnMap(h) => h.label(),
                                Placement::Waiting => "waiting".into(),
                                Placement::Eliminated => "eliminated".into(),
                            })
                            .unwrap_or_default();
                        ui.heading(format!("{name} ({at})"));
                        if ui_state.group.len() > 1 {
                            ui.label(format!(
                                "Group of {} units (Shift+click adds or drops one): the shaded hexes are where its first unit can lead it",
                                ui_state.group.len()
                            ));
                        }
                        egui::Grid::new("card").striped(true).show(ui, |ui| {
                            for (k, v) in game.ruleset.unit_card(world, e) {
                                ui.label(k);
                                ui.label(v);
                                ui.end_row();
                            }
                        });
                        for action in game.ruleset.unit_actions(world, e) {
                            if ui.button(&action.label).clicked() {
                                send(PlayerInput::Submit(action.command.clone()));
                            }
                        }
                        if let Some(why) = &ui_state.cannot_move
                            && turn.phase.kind == PhaseKind::Move
                        {
                            ui.colored_label(egui::Color32::from_rgb(230, 120, 80), why);
                        }
                        // The other units of the hex, to pick a leader under a counter.
                        if let Some(hex) = world.get::<Placement>(e).and_then(|p| p.hex()) {
                            let others = units_seen_at(&session, hex, ui_state.viewer);
                            if others.len() > 1 {
                                ui.horizontal_wrapped(|ui| {
                                    ui.label("In this hex:");
                                    for o in others {
                                        let n = world
                                            .get::<UnitName>(units.entity(o))
                                            .map(|n| n.name.clone())
                                            .unwrap_or_default();
                                        if ui
                                            .selectable_label(Some(o) == ui_state.selected, n)
                                            .clicked()
                                        {
                                            send(PlayerInput::Select(o));
                                        }
                                    }
                                });
                            }
                        }
                    } else if let Some(line) = &ui_state.sight {
                        ui.strong(format!(
                            "Line of sight {} - {}: {}",
                            line.from,
                            line.to,
                            if line.clear { "clear" } else { "blocked" }
                        ));
                        for step in &line.steps {
                            ui.small(step.to_string());
                        }
                    } else if ui_state.sight_tool {
                        ui.label("Line of sight: click its first hex, then its other end.");
                    } else if session.replay.is_some() {
                        ui.label("Replay: click a unit to read its card; step with the bar below.");
                    } else {
                        ui.label(match turn.phase.kind {
                            PhaseKind::Move => {
                                "Click one of your units to see where it can move."
                            }
                            PhaseKind::Fight => {
                                "Click your units to choose the attackers, then an enemy to attack."
                            }
                            PhaseKind::Fire => {
                                "Click your shooters to choose them, then an enemy to shoot at."
                            }
                            PhaseKind::Place => {
                                "Set-up: answer the dialog; a placed unit's card can turn it."
                            }
                            PhaseKind::Decide => "Answer the dialog.",
                            PhaseKind::Over => "The game is over.",
                        });
                    }
                    // The threat map: the hovered hex's enemy units and their odds.
                    if let Some(map) = &ui_state.threats {
                        ui.separator();
                        threat_lines(ui, world, map, ui_state.hover);
                    }
                    // Units off the map that may enter (reinforcements).
                    let waiting: Vec<_> = units
                        .ids()
                        .filter(|id| {
                            let e = units.entity(*id);
                            world.get::<Placement>(e) == Some(&Placement::Waiting)
                                && world.get::<SideId>(e) == Some(&turn.active)
                        })
                        .collect();
                    if !waiting.is_empty() && turn.phase.kind == PhaseKind::Move {
                        ui.separator();
                        ui.label("Off the map:");
                        for id in waiting {
                            let n = world
                                .get::<UnitName>(units.entity(id))
                                .map(|n| n.name.clone())
                                .unwrap_or_default();
                            if ui
                                .selectable_label(Some(id) == ui_state.selected, n)
                                .clicked()
                            {
                                send(PlayerInput::Select(id));
                            }
                        }
                    }
                });
            ui.separator();
            ui.strong("Log");
            // Only the rows in view are laid out: a long game's log costs nothing.
            let events = &game.log().events;
            let row_height = ui.text_style_height(&egui::TextStyle::Small);
            egui::ScrollArea::vertical()
                .id_salt("log")
                .stick_to_bottom(true)
                .auto_shrink([false, false])
                .show_rows(ui, row_height, events.len(), |ui, rows| {
                    for ev in &events[rows] {
                        // The rule first: a long line is cut at the panel's edge.
                        let line = plain(&format!("[{}] {}", ev.rule, ev.text));
                        ui.add(egui::Label::new(egui::RichText::new(line).small()).truncate())
                            .on_hover_text(format!("{} ({})", ev.text, ev.rule));
                    }
                });
        });
    panel_space.right = side.response.rect.width() * ctx.zoom_factor();

    if let Some(outcome) = &turn.outcome {
        egui::Window::new("The battle is over")
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(-RIGHT_HALF, 0.0))
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                let head = match (outcome.winner, &outcome.level) {
                    (Some(w), Some(level)) => format!("{} wins: {level:?} victory", side_name(w)),
                    (Some(w), None) => format!("{} wins", side_name(w)),
                    (None, _) => "A draw".to_string(),
                };
                ui.heading(head);
                ui.label(&outcome.reason);
                for m in game.ruleset.morale(world) {
                    ui.label(format!("{} lost {} morale of {}", m.name, m.lost, m.level));
                }
                ui.horizontal(|ui| {
                    if ui.button("Save the game").clicked() {
                        send(PlayerInput::Save);
                    }
                    if ui.button("Back to the menu").clicked() {
                        next.set(Screen::Menu);
                    }
                });
            });
    }
    Ok(())
}

/// Text with the arrows egui's default fonts lack replaced by ASCII.
fn plain(text: &str) -> String {
    text.replace('→', "->").replace('←', "<-")
}

/// Half the right panel: dialogs centre on the map, not on the window.
const RIGHT_HALF: f32 = super::camera::RIGHT_PANEL / 2.0;

fn hover_panel(ui: &mut egui::Ui, info: &HoverInfo, declarable: bool) {
    match info {
        HoverInfo::None => {}
        HoverInfo::Note(n) => {
            ui.label(n);
        }
        HoverInfo::Move(m) => {
            let path: Vec<String> = m.path.iter().map(|h| h.label()).collect();
            ui.strong(format!(
                "Move to {}: {} MP, {} left",
                m.hex,
                m.mp_text(m.cost),
                m.mp_text(m.left)
            ));
            if !m.note.is_empty() {
                ui.label(&m.note);
            }
            ui.label(format!("path {}", path.join(" - ")));
            ui.small("click to move");
        }
        HoverInfo::Illegal(why) => {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 70), why);
        }
        HoverInfo::Attack(p) => {
            ui.strong(&p.odds);
            for m in &p.modifiers {
                ui.label(m);
            }
            egui::Grid::new("chances").striped(true).show(ui, |ui| {
                ui.strong("result");
                ui.strong("chance");
                ui.end_row();
                for (r, chance) in &p.chances {
                    ui.label(r);
                    ui.label(format!("{:.1}%", chance * 100.0));
                    ui.end_row();
                }
            });
            ui.small(if declarable {
                "click to attack"
            } else {
                "a fight to come: no command declares it"
            });
        }
    }
}

/// The threat map's part of the side panel: what it shows, and for the hovered hex the
/// enemy units that could attack it next phase, each with its best odds or dice.
fn threat_lines(
    ui: &mut egui::Ui,
    world: &World,
    map: &crate::engine::threat::ThreatMap,
    hover: Option<HexCoord>,
) {
    ui.strong(format!(
        "Threat map: {} hexes the enemy could attack in its next phase (the number of units on each)",
        map.hexes.len()
    ));
    let Some(hex) = hover else {
        ui.small("Hover a hex for the units and their odds.");
        return;
    };
    let threats = map.at(hex);
    if threats.is_empty() {
        ui.small(format!("{hex}: no enemy unit could attack here."));
        return;
    }
    ui.label(format!(
        "{hex}: {} enemy units could attack here",
        threats.len()
    ));
    for t in threats {
        ui.small(format!(
            "{}: {}",
            crate::engine::threat::unit_label(world, t.unit),
            t.best
        ));
    }
}

/// A decision of the rules: who decides, the question and its rule, and a button for
/// each answer (answers by hex are clicked on the map when there are many).
/// The computer at work, framed in its side's colour: its progress in playouts.
fn computer_box(
    ui: &mut egui::Ui,
    thinking: &super::computer::Thinking,
    side: &str,
    colour: egui::Color32,
) {
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, colour))
        .show(ui, |ui| {
            ui.strong(format!(
                "{side}: the computer ({}) is thinking",
                thinking.level
            ));
            let done = thinking.done();
            ui.add(
                egui::ProgressBar::new(done as f32 / thinking.playouts.max(1) as f32)
                    .text(format!("{done} / {} playouts", thinking.playouts)),
            );
        });
}

fn decision_box(
    ui: &mut egui::Ui,
    decision: &crate::engine::view::Decision,
    side: &str,
    colour: egui::Color32,
    send: &mut impl FnMut(PlayerInput),
) {
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, colour))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.strong(egui::RichText::new(format!("{side} decides")).color(colour));
            ui.label(&decision.prompt);
            ui.small(format!("({})", decision.rule));
            let on_map = decision.choices.iter().filter(|c| c.hex.is_some()).count();
            if on_map > 6 {
                ui.label(format!("Click one of the {on_map} highlighted hexes."));
            }
            // A long list (the set-up's ambush candidates) scrolls.
            egui::ScrollArea::vertical()
                .id_salt("decision")
                .max_height(220.0)
                .show(ui, |ui| {
                    for c in &decision.choices {
                        if on_map > 6 && c.hex.is_some() {
                            continue;
                        }
                        if ui.button(&c.label).clicked() {
                            send(PlayerInput::Submit(c.command.clone()));
                        }
                    }
                });
        });
    ui.add_space(4.0);
}

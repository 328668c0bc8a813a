//! The window's input path without any rendering: a player's clicks and keys arrive as
//! `PlayerInput` messages (in hexes, already converted from the cursor), become
//! commands for the session, and leave behind what the view shows: the selection, the
//! shaded moves, the hovered path or the reason a hex is illegal, the attack preview,
//! the hand-over screen. Headless tests drive the window through these messages.

use bevy::prelude::*;

use crate::ai::Player;
use crate::engine::command::Command;
use crate::engine::game::TurnState;
use crate::engine::hex::HexCoord;
use crate::engine::phase::PhaseKind;
use crate::engine::units::{Hidden, Leader, Placement, SideId, UnitId, Units};
use crate::engine::view::{AttackPreview, Decision, MoveOption};

pub use super::input_script::{parse_input_line, parse_input_script};
use super::session::Session;

/// What a player did, in the terms of the map and the panels.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum PlayerInput {
    /// The cursor is over this hex (or off the map).
    Hover(Option<HexCoord>),
    /// A left click on a hex.
    Click(HexCoord),
    /// Shift and a left click: add the unit of a hex to the group to move, or drop it.
    GroupClick(HexCoord),
    /// A unit picked from a panel (a leader under a counter, a unit off the map).
    Select(UnitId),
    /// Right click or Escape: drop the selection.
    Cancel,
    /// A command from a button: a dialog's choice, End phase.
    Submit(Command),
    Undo,
    Redo,
    /// Ctrl+S: save to the session's save file.
    Save,
    /// The next player has taken the seat.
    HandOverDone,
    ToggleZoc,
    ToggleLabels,
    /// The replay view (issue 18): open it, move through it, play on from its point.
    Replay(ReplayInput),
    /// The line-of-sight tool on or off: while on, clicks pick a line's two ends.
    ToggleSight,
    /// The threat map on or off (issue 18): the hexes the enemy could attack next.
    ToggleThreats,
    /// F1: the help screen of keys and mouse actions, on or off.
    ToggleHelp,
    /// The player aids window (the sequence of play and the ruleset's tables) on or
    /// off.
    ToggleAids,
    /// The player aids window open at a page: 0 the sequence of play, then each table.
    AidPage(usize),
    /// The minimap on or off.
    ToggleMinimap,
    /// F: the whole map in view (the camera's; the game is not touched).
    FitMap,
    /// Ctrl + / Ctrl − / a setting: the panels' scale.
    UiScale(UiScaleChange),
    /// Who plays a side (by its id in the scenario): a person or the computer at a
    /// level (the menu's choice, `--side`, the input line `player SIDE LEVEL`).
    SetPlayer(String, crate::ai::Player),
}

impl PlayerInput {
    /// The player aids, help, minimap, camera and display settings: they show nothing
    /// of the game's hidden state, so they answer behind the hand-over screen too.
    pub fn shows_nothing_hidden(&self) -> bool {
        matches!(
            self,
            PlayerInput::ToggleHelp
                | PlayerInput::ToggleAids
                | PlayerInput::AidPage(_)
                | PlayerInput::ToggleMinimap
                | PlayerInput::FitMap
                | PlayerInput::UiScale(_)
        )
    }
}

/// A change of the UI scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UiScaleChange {
    Larger,
    Smaller,
    Set(f32),
}

/// What the replay view is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayInput {
    Open,
    /// Forward (positive) or back by this many commands.
    Step(i64),
    /// To the point after this many commands.
    Seek(usize),
    /// A what-if branch from the point shown.
    PlayFromHere,
    Leave,
}

/// What the cursor over a hex means now.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum HoverInfo {
    #[default]
    None,
    /// A legal move of the selected unit: path, cost, MP left.
    Move(MoveOption),
    /// A hex the selected unit cannot move to, or an attack that is illegal, and why.
    Illegal(String),
    /// The odds of attacking the hovered enemy with the chosen attackers.
    Attack(AttackPreview),
    /// A plain hint.
    Note(String),
}

/// The state of the player's interaction with the map, read by the view.
#[derive(Resource, Debug, Default)]
pub struct Interaction {
    /// The unit whose card is shown (and who moves, in a movement phase).
    pub selected: Option<UnitId>,
    /// Movement phase: the units moving together as a group (CdB 5), the selected unit
    /// first; empty or one unit for a single unit.
    pub group: Vec<UnitId>,
    /// Combat phase: the hexes of the units chosen to attack together.
    pub attackers: Vec<HexCoord>,
    pub hover: Option<HexCoord>,
    /// The selected unit's legal moves.
    pub moves: Vec<MoveOption>,
    /// The hexes the selected unit reaches otherwise (`Ruleset::unit_area`): its
    /// command radius, its range.
    pub area: Vec<HexCoord>,
    /// Why the selected unit cannot move, when it cannot.
    pub cannot_move: Option<String>,
    pub hover_info: HoverInfo,
    /// The last refusal or notice, shown in the status line.
    pub status: String,
    /// The last input was not heeded: a refused command, a click on a hex the rules
    /// refuse, a click while a decision waits or behind the hand-over screen, an enemy
    /// clicked before any attacker, an undo or redo that cannot be made (scripts and
    /// tests check it).
    pub unheeded: bool,
    pub show_zoc: bool,
    pub show_labels: bool,
    /// The line-of-sight tool is on: a click picks the line's first hex, the next its
    /// other end (issue 18).
    pub sight_tool: bool,
    /// The line's first hex, picked.
    pub sight_from: Option<HexCoord>,
    /// The line between the two hexes picked, as the ruleset reads it.
    pub sight: Option<crate::engine::hex::SightLine>,
    /// The threat map of the side to act, while shown; made again at each change of
    /// the game.
    pub threats: Option<crate::engine::threat::ThreatMap>,
    /// The side asked to take the seat; the map is hidden until it does.
    pub hand_over: Option<SideId>,
    /// The help screen (F1) is shown.
    pub show_help: bool,
    /// The player aids window is shown, at this page (0: the sequence of play, then
    /// each of the ruleset's tables).
    pub aid_page: Option<usize>,
    pub show_minimap: bool,
    /// The side whose eyes the map is drawn for.
    pub viewer: SideId,
    seen_revision: Option<u64>,
    /// Whether `viewer` has been set for this game (the first player is asked to
    /// take the seat too, when something is hidden).
    viewer_known: bool,
    dirty: bool,
}

impl Interaction {
    /// A fresh interaction: nothing selected, hex labels shown.
    pub fn new() -> Self {
        Self {
            show_labels: true,
            show_minimap: true,
            ..default()
        }
    }
}

/// The order of the client's logic in a frame.
#[derive(SystemSet, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ClientSet {
    /// Turn raw input (cursor, keys) into `PlayerInput`.
    Input,
    /// Apply `PlayerInput` and refresh the `Interaction`.
    Logic,
    /// Draw.
    View,
}

/// The input path and interaction state; no rendering. The window adds drawing on top.
pub struct ControllerPlugin;

impl Plugin for ControllerPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<PlayerInput>()
            .insert_resource(Interaction::new())
            .init_resource::<super::computer::ComputerTurn>()
            .configure_sets(
                Update,
                (ClientSet::Input, ClientSet::Logic, ClientSet::View).chain(),
            )
            .add_systems(
                Update,
                (
                    apply_player_input,
                    super::computer::computer_turn,
                    refresh_interaction,
                )
                    .chain()
                    .in_set(ClientSet::Logic)
                    .run_if(resource_exists::<Session>),
            );
    }
}

/// The decision the rules wait for, if any.
pub fn pending_decision(session: &Session) -> Option<Decision> {
    session.game.ruleset.decision(&session.game.world)
}

/// The side whose eyes the map is drawn for: whoever must decide now, else the side
/// whose phase it is.
pub fn viewer(session: &Session) -> SideId {
    // A replay is watched by the side that opened it, whatever point it shows.
    if let Some(side) = session.replay.as_ref().and_then(|r| r.watching) {
        return side;
    }
    // Against the computer the map is always the person's view.
    if let Some(side) = session.sole_human() {
        return side;
    }
    session.game.side_to_act()
}

/// Whether a unit is drawn for `viewer`: hidden units only for their owner.
pub fn visible_to(world: &World, entity: Entity, viewer: SideId) -> bool {
    world.get::<Hidden>(entity).is_none() || world.get::<SideId>(entity) == Some(&viewer)
}

/// Whether anything is hidden from one player, so that the seat must change hands
/// behind a screen: the ruleset says (`Ruleset::hidden_information`).
pub fn hidden_information(session: &Session) -> bool {
    session.game.ruleset.hidden_information(&session.game.world)
}

/// The units in a hex that `viewer` sees, combat units first.
pub fn units_seen_at(session: &Session, hex: HexCoord, viewer: SideId) -> Vec<UnitId> {
    let world = &session.game.world;
    let units = world.resource::<Units>();
    let board = world.resource::<crate::engine::board::Board>();
    if !board.contains(hex) {
        return Vec::new();
    }
    let mut ids: Vec<UnitId> = units
        .at(board, hex)
        .iter()
        .copied()
        .filter(|id| visible_to(world, units.entity(*id), viewer))
        .collect();
    // A stand of a unit spread over several hexes picks its unit too.
    if let Some(owner) = session.game.ruleset.stand_owner(world, hex)
        && !ids.contains(&owner)
        && visible_to(world, units.entity(owner), viewer)
    {
        ids.push(owner);
    }
    ids.sort_by_key(|id| (world.get::<Leader>(units.entity(*id)).is_some(), id.0));
    ids
}

fn entity_of(session: &Session, id: UnitId) -> Entity {
    session.game.world.resource::<Units>().entity(id)
}

fn side_of(session: &Session, id: UnitId) -> SideId {
    session
        .game
        .world
        .get::<SideId>(entity_of(session, id))
        .copied()
        .unwrap_or(SideId(0))
}

fn hex_of(session: &Session, id: UnitId) -> Option<HexCoord> {
    session
        .game
        .world
        .get::<Placement>(entity_of(session, id))
        .and_then(|p| p.hex())
}

pub(crate) fn submit(session: &mut Session, ui: &mut Interaction, command: &Command) -> bool {
    match session.submit(command) {
        Ok(()) => {
            ui.status = format!("done: {command}");
            true
        }
        Err(refusal) => {
            ui.status = format!("refused `{command}`: {refusal}");
            ui.unheeded = true;
            false
        }
    }
}

/// Applies the player's inputs in order.
pub fn apply_player_input(
    mut inputs: MessageReader<PlayerInput>,
    mut session: ResMut<Session>,
    mut ui: ResMut<Interaction>,
) {
    for input in inputs.read() {
        ui.dirty = true;
        ui.unheeded = false;
        if ui.hand_over.is_some()
            && *input != PlayerInput::HandOverDone
            && !input.shows_nothing_hidden()
        {
            if !matches!(input, PlayerInput::Hover(_)) {
                ui.status = "hand the seat over first".into();
                ui.unheeded = true;
            }
            continue;
        }
        if let Some((side, level)) = session.computer_to_act()
            && matches!(
                input,
                PlayerInput::Click(_)
                    | PlayerInput::GroupClick(_)
                    | PlayerInput::Submit(_)
                    | PlayerInput::Redo
            )
        {
            ui.status = format!(
                "the computer ({level}) plays {}: wait for its move",
                session.game.side_name(side)
            );
            ui.unheeded = true;
            continue;
        }
        match input {
            PlayerInput::Hover(hex) => ui.hover = *hex,
            PlayerInput::SetPlayer(id, player) => {
                let scenario = session.game.scenario.clone();
                let sides = &scenario.file.sides;
                match sides.iter().position(|s| s.id == *id) {
                    Some(i) => {
                        session.players[i] = *player;
                        ui.status = format!("{} is played by: {player}", sides[i].name);
                        ui.viewer_known = false;
                        session.revision += 1;
                    }
                    None => {
                        ui.status = format!(
                            "no side `{id}` (its sides: {})",
                            sides
                                .iter()
                                .map(|s| s.id.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        );
                        ui.unheeded = true;
                    }
                }
            }
            PlayerInput::Click(hex) => click(&mut session, &mut ui, *hex),
            PlayerInput::GroupClick(hex) => {
                let viewer = viewer(&session);
                if let Some(&u) = units_seen_at(&session, *hex, viewer).first()
                    && side_of(&session, u) == session.game.turn().active
                {
                    if ui.group.is_empty()
                        && let Some(s) = ui.selected
                    {
                        ui.group.push(s);
                    }
                    if let Some(i) = ui.group.iter().position(|g| *g == u) {
                        ui.group.remove(i);
                    } else {
                        ui.group.push(u);
                    }
                    ui.selected = ui.group.first().copied();
                }
            }
            PlayerInput::Select(id) => {
                ui.selected = Some(*id);
            }
            PlayerInput::Cancel => {
                ui.selected = None;
                ui.group.clear();
                ui.attackers.clear();
                ui.status.clear();
            }
            PlayerInput::Submit(command) => {
                if submit(&mut session, &mut ui, command) {
                    ui.attackers.clear();
                    if matches!(command, Command::EndPhase) {
                        ui.selected = None;
                    }
                }
            }
            PlayerInput::Undo => match session.undo() {
                Ok(()) => ui.status = "undone".into(),
                Err(why) => {
                    ui.status = format!("cannot undo: {why}");
                    ui.unheeded = true;
                }
            },
            PlayerInput::Redo => match session.redo() {
                Ok(()) => ui.status = "redone".into(),
                Err(why) => {
                    ui.status = format!("cannot redo: {why}");
                    ui.unheeded = true;
                }
            },
            PlayerInput::Save => {
                let path = session.save_path();
                ui.status = match session.save_to(&path) {
                    Ok(()) => format!("saved to {}", path.display()),
                    Err(e) => e,
                };
            }
            PlayerInput::HandOverDone => ui.hand_over = None,
            PlayerInput::ToggleZoc => ui.show_zoc = !ui.show_zoc,
            PlayerInput::ToggleThreats => {
                ui.threats = match ui.threats {
                    Some(_) => None,
                    None => Some(session.game.threat_map()),
                };
                ui.dirty = true;
            }
            PlayerInput::ToggleLabels => ui.show_labels = !ui.show_labels,
            PlayerInput::Replay(r) => replay_input(&mut session, &mut ui, r),
            PlayerInput::ToggleSight => {
                ui.sight_tool = !ui.sight_tool;
                ui.selected = None;
                ui.sight_from = None;
                ui.sight = None;
                ui.status = if ui.sight_tool {
                    "line of sight: click the line's first hex, then its other end".into()
                } else {
                    String::new()
                };
            }
            PlayerInput::ToggleHelp => ui.show_help = !ui.show_help,
            PlayerInput::ToggleAids => {
                ui.aid_page = match ui.aid_page {
                    Some(_) => None,
                    None => Some(0),
                };
            }
            PlayerInput::AidPage(page) => ui.aid_page = Some(*page),
            PlayerInput::ToggleMinimap => ui.show_minimap = !ui.show_minimap,
            // The camera and the window's display settings read these messages.
            PlayerInput::FitMap | PlayerInput::UiScale(_) => {}
        }
    }
}

/// The replay view's inputs: open it (watched by the side at the seat), step, seek,
/// leave, or play on from the point shown.
fn replay_input(session: &mut Session, ui: &mut Interaction, input: &ReplayInput) {
    let at = session.replay.as_ref().map(|r| r.at);
    let result = match (input, at) {
        (ReplayInput::Open, _) => {
            let watching = viewer(session);
            session.enter_replay(watching);
            Ok(())
        }
        (_, None) => Err("no replay is open (the Replay button opens it)".to_string()),
        (ReplayInput::Step(d), Some(at)) => session.seek(at.saturating_add_signed(*d as isize)),
        (ReplayInput::Seek(n), Some(_)) => session.seek(*n),
        (ReplayInput::Leave, Some(_)) => session.leave_replay(),
        (ReplayInput::PlayFromHere, Some(_)) => session.play_from_here().map(|at| {
            ui.status = format!("a what-if branch from command {at}: play on");
        }),
    };
    ui.selected = None;
    ui.group.clear();
    ui.attackers.clear();
    match result {
        Ok(()) => {
            if let Some(r) = &session.replay {
                let t = session.game.turn();
                ui.status = format!(
                    "replay: point {} of {} (turn {}, {})",
                    r.at,
                    r.commands.len(),
                    t.turn,
                    t.phase.label
                );
            } else if matches!(input, ReplayInput::Leave) {
                ui.status = "back to the game".into();
            }
        }
        Err(why) => {
            ui.status = format!("replay: {why}");
            ui.unheeded = true;
        }
    }
}

/// A click with the line-of-sight tool on: the line's first hex, then its other end,
/// the line read by the ruleset's own rule (`Ruleset::sight`); a third click starts a
/// new line.
fn sight_click(session: &Session, ui: &mut Interaction, hex: HexCoord) {
    let from = match (ui.sight_from, &ui.sight) {
        (Some(from), None) if from != hex => from,
        _ => {
            ui.sight_from = Some(hex);
            ui.sight = None;
            ui.status = format!("line of sight from {hex}: click its other end");
            return;
        }
    };
    let game = &session.game;
    match game.ruleset.sight(&game.world, from, hex) {
        Some(line) => {
            ui.status = format!(
                "line of sight {from} - {hex}: {}",
                if line.clear { "clear" } else { "blocked" }
            );
            ui.sight = Some(line);
        }
        None => {
            ui.status = format!("{} has no line of sight", game.ruleset.name());
            ui.unheeded = true;
            ui.sight_from = None;
        }
    }
}

/// A left click on a hex: answer a decision, move the selected unit, choose attackers
/// and attack, or select a unit.
fn click(session: &mut Session, ui: &mut Interaction, hex: HexCoord) {
    if ui.sight_tool {
        sight_click(session, ui, hex);
        return;
    }
    if session.game.is_over() {
        return;
    }
    if let Some(decision) = pending_decision(session) {
        let chosen = decision
            .choices
            .iter()
            .find(|c| c.hex == Some(hex))
            .cloned();
        match chosen {
            Some(choice) => {
                submit(session, ui, &choice.command);
            }
            None => {
                ui.status = format!("first: {} ({})", decision.prompt, decision.rule);
                ui.unheeded = true;
            }
        }
        return;
    }
    let viewer = viewer(session);
    let here = units_seen_at(session, hex, viewer);
    let turn: TurnState = session.game.turn().clone();
    match turn.phase.kind {
        PhaseKind::Move => {
            if let Some(m) = ui.moves.iter().find(|m| m.hex == hex).cloned() {
                if submit(session, ui, &m.command) {
                    ui.selected = None;
                    ui.group.clear();
                }
                return;
            }
            ui.group.clear();
            if !here.is_empty() {
                select_in_hex(ui, &here);
            } else if let HoverInfo::Illegal(why) = hover_info(session, ui, Some(hex)) {
                ui.status = why;
                ui.unheeded = true;
            } else {
                ui.selected = None;
            }
        }
        PhaseKind::Fire | PhaseKind::Fight => {
            let Some(&first) = here.first() else {
                ui.selected = None;
                return;
            };
            if side_of(session, first) == turn.active {
                ui.selected = Some(first);
                if let Some(i) = ui.attackers.iter().position(|h| *h == hex) {
                    ui.attackers.remove(i);
                } else {
                    ui.attackers.push(hex);
                    ui.attackers.sort();
                }
            } else if ui.attackers.is_empty() {
                select_in_hex(ui, &here);
                ui.status = "choose the attackers first: click your units".into();
                ui.unheeded = true;
            } else {
                let attackers = ui.attackers.clone();
                let command =
                    session
                        .game
                        .ruleset
                        .attack_command(&session.game.world, &attackers, hex);
                if submit(session, ui, &command) {
                    ui.attackers.clear();
                }
            }
        }
        _ => {
            if !here.is_empty() {
                select_in_hex(ui, &here);
            }
        }
    }
}

/// Selects the first unit of a hex, or the next one when one of them is selected.
fn select_in_hex(ui: &mut Interaction, here: &[UnitId]) {
    let next = match ui.selected.and_then(|s| here.iter().position(|u| *u == s)) {
        Some(i) => here[(i + 1) % here.len()],
        None => here[0],
    };
    ui.selected = Some(next);
}

/// What hovering `hex` means: the path and cost of a legal move, the ruleset's refusal
/// of an illegal one, or an attack's odds.
fn hover_info(session: &Session, ui: &Interaction, hex: Option<HexCoord>) -> HoverInfo {
    let Some(hex) = hex else {
        return HoverInfo::None;
    };
    let game = &session.game;
    let world = &game.world;
    if game.is_over() {
        return HoverInfo::None;
    }
    // While a decision waits, hovering the hex of one of its answers shows that
    // answer's preview when the ruleset has one (a Charles the Bold melee to fight).
    if let Some(d) = pending_decision(session) {
        return d
            .choices
            .iter()
            .filter(|c| c.hex == Some(hex))
            .find_map(|c| game.ruleset.attack_preview(world, &c.command).ok())
            .map_or(HoverInfo::None, HoverInfo::Attack);
    }
    match game.turn().phase.kind {
        PhaseKind::Move => {
            let Some(id) = ui.selected else {
                return HoverInfo::None;
            };
            if let Some(m) = ui.moves.iter().find(|m| m.hex == hex) {
                return HoverInfo::Move(m.clone());
            }
            let Some(start) = hex_of(session, id) else {
                return HoverInfo::None;
            };
            if start == hex {
                return HoverInfo::None;
            }
            if let Some(why) = &ui.cannot_move {
                return HoverInfo::Illegal(why.clone());
            }
            // An enemy hovered with a unit selected: the ruleset's attack from a move
            // phase, when it has one (a Charles the Bold stand fires or fights in its
            // activation); rulesets that attack in a phase of their own refuse it here.
            if units_seen_at(session, hex, viewer(session))
                .first()
                .is_some_and(|u| side_of(session, *u) != game.turn().active)
                && let Some(me) = hex_of(session, id)
            {
                let command = game.ruleset.attack_command(world, &[me], hex);
                if let Ok(preview) = game.ruleset.attack_preview(world, &command) {
                    return HoverInfo::Attack(preview);
                }
            }
            // Ask the ruleset about the last step: from the cheapest reachable
            // neighbour (or the start hex) into the hovered hex; else the straight line.
            let unit = match &ui.moves.first().map(|m| &m.command) {
                Some(Command::Move { unit, .. }) => unit.clone(),
                _ => crate::engine::command::UnitRef::Hex(start),
            };
            let mut attempts: Vec<(i32, Vec<HexCoord>)> = Vec::new();
            if start.is_adjacent(hex) {
                attempts.push((0, vec![hex]));
            }
            for m in &ui.moves {
                if m.hex.is_adjacent(hex) {
                    let mut path = m.path.clone();
                    path.push(hex);
                    attempts.push((m.cost, path));
                }
            }
            attempts.sort_by_key(|(c, _)| *c);
            if attempts.is_empty() {
                let line: Vec<HexCoord> = crate::engine::hex::line_of_hexes(start, hex)
                    .into_iter()
                    .skip(1)
                    .map(|(h, _)| h)
                    .collect();
                attempts.push((0, line));
            }
            for (_, path) in attempts {
                let command = Command::Move {
                    unit: unit.clone(),
                    path,
                };
                if let Err(refusal) = game.ruleset.check(world, &command) {
                    return HoverInfo::Illegal(refusal.to_string());
                }
            }
            HoverInfo::None
        }
        PhaseKind::Fire | PhaseKind::Fight => {
            let viewer = viewer(session);
            let here = units_seen_at(session, hex, viewer);
            let Some(&first) = here.first() else {
                return HoverInfo::None;
            };
            if side_of(session, first) == game.turn().active {
                return HoverInfo::None;
            }
            if ui.attackers.is_empty() {
                return HoverInfo::Note("click your units to choose the attackers".into());
            }
            let command = game.ruleset.attack_command(world, &ui.attackers, hex);
            match game.ruleset.attack_preview(world, &command) {
                Ok(preview) => HoverInfo::Attack(preview),
                Err(refusal) => HoverInfo::Illegal(refusal.to_string()),
            }
        }
        _ => HoverInfo::None,
    }
}

/// Recomputes what the view shows after the game or the interaction changed; asks for
/// a hand-over when the seat must change hands with something hidden in play.
pub fn refresh_interaction(session: Res<Session>, mut ui: ResMut<Interaction>) {
    let changed = ui.seen_revision != Some(session.revision);
    if !changed && !ui.dirty {
        return;
    }
    ui.dirty = false;
    let viewer = viewer(&session);
    if changed {
        ui.seen_revision = Some(session.revision);
        if ui.viewer != viewer || !ui.viewer_known {
            ui.viewer_known = true;
            ui.selected = None;
            ui.attackers.clear();
            // The seat changes hands only between two people.
            let people = session
                .players
                .iter()
                .filter(|p| **p == Player::Human)
                .count();
            if people < 2 {
                ui.hand_over = None;
            } else if hidden_information(&session)
                && !session.game.is_over()
                && session.replay.is_none()
            {
                ui.hand_over = Some(viewer);
            }
        }
        // Drop attackers that are gone or have attacked.
        let active = session.game.turn().active;
        let keep: Vec<HexCoord> = ui
            .attackers
            .iter()
            .copied()
            .filter(|h| {
                units_seen_at(&session, *h, viewer)
                    .first()
                    .is_some_and(|u| side_of(&session, *u) == active)
            })
            .collect();
        ui.attackers = keep;
        if ui.threats.is_some() {
            ui.threats = Some(session.game.threat_map());
        }
    }
    ui.viewer = viewer;
    let world = &session.game.world;
    if ui.group.iter().any(|u| {
        let e = entity_of(&session, *u);
        !visible_to(world, e, viewer) || session.game.turn().phase.kind != PhaseKind::Move
    }) {
        ui.group.clear();
    }
    let (moves, cannot) = match ui.selected {
        Some(_) if ui.group.len() > 1 => {
            match session.game.ruleset.group_move_options(world, &ui.group) {
                Ok(moves) => (moves, None),
                Err(refusal) => (Vec::new(), Some(refusal.to_string())),
            }
        }
        Some(id) => {
            let entity = entity_of(&session, id);
            if !visible_to(world, entity, viewer) {
                ui.selected = None;
                (Vec::new(), None)
            } else {
                match session.game.ruleset.move_options(world, entity) {
                    Ok(moves) => (moves, None),
                    Err(refusal) => (Vec::new(), Some(refusal.to_string())),
                }
            }
        }
        None => (Vec::new(), None),
    };
    ui.area = match ui.selected {
        Some(id) => session
            .game
            .ruleset
            .unit_area(world, entity_of(&session, id)),
        None => Vec::new(),
    };
    ui.moves = moves;
    ui.cannot_move = cannot;
    ui.hover_info = hover_info(&session, &ui, ui.hover);
}

/// The unit of a hex the viewer sees, for the map's hit test in tests and the view.
pub fn first_unit_at(session: &Session, hex: HexCoord) -> Option<UnitId> {
    units_seen_at(session, hex, viewer(session))
        .first()
        .copied()
}

/// A unit's side, for the view.
pub fn unit_side(session: &Session, id: UnitId) -> SideId {
    side_of(session, id)
}

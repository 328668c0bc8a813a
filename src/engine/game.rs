//! A game: the world a scenario fills, the turn and phase, the command pipeline
//! (check → execute → events), saves that replay, and the `Game` facade that scripts,
//! the command line, tests and autoplay drive.

use crate::engine::cached::CachedWorld;
use std::path::Path;
use std::sync::Arc;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::board::{Board, TerrainId};
use super::command::{Command, ParseError, Refusal, parse_line_with};
use super::dice::Dice;
use super::error::LocatedError;
use super::event::{EventKind, GameLog};
use super::hex::Hexside;
use super::phase::PhaseView;
use super::ruleset::{ActiveRuleset, CommandSystem, Ruleset, RulesetEntry, load_ruleset};
use super::scenario::{
    LoadedScenario, ScenarioRules, VictoryLevel, parse_scenario, read_text, ron_options, sha256_hex,
};
use super::units::{Leader, Placement, SideId, Steps, UnitId, UnitName, Units};
use super::zoc::{ZocMap, ZoneOfControl, ZoneShape};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<SideId>,
    pub level: Option<VictoryLevel>,
    pub reason: String,
}

/// Turn, phase and the side to act. The phase is the ruleset's, seen through its
/// `PhaseView`; the engine plugin mirrors its kind into a `PhaseKind` state.
#[derive(Resource, Clone, Debug)]
pub struct TurnState {
    pub turn: u32,
    pub last_turn: u32,
    pub phase: PhaseView,
    /// The side whose phase it is.
    pub active: SideId,
    /// The side that moves first each turn.
    pub first: SideId,
    pub outcome: Option<Outcome>,
}

/// The scenario a game was started from.
#[derive(Resource, Clone)]
pub struct ScenarioInfo(pub Arc<LoadedScenario>);

/// Every command accepted so far, in order: with the seed, a save.
#[derive(Resource, Clone, Debug, Default)]
pub struct CommandHistory(pub Vec<Command>);

/// Options switched on for this game (scenario options plus command-line ones).
#[derive(Resource, Clone, Debug, Default)]
pub struct GameOptions(pub Vec<String>);

impl GameOptions {
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|o| o == name)
    }
}

/// A scenario read and checked, with the ruleset it names.
pub type ScenarioLoad = (Arc<LoadedScenario>, Arc<dyn Ruleset>);

/// Reads a scenario and the ruleset it names (one of `registry`), and checks both.
pub fn load_scenario(registry: &[RulesetEntry], path: &Path) -> Result<ScenarioLoad, LocatedError> {
    load_scenario_text(registry, path, read_text(path)?)
}

/// `load_scenario` on text already read (`path` names it in errors and locates the
/// ruleset's tables).
pub fn load_scenario_text(
    registry: &[RulesetEntry],
    path: &Path,
    text: String,
) -> Result<ScenarioLoad, LocatedError> {
    let file = parse_scenario(path, text.clone())?;
    let shown = path.display().to_string();
    let ruleset = load_ruleset(registry, &file.ruleset, path).map_err(|msg| {
        LocatedError::at_text(&shown, &text, &format!("\"{}\"", file.ruleset), 0, msg)
    })?;
    let mut parts = vec![text.as_str()];
    parts.extend(ruleset.table_texts());
    let hash = sha256_hex(&parts);
    let mut scenario = LoadedScenario {
        path: path.to_path_buf(),
        text,
        file,
        rules: ScenarioRules::none(),
        hash,
    };
    scenario.rules = ruleset.read_scenario(&scenario)?;
    Ok((Arc::new(scenario), ruleset))
}

/// Builds the board of a scenario with the ruleset's terrain names.
pub fn build_board(scenario: &LoadedScenario, terrain_names: &[String]) -> Board {
    let map = &scenario.file.map;
    let mut board = Board::new(map.columns, map.rows, terrain_names.to_vec());
    let id_of =
        |name: &str| TerrainId(terrain_names.iter().position(|t| t == name).unwrap_or(0) as u8);
    let default = id_of(&map.default_terrain);
    for hex in board.hexes().collect::<Vec<_>>() {
        board.set_terrain(hex, default);
    }
    for (name, hexes) in &map.terrain {
        for h in hexes {
            board.set_terrain(*h, id_of(name));
        }
    }
    for (level, hexes) in &map.elevation {
        for h in hexes {
            board.set_elevation(*h, *level);
        }
    }
    for s in &map.hexsides {
        if let Some(side) = Hexside::between(s.between.0, s.between.1) {
            for f in &s.features {
                board.add_hexside_feature(side, *f);
            }
            if let Some(d) = s.defended {
                let outside = if d == s.between.0 {
                    s.between.1
                } else {
                    s.between.0
                };
                board.add_field_defence(d, outside);
            }
        }
    }
    board
}

/// Builds a scenario's board with the terrain names of its ruleset.
pub fn build_ruleset_board(ruleset: &dyn Ruleset, scenario: &LoadedScenario) -> Board {
    build_board(scenario, &ruleset.terrain_names())
}

/// Fills a world with a new game of `scenario`: board, units, dice, log, turn; then
/// the ruleset adds its own parts.
pub fn init_world(
    world: &mut World,
    scenario: Arc<LoadedScenario>,
    ruleset: Arc<dyn Ruleset>,
    board: Board,
    seed: u64,
    extra_options: &[String],
) {
    board.spawn_tiles(world);
    let mut units = Units::new(&board);
    for (i, spec) in scenario.file.units.iter().enumerate() {
        let side = SideId(scenario.side_index(&spec.side).unwrap_or(0));
        let placement = match spec.hex {
            Some(h) => Placement::OnMap(h),
            None => Placement::Waiting,
        };
        let entity = world
            .spawn((
                UnitId(i as u16),
                UnitName {
                    key: spec.id.clone(),
                    name: spec.name.clone(),
                },
                side,
                placement,
                ZoneOfControl::default(),
            ))
            .id();
        units.register(&board, UnitId(i as u16), entity, side, placement);
    }
    let first = SideId(scenario.side_index(&scenario.file.first).unwrap_or(0));
    let mut options = scenario.file.options.clone();
    options.extend(extra_options.iter().cloned());
    world.insert_resource(ZocMap::new(&board));
    world.insert_resource(ZoneShape::default());
    world.insert_resource(board);
    world.insert_resource(units);
    world.insert_resource(Dice::new(seed));
    world.insert_resource(GameLog::new());
    world.insert_resource(CommandHistory::default());
    world.insert_resource(GameOptions(options));
    world.insert_resource(TurnState {
        turn: 1,
        last_turn: scenario.file.turns,
        phase: PhaseView::default(),
        active: first,
        first,
        outcome: None,
    });
    world.insert_resource(ScenarioInfo(scenario.clone()));
    world.insert_resource(ActiveRuleset(ruleset.clone()));
    // What play changes, for a copy of the game (`snapshot`); the ruleset adds its own.
    super::snapshot::keep(world)
        .resource::<Units>()
        .resource::<Dice>()
        .resource::<GameLog>()
        .resource::<CommandHistory>()
        .resource::<TurnState>()
        .resource::<ZocMap>()
        .component::<SideId>()
        .component::<Placement>()
        .component::<super::units::Steps>()
        .component::<super::units::Leader>()
        .component::<super::units::Facing>()
        .component::<super::units::Hidden>()
        .component::<super::zoc::ExertsZoc>()
        .component::<ZoneOfControl>();
    ruleset.register(world);
    ruleset.populate(world, &scenario);
}

/// The command pipeline: the active ruleset's command system checks the command and,
/// when legal, executes it and logs its events; the command joins the history.
pub fn submit(world: &mut World, command: &Command) -> Result<(), Refusal> {
    let system = world.resource::<CommandSystem>().0;
    world.run_system_with(system, command).unwrap_or_else(|e| {
        Err(Refusal::new(
            "engine",
            format!("the ruleset's command system could not run: {e}"),
        ))
    })?;
    world
        .resource_mut::<CommandHistory>()
        .0
        .push(command.clone());
    Ok(())
}

/// The side that must act now: whoever a decision waits for, else the side whose
/// phase it is.
pub fn side_to_act(world: &World) -> SideId {
    world
        .resource::<ActiveRuleset>()
        .0
        .decision(world)
        .map(|d| d.side)
        .unwrap_or_else(|| world.res::<TurnState>().active)
}

/// A saved game: the scenario (path and content hash), the seed and the commands.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    pub scenario: String,
    pub scenario_hash: String,
    pub seed: u64,
    #[serde(default)]
    pub options: Vec<String>,
    pub commands: Vec<String>,
    /// Where a what-if branch left the game it was played from (`replay`): absent for
    /// a game played from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<BranchOrigin>,
}

/// The game a branch was played from: that save, and how many of its commands the
/// branch keeps before its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BranchOrigin {
    pub save: String,
    pub at: usize,
}

/// Why a script stopped: the line and the parse error or refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptFailure {
    pub line: usize,
    pub column: usize,
    pub text: String,
    pub message: String,
}

impl std::fmt::Display for ScriptFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}:{}: {}\n  {}",
            self.line, self.column, self.message, self.text
        )
    }
}

/// Reads a save's text (`path` names it in errors): never empty, every field known.
pub fn parse_save(path: &Path, text: &str) -> Result<SaveFile, LocatedError> {
    let shown = path.display().to_string();
    if text.trim().is_empty() {
        return Err(LocatedError::whole_file(&shown, "the save file is empty"));
    }
    ron_options()
        .from_str(text)
        .map_err(|e| LocatedError::from_ron(&shown, text, &e))
}

/// A game held in a plain world: what scripts, saves, tests and autoplay drive. The
/// window drives the same world inside its `App` through the same `submit`.
pub struct Game {
    pub world: World,
    pub scenario: Arc<LoadedScenario>,
    pub ruleset: Arc<dyn Ruleset>,
    pub seed: u64,
    /// Set when this game is a what-if branch of a save (`replay::Replay::branch`).
    pub branch: Option<BranchOrigin>,
}

impl Game {
    pub fn new(
        scenario: Arc<LoadedScenario>,
        ruleset: Arc<dyn Ruleset>,
        board: Board,
        seed: u64,
        options: &[String],
    ) -> Self {
        let mut world = World::new();
        init_world(
            &mut world,
            scenario.clone(),
            ruleset.clone(),
            board,
            seed,
            options,
        );
        Self {
            world,
            scenario,
            ruleset,
            seed,
            branch: None,
        }
    }

    /// Loads a scenario and starts a game of it, with a ruleset of `registry`.
    pub fn start_with(
        registry: &[RulesetEntry],
        path: &Path,
        seed: u64,
        options: &[String],
    ) -> Result<Self, LocatedError> {
        let (scenario, ruleset) = load_scenario(registry, path)?;
        if let Some(bad) = options
            .iter()
            .find(|o| !ruleset.options().contains(&o.as_str()))
        {
            return Err(LocatedError::whole_file(
                "command line",
                format!(
                    "unknown option `{bad}` ({} knows: {})",
                    ruleset.name(),
                    ruleset.options().join(", ")
                ),
            ));
        }
        let board = build_ruleset_board(&*ruleset, &scenario);
        Ok(Self::new(scenario, ruleset, board, seed, options))
    }

    pub fn submit(&mut self, command: &Command) -> Result<(), Refusal> {
        submit(&mut self.world, command)
    }

    /// Parses one script line with this game's grammar: the engine's verbs and its
    /// ruleset's.
    pub fn parse_line(&self, line: &str) -> Result<Option<Command>, ParseError> {
        parse_line_with(line, self.ruleset.verbs())
    }

    /// Parses and submits one script line; `Ok(false)` for a blank or comment line.
    pub fn submit_line(&mut self, line: &str) -> Result<bool, (usize, String)> {
        match self.parse_line(line) {
            Ok(None) => Ok(false),
            Ok(Some(cmd)) => self
                .submit(&cmd)
                .map(|_| true)
                .map_err(|r| (1, r.to_string())),
            Err(e) => Err((e.column, e.message)),
        }
    }

    /// Runs a script; stops at the first line that does not parse or is refused.
    pub fn run_script(&mut self, script: &str) -> Result<(), ScriptFailure> {
        for (i, line) in script.lines().enumerate() {
            self.submit_line(line)
                .map_err(|(column, message)| ScriptFailure {
                    line: i + 1,
                    column,
                    text: line.to_string(),
                    message,
                })?;
        }
        Ok(())
    }

    pub fn log(&self) -> &GameLog {
        self.world.resource::<GameLog>()
    }

    pub fn turn(&self) -> &TurnState {
        self.world.res::<TurnState>()
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.turn().outcome.as_ref()
    }

    pub fn commands(&self) -> &[Command] {
        &self.world.resource::<CommandHistory>().0
    }

    pub fn options(&self) -> Vec<String> {
        self.world.resource::<GameOptions>().0.clone()
    }

    /// The options switched on beyond the scenario's own: what a save records and what
    /// `Game::new` takes to start the same game again.
    pub fn extra_options(&self) -> Vec<String> {
        self.options()
            .into_iter()
            .filter(|o| !self.scenario.file.options.contains(o))
            .collect()
    }

    /// The save of this game: replaying it gives the identical game.
    pub fn save(&self) -> SaveFile {
        let extra = self.extra_options();
        SaveFile {
            scenario: self.scenario.display_path(),
            scenario_hash: self.scenario.hash.clone(),
            seed: self.seed,
            options: extra,
            commands: self.commands().iter().map(|c| c.to_string()).collect(),
            branch: self.branch.clone(),
        }
    }

    pub fn save_text(&self) -> String {
        let pretty = ron::ser::PrettyConfig::new().depth_limit(2);
        ron::ser::to_string_pretty(&self.save(), pretty).unwrap_or_default()
    }

    /// Loads a save: reads it, checks the scenario has not changed, replays it.
    pub fn load_save_with(registry: &[RulesetEntry], path: &Path) -> Result<Self, LocatedError> {
        Self::load_save_text_with(registry, path, read_text(path)?)
    }

    /// `load_save_with` on text already read; `path` names it in errors.
    pub fn load_save_text_with(
        registry: &[RulesetEntry],
        path: &Path,
        text: String,
    ) -> Result<Self, LocatedError> {
        let save = parse_save(path, &text)?;
        Self::replay_save(registry, path, &text, &save, save.commands.len())
    }

    /// The game after the first `upto` commands of `save` (read from `text` at `path`,
    /// which errors name): the scenario checked unchanged, the options known, each
    /// command accepted as it was when the game was played.
    pub fn replay_save(
        registry: &[RulesetEntry],
        path: &Path,
        text: &str,
        save: &SaveFile,
        upto: usize,
    ) -> Result<Self, LocatedError> {
        let shown = path.display().to_string();
        let text = text.to_string();
        let scenario_path = Path::new(&save.scenario);
        let (scenario, ruleset) = load_scenario(registry, scenario_path).map_err(|e| {
            LocatedError::at_text(
                &shown,
                &text,
                &save.scenario,
                0,
                format!("the save's scenario cannot be loaded: {e}"),
            )
        })?;
        if scenario.hash != save.scenario_hash {
            return Err(LocatedError::at_text(
                &shown,
                &text,
                &save.scenario_hash,
                0,
                format!(
                    "scenario `{}` (or its ruleset tables) changed since this game was saved: its hash is now {}, the save was made with {}; replaying it would not give the same game",
                    save.scenario, scenario.hash, save.scenario_hash
                ),
            ));
        }
        if let Some(bad) = save
            .options
            .iter()
            .find(|o| !ruleset.options().contains(&o.as_str()))
        {
            return Err(LocatedError::at_text(
                &shown,
                &text,
                &format!("\"{bad}\""),
                0,
                format!(
                    "unknown option `{bad}` ({} knows: {})",
                    ruleset.name(),
                    ruleset.options().join(", ")
                ),
            ));
        }
        let board = build_ruleset_board(&*ruleset, &scenario);
        let mut game = Self::new(scenario, ruleset, board, save.seed, &save.options);
        game.branch = save.branch.clone();
        for (i, line) in save.commands.iter().enumerate().take(upto) {
            let located = |msg: String| {
                let nth = save.commands[..i].iter().filter(|c| *c == line).count();
                LocatedError::at_text(&shown, &text, &format!("\"{line}\""), nth, msg)
            };
            match game.parse_line(line) {
                Ok(Some(cmd)) => game.submit(&cmd).map_err(|r| {
                    located(format!(
                        "command {} `{line}` is refused on replay: {r}",
                        i + 1
                    ))
                })?,
                Ok(None) => return Err(located(format!("command {} is empty", i + 1))),
                Err(e) => {
                    return Err(located(format!(
                        "command {} `{line}`: {}",
                        i + 1,
                        e.message
                    )));
                }
            }
        }
        Ok(game)
    }

    /// The game for `--state`: turn, phase, the decision waited for, each side's morale,
    /// the ruleset's own state, and every unit (id, name, side, hex, steps, facing by
    /// name, the ruleset's flags).
    pub fn state_json(&self) -> serde_json::Value {
        let world = &self.world;
        let units = world.res::<Units>();
        let turn = self.turn();
        let sides = &self.scenario.file.sides;
        let list: Vec<serde_json::Value> = units
            .ids()
            .map(|id| {
                let e = units.entity(id);
                let name = world
                    .get_cached::<UnitName>(e)
                    .expect("every unit has a name");
                let side = world.get::<SideId>(e).copied().unwrap_or(SideId(0));
                let placement = world
                    .get::<Placement>(e)
                    .copied()
                    .unwrap_or(Placement::Eliminated);
                let steps = world.get::<Steps>(e).copied();
                let (hex, status) = match placement {
                    Placement::OnMap(h) => (Some(h.label()), "on_map"),
                    Placement::Waiting => (None, "waiting"),
                    Placement::Eliminated => (None, "eliminated"),
                };
                serde_json::json!({
                    "id": name.key,
                    "name": name.name,
                    "side": sides[side.0 as usize].id,
                    "hex": hex,
                    "status": status,
                    "steps": steps.map(|s| s.left),
                    "max_steps": steps.map(|s| s.max),
                    "leader": world.get::<Leader>(e).is_some(),
                    "hidden": world.get::<super::units::Hidden>(e).is_some(),
                    "facing": self
                        .ruleset
                        .counter_face(world, e)
                        .facing
                        .map(|f| super::hex::VertexFacing(f).name()),
                    "flags": self.ruleset.unit_flags(world, e),
                })
            })
            .collect();
        serde_json::json!({
            "scenario": self.scenario.file.name,
            "ruleset": self.ruleset.id(),
            "seed": self.seed,
            "turn": turn.turn,
            "phase": turn.phase.label,
            "phase_rule": turn.phase.rule,
            "active_side": sides[turn.active.0 as usize].id,
            "pending": self.ruleset.pending_decision(world),
            "morale": self.ruleset.morale(world).iter().map(|m| serde_json::json!({
                "side": sides[m.side.0 as usize].id,
                "lost": m.lost,
                "level": m.level,
            })).collect::<Vec<_>>(),
            "ruleset_state": self.ruleset.state_json(world),
            "outcome": turn.outcome.as_ref().map(|o| serde_json::json!({
                "winner": o.winner.map(|w| sides[w.0 as usize].id.clone()),
                "level": o.level,
                "reason": o.reason,
            })),
            "units": list,
        })
    }

    /// Whether the log holds a game-over event.
    /// The threat map of the side to act (`threat::ThreatMap`).
    pub fn threat_map(&self) -> super::threat::ThreatMap {
        let side = self.turn().active;
        super::threat::ThreatMap::of(&self.world, &*self.ruleset, side)
    }

    /// The ruleset's player aids for the game as it stands: the sequence of play with
    /// the step it is at, and every table (`view::PlayerAids`).
    pub fn player_aids(&self) -> super::view::PlayerAids {
        self.ruleset.player_aids(&self.world)
    }

    /// What `bataille aids` prints: the scenario and ruleset, then the player aids as
    /// aligned text with the step the game is at marked.
    pub fn aids_text(&self) -> String {
        let aids = self.player_aids();
        let t = self.turn();
        format!(
            "{} — {}: turn {}, {} ({})\n\n{}",
            self.scenario.file.name,
            self.ruleset.name(),
            t.turn,
            t.phase.label,
            self.side_name(t.active),
            aids.text(aids.current_step(&t.phase))
        )
    }

    /// A side's name in the scenario.
    pub fn side_name(&self, side: SideId) -> String {
        let info = self.world.resource::<ScenarioInfo>();
        info.0
            .file
            .sides
            .get(side.0 as usize)
            .map_or_else(|| format!("side {}", side.0), |s| s.name.clone())
    }

    /// The side that must act now (`side_to_act`).
    pub fn side_to_act(&self) -> SideId {
        side_to_act(&self.world)
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The log lines of a kind, for tests.
    pub fn events_of(&self, kind: EventKind) -> Vec<String> {
        self.log()
            .events
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| format!("{} ({})", e.text, e.rule))
            .collect()
    }
}

// Read by the kept id in the rules' inner loops (`engine::cached`).
crate::cached_id!(TurnState);

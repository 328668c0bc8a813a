//! A la Charge (Normans and Byzantines, F. Coupeau): the ruleset's components, its
//! phase order (AlC 6) and the dispatch of commands to movement, combat, results,
//! special rules and victory.

pub mod ai;
pub mod aids;
pub mod autoplay;
pub mod combat;
pub mod data;
pub mod dispatch;
pub mod movement;
pub mod results;
pub mod scenario;
pub mod setup;
pub mod threat;
pub mod victory;
pub mod view;

use crate::engine::cached::CachedWorld;
use crate::engine::decision::Decisions;
use std::path::Path;

use bevy::ecs::system::InRef;
use bevy::prelude::*;

use crate::rulesets::common::RulesetTables;
use rand_chacha::ChaCha8Rng;

use crate::engine::board::Board;
use crate::engine::command::{Command, Refusal};
use crate::engine::error::LocatedError;
use crate::engine::event::EventKind;
use crate::engine::game::TurnState;
use crate::engine::hex::HexCoord;
use crate::engine::phase::{PhaseKind, PhaseView, RulesetPhase, change_phase, on_enter};
use crate::engine::ruleset::{CommandSystem, Ruleset};
use crate::engine::scenario::{LoadedScenario, ScenarioRules};
use crate::engine::units::{Hidden, Leader, Placement, SideId, Steps, UnitId, Units};
use crate::engine::view::{AttackPreview, CardLine, CounterFace, Decision, MoveOption, SideMorale};
use crate::engine::zoc::{ExertsZoc, ZocMap, ZoneShape};

use data::{Kind, Tables};
use results::Pending;

pub const ID: &str = "a_la_charge";

/// A la Charge with its tables.
pub struct AlaChargePlugin {
    pub tables: std::sync::Arc<Tables>,
}

impl AlaChargePlugin {
    pub fn load(scenario_path: &Path) -> Result<Self, LocatedError> {
        Ok(Self {
            tables: std::sync::Arc::new(Tables::for_scenario(scenario_path)?),
        })
    }
}

/// The values printed on an AlC counter (AlC 3).
#[derive(Component, Clone, Copy, Debug)]
pub struct AlcUnit {
    pub kind: Kind,
    /// Ratings on the full and reduced sides (strength and morale in one number).
    pub ratings: [i32; 2],
    pub mp: i32,
    pub range: u32,
}

/// What a unit has done this turn and phase.
#[derive(Component, Clone, Debug, Default)]
pub struct AlcFlags {
    pub mp_left: i32,
    pub moved: bool,
    pub hexes_moved: u32,
    /// Entered open terrain or a road this turn (AlC 10).
    pub entered_open: bool,
    /// Attacked in this combat phase (AlC 12.1).
    pub attacked: bool,
    /// Was attacked in this combat phase (AlC 12.1).
    pub was_attacked: bool,
    /// Units that charged this one in the enemy's last combat phase (AlC 10).
    pub charged_by: Vec<UnitId>,
    /// The first turn it may act (AlC Kalavryai special rule 1).
    pub active_from_turn: u32,
    /// For a reinforcement: its first turn and entry hexes.
    pub arrival: Option<(u32, Vec<HexCoord>)>,
}

/// Scenario-wide state of the ruleset.
#[derive(Resource, Clone, Debug, Default)]
pub struct AlcState {
    /// Steps of combat resolution still to do, some waiting for a player's decision.
    pub pending: Decisions<Pending>,
    pub morale_levels: [i32; 2],
    pub commanders: [Option<UnitId>; 2],
    pub hidden_zones: Vec<(UnitId, crate::engine::scenario::HexZone)>,
    pub defection: Option<setup::Defection>,
    pub pillage: Option<setup::Pillage>,
    /// Camp pillaged: the penalised side's ratings are lowered (Kalavryai rule 3).
    pub pillaged: bool,
    /// The phase the game is in (AlC 6); `None` until the first.
    pub phase: Option<AlcPhase>,
}

/// The tables, shared with every system and function of the ruleset.
#[derive(Resource, Clone)]
pub struct AlcTables(pub std::sync::Arc<Tables>);

/// One unit as a whole-army scan sees it.
pub struct UnitView<'a> {
    pub id: UnitId,
    pub placement: Placement,
    pub side: SideId,
    pub leader: bool,
    pub hidden: bool,
    pub flags: &'a AlcFlags,
    pub values: &'a AlcUnit,
}

type ScanQuery = (
    &'static UnitId,
    &'static Placement,
    &'static SideId,
    Has<Leader>,
    Has<Hidden>,
    &'static AlcFlags,
    &'static AlcUnit,
);

type UnitScan = super::common::UnitScan<ScanQuery>;

/// Calls `f` for every unit, in unit-id order.
pub(crate) fn scan_units(world: &World, mut f: impl FnMut(UnitView)) {
    let mut all = UnitScan::map(
        world,
        |(id, placement, side, leader, hidden, flags, values)| UnitView {
            id: *id,
            placement: *placement,
            side: *side,
            leader,
            hidden,
            flags,
            values,
        },
    );
    all.sort_by_key(|u| u.id);
    for u in all {
        f(u);
    }
}

// ---- accessors over the world, used throughout the ruleset ----

pub(crate) use super::common::{
    all_units, component, component_mut, entity, hex_of, is_hidden, is_leader, key, log, name,
    placement, plain_name, possessive, refresh_zones, roll, set_placement, side_name, side_of,
    turn, unit_by_key, units_at, zones_stale,
};

pub(crate) fn unit(world: &World, id: UnitId) -> AlcUnit {
    *component::<AlcUnit>(world, id)
}

pub(crate) fn flags(world: &World, id: UnitId) -> &AlcFlags {
    component::<AlcFlags>(world, id)
}

pub(crate) fn flags_mut(world: &mut World, id: UnitId) -> Mut<'_, AlcFlags> {
    component_mut::<AlcFlags>(world, id)
}

pub(crate) fn steps(world: &World, id: UnitId) -> Steps {
    *component::<Steps>(world, id)
}

/// The combat unit (not a leader) in a hex.
pub(crate) fn combat_unit_at(world: &World, hex: HexCoord) -> Option<UnitId> {
    let units = world.res::<Units>();
    units
        .at(world.res::<Board>(), hex)
        .iter()
        .copied()
        .find(|id| world.get::<Leader>(units.entity(*id)).is_none())
}

pub(crate) fn leaders_at(world: &World, hex: HexCoord) -> Vec<UnitId> {
    units_at(world, hex)
        .into_iter()
        .filter(|id| is_leader(world, *id))
        .collect()
}

/// The unit's current rating: its side's printed value, less the camp-pillage penalty
/// (never below 1, so that odds stay defined: designer's choice).
pub fn rating(world: &World, id: UnitId) -> i32 {
    let u = unit(world, id);
    if u.kind == Kind::Leader {
        return u.ratings[0];
    }
    let base = if steps(world, id).is_reduced() {
        u.ratings[1]
    } else {
        u.ratings[0]
    };
    let state = world.resource::<AlcState>();
    match (&state.pillage, state.pillaged) {
        (Some(p), true) if side_of(world, id) != p.by_side => (base - p.penalty).max(1),
        _ => base,
    }
}

/// AlC 8: leaders of the other side left alone in `at` with a unit of `side` (which
/// entered their hex, or changed sides beside them) are eliminated.
pub(crate) fn overrun_leaders(world: &mut World, at: HexCoord, side: SideId) {
    if world.res::<Units>().at(world.res::<Board>(), at).len() < 2 {
        return;
    }
    for l in leaders_at(world, at) {
        if side_of(world, l) != side {
            log(world, EventKind::Eliminated, "AlC 8", |w| {
                format!(
                    "{} is alone in {at}, entered by an enemy unit: eliminated",
                    name(w, l)
                )
            });
            set_placement(world, l, Placement::Eliminated);
        }
    }
}

/// AlC 11: a unit's zone of control is the six hexes around it, but not across a river
/// except at a bridge.
fn surrounding_zone(
    board: &Board,
    at: HexCoord,
    _facing: Option<crate::engine::hex::VertexFacing>,
    out: &mut Vec<HexCoord>,
) {
    out.extend(
        board
            .neighbors_on_map(at)
            .filter(|n| !board.hexside(at, *n).is_unbridged_river()),
    );
}

pub(crate) fn in_enemy_zoc(world: &World, side: SideId, hex: HexCoord) -> bool {
    world
        .resource::<ZocMap>()
        .covered_by(world.res::<Board>(), side.other(), hex)
}

pub(crate) fn tables(world: &World) -> std::sync::Arc<Tables> {
    world.resource::<AlcTables>().0.clone()
}

/// Resolves a command's unit reference to an AlC unit id.
pub fn resolve(
    world: &World,
    unit_ref: &crate::engine::command::UnitRef,
) -> Result<UnitId, Refusal> {
    use crate::engine::command::UnitRef;
    match unit_ref {
        UnitRef::Hex(h) => {
            if !world.res::<Board>().contains(*h) {
                return Err(Refusal::new("AlC 2", format!("{h} is off the map")));
            }
            let here = units_at(world, *h);
            combat_unit_at(world, *h)
                .or_else(|| (here.len() == 1).then(|| here[0]))
                .ok_or_else(|| {
                    if here.is_empty() {
                        Refusal::new("AlC 7", format!("there is no unit in {h}"))
                    } else {
                        Refusal::new(
                            "AlC 7",
                            format!("{h} holds several leaders: name the one you mean by its id"),
                        )
                    }
                })
        }
        UnitRef::Key(k) => unit_by_key(world, k)
            .ok_or_else(|| Refusal::new("AlC 3", format!("there is no unit with id `{k}`"))),
    }
}

// ---- the sequence of play (AlC 6) ----

/// The phases of A la Charge: the secret set-up before the first turn (AlC 4, where a
/// scenario has one), then each turn a movement and a combat phase for each side in
/// turn (AlC 6 phases 1 to 4), with the victory check and the turn marker (phases 5
/// and 6) on leaving the second side's combat phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AlcPhase {
    SecretSetup,
    Movement,
    Combat,
    GameOver,
}

impl RulesetPhase for AlcPhase {
    const ALL: &'static [Self] = &[
        AlcPhase::SecretSetup,
        AlcPhase::Movement,
        AlcPhase::Combat,
        AlcPhase::GameOver,
    ];

    fn view(self) -> PhaseView {
        let (label, rule, kind) = match self {
            AlcPhase::SecretSetup => ("secret set-up", "AlC 4", PhaseKind::Place),
            AlcPhase::Movement => ("movement", "AlC 6", PhaseKind::Move),
            AlcPhase::Combat => ("combat", "AlC 6", PhaseKind::Fight),
            AlcPhase::GameOver => return PhaseView::GAME_OVER,
        };
        PhaseView { label, rule, kind }
    }

    fn current(world: &World) -> Option<Self> {
        world.get_resource::<AlcState>().and_then(|s| s.phase)
    }

    fn set_current(world: &mut World, phase: Self) {
        world.resource_mut::<AlcState>().phase = Some(phase);
    }
}

/// The phase the game is in.
pub(crate) fn phase(world: &World) -> AlcPhase {
    AlcPhase::current(world).unwrap_or(AlcPhase::SecretSetup)
}

/// The systems of each phase (AlC 6), chained in the order the rules give.
fn add_phase_systems(world: &mut World) {
    on_enter(
        world,
        AlcPhase::Movement,
        (
            reset_movement_allowances,
            announce_movement_phase,
            setup::defection_roll_on_movement,
        )
            .chain(),
    );
    on_enter(
        world,
        AlcPhase::Combat,
        (reset_combat_flags, announce_combat_phase).chain(),
    );
}

/// AlC 9: the moving side's units get their movement allowance back.
fn reset_movement_allowances(world: &mut World) {
    let side = turn(world).active;
    for id in all_units(world) {
        if side_of(world, id) == side {
            let mp = unit(world, id).mp;
            let mut f = flags_mut(world, id);
            f.mp_left = mp;
            f.moved = false;
            f.hexes_moved = 0;
            f.entered_open = false;
        }
    }
}

fn announce_movement_phase(world: &mut World) {
    let turn_no = turn(world).turn;
    let who = side_name(world, turn(world).active);
    log(world, EventKind::PhaseStarted, "AlC 6", |_| {
        format!("Turn {turn_no}: {who} moves")
    });
}

/// AlC 12.1: each unit attacks and is attacked at most once a combat phase.
fn reset_combat_flags(world: &mut World) {
    let side = turn(world).active;
    for id in all_units(world) {
        let defender = side_of(world, id) != side;
        let mut f = flags_mut(world, id);
        f.attacked = false;
        f.was_attacked = false;
        if defender {
            // Chargers recorded now are the ones AlC 10 looks at in this side's next phase.
            f.charged_by.clear();
        }
    }
}

fn announce_combat_phase(world: &mut World) {
    let turn_no = turn(world).turn;
    let who = side_name(world, turn(world).active);
    log(world, EventKind::PhaseStarted, "AlC 6", |_| {
        format!("Turn {turn_no}: {who} conducts combat")
    });
}

/// Gives the phase to `side` and enters it.
fn begin_phase(world: &mut World, phase: AlcPhase, side: SideId) {
    world.resource_mut::<TurnState>().active = side;
    change_phase(world, phase);
}

/// Ends the current phase and starts the next one of AlC 6, with the victory check of
/// phase 5 and the turn marker of phase 6 between turns.
fn end_phase(world: &mut World) {
    let t = turn(world).clone();
    match phase(world) {
        AlcPhase::SecretSetup => {
            log(world, EventKind::TurnStarted, "AlC 5", |_| {
                "Turn 1".to_string()
            });
            begin_phase(world, AlcPhase::Movement, t.first);
        }
        AlcPhase::Movement => begin_phase(world, AlcPhase::Combat, t.active),
        AlcPhase::Combat if t.active == t.first => {
            begin_phase(world, AlcPhase::Movement, t.first.other())
        }
        AlcPhase::Combat => {
            if victory::check_victory(world) {
                return;
            }
            if t.turn >= t.last_turn {
                victory::time_limit(world);
                return;
            }
            let next = t.turn + 1;
            world.resource_mut::<TurnState>().turn = next;
            log(world, EventKind::TurnStarted, "AlC 6", |_| {
                format!("Turn {next}")
            });
            begin_phase(world, AlcPhase::Movement, t.first);
        }
        AlcPhase::GameOver => {}
    }
}

/// The command system of A la Charge (registered with the world): checks a command
/// against the rules and, when legal, executes it. A refused command changes nothing,
/// not even the dice.
fn submit_command(InRef(command): InRef<Command>, world: &mut World) -> Result<(), Refusal> {
    let plan = dispatch::check(world, command)?;
    dispatch::execute(world, plan);
    Ok(())
}

impl Plugin for AlaChargePlugin {
    fn build(&self, app: &mut App) {
        Ruleset::register(self, app.world_mut());
    }
}

impl Ruleset for AlaChargePlugin {
    fn id(&self) -> &'static str {
        ID
    }

    fn name(&self) -> &'static str {
        "A la Charge"
    }

    fn sight(
        &self,
        world: &World,
        from: HexCoord,
        to: HexCoord,
    ) -> Option<crate::engine::hex::SightLine> {
        Some(combat::line_of_fire(world, from, to))
    }

    fn threats(&self, world: &World, unit: UnitId) -> Vec<crate::engine::threat::UnitThreat> {
        threat::threats(world, unit)
    }

    fn table_texts(&self) -> Vec<&str> {
        self.tables.texts.iter().map(String::as_str).collect()
    }

    fn terrain_names(&self) -> Vec<String> {
        self.tables
            .terrain
            .terrain
            .iter()
            .map(|t| t.id.clone())
            .collect()
    }

    fn options(&self) -> &'static [&'static str] {
        setup::OPTIONS
    }

    fn read_scenario(&self, scenario: &LoadedScenario) -> Result<ScenarioRules, LocatedError> {
        let rules = setup::read_scenario(&self.tables, scenario)?;
        Ok(ScenarioRules(std::sync::Arc::new(rules)))
    }

    fn side_summary(&self, scenario: &LoadedScenario, side: usize) -> String {
        let own = scenario.rules::<scenario::AlcScenario>();
        format!(
            "army morale level {} (AlC 13)",
            own.sides[side].morale_level
        )
    }

    fn register(&self, world: &mut World) {
        if world.contains_resource::<AlcTables>() {
            return;
        }
        world.insert_resource(AlcTables(self.tables.clone()));
        crate::engine::snapshot::keep(world)
            .component::<AlcUnit>()
            .component::<AlcFlags>()
            .resource::<AlcState>()
            .then(super::common::zones_after_copy);
        world.insert_resource(ZoneShape(surrounding_zone));
        add_phase_systems(world);
        let submit = world.register_system(submit_command);
        world.insert_resource(CommandSystem(submit));
    }

    fn populate(&self, world: &mut World, scenario: &LoadedScenario) {
        let file = &scenario.file;
        let own = scenario.rules::<scenario::AlcScenario>();
        let mut state = AlcState::default();
        for (i, side) in file.sides.iter().enumerate() {
            state.morale_levels[i] = own.sides[i].morale_level;
            state.commanders[i] = side
                .commander
                .as_ref()
                .and_then(|c| scenario.unit_index(c))
                .map(|u| UnitId(u as u16));
        }
        let ids: Vec<UnitId> = world.res::<Units>().ids().collect();
        for id in ids {
            let spec = &file.units[id.0 as usize];
            let (_, t) = self
                .tables
                .unit_type(&spec.unit_type)
                .expect("validated: every unit type exists");
            let e = entity(world, id);
            let mut flags = AlcFlags {
                active_from_turn: 1,
                ..default()
            };
            if let Some(r) = file.reinforcements.iter().find(|r| r.unit == spec.id) {
                flags.arrival = Some((r.turn, r.entry.clone()));
            }
            let mut ent = world.entity_mut(e);
            ent.insert((
                AlcUnit {
                    kind: t.kind,
                    ratings: [t.full, t.reduced.unwrap_or(t.full)],
                    mp: t.mp,
                    range: t.range.unwrap_or(0),
                },
                Steps {
                    left: if t.reduced.is_some() && !spec.reduced {
                        2
                    } else {
                        1
                    },
                    max: if t.reduced.is_some() { 2 } else { 1 },
                },
                flags,
            ));
            // Each unit exerts a zone of control (AlC 11), leaders too: AlC 3 counts
            // them among the units, and AlC 8 treats a leader "like any other unit".
            ent.insert(ExertsZoc);
            if t.kind == Kind::Leader {
                ent.insert(Leader {
                    rating: t.full,
                    commander: state.commanders.contains(&Some(id)),
                });
            }
        }
        UnitScan::install(world);
        setup::populate(world, scenario, &mut state);
        let has_setup = !state.hidden_zones.is_empty();
        let setup_side = state.hidden_zones.first().map(|(u, _)| side_of(world, *u));
        world.insert_resource(state);
        refresh_zones(world);
        match setup_side {
            Some(side) if has_setup => {
                begin_phase(world, AlcPhase::SecretSetup, side);
                let who = side_name(world, side);
                log(world, EventKind::PhaseStarted, "AlC 4", |_| {
                    format!("Set-up: {who} places the units set up in secret")
                });
            }
            _ => {
                log(world, EventKind::TurnStarted, "AlC 5", |_| {
                    "Turn 1".to_string()
                });
                let first = turn(world).first;
                begin_phase(world, AlcPhase::Movement, first);
            }
        }
    }

    fn random_command(&self, world: &mut World, rng: &mut ChaCha8Rng) -> Command {
        autoplay::random_command(world, rng)
    }

    fn unit_flags(&self, world: &World, entity: Entity) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(f) = world.get::<AlcFlags>(entity) {
            if f.moved {
                out.push("moved".into());
            }
            if f.attacked {
                out.push("attacked".into());
            }
            if f.was_attacked {
                out.push("was_attacked".into());
            }
            if !f.charged_by.is_empty() {
                out.push("charged".into());
            }
        }
        if world.get::<Steps>(entity).is_some_and(|s| s.is_reduced()) {
            out.push("reduced".into());
        }
        if world.get_cached::<Hidden>(entity).is_some() {
            out.push("hidden".into());
        }
        out
    }

    fn check(&self, world: &World, command: &Command) -> Result<(), Refusal> {
        view::check(world, command)
    }

    fn counter_face(&self, world: &World, entity: Entity) -> CounterFace {
        view::counter_face(world, entity)
    }

    fn unit_card(&self, world: &World, entity: Entity) -> Vec<CardLine> {
        view::unit_card(world, entity)
    }

    fn move_options(&self, world: &World, entity: Entity) -> Result<Vec<MoveOption>, Refusal> {
        view::move_options(world, entity)
    }

    fn attack_command(&self, world: &World, attackers: &[HexCoord], target: HexCoord) -> Command {
        view::attack_command(world, attackers, target)
    }

    fn attack_preview(&self, world: &World, command: &Command) -> Result<AttackPreview, Refusal> {
        view::attack_preview(world, command)
    }

    fn decision(&self, world: &World) -> Option<Decision> {
        view::decision(world)
    }

    fn morale(&self, world: &World) -> Vec<SideMorale> {
        view::morale(world)
    }

    /// A river hexside with no bridge (designer's reading, README: AlC 11 and 12.5).
    fn crosses(&self, world: &World, _class: u8, from: HexCoord, to: HexCoord) -> bool {
        !world
            .resource::<Board>()
            .hexside(from, to)
            .is_unbridged_river()
    }

    fn player_aids(&self, world: &World) -> crate::engine::view::PlayerAids {
        aids::player_aids(&self.tables, world)
    }

    fn invariant_violations(&self, world: &World) -> Vec<String> {
        view::invariant_violations(world)
    }

    fn resample_hidden(&self, world: &mut World, observer: SideId, rng: &mut ChaCha8Rng) {
        ai::resample_hidden(world, observer, rng)
    }
}

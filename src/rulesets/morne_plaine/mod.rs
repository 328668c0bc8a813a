//! Morne Plaine (the French web game of Napoleonic battles, 500 m hexes, one-hour
//! turns): the ruleset's components, its sequence of play (MP generalities: each side's
//! bombardment, movement, combat and rally, then the victory count) and the plugin that
//! binds it to the engine. The rules themselves are in the files beside: movement,
//! bombardment (with reaction fire), combat (supports, odds, the charge), results
//! (morale checks, retreats, advances), rally and victory.

pub mod aids;
pub mod autoplay;
pub mod bombardment;
pub mod combat;
pub mod data;
pub mod dispatch;
pub mod movement;
pub mod rally;
pub mod results;
pub mod scenario;
pub mod setup;
pub mod threat;
pub mod victory;
pub mod view;

use crate::engine::cached::CachedWorld;
use std::path::Path;
use std::sync::Arc;

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
use crate::engine::phase::{PhaseKind, PhaseView, RulesetPhase, change_phase, on_enter, on_exit};
use crate::engine::ruleset::{CommandSystem, Ruleset};
use crate::engine::scenario::{LoadedScenario, ScenarioRules};
use crate::engine::units::{Placement, SideId, UnitId, Units};
use crate::engine::view::{
    AttackPreview, CardLine, CounterFace, Decision, MarkedHex, MoveOption, SideMorale,
};
use crate::engine::zoc::{ExertsZoc, ZocMap, ZoneShape};

use data::{Kind, Tables};
use scenario::Colour;

/// The id scenarios name in `ruleset:`.
pub const ID: &str = "morne_plaine";

/// Morne Plaine with its tables.
pub struct MornePlainePlugin {
    pub tables: Arc<Tables>,
    /// The step costs of the last scenario populated, by its hash (which covers the
    /// tables): every game of a scenario shares them.
    step_costs: std::sync::Mutex<Option<(String, movement::StepCosts)>>,
}

impl MornePlainePlugin {
    pub fn load(scenario_path: &Path) -> Result<Self, LocatedError> {
        Ok(Self::with_tables(Arc::new(Tables::for_scenario(
            scenario_path,
        )?)))
    }

    pub fn with_tables(tables: Arc<Tables>) -> Self {
        Self {
            tables,
            step_costs: Default::default(),
        }
    }

    /// The step costs of this scenario's map, computed for its first game.
    fn step_costs(&self, world: &World, scenario: &LoadedScenario) -> movement::StepCosts {
        let mut cache = self
            .step_costs
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        match &*cache {
            Some((hash, costs)) if *hash == scenario.hash => costs.clone(),
            _ => {
                let costs = movement::StepCosts::of(world.res::<Board>(), &self.tables);
                *cache = Some((scenario.hash.clone(), costs.clone()));
                costs
            }
        }
    }
}

/// The fixed values of a counter (MP generalities): its kind, its initial CS and MV,
/// its MA, and for artillery its BV and range, for a leader its command radius; the
/// leader commanding it (MP movement: command).
#[derive(Component, Clone, Copy, Debug)]
pub struct MpUnit {
    pub kind: Kind,
    pub cs0: u8,
    pub mv0: u8,
    pub ma: u8,
    pub bv: u8,
    pub range: u8,
    pub radius: u8,
    pub leader: Option<UnitId>,
}

/// A counter's current combat strength and morale (0 = demoralised).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MpValues {
    pub cs: u8,
    pub mv: u8,
}

/// What a unit has done this turn and phase.
#[derive(Component, Clone, Debug, Default)]
pub struct MpFlags {
    /// Movement allowance left, in half movement points.
    pub ma_left: u8,
    /// In command on entering this movement phase (MP movement: command).
    pub in_command: bool,
    pub moved: bool,
    /// Hexes entered this turn (the charge: MP movement: charge).
    pub hexes_moved: u32,
    /// Fired in this bombardment phase: it cannot move this turn (MP bombardment).
    pub bombarded: bool,
    /// Fired at an enemy entering an adjacent hex in this enemy movement phase.
    pub reaction_fired: bool,
    /// Attacked in this combat phase (MP combat).
    pub attacked: bool,
    /// Was attacked (or bombarded) in this phase (MP combat, MP bombardment).
    pub was_attacked: bool,
    /// Eliminated an enemy or made it retreat in this combat phase (MP combat: supports).
    pub victorious: bool,
    /// Retreated or advanced this player turn: it does not rally as unmoved.
    pub shifted: bool,
    /// For a reinforcement: its first turn and entry hexes.
    pub arrival: Option<(u32, Vec<HexCoord>)>,
}

/// An objective hex and the side that last occupied it (MP victory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    pub hex: HexCoord,
    pub name: String,
    pub vp: u32,
    pub holder: Option<SideId>,
}

/// Scenario-wide state of the ruleset.
#[derive(Resource, Clone, Debug)]
pub struct MpState {
    /// The phase the game is in; `None` until the first.
    pub phase: Option<MpPhase>,
    pub colours: [Colour; 2],
    pub commanders: [Option<UnitId>; 2],
    pub objectives: Vec<Objective>,
    /// Each fort and the side whose unit last stood in it (MP combat: retreat).
    pub forts: Vec<(HexCoord, Option<SideId>)>,
    /// The hour of turn 1, when the scenario has a clock.
    pub first_hour: Option<u8>,
    /// Each side's artillery, in id order (where reaction fire may come from).
    pub artillery: [Vec<UnitId>; 2],
}

impl Default for MpState {
    fn default() -> Self {
        Self {
            phase: None,
            colours: [Colour::Orange, Colour::Blue],
            commanders: [None, None],
            objectives: Vec::new(),
            forts: Vec::new(),
            first_hour: None,
            artillery: [Vec::new(), Vec::new()],
        }
    }
}

/// The tables, shared with every system and function of the ruleset.
#[derive(Resource, Clone)]
pub struct MpTables(pub Arc<Tables>);

/// One unit as a whole-army scan sees it (`roster`).
#[derive(Clone, Copy)]
pub struct Member<'w> {
    pub id: UnitId,
    pub placement: Placement,
    pub side: SideId,
    pub unit: &'w MpUnit,
    pub values: &'w MpValues,
    pub flags: &'w MpFlags,
}

impl Member<'_> {
    pub fn hex(&self) -> Option<HexCoord> {
        self.placement.hex()
    }

    /// At morale 0 (MP combat: demoralisation).
    pub fn demoralised(&self) -> bool {
        self.values.mv == 0
    }
}

type ScanQuery = (
    &'static UnitId,
    &'static Placement,
    &'static SideId,
    &'static MpUnit,
    &'static MpValues,
    &'static MpFlags,
);

type UnitScan = super::common::UnitScan<ScanQuery>;

/// Every unit, in id order, read in one pass (for scans of the whole army: supports,
/// occupancy, autoplay).
pub fn roster(world: &World) -> Vec<Member<'_>> {
    // Placed by id: the query visits units table by table, and units with and without
    // a zone of control, or leaders, lie in different tables.
    let mut by_id: Vec<Option<Member>> = vec![None; world.res::<Units>().len()];
    UnitScan::map(world, |(id, placement, side, unit, values, flags)| {
        by_id[id.0 as usize] = Some(Member {
            id: *id,
            placement: *placement,
            side: *side,
            unit,
            values,
            flags,
        });
    });
    by_id
        .into_iter()
        .map(|m| m.expect("every unit has the ruleset's components"))
        .collect()
}

// ---- accessors over the world, used throughout the ruleset ----

pub(crate) use super::common::{
    all_units, component, component_mut, entity, hex_of, key, log, name, placement, plain_name,
    possessive, refresh_zones, roll, roll_die, set_placement, side_name, side_of, turn, unit_at,
    unit_by_key, units_at,
};

pub(crate) fn unit(world: &World, id: UnitId) -> MpUnit {
    *component::<MpUnit>(world, id)
}

pub(crate) fn values(world: &World, id: UnitId) -> MpValues {
    *component::<MpValues>(world, id)
}

pub(crate) fn flags(world: &World, id: UnitId) -> &MpFlags {
    component::<MpFlags>(world, id)
}

pub(crate) fn flags_mut(world: &mut World, id: UnitId) -> Mut<'_, MpFlags> {
    component_mut::<MpFlags>(world, id)
}

pub(crate) fn tables(world: &World) -> Arc<Tables> {
    world.resource::<MpTables>().0.clone()
}

pub(crate) fn kind(world: &World, id: UnitId) -> Kind {
    unit(world, id).kind
}

/// At morale 0 (MP combat: demoralisation).
pub(crate) fn demoralised(world: &World, id: UnitId) -> bool {
    values(world, id).mv == 0
}

/// Whether the sodden ground of the option still lasts this turn.
pub(crate) fn sodden(world: &World) -> bool {
    sodden_in(world, turn(world).turn)
}

/// Whether the sodden ground of the option lasts in turn `n`.
pub(crate) fn sodden_in(world: &World, n: u32) -> bool {
    world
        .resource::<crate::engine::game::GameOptions>()
        .has("sodden_ground")
        && n <= setup::SODDEN_TURNS
}

/// " (14:00)" for turn `n` when the scenario has a clock.
pub(crate) fn clock_text(world: &World, n: u32) -> String {
    world
        .resource::<MpState>()
        .first_hour
        .map(|h| format!(" ({:02}:00)", (h as u32 + n - 1) % 24))
        .unwrap_or_default()
}

/// The edge a side retreats towards: orange north, blue south (MP combat: retreat).
pub(crate) fn retreat_edge(world: &World, side: SideId) -> results::RetreatEdge {
    match world.resource::<MpState>().colours[side.0 as usize] {
        Colour::Orange => results::RetreatEdge::North,
        Colour::Blue => results::RetreatEdge::South,
    }
}

pub(crate) fn in_enemy_zoc(world: &World, side: SideId, hex: HexCoord) -> bool {
    debug_assert!(
        super::common::zones_current(world),
        "zones of control are read only when current"
    );
    world
        .resource::<ZocMap>()
        .covered_by(world.res::<Board>(), side.other(), hex)
}

/// A unit's zone of control: the hexes on contact with it (MP movement; not across a
/// river without a bridge or ford, nor a double slope).
fn contact_zone(
    board: &Board,
    at: HexCoord,
    _facing: Option<crate::engine::hex::VertexFacing>,
    out: &mut Vec<HexCoord>,
) {
    out.extend(
        board
            .neighbors_on_map(at)
            .filter(|n| movement::contact(board, at, *n)),
    );
}

/// Sets a unit's morale, never above its initial value: at 0 it is demoralised and
/// exerts no zone of control; above 0 it exerts one again (MP combat: demoralisation).
pub(crate) fn set_mv(world: &mut World, id: UnitId, mv: u8) {
    let mv = mv.min(unit(world, id).mv0);
    component_mut::<MpValues>(world, id).mv = mv;
    let e = entity(world, id);
    super::common::zones_stale(world);
    if mv == 0 {
        world.entity_mut(e).remove::<ExertsZoc>();
    } else if world.get::<ExertsZoc>(e).is_none() {
        world.entity_mut(e).insert(ExertsZoc);
    }
}

/// Resolves a command's unit reference to a unit id.
pub fn resolve(
    world: &World,
    unit_ref: &crate::engine::command::UnitRef,
) -> Result<UnitId, Refusal> {
    use crate::engine::command::UnitRef;
    match unit_ref {
        UnitRef::Hex(h) => {
            if !world.res::<Board>().contains(*h) {
                return Err(Refusal::new("MP movement", format!("{h} is off the map")));
            }
            unit_at(world, *h)
                .ok_or_else(|| Refusal::new("MP movement", format!("there is no unit in {h}")))
        }
        UnitRef::Key(k) => unit_by_key(world, k).ok_or_else(|| {
            Refusal::new("MP generalities", format!("there is no unit with id `{k}`"))
        }),
    }
}

// ---- the sequence of play (MP generalities) ----

/// The phases of Morne Plaine: for each side in turn its bombardment, movement, combat
/// and rally, then the victory count; rally and victory take no player input, so the
/// game passes through them at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MpPhase {
    Bombardment,
    Movement,
    Combat,
    Rally,
    Victory,
    GameOver,
}

impl RulesetPhase for MpPhase {
    const ALL: &'static [Self] = &[
        MpPhase::Bombardment,
        MpPhase::Movement,
        MpPhase::Combat,
        MpPhase::Rally,
        MpPhase::Victory,
        MpPhase::GameOver,
    ];

    fn view(self) -> PhaseView {
        let (label, rule, kind) = match self {
            MpPhase::Bombardment => ("bombardment", "MP bombardment", PhaseKind::Fire),
            MpPhase::Movement => ("movement", "MP movement", PhaseKind::Move),
            MpPhase::Combat => ("combat", "MP combat", PhaseKind::Fight),
            MpPhase::Rally => ("rally", "MP rally", PhaseKind::Decide),
            MpPhase::Victory => ("victory", "MP victory", PhaseKind::Decide),
            MpPhase::GameOver => return PhaseView::GAME_OVER,
        };
        PhaseView { label, rule, kind }
    }

    fn current(world: &World) -> Option<Self> {
        world.get_resource::<MpState>().and_then(|s| s.phase)
    }

    fn set_current(world: &mut World, phase: Self) {
        world.resource_mut::<MpState>().phase = Some(phase);
    }
}

/// The phase the game is in.
pub(crate) fn phase(world: &World) -> MpPhase {
    MpPhase::current(world).unwrap_or(MpPhase::Bombardment)
}

/// The systems of each phase, chained in the order the rules give.
fn add_phase_systems(world: &mut World) {
    on_enter(
        world,
        MpPhase::Bombardment,
        (reset_player_turn_flags, announce_bombardment).chain(),
    );
    on_enter(
        world,
        MpPhase::Movement,
        (
            movement::set_movement_allowances,
            reset_reaction_fire,
            announce_movement,
        )
            .chain(),
    );
    on_enter(
        world,
        MpPhase::Combat,
        (reset_combat_flags, announce_combat).chain(),
    );
    on_exit(world, MpPhase::Combat, clear_victorious);
    on_enter(world, MpPhase::Rally, rally::rally);
    on_enter(world, MpPhase::Victory, victory::tally);
}

/// A new player turn: the active side's units have not moved, fired or shifted; no
/// unit has been bombarded in this phase yet.
fn reset_player_turn_flags(turn: Res<TurnState>, mut units: Query<(&SideId, &mut MpFlags)>) {
    for (side, mut f) in &mut units {
        let active = *side == turn.active;
        f.was_attacked = false;
        if active {
            f.moved = false;
            f.hexes_moved = 0;
            f.bombarded = false;
            f.shifted = false;
        }
    }
}

fn announce(world: &mut World, rule: &'static str, what: &str) {
    let t = turn(world);
    let (n, side) = (t.turn, t.active);
    log(world, EventKind::PhaseStarted, rule, |w| {
        format!(
            "Turn {n}{}: {} {what}",
            clock_text(w, n),
            side_name(w, side)
        )
    });
}

fn announce_bombardment(world: &mut World) {
    announce(world, "MP bombardment", "bombardment");
}

/// Reaction fire is once a turn for each artillery of the side not moving (MP
/// bombardment).
fn reset_reaction_fire(turn: Res<TurnState>, mut units: Query<(&SideId, &mut MpFlags)>) {
    for (side, mut f) in &mut units {
        if *side != turn.active {
            f.reaction_fired = false;
        }
    }
}

fn announce_movement(world: &mut World) {
    let side = turn(world).active;
    let out: Vec<UnitId> = roster(world)
        .iter()
        .filter(|m| m.side == side && m.hex().is_some() && !m.flags.in_command)
        .map(|m| m.id)
        .collect();
    announce(world, "MP movement", "movement");
    if !out.is_empty() {
        log(
            world,
            EventKind::PhaseStarted,
            "MP movement: command",
            |w| {
                let names: Vec<String> = out.iter().map(|u| plain_name(w, *u)).collect();
                format!(
                    "Out of command, movement allowance halved: {}",
                    names.join(", ")
                )
            },
        );
    }
}

/// Each unit attacks and is attacked at most once a combat phase (MP combat).
fn reset_combat_flags(mut units: Query<&mut MpFlags>) {
    for mut f in &mut units {
        f.attacked = false;
        f.was_attacked = false;
        f.victorious = false;
    }
}

fn announce_combat(world: &mut World) {
    announce(world, "MP combat", "combat");
}

/// The victorious marker lasts the combat phase (MP combat: supports).
fn clear_victorious(mut units: Query<&mut MpFlags>) {
    for mut f in &mut units {
        f.victorious = false;
    }
}

/// Gives the phase to `side` and enters it.
pub(crate) fn begin_phase(world: &mut World, phase: MpPhase, side: SideId) {
    world.resource_mut::<TurnState>().active = side;
    change_phase(world, phase);
}

/// Ends the current phase and starts the next (MP generalities): bombardment, movement,
/// combat, then the automatic rally, and after the second side the automatic victory
/// count and the next turn.
pub(crate) fn end_phase(world: &mut World) {
    let t = turn(world).clone();
    match phase(world) {
        MpPhase::Bombardment => begin_phase(world, MpPhase::Movement, t.active),
        MpPhase::Movement => begin_phase(world, MpPhase::Combat, t.active),
        MpPhase::Combat => {
            begin_phase(world, MpPhase::Rally, t.active);
            if t.active == t.first {
                begin_phase(world, MpPhase::Bombardment, t.first.other());
                return;
            }
            begin_phase(world, MpPhase::Victory, t.active);
            if turn(world).outcome.is_some() {
                return;
            }
            let next = t.turn + 1;
            world.resource_mut::<TurnState>().turn = next;
            log(world, EventKind::TurnStarted, "MP generalities", |w| {
                format!("Turn {next}{}", clock_text(w, next))
            });
            begin_phase(world, MpPhase::Bombardment, t.first);
        }
        MpPhase::Rally | MpPhase::Victory | MpPhase::GameOver => {}
    }
}

/// The command system of Morne Plaine: checks a command against the rules and, when
/// legal, executes it. A refused command changes nothing, not even the dice.
fn submit_command(InRef(command): InRef<Command>, world: &mut World) -> Result<(), Refusal> {
    let plan = dispatch::check(world, command)?;
    dispatch::execute(world, plan);
    Ok(())
}

impl Plugin for MornePlainePlugin {
    fn build(&self, app: &mut App) {
        Ruleset::register(self, app.world_mut());
    }
}

impl Ruleset for MornePlainePlugin {
    fn id(&self) -> &'static str {
        ID
    }

    fn name(&self) -> &'static str {
        "Morne Plaine"
    }

    fn sight(
        &self,
        world: &World,
        from: HexCoord,
        to: HexCoord,
    ) -> Option<crate::engine::hex::SightLine> {
        // The artillery's line of fire (MP bombardment).
        Some(bombardment::line_of_fire_report(
            world.res::<Board>(),
            &tables(world),
            from,
            to,
        ))
    }

    fn table_texts(&self) -> Vec<&str> {
        self.tables.texts.iter().map(String::as_str).collect()
    }

    fn terrain_names(&self) -> Vec<String> {
        self.tables.terrain_names()
    }

    fn options(&self) -> &'static [&'static str] {
        setup::OPTIONS
    }

    fn read_scenario(&self, scenario: &LoadedScenario) -> Result<ScenarioRules, LocatedError> {
        let rules = setup::read_scenario(&self.tables, scenario)?;
        Ok(ScenarioRules(Arc::new(rules)))
    }

    fn side_summary(&self, scenario: &LoadedScenario, side: usize) -> String {
        view::side_summary(scenario, side)
    }

    fn register(&self, world: &mut World) {
        if world.contains_resource::<MpTables>() {
            return;
        }
        world.insert_resource(MpTables(self.tables.clone()));
        crate::engine::snapshot::keep(world)
            .component::<MpUnit>()
            .component::<MpValues>()
            .component::<MpFlags>()
            .resource::<MpState>()
            .resource::<combat::LastCombat>()
            .resource::<movement::StepCosts>()
            .then(super::common::zones_after_copy);
        world.init_resource::<combat::LastCombat>();
        UnitScan::install(world);
        world.insert_resource(ZoneShape(contact_zone));
        add_phase_systems(world);
        let submit = world.register_system(submit_command);
        world.insert_resource(CommandSystem(submit));
    }

    fn populate(&self, world: &mut World, scenario: &LoadedScenario) {
        let costs = self.step_costs(world, scenario);
        world.insert_resource(costs);
        setup::populate(world, &self.tables, scenario);
    }

    fn random_command(&self, world: &mut World, rng: &mut ChaCha8Rng) -> Command {
        autoplay::random_command(world, rng)
    }

    fn state_json(&self, world: &World) -> serde_json::Value {
        view::state_json(world)
    }

    fn unit_flags(&self, world: &World, entity: Entity) -> Vec<String> {
        view::unit_flags(world, entity)
    }

    fn check(&self, world: &World, command: &Command) -> Result<(), Refusal> {
        dispatch::check(world, command).map(|_| ())
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

    fn unit_area(&self, world: &World, entity: Entity) -> Vec<HexCoord> {
        view::unit_area(world, entity)
    }

    fn marked_hexes(&self, world: &World) -> Vec<MarkedHex> {
        view::marked_hexes(world)
    }

    fn standing(&self, world: &World) -> Option<crate::engine::view::Standing> {
        Some(view::standing(world))
    }

    fn status_lines(&self, world: &World) -> Vec<String> {
        view::status_lines(world)
    }

    fn attack_command(&self, world: &World, attackers: &[HexCoord], target: HexCoord) -> Command {
        view::attack_command(world, attackers, target)
    }

    fn attack_preview(&self, world: &World, command: &Command) -> Result<AttackPreview, Refusal> {
        view::attack_preview(world, command)
    }

    fn threats(&self, world: &World, unit: UnitId) -> Vec<crate::engine::threat::UnitThreat> {
        threat::threats(world, unit)
    }

    fn decision(&self, _world: &World) -> Option<Decision> {
        // The game decides every retreat, advance and morale check itself (MP combat:
        // retreat): no player ever waits on another.
        None
    }

    fn morale(&self, _world: &World) -> Vec<SideMorale> {
        // Morne Plaine has no army morale: each unit's MV is on its counter.
        Vec::new()
    }

    fn player_aids(&self, world: &World) -> crate::engine::view::PlayerAids {
        aids::player_aids(&self.tables, world)
    }

    fn invariant_violations(&self, world: &World) -> Vec<String> {
        view::invariant_violations(world)
    }

    fn side_colour(&self, world: &World, side: SideId) -> [u8; 3] {
        match world.resource::<MpState>().colours[side.0 as usize] {
            Colour::Orange => [214, 110, 20],
            Colour::Blue => [40, 70, 170],
        }
    }
}

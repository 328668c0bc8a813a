//! Charles the Bold (CtB, issue 15, after `docs/charles_the_bold_design.md`): the
//! ruleset's components and state, its sequence of play (CtB 1.4: both sides choose a
//! group in secret, the initiative roll, the winner's activation, the end of the round)
//! and the plugin that binds it to the engine. The rules are in the files beside: the
//! tables (`data`), pools and hits (`pool`), the Morale Test (`morale`), the Order Test
//! (`orders`), geometry and sight (`geometry`), the activations (`activation`),
//! movement (`movement`, `moving`), fire (`fire`, `shooting`), melee (`combat`,
//! `verdict`, `melee`), retreats and pursuits (`results`), break points (`victory`).

pub mod activation;
pub mod ai;
pub mod aids;
pub mod autoplay;
mod checks;
pub mod combat;
pub mod commands;
pub mod data;
pub mod decision;
pub mod defences;
pub mod dispatch;
pub mod evasion;
pub mod fire;
pub mod generals;
pub mod geometry;
pub mod group;
pub mod impetuous;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod moving;
pub mod ongoing;
pub mod opportunity;
pub mod orders;
pub mod pool;
pub mod posture;
pub mod pushing;
mod reach;
pub mod reactions;
pub mod results;
pub mod retreat;
pub mod scenario;
pub mod setup;
pub mod shooting;
pub mod supports;
pub mod threat;
pub mod verdict;
pub mod victory;
pub mod view;

use crate::engine::cached::CachedWorld;
use std::path::Path;
use std::sync::Arc;

use bevy::ecs::system::InRef;
use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;

use crate::engine::board::Board;
use crate::engine::command::{Command, Refusal, VerbSpec};
use crate::engine::decision::Decisions;
use crate::engine::error::LocatedError;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::phase::{PhaseKind, PhaseView, RulesetPhase};
use crate::engine::ruleset::{CommandSystem, Ruleset};
use crate::engine::scenario::{LoadedScenario, ScenarioRules};
use crate::engine::units::{Facing, Placement, SideId, UnitId, Units};
use crate::engine::view::{
    AttackPreview, CardLine, CounterFace, Decision, MarkedHex, MoveOption, SideMorale,
};
use crate::engine::zoc::{ZocMap, ZoneShape};
use crate::rulesets::common::RulesetTables;

use data::{ArmyEntry, SpecialUnit, Tables, TypeSpec};

/// The id scenarios name in `ruleset:`.
pub const ID: &str = "charles_the_bold";

/// Charles the Bold with its tables.
pub struct CharlesTheBoldPlugin {
    pub tables: Arc<Tables>,
}

impl CharlesTheBoldPlugin {
    pub fn load(scenario_path: &Path) -> Result<Self, LocatedError> {
        Ok(Self {
            tables: Arc::new(Tables::for_scenario(scenario_path)?),
        })
    }
}

/// The fixed values of a stand (CtB 1.2, 1.3, 16.0): its army-list line, its type's
/// flags, its Special Units entry, its group, its SP per rank at the start and whether
/// it stands behind stakes.
#[derive(Component, Clone, Debug)]
pub struct CtbStand {
    pub entry: ArmyEntry,
    pub spec: TypeSpec,
    pub special: Option<SpecialUnit>,
    pub group: usize,
    pub sp0: Vec<u8>,
    pub stakes: bool,
}

impl CtbStand {
    /// Break points of each rank (CtB 14.0, R-BP).
    pub fn bp(&self) -> u32 {
        u32::from(self.entry.bp)
    }
}

/// A stand's SP per rank, front first (CtB 1.2, 7.4).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct CtbRanks(pub Vec<u8>);

impl CtbRanks {
    pub fn total(&self) -> u8 {
        self.0.iter().sum()
    }

    pub fn front(&self) -> u8 {
        self.0.first().copied().unwrap_or(0)
    }
}

/// A stand's lasting markers: disordered (CtB 7.3) and on opportunity (CtB 5.0).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct CtbStatus {
    pub disordered: bool,
    pub opportunity: bool,
}

/// What a stand has done in its group's activation (CtB 3.0, 6.0): moves made, whether
/// it fired and declared a move after, the hexes it entered (impact needs one: CtB
/// 10.3), where its last move began (a flank attack comes from behind the front line:
/// CtB 10.5), and whether it may still act.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct CtbTurn {
    pub moves: u8,
    pub fired: bool,
    /// Fired declaring a move after it (CtB 6.0): one move is still allowed.
    pub moving_after: bool,
    pub hexes: u32,
    pub move_start: Option<HexCoord>,
    /// Turned a face in its current move (CtB 3.1).
    pub turned: bool,
    /// Its movement is over for the round (a failed Order Test, a second face: CtB 3.1, 3.3).
    pub stopped: bool,
    /// Fought a melee this round (an ongoing melee is fought once a round: R-ongoing).
    pub fought: bool,
    /// MP left when its move made contact, and the rest of that move once the stand it
    /// charged has evaded (CtB 4.0: "can continue its full move into the vacated hex").
    pub contact_mp_left: u8,
    pub resume: Option<u8>,
    /// The enemies its last move or pursuit contacted, and whether its impact has been
    /// used in a melee since (CtB 10.3; A1: "that was used up in the first fight").
    pub contacted: Vec<UnitId>,
    /// The stand its pursuit caught: that melee's enemy Battle Stand (CtB 10.2).
    pub pursuing: Option<UnitId>,
    pub impact_used: bool,
    /// Impetuous and compelled at the start of this activation (CtB 9.1, 9.2): how, and
    /// the enemy stands that compel it, as they stood then.
    pub compelled: Option<data::Impetus>,
    pub compelling: Vec<UnitId>,
    /// It has moved at them or fought (CtB 9.1).
    pub closed: bool,
    /// It passed its Order Test for opportunity this activation: no longer compelled.
    pub released: bool,
    /// It has taken its Order Test for opportunity this activation (CtB 5.0).
    pub opportunity_tested: bool,
    /// The enemy stands on opportunity its current move has asked already (each may
    /// answer it once a move: ), and whether one of them has charged it (only
    /// one may: CtB 5.0).
    pub asked: Vec<UnitId>,
    pub opportunity_charged: bool,
    /// The chargers and shooters it has evaded since its group last moved, once per
    /// evasion (CtB 4.0: a second evasion from the same attacker is an extra move with
    /// its Order Test).
    pub evaded_from: Vec<UnitId>,
    /// It failed its rally's Order Test: rallied, it may not move, fire or go on
    /// opportunity this activation (CtB 8.0, R-8.0).
    pub failed_rally: bool,
}

/// A general (CtB 1.1, 2.0-2.2): his group, his initiative bonus, his command range,
/// the stand he is attached to, and whether he has made his move this round.
#[derive(Component, Clone, Debug)]
pub struct CtbGeneral {
    pub group: usize,
    pub bonus: i8,
    pub range: u32,
    pub attached: Option<UnitId>,
    pub moved: bool,
}

/// A command group (CtB 1.1) and whether it has moved this round (CtB 1.4).
#[derive(Clone, Debug)]
pub struct Group {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub general: UnitId,
    pub activated: bool,
}

/// Two Battle Stands in an ongoing melee (CtB 11.3), the first the side that began it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OngoingMelee {
    pub stands: [UnitId; 2],
    /// The supports of each side when it was last fought: a support supports one
    /// melee at a time (CtB 10.7).
    pub supports: [Vec<UnitId>; 2],
}

/// The scenario-wide state of the ruleset.
#[derive(Resource, Clone, Debug)]
pub struct CtbState {
    pub phase: Option<CtbPhase>,
    pub groups: Vec<Group>,
    /// Each side's secret choice this initiative (CtB 1.4, R-1.4d).
    pub declared: [Option<usize>; 2],
    /// The group moving now.
    pub activation: Option<usize>,
    pub melees: Vec<OngoingMelee>,
    pub pending: Decisions<decision::Pending>,
    /// The last initiative's totals, for the status line.
    pub last_initiative: Option<[i32; 2]>,
    pub bp_total: [u32; 2],
    pub bp_lost: [u32; 2],
    pub break_fraction: [(u32, u32); 2],
    /// Command range of each side's generals (CtB 2.0).
    pub range: [u32; 2],
    /// Groups still to arrive by the die (Arrival), and those that fled.
    pub waiting: Vec<usize>,
    /// Generals killed with their stand and the hex where each fell: a replacement
    /// comes at the start of the next round (CtB 2.2).
    pub fallen: Vec<(UnitId, HexCoord)>,
    /// A move stopped by opportunity reactions, going on once they are answered
    /// (CtB 5.0).
    pub suspended: Option<opportunity::Suspended>,
    /// The moves of a group move still to make after a stopped one (CtB 3.8, 5.0).
    pub queued: Vec<opportunity::Suspended>,
}

/// The tables, shared with every system and function of the ruleset.
#[derive(Resource, Clone)]
pub struct CtbTables(pub Arc<Tables>);

// ---- accessors over the world ----

pub(crate) use super::common::{
    all_units, component, component_mut, entity, hex_of, key, log, placement, plain_name,
    refresh_zones, roll, set_placement, side_name, side_of, turn, unit_by_key, units_at,
};

pub fn tables(world: &World) -> Arc<Tables> {
    world.resource::<CtbTables>().0.clone()
}

pub(crate) fn state(world: &World) -> &CtbState {
    world.resource::<CtbState>()
}

/// The stands' fixed values by unit id and each group's stands in id order, copied
/// once at setup (no stand is spawned, removed or changed after it): the rules ask
/// "is this a stand, of which group?" in their inner loops, and one resource lookup
/// here replaces a resource, an entity and a component lookup per unit.
#[derive(Resource, Clone, Debug, Default)]
pub struct CtbRoster {
    stands: Vec<Option<CtbStand>>,
    groups: Vec<Vec<UnitId>>,
}

impl CtbRoster {
    /// Reads every unit's `CtbStand` (setup calls it once the stands are made).
    pub(crate) fn install(world: &mut World, groups: usize) {
        let mut roster = CtbRoster {
            stands: Vec::new(),
            groups: vec![Vec::new(); groups],
        };
        for id in all_units(world) {
            let s = world.get::<CtbStand>(entity(world, id)).cloned();
            if let Some(g) = s.as_ref().and_then(|s| roster.groups.get_mut(s.group)) {
                g.push(id);
            }
            roster.stands.push(s);
        }
        world.insert_resource(roster);
    }

    #[inline]
    pub(crate) fn stand(&self, id: UnitId) -> Option<&CtbStand> {
        self.stands.get(id.0 as usize).and_then(Option::as_ref)
    }
}

#[inline]
pub(crate) fn stand(world: &World, id: UnitId) -> Option<&CtbStand> {
    match world.get_resource::<CtbRoster>() {
        Some(r) => r.stand(id),
        // Setup, before the roster is made.
        None => world.get::<CtbStand>(entity(world, id)),
    }
}

pub(crate) fn ranks(world: &World, id: UnitId) -> &CtbRanks {
    component::<CtbRanks>(world, id)
}

pub(crate) fn status(world: &World, id: UnitId) -> &CtbStatus {
    component::<CtbStatus>(world, id)
}

pub(crate) fn status_mut(world: &mut World, id: UnitId) -> Mut<'_, CtbStatus> {
    component_mut::<CtbStatus>(world, id)
}

/// Disorders a stand (CtB 7.3), which takes it off opportunity (CtB 5.0: "so long as
/// it doesn't move …, fire or become disordered the stand stays in opportunity mode").
pub(crate) fn disorder(world: &mut World, id: UnitId) {
    let mut s = status_mut(world, id);
    s.disordered = true;
    s.opportunity = false;
}

pub(crate) fn acts(world: &World, id: UnitId) -> &CtbTurn {
    component::<CtbTurn>(world, id)
}

pub(crate) fn acts_mut(world: &mut World, id: UnitId) -> Mut<'_, CtbTurn> {
    component_mut::<CtbTurn>(world, id)
}

pub(crate) fn general(world: &World, id: UnitId) -> Option<&CtbGeneral> {
    world.get::<CtbGeneral>(entity(world, id))
}

pub(crate) fn facing(world: &World, id: UnitId) -> VertexFacing {
    world
        .get_cached::<Facing>(entity(world, id))
        .map_or(VertexFacing(0), |f| f.0)
}

pub(crate) fn set_facing(world: &mut World, id: UnitId, to: VertexFacing) {
    let e = entity(world, id);
    world.entity_mut(e).insert(Facing(to));
    super::common::zones_stale(world);
}

/// A unit's name written only when formatted: the checks name the stand in every
/// refusal, and most checks (autoplay's, the window's reach) are refused.
#[derive(Clone, Copy)]
pub(crate) struct Named<'w>(pub &'w World, pub UnitId);

impl std::fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&plain_name(self.0, self.1))
    }
}

/// Who stands where, read hex by hex in the rules' inner loops (a retreat's search,
/// a line of sight, the hexes in front): the unit index, the board and the roster
/// fetched from the world once, not again at every hex (each fetch is a type lookup).
#[derive(Clone, Copy)]
pub(crate) struct Lookup<'w> {
    world: &'w World,
    pub units: &'w Units,
    pub board: &'w Board,
    roster: Option<&'w CtbRoster>,
}

impl<'w> Lookup<'w> {
    pub(crate) fn new(world: &'w World) -> Self {
        Self {
            world,
            units: world.res::<Units>(),
            board: world.res::<Board>(),
            roster: world.get_resource::<CtbRoster>(),
        }
    }

    /// The stand (not a general) in a hex: one at most (CtB 1.2).
    pub(crate) fn stand_at(&self, hex: HexCoord) -> Option<UnitId> {
        // The hex index's own slice, not a copy.
        self.units
            .at(self.board, hex)
            .iter()
            .copied()
            .find(|u| self.stand(*u).is_some())
    }

    pub(crate) fn stand(&self, id: UnitId) -> Option<&'w CtbStand> {
        match self.roster {
            Some(r) => r.stand(id),
            // Setup, before the roster is made.
            None => stand(self.world, id),
        }
    }

    pub(crate) fn side(&self, id: UnitId) -> SideId {
        self.units.side(id)
    }

    /// `status`, from the unit index already fetched.
    pub(crate) fn status(&self, id: UnitId) -> &'w CtbStatus {
        self.component::<CtbStatus>(id)
    }

    fn component<C: Component>(&self, id: UnitId) -> &'w C {
        self.world
            .get::<C>(self.units.entity(id))
            .unwrap_or_else(|| panic!("unit {} has no {}", id.0, std::any::type_name::<C>()))
    }
}

/// The stand (not a general) in a hex: one at most (CtB 1.2).
pub(crate) fn stand_at(world: &World, hex: HexCoord) -> Option<UnitId> {
    Lookup::new(world).stand_at(hex)
}

/// The generals in a hex.
pub(crate) fn generals_at(world: &World, hex: HexCoord) -> Vec<UnitId> {
    units_at(world, hex)
        .into_iter()
        .filter(|u| general(world, *u).is_some())
        .collect()
}

/// The general attached to a stand (CtB 2.1).
pub(crate) fn attached_general(world: &World, id: UnitId) -> Option<UnitId> {
    let hex = hex_of(world, id)?;
    world
        .res::<Units>()
        .at(world.res::<Board>(), hex)
        .iter()
        .copied()
        .find(|g| general(world, *g).is_some_and(|c| c.attached == Some(id)))
}

/// Moves a stand to `to` with the general attached to it (CtB 2.1): every move,
/// retreat, evasion and pursuit carries him along.
pub(crate) fn carry(world: &mut World, id: UnitId, to: HexCoord) {
    // A stand that moves, by its own move, an evasion, a retreat or a pursuit, comes
    // off opportunity (CtB 5.0: "so long as it doesn't move").
    if hex_of(world, id) != Some(to) {
        status_mut(world, id).opportunity = false;
    }
    let rider = attached_general(world, id);
    set_placement(world, id, Placement::OnMap(to));
    if let Some(g) = rider {
        set_placement(world, g, Placement::OnMap(to));
    }
}

/// Every stand of a side on the map, in id order.
pub(crate) fn stands_of(world: &World, side: SideId) -> Vec<UnitId> {
    let units = world.res::<Units>();
    let roster = world.resource::<CtbRoster>();
    units
        .ids()
        .filter(|u| units.side(*u) == side && units.placement(*u).hex().is_some())
        .filter(|u| roster.stand(*u).is_some())
        .collect()
}

/// The stands of a group on the map, in id order.
pub(crate) fn group_stands(world: &World, group: usize) -> Vec<UnitId> {
    let side = state(world).groups[group].side;
    let units = world.res::<Units>();
    world.resource::<CtbRoster>().groups[group]
        .iter()
        .copied()
        .filter(|u| units.side(*u) == side && units.placement(*u).hex().is_some())
        .collect()
}

/// Whether a group has a stand on the map (`!group_stands(..).is_empty()` without the
/// list), for several groups in a row: the units and roster fetched once.
pub(crate) struct GroupsOnMap<'w> {
    units: &'w Units,
    roster: &'w CtbRoster,
}

impl<'w> GroupsOnMap<'w> {
    pub(crate) fn new(world: &'w World) -> Self {
        Self {
            units: world.res::<Units>(),
            roster: world.resource::<CtbRoster>(),
        }
    }

    /// Whether `group`, of `side`, has a stand on the map.
    pub(crate) fn any(&self, group: usize, side: SideId) -> bool {
        self.roster.groups[group]
            .iter()
            .any(|u| self.units.side(*u) == side && self.units.placement(*u).hex().is_some())
    }
}

/// The group of a stand or a general.
pub(crate) fn group_of(world: &World, id: UnitId) -> Option<usize> {
    stand(world, id)
        .map(|s| s.group)
        .or_else(|| general(world, id).map(|g| g.group))
}

/// Whether a stand is a Battle Stand of an ongoing melee (CtB 11.3).
pub(crate) fn in_melee(world: &World, id: UnitId) -> bool {
    state(world).melees.iter().any(|m| m.stands.contains(&id))
}

/// Whether `hex` lies in a zone of control of `side`'s enemies (CtB 3.5, R-3.5).
pub(crate) fn in_enemy_zoc(world: &World, side: SideId, hex: HexCoord) -> bool {
    world
        .resource::<ZocMap>()
        .covered_by(world.res::<Board>(), side.other(), hex)
}

/// A stand's zone of control: its two front hexes (CtB 3.5, R-3.5).
fn front_zone(board: &Board, at: HexCoord, facing: Option<VertexFacing>, out: &mut Vec<HexCoord>) {
    if let Some(f) = facing {
        out.extend(f.front(at).into_iter().filter(|h| board.contains(*h)));
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
                return Err(Refusal::new("CtB 1.2", format!("{h} is off the map")));
            }
            stand_at(world, *h)
                .or_else(|| units_at(world, *h).first().copied())
                .ok_or_else(|| Refusal::new("CtB 1.2", format!("there is no stand in {h}")))
        }
        UnitRef::Key(k) => unit_by_key(world, k)
            .ok_or_else(|| Refusal::new("CtB 1.1", format!("there is no unit with id `{k}`"))),
    }
}

/// Every stand or general on the map, in id order.
pub(crate) fn on_map(world: &World) -> Vec<UnitId> {
    all_units(world)
        .into_iter()
        .filter(|u| matches!(placement(world, *u), Placement::OnMap(_)))
        .collect()
}

// ---- the sequence of play (CtB 1.4) ----

/// The steps of a round (CtB 1.4): both sides choose a group (Declare), the winner of
/// the initiative moves it (Activation), and when every group has moved the round
/// ends (RoundEnd, passed through at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CtbPhase {
    Declare,
    Activation,
    RoundEnd,
    GameOver,
}

impl RulesetPhase for CtbPhase {
    const ALL: &'static [Self] = &[
        CtbPhase::Declare,
        CtbPhase::Activation,
        CtbPhase::RoundEnd,
        CtbPhase::GameOver,
    ];

    fn view(self) -> PhaseView {
        let (label, rule, kind) = match self {
            CtbPhase::Declare => ("choice of groups", "CtB 1.4", PhaseKind::Decide),
            CtbPhase::Activation => ("activation", "CtB 1.4", PhaseKind::Move),
            CtbPhase::RoundEnd => ("end of round", "CtB 1.4", PhaseKind::Decide),
            CtbPhase::GameOver => return PhaseView::GAME_OVER,
        };
        PhaseView { label, rule, kind }
    }

    fn current(world: &World) -> Option<Self> {
        world.get_resource::<CtbState>().and_then(|s| s.phase)
    }

    fn set_current(world: &mut World, phase: Self) {
        world.resource_mut::<CtbState>().phase = Some(phase);
    }
}

/// The phase the game is in.
pub(crate) fn phase(world: &World) -> CtbPhase {
    CtbPhase::current(world).unwrap_or(CtbPhase::Declare)
}

/// The systems of each phase, in the order the rules give.
fn add_phase_systems(world: &mut World) {
    crate::engine::phase::on_enter(world, CtbPhase::Declare, activation::open_declarations);
    crate::engine::phase::on_enter(world, CtbPhase::Activation, activation::start_activation);
    crate::engine::phase::on_enter(world, CtbPhase::RoundEnd, activation::end_round);
}

/// The command system of Charles the Bold: checks a command against the rules and,
/// when legal, executes it. A refused command changes nothing, not even the dice.
fn submit_command(InRef(command): InRef<Command>, world: &mut World) -> Result<(), Refusal> {
    let plan = dispatch::check(world, command)?;
    dispatch::execute(world, plan);
    Ok(())
}

impl Plugin for CharlesTheBoldPlugin {
    fn build(&self, app: &mut App) {
        Ruleset::register(self, app.world_mut());
    }
}

impl Ruleset for CharlesTheBoldPlugin {
    fn id(&self) -> &'static str {
        ID
    }

    fn name(&self) -> &'static str {
        "Charles the Bold"
    }

    fn sight(
        &self,
        world: &World,
        from: HexCoord,
        to: HexCoord,
    ) -> Option<crate::engine::hex::SightLine> {
        // Direct fire's line (archers' overhead fire passes over stands: CtB 6.0).
        Some(shooting::sight_report(world, from, to, false))
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

    fn verbs(&self) -> &'static [VerbSpec] {
        commands::VERBS
    }

    fn read_scenario(&self, scenario: &LoadedScenario) -> Result<ScenarioRules, LocatedError> {
        let rules = setup::read_scenario(&self.tables, scenario)?;
        Ok(ScenarioRules(Arc::new(rules)))
    }

    fn side_summary(&self, scenario: &LoadedScenario, side: usize) -> String {
        setup::side_summary(&self.tables, scenario, side)
    }

    fn register(&self, world: &mut World) {
        if world.contains_resource::<CtbTables>() {
            return;
        }
        world.insert_resource(CtbTables(self.tables.clone()));
        crate::engine::snapshot::keep(world)
            .component::<CtbStand>()
            .component::<CtbRanks>()
            .component::<CtbStatus>()
            .component::<CtbTurn>()
            .component::<CtbGeneral>()
            .resource::<CtbState>()
            .resource::<CtbRoster>()
            .then(super::common::zones_after_copy);
        world.insert_resource(ZoneShape(front_zone));
        add_phase_systems(world);
        let submit = world.register_system(submit_command);
        world.insert_resource(CommandSystem(submit));
    }

    fn populate(&self, world: &mut World, scenario: &LoadedScenario) {
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

    fn unit_actions(&self, world: &World, entity: Entity) -> Vec<crate::engine::view::Choice> {
        view::unit_actions(world, entity)
    }

    fn group_move_options(
        &self,
        world: &World,
        units: &[UnitId],
    ) -> Result<Vec<MoveOption>, Refusal> {
        view::group_move_options(world, units)
    }

    fn marked_hexes(&self, world: &World) -> Vec<MarkedHex> {
        view::marked_hexes(world)
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

    fn decision(&self, world: &World) -> Option<Decision> {
        decision::decision(world)
    }

    fn threats(&self, world: &World, unit: UnitId) -> Vec<crate::engine::threat::UnitThreat> {
        threat::threats(world, unit)
    }

    fn morale(&self, world: &World) -> Vec<SideMorale> {
        view::morale(world)
    }

    /// A stand's class of terrain costs (types.ron's `terrain`: close foot, light
    /// foot, mounted, light horse, guns).
    fn ground_class(&self, world: &World, unit: Entity) -> u8 {
        world
            .get::<CtbStand>(unit)
            .map_or(0, |s| s.spec.terrain as u8)
    }

    /// What `movement::step_cost` never lets that class do, whatever its MPs: ground
    /// it may not enter (a lake; the marsh for horse and guns), a river without a
    /// crossing, field defences it may not cross.
    fn crosses(&self, world: &World, class: u8, from: HexCoord, to: HexCoord) -> bool {
        let Some(&class) = data::TerrainClass::ALL.get(usize::from(class)) else {
            return true;
        };
        let board = world.resource::<Board>();
        movement::step_cost(&self.tables, board, class, from, to).is_some()
    }

    fn player_aids(&self, world: &World) -> crate::engine::view::PlayerAids {
        aids::player_aids(&self.tables, world)
    }

    fn invariant_violations(&self, world: &World) -> Vec<String> {
        view::invariant_violations(world)
    }

    fn attacks_once_per_phase(&self) -> bool {
        // A stand may fight several melees in an activation: a pursuit, a reignition
        // (CtB 11.4, 13.1).
        false
    }

    fn attacker_end_redraws(&self) -> usize {
        ai::ATTACKER_END_REDRAWS
    }

    fn resample_hidden(
        &self,
        world: &mut World,
        observer: SideId,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) {
        ai::resample_hidden(self, world, observer, rng)
    }

    fn hidden_information(&self, world: &World) -> bool {
        // Between the first secret choice and the `end` that reveals both (R-1.4d).
        phase(world) == CtbPhase::Declare
            && activation::both_declare(world)
            && state(world).declared.iter().any(Option::is_some)
    }

    fn side_colour(&self, _world: &World, side: SideId) -> [u8; 3] {
        if side.0 == 0 {
            [180, 40, 40]
        } else {
            [40, 70, 170]
        }
    }
}

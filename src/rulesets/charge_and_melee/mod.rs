//! Charge & mêlée (C&M): chapter 7 of a Dark-Age miniatures ruleset adapted to hexes
//! (issue 16). The tables (`data`) and the pure arithmetic of chapter 7 — the dice
//! (`dice`), charge and evade moves (`moves`), the evade test (`evade`), the charge
//! resolution (`charge`) and its results (`results`), the mêlée hits and losers
//! (`melee`), the responses (`responses`) and who may charge (`eligibility`); the
//! stands' formations on the hexes (`formation`) and the scenario format (`scenario`).
//! Played by `CmPlugin`: units of stands (`setup`), the sequence of play of spec B.2 §13
//! as phases (below), Command Points and control tests (`command`), movement
//! (`movement`), the missile exchanges (`missile`, with line of sight in `sight`),
//! charge declarations and responses (`charges`), the one resolution step
//! (`resolution`, a combat's units read once in `combatant`) and charges carried on (`carryon`), the charge preview (`preview`),
//! personal combat (`personal`), the mêlée (`fight`), the moves after a charge or mêlée
//! (`after`), losses (`losses`), victory (`victory`). In the registry as `ENTRY`.

pub mod aboutface;
pub mod after;
pub mod aids;
pub mod autoplay;
pub mod battleline;
pub mod carryon;
pub mod charge;
pub mod charges;
pub mod combatant;
pub mod command;
pub mod commands;
pub mod cuneus;
pub mod data;
pub mod dice;
pub mod dispatch;
pub mod eligibility;
pub mod evade;
pub mod fight;
pub mod fight_preview;
pub mod formation;
pub mod line_preview;
pub mod losses;
pub mod melee;
pub mod missile;
pub mod movement;
pub mod moves;
pub mod personal;
pub mod preview;
pub mod pushback;
pub mod rampage;
pub mod resolution;
pub mod responses;
pub mod results;
pub mod scenario;
pub mod setup;
pub mod sight;
pub mod threat;
pub mod victory;
pub mod view;

use crate::engine::cached::CachedWorld;
use std::path::Path;
use std::sync::Arc;

use bevy::ecs::system::InRef;
use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;

use crate::engine::board::Board;
use crate::engine::command::{Command, Refusal, UnitRef, VerbSpec};
use crate::engine::decision::Decisions;
use crate::engine::error::LocatedError;
use crate::engine::event::EventKind;
use crate::engine::game::TurnState;
use crate::engine::hex::{HexCoord, HexsideFacing};
use crate::engine::phase::{PhaseKind, PhaseView, RulesetPhase, change_phase, on_enter};
use crate::engine::ruleset::{CommandSystem, Ruleset, RulesetEntry};
use crate::engine::scenario::{LoadedScenario, ScenarioRules};
use crate::engine::units::{Placement, SideId, UnitId, Units};
use crate::engine::view::{AttackPreview, CardLine, CounterFace, Decision, MoveOption, SideMorale};
use crate::rulesets::common::RulesetTables;

use data::{FormationId, Grade, Tables, TroopType};
use results::AfterCharge;
use scenario::CmSpecialRule;

/// The ruleset's id, as scenarios will name it and as its tables' folder is named.
pub const ID: &str = "charge_and_melee";

/// The registry entry of Charge & mêlée (`rulesets::REGISTRY` holds it).
pub const ENTRY: RulesetEntry = RulesetEntry {
    id: ID,
    verbs: commands::VERBS,
    load: |path| Ok(Arc::new(CmPlugin::load(path)?) as Arc<dyn Ruleset>),
};

/// Charge & mêlée with its tables.
pub struct CmPlugin {
    pub tables: Arc<Tables>,
}

impl CmPlugin {
    pub fn load(scenario_path: &Path) -> Result<Self, LocatedError> {
        Ok(Self {
            tables: Arc::new(Tables::for_scenario(scenario_path)?),
        })
    }
}

// ---- components ----

/// What a unit of stands is (spec B.2 §2): its troop type (an index into troops.ron),
/// grade, Morale Value, whether it is a leader's comitatus, and the leader whose command
/// stand is in it.
#[derive(Component, Clone, Copy, Debug)]
pub struct CmUnit {
    pub troop: usize,
    pub grade: Grade,
    pub mv: i8,
    pub comitatus: bool,
    pub leader: Option<UnitId>,
}

/// Every stand of a unit, one a hex, the first where the unit's `Placement` is (spec
/// B.2 §2). Casualties remove stands (7.15, 7.23).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct CmStands(pub Vec<HexCoord>);

/// A unit's formation and the hexside its stands face (spec B.2 §2-3). An unformed
/// unit faces nowhere (7.22): its `facing` is the last it had, read by no rule.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CmFormation {
    pub id: FormationId,
    pub facing: HexsideFacing,
}

impl CmFormation {
    pub fn formed(self) -> bool {
        self.id != FormationId::Unformed
    }
}

/// Disorder Points, shaken and casualties (7.11, 7.15; spec B.2 §5): at 5 DPs a unit is
/// shaken, the marker counting 5; each DP taken while shaken is a casualty.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CmMorale {
    pub dps: u8,
    pub shaken: bool,
    pub casualties: u8,
}

/// The state a charge or mêlée leaves a unit in until its next turn (7.16): one of them
/// at most, so a unit is never both halted and pursuing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posture {
    /// Stays the whole next turn (7.16 Halt, and after a fall-back).
    Halted,
    /// Moved to stay in contact with an opponent that fell back (7.16): momentum (7.20).
    FollowingUp,
    /// Retiring, unformed (7.16).
    Retiring,
    /// Broken, routing, unformed (7.16, 7.23).
    Routing,
    /// Pursuing at full speed, unformed (7.16): momentum (7.20).
    Pursuing,
}

/// What a unit has done this turn, and the state it is left in.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CmStatus {
    pub posture: Option<Posture>,
    /// The turn the posture was taken: it lasts through the next turn (7.16).
    pub since: u32,
    /// Moved or changed formation in this Move Phase.
    pub moved: bool,
}

/// A leader (3.x; spec B.2 §7): his Command Points a turn, the unit his command stand
/// is in, whether he commands the army; dead leaders leave the map.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CmLeader {
    pub cps: u8,
    pub with: UnitId,
    pub commander: bool,
}

// ---- resources ----

/// The tables, shared with every system and function of the ruleset.
#[derive(Resource, Clone)]
pub struct CmTables(pub Arc<Tables>);

/// A charge declared (7.2): who charges whom, in the order declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declared {
    pub charger: UnitId,
    pub target: UnitId,
}

/// A charged unit's answer (7.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub unit: UnitId,
    pub response: responses::Response,
}

/// The moves after a charge or a mêlée waiting to be made, losers first (7.16, 7.29):
/// each unit with the moves it may choose among and the opponents they are aimed at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AfterMove {
    pub unit: UnitId,
    pub moves: Vec<AfterCharge>,
    pub opponents: Vec<UnitId>,
    /// Why: "C&M 7.16" after a charge, "C&M 7.30" after a mêlée.
    pub rule: &'static str,
    /// Victory: cavalry that choose not to pursue take these DPs (results chart).
    pub dps_unless_pursuing: u8,
}

/// A decision the rules wait for from a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CmDecision {
    /// A charged unit that declared no charge answers (7.10).
    Respond {
        unit: UnitId,
        options: Vec<responses::Response>,
    },
    /// A unit chooses its move after a charge or a mêlée (7.16, 7.30, 7.31).
    After(AfterMove),
    /// Light or A grade chargers halted 1 JT from a new target charge on, or not (7.8).
    CarryOn(carryon::CarryOn),
    /// A leader who may choose seeks out the enemy leader in personal combat, or not
    /// (7.33).
    Seek { leader: UnitId, foe: UnitId },
}

/// Scenario-wide state of the ruleset.
#[derive(Resource, Clone, Debug, Default)]
pub struct CmState {
    /// The phase the game is in; `None` until the first.
    pub phase: Option<CmPhase>,
    /// The side with the initiative this turn (spec B.2 §13): it moves and declares
    /// first.
    pub initiative: SideId,
    /// The charges declared this turn, in order (7.2).
    pub declared: Vec<Declared>,
    /// The answers given to them (7.10).
    pub answers: Vec<Answer>,
    /// The moves after a charge or mêlée still to make, in order (7.16, 7.29).
    pub after: std::collections::VecDeque<AfterMove>,
    /// The scenario's special rules (victory conditions, passage, control tests).
    pub special: Vec<CmSpecialRule>,
    /// Each side's stands at the start (spec B.2 §14's army break).
    pub stands_at_start: [u32; 2],
    /// Leaders killed, in order (3.22).
    pub dead: Vec<UnitId>,
    /// Sides broken at their commander-in-chief's death (spec B.2 §14).
    pub broken_at_death: Vec<SideId>,
    /// The decisions waited for, the one to answer first in front.
    pub decisions: Decisions<CmDecision>,
}

/// Which unit has a stand on each hex, by the board's index (spec B.2 §2: one stand a
/// hex). Built at set-up and kept by `set_stands`, the one way stands change, so that
/// "whose stand is here" is one read and not a scan of every unit (the rules ask it at
/// every step of every move and charge).
#[derive(Resource, Clone, Debug, Default)]
pub struct StandIndex {
    columns: i32,
    rows: i32,
    cells: Vec<Option<UnitId>>,
}

impl StandIndex {
    /// An empty index of a board's hexes.
    pub fn new(board: &Board) -> Self {
        Self {
            columns: board.columns,
            rows: board.rows,
            cells: vec![None; board.hex_count()],
        }
    }

    /// The board's index of a hex (`Board::index`), without a look-up of the board.
    fn cell(&self, h: HexCoord) -> Option<usize> {
        ((1..=self.columns).contains(&h.col) && (1..=self.rows).contains(&h.row))
            .then(|| ((h.col - 1) * self.rows + (h.row - 1)) as usize)
    }

    /// The unit with a stand on `hex`.
    pub fn at(&self, hex: HexCoord) -> Option<UnitId> {
        self.cell(hex).and_then(|i| self.cells[i])
    }

    /// Puts `id` on each of `hexes`.
    fn mark(&mut self, hexes: &[HexCoord], id: UnitId) {
        for h in hexes {
            if let Some(i) = self.cell(*h) {
                self.cells[i] = Some(id);
            }
        }
    }

    /// Takes `id` off each of `hexes` it is still on: units moved together (a push-back
    /// chain) may already have put another unit there.
    fn unmark(&mut self, hexes: &[HexCoord], id: UnitId) {
        for h in hexes {
            if let Some(i) = self.cell(*h).filter(|&i| self.cells[i] == Some(id)) {
                self.cells[i] = None;
            }
        }
    }
}

/// One unit of stands as a whole-army scan sees it.
#[derive(Clone, Debug)]
pub struct Member {
    pub id: UnitId,
    pub side: SideId,
    pub unit: CmUnit,
    pub stands: Vec<HexCoord>,
    pub formation: CmFormation,
    pub morale: CmMorale,
    pub status: CmStatus,
}

// ---- accessors ----

pub(crate) use super::common::{
    component, component_mut, component_of, entity, log, name, placement, plain_name,
    set_placement, side_name, side_of, turn, unit_by_key,
};

pub(crate) fn tables(world: &World) -> Arc<Tables> {
    world.resource::<CmTables>().0.clone()
}

pub(crate) fn state(world: &World) -> &CmState {
    world.resource::<CmState>()
}

/// A unit's troop type, borrowed from the tables (no copy of its names): for reads in
/// the rules' inner loops, where `troop` would clone it each time.
pub(crate) fn troop_ref(world: &World, id: UnitId) -> &TroopType {
    &world.resource::<CmTables>().0.troops.troops[component::<CmUnit>(world, id).troop]
}

pub(crate) fn troop(world: &World, id: UnitId) -> TroopType {
    let t = tables(world);
    t.troops.troops[component::<CmUnit>(world, id).troop].clone()
}

pub(crate) fn stands(world: &World, id: UnitId) -> &[HexCoord] {
    &component::<CmStands>(world, id).0
}

pub(crate) fn formation(world: &World, id: UnitId) -> CmFormation {
    *component::<CmFormation>(world, id)
}

pub(crate) fn morale(world: &World, id: UnitId) -> CmMorale {
    *component::<CmMorale>(world, id)
}

pub(crate) fn status(world: &World, id: UnitId) -> CmStatus {
    *component::<CmStatus>(world, id)
}

/// Whether a unit is a unit of stands on the map (not a leader, not gone).
pub(crate) fn is_troop(world: &World, id: UnitId) -> bool {
    let units = world.res::<Units>();
    units.placement(id).hex().is_some() && world.get::<CmUnit>(units.entity(id)).is_some()
}

/// Every unit of stands on the map, in id order.
pub(crate) fn troops(world: &World) -> Vec<UnitId> {
    let units = world.res::<Units>();
    units
        .ids()
        .filter(|&id| {
            units.placement(id).hex().is_some() && world.get::<CmUnit>(units.entity(id)).is_some()
        })
        .collect()
}

/// Every unit of stands on the map, read in one pass, in id order.
pub(crate) fn roster(world: &World) -> Vec<Member> {
    troops(world)
        .into_iter()
        .map(|id| Member {
            id,
            side: side_of(world, id),
            unit: *component::<CmUnit>(world, id),
            stands: stands(world, id).to_vec(),
            formation: formation(world, id),
            morale: morale(world, id),
            status: status(world, id),
        })
        .collect()
}

/// The unit of stands with a stand on `hex`.
pub(crate) fn stand_at(world: &World, hex: HexCoord) -> Option<UnitId> {
    world.resource::<StandIndex>().at(hex)
}

/// The leaders alive, in id order.
pub(crate) fn leaders(world: &World) -> Vec<UnitId> {
    let units = world.res::<Units>();
    units
        .ids()
        .filter(|&id| {
            units.placement(id).hex().is_some() && world.get::<CmLeader>(units.entity(id)).is_some()
        })
        .collect()
}

/// A unit's posture, if it still lasts: taken this turn or the last (7.16: "the whole
/// next turn").
pub(crate) fn posture(world: &World, id: UnitId) -> Option<Posture> {
    let s = status(world, id);
    s.posture.filter(|_| s.since + 1 >= turn(world).turn)
}

/// Sets a unit's posture from now to the end of next turn.
pub(crate) fn set_posture(world: &mut World, id: UnitId, p: Option<Posture>) {
    let now = turn(world).turn;
    let mut s = component_mut::<CmStatus>(world, id);
    s.posture = p;
    s.since = now;
}

/// Whether any stand of `a` touches a stand of `b`.
pub(crate) fn in_contact(world: &World, a: UnitId, b: UnitId) -> bool {
    let sb = stands(world, b);
    stands(world, a)
        .iter()
        .any(|x| sb.iter().any(|y| x.is_adjacent(*y)))
}

/// The gap in JT between two units: their nearest stands' (spec B.2 §1).
pub(crate) fn gap_between(world: &World, a: UnitId, b: UnitId) -> u32 {
    let sb = stands(world, b);
    stands(world, a)
        .iter()
        .flat_map(|x| sb.iter().map(move |y| moves::gap(*x, *y)))
        .min()
        .unwrap_or(u32::MAX)
}

/// A unit named by a command: by its id, or by the hex of one of its stands.
pub fn resolve(world: &World, unit: &UnitRef) -> Result<UnitId, Refusal> {
    match unit {
        UnitRef::Hex(h) => stand_at(world, *h)
            .ok_or_else(|| Refusal::new("spec B.2 §2", format!("no stand is in {h}"))),
        UnitRef::Key(k) => unit_by_key(world, k)
            .filter(|&id| placement(world, id).hex().is_some())
            .ok_or_else(|| {
                Refusal::new("spec B.2 §2", format!("there is no unit `{k}` on the map"))
            }),
    }
}

/// Rolls the die of a grade (7.11, 7.15: the average die for A grade, a D6 for others)
/// through the one dice resource, logged with its purpose.
pub(crate) fn roll_grade(
    world: &mut World,
    grade: Grade,
    rule: &'static str,
    purpose: impl FnOnce(&World) -> String,
) -> u8 {
    match tables(world).die_of(grade) {
        data::DieKind::Average => super::common::roll_average(world, rule, purpose),
        data::DieKind::D6 => super::common::roll(world, rule, purpose),
    }
}

pub(crate) use combatant::Where;
pub(crate) use losses::{add_dps, make_shaken, remove_stands, set_stands, shift_stands};

// ---- the sequence of play (spec B.2 §13) ----

/// The phases of a turn (spec B.2 §13's reading): the initiative, the Move Phase taken
/// by each side in turn, the shots declared by each side in turn and the long- then
/// short-range missile exchanges (spec B.2 §11), the Charge Phase's declarations in turn (7.2) and the other
/// side's responses (7.10), one resolution step rolled in a fixed order (7.6-7.17), the
/// Mêlée Phase (7.18-7.34), then DP removal and rallies. Phases without player input
/// pass at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmPhase {
    Initiative,
    Command,
    Movement,
    MissileDeclaration,
    LongRange,
    ShortRange,
    ChargeDeclaration,
    ChargeResponse,
    ChargeResolution,
    PersonalCombat,
    Melee,
    Rally,
    GameOver,
}

impl RulesetPhase for CmPhase {
    const ALL: &'static [Self] = &[
        CmPhase::Initiative,
        CmPhase::Command,
        CmPhase::Movement,
        CmPhase::MissileDeclaration,
        CmPhase::LongRange,
        CmPhase::ShortRange,
        CmPhase::ChargeDeclaration,
        CmPhase::ChargeResponse,
        CmPhase::ChargeResolution,
        CmPhase::PersonalCombat,
        CmPhase::Melee,
        CmPhase::Rally,
        CmPhase::GameOver,
    ];

    fn view(self) -> PhaseView {
        let (label, rule, kind) = match self {
            CmPhase::Initiative => ("initiative", "spec B.2 §13", PhaseKind::Decide),
            CmPhase::Command => ("command", "spec B.2 §6", PhaseKind::Decide),
            CmPhase::Movement => ("movement", "spec B.2 §13", PhaseKind::Move),
            CmPhase::MissileDeclaration => {
                ("missile declarations", "spec B.2 §11", PhaseKind::Fire)
            }
            CmPhase::LongRange => ("long-range exchange", "spec B.2 §11", PhaseKind::Fire),
            CmPhase::ShortRange => ("short-range exchange", "spec B.2 §11", PhaseKind::Fire),
            CmPhase::ChargeDeclaration => ("charge declarations", "C&M 7.2", PhaseKind::Fight),
            CmPhase::ChargeResponse => ("charge responses", "C&M 7.10", PhaseKind::Decide),
            CmPhase::ChargeResolution => ("charge resolution", "C&M 7.15", PhaseKind::Decide),
            CmPhase::PersonalCombat => ("personal combat", "C&M 7.33", PhaseKind::Decide),
            CmPhase::Melee => ("mêlée", "C&M 7.18", PhaseKind::Decide),
            CmPhase::Rally => ("rally", "spec B.2 §5", PhaseKind::Decide),
            CmPhase::GameOver => return PhaseView::GAME_OVER,
        };
        PhaseView { label, rule, kind }
    }

    fn current(world: &World) -> Option<Self> {
        world.get_resource::<CmState>().and_then(|s| s.phase)
    }

    fn set_current(world: &mut World, phase: Self) {
        world.resource_mut::<CmState>().phase = Some(phase);
    }
}

/// The phase the game is in.
pub(crate) fn phase(world: &World) -> CmPhase {
    CmPhase::current(world).unwrap_or(CmPhase::Initiative)
}

fn add_phase_systems(world: &mut World) {
    on_enter(world, CmPhase::Initiative, victory::initiative);
    on_enter(world, CmPhase::Command, command::enter);
    on_enter(
        world,
        CmPhase::Movement,
        (start_movement, command::compelled_advance).chain(),
    );
    on_enter(
        world,
        CmPhase::MissileDeclaration,
        missile::start_declarations,
    );
    on_enter(world, CmPhase::LongRange, missile::long_range);
    on_enter(world, CmPhase::ShortRange, missile::short_range);
    on_enter(
        world,
        CmPhase::ChargeDeclaration,
        (announce_declarations, command::declare_compelled).chain(),
    );
    on_enter(world, CmPhase::ChargeResponse, charges::ask_responses);
    on_enter(world, CmPhase::ChargeResolution, resolution::resolve);
    on_enter(world, CmPhase::PersonalCombat, personal::ask);
    on_enter(world, CmPhase::Melee, fight::melee);
    on_enter(world, CmPhase::Rally, victory::rally);
}

/// A side's Move Phase: its units have not moved (spec B.2 §13).
fn start_movement(world: &mut World) {
    let side = turn(world).active;
    for id in troops(world) {
        if side_of(world, id) == side {
            component_mut::<CmStatus>(world, id).moved = false;
        }
    }
    let n = turn(world).turn;
    log(world, EventKind::PhaseStarted, "spec B.2 §13", |w| {
        format!("Turn {n}: {} moves", side_name(w, side))
    });
}

fn announce_declarations(world: &mut World) {
    let side = turn(world).active;
    log(world, EventKind::PhaseStarted, "C&M 7.2", |w| {
        format!("{} declares its charges", side_name(w, side))
    });
}

/// Gives the phase to `side` and enters it.
pub(crate) fn begin_phase(world: &mut World, phase: CmPhase, side: SideId) {
    world.resource_mut::<TurnState>().active = side;
    change_phase(world, phase);
}

/// Ends the current phase and goes on through the sequence of play; the automatic
/// phases run as they are entered and pass on (`advance`).
pub(crate) fn end_phase(world: &mut World) {
    let t = turn(world).clone();
    let first = state(world).initiative;
    match phase(world) {
        CmPhase::Command => command::end_side(world),
        CmPhase::Movement if t.active == first => {
            begin_phase(world, CmPhase::Movement, first.other())
        }
        CmPhase::Movement => begin_phase(world, CmPhase::MissileDeclaration, first),
        CmPhase::MissileDeclaration => next_declarations(world),
        CmPhase::ChargeDeclaration if t.active == first => {
            begin_phase(world, CmPhase::ChargeDeclaration, first.other())
        }
        CmPhase::ChargeDeclaration => begin_phase(world, CmPhase::ChargeResponse, first),
        _ => {}
    }
    advance(world);
}

/// After a side's shots: the other side's, then the exchanges (spec B.2 §11).
fn next_declarations(world: &mut World) {
    let first = state(world).initiative;
    if turn(world).active == first {
        begin_phase(world, CmPhase::MissileDeclaration, first.other())
    } else {
        begin_phase(world, CmPhase::LongRange, first)
    }
}

/// Passes through every phase that waits for no one: a side with no shot to declare,
/// the exchanges, a response phase with nothing to
/// answer, the resolution and the mêlée once their moves are made, the rally, the next
/// turn's initiative.
pub(crate) fn advance(world: &mut World) {
    loop {
        if turn(world).outcome.is_some() {
            return;
        }
        let first = state(world).initiative;
        let waiting = !world.resource::<CmState>().decisions.is_empty();
        if waiting {
            after::show_decider(world);
            return;
        }
        match phase(world) {
            CmPhase::MissileDeclaration if missile::any_shot(world, turn(world).active) => {
                return;
            }
            CmPhase::MissileDeclaration => next_declarations(world),
            CmPhase::LongRange => begin_phase(world, CmPhase::ShortRange, first),
            CmPhase::ShortRange => begin_phase(world, CmPhase::ChargeDeclaration, first),
            CmPhase::ChargeResponse => begin_phase(world, CmPhase::ChargeResolution, first),
            CmPhase::ChargeResolution => {
                if after::walk(world) || carryon::next_round(world) {
                    continue;
                }
                begin_phase(world, CmPhase::PersonalCombat, first)
            }
            CmPhase::PersonalCombat => {
                personal::fight(world);
                begin_phase(world, CmPhase::Melee, first)
            }
            CmPhase::Melee => {
                if after::walk(world) {
                    continue;
                }
                personal::end_of_melee(world);
                begin_phase(world, CmPhase::Rally, first)
            }
            CmPhase::Rally => {
                if turn(world).outcome.is_some() {
                    return;
                }
                let next = turn(world).turn + 1;
                world.resource_mut::<TurnState>().turn = next;
                log(world, EventKind::TurnStarted, "spec B.2 §13", |_| {
                    format!("Turn {next}")
                });
                begin_phase(world, CmPhase::Initiative, first)
            }
            CmPhase::Initiative => {
                let first = state(world).initiative;
                begin_phase(world, CmPhase::Command, first)
            }
            CmPhase::Command => {
                if command::waits(world) {
                    return;
                }
                command::end_side(world)
            }
            CmPhase::Movement | CmPhase::ChargeDeclaration | CmPhase::GameOver => return,
        }
    }
}

/// The command system of C&M: checks a command against the rules and, when legal,
/// executes it. A refused command changes nothing, not even the dice.
fn submit_command(InRef(command): InRef<Command>, world: &mut World) -> Result<(), Refusal> {
    let plan = dispatch::check(world, command)?;
    dispatch::execute(world, plan);
    Ok(())
}

impl Plugin for CmPlugin {
    fn build(&self, app: &mut App) {
        Ruleset::register(self, app.world_mut());
    }
}

impl Ruleset for CmPlugin {
    fn id(&self) -> &'static str {
        ID
    }

    fn name(&self) -> &'static str {
        "Charge & mêlée"
    }

    fn sight(
        &self,
        world: &World,
        from: HexCoord,
        to: HexCoord,
    ) -> Option<crate::engine::hex::SightLine> {
        // The shooters' line of sight (spec B.2 §11), as the exchanges read it.
        Some(sight::line(world, from, to))
    }

    fn threats(&self, world: &World, unit: UnitId) -> Vec<crate::engine::threat::UnitThreat> {
        threat::threats(world, unit)
    }

    fn table_texts(&self) -> Vec<&str> {
        self.tables.texts.iter().map(String::as_str).collect()
    }

    fn terrain_names(&self) -> Vec<String> {
        self.tables.terrain_names()
    }

    fn options(&self) -> &'static [&'static str] {
        &[]
    }

    fn verbs(&self) -> &'static [VerbSpec] {
        commands::VERBS
    }

    fn read_scenario(&self, scenario: &LoadedScenario) -> Result<ScenarioRules, LocatedError> {
        let rules = scenario::read_scenario(&self.tables, scenario)?;
        Ok(ScenarioRules(Arc::new(rules)))
    }

    fn register(&self, world: &mut World) {
        if world.contains_resource::<CmTables>() {
            return;
        }
        world.insert_resource(CmTables(self.tables.clone()));
        crate::engine::snapshot::keep(world)
            .component::<CmUnit>()
            .component::<CmStands>()
            .component::<CmFormation>()
            .component::<CmMorale>()
            .component::<CmStatus>()
            .component::<CmLeader>()
            .resource::<CmState>()
            .resource::<StandIndex>()
            .resource::<missile::CmMissiles>()
            .resource::<command::CmCommandState>()
            .resource::<carryon::CmCarryOn>()
            .then(super::common::zones_after_copy);
        world.insert_resource(CmState::default());
        world.insert_resource(StandIndex::default());
        // Present from the start, so that the first move of a game marks the zones
        // stale in place rather than inserting the resource (`common::zones_stale`).
        world.init_resource::<super::common::ZoneSystem>();
        world.insert_resource(missile::CmMissiles::default());
        world.insert_resource(command::CmCommandState::default());
        world.insert_resource(carryon::CmCarryOn::default());
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

    fn unit_area(&self, world: &World, entity: Entity) -> Vec<HexCoord> {
        view::unit_area(world, entity)
    }

    fn unit_actions(&self, world: &World, entity: Entity) -> Vec<crate::engine::view::Choice> {
        view::unit_actions(world, entity)
    }

    fn unit_body(&self, world: &World, entity: Entity) -> Option<crate::engine::view::UnitBody> {
        view::unit_body(world, entity)
    }

    fn stand_owner(&self, world: &World, hex: HexCoord) -> Option<UnitId> {
        stand_at(world, hex)
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

    fn evaluate(&self, world: &World, side: SideId) -> f64 {
        view::evaluate(world, side)
    }

    /// Open water (terrain.ron's `passable: false`: Maldon's channel) no stand enters.
    fn crosses(&self, world: &World, _class: u8, _from: HexCoord, to: HexCoord) -> bool {
        let board = world.resource::<Board>();
        self.tables
            .terrain_type(board.terrain_name(to))
            .is_none_or(|t| t.passable)
    }

    fn player_aids(&self, world: &World) -> crate::engine::view::PlayerAids {
        aids::player_aids(&self.tables, world)
    }

    fn invariant_violations(&self, world: &World) -> Vec<String> {
        view::invariant_violations(world)
    }
}

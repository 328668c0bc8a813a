//! Champs de Bataille ('Kadesh' edition, Vae Victis): the ruleset's components and
//! state, the accessors of a unit's values, flags and facing, its sequence of play
//! (CdB 3) and the dispatch of commands to action points, movement, combat, morale and
//! victory. Where units stand and their zones of control are in `position.rs`.

pub mod ai;
pub mod aids;
pub mod autoplay;
pub mod combat;
pub mod command_points;
pub mod commands;
pub mod data;
pub mod decision;
pub mod deployment;
pub mod deployment_placement;
pub mod dispatch;
pub mod march;
pub mod march_reference;
pub mod missile;
pub mod morale;
pub mod movement;
pub mod position;
pub mod results;
pub mod scenario;
pub mod setup;
pub mod stacking;
pub mod threat;
pub mod view;

use std::path::Path;
use std::sync::Arc;

use bevy::ecs::system::InRef;
use bevy::prelude::*;

use crate::rulesets::common::RulesetTables;
use rand_chacha::ChaCha8Rng;

use crate::engine::board::Board;
use crate::engine::board::MapEdge;
use crate::engine::command::{Command, Refusal, UnitRef};
use crate::engine::decision::Decisions;
use crate::engine::error::LocatedError;
use crate::engine::event::EventKind;
use crate::engine::game::TurnState;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::phase::{
    PhaseKind, PhaseView, RulesetPhase, change_phase, enter_phase, leave_phase, on_enter, on_exit,
};
use crate::engine::ruleset::{CommandSystem, Ruleset};
use crate::engine::scenario::{LoadedScenario, ScenarioRules};
use crate::engine::units::{Facing, Placement, SideId, UnitId};
use crate::engine::view::{AttackPreview, CardLine, CounterFace, Decision, MoveOption, SideMorale};
use crate::engine::zoc::ZoneShape;

use data::{Kind, Profile, Quality, Tables};

pub const ID: &str = "champs_de_bataille";

/// Champs de Bataille with its tables.
pub struct ChampsDeBataillePlugin {
    pub tables: Arc<Tables>,
}

impl ChampsDeBataillePlugin {
    pub fn load(scenario_path: &Path) -> Result<Self, LocatedError> {
        Ok(Self {
            tables: Arc::new(Tables::for_scenario(scenario_path)?),
        })
    }
}

/// A unit's printed values and its corps (CdB 2, 4).
#[derive(Component, Clone, Copy, Debug)]
pub struct CdbUnit {
    pub p: Profile,
    /// Its counter type: an index into the counter table.
    pub counter: u16,
    pub corps: u8,
    /// The general of its corps (CdB 2.1).
    pub general: bool,
}

/// What a unit has done this turn, and its rank in a stack.
#[derive(Component, Clone, Debug, Default)]
pub struct CdbFlags {
    /// 0 = the front rank (the unit that fights), 1 = the rear rank (CdB 8.1).
    pub rank: u8,
    /// Hexes entered this movement phase (CdB 9.5: moved at least one hex).
    pub hexes_moved: u32,
    /// Movement impulses this turn (CdB 9.3).
    pub impulses: u8,
    /// Within four hexes of an enemy at the start of the movement phase (CdB 9.3).
    pub near_at_start: bool,
    /// Came within four hexes of an enemy during an impulse (CdB 9.3).
    pub came_near: bool,
    /// Kept in control this turn (CdB 4.2).
    pub kept: bool,
    /// Moved (or turned) this turn: may not shoot (CdB 10.1).
    pub moved: bool,
    pub shot: bool,
    pub was_shot: bool,
    /// Fought a melee this phase, as attacker or defender (CdB 11.1).
    pub fought: bool,
    pub was_meleed: bool,
    /// Gave support to a melee this phase (CdB 11.3, 9.5).
    pub supported: bool,
    /// Made a spontaneous advance this turn (CdB 8.2).
    pub advanced_spontaneously: bool,
    /// Gave support to a melee since its side's last movement phase: it is not checked
    /// for a spontaneous advance (CdB 9.5).
    pub supported_since_movement: bool,
    /// Checked for a spontaneous advance at the end of this movement phase (CdB 9.5).
    pub advance_checked: bool,
}

/// The death test of a corps whose general fell (CdB 12.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DeathTest {
    #[default]
    None,
    Due,
    Done,
}

/// A corps under its general (CdB 4, 12).
#[derive(Clone, Debug)]
pub struct Corps {
    pub id: String,
    pub name: String,
    pub side: SideId,
    pub general: UnitId,
    /// Commanded by a regular general (CdB 2.2, 4.1).
    pub regular: bool,
    pub allied: bool,
    pub foreign: bool,
    /// `None` until its first AP roll (CdB 4.3); `Some(true)` while unreliable.
    pub unreliable: Option<bool>,
    /// Action points left this turn.
    pub ap: i32,
    /// This turn's die.
    pub die: Option<u8>,
    pub demoralised: bool,
    pub death_test: DeathTest,
    /// Counter equivalents of the corps, in halves, baggage not counted (CdB 12.1).
    pub total_halves: i32,
    /// Holds Psiloi or Hordes: the threshold rounds to halves (CdB 12.2).
    pub has_halves: bool,
}

/// The phases of Champs de Bataille: the set-up (CdB 14.3), then the four steps of each
/// player's sequence (CdB 3), the morale of the player turn (CdB 12) on leaving its melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CdbPhase {
    /// Secret placement before the first turn (CdB 14.3).
    #[default]
    Setup,
    /// 1. The AP dice are thrown; regular generals' dice wait to be assigned.
    Command,
    /// 2. Movement.
    Movement,
    /// 3. Missile combat; `missile_side` shoots.
    Missile,
    /// 4. Melee.
    Melee,
}

/// A combat result waiting for its loser's owner to choose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Which rear hex to recoil into (CdB 11.6); `flee` goes on with a flight (11.8).
    Recoil {
        unit: UnitId,
        options: Vec<HexCoord>,
        flee: bool,
        advance: Option<results::Advance>,
    },
    /// Which of the two rear units is destroyed with the unit in front, or recoils or
    /// flees at an elephant's fall (CdB 11.7).
    RearLoss {
        side: SideId,
        options: Vec<UnitId>,
        effect: RearEffect,
        advance: Option<results::Advance>,
    },
    /// The enemy an out-of-control unit advances on, among equally near ones or those
    /// it may ignore (CdB 9.5, example 5).
    AdvanceTarget { unit: UnitId, options: Vec<UnitId> },
}

/// What befalls the unit chosen behind a destroyed unit (CdB 11.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RearEffect {
    /// Destroyed with the unit in front.
    Destroyed,
    /// Behind a destroyed elephant: recoils if on foot, flees if mounted (11.7, last
    /// paragraph).
    RecoilsOrFlees,
    /// Destroyed, and the other unit behind the elephant recoils or flees: an elephant
    /// that could not recoil between two enemies showing it flank or rear (11.7).
    DestroyedAndOtherRecoilsOrFlees,
}

/// The ruleset's state over the whole game.
#[derive(Resource, Clone, Debug, Default)]
pub struct CdbState {
    pub corps: Vec<Corps>,
    pub cinc: [Option<UnitId>; 2],
    /// The CinC's -1 used this turn (CdB 4.2).
    pub cinc_discount_used: [bool; 2],
    /// The CinC's additional PA left this turn (CdB 4.2).
    pub cinc_extra: [i32; 2],
    pub step: CdbPhase,
    /// The player whose sequence it is (CdB 3: the active player).
    pub sequence: SideId,
    /// The side shooting in the missile step (the active player first, CdB 10).
    pub missile_side: SideId,
    /// Regular generals' dice thrown and not yet assigned (CdB 4.1).
    pub unassigned: Vec<u8>,
    /// The decision the rules wait for (CdB has at most one at a time).
    pub pending: Decisions<Pending>,
    pub edges: [Option<MapEdge>; 2],
    pub ditch: Vec<HexCoord>,
    pub ditch_mp: i32,
    pub ditch_modifier: i32,
    /// (side, supported kinds, against kinds) of the scenario's Psiloi support rules.
    pub psiloi_support: Vec<(SideId, Vec<Kind>, Vec<Kind>)>,
    pub hidden_zones: Vec<(UnitId, crate::engine::scenario::HexZone)>,
    /// Units that may fight mounted or on foot, and whether they may change in play
    /// (CdB 2.7, scenario rules).
    pub dismount: Vec<(UnitId, bool)>,
    /// The sides that have finished their set-up.
    pub setup_done: Vec<SideId>,
    /// The set-up of CdB 14.3 under way, when the scenario has it played.
    pub deploy: Option<deployment::Deployment>,
    /// Optional rule "simple game": no CinC, so no penalty for his death (CdB 4.1).
    pub simple_game: bool,
}

#[derive(Resource, Clone)]
pub struct CdbTables(pub Arc<Tables>);

// ---- accessors ----

use crate::engine::cached::CachedWorld;
// Read by the kept id in the rules' inner loops (`engine::cached`).
crate::cached_id!(CdbRoster, CdbState, CdbTables, CdbFlags);

pub(crate) use super::common::{
    all_units, component, component_mut, entity, hex_of, is_hidden, key, log, name, placement,
    possessive, refresh_zones, roll, set_placement, side_name, side_of, turn, unit_by_key,
    zones_current, zones_stale,
};

/// Every unit's `CdbUnit`, by unit id, kept with the components (set up once, changed
/// only by a dismount): one resource read where the component costs two.
#[derive(Resource, Clone, Debug, Default)]
pub struct CdbRoster(pub Vec<CdbUnit>);

pub(crate) fn unit(world: &World, id: UnitId) -> CdbUnit {
    match crate::engine::cached::get_resource::<CdbRoster>(world) {
        Some(r) if (id.0 as usize) < r.0.len() => r.0[id.0 as usize],
        _ => *component::<CdbUnit>(world, id),
    }
}

pub(crate) fn kind(world: &World, id: UnitId) -> Kind {
    unit(world, id).p.kind
}

pub(crate) fn flags(world: &World, id: UnitId) -> &CdbFlags {
    world
        .get_cached::<CdbFlags>(entity(world, id))
        .expect("CdB units have flags")
}

pub(crate) fn flags_mut(world: &mut World, id: UnitId) -> Mut<'_, CdbFlags> {
    component_mut::<CdbFlags>(world, id)
}

pub(crate) fn facing(world: &World, id: UnitId) -> VertexFacing {
    world
        .get_cached::<Facing>(entity(world, id))
        .map_or(VertexFacing(1), |f| f.0)
}

pub(crate) fn set_facing(world: &mut World, id: UnitId, f: VertexFacing) {
    let e = entity(world, id);
    if world.get_cached::<Facing>(e).map(|x| x.0) != Some(f) {
        world.entity_mut(e).insert(Facing(f));
        zones_stale(world);
    }
}

pub(crate) fn state(world: &World) -> &CdbState {
    world.res::<CdbState>()
}

pub(crate) fn tables(world: &World) -> Arc<Tables> {
    world.res::<CdbTables>().0.clone()
}

pub(crate) fn corps_of(world: &World, id: UnitId) -> &Corps {
    &state(world).corps[unit(world, id).corps as usize]
}

pub(crate) use position::{
    EnemyLookup, PositionScan, enemies_in_front, enemy_at, enemy_hexes, exerts_zoc, fortified,
    front_at, frontal_contact, in_enemy_zoc, nearest_enemy_distance, nearest_in, refresh_zoc,
    rough, stack_at, stack_of, terrain_class, zoc_exerted_on,
};
use position::{PositionQuery, frontal_zone};

/// Removes a unit from the game (CdB 11.7, 11.8, 12.1).
pub(crate) fn eliminate(world: &mut World, id: UnitId, rule: &'static str, why: &str) {
    let why = why.to_string();
    log(world, EventKind::Eliminated, rule, |w| {
        format!("{} is eliminated: {why}", name(w, id))
    });
    let from = hex_of(world, id);
    set_placement(world, id, Placement::Eliminated);
    // What was the rear rank now fights (CdB 8.1).
    if let Some(h) = from
        && let [left] = stack_at(world, h)[..]
    {
        flags_mut(world, left).rank = 0;
    }
    if unit(world, id).general {
        let c = unit(world, id).corps as usize;
        let mut st = world.resource_mut::<CdbState>();
        if st.corps[c].death_test == DeathTest::None {
            st.corps[c].death_test = DeathTest::Due;
        }
    }
    zones_stale(world);
}

/// Resolves a command's unit reference: a hex names its front rank.
pub fn resolve(world: &World, unit_ref: &UnitRef) -> Result<UnitId, Refusal> {
    match unit_ref {
        UnitRef::Hex(h) => {
            if !world.res::<Board>().contains(*h) {
                return Err(Refusal::new("CdB 1.1", format!("{h} is off the map")));
            }
            front_at(world, *h)
                .ok_or_else(|| Refusal::new("CdB 2", format!("there is no unit in {h}")))
        }
        UnitRef::Key(k) => unit_by_key(world, k)
            .ok_or_else(|| Refusal::new("CdB 2", format!("there is no unit with id `{k}`"))),
    }
}

/// The effective quality of a unit against an opponent (CdB 2.4: Kn(X) rate as Kn(S)
/// against fire and LH, Sp, pikes and archers; Kn(I) against Wb, Kn, Bd; else Kn(O)).
pub(crate) fn quality_against(p: &Profile, opponent: Kind, missile: bool) -> Quality {
    if p.kind == Kind::Kn && p.quality == Quality::X {
        if missile || matches!(opponent, Kind::LH | Kind::Sp | Kind::Pk | Kind::Bw) {
            Quality::S
        } else if matches!(opponent, Kind::Wb | Kind::Kn | Kind::Bd) {
            Quality::I
        } else {
            Quality::O
        }
    } else {
        p.quality
    }
}

// ---- the sequence of play (CdB 3) ----

impl RulesetPhase for CdbPhase {
    const ALL: &'static [Self] = &[
        CdbPhase::Setup,
        CdbPhase::Command,
        CdbPhase::Movement,
        CdbPhase::Missile,
        CdbPhase::Melee,
    ];

    fn view(self) -> PhaseView {
        let (label, rule, kind) = match self {
            CdbPhase::Setup => ("set-up", "CdB 14.3", PhaseKind::Place),
            CdbPhase::Command => ("action points", "CdB 4.1", PhaseKind::Decide),
            CdbPhase::Movement => ("movement", "CdB 9", PhaseKind::Move),
            CdbPhase::Missile => ("missile combat", "CdB 10", PhaseKind::Fire),
            CdbPhase::Melee => ("melee", "CdB 11", PhaseKind::Fight),
        };
        PhaseView { label, rule, kind }
    }

    fn current(world: &World) -> Option<Self> {
        world.get_resource::<CdbState>().map(|s| s.step)
    }

    fn set_current(world: &mut World, phase: Self) {
        world.resource_mut::<CdbState>().step = phase;
    }
}

/// The systems of each phase (CdB 3), chained in the order the rules give.
fn add_phase_systems(world: &mut World) {
    on_enter(
        world,
        CdbPhase::Command,
        (
            clear_sequence_flags,
            announce_sequence,
            command_points::roll_action_points_of_sequence,
        )
            .chain(),
    );
    on_enter(world, CdbPhase::Movement, announce_movement);
    on_enter(world, CdbPhase::Missile, announce_missile);
    on_enter(
        world,
        CdbPhase::Melee,
        (announce_melee, combat::reface_before_melee).chain(),
    );
    on_exit(
        world,
        CdbPhase::Melee,
        morale::end_of_player_turn_of_sequence,
    );
}

/// Gives the phase to `side` and enters it.
pub(crate) fn begin_phase(world: &mut World, phase: CdbPhase, side: SideId) {
    world.resource_mut::<TurnState>().active = side;
    change_phase(world, phase);
}

/// Starts a player's sequence: flags cleared, then the AP dice (CdB 3.1, 4.1).
pub(crate) fn begin_sequence(world: &mut World, side: SideId) {
    leave_phase::<CdbPhase>(world);
    enter_sequence(world, side);
}

/// Enters the action-point step of `side`'s sequence, the last phase already left.
fn enter_sequence(world: &mut World, side: SideId) {
    world.resource_mut::<CdbState>().sequence = side;
    world.resource_mut::<TurnState>().active = side;
    enter_phase(world, CdbPhase::Command);
}

/// A new turn starts with the first player's sequence: "this turn" flags of both sides
/// clear then (CdB 10.1); each sequence clears its own player's movement.
fn clear_sequence_flags(world: &mut World) {
    let side = sequence_side(world);
    let new_turn = side == turn(world).first;
    // The enemies of each side, found once: only flags change in this loop.
    let enemies = [enemy_hexes(world, SideId(0)), enemy_hexes(world, SideId(1))];
    for id in all_units(world) {
        let own = side_of(world, id) == side;
        let near = hex_of(world, id).is_some_and(|h| {
            let s = side_of(world, id);
            enemies
                .get(s.0 as usize)
                .map_or_else(|| nearest_enemy_distance(world, s, h), |l| nearest_in(l, h))
                <= 4
        });
        let mut f = flags_mut(world, id);
        f.hexes_moved = 0;
        f.impulses = 0;
        f.kept = false;
        if own || new_turn {
            f.moved = false;
        }
        f.shot = false;
        if new_turn {
            f.was_shot = false;
        }
        f.fought = false;
        f.was_meleed = false;
        f.supported = false;
        f.advanced_spontaneously = false;
        f.advance_checked = false;
        f.near_at_start = near;
        f.came_near = false;
    }
    let mut st = world.resource_mut::<CdbState>();
    st.cinc_discount_used[side.0 as usize] = false;
    st.cinc_extra[side.0 as usize] = 0;
    st.unassigned.clear();
    for c in st.corps.iter_mut() {
        c.ap = 0;
        c.die = None;
    }
}

fn announce_sequence(world: &mut World) {
    let turn_no = turn(world).turn;
    let who = side_name(world, sequence_side(world));
    log(world, EventKind::PhaseStarted, "CdB 3", |_| {
        format!(
            "Turn {turn_no}: {} sequence: action points",
            possessive(&who)
        )
    });
}

pub(crate) fn begin_movement(world: &mut World) {
    let side = turn(world).active;
    begin_phase(world, CdbPhase::Movement, side);
}

fn announce_movement(world: &mut World) {
    let side = turn(world).active;
    log(world, EventKind::PhaseStarted, "CdB 3", |w| {
        format!("{} moves", side_name(w, side))
    });
}

fn begin_missile(world: &mut World, side: SideId) {
    world.resource_mut::<CdbState>().missile_side = side;
    begin_phase(world, CdbPhase::Missile, side);
}

fn announce_missile(world: &mut World) {
    let side = state(world).missile_side;
    log(world, EventKind::PhaseStarted, "CdB 10", |w| {
        format!("Missile combat: {} shoots", side_name(w, side))
    });
}

fn announce_melee(world: &mut World) {
    let side = turn(world).active;
    log(world, EventKind::PhaseStarted, "CdB 11", |w| {
        format!("Melee: {} resolves the melees", side_name(w, side))
    });
}

/// The player whose sequence it is (the acting side differs in the missile step).
pub(crate) fn sequence_side(world: &World) -> SideId {
    state(world).sequence
}

/// Ends the current step and starts the next (CdB 3).
fn end_step(world: &mut World) {
    // The few fields read below, copied: a clone of the whole state (the corps' names,
    // the set-up's plans) cost more than the rest of a step change.
    let (active, first, turn_no, last_turn) = {
        let t = turn(world);
        (t.active, t.first, t.turn, t.last_turn)
    };
    let (step, deploying, missile_side, sequence) = {
        let st = state(world);
        (st.step, st.deploy.is_some(), st.missile_side, st.sequence)
    };
    match step {
        CdbPhase::Setup if deploying => deployment::end_stage(world),
        CdbPhase::Setup => {
            world.resource_mut::<CdbState>().setup_done.push(active);
            let next = setup::next_setup_side(world);
            match next {
                Some(side) => begin_phase(world, CdbPhase::Setup, side),
                None => {
                    log(world, EventKind::TurnStarted, "CdB 3", |_| {
                        "Turn 1".to_string()
                    });
                    begin_sequence(world, first);
                }
            }
        }
        CdbPhase::Command => begin_movement(world),
        CdbPhase::Movement => finish_movement(world),
        CdbPhase::Missile => {
            // The active player shoots first, then the other player (CdB 10).
            if missile_side == sequence {
                begin_missile(world, sequence.other());
            } else {
                begin_phase(world, CdbPhase::Melee, sequence);
            }
        }
        CdbPhase::Melee => {
            // Morale at the end of the player turn (CdB 12) runs on leaving the melee.
            leave_phase::<CdbPhase>(world);
            if turn(world).outcome.is_some() {
                return;
            }
            let side = sequence;
            if side == first {
                enter_sequence(world, side.other());
            } else {
                if turn_no >= last_turn {
                    morale::time_limit(world);
                    return;
                }
                let next = turn_no + 1;
                world.resource_mut::<TurnState>().turn = next;
                log(world, EventKind::TurnStarted, "CdB 3", |_| {
                    format!("Turn {next}")
                });
                enter_sequence(world, first);
            }
        }
    }
}

/// The end of the movement step: spontaneous advances and flights, then missile
/// combat once no advance waits for its player's choice of target (CdB 3, 9.5).
pub(crate) fn finish_movement(world: &mut World) {
    let side = state(world).sequence;
    if morale::end_of_movement(world, side) && turn(world).outcome.is_none() {
        begin_missile(world, side);
    }
}

/// The refusal of `end` while the rules still wait for something.
pub(crate) fn check_end(world: &World) -> Result<(), Refusal> {
    let st = state(world);
    match st.step {
        CdbPhase::Command if !st.unassigned.is_empty() => Err(Refusal::new(
            "CdB 4.1",
            format!(
                "assign the regular generals' dice {:?} to their corps first (`assign CORPS DIE ...`)",
                st.unassigned
            ),
        )),
        CdbPhase::Setup if state(world).deploy.is_some() => deployment::check_end(world),
        CdbPhase::Setup => setup::check_end_setup(world),
        CdbPhase::Melee => combat::check_melee_obligations(world),
        _ => Ok(()),
    }
}

/// The command system of Champs de Bataille (registered with the world): checks a command
/// against the rules and, when legal, executes it. A refused command changes nothing,
/// not even the dice.
fn submit_command(InRef(command): InRef<Command>, world: &mut World) -> Result<(), Refusal> {
    let plan = dispatch::check(world, command)?;
    dispatch::execute(world, plan);
    morale::check_victory(world);
    refresh_zoc(world);
    Ok(())
}

impl Plugin for ChampsDeBataillePlugin {
    fn build(&self, app: &mut App) {
        Ruleset::register(self, app.world_mut());
    }
}

impl Ruleset for ChampsDeBataillePlugin {
    fn id(&self) -> &'static str {
        ID
    }

    fn name(&self) -> &'static str {
        "Champs de Bataille"
    }

    fn sight(
        &self,
        world: &World,
        from: HexCoord,
        to: HexCoord,
    ) -> Option<crate::engine::hex::SightLine> {
        // The bowmen's line of fire (CdB 10.2).
        Some(missile::line_of_fire(world, from, to))
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

    fn verbs(&self) -> &'static [crate::engine::command::VerbSpec] {
        commands::VERBS
    }

    fn read_scenario(&self, scenario: &LoadedScenario) -> Result<ScenarioRules, LocatedError> {
        let rules = scenario::read_scenario(&self.tables, scenario)?;
        Ok(ScenarioRules(Arc::new(rules)))
    }

    fn side_summary(&self, scenario: &LoadedScenario, side: usize) -> String {
        let own = &scenario.rules::<scenario::CdbScenario>().sides[side];
        let corps: Vec<&str> = own.corps.iter().map(|c| c.name.as_str()).collect();
        let mut words = Vec::new();
        if let Some(edge) = own.edge {
            words.push(format!("map edge {} (CdB 11.8)", edge.name()));
        }
        if let Some(a) = own.aggression {
            words.push(format!("aggression {a} (CdB 14.3)"));
        }
        words.push(format!(
            "{} corps: {} (CdB 4)",
            corps.len(),
            corps.join(", ")
        ));
        words.join(", ")
    }

    fn register(&self, world: &mut World) {
        if world.contains_resource::<CdbTables>() {
            return;
        }
        world.insert_resource(CdbTables(self.tables.clone()));
        crate::engine::snapshot::keep(world)
            .component::<CdbUnit>()
            .component::<CdbFlags>()
            .resource::<CdbState>()
            .resource::<CdbRoster>()
            .then(super::common::zones_after_copy);
        world.insert_resource(ZoneShape(frontal_zone));
        add_phase_systems(world);
        let submit = world.register_system(submit_command);
        world.insert_resource(CommandSystem(submit));
    }

    fn populate(&self, world: &mut World, scenario: &LoadedScenario) {
        let scan = world.query::<PositionQuery>();
        world.insert_resource(PositionScan(std::sync::Mutex::new(scan)));
        let memo = position::SightMemo::for_board(world.resource::<Board>());
        world.insert_resource(memo);
        setup::populate(world, scenario, &self.tables);
        let roster: Option<Vec<CdbUnit>> = all_units(world)
            .into_iter()
            .map(|id| world.get::<CdbUnit>(entity(world, id)).copied())
            .collect();
        if let Some(roster) = roster {
            world.insert_resource(CdbRoster(roster));
        }
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

    fn group_move_options(
        &self,
        world: &World,
        units: &[UnitId],
    ) -> Result<Vec<MoveOption>, Refusal> {
        view::group_move_options(world, units)
    }

    fn unit_actions(&self, world: &World, entity: Entity) -> Vec<crate::engine::view::Choice> {
        view::unit_actions(world, entity)
    }

    fn marked_hexes(&self, world: &World) -> Vec<crate::engine::view::MarkedHex> {
        let st = state(world);
        st.ditch
            .iter()
            .map(|h| crate::engine::view::MarkedHex {
                hex: *h,
                text: format!(
                    "ditch: {} MP to enter, -{} to combat dice (scenario rule)",
                    st.ditch_mp, st.ditch_modifier
                ),
                side: None,
            })
            .collect()
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

    fn morale(&self, world: &World) -> Vec<SideMorale> {
        view::morale(world)
    }

    fn evaluate(&self, world: &World, side: SideId) -> f64 {
        ai::evaluate(world, side)
    }

    fn cohesion_weight(&self, world: &World, side: SideId) -> f64 {
        ai::cohesion_weight(world, side)
    }

    fn groups(&self, world: &World, side: SideId) -> Vec<Vec<UnitId>> {
        ai::groups(world, side)
    }

    fn striking_moves(&self, world: &World, side: SideId, limit: usize) -> Vec<Command> {
        ai::flanking_marches(world, side, limit)
    }

    /// Ground of the impassable class (CdB 1.2, terrain.ron) no unit enters.
    fn crosses(&self, world: &World, _class: u8, _from: HexCoord, to: HexCoord) -> bool {
        position::terrain_class(world, to) != data::TerrainClass::Impassable
    }

    fn player_aids(&self, world: &World) -> crate::engine::view::PlayerAids {
        aids::player_aids(&self.tables, world)
    }

    fn invariant_violations(&self, world: &World) -> Vec<String> {
        view::invariant_violations(world)
    }

    fn resample_hidden(
        &self,
        world: &mut World,
        observer: SideId,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) {
        ai::resample_hidden(world, observer, rng)
    }

    fn attacks_once_per_phase(&self) -> bool {
        // Checked by the ruleset itself: a unit shoots once and fights one melee (CdB
        // 10.1, 11.1) but gives any number of supports, which the generic count of the
        // trust harness cannot tell from attacks.
        false
    }
}

//! Command (spec B.2 §5-§7; C&M 7.1, 7.3, 7.9, 7.11, 7.15): each leader's Command
//! Points a turn (`CmLeader::cps`), spent on a unit (`spend LEADER UNIT N`: added to its
//! control test and to the DPs it sheds at rest) or to inspire (`inspire LEADER`, the
//! charge chart's 3 CPs: his CPs added to evade tests within 1 JT and to the charge
//! total of the unit whose front rank he is in; C grade may charge formed enemy
//! frontally); the Command phase after the initiative, which waits for a side only when
//! some of its units must take a control test (outside every leader's command radius),
//! and the tests rolled when it ends; and what the tests compel: a halt, or an advance
//! on the nearest enemy and a charge declared by the game (7.9's "repeat last move",
//! 7.3's "unauthorised advance").

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::command::{Command, Refusal, UnitRef};
use crate::engine::event::EventKind;
use crate::engine::units::UnitId;

use super::charge::FrontRankLeader;
use super::commands::CmCommand;
use super::*;

/// What a control test ordered a unit to do this turn (spec B.2 §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// 4 or more: it obeys.
    Obeys,
    /// 2-3, or the worst result of a unit neither charging nor impetuous: it may not
    /// move or charge this turn.
    Halts,
    /// The worst result of a unit that charged or pursued (7.9): it advances on and
    /// charges the nearest enemy.
    RepeatsLastMove,
    /// The worst result of impetuous troops (7.3): the same, unauthorised.
    UnauthorisedAdvance,
}

impl Control {
    /// Whether the unit must advance on and charge the nearest enemy.
    pub fn compels(self) -> bool {
        matches!(
            self,
            Control::RepeatsLastMove | Control::UnauthorisedAdvance
        )
    }

    fn words(self) -> &'static str {
        match self {
            Control::Obeys => "obeys",
            Control::Halts => "halts: it may not move or charge this turn",
            Control::RepeatsLastMove => {
                "repeats its last move: it must advance on and charge the nearest enemy"
            }
            Control::UnauthorisedAdvance => {
                "advances unauthorised: it must advance on and charge the nearest enemy"
            }
        }
    }
}

/// The result of a control test's score (spec B.2 §6): `charging` is a unit that charged
/// or pursued last turn (7.9), `impetuous` one of `command.impetuous`'s types.
pub fn control_result(
    chart: &data::CommandChart,
    score: i32,
    charging: bool,
    impetuous: bool,
) -> Control {
    if score >= chart.obey_from {
        Control::Obeys
    } else if score >= chart.halt_from {
        Control::Halts
    } else if charging {
        Control::RepeatsLastMove
    } else if impetuous {
        Control::UnauthorisedAdvance
    } else {
        Control::Halts
    }
}

/// The command of one turn, and what lasts into the next (7.9's chargers that fell
/// short, 3.33's avengers).
#[derive(Resource, Clone, Debug, Default)]
pub struct CmCommandState {
    /// The turn the per-turn fields below belong to.
    pub turn: u32,
    /// CPs each leader spent this turn.
    pub spent: Vec<(UnitId, u8)>,
    /// CPs spent on each unit this turn (spec B.2 §5, §6).
    pub on_unit: Vec<(UnitId, u8)>,
    /// Who spent them: (leader, unit), for 7.1's battle lines.
    pub controlled: Vec<(UnitId, UnitId)>,
    /// The battle lines charging as one body in this Charge Phase (7.1, `battleline`).
    pub bodies: Vec<Vec<UnitId>>,
    /// Leaders inspiring this turn (7.11, 7.15).
    pub inspiring: Vec<UnitId>,
    /// This turn's control tests (spec B.2 §6).
    pub control: Vec<(UnitId, Control)>,
    /// Chargers that fell short of contact, with the turn (7.9).
    pub fell_short: Vec<(UnitId, u32)>,
    /// Comitati avenging their leader in their next mêlée (3.33, 7.34).
    pub avenging: Vec<UnitId>,
    /// Pairs of leaders seeking each other out in this mêlée phase (7.33), and the
    /// answers of those who may choose.
    pub duels: Vec<(UnitId, UnitId)>,
    pub seek: Vec<(UnitId, bool)>,
}

fn cmd(world: &World) -> &CmCommandState {
    world.resource::<CmCommandState>()
}

/// This turn's allocations, or `None` when none was made yet this turn.
fn this_turn(world: &World) -> Option<&CmCommandState> {
    let c = cmd(world);
    (c.turn == turn(world).turn).then_some(c)
}

/// Starts a new turn's allocations and tests, if the turn changed.
fn fresh(world: &mut World) {
    let now = turn(world).turn;
    let mut c = world.resource_mut::<CmCommandState>();
    if c.turn != now {
        c.turn = now;
        c.spent.clear();
        c.on_unit.clear();
        c.controlled.clear();
        c.bodies.clear();
        c.inspiring.clear();
        c.control.clear();
    }
}

pub(crate) fn chart(world: &World) -> data::CommandChart {
    tables(world).charts.command.clone()
}

/// The gap in JT from a leader's command stand to the nearest stand of a unit.
pub(crate) fn leader_gap(world: &World, leader: UnitId, unit: UnitId) -> u32 {
    gap_from(placement(world, leader).hex(), stands(world, unit))
}

/// `leader_gap` from a leader's hex (none: off the map) to a unit's stands.
fn gap_from(at: Option<HexCoord>, list: &[HexCoord]) -> u32 {
    let Some(at) = at else {
        return u32::MAX;
    };
    list.iter()
        .map(|s| moves::gap(at, *s))
        .min()
        .unwrap_or(u32::MAX)
}

/// The leader a unit answers to: the nearest leader of its side (ties to the first in
/// id order; designer's, the scenario naming none).
pub fn commander_of(world: &World, unit: UnitId) -> Option<UnitId> {
    let units = world.res::<crate::engine::units::Units>();
    let side = units.side(unit);
    let list = stands(world, unit);
    leaders(world)
        .into_iter()
        .filter(|l| units.side(*l) == side)
        .min_by_key(|l| (gap_from(units.placement(*l).hex(), list), *l))
}

/// Whether a unit is within its leader's command radius (spec B.2 §7).
pub fn in_command(world: &World, unit: UnitId) -> bool {
    commander_of(world, unit).is_some_and(|l| {
        leader_gap(world, l, unit)
            <= u32::from(world.resource::<CmTables>().0.charts.command.radius)
    })
}

/// Whether a unit must take a control test this turn: outside command, not routing
/// (routers test to halt in the rally, 7.16).
pub fn must_test(world: &World, unit: UnitId) -> bool {
    is_troop(world, unit)
        && posture(world, unit) != Some(Posture::Routing)
        && !in_command(world, unit)
}

/// CPs a leader has left this turn.
pub fn cps_left(world: &World, leader: UnitId) -> u8 {
    let have = component::<CmLeader>(world, leader).cps;
    let spent = this_turn(world)
        .into_iter()
        .flat_map(|c| c.spent.iter())
        .find(|(l, _)| *l == leader)
        .map_or(0, |(_, n)| *n);
    have.saturating_sub(spent)
}

/// CPs spent on a unit this turn.
pub fn cps_on(world: &World, unit: UnitId) -> u8 {
    this_turn(world)
        .into_iter()
        .flat_map(|c| c.on_unit.iter())
        .filter(|(u, _)| *u == unit)
        .map(|(_, n)| *n)
        .sum()
}

/// Whether `leader` spent CPs on `unit` this turn to control it (7.1).
pub fn controlled_by(world: &World, unit: UnitId, leader: UnitId) -> bool {
    this_turn(world).is_some_and(|c| c.controlled.contains(&(leader, unit)))
}

/// Whether a leader inspires this turn (7.11, 7.15).
pub fn inspiring(world: &World, leader: UnitId) -> bool {
    this_turn(world).is_some_and(|c| c.inspiring.contains(&leader))
        && placement(world, leader).hex().is_some()
}

/// The CPs of the best inspiring leader of a unit's side within `inspire_within` JT of
/// it, 0 if none (7.11's evade test).
pub fn inspiring_cps_near(world: &World, unit: UnitId) -> u8 {
    let side = side_of(world, unit);
    let within = u32::from(world.resource::<CmTables>().0.charts.command.inspire_within);
    leaders(world)
        .into_iter()
        .filter(|l| side_of(world, *l) == side && inspiring(world, *l))
        .filter(|l| leader_gap(world, *l, unit) <= within)
        .map(|l| component::<CmLeader>(world, l).cps)
        .max()
        .unwrap_or(0)
}

/// Whether a unit is inspired by a leader (7.3: his unit, or within 1 JT of him, as the
/// text's battle line of C grade units beside an inspiring leader's comitatus).
pub fn inspired(world: &World, unit: UnitId) -> bool {
    let side = side_of(world, unit);
    let within = u32::from(world.resource::<CmTables>().0.charts.command.inspire_within);
    leaders(world).into_iter().any(|l| {
        side_of(world, l) == side && inspiring(world, l) && leader_gap(world, l, unit) <= within
    })
}

/// The leader in a unit's front rank, with what he allocated to inspire (7.15).
pub fn front_rank_leader(world: &World, unit: UnitId) -> Option<FrontRankLeader> {
    // The unit index read once for the five reads (the charge combat asks it of each
    // of its units).
    let units = world.res::<Units>();
    let l = component_of::<CmUnit>(world, units, unit).leader?;
    let at = units.placement(l).hex()?;
    let f = *component_of::<CmFormation>(world, units, unit);
    let own = &component_of::<CmStands>(world, units, unit).0;
    if f.formed() && own.contains(&f.facing.front(at)) {
        return None;
    }
    Some(FrontRankLeader {
        cps: component_of::<CmLeader>(world, units, l).cps,
        allocated_to_inspire: if inspiring(world, l) {
            world.resource::<CmTables>().0.charts.charge.inspire_cps
        } else {
            0
        },
    })
}

/// This turn's control test result of a unit, if it took one.
pub fn control(world: &World, unit: UnitId) -> Option<Control> {
    this_turn(world)?
        .control
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, r)| *r)
}

/// Whether a control test compels the unit to advance on and charge (7.3, 7.9).
pub fn compelled(world: &World, unit: UnitId) -> bool {
    control(world, unit).is_some_and(Control::compels)
}

/// Whether a control test halted the unit this turn.
pub fn halted(world: &World, unit: UnitId) -> bool {
    control(world, unit) == Some(Control::Halts)
}

/// Whether a unit counts as "charging or pursuing" at its control test (7.9): it charged
/// and fell short, or pursued, last turn.
pub fn charging_or_pursuing(world: &World, unit: UnitId) -> bool {
    let now = turn(world).turn;
    let s = status(world, unit);
    let pursued = s.posture == Some(Posture::Pursuing) && s.since + 1 == now;
    pursued
        || cmd(world)
            .fell_short
            .iter()
            .any(|(u, t)| *u == unit && t + 1 == now)
}

/// A charger fell short of contact (7.9).
pub fn record_fell_short(world: &mut World, unit: UnitId) {
    let now = turn(world).turn;
    let mut c = world.resource_mut::<CmCommandState>();
    c.fell_short.retain(|(_, t)| *t + 1 >= now);
    c.fell_short.push((unit, now));
}

// ---- the Command phase ----

/// The units of `side` that must test this turn, in id order.
fn to_test(world: &World, side: crate::engine::units::SideId) -> Vec<UnitId> {
    troops(world)
        .into_iter()
        .filter(|u| side_of(world, *u) == side && must_test(world, *u))
        .collect()
}

/// Entering a side's Command phase (spec B.2 §13): a new turn's allocations start empty.
pub fn enter(world: &mut World) {
    fresh(world);
    let side = turn(world).active;
    let n = to_test(world, side).len();
    if n > 0 {
        log(world, EventKind::PhaseStarted, "spec B.2 §6", |w| {
            format!(
                "{} allocates its Command Points: {n} unit{} outside command test{} when it ends",
                side_name(w, side),
                if n == 1 { "" } else { "s" },
                if n == 1 { "s" } else { "" }
            )
        });
    }
}

/// Whether the active side's Command phase waits for its player: some of its units
/// must test, and CPs may still be spent on them.
pub fn waits(world: &World) -> bool {
    !to_test(world, turn(world).active).is_empty()
}

/// Ends the active side's Command phase: its control tests (spec B.2 §6), then the
/// other side's Command phase or the Move Phase.
pub fn end_side(world: &mut World) {
    let side = turn(world).active;
    for u in to_test(world, side) {
        test(world, u);
    }
    let first = state(world).initiative;
    if side == first {
        begin_phase(world, CmPhase::Command, first.other());
    } else {
        begin_phase(world, CmPhase::Movement, first);
    }
}

/// A unit's control test (spec B.2 §6): the grade's die + MV − DPs (shaken 5) + CPs
/// spent on it.
fn test(world: &mut World, u: UnitId) {
    let unit = *component::<CmUnit>(world, u);
    let die = roll_grade(world, unit.grade, "spec B.2 §6", |w| {
        format!("{}'s control test", plain_name(w, u))
    });
    let m = morale(world, u);
    let dps = if m.shaken {
        tables(world).charts.evade.shaken_dps
    } else {
        m.dps
    };
    let cps = cps_on(world, u);
    let score = i32::from(die) + i32::from(unit.mv) - i32::from(dps) + i32::from(cps);
    let k = chart(world);
    let impetuous = k.impetuous.contains(&troop(world, u).id);
    let charging = charging_or_pursuing(world, u);
    let r = control_result(&k, score, charging, impetuous);
    world.resource_mut::<CmCommandState>().control.push((u, r));
    let rule = match r {
        Control::RepeatsLastMove => "C&M 7.9",
        Control::UnauthorisedAdvance => "C&M 7.3",
        _ => "spec B.2 §6",
    };
    log(world, EventKind::MoraleCheck, rule, |w| {
        format!(
            "{} is outside command: control test {score} ({die} {:+} MV − {dps} DP + {cps} CP): it {}",
            name(w, u),
            unit.mv,
            r.words()
        )
    });
}

// ---- spending ----

/// A leader of the side to act, named by a command.
fn own_leader(world: &World, leader: &UnitRef) -> Result<UnitId, Refusal> {
    let l = resolve_leader(world, leader)?;
    let side = side_of(world, l);
    if side != turn(world).active {
        return Err(Refusal::new(
            "spec B.2 §7",
            format!(
                "{} is {}'s: it is {}'s turn to allocate",
                plain_name(world, l),
                side_name(world, side),
                side_name(world, turn(world).active)
            ),
        ));
    }
    if !matches!(phase(world), CmPhase::Command | CmPhase::Movement) {
        return Err(Refusal::new(
            "spec B.2 §13",
            format!(
                "Command Points are allocated in the Command phase or the Move Phase, not in the {}",
                phase(world).view().label
            ),
        ));
    }
    Ok(l)
}

/// A leader named by a command: a leader alive on the map.
pub(crate) fn resolve_leader(world: &World, leader: &UnitRef) -> Result<UnitId, Refusal> {
    let l = match leader {
        UnitRef::Key(k) => unit_by_key(world, k),
        UnitRef::Hex(h) => leaders(world)
            .into_iter()
            .find(|l| placement(world, *l).hex() == Some(*h)),
    };
    l.filter(|l| leaders(world).contains(l))
        .ok_or_else(|| Refusal::new("spec B.2 §7", format!("{leader} is no leader on the map")))
}

fn afford(world: &World, l: UnitId, n: u8) -> Result<(), Refusal> {
    let left = cps_left(world, l);
    if n > left {
        return Err(Refusal::new(
            "spec B.2 §7",
            format!(
                "{} has {left} CP{} left this turn, not {n}",
                plain_name(world, l),
                if left == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(())
}

/// Checks `spend LEADER UNIT N`.
pub fn check_spend(
    world: &World,
    leader: &UnitRef,
    unit: &UnitRef,
    n: u8,
) -> Result<(UnitId, UnitId, u8), Refusal> {
    let l = own_leader(world, leader)?;
    let u = resolve(world, unit)?;
    if !is_troop(world, u) {
        return Err(Refusal::new(
            "spec B.2 §7",
            format!("{} is no unit of stands", plain_name(world, u)),
        ));
    }
    if side_of(world, u) != side_of(world, l) {
        return Err(Refusal::new(
            "spec B.2 §7",
            format!("{} is the enemy's", plain_name(world, u)),
        ));
    }
    if n == 0 {
        return Err(Refusal::new("spec B.2 §7", "spend at least 1 CP"));
    }
    afford(world, l, n)?;
    Ok((l, u, n))
}

pub fn execute_spend(world: &mut World, l: UnitId, u: UnitId, n: u8) {
    fresh(world);
    add_spent(world, l, n);
    let mut c = world.resource_mut::<CmCommandState>();
    c.on_unit.push((u, n));
    c.controlled.push((l, u));
    log(world, EventKind::CombatDeclared, "spec B.2 §7", |w| {
        format!("{} spends {n} CP on {}", name(w, l), plain_name(w, u))
    });
}

fn add_spent(world: &mut World, l: UnitId, n: u8) {
    let mut c = world.resource_mut::<CmCommandState>();
    match c.spent.iter_mut().find(|(x, _)| *x == l) {
        Some((_, s)) => *s += n,
        None => c.spent.push((l, n)),
    }
}

/// Checks `inspire LEADER` (7.15: 3 CPs).
pub fn check_inspire(world: &World, leader: &UnitRef) -> Result<UnitId, Refusal> {
    let l = own_leader(world, leader)?;
    if inspiring(world, l) {
        return Err(Refusal::new(
            "C&M 7.15",
            format!("{} inspires already this turn", plain_name(world, l)),
        ));
    }
    afford(world, l, tables(world).charts.charge.inspire_cps)?;
    Ok(l)
}

pub fn execute_inspire(world: &mut World, l: UnitId) {
    let n = tables(world).charts.charge.inspire_cps;
    fresh(world);
    add_spent(world, l, n);
    world.resource_mut::<CmCommandState>().inspiring.push(l);
    log(world, EventKind::CombatDeclared, "C&M 7.15", |w| {
        format!("{} spends {n} CPs to inspire", name(w, l))
    });
}

/// Refuses moving, re-forming or charging with a unit a control test compels or halts.
pub fn check_controlled(world: &World, command: &Command) -> Result<(), Refusal> {
    let (unit, charging) = match command {
        Command::Move { unit, .. } => (unit, false),
        Command::Ruleset(_) => match CmCommand::of(command) {
            Some(CmCommand::Form { unit, .. }) => (unit, false),
            Some(CmCommand::Charge { unit, .. }) => (unit, true),
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    let Ok(id) = resolve(world, unit) else {
        return Ok(());
    };
    let form = matches!(CmCommand::of(command), Some(CmCommand::Form { .. }));
    controlled(world, id, charging, form)
}

/// `check_controlled` of a unit found: whether its control test lets it move
/// (`charging`: charge; `form`: re-form) this turn.
pub fn controlled(world: &World, id: UnitId, charging: bool, form: bool) -> Result<(), Refusal> {
    // `halted` and `compelled`, the test read once.
    let test = control(world, id);
    if test == Some(Control::Halts) && !form {
        return Err(Refusal::new(
            "spec B.2 §6",
            format!(
                "{} failed its control test and halts: it may not {} this turn",
                plain_name(world, id),
                if charging { "charge" } else { "move" }
            ),
        ));
    }
    if test.is_some_and(Control::compels) {
        return Err(Refusal::new(
            "C&M 7.9",
            format!(
                "{} must advance on and charge the nearest enemy (its control test): the game moves it",
                plain_name(world, id)
            ),
        ));
    }
    Ok(())
}

// ---- compelled advances and charges (7.3, 7.9) ----

/// The nearest enemy unit (by gap, ties to the first in id order).
pub fn nearest_enemy(world: &World, unit: UnitId) -> Option<UnitId> {
    let side = side_of(world, unit);
    troops(world)
        .into_iter()
        .filter(|o| side_of(world, *o) != side)
        .min_by_key(|o| (gap_between(world, unit, *o), *o))
}

/// Entering a side's Move Phase: its compelled units advance on the nearest enemy as
/// far as their move allows, until it is within their charge reach (7.4, 7.9); they may
/// not otherwise move.
pub fn compelled_advance(world: &mut World) {
    let side = turn(world).active;
    for u in troops(world) {
        if side_of(world, u) != side || !compelled(world, u) {
            continue;
        }
        let Some(target) = nearest_enemy(world, u) else {
            continue;
        };
        let key = super::super::common::key(world, u);
        let mut path: Vec<HexCoord> = Vec::new();
        let mut at = stands(world, u).to_vec();
        let mut best = None;
        while !within_reach_of(world, u, &at, target) {
            let now = dist(world, &at, target);
            let step = (0..6usize)
                .filter_map(|dir| {
                    let mut p = path.clone();
                    p.push(at[0].neighbor(dir));
                    let plan = movement::check_move(world, &key, &p).ok()?;
                    let next = plan.steps.last()?.clone();
                    let d = dist(world, &next, target);
                    (d < now).then_some((d, dir, p, plan))
                })
                .min_by_key(|(d, dir, _, _)| (*d, *dir));
            let Some((_, _, p, plan)) = step else {
                break;
            };
            at = plan.steps.last().cloned().unwrap_or(at);
            path = p;
            best = Some(plan);
        }
        match best {
            Some(plan) => {
                log(world, EventKind::Moved, "C&M 7.9", |w| {
                    format!(
                        "{} advances on {} (control test)",
                        name(w, u),
                        plain_name(w, target)
                    )
                });
                movement::execute_move(world, plan)
            }
            None => log(world, EventKind::Moved, "C&M 7.9", |w| {
                format!(
                    "{} does not advance on {}: within its charge reach, or no way open",
                    name(w, u),
                    plain_name(w, target)
                )
            }),
        }
        component_mut::<CmStatus>(world, u).moved = true;
    }
}

fn dist(world: &World, list: &[HexCoord], target: UnitId) -> u32 {
    let ts = stands(world, target);
    list.iter()
        .flat_map(|a| ts.iter().map(move |b| moves::gap(*a, *b)))
        .min()
        .unwrap_or(u32::MAX)
}

fn within_reach_of(world: &World, unit: UnitId, list: &[HexCoord], target: UnitId) -> bool {
    let t = tables(world);
    moves::may_charge_across(
        &t.charts.charge_move,
        troop_ref(world, unit).category,
        dist(world, list, target),
    )
}

/// Entering a side's charge declarations: the game declares the charges its compelled
/// units must make on the nearest enemy (7.9: "they must advance to and charge the
/// nearest enemy"); the player may not cancel them (7.2).
pub fn declare_compelled(world: &mut World) {
    let side = turn(world).active;
    for u in troops(world) {
        if side_of(world, u) != side || !compelled(world, u) {
            continue;
        }
        let Some(target) = nearest_enemy(world, u) else {
            continue;
        };
        let unit = super::super::common::key(world, u);
        let tk = super::super::common::key(world, target);
        match charges::check_charge(world, &unit, &tk) {
            Ok(d) => {
                log(world, EventKind::CombatDeclared, "C&M 7.9", |w| {
                    format!("{} must charge the nearest enemy", name(w, u))
                });
                charges::execute_charge(world, d);
            }
            Err(r) => {
                let reach = charges::within_reach(world, u, target);
                log(world, EventKind::CombatDeclared, "C&M 7.9", |w| {
                    format!(
                        "{} cannot charge {}{}: {}",
                        name(w, u),
                        plain_name(w, target),
                        if reach { "" } else { " (out of reach)" },
                        r.reason
                    )
                });
            }
        }
    }
}

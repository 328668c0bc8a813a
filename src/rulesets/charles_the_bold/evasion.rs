//! Evasion (CtB 4.0, 10.6): who may evade a charge or a fire, the routes an evasion may
//! take (to the rear, facing kept, paying the terrain's MP), the owner's choice among
//! them, and the moves that fall back so (an evasion, a supporting skirmisher's, a
//! skirmisher's break-off) made in one place.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;
use crate::engine::view::Choice;

use super::commands::CtbCommand;
use super::data::{DefensiveFire, Evade};
use super::decision::choice;
use super::geometry::{Side, in_fire_arc, in_front, side_touched};
use super::shooting::FirePlan;
use super::{acts, acts_mut, facing, hex_of, key, log, plain_name, side_of, stand, stand_at};

fn refuse(why: impl Into<String>) -> Refusal {
    Refusal::new("CtB 4.0", why)
}

/// Whether a stand is skirmishers (CtB 10.6).
pub fn skirmishers(world: &World, id: UnitId) -> bool {
    stand(world, id).is_some_and(|s| s.spec.df == DefensiveFire::Skirmisher)
}

/// Whether a stand is one that evades both charges and fire: Sk and LC (CtB 4.0).
fn light(world: &World, id: UnitId) -> bool {
    stand(world, id).is_some_and(|s| s.spec.evade == Evade::Always)
}

/// The side of `target` its adjacent attacker touches (CtB 4.0, 10.5).
fn side_from(world: &World, target: UnitId, attacker: UnitId) -> Option<Side> {
    side_touched(
        hex_of(world, target)?,
        facing(world, target),
        hex_of(world, attacker)?,
    )
}

/// CtB 4.0's first exception: the attacker "commenced the turn adjacent to their flank
/// and just turned to attack": it has entered no hex this activation and stands in a
/// flank hex of the target.
fn turned_beside_flank(world: &World, target: UnitId, charger: UnitId) -> bool {
    acts(world, charger).hexes == 0 && side_from(world, target, charger) == Some(Side::Flank)
}

/// CtB 4.0's second exception: "caught in the flank as part of attack on formed stand":
/// the charge contacts the target on its flank and, with it, an enemy stand that is not
/// skirmishers (10.6 sets the "formed enemy" against "skirmish stands").
fn caught_beside_formed(world: &World, target: UnitId, charger: UnitId) -> bool {
    side_from(world, target, charger) == Some(Side::Flank)
        && acts(world, charger)
            .contacted
            .iter()
            .any(|o| *o != target && hex_of(world, *o).is_some() && !skirmishers(world, *o))
}

/// Whether `target` may evade `charger` (CtB 4.0): skirmishers and light cavalry, and
/// medium and heavy cavalry charged by foot, in the enemy's activation; only through
/// its front from an attacker
/// that began in front of its front line ("never visible in front of the front base
/// line" forbids it), except that Sk and LC "can still evade" an attacker that began
/// beside their flank and only turned, or when caught on the flank by a charge that
/// also hits a formed stand; never in a melee, nor pursued again once disordered, and
/// only with somewhere to go.
pub fn may_evade(world: &World, target: UnitId, charger: UnitId) -> bool {
    let (Some(t), Some(c)) = (stand(world, target), stand(world, charger)) else {
        return false;
    };
    let allowed = match t.spec.evade {
        Evade::Never => false,
        Evade::Always => true,
        Evade::AgainstFootThatChargesCavalry => !c.spec.mounted,
    };
    let Some(th) = hex_of(world, target) else {
        return false;
    };
    let seen = acts(world, charger)
        .move_start
        .is_some_and(|s| in_front(th, facing(world, target), s));
    let frontal = seen && side_from(world, target, charger) == Some(Side::Front);
    let excepted = light(world, target)
        && (turned_beside_flank(world, target, charger)
            || caught_beside_formed(world, target, charger));
    // Pursued and contacted again by the same charger, only an undisordered stand
    // evades again (CtB 4.0: "If the stand is not disordered they can continue to
    // retreat"; disordered when first charged, or by a failed Order Test, it evades
    // that attacker once).
    let again = acts(world, target).evaded_from.contains(&charger);
    // "In all cases evasion is only allowed *in an enemy turn*": not by the moving
    // side's stands an opportunity charge meets besides its trigger.
    let enemy_turn = side_of(world, target) != super::turn(world).active;
    allowed
        && enemy_turn
        && (frontal || excepted)
        && !(again && super::status(world, target).disordered)
        && !super::in_melee(world, target)
        && hex_of(world, charger).is_some_and(|a| !routes(world, target, a).is_empty())
}

/// Whether `target` may evade the fire of `shooter` (CtB 4.0: "Sk and LC can evade if
/// they are … fired on", "if the attack comes through the target stands front 2H"):
/// the shooter in its frontal arc (the wide arc through its two front hexes, as 5.0's
/// "fires on them from the front 2H": R-arcs), in no melee, not disordered if it has
/// evaded this shooter already, with somewhere to go. Opportunity fire is never evaded
/// (CtB 5.0: its trigger "cannot evade"); the caller says which fire it is.
pub fn may_evade_fire(world: &World, target: UnitId, shooter: UnitId) -> bool {
    let (Some(th), Some(sh)) = (hex_of(world, target), hex_of(world, shooter)) else {
        return false;
    };
    let again = acts(world, target).evaded_from.contains(&shooter);
    light(world, target)
        && in_fire_arc(th, facing(world, target), sh)
        && !(again && super::status(world, target).disordered)
        && !super::in_melee(world, target)
        && !routes(world, target, sh).is_empty()
}

/// One way an evasion may go: the hexes entered, the last where it ends, and the MP
/// they cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub path: Vec<HexCoord>,
    pub cost: u8,
}

impl Route {
    pub fn end(&self) -> HexCoord {
        *self.path.last().expect("a route enters a hex")
    }
}

/// Every route an evasion of `id` from an attacker in `from` may take (CtB 4.0: "up to
/// a full normal move to the rear … without changing facing"): each step into one of
/// its two rear hexes and farther from the attacker, paying the terrain's MP for its
/// class (its first step always allowed, as any move's) within its first
/// move's MP; through friends only where 3.9 lets one pass the other, never through an
/// enemy; ending in a hex free of stands. Ordered with the default first: the end
/// farthest from the attacker, then the cheapest, then the lowest hexes.
pub fn routes(world: &World, id: UnitId, from: HexCoord) -> Vec<Route> {
    let (Some(s), Some(start)) = (stand(world, id), hex_of(world, id)) else {
        return Vec::new();
    };
    let tables = super::tables(world);
    let board = world.res::<Board>();
    let side = side_of(world, id);
    let face = facing(world, id);
    let mp = s.entry.mp.0;
    let mut out = Vec::new();
    // Depth first: each step is farther from the attacker, so no hex comes twice.
    let mut stack = vec![(start, Vec::<HexCoord>::new(), 0u8)];
    while let Some((pos, path, spent)) = stack.pop() {
        for next in face.rear(pos) {
            if !board.contains(next) || next.distance(from) <= pos.distance(from) {
                continue;
            }
            let Some(cost) = super::movement::step_cost(&tables, board, s.spec.terrain, pos, next)
            else {
                continue;
            };
            let total = spent.saturating_add(cost);
            if total > mp && !path.is_empty() {
                continue;
            }
            let occupant = stand_at(world, next);
            if let Some(o) = occupant {
                let passes = side_of(world, o) == side
                    && (s.spec.through || stand(world, o).is_some_and(|f| f.spec.through));
                if !passes {
                    continue;
                }
            }
            let mut longer = path.clone();
            longer.push(next);
            if occupant.is_none() {
                out.push(Route {
                    path: longer.clone(),
                    cost: total,
                });
            }
            if total < mp {
                stack.push((next, longer, total));
            }
        }
    }
    out.sort_by(|a, b| {
        b.end()
            .distance(from)
            .cmp(&a.end().distance(from))
            .then(a.cost.cmp(&b.cost))
            .then(a.end().cmp(&b.end()))
            .then(a.path.cmp(&b.path))
    });
    out
}

/// The hexes an evasion may end in, the default first: one per hex, each by its best
/// route (R-4.0: the owner chooses how far, "up to a full normal move", and where).
pub fn ends(world: &World, id: UnitId, from: HexCoord) -> Vec<HexCoord> {
    let mut out: Vec<HexCoord> = Vec::new();
    for r in routes(world, id, from) {
        if !out.contains(&r.end()) {
            out.push(r.end());
        }
    }
    out
}

/// The route an answer names: none, the default; one hex, where it ends (by
/// its best route); more, the hexes of the route itself, step by step.
pub fn chosen_route(
    world: &World,
    id: UnitId,
    from: HexCoord,
    asked: &[HexCoord],
) -> Result<Vec<HexCoord>, Refusal> {
    let all = routes(world, id, from);
    let name = plain_name(world, id);
    let found = match asked {
        [] => all.first(),
        [end] => all.iter().find(|r| r.end() == *end),
        path => all.iter().find(|r| r.path == path),
    };
    if let Some(r) = found {
        return Ok(r.path.clone());
    }
    if all.is_empty() {
        return Err(refuse(format!("{name} has nowhere to evade to")));
    }
    let list: Vec<String> = ends(world, id, from)
        .iter()
        .map(HexCoord::to_string)
        .collect();
    Err(refuse(format!(
        "{name} evades to the rear without turning, each hex farther from its attacker, within its move's MP: it may end in {}",
        list.join(", ")
    )))
}

/// The answers to an evasion offered (CtB 4.0): evade to each hex it may end in, the
/// default first, or stand.
pub fn choices(world: &World, id: UnitId, attacker: UnitId) -> Vec<Choice> {
    let mut out = fall_back_choices(world, id, attacker, "evade to");
    out.push(choice(
        "stand".into(),
        CtbCommand::Hold {
            unit: key(world, id),
        }
        .command(),
        hex_of(world, id),
    ));
    out
}

/// A stand's ways back from `attacker` (an evasion, a supporting skirmisher's evasion,
/// a break-off: CtB 4.0, 10.6): `evade STAND HEX` to each hex it may end in, the
/// default first, labelled `what HEX`.
pub fn fall_back_choices(world: &World, id: UnitId, attacker: UnitId, what: &str) -> Vec<Choice> {
    hex_of(world, attacker)
        .map(|a| ends(world, id, a))
        .unwrap_or_default()
        .into_iter()
        .map(|end| {
            choice(
                format!("{what} {end}"),
                CtbCommand::Evade {
                    unit: key(world, id),
                    path: vec![end],
                }
                .command(),
                Some(end),
            )
        })
        .collect()
}

/// Moves a stand falling back along `path` (an evasion, a break-off: CtB 4.0, 10.6):
/// its attached general with it and off opportunity (`carry`: CtB 2.1, 5.0), enemy
/// generals alone in a hex it passes or ends in sent to their nearest stand (CtB 2.1,
/// as retreats do), the move logged by `what` (from, to) under `rule`, the zones
/// redrawn.
pub fn fall_back(
    world: &mut World,
    id: UnitId,
    path: &[HexCoord],
    rule: &'static str,
    what: impl FnOnce(&World, HexCoord, HexCoord) -> String,
) {
    let (Some(from), Some(&end)) = (hex_of(world, id), path.last()) else {
        return;
    };
    super::carry(world, id, end);
    log(world, EventKind::Retreated, rule, |w| what(w, from, end));
    for &h in path {
        super::results::displace_enemy_generals(world, id, h);
    }
    super::refresh_zones(world);
}

/// Where an evasion log says the stand went and how it faces.
fn went(world: &World, id: UnitId, from: HexCoord, to: HexCoord) -> String {
    format!("{from} → {to}, facing {}", facing(world, id).name())
}

/// The record of an evasion from `attacker` (CtB 4.0, 3.3): evading the same attacker
/// again is an extra move, an Order Test at its end, a failure disordering it, and
/// then it evades that attacker no more.
fn evaded(world: &mut World, id: UnitId, attacker: UnitId) {
    let again = acts(world, id).evaded_from.contains(&attacker);
    acts_mut(world, id).evaded_from.push(attacker);
    if again && !super::orders::order_test_in_game(world, id, "CtB 4.0") {
        super::disorder(world, id);
        log(world, EventKind::Special, "CtB 4.0", |w| {
            format!(
                "{} fails its Order Test after evading again: disordered, it may not evade {} again",
                plain_name(w, id),
                plain_name(w, attacker)
            )
        });
    }
}

/// Carries out an evasion of a charge (CtB 4.0) along `path`: the stand falls back,
/// facing kept; the charger, if it is in contact with nobody else, may go on with the
/// rest of its move into the hex left ("MC1 can continue its full move").
pub fn evade(world: &mut World, target: UnitId, charger: UnitId, path: &[HexCoord]) {
    fall_back(world, target, path, "CtB 4.0", |w, from, to| {
        format!(
            "{} evades {}",
            plain_name(w, target),
            went(w, target, from, to)
        )
    });
    let free = hex_of(world, charger).is_some_and(|ch| {
        super::moving::enemies_in_front(world, side_of(world, charger), ch, facing(world, charger))
            .is_empty()
    });
    if free {
        let left = acts(world, charger).contact_mp_left;
        acts_mut(world, charger).resume = Some(left);
    }
    evaded(world, target, charger);
}

/// A supporting skirmisher evades the charger along `path` (CtB 10.6): it falls back,
/// facing kept; the charge goes on against the stand it supported.
pub fn evade_support(world: &mut World, support: UnitId, charger: UnitId, path: &[HexCoord]) {
    fall_back(world, support, path, "CtB 10.6", |w, from, to| {
        format!(
            "{} evades {} instead of supporting: {}",
            plain_name(w, support),
            plain_name(w, charger),
            went(w, support, from, to)
        )
    });
}

/// Carries out an evasion of a fire (CtB 4.0) along `path`: the target is gone before
/// the dice, and the fire, declared and made at the hex it held, falls on nothing; the
/// shooter has fired all the same (its fire is spent: CtB 3.0, 6.0).
pub fn evade_fire(world: &mut World, plan: &FirePlan, path: &[HexCoord]) {
    let (shooter, target) = (plan.shooter, plan.target);
    fall_back(world, target, path, "CtB 4.0", |w, from, to| {
        format!(
            "{} evades the fire of {}: {}",
            plain_name(w, target),
            plain_name(w, shooter),
            went(w, target, from, to)
        )
    });
    log(world, EventKind::Special, "CtB 4.0", |w| {
        format!(
            "{}'s fire falls on the hex left empty: spent, no dice",
            plain_name(w, shooter)
        )
    });
    evaded(world, target, shooter);
}

/// The target of a fire stands instead of evading (CtB 4.0): the fire is thrown.
pub fn hold_fire(world: &mut World, plan: FirePlan) {
    log(world, EventKind::Special, "CtB 4.0", |w| {
        format!(
            "{} stands under the fire of {}",
            plain_name(w, plan.target),
            plain_name(w, plan.shooter)
        )
    });
    super::shooting::throw_fire(world, plan);
}

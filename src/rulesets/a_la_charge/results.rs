//! Applying combat results (AlC 12.4–12.8): step losses allocated by the owner (12.6),
//! morale checks (12.7), retreats with displacement chains and the map edge (12.5),
//! and advance after combat (12.8). Results wait in a queue; steps with one possible
//! outcome are applied at once, the others wait for the player's decision.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::{Command, Refusal};
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, SideId, Steps, UnitId};

use super::combat::AttackPlan;
use super::data::CombatResult;
use super::*;

/// A step of combat resolution still to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// `steps` step losses among `pool`, allocated by their owner (AlC 12.6).
    Losses {
        side: SideId,
        pool: Vec<UnitId>,
        steps: u8,
        rule: &'static str,
    },
    /// A morale check (AlC 12.7).
    MoraleCheck { unit: UnitId, rule: &'static str },
    /// A retreat of `total` hexes away from `origin`, `done` of them made (AlC 12.5);
    /// the leaders in `escort` go with the unit (`None` until the retreat begins, when
    /// the leaders then stacked with it are taken); `chain` holds the units this
    /// displacement chain has already moved, which cannot be displaced again.
    Retreat {
        unit: UnitId,
        origin: HexCoord,
        done: u8,
        total: u8,
        escort: Option<Vec<UnitId>>,
        chain: Vec<UnitId>,
        rule: &'static str,
    },
    /// One morale check for the attackers, on the unit their owner names (AlC 12.6:
    /// any one of several attackers can suffer a required result).
    ChooseMoraleCheck { pool: Vec<UnitId> },
    /// Advance after combat into `into` (AlC 12.8).
    Advance {
        into: HexCoord,
        candidates: Vec<UnitId>,
        chargers: Vec<UnitId>,
    },
}

/// One possible next hex of a retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetreatStep {
    Move(HexCoord),
    /// Move into a friendly unit's hex, which must retreat in turn (AlC 12.5).
    Displace(HexCoord, UnitId),
    /// No way out: off the map or blocked.
    Eliminate {
        off_map: bool,
    },
}

fn queue(world: &mut World) -> Mut<'_, AlcState> {
    world.resource_mut::<AlcState>()
}

pub(crate) fn front(world: &World) -> Option<Pending> {
    world.resource::<AlcState>().pending.front().cloned()
}

/// Queues the consequences of a CRT result in the order they are applied: the
/// attacker's losses and checks, then the defender's, then the advance.
pub fn enqueue_combat_result(world: &mut World, plan: &AttackPlan, result: CombatResult) {
    let attacker_side = turn(world).active;
    let defender_side = attacker_side.other();
    let with_leaders = |world: &World, units: &[UnitId]| {
        let mut pool = units.to_vec();
        for u in units {
            if let Some(h) = hex_of(world, *u) {
                pool.extend(
                    leaders_at(world, h)
                        .into_iter()
                        .filter(|l| side_of(world, *l) == side_of(world, *u)),
                );
            }
        }
        pool.sort();
        pool.dedup();
        pool
    };
    let mut steps = Vec::new();
    // Archers that fire are never touched by the result (AlC 12.2).
    if !plan.melee.is_empty() {
        if result.attacker_steps > 0 {
            steps.push(Pending::Losses {
                side: attacker_side,
                pool: with_leaders(world, &plan.melee),
                steps: result.attacker_steps,
                rule: "AlC 12.6",
            });
        }
        if result.attacker_check {
            steps.push(Pending::ChooseMoraleCheck {
                pool: plan.melee.clone(),
            });
        }
    }
    if result.defender_steps > 0 {
        steps.push(Pending::Losses {
            side: defender_side,
            pool: with_leaders(world, &[plan.defender]),
            steps: result.defender_steps,
            rule: "AlC 12.6",
        });
    }
    if result.defender_check {
        steps.push(Pending::MoraleCheck {
            unit: plan.defender,
            rule: "AlC 12.7",
        });
    }
    if result.defender_retreat > 0 {
        steps.push(Pending::Retreat {
            unit: plan.defender,
            origin: plan.target,
            done: 0,
            total: result.defender_retreat,
            escort: None,
            chain: Vec::new(),
            rule: "AlC 12.4",
        });
    }
    if !plan.melee.is_empty() {
        steps.push(Pending::Advance {
            into: plan.target,
            candidates: plan.melee.clone(),
            chargers: plan.chargers.clone(),
        });
    }
    queue(world).pending.extend(steps);
}

/// Removes one step from a unit; the last step eliminates it (AlC 12.6).
pub fn lose_step(world: &mut World, id: UnitId, rule: &'static str) {
    let e = entity(world, id);
    let left = {
        let mut s = world.get_mut::<Steps>(e).expect("units have steps");
        s.left = s.left.saturating_sub(1);
        s.left
    };
    if left == 0 {
        eliminate(world, id, rule);
    } else {
        log(world, EventKind::StepLost, rule, |w| {
            format!("{} loses a step and is reduced", name(w, id))
        });
    }
}

pub fn eliminate(world: &mut World, id: UnitId, rule: &'static str) {
    log(world, EventKind::Eliminated, rule, |w| {
        format!("{} is eliminated", name(w, id))
    });
    set_placement(world, id, Placement::Eliminated);
}

/// The possible next steps of a retreat from `at` (AlC 12.5, 11, 7): a free hex one
/// step further from the origin, out of enemy units and zones and across no river;
/// else a friendly unit's hex to displace; else elimination.
pub fn retreat_options(
    world: &World,
    unit: UnitId,
    at: HexCoord,
    origin: HexCoord,
    done: u8,
    chain: &[UnitId],
) -> Vec<RetreatStep> {
    let board = world.res::<Board>();
    let side = side_of(world, unit);
    let is_combat = !is_leader(world, unit);
    let away: Vec<HexCoord> = at
        .neighbors()
        .into_iter()
        .filter(|h| h.distance(origin) == done as u32 + 1)
        .collect();
    let mut free = Vec::new();
    let mut displace = Vec::new();
    let mut off_map = false;
    for h in away {
        if !board.contains(h) {
            off_map = true;
            continue;
        }
        if board.hexside(at, h).is_unbridged_river() {
            continue;
        }
        let here = units_at(world, h);
        if here.iter().any(|u| side_of(world, *u) != side) {
            continue;
        }
        let friend = combat_unit_at(world, h).filter(|u| *u != unit);
        match friend {
            Some(f) if is_combat && !chain.contains(&f) => {
                displace.push(RetreatStep::Displace(h, f))
            }
            Some(_) => {}
            _ if in_enemy_zoc(world, side, h) => {}
            _ => free.push(RetreatStep::Move(h)),
        }
    }
    if !free.is_empty() {
        free
    } else if !displace.is_empty() {
        displace
    } else {
        vec![RetreatStep::Eliminate { off_map }]
    }
}

pub(crate) fn live(world: &World, pool: &[UnitId]) -> Vec<UnitId> {
    pool.iter()
        .copied()
        .filter(|u| placement(world, *u) != Placement::Eliminated && steps(world, *u).left > 0)
        .collect()
}

/// How many steps must be taken: all that can be (AlC 12.6).
pub(crate) fn loss_count(world: &World, pool: &[UnitId], steps_due: u8) -> u8 {
    let capacity: u32 = live(world, pool)
        .iter()
        .map(|u| steps(world, *u).left as u32)
        .sum();
    (steps_due as u32).min(capacity) as u8
}

/// The units that may advance now, and whether one must (AlC 12.8).
pub fn advance_candidates(world: &World, p: &Pending) -> (Vec<UnitId>, bool) {
    let Pending::Advance {
        into,
        candidates,
        chargers,
    } = p
    else {
        return (Vec::new(), false);
    };
    let blocked = combat_unit_at(world, *into).is_some();
    if blocked {
        return (Vec::new(), false);
    }
    let able: Vec<UnitId> = candidates
        .iter()
        .copied()
        .filter(|u| hex_of(world, *u).is_some_and(|h| h.is_adjacent(*into)))
        .filter(|u| {
            !world
                .res::<Board>()
                .hexside(hex_of(world, *u).unwrap_or(*into), *into)
                .is_unbridged_river()
        })
        .collect();
    let must: Vec<UnitId> = able
        .iter()
        .copied()
        .filter(|u| chargers.contains(u) && unit(world, *u).kind.is_mounted())
        .collect();
    if must.is_empty() {
        (able, false)
    } else {
        (must, true)
    }
}

fn morale_check(world: &mut World, id: UnitId, rule: &'static str) {
    if placement(world, id) == Placement::Eliminated || is_leader(world, id) {
        return;
    }
    let at = hex_of(world, id).expect("on the map");
    let side = side_of(world, id);
    let base = rating(world, id);
    let leader_near = world
        .res::<Units>()
        .ids()
        .filter(|l| is_leader(world, *l) && side_of(world, *l) == side)
        .any(|l| hex_of(world, l).is_some_and(|h| h == at || h.is_adjacent(at)));
    let morale = base + i32::from(leader_near);
    let die = roll(world, rule, |w| format!("morale check of {}", name(w, id))) as i32;
    let bonus = if leader_near {
        " (+1 leader stacked or adjacent, AlC 8)"
    } else {
        ""
    };
    if die < morale {
        log(world, EventKind::MoraleCheck, rule, |w| {
            format!(
                "{} holds: {die} is less than morale {morale}{bonus}",
                name(w, id)
            )
        });
        return;
    }
    let retreat = Pending::Retreat {
        unit: id,
        origin: at,
        done: 0,
        total: 1,
        escort: None,
        chain: Vec::new(),
        rule,
    };
    if die == morale {
        log(world, EventKind::MoraleCheck, rule, |w| {
            format!(
                "{} wavers: {die} equals morale {morale}{bonus}, retreats one hex",
                name(w, id)
            )
        });
        queue(world).pending.push_front(retreat);
    } else {
        log(world, EventKind::MoraleCheck, rule, |w| {
            format!(
                "{} breaks: {die} is more than morale {morale}{bonus}, loses a step and retreats one hex",
                name(w, id)
            )
        });
        lose_step(world, id, rule);
        if placement(world, id) != Placement::Eliminated {
            queue(world).pending.push_front(retreat);
        }
    }
}

/// Moves a retreating unit (and its escorting leaders) one hex.
fn retreat_into(
    world: &mut World,
    id: UnitId,
    escort: &[UnitId],
    to: HexCoord,
    rule: &'static str,
) {
    let from = hex_of(world, id);
    set_placement(world, id, Placement::OnMap(to));
    for l in escort {
        if placement(world, *l) != Placement::Eliminated && hex_of(world, *l) == from {
            set_placement(world, *l, Placement::OnMap(to));
        }
    }
    log(world, EventKind::Retreated, rule, |w| {
        format!(
            "{} retreats from {} to {to}",
            plain_name(w, id),
            from.map(|h| h.label()).unwrap_or_default()
        )
    });
    setup::entered_hex(world, id, to);
}

/// Applies one retreat step and updates the queue.
fn apply_retreat_step(world: &mut World, step: RetreatStep) {
    let Some(Pending::Retreat {
        unit,
        origin,
        done,
        total,
        escort,
        chain,
        rule,
    }) = queue(world).pending.pop_front()
    else {
        return;
    };
    let escort = escort.unwrap_or_default();
    match step {
        RetreatStep::Move(h) => {
            retreat_into(world, unit, &escort, h, rule);
            if done + 1 < total {
                queue(world).pending.push_front(Pending::Retreat {
                    unit,
                    origin,
                    done: done + 1,
                    total,
                    escort: Some(escort),
                    chain,
                    rule,
                });
            }
        }
        RetreatStep::Displace(h, friend) => {
            let who = name(world, unit);
            let other = name(world, friend);
            log(world, EventKind::Displaced, "AlC 12.5", |_| {
                format!("{who} cannot retreat freely and displaces {other}; both check morale")
            });
            let friend_escort: Vec<UnitId> = leaders_at(world, h)
                .into_iter()
                .filter(|l| side_of(world, *l) == side_of(world, friend))
                .collect();
            retreat_into(world, unit, &escort, h, "AlC 12.5");
            let mut q = queue(world);
            q.pending.push_front(Pending::MoraleCheck {
                unit: friend,
                rule: "AlC 12.5",
            });
            q.pending.push_front(Pending::MoraleCheck {
                unit,
                rule: "AlC 12.5",
            });
            q.pending.push_front(Pending::Retreat {
                unit: friend,
                origin: h,
                done: 0,
                total: 1,
                escort: Some(friend_escort),
                chain: chain.iter().copied().chain([unit]).collect(),
                rule: "AlC 12.5",
            });
        }
        RetreatStep::Eliminate { off_map } => {
            if off_map {
                eliminate(world, unit, "AlC 12.5 (retreat off the map)");
            } else {
                eliminate(
                    world,
                    unit,
                    "AlC 12.5 (no retreat possible: designer's choice)",
                );
            }
            // Leaders left alone in the hex stay; they are lost only if an enemy enters (AlC 8).
        }
    }
}

fn advance(world: &mut World, id: UnitId, into: HexCoord) {
    let from = hex_of(world, id);
    set_placement(world, id, Placement::OnMap(into));
    log(world, EventKind::Advanced, "AlC 12.8", |w| {
        format!(
            "{} advances from {} into {into}",
            plain_name(w, id),
            from.map(|h| h.label()).unwrap_or_default()
        )
    });
    let side = side_of(world, id);
    setup::entered_hex(world, id, into);
    overrun_leaders(world, into, side);
}

/// Applies every queued step that needs no decision, stopping at the first that does.
pub fn process(world: &mut World) {
    while let Some(p) = front(world) {
        refresh_zones(world);
        match p {
            Pending::Losses {
                pool,
                steps: due,
                rule,
                ..
            } => {
                let alive = live(world, &pool);
                let take = loss_count(world, &pool, due);
                let capacity: u32 = alive.iter().map(|u| steps(world, *u).left as u32).sum();
                if take == 0 {
                    queue(world).pending.pop_front();
                } else if alive.len() == 1 || take as u32 == capacity {
                    queue(world).pending.pop_front();
                    let mut left = take;
                    for u in alive {
                        while left > 0 && placement(world, u) != Placement::Eliminated {
                            lose_step(world, u, rule);
                            left -= 1;
                        }
                    }
                } else {
                    return;
                }
            }
            Pending::MoraleCheck { unit, rule } => {
                queue(world).pending.pop_front();
                morale_check(world, unit, rule);
            }
            Pending::Retreat {
                unit,
                mut origin,
                done,
                escort,
                chain,
                ..
            } => {
                let Some(at) = hex_of(world, unit) else {
                    queue(world).pending.pop_front();
                    continue;
                };
                if escort.is_none() {
                    // The retreat begins: it leads away from where the unit stands now,
                    // and the leaders stacked with it now go with it.
                    let side = side_of(world, unit);
                    let leaders: Vec<UnitId> = leaders_at(world, at)
                        .into_iter()
                        .filter(|l| side_of(world, *l) == side)
                        .collect();
                    if done == 0 {
                        origin = at;
                    }
                    if let Some(Pending::Retreat {
                        escort: e,
                        origin: o,
                        ..
                    }) = queue(world).pending.front_mut()
                    {
                        *e = Some(leaders);
                        *o = origin;
                    }
                }
                let opts = retreat_options(world, unit, at, origin, done, &chain);
                if opts.len() == 1 {
                    apply_retreat_step(world, opts[0]);
                } else {
                    return;
                }
            }
            Pending::ChooseMoraleCheck { pool } => {
                let alive = live(world, &pool);
                match alive.len() {
                    0 => {
                        queue(world).pending.pop_front();
                    }
                    1 => {
                        queue(world).pending.pop_front();
                        morale_check(world, alive[0], "AlC 12.7");
                    }
                    _ => return,
                }
            }
            Pending::Advance { .. } => {
                let (cands, forced) = advance_candidates(world, &p);
                if cands.is_empty() {
                    queue(world).pending.pop_front();
                } else if forced && cands.len() == 1 {
                    queue(world).pending.pop_front();
                    let Pending::Advance { into, .. } = p else {
                        unreachable!()
                    };
                    advance(world, cands[0], into);
                } else {
                    return;
                }
            }
        }
    }
}

/// A player's answer to the decision at the front of the queue, checked.
pub(crate) enum DecisionPlan {
    /// These units lose a step each, one per mention (AlC 12.6).
    Losses(Vec<UnitId>, &'static str),
    /// The retreating unit takes these steps (AlC 12.5).
    Retreat(Vec<RetreatStep>),
    /// This unit advances into the hex (AlC 12.8), or none does.
    Advance(Option<UnitId>, HexCoord),
    /// This attacking unit checks morale (AlC 12.6, 12.7).
    MoraleCheck(UnitId),
}

/// Checks a player's answer to the decision waited for (reading the world only).
pub(crate) fn check_decision(world: &World, command: &Command) -> Result<DecisionPlan, Refusal> {
    let Some(p) = front(world) else {
        return Err(Refusal::new(
            "AlC 12.4",
            "no combat result is waiting for a decision",
        ));
    };
    match (command, &p) {
        (
            Command::Lose { units },
            Pending::Losses {
                pool,
                steps: due,
                rule,
                ..
            },
        ) => {
            let take = loss_count(world, pool, *due);
            if units.len() != take as usize {
                return Err(Refusal::new(
                    "AlC 12.6",
                    format!(
                        "{take} step loss(es) must be taken, all that can be; the command names {}",
                        units.len()
                    ),
                ));
            }
            let mut chosen: Vec<UnitId> = Vec::new();
            for r in units {
                let id = resolve(world, r)?;
                if !live(world, pool).contains(&id) {
                    return Err(Refusal::new(
                        "AlC 12.6",
                        format!("{} did not take part in this combat", name(world, id)),
                    ));
                }
                chosen.push(id);
                let n = chosen.iter().filter(|u| **u == id).count();
                if n > steps(world, id).left as usize {
                    return Err(Refusal::new(
                        "AlC 12.6",
                        format!(
                            "{} has only {} step(s) to lose",
                            name(world, id),
                            steps(world, id).left
                        ),
                    ));
                }
            }
            Ok(DecisionPlan::Losses(chosen, rule))
        }
        (
            Command::Retreat { path },
            Pending::Retreat {
                unit,
                origin,
                done,
                total,
                chain,
                ..
            },
        ) => {
            let (unit, origin, done, total) = (*unit, *origin, *done, *total);
            if path.len() > (total - done) as usize {
                return Err(Refusal::new(
                    "AlC 12.5",
                    format!(
                        "{} retreats only {} more hex(es)",
                        name(world, unit),
                        total - done
                    ),
                ));
            }
            // Check the whole path first: nothing but the retreating unit moves on it.
            let mut at = hex_of(world, unit).unwrap_or(origin);
            let mut steps_taken = Vec::new();
            for (i, &h) in path.iter().enumerate() {
                let opts = retreat_options(world, unit, at, origin, done + i as u8, chain);
                let step = opts
                    .iter()
                    .copied()
                    .find(|o| matches!(o, RetreatStep::Move(x) | RetreatStep::Displace(x, _) if *x == h))
                    .ok_or_else(|| {
                        let legal: Vec<String> = opts
                            .iter()
                            .filter_map(|o| match o {
                                RetreatStep::Move(x) | RetreatStep::Displace(x, _) => Some(x.label()),
                                RetreatStep::Eliminate { .. } => None,
                            })
                            .collect();
                        Refusal::new(
                            "AlC 12.5",
                            format!(
                                "{} cannot retreat into {h}: a retreat goes away from {origin}, never into enemy units or zones of control or across a river, and displaces a friendly unit only when no free hex is left (legal: {})",
                                name(world, unit),
                                if legal.is_empty() { "none".into() } else { legal.join(", ") }
                            ),
                        )
                    })?;
                steps_taken.push(step);
                if matches!(step, RetreatStep::Displace(..)) {
                    if i + 1 < path.len() {
                        return Err(Refusal::new(
                            "AlC 12.5",
                            format!("a displacement into {h} ends the retreat"),
                        ));
                    }
                    break;
                }
                at = h;
            }
            Ok(DecisionPlan::Retreat(steps_taken))
        }
        (Command::Advance { from }, Pending::Advance { into, .. }) => {
            let into = *into;
            let (cands, forced) = advance_candidates(world, &p);
            match from {
                None if forced => Err(Refusal::new(
                    "AlC 12.8",
                    "a mounted unit which has charged must advance after combat",
                )),
                None => Ok(DecisionPlan::Advance(None, into)),
                Some(h) => {
                    let id = combat_unit_at(world, *h)
                        .filter(|u| cands.contains(u))
                        .ok_or_else(|| {
                            Refusal::new(
                                "AlC 12.8",
                                format!(
                                    "the unit in {h} may not advance into {into}{}",
                                    if forced {
                                        ": a charging mounted unit must"
                                    } else {
                                        ""
                                    }
                                ),
                            )
                        })?;
                    Ok(DecisionPlan::Advance(Some(id), into))
                }
            }
        }
        (Command::Check { unit }, Pending::ChooseMoraleCheck { pool }) => {
            let id = resolve(world, unit)?;
            if !live(world, pool).contains(&id) {
                return Err(Refusal::new(
                    "AlC 12.6",
                    format!("{} did not attack in this combat", name(world, id)),
                ));
            }
            Ok(DecisionPlan::MoraleCheck(id))
        }
        _ => Err(Refusal::new(
            "AlC 12.4",
            format!(
                "that is not the decision waited for: {}",
                super::view::decision(world)
                    .map(|d| d.waiting())
                    .unwrap_or_default()
            ),
        )),
    }
}

/// Carries out a checked answer to the decision at the front of the queue.
pub(crate) fn execute_decision(world: &mut World, plan: DecisionPlan) {
    match plan {
        DecisionPlan::Losses(chosen, rule) => {
            queue(world).pending.pop_front();
            for id in chosen {
                lose_step(world, id, rule);
            }
        }
        DecisionPlan::Retreat(steps_taken) => {
            for step in steps_taken {
                apply_retreat_step(world, step);
            }
        }
        DecisionPlan::Advance(None, into) => {
            queue(world).pending.pop_front();
            log(world, EventKind::Advanced, "AlC 12.8", |_| {
                format!("no unit advances into {into}")
            });
        }
        DecisionPlan::Advance(Some(id), into) => {
            queue(world).pending.pop_front();
            advance(world, id, into);
        }
        DecisionPlan::MoraleCheck(id) => {
            queue(world).pending.pop_front();
            morale_check(world, id, "AlC 12.7");
        }
    }
}

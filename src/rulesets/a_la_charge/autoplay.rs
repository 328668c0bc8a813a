//! Random legal commands for A la Charge, for autoplay and property tests: every
//! decision, move and attack is drawn from what the rules allow right now.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::engine::command::Command;
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, SideId, UnitId, Units};

use super::AlcPhase;
use super::results::{Pending, RetreatStep, advance_candidates, retreat_options};
use super::*;

use crate::rulesets::common::pick;

fn decision(world: &World, rng: &mut ChaCha8Rng, p: &Pending) -> Command {
    match p {
        Pending::Losses {
            pool, steps: due, ..
        } => {
            let mut left: Vec<(UnitId, u8)> = pool
                .iter()
                .filter(|u| placement(world, **u) != Placement::Eliminated)
                .map(|u| (*u, steps(world, *u).left))
                .filter(|(_, s)| *s > 0)
                .collect();
            let capacity: u32 = left.iter().map(|(_, s)| *s as u32).sum();
            let take = (*due as u32).min(capacity);
            let mut units = Vec::new();
            for _ in 0..take {
                let i = rng.random_range(0..left.len());
                units.push(key(world, left[i].0));
                left[i].1 -= 1;
                if left[i].1 == 0 {
                    left.remove(i);
                }
            }
            Command::Lose { units }
        }
        Pending::Retreat {
            unit,
            origin,
            done,
            chain,
            ..
        } => {
            let at = hex_of(world, *unit).unwrap_or(*origin);
            let hexes: Vec<HexCoord> = retreat_options(world, *unit, at, *origin, *done, chain)
                .into_iter()
                .filter_map(|o| match o {
                    RetreatStep::Move(h) | RetreatStep::Displace(h, _) => Some(h),
                    RetreatStep::Eliminate { .. } => None,
                })
                .collect();
            Command::Retreat {
                path: vec![pick(rng, &hexes).unwrap_or(at)],
            }
        }
        Pending::Advance { .. } => {
            let (cands, forced) = advance_candidates(world, p);
            if !forced && rng.random_bool(0.4) {
                return Command::Advance { from: None };
            }
            Command::Advance {
                from: pick(rng, &cands).and_then(|u| hex_of(world, u)),
            }
        }
        Pending::ChooseMoraleCheck { pool } => {
            let alive: Vec<UnitId> = pool
                .iter()
                .copied()
                .filter(|u| placement(world, *u) != Placement::Eliminated)
                .collect();
            Command::Check {
                unit: key(world, pick(rng, &alive).unwrap_or(pool[0])),
            }
        }
        // `results::process` applies every morale check as soon as it reaches the
        // front of the queue, so none ever waits for a decision here.
        Pending::MoraleCheck { .. } => Command::EndPhase,
    }
}

/// What autoplay needs to know of one unit, read once per command.
struct Roster {
    id: UnitId,
    side: SideId,
    at: Option<HexCoord>,
    leader: bool,
    hidden: bool,
    moved: bool,
    attacked: bool,
    was_attacked: bool,
    archery_range: Option<u32>,
}

fn roster(world: &World) -> Vec<Roster> {
    let mut out = Vec::with_capacity(world.res::<Units>().len());
    scan_units(world, |u| {
        if u.placement != Placement::Eliminated {
            out.push(Roster {
                id: u.id,
                side: u.side,
                at: u.placement.hex(),
                leader: u.leader,
                hidden: u.hidden,
                moved: u.flags.moved,
                attacked: u.flags.attacked,
                was_attacked: u.flags.was_attacked,
                archery_range: u.values.kind.is_archery().then_some(u.values.range),
            });
        }
    });
    out
}

fn random_move(world: &World, rng: &mut ChaCha8Rng) -> Option<Command> {
    let active = turn(world).active;
    let all = roster(world);
    let mut movers: Vec<UnitId> = all
        .iter()
        .filter(|u| u.side == active && !u.moved)
        .map(|u| u.id)
        .collect();
    let enemies: Vec<HexCoord> = all
        .iter()
        .filter(|u| u.side != active && !u.hidden)
        .filter_map(|u| u.at)
        .collect();
    let occupancy = movement::Occupancy::of(world, active);
    // Try movers in random order; the first that can go somewhere moves: most often
    // towards the nearest enemy, so that random games come to blows and end.
    while !movers.is_empty() {
        let i = rng.random_range(0..movers.len());
        let u = movers.swap_remove(i);
        let reach = movement::reach_map_in(world, u, &occupancy);
        let closing = rng.random_bool(0.6);
        let nearest = |h: HexCoord| enemies.iter().map(|e| e.distance(h)).min().unwrap_or(0);
        let chosen = if closing {
            reach.ends.iter().min_by_key(|(h, _)| nearest(*h)).copied()
        } else {
            pick(rng, &reach.ends)
        };
        if let Some((to, _)) = chosen {
            return Some(Command::Move {
                unit: key(world, u),
                path: reach.path_to(to),
            });
        }
    }
    None
}

fn random_attack(world: &World, rng: &mut ChaCha8Rng) -> Option<Command> {
    let active = turn(world).active;
    let all = roster(world);
    let ready: Vec<(UnitId, HexCoord, Option<u32>)> = all
        .iter()
        .filter(|u| u.side == active && !u.leader && !u.attacked)
        .filter(|u| movement::check_can_act(world, u.id).is_ok())
        .filter_map(|u| u.at.map(|h| (u.id, h, u.archery_range)))
        .collect();
    let mut targets: Vec<HexCoord> = all
        .iter()
        .filter(|u| u.side != active && !u.leader && !u.hidden && !u.was_attacked)
        .filter_map(|u| u.at)
        // Only enemies some ready unit can reach this phase.
        .filter(|t| {
            ready
                .iter()
                .any(|(_, h, r)| h.distance(*t) <= r.unwrap_or(1))
        })
        .collect();
    for _ in 0..4 {
        if targets.is_empty() {
            return None;
        }
        let target = targets.swap_remove(rng.random_range(0..targets.len()));
        let mut melee = Vec::new();
        let mut fire = Vec::new();
        for &(_, h, range) in &ready {
            if !rng.random_bool(0.75) {
                continue;
            }
            let d = h.distance(target);
            if range.is_some_and(|r| d > 1 && d <= r) {
                fire.push(h);
            } else if d == 1 {
                melee.push(h);
            }
        }
        if melee.is_empty() && fire.is_empty() {
            continue;
        }
        if combat::evaluate(world, &melee, &fire, target).is_ok() {
            return Some(Command::Attack {
                melee,
                fire,
                target,
            });
        }
    }
    None
}

pub fn random_command(world: &mut World, rng: &mut ChaCha8Rng) -> Command {
    if let Some(p) = world.resource::<AlcState>().pending.front().cloned() {
        return decision(world, rng, &p);
    }
    match super::phase(world) {
        AlcPhase::SecretSetup => {
            let zones = world.resource::<AlcState>().hidden_zones.clone();
            for (u, zone) in zones {
                if hex_of(world, u).is_some() {
                    continue;
                }
                let hexes: Vec<HexCoord> = world
                    .res::<crate::engine::board::Board>()
                    .hexes()
                    .filter(|h| zone.contains(*h) && units_at(world, *h).is_empty())
                    .collect();
                if let Some(h) = pick(rng, &hexes) {
                    return Command::Place {
                        unit: key(world, u),
                        hex: h,
                        facing: None,
                    };
                }
            }
            Command::EndPhase
        }
        AlcPhase::Movement if !rng.random_bool(0.08) => {
            random_move(world, rng).unwrap_or(Command::EndPhase)
        }
        AlcPhase::Combat if !rng.random_bool(0.1) => {
            random_attack(world, rng).unwrap_or(Command::EndPhase)
        }
        _ => Command::EndPhase,
    }
}

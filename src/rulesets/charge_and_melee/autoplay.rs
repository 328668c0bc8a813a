//! Random legal commands for Charge & mêlée (autoplay, fuzzing): an answer to the
//! decision waited for, Command Points spent on a unit that must test its control, on
//! a unit beside a friend so that battle lines form (7.1), or to inspire (spec B.2
//! §6-§7), a one-hex move (towards the enemy three times as
//! often), a shot (at the nearest target it may shoot at four times as often as at
//! another), a charge, or the end of the phase — each checked by the same
//! `dispatch::check` that `submit` runs, so autoplay never offers an illegal command (a
//! move's in its two parts, the unit's once and each step's; chargers a refusal of the
//! unit alone rules out, and targets out of reach, are skipped before:
//! `dispatch::check` would refuse them).

use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;

use crate::engine::command::Command;
use crate::engine::units::SideId;
use crate::rulesets::common::{Weighted, pick};

use super::commands::CmCommand;
use super::*;

/// The distance from a unit's stands to the nearest enemy stand.
fn nearest_enemy(enemy_stands: &[HexCoord], list: &[HexCoord]) -> u32 {
    enemy_stands
        .iter()
        .flat_map(|e| list.iter().map(move |s| s.distance(*e)))
        .min()
        .unwrap_or(u32::MAX)
}

/// Every stand of the side that is not `side`'s.
fn enemy_stands(world: &World, side: SideId) -> Vec<HexCoord> {
    troops(world)
        .into_iter()
        .filter(|o| side_of(world, *o) != side)
        .flat_map(|o| stands(world, o).to_vec())
        .collect()
}

/// 1 CP spent by a leader on a unit of `side` in his command that stands beside a
/// friend answering to him and has none spent on it yet, so that random games form
/// battle lines now and then (7.1); each checked as `submit` checks it.
fn line_spends(world: &World, side: SideId) -> Vec<Command> {
    let mine: Vec<UnitId> = troops(world)
        .into_iter()
        .filter(|u| side_of(world, *u) == side && command::in_command(world, *u))
        .collect();
    let mut out = Vec::new();
    for &u in &mine {
        let Some(l) = command::commander_of(world, u) else {
            continue;
        };
        let beside = mine.iter().any(|&v| {
            v != u && command::commander_of(world, v) == Some(l) && in_contact(world, u, v)
        });
        if !beside || command::cps_on(world, u) > 0 {
            continue;
        }
        out.extend(spend_one(world, l, u));
    }
    out
}

/// `spend L U 1`, when the rules take it (spec B.2 §7).
fn spend_one(world: &World, leader: UnitId, unit: UnitId) -> Option<Command> {
    let cmd = CmCommand::Spend {
        leader: super::super::common::key(world, leader),
        unit: super::super::common::key(world, unit),
        cps: 1,
    }
    .command();
    dispatch::check(world, &cmd).is_ok().then_some(cmd)
}

/// A random legal command for the side to act.
pub fn random_command(world: &mut World, rng: &mut ChaCha8Rng) -> Command {
    if let Some(d) = view::decision(world) {
        let commands: Vec<Command> = d.choices.into_iter().map(|c| c.command).collect();
        if let Some(c) = pick(rng, &commands) {
            return c;
        }
    }
    let side = turn(world).active;
    let mut options: Weighted<Command> = Weighted::default();
    let leaders_of_side: Vec<UnitId> = leaders(world)
        .into_iter()
        .filter(|l| side_of(world, *l) == side)
        .collect();
    match phase(world) {
        CmPhase::Command => {
            // The units that must test, found once for every leader.
            let testing: Vec<UnitId> = troops(world)
                .into_iter()
                .filter(|&u| side_of(world, u) == side && command::must_test(world, u))
                .collect();
            for &l in &leaders_of_side {
                for &u in &testing {
                    if let Some(cmd) = spend_one(world, l, u) {
                        options.push(cmd, 2);
                    }
                }
            }
            for cmd in line_spends(world, side) {
                options.push(cmd, 1);
            }
        }
        CmPhase::Movement => {
            // The Command phase waits only for a side with units outside command: the
            // Move Phase is where CPs may still be spent on units in command (spec B.2 §13).
            for cmd in line_spends(world, side) {
                options.push(cmd, 1);
            }
            for &l in &leaders_of_side {
                let cmd = CmCommand::Inspire {
                    leader: super::super::common::key(world, l),
                }
                .command();
                if dispatch::check(world, &cmd).is_ok() {
                    options.push(cmd, 1);
                }
            }
            let enemies = enemy_stands(world, side);
            for id in troops(world) {
                if side_of(world, id) != side {
                    continue;
                }
                // `dispatch::check` of a move in its two parts: the unit's once, then
                // each step's.
                let unit = super::super::common::key(world, id);
                let Ok(mover) = dispatch::check_mover(world, &unit) else {
                    continue;
                };
                let list = stands(world, id).to_vec();
                let now = nearest_enemy(&enemies, &list);
                let ground = movement::Ground::of(world, mover);
                for dir in 0..6 {
                    let to = list[0].neighbor(dir);
                    if movement::path_plan(world, &ground, &[to]).is_ok() {
                        let cmd = Command::Move {
                            unit: unit.clone(),
                            path: vec![to],
                        };
                        let next = movement::translate(&list, dir);
                        let closer = nearest_enemy(&enemies, &next) < now;
                        options.push(cmd, if closer { 3 } else { 1 });
                    }
                }
            }
        }
        CmPhase::MissileDeclaration => {
            for id in troops(world) {
                if side_of(world, id) != side {
                    continue;
                }
                let targets = missile::targets(world, id);
                let nearest = targets.iter().map(|t| gap_between(world, id, *t)).min();
                for t in targets {
                    let cmd = CmCommand::Shoot {
                        unit: super::super::common::key(world, id),
                        target: super::super::common::key(world, t),
                    }
                    .command();
                    if dispatch::check(world, &cmd).is_ok() {
                        let near = Some(gap_between(world, id, t)) == nearest;
                        options.push(cmd, if near { 8 } else { 2 });
                    }
                }
            }
        }
        CmPhase::ChargeDeclaration => {
            let all = troops(world);
            for &id in &all {
                // The refusals of the charger whatever its target, read once; a target
                // out of reach is refused too.
                if side_of(world, id) != side
                    || command::controlled(world, id, true, false).is_err()
                    || charges::may_declare(world, id).is_err()
                {
                    continue;
                }
                for &t in &all {
                    if side_of(world, t) == side || !charges::within_reach(world, id, t) {
                        continue;
                    }
                    let cmd = CmCommand::Charge {
                        unit: super::super::common::key(world, id),
                        target: super::super::common::key(world, t),
                    }
                    .command();
                    if dispatch::check(world, &cmd).is_ok() {
                        options.push(cmd, 4);
                    }
                }
            }
        }
        _ => {}
    }
    options.push(Command::EndPhase, 2);
    options.pick(rng).unwrap_or(Command::EndPhase)
}

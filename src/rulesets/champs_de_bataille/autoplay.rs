//! Random legal commands for Champs de Bataille (autoplay, the trust harness): every
//! candidate is passed through the ruleset's own check before it is offered.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::engine::command::Command;

use super::commands::{CdbCommand, MarchStep};
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::UnitId;

use super::data::Kind;
use super::decision::decision;
use super::view::check;
use super::*;
use crate::rulesets::common::key;

use crate::rulesets::common::pick;

/// A set-up move of CdB 14.3 from the window's choices: corps placed compactly (each
/// unit beside its corps' units already placed), few ambushes.
fn deployment_command(world: &World, rng: &mut ChaCha8Rng) -> Option<Command> {
    // The next unit of a corps already begun goes beside its mates: only the hexes
    // near them are checked, not the whole map (the set-up's cost in autoplay).
    if let Some(u) = deployment::next_to_place(world)
        && kind(world, u) != Kind::Bag
    {
        let corps = unit(world, u).corps;
        let mates: Vec<HexCoord> = all_units(world)
            .into_iter()
            .filter(|m| unit(world, *m).corps == corps && side_of(world, *m) == side_of(world, u))
            .filter_map(|m| hex_of(world, m))
            .collect();
        let board = world.res::<crate::engine::board::Board>();
        // The unit's own checks once, then each hex's: the answers of `check`.
        let placer = super::dispatch::DeployPlacer::new(world, u);
        let place = |hex: HexCoord| placer.at(world, hex);
        if mates.is_empty() {
            // A corps' first unit: a few random hexes, then every hex (the decision).
            let all: Vec<HexCoord> = board.hexes().collect();
            for _ in 0..60 {
                if let Some(c) = place(all[rng.random_range(0..all.len())]) {
                    return Some(c);
                }
            }
        }
        let mut seen: Vec<HexCoord> = Vec::new();
        let mut ring: Vec<HexCoord> = mates.clone();
        for _ in 0..=2 {
            let mut near: Vec<HexCoord> = ring
                .iter()
                .copied()
                .filter(|h| board.contains(*h) && !seen.contains(h))
                .collect();
            near.sort();
            near.dedup();
            seen.extend(near.iter().copied());
            ring = near.iter().flat_map(|h| h.neighbors()).collect();
            // In random order, the first legal hex: each check is costly.
            while !near.is_empty() {
                let h = near.swap_remove(rng.random_range(0..near.len()));
                if let Some(c) = place(h) {
                    return Some(c);
                }
            }
        }
    }
    let d = decision(world)?;
    let placing: Vec<(UnitId, HexCoord, Command)> = d
        .choices
        .iter()
        .filter_map(|c| match &c.command {
            Command::Place { unit, hex, .. } => {
                Some((resolve(world, unit).ok()?, *hex, c.command.clone()))
            }
            _ => None,
        })
        .collect();
    if let Some((u, _, _)) = placing.first() {
        let corps = unit(world, *u).corps;
        let mates: Vec<HexCoord> = all_units(world)
            .into_iter()
            .filter(|m| unit(world, *m).corps == corps && side_of(world, *m) == side_of(world, *u))
            .filter_map(|m| hex_of(world, m))
            .collect();
        if mates.is_empty() || kind(world, *u) == Kind::Bag {
            return pick(rng, &placing).map(|p| p.2);
        }
        let near = |h: HexCoord| mates.iter().map(|m| m.distance(h)).min().unwrap_or(0);
        let best = placing.iter().map(|p| near(p.1)).min()?;
        let nearest: Vec<Command> = placing
            .into_iter()
            .filter(|p| near(p.1) == best)
            .map(|p| p.2)
            .collect();
        return pick(rng, &nearest);
    }
    let ends = d.choices.iter().any(|c| c.command == Command::EndPhase);
    if ends && d.choices.len() > 1 && rng.random_range(0..4) != 0 {
        return Some(Command::EndPhase);
    }
    pick(rng, &d.choices).map(|c| c.command)
}

fn ok(world: &World, c: &Command) -> bool {
    check(world, c).is_ok()
}

pub fn random_command(world: &mut World, rng: &mut ChaCha8Rng) -> Command {
    if state(world).step == CdbPhase::Setup
        && state(world).deploy.is_some()
        && let Some(c) = deployment_command(world, rng)
    {
        return c;
    }
    if let Some(d) = decision(world)
        && let Some(c) = pick(rng, &d.choices)
    {
        return c.command;
    }
    let step = state(world).step;
    let side = turn(world).active;
    let units = world.res::<crate::engine::units::Units>();
    let mine: Vec<UnitId> = units
        .ids()
        .filter(|u| {
            units.side(*u) == side
                && units.placement(*u).hex().is_some()
                && world
                    .get_cached::<CdbFlags>(units.entity(*u))
                    .expect("CdB units have flags")
                    .rank
                    == 0
        })
        .collect();
    let may_switch: Vec<UnitId> = state(world)
        .dismount
        .iter()
        .map(|(u, _)| *u)
        .filter(|u| side_of(world, *u) == side)
        .collect();
    if !may_switch.is_empty() && rng.random_range(0..8) == 0 {
        let u = pick(rng, &may_switch).expect("not empty");
        for remount in [false, true] {
            let c = CdbCommand::Dismount {
                unit: key(world, u),
                remount,
            }
            .command();
            if ok(world, &c) {
                return c;
            }
        }
    }
    match step {
        CdbPhase::Movement => {
            for _ in 0..12 {
                if rng.random_range(0..10) == 0 {
                    break;
                }
                let Some(u) = pick(rng, &mine) else { break };
                if let Some(c) = random_march(world, rng, u) {
                    return c;
                }
                if morale::due_to_advance(world, u) && rng.random_range(0..4) == 0 {
                    let c = CdbCommand::Keep {
                        units: vec![key(world, u)],
                    }
                    .command();
                    if ok(world, &c) {
                        return c;
                    }
                }
            }
        }
        CdbPhase::Missile => {
            let mut shooters: Vec<UnitId> = mine
                .iter()
                .copied()
                .filter(|u| kind(world, *u) == Kind::Bw)
                .collect();
            while !shooters.is_empty() {
                let i = rng.random_range(0..shooters.len());
                let s = shooters.swap_remove(i);
                let targets = missile::targets_of(world, s);
                let Some(min) = targets.iter().map(|t| t.1).min() else {
                    continue;
                };
                let nearest: Vec<UnitId> =
                    targets.iter().filter(|t| t.1 == min).map(|t| t.0).collect();
                let t = pick(rng, &nearest).expect("some target");
                let c = Command::Attack {
                    melee: Vec::new(),
                    fire: vec![hex_of(world, s).expect("on the map")],
                    target: hex_of(world, t).expect("on the map"),
                };
                if ok(world, &c) {
                    return c;
                }
            }
        }
        CdbPhase::Melee => {
            let mut fights = Vec::new();
            for u in &mine {
                if flags(world, *u).fought || kind(world, *u) == Kind::Bag {
                    continue;
                }
                for e in enemies_in_front(world, *u) {
                    let c = Command::Attack {
                        melee: vec![hex_of(world, *u).expect("on the map")],
                        fire: Vec::new(),
                        target: hex_of(world, e).expect("on the map"),
                    };
                    if ok(world, &c) {
                        fights.push(c);
                    }
                }
            }
            if let Some(c) = pick(rng, &fights) {
                // Fight while obliged to; otherwise now and then stop.
                if !ok(world, &Command::EndPhase) || rng.random_range(0..3) != 0 {
                    return c;
                }
            }
        }
        _ => {}
    }
    Command::EndPhase
}

/// A random march of a unit, or of it and its group, forward (after at most one
/// turn) or a step to the rear, checked.
fn random_march(world: &World, rng: &mut ChaCha8Rng, u: UnitId) -> Option<Command> {
    let at = hex_of(world, u)?;
    let f = facing(world, u);
    let mp = unit(world, u).p.mp;
    // A group: the adjacent units of the same corps and facing, moving straight.
    if rng.random_range(0..3) == 0 {
        let mut group = vec![u];
        for n in at.neighbors() {
            if let Some(x) = front_at(world, n)
                && side_of(world, x) == side_of(world, u)
                && unit(world, x).corps == unit(world, u).corps
                && facing(world, x) == f
            {
                group.push(x);
            }
        }
        if group.len() > 1 {
            let dir = f.front_dirs()[rng.random_range(0..2)];
            let len = rng.random_range(1..=mp.max(1)) as usize;
            // Front units first so no one steps into a hex still held.
            let mut far = at;
            for _ in 0..40 {
                far = far.neighbor(dir);
            }
            group.sort_by_key(|x| (hex_of(world, *x).expect("on the map").distance(far), *x));
            let moves: Vec<_> = group
                .iter()
                .map(|x| {
                    let mut h = hex_of(world, *x).expect("on the map");
                    let mut steps = Vec::new();
                    for _ in 0..len {
                        h = h.neighbor(dir);
                        steps.push(MarchStep::Hex(h));
                    }
                    (key(world, *x), steps)
                })
                .collect();
            let c = CdbCommand::March { moves }.command();
            if ok(world, &c) {
                return Some(c);
            }
        }
    }
    let mut steps = Vec::new();
    let mut facing_now = f;
    let mut here = at;
    match rng.random_range(0..6) {
        0 => {
            steps.push(MarchStep::Turn(1));
            facing_now = VertexFacing((f.0 + 1) % 6);
        }
        1 => {
            steps.push(MarchStep::Turn(-1));
            facing_now = VertexFacing((f.0 + 5) % 6);
        }
        2 => {
            let back = f.rear(at)[rng.random_range(0..2)];
            let c = CdbCommand::March {
                moves: vec![(key(world, u), vec![MarchStep::Hex(back)])],
            }
            .command();
            return ok(world, &c).then_some(c);
        }
        _ => {}
    }
    let len = rng.random_range(1..=mp.max(1));
    for _ in 0..len {
        here = facing_now.front(here)[rng.random_range(0..2)];
        steps.push(MarchStep::Hex(here));
    }
    // The longest legal prefix, each step checked once (`longest_legal_prefix`).
    if !super::dispatch::march_checkable(world) {
        return None;
    }
    let n = super::movement::longest_legal_prefix(world, key(world, u), steps.clone());
    if n == 0 {
        return None;
    }
    steps.truncate(n);
    let c = CdbCommand::March {
        moves: vec![(key(world, u), steps)],
    }
    .command();
    debug_assert!(ok(world, &c));
    Some(c)
}

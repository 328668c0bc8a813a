//! Random legal commands for Morne Plaine (autoplay, fuzzing): bombardments, moves and
//! attacks picked at random among those the rules allow, most moves towards the enemy
//! so that random games come to blows.

use bevy::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::engine::command::Command;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::data::Kind;
use super::*;

use crate::rulesets::common::pick;

/// Units of a side standing on the map, with their hexes.
fn on_map(world: &World, side: SideId) -> Vec<(UnitId, HexCoord)> {
    all_units(world)
        .into_iter()
        .filter(|u| side_of(world, *u) == side)
        .filter_map(|u| hex_of(world, u).map(|h| (u, h)))
        .collect()
}

fn random_bombardment(world: &World, rng: &mut ChaCha8Rng) -> Option<Command> {
    let side = turn(world).active;
    let guns: Vec<HexCoord> = on_map(world, side)
        .into_iter()
        .filter(|(u, _)| kind(world, *u) == Kind::Artillery && !flags(world, *u).bombarded)
        .map(|(_, h)| h)
        .collect();
    let targets: Vec<HexCoord> = on_map(world, side.other())
        .into_iter()
        .filter(|(u, _)| !flags(world, *u).was_attacked)
        .map(|(_, h)| h)
        .collect();
    let mut options = Vec::new();
    for &g in &guns {
        let range = unit_at(world, g).map_or(0, |u| unit(world, u).range as u32);
        for &t in &targets {
            // The range first: the line of fire is the costly part of the check.
            if g.distance(t) <= range && bombardment::check_bombard(world, &[], &[g], t).is_ok() {
                options.push((g, t));
            }
        }
    }
    let (g, t) = pick(rng, &options)?;
    // Sometimes every gun that can reach the target fires with it.
    let fire: Vec<HexCoord> = if rng.random_bool(0.5) {
        guns.iter()
            .copied()
            .filter(|&o| o == g || bombardment::check_bombard(world, &[], &[o], t).is_ok())
            .collect()
    } else {
        vec![g]
    };
    Some(Command::Attack {
        melee: Vec::new(),
        fire,
        target: t,
    })
}

fn random_move(world: &World, rng: &mut ChaCha8Rng) -> Option<Command> {
    let side = turn(world).active;
    let enemies: Vec<HexCoord> = on_map(world, side.other())
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    let mut movers: Vec<UnitId> = all_units(world)
        .into_iter()
        .filter(|u| side_of(world, *u) == side && !flags(world, *u).moved)
        .filter(|u| placement(world, *u) != crate::engine::units::Placement::Eliminated)
        .collect();
    let occupancy = movement::Occupancy::of(world);
    while !movers.is_empty() {
        let u = movers.swap_remove(rng.random_range(0..movers.len()));
        let reach = movement::reach_map(world, u, &occupancy);
        let nearest = |h: HexCoord| enemies.iter().map(|e| e.distance(h)).min().unwrap_or(0);
        let chosen = if rng.random_bool(0.6) {
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
    let side = turn(world).active;
    // Pairs that may fight (a cheap first sieve); the full check, which finds every
    // support, only for the pair picked.
    let mut options = Vec::new();
    for (u, h) in on_map(world, side) {
        if demoralised(world, u) || flags(world, u).attacked {
            continue;
        }
        for n in h.neighbors() {
            if unit_at(world, n)
                .is_some_and(|e| side_of(world, e) != side && !flags(world, e).was_attacked)
            {
                options.push((h, n));
            }
        }
    }
    while !options.is_empty() {
        let (h, n) = options.swap_remove(rng.random_range(0..options.len()));
        if combat::evaluate(world, &[h], &[], n).is_ok() {
            return Some(Command::Attack {
                melee: vec![h],
                fire: Vec::new(),
                target: n,
            });
        }
    }
    None
}

pub fn random_command(world: &mut World, rng: &mut ChaCha8Rng) -> Command {
    match phase(world) {
        MpPhase::Bombardment if !rng.random_bool(0.2) => {
            random_bombardment(world, rng).unwrap_or(Command::EndPhase)
        }
        MpPhase::Movement if !rng.random_bool(0.08) => {
            random_move(world, rng).unwrap_or(Command::EndPhase)
        }
        MpPhase::Combat if !rng.random_bool(0.1) => {
            random_attack(world, rng).unwrap_or(Command::EndPhase)
        }
        _ => Command::EndPhase,
    }
}

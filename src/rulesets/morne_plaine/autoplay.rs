//! Random legal commands for Morne Plaine (autoplay, fuzzing): bombardments, moves and
//! attacks picked at random among those the rules allow, most moves towards the enemy
//! so that random games come to blows.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::engine::board::Board;
use crate::engine::command::Command;
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, UnitId};

use super::data::Kind;
use super::*;

use crate::rulesets::common::pick;

/// Units of a side standing on the map, in id order.
fn on_map<'r, 'w>(roster: &'r [Member<'w>], side: SideId) -> impl Iterator<Item = &'r Member<'w>> {
    roster
        .iter()
        .filter(move |m| m.side == side && m.hex().is_some())
}

fn random_bombardment(world: &World, rng: &mut ChaCha8Rng) -> Option<Command> {
    let side = turn(world).active;
    let roster = roster(world);
    let guns: Vec<(HexCoord, u32)> = on_map(&roster, side)
        .filter(|m| m.unit.kind == Kind::Artillery && !m.flags.bombarded)
        .filter_map(|m| m.hex().map(|h| (h, m.unit.range as u32)))
        .collect();
    let targets: Vec<HexCoord> = on_map(&roster, side.other())
        .filter(|m| !m.flags.was_attacked)
        .filter_map(|m| m.hex())
        .collect();
    let mut options = Vec::new();
    for &(g, range) in &guns {
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
            .map(|&(o, _)| o)
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
    let roster = roster(world);
    let enemies: Vec<HexCoord> = on_map(&roster, side.other())
        .filter_map(|m| m.hex())
        .collect();
    let mut movers: Vec<UnitId> = roster
        .iter()
        .filter(|m| m.side == side && !m.flags.moved && m.placement != Placement::Eliminated)
        .map(|m| m.id)
        .collect();
    let occupancy = movement::Occupancy::of_roster(world.res::<Board>(), &roster);
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
    let roster = roster(world);
    let board = world.res::<Board>();
    let occupancy = movement::Occupancy::of_roster(board, &roster);
    // Pairs that may fight (a cheap first sieve); the full check, which finds every
    // support, only for the pair picked.
    let mut options = Vec::new();
    for m in on_map(&roster, side) {
        if m.demoralised() || m.flags.attacked {
            continue;
        }
        let h = m.hex().expect("on the map");
        for n in h.neighbors() {
            let enemy = board
                .index(n)
                .and_then(|i| occupancy.unit_at[i])
                .map(|e| &roster[e.0 as usize]);
            if enemy.is_some_and(|e| e.side != side && !e.flags.was_attacked) {
                options.push((h, n));
            }
        }
    }
    // What `combat::evaluate` checks beyond the sieve is only the contact (no river
    // without a crossing, no double slope between): the same choices without planning
    // each attack twice.
    while !options.is_empty() {
        let (h, n) = options.swap_remove(rng.random_range(0..options.len()));
        if movement::contact(board, h, n) {
            debug_assert!(combat::evaluate(world, &[h], &[], n).is_ok());
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

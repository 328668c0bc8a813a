//! Purposeful candidates for the side that must attack: for each of its units, the
//! move among those the ruleset offers it (`Ruleset::move_options`, the window's
//! shaded hexes) that brings it nearest the enemy along the ground its class may
//! cross. Random draws seldom hold the long march a unit makes towards battle, so the
//! search weighed twelve aimless steps while the armies closed.

use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::Command;
use crate::engine::evaluation::{ground_distances, troops_on_map};
use crate::engine::hex::HexCoord;
use crate::engine::ruleset::Ruleset;
use crate::engine::units::SideId;

/// At most `limit` moves of `side`'s units, each the one of its unit's legal moves
/// that ends nearest an enemy unit along the ground, where that is nearer than the
/// unit stands now; the units that gain the most hexes first. None while a decision
/// is pending (its answers are the only commands).
pub fn advancing_moves(
    ruleset: &dyn Ruleset,
    world: &World,
    side: SideId,
    limit: usize,
) -> Vec<Command> {
    if limit == 0 || ruleset.decision(world).is_some() {
        return Vec::new();
    }
    let enemies: Vec<HexCoord> = troops_on_map(world, |s| s != side)
        .map(|(_, hex)| hex)
        .collect();
    if enemies.is_empty() {
        return Vec::new();
    }
    let board = world.resource::<Board>();
    let mut by_class: Vec<(u8, Vec<Option<u16>>)> = Vec::new();
    let mut gains: Vec<(u16, u16, Command)> = Vec::new();
    for (entity, at) in troops_on_map(world, |s| s == side).collect::<Vec<_>>() {
        let class = ruleset.ground_class(world, entity);
        let k = match by_class.iter().position(|(c, _)| *c == class) {
            Some(k) => k,
            None => {
                let distance = ground_distances(board, &enemies, &|from, to| {
                    ruleset.crosses(world, class, from, to)
                });
                by_class.push((class, distance));
                by_class.len() - 1
            }
        };
        let distance = |hex: HexCoord| board.index(hex).and_then(|i| by_class[k].1[i]);
        let Some(now) = distance(at) else { continue };
        let Ok(options) = ruleset.move_options(world, entity) else {
            continue;
        };
        // Nearest first, then the one that leaves the most movement points.
        let best = options
            .into_iter()
            .filter_map(|o| Some((distance(o.hex)?, -o.left, o)))
            .min_by_key(|(d, left, o)| (*d, *left, o.hex));
        if let Some((d, _, option)) = best
            && d < now
            && ruleset.check(world, &option.command).is_ok()
        {
            gains.push((now - d, d, option.command));
        }
    }
    // The largest gain first; between equal gains, the one that ends nearest.
    gains.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    gains.into_iter().take(limit).map(|g| g.2).collect()
}

//! Purposeful candidates for the side that must attack: for each of its units, and
//! each group it could march together (`Ruleset::groups`), the move among those the
//! ruleset offers it (`Ruleset::move_options`, `group_move_options`: the window's
//! shaded hexes) that brings it nearest the enemy along the ground its class may
//! cross. Random draws seldom hold the long march a unit makes towards battle, so the
//! search weighed twelve aimless steps while the armies closed.

use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::Command;
use crate::engine::evaluation::{ground_distances, troops_on_map};
use crate::engine::hex::HexCoord;
use crate::engine::ruleset::Ruleset;
use crate::engine::units::{SideId, Units};
use crate::engine::view::MoveOption;

/// At most `limit` moves of `side`'s units and groups, each the one of its unit's (or
/// group's leader's) legal moves that ends nearest an enemy unit along the ground,
/// where that is nearer than it stands now; those that gain the most hexes first, a
/// group's gain counted for each of its units. None while a decision is pending (its
/// answers are the only commands).
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
    let mut ground = Ground {
        ruleset,
        world,
        enemies,
        by_class: Vec::new(),
    };
    // (hexes gained, hexes left to the enemy, the move)
    let mut gains: Vec<(u16, u16, Command)> = Vec::new();
    for (entity, at) in troops_on_map(world, |s| s == side).collect::<Vec<_>>() {
        if let Ok(options) = ruleset.move_options(world, entity)
            && let Some((gain, left, command)) = ground.nearest(entity, at, options)
        {
            gains.push((gain, left, command));
        }
    }
    // A group's march (CdB 5, where one action point moves the whole group): the one
    // whose leader ends nearest, its gain counted for every unit of the group.
    for group in ruleset.groups(world, side) {
        let units = world.resource::<Units>();
        let (lead, at) = (units.entity(group[0]), units.placement(group[0]).hex());
        if let Some(at) = at
            && let Ok(options) = ruleset.group_move_options(world, &group)
            && let Some((gain, left, command)) = ground.nearest(lead, at, options)
        {
            let size = u16::try_from(group.len()).unwrap_or(u16::MAX);
            gains.push((gain.saturating_mul(size), left, command));
        }
    }
    // The largest gain first; between equal gains, the one that ends nearest.
    gains.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    gains.into_iter().take(limit).map(|g| g.2).collect()
}

/// The hexes to the nearest enemy unit along the ground, searched once for each class
/// of ground (`Ruleset::ground_class`, `crosses`).
struct Ground<'w> {
    ruleset: &'w dyn Ruleset,
    world: &'w World,
    enemies: Vec<HexCoord>,
    by_class: Vec<(u8, Vec<Option<u16>>)>,
}

impl Ground<'_> {
    /// Of `options`, the move of the unit `mover` (at `at`) that ends nearest the enemy
    /// and nearer than `at`, legal now: its gain in hexes, the hexes left, its command.
    /// Between equally near ends, the one that leaves the most movement points.
    fn nearest(
        &mut self,
        mover: Entity,
        at: HexCoord,
        options: Vec<MoveOption>,
    ) -> Option<(u16, u16, Command)> {
        let (ruleset, world) = (self.ruleset, self.world);
        let board = world.resource::<Board>();
        let class = ruleset.ground_class(world, mover);
        let k = match self.by_class.iter().position(|(c, _)| *c == class) {
            Some(k) => k,
            None => {
                let distance = ground_distances(board, &self.enemies, &|from, to| {
                    ruleset.crosses(world, class, from, to)
                });
                self.by_class.push((class, distance));
                self.by_class.len() - 1
            }
        };
        let table = &self.by_class[k].1;
        let distance = |hex: HexCoord| board.index(hex).and_then(|i| table[i]);
        let now = distance(at)?;
        let (d, _, option) = options
            .into_iter()
            .filter_map(|o| Some((distance(o.hex)?, -o.left, o)))
            .min_by_key(|(d, left, o)| (*d, *left, o.hex))?;
        (d < now && ruleset.check(world, &option.command).is_ok())
            .then(|| (now - d, d, option.command))
    }
}

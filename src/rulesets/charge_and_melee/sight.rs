//! Line of sight for Charge & mêlée's shooting (spec B.2 §11; the shooting chapter 6.x
//! is missing, so every blocker is the designer's, listed in the README): a hex between
//! the ends blocks when its terrain blocks sight (`terrain.ron`'s `blocks_sight`:
//! woods), when it is higher than both ends, or when a stand stands on it — save that
//! troops with bows (a long-range factor) shoot overhead over the friendly stands
//! touching their own (7.3's examples: heavy horse archers "fired overhead", archers in
//! a second rank shooting). Where the line runs along a hexside both hexes must block
//! (`engine::hex::line_of_sight`). The exchanges, the shooting at chargers and the
//! line-of-sight tool (`Ruleset::sight`) all ask `clear_line`/`line`.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::hex::{HexCoord, SightLine, line_of_sight, sight_line};

use super::*;

/// What blocks a line from `from` to `to` at `x`, if anything (spec B.2 §11).
pub(crate) fn blocker(world: &World, from: HexCoord, to: HexCoord, x: HexCoord) -> Option<String> {
    if x == from || x == to {
        return None;
    }
    let board = world.res::<Board>();
    let t = tables(world);
    let terrain = board.terrain_name(x);
    if let Some(tt) = t.terrain_type(terrain).filter(|tt| tt.blocks_sight) {
        return Some(format!("{} (spec B.2 §11)", tt.name.to_lowercase()));
    }
    if board.elevation(x) > board.elevation(from).max(board.elevation(to)) {
        return Some("ground higher than both ends (spec B.2 §11)".into());
    }
    let here = stand_at(world, x)?;
    // Bows shoot overhead over the friends touching the shooter's stand (7.3).
    let shooter = stand_at(world, from);
    let overhead = shooter.is_some_and(|s| {
        troop_ref(world, s).long_range > 0
            && x.is_adjacent(from)
            && side_of(world, here) == side_of(world, s)
    });
    if overhead {
        return None;
    }
    Some(format!(
        "a stand of {} between (spec B.2 §11)",
        plain_name(world, here)
    ))
}

/// Whether the line from `from` to `to` is clear for shooting (spec B.2 §11).
pub fn clear_line(world: &World, from: HexCoord, to: HexCoord) -> bool {
    Sight::of(world).clear(from, to)
}

/// `blocker`'s tests read without its words, the resources looked up once for the many
/// lines a volley or a scan of targets asks about (`clear_line` of each).
pub(crate) struct Sight<'w> {
    pub world: &'w World,
    pub board: &'w Board,
    pub tables: &'w Tables,
    pub index: &'w StandIndex,
    pub units: &'w Units,
}

impl<'w> Sight<'w> {
    pub fn of(world: &'w World) -> Self {
        Self {
            world,
            board: world.res::<Board>(),
            tables: &world.resource::<CmTables>().0,
            index: world.resource::<StandIndex>(),
            units: world.res::<Units>(),
        }
    }

    /// A unit's troop type (`troop_ref`), the resources in hand.
    pub fn troop(&self, id: UnitId) -> &'w TroopType {
        &self.tables.troops.troops[component_of::<CmUnit>(self.world, self.units, id).troop]
    }

    /// `clear_line(world, from, to)`.
    pub fn clear(&self, from: HexCoord, to: HexCoord) -> bool {
        let (board, index, units) = (self.board, self.index, self.units);
        let top = board.elevation(from).max(board.elevation(to));
        // The side whose stands a bow in `from` shoots over (7.3), if one stands there.
        let over = index
            .at(from)
            .filter(|&s| self.troop(s).long_range > 0)
            .map(|s| units.side(s));
        line_of_sight(from, to, |x| {
            if x == from || x == to {
                return false;
            }
            if self
                .tables
                .terrain_type(board.terrain_name(x))
                .is_some_and(|tt| tt.blocks_sight)
                || board.elevation(x) > top
            {
                return true;
            }
            index.at(x).is_some_and(|here| {
                !over.is_some_and(|side| x.is_adjacent(from) && units.side(here) == side)
            })
        })
    }
}

/// `clear_line` with what blocks at each hex between (the line-of-sight tool).
pub fn line(world: &World, from: HexCoord, to: HexCoord) -> SightLine {
    sight_line(from, to, |x| blocker(world, from, to, x))
}

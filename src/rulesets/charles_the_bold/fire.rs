//! Charles the Bold's fire pool as a pure function (CtB 6.0, 6.1): the dice a rank of a
//! shooting stand throws at a range, term by term with its section, for the resolver
//! and the window's preview alike. Choosing targets, arcs and sight in the game, and
//! the throw, come with the plugin.

use super::data::{ArmyEntry, FireFactors, SpecialUnit};
use super::pool::Pool;

/// What changes a shooter's dice besides its SP and the range (CtB 6.0, 6.1, 6.2).
#[derive(Clone, Copy, Debug, Default)]
pub struct FireSituation {
    /// Moves made this activation before firing: each costs dice (CtB 6.0).
    pub moves_before: u8,
    /// The stand declares a move after firing (CtB 6.0).
    pub moving_after: bool,
    /// The rank firing is the rear one of a double-rank shooter (CtB 6.1).
    pub rear_rank: bool,
    /// The shooter is disordered (CtB 6.2, 7.4).
    pub disordered: bool,
    /// The target stands in cover (designer's, Summary Sheet).
    pub target_in_cover: bool,
    /// Skirmishers or shot firing at a type the table's `armour_vs` lists (heavy
    /// cavalry: designer's, Summary Sheet).
    pub target_armoured: bool,
}

/// The pool a rank of `sp` SP of `entry` throws at `range` hexes (CtB 6.0, 6.1): its SP
/// and the list's column for the range (CtB 1.3, 16.0), each move before and a move
/// after, the rear rank (the Special Units sheet's figure for a longbow, else the
/// table's), disorder and the target's cover. `None` when the list gives no column at
/// that range: the stand cannot fire there (R-ranges).
pub fn fire_pool(
    entry: &ArmyEntry,
    special: Option<&SpecialUnit>,
    factors: &FireFactors,
    sp: u8,
    range: u32,
    situation: FireSituation,
) -> Option<Pool> {
    let dice = entry.fire_dice(sp, range, factors)?;
    let mut pool = Pool::of_sp(sp);
    pool.add(dice - i32::from(sp), format!("range {range}H"), "CtB 16.0");
    pool.add(
        i32::from(situation.moves_before) * i32::from(factors.move_before),
        format!("{} move(s) before firing", situation.moves_before),
        "CtB 6.0",
    );
    if situation.moving_after {
        pool.add(
            i32::from(factors.move_after),
            "moving after firing",
            "CtB 6.0",
        );
    }
    if situation.rear_rank {
        let rear = special
            .filter(|s| s.rear_rank != 0)
            .map_or(factors.rear_rank, |s| s.rear_rank);
        pool.add(i32::from(rear), "the rear rank", "CtB 6.1");
    }
    if situation.disordered {
        pool.add(i32::from(factors.disordered), "disordered", "CtB 6.2");
    }
    if situation.target_in_cover {
        pool.add(
            i32::from(factors.cover),
            "the target in cover",
            "CtB Summary Sheet (designer's)",
        );
    }
    if situation.target_armoured {
        pool.add(
            i32::from(factors.armour),
            "armoured target",
            "CtB Summary Sheet (designer's)",
        );
    }
    Some(pool)
}

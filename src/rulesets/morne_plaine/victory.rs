//! Morne Plaine's victory (MP victory): the side holding more victory points in
//! objective hexes at the end of the last turn wins, at the level its lead reaches.

use crate::engine::scenario::VictoryLevel;

use super::data::VictoryFile;

/// The level of a lead of `difference` VP: `None` for none (a draw) or below the first
/// level, else the highest level reached (MP victory).
pub fn level_for(victory: &VictoryFile, difference: u32) -> Option<VictoryLevel> {
    victory
        .levels
        .iter()
        .rev()
        .find(|s| difference >= s.difference)
        .map(|s| s.level)
}

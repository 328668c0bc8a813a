//! The arithmetic of Morne Plaine's combat page: the odds column (rounded in favour of
//! the defender, capped at 8-1 and 1-8), the die modifiers (topography, the morale
//! difference) and the clamp of the modified die to 0-7, and the 1-9 morale check.
//! the supports the game finds for both sides. Each function is the rule alone, on
//! numbers and positions, so that the rules and the window's preview share it.

use crate::engine::board::Board;
use crate::engine::hex::HexCoord;
use crate::engine::units::SideId;

use super::data::Crt;
use super::movement::contact;

/// A unit as the supports see it (MP combat: supports).
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    pub hex: HexCoord,
    pub side: SideId,
    /// At morale 0: it brings no support.
    pub demoralised: bool,
    /// It eliminated an enemy or made one retreat earlier in this combat phase, as the
    /// attacking or the defending unit: it supports even in contact with another enemy.
    pub victorious: bool,
}

/// The units that support an attack of the unit at `attacker` on the unit at `defender`,
/// found by the game, never chosen (MP combat: supports): "Any of the attacking
/// player's units that is on contact with the defending unit … if it is not on contact
/// with another enemy unit", and the mirror for the defender; never a demoralised unit;
/// always a victorious one. Returns the indices into `units` of the offensive and the
/// defensive supports.
pub fn supports(
    board: &Board,
    units: &[Standing],
    attacker: usize,
    defender: usize,
) -> (Vec<usize>, Vec<usize>) {
    let support_of = |own: usize, against: usize| -> Vec<usize> {
        let (side, target) = (units[own].side, units[against].hex);
        (0..units.len())
            .filter(|&i| i != own && units[i].side == side && !units[i].demoralised)
            .filter(|&i| contact(board, units[i].hex, target))
            .filter(|&i| {
                units[i].victorious
                    || !units.iter().enumerate().any(|(j, e)| {
                        j != against && e.side != side && contact(board, units[i].hex, e.hex)
                    })
            })
            .collect()
    };
    (
        support_of(attacker, defender),
        support_of(defender, attacker),
    )
}

/// The CRT column of an attack: "The ratio is reduced to one of the ratios of the
/// Combat Results Table and rounded in favour of the defender", and "Odds greater than
/// 8 – 1 are treated as 8 – 1, and odds of less than 1 – 8 are treated as 1 – 8"
/// (MP combat: resolution): the highest column whose odds are at most attack:defence,
/// the first below them all, the last above them all.
pub fn odds_column(crt: &Crt, attack: i32, defence: i32) -> usize {
    crate::rulesets::common::odds_column(&crt.ratios, attack, defence)
}

/// "The attacking unit benefits from a +1 die-roll modifier if it occupies a hex at a
/// higher elevation than the defending unit. In the opposite case there is a –1"
/// (MP combat: topography). Supporters' positions do not count.
pub fn topography_modifier(attacker_level: i8, defender_level: i8) -> i32 {
    (attacker_level as i32 - defender_level as i32).signum()
}

/// "Die roll is increased by 1 point every 2 points of difference between the morale
/// values" of the attacking and the defending unit (MP combat: morale difference). The
/// difference is taken in the order the text names the units, so a defender of higher
/// morale lowers the die; a part of 2 left over counts nothing.
pub fn morale_modifier(attacker_mv: i32, defender_mv: i32) -> i32 {
    (attacker_mv - defender_mv) / 2
}

/// "A final result of less than 0 or more than 7 is treated respectively as 0 or 7"
/// (MP combat: resolution): the CRT row of a die and its cumulative modifiers.
pub fn modified_die(die: u8, modifiers: &[i32]) -> i32 {
    (die as i32 + modifiers.iter().sum::<i32>()).clamp(0, 7)
}

/// "A random number from 1 and 9 is determined and compared to the unit's current
/// morale. If the number is greater then the unit fails" (MP combat: morale check).
pub fn morale_check_passes(morale: i32, number: u8) -> bool {
    number as i32 <= morale
}

//! The arithmetic of Morne Plaine's combat page: the odds column (rounded in favour of
//! the defender, capped at 8-1 and 1-8), the die modifiers (topography, the morale
//! difference) and the clamp of the modified die to 0-7, and the 1-9 morale check.
//! Each function is the rule alone, on numbers, so that the rules that find the units
//! and the window's preview share it.

use super::data::Crt;

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

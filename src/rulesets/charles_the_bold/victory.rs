//! Charles the Bold's break points as pure functions (CtB 14.0): whether an army has
//! lost the fraction of its break points that breaks it, and who breaks first when a
//! single command breaks both (R-break). Counting the losses in the game comes with
//! the plugin.

use std::cmp::Ordering;

/// Whether an army that has lost `lost` of its `total` break points is broken at its
/// scenario's `fraction` (lost, of): lost / total >= lost_part / of (CtB 14.0).
pub fn broken(lost: u32, total: u32, fraction: (u32, u32)) -> bool {
    let (part, of) = fraction;
    // lost / total >= part / of, in integers.
    u64::from(lost) * u64::from(of) >= u64::from(part) * u64::from(total)
}

/// The break points lost when an army breaks: the least `lost` with `broken`.
pub fn break_at(total: u32, fraction: (u32, u32)) -> u32 {
    let (part, of) = fraction;
    (u64::from(part) * u64::from(total)).div_ceil(u64::from(of.max(1))) as u32
}

/// Who loses when the same command breaks both armies (R-break): the side that has
/// lost the larger share of its break points; `None` for an exact tie (a draw).
/// `lost` and `total` are per side.
pub fn first_broken(lost: [u32; 2], total: [u32; 2]) -> Option<usize> {
    // lost[0] / total[0] against lost[1] / total[1], in integers.
    let a = u64::from(lost[0]) * u64::from(total[1]);
    let b = u64::from(lost[1]) * u64::from(total[0]);
    match a.cmp(&b) {
        Ordering::Greater => Some(0),
        Ordering::Less => Some(1),
        Ordering::Equal => None,
    }
}

//! The Morale Test of Charles the Bold (CtB 7.0-7.4): the adjusted morale, the morale
//! loss a die gives, the SP it costs under the caps of fire (and the melee's, given by the
//! caller), the loss taken off the back ranks first, and the exact distribution of the
//! outcomes of a test and of a whole fire.

use super::data::{FireFactors, MoraleFactors};
use super::pool::hit_distribution;

/// What the Morale Test needs to know of the stand that takes it (CtB 7.0, 7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tester {
    /// The starting morale: the front rank's initial SP (CtB 7.0, 7.4).
    pub start: u8,
    /// The front rank's permanent losses: none while back ranks remain (CtB 7.4).
    pub lost: u8,
    /// Disordered before the test (CtB 7.0, 7.3).
    pub disordered: bool,
    /// A general attached to the stand (CtB 2.2, 7.0).
    pub general: bool,
}

impl Tester {
    /// The tester of a stand with `ranks` SP now, front first, and `initial` SP per rank
    /// at the start: the front rank's figures, which back ranks shield (CtB 7.4).
    pub fn of_ranks(ranks: &[u8], initial: &[u8], disordered: bool, general: bool) -> Self {
        let start = initial.first().copied().unwrap_or(0);
        let now = ranks.first().copied().unwrap_or(0);
        Self {
            start,
            lost: start.saturating_sub(now),
            disordered,
            general,
        }
    }
}

/// The adjusted morale after `hits`: starting morale, less the hits, less the permanent
/// losses, less 1 disordered, plus 1 for an attached general, never below 1 (CtB 7.0).
pub fn adjusted_morale(t: &Tester, hits: u32, f: &MoraleFactors) -> u8 {
    let mut m = i64::from(t.start) - i64::from(hits) - i64::from(t.lost);
    if t.disordered {
        m += i64::from(f.disordered);
    }
    if t.general {
        m += i64::from(f.general);
    }
    m.clamp(i64::from(f.min_adjusted), i64::from(u8::MAX)) as u8
}

/// The morale loss of a die `face` against an adjusted morale (CtB 7.0): the face less the
/// adjusted morale when positive; a 1 always passes; a 6 always fails; from an adjusted
/// morale of 6 (`high`) only a 6 fails, for a single loss (`high_loss`; R-morale reads the
/// text's "commencing Morale" there as the adjusted one, like the sentence before it).
pub fn morale_loss(adjusted: u8, face: u8, f: &MoraleFactors) -> u8 {
    let loss = if face <= 1 {
        0
    } else if adjusted >= f.high {
        if face == 6 { f.high_loss } else { 0 }
    } else {
        face.saturating_sub(adjusted)
    };
    if face == 6 { loss.max(1) } else { loss }
}

/// The SP one Morale Test costs, and whether it was only the disorder's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpLoss {
    pub sp: u8,
    /// The SP was lost only because the stand was already disordered (CtB 7.3): it does
    /// not count as a loss for the outcome of a melee.
    pub by_disorder: bool,
}

/// The SP a morale loss costs under `cap` (1 for fire, CtB 6.0, 7.1; the melee's caps,
/// CtB 11.0, 11.1, are the caller's); a stand disordered before the test loses at least 1,
/// not in addition (CtB 7.3), within the cap (R-caps).
pub fn sp_loss(morale_loss: u8, cap: u8, disordered_before: bool) -> SpLoss {
    let sp = morale_loss.min(cap);
    if sp == 0 && disordered_before && cap > 0 {
        SpLoss {
            sp: 1,
            by_disorder: true,
        }
    } else {
        SpLoss {
            sp,
            by_disorder: false,
        }
    }
}

/// The most SP one firing stand costs its target: 1, or 2 for artillery attacked
/// frontally firing defensive or supporting fire (CtB 6.0, 7.1).
pub fn fire_cap(f: &FireFactors, artillery_frontal: bool) -> u8 {
    if artillery_frontal {
        f.art_frontal_cap
    } else {
        f.cap
    }
}

/// One Morale Test: its adjusted morale, the die, the morale loss and the SP lost. The
/// stand is disordered after it whatever the result (CtB 7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestResult {
    pub adjusted: u8,
    pub face: u8,
    pub morale_loss: u8,
    pub loss: SpLoss,
}

/// The Morale Test of a stand hit `hits` times, with the die `face` and the SP cap of the
/// fire or melee (CtB 7.0-7.3).
pub fn test(t: &Tester, hits: u32, face: u8, cap: u8, f: &MoraleFactors) -> TestResult {
    let adjusted = adjusted_morale(t, hits, f);
    let morale_loss = morale_loss(adjusted, face, f);
    TestResult {
        adjusted,
        face,
        morale_loss,
        loss: sp_loss(morale_loss, cap, t.disordered),
    }
}

/// The probability of each morale loss (index 0 to 5) of a test at an adjusted morale,
/// over the six faces (CtB 7.0).
pub fn loss_distribution(adjusted: u8, f: &MoraleFactors) -> [f64; 6] {
    let mut p = [0.0; 6];
    for face in 1..=6 {
        p[usize::from(morale_loss(adjusted, face, f)).min(5)] += 1.0 / 6.0;
    }
    p
}

/// The probability of each SP loss (index 0 to `cap`) of the Morale Test of a stand hit
/// `hits` times, over the six faces (CtB 7.0-7.3).
pub fn test_distribution(t: &Tester, hits: u32, cap: u8, f: &MoraleFactors) -> Vec<f64> {
    let mut p = vec![0.0; usize::from(cap) + 1];
    for face in 1..=6 {
        p[usize::from(test(t, hits, face, cap, f).loss.sp)] += 1.0 / 6.0;
    }
    p
}

/// The chances of a fire of `dice` dice at a stand: no hit (so no test, CtB 6.4), or a
/// test that costs each number of SP (index 0 = disordered only, CtB 7.3).
#[derive(Clone, Debug, PartialEq)]
pub struct FireChances {
    pub no_hit: f64,
    pub by_sp: Vec<f64>,
}

/// The exact chances of a fire of `dice` dice at a stand under `cap`: over every number
/// of hits (CtB 6.4) and every face of the target's Morale Test (CtB 7.0-7.3).
pub fn fire_distribution(dice: u32, t: &Tester, cap: u8, f: &MoraleFactors) -> FireChances {
    let hits = hit_distribution(dice);
    let mut by_sp = vec![0.0; usize::from(cap) + 1];
    for (h, ph) in hits.iter().enumerate().skip(1) {
        for (sp, q) in test_distribution(t, h as u32, cap, f).iter().enumerate() {
            by_sp[sp] += ph * q;
        }
    }
    FireChances {
        no_hit: hits[0],
        by_sp,
    }
}

/// Takes `sp` SP off a stand's ranks (front first in `ranks`), the back rank first; a rank
/// at 0 is removed and what is left of the loss goes on to the rank in front (CtB 1.2,
/// 7.4). Returns how many ranks were removed, for the break points (R-BP); a stand with
/// no rank left is destroyed (CtB 7.1).
pub fn take_losses(ranks: &mut Vec<u8>, sp: u8) -> u32 {
    let mut left = sp;
    let mut removed = 0;
    while left > 0 {
        let Some(back) = ranks.last_mut() else {
            break;
        };
        let taken = left.min(*back);
        *back -= taken;
        left -= taken;
        if *back == 0 {
            ranks.pop();
            removed += 1;
        }
    }
    removed
}

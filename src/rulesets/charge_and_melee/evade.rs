//! The evade test (C&M 7.11): the die (AvD for A grade) + Morale Value - 1 a DP (a
//! shaken unit counts 5) + the CPs of an inspiring leader within one javelin throw.
//! 1 or more evades; 0 or less breaks a shaken unit, else shakes it and it receives the
//! charge at the halt.

use super::data::EvadeChart;

/// What an evading unit brings to its test.
#[derive(Clone, Copy, Debug, Default)]
pub struct EvadeTest {
    /// The die's value (already read through the grade's die: `dice::grade_value`).
    pub die: u8,
    pub morale: i8,
    pub dps: u8,
    pub shaken: bool,
    /// CPs of a leader within 1 JT who allocated CPs to inspire; 0 if none.
    pub inspiring_cps: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvadeOutcome {
    /// Becomes unformed and makes a full fast move directly away.
    Evades,
    /// Was not shaken: becomes shaken and receives the charge at the halt.
    ShakenAndStands,
    /// Was shaken: breaks.
    Breaks,
}

/// The modified score of the test.
pub fn evade_score(chart: &EvadeChart, t: &EvadeTest) -> i32 {
    // "Shaken counts as 5 DPs": the shaken marker stands for the DPs (spec B.2 §5).
    let dps = if t.shaken { chart.shaken_dps } else { t.dps };
    i32::from(t.die) + i32::from(t.morale) - i32::from(dps) + i32::from(t.inspiring_cps)
}

/// The outcome of the test.
pub fn evade_outcome(chart: &EvadeChart, t: &EvadeTest) -> EvadeOutcome {
    if evade_score(chart, t) >= chart.evades_from {
        EvadeOutcome::Evades
    } else if t.shaken {
        EvadeOutcome::Breaks
    } else {
        EvadeOutcome::ShakenAndStands
    }
}

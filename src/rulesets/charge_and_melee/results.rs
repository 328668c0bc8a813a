//! What a charge result does to a unit (C&M 7.15's results chart, 7.16): its DPs and
//! casualties, whether it becomes shaken, and the moves it may choose among (one is
//! compelled). Losers move first, then winners choose (7.16); a winner's follow-up or
//! pursuit is aimed at what its opponents did.

use super::data::{Category, ChargeChart, ChargeResult, FormationId, Grade, TroopType};

/// The moves after a charge (7.16), and capture (the results chart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AfterCharge {
    Halt,
    FollowUp,
    FallBack,
    Retire,
    Break,
    Pursue,
    Captured,
}

/// A unit's circumstances that the results chart reads.
#[derive(Clone, Copy, Debug)]
pub struct ResultContext<'a> {
    pub troop: &'a TroopType,
    pub grade: Grade,
    pub formation: FormationId,
    pub shaken: bool,
    /// It charged or counter-charged.
    pub charged: bool,
    /// It stood to receive a charge by mounted troops.
    pub stood_against_mounted: bool,
    /// It was charged by mounted troops only.
    pub charged_by_mounted_only: bool,
    /// Cavalry that charged good-order infantry frontally.
    pub charged_good_order_foot_frontally: bool,
    /// Every opponent was light troops.
    pub opposed_only_by_light: bool,
}

/// What a result does to one unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub dps: u8,
    pub casualties: u8,
    pub becomes_shaken: bool,
    /// The moves it may choose among; one alone is compelled.
    pub moves: Vec<AfterCharge>,
    /// Victory: cavalry that choose not to pursue take this many DPs.
    pub dps_if_no_pursuit: u8,
}

fn is_heavy_foot(t: &TroopType) -> bool {
    // Infantry that are not light read the heavy infantry's row (crossbowmen, rabble:
    // designer's, the chart names only heavy and light infantry).
    t.category == Category::Infantry && !t.light
}

/// The outcome of `result` for a unit (results chart).
pub fn outcome(chart: &ChargeChart, result: ChargeResult, c: &ResultContext) -> Outcome {
    use AfterCharge::*;
    let band = chart.bands.iter().find(|b| b.result == result);
    let (mut dps, casualties) = band.map_or((0, 0), |b| (b.dps, b.casualties));
    let t = c.troop;
    let cavalry = t.category == Category::Cavalry;
    let artillery = t.category == Category::Artillery;
    let unformed = c.formation == FormationId::Unformed;
    let mut becomes_shaken = false;
    let mut dps_if_no_pursuit = 0;
    let moves = match result {
        ChargeResult::Victory => {
            if cavalry {
                dps_if_no_pursuit = 1;
            }
            if artillery {
                vec![Halt]
            } else if c.grade == Grade::A || (c.grade == Grade::B && !c.charged) {
                vec![Halt, Pursue]
            } else {
                vec![Pursue]
            }
        }
        ChargeResult::Success => {
            let stood_foot =
                (t.category == Category::Infantry || artillery) && c.stood_against_mounted;
            if stood_foot {
                dps = 0;
                vec![Halt]
            } else if cavalry && c.charged_good_order_foot_frontally {
                vec![Retire]
            } else if c.grade == Grade::A || (!c.charged && c.opposed_only_by_light) {
                // Other A grade choose; so may B-C units that did not charge and met
                // only light troops (they "may opt to halt").
                vec![Halt, FollowUp, Pursue]
            } else {
                // Follow up opponents who fell back, pursue those who retired.
                vec![FollowUp, Pursue]
            }
        }
        ChargeResult::Inconclusive => {
            if is_heavy_foot(t) && t.heavy && c.formation == FormationId::Shieldwall {
                dps = 0;
            }
            if artillery {
                vec![Halt]
            } else if t.category == Category::Infantry && t.light {
                vec![Halt, FallBack, Retire]
            } else if is_heavy_foot(t) {
                vec![Halt, FallBack]
            } else if cavalry && c.charged_good_order_foot_frontally {
                vec![Retire]
            } else if t.shock || t.category == Category::Elephants {
                vec![Halt, FollowUp]
            } else {
                vec![Halt, FollowUp, Retire]
            }
        }
        ChargeResult::SetBack => {
            if c.shaken {
                dps = 0;
                vec![Break]
            } else if artillery
                || t.category == Category::Elephants
                || (is_heavy_foot(t) && t.heavy && c.charged_by_mounted_only)
            {
                vec![Halt]
            } else if unformed {
                vec![Retire]
            } else {
                vec![FallBack]
            }
        }
        ChargeResult::Defeat => {
            if artillery {
                vec![Captured]
            } else if unformed || t.category == Category::Elephants {
                vec![Break]
            } else {
                becomes_shaken = !c.shaken;
                vec![Retire]
            }
        }
        ChargeResult::Rout => {
            if artillery {
                return Outcome {
                    dps: 0,
                    casualties: 0,
                    becomes_shaken: false,
                    moves: vec![Captured],
                    dps_if_no_pursuit: 0,
                };
            }
            vec![Break]
        }
    };
    Outcome {
        dps,
        casualties,
        becomes_shaken,
        moves,
        dps_if_no_pursuit,
    }
}

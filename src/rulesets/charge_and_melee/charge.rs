//! The charge resolution (C&M 7.15): each unit's die (AvD for A grade) + its Attack
//! Factor if it charged or counter-charged, its Defence Factor otherwise, with the
//! chart's modifiers; a battle line totals its units and divides by their number,
//! rounding up; each side reads its result on its own total less the enemy's.

use super::data::{ChargeChart, ChargeResult, FormationId, ResultBand, Tables, TroopType};

/// A leader in the unit's front rank (7.15): his CPs count only if he allocated the
/// chart's `inspire_cps` to inspire.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrontRankLeader {
    pub cps: u8,
    pub allocated_to_inspire: u8,
}

/// One unit of a side in a charge combat, as 7.15's factors see it.
#[derive(Clone, Copy, Debug)]
pub struct ChargingUnit<'a> {
    pub troop: &'a TroopType,
    /// Charged or counter-charged: adds the Attack Factor; else the Defence Factor.
    pub charged: bool,
    /// The die's value (already read through the grade's die: `dice::grade_value`).
    pub die: u8,
    pub morale: i8,
    pub formation: FormationId,
    pub dps: u8,
    pub casualties: u8,
    pub shaken: bool,
    pub advantage_of_ground: bool,
    pub fortification: bool,
    pub supported: bool,
    /// Mounted, charging unformed foot.
    pub against_unformed_foot: bool,
    pub leader: Option<FrontRankLeader>,
}

impl<'a> ChargingUnit<'a> {
    /// A formed unit in line with no modifier but its die: tests and callers set the rest.
    pub fn new(troop: &'a TroopType, charged: bool, die: u8) -> Self {
        Self {
            troop,
            charged,
            die,
            morale: 0,
            formation: FormationId::Line,
            dps: 0,
            casualties: 0,
            shaken: false,
            advantage_of_ground: false,
            fortification: false,
            supported: false,
            against_unformed_foot: false,
            leader: None,
        }
    }
}

/// The outnumbering modifier of a side that counts `own` stands against `enemy` (7.15:
/// the largest tier that applies; elephants are never outnumbered).
pub fn outnumbered(chart: &ChargeChart, own: u32, enemy: u32, elephants: bool) -> i8 {
    if elephants {
        return 0;
    }
    chart
        .outnumbered
        .iter()
        .rev()
        .find(|t| enemy * u32::from(t.at_least.1) >= own * u32::from(t.at_least.0))
        .map_or(0, |t| t.modifier)
}

/// One unit's total, with its side's outnumbering modifier (7.15).
pub fn unit_total(tables: &Tables, u: &ChargingUnit, outnumbered: i8) -> i32 {
    let chart = &tables.charts.charge;
    let factor = if u.charged {
        u.troop.attack
    } else {
        u.troop.defence
    };
    let mut total = i32::from(u.die) + i32::from(factor) + i32::from(u.morale);
    let add = |on: bool, m: i8| if on { i32::from(m) } else { 0 };
    total += add(u.advantage_of_ground, chart.advantage_of_ground);
    total += add(u.fortification, chart.fortification);
    total += add(u.supported, chart.supported);
    total += add(
        u.against_unformed_foot,
        chart.mounted_charging_unformed_foot,
    );
    if let Some(l) = u
        .leader
        .filter(|l| l.allocated_to_inspire >= chart.inspire_cps)
    {
        total += i32::from(l.cps);
    }
    total += i32::from(u.dps) * i32::from(chart.per_dp);
    total += i32::from(u.casualties) * i32::from(chart.per_casualty);
    total += add(u.shaken, chart.shaken);
    total += i32::from(tables.formation(u.formation).charge_modifier);
    total + i32::from(outnumbered)
}

/// A side's score (7.15, "Multiple Unit Charges"): its units' totals added and divided by
/// their number, rounded up (towards the higher number, negative totals too); 0 for no
/// unit. The outnumbering modifier is in each unit's total, so the side bears it once.
pub fn side_score(tables: &Tables, units: &[ChargingUnit], outnumbered: i8) -> i32 {
    let n = units.len() as i32;
    if n == 0 {
        return 0;
    }
    let sum: i32 = units
        .iter()
        .map(|u| unit_total(tables, u, outnumbered))
        .sum();
    -((-sum).div_euclid(n))
}

/// The band of a side's own score less the enemy's (results chart; spec B.2 §12).
pub fn band(chart: &ChargeChart, own: i32, enemy: i32) -> &ResultBand {
    let difference = own - enemy;
    chart
        .bands
        .iter()
        .find(|b| b.from.is_none_or(|from| difference >= from))
        .unwrap_or_else(|| chart.bands.last().expect("parse checked six bands"))
}

/// The result a side reads (results chart).
pub fn result(chart: &ChargeChart, own: i32, enemy: i32) -> ChargeResult {
    band(chart, own, enemy).result
}

/// A unit's stands in a charge combat, as 7.15's "Numbers" and "Supported" count them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Frontage {
    /// Stands in base to base contact.
    pub engaged: u32,
    /// Stands overlapping on each flank (at most one a flank counts).
    pub overlapping: [u32; 2],
    /// Stands directly behind the engaged ones, facing the enemy (a second rank).
    pub second_rank: u32,
    /// It charged in cuneus: its second rank counts in numbers.
    pub charged_in_cuneus: bool,
    /// It was hit in the flank or rear.
    pub hit_in_flank_or_rear: bool,
}

/// The stands a unit counts for outnumbering (7.15, "Numbers"): the engaged stands, at
/// most one overlapping on each flank, and a cuneus's second rank; a unit hit in the
/// flank or rear counts its engaged stands alone.
pub fn stands_counted(f: &Frontage) -> u32 {
    if f.hit_in_flank_or_rear {
        return f.engaged;
    }
    let overlaps: u32 = f.overlapping.iter().map(|&n| n.min(1)).sum();
    let second = if f.charged_in_cuneus {
        f.second_rank
    } else {
        0
    };
    f.engaged + overlaps + second
}

/// Whether a unit is supported (7.15): a second rank directly behind its engaged stands,
/// more than half as many; none when hit in the flank or rear, as the text's second
/// example of numbers says.
pub fn supported(f: &Frontage) -> bool {
    !f.hit_in_flank_or_rear && f.engaged > 0 && 2 * f.second_rank > f.engaged
}

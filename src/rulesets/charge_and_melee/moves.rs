//! Charge, counter-charge and evade moves (C&M 7.4, 7.6, 7.7, 7.11, 7.14) and the
//! distances they are measured in. Distances are gaps, as miniatures measure them: two
//! units n javelin throws apart stand at hex distance n + 1, contact is adjacency, and a
//! move of n hexes contacts a target whose gap is at most n (spec B.2 §1).

use crate::engine::hex::HexCoord;

use super::data::{Category, ChargeMoveChart, MoveDice};

/// The gap in javelin throws between two hexes: 0 when adjacent (contact).
pub fn gap(a: HexCoord, b: HexCoord) -> u32 {
    a.distance(b).saturating_sub(1)
}

/// The move dice a category rolls (7.6): cavalry theirs, infantry and elephants the
/// foot dice (artillery never charges, read as foot).
fn dice_of(chart: &ChargeMoveChart, category: Category) -> MoveDice {
    match category {
        Category::Cavalry => chart.mounted,
        Category::Infantry | Category::Elephants | Category::Artillery => chart.foot,
    }
}

/// Hexes of a fast move on a move die (7.6): infantry and elephants D6 - 1 (1 on a 1),
/// cavalry D6 + 1 up to 6.
pub fn fast_move(chart: &ChargeMoveChart, category: Category, die: u8) -> u8 {
    let dice = dice_of(chart, category);
    let hexes = i16::from(die) + i16::from(dice.add);
    hexes.clamp(i16::from(dice.min), i16::from(dice.max)) as u8
}

/// Whether a move die costs a DP for fatigue (7.7): 5-6, or 4-6 in difficult terrain.
pub fn fatigue_dp(chart: &ChargeMoveChart, die: u8, difficult: bool) -> bool {
    let from = if difficult {
        chart.fatigue_from_difficult
    } else {
        chart.fatigue_from
    };
    die >= from
}

/// Hexes of an evade move (7.11, 7.14's example): the fast move, + 1 for light troops
/// (an evader becomes unformed), - 1 if it waits to shoot; never below 0.
pub fn evade_move(
    chart: &ChargeMoveChart,
    category: Category,
    light: bool,
    die: u8,
    shoots: bool,
) -> u8 {
    let mut hexes = i16::from(fast_move(chart, category, die));
    if light {
        hexes += i16::from(chart.unformed_light_bonus);
    }
    if shoots {
        hexes += i16::from(chart.shooting_evader);
    }
    hexes.max(0) as u8
}

/// Whether a move of `hexes` closes a gap of `gap` JT into contact.
pub fn contacts(gap: u32, hexes: u8) -> bool {
    gap <= u32::from(hexes)
}

/// Whether a chaser of `chaser_hexes` catches an evader that starts `gap` JT away and
/// moves `evade_hexes` directly away (7.11, 7.14's example).
pub fn catches_evader(gap: u32, evade_hexes: u8, chaser_hexes: u8) -> bool {
    contacts(gap + u32::from(evade_hexes), chaser_hexes)
}

/// Whether a unit may declare a charge on a target `gap` JT away (7.4): cavalry and
/// elephants up to bow range, infantry only one javelin throw away; never at contact
/// (units in contact are in mêlée, 7.18).
pub fn may_charge_across(chart: &ChargeMoveChart, category: Category, gap: u32) -> bool {
    match category {
        Category::Cavalry | Category::Elephants => {
            (1..=u32::from(chart.mounted_reach)).contains(&gap)
        }
        Category::Infantry => gap == u32::from(chart.foot_reach),
        Category::Artillery => false,
    }
}

/// A number of hexes in words: "1 hex", "3 hexes".
pub fn hexes(n: impl Into<u32>) -> String {
    let n = n.into();
    if n == 1 {
        "1 hex".to_string()
    } else {
        format!("{n} hexes")
    }
}

//! Charles the Bold's fire pool and step costs (`charles_the_bold::fire`, `movement`):
//! the dice a rank throws at a range, term by term, from the built-in tables and the
//! text's examples (T3, T9), and the MP of a step by class, terrain and hexside.

use bataille::rulesets::charles_the_bold::data::{ArmyEntry, Tables};
use bataille::rulesets::charles_the_bold::fire::{FireSituation, fire_pool};
use bataille::rulesets::common::RulesetTables;

fn tables() -> Tables {
    Tables::builtin().expect("the built-in Charles the Bold tables load")
}

fn entry<'t>(t: &'t Tables, army: &str, id: &str) -> &'t ArmyEntry {
    t.entry(army, id).unwrap_or_else(|| panic!("{army} {id}"))
}

#[test]
fn ctb_6_0_crossbow_sk_pool_with_moves_before_and_after() {
    // T3: a crossbow Sk of 2 SP, unmoved, throws 2D6 at 2H and 1D6 at 3H.
    let t = tables();
    let f = &t.factors.fire;
    let sk = entry(&t, "french", "crossbow_sk");
    let still = FireSituation::default();
    let dice = |range, s| fire_pool(sk, None, f, 2, range, s).map(|p| p.dice());
    assert_eq!((dice(2, still), dice(3, still)), (Some(2), Some(1)));
    assert_eq!(dice(4, still), None, "no 4H column: it cannot fire there");
    // -1D6 for a move before and -1D6 for moving after (CtB 6.0): 2 - 1 - 1 = 0.
    let moved = FireSituation {
        moves_before: 1,
        moving_after: true,
        ..still
    };
    let pool = fire_pool(sk, None, f, 2, 2, moved).unwrap();
    assert_eq!(pool.dice(), 0);
    let rules: Vec<&str> = pool.terms.iter().map(|t| t.rule).collect();
    assert_eq!(rules, ["CtB 1.3", "CtB 6.0", "CtB 6.0"], "{pool:?}");
    // Two moves before: -2D6; a pool never throws fewer than none.
    let twice = FireSituation {
        moves_before: 2,
        ..still
    };
    assert_eq!(dice(2, twice), Some(0));
}

#[test]
fn ctb_6_1_archers_at_4h_front_then_rear_disorder_and_cover() {
    // T9: archers at 4H, full strength, unmoved: 2D6 from the front rank, then 1D6
    // from the rear (the longbow's -1D6, CtB 6.1).
    let t = tables();
    let f = &t.factors.fire;
    let archers = entry(&t, "english", "archers");
    let longbow = t.special("longbow");
    let front = fire_pool(archers, longbow, f, 4, 4, FireSituation::default()).unwrap();
    let rear_rank = FireSituation {
        rear_rank: true,
        ..FireSituation::default()
    };
    let rear = fire_pool(archers, longbow, f, 4, 4, rear_rank).unwrap();
    assert_eq!((front.dice(), rear.dice()), (2, 1));
    assert!(
        rear.terms
            .iter()
            .any(|t| t.rule == "CtB 6.1" && t.dice == -1)
    );
    // Disordered and at a target in cover: -1D6 each.
    let worse = FireSituation {
        disordered: true,
        target_in_cover: true,
        ..FireSituation::default()
    };
    let pool = fire_pool(archers, longbow, f, 4, 2, worse).unwrap();
    assert_eq!(pool.dice(), 2, "4 SP at 2H, -1 disordered, -1 cover");
    assert!(pool.terms.iter().any(|t| t.rule == "CtB 6.2"));
    assert!(pool.terms.iter().any(|t| t.rule.contains("Summary Sheet")));
}

/// A 6x6 board of the CtB terrain: woods 0303, marsh 0304, a lake 0305, a hillside
/// 0403; a stream 0202|0203, a river with a ford 0101|0102 and one without 0501|0502,
/// a road 0302|0303.
fn board(t: &Tables) -> bataille::engine::board::Board {
    use bataille::engine::board::{Board, HexsideFeature, TerrainId};
    use bataille::engine::hex::{HexCoord, Hexside};
    let names = t.terrain_names();
    let id = |n: &str| TerrainId(names.iter().position(|x| x == n).unwrap() as u8);
    let mut b = Board::new(6, 6, names.clone());
    for h in b.hexes().collect::<Vec<_>>() {
        b.set_terrain(h, id("clear"));
    }
    let h = |s: &str| HexCoord::parse(s).unwrap();
    b.set_terrain(h("0303"), id("woods"));
    b.set_terrain(h("0304"), id("marsh"));
    b.set_terrain(h("0305"), id("lake"));
    b.set_elevation(h("0403"), 1);
    let side = |a, c| Hexside::between(h(a), h(c)).unwrap();
    b.add_hexside_feature(side("0202", "0203"), HexsideFeature::Stream);
    b.add_hexside_feature(side("0101", "0102"), HexsideFeature::River);
    b.add_hexside_feature(side("0101", "0102"), HexsideFeature::Ford);
    b.add_hexside_feature(side("0501", "0502"), HexsideFeature::River);
    b.add_hexside_feature(side("0302", "0303"), HexsideFeature::Road);
    b
}

#[test]
fn ctb_3_0_step_costs_by_class_terrain_climb_stream_river_and_road() {
    use bataille::engine::hex::HexCoord;
    use bataille::rulesets::charles_the_bold::data::TerrainClass::*;
    use bataille::rulesets::charles_the_bold::movement::step_cost;
    let t = tables();
    let b = board(&t);
    let h = |s: &str| HexCoord::parse(s).unwrap();
    let cost = |class, a: &str, c: &str| step_cost(&t, &b, class, h(a), h(c));
    // Clear 1 for all; woods 2 for close foot, 1 light foot, 3 mounted, none for guns.
    assert_eq!(cost(CloseFoot, "0202", "0201"), Some(1));
    assert_eq!(
        [CloseFoot, LightFoot, Mounted, Guns].map(|c| cost(c, "0203", "0303")),
        [Some(2), Some(1), Some(3), None]
    );
    // Marsh: no horse; the lake: no one.
    assert_eq!(cost(Mounted, "0204", "0304"), None);
    assert_eq!(cost(LightFoot, "0204", "0305"), None);
    // Climbing into the hillside: +1 for mounted and guns, nothing for foot.
    assert_eq!(cost(Mounted, "0503", "0403"), Some(2));
    assert_eq!(cost(CloseFoot, "0503", "0403"), Some(1));
    assert_eq!(
        cost(Mounted, "0403", "0503"),
        Some(1),
        "down costs nothing more"
    );
    // A stream +1; a river only at its ford; along the road, the road's 1 into woods.
    assert_eq!(cost(CloseFoot, "0202", "0203"), Some(2));
    assert_eq!(cost(CloseFoot, "0101", "0102"), Some(1));
    assert_eq!(cost(CloseFoot, "0501", "0502"), None);
    assert_eq!(cost(Mounted, "0302", "0303"), Some(1));
    // Not a step: off the map or not adjacent.
    assert_eq!(cost(CloseFoot, "0101", "0100"), None);
    assert_eq!(cost(CloseFoot, "0101", "0303"), None);
}

#[test]
fn ctb_6_0_skirmishers_and_shot_lose_a_die_against_heavy_cavalry() {
    use bataille::rulesets::charles_the_bold::fire::{FireSituation, fire_pool};
    let t = bataille::rulesets::charles_the_bold::data::Tables::builtin().unwrap();
    let sk = t.entry("french", "crossbow_sk").unwrap();
    let f = &t.factors.fire;
    let plain = FireSituation::default();
    let armoured = FireSituation {
        target_armoured: true,
        ..plain
    };
    let a = fire_pool(sk, None, f, 2, 2, plain).unwrap().dice();
    let b = fire_pool(sk, None, f, 2, 2, armoured).unwrap();
    assert_eq!(b.dice() as i64, a as i64 - 1, "{b:?}");
    assert!(b.terms.iter().any(|t| t.what == "armoured target"));
}

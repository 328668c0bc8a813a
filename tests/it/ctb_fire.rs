//! Charles the Bold's fire pool (`charles_the_bold::fire`): the dice a rank throws at a
//! range, term by term, from the built-in tables and the text's examples (T3, T9).

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

//! Charles the Bold, as far as it is built: its tables (types, terrain, factors, orders,
//! army lists, Special Units) with their located refusals, the dice pools and their exact
//! hit distribution, and the Morale Test, each test named after the section it checks and
//! the text's worked examples with their numbers (design §5: T0, T3, T5, T6, T9, T12).

use crate::common::place;
use bataille::engine::error::LocatedError;
use bataille::rulesets::charles_the_bold::data::{self, ArmyEntry, Role, Tables};
use bataille::rulesets::charles_the_bold::morale::{
    Tester, adjusted_morale, fire_cap, fire_distribution, loss_distribution, morale_loss, sp_loss,
    take_losses, test, test_distribution,
};
use bataille::rulesets::charles_the_bold::pool::{Pool, count_hits, hit_counts, hit_distribution};
use bataille::rulesets::common::RulesetTables;

fn tables() -> Tables {
    Tables::builtin().expect("the built-in Charles the Bold tables load")
}

fn entry<'t>(t: &'t Tables, army: &str, id: &str) -> &'t ArmyEntry {
    t.entry(army, id)
        .unwrap_or_else(|| panic!("{army} list has {id}"))
}

/// The built-in tables with `from` replaced by `to` in file `file` (in the order of
/// `data::FILES`), parsed; the error expected.
fn refused(file: usize, from: &str, to: &str) -> LocatedError {
    let mut texts = [
        data::TYPES_RON,
        data::TERRAIN_RON,
        data::FACTORS_RON,
        data::ORDERS_RON,
        data::ARMIES_RON,
        data::SPECIAL_RON,
    ]
    .map(str::to_string);
    assert!(texts[file].contains(from), "the table has `{from}`");
    texts[file] = texts[file].replacen(from, to, 1);
    Tables::parse(data::FILES, texts).expect_err("the changed table is refused")
}

fn tester(start: u8, disordered: bool) -> Tester {
    Tester {
        start,
        lost: 0,
        disordered,
        general: false,
    }
}

// ---- the tables (CtB 1.3, 15.x, 16.0) ----

#[test]
fn ctb_15_0_every_list_entry_has_a_type() {
    let t = tables();
    let mut n = 0;
    for entries in t.armies.armies.values() {
        for e in entries {
            assert!(
                t.type_spec(&e.kind).is_some(),
                "{} has type {}",
                e.id,
                e.kind
            );
            n += 1;
        }
    }
    assert!(n >= 20, "{n} list entries");
}

#[test]
fn ctb_15_1_combat_types() {
    let t = tables();
    for id in ["HI", "LI", "LSp", "Pk", "WB", "HC", "MC", "Bills"] {
        assert_eq!(
            t.type_spec(id).expect(id).role,
            Role::Combat,
            "{id} (CtB 15.1)"
        );
    }
}

#[test]
fn ctb_15_2_support_types() {
    let t = tables();
    for id in ["Art", "Sk", "Sh", "LC"] {
        assert_eq!(
            t.type_spec(id).expect(id).role,
            Role::Support,
            "{id} (CtB 15.2)"
        );
    }
    assert_eq!(
        t.types.types.len(),
        12,
        "the twelve sub-categories of CtB 15.1, 15.2"
    );
}

#[test]
fn ctb_16_0_reading_the_english_list() {
    let t = tables();
    let fire = &t.factors.fire;
    // "Knights have 3 Movement Points the first time they move in a turn, and 2 MP for
    // any additional moves".
    let knights = entry(&t, "english", "knights");
    assert_eq!(
        (
            knights.mp_of_move(1),
            knights.mp_of_move(2),
            knights.mp_of_move(3)
        ),
        (3, 2, 2)
    );
    // "The front rank of the Foot has 5 Strength Points, the back rank 4 SP. Impact
    // Factor if charging is 1."
    let foot = entry(&t, "english", "english_foot");
    assert_eq!((foot.sp.as_slice(), foot.impact), (&[5, 4][..], 1));
    // Mounted crossbow, 3 SP, columns 0 and -1: 3D6 at 2H, 2D6 at 3H, nothing at 4H.
    let xbow = entry(&t, "english", "mounted_crossbow");
    assert_eq!(xbow.fire_dice(3, 2, fire), Some(3));
    assert_eq!(xbow.fire_dice(3, 3, fire), Some(2));
    assert_eq!(xbow.fire_dice(3, 4, fire), None);
    // "At the range of 4 hexes the Archers lose 2D6 ... 2D6 with the front and 1D6 with
    // the rear" (the rear rank's -1D6 of CtB 6.1, from the longbow's Special Units entry).
    let archers = entry(&t, "english", "archers");
    let front = archers.fire_dice(archers.sp[0], 4, fire).unwrap();
    let longbow = t.special("longbow").unwrap();
    assert!(archers.special.contains(&"longbow".to_string()) && longbow.double_rank_fire);
    let rear = archers.fire_dice(archers.sp[1], 4, fire).unwrap() + i32::from(longbow.rear_rank);
    assert_eq!((front, rear), (2, 1));
    assert_eq!(archers.fire_dice(4, 5, fire), None, "no 6H column");
    assert_eq!(
        (archers.bp, archers.total_bp()),
        (2, 4),
        "BP per rank (R-BP)"
    );
}

#[test]
fn ctb_1_3_sp_are_the_dice_thrown() {
    let t = tables();
    for entries in t.armies.armies.values() {
        for e in entries {
            assert_eq!(Pool::of_sp(e.sp[0]).dice(), u32::from(e.sp[0]), "{}", e.id);
        }
    }
    let mut p = Pool::of_sp(5);
    p.add(2, "impact", "CtB 10.3");
    p.add(0, "nothing", "CtB 10.4");
    p.add(-1, "disordered", "CtB 7.4");
    assert_eq!((p.dice(), p.terms.len()), (6, 3));
    p.add(-9, "everything", "CtB 6.0");
    assert_eq!(p.dice(), 0, "a pool never throws fewer than 0 dice");
}

#[test]
fn ctb_tables_a_bad_sp_cell_is_located_at_its_line_and_column() {
    let line = "(id: \"knights\",          class: C, type: \"HC\",  imp: Poor, mp: (3, 2), sp: [7]";
    let e = refused(4, line, &line.replace("sp: [7]", "sp: [17]"));
    assert!(
        e.message
            .contains("`knights` of the english list needs from 1 to 9 SP in each rank (CtB 1.3)"),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        place(data::ARMIES_RON, "\"knights\"", "sp:"),
        "{e}"
    );
    assert!(e.file.ends_with("armies.ron"), "{e}");
}

#[test]
fn ctb_tables_list_entries_are_checked_field_by_field() {
    let sk = "(id: \"crossbow_sk\",    class: B, type: \"Sk\"";
    let e = refused(4, sk, &sk.replace("\"Sk\"", "\"Sx\""));
    assert!(
        e.message
            .contains("a type of types.ron, not `Sx` (CtB 15.0)"),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        place(data::ARMIES_RON, "\"crossbow_sk\"", "type:")
    );
    let e = refused(4, "mp: (1, 1), sp: [5, 4, 4]", "mp: (1, 2), sp: [5, 4, 4]");
    assert!(
        e.message
            .contains("`schiltron` of the scots list needs a first move"),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        place(data::ARMIES_RON, "\"schiltron\"", "mp:")
    );
    let e = refused(
        4,
        "sp: [5, 4, 4], impact: 1, bp: 2),\n    ],\n    \"burgundian\"",
        "sp: [5, 4, 4, 4], impact: 1, bp: 2),\n    ],\n    \"burgundian\"",
    );
    assert!(
        e.message
            .contains("`pikes` of the low_countries list needs 1 to 3 ranks"),
        "{e}"
    );
    let e = refused(4, "special: [\"swiss_pike\"]", "special: [\"swiss_pikes\"]");
    assert!(e.message.contains("not `swiss_pikes` (CtB 6.1)"), "{e}");
    let e = refused(
        4,
        "type: \"HI\",    mp: (1, 1)",
        "type: \"HI\",    fire: (h2: 0), mp: (1, 1)",
    );
    assert!(
        e.message
            .contains("`dismounted_maa` of the french list needs no fire columns"),
        "{e}"
    );
    assert!(e.message.contains("(LC, Sk, Sh, Art)"), "{e}");
    assert_eq!(
        (e.line, e.column),
        place(
            &data::ARMIES_RON.replace("type: \"HI\",    mp", "type: \"HI\",    fire: (h2: 0), mp"),
            "\"dismounted_maa\"",
            "fire:"
        )
    );
    let e = refused(
        4,
        "type: \"LC\",  weapon: \"XBow\"",
        "type: \"LC\",  imp: Poor, weapon: \"XBow\"",
    );
    assert!(
        e.message
            .contains("no impetus: only Combat Stands are impetuous (CtB 9.0)"),
        "{e}"
    );
    let e = refused(
        4,
        "impact: 4, bp: 3),\n      (id: \"mounted_sergeant\"",
        "impact: 4, bp: 4),\n      (id: \"mounted_sergeant\"",
    );
    assert!(
        e.message.contains("1 to 3 break points a rank (CtB 14.0)"),
        "{e}"
    );
}

#[test]
fn ctb_tables_types_terrain_factors_orders_refusals_are_located() {
    let e = refused(
        0,
        "side: 2, back: 2, pursuit: Foot, ranks: (foot: 1, mounted: 3)",
        "side: 2, back: 0, pursuit: Foot, ranks: (foot: 1, mounted: 3)",
    );
    assert!(
        e.message
            .contains("stand type `Pk` needs a backwards cost from 1 to 9 MP a hex (CtB 3.7)"),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        place(data::TYPES_RON, "\"Pk\"", "back:")
    );
    let e = refused(
        1,
        "cost: (2, 2, None, None, None)",
        "cost: (2, 12, None, None, None)",
    );
    assert!(
        e.message
            .contains("terrain `marsh` needs costs from 1 to 9 MP"),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        place(data::TERRAIN_RON, "\"marsh\"", "cost:")
    );
    let e = refused(1, "no_charge: [\"HC\"]", "no_charge: [\"Knights\"]");
    assert!(e.message.contains("not `Knights` (types.ron)"), "{e}");
    // The melee's `disordered`, not fire's nor morale's, is pointed at.
    let e = refused(
        2,
        "melee: (min_dice: 1, disordered: -1",
        "melee: (min_dice: 1, disordered: 1",
    );
    assert!(
        e.message
            .contains("`disordered` takes dice away: a figure from -3 to 0, not 1"),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        place(data::FACTORS_RON, "melee: (", "disordered:")
    );
    let e = refused(2, "winner_cap: 1", "winner_cap: 0");
    assert!(
        e.message
            .contains("`winner_cap` is a figure from 1 to 5, not 0"),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        place(data::FACTORS_RON, "winner_cap", "winner_cap:")
    );
    let e = refused(
        2,
        "(from: 3, to: 3, column: H3)",
        "(from: 4, to: 4, column: H3)",
    );
    assert!(e.message.contains("(R-ranges)"), "{e}");
    let e = refused(3, "B: 4, C: 5", "B: 4, C: 7");
    assert!(
        e.message.contains("Order Test's thresholds are 2 to 6") && e.message.contains("CtB 8.1"),
        "{e}"
    );
    // Each fault at its own field: the general's move, a type's melee cap.
    let e = refused(3, "general_move: 6", "general_move: 0");
    assert!(
        e.message
            .contains("general's move is at least 1 hex (CtB 2.1)"),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        place(data::ORDERS_RON, "general_move", "general_move:")
    );
    let e = refused(0, "lost_max: 1", "lost_max: 4");
    assert!(
        e.message.contains("melee caps from 1 to 3 SP (CtB 11.1)"),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        place(data::TYPES_RON, "\"LC\"", "lost_max:")
    );
    let e = refused(3, "(faces: (4, 5), hexes: 2)", "(faces: (3, 5), hexes: 2)");
    assert!(
        e.message.contains("cavalry pursuit bands") && e.message.contains("CtB 13.0"),
        "{e}"
    );
    // A syntax fault is located by the RON reader itself.
    let e = refused(
        5,
        "charges_cavalry: true, keeps_impact: 2",
        "charges_cavalry: yes, keeps_impact: 2",
    );
    assert!(e.file.ends_with("special_units.ron") && e.line > 1, "{e}");
    let e = refused(5, "(id: \"schiltron\"", "(id: \"longbow\"");
    assert!(
        e.message.contains("special unit `longbow` is given twice"),
        "{e}"
    );
}

// ---- hits (CtB 6.0, 6.4) ----

#[test]
fn ctb_6_4_hits_sixes_and_pairs_of_fives() {
    assert_eq!(count_hits(&[6, 1]), 1);
    assert_eq!(count_hits(&[5, 5]), 1);
    assert_eq!(count_hits(&[6, 6]), 2);
    assert_eq!(count_hits(&[5]), 0, "an odd 5 scores nothing (R-hits)");
    assert_eq!(count_hits(&[5, 5, 5]), 1);
    assert_eq!(count_hits(&[5, 6, 5, 5, 5, 4]), 3);
    assert_eq!(count_hits(&[1, 2, 3, 4]), 0);
    assert_eq!(count_hits(&[]), 0);
}

/// Every throw of `n` dice, counted by hits.
fn brute_force(n: u32) -> Vec<u128> {
    let mut counts = vec![0u128; n as usize + 1];
    for mut code in 0..6u32.pow(n) {
        let mut faces = Vec::new();
        for _ in 0..n {
            faces.push((code % 6) as u8 + 1);
            code /= 6;
        }
        counts[count_hits(&faces) as usize] += 1;
    }
    counts
}

#[test]
fn ctb_6_4_hit_distribution_is_exact_and_sums_to_one() {
    for n in 0..=5 {
        let exact = hit_counts(n).unwrap();
        assert_eq!(exact, brute_force(n), "{n} dice");
        let total = 6f64.powi(n as i32);
        for (h, p) in hit_distribution(n).iter().enumerate() {
            assert!(
                (p - exact[h] as f64 / total).abs() < 1e-15,
                "{n} dice, {h} hits"
            );
        }
    }
    assert_eq!(hit_counts(1).unwrap(), vec![5, 1]);
    // By hand: no 6 and at most one 5 (64 + 48); one 6 and at most one 5 beside it
    // (3 x 24), or a pair of 5s (12), or three 5s (1); two 6s (15) or a 6 and a pair (3).
    assert_eq!(hit_counts(3).unwrap(), vec![112, 85, 18, 1]);
    for n in [1, 11, 20, 40, 60] {
        let d = hit_distribution(n);
        assert_eq!(d.len(), n as usize + 1);
        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{n} dice");
    }
    let d = hit_distribution(40);
    let exact = hit_counts(40).unwrap();
    let total: u128 = 6u128.pow(40);
    assert_eq!(exact.iter().sum::<u128>(), total);
    for h in 0..=40 {
        assert!(
            (d[h] - exact[h] as f64 / total as f64).abs() < 1e-12,
            "40 dice, {h} hits"
        );
    }
    assert!(hit_counts(50).is_none());
}

#[test]
fn ctb_6_0_crossbow_sk_two_dice_at_2h_one_at_3h() {
    let t = tables();
    let sk = entry(&t, "french", "crossbow_sk");
    assert_eq!(sk.sp, vec![2]);
    assert_eq!(sk.fire_dice(2, 2, &t.factors.fire), Some(2));
    assert_eq!(sk.fire_dice(2, 3, &t.factors.fire), Some(1));
    assert_eq!(count_hits(&[6, 1]), 1);
    assert_eq!(count_hits(&[5, 5]), 1);
    assert_eq!(count_hits(&[6, 6]), 2);
    // "It can only cause 1 casualty to a target": two hits and a 6 on a 5-SP stand.
    let cap = fire_cap(&t.factors.fire, false);
    let r = test(&tester(5, false), 2, 6, cap, &t.factors.morale);
    assert_eq!((r.adjusted, r.morale_loss, r.loss.sp), (3, 3, 1));
}

#[test]
fn ctb_6_4_preview_exact_2d6_on_5sp() {
    let t = tables();
    assert_eq!(hit_counts(2).unwrap(), vec![24, 11, 1]);
    let cap = fire_cap(&t.factors.fire, false);
    let c = fire_distribution(2, &tester(5, false), cap, &t.factors.morale);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(c.no_hit, 144.0 / 216.0), "{c:?}");
    assert_eq!(c.by_sp.len(), 2);
    assert!(close(c.by_sp[0], 47.0 / 216.0), "disordered only: {c:?}");
    assert!(close(c.by_sp[1], 25.0 / 216.0), "1 SP lost: {c:?}");
}

// ---- the Morale Test (CtB 7.x) ----

#[test]
fn ctb_7_0_adjusted_four_roll_six_loses_two() {
    let f = tables().factors.morale;
    assert_eq!(morale_loss(4, 6, &f), 2);
    assert_eq!(morale_loss(4, 4, &f), 0);
    assert_eq!(morale_loss(4, 5, &f), 1);
    assert_eq!(morale_loss(4, 1, &f), 0);
}

#[test]
fn ctb_7_0_high_morale_fails_only_on_six() {
    let t = tables();
    let knights = entry(&t, "english", "knights");
    let k = Tester::of_ranks(&knights.sp, &knights.sp, false, false);
    let f = &t.factors.morale;
    assert_eq!(adjusted_morale(&k, 1, f), 6);
    for face in 1..=5 {
        let r = test(&k, 1, face, 1, f);
        assert_eq!((r.morale_loss, r.loss.sp), (0, 0), "face {face}");
    }
    let r = test(&k, 1, 6, 1, f);
    assert_eq!((r.morale_loss, r.loss.sp), (1, 1));
    // Above 6 as well: a 6 is a single loss, not nothing (R-morale).
    assert_eq!(morale_loss(8, 6, f), 1);
    assert_eq!(morale_loss(8, 5, f), 0);
    // Below 6, a 6 always fails by its difference.
    assert_eq!(morale_loss(1, 6, f), 5);
}

#[test]
fn ctb_7_0_adjusted_never_below_one_and_its_terms() {
    let f = tables().factors.morale;
    let t = Tester {
        start: 5,
        lost: 1,
        disordered: true,
        general: true,
    };
    // 5 - 1 hit - 1 lost - 1 disordered + 1 general.
    assert_eq!(adjusted_morale(&t, 1, &f), 3);
    assert_eq!(
        adjusted_morale(
            &Tester {
                general: false,
                ..t
            },
            1,
            &f
        ),
        2
    );
    assert_eq!(adjusted_morale(&t, 9, &f), 1, "never below 1");
    assert_eq!(adjusted_morale(&tester(2, true), 3, &f), 1);
    // A 1 always passes, even at the floor.
    assert_eq!(morale_loss(1, 1, &f), 0);
}

#[test]
fn ctb_7_0_test_distribution_sums_to_one_and_counts_faces() {
    let f = tables().factors.morale;
    for adjusted in 1..=9 {
        let p = loss_distribution(adjusted, &f);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let fails = (1..=6)
            .filter(|face| morale_loss(adjusted, *face, &f) > 0)
            .count();
        assert!(
            (1.0 - p[0] - fails as f64 / 6.0).abs() < 1e-12,
            "adjusted {adjusted}"
        );
    }
    // Adjusted 3: faces 4, 5, 6 lose 1, 2, 3.
    let p = loss_distribution(3, &f);
    for (loss, sixths) in [(0, 3.0), (1, 1.0), (2, 1.0), (3, 1.0), (4, 0.0)] {
        assert!((p[loss] - sixths / 6.0).abs() < 1e-12, "loss {loss}");
    }
    // A 5-SP stand hit twice, cap 2: adjusted 3, loss 1 on a 4, 2 on a 5 or 6.
    let d = test_distribution(&tester(5, false), 2, 2, &f);
    assert!(
        (d[0] - 0.5).abs() < 1e-12
            && (d[1] - 1.0 / 6.0).abs() < 1e-12
            && (d[2] - 2.0 / 6.0).abs() < 1e-12,
        "{d:?}"
    );
}

#[test]
fn ctb_7_1_fire_cap_one_art_frontal_two() {
    let t = tables();
    assert_eq!(fire_cap(&t.factors.fire, false), 1);
    assert_eq!(fire_cap(&t.factors.fire, true), 2);
    assert_eq!(sp_loss(3, 1, false).sp, 1);
    assert_eq!(sp_loss(3, 2, false).sp, 2);
    assert_eq!(sp_loss(1, 2, false).sp, 1);
    assert_eq!(sp_loss(0, 2, false).sp, 0);
}

#[test]
fn ctb_7_2_one_hit_morale_four() {
    let t = tables();
    let f = &t.factors.morale;
    // Archers of 3 SP at a range without loss: 3D6.
    let archers = entry(&t, "scots", "selkirk_archers");
    assert_eq!(
        archers.fire_dice(archers.sp[0], 2, &t.factors.fire),
        Some(3)
    );
    let cap = fire_cap(&t.factors.fire, false);
    let stand = tester(5, false);
    assert_eq!(adjusted_morale(&stand, 1, f), 4);
    // A 3: no permanent loss. A 5: loss 1, 1 SP. A 6: loss 2, still 1 SP (fire).
    for (face, loss, sp) in [(3, 0, 0), (5, 1, 1), (6, 2, 1)] {
        let r = test(&stand, 1, face, cap, f);
        assert_eq!(
            (r.morale_loss, r.loss.sp, r.loss.by_disorder),
            (loss, sp, false),
            "face {face}"
        );
    }
    let mut ranks = vec![5];
    take_losses(&mut ranks, test(&stand, 1, 5, cap, f).loss.sp);
    assert_eq!(ranks, vec![4]);
}

#[test]
fn ctb_7_3_a_disordered_stand_always_loses_one() {
    let t = tables();
    let f = &t.factors.morale;
    let cap = fire_cap(&t.factors.fire, false);
    let stand = tester(5, true);
    assert_eq!(adjusted_morale(&stand, 1, f), 3);
    // A 5: loss 2, 1 SP, not 2 and not 1 more.
    let r = test(&stand, 1, 5, cap, f);
    assert_eq!(
        (r.morale_loss, r.loss.sp, r.loss.by_disorder),
        (2, 1, false)
    );
    // A 1 passes, and still costs 1 SP, which does not count for the melee's outcome.
    let r = test(&stand, 1, 1, cap, f);
    assert_eq!((r.morale_loss, r.loss.sp, r.loss.by_disorder), (0, 1, true));
    // Not in addition in a melee either: loss 1 under a cap of 2 is 1 SP.
    assert_eq!(sp_loss(1, 2, true).sp, 1);
    assert_eq!(sp_loss(2, 2, true).sp, 2);
    // The same stand undisordered loses nothing on a 1.
    assert_eq!(test(&tester(5, false), 1, 1, cap, f).loss.sp, 0);
}

#[test]
fn ctb_7_4_losses_off_the_back_ranks_front_tests_as_unhurt() {
    let t = tables();
    let pikes = entry(&t, "low_countries", "pikes");
    let mut ranks = pikes.sp.clone();
    assert_eq!(take_losses(&mut ranks, 2), 0);
    assert_eq!(ranks, vec![5, 4, 2]);
    // While back ranks remain the front rank tests as unhurt.
    let front = Tester::of_ranks(&ranks, &pikes.sp, false, false);
    assert_eq!((front.start, front.lost), (5, 0));
    assert_eq!(
        take_losses(&mut ranks, 3),
        1,
        "the third rank goes, one SP on to the second"
    );
    assert_eq!(ranks, vec![5, 3]);
    assert_eq!(take_losses(&mut ranks, 4), 1);
    assert_eq!(ranks, vec![4]);
    assert_eq!(Tester::of_ranks(&ranks, &pikes.sp, false, false).lost, 1);
    assert_eq!(take_losses(&mut ranks, 9), 1);
    assert!(
        ranks.is_empty(),
        "no rank left: the stand is removed (CtB 7.1)"
    );
    // T7's ongoing melee: 1 SP each, pale Bills [5] -> [4], dark double Bills [5, 4] -> [5, 3].
    let bills = entry(&t, "french", "double_bills");
    let (mut pale, mut dark) = (vec![5u8], bills.sp.clone());
    take_losses(&mut pale, 1);
    take_losses(&mut dark, 1);
    assert_eq!((pale, dark), (vec![4], vec![5, 3]));
}

/// The refusals of the tables that no other test reaches, each with its message and,
/// where the fault has a field of its own, its place.
#[test]
fn ctb_tables_duplicates_climb_sight_hexsides_initiative_and_impact_are_refused() {
    let e = refused(0, "(id: \"Bills\",", "(id: \"HI\",");
    assert!(
        e.message
            .contains("stand type `HI` is given twice (CtB 15.0)"),
        "{e}"
    );
    let e = refused(1, "(id: \"clear\",", "(id: \"marsh\",");
    assert!(e.message.contains("terrain `marsh` is given twice"), "{e}");
    let e = refused(1, "climb: (0, 0, 1, 0, 1)", "climb: (0, 0, 12, 0, 1)");
    assert!(e.message.contains("climbing costs from 0 to 9 MP"), "{e}");
    assert_eq!(
        (e.line, e.column),
        place(data::TERRAIN_RON, "climb:", "climb")
    );
    let e = refused(1, "sight_levels: 2", "sight_levels: 0");
    assert!(e.message.contains("(R-LOS)"), "{e}");
    assert_eq!(
        (e.line, e.column),
        place(data::TERRAIN_RON, "sight_levels:", "sight_levels")
    );
    let e = refused(1, "road:   1", "road:   0");
    assert!(
        e.message.contains("streams and roads cost 1 to 9 MP"),
        "{e}"
    );
    let e = refused(3, "initiative: (dice: 2", "initiative: (dice: 4");
    assert!(
        e.message
            .contains("the initiative is 1 to 3 dice (CtB 1.4)"),
        "{e}"
    );
    let e = refused(
        4,
        "(id: \"knights\",          class: C, type: \"HC\",  imp: Poor, mp: (3, 2), sp: [7],    impact: 4",
        "(id: \"knights\",          class: C, type: \"HC\",  imp: Poor, mp: (3, 2), sp: [7],    impact: 6",
    );
    assert!(
        e.message
            .contains("an impact factor from 0 to 5 (CtB 10.3)"),
        "{e}"
    );
    let e = refused(4, "(id: \"english_foot\",", "(id: \"knights\",");
    assert!(
        e.message
            .contains("`knights` is given twice in the english list"),
        "{e}"
    );
}

//! Charles the Bold's Order Test, initiative and melee arithmetic
//! (`charles_the_bold::orders`, `activation`, `verdict`): thresholds and modifiers
//! (CtB 3.4, 8.1), who declares and the initiative roll (CtB 1.4), rank dice (CtB
//! 10.4), who wins a melee and what it costs (CtB 11.0-11.3), and pursuit dice (CtB
//! 13.0), each from the built-in tables and the text's worked examples (T13, T14, T15).

use bataille::rulesets::charles_the_bold::data::{Class, PursuitKind, Tables, TypeSpec};
use bataille::rulesets::charles_the_bold::geometry::Side;
use bataille::rulesets::charles_the_bold::orders::{group_class, passes, passing_faces};
use bataille::rulesets::charles_the_bold::verdict::{
    Fighter, Verdict, attacked_frontally, melee_verdict, pursuit_distance, rank_bonus,
};
use bataille::rulesets::common::RulesetTables;

fn tables() -> Tables {
    Tables::builtin().expect("the built-in Charles the Bold tables load")
}

fn spec<'t>(t: &'t Tables, id: &str) -> &'t TypeSpec {
    t.type_spec(id).unwrap_or_else(|| panic!("type {id}"))
}

#[test]
fn ctb_3_4_thresholds_a3_b4_c5_plus_general_minus_range() {
    let t = tables();
    let o = &t.orders.order_test;
    // CtB 8.1: A passes on 3-6, B on 4-6, C on 5-6.
    let faces = |c| passing_faces(o, c, false, false);
    assert_eq!(
        (faces(Class::A), faces(Class::B), faces(Class::C)),
        (4, 3, 2)
    );
    // +1 with a leader, -1 out of range (CtB 2.0), both: as plain.
    assert_eq!(passing_faces(o, Class::C, true, false), 3);
    assert_eq!(passing_faces(o, Class::C, false, true), 1);
    assert_eq!(passing_faces(o, Class::B, true, true), 3);
    assert!(passes(o, Class::B, 4, false, false) && !passes(o, Class::B, 3, false, false));
    assert!(
        passes(o, Class::B, 3, true, false),
        "a leader turns a 3 into a 4"
    );
    assert!(
        !passes(o, Class::A, 3, false, true),
        "out of range, a 3 is a 2"
    );
    // a group tests once, at its worst class.
    assert_eq!(
        group_class(o, [Class::A, Class::C, Class::B]),
        Some(Class::C)
    );
    assert_eq!(group_class(o, [Class::A, Class::A]), Some(Class::A));
    assert_eq!(group_class(o, []), None);
}

#[test]
fn ctb_10_4_rank_bonuses() {
    // T14: a triple pike frontal against foot 5 + 2 = 7D6, against mounted 5 + 6 =
    // 11D6, from the flank 5D6; a double long spear frontal against mounted 5 + 2;
    // an unmoved schiltron (triple long spears) charged in the flank by knights
    // 5 + 4 = 9D6, once it has moved 5D6.
    let t = tables();
    let (pk, lsp, hi) = (spec(&t, "Pk"), spec(&t, "LSp"), spec(&t, "HI"));
    assert_eq!(5 + rank_bonus(pk, 3, false, true), 7);
    assert_eq!(5 + rank_bonus(pk, 3, true, true), 11);
    assert_eq!(5 + rank_bonus(pk, 3, true, false), 5);
    assert_eq!(5 + rank_bonus(lsp, 2, true, true), 7);
    assert_eq!(
        rank_bonus(hi, 3, true, true),
        0,
        "only pikes and long spears"
    );
    assert_eq!(rank_bonus(pk, 1, true, true), 0, "one rank, no extra");
    let schiltron = t.special("schiltron");
    let unmoved = attacked_frontally(Side::Flank, schiltron, false);
    let moved = attacked_frontally(Side::Flank, schiltron, true);
    assert_eq!(5 + rank_bonus(lsp, 3, true, unmoved), 9);
    assert_eq!(5 + rank_bonus(lsp, 3, true, moved), 5);
    assert!(attacked_frontally(Side::Front, None, true));
    assert!(!attacked_frontally(Side::Rear, None, false));
}

/// A Battle Stand of type `id` with a morale loss and SP, fighting alone.
fn fighter<'t>(t: &'t Tables, id: &str, morale_loss: u8, sp: u8) -> Fighter<'t> {
    Fighter {
        spec: spec(t, id),
        morale_loss,
        tested: morale_loss > 0,
        disordered: false,
        sp,
        supported: false,
        hc_flank_charge: false,
        against_pike_front: false,
    }
}

#[test]
fn ctb_11_0_loser_two_winner_one() {
    // T15: losses 3 against 1: the loser -2 SP, the winner -1; 1 against 0: -1 and
    // nothing; the loser loses 2 only with a morale loss of 2 or more.
    let t = tables();
    let m = &t.factors.melee;
    let v = melee_verdict(m, [fighter(&t, "HI", 3, 5), fighter(&t, "Bills", 1, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 0,
            sp: [2, 1]
        }
    );
    let v = melee_verdict(m, [fighter(&t, "HI", 0, 5), fighter(&t, "Bills", 1, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 1,
            sp: [0, 1]
        }
    );
    let v = melee_verdict(m, [fighter(&t, "HI", 2, 5), fighter(&t, "Bills", 5, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 1,
            sp: [1, 2]
        }
    );
}

#[test]
fn ctb_11_3_equal_losses_no_hits_or_one_passing_is_ongoing() {
    let t = tables();
    let m = &t.factors.melee;
    // No hits either side, or one side passing alone: both 0.
    let v = melee_verdict(m, [fighter(&t, "HI", 0, 5), fighter(&t, "Pk", 0, 5)]);
    assert_eq!(v, Verdict::Ongoing { sp: [0, 0] });
    // T7: both morale dice 6 with losses 2 and 2: ongoing, 1 SP each.
    let v = melee_verdict(m, [fighter(&t, "Bills", 2, 5), fighter(&t, "Bills", 2, 9)]);
    assert_eq!(v, Verdict::Ongoing { sp: [1, 1] });
}

#[test]
fn ctb_11_1_caps_cavalry_against_foot_lc_sk_and_the_hc_flank_charge() {
    let t = tables();
    let m = &t.factors.melee;
    // Knights (HC) beaten by foot lose 1 at most ...
    let v = melee_verdict(m, [fighter(&t, "HC", 4, 7), fighter(&t, "HI", 1, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 0,
            sp: [1, 1]
        }
    );
    // ... but 2 against pikes frontally.
    let mut knights = fighter(&t, "HC", 4, 7);
    knights.against_pike_front = true;
    let v = melee_verdict(m, [knights, fighter(&t, "Pk", 1, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 0,
            sp: [2, 1]
        }
    );
    // Against cavalry the cap does not hold.
    let v = melee_verdict(m, [fighter(&t, "HC", 4, 7), fighter(&t, "MC", 1, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 0,
            sp: [2, 1]
        }
    );
    // LC lose 1 at most, whoever they fight.
    let v = melee_verdict(m, [fighter(&t, "LC", 3, 3), fighter(&t, "MC", 0, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 0,
            sp: [1, 0]
        }
    );
    // Sk never cause more than 1 SP loss.
    let v = melee_verdict(m, [fighter(&t, "Sk", 0, 2), fighter(&t, "HI", 3, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 1,
            sp: [0, 1]
        }
    );
    // Heavy cavalry's flank charge: up to 3 SP when it wins.
    let mut hc = fighter(&t, "HC", 0, 7);
    hc.hc_flank_charge = true;
    let v = melee_verdict(m, [hc, fighter(&t, "HI", 3, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 1,
            sp: [0, 3]
        }
    );
}

#[test]
fn ctb_11_2_a_lone_stand_eliminated_loses_whatever_the_morale() {
    let t = tables();
    let m = &t.factors.melee;
    // The winner on the morale losses has 1 SP left and would lose it: alone, it
    // loses the melee instead.
    let v = melee_verdict(m, [fighter(&t, "HI", 1, 1), fighter(&t, "Bills", 2, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 0,
            sp: [1, 1]
        }
    );
    // An ongoing melee that would eliminate one side: that side loses.
    let v = melee_verdict(m, [fighter(&t, "HI", 1, 5), fighter(&t, "Bills", 1, 1)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 1,
            sp: [1, 1]
        }
    );
    // With supports it keeps the result of the morale losses.
    let mut supported = fighter(&t, "HI", 1, 1);
    supported.supported = true;
    let v = melee_verdict(m, [supported, fighter(&t, "Bills", 2, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 1,
            sp: [1, 2]
        }
    );
}

#[test]
fn ctb_13_0_pursuit_dice() {
    // T13: knights 1 -> 0, 2-3 -> 1H, 4-5 -> 2H, 6 -> 3H; English foot 1-3 -> 0,
    // 4-6 -> 1H; a 2-MP impetuous foot stand on a 6 -> 2H (its normal move).
    let t = tables();
    let p = &t.orders.pursuit;
    let knights: Vec<u32> = (1..=6)
        .map(|d| pursuit_distance(p, PursuitKind::Cavalry, false, d, 3))
        .collect();
    assert_eq!(knights, [0, 1, 1, 2, 2, 3]);
    let foot: Vec<u32> = (1..=6)
        .map(|d| pursuit_distance(p, PursuitKind::Foot, false, d, 2))
        .collect();
    assert_eq!(foot, [0, 0, 0, 1, 1, 1]);
    assert_eq!(pursuit_distance(p, PursuitKind::Foot, true, 6, 2), 2);
    assert_eq!(pursuit_distance(p, PursuitKind::Foot, true, 2, 2), 1);
    assert_eq!(pursuit_distance(p, PursuitKind::Never, true, 6, 4), 0);
}

#[test]
fn ctb_7_3_disorder_sp_in_melee_within_the_caps_not_deciding_the_winner() {
    let t = tables();
    let m = &t.factors.melee;
    // Both hit, both pass: an ongoing melee; the one disordered before its test loses
    // 1 SP all the same (CtB 7.3), the other none.
    let mut disordered = fighter(&t, "HI", 0, 5);
    disordered.tested = true;
    disordered.disordered = true;
    let mut steady = fighter(&t, "Bills", 0, 5);
    steady.tested = true;
    assert_eq!(
        melee_verdict(m, [disordered, steady]),
        Verdict::Ongoing { sp: [1, 0] }
    );
    // Not hit, no test: no SP, disordered or not.
    disordered.tested = false;
    assert_eq!(
        melee_verdict(m, [disordered, steady]),
        Verdict::Ongoing { sp: [0, 0] }
    );
    // The winner that passed while disordered loses 1; it still wins.
    disordered.tested = true;
    let v = melee_verdict(m, [disordered, fighter(&t, "Bills", 2, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 1,
            sp: [1, 2]
        }
    );
    // That SP counts for CtB 11.2: a lone winner on its last SP loses instead.
    disordered.sp = 1;
    let v = melee_verdict(m, [disordered, fighter(&t, "Bills", 2, 5)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 0,
            sp: [1, 1]
        }
    );
}

#[test]
fn ctb_11_0_the_caps_are_the_tables() {
    // factors.ron sets the caps: with a loser cap of 3 needing a loss of 3, and a
    // winner cap of 2, the same morale losses cost other SP.
    let t = tables();
    let mut m = t.factors.melee.clone();
    let fight = |m: &_| melee_verdict(m, [fighter(&t, "HI", 3, 9), fighter(&t, "Bills", 2, 9)]);
    assert_eq!(
        fight(&m),
        Verdict::Won {
            loser: 0,
            sp: [2, 1]
        }
    );
    m.loser_cap = 3;
    m.loser_needs = 3;
    m.winner_cap = 2;
    assert_eq!(
        fight(&m),
        Verdict::Won {
            loser: 0,
            sp: [3, 2]
        }
    );
    // A loss of 2 under a cap of 3 that needs 3: 2 at most.
    let v = melee_verdict(&m, [fighter(&t, "HI", 2, 9), fighter(&t, "Bills", 1, 9)]);
    assert_eq!(
        v,
        Verdict::Won {
            loser: 0,
            sp: [2, 1]
        }
    );
    m.ongoing_cap = 2;
    let v = melee_verdict(&m, [fighter(&t, "HI", 2, 9), fighter(&t, "Bills", 2, 9)]);
    assert_eq!(v, Verdict::Ongoing { sp: [2, 2] });
}

#[test]
fn ctb_1_4_secret_choice_then_2d6_plus_bonus_tie_rerolled() {
    use bataille::rulesets::charles_the_bold::activation::{initiative, initiative_chance};
    let t = tables();
    let n = t.orders.initiative.dice;
    assert_eq!(n, 2, "2D6 (CtB 1.4)");
    // The dice in the order thrown: the first side (1) first. Side 1 throws 3+4 = 7,
    // side 0 throws 5+1 = 6 and has +1: 7 each, thrown again; then side 1 throws 2+2
    // and side 0 6+6: side 0 wins the second throw.
    let mut faces = [3, 4, 5, 1, 2, 2, 6, 6].into_iter();
    let (winner, throws) = initiative(n, [1, 0], 1, || faces.next().unwrap());
    assert_eq!(winner, 0);
    assert_eq!(throws.len(), 2, "a tie is thrown again (R-1.4a)");
    assert_eq!(throws[0].dice, [vec![5, 1], vec![3, 4]]);
    assert_eq!(throws[0].totals, [7, 7]);
    assert_eq!(throws[1].totals, [13, 4]);
    assert!(
        faces.next().is_none(),
        "no die left unthrown, none thrown extra"
    );
    // A general's bonus is the edge: exactly even without, better with.
    assert!((initiative_chance(2, [0, 0]) - 0.5).abs() < 1e-12);
    let with = initiative_chance(2, [1, 0]);
    assert!(with > 0.5 && (with + initiative_chance(2, [0, 1]) - 1.0).abs() < 1e-12);
    // By hand for 1D6 each and +1: of the 36 throws side 0 wins 21, ties 5, loses 10:
    // 21 / 31 once ties are thrown again.
    assert!((initiative_chance(1, [1, 0]) - 21.0 / 31.0).abs() < 1e-12);
}

#[test]
fn ctb_1_4_exhausted_side_the_other_plays_out_then_the_round_ends() {
    use bataille::rulesets::charles_the_bold::activation::{Declaring, declaring};
    assert_eq!(declaring([2, 3]), Declaring::Both);
    assert_eq!(declaring([0, 1]), Declaring::Only(1), "R-1.4c");
    assert_eq!(declaring([2, 0]), Declaring::Only(0), "R-1.4c");
    assert_eq!(
        declaring([0, 0]),
        Declaring::RoundOver,
        "every group has moved"
    );
}

#[test]
fn ctb_10_1_melee_pools_of_the_examples() {
    use bataille::rulesets::charles_the_bold::combat::{
        MeleeSituation, battle_pool, melee_dice, stand_pool,
    };
    let t = tables();
    let m = &t.factors.melee;
    let plain = MeleeSituation::default();
    // T7: pale Bills (5 SP, IF 1) charge: 6D6; the dark double Bills 5D6 (their front
    // rank: R-pool); next round, both disordered: 4 - 1 = 3D6 and 5 - 1 = 4D6.
    let charge = MeleeSituation { impact: 1, ..plain };
    assert_eq!(stand_pool(m, 5, charge).dice(), 6);
    assert_eq!(stand_pool(m, 5, plain).dice(), 5);
    let disordered = MeleeSituation {
        disordered: true,
        ..plain
    };
    assert_eq!(
        (
            stand_pool(m, 4, disordered).dice(),
            stand_pool(m, 5, disordered).dice()
        ),
        (3, 4)
    );
    // T10 (A1): Bill3 5 + 2 = 7D6 with Bill2's ⌈7/2⌉ = 4D6: 11D6; Bill1 7 with Bill2's
    // ⌈5/2⌉ = 3 (not charging now): 10D6.
    let bill = MeleeSituation { impact: 2, ..plain };
    let eleven = battle_pool(m, stand_pool(m, 5, bill), &[("Bill2", 7)]);
    assert_eq!(eleven.dice(), 11);
    assert!(
        eleven
            .terms
            .iter()
            .any(|t| t.rule == "CtB 10.7" && t.dice == 4)
    );
    assert_eq!(
        battle_pool(m, stand_pool(m, 5, bill), &[("Bill2", 5)]).dice(),
        10
    );
    // T8: the dismounted men-at-arms 6 with the crossbow Sh's ⌈4/2⌉ = 2: 8D6.
    assert_eq!(
        battle_pool(m, stand_pool(m, 6, plain), &[("Sh", 4)]).dice(),
        8
    );
    // CtB 10.5: +1D6 on a flank or rear; heavy cavalry's contact +2D6 instead;
    // uphill +1D6 (10.4.3).
    let flank = MeleeSituation {
        on_flank_or_rear: true,
        ..plain
    };
    let hc = MeleeSituation {
        on_flank_or_rear: true,
        hc_flank_contact: true,
        impact: 4,
        uphill: true,
        ..plain
    };
    assert_eq!(stand_pool(m, 5, flank).dice(), 6);
    assert_eq!(stand_pool(m, 7, hc).dice(), 7 + 4 + 2 + 1);
    // CtB 10.2: at least one die.
    let worst = MeleeSituation {
        disordered: true,
        ..plain
    };
    let pool = stand_pool(m, 1, worst);
    assert_eq!((pool.dice(), melee_dice(m, &pool)), (0, 1));
}

#[test]
fn ctb_10_3_impact_falls_to_one_after_a_loss_unless_kept() {
    use bataille::rulesets::charles_the_bold::combat::impact_factor;
    let t = tables();
    let m = &t.factors.melee;
    let knights = t.entry("english", "knights").unwrap();
    assert_eq!(impact_factor(knights, None, m, false), 4);
    assert_eq!(impact_factor(knights, None, m, true), 1);
    let block = t.entry("swiss", "pike_block").unwrap();
    let swiss = t.special("swiss_pike");
    assert_eq!(
        (
            impact_factor(block, swiss, m, false),
            impact_factor(block, swiss, m, true)
        ),
        (2, 2),
        "the Swiss keep IF 2 (Special Units, designer's)"
    );
}

#[test]
fn ctb_14_0_break_at_fraction_first_loses() {
    use bataille::rulesets::charles_the_bold::victory::{break_at, broken, first_broken};
    // The design's Falkirk: the English 63 BP break at a third, 21 lost; the Scots 31
    // BP at a half, 16 lost (15.5 rounded up).
    assert_eq!(break_at(63, (1, 3)), 21);
    assert!(!broken(20, 63, (1, 3)) && broken(21, 63, (1, 3)));
    assert_eq!(break_at(31, (1, 2)), 16);
    assert!(!broken(15, 31, (1, 2)) && broken(16, 31, (1, 2)));
    // R-break: both broken by one command: the larger lost share breaks first; a tie
    // is a draw.
    assert_eq!(first_broken([21, 16], [63, 31]), Some(1), "16/31 > 21/63");
    assert_eq!(first_broken([33, 16], [63, 31]), Some(0), "33/63 > 16/31");
    assert_eq!(first_broken([10, 20], [30, 60]), None);
}

#[test]
fn ctb_14_0_bp_per_rank() {
    // R-BP: the BP column is per rank: the Swiss pike block of 3 ranks at 2 BP each is
    // worth 6, losing 2 a rank (14.0's own example).
    let t = tables();
    let block = t.entry("swiss", "pike_block").unwrap();
    assert_eq!((block.bp, block.sp.len(), block.total_bp()), (2, 3, 6));
}

#[test]
fn ctb_13_0_who_pursues_impetuous_must_others_may_foot_never_after_cavalry() {
    use bataille::rulesets::charles_the_bold::verdict::{Pursuit, pursuit};
    let t = tables();
    let (hc, hi, sh, mc) = (
        spec(&t, "HC"),
        spec(&t, "HI"),
        spec(&t, "Sh"),
        spec(&t, "MC"),
    );
    assert_eq!(pursuit(hc, true, 4, hi), Pursuit::Must, "impetuous knights");
    assert_eq!(pursuit(hc, false, 3, hi), Pursuit::May, "sergeants, IF 3");
    assert_eq!(pursuit(hi, false, 1, hi), Pursuit::May, "foot after foot");
    assert_eq!(
        pursuit(hi, false, 1, mc),
        Pursuit::Never,
        "foot never after cavalry"
    );
    assert_eq!(
        pursuit(hi, true, 1, hc),
        Pursuit::Never,
        "not even impetuous foot"
    );
    assert_eq!(
        pursuit(hi, false, 0, hi),
        Pursuit::Never,
        "no impact, no pursuit"
    );
    assert_eq!(
        pursuit(sh, false, 0, hi),
        Pursuit::Never,
        "shot never pursue"
    );
}

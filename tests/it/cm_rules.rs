//! Charge & mêlée's arithmetic, paragraph by paragraph (C&M 7.4-7.28), with the text's
//! worked examples and their numbers: the average die, charge and evade moves measured
//! in gaps, the evade test, the charge resolution and its results, the mêlée.

use bataille::engine::hex::HexCoord;
use bataille::rulesets::charge_and_melee::charge::{
    self, ChargingUnit, FrontRankLeader, Frontage, outnumbered, side_score, stands_counted,
    supported, unit_total,
};
use bataille::rulesets::charge_and_melee::data::{
    Category, ChargeResult, DieKind, FormationId, Grade, Tables, TroopType,
};
use bataille::rulesets::charge_and_melee::dice::{die_value, faces_by_value, grade_value};
use bataille::rulesets::charge_and_melee::evade::{EvadeOutcome, EvadeTest, evade_outcome};
use bataille::rulesets::charge_and_melee::melee::{
    self, MeleeLoss, StandFight, cavalry_must_retire, hits, hitting_faces, needed,
};
use bataille::rulesets::charge_and_melee::moves::{
    catches_evader, contacts, evade_move, fast_move, fatigue_dp, gap, may_charge_across,
};
use bataille::rulesets::charge_and_melee::results::{AfterCharge, ResultContext, outcome};
use bataille::rulesets::common::RulesetTables;

fn tables() -> Tables {
    Tables::builtin().expect("the built-in Charge & mêlée tables load")
}

fn troop<'t>(t: &'t Tables, id: &str) -> &'t TroopType {
    t.troop(id).unwrap_or_else(|| panic!("troop type {id}"))
}

fn h(label: &str) -> HexCoord {
    HexCoord::parse(label).expect("a hex label")
}

#[test]
fn cm_avd_a_grade_rolls_the_average_die_others_a_d6() {
    let t = tables();
    let faces: Vec<u8> = (1..=6).map(|f| grade_value(&t, Grade::A, f)).collect();
    assert_eq!(faces, [2, 3, 3, 4, 4, 5]);
    for g in [Grade::B, Grade::C] {
        let faces: Vec<u8> = (1..=6).map(|f| grade_value(&t, g, f)).collect();
        assert_eq!(faces, [1, 2, 3, 4, 5, 6]);
    }
    let avd = &t.charts.average_die;
    assert_eq!(
        faces_by_value(DieKind::Average, avd),
        [(2, 1), (3, 2), (4, 2), (5, 1)]
    );
    assert_eq!(faces_by_value(DieKind::D6, avd).len(), 6);
    // A face no die shows is read as the nearest one, never a panic.
    assert_eq!(die_value(DieKind::Average, 0, avd), 2);
    assert_eq!(die_value(DieKind::Average, 9, avd), 5);
}

#[test]
fn cm_7_4_charge_reach_is_measured_in_gaps() {
    let m = tables().charts.charge_move;
    assert_eq!(
        gap(h("0505"), h("0506")),
        0,
        "adjacent hexes are in contact"
    );
    assert_eq!(gap(h("0505"), h("0507")), 1, "one hex between = 1 JT");
    assert_eq!(gap(h("1007"), h("1010")), 2);
    // Infantry only against targets one javelin throw away.
    assert!(may_charge_across(&m, Category::Infantry, 1));
    assert!(!may_charge_across(&m, Category::Infantry, 2));
    assert!(!may_charge_across(&m, Category::Infantry, 0));
    // Cavalry and elephants from up to bow range (4 JT).
    for cat in [Category::Cavalry, Category::Elephants] {
        assert!((1..=4).all(|g| may_charge_across(&m, cat, g)));
        assert!(!may_charge_across(&m, cat, 5));
    }
    assert!(!may_charge_across(&m, Category::Artillery, 1));
}

#[test]
fn cm_7_6_charge_moves_infantry_d6_less_1_cavalry_d6_plus_1_up_to_6() {
    let m = tables().charts.charge_move;
    let foot: Vec<u8> = (1..=6)
        .map(|d| fast_move(&m, Category::Infantry, d))
        .collect();
    assert_eq!(foot, [1, 1, 2, 3, 4, 5], "a 1 still moves 1 JT");
    let elephants: Vec<u8> = (1..=6)
        .map(|d| fast_move(&m, Category::Elephants, d))
        .collect();
    assert_eq!(elephants, foot);
    let horse: Vec<u8> = (1..=6)
        .map(|d| fast_move(&m, Category::Cavalry, d))
        .collect();
    assert_eq!(horse, [2, 3, 4, 5, 6, 6], "at most 6 JT");
    assert!(contacts(3, 3) && !contacts(4, 3));
}

#[test]
fn cm_7_7_a_move_die_of_5_or_6_costs_a_dp_4_to_6_in_difficult_terrain() {
    let m = tables().charts.charge_move;
    let open: Vec<bool> = (1..=6).map(|d| fatigue_dp(&m, d, false)).collect();
    assert_eq!(open, [false, false, false, false, true, true]);
    let difficult: Vec<bool> = (1..=6).map(|d| fatigue_dp(&m, d, true)).collect();
    assert_eq!(difficult, [false, false, false, true, true, true]);
}

#[test]
fn cm_7_11_light_cavalry_fails_to_evade_with_two_dps() {
    // T2: light cavalry at 1010/1110, enemy infantry at 1008/1108: 1 JT apart.
    let t = tables();
    assert_eq!(gap(h("1010"), h("1008")), 1);
    assert_eq!(gap(h("1110"), h("1108")), 1);
    let chart = &t.charts.evade;
    let test = EvadeTest {
        die: grade_value(&t, Grade::B, 2),
        morale: 0,
        dps: 2,
        shaken: false,
        inspiring_cps: 0,
    };
    // 2 + 0 - 2 = 0: not shaken, so it becomes shaken and receives at the halt.
    assert_eq!(evade_outcome(chart, &test), EvadeOutcome::ShakenAndStands);
    // "Had there been one less DP, the cavalry would have evaded successfully."
    let one_dp = EvadeTest { dps: 1, ..test };
    assert_eq!(evade_outcome(chart, &one_dp), EvadeOutcome::Evades);
    // Already shaken, 0 or less breaks.
    let shaken = EvadeTest {
        shaken: true,
        dps: 0,
        die: 5,
        ..test
    };
    assert_eq!(evade_outcome(chart, &shaken), EvadeOutcome::Breaks);
}

#[test]
fn cm_7_11_shaken_counts_five_dps_morale_and_an_inspiring_leader_count() {
    let chart = tables().charts.evade;
    let base = EvadeTest {
        die: 5,
        morale: 0,
        dps: 0,
        shaken: true,
        inspiring_cps: 0,
    };
    // 5 - 5 = 0: breaks; the DPs under the shaken marker do not count again.
    assert_eq!(evade_outcome(&chart, &base), EvadeOutcome::Breaks);
    assert_eq!(
        evade_outcome(&chart, &EvadeTest { dps: 3, ..base }),
        EvadeOutcome::Breaks
    );
    assert_eq!(
        evade_outcome(&chart, &EvadeTest { morale: 1, ..base }),
        EvadeOutcome::Evades
    );
    assert_eq!(
        evade_outcome(
            &chart,
            &EvadeTest {
                inspiring_cps: 2,
                ..base
            }
        ),
        EvadeOutcome::Evades
    );
    assert_eq!(
        evade_outcome(
            &chart,
            &EvadeTest {
                morale: -1,
                die: 6,
                ..base
            }
        ),
        EvadeOutcome::Breaks
    );
}

#[test]
fn cm_7_14_horse_archers_shoot_while_evading_and_are_caught() {
    // T3: knights at 1007/1107 charge light horse archers at 1010/1110, 2 JT apart.
    let t = tables();
    let m = t.charts.charge_move;
    let knights = troop(&t, "shock_cavalry");
    let archers = troop(&t, "light_horse_archers");
    assert_eq!(gap(h("1007"), h("1010")), 2);
    // The knights roll 5: 6 JT and a DP for fatigue.
    assert_eq!(fast_move(&m, knights.category, 5), 6);
    assert!(fatigue_dp(&m, 5, false));
    // Long range: factor 1, -1 against armour: no chance to hit.
    let melee_chart = t.charts.melee;
    assert!(knights.armoured);
    assert_eq!(
        i32::from(archers.long_range) + i32::from(melee_chart.opponent_armoured),
        0
    );
    // Evade die 3: 3 + 1 fast + 1 unformed light - 1 shooting = 4 JT, south to 1014.
    let evade = evade_move(&m, archers.category, archers.light, 3, true);
    assert_eq!(evade, 4);
    let end = (0..evade).fold(h("1010"), |at, _| at.neighbor(3));
    assert_eq!(end, h("1014"));
    assert_eq!(gap(h("1007"), end), 6);
    assert!(catches_evader(2, evade, 6), "caught in the back");
    // Had they not waited to shoot they would have got away (5 JT: gap 7 > 6).
    let away = evade_move(&m, archers.category, archers.light, 3, false);
    assert_eq!(away, 5);
    assert!(!catches_evader(2, away, 6));
}

/// T4's battle line: Roman units 1, 2 (A grade) and 3 (B grade), Germanic cavalry A and B.
fn germanic_cavalry_against_roman_infantry(t: &Tables, inspired_cps: u8) -> (i32, i32) {
    let romans = troop(t, "heavy_infantry");
    let germans = troop(t, "shock_cavalry");
    let roman = |grade, face, morale, dps| ChargingUnit {
        morale,
        dps,
        ..ChargingUnit::new(romans, false, grade_value(t, grade, face))
    };
    // The Roman dice: AvD 3, AvD 4, D6 2.
    let roman_line = [
        roman(Grade::A, 2, 1, 0),
        roman(Grade::A, 4, 1, 2),
        roman(Grade::B, 2, 0, 1),
    ];
    let german_line = [
        ChargingUnit {
            morale: 1,
            dps: 1,
            leader: Some(FrontRankLeader {
                cps: 3,
                allocated_to_inspire: inspired_cps,
            }),
            ..ChargingUnit::new(germans, true, grade_value(t, Grade::B, 3))
        },
        ChargingUnit {
            morale: -1,
            dps: 2,
            ..ChargingUnit::new(germans, true, grade_value(t, Grade::B, 3))
        },
    ];
    let chart = &t.charts.charge;
    // 6 Roman stands against 7: less than 3:2, no modifier.
    let roman_outnumbered = outnumbered(chart, 6, 7, false);
    assert_eq!(roman_outnumbered, 0);
    (
        side_score(t, &roman_line, roman_outnumbered),
        side_score(t, &german_line, outnumbered(chart, 7, 6, false)),
    )
}

#[test]
fn cm_7_15_germanic_cavalry_against_roman_infantry() {
    let t = tables();
    let chart = &t.charts.charge;
    // Romans 17 / 3 rounded up = 6; Germans 16 / 2 = 8.
    let (romans, germans) = germanic_cavalry_against_roman_infantry(&t, 3);
    assert_eq!((romans, germans), (6, 8));
    assert_eq!(
        charge::result(chart, germans, romans),
        ChargeResult::Success
    );
    assert_eq!(
        charge::result(chart, romans, germans),
        ChargeResult::SetBack
    );
    // The Germans, cavalry who charged good-order infantry frontally: 1 DP and retire.
    let german = ResultContext {
        troop: troop(&t, "shock_cavalry"),
        grade: Grade::B,
        formation: FormationId::Line,
        shaken: false,
        charged: true,
        stood_against_mounted: false,
        charged_by_mounted_only: false,
        charged_good_order_foot_frontally: true,
        opposed_only_by_light: false,
    };
    let o = outcome(chart, ChargeResult::Success, &german);
    assert_eq!((o.dps, o.moves.as_slice()), (1, &[AfterCharge::Retire][..]));
    // The Romans, heavy infantry charged by mounted only: 2 DPs and halt.
    let roman = ResultContext {
        troop: troop(&t, "heavy_infantry"),
        grade: Grade::A,
        charged: false,
        stood_against_mounted: true,
        charged_by_mounted_only: true,
        charged_good_order_foot_frontally: false,
        ..german
    };
    let o = outcome(chart, ChargeResult::SetBack, &roman);
    assert_eq!((o.dps, o.moves.as_slice()), (2, &[AfterCharge::Halt][..]));
    // The leader's CPs count only if he allocated 3 to inspire: (16 - 3) / 2 -> 7.
    assert_eq!(germanic_cavalry_against_roman_infantry(&t, 2).1, 7);
}

#[test]
fn cm_7_15_outnumbering_tiers_take_the_largest_and_spare_elephants() {
    let chart = tables().charts.charge;
    assert_eq!(outnumbered(&chart, 4, 4, false), 0, "T5: 4 against 4");
    assert_eq!(outnumbered(&chart, 6, 7, false), 0);
    assert_eq!(outnumbered(&chart, 4, 5, false), 0);
    assert_eq!(outnumbered(&chart, 4, 6, false), -1, "3:2");
    assert_eq!(outnumbered(&chart, 4, 7, false), -1);
    assert_eq!(outnumbered(&chart, 3, 6, false), -2, "2:1");
    assert_eq!(outnumbered(&chart, 2, 7, false), -2);
    assert_eq!(outnumbered(&chart, 2, 8, false), -3, "4:1");
    assert_eq!(outnumbered(&chart, 1, 6, false), -3);
    assert_eq!(
        outnumbered(&chart, 1, 6, true),
        0,
        "elephants are never outnumbered"
    );
}

#[test]
fn cm_7_15_each_modifier_moves_a_unit_total_by_its_amount() {
    let t = tables();
    let hi = troop(&t, "heavy_infantry");
    let cav = troop(&t, "shock_cavalry");
    let base = ChargingUnit::new(hi, false, 3);
    let of = |u: ChargingUnit| unit_total(&t, &u, 0) - unit_total(&t, &base, 0);
    assert_eq!(
        unit_total(&t, &base, 0),
        3 + 3,
        "die + Defence Factor at the halt"
    );
    assert_eq!(
        unit_total(
            &t,
            &ChargingUnit {
                charged: true,
                ..base
            },
            0
        ),
        3 + 3,
        "HI: AF 3 too"
    );
    assert_eq!(
        unit_total(&t, &ChargingUnit::new(cav, true, 3), 0),
        3 + 5,
        "charging: Attack Factor"
    );
    assert_eq!(
        unit_total(&t, &ChargingUnit::new(cav, false, 3), 0),
        3 + 2,
        "at the halt: Defence Factor"
    );
    assert_eq!(of(ChargingUnit { morale: -2, ..base }), -2);
    assert_eq!(
        of(ChargingUnit {
            advantage_of_ground: true,
            ..base
        }),
        1
    );
    assert_eq!(
        of(ChargingUnit {
            fortification: true,
            advantage_of_ground: true,
            ..base
        }),
        2
    );
    assert_eq!(
        of(ChargingUnit {
            supported: true,
            ..base
        }),
        1
    );
    assert_eq!(
        of(ChargingUnit {
            against_unformed_foot: true,
            ..base
        }),
        2
    );
    assert_eq!(
        of(ChargingUnit {
            dps: 2,
            casualties: 1,
            ..base
        }),
        -3
    );
    assert_eq!(
        of(ChargingUnit {
            shaken: true,
            ..base
        }),
        -5
    );
    assert_eq!(
        of(ChargingUnit {
            formation: FormationId::Unformed,
            ..base
        }),
        -2
    );
    assert_eq!(
        of(ChargingUnit {
            formation: FormationId::Column,
            ..base
        }),
        -2
    );
    assert_eq!(
        of(ChargingUnit {
            formation: FormationId::Shieldwall,
            ..base
        }),
        0
    );
    assert_eq!(unit_total(&t, &base, -2) - unit_total(&t, &base, 0), -2);
}

#[test]
fn cm_7_15_a_battle_line_divides_its_total_and_rounds_up() {
    let t = tables();
    let rabble = troop(&t, "armed_rabble");
    let unit = |die| ChargingUnit {
        shaken: true,
        ..ChargingUnit::new(rabble, false, die)
    };
    // 1 + 1 - 5 = -3 and 2 + 1 - 5 = -2: -5 / 2 = -2.5, rounded up to -2.
    assert_eq!(side_score(&t, &[unit(1), unit(2)], 0), -2);
    assert_eq!(side_score(&t, &[unit(1), unit(1)], 0), -3);
    // 7 / 2 rounded up = 4; the outnumbering modifier is borne once by the line.
    let hi = troop(&t, "heavy_infantry");
    let line = [
        ChargingUnit::new(hi, false, 1),
        ChargingUnit::new(hi, false, 0),
    ];
    assert_eq!(side_score(&t, &line, 0), 4);
    assert_eq!(side_score(&t, &line, -1), 3);
    assert_eq!(side_score(&t, &[], 0), 0, "no unit: no score, no panic");
}

#[test]
fn cm_7_15_each_side_reads_its_band_on_its_own_difference() {
    let chart = tables().charts.charge;
    let read = |d: i32| charge::result(&chart, d, 0);
    use ChargeResult::*;
    let expected = [
        (9, Victory),
        (5, Victory),
        (4, Success),
        (2, Success),
        (1, Inconclusive),
        (0, Inconclusive),
        (-1, Inconclusive),
        (-2, SetBack),
        (-4, SetBack),
        (-5, Defeat),
        (-6, Defeat),
        (-7, Rout),
        (-30, Rout),
    ];
    for (d, r) in expected {
        assert_eq!(read(d), r, "difference {d}");
    }
    assert_eq!(charge::result(&chart, 3, 8), Defeat);
    assert_eq!(charge::result(&chart, 8, 3), Victory);
}

fn context<'t>(t: &'t TroopType, grade: Grade, formation: FormationId) -> ResultContext<'t> {
    ResultContext {
        troop: t,
        grade,
        formation,
        shaken: false,
        charged: false,
        stood_against_mounted: false,
        charged_by_mounted_only: false,
        charged_good_order_foot_frontally: false,
        opposed_only_by_light: false,
    }
}

#[test]
fn cm_7_15_results_chart_dps_and_moves_by_troops() {
    use AfterCharge::*;
    let t = tables();
    let chart = &t.charts.charge;
    let hi = troop(&t, "heavy_infantry");
    let li = troop(&t, "light_infantry");
    let knights = troop(&t, "shock_cavalry");
    let lc = troop(&t, "light_cavalry");
    let guns = troop(&t, "artillery");
    let line = FormationId::Line;
    // Victory: no DP; B grade that charged must pursue, A grade may halt; cavalry that
    // do not pursue take 1 DP.
    let charger = ResultContext {
        charged: true,
        ..context(knights, Grade::B, line)
    };
    let o = outcome(chart, ChargeResult::Victory, &charger);
    assert_eq!((o.dps, o.moves, o.dps_if_no_pursuit), (0, vec![Pursue], 1));
    let a = ResultContext {
        grade: Grade::A,
        ..charger
    };
    assert_eq!(
        outcome(chart, ChargeResult::Victory, &a).moves,
        vec![Halt, Pursue]
    );
    let b_stood = ResultContext {
        charged: false,
        ..charger
    };
    assert_eq!(
        outcome(chart, ChargeResult::Victory, &b_stood).moves,
        vec![Halt, Pursue]
    );
    assert_eq!(
        outcome(chart, ChargeResult::Victory, &context(guns, Grade::B, line)).moves,
        vec![Halt]
    );
    // Success: infantry that stood against mounted take no DP and halt.
    let stood = ResultContext {
        stood_against_mounted: true,
        ..context(hi, Grade::B, line)
    };
    let o = outcome(chart, ChargeResult::Success, &stood);
    assert_eq!((o.dps, o.moves), (0, vec![Halt]));
    let o = outcome(chart, ChargeResult::Success, &charger);
    assert_eq!((o.dps, o.moves), (1, vec![FollowUp, Pursue]));
    // Inconclusive: 1 DP, none for heavy infantry in shieldwall.
    let o = outcome(
        chart,
        ChargeResult::Inconclusive,
        &context(hi, Grade::B, FormationId::Shieldwall),
    );
    assert_eq!((o.dps, o.moves), (0, vec![Halt, FallBack]));
    let o = outcome(
        chart,
        ChargeResult::Inconclusive,
        &context(hi, Grade::B, line),
    );
    assert_eq!(o.dps, 1);
    assert_eq!(
        outcome(
            chart,
            ChargeResult::Inconclusive,
            &context(li, Grade::B, line)
        )
        .moves,
        vec![Halt, FallBack, Retire]
    );
    assert_eq!(
        outcome(chart, ChargeResult::Inconclusive, &charger).moves,
        vec![Halt, FollowUp]
    );
    assert_eq!(
        outcome(
            chart,
            ChargeResult::Inconclusive,
            &context(lc, Grade::B, line)
        )
        .moves,
        vec![Halt, FollowUp, Retire]
    );
    let frontal = ResultContext {
        charged_good_order_foot_frontally: true,
        ..charger
    };
    assert_eq!(
        outcome(chart, ChargeResult::Inconclusive, &frontal).moves,
        vec![Retire]
    );
    // Set-back: shaken troops break; 2 DPs and fall back, or retire if unformed.
    let shaken = ResultContext {
        shaken: true,
        ..context(hi, Grade::B, line)
    };
    assert_eq!(
        outcome(chart, ChargeResult::SetBack, &shaken).moves,
        vec![Break]
    );
    let o = outcome(chart, ChargeResult::SetBack, &context(hi, Grade::B, line));
    assert_eq!((o.dps, o.moves), (2, vec![FallBack]));
    let o = outcome(
        chart,
        ChargeResult::SetBack,
        &context(li, Grade::B, FormationId::Unformed),
    );
    assert_eq!((o.dps, o.moves), (2, vec![Retire]));
    // Defeat: unformed troops break, others become shaken and retire, guns are taken.
    let o = outcome(chart, ChargeResult::Defeat, &context(hi, Grade::B, line));
    assert_eq!((o.becomes_shaken, o.moves), (true, vec![Retire]));
    assert_eq!(
        outcome(
            chart,
            ChargeResult::Defeat,
            &context(hi, Grade::B, FormationId::Unformed)
        )
        .moves,
        vec![Break]
    );
    assert_eq!(
        outcome(chart, ChargeResult::Defeat, &context(guns, Grade::B, line)).moves,
        vec![Captured]
    );
    // Rout: 1 casualty and break.
    let o = outcome(chart, ChargeResult::Rout, &context(hi, Grade::A, line));
    assert_eq!((o.casualties, o.moves), (1, vec![Break]));
    let o = outcome(chart, ChargeResult::Rout, &context(guns, Grade::A, line));
    assert_eq!((o.casualties, o.moves), (0, vec![Captured]));
}

#[test]
fn cm_7_20_the_score_needed_to_hit_and_its_modifiers() {
    let t = tables();
    let chart = t.charts.melee;
    let hi = troop(&t, "heavy_infantry");
    let warband = troop(&t, "warband");
    let knights = troop(&t, "shock_cavalry");
    let elephants = troop(&t, "elephants");
    // Roman infantry at the halt against knights: DF 3, -1 armoured, -1 foot facing mounted.
    assert_eq!(needed(&chart, &StandFight::new(hi, knights)), 1);
    // Knights following up against warband: AF 5, +1 momentum.
    let following = StandFight {
        momentum: true,
        ..StandFight::new(knights, warband)
    };
    assert_eq!(needed(&chart, &following), 6);
    // Rear support, ground, the command stand: +1 each.
    let all = StandFight {
        rear_support: true,
        advantage_of_ground: true,
        command_stand: true,
        ..StandFight::new(warband, warband)
    };
    assert_eq!(needed(&chart, &all), 2 + 3);
    // Elephants against heavy troops +1; against light troops not.
    assert_eq!(needed(&chart, &StandFight::new(elephants, warband)), 3 + 1);
    assert_eq!(
        needed(
            &chart,
            &StandFight::new(elephants, troop(&t, "skirmishers"))
        ),
        3
    );
}

#[test]
fn cm_7_21_a_6_always_misses_a_1_always_hits() {
    let chart = tables().charts.melee;
    assert_eq!(hitting_faces(&chart, 3), 3);
    assert_eq!(
        hitting_faces(&chart, 6),
        5,
        "a need of 6 still misses on a 6"
    );
    assert_eq!(hitting_faces(&chart, 9), 5);
    assert_eq!(
        hitting_faces(&chart, 0),
        1,
        "a need below 1 still hits on a 1"
    );
    assert_eq!(hitting_faces(&chart, -3), 1);
    assert!(hits(&chart, 3, 3) && !hits(&chart, 3, 4));
    assert!(!hits(&chart, 8, 6) && hits(&chart, -2, 1));
}

#[test]
fn cm_7_30_infantry_melee_two_rounds() {
    // T6: (received, inflicted) of units 1, 2, A and B; only unit 2 loses.
    let tally = [("1", 1, 1), ("2", 2, 1), ("A", 1, 2), ("B", 1, 1)];
    let losers: Vec<&str> = tally
        .iter()
        .filter(|(_, r, i)| melee::lost(*r, *i))
        .map(|(u, _, _)| *u)
        .collect();
    assert_eq!(losers, ["2"]);
    let t = tables();
    let hi = troop(&t, "heavy_infantry");
    // Formed: 1 DP and pushed back; unformed: breaks (7.25).
    assert_eq!(melee::loss(hi, true, false), MeleeLoss::PushedBack);
    assert_eq!(melee::loss(hi, false, false), MeleeLoss::Breaks);
    // The next round: B and unit 2 inflict 1 each, locked; A inflicts 2 to unit 1's 1.
    assert!(!melee::lost(1, 1));
    assert!(melee::lost(2, 1) && !melee::lost(1, 2));
}

#[test]
fn cm_7_26_elephants_are_never_pushed_back_and_artillery_is_captured() {
    let t = tables();
    let elephants = troop(&t, "elephants");
    assert_eq!(
        melee::loss(elephants, true, false),
        MeleeLoss::ElephantStands
    );
    assert_eq!(
        melee::loss(elephants, false, false),
        MeleeLoss::ElephantStands
    );
    assert_eq!(melee::loss(elephants, true, true), MeleeLoss::Breaks);
    assert_eq!(
        melee::loss(troop(&t, "artillery"), true, false),
        MeleeLoss::Captured
    );
}

#[test]
fn cm_7_28_cavalry_that_fail_to_push_back_must_retire() {
    // T7: cavalry B and infantry unit 2 hit each other once: no loser, but B retires.
    let t = tables();
    let cav = troop(&t, "heavy_cavalry");
    let foot = troop(&t, "heavy_infantry");
    assert!(!melee::lost(1, 1));
    assert!(cavalry_must_retire(cav, false, false));
    assert!(
        !cavalry_must_retire(foot, false, false),
        "infantry need not retire"
    );
    // Cavalry A pushed its opponent back: it stays on.
    assert!(!cavalry_must_retire(cav, false, true));
    // A losing unit is pushed back, not retired by 7.28.
    assert!(!cavalry_must_retire(cav, true, false));
}

#[test]
fn cm_7_15_numbers_shieldwall_against_cuneus() {
    // T5: Blue, 4 heavy infantry stands in shieldwall, 2 in contact and 1 overlapping on
    // each flank; Red, 4 cavalry stands that charged in cuneus, 2 in contact and 2 behind.
    let blue = Frontage {
        engaged: 2,
        overlapping: [1, 1],
        ..Default::default()
    };
    let red = Frontage {
        engaged: 2,
        second_rank: 2,
        charged_in_cuneus: true,
        ..Default::default()
    };
    assert_eq!((stands_counted(&blue), stands_counted(&red)), (4, 4));
    let chart = tables().charts.charge;
    assert_eq!(outnumbered(&chart, 4, 4, false), 0, "no one is outnumbered");
    assert!(supported(&red) && !supported(&blue));
    // Red hit in the flank: only its two engaged stands count, and it is not supported.
    let flanked = Frontage {
        hit_in_flank_or_rear: true,
        ..red
    };
    assert_eq!(stands_counted(&flanked), 2);
    assert!(!supported(&flanked));
    assert_eq!(outnumbered(&chart, 2, 4, false), -2);
    // Only one overlapping stand a flank counts; a second rank counts only in cuneus.
    let wide = Frontage {
        engaged: 2,
        overlapping: [3, 0],
        second_rank: 2,
        ..Default::default()
    };
    assert_eq!(stands_counted(&wide), 3);
    // Supported needs more than half as many stands as the engaged rank.
    assert!(!supported(&Frontage {
        engaged: 4,
        second_rank: 2,
        ..Default::default()
    }));
    assert!(supported(&Frontage {
        engaged: 4,
        second_rank: 3,
        ..Default::default()
    }));
}

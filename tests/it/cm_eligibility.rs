//! Who may initiate a charge (C&M 7.3), with the text's examples (spec B.4 T1, T9).

use bataille::rulesets::charge_and_melee::data::{FormationId, Grade, Tables, TroopType};
use bataille::rulesets::charge_and_melee::eligibility::{
    ChargeCase, line_may_initiate, may_initiate,
};
use bataille::rulesets::common::RulesetTables;

fn tables() -> Tables {
    Tables::builtin().expect("the built-in Charge & mêlée tables load")
}

fn troop<'t>(t: &'t Tables, id: &str) -> &'t TroopType {
    t.troop(id).unwrap_or_else(|| panic!("troop type {id}"))
}

fn refusal(r: Result<(), String>) -> String {
    r.expect_err("the charge is refused")
}

#[test]
fn cm_7_3_shaken_column_and_never_charging_types_may_not_initiate() {
    let t = tables();
    let hi = ChargeCase::new(troop(&t, "heavy_infantry"), Grade::A);
    assert!(may_initiate(&t, &hi, false).is_ok());
    let e = refusal(may_initiate(&t, &ChargeCase { shaken: true, ..hi }, false));
    assert!(e.contains("shaken") && e.contains("C&M 7.3"), "{e}");
    let e = refusal(may_initiate(
        &t,
        &ChargeCase {
            formation: FormationId::Column,
            ..hi
        },
        false,
    ));
    assert!(e.contains("Column"), "{e}");
    for id in ["crossbowmen", "artillery", "wagons"] {
        let c = ChargeCase::new(troop(&t, id), Grade::A);
        assert!(may_initiate(&t, &c, true).is_err(), "{id}");
    }
}

#[test]
fn cm_7_3_lancers_and_horse_archers_may_charge_together() {
    let t = tables();
    // (a) Lancers with heavy horse archers as a second rank that shot overhead: both
    // charge (only a rear rank shot).
    let lancers = ChargeCase::new(troop(&t, "shock_cavalry"), Grade::A);
    let overhead = ChargeCase {
        shot_at_short_range: true,
        ..ChargeCase::new(troop(&t, "heavy_horse_archers"), Grade::A)
    };
    assert!(
        line_may_initiate(&t, &[lancers, overhead])
            .iter()
            .all(Result::is_ok)
    );
    // (c) Heavy horse archers that shot from a front rank may not initiate.
    let front = ChargeCase {
        shot_from_front_rank: true,
        ..overhead
    };
    let e = refusal(may_initiate(&t, &front, false));
    assert!(e.contains("front rank"), "{e}");
    // (b) Roman infantry shot at short range and charge; archers behind them that shot
    // may not; archers that did not shoot may.
    let romans = ChargeCase {
        shot_at_short_range: true,
        ..ChargeCase::new(troop(&t, "heavy_infantry"), Grade::A)
    };
    assert!(may_initiate(&t, &romans, false).is_ok());
    let archers = ChargeCase {
        with_charging_heavy_infantry: true,
        ..ChargeCase::new(troop(&t, "foot_archers"), Grade::A)
    };
    assert!(may_initiate(&t, &archers, true).is_ok());
    let shot = ChargeCase {
        shot_at_short_range: true,
        ..archers
    };
    assert!(refusal(may_initiate(&t, &shot, true)).contains("short-range"));
    let alone = ChargeCase {
        with_charging_heavy_infantry: false,
        ..archers
    };
    assert!(refusal(may_initiate(&t, &alone, false)).contains("heavy infantry"));
}

#[test]
fn cm_7_3_skirmishers_and_light_cavalry_only_against_unformed_flank_or_rear() {
    let t = tables();
    for id in ["skirmishers", "light_cavalry", "light_horse_archers"] {
        let c = ChargeCase::new(troop(&t, id), Grade::A);
        assert!(
            refusal(may_initiate(&t, &c, false)).contains("exposed flank"),
            "{id}"
        );
        let flank = ChargeCase {
            against_unformed_flank_or_rear: true,
            ..c
        };
        assert!(may_initiate(&t, &flank, false).is_ok(), "{id}");
        let pursuing = ChargeCase {
            pursuing_or_unauthorised: true,
            ..c
        };
        assert!(may_initiate(&t, &pursuing, false).is_ok(), "{id}");
    }
}

#[test]
fn cm_7_3_b_and_c_grade_battle_line_eligibility() {
    let t = tables();
    let foot = troop(&t, "warband");
    let c_unit = ChargeCase::new(foot, Grade::C);
    let b_unit = ChargeCase::new(foot, Grade::B);
    // (a) Units 1, 2 (C) and 3 (B comitatus), the leader inspiring: all may charge.
    let inspired_c = ChargeCase {
        inspired: true,
        ..c_unit
    };
    let line = [
        inspired_c,
        inspired_c,
        ChargeCase {
            leader_charges_with_it: true,
            ..b_unit
        },
    ];
    assert!(line_may_initiate(&t, &line).iter().all(Result::is_ok));
    // Without inspiration, 1 and 2 charge as part of the line as long as 3 charges, and 3
    // only if the leader charges with it.
    let line = [
        c_unit,
        c_unit,
        ChargeCase {
            leader_charges_with_it: true,
            ..b_unit
        },
    ];
    assert!(line_may_initiate(&t, &line).iter().all(Result::is_ok));
    let results = line_may_initiate(&t, &[c_unit, c_unit, b_unit]);
    assert!(results.iter().all(Result::is_err), "{results:?}");
    assert!(refusal(results[2].clone()).contains("B grade"));
    assert!(refusal(results[0].clone()).contains("C grade"));
    // A leader already in combat within bow range is enough for B grade.
    let near = ChargeCase {
        leader_in_combat_within_bow_range: true,
        ..b_unit
    };
    assert!(may_initiate(&t, &near, false).is_ok());
    // (b) Units 1, 2 (C) and 3 (A): 1 and 2 with the line as long as 3 charges; alone,
    // refused; 3 unrestricted.
    let a_unit = ChargeCase::new(foot, Grade::A);
    assert!(
        line_may_initiate(&t, &[c_unit, c_unit, a_unit])
            .iter()
            .all(Result::is_ok)
    );
    assert!(may_initiate(&t, &c_unit, false).is_err());
    assert!(may_initiate(&t, &a_unit, false).is_ok());
    // Two C grade units do not carry each other.
    assert!(
        line_may_initiate(&t, &[c_unit, c_unit])
            .iter()
            .all(Result::is_err)
    );
    // Both may charge unformed troops or an exposed flank or rear on their own.
    let flank = ChargeCase {
        against_unformed_flank_or_rear: true,
        ..c_unit
    };
    assert!(may_initiate(&t, &flank, false).is_ok());
}

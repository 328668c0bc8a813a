//! Charge & mêlée's charge responses (C&M 7.10) and counter-charges (7.12).

use bataille::rulesets::charge_and_melee::data::{Category, Tables, TroopType};
use bataille::rulesets::charge_and_melee::responses::{
    Allowed, Chargers, Circumstances, Response, allowed, counter_charge_advance, rabble_answer,
};
use bataille::rulesets::common::RulesetTables;

use Response::*;

fn tables() -> Tables {
    Tables::builtin().expect("the built-in Charge & mêlée tables load")
}

fn troop<'t>(t: &'t Tables, id: &str) -> &'t TroopType {
    t.troop(id).unwrap_or_else(|| panic!("troop type {id}"))
}

/// The answers of `id` charged by `chargers` in circumstances `c`.
fn answers(t: &Tables, id: &str, chargers: &[&str], c: Circumstances) -> Allowed {
    let chargers: Vec<&TroopType> = chargers.iter().map(|x| troop(t, x)).collect();
    allowed(
        troop(t, id),
        &c,
        &Chargers::of(&chargers),
        t.charts.responses.rabble_counter_charge_from,
    )
}

fn choose(r: &[Response]) -> Allowed {
    Allowed::Choose(r.to_vec())
}

#[test]
fn cm_7_10_armed_rabble_counter_charge_on_5_or_6() {
    let t = tables();
    let a = answers(&t, "armed_rabble", &["warband"], Circumstances::default());
    assert_eq!(
        a,
        Allowed::RollD6 {
            counter_charge_from: 5
        }
    );
    let by_die: Vec<Response> = (1..=6).map(|d| rabble_answer(d, 5)).collect();
    assert_eq!(
        by_die,
        [Stand, Stand, Stand, Stand, CounterCharge, CounterCharge]
    );
}

#[test]
fn cm_7_10_archers_that_shot_stand_others_answer_as_light_infantry() {
    let t = tables();
    let shot = Circumstances {
        shot_at_short_range: true,
        ..Default::default()
    };
    assert_eq!(
        answers(&t, "foot_archers", &["warband"], shot),
        choose(&[Stand])
    );
    assert_eq!(
        answers(&t, "crossbowmen", &["warband"], shot),
        choose(&[Stand])
    );
    // Archers that did not shoot: light infantry charged by formed foot must evade.
    let none = Circumstances::default();
    assert_eq!(
        answers(&t, "foot_archers", &["warband"], none),
        choose(&[Evade])
    );
    // Crossbowmen, not light troops, stand as "all other troops".
    assert_eq!(
        answers(&t, "crossbowmen", &["warband"], none),
        choose(&[Stand])
    );
}

#[test]
fn cm_7_10_light_infantry_evade_unless_shieldwall_difficult_mounted_or_light_chargers() {
    let t = tables();
    let none = Circumstances::default();
    assert_eq!(
        answers(&t, "light_infantry", &["warband"], none),
        choose(&[Evade])
    );
    let may = choose(&[CounterCharge, Stand]);
    let shieldwall = Circumstances {
        in_shieldwall: true,
        ..none
    };
    assert_eq!(answers(&t, "light_infantry", &["warband"], shieldwall), may);
    let rough = Circumstances {
        difficult_or_obstacle: true,
        ..none
    };
    assert_eq!(answers(&t, "light_infantry", &["warband"], rough), may);
    assert_eq!(answers(&t, "light_infantry", &["shock_cavalry"], none), may);
    // "including a combination of mounted and foot"
    assert_eq!(
        answers(&t, "light_infantry", &["warband", "light_cavalry"], none),
        may
    );
    assert_eq!(
        answers(&t, "light_infantry", &["skirmishers"], none),
        may,
        "only light troops"
    );
    assert_eq!(
        answers(&t, "skirmishers", &["heavy_infantry"], none),
        choose(&[Evade])
    );
}

#[test]
fn cm_7_10_light_cavalry_counter_charge_cavalry_or_light_troops_else_evade() {
    let t = tables();
    let none = Circumstances::default();
    let may = choose(&[Evade, CounterCharge]);
    assert_eq!(answers(&t, "light_cavalry", &["shock_cavalry"], none), may);
    assert_eq!(
        answers(&t, "light_horse_archers", &["skirmishers"], none),
        may
    );
    assert_eq!(
        answers(&t, "light_cavalry", &["heavy_infantry"], none),
        choose(&[Evade])
    );
    assert_eq!(
        answers(&t, "light_cavalry", &["elephants"], none),
        choose(&[Evade])
    );
}

#[test]
fn cm_7_10_heavy_cavalry_may_evade_foot_elephants_or_shock_cavalry() {
    let t = tables();
    let none = Circumstances::default();
    let all = choose(&[Evade, CounterCharge, Stand]);
    for chargers in [["warband"], ["elephants"], ["shock_cavalry"]] {
        assert_eq!(
            answers(&t, "heavy_cavalry", &chargers, none),
            all,
            "{chargers:?}"
        );
    }
    let no_evade = choose(&[CounterCharge, Stand]);
    assert_eq!(
        answers(&t, "heavy_cavalry", &["light_cavalry"], none),
        no_evade
    );
    assert_eq!(
        answers(&t, "heavy_horse_archers", &["heavy_cavalry"], none),
        no_evade
    );
}

#[test]
fn cm_7_10_shock_cavalry_and_elephants_must_counter_charge_all_others_stand() {
    let t = tables();
    let none = Circumstances::default();
    for id in ["shock_cavalry", "elephants"] {
        assert_eq!(
            answers(&t, id, &["warband"], none),
            choose(&[CounterCharge]),
            "{id}"
        );
    }
    for id in ["heavy_infantry", "warband", "artillery", "wagons"] {
        assert_eq!(
            answers(&t, id, &["shock_cavalry"], none),
            choose(&[Stand]),
            "{id}"
        );
    }
}

#[test]
fn cm_7_12_counter_chargers_meet_half_way_infantry_against_mounted_1_jt() {
    use Category::*;
    // Of the same type, or mounted counter-charging infantry: half way.
    assert_eq!(counter_charge_advance(4, Cavalry, Cavalry, 6), 2);
    assert_eq!(
        counter_charge_advance(3, Infantry, Infantry, 5),
        1,
        "the charger covers the odd hex"
    );
    assert_eq!(counter_charge_advance(4, Cavalry, Infantry, 6), 2);
    // Infantry counter-charging cavalry: 1 JT or half way, whichever is shorter.
    assert_eq!(counter_charge_advance(4, Infantry, Cavalry, 5), 1);
    assert_eq!(counter_charge_advance(1, Infantry, Cavalry, 5), 0);
    // Never farther than its own move die gave.
    assert_eq!(counter_charge_advance(6, Cavalry, Cavalry, 2), 2);
}

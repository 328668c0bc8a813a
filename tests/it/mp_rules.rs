//! Morne Plaine, as far as it is built: its tables and the arithmetic of its combat page,
//! each test named after the rule it checks and the page's worked examples with their
//! numbers.

use bataille::rulesets::common::parse_odds;
use bataille::rulesets::morne_plaine::combat::{
    modified_die, morale_check_passes, morale_modifier, odds_column, topography_modifier,
};
use bataille::rulesets::morne_plaine::data::{Cell, Kind, Tables};

fn tables() -> Tables {
    Tables::builtin().expect("the built-in Morne Plaine tables load")
}

fn column(attack: i32, defence: i32) -> String {
    let t = tables();
    t.crt.columns[odds_column(&t.crt, attack, defence)].clone()
}

#[test]
fn mp_combat_resolution_10_against_6_is_1_5_to_1_rounded_for_the_defender() {
    // "an attack by 10 points against 6 would become 1.5 – 1"
    assert_eq!(column(10, 6), "1.5-1");
    assert_eq!(column(6, 4), "1.5-1");
    assert_eq!(column(11, 6), "1.5-1");
    assert_eq!(column(12, 6), "2-1");
}

#[test]
fn mp_combat_resolution_6_against_10_is_1_to_2_rounded_for_the_defender() {
    // "an attack by 6 strength points against 10 would become 1 – 2"
    assert_eq!(column(6, 10), "1-2");
    assert_eq!(column(5, 10), "1-2");
    assert_eq!(column(4, 10), "1-3");
    assert_eq!(column(10, 10), "1-1");
}

#[test]
fn mp_combat_resolution_both_examples_hold_without_the_designers_1_1_5_column() {
    // The 1-1.5 column is the designer's: the text's examples do not depend on it.
    let mut t = tables();
    let i = t
        .crt
        .columns
        .iter()
        .position(|c| c == "1-1.5")
        .expect("the column");
    t.crt.columns.remove(i);
    t.crt.ratios.remove(i);
    let col = |a, d| t.crt.columns[odds_column(&t.crt, a, d)].clone();
    assert_eq!(col(10, 6), "1.5-1");
    assert_eq!(col(6, 10), "1-2");
}

#[test]
fn mp_combat_resolution_odds_beyond_8_to_1_and_1_to_8_are_capped() {
    // "Odds greater than 8 – 1 are treated as 8 – 1, and odds of less than 1 – 8 as 1 – 8"
    assert_eq!(column(8, 1), "8-1");
    assert_eq!(column(40, 1), "8-1");
    assert_eq!(column(1, 8), "1-8");
    assert_eq!(column(1, 40), "1-8");
}

#[test]
fn mp_combat_resolution_the_modified_die_is_clamped_to_0_and_7() {
    // "A final result of less than 0 or more than 7 is treated respectively as 0 or 7"
    assert_eq!(modified_die(1, &[-1, -1]), 0);
    assert_eq!(modified_die(6, &[1, 2]), 7);
    assert_eq!(modified_die(3, &[1, -1, 2]), 5);
    let t = tables();
    let c = odds_column(&t.crt, 1, 1);
    assert_eq!(t.crt.cell(c, -4), t.crt.cell(c, 0));
    assert_eq!(t.crt.cell(c, 12), t.crt.cell(c, 7));
}

#[test]
fn mp_combat_topography_gives_plus_one_from_above_and_minus_one_from_below() {
    assert_eq!(topography_modifier(1, 0), 1);
    assert_eq!(topography_modifier(0, 1), -1);
    assert_eq!(topography_modifier(2, 2), 0);
}

#[test]
fn mp_combat_morale_difference_adds_one_per_two_points() {
    // "Die roll is increased by 1 point every 2 points of difference"
    assert_eq!(morale_modifier(8, 4), 2);
    assert_eq!(morale_modifier(7, 4), 1);
    assert_eq!(morale_modifier(5, 4), 0);
    assert_eq!(morale_modifier(4, 8), -2);
}

#[test]
fn mp_combat_morale_check_infantry_of_morale_4_passes_on_4() {
    // "An infantry unit has to check its morale which has a value of 4. The result of
    // die roll is 4. This value is equal to the morale value, thus the infantry unit
    // succeeded."
    assert!(morale_check_passes(4, 4));
    assert!(!morale_check_passes(4, 5));
    assert!(morale_check_passes(9, 9));
    assert!(!morale_check_passes(0, 1));
}

#[test]
fn mp_combat_results_the_crt_has_rows_0_to_7_and_cells_as_its_source_note_says() {
    let t = tables();
    assert_eq!(t.crt.cells.len(), 8);
    let one_one = t.crt.columns.iter().position(|c| c == "1-1").unwrap() as i32;
    // The rule the file's source note gives, with s = (column - 1-1 column) + (die - 3).
    let rule = |s: i32| -> &'static str {
        match s {
            ..=-8 => "3*/0",
            -7..=-6 => "2*/0",
            -5 => "2/0",
            -4..=-3 => "1*/0",
            -2 => "1/0*",
            -1 => "1/1",
            0..=1 => "1/1*",
            2 => "0/1*",
            3..=5 => "0/2*",
            _ => "0/3*",
        }
    };
    for die in 0..=7 {
        for c in 0..t.crt.columns.len() {
            let s = (c as i32 - one_one) + (die - 3);
            assert_eq!(
                t.crt.cell(c, die).to_string(),
                rule(s),
                "column {}, die {die}",
                t.crt.columns[c]
            );
        }
    }
    // Better odds and a higher die never hurt the attacker more nor the defender less.
    for die in 0..=7 {
        for c in 1..t.crt.columns.len() {
            let (a, b) = (t.crt.cell(c - 1, die), t.crt.cell(c, die));
            assert!(b.attacker_loss <= a.attacker_loss && b.defender_loss >= a.defender_loss);
        }
    }
}

#[test]
fn mp_tables_odds_headings_and_cells_parse_and_bad_ones_are_refused() {
    assert_eq!(parse_odds("1.5-1"), Some((15, 10)));
    assert_eq!(parse_odds("1-8"), Some((10, 80)));
    assert_eq!(parse_odds("2-3"), None);
    assert_eq!(parse_odds("1.55-1"), None);
    assert_eq!(
        Cell::parse("1*/0").unwrap(),
        Cell {
            attacker_loss: 1,
            attacker_check: true,
            defender_loss: 0,
            defender_check: false
        }
    );
    assert!(Cell::parse("1*").is_err());
    assert!(Cell::parse("x/1").is_err());
    let units = bataille::rulesets::morne_plaine::data::UNITS_RON.to_string();
    let crt = bataille::rulesets::morne_plaine::data::CRT_RON.replace("\"2/0\"", "\"2/O\"");
    let e = Tables::parse(["units.ron", "crt.ron"], [units.clone(), crt]).unwrap_err();
    assert!(e.message.contains("`2/O` is not a CRT cell"), "{e}");
    assert!(e.line > 1);
    let bad = units.replace("cs: 5, ma: 4, mv: 5", "cs: 5, ma: 4, mv: 10");
    let e = Tables::parse(
        ["units.ron", "crt.ron"],
        [
            bad,
            bataille::rulesets::morne_plaine::data::CRT_RON.to_string(),
        ],
    )
    .unwrap_err();
    assert!(e.message.contains("a morale value from 1 to 9"), "{e}");
    let t = tables();
    assert!(
        t.units
            .types
            .iter()
            .any(|u| u.kind == Kind::Artillery && u.bv.is_some())
    );
    assert!(
        t.unit_type("line_infantry")
            .is_some_and(|u| !u.kind.is_mounted())
    );
}

//! Charge & mêlée's tables (`rulesets/charge_and_melee/*.ron`): they load, they keep the
//! figures the text prints, and a faulty table is refused at its file, line and column.

use bataille::engine::error::LocatedError;
use bataille::rulesets::charge_and_melee::data::{
    self, Category, ChargeResult, DieKind, FormationId, Grade, Initiative, ResponseRow, Tables,
};
use bataille::rulesets::common::RulesetTables;

use crate::common::place;

fn tables() -> Tables {
    Tables::builtin().expect("the built-in Charge & mêlée tables load")
}

#[test]
fn cm_data_tables_load_with_the_printed_figures() {
    let t = tables();
    for file in [&t.troops.source, &t.formations.source, &t.charts.source] {
        assert!(
            file.contains("Printed") && file.contains("Designer's"),
            "{file}"
        );
    }
    assert!(t.troops.troops.iter().all(|x| !x.source.is_empty()));
    // 7.15's example: Roman infantry Defence Factor 3, Germanic cavalry Attack Factor 5.
    assert_eq!(t.troop("heavy_infantry").unwrap().defence, 3);
    assert_eq!(t.troop("shock_cavalry").unwrap().attack, 5);
    // 7.14's example: light horse archers shoot at long range with a factor of 1.
    assert_eq!(t.troop("light_horse_archers").unwrap().long_range, 1);
    // 7.10's rows and 7.3's restrictions by type.
    assert_eq!(
        t.troop("armed_rabble").unwrap().response,
        ResponseRow::ArmedRabble
    );
    assert_eq!(
        t.troop("elephants").unwrap().response,
        ResponseRow::CounterCharge
    );
    assert_eq!(
        t.troop("foot_archers").unwrap().initiative,
        Initiative::WithHeavyInfantry
    );
    assert_eq!(
        t.troop("crossbowmen").unwrap().initiative,
        Initiative::NotAlone
    );
    assert_eq!(
        t.troop("light_cavalry").unwrap().initiative,
        Initiative::UnformedFlankOrRear
    );
    assert_eq!(t.troop("elephants").unwrap().category, Category::Elephants);
    // The average die, and who rolls it (7.11, 7.15).
    assert_eq!(t.charts.average_die, [2, 3, 3, 4, 4, 5]);
    assert_eq!(t.die_of(Grade::A), DieKind::Average);
    assert_eq!(t.die_of(Grade::B), DieKind::D6);
    assert_eq!(t.die_of(Grade::C), DieKind::D6);
    // Column may not charge (7.3); -2 unformed or in column (7.15); cuneus (7.15, 7.19).
    assert!(!t.formation(FormationId::Column).may_charge);
    assert_eq!(t.formation(FormationId::Column).charge_modifier, -2);
    assert_eq!(t.formation(FormationId::Unformed).charge_modifier, -2);
    assert!(!t.formation(FormationId::Unformed).formed);
    assert!(t.formation(FormationId::Cuneus).second_rank_counts);
    assert_eq!(t.formation(FormationId::Cuneus).push_forward, 1);
    let bands: Vec<_> = t
        .charts
        .charge
        .bands
        .iter()
        .map(|b| (b.result, b.from, b.dps))
        .collect();
    assert_eq!(
        bands,
        vec![
            (ChargeResult::Victory, Some(5), 0),
            (ChargeResult::Success, Some(2), 1),
            (ChargeResult::Inconclusive, Some(-1), 1),
            (ChargeResult::SetBack, Some(-4), 2),
            (ChargeResult::Defeat, Some(-6), 0),
            (ChargeResult::Rout, None, 0),
        ]
    );
}

/// The tables with `from` replaced by `to` in file `i` (0 troops, 1 formations, 2
/// charts, 3 terrain), refused.
fn refused_with(i: usize, from: &str, to: &str) -> LocatedError {
    let mut texts = [
        data::TROOPS_RON,
        data::FORMATIONS_RON,
        data::CHARTS_RON,
        data::TERRAIN_RON,
    ]
    .map(str::to_string);
    assert!(texts[i].contains(from), "{} has `{from}`", data::FILES[i]);
    texts[i] = texts[i].replacen(from, to, 1);
    Tables::parse(data::FILES, texts).expect_err("the changed table is refused")
}

fn assert_at(e: &LocatedError, file: &str, at: (usize, usize), message: &str) {
    assert_eq!(e.file, file, "{e:?}");
    assert_eq!((e.line, e.column), at, "{e:?}");
    assert!(e.message.contains(message), "{e:?}");
}

#[test]
fn cm_data_faulty_tables_are_refused_at_their_line_and_column() {
    // A troop type given twice: the second.
    let e = refused_with(0, "(id: \"warband\"", "(id: \"heavy_infantry\"");
    let line_start = data::TROOPS_RON
        .lines()
        .position(|l| l.contains("(id: \"warband\""))
        .unwrap()
        + 1;
    assert_at(
        &e,
        "troops.ron",
        (line_start, 10),
        "`heavy_infantry` is given twice",
    );
    // A factor out of range, on its own entry.
    let e = refused_with(
        0,
        "attack: 2, defence: 1, short_range: 2, long_range: 1",
        "attack: 12, defence: 1, short_range: 2, long_range: 1",
    );
    let at = place(
        data::TROOPS_RON,
        "attack: 2, defence: 1, short_range: 2, long_range: 1",
        "attack",
    );
    assert_at(
        &e,
        "troops.ron",
        at,
        "`attack` of `light_horse_archers` is 12",
    );
    // An unknown field: RON's own error, located.
    let e = refused_with(
        0,
        "normal_move: 4,\n     source: \"AF 5",
        "normal_mov: 4,\n     source: \"AF 5",
    );
    assert_eq!(e.file, "troops.ron");
    assert_eq!(
        e.line,
        place(data::TROOPS_RON, "normal_move: 4,", "normal").0
    );
    // A formation missing.
    let e = refused_with(1, "    (id: Column,", "    (id: Line,");
    let at = place(data::FORMATIONS_RON, "(id: Column,", "Column");
    assert_at(&e, "formations.ron", at, "");
    assert!(
        e.message
            .contains("formation `Line` must be given once, not 2"),
        "{e:?}"
    );
    // A unit larger than six stands.
    let e = refused_with(1, "max_stands: 6", "max_stands: 7");
    assert_at(
        &e,
        "formations.ron",
        place(data::FORMATIONS_RON, "max_stands: 6", "max_stands"),
        "at most 6",
    );
    // The average die out of order.
    let e = refused_with(
        2,
        "average_die: [2, 3, 3, 4, 4, 5]",
        "average_die: [2, 3, 5, 4, 4, 3]",
    );
    assert_at(
        &e,
        "charts.ron",
        place(data::CHARTS_RON, "  average_die:", "average_die"),
        "rising order",
    );
    // The bands out of order.
    let e = refused_with(
        2,
        "(result: SetBack, from: -4,",
        "(result: SetBack, from: 3,",
    );
    assert_at(
        &e,
        "charts.ron",
        place(data::CHARTS_RON, "(result: SetBack", "from"),
        "SetBack must start below the band above (-1)",
    );
    // A band missing its open end.
    let e = refused_with(2, "(result: Rout, from: None,", "(result: Rout, from: -7,");
    assert_at(
        &e,
        "charts.ron",
        place(data::CHARTS_RON, "(result: Rout", "from"),
        "open downwards",
    );
    // Outnumbering tiers that fall.
    let e = refused_with(
        2,
        "(at_least: (4, 1), modifier: -3)",
        "(at_least: (3, 2), modifier: -3)",
    );
    assert_at(
        &e,
        "charts.ron",
        place(data::CHARTS_RON, "    outnumbered: [", "outnumbered"),
        "rising",
    );
    // A fatigue threshold that is no die face.
    let e = refused_with(2, "fatigue_from: 5", "fatigue_from: 0");
    assert_at(
        &e,
        "charts.ron",
        place(data::CHARTS_RON, "fatigue_from: 5", "fatigue_from"),
        "die face",
    );
}

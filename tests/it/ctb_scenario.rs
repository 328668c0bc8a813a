//! Charles the Bold's scenario fields read and checked (`charles_the_bold::setup`): a
//! small Falkirk-like position that passes, and each fault refused at its line and
//! column with the section it breaks.

use std::path::Path;

use crate::common::place;
use bataille::engine::error::LocatedError;
use bataille::engine::scenario::{LoadedScenario, ScenarioRules, parse_scenario};
use bataille::rulesets::charles_the_bold::data::Tables;
use bataille::rulesets::charles_the_bold::setup::read_scenario;
use bataille::rulesets::common::RulesetTables;

/// Two groups a side: English knights and archers against a schiltron and archers.
const POSITION: &str = r#"(
    name: "Test Falkirk",
    date: "1298",
    ruleset: "charles_the_bold",
    turns: 8,
    map: (columns: 12, rows: 10),
    sides: [
        (id: "english", name: "English", army: "english", break_fraction: (1, 3),
         groups: [
            (id: "marshal", name: "First battle", general: "norfolk"),
            (id: "foot", name: "The foot", general: "captain", bonus: 1),
         ]),
        (id: "scots", name: "Scots", army: "scots", break_fraction: (1, 2), poorly_trained: true,
         groups: [
            (id: "wallace", name: "Wallace's schiltrons", general: "wallace", bonus: 1),
         ]),
    ],
    first: "english",
    units: [
        (id: "norfolk", name: "Norfolk", side: "english", type: "general", hex: "1003", group: "marshal", attached: true),
        (id: "k1", name: "Knights", side: "english", type: "knights", hex: "1003", group: "marshal", facing: "W"),
        (id: "k2", name: "Knights", side: "english", type: "knights", hex: "1004", group: "marshal", facing: "W"),
        (id: "captain", name: "Captain", side: "english", type: "general", hex: "1106", group: "foot"),
        (id: "a1", name: "Archers", side: "english", type: "archers", hex: "1005", group: "foot", facing: "W", stakes: true),
        (id: "wallace", name: "Wallace", side: "scots", type: "general", hex: "0305", group: "wallace"),
        (id: "s1", name: "Schiltron", side: "scots", type: "schiltron", hex: "0405", group: "wallace", facing: "E", ranks: 2),
        (id: "s2", name: "Schiltron", side: "scots", type: "schiltron", hex: "0407", group: "wallace", facing: "E"),
    ],
    special_rules: [
        Flight(group: "wallace", round: 9),
    ],
    at_time_limit: (winner: "scots", level: Minor),
)"#;

fn read(text: &str) -> Result<(), LocatedError> {
    let path = Path::new("test_falkirk.ron");
    let file = parse_scenario(path, text.to_string())?;
    let scenario = LoadedScenario {
        path: path.to_path_buf(),
        text: text.to_string(),
        file,
        rules: ScenarioRules::none(),
        hash: String::new(),
    };
    let tables = Tables::builtin().expect("the built-in tables");
    read_scenario(&tables, &scenario).map(|_| ())
}

#[test]
fn ctb_1_0_a_scenario_with_groups_generals_and_stands_is_read() {
    // Valid but for the flight round beyond the last turn: first that, then whole.
    let e = read(POSITION).expect_err("round 9 of 8");
    assert!(
        e.message.contains("Flight: a round from 1 to 8, not 9"),
        "{e}"
    );
    let fixed = POSITION.replace("round: 9", "round: 2");
    read(&fixed).unwrap_or_else(|e| panic!("{e}"));
}

/// Each fault of the scenario fields at its place, with its section.
#[test]
fn ctb_1_1_scenario_faults_are_located_with_their_section() {
    let ok = POSITION.replace("round: 9", "round: 2");
    let refused = |from: &str, to: &str| -> (LocatedError, String) {
        assert!(ok.contains(from), "the position has `{from}`");
        let text = ok.replacen(from, to, 1);
        (read(&text).expect_err("refused"), text)
    };
    let cases: Vec<(&str, &str, &str, (&str, &str))> = vec![
        // (from, to, message part, (line holding, needle))
        (
            "army: \"english\", ",
            "",
            "needs an `army`",
            ("id: \"english\"", "\"english\""),
        ),
        (
            "army: \"scots\"",
            "army: \"picts\"",
            "unknown army list `picts`",
            ("army: \"picts\"", "\"picts\""),
        ),
        (
            "break_fraction: (1, 3)",
            "break_fraction: (2, 1)",
            "1 <= lost <= of, not (2, 1) (CtB 14.0)",
            ("break_fraction: (2, 1)", "break_fraction:"),
        ),
        (
            "general: \"wallace\"",
            "general: \"s1\"",
            "not a `general` (CtB 1.1)",
            ("general: \"s1\"", "\"s1\""),
        ),
        (
            "general: \"captain\", bonus: 1",
            "general: \"captain\", bonus: 5",
            "from -3 to 3, not 5 (CtB 1.4)",
            ("id: \"foot\"", "bonus:"),
        ),
        (
            "group: \"foot\", facing",
            "group: \"wallace\", facing",
            "group `wallace` is `scots`'s (CtB 1.1)",
            ("id: \"a1\"", "group:"),
        ),
        (
            "type: \"knights\", hex: \"1004\"",
            "type: \"schiltron\", hex: \"1004\"",
            "which the `english` list does not have",
            ("id: \"k2\"", "type:"),
        ),
        (
            "facing: \"E\", ranks",
            "facing: \"N\", ranks",
            "needs a `facing`",
            ("id: \"s1\"", "facing:"),
        ),
        (
            "ranks: 2",
            "ranks: 4",
            "from 1 to 3 ranks, as its list gives, not 4 (CtB 1.2)",
            ("id: \"s1\"", "ranks:"),
        ),
        (
            "hex: \"0407\"",
            "hex: \"0405\"",
            "one stand a hex (CtB 1.2)",
            ("id: \"s2\"", "hex:"),
        ),
        (
            "hex: \"1003\", group: \"marshal\", facing",
            "hex: \"1002\", group: \"marshal\", facing",
            "no stand of group `marshal` is in 1003 (CtB 2.1)",
            ("id: \"norfolk\"", "attached:"),
        ),
        (
            "hex: \"1004\", group: \"marshal\", facing: \"W\"",
            "hex: \"1004\", group: \"marshal\", facing: \"W\", stakes: true",
            "is not a longbow",
            ("id: \"k2\"", "stakes:"),
        ),
        (
            "hex: \"0407\", group: \"wallace\", facing: \"E\"",
            "hex: \"0407\", group: \"wallace\", facing: \"E\", attached: true",
            "only a general is attached (CtB 2.1)",
            ("id: \"s2\"", "attached:"),
        ),
        (
            "hex: \"0407\", group: \"wallace\"",
            "hex: \"0407\", group: \"bruce\"",
            "there is no group `bruce` (CtB 1.1)",
            ("id: \"s2\"", "group:"),
        ),
        (
            "Flight(group: \"wallace\", round: 2)",
            "Arrival(group: \"wallace\", from_round: 3, on: 7, certain_round: 5)",
            "an arrival die from 1 to 6, not 7",
            ("Arrival(", "on:"),
        ),
        (
            "Flight(group: \"wallace\", round: 2)",
            "Panic(group: \"comyn\", classes: [C])",
            "Panic: there is no group `comyn`",
            ("Panic(", "group:"),
        ),
        (
            "at_time_limit: (winner: \"scots\", level: Minor),",
            "",
            "needs `at_time_limit",
            ("turns:", "turns:"),
        ),
        (
            "first: \"english\",",
            "first: \"english\", options: [\"no_rain\"],",
            "unknown option `no_rain`",
            ("options:", "\"no_rain\""),
        ),
    ];
    for (from, to, message, (line_with, needle)) in cases {
        let (e, text) = refused(from, to);
        assert!(e.message.contains(message), "{from} -> {to}: {e}");
        assert_eq!(
            (e.line, e.column),
            place(&text, line_with, needle),
            "{from} -> {to}: {e}"
        );
    }
}

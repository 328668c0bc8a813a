//! Charles the Bold's scenario fields read and checked (`charles_the_bold::setup`): a
//! small Falkirk-like position that passes, and each fault refused at its line and
//! column with the section it breaks.

use std::path::{Path, PathBuf};

use crate::common::{place, root};
use bataille::engine::error::LocatedError;
use bataille::engine::hex::HexCoord;
use bataille::engine::scenario::{LoadedScenario, ScenarioRules, parse_scenario};
use bataille::rulesets::charles_the_bold::data::Tables;
use bataille::rulesets::charles_the_bold::scenario::{CtbScenario, GENERAL};
use bataille::rulesets::charles_the_bold::setup::read_scenario;
use bataille::rulesets::charles_the_bold::victory::break_at;
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

/// A stand on terrain its type cannot enter (knights in a marsh, anything in a lake) and
/// a terrain terrain.ron does not have are refused at their place (design 6, fault 12).
#[test]
fn ctb_1_2_impassable_and_unknown_terrain_are_refused() {
    let ok = POSITION.replace("round: 9", "round: 2").replace(
        "map: (columns: 12, rows: 10),",
        "map: (columns: 12, rows: 10, terrain: { \"marsh\": [\"0704\", \"0705\"], \"lake\": [\"0110\"] }),",
    );
    read(&ok).unwrap_or_else(|e| panic!("{e}"));
    let cases = [
        (
            "hex: \"1004\"",
            "hex: \"0705\"",
            "`k2` (knights, type HC) stands in marsh at 0705, which is impassable to it",
            ("id: \"k2\"", "hex:"),
        ),
        (
            "hex: \"0407\"",
            "hex: \"0110\"",
            "`s2` (schiltron, type LSp) stands in lake at 0110",
            ("id: \"s2\"", "hex:"),
        ),
        (
            "\"lake\": [",
            "\"loch\": [",
            "unknown terrain `loch` (terrain.ron has: clear,",
            ("\"loch\"", "\"loch\""),
        ),
    ];
    for (from, to, message, (line_with, needle)) in cases {
        let text = ok.replacen(from, to, 1);
        let e = read(&text).expect_err("refused");
        assert!(e.message.contains(message), "{from} -> {to}: {e}");
        assert_eq!(
            (e.line, e.column),
            place(&text, line_with, needle),
            "{from} -> {to}: {e}"
        );
    }
    // Schiltrons, being foot, may stand in the marsh.
    read(&ok.replacen("hex: \"0407\"", "hex: \"0704\"", 1)).unwrap_or_else(|e| panic!("{e}"));
}

/// A scenario file read from disk and checked as CtB reads it, with the built-in
/// tables: the shared checks (`parse_scenario`), then CtB's (`read_scenario`).
fn load(path: &Path) -> Result<(LoadedScenario, CtbScenario), LocatedError> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = parse_scenario(path, text.clone())?;
    let scenario = LoadedScenario {
        path: path.to_path_buf(),
        text,
        file,
        rules: ScenarioRules::none(),
        hash: String::new(),
    };
    let tables = Tables::builtin().expect("the built-in tables");
    let rules = read_scenario(&tables, &scenario)?;
    Ok((scenario, rules))
}

/// The shipped scenarios of Charles the Bold (design 7.1, 7.2).
const SHIPPED: [&str; 2] = [
    "scenarios/charles_the_bold/falkirk_1298.ron",
    "scenarios/charles_the_bold/grandson_1476.ron",
];

/// The terrain of hex `h` as the map gives it.
fn terrain_at(scenario: &LoadedScenario, h: HexCoord) -> &str {
    let map = &scenario.file.map;
    map.terrain
        .iter()
        .find(|(_, hexes)| hexes.contains(&h))
        .map_or(map.default_terrain.as_str(), |(name, _)| name.as_str())
}

#[test]
fn ctb_1_0_falkirk_and_grandson_pass_the_checks() {
    let tables = Tables::builtin().expect("the built-in tables");
    for file in SHIPPED {
        let (scenario, rules) = load(&root().join(file)).unwrap_or_else(|e| panic!("{e}"));
        // Every terrain of the map is one of terrain.ron's.
        for name in scenario.file.map.terrain.keys() {
            assert!(
                tables.terrain_type(name).is_some(),
                "{file}: terrain `{name}`"
            );
        }
        // Every stand stands, or enters, on terrain it may enter (CtB 3.0, terrain.ron);
        // every general is in a hex of the map or a reinforcement.
        for (u, own) in scenario.file.units.iter().zip(&rules.units) {
            assert!(own.group.is_some(), "{file}: {} has a group", u.id);
            if u.unit_type == GENERAL {
                continue;
            }
            let army = rules
                .sides
                .iter()
                .zip(&scenario.file.sides)
                .find(|(_, s)| s.id == u.side)
                .and_then(|(own, _)| own.army.clone())
                .expect("the side's army");
            let entry = tables.entry(&army, &u.unit_type).expect("a list entry");
            let class = tables.type_spec(&entry.kind).expect("its type").terrain;
            let hexes: Vec<HexCoord> = match u.hex {
                Some(h) => vec![h],
                None => scenario
                    .file
                    .reinforcements
                    .iter()
                    .find(|r| r.unit == u.id)
                    .map(|r| r.entry.clone())
                    .expect("a reinforcement"),
            };
            for h in hexes {
                let t = terrain_at(&scenario, h);
                let cost = tables.terrain_type(t).expect("known terrain").cost;
                assert!(
                    cost.of(class).is_some(),
                    "{file}: {} ({}) on {t} at {h}",
                    u.id,
                    u.unit_type
                );
            }
        }
        assert!(scenario.file.at_time_limit.is_some(), "{file}");
    }
}

/// The break points of each side, counted stand by stand from the lists (R-BP: every
/// rank counts), and where each army breaks, as design 7.1 and 7.2 total them.
#[test]
fn ctb_14_0_falkirk_and_grandson_break_points_are_the_designs() {
    let tables = Tables::builtin().expect("the built-in tables");
    // (file, [(side, total BP, BP lost that break it)])
    let want = [
        (SHIPPED[0], [("english", 63, 21), ("scots", 31, 16)]),
        (SHIPPED[1], [("burgundians", 61, 21), ("swiss", 62, 31)]),
    ];
    for (file, sides) in want {
        let (scenario, rules) = load(&root().join(file)).unwrap_or_else(|e| panic!("{e}"));
        for (side, total, breaks) in sides {
            let (own, _) = rules
                .sides
                .iter()
                .zip(&scenario.file.sides)
                .find(|(_, s)| s.id == side)
                .expect("the side");
            let army = own.army.as_deref().expect("its army");
            let bp: u32 = scenario
                .file
                .units
                .iter()
                .filter(|u| u.side == side && u.unit_type != GENERAL)
                .map(|u| {
                    tables
                        .entry(army, &u.unit_type)
                        .expect("an entry")
                        .total_bp()
                })
                .sum();
            assert_eq!(bp, total, "{file}: {side}'s BP");
            let fraction = own.break_fraction.expect("a break fraction");
            assert_eq!(break_at(bp, fraction), breaks, "{file}: {side} breaks");
        }
    }
}

/// What a fixture's `.expect` says (tests/malformed/README.md): the line (0 for the
/// whole file), the column if given, and a part of the message.
fn expect_of(path: &Path) -> (usize, Option<usize>, String) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut line, mut column, mut message) = (None, None, None);
    for l in text.lines().map(str::trim) {
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (key, value) = l
            .split_once(':')
            .unwrap_or_else(|| panic!("{}: `{l}` is not `key: value`", path.display()));
        let value = value.trim();
        let number = || {
            value
                .parse::<usize>()
                .unwrap_or_else(|_| panic!("{}: `{value}` is not a number", path.display()))
        };
        match key.trim() {
            "line" => line = Some(number()),
            "column" => column = Some(number()),
            "message" => message = Some(value.to_string()),
            other => panic!("{}: unknown key `{other}`", path.display()),
        }
    }
    (
        line.unwrap_or_else(|| panic!("{}: no `line:`", path.display())),
        column,
        message.unwrap_or_else(|| panic!("{}: no `message:`", path.display())),
    )
}

/// Every `tests/malformed/scenarios/ctb_*.ron` read through the shared checks and CtB's
/// `read_scenario` directly (CtB is not in the registry yet, so the generic corpus test
/// cannot read them): each refused at the line, column and message of its `.expect`,
/// the line shown being the file's and the caret under the column.
#[test]
fn ctb_malformed_fixtures_refused_at_their_place() {
    let dir = root().join("tests/malformed/scenarios");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("ctb_"))
        })
        .collect();
    paths.sort();
    for p in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "expect"))
    {
        assert!(
            p.with_extension("ron").is_file(),
            "{} has no fixture",
            p.display()
        );
    }
    let fixtures: Vec<&PathBuf> = paths
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    assert!(
        fixtures.len() >= 12,
        "only {} ctb_ fixtures",
        fixtures.len()
    );
    let mut failures = Vec::new();
    for path in fixtures {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let expect = path.with_extension("expect");
        assert!(expect.is_file(), "{} has no .expect file", path.display());
        let (line, column, message) = expect_of(&expect);
        let e = match load(path) {
            Ok(_) => {
                failures.push(format!("{name}: accepted"));
                continue;
            }
            Err(e) => e,
        };
        let mut fail = |what: String| failures.push(format!("{name}: {what}\n    got: {e}"));
        let shown = path.display().to_string();
        if e.file != shown {
            fail(format!("the error names `{}`, not `{shown}`", e.file));
        }
        if !e.message.contains(&message) {
            fail(format!("the message lacks `{message}`"));
        }
        if e.line != line {
            fail(format!("line {}, expected {line}", e.line));
        }
        if line > 0 && e.column == 0 {
            fail("no column".into());
        }
        if let Some(c) = column
            && e.column != c
        {
            fail(format!("column {}, expected {c}", e.column));
        }
        let text = std::fs::read_to_string(path).expect("fixture readable");
        if e.line > 0 && e.source_line.as_deref() != text.lines().nth(e.line - 1) {
            fail(format!("the source line shown is {:?}", e.source_line));
        }
        let display = e.to_string();
        let head = if line == 0 {
            format!("{shown}: error: ")
        } else {
            format!("{shown}:{line}:{}: error: ", e.column)
        };
        if !display.starts_with(&head) {
            fail(format!("the display does not start with `{head}`"));
        }
        if e.line > 0 && e.source_line.is_some() {
            let caret = format!("| {}^", " ".repeat(e.column - 1));
            if !display.lines().last().is_some_and(|l| l.ends_with(&caret)) {
                fail("the caret is not under the column".into());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

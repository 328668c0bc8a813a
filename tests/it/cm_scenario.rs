//! Charge & mêlée's scenario format (`charge_and_melee::scenario`) and the geometry it
//! rests on: Maldon 991 read and checked through the C&M loader (the ruleset is not in
//! the registry yet); each fault of a small position refused at its line and column,
//! naming the thing at fault; the hexes in front of, at the corners of, on the flanks of
//! and behind a stand on all six hexside facings (spec B.2 §3); each formation's shape
//! (spec B.2 §2, formations.ron).

use std::path::Path;

use crate::common::{place, root};
use bataille::engine::error::LocatedError;
use bataille::engine::hex::{HexCoord, HexsideFacing};
use bataille::engine::scenario::VictoryLevel;
use bataille::rulesets::charge_and_melee::data::{FormationId, Grade, Shape, Tables};
use bataille::rulesets::charge_and_melee::formation::{ShapeFault, check_shape, ranks};
use bataille::rulesets::charge_and_melee::scenario::{CmSpecialRule, load, load_text};
use bataille::rulesets::common::RulesetTables;

fn h(label: &str) -> HexCoord {
    HexCoord::parse(label).expect("a hex label")
}

fn hexes(labels: &[&str]) -> Vec<HexCoord> {
    labels.iter().map(|l| h(l)).collect()
}

// ---- Maldon 991 ----

#[test]
fn cm_b5_maldon_991_loads_with_its_shieldwalls_leaders_and_causeway() {
    let path = root().join("scenarios/charge_and_melee/maldon_991.ron");
    let (scenario, cm) = load(&path).unwrap_or_else(|e| panic!("{e}"));
    let file = &scenario.file;
    assert_eq!(file.name, "Maldon");
    assert_eq!(file.ruleset, "charge_and_melee");
    assert_eq!(file.turns, 10);
    assert!(!scenario.hash.is_empty());
    // Small: 6 to 10 units a side, each 1 to 6 stands.
    for side in ["english", "vikings"] {
        let n = cm
            .units
            .iter()
            .filter(|u| file.units[u.index].side == side)
            .count();
        assert!((6..=10).contains(&n), "{side}: {n} units");
    }
    let unit = |id: &str| {
        cm.units
            .iter()
            .find(|u| file.units[u.index].id == id)
            .unwrap_or_else(|| panic!("unit {id}"))
    };
    // Byrhtnoth's household: A grade comitatus in shieldwall facing the island (north).
    let household = unit("household");
    assert_eq!(household.formation, FormationId::Shieldwall);
    assert_eq!(household.facing, HexsideFacing::parse("N"));
    assert_eq!(household.grade, Grade::A);
    assert!(household.comitatus);
    assert_eq!(household.stands, hexes(&["0712", "0812", "0912"]));
    // The ealdorman commands, 3 CPs, his command stand in his household.
    let byrhtnoth = cm
        .leaders
        .iter()
        .find(|l| file.units[l.index].id == "byrhtnoth")
        .expect("Byrhtnoth");
    assert!(byrhtnoth.commander);
    assert_eq!(byrhtnoth.cps, 3);
    assert_eq!(file.units[byrhtnoth.with].id, "household");
    // The Vikings' first crews in column at the island's end of the causeway.
    let crew = unit("crew_1");
    assert_eq!(crew.formation, FormationId::Column);
    assert_eq!(crew.stands, hexes(&["0804", "0803", "0802"]));
    // The causeway is the one way over: every hex beside it in the channel is mud or water.
    let terrain = |hex: &str| {
        file.map
            .terrain
            .iter()
            .find(|(_, hs)| hs.contains(&h(hex)))
            .map(|(n, _)| n.as_str())
    };
    for row in 5..=9 {
        assert_eq!(terrain(&format!("08{row:02}")), Some("causeway"));
    }
    assert_eq!(terrain("0707"), Some("mud"));
    assert_eq!(terrain("0307"), Some("river"));
    // Every stand is on ground a stand may stand on, and no hex holds two.
    let tables = Tables::builtin().expect("tables");
    let mut all: Vec<HexCoord> = cm.units.iter().flat_map(|u| u.stands.clone()).collect();
    for s in &all {
        let t = terrain(&s.to_string()).unwrap_or("clear");
        assert!(tables.terrain_type(t).expect("terrain").passable, "{s}");
    }
    let n = all.len();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), n, "one stand a hex");
    // The passage over the causeway and the flight on the ealdorman's death are data.
    let rules = &cm.fields.special_rules;
    assert!(rules.iter().any(|r| matches!(r,
        CmSpecialRule::Passage { side, hexes, until_turn: 2, .. }
            if side == "vikings" && hexes.contains(&h("0807")))));
    assert!(rules.iter().any(|r| matches!(r,
        CmSpecialRule::ControlTestsOnDeath { leader, units, .. }
            if leader == "byrhtnoth" && units.iter().any(|u| u == "oddas_sons"))));
    assert!(rules.iter().any(|r| matches!(r,
        CmSpecialRule::ArmyBreaks { side, level: VictoryLevel::Major, .. } if side == "english")));
    let tl = file.at_time_limit.as_ref().expect("at_time_limit");
    assert_eq!(tl.winner, "english");
    // Every figure the texts do not give is marked as the designer's.
    assert!(file.source.contains("Battle of Maldon") && file.source.contains("Chronicle"));
    assert!(file.source.contains("Designer's"));
    assert!(file.map.source.contains("Designer's"));
}

#[test]
fn cm_b5_maldon_and_hastings_load_through_the_build_registry() {
    // Charge & mêlée is registered: the game's own loader reads both shipped scenarios
    // with the C&M plugin, and the menu's catalog lists them under the ruleset.
    for file in ["maldon_991.ron", "hastings_1066.ron"] {
        let path = root().join("scenarios/charge_and_melee").join(file);
        let loaded = bataille::rulesets::load_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.0.file.ruleset, "charge_and_melee");
        assert_eq!(loaded.1.id(), "charge_and_melee");
        let game = bataille::engine::game::Game::start(&path, 1, &[]).unwrap();
        assert_eq!(game.ruleset.id(), "charge_and_melee");
    }
    let entries = bataille::client::catalog::catalog(&root().join("scenarios"));
    let cm: Vec<&str> = entries
        .iter()
        .filter(|e| e.path.to_string_lossy().contains("charge_and_melee"))
        .filter_map(|e| e.summary.as_ref().ok().map(|s| s.name.as_str()))
        .collect();
    assert!(cm.contains(&"Maldon") && cm.contains(&"Hastings"), "{cm:?}");
}

// ---- the faults of a scenario ----

/// Two small armies: a shieldwall with its leader and a column against a cuneus of
/// cavalry and an unformed unit, a causeway over a river.
const POSITION: &str = r#"(
    name: "Test Maldon",
    date: "991",
    ruleset: "charge_and_melee",
    turns: 6,
    map: (columns: 12, rows: 10, terrain: {"river": ["0105", "0205"], "causeway": ["0305"]}),
    sides: [
        (id: "english", name: "English", commander: "earl"),
        (id: "vikings", name: "Vikings"),
    ],
    first: "vikings",
    units: [
        (id: "earl", name: "Earl", side: "english", type: "leader", hex: "0508", cps: 3, with: "wall"),
        (id: "wall", name: "Household", side: "english", type: "heavy_infantry",
         hex: "0408", stands: ["0508", "0608"], formation: "Shieldwall", facing: "N", grade: A, mv: 1, comitatus: true),
        (id: "col", name: "Fyrd", side: "english", type: "warband", hex: "0909", stands: ["0910"], formation: "Column", facing: "N", grade: C),
        (id: "wedge", name: "Riders", side: "vikings", type: "shock_cavalry",
         hex: "0403", stands: ["0503", "0402", "0502"], formation: "Cuneus", facing: "S", grade: B, dps: 1),
        (id: "mob", name: "Rabble", side: "vikings", type: "armed_rabble", hex: "0902", stands: ["1002"], formation: "Unformed", grade: C),
    ],
    special_rules: [
        Passage(side: "vikings", hexes: ["0305"], until_turn: 2),
        ControlTestsOnDeath(leader: "earl", units: ["col"]),
    ],
    at_time_limit: (winner: "english", level: Minor),
)"#;

fn read(text: &str) -> Result<(), LocatedError> {
    load_text(Path::new("test_maldon.ron"), text.to_string()).map(|_| ())
}

#[test]
fn cm_scenario_the_test_position_is_read() {
    let (_, cm) = load_text(Path::new("test_maldon.ron"), POSITION.to_string())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cm.units.len(), 4);
    assert_eq!(cm.leaders.len(), 1);
    let mob = cm.units.iter().find(|u| u.troop == "armed_rabble").unwrap();
    assert_eq!(mob.facing, None, "unformed troops face nowhere (C&M 7.22)");
    assert_eq!(
        cm.units
            .iter()
            .find(|u| u.troop == "shock_cavalry")
            .unwrap()
            .dps,
        1
    );
}

/// Each fault refused at its line and column, the message naming the thing at fault.
#[test]
fn cm_scenario_faults_are_refused_at_their_line_and_column() {
    let cases: Vec<(&str, &str, &str, (&str, &str))> = vec![
        // (from, to, message part, (line holding, needle))
        (
            "type: \"warband\"",
            "type: \"berserkers\"",
            "unknown troop type `berserkers`",
            ("id: \"col\"", "\"berserkers\""),
        ),
        (
            "formation: \"Column\"",
            "formation: \"Phalanx\"",
            "unknown formation `Phalanx`",
            ("id: \"col\"", "\"Phalanx\""),
        ),
        (
            "stands: [\"0910\"]",
            "stands: [\"0907\"]",
            "unit `col` is not in Column facing N: the stand in 0907 touches no other stand",
            ("id: \"col\"", "\"0907\""),
        ),
        (
            "stands: [\"0508\", \"0608\"]",
            "stands: [\"0508\", \"0507\"]",
            "unit `wall` is not in Shieldwall facing N: the stand in 0507 is neither beside nor directly behind",
            ("formation: \"Shieldwall\"", "\"0507\""),
        ),
        (
            "stands: [\"0503\", \"0402\", \"0502\"]",
            "stands: [\"0503\", \"0603\", \"0703\", \"0803\", \"0402\", \"0502\"]",
            "unit `wedge` has 7 stands: a unit is 1 to 6",
            ("hex: \"0403\"", "stands:"),
        ),
        (
            "facing: \"N\", grade: C",
            "facing: \"E\", grade: C",
            "unit `col` faces `E`, which is no hexside",
            ("id: \"col\"", "\"E\""),
        ),
        (
            "facing: \"N\", grade: C",
            "grade: C",
            "unit `col` is formed (Column) and needs a `facing`",
            ("id: \"col\"", "\"col\""),
        ),
        (
            "stands: [\"1002\"]",
            "stands: [\"1302\"]",
            "unit `mob` has a stand on 1302, off the 12x10 map",
            ("id: \"mob\"", "\"1302\""),
        ),
        (
            "stands: [\"0910\"]",
            "stands: [\"0608\"]",
            "two stands in 0608: unit `col` and unit `wall`",
            ("id: \"col\"", "\"0608\""),
        ),
        (
            "(id: \"mob\", name: \"Rabble\"",
            "(id: \"wedge\", name: \"Rabble\"",
            "unit id `wedge` is used twice",
            ("name: \"Rabble\"", "\"wedge\""),
        ),
        (
            "with: \"wall\"",
            "with: \"thegns\"",
            "leader `earl` is with unit `thegns`, which does not exist",
            ("id: \"earl\"", "\"thegns\""),
        ),
        (
            "hex: \"0508\", cps",
            "hex: \"0708\", cps",
            "leader `earl` is in 0708, where unit `wall` has no stand",
            ("id: \"earl\"", "hex:"),
        ),
        (
            "cps: 3",
            "cps: 7",
            "leader `earl` has 7 Command Points: 1 to 4",
            ("id: \"earl\"", "cps:"),
        ),
        (
            "type: \"shock_cavalry\",\n         hex: \"0403\", stands: [\"0503\", \"0402\", \"0502\"], formation: \"Cuneus\"",
            "type: \"shock_cavalry\",\n         hex: \"0403\", stands: [\"0503\", \"0402\", \"0502\"], formation: \"Shieldwall\"",
            "unit `wedge` is Shock cavalry (lancers): a Shieldwall is a formation of infantry",
            ("formation: \"Shieldwall\", facing: \"S\"", "\"Shieldwall\""),
        ),
        (
            "stands: [\"0503\", \"0402\", \"0502\"]",
            "stands: [\"0503\"]",
            "unit `wedge` is not in Cuneus facing S: 1 rank(s), where the formation has 2 to 2",
            ("hex: \"0403\"", "\"Cuneus\""),
        ),
        (
            "hex: \"0902\", stands",
            "hex: \"0205\", stands",
            "unit `mob` has a stand on 0205, River or estuary water",
            ("id: \"mob\"", "hex:"),
        ),
        (
            "\"causeway\": [\"0305\"]",
            "\"bog\": [\"0305\"]",
            "unknown terrain `bog`",
            ("map:", "\"bog\""),
        ),
        (
            "grade: C),\n        (id: \"wedge\"",
            "grade: D),\n        (id: \"wedge\"",
            "variant named `D` in enum `Grade`, expected one of `A`, `B`, or `C`",
            ("id: \"col\"", "D)"),
        ),
        (
            "mv: 1",
            "mv: 3",
            "unit `wall` has a Morale Value of 3: MV is -2 to +2",
            ("hex: \"0408\"", "mv:"),
        ),
        (
            "units: [\"col\"]",
            "units: [\"mob\"]",
            "ControlTestsOnDeath: `mob` is not a unit of stands of `earl`'s side",
            ("ControlTestsOnDeath(", "units:"),
        ),
        (
            "until_turn: 2",
            "until_turn: 9",
            "Passage: a turn from 1 to 6, not 9",
            ("Passage(", "until_turn:"),
        ),
        (
            "commander: \"earl\"",
            "commander: \"col\"",
            "side `english`'s commander `col` is not a leader of that side",
            ("id: \"english\"", "\"col\""),
        ),
    ];
    for (from, to, message, (line_with, needle)) in cases {
        assert!(POSITION.contains(from), "the position has `{from}`");
        let text = POSITION.replacen(from, to, 1);
        let e = read(&text).expect_err(&format!("{from} -> {to}: refused"));
        assert_eq!(e.file, "test_maldon.ron");
        assert!(e.message.contains(message), "{from} -> {to}: {e}");
        assert_eq!(
            (e.line, e.column),
            place(&text, line_with, needle),
            "{from} -> {to}: {e}"
        );
    }
}

#[test]
fn cm_scenario_a_binary_or_empty_file_is_refused_without_a_panic() {
    let e = read("").expect_err("empty");
    assert!(e.message.contains("empty"), "{e}");
    let e = read("(name: \"x\"").expect_err("cut short");
    assert_eq!(e.line, 1, "{e}");
    let other = POSITION.replace("ruleset: \"charge_and_melee\"", "ruleset: \"a_la_charge\"");
    let e = read(&other).expect_err("another ruleset");
    assert!(e.message.contains("not `a_la_charge`"), "{e}");
    assert_eq!(
        (e.line, e.column),
        place(&other, "ruleset:", "\"a_la_charge\"")
    );
}

// ---- hexside facing (spec B.2 §3) ----

/// The neighbours of 0505 (an odd column) and 0606 (an even one, half a hex lower),
/// clockwise from N.
const AROUND_0505: [&str; 6] = ["0504", "0604", "0605", "0506", "0405", "0404"];
const AROUND_0606: [&str; 6] = ["0605", "0706", "0707", "0607", "0507", "0506"];

#[test]
fn cm_facing_front_corners_flanks_and_rear_on_all_six_hexsides() {
    for (at, around) in [("0505", AROUND_0505), ("0606", AROUND_0606)] {
        let at = h(at);
        for (d, name) in ["N", "NE", "SE", "S", "SW", "NW"].into_iter().enumerate() {
            let f = HexsideFacing::parse(name).expect("a hexside");
            assert_eq!(f.name(), name);
            let n = |k: usize| h(around[(d + k) % 6]);
            assert_eq!(f.front(at), n(0), "{at} facing {name}: the front hex");
            assert_eq!(
                f.front_corners(at),
                [n(5), n(1)],
                "{at} facing {name}: the front corners, left then right"
            );
            assert_eq!(
                f.flanks(at),
                [n(4), n(2)],
                "{at} facing {name}: the flanks, left then right"
            );
            assert_eq!(f.rear(at), n(3), "{at} facing {name}: the rear hex");
            // The six together are the six neighbours, each once.
            let mut all = vec![f.front(at), f.rear(at)];
            all.extend(f.front_corners(at));
            all.extend(f.flanks(at));
            all.sort();
            let mut neighbours = at.neighbors().to_vec();
            neighbours.sort();
            assert_eq!(all, neighbours, "{at} facing {name}");
        }
    }
}

#[test]
fn cm_facing_about_face_swaps_front_and_rear_7_13() {
    // 7.13: stands turn 180 degrees to face a charge from the rear, never 90.
    let at = h("0505");
    for f in HexsideFacing::all() {
        let r = f.reversed();
        assert_eq!(r.front(at), f.rear(at), "{}", f.name());
        assert_eq!(r.rear(at), f.front(at), "{}", f.name());
        assert_eq!(r.reversed(), f);
        // The hexes at the old front corners are on the new flanks, left and right
        // swapped; the old flanks are the new front corners.
        let mut corners = f.front_corners(at);
        corners.reverse();
        assert_eq!(r.flanks(at), corners, "{}", f.name());
        let mut flanks = f.flanks(at);
        flanks.reverse();
        assert_eq!(r.front_corners(at), flanks, "{}", f.name());
    }
    assert_eq!(HexsideFacing::parse("ne"), HexsideFacing::parse("NE"));
    assert_eq!(HexsideFacing::parse("E"), None, "no hexside faces east");
    assert_eq!(HexsideFacing::parse("NNE"), None, "a vertex is no hexside");
}

// ---- formations (spec B.2 §2, formations.ron) ----

fn shape_of(id: FormationId) -> Shape {
    Tables::builtin().expect("tables").formation(id).shape
}

fn shaped(id: FormationId, stands: &[&str], facing: Option<&str>) -> Result<(), ShapeFault> {
    check_shape(
        &hexes(stands),
        facing.and_then(HexsideFacing::parse),
        shape_of(id),
    )
}

#[test]
fn cm_formation_line_is_one_rank_beside_one_another_or_two_ranks() {
    let line = FormationId::Line;
    // Facing N or S along a row (spec B.2 §3: 0510 0610 0710 0810 adjacent in turn).
    assert_eq!(
        shaped(line, &["0510", "0610", "0710", "0810"], Some("N")),
        Ok(())
    );
    assert_eq!(
        shaped(line, &["0810", "0510", "0710", "0610"], Some("S")),
        Ok(()),
        "in any order"
    );
    // Along a column it faces NE, SE, SW or NW, not N.
    for f in ["NE", "SE", "SW", "NW"] {
        assert_eq!(
            shaped(line, &["0505", "0506", "0507"], Some(f)),
            Ok(()),
            "{f}"
        );
    }
    assert!(matches!(
        shaped(line, &["0505", "0506", "0507"], Some("N")),
        Err(ShapeFault::Ranks(3, 1, 2))
    ));
    // A second rank, each stand directly behind one of the first.
    assert_eq!(
        shaped(line, &["0510", "0610", "0710", "0511", "0611"], Some("N")),
        Ok(())
    );
    let r = ranks(
        &hexes(&["0510", "0610", "0710", "0511", "0611"]),
        HexsideFacing(0),
    )
    .unwrap();
    assert_eq!(
        r,
        vec![hexes(&["0510", "0610", "0710"]), hexes(&["0511", "0611"])]
    );
    // A stand beside the second rank with no stand ahead of it steps the front rank.
    assert_eq!(
        shaped(line, &["0510", "0511", "0611"], Some("N")),
        Err(ShapeFault::BrokenRank(h("0611")))
    );
    // A stand at a front corner is beside its neighbour (the hex grid's rank bends by
    // half a hex), and the stand it is in front of is its second rank.
    assert_eq!(shaped(line, &["0510", "0610", "0609"], Some("N")), Ok(()));
    // Two stands a hex apart are no unit.
    assert_eq!(
        shaped(line, &["0510", "0710"], Some("N")),
        Err(ShapeFault::NotAdjacent(h("0710")))
    );
    // A formed line faces somewhere.
    assert_eq!(shaped(line, &["0510"], None), Err(ShapeFault::NoFacing));
    assert_eq!(shaped(line, &["0510"], Some("SW")), Ok(()));
}

#[test]
fn cm_formation_shieldwall_is_a_line_of_foot_7_10() {
    let sw = FormationId::Shieldwall;
    assert_eq!(shaped(sw, &["0712", "0812", "0912"], Some("N")), Ok(()));
    assert_eq!(
        shaped(sw, &["0712", "0812", "0912", "0713"], Some("N")),
        Ok(())
    );
    assert!(matches!(
        shaped(sw, &["0712", "0812", "0912", "0713", "0714"], Some("N")),
        Err(ShapeFault::Ranks(3, 1, 2))
    ));
    assert!(Tables::builtin().unwrap().formation(sw).foot_only);
}

#[test]
fn cm_formation_cuneus_has_exactly_two_ranks_7_15() {
    let cu = FormationId::Cuneus;
    // 7.15's example: 2 stands in contact and 2 in the second rank.
    assert_eq!(
        shaped(cu, &["0403", "0503", "0402", "0502"], Some("S")),
        Ok(())
    );
    // After pushing one stand forward (7.19): 3 in front, 1 behind.
    assert_eq!(
        shaped(cu, &["0403", "0503", "0603", "0502"], Some("S")),
        Ok(())
    );
    assert!(matches!(
        shaped(cu, &["0403", "0503"], Some("S")),
        Err(ShapeFault::Ranks(1, 2, 2))
    ));
    assert!(matches!(
        shaped(cu, &["0403", "0402", "0401"], Some("S")),
        Err(ShapeFault::Ranks(3, 2, 2))
    ));
}

#[test]
fn cm_formation_column_is_one_stand_wide_7_3() {
    let col = FormationId::Column;
    assert_eq!(shaped(col, &["0804", "0803", "0802"], Some("S")), Ok(()));
    assert_eq!(shaped(col, &["0505", "0604", "0704"], Some("NE")), Ok(()));
    assert_eq!(
        shaped(col, &["0805", "0804", "0803", "0802", "0801"], Some("S")),
        Ok(())
    );
    assert!(matches!(
        shaped(col, &["0804", "0904"], Some("S")),
        Err(ShapeFault::Width(2, 1))
    ));
    // The same stands facing across the column are a line, not a column.
    assert!(shaped(col, &["0804", "0803", "0802"], Some("NE")).is_err());
}

#[test]
fn cm_formation_unformed_stands_only_touch_7_22() {
    let un = FormationId::Unformed;
    assert_eq!(shaped(un, &["0505", "0506", "0605", "0404"], None), Ok(()));
    assert_eq!(
        shaped(un, &["0505", "0506"], Some("N")),
        Ok(()),
        "a facing is not read"
    );
    assert_eq!(
        shaped(un, &["0505", "0507"], None),
        Err(ShapeFault::NotAdjacent(h("0507")))
    );
    assert_eq!(
        shaped(un, &["0505", "0505"], None),
        Err(ShapeFault::SameHex(h("0505")))
    );
}

#[test]
fn cm_formation_every_formation_has_a_shape_in_the_tables() {
    let t = Tables::builtin().unwrap();
    for id in FormationId::ALL {
        let f = t.formation(id);
        assert_eq!(f.formed, f.shape != Shape::Contiguous, "{id:?}");
    }
    assert!(matches!(
        t.formation(FormationId::Column).shape,
        Shape::Ranks { max_width: 1, .. }
    ));
}

// ---- Hastings 1066 ----

#[test]
fn cm_b5_hastings_1066_loads_with_the_shieldwall_on_the_ridge_and_three_divisions() {
    let path = root().join("scenarios/charge_and_melee/hastings_1066.ron");
    let (scenario, cm) = load(&path).unwrap_or_else(|e| panic!("{e}"));
    let file = &scenario.file;
    assert_eq!((file.name.as_str(), file.turns), ("Hastings", 20));
    assert_eq!(file.first, "normans");
    let side_of = |u: &bataille::rulesets::charge_and_melee::scenario::CmUnitSpec| {
        file.units[u.index].side.clone()
    };
    let stands = |side: &str| -> usize {
        cm.units
            .iter()
            .filter(|u| side_of(u) == side)
            .map(|u| u.stands.len())
            .sum()
    };
    // Spec B.5's order of battle, about 250 men or 150 horse a stand: the English
    // housecarls 4 + 3 + 3, six units of thegns and two of the general fyrd of 3, archers
    // 2; the Normans' three divisions 14 + 22 + 11.
    assert_eq!(stands("english"), 36);
    assert_eq!(stands("normans"), 47);
    let unit = |id: &str| {
        cm.units
            .iter()
            .find(|u| file.units[u.index].id == id)
            .unwrap_or_else(|| panic!("unit {id}"))
    };
    // Harold's housecarls: A-grade comitatus in a two-rank shieldwall on the crest,
    // facing the Normans (south).
    let housecarls = unit("housecarls_harold");
    assert_eq!(housecarls.formation, FormationId::Shieldwall);
    assert_eq!(housecarls.facing, HexsideFacing::parse("S"));
    assert_eq!(housecarls.stands.len(), 4);
    assert!(housecarls.comitatus && housecarls.grade == Grade::A);
    let facing = housecarls.facing.expect("formed");
    assert_eq!(
        ranks(&housecarls.stands, facing).map(|r| r.len()).ok(),
        Some(2)
    );
    // Every English stand of the front line is on the crest (level 2), every Norman
    // below it; the English all on foot, the Normans with horse in each division.
    let board_level = |hex: HexCoord| {
        file.map
            .elevation
            .iter()
            .find(|(_, hs)| hs.contains(&hex))
            .map_or(0, |(l, _)| *l)
    };
    for id in [
        "housecarls_harold",
        "housecarls_gyrth",
        "housecarls_leofwine",
        "thegns_west_1",
        "thegns_east_1",
    ] {
        let u = unit(id);
        assert!(u.stands.iter().any(|h| board_level(*h) == 2), "{id}");
    }
    for u in cm.units.iter().filter(|u| side_of(u) == "normans") {
        assert!(
            u.stands.iter().all(|h| board_level(*h) == 0),
            "{}",
            file.units[u.index].id
        );
    }
    for u in cm.units.iter().filter(|u| side_of(u) == "english") {
        assert_ne!(u.troop, "shock_cavalry");
    }
    // The leaders of spec B.5 with their CPs; William commands.
    let cps: Vec<(String, u8, bool)> = cm
        .leaders
        .iter()
        .map(|l| (file.units[l.index].id.clone(), l.cps, l.commander))
        .collect();
    for (id, want, commander) in [
        ("harold", 3, true),
        ("gyrth", 2, false),
        ("leofwine", 2, false),
        ("william", 4, true),
        ("odo", 2, false),
        ("robert", 2, false),
        ("alan", 2, false),
        ("eustace", 2, false),
    ] {
        assert!(
            cps.contains(&(id.to_string(), want, commander)),
            "{id}: {cps:?}"
        );
    }
    // The victory conditions of spec B.5.
    let rules = &cm.fields.special_rules;
    assert!(rules.iter().any(|r| matches!(r, CmSpecialRule::LeaderKilled { leader, level: VictoryLevel::Major, .. } if leader == "william")));
    assert!(rules.iter().any(|r| matches!(r, CmSpecialRule::HoldAtEnd { side, hexes, .. } if side == "normans" && hexes.contains(&h("1407")))));
    assert!(rules.iter().any(|r| matches!(r, CmSpecialRule::ControlTestsOnDeath { leader, units, .. } if leader == "harold" && units.len() >= 8)));
}

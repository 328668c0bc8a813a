//! Helpers for the Champs de Bataille tests: small positions on a clear map with the
//! test's own counter table (every kind in every quality, regular and irregular, named
//! as DBM writes them: `Irr Wb(O)`), and seeds that roll given dice.

#![allow(dead_code)]

use bataille::engine::dice::Dice;
use bataille::engine::game::Game;
use bataille::engine::hex::{HexCoord, VertexFacing};

use crate::common::{scratch, write};

/// The counter table of the tests: tactical values and MP as the shipped table's
/// designer's choice, so the tests do not depend on the scenarios' counters.
pub fn units_ron() -> String {
    let kinds = [
        ("El", 5, 4, 2),
        ("Kn", 3, 4, 3),
        ("Cv", 3, 3, 4),
        ("LH", 2, 2, 5),
        ("Sp", 4, 4, 2),
        ("Pk", 3, 4, 2),
        ("Bd", 5, 3, 2),
        ("Ax", 3, 2, 3),
        ("Bw", 2, 4, 2),
        ("Ps", 2, 2, 3),
        ("Wb", 3, 2, 2),
        ("Hd", 2, 2, 2),
        ("Bag", 0, 0, 1),
    ];
    let mut k = String::new();
    let mut c = String::new();
    for (id, f, m, mp) in kinds {
        k.push_str(&format!(
            "(id: {id}, name: \"{id}\", vs_foot: {f}, vs_mounted: {m}, mp: {mp}),\n"
        ));
        for reg in ["Reg", "Irr"] {
            for q in ["S", "O", "I", "F", "X"] {
                let range = if id == "Bw" { ", range: 3" } else { "" };
                c.push_str(&format!(
                    "(id: \"{reg} {id}({q})\", name: \"{id}\", kind: {id}, quality: {q}, regular: {}{range}),\n",
                    reg == "Reg"
                ));
            }
        }
    }
    c.push_str("(id: \"Horse\", name: \"Equites\", kind: Cv, quality: O, regular: false, other_state: \"Horse on foot\"),\n");
    c.push_str("(id: \"Horse on foot\", name: \"Equites\", kind: Wb, quality: S, regular: false, other_state: \"Horse\"),\n");
    c.push_str("(id: \"Bag mobile\", name: \"Wagons\", kind: Bag, quality: O, regular: false, mobile: true),\n");
    c.push_str("(id: \"Chariot\", name: \"Chariots\", kind: Cv, quality: O, regular: false, chariot: true),\n");
    c.push_str("(id: \"Irr Ps(O) bow\", name: \"Archers\", kind: Ps, quality: O, regular: false, bow: true),\n");
    format!("(source: \"test table\", kinds: [{k}], counters: [{c}])")
}

/// A unit of a test position: (id, side "a"|"b", counter type, hex, facing).
pub type CU<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);

/// The RON of a position on a 16x16 clear map. Side `a` (West edge) moves first. Each
/// side has one corps (`a1`, `b1`) whose general is its first unit listed.
pub fn cdb_position_ron(units: &[CU], map: &str, extra: &str) -> String {
    let list: Vec<String> = units
        .iter()
        .map(|(id, side, t, hex, f)| {
            let hex = if hex.is_empty() {
                String::new()
            } else {
                format!(", hex: \"{hex}\"")
            };
            format!(
                "(id: \"{id}\", name: \"{id}\", side: \"{side}\", type: \"{t}\"{hex}, corps: \"{side}1\", facing: \"{f}\")"
            )
        })
        .collect();
    let general = |side: &str| {
        units
            .iter()
            .find(|u| u.1 == side)
            .map(|u| u.0)
            .expect("each side has a unit")
    };
    format!(
        r#"(
    name: "Test position",
    date: "486",
    ruleset: "champs_de_bataille",
    turns: 10,
    map: (columns: 16, rows: 16, {map}),
    sides: [
        (id: "a", name: "Side A", commander: "{ga}", edge: West, corps: [(id: "a1", name: "A", general: "{ga}")]),
        (id: "b", name: "Side B", commander: "{gb}", edge: East, corps: [(id: "b1", name: "B", general: "{gb}")]),
    ],
    first: "a",
    units: [
        {list}
    ],
    {extra}
    at_time_limit: (winner: "b", level: Minor),
)"#,
        ga = general("a"),
        gb = general("b"),
        list = list.join(",\n        ")
    )
}

pub fn cdb_game(ron: &str, seed: u64, options: &[&str]) -> Game {
    let dir = scratch("cdb");
    std::fs::create_dir_all(dir.join("rulesets/champs_de_bataille")).expect("dir");
    write(&dir, "rulesets/champs_de_bataille/units.ron", &units_ron());
    let path = write(&dir, "position.ron", ron);
    let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    Game::start(&path, seed, &options).unwrap_or_else(|e| panic!("test position loads: {e}"))
}

pub fn cdb(units: &[CU], seed: u64) -> Game {
    cdb_game(&cdb_position_ron(units, "", ""), seed, &[])
}

/// The first seed whose dice match `rolls`, `0` standing for any value.
pub fn seed_rolling_any(rolls: &[u8]) -> u64 {
    (0..5_000_000u64)
        .find(|&s| {
            let mut d = Dice::new(s);
            rolls.iter().all(|r| {
                let v = d.d6();
                *r == 0 || v == *r
            })
        })
        .expect("some seed rolls these dice")
}

pub fn h(label: &str) -> HexCoord {
    HexCoord::parse(label).expect("a hex label")
}

/// The neighbour of `label` in direction `dir` (0 = N, clockwise), as a label.
pub fn nb(label: &str, dir: usize) -> String {
    h(label).neighbor(dir).label()
}

pub const E: VertexFacing = VertexFacing(1);
pub const W: VertexFacing = VertexFacing(4);

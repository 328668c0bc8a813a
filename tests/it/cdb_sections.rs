//! Champs de Bataille: one test (or more) per numbered rule section, and the worked
//! examples 1 to 6 and 8 of the text. Each test is named after its section; refusals
//! are checked to cite it. Hex geometry: flat-topped, `CCRR`, even columns half a hex
//! lower; a unit facing `E` has front NE+SE, flanks N+S, rear SW+NW.

use bataille::engine::game::Game;
use bataille::engine::phase::PhaseKind;
use bataille::engine::units::SideId;

use crate::cdb_common::*;
use crate::common::{hex, log_text, refused, run, scratch, status, unit_state, write};

// ---- helpers ----

/// The position's units with each side's general (first) and two spare units, so that
/// one loss does not end the game by CdB 13: side a's general at 0202, side b's at 1602.
fn with_base<'a>(a: &[CU<'a>], b: &[CU<'a>]) -> Vec<CU<'a>> {
    let mut v: Vec<CU<'a>> = vec![("ga", "a", "Reg Cv(O)", "0202", "E")];
    v.extend_from_slice(a);
    v.push(("as1", "a", "Reg Bd(O)", "0116", "E"));
    v.push(("as2", "a", "Reg Bd(O)", "0115", "E"));
    v.push(("gb", "b", "Reg Cv(O)", "1602", "W"));
    v.extend_from_slice(b);
    v.push(("bs1", "b", "Reg Bd(O)", "1616", "W"));
    v.push(("bs2", "b", "Reg Bd(O)", "1615", "W"));
    v
}

fn game(a: &[CU], b: &[CU], seed: u64) -> Game {
    cdb(&with_base(a, b), seed)
}

/// A seed whose first die (side a's action points) is 6, then `rest`.
fn seed6(rest: &[u8]) -> u64 {
    let mut r = vec![6];
    r.extend_from_slice(rest);
    seed_rolling_any(&r)
}

fn flags(g: &Game, id: &str) -> Vec<String> {
    unit_state(g, id)["flags"]
        .as_array()
        .expect("flags")
        .iter()
        .map(|f| f.as_str().unwrap_or("").to_string())
        .collect()
}

fn has_flag(g: &Game, id: &str, flag: &str) -> bool {
    flags(g, id).iter().any(|f| f == flag)
}

/// The facing of a unit, which `--state` names: 0 = NNE, 1 = E, 2 = SSE, 3 = SSW,
/// 4 = W, 5 = NNW.
fn facing(g: &Game, id: &str) -> u64 {
    let name = unit_state(g, id)["facing"]
        .as_str()
        .expect("a facing")
        .to_string();
    bataille::engine::hex::VertexFacing::parse(&name)
        .expect("a facing name")
        .0 as u64
}

fn at(g: &Game, id: &str) -> String {
    hex(g, id).unwrap_or_else(|| panic!("{id} is not on the map"))
}

/// The last log line that reports the action points a movement or keep spent.
fn last_spend(g: &Game) -> String {
    log_text(g)
        .lines()
        .rev()
        .find(|l| l.contains(" spends ") || l.contains("kept in control for"))
        .unwrap_or("")
        .to_string()
}

fn last_line_with(g: &Game, needle: &str) -> String {
    log_text(g)
        .lines()
        .rev()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no log line with `{needle}`:\n{}", log_text(g)))
        .to_string()
}

/// The part of a combat result line about one unit (`NAME (HEX): die ...`).
fn score_of(line: &str, unit_name: &str) -> String {
    line.split("; ")
        .find(|p| p.starts_with(unit_name))
        .unwrap_or_else(|| panic!("no score of {unit_name} in `{line}`"))
        .to_string()
}

fn assert_refused(g: &mut Game, line: &str, section: &str) -> String {
    let r = refused(g, line);
    assert!(
        r.contains(section),
        "`{line}`: expected a refusal citing {section}, got: {r}"
    );
    r
}

fn pending(g: &Game) -> Option<String> {
    g.state_json()["pending"].as_str().map(str::to_string)
}

/// A unit of a position with several corps: (id, side, corps, type, hex, facing).
type CU2<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str, &'a str);

/// The RON of a position with the corps listed as (side, corps id, name, general);
/// `commanders` are the sides' CinC; `side_extra` is added to each side's fields.
fn corps_ron(
    units: &[CU2],
    corps: &[(&str, &str, &str, &str)],
    commanders: [&str; 2],
    side_extra: [&str; 2],
    extra: &str,
) -> String {
    let list: Vec<String> = units
        .iter()
        .map(|(id, side, c, t, hex, f)| {
            format!(
                "(id: \"{id}\", name: \"{id}\", side: \"{side}\", type: \"{t}\", hex: \"{hex}\", corps: \"{c}\", facing: \"{f}\")"
            )
        })
        .collect();
    let corps_of = |side: &str| {
        corps
            .iter()
            .filter(|c| c.0 == side)
            .map(|(_, id, name, g)| format!("(id: \"{id}\", name: \"{name}\", general: \"{g}\")"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        r#"(
    name: "Test position",
    date: "486",
    ruleset: "champs_de_bataille",
    turns: 10,
    map: (columns: 16, rows: 16),
    sides: [
        (id: "a", name: "Side A", commander: "{ca}", edge: West, {xa} corps: [{corps_a}]),
        (id: "b", name: "Side B", commander: "{cb}", edge: East, {xb} corps: [{corps_b}]),
    ],
    first: "a",
    units: [
        {list}
    ],
    {extra}
    at_time_limit: (winner: "b", level: Minor),
)"#,
        ca = commanders[0],
        cb = commanders[1],
        xa = side_extra[0],
        xb = side_extra[1],
        corps_a = corps_of("a"),
        corps_b = corps_of("b"),
        list = list.join(",\n        ")
    )
}

/// The error of a position that must not load.
fn load_error(ron: &str) -> String {
    let dir = scratch("cdb-bad");
    std::fs::create_dir_all(dir.join("rulesets/champs_de_bataille")).expect("dir");
    write(&dir, "rulesets/champs_de_bataille/units.ron", &units_ron());
    let path = write(&dir, "position.ron", ron);
    match Game::start(&path, 1, &[]) {
        Ok(_) => panic!("the position loaded:\n{ron}"),
        Err(e) => e.to_string(),
    }
}

/// Ends phases up to side a's melee (movement, both missile phases).
fn to_melee(g: &mut Game) {
    run(g, &["end", "end", "end"]);
    assert_eq!(g.turn().phase.kind, PhaseKind::Fight);
}

// ---- 1. Terrain (1.2, 9.6) ----

#[test]
fn cdb_1_2_9_6_broken_terrain_costs_cavalry_one_mp_of_its_allowance() {
    let map = "terrain: { \"broken\": [\"0404\", \"0409\", \"0413\"] }";
    let units = with_base(
        &[
            ("cv", "a", "Irr Cv(O)", "0305", "E"),
            ("ax", "a", "Reg Ax(O)", "0310", "E"),
            ("knf", "a", "Irr Kn(F)", "0314", "E"),
        ],
        &[],
    );
    let mut g = cdb_game(&cdb_position_ron(&units, map, ""), seed6(&[]), &[]);
    // Cv (4 MP) entering broken 0404: 3 MP for this move.
    let r = assert_refused(&mut g, "move cv 0404 0505 0604 0705", "CdB 9.6");
    assert!(r.contains("0 MP left"), "{r}");
    run(&mut g, &["move cv 0404 0505 0604"]);
    assert_eq!(at(&g, "cv"), "0604");
    // Kn(F) (3 MP) loses one too; foot (Auxilia, 3 MP) do not.
    assert_refused(&mut g, "move knf 0413 0514 0613", "CdB 9.6");
    run(&mut g, &["move ax 0409 0510 0609"]);
    assert_eq!(at(&g, "ax"), "0609");
}

#[test]
fn cdb_9_6_mounted_units_have_two_mp_in_difficult_terrain() {
    // Entering a marsh at once: 2 MP for the move.
    let units = with_base(&[("cv", "a", "Irr Cv(O)", "0305", "E")], &[]);
    let map = "terrain: { \"marsh\": [\"0404\", \"0505\", \"0604\"] }";
    let mut g = cdb_game(&cdb_position_ron(&units, map, ""), seed6(&[]), &[]);
    assert_refused(&mut g, "move cv 0404 0505 0604", "CdB 9.6");
    run(&mut g, &["move cv 0404 0505"]);
    assert_eq!(at(&g, "cv"), "0505");
    // Entering it after two MP in the clear: over the allowance of 2.
    let map = "terrain: { \"marsh\": [\"0604\"] }";
    let mut g = cdb_game(&cdb_position_ron(&units, map, ""), seed6(&[]), &[]);
    assert_refused(&mut g, "move cv 0404 0505 0604", "CdB 9.6");
}

#[test]
fn cdb_9_6_mounted_units_starting_in_difficult_terrain_have_two_mp() {
    // "All mounted units have an MP allowance of 2 in difficult terrain at any time in
    // their move": a unit that starts its move in a marsh is in difficult terrain during
    // its move, so it has 2 MP even if it then moves into the clear.
    let units = with_base(&[("cv", "a", "Irr Cv(O)", "0305", "E")], &[]);
    let map = "terrain: { \"marsh\": [\"0305\"] }";
    let mut g = cdb_game(&cdb_position_ron(&units, map, ""), seed6(&[]), &[]);
    assert_refused(&mut g, "move cv 0404 0505 0604", "CdB 9.6");
}

#[test]
fn cdb_9_6_chariots_never_enter_difficult_terrain_and_cross_broken_unit_by_unit() {
    // "Chariots of all types may not enter difficult terrain. In broken terrain, off
    // road chariots may only move unit by unit, not in a group."
    let map = "terrain: { \"broken\": [\"0604\"], \"marsh\": [\"0608\"] }";
    let units = with_base(
        &[
            ("c1", "a", "Chariot", "0504", "E"),
            ("c2", "a", "Chariot", "0505", "E"),
            ("c3", "a", "Chariot", "0508", "E"),
            ("h1", "a", "Irr Cv(O)", "0510", "E"),
            ("h2", "a", "Irr Cv(O)", "0511", "E"),
        ],
        &[],
    );
    let mut g = cdb_game(&cdb_position_ron(&units, map, ""), seed6(&[]), &[]);
    let r = assert_refused(&mut g, "move c3 0608", "CdB 9.6");
    assert!(r.contains("difficult"), "{r}");
    let r = assert_refused(&mut g, "march c1 0604 / c2 0605", "CdB 9.6");
    assert!(r.contains("unit by unit"), "{r}");
    // The same group of chariots in the clear, and cavalry in a group into broken
    // terrain, move.
    let ron = cdb_position_ron(&units, "terrain: { \"broken\": [\"0610\"] }", "");
    let mut clear = cdb_game(&ron, seed6(&[]), &[]);
    run(
        &mut clear,
        &["march c1 0604 / c2 0605", "march h1 0610 / h2 0611"],
    );
    assert_eq!(
        (at(&clear, "c1"), at(&clear, "h1")),
        ("0604".into(), "0610".into())
    );
    // Unit by unit, each chariot enters the broken hex.
    run(&mut g, &["move c1 0604"]);
    assert_eq!(at(&g, "c1"), "0604");
}

#[test]
fn cdb_1_2_groups_in_difficult_terrain_only_in_column() {
    // "In difficult terrain, groups may not be formed unless they are in one column
    // (i.e. placed front to rear)."
    let map = "terrain: { \"marsh\": [\"0604\", \"0605\", \"0404\", \"0505\"] }";
    let units = with_base(
        &[
            // A line (side by side, facing E) in front of the marsh 0604, 0605.
            ("l1", "a", "Reg Bd(O)", "0504", "E"),
            ("l2", "a", "Reg Bd(O)", "0505", "E"),
        ],
        &[],
    );
    let mut g = cdb_game(&cdb_position_ron(&units, map, ""), seed6(&[]), &[]);
    assert_refused(&mut g, "march l1 0604 / l2 0605", "CdB 1.2");
    // A column (front to rear) may enter it: c1 0305 -> 0404, c2 behind it.
    let units = with_base(
        &[
            ("c1", "a", "Reg Bd(O)", "0404", "E"),
            ("c2", "a", "Reg Bd(O)", "0305", "E"),
        ],
        &[],
    );
    let map = "terrain: { \"marsh\": [\"0505\"] }";
    let mut g = cdb_game(&cdb_position_ron(&units, map, ""), seed6(&[]), &[]);
    run(&mut g, &["march c1 0505 / c2 0404"]);
    assert_eq!(at(&g, "c1"), "0505");
    assert_eq!(at(&g, "c2"), "0404");
}

#[test]
fn cdb_9_4_a_column_marches_whatever_order_its_units_are_listed_in() {
    // The rear unit enters the hex the front one leaves: listed rear first, the group
    // still moves together, as when listed front first.
    let units = with_base(
        &[
            ("c1", "a", "Reg Bd(O)", "0404", "E"),
            ("c2", "a", "Reg Bd(O)", "0305", "E"),
        ],
        &[],
    );
    let mut g = cdb_game(&cdb_position_ron(&units, "", ""), seed6(&[]), &[]);
    run(&mut g, &["march c2 0404 / c1 0505"]);
    assert_eq!(at(&g, "c1"), "0505");
    assert_eq!(at(&g, "c2"), "0404");
    // Two units of a group may still not end in one hex.
    let mut g = cdb_game(&cdb_position_ron(&units, "", ""), seed6(&[]), &[]);
    let r = assert_refused(&mut g, "march c2 0404 0505 / c1 0505", "CdB 9.4");
    assert!(r.contains("0505"), "{r}");
}

// ---- 2. Units (2.5) ----

#[test]
fn cdb_2_5_impetuous_units_by_type() {
    let types = [
        ("wb", "Irr Wb(O)", true),
        ("kno", "Irr Kn(O)", true),
        ("kns", "Irr Kn(S)", true),
        ("knf", "Irr Kn(F)", true),
        ("kni", "Irr Kn(I)", false),
        ("sp", "Irr Sp(O)", true),
        ("bdo", "Irr Bd(O)", true),
        ("bds", "Irr Bd(S)", true),
        ("bdi", "Irr Bd(I)", false),
        ("rbd", "Reg Bd(O)", false),
        ("rkn", "Reg Kn(O)", false),
        ("rwb", "Reg Wb(O)", false),
        ("cv", "Irr Cv(O)", false),
        ("ps", "Irr Ps(O)", false),
        ("bag", "Bag mobile", false),
    ];
    let hexes: Vec<String> = (0..types.len())
        .map(|i| format!("{:02}{:02}", 3 + 2 * (i / 7), 2 + 2 * (i % 7)))
        .collect();
    let a: Vec<CU> = types
        .iter()
        .zip(&hexes)
        .map(|((id, t, _), h)| (*id, "a", *t, h.as_str(), "E"))
        .collect();
    let g = game(&a, &[], 1);
    for (id, t, imp) in types {
        assert_eq!(
            has_flag(&g, id, "impetuous"),
            imp,
            "{t} impetuous should be {imp}: {:?}",
            flags(&g, id)
        );
    }
}

// ---- 3. Sequence of play ----

#[test]
fn cdb_3_sequence_of_play_phases_in_order() {
    let mut g = game(&[], &[], 1);
    let a = SideId(0);
    let b = SideId(1);
    assert_eq!(g.turn().active, a);
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
    run(&mut g, &["end"]);
    assert_eq!((g.turn().active, g.turn().phase.kind), (a, PhaseKind::Fire));
    run(&mut g, &["end"]);
    // The other side's missile phase.
    assert_eq!((g.turn().active, g.turn().phase.kind), (b, PhaseKind::Fire));
    run(&mut g, &["end"]);
    assert_eq!(
        (g.turn().active, g.turn().phase.kind),
        (a, PhaseKind::Fight)
    );
    run(&mut g, &["end"]);
    assert_eq!((g.turn().active, g.turn().phase.kind), (b, PhaseKind::Move));
    run(&mut g, &["end", "end", "end", "end"]);
    assert_eq!(g.turn().turn, 2);
    assert_eq!((g.turn().active, g.turn().phase.kind), (a, PhaseKind::Move));
    let log = log_text(&g);
    let steps = [
        "Turn 1 (CdB 3)",
        "Turn 1: Side A's sequence: action points (CdB 3)",
        "Die: ",
        "action points (CdB 4.1)",
        "Side A moves (CdB 3)",
        "Missile combat: Side A shoots (CdB 10)",
        "Missile combat: Side B shoots (CdB 10)",
        "Melee: Side A resolves the melees (CdB 11)",
        "Turn 1: Side B's sequence: action points (CdB 3)",
        "Die: ",
        "Side B moves (CdB 3)",
        "Missile combat: Side B shoots (CdB 10)",
        "Missile combat: Side A shoots (CdB 10)",
        "Melee: Side B resolves the melees (CdB 11)",
        "Turn 2 (CdB 3)",
        "Turn 2: Side A's sequence: action points (CdB 3)",
    ];
    let mut from = 0;
    for s in steps {
        let i = log[from..]
            .find(s)
            .unwrap_or_else(|| panic!("`{s}` not found in order after byte {from}:\n{log}"));
        from += i + s.len();
    }
}

// ---- 4. Action points ----

fn two_corps_units() -> Vec<CU2<'static>> {
    vec![
        ("ga1", "a", "a1", "Reg Cv(O)", "0202", "E"),
        ("ga2", "a", "a2", "Reg Cv(O)", "0212", "E"),
        ("u1", "a", "a1", "Reg Bd(O)", "0305", "E"),
        ("u2", "a", "a2", "Reg Bd(O)", "0310", "E"),
        ("gb1", "b", "b1", "Irr Cv(O)", "1602", "W"),
        ("gb2", "b", "b2", "Irr Cv(O)", "1612", "W"),
        ("v1", "b", "b1", "Reg Bd(O)", "1605", "W"),
        ("v2", "b", "b2", "Reg Bd(O)", "1610", "W"),
    ]
}

const TWO_CORPS: [(&str, &str, &str, &str); 4] = [
    ("a", "a1", "First", "ga1"),
    ("a", "a2", "Second", "ga2"),
    ("b", "b1", "Third", "gb1"),
    ("b", "b2", "Fourth", "gb2"),
];

#[test]
fn cdb_4_1_regular_generals_dice_are_assigned_after_the_throw() {
    let ron = corps_ron(&two_corps_units(), &TWO_CORPS, ["ga1", "gb1"], ["", ""], "");
    let mut g = cdb_game(&ron, seed_rolling_any(&[5, 3]), &[]);
    assert!(
        log_text(&g).contains("throws 5 and 3 for the corps of the regular generals"),
        "{}",
        log_text(&g)
    );
    // Movement waits for the assignment.
    assert_refused(&mut g, "end", "CdB 4.1");
    assert_refused(&mut g, "move u1 0404", "CdB 3");
    assert_refused(&mut g, "assign a1 4 a2 3", "CdB 4.1");
    assert_refused(&mut g, "assign a1 3", "CdB 4.1");
    run(&mut g, &["assign a1 3 a2 5"]);
    let log = log_text(&g);
    assert!(log.contains("First's corps has 3 action points"), "{log}");
    assert!(log.contains("Second's corps has 5 action points"), "{log}");
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
}

#[test]
fn cdb_4_1_irregular_generals_dice_are_named_before_the_throw() {
    let mut units = two_corps_units();
    units[0].3 = "Irr Cv(O)";
    let ron = corps_ron(&units, &TWO_CORPS, ["ga1", "gb1"], ["", ""], "");
    let mut g = cdb_game(&ron, seed_rolling_any(&[5, 3]), &[]);
    // The irregular general's corps takes the first die; the one regular die is the
    // other corps'. Nothing is left to assign.
    let log = log_text(&g);
    assert!(log.contains("First's corps has 5 action points"), "{log}");
    assert!(log.contains("Second's corps has 3 action points"), "{log}");
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
    assert_refused(&mut g, "assign a1 3 a2 5", "CdB 4.1");
}

#[test]
fn cdb_4_2_irregulars_and_regulars_i_pay_one_more_to_change_facing() {
    let mut g = game(
        &[
            ("wb", "a", "Irr Wb(O)", "0503", "E"),
            ("bd", "a", "Reg Bd(O)", "0506", "E"),
            ("bdi", "a", "Reg Bd(I)", "0509", "E"),
            ("cv", "a", "Irr Cv(O)", "0512", "E"),
        ],
        &[],
        seed6(&[]),
    );
    run(&mut g, &["march wb cw 0603"]);
    let l = last_spend(&g);
    assert!(
        l.contains("spends 2 PA") && l.contains("change facing (CdB 4.2)"),
        "{l}"
    );
    run(&mut g, &["march bd cw 0606"]);
    assert!(last_spend(&g).contains("spends 1 PA"), "{}", last_spend(&g));
    run(&mut g, &["march bdi cw 0609"]);
    let l = last_spend(&g);
    assert!(
        l.contains("spends 2 PA") && l.contains("change facing"),
        "{l}"
    );
    // Irregular cavalry (O) is excepted.
    run(&mut g, &["march cv cw 0612 0613 0714"]);
    assert!(last_spend(&g).contains("spends 1 PA"), "{}", last_spend(&g));
}

#[test]
fn cdb_4_2_leaving_mp_unspent_costs_one_more_unless_ending_beside_an_enemy() {
    let mut g = game(
        &[
            ("wb", "a", "Irr Wb(O)", "0505", "E"),
            ("ax", "a", "Irr Ax(O)", "0508", "E"),
            ("ps", "a", "Irr Ps(O)", "0511", "E"),
        ],
        &[],
        seed6(&[]),
    );
    run(&mut g, &["move wb 0604"]);
    let l = last_spend(&g);
    assert!(
        l.contains("spends 2 PA") && l.contains("leave MP unspent (CdB 4.2)"),
        "{l}"
    );
    run(&mut g, &["move ax 0607"]);
    assert!(last_spend(&g).contains("spends 2 PA"), "{}", last_spend(&g));
    // Skirmishers are excepted.
    run(&mut g, &["move ps 0610"]);
    assert!(last_spend(&g).contains("spends 1 PA"), "{}", last_spend(&g));

    let mut g = game(
        &[
            ("wb", "a", "Irr Wb(O)", "0505", "E"),
            ("bdi", "a", "Reg Bd(I)", "0508", "E"),
            ("axi", "a", "Reg Ax(I)", "0511", "E"),
        ],
        &[("en", "b", "Reg Bd(O)", "0705", "W")],
        seed6(&[]),
    );
    // Ending beside an enemy: no surcharge.
    run(&mut g, &["move wb 0604"]);
    assert!(last_spend(&g).contains("spends 1 PA"), "{}", last_spend(&g));
    // Regulars (I) pay it, except light troops.
    run(&mut g, &["move bdi 0607"]);
    assert!(last_spend(&g).contains("spends 2 PA"), "{}", last_spend(&g));
    run(&mut g, &["move axi 0610"]);
    assert!(last_spend(&g).contains("spends 1 PA"), "{}", last_spend(&g));
}

#[test]
fn cdb_4_2_the_cinc_activates_for_one_pa_less_once_a_turn_and_has_an_extra_pa() {
    let mut g = game(&[], &[], seed6(&[]));
    run(&mut g, &["move ga 0302"]);
    let l = last_spend(&g);
    assert!(
        l.contains("spends 0 PA")
            && l.contains("-1 led by the Commander-in-Chief, once a turn (CdB 4.2)")
            && l.contains("6 left and the Commander-in-Chief's additional PA"),
        "{l}"
    );
    // Second activation: no discount; the CinC's additional PA pays it.
    run(&mut g, &["move ga 0402"]);
    let l = last_spend(&g);
    assert!(
        l.contains("spends 1 PA")
            && l.contains("1 of it the Commander-in-Chief's additional PA")
            && l.contains("6 left")
            && !l.contains("6 left and"),
        "{l}"
    );
    run(&mut g, &["move ga 0502"]);
    let l = last_spend(&g);
    assert!(l.contains("spends 1 PA") && l.contains("5 left"), "{l}");
}

#[test]
fn cdb_4_2_beyond_twelve_hexes_of_the_general_costs_one_more() {
    let units: Vec<CU> = vec![
        ("ga", "a", "Reg Cv(O)", "0202", "E"),
        ("far", "a", "Reg Bd(O)", "1502", "W"),
        ("near", "a", "Reg Bd(O)", "1403", "W"),
        ("gb", "b", "Reg Cv(O)", "1616", "W"),
        ("bs1", "b", "Reg Bd(O)", "1615", "W"),
        ("bs2", "b", "Reg Bd(O)", "1516", "W"),
    ];
    let mut g = cdb(&units, seed6(&[]));
    // 0202 to 1502: 13 hexes; to 1403: 12.
    run(&mut g, &["move far 1402"]);
    let l = last_spend(&g);
    assert!(
        l.contains("spends 2 PA") && l.contains("beyond command distance"),
        "{l}"
    );
    run(&mut g, &["move near 1304"]);
    assert!(last_spend(&g).contains("spends 1 PA"), "{}", last_spend(&g));
}

#[test]
fn cdb_4_2_a_general_adjacent_to_an_enemy_costs_one_more() {
    let units: Vec<CU> = vec![
        ("ga", "a", "Reg Cv(O)", "0808", "E"),
        ("u", "a", "Reg Bd(O)", "0505", "E"),
        ("as1", "a", "Reg Bd(O)", "0116", "E"),
        ("gb", "b", "Reg Cv(O)", "1616", "W"),
        ("en", "b", "Reg Bd(O)", "0908", "W"),
        ("bs1", "b", "Reg Bd(O)", "1615", "W"),
    ];
    let mut g = cdb(&units, seed6(&[]));
    run(&mut g, &["move u 0604"]);
    let l = last_spend(&g);
    assert!(
        l.contains("spends 2 PA") && l.contains("general is adjacent to an enemy unit"),
        "{l}"
    );
}

// ---- 5. Groups (and Example 1) ----

#[test]
fn cdb_example_1_five_units_facing_one_way_form_a_group_the_sixth_does_not() {
    let mut g = game(
        &[
            ("ua", "a", "Reg Bd(O)", "0504", "E"),
            ("ub", "a", "Reg Bd(O)", "0505", "E"),
            ("uc", "a", "Reg Bd(O)", "0506", "E"),
            ("ud", "a", "Reg Bd(O)", "0507", "E"),
            ("ue", "a", "Reg Bd(O)", "0508", "E"),
            // F, beside E, faces another way.
            ("uf", "a", "Reg Bd(O)", "0509", "NNE"),
        ],
        &[],
        seed6(&[]),
    );
    let r = assert_refused(
        &mut g,
        "march ua 0604 / ub 0605 / uc 0606 / ud 0607 / ue 0608 / uf 0509",
        "CdB 5.1",
    );
    assert!(r.contains("does not face the way"), "{r}");
    run(
        &mut g,
        &["march ua 0604 / ub 0605 / uc 0606 / ud 0607 / ue 0608"],
    );
    assert!(last_spend(&g).contains("spends 1 PA"), "{}", last_spend(&g));
    for (id, h) in [
        ("ua", "0604"),
        ("ub", "0605"),
        ("uc", "0606"),
        ("ud", "0607"),
        ("ue", "0608"),
    ] {
        assert_eq!(at(&g, id), h);
    }
    assert_eq!(at(&g, "uf"), "0509");
}

#[test]
fn cdb_5_1_a_group_is_adjacent_and_none_in_an_enemy_zone_at_the_start() {
    let mut g = game(
        &[
            ("x1", "a", "Reg Bd(O)", "0504", "E"),
            ("x2", "a", "Reg Bd(O)", "0506", "E"),
            // z1 stands in the zone of control of en (0803 facing W covers 0703).
            ("z1", "a", "Reg Bd(O)", "0703", "E"),
            ("z2", "a", "Reg Bd(O)", "0704", "E"),
        ],
        &[("en", "b", "Reg Bd(O)", "0803", "W")],
        seed6(&[]),
    );
    let r = assert_refused(&mut g, "march x1 0604 / x2 0606", "CdB 5.1");
    assert!(r.contains("not adjacent"), "{r}");
    let r = assert_refused(&mut g, "march z1 0603 / z2 0604", "CdB 5.1");
    assert!(r.contains("zone of control"), "{r}");
}

// ---- 6. Facing ----

#[test]
fn cdb_6_2_refacing_costs_and_limits() {
    let mut g = game(
        &[
            ("z", "a", "Reg Bd(O)", "0703", "E"),
            ("g1", "a", "Reg Bd(O)", "0508", "E"),
            ("g2", "a", "Reg Bd(O)", "0509", "E"),
            ("ps", "a", "Irr Ps(O)", "0512", "E"),
            ("cv", "a", "Reg Cv(O)", "0515", "E"),
            ("q1", "a", "Irr Ps(O)", "0302", "E"),
            ("q2", "a", "Irr Ps(O)", "0303", "E"),
        ],
        &[("bz", "b", "Reg Bd(O)", "0803", "W")],
        seed6(&[]),
    );
    // In an enemy zone of control: no refacing.
    assert_refused(&mut g, "march z cw", "CdB 6.2");
    // In a group: one vertex per movement.
    assert_refused(&mut g, "march g1 cw cw / g2 cw cw", "CdB 6.2");
    // Alone: more than one vertex, one MP each (Bd: 2 MP).
    // Exception: skirmishers in a group turn more than one vertex.
    run(&mut g, &["march q1 cw cw / q2 cw cw"]);
    assert_eq!((facing(&g, "q1"), facing(&g, "q2")), (3, 3));
    run(&mut g, &["march g1 cw cw"]);
    assert_eq!(facing(&g, "g1"), 3);
    let r = assert_refused(&mut g, "march g2 cw cw 0510", "CdB 9");
    assert!(r.contains("MP left"), "{r}");
    // A lone skirmisher turns about for 1 MP: 1 + 2 hexes = 3 MP.
    run(&mut g, &["march ps about 0412 0313"]);
    assert_eq!((at(&g, "ps").as_str(), facing(&g, "ps")), ("0313", 4));
    // Others pay a vertex each: 3 + 2 > 4 MP.
    let r = assert_refused(&mut g, "march cv about 0415 0315", "CdB 9");
    assert!(r.contains("MP left"), "{r}");
}

#[test]
fn cdb_6_2_a_unit_may_not_turn_more_vertices_than_its_mp() {
    // "A unit could change its facing at the cost of one PM per hex vertex": a Blade
    // (2 MP) has not the 3 MP of an about-turn.
    let mut g = game(&[("bd", "a", "Reg Bd(O)", "0508", "E")], &[], seed6(&[]));
    let r = refused(&mut g, "march bd about");
    assert!(r.contains("CdB 6.2") || r.contains("CdB 9"), "{r}");
    let r = refused(&mut g, "march bd cw cw cw");
    assert!(r.contains("CdB 6.2") || r.contains("CdB 9"), "{r}");
}

#[test]
fn cdb_6_3_units_held_in_an_enemy_zone_pivot_before_melee() {
    let mut g = game(
        &[
            // x has y on its north flank, and stands in y's zone.
            ("x", "a", "Reg Bd(O)", "0505", "E"),
            // p and q are side by side, neither in the other's zone.
            ("p", "a", "Reg Bd(O)", "0510", "E"),
        ],
        &[
            ("y", "b", "Reg Bd(O)", "0504", "SSW"),
            ("q", "b", "Reg Bd(O)", "0511", "E"),
        ],
        seed6(&[]),
    );
    to_melee(&mut g);
    // x pivots by the shortest route (one vertex anticlockwise) to face y.
    assert_eq!(facing(&g, "x"), 0, "{}", log_text(&g));
    assert!(
        log_text(&g).contains("pivots to face y (0504) (NNE) (CdB 6.3)"),
        "{}",
        log_text(&g)
    );
    assert_eq!(facing(&g, "y"), 3);
    // Adjacent but in neither's zone: no pivot, no melee.
    assert_eq!(facing(&g, "p"), 1);
    assert_eq!(facing(&g, "q"), 1);
    assert_refused(&mut g, "attack 0510 -> 0511", "CdB 11.1");
    // x must now engage y.
    let r = assert_refused(&mut g, "end", "CdB 11.1");
    assert!(r.contains("x (0505)"), "{r}");
}

// ---- 7. Zones of control (and Example 2) ----

#[test]
fn cdb_7_1_a_unit_entering_an_enemy_zone_must_stop() {
    let mut g = game(
        &[("m", "a", "Reg Cv(O)", "0505", "E")],
        &[("u1", "b", "Reg Bd(O)", "0705", "W")],
        seed6(&[]),
    );
    // 0604 is in u1's zone (u1 in 0705 facing W covers 0605 and 0604).
    assert_refused(&mut g, "move m 0604 0704", "CdB 7.1");
    run(&mut g, &["move m 0604"]);
    assert_eq!(at(&g, "m"), "0604");
}

#[test]
fn cdb_example_2_no_entering_a_zone_exerted_by_a_unit_on_the_flank() {
    let mut g = game(
        &[("ua", "a", "Reg Cv(O)", "0505", "E")],
        &[
            // Both exert a zone on 0605, A's right front hex; u2 would be on A's flank.
            ("u1", "b", "Reg Bd(O)", "0705", "W"),
            ("u2", "b", "Reg Bd(O)", "0606", "NNE"),
        ],
        seed6(&[]),
    );
    let r = assert_refused(&mut g, "move ua 0605", "CdB 7.1");
    assert!(r.contains("flank"), "{r}");
    // The left front hex is in u1's zone only, and u1 would be in front: allowed.
    run(&mut g, &["move ua 0604"]);
    assert_eq!(at(&g, "ua"), "0604");
}

#[test]
fn cdb_7_2_leaving_a_zone_only_to_the_rear_and_only_if_faster() {
    // cv (4 MP) in the zone of bd (2 MP): rearward only.
    let mut g = game(
        &[("cv", "a", "Irr Cv(O)", "0703", "E")],
        &[("bd", "b", "Reg Bd(O)", "0803", "W")],
        seed6(&[]),
    );
    assert_refused(&mut g, "move cv 0802", "CdB 7.2");
    run(&mut g, &["move cv 0603"]);
    assert_eq!(at(&g, "cv"), "0603");
    assert_eq!(facing(&g, "cv"), 1);

    // A Warband (2 MP) is not faster than a Blade (2 MP).
    let mut g = game(
        &[("wb", "a", "Irr Wb(O)", "0703", "E")],
        &[("bd", "b", "Reg Bd(O)", "0803", "W")],
        seed6(&[]),
    );
    let r = assert_refused(&mut g, "move wb 0603", "CdB 7.2");
    assert!(r.contains("not faster"), "{r}");

    // Held also by a unit on its flank: it may not leave.
    let mut g = game(
        &[("cv", "a", "Irr Cv(O)", "0703", "E")],
        &[
            ("bd", "b", "Reg Bd(O)", "0803", "W"),
            ("fl", "b", "Reg Bd(O)", "0704", "NNE"),
        ],
        seed6(&[]),
    );
    let r = assert_refused(&mut g, "move cv 0603", "CdB 7.2");
    assert!(r.contains("flank or rear"), "{r}");

    // Not directly into another enemy zone (z covers 0602 and 0603).
    let mut g = game(
        &[("cv", "a", "Irr Cv(O)", "0703", "E")],
        &[
            ("bd", "b", "Reg Bd(O)", "0803", "W"),
            ("z", "b", "Reg Bd(O)", "0503", "E"),
        ],
        seed6(&[]),
    );
    let r = assert_refused(&mut g, "move cv 0603", "CdB 7.2");
    assert!(r.contains("another"), "{r}");
}

// ---- 8. Stacking ----

#[test]
fn cdb_8_two_warbands_stack_entering_from_the_rear_as_the_rear_rank() {
    let mut g = game(
        &[
            ("w1", "a", "Irr Wb(O)", "0505", "E"),
            ("w2", "a", "Irr Wb(O)", "0405", "E"),
            ("cv", "a", "Reg Cv(O)", "0404", "E"),
        ],
        &[],
        seed6(&[]),
    );
    // Cavalry may not stack with a Warband.
    assert_refused(&mut g, "move cv 0505", "CdB 8");
    run(&mut g, &["move w2 0505"]);
    assert_eq!(at(&g, "w2"), "0505");
    assert!(has_flag(&g, "w2", "rear_rank"), "{:?}", flags(&g, "w2"));
    assert!(!has_flag(&g, "w1", "rear_rank"));
    // The rear rank may not advance alone (CdB 8.1); the front rank may.
    assert_refused(&mut g, "move w2 0605", "CdB 8.1");
    run(&mut g, &["move w1 0604"]);
    assert_eq!(at(&g, "w1"), "0604");
    assert_eq!(at(&g, "w2"), "0505");
    assert!(!has_flag(&g, "w2", "rear_rank"));
}

#[test]
fn cdb_8_three_units_in_a_hex_or_a_forbidden_pair_do_not_load() {
    let three = with_base(
        &[
            ("w1", "a", "Irr Wb(O)", "0505", "E"),
            ("w2", "a", "Irr Wb(O)", "0505", "E"),
            ("w3", "a", "Irr Wb(O)", "0505", "E"),
        ],
        &[],
    );
    let e = load_error(&cdb_position_ron(&three, "", ""));
    assert!(e.contains("CdB 8") && e.contains("three units"), "{e}");
    let pair = with_base(
        &[
            ("w1", "a", "Irr Wb(O)", "0505", "E"),
            ("c1", "a", "Irr Cv(O)", "0505", "E"),
        ],
        &[],
    );
    let e = load_error(&cdb_position_ron(&pair, "", ""));
    assert!(e.contains("CdB 8") && e.contains("may not stack"), "{e}");
}

#[test]
fn cdb_8_2_psiloi_and_bowmen_pass_through_friends() {
    let mut g = game(
        &[
            ("ps", "a", "Irr Ps(O)", "0508", "E"),
            ("bd", "a", "Reg Bd(O)", "0608", "E"),
            ("cv", "a", "Reg Cv(O)", "0503", "E"),
            ("bdc", "a", "Reg Bd(O)", "0603", "E"),
            ("bw", "a", "Reg Bw(O)", "0512", "E"),
            ("bd2", "a", "Reg Bd(O)", "0612", "E"),
            ("ps3", "a", "Irr Ps(O)", "0515", "E"),
            ("bd3", "a", "Reg Bd(O)", "0615", "E"),
        ],
        &[("en", "b", "Reg Bd(O)", "0716", "W")],
        seed6(&[]),
    );
    // Psiloi pass through but may not stop in the friend's hex.
    assert_refused(&mut g, "move ps 0608", "CdB 8.2");
    run(&mut g, &["move ps 0608 0708"]);
    assert_eq!(at(&g, "ps"), "0708");
    assert_eq!(at(&g, "bd"), "0608");
    // Cavalry may not pass through Blades.
    let r = assert_refused(&mut g, "move cv 0603 0703", "CdB 8");
    assert!(r.contains("nor pass through"), "{r}");
    // Bowmen pass through Blades.
    run(&mut g, &["move bw 0612 0712"]);
    assert_eq!(at(&g, "bw"), "0712");
    // A unit adjacent to an enemy is never passed through.
    let r = assert_refused(&mut g, "move ps3 0615 0715", "CdB 8");
    assert!(r.contains("nor pass through"), "{r}");
    assert_eq!(at(&g, "ps3"), "0515");
}

// ---- 9. Movement ----

#[test]
fn cdb_9_2_rearward_movement() {
    let mut g = game(
        &[
            ("bd", "a", "Reg Bd(O)", "0505", "E"),
            ("g1", "a", "Reg Bd(O)", "0508", "E"),
            ("g2", "a", "Reg Bd(O)", "0509", "E"),
            ("p1", "a", "Irr Ps(O)", "0511", "E"),
            ("p2", "a", "Irr Ps(O)", "0512", "E"),
            ("fb", "a", "Reg Cv(O)", "0515", "E"),
        ],
        &[],
        seed6(&[]),
    );
    // A single unit backs into a rear hex without changing facing.
    run(&mut g, &["move bd 0405"]);
    assert_eq!((at(&g, "bd").as_str(), facing(&g, "bd")), ("0405", 1));
    // A group of non-skirmishers may not; a group of skirmishers may.
    assert_refused(&mut g, "march g1 0408 / g2 0409", "CdB 9.2");
    run(&mut g, &["march p1 0411 / p2 0412"]);
    assert_eq!(
        (at(&g, "p1").as_str(), at(&g, "p2").as_str()),
        ("0411", "0412")
    );
    // Not forward and back in one impulse; never sideways.
    assert_refused(&mut g, "move fb 0614 0515", "CdB 9.2");
    assert_refused(&mut g, "move fb 0514", "CdB 9.1");
    // "into a rear hex without changing facing": no turn before or after it.
    let r = assert_refused(&mut g, "march fb 0415 cw", "CdB 9.2");
    assert!(r.contains("may not change facing"), "{r}");
    let rear_after_turn = bataille::engine::hex::VertexFacing(2).rear(h("0515"))[0].label();
    let r = assert_refused(&mut g, &format!("march fb cw {rear_after_turn}"), "CdB 9.2");
    assert!(r.contains("without changing facing"), "{r}");
}

#[test]
fn cdb_9_3_strategic_movement_beyond_four_hexes_of_the_enemy() {
    let mut g = game(
        &[
            ("far", "a", "Reg Cv(O)", "0208", "E"),
            ("near", "a", "Reg Cv(O)", "0711", "W"),
            ("comer", "a", "Reg Cv(O)", "0210", "E"),
        ],
        &[("e", "b", "Reg Bd(O)", "1008", "W")],
        seed6(&[]),
    );
    // far: 8 hexes from e, then 6, then 5: two impulses.
    run(&mut g, &["move far 0308 0408", "move far 0508"]);
    assert_eq!(at(&g, "far"), "0508");
    // No later impulse may come within four hexes.
    let r = assert_refused(&mut g, "move far 0608", "CdB 9.3");
    assert!(r.contains("four hexes"), "{r}");
    // near starts within four hexes: it moves once.
    run(&mut g, &["move near 0611"]);
    assert_refused(&mut g, "move near 0512", "CdB 9.3");
    // comer comes within four hexes in its first impulse: it moves once.
    run(&mut g, &["move comer 0310 0410 0510 0610"]);
    assert_refused(&mut g, "move comer 0710", "CdB 9.3");
}

#[test]
fn cdb_example_3_clovis_strategic_movement_costs_0_then_2_then_2() {
    // Two irregular generals; Clovis (CinC) leads a line of Warbands. His corps
    // throws 4.
    let units: Vec<CU2> = vec![
        ("clovis", "a", "c1", "Irr Wb(O)", "0306", "E"),
        ("w1", "a", "c1", "Irr Wb(O)", "0307", "E"),
        ("w2", "a", "c1", "Irr Wb(O)", "0308", "E"),
        ("w3", "a", "c1", "Irr Wb(O)", "0309", "E"),
        ("ragnachar", "a", "c2", "Irr Cv(O)", "0214", "E"),
        ("gb", "b", "b1", "Reg Cv(O)", "1602", "W"),
        ("x1", "b", "b1", "Reg Bd(O)", "1616", "W"),
        ("x2", "b", "b1", "Reg Bd(O)", "1615", "W"),
    ];
    let corps = [
        ("a", "c1", "Clovis", "clovis"),
        ("a", "c2", "Ragnachar", "ragnachar"),
        ("b", "b1", "Syagrius", "gb"),
    ];
    let ron = corps_ron(&units, &corps, ["clovis", "gb"], ["", ""], "");
    let mut g = cdb_game(&ron, seed_rolling_any(&[4]), &[]);
    assert!(
        log_text(&g).contains("Clovis' corps has 4 action points"),
        "{}",
        log_text(&g)
    );
    // 1. Two hexes: 1 PA, -1 because Clovis moves with the group: free.
    run(
        &mut g,
        &["march clovis 0405 0506 / w1 0406 0507 / w2 0407 0508 / w3 0408 0509"],
    );
    let l = last_spend(&g);
    assert!(
        l.contains("spends 0 PA") && l.contains("Commander-in-Chief"),
        "{l}"
    );
    // 2. One vertex and one hex: base cost plus refacing of irregulars, 2 PA.
    run(
        &mut g,
        &["march clovis cw 0606 / w1 cw 0607 / w2 cw 0608 / w3 cw 0609"],
    );
    let l = last_spend(&g);
    assert!(
        l.contains("spends 2 PA") && l.contains("change facing"),
        "{l}"
    );
    // No second discount; the CinC's additional PA pays part of it instead.
    assert!(!l.contains("-1 led by the Commander-in-Chief"), "{l}");
    assert!(
        l.contains("1 of it the Commander-in-Chief's additional PA"),
        "{l}"
    );
    // 3. Two hexes: base cost plus third movement of irregulars, 2 PA.
    run(
        &mut g,
        &["march clovis 0707 0807 / w1 0708 0808 / w2 0709 0809 / w3 0710 0810"],
    );
    let l = last_spend(&g);
    assert!(l.contains("spends 2 PA") && l.contains("march"), "{l}");
    assert_eq!(at(&g, "clovis"), "0807");
}

#[test]
fn cdb_example_4_a_group_of_cavalry_pivots_for_one_pa() {
    // A column of irregular Cv(O) (4 MP) facing E; E beside it faces SSE. Each turns
    // a vertex, then they advance SE by 3, 2, 1, 0 hexes: a wheel round D.
    let mut g = game(
        &[
            ("ea", "a", "Irr Cv(O)", "0507", "E"),
            ("eb", "a", "Irr Cv(O)", "0508", "E"),
            ("ec", "a", "Irr Cv(O)", "0509", "E"),
            ("ed", "a", "Irr Cv(O)", "0510", "E"),
            ("ee", "a", "Irr Cv(O)", "0410", "SSE"),
        ],
        &[],
        seed6(&[]),
    );
    // E is not part of the group: another facing.
    assert_refused(&mut g, "march ed cw / ee 0411", "CdB 5.1");
    run(
        &mut g,
        &["march ea cw 0607 0708 0808 / eb cw 0608 0709 / ec cw 0609 / ed cw"],
    );
    let l = last_spend(&g);
    assert!(l.contains("spends 1 PA"), "{l}");
    for (id, h) in [
        ("ea", "0808"),
        ("eb", "0709"),
        ("ec", "0609"),
        ("ed", "0510"),
    ] {
        assert_eq!((at(&g, id).as_str(), facing(&g, id)), (h, 2), "{id}");
    }
    // E is now part of the group and may make a strategic move with it.
    run(
        &mut g,
        &["march ea 0809 / eb 0710 / ec 0610 / ed 0511 / ee 0411"],
    );
    assert_eq!(at(&g, "ee"), "0411");
    assert_eq!(at(&g, "ea"), "0809");
}

#[test]
fn cdb_9_4_no_dropping_off_and_the_slowest_unit_sets_the_pace() {
    let mut g = game(
        &[
            ("d1", "a", "Reg Cv(O)", "0504", "E"),
            ("d2", "a", "Reg Cv(O)", "0505", "E"),
            ("s1", "a", "Reg Cv(O)", "0510", "E"),
            ("s2", "a", "Reg Bd(O)", "0511", "E"),
        ],
        &[],
        seed6(&[]),
    );
    let r = assert_refused(&mut g, "march d1 0603 0703 / d2 0605", "CdB 9.4");
    assert!(r.contains("dropped off"), "{r}");
    let r = assert_refused(&mut g, "march s1 0609 0709 0809 / s2 0610 0710", "CdB 9");
    assert!(r.contains("MP left"), "{r}");
    run(&mut g, &["march s1 0609 0709 / s2 0610 0710"]);
    assert_eq!(at(&g, "s1"), "0709");
}

#[test]
fn cdb_example_5_spontaneous_advance_ignores_a_skirmisher_not_in_front() {
    let mut g = game(
        &[
            ("w", "a", "Irr Wb(O)", "0505", "E"),
            ("k", "a", "Irr Wb(O)", "0510", "E"),
            ("m", "a", "Irr Wb(O)", "0513", "E"),
        ],
        &[
            // A skirmisher 2 hexes south of w (its flank), a Blade 4 hexes ahead.
            ("ps", "b", "Irr Ps(O)", "0507", "W"),
            ("bd", "b", "Reg Bd(O)", "0905", "W"),
        ],
        seed6(&[]),
    );
    assert!(has_flag(&g, "w", "impetuous"));
    // Kept in control: 1 PA, +1 for irregulars in the open.
    run(&mut g, &["keep k"]);
    assert!(
        last_spend(&g).contains("kept in control for 2 PA"),
        "{}",
        last_spend(&g)
    );
    // A unit that moved a hex is not checked.
    run(&mut g, &["move m 0612"]);
    let position = g.save_text();
    run(&mut g, &["end"]);
    // w may ignore the skirmisher, or not ("a unit is not obliged to ignore a unit of
    // skirmishers not to its front"): its player chooses.
    let p = pending(&g).unwrap_or_default();
    assert!(p.contains("choose the enemy it heads for"), "{p}");
    assert_refused(&mut g, "end", "CdB 9.5");
    assert_refused(&mut g, "towards 0510", "CdB 9.5");
    run(&mut g, &["towards 0905"]);
    let log = log_text(&g);
    assert!(
        log.contains("is out of control and advances on bd (0905)"),
        "{log}"
    );
    assert!(log.contains("(CdB 9.5)"), "{log}");
    // Its full allowance (2 MP) towards bd: two hexes east.
    let wh = h(&at(&g, "w"));
    assert_eq!(wh.col, 7, "{log}");
    assert_eq!(wh.distance(h("0905")), 2);
    assert_eq!(at(&g, "k"), "0510");
    assert_eq!(at(&g, "m"), "0612");
    // Example 5's unit E: advanced against the skirmisher on its flank instead.
    let dir = crate::common::scratch("cdb-example-5");
    let save = crate::common::write(&dir, "save.ron", &position);
    let mut g = Game::load_save(&save).expect("the save loads");
    run(&mut g, &["end", "towards 0507"]);
    let log = log_text(&g);
    assert!(
        log.contains("is out of control and advances on ps (0507)"),
        "{log}"
    );
}

#[test]
fn cdb_9_5_the_third_priority_is_the_nearest_enemy_in_movement_points() {
    // No enemy within 4 hexes, no baggage in view: w heads for the enemy nearest in
    // movement points (CdB 9.5, 3). x is 6 hexes behind it (3 vertices to turn, then
    // 5 hexes: 8 MP), y 7 hexes ahead (6 hexes: 6 MP). y it is.
    let mut g = game(
        &[("w", "a", "Irr Wb(O)", "0808", "E")],
        &[
            ("x", "b", "Reg Bd(O)", "0208", "E"),
            ("y", "b", "Reg Bd(O)", "1508", "W"),
        ],
        seed6(&[]),
    );
    run(&mut g, &["end"]);
    let log = log_text(&g);
    assert!(log.contains("advances on y (1508)"), "{log}");
    assert_eq!(facing(&g, "w"), 1, "{log}");
}

#[test]
fn cdb_9_5_a_unit_that_gave_support_against_an_attacked_enemy_is_not_checked() {
    // s, an impetuous Warband, supports att against t (Blades 5 + 3 against 5 + 1 - 1)
    // from a flank position: t is destroyed, and s has no enemy in front or in its
    // zone. In a's next movement phase s is not checked; w2, impetuous too, with no
    // support given, advances.
    let mut g = game(
        &[
            ("att", "a", "Reg Bd(O)", "0505", "E"),
            ("s", "a", "Irr Wb(O)", "0606", "NNE"),
            ("w2", "a", "Irr Wb(O)", "0310", "E"),
        ],
        &[("t", "b", "Reg Bd(O)", "0605", "W")],
        seed6(&[3, 1]),
    );
    run(&mut g, &["keep w2"]);
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert_eq!(status(&g, "t"), "eliminated", "{}", log_text(&g));
    assert!(has_flag(&g, "s", "supported"));
    while !log_text(&g)
        .split("Turn 2: Side A's sequence")
        .nth(1)
        .is_some_and(|t| t.contains("Side A moves"))
    {
        run(&mut g, &["end"]);
    }
    let before = log_text(&g).len();
    run(&mut g, &["end"]);
    // w2's advance may hesitate between equally near enemies: the first, then.
    if let Some(p) = pending(&g) {
        assert!(p.contains("w2 (0310)"), "{p}");
        let r = refused(&mut g, "towards 0116");
        let hex = r
            .split(|c: char| !c.is_ascii_digit())
            .find(|w| w.len() == 4 && *w != "0116")
            .unwrap_or_else(|| panic!("no option in {r}"))
            .to_string();
        run(&mut g, &[&format!("towards {hex}")]);
    }
    let log = log_text(&g)[before..].to_string();
    assert!(
        log.contains("is out of control and advances") && log.contains("from 0310"),
        "{log}"
    );
    assert!(!log.contains("from 0606"), "{log}");
    assert_eq!(at(&g, "s"), "0606", "{log}");
}

#[test]
fn cdb_8_2_9_5_a_spontaneous_advance_passes_through_friends_in_front() {
    // "Units making a spontaneous advance (see 9.5) can and must pass-through all
    // friendly units in their front"; they stop only at friends adjacent to an enemy
    // and Elephants (CdB 9.5). Both of w's front hexes hold Blades not adjacent to e.
    let mut g = game(
        &[
            ("w", "a", "Irr Wb(O)", "0505", "E"),
            ("f1", "a", "Reg Bd(O)", "0604", "E"),
            ("f2", "a", "Reg Bd(O)", "0605", "E"),
        ],
        &[("e", "b", "Reg Bd(O)", "0905", "W")],
        seed6(&[]),
    );
    run(&mut g, &["end"]);
    let log = log_text(&g);
    // Two MP: through a Blade's hex and on to the free hex beyond it.
    assert_eq!(h(&at(&g, "w")).col, 7, "{log}");
    // The Blade passed through ("other troops") recoils.
    assert!(
        log.contains("is passed through and recoils (CdB 8.2)"),
        "{log}"
    );
    for f in ["f1", "f2"] {
        assert_eq!(status(&g, f), "on_map");
        assert_ne!(at(&g, f), at(&g, "w"));
    }
}

#[test]
fn cdb_4_2_keeping_irregular_foot_in_broken_terrain_costs_no_extra() {
    let units = with_base(
        &[
            ("wb", "a", "Irr Wb(O)", "0505", "E"),
            ("kn", "a", "Irr Kn(O)", "0510", "E"),
        ],
        &[],
    );
    let map = "terrain: { \"broken\": [\"0505\", \"0510\"] }";
    let mut g = cdb_game(&cdb_position_ron(&units, map, ""), seed6(&[]), &[]);
    // Foot in broken terrain hold a position of advantage: 1 PA.
    run(&mut g, &["keep wb"]);
    assert!(
        last_spend(&g).contains("kept in control for 1 PA"),
        "{}",
        last_spend(&g)
    );
    // Mounted troops do not: 1 + 1 for irregulars.
    run(&mut g, &["keep kn"]);
    assert!(
        last_spend(&g).contains("kept in control for 2 PA"),
        "{}",
        last_spend(&g)
    );
    // A unit that is neither impetuous nor demoralised needs no keeping.
    assert_refused(&mut g, "keep as1", "CdB 4.2");
}

// ---- 10. Missile combat (Example 6) ----

#[test]
fn cdb_example_6_lead_with_a_rank_and_a_supporter_gives_minus_2_and_c_shoots_alone() {
    // Dice: the AP die, B's 1 and Y's 6 (no effect), C's 1 and Z's 6.
    let mut g = game(
        &[
            ("sa", "a", "Reg Bw(O)", "0504", "E"),
            ("sb", "a", "Reg Bw(O)", "0505", "E"),
            ("sb2", "a", "Reg Bw(O)", "0505", "E"),
            ("sc", "a", "Reg Bw(O)", "0506", "E"),
        ],
        &[
            // Y: 2 hexes from A and B, 3 from C; Z: 2 from C.
            ("y", "b", "Reg Bd(O)", "0704", "W"),
            ("z", "b", "Reg Bd(O)", "0707", "W"),
        ],
        seed6(&[1, 6, 1, 6]),
    );
    run(&mut g, &["end"]);
    assert_eq!(g.turn().phase.kind, PhaseKind::Fire);
    // C has a nearer target: it may not support against Y.
    assert_refused(&mut g, "attack fire 0505 0506 -> 0704", "CdB 10.1");
    run(&mut g, &["attack fire 0505 0504 -> 0704"]);
    let line = last_line_with(&g, "sb (0505): die");
    let y = score_of(&line, "y (0704)");
    assert!(
        y.contains("-2 -2 shooters in support or ranks (CdB 10.3)"),
        "{line}"
    );
    run(&mut g, &["attack fire 0506 -> 0707"]);
    let line = last_line_with(&g, "sc (0506): die");
    assert!(!line.contains("shooters in support"), "{line}");
    assert!(
        log_text(&g).contains("sc (0506) shoots at z (0707) (CdB 10)"),
        "{}",
        log_text(&g)
    );
}

#[test]
fn cdb_10_1_a_unit_that_moved_may_not_shoot() {
    let mut g = game(
        &[("bw", "a", "Reg Bw(O)", "0505", "E")],
        &[("y", "b", "Reg Bd(O)", "0805", "W")],
        seed6(&[]),
    );
    run(&mut g, &["move bw 0604", "end"]);
    assert_refused(&mut g, "attack fire 0604 -> 0805", "CdB 10.1");
}

#[test]
fn cdb_10_1_10_2_no_shooting_at_a_unit_in_frontal_contact_nor_outside_the_front_and_the_target_shoots_back()
 {
    let mut g = game(
        &[
            ("bw", "a", "Reg Bw(O)", "0505", "E"),
            ("m", "a", "Reg Bd(O)", "0510", "E"),
            ("bw2", "a", "Reg Bw(O)", "0512", "E"),
            ("bw3", "a", "Reg Bw(O)", "0515", "W"),
        ],
        &[
            ("bwt", "b", "Reg Bw(O)", "0705", "W"),
            // c is in frontal contact with m.
            ("c", "b", "Reg Bd(O)", "0610", "W"),
            // e3 is behind bw3.
            ("e3", "b", "Reg Bd(O)", "0715", "W"),
        ],
        seed6(&[]),
    );
    run(&mut g, &["end"]);
    let r = assert_refused(&mut g, "attack fire 0512 -> 0610", "CdB 10.1");
    assert!(r.contains("frontal contact"), "{r}");
    assert_refused(&mut g, "attack fire 0515 -> 0715", "CdB 10.2");
    // A missile unit shot at shoots back (CdB 10.1, 10.4).
    run(&mut g, &["attack fire 0505 -> 0705"]);
    assert!(
        log_text(&g).contains("bw (0505) shoots at bwt (0705); it shoots back (CdB 10)"),
        "{}",
        log_text(&g)
    );
}

#[test]
fn cdb_10_3_a_target_shooting_back_with_a_rank_of_bowmen_gives_the_shooter_minus_one() {
    // bwt and its rear rank bwr shoot back at bw: bw suffers -1 for the rank, as bwt
    // would for a rank behind bw.
    let mut g = game(
        &[("bw", "a", "Reg Bw(O)", "0505", "E")],
        &[
            ("bwt", "b", "Reg Bw(O)", "0705", "W"),
            ("bwr", "b", "Reg Bw(O)", "0705", "W"),
        ],
        seed6(&[3, 3]),
    );
    run(&mut g, &["end", "attack fire 0505 -> 0705"]);
    let line = last_line_with(&g, ": die 3");
    assert!(
        score_of(&line, "bw (0505)").contains("-1 rank of Bowmen of the target shooting back"),
        "{line}"
    );
    assert!(!score_of(&line, "bwt (0705)").contains("rank"), "{line}");
}

#[test]
fn cdb_10_4_a_fast_shooter_shot_back_at_takes_the_minus_one_under_missile_fire() {
    // Bowmen (F) 2 + 1 shoot at Bowmen (O) 2 + 6, who shoot back: the shooter is under
    // missile fire too, and scoring less it takes the -1 of (F) units (CdB p.34).
    let mut g = game(
        &[("bw", "a", "Reg Bw(F)", "0505", "E")],
        &[("bwt", "b", "Reg Bw(O)", "0705", "W")],
        seed6(&[1, 6]),
    );
    run(&mut g, &["end", "attack fire 0505 -> 0705"]);
    let line = last_line_with(&g, ": die 1");
    assert!(
        score_of(&line, "bw (0505)").contains("-1 (F) scoring less under missile fire"),
        "{line}"
    );
}

// ---- 11. Melee ----

#[test]
fn cdb_11_3_a_unit_supports_unless_its_other_front_hex_holds_an_enemy_in_contact() {
    // att attacks t; s (t in its front) supports: t has -1. Dice 1 and 2: 6 against 6.
    let mut g = game(
        &[
            ("att", "a", "Reg Bd(O)", "0505", "E"),
            ("s", "a", "Reg Bd(O)", "0606", "NNE"),
        ],
        &[("t", "b", "Reg Bd(O)", "0605", "W")],
        seed6(&[1, 2]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    let line = last_line_with(&g, "att (0505): die");
    let t = score_of(&line, "t (0605)");
    assert!(
        t.contains("-1 -1 enemy supports (CdB 11.3, at most 3)"),
        "{line}"
    );
    assert!(has_flag(&g, "s", "supported"));
    // CdB 11.1: a unit may not be meleed more than once per turn.
    let r = assert_refused(&mut g, "attack 0606 -> 0605", "CdB 11.1");
    assert!(r.contains("has been meleed"), "{r}");
    run(&mut g, &["end"]);

    // The same with u in s's other front hex, in frontal contact with s: no support.
    let mut g = game(
        &[
            ("att", "a", "Reg Bd(O)", "0505", "E"),
            ("s", "a", "Reg Bd(O)", "0606", "NNE"),
        ],
        &[
            ("t", "b", "Reg Bd(O)", "0605", "W"),
            ("u", "b", "Reg Cv(O)", "0706", "SSW"),
        ],
        seed6(&[1, 1]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    let line = last_line_with(&g, "att (0505): die");
    assert!(!line.contains("enemy supports"), "{line}");
    // CdB 11.1: s must fight u before the phase ends.
    let r = assert_refused(&mut g, "end", "CdB 11.1");
    assert!(r.contains("s (0606)"), "{r}");
    run(&mut g, &["attack 0606 -> 0706"]);
}

#[test]
fn cdb_example_8_a_flank_position_destroys_instead_of_recoil() {
    // Unit 2 (u2) attacks A; unit 1 (u1) on A's south flank, facing it, in no enemy
    // zone, holds a flank position. Dice 4 and 4: 9 against 8, a recoil: destroyed.
    let mut g = game(
        &[
            ("u2", "a", "Reg Bd(O)", "0505", "E"),
            ("u1", "a", "Reg Bd(O)", "0606", "NNE"),
        ],
        &[("ua", "b", "Reg Bd(O)", "0605", "W")],
        seed6(&[4, 4]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    let log = log_text(&g);
    assert!(
        log.contains(
            "u1 (0606) holds a flank position on ua (0605): no recoil, destroyed (CdB 11.4)"
        ),
        "{log}"
    );
    assert_eq!(status(&g, "ua"), "eliminated");

    // A flight begins with a recoil (CdB 11.8): Psiloi in clear that would flee from
    // Blades (6 against 2 + 4 - 1 for u1's support) are destroyed instead.
    let mut g = game(
        &[
            ("u2", "a", "Reg Bd(O)", "0505", "E"),
            ("u1", "a", "Reg Bd(O)", "0606", "NNE"),
        ],
        &[("ua", "b", "Irr Ps(O)", "0605", "W")],
        seed6(&[1, 4]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    let log = log_text(&g);
    assert!(log.contains("-> flight (CdB 11.5)"), "{log}");
    assert!(
        log.contains(
            "u1 (0606) holds a flank position on ua (0605): no recoil, destroyed (CdB 11.4)"
        ),
        "{log}"
    );
    assert_eq!(status(&g, "ua"), "eliminated");

    // u1 itself in an enemy zone (c, in frontal contact with it): no effect; A
    // recoils, into 0705 or pushing back c, which faces as it does (CdB 11.6).
    // Dice 4 and 3: 9 against 8.
    let mut g = game(
        &[
            ("u2", "a", "Reg Bd(O)", "0505", "E"),
            ("u1", "a", "Reg Bd(O)", "0606", "NNE"),
        ],
        &[
            ("ua", "b", "Reg Bd(O)", "0605", "W"),
            ("c", "b", "Reg Cv(O)", "0706", "W"),
        ],
        seed6(&[4, 3]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    let log = log_text(&g);
    assert!(!log.contains("flank position"), "{log}");
    assert!(pending(&g).is_some(), "{log}");
    run(&mut g, &["retreat 0705"]);
    assert_eq!(at(&g, "ua"), "0705", "{log}");
    assert_eq!(facing(&g, "ua"), 4);
}

#[test]
fn cdb_11_6_recoil_into_a_rear_hex_of_the_players_choice() {
    // Dice 4 and 2: Blades 9 against 7, a recoil; both rear hexes are free.
    let mut g = game(
        &[("att", "a", "Reg Bd(O)", "0505", "E")],
        &[("t", "b", "Reg Bd(O)", "0605", "W")],
        seed6(&[4, 2]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert!(pending(&g).is_some(), "{}", log_text(&g));
    assert_refused(&mut g, "end", "CdB 11.6");
    assert_refused(&mut g, "retreat 0604", "CdB 11.6");
    run(&mut g, &["retreat 0706"]);
    assert_eq!((at(&g, "t").as_str(), facing(&g, "t")), ("0706", 4));
    assert!(
        log_text(&g).contains("t recoils from 0605 to 0706 (CdB 11.6)"),
        "{}",
        log_text(&g)
    );
    // A non-impetuous winner stays (CdB 11.9).
    assert_eq!(at(&g, "att"), "0505");
}

#[test]
fn cdb_11_6_a_recoiling_unit_pushes_back_a_friend_with_the_same_facing() {
    // "It could recoil, pushing back a friendly unit through which it could not pass
    // but which has the same facing. The unit thus displaced must follow the normal
    // rules of recoil." t's rear hexes hold cavalry of its side facing W, as it does.
    let mut g = game(
        &[("att", "a", "Reg Bd(O)", "0505", "E")],
        &[
            ("t", "b", "Reg Bd(O)", "0605", "W"),
            ("p1", "b", "Reg Cv(O)", "0705", "W"),
            ("p2", "b", "Reg Cv(O)", "0706", "W"),
        ],
        seed6(&[4, 2]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert_eq!(status(&g, "t"), "on_map", "{}", log_text(&g));
    if pending(&g).is_some() {
        run(&mut g, &["retreat 0705"]);
    }
    assert_eq!(status(&g, "p1"), "on_map", "{}", log_text(&g));
    assert_eq!(status(&g, "p2"), "on_map", "{}", log_text(&g));
    assert_ne!(at(&g, "t"), "0605");
}

#[test]
fn cdb_11_2_a_defensive_position_helps_only_the_unit_attacked() {
    // Blades against Blades, the defender higher or behind a river: +1 to it alone.
    let units: &[CU] = &[
        ("att", "a", "Reg Bd(O)", "0505", "E"),
        ("t", "b", "Reg Bd(O)", "0605", "W"),
    ];
    let fight = |map: &str| {
        let mut g = cdb_game(&cdb_position_ron(units, map, ""), seed6(&[3, 3]), &[]);
        to_melee(&mut g);
        run(&mut g, &["attack 0505 -> 0605"]);
        last_line_with(&g, ": die 3")
    };
    let plain = fight("");
    assert!(!plain.contains("defensive position"), "{plain}");
    for map in [
        r#"elevation: { 1: ["0605"] }"#,
        r#"hexsides: [(between: ("0505", "0605"), features: [river])]"#,
    ] {
        let line = fight(map);
        assert!(
            score_of(&line, "t (0605)").contains("+1 defensive position"),
            "{map}: {line}"
        );
        assert!(
            !score_of(&line, "att (0505)").contains("defensive position"),
            "{map}: {line}"
        );
    }
    // The attacker higher on a hill has no defensive position.
    let line = fight(r#"elevation: { 1: ["0505"] }"#);
    assert!(!line.contains("defensive position"), "{line}");
}

#[test]
fn cdb_11_6_pushed_psiloi_go_into_the_hexes_beyond_them_away_from_the_recoiling_unit() {
    // Blades 5 + 6 against Blades 5 + 1: the loser recoils into 0705, where friendly
    // Psiloi face north-north-east. They are displaced away from the recoiling unit
    // (the recoiling unit's rear directions), not into their own rear (south), and
    // keep their facing.
    let mut g = game(
        &[("att", "a", "Reg Bd(O)", "0505", "E")],
        &[
            ("t", "b", "Reg Bd(O)", "0605", "W"),
            ("ps", "b", "Irr Ps(O)", "0705", "NNE"),
        ],
        seed6(&[6, 1]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605", "retreat 0705"]);
    let log = log_text(&g);
    assert!(log.contains("pushes back ps (0705)"), "{log}");
    assert_eq!(at(&g, "t"), "0705", "{log}");
    let beyond: Vec<String> = W.rear(h("0705")).iter().map(|x| x.label()).collect();
    assert!(
        beyond.contains(&at(&g, "ps")),
        "the Psiloi went to {}: {log}",
        at(&g, "ps")
    );
    assert_eq!(facing(&g, "ps"), 0, "{log}");
}

#[test]
fn cdb_11_6_a_stack_recoils_through_friends_each_of_its_counters_may_pass() {
    // Blades 5 + 1 against Bowmen 2 + 3: 6 against 5, the Bowmen recoil. Their stack
    // is one unit (CdB 8.1) and Bowmen pass through Blades of their facing (8.2): it
    // recoils through the Blades behind it instead of pushing them back.
    let mut g = game(
        &[("att", "a", "Reg Bd(O)", "0505", "E")],
        &[
            ("bw", "b", "Reg Bw(O)", "0605", "W"),
            ("bw2", "b", "Reg Bw(O)", "0605", "W"),
            ("bd1", "b", "Reg Bd(O)", "0705", "W"),
            ("bd2", "b", "Reg Bd(O)", "0706", "W"),
        ],
        seed6(&[1, 3]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605", "retreat 0705"]);
    let log = log_text(&g);
    assert!(!log.contains("pushes back"), "{log}");
    assert_eq!(at(&g, "bd1"), "0705", "{log}");
    assert_eq!(at(&g, "bd2"), "0706", "{log}");
    let end = at(&g, "bw");
    assert!(!["0605", "0705", "0706"].contains(&end.as_str()), "{log}");
    assert_eq!(at(&g, "bw2"), end, "the stack recoils together: {log}");
}

#[test]
fn cdb_11_6_11_7_11_9_fortifications_bar_recoil_rear_losses_and_the_defenders_advance() {
    let fortified = |hexes: &str| format!(r#"terrain: {{ "fortification": [{hexes}] }}"#);
    // 11.6: no recoil into a fortification. Blades 5 + 6 against 5 + 1, a recoil:
    // t's only rear hex left is 0706.
    let units: &[CU] = &[
        ("att", "a", "Reg Bd(O)", "0505", "E"),
        ("t", "b", "Reg Bd(O)", "0605", "W"),
    ];
    let mut g = cdb_game(
        &cdb_position_ron(units, &fortified(r#""0705""#), ""),
        seed6(&[6, 1]),
        &[],
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert!(pending(&g).is_none(), "{:?}", pending(&g));
    assert_eq!(at(&g, "t"), "0706", "{}", log_text(&g));
    // 11.7: with a fortification in a rear hex, no rear unit is destroyed with t
    // (Warband 3 + 6 against Blade 5 + 1: destroyed, as in the test above).
    let units: &[CU] = &[
        ("wb", "a", "Irr Wb(O)", "0505", "E"),
        ("t", "b", "Reg Bd(O)", "0605", "W"),
        ("r1", "b", "Reg Bd(O)", "0705", "W"),
        ("r2", "b", "Reg Bd(O)", "0706", "W"),
    ];
    let mut g = cdb_game(
        &cdb_position_ron(units, &fortified(r#""0705""#), ""),
        seed6(&[6, 1]),
        &[],
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert_eq!(status(&g, "t"), "eliminated", "{}", log_text(&g));
    assert!(pending(&g).is_none(), "{:?}", pending(&g));
    assert_eq!(status(&g, "r1"), "on_map");
    assert_eq!(status(&g, "r2"), "on_map");
    // 11.9: an impetuous Warband defending a fortification does not advance after
    // beating its attacker; in the open it must. Auxilia 3 + 3 against Warband 3 + 6
    // (- 2 in the fortification, a difficult hex): the Auxilia recoil.
    let units: &[CU] = &[
        ("att", "a", "Reg Ax(O)", "0505", "E"),
        ("wb", "b", "Irr Wb(O)", "0605", "W"),
    ];
    for (map, advances) in [("", true), (fortified(r#""0605""#).as_str(), false)] {
        let mut g = cdb_game(&cdb_position_ron(units, map, ""), seed6(&[3, 6]), &[]);
        to_melee(&mut g);
        run(&mut g, &["attack 0505 -> 0605"]);
        recoil_to_first_option(&mut g);
        let log = log_text(&g);
        assert!(log.contains("att recoils from 0505"), "{log}");
        assert_eq!(
            log.contains("it advances from 0605 to 0505"),
            advances,
            "{log}"
        );
    }
}

#[test]
fn cdb_11_6_a_unit_that_cannot_recoil_is_destroyed() {
    // t's rear hexes are off the map.
    let mut g = game(
        &[("att", "a", "Reg Bd(O)", "1505", "E")],
        &[("t", "b", "Reg Bd(O)", "1605", "W")],
        seed6(&[4, 2]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 1505 -> 1605"]);
    assert!(
        log_text(&g).contains("cannot recoil: destroyed (CdB 11.6)"),
        "{}",
        log_text(&g)
    );
    assert_eq!(status(&g, "t"), "eliminated");
}

#[test]
fn cdb_11_7_one_of_two_rear_units_is_destroyed_at_the_winners_choice() {
    // Warband 3 + 6 against Blade 5 + 1: Blades beaten by Warbands are destroyed.
    let mut g = game(
        &[("wb", "a", "Irr Wb(O)", "0505", "E")],
        &[
            ("t", "b", "Reg Bd(O)", "0605", "W"),
            ("r1", "b", "Reg Bd(O)", "0705", "W"),
            ("r2", "b", "Reg Bd(O)", "0706", "W"),
        ],
        seed6(&[6, 1]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert_eq!(status(&g, "t"), "eliminated");
    assert_refused(&mut g, "lose gb", "CdB 11.7");
    run(&mut g, &["lose r1"]);
    assert_eq!(status(&g, "r1"), "eliminated");
    assert_eq!(status(&g, "r2"), "on_map");
    assert!(!g.is_over());
}

#[test]
fn cdb_11_7_a_destroyed_psiloi_takes_no_rear_unit_but_psiloi() {
    // Irregular cavalry 3 + 4 against Psiloi 2 + 4: Psiloi in clear beaten by cavalry
    // are destroyed; the Blades behind are not.
    let mut g = game(
        &[("cv", "a", "Irr Cv(O)", "0505", "E")],
        &[
            ("ps", "b", "Irr Ps(O)", "0605", "W"),
            ("r1", "b", "Reg Bd(O)", "0705", "W"),
            ("r2", "b", "Reg Bd(O)", "0706", "W"),
        ],
        seed6(&[4, 4]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert_eq!(status(&g, "ps"), "eliminated", "{}", log_text(&g));
    assert!(pending(&g).is_none(), "{:?}", pending(&g));
    assert_eq!(status(&g, "r1"), "on_map");
    assert_eq!(status(&g, "r2"), "on_map");
}

/// Answers a pending recoil choice with the first rear hex its refusal lists.
fn recoil_to_first_option(g: &mut Game) {
    if pending(g).is_some_and(|p| p.contains("recoil") || p.contains("flee")) {
        let r = refused(g, "retreat 0101");
        if let Some(hex) = r
            .split(|c: char| !c.is_ascii_digit())
            .find(|w| w.len() == 4 && *w != "0101")
        {
            run(g, &[&format!("retreat {hex}")]);
        }
    }
}

#[test]
fn cdb_11_7_an_elephant_destroyed_between_two_enemies_makes_one_recoil_or_flee() {
    // Auxilia 2 + 6 against Elephants 5 + 1: elephants in clear beaten by Auxilia are
    // destroyed. Both hexes behind them hold enemy units, whatever their facing.
    let position = || {
        game(
            &[
                ("ax", "a", "Reg Ax(O)", "0505", "E"),
                ("foot", "a", "Reg Bd(O)", "0705", "E"),
                ("horse", "a", "Irr Cv(O)", "0706", "NNE"),
            ],
            &[("el", "b", "Reg El(O)", "0605", "W")],
            seed6(&[6, 1]),
        )
    };
    // The mounted unit chosen flees: it recoils, then runs towards its edge (West).
    let mut g = position();
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert_eq!(status(&g, "el"), "eliminated", "{}", log_text(&g));
    let p = pending(&g).unwrap_or_default();
    assert!(p.contains("fallen elephant"), "{p}");
    assert_refused(&mut g, "lose ax", "CdB 11.7");
    run(&mut g, &["lose horse"]);
    recoil_to_first_option(&mut g);
    let log = log_text(&g);
    assert!(
        log.contains("is behind the fallen elephant: it flees (CdB 11.7)"),
        "{log}"
    );
    assert!(log.contains("flees towards its map edge"), "{log}");
    assert_ne!(at(&g, "horse"), "0706", "{log}");
    assert_eq!(at(&g, "foot"), "0705", "the other unit stays: {log}");
    // The foot unit chosen recoils, without fleeing.
    let mut g = position();
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605", "lose foot"]);
    recoil_to_first_option(&mut g);
    let log = log_text(&g);
    assert!(
        log.contains("is behind the fallen elephant: it recoils (CdB 11.7)"),
        "{log}"
    );
    assert_ne!(at(&g, "foot"), "0705", "{log}");
    assert_eq!(facing(&g, "foot"), 1, "a recoil keeps the facing: {log}");
    assert!(!log.contains("foot (0705) flees"), "{log}");
    assert_eq!(at(&g, "horse"), "0706", "{log}");
}

#[test]
fn cdb_11_8_flight_recoils_then_runs_towards_the_map_edge() {
    // Blade 5 + 1 against Psiloi 2 + 2: 6 against 4, Psiloi in clear: flight.
    let mut g = game(
        &[("att", "a", "Reg Bd(O)", "0505", "E")],
        &[("ps", "b", "Irr Ps(O)", "0605", "W")],
        seed6(&[1, 2]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    run(&mut g, &["retreat 0705"]);
    let log = log_text(&g);
    assert!(log.contains("flees towards its map edge"), "{log}");
    // Faced towards its edge (East), its full allowance (3 MP) from 0705.
    assert_eq!(facing(&g, "ps"), 1);
    assert_eq!(h(&at(&g, "ps")).col, 10, "{log}");
    assert_eq!(at(&g, "att"), "0505");

    // Near the edge it runs off the map: a loss.
    let mut g = game(
        &[("att", "a", "Reg Bd(O)", "1305", "E")],
        &[("ps", "b", "Irr Ps(O)", "1405", "W")],
        seed6(&[1, 2]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 1305 -> 1405", "retreat 1505"]);
    assert_eq!(status(&g, "ps"), "eliminated");
    assert!(
        log_text(&g).contains("flees off the map and counts as a loss (CdB 11.8)"),
        "{}",
        log_text(&g)
    );
}

#[test]
fn cdb_11_8_a_friend_neither_passable_nor_avoidable_is_burst_through_and_carried_along() {
    // As above, the Psiloi flee east from 0705 (3 MP). Both hexes before them hold
    // friends facing away from the flight (NNE): Psiloi pass only through friends
    // aligned with them (CdB 8.2), so one is burst through, the one on the straight
    // line (0805), and ends the flight behind the Psiloi, facing the map edge.
    let mut g = game(
        &[("att", "a", "Reg Bd(O)", "0505", "E")],
        &[
            ("ps", "b", "Irr Ps(O)", "0605", "W"),
            ("f1", "b", "Reg Bd(O)", "0805", "NNE"),
            ("f2", "b", "Reg Bd(O)", "0804", "NNE"),
        ],
        seed6(&[1, 2]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605", "retreat 0705"]);
    let log = log_text(&g);
    assert!(
        log.contains("f1 (0805) is burst through and carried along in the flight (CdB 11.8)"),
        "{log}"
    );
    assert_eq!(at(&g, "ps"), "1005", "{log}");
    assert_eq!(
        at(&g, "f1"),
        "0905",
        "behind the Psiloi, in the hex they came from: {log}"
    );
    assert_eq!(facing(&g, "f1"), 1, "facing the map edge (East)");
    assert_eq!(at(&g, "f2"), "0804", "the other friend is not touched");
    // An aligned friend is passed through, not carried (CdB 8.2).
    let mut g = game(
        &[("att", "a", "Reg Bd(O)", "0505", "E")],
        &[
            ("ps", "b", "Irr Ps(O)", "0605", "W"),
            ("f1", "b", "Reg Bd(O)", "0805", "W"),
            ("f2", "b", "Reg Bd(O)", "0804", "W"),
        ],
        seed6(&[1, 2]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605", "retreat 0705"]);
    assert!(!log_text(&g).contains("burst through"), "{}", log_text(&g));
    assert_eq!(at(&g, "f1"), "0805");
}

#[test]
fn cdb_11_6_a_unit_crossed_or_displaced_by_a_recoiling_elephant_flees() {
    // Elephants 5 + 1 against Blades 3 + 6 (against mounted): 6 against 9, elephants
    // in clear recoil. Behind them, in the rear hex chosen, aligned Psiloi: the
    // elephants recoil through them and the Psiloi flee towards their edge (West).
    let mut g = game(
        &[
            ("el", "a", "Reg El(O)", "0505", "E"),
            ("ps", "a", "Irr Ps(O)", "0405", "E"),
        ],
        &[("bd", "b", "Reg Bd(O)", "0605", "W")],
        seed6(&[1, 6]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605", "retreat 0405"]);
    let log = log_text(&g);
    assert!(
        log.contains("is crossed by an elephant and flees (CdB 11.6)"),
        "{log}"
    );
    assert!(
        log.contains("ps (0405) flees towards its map edge")
            || log.contains("flees towards its map edge"),
        "{log}"
    );
    assert_ne!(at(&g, "el"), "0405", "{log}");
    assert_eq!(facing(&g, "ps"), 4, "faced to its edge (West): {log}");
    assert!(h(&at(&g, "ps")).col < 4, "{log}");
    // A Blade of the same facing behind them is pushed back, and flees.
    let mut g = game(
        &[
            ("el", "a", "Reg El(O)", "0505", "E"),
            ("fb", "a", "Reg Bd(O)", "0405", "E"),
        ],
        &[("bd", "b", "Reg Bd(O)", "0605", "W")],
        seed6(&[1, 6]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605", "retreat 0405"]);
    let log = log_text(&g);
    assert!(log.contains("pushes back fb (0405)"), "{log}");
    assert_eq!(at(&g, "el"), "0405", "{log}");
    assert_eq!(facing(&g, "fb"), 4, "it flees, faced to its edge: {log}");
    assert!(
        log.contains("fb (") && log.contains("flees towards its map edge"),
        "{log}"
    );
}

#[test]
fn cdb_11_9_only_the_impetuous_attacker_advances_not_its_supports() {
    // Warband 3 + 6 against Blade 5 + 1 - 1 (sup): destroyed; wb advances, sup stays.
    let mut g = game(
        &[
            ("wb", "a", "Irr Wb(O)", "0505", "E"),
            ("sup", "a", "Irr Wb(O)", "0606", "NNE"),
        ],
        &[("t", "b", "Reg Bd(O)", "0605", "W")],
        seed6(&[6, 1]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert_eq!(status(&g, "t"), "eliminated");
    assert_eq!((at(&g, "wb").as_str(), facing(&g, "wb")), ("0605", 1));
    assert_eq!(at(&g, "sup"), "0606");
    assert!(log_text(&g).contains("is impetuous: it advances from 0505 to 0605 (CdB 11.9)"));
}

#[test]
fn cdb_11_9_a_foot_unit_beating_a_skirmisher_does_not_advance() {
    // Warband 3 + 6 against Psiloi 2 + 3: 9 against 5, flight.
    let mut g = game(
        &[("wb", "a", "Irr Wb(O)", "0505", "E")],
        &[("ps", "b", "Irr Ps(O)", "0605", "W")],
        seed6(&[6, 3]),
    );
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605", "retreat 0705"]);
    assert_ne!(hex(&g, "ps").as_deref(), Some("0605"));
    assert_eq!(at(&g, "wb"), "0505");
}

// ---- 2.7 Dismounting ----

#[test]
fn cdb_2_7_a_unit_dismounts_in_play_as_an_activation_and_not_after_moving() {
    // h and m: Cv (O) that dismount as Wb (S). Before the first turn the state is
    // chosen for free; in play a change is an activation of the unit (CdB 4.2).
    let units = with_base(
        &[
            ("h", "a", "Horse", "0510", "E"),
            ("m", "a", "Horse", "0414", "E"),
        ],
        &[],
    );
    let extra = r#"special_rules: [Dismount(units: ["h", "m"], in_play: true, source: "test")],"#;
    let mut g = cdb_game(&cdb_position_ron(&units, "", extra), seed6(&[]), &[]);
    run(&mut g, &["dismount m", "remount m"]);
    assert!(!log_text(&g).contains("spends"), "{}", log_text(&g));
    while !log_text(&g).contains("Side A moves") {
        run(&mut g, &["end"]);
    }
    run(&mut g, &["dismount h"]);
    let log = log_text(&g);
    assert!(
        log.contains("h (0510) now fights on foot as Equites (CdB 2.7)"),
        "{log}"
    );
    assert!(
        log.contains("A's corps spends 1 PA (1 to activate (CdB 4.2)), "),
        "{log}"
    );
    // It has been activated: it may not move, nor remount, this turn.
    assert_refused(&mut g, "remount h", "CdB 2.7");
    // A unit that moved may not change counter this turn.
    run(&mut g, &["move m 0514"]);
    let r = assert_refused(&mut g, "dismount m", "CdB 2.7");
    assert!(r.contains("has moved this turn"), "{r}");
    assert_refused(&mut g, "remount ga", "CdB 2.7");
}

// ---- 12. Demoralisation (and 2.5's second case) ----

/// Side b: corps b1 (3 counters, threshold 1) under an irregular general, and b2
/// (5 counters) under the CinC. b1x turns to attack ab in b's turn 1 and is destroyed.
fn demoralisation_game(seed: u64) -> Game {
    let units: Vec<CU2> = vec![
        ("ga", "a", "a1", "Reg Cv(O)", "0202", "E"),
        ("ab", "a", "a1", "Reg Bd(O)", "0808", "NNE"),
        ("ac", "a", "a1", "Reg Bd(O)", "0811", "E"),
        ("gb1", "b", "b1", "Irr Cv(O)", "1011", "W"),
        ("b1x", "b", "b1", "Reg Ax(O)", "0909", "NNE"),
        ("b1y", "b", "b1", "Reg Bd(O)", "1107", "W"),
        ("gb2", "b", "b2", "Reg Cv(O)", "1601", "W"),
        ("b2a", "b", "b2", "Reg Bd(O)", "0702", "W"),
        ("b2b", "b", "b2", "Reg Bd(O)", "1602", "W"),
        ("b2c", "b", "b2", "Reg Bd(O)", "1603", "W"),
        ("b2d", "b", "b2", "Reg Bd(O)", "1604", "W"),
    ];
    let corps = [
        ("a", "a1", "Clovis", "ga"),
        ("b", "b1", "Ecdicius", "gb1"),
        ("b", "b2", "Syagrius", "gb2"),
    ];
    let ron = corps_ron(&units, &corps, ["ga", "gb2"], ["", ""], "");
    cdb_game(&ron, seed, &[])
}

#[test]
fn cdb_12_2_12_3_a_corps_that_lost_a_third_is_demoralised_flees_and_fights_at_minus_1() {
    // Dice: a's AP; b's two AP dice; b1x 1 against ab 6; a's AP; ac 5 against gb1 6;
    // b's two AP dice.
    let mut g = demoralisation_game(seed_rolling_any(&[6, 0, 0, 1, 6, 6, 5, 6, 0, 0]));
    assert!(!has_flag(&g, "ab", "impetuous"));
    run(&mut g, &["end", "end", "end", "end"]);
    // b's turn 1: b1x turns to face ab and attacks it: 3 + 1 against 5 + 6, destroyed.
    assert_eq!(g.turn().active, SideId(1));
    run(&mut g, &["march b1x ccw", "end", "end", "end"]);
    run(&mut g, &["attack 0909 -> 0808"]);
    assert_eq!(status(&g, "b1x"), "eliminated", "{}", log_text(&g));
    // The threshold is checked at the end of the player's turn.
    assert!(!has_flag(&g, "gb1", "demoralised"));
    run(&mut g, &["end"]);
    let log = log_text(&g);
    assert!(
        log.contains(
            "Ecdicius' corps has lost 1 of 3 counter equivalents (threshold 1) (CdB 12.2)"
        ),
        "{log}"
    );
    assert!(
        log.contains("Ecdicius' corps is demoralised (CdB 12.3)"),
        "{log}"
    );
    assert!(has_flag(&g, "b1y", "demoralised"));
    assert!(!has_flag(&g, "b2a", "demoralised"));
    // The units of a demoralised corps count as lost (CdB 13), 3 of 8: not over.
    assert!(!g.is_over());
    // CdB 2.5: a's units nearer a demoralised enemy than any other are impetuous.
    assert_eq!((g.turn().turn, g.turn().active), (2, SideId(0)));
    assert!(has_flag(&g, "ab", "impetuous"), "{:?}", flags(&g, "ab"));
    assert!(has_flag(&g, "ac", "impetuous"), "{:?}", flags(&g, "ac"));
    assert!(!has_flag(&g, "ga", "impetuous"), "{:?}", flags(&g, "ga"));
    // a's turn 2: ab is kept, ac engages gb1.
    run(&mut g, &["keep ab", "move ac 0911", "end", "end", "end"]);
    run(&mut g, &["attack 0911 -> 1011"]);
    let line = last_line_with(&g, "ac (0911): die");
    assert!(
        score_of(&line, "gb1 (1011)").contains("-1 -1 demoralised corps (CdB 12.3)"),
        "{line}"
    );
    run(&mut g, &["end"]);
    // b's turn 2: b1y, not kept, flees to its edge; gb1, in ac's zone, does not.
    assert_eq!(g.turn().active, SideId(1));
    let r = assert_refused(&mut g, "march gb1 0912 / b1y 1006", "CdB 12.3");
    assert!(r.contains("single counter"), "{r}");
    run(&mut g, &["end"]);
    assert!(log_text(&g).contains("b1y (1107) belongs to a demoralised corps and is not kept in control: it flees (CdB 12.3)"), "{}", log_text(&g));
    assert_eq!(facing(&g, "b1y"), 1);
    assert!(h(&at(&g, "b1y")).col >= 13, "{}", log_text(&g));
    assert_eq!(at(&g, "gb1"), "1011");
}

#[test]
fn cdb_12_3_a_demoralised_corps_activates_a_single_counter_which_does_not_flee() {
    // As above, to b's turn 2 with Ecdicius' corps demoralised.
    let mut g = demoralisation_game(seed_rolling_any(&[6, 0, 0, 1, 6, 6, 5, 6, 0, 0]));
    run(&mut g, &["end", "end", "end", "end"]);
    run(&mut g, &["march b1x ccw", "end", "end", "end"]);
    run(&mut g, &["attack 0909 -> 0808", "end"]);
    run(&mut g, &["keep ab", "move ac 0911", "end", "end", "end"]);
    run(&mut g, &["attack 0911 -> 1011", "end"]);
    assert_eq!(g.turn().active, SideId(1));
    assert!(has_flag(&g, "b1y", "demoralised"));
    // b1y is the corps' one counter activated this turn: gb1 may not turn too.
    run(&mut g, &["move b1y 1006"]);
    let r = assert_refused(&mut g, "march gb1 cw", "CdB 12.3");
    assert!(r.contains("single counter"), "{r}");
    run(&mut g, &["end"]);
    let log = log_text(&g);
    assert!(
        !log.contains("b1y (1006) belongs to a demoralised corps and is not kept in control"),
        "{log}"
    );
    assert_eq!(at(&g, "b1y"), "1006", "{log}");
}

/// Side b's corps b1 has its (regular) general gb1 in front of a's Warband; b2 is
/// commanded by the CinC. Side b's two regular dice wait to be assigned.
fn general_death_game(seed: u64) -> Game {
    let mut units: Vec<CU2> = vec![
        ("ga", "a", "a1", "Reg Cv(O)", "0202", "E"),
        ("wb", "a", "a1", "Irr Wb(O)", "0505", "E"),
        ("as1", "a", "a1", "Reg Bd(O)", "0116", "E"),
        ("gb1", "b", "b1", "Reg Bd(O)", "0605", "W"),
        ("b1u1", "b", "b1", "Reg Bd(O)", "1008", "W"),
        ("b1u2", "b", "b1", "Reg Bd(O)", "1009", "W"),
        ("b1u3", "b", "b1", "Reg Bd(O)", "1010", "W"),
        ("b1u4", "b", "b1", "Reg Bd(O)", "1011", "W"),
        ("gb2", "b", "b2", "Reg Cv(O)", "1602", "W"),
    ];
    let b2: Vec<String> = (3..9).map(|r| format!("15{r:02}")).collect();
    let ids = ["b2u1", "b2u2", "b2u3", "b2u4", "b2u5", "b2u6"];
    for (id, h) in ids.iter().zip(&b2) {
        units.push((id, "b", "b2", "Reg Bd(O)", h.as_str(), "W"));
    }
    let corps = [
        ("a", "a1", "Clovis", "ga"),
        ("b", "b1", "Ecdicius", "gb1"),
        ("b", "b2", "Syagrius", "gb2"),
    ];
    cdb_game(
        &corps_ron(&units, &corps, ["ga", "gb2"], ["", ""], ""),
        seed,
        &[],
    )
}

#[test]
fn cdb_12_2_a_corps_whose_general_fell_tests_its_next_die() {
    // Dice: a's AP; the Warband's 6 against gb1's 1 (destroyed); b's dice 1 and 5.
    let seed = seed6(&[6, 1, 1, 5]);
    let mut g = general_death_game(seed);
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert_eq!(status(&g, "gb1"), "eliminated");
    run(&mut g, &["end"]);
    // 1 of 5 lost: under the threshold (2).
    assert!(!has_flag(&g, "b1u1", "demoralised"));
    // The die given to the corps (1) is not above its losses (1): demoralised.
    run(&mut g, &["assign b1 1 b2 5"]);
    let log = log_text(&g);
    assert!(
        log.contains("Ecdicius' general is dead: die 1 against 1 counter equivalents lost: the corps is demoralised (CdB 12.2)"),
        "{log}"
    );
    assert!(has_flag(&g, "b1u1", "demoralised"));
    assert!(!g.is_over());

    // With the 5 it holds, and its units pay 1 more PA to activate (CdB 4.2).
    let mut g = general_death_game(seed);
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605", "end", "assign b1 5 b2 1"]);
    assert!(log_text(&g).contains("Ecdicius' general is dead: die 5 against 1 counter equivalents lost: the corps holds (CdB 12.2)"));
    assert!(!has_flag(&g, "b1u1", "demoralised"));
    run(&mut g, &["move b1u1 0908"]);
    let l = last_spend(&g);
    assert!(
        l.contains("spends 2 PA") && l.contains("general has left the map or was eliminated"),
        "{l}"
    );
}

// ---- 13. Victory ----

#[test]
fn cdb_13_half_the_army_lost_wins() {
    let units: Vec<CU> = vec![
        ("ga", "a", "Reg Cv(O)", "0202", "E"),
        ("wb", "a", "Irr Wb(O)", "0505", "E"),
        ("as1", "a", "Reg Bd(O)", "0116", "E"),
        ("gb", "b", "Reg Cv(O)", "1602", "W"),
        ("t", "b", "Reg Bd(O)", "0605", "W"),
    ];
    // Warband 3 + 6 against Blade 5 + 1: destroyed, 1 of side b's 2 counters.
    let mut g = cdb(&units, seed6(&[6, 1]));
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert!(g.is_over(), "{}", log_text(&g));
    let o = g.outcome().expect("an outcome");
    assert_eq!(o.winner, Some(SideId(0)));
    assert!(o.reason.contains("(CdB 13)"), "{}", o.reason);
    assert_refused(&mut g, "end", "CdB 13");

    // One of three: not yet.
    let mut units = units.clone();
    units.push(("t2", "b", "Reg Bd(O)", "1616", "W"));
    let mut g = cdb(&units, seed6(&[6, 1]));
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert!(!g.is_over(), "{}", log_text(&g));
}

#[test]
fn cdb_12_1_13_baggage_is_not_counted_in_the_total_but_counts_two_when_destroyed() {
    // Side b: 3 counter equivalents (its baggage not counted). The Warband (3 + 6)
    // destroys the wagons (0 + 1) in melee: 2 lost, half or more.
    let units: Vec<CU> = vec![
        ("ga", "a", "Reg Cv(O)", "0202", "E"),
        ("wb", "a", "Irr Wb(O)", "0505", "E"),
        ("as1", "a", "Reg Bd(O)", "0116", "E"),
        ("gb", "b", "Reg Cv(O)", "1602", "W"),
        ("bag", "b", "Bag mobile", "0605", "W"),
        ("t2", "b", "Reg Bd(O)", "1616", "W"),
        ("t3", "b", "Reg Bd(O)", "1615", "W"),
    ];
    let mut g = cdb(&units, seed6(&[6, 1]));
    to_melee(&mut g);
    run(&mut g, &["attack 0505 -> 0605"]);
    assert_eq!(status(&g, "bag"), "eliminated", "{}", log_text(&g));
    assert!(g.is_over(), "{}", log_text(&g));
    let o = g.outcome().expect("an outcome");
    assert!(
        o.reason.contains("lost 2 of 3 counter equivalents"),
        "{}",
        o.reason
    );
}

// ---- 14. Placement ----

#[test]
fn cdb_14_3_hidden_placement_in_a_zone_revealed_within_three_hexes() {
    let units = with_base(
        &[("scout", "a", "Reg Cv(O)", "0703", "E")],
        &[("amb", "b", "Irr Ps(O)", "", "W")],
    );
    let extra = "special_rules: [HiddenPlacement(unit: \"amb\", zone: (min_col: 10, max_col: 12, min_row: 2, max_row: 4), active_from_turn: 1)],";
    let mut g = cdb_game(&cdb_position_ron(&units, "", extra), seed6(&[]), &[]);
    // The defender (b: a moves first) places in secret before the first turn.
    assert_eq!(g.turn().phase.kind, PhaseKind::Place);
    assert_eq!(g.turn().active, SideId(1));
    let r = assert_refused(&mut g, "end", "CdB 14.3");
    assert!(r.contains("place amb"), "{r}");
    assert_refused(&mut g, "place amb 0905", "CdB 14.3");
    run(&mut g, &["place amb 1103"]);
    assert!(
        !log_text(&g).contains("1103"),
        "the log names the hidden hex"
    );
    run(&mut g, &["end"]);
    assert_eq!(
        (g.turn().phase.kind, g.turn().active),
        (PhaseKind::Move, SideId(0))
    );
    assert!(has_flag(&g, "amb", "hidden"));
    // The hidden unit's hex cannot be entered.
    assert_refused(&mut g, "move scout 0803 0904 1003 1103", "CdB 14.3");
    // Psiloi are seen by enemies within three hexes.
    run(&mut g, &["move scout 0803"]);
    assert!(!has_flag(&g, "amb", "hidden"), "{}", log_text(&g));
    assert!(
        log_text(&g).contains("amb (1103) is seen: the ambush is revealed (CdB 14.3)"),
        "{}",
        log_text(&g)
    );
}

#[test]
fn cdb_14_3_attacker_by_aggression_die_plus_rating() {
    let units = with_base(&[], &[]);
    let ron = cdb_position_ron(
        &units,
        "",
        "special_rules: [AttackerByAggression(source: \"test\")],",
    )
    .replace("edge: West,", "edge: West, aggression: 3,")
    .replace("edge: East,", "edge: East, aggression: 1,");
    // a throws 1 (+3 = 4), b throws 6 (+1 = 7): b attacks and moves first.
    let g = cdb_game(&ron, seed_rolling_any(&[1, 6]), &[]);
    assert!(
        log_text(&g).contains("4 against 7: Side B is the attacker and moves first (CdB 14.3)"),
        "{}",
        log_text(&g)
    );
    assert_eq!(g.turn().active, SideId(1));
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
    // a throws 6 (+3 = 9), b throws 6 (+1 = 7): a attacks.
    let g = cdb_game(&ron, seed_rolling_any(&[6, 6]), &[]);
    assert_eq!(g.turn().active, SideId(0));
    // A tie is thrown again: 2 + 3 against 4 + 1, then 6 + 3 against 1 + 1.
    let g = cdb_game(&ron, seed_rolling_any(&[2, 4, 6, 1]), &[]);
    assert!(
        log_text(&g).contains("9 against 2: Side A is the attacker"),
        "{}",
        log_text(&g)
    );
    // Without aggression on every side the scenario does not load.
    let bad = cdb_position_ron(
        &units,
        "",
        "special_rules: [AttackerByAggression(source: \"test\")],",
    );
    let e = load_error(&bad);
    assert!(e.contains("aggression"), "{e}");
}

// ---- CdB 14.3: the set-up ----

/// A 16x16 map with side a (attacker, first) in two corps: `a1` (general and three
/// warbands, the most numerous) and `a2` (a general and a Psiloi); side b (defender)
/// in one corps with a Psiloi; one baggage each. Broken terrain at 0608 and 0408.
/// The scenario's hexes are ignored: the set-up of CdB 14.3 places every unit.
fn deployment_game(seed: u64) -> Game {
    let ron = r#"(
    name: "Set-up test", date: "486", ruleset: "champs_de_bataille", turns: 10,
    map: (columns: 16, rows: 16, terrain: { "broken": ["0608", "0408"] }),
    sides: [
        (id: "a", name: "Side A", commander: "ga", edge: West, corps: [(id: "a1", name: "A1", general: "ga"), (id: "a2", name: "A2", general: "g2")]),
        (id: "b", name: "Side B", commander: "gb", edge: East, corps: [(id: "b1", name: "B1", general: "gb")]),
    ],
    first: "a",
    units: [
        (id: "ga", name: "ga", side: "a", type: "Irr Cv(O)", hex: "0105", corps: "a1", facing: "E"),
        (id: "wa1", name: "wa1", side: "a", type: "Irr Wb(O)", hex: "0106", corps: "a1", facing: "E"),
        (id: "wa2", name: "wa2", side: "a", type: "Irr Wb(O)", hex: "0107", corps: "a1", facing: "E"),
        (id: "wa3", name: "wa3", side: "a", type: "Irr Wb(O)", hex: "0108", corps: "a1", facing: "E"),
        (id: "g2", name: "g2", side: "a", type: "Irr Cv(O)", hex: "0111", corps: "a2", facing: "E"),
        (id: "pa", name: "pa", side: "a", type: "Irr Ps(O)", hex: "0112", corps: "a2", facing: "E"),
        (id: "baga", name: "baga", side: "a", type: "Irr Bag(O)", hex: "0114", corps: "a1", facing: "E"),
        (id: "gb", name: "gb", side: "b", type: "Irr Cv(O)", hex: "1605", corps: "b1", facing: "W"),
        (id: "wb1", name: "wb1", side: "b", type: "Irr Wb(O)", hex: "1606", corps: "b1", facing: "W"),
        (id: "wb2", name: "wb2", side: "b", type: "Irr Wb(O)", hex: "1607", corps: "b1", facing: "W"),
        (id: "pb", name: "pb", side: "b", type: "Irr Ps(O)", hex: "1608", corps: "b1", facing: "W"),
        (id: "bagb", name: "bagb", side: "b", type: "Irr Bag(O)", hex: "1614", corps: "b1", facing: "W"),
    ],
    special_rules: [
        Deployment(defender_main_depth: 4, attacker_main_depth: 2, side_margin: 2, other_depth: 8, psiloi_ambush_from_enemy_edge: 5, choose_edge: true, source: "test"),
    ],
    at_time_limit: (winner: "b", level: Minor),
)"#;
    cdb_game(ron, seed, &[])
}

fn is_hidden(g: &Game, id: &str) -> bool {
    unit_state(g, id)["hidden"].as_bool().unwrap_or(false)
}

#[test]
fn cdb_14_3_2_the_attacker_chooses_a_long_edge_and_a_die_of_5_or_6_swaps_it() {
    // First die: the edge roll. 3 keeps the chosen edge.
    let mut g = deployment_game(seed_rolling_any(&[3]));
    assert_eq!(g.turn().phase.kind, PhaseKind::Place);
    assert_eq!(g.turn().active, SideId(0), "the attacker chooses");
    let r = refused(&mut g, "edge North");
    assert!(
        r.contains("long edge: West or East") && r.contains("CdB 14.3.2"),
        "{r}"
    );
    let r = refused(&mut g, "place baga 0114");
    assert!(r.contains("chooses a map edge"), "{r}");
    run(&mut g, &["edge West"]);
    let r = refused(&mut g, "edge East");
    assert!(r.contains("chosen once"), "{r}");
    run(&mut g, &["end"]);
    let log = log_text(&g);
    assert!(log.contains("Die: 3 for Side A's map edge"), "{log}");
    assert!(
        log.contains("sets up on the West edge; Side B forms opposite, on the East edge"),
        "{log}"
    );
    assert_eq!(
        g.turn().active,
        SideId(1),
        "the defender places his baggage first"
    );
    // 6 swaps it: side a sets up on the East edge, its baggage along column 16.
    let mut g = deployment_game(seed_rolling_any(&[6]));
    run(&mut g, &["edge West", "end"]);
    assert!(log_text(&g).contains("chose the West edge and sets up on the East edge"));
    run(&mut g, &["place bagb 0110", "end"]);
    let r = refused(&mut g, "place baga 0114");
    assert!(r.contains("own (East) map edge"), "{r}");
    run(&mut g, &["place baga 1614"]);
}

#[test]
fn cdb_14_3_2_baggage_stands_along_the_own_edge_the_defender_first() {
    let mut g = deployment_game(seed_rolling_any(&[1]));
    run(&mut g, &["edge West", "end"]);
    let r = refused(&mut g, "place baga 0114");
    assert!(r.contains("belongs to the other player"), "{r}");
    let r = refused(&mut g, "end");
    assert!(r.contains("place bagb") && r.contains("CdB 14.3.2"), "{r}");
    let r = refused(&mut g, "place bagb 1514");
    assert!(r.contains("along its own (East) map edge"), "{r}");
    let r = refused(&mut g, "place wb1 1606");
    assert!(r.contains("the baggage is placed first"), "{r}");
    run(
        &mut g,
        &["place bagb 1614", "end", "place baga 0114", "end"],
    );
    assert_eq!(hex(&g, "bagb").as_deref(), Some("1614"));
    assert_eq!(hex(&g, "wb1"), None, "the rest waits for its corps");
}

/// Up to the corps placement: edges kept, baggage placed, side b's plan written and
/// side a's `plan_a`.
fn to_corps_stage(plan_a: &str) -> Game {
    let mut g = deployment_game(seed_rolling_any(&[1]));
    run(
        &mut g,
        &[
            "edge West",
            "end",
            "place bagb 1614",
            "end",
            "place baga 0114",
            "end",
            "plan b1",
            "end",
            plan_a,
            "end",
        ],
    );
    g
}

#[test]
fn cdb_14_3_4_the_defenders_main_corps_within_four_hexes_the_attackers_within_two() {
    let mut g = deployment_game(seed_rolling_any(&[1]));
    run(
        &mut g,
        &[
            "edge West",
            "end",
            "place bagb 1614",
            "end",
            "place baga 0114",
            "end",
        ],
    );
    let r = refused(&mut g, "end");
    assert!(r.contains("write the corps' placement first"), "{r}");
    let r = refused(&mut g, "plan a1");
    assert!(r.contains("not a corps of Side B"), "{r}");
    run(&mut g, &["plan b1", "end"]);
    let r = refused(&mut g, "plan a1");
    assert!(
        r.contains("write every corps, from left to right: a1, a2"),
        "{r}"
    );
    run(&mut g, &["plan a2 a1", "end"]);
    // Side b, the defender, places first: within 4 hexes of the East edge.
    assert_eq!(g.turn().active, SideId(1));
    let r = refused(&mut g, "place gb 1208");
    assert!(
        r.contains("within 4 hexes of its East map edge") && r.contains("CdB 14.3.4"),
        "{r}"
    );
    // More than two hexes from the left and right map edges.
    let r = refused(&mut g, "place gb 1302");
    assert!(
        r.contains("more than 2 hexes from the left and right"),
        "{r}"
    );
    run(
        &mut g,
        &["place gb 1303", "place wb1 1304", "place wb2 1305"],
    );
    let r = refused(&mut g, "end");
    assert!(r.contains("place pb with its corps first"), "{r}");
    run(&mut g, &["place pb 1306", "end"]);
    // Side a places its most numerous corps first, within 2 hexes of the West edge.
    assert_eq!(g.turn().active, SideId(0));
    let r = refused(&mut g, "place g2 0210");
    assert!(r.contains("the most numerous (A1)"), "{r}");
    let r = refused(&mut g, "place ga 0308");
    assert!(r.contains("within 2 hexes of its West map edge"), "{r}");
    run(
        &mut g,
        &["place ga 0208", "place wa1 0209", "place wa2 0210"],
    );
    let r = refused(&mut g, "place g2 0211");
    assert!(r.contains("finish placing A1's corps first"), "{r}");
    run(&mut g, &["place wa3 0211", "end"]);
    // Side b has placed all; side a places A2 next, anywhere in its half (designer's
    // choice: `other_depth`) but on the left of A1, as written (CdB 14.3.3).
    assert_eq!(g.turn().active, SideId(0));
    let r = refused(&mut g, "place g2 0212");
    assert!(r.contains("puts A1's corps on the right of A2's"), "{r}");
    let r = refused(&mut g, "place g2 0907");
    assert!(r.contains("within 8 hexes"), "{r}");
    run(&mut g, &["place g2 0707", "place pa 0606", "end"]);
    // The attacker's turn begins (CdB 14.3.4).
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
    assert_eq!(g.turn().active, SideId(0));
    assert_eq!(g.turn().turn, 1);
    let log = log_text(&g);
    assert!(
        log.contains("Side A has placed A2's corps (2 counters)"),
        "{log}"
    );
    assert_eq!(
        unit_state(&g, "ga")["facing"],
        "E",
        "facing the enemy edge (E)"
    );
    assert_eq!(
        unit_state(&g, "gb")["facing"],
        "W",
        "facing the enemy edge (W)"
    );
}

#[test]
fn cdb_14_3_3_the_written_placement_is_kept_and_leaves_room_for_the_corps_to_come() {
    let mut g = to_corps_stage("plan a1 a2");
    run(
        &mut g,
        &[
            "place gb 1303",
            "place wb1 1304",
            "place wb2 1305",
            "place pb 1306",
            "end",
        ],
    );
    // A2 will stand on A1's right (higher rows for the West edge): A1 may not take the
    // last lines before the right margin.
    let r = refused(&mut g, "place ga 0214");
    assert!(r.contains("leave room on your right"), "{r}");
    run(
        &mut g,
        &[
            "place ga 0205",
            "place wa1 0206",
            "place wa2 0207",
            "place wa3 0108",
            "end",
        ],
    );
    let r = refused(&mut g, "place g2 0307");
    assert!(r.contains("puts A1's corps on the left of A2's"), "{r}");
    // A re-placement turns a unit (the window's turn buttons).
    run(
        &mut g,
        &["place g2 0309", "place g2 0309 NNE", "place pa 0410 SSE"],
    );
    assert_eq!(unit_state(&g, "g2")["facing"], "NNE");
    run(&mut g, &["end"]);
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
}

/// CdB 14.3.3 lets every troop type lie in ambush in or behind woods and hills, so a
/// side may set its whole army in ambush and have no corps left to place (14.3.4). The
/// set-up once gave that side the corps stage anyway, where `end` was refused for want
/// of a corps: the game could not go on (found by the computer at Soissons, seed 29).
#[test]
fn cdb_14_3_4_a_side_with_its_whole_army_in_ambush_leaves_the_corps_to_the_other() {
    let path = crate::common::root().join("scenarios/champs_de_bataille/soissons_486.ron");
    let mut g = Game::start(&path, 29, &[]).unwrap();
    let ambushes = [
        ("funditores_2", "2128"),
        ("equites_2", "2129"),
        ("legio_1", "2128"),
        ("funditores_1", "2130"),
        ("alani_2", "2119"),
        ("auxilia_2", "2219"),
        ("legio_2", "2130"),
        ("syagrius", "2129"),
        ("legio_3", "2028"),
        ("comes", "2118"),
        ("auxilia_1", "2030"),
        ("sagittarii_1", "2226"),
        ("sagittarii_2", "2226"),
        ("legio_5", "2018"),
        ("alani_1", "1918"),
        ("legio_4", "2018"),
        ("equites_1", "2224"),
    ];
    let mut lines: Vec<String> = [
        "edge East",
        "end",
        "place castra_1 2223",
        "place castra_2 2228",
        "place castra_3 2227",
        "place castra_4 2218",
        "end",
        "place chariots_1 0117",
        "place chariots_2 0104",
        "place chariots_3 0109",
        "place chariots_4 0112",
        "end",
        "plan syagrius comes",
    ]
    .map(String::from)
    .to_vec();
    for (unit, at) in ambushes {
        lines.push(format!("ambush {unit}"));
        lines.push(format!("place {unit} {at}"));
    }
    lines.extend(["end", "plan clovis ragnachar", "end"].map(String::from));
    run(
        &mut g,
        &lines.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let franks = g.side_to_act();
    assert_eq!(g.side_name(franks), "Franks", "{}", log_text(&g));
    let decision = g.ruleset.decision(&g.world).expect("a unit to place");
    assert!(decision.prompt.starts_with("place "), "{}", decision.prompt);
    // The Franks place both their corps, one after the other, and the battle begins.
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(29);
    for _ in 0..200 {
        if g.turn().phase.kind != PhaseKind::Place {
            break;
        }
        let command = g.ruleset.random_command(&mut g.world, &mut rng);
        g.submit(&command).unwrap();
    }
    assert_ne!(g.turn().phase.kind, PhaseKind::Place, "{}", log_text(&g));
    assert!(log_text(&g).contains("Turn 1"), "{}", log_text(&g));
}

#[test]
fn cdb_14_3_3_the_defenders_psiloi_ambush_in_broken_terrain_five_hexes_from_the_enemy_edge() {
    let mut g = deployment_game(seed_rolling_any(&[1]));
    run(
        &mut g,
        &[
            "edge West",
            "end",
            "place bagb 1614",
            "end",
            "place baga 0114",
            "end",
            "plan b1",
        ],
    );
    run(&mut g, &["ambush pb"]);
    assert!(is_hidden(&g, "pb"));
    let r = refused(&mut g, "end");
    assert!(r.contains("place pb in ambush first"), "{r}");
    // 0408 is broken but 4 hexes from the enemy (West) edge; 0708 is 7 hexes away but
    // clear and beyond b's own half (8 hexes from the East edge reach column 9).
    let r = refused(&mut g, "place pb 0408");
    assert!(
        r.contains("at least 5 hexes from the enemy edge") && r.contains("CdB 14.3.3"),
        "{r}"
    );
    let r = refused(&mut g, "place pb 0708");
    assert!(r.contains("broken terrain"), "{r}");
    run(&mut g, &["place pb 0608", "end"]);
    let log = log_text(&g);
    assert!(log.contains("Side B sets a unit in ambush"), "{log}");
    assert!(log.contains("Side B places a unit in secret"), "{log}");
    assert!(
        !log.contains("0608"),
        "the log does not name the ambush hex:\n{log}"
    );
    // Side a may not set its ambush in b's half, and its Psiloi are not the defender's.
    run(&mut g, &["plan a1 a2", "ambush pa"]);
    let r = refused(&mut g, "place pa 1008");
    assert!(r.contains("within 8 hexes of its own edge"), "{r}");
    let r = refused(&mut g, "place pa 0114");
    assert!(r.contains("0114 holds baga") && r.contains("CdB 8"), "{r}");
    run(&mut g, &["place pa 0113", "end"]);
    // Side b's corps, then a's: the ambush stays hidden when no enemy sees it.
    run(
        &mut g,
        &["place gb 1303", "place wb1 1304", "place wb2 1305", "end"],
    );
    run(
        &mut g,
        &[
            "place ga 0203",
            "place wa1 0204",
            "place wa2 0205",
            "place wa3 0206",
            "end",
        ],
    );
    run(&mut g, &["place g2 0210", "end"]);
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
    // Side a's units within three hexes of 0608? 0206 is 4 away: the Psiloi stay hidden.
    assert!(is_hidden(&g, "pb"), "{}", log_text(&g));
    assert_eq!(hex(&g, "pb").as_deref(), Some("0608"));
}

#[test]
fn cdb_optional_simultaneous_placement_each_army_is_placed_unseen_then_both_are_revealed() {
    let mut g = cdb_game_of_deployment(&["simultaneous_placement"]);
    run(
        &mut g,
        &[
            "edge West",
            "end",
            "place bagb 1614",
            "end",
            "place baga 0114",
            "end",
            "plan b1",
            "end",
            "plan a2 a1",
            "end",
        ],
    );
    run(
        &mut g,
        &[
            "place gb 1303",
            "place wb1 1304",
            "place wb2 1305",
            "place pb 1306",
        ],
    );
    assert!(is_hidden(&g, "gb"), "the defender's corps is placed unseen");
    run(&mut g, &["end"]);
    // Side a places both its corps in a row, without seeing side b's.
    run(
        &mut g,
        &[
            "place ga 0208",
            "place wa1 0209",
            "place wa2 0210",
            "place wa3 0211",
            "end",
        ],
    );
    assert_eq!(
        g.turn().active,
        SideId(0),
        "the same player places his next corps"
    );
    assert!(is_hidden(&g, "gb") && is_hidden(&g, "ga"));
    run(&mut g, &["place g2 0707", "place pa 0606", "end"]);
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
    assert!(!is_hidden(&g, "gb") && !is_hidden(&g, "ga") && !is_hidden(&g, "pa"));
    let log = log_text(&g);
    assert!(
        log.contains("Both armies are revealed (simultaneous placement)"),
        "{log}"
    );
    assert!(
        !log.contains("(1303) placed"),
        "the placements were not shown:\n{log}"
    );
}

#[test]
fn cdb_optional_simple_game_has_no_baggage_and_no_cinc() {
    // In the set-up: no baggage stage, the baggage never comes on the map.
    let mut g = cdb_game_of_deployment(&["simple_game"]);
    run(&mut g, &["edge West", "end"]);
    let r = refused(&mut g, "place bagb 1614");
    assert!(
        r.contains("set bagb in ambush first") || r.contains("CdB 14.3.3"),
        "{r}"
    );
    run(&mut g, &["plan b1", "end", "plan a2 a1", "end"]);
    run(
        &mut g,
        &[
            "place gb 1303",
            "place wb1 1304",
            "place wb2 1305",
            "place pb 1306",
            "end",
        ],
    );
    run(
        &mut g,
        &[
            "place ga 0208",
            "place wa1 0209",
            "place wa2 0210",
            "place wa3 0211",
            "end",
        ],
    );
    run(&mut g, &["place g2 0707", "place pa 0606", "end"]);
    assert_eq!(hex(&g, "baga"), None);
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
    // Without a CinC a regular general still assigns his die after the throw: the
    // penalty for the CinC's death (CdB 4.1) does not apply to an army that never had
    // one. Without the option, an army with no CinC names its dice before the throw.
    let units = with_base(&[], &[]);
    let ron = cdb_position_ron(&units, "", "").replace("commander: \"ga\", ", "");
    let g = cdb_game(&ron, 1, &["simple_game"]);
    assert!(
        log_text(&g).contains("for a regular general's action points"),
        "{}",
        log_text(&g)
    );
    let g = cdb_game(&ron, 1, &[]);
    assert!(
        log_text(&g).contains("for the action points of A's corps"),
        "{}",
        log_text(&g)
    );
}

fn cdb_game_of_deployment(options: &[&str]) -> Game {
    let g = deployment_game(seed_rolling_any(&[1]));
    let ron = std::fs::read_to_string(&g.scenario.path).expect("the test scenario");
    cdb_game(&ron, seed_rolling_any(&[1]), options)
}

#[test]
fn cdb_14_3_lateral_counts_from_the_players_left() {
    use bataille::engine::board::{Board, MapEdge};
    use bataille::engine::hex::HexCoord;
    use bataille::rulesets::champs_de_bataille::deployment::{from_edge, lateral, long_edges};
    let b = Board::new(22, 30, vec!["clear".into()]);
    let h = HexCoord { col: 3, row: 5 };
    assert_eq!(lateral(&b, MapEdge::West, h), 5);
    assert_eq!(lateral(&b, MapEdge::East, h), 26);
    assert_eq!(from_edge(&b, MapEdge::West, h), 3);
    assert_eq!(from_edge(&b, MapEdge::East, h), 20);
    assert_eq!(long_edges(&b), [MapEdge::West, MapEdge::East]);
}

//! Charles the Bold's field defences (a ditch, palisade, stakes or entrenchment on a
//! hexside, facing away from its `defended` hex; the Summary Sheet's row, designer's
//! after the spec's Appendix A-T): the MP to cross them and who may not, impact lost
//! attacking across them (CtB 10.3), cover behind them for fire (CtB 6.0) and for
//! skirmishers (CtB 6.2, 6.3, 10.6), defensive fire of shot against cavalry (CtB 6.2),
//! and impetuous stands that do not leave them to attack (CtB 9.3). Each test is named
//! after its section and checks the same position without them, or facing the other
//! way, so that it fails if the rule breaks.

use bataille::engine::board::Board;
use bataille::engine::game::Game;
use bataille::engine::hex::HexCoord;
use bataille::rulesets::charles_the_bold::data::{Tables, TerrainClass};
use bataille::rulesets::charles_the_bold::defences::{
    behind_defences, defends_field_defences, removes_impact_across,
};
use bataille::rulesets::charles_the_bold::movement::step_cost;
use bataille::rulesets::common::RulesetTables;

use crate::common::{decision, hex, log_text, refused, run, seed_rolling};
use crate::ctb_game_sections::duke_against_swiss_on;

fn h(label: &str) -> HexCoord {
    HexCoord::parse(label).expect("a hex label")
}

/// A Swiss stand far off, so that the Swiss are not broken before a blow (CtB 14.0).
const FAR: &str = r#"(id: "far", name: "Swiss shot", side: "swiss", type: "swiss_shot", hex: "1001", group: "bern", facing: "SSW"),"#;

/// A 10 × 8 map of clear ground with field defences on each side `(defended, outside)`.
fn map_with(defences: &[(&str, &str)]) -> String {
    let sides: Vec<String> = defences
        .iter()
        .map(|(d, o)| {
            format!(r#"(between: ("{d}", "{o}"), features: [field_defence], defended: "{d}")"#)
        })
        .collect();
    format!("(columns: 10, rows: 8, hexsides: [{}])", sides.join(", "))
}

/// The Swiss pike block in 0305 facing E charges by 0405 the Burgundian `target` in
/// 0505 facing W, on `map`, with these Burgundian stands beside.
fn pike_charge(map: &str, target: &str, beside: &str) -> Game {
    let mut g = duke_against_swiss_on(
        map,
        &format!(
            r#"(id: "b", name: "Defender", side: "burgundians", type: "{target}", hex: "0505", group: "duke", facing: "W"),
            {beside}"#
        ),
        r#"(id: "p", name: "Pike block", side: "swiss", type: "pike_block", hex: "0305", group: "bern", facing: "E"),"#,
        "swiss",
    );
    run(&mut g, &["go p 0405"]);
    g
}

#[test]
fn ctb_3_0_field_defences_cost_foot_one_more_mp_and_stop_horse_and_guns() {
    let t = Tables::builtin().expect("the built-in tables load");
    let mut board = Board::new(6, 6, t.terrain_names());
    board.add_field_defence(h("0303"), h("0403"));
    // Foot pays 1 MP more to cross, whichever way (clear ground costs 1).
    for class in [TerrainClass::CloseFoot, TerrainClass::LightFoot] {
        assert_eq!(step_cost(&t, &board, class, h("0403"), h("0303")), Some(2));
        assert_eq!(step_cost(&t, &board, class, h("0303"), h("0403")), Some(2));
        assert_eq!(step_cost(&t, &board, class, h("0303"), h("0302")), Some(1));
    }
    // Mounted stands and guns may not cross at all, either way; they move beside them.
    for class in [
        TerrainClass::Mounted,
        TerrainClass::LightHorse,
        TerrainClass::Guns,
    ] {
        assert_eq!(step_cost(&t, &board, class, h("0403"), h("0303")), None);
        assert_eq!(step_cost(&t, &board, class, h("0303"), h("0403")), None);
        assert_eq!(step_cost(&t, &board, class, h("0303"), h("0302")), Some(1));
    }
    // Whoever attacks across them loses impact (CtB 10.3), foot and horse, either way.
    for mounted in [false, true] {
        assert!(removes_impact_across(
            &t,
            &board,
            h("0403"),
            h("0303"),
            mounted
        ));
        assert!(removes_impact_across(
            &t,
            &board,
            h("0303"),
            h("0403"),
            mounted
        ));
        assert!(!removes_impact_across(
            &t,
            &board,
            h("0302"),
            h("0303"),
            mounted
        ));
    }
    // Cover is the defended hex's only, and only from across them.
    assert!(behind_defences(&t, &board, h("0303"), h("0403")));
    assert!(!behind_defences(&t, &board, h("0403"), h("0303")));
    assert!(!behind_defences(&t, &board, h("0303"), h("0302")));
}

#[test]
fn ctb_3_0_foot_pays_one_more_mp_to_cross_field_defences() {
    let pikemen = |at: &str, facing: &str| {
        format!(
            r#"(id: "b", name: "Pikemen", side: "burgundians", type: "pikemen", hex: "{at}", group: "duke", facing: "{facing}"),"#
        )
    };
    // On clear ground the pikemen's 2 MP take them two hexes.
    let mut g = duke_against_swiss_on(&map_with(&[]), &pikemen("0405", "E"), FAR, "burgundians");
    run(&mut g, &["go b 0505 0605"]);
    assert_eq!(hex(&g, "b").as_deref(), Some("0605"));
    // Crossing field defences costs both: nothing is left for the second hex.
    let fenced = map_with(&[("0505", "0405")]);
    let mut g = duke_against_swiss_on(&fenced, &pikemen("0405", "E"), FAR, "burgundians");
    let r = refused(&mut g, "go b 0505 0605");
    assert!(r.contains("CtB 3.0") && r.contains("0 MP left"), "{r}");
    run(&mut g, &["go b 0505"]);
    assert_eq!(hex(&g, "b").as_deref(), Some("0505"));
    // Leaving them from the defended side costs the same.
    let mut g = duke_against_swiss_on(&fenced, &pikemen("0505", "W"), FAR, "burgundians");
    let r = refused(&mut g, "go b 0405 0305");
    assert!(r.contains("CtB 3.0") && r.contains("0 MP left"), "{r}");
}

#[test]
fn ctb_3_0_mounted_may_not_cross_field_defences() {
    let gendarmes = |at: &str, facing: &str| {
        format!(
            r#"(id: "g", name: "Gendarmes", side: "burgundians", type: "gendarmes", hex: "{at}", group: "duke", facing: "{facing}"),"#
        )
    };
    let fenced = map_with(&[("0505", "0405")]);
    let mut g = duke_against_swiss_on(&fenced, &gendarmes("0405", "E"), FAR, "burgundians");
    let r = refused(&mut g, "go g 0505");
    assert!(
        r.contains("CtB Summary Sheet")
            && r.contains(
                "field defences between 0405 and 0505 cannot be crossed by mounted stands"
            ),
        "{r}"
    );
    // Nor out of them; beside them they ride on.
    let mut g = duke_against_swiss_on(&fenced, &gendarmes("0505", "W"), FAR, "burgundians");
    let r = refused(&mut g, "go g 0405");
    assert!(r.contains("field defences between 0505 and 0405"), "{r}");
    run(&mut g, &["go g 0404"]);
    assert_eq!(hex(&g, "g").as_deref(), Some("0404"));
}

/// The melee pool line of the pike block once it fights the defender.
fn pike_block_pool(map: &str) -> String {
    let mut g = pike_charge(map, "pikemen", "");
    assert_eq!(
        decision(&g).map(|d| d.rule).as_deref(),
        Some("CtB 10.2"),
        "the melee waits"
    );
    run(&mut g, &["fight p -> b"]);
    let log = log_text(&g);
    log.lines()
        .find(|l| l.contains("Pike block: +5 5 SP"))
        .unwrap_or_else(|| panic!("the pike block's pool is logged:\n{log}"))
        .to_string()
}

#[test]
fn ctb_10_3_no_impact_attacking_across_field_defences() {
    // In the open the Swiss pikes charging foot add their impact (CtB 10.3).
    let open = pike_block_pool(&map_with(&[]));
    assert!(open.contains("impact (CtB 10.3)"), "{open}");
    // Across the defences the Burgundians hold, none.
    let fenced = pike_block_pool(&map_with(&[("0505", "0405"), ("0505", "0404")]));
    assert!(!fenced.contains("impact"), "{fenced}");
}

/// The Burgundian crossbowmen in 0405 fire at the Swiss halberdiers two hexes east, in
/// 0605, on `map`; the terms of the fire are returned.
fn crossbow_fire(map: &str) -> String {
    let mut g = duke_against_swiss_on(
        map,
        r#"(id: "x", name: "Crossbowmen", side: "burgundians", type: "crossbowmen", hex: "0405", group: "duke", facing: "E"),"#,
        r#"(id: "h", name: "Halberdiers", side: "swiss", type: "halberdiers", hex: "0605", group: "bern", facing: "W"),"#,
        "burgundians",
    );
    run(&mut g, &["fire x -> h"]);
    let log = log_text(&g);
    log.lines()
        .filter(|l| l.contains("Crossbowmen fire"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn ctb_6_0_fire_at_a_stand_behind_field_defences_loses_a_die() {
    // In the open: 4 SP at 2H, 4D6.
    let open = crossbow_fire(&map_with(&[]));
    assert!(
        open.contains("Crossbowmen fire: 4D6") && !open.contains("cover"),
        "{open}"
    );
    // The line from 0405 comes into 0605 at its west corner, between the sides towards
    // 0505 and 0506: with both defended, the halberdiers are in cover (−1D6).
    let both = crossbow_fire(&map_with(&[("0605", "0505"), ("0605", "0506")]));
    assert!(
        both.contains("-1 the target in cover (CtB Summary Sheet (designer's))")
            && both.contains("Crossbowmen fire: 3D6"),
        "{both}"
    );
    // One of the two: the benefit of the doubt goes to the shooter.
    let one = crossbow_fire(&map_with(&[("0605", "0505")]));
    assert!(one.contains("Crossbowmen fire: 4D6"), "{one}");
    // Defences facing the other way cover the hexes in front of the target, not it.
    let reversed = crossbow_fire(&map_with(&[("0505", "0605"), ("0506", "0605")]));
    assert!(reversed.contains("Crossbowmen fire: 4D6"), "{reversed}");
}

#[test]
fn ctb_6_2_shot_behind_field_defences_fire_defensively_at_cavalry() {
    // Shot in the open has no defensive fire against heavy cavalry (CtB 6.2); behind
    // field defences, which take the cavalry's impetus away, it has.
    let fenced = map_with(&[("0505", "0405"), ("0505", "0404")]);
    let mut g = crate::common::game_of(
        &english_scots(&fenced, "archers"),
        seed_rolling(&[6, 6, 1, 1]),
        &[],
    );
    run(
        &mut g,
        &["declare comyn", "declare marshal", "end", "go h1 0405"],
    );
    let d = decision(&g).expect("defensive fire is offered");
    assert_eq!(d.rule, "CtB 6.2", "{d:?}");
    run(&mut g, &["react fire e1 -> h1"]);
    assert!(
        log_text(&g).contains("Archers defensive fire at Scots horse: 4D6"),
        "{}",
        log_text(&g)
    );
    // In the open the melee comes at once.
    let mut g = crate::common::game_of(
        &english_scots(&map_with(&[]), "archers"),
        seed_rolling(&[6, 6, 1, 1]),
        &[],
    );
    run(
        &mut g,
        &["declare comyn", "declare marshal", "end", "go h1 0405"],
    );
    assert_eq!(decision(&g).map(|d| d.rule).as_deref(), Some("CtB 10.2"));
}

/// English archers (`kind`) in 0505 facing W, and the Scots horse in 0305 facing E,
/// which moves first.
fn english_scots(map: &str, kind: &str) -> String {
    format!(
        r#"(
    name: "Behind the stakes", date: "1298", ruleset: "charles_the_bold", turns: 2,
    map: {map},
    sides: [
        (id: "english", name: "English", army: "english", break_fraction: (1, 2),
         groups: [(id: "marshal", name: "Marshal", general: "norfolk")]),
        (id: "scots", name: "Scots", army: "scots", break_fraction: (1, 2),
         groups: [(id: "comyn", name: "Comyn", general: "comyn")]),
    ],
    first: "scots",
    units: [
        (id: "norfolk", name: "Norfolk", side: "english", type: "general", hex: "0705", group: "marshal"),
        (id: "e1", name: "Archers", side: "english", type: "{kind}", hex: "0505", group: "marshal", facing: "W"),
        (id: "comyn", name: "Comyn", side: "scots", type: "general", hex: "0205", group: "comyn"),
        (id: "h1", name: "Scots horse", side: "scots", type: "scots_horse", hex: "0305", group: "comyn", facing: "E"),
    ],
    at_time_limit: (winner: "scots", level: Minor),
)"#
    )
}

#[test]
fn ctb_9_3_impetuous_stands_do_not_leave_field_defences_to_attack() {
    let halberdiers = r#"(id: "h", name: "Halberdiers", side: "swiss", type: "halberdiers", hex: "0505", group: "bern", facing: "W"),"#;
    let pikemen = r#"(id: "b", name: "Pikemen", side: "burgundians", type: "pikemen", hex: "0304", group: "duke", facing: "E"),"#;
    let game = |defences: &[(&str, &str)]| {
        duke_against_swiss_on(&map_with(defences), pikemen, halberdiers, "swiss")
    };
    // In the open the steady halberdiers move only at the pikemen (CtB 9.2).
    let mut g = game(&[]);
    assert!(refused(&mut g, "go h 0605").contains("CtB 9.2"));
    // Behind field defences along both their front hexsides they are free (CtB 9.3).
    let mut g = game(&[("0505", "0404"), ("0505", "0405")]);
    run(&mut g, &["go h 0605", "end"]);
    assert_eq!(hex(&g, "h").as_deref(), Some("0605"));
    // Defences facing them shelter the enemy, not them: still compelled.
    let mut g = game(&[("0404", "0505"), ("0405", "0505")]);
    assert!(refused(&mut g, "go h 0605").contains("CtB 9.2"));
    // One front hexside open: they are not behind the defences (R-9.3, as for a creek).
    let mut g = game(&[("0505", "0404")]);
    assert!(refused(&mut g, "go h 0605").contains("CtB 9.2"));
    // The reading itself, on the board.
    let board = g.world.resource::<Board>();
    let w = bataille::engine::hex::VertexFacing::parse("W").unwrap();
    assert!(!defends_field_defences(board, h("0505"), w));
}

#[test]
fn ctb_10_6_skirmishers_behind_field_defences_stand_in_cover() {
    let fenced = map_with(&[("0505", "0405"), ("0505", "0404")]);
    // Charged in the open, culveriniers that hold fire and then die (CtB 6.2, 10.6).
    let mut g = pike_charge(&map_with(&[]), "culveriniers", "");
    run(&mut g, &["hold b", "react fire b -> p"]);
    let log = log_text(&g);
    assert!(
        log.contains("Defender in the open cannot stand against Pike block: destroyed"),
        "{log}"
    );
    assert_eq!(hex(&g, "b"), None);
    // Behind field defences they fire, stand and fight.
    let mut g = pike_charge(&fenced, "culveriniers", "");
    run(&mut g, &["hold b", "react fire b -> p"]);
    let log = log_text(&g);
    assert!(!log.contains("cannot stand"), "{log}");
    assert_eq!(hex(&g, "b").as_deref(), Some("0505"));
    assert_eq!(decision(&g).map(|d| d.rule).as_deref(), Some("CtB 10.2"));
}

#[test]
fn ctb_10_6_supporting_skirmishers_behind_field_defences_may_hold_and_live() {
    // Culveriniers in 0406 facing NNE support the pikemen charged from 0405.
    let sk = r#"(id: "sk", name: "Culveriniers", side: "burgundians", type: "culveriniers", hex: "0406", group: "duke", facing: "NNE"),"#;
    // Behind field defences facing the charger they may hold their fire and live.
    let mut g = pike_charge(&map_with(&[("0406", "0405")]), "pikemen", sk);
    run(&mut g, &["react none"]);
    assert!(log_text(&g).contains("Culveriniers holds its supporting fire"));
    assert_eq!(hex(&g, "sk").as_deref(), Some("0406"));
    // Defences facing the other way are no cover to them: evade, or fire and die.
    let mut g = pike_charge(&map_with(&[("0405", "0406")]), "pikemen", sk);
    let r = refused(&mut g, "react none");
    assert!(r.contains("CtB 10.6") && r.contains("must evade"), "{r}");
}

#[test]
fn ctb_summary_sheet_field_defences_row_is_checked_where_it_is_written() {
    use bataille::rulesets::charles_the_bold::data;
    let refused_with = |from: &str, to: &str| {
        let mut texts = [
            data::TYPES_RON,
            data::TERRAIN_RON,
            data::FACTORS_RON,
            data::ORDERS_RON,
            data::ARMIES_RON,
            data::SPECIAL_RON,
        ]
        .map(str::to_string);
        assert!(texts[1].contains(from), "terrain.ron has `{from}`");
        texts[1] = texts[1].replacen(from, to, 1);
        Tables::parse(data::FILES, texts).expect_err("the changed table is refused")
    };
    let at = crate::common::place(data::TERRAIN_RON, "field_defence: (", "field_defence");
    let e = refused_with(
        "cost: (1, 1, None, None, None)",
        "cost: (12, 1, None, None, None)",
    );
    assert!(
        e.message.contains("field defences cost 0 to 9 MP more"),
        "{e}"
    );
    assert_eq!((e.line, e.column), at);
    let line = data::TERRAIN_RON
        .lines()
        .find(|l| l.contains("source: \"Designer's, after the spec's Appendix A-T row"))
        .expect("the row's source line");
    let e = refused_with(line, "      source: \" \",");
    assert!(e.message.contains("need a `source:` note"), "{e}");
    assert_eq!((e.line, e.column), at);
}

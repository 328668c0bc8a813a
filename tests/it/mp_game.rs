//! Morne Plaine played: small positions on a clear 10x10 map (orange side `a` moves
//! first and retreats north, blue side `b` south), each test named after the rule it
//! checks (`mp_<heading>_...`), with the dice found by seed where a result matters.

use bataille::engine::dice::Dice;
use bataille::engine::game::Game;
use bataille::engine::hex::HexCoord;
use bataille::rulesets::parse_line;

use crate::common::{game_of, log_text, refused, run, unit_state};

/// A unit of a test position: (id, side "a"|"b", type, hex or "" for a
/// reinforcement, extra fields such as `cs: 3, leader: "l"`).
pub(crate) type Mu<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);

/// The RON of a Morne Plaine position: `map` adds to the map, `rules` to the special
/// rules (an objective in 0101 is always there), `extra` to the scenario.
pub(crate) fn mp_ron(units: &[Mu], map: &str, rules: &str, extra: &str) -> String {
    let list: Vec<String> = units
        .iter()
        .map(|(id, side, t, hex, more)| {
            let hex = if hex.is_empty() {
                String::new()
            } else {
                format!(", hex: \"{hex}\"")
            };
            let more = if more.is_empty() {
                String::new()
            } else {
                format!(", {more}")
            };
            format!("(id: \"{id}\", name: \"{id}\", side: \"{side}\", type: \"{t}\"{hex}{more})")
        })
        .collect();
    format!(
        r#"(
    name: "Test position",
    date: "1815",
    ruleset: "morne_plaine",
    turns: 2,
    map: (columns: 10, rows: 10, {map}),
    sides: [
        (id: "a", name: "Orange", colour: Orange),
        (id: "b", name: "Blue", colour: Blue),
    ],
    first: "a",
    units: [
        {}
    ],
    {extra}
    special_rules: [
        Objective(hex: "0101", name: "Corner", vp: 1),
        {rules}
    ],
)"#,
        list.join(",\n        ")
    )
}

pub(crate) fn mp(units: &[Mu], map: &str, seed: u64) -> Game {
    game_of(&mp_ron(units, map, "", ""), seed, &[])
}

/// The first seed whose dice roll these (faces, value) in order, 0 for any value.
pub(crate) fn seed_rolling_dice(rolls: &[(u8, u8)]) -> u64 {
    (0..2_000_000u64)
        .find(|&s| {
            let mut d = Dice::new(s);
            rolls.iter().all(|&(sides, v)| {
                let r = d.die(sides);
                v == 0 || r == v
            })
        })
        .expect("some seed rolls these dice")
}

pub(crate) fn ends(game: &mut Game, n: usize) {
    for _ in 0..n {
        run(game, &["end"]);
    }
}

fn mp_state(game: &Game, id: &str) -> serde_json::Value {
    game.state_json()["ruleset_state"]["units"]
        .as_array()
        .expect("units")
        .iter()
        .find(|u| u["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no unit {id} on the map"))
}

pub(crate) fn hex(game: &Game, id: &str) -> String {
    unit_state(game, id)["hex"]
        .as_str()
        .unwrap_or("-")
        .to_string()
}

/// A hex from its `CCRR` label.
fn h(label: &str) -> HexCoord {
    HexCoord::parse(label).expect("a hex label")
}

fn phase(game: &Game) -> String {
    game.turn().phase.label.to_string()
}

#[test]
fn mp_generalities_phases_bombardment_movement_combat_then_rally_and_victory() {
    let mut g = mp(
        &[
            ("i", "a", "line_infantry", "0505", ""),
            ("j", "b", "line_infantry", "0909", ""),
        ],
        "default_terrain: \"clear\"",
        1,
    );
    let mut seen = vec![(phase(&g), g.state_json()["active_side"].to_string())];
    for _ in 0..6 {
        run(&mut g, &["end"]);
        seen.push((phase(&g), g.state_json()["active_side"].to_string()));
    }
    let labels: Vec<&str> = seen.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        labels,
        [
            "bombardment",
            "movement",
            "combat",
            "bombardment",
            "movement",
            "combat",
            "bombardment"
        ]
    );
    assert_eq!(
        seen[3].1, "\"b\"",
        "the second side's turn after the first's combat"
    );
    assert_eq!(g.turn().turn, 2);
    let log = log_text(&g);
    assert!(
        log.contains("Turn 1 ends: VP Orange 0 – Blue 0: a draw (MP victory)"),
        "{log}"
    );
    ends(&mut g, 6);
    let o = g.outcome().expect("over after the last turn");
    assert_eq!(o.winner, None);
    assert!(refused(&mut g, "end").contains("MP victory"));
}

#[test]
fn mp_combat_retreat_decision_verbs_refused_the_game_decides() {
    let mut g = mp(
        &[
            ("i", "a", "line_infantry", "0505", ""),
            ("j", "b", "line_infantry", "0506", ""),
        ],
        "default_terrain: \"clear\"",
        1,
    );
    for line in [
        "retreat 0504",
        "advance 0505",
        "lose 0505",
        "check 0505",
        "place i 0404",
    ] {
        let r = refused(&mut g, line);
        assert!(r.contains("MP "), "{line}: {r}");
    }
    assert!(g.ruleset.decision(&g.world).is_none());
}

#[test]
fn mp_movement_entering_enemy_zoc_ends_the_move() {
    let mut g = mp(
        &[
            ("i", "a", "line_infantry", "0503", ""),
            ("j", "b", "line_infantry", "0506", ""),
        ],
        "default_terrain: \"clear\"",
        1,
    );
    ends(&mut g, 1);
    // 0505 touches 0506: entering it ends the move, so going on to 0605 is refused.
    let r = refused(&mut g, "move i 0504 0505 0605");
    assert!(
        r.contains("enemy zone of control: entering it ends the move"),
        "{r}"
    );
    run(&mut g, &["move i 0504 0505"]);
    assert_eq!(hex(&g, "i"), "0505");
}

#[test]
fn mp_movement_zoc_not_across_a_river_without_bridge_or_ford() {
    // A river between 0505 and 0506: 0505 is not in the zone of the unit in 0506.
    let map = "default_terrain: \"clear\", hexsides: [(between: (\"0505\", \"0506\"), features: [river])]";
    let mut g = mp(
        &[
            ("i", "a", "line_infantry", "0503", ""),
            ("k", "a", "line_infantry", "0505", ""),
            ("j", "b", "line_infantry", "0506", ""),
        ],
        map,
        1,
    );
    ends(&mut g, 1);
    run(&mut g, &["move i 0504 0505 0405"]);
    assert_eq!(hex(&g, "i"), "0405");
    ends(&mut g, 1);
    // Nor across it: "Combat is not possible wherever movement forbidden" (MP combat).
    let r = refused(&mut g, "attack 0505 -> 0506");
    assert!(
        r.contains(
            "0505 and 0506 are not on contact: combat is not possible where movement is forbidden"
        ),
        "{r}"
    );
}

#[test]
fn mp_movement_no_stacking_leaders_included_passing_friends_allowed() {
    let mut g = mp(
        &[
            ("i", "a", "line_infantry", "0505", ""),
            ("l", "a", "leader", "0504", ""),
            ("j", "b", "line_infantry", "0909", ""),
        ],
        "default_terrain: \"clear\"",
        1,
    );
    ends(&mut g, 1);
    let r = refused(&mut g, "move i 0504");
    assert!(r.contains("one unit a hex, leaders included"), "{r}");
    run(&mut g, &["move i 0504 0503"]);
    assert_eq!(hex(&g, "i"), "0503");
}

#[test]
fn mp_movement_road_half_mp_along_road_hexsides() {
    let map = "default_terrain: \"woods\", hexsides: [(between: (\"0505\", \"0504\"), features: [road]), (between: (\"0504\", \"0503\"), features: [road])]";
    let mut g = mp(
        &[
            ("i", "a", "line_infantry", "0505", ""),
            ("j", "b", "line_infantry", "0909", ""),
        ],
        map,
        1,
    );
    ends(&mut g, 1);
    assert_eq!(mp_state(&g, "i")["ma_left"], 4.0);
    run(&mut g, &["move i 0504 0503"]);
    // Two road hexsides at ½ MP, whatever the woods.
    assert_eq!(mp_state(&g, "i")["ma_left"], 3.0);
    assert!(log_text(&g).contains("moves 0505 → 0504 → 0503 (1 MP)"));
}

#[test]
fn mp_movement_costs_by_kind_stream_adds_one_bridge_cancels() {
    let map = "default_terrain: \"clear\", terrain: { \"woods\": [\"0504\"] }, hexsides: [(between: (\"0605\", \"0604\"), features: [stream]), (between: (\"0405\", \"0404\"), features: [stream, bridge])]";
    let mut g = mp(
        &[
            ("i", "a", "line_infantry", "0505", ""),
            ("c", "a", "light_cavalry", "0605", ""),
            ("k", "a", "line_infantry", "0405", ""),
            ("j", "b", "line_infantry", "0909", ""),
        ],
        map,
        1,
    );
    ends(&mut g, 1);
    run(&mut g, &["move i 0504", "move c 0604", "move k 0404"]);
    // Woods cost infantry 2; the stream adds 1 to clear; the bridge cancels it.
    assert_eq!(mp_state(&g, "i")["ma_left"], 2.0);
    assert_eq!(mp_state(&g, "c")["ma_left"], 5.0);
    assert_eq!(mp_state(&g, "k")["ma_left"], 3.0);
}

#[test]
fn mp_movement_out_of_command_halves_ma_rounded_down() {
    let units = [
        ("l", "a", "leader", "0101", ""),
        ("near", "a", "light_cavalry", "0303", "leader: \"l\""),
        ("far", "a", "light_cavalry", "0808", "leader: \"l\""),
        ("free", "a", "light_cavalry", "0606", ""),
        ("j", "b", "line_infantry", "1010", ""),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 1);
    // Light cavalry MA 7: within the radius of 3, 7; beyond it, 3; with no leader, 7.
    assert_eq!(mp_state(&g, "near")["ma_left"], 7.0);
    assert_eq!(mp_state(&g, "far")["ma_left"], 3.0);
    assert_eq!(mp_state(&g, "free")["ma_left"], 7.0);
    assert!(log_text(&g).contains("Out of command, movement allowance halved: far"));
}

#[test]
fn mp_movement_marsh_stuck_by_kind_on_d4() {
    let map = "default_terrain: \"clear\", terrain: { \"marsh\": [\"0504\"] }";
    let units = [
        ("i", "a", "line_infantry", "0505", ""),
        ("j", "b", "line_infantry", "0909", ""),
    ];
    // Infantry is stuck on 1 in 4.
    let stuck = seed_rolling_dice(&[(4, 1)]);
    let mut g = mp(&units, map, stuck);
    ends(&mut g, 1);
    run(&mut g, &["move i 0504 0503"]);
    assert_eq!(hex(&g, "i"), "0504");
    assert!(log_text(&g).contains("stuck in the marsh of 0504"));
    let through = seed_rolling_dice(&[(4, 2)]);
    let mut g = mp(&units, map, through);
    ends(&mut g, 1);
    run(&mut g, &["move i 0504 0503"]);
    assert_eq!(hex(&g, "i"), "0503");
    // No test on the last hex of a move.
    let mut g = mp(&units, map, stuck);
    ends(&mut g, 1);
    run(&mut g, &["move i 0504"]);
    assert!(!log_text(&g).contains("marsh test"));
}

#[test]
fn mp_movement_reinforcements_enter_from_their_turn_by_their_hexes() {
    let units = [
        ("r", "a", "line_infantry", "", ""),
        ("j", "b", "line_infantry", "0909", ""),
    ];
    let ron = mp_ron(
        &units,
        "default_terrain: \"clear\"",
        "",
        "reinforcements: [(unit: \"r\", turn: 2, entry: [\"0501\"])],",
    );
    let mut g = game_of(&ron, 1, &[]);
    ends(&mut g, 1);
    assert!(refused(&mut g, "move r 0501").contains("arrives on turn 2"));
    ends(&mut g, 5);
    ends(&mut g, 1);
    assert!(refused(&mut g, "move r 0601").contains("enters the map by 0501"));
    run(&mut g, &["move r 0501 0502"]);
    assert_eq!(hex(&g, "r"), "0502");
}

#[test]
fn mp_bombardment_range_and_line_of_fire_woods_block_units_do_not() {
    let map = "default_terrain: \"clear\", terrain: { \"woods\": [\"0503\"] }";
    let units = [
        ("g", "a", "foot_battery", "0505", ""),
        ("f", "a", "line_infantry", "0605", ""),
        ("t1", "b", "line_infantry", "0502", ""),
        ("t2", "b", "line_infantry", "0805", ""),
        ("t3", "b", "line_infantry", "0909", ""),
    ];
    let mut g = mp(&units, map, 1);
    // Through the woods of 0503: no line of fire.
    assert!(refused(&mut g, "attack fire 0505 -> 0502").contains("cannot see"));
    // Beyond the range of 3.
    assert!(refused(&mut g, "attack fire 0505 -> 0909").contains("beyond its range of 3"));
    // Over the friendly unit in 0605: units never block.
    run(&mut g, &["attack fire 0505 -> 0805"]);
    assert!(log_text(&g).contains("g bombards t2 in 0805: fire strength 2"));
    assert!(refused(&mut g, "attack fire 0505 -> 0805").contains("MP bombardment"));
    // A unit that bombards cannot move that turn.
    run(&mut g, &["end"]);
    assert!(refused(&mut g, "move g 0504").contains("cannot move that turn"));
}

/// The hexes the window outlines around a selected unit (`Ruleset::unit_area`).
pub(crate) fn area(g: &Game, id: &str) -> Vec<String> {
    let u = bataille::rulesets::common::unit_by_key(&g.world, id).expect("the unit");
    let e = g
        .world
        .resource::<bataille::engine::units::Units>()
        .entity(u);
    let mut hexes: Vec<String> = g
        .ruleset
        .unit_area(&g.world, e)
        .iter()
        .map(|h| h.label())
        .collect();
    hexes.sort();
    hexes
}

#[test]
fn mp_bombardment_range_shown_is_the_hexes_with_a_line_of_fire() {
    // The same battery and woods as above: the window's range is the rule's own.
    let map = "default_terrain: \"clear\", terrain: { \"woods\": [\"0503\"] }";
    let units = [("g", "a", "foot_battery", "0505", "")];
    let g = mp(&units, map, 1);
    let range = area(&g, "g");
    for seen in ["0805", "0504", "0503", "0508"] {
        assert!(range.contains(&seen.to_string()), "{seen} in {range:?}");
    }
    for unseen in ["0502", "0505", "0909", "0509"] {
        assert!(
            !range.contains(&unseen.to_string()),
            "{unseen} in {range:?}"
        );
    }
}

#[test]
fn mp_command_radius_shown_around_a_leader() {
    let units = [
        ("l", "a", "leader", "0505", ""),
        ("i", "a", "line_infantry", "0909", ""),
    ];
    let g = mp(&units, "default_terrain: \"clear\"", 1);
    // Radius 3: 6 + 12 + 18 hexes around it, all on this map.
    let radius = area(&g, "l");
    assert_eq!(radius.len(), 36, "{radius:?}");
    assert!(radius.contains(&"0508".to_string()) && !radius.contains(&"0509".to_string()));
    assert!(
        area(&g, "i").is_empty(),
        "a brigade with no leader has no area"
    );
}

#[test]
fn mp_command_radius_shown_around_a_brigades_leader() {
    // A selected brigade outlines its own leader's radius, wherever the leader is:
    // where it would stay in command (MP movement: command).
    let units = [
        ("l", "a", "leader", "0505", ""),
        ("i", "a", "line_infantry", "0909", "leader: \"l\""),
    ];
    let g = mp(&units, "default_terrain: \"clear\"", 1);
    assert_eq!(area(&g, "i"), area(&g, "l"));
    assert!(
        !area(&g, "i").contains(&"0909".to_string()),
        "0909 is out of command"
    );
}

#[test]
fn mp_bombardment_not_from_woods_or_village() {
    let map = "default_terrain: \"clear\", terrain: { \"village\": [\"0505\"] }";
    let units = [
        ("g", "a", "foot_battery", "0505", ""),
        ("t", "b", "line_infantry", "0507", ""),
    ];
    let mut g = mp(&units, map, 1);
    assert!(
        refused(&mut g, "attack fire 0505 -> 0507")
            .contains("does not fire from woods or a village")
    );
}

#[test]
fn mp_bombardment_reaction_fire_once_on_entering_adjacent() {
    let units = [
        ("i", "a", "line_infantry", "0502", ""),
        ("k", "a", "line_infantry", "0702", ""),
        ("g", "b", "foot_battery", "0506", ""),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 1);
    run(&mut g, &["move i 0503 0504 0505"]);
    let log = log_text(&g);
    assert!(log.contains("g fires at i entering 0505"), "{log}");
    // The log reads in the order things happen: the route, then the fire it met.
    let (route, fire) = (
        log.find("i moves 0502 → 0503 → 0504 → 0505")
            .expect("the route"),
        log.find("g fires at i").expect("the fire"),
    );
    assert!(route < fire, "{log}");
    run(&mut g, &["move k 0703 0704 0705 0605"]);
    let fired = log_text(&g).matches("reaction fire)").count();
    assert!(
        !log_text(&g).contains("g fires at k"),
        "once a turn: {fired} lines of reaction fire"
    );
}

#[test]
fn mp_combat_one_attacker_supports_found_not_named() {
    let units = [
        ("a1", "a", "line_infantry", "0504", ""),
        ("a2", "a", "line_infantry", "0404", ""),
        ("a3", "a", "line_infantry", "0604", ""),
        ("d", "b", "line_infantry", "0505", ""),
        ("e", "b", "line_infantry", "0704", ""),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 2);
    let r = refused(&mut g, "attack 0504 0404 -> 0505");
    assert!(r.contains("supports are found by the game"), "{r}");
    let cmd = parse_line("attack 0504 -> 0505").unwrap().unwrap();
    let p = g.ruleset.attack_preview(&g.world, &cmd).expect("legal");
    // a2 supports; a3 touches e in 0704 too, so it does not (MP combat: supports).
    assert_eq!(p.odds, "10 against 5: 2-1", "{p:?}");
    assert!(
        p.modifiers
            .iter()
            .any(|m| m.contains("supports the attack: a2 5"))
    );
    assert!(!p.modifiers.iter().any(|m| m.contains("a3")));
    // The window outlines exactly the supports the rules found (MP combat: supports).
    assert_eq!(p.attack_supports, [h("0404")], "{p:?}");
    assert!(p.defence_supports.is_empty(), "{p:?}");
}

#[test]
fn mp_supports_defensive_found_automatically() {
    let units = [
        ("a1", "a", "line_infantry", "0504", ""),
        ("d", "b", "line_infantry", "0505", ""),
        ("d2", "b", "line_infantry", "0404", ""),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 2);
    let cmd = parse_line("attack 0504 -> 0505").unwrap().unwrap();
    let p = g.ruleset.attack_preview(&g.world, &cmd).expect("legal");
    assert_eq!(p.odds, "5 against 10: 1-2");
    // d2 touches the attacker and no other enemy: it, and it alone, is outlined.
    assert!(p.attack_supports.is_empty(), "{p:?}");
    assert_eq!(p.defence_supports, [h("0404")], "{p:?}");
}

#[test]
fn mp_combat_attack_once_defend_once_per_phase() {
    let units = [
        ("a1", "a", "line_infantry", "0504", ""),
        ("a2", "a", "line_infantry", "0506", ""),
        ("d", "b", "line_infantry", "0505", ""),
        ("e", "b", "line_infantry", "0605", ""),
    ];
    // a2 touches e too, so it does not support: 5 against 5 is 1-1, a die of 3 gives
    // 1/1*, and a d9 of 1 passes: everyone stays in place.
    let seed = seed_rolling_dice(&[(6, 3), (9, 1)]);
    let mut g = mp(&units, "default_terrain: \"clear\"", seed);
    ends(&mut g, 2);
    run(&mut g, &["attack 0504 -> 0505"]);
    assert!(refused(&mut g, "attack 0504 -> 0605").contains("already attacked"));
    assert!(log_text(&g).contains("Die 3 → row 3: 1/1*"));
    assert!(refused(&mut g, "attack 0506 -> 0505").contains("already been attacked"));
    run(&mut g, &["attack 0506 -> 0605"]);
}

#[test]
fn mp_combat_failed_check_retreats_by_the_priorities_and_the_victor_advances() {
    // 5 against 5: 1-1; a die of 5 gives 0/1*: the defender loses 1 CS and checks; a
    // d9 of 9 fails against MV 5. Orange in 0505 attacked from 0506 (south) retreats
    // north, into 0504, the hex opposite the attacker; the attacker advances.
    let units = [
        ("d", "a", "line_infantry", "0505", ""),
        ("x", "a", "line_infantry", "0101", ""),
        ("att", "b", "line_infantry", "0506", ""),
    ];
    let seed = seed_rolling_dice(&[(6, 5), (9, 9)]);
    let mut g = mp(&units, "default_terrain: \"clear\"", seed);
    ends(&mut g, 3);
    ends(&mut g, 2);
    run(&mut g, &["attack 0506 -> 0505"]);
    let log = log_text(&g);
    assert!(log.contains("Die 5 → row 5: 0/1*"), "{log}");
    assert!(
        log.contains("d fails its morale check (9 against 5)"),
        "{log}"
    );
    assert_eq!(hex(&g, "d"), "0504");
    assert_eq!(mp_state(&g, "d")["cs"], 4);
    assert!(log.contains("att is victorious"));
    assert_eq!(hex(&g, "att"), "0505");
}

#[test]
fn mp_combat_no_retreat_eliminates_and_the_victor_regains_morale() {
    // The defender in 0101 (the corner) is hemmed in by the map edge and enemies.
    let units = [
        ("d", "a", "line_infantry", "0101", "mv: 5"),
        ("att", "b", "line_infantry", "0102", "mv: 4"),
        ("b2", "b", "line_infantry", "0201", ""),
        ("b3", "b", "landwehr", "0909", ""),
    ];
    let ron = mp_ron(&units, "default_terrain: \"clear\"", "", "");
    // Blue attacks 5+5 against 5: 2-1; morale -1 (4 against 5): a die of 6 → row 5,
    // 0/2*: 3 CS left and a check; 9 fails.
    let seed = seed_rolling_dice(&[(6, 6), (9, 9)]);
    let mut g = game_of(&ron, seed, &[]);
    ends(&mut g, 3);
    ends(&mut g, 2);
    run(&mut g, &["attack 0102 -> 0101"]);
    let log = log_text(&g);
    assert!(
        log.contains("d in 0101 is eliminated: it has no hex to retreat into"),
        "{log}"
    );
    // MV 4 of 4 cannot rise: it stays 4, and it takes the objective by advancing.
    assert_eq!(hex(&g, "att"), "0101");
}

#[test]
fn mp_victory_objectives_belong_to_their_last_occupant() {
    let units = [
        ("i", "a", "light_cavalry", "0303", ""),
        ("j", "b", "line_infantry", "0909", ""),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 1);
    run(&mut g, &["move i 0202 0102 0101"]);
    assert!(log_text(&g).contains("Orange takes Corner (0101)"));
    ends(&mut g, 6);
    run(&mut g, &["move i 0102"]);
    ends(&mut g, 2 + 3);
    // Two turns: orange left the objective, and still holds it.
    let o = g.outcome().expect("over");
    assert_eq!(o.winner.map(|s| s.0), Some(0));
    assert!(
        o.reason
            .contains("VP Orange 1 – Blue 0: a minor victory for Orange"),
        "{}",
        o.reason
    );
}

#[test]
fn mp_charge_automatic_after_two_hexes_in_the_open() {
    // Heavy cavalry CS 5 charges line infantry CS 5, MV 5: the charged unit fails
    // above 5 - (5-5)/2 = 5; a d9 of 6 fails, it retreats with no CRT die.
    let units = [
        ("c", "a", "heavy_cavalry", "0502", ""),
        ("d", "b", "line_infantry", "0505", ""),
    ];
    let seed = seed_rolling_dice(&[(9, 6)]);
    let mut g = mp(&units, "default_terrain: \"clear\"", seed);
    ends(&mut g, 1);
    run(&mut g, &["move c 0503 0504", "end"]);
    run(&mut g, &["attack 0504 -> 0505"]);
    let log = log_text(&g);
    assert!(log.contains("c attacks d in 0505, charging"), "{log}");
    assert!(
        log.contains("d fails its morale check (6 against 5)"),
        "{log}"
    );
    assert!(!log.contains("for the attack on d"), "no CRT die: {log}");
    assert_eq!(hex(&g, "d"), "0506");
    assert_eq!(hex(&g, "c"), "0505");
}

#[test]
fn mp_charge_passed_check_counts_the_charger_1_5_times() {
    let units = [
        ("c", "a", "heavy_cavalry", "0502", ""),
        ("d", "b", "line_infantry", "0505", ""),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 1);
    run(&mut g, &["move c 0503 0504", "end"]);
    let cmd = parse_line("attack 0504 -> 0505").unwrap().unwrap();
    let p = g.ruleset.attack_preview(&g.world, &cmd).expect("legal");
    assert_eq!(p.odds, "7 against 5: 1-1", "5 × 1.5 = 7 (rounded down)");
    // Not a charge after a single hex.
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 1);
    run(&mut g, &["move c 0503", "end"]);
    assert!(refused(&mut g, "attack 0503 -> 0505").contains("not next to"));
}

#[test]
fn mp_combat_retreat_into_a_zone_costs_morale_and_the_rally_gives_it_back() {
    // Blue attacks d in 0505 from 0506 with z (0604) in support; d fails its check and
    // retreats north into 0504, in z's zone: -1 MV (the attacking unit's zone does not
    // count). In orange's rally it is in enemy zones, but next to its leader: +1.
    let units = [
        ("l", "a", "leader", "0503", ""),
        ("d", "a", "line_infantry", "0505", "leader: \"l\""),
        ("att", "b", "line_infantry", "0506", ""),
        ("z", "b", "line_infantry", "0604", ""),
    ];
    let seed = seed_rolling_dice(&[(6, 5), (9, 9)]);
    let mut g = mp(&units, "default_terrain: \"clear\"", seed);
    ends(&mut g, 5);
    run(&mut g, &["attack 0506 -> 0505"]);
    let log = log_text(&g);
    assert!(log.contains("d retreats 0505 → 0504"), "{log}");
    assert!(
        log.contains("d retreats into 1 enemy zone of control: morale -1, now 4"),
        "{log}"
    );
    assert_eq!(mp_state(&g, "d")["mv"], 4);
    ends(&mut g, 4);
    assert!(
        log_text(&g).contains("d rallies +1 (next to its leader): morale 5 (MP rally)"),
        "{}",
        log_text(&g)
    );
    assert_eq!(mp_state(&g, "d")["mv"], 5);
}

#[test]
fn mp_victory_recorded_quatre_bras_game_ends_in_a_french_tactical_victory() {
    let path = crate::common::root().join("scenarios/morne_plaine/quatre_bras_1815.ron");
    let script =
        std::fs::read_to_string(crate::common::root().join("scripts/quatre_bras_full_game.txt"))
            .unwrap();
    let mut g = Game::start(&path, 27, &[]).unwrap();
    g.run_script(&script).unwrap_or_else(|f| panic!("{f}"));
    let o = g.outcome().expect("the script plays to the end");
    assert_eq!(
        (o.winner, o.level),
        (
            Some(bataille::engine::units::SideId(1)),
            Some(bataille::engine::scenario::VictoryLevel::Tactical)
        ),
        "{}",
        o.reason
    );
    assert_eq!(g.turn().turn, 8);
    assert!(
        o.reason
            .contains("VP Anglo-allied army 3 – Left wing of the Armee du Nord 5"),
        "{}",
        o.reason
    );
    let log = log_text(&g);
    for part in [
        "(MP bombardment: reaction fire)",
        "(MP movement: reinforcements)",
        "(MP combat: retreat)",
        "advances",
        "is eliminated",
        "(MP combat: supports)",
    ] {
        assert!(log.contains(part), "the game shows {part}");
    }
    // Another seed rolls other dice: refused somewhere, or another game.
    let mut other = Game::start(&path, 28, &[]).unwrap();
    let differs = other.run_script(&script).is_err()
        || other.outcome() != g.outcome()
        || log_text(&other) != log;
    assert!(differs);
}

// ---- Demoralisation, forts, double slopes, sodden ground, command ----

/// Orange's `d` (MV 1) in 0505 is attacked by blue from 0506 with `z` (0604) in
/// support, fails its check and retreats north into 0504, in `z`'s zone: MV 0,
/// demoralised (found by seed 1). Orange's `f` stands back in 0303.
fn demoralised_position() -> Game {
    let units = [
        ("d", "a", "line_infantry", "0505", "mv: 1"),
        ("f", "a", "line_infantry", "0303", ""),
        ("att", "b", "line_infantry", "0506", ""),
        ("z", "b", "line_infantry", "0604", ""),
    ];
    let ron = mp_ron(&units, "default_terrain: \"clear\"", "", "").replace("turns: 2", "turns: 3");
    let mut g = game_of(&ron, 1, &[]);
    ends(&mut g, 5);
    run(&mut g, &["attack 0506 -> 0505"]);
    assert!(
        log_text(&g).contains("d retreats into 1 enemy zone of control: morale -1, now 0"),
        "{}",
        log_text(&g)
    );
    assert_eq!(hex(&g, "d"), "0504");
    assert_eq!(hex(&g, "att"), "0505", "the victor advanced");
    g
}

#[test]
fn mp_demoralisation_cannot_attack_nor_enter_an_enemy_zone() {
    let mut g = demoralised_position();
    ends(&mut g, 2);
    // Orange's movement, turn 2: no rally lifted d (no leader of its own beside it).
    assert_eq!(mp_state(&g, "d")["mv"], 0);
    let r = refused(&mut g, "move d 0404");
    assert!(
        r.contains("0404 is in an enemy zone of control: a demoralised unit may not enter one"),
        "{r}"
    );
    ends(&mut g, 1);
    let r = refused(&mut g, "attack 0504 -> 0505");
    assert!(
        r.contains(
            "d (0504) is demoralised: a unit at morale 0 cannot attack (MP combat: demoralisation)"
        ),
        "{r}"
    );
    // The same attack by a unit that is not demoralised is only refused for adjacency.
    assert!(!refused(&mut g, "attack 0303 -> 0505").contains("demoralised"));
}

#[test]
fn mp_demoralisation_no_zone_of_control_and_no_support() {
    let mut g = demoralised_position();
    ends(&mut g, 5);
    // Blue's movement, turn 2: z passes by d through 0603 and 0503 without stopping
    // (a demoralised unit exerts no zone); beside f (0303), 0403 would have stopped it.
    run(&mut g, &["move z 0603 0503 0502"]);
    assert_eq!(hex(&g, "z"), "0502");
    ends(&mut g, 3);
    // Orange, turn 3: f comes next to att (0505); d, next to att and touching no other
    // enemy, would support f's attack, but demoralised it does not.
    run(&mut g, &["move f 0304 0404"]);
    ends(&mut g, 1);
    let cmd = parse_line("attack 0404 -> 0505").unwrap().unwrap();
    let p = g.ruleset.attack_preview(&g.world, &cmd).expect("legal");
    assert!(p.attack_supports.is_empty(), "{p:?}");
    assert!(
        !p.modifiers
            .iter()
            .any(|m| m.contains("supports the attack: d"))
    );
    run(&mut g, &["attack 0404 -> 0505"]);
    assert!(g.ruleset.invariant_violations(&g.world).is_empty());
}

#[test]
fn mp_retreat_never_into_a_fort_the_enemy_held_and_its_cover() {
    // Blue's f starts in the fort of 0504 and leaves it: the fort stays blue's. Orange's
    // d in 0505, attacked from 0506 (5 against 5, die 5: 0/1*, d9 9 fails), would retreat
    // into 0504, opposite the attacker; the fort bars it, and it goes to 0404 (the
    // lowest label of the hexes left equal by the priorities).
    let map = "default_terrain: \"clear\", terrain: { \"fort\": [\"0504\"] }";
    let units = [
        ("d", "a", "line_infantry", "0505", ""),
        ("x", "a", "line_infantry", "0101", ""),
        ("att", "b", "line_infantry", "0506", ""),
        ("f", "b", "line_infantry", "0504", ""),
    ];
    let seed = seed_rolling_dice(&[(6, 5), (9, 9)]);
    let mut g = mp(&units, map, seed);
    ends(&mut g, 4);
    run(&mut g, &["move f 0503 0502"]);
    ends(&mut g, 1);
    run(&mut g, &["attack 0506 -> 0505"]);
    let log = log_text(&g);
    assert!(
        log.contains("d fails its morale check (9 against 5)"),
        "{log}"
    );
    assert!(log.contains("d retreats 0505 → 0404"), "{log}");
    // A unit in a fort: -3 to the attacker's die (MP combat: terrain effects).
    let units = [
        ("a1", "a", "line_infantry", "0506", ""),
        ("b1", "b", "line_infantry", "0505", ""),
    ];
    let map = "default_terrain: \"clear\", terrain: { \"fort\": [\"0505\"] }";
    let mut g = mp(&units, map, 1);
    ends(&mut g, 2);
    let cmd = parse_line("attack 0506 -> 0505").unwrap().unwrap();
    let p = g.ruleset.attack_preview(&g.world, &cmd).expect("legal");
    assert!(
        p.modifiers
            .iter()
            .any(|m| m == "die -3: defender in fort (MP combat: terrain effects, designer's)"),
        "{p:?}"
    );
}

#[test]
fn mp_double_slope_bars_moves_combat_and_zones() {
    // 0505 stands two levels above 0504 and 0506: no contact across those hexsides.
    let map = "default_terrain: \"clear\", elevation: { 2: [\"0505\"] }";
    let units = [
        ("a1", "a", "line_infantry", "0504", ""),
        ("a2", "a", "line_infantry", "0404", ""),
        ("b1", "b", "line_infantry", "0505", ""),
    ];
    let mut g = mp(&units, map, 1);
    ends(&mut g, 1);
    let r = refused(&mut g, "move a1 0505");
    assert!(r.contains("0504 and 0505 are not on contact"), "{r}");
    // b1 exerts no zone across the slope: a2 walks past it along 0504's row.
    run(&mut g, &["move a2 0405 0406"]);
    assert_eq!(hex(&g, "a2"), "0406");
    ends(&mut g, 1);
    let r = refused(&mut g, "attack 0504 -> 0505");
    assert!(
        r.contains("combat is not possible where movement is forbidden"),
        "{r}"
    );
}

#[test]
fn mp_sodden_ground_option_slows_cavalry_and_guns_for_three_turns() {
    let units = [
        ("c", "a", "light_cavalry", "0101", ""),
        ("g", "a", "foot_battery", "0505", ""),
        ("t", "b", "line_infantry", "0805", ""),
    ];
    let ron = mp_ron(&units, "default_terrain: \"clear\"", "", "").replace("turns: 2", "turns: 5");
    let mut wet = game_of(&ron, 1, &["sodden_ground"]);
    let mut dry = game_of(&ron, 1, &[]);
    // Bombardment, turn 1: BV 4 at 3 hexes is 2, less 1 on sodden ground.
    run(&mut wet, &["attack fire 0505 -> 0805"]);
    run(&mut dry, &["attack fire 0505 -> 0805"]);
    assert!(
        log_text(&wet).contains("fire strength 1"),
        "{}",
        log_text(&wet)
    );
    assert!(log_text(&dry).contains("fire strength 2"));
    // Movement, turn 1: light cavalry MA 7, 6 on sodden ground.
    ends(&mut wet, 1);
    ends(&mut dry, 1);
    assert_eq!(mp_state(&wet, "c")["ma_left"], 6.0);
    assert_eq!(mp_state(&dry, "c")["ma_left"], 7.0);
    // Turns 2 and 3 still sodden, turn 4 dry again.
    for (turn, ma) in [(2, 6.0), (3, 6.0), (4, 7.0)] {
        ends(&mut wet, 6);
        assert_eq!(wet.turn().turn, turn);
        assert_eq!(mp_state(&wet, "c")["ma_left"], ma, "turn {turn}");
    }
}

#[test]
fn mp_command_the_commander_takes_over_the_units_of_a_fallen_leader() {
    // i's leader l (radius 3) is four hexes away: out of command, MA halved. Blue
    // eliminates l (5 against 1, any die); from then on the side's commander c (radius
    // 4), one hex from i, commands it (MP movement: command).
    let units = [
        ("l", "a", "leader", "0505", ""),
        ("c", "a", "commander", "0808", ""),
        ("i", "a", "light_cavalry", "0909", "leader: \"l\""),
        ("att", "b", "line_infantry", "0506", ""),
    ];
    let ron = mp_ron(&units, "default_terrain: \"clear\"", "", "")
        .replace(
            "(id: \"a\", name: \"Orange\", colour: Orange)",
            "(id: \"a\", name: \"Orange\", colour: Orange, commander: \"c\")",
        )
        .replace("turns: 2", "turns: 3");
    let mut g = game_of(&ron, 1, &[]);
    ends(&mut g, 1);
    assert_eq!(mp_state(&g, "i")["ma_left"], 3.0);
    assert!(log_text(&g).contains("Out of command, movement allowance halved: i"));
    ends(&mut g, 4);
    run(&mut g, &["attack 0506 -> 0505"]);
    assert!(
        log_text(&g).contains("l in 0505 is eliminated"),
        "{}",
        log_text(&g)
    );
    ends(&mut g, 2);
    assert_eq!(g.turn().turn, 2);
    assert_eq!(mp_state(&g, "i")["ma_left"], 7.0);
    assert_eq!(
        log_text(&g)
            .matches("Out of command, movement allowance halved")
            .count(),
        1
    );
}

// ---- Saves and the seed (MP generalities) ----

/// The recorded Quatre-Bras game (seed 27) cut at the start of turn `turn`: the part
/// before, and the rest.
fn quatre_bras_script_split(turn: u32) -> (String, String) {
    let script =
        std::fs::read_to_string(crate::common::root().join("scripts/quatre_bras_full_game.txt"))
            .unwrap();
    let at = script
        .find(&format!("# Turn {turn} "))
        .expect("the script reaches that turn");
    (script[..at].to_string(), script[at..].to_string())
}

/// Quatre-Bras started with `seed` and played by `script`; whether every line was
/// accepted.
fn quatre_bras_played(seed: u64, script: &str) -> (Game, bool) {
    let path = crate::common::root().join("scenarios/morne_plaine/quatre_bras_1815.ron");
    let mut g = Game::start(&path, seed, &[]).unwrap();
    let ok = g.run_script(script).is_ok();
    (g, ok)
}

#[test]
fn mp_generalities_save_and_load_replay_quatre_bras_to_the_identical_game() {
    // Three turns of the recorded game: d6, d9 and d4 dice, reaction fire, retreats (one
    // into enemy zones, at a cost in morale) and advances, all of which a save must bring
    // back by replay alone.
    let (opening, rest) = quatre_bras_script_split(4);
    let (mut g, ok) = quatre_bras_played(27, &opening);
    assert!(ok, "{}", log_text(&g));
    let log = log_text(&g);
    for part in [
        "(d9)",
        "(d4)",
        "(MP bombardment: reaction fire)",
        "enemy zones of control: morale -",
        "advances",
    ] {
        assert!(log.contains(part), "the part saved shows {part}: {log}");
    }
    let dir = crate::common::scratch("mp-save");
    let save = crate::common::write(&dir, "quatre_bras.ron", &g.save_text());
    let mut loaded = Game::load_save(&save).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.state_json(), g.state_json());
    assert_eq!(log_text(&loaded), log);
    assert_eq!(loaded.commands(), g.commands());
    let rolled = |g: &Game| g.world.resource::<Dice>().rolled();
    assert_eq!(
        rolled(&loaded),
        rolled(&g),
        "the dice stand where they stood"
    );
    // The loaded game plays on exactly as the saved one: the rest of the script to the
    // same end (a French tactical victory).
    g.run_script(&rest).unwrap_or_else(|f| panic!("{f}"));
    loaded.run_script(&rest).unwrap_or_else(|f| panic!("{f}"));
    assert!(g.outcome().is_some());
    assert_eq!(loaded.outcome(), g.outcome());
    assert_eq!(loaded.state_json(), g.state_json());
    assert_eq!(log_text(&loaded), log_text(&g));
}

#[test]
fn mp_generalities_the_same_seed_gives_the_same_game_another_seed_other_dice() {
    let (opening, _) = quatre_bras_script_split(4);
    let (a, ok_a) = quatre_bras_played(27, &opening);
    let (b, ok_b) = quatre_bras_played(27, &opening);
    assert!(ok_a && ok_b);
    assert_eq!(a.state_json(), b.state_json());
    assert_eq!(log_text(&a), log_text(&b));
    // Another seed: other dice from the first bombardment on, whether or not the
    // recorded commands stay legal.
    let dice = |g: &Game| -> Vec<String> {
        log_text(g)
            .lines()
            .filter(|l| l.contains("Die"))
            .map(str::to_string)
            .collect()
    };
    let (c, _) = quatre_bras_played(28, &opening);
    assert_ne!(dice(&c), dice(&a));
    let units = |g: &Game| g.state_json()["ruleset_state"]["units"].clone();
    assert_ne!(units(&c), units(&a), "another seed, another position");
}

// ---- Leaders, eliminations and the rally (MP combat: morale check, MP rally) ----

#[test]
fn mp_morale_check_a_leader_never_checks_rolls_no_d9_and_stays() {
    // Orange's i (CS 5, MV 5) attacks blue's leader l (CS 1, MV 7) in 0505, which s in
    // 0405 supports (it touches i and no other enemy): 5 against 6 is 1-1.5; morale
    // (5 - 7) / 2 = -1, so a die of 3 reads row 2, 1/0*: i loses 1 and l would check.
    // "Leaders, being particularly brave, are not subject to morale tests resulting of
    // combat": no d9 is rolled, so the 9 that comes next (it fails against 7) never
    // sends l back into 0504.
    let units = [
        ("i", "a", "line_infantry", "0506", ""),
        ("l", "b", "leader", "0505", ""),
        ("s", "b", "line_infantry", "0405", ""),
    ];
    let seed = seed_rolling_dice(&[(6, 3), (9, 9)]);
    let mut g = mp(&units, "default_terrain: \"clear\"", seed);
    ends(&mut g, 2);
    let rolled = |g: &Game| g.world.resource::<Dice>().rolled();
    let before = rolled(&g);
    run(&mut g, &["attack 0506 -> 0505"]);
    let log = log_text(&g);
    assert!(log.contains("5 against 6: 1-1.5"), "{log}");
    assert!(log.contains("→ row 2: 1/0*"), "{log}");
    assert!(
        log.contains("l is a leader: leaders never check morale"),
        "{log}"
    );
    assert!(!log.contains("(d9)"), "no morale die: {log}");
    assert_eq!(rolled(&g) - before, 1, "the CRT's d6 alone");
    assert_eq!(hex(&g, "l"), "0505", "no retreat");
    assert_eq!(hex(&g, "i"), "0506", "nor an advance");
    assert_eq!(mp_state(&g, "i")["cs"], 4);
}

/// Orange's `d` (line infantry, MV 5) in 0505 is bombarded by blue's battery `g`
/// from 0507 in turn 1: strength 4 - 1 = 3, a die of 4 gives `0*`, and a d9 of 9
/// fails. It retreats north into 0504 (MP combat: retreat), losing 1 MV for each blue
/// unit of `units` next to 0504 (MP combat: retreat into ZoC). `units` holds `d` and
/// `g` with the rest of the position; the game is left in blue's movement phase.
fn shaken(units: &[Mu]) -> Game {
    let seed = seed_rolling_dice(&[(6, 4), (9, 9)]);
    let mut g = mp(units, "default_terrain: \"clear\"", seed);
    ends(&mut g, 3);
    run(&mut g, &["attack fire 0507 -> 0505", "end"]);
    let log = log_text(&g);
    assert!(
        log.contains("d fails its morale check (9 against 5)"),
        "{log}"
    );
    assert_eq!(hex(&g, "d"), "0504", "{log}");
    g
}

#[test]
fn mp_eliminating_units_the_victor_regains_a_morale_point() {
    // d retreated into z's zone: MV 4 of 5. In orange's turn 2 it attacks z (CS 1): 5
    // against 1 is 5-1, where every row costs the defender at least 1 CS: z is
    // eliminated, and "the victorious unit regains a morale point" (MP combat:
    // eliminating units).
    let units = [
        ("d", "a", "line_infantry", "0505", ""),
        ("g", "b", "foot_battery", "0507", ""),
        ("z", "b", "line_infantry", "0604", "cs: 1"),
    ];
    let mut g = shaken(&units);
    assert_eq!(mp_state(&g, "d")["mv"], 4);
    ends(&mut g, 4);
    run(&mut g, &["attack 0504 -> 0604"]);
    let log = log_text(&g);
    assert!(log.contains("5 against 1: 5-1"), "{log}");
    assert!(log.contains("z in 0604 is eliminated"), "{log}");
    assert!(
        log.contains("d regains a morale point for the elimination: 5"),
        "{log}"
    );
    assert_eq!(mp_state(&g, "d")["mv"], 5);
}

#[test]
fn mp_eliminating_units_never_regain_above_the_initial_morale() {
    // The same attack by a d still at its initial MV of 5: "though never more than its
    // initial value".
    let units = [
        ("d", "a", "line_infantry", "0504", ""),
        ("z", "b", "line_infantry", "0604", "cs: 1"),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 2);
    run(&mut g, &["attack 0504 -> 0604"]);
    let log = log_text(&g);
    assert!(log.contains("z in 0604 is eliminated"), "{log}");
    assert!(log.contains("d is victorious"), "{log}");
    assert!(!log.contains("regains a morale point"), "{log}");
    assert_eq!(mp_state(&g, "d")["mv"], 5);
}

/// The log lines of the rally of `id`.
fn rallies(g: &Game, id: &str) -> Vec<String> {
    log_text(g)
        .lines()
        .filter(|l| l.contains(&format!("{id} rallies")))
        .map(str::to_string)
        .collect()
}

#[test]
fn mp_rally_one_in_command_unmoved_and_out_of_enemy_zones() {
    let units = [
        ("d", "a", "line_infantry", "0505", ""),
        ("g", "b", "foot_battery", "0507", ""),
        ("z", "b", "line_infantry", "0604", ""),
    ];
    // d (no leader: independent, so in command) is at MV 4 of 5 in z's zone. z moves
    // away; d stays put through orange's turn 2 and rallies +1 at its end (MP rally).
    // Its retreat in blue's turn does not count as a move of its own player turn.
    let mut g = shaken(&units);
    assert_eq!(mp_state(&g, "d")["mv"], 4);
    run(&mut g, &["move z 0704 0804"]);
    ends(&mut g, 5);
    assert_eq!(
        rallies(&g, "d"),
        ["d rallies +1 (in command, unmoved and out of enemy zones): morale 5 (MP rally)"]
    );
    assert_eq!(mp_state(&g, "d")["mv"], 5);
    // z stays next to d: in an enemy zone, no rally.
    let mut g = shaken(&units);
    ends(&mut g, 5);
    assert!(rallies(&g, "d").is_empty(), "{}", log_text(&g));
    assert_eq!(mp_state(&g, "d")["mv"], 4);
    // d moves in its turn 2 (to 0503, out of every zone): no rally.
    let mut g = shaken(&units);
    run(&mut g, &["move z 0704 0804"]);
    ends(&mut g, 3);
    run(&mut g, &["move d 0503"]);
    ends(&mut g, 2);
    assert!(rallies(&g, "d").is_empty(), "{}", log_text(&g));
    assert_eq!(mp_state(&g, "d")["mv"], 4);
    // d's leader l stands far off, beyond its radius of 3: out of command, no rally.
    let mut far = units.to_vec();
    far[0].4 = "leader: \"l\"";
    far.push(("l", "a", "leader", "0110", ""));
    let mut g = shaken(&far);
    run(&mut g, &["move z 0704 0804"]);
    ends(&mut g, 5);
    assert!(rallies(&g, "d").is_empty(), "{}", log_text(&g));
    assert_eq!(mp_state(&g, "d")["mv"], 4);
}

#[test]
fn mp_rally_two_when_also_next_to_its_leader() {
    // d retreats into the zones of z and z2: MV 3 of 5. Both move away; d, in command,
    // unmoved, out of enemy zones and next to its leader l (0503), rallies +2.
    let units = [
        ("d", "a", "line_infantry", "0505", "leader: \"l\""),
        ("l", "a", "leader", "0503", ""),
        ("g", "b", "foot_battery", "0507", ""),
        ("z", "b", "line_infantry", "0604", ""),
        ("z2", "b", "line_infantry", "0403", ""),
    ];
    let mut g = shaken(&units);
    assert_eq!(mp_state(&g, "d")["mv"], 3);
    run(&mut g, &["move z 0704 0804", "move z2 0303"]);
    ends(&mut g, 5);
    assert_eq!(
        rallies(&g, "d"),
        [
            "d rallies +2 (in command, unmoved, out of enemy zones and next to its leader): morale 5 (MP rally)"
        ]
    );
    assert_eq!(mp_state(&g, "d")["mv"], 5);
}

#[test]
fn mp_rally_never_above_the_initial_morale() {
    // The same with z alone: MV 4 of 5, both conditions hold, but +2 would pass the
    // initial 5 ("never above its initial value"): +1.
    let units = [
        ("d", "a", "line_infantry", "0505", "leader: \"l\""),
        ("l", "a", "leader", "0503", ""),
        ("g", "b", "foot_battery", "0507", ""),
        ("z", "b", "line_infantry", "0604", ""),
    ];
    let mut g = shaken(&units);
    assert_eq!(mp_state(&g, "d")["mv"], 4);
    run(&mut g, &["move z 0704 0804"]);
    ends(&mut g, 5);
    assert_eq!(
        rallies(&g, "d"),
        [
            "d rallies +1 (in command, unmoved, out of enemy zones and next to its leader): morale 5 (MP rally)"
        ]
    );
    assert_eq!(mp_state(&g, "d")["mv"], 5);
}

// ---- Movement costs and terrain effects on combat ----

#[test]
fn mp_movement_costs_leader_and_artillery_columns_orchard_rough_coppice_and_a_ford() {
    // terrain.ron, (leader, infantry, cavalry, artillery): orchard 1/1/3/2, rough and
    // coppice 1/1/2/2, woods 2/2/3/3; a ford adds 1 (MP movement).
    let map = "default_terrain: \"clear\", \
        terrain: { \"orchard\": [\"0207\", \"0407\", \"0406\", \"1007\"], \"rough\": [\"0206\", \"0607\", \"1006\"], \
        \"coppice\": [\"0204\", \"0807\"], \"woods\": [\"0205\", \"0806\"] }, \
        hexsides: [(between: (\"0304\", \"0303\"), features: [river, ford])]";
    let units = [
        ("l", "a", "leader", "0208", ""),
        ("g", "a", "foot_battery", "0408", ""),
        ("g2", "a", "foot_battery", "0608", ""),
        ("h", "a", "horse_battery", "0808", ""),
        ("c", "a", "light_cavalry", "1008", ""),
        ("i", "a", "line_infantry", "0304", ""),
        ("j", "b", "line_infantry", "0901", ""),
    ];
    let mut g = mp(&units, map, 1);
    ends(&mut g, 1);
    run(
        &mut g,
        &[
            "move l 0207 0206 0205 0204",
            "move g 0407",
            "move g2 0607",
            "move h 0807 0806",
            "move c 1007 1006",
            "move i 0303",
        ],
    );
    let left = |id: &str| mp_state(&g, id)["ma_left"].as_f64().unwrap();
    // Leader MA 8: orchard 1, rough 1, woods 2, coppice 1 (cavalry would pay 10).
    assert_eq!(left("l"), 3.0);
    // Foot batteries MA 3: orchard 2, rough 2.
    assert_eq!(left("g"), 1.0);
    assert_eq!(left("g2"), 1.0);
    // Horse battery MA 5: coppice 2, woods 3.
    assert_eq!(left("h"), 0.0);
    // Light cavalry MA 7: orchard 3, rough 2.
    assert_eq!(left("c"), 2.0);
    // Infantry MA 4 over the ford: clear 1, +1.
    assert_eq!(left("i"), 2.0);
    assert!(log_text(&g).contains("i moves 0304 → 0303 (2 MP)"));
    // A foot battery with 1 MP left: a second orchard (2 MP) is beyond it.
    let r = refused(&mut g, "move g 0406");
    assert!(r.contains("MP movement"), "{r}");
}

#[test]
fn mp_terrain_effects_cavalry_counts_half_in_close_terrain() {
    // Orange's heavy cavalry c (CS 5, clear) attacks blue's infantry d in the woods of
    // 0505; for the attacking side the fight's ground is the defender's hex, close: c
    // counts 2, and its supporter c2 (light cavalry CS 3, in the clear of 0604) 1. For
    // the defending side it is each unit's own hex: d (infantry) counts 5, its supporter
    // dc (light cavalry CS 3) in the orchard of 0406 1 (MP combat: terrain effects,
    // "corrected ... to the type of terrain"). Unhalved it would be 8 against 8.
    let map =
        "default_terrain: \"clear\", terrain: { \"woods\": [\"0505\"], \"orchard\": [\"0406\"] }";
    let units = [
        ("c", "a", "heavy_cavalry", "0506", ""),
        ("c2", "a", "light_cavalry", "0604", ""),
        ("d", "b", "line_infantry", "0505", ""),
        ("dc", "b", "light_cavalry", "0406", ""),
    ];
    let mut g = mp(&units, map, 1);
    ends(&mut g, 2);
    let cmd = parse_line("attack 0506 -> 0505").unwrap().unwrap();
    let p = g.ruleset.attack_preview(&g.world, &cmd).expect("legal");
    assert_eq!(p.odds, "3 against 6: 1-2", "{p:?}");
    assert_eq!(p.attack_supports, [h("0604")], "{p:?}");
    assert_eq!(p.defence_supports, [h("0406")], "{p:?}");
    // Morale 7 against 5: +1; infantry in woods: -2.
    assert_eq!(p.die_modifier, -1, "{p:?}");
    run(&mut g, &["attack 0506 -> 0505"]);
    let log = log_text(&g);
    assert!(
        log.contains(
            "(attack: c 2 (halved, cavalry in woods), c2 1 (halved, cavalry in woods); \
             defence: d 5, dc 1 (halved, cavalry in orchard))"
        ),
        "{log}"
    );
}

#[test]
fn mp_terrain_effects_attacking_across_water_is_minus_one_on_the_die() {
    // Three equal fights (line infantry 5 against 5, MV 5 against 5), across a stream,
    // a river at a ford and a river at a bridge: -1 to the die each (MP combat: terrain
    // effects, designer's); a fourth across a plain hexside has no modifier.
    let map = "default_terrain: \"clear\", hexsides: [\
        (between: (\"0203\", \"0202\"), features: [stream]), \
        (between: (\"0503\", \"0502\"), features: [river, ford]), \
        (between: (\"0803\", \"0802\"), features: [river, bridge])]";
    let units = [
        ("a1", "a", "line_infantry", "0203", ""),
        ("a2", "a", "line_infantry", "0503", ""),
        ("a3", "a", "line_infantry", "0803", ""),
        ("a4", "a", "line_infantry", "0508", ""),
        ("b1", "b", "line_infantry", "0202", ""),
        ("b2", "b", "line_infantry", "0502", ""),
        ("b3", "b", "line_infantry", "0802", ""),
        ("b4", "b", "line_infantry", "0507", ""),
    ];
    let mut g = mp(&units, map, 1);
    ends(&mut g, 2);
    for (attack, water) in [
        ("attack 0203 -> 0202", "stream"),
        ("attack 0503 -> 0502", "ford"),
        ("attack 0803 -> 0802", "bridge"),
    ] {
        let cmd = parse_line(attack).unwrap().unwrap();
        let p = g.ruleset.attack_preview(&g.world, &cmd).expect("legal");
        assert_eq!(p.odds, "5 against 5: 1-1", "{p:?}");
        assert_eq!(p.die_modifier, -1, "{attack}: {p:?}");
        assert_eq!(
            p.modifiers,
            [format!(
                "die -1: attacking across a {water} (MP combat: terrain effects, designer's)"
            )],
            "{attack}"
        );
    }
    let cmd = parse_line("attack 0508 -> 0507").unwrap().unwrap();
    let p = g.ruleset.attack_preview(&g.world, &cmd).expect("legal");
    assert_eq!(p.die_modifier, 0, "{p:?}");
    assert!(p.modifiers.is_empty(), "{p:?}");
    // Resolved, the die is logged with its modifier.
    run(&mut g, &["attack 0203 -> 0202"]);
    let log = log_text(&g);
    assert!(
        log.contains("-1 attacking across a stream (MP combat: terrain effects, designer's) → row"),
        "{log}"
    );
}

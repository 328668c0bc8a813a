//! The threat map (issue 18): each ruleset's `threats` checked against positions built
//! by hand (what a unit cannot reach adds nothing; the odds it would have) and against
//! the ruleset's own move options once the enemy's phase has come.

use std::collections::BTreeSet;

use bataille::engine::board::Board;
use bataille::engine::game::Game;
use bataille::engine::hex::HexCoord;
use bataille::engine::units::{UnitId, Units};

use crate::common::{position, run};

fn hex(label: &str) -> HexCoord {
    HexCoord::parse(label).unwrap()
}

fn unit_id(g: &Game, key: &str) -> UnitId {
    let units = g.world.resource::<Units>();
    units
        .ids()
        .find(|id| {
            g.world
                .get::<bataille::engine::units::UnitName>(units.entity(*id))
                .is_some_and(|n| n.key == key)
        })
        .unwrap_or_else(|| panic!("no unit {key}"))
}

/// The hexes `key` threatens, as the map of the side to act gives them.
fn threatened_by(g: &Game, key: &str) -> BTreeSet<HexCoord> {
    let id = unit_id(g, key);
    let map = g.threat_map();
    map.hexes
        .iter()
        .filter(|(_, ts)| ts.iter().any(|t| t.unit == id))
        .map(|(h, _)| *h)
        .collect()
}

/// What `key` would attack `at` with, in the map's words.
fn best(g: &Game, key: &str, at: &str) -> String {
    let id = unit_id(g, key);
    g.threat_map()
        .at(hex(at))
        .iter()
        .find(|t| t.unit == id)
        .map(|t| t.best.clone())
        .unwrap_or_else(|| panic!("{key} does not threaten {at}"))
}

/// The hexsides of a river without a bridge between columns 5 and 6 of a 10-row map,
/// as a scenario's `hexsides` list.
fn river_between_columns_5_and_6() -> String {
    let sides: Vec<String> = (1..=10)
        .flat_map(|r| {
            let h = HexCoord { col: 5, row: r };
            h.neighbors()
                .into_iter()
                .filter(|n| n.col == 6)
                .map(move |n| format!("(between: (\"{h}\", \"{n}\"), features: [river])"))
                .collect::<Vec<_>>()
        })
        .collect();
    sides.join(", ")
}

const ALC_CLEAR: &str = "terrain: {}";

#[test]
fn alc_threat_map_is_the_hexes_next_to_a_units_full_move_and_nothing_beyond() {
    // Side a acts; side b's foot (4 MP, AlC 9) stands far from a's zone of control. Its
    // own hex is no target: no unit of a's may stand there.
    let g = position(
        &[
            ("i", "a", "infanterie_normande", "0101"),
            ("j", "b", "infanterie_italienne", "0808"),
        ],
        ALC_CLEAR,
        "",
        1,
    );
    let board = g.world.resource::<Board>();
    let expected: BTreeSet<HexCoord> = board
        .hexes()
        .filter(|h| (1..=5).contains(&h.distance(hex("0808"))))
        .collect();
    assert_eq!(threatened_by(&g, "j"), expected);
    // Side a's own units threaten nothing on its map.
    assert!(
        g.threat_map()
            .hexes
            .values()
            .flatten()
            .all(|t| t.unit == unit_id(&g, "j"))
    );
}

#[test]
fn alc_threat_map_stops_at_a_river_and_gives_the_odds_alone() {
    // A river (AlC 9: impassable but at a bridge) from 0501 to 0510 between columns 5
    // and 6 keeps b's foot on its bank: nothing on a's bank but the hexes it touches
    // across the river, where it may not fight (AlC 12.1) either.
    let map = format!(
        "terrain: {{}}, hexsides: [{}]",
        river_between_columns_5_and_6()
    );
    let g = position(
        &[
            ("i", "a", "infanterie_normande", "0305"),
            ("k", "b", "chevaliers_italiens", "0805"),
            ("j", "b", "infanterie_italienne", "0905"),
        ],
        &map,
        "",
        1,
    );
    assert!(threatened_by(&g, "k").iter().all(|h| h.col >= 6));
    assert!(g.threat_map().count(hex("0305")) == 0);

    // Without the river, the knights reach a's foot through open ground: 3 + 2 for the
    // charge (AlC 10) against 3; the Italian foot, 2 against 3.
    let g = position(
        &[
            ("i", "a", "infanterie_normande", "0305"),
            ("k", "b", "chevaliers_italiens", "0805"),
            ("j", "b", "infanterie_italienne", "0705"),
        ],
        ALC_CLEAR,
        "",
        1,
    );
    assert_eq!(g.threat_map().count(hex("0305")), 2);
    let k = best(&g, "k", "0305");
    assert!(
        k.starts_with("5 against 3") && k.ends_with("(charging)"),
        "{k}"
    );
    let j = best(&g, "j", "0305");
    assert!(
        j.starts_with("2 against 3") && !j.contains("charging"),
        "{j}"
    );
}

/// Every hex next to where a unit may stand in its movement phase (or where it stands).
fn next_to_moves(g: &Game, key: &str) -> BTreeSet<HexCoord> {
    let id = unit_id(g, key);
    let units = g.world.resource::<Units>();
    let board = g.world.resource::<Board>();
    let start = units.placement(id).hex().unwrap();
    let mut from = vec![start];
    from.extend(
        g.ruleset
            .move_options(&g.world, units.entity(id))
            .unwrap_or_default()
            .into_iter()
            .map(|o| o.hex),
    );
    from.iter()
        .flat_map(|h| h.neighbors().into_iter().chain([*h]))
        .filter(|h| board.contains(*h) && !from.is_empty())
        .filter(|h| {
            from.iter()
                .any(|f| f.is_adjacent(*h) && !board.hexside(*f, *h).is_unbridged_river())
        })
        .collect()
}

#[test]
fn alc_threat_map_agrees_with_the_enemys_move_options_once_its_phase_comes() {
    // Civitate after the Normans' first moves: the Papal foot's and knights' threats
    // on the Norman side, against where the move rules let them go in their phase.
    let mut g = crate::common::civitate(34);
    let script =
        std::fs::read_to_string(crate::common::root().join("scripts/civitate_full_game.txt"))
            .unwrap();
    let lines: Vec<&str> = script
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(11)
        .collect();
    run(&mut g, &lines);
    let units = g.world.resource::<Units>();
    let papal: Vec<String> = units
        .ids()
        .filter(|id| units.side(*id).0 == 1 && units.placement(*id).hex().is_some())
        .filter(|id| {
            g.world
                .get::<bataille::engine::units::Leader>(units.entity(*id))
                .is_none()
        })
        .map(|id| {
            g.world
                .get::<bataille::engine::units::UnitName>(units.entity(id))
                .unwrap()
                .key
                .clone()
        })
        .collect();
    let before: Vec<(String, BTreeSet<HexCoord>)> = papal
        .iter()
        .map(|k| (k.clone(), threatened_by(&g, k)))
        .collect();
    // The Normans end their movement and fight nothing; the Papal army's phase begins.
    run(&mut g, &["end", "end"]);
    let mut checked = 0;
    for (key, threats) in before {
        let reach = next_to_moves(&g, &key);
        // Hexes of the Papal army's own units are no target (AlC 12.1).
        let units = g.world.resource::<Units>();
        let board = g.world.resource::<Board>();
        let own: BTreeSet<HexCoord> = reach
            .iter()
            .copied()
            .filter(|h| {
                units.at(board, *h).iter().any(|u| {
                    units.side(*u).0 == 1
                        && g.world
                            .get::<bataille::engine::units::Leader>(units.entity(*u))
                            .is_none()
                })
            })
            .collect();
        let expected: BTreeSet<HexCoord> = reach.difference(&own).copied().collect();
        assert_eq!(threats, expected, "{key}");
        checked += 1;
    }
    assert!(checked > 10, "{checked} units checked");
}

// ---- Charge & mêlée ----

/// The threats to Red in the Charge Phase of the skirmish: the Blue foot, one javelin
/// throw from the Red warband, may charge it and always reaches it (its move die's
/// every face brings contact, C&M 7.6); it adds nothing on the second warband far off.
/// Blue's own buttons, once Blue declares, give the same charge with the same chance.
#[test]
fn cm_threat_map_marks_the_stands_an_enemy_may_charge_with_its_chance_of_contact() {
    use crate::cm_common::{entity, line, stands_of, start, to_charges};
    let mut game = start(&crate::cm_common::fixture("skirmish.ron"), 1);
    to_charges(&mut game);
    let map = game.threat_map();
    let foot = unit_id(&game, "blue_foot");
    for s in stands_of(&game, "red_foot") {
        let t = map.at(s).iter().find(|t| t.unit == foot);
        assert_eq!(
            t.map(|t| t.best.as_str()),
            Some("charge: contact 100% (C&M 7.6)"),
            "{s}"
        );
    }
    for s in stands_of(&game, "red_foot_2") {
        assert!(map.at(s).iter().all(|t| t.unit != foot), "{s}");
    }
    // Only the stands of Red's units are marked: a charge is on a unit (C&M 7.2).
    let red: Vec<HexCoord> = ["red_foot", "red_foot_2"]
        .iter()
        .flat_map(|k| stands_of(&game, k))
        .collect();
    assert!(map.hexes.keys().all(|h| red.contains(h)), "{:?}", map.hexes);

    line(&mut game, "end");
    let buttons: Vec<String> = game
        .ruleset
        .unit_actions(&game.world, entity(&game, "blue_foot"))
        .into_iter()
        .map(|c| c.label)
        .collect();
    assert_eq!(
        buttons,
        vec!["Charge Red warband: contact 100% (C&M 7.6)".to_string()]
    );
}

// ---- Champs de Bataille ----

/// Side B's horde (2 MP, CdB 9) faces West across an empty map: its threats are the
/// frontal hexes (CdB 11.1) of the places its next march reaches, all within 3 hexes;
/// nothing beyond, nothing behind its start; and against side A's horde standing in
/// its front, the melee's scores before the dice, worked by hand: tactical values 2
/// against 2 (CdB 11.2).
#[test]
fn cdb_threat_map_is_the_frontal_hexes_of_a_units_next_march() {
    use crate::cdb_common::{cdb, h};
    let g = cdb(
        &[
            ("ga", "a", "Reg Hd(O)", "0308", "E"),
            ("gb", "b", "Reg Hd(O)", "1208", "W"),
        ],
        1,
    );
    let threats = threatened_by(&g, "gb");
    assert!(!threats.is_empty());
    assert!(
        threats.iter().all(|t| t.distance(h("1208")) <= 3),
        "{threats:?}"
    );
    // Its frontal hexes where it stands (CdB 11.1), facing West.
    let front = bataille::engine::hex::VertexFacing::parse("W")
        .unwrap()
        .front(h("1208"));
    assert!(front.iter().all(|f| threats.contains(f)), "{threats:?}");
    // Beyond its march, nothing: side A's horde 9 hexes off is not threatened.
    assert_eq!(g.threat_map().count(h("0308")), 0);

    let g = cdb(
        &[
            ("ga", "a", "Reg Hd(O)", "0908", "E"),
            ("gb", "b", "Reg Hd(O)", "1208", "W"),
        ],
        1,
    );
    assert_eq!(
        best(&g, "gb", "0908"),
        "melee 2 against 2 (CdB 11)",
        "{:?}",
        g.threat_map().hexes
    );
}

/// A hidden unit (Kalavryai's ambush, special rule) is in no threat map: the map shows
/// what the side looking at it may know.
#[test]
fn threat_map_leaves_hidden_units_out() {
    use bataille::engine::threat::ThreatMap;
    use bataille::engine::units::{Hidden, SideId};
    // Turn 2, when the ambush may act (Kalavryai special rule), still hidden.
    let mut g = crate::common::kalavryai(1);
    run(&mut g, &["place turcs_ambush 1012"]);
    while g.turn().turn < 2 {
        run(&mut g, &["end"]);
    }
    let units = g.world.resource::<Units>();
    let hidden: Vec<UnitId> = units
        .ids()
        .filter(|id| g.world.get::<Hidden>(units.entity(*id)).is_some())
        .collect();
    assert!(!hidden.is_empty(), "Kalavryai begins with an ambush");
    for side in [SideId(0), SideId(1)] {
        let map = ThreatMap::of(&g.world, &*g.ruleset, side);
        assert!(
            map.hexes
                .values()
                .flatten()
                .all(|t| !hidden.contains(&t.unit)),
            "{side:?}"
        );
        // Hidden units do threaten, were they seen: the ruleset answers for them.
        for id in &hidden {
            if units.side(*id) != side {
                assert!(!g.ruleset.threats(&g.world, *id).is_empty());
            }
        }
    }
}

// ---- Morne Plaine ----

const MP_CLEAR: &str = "default_terrain: \"clear\"";

#[test]
fn mp_threat_map_is_the_hexes_on_contact_with_a_units_full_move_and_nothing_beyond() {
    // Orange (a) acts; blue's line infantry (MA 4, in command: it has no leader) stands
    // far from orange's zones: every hex within 4 moves and one attack of 0707.
    let g = crate::mp_game::mp(
        &[
            ("i", "a", "line_infantry", "0202", ""),
            ("j", "b", "line_infantry", "0707", ""),
        ],
        MP_CLEAR,
        1,
    );
    let board = g.world.resource::<Board>();
    let expected: BTreeSet<HexCoord> = board
        .hexes()
        .filter(|h| (1..=5).contains(&h.distance(hex("0707"))))
        .collect();
    assert_eq!(threatened_by(&g, "j"), expected);
    assert_eq!(g.threat_map().count(hex("0202")), 0);

    // A river without a bridge between columns 5 and 6 keeps it on its bank, and no
    // combat crosses it (MP combat): nothing west of the river.
    let map = format!(
        "{MP_CLEAR}, hexsides: [{}]",
        river_between_columns_5_and_6()
    );
    let g = crate::mp_game::mp(
        &[
            ("i", "a", "line_infantry", "0202", ""),
            ("j", "b", "line_infantry", "0705", ""),
        ],
        &map,
        1,
    );
    let board = g.world.resource::<Board>();
    let expected: BTreeSet<HexCoord> = board
        .hexes()
        .filter(|h| h.col >= 6 && (1..=5).contains(&h.distance(hex("0705"))))
        .collect();
    assert_eq!(threatened_by(&g, "j"), expected);
}

#[test]
fn mp_threat_map_gives_the_odds_alone_the_charge_and_the_bombardment() {
    // Orange's line infantry i (CS 5, MV 5) in 0505 on clear ground.
    let g = crate::mp_game::mp(
        &[
            ("i", "a", "line_infantry", "0505", ""),
            ("c", "b", "heavy_cavalry", "0502", ""),
            ("j", "b", "line_infantry", "0808", ""),
            ("g", "b", "foot_battery", "0508", ""),
        ],
        MP_CLEAR,
        1,
    );
    // Heavy cavalry (CS 5, MV 7) comes through two open hexes or more: it charges,
    // 5 × 1.5 = 7 against 5, 1.4 rounded for the defender to 1-1; the morale
    // difference (7 - 5) / 2 gives +1 to the die (MP movement: charge; MP combat).
    assert_eq!(best(&g, "c", "0505"), "7 against 5: 1-1, die +1, charging");
    // On an empty hex, its own strength, charging.
    assert_eq!(best(&g, "c", "0302"), "attack 7, charging");
    // The line infantry alone: 5 against 5, the same morale.
    assert_eq!(best(&g, "j", "0505"), "5 against 5: 1-1");
    // The battery (BV 4, range 3) three hexes off: 4 - 2 = 2 (MP bombardment); it may
    // also move next to i and attack, CS 1 against 5.
    assert_eq!(best(&g, "g", "0505"), "fire strength 2; 1 against 5: 1-5");
    assert_eq!(g.threat_map().count(hex("0505")), 3);
}

#[test]
fn mp_threat_map_agrees_with_the_enemys_move_options_once_its_phase_comes() {
    // Waterloo as it begins: the French (blue) act; the allies' threats, against where
    // the move rules let them go in their movement phase after the French pass.
    use bataille::rulesets::morne_plaine::movement::contact;
    let path = crate::common::root().join("scenarios/morne_plaine/waterloo_1815.ron");
    let mut g = Game::start(&path, 1, &["sodden_ground".to_string()]).unwrap();
    let acting = g.turn().active;
    let map = g.threat_map();
    let units = g.world.resource::<Units>();
    // Artillery's bombardment reaches beyond contact: its range is checked above.
    let allies: Vec<(UnitId, String)> = units
        .ids()
        .filter(|id| units.side(*id) != acting && units.placement(*id).hex().is_some())
        .filter(|id| {
            let card = g.ruleset.unit_card(&g.world, units.entity(*id));
            !card.iter().any(|l| l.0.starts_with("Bombardment"))
        })
        .map(|id| {
            let key = g
                .world
                .get::<bataille::engine::units::UnitName>(units.entity(id))
                .unwrap()
                .key
                .clone();
            (id, key)
        })
        .collect();
    let before: Vec<(String, BTreeSet<HexCoord>)> = allies
        .iter()
        .map(|(id, k)| {
            let hexes = map
                .hexes
                .iter()
                .filter(|(_, ts)| ts.iter().any(|t| t.unit == *id))
                .map(|(h, _)| *h)
                .collect();
            (k.clone(), hexes)
        })
        .collect();
    // The French bombard, move and fight nothing; the allies' movement phase begins.
    run(&mut g, &["end", "end", "end", "end"]);
    assert_ne!(g.turn().active, acting);
    let units = g.world.resource::<Units>();
    let board = g.world.resource::<Board>();
    let mut checked = 0;
    for (key, threats) in before {
        let id = unit_id(&g, &key);
        let start = units.placement(id).hex().unwrap();
        let mut from = vec![start];
        from.extend(
            g.ruleset
                .move_options(&g.world, units.entity(id))
                .unwrap()
                .into_iter()
                .map(|o| o.hex),
        );
        let expected: BTreeSet<HexCoord> = board
            .hexes()
            .filter(|h| from.iter().any(|f| contact(board, *f, *h)))
            .filter(|h| units.at(board, *h).iter().all(|u| units.side(*u) == acting))
            .collect();
        assert_eq!(threats, expected, "{key}");
        checked += 1;
    }
    assert!(checked > 20, "{checked} units checked");
}

// ---- Charles the Bold ----

/// The six hexes around `at` on the map, and the two in front of it facing `facing`.
fn around(g: &Game, at: HexCoord) -> BTreeSet<HexCoord> {
    let board = g.world.resource::<Board>();
    at.neighbors()
        .into_iter()
        .filter(|h| board.contains(*h))
        .collect()
}

fn front(g: &Game, at: HexCoord, facing: &str) -> BTreeSet<HexCoord> {
    let board = g.world.resource::<Board>();
    bataille::engine::hex::VertexFacing::parse(facing)
        .unwrap()
        .front(at)
        .into_iter()
        .filter(|h| board.contains(*h))
        .collect()
}

#[test]
fn ctb_threat_map_is_a_stands_turns_in_place_and_the_front_of_its_first_move() {
    // Blue's group moves; Brown's dismounted men at arms (1 MP, CtB 16.0) in 1209
    // facing W will move next. It may turn in place to face any hex around it (CtB
    // 3.1, 3.2); its one move takes it a hex (the first step whatever it costs), facing
    // W, and it contacts through its front: nothing farther.
    use crate::ctb_generals::{BROWN, GENERAL, blue, game_of};
    let blues = format!(
        "{GENERAL}{}",
        blue("t", "Blue men", "dismounted_maa", "0303", "E")
    );
    let g = game_of(["french", "french"], false, "", &blues, BROWN, &[]);
    let start = hex("1209");
    let mut expected = around(&g, start);
    for n in around(&g, start) {
        expected.extend(front(&g, n, "W"));
    }
    expected.remove(&start);
    assert_eq!(threatened_by(&g, "far"), expected);
    assert!(
        threatened_by(&g, "far")
            .iter()
            .all(|h| h.distance(start) <= 2)
    );
    // Blue's stands threaten nothing on Blue's own map.
    assert!(threatened_by(&g, "t").is_empty());
}

#[test]
fn ctb_threat_map_gives_the_melee_and_fire_dice_alone() {
    // Blue's dismounted men at arms t (HI, 6 SP) in 0505 facing NNE. Brown's crossbow
    // shot bx (4 SP, 2H +0) two hexes north facing SSE; Brown's medium horse m (MC,
    // 5 SP, impact 2, 3 MP) in 0805 facing W.
    use crate::ctb_generals::{BROWN, GENERAL, blue, brown, game_of};
    let blues = format!(
        "{GENERAL}{}",
        blue("t", "Blue men", "dismounted_maa", "0505", "NNE")
    );
    let browns = format!(
        "{BROWN}{}{}",
        brown("bx", "Brown crossbows", "crossbow_sh", "0503", "SSE"),
        brown("m", "Brown horse", "medium_horse", "0805", "W"),
    );
    let g = game_of(["french", "french"], false, "", &blues, &browns, &[]);
    // Fire before moving: 4 SP and the 2H column's +0 (CtB 6.0, 16.0); it has no
    // impact and makes no contact (CtB 10.0).
    assert_eq!(best(&g, "bx", "0505"), "fire 4D6 at 2H");
    // The horse comes through 0705 to 0605, t in its front and on t's flank: 5 SP, its
    // impact 2 (CtB 10.3) and +1 against the flank (CtB 10.5) = 8, against t's 6 SP;
    // from 0604, on t's front, only 7.
    assert_eq!(best(&g, "m", "0505"), "melee 8D6 against 6D6");
    // An empty hex: its own dice, charging.
    assert_eq!(best(&g, "m", "0507"), "melee 7D6");
    assert_eq!(g.threat_map().count(hex("0505")), 2);
}

#[test]
fn ctb_threat_map_agrees_with_the_enemys_move_options_once_its_activation_comes() {
    // Burgundian horse and foot against a Blue line: the gendarmes are impetuous and
    // compelled by the Blue stand in their arc (CtB 9.2). Brown's threats in Blue's
    // activation, against where Brown's stands may go once Brown's group activates.
    use crate::ctb_generals::{GENERAL, blue, brown, game_of};
    const BROWN_GENERAL: &str = r#"(id: "brg", name: "Brown general", side: "brown", type: "general", hex: "1201", group: "brown"),"#;
    let blues = format!(
        "{GENERAL}{}{}",
        blue("t", "Blue men", "dismounted_maa", "0505", "E"),
        blue("u", "Blue bills", "double_bills", "0507", "E"),
    );
    let browns = format!(
        "{BROWN_GENERAL}{}{}{}{}",
        brown("gd", "Gendarmes", "gendarmes", "0805", "W"),
        brown("ml", "Lances", "italian_lances", "1003", "W"),
        brown("pk", "Pikemen", "pikemen", "0908", "W"),
        brown("ma", "Mounted archers", "mounted_archers", "1107", "W"),
    );
    let mut g = game_of(["french", "burgundian"], false, "", &blues, &browns, &[]);
    let keys = ["gd", "ml", "pk", "ma"];
    let before: Vec<BTreeSet<HexCoord>> = keys.iter().map(|k| threatened_by(&g, k)).collect();
    run(&mut g, &["end", "declare brown", "end"]);
    assert_eq!(g.turn().active.0, 1, "Brown's activation");
    let compelled = g
        .world
        .get::<bataille::rulesets::charles_the_bold::CtbTurn>(
            g.world.resource::<Units>().entity(unit_id(&g, "gd")),
        )
        .unwrap()
        .compelled;
    assert!(compelled.is_some(), "the gendarmes are compelled");
    let units = g.world.resource::<Units>();
    // Hexes of Brown's own stands are no target.
    let own: Vec<HexCoord> = keys
        .iter()
        .map(|k| units.placement(unit_id(&g, k)).hex().unwrap())
        .collect();
    for (key, threats) in keys.iter().zip(before) {
        let id = unit_id(&g, key);
        let facing = crate::common::facing(&g, key);
        let start = units.placement(id).hex().unwrap();
        let mut expected = around(&g, start);
        for o in g.ruleset.move_options(&g.world, units.entity(id)).unwrap() {
            expected.extend(front(&g, o.hex, &facing));
        }
        expected.retain(|h| !own.contains(h));
        assert_eq!(threats, expected, "{key}");
    }
}

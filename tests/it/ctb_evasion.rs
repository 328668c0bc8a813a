//! Evasion (CtB 4.0) played: skirmishers and light cavalry fired on from their front
//! evade before the dice and the fire is spent; opportunity fire is not evaded; the
//! evader chooses where it ends, to the rear, facing kept, paying the terrain's MP; an
//! evasion sends enemy generals on its way to their stands; and 4.0's two exceptions,
//! an attacker that began beside the flank and only turned, and skirmishers caught on
//! the flank of a charge at a formed stand.

use bataille::engine::game::Game;
use bataille::engine::view::Decision;

use crate::common::{decision, hex, log_text, refused, run, seed_rolling, unit_state};

fn labels(d: &Decision) -> Vec<&str> {
    d.choices.iter().map(|c| c.label.as_str()).collect()
}

/// A stand's facing, as the game's state shows it.
fn facing(g: &Game, id: &str) -> String {
    unit_state(g, id)["facing"].to_string()
}

/// Blue (French list, group `marshal`) against Brown (French list, group `comyn`) on
/// `map`: Brown wins the first initiative 6+6 to 1+1, puts each stand of `watching` on
/// opportunity (an Order Test of 6 each) and ends; Blue, alone to move, then
/// activates. The dice are then those of `seed`.
fn blue_acts(map: &str, blue: &str, brown: &str, watching: &[&str], seed: u64) -> Game {
    let ron = format!(
        r#"(
    name: "Evasion", date: "1480", ruleset: "charles_the_bold", turns: 2,
    map: {map},
    sides: [
        (id: "blue", name: "Blue", army: "french", break_fraction: (1, 1),
         groups: [(id: "marshal", name: "Marshal", general: "bg")]),
        (id: "brown", name: "Brown", army: "french", break_fraction: (1, 1),
         groups: [(id: "comyn", name: "Comyn", general: "brg")]),
    ],
    first: "brown",
    units: [
        {blue}
        (id: "brg", name: "Brown general", side: "brown", type: "general", hex: "0901", group: "comyn"),
        {brown}
    ],
    at_time_limit: (winner: "brown", level: Minor),
)"#
    );
    let mut dice = vec![6, 6, 1, 1];
    dice.extend(watching.iter().map(|_| 6));
    let mut g = crate::common::game_of(&ron, seed_rolling(&dice), &[]);
    run(&mut g, &["declare comyn", "declare marshal", "end"]);
    for w in watching {
        run(&mut g, &[&format!("opportunity {w}")]);
    }
    run(&mut g, &["end", "declare marshal", "end"]);
    assert!(
        log_text(&g).contains("Blue move Marshal"),
        "{}",
        log_text(&g)
    );
    *g.world.resource_mut::<bataille::engine::dice::Dice>() =
        bataille::engine::dice::Dice::new(seed);
    g
}

const MAP: &str = "(columns: 10, rows: 8)";
const BLUE_GENERAL: &str = r#"(id: "bg", name: "Blue general", side: "blue", type: "general", hex: "0108", group: "marshal"),"#;

fn blue(rest: &str) -> String {
    format!("{BLUE_GENERAL}\n{rest}")
}

// ---- evasion when fired on ----

const CROSSBOWS: &str = r#"(id: "s", name: "Blue crossbowmen", side: "blue", type: "crossbow_sh", hex: "0305", group: "marshal", facing: "E"),"#;

#[test]
fn ctb_4_0_light_cavalry_fired_on_from_its_front_evades_before_the_dice_and_the_fire_is_spent() {
    let lc = r#"(id: "lc", name: "Brown light horse", side: "brown", type: "light_horse", hex: "0505", group: "comyn", facing: "W"),"#;
    let mut g = blue_acts(MAP, &blue(CROSSBOWS), lc, &[], 1);
    let before = facing(&g, "lc");
    run(&mut g, &["fire s -> lc"]);
    // Asked before the dice, of Brown, the side fired on (CtB 4.0: "Sk and LC can evade
    // if they are … fired on").
    let d = decision(&g).expect("the evasion is offered");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 4.0", 1), "{d:?}");
    let l = labels(&d);
    assert!(
        l[0].starts_with("evade to ") && l.last() == Some(&"stand"),
        "{l:?}"
    );
    let log = log_text(&g);
    assert!(
        !log.contains("Blue crossbowmen fire:"),
        "no dice yet: {log}"
    );
    // Blue may do nothing meanwhile.
    assert!(refused(&mut g, "fire s -> lc").contains("CtB 4.0"));
    let default_end = d.choices[0].hex.expect("the end is lit").to_string();
    run(&mut g, &["evade lc"]);
    assert_eq!(hex(&g, "lc"), Some(default_end), "the default route");
    assert_eq!(facing(&g, "lc"), before, "facing kept");
    let log = log_text(&g);
    assert!(
        log.contains("Brown light horse evades the fire of Blue crossbowmen: 0505 →"),
        "{log}"
    );
    assert!(
        log.contains("Blue crossbowmen's fire falls on the hex left empty: spent, no dice"),
        "{log}"
    );
    assert!(!log.contains("Blue crossbowmen fire:"), "no dice: {log}");
    assert!(!log.contains("Morale Test"), "{log}");
    // The fire is spent: the crossbowmen have fired this activation (CtB 3.0).
    assert!(decision(&g).is_none(), "{:?}", decision(&g));
    let r = refused(&mut g, "fire s -> lc");
    assert!(r.contains("CtB 3.0") && r.contains("has fired"), "{r}");
}

#[test]
fn ctb_4_0_skirmishers_fired_on_that_stand_take_the_fire() {
    let sk = r#"(id: "sk", name: "Brown skirmishers", side: "brown", type: "crossbow_sk", hex: "0505", group: "comyn", facing: "W"),"#;
    let mut g = blue_acts(MAP, &blue(CROSSBOWS), sk, &[], 1);
    run(&mut g, &["fire s -> sk"]);
    let d = decision(&g).expect("the evasion is offered");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 4.0", 1), "{d:?}");
    run(&mut g, &["hold sk"]);
    assert_eq!(hex(&g, "sk").as_deref(), Some("0505"));
    let log = log_text(&g);
    assert!(
        log.contains("Brown skirmishers stands under the fire of Blue crossbowmen"),
        "{log}"
    );
    assert!(log.contains("Blue crossbowmen fire: 4D6"), "{log}");
    assert!(decision(&g).is_none(), "{:?}", decision(&g));
}

#[test]
fn ctb_4_0_no_evasion_of_fire_from_behind_the_front_nor_by_formed_stands() {
    // The light horse faces away from the crossbowmen: the fire does not come
    // "through the target stands front 2H". The medium horse, fired on from its front,
    // evades only a charge by foot (CtB 4.0).
    let second = r#"(id: "s2", name: "Blue second crossbowmen", side: "blue", type: "crossbow_sh", hex: "0302", group: "marshal", facing: "E"),"#;
    let brown = r#"(id: "lc", name: "Brown light horse", side: "brown", type: "light_horse", hex: "0505", group: "comyn", facing: "E"),
        (id: "mc", name: "Brown horse", side: "brown", type: "medium_horse", hex: "0502", group: "comyn", facing: "W"),"#;
    let mut g = blue_acts(MAP, &blue(&format!("{CROSSBOWS}\n{second}")), brown, &[], 1);
    run(&mut g, &["fire s -> lc"]);
    assert!(decision(&g).is_none(), "{:?}", decision(&g));
    assert!(log_text(&g).contains("Blue crossbowmen fire: 4D6"));
    assert!(refused(&mut g, "evade lc").contains("CtB 4.0"));
    run(&mut g, &["fire s2 -> mc"]);
    assert!(decision(&g).is_none(), "{:?}", decision(&g));
    assert!(log_text(&g).contains("Blue second crossbowmen fire: 4D6"));
}

#[test]
fn ctb_4_0_5_0_opportunity_fire_is_not_evaded() {
    // Brown crossbowmen on opportunity fire at the Blue light horse coming at them:
    // "A stand that triggers an opportunity response cannot evade to avoid it".
    let lc = r#"(id: "lc", name: "Blue light horse", side: "blue", type: "light_horse", hex: "0805", group: "marshal", facing: "W"),"#;
    let x = r#"(id: "x", name: "Brown crossbowmen", side: "brown", type: "crossbow_sh", hex: "0305", group: "comyn", facing: "E"),"#;
    let mut g = blue_acts(MAP, &blue(lc), x, &["x"], 1);
    run(&mut g, &["go lc 0705 0605"]);
    let d = decision(&g).expect("the crossbowmen are asked");
    assert_eq!(d.rule, "CtB 5.0", "{d:?}");
    run(&mut g, &["react fire x -> lc"]);
    let log = log_text(&g);
    assert!(
        log.contains("Brown crossbowmen fire:"),
        "thrown at once: {log}"
    );
    assert!(!log.contains("may evade before the dice"), "{log}");
    assert!(
        decision(&g).is_none_or(|d| d.rule != "CtB 4.0"),
        "{:?}",
        decision(&g)
    );
}

// ---- the evader's route ----

const HORSE_0305: &str = r#"(id: "mc", name: "Blue horse", side: "blue", type: "medium_horse", hex: "0305", group: "marshal", facing: "E"),"#;
const LIGHT_HORSE_0505: &str = r#"(id: "lc", name: "Brown light horse", side: "brown", type: "light_horse", hex: "0505", group: "comyn", facing: "W"),"#;

#[test]
fn ctb_4_0_the_evader_chooses_where_it_ends_to_the_rear_paying_terrain() {
    // The light horse (4 MP) faces W; its rear hexes are 0604 (woods: 2 MP for light
    // horse) and 0605 (a lake). Charged from 0405, it may end in 0604 (2 MP), 0704 or
    // 0705 (3 MP), or 0803, 0804, 0805 (4 MP, four hexes from the charger: the
    // default is the lowest of the farthest).
    let map = r#"(columns: 10, rows: 8, terrain: {"woods": ["0604"], "lake": ["0605"]})"#;
    let mut g = blue_acts(map, &blue(HORSE_0305), LIGHT_HORSE_0505, &[], 1);
    run(&mut g, &["go mc 0405"]);
    let d = decision(&g).expect("the evasion is offered");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 4.0", 1), "{d:?}");
    assert_eq!(
        labels(&d),
        [
            "evade to 0803",
            "evade to 0804",
            "evade to 0805",
            "evade to 0704",
            "evade to 0705",
            "evade to 0604",
            "stand"
        ]
    );
    // Not into the lake, not forwards, not beyond its MP, not sideways.
    for bad in [
        "evade lc 0605",
        "evade lc 0405",
        "evade lc 0903",
        "evade lc 0504",
    ] {
        let r = refused(&mut g, bad);
        assert!(r.contains("CtB 4.0") && r.contains("0604"), "{bad}: {r}");
    }
    // A route named hex by hex must be one of the legal ones.
    let r = refused(&mut g, "evade lc 0604 0704 0705");
    assert!(r.contains("CtB 4.0"), "{r}");
    // The owner stops short in the woods ("up to a full normal move").
    run(&mut g, &["evade lc 0604"]);
    assert_eq!(hex(&g, "lc").as_deref(), Some("0604"));
    assert!(
        log_text(&g).contains("Brown light horse evades 0505 → 0604, facing W"),
        "{}",
        log_text(&g)
    );
    // The chosen end is written in the save and read back.
    assert!(g.save_text().contains("evade lc 0604"), "{}", g.save_text());
    let save = crate::common::write(
        &crate::common::scratch("ctb_evasion"),
        "evade.ron",
        &g.save_text(),
    );
    let loaded = Game::load_save(&save).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.state_json(), g.state_json());
}

#[test]
fn ctb_4_0_an_evasion_passes_through_friends_3_9_allows_and_names_its_route() {
    // Brown bills in 0704: light horse pass through any stand (CtB 3.9), but do not end
    // on it. The route 0604 0704 0804 is named hex by hex.
    let brown = format!(
        r#"{LIGHT_HORSE_0505}
        (id: "b", name: "Brown bills", side: "brown", type: "double_bills", hex: "0704", group: "comyn", facing: "W"),"#
    );
    let mut g = blue_acts(MAP, &blue(HORSE_0305), &brown, &[], 1);
    run(&mut g, &["go mc 0405"]);
    let d = decision(&g).expect("the evasion is offered");
    assert!(!labels(&d).contains(&"evade to 0704"), "{:?}", labels(&d));
    assert!(refused(&mut g, "evade lc 0604 0704").contains("CtB 4.0"));
    run(&mut g, &["evade lc 0604 0704 0804"]);
    assert_eq!(hex(&g, "lc").as_deref(), Some("0804"));
    assert_eq!(hex(&g, "b").as_deref(), Some("0704"));
}

#[test]
fn ctb_4_0_an_evasion_sends_enemy_generals_on_its_way_to_their_stands() {
    // The Blue general alone in 0604, on the light horse's way: like a retreat, the
    // evasion sends him to his nearest stand (CtB 2.1).
    let blue_units = format!(
        r#"(id: "bg", name: "Blue general", side: "blue", type: "general", hex: "0604", group: "marshal"),
        {HORSE_0305}"#
    );
    let mut g = blue_acts(MAP, &blue_units, LIGHT_HORSE_0505, &[], 1);
    run(&mut g, &["go mc 0405"]);
    assert_eq!(decision(&g).expect("the evasion").rule, "CtB 4.0");
    run(&mut g, &["evade lc 0604 0704"]);
    assert_eq!(hex(&g, "lc").as_deref(), Some("0704"));
    assert_eq!(hex(&g, "bg").as_deref(), Some("0405"), "with the horse");
    assert!(
        log_text(&g).contains("Blue general rides to the nearest stand of his group, in 0405"),
        "{}",
        log_text(&g)
    );
}

// ---- 4.0's exceptions ----

const LIGHT_HORSE_FACING_E: &str = r#"(id: "lc", name: "Brown light horse", side: "brown", type: "light_horse", hex: "0505", group: "comyn", facing: "E"),"#;

#[test]
fn ctb_4_0_light_horse_evades_an_attacker_that_began_beside_its_flank_and_only_turned() {
    // The Blue horse in 0504, beside the light horse's flank (it faces E), turns one
    // face to bring it into its front: "Sk and LC can still evade if the attacking
    // stand commenced the turn adjacent to their flank and just turned to attack".
    let horse = r#"(id: "mc", name: "Blue horse", side: "blue", type: "medium_horse", hex: "0504", group: "marshal", facing: "E"),"#;
    let mut g = blue_acts(MAP, &blue(horse), LIGHT_HORSE_FACING_E, &[], 1);
    run(&mut g, &["go mc cw"]);
    let d = decision(&g).expect("the evasion is offered");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 4.0", 1), "{d:?}");
    run(&mut g, &["evade lc"]);
    // To its rear, away from the horse: 0405 first (0404 is beside the horse).
    let at = hex(&g, "lc").expect("on the map");
    assert_ne!(at, "0505");
    assert!(
        log_text(&g).contains("Brown light horse evades 0505 → "),
        "{}",
        log_text(&g)
    );

    // The same horse coming from 0503, behind the light horse's front line, into the
    // flank hex: "charged from behind the flank": no evasion (the text's MC2).
    let horse = r#"(id: "mc", name: "Blue horse", side: "blue", type: "medium_horse", hex: "0503", group: "marshal", facing: "SSE"),"#;
    let mut g = blue_acts(MAP, &blue(horse), LIGHT_HORSE_FACING_E, &[], 1);
    run(&mut g, &["go mc 0504"]);
    let d = decision(&g).expect("the melee");
    assert_ne!(d.rule, "CtB 4.0", "{d:?}");
    assert!(!refused(&mut g, "evade lc").is_empty());
    assert_eq!(hex(&g, "lc").as_deref(), Some("0505"));
}

/// The Blue horse in 0405 facing E charges into 0505: its front is then 0604 and
/// 0605. Brown skirmishers in 0605 face NNE, so 0505 is on their flank, and the horse
/// began behind their front line.
const SK_0605: &str = r#"(id: "sk", name: "Brown skirmishers", side: "brown", type: "crossbow_sk", hex: "0605", group: "comyn", facing: "NNE"),"#;
const HORSE_0405: &str = r#"(id: "mc", name: "Blue horse", side: "blue", type: "medium_horse", hex: "0405", group: "marshal", facing: "E"),"#;
const BILLS_0604: &str = r#"(id: "b", name: "Brown bills", side: "brown", type: "double_bills", hex: "0604", group: "comyn", facing: "W"),"#;

#[test]
fn ctb_4_0_skirmishers_caught_on_the_flank_of_a_charge_at_a_formed_stand_may_evade() {
    // The horse charges the bills (a formed stand) and catches the skirmishers on their
    // flank: "or if they are caught in the flank as part of attack on formed stand".
    let brown = format!("{SK_0605}\n{BILLS_0604}");
    let mut g = blue_acts(MAP, &blue(HORSE_0405), &brown, &[], 1);
    run(&mut g, &["go mc 0505"]);
    let d = decision(&g).expect("the evasion is offered");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 4.0", 1), "{d:?}");
    run(&mut g, &["evade sk"]);
    let at = hex(&g, "sk").expect("it lives");
    assert_ne!(at, "0605");
    // The melee with the bills goes on, without them.
    assert_eq!(decision(&g).map(|d| d.rule).as_deref(), Some("CtB 10.2"));

    // Standing, they are struck on the flank by a battle stand (CtB 10.6).
    let mut g = blue_acts(MAP, &blue(HORSE_0405), &brown, &[], 1);
    run(&mut g, &["go mc 0505", "hold sk"]);
    assert_eq!(hex(&g, "sk"), None);
    assert!(
        log_text(&g).contains("Brown skirmishers are struck on a flank or the rear by Blue horse"),
        "{}",
        log_text(&g)
    );

    // Caught on the flank alone, with no formed stand charged, they may not evade:
    // destroyed at once (CtB 4.0, 10.6).
    let mut g = blue_acts(MAP, &blue(HORSE_0405), SK_0605, &[], 1);
    run(&mut g, &["go mc 0505"]);
    assert_eq!(hex(&g, "sk"), None);
    assert!(
        decision(&g).is_none_or(|d| d.rule != "CtB 4.0"),
        "{:?}",
        decision(&g)
    );
}

#[test]
fn ctb_4_0_no_evasion_in_its_own_side_s_turn() {
    // Brown horse on opportunity charges the Blue light horse `a` entering 0605 and
    // meets the Blue light horse `b` in 0604 too, frontally. `b` is in its own side's
    // activation: "evasion is only allowed *in an enemy turn*"; it may still fire
    // defensively (CtB 6.2).
    let blue_units = blue(
        r#"(id: "a", name: "Blue light horse", side: "blue", type: "light_horse", hex: "0705", group: "marshal", facing: "W"),
        (id: "b", name: "Blue second light horse", side: "blue", type: "light_horse", hex: "0604", group: "marshal", facing: "W"),"#,
    );
    let horse = r#"(id: "h", name: "Brown horse", side: "brown", type: "medium_horse", hex: "0305", group: "comyn", facing: "E"),"#;
    let mut g = blue_acts(MAP, &blue_units, horse, &["h"], 1);
    run(&mut g, &["go a 0605"]);
    assert_eq!(decision(&g).expect("the horse is asked").rule, "CtB 5.0");
    run(&mut g, &["react charge h"]);
    assert_eq!(hex(&g, "h").as_deref(), Some("0505"), "{}", log_text(&g));
    let d = decision(&g).expect("a reaction or the melee");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 6.2", 0), "{d:?}");
    assert!(refused(&mut g, "evade b").contains("CtB 6.2"));
}

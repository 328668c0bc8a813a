//! Reactions in the enemy's activation: opportunity (CtB 5.0, 6.2.1): a stand on opportunity
//! counter-charges a stand moving to contact it, charges one coming at it, fires back at
//! a stand firing on it from its front, or lets it be; the trigger neither evades nor
//! fires defensively; only one stand charges a given enemy; a move stopped by the
//! question goes on with its remaining steps. And defensive fire against a pursuer
//! by a stand it newly contacts (CtB 6.2), and skirmishers struck or breaking off
//! (CtB 10.6).

use bataille::engine::game::Game;

use crate::common::{decision, hex, log_text, refused, run, seed_rolling};

/// The Scots (Comyn's group) win the first initiative 12 to 2, put each stand in
/// `on_opportunity` on opportunity (an Order Test of 6 each) and end; the English,
/// alone to move, then activate the Marshal's group. `more` are the dice after those.
fn scots_watch(english: &str, scots: &str, on_opportunity: &[&str], more: &[u8]) -> Game {
    let mut dice = vec![6, 6, 1, 1];
    dice.extend(on_opportunity.iter().map(|_| 6));
    dice.extend_from_slice(more);
    scots_watch_seeded(english, scots, on_opportunity, seed_rolling(&dice))
}

/// As `scots_watch`, with the game's seed given (it must roll 6, 6, 1, 1, then a 6 for
/// each stand going on opportunity).
fn scots_watch_seeded(english: &str, scots: &str, on_opportunity: &[&str], seed: u64) -> Game {
    watch_seeded(english, "scots", scots, on_opportunity, seed)
}

/// Given as `on_opportunity`, stops `watch_seeded` as the Scots' activation begins
/// (their skirmishers' break-off asks its owner, CtB 10.6).
const BREAK_OFF_ASKED: &str = "(break-off asked)";

/// As `scots_watch_seeded`, the second side of `army`'s list.
fn watch_seeded(
    english: &str,
    army: &str,
    scots: &str,
    on_opportunity: &[&str],
    seed: u64,
) -> Game {
    let ron = format!(
        r#"(
    name: "Opportunity", date: "1298", ruleset: "charles_the_bold", turns: 2,
    map: (columns: 10, rows: 8),
    sides: [
        (id: "english", name: "English", army: "english", break_fraction: (1, 1),
         groups: [(id: "marshal", name: "Marshal", general: "norfolk")]),
        (id: "scots", name: "Scots", army: "{army}", break_fraction: (1, 1),
         groups: [(id: "comyn", name: "Comyn", general: "comyn")]),
    ],
    first: "scots",
    units: [
        (id: "norfolk", name: "Norfolk", side: "english", type: "general", hex: "0908", group: "marshal"),
        {english}
        (id: "comyn", name: "Comyn", side: "scots", type: "general", hex: "0205", group: "comyn"),
        {scots}
    ],
    at_time_limit: (winner: "scots", level: Minor),
)"#
    );
    let mut g = crate::common::game_of(&ron, seed, &[]);
    run(&mut g, &["declare comyn", "declare marshal", "end"]);
    if on_opportunity == [BREAK_OFF_ASKED] {
        return g;
    }
    for o in on_opportunity {
        run(&mut g, &[&format!("opportunity {o}")]);
    }
    run(&mut g, &["end", "declare marshal", "end"]);
    assert!(
        log_text(&g).contains("English move Marshal"),
        "{}",
        log_text(&g)
    );
    g
}

const HORSE: &str = r#"(id: "h1", name: "Scots horse", side: "scots", type: "scots_horse", hex: "0305", group: "comyn", facing: "E"),"#;

fn light_horse_at(at: &str) -> String {
    format!(
        r#"(id: "e1", name: "English stand", side: "english", type: "mounted_crossbow", hex: "{at}", group: "marshal", facing: "W"),"#
    )
}

#[test]
fn ctb_5_0_counter_charge_of_a_stand_moving_to_contact_it_no_evasion_no_defensive_fire() {
    let mut g = scots_watch(&light_horse_at("0505"), HORSE, &["h1"], &[]);
    // The mounted crossbow would contact the horse from 0405: the horse may
    // counter-charge it before it moves.
    run(&mut g, &["go e1 0405"]);
    let d = decision(&g).expect("the Scots are asked");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 5.0", 1), "{d:?}");
    assert_eq!(
        hex(&g, "e1").as_deref(),
        Some("0505"),
        "stopped before it moved"
    );
    let labels: Vec<&str> = d.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["charge", "let it be"], "the horse does not shoot");
    // The English may do nothing meanwhile.
    assert!(refused(&mut g, "go e1 0405").contains("CtB 5.0"));
    run(&mut g, &["react charge h1"]);
    assert_ne!(hex(&g, "h1").as_deref(), Some("0305"), "the horse charged");
    let log = log_text(&g);
    assert!(
        log.contains("Scots horse charges English stand on opportunity"),
        "{log}"
    );
    // Light cavalry would evade or fire defensively at a charger; not at this one
    // (CtB 5.0: "cannot evade"; 6.2: "not ... an opportunity charge which they
    // triggered"). The melee is the Scots' to fight.
    let d = decision(&g).expect("the melee");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 10.2", 1), "{d:?}");
    assert!(
        !refused(&mut g, "go e1 0405").is_empty(),
        "its move ended in contact"
    );
}

#[test]
fn ctb_5_0_a_stand_coming_closer_is_stopped_and_goes_on_when_let_be() {
    let mut g = scots_watch(&light_horse_at("0805"), HORSE, &["h1"], &[]);
    run(&mut g, &["go e1 0705 0605"]);
    // At 0705 it is 4 hexes off: 3 straight hexes and the horse is on it.
    let d = decision(&g).expect("the Scots are asked");
    assert_eq!(d.rule, "CtB 5.0");
    assert_eq!(hex(&g, "e1").as_deref(), Some("0705"));
    run(&mut g, &["react none"]);
    let log = log_text(&g);
    assert!(
        log.contains("Scots horse lets English stand be, and stays on opportunity"),
        "{log}"
    );
    // The rest of its move, without a new Order Test, and the horse is not asked twice
    // in one move.
    assert_eq!(hex(&g, "e1").as_deref(), Some("0605"));
    assert!(decision(&g).is_none(), "{:?}", decision(&g));
    assert!(!log.contains("Order Test of English stand"), "{log}");
}

#[test]
fn ctb_5_0_only_one_stand_on_opportunity_charges_an_enemy() {
    let two = format!(
        "{HORSE}\n{}",
        r#"(id: "h2", name: "Scots horse 2", side: "scots", type: "scots_horse", hex: "0304", group: "comyn", facing: "E"),"#
    );
    let mut g = scots_watch(&light_horse_at("0805"), &two, &["h1", "h2"], &[]);
    run(&mut g, &["go e1 0705 0605"]);
    let d = decision(&g).expect("asked");
    assert_eq!(d.rule, "CtB 5.0");
    let first = if d.prompt.starts_with("Scots horse 2") {
        "h2"
    } else {
        "h1"
    };
    let pending = log_text(&g).matches("on opportunity may answer").count();
    assert_eq!(pending, 1, "one stop");
    assert!(
        log_text(&g).contains("Scots horse, Scots horse 2 on opportunity may answer")
            || log_text(&g).contains("Scots horse 2, Scots horse on opportunity may answer"),
        "both are asked: {}",
        log_text(&g)
    );
    run(&mut g, &[&format!("react charge {first}")]);
    // The other's question is gone: the English stand is in contact now.
    let d = decision(&g).expect("the melee");
    assert_eq!(d.rule, "CtB 10.2", "{d:?}");
}

#[test]
fn ctb_5_0_fired_on_from_its_front_it_fires_back() {
    let archers = r#"(id: "sa", name: "Selkirk archers", side: "scots", type: "selkirk_archers", hex: "0305", group: "comyn", facing: "E"),"#;
    let english = r#"(id: "e1", name: "English archers", side: "english", type: "archers", hex: "0505", group: "marshal", facing: "W"),"#;
    let mut g = fired_on_unhurt(english, archers);
    let d = decision(&g).expect("the Scots archers may answer");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 5.0", 1), "{d:?}");
    let labels: Vec<&str> = d.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["fire", "let it be"], "archers have no impact");
    let r = refused(&mut g, "react charge sa");
    assert!(r.contains("CtB 5.0") && r.contains("straight ahead"), "{r}");
    run(&mut g, &["react fire sa -> e1"]);
    let log = log_text(&g);
    assert!(
        log.contains("Selkirk archers fires on opportunity at English archers"),
        "{log}"
    );
    assert!(log.contains("Selkirk archers fire: 3D6"), "{log}");
    // Firing ends opportunity (CtB 5.0).
    let sa = bataille::rulesets::common::unit_by_key(&g.world, "sa").expect("sa");
    let sa = bataille::rulesets::common::entity(&g.world, sa);
    assert!(
        !g.ruleset
            .unit_flags(&g.world, sa)
            .contains(&"opportunity".to_string())
    );
}

#[test]
fn ctb_5_0_no_reaction_to_a_fire_from_outside_its_front_2h() {
    // 0407 is outside the Scots archers' front 2H arc (R-arcs, as 9.2).
    let archers = r#"(id: "sa", name: "Selkirk archers", side: "scots", type: "selkirk_archers", hex: "0305", group: "comyn", facing: "E"),"#;
    let english = r#"(id: "e1", name: "English archers", side: "english", type: "archers", hex: "0407", group: "marshal", facing: "NNW"),"#;
    let g = fired_on_unhurt(english, archers);
    assert!(decision(&g).is_none(), "{:?}", decision(&g));
}

/// The Scots archers `sa` on opportunity, fired on by the English `e1` with no hit (the
/// first seed that throws none): a hit could disorder them, ending opportunity.
fn fired_on_unhurt(english: &str, scots: &str) -> Game {
    let prefix = [6, 6, 1, 1, 6];
    for seed in (0..2_000_000u64).filter(|&s| {
        let mut d = bataille::engine::dice::Dice::new(s);
        prefix.iter().all(|r| d.d6() == *r)
    }) {
        let mut g = scots_watch_seeded(english, scots, &["sa"], seed);
        run(&mut g, &["fire e1 -> sa"]);
        if log_text(&g).contains(", 0 hits") {
            return g;
        }
    }
    panic!("no seed misses")
}

#[test]
fn ctb_6_2_a_stand_newly_contacted_by_a_pursuer_fires_defensively() {
    // Crossbowmen (shot) with skirmishers behind them (no zone of control to stop a
    // pursuit: CtB 13.0, R-3.5), of the French list.
    let scots = r#"(id: "sa1", name: "Archers 1", side: "scots", type: "crossbow_sh", hex: "0505", group: "comyn", facing: "W"),
        (id: "sa2", name: "Archers 2", side: "scots", type: "crossbow_sk", hex: "0605", group: "comyn", facing: "W"),"#;
    let english = r#"(id: "e1", name: "English foot", side: "english", type: "english_foot", hex: "0305", group: "marshal", facing: "E"),"#;
    let prefix = [6, 6, 1, 1];
    let pursued_into_archers = |seed: u64| -> Option<Game> {
        let mut g = watch_seeded(english, "french", scots, &[], seed);
        run(&mut g, &["go e1 0405"]);
        while let Some(d) = decision(&g) {
            let answer = match d.rule.as_str() {
                "CtB 6.2" | "CtB 6.3" => "react none".to_string(),
                "CtB 10.2" => "fight e1 -> sa1".to_string(),
                "CtB 13.0" => "pursue e1".to_string(),
                "CtB 12.0" => d.choices[0].command.to_string(),
                _ => return None,
            };
            if answer == "pursue e1" {
                run(&mut g, &[&answer]);
                return log_text(&g)
                    .contains("English foot's pursuit makes contact")
                    .then_some(g);
            }
            run(&mut g, &[&answer]);
        }
        None
    };
    let g = (0..3_000_000u64)
        .filter(|&s| {
            let mut d = bataille::engine::dice::Dice::new(s);
            prefix.iter().all(|r| d.d6() == *r)
        })
        .find_map(pursued_into_archers)
        .expect("some seed beats the first archers and pursues into the second");
    let d = decision(&g).expect("the new stand's defensive fire");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 6.2", 1), "{d:?}");
    assert!(d.prompt.starts_with("Archers 2"), "{}", d.prompt);
}

// ---- skirmishers (CtB 10.6) ----

fn french_skirmishers(facing: &str) -> String {
    format!(
        r#"(id: "sk", name: "Crossbow skirmishers", side: "scots", type: "crossbow_sk", hex: "0505", group: "comyn", facing: "{facing}"),"#
    )
}

fn english_at_0305(kind: &str) -> String {
    format!(
        r#"(id: "e1", name: "English stand", side: "english", type: "{kind}", hex: "0305", group: "marshal", facing: "E"),"#
    )
}

#[test]
fn ctb_10_6_skirmishers_struck_on_a_flank_by_a_combat_stand_die_without_fighting() {
    // From 0405 the foot touch the skirmishers' flank (they face NNW), though the
    // charge began in front of them: a Combat Stand destroys them all the same.
    let mut g = watch_seeded(
        &english_at_0305("english_foot"),
        "french",
        &french_skirmishers("NNW"),
        &[],
        seed_rolling(&[6, 6, 1, 1]),
    );
    run(&mut g, &["go e1 0405"]);
    let log = log_text(&g);
    assert!(
        log.contains("Crossbow skirmishers are struck on a flank or the rear by English stand: destroyed without fighting"),
        "{log}"
    );
    assert_eq!(hex(&g, "sk"), None);
    assert!(decision(&g).is_none(), "no melee: {:?}", decision(&g));
}

#[test]
fn ctb_10_2_no_melee_owed_against_skirmishers_struck_after_an_opportunity_stop() {
    // The English foot go 0305 0405: at 0305 they come closer to the Scots horse on
    // opportunity, which could charge them straight (CtB 5.0) and lets them be; the
    // move goes on to 0405, on the skirmishers' flank, who are destroyed without
    // fighting (CtB 10.6). No melee is owed (CtB 10.2): the rules used to wait for one
    // against the destroyed stand, with no `fight` to answer it and `end` refused (the
    // Grandson autoplay game of seed 1495).
    let horse = r#"(id: "h1", name: "Scots horse", side: "scots", type: "medium_horse", hex: "0302", group: "comyn", facing: "SSE"),"#;
    let scots = format!("{horse}\n        {}", french_skirmishers("NNW"));
    let english = r#"(id: "e1", name: "English stand", side: "english", type: "english_foot", hex: "0205", group: "marshal", facing: "E"),"#;
    let mut g = watch_seeded(
        english,
        "french",
        &scots,
        &["h1"],
        seed_rolling(&[6, 6, 1, 1, 6]),
    );
    run(&mut g, &["go e1 0305 0405"]);
    let d = decision(&g).expect("the horse on opportunity is asked");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 5.0", 1), "{d:?}");
    assert_eq!(hex(&g, "e1").as_deref(), Some("0305"), "stopped at 0305");
    run(&mut g, &["react none"]);
    let log = log_text(&g);
    assert!(
        log.contains("Crossbow skirmishers are struck on a flank or the rear by English stand: destroyed without fighting"),
        "{log}"
    );
    assert_eq!(hex(&g, "e1").as_deref(), Some("0405"), "the move went on");
    assert_eq!(hex(&g, "sk"), None);
    assert!(decision(&g).is_none(), "no melee: {:?}", decision(&g));
    // The activation may end: nothing is owed.
    run(&mut g, &["end"]);
}

#[test]
fn ctb_10_2_grandson_autoplay_seed_1495_is_not_stuck_on_a_melee_without_enemy() {
    // Burgundian pikemen, stopped by Swiss pikes on opportunity and let be, strike the
    // Swiss shot on a flank (CtB 10.6): the game used to wait for a melee against the
    // destroyed shot (command 807, `end`, refused: "fight the melee (nothing: no legal
    // answer) (CtB 10.2)").
    let path = crate::common::root().join("scenarios/charles_the_bold/grandson_1476.ron");
    let mut g = Game::start(&path, 1495, &[]).expect("Grandson loads");
    let mut rng = bataille::autoplay::random_play_rng(1495);
    let played = bataille::autoplay::play_one(&mut g, &mut rng);
    assert!(played.is_ok(), "{played:?}");
    assert!(g.is_over());
}

#[test]
fn ctb_10_6_light_cavalry_destroy_skirmishers_on_a_flank_only_from_behind_their_front_line() {
    let struck = |facing: &str| {
        let mut g = watch_seeded(
            &english_at_0305("mounted_crossbow"),
            "french",
            &french_skirmishers(facing),
            &[],
            seed_rolling(&[6, 6, 1, 1]),
        );
        run(&mut g, &["go e1 0405"]);
        (hex(&g, "sk").is_none(), decision(&g).map(|d| d.rule))
    };
    // Facing SSE, the charge began behind their front line: destroyed.
    assert_eq!(struck("SSE"), (true, None));
    // Facing NNW, it began in front of it: they fight the light cavalry (10.6).
    assert_eq!(struck("NNW"), (false, Some("CtB 10.2".to_string())));
}

#[test]
fn ctb_10_6_skirmishers_with_an_enemy_in_front_break_off_at_their_activation() {
    let english = r#"(id: "e1", name: "English stand", side: "english", type: "english_foot", hex: "0405", group: "marshal", facing: "E"),"#;
    let start = || {
        watch_seeded(
            english,
            "french",
            &french_skirmishers("W"),
            &[BREAK_OFF_ASKED],
            seed_rolling(&[6, 6, 1, 1]),
        )
    };
    let mut g = start();
    // Two or more hexes to fall back to: their owner chooses (R-10.6), before anything
    // else, every way back a hex of an evasion (CtB 4.0), the default first.
    let d = decision(&g).expect("the break-off's choice");
    assert_eq!(d.rule, "CtB 10.6", "{d:?}");
    let ends: Vec<String> = d
        .choices
        .iter()
        .map(|c| {
            c.label
                .strip_prefix("break off to ")
                .expect("a hex")
                .to_string()
        })
        .collect();
    assert!(ends.len() >= 2, "{ends:?}");
    assert!(refused(&mut g, "end").contains("CtB 10.6"));
    // Not the default: the last way offered.
    let last = ends.last().expect("a hex").clone();
    run(&mut g, &[&format!("evade sk {last}")]);
    let log = log_text(&g);
    assert!(
        log.contains(&format!(
            "Crossbow skirmishers breaks off from English stand: 0505 → {last}"
        )),
        "{log}"
    );
    assert_eq!(hex(&g, "sk").as_deref(), Some(last.as_str()));
    // That was its first move of the activation, and it ends.
    run(&mut g, &["end"]);
    // A hex it may not end in is refused with the ones it may.
    let mut again = start();
    let r = refused(&mut again, "evade sk 0405");
    assert!(r.contains("CtB") && r.contains(&ends[0]), "{r}");
}

// ---- retreats (CtB 12.1) ----

/// Two French armies: the first side (`english`, the Marshal's group) moves after the
/// second (`scots`, Comyn's), which only ends; from `seed`.
fn french_against_french(first: &str, second: &str, seed: u64) -> Game {
    let ron = format!(
        r#"(
    name: "Retreat", date: "1480", ruleset: "charles_the_bold", turns: 2,
    map: (columns: 10, rows: 8),
    sides: [
        (id: "english", name: "Blue", army: "french", break_fraction: (1, 1),
         groups: [(id: "marshal", name: "Marshal", general: "norfolk")]),
        (id: "scots", name: "Brown", army: "french", break_fraction: (1, 1),
         groups: [(id: "comyn", name: "Comyn", general: "comyn")]),
    ],
    first: "scots",
    units: [
        (id: "norfolk", name: "Blue general", side: "english", type: "general", hex: "0108", group: "marshal"),
        {first}
        (id: "comyn", name: "Brown general", side: "scots", type: "general", hex: "0901", group: "comyn"),
        {second}
    ],
    at_time_limit: (winner: "scots", level: Minor),
)"#
    );
    let mut g = crate::common::game_of(&ron, seed_rolling(&[6, 6, 1, 1]), &[]);
    run(
        &mut g,
        &[
            "declare comyn",
            "declare marshal",
            "end",
            "end",
            "declare marshal",
            "end",
        ],
    );
    *g.world.resource_mut::<bataille::engine::dice::Dice>() =
        bataille::engine::dice::Dice::new(seed);
    g
}

#[test]
fn ctb_12_1_a_retreat_passes_through_enemy_skirmishers_never_other_enemies() {
    // Blue bills beat Brown crossbowmen in 0505 from 0405; of the hexes farther away,
    // 0504 and 0604 hold Blue men at arms, 0605 Blue skirmishers: the retreat passes
    // through the skirmishers.
    let blue = r#"(id: "b", name: "Bills", side: "english", type: "double_bills", hex: "0305", group: "marshal", facing: "E"),
        (id: "sk", name: "Blue skirmishers", side: "english", type: "crossbow_sk", hex: "0605", group: "marshal", facing: "SSE"),
        (id: "maa", name: "Blue men at arms", side: "english", type: "dismounted_maa", hex: "0604", group: "marshal", facing: "NNE"),
        (id: "maa2", name: "Blue men at arms 2", side: "english", type: "dismounted_maa", hex: "0504", group: "marshal", facing: "NNE"),"#;
    let brown = r#"(id: "x", name: "Brown crossbowmen", side: "scots", type: "crossbow_sh", hex: "0505", group: "comyn", facing: "W"),"#;
    let beaten = |seed: u64| {
        let mut g = french_against_french(blue, brown, seed);
        run(&mut g, &["go b 0405"]);
        while let Some(d) = decision(&g) {
            let answer = match d.rule.as_str() {
                "CtB 6.2" | "CtB 6.3" => "react none",
                "CtB 10.2" => "fight b -> x",
                "CtB 12.0" => {
                    crate::common::default_retreats(&mut g);
                    continue;
                }
                _ => break,
            };
            run(&mut g, &[answer]);
        }
        g
    };
    let g = (0..3000u64)
        .map(beaten)
        .find(|g| log_text(g).contains("Bills wins the melee; Brown crossbowmen loses"))
        .expect("some seed beats the crossbowmen");
    let log = log_text(&g);
    assert!(
        log.contains("Brown crossbowmen retreats through the enemy Blue skirmishers"),
        "{log}"
    );
    let at = hex(&g, "x").expect("it got clear");
    assert!(
        !["0505", "0605", "0604", "0504"].contains(&at.as_str()),
        "{at}"
    );
}

// ---- 4.0: evading the same pursuer again ----

/// The Blue horse's next move, the cheapest the window offers that ends next to the
/// Brown light horse (CtB 3.3: an extra move, with its Order Test); whether it was
/// made and stopped there.
fn pursue_to_contact(g: &mut Game) -> bool {
    let id = |g: &Game, key: &str| {
        bataille::rulesets::charles_the_bold::resolve(
            &g.world,
            &bataille::engine::command::UnitRef::Key(key.into()),
        )
        .unwrap()
    };
    let (mc, lc) = (id(g, "mc"), id(g, "lc"));
    let target = bataille::rulesets::common::hex_of(&g.world, lc).unwrap();
    let e = bataille::rulesets::common::entity(&g.world, mc);
    let Some(option) = g
        .ruleset
        .move_options(&g.world, e)
        .unwrap_or_default()
        .into_iter()
        .filter(|o| o.hex.distance(target) == 1)
        .min_by_key(|o| (o.cost, o.hex))
    else {
        return false;
    };
    g.submit(&option.command).is_ok()
        && bataille::rulesets::common::hex_of(&g.world, mc) == Some(option.hex)
}

/// T1: the Brown light horse (0705, facing E) charged by the Blue medium horse from
/// 1005: evades, is pursued by the horse's extra move and evades again, then takes an
/// Order Test for that extra move. Returns the game after the second evasion, if the
/// horse's own Order Test let it pursue.
fn t1_evades_twice(seed: u64) -> Option<Game> {
    let mc = r#"(id: "mc", name: "Blue horse", side: "english", type: "medium_horse", hex: "1005", group: "marshal", facing: "W"),"#;
    let lc = r#"(id: "lc", name: "Brown light horse", side: "scots", type: "light_horse", hex: "0705", group: "comyn", facing: "E"),"#;
    let mut g = french_against_french(mc, lc, seed);
    run(&mut g, &["go mc 0905 0805"]);
    if decision(&g)?.rule != "CtB 4.0" {
        return None;
    }
    run(&mut g, &["evade lc", "go mc 0705"]);
    // The horse's extra move, its Order Test passed, reaches the light horse again.
    if hex(&g, "mc").as_deref() != Some("0705") || !pursue_to_contact(&mut g) {
        return None;
    }
    (decision(&g)?.rule == "CtB 4.0").then_some(g)
}

#[test]
fn ctb_4_0_evading_the_same_pursuer_again_takes_an_order_test() {
    let mut failed = None;
    let mut passed = None;
    for seed in 0..3000u64 {
        let Some(mut g) = t1_evades_twice(seed) else {
            continue;
        };
        // The first evasion took no Order Test; the horse's extra move did (CtB 3.3).
        let log = log_text(&g);
        assert!(!log.contains("Order Test of Brown light horse"), "{log}");
        assert!(log.contains("Order Test of Blue horse"), "{log}");
        run(&mut g, &["evade lc"]);
        let log = log_text(&g);
        assert!(
            log.contains("Order Test of Brown light horse"),
            "the second evasion is an extra move: {log}"
        );
        if log.contains("fails its Order Test after evading again") {
            failed.get_or_insert(g);
        } else {
            passed.get_or_insert(g);
        }
        if failed.is_some() && passed.is_some() {
            break;
        }
    }
    let failed = failed.expect("some seed fails the light horse's test");
    assert!(disordered(&failed, "lc"));
    let passed = passed.expect("some seed passes it");
    assert!(!disordered(&passed, "lc"));
}

/// Whether a stand is disordered (CtB 7.3), as the ruleset's state shows it.
fn disordered(g: &Game, id: &str) -> bool {
    g.state_json()["ruleset_state"]["stands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .map(|s| s["disordered"] == true)
        .unwrap()
}

#[test]
fn ctb_4_0_a_disordered_stand_evades_the_same_attacker_once() {
    // Disordered before the first charge: one evasion from that attacker only.
    let mc = r#"(id: "mc", name: "Blue horse", side: "english", type: "medium_horse", hex: "1005", group: "marshal", facing: "W"),"#;
    let lc = r#"(id: "lc", name: "Brown light horse", side: "scots", type: "light_horse", hex: "0705", group: "comyn", facing: "E"),"#;
    let disordered_game = |seed: u64| {
        let mut g = french_against_french(mc, lc, seed);
        let id = bataille::rulesets::charles_the_bold::resolve(
            &g.world,
            &bataille::engine::command::UnitRef::Key("lc".into()),
        )
        .unwrap();
        let e = bataille::rulesets::common::entity(&g.world, id);
        g.world
            .entity_mut(e)
            .get_mut::<bataille::rulesets::charles_the_bold::CtbStatus>()
            .unwrap()
            .disordered = true;
        g
    };
    let seed = (0..3000u64)
        .find(|s| {
            let mut g = disordered_game(*s);
            run(&mut g, &["go mc 0905 0805", "evade lc", "go mc 0705"]);
            pursue_to_contact(&mut g) && decision(&g).is_some()
        })
        .expect("some seed lets the horse pursue");
    let mut g = disordered_game(seed);
    run(&mut g, &["go mc 0905 0805", "evade lc", "go mc 0705"]);
    assert!(pursue_to_contact(&mut g));
    let d = decision(&g).expect("a reaction or the melee");
    assert_ne!(d.rule, "CtB 4.0", "no second evasion: {d:?}");
    assert!(refused(&mut g, "evade lc").contains("CtB"));
}

// ---- 10.6: skirmishers in the open who do not evade ----

#[test]
fn ctb_10_6_skirmishers_in_the_open_holding_their_fire_are_destroyed() {
    let horse = r#"(id: "c", name: "Blue horse", side: "english", type: "medium_horse", hex: "0305", group: "marshal", facing: "E"),"#;
    let sk = r#"(id: "sk", name: "Brown skirmishers", side: "scots", type: "crossbow_sk", hex: "0505", group: "comyn", facing: "W"),"#;
    let mut g = french_against_french(horse, sk, 1);
    run(&mut g, &["go c 0405"]);
    assert_eq!(decision(&g).expect("the evasion").rule, "CtB 4.0");
    run(&mut g, &["hold sk"]);
    assert_eq!(decision(&g).expect("defensive fire").rule, "CtB 6.2");
    // They stand and hold their fire: "Sk who do not evade are automatically destroyed".
    run(&mut g, &["react none"]);
    let log = log_text(&g);
    assert!(
        log.contains("Brown skirmishers in the open cannot stand against Blue horse: destroyed"),
        "{log}"
    );
    assert_eq!(hex(&g, "sk"), None);
    assert!(
        decision(&g).is_none_or(|d| d.rule != "CtB 10.2"),
        "no melee"
    );
}

//! The text's worked examples played in a game, each with its numbers (spec A.4): T2,
//! light cavalry that cannot evade a charger from behind its front face line (CtB 4.0,
//! 10.5), and T8, the Flemish pike that must fight the men at arms (10.2, 6.3, 10.7,
//! 12.0, 13.0).

use bataille::engine::game::Game;

use bataille::engine::hex::HexCoord;
use bataille::rulesets::charles_the_bold::{CtbRanks, CtbStatus};

use crate::common::{decision, default_retreats, facing, hex, log_text, refused, run};
use crate::ctb_generals::{BROWN, GENERAL, blue, brown, dice_from, game_of, unit};

/// T8's position: the Flemish pike in 0304 facing E; the French dismounted men at arms
/// in 0504 and crossbowmen in 0505, both facing W.
fn t8() -> Game {
    let blue = format!(
        "{GENERAL}{}",
        blue("pk", "Flemish pike", "pikes", "0304", "E")
    );
    let brown = format!(
        "{BROWN}{}{}",
        brown("maa", "Men at arms", "dismounted_maa", "0504", "W"),
        brown("xb", "Crossbowmen", "crossbow_sh", "0505", "W")
    );
    game_of(["low_countries", "french"], false, "", &blue, &brown, &[])
}

fn dist(a: &str, b: &str) -> u32 {
    HexCoord::parse(a)
        .expect("a hex")
        .distance(HexCoord::parse(b).expect("a hex"))
}

/// A stand's SP, every rank (CtB 1.3).
fn sp(g: &Game, id: &str) -> u8 {
    g.world
        .get::<CtbRanks>(bataille::rulesets::common::entity(&g.world, unit(g, id)))
        .map_or(0, |r| r.total())
}

fn disordered(g: &Game, id: &str) -> bool {
    g.world
        .get::<CtbStatus>(bataille::rulesets::common::entity(&g.world, unit(g, id)))
        .is_some_and(|s| s.disordered)
}

/// T8 up to the melee's dice: the pike's charge, the crossbows' supporting fire and the
/// Brown side's supports.
fn t8_fought(seed: u64) -> Game {
    let mut g = t8();
    run(&mut g, &["go pk 0404", "react fire xb -> pk"]);
    dice_from(&mut g, seed);
    run(&mut g, &["fight pk -> maa", "support xb"]);
    g
}

#[test]
fn ctb_10_2_t8_flemish_pike_must_fight_the_men_at_arms() {
    let mut g = t8();
    run(&mut g, &["go pk 0404"]);
    // The crossbows, contacted beside a Combat Stand, are a support: supporting fire at
    // half strength, not defensive fire (CtB 10.2, 6.3: "the XBow stand would have got to
    // use Supporting Fire on the Pikes at half strength").
    let d = decision(&g).expect("the crossbows' fire is offered");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 6.3", 1), "{d:?}");
    run(&mut g, &["react fire xb -> pk"]);
    assert!(
        log_text(&g).contains("Crossbowmen supporting fire at Flemish pike: 2D6"),
        "{}",
        log_text(&g)
    );
    // "The MAA stand HAS to be the defending Battle Stand as it is a Combat Stand."
    let r = refused(&mut g, "fight pk -> xb");
    assert!(
        r.contains("CtB 10.2") && r.contains("Combat Stand comes before a Support Stand"),
        "{r}"
    );
    // "The MAA are SP6 so they get 6D6, the XBows are 4SP, they add half of their
    // strength 2D6 to the melee giving the defenders a dice roll of 8D6."
    run(&mut g, &["fight pk -> maa", "support xb"]);
    let log = log_text(&g);
    assert!(
        log.contains(
            "Men at arms: +6 6 SP (CtB 1.3), +2 Crossbowmen supporting, half of 4 (CtB 10.7)"
        ) && log.contains("Men at arms in melee: 8D6"),
        "{log}"
    );
}

#[test]
fn ctb_12_0_t8_the_men_at_arms_retreat_two_hexes_the_crossbows_disordered_without_loss() {
    // "The Flemish Pikes win the Melee and the MAA suffer 2 permanent SP losses", and
    // then pursue: the first seed whose dice give that.
    let pursued = |seed: u64| {
        let mut g = t8_fought(seed);
        default_retreats(&mut g);
        let _ = g.submit(
            &bataille::rulesets::parse_line("pursue pk")
                .unwrap()
                .unwrap(),
        );
        let log = log_text(&g);
        log.contains("Flemish pike wins the melee")
            && log.contains("Men at arms loses 2 SP")
            && log.contains("Flemish pike pursues")
    };
    let seed = (0..2000u64)
        .find(|&s| pursued(s))
        .expect("a seed where the pike win and pursue");
    let mut g = t8_fought(seed);
    assert_eq!(sp(&g, "maa"), 4, "6 SP less 2");
    // "The MAA retreat their maximum distance of twice their normal move which is 1MP
    // times 2": every hex offered is two hexes from 0504, and the stand keeps its facing.
    let d = decision(&g).expect("the retreat's choice");
    assert_eq!(d.rule, "CtB 12.0", "{d:?}");
    let ends: Vec<String> = d
        .choices
        .iter()
        .filter_map(|c| c.hex.map(|h| h.to_string()))
        .collect();
    assert!(
        !ends.is_empty() && ends.iter().all(|h| dist(h, "0504") == 2),
        "{ends:?}"
    );
    run(&mut g, &[&format!("retreat {}", ends[0])]);
    assert_eq!(hex(&g, "maa"), Some(ends[0].clone()));
    assert_eq!(facing(&g, "maa"), "W");
    assert!(
        disordered(&g, "maa"),
        "the beaten Battle Stand is disordered"
    );
    // "The XBow as a supporting stand do not take any losses but do become disordered
    // and have to retreat": its full retreat, 2 MP times 2.
    default_retreats(&mut g);
    let xb = hex(&g, "xb").expect("on the map");
    assert_eq!((sp(&g, "xb"), dist(&xb, "0505")), (4, 4), "{xb}");
    assert!(disordered(&g, "xb"));
    // "If the Flemish Pike wish to pursue they must pursue the Battle Stand ... As non
    // impetuous foot they can only pursue 1 hex": the pursuit has no target to choose,
    // and it never goes farther than one hex.
    let d = decision(&g).expect("the pursuit is offered");
    assert_eq!(d.rule, "CtB 13.0", "{d:?}");
    let before = dist("0404", &hex(&g, "maa").unwrap());
    run(&mut g, &["pursue pk"]);
    let pk = hex(&g, "pk").expect("on the map");
    assert_eq!(dist(&pk, "0404"), 1, "{}", log_text(&g));
    assert!(
        dist(&pk, &hex(&g, "maa").unwrap()) < before,
        "towards the men at arms"
    );
}

/// T2's position: Brown's light horse in 0705 facing E; Blue's medium horse MC2 in 0606
/// facing NNE, behind the light horse's front face line, and MC1 in 0905 facing W, in
/// front of it.
fn t2() -> Game {
    let blue = format!(
        "{GENERAL}{}{}",
        blue("mc2", "MC2", "medium_horse", "0606", "NNE"),
        blue("mc1", "MC1", "medium_horse", "0905", "W")
    );
    let brown = format!(
        "{BROWN}{}",
        brown("lc", "Light horse", "light_horse", "0705", "E")
    );
    game_of(["french", "french"], false, "", &blue, &brown, &[])
}

#[test]
fn ctb_4_0_t2_no_evasion_from_behind_the_front_face_line() {
    // "MC2 is behind the front face line when it starts to move so can launch a flank
    // attack. The LC cannot evade and will disorder when MC2 hits it."
    let mut g = t2();
    run(&mut g, &["go mc2 0706"]);
    let d = decision(&g).expect("the melee waits");
    assert_eq!(d.rule, "CtB 10.2", "no evasion is offered: {d:?}");
    assert_eq!(hex(&g, "lc").as_deref(), Some("0705"));
    run(&mut g, &["fight mc2 -> lc"]);
    let log = log_text(&g);
    assert!(
        log.contains("Light horse is struck in the flank or rear: disordered (CtB 10.5)"),
        "{log}"
    );
    // MC2 throws +1D6 for the flank (10.5): 5 SP, +2 impact, +1 flank.
    let mc2 = log
        .lines()
        .find(|l| l.starts_with("MC2: "))
        .expect("MC2's pool");
    assert!(mc2.contains("(CtB 10.5)"), "{mc2}");
    assert!(log.contains("MC2 in melee: 8D6"), "{log}");
}

#[test]
fn ctb_4_0_t2_the_light_horse_evades_a_charge_from_in_front() {
    // "If MC1 had attacked instead of MC2 it would have started from in front of the
    // front face line of the LC so the LC could have evaded up to its full move of 4H
    // maintaining facing."
    let mut g = t2();
    run(&mut g, &["go mc1 0805"]);
    let d = decision(&g).expect("the evasion is offered");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 4.0", 1), "{d:?}");
}

// ---- 10.0: light cavalry with an impact factor of 0 ----

/// Blue's `blue` against Brown's `brown`, French against French, with a French list that
/// also holds `light_horse_if0`, light cavalry of impact factor 0 (no printed list has
/// one: the tables beside a scenario replace the built-in ones); Blue moves first.
fn with_if0_light_horse(blue: &str, brown: &str) -> Game {
    let dir = crate::common::scratch("if0");
    let tables = dir.join("rulesets/charles_the_bold");
    std::fs::create_dir_all(&tables).unwrap();
    let armies =
        std::fs::read_to_string(crate::common::root().join("rulesets/charles_the_bold/armies.ron"))
            .unwrap();
    let line = r#"      (id: "light_horse_if0", class: B, type: "LC", mp: (4, 4), sp: [3], impact: 0, bp: 1),
      (id: "light_horse","#;
    let armies = armies.replacen(r#"      (id: "light_horse","#, line, 1);
    assert!(armies.contains("light_horse_if0"));
    std::fs::write(tables.join("armies.ron"), armies).unwrap();
    let ron = format!(
        r#"(
    name: "Impact 0", date: "1480", ruleset: "charles_the_bold", turns: 3,
    map: (columns: 12, rows: 10),
    sides: [
        (id: "blue", name: "Blue", army: "french", break_fraction: (1, 1),
         groups: [(id: "blue", name: "Blue command", general: "bg")]),
        (id: "brown", name: "Brown", army: "french", break_fraction: (1, 1),
         groups: [(id: "brown", name: "Brown command", general: "brg")]),
    ],
    first: "blue",
    units: [
        {GENERAL}{blue}
        {BROWN}{brown}
    ],
    at_time_limit: (winner: "brown", level: Minor),
)"#
    );
    let path = crate::common::write(&dir, "position.ron", &ron);
    let mut g = Game::start(&path, crate::common::seed_rolling(&[6, 6, 1, 1]), &[])
        .unwrap_or_else(|e| panic!("{e}"));
    run(&mut g, &["declare blue", "declare brown", "end"]);
    g
}

#[test]
fn ctb_10_0_light_cavalry_of_impact_0_charge_only_skirmishers_or_a_flank_from_behind() {
    // Into the front of formed foot: refused.
    let mut g = with_if0_light_horse(
        &blue("lh", "Light horse", "light_horse_if0", "0905", "W"),
        &brown("hi", "Men at arms", "dismounted_maa", "0705", "E"),
    );
    let r = refused(&mut g, "go lh 0805");
    assert!(
        r.contains("CtB 10.0") && r.contains("only skirmishers, or the flank or rear"),
        "{r}"
    );
    // Skirmishers, even from the front: a charge (they are asked whether they evade).
    let mut g = with_if0_light_horse(
        &blue("lh", "Light horse", "light_horse_if0", "0905", "W"),
        &brown("sk", "Crossbow skirmishers", "crossbow_sk", "0705", "E"),
    );
    run(&mut g, &["go lh 0805"]);
    assert!(
        log_text(&g).contains("Light horse makes contact with Crossbow skirmishers"),
        "{}",
        log_text(&g)
    );
    // The flank of formed foot, from behind its front face line (T2's MC2 position).
    let mut g = with_if0_light_horse(
        &blue("lh", "Light horse", "light_horse_if0", "0606", "NNE"),
        &brown("hi", "Men at arms", "dismounted_maa", "0705", "E"),
    );
    run(&mut g, &["go lh 0706"]);
    assert!(
        log_text(&g).contains("Light horse makes contact with Men at arms"),
        "{}",
        log_text(&g)
    );
}

//! Group moves (CtB 3.8, R-3.8) and the text's A1 example played in a game: three
//! French double bills move together into two triple Low Country pikes; the player
//! names one Battle Stand for each enemy stand and fights the melees in the order he
//! chooses: Bill3 with Bill2 supporting first (7 + 4 = 11D6), then Bill1 with Bill2
//! again, its impact spent (7 + 3 = 10D6). And A2: another command's charge into the
//! flank of Pike1, locked with Bill1, reignites that melee.

use bataille::engine::dice::Dice;
use bataille::engine::game::Game;

use crate::common::{decision, default_retreats, hex, log_text, refused, run, seed_rolling};

/// The French ("blue") win the first initiative 12 to 2 against the Low Countries
/// ("brown"); `units` are every stand.
fn blue_moves(units: &str) -> Game {
    blue_moves_with(units, "")
}

/// As `blue_moves`, with more French groups.
fn blue_moves_with(units: &str, more_groups: &str) -> Game {
    let ron = format!(
        r#"(
    name: "A1", date: "1480", ruleset: "charles_the_bold", turns: 2,
    map: (columns: 10, rows: 9),
    sides: [
        (id: "french", name: "French", army: "french", break_fraction: (1, 1),
         groups: [(id: "blue", name: "Blue command", general: "blue_general"){more_groups}]),
        (id: "flemish", name: "Low Countries", army: "low_countries", break_fraction: (1, 1),
         groups: [(id: "brown", name: "Brown command", general: "brown_general")]),
    ],
    first: "french",
    units: [
        (id: "blue_general", name: "Blue general", side: "french", type: "general", hex: "0108", group: "blue"),
        (id: "brown_general", name: "Brown general", side: "flemish", type: "general", hex: "0908", group: "brown"),
        {units}
    ],
    at_time_limit: (winner: "flemish", level: Minor),
)"#
    );
    let mut g = crate::common::game_of(&ron, seed_rolling(&[6, 6, 1, 1]), &[]);
    run(&mut g, &["declare blue", "declare brown", "end"]);
    g
}

const A1: &str = r#"
        (id: "b1", name: "Bill 1", side: "french", type: "double_bills", hex: "0304", group: "blue", facing: "E"),
        (id: "b2", name: "Bill 2", side: "french", type: "double_bills", hex: "0305", group: "blue", facing: "E"),
        (id: "b3", name: "Bill 3", side: "french", type: "double_bills", hex: "0306", group: "blue", facing: "E"),
        (id: "p1", name: "Pike 1", side: "flemish", type: "pikes", hex: "0505", group: "brown", facing: "W"),
        (id: "p2", name: "Pike 2", side: "flemish", type: "pikes", hex: "0506", group: "brown", facing: "W"),
"#;

/// A1's group move, then the first melee, Bill3 on Pike2 with Bill2, from the dice of
/// `seed`.
fn a1_first_fight(seed: u64) -> Game {
    let mut g = blue_moves(A1);
    run(&mut g, &["group b1 b2 b3 -> 0404"]);
    *g.world.resource_mut::<Dice>() = Dice::new(seed);
    run(&mut g, &["fight b3 -> p2 with b2"]);
    default_retreats(&mut g);
    g
}

#[test]
fn ctb_3_8_a_group_moves_together_and_its_melees_wait_together() {
    let mut g = blue_moves(A1);
    run(&mut g, &["group b1 b2 b3 -> 0404"]);
    assert_eq!(
        ["b1", "b2", "b3"].map(|u| hex(&g, u).unwrap_or_default()),
        ["0404", "0405", "0406"]
    );
    let log = log_text(&g);
    assert!(
        log.contains("Bill 1, Bill 2, Bill 3 move together"),
        "{log}"
    );
    // The first move of the round: no Order Test.
    assert!(!log.contains("Order Test"), "{log}");
    let d = decision(&g).expect("the melees");
    assert_eq!(d.rule, "CtB 10.2");
    // Bill2 touched both pikes: it too waits for a melee of its own.
    assert!(
        d.choices
            .iter()
            .any(|c| c.command.to_string().starts_with("fight b2")),
        "{:?}",
        d.choices
    );
    assert!(d.prompt.contains("in the order you choose"), "{}", d.prompt);
    // Bill3's melee may come first, though Bill1 moved first.
    assert!(
        d.choices
            .iter()
            .any(|c| c.command.to_string() == "fight b3 -> p2 with b2"),
        "{:?}",
        d.choices
    );
}

#[test]
fn ctb_a1_three_double_bills_against_two_triple_pikes() {
    // A seed where Pike2 loses the first melee and falls back, as in the text.
    let seed = (0..3000u64)
        .find(|s| {
            let g = a1_first_fight(*s);
            hex(&g, "p2").as_deref() != Some("0506")
                && g.state_json()["ruleset_state"]["melees"] == 0
        })
        .expect("some seed beats Pike2");
    let mut g = a1_first_fight(seed);
    let log = log_text(&g);
    // Bill3 5 + 2 impact, Bill2 half of 7 rounded up: 11D6.
    assert!(log.contains("Bill 3 in melee: 11D6"), "{log}");
    while let Some(d) = decision(&g).filter(|d| d.rule == "CtB 13.0") {
        let _ = d;
        run(&mut g, &["pursue none"]);
    }
    // Bill1 on Pike1 with Bill2 again, its impact used up: 7 + 3 = 10D6.
    run(&mut g, &["fight b1 -> p1 with b2"]);
    default_retreats(&mut g);
    let log = log_text(&g);
    assert!(log.contains("Bill 1 in melee: 10D6"), "{log}");
    // Pike1 had its Battle Stand: Bill2 fights it no more.
    assert!(
        decision(&g).is_none_or(|d| d
            .choices
            .iter()
            .all(|c| !c.command.to_string().starts_with("fight b2"))),
        "{:?}",
        decision(&g)
    );
}

#[test]
fn ctb_a1_a_support_caught_in_an_ongoing_melee_supports_no_other() {
    // A seed where the first melee is drawn: an ongoing melee holds Bill2 as its
    // support, and it can only support one melee at a time (A1).
    let seed = (0..3000u64)
        .find(|s| a1_first_fight(*s).state_json()["ruleset_state"]["melees"] == 1)
        .expect("some seed draws");
    let mut g = a1_first_fight(seed);
    while decision(&g).is_some_and(|d| d.rule == "CtB 11.1") {
        run(&mut g, &["bounce none"]);
    }
    let r = refused(&mut g, "fight b1 -> p1 with b2");
    assert!(r.contains("CtB 10.7"), "{r}");
    run(&mut g, &["fight b1 -> p1"]);
}

#[test]
fn ctb_3_8_one_body_one_facing_straight_ahead() {
    let turned = A1.replace(
        r#"hex: "0306", group: "blue", facing: "E""#,
        r#"hex: "0306", group: "blue", facing: "SSE""#,
    );
    let mut g = blue_moves(&turned);
    let r = refused(&mut g, "group b1 b2 b3 -> 0404");
    assert!(r.contains("CtB 3.8") && r.contains("one facing"), "{r}");
    let apart = A1.replace(r#"hex: "0306""#, r#"hex: "0308""#);
    let mut g = blue_moves(&apart);
    let r = refused(&mut g, "group b1 b2 b3 -> 0404");
    assert!(r.contains("CtB 3.8") && r.contains("side by side"), "{r}");
    let mut g = blue_moves(A1);
    // 0303 is Bill1's flank, not its front.
    let r = refused(&mut g, "group b1 b2 -> 0303");
    assert!(
        r.contains("CtB 3.8") && r.contains("straight forward"),
        "{r}"
    );
    // A column: Bill2 would step into the hex Bill1 leaves... named the other way, Bill1
    // into Bill2's.
    let column = A1.replace(
        r#"hex: "0305", group: "blue", facing: "E""#,
        r#"hex: "0204", group: "blue", facing: "E""#,
    );
    let mut g = blue_moves(&column);
    let r = refused(&mut g, "group b2 b1 -> 0304");
    assert!(r.contains("abreast"), "{r}");
    // One stand's step refused refuses the whole group, named.
    let mut g = blue_moves(A1);
    let r = refused(&mut g, "group b1 b2 b3 -> 0404 0504");
    assert!(r.contains("in the group move, Bill"), "{r}");
}

#[test]
fn ctb_3_8_one_order_test_for_the_group_extra_move() {
    let far = r#"
        (id: "b1", name: "Bill 1", side: "french", type: "double_bills", hex: "0204", group: "blue", facing: "E"),
        (id: "b2", name: "Bill 2", side: "french", type: "double_bills", hex: "0205", group: "blue", facing: "E"),
        (id: "p1", name: "Pike 1", side: "flemish", type: "pikes", hex: "0905", group: "brown", facing: "W"),
"#;
    let mut g = blue_moves(far);
    run(&mut g, &["group b1 b2 -> 0304"]);
    run(&mut g, &["group b1 b2 -> 0404"]);
    let log = log_text(&g);
    assert_eq!(log.matches("Die: ").count(), 1, "one die for both: {log}");
    assert!(
        log.contains("for the group's Order Test of Bill 1, Bill 2"),
        "{log}"
    );
    // Passed, both moved on; failed, both are disordered and stopped (CtB 3.3).
    let passed = hex(&g, "b1").as_deref() == Some("0404");
    assert_eq!(passed, hex(&g, "b2").as_deref() == Some("0405"), "{log}");
    assert_eq!(
        !passed,
        log.contains("Bill 1, Bill 2 fail their group's Order Test"),
        "{log}"
    );
}

#[test]
fn ctb_3_8_the_window_offers_the_group_its_moves() {
    let g = blue_moves(A1);
    let ids: Vec<_> = ["b1", "b2", "b3"]
        .iter()
        .map(|k| bataille::rulesets::common::unit_by_key(&g.world, k).unwrap())
        .collect();
    let options = g
        .ruleset
        .group_move_options(&g.world, &ids)
        .expect("the group may move");
    let to = options
        .iter()
        .find(|o| o.hex.to_string() == "0404")
        .expect("one hex forward, into contact");
    assert_eq!(to.command.to_string(), "group b1 b2 b3 -> 0404");
    // Contact ends the move: nothing beyond it.
    assert!(options.iter().all(|o| o.path.len() == 1), "{options:?}");
}

// ---- A2: reigniting an ongoing melee (CtB 11.4) ----

const A2_MORE: &str = r#"
        (id: "p3", name: "Pike 3", side: "flemish", type: "pikes", hex: "0605", group: "brown", facing: "W"),
        (id: "p4", name: "Pike 4", side: "flemish", type: "pikes", hex: "0604", group: "brown", facing: "W"),
        (id: "yellow_general", name: "Yellow general", side: "french", type: "general", hex: "0102", group: "yellow"),
        (id: "maa", name: "Men at arms", side: "french", type: "dismounted_maa", hex: "0503", group: "yellow", facing: "SSW"),
"#;

/// A2's position played: A1's group move and two melees (the second from `seeds[1]`
/// drawn), the Blue command's end, the Yellow command winning the next initiative, its
/// men at arms charging into Pike1's flank, that melee from `seeds[2]`.
fn a2(seeds: &[u64]) -> Game {
    let units = format!("{A1}{A2_MORE}");
    let mut g = blue_moves_with(
        &units,
        r#", (id: "yellow", name: "Yellow command", general: "yellow_general")"#,
    );
    run(&mut g, &["group b1 b2 b3 -> 0404"]);
    let dice = |g: &mut Game, s: u64| *g.world.resource_mut::<Dice>() = Dice::new(s);
    dice(&mut g, seeds[0]);
    run(&mut g, &["fight b3 -> p2 with b2"]);
    default_retreats(&mut g);
    while decision(&g).is_some_and(|d| d.rule == "CtB 13.0") {
        run(&mut g, &["pursue none"]);
    }
    if seeds.len() < 2 {
        return g;
    }
    dice(&mut g, seeds[1]);
    run(&mut g, &["fight b1 -> p1 with b2"]);
    default_retreats(&mut g);
    if seeds.len() < 3 {
        return g;
    }
    run(&mut g, &["end", "declare yellow", "declare brown"]);
    dice(&mut g, seed_rolling(&[6, 6, 1, 1]));
    run(&mut g, &["end", "go maa 0504"]);
    dice(&mut g, seeds[2]);
    run(&mut g, &["fight maa -> p1 with b2"]);
    default_retreats(&mut g);
    g
}

/// The first seed under 5000 after which `good` holds of `a2(prefix + seed)`.
fn next_seed(prefix: &[u64], good: impl Fn(&Game) -> bool) -> u64 {
    (0..5000u64)
        .find(|s| {
            let mut seeds = prefix.to_vec();
            seeds.push(*s);
            good(&a2(&seeds))
        })
        .expect("some seed")
}

#[test]
fn ctb_a2_reigniting_an_ongoing_melee() {
    let melees = |g: &Game| {
        g.state_json()["ruleset_state"]["melees"]
            .as_u64()
            .unwrap_or(9)
    };
    let s0 = next_seed(&[], |g| {
        hex(g, "p2").as_deref() != Some("0506") && melees(g) == 0
    });
    // Bill1 and Pike1 drawn: an ongoing melee, Bill2 its support.
    let s1 = next_seed(&[s0], |g| melees(g) == 1);
    // The Yellow men at arms charge Pike1's flank: no fresh fight, the ongoing melee is
    // fought again, Bill2 and the men at arms its supports; Bill1 wins, Pike1 retreats
    // through Pike3 (or Pike4: both stand behind it, A2's "Pike3"), disordering it.
    let s2 = next_seed(&[s0, s1], |g| {
        log_text(g).contains("is disordered by Pike 1 retreating through it")
    });
    let g = a2(&[s0, s1, s2]);
    let log = log_text(&g);
    assert!(
        log.contains("Men at arms charges into the ongoing melee of Bill 1 and Pike 1: it reignites, the charger a support"),
        "{log}"
    );
    // Bill2 and the men at arms both support, each with half its dice (A2).
    assert!(
        log.contains("Men at arms supporting, half of")
            && log.contains("+3 Bill 2 supporting, half of 5"),
        "{log}"
    );
    assert!(log.contains("Bill 1 wins the melee; Pike 1 loses"), "{log}");
    // Though the Blue command has moved, Bill1 may pursue (A2).
    let d = decision(&g).expect("the pursuit");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 13.0", 0), "{d:?}");
    // Its pursuit takes it into the hex Pike1 left, Pike3 and Pike4 in front: a new
    // melee with impact (13.1). Its flank hex there lies in their zone of control, but
    // the zones of the stands a pursuit contacts do not stop it (13.0, A2's "pursue into
    // Pike3"); a 6 is 1H for foot.
    let mut g = g;
    *g.world.resource_mut::<Dice>() = Dice::new(seed_rolling(&[6]));
    run(&mut g, &["pursue b1"]);
    let log = log_text(&g);
    assert!(
        log.contains("Bill 1 pursues") && log.contains("Bill 1's pursuit makes contact"),
        "{log}"
    );
}

// ---- 11.4: contacting a support ----

const SUPPORT_PULLED: &str = r#"
        (id: "b2", name: "Bill 2", side: "french", type: "double_bills", hex: "0305", group: "blue", facing: "E"),
        (id: "b3", name: "Bill 3", side: "french", type: "double_bills", hex: "0306", group: "blue", facing: "E"),
        (id: "p2", name: "Pike 2", side: "flemish", type: "pikes", hex: "0506", group: "brown", facing: "W"),
        (id: "p4", name: "Pike 4", side: "flemish", type: "pikes", hex: "0403", group: "brown", facing: "SSE"),
"#;

/// Bill3 with Bill2 supporting fights Pike2 from `seed`.
fn supported_melee(seed: u64) -> Game {
    let mut g = blue_moves(SUPPORT_PULLED);
    run(&mut g, &["group b2 b3 -> 0405"]);
    *g.world.resource_mut::<Dice>() = Dice::new(seed);
    run(&mut g, &["fight b3 -> p2 with b2"]);
    g
}

#[test]
fn ctb_11_4_contacting_only_a_support_pulls_it_out_into_a_new_battle() {
    let seed = (0..3000u64)
        .find(|s| supported_melee(*s).state_json()["ruleset_state"]["melees"] == 1)
        .expect("some seed draws");
    let mut g = supported_melee(seed);
    // Bill2 supported that melee: it fights Pike2 in no melee of its own (A1).
    assert!(decision(&g).is_none(), "{:?}", decision(&g));
    // The Low Countries, alone to move, charge Bill2 with Pike4 from the north,
    // touching neither Bill3 nor Pike2's melee.
    run(&mut g, &["end", "declare brown", "end", "go p4 0404"]);
    let d = decision(&g).expect("the new melee");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 10.2", 1), "{d:?}");
    run(&mut g, &["fight p4 -> b2"]);
    let log = log_text(&g);
    assert!(
        log.contains("Bill 2 is pulled out of the melee of Bill 3 and Pike 2 it supported: a new battle, it the Battle Stand"),
        "{log}"
    );
}

// ---- 10.7: the defender's supports ----

const DEFENDER_SUPPORT: &str = r#"
        (id: "b2", name: "Bill 2", side: "french", type: "double_bills", hex: "0305", group: "blue", facing: "E"),
        (id: "p1", name: "Pike 1", side: "flemish", type: "pikes", hex: "0505", group: "brown", facing: "W"),
        (id: "p2", name: "Pike 2", side: "flemish", type: "pikes", hex: "0506", group: "brown", facing: "W"),
"#;

/// Bill2 charges into both pikes and fights Pike2: Pike1, its front on Bill2, may
/// support it.
fn pike1_may_support(seed: u64) -> Game {
    let mut g = blue_moves(DEFENDER_SUPPORT);
    run(&mut g, &["go b2 0405"]);
    *g.world.resource_mut::<Dice>() = Dice::new(seed);
    run(&mut g, &["fight b2 -> p2"]);
    g
}

#[test]
fn ctb_10_7_the_defender_chooses_its_supports_before_the_dice() {
    let mut g = pike1_may_support(1);
    let d = decision(&g).expect("the defender's supports");
    assert_eq!((d.rule.as_str(), d.side.0), ("CtB 10.7", 1), "{d:?}");
    let answers: Vec<String> = d.choices.iter().map(|c| c.command.to_string()).collect();
    assert_eq!(answers, ["support p1", "support none"]);
    // No die is thrown until the defender answers.
    assert!(!log_text(&g).contains("in melee"), "{}", log_text(&g));
    // Only an eligible stand of the defender's may support; the attacker waits.
    assert!(refused(&mut g, "support b2").contains("CtB 10.7"));
    assert!(refused(&mut g, "end").contains("CtB 10.7"));
    run(&mut g, &["support none"]);
    let alone = log_text(&g);
    assert!(alone.contains("Pike 2 fights without support"), "{alone}");
    let pike2_pool = alone
        .lines()
        .find(|l| l.contains("Pike 2: +"))
        .expect("Pike 2's pool")
        .to_string();
    assert!(!pike2_pool.contains("Pike 1"), "{pike2_pool}");

    // Supported, the same melee adds half of Pike1's dice to Pike2's pool.
    let mut g = pike1_may_support(1);
    run(&mut g, &["support p1"]);
    let supported = log_text(&g);
    assert!(
        supported.contains("Pike 2 is supported by Pike 1"),
        "{supported}"
    );
    let pike2_pool = supported
        .lines()
        .find(|l| l.contains("Pike 2: +"))
        .expect("Pike 2's pool")
        .to_string();
    assert!(pike2_pool.contains("Pike 1"), "{pike2_pool}");
}

// ---- 12.0: the owner's choice of retreat ----

#[test]
fn ctb_12_0_the_owner_chooses_among_equally_preferred_retreat_hexes() {
    // Pike2, facing west, beaten by Bill2 from the west: its two rear hexes are equally
    // far from the winner and clear, so its owner chooses.
    let beaten = |seed: u64| {
        let mut g = pike1_may_support(seed);
        run(&mut g, &["support none"]);
        g
    };
    let seed = (0..3000u64)
        .find(|s| decision(&beaten(*s)).is_some_and(|d| d.rule == "CtB 12.0"))
        .expect("some seed beats Pike2");
    let g = beaten(seed);
    let d = decision(&g).expect("the retreat");
    assert_eq!(d.side.0, 1, "the Low Countries retreat their pike: {d:?}");
    assert!(d.prompt.starts_with("Pike 2 retreats"), "{}", d.prompt);
    let ends: Vec<String> = d
        .choices
        .iter()
        .map(|c| c.hex.expect("each choice is a hex").to_string())
        .collect();
    assert!(ends.len() >= 2, "{ends:?}");
    let mut unique = ends.clone();
    unique.dedup();
    assert_eq!(unique, ends, "one choice per hex");
    // The pike does not move until its owner answers.
    assert_eq!(hex(&g, "p2").as_deref(), Some("0506"));
    for (i, end) in ends.iter().enumerate() {
        let mut g = beaten(seed);
        assert!(refused(&mut g, "retreat 0101").contains("CtB 12.0"));
        assert!(refused(&mut g, "end").contains("CtB 12.0"));
        run(&mut g, &[&d.choices[i].command.to_string()]);
        assert_eq!(hex(&g, "p2").as_deref(), Some(end.as_str()));
        assert!(
            log_text(&g).contains(&format!("Pike 2 retreats 0506 → {end}")),
            "{}",
            log_text(&g)
        );
    }
}

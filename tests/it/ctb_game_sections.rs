//! Charles the Bold played on, from the small Falkirk fixture and small positions:
//! impetuous stands (CtB 9.0-9.3), supporting fire (6.3), replacement generals (2.2),
//! ongoing melees and their reignitions (11.1-11.4), and supporting skirmishers (10.6);
//! the first sections are in `ctb_game.rs`.

use bataille::engine::game::Game;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::common::{decision, hex, log_text, refused, run, seed_rolling};
use crate::ctb_game::{drive, english_move, knights_against_schiltron, small_falkirk};

// ---- impetuous stands (CtB 9.0-9.3) ----

#[test]
fn ctb_9_1_poor_impetuous_must_charge_or_test_before_end() {
    // Both knights (Imp P) began within 5H of a schiltron they see in front.
    let mut g = english_move("marshal", &[]);
    let r = refused(&mut g, "end");
    assert!(
        r.contains("CtB 9.1") && r.contains("Knights 1, Knights 2"),
        "{r}"
    );
    // A step that does not close on the nearest is refused; one that does is taken.
    let r = refused(&mut g, "go k2 cw");
    assert!(r.contains("CtB 9.1") && r.contains("Schiltron 1"), "{r}");
    // "move straight ahead a full move towards the nearest enemy": a move that could
    // go on towards it stops short (R-9.1).
    let r = refused(&mut g, "go k2 0804");
    assert!(
        r.contains("CtB 9.1") && r.contains("a full move") && r.contains("could go on to 0705"),
        "{r}"
    );
    run(&mut g, &["go k2 0804 0705 0605"]);
    let r = refused(&mut g, "end");
    assert!(r.contains("Knights 1") && !r.contains("Knights 2"), "{r}");
    // The mounted crossbow is not impetuous: it may go where it likes.
    run(&mut g, &["go xb 1005"]);
    run(&mut g, &["go k1 0803 0704 0604", "end"]);
    // The activation is over: the next choice of groups.
    assert_eq!(decision(&g).map(|d| d.rule).as_deref(), Some("CtB 1.4"));
}

#[test]
fn ctb_9_1_order_test_for_opportunity_instead_and_a_failure_advances() {
    // Knights 1 (class C, 5+, Norfolk attached +1): a 4 passes.
    let mut g = english_move("marshal", &[4]);
    run(&mut g, &["opportunity k1"]);
    assert!(
        log_text(&g).contains("Knights 1 goes on opportunity"),
        "{}",
        log_text(&g)
    );
    let r = refused(&mut g, "end");
    assert!(r.contains("Knights 2") && !r.contains("Knights 1"), "{r}");
    run(&mut g, &["go k2 0804 0705 0605", "end"]);
    // A 3 fails: it must advance.
    let mut g = english_move("marshal", &[3]);
    run(&mut g, &["opportunity k1", "go k2 0804 0705 0605"]);
    assert!(
        log_text(&g).contains("fails its test for opportunity: impetuous, it must advance"),
        "{}",
        log_text(&g)
    );
    let r = refused(&mut g, "opportunity k1");
    assert!(r.contains("CtB 5.0") && r.contains("first action"), "{r}");
    let r = refused(&mut g, "end");
    assert!(r.contains("CtB 9.1") && r.contains("Knights 1"), "{r}");
    run(&mut g, &["go k1 0803 0704 0604", "end"]);
}

#[test]
fn ctb_3_3_impetuous_second_move_to_contact_untested() {
    let mut g = english_move("marshal", &[]);
    run(&mut g, &["go k2 0804 0705 0605", "go k2 0505"]);
    let log = log_text(&g);
    assert!(
        log.contains("Knights 2 is impetuous: its second move, to contact, needs no Order Test"),
        "{log}"
    );
    assert!(!log.contains("Order Test of Knights 2"), "{log}");
    // A second move that does not reach contact is tested as any other (CtB 3.3).
    let mut g = english_move("marshal", &[6]);
    run(&mut g, &["go k1 0802 0702 0602", "go k1 0603"]);
    assert!(
        log_text(&g).contains("Order Test of Knights 1"),
        "{}",
        log_text(&g)
    );
}

#[test]
fn ctb_9_3_half_sp_ends_impetus() {
    use bataille::rulesets::charles_the_bold::{impetuous, results};
    let mut g = english_move("marshal", &[]);
    let (k1, k2) = (unit(&g, "k1"), unit(&g, "k2"));
    // Knights have 7 SP: 4 lost is half or more, 3 is not (R-9.3).
    results::lose_sp(&mut g.world, k1, 4, "test");
    results::lose_sp(&mut g.world, k2, 3, "test");
    assert!(impetuous::impetus(&g.world, k1).is_none());
    assert!(impetuous::impetus(&g.world, k2).is_some());
    let r = refused(&mut g, "end");
    assert!(r.contains("Knights 2") && !r.contains("Knights 1"), "{r}");
    run(&mut g, &["go k1 1003"]);
}

#[test]
fn ctb_9_3_not_against_skirmishers_nor_foot_against_cavalry_nor_unseen() {
    // The knights see only skirmishers: not compelled.
    let mut g = duke_against_swiss(
        r#"(id: "g1", name: "Gendarmes", side: "burgundians", type: "gendarmes", hex: "0505", group: "duke", facing: "W"),"#,
        r#"(id: "sk", name: "Swiss shot", side: "swiss", type: "swiss_shot", hex: "0305", group: "bern", facing: "E"),"#,
        "burgundians",
    );
    run(&mut g, &["go g1 0605", "end"]);
    // Swiss pikes (impetuous foot) are not compelled by gendarmes 2H away.
    let mut g = duke_against_swiss(
        r#"(id: "g1", name: "Gendarmes", side: "burgundians", type: "gendarmes", hex: "0505", group: "duke", facing: "W"),"#,
        r#"(id: "p", name: "Pike block", side: "swiss", type: "pike_block", hex: "0305", group: "bern", facing: "E"),"#,
        "swiss",
    );
    run(&mut g, &["go p 0205", "end"]);
    // ... but the steady gendarmes are by the pikes, unless a friend blocks the sight.
    // The pikes in 0304, on the straight line from 0505 through 0404.
    let pikes = r#"(id: "p", name: "Pike block", side: "swiss", type: "pike_block", hex: "0304", group: "bern", facing: "E"),"#;
    let mut g = duke_against_swiss(
        r#"(id: "g1", name: "Gendarmes", side: "burgundians", type: "gendarmes", hex: "0505", group: "duke", facing: "W"),"#,
        pikes,
        "burgundians",
    );
    let r = refused(&mut g, "go g1 0605");
    assert!(r.contains("CtB 9.2") && r.contains("Pike block"), "{r}");
    let mut g = duke_against_swiss(
        r#"(id: "g1", name: "Gendarmes", side: "burgundians", type: "gendarmes", hex: "0505", group: "duke", facing: "W"),
        (id: "x", name: "Crossbowmen", side: "burgundians", type: "crossbowmen", hex: "0404", group: "duke", facing: "W"),"#,
        pikes,
        "burgundians",
    );
    run(&mut g, &["go g1 0605", "end"]);
}

#[test]
fn ctb_9_2_steady_may_stand_still_but_moves_only_at_the_enemy() {
    let mut g = duke_against_swiss(
        r#"(id: "b", name: "Pikemen", side: "burgundians", type: "pikemen", hex: "0505", group: "duke", facing: "W"),"#,
        r#"(id: "p", name: "Pike block", side: "swiss", type: "pike_block", hex: "0305", group: "bern", facing: "E"),"#,
        "swiss",
    );
    let r = refused(&mut g, "go p 0205");
    assert!(r.contains("CtB 9.2") && r.contains("Pikemen"), "{r}");
    // Standing completely still is its right (CtB 9.2).
    run(&mut g, &["end"]);
}

// ---- supporting fire (CtB 6.3) ----

/// Burgundians of the Duke's group against Swiss of Bern's, on clear ground; `first`
/// declares first and wins the initiative 12 to 2.
fn duke_against_swiss(burgundians: &str, swiss: &str, first: &str) -> Game {
    duke_against_swiss_on("(columns: 10, rows: 8)", burgundians, swiss, first)
}

/// As `duke_against_swiss`, on `map`.
pub(crate) fn duke_against_swiss_on(
    map: &str,
    burgundians: &str,
    swiss: &str,
    first: &str,
) -> Game {
    let ron = format!(
        r#"(
    name: "Grandson skirmish", date: "1476", ruleset: "charles_the_bold", turns: 3,
    map: {map},
    sides: [
        (id: "burgundians", name: "Burgundians", army: "burgundian", break_fraction: (1, 1),
         groups: [(id: "duke", name: "The Duke's battle", general: "charles")]),
        (id: "swiss", name: "Swiss", army: "swiss", break_fraction: (1, 1),
         groups: [(id: "bern", name: "Bern", general: "bern")]),
    ],
    first: "{first}",
    units: [
        (id: "charles", name: "Charles", side: "burgundians", type: "general", hex: "0808", group: "duke"),
        {burgundians}
        (id: "bern", name: "Bern's captain", side: "swiss", type: "general", hex: "0108", group: "bern"),
        {swiss}
    ],
    at_time_limit: (winner: "swiss", level: Minor),
)"#
    );
    let mut g = crate::common::game_of(&ron, seed_rolling(&[6, 6, 1, 1]), &[]);
    let (a, b) = if first == "swiss" {
        ("bern", "duke")
    } else {
        ("duke", "bern")
    };
    run(
        &mut g,
        &[&format!("declare {a}"), &format!("declare {b}"), "end"],
    );
    g
}

/// The Swiss pike block (0305, facing E) charges the Burgundian pikemen in 0505 by
/// 0405, with these Burgundian stands beside.
fn pike_charge(beside: &str) -> Game {
    pike_charge_on("(columns: 10, rows: 8)", beside)
}

/// As `pike_charge`, on `map`.
fn pike_charge_on(map: &str, beside: &str) -> Game {
    let mut g = duke_against_swiss_on(
        map,
        &format!(
            r#"(id: "b", name: "Pikemen", side: "burgundians", type: "pikemen", hex: "0505", group: "duke", facing: "W"),
            {beside}"#
        ),
        r#"(id: "p", name: "Pike block", side: "swiss", type: "pike_block", hex: "0305", group: "bern", facing: "E"),"#,
        "swiss",
    );
    run(&mut g, &["go p 0405"]);
    g
}

#[test]
fn ctb_6_3_supporting_shot_half_rounded_up() {
    // Crossbowmen (4 SP) in 0306 facing E have 0405 in front: a support of the pikemen.
    let mut g = pike_charge(
        r#"(id: "x", name: "Crossbowmen", side: "burgundians", type: "crossbowmen", hex: "0306", group: "duke", facing: "E"),"#,
    );
    let d = decision(&g).expect("supporting fire is offered");
    assert_eq!(d.rule, "CtB 6.3", "{d:?}");
    assert_eq!(d.side.0, 0, "the Burgundians, the defending side");
    assert!(
        d.choices
            .iter()
            .any(|c| c.command.to_string() == "react fire x -> p"),
        "{d:?}"
    );
    let r = refused(&mut g, "react fire b -> p");
    assert!(r.contains("CtB 6.3"), "{r}");
    run(&mut g, &["react fire x -> p"]);
    let log = log_text(&g);
    assert!(
        log.contains("Crossbowmen supporting fire at Pike block: 2D6"),
        "{log}"
    );
    assert_eq!(decision(&g).map(|d| d.rule).as_deref(), Some("CtB 10.2"));
    // Disordered, 4 − 1 = 3 dice, halved rounded up: 2.
    let mut g = duke_against_swiss(
        r#"(id: "b", name: "Pikemen", side: "burgundians", type: "pikemen", hex: "0505", group: "duke", facing: "W"),
        (id: "x", name: "Crossbowmen", side: "burgundians", type: "crossbowmen", hex: "0306", group: "duke", facing: "E"),"#,
        r#"(id: "p", name: "Pike block", side: "swiss", type: "pike_block", hex: "0305", group: "bern", facing: "E"),"#,
        "swiss",
    );
    let x = unit(&g, "x");
    g.world
        .get_mut::<bataille::rulesets::charles_the_bold::CtbStatus>(entity_of(&g, x))
        .unwrap()
        .disordered = true;
    let p = bataille::rulesets::charles_the_bold::reactions::supporting_pool(&g.world, x);
    assert_eq!(p.dice(), 2, "{p:?}");
}

#[test]
fn ctb_6_3_supporting_art_full_sk_full_then_destroyed() {
    let mut g = pike_charge(
        r#"(id: "art", name: "Artillery", side: "burgundians", type: "artillery", hex: "0306", group: "duke", facing: "E"),
        (id: "sk", name: "Culveriniers", side: "burgundians", type: "culveriniers", hex: "0406", group: "duke", facing: "NNE"),"#,
    );
    let mut offered = Vec::new();
    while let Some(d) = decision(&g).filter(|d| d.rule == "CtB 6.3") {
        let fire = d.choices[0].command.to_string();
        offered.push(fire.clone());
        run(&mut g, &[&fire]);
    }
    offered.sort();
    assert_eq!(offered, ["react fire art -> p", "react fire sk -> p"]);
    let log = log_text(&g);
    // Artillery 3 SP and skirmishers 2 SP, in full.
    assert!(
        log.contains("Artillery supporting fire at Pike block: 3D6"),
        "{log}"
    );
    assert!(
        log.contains("Culveriniers supporting fire at Pike block: 2D6"),
        "{log}"
    );
    assert!(
        log.contains("Culveriniers fired in support out of cover: destroyed"),
        "{log}"
    );
    assert_eq!(hex(&g, "sk"), None);
    assert_eq!(decision(&g).map(|d| d.rule).as_deref(), Some("CtB 10.2"));
}

#[test]
fn ctb_6_3_skirmishers_in_cover_may_hold_their_fire_and_live() {
    // In the open they may not (CtB 10.6: evade, or fire and die).
    let mut g = pike_charge(
        r#"(id: "sk", name: "Culveriniers", side: "burgundians", type: "culveriniers", hex: "0406", group: "duke", facing: "NNE"),"#,
    );
    assert!(refused(&mut g, "react none").contains("CtB 10.6"));
    // In a village (cover) they may.
    let mut g = pike_charge_on(
        r#"(columns: 10, rows: 8, terrain: {"village": ["0406"]})"#,
        r#"(id: "sk", name: "Culveriniers", side: "burgundians", type: "culveriniers", hex: "0406", group: "duke", facing: "NNE"),"#,
    );
    run(&mut g, &["react none"]);
    assert!(log_text(&g).contains("Culveriniers holds its supporting fire"));
    assert_eq!(hex(&g, "sk").as_deref(), Some("0406"));
    assert_eq!(decision(&g).map(|d| d.rule).as_deref(), Some("CtB 10.2"));
}

// ---- replacement generals (CtB 2.2) ----

#[test]
fn ctb_2_2_killed_with_stand_replaced_4h_minus_2() {
    use bataille::rulesets::charles_the_bold::{activation, results};
    let mut g = english_move("marshal", &[]);
    // Knights 1 destroyed with Norfolk attached in 0903: he dies with them.
    let k1 = unit(&g, "k1");
    results::destroy(&mut g.world, k1, "test", true);
    assert_eq!(hex(&g, "norfolk"), None);
    assert!(log_text(&g).contains("Norfolk is killed with the stand"));
    run(&mut g, &["go k2 0804 0705 0605"]);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..60 {
        if g.turn().turn == 2 {
            break;
        }
        drive(&mut g, &mut rng);
    }
    assert_eq!(g.turn().turn, 2, "{}", log_text(&g));
    let log = log_text(&g);
    // Knights 2 charged on to 0605; the crossbow in 0905, 2 hexes from 0903, is the
    // group's nearest stand (R-2.1).
    assert!(
        log.contains("A new commander takes Norfolk's place with First battle in 0905: poor, command range 4H, initiative -2 (CtB 2.2)"),
        "{log}"
    );
    assert_eq!(hex(&g, "norfolk").as_deref(), Some("0905"));
    let marshal = 0;
    assert_eq!(activation::group_bonus(&g.world, marshal), -2);
}

#[test]
fn ctb_2_2_no_stand_left_no_replacement() {
    use bataille::rulesets::charles_the_bold::{results, setup};
    let mut g = small_falkirk(1);
    for id in ["k1", "k2", "xb"] {
        let u = unit(&g, id);
        results::destroy(&mut g.world, u, "test", false);
    }
    setup::start_of_round(&mut g.world);
    assert_eq!(hex(&g, "norfolk"), None);
    assert!(
        log_text(&g).contains("First battle has no stand left: no new commander for Norfolk"),
        "{}",
        log_text(&g)
    );
}

fn unit(g: &Game, id: &str) -> bataille::engine::units::UnitId {
    bataille::rulesets::common::unit_by_key(&g.world, id).expect("a unit")
}

fn entity_of(g: &Game, id: bataille::engine::units::UnitId) -> bevy::prelude::Entity {
    bataille::rulesets::common::entity(&g.world, id)
}

/// English foot `e1` (0605) and `e2` (0706), both facing W, against a Scots schiltron
/// in 0405 facing E; the English move first and win the initiative.
fn foot_against_schiltron(seed_after: u64) -> Game {
    let ron = r#"(
    name: "Reignition", date: "1298", ruleset: "charles_the_bold", turns: 2,
    map: (columns: 10, rows: 8),
    sides: [
        (id: "english", name: "English", army: "english", break_fraction: (1, 1),
         groups: [(id: "foot", name: "Foot", general: "captain")]),
        (id: "scots", name: "Scots", army: "scots", break_fraction: (1, 1),
         groups: [(id: "wallace", name: "Wallace", general: "wallace")]),
    ],
    first: "english",
    units: [
        (id: "captain", name: "Captain", side: "english", type: "general", hex: "0808", group: "foot"),
        (id: "e1", name: "English foot 1", side: "english", type: "english_foot", hex: "0605", group: "foot", facing: "W"),
        (id: "e2", name: "English foot 2", side: "english", type: "english_foot", hex: "0706", group: "foot", facing: "W"),
        (id: "wallace", name: "Wallace", side: "scots", type: "general", hex: "0101", group: "wallace"),
        (id: "s", name: "Schiltron", side: "scots", type: "schiltron", hex: "0405", group: "wallace", facing: "E"),
    ],
    at_time_limit: (winner: "scots", level: Minor),
)"#;
    let mut g = crate::common::game_of(ron, seed_rolling(&[6, 6, 1, 1]), &[]);
    run(
        &mut g,
        &["declare foot", "declare wallace", "end", "go e1 0505"],
    );
    *g.world.resource_mut::<bataille::engine::dice::Dice>() =
        bataille::engine::dice::Dice::new(seed_after);
    run(&mut g, &["fight e1 -> s"]);
    g
}

#[test]
fn ctb_11_4_a_charge_into_an_ongoing_melee_reignites_it() {
    // The first melee ends equal (an ongoing melee, CtB 11.3) from some seed.
    let mut g = (0..500)
        .map(foot_against_schiltron)
        .find(|g| g.state_json()["ruleset_state"]["melees"] == 1)
        .expect("some seed leaves the melee ongoing");
    // The second foot stand charges the schiltron: the melee of English foot 1 and the
    // schiltron is fought again, the newcomer a support with half its dice (CtB 11.4,
    // 10.7), its impact in its half (R-supports-A1).
    run(&mut g, &["go e2 0606 0506"]);
    assert_eq!(
        decision(&g).map(|d| d.rule),
        Some("CtB 10.2".to_string()),
        "{}",
        log_text(&g)
    );
    let preview = g
        .ruleset
        .attack_preview(
            &g.world,
            &bataille::rulesets::parse_line("fight e2 -> s")
                .unwrap()
                .unwrap(),
        )
        .unwrap();
    assert!(
        preview.odds.starts_with("English foot 1"),
        "{}\n{}\n{}",
        preview.odds,
        g.state_json()["ruleset_state"],
        log_text(&g)
    );
    assert!(
        preview
            .modifiers
            .iter()
            .any(|m| m.contains("English foot 2 supporting, half of 6")),
        "{:?}",
        preview.modifiers
    );
    run(&mut g, &["fight e2 -> s"]);
    assert!(
        log_text(&g).contains("it reignites, the charger a support"),
        "{}",
        log_text(&g)
    );
}

#[test]
fn ctb_11_1_heavy_cavalry_choose_to_stay_or_bounce() {
    // Knights 2 (HC) and Schiltron 1 end their melee equal from some seed: the knights'
    // player is asked whether they stay in contact or bounce (CtB 11.1).
    let locked = |seed: u64| {
        let mut g = knights_against_schiltron();
        *g.world.resource_mut::<bataille::engine::dice::Dice>() =
            bataille::engine::dice::Dice::new(seed);
        run(&mut g, &["fight k2 -> s1"]);
        g
    };
    let seed = (0..2000u64)
        .find(|s| decision(&locked(*s)).is_some_and(|d| d.rule == "CtB 11.1"))
        .expect("some seed leaves the knights locked in an ongoing melee");
    let mut stay = locked(seed);
    assert_eq!(decision(&stay).unwrap().side.0, 0, "the English decide");
    run(&mut stay, &["bounce none"]);
    assert_eq!(hex(&stay, "k2").as_deref(), Some("0505"));
    assert_eq!(stay.state_json()["ruleset_state"]["melees"], 1);
    let mut away = locked(seed);
    assert!(refused(&mut away, "bounce k1").contains("only Knights 2 may bounce"));
    run(&mut away, &["bounce k2"]);
    crate::common::default_retreats(&mut away);
    assert_ne!(hex(&away, "k2").as_deref(), Some("0505"));
    assert_eq!(away.state_json()["ruleset_state"]["melees"], 0);
    assert!(log_text(&away).contains("Knights 2 bounces back, disordered"));
}

#[test]
fn ctb_11_3_an_ongoing_melee_is_fought_when_its_player_chooses_before_end() {
    let mut g = (0..500)
        .map(foot_against_schiltron)
        .find(|g| g.state_json()["ruleset_state"]["melees"] == 1)
        .expect("some seed leaves the melee ongoing");
    // Fought this round already: the English may end, and the Scots after them.
    run(&mut g, &["end", "declare wallace", "end", "end"]);
    // Round 2: the English win the initiative.
    run(&mut g, &["declare foot", "declare wallace"]);
    *g.world.resource_mut::<bataille::engine::dice::Dice>() =
        bataille::engine::dice::Dice::new(seed_rolling(&[6, 6, 1, 1]));
    run(&mut g, &["end"]);
    assert!(
        log_text(&g).ends_with("English move Foot (CtB 1.4)"),
        "{}",
        log_text(&g)
    );
    // Nothing is forced on them at the start (R-ongoing): the player chooses when, and
    // moves another stand first.
    assert!(decision(&g).is_none(), "{:?}", decision(&g));
    run(&mut g, &["go e2 cw"]);
    let r = refused(&mut g, "end");
    assert!(
        r.contains("CtB 11.3") && r.contains("`fight e1 -> s`"),
        "{r}"
    );
    run(&mut g, &["fight e1 -> s"]);
    assert!(
        log_text(&g)
            .lines()
            .rev()
            .any(|l| l.starts_with("English foot 1: +")),
        "{}",
        log_text(&g)
    );
    // Fought once this round: not again.
    if decision(&g).is_none() && g.state_json()["ruleset_state"]["melees"] == 1 {
        let r = refused(&mut g, "fight e1 -> s");
        assert!(r.contains("fought this round"), "{r}");
    }
}

/// English foot 1 locked with the schiltron after a drawn melee (from `seeds[0]`), then
/// English foot 2, in contact from the start with a second schiltron and touching the
/// first, fights the second from `seeds[1]`.
fn victor_beside_an_ongoing_melee(seeds: [u64; 2]) -> Game {
    let ron = r#"(
    name: "Reignition", date: "1298", ruleset: "charles_the_bold", turns: 2,
    map: (columns: 10, rows: 8),
    sides: [
        (id: "english", name: "English", army: "english", break_fraction: (1, 1),
         groups: [(id: "foot", name: "Foot", general: "captain")]),
        (id: "scots", name: "Scots", army: "scots", break_fraction: (1, 1),
         groups: [(id: "wallace", name: "Wallace", general: "wallace")]),
    ],
    first: "english",
    units: [
        (id: "captain", name: "Captain", side: "english", type: "general", hex: "0808", group: "foot"),
        (id: "e1", name: "English foot 1", side: "english", type: "english_foot", hex: "0605", group: "foot", facing: "W"),
        (id: "e2", name: "English foot 2", side: "english", type: "english_foot", hex: "0506", group: "foot", facing: "W"),
        (id: "wallace", name: "Wallace", side: "scots", type: "general", hex: "0101", group: "wallace"),
        (id: "s", name: "Schiltron", side: "scots", type: "schiltron", hex: "0405", group: "wallace", facing: "E"),
        (id: "s2", name: "Schiltron 2", side: "scots", type: "schiltron", hex: "0406", group: "wallace", facing: "E"),
    ],
    at_time_limit: (winner: "scots", level: Minor),
)"#;
    let mut g = crate::common::game_of(ron, seed_rolling(&[6, 6, 1, 1]), &[]);
    run(
        &mut g,
        &["declare foot", "declare wallace", "end", "go e1 0505"],
    );
    let dice = |g: &mut Game, s: u64| {
        *g.world.resource_mut::<bataille::engine::dice::Dice>() =
            bataille::engine::dice::Dice::new(s)
    };
    dice(&mut g, seeds[0]);
    run(&mut g, &["fight e1 -> s"]);
    dice(&mut g, seeds[1]);
    if g.state_json()["ruleset_state"]["melees"] == 1 && decision(&g).is_none() {
        run(&mut g, &["fight e2 -> s2"]);
        crate::common::default_retreats(&mut g);
    }
    g
}

#[test]
fn ctb_11_4_a_victor_touching_an_ongoing_melee_joins_it_rather_than_pursuing() {
    let s0 = (0..2000u64)
        .find(|s| {
            let g = victor_beside_an_ongoing_melee([*s, 0]);
            log_text(&g).contains("English foot 1 and Schiltron stay locked")
        })
        .expect("some seed draws the first melee");
    let s1 = (0..2000u64)
        .find(|s| {
            let g = victor_beside_an_ongoing_melee([s0, *s]);
            let log = log_text(&g);
            log.contains("English foot 2 wins the melee; Schiltron 2 loses")
                && log.contains("Schiltron 2 retreats")
        })
        .expect("some seed beats the second schiltron");
    let mut g = victor_beside_an_ongoing_melee([s0, s1]);
    let log = log_text(&g);
    assert!(
        log.contains("English foot 2 has beaten its enemy and touches Schiltron in front, locked in an ongoing melee"),
        "{log}"
    );
    // No pursuit is offered: the melee is fought again at once, the victor a support.
    let d = decision(&g).expect("the reignited melee");
    assert_eq!(d.rule, "CtB 10.2", "{d:?}");
    run(&mut g, &["fight e2 -> s"]);
    let log = log_text(&g);
    assert!(
        log.contains("English foot 2 joins the ongoing melee of English foot 1 and Schiltron: it reignites, English foot 2 a support"),
        "{log}"
    );
    assert!(log.contains("English foot 2 supporting, half of"), "{log}");
}

#[test]
fn ctb_9_3_impetuous_stands_do_not_cross_the_creek_they_defend() {
    let gendarmes = r#"(id: "g1", name: "Gendarmes", side: "burgundians", type: "gendarmes", hex: "0505", group: "duke", facing: "W"),"#;
    let pikes = r#"(id: "p", name: "Pike block", side: "swiss", type: "pike_block", hex: "0304", group: "bern", facing: "E"),"#;
    // Without the creek, the steady gendarmes move only at the pikes (CtB 9.2).
    let mut g = duke_against_swiss(gendarmes, pikes, "burgundians");
    assert!(refused(&mut g, "go g1 0605").contains("CtB 9.2"));
    // A creek along both their front hexsides: they defend it and are free.
    let creek = r#"(columns: 10, rows: 8, hexsides: [
        (between: ("0505", "0404"), features: [stream]),
        (between: ("0505", "0405"), features: [stream]),
    ])"#;
    let mut g = duke_against_swiss_on(creek, gendarmes, pikes, "burgundians");
    run(&mut g, &["go g1 0605", "end"]);
}

#[test]
fn ctb_10_6_supporting_skirmishers_in_the_open_evade_or_fire_and_die() {
    // Culveriniers (Sk) in 0306 facing E have 0405 in front: a support of the pikemen.
    let sk = r#"(id: "c", name: "Culveriniers", side: "burgundians", type: "culveriniers", hex: "0306", group: "duke", facing: "E"),"#;
    let mut g = pike_charge(sk);
    let d = decision(&g).expect("supporting fire is offered");
    assert_eq!(d.rule, "CtB 6.3", "{d:?}");
    let labels: Vec<&str> = d.choices.iter().map(|c| c.label.as_str()).collect();
    // Fire, or evade to any hex an evasion may end in (CtB 4.0), the default first; no
    // holding in the open.
    assert_eq!(labels[0], "fire", "{labels:?}");
    let ends: Vec<&str> = labels[1..]
        .iter()
        .map(|l| l.strip_prefix("evade to ").expect("an evasion's hex"))
        .collect();
    assert!(ends.len() >= 2, "{labels:?}");
    let r = refused(&mut g, "react none");
    assert!(r.contains("CtB 10.6") && r.contains("must evade"), "{r}");
    // `evade c` takes the default way; each other hex offered is taken as asked.
    let other = ends[ends.len() - 1].to_string();
    let mut chosen = pike_charge(sk);
    run(&mut chosen, &[&format!("evade c {other}")]);
    assert_eq!(hex(&chosen, "c").as_deref(), Some(other.as_str()));
    run(&mut g, &["evade c"]);
    let log = log_text(&g);
    assert!(
        log.contains(&format!(
            "Culveriniers evades Pike block instead of supporting: 0306 → {}",
            ends[0]
        )),
        "{log}"
    );
    assert_eq!(hex(&g, "c").as_deref(), Some(ends[0]));
    // The melee comes next, without them.
    assert_eq!(decision(&g).map(|d| d.rule).as_deref(), Some("CtB 10.2"));
}

#[test]
fn ctb_10_6_a_break_off_asked_first_then_the_impetuous_stands_are_compelled() {
    // The Duke's battle begins its activation: the culveriniers (0208, facing W) have
    // Swiss shot in front of them and more than one hex to fall back to, so their owner
    // chooses; the steady gendarmes (0505, facing W), within reach of the pike block,
    // are compelled once the culveriniers have fallen back (CtB 9.2, 10.6).
    let burgundians = concat!(
        r#"(id: "g1", name: "Gendarmes", side: "burgundians", type: "gendarmes", hex: "0505", group: "duke", facing: "W"),"#,
        r#"(id: "c", name: "Culveriniers", side: "burgundians", type: "culveriniers", hex: "0508", group: "duke", facing: "W"),"#,
    );
    let swiss = concat!(
        r#"(id: "p", name: "Pike block", side: "swiss", type: "pike_block", hex: "0304", group: "bern", facing: "E"),"#,
        r#"(id: "s", name: "Swiss shot", side: "swiss", type: "swiss_shot", hex: "0408", group: "bern", facing: "E"),"#,
    );
    let mut g = duke_against_swiss(burgundians, swiss, "burgundians");
    let d = decision(&g).expect("the break-off's choice");
    assert_eq!(d.rule, "CtB 10.6", "{d:?}");
    assert!(
        d.prompt
            .contains("Culveriniers must break off from Swiss shot"),
        "{d:?}"
    );
    let r = refused(&mut g, "go g1 0605");
    assert!(r.contains("CtB 10.6"), "the choice comes first: {r}");
    let first = d.choices[0].command.to_string();
    run(&mut g, &[&first]);
    assert!(decision(&g).is_none(), "{:?}", decision(&g));
    assert!(log_text(&g).contains("Culveriniers breaks off from Swiss shot: 0508 →"));
    // Now the gendarmes are compelled: away from the pikes is refused.
    let r = refused(&mut g, "go g1 0605");
    assert!(r.contains("CtB 9.2"), "{r}");
}

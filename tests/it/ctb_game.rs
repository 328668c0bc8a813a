//! Charles the Bold played (`tests/fixtures/charles_the_bold/small_falkirk.ron`: English
//! knights, a mounted crossbow and longbows against two schiltrons, archers and the
//! Scots horse): the secret choice of groups and the initiative, moves, fire, melees and
//! their results, each test named after the section it checks (`ctb_<section>_...`),
//! the dice found by seed where a result matters.

use bataille::engine::game::Game;
use bataille::engine::view::Decision;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::common::{hex, log_text, refused, root, run, seed_rolling};

fn small_falkirk(seed: u64) -> Game {
    let path = root().join("tests/fixtures/charles_the_bold/small_falkirk.ron");
    Game::start(&path, seed, &[]).expect("the fixture loads")
}

/// English win the first initiative 12 to 2 and move `group`; the Scots chose Wallace's.
fn english_move(group: &str, more: &[u8]) -> Game {
    let mut dice = vec![6, 6, 1, 1];
    dice.extend_from_slice(more);
    let mut g = small_falkirk(seed_rolling(&dice));
    run(
        &mut g,
        &[&format!("declare {group}"), "declare wallace", "end"],
    );
    g
}

fn decision(g: &Game) -> Option<Decision> {
    g.ruleset.decision(&g.world)
}

/// One step of a game: the first answer of a decision, else `end`, else (an impetuous
/// stand owes its charge: CtB 9.1) a random legal command.
fn drive(g: &mut Game, rng: &mut ChaCha8Rng) {
    let line = match decision(g) {
        Some(d) => d.choices[0].command.to_string(),
        None => "end".to_string(),
    };
    let cmd = bataille::rulesets::parse_line(&line).unwrap().unwrap();
    if g.submit(&cmd).is_err() {
        let c = g.ruleset.clone().random_command(&mut g.world, rng);
        g.submit(&c).expect("autoplay's command is legal");
    }
}

#[test]
fn ctb_1_4_secret_choice_then_2d6_plus_bonus() {
    let mut g = small_falkirk(seed_rolling(&[6, 6, 1, 1]));
    run(&mut g, &["declare marshal"]);
    // The Scots choose next; the initiative is not rolled before both have chosen.
    assert!(refused(&mut g, "declare marshal").contains("not a group of Scots"));
    run(&mut g, &["declare wallace", "end"]);
    let log = log_text(&g);
    assert!(
        log.contains("English chose First battle; Scots chose Wallace's schiltrons"),
        "{log}"
    );
    // 6+6+0 against 1+1+1 (Wallace's bonus).
    assert!(
        log.contains("Initiative: English 6+6+0 = 12, Scots 1+1+1 = 3"),
        "{log}"
    );
    assert!(log.contains("English move First battle"), "{log}");
}

#[test]
fn ctb_1_4_declaration_hidden_until_end() {
    let mut g = small_falkirk(1);
    run(&mut g, &["declare foot"]);
    let log = log_text(&g);
    assert!(
        log.contains("English have chosen a group (secret)"),
        "{log}"
    );
    assert!(
        !log.contains("The foot"),
        "the choice is secret until `end`: {log}"
    );
    assert!(
        g.ruleset.hidden_information(&g.world),
        "the hand-over screen hides the choice"
    );
    // The first side's `end` is refused: the other has not chosen.
    assert!(refused(&mut g, "end").contains("both sides choose"));
}

#[test]
fn ctb_1_4_tie_rerolled() {
    let mut g = small_falkirk(seed_rolling(&[3, 3, 2, 3, 6, 6, 1, 1]));
    // English 3+3+0 = 6 against Scots 2+3+1 = 6: thrown again.
    run(&mut g, &["declare marshal", "declare wallace", "end"]);
    let log = log_text(&g);
    assert!(log.contains("a tie, thrown again (R-1.4a)"), "{log}");
    assert!(log.contains("English move First battle"), "{log}");
}

#[test]
fn ctb_1_4_round_ends_when_every_group_moved() {
    let mut g = small_falkirk(5);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..120 {
        if g.turn().turn == 2 {
            break;
        }
        drive(&mut g, &mut rng);
    }
    assert_eq!(g.turn().turn, 2, "{}", log_text(&g));
    let log = log_text(&g);
    // Each side's two groups moved once: two rolls, then the last group alone (R-1.4c).
    assert!(
        log.contains("choose one openly, with no roll (R-1.4c)"),
        "{log}"
    );
    assert!(log.contains("Round 2"), "{log}");
}

#[test]
fn ctb_3_0_forward_one_mp_into_a_front_hex() {
    let mut g = english_move("marshal", &[]);
    // Knights 2 at 0904 facing W: 0804 and 0803 are its front hexes; 3 MP.
    run(&mut g, &["go k2 0803 0703 0602"]);
    assert_eq!(hex(&g, "k2").as_deref(), Some("0602"));
    let mut g = english_move("marshal", &[]);
    let r = refused(&mut g, "go k2 0803 0703 0602 0502");
    assert!(r.contains("0 MP left"), "{r}");
    // 1004 is behind it: a backwards step of 2 MP (R-3.7); then 1005, to its flank,
    // is a sideways step of 2 MP more than the 1 left (R-3.6).
    let r = refused(&mut g, "go k2 1004 1005");
    assert!(
        r.contains("1 MP left; a sideways step into 1005 costs 2"),
        "{r}"
    );
    // Knights 2 are impetuous and began within 5H of Schiltron 1 in their front: the
    // step back is refused (CtB 9.1).
    let r = refused(&mut g, "go k2 1004");
    assert!(r.contains("CtB 9.1") && r.contains("Knights 2"), "{r}");
}

#[test]
fn ctb_3_1_second_face_disorders_and_stops() {
    let mut g = english_move("foot", &[]);
    run(&mut g, &["go a1 cw cw"]);
    let log = log_text(&g);
    assert!(log.contains("turns a second face: disordered"), "{log}");
    let r = refused(&mut g, "go a1 0806");
    assert!(r.contains("may not move again"), "{r}");
}

#[test]
fn ctb_3_1_only_sh_sk_lc_turn_and_leave() {
    let mut g = english_move("marshal", &[]);
    let r = refused(&mut g, "go k2 cw 0804");
    assert!(r.contains("CtB 3.1") && r.contains("turn and leave"), "{r}");
    // Light cavalry move any way and face as they please.
    run(&mut g, &["go xb 1005 1006 SSW"]);
    assert_eq!(hex(&g, "xb").as_deref(), Some("1006"));
}

#[test]
fn ctb_3_3_extra_move_needs_an_order_test() {
    // Knights (class C: 5+, Norfolk attached: +1): a 4 passes.
    let mut g = english_move("marshal", &[4]);
    run(&mut g, &["go k1 0802 0702 0602", "go k1 0603"]);
    let log = log_text(&g);
    assert!(
        log.contains("Die: 4 for the Order Test of Knights 1 (class C: 5+, +1 general)"),
        "{log}"
    );
    assert_eq!(hex(&g, "k1").as_deref(), Some("0603"));
    // A 3 fails: disordered, no more movement.
    let mut g = english_move("marshal", &[3]);
    run(&mut g, &["go k1 0802 0702 0602", "go k1 0603"]);
    assert_eq!(hex(&g, "k1").as_deref(), Some("0602"));
    assert!(log_text(&g).contains("fails its Order Test for an extra move: disordered"));
}

#[test]
fn ctb_10_2_contact_is_fought_before_anything_else() {
    // Knights 2 from 0904 (facing W) by 0804 and 0705 to 0605, then on to 0505 (an extra move,
    // to contact: impetuous, untested, CtB 9.1): Schiltron 1 (0405) is in its front.
    let mut g = english_move("marshal", &[6]);
    run(&mut g, &["go k2 0804 0705 0605", "go k2 0505"]);
    let log = log_text(&g);
    assert!(log.contains("makes contact with"), "{log}");
    let r = refused(&mut g, "end");
    assert!(r.contains("fight"), "{r}");
    let line = decision(&g).expect("a melee waits").choices[0]
        .command
        .to_string();
    run(&mut g, &[&line]);
    let log = log_text(&g);
    assert!(log.contains("in melee:"), "{log}");
    assert!(
        log.contains("wins the melee") || log.contains("ongoing melee") || log.contains("bounces"),
        "{log}"
    );
}

#[test]
fn ctb_6_0_fire_pool_and_morale_test() {
    let mut g = english_move("foot", &[]);
    // Archers 2 at 0907 facing W fire at Schiltron 2 (0407), 5 hexes: out of range.
    let r = refused(&mut g, "fire a2 -> s2");
    assert!(r.contains("does not reach 5H"), "{r}");
    run(&mut g, &["go a2 0806 0707", "fire a2 -> s2"]);
    let log = log_text(&g);
    // 3H: front rank 4 SP, -1 for the move before (CtB 6.0); the rear rank again -1.
    assert!(log.contains("Archers 2 fire: 3D6"), "{log}");
    assert!(log.contains("Archers 2's rear rank fire: 2D6"), "{log}");
}

#[test]
fn ctb_autoplay_games_end_and_replay_identically() {
    let path = root().join("tests/fixtures/charles_the_bold/small_falkirk.ron");
    for seed in 0..20u64 {
        let mut a = Game::start(&path, seed, &[]).unwrap();
        let mut b = Game::start(&path, seed, &[]).unwrap();
        bataille::autoplay::play_one(&mut a, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        bataille::autoplay::play_one(&mut b, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        assert!(a.outcome().is_some(), "seed {seed} ends");
        assert_eq!(log_text(&a), log_text(&b), "seed {seed}");
        let violations = a.ruleset.invariant_violations(&a.world);
        assert!(violations.is_empty(), "seed {seed}: {violations:?}");
    }
}

/// Knights 2 in contact with Schiltron 1 (see `ctb_10_2_...`), its melee waiting.
fn knights_against_schiltron() -> Game {
    let mut g = english_move("marshal", &[6]);
    run(&mut g, &["go k2 0804 0705 0605", "go k2 0505"]);
    g
}

#[test]
fn ctb_10_1_melee_preview_is_exact_and_matches_the_resolver() {
    let g = knights_against_schiltron();
    let fight = bataille::rulesets::parse_line("fight k2 -> s1")
        .unwrap()
        .unwrap();
    let preview = g
        .ruleset
        .attack_preview(&g.world, &fight)
        .expect("a melee preview");
    // Knights (7 SP) charge the schiltron frontally: no impact for cavalry against long
    // spears from the front (CtB 10.3); its two rear ranks add 2D6 each against mounted
    // (CtB 10.4.2).
    assert!(
        preview
            .modifiers
            .iter()
            .any(|m| m.contains("Schiltron 1: +4 ranks behind the front (CtB 10.4)")),
        "{:?}",
        preview.modifiers
    );
    let total: f64 = preview.chances.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9, "the chances sum to 1: {total}");
    let p_knights: f64 = preview
        .chances
        .iter()
        .filter(|(k, _)| k.starts_with("Knights 2 wins;"))
        .map(|(_, p)| p)
        .sum();
    // The same melee resolved from 2,000 other dice.
    let n = 2000;
    let mut won = 0;
    for seed in 0..n {
        let mut g = knights_against_schiltron();
        *g.world.resource_mut::<bataille::engine::dice::Dice>() =
            bataille::engine::dice::Dice::new(1_000_000 + seed);
        run(&mut g, &["fight k2 -> s1"]);
        if log_text(&g).contains("Knights 2 wins the melee") {
            won += 1;
        }
    }
    let freq = f64::from(won) / n as f64;
    assert!(
        (freq - p_knights).abs() < 0.04,
        "preview {p_knights:.3} against {freq:.3} resolved"
    );
}

/// The Scots horse (0305, facing E) two hexes from an English stand of `kind` in 0505
/// facing W, on clear ground; the Scots move first and win the initiative.
fn horse_against(kind: &str) -> Game {
    horse_against_units(&format!(
        r#"(id: "e1", name: "English stand", side: "english", type: "{kind}", hex: "0505", group: "marshal", facing: "W"),"#
    ))
}

/// As `horse_against`, with these English stands.
fn horse_against_units(english: &str) -> Game {
    let ron = format!(
        r#"(
    name: "Reactions", date: "1298", ruleset: "charles_the_bold", turns: 2,
    map: (columns: 10, rows: 8),
    sides: [
        (id: "english", name: "English", army: "english", break_fraction: (1, 2),
         groups: [(id: "marshal", name: "Marshal", general: "norfolk")]),
        (id: "scots", name: "Scots", army: "scots", break_fraction: (1, 2),
         groups: [(id: "comyn", name: "Comyn", general: "comyn")]),
    ],
    first: "scots",
    units: [
        (id: "norfolk", name: "Norfolk", side: "english", type: "general", hex: "0705", group: "marshal"),
        {english}
        (id: "comyn", name: "Comyn", side: "scots", type: "general", hex: "0205", group: "comyn"),
        (id: "h1", name: "Scots horse", side: "scots", type: "scots_horse", hex: "0305", group: "comyn", facing: "E"),
    ],
    at_time_limit: (winner: "scots", level: Minor),
)"#
    );
    let mut g = crate::common::game_of(&ron, seed_rolling(&[6, 6, 1, 1]), &[]);
    run(&mut g, &["declare comyn", "declare marshal", "end"]);
    g
}

#[test]
fn ctb_4_0_light_cavalry_evades_and_the_charger_goes_on() {
    let mut g = horse_against("mounted_crossbow");
    run(&mut g, &["go h1 0405"]);
    let d = decision(&g).expect("the evasion is offered");
    assert_eq!(d.rule, "CtB 4.0");
    assert_eq!(d.side.0, 0, "the English, the charged side, decide");
    // The charger cannot act while the charged stand decides.
    assert!(refused(&mut g, "go h1 0505").contains("first:"));
    run(&mut g, &["evade e1"]);
    assert!(
        log_text(&g).contains("English stand evades 0505 →"),
        "{}",
        log_text(&g)
    );
    assert_ne!(hex(&g, "e1").as_deref(), Some("0505"));
    // The horse goes on into the hex left with the rest of its move: no Order Test.
    run(&mut g, &["go h1 0505"]);
    assert_eq!(hex(&g, "h1").as_deref(), Some("0505"));
    assert!(
        !log_text(&g).contains("Order Test of Scots horse"),
        "{}",
        log_text(&g)
    );
}

#[test]
fn ctb_6_2_defensive_fire_before_the_melee() {
    let mut g = horse_against("mounted_crossbow");
    run(&mut g, &["go h1 0405", "hold e1"]);
    let d = decision(&g).expect("defensive fire is offered");
    assert_eq!(d.rule, "CtB 6.2");
    run(&mut g, &["react fire e1 -> h1"]);
    let log = log_text(&g);
    // Light cavalry fire their remaining SP, 3D6 (CtB 6.2).
    assert!(
        log.contains("English stand defensive fire at Scots horse: 3D6"),
        "{log}"
    );
    assert!(
        decision(&g).is_none_or(|d| d.rule == "CtB 10.2"),
        "the melee comes next"
    );
}

#[test]
fn ctb_6_2_shot_in_the_open_no_defensive_fire_against_cavalry() {
    let mut g = horse_against("archers");
    run(&mut g, &["go h1 0405"]);
    let d = decision(&g).expect("the melee waits");
    assert_eq!(d.rule, "CtB 10.2", "no defensive fire is offered: {d:?}");
}

#[test]
fn ctb_10_2_a_combat_stand_is_the_battle_stand_before_a_support_stand() {
    // The horse at 0405 faces 0505 (archers, a Support Stand) and 0506 (English foot,
    // a Combat Stand): the foot must be the Battle Stand, the archers support it.
    let mut g = horse_against_units(
        r#"(id: "e1", name: "Archers", side: "english", type: "archers", hex: "0505", group: "marshal", facing: "W"),
        (id: "e2", name: "English foot", side: "english", type: "english_foot", hex: "0506", group: "marshal", facing: "W"),"#,
    );
    run(&mut g, &["go h1 0405"]);
    // The archers support the foot, a Combat Stand: they fire at the horse at half their
    // 4 SP, though shot in the open have no defensive fire against cavalry (CtB 6.3).
    let d = decision(&g).expect("supporting fire is offered");
    assert_eq!(d.rule, "CtB 6.3", "{d:?}");
    assert_eq!(d.side.0, 0, "the English, the defending side, decide");
    run(&mut g, &["react fire e1 -> h1"]);
    let log = log_text(&g);
    assert!(
        log.contains("Archers supporting fire at Scots horse: 2D6"),
        "{log}"
    );
    let d = decision(&g).expect("the melee waits");
    assert!(
        d.choices
            .iter()
            .all(|c| c.command.to_string().contains("-> e2")),
        "{:?}",
        d.choices
    );
    let r = refused(&mut g, "fight h1 -> e1");
    assert!(
        r.contains("CtB 10.2") && r.contains("Combat Stand comes before a Support Stand"),
        "{r}"
    );
    let preview = g
        .ruleset
        .attack_preview(
            &g.world,
            &bataille::rulesets::parse_line("fight h1 -> e2")
                .unwrap()
                .unwrap(),
        )
        .unwrap();
    // The archers face the horse: they support the foot with half their 4 SP (CtB 10.7).
    assert!(
        preview
            .modifiers
            .iter()
            .any(|m| m.contains("Archers supporting, half of 4")),
        "{:?}",
        preview.modifiers
    );
}

#[test]
fn ctb_13_0_only_combat_stands_pursue() {
    use bataille::rulesets::charles_the_bold::verdict::{Pursuit, pursuit};
    let path = root().join("tests/fixtures/charles_the_bold/small_falkirk.ron");
    let g = Game::start(&path, 1, &[]).unwrap();
    let t = bataille::rulesets::charles_the_bold::tables(&g.world);
    let (lc, hi) = (t.type_spec("LC").unwrap(), t.type_spec("HI").unwrap());
    // Light cavalry are a Support Stand (CtB 15.2): they never pursue, impact or not.
    assert_eq!(pursuit(lc, false, 1, hi), Pursuit::Never);
    assert_eq!(pursuit(hi, false, 1, hi), Pursuit::May);
}

#[test]
fn ctb_save_and_load_replay_falkirk_to_the_identical_game() {
    // Falkirk from seed 11, 250 random legal commands in: choices of groups, moves,
    // fire, melees and their results, all of which a save must bring back by replay.
    let path = root().join("scenarios/charles_the_bold/falkirk_1298.ron");
    let mut g = Game::start(&path, 11, &[]).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..250 {
        let c = g.ruleset.random_command(&mut g.world, &mut rng);
        g.submit(&c).unwrap_or_else(|r| panic!("`{c}`: {r}"));
    }
    let log = log_text(&g);
    assert!(
        log.contains("in melee:"),
        "the part saved has melees: {log}"
    );
    let dir = crate::common::scratch("ctb-save");
    let save = crate::common::write(&dir, "falkirk.ron", &g.save_text());
    let mut loaded = Game::load_save(&save).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.state_json(), g.state_json());
    assert_eq!(log_text(&loaded), log);
    assert_eq!(loaded.commands(), g.commands());
    let dice = |g: &Game| {
        g.world
            .resource::<bataille::engine::dice::Dice>()
            .position()
    };
    assert_eq!(dice(&loaded), dice(&g), "the dice stand where they stood");
    // Both play on alike to the end.
    let mut r1 = ChaCha8Rng::seed_from_u64(99);
    let mut r2 = ChaCha8Rng::seed_from_u64(99);
    bataille::autoplay::play_one(&mut g, &mut r1).unwrap();
    bataille::autoplay::play_one(&mut loaded, &mut r2).unwrap();
    assert!(g.outcome().is_some());
    assert_eq!(loaded.outcome(), g.outcome());
    assert_eq!(log_text(&loaded), log_text(&g));
}

#[test]
fn ctb_14_0_falkirk_full_game_ends_with_the_scots_broken() {
    let path = root().join("scenarios/charles_the_bold/falkirk_1298.ron");
    let script = std::fs::read_to_string(root().join("scripts/falkirk_full_game.txt")).unwrap();
    let mut g = Game::start(&path, crate::common::script_seed(&script), &[]).unwrap();
    g.run_script(&script).unwrap_or_else(|f| panic!("{f}"));
    let o = g.outcome().expect("the recorded game ends");
    assert_eq!(o.winner.map(|w| w.0), Some(0), "{}", o.reason);
    assert_eq!(
        o.level,
        Some(bataille::engine::scenario::VictoryLevel::Major)
    );
    assert!(
        o.reason.contains("Army of William Wallace are broken"),
        "{}",
        o.reason
    );
    // The Scots had lost at least their break point of 16 of 31 (CtB 14.0).
    let s = &g.state_json()["ruleset_state"];
    assert!(s["bp_lost"][1].as_u64().unwrap() >= 16, "{s}");
    let log = log_text(&g);
    for part in [
        "Initiative:",
        "in melee:",
        "retreats",
        "pursues",
        "Morale Test",
    ] {
        assert!(log.contains(part), "the game shows {part}");
    }
}

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
fn duke_against_swiss_on(map: &str, burgundians: &str, swiss: &str, first: &str) -> Game {
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
    assert_eq!(labels, ["fire", "evade"], "no holding in the open");
    let r = refused(&mut g, "react none");
    assert!(r.contains("CtB 10.6") && r.contains("must evade"), "{r}");
    run(&mut g, &["evade c"]);
    let log = log_text(&g);
    assert!(
        log.contains("Culveriniers evades Pike block instead of supporting: 0306 →"),
        "{log}"
    );
    assert_ne!(hex(&g, "c").as_deref(), Some("0306"));
    // The melee comes next, without them.
    assert_eq!(decision(&g).map(|d| d.rule).as_deref(), Some("CtB 10.2"));
}

//! Charles the Bold played (`tests/fixtures/charles_the_bold/small_falkirk.ron`: English
//! knights, a mounted crossbow and longbows against two schiltrons, archers and the
//! Scots horse): the secret choice of groups and the initiative, moves, fire, melees and
//! their results, each test named after the section it checks (`ctb_<section>_...`),
//! the dice found by seed where a result matters.

use bataille::engine::game::Game;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::common::{decision, hex, log_text, refused, root, run, seed_rolling};

pub(crate) fn small_falkirk(seed: u64) -> Game {
    let path = root().join("tests/fixtures/charles_the_bold/small_falkirk.ron");
    Game::start(&path, seed, &[]).expect("the fixture loads")
}

/// English win the first initiative 12 to 2 and move `group`; the Scots chose Wallace's.
pub(crate) fn english_move(group: &str, more: &[u8]) -> Game {
    let mut dice = vec![6, 6, 1, 1];
    dice.extend_from_slice(more);
    let mut g = small_falkirk(seed_rolling(&dice));
    run(
        &mut g,
        &[&format!("declare {group}"), "declare wallace", "end"],
    );
    g
}

/// One step of a game: the first answer of a decision, else `end`, else (an impetuous
/// stand owes its charge: CtB 9.1) a random legal command.
pub(crate) fn drive(g: &mut Game, rng: &mut ChaCha8Rng) {
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
pub(crate) fn knights_against_schiltron() -> Game {
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

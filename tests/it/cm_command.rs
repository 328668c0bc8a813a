//! Charge & mêlée's command played through the plugin (`charge_and_melee::ENTRY`):
//! Command Points spent on a unit or to inspire (spec B.2 §5, §7; C&M 7.3, 7.11, 7.15),
//! the Command phase's control tests of units outside command (spec B.2 §6) and what
//! they compel (7.3's unauthorised advance, 7.9's "repeat last move").

use std::path::PathBuf;

use crate::cm_common::{
    active, choices, entity, line, log_lines, morale_of, phase, refusal, stand_if_asked, stands_of,
    start, to_charges,
};
use crate::common::root;
use bataille::engine::game::Game;
use bataille::rulesets::charge_and_melee::command::{Control, control_result};
use bataille::rulesets::charge_and_melee::data::Tables;
use bataille::rulesets::common::RulesetTables;

fn fixture() -> PathBuf {
    root().join("tests/fixtures/charge_and_melee/command.ron")
}

/// Answers `unit`'s charge response with a plain evade when it is asked (light horse
/// that may shoot as they evade are asked, 7.14).
fn evade_if_asked(game: &mut Game, unit: &str) {
    let plain = format!("respond {unit} evade");
    if choices(game).contains(&plain) {
        line(game, &plain);
    }
}

/// Plays on (first answers, `end`) until `side` is in `label` on turn `turn`.
fn play_to(game: &mut Game, turn: u32, label: &str, side: &str) {
    for _ in 0..200 {
        if game.turn().turn == turn && phase(game) == label && active(game) == side {
            return;
        }
        assert!(game.turn().outcome.is_none(), "the game ended");
        match game.ruleset.decision(&game.world) {
            Some(d) => {
                let c = d.choices[0].command.clone();
                game.submit(&c).unwrap_or_else(|r| panic!("{c}: {r}"));
            }
            None => line(game, "end"),
        }
    }
    panic!("never reached {side}'s {label} of turn {turn}");
}

fn tables() -> Tables {
    Tables::builtin().expect("the built-in tables")
}

#[test]
fn cm_b2_6_the_control_test_obeys_from_4_halts_on_2_3_and_compels_below() {
    let t = tables();
    let k = &t.charts.command;
    assert_eq!(control_result(k, 4, false, false), Control::Obeys);
    assert_eq!(control_result(k, 9, true, true), Control::Obeys);
    assert_eq!(control_result(k, 3, true, true), Control::Halts);
    assert_eq!(control_result(k, 2, false, true), Control::Halts);
    // 1 or less: chargers and pursuers repeat their last move (7.9), impetuous troops
    // advance unauthorised (7.3), others halt.
    assert_eq!(control_result(k, 1, true, false), Control::RepeatsLastMove);
    assert_eq!(control_result(k, -3, true, true), Control::RepeatsLastMove);
    assert_eq!(
        control_result(k, 1, false, true),
        Control::UnauthorisedAdvance
    );
    assert_eq!(control_result(k, 0, false, false), Control::Halts);
}

#[test]
fn cm_b2_7_command_points_are_spent_within_a_leaders_cps_in_his_sides_phases() {
    let mut game = start(&fixture(), 1);
    // Red's Move Phase: the chief has 3 CPs.
    line(&mut game, "spend red_chief red_levy 2");
    let e = refusal(&mut game, "spend red_chief red_levy 2");
    assert!(e.contains("has 1 CP left this turn, not 2"), "{e}");
    let e = refusal(&mut game, "inspire red_chief");
    assert!(e.contains("spec B.2 §7") && e.contains("not 3"), "{e}");
    let e = refusal(&mut game, "spend blue_chief blue_foot 1");
    assert!(e.contains("Blue's: it is Red's turn"), "{e}");
    let e = refusal(&mut game, "spend red_chief blue_foot 1");
    assert!(e.contains("is the enemy's"), "{e}");
    let e = refusal(&mut game, "spend red_guard red_levy 1");
    assert!(e.contains("is no leader on the map"), "{e}");
    line(&mut game, "end");
    // Blue's chief inspires in Blue's Move Phase: 3 CPs, once.
    line(&mut game, "inspire blue_chief");
    let e = refusal(&mut game, "inspire blue_chief");
    assert!(e.contains("inspires already this turn"), "{e}");
    // The leader's card shows it (spec B.2 §7).
    let card = game
        .ruleset
        .unit_card(&game.world, entity(&game, "blue_chief"));
    assert!(
        card.contains(&("CPs left this turn".to_string(), "0".to_string())),
        "{card:?}"
    );
    assert!(card.iter().any(|(k, _)| k == "Inspiring"), "{card:?}");
    line(&mut game, "end");
    // Not in the Charge Phase (spec B.2 §13: allocated before the moves).
    let e = refusal(&mut game, "spend red_chief red_levy 1");
    assert!(
        e.contains("not in the missile declarations") && e.contains("spec B.2 §13"),
        "{e}"
    );
    assert!(log_lines(&game).iter().any(|l| l.contains("Red chief")
        && l.contains("spends 2 CP on Red levies")
        && l.ends_with("(spec B.2 §7)")));
    assert!(log_lines(&game).iter().any(|l| l.contains("Blue chief")
        && l.contains("spends 3 CPs to inspire")
        && l.ends_with("(C&M 7.15)")));
}

#[test]
fn cm_7_3_c_grade_troops_charge_formed_enemy_frontally_only_when_inspired() {
    let mut game = start(&fixture(), 1);
    line(&mut game, "end");
    to_charges(&mut game);
    let e = refusal(&mut game, "charge red_c -> blue_target");
    assert!(e.contains("C grade troops") && e.contains("C&M 7.3"), "{e}");
    // The chief, one javelin throw from the C grade line, inspires in his Move Phase.
    let mut game = start(&fixture(), 1);
    line(&mut game, "inspire red_chief");
    line(&mut game, "end");
    to_charges(&mut game);
    line(&mut game, "charge red_c -> blue_target");
}

/// The line of the combat's totals of `who` (7.15: "NAME: total against total").
fn total_of(game: &Game, who: &str) -> i32 {
    let l = log_lines(game)
        .into_iter()
        .find(|l| {
            l.contains(&format!("{who}: ")) && l.contains(" against ") && l.ends_with("(C&M 7.15)")
        })
        .unwrap_or_else(|| panic!("no total for {who}"));
    let after = l.split(&format!("{who}: ")).nth(1).expect("a total");
    after
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{l}"))
}

#[test]
fn cm_7_15_an_inspiring_leader_in_the_front_rank_adds_his_cps_to_the_charge_total() {
    for seed in 0..6 {
        let play = |inspire: bool| {
            let mut game = start(&fixture(), seed);
            if inspire {
                line(&mut game, "inspire red_chief");
            }
            line(&mut game, "end");
            to_charges(&mut game);
            line(&mut game, "charge red_guard -> blue_target");
            line(&mut game, "end");
            line(&mut game, "end");
            game
        };
        let plain = play(false);
        let inspired = play(true);
        // The same dice (inspiring rolls none): the guard's total is 3 more, the chief's
        // 3 CPs; Blue's is unchanged.
        assert_eq!(
            total_of(&inspired, "Red guard"),
            total_of(&plain, "Red guard") + 3,
            "seed {seed}"
        );
        assert_eq!(
            total_of(&inspired, "Blue shieldwall"),
            total_of(&plain, "Blue shieldwall"),
            "seed {seed}"
        );
    }
}

#[test]
fn cm_7_11_an_inspiring_leader_within_1_jt_adds_his_cps_to_the_evade_test() {
    let mut seen = 0;
    for seed in 0..30 {
        let play = |inspire: bool| {
            let mut game = start(&fixture(), seed);
            line(&mut game, "end");
            if inspire {
                line(&mut game, "inspire blue_chief");
            }
            to_charges(&mut game);
            line(&mut game, "charge red_raiders -> blue_lc");
            line(&mut game, "end");
            line(&mut game, "end");
            evade_if_asked(&mut game, "blue_lc");
            log_lines(&game)
        };
        let plain = play(false);
        // B grade light horse, MV 0, 3 DPs: a D6 of 1-3 fails (score 0 or less) ...
        let failed = plain.iter().any(|l| {
            l.contains("Blue light horse") && l.contains("is shaken") && l.ends_with("(C&M 7.11)")
        });
        if !failed {
            continue;
        }
        seen += 1;
        // ... and with the chief's 3 CPs the same die evades.
        let inspired = play(true);
        assert!(
            inspired.iter().any(|l| l.contains("Blue light horse")
                && l.contains(" evades ")
                && l.ends_with("(C&M 7.11)")),
            "seed {seed}: {inspired:#?}"
        );
    }
    assert!(seen > 0, "no seed failed the evade test");
}

#[test]
fn cm_b2_6_units_outside_command_test_their_control_when_their_command_phase_ends() {
    let mut game = start(&fixture(), 3);
    play_to(&mut game, 2, "command", "red");
    // The Red chief spends 2 CPs on his levies before they test.
    line(&mut game, "spend red_chief red_levy 2");
    line(&mut game, "end");
    let log = log_lines(&game);
    let tests: Vec<&String> = log
        .iter()
        .filter(|l| l.contains("is outside command: control test"))
        .collect();
    // The horse, the warband and the levies are beyond 6 JT of the chief; the guard,
    // the C grade line and the raiders are within it.
    for who in ["Red horse", "Red warband", "Red levies"] {
        assert!(tests.iter().any(|l| l.contains(who)), "{who}: {tests:#?}");
    }
    for who in ["Red guard", "Red levy line", "Red raiders"] {
        assert!(!tests.iter().any(|l| l.contains(who)), "{who}: {tests:#?}");
    }
    assert!(
        tests
            .iter()
            .any(|l| l.contains("Red levies") && l.contains("+ 2 CP")),
        "{tests:#?}"
    );
}

#[test]
fn cm_b2_6_a_unit_that_halts_may_not_move_or_charge_this_turn() {
    // The levies (C grade, MV -2, 3 DPs after a turn's rest) score 1 or less: neither
    // chargers nor impetuous, they halt.
    let mut game = start(&fixture(), 5);
    play_to(&mut game, 2, "movement", "red");
    assert!(
        log_lines(&game).iter().any(|l| l.contains("Red levies")
            && l.contains("it halts: it may not move or charge this turn"))
    );
    let card = game
        .ruleset
        .unit_card(&game.world, entity(&game, "red_levy"));
    assert!(
        card.iter()
            .any(|(k, v)| k == "Control test" && v.starts_with("Halts")),
        "{card:?}"
    );
    let e = refusal(&mut game, "move red_levy 0809");
    assert!(e.contains("spec B.2 §6") && e.contains("halts"), "{e}");
    // It may still re-form in place (as 7.16's halt).
    line(&mut game, "form red_levy Line SE");
}

#[test]
fn cm_b2_5_cps_spent_on_a_unit_at_rest_shed_a_dp_more_each() {
    for (spent, left) in [(0u8, 2u8), (2, 0)] {
        let mut game = start(&fixture(), 5);
        play_to(&mut game, 2, "command", "red");
        // 3 DPs after turn 1's rest (4 - 1).
        assert_eq!(morale_of(&game, "red_levy").dps, 3);
        if spent > 0 {
            line(&mut game, &format!("spend red_chief red_levy {spent}"));
        }
        play_to(&mut game, 3, "command", "red");
        assert_eq!(morale_of(&game, "red_levy").dps, left, "spent {spent}");
    }
}

#[test]
fn cm_7_9_chargers_that_fell_short_repeat_their_last_move_and_must_charge() {
    let mut seen = 0;
    for seed in 0..30 {
        let mut game = start(&fixture(), seed);
        line(&mut game, "end");
        to_charges(&mut game);
        line(&mut game, "charge red_horse -> blue_foot");
        play_to(&mut game, 2, "command", "red");
        if !log_lines(&game)
            .iter()
            .any(|l| l.contains("Red horse") && l.contains("falls short (7.9)"))
        {
            continue;
        }
        seen += 1;
        line(&mut game, "end");
        // C grade, MV -2, 3 DPs: 1 or less whatever the die; it charged last turn.
        assert!(
            log_lines(&game).iter().any(|l| l.contains("Red horse")
                && l.contains("repeats its last move")
                && l.ends_with("(C&M 7.9)")),
            "seed {seed}"
        );
        play_to(&mut game, 2, "movement", "red");
        let e = refusal(&mut game, "move red_horse 1007");
        assert!(e.contains("C&M 7.9") && e.contains("must advance"), "{e}");
        play_to(&mut game, 2, "charge declarations", "red");
        // The game has declared its charge on the nearest enemy; the player may not
        // declare another for it (7.2).
        assert!(
            log_lines(&game).iter().any(|l| l.contains("Red horse")
                && l.contains("must charge the nearest enemy")
                && l.ends_with("(C&M 7.9)")),
            "seed {seed}"
        );
        assert!(
            log_lines(&game)
                .iter()
                .any(|l| l.contains("Red horse") && l.contains("declares a charge on Blue foot")),
            "seed {seed}"
        );
        let e = refusal(&mut game, "charge red_horse -> blue_line");
        assert!(e.contains("C&M 7.9"), "{e}");
    }
    assert!(seen > 0, "no seed fell short");
}

#[test]
fn cm_7_3_impetuous_troops_that_fail_their_control_advance_unauthorised_and_charge() {
    for seed in 0..4 {
        let mut game = start(&fixture(), seed);
        let before = stands_of(&game, "red_warband");
        play_to(&mut game, 2, "charge declarations", "red");
        let log = log_lines(&game);
        assert!(
            log.iter().any(|l| l.contains("Red warband")
                && l.contains("advances unauthorised")
                && l.ends_with("(C&M 7.3)")),
            "seed {seed}"
        );
        // It advanced its normal move (2 hexes) on the Blue line, three javelin throws
        // away, to one javelin throw, and the game declared its charge (C&M 7.3, 7.4).
        let after = stands_of(&game, "red_warband");
        assert_ne!(before, after, "seed {seed}");
        assert!(
            log.iter()
                .any(|l| l.contains("Red warband") && l.contains("advances on Blue line")),
            "seed {seed}"
        );
        let e = refusal(&mut game, "charge red_warband -> blue_foot");
        assert!(e.contains("C&M 7.9"), "{e}");
        assert!(
            log.iter()
                .any(|l| l.contains("Red warband") && l.contains("declares a charge on Blue line")),
            "seed {seed}: {log:#?}"
        );
    }
}

fn carry_on(seed: u64, charger: &str, target: &str) -> Game {
    let mut game = start(
        &root().join("tests/fixtures/charge_and_melee/carry_on.ron"),
        seed,
    );
    line(&mut game, "end");
    to_charges(&mut game);
    line(&mut game, &format!("charge {charger} -> {target}"));
    line(&mut game, "end");
    line(&mut game, "end");
    evade_if_asked(&mut game, target);
    game
}

fn position(log: &[String], needle: &str) -> Option<usize> {
    log.iter().position(|l| l.contains(needle))
}

#[test]
fn cm_7_8_chargers_carry_on_into_a_new_opponent_uncovered_by_the_evaders() {
    let mut seen = 0;
    for seed in 0..40 {
        let game = carry_on(seed, "red_b", "blue_lc");
        let log = log_lines(&game);
        let Some(on) = position(&log, "Red warband (0509) charges on into Blue line") else {
            continue;
        };
        seen += 1;
        // B grade: on at once, to the full distance of its one move die (7.7, 7.8) ...
        let dice = log
            .iter()
            .filter(|l| l.contains("for Red warband's charge move"))
            .count();
        assert_eq!(dice, 1, "seed {seed}");
        // ... and the new target answers as any charged unit (7.10), then the combat.
        let answer = position(&log, "Blue line (0409) answers:").expect("an answer");
        let total = position(&log, "Red warband: ").expect("a combat");
        assert!(on < answer && answer < total, "seed {seed}: {log:#?}");
        assert!(log[total].ends_with("(C&M 7.15)"));
        assert!(log[on].ends_with("(C&M 7.8)"));
    }
    assert!(seen > 0, "no seed carried the charge on");
}

#[test]
fn cm_7_8_light_and_a_grade_chargers_may_halt_1_jt_from_the_new_target() {
    let mut seen = 0;
    for seed in 0..40 {
        let mut game = carry_on(seed, "red_a", "blue_lc2");
        if !log_lines(&game)
            .iter()
            .any(|l| l.contains("Red hird") && l.contains("halts 1 JT from Blue second line"))
        {
            continue;
        }
        seen += 1;
        assert_eq!(
            choices(&game),
            vec!["carry red_a on".to_string(), "carry red_a halt".to_string()],
            "seed {seed}"
        );
        let e = refusal(&mut game, "carry blue_lc2 on");
        assert!(e.contains("C&M 7.8"), "{e}");
        // Halting: no combat with the line, one javelin throw from it.
        let mut halted = carry_on(seed, "red_a", "blue_lc2");
        line(&mut halted, "carry red_a halt");
        let log = log_lines(&halted);
        assert!(!log.iter().any(|l| l.contains("Red hird: ")), "seed {seed}");
        // Charging on: the line answers and the combat is fought, no new move die.
        line(&mut game, "carry red_a on");
        stand_if_asked(&mut game);
        let log = log_lines(&game);
        let dice = log
            .iter()
            .filter(|l| l.contains("for Red hird's charge move"))
            .count();
        assert_eq!(dice, 1, "seed {seed}");
        assert!(
            log.iter()
                .any(|l| l.contains("Red hird: ") && l.ends_with("(C&M 7.15)")),
            "seed {seed}: {log:#?}"
        );
    }
    assert!(seen > 0, "no seed halted the hird before the line");
}

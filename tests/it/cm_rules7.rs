//! Charge & mêlée's issue-16 rules played through the plugin (`charge_and_melee::ENTRY`):
//! battle lines charging as one body when their leader controls them (7.1), the army
//! break at a commander-in-chief's death (spec B.2 §14) and 7.9's "repeat last move"
//! for units that pursued (7.16).

use crate::cm_common::{
    active, fixture, line, log_lines, phase, refusal, stand_if_asked, stands_of, start, to_charges,
};
use bataille::engine::game::Game;
use bataille::rulesets::charge_and_melee::data::Tables;
use bataille::rulesets::common::RulesetTables;

/// The dice a log shows for `purpose` (a substring of the die's line), in order.
fn dice(log: &[String], purpose: &str) -> Vec<u8> {
    log.iter()
        .filter_map(|l| l.strip_prefix("Die: "))
        .filter(|r| r.contains(purpose))
        .filter_map(|r| r.split_whitespace().next()?.parse().ok())
        .collect()
}

/// The army-break position after its first turn's Mêlée Phase began: the two
/// commanders-in-chief have met in personal combat (7.33), one is dead (7.34).
fn after_the_duel(seed: u64) -> Game {
    let mut game = start(&fixture("army_break.ron"), seed);
    for _ in 0..4 {
        line(&mut game, "end");
    }
    game
}

#[test]
fn cm_b2_14_the_army_breaks_when_its_commander_dies_and_more_than_half_its_units_fail() {
    let (mut broke, mut held_at_half) = (0, 0);
    for seed in 0..40 {
        let game = after_the_duel(seed);
        let log = log_lines(&game);
        // One chief dies in the personal combat (7.34), the other may die of the risk
        // to leaders (spec B.2 §8) in the mêlée after it.
        let mut broken = Vec::new();
        for side in ["Red", "Blue"] {
            let dead = format!("{side} chief is killed (");
            if !log.iter().any(|l| l.starts_with(&dead)) {
                continue;
            }
            // Every unit of his side tests, each once (B grade: a D6; MV 0, no DP).
            let names = [
                "household",
                "hird",
                "first band",
                "second band",
                "third band",
            ]
            .map(|n| format!("{side} {n}"));
            let mut fails = 0;
            let mut tested = 0;
            for n in &names {
                let d = dice(&log, &format!("{n}'s control test"));
                assert!(d.len() <= 1, "seed {seed}: {n}");
                tested += d.len();
                fails += d.iter().filter(|d| **d < 4).count();
            }
            assert_eq!(tested, 4, "seed {seed}: {side}");
            let summary = log
                .iter()
                .find(|l| {
                    l.starts_with(&format!("{side}'s commander-in-chief is dead"))
                        && l.ends_with("(spec B.2 §14)")
                })
                .unwrap_or_else(|| panic!("seed {seed}: no army-break test for {side}"));
            assert!(
                summary.contains(&format!(": {fails} of its 4 units fail")),
                "seed {seed}: {summary}"
            );
            // More than half: 3 or 4 of 4; 2 of 4 is half, and the army holds.
            if fails > 2 {
                broke += 1;
                broken.push(side);
                assert!(
                    summary.ends_with("the army breaks (spec B.2 §14)"),
                    "{summary}"
                );
            } else {
                held_at_half += usize::from(fails == 2);
                assert!(
                    summary.ends_with("the army holds (spec B.2 §14)"),
                    "{summary}"
                );
            }
        }
        // The scenario's ArmyBreaks rules end the game, Red's first.
        match (broken.first(), game.turn().outcome.clone()) {
            (Some(side), Some(o)) => {
                assert!(
                    o.reason.starts_with(&format!("{side} breaks")),
                    "{}",
                    o.reason
                )
            }
            (None, None) => {}
            (b, o) => panic!("seed {seed}: broken {b:?}, outcome {o:?}"),
        }
    }
    assert!(
        broke > 0 && held_at_half > 0,
        "broke {broke}, held at half {held_at_half}"
    );
}

/// Plays on (first answers, `end`) until Red's charge declarations of turn 2.
fn to_reds_second_charges(seed: u64) -> Game {
    let mut game = start(&fixture("pursuit.ron"), seed);
    for _ in 0..60 {
        if game.turn().turn == 2 && phase(&game) == "charge declarations" && active(&game) == "red"
        {
            return game;
        }
        match game.ruleset.decision(&game.world) {
            Some(d) => {
                let c = d.choices[0].command.clone();
                game.submit(&c).unwrap_or_else(|r| panic!("{c}: {r}"));
            }
            None => line(&mut game, "end"),
        }
    }
    panic!("seed {seed}: never reached Red's charges of turn 2");
}

#[test]
fn cm_7_9_pursuers_that_fail_their_control_test_repeat_their_last_move_and_charge() {
    let (mut pursued, mut charged, mut stood) = (0, 0, 0);
    for seed in 0..30 {
        let game = to_reds_second_charges(seed);
        let log = log_lines(&game);
        let test = log
            .iter()
            .find(|l| l.starts_with("Red foot (") && l.contains("control test"))
            .unwrap_or_else(|| panic!("seed {seed}: no control test: {log:#?}"));
        // The rearguard, outside command and as worn, but neither charging nor
        // pursuing, halts on the same scores (spec B.2 §6).
        assert!(
            log.iter().any(|l| l.starts_with("Red rearguard (")
                && l.contains("it halts")
                && l.ends_with("(spec B.2 §6)")),
            "seed {seed}"
        );
        let pursuit = log
            .iter()
            .any(|l| l.starts_with("Red foot (") && l.ends_with(": pursue (C&M 7.30)"));
        if !pursuit {
            // It did not pursue (its foe held): a score of 1 or less halts it.
            stood += 1;
            assert!(
                test.contains("it halts") && test.ends_with("(spec B.2 §6)"),
                "seed {seed}: {test}"
            );
            continue;
        }
        pursued += 1;
        // It pursued last turn: it counts as "charging or pursuing" (7.9) and repeats
        // its last move: it advances on the nearest enemy, and the game declares its
        // charge on it when it may.
        assert!(
            test.contains(
                "it repeats its last move: it must advance on and charge the nearest enemy"
            ) && test.ends_with("(C&M 7.9)"),
            "seed {seed}: {test}"
        );
        assert!(
            log.iter().any(|l| l.starts_with("Red foot (")
                && (l.contains(" advances on Blue band (control test)")
                    || l.contains(" does not advance on Blue band"))
                && l.ends_with("(C&M 7.9)")),
            "seed {seed}: {log:#?}"
        );
        let declared = log.iter().any(|l| {
            l.starts_with("Red foot (") && l.ends_with("must charge the nearest enemy (C&M 7.9)")
        });
        let cannot = log.iter().any(|l| {
            l.starts_with("Red foot (") && l.contains(" cannot charge ") && l.ends_with("(C&M 7.9)")
        });
        assert!(declared || cannot, "seed {seed}: {log:#?}");
        if declared {
            charged += 1;
            assert!(log.iter().any(
                |l| l.starts_with("Red foot (") && l.contains("declares a charge on Blue band")
            ));
        }
    }
    assert!(
        pursued > 0 && charged > 0 && stood > 0,
        "pursued {pursued}, charged {charged}, stood {stood}"
    );
}

/// The battle-line position at Red's charge declarations of turn 1, after the Red chief
/// spent a CP on each unit named in `controlled` in the Move Phase.
fn line_charges(seed: u64, controlled: &[&str]) -> Game {
    let mut game = start(&fixture("battle_line.ron"), seed);
    for u in controlled {
        line(&mut game, &format!("spend red_chief {u} 1"));
    }
    to_charges(&mut game);
    game
}

/// Ends the declarations and answers each charged unit's question with `stand`.
fn resolve(game: &mut Game) {
    line(game, "end");
    line(game, "end");
    for _ in 0..4 {
        stand_if_asked(game);
    }
}

/// The result lines of the charge combats (7.15): "A, B: 5 against 3: Success".
fn results(log: &[String]) -> Vec<String> {
    log.iter()
        .filter(|l| {
            l.contains(" against ") && l.ends_with(" (C&M 7.15)") && !l.starts_with("Die: ")
        })
        .cloned()
        .collect()
}

#[test]
fn cm_7_1_a_controlled_battle_line_charges_as_one_body() {
    for seed in 0..8 {
        let mut game = line_charges(seed, &["red_a", "red_b", "red_c"]);
        line(&mut game, "charge red_a -> blue_x");
        let log = log_lines(&game);
        // Red A and Red B touch and face S: one body; Red C, controlled too, stands apart.
        assert!(
            log.iter().any(|l| l
                == "Red foot A, Red foot B charge as one body: a battle line controlled by Red chief (C&M 7.1)"),
            "seed {seed}: {log:#?}"
        );
        // Red B charges the enemy straight ahead of it, not the line's target.
        assert!(
            log.iter().any(|l| l.starts_with("Red foot B (")
                && l.contains("declares a charge on Blue foot Y (")
                && l.ends_with("with its battle line (C&M 7.1)")),
            "seed {seed}: {log:#?}"
        );
        assert!(
            !log.iter()
                .any(|l| l.starts_with("Red foot C (") && l.contains("declares"))
        );
        let e = refusal(&mut game, "charge red_b -> blue_y");
        assert!(
            e.contains("C&M 7.1") && e.contains("declared by Red foot A"),
            "{e}"
        );
        resolve(&mut game);
        let log = log_lines(&game);
        // One combat: a die for each of the four units, each side's total divided by its
        // two units (7.15), both units of each side sharing the outcome.
        let lines = results(&log);
        assert_eq!(lines.len(), 2, "seed {seed}: {lines:#?}");
        assert!(
            lines[0].starts_with("Blue foot X, Blue foot Y: "),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].starts_with("Red foot A, Red foot B: "),
            "{}",
            lines[1]
        );
        for who in ["Blue foot X", "Blue foot Y", "Red foot A", "Red foot B"] {
            let rolled = log
                .iter()
                .filter(|l| l.contains(&format!(" for {who}'s charge total")))
                .count();
            assert_eq!(rolled, 1, "seed {seed}: {who}");
        }
        // Blue's line (B grade, a D6 each; formed, no DP, MV 0, two stands against two
        // each): its two dice and two Defence Factors, halved and rounded up.
        let df = i32::from(
            Tables::builtin()
                .expect("the built-in tables")
                .troops
                .troops
                .iter()
                .find(|t| t.id == "heavy_infantry")
                .expect("heavy infantry")
                .defence,
        );
        let blue: i32 = ["Blue foot X", "Blue foot Y"]
            .iter()
            .map(|w| i32::from(dice(&log, &format!("{w}'s charge total"))[0]) + df)
            .sum();
        // The scores mirror each other: "X against Y" and "Y against X".
        let score = |l: &str| -> (i32, i32) {
            let rest = l.split(": ").nth(1).expect("scores");
            let mut it = rest.split(" against ");
            (
                it.next().unwrap().trim().parse().unwrap(),
                it.next().unwrap().trim().parse().unwrap(),
            )
        };
        let (b, r) = score(&lines[0]);
        assert_eq!(b, (blue + 1).div_euclid(2), "seed {seed}: {}", lines[0]);
        assert_eq!(score(&lines[1]), (r, b), "seed {seed}");
    }
}

#[test]
fn cm_7_1_without_cps_units_charge_individually() {
    // No CP spent, or CPs spent on one unit only: no battle line of controlled units.
    for controlled in [&[][..], &["red_a"][..]] {
        for seed in 0..8 {
            let mut game = line_charges(seed, controlled);
            line(&mut game, "charge red_a -> blue_x");
            assert!(
                !log_lines(&game).iter().any(|l| l.contains("one body")),
                "seed {seed}"
            );
            // Red B (B grade) may still charge beside Red A's charge (7.3), on its own.
            line(&mut game, "charge red_b -> blue_y");
            resolve(&mut game);
            let log = log_lines(&game);
            let lines = results(&log);
            assert_eq!(lines.len(), 4, "seed {seed}: {lines:#?}");
            for who in [
                "Blue foot X: ",
                "Red foot A: ",
                "Blue foot Y: ",
                "Red foot B: ",
            ] {
                assert!(
                    lines.iter().any(|l| l.starts_with(who)),
                    "seed {seed}: {who} {lines:#?}"
                );
            }
        }
    }
}

#[test]
fn cm_7_1_the_charge_preview_names_the_battle_line_that_charges_with_it() {
    let game = line_charges(1, &["red_a", "red_b", "red_c"]);
    let command = game
        .parse_line("charge red_a -> blue_x")
        .expect("a command")
        .expect("not a comment");
    let p = game
        .ruleset
        .attack_preview(&game.world, &command)
        .unwrap_or_else(|r| panic!("no preview: {r}"));
    // Red A and Red B touch and face S: one body; Red C stands apart (7.1).
    let note = p
        .modifiers
        .iter()
        .find(|m| m.contains("(C&M 7.1)"))
        .unwrap_or_else(|| panic!("{:#?}", p.modifiers));
    assert!(
        note.starts_with("Red foot B charges with it as one body")
            && note.contains("controlled by Red chief")
            && note.contains("(C&M 7.15)")
            && !note.contains("Red foot C"),
        "{note}"
    );
    assert_eq!(p.attack_supports, stands_of(&game, "red_b"));
    // Without the CPs the preview is the lone charge's, as before.
    let game = line_charges(1, &["red_a"]);
    let p = game
        .ruleset
        .attack_preview(&game.world, &command)
        .unwrap_or_else(|r| panic!("no preview: {r}"));
    assert!(!p.modifiers.iter().any(|m| m.contains("C&M 7.1)")));
    assert!(p.attack_supports.is_empty());
}

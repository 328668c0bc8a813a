//! Charge & mêlée's personal combat played through the plugin (`charge_and_melee::ENTRY`):
//! seeking out a leader (C&M 7.33), its result (7.34) and the avenging comitatus (3.33,
//! spec B.2 §9), on `tests/fixtures/charge_and_melee/personal.ron` (two lanes of comitati
//! in mêlée from the first turn).

use crate::cm_common::{REGISTRY, choices, entity, fixture, line, log_lines, refusal};
use crate::common::root;
use bataille::engine::game::Game;
use bataille::rulesets::charge_and_melee::{CmLeader, CmUnit};

/// The personal-combat fixture, started with `seed`.
fn start(seed: u64) -> Game {
    crate::cm_common::start(&fixture("personal.ron"), seed)
}

fn unit(game: &Game, key: &str) -> CmUnit {
    *game.world.get::<CmUnit>(entity(game, key)).expect("a unit")
}

fn leader(game: &Game, key: &str) -> CmLeader {
    *game
        .world
        .get::<CmLeader>(entity(game, key))
        .expect("a leader")
}

/// The first turn up to the personal combats' questions (no charge: the lanes are in
/// contact, 7.18).
fn to_personal(seed: u64) -> Game {
    let mut game = start(seed);
    for _ in 0..4 {
        line(&mut game, "end");
    }
    game
}

fn dead(log: &[String], who: &str) -> bool {
    log.iter()
        .any(|l| l.contains(who) && l.contains("is killed") && l.ends_with("(C&M 7.34)"))
}

#[test]
fn cm_7_33_b_grade_comitatus_leaders_must_seek_out_a_grade_ones_may_decline() {
    let mut game = to_personal(1);
    assert_eq!(game.turn().phase.label, "personal combat");
    // The B grade comitati's leaders are not asked: they must. The A grade ones are.
    assert_eq!(
        choices(&game),
        vec![
            "seek red_jarl yes".to_string(),
            "seek red_jarl no".to_string()
        ]
    );
    let e = refusal(&mut game, "seek red_chief yes");
    assert!(e.contains("C&M 7.33"), "{e}");
    let e = refusal(&mut game, "end");
    assert!(e.contains("waiting for"), "{e}");
    line(&mut game, "seek red_jarl no");
    assert_eq!(
        choices(&game),
        vec![
            "seek blue_thegn yes".to_string(),
            "seek blue_thegn no".to_string()
        ]
    );
    line(&mut game, "seek blue_thegn yes");
    let log = log_lines(&game);
    // The jarl declined: his men lock shields around him; no combat there (7.33).
    assert!(log.iter().any(|l| l.contains("Red jarl")
        && l.contains("lock shields")
        && l.ends_with("(C&M 7.33)")));
    assert!(!log.iter().any(|l| l.contains("Red jarl's personal combat")));
    // The chiefs fought, before any mêlée die (7.33: "before any melee is fought").
    let duel = log
        .iter()
        .position(|l| l.contains("Red chief ") && l.contains(" against Blue chief "))
        .expect("the chiefs' combat");
    let first_bout = log
        .iter()
        .position(|l| l.ends_with("(C&M 7.20)"))
        .expect("the mêlée");
    assert!(duel < first_bout);
    assert!(
        dead(&log, "Red chief") != dead(&log, "Blue chief"),
        "{log:#?}"
    );
}

#[test]
fn cm_7_34_the_winner_gains_a_cp_and_his_units_1_mv_the_loser_dies() {
    for seed in 0..8 {
        let mut game = to_personal(seed);
        line(&mut game, "seek red_jarl yes");
        line(&mut game, "seek blue_thegn yes");
        let log = log_lines(&game);
        // Both lanes fought; each a D6 + CPs, the lower dies (ties rolled again).
        for (a, b, ua, ub) in [
            ("Red chief", "Blue chief", "red_hird", "blue_house"),
            ("Red jarl", "Blue thegn", "red_a", "blue_a"),
        ] {
            let (winner, wu, wl) = if dead(&log, b) {
                (
                    a,
                    ua,
                    if a == "Red chief" {
                        "red_chief"
                    } else {
                        "red_jarl"
                    },
                )
            } else {
                assert!(dead(&log, a), "seed {seed}: neither {a} nor {b} died");
                (
                    b,
                    ub,
                    if b == "Blue chief" {
                        "blue_chief"
                    } else {
                        "blue_thegn"
                    },
                )
            };
            let start_cps = if wl.ends_with("chief") { 2 } else { 1 };
            // +1 CP (7.34), unless the risk of the mêlée wounded him since (spec B.2 §8).
            let wounded = log
                .iter()
                .any(|l| l.contains(winner) && l.contains("is wounded"));
            assert_eq!(
                leader(&game, wl).cps,
                start_cps + 1 - u8::from(wounded),
                "seed {seed}"
            );
            // +1 MV to the units under his command: his comitatus (MV 0 in the file).
            assert_eq!(unit(&game, wu).mv, 1, "seed {seed}: {wu}");
            assert!(log.iter().any(|l| l.contains(winner)
                && l.contains("wins: +1 CP, +1 MV")
                && l.ends_with("(C&M 7.34)")));
        }
    }
}

#[test]
fn cm_3_33_the_dead_leaders_comitatus_avenges_him_with_1_to_hit_and_may_not_break_off() {
    let mut no_fallback = 0;
    for seed in 0..60 {
        let mut game = to_personal(seed);
        line(&mut game, "seek red_jarl no");
        line(&mut game, "seek blue_thegn no");
        let log = log_lines(&game);
        // The avengers' stands need 1 more: the household's defence 3 (+0 against
        // unarmoured warriors) becomes 4; the hird's 2 (-1 against armour) becomes 2.
        let (avenger, stand_needs, avenging_key) = if dead(&log, "Blue chief") {
            ("Blue household", "(needs 4)", "blue_house")
        } else {
            ("Red hird", "(needs 2)", "red_hird")
        };
        assert!(log.iter().any(|l| l.contains(avenger)
            && l.contains("fights to avenge its leader")
            && l.ends_with("(C&M 7.34)")));
        let bouts: Vec<&String> = log
            .iter()
            .filter(|l| l.contains(&format!("for {avenger}'s stand in")))
            .collect();
        assert!(!bouts.is_empty(), "seed {seed}");
        for b in &bouts {
            assert!(b.contains(stand_needs), "seed {seed}: {b}");
        }
        // Winning, B grade infantry may follow up, halt or fall back (7.30): avenging,
        // it may not fall back (break off).
        if let Some(d) = game.ruleset.decision(&game.world)
            && d.prompt.contains(avenger)
        {
            no_fallback += 1;
            let asked = choices(&game);
            assert!(
                asked.contains(&format!("after {avenging_key} follow")),
                "{asked:?}"
            );
            assert!(
                !asked.iter().any(|c| c.ends_with("fallback")),
                "seed {seed}: {asked:?}"
            );
            let e = refusal(&mut game, &format!("after {avenging_key} fallback"));
            assert!(e.contains("not fallback"), "{e}");
        }
    }
    assert!(no_fallback > 0, "no seed let the avengers win");
}

#[test]
fn cm_b2_13_autoplay_plays_the_command_phase_and_personal_combat_in_maldon() {
    use bataille::engine::command::Command;
    use rand::SeedableRng;
    let path = root().join("scenarios/charge_and_melee/maldon_991.ron");
    let (mut tests, mut duels) = (0, 0);
    for seed in 0..40 {
        let mut game =
            Game::start_with(REGISTRY, &path, seed, &[]).unwrap_or_else(|e| panic!("{e}"));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..5000 {
            if game.is_over() {
                break;
            }
            let cmd: Command = game.ruleset.random_command(&mut game.world, &mut rng);
            game.submit(&cmd)
                .unwrap_or_else(|r| panic!("seed {seed}: autoplay's `{cmd}` refused: {r}"));
        }
        assert!(game.is_over(), "seed {seed} did not end");
        let log = log_lines(&game);
        tests += usize::from(
            log.iter()
                .any(|l| l.contains("is outside command: control test")),
        );
        duels += usize::from(log.iter().any(|l| l.contains("may seek each other out")));
    }
    // Random games meet both: units straying beyond 6 JT of their leaders (spec B.2 §6)
    // and leaders meeting in a mêlée (7.33), each answered by the autoplay.
    assert!(tests > 0, "no control test in 40 games");
    assert!(duels > 0, "no personal combat offered in 40 games");
}

//! Charge & mêlée's issue-16 rules played through the plugin (`charge_and_melee::ENTRY`):
//! the army break at a commander-in-chief's death (spec B.2 §14).

use crate::cm_common::{fixture, line, log_lines, start};
use bataille::engine::game::Game;

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

//! Charge & mêlée's mêlée and shot previews (issue 16; C&M 7.20-7.25, spec B.2 §11):
//! their exact chances worked by hand, and their stands and needs checked against the
//! dice the game then rolls.

use crate::cm_common::{entity, fixture, line, log_lines, phase, start as start_at, to_charges};
use bataille::engine::game::Game;
use bataille::engine::view::AttackPreview;
use bataille::rulesets::charge_and_melee::CmMorale;

fn start(name: &str, seed: u64) -> Game {
    start_at(&fixture(name), seed)
}

fn preview(game: &Game, text: &str) -> AttackPreview {
    let command = game
        .parse_line(text)
        .expect("a command")
        .expect("not a comment");
    game.ruleset
        .attack_preview(&game.world, &command)
        .unwrap_or_else(|r| panic!("`{text}`: no preview: {r}"))
}

fn chance(p: &AttackPreview, label: &str) -> f64 {
    p.chances
        .iter()
        .filter(|(l, _)| l.contains(label))
        .map(|(_, c)| *c)
        .sum()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// The dice lines of a log whose purpose contains `purpose`: (face, the rest).
fn dice<'a>(log: &'a [String], purpose: &str) -> Vec<(u8, &'a str)> {
    log.iter()
        .filter_map(|l| l.strip_prefix("Die: "))
        .filter(|r| r.contains(purpose))
        .filter_map(|r| {
            let (face, rest) = r.split_once(" for ")?;
            Some((face.parse().ok()?, rest))
        })
        .collect()
}

/// `melee_pair.ron`: two lines of two armoured heavy-foot stands front to front, each
/// leader on its first stand. Every stand needs its Defence Factor 3, -1 against
/// armour; the command stands +1 (C&M 7.20): 3 and 2 a side, hits on 1/2 and 1/3. Each
/// side's hits: 0 with 1/3, 1 with 1/2, 2 with 1/6; a side loses when it receives more
/// than it inflicts (7.25): 1/2·1/3 + 1/6·1/3 + 1/6·1/2 = 11/36.
#[test]
fn cm_7_25_the_melee_preview_gives_the_exact_chances_of_two_lines_front_to_front() {
    let mut game = start("melee_pair.ron", 1);
    line(&mut game, "end");
    line(&mut game, "end");
    assert_eq!(phase(&game), "charge declarations");
    let p = preview(&game, "charge red_foot -> blue_foot");
    assert!(p.odds.contains("in mêlée with Blue foot"), "{}", p.odds);
    assert!(close(chance(&p, "Blue foot loses"), 11.0 / 36.0), "{p:?}");
    assert!(close(chance(&p, "Red foot loses"), 11.0 / 36.0), "{p:?}");
    assert!(close(chance(&p, "neither loses"), 14.0 / 36.0), "{p:?}");
    assert!(
        chance(
            &p,
            "Blue foot loses: it is pushed back with a DP (C&M 7.25)"
        ) > 0.0,
        "{p:?}"
    );
    assert_eq!(chance(&p, "both lose"), 0.0, "{p:?}");
    let sum: f64 = p.chances.iter().map(|(_, c)| c).sum();
    assert!(close(sum, 1.0));
}

/// The preview's stands and needs are the ones the Mêlée Phase rolls, in its order; and
/// the hits the dice give are the ones it counts.
#[test]
fn cm_7_20_the_melee_preview_reads_the_stands_and_needs_the_melee_rolls() {
    for seed in 0..20 {
        let mut game = start("melee_pair.ron", seed);
        line(&mut game, "end");
        line(&mut game, "end");
        let p = preview(&game, "charge red_foot -> blue_foot");
        let previewed: Vec<String> = p
            .modifiers
            .iter()
            .filter_map(|m| {
                let (stand, rest) = m.split_once(": needs ")?;
                Some(format!("{stand} (needs {}", rest.split(',').next()?))
            })
            .collect();
        line(&mut game, "end");
        line(&mut game, "end");
        let log = log_lines(&game);
        let rolled = dice(&log, "(C&M 7.20)");
        assert_eq!(rolled.len(), 4, "seed {seed}: {log:?}");
        let logged: Vec<String> = rolled
            .iter()
            .map(|(_, r)| {
                r.trim_end_matches(" (C&M 7.20)")
                    .trim_end_matches(')')
                    .to_string()
            })
            .collect();
        assert_eq!(previewed, logged, "seed {seed}");
        // The hits: a face at or under the need.
        let hits = |who: &str| {
            rolled
                .iter()
                .filter(|(f, r)| {
                    let need: u8 = r
                        .split("(needs ")
                        .nth(1)
                        .and_then(|x| x.split(')').next())
                        .and_then(|x| x.parse().ok())
                        .expect("a need");
                    r.starts_with(who) && *f <= need
                })
                .count()
        };
        let (red, blue) = (hits("Red foot"), hits("Blue foot"));
        let result = log
            .iter()
            .find(|l| l.starts_with("Red foot inflicts"))
            .expect("the mêlée's result");
        assert!(
            result.starts_with(&format!("Red foot inflicts {red} hits and receives {blue}")),
            "seed {seed}: {result}"
        );
        assert_eq!(result.contains("it loses"), blue > red, "seed {seed}");
    }
}

/// `shooting.ron`: the Red bowmen (two stands, long-range factor 2) at the unarmoured
/// Blue warriors: each die hits on 2 or less, 1/3; 0, 1 or 2 hits with 4/9, 4/9, 1/9.
/// With the warriors at 4 DPs, one hit shakes them and a second is a casualty (spec
/// B.2 §5).
#[test]
fn cm_b2_11_the_shot_preview_gives_the_exact_chance_of_each_number_of_hits() {
    let mut game = start("shooting.ron", 1);
    line(&mut game, "end");
    line(&mut game, "end");
    assert_eq!(phase(&game), "missile declarations");
    let p = preview(&game, "shoot red_bows -> blue_warband");
    assert!(
        p.odds.contains("at long range: 2 stands see it"),
        "{}",
        p.odds
    );
    assert!(close(chance(&p, "no hit"), 4.0 / 9.0), "{p:?}");
    assert!(close(chance(&p, "1 hit: 1 DP"), 4.0 / 9.0), "{p:?}");
    assert!(close(chance(&p, "2 hits: 2 DPs"), 1.0 / 9.0), "{p:?}");
    let e = entity(&game, "blue_warband");
    game.world.get_mut::<CmMorale>(e).expect("morale").dps = 4;
    let p = preview(&game, "shoot red_bows -> blue_warband");
    assert!(close(chance(&p, "1 hit: 1 DP, shaken"), 4.0 / 9.0), "{p:?}");
    assert!(
        close(chance(&p, "2 hits: 2 DPs, shaken, 1 casualty"), 1.0 / 9.0),
        "{p:?}"
    );
    // A shot that may not be declared has no preview: its refusal.
    let command = game
        .parse_line("shoot red_bows -> blue_warband_3")
        .unwrap()
        .unwrap();
    assert!(game.ruleset.attack_preview(&game.world, &command).is_err());
}

/// The shot preview's stands and need are the exchange's dice.
#[test]
fn cm_b2_11_the_shot_preview_reads_the_stands_and_need_the_exchange_rolls() {
    for seed in 0..10 {
        let mut game = start("shooting.ron", seed);
        line(&mut game, "end");
        line(&mut game, "end");
        let cases = [
            ("shoot red_bows -> blue_warband", "Red bowmen's stand in", 2),
            ("shoot red_hi -> blue_warband_3", "Red foot's stand in", 1),
        ];
        let previews: Vec<AttackPreview> =
            cases.iter().map(|(c, _, _)| preview(&game, c)).collect();
        for (c, _, _) in &cases {
            line(&mut game, c);
        }
        line(&mut game, "end");
        line(&mut game, "end");
        let log = log_lines(&game);
        for ((_, purpose, need), p) in cases.iter().zip(&previews) {
            let rolled = dice(&log, purpose);
            assert!(
                p.odds.contains(&format!("{} stands see it", rolled.len())),
                "seed {seed}: {} against {rolled:?}",
                p.odds
            );
            assert!(
                rolled
                    .iter()
                    .all(|(_, r)| r.contains(&format!("(needs {need})")))
            );
            assert!(p.modifiers[0].contains(&format!("hits on {need} or less")));
        }
    }
}

fn actions(game: &Game, key: &str) -> Vec<(String, String)> {
    game.ruleset
        .unit_actions(&game.world, entity(game, key))
        .into_iter()
        .map(|c| (c.label, c.command.to_string()))
        .collect()
}

/// A unit chosen in the Charge Phase lists the charges it may declare, each with its
/// move die's chance of contact (7.6): the Red warband, one javelin throw from the Blue
/// foot, always reaches it (D6 − 1, at least 1); the light horse far off is not listed.
/// In the missile declarations, a shooter lists its marks with their exchange.
#[test]
fn cm_7_2_a_chosen_unit_lists_the_charges_and_shots_it_may_declare() {
    let mut game = start("skirmish.ron", 1);
    to_charges(&mut game);
    let list = actions(&game, "red_foot");
    assert_eq!(
        list,
        vec![(
            "Charge Blue foot: contact 100% (C&M 7.6)".to_string(),
            "charge red_foot -> blue_foot".to_string()
        )]
    );
    // Not the other side's units: Blue declares after Red.
    assert!(actions(&game, "blue_foot").is_empty());
    let cmd = game.parse_line(&list[0].1).unwrap().unwrap();
    game.submit(&cmd).expect("the listed charge is legal");

    let mut game = start("shooting.ron", 1);
    line(&mut game, "end");
    line(&mut game, "end");
    let list = actions(&game, "red_bows");
    assert!(
        list.iter().any(
            |(l, c)| l == "Shoot at Blue warriors (long range, spec B.2 §11)"
                && c == "shoot red_bows -> blue_warband"
        ),
        "{list:?}"
    );
    for (_, c) in &list {
        let cmd = game.parse_line(c).unwrap().unwrap();
        assert!(game.ruleset.check(&game.world, &cmd).is_ok(), "{c}");
    }
}

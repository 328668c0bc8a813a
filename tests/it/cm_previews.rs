//! Charge & mêlée's mêlée and shot previews (issue 16; C&M 7.20-7.25, spec B.2 §11), and
//! a battle line's charge preview (C&M 7.1, 7.15): their exact chances worked by hand,
//! and their stands, needs and outcomes checked against the dice the game then rolls.

use crate::cm_common::{
    entity, fixture, id, line, log_lines, phase, stand_if_asked, start as start_at, to_charges,
};
use bataille::engine::game::Game;
use bataille::engine::view::AttackPreview;
use bataille::rulesets::charge_and_melee::data::{ChargeResult, Tables};
use bataille::rulesets::charge_and_melee::line_preview::{LineCharge, LineOutcome};
use bataille::rulesets::charge_and_melee::preview::result_name;
use bataille::rulesets::charge_and_melee::{CmMorale, CmUnit};
use bataille::rulesets::common::{RulesetTables, plain_name};

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

/// A battle-line fixture at Red's charge declarations, the Red chief having spent a CP
/// on each of the line's two units (7.1: a controlled line charges as one body).
fn line_at_charges(name: &str, seed: u64) -> Game {
    let mut game = start(name, seed);
    line(&mut game, "spend red_chief red_a 1");
    line(&mut game, "spend red_chief red_b 1");
    to_charges(&mut game);
    game
}

/// `battle_line.ron`: Red foot A (A grade: the average die) and Red foot B (B grade: a
/// D6), heavy infantry side by side, charge Blue foot X and Y (B grade) one javelin
/// throw ahead: the foot's move die (D6 − 1, at least 1) always reaches contact, the
/// Blue javelins have no chance against armour (7.14), and each Red unit takes a
/// fatigue DP on a move die of 5-6 (7.7, −1 to its total). The one combat (7.15): each
/// side's dice and factors (Attack 3 for the chargers, Defence 3 for the Blue foot,
/// each unit's MV), totalled and divided by its two units, rounded up; four stands a
/// side, so none outnumbered. Worked here over every move die and combat die.
#[test]
fn cm_7_1_the_line_preview_gives_the_one_combats_chances_worked_by_hand() {
    let game = line_at_charges("battle_line.ron", 1);
    let p = preview(&game, "charge red_a -> blue_x");
    assert!(
        p.odds.starts_with(
            "the battle line of Red foot A and Red foot B charges Blue foot X and Blue foot Y: contact 100%"
        ),
        "{}",
        p.odds
    );
    assert!(
        p.modifiers
            .iter()
            .any(|m| m.contains("one body") && m.ends_with("the chances are the line's")),
        "{:?}",
        p.modifiers
    );
    let tables = Tables::builtin().expect("the built-in tables");
    let chart = &tables.charts.charge;
    let heavy = tables
        .troops
        .troops
        .iter()
        .find(|t| t.id == "heavy_infantry")
        .expect("heavy infantry");
    let mv = |key: &str| i32::from(game.world.get::<CmUnit>(entity(&game, key)).unwrap().mv);
    let (attack, defence) = (i32::from(heavy.attack), i32::from(heavy.defence));
    let per_dp = i32::from(chart.per_dp);
    let average = [2, 3, 3, 4, 4, 5];
    let up = |sum: i32| -((-sum).div_euclid(2));
    let mut expected = [0.0f64; 6];
    for move_a in 1..=6 {
        for move_b in 1..=6 {
            let fatigue = |m: i32| if m >= 5 { per_dp } else { 0 };
            for a in average {
                for b in 1..=6 {
                    let red = up(a
                        + b
                        + 2 * attack
                        + mv("red_a")
                        + mv("red_b")
                        + fatigue(move_a)
                        + fatigue(move_b));
                    for x in 1..=6 {
                        for y in 1..=6 {
                            let blue = up(x + y + 2 * defence + mv("blue_x") + mv("blue_y"));
                            let band = [5, 2, -1, -4, -6]
                                .iter()
                                .position(|from| red - blue >= *from)
                                .unwrap_or(5);
                            expected[band] += 1.0 / 6f64.powi(6);
                        }
                    }
                }
            }
        }
    }
    for (k, r) in ChargeResult::ALL.iter().enumerate() {
        let got = chance(&p, &format!("contact, {}", result_name(*r)));
        assert!(
            close(got, expected[k]),
            "{r:?}: {got} against {}",
            expected[k]
        );
    }
    assert_eq!(chance(&p, "falls short"), 0.0, "{p:?}");
    let sum: f64 = p.chances.iter().map(|(_, c)| c).sum();
    assert!(close(sum, 1.0));
}

/// The dice a charge resolution rolled, read from its log, with the line's reading.
struct Rolled {
    moves: Vec<u8>,
    hits: Vec<u8>,
    /// The line's result as the resolution logged it, `None` when no unit fought.
    result: Option<String>,
}

fn rolled(log: &[String], chargers: &[&str]) -> (Rolled, impl Fn(&str) -> u8) {
    let face = |who: &str, what: &str| -> Option<u8> {
        dice(log, &format!("{who}'s {what}"))
            .first()
            .map(|(f, _)| *f)
    };
    let moves = chargers
        .iter()
        .map(|c| face(c, "charge move").expect("a move die"))
        .collect();
    let hits = chargers
        .iter()
        .map(|c| {
            log.iter()
                .find(|l| {
                    l.starts_with(&format!("{c} ("))
                        && l.contains(" is hit ")
                        && l.ends_with("(C&M 7.14)")
                })
                .map_or(0, |l| {
                    l.split(" is hit ").nth(1).unwrap()[..1].parse().unwrap()
                })
        })
        .collect();
    // The attackers' line of the combat: "Red foot A, Red foot B: 5 against 3: Success".
    let result = log
        .iter()
        .find(|l| l.starts_with("Red ") && l.contains(" against ") && l.ends_with("(C&M 7.15)"))
        .map(|l| {
            l.rsplit(": ")
                .next()
                .unwrap()
                .trim_end_matches(" (C&M 7.15)")
                .to_string()
        });
    // Each unit's plain face: "Die: 4 for ..." or, for the average die, "AvD 3 (d6 4)
    // for ...".
    let combat: Vec<(String, u8)> = log
        .iter()
        .filter_map(|l| l.strip_suffix("'s charge total (C&M 7.15)"))
        .map(|l| l.strip_prefix("Die: ").unwrap_or(l))
        .map(|r| {
            let (face, who) = r.split_once(" for ").expect("a die's purpose");
            let face = face.split("(d6 ").nth(1).unwrap_or(face);

            (
                who.to_string(),
                face.trim_end_matches(')').parse().expect("a face"),
            )
        })
        .collect();
    let combat_face = move |who: &str| {
        combat
            .iter()
            .find(|(w, _)| w == who)
            .map(|(_, f)| *f)
            .unwrap_or_else(|| panic!("no charge total die for {who}"))
    };
    (
        Rolled {
            moves,
            hits,
            result,
        },
        combat_face,
    )
}

/// For every seed, the line's outcome the preview reads on the dice the resolution then
/// rolls is the result it logs (7.1, 7.15): the same move dice, hits and combat dice
/// give the same contact and the same band; the outcomes seen have a chance, and come
/// about about as often as the preview says. `battle_line.ron` (certain contact) and
/// `battle_line_horse.ron` (heavy cavalry 3 JT from crossbowmen: a move die of 1 falls
/// short, and the crossbows shoot as the horse comes on, 7.14).
#[test]
fn cm_7_1_the_line_preview_reads_the_outcome_the_resolution_rolls() {
    let cases = [
        ("battle_line.ron", ["Red foot A", "Red foot B"]),
        ("battle_line_horse.ron", ["Red horse A", "Red horse B"]),
    ];
    for (name, chargers) in cases {
        let seeds = 60;
        let mut seen: Vec<(String, u32)> = Vec::new();
        let mut expected: Vec<(String, f64)> = Vec::new();
        let mut hit = false;
        for seed in 0..seeds {
            // The preview reads the position before the charge; a twin game of the
            // same seed plays it.
            let before = line_at_charges(name, seed);
            let p = preview(&before, "charge red_a -> blue_x");
            expected = p.chances.clone();
            let line_charge =
                LineCharge::of(&before.world, id(&before, "red_a"), id(&before, "blue_x"))
                    .expect("a battle line");
            let mut game = line_at_charges(name, seed);
            line(&mut game, "charge red_a -> blue_x");
            line(&mut game, "end");
            line(&mut game, "end");
            for _ in 0..4 {
                stand_if_asked(&mut game);
            }
            let log = log_lines(&game);
            let (r, combat_face) = rolled(&log, &chargers);
            hit |= r.hits.iter().any(|h| *h > 0);
            let read = line_charge.outcome(&before.world, &r.moves, &r.hits, |u| {
                combat_face(&plain_name(&before.world, u))
            });
            let label = match (read, &r.result) {
                (LineOutcome::Result(x), Some(logged)) => {
                    assert_eq!(result_name(x), logged, "{name}, seed {seed}");
                    format!("contact, {logged}")
                }
                (LineOutcome::FallsShort, None) => "falls short (7.9)".to_string(),
                (LineOutcome::StandLost, Some(_)) => "contact after losing".to_string(),
                other => panic!("{name}, seed {seed}: {other:?}: {log:#?}"),
            };
            assert!(
                chance(&p, &label) > 0.0,
                "{name}, seed {seed}: {label}: {p:?}"
            );
            match seen.iter_mut().find(|(l, _)| *l == label) {
                Some((_, n)) => *n += 1,
                None => seen.push((label, 1)),
            }
        }
        // Loosely (the dice are random): each outcome's share of the seeds near its
        // chance, within three standard deviations of 60 throws and a little more.
        for (label, p) in &expected {
            let n = seen
                .iter()
                .find(|(l, _)| l.contains(label.as_str()) || label.contains(l.as_str()))
                .map_or(0, |(_, n)| *n);
            let share = f64::from(n) / seeds as f64;
            assert!(
                (share - p).abs() < 0.2,
                "{name}: {label}: {share} against {p} ({seen:?})"
            );
        }
        assert_eq!(
            hit,
            name == "battle_line_horse.ron",
            "{name}: the crossbows' hits"
        );
        assert!(
            seen.len() >= 2,
            "{name}: the seeds cover several outcomes: {seen:?}"
        );
    }
}

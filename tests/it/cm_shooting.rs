//! Charge & mêlée's shooting played through the plugin (`charge_and_melee::ENTRY`): the
//! missile declarations and the long- and short-range exchanges (spec B.2 §11), line of
//! sight, shooting at chargers (C&M 7.14, its worked example), 7.13's flank charge that
//! unforms a unit standing to receive it, and 7.26's elephant rampage.

use crate::cm_common::{
    active, choices, fixture, formation_of, h, line, log_lines, morale_of, phase, refusal,
    stand_if_asked, stands_of, start,
};
use bataille::engine::game::Game;

/// Ends phases until `label`'s, for at most a turn.
fn end_until(game: &mut Game, label: &str) {
    for _ in 0..12 {
        if phase(game) == label {
            return;
        }
        line(game, "end");
    }
    panic!("never reached the {label}");
}

/// The dice a log shows for `purpose` (a substring of the die's line), in order.
fn dice(log: &[String], purpose: &str) -> Vec<u8> {
    log.iter()
        .filter_map(|l| l.strip_prefix("Die: "))
        .filter(|r| r.contains(purpose))
        .filter_map(|r| r.split_whitespace().next()?.parse().ok())
        .collect()
}

fn position(log: &[String], needle: &str) -> usize {
    log.iter()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no `{needle}` in\n{}", log.join("\n")))
}

/// The shooting position with Red's shots declared: its bowmen at long range, its
/// archers overhead from the second rank at long range, its foot at short range.
fn shots_declared(seed: u64) -> Game {
    let mut game = start(&fixture("shooting.ron"), seed);
    line(&mut game, "end");
    line(&mut game, "end");
    assert_eq!(
        (phase(&game), active(&game).as_str()),
        ("missile declarations", "red")
    );
    line(&mut game, "shoot red_bows -> blue_warband");
    line(&mut game, "shoot red_archers -> blue_warband_3");
    line(&mut game, "shoot red_hi -> blue_warband_3");
    game
}

#[test]
fn cm_b2_11_the_exchanges_come_after_both_move_phases_long_range_first() {
    for seed in 0..10 {
        let mut game = shots_declared(seed);
        let e = refusal(&mut game, "shoot red_bows -> blue_warband");
        assert!(
            e.contains("one target a turn") && e.contains("spec B.2 §11"),
            "{e}"
        );
        line(&mut game, "end");
        // Blue has nothing it may shoot at (its warriors' javelins against armour have no
        // chance): its declarations pass; both exchanges are rolled; the Charge Phase.
        assert_eq!(
            (phase(&game), active(&game).as_str()),
            ("charge declarations", "red")
        );
        let log = log_lines(&game);
        let long = position(&log, "The long-range missile exchange (spec B.2 §11)");
        let short = position(&log, "The short-range missile exchange (spec B.2 §11)");
        let charges = position(&log, "Red declares its charges");
        assert!(long < short && short < charges, "seed {seed}");
        // Bows: a D6 a stand that sees its mark, hitting on 2 or less (foot archers'
        // long-range factor, troops.ron), against unarmoured warriors.
        let bows = dice(&log, "Red bowmen's stand in");
        assert_eq!(bows.len(), 2, "seed {seed}: one die a stand");
        let archers = dice(&log, "Red archers' stand in");
        assert_eq!(
            archers.len(),
            2,
            "seed {seed}: the second rank shoots overhead"
        );
        let foot = dice(&log, "Red foot's stand in");
        assert_eq!(foot.len(), 2, "seed {seed}");
        assert!(
            log.iter()
                .any(|l| l.contains("Red foot's stand in") && l.contains("(needs 1)"))
        );
        // The long-range dice come before the short-range ones.
        let first_foot = position(&log, "Red foot's stand in");
        assert!(first_foot > short && position(&log, "Red archers' stand in") < short);
        // Each hit is a DP on its mark, landed together after the dice.
        let hits = |d: &[u8], need: u8| d.iter().filter(|f| **f <= need).count() as u8;
        assert_eq!(
            morale_of(&game, "blue_warband").dps,
            hits(&bows, 2),
            "seed {seed}"
        );
        assert_eq!(
            morale_of(&game, "blue_warband_3").dps,
            hits(&archers, 2) + hits(&foot, 1),
            "seed {seed}"
        );
        // Nobody shot back: Red took nothing.
        assert_eq!(morale_of(&game, "red_hi").dps, 0);
    }
}

#[test]
fn cm_b2_11_shots_are_refused_with_their_rule() {
    let mut game = start(&fixture("shooting.ron"), 1);
    let e = refusal(&mut game, "shoot red_bows -> blue_warband");
    assert!(e.contains("spec B.2 §11") && e.contains("movement"), "{e}");
    line(&mut game, "end");
    line(&mut game, "end");
    // Woods between (terrain.ron `blocks_sight`).
    let e = refusal(&mut game, "shoot red_bows_2 -> blue_warband_2");
    assert!(e.contains("sees") && e.contains("spec B.2 §11"), "{e}");
    let e = refusal(&mut game, "shoot red_bows -> red_hi");
    assert!(e.contains("is a friend"), "{e}");
    let e = refusal(&mut game, "shoot blue_warband -> red_bows");
    assert!(e.contains("Red declares now"), "{e}");
    let e = refusal(&mut game, "shoot red_bows -> blue_warband_3");
    assert!(e.contains("JT away") && e.contains("spec B.2 §11"), "{e}");
    let e = refusal(&mut game, "shoot red_chief -> blue_warband_3");
    assert!(e.contains("leaders do not shoot"), "{e}");
    // Nothing was rolled by the refusals.
    assert!(!game.log().lines().any(|l| l.starts_with("Die: ")));
    // The line of sight says what blocks: the woods.
    let sight = game
        .ruleset
        .sight(&game.world, h("0610"), h("0606"))
        .expect("C&M has a line of sight");
    assert!(!sight.clear);
    assert!(
        sight
            .steps
            .iter()
            .any(|s| s.stops() && s.blocks.as_deref() == Some("woods (spec B.2 §11)")),
        "{sight:?}"
    );
}

#[test]
fn cm_7_3_bows_shoot_overhead_from_a_second_rank_other_stands_block() {
    let game = start(&fixture("shooting.ron"), 1);
    // From the archers' stand, over their own foot in front of it: clear.
    let over = game
        .ruleset
        .sight(&game.world, h("1011"), h("1008"))
        .unwrap();
    assert!(over.clear, "{over:?}");
    // The same line from the empty hex behind them: both ranks block.
    let behind = game
        .ruleset
        .sight(&game.world, h("1012"), h("1008"))
        .unwrap();
    assert!(!behind.clear);
    assert!(
        behind.steps.iter().any(|s| s.stops()
            && s.blocks.as_deref() == Some("a stand of Red archers between (spec B.2 §11)")),
        "{behind:?}"
    );
    // The foot (javelins only) do not shoot over anyone: from the foot's stand the
    // line to the bowmen's mark runs clear, but from behind the bowmen it does not.
    let bows = game
        .ruleset
        .sight(&game.world, h("0311"), h("0306"))
        .unwrap();
    assert!(!bows.clear, "{bows:?}");
}

#[test]
fn cm_7_14_a_factor_of_one_against_armour_has_no_chance() {
    use bataille::rulesets::charge_and_melee::data::Tables;
    use bataille::rulesets::charge_and_melee::missile::{Exchange, factor, hits, need};
    use bataille::rulesets::common::RulesetTables;
    let t = Tables::builtin().unwrap();
    let chart = t.charts.missile;
    let horse_archers = t.troop("light_horse_archers").unwrap();
    let knights = t.troop("shock_cavalry").unwrap();
    // "with a missile factor of 1 at long range, -1 against an armoured target, have no
    // chance of scoring a hit at long range" (7.14's example).
    assert_eq!(factor(horse_archers, Exchange::Long), 1);
    let long = need(
        &chart,
        factor(horse_archers, Exchange::Long),
        knights.armoured,
    );
    assert_eq!(long, 0);
    assert!((1..=6).all(|d| !hits(&chart, long, d)));
    // At short range they hit on a 1.
    let short = need(
        &chart,
        factor(horse_archers, Exchange::Short),
        knights.armoured,
    );
    assert_eq!(short, 1);
    assert_eq!((1..=6).filter(|d| hits(&chart, short, *d)).count(), 1);
    // A need of 6 still misses on a 6 (7.21).
    assert!(hits(&chart, 6, 5) && !hits(&chart, 6, 6));
}

#[test]
fn cm_7_14_horse_archers_shoot_while_evading_and_are_caught() {
    let mut example_seen = false;
    for seed in 0..400 {
        let mut game = start(&fixture("shoot_evade.ron"), seed);
        line(&mut game, "end");
        line(&mut game, "end");
        // No shot is declared: the horse archers have no chance at long range (7.14),
        // the knights no missiles; both sides' declarations pass.
        assert_eq!(phase(&game), "charge declarations");
        line(&mut game, "charge knights -> horse_archers");
        line(&mut game, "end");
        line(&mut game, "end");
        let asked = choices(&game);
        for c in ["evade", "evade shoot", "countercharge"] {
            assert!(
                asked.contains(&format!("respond horse_archers {c}")),
                "{asked:?}"
            );
        }
        // They decide to wait and shoot at close range, before the dice (7.14).
        line(&mut game, "respond horse_archers evade shoot");
        let log = log_lines(&game);
        assert!(log.iter().any(|l| l.starts_with("Blue horse archers")
            && l.ends_with("answers: evade shoot (C&M 7.14)")));
        let knights_die = dice(&log, "Red knights's charge move")[0];
        let evade_die = dice(&log, "Blue horse archers's evade move")[0];
        // They shoot at the knights as they come, a D6 a stand, needing 1 (short-range
        // factor 2, -1 against armour), before anyone moves.
        let shots = dice(&log, "Blue horse archers' stand in");
        assert_eq!(shots.len(), 2, "seed {seed}");
        let volley = position(&log, "Blue horse archers' stand in");
        assert!(log[volley].contains("(needs 1)") && log[volley].ends_with("(C&M 7.14)"));
        assert!(volley < position(&log, "evades"));
        let knights_move = (knights_die + 1).min(6);
        // The fast move (7.6), + 1 for unformed light troops, - 1 for shooting (7.14).
        let evade = (evade_die + 1).min(6) + 1 - 1;
        let caught = 2 + u32::from(evade) <= u32::from(knights_move);
        assert!(
            log.iter().any(|l| l.contains("Blue horse archers (")
                && l.contains(&format!("evades {evade} hex"))),
            "seed {seed}: evade die {evade_die} should give {evade}\n{}",
            log.join("\n")
        );
        let contact = log.iter().any(|l| {
            l.starts_with("Red knights") && l.contains("into contact with Blue horse archers")
        });
        assert_eq!(contact, caught, "seed {seed}");
        // The hits land together, a DP each, before the moves (7.14).
        let hits = shots.iter().filter(|d| **d <= 1).count();
        let landed = log.iter().position(|l| {
            l == &format!(
                "Red knights (1007) is hit {hits} time{} (C&M 7.14)",
                if hits == 1 { "" } else { "s" }
            )
        });
        if hits > 0 {
            let at =
                landed.unwrap_or_else(|| panic!("seed {seed}: no hit landed\n{}", log.join("\n")));
            assert!(
                log[at + 1].starts_with("Red knights (1007) takes"),
                "seed {seed}"
            );
            assert!(at < position(&log, "evades"));
        } else {
            assert!(landed.is_none());
        }
        if knights_die == 5 && evade_die == 3 {
            // The text's numbers: 6 JT against a gap of 2 and an evade of 3 + 1 + 1 - 1 = 4.
            example_seen = true;
            assert_eq!(evade, 4);
            assert!(caught, "seed {seed}");
            assert!(log.iter().any(|l| l.contains("evades 4 hexes")));
        }
    }
    assert!(example_seen, "no seed rolled the example's 5 and 3");
}

#[test]
fn cm_7_14_a_unit_standing_to_receive_shoots_at_its_chargers_unless_it_shot_at_short_range() {
    for seed in 0..6 {
        for shot_before in [false, true] {
            let mut game = start(&fixture("skirmish.ron"), seed);
            line(&mut game, "end");
            line(&mut game, "end");
            // Red's second warband may shoot at the light horse: its declarations.
            assert_eq!(active(&game), "red");
            line(&mut game, "end");
            // Blue's heavy infantry may throw javelins at the Red warband (need 1).
            assert_eq!(
                (phase(&game), active(&game).as_str()),
                ("missile declarations", "blue")
            );
            if shot_before {
                line(&mut game, "shoot blue_foot -> red_foot");
            }
            end_until(&mut game, "charge declarations");
            line(&mut game, "charge red_foot -> blue_foot");
            line(&mut game, "end");
            line(&mut game, "end");
            stand_if_asked(&mut game);
            let log = log_lines(&game);
            let volley_lines: Vec<&String> = log
                .iter()
                .filter(|l| l.contains("Blue foot's stand in") && l.contains(" shoots at "))
                .filter(|l| l.ends_with("(C&M 7.14)"))
                .collect();
            if shot_before {
                // It shot in the short-range exchange: no second volley (7.14).
                assert!(volley_lines.is_empty(), "seed {seed}: {volley_lines:?}");
            } else {
                // It stands (compelled) and shoots, every stand facing the chargers.
                assert_eq!(volley_lines.len(), 3, "seed {seed}: {volley_lines:?}");
                let volley = position(&log, "Blue foot's stand in");
                assert!(volley > position(&log, "Red warband's charge move"));
                let charges = log
                    .iter()
                    .position(|l| l.starts_with("Red warband (") && l.contains(" charges "))
                    .expect("the charge move");
                assert!(volley < charges, "seed {seed}");
            }
        }
    }
}

#[test]
fn cm_7_14_a_unit_standing_to_receive_may_hold_its_fire() {
    for seed in 0..6 {
        let mut game = start(&fixture("skirmish.ron"), seed);
        end_until(&mut game, "charge declarations");
        line(&mut game, "charge red_foot -> blue_foot");
        line(&mut game, "end");
        line(&mut game, "end");
        // Heavy infantry must stand (7.10), and "may shoot" (7.14): both are offered.
        assert_eq!(
            choices(&game),
            vec![
                "respond blue_foot stand".to_string(),
                "respond blue_foot stand hold".to_string()
            ],
            "seed {seed}"
        );
        let e = refusal(&mut game, "respond blue_foot evade");
        assert!(e.contains("C&M 7.10") && e.contains("stand hold"), "{e}");
        line(&mut game, "respond blue_foot stand hold");
        let log = log_lines(&game);
        assert!(
            log.iter().any(|l| l.starts_with("Blue foot (")
                && l.contains("answers: stand hold")
                && l.ends_with("(C&M 7.14)")),
            "seed {seed}"
        );
        // No stand shoots at the warband as it comes on; the charge is fought all the same.
        assert!(
            !log.iter()
                .any(|l| l.contains(" shoots at ") && l.ends_with("(C&M 7.14)")),
            "seed {seed}: {log:#?}"
        );
        assert!(
            dice(&log, "Blue foot's charge total").len() == 1
                || !log
                    .iter()
                    .any(|l| l.contains("into contact with Blue foot")),
            "seed {seed}"
        );
    }
}

#[test]
fn cm_7_13_a_flank_charge_unforms_a_unit_that_stands_to_receive_it() {
    for seed in 0..8 {
        let mut game = start(&fixture("flank.ron"), seed);
        end_until(&mut game, "charge declarations");
        line(&mut game, "charge red_flank -> blue_line");
        line(&mut game, "charge red_front -> blue_front");
        line(&mut game, "end");
        line(&mut game, "end");
        let log = log_lines(&game);
        // Both Blue lines stand (heavy infantry, 7.10); the one charged in the flank
        // from two javelin throws away, beyond javelin range, still becomes unformed
        // when the horse strike, before the totals are rolled (7.13, 7.15's -2).
        let unformed = position(
            &log,
            "Blue line (0510) is charged in the flank by Red horse on the flank and becomes unformed (C&M 7.13)",
        );
        assert!(unformed > position(&log, "Red horse on the flank (0"));
        assert!(unformed < position(&log, "Blue line's charge total"));
        assert!(!formation_of(&game, "blue_line").formed(), "seed {seed}");
        // Charged from the front, the other keeps its formation (7.13 says nothing of it).
        assert!(
            !log.iter()
                .any(|l| l.starts_with("Blue front") && l.ends_with("(C&M 7.13)")),
            "seed {seed}"
        );
        assert_eq!(stands_of(&game, "blue_line").len(), 4);
    }
}

#[test]
fn cm_7_26_a_losing_elephant_rampages_on_1_or_2_else_stays() {
    let (mut rampaged, mut stayed) = (0, 0);
    for seed in 0..80 {
        let mut game = start(&fixture("rampage.ron"), seed);
        // Nobody shoots or charges: the lines in contact fight the mêlée (7.18).
        end_until(&mut game, "charge declarations");
        line(&mut game, "end");
        line(&mut game, "end");
        let log = log_lines(&game);
        if !log
            .iter()
            .any(|l| l.starts_with("Red elephants inflicts") && l.contains(": it loses"))
        {
            continue;
        }
        // Never pushed back: a DP, then the test (7.26).
        let dp = position(&log, "Red elephants (0507) takes 1 DP (C&M 7.26)");
        let die = dice(&log, "Red elephants's rampage test");
        assert_eq!(die.len(), 1, "seed {seed}");
        assert!(position(&log, "Red elephants's rampage test") > dp);
        assert!(
            !log.iter()
                .any(|l| l.starts_with("Red elephants") && l.contains("is pushed back"))
        );
        if die[0] <= 2 {
            rampaged += 1;
            // Towards the nearest unit not in contact, of either side: its own warband,
            // which it charges (7.15: the warband's total first, as the one charged).
            let went = position(&log, "Red elephants (0507) rampages towards Red warband");
            let hit = position(&log, "rampages 1 hex and charges Red warband (C&M 7.26)");
            let def = position(&log, "Red warband's charge total");
            let att = position(&log, "Red elephants's charge total");
            assert!(went < hit && hit < def && def < att, "seed {seed}");
            assert!(
                log.iter()
                    .any(|l| l.starts_with("Red warband: ") && l.ends_with("(C&M 7.15)"))
            );
        } else {
            stayed += 1;
            assert!(log.contains(&"Red elephants (0507) stays in place (C&M 7.26)".to_string()));
            assert!(!log.iter().any(|l| l.contains("rampages")));
        }
    }
    assert!(
        rampaged > 0 && stayed > 0,
        "{rampaged} rampaged, {stayed} stayed"
    );
}

#[test]
fn cm_7_10_archers_that_shot_at_short_range_must_stand() {
    for shot in [false, true] {
        let mut game = start(&fixture("archers.ron"), 3);
        line(&mut game, "end");
        line(&mut game, "end");
        assert_eq!(
            (phase(&game), active(&game).as_str()),
            ("missile declarations", "red")
        );
        if shot {
            line(&mut game, "shoot red_archers -> blue_warband");
        }
        end_until(&mut game, "charge declarations");
        line(&mut game, "end");
        line(&mut game, "charge blue_warband -> red_archers");
        line(&mut game, "end");
        let log = log_lines(&game);
        if shot {
            // They shot in the short-range exchange: they stand, unasked (7.10), and
            // do not shoot again at the chargers (7.14).
            assert!(
                log.iter()
                    .any(|l| l.contains("Red archers' stand in") && l.ends_with("(spec B.2 §11)"))
            );
            assert!(choices(&game).is_empty(), "{:?}", choices(&game));
            assert!(
                log.iter()
                    .any(|l| l.starts_with("Red archers")
                        && l.ends_with("answers: stand (C&M 7.10)")),
                "{}",
                log.join("\n")
            );
            assert!(!log.iter().any(|l| l.ends_with("(C&M 7.14)")));
        } else {
            // Light infantry charged by foot alone must evade (7.10); they may wait to
            // shoot at short range first (7.14).
            assert_eq!(
                choices(&game),
                vec![
                    "respond red_archers evade".to_string(),
                    "respond red_archers evade shoot".to_string()
                ]
            );
            let e = refusal(&mut game, "respond red_archers stand");
            assert!(e.contains("C&M 7.10"), "{e}");
            let e = refusal(&mut game, "respond red_archers shoot");
            assert!(e.contains("no answer"), "{e}");
        }
    }
}

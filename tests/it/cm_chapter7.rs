//! Charge & mêlée's later paragraphs of chapter 7 played through the plugin
//! (`charge_and_melee::ENTRY`): 7.27's push-back chains and their exceptions, 7.13's
//! about-face to receive a charge, 7.19's cuneus re-arrangement.

use crate::cm_common::{
    choices, fixture, formation_of, h, hs, id, line, log_lines, morale_of, stands_of, start,
};
use bataille::engine::game::Game;

/// Whether the mêlée's log says `who` lost it.
fn lost(log: &[String], who: &str) -> bool {
    log.iter()
        .any(|l| l.contains(who) && l.contains("inflicts") && l.contains(": it loses"))
}

/// The push-back position after its first mêlée (no charge declared: the lines start in
/// contact, 7.18).
fn pushback_melee(seed: u64) -> Game {
    let mut game = start(&fixture("pushback.ron"), seed);
    for _ in 0..4 {
        line(&mut game, "end");
    }
    game
}

#[test]
fn cm_7_27_a_pushed_back_unit_pushes_back_the_friends_behind_it_in_turn() {
    let mut pushed = 0;
    for seed in 0..40 {
        let game = pushback_melee(seed);
        let log = log_lines(&game);
        if !lost(&log, "Blue rabble A ") || morale_of(&game, "blue_a").casualties > 0 {
            continue;
        }
        pushed += 1;
        // The loser steps back one base depth, still facing the enemy (7.25) ...
        assert_eq!(
            stands_of(&game, "blue_a"),
            hs(&["0106", "0206"]),
            "seed {seed}"
        );
        // ... and pushes the rabble behind it, which pushes the one behind that (7.27).
        assert_eq!(
            stands_of(&game, "blue_a2"),
            hs(&["0107", "0207"]),
            "seed {seed}"
        );
        assert_eq!(
            stands_of(&game, "blue_a3"),
            hs(&["0108", "0208"]),
            "seed {seed}"
        );
        assert!(
            log.iter().any(|l| l.contains("Blue rabble A2")
                && l.contains("is pushed back by")
                && l.ends_with("(C&M 7.27)")),
            "seed {seed}"
        );
        // Friends pushed back take no DP: only the loser does (7.25).
        assert_eq!(morale_of(&game, "blue_a2").dps, 0, "seed {seed}");
        assert_eq!(morale_of(&game, "blue_a3").dps, 0, "seed {seed}");
        // The blue commander, on the last rabble, moves with it.
        let chief = id(&game, "blue_chief");
        assert_eq!(
            bataille::rulesets::common::hex_of(&game.world, chief),
            Some(h("0108"))
        );
    }
    assert!(pushed > 0, "no seed pushed back Blue rabble A");
}

#[test]
fn cm_7_27_cavalry_pushed_back_against_formed_foot_are_eliminated() {
    let mut seen = 0;
    for seed in 0..40 {
        let game = pushback_melee(seed);
        let log = log_lines(&game);
        if !lost(&log, "Blue light horse B ") {
            continue;
        }
        seen += 1;
        // Both stands had formed foot behind them: both are lost, the foot stays.
        assert!(stands_of(&game, "blue_b").is_empty(), "seed {seed}");
        assert_eq!(
            stands_of(&game, "blue_b2"),
            hs(&["0606", "0706"]),
            "seed {seed}"
        );
        assert!(
            log.iter().any(|l| l.contains("pushed back against")
                && l.contains("Blue foot B2")
                && l.ends_with("(C&M 7.27)")),
            "seed {seed}"
        );
    }
    assert!(seen > 0, "no seed beat the light horse");
}

#[test]
fn cm_7_27_a_middle_stand_pushed_back_against_formed_foot_does_not_split_its_unit() {
    // The light horse's middle stand alone has formed foot behind it: losing that very
    // stand would leave the two others not touching (spec B.2 §2). The casualty is the
    // unit's, taken as other casualties are (`remove_stands`: at an end); the stand
    // against the foot stays, so the push-back is blocked (designer's reading).
    let mut seen = 0;
    for seed in 0..40 {
        // `line` checks after every command that no unit is split.
        let game = {
            let mut game = start(&fixture("pushback_split.ron"), seed);
            for _ in 0..4 {
                line(&mut game, "end");
            }
            game
        };
        let log = log_lines(&game);
        if !lost(&log, "Blue light horse B ") {
            continue;
        }
        seen += 1;
        let horse = stands_of(&game, "blue_b");
        assert_eq!(horse.len(), 2, "seed {seed}: {horse:?}");
        assert!(horse[0].distance(horse[1]) == 1, "seed {seed}: {horse:?}");
        assert!(horse.contains(&h("0705")), "seed {seed}: {horse:?}");
        assert_eq!(morale_of(&game, "blue_b").casualties, 1, "seed {seed}");
        assert_eq!(stands_of(&game, "blue_b2"), hs(&["0706", "0707"]));
        assert!(
            log.iter().any(|l| l.contains("Blue light horse B")
                && l.contains("loses the stand")
                && l.ends_with("(C&M 7.27)")),
            "seed {seed}: {log:?}"
        );
    }
    assert!(seen > 0, "no seed beat the light horse");
}

#[test]
fn cm_7_27_a_formed_stand_pushed_back_against_elephants_is_eliminated() {
    let mut seen = 0;
    for seed in 0..40 {
        let game = pushback_melee(seed);
        let log = log_lines(&game);
        if !lost(&log, "Blue rabble C ") {
            continue;
        }
        seen += 1;
        assert!(stands_of(&game, "blue_c").is_empty(), "seed {seed}");
        assert_eq!(
            stands_of(&game, "blue_c2"),
            hs(&["1106", "1206"]),
            "seed {seed}"
        );
        assert_eq!(morale_of(&game, "blue_c").casualties, 2, "seed {seed}");
    }
    assert!(seen > 0, "no seed beat the rabble before the elephants");
}

/// The about-face position with both charges declared and the answers asked.
fn about_face_charged(seed: u64) -> Game {
    let mut game = start(&fixture("about_face.ron"), seed);
    line(&mut game, "end");
    line(&mut game, "end");
    line(&mut game, "charge red_a -> blue_a");
    line(&mut game, "charge red_b -> blue_b");
    line(&mut game, "end");
    line(&mut game, "end");
    game
}

#[test]
fn cm_7_13_a_unit_charged_from_the_rear_may_turn_about_to_receive_it() {
    let mut game = about_face_charged(1);
    // Heavy infantry must stand (7.10); charged from the rear it may also turn about.
    let asked = choices(&game);
    assert!(
        asked.contains(&"respond blue_a stand".to_string()),
        "{asked:?}"
    );
    assert!(
        asked.contains(&"respond blue_a about".to_string()),
        "{asked:?}"
    );
    assert!(!asked.iter().any(|c| c.ends_with("evade")), "{asked:?}");
    line(&mut game, "respond blue_a about");
    // 180°, never 90° (7.13): now facing south, towards its charger.
    assert_eq!(formation_of(&game, "blue_a").facing.name(), "S");
    assert!(formation_of(&game, "blue_a").formed());
    // The charge began one javelin throw away (within javelin range): it costs a DP
    // (charts.ron `about_face_dps`).
    assert_eq!(morale_of(&game, "blue_a").dps, 1);
    let log = log_lines(&game);
    assert!(log.iter().any(|l| l.contains("Blue foot A")
        && l.contains("turns about")
        && l.ends_with("(C&M 7.13)")));
    assert!(log.iter().any(|l| l.contains("Blue foot A")
        && l.contains("takes 1 DP")
        && l.ends_with("(C&M 7.13)")));
}

#[test]
fn cm_7_13_no_dp_when_the_charge_began_beyond_javelin_range() {
    let mut game = about_face_charged(2);
    line(&mut game, "respond blue_a stand");
    // Blue foot B's charger, horse, began three javelin throws away.
    let asked = choices(&game);
    assert!(
        asked.contains(&"respond blue_b about".to_string()),
        "{asked:?}"
    );
    let dps = morale_of(&game, "blue_b").dps;
    line(&mut game, "respond blue_b about");
    let log = log_lines(&game);
    assert!(log.iter().any(|l| l.contains("Blue foot B")
        && l.contains("turns about")
        && l.ends_with("(C&M 7.13)")));
    assert!(
        !log.iter()
            .any(|l| l.contains("Blue foot B takes") && l.ends_with("(C&M 7.13)")),
        "{log:#?}"
    );
    let _ = dps;
    // Blue foot A stood: it kept its facing and took no 7.13 DP.
    assert!(
        !log.iter()
            .any(|l| l.contains("Blue foot A") && l.ends_with("(C&M 7.13)"))
    );
}

#[test]
fn cm_7_13_a_charge_from_the_front_offers_no_about_face() {
    // The skirmish's warband charges Blue foot from its front: it stands, unasked.
    let mut game = start(&fixture("skirmish.ron"), 1);
    while game.turn().phase.label != "charge declarations" {
        line(&mut game, "end");
    }
    line(&mut game, "charge red_foot -> blue_foot");
    line(&mut game, "end");
    line(&mut game, "end");
    assert!(
        !choices(&game).iter().any(|c| c.ends_with("about")),
        "{:?}",
        choices(&game)
    );
    let e = match game.submit_line("respond blue_foot about") {
        Ok(_) => panic!("accepted"),
        Err((_, e)) => e,
    };
    assert!(e.contains("C&M 7.1"), "{e}");
}

#[test]
fn cm_7_19_a_cuneus_pushes_a_stand_from_its_rear_rank_to_the_front() {
    for seed in 0..6 {
        let mut game = start(&fixture("cuneus.ron"), seed);
        for _ in 0..4 {
            line(&mut game, "end");
        }
        let log = log_lines(&game);
        // One stand (the first rear stand, 0403) moves up into the room on the front
        // rank's left, facing Blue's overlapping stand in 0305 (7.19) ...
        let moved: Vec<&String> = log.iter().filter(|l| l.ends_with("(C&M 7.19)")).collect();
        assert_eq!(moved.len(), 1, "seed {seed}: {moved:?}");
        assert!(moved[0].contains("0403 to 0304"), "{}", moved[0]);
        // ... before the bouts, so it fights the stand it now faces (7.20).
        let at = |needle: &str| log.iter().position(|l| l.contains(needle));
        let bout =
            at("Red wedge's stand in 0304 against 0305").expect("the new front stand fights");
        assert!(at("(C&M 7.19)").expect("the move") < bout);
        // A line does not do it.
        assert!(!log.iter().any(|l| l.contains("Blue line pushes")));
    }
}

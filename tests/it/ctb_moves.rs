//! A stand's own moves in play (CtB 3.0-3.10, with the readings ): what a
//! stand may do in its turn (fire then move once, move then fire, never fire twice),
//! an extra move spent turning another face, turning to the rear, the zone of control
//! that stops a move or holds a stand that begins in it, interpenetration on the move
//! and in a retreat, and displacement.

use bataille::engine::game::Game;
use bataille::rulesets::charles_the_bold::{CtbState, CtbStatus, OngoingMelee};

use crate::common::{decision, default_retreats, facing, hex, log_text, refused, root, run};
use crate::ctb_generals::{
    BROWN, GENERAL, blue, brown, dice_from, flags, game_of, game_of_listed, unit,
};

/// French against French: Blue's general in 0105 and `blue`, against Brown's `brown`
/// with `BROWN`; the dice `more` after the initiative.
fn french(blue: &[String], brown: &[String], more: &[u8]) -> Game {
    let blue = format!("{GENERAL}{}", blue.concat());
    let brown = format!("{BROWN}{}", brown.concat());
    game_of(["french", "french"], false, "", &blue, &brown, more)
}

// ---- a stand's turn (CtB 3.0) ----

#[test]
fn ctb_3_0_fire_then_move_once_move_then_fire_never_twice() {
    // Crossbowmen in 0305 facing E; the Brown men at arms two hexes off in 0506.
    let stands = || {
        (
            vec![blue("x", "Crossbowmen", "crossbow_sh", "0305", "E")],
            vec![brown("t", "Brown men", "dismounted_maa", "0506", "W")],
        )
    };
    // Fire, declaring a move after it: one move, then nothing more.
    let (b, r) = stands();
    let mut g = french(&b, &r, &[]);
    run(&mut g, &["fire x moving -> t", "go x 0404"]);
    assert_eq!(hex(&g, "x").as_deref(), Some("0404"));
    let r = refused(&mut g, "go x 0504");
    assert!(
        r.contains("CtB 3.0") && r.contains("has moved and fired"),
        "{r}"
    );
    let r = refused(&mut g, "fire x -> t");
    assert!(
        r.contains("CtB 3.0") && r.contains("has fired this activation"),
        "{r}"
    );
    // Fire without declaring a move: no move after it.
    let (b, r) = stands();
    let mut g = french(&b, &r, &[]);
    run(&mut g, &["fire x -> t"]);
    let r = refused(&mut g, "go x 0404");
    assert!(
        r.contains("CtB 3.0")
            && r.contains("fires then moves once (declared with `fire … moving`)"),
        "{r}"
    );
    // Move, then fire (not declaring a move after it: it has moved), then nothing.
    let (b, r) = stands();
    let mut g = french(&b, &r, &[]);
    run(&mut g, &["go x 0404"]);
    let r = refused(&mut g, "fire x moving -> t");
    assert!(r.contains("may fire, but not move again after"), "{r}");
    run(&mut g, &["fire x -> t"]);
    let log = log_text(&g);
    assert!(log.contains("1 move(s) before firing (CtB 6.0)"), "{log}");
    let r = refused(&mut g, "go x 0504");
    assert!(
        r.contains("CtB 3.0") && r.contains("has moved and fired"),
        "{r}"
    );
}

#[test]
fn ctb_3_0_a_move_after_fire_stopped_by_opportunity_goes_on() {
    // The crossbowmen fire at the men at arms declaring a move, then move 0404, 0504;
    // at 0404 the Brown crossbowmen on opportunity in 0703 could shoot them: the move
    // stops, is let be, and goes on to 0504 (CtB 3.0, 5.0).
    let mut g = french(
        &[blue("x", "Crossbowmen", "crossbow_sh", "0305", "E")],
        &[
            brown("t", "Brown men", "dismounted_maa", "0506", "W"),
            brown("w", "Brown crossbowmen", "crossbow_sh", "0703", "W"),
        ],
        &[],
    );
    let e = bataille::rulesets::common::entity(&g.world, unit(&g, "w"));
    g.world
        .get_mut::<CtbStatus>(e)
        .expect("a stand")
        .opportunity = true;
    run(&mut g, &["fire x moving -> t", "go x 0404 0504"]);
    let d = decision(&g).expect("the stand on opportunity is asked");
    assert_eq!(d.rule, "CtB 5.0", "{d:?}");
    assert_eq!(hex(&g, "x").as_deref(), Some("0404"));
    run(&mut g, &["react none"]);
    assert_eq!(hex(&g, "x").as_deref(), Some("0504"), "{}", log_text(&g));
}

// ---- changing facing (CtB 3.1) ----

#[test]
fn ctb_3_1_an_extra_move_turns_another_face_with_an_order_test() {
    // Bills (class B: 4+) turn one face, then a second in an extra move: a 4 passes,
    // and the second face does not disorder them.
    let mut g = french(
        &[blue("b", "Bills", "double_bills", "0305", "E")],
        &[],
        &[4],
    );
    run(&mut g, &["go b cw", "go b cw"]);
    let log = log_text(&g);
    assert!(
        log.contains("Die: 4 for the Order Test of Bills (class B: 4+)"),
        "{log}"
    );
    assert_eq!(facing(&g, "b"), "SSW");
    assert!(!flags(&g, "b").contains(&"disordered".to_string()), "{log}");
    // A 3 fails: disordered, the second face not turned, no more movement.
    let mut g = french(
        &[blue("b", "Bills", "double_bills", "0305", "E")],
        &[],
        &[3],
    );
    run(&mut g, &["go b cw", "go b cw"]);
    assert_eq!(facing(&g, "b"), "SSE");
    assert!(flags(&g, "b").contains(&"disordered".to_string()));
    assert!(refused(&mut g, "go b cw").contains("may not move again"));
}

// ---- turning to the rear (CtB 3.2, R-3.2) ----

#[test]
fn ctb_3_2_about_face_is_a_whole_move_without_disorder() {
    // Men at arms (1 MP, class A: 3+).
    let stands = || vec![blue("maa", "Men at arms", "dismounted_maa", "0305", "E")];
    let mut g = french(&stands(), &[], &[5]);
    let r = refused(&mut g, "go maa cw about");
    assert!(
        r.contains("CtB 3.2") && r.contains("a move of its own (R-3.2)"),
        "{r}"
    );
    let r = refused(&mut g, "go maa about 0204");
    assert!(r.contains("the whole move (R-3.2)"), "{r}");
    run(&mut g, &["go maa about"]);
    assert_eq!(facing(&g, "maa"), "W");
    assert!(!flags(&g, "maa").contains(&"disordered".to_string()));
    // It was a move: the next is an extra move, with its Order Test.
    run(&mut g, &["go maa 0204"]);
    let log = log_text(&g);
    assert!(
        log.contains("Die: 5 for the Order Test of Men at arms (class A: 3+)"),
        "{log}"
    );
    assert_eq!(hex(&g, "maa").as_deref(), Some("0204"));
}

// ---- zones of control (CtB 3.5, R-3.5) ----

#[test]
fn ctb_3_5_entering_a_zone_of_control_ends_the_move_and_holds_who_begins_in_it() {
    // Brown bills in 0505 facing NNE: their zone of control is 0504 and 0604.
    let zoc = || vec![brown("e", "Brown bills", "double_bills", "0505", "NNE")];
    let mut g = french(
        &[blue("c", "Bills 2", "double_bills", "0504", "E")],
        &zoc(),
        &[],
    );
    // Bills 2 begin in it: no step forward that makes no contact; back, yes.
    let r = refused(&mut g, "go c 0603");
    assert!(
        r.contains("CtB 3.5") && r.contains("began in an enemy zone of control"),
        "{r}"
    );
    run(&mut g, &["go c 0403"]);
    assert_eq!(hex(&g, "c").as_deref(), Some("0403"));
    let mut g = french(
        &[
            blue("b", "Bills", "double_bills", "0403", "E"),
            blue("lc", "Light horse", "light_horse", "0502", "E"),
        ],
        &zoc(),
        &[],
    );
    // Bills entering 0504 stop there; no melee (the Brown bills are not in front).
    let r = refused(&mut g, "go b 0504 0603");
    assert!(
        r.contains("move ends at 0504: it has entered an enemy zone of control (R-3.5)"),
        "{r}"
    );
    run(&mut g, &["go b 0504"]);
    assert!(decision(&g).is_none());
    // Light horse move freely through it (CtB 3.1): in and out of 0604.
    run(&mut g, &["go lc 0503 0603 0604 0704"]);
    assert_eq!(hex(&g, "lc").as_deref(), Some("0704"));
}

// ---- interpenetration (CtB 3.9) ----

#[test]
fn ctb_3_9_shot_pass_and_are_passed_through_heavy_stands_are_not() {
    // Bills 1 in 0305 facing E; in front, the crossbowmen (0404) and Bills 2 (0405).
    let mut g = french(
        &[
            blue("b1", "Bills 1", "double_bills", "0305", "E"),
            blue("x", "Crossbowmen", "crossbow_sh", "0404", "E"),
            blue("b2", "Bills 2", "double_bills", "0405", "E"),
        ],
        &[],
        &[],
    );
    let r = refused(&mut g, "go b1 0405 0505");
    assert!(
        r.contains("CtB 3.9") && r.contains("may not pass through Bills 2"),
        "{r}"
    );
    run(&mut g, &["go b1 0404 0504"]);
    assert_eq!(hex(&g, "b1").as_deref(), Some("0504"));
    assert_eq!(hex(&g, "x").as_deref(), Some("0404"));
    // Shot move through any stand.
    run(&mut g, &["go x 0504 0604"]);
    assert_eq!(hex(&g, "x").as_deref(), Some("0604"));
}

/// The Swiss pike block `p` charges `b` by 0405: no reactions, no supports, the
/// melee's dice from `seed`.
fn pike_block_charges(g: &mut Game, seed: u64) {
    run(g, &["go p 0405"]);
    while let Some(d) = decision(g) {
        let line = match d.rule.as_str() {
            "CtB 6.2" | "CtB 6.3" => "react none".to_string(),
            "CtB 10.7" => "support none".to_string(),
            "CtB 10.2" => {
                dice_from(g, seed);
                "fight p -> b".to_string()
            }
            _ => break,
        };
        run(g, &[&line]);
    }
}

/// Burgundian pikemen (0505, facing W) charged by a Swiss pike block from 0305 by
/// 0405, with Burgundian guns in 0604 and crossbowmen in 0605 and 0504, the three hexes
/// farther from the pike block; the melee's dice from `seed`.
fn pikemen_charged(seed: u64) -> Game {
    let blue = format!(
        "{GENERAL}{}",
        blue("p", "Pike block", "pike_block", "0305", "E")
    );
    let brown = [
        BROWN.replace("dismounted_maa", "pikemen"),
        brown("b", "Pikemen", "pikemen", "0505", "W"),
        brown("art", "Guns", "artillery", "0604", "W"),
        brown("cx", "Crossbowmen", "crossbowmen", "0605", "W"),
        brown("cx2", "Crossbowmen 2", "crossbowmen", "0504", "W"),
    ]
    .concat();
    let mut g = game_of(["swiss", "burgundian"], false, "", &blue, &brown, &[]);
    pike_block_charges(&mut g, seed);
    g
}

#[test]
fn ctb_3_9_a_retreat_through_guns_or_shot_disorders_neither() {
    // CtB 3.9: only M/HC, LSp, Pike and HI retreating through M/HC, LSp, Pike or HI
    // disorder them: the beaten pikemen, retreating through the guns or the shot
    // around them, disorder neither.
    let seed = (0..3000u64)
        .find(|s| {
            let g = pikemen_charged(*s);
            log_text(&g).contains("Pike block wins the melee")
                && decision(&g).is_some_and(|d| d.rule == "CtB 12.0")
        })
        .expect("a seed where the pikemen lose and choose their retreat");
    let g = pikemen_charged(seed);
    let d = decision(&g).expect("the retreat's choice");
    let choices: Vec<String> = d.choices.iter().map(|c| c.command.to_string()).collect();
    let mut through = Vec::new();
    for choice in &choices {
        let mut g = pikemen_charged(seed);
        run(&mut g, &[choice]);
        default_retreats(&mut g);
        let log = log_text(&g);
        assert!(log.contains("Pikemen retreats 0505 →"), "{log}");
        assert!(!log.contains("retreating through it"), "{log}");
        for s in ["art", "cx", "cx2"] {
            assert!(
                !flags(&g, s).contains(&"disordered".to_string()),
                "{choice}: {log}"
            );
        }
        through.push(hex(&g, "b"));
    }
    // Every way leads through a friend, the guns' hex among them.
    assert!(choices.len() >= 2, "{choices:?} {through:?}");
}

// ---- displacement (CtB 3.10) ----

#[test]
fn ctb_3_10_light_stands_are_displaced_to_where_the_move_began() {
    let mut g = french(
        &[
            blue("b1", "Bills 1", "double_bills", "0305", "E"),
            blue("x", "Crossbowmen", "crossbow_sh", "0504", "E"),
            blue("b2", "Bills 2", "double_bills", "0307", "E"),
            blue("b3", "Bills 3", "double_bills", "0406", "E"),
            blue("sk", "Skirmishers", "crossbow_sk", "0309", "E"),
            blue("x2", "Crossbowmen 2", "crossbow_sh", "0408", "E"),
            blue("sk2", "Skirmishers 2", "crossbow_sk", "0409", "E"),
        ],
        &[],
        &[],
    );
    // Never onto a heavy stand.
    let r = refused(&mut g, "go b2 0406");
    assert!(
        r.contains("CtB 3.10") && r.contains("may not end its move on Bills 3"),
        "{r}"
    );
    // Two hexes on to the crossbowmen: they go to 0305, where the move began.
    run(&mut g, &["go b1 0404 0504"]);
    assert_eq!(hex(&g, "b1").as_deref(), Some("0504"));
    assert_eq!(hex(&g, "x").as_deref(), Some("0305"));
    assert!(
        log_text(&g).contains("Crossbowmen is displaced to 0305"),
        "{}",
        log_text(&g)
    );
    // Skirmishers displace skirmishers only.
    let r = refused(&mut g, "go sk 0408");
    assert!(r.contains("skirmishers displace only skirmishers"), "{r}");
    run(&mut g, &["go sk 0409"]);
    assert_eq!(hex(&g, "sk2").as_deref(), Some("0309"));
}

#[test]
fn ctb_3_10_no_stand_is_displaced_out_of_a_melee() {
    // The crossbowmen in 0504 are locked with Brown men at arms in 0604.
    let mut g = french(
        &[
            blue("b1", "Bills 1", "double_bills", "0305", "E"),
            blue("x", "Crossbowmen", "crossbow_sh", "0504", "E"),
        ],
        &[brown("m", "Brown men", "dismounted_maa", "0604", "W")],
        &[],
    );
    let (x, m) = (unit(&g, "x"), unit(&g, "m"));
    g.world
        .resource_mut::<CtbState>()
        .melees
        .push(OngoingMelee {
            stands: [x, m],
            supports: [Vec::new(), Vec::new()],
        });
    let r = refused(&mut g, "go b1 0404 0504");
    assert!(
        r.contains("CtB 3.10") && r.contains("never out of a melee"),
        "{r}"
    );
}

#[test]
fn ctb_3_10_light_horse_sidestep_to_displace() {
    // Light horse in 0305 facing E step to their flank, 0306, onto skirmishers.
    let mut g = french(
        &[
            blue("lc", "Light horse", "light_horse", "0305", "E"),
            blue("sk", "Skirmishers", "crossbow_sk", "0306", "E"),
        ],
        &[],
        &[],
    );
    run(&mut g, &["go lc 0306"]);
    assert_eq!(hex(&g, "lc").as_deref(), Some("0306"));
    assert_eq!(hex(&g, "sk").as_deref(), Some("0305"));
}

/// The Burgundian list with war bands added (CtB 15.1's WB: no army list has them), as
/// an `armies.ron` placed beside a scenario.
fn burgundians_with_war_bands() -> String {
    let lists = std::fs::read_to_string(root().join("rulesets/charles_the_bold/armies.ron"))
        .expect("the army lists");
    lists.replacen(
        "\"burgundian\": [",
        "\"burgundian\": [\n      (id: \"war_band\", class: B, type: \"WB\", mp: (2, 2), sp: [5, 4], impact: 2, bp: 2),",
        1,
    )
}

/// A Burgundian `beaten` stand (0505, facing W) charged by a Swiss pike block from
/// 0305 by 0405, with Burgundian `behind` stands in the three hexes farther from it
/// (0604, 0605, 0504); the melee's dice from `seed`; war bands in the list.
fn charged_before(seed: u64, beaten: &str, behind: &str) -> Game {
    let blue = format!(
        "{GENERAL}{}",
        blue("p", "Pike block", "pike_block", "0305", "E")
    );
    let brown = [
        BROWN.replace("dismounted_maa", "pikemen"),
        brown("b", "Beaten", beaten, "0505", "W"),
        brown("r1", "Rear 1", behind, "0604", "W"),
        brown("r2", "Rear 2", behind, "0605", "W"),
        brown("r3", "Rear 3", behind, "0504", "W"),
    ]
    .concat();
    let mut g = game_of_listed(
        &burgundians_with_war_bands(),
        ["swiss", "burgundian"],
        &blue,
        &brown,
        &[],
    );
    pike_block_charges(&mut g, seed);
    default_retreats(&mut g);
    g
}

/// Whether any of the three stands behind was disordered by the beaten stand
/// retreating through it, in the first game (seed) where it retreats through one.
fn disorders_behind(beaten: &str, behind: &str) -> bool {
    let seed = (0..3000u64)
        .find(|s| {
            let g = charged_before(*s, beaten, behind);
            let log = log_text(&g);
            log.contains("Pike block wins the melee") && log.contains("Beaten retreats 0505 →")
        })
        .expect("a seed where the beaten stand retreats");
    let g = charged_before(seed, beaten, behind);
    ["r1", "r2", "r3"]
        .iter()
        .any(|r| flags(&g, r).contains(&"disordered".to_string()))
}

#[test]
fn ctb_3_9_war_bands_neither_disorder_heavy_stands_nor_are_disordered_by_them() {
    // CtB 3.9: M/HC, LSp, Pike or HI retreating through M/HC, LSp, Pike or HI disorder
    // them. Pikemen beaten before pikemen disorder one of them (the rule at work) ...
    assert!(disorders_behind("pikemen", "pikemen"));
    // ... but war bands, not on that list, are not disordered by the pikemen, and a
    // beaten war band disorders no pikemen (CtB 15.1's WB, `heavy` unset in types.ron).
    assert!(!disorders_behind("pikemen", "war_band"));
    assert!(!disorders_behind("war_band", "pikemen"));
}

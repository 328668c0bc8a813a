//! Champs de Bataille: a test per rule section and the worked examples 1 to 8 of the
//! text, with the same numbers.

use bataille::engine::phase::PhaseKind;

use crate::cdb_common::*;
use crate::common::{hex, log_text, refused, run, status};

/// Example 7's position: Roman Auxilia (S) `r2` in 0805 facing W, Romans `r5`, `r6`
/// behind it; the Frankish Warband `b` (two counters) in its NW hex facing E and the
/// Warband `c` on its south flank, overlapping it.
fn example_7(seed: u64) -> bataille::engine::game::Game {
    let r = "0805";
    let (b, c, r5, r6) = (nb(r, 5), nb(r, 3), nb(r, 1), nb(r, 2));
    cdb(
        &[
            ("fa", "a", "Irr Cv(O)", "0202", "E"),
            ("b", "a", "Irr Wb(O)", &b, "E"),
            ("b_rear", "a", "Irr Wb(O)", &b, "E"),
            ("c", "a", "Irr Wb(O)", &c, "E"),
            ("rg", "b", "Reg Cv(O)", "1515", "W"),
            ("r2", "b", "Reg Ax(S)", r, "W"),
            ("r5", "b", "Reg Bd(O)", &r5, "W"),
            ("r6", "b", "Reg Bd(O)", &r6, "W"),
            ("x1", "b", "Reg Bd(O)", "1410", "W"),
            ("x2", "b", "Reg Bd(O)", "1411", "W"),
            ("x3", "b", "Reg Bd(O)", "1412", "W"),
        ],
        seed,
    )
}

#[test]
fn cdb_example_7_warband_4_against_auxilia_2_dice_4_and_1_destroys_it_and_a_rear_unit() {
    // Dice: the Franks' AP die (any), then the Frank's 4 and the Roman's 1.
    let mut g = example_7(seed_rolling_any(&[0, 4, 1]));
    run(&mut g, &["end", "end", "end"]);
    assert_eq!(g.turn().phase.kind, PhaseKind::Fight);
    let b = nb("0805", 5);
    run(&mut g, &[&format!("attack {b} -> 0805")]);
    let log = log_text(&g);
    // B: value 3 + 1 rank of support = 4, with the die 4: 8.
    assert!(
        log.contains("die 4, value 3, +1 +1 two Warbands (CdB 8.1) = 8"),
        "{log}"
    );
    // Unit 2: value 3, overlapped by C (-1): 2, with the die 1: 3, +1 for (S): 4.
    assert!(
        log.contains("die 1, value 3, -1 -1 enemy supports (CdB 11.3, at most 3), +1 (S) scoring less in melee (CdB p.34) = 4"),
        "{log}"
    );
    assert!(log.contains("scores half or less of 8"), "{log}");
    assert_eq!(status(&g, "r2"), "eliminated");
    // The two hexes behind hold Romans: the Frankish player chooses unit 5.
    let r = refused(&mut g, "end");
    assert!(r.contains("CdB 11"), "{r}");
    run(&mut g, &["lose r5"]);
    assert_eq!(status(&g, "r5"), "eliminated");
    assert_eq!(status(&g, "r6"), "on_map");
    // The Warbands are impetuous: the stack advances into the vacated hex.
    assert_eq!(hex(&g, "b").as_deref(), Some("0805"));
    assert_eq!(hex(&g, "b_rear").as_deref(), Some("0805"));
    assert!(log_text(&g).contains("CdB 11.9"));
}

#[test]
fn cdb_autoplay_smoke_on_a_position() {
    let mut g = example_7(3);
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    for _ in 0..400 {
        if g.is_over() {
            break;
        }
        let ruleset = g.ruleset.clone();
        let c = ruleset.random_command(&mut g.world, &mut rng);
        if let Err(r) = g.submit(&c) {
            panic!("random command `{c}` refused: {r}\n{}", log_text(&g));
        }
    }
}

// ---- Whole games, determinism, saves ----

/// Soissons with the designer's reconstructed deployment (the option
/// `scenario_deployment` skips the set-up of CdB 14.3).
fn soissons(seed: u64) -> bataille::engine::game::Game {
    bataille::engine::game::Game::start(
        &crate::common::root().join("scenarios/champs_de_bataille/soissons_486.ron"),
        seed,
        &["scenario_deployment".to_string()],
    )
    .expect("Soissons loads")
}

/// Soissons as printed: the set-up of CdB 14.3 is played.
fn soissons_with_setup(seed: u64) -> bataille::engine::game::Game {
    crate::common::shipped("champs_de_bataille/soissons_486.ron", seed)
}

#[test]
fn cdb_soissons_complete_scripted_game_from_the_set_up_ends_in_a_frankish_victory() {
    let script =
        std::fs::read_to_string(crate::common::root().join("scripts/soissons_full_game.txt"))
            .unwrap();
    let mut g = soissons_with_setup(1);
    g.run_script(&script).unwrap_or_else(|f| panic!("{f}"));
    let o = g.outcome().expect("the script plays to the end");
    assert_eq!(
        o.winner,
        Some(bataille::engine::units::SideId(1)),
        "{}",
        o.reason
    );
    assert!(
        o.reason.contains(
            "the Gallo-Romans have lost 10 of 16 counter equivalents, half or more (CdB 13)"
        ),
        "{}",
        o.reason
    );
    let log = log_text(&g);
    // CdB 14.3: the attacker's edge West is swapped by a 6; the baggage, the written
    // placements and the corps in turn, the defender's most numerous corps first.
    for line in [
        "Franks is the attacker and moves first",
        "Die: 6 for Franks' map edge (CdB 14.3.2)",
        "Franks chose the West edge and sets up on the East edge; Gallo-Romans forms opposite, on the West edge",
        "Gallo-Romans writes down the placement of the corps, in secret",
        "Gallo-Romans has placed Syagrius' corps (8 counters) (CdB 14.3.4)",
        "Franks has placed Clovis' corps (14 counters) (CdB 14.3.4)",
    ] {
        assert!(log.contains(line), "missing `{line}` in\n{log}");
    }
    let setup_end = log.find("Turn 1 (CdB 3)").expect("the game starts");
    assert!(log.find("has placed Ragnachar's corps").unwrap() < setup_end);
    assert!(log[setup_end..].starts_with("Turn 1 (CdB 3)\nTurn 1: Franks' sequence"));
}

#[test]
fn cdb_soissons_scripted_game_with_the_reconstructed_deployment_ends_in_a_frankish_victory() {
    let script = std::fs::read_to_string(
        crate::common::root().join("scripts/soissons_reconstructed_deployment_game.txt"),
    )
    .unwrap();
    let mut g = soissons(1);
    g.run_script(&script).unwrap_or_else(|f| panic!("{f}"));
    let o = g.outcome().expect("the script plays to the end");
    assert_eq!(
        o.winner,
        Some(bataille::engine::units::SideId(1)),
        "{}",
        o.reason
    );
    assert!(
        o.reason.contains(
            "the Gallo-Romans have lost 16 of 16 counter equivalents, half or more (CdB 13)"
        ),
        "{}",
        o.reason
    );
    let log = log_text(&g);
    // The aggression roll made the Franks the attacker (CdB 14.3), a corps broke on the
    // way (CdB 12.2) and the regular generals' dice were assigned (CdB 4.1).
    assert!(
        log.contains("Franks is the attacker and moves first"),
        "{log}"
    );
    assert!(log.contains("corps is demoralised (CdB 12.3)"), "{log}");
    assert!(log.contains("Syagrius' corps has"), "{log}");
    // Another seed rolls other dice: the script is refused somewhere or ends otherwise.
    let mut other = soissons(2);
    let differs = other.run_script(&script).is_err() || log_text(&other) != log;
    assert!(differs);
}

#[test]
fn cdb_same_seed_and_commands_give_the_same_game_and_a_save_replays_it() {
    let script = std::fs::read_to_string(
        crate::common::root().join("scripts/soissons_reconstructed_deployment_game.txt"),
    )
    .unwrap();
    let half: String = script.lines().take(60).collect::<Vec<_>>().join("\n");
    let mut a = soissons(1);
    let mut b = soissons(1);
    a.run_script(&half).unwrap();
    b.run_script(&half).unwrap();
    assert_eq!(log_text(&a), log_text(&b));
    assert_eq!(a.state_json(), b.state_json());
    let dir = crate::common::scratch("cdb-save");
    let path = crate::common::write(&dir, "save.ron", &a.save_text());
    let loaded = bataille::engine::game::Game::load_save(&path).expect("the save loads");
    assert_eq!(log_text(&loaded), log_text(&a));
    assert_eq!(loaded.state_json(), a.state_json());
    // The state holds the facings by name (CdB 6), none for baggage (CdB 6.1), and the
    // corps' action points and morale.
    let state = a.state_json();
    let units = state["units"].as_array().unwrap().clone();
    for u in &units {
        let baggage = u["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("castra") || id.starts_with("chariots"));
        assert_eq!(u["facing"].is_null(), baggage, "{u}");
        assert!(
            u["facing"].is_null() || u["facing"].as_str().is_some_and(|f| f.len() <= 3),
            "{u}"
        );
    }
    let corps = state["ruleset_state"]["corps"].as_array().expect("corps");
    assert!(
        !corps.is_empty()
            && corps
                .iter()
                .all(|c| c["pa"].is_i64() && c["demoralised"].is_boolean()),
        "{corps:?}"
    );
}

#[test]
fn cdb_check_and_autoplay_work_on_all_four_scenarios() {
    for name in ["soissons_486", "poitiers_732", "daras_530", "casilinum_554"] {
        let path = crate::common::root().join(format!("scenarios/champs_de_bataille/{name}.ron"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bataille"))
            .arg("check")
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (s, r) = bataille::rulesets::load_scenario(&path).unwrap();
        let report = bataille::autoplay::autoplay(s, r, 1, 25, true, &[]);
        assert!(report.failures.is_empty(), "{name}: {:?}", report.failures);
        assert_eq!(report.endings.values().sum::<usize>(), 25, "{name}");
        assert!(
            !report.endings.contains_key("unfinished"),
            "{name}: {:?}",
            report.endings
        );
    }
}

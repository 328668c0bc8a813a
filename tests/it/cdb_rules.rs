//! Champs de Bataille: a test per rule section and the worked examples 1 to 8 of the
//! text, with the same numbers.

use bataille::engine::game::GamePhase;

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
    assert_eq!(g.turn().phase, GamePhase::Combat);
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

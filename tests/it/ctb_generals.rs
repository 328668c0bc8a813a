//! Generals and rallies in play (CtB 2.0-2.2, 8.0-8.1): the rally of a stand or of a
//! group recovery with its modifiers.

use bataille::engine::game::Game;
use bataille::engine::units::UnitId;
use bataille::rulesets::charles_the_bold::{CtbState, CtbStatus, OngoingMelee};

use crate::common::{hex, log_text, refused, run, seed_rolling, unit_state};

/// Brown's general and one far stand, out of everyone's way.
pub(crate) const BROWN: &str = r#"
        (id: "brg", name: "Brown general", side: "brown", type: "general", hex: "1201", group: "brown"),
        (id: "far", name: "Brown men at arms", side: "brown", type: "dismounted_maa", hex: "1209", group: "brown", facing: "W"),"#;

/// Blue (`blue_army`, its command `blue` under `bg`, and `more_groups`) against Brown
/// (`brown_army`, its command `brown` under `brg`), on a clear 12 × 10 map; Blue
/// chooses first and wins the first initiative 12 to 2; then the dice `more` come.
pub(crate) fn game_of(
    armies: [&str; 2],
    poorly_trained: bool,
    more_groups: &str,
    blue: &str,
    brown: &str,
    more: &[u8],
) -> Game {
    let ron = format!(
        r#"(
    name: "Generals", date: "1480", ruleset: "charles_the_bold", turns: 3,
    map: (columns: 12, rows: 10),
    sides: [
        (id: "blue", name: "Blue", army: "{}", break_fraction: (1, 1), poorly_trained: {poorly_trained},
         groups: [(id: "blue", name: "Blue command", general: "bg"){more_groups}]),
        (id: "brown", name: "Brown", army: "{}", break_fraction: (1, 1),
         groups: [(id: "brown", name: "Brown command", general: "brg")]),
    ],
    first: "blue",
    units: [
        {blue}
        {brown}
    ],
    at_time_limit: (winner: "brown", level: Minor),
)"#,
        armies[0], armies[1]
    );
    let mut dice = vec![6, 6, 1, 1];
    dice.extend_from_slice(more);
    let mut g = crate::common::game_of(&ron, seed_rolling(&dice), &[]);
    run(&mut g, &["declare blue", "declare brown", "end"]);
    g
}

/// French against French: Blue's stands `blue` (its general `bg` among them) against
/// `BROWN`.
pub(crate) fn blue_moves(blue: &str, more: &[u8]) -> Game {
    game_of(["french", "french"], false, "", blue, BROWN, more)
}

pub(crate) fn unit(g: &Game, id: &str) -> UnitId {
    bataille::rulesets::common::unit_by_key(&g.world, id).expect("a unit")
}

pub(crate) fn flags(g: &Game, id: &str) -> Vec<String> {
    unit_state(g, id)["flags"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn disorder(g: &mut Game, id: &str) {
    let e = bataille::rulesets::common::entity(&g.world, unit(g, id));
    g.world.get_mut::<CtbStatus>(e).expect("a stand").disordered = true;
}

fn general(id: &str, hex: &str, attached: bool) -> String {
    format!(
        r#"(id: "{id}", name: "Blue general", side: "blue", type: "general", hex: "{hex}", group: "blue", attached: {attached}),"#
    )
}

fn stand(id: &str, name: &str, kind: &str, hex: &str) -> String {
    format!(
        r#"(id: "{id}", name: "{name}", side: "blue", type: "{kind}", hex: "{hex}", group: "blue", facing: "E"),"#
    )
}

// ---- rallying (CtB 8.0, 8.1) ----

#[test]
fn ctb_8_0_a_rallied_stand_acts_a_failed_rally_rallies_but_nothing_more() {
    let blue = [
        general("bg", "0105", false),
        stand("b1", "Bills 1", "double_bills", "0305"),
        stand("x", "Crossbowmen", "crossbow_sh", "0307"),
    ]
    .concat();
    // Bills 1 (class B: 4+) throws 4: it rallies and moves.
    let mut g = blue_moves(&blue, &[4]);
    let r = refused(&mut g, "rally b1");
    assert!(r.contains("CtB 8.0") && r.contains("not disordered"), "{r}");
    disorder(&mut g, "b1");
    run(&mut g, &["rally b1"]);
    let log = log_text(&g);
    assert!(
        log.contains("Die: 4 for the Order Test of Bills 1 (class B: 4+) (CtB"),
        "{log}"
    );
    assert!(log.contains("Bills 1 rallies (CtB 8.0)"), "{log}");
    assert!(!flags(&g, "b1").contains(&"disordered".to_string()));
    run(&mut g, &["go b1 0404"]);
    assert_eq!(hex(&g, "b1").as_deref(), Some("0404"));
    // A stand that has acted rallies no more this activation.
    disorder(&mut g, "b1");
    let r = refused(&mut g, "rally b1");
    assert!(
        r.contains("CtB 8.0") && r.contains("a rally comes first"),
        "{r}"
    );

    // The crossbowmen throw 3: rallied, but they may not move, fire or test for
    // opportunity (R-8.0).
    let mut g = blue_moves(&blue, &[3]);
    disorder(&mut g, "x");
    run(&mut g, &["rally x"]);
    let log = log_text(&g);
    assert!(
        log.contains(
            "Crossbowmen rallies but may not move, fire or go on opportunity this activation (R-8.0)"
        ),
        "{log}"
    );
    assert!(!flags(&g, "x").contains(&"disordered".to_string()));
    for line in ["go x 0407", "fire x -> far", "opportunity x"] {
        let r = refused(&mut g, line);
        assert!(
            r.contains("CtB 8.0") && r.contains("failed its rally"),
            "{line}: {r}"
        );
    }
}

#[test]
fn ctb_8_1_no_rally_in_close_combat() {
    let blue = [
        general("bg", "0105", false),
        stand("b1", "Bills 1", "double_bills", "0305"),
    ]
    .concat();
    let brown = format!(
        "{BROWN}{}",
        r#"(id: "m", name: "Brown bills", side: "brown", type: "double_bills", hex: "0405", group: "brown", facing: "W"),"#
    );
    let mut g = game_of(["french", "french"], false, "", &blue, &brown, &[]);
    let (b1, m) = (unit(&g, "b1"), unit(&g, "m"));
    g.world
        .resource_mut::<CtbState>()
        .melees
        .push(OngoingMelee {
            stands: [b1, m],
            supports: [Vec::new(), Vec::new()],
        });
    disorder(&mut g, "b1");
    let r = refused(&mut g, "rally b1");
    assert!(r.contains("CtB 8.1") && r.contains("close combat"), "{r}");
}

#[test]
fn ctb_8_1_a_general_in_the_hex_adds_one_out_of_range_takes_one() {
    // The general in Bills 1's hex, not attached: a 3 passes (4+ less 1).
    let blue = [
        general("bg", "0305", false),
        stand("b1", "Bills 1", "double_bills", "0305"),
    ]
    .concat();
    let mut g = blue_moves(&blue, &[3]);
    disorder(&mut g, "b1");
    run(&mut g, &["rally b1"]);
    let log = log_text(&g);
    assert!(
        log.contains("Die: 3 for the Order Test of Bills 1 (class B: 4+, +1 general)"),
        "{log}"
    );
    assert!(log.contains("Bills 1 rallies (CtB 8.0)"), "{log}");
    // Seven hexes from him: a 4 fails.
    let blue = [
        general("bg", "0105", false),
        stand("b1", "Bills 1", "double_bills", "0805"),
    ]
    .concat();
    let mut g = blue_moves(&blue, &[4]);
    disorder(&mut g, "b1");
    run(&mut g, &["rally b1"]);
    let log = log_text(&g);
    assert!(
        log.contains("Die: 4 for the Order Test of Bills 1 (class B: 4+, -1 out of command range)"),
        "{log}"
    );
    assert!(log.contains("Bills 1 rallies but may not move"), "{log}");
}

#[test]
fn ctb_8_1_a_group_recovery_is_one_order_test_at_the_worst_class() {
    // Bills 1 (B) and the men at arms (A) side by side; the crossbowmen apart. The
    // general is in Bills 1's hex, attached or not.
    let blue = |attached: bool| {
        [
            general("bg", "0305", attached),
            stand("b1", "Bills 1", "double_bills", "0305"),
            stand("maa", "Men at arms", "dismounted_maa", "0306"),
            stand("x", "Crossbowmen", "crossbow_sh", "0308"),
        ]
        .concat()
    };
    let disordered = |attached: bool, more: &[u8]| {
        let mut g = blue_moves(&blue(attached), more);
        for s in ["b1", "maa", "x"] {
            disorder(&mut g, s);
        }
        g
    };
    let mut g = disordered(false, &[3]);
    let r = refused(&mut g, "rally b1 x");
    assert!(
        r.contains("CtB 8.1") && r.contains("side by side in one body (R-8.1)"),
        "{r}"
    );
    let r = refused(&mut g, "rally b1 maa b1");
    assert!(r.contains("named twice"), "{r}");
    // One die for both, at class B (the men at arms alone would pass a 3); the
    // general in the hex but not attached gives the group nothing: it fails, and both
    // rally but may do nothing more.
    run(&mut g, &["rally b1 maa"]);
    let log = log_text(&g);
    assert_eq!(log.matches("Die: 3").count(), 1, "{log}");
    assert!(
        log.contains(
            "Die: 3 for the group's Order Test of Bills 1, Men at arms (class B: 4+) (CtB"
        ),
        "{log}"
    );
    for (s, name) in [("b1", "Bills 1"), ("maa", "Men at arms")] {
        assert!(
            log.contains(&format!("{name} rallies but may not move")),
            "{log}"
        );
        assert!(!flags(&g, s).contains(&"disordered".to_string()));
    }
    let r = refused(&mut g, "go maa 0406");
    assert!(r.contains("failed its rally"), "{r}");
    assert!(flags(&g, "x").contains(&"disordered".to_string()));

    // The general attached to one of them: +1 for the group; a 3 passes and both act.
    let mut g = disordered(true, &[3]);
    run(&mut g, &["rally b1 maa"]);
    let log = log_text(&g);
    assert!(
        log.contains(
            "Die: 3 for the group's Order Test of Bills 1, Men at arms (class B: 4+, +1 general)"
        ),
        "{log}"
    );
    assert!(
        log.contains("Bills 1 rallies (CtB 8.0)") && log.contains("Men at arms rallies (CtB 8.0)"),
        "{log}"
    );
    run(&mut g, &["go maa 0406", "go b1 0404"]);

    // One of them out of command range: -1 for the group (the men at arms are 7
    // hexes from the general, Bills 1 six).
    let blue = [
        general("bg", "0105", false),
        stand("b1", "Bills 1", "double_bills", "0705"),
        stand("maa", "Men at arms", "dismounted_maa", "0805"),
    ]
    .concat();
    let mut g = blue_moves(&blue, &[4]);
    disorder(&mut g, "b1");
    disorder(&mut g, "maa");
    run(&mut g, &["rally b1 maa"]);
    let log = log_text(&g);
    assert!(
        log.contains(
            "Die: 4 for the group's Order Test of Bills 1, Men at arms (class B: 4+, -1 out of command range)"
        ),
        "{log}"
    );
    assert!(
        log.contains("Men at arms rallies but may not move"),
        "{log}"
    );
}

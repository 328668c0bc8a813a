//! Morne Plaine as the window shows it, from the rules' own functions: the exact chance
//! of each outcome of a charge, the objectives in their holder's colour and the victory
//! standing of the top bar.

use bataille::engine::units::SideId;
use bataille::rulesets::parse_line;

use crate::common::run;
use crate::mp_game::{Mu, ends, mp};
use bataille::rulesets::common::RulesetTables;

/// Heavy cavalry `c` (CS 5) two hexes from line infantry `d` (CS 5, MV 5): after
/// `move c 0503 0504` it charges (MP movement: charge).
const CHARGE: [Mu; 2] = [
    ("c", "a", "heavy_cavalry", "0502", ""),
    ("d", "b", "line_infantry", "0505", ""),
];

fn chances(g: &bataille::engine::game::Game, line: &str) -> Vec<(String, f64)> {
    let cmd = parse_line(line).unwrap().unwrap();
    g.ruleset
        .attack_preview(&g.world, &cmd)
        .expect("a legal attack")
        .chances
}

#[test]
fn mp_charge_preview_gives_the_failed_check_before_the_crt() {
    let mut g = mp(&CHARGE, "default_terrain: \"clear\"", 1);
    ends(&mut g, 1);
    run(&mut g, &["move c 0503 0504", "end"]);
    let with_charge = chances(&g, "attack 0504 -> 0505");
    // The charged unit fails above 5 - (5 - 5) / 2 = 5: a d9 of 6 to 9, 4 in 9, and
    // then no CRT die.
    let (first, p) = &with_charge[0];
    assert!(first.contains("fails its check and retreats"), "{first}");
    assert!((p - 4.0 / 9.0).abs() < 1e-12, "{p}");
    let total: f64 = with_charge.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12, "{with_charge:?}");
    // Each CRT cell comes only when the check passed (5 in 9): the cells the d6 gives
    // at the charge's own odds (7 against 5: 1-1) and die modifier, each face 1/6 of
    // 5/9, counted here from the CRT itself.
    let cmd = parse_line("attack 0504 -> 0505").unwrap().unwrap();
    let preview = g.ruleset.attack_preview(&g.world, &cmd).unwrap();
    assert_eq!(preview.odds, "7 against 5: 1-1");
    let t = bataille::rulesets::morne_plaine::data::Tables::builtin().unwrap();
    let column = t.crt.columns.iter().position(|c| c == "1-1").unwrap();
    let mut expected: Vec<(String, f64)> = Vec::new();
    for face in 1..=6u8 {
        let row =
            bataille::rulesets::morne_plaine::combat::modified_die(face, &[preview.die_modifier]);
        let cell = t.crt.cell(column, row).to_string();
        match expected.iter_mut().find(|(l, _)| *l == cell) {
            Some((_, p)) => *p += 5.0 / 54.0,
            None => expected.push((cell, 5.0 / 54.0)),
        }
    }
    assert_eq!(with_charge.len() - 1, expected.len(), "{with_charge:?}");
    for ((label, p), (want, q)) in with_charge[1..].iter().zip(&expected) {
        assert_eq!(label, want);
        assert!((p - q).abs() < 1e-12, "{label}: {p} against {q}");
    }
    // Without the charge (the cavalry starts next to the infantry), no check.
    let mut g2 = mp(
        &[
            ("c", "a", "heavy_cavalry", "0504", ""),
            ("d", "b", "line_infantry", "0505", ""),
        ],
        "default_terrain: \"clear\"",
        1,
    );
    ends(&mut g2, 2);
    let without = chances(&g2, "attack 0504 -> 0505");
    assert!(
        without.iter().all(|(l, _)| !l.contains("fails its check")),
        "{without:?}"
    );
    let total: f64 = without.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12, "{without:?}");
}

#[test]
fn mp_charge_on_a_leader_has_no_check_in_the_preview() {
    let units = [
        ("c", "a", "heavy_cavalry", "0502", ""),
        ("l", "b", "leader", "0505", ""),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 1);
    run(&mut g, &["move c 0503 0504", "end"]);
    let c = chances(&g, "attack 0504 -> 0505");
    assert!(
        c.iter().all(|(l, _)| !l.contains("fails its check")),
        "leaders never check morale (MP combat: morale check): {c:?}"
    );
    let total: f64 = c.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12, "{c:?}");
}

#[test]
fn mp_victory_objectives_drawn_in_their_holders_colour_with_the_standing() {
    let units = [
        ("i", "a", "light_cavalry", "0303", ""),
        ("j", "b", "line_infantry", "0909", ""),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    let marked = g.ruleset.marked_hexes(&g.world);
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0].hex.label(), "0101");
    assert_eq!(marked[0].side, None, "no one has held it yet");
    let s = g.ruleset.standing(&g.world).expect("MP has VP");
    assert_eq!(
        (s.label.as_str(), s.scores.clone(), s.ahead.clone()),
        ("VP", vec![(SideId(0), 0), (SideId(1), 0)], None)
    );
    assert_eq!(s.detail, "VP Orange 0 – Blue 0: a draw so far (MP victory)");
    ends(&mut g, 1);
    run(&mut g, &["move i 0202 0102 0101"]);
    let marked = g.ruleset.marked_hexes(&g.world);
    assert_eq!(marked[0].side, Some(SideId(0)), "{}", marked[0].text);
    assert!(
        marked[0].text.ends_with("held by Orange"),
        "{}",
        marked[0].text
    );
    let s = g.ruleset.standing(&g.world).expect("MP has VP");
    assert_eq!(s.scores, vec![(SideId(0), 1), (SideId(1), 0)]);
    assert_eq!(s.ahead, Some((SideId(0), "minor".to_string())));
    assert_eq!(
        s.detail,
        "VP Orange 1 – Blue 0: a minor victory for Orange so far (MP victory)"
    );
    // Other rulesets keep their morale in the top bar and give no standing.
    let civitate = crate::common::civitate(1);
    assert_eq!(civitate.ruleset.standing(&civitate.world), None);
}

#[test]
fn mp_charge_preview_at_the_d9_bounds_no_crt_or_no_check() {
    use bataille::rulesets::morne_plaine::combat::check_threshold;
    assert_eq!(
        (check_threshold(-1), check_threshold(4), check_threshold(12)),
        (0, 4, 9)
    );
    // A charged unit of MV 1 and CS 1 against CS 5: 1 - (5 - 1) / 2 = -1, which fails
    // with no die (MP combat: morale check): the charge breaks it, certainly, and no
    // CRT result can come.
    let units = [
        ("c", "a", "heavy_cavalry", "0502", ""),
        ("d", "b", "line_infantry", "0505", "cs: 1, mv: 1"),
    ];
    let mut g = mp(&units, "default_terrain: \"clear\"", 1);
    ends(&mut g, 1);
    run(&mut g, &["move c 0503 0504", "end"]);
    let c = chances(&g, "attack 0504 -> 0505");
    assert_eq!(c.len(), 1, "{c:?}");
    assert!(c[0].0.contains("fails its check") && (c[0].1 - 1.0).abs() < 1e-12);
}

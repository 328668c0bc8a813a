//! Retreats, pursuits and skirmishers in play (CtB 10.6, 12.0-12.2, 13.0-13.1): a formed
//! stand pushing through enemy skirmishers in the open, a retreat landing on friendly
//! skirmishers and pushing them back, retreat lengths, edges and blocks, and pursuits.

use bataille::engine::dice::Dice;
use bataille::engine::game::Game;
use bataille::engine::hex::HexCoord;
use bataille::rulesets::charles_the_bold::retreat::{Course, RetreatJob, apply, courses};
use bataille::rulesets::charles_the_bold::{CtbRanks, CtbState, CtbStatus};

use crate::common::{decision, hex, log_text, refused, run, seed_rolling};
use crate::ctb_generals::unit;

fn h(s: &str) -> HexCoord {
    HexCoord::parse(s).expect("a hex")
}

/// A stand of `side` (its group has the side's name).
fn st(id: &str, side: &str, kind: &str, at: &str, facing: &str) -> String {
    format!(
        r#"(id: "{id}", name: "{id}", side: "{side}", type: "{kind}", hex: "{at}", group: "{side}", facing: "{facing}"),"#
    )
}

/// French against French on a 12 × 10 map with `terrain` (RON, perhaps empty): Blue
/// chooses first and wins the first initiative 12 to 2; the generals and a Brown stand
/// are out of the way.
fn battle(terrain: &str, stands: &[String]) -> Game {
    let mut all = stands.to_vec();
    all.push(st("far", "brown", "dismounted_maa", "1209", "W"));
    battle_of(["french", "french"], terrain, &all)
}

/// As `battle`, Blue with the army list `armies[0]`, Brown with `armies[1]`.
fn battle_of(armies: [&str; 2], terrain: &str, stands: &[String]) -> Game {
    let ron = format!(
        r#"(
    name: "Retreats", date: "1480", ruleset: "charles_the_bold", turns: 3,
    map: (columns: 12, rows: 10, {terrain}),
    sides: [
        (id: "blue", name: "Blue", army: "{}", break_fraction: (1, 1),
         groups: [(id: "blue", name: "Blue command", general: "bg")]),
        (id: "brown", name: "Brown", army: "{}", break_fraction: (1, 1),
         groups: [(id: "brown", name: "Brown command", general: "brg")]),
    ],
    first: "blue",
    units: [
        (id: "bg", name: "Blue general", side: "blue", type: "general", hex: "0110", group: "blue"),
        (id: "brg", name: "Brown general", side: "brown", type: "general", hex: "1201", group: "brown"),
        {}
    ],
    at_time_limit: (winner: "brown", level: Minor),
)"#,
        armies[0],
        armies[1],
        stands.concat()
    );
    let mut g = crate::common::game_of(&ron, seed_rolling(&[6, 6, 1, 1]), &[]);
    run(&mut g, &["declare blue", "declare brown", "end"]);
    g
}

fn ends(cs: &[Course]) -> Vec<String> {
    cs.iter()
        .map(|c| c.end().map_or(format!("{c:?}"), |e| e.label()))
        .collect()
}

/// Bills in 0205 facing E; Brown skirmishers `sk` in `sk_at` facing `sk_facing`; Brown
/// men at arms in 0505 facing W when `formed`.
fn bills_and_skirmishers(terrain: &str, sk_at: &str, sk_facing: &str, formed: bool) -> Game {
    let mut stands = vec![
        st("b", "blue", "double_bills", "0205", "E"),
        st("sk", "brown", "crossbow_sk", sk_at, sk_facing),
    ];
    if formed {
        stands.push(st("m", "brown", "dismounted_maa", "0505", "W"));
    }
    battle(terrain, &stands)
}

// ---- 10.6: formed stands push through skirmishers in the open ----

#[test]
fn ctb_10_6_a_formed_stand_pushes_through_skirmishers_who_stand_fire_and_die() {
    let mut g = bills_and_skirmishers("", "0405", "W", true);
    // Through the skirmishers' hex to the men at arms behind them.
    run(&mut g, &["go b 0305 0405"]);
    assert_eq!(hex(&g, "b").as_deref(), Some("0305"), "stopped before them");
    assert_eq!(decision(&g).expect("their answer").rule, "CtB 4.0");
    run(&mut g, &["hold sk"]);
    // Struck frontally they may fire first (CtB 10.6), then they die.
    assert_eq!(decision(&g).expect("defensive fire").rule, "CtB 6.2");
    run(&mut g, &["react none"]);
    let log = log_text(&g);
    assert!(
        log.contains("b pushes through sk in the open: they evade or are destroyed"),
        "{log}"
    );
    assert_eq!(hex(&g, "sk"), None, "{log}");
    assert_eq!(hex(&g, "b").as_deref(), Some("0405"), "{log}");
    let d = decision(&g).expect("the melee with the men at arms");
    assert_eq!(d.rule, "CtB 10.2", "{d:?}");
    run(&mut g, &["fight b -> m"]);
}

#[test]
fn ctb_10_6_pushed_skirmishers_may_evade_and_the_charge_goes_on() {
    let mut g = bills_and_skirmishers("", "0405", "W", true);
    run(&mut g, &["go b 0305 0405", "evade sk"]);
    let log = log_text(&g);
    let at = hex(&g, "sk").expect("they evaded");
    assert_ne!(at, "0405", "{log}");
    assert_eq!(hex(&g, "b").as_deref(), Some("0405"), "{log}");
    assert_eq!(decision(&g).expect("the melee").rule, "CtB 10.2", "{log}");
}

#[test]
fn ctb_10_6_pushed_skirmishers_struck_on_a_flank_are_destroyed_at_once() {
    // Facing NNE, the skirmishers in 0405 have 0305 on their flank.
    let mut g = bills_and_skirmishers("", "0405", "NNE", true);
    run(&mut g, &["go b 0305 0405"]);
    assert_eq!(hex(&g, "sk"), None, "{}", log_text(&g));
    assert_eq!(hex(&g, "b").as_deref(), Some("0405"));
    assert_eq!(decision(&g).expect("the melee").rule, "CtB 10.2");
}

#[test]
fn ctb_10_6_a_formed_stand_goes_on_past_skirmishers_in_its_front() {
    // In 0305 the skirmishers in 0404 are in the bills' front; the move goes on to the
    // men at arms, and the skirmishers are left be.
    let mut g = bills_and_skirmishers("", "0404", "W", true);
    run(&mut g, &["go b 0305 0405"]);
    assert_eq!(hex(&g, "b").as_deref(), Some("0405"));
    assert_eq!(hex(&g, "sk").as_deref(), Some("0404"));
    assert_eq!(decision(&g).expect("the melee").rule, "CtB 10.2");
}

#[test]
fn ctb_10_6_only_a_formed_combat_stand_aiming_at_a_formed_enemy_pushes_through_in_the_open() {
    // No formed enemy beyond: refused.
    let mut g = bills_and_skirmishers("", "0405", "W", false);
    let r = refused(&mut g, "go b 0305 0405");
    assert!(
        r.contains("CtB 10.6") && r.contains("aiming to hit a formed enemy"),
        "{r}"
    );
    // Skirmishers in woods stand and fight (CtB 10.6): the move ends in contact.
    let mut g = bills_and_skirmishers(r#"terrain: { "woods": ["0405"] }"#, "0405", "W", true);
    let r = refused(&mut g, "go b 0305 0405");
    assert!(r.contains("move ends at 0305"), "{r}");
    // Light horse are no Combat Stand.
    let mut g = battle(
        "",
        &[
            st("lh", "blue", "light_horse", "0205", "E"),
            st("sk", "brown", "crossbow_sk", "0405", "W"),
            st("m", "brown", "dismounted_maa", "0505", "W"),
        ],
    );
    let r = refused(&mut g, "go lh 0305 0405");
    assert!(r.contains("move ends at 0305"), "{r}");
}

// ---- 12.0 [2]: a retreat lands on friendly skirmishers, pushing them back ----

#[test]
fn ctb_12_0_a_retreat_lands_on_friendly_skirmishers_and_pushes_them_back() {
    // Men at arms (1 MP: a 2-hex retreat) beaten in 0405 from 0505 may end in 0204,
    // 0205, 0206, 0307 or 0407: Blue skirmishers stand in each.
    let mut stands = vec![
        st("m", "blue", "dismounted_maa", "0405", "E"),
        st("b", "brown", "double_bills", "0505", "W"),
    ];
    let ring = ["0204", "0205", "0206", "0307", "0407"];
    for (i, at) in ring.iter().enumerate() {
        stands.push(st(&format!("s{i}"), "blue", "crossbow_sk", at, "E"));
    }
    let mut g = battle("", &stands);
    let job = RetreatJob::beaten(&g.world, unit(&g, "m"), h("0505"), false).expect("a stand");
    let cs = courses(&g.world, &job);
    // It lands on them after its 2 hexes rather than going on through them.
    assert_eq!(ends(&cs), ring.map(String::from).to_vec());
    let first = cs.into_iter().next().expect("a course");
    apply(&mut g.world, &job, first);
    let log = log_text(&g);
    assert_eq!(hex(&g, "m").as_deref(), Some("0204"), "{log}");
    let pushed = hex(&g, "s0").expect("pushed, not destroyed");
    assert_eq!(
        h(&pushed).distance(h("0505")),
        4,
        "{pushed}: one hex farther"
    );
    assert!(
        log.contains("m retreats onto s0 in 0204, pushing them back to"),
        "{log}"
    );
    // Skirmishers are retreated through without disorder (CtB 12.0 [2], 3.9).
    let e = bataille::rulesets::common::entity(&g.world, unit(&g, "s0"));
    assert!(!g.world.get::<CtbStatus>(e).expect("a stand").disordered);
}

// ---- 12.0-12.2: how far, off the board, blocked ----

/// The hexes of the default course of `id` beaten from `attacker`.
fn default_path(g: &Game, id: &str, attacker: &str) -> Vec<String> {
    let job = RetreatJob::beaten(&g.world, unit(g, id), h(attacker), false).expect("a stand");
    match courses(&g.world, &job).into_iter().next() {
        Some(Course::Path { path, .. }) => path.iter().map(|x| x.label()).collect(),
        c => panic!("{c:?}"),
    }
}

#[test]
fn ctb_12_0_a_retreat_is_twice_the_normal_move_and_a_bounce_one_move() {
    // Men at arms 1 MP: 2 hexes; bills 2 MP: 4; medium horse 3 MP: 6, a bounce 3.
    let g = battle(
        "",
        &[
            st("m", "blue", "dismounted_maa", "0605", "E"),
            st("b", "blue", "double_bills", "0603", "E"),
            st("c", "blue", "medium_horse", "0707", "E"),
            st("x", "brown", "double_bills", "0705", "W"),
        ],
    );
    assert_eq!(default_path(&g, "m", "0705").len(), 2);
    assert_eq!(default_path(&g, "b", "0703").len(), 4);
    assert_eq!(default_path(&g, "c", "0807").len(), 6);
    let job = RetreatJob::bounce(&g.world, unit(&g, "c"), h("0807")).expect("a stand");
    let first = courses(&g.world, &job).into_iter().next();
    assert!(
        matches!(&first, Some(Course::Path { path, sp_cost: 0, .. }) if path.len() == 3),
        "{first:?}"
    );
    // Every hex farther from the attacker than the last, facing kept.
    let p = default_path(&g, "c", "0807");
    let d: Vec<u32> = p.iter().map(|x| h(x).distance(h("0807"))).collect();
    assert!(d.windows(2).all(|w| w[1] > w[0]), "{p:?}");
}

#[test]
fn ctb_12_2_beaten_next_to_the_edge_it_retreats_off_and_its_points_are_lost() {
    let mut g = battle(
        "",
        &[
            st("m", "blue", "dismounted_maa", "0101", "E"),
            st("n", "blue", "dismounted_maa", "0208", "E"),
        ],
    );
    // In the corner, beaten from 0201: every hex farther away is off the board.
    let job = RetreatJob::beaten(&g.world, unit(&g, "m"), h("0201"), false).expect("a stand");
    let cs = courses(&g.world, &job);
    assert_eq!(cs, vec![Course::OffMap]);
    apply(&mut g.world, &job, Course::OffMap);
    assert_eq!(hex(&g, "m"), None);
    assert_eq!(g.world.resource::<CtbState>().bp_lost[0], 3, "its 3 BP");
    assert!(log_text(&g).contains("m retreats off the map"));
    // One hex from the edge it is not forced off (CtB 12.2: only a stand that begins
    // its retreat next to the edge): it stops at the edge.
    let p = default_path(&g, "n", "0308");
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].starts_with("01"), "{p:?}");
}

#[test]
fn ctb_12_1_a_stand_with_nowhere_to_retreat_is_destroyed() {
    // Surrounded by enemy stands on all six sides.
    let mut stands = vec![st("m", "blue", "dismounted_maa", "0505", "E")];
    for (i, at) in ["0504", "0506", "0404", "0405", "0604", "0605"]
        .iter()
        .enumerate()
    {
        stands.push(st(&format!("e{i}"), "brown", "dismounted_maa", at, "W"));
    }
    let mut g = battle("", &stands);
    let job = RetreatJob::beaten(&g.world, unit(&g, "m"), h("0604"), false).expect("a stand");
    let cs = courses(&g.world, &job);
    assert_eq!(cs, vec![Course::NoHex]);
    apply(&mut g.world, &job, Course::NoHex);
    assert_eq!(hex(&g, "m"), None);
    assert!(log_text(&g).contains("m has no hex to retreat to"));
}

#[test]
fn ctb_12_0_through_an_enemy_zone_of_control_costs_a_strength_point_a_hex() {
    // Every first step back from 0505 (0305, 0306, 0406) lies in the zone of control of
    // Brown men at arms in 0205 facing E or in 0307 facing NNE: 1 SP for each such hex.
    let mut g = battle(
        "",
        &[
            st("m", "blue", "dismounted_maa", "0405", "E"),
            st("w", "brown", "dismounted_maa", "0205", "E"),
            st("w2", "brown", "dismounted_maa", "0307", "NNE"),
        ],
    );
    let job = RetreatJob::beaten(&g.world, unit(&g, "m"), h("0505"), false).expect("a stand");
    let cs = courses(&g.world, &job);
    let costs: Vec<u8> = cs
        .iter()
        .map(|c| match c {
            Course::Path { sp_cost, .. } => *sp_cost,
            _ => 99,
        })
        .collect();
    let first = cs.into_iter().next().expect("a course");
    let Course::Path { path, sp_cost, .. } = first.clone() else {
        panic!("{first:?}");
    };
    assert!(sp_cost >= 1, "{path:?} {costs:?}");
    let before: u8 = g
        .world
        .get::<CtbRanks>(bataille::rulesets::common::entity(&g.world, unit(&g, "m")))
        .expect("ranks")
        .total();
    apply(&mut g.world, &job, first);
    let after: u8 = g
        .world
        .get::<CtbRanks>(bataille::rulesets::common::entity(&g.world, unit(&g, "m")))
        .expect("ranks")
        .total();
    assert_eq!(before - after, sp_cost, "{}", log_text(&g));
}

// ---- 13.0, 13.1, 10.2: pursuits ----

/// The pursuit of `id` from the hex its enemy left along `path` (CtB 13.1), its die
/// rolling `face`.
fn pursue(g: &mut Game, id: &str, from: &str, path: &[&str], face: u8) {
    *g.world.resource_mut::<Dice>() = Dice::new(seed_rolling(&[face]));
    let id = unit(g, id);
    let path: Vec<HexCoord> = path.iter().map(|x| h(x)).collect();
    bataille::rulesets::charles_the_bold::results::pursue(&mut g.world, id, h(from), path);
}

/// Blue medium horse in 0305 facing E pursue a loser that left 0405 for 0805, then stands
/// there facing E; `more` Brown stands.
fn horse_pursues(more: &[String]) -> Game {
    let mut stands = vec![
        st("w", "blue", "medium_horse", "0305", "E"),
        st("l", "brown", "double_bills", "0805", "E"),
    ];
    stands.extend_from_slice(more);
    battle("", &stands)
}

const WAY: [&str; 4] = ["0505", "0605", "0705", "0805"];

#[test]
fn ctb_13_0_pursuit_dice_bands_never_beyond_the_normal_move() {
    // Cavalry: 1 none, 2-3 one hex, 4-5 two, 6 three (R-pursuit), along the way.
    for (face, to) in [(1, "0305"), (3, "0405"), (5, "0505"), (6, "0605")] {
        let mut g = horse_pursues(&[]);
        pursue(&mut g, "w", "0405", &WAY, face);
        assert_eq!(
            hex(&g, "w").as_deref(),
            Some(to),
            "die {face}: {}",
            log_text(&g)
        );
    }
    // Foot that are not impetuous: one hex on 4-6, none below.
    for (face, to) in [(3, "0305"), (4, "0405"), (6, "0405")] {
        let mut g = battle(
            "",
            &[
                st("w", "blue", "double_bills", "0305", "E"),
                st("l", "brown", "double_bills", "0805", "E"),
            ],
        );
        pursue(&mut g, "w", "0405", &WAY, face);
        assert_eq!(
            hex(&g, "w").as_deref(),
            Some(to),
            "die {face}: {}",
            log_text(&g)
        );
    }
}

#[test]
fn ctb_13_1_a_pursuit_stops_at_its_first_contact() {
    // Brown men at arms in 0506, facing away, are in the horse's front from 0405: the
    // pursuit (a 6: three hexes) stops there, a new melee with them at once.
    let mut g = horse_pursues(&[st("n", "brown", "dismounted_maa", "0506", "E")]);
    pursue(&mut g, "w", "0405", &WAY, 6);
    assert_eq!(hex(&g, "w").as_deref(), Some("0405"), "{}", log_text(&g));
    assert!(log_text(&g).contains("w's pursuit makes contact: a new melee at once, with impact"));
    let d = decision(&g).expect("the melee");
    assert_eq!(d.rule, "CtB 10.2", "{d:?}");
    run(&mut g, &["fight w -> n"]);
}

#[test]
fn ctb_10_2_the_stand_a_pursuit_caught_is_its_enemy_battle_stand() {
    // The horse catches the crossbowmen it pursues (a Support Stand) in 0605 beside
    // Brown men at arms (a Combat Stand) in 0604: the crossbowmen are the Battle Stand.
    let mut g = battle(
        "",
        &[
            st("w", "blue", "medium_horse", "0305", "E"),
            st("l", "brown", "crossbow_sh", "0605", "E"),
            st("c", "brown", "dismounted_maa", "0604", "E"),
        ],
    );
    pursue(&mut g, "w", "0405", &["0505", "0605"], 6);
    assert_eq!(hex(&g, "w").as_deref(), Some("0505"), "{}", log_text(&g));
    while decision(&g).is_some_and(|d| d.rule.starts_with("CtB 6.")) {
        run(&mut g, &["react none"]);
    }
    let r = refused(&mut g, "fight w -> c");
    assert!(r.contains("CtB 10.2"), "{r}");
    run(&mut g, &["fight w -> l"]);
}

#[test]
fn ctb_13_0_a_pursuer_off_the_board_is_lost_without_lost_points() {
    // Blue horse in 0205 facing W pursue into 0105, where the enemy was destroyed, and
    // on straight ahead (CtB 13.1) off the board.
    let mut g = battle("", &[st("w", "blue", "medium_horse", "0205", "W")]);
    pursue(&mut g, "w", "0105", &[], 6);
    assert_eq!(hex(&g, "w"), None, "{}", log_text(&g));
    assert!(log_text(&g).contains("w pursues off the board and is lost (no lost points)"));
    assert_eq!(g.world.resource::<CtbState>().bp_lost[0], 0);
}

// ---- 10.5, 11.4: a reignition from behind the front line ----

#[test]
fn ctb_10_5_a_charger_reigniting_a_melee_from_behind_the_front_line_disorders_the_battle_stand() {
    // Blue bills in 0405 and Brown men at arms in 0505 (facing W) are locked in an
    // ongoing melee; Blue horse from 0705, behind the men at arms' front line, charge
    // their rear from 0605 (CtB 11.4: it joins as a support; 10.5: disordered).
    let mut g = battle(
        "",
        &[
            st("b", "blue", "double_bills", "0405", "E"),
            st("c", "blue", "medium_horse", "0705", "W"),
            st("e", "brown", "dismounted_maa", "0505", "W"),
        ],
    );
    let (b, e) = (unit(&g, "b"), unit(&g, "e"));
    g.world.resource_mut::<CtbState>().melees.push(
        bataille::rulesets::charles_the_bold::OngoingMelee {
            stands: [b, e],
            supports: [Vec::new(), Vec::new()],
        },
    );
    run(&mut g, &["go c 0605"]);
    while decision(&g).is_some_and(|d| d.rule.starts_with("CtB 6.")) {
        run(&mut g, &["react none"]);
    }
    run(&mut g, &["fight c -> e"]);
    let log = log_text(&g);
    let struck = log
        .find("e is struck in the flank or rear: disordered")
        .unwrap_or_else(|| panic!("{log}"));
    assert!(log.contains("reignites, the charger a support"), "{log}");
    let dice = log.find("in melee").expect("the melee's dice");
    assert!(struck < dice, "disordered before it fights: {log}");
}

// ---- 11.1: cavalry beaten by pikes or long spears frontally ----

#[test]
fn ctb_11_1_an_unmoved_schiltron_counts_as_frontal_on_every_side_for_cavalry_losses() {
    // English knights charge the flank of a Scots schiltron (facing NNE, 0404 on its
    // flank): unmoved, it is long spears met frontally (R-10.4), so beaten knights may
    // lose 2 SP; once it has moved, 1 at most (cavalry against foot, CtB 11.1).
    let knights_lose_two = |moved: bool| {
        let mut g = battle_of(
            ["english", "scots"],
            "",
            &[
                st("k", "blue", "knights", "0305", "E"),
                st("s", "brown", "schiltron", "0505", "NNE"),
            ],
        );
        if moved {
            let e = bataille::rulesets::common::entity(&g.world, unit(&g, "s"));
            g.world
                .get_mut::<bataille::rulesets::charles_the_bold::CtbTurn>(e)
                .expect("a stand")
                .moves = 1;
        }
        run(&mut g, &["go k 0404"]);
        let plan = bataille::rulesets::charles_the_bold::melee::check_fight(
            &g.world,
            unit(&g, "k"),
            unit(&g, "s"),
            &[],
        )
        .expect("the melee");
        let chances = bataille::rulesets::charles_the_bold::melee::chances(&g.world, &plan);
        chances
            .iter()
            .any(|(k, p)| k.starts_with("s wins; SP lost 2-") && *p > 0.0)
    };
    assert!(knights_lose_two(false));
    assert!(!knights_lose_two(true));
}

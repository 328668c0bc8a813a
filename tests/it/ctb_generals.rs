//! Generals and rallies in play (CtB 2.0-2.2, 8.0-8.1): command range at the time of
//! the test, a general's one move a round, his attachment (`attach`, `detach`) and
//! what it carries, a general pushed out of his hex or left by his fallen stand, and
//! the rally of a stand or of a group recovery with its modifiers.

use bataille::engine::dice::Dice;
use bataille::engine::game::Game;
use bataille::engine::units::UnitId;
use bataille::rulesets::charles_the_bold::{CtbState, CtbStatus, OngoingMelee};

use crate::common::{hex, log_text, refused, run, seed_rolling, unit_state};

/// Brown's general and one far stand, out of everyone's way.
pub(crate) const BROWN: &str = r#"
        (id: "brg", name: "Brown general", side: "brown", type: "general", hex: "1201", group: "brown"),
        (id: "far", name: "Brown men at arms", side: "brown", type: "dismounted_maa", hex: "1209", group: "brown", facing: "W"),"#;

/// A Blue stand of group `blue` (French list unless the game says otherwise).
pub(crate) fn blue(id: &str, name: &str, kind: &str, hex: &str, facing: &str) -> String {
    format!(
        r#"(id: "{id}", name: "{name}", side: "blue", type: "{kind}", hex: "{hex}", group: "blue", facing: "{facing}"),"#
    )
}

/// A Brown stand of group `brown`.
pub(crate) fn brown(id: &str, name: &str, kind: &str, hex: &str, facing: &str) -> String {
    format!(
        r#"(id: "{id}", name: "{name}", side: "brown", type: "{kind}", hex: "{hex}", group: "brown", facing: "{facing}"),"#
    )
}

/// Blue's general in 0105.
pub(crate) const GENERAL: &str = r#"(id: "bg", name: "Blue general", side: "blue", type: "general", hex: "0105", group: "blue"),"#;

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
    let ron = position_ron(armies, poorly_trained, more_groups, blue, brown);
    start_position(&ron, more, None)
}

/// As `game_of`, the army lists read from `armies_ron` (an `armies.ron` placed beside
/// the scenario, as a player may: the other tables built in).
pub(crate) fn game_of_listed(
    armies_ron: &str,
    armies: [&str; 2],
    blue: &str,
    brown: &str,
    more: &[u8],
) -> Game {
    let ron = position_ron(armies, false, "", blue, brown);
    start_position(&ron, more, Some(armies_ron))
}

fn position_ron(
    armies: [&str; 2],
    poorly_trained: bool,
    more_groups: &str,
    blue: &str,
    brown: &str,
) -> String {
    format!(
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
    )
}

fn start_position(ron: &str, more: &[u8], armies_ron: Option<&str>) -> Game {
    let mut dice = vec![6, 6, 1, 1];
    dice.extend_from_slice(more);
    let seed = seed_rolling(&dice);
    let mut g = match armies_ron {
        None => crate::common::game_of(ron, seed, &[]),
        Some(lists) => {
            let dir = crate::common::scratch("listed");
            let tables = dir.join("rulesets").join("charles_the_bold");
            std::fs::create_dir_all(&tables).expect("tables folder");
            crate::common::write(&tables, "armies.ron", lists);
            let path = crate::common::write(&dir, "position.ron", ron);
            Game::start(&path, seed, &[]).unwrap_or_else(|e| panic!("test position loads: {e}"))
        }
    };
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

/// The commands of the buttons the window shows for a selected unit (`unit_actions`).
pub(crate) fn actions(g: &Game, id: &str) -> Vec<String> {
    let e = bataille::rulesets::common::entity(&g.world, unit(g, id));
    g.ruleset
        .unit_actions(&g.world, e)
        .into_iter()
        .map(|c| c.command.to_string())
        .collect()
}

pub(crate) fn disorder(g: &mut Game, id: &str) {
    let e = bataille::rulesets::common::entity(&g.world, unit(g, id));
    g.world.get_mut::<CtbStatus>(e).expect("a stand").disordered = true;
}

/// Plays on (every decision's first answer, or the choice of `group`, else `end`) until
/// `group` activates in `round`.
pub(crate) fn until_activation(g: &mut Game, round: u32, group: &str) {
    for _ in 0..30 {
        let s = g.world.resource::<CtbState>();
        if g.turn().turn == round && s.activation.is_some_and(|a| s.groups[a].id == group) {
            return;
        }
        let line = match g.ruleset.decision(&g.world) {
            Some(d) => d
                .choices
                .iter()
                .map(|c| c.command.to_string())
                .find(|c| *c == format!("declare {group}"))
                .unwrap_or_else(|| d.choices[0].command.to_string()),
            None => "end".into(),
        };
        run(g, &[&line]);
    }
    panic!(
        "{group} does not activate in round {round}:\n{}",
        log_text(g)
    );
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

// ---- command range (CtB 2.0) ----

#[test]
fn ctb_2_0_out_of_command_range_at_the_time_of_the_test_is_minus_one() {
    // A well trained army: 6H. The general rides from 0205 to 0105 first; then the
    // crossbowmen in 0705 are 6 hexes from him, those in 0805 7 (6 before he rode).
    let blue = [
        general("bg", "0205", false),
        stand("x1", "Crossbowmen 1", "crossbow_sh", "0705"),
        stand("x2", "Crossbowmen 2", "crossbow_sh", "0805"),
    ]
    .concat();
    let mut g = blue_moves(&blue, &[4, 4]);
    run(&mut g, &["go bg 0105", "opportunity x1", "opportunity x2"]);
    let log = log_text(&g);
    assert!(
        log.contains("Die: 4 for the Order Test of Crossbowmen 1 (class B: 4+) (CtB"),
        "{log}"
    );
    assert!(
        log.contains(
            "Die: 4 for the Order Test of Crossbowmen 2 (class B: 4+, -1 out of command range)"
        ),
        "{log}"
    );
    assert!(flags(&g, "x1").contains(&"opportunity".to_string()));
    assert!(
        !flags(&g, "x2").contains(&"opportunity".to_string()),
        "{log}"
    );

    // A poorly trained army: 4H. 0505 is 4 hexes from 0105, 0605 five.
    let blue = [
        general("bg", "0105", false),
        stand("x1", "Crossbowmen 1", "crossbow_sh", "0505"),
        stand("x2", "Crossbowmen 2", "crossbow_sh", "0605"),
    ]
    .concat();
    let mut g = game_of(["french", "french"], true, "", &blue, BROWN, &[4, 4]);
    run(&mut g, &["opportunity x1", "opportunity x2"]);
    let log = log_text(&g);
    assert!(
        log.contains("Die: 4 for the Order Test of Crossbowmen 1 (class B: 4+) (CtB"),
        "{log}"
    );
    assert!(
        log.contains(
            "Die: 4 for the Order Test of Crossbowmen 2 (class B: 4+, -1 out of command range)"
        ),
        "{log}"
    );
    assert!(flags(&g, "x1").contains(&"opportunity".to_string()));
    assert!(
        !flags(&g, "x2").contains(&"opportunity".to_string()),
        "{log}"
    );
}

// ---- moving commanders (CtB 2.1) ----

#[test]
fn ctb_2_1_a_general_rides_once_a_round_up_to_six_hexes() {
    let blue = [
        general("bg", "0105", false),
        stand("b1", "Bills 1", "double_bills", "0305"),
    ]
    .concat();
    let brown = format!(
        "{BROWN}{}",
        r#"(id: "m", name: "Brown bills", side: "brown", type: "double_bills", hex: "1105", group: "brown", facing: "W"),"#
    );
    let mut g = game_of(["french", "french"], false, "", &blue, &brown, &[]);
    let r = refused(&mut g, "go bg 0205 0305 0405 0505 0605 0705 0805");
    assert!(
        r.contains("CtB 2.1") && r.contains("1 to 6 hexes, not 7"),
        "{r}"
    );
    // Six hexes, through the hex of a stand of his.
    run(&mut g, &["go bg 0205 0305 0405 0505 0605 0705"]);
    assert_eq!(hex(&g, "bg").as_deref(), Some("0705"));
    let r = refused(&mut g, "go bg 0805");
    assert!(
        r.contains("CtB 2.1") && r.contains("has made his move this round"),
        "{r}"
    );
    // The next round he rides again, but never into an enemy stand's hex.
    until_activation(&mut g, 2, "blue");
    let r = refused(&mut g, "go bg 0805 0905 1005 1105");
    assert!(r.contains("1105 holds an enemy stand"), "{r}");
    run(&mut g, &["go bg 0805"]);
    assert_eq!(hex(&g, "bg").as_deref(), Some("0805"));
}

#[test]
fn ctb_2_1_an_attached_general_moves_with_every_move_of_his_stand() {
    // Bills (class B, 4+) with the general attached: the extra move's test has +1.
    let blue = [
        general("bg", "0305", true),
        stand("b1", "Bills 1", "double_bills", "0305"),
    ]
    .concat();
    let mut g = blue_moves(&blue, &[3]);
    run(&mut g, &["go b1 0404"]);
    assert_eq!(hex(&g, "bg").as_deref(), Some("0404"));
    run(&mut g, &["go b1 0504"]);
    let log = log_text(&g);
    assert!(
        log.contains("Die: 3 for the Order Test of Bills 1 (class B: 4+, +1 general)"),
        "{log}"
    );
    assert_eq!(hex(&g, "b1").as_deref(), Some("0504"));
    assert_eq!(hex(&g, "bg").as_deref(), Some("0504"));
    // Carried, he has not made his own move: he may still ride (and leaves the stand).
    run(&mut g, &["go bg 0404"]);
    assert_eq!(hex(&g, "bg").as_deref(), Some("0404"));
    assert!(!flags(&g, "bg").contains(&"attached".to_string()));

    // Not attached, he stays where he is when the stand moves.
    let blue = [
        general("bg", "0305", false),
        stand("b1", "Bills 1", "double_bills", "0305"),
    ]
    .concat();
    let mut g = blue_moves(&blue, &[]);
    run(&mut g, &["go b1 0404"]);
    assert_eq!(hex(&g, "bg").as_deref(), Some("0305"));
}

#[test]
fn ctb_2_1_an_attached_general_goes_with_his_stand_when_it_is_displaced() {
    // The general attached to the crossbowmen in 0504; Bills 1 end their move there
    // and the crossbowmen go back to 0305, where it began (CtB 3.10): he goes too.
    let blue = [
        general("bg", "0504", true),
        stand("x", "Crossbowmen", "crossbow_sh", "0504"),
        stand("b1", "Bills 1", "double_bills", "0305"),
    ]
    .concat();
    let mut g = blue_moves(&blue, &[]);
    run(&mut g, &["go b1 0404 0504"]);
    assert_eq!(hex(&g, "x").as_deref(), Some("0305"));
    assert_eq!(hex(&g, "bg").as_deref(), Some("0305"), "{}", log_text(&g));
    assert!(flags(&g, "bg").contains(&"attached".to_string()));
}

#[test]
fn ctb_2_1_a_general_alone_where_an_enemy_enters_rides_to_his_nearest_stand() {
    // The Brown general alone in 0505; his stands in 0905 (4 hexes) and 1009 (7).
    let brown = r#"
        (id: "brg", name: "Brown general", side: "brown", type: "general", hex: "0505", group: "brown"),
        (id: "m1", name: "Brown bills 1", side: "brown", type: "double_bills", hex: "0905", group: "brown", facing: "W"),
        (id: "m2", name: "Brown bills 2", side: "brown", type: "double_bills", hex: "1009", group: "brown", facing: "W"),"#;
    let blue = [
        general("bg", "0105", false),
        stand("b1", "Bills 1", "double_bills", "0305"),
    ]
    .concat();
    let mut g = game_of(["french", "french"], false, "", &blue, brown, &[]);
    run(&mut g, &["go b1 0405 0505"]);
    let log = log_text(&g);
    assert_eq!(hex(&g, "b1").as_deref(), Some("0505"));
    assert!(
        log.contains("Brown general rides to the nearest stand of his group, in 0905"),
        "{log}"
    );
    assert_eq!(hex(&g, "brg").as_deref(), Some("0905"));
}

// ---- attaching and detaching (CtB 2.1, R-2.1) ----

#[test]
fn ctb_2_1_a_general_attaches_to_a_stand_in_his_hex_and_detaches() {
    // The general alone in 0105; Bills 1 in 0305; the reserve's crossbowmen in 0307.
    let blue = [
        general("bg", "0105", false),
        stand("b1", "Bills 1", "double_bills", "0305"),
        r#"(id: "rg", name: "Reserve general", side: "blue", type: "general", hex: "0307", group: "reserve"),
        (id: "r1", name: "Reserve crossbowmen", side: "blue", type: "crossbow_sh", hex: "0307", group: "reserve", facing: "E"),"#
            .to_string(),
    ]
    .concat();
    let reserve = r#", (id: "reserve", name: "Reserve", general: "rg")"#;
    let mut g = game_of(["french", "french"], false, reserve, &blue, BROWN, &[]);
    let r = refused(&mut g, "attach bg");
    assert!(
        r.contains("CtB 2.1") && r.contains("no stand in Blue general's hex, 0105"),
        "{r}"
    );
    let r = refused(&mut g, "detach bg");
    assert!(r.contains("CtB 2.1") && r.contains("not attached"), "{r}");
    // Not in his group's activation, nor the enemy's general.
    let r = refused(&mut g, "attach rg");
    assert!(
        r.contains("CtB 2.1") && r.contains("his group's activation"),
        "{r}"
    );
    let r = refused(&mut g, "attach brg");
    assert!(r.contains("CtB 2.1") && r.contains("the enemy's"), "{r}");
    let r = refused(&mut g, "attach b1");
    assert!(r.contains("CtB 2.1") && r.contains("not a general"), "{r}");

    // Riding into the hex of a stand of his joins it (CtB 2.1: "use that move to join
    // a stand"); he may then detach himself and stay there.
    run(&mut g, &["go bg 0205 0305"]);
    assert!(log_text(&g).contains("attached to Bills 1"));
    // The window offers what is legal (a button on the general's card).
    assert_eq!(actions(&g, "bg"), ["detach bg"]);
    run(&mut g, &["detach bg"]);
    assert_eq!(actions(&g, "bg"), ["attach bg"]);
    assert!(!flags(&g, "bg").contains(&"attached".to_string()));
    assert!(
        log_text(&g).contains("Blue general detaches himself from Bills 1: he stays in 0305"),
        "{}",
        log_text(&g)
    );
    let r = refused(&mut g, "detach bg");
    assert!(r.contains("not attached"), "{r}");
    // Attaching is a declaration, not a move: his move is spent (he rode), yet he
    // attaches; by his hex, too.
    run(&mut g, &["attach 0305"]);
    assert!(flags(&g, "bg").contains(&"attached".to_string()));
    assert!(
        log_text(&g).contains("Blue general attaches himself to Bills 1"),
        "{}",
        log_text(&g)
    );
    let r = refused(&mut g, "attach bg");
    assert!(r.contains("attached to Bills 1 already"), "{r}");
    run(&mut g, &["go b1 0404"]);
    assert_eq!(hex(&g, "bg").as_deref(), Some("0404"));

    // Detached before the stand moves, he stays; attaching spends no move, so he may
    // ride after it.
    let blue = [
        general("bg", "0305", true),
        stand("b1", "Bills 1", "double_bills", "0305"),
    ]
    .concat();
    let mut g = blue_moves(&blue, &[]);
    run(&mut g, &["detach bg", "go b1 0404"]);
    assert_eq!(hex(&g, "bg").as_deref(), Some("0305"));
    run(&mut g, &["go bg 0404", "detach bg", "attach bg"]);
    assert_eq!(hex(&g, "bg").as_deref(), Some("0404"));
    assert!(flags(&g, "bg").contains(&"attached".to_string()));
}

#[test]
fn ctb_2_1_a_general_attaches_only_to_a_stand_of_his_command() {
    // The reserve's crossbowmen stand in the Blue general's hex.
    let blue = [
        general("bg", "0307", false),
        stand("b1", "Bills 1", "double_bills", "0305"),
        r#"(id: "rg", name: "Reserve general", side: "blue", type: "general", hex: "0109", group: "reserve"),
        (id: "r1", name: "Reserve crossbowmen", side: "blue", type: "crossbow_sh", hex: "0307", group: "reserve", facing: "E"),"#
            .to_string(),
    ]
    .concat();
    let reserve = r#", (id: "reserve", name: "Reserve", general: "rg")"#;
    let mut g = game_of(["french", "french"], false, reserve, &blue, BROWN, &[]);
    let r = refused(&mut g, "attach bg");
    assert!(
        r.contains("CtB 2.1") && r.contains("Reserve crossbowmen is not of Blue general's command"),
        "{r}"
    );
}

// ---- losing a commander (CtB 2.2) ----

#[test]
fn ctb_2_2_a_general_not_attached_rides_to_the_nearest_stand_when_his_falls() {
    use bataille::rulesets::charles_the_bold::results;
    // With Bills 1 in 0305, not attached (detached at once); Bills 2 two hexes away in
    // 0307, Bills 3 four in 0705.
    let blue = [
        general("bg", "0305", true),
        stand("b1", "Bills 1", "double_bills", "0305"),
        stand("b2", "Bills 2", "double_bills", "0307"),
        stand("b3", "Bills 3", "double_bills", "0705"),
    ]
    .concat();
    let mut g = blue_moves(&blue, &[]);
    run(&mut g, &["detach bg"]);
    let b1 = unit(&g, "b1");
    results::destroy(&mut g.world, b1, "test", true);
    let log = log_text(&g);
    assert!(!log.contains("killed"), "{log}");
    assert!(
        log.contains("Blue general rides to the nearest stand of his group, in 0307"),
        "{log}"
    );
    assert_eq!(hex(&g, "bg").as_deref(), Some("0307"));
    // Attached, he falls with it (the case of ctb_2_2_killed_with_stand_…).
    let mut g = blue_moves(&blue, &[]);
    let b1 = unit(&g, "b1");
    results::destroy(&mut g.world, b1, "test", true);
    assert_eq!(hex(&g, "bg"), None);
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
    // The window offers Bills 1 its own rally and the group's, not the crossbowmen.
    assert_eq!(
        actions(&g, "b1"),
        ["rally b1", "rally b1 maa"],
        "a button each"
    );
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

    // The same by declaring him attached first (CtB 2.1).
    let mut g = disordered(false, &[3]);
    run(&mut g, &["attach bg", "rally b1 maa"]);
    assert!(log_text(&g).contains("(class B: 4+, +1 general)"));

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

/// Replaces the dice with those of `seed`.
pub(crate) fn dice_from(g: &mut Game, seed: u64) {
    *g.world.resource_mut::<Dice>() = Dice::new(seed);
}

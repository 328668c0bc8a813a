//! The line-of-sight tool (issue 18): each ruleset's `sight` answers as its own rule of
//! fire does, on every line from a few hexes of its scenarios, and says what blocks.

use bataille::engine::board::Board;
use bataille::engine::game::Game;
use bataille::engine::hex::HexCoord;

use crate::common::root;

fn start(scenario: &str, options: &[&str]) -> Game {
    let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    Game::start(&root().join("scenarios").join(scenario), 1, &options).unwrap()
}

/// Every line from `origins` to the hexes 2 to `reach` away on the map, with the tool's
/// answer and the rule's.
fn lines(g: &Game, origins: &[&str], reach: u32) -> Vec<(HexCoord, HexCoord)> {
    let board = g.world.resource::<Board>();
    let mut out = Vec::new();
    for o in origins {
        let a = HexCoord::parse(o).unwrap();
        for b in board.hexes() {
            let d = a.distance(b);
            if (2..=reach).contains(&d) {
                out.push((a, b));
            }
        }
    }
    out
}

/// Checks the tool against `rule` on every line: the same answer; a blocked line names
/// what blocks it at a hex that stops it; both answers are met.
fn agrees(g: &Game, lines: &[(HexCoord, HexCoord)], rule: impl Fn(HexCoord, HexCoord) -> bool) {
    let (mut clear, mut blocked) = (0, 0);
    for &(a, b) in lines {
        let line = g.ruleset.sight(&g.world, a, b).expect("a line of sight");
        assert_eq!(line.clear, rule(a, b), "{a} → {b}: {line:?}");
        if line.clear {
            clear += 1;
        } else {
            blocked += 1;
            assert!(
                line.steps
                    .iter()
                    .any(|s| s.stops() && s.blocks.as_ref().is_some_and(|w| !w.is_empty()))
                    || a.is_adjacent(b),
                "{a} → {b}: blocked, but no step says why: {line:?}"
            );
        }
    }
    assert!(clear > 0 && blocked > 0, "{clear} clear, {blocked} blocked");
}

#[test]
fn sight_tool_answers_as_charles_the_bold_direct_fire_does() {
    let g = start("charles_the_bold/grandson_1476.ron", &[]);
    let lines = lines(&g, &["0510", "1005", "1508", "0803"], 8);
    agrees(&g, &lines, |a, b| {
        bataille::rulesets::charles_the_bold::shooting::sees(&g.world, a, b, false)
    });
}

#[test]
fn sight_tool_answers_as_morne_plaine_bombardment_does() {
    let g = start("morne_plaine/waterloo_1815.ron", &[]);
    let tables = g
        .world
        .resource::<bataille::rulesets::morne_plaine::MpTables>()
        .0
        .clone();
    let board = g.world.resource::<Board>();
    let lines = lines(&g, &["1010", "0505", "1205"], 6);
    agrees(&g, &lines, |a, b| {
        bataille::rulesets::morne_plaine::bombardment::line_of_fire(board, &tables, a, b)
    });
}

#[test]
fn sight_tool_answers_as_champs_de_bataille_bowmen_do() {
    let g = start("champs_de_bataille/soissons_486.ron", &[]);
    let lines = lines(&g, &["0505", "1010", "1505"], 6);
    agrees(&g, &lines, |a, b| {
        bataille::rulesets::champs_de_bataille::missile::clear_line(&g.world, a, b)
    });
}

#[test]
fn sight_tool_in_a_la_charge_blocks_only_at_hills_and_only_with_the_option() {
    // Without the option nothing blocks fire (AlC 9): every line clear.
    let g = start("a_la_charge/kalavryai_1078.ron", &[]);
    let all = lines(&g, &["0505", "1010"], 6);
    assert!(
        all.iter()
            .all(|(a, b)| g.ruleset.sight(&g.world, *a, *b).unwrap().clear)
    );
    // With it, hills block, and say so.
    let g = start("a_la_charge/kalavryai_1078.ron", &["hills_block_fire"]);
    let blocked: Vec<_> = all
        .iter()
        .map(|(a, b)| g.ruleset.sight(&g.world, *a, *b).unwrap())
        .filter(|l| !l.clear)
        .collect();
    assert!(!blocked.is_empty());
    for l in blocked {
        assert!(
            l.steps.iter().any(|s| s.stops()
                && s.blocks.as_deref() == Some("a hill (AlC 9, option hills_block_fire)")),
            "{l:?}"
        );
    }
}

#[test]
fn sight_command_line_lists_each_hex_and_says_clear_or_blocked() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args([
            "sight",
            "scenarios/charles_the_bold/grandson_1476.ron",
            "0510",
            "1005",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("Line of sight 0510 → 1005 (Charles the Bold):"),
        "{text}"
    );
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l == "clear" || l == "blocked"),
        "{text}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args([
            "sight",
            "scenarios/charles_the_bold/grandson_1476.ron",
            "0510",
            "99x9",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("`99x9` is not a hex label"));
}

#[test]
fn sight_tool_answers_as_charge_and_melee_shooting_does() {
    let path = root().join("scenarios/charge_and_melee/hastings_1066.ron");
    let g = Game::start(&path, 1, &[]).unwrap();
    let board = g.world.resource::<Board>();
    // From hexes of rows 12 and 16, in the armies and between them: woods, the ridge
    // and the stands between block.
    let origins: Vec<String> = board
        .hexes()
        .filter(|h| h.label().ends_with("12") || h.label().ends_with("16"))
        .step_by(5)
        .map(|h| h.label())
        .collect();
    let origins: Vec<&str> = origins.iter().map(String::as_str).collect();
    let lines = lines(&g, &origins, 6);
    agrees(&g, &lines, |a, b| {
        bataille::rulesets::charge_and_melee::sight::clear_line(&g.world, a, b)
    });
    // Every kind of blocker is met.
    let why: Vec<String> = lines
        .iter()
        .flat_map(|(a, b)| g.ruleset.sight(&g.world, *a, *b).unwrap().steps)
        .filter_map(|s| s.blocks)
        .collect();
    for kind in ["woods", "a stand of", "higher than both ends"] {
        assert!(why.iter().any(|w| w.contains(kind)), "no `{kind}` met");
    }
}

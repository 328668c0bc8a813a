//! Replays of saves (issue 18): any point of a recorded game is the game as it stood
//! then, a what-if branch keeps the original's prefix and records where it left it,
//! and bad points and saves are refused with their place.

use std::path::{Path, PathBuf};
use std::process::Command;

use bataille::engine::dice::Dice;
use bataille::engine::game::Game;
use bataille::engine::replay::Replay;
use bataille::rulesets::REGISTRY;

use crate::common::{RECORDED_SCRIPTS, root, run, scratch, script_seed, write};

/// What a position is, as a player and the log see it: the state, the log's text and
/// how far the dice have rolled.
fn position(g: &Game) -> (serde_json::Value, String, u128) {
    let log: Vec<String> = g.log().lines().collect();
    (
        g.state_json(),
        log.join("\n"),
        g.world.resource::<Dice>().position(),
    )
}

/// Plays `script` on `scenario` fresh, keeping the position after every command, and
/// saves the game.
fn played(
    scenario: &str,
    options: &[&str],
    script: &str,
) -> (Vec<(serde_json::Value, String, u128)>, PathBuf) {
    let text = std::fs::read_to_string(root().join("scripts").join(script)).unwrap();
    let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    let mut g = Game::start(
        &root().join("scenarios").join(scenario),
        script_seed(&text),
        &options,
    )
    .unwrap();
    let mut points = vec![position(&g)];
    for line in text.lines() {
        if let Some(cmd) = g.parse_line(line).unwrap() {
            g.submit(&cmd)
                .unwrap_or_else(|r| panic!("{script}: {line}: {r}"));
            points.push(position(&g));
        }
    }
    let save = write(&scratch("replay"), "game.ron", &g.save_text());
    (points, save)
}

#[test]
fn replay_every_point_of_the_recorded_games_is_the_game_played_fresh() {
    for (scenario, options, script) in RECORDED_SCRIPTS {
        let (points, save) = played(scenario, options, script);
        let r = Replay::open(REGISTRY, &save).unwrap_or_else(|e| panic!("{script}: {e}"));
        assert_eq!(r.len() + 1, points.len(), "{script}");
        // Every point, in both directions (a step back replays from the start).
        for n in (0..=r.len()).rev() {
            let g = r.at(n).unwrap_or_else(|e| panic!("{script} at {n}: {e}"));
            assert!(position(&g) == points[n], "{script}: point {n} differs");
        }
    }
}

#[test]
fn replay_marks_where_each_turn_and_phase_begins() {
    let (_, save) = played(
        "a_la_charge/civitate_1053.ron",
        &[],
        "civitate_full_game.txt",
    );
    let r = Replay::open(REGISTRY, &save).unwrap();
    let marks = r.marks();
    assert_eq!(marks[0].after, 0);
    assert!(
        marks
            .windows(2)
            .all(|w| w[0].after < w[1].after && w[0].turn <= w[1].turn)
    );
    // Each mark is where the game's turn, phase or side is new, and only there.
    for m in marks {
        let g = r.at(m.after).unwrap();
        assert_eq!(
            (g.turn().turn, g.turn().phase.label),
            (m.turn, m.phase.as_str())
        );
        if m.after > 0 {
            let before = r.at(m.after - 1).unwrap();
            let t = before.turn();
            assert!(
                (t.turn, t.phase.label, t.active)
                    != (g.turn().turn, g.turn().phase.label, g.turn().active),
                "{m:?}"
            );
        }
    }
    let turn2 = r.point_of(2, None).expect("turn 2 was played");
    assert_eq!(r.at(turn2).unwrap().turn().turn, 2);
    assert_eq!(r.at(turn2 - 1).unwrap().turn().turn, 1);
    assert_eq!(
        r.point_of(2, Some("combat")),
        marks
            .iter()
            .find(|m| m.turn == 2 && m.phase == "combat")
            .map(|m| m.after)
    );
    assert_eq!(r.point_of(99, None), None);
}

#[test]
fn replay_a_branch_keeps_the_prefix_records_where_it_left_and_leaves_the_original() {
    let (points, save) = played(
        "a_la_charge/civitate_1053.ron",
        &[],
        "civitate_full_game.txt",
    );
    let original = std::fs::read_to_string(&save).unwrap();
    let r = Replay::open(REGISTRY, &save).unwrap();
    let at = r.point_of(2, None).expect("turn 2");
    let mut branch = r.branch(at).unwrap();
    assert!(position(&branch) == points[at]);
    // The branch goes its own way: the Normans end their movement at once.
    run(&mut branch, &["end"]);
    let branch_save = write(&scratch("branch"), "branch.ron", &branch.save_text());
    let text = std::fs::read_to_string(&branch_save).unwrap();
    assert!(text.contains(&format!("at: {at}")), "{text}");
    assert!(text.contains(&save.display().to_string()), "{text}");
    // Its save replays the original's prefix exactly, then its own command.
    let b = Replay::open(REGISTRY, &branch_save).unwrap();
    assert_eq!(b.len(), at + 1);
    assert_eq!(b.save().commands[..at], r.save().commands[..at]);
    assert!(position(&b.at(at).unwrap()) == points[at]);
    assert_eq!(b.save().branch.as_ref().map(|o| o.at), Some(at));
    // Loaded and saved again, it still says where it came from.
    let again = Game::load_save(&branch_save).unwrap();
    assert_eq!(again.save().branch, b.save().branch);
    // The original is untouched.
    assert_eq!(std::fs::read_to_string(&save).unwrap(), original);
}

#[test]
fn replay_refuses_a_point_past_the_end_and_a_save_it_cannot_replay() {
    let (_, save) = played(
        "a_la_charge/civitate_1053.ron",
        &[],
        "civitate_full_game.txt",
    );
    let r = Replay::open(REGISTRY, &save).unwrap();
    let e = r.at(r.len() + 1).err().expect("past the end").to_string();
    assert!(e.contains(&format!("holds {} commands", r.len())), "{e}");
    // A command no longer legal at its point: the file, line and column of it.
    let text = std::fs::read_to_string(&save).unwrap();
    let (i, first) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("\"move "))
        .expect("a move");
    let line = i + 1;
    // The same unit sent to the map's far corner: well formed, out of its reach.
    let unit = first.split_whitespace().nth(1).expect("its unit");
    let bad = text.replacen(first, &format!("        \"move {unit} 0101\","), 1);
    let bad_path = write(&scratch("bad-replay"), "bad.ron", &bad);
    let e = Replay::open(REGISTRY, &bad_path)
        .err()
        .expect("refused")
        .to_string();
    assert!(e.contains(&format!("bad.ron:{line}:")), "{e}");
    assert!(e.contains("refused on replay"), "{e}");
}

fn bataille(args: &[&str], dir: &Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the bataille binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn replay_command_line_prints_a_point_its_marks_and_writes_a_branch() {
    let (points, save) = played(
        "a_la_charge/civitate_1053.ron",
        &[],
        "civitate_full_game.txt",
    );
    let s = save.display().to_string();
    let (ok, out, err) = bataille(&["replay", &s, "--to", "30", "--state"], &root());
    assert!(ok, "{err}");
    assert!(out.contains("Point 30 of "), "{out}");
    assert!(
        out.contains(&points[30].1.lines().last().unwrap().to_string()),
        "{out}"
    );
    let (ok, out, _) = bataille(&["replay", &s, "--marks"], &root());
    assert!(
        ok && out.starts_with("after    0 commands: turn 1,"),
        "{out}"
    );
    let (ok, out, _) = bataille(&["replay", &s, "--turn", "2"], &root());
    assert!(ok && out.contains("turn 2"), "{out}");
    let branch = scratch("cli-branch").join("b.ron");
    let b = branch.display().to_string();
    let (ok, _, err) = bataille(&["replay", &s, "--to", "30", "--branch", &b], &root());
    assert!(ok, "{err}");
    let r = Replay::open(REGISTRY, &branch).unwrap();
    assert_eq!(
        (r.len(), r.save().branch.as_ref().map(|o| o.at)),
        (30, Some(30))
    );
    let (ok, _, err) = bataille(&["replay", &s, "--to", "100000"], &root());
    assert!(
        !ok && err.contains("there is no point after command 100000"),
        "{err}"
    );
    let (ok, _, err) = bataille(&["replay", &s, "--turn", "99"], &root());
    assert!(!ok && err.contains("never reached turn 99"), "{err}");
}

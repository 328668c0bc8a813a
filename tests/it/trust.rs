//! The trust harness: a process killed in the middle of a phase resumes from its
//! autosave with every command up to the last phase end and the same dice; random
//! command sequences over every scenario of every registered ruleset keep the
//! invariants, change nothing when refused, and replay to the identical log.

use std::io::Write;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use bataille::engine::command::{Command, parse_line};
use bataille::engine::game::Game;

use crate::common::*;

/// The commands of a script, without comments and blank lines.
fn script_commands(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| matches!(parse_line(l), Ok(Some(_))))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_process_killed_mid_phase_resumes_from_its_autosave_with_the_same_dice() {
    let script = std::fs::read_to_string(root().join("scripts/civitate_full_game.txt")).unwrap();
    let lines = script_commands(&script);
    // Feed up to and past the third phase end: the autosave holds the game at that
    // end; the two moves after it are in the middle of the next phase.
    let ends: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim() == "end")
        .map(|(i, _)| i)
        .collect();
    let last_end = ends[2];
    let fed = last_end + 3;
    let dir = scratch("sigkill");
    let autosave = dir.join("autosave.ron");
    let mut child = Process::new(env!("CARGO_BIN_EXE_bataille"))
        .args([
            "play",
            "scenarios/a_la_charge/civitate_1053.ron",
            "--seed",
            "34",
        ])
        .args(["--script", "-", "--autosave"])
        .arg(&autosave)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    {
        let stdin = child.stdin.as_mut().unwrap();
        for line in &lines[..fed] {
            writeln!(stdin, "{line}").unwrap();
        }
        stdin.flush().unwrap();
    }
    // Wait until the autosave holds the third phase end, then a little more for the
    // two moves after it, and kill the process (SIGKILL) with stdin still open.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(g) = Game::load_save(&autosave)
            && g.commands().len() == last_end + 1
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no autosave of the third phase end"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    child.kill().expect("SIGKILL");
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed, not finished: {status:?}");

    let mut resumed = Game::load_save(&autosave).expect("the autosave loads");
    let expected: Vec<Command> = lines[..=last_end]
        .iter()
        .map(|l| parse_line(l).unwrap().unwrap())
        .collect();
    assert_eq!(
        resumed.commands(),
        &expected[..],
        "every command up to the autosave"
    );
    // The game goes on with the same dice as one never interrupted.
    for line in &lines[last_end + 1..] {
        resumed.submit_line(line).unwrap();
    }
    let mut whole = Game::start(&civitate_path(), 34, &[]).unwrap();
    whole.run_script(&script).unwrap();
    assert!(whole.is_over());
    let log = |g: &Game| g.log().lines().collect::<Vec<String>>();
    assert_eq!(log(&resumed), log(&whole));
}

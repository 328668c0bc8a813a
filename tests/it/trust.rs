//! The trust harness: a process killed in the middle of a phase resumes from its
//! autosave with every command up to the last phase end and the same dice; random
//! command sequences over every scenario of every registered ruleset keep the
//! invariants, change nothing when refused, and replay to the identical log.

use std::io::Write;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use bataille::engine::command::Command;
use bataille::engine::game::Game;
use bataille::rulesets::parse_line;

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

pub(crate) mod random_games {
    //! Random command sequences, legal and illegal, from random seeds, over every
    //! scenario of every registered ruleset: a ruleset added to `REGISTRY` with
    //! scenarios under `scenarios/<id>/` is covered with no new test code.

    use std::collections::BTreeSet;
    use std::path::PathBuf;

    use bataille::engine::board::Board;
    use bataille::engine::command::Command;
    use bataille::engine::dice::Dice;
    use bataille::engine::game::Game;
    use bataille::engine::phase::PhaseKind;
    use bataille::engine::units::{Leader, Placement, SideId, UnitId, Units};
    use bataille::rulesets::REGISTRY;
    use bataille::rulesets::champs_de_bataille::commands::CdbCommand;
    use bataille::rulesets::parse_line;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::common::root;

    /// Every shipped scenario of every registered ruleset.
    pub fn scenarios() -> Vec<PathBuf> {
        let mut out = Vec::new();
        for id in REGISTRY.iter().map(|r| r.id) {
            let dir = root().join("scenarios").join(id);
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect();
            files.sort();
            assert!(!files.is_empty(), "ruleset {id} has no scenario");
            out.extend(files);
        }
        out
    }

    /// A random command that is most often nonsense: every verb, hexes on and off the
    /// map, the scenario's unit ids and unknown ones.
    pub fn noise(rng: &mut ChaCha8Rng, game: &Game) -> Option<Command> {
        let board = game.world.resource::<Board>();
        let (cols, rows) = (board.columns, board.rows);
        let keys: Vec<String> = game
            .scenario
            .file
            .units
            .iter()
            .map(|u| u.id.clone())
            .collect();
        let hex = |rng: &mut ChaCha8Rng| {
            format!(
                "{:02}{:02}",
                rng.random_range(0..cols + 2),
                rng.random_range(0..rows + 2)
            )
        };
        let unit = |rng: &mut ChaCha8Rng, h: String| {
            if rng.random_bool(0.5) {
                keys[rng.random_range(0..keys.len())].clone()
            } else if rng.random_bool(0.1) {
                "nobody".to_string()
            } else {
                h
            }
        };
        let h1 = hex(rng);
        let line = match rng.random_range(0..12) {
            0 => {
                let u = unit(rng, h1);
                let steps: Vec<String> = (0..rng.random_range(1..5)).map(|_| hex(rng)).collect();
                format!("move {u} {}", steps.join(" "))
            }
            1 => format!("attack {} fire {} -> {}", h1, hex(rng), hex(rng)),
            2 => format!("lose {}", unit(rng, h1)),
            3 => format!("check {}", unit(rng, h1)),
            4 => format!("retreat {h1}"),
            5 => {
                if rng.random_bool(0.3) {
                    "advance none".into()
                } else {
                    format!("advance {h1}")
                }
            }
            6 => format!("place {} {}", unit(rng, h1.clone()), h1),
            7 => {
                let u = unit(rng, h1.clone());
                let h2 = hex(rng);
                let v = unit(rng, h2);
                let turn = ["cw", "ccw", "about"][rng.random_range(0..3)];
                format!("march {u} {turn} {} / {v} {}", hex(rng), hex(rng))
            }
            8 => format!(
                "assign {} {}",
                keys[rng.random_range(0..keys.len())],
                rng.random_range(1..7)
            ),
            9 => {
                let h2 = hex(rng);
                let (a, b) = (unit(rng, h1), unit(rng, h2));
                format!("keep {a} {b}")
            }
            10 => format!(
                "{} {}",
                if rng.random_bool(0.5) {
                    "dismount"
                } else {
                    "remount"
                },
                unit(rng, h1)
            ),
            _ => "end".into(),
        };
        parse_line(&line).ok().flatten()
    }

    /// Invariants every ruleset shares, then the ruleset's own.
    fn violations(game: &Game) -> Vec<String> {
        let world = &game.world;
        let board = world.resource::<Board>();
        let units = world.resource::<Units>();
        let mut out = Vec::new();
        for id in units.ids() {
            let e = units.entity(id);
            // The unit index keeps each unit's placement and side for the rules' inner
            // loops: it must say what the components say.
            let (placement, side) = (
                world.get::<Placement>(e).copied(),
                world.get::<SideId>(e).copied(),
            );
            if placement != Some(units.placement(id)) || side != Some(units.side(id)) {
                out.push(format!(
                    "unit {}: the index has {:?} of side {:?}, its components {placement:?} of {side:?}",
                    id.0,
                    units.placement(id),
                    units.side(id)
                ));
            }
            if let Some(Placement::OnMap(h)) = world.get::<Placement>(e).copied() {
                if !board.contains(h) {
                    out.push(format!("unit {} off the map on {h}", id.0));
                } else if !units.at(board, h).contains(&id) {
                    out.push(format!(
                        "unit {} on {h} is missing from the hex index",
                        id.0
                    ));
                }
            }
        }
        for h in board.hexes() {
            for id in units.at(board, h) {
                let at = world.get::<Placement>(units.entity(*id)).copied();
                if at != Some(Placement::OnMap(h)) {
                    out.push(format!(
                        "the hex index puts unit {} on {h}, it is {at:?}",
                        id.0
                    ));
                }
            }
        }
        out.extend(game.ruleset.invariant_violations(world));
        out
    }

    /// One random game from `seed`: at most `length` commands. Panics with the seed
    /// and the command on any broken property.
    pub fn play(scenario: &std::path::Path, seed: u64, length: usize) -> usize {
        let mut game = Game::start(scenario, seed, &[]).unwrap();
        game.world
            .resource_mut::<bataille::engine::event::GameLog>()
            .keep_text = true;
        let ruleset = game.ruleset.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let name = scenario.file_name().unwrap().to_string_lossy().to_string();
        let fail =
            |what: String, cmd: &Command| -> ! { panic!("{name} seed {seed}: `{cmd}`: {what}") };
        // Attackers and defenders of this phase, by unit.
        let mut attacked_with: BTreeSet<UnitId> = BTreeSet::new();
        let mut attacked: BTreeSet<UnitId> = BTreeSet::new();
        let mut submitted = 0;
        for _ in 0..length {
            let legal = rng.random_bool(0.7);
            let cmd = if legal {
                ruleset.random_command(&mut game.world, &mut rng)
            } else {
                match noise(&mut rng, &game) {
                    Some(c) => c,
                    None => continue,
                }
            };
            submitted += 1;
            let before_turn = game.turn().clone();
            // A phase may also move on when the command answers the rules' pending
            // decision: the last answer of a step lets the automatic phases after it run
            // (C&M's responses and moves after a charge lead to the resolution and the
            // mêlée, spec B.2 §13).
            let answers_decision = ruleset
                .decision(&game.world)
                .is_some_and(|d| d.choices.iter().any(|c| c.command == cmd));
            let before = (
                game.state_json(),
                game.log().events.len(),
                game.world.resource::<Dice>().position(),
                game.commands().len(),
            );
            let combatants = |game: &Game, hexes: &[bataille::engine::hex::HexCoord]| {
                let board = game.world.resource::<Board>();
                let units = game.world.resource::<Units>();
                hexes
                    .iter()
                    .flat_map(|h| units.at(board, *h).to_vec())
                    .filter(|u| game.world.get::<Leader>(units.entity(*u)).is_none())
                    .collect::<Vec<UnitId>>()
            };
            let (att, def) = match &cmd {
                Command::Attack {
                    melee,
                    fire,
                    target,
                } => {
                    let mut a = combatants(&game, melee);
                    a.extend(combatants(&game, fire));
                    (a, combatants(&game, &[*target]))
                }
                _ => (Vec::new(), Vec::new()),
            };
            match game.submit(&cmd) {
                Err(refusal) => {
                    let after = (
                        game.state_json(),
                        game.log().events.len(),
                        game.world.resource::<Dice>().position(),
                        game.commands().len(),
                    );
                    if after != before {
                        fail(format!("refused ({refusal}) but the game changed"), &cmd);
                    }
                    if legal && game.outcome().is_none() {
                        fail(
                            format!("the ruleset's own random command was refused: {refusal}"),
                            &cmd,
                        );
                    }
                }
                Ok(()) => {
                    if before_turn.outcome.is_some() {
                        fail("accepted after the game ended".into(), &cmd);
                    }
                    let t = game.turn();
                    let moved_on = (t.turn, t.phase, t.active)
                        != (before_turn.turn, before_turn.phase, before_turn.active);
                    if t.turn < before_turn.turn {
                        fail(
                            format!("turn went back from {} to {}", before_turn.turn, t.turn),
                            &cmd,
                        );
                    }
                    // `towards` ends the movement phase its `end` began, once the last
                    // spontaneous advance has its target (CdB 9.5).
                    // `assign` ends the action-point step once the regular generals'
                    // dice are given (CdB 4.1).
                    let ends_phase = cmd == Command::EndPhase
                        || answers_decision
                        || matches!(
                            CdbCommand::of(&cmd),
                            Some(CdbCommand::Towards { .. } | CdbCommand::Assign { .. })
                        );
                    if moved_on && !ends_phase && t.phase.kind != PhaseKind::Over {
                        fail(
                            format!(
                                "the phase changed on a command that is not `end`: {:?} → {:?}",
                                before_turn.phase, t.phase
                            ),
                            &cmd,
                        );
                    }
                    if moved_on {
                        attacked_with.clear();
                        attacked.clear();
                    }
                    if ruleset.attacks_once_per_phase() && matches!(cmd, Command::Attack { .. }) {
                        for u in att {
                            if !attacked_with.insert(u) {
                                fail(format!("unit {} attacked twice this phase", u.0), &cmd);
                            }
                        }
                        for u in def {
                            if !attacked.insert(u) {
                                fail(format!("unit {} was attacked twice this phase", u.0), &cmd);
                            }
                        }
                    }
                }
            }
            let v = violations(&game);
            if !v.is_empty() {
                let waiting = ruleset.pending_decision(&game.world).unwrap_or_default();
                fail(format!("{} (waiting for: {waiting})", v.join("; ")), &cmd);
            }
            if game.is_over() && rng.random_bool(0.5) {
                break;
            }
        }
        // The accepted commands replay to the identical log.
        let mut replay = Game::start(scenario, seed, &[]).unwrap();
        for c in game.commands().to_vec() {
            replay
                .submit(&c)
                .unwrap_or_else(|r| panic!("{name} seed {seed}: replay refused `{c}`: {r}"));
        }
        let log = |g: &Game| g.log().lines().collect::<Vec<String>>();
        assert_eq!(
            log(&replay),
            log(&game),
            "{name} seed {seed}: the replay differs"
        );
        submitted
    }

    /// `cases` random games per ruleset, spread over its scenarios.
    pub fn run(cases: u64, length: usize) -> (u64, usize) {
        run_share(cases, length, 0, 1)
    }

    /// The games of `run` whose case number leaves `share` when divided by `shares`:
    /// the same games in parts that the test threads play side by side.
    pub fn run_share(cases: u64, length: usize, share: u64, shares: u64) -> (u64, usize) {
        let all = scenarios();
        let mut games = 0;
        let mut commands = 0;
        for id in REGISTRY.iter().map(|r| r.id) {
            let mine: Vec<&PathBuf> = all
                .iter()
                .filter(|p| p.parent().is_some_and(|d| d.ends_with(id)))
                .collect();
            for case in (0..cases).filter(|case| case % shares == share) {
                let scenario = mine[(case % mine.len() as u64) as usize];
                commands += play(scenario, 1000 + case, length);
                games += 1;
            }
        }
        (games, commands)
    }
}

/// A few hundred random sequences per ruleset on every CI run (`BATAILLE_TRUST_CASES`
/// to run more), in four parts of every fourth case each, so that the test threads
/// play them side by side: as one test it was 369 s of the whole suite's 493 s
/// (`cargo nextest`, two cores, 2026-12-03), the last test running alone.
fn random_sequences_share(share: u64) {
    const SHARES: u64 = 4;
    let cases = std::env::var("BATAILLE_TRUST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let (games, commands) = random_games::run_share(cases, 400, share, SHARES);
    assert!(games >= cases / SHARES);
    eprintln!("{games} random games, {commands} commands: every property held");
}

#[test]
fn random_sequences_on_every_scenario_keep_the_invariants_and_replay_identically_part_1() {
    random_sequences_share(0);
}

#[test]
fn random_sequences_on_every_scenario_keep_the_invariants_and_replay_identically_part_2() {
    random_sequences_share(1);
}

#[test]
fn random_sequences_on_every_scenario_keep_the_invariants_and_replay_identically_part_3() {
    random_sequences_share(2);
}

#[test]
fn random_sequences_on_every_scenario_keep_the_invariants_and_replay_identically_part_4() {
    random_sequences_share(3);
}

/// The long run: 10,000 random sequences per ruleset (`cargo test -- --ignored`).
#[test]
#[ignore = "long: 10,000 sequences per ruleset; run with `cargo test --release -- --ignored`"]
fn random_sequences_long_run_10000_per_ruleset() {
    let (games, commands) = random_games::run(10_000, 400);
    eprintln!("{games} random games, {commands} commands: every property held");
}

/// The trust harness with the computer (issue 20) on one side: on the smallest scenario
/// of each ruleset, the computer (easy) plays one side and random play the other for up
/// to 120 commands; every command keeps the ruleset's invariants, and the save replays
/// to the identical game.
#[test]
fn games_with_the_computer_on_one_side_keep_the_invariants_and_replay_identically() {
    use bataille::ai::{Level, choose, decision_seed, submit_choice};
    use rand::SeedableRng;
    for (i, path) in [
        "a_la_charge/kalavryai_1078.ron",
        "champs_de_bataille/soissons_486.ron",
        "morne_plaine/quatre_bras_1815.ron",
        "charles_the_bold/falkirk_1298.ron",
        "charge_and_melee/maldon_991.ron",
    ]
    .iter()
    .enumerate()
    {
        let path = root().join("scenarios").join(path);
        let mut game = Game::start(&path, 7, &[]).unwrap();
        let computer = bataille::engine::units::SideId((i % 2) as u8);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..120 {
            if game.is_over() {
                break;
            }
            let side = game.side_to_act();
            let command = if side == computer {
                let seed = decision_seed(3, side, &game);
                let thought = choose(&game, side, Level::Easy.budget(), seed, None).unwrap();
                submit_choice(&mut game, &thought).unwrap()
            } else {
                let c = game.ruleset.random_command(&mut game.world, &mut rng);
                game.submit(&c).unwrap();
                c
            };
            let broken = game.ruleset.invariant_violations(&game.world);
            assert!(
                broken.is_empty(),
                "{}: `{command}`: {broken:?}",
                path.display()
            );
        }
        let dir = scratch("trust_ai");
        let save = write(&dir, "game.ron", &game.save_text());
        let again = Game::load_save(&save).unwrap();
        assert_eq!(again.state_json(), game.state_json(), "{}", path.display());
        assert_eq!(again.log().events.len(), game.log().events.len());
    }
}

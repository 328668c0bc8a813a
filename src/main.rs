//! The `bataille` command line: check a scenario, play a script (play-by-email
//! adjudication), autoplay random games. Exit status 1 on any invalid input.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use bataille::autoplay::autoplay;
use bataille::engine::game::Game;
use bataille::engine::scenario::read_text;
use bataille::rulesets::load_scenario;

/// mimalloc instead of the system's malloc: the rules make and drop many small lists,
/// and it serves them faster; no result depends on it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "bataille",
    version,
    about = "A rules-enforcing hex wargame for two players at one screen"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// With no subcommand: open the window on this scenario (the menu when absent).
    scenario: Option<PathBuf>,
    /// Resume a saved game in the window.
    #[arg(long)]
    load: Option<PathBuf>,
    /// The dice seed of a new game (from the clock when absent).
    #[arg(long)]
    seed: Option<u64>,
    /// Save a screenshot taken inside Bevy after `--frames` frames, then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    #[arg(long, default_value_t = 5)]
    frames: u32,
    /// Play these inputs into the window, one per frame (`click 0905`, `hover 0605`,
    /// `end`, `handover`...): demonstrations, screenshots, smoke tests.
    #[arg(long)]
    input: Option<PathBuf>,
    /// Run N frames, print frame-time statistics and the time to the first
    /// interactive frame, then exit.
    #[arg(long)]
    bench_frames: Option<u32>,
    /// Switch on an optional rule for a new game in the window (e.g.
    /// scenario_deployment); repeatable.
    #[arg(long = "option")]
    options: Vec<String>,
    /// The window's size, e.g. 1920x1080 (else the size it had when last closed;
    /// 1280x800 with --screenshot or --bench-frames).
    #[arg(long, value_parser = parse_window_size)]
    window_size: Option<(u32, u32)>,
    /// The panels' scale, 0.5 to 3 (else the saved setting; 1 with --screenshot).
    #[arg(long)]
    ui_scale: Option<f32>,
    /// Who plays a side of the game opened: `SIDE=LEVEL`, SIDE a side's id in the
    /// scenario, LEVEL human, easy, normal or hard (the computer); repeatable. Sides
    /// not named are played by people.
    #[arg(long = "side")]
    sides: Vec<String>,
}

/// `1920x1080` as a window size.
fn parse_window_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("a window size is WIDTHxHEIGHT, e.g. 1920x1080, not `{text}`"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (240..=8192).contains(n))
            .ok_or_else(|| format!("`{t}` in `{text}` is not a size from 240 to 8192 pixels"))
    };
    Ok((number(w)?, number(h)?))
}

#[derive(Subcommand)]
enum Cmd {
    /// Validate a scenario and print its sides, units and turns.
    Check { scenario: PathBuf },
    /// Apply a script of commands to a scenario and print the event log.
    Play {
        scenario: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The script: one command per line, `#` comments; `-` reads standard input,
        /// line by line as it comes.
        #[arg(long)]
        script: Option<PathBuf>,
        /// Write the game here at every phase end (atomically): the autosave a crash
        /// resumes from with `--load`.
        #[arg(long)]
        autosave: Option<PathBuf>,
        /// Resume from a save instead of starting the scenario afresh.
        #[arg(long)]
        load: Option<PathBuf>,
        /// Write the game (scenario, hash, seed, commands) here.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Print the final state of every unit as JSON.
        #[arg(long)]
        state: bool,
        /// Switch on an optional rule (e.g. hills_block_fire); repeatable.
        #[arg(long = "option")]
        options: Vec<String>,
    },
    /// Replay a save to any point: print the log (and `--state`) as the game stood
    /// after `--to N` of its commands, or at the start of `--turn T` (`--phase P`);
    /// `--marks` lists where each turn and phase begins; `--branch OUT` writes a
    /// what-if branch from that point (continue it with `play --load OUT`).
    Replay {
        save: PathBuf,
        /// The point: after this many commands (the whole game when absent).
        #[arg(long, conflicts_with = "turn")]
        to: Option<usize>,
        /// The point: where this turn begins (its first phase, or `--phase`).
        #[arg(long)]
        turn: Option<u32>,
        #[arg(long, requires = "turn")]
        phase: Option<String>,
        /// List where each turn and phase begins, then stop.
        #[arg(long)]
        marks: bool,
        /// Print the state of every unit at that point as JSON.
        #[arg(long)]
        state: bool,
        /// Write a what-if branch from that point here: the save of the game so far,
        /// recording where it left the original (which is not touched).
        #[arg(long)]
        branch: Option<PathBuf>,
        /// Print the threat map at that point: each hex the side to act could be
        /// attacked on in the enemy's next phase, by which units, with what odds.
        #[arg(long)]
        threats: bool,
        /// Print what the computer at this level (easy, normal, hard) would choose for
        /// the side to act at that point: every command it weighed, its playouts and
        /// mean score, best first (the seed a game of this save would give it).
        #[arg(long)]
        think: Option<String>,
    },
    /// The line of sight (of fire) between two hexes under the scenario's ruleset: each
    /// hex it crosses and what blocks there; with `--load`, in that saved game.
    Sight {
        scenario: PathBuf,
        from: String,
        to: String,
        /// A save of a game of this scenario: its stands block as they stand there.
        #[arg(long)]
        load: Option<PathBuf>,
        #[arg(long = "option")]
        options: Vec<String>,
    },
    /// The ruleset's player aids for a scenario: its sequence of play, the step the
    /// opening position is at marked `>`, and every table it plays by, with its rule.
    Aids {
        scenario: PathBuf,
        #[arg(long = "option")]
        options: Vec<String>,
    },
    /// Play games between computer players (or random play) and print each side's
    /// wins and the computer's time per decision. Sides not named play at random.
    Duel {
        scenario: PathBuf,
        /// Who plays a side: `SIDE=LEVEL`, SIDE a side's id in the scenario, LEVEL
        /// easy, normal, hard or random; repeatable.
        #[arg(long = "side")]
        sides: Vec<String>,
        /// A level's budget for this duel instead of its own, to measure a change:
        /// `LEVEL=CANDIDATES,PLAYOUTS,HORIZON`; repeatable.
        #[arg(long = "budget")]
        budgets: Vec<String>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 10)]
        games: usize,
        #[arg(long = "option")]
        options: Vec<String>,
        /// Write each game's save into this folder (`SCENARIO-seed-N.ron`), to replay
        /// and read it (`bataille replay`).
        #[arg(long)]
        saves: Option<PathBuf>,
        /// Play the same seeds again with the two sides' players exchanged, and print
        /// each player's wins over both seatings (hard against normal on both sides
        /// of a scenario).
        #[arg(long)]
        swap: bool,
    },
    /// Play complete games of random legal commands and report throughput.
    Autoplay {
        scenario: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Save the last game played here (a save replays it; see `play --load`).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Switch on an optional rule in every game (e.g. scenario_deployment); repeatable.
        #[arg(long = "option")]
        options: Vec<String>,
    },
}

/// An error naming the first option the ruleset does not know.
fn check_options(
    ruleset: &dyn bataille::engine::ruleset::Ruleset,
    options: &[String],
) -> Result<(), String> {
    match options
        .iter()
        .find(|o| !ruleset.options().contains(&o.as_str()))
    {
        Some(bad) => Err(format!(
            "unknown option `{bad}` ({} knows: {})",
            ruleset.name(),
            ruleset.options().join(", ")
        )),
        None => Ok(()),
    }
}

/// Prints a line to standard output; a closed pipe (`| head`) is not an error.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// Prints how the games ended; an error listing the games that failed, if any did.
fn endings_and_failures(
    endings: &std::collections::BTreeMap<String, usize>,
    failures: &[String],
) -> Result<(), String> {
    print_endings(endings);
    failed(failures)
}

/// Each ending ("normans major") with its count.
fn print_endings(endings: &std::collections::BTreeMap<String, usize>) {
    for (ending, n) in endings {
        out!("  {ending}: {n}");
    }
}

/// An error listing the games that failed, if any did.
fn failed(failures: &[String]) -> Result<(), String> {
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} game(s) failed:\n{}",
            failures.len(),
            failures.join("\n")
        ))
    }
}

/// "40%; 95% between 26% and 55%": a win rate with its Wilson interval, for the duel.
fn rate_text(wins: usize, games: usize) -> String {
    let interval = bataille::ai::duel::win_interval(wins, games)
        .map(|(low, high)| format!("; 95% between {:.0}% and {:.0}%", 100.0 * low, 100.0 * high))
        .unwrap_or_default();
    format!(
        "{:.0}%{interval}",
        100.0 * wins as f64 / games.max(1) as f64
    )
}

/// One duel's figures: each side's wins with their share and interval and the
/// computer's time per decision and per phase, the draws, how the games ended.
fn print_duel_report(
    s: &bataille::engine::scenario::LoadedScenario,
    players: &[bataille::ai::Player],
    report: &bataille::ai::duel::DuelReport,
    seed: u64,
    games: usize,
) {
    out!(
        "{} games, seeds {seed}..{}",
        report.games,
        seed + games as u64
    );
    for (i, side) in s.file.sides.iter().enumerate() {
        let wins = report.wins[i];
        let mut time = match report.decision_time(i) {
            Some((median, p90)) => format!(
                ", {} decisions: median {:.1} ms, p90 {:.1} ms a decision",
                report.decision_seconds[i].len(),
                median * 1000.0,
                p90 * 1000.0
            ),
            None => String::new(),
        };
        if let Some((median, p90)) = report.phase_time(i) {
            time += &format!(
                "; {} phases: median {:.0} ms, p90 {:.0} ms a phase",
                report.phase_seconds[i].len(),
                median * 1000.0,
                p90 * 1000.0
            );
        }
        out!(
            "  {} ({}): won {wins} ({}){time}",
            side.id,
            players[i],
            rate_text(wins, report.games)
        );
    }
    out!("  draws: {}", report.draws);
    print_endings(&report.endings);
}

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    let cli = Cli::parse();
    let cli = match cli.command {
        Some(_) => cli,
        None => {
            return match window(cli, started) {
                Ok(()) => ExitCode::SUCCESS,
                Err(msg) => {
                    eprintln!("{msg}");
                    ExitCode::from(1)
                }
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(1)
        }
    }
}

/// Runs script lines, writing the autosave after every accepted phase end.
fn run_with_autosave<'a>(
    game: &mut Game,
    lines: impl Iterator<Item = &'a str>,
    to: &std::path::Path,
) -> Result<(), bataille::engine::game::ScriptFailure> {
    for (i, line) in lines.enumerate() {
        let ended = game.submit_line(line).map_err(|(column, message)| {
            bataille::engine::game::ScriptFailure {
                line: i + 1,
                column,
                text: line.to_string(),
                message,
            }
        })?;
        if ended
            && game.commands().last() == Some(&bataille::engine::command::Command::EndPhase)
            && let Err(e) = bataille::client::session::write_atomically(to, &game.save_text())
        {
            eprintln!("{}: autosave failed: {e}", to.display());
        }
    }
    Ok(())
}

/// `--script -`: commands from standard input as they arrive.
fn play_stdin(game: &mut Game, autosave: Option<&std::path::Path>) -> Option<String> {
    use std::io::BufRead;
    let stdin = std::io::stdin();
    let mut failure = None;
    for (i, line) in stdin.lock().lines().enumerate() {
        let Ok(line) = line else {
            failure = Some(format!("<stdin>:{}: not UTF-8 text", i + 1));
            break;
        };
        let result = match autosave {
            Some(to) => run_with_autosave(game, std::iter::once(line.as_str()), to),
            None => game.run_script(&line),
        };
        if let Err(f) = result {
            failure = Some(format!(
                "<stdin>:{}:{}: refused: {}\n  {}",
                i + 1,
                f.column,
                f.message,
                f.text
            ));
            break;
        }
    }
    failure
}

/// No subcommand: the window, on the menu, a scenario or a save.
#[cfg(feature = "gui")]
fn window(cli: Cli, started: std::time::Instant) -> Result<(), String> {
    bataille::client::run(bataille::client::ClientOptions {
        scenario: cli.scenario,
        load: cli.load,
        seed: cli.seed,
        screenshot: cli.screenshot,
        frames: cli.frames,
        bench_frames: cli.bench_frames,
        input: cli.input,
        started: Some(started),
        options: cli.options,
        window_size: cli.window_size,
        ui_scale: cli.ui_scale,
        sides: cli.sides,
    })
}

#[cfg(not(feature = "gui"))]
fn window(_cli: Cli, _started: std::time::Instant) -> Result<(), String> {
    Err(
        "this build has no window (built without the `gui` feature): use a subcommand, see --help"
            .into(),
    )
}

fn run(cli: Cli) -> Result<(), String> {
    let Some(command) = cli.command else {
        return Err("no subcommand".into());
    };
    match command {
        Cmd::Check { scenario } => {
            let (s, ruleset) = load_scenario(&scenario).map_err(|e| e.to_string())?;
            let f = &s.file;
            out!("{} ({}) — {}", f.name, f.date, ruleset.name());
            out!("turns: {}", f.turns);
            out!("map: {} columns x {} rows", f.map.columns, f.map.rows);
            for (terrain, hexes) in &f.map.terrain {
                let labels: Vec<String> = hexes.iter().map(|h| h.label()).collect();
                out!(
                    "terrain {terrain}: {} hexes: {}",
                    hexes.len(),
                    labels.join(" ")
                );
            }
            for (level, hexes) in &f.map.elevation {
                out!("elevation {level}: {} hexes", hexes.len());
            }
            if !f.map.hexsides.is_empty() {
                out!("hexsides with features: {}", f.map.hexsides.len());
            }
            for (i, side) in f.sides.iter().enumerate() {
                let units: Vec<_> = f.units.iter().filter(|u| u.side == side.id).collect();
                let first = if side.id == f.first {
                    ", moves first"
                } else {
                    ""
                };
                let own = ruleset.side_summary(&s, i);
                out!(
                    "side {} \"{}\": {} units{}{}{}",
                    side.id,
                    side.name,
                    units.len(),
                    if own.is_empty() { "" } else { ", " },
                    own,
                    first
                );
                for u in units {
                    let at = u.hex.map(|h| h.label()).unwrap_or_else(|| "off map".into());
                    out!("  {:<24} {:<32} {:<26} {}", u.id, u.name, u.unit_type, at);
                }
            }
            for r in &f.reinforcements {
                out!(
                    "reinforcement {} from turn {} by {} entry hexes",
                    r.unit,
                    r.turn,
                    r.entry.len()
                );
            }
            out!("special rules: {}", f.special_rules.len());
            out!("scenario hash: {}", s.hash);
            Ok(())
        }
        Cmd::Play {
            scenario,
            seed,
            script,
            load,
            save,
            state,
            options,
            autosave,
        } => {
            let mut game = match &load {
                Some(path) => Game::load_save(path).map_err(|e| e.to_string())?,
                None => Game::start(&scenario, seed, &options).map_err(|e| e.to_string())?,
            };
            let mut failure = None;
            if script.as_deref() == Some(std::path::Path::new("-")) {
                failure = play_stdin(&mut game, autosave.as_deref());
            } else if let Some(path) = &script {
                let text = read_text(path).map_err(|e| e.to_string())?;
                let result = match &autosave {
                    Some(to) => run_with_autosave(&mut game, text.lines(), to),
                    None => game.run_script(&text),
                };
                if let Err(f) = result {
                    failure = Some(format!(
                        "{}:{}:{}: refused: {}\n  {}",
                        path.display(),
                        f.line,
                        f.column,
                        f.message,
                        f.text
                    ));
                }
            }
            for line in game.log().lines() {
                out!("{line}");
            }
            if let Some(p) = game.ruleset.pending_decision(&game.world) {
                out!("Waiting for: {p}");
            }
            if let Some(path) = &save {
                std::fs::write(path, game.save_text())
                    .map_err(|e| format!("{}: cannot write the save: {e}", path.display()))?;
            }
            if state {
                out!(
                    "{}",
                    serde_json::to_string_pretty(&game.state_json()).unwrap_or_default()
                );
            }
            match failure {
                Some(f) => Err(f),
                None => Ok(()),
            }
        }
        Cmd::Replay {
            save,
            to,
            turn,
            phase,
            marks,
            state,
            branch,
            threats,
            think,
        } => replay(
            &save,
            (to, turn, phase.as_deref()),
            marks,
            state,
            branch.as_deref(),
            (threats, think.as_deref()),
        ),
        Cmd::Sight {
            scenario,
            from,
            to,
            load,
            options,
        } => sight(&scenario, &from, &to, load.as_deref(), &options),
        Cmd::Aids { scenario, options } => {
            let game = Game::start(&scenario, 1, &options).map_err(|e| e.to_string())?;
            out!("{}", game.aids_text());
            Ok(())
        }
        Cmd::Duel {
            scenario,
            sides,
            budgets,
            seed,
            games,
            options,
            saves,
            swap,
        } => {
            let (s, ruleset) = load_scenario(&scenario).map_err(|e| e.to_string())?;
            check_options(&*ruleset, &options)?;
            if let Some(dir) = &saves {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("--saves {}: {e}", dir.display()))?;
            }
            let players =
                bataille::ai::players_from_args(&s, &sides, bataille::ai::Player::Random)?;
            if let Some(i) = players
                .iter()
                .position(|p| *p == bataille::ai::Player::Human)
            {
                return Err(format!(
                    "--side {}=human: a duel has nobody at the screen; choose random, easy, normal or hard",
                    s.file.sides[i].id
                ));
            }
            if swap && players.len() != 2 {
                return Err(format!(
                    "--swap exchanges two sides' players, and {} has {} sides",
                    scenario.display(),
                    players.len()
                ));
            }
            let mut levels = bataille::ai::Budgets::default();
            for arg in &budgets {
                levels.set_from_arg(arg)?;
            }
            let mut seatings = vec![players.clone()];
            if swap {
                seatings.push(players.iter().rev().copied().collect());
            }
            let stem = scenario
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "game".into());
            let mut reports = Vec::new();
            let mut failures = Vec::new();
            for (n, seating) in seatings.iter().enumerate() {
                let report = bataille::ai::duel::duel(
                    s.clone(),
                    ruleset.clone(),
                    &bataille::ai::duel::DuelPlan {
                        players: seating,
                        budgets: levels,
                        seed,
                        games,
                        options: &options,
                        keep_saves: saves.is_some(),
                    },
                );
                if let Some(dir) = &saves {
                    let seated = if n > 0 { "-swapped" } else { "" };
                    for (game_seed, text) in &report.saves {
                        let path = dir.join(format!("{stem}-seed-{game_seed}{seated}.ron"));
                        std::fs::write(&path, text)
                            .map_err(|e| format!("--saves: {}: {e}", path.display()))?;
                    }
                }
                if swap {
                    out!("Seating {}:", n + 1);
                }
                print_duel_report(&s, seating, &report, seed, games);
                failures.extend(report.failures.iter().cloned());
                reports.push(report);
            }
            if swap {
                out!("Over both seatings:");
                let seated: Vec<(&[bataille::ai::Player], &bataille::ai::duel::DuelReport)> =
                    seatings
                        .iter()
                        .map(Vec::as_slice)
                        .zip(reports.iter())
                        .collect();
                for (player, wins, played) in bataille::ai::duel::wins_by_player(&seated) {
                    out!(
                        "  {player}: won {wins} of {played} ({})",
                        rate_text(wins, played)
                    );
                }
            }
            failed(&failures)
        }
        Cmd::Autoplay {
            scenario,
            seed,
            games,
            save,
            options,
        } => {
            let (s, ruleset) = load_scenario(&scenario).map_err(|e| e.to_string())?;
            check_options(&*ruleset, &options)?;
            let report = autoplay(s.clone(), ruleset.clone(), seed, games, false, &options);
            if let Some(path) = &save
                && games > 0
            {
                let last = seed.wrapping_add(games as u64 - 1);
                let text = bataille::autoplay::replay_game(s, ruleset, last, &options)?;
                std::fs::write(path, text)
                    .map_err(|e| format!("{}: cannot write the save: {e}", path.display()))?;
            }
            out!(
                "{} games, {} commands in {:.3} s: {:.1} games/s, {:.0} commands/s",
                report.games,
                report.commands,
                report.seconds,
                report.games_per_second(),
                report.commands as f64 / report.seconds.max(1e-9)
            );
            endings_and_failures(&report.endings, &report.failures)
        }
    }
}

/// `bataille replay`: a save at the point asked (see `Cmd::Replay`).
fn replay(
    save: &std::path::Path,
    (to, turn, phase): (Option<usize>, Option<u32>, Option<&str>),
    marks: bool,
    state: bool,
    branch: Option<&std::path::Path>,
    (threats, think): (bool, Option<&str>),
) -> Result<(), String> {
    let level: Option<bataille::ai::Level> = think
        .map(|l| l.parse().map_err(|e| format!("--think: {e}")))
        .transpose()?;
    let r = bataille::engine::replay::Replay::open(bataille::rulesets::REGISTRY, save)
        .map_err(|e| e.to_string())?;
    if marks {
        for m in r.marks() {
            out!(
                "after {:>4} commands: turn {}, {} ({})",
                m.after,
                m.turn,
                m.phase,
                m.side
            );
        }
        return Ok(());
    }
    let n = match (to, turn) {
        (Some(n), _) => n,
        (None, Some(t)) => r.point_of(t, phase).ok_or_else(|| {
            format!(
                "{}: the game never reached turn {t}{}",
                save.display(),
                phase.map(|p| format!(", {p}")).unwrap_or_default()
            )
        })?,
        (None, None) => r.len(),
    };
    let game = match branch {
        Some(_) => r.branch(n),
        None => r.at(n),
    }
    .map_err(|e| e.to_string())?;
    for line in game.log().lines() {
        out!("{line}");
    }
    let t = game.turn();
    out!(
        "Point {n} of {}: turn {}, {}{}",
        r.len(),
        t.turn,
        t.phase.label,
        r.command(n + 1)
            .map(|c| format!("; next: {c}"))
            .unwrap_or_default()
    );
    if let Some(p) = game.ruleset.pending_decision(&game.world) {
        out!("Waiting for: {p}");
    }
    if let Some(path) = branch {
        std::fs::write(path, game.save_text())
            .map_err(|e| format!("{}: cannot write the branch: {e}", path.display()))?;
    }
    if state {
        out!(
            "{}",
            serde_json::to_string_pretty(&game.state_json()).unwrap_or_default()
        );
    }
    if threats {
        let map = game.threat_map();
        out!(
            "Threat map for {}: {} hexes the enemy could attack in its next phase",
            game.side_name(map.side),
            map.hexes.len()
        );
        for line in map.lines(&game.world) {
            out!("  {line}");
        }
    }
    if let Some(level) = level {
        let side = game.side_to_act();
        let seed = bataille::ai::decision_seed(bataille::ai::ai_seed_of(game.seed), side, &game);
        let thought = bataille::ai::choose(&game, side, level.budget(), seed, None)
            .map_err(|e| format!("--think: {e}"))?;
        out!(
            "The computer at {level} for {}: {}",
            game.side_name(side),
            thought.summary()
        );
        for c in &thought.candidates {
            out!(
                "  {:>4} playouts, mean {:.3}: {}",
                c.playouts,
                c.mean,
                c.command
            );
        }
    }
    Ok(())
}

/// `bataille sight`: the ruleset's line of sight between two hexes (see `Cmd::Sight`).
fn sight(
    scenario: &std::path::Path,
    from: &str,
    to: &str,
    load: Option<&std::path::Path>,
    options: &[String],
) -> Result<(), String> {
    use bataille::engine::hex::HexCoord;
    let hex = |label: &str| {
        HexCoord::parse(label)
            .ok_or_else(|| format!("`{label}` is not a hex label (four digits CCRR, e.g. 0504)"))
    };
    let (a, b) = (hex(from)?, hex(to)?);
    let game = match load {
        Some(save) => Game::load_save(save),
        None => Game::start(scenario, 1, options),
    }
    .map_err(|e| e.to_string())?;
    let board = game.world.resource::<bataille::engine::board::Board>();
    if let Some(off) = [a, b].into_iter().find(|h| !board.contains(*h)) {
        return Err(format!("{}: {off} is off the map", scenario.display()));
    }
    let Some(line) = game.ruleset.sight(&game.world, a, b) else {
        return Err(format!("{} has no line of sight", game.ruleset.name()));
    };
    out!("Line of sight {a} → {b} ({}):", game.ruleset.name());
    for step in &line.steps {
        out!("  {step}");
    }
    out!("{}", if line.clear { "clear" } else { "blocked" });
    Ok(())
}

//! Games between players that are not people (`bataille duel`): the computer at its
//! levels, or random legal play, on each side; win rates and the time each computer
//! took per decision.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Budgets, Player, choose, decision_seed};
use crate::autoplay::MAX_COMMANDS_PER_GAME;
use crate::engine::game::{Game, build_ruleset_board};
use crate::engine::ruleset::Ruleset;
use crate::engine::scenario::LoadedScenario;
use crate::engine::units::SideId;

/// The results of a duel.
#[derive(Debug, Default, Clone)]
pub struct DuelReport {
    pub games: usize,
    /// Games each side won, by side index.
    pub wins: Vec<usize>,
    pub draws: usize,
    /// Outcome summaries ("normans tactical") → count.
    pub endings: BTreeMap<String, usize>,
    /// Seconds of each computer decision, by side index.
    pub decision_seconds: Vec<Vec<f64>>,
    /// Seconds the computer spent on each whole phase it played to its `end`, by side
    /// index.
    pub phase_seconds: Vec<Vec<f64>>,
    /// Games that stopped on a refused command or without an end: each one is a bug.
    pub failures: Vec<String>,
    /// Each game's seed and save text, when the duel was asked to keep them
    /// (`bataille duel --saves DIR`), so that a game can be replayed and read.
    pub saves: Vec<(u64, String)>,
}

impl DuelReport {
    /// The median and 90th percentile of a side's decision times, in seconds.
    pub fn decision_time(&self, side: usize) -> Option<(f64, f64)> {
        median_p90(self.decision_seconds.get(side)?)
    }

    /// The median and 90th percentile of the time a side's computer took for a whole
    /// phase, in seconds.
    pub fn phase_time(&self, side: usize) -> Option<(f64, f64)> {
        median_p90(self.phase_seconds.get(side)?)
    }
}

/// The 95% Wilson score interval of a rate of `wins` in `games`, as fractions: where
/// the true rate most likely lies, for a reader to tell a sample that misses a goal
/// from one too small to say (16 of 40 lies within 26% and 55%, so it misses 80%;
/// 8 of 10 within 49% and 94%, so it cannot tell). `None` for no games.
pub fn win_interval(wins: usize, games: usize) -> Option<(f64, f64)> {
    if games == 0 {
        return None;
    }
    const Z: f64 = 1.959_964;
    let n = games as f64;
    let p = wins.min(games) as f64 / n;
    let centre = p + Z * Z / (2.0 * n);
    let spread = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt();
    let scale = 1.0 + Z * Z / n;
    Some((
        ((centre - spread) / scale).max(0.0),
        ((centre + spread) / scale).min(1.0),
    ))
}

/// Each player's wins and games over duels played in several seatings (`bataille
/// duel --swap`: the same seeds again with the sides exchanged), in the order each
/// first sits: what "hard beats normal" means when one side of a scenario is the
/// stronger, counted over both of its sides. A draw is a game not won; a player on
/// both sides of a duel plays each of its games twice.
pub fn wins_by_player(seatings: &[(&[Player], &DuelReport)]) -> Vec<(Player, usize, usize)> {
    let mut totals: Vec<(Player, usize, usize)> = Vec::new();
    for (players, report) in seatings {
        for (side, player) in players.iter().enumerate() {
            let wins = report.wins.get(side).copied().unwrap_or(0);
            match totals.iter_mut().find(|t| t.0 == *player) {
                Some(t) => {
                    t.1 += wins;
                    t.2 += report.games;
                }
                None => totals.push((*player, wins, report.games)),
            }
        }
    }
    totals
}

/// The median and 90th percentile of some times; `None` for none.
fn median_p90(times: &[f64]) -> Option<(f64, f64)> {
    let mut times = times.to_vec();
    if times.is_empty() {
        return None;
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    Some((at(0.5), at(0.9)))
}

/// What a duel plays: `games` games from seeds `seed`, `seed + 1`, ..., each side
/// played by `players[side]` (a `Human` is played at random: nobody is at the
/// screen), each level of the computer spending its budget in `budgets`, with the
/// scenario's optional rules `options`; `keep_saves` keeps each game's save in the
/// report.
#[derive(Clone, Debug)]
pub struct DuelPlan<'a> {
    pub players: &'a [Player],
    pub budgets: Budgets,
    pub seed: u64,
    pub games: usize,
    pub options: &'a [String],
    pub keep_saves: bool,
}

/// Plays the games of `plan`.
pub fn duel(
    scenario: Arc<LoadedScenario>,
    ruleset: Arc<dyn Ruleset>,
    plan: &DuelPlan,
) -> DuelReport {
    let DuelPlan {
        players,
        budgets,
        seed,
        games,
        options,
        keep_saves,
    } = *plan;
    let sides = scenario.file.sides.len();
    let board = build_ruleset_board(&*ruleset, &scenario);
    let mut report = DuelReport {
        wins: vec![0; sides],
        decision_seconds: vec![Vec::new(); sides],
        phase_seconds: vec![Vec::new(); sides],
        ..DuelReport::default()
    };
    for i in 0..games as u64 {
        let game_seed = seed.wrapping_add(i);
        let mut game = Game::new(
            scenario.clone(),
            ruleset.clone(),
            board.clone(),
            game_seed,
            options,
        );
        match play_duel_game(&mut game, players, budgets, &mut report) {
            Ok(()) => {
                match game.outcome().map(|o| o.winner) {
                    Some(Some(w)) => report.wins[w.0 as usize] += 1,
                    Some(None) => report.draws += 1,
                    None => {}
                }
                let key = crate::autoplay::ending_key(&scenario, game.outcome());
                *report.endings.entry(key).or_default() += 1;
            }
            Err(e) => report.failures.push(format!("seed {game_seed}: {e}")),
        }
        if keep_saves {
            report.saves.push((game_seed, game.save_text()));
        }
        report.games += 1;
    }
    report
}

/// Plays one game of a duel to its end.
fn play_duel_game(
    game: &mut Game,
    players: &[Player],
    budgets: Budgets,
    report: &mut DuelReport,
) -> Result<(), String> {
    let ruleset = game.ruleset.clone();
    let mut random = crate::autoplay::random_play_rng(game.seed);
    let ai_seed = super::ai_seed_of(game.seed);
    let mut phase_so_far = vec![0.0; players.len()];
    for n in 0..MAX_COMMANDS_PER_GAME {
        if game.is_over() {
            return Ok(());
        }
        let side: SideId = game.side_to_act();
        match players.get(side.0 as usize).copied() {
            Some(Player::Computer(level)) => {
                let seed = decision_seed(ai_seed, side, game);
                let thought = choose(game, side, budgets.of(level), seed, None).map_err(|e| {
                    format!("command {}: the computer could not choose: {e}", n + 1)
                })?;
                let s = side.0 as usize;
                report.decision_seconds[s].push(thought.seconds);
                phase_so_far[s] += thought.seconds;
                let played = super::submit_choice(game, &thought)
                    .map_err(|e| format!("command {}: {e}", n + 1))?;
                if played == crate::engine::command::Command::EndPhase {
                    report.phase_seconds[s].push(std::mem::take(&mut phase_so_far[s]));
                }
            }
            _ => {
                let command = ruleset.random_command(&mut game.world, &mut random);
                game.submit(&command)
                    .map_err(|r| format!("command {} `{command}` refused: {r}", n + 1))?;
            }
        }
    }
    Err(format!("no end after {MAX_COMMANDS_PER_GAME} commands"))
}

//! Headless autoplay: complete games of random legal commands for both sides, for
//! throughput figures and as a search for rule bugs (a refused autoplay command is one).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::engine::board::Board;
use crate::engine::event::GameLog;
use crate::engine::game::{Game, Outcome};
use crate::engine::ruleset::Ruleset;
use crate::engine::scenario::LoadedScenario;

/// A bound on commands per game, far above any real game, so a rules bug that stalls a
/// game shows up as a failure instead of a hang.
pub const MAX_COMMANDS_PER_GAME: usize = 20_000;

#[derive(Debug, Default, Clone)]
pub struct AutoplayReport {
    pub games: usize,
    pub commands: usize,
    pub seconds: f64,
    /// Outcome reason → count ("winner level" summaries).
    pub endings: BTreeMap<String, usize>,
    /// Commands autoplay chose that the rules refused: each one is a bug.
    pub failures: Vec<String>,
}

impl AutoplayReport {
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }
}

/// The generator random play draws its commands from in the game of `game_seed`: its
/// own, so that the game's dice are not touched (autoplay, replays of autoplay games,
/// the random side of a duel).
pub fn random_play_rng(game_seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(game_seed ^ 0x5EED_A070)
}

/// Plays one game to its end; returns the number of commands, or the failure.
pub fn play_one(game: &mut Game, rng: &mut ChaCha8Rng) -> Result<usize, String> {
    let ruleset = game.ruleset.clone();
    for n in 0..MAX_COMMANDS_PER_GAME {
        if game.is_over() {
            return Ok(n);
        }
        let cmd = ruleset.random_command(&mut game.world, rng);
        if let Err(refusal) = game.submit(&cmd) {
            return Err(format!(
                "seed {}: command {} `{cmd}` refused: {refusal}",
                game.seed,
                n + 1
            ));
        }
    }
    Err(format!(
        "seed {}: no end after {MAX_COMMANDS_PER_GAME} commands",
        game.seed
    ))
}

/// How a game ended, as the reports count it: the winner's id and level ("papal
/// major"), "draw", or "unfinished".
pub fn ending_key(scenario: &LoadedScenario, outcome: Option<&Outcome>) -> String {
    match outcome {
        Some(o) => match (o.winner, o.level) {
            (Some(w), Some(l)) => {
                format!("{} {:?}", scenario.file.sides[w.0 as usize].id, l).to_lowercase()
            }
            (Some(w), None) => scenario.file.sides[w.0 as usize].id.to_lowercase(),
            (None, _) => "draw".into(),
        },
        None => "unfinished".into(),
    }
}

/// Plays `games` games from seeds `seed`, `seed + 1`, ...
pub fn autoplay(
    scenario: Arc<LoadedScenario>,
    ruleset: Arc<dyn Ruleset>,
    seed: u64,
    games: usize,
    keep_text: bool,
    options: &[String],
) -> AutoplayReport {
    let board: Board = crate::engine::game::build_ruleset_board(&*ruleset, &scenario);
    let mut report = AutoplayReport::default();
    let start = Instant::now();
    for i in 0..games as u64 {
        let game_seed = seed.wrapping_add(i);
        let mut game = Game::new(
            scenario.clone(),
            ruleset.clone(),
            board.clone(),
            game_seed,
            options,
        );
        game.world.resource_mut::<GameLog>().keep_text = keep_text;
        let mut rng = random_play_rng(game_seed);
        match play_one(&mut game, &mut rng) {
            Ok(n) => {
                report.commands += n;
                let key = ending_key(&scenario, game.outcome());
                *report.endings.entry(key).or_default() += 1;
            }
            Err(e) => report.failures.push(e),
        }
        report.games += 1;
    }
    report.seconds = start.elapsed().as_secs_f64();
    report
}

/// Plays the autoplay game of one seed again and returns its save text.
pub fn replay_game(
    scenario: Arc<LoadedScenario>,
    ruleset: Arc<dyn Ruleset>,
    game_seed: u64,
    options: &[String],
) -> Result<String, String> {
    let board: Board = crate::engine::game::build_ruleset_board(&*ruleset, &scenario);
    let mut game = Game::new(scenario, ruleset, board, game_seed, options);
    let mut rng = random_play_rng(game_seed);
    play_one(&mut game, &mut rng)?;
    Ok(game.save_text())
}

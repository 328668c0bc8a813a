//! One decision of the computer opponent. It draws candidate commands from the
//! ruleset's own generator of legal commands (the one autoplay plays with), and shares
//! its playouts among them by sequential halving: each playout starts from a world drawn for its
//! side (the game so far replayed, what it cannot see drawn again, its own dice),
//! makes the candidate, lets the engine play on at random for the budget's horizon,
//! and scores the end with `Ruleset::evaluate`. No rule is written here: every
//! command of a playout is checked and executed by the ruleset, like a player's.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Budget;
use crate::engine::board::Board;
use crate::engine::command::Command;
use crate::engine::dice::Dice;
use crate::engine::evaluation::{cohesion, contact_balance, time_limit_winner};
use crate::engine::event::GameLog;
use crate::engine::game::{Game, build_ruleset_board};
use crate::engine::ruleset::Ruleset;
use crate::engine::scenario::LoadedScenario;
use crate::engine::snapshot::copy_state;
use crate::engine::units::SideId;

/// What the computer chose and how: every candidate it weighed with its playouts and
/// mean score, best first.
#[derive(Clone, Debug)]
pub struct Thought {
    pub side: SideId,
    pub command: Command,
    pub candidates: Vec<CandidateScore>,
    pub playouts: usize,
    pub seconds: f64,
}

#[derive(Clone, Debug)]
pub struct CandidateScore {
    pub command: Command,
    pub playouts: usize,
    /// The mean score of its playouts, 0 (lost) to 1 (won).
    pub mean: f64,
}

impl Thought {
    /// One line for the log or the window: the choice, its score and the runner-up.
    pub fn summary(&self) -> String {
        let best = &self.candidates[0];
        let mut line = format!(
            "`{}` (score {:.2} over {} playouts",
            self.command, best.mean, best.playouts
        );
        if let Some(next) = self.candidates.get(1) {
            line += &format!("; next best `{}` {:.2}", next.command, next.mean);
        }
        line += &format!(
            "; {} candidates, {} playouts in {:.0} ms)",
            self.candidates.len(),
            self.playouts,
            self.seconds * 1000.0
        );
        line
    }
}

/// The game as the computer may know it: what it takes to play it again from the
/// start. Nothing is read from the game's own world, whose dice and hidden units the
/// computer must not see.
pub struct Fork {
    scenario: Arc<LoadedScenario>,
    ruleset: Arc<dyn Ruleset>,
    board: Board,
    seed: u64,
    options: Vec<String>,
    commands: Vec<Command>,
}

impl Fork {
    pub fn of(game: &Game) -> Self {
        Self {
            scenario: game.scenario.clone(),
            ruleset: game.ruleset.clone(),
            board: build_ruleset_board(&*game.ruleset, &game.scenario),
            seed: game.seed,
            options: game.extra_options(),
            commands: game.commands().to_vec(),
        }
    }

    /// A world for `observer` to think on: the game replayed to now (past dice are
    /// public: every roll is in the log), then everything `observer` cannot see drawn
    /// again (`Ruleset::resample_hidden`), and dice of the computer's own, so that
    /// neither a hidden unit nor a coming die is known.
    pub fn world_for(&self, observer: SideId, rng: &mut ChaCha8Rng) -> Result<Game, String> {
        let mut game = self.replayed()?;
        self.draw_for(&mut game, observer, rng);
        Ok(game)
    }

    /// The game replayed to now, as it stands (its hidden units where they are):
    /// what `draw_into` copies from, never to be thought on itself.
    pub fn replayed(&self) -> Result<Game, String> {
        let mut game = self.fresh();
        for (n, command) in self.commands.iter().enumerate() {
            game.submit(command).map_err(|refusal| {
                format!(
                    "the game's command {} `{command}` was refused on replay: {refusal}",
                    n + 1
                )
            })?;
        }
        Ok(game)
    }

    /// A new game of the scenario, at its start, its log without texts: a world for
    /// `draw_into` to copy the game into.
    pub fn fresh(&self) -> Game {
        let mut game = Game::new(
            self.scenario.clone(),
            self.ruleset.clone(),
            self.board.clone(),
            self.seed,
            &self.options,
        );
        game.world.resource_mut::<GameLog>().keep_text = false;
        game
    }

    /// `world_for` without the replay: the game `replayed` copied into `into` (a
    /// world of `fresh`, perhaps played on since), then drawn again for `observer`
    /// the same way. The same `rng` gives the same world as `world_for`; a copy that
    /// cannot be made (`snapshot::copy_state`) falls back to the replay.
    pub fn draw_into(
        &self,
        replayed: &Game,
        into: &mut Game,
        observer: SideId,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), String> {
        if copy_state(&replayed.world, &mut into.world).is_err() {
            *into = self.replayed()?;
        }
        self.draw_for(into, observer, rng);
        Ok(())
    }

    /// Draws again what `observer` cannot see, and dice of the computer's own.
    fn draw_for(&self, game: &mut Game, observer: SideId, rng: &mut ChaCha8Rng) {
        self.ruleset.resample_hidden(&mut game.world, observer, rng);
        game.world.insert_resource(Dice::new(rng.random()));
    }
}

/// Chooses `side`'s next command in `game` within `budget`, from `seed` alone (with
/// the game's commands). `progress`, when given, counts the playouts made, for a
/// window to show while it waits.
pub fn choose(
    game: &Game,
    side: SideId,
    budget: super::Budget,
    seed: u64,
    progress: Option<&AtomicUsize>,
) -> Result<Thought, String> {
    think(&Fork::of(game), side, budget, seed, progress)
}

/// `choose` on the game as a `Fork` holds it: what a thread of its own can take, so
/// that a window stays responsive while the computer thinks.
pub fn think(
    fork: &Fork,
    side: SideId,
    budget: super::Budget,
    seed: u64,
    progress: Option<&AtomicUsize>,
) -> Result<Thought, String> {
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ruleset = fork.ruleset.clone();
    // The game is replayed once; every playout copies it into one world kept for
    // them, instead of replaying it again.
    let replayed = fork.replayed()?;
    let mut scratch = fork.fresh();
    let mut root = fork.fresh();
    fork.draw_into(&replayed, &mut root, side, &mut rng)?;
    if root.is_over() {
        return Err("the game is over".into());
    }
    if root.side_to_act() != side {
        return Err(format!("it is not {}'s turn to act", root.side_name(side)));
    }
    let must_attack = time_limit_winner(&root.world).is_some_and(|winner| winner != side);
    // Every side weighs, beside random play's draws, the marches the ruleset offers
    // onto a flank (`Ruleset::striking_moves`), up to a quarter of its candidates,
    // outside a pending decision; the side that must attack fills them up to half its
    // candidates with each unit's march nearest the enemy (`directed::advancing_moves`).
    let mut directed = if ruleset.decision(&root.world).is_none() {
        ruleset.striking_moves(&root.world, side, budget.candidates / 4)
    } else {
        Vec::new()
    };
    directed.retain(|c| ruleset.check(&root.world, c).is_ok());
    if must_attack {
        let room = (budget.candidates / 2).saturating_sub(directed.len());
        for c in super::directed::advancing_moves(&*ruleset, &root.world, side, room) {
            if !directed.contains(&c) {
                directed.push(c);
            }
        }
    }
    let candidates = candidates(&*ruleset, &mut root, budget, directed, &mut rng);
    let end_redraws = if must_attack {
        ruleset.attacker_end_redraws()
    } else {
        0
    };
    let mut scores: Vec<(usize, f64)> = vec![(0, 0.0); candidates.len()];
    let mut playouts = 0;
    // Sequential halving: each round shares its part of the budget among the
    // candidates still in, then drops the worse half. Within a round every candidate
    // is played out on the same drawn worlds, dice and replies (common random
    // numbers), so that the scores differ by the candidates and not by luck.
    let mut alive: Vec<usize> = (0..candidates.len()).collect();
    let rounds = (candidates.len().max(2) as f64).log2().ceil() as usize;
    while alive.len() > 1 {
        let per_candidate = (budget.playouts / rounds / alive.len()).max(1);
        for _ in 0..per_candidate {
            let world_seed: u64 = rng.random();
            for &k in &alive {
                let mut draw = ChaCha8Rng::seed_from_u64(world_seed);
                fork.draw_into(&replayed, &mut scratch, side, &mut draw)?;
                let value = playout(
                    &mut scratch,
                    &*ruleset,
                    &candidates[k],
                    side,
                    budget,
                    end_redraws,
                    &mut draw,
                );
                scores[k].0 += 1;
                scores[k].1 += value;
                playouts += 1;
                if let Some(p) = progress {
                    p.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        alive.sort_by(|a, b| mean(scores[*b]).total_cmp(&mean(scores[*a])).then(a.cmp(b)));
        alive.truncate(alive.len().div_ceil(2));
    }
    let mut weighed: Vec<CandidateScore> = candidates
        .into_iter()
        .zip(&scores)
        .map(|(command, score)| CandidateScore {
            command,
            playouts: score.0,
            mean: mean(*score),
        })
        .collect();
    // The last one standing first, then by playouts (how far each lasted) and mean;
    // a stable sort keeps the draw order between equals.
    weighed.sort_by(|a, b| b.playouts.cmp(&a.playouts).then(b.mean.total_cmp(&a.mean)));
    if weighed.is_empty() {
        return Err(format!(
            "the rules gave {} no legal command to choose from",
            root.side_name(side)
        ));
    }
    Ok(Thought {
        side,
        command: weighed[0].command.clone(),
        candidates: weighed,
        playouts,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The distinct commands to weigh: `directed` first (each checked legal), then draws
/// from the ruleset's generator of legal commands up to the budget's number, and
/// ending the phase when the rules allow it now, each checked legal.
fn candidates(
    ruleset: &dyn Ruleset,
    root: &mut Game,
    budget: Budget,
    directed: Vec<Command>,
    rng: &mut ChaCha8Rng,
) -> Vec<Command> {
    let mut seen: HashSet<Command> = directed.iter().cloned().collect();
    let mut out = directed;
    for _ in 0..budget.candidates * 4 {
        if out.len() >= budget.candidates {
            break;
        }
        let command = ruleset.random_command(&mut root.world, rng);
        if !seen.contains(&command) && ruleset.check(&root.world, &command).is_ok() {
            seen.insert(command.clone());
            out.push(command);
        }
    }
    // Ending the phase is always weighed. Between candidates that score the same
    // (nothing they change shows within the horizon), the one drawn first is chosen:
    // for the side that must attack, ending comes last, so that it is chosen over
    // doing something only when it scores better; for the side that need only last,
    // it comes first, so that it leaves its line only for a move that scores better.
    if !seen.contains(&Command::EndPhase) && ruleset.check(&root.world, &Command::EndPhase).is_ok()
    {
        if time_limit_winner(&root.world) == Some(root.side_to_act()) {
            out.insert(0, Command::EndPhase);
        } else {
            out.push(Command::EndPhase);
        }
    }
    out
}

fn mean((n, total): (usize, f64)) -> f64 {
    if n == 0 { 0.5 } else { total / n as f64 }
}

/// One playout of `candidate` on `world`, drawn for `side`: the candidate, random
/// play for the horizon (`side`'s ends of a phase drawn again `end_redraws` times),
/// the ruleset's score of where it ends.
fn playout(
    world: &mut Game,
    ruleset: &dyn Ruleset,
    candidate: &Command,
    side: SideId,
    budget: Budget,
    end_redraws: usize,
    rng: &mut ChaCha8Rng,
) -> f64 {
    if world.submit(candidate).is_err() {
        // Refused where the hidden units were drawn elsewhere: the command may fail
        // in the real game too, so it scores as a loss.
        return 0.0;
    }
    // Where the candidate leaves the army, before the random play: the same for every
    // playout of a candidate, so that it orders moves the random play would blur.
    let approach = contact_balance(
        &world.world,
        side,
        &|unit| ruleset.ground_class(&world.world, unit),
        &|class, from, to| ruleset.crosses(&world.world, class, from, to),
    );
    // How together it leaves the army, where the ruleset weighs it: also the same
    // for every playout of a candidate.
    let cohesion_weight = ruleset.cohesion_weight(&world.world, side);
    let together = (cohesion_weight > 0.0)
        .then(|| cohesion(&world.world, side))
        .flatten();
    play_on(ruleset, world, budget.horizon, (side, end_redraws), rng);
    let end = ruleset.evaluate(&world.world, side);
    if world.is_over() {
        return end;
    }
    let mut value = end;
    if let Some(near) = approach {
        value = (1.0 - NEARNESS_WEIGHT) * value + NEARNESS_WEIGHT * (0.5 + 0.5 * near);
    }
    if let Some(together) = together {
        value = (1.0 - cohesion_weight) * value + cohesion_weight * together;
    }
    value
}

/// The part of a playout's score that the nearness of the side that must attack
/// makes (`evaluation::contact_balance`), where the game has not ended. Trials on
/// Civitate (the Normans at normal against random play, 100 games from seed 1), when
/// the distance was a straight line over half the board's width: 81 won without it,
/// 85 with 0.1, 81 with 0.2, 87 with 0.3: a gain within the noise of 100 games, taken
/// at the least weight that showed it. Counted along the ground over the whole
/// width (2026-11-28; 10 games each from seed 1, 20 at Civitate), 0.1 won Grandson
/// 7, Falkirk 10, Maldon 1 and Civitate 19; 0.2, which gives a hex the weight it had
/// before, 5, 9, 3 and 17: no better, so the least weight stays.
const NEARNESS_WEIGHT: f64 = 0.1;

/// Random legal play by the engine for `horizon` commands or to the end of the game,
/// where an end of the phase drawn for `eager.0` is drawn again up to `eager.1` times
/// (`Ruleset::attacker_end_redraws`).
fn play_on(
    ruleset: &dyn Ruleset,
    game: &mut Game,
    horizon: usize,
    eager: (SideId, usize),
    rng: &mut ChaCha8Rng,
) {
    for _ in 0..horizon {
        if game.is_over() {
            return;
        }
        let command = playout_command(ruleset, game, eager, rng);
        if game.submit(&command).is_err() {
            return;
        }
    }
}

/// The next command of a playout: random play's, except that an end of the phase drawn
/// for `eager.0` is drawn again up to `eager.1` times (`Ruleset::attacker_end_redraws`).
/// The other side's commands are random play's, drawn as they would be without it.
pub fn playout_command(
    ruleset: &dyn Ruleset,
    game: &mut Game,
    eager: (SideId, usize),
    rng: &mut ChaCha8Rng,
) -> Command {
    let (eager_side, redraws) = eager;
    let mut command = ruleset.random_command(&mut game.world, rng);
    // Who acts is asked only of an end drawn where redraws are owed: it reads the
    // pending decision, too dear for every command of every playout.
    if redraws > 0 && command == Command::EndPhase && game.side_to_act() == eager_side {
        for _ in 0..redraws {
            command = ruleset.random_command(&mut game.world, rng);
            if command != Command::EndPhase {
                break;
            }
        }
    }
    command
}

//! The computer opponent: for the side it plays, it chooses each command by searching
//! the ruleset's own legal commands with playouts the engine plays by the real rules,
//! on worlds where everything its side cannot see has been drawn again at random
//! (`Ruleset::resample_hidden`) and the dice are its own. Its choice comes from its
//! own seed and the game's commands so far, so it is the same every time; the command
//! it chooses is submitted like a player's and saved with the others.

pub mod directed;
pub mod duel;
pub mod search;

use std::fmt;
use std::str::FromStr;

use crate::engine::command::Command;
use crate::engine::game::Game;
use crate::engine::units::SideId;

pub use search::{Fork, Thought, choose, think};

/// How hard the computer thinks: the number of playouts it spends on a decision and
/// how far each looks ahead. A budget of playouts, not of time, so that the same game
/// gets the same choices on any machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Normal,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// What the level spends on one decision. The playouts decide the strength most
    /// (`bataille duel --budget`, README "Its strength and speed"): at Civitate the
    /// Normans at normal won 59 of 100 games against random play with 64 playouts, 81
    /// with 160, and, with the nearness term and the copied worlds that halved a
    /// playout's time, 85 with 160 and 88 with 320. Normal spends what keeps a whole
    /// Civitate phase within a second on one core (a median of 348 ms, p90 664 ms,
    /// at 320), hard three times as much.
    pub fn budget(self) -> Budget {
        match self {
            Level::Easy => Budget {
                candidates: 6,
                playouts: 24,
                horizon: 24,
            },
            Level::Normal => Budget {
                candidates: 12,
                playouts: 320,
                horizon: 24,
            },
            Level::Hard => Budget {
                candidates: 20,
                playouts: 960,
                horizon: 24,
            },
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == text)
            .ok_or_else(|| format!("`{text}` is not a level (easy, normal, hard)"))
    }
}

/// One decision's search: how many distinct legal commands it weighs (drawn from the
/// ruleset's own generator of legal commands), how many playouts it shares among
/// them, and how many commands each playout plays after the candidate before the
/// position is scored (`Ruleset::evaluate`), unless the game ends first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub candidates: usize,
    pub playouts: usize,
    pub horizon: usize,
}

/// The budget of each level: the levels' own (`Level::budget`), or others given to a
/// duel (`bataille duel --budget LEVEL=CANDIDATES,PLAYOUTS,HORIZON`) to measure a
/// change of the levels before it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets([Budget; 3]);

impl Default for Budgets {
    fn default() -> Self {
        Self(Level::ALL.map(Level::budget))
    }
}

impl Budgets {
    pub fn of(&self, level: Level) -> Budget {
        self.0[level as usize]
    }

    /// Sets one level's budget from `LEVEL=CANDIDATES,PLAYOUTS,HORIZON`.
    pub fn set_from_arg(&mut self, arg: &str) -> Result<(), String> {
        let usage = || {
            format!(
                "--budget `{arg}`: write LEVEL=CANDIDATES,PLAYOUTS,HORIZON, e.g. normal=12,64,24"
            )
        };
        let (level, numbers) = arg.split_once('=').ok_or_else(usage)?;
        let level: Level = level
            .parse()
            .map_err(|e| format!("--budget `{arg}`: {e}"))?;
        let numbers: Vec<usize> = numbers
            .split(',')
            .map(|n| n.trim().parse::<usize>())
            .collect::<Result<_, _>>()
            .map_err(|_| usage())?;
        let [candidates, playouts, horizon] = numbers[..] else {
            return Err(usage());
        };
        if candidates == 0 || playouts == 0 {
            return Err(format!(
                "--budget `{arg}`: the computer needs at least one candidate and one playout"
            ));
        }
        self.0[level as usize] = Budget {
            candidates,
            playouts,
            horizon,
        };
        Ok(())
    }
}

/// Who plays a side: a person at the screen, random legal play (for measuring), or
/// the computer at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    Human,
    Random,
    Computer(Level),
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Random => f.write_str("random"),
            Player::Computer(level) => level.fmt(f),
        }
    }
}

impl FromStr for Player {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "human" => Ok(Player::Human),
            "random" => Ok(Player::Random),
            _ => text.parse().map(Player::Computer).map_err(|_| {
                format!("`{text}` is not a player (human, random, easy, normal, hard)")
            }),
        }
    }
}

/// Each side's player from `SIDE=WHO` arguments (`--side`), WHO a `Player`; a side
/// not named gets `unnamed`.
pub fn players_from_args(
    scenario: &crate::engine::scenario::LoadedScenario,
    args: &[String],
    unnamed: Player,
) -> Result<Vec<Player>, String> {
    let ids: Vec<&str> = scenario.file.sides.iter().map(|s| s.id.as_str()).collect();
    let mut players = vec![unnamed; ids.len()];
    for arg in args {
        let (name, who) = arg.split_once('=').ok_or_else(|| {
            format!(
                "--side `{arg}`: write SIDE=LEVEL, e.g. --side {}=normal",
                ids[0]
            )
        })?;
        let index = ids.iter().position(|id| *id == name).ok_or_else(|| {
            format!(
                "--side `{arg}`: no side `{name}` in this scenario (its sides: {})",
                ids.join(", ")
            )
        })?;
        players[index] = who.parse().map_err(|e| format!("--side `{arg}`: {e}"))?;
    }
    Ok(players)
}

/// Submits the computer's choice to the game; where the real game refuses it (it can,
/// when it ran into what the computer could not see), its next best, and so on: a
/// player would learn the same from the refusal.
pub fn submit_choice(game: &mut Game, thought: &Thought) -> Result<Command, String> {
    first_accepted(thought, |command| {
        game.submit(command).map_err(|refusal| refusal.to_string())
    })
}

/// The computer's candidates offered best first to `submit` (the game's, or the
/// window's), until one is accepted: that command, else every refusal.
pub fn first_accepted(
    thought: &Thought,
    mut submit: impl FnMut(&Command) -> Result<(), String>,
) -> Result<Command, String> {
    let mut refusals = Vec::new();
    for candidate in &thought.candidates {
        match submit(&candidate.command) {
            Ok(()) => return Ok(candidate.command.clone()),
            Err(refusal) => refusals.push(format!("`{}`: {refusal}", candidate.command)),
        }
    }
    Err(format!(
        "the game refused every command the computer weighed: {}",
        refusals.join("; ")
    ))
}

/// The computer's own seed in the game of `game_seed`, from which each of its decisions
/// is drawn (`decision_seed`); not the dice's.
pub fn ai_seed_of(game_seed: u64) -> u64 {
    game_seed ^ 0xC0_4D_0A_11
}

/// The seed of one decision: the computer's own seed, its side and how many commands
/// the game has had, so that a replayed game asks it the same question with the same
/// seed and gets the same answer.
pub fn decision_seed(ai_seed: u64, side: SideId, game: &Game) -> u64 {
    let n = game.commands().len() as u64;
    splitmix64(splitmix64(ai_seed ^ (u64::from(side.0) << 56)) ^ n)
}

/// SplitMix64's finaliser: nearby inputs give unrelated seeds.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

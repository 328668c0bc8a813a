//! The game a window plays: the engine's `Game` with undo and redo by replay, saves,
//! the autosave written at each phase end, and the replay view (step back and forth
//! through the game's commands, then play on from any point as a what-if branch).
//! Every change goes through `submit`, the same pipeline as scripts.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::ai::{Level, Player};
use crate::engine::command::{Command, Refusal};
use crate::engine::dice::Dice;
use crate::engine::error::LocatedError;
use crate::engine::event::EventKind;
use crate::engine::game::build_ruleset_board;
use crate::engine::game::{BranchOrigin, Game};
use crate::engine::units::SideId;

/// The game in play, held by the window as a resource. The game's own `World` is the
/// rules' state; the window's world only draws it.
#[derive(Resource)]
pub struct Session {
    pub game: Game,
    /// Commands undone, the most recent last, for redo.
    redo: Vec<Command>,
    /// Commands before this index cannot be undone: a die was rolled, something hidden
    /// was revealed, or a phase ended (the other player has seen it).
    undo_floor: usize,
    /// Where the autosave goes; none in tests that do not want files.
    pub autosave: Option<PathBuf>,
    /// Bumped on every change of the game, so views know to redraw.
    pub revision: u64,
    /// The replay view, while it is open: `game` is then the position shown.
    pub replay: Option<ReplayView>,
    /// The save this session was loaded from, named by the branches played from it.
    pub loaded_from: Option<PathBuf>,
    /// Who plays each side, by side index: a person at this screen or the computer.
    pub players: Vec<Player>,
    /// The computer's own seed, from which each of its decisions is drawn
    /// (`ai::decision_seed`); not the dice's.
    pub ai_seed: u64,
}

/// A replay of the session's game (issue 18): every command played, the point shown
/// (after `at` of them), and the side watching, whose hidden units stay hidden (none
/// once the game is over: then everything is shown).
#[derive(Clone, Debug)]
pub struct ReplayView {
    pub commands: Vec<Command>,
    pub at: usize,
    pub watching: Option<SideId>,
    /// Where each turn, phase and side's phase begins: (point, turn, phase, side).
    pub marks: Vec<crate::engine::replay::Mark>,
}

/// The folder saves and the autosave go to: `$BATAILLE_SAVE_DIR`, else
/// `~/.local/share/bataille`, else `./saves`.
pub fn save_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("BATAILLE_SAVE_DIR") {
        return PathBuf::from(dir);
    }
    match std::env::var_os("HOME") {
        Some(home) => PathBuf::from(home).join(".local/share/bataille"),
        None => PathBuf::from("saves"),
    }
}

/// The autosave file in `save_dir()`.
pub fn autosave_path() -> PathBuf {
    save_dir().join("autosave.ron")
}

/// Writes a file whole or not at all: to a temporary beside it, then renamed over it.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("ron.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

impl Session {
    pub fn new(game: Game, autosave: Option<PathBuf>) -> Self {
        let undo_floor = game.commands().len();
        Self {
            redo: Vec::new(),
            undo_floor,
            autosave,
            revision: 0,
            replay: None,
            loaded_from: None,
            players: vec![Player::Human; game.scenario.file.sides.len()],
            ai_seed: crate::ai::ai_seed_of(game.seed),
            game,
        }
    }

    /// The side to act and its level, when the computer plays it and the game goes on
    /// (not in the replay view).
    pub fn computer_to_act(&self) -> Option<(SideId, Level)> {
        if self.replay.is_some() || self.game.is_over() {
            return None;
        }
        let side = self.game.side_to_act();
        match self.players.get(side.0 as usize) {
            Some(Player::Computer(level)) => Some((side, *level)),
            _ => None,
        }
    }

    /// The one side a person plays, when the computer plays all the others: the map
    /// is always drawn for that side, and no hand-over screen is needed.
    pub fn sole_human(&self) -> Option<SideId> {
        let mut humans = self
            .players
            .iter()
            .enumerate()
            .filter(|(_, p)| **p == Player::Human);
        match (humans.next(), humans.next()) {
            (Some((i, _)), None) => Some(SideId(i as u8)),
            _ => None,
        }
    }

    /// Starts a scenario afresh.
    /// The path is made absolute so that saves resume from any folder.
    pub fn start(
        path: &Path,
        seed: u64,
        options: &[String],
        autosave: Option<PathBuf>,
    ) -> Result<Self, LocatedError> {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        Ok(Self::new(Game::start(&path, seed, options)?, autosave))
    }

    /// Resumes a saved game (replaying it).
    pub fn load(path: &Path, autosave: Option<PathBuf>) -> Result<Self, LocatedError> {
        let mut session = Self::new(Game::load_save(path)?, autosave);
        session.loaded_from = Some(path.to_path_buf());
        Ok(session)
    }

    fn dice_rolled(&self) -> u64 {
        self.game.world.resource::<Dice>().rolled()
    }

    /// Submits a command through the ruleset. On a phase end, writes the autosave.
    pub fn submit(&mut self, command: &Command) -> Result<(), Refusal> {
        if self.replay.is_some() {
            return Err(Refusal::new(
                "replay",
                "this is the replay: step with , and . (Home, End), `Play from here` to go on from this point, `Leave replay` to return",
            ));
        }
        let rolled = self.dice_rolled();
        let events = self.game.log().events.len();
        self.game.submit(command)?;
        let revealed = self.game.log().events[events..]
            .iter()
            .any(|e| matches!(e.kind, EventKind::Revealed | EventKind::SideChanged));
        if self.dice_rolled() != rolled || revealed || *command == Command::EndPhase {
            self.undo_floor = self.game.commands().len();
        }
        self.redo.clear();
        self.revision += 1;
        if *command == Command::EndPhase {
            self.write_autosave();
        }
        Ok(())
    }

    /// Writes the autosave, if this session has one; a failure is reported, not fatal.
    pub fn write_autosave(&self) -> Option<String> {
        let path = self.autosave.as_ref()?;
        write_atomically(path, &self.game.save_text())
            .err()
            .map(|e| format!("autosave to {} failed: {e}", path.display()))
    }

    /// Why the last command cannot be undone, if it cannot.
    pub fn undo_blocked(&self) -> Option<&'static str> {
        if self.replay.is_some() {
            Some("this is the replay")
        } else if self.game.commands().len() <= self.undo_floor {
            Some("nothing to undo since the last die roll, reveal or phase end")
        } else {
            None
        }
    }

    /// Takes back the last command by replaying all the others from the start; the
    /// dice come out the same because the undone command rolled none.
    pub fn undo(&mut self) -> Result<(), String> {
        if let Some(why) = self.undo_blocked() {
            return Err(why.to_string());
        }
        let mut commands = self.game.commands().to_vec();
        let last = commands.pop().expect("undo_blocked checked there is one");
        let mut replayed = self.replay(&commands)?;
        std::mem::swap(&mut self.game, &mut replayed);
        self.redo.push(last);
        self.revision += 1;
        Ok(())
    }

    /// Makes the last undone command again.
    pub fn redo(&mut self) -> Result<(), String> {
        let Some(command) = self.redo.pop() else {
            return Err("nothing to redo".into());
        };
        let kept = std::mem::take(&mut self.redo);
        let result = self.submit(&command).map_err(|r| r.to_string());
        self.redo = kept;
        result
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    fn replay(&self, commands: &[Command]) -> Result<Game, String> {
        let old = &self.game;
        let board = build_ruleset_board(&*old.ruleset, &old.scenario);
        let extra = old.extra_options();
        let mut game = Game::new(
            old.scenario.clone(),
            old.ruleset.clone(),
            board,
            old.seed,
            &extra,
        );
        game.branch = old.branch.clone();
        for c in commands {
            game.submit(c)
                .map_err(|r| format!("replay refused `{c}`: {r}"))?;
        }
        Ok(game)
    }

    /// Opens the replay view at the game's present point, watched by `watching`.
    pub fn enter_replay(&mut self, watching: SideId) {
        if self.replay.is_some() {
            return;
        }
        let commands = self.game.commands().to_vec();
        let marks = self.marks_of(&commands);
        self.replay = Some(ReplayView {
            at: commands.len(),
            commands,
            watching: (!self.game.is_over()).then_some(watching),
            marks,
        });
        self.revision += 1;
    }

    /// Replays `commands` once, noting where each turn, phase and side's phase begins
    /// (`Mark::note`, as a save's replay does; none past a command the replay refuses,
    /// which the game accepted: never).
    fn marks_of(&self, commands: &[Command]) -> Vec<crate::engine::replay::Mark> {
        use crate::engine::replay::Mark;
        let Ok(mut game) = self.replay(&[]) else {
            return Vec::new();
        };
        let mut marks = Vec::new();
        Mark::note(&mut marks, &game, 0);
        for (i, c) in commands.iter().enumerate() {
            if game.submit(c).is_err() {
                break;
            }
            Mark::note(&mut marks, &game, i + 1);
        }
        marks
    }

    /// Shows the game after its first `n` commands (at most all of them): a step
    /// forward plays the next command, any other step replays from the start.
    pub fn seek(&mut self, n: usize) -> Result<(), String> {
        let Some(view) = self.replay.as_ref() else {
            return Err("no replay is open".into());
        };
        let n = n.min(view.commands.len());
        if n == view.at {
            return Ok(());
        }
        if n == view.at + 1 {
            let next = view.commands[view.at].clone();
            self.game
                .submit(&next)
                .map_err(|r| format!("replay refused `{next}`: {r}"))?;
        } else {
            let commands = view.commands[..n].to_vec();
            self.game = self.replay(&commands)?;
        }
        if let Some(view) = self.replay.as_mut() {
            view.at = n;
        }
        self.revision += 1;
        Ok(())
    }

    /// Closes the replay view: the game as it was when it was opened.
    pub fn leave_replay(&mut self) -> Result<(), String> {
        let Some(end) = self.replay.as_ref().map(|v| v.commands.len()) else {
            return Ok(());
        };
        self.seek(end)?;
        self.replay = None;
        self.revision += 1;
        Ok(())
    }

    /// A what-if branch: play on from the point shown. The commands after it are
    /// dropped from this game (a save file it was loaded from is not touched: the
    /// branch saves under its own name), and its saves record where it left.
    pub fn play_from_here(&mut self) -> Result<usize, String> {
        let Some(view) = self.replay.take() else {
            return Err("no replay is open".into());
        };
        let origin = self
            .loaded_from
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "the game played in the window (not saved)".into());
        self.game.branch = Some(BranchOrigin {
            save: origin,
            at: view.at,
        });
        self.redo.clear();
        self.undo_floor = view.at;
        self.revision += 1;
        Ok(view.at)
    }

    /// Saves the game to `path`.
    pub fn save_to(&self, path: &Path) -> Result<(), String> {
        write_atomically(path, &self.game.save_text())
            .map_err(|e| format!("cannot save to {}: {e}", path.display()))
    }

    /// The file Ctrl+S writes: the scenario's name in the save folder.
    pub fn save_path(&self) -> PathBuf {
        let stem = self
            .game
            .scenario
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_else(|| "game".into());
        match &self.game.branch {
            // A branch never overwrites the game it left.
            Some(b) => save_dir().join(format!("{stem}.branch-{}.save.ron", b.at)),
            None => save_dir().join(format!("{stem}.save.ron")),
        }
    }
}

//! Replays of a save (issue 18): the game after any number of its commands, where each
//! turn and phase begins, and what-if branches that keep a prefix of it and go on from
//! there. A save holds the scenario's hash, the seed and every command, so replaying
//! its first N commands gives exactly the game as it stood then; a Bevy world cannot
//! be copied, so a step back is a replay from the start (a whole game replays in
//! milliseconds).

use std::path::{Path, PathBuf};

use super::error::LocatedError;
use super::game::{BranchOrigin, Game, SaveFile, parse_save};
use super::ruleset::RulesetEntry;
use super::scenario::read_text;

/// Where a turn or phase begins in a replay: after `after` commands, the phase and the
/// side whose phase it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub after: usize,
    pub turn: u32,
    pub phase: String,
    pub side: String,
}

impl Mark {
    /// Where `game` stands after `after` commands.
    pub fn of(game: &Game, after: usize) -> Mark {
        Mark {
            after,
            turn: game.turn().turn,
            phase: game.turn().phase.label.to_string(),
            side: game
                .scenario
                .file
                .sides
                .get(game.turn().active.0 as usize)
                .map(|s| s.name.clone())
                .unwrap_or_default(),
        }
    }

    /// Adds where `game` stands after `after` commands to `marks` when its turn, phase
    /// or side is not the last mark's: the one rule of the saves' and the window's marks.
    pub fn note(marks: &mut Vec<Mark>, game: &Game, after: usize) {
        let m = Mark::of(game, after);
        let new = marks
            .last()
            .is_none_or(|l| (l.turn, &l.phase, &l.side) != (m.turn, &m.phase, &m.side));
        if new {
            marks.push(m);
        }
    }
}

/// A save opened for replay: read and checked whole once (every command accepted), then
/// any point of it on demand.
pub struct Replay {
    registry: &'static [RulesetEntry],
    path: PathBuf,
    text: String,
    save: SaveFile,
    marks: Vec<Mark>,
}

impl Replay {
    /// Opens a save: it must replay whole, as `load_save` would, or the error names the
    /// file, line and column of the command at fault.
    pub fn open(registry: &'static [RulesetEntry], path: &Path) -> Result<Self, LocatedError> {
        let text = read_text(path)?;
        let save = parse_save(path, &text)?;
        let marks = marks_of(registry, path, &text, &save)?;
        Ok(Self {
            registry,
            path: path.to_path_buf(),
            text,
            save,
            marks,
        })
    }

    /// How many commands the save holds.
    pub fn len(&self) -> usize {
        self.save.commands.len()
    }

    pub fn is_empty(&self) -> bool {
        self.save.commands.is_empty()
    }

    /// The save replayed.
    pub fn save(&self) -> &SaveFile {
        &self.save
    }

    /// The command that leads from point `n - 1` to point `n` (1-based), as saved.
    pub fn command(&self, n: usize) -> Option<&str> {
        n.checked_sub(1)
            .and_then(|i| self.save.commands.get(i))
            .map(String::as_str)
    }

    /// Where each turn and phase begins: the start, then every command after which the
    /// turn or the phase is not what it was.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// The first point of turn `turn` (and of `phase` in it, if given), if the game
    /// reached it.
    pub fn point_of(&self, turn: u32, phase: Option<&str>) -> Option<usize> {
        self.marks
            .iter()
            .find(|m| m.turn == turn && phase.is_none_or(|p| m.phase == p))
            .map(|m| m.after)
    }

    /// The game after its first `n` commands (0: as it began).
    pub fn at(&self, n: usize) -> Result<Game, LocatedError> {
        if n > self.len() {
            return Err(LocatedError::whole_file(
                &self.path.display().to_string(),
                format!(
                    "the save holds {} commands: there is no point after command {n}",
                    self.len()
                ),
            ));
        }
        Game::replay_save(self.registry, &self.path, &self.text, &self.save, n)
    }

    /// A what-if branch from point `n`: the game after the save's first `n` commands,
    /// its own save recording where it left this one; the original is not touched.
    pub fn branch(&self, n: usize) -> Result<Game, LocatedError> {
        let mut game = self.at(n)?;
        game.branch = Some(BranchOrigin {
            save: self.path.display().to_string(),
            at: n,
        });
        Ok(game)
    }
}

/// Replays the whole save once, noting where each turn and phase begins.
fn marks_of(
    registry: &[RulesetEntry],
    path: &Path,
    text: &str,
    save: &SaveFile,
) -> Result<Vec<Mark>, LocatedError> {
    let mut game = Game::replay_save(registry, path, text, save, 0)?;
    let mut marks = Vec::new();
    Mark::note(&mut marks, &game, 0);
    for (i, line) in save.commands.iter().enumerate() {
        // `replay_save` of the whole save has checked every line; a failure here would
        // be a nondeterministic ruleset, reported as the command at fault.
        let nth = save.commands[..i].iter().filter(|c| *c == line).count();
        let located = |msg: String| {
            LocatedError::at_text(
                &path.display().to_string(),
                text,
                &format!("\"{line}\""),
                nth,
                msg,
            )
        };
        let cmd = game
            .parse_line(line)
            .map_err(|e| located(e.message))?
            .ok_or_else(|| located(format!("command {} is empty", i + 1)))?;
        game.submit(&cmd).map_err(|r| {
            located(format!(
                "command {} `{line}` is refused on replay: {r}",
                i + 1
            ))
        })?;
        Mark::note(&mut marks, &game, i + 1);
    }
    Ok(marks)
}

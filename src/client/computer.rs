//! The computer's turns in the window: when the side to act is the computer's, its
//! search (`ai::think`) runs on a thread of its own, so the window keeps drawing and
//! answering; its progress is shown while it thinks, and its command goes through the
//! same `submit` as a player's click, one command at a time, paced so that a person
//! can follow each move.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::controller::{Interaction, submit};
use super::session::Session;
use crate::ai::{Fork, Level, Player, Thought, decision_seed, first_accepted, think};
use crate::engine::units::SideId;

/// The computer's search under way, if any, and the moves it has made.
#[derive(Resource)]
pub struct ComputerTurn {
    pub thinking: Option<Thinking>,
    /// Each move the computer made this session, oldest first: who, the command, its
    /// score and the runner-up (`Thought::summary`).
    pub moves: Vec<String>,
    /// The least time between two of the computer's commands, so that each can be
    /// seen (none in tests).
    pub pace: Duration,
    last_move: Option<Instant>,
}

impl Default for ComputerTurn {
    fn default() -> Self {
        Self {
            thinking: None,
            moves: Vec::new(),
            pace: Duration::from_millis(600),
            last_move: None,
        }
    }
}

/// One decision being thought about on its own thread.
pub struct Thinking {
    pub side: SideId,
    pub level: Level,
    pub playouts: usize,
    progress: Arc<AtomicUsize>,
    revision: u64,
    /// Where the thread leaves its answer.
    answer: Arc<Mutex<Option<Result<Thought, String>>>>,
    thread: JoinHandle<()>,
    ready: Option<Thought>,
}

impl Thinking {
    /// The playouts made so far.
    pub fn done(&self) -> usize {
        self.progress.load(Ordering::Relaxed).min(self.playouts)
    }
}

/// Starts, follows and finishes the computer's decisions (`ControllerPlugin` runs it
/// after the player's inputs).
pub fn computer_turn(
    mut session: ResMut<Session>,
    mut ui: ResMut<Interaction>,
    mut turn: ResMut<ComputerTurn>,
) {
    let to_act = session.computer_to_act();
    // A search the game has moved past (an undo, a change of player) is dropped; its
    // thread finishes on its own and its answer is not read.
    if turn
        .thinking
        .as_ref()
        .is_some_and(|t| Some((t.side, t.level)) != to_act || t.revision != session.revision)
    {
        turn.thinking = None;
    }
    let Some((side, level)) = to_act else {
        return;
    };
    let Some(thinking) = turn.thinking.as_mut() else {
        let fork = Fork::of(&session.game);
        let seed = decision_seed(session.ai_seed, side, &session.game);
        let budget = level.budget();
        let progress = Arc::new(AtomicUsize::new(0));
        let answer = Arc::new(Mutex::new(None));
        let (counter, slot) = (progress.clone(), answer.clone());
        let thread = std::thread::spawn(move || {
            let thought = think(&fork, side, budget, seed, Some(&counter));
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(thought);
            }
        });
        turn.thinking = Some(Thinking {
            side,
            level,
            playouts: budget.playouts,
            progress,
            revision: session.revision,
            answer,
            thread,
            ready: None,
        });
        return;
    };
    if thinking.ready.is_none() {
        let answer = thinking.answer.lock().ok().and_then(|mut a| a.take());
        match answer {
            Some(Ok(thought)) => thinking.ready = Some(thought),
            Some(Err(why)) => return give_back(&mut session, &mut ui, &mut turn, side, &why),
            None if thinking.thread.is_finished() => {
                return give_back(&mut session, &mut ui, &mut turn, side, "its search stopped");
            }
            None => return,
        }
    }
    if turn.last_move.is_some_and(|t| t.elapsed() < turn.pace) {
        return;
    }
    let thought = turn
        .thinking
        .take()
        .and_then(|t| t.ready)
        .expect("a thought is ready here");
    let who = session.game.side_name(side);
    // Its best first; where the game refuses it (something it could not see), the
    // next, as a player would try again.
    let played = first_accepted(&thought, |command| {
        if submit(&mut session, &mut ui, command) {
            Ok(())
        } else {
            Err(ui.status.clone())
        }
    });
    match played {
        Ok(command) => {
            ui.status = format!("the computer ({level}) played for {who}: {command}");
            ui.unheeded = false;
            turn.moves
                .push(format!("{who} ({level}): {}", thought.summary()));
            turn.last_move = Some(Instant::now());
        }
        Err(why) => give_back(&mut session, &mut ui, &mut turn, side, &why),
    }
}

/// The computer cannot go on: the side goes back to a person, with why.
fn give_back(
    session: &mut Session,
    ui: &mut Interaction,
    turn: &mut ComputerTurn,
    side: SideId,
    why: &str,
) {
    turn.thinking = None;
    session.players[side.0 as usize] = Player::Human;
    session.revision += 1;
    ui.status = format!(
        "the computer stopped playing {} ({why}): it is yours to play",
        session.game.side_name(side)
    );
    ui.unheeded = true;
}

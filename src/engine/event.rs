//! What happened: every accepted command emits events, each citing its rule; the
//! `GameLog` keeps them and renders the lines a player reads.

use bevy::prelude::*;
use serde::Serialize;

/// One thing that happened in the game, with the rule that made it happen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Message)]
pub struct GameEvent {
    pub kind: EventKind,
    /// The rule section, e.g. `AlC 12.7`.
    pub rule: &'static str,
    /// The human-readable line.
    pub text: String,
}

/// The kind of event, for views and tests that react to some of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum EventKind {
    TurnStarted,
    PhaseStarted,
    Moved,
    Entered,
    DieRolled,
    CombatDeclared,
    CombatResult,
    StepLost,
    Eliminated,
    Retreated,
    Displaced,
    Advanced,
    MoraleCheck,
    Revealed,
    Placed,
    SideChanged,
    Special,
    Victory,
    GameOver,
}

/// The log of a game: every event, in order.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameLog {
    pub events: Vec<GameEvent>,
    /// Set to false by autoplay to skip building text nobody reads.
    pub keep_text: bool,
}

impl GameLog {
    pub fn new() -> Self {
        Self {
            // Room for a game's first few turns: fewer early reallocations, each of
            // which copies the whole log.
            events: Vec::with_capacity(256),
            keep_text: true,
        }
    }

    pub fn push(&mut self, kind: EventKind, rule: &'static str, text: impl FnOnce() -> String) {
        let text = if self.keep_text {
            text()
        } else {
            String::new()
        };
        self.events.push(GameEvent { kind, rule, text });
    }

    /// The lines a player reads: `text (rule)`.
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        self.events
            .iter()
            .map(|e| format!("{} ({})", e.text, e.rule))
    }
}

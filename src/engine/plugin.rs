//! The engine as a Bevy plugin: commands arrive as messages, go through the same
//! `submit` pipeline as scripts, and come out as outcome and event messages; zones of
//! control and the `PhaseKind` state (what a click means) follow the game.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

use super::command::{Command, Refusal};
use super::event::{GameEvent, GameLog};
use super::game::{TurnState, submit};
use super::phase::PhaseKind;
use super::zoc::recompute_zones_of_control;

/// A command from any input: a click, a script line, a replayed save.
#[derive(Message, Clone, Debug)]
pub struct SubmitCommand(pub Command);

/// What became of a submitted command.
#[derive(Message, Clone, Debug)]
pub struct CommandOutcome {
    pub command: Command,
    pub result: Result<(), Refusal>,
}

/// The order of the engine's work in a frame.
#[derive(SystemSet, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameSet {
    /// Check and execute submitted commands.
    Commands,
    /// Recompute zones of control after units moved.
    ZonesOfControl,
    /// Mirror the kind of the turn's phase into the `PhaseKind` state.
    Phase,
}

pub struct EnginePlugin;

impl Plugin for EnginePlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<StatesPlugin>() {
            app.add_plugins(StatesPlugin);
        }
        app.add_message::<SubmitCommand>()
            .add_message::<CommandOutcome>()
            .add_message::<GameEvent>()
            .init_state::<PhaseKind>()
            .configure_sets(
                Update,
                (GameSet::Commands, GameSet::ZonesOfControl, GameSet::Phase).chain(),
            )
            .add_systems(Update, process_submitted_commands.in_set(GameSet::Commands))
            .add_systems(
                Update,
                recompute_zones_of_control
                    .in_set(GameSet::ZonesOfControl)
                    .run_if(resource_exists::<super::board::Board>),
            )
            .add_systems(
                Update,
                sync_phase_state
                    .in_set(GameSet::Phase)
                    .run_if(resource_exists::<TurnState>),
            );
    }
}

/// Drains the submitted commands in order through `submit`, then publishes the
/// outcome of each and the events it produced.
pub fn process_submitted_commands(world: &mut World) {
    let commands: Vec<SubmitCommand> = world
        .resource_mut::<Messages<SubmitCommand>>()
        .drain()
        .collect();
    if commands.is_empty() || !world.contains_resource::<TurnState>() {
        return;
    }
    for SubmitCommand(command) in commands {
        let before = world.resource::<GameLog>().events.len();
        let result = submit(world, &command);
        let new_events: Vec<GameEvent> = world.resource::<GameLog>().events[before..].to_vec();
        for ev in new_events {
            world.write_message(ev);
        }
        world.write_message(CommandOutcome { command, result });
    }
}

fn sync_phase_state(
    turn: Res<TurnState>,
    state: Res<State<PhaseKind>>,
    mut next: ResMut<NextState<PhaseKind>>,
) {
    if *state.get() != turn.phase.kind {
        next.set(turn.phase.kind);
    }
}

//! A ruleset's sequence of play, as the engine runs it: each ruleset declares its own
//! phase enum; entering and leaving a phase runs that phase's systems, chained, in
//! schedules of the ruleset's own (`OnEnterPhase`, `OnExitPhase`) on the
//! single-threaded executor, synchronously, so that everything a command causes is done
//! when `submit` returns. The engine and the window see a phase only through its
//! ruleset-neutral `PhaseView`: label, rule, and what a player does in it.

use std::fmt::Debug;
use std::hash::Hash;

use bevy::ecs::schedule::{
    IntoScheduleConfigs, ScheduleLabel, SingleThreadedExecutor, SystemExecutor,
};
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;
use serde::Serialize;

use super::game::TurnState;

/// What a player does in a phase: what a click on the map means in the window.
#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize)]
pub enum PhaseKind {
    /// Units are placed (a set-up).
    #[default]
    Place,
    /// Units move.
    Move,
    /// Units shoot.
    Fire,
    /// Units fight (and, in a ruleset with one combat phase, shoot).
    Fight,
    /// The player answers a question of the rules (action-point dice, ...).
    Decide,
    /// The game is over.
    Over,
}

/// A phase as the engine, the log and the window see it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
pub struct PhaseView {
    /// The phase's name in the ruleset, e.g. "movement" or "missile combat".
    pub label: &'static str,
    /// The rule section that defines it, e.g. `AlC 6`.
    pub rule: &'static str,
    pub kind: PhaseKind,
}

impl PhaseView {
    /// The phase of a game that has ended, whatever its ruleset.
    pub const GAME_OVER: PhaseView = PhaseView {
        label: "game over",
        rule: "",
        kind: PhaseKind::Over,
    };
}

impl Default for PhaseView {
    fn default() -> Self {
        PhaseView {
            label: "set-up",
            rule: "",
            kind: PhaseKind::Place,
        }
    }
}

/// A ruleset's phase enum: one value per phase of its sequence of play.
pub trait RulesetPhase: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Every phase, in the order of the sequence of play.
    const ALL: &'static [Self];
    /// How the engine and the window see this phase.
    fn view(self) -> PhaseView;
    /// The phase the game is in, where the ruleset keeps it (`None` before the first).
    fn current(world: &World) -> Option<Self>;
    /// Records the phase the game is in.
    fn set_current(world: &mut World, phase: Self);
}

/// The systems run on entering a phase.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OnEnterPhase<P: RulesetPhase>(pub P);

/// The systems run on leaving a phase.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OnExitPhase<P: RulesetPhase>(pub P);

/// A schedule for rules: the single-threaded executor, always, so that systems run in
/// their declared order on the calling thread (with the `gui` feature Bevy's default
/// executor is the multi-threaded one).
pub fn rules_schedule(label: impl ScheduleLabel) -> Schedule {
    let mut schedule = Schedule::new(label);
    schedule.set_executor(rules_executor());
    schedule
}

/// The executor of every rules schedule.
pub fn rules_executor() -> impl SystemExecutor {
    SingleThreadedExecutor::new()
}

/// Creates the entry and exit schedules of every phase of `P` (empty until a ruleset
/// adds systems), so that entering any phase runs a schedule that exists.
pub fn init_phases<P: RulesetPhase>(world: &mut World) {
    let mut schedules = world.get_resource_or_init::<Schedules>();
    for &phase in P::ALL {
        if !schedules.contains(OnEnterPhase(phase)) {
            schedules.insert(rules_schedule(OnEnterPhase(phase)));
        }
        if !schedules.contains(OnExitPhase(phase)) {
            schedules.insert(rules_schedule(OnExitPhase(phase)));
        }
    }
}

/// Adds systems to run on entering `phase`, after those already there.
pub fn on_enter<P: RulesetPhase, M>(
    world: &mut World,
    phase: P,
    systems: impl IntoScheduleConfigs<ScheduleSystem, M>,
) {
    add_to::<P, M>(world, OnEnterPhase(phase), systems);
    world.get_resource_or_init::<PhaseSystems<P>>().on_enter[PhaseSystems::<P>::index(phase)] =
        true;
}

/// Adds systems to run on leaving `phase`.
pub fn on_exit<P: RulesetPhase, M>(
    world: &mut World,
    phase: P,
    systems: impl IntoScheduleConfigs<ScheduleSystem, M>,
) {
    add_to::<P, M>(world, OnExitPhase(phase), systems);
    world.get_resource_or_init::<PhaseSystems<P>>().on_exit[PhaseSystems::<P>::index(phase)] = true;
}

/// Which phases of `P` have systems on entering and on leaving, by their place in
/// `P::ALL`: a phase with none is entered or left without running its (empty)
/// schedule, whose run alone costs more than most phase systems.
#[derive(Resource)]
struct PhaseSystems<P: RulesetPhase> {
    on_enter: Vec<bool>,
    on_exit: Vec<bool>,
    _phase: std::marker::PhantomData<P>,
}

impl<P: RulesetPhase> Default for PhaseSystems<P> {
    fn default() -> Self {
        Self {
            on_enter: vec![false; P::ALL.len()],
            on_exit: vec![false; P::ALL.len()],
            _phase: std::marker::PhantomData,
        }
    }
}

impl<P: RulesetPhase> PhaseSystems<P> {
    fn index(phase: P) -> usize {
        P::ALL
            .iter()
            .position(|p| *p == phase)
            .expect("every phase is in its enum's ALL")
    }
}

/// Whether entering (or leaving) `phase` runs any system.
fn has_systems<P: RulesetPhase>(world: &World, phase: P, entering: bool) -> bool {
    world.get_resource::<PhaseSystems<P>>().is_some_and(|s| {
        let i = PhaseSystems::<P>::index(phase);
        if entering {
            s.on_enter[i]
        } else {
            s.on_exit[i]
        }
    })
}

/// A phase schedule skipped as empty must be empty (debug builds, so every test): a
/// system added to it other than by `on_enter` or `on_exit` would never run.
fn debug_assert_empty(world: &World, label: impl ScheduleLabel) {
    debug_assert!(
        world
            .get_resource::<Schedules>()
            .and_then(|s| s.get(label))
            .is_none_or(|s| s.systems_len() == 0),
        "a phase schedule has systems that `on_enter`/`on_exit` did not add: they would never run"
    );
}

/// Adds systems to one of the phase schedules of `P`, all of which it first creates.
fn add_to<P: RulesetPhase, M>(
    world: &mut World,
    label: impl ScheduleLabel,
    systems: impl IntoScheduleConfigs<ScheduleSystem, M>,
) {
    init_phases::<P>(world);
    world.schedule_scope(label, |_, s| {
        s.add_systems(systems);
    });
}

/// Leaves the current phase (its exit systems run), then enters `next` (the game's
/// `TurnState` shows it, and its entry systems run), now, in that order. Set the side
/// to act before: the systems read it.
pub fn change_phase<P: RulesetPhase>(world: &mut World, next: P) {
    leave_phase::<P>(world);
    enter_phase(world, next);
}

/// Runs the exit systems of the current phase; the game stays in it until
/// `enter_phase` (a ruleset whose next phase depends on what they did).
pub fn leave_phase<P: RulesetPhase>(world: &mut World) {
    if let Some(previous) = P::current(world) {
        if has_systems(world, previous, false) {
            world.run_schedule(OnExitPhase(previous));
        } else {
            debug_assert_empty(world, OnExitPhase(previous));
        }
    }
}

/// Enters `next` without leaving the current phase: the first phase, or after
/// `leave_phase`.
pub fn enter_phase<P: RulesetPhase>(world: &mut World, next: P) {
    set_phase(world, next);
    if has_systems(world, next, true) {
        world.run_schedule(OnEnterPhase(next));
    } else {
        debug_assert_empty(world, OnEnterPhase(next));
    }
}

/// Records `phase` as the current one, shown in `TurnState`, without running any
/// phase systems: the end of the game, which comes in the middle of a phase.
pub fn set_phase<P: RulesetPhase>(world: &mut World, phase: P) {
    P::set_current(world, phase);
    world.resource_mut::<TurnState>().phase = phase.view();
}

//! The one dispatch of A la Charge: `check` turns a command into the plan of what it
//! does, or refuses it with its rule (reading the world only); `execute` carries the
//! plan out and applies the combat results that need no decision. `submit` runs both;
//! the window's previews run `check` alone.

use bevy::prelude::*;

use crate::engine::command::{Command, Refusal};
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::combat::AttackPlan;
use super::movement::MovePlan;
use super::results::{DecisionPlan, front};
use super::*;

/// What a legal command does, checked and ready to execute.
pub(crate) enum AlcPlan {
    /// An answer to the decision the combat results wait for (AlC 12).
    Decision(DecisionPlan),
    End,
    Move(MovePlan),
    Attack(AttackPlan),
    /// A secret placement (Kalavryai special rule 1).
    Place(UnitId, HexCoord),
}

/// The one check of a command: the plan `execute` carries out, or the refusal, with
/// its rule. Reads the world only, so a refused command changes nothing.
pub(crate) fn check(world: &World, command: &Command) -> Result<AlcPlan, Refusal> {
    if let Some(o) = &turn(world).outcome {
        return Err(Refusal::new(
            "AlC 13",
            format!("the game is over: {}", o.reason),
        ));
    }
    match command {
        Command::Ruleset(r) => Err(foreign(format!("command `{}`", r.verb()))),
        Command::Place {
            facing: Some(_), ..
        } => Err(foreign("facing (`place UNIT HEX FACING`)".to_string())),
        Command::Lose { .. }
        | Command::Retreat { .. }
        | Command::Check { .. }
        | Command::Advance { .. } => results::check_decision(world, command).map(AlcPlan::Decision),
        _ if front(world).is_some() => Err(Refusal::new(
            "AlC 12.3",
            format!(
                "combat results must be applied first: {}",
                view::decision(world)
                    .map(|d| d.waiting())
                    .unwrap_or_default()
            ),
        )),
        Command::EndPhase => setup::check_end_phase(world).map(|()| AlcPlan::End),
        Command::Move { unit, path } => movement::check_move(world, unit, path).map(AlcPlan::Move),
        Command::Attack {
            melee,
            fire,
            target,
        } => combat::evaluate(world, melee, fire, *target).map(AlcPlan::Attack),
        Command::Place { unit, hex, .. } => {
            setup::check_place(world, unit, *hex).map(|id| AlcPlan::Place(id, *hex))
        }
    }
}

/// The refusal of a command of another ruleset's grammar.
fn foreign(what: String) -> Refusal {
    Refusal::new(
        "AlC 9",
        format!("A la Charge has no {what}: units move one at a time with `move`"),
    )
}

/// Carries out a checked plan, then the combat results that need no decision.
pub(crate) fn execute(world: &mut World, plan: AlcPlan) {
    match plan {
        AlcPlan::Decision(d) => results::execute_decision(world, d),
        AlcPlan::End => end_phase(world),
        AlcPlan::Move(plan) => movement::execute_move(world, plan),
        AlcPlan::Attack(plan) => combat::execute_attack(world, plan),
        AlcPlan::Place(id, hex) => setup::execute_place(world, id, hex),
    }
    results::process(world);
    refresh_zones(world);
}

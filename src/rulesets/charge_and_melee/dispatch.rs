//! The one dispatch of Charge & mêlée: `check` turns a command into the plan of what it
//! does, or refuses it with its rule (reading the world only: a refused command changes
//! nothing, not even the dice); `execute` carries the plan out, then the game goes on
//! through every phase that waits for no one and the victory conditions are read.

use bevy::prelude::*;

use crate::engine::command::{Command, Refusal, UnitRef};
use crate::engine::units::UnitId;

use super::commands::CmCommand;
use super::movement::{FormPlan, MovePlan};
use super::responses::Response;
use super::results::AfterCharge;
use super::*;

/// What a legal command does, checked and ready to execute.
pub(crate) enum CmPlan {
    End,
    Move(MovePlan),
    Form(FormPlan),
    Shoot(missile::Shot),
    Charge(Declared),
    Respond(UnitId, Response),
    After(AfterCharge),
    Spend(UnitId, UnitId, u8),
    Carry(bool),
    Seek(bool),
    Inspire(UnitId),
}

/// The one check of a command.
pub(crate) fn check(world: &World, command: &Command) -> Result<CmPlan, Refusal> {
    check_first(world, command)?;
    match command {
        Command::EndPhase => match phase(world) {
            CmPhase::Command
            | CmPhase::Movement
            | CmPhase::MissileDeclaration
            | CmPhase::ChargeDeclaration => Ok(CmPlan::End),
            p => Err(Refusal::new(
                "spec B.2 §13",
                format!("the {} ends by itself", p.view().label),
            )),
        },
        Command::Move { unit, path } => movement::check_move(world, unit, path).map(CmPlan::Move),
        Command::Ruleset(_) => match CmCommand::of(command) {
            Some(CmCommand::Form {
                unit,
                formation,
                facing,
                stands,
            }) => movement::check_form(world, unit, *formation, *facing, stands).map(CmPlan::Form),
            Some(CmCommand::Shoot { unit, target }) => {
                missile::check_shoot(world, unit, target).map(CmPlan::Shoot)
            }
            Some(CmCommand::Charge { unit, target }) => {
                charges::check_charge(world, unit, target).map(CmPlan::Charge)
            }
            Some(CmCommand::Respond { unit, response }) => {
                charges::check_respond(world, unit, *response)
                    .map(|id| CmPlan::Respond(id, *response))
            }
            Some(CmCommand::After { unit, choice }) => {
                after::check_after(world, unit, *choice).map(|_| CmPlan::After(*choice))
            }
            Some(CmCommand::Spend { leader, unit, cps }) => {
                command::check_spend(world, leader, unit, *cps)
                    .map(|(l, u, n)| CmPlan::Spend(l, u, n))
            }
            Some(CmCommand::Carry { unit, on }) => {
                carryon::check_carry(world, unit).map(|_| CmPlan::Carry(*on))
            }
            Some(CmCommand::Inspire { leader }) => {
                command::check_inspire(world, leader).map(CmPlan::Inspire)
            }
            Some(CmCommand::Seek { leader, seek }) => {
                personal::check_seek(world, leader).map(|_| CmPlan::Seek(*seek))
            }
            None => Err(Refusal::new(
                "spec B.6",
                format!("Charge & mêlée has no command `{command}`"),
            )),
        },
        Command::Attack { .. } => Err(Refusal::new(
            "C&M 7.2",
            "close combat begins with a charge: `charge UNIT -> TARGET` in the Charge Phase; mêlées are fought by themselves (7.18)",
        )),
        Command::Lose { .. }
        | Command::Retreat { .. }
        | Command::Check { .. }
        | Command::Advance { .. } => Err(Refusal::new(
            "C&M 7.16",
            "the moves after a charge or mêlée are answered with `after UNIT MOVE` when asked",
        )),
        Command::Place { .. } => Err(Refusal::new(
            "spec B.5",
            "C&M scenarios place every unit: there is no set-up to make",
        )),
    }
}

/// `check`'s refusals before the command's own: the game over, a decision waited for,
/// a unit its control test halts or compels.
fn check_first(world: &World, command: &Command) -> Result<(), Refusal> {
    if let Some(o) = &turn(world).outcome {
        return Err(Refusal::new(
            "spec B.2 §14",
            format!("the game is over: {}", o.reason),
        ));
    }
    let answering = matches!(
        CmCommand::of(command),
        Some(
            CmCommand::Respond { .. }
                | CmCommand::After { .. }
                | CmCommand::Carry { .. }
                | CmCommand::Seek { .. }
        )
    );
    if !answering && let Some(d) = super::view::decision(world) {
        return Err(Refusal::new(
            "C&M 7.2",
            format!("waiting for {}", d.waiting()),
        ));
    }
    command::check_controlled(world, command)
}

/// `check` of a move, in two for autoplay's candidate steps: what refuses the unit
/// whatever its path (`check_first`, `movement::may_move`), read once a unit; then each
/// path (`movement::check_path`, or its `path_plan` without the words). `check` of a
/// move is the two in a row.
pub(crate) fn check_mover(world: &World, unit: &UnitRef) -> Result<UnitId, Refusal> {
    let probe = Command::Move {
        unit: unit.clone(),
        path: Vec::new(),
    };
    check_first(world, &probe)?;
    let id = resolve(world, unit)?;
    movement::may_move(world, id)?;
    Ok(id)
}

/// Carries out a checked plan.
pub(crate) fn execute(world: &mut World, plan: CmPlan) {
    match plan {
        CmPlan::End => end_phase(world),
        CmPlan::Move(p) => movement::execute_move(world, p),
        CmPlan::Form(p) => movement::execute_form(world, p),
        CmPlan::Shoot(s) => missile::execute_shoot(world, s),
        CmPlan::Charge(d) => charges::execute_charge(world, d),
        CmPlan::Respond(id, r) => {
            charges::execute_respond(world, id, r);
            advance(world);
        }
        CmPlan::Spend(l, u, n) => command::execute_spend(world, l, u, n),
        CmPlan::Inspire(l) => command::execute_inspire(world, l),
        CmPlan::Seek(yes) => {
            personal::execute_seek(world, yes);
            advance(world);
        }
        CmPlan::Carry(on) => {
            carryon::execute_carry(world, on);
            advance(world);
        }
        CmPlan::After(choice) => {
            after::execute_after(world, choice);
            advance(world);
        }
    }
    victory::check(world);
    if world.resource::<CmState>().decisions.is_empty() {
        return;
    }
    after::show_decider(world);
}

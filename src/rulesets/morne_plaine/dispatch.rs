//! The one dispatch of Morne Plaine: `check` turns a command into the plan of what it
//! does, or refuses it with its rule (reading the world only); `execute` carries the
//! plan out, then updates who holds the objectives and the zones of control. `submit`
//! runs both; the window's previews run `check` alone.

use bevy::prelude::*;

use crate::engine::command::{Command, Refusal};

use super::bombardment::BombardPlan;
use super::combat::AttackPlan;
use super::movement::MovePlan;
use super::*;

/// What a legal command does, checked and ready to execute.
pub(crate) enum MpPlan {
    End,
    Move(MovePlan),
    Bombard(BombardPlan),
    Attack(AttackPlan),
}

/// The one check of a command: the plan `execute` carries out, or the refusal, with
/// its rule. Reads the world only, so a refused command changes nothing.
pub(crate) fn check(world: &World, command: &Command) -> Result<MpPlan, Refusal> {
    if let Some(o) = &turn(world).outcome {
        return Err(Refusal::new(
            "MP victory",
            format!("the game is over: {}", o.reason),
        ));
    }
    match command {
        Command::EndPhase => Ok(MpPlan::End),
        Command::Move { unit, path } => movement::check_move(world, unit, path).map(MpPlan::Move),
        Command::Attack {
            melee,
            fire,
            target,
        } => match phase(world) {
            MpPhase::Bombardment => {
                bombardment::check_bombard(world, melee, fire, *target).map(MpPlan::Bombard)
            }
            _ => combat::evaluate(world, melee, fire, *target).map(MpPlan::Attack),
        },
        Command::Lose { .. }
        | Command::Retreat { .. }
        | Command::Check { .. }
        | Command::Advance { .. } => Err(Refusal::new(
            "MP combat: retreat",
            "the game applies losses, morale checks, retreats and advances itself: the player never chooses them",
        )),
        Command::Place { .. } => Err(Refusal::new(
            "MP set-up",
            "Morne Plaine scenarios place every unit: there is no set-up to make",
        )),
        Command::Ruleset(r) => Err(Refusal::new(
            "MP generalities",
            format!(
                "Morne Plaine has no command `{}`: units move with `move`, artillery fires and units attack with `attack`",
                r.verb()
            ),
        )),
    }
}

/// Carries out a checked plan, then the holding of objectives and the zones.
pub(crate) fn execute(world: &mut World, plan: MpPlan) {
    match plan {
        MpPlan::End => end_phase(world),
        MpPlan::Move(p) => movement::execute_move(world, p),
        MpPlan::Bombard(p) => bombardment::execute_bombard(world, p),
        MpPlan::Attack(p) => combat::execute_attack(world, p),
    }
    victory::update_control(world);
    refresh_zones(world);
}

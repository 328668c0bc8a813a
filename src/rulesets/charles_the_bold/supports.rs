//! Supporting stands in a melee (CtB 10.7): which stands may support a Battle Stand,
//! and the defender's choice of its supports, asked before the dice.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::units::UnitId;
use crate::engine::view::Decision;

use super::commands::CtbCommand;
use super::decision::{Pending, choice};
use super::melee::FightPlan;
use super::{CtbState, facing, hex_of, key, log, plain_name, side_of, state};

/// The stands that may support `battle` against the enemy Battle Stand `enemy` (CtB
/// 10.7): its side's other stands with a front hex on `enemy`, not themselves a Battle
/// Stand of an ongoing melee.
pub fn eligible_supports(world: &World, battle: UnitId, enemy: UnitId) -> Vec<UnitId> {
    let side = side_of(world, battle);
    let Some(target) = hex_of(world, enemy) else {
        return Vec::new();
    };
    // The hex index and roster fetched once: this runs in every melee's check.
    let units = world.res::<crate::engine::units::Units>();
    let board = world.res::<crate::engine::board::Board>();
    let roster = world.resource::<super::CtbRoster>();
    target
        .neighbors()
        .into_iter()
        .filter_map(|h| {
            units
                .at(board, h)
                .iter()
                .copied()
                .find(|u| roster.stand(*u).is_some())
        })
        .filter(|u| *u != battle && units.side(*u) == side)
        .filter(|u| hex_of(world, *u).is_some_and(|h| facing(world, *u).front(h).contains(&target)))
        .filter(|u| !super::in_melee(world, *u))
        .filter(|u| !supports_another_melee(world, *u, battle, enemy))
        .collect()
}

/// Whether a stand supports an ongoing melee other than the one of `battle` against
/// `enemy` and still faces that melee's enemy Battle Stand (CtB 10.7: "only 1 Battle
/// Stand at a time").
fn supports_another_melee(world: &World, u: UnitId, battle: UnitId, enemy: UnitId) -> bool {
    let side = side_of(world, u);
    state(world).melees.iter().any(|m| {
        if m.stands.contains(&battle) && m.stands.contains(&enemy) {
            return false;
        }
        (0..2).any(|i| {
            let foe = m.stands[1 - i];
            side_of(world, m.stands[i]) == side
                && m.supports[i].contains(&u)
                && hex_of(world, u)
                    .zip(hex_of(world, foe))
                    .is_some_and(|(h, fh)| facing(world, u).front(h).contains(&fh))
        })
    })
}

/// Asks the defender which of its eligible stands support its Battle Stand (CtB 10.7:
/// "the rest *may* be supporting stands", and a stand facing two melees supports the
/// one its player decides), unless it has none to choose from or has chosen. Returns
/// whether the melee now waits for that answer.
pub fn ask_defender(world: &mut World, plan: &FightPlan) -> bool {
    if plan.defence_chosen || plan.supports[1].is_empty() {
        return false;
    }
    world
        .resource_mut::<CtbState>()
        .pending
        .push_front(Pending::Supports {
            plan: Box::new(plan.clone()),
        });
    true
}

/// Checks the defender's answer: each stand named is one of those eligible, once.
pub fn check_answer(world: &World, plan: &FightPlan, chosen: &[UnitId]) -> Result<(), Refusal> {
    for (i, u) in chosen.iter().enumerate() {
        if !plan.supports[1].contains(u) {
            return Err(Refusal::new(
                "CtB 10.7",
                format!(
                    "{} cannot support {}: a support has a front hex on the enemy Battle Stand and is in no other melee; it may be {}",
                    plain_name(world, *u),
                    plain_name(world, plan.stands[1]),
                    names(world, &plan.supports[1])
                ),
            ));
        }
        if chosen[..i].contains(u) {
            return Err(Refusal::new(
                "CtB 10.7",
                format!("{} is named twice", plain_name(world, *u)),
            ));
        }
    }
    Ok(())
}

/// The melee with the defender's chosen supports, its pool thrown again from them.
pub fn with_defence(world: &World, mut plan: FightPlan, chosen: Vec<UnitId>) -> FightPlan {
    plan.pools[1] = super::melee::defence_pool(world, &plan, &chosen);
    plan.supports[1] = chosen;
    plan.defence_chosen = true;
    plan
}

/// Logs the defender's choice (CtB 10.7).
pub fn log_choice(world: &mut World, plan: &FightPlan) {
    let (d, chosen) = (plan.stands[1], plan.supports[1].clone());
    log(world, EventKind::Special, "CtB 10.7", |w| {
        if chosen.is_empty() {
            format!("{} fights without support", plain_name(w, d))
        } else {
            format!("{} is supported by {}", plain_name(w, d), names(w, &chosen))
        }
    });
}

fn names(world: &World, ids: &[UnitId]) -> String {
    ids.iter()
        .map(|u| plain_name(world, *u))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The defender's decision (CtB 10.7): every eligible support, none, or each alone
/// (any other set as a typed `support` command).
pub fn decision(world: &World, plan: &FightPlan) -> Decision {
    let eligible = &plan.supports[1];
    let answer = |ids: &[UnitId]| {
        CtbCommand::Support {
            units: ids.iter().map(|u| key(world, *u)).collect(),
        }
        .command()
    };
    let mut choices = vec![choice(
        format!("support with {}", names(world, eligible)),
        answer(eligible),
        hex_of(world, plan.stands[1]),
    )];
    if eligible.len() > 1 {
        for u in eligible {
            choices.push(choice(
                format!("support with {} alone", plain_name(world, *u)),
                answer(&[*u]),
                hex_of(world, *u),
            ));
        }
    }
    choices.push(choice("no support".into(), answer(&[]), None));
    Decision {
        side: side_of(world, plan.stands[1]),
        prompt: format!(
            "{} attacks {}: which stands support it?",
            plain_name(world, plan.stands[0]),
            plain_name(world, plan.stands[1])
        ),
        rule: "CtB 10.7".into(),
        choices,
    }
}

//! The one dispatch of Champs de Bataille: `check` turns a command into the plan of what
//! it does, or refuses it with its rule (reading the world only); `execute` carries the
//! plan out. `submit` runs both; the window's previews run `check` alone.

use bevy::prelude::*;

use crate::engine::board::MapEdge;
use crate::engine::command::{Command, Refusal};
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::combat::CombatPlan;
use super::command_points::KeepPlan;
use super::commands::{CdbCommand, MarchStep};
use super::decision::decision;
use super::deployment_placement::PlacePlan;
use super::movement::MarchPlan;
use super::setup::DismountPlan;
use super::*;

/// What a legal command does, checked and ready to execute.
pub(crate) enum CdbPlan {
    /// Recoil into this rear hex (CdB 11.6).
    Recoil(HexCoord),
    /// This rear unit is destroyed with the unit in front (CdB 11.7).
    RearLoss(UnitId),
    /// The spontaneous advance heads for this enemy (CdB 9.5).
    Towards(UnitId),
    End,
    Assign(Vec<(String, u8)>),
    Keep(KeepPlan),
    March(MarchPlan),
    Missile(CombatPlan),
    Melee(CombatPlan),
    /// A placement of the set-up of CdB 14.3.
    Deploy(PlacePlan),
    /// A secret placement of a scenario's special rule.
    Place(UnitId, HexCoord),
    Edge(MapEdge),
    Plan(Vec<usize>),
    Ambush(UnitId),
    Dismount(DismountPlan),
}

/// Whether a march may be checked at all: the game goes on and no decision waits
/// (the first checks of `check`, which refuse any march otherwise).
pub(crate) fn march_checkable(world: &World) -> bool {
    turn(world).outcome.is_none() && state(world).pending.front().is_none()
}

/// `Command::Place` of one unit in the set-up of CdB 14.3 with the hex-free part of its
/// check made once, for listing or trying many hexes (the window's choices, autoplay):
/// `at` gives the placement `check` accepts at a hex, or `None` where it refuses it.
pub(crate) struct DeployPlacer<'w> {
    unit: UnitRef,
    /// `None` where `check` refuses the unit on every hex.
    check: Option<deployment_placement::PlaceCheck<'w>>,
}

impl<'w> DeployPlacer<'w> {
    pub(crate) fn new(world: &'w World, unit: UnitId) -> Self {
        let unit = crate::rulesets::common::key(world, unit);
        // The first checks of `check`, then the route it takes for a placement.
        let check = (march_checkable(world) && state(world).deploy.is_some())
            .then(|| deployment_placement::PlaceCheck::new(world, &unit).ok())
            .flatten();
        Self { unit, check }
    }

    pub(crate) fn at(&self, world: &World, hex: HexCoord) -> Option<Command> {
        self.check.as_ref()?.hex(world, hex, None).ok()?;
        Some(Command::Place {
            unit: self.unit.clone(),
            hex,
            facing: None,
        })
    }
}

/// The one check of a command: the plan `execute` carries out, or the refusal, with
/// its rule. Reads the world only, so a refused command changes nothing.
pub(crate) fn check(world: &World, command: &Command) -> Result<CdbPlan, Refusal> {
    if let Some(o) = &turn(world).outcome {
        return Err(Refusal::new(
            "CdB 13",
            format!("the game is over: {}", o.reason),
        ));
    }
    if let Some(p) = state(world).pending.front() {
        return match (p, command, CdbCommand::of(command)) {
            (Pending::Recoil { options, .. }, Command::Retreat { path }, _) => {
                if path.len() == 1 && options.contains(&path[0]) {
                    Ok(CdbPlan::Recoil(path[0]))
                } else {
                    Err(Refusal::new(
                        "CdB 11.6",
                        format!("recoil into one rear hex: {}", labels(options)),
                    ))
                }
            }
            (Pending::RearLoss { options, .. }, Command::Lose { units }, _) => {
                let id = resolve(
                    world,
                    units
                        .first()
                        .ok_or_else(|| Refusal::new("CdB 11.7", "name the unit"))?,
                )?;
                if units.len() == 1 && options.contains(&id) {
                    Ok(CdbPlan::RearLoss(id))
                } else {
                    Err(Refusal::new("CdB 11.7", "name one of the two rear units"))
                }
            }
            (Pending::AdvanceTarget { options, .. }, _, Some(CdbCommand::Towards { target })) => {
                let id = resolve(world, target)?;
                if options.contains(&id) {
                    Ok(CdbPlan::Towards(id))
                } else {
                    Err(Refusal::new(
                        "CdB 9.5",
                        format!(
                            "the advance may head for {}",
                            options
                                .iter()
                                .map(|o| name(world, *o))
                                .collect::<Vec<_>>()
                                .join(" or ")
                        ),
                    ))
                }
            }
            _ => Err(Refusal::new(
                match p {
                    Pending::Recoil { .. } => "CdB 11.6",
                    Pending::RearLoss { .. } => "CdB 11.7",
                    Pending::AdvanceTarget { .. } => "CdB 9.5",
                },
                format!(
                    "first: {}",
                    decision(world).map(|d| d.waiting()).unwrap_or_default()
                ),
            )),
        };
    }
    let step = state(world).step;
    match (command, CdbCommand::of(command)) {
        (Command::Retreat { .. } | Command::Lose { .. }, _) => Err(Refusal::new(
            "CdB 11.5",
            "no combat result waits for a decision",
        )),
        (_, Some(CdbCommand::Towards { .. })) => Err(Refusal::new(
            "CdB 9.5",
            "no spontaneous advance waits for the choice of its target",
        )),
        (Command::Check { .. }, _) => Err(Refusal::new(
            "CdB 12",
            "Champs de Bataille has no morale checks of single units: corps are demoralised by their losses",
        )),
        (Command::Advance { .. }, _) => Err(Refusal::new(
            "CdB 11.9",
            "advances after melee are not chosen: impetuous units must advance, others never do",
        )),
        (Command::EndPhase, _) => check_end(world).map(|_| CdbPlan::End),
        (_, Some(CdbCommand::Assign { dice })) => {
            command_points::check_assign(world, dice).map(|_| CdbPlan::Assign(dice.clone()))
        }
        (_, Some(CdbCommand::Keep { units })) => {
            command_points::check_keep(world, units).map(CdbPlan::Keep)
        }
        (Command::Move { unit, path }, _) => {
            let moves = vec![(
                unit.clone(),
                path.iter().map(|h| MarchStep::Hex(*h)).collect(),
            )];
            movement::check_march(world, &moves).map(CdbPlan::March)
        }
        (_, Some(CdbCommand::March { moves })) => {
            movement::check_march(world, moves).map(CdbPlan::March)
        }
        (
            Command::Attack {
                melee,
                fire,
                target,
            },
            _,
        ) => match step {
            CdbPhase::Missile if !fire.is_empty() && melee.is_empty() => {
                missile::check_missile(world, fire, *target).map(CdbPlan::Missile)
            }
            CdbPhase::Melee if fire.is_empty() && melee.len() == 1 => {
                combat::check_melee(world, melee[0], *target).map(CdbPlan::Melee)
            }
            CdbPhase::Melee => Err(Refusal::new(
                "CdB 11.1",
                "a melee is one unit against one enemy: attack HEX -> TARGET (its supports are found by CdB 11.3)",
            )),
            CdbPhase::Missile => Err(Refusal::new(
                "CdB 10",
                "in the missile phase, shoot: attack fire LEAD [SUPPORTS...] -> TARGET",
            )),
            _ => Err(Refusal::new("CdB 3", "combat comes after movement (CdB 3)")),
        },
        (Command::Place { unit, hex, facing }, _) if state(world).deploy.is_some() => {
            deployment_placement::check_place(world, unit, *hex, *facing).map(CdbPlan::Deploy)
        }
        (Command::Place { unit, hex, facing }, _) => {
            setup::check_place(world, unit, *hex, *facing).map(|id| CdbPlan::Place(id, *hex))
        }
        (_, Some(CdbCommand::ChooseEdge { edge })) => {
            deployment::check_edge(world, *edge).map(|_| CdbPlan::Edge(*edge))
        }
        (_, Some(CdbCommand::Plan { corps })) => {
            deployment::check_plan(world, corps).map(CdbPlan::Plan)
        }
        (_, Some(CdbCommand::Ambush { unit })) => {
            deployment::check_ambush(world, unit).map(CdbPlan::Ambush)
        }
        (_, Some(CdbCommand::Dismount { unit, remount })) => {
            setup::check_dismount(world, unit, *remount).map(CdbPlan::Dismount)
        }
        (Command::Ruleset(other), None) => Err(Refusal::new(
            "CdB 3",
            format!("Champs de Bataille has no command `{}`", other.verb()),
        )),
    }
}

/// Carries out a checked plan.
pub(crate) fn execute(world: &mut World, plan: CdbPlan) {
    match plan {
        CdbPlan::Recoil(hex) => results::decide_recoil(world, hex),
        CdbPlan::RearLoss(id) => results::decide_rear_loss(world, id),
        CdbPlan::Towards(id) => {
            morale::decide_advance_target(world, id);
            finish_movement(world);
        }
        CdbPlan::End => end_step(world),
        CdbPlan::Assign(dice) => command_points::execute_assign(world, &dice),
        CdbPlan::Keep(plan) => command_points::execute_keep(world, plan),
        CdbPlan::March(plan) => movement::execute_march(world, plan),
        CdbPlan::Missile(plan) => missile::execute_missile(world, plan),
        CdbPlan::Melee(plan) => combat::execute_melee(world, plan),
        CdbPlan::Deploy(plan) => deployment_placement::execute_place(world, plan),
        CdbPlan::Place(id, hex) => setup::execute_place(world, id, hex),
        CdbPlan::Edge(edge) => deployment::execute_edge(world, edge),
        CdbPlan::Plan(plan) => deployment::execute_plan(world, plan),
        CdbPlan::Ambush(id) => deployment::execute_ambush(world, id),
        CdbPlan::Dismount(plan) => setup::execute_dismount(world, plan),
    }
}

fn labels(hexes: &[HexCoord]) -> String {
    hexes
        .iter()
        .map(|h| h.label())
        .collect::<Vec<_>>()
        .join(" or ")
}

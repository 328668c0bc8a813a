//! Every Charles the Bold command checked (read-only: a plan or a refusal) and then
//! executed: the choice of groups and its reveal, moves, fire, melees, pursuits,
//! rallies and the end of an activation; after each, the armies' break points.

use bevy::prelude::*;

use crate::engine::command::{Command, Refusal};
use crate::engine::event::EventKind;
use crate::engine::units::{SideId, UnitId};

use super::commands::CtbCommand;
use super::decision::Pending;
use super::generals::GeneralPlan;
use super::melee::FightPlan;
use super::moving::MovePlan;
use super::shooting::FirePlan;
use super::{
    CtbPhase, general, group_of, hex_of, log, phase, plain_name, resolve, side_of, stand, state,
    turn,
};

/// A checked command, ready to execute.
#[derive(Clone, Debug)]
pub enum Plan {
    Declare {
        side: SideId,
        group: usize,
    },
    Reveal,
    EndActivation,
    Go(MovePlan),
    Group(super::group::GroupPlan),
    GeneralGo(GeneralPlan),
    Fire(FirePlan),
    Fight(FightPlan),
    Pursue(Option<UnitId>),
    /// The defender's supports (CtB 10.7).
    Supports(Vec<UnitId>),
    /// The owner's choice of where a retreat ends (CtB 12.0, R-retreat).
    Retreat(crate::engine::hex::HexCoord),
    /// A rally: one stand's, or a group recovery's (CtB 8.0, 8.1, R-8.1).
    Rally(Vec<UnitId>),
    /// Evade along the route (some) or stand (none) (CtB 4.0).
    Evasion(Option<Vec<crate::engine::hex::HexCoord>>),
    /// Heavy cavalry bounce (true) or stay (CtB 11.1).
    Bounce(bool),
    /// Defensive fire (true) or none (CtB 6.2).
    Defend(bool),
    /// Supporting fire (true) or none (CtB 6.3).
    Support(bool),
    /// A supporting skirmisher evades instead, along the route (CtB 10.6).
    SupportEvasion(Vec<crate::engine::hex::HexCoord>),
    /// A skirmisher's break-off along the route its owner chose (CtB 10.6).
    BreakOff(Vec<crate::engine::hex::HexCoord>),
    /// An Order Test for opportunity (CtB 5.0, 9.1).
    Opportunity(UnitId),
    /// A general attaches himself to a stand in his hex (CtB 2.1).
    Attach {
        general: UnitId,
        stand: UnitId,
    },
    /// A general ends his attachment to a stand (CtB 2.1, R-2.1).
    Detach {
        general: UnitId,
        stand: UnitId,
    },
    /// A stand on opportunity answers the stand that triggered it (CtB 5.0).
    Answer {
        stand: UnitId,
        trigger: UnitId,
        answer: super::opportunity::Answer,
    },
}

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

/// A stand of the group moving now, acting on its own (CtB 1.4).
fn own_stand(world: &World, id: UnitId) -> Result<(), Refusal> {
    let name = super::Named(world, id);
    if stand(world, id).is_none() {
        return Err(refuse("CtB 1.2", format!("{name} is not a stand")));
    }
    if side_of(world, id) != turn(world).active {
        return Err(refuse("CtB 1.4", format!("{name} is the enemy's")));
    }
    if group_of(world, id) != state(world).activation {
        return Err(refuse(
            "CtB 1.4",
            format!("{name} is not of the group moving now"),
        ));
    }
    Ok(())
}

/// Checks a command against the rules.
pub fn check(world: &World, command: &Command) -> Result<Plan, Refusal> {
    if turn(world).outcome.is_some() || phase(world) == CtbPhase::GameOver {
        return Err(refuse("CtB 14.0", "the battle is over"));
    }
    let ctb = CtbCommand::of(command);
    // A retreat is the owner's to end among equal hexes (CtB 12.0, R-retreat).
    if let Command::Retreat { path } = command {
        return match state(world).pending.front() {
            Some(Pending::Retreat { jobs, options, .. }) => {
                super::retreat::check_answer(world, jobs, options, path).map(Plan::Retreat)
            }
            _ => Err(refuse(
                "CtB 12.0",
                "no retreat waits for its owner's choice",
            )),
        };
    }
    // A decision waiting is answered first (design §1.3).
    if let Some(p) = state(world).pending.front() {
        return match (p, ctb) {
            (Pending::Fight { .. }, Some(CtbCommand::Fight { unit, enemy, with })) => {
                let id = resolve(world, unit)?;
                let e = resolve(world, enemy)?;
                let with = with
                    .iter()
                    .map(|w| resolve(world, w))
                    .collect::<Result<Vec<_>, _>>()?;
                super::melee::check_fight(world, id, e, &with).map(Plan::Fight)
            }
            (Pending::Supports { plan }, Some(CtbCommand::Support { units })) => {
                let chosen = units
                    .iter()
                    .map(|u| resolve(world, u))
                    .collect::<Result<Vec<_>, _>>()?;
                super::supports::check_answer(world, plan, &chosen)?;
                Ok(Plan::Supports(chosen))
            }
            (Pending::Pursue { stand, .. }, Some(CtbCommand::Pursue { unit })) => match unit {
                None => Ok(Plan::Pursue(None)),
                Some(u) if resolve(world, u)? == *stand => Ok(Plan::Pursue(Some(*stand))),
                Some(_) => Err(refuse(
                    "CtB 13.0",
                    format!(
                        "only the winning Battle Stand, {}, pursues",
                        plain_name(world, *stand)
                    ),
                )),
            },
            (Pending::Bounce { stand, .. }, Some(CtbCommand::Bounce { unit })) => match unit {
                None => Ok(Plan::Bounce(false)),
                Some(u) if resolve(world, u)? == *stand => Ok(Plan::Bounce(true)),
                Some(_) => Err(refuse(
                    "CtB 11.1",
                    format!("only {} may bounce", plain_name(world, *stand)),
                )),
            },
            (
                Pending::Evade { .. } | Pending::EvadeFire { .. },
                Some(CtbCommand::Evade { unit, .. } | CtbCommand::Hold { unit }),
            ) => {
                let (stand, attacker) = match p {
                    Pending::EvadeFire { plan } => (plan.target, plan.shooter),
                    Pending::Evade { stand, charger } => (*stand, *charger),
                    _ => unreachable!("matched above"),
                };
                if resolve(world, unit)? != stand {
                    return Err(refuse(
                        "CtB 4.0",
                        format!("the stand asked is {}", plain_name(world, stand)),
                    ));
                }
                match (ctb, hex_of(world, attacker)) {
                    (Some(CtbCommand::Evade { path, .. }), Some(from)) => {
                        super::evasion::chosen_route(world, stand, from, path)
                            .map(|r| Plan::Evasion(Some(r)))
                    }
                    (Some(CtbCommand::Evade { .. }), None) => {
                        Err(refuse("CtB 4.0", "its attacker is no longer on the map"))
                    }
                    _ => Ok(Plan::Evasion(None)),
                }
            }
            (
                Pending::SupportingFire { stand, charger },
                Some(CtbCommand::Evade { unit, path }),
            ) => {
                if resolve(world, unit)? != *stand {
                    return Err(refuse(
                        "CtB 10.6",
                        format!(
                            "the supporting stand asked is {}",
                            plain_name(world, *stand)
                        ),
                    ));
                }
                if super::reactions::support_evasion(world, *stand, *charger).is_none() {
                    return Err(refuse(
                        "CtB 10.6",
                        format!(
                            "{} cannot evade: only skirmishers with somewhere to fall back to",
                            plain_name(world, *stand)
                        ),
                    ));
                }
                let from = hex_of(world, *charger)
                    .ok_or_else(|| refuse("CtB 10.6", "the charger is no longer on the map"))?;
                super::evasion::chosen_route(world, *stand, from, path).map(Plan::SupportEvasion)
            }
            (
                Pending::SupportingFire { stand, charger },
                Some(CtbCommand::React { fire: None }),
            ) if super::reactions::support_must_evade_or_fire(world, *stand, *charger) => {
                Err(refuse(
                    "CtB 10.6",
                    format!(
                        "{} are skirmishers out of cover supporting a charged stand: they must evade (`evade {}`) or fire and die",
                        plain_name(world, *stand),
                        super::key(world, *stand)
                    ),
                ))
            }
            (
                Pending::DefensiveFire { stand, charger }
                | Pending::SupportingFire { stand, charger },
                Some(CtbCommand::React { fire }),
            ) => {
                let supporting = matches!(p, Pending::SupportingFire { .. });
                let answer = |fires| {
                    if supporting {
                        Plan::Support(fires)
                    } else {
                        Plan::Defend(fires)
                    }
                };
                match fire {
                    None => Ok(answer(false)),
                    Some((u, t)) => {
                        if resolve(world, u)? != *stand || resolve(world, t)? != *charger {
                            return Err(refuse(
                                p.rule(),
                                format!(
                                    "{} fire is {}'s, at {}",
                                    if supporting {
                                        "supporting"
                                    } else {
                                        "defensive"
                                    },
                                    plain_name(world, *stand),
                                    plain_name(world, *charger)
                                ),
                            ));
                        }
                        Ok(answer(true))
                    }
                }
            }
            (Pending::BreakOff { stand, enemy }, Some(CtbCommand::Evade { unit, path })) => {
                if resolve(world, unit)? != *stand {
                    return Err(refuse(
                        "CtB 10.6",
                        format!("the stand breaking off is {}", plain_name(world, *stand)),
                    ));
                }
                let from = hex_of(world, *enemy)
                    .ok_or_else(|| refuse("CtB 10.6", "the enemy is no longer on the map"))?;
                super::evasion::chosen_route(world, *stand, from, path).map(Plan::BreakOff)
            }
            (
                Pending::Opportunity { stand, trigger, .. },
                Some(c @ (CtbCommand::React { .. } | CtbCommand::ReactCharge { .. })),
            ) => super::opportunity::check_answer(world, *stand, *trigger, c).map(|answer| {
                Plan::Answer {
                    stand: *stand,
                    trigger: *trigger,
                    answer,
                }
            }),
            _ => {
                let d = super::decision::decision(world).expect("a pending decision");
                Err(refuse(
                    p.rule(),
                    format!("first: {} ({})", d.prompt, d.answers()),
                ))
            }
        };
    }
    match (phase(world), command) {
        (CtbPhase::Declare, Command::EndPhase) => {
            if super::activation::declarer(world).is_none() {
                Ok(Plan::Reveal)
            } else {
                Err(refuse(
                    "CtB 1.4",
                    "both sides choose a group before the initiative is rolled",
                ))
            }
        }
        (CtbPhase::Declare, _) => match ctb {
            Some(CtbCommand::Declare { group }) => {
                let Some(side) = super::activation::declarer(world) else {
                    return Err(refuse(
                        "CtB 1.4",
                        "the groups are chosen: `end` reveals them and rolls the initiative",
                    ));
                };
                let g = state(world)
                    .groups
                    .iter()
                    .position(|x| x.id == *group)
                    .ok_or_else(|| refuse("CtB 1.1", format!("there is no group `{group}`")))?;
                if !super::activation::unmoved_groups(world, side).contains(&g) {
                    return Err(refuse(
                        "CtB 1.4",
                        format!(
                            "`{group}` is not a group of {} that has still to move this round",
                            super::side_name(world, side)
                        ),
                    ));
                }
                Ok(Plan::Declare { side, group: g })
            }
            _ => Err(refuse(
                "CtB 1.4",
                "now each side chooses a group: `declare GROUP`",
            )),
        },
        (CtbPhase::Activation, Command::EndPhase) => {
            super::impetuous::check_end(world)?;
            let group = state(world).activation.expect("an activation");
            // Only a melee that may be fought holds the activation (no deadlock).
            let owed = super::ongoing::owed_ongoing(world, group)
                .into_iter()
                .find(|(own, other)| super::melee::check_fight(world, *own, *other, &[]).is_ok());
            if let Some((own, other)) = &owed {
                return Err(refuse(
                    "CtB 11.3",
                    format!(
                        "the ongoing melee of {} and {} is fought this round before the activation ends (R-ongoing): `fight {} -> {}`",
                        plain_name(world, *own),
                        plain_name(world, *other),
                        super::key(world, *own),
                        super::key(world, *other)
                    ),
                ));
            }
            Ok(Plan::EndActivation)
        }
        // The engine's `move` is a stand's forward `go` along hexes (CtB 3.0).
        (CtbPhase::Activation, Command::Move { unit, path }) => {
            let go = CtbCommand::Go {
                unit: unit.clone(),
                steps: path
                    .iter()
                    .map(|h| super::commands::Step::Hex(*h))
                    .collect(),
                facing: None,
            }
            .command();
            check(world, &go)
        }
        (CtbPhase::Activation, _) => match ctb {
            Some(CtbCommand::Go {
                unit,
                steps,
                facing,
            }) => {
                let id = resolve(world, unit)?;
                if general(world, id).is_some() {
                    if side_of(world, id) != turn(world).active {
                        return Err(refuse("CtB 2.1", "that general is the enemy's"));
                    }
                    if facing.is_some() {
                        return Err(refuse("CtB 2.1", "a general has no facing"));
                    }
                    return super::generals::check_general_go(world, id, steps)
                        .map(Plan::GeneralGo);
                }
                own_stand(world, id)?;
                super::moving::check_go(world, id, steps, *facing).map(Plan::Go)
            }
            Some(CtbCommand::Group { units, path }) => {
                let mut ids = Vec::new();
                for u in units {
                    let id = resolve(world, u)?;
                    own_stand(world, id)?;
                    ids.push(id);
                }
                super::group::check_group(world, &ids, path).map(Plan::Group)
            }
            Some(CtbCommand::Fire {
                unit,
                moving,
                target,
            }) => {
                let id = resolve(world, unit)?;
                own_stand(world, id)?;
                let t = resolve(world, target)?;
                super::shooting::check_fire(world, id, t, *moving).map(Plan::Fire)
            }
            Some(CtbCommand::Fight { unit, enemy, with }) => {
                let id = resolve(world, unit)?;
                own_stand(world, id)?;
                let e = resolve(world, enemy)?;
                let with = with
                    .iter()
                    .map(|w| resolve(world, w))
                    .collect::<Result<Vec<_>, _>>()?;
                super::melee::check_fight(world, id, e, &with).map(Plan::Fight)
            }
            Some(CtbCommand::Rally { units }) => {
                let mut ids = Vec::new();
                for u in units {
                    let id = resolve(world, u)?;
                    own_stand(world, id)?;
                    ids.push(id);
                }
                super::orders::check_rally(world, &ids)?;
                Ok(Plan::Rally(ids))
            }
            Some(CtbCommand::Opportunity { unit }) => {
                let id = resolve(world, unit)?;
                own_stand(world, id)?;
                super::impetuous::check_opportunity(world, id)?;
                Ok(Plan::Opportunity(id))
            }
            Some(CtbCommand::Attach { general }) => {
                let g = super::generals::general_ref(world, general)?;
                super::generals::check_attach(world, g)
                    .map(|stand| Plan::Attach { general: g, stand })
            }
            Some(CtbCommand::Detach { general }) => {
                let g = super::generals::general_ref(world, general)?;
                super::generals::check_detach(world, g)
                    .map(|stand| Plan::Detach { general: g, stand })
            }
            Some(CtbCommand::Declare { .. }) => Err(refuse(
                "CtB 1.4",
                "a group is chosen once this one's activation ends (`end`)",
            )),
            Some(CtbCommand::Pursue { .. }) => Err(refuse("CtB 13.0", "no pursuit waits")),
            Some(CtbCommand::Support { .. }) => {
                Err(refuse("CtB 10.7", "no melee waits for its supports"))
            }
            Some(CtbCommand::Evade { .. } | CtbCommand::Hold { .. }) => {
                Err(refuse("CtB 4.0", "no stand is charged"))
            }
            Some(CtbCommand::React { .. }) => Err(refuse("CtB 6.2", "no reaction waits")),
            Some(CtbCommand::ReactCharge { .. }) => {
                Err(refuse("CtB 5.0", "no stand on opportunity is asked"))
            }
            Some(CtbCommand::Bounce { .. }) => Err(refuse("CtB 11.1", "no bounce waits")),
            None => Err(refuse(
                "CtB 3.0",
                "Charles the Bold moves with `go`, fires with `fire` and fights with `fight`",
            )),
        },
        (CtbPhase::RoundEnd | CtbPhase::GameOver, _) => {
            Err(refuse("CtB 1.4", "the round is ending"))
        }
    }
}

/// Executes a checked command, then looks at the break points (CtB 14.0).
pub fn execute(world: &mut World, plan: Plan) {
    match plan {
        Plan::Declare { side, group } => super::activation::declare(world, side, group),
        Plan::Reveal => super::activation::end_declarations(world),
        Plan::EndActivation => super::activation::end_activation(world),
        Plan::Go(p) => super::moving::execute_go(world, p),
        Plan::Group(p) => super::group::execute_group(world, p),
        Plan::GeneralGo(p) => super::generals::execute_general_go(world, p),
        Plan::Fire(p) => super::shooting::execute_fire(world, p),
        Plan::Fight(p) => super::melee::execute_fight(world, p),
        Plan::Retreat(end) => super::retreat::answer(world, end),
        Plan::Supports(chosen) => {
            if let Some(Pending::Supports { plan }) =
                world.resource_mut::<super::CtbState>().pending.pop_front()
            {
                let plan = super::supports::with_defence(world, *plan, chosen);
                super::supports::log_choice(world, &plan);
                super::melee::execute_fight(world, plan);
            }
        }
        Plan::Pursue(unit) => {
            let Some(Pending::Pursue { stand, from, path }) =
                world.resource_mut::<super::CtbState>().pending.pop_front()
            else {
                return;
            };
            match unit {
                Some(_) => super::results::pursue(world, stand, from, path),
                None => log(world, EventKind::Special, "CtB 13.0", |w| {
                    format!("{} does not pursue", plain_name(w, stand))
                }),
            }
        }
        Plan::Bounce(bounces) => {
            if let Some(Pending::Bounce { stand, from }) =
                world.resource_mut::<super::CtbState>().pending.pop_front()
            {
                super::melee::bounce(world, stand, from, bounces);
            }
        }
        Plan::Evasion(route) => match world.resource_mut::<super::CtbState>().pending.pop_front() {
            Some(Pending::Evade { stand, charger }) => match route {
                Some(path) => super::evasion::evade(world, stand, charger, &path),
                None => super::reactions::hold(world, stand, charger),
            },
            Some(Pending::EvadeFire { plan }) => match route {
                Some(path) => super::evasion::evade_fire(world, &plan, &path),
                None => super::evasion::hold_fire(world, *plan),
            },
            _ => {}
        },
        Plan::Defend(fires) => {
            if let Some(Pending::DefensiveFire { stand, charger }) =
                world.resource_mut::<super::CtbState>().pending.pop_front()
            {
                if fires {
                    super::reactions::defensive_fire(world, stand, charger);
                } else {
                    log(world, EventKind::Special, "CtB 6.2", |w| {
                        format!("{} holds its fire", plain_name(w, stand))
                    });
                    // Holding fire, skirmishers in the open still die (CtB 10.6).
                    super::reactions::skirmishers_in_the_open(world, stand, charger);
                    super::refresh_zones(world);
                }
            }
        }
        Plan::SupportEvasion(path) => {
            if let Some(Pending::SupportingFire { stand, charger }) =
                world.resource_mut::<super::CtbState>().pending.pop_front()
            {
                super::evasion::evade_support(world, stand, charger, &path);
            }
        }
        Plan::BreakOff(path) => {
            if let Some(Pending::BreakOff { stand, enemy }) =
                world.resource_mut::<super::CtbState>().pending.pop_front()
            {
                super::reactions::break_off_along(world, stand, enemy, &path);
                super::reactions::break_offs_done(world);
            }
        }
        Plan::Opportunity(id) => super::impetuous::go_on_opportunity(world, id),
        Plan::Attach { general, stand } => super::generals::attach(world, general, stand),
        Plan::Detach { general, stand } => super::generals::detach(world, general, stand),
        Plan::Answer {
            stand,
            trigger,
            answer,
        } => {
            world.resource_mut::<super::CtbState>().pending.pop_front();
            super::opportunity::answer(world, stand, trigger, answer);
        }
        Plan::Support(fires) => {
            if let Some(Pending::SupportingFire { stand, charger }) =
                world.resource_mut::<super::CtbState>().pending.pop_front()
            {
                if fires {
                    super::reactions::supporting_fire(world, stand, charger);
                } else {
                    log(world, EventKind::Special, "CtB 6.3", |w| {
                        format!("{} holds its supporting fire", plain_name(w, stand))
                    });
                }
            }
        }
        Plan::Rally(ids) => super::orders::execute_rally(world, &ids),
    }
    prune_pending(world);
    super::opportunity::go_on(world);
    super::victory::check_break(world);
}

/// Drops decisions a command has made moot: a melee whose stand, or every enemy it
/// contacted, has left the map or its front, a pursuit whose winner is gone.
fn prune_pending(world: &mut World) {
    let pending: Vec<Pending> = state(world).pending.iter().cloned().collect();
    let kept: Vec<Pending> = pending
        .into_iter()
        .filter_map(|p| match p {
            Pending::Fight {
                stand,
                enemies,
                charge,
            } => {
                let hex = super::hex_of(world, stand)?;
                let front = super::facing(world, stand).front(hex);
                let enemies: Vec<UnitId> = enemies
                    .into_iter()
                    .filter(|e| super::hex_of(world, *e).is_some_and(|h| front.contains(&h)))
                    .collect();
                (!enemies.is_empty()).then_some(Pending::Fight {
                    stand,
                    enemies,
                    charge,
                })
            }
            Pending::Retreat {
                jobs,
                options,
                then,
            } => Some(Pending::Retreat {
                jobs,
                options,
                then,
            }),
            Pending::Supports { plan } => plan
                .stands
                .iter()
                .all(|u| super::hex_of(world, *u).is_some())
                .then_some(Pending::Supports { plan }),
            Pending::Pursue { stand, from, path } => {
                super::hex_of(world, stand)?;
                Some(Pending::Pursue { stand, from, path })
            }
            Pending::Bounce { stand, from } => (super::hex_of(world, stand).is_some()
                && super::in_melee(world, stand)
                && super::hex_of(world, from).is_some())
            .then_some(Pending::Bounce { stand, from }),
            Pending::Evade { stand, charger } => (super::hex_of(world, stand).is_some()
                && super::hex_of(world, charger).is_some())
            .then_some(Pending::Evade { stand, charger }),
            Pending::BreakOff { stand, enemy } => (super::hex_of(world, stand).is_some()
                && super::hex_of(world, enemy).is_some())
            .then_some(Pending::BreakOff { stand, enemy }),
            Pending::EvadeFire { plan } => (super::hex_of(world, plan.target).is_some()
                && super::hex_of(world, plan.shooter).is_some())
            .then_some(Pending::EvadeFire { plan }),
            Pending::DefensiveFire { stand, charger } => (super::hex_of(world, stand).is_some()
                && super::hex_of(world, charger).is_some())
            .then_some(Pending::DefensiveFire { stand, charger }),
            Pending::Opportunity {
                stand,
                trigger,
                fired,
            } => (super::hex_of(world, trigger).is_some()
                && !super::shooting::in_close_combat(world, trigger)
                && super::status(world, stand).opportunity
                && !super::status(world, stand).disordered
                && super::hex_of(world, stand).is_some())
            .then_some(Pending::Opportunity {
                stand,
                trigger,
                fired,
            }),
            Pending::SupportingFire { stand, charger } => (super::hex_of(world, stand).is_some()
                && super::hex_of(world, charger).is_some())
            .then_some(Pending::SupportingFire { stand, charger }),
        })
        .collect();
    // Supporting fire is moot once the charger's melee is (its target evaded, or it
    // fell to the fire before: CtB 6.3).
    let fights: Vec<UnitId> = kept
        .iter()
        .filter_map(|p| match p {
            Pending::Fight { stand, .. } => Some(*stand),
            _ => None,
        })
        .collect();
    let kept: Vec<Pending> = kept
        .into_iter()
        .filter(|p| match p {
            Pending::SupportingFire { charger, .. } => fights.contains(charger),
            _ => true,
        })
        .collect();
    let mut s = world.resource_mut::<super::CtbState>();
    s.pending.clear();
    s.pending.extend(kept);
}

//! What Charles the Bold waits for from a player (design §1.3): a melee to fight after
//! a contact or an ongoing melee's turn, an optional pursuit, and the secret choice of
//! groups with its reveal; each as a `Decision` listing every legal answer.

use bevy::prelude::*;

use crate::engine::command::Command;
use crate::engine::hex::HexCoord;
use crate::engine::units::{SideId, UnitId};
use crate::engine::view::{Choice, Decision};

use super::commands::CtbCommand;
use super::{CtbPhase, hex_of, key, phase, plain_name, side_of, state, turn};

/// A decision the rules wait for, in the order it must be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// `stand` is in contact with `enemies`: its side fights now (CtB 10.2); `charge`
    /// when it moved into contact (impact: CtB 10.3).
    Fight {
        stand: UnitId,
        enemies: Vec<UnitId>,
        charge: bool,
    },
    /// A charged stand may evade its charger (CtB 4.0).
    Evade { stand: UnitId, charger: UnitId },
    /// A stand fired on from its front may evade before the dice (CtB 4.0): the fire
    /// declared, thrown if it stands.
    EvadeFire {
        plan: Box<super::shooting::FirePlan>,
    },
    /// A charged stand may fire defensively at its charger (CtB 6.2).
    DefensiveFire { stand: UnitId, charger: UnitId },
    /// A stand that will support the Battle Stand a charge contacted may fire at the
    /// charger (CtB 6.3).
    SupportingFire { stand: UnitId, charger: UnitId },
    /// Heavy cavalry in an ongoing melee may bounce back or stay (CtB 11.1).
    Bounce { stand: UnitId, from: UnitId },
    /// A stand on opportunity may answer `trigger`, which came at it (its move stopped
    /// there) or fired on it from its front (`fired`) (CtB 5.0).
    Opportunity {
        stand: UnitId,
        trigger: UnitId,
        fired: bool,
    },
    /// The defender chooses which of its eligible stands support its Battle Stand in
    /// the melee `plan`, checked and waiting for its dice (CtB 10.7, R-10.7).
    Supports { plan: Box<super::melee::FightPlan> },
    /// A stand's retreat may end in several equally preferred hexes: its owner
    /// chooses (CtB 12.0, R-retreat); `jobs` are the retreats still to make, the first
    /// the one asked, and `then` the pursuit owed once they are made.
    Retreat {
        jobs: Vec<super::retreat::RetreatJob>,
        options: Vec<super::retreat::Course>,
        then: Option<super::retreat::PursuitAfter>,
    },
    /// Skirmishers that begin their activation with `enemy` in front must break off
    /// (CtB 10.6); with more than one hex to fall back to, their owner chooses.
    BreakOff { stand: UnitId, enemy: UnitId },
    /// The winner may pursue (CtB 13.0): from the hex the loser left, along its way.
    Pursue {
        stand: UnitId,
        from: HexCoord,
        path: Vec<HexCoord>,
    },
}

impl Pending {
    /// Whether a stand is part of it (it may not fire meanwhile: CtB 6.0).
    pub fn involves(&self, id: UnitId) -> bool {
        match self {
            Pending::Fight { stand, enemies, .. } => *stand == id || enemies.contains(&id),
            Pending::Pursue { stand, .. } | Pending::Bounce { stand, .. } => *stand == id,
            Pending::Supports { plan } => {
                plan.stands.contains(&id) || plan.supports.iter().any(|s| s.contains(&id))
            }
            Pending::Retreat { jobs, then, .. } => {
                jobs.iter().any(|j| j.stand == id) || then.as_ref().is_some_and(|t| t.winner == id)
            }
            Pending::Evade { stand, charger }
            | Pending::DefensiveFire { stand, charger }
            | Pending::SupportingFire { stand, charger } => *stand == id || *charger == id,
            Pending::EvadeFire { plan } => plan.target == id || plan.shooter == id,
            // No melee yet: a stand on opportunity may fire at its trigger (CtB 5.0).
            Pending::Opportunity { .. } => false,
            Pending::BreakOff { stand, enemy } => *stand == id || *enemy == id,
        }
    }

    /// The section that asks for it, for the refusal of any other command meanwhile.
    pub fn rule(&self) -> &'static str {
        match self {
            Pending::Fight { .. } => "CtB 10.2",
            Pending::Evade { .. } | Pending::EvadeFire { .. } => "CtB 4.0",
            Pending::DefensiveFire { .. } => "CtB 6.2",
            Pending::SupportingFire { .. } => "CtB 6.3",
            Pending::Bounce { .. } => "CtB 11.1",
            Pending::Pursue { .. } => "CtB 13.0",
            Pending::Supports { .. } => "CtB 10.7",
            Pending::Retreat { .. } => "CtB 12.0",
            Pending::Opportunity { .. } => "CtB 5.0",
            Pending::BreakOff { .. } => "CtB 10.6",
        }
    }

    /// The side that answers it.
    pub fn side(&self, world: &World) -> SideId {
        match self {
            Pending::Fight { stand, .. }
            | Pending::Pursue { stand, .. }
            | Pending::Bounce { stand, .. }
            | Pending::Evade { stand, .. }
            | Pending::DefensiveFire { stand, .. }
            | Pending::SupportingFire { stand, .. }
            | Pending::Opportunity { stand, .. }
            | Pending::BreakOff { stand, .. } => side_of(world, *stand),
            Pending::Supports { plan } => side_of(world, plan.stands[1]),
            Pending::EvadeFire { plan } => side_of(world, plan.target),
            Pending::Retreat { jobs, .. } => side_of(world, jobs[0].stand),
        }
    }
}

/// Skirmishers destroyed without fighting (CtB 10.6: "If hit in the flank or rear by a
/// battle stand they will be destroyed without fighting"; pushed through, "Sk who do not
/// evade are automatically destroyed") are no enemy of a melee: `id` leaves every
/// melee waiting, and a melee left with no enemy is not fought (CtB 10.2), nor the
/// supporting fire at its charger (CtB 6.3). Else the rules would demand a melee that
/// no `fight` may answer: the moot melees are pruned after each command, but not those
/// of a move that goes on once its opportunity reactions are answered (CtB 5.0).
pub(crate) fn forget_destroyed(world: &mut World, id: UnitId) {
    let mut s = world.resource_mut::<super::CtbState>();
    let mut moot: Vec<UnitId> = Vec::new();
    for p in s.pending.iter_mut() {
        if let Pending::Fight { stand, enemies, .. } = p {
            enemies.retain(|e| *e != id);
            if enemies.is_empty() || *stand == id {
                moot.push(*stand);
            }
        }
    }
    if moot.is_empty() {
        return;
    }
    s.pending.retain(|p| match p {
        Pending::Fight { stand, .. } => !moot.contains(stand),
        Pending::SupportingFire { charger, .. } => !moot.contains(charger),
        _ => true,
    });
}

/// The melees waiting together at the head of the queue, with their places: a group's
/// contacts, fought in the order the player chooses (CtB 3.8, A1).
pub fn waiting_fights(world: &World) -> Vec<(usize, Pending)> {
    state(world)
        .pending
        .iter()
        .take_while(|p| matches!(p, Pending::Fight { .. }))
        .cloned()
        .enumerate()
        .collect()
}

pub(crate) fn choice(label: String, command: Command, hex: Option<HexCoord>) -> Choice {
    Choice {
        label,
        command,
        hex,
    }
}

/// The answers to defensive or supporting fire (CtB 6.2, 6.3): fire at the charger, or
/// hold it.
fn fire_choices(world: &World, stand: UnitId, charger: UnitId) -> Vec<Choice> {
    vec![
        choice(
            "fire".into(),
            CtbCommand::React {
                fire: Some((key(world, stand), key(world, charger))),
            }
            .command(),
            hex_of(world, charger),
        ),
        choice(
            "hold fire".into(),
            CtbCommand::React { fire: None }.command(),
            None,
        ),
    ]
}

/// The decision waiting, if any: a pending melee or pursuit first, else the choice of
/// a group (CtB 1.4).
pub fn decision(world: &World) -> Option<Decision> {
    // Nothing is asked once the battle is over (a pursuit the break left unanswered).
    if turn(world).outcome.is_some() {
        return None;
    }
    if let Some(p) = state(world).pending.front() {
        return Some(match p {
            Pending::Fight { stand, .. } => {
                // A group's melees wait together; their player picks the order (A1).
                let fights = waiting_fights(world);
                let several = fights.len() > 1;
                let mut choices: Vec<Choice> = Vec::new();
                let mut clicked: Vec<HexCoord> = Vec::new();
                for (_, f) in &fights {
                    let Pending::Fight {
                        stand: own,
                        enemies,
                        ..
                    } = f
                    else {
                        continue;
                    };
                    let who = if several {
                        format!("{}: ", plain_name(world, *own))
                    } else {
                        String::new()
                    };
                    for e in &super::melee::battle_candidates(world, *own, enemies) {
                        let supports = super::supports::eligible_supports(world, *own, *e);
                        // A click on the enemy fights with every support (the first
                        // melee offered against it); the others are picked in the dialog.
                        let mut click = |world: &World| {
                            let h = hex_of(world, *e).filter(|h| !clicked.contains(h));
                            if let Some(h) = h {
                                clicked.push(h);
                            }
                            h
                        };
                        let bare = CtbCommand::Fight {
                            unit: key(world, *own),
                            enemy: key(world, *e),
                            with: Vec::new(),
                        };
                        let bare_hex = if supports.is_empty() {
                            click(world)
                        } else {
                            None
                        };
                        choices.push(choice(
                            format!("{who}fight {}", plain_name(world, *e)),
                            bare.command(),
                            bare_hex,
                        ));
                        if !supports.is_empty() {
                            let full = CtbCommand::Fight {
                                unit: key(world, *own),
                                enemy: key(world, *e),
                                with: supports.iter().map(|s| key(world, *s)).collect(),
                            };
                            let h = click(world);
                            choices.push(choice(
                                format!("{who}fight {} with every support", plain_name(world, *e)),
                                full.command(),
                                h,
                            ));
                        }
                    }
                }
                let prompt = if several {
                    let names: Vec<String> = fights
                        .iter()
                        .filter_map(|(_, f)| match f {
                            Pending::Fight { stand, .. } => Some(plain_name(world, *stand)),
                            _ => None,
                        })
                        .collect();
                    format!(
                        "{} are in contact: fight their melees, one Battle Stand for each enemy stand, in the order you choose",
                        names.join(", ")
                    )
                } else {
                    format!(
                        "{} is in contact: fight the melee",
                        plain_name(world, *stand)
                    )
                };
                Decision {
                    side: side_of(world, *stand),
                    prompt,
                    rule: "CtB 10.2".into(),
                    choices,
                }
            }
            Pending::Evade { stand, charger } => Decision {
                side: side_of(world, *stand),
                prompt: format!(
                    "{} is charged by {}: evade or stand",
                    plain_name(world, *stand),
                    plain_name(world, *charger)
                ),
                rule: "CtB 4.0".into(),
                choices: super::evasion::choices(world, *stand, *charger),
            },
            Pending::EvadeFire { plan } => Decision {
                side: side_of(world, plan.target),
                prompt: format!(
                    "{} is fired on by {}: evade before the dice, or stand",
                    plain_name(world, plan.target),
                    plain_name(world, plan.shooter)
                ),
                rule: "CtB 4.0".into(),
                choices: super::evasion::choices(world, plan.target, plan.shooter),
            },
            Pending::DefensiveFire { stand, charger } => Decision {
                side: side_of(world, *stand),
                prompt: format!(
                    "{} is charged by {}: defensive fire?",
                    plain_name(world, *stand),
                    plain_name(world, *charger)
                ),
                rule: "CtB 6.2".into(),
                choices: fire_choices(world, *stand, *charger),
            },
            Pending::SupportingFire { stand, charger } => Decision {
                side: side_of(world, *stand),
                prompt: format!(
                    "{} charges the stand {} supports: supporting fire?",
                    plain_name(world, *charger),
                    plain_name(world, *stand)
                ),
                rule: "CtB 6.3".into(),
                choices: {
                    // Skirmishers out of cover supporting a charged stand must evade,
                    // or fire and die (CtB 10.6).
                    // Evading, they may end in any hex an evasion may (CtB 4.0), the
                    // default first.
                    let mut c = fire_choices(world, *stand, *charger);
                    if super::reactions::support_evasion(world, *stand, *charger).is_some() {
                        c.extend(super::evasion::fall_back_choices(
                            world, *stand, *charger, "evade to",
                        ));
                    }
                    if super::reactions::support_must_evade_or_fire(world, *stand, *charger) {
                        c.retain(|x| x.label != "hold fire");
                    }
                    c
                },
            },
            Pending::Bounce { stand, from } => Decision {
                side: side_of(world, *stand),
                prompt: format!(
                    "{} is locked with {}: bounce back or stay in contact",
                    plain_name(world, *stand),
                    plain_name(world, *from)
                ),
                rule: "CtB 11.1".into(),
                choices: vec![
                    choice(
                        "bounce".into(),
                        CtbCommand::Bounce {
                            unit: Some(key(world, *stand)),
                        }
                        .command(),
                        hex_of(world, *stand),
                    ),
                    choice(
                        "stay".into(),
                        CtbCommand::Bounce { unit: None }.command(),
                        None,
                    ),
                ],
            },
            Pending::Opportunity {
                stand,
                trigger,
                fired,
            } => Decision {
                side: side_of(world, *stand),
                prompt: format!(
                    "{} is on opportunity: {} {}. Charge it, fire at it or let it be",
                    plain_name(world, *stand),
                    plain_name(world, *trigger),
                    if *fired {
                        "fired on it from its front"
                    } else {
                        "comes at it"
                    }
                ),
                rule: "CtB 5.0".into(),
                choices: super::opportunity::choices(world, *stand, *trigger),
            },
            Pending::BreakOff { stand, enemy } => Decision {
                side: side_of(world, *stand),
                prompt: format!(
                    "{} must break off from {}: choose where it falls back",
                    plain_name(world, *stand),
                    plain_name(world, *enemy)
                ),
                rule: "CtB 10.6".into(),
                choices: super::evasion::fall_back_choices(world, *stand, *enemy, "break off to"),
            },
            Pending::Supports { plan } => super::supports::decision(world, plan),
            Pending::Retreat { jobs, options, .. } => {
                super::retreat::decision(world, jobs, options)
            }
            Pending::Pursue { stand, from, .. } => Decision {
                side: side_of(world, *stand),
                prompt: format!("{} has won: pursue?", plain_name(world, *stand)),
                rule: "CtB 13.0".into(),
                choices: vec![
                    choice(
                        "pursue".into(),
                        CtbCommand::Pursue {
                            unit: Some(key(world, *stand)),
                        }
                        .command(),
                        Some(*from),
                    ),
                    choice(
                        "stay".into(),
                        CtbCommand::Pursue { unit: None }.command(),
                        None,
                    ),
                ],
            },
        });
    }
    if phase(world) != CtbPhase::Declare {
        return None;
    }
    let s = state(world);
    let Some(side) = super::activation::declarer(world) else {
        // The choices are made: the last to choose reveals them (no extra hand-over).
        let first = turn(world).first;
        let side = if s.declared[first.other().0 as usize].is_some() {
            first.other()
        } else {
            first
        };
        return Some(Decision {
            side,
            prompt: "The groups are chosen: reveal them and roll the initiative".into(),
            rule: "CtB 1.4".into(),
            choices: vec![choice("reveal".into(), Command::EndPhase, None)],
        });
    };
    let choices = super::activation::unmoved_groups(world, side)
        .into_iter()
        .map(|g| {
            let grp = &s.groups[g];
            choice(
                grp.name.clone(),
                CtbCommand::Declare {
                    group: grp.id.clone(),
                }
                .command(),
                hex_of(world, grp.general),
            )
        })
        .collect();
    Some(Decision {
        side,
        prompt: "Choose the group to move next (in secret)".into(),
        rule: "CtB 1.4".into(),
        choices,
    })
}

//! The decisions Champs de Bataille waits for, as the window offers them, each with
//! every legal answer: recoils and rear losses (CdB 11.6, 11.7), the target of a
//! spontaneous advance (9.5), the regular generals' dice (4.1), a secret placement and
//! the stages of the set-up (14.3).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::command::{Command, UnitRef};

use super::commands::CdbCommand;

use crate::engine::view::{Choice, Decision, word_list};

use super::view::check;
use super::*;
use crate::rulesets::common::key;

pub fn decision(world: &World) -> Option<Decision> {
    let st = state(world);
    match st.pending.front() {
        Some(Pending::Recoil {
            unit,
            options,
            flee,
            ..
        }) => Some(Decision {
            side: side_of(world, *unit),
            prompt: format!(
                "{} {} into one of its rear hexes",
                name(world, *unit),
                if *flee {
                    "flees, recoiling first"
                } else {
                    "recoils"
                }
            ),
            rule: if *flee {
                "CdB 11.8".into()
            } else {
                "CdB 11.6".into()
            },
            choices: options
                .iter()
                .map(|h| Choice {
                    label: format!("recoil to {h}"),
                    command: Command::Retreat { path: vec![*h] },
                    hex: Some(*h),
                })
                .collect(),
        }),
        Some(Pending::AdvanceTarget { unit: u, options }) => Some(Decision {
            side: side_of(world, *u),
            prompt: format!(
                "{} is out of control and advances: choose the enemy it heads for: {}",
                name(world, *u),
                options
                    .iter()
                    .map(|t| name(world, *t))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            rule: "CdB 9.5".into(),
            choices: options
                .iter()
                .map(|t| Choice {
                    label: format!("towards {}", name(world, *t)),
                    command: CdbCommand::Towards {
                        target: UnitRef::Hex(hex_of(world, *t).expect("on the map")),
                    }
                    .command(),
                    hex: hex_of(world, *t),
                })
                .collect(),
        }),
        Some(Pending::RearLoss {
            side,
            options,
            effect,
            ..
        }) => Some(Decision {
            side: *side,
            prompt: format!(
                "{}: {}",
                match effect {
                    RearEffect::Destroyed => {
                        "one of the two units behind the destroyed unit is destroyed with it"
                    }
                    RearEffect::RecoilsOrFlees => {
                        "one of the two enemy units behind the fallen elephant recoils (foot) or flees (mounted)"
                    }
                    RearEffect::DestroyedAndOtherRecoilsOrFlees => {
                        "one of the two enemy units behind the fallen elephant is destroyed, the other recoils or flees: choose the one destroyed"
                    }
                },
                options
                    .iter()
                    .map(|u| name(world, *u))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            rule: "CdB 11.7".into(),
            choices: options
                .iter()
                .map(|u| Choice {
                    label: match effect {
                        RearEffect::RecoilsOrFlees if kind(world, *u).is_mounted() => {
                            format!("{} flees", name(world, *u))
                        }
                        RearEffect::RecoilsOrFlees => format!("{} recoils", name(world, *u)),
                        _ => format!("destroy {}", name(world, *u)),
                    },
                    command: Command::Lose {
                        units: vec![key(world, *u)],
                    },
                    hex: hex_of(world, *u),
                })
                .collect(),
        }),
        None if st.step == CdbPhase::Command && !st.unassigned.is_empty() => {
            let side = sequence_side(world);
            let corps: Vec<&Corps> = st
                .corps
                .iter()
                .filter(|c| c.side == side && c.die.is_none() && c.regular && !c.allied)
                .collect();
            let mut choices = Vec::new();
            // The dice each corps would get, already tried: equal dice make the same
            // assignment more than once, checked once.
            let mut tried: Vec<Vec<u8>> = Vec::new();
            permute(
                &st.unassigned,
                &mut Vec::new(),
                &mut vec![false; st.unassigned.len()],
                &mut |perm| {
                    let given = &perm[..corps.len().min(perm.len())];
                    if tried.iter().any(|t| t.as_slice() == given) {
                        return;
                    }
                    tried.push(given.to_vec());
                    let dice: Vec<(String, u8)> = corps
                        .iter()
                        .zip(perm)
                        .map(|(c, d)| (c.id.clone(), *d))
                        .collect();
                    let command = CdbCommand::Assign { dice: dice.clone() }.command();
                    if check(world, &command).is_ok()
                        && !choices.iter().any(|c: &Choice| c.command == command)
                    {
                        choices.push(Choice {
                            label: dice
                                .iter()
                                .map(|(c, d)| format!("{c}: {d}"))
                                .collect::<Vec<_>>()
                                .join(", "),
                            command,
                            hex: None,
                        });
                    }
                },
            );
            Some(Decision {
                side,
                prompt: format!(
                    "assign the dice {} to the corps of {}, one each",
                    word_list(
                        &st.unassigned.iter().map(u8::to_string).collect::<Vec<_>>(),
                        "and"
                    ),
                    word_list(
                        &corps.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
                        "and"
                    )
                ),
                rule: "CdB 4.1".into(),
                choices,
            })
        }
        None if st.step == CdbPhase::Setup && st.deploy.is_some() => deployment_decision(world),
        None if st.step == CdbPhase::Setup => {
            let side = turn(world).active;
            let Some((u, zone)) = st.hidden_zones.iter().find(|(u, _)| {
                side_of(world, *u) == side && placement(world, *u) == Placement::Waiting
            }) else {
                return Some(end_of_setup(world, side));
            };
            let board = world.res::<Board>();
            let choices = board
                .hexes()
                .filter(|h| zone.contains(*h))
                .filter_map(|h| {
                    let command = Command::Place {
                        unit: key(world, *u),
                        hex: h,
                        facing: None,
                    };
                    check(world, &command).is_ok().then(|| Choice {
                        label: format!("place at {h}"),
                        command,
                        hex: Some(h),
                    })
                })
                .collect();
            Some(Decision {
                side,
                prompt: format!(
                    "place {} in secret in its zone (columns {:02}-{:02}, rows {:02}-{:02})",
                    name(world, *u),
                    zone.min_col,
                    zone.max_col,
                    zone.min_row,
                    zone.max_row
                ),
                rule: "CdB 14.3".into(),
                choices,
            })
        }
        None => None,
    }
}

/// The scenario's set-up once its secret units are placed: the units that may choose to
/// fight mounted or on foot do so (CdB 2.7), then the side ends it.
fn end_of_setup(world: &World, side: SideId) -> Decision {
    let mut choices = vec![Choice {
        label: "end the set-up".into(),
        command: Command::EndPhase,
        hex: None,
    }];
    for (u, _) in &state(world).dismount {
        if side_of(world, *u) != side {
            continue;
        }
        let e = entity(world, *u);
        choices.extend(super::view::unit_actions(world, e));
    }
    let prompt = if choices.len() > 1 {
        "choose which units fight mounted or on foot (CdB 2.7, scenario rules), then end the set-up"
    } else {
        "every unit set up in secret is placed: end the set-up"
    };
    Decision {
        side,
        prompt: prompt.into(),
        rule: "CdB 14.3".into(),
        choices,
    }
}

/// What the set-up of CdB 14.3 waits for, with every answer the window offers: the
/// edge, the written placement, the hexes for the next unit, or the end of the stage.
fn deployment_decision(world: &World) -> Option<Decision> {
    use deployment::Stage;
    let st = state(world);
    let d = st.deploy.as_ref()?;
    let side = turn(world).active;
    let end = |label: &str| Choice {
        label: label.to_string(),
        command: Command::EndPhase,
        hex: None,
    };
    let mut choices = Vec::new();
    let (prompt, rule) = match d.stage {
        Stage::Edge if d.edge_rolled => {
            choices.push(end("hand over to the defender"));
            let defender = turn(world).active.other();
            let edge_of = |s: SideId| st.edges[s.0 as usize].map_or("?", |e| e.name());
            (
                format!(
                    "the map edges are settled ({} {}, {} {}): hand over to {}, who places his baggage first",
                    side_name(world, side),
                    edge_of(side),
                    side_name(world, defender),
                    edge_of(defender),
                    side_name(world, defender)
                ),
                "CdB 14.3.2",
            )
        }
        Stage::Edge => {
            let board = world.res::<Board>();
            for e in deployment::long_edges(board) {
                choices.push(Choice {
                    label: format!(
                        "the {} edge (1-4: {}, 5-6: {})",
                        e.name(),
                        e.name(),
                        e.opposite().name()
                    ),
                    command: CdbCommand::ChooseEdge { edge: e }.command(),
                    hex: None,
                });
            }
            (
                "choose the map edge to set up on: a die of 1-4 keeps it, 5-6 gives you the other"
                    .to_string(),
                "CdB 14.3.2",
            )
        }
        Stage::Plan if d.plan[side.0 as usize].is_none() => {
            let mine: Vec<u8> = st
                .corps
                .iter()
                .enumerate()
                .filter(|(_, c)| c.side == side)
                .map(|(i, _)| i as u8)
                .collect();
            permute(
                &mine,
                &mut Vec::new(),
                &mut vec![false; mine.len()],
                &mut |order| {
                    let ids: Vec<String> = order
                        .iter()
                        .map(|c| st.corps[*c as usize].id.clone())
                        .collect();
                    choices.push(Choice {
                        label: format!(
                            "from left to right: {}",
                            order
                                .iter()
                                .map(|c| st.corps[*c as usize].name.clone())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        command: CdbCommand::Plan { corps: ids }.command(),
                        hex: None,
                    });
                },
            );
            (
                "write down, in secret, your corps from left to right as seen from your map edge"
                    .to_string(),
                "CdB 14.3.3",
            )
        }
        _ => match deployment::next_to_place(world) {
            Some(u) => {
                let board = world.res::<Board>();
                // Only hexes near the own edge can take baggage or a corps.
                let edge = st.edges[side.0 as usize];
                let reach = match d.stage {
                    Stage::Baggage => 1,
                    Stage::Corps => d
                        .distances
                        .other
                        .max(d.distances.defender_main)
                        .max(d.distances.attacker_main),
                    _ => i32::MAX,
                };
                // The unit's own checks once, then each hex's (the same answers as
                // `check` of each placement).
                let placer = super::dispatch::DeployPlacer::new(world, u);
                for h in board
                    .hexes()
                    .filter(|h| edge.is_none_or(|e| deployment::from_edge(board, e, *h) <= reach))
                {
                    if let Some(command) = placer.at(world, h) {
                        choices.push(Choice {
                            label: format!("place at {h}"),
                            command,
                            hex: Some(h),
                        });
                    }
                }
                let what = match d.stage {
                    Stage::Baggage => "on a hex along your map edge",
                    Stage::Plan => "in ambush, in secret",
                    _ => "with its corps",
                };
                (
                    format!("place {} {what}", name(world, u)),
                    if d.stage == Stage::Corps {
                        "CdB 14.3.4"
                    } else if d.stage == Stage::Plan {
                        "CdB 14.3.3"
                    } else {
                        "CdB 14.3.2"
                    },
                )
            }
            None if d.stage == Stage::Plan => {
                for u in deployment::waiting(world, side, |u| kind(world, u) != Kind::Bag) {
                    let command = CdbCommand::Ambush {
                        unit: key(world, u),
                    }
                    .command();
                    if check(world, &command).is_ok() {
                        choices.push(Choice {
                            label: format!("set {} ({}) in ambush", name(world, u), key(world, u)),
                            command,
                            hex: None,
                        });
                    }
                }
                choices.insert(0, end("no more ambushes: hand over"));
                (
                    format!(
                        "placement written ({}): set units in ambush, or hand over to {}",
                        deployment::plan_text(world, side).unwrap_or_default(),
                        side_name(world, side.other())
                    ),
                    "CdB 14.3.3",
                )
            }
            None => {
                choices.push(end("done: hand over"));
                (
                    "every unit of this stage is placed: end it".to_string(),
                    "CdB 14.3",
                )
            }
        },
    };
    Some(Decision {
        side,
        prompt,
        rule: rule.into(),
        choices,
    })
}

fn permute(items: &[u8], cur: &mut Vec<u8>, used: &mut Vec<bool>, f: &mut impl FnMut(&[u8])) {
    if cur.len() == items.len() {
        f(cur);
        return;
    }
    for i in 0..items.len() {
        if !used[i] {
            used[i] = true;
            cur.push(items[i]);
            permute(items, cur, used, f);
            cur.pop();
            used[i] = false;
        }
    }
}

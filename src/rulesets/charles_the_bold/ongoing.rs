//! Ongoing melees between activations (CtB 10.5, 11.3, 11.4): a stand locked on its
//! flank turning to face, the melees a group owes this round, a victor touching a
//! locked enemy, and a support pulled out into a battle of its own.

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::units::UnitId;

use super::{CtbState, acts, facing, hex_of, log, plain_name, side_of, state};

/// At its activation, a stand of the group in an ongoing melee with its flank or rear
/// to the enemy Battle Stand, and no enemy in its front, turns to face it, free and
/// without disorder (CtB 10.5).
pub fn turn_to_face(world: &mut World, group: usize) {
    let melees = state(world).melees.clone();
    for m in melees {
        for (i, &u) in m.stands.iter().enumerate() {
            let other = m.stands[1 - i];
            if super::group_of(world, u) != Some(group) {
                continue;
            }
            let (Some(h), Some(oh)) = (hex_of(world, u), hex_of(world, other)) else {
                continue;
            };
            let f = facing(world, u);
            let side = side_of(world, u);
            if f.front(h).contains(&oh)
                || !super::moving::enemies_in_front(world, side, h, f).is_empty()
            {
                continue;
            }
            let turns = |to: crate::engine::hex::VertexFacing| {
                let d = (i32::from(to.0) - i32::from(f.0)).rem_euclid(6);
                d.min(6 - d)
            };
            let Some(to) = crate::engine::hex::VertexFacing::all()
                .into_iter()
                .filter(|v| v.front(h).contains(&oh))
                .min_by_key(|v| (turns(*v), v.0))
            else {
                continue;
            };
            super::set_facing(world, u, to);
            log(world, EventKind::Special, "CtB 10.5", |w| {
                format!(
                    "{} turns to face {}, facing {} (free, no disorder)",
                    plain_name(w, u),
                    plain_name(w, other),
                    to.name()
                )
            });
        }
    }
    super::refresh_zones(world);
}

/// The ongoing melees a group's stands owe this round (CtB 11.3, R-ongoing): each of its
/// Battle Stands locked with an enemy one, neither having fought this round, as (ours,
/// theirs). Its player fights them with `fight` when he chooses in the activation;
/// `end` waits for them.
pub fn owed_ongoing(world: &World, group: usize) -> Vec<(UnitId, UnitId)> {
    state(world)
        .melees
        .iter()
        .filter_map(|m| {
            let i = m
                .stands
                .iter()
                .position(|s| super::group_of(world, *s) == Some(group))?;
            let (own, other) = (m.stands[i], m.stands[1 - i]);
            (!m.stands.iter().any(|s| acts(world, *s).fought)).then_some((own, other))
        })
        .collect()
}

/// A stand that supported an ongoing melee and is now a Battle Stand of another leaves
/// that support (CtB 11.4: contacted alone, "it will pull the support stand out of its
/// current battle and start a new battle with the support stand as the new Battle
/// Stand"; 10.7: a support supports one Battle Stand at a time).
pub fn pull_out_supports(world: &mut World, stands: [UnitId; 2]) {
    for id in stands {
        let supported = state(world)
            .melees
            .iter()
            .find(|m| !m.stands.contains(&id) && m.supports.iter().any(|s| s.contains(&id)))
            .map(|m| m.stands);
        let Some([x, y]) = supported else {
            continue;
        };
        for m in world.resource_mut::<CtbState>().melees.iter_mut() {
            for s in &mut m.supports {
                s.retain(|u| *u != id);
            }
        }
        log(world, EventKind::Special, "CtB 11.4", |w| {
            format!(
                "{} is pulled out of the melee of {} and {} it supported: a new battle, it the Battle Stand",
                plain_name(w, id),
                plain_name(w, x),
                plain_name(w, y)
            )
        });
    }
}

/// An enemy Battle Stand in one of `id`'s front hexes that is locked in an ongoing melee
/// with another stand of its side (CtB 11.4).
pub fn locked_enemy_in_front(world: &World, id: UnitId) -> Option<UnitId> {
    let side = side_of(world, id);
    let hex = hex_of(world, id)?;
    super::moving::enemies_in_front(world, side, hex, facing(world, id))
        .into_iter()
        .find(|e| {
            state(world).melees.iter().any(|m| {
                m.stands.contains(e)
                    && m.stands
                        .iter()
                        .any(|s| *s != id && side_of(world, *s) == side)
            })
        })
}

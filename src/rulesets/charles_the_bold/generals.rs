//! Generals in the game (CtB 2.1, 2.2): a general's own move once a round, and a
//! general sent to his group's nearest stand when an enemy enters his hex or his stand
//! falls without him attached.

use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, UnitId};

use super::commands::Step;
use super::{
    CtbGeneral, general, hex_of, log, plain_name, set_placement, side_of, stand_at, state,
};

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

/// A checked move of a general (CtB 2.1).
#[derive(Clone, Debug)]
pub struct GeneralPlan {
    pub general: UnitId,
    pub path: Vec<HexCoord>,
}

/// A general alone in a hex an enemy enters, or whose stand is destroyed without him
/// attached, goes to the nearest stand of his group (CtB 2.1, 2.2; ties to the lowest
/// id: ).
pub fn displace_general(world: &mut World, g: UnitId) {
    let Some(group) = general(world, g).map(|c| c.group) else {
        return;
    };
    let Some(from) = hex_of(world, g) else {
        return;
    };
    let nearest = super::group_stands(world, group)
        .into_iter()
        .filter_map(|s| hex_of(world, s).map(|h| (from.distance(h), s, h)))
        .min_by_key(|(d, s, _)| (*d, *s));
    super::component_mut::<CtbGeneral>(world, g).attached = None;
    match nearest {
        Some((_, _, h)) => {
            set_placement(world, g, Placement::OnMap(h));
            log(world, EventKind::Displaced, "CtB 2.1", |w| {
                format!(
                    "{} rides to the nearest stand of his group, in {h}",
                    plain_name(w, g)
                )
            });
        }
        None => {
            set_placement(world, g, Placement::Eliminated);
            log(world, EventKind::Eliminated, "CtB 2.1", |w| {
                format!(
                    "{} has no stand of his group left: he leaves the field",
                    plain_name(w, g)
                )
            });
        }
    }
}

/// Checks a general's move (CtB 2.1): once a round, in his group's activation, up to
/// 6 hexes, never into an enemy stand's hex.
pub fn check_general_go(world: &World, g: UnitId, steps: &[Step]) -> Result<GeneralPlan, Refusal> {
    let c = general(world, g).expect("a general");
    let name = plain_name(world, g);
    if state(world).activation != Some(c.group) {
        return Err(refuse(
            "CtB 2.1",
            format!("{name} moves in his group's activation"),
        ));
    }
    if c.moved {
        return Err(refuse(
            "CtB 2.1",
            format!("{name} has made his move this round"),
        ));
    }
    let limit = super::tables(world).orders.general_move;
    let mut pos =
        hex_of(world, g).ok_or_else(|| refuse("CtB 2.1", format!("{name} is not on the map")))?;
    let side = side_of(world, g);
    let mut path = Vec::new();
    for s in steps {
        let Step::Hex(h) = *s else {
            return Err(refuse(
                "CtB 2.1",
                "a general has no facing: give hexes only",
            ));
        };
        if !pos.is_adjacent(h) || !world.resource::<Board>().contains(h) {
            return Err(refuse(
                "CtB 2.1",
                format!("{h} is not next to {pos} on the map"),
            ));
        }
        if stand_at(world, h).is_some_and(|u| side_of(world, u) != side) {
            return Err(refuse("CtB 2.1", format!("{h} holds an enemy stand")));
        }
        pos = h;
        path.push(h);
    }
    if path.is_empty() || path.len() as u32 > limit {
        return Err(refuse(
            "CtB 2.1",
            format!("a general moves 1 to {limit} hexes, not {}", path.len()),
        ));
    }
    Ok(GeneralPlan { general: g, path })
}

/// Carries out a general's move; ending with a stand of his group he is attached to it
/// (CtB 2.1 "join a stand … moving with it", designer's reading: joining attaches).
pub fn execute_general_go(world: &mut World, plan: GeneralPlan) {
    let g = plan.general;
    let from = hex_of(world, g).expect("on the map");
    let end = *plan.path.last().expect("checked: not empty");
    set_placement(world, g, Placement::OnMap(end));
    let group = general(world, g).map(|c| c.group);
    let with = stand_at(world, end).filter(|s| super::group_of(world, *s) == group);
    {
        let mut c = super::component_mut::<CtbGeneral>(world, g);
        c.moved = true;
        c.attached = with;
    }
    log(world, EventKind::Moved, "CtB 2.1", |w| {
        let joined = with.map_or(String::new(), |s| {
            format!(", attached to {}", plain_name(w, s))
        });
        format!("{} rides {from} → {end}{joined}", plain_name(w, g))
    });
}

//! Generals in the game (CtB 2.1, 2.2): a general's own move once a round, his
//! attachment to the stand in his hex and its end (`attach`, `detach`), and a general
//! sent to his group's nearest stand when an enemy enters his hex or his stand falls
//! without him attached.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::{Refusal, UnitRef};
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
/// id: ); `rule` is the section that sends him.
pub fn displace_general(world: &mut World, g: UnitId, rule: &'static str) {
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
            log(world, EventKind::Displaced, rule, |w| {
                format!(
                    "{} rides to the nearest stand of his group, in {h}",
                    plain_name(w, g)
                )
            });
        }
        None => {
            set_placement(world, g, Placement::Eliminated);
            log(world, EventKind::Eliminated, rule, |w| {
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
        if !pos.is_adjacent(h) || !world.res::<Board>().contains(h) {
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

// ---- attaching and detaching (CtB 2.1) ----

/// The general a command names: by id, or by his hex (where a stand may stand too:
/// the general of the side moving now in that hex).
pub fn general_ref(world: &World, unit: &UnitRef) -> Result<UnitId, Refusal> {
    let id = match unit {
        UnitRef::Hex(h) => {
            let active = super::turn(world).active;
            super::generals_at(world, *h)
                .into_iter()
                .min_by_key(|g| (side_of(world, *g) != active, *g))
                .ok_or_else(|| refuse("CtB 2.1", format!("there is no general in {h}")))?
        }
        UnitRef::Key(_) => super::resolve(world, unit)?,
    };
    if general(world, id).is_none() {
        return Err(refuse(
            "CtB 2.1",
            format!("{} is not a general", plain_name(world, id)),
        ));
    }
    Ok(id)
}

/// What attaching and detaching both need (CtB 2.1, R-2.1): the general is of the
/// side moving now, in his group's activation, on the map.
fn in_his_activation(world: &World, g: UnitId) -> Result<HexCoord, Refusal> {
    let c = general(world, g).expect("a general");
    let name = plain_name(world, g);
    if side_of(world, g) != super::turn(world).active {
        return Err(refuse("CtB 2.1", format!("{name} is the enemy's")));
    }
    if state(world).activation != Some(c.group) {
        return Err(refuse(
            "CtB 2.1",
            format!("{name} attaches or detaches himself in his group's activation (R-2.1)"),
        ));
    }
    hex_of(world, g).ok_or_else(|| refuse("CtB 2.1", format!("{name} is not on the map")))
}

/// Checks `attach GENERAL` (CtB 2.1: "A commander in the same hex as a stand can
/// declare himself attached to that stand"): a stand of his own group in his hex, not
/// the one he is attached to already. It is a declaration, not a move: it does not
/// spend his move of the round. Returns the stand.
pub fn check_attach(world: &World, g: UnitId) -> Result<UnitId, Refusal> {
    let at = in_his_activation(world, g)?;
    let c = general(world, g).expect("a general");
    let name = plain_name(world, g);
    let Some(s) = stand_at(world, at) else {
        return Err(refuse(
            "CtB 2.1",
            format!(
                "there is no stand in {name}'s hex, {at}: a commander attaches to a stand in his hex"
            ),
        ));
    };
    if side_of(world, s) != side_of(world, g) {
        return Err(refuse(
            "CtB 2.1",
            format!("{} is the enemy's", plain_name(world, s)),
        ));
    }
    if super::group_of(world, s) != Some(c.group) {
        return Err(refuse(
            "CtB 2.1",
            format!(
                "{} is not of {name}'s command: a commander attaches to a stand of his group",
                plain_name(world, s)
            ),
        ));
    }
    if c.attached == Some(s) {
        return Err(refuse(
            "CtB 2.1",
            format!("{name} is attached to {} already", plain_name(world, s)),
        ));
    }
    Ok(s)
}

/// Checks `detach GENERAL` (CtB 2.1, R-2.1): he is attached. Returns the stand.
pub fn check_detach(world: &World, g: UnitId) -> Result<UnitId, Refusal> {
    in_his_activation(world, g)?;
    general(world, g)
        .expect("a general")
        .attached
        .ok_or_else(|| {
            refuse(
                "CtB 2.1",
                format!("{} is not attached to a stand", plain_name(world, g)),
            )
        })
}

/// A general attaches himself to a stand in his hex (CtB 2.1): he moves with it as
/// many times as it moves, gives its Order Tests and Morale Tests +1 (CtB 2.2, 8.1),
/// and dies with it (CtB 2.2). His own move of the round is not spent.
pub fn attach(world: &mut World, g: UnitId, s: UnitId) {
    super::component_mut::<CtbGeneral>(world, g).attached = Some(s);
    log(world, EventKind::Special, "CtB 2.1", |w| {
        format!(
            "{} attaches himself to {}: he moves with it, and falls with it (CtB 2.2)",
            plain_name(w, g),
            plain_name(w, s)
        )
    });
}

/// A general ends his attachment (CtB 2.1, R-2.1): he stays in the hex when the stand
/// moves, and rides to his group's nearest stand if it is destroyed (CtB 2.2).
pub fn detach(world: &mut World, g: UnitId, s: UnitId) {
    super::component_mut::<CtbGeneral>(world, g).attached = None;
    log(world, EventKind::Special, "CtB 2.1", |w| {
        format!(
            "{} detaches himself from {}: he stays in {} when it moves",
            plain_name(w, g),
            plain_name(w, s),
            hex_of(w, g).map_or_else(|| "his hex".into(), |h| h.to_string())
        )
    });
}

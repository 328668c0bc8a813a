//! Group moves in the game (CtB 3.8, R-3.8): the check that stands side by side with one
//! facing may move straight forward together, each step legal for each stand, and the
//! move itself with its one Order Test, its moves queued behind an opportunity stop, and
//! its reactions put before its melees.

use bevy::prelude::*;

use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::commands::Step;
use super::decision::Pending;
use super::moving::{MovePlan, check_go, execute_go};
use super::{CtbState, acts_mut, facing, hex_of, log, plain_name, stand, state};

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

/// A checked group move (CtB 3.8, R-3.8): each stand's own move, all taking the same
/// steps, and whether they are an extra move (one Order Test for them all).
#[derive(Clone, Debug)]
pub struct GroupPlan {
    pub members: Vec<MovePlan>,
    pub extra: bool,
}

/// Whether hexes make one body, each joined to the others through neighbours
/// a group stands side by side).
pub(crate) fn one_body(hexes: &[HexCoord]) -> bool {
    let Some(&first) = hexes.first() else {
        return true;
    };
    let mut joined = vec![first];
    let mut grew = true;
    while grew {
        grew = false;
        for h in hexes {
            if !joined.contains(h) && joined.iter().any(|j| j.is_adjacent(*h)) {
                joined.push(*h);
                grew = true;
            }
        }
    }
    joined.len() == hexes.len()
}

/// Checks a group move (CtB 3.8, R-3.8): stands of the moving group, side by side in
/// one body with one facing, moving straight forward together through the hexes the
/// first one takes (turning is stand by stand), each step legal for each stand under
/// every rule of its own move (so the slowest sets the pace), none entering a hex
/// another leaves or enters, all on the same move of the round.
pub fn check_group(world: &World, ids: &[UnitId], path: &[HexCoord]) -> Result<GroupPlan, Refusal> {
    let lead = ids[0];
    for (i, id) in ids.iter().enumerate() {
        if ids[..i].contains(id) {
            return Err(refuse(
                "CtB 3.8",
                format!("{} is named twice", plain_name(world, *id)),
            ));
        }
        if stand(world, *id).is_none() || hex_of(world, *id).is_none() {
            return Err(refuse(
                "CtB 3.8",
                format!("{} is not a stand on the map", plain_name(world, *id)),
            ));
        }
    }
    let face = facing(world, lead);
    if let Some(other) = ids.iter().find(|id| facing(world, **id) != face) {
        return Err(refuse(
            "CtB 3.8",
            format!(
                "a group moves with one facing (R-3.8): {} faces {}, {} faces {}",
                plain_name(world, lead),
                face.name(),
                plain_name(world, *other),
                facing(world, *other).name()
            ),
        ));
    }
    let starts: Vec<HexCoord> = ids
        .iter()
        .map(|id| hex_of(world, *id).expect("on the map"))
        .collect();
    if !one_body(&starts) {
        return Err(refuse(
            "CtB 3.8",
            "a group moves as one body: its stands stand side by side (R-3.8)",
        ));
    }
    let mut dirs = Vec::new();
    let mut pos = starts[0];
    for &h in path {
        let Some(d) = pos.direction_to(h) else {
            return Err(refuse("CtB 3.0", format!("{h} is not next to {pos}")));
        };
        if !face.front_dirs().contains(&d) {
            return Err(refuse(
                "CtB 3.8",
                format!(
                    "a group moves straight forward into its front hexes, turning stand by stand (R-3.8): {h} is not in front of {pos}"
                ),
            ));
        }
        dirs.push(d);
        pos = h;
    }
    let entered: Vec<Vec<HexCoord>> = starts
        .iter()
        .map(|start| {
            let mut h = *start;
            dirs.iter()
                .map(|d| {
                    h = h.neighbor(*d);
                    h
                })
                .collect()
        })
        .collect();
    for (i, hexes) in entered.iter().enumerate() {
        for (j, other) in entered.iter().enumerate() {
            if i != j && hexes.iter().any(|h| other.contains(h) || *h == starts[j]) {
                return Err(refuse(
                    "CtB 3.8",
                    format!(
                        "a group moves abreast (R-3.8): {} would enter a hex {} holds or enters; move them one by one",
                        plain_name(world, ids[i]),
                        plain_name(world, ids[j])
                    ),
                ));
            }
        }
    }
    let mut members = Vec::new();
    for (id, hexes) in ids.iter().zip(&entered) {
        let steps: Vec<Step> = hexes.iter().map(|h| Step::Hex(*h)).collect();
        let plan = check_go(world, *id, &steps, None).map_err(|r| {
            Refusal::new(
                r.rule,
                format!(
                    "in the group move, {}: {}",
                    plain_name(world, *id),
                    r.reason
                ),
            )
        })?;
        // A stand pushes through skirmishers on a move of its own (R-10.6-push): their
        // answer stops it, and a group moves abreast.
        if plan.pushing {
            return Err(refuse(
                "CtB 10.6",
                format!(
                    "in the group move, {} would push through enemy skirmishers: move it alone",
                    plain_name(world, *id)
                ),
            ));
        }
        members.push(plan);
    }
    let extra = members[0].extra;
    if members.iter().any(|m| m.extra != extra) {
        return Err(refuse(
            "CtB 3.8",
            "the stands have made different numbers of moves this round: move them one by one (R-3.8)",
        ));
    }
    Ok(GroupPlan { members, extra })
}

/// Carries out a group move (CtB 3.8, R-3.8): one Order Test for an extra move (a
/// failure disorders every stand and ends their movement: CtB 3.3), then each stand's
/// move in turn; a move stopped by an opportunity reaction leaves the others' moves
/// queued, made once the reactions are answered (CtB 5.0). The reactions the contacts
/// offer come before any of the melees, which the player fights in the order he
/// chooses (A1).
pub fn execute_group(world: &mut World, plan: GroupPlan) {
    let ids: Vec<UnitId> = plan.members.iter().map(|m| m.stand).collect();
    if plan.extra && !super::orders::group_order_test_in_game(world, &ids, "CtB 3.3") {
        for id in &ids {
            super::disorder(world, *id);
            acts_mut(world, *id).stopped = true;
        }
        log(world, EventKind::Special, "CtB 3.3", |w| {
            let names: Vec<String> = ids.iter().map(|id| plain_name(w, *id)).collect();
            format!(
                "{} fail their group's Order Test for an extra move: disordered, they move no more this round",
                names.join(", ")
            )
        });
        return;
    }
    log(world, EventKind::Moved, "CtB 3.8", |w| {
        let names: Vec<String> = ids.iter().map(|id| plain_name(w, *id)).collect();
        format!("{} move together", names.join(", "))
    });
    for mut member in plan.members {
        member.extra = false;
        if state(world).suspended.is_some() {
            let at = hex_of(world, member.stand).expect("on the map");
            world
                .resource_mut::<CtbState>()
                .queued
                .push(super::opportunity::Suspended {
                    mover: member.stand,
                    at,
                    steps: member.steps,
                    facing: None,
                    moved: false,
                    tested: true,
                });
        } else {
            execute_go(world, member);
        }
    }
    if state(world).suspended.is_none() {
        reactions_first(world);
    }
}

/// Puts the reactions a group's contacts offer before all its melees (CtB 4.0, 6.2,
/// 6.3 come before the fight; A1: the melees are then fought in the order chosen).
pub fn reactions_first(world: &mut World) {
    let mut s = world.resource_mut::<CtbState>();
    let all: Vec<Pending> = s.pending.iter().cloned().collect();
    let (fights, others): (Vec<Pending>, Vec<Pending>) = all
        .into_iter()
        .partition(|p| matches!(p, Pending::Fight { .. }));
    s.pending.clear();
    s.pending.extend(others);
    s.pending.extend(fights);
}

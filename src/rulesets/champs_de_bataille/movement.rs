//! Movement (CdB 9) with facing (6), zones of control (7) and stacking (8): a march
//! of one unit or a group, checked one movement point at a time for every unit, with
//! its action-point cost (4.2) and the strategic-movement limits (9.3). Which units
//! may form a group, stack or pass through friends is in `stacking.rs`.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::command::{Refusal, UnitRef};

use super::commands::MarchStep;
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{Hidden, Placement, UnitId};

use super::command_points::pay;
use super::*;

/// One unit, or a stack moving as one unit (CdB 8.1), in a march.
#[derive(Clone, Debug)]
pub(crate) struct Body {
    pub units: Vec<UnitId>,
    pub start: HexCoord,
    pub start_facing: VertexFacing,
    pub hex: HexCoord,
    pub facing: VertexFacing,
    pub steps: Vec<MarchStep>,
    pub spent: i32,
    pub allowance: i32,
    pub hexes: u32,
    pub path: Vec<HexCoord>,
    pub stopped: bool,
    pub turned_vertices: i32,
    /// Joins a friendly unit as its rear rank (or front rank when backing in).
    pub joins: Option<(UnitId, u8)>,
    /// Leaves its stack partner behind (front rank advancing alone, rear rank backing).
    pub leaves: Option<UnitId>,
    pub went_forward: bool,
    pub went_back: bool,
}

/// A march, checked: where everything ends and what it costs.
#[derive(Clone, Debug)]
pub(crate) struct MarchPlan {
    pub corps: usize,
    pub bodies: Vec<Body>,
    pub cost: i32,
    pub cost_lines: Vec<String>,
    pub impulse: u8,
    pub came_near: bool,
}

pub(crate) fn check_march(
    world: &World,
    moves: &[(UnitRef, Vec<MarchStep>)],
) -> Result<MarchPlan, Refusal> {
    let (ctx, mut s) = super::march::begin(world, moves)?;
    let max_len = s.bodies.iter().map(|b| b.steps.len()).max().unwrap_or(0);
    while s.k < max_len {
        ctx.point(&mut s)?;
    }
    ctx.finish(s)
}

/// The number of steps of the longest prefix of one unit's `steps` that
/// `check_march` accepts, 0 if none: the march begun once and each step checked once
/// as a hex passed through, the prefixes' ends then checked from the longest down
/// (autoplay; the same answer as checking each prefix from the longest down).
pub(crate) fn longest_legal_prefix(world: &World, who: UnitRef, steps: Vec<MarchStep>) -> usize {
    let len = steps.len();
    let moves = [(who, steps)];
    let Ok((ctx, mut s)) = super::march::begin(world, &moves) else {
        return 0;
    };
    // `before[k]`: the march checked to point k, each step as passed through.
    let mut before = Vec::with_capacity(len);
    while s.k < len {
        before.push(s.clone());
        if ctx.point_then(&mut s, true).is_err() {
            break;
        }
    }
    for mut s in before.into_iter().rev() {
        let n = s.k + 1;
        s.bodies[0].steps.truncate(n);
        if ctx.point(&mut s).is_ok() && ctx.weigh(&s).is_ok() {
            return n;
        }
    }
    0
}

/// A unit's movement allowance now: mounted infantry more than four hexes from the
/// enemy move as Cv(I) or camels (I), 4 MP (CdB 2.8).
pub(crate) fn movement_allowance(world: &World, u: UnitId) -> i32 {
    let p = unit(world, u).p;
    match (p.mounted_infantry, hex_of(world, u)) {
        (Some(_), Some(h)) if nearest_enemy_distance(world, side_of(world, u), h) > 4 => 4,
        _ => p.mp,
    }
}

pub(crate) fn facing_name(f: VertexFacing) -> &'static str {
    ["NNE", "E", "SSE", "SSW", "W", "NNW"][f.0 as usize % 6]
}

pub(crate) fn parse_facing(s: &str) -> Option<VertexFacing> {
    ["NNE", "E", "SSE", "SSW", "W", "NNW"]
        .iter()
        .position(|n| n.eq_ignore_ascii_case(s))
        .map(|i| VertexFacing(i as u8))
}

pub(crate) fn execute_march(world: &mut World, plan: MarchPlan) {
    let all: Vec<UnitId> = plan.bodies.iter().flat_map(|b| b.units.clone()).collect();
    let extra = pay(world, plan.corps, &all, plan.cost);
    let cost = plan.cost;
    let lines = plan.cost_lines.clone();
    log(world, EventKind::Special, "CdB 4.2", |w| {
        format!(
            "{} corps spends {cost} PA ({}){}, {}",
            possessive(&w.res::<CdbState>().corps[plan.corps].name),
            lines.join(", "),
            command_points::paid_by_cinc(extra),
            command_points::left_text(w, plan.corps)
        )
    });
    for b in &plan.bodies {
        if let Some(partner) = b.leaves {
            // The partner left behind fights alone now (CdB 8.1).
            flags_mut(world, partner).rank = 0;
        }
        for (i, u) in b.units.iter().enumerate() {
            set_placement(world, *u, Placement::OnMap(b.hex));
            set_facing(world, *u, b.facing);
            let mut f = flags_mut(world, *u);
            f.rank = i as u8;
            f.hexes_moved += b.hexes;
            f.moved = true;
            f.impulses = plan.impulse;
            f.came_near |= plan.came_near;
        }
        if let Some((occ, rank)) = b.joins {
            flags_mut(world, b.units[0]).rank = rank;
            flags_mut(world, occ).rank = 1 - rank;
        }
        let hidden = b.units.iter().any(|u| is_hidden(world, *u));
        if hidden {
            for u in &b.units {
                let e = entity(world, *u);
                world.entity_mut(e).remove::<Hidden>();
            }
            let u0 = b.units[0];
            log(world, EventKind::Revealed, "CdB 14.3", |w| {
                format!("{} leaves its ambush", name(w, u0))
            });
        }
        let (u0, path, start, facing0, facing1) = (
            b.units[0],
            b.path.clone(),
            b.start,
            b.start_facing,
            b.facing,
        );
        log(world, EventKind::Moved, "CdB 9", |w| {
            let mut text = format!("{} moves from {start}", name(w, u0));
            if !path.is_empty() {
                text.push_str(&format!(
                    " through {}",
                    path.iter().map(|h| h.label()).collect::<Vec<_>>().join(" ")
                ));
            }
            if facing0 != facing1 {
                text.push_str(&format!(", now facing {}", facing_name(facing1)));
            }
            text
        });
    }
    after_movement(world, &all);
}

/// What a move changes beyond the movers: ambushers seen, allies roused (CdB 4.3, 14.3).
pub(crate) fn after_movement(world: &mut World, movers: &[UnitId]) {
    super::setup::reveal_seen(world);
    let side = side_of(world, movers[0]);
    for c in 0..state(world).corps.len() {
        if state(world).corps[c].side == side || state(world).corps[c].unreliable != Some(true) {
            continue;
        }
        let touched = all_units(world).into_iter().any(|u| {
            unit(world, u).corps as usize == c
                && hex_of(world, u).is_some_and(|h| {
                    movers
                        .iter()
                        .any(|m| hex_of(world, *m).is_some_and(|mh| mh.is_adjacent(h)))
                })
        });
        if touched {
            command_points::set_reliable(world, c, "an enemy unit moved next to one of its units");
        }
    }
}

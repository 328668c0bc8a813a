//! The window's move options found by checking every path as a command from its start
//! (`movement::check_march`), as they were before the step-by-step search of
//! `view::move_options`: the reference the tests hold the fast search to.

use bevy::prelude::*;

use crate::engine::command::{Refusal, UnitRef};
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::UnitId;
use crate::engine::view::MoveOption;

use super::commands::{CdbCommand, MarchStep};
use super::*;

fn unit_id(world: &World, e: Entity) -> Option<UnitId> {
    world.get::<UnitId>(e).copied()
}

/// Single-unit marches: forward or rearward hex by hex, after at most one turn.
pub fn move_options_by_checks(world: &World, e: Entity) -> Result<Vec<MoveOption>, Refusal> {
    let Some(id) = unit_id(world, e) else {
        return Err(Refusal::new("CdB 2", "not a unit"));
    };
    if state(world).step != CdbPhase::Movement {
        return Err(Refusal::new("CdB 3", "units move in their movement phase"));
    }
    let who =
        UnitRef::Hex(hex_of(world, id).ok_or_else(|| Refusal::new("CdB 9", "not on the map"))?);
    let mut out: Vec<MoveOption> = Vec::new();
    let mut frontier: Vec<Vec<MarchStep>> =
        vec![vec![], vec![MarchStep::Turn(1)], vec![MarchStep::Turn(-1)]];
    let mut first_refusal = None;
    let mut explored = 0;
    // Paths that reach the same hex with the same facing and allowance (broken terrain
    // lowers it), as cheaply, have the same future: only the first is extended (a
    // march is forward only or rearward only).
    let mut reached: std::collections::HashMap<(HexCoord, VertexFacing, bool, i32), i32> =
        std::collections::HashMap::new();
    let mut passing: std::collections::HashSet<(HexCoord, VertexFacing, usize)> =
        std::collections::HashSet::new();
    while let Some(steps) = frontier.pop() {
        explored += 1;
        if explored > 400 {
            break;
        }
        let (at, f) = super::view::simulate(world, id, &steps);
        let mut nexts = f.front(at).to_vec();
        nexts.extend(f.rear(at));
        for n in nexts {
            let mut s2 = steps.clone();
            s2.push(MarchStep::Hex(n));
            let moves = vec![(who.clone(), s2.clone())];
            match movement::check_march(world, &moves) {
                Ok(plan) => {
                    let b = &plan.bodies[0];
                    if !out.iter().any(|o| o.hex == n) {
                        out.push(MoveOption {
                            hex: n,
                            cost: b.spent,
                            left: b.allowance - b.spent,
                            per_mp: 1,
                            path: b.path.clone(),
                            command: CdbCommand::March { moves }.command(),
                            note: super::view::cost_note(&plan),
                        });
                    }
                    let state = (n, b.facing, b.went_back, b.allowance);
                    let better = reached.get(&state).is_none_or(|old| b.spent < *old);
                    if better {
                        reached.insert(state, b.spent);
                    }
                    if better && !b.stopped && b.spent < b.allowance {
                        frontier.insert(0, s2);
                    }
                }
                Err(r) => {
                    if r.reason.contains("not stop there") {
                        let (_, f2) = super::view::simulate(world, id, &s2);
                        if passing.insert((n, f2, s2.len())) {
                            frontier.insert(0, s2);
                        }
                    } else if first_refusal.is_none() {
                        first_refusal = Some(r);
                    }
                }
            }
        }
    }
    if out.is_empty() {
        return Err(first_refusal.unwrap_or_else(|| Refusal::new("CdB 9", "no legal move")));
    }
    Ok(out)
}

/// A group's marches (CdB 9.4): every unit takes the steps its leader takes, in the
/// same directions, after at most one turn of every unit together.
pub fn group_move_options_by_checks(
    world: &World,
    units: &[UnitId],
) -> Result<Vec<MoveOption>, Refusal> {
    if state(world).step != CdbPhase::Movement {
        return Err(Refusal::new("CdB 3", "units move in their movement phase"));
    }
    let lead = *units
        .first()
        .ok_or_else(|| Refusal::new("CdB 5", "an empty group"))?;
    let start = hex_of(world, lead).ok_or_else(|| Refusal::new("CdB 9", "not on the map"))?;
    stacking::check_is_group(world, units)?;
    let mut out: Vec<MoveOption> = Vec::new();
    let mut first_refusal = None;
    for turn in [0i8, 1, -1] {
        let f0 = crate::engine::hex::VertexFacing(
            ((facing(world, lead).0 as i32 + turn as i32).rem_euclid(6)) as u8,
        );
        for dir in f0.front_dirs() {
            for len in 1..=unit(world, lead).p.mp.max(1) as usize {
                // Front units first, so no unit steps into a hex still held.
                let mut far = start;
                for _ in 0..40 {
                    far = far.neighbor(dir);
                }
                let mut order: Vec<UnitId> = units.to_vec();
                order.sort_by_key(|u| (hex_of(world, *u).map_or(0, |h| h.distance(far)), *u));
                let moves: Vec<(UnitRef, Vec<MarchStep>)> = order
                    .iter()
                    .map(|u| {
                        let mut h = hex_of(world, *u).expect("on the map");
                        let mut steps = Vec::new();
                        if turn != 0 {
                            steps.push(MarchStep::Turn(turn));
                        }
                        for _ in 0..len {
                            h = h.neighbor(dir);
                            steps.push(MarchStep::Hex(h));
                        }
                        (key(world, *u), steps)
                    })
                    .collect();
                match movement::check_march(world, &moves) {
                    Ok(plan) => {
                        let b = plan
                            .bodies
                            .iter()
                            .find(|b| b.units.contains(&lead))
                            .expect("the leader moves");
                        if !out.iter().any(|o| o.hex == b.hex) {
                            out.push(MoveOption {
                                hex: b.hex,
                                cost: b.spent,
                                left: b.allowance - b.spent,
                                per_mp: 1,
                                path: b.path.clone(),
                                note: super::view::cost_note(&plan),
                                command: CdbCommand::March { moves }.command(),
                            });
                        }
                    }
                    Err(r) => {
                        let passing = r.reason.contains("not stop there");
                        if first_refusal.is_none() {
                            first_refusal = Some(r);
                        }
                        if !passing {
                            break;
                        }
                    }
                }
            }
        }
    }
    if out.is_empty() {
        return Err(
            first_refusal.unwrap_or_else(|| Refusal::new("CdB 9.4", "the group cannot move"))
        );
    }
    Ok(out)
}

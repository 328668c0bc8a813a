//! Movement (CdB 9) with facing (6), zones of control (7) and stacking (8): a march
//! of one unit or a group, checked one movement point at a time for every unit, with
//! its action-point cost (4.2) and the strategic-movement limits (9.3). Which units
//! may form a group, stack or pass through friends is in `stacking.rs`.

use bevy::prelude::*;

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::command::{Refusal, UnitRef};

use super::commands::MarchStep;
use crate::engine::event::EventKind;
use crate::engine::game::GameOptions;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{Hidden, Placement, UnitId};

use super::command_points::{ActivationFacts, activation_cost, available, pay};
use super::data::{Kind, Quality, TerrainClass};
use super::stacking::{group_shape, may_pass_through, may_stack};
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

fn refuse<T>(rule: &'static str, msg: String) -> Result<T, Refusal> {
    Err(Refusal::new(rule, msg))
}

pub(crate) fn check_march(
    world: &World,
    moves: &[(UnitRef, Vec<MarchStep>)],
) -> Result<MarchPlan, Refusal> {
    let st = state(world);
    if st.step != CdbPhase::Movement {
        return refuse("CdB 3", "units move in their movement phase".into());
    }
    if moves.is_empty() {
        return refuse("CdB 9", "name a unit to move".into());
    }
    let side = sequence_side(world);
    let options = world.resource::<GameOptions>();
    let mut bodies: Vec<Body> = Vec::new();
    for (r, steps) in moves {
        let id = resolve(world, r)?;
        let Some(h) = hex_of(world, id) else {
            return refuse("CdB 9", format!("{} is not on the map", name(world, id)));
        };
        if side_of(world, id) != side {
            return refuse(
                "CdB 9",
                format!("{} is not a unit of the side to move", name(world, id)),
            );
        }
        let stack = stack_at(world, h);
        let (units, leaves) = match r {
            UnitRef::Key(_) if stack.len() > 1 => {
                let other = *stack.iter().find(|u| **u != id).expect("two units");
                (vec![id], Some(other))
            }
            _ => (stack.clone(), None),
        };
        if bodies
            .iter()
            .any(|b| b.units.iter().any(|u| units.contains(u)))
        {
            return refuse("CdB 9.4", format!("{} is named twice", name(world, id)));
        }
        for u in &units {
            if kind(world, *u) == Kind::Bag && !unit(world, *u).p.mobile {
                return refuse(
                    "CdB 2.4",
                    format!("{} is immobile baggage", name(world, *u)),
                );
            }
            if flags(world, *u).kept {
                return refuse(
                    "CdB 4.2",
                    format!("{} was kept in control this turn", name(world, *u)),
                );
            }
        }
        let mut allowance = units
            .iter()
            .map(|u| movement_allowance(world, *u))
            .min()
            .unwrap_or(0);
        // CdB 9.6: mounted units have 2 MP in difficult terrain at any time in their
        // move, starting there included.
        if units.iter().any(|u| kind(world, *u).is_mounted())
            && terrain_class(world, h) == TerrainClass::Difficult
        {
            allowance = allowance.min(2);
        }
        bodies.push(Body {
            units,
            start: h,
            start_facing: facing(world, id),
            hex: h,
            facing: facing(world, id),
            steps: steps.clone(),
            spent: 0,
            allowance,
            hexes: 0,
            path: Vec::new(),
            stopped: false,
            turned_vertices: 0,
            joins: None,
            leaves,
            went_forward: false,
            went_back: false,
        });
    }
    let corps = unit(world, bodies[0].units[0]).corps as usize;
    let all_units: Vec<UnitId> = bodies.iter().flat_map(|b| b.units.clone()).collect();
    if all_units
        .iter()
        .any(|u| unit(world, *u).corps as usize != corps)
    {
        return refuse("CdB 5.1", "a group is made of units of one corps".into());
    }
    let co = &st.corps[corps];
    if co.demoralised && bodies.len() > 1 {
        return refuse(
            "CdB 12.3",
            format!(
                "{} corps is demoralised: it may activate a single counter only",
                possessive(&co.name)
            ),
        );
    }
    // "activate a single counter" (CdB 12.3): one a turn; the stack it may be is one.
    if co.demoralised
        && let Some(other) = super::all_units(world).into_iter().find(|u| {
            unit(world, *u).corps as usize == corps
                && !all_units.contains(u)
                && flags(world, *u).impulses > 0
        })
    {
        return refuse(
            "CdB 12.3",
            format!(
                "{} corps is demoralised: it may activate a single counter a turn, and {} was activated",
                possessive(&co.name),
                name(world, other)
            ),
        );
    }
    let group = bodies.len() > 1;
    if group {
        for b in &bodies {
            if in_enemy_zoc(world, b.units[0]) {
                return refuse(
                    "CdB 5.1",
                    format!(
                        "{} is in an enemy zone of control: it cannot be part of a group",
                        name(world, b.units[0])
                    ),
                );
            }
        }
        let placed: Vec<_> = bodies
            .iter()
            .map(|b| (b.units[0], b.hex, b.facing))
            .collect();
        group_shape(world, &placed)?;
        // CdB 9.4: all units move with the MPs of the slowest.
        let slowest = bodies.iter().map(|b| b.allowance).min().unwrap_or(0);
        for b in &mut bodies {
            b.allowance = slowest;
        }
    }
    let all_skirmishers = all_units.iter().all(|u| kind(world, *u).is_skirmisher());
    let impulse = all_units
        .iter()
        .map(|u| flags(world, *u).impulses)
        .max()
        .unwrap_or(0)
        + 1;
    if impulse >= 2 {
        if co.demoralised {
            return refuse(
                "CdB 12.3",
                "a demoralised corps' unit moves once a turn, without further impulses".into(),
            );
        }
        let irregular = all_units.iter().any(|u| !unit(world, *u).p.regular);
        let light_or_regular = all_units.iter().all(|u| {
            let p = unit(world, *u).p;
            p.regular || p.kind.is_light()
        });
        if options.has("march_movement") && (irregular && !light_or_regular || impulse > 2) {
            return refuse("CdB optional rule", "march movement (option): regulars and light troops move twice a turn, irregulars once".into());
        }
        for u in &all_units {
            let f = flags(world, *u);
            if f.near_at_start || f.came_near {
                return refuse(
                    "CdB 9.3",
                    format!(
                        "{} was within four hexes of the enemy this turn: it moves once",
                        name(world, *u)
                    ),
                );
            }
        }
    }
    let unreliable = co.unreliable == Some(true);
    let enemies = enemy_hexes(world, side);
    let max_len = bodies.iter().map(|b| b.steps.len()).max().unwrap_or(0);
    let board = world.resource::<Board>();
    let mut came_near = false;
    let mut ever_turned = false;
    for k in 0..max_len {
        // The group moves together (CdB 9.4), listed in any order: at each movement
        // point a body steps once no body yet to step holds the hex it enters.
        let mut to_step: Vec<usize> = (0..bodies.len()).collect();
        while !to_step.is_empty() {
            let next = to_step
                .iter()
                .position(|&bi| match bodies[bi].steps.get(k) {
                    Some(MarchStep::Hex(n)) => {
                        !to_step.iter().any(|&j| j != bi && bodies[j].hex == *n)
                    }
                    _ => true,
                })
                .unwrap_or(0);
            let bi = to_step.remove(next);
            let Some(step) = bodies[bi].steps.get(k).copied() else {
                continue;
            };
            let b = bodies[bi].clone();
            let lead = b.units[0];
            let who = name(world, lead);
            if b.stopped {
                return refuse(
                    "CdB 7.1",
                    format!("{who} has stopped at {} and cannot go on", b.hex),
                );
            }
            let zoc_here = zoc_exerted_on(world, side, b.hex);
            match step {
                MarchStep::Turn(n) => {
                    if b.leaves.is_some() {
                        return refuse(
                            "CdB 8.1",
                            format!(
                                "{who} is stacked: a stack turns as one unit (name it by its hex); one rank alone only moves off"
                            ),
                        );
                    }
                    if !zoc_here.is_empty() {
                        return refuse(
                            "CdB 6.2",
                            format!(
                                "{who} is in an enemy zone of control at {}: it may not reface",
                                b.hex
                            ),
                        );
                    }
                    if n == 0 {
                        continue;
                    }
                    if b.went_back {
                        return refuse(
                            "CdB 9.2",
                            format!(
                                "{who} moves to the rear: it may not change facing in that movement"
                            ),
                        );
                    }
                    let skirmisher = b.units.iter().all(|u| kind(world, *u).is_skirmisher());
                    let vertices = n.unsigned_abs() as i32;
                    let cost = if n == 3 && skirmisher && !group {
                        1
                    } else {
                        vertices
                    };
                    if group && !skirmisher && b.turned_vertices + vertices > 1 {
                        return refuse(
                            "CdB 6.2",
                            format!("{who} moves in a group: it may turn one vertex per movement"),
                        );
                    }
                    if b.spent + cost > b.allowance {
                        return refuse(
                            "CdB 6.2",
                            format!(
                                "{who} has {} MP left; turning {vertices} vertex(es) costs {cost}",
                                (b.allowance - b.spent).max(0)
                            ),
                        );
                    }
                    let nb = &mut bodies[bi];
                    nb.facing = VertexFacing(((nb.facing.0 as i32 + n as i32).rem_euclid(6)) as u8);
                    nb.spent += cost;
                    nb.turned_vertices += vertices;
                    ever_turned = true;
                }
                MarchStep::Hex(n) => {
                    if !board.contains(n) {
                        return refuse("CdB 9", format!("{n} is off the map"));
                    }
                    if !b.hex.is_adjacent(n) {
                        return refuse("CdB 9.1", format!("{n} is not adjacent to {}", b.hex));
                    }
                    let forward = b.facing.front(b.hex).contains(&n);
                    let back = b.facing.rear(b.hex).contains(&n);
                    if !forward && !back {
                        return refuse(
                            "CdB 9.1",
                            format!(
                                "{who} faces {}: {n} is neither a frontal nor a rear hex",
                                facing_name(b.facing)
                            ),
                        );
                    }
                    if back && group && !all_skirmishers {
                        return refuse(
                            "CdB 9.2",
                            "only a single unit or a group of skirmishers moves to the rear".into(),
                        );
                    }
                    if back && b.turned_vertices > 0 {
                        return refuse(
                            "CdB 9.2",
                            format!(
                                "{who} has changed facing: a move to the rear is made without changing facing"
                            ),
                        );
                    }
                    if (back && b.went_forward) || (forward && b.went_back) {
                        return refuse(
                            "CdB 9.2",
                            format!("{who} may not move both forward and rearward in one movement"),
                        );
                    }
                    if let Some(other) = b.leaves {
                        let rank = flags(world, lead).rank;
                        if rank == 0 && !forward {
                            return refuse(
                                "CdB 8.1",
                                format!("{who} is the front rank: alone it may only advance"),
                            );
                        }
                        if rank == 1 && !back {
                            return refuse(
                                "CdB 8.1",
                                format!("{who} is the rear rank: alone it may only move back"),
                            );
                        }
                        let _ = other;
                    }
                    // Zones of control (CdB 7.2) when starting in one.
                    if b.hexes == 0 && !zoc_here.is_empty() {
                        if !back {
                            return refuse(
                                "CdB 7.2",
                                format!(
                                    "{who} starts in an enemy zone of control: it may leave it only by moving to the rear"
                                ),
                            );
                        }
                        let mp = b.allowance;
                        if let Some(e) = zoc_here.iter().find(|e| unit(world, **e).p.mp >= mp) {
                            return refuse(
                                "CdB 7.2",
                                format!(
                                    "{who} ({mp} MP) is not faster than {} which holds it in its zone",
                                    name(world, *e)
                                ),
                            );
                        }
                        let flank_or_rear: Vec<HexCoord> = b
                            .facing
                            .flank(b.hex)
                            .into_iter()
                            .chain(b.facing.rear(b.hex))
                            .collect();
                        if zoc_here
                            .iter()
                            .any(|e| hex_of(world, *e).is_some_and(|h| flank_or_rear.contains(&h)))
                        {
                            return refuse(
                                "CdB 7.2",
                                format!(
                                    "{who} is in the zone of an enemy on its flank or rear: it may not leave"
                                ),
                            );
                        }
                    }
                    let class = terrain_class(world, n);
                    if class == TerrainClass::Impassable {
                        return refuse("CdB 9.6", format!("{n} is impassable"));
                    }
                    let p0 = unit(world, lead).p;
                    let has_chariot = b.units.iter().any(|u| unit(world, *u).p.chariot);
                    if class == TerrainClass::Difficult && has_chariot {
                        return refuse(
                            "CdB 9.6",
                            format!("chariots may not enter difficult terrain ({n})"),
                        );
                    }
                    // CdB 9.6: "in broken terrain, off road chariots may only move unit by
                    // unit, not in a group" (the maps of CdB have no roads).
                    if class == TerrainClass::Broken && group && has_chariot {
                        return refuse(
                            "CdB 9.6",
                            format!(
                                "{who} is a chariot: in broken terrain ({n}) chariots move unit by unit, not in a group"
                            ),
                        );
                    }
                    let t = tables(world);
                    let enters_wood = board
                        .terrain(n)
                        .and_then(|id| t.terrain.terrain.get(id.0 as usize))
                        .is_some_and(|s| s.enter_from_edge);
                    if enters_wood {
                        let wood = board.terrain(n);
                        let beside = b.start == n
                            || board.terrain(b.start) == wood
                            || b.start
                                .neighbors()
                                .into_iter()
                                .any(|x| board.terrain(x) == wood);
                        if !beside {
                            return refuse(
                                "CdB 1.2",
                                format!(
                                    "units entering the wood at {n} must begin their movement next to its edge"
                                ),
                            );
                        }
                    }
                    let mut allowance = b.allowance;
                    let mounted = b.units.iter().any(|u| kind(world, *u).is_mounted());
                    if class == TerrainClass::Difficult && mounted {
                        allowance = allowance.min(2);
                    }
                    let loses_one = matches!(p0.kind, Kind::LH | Kind::Cv)
                        || (p0.kind == Kind::Kn && p0.quality == Quality::F);
                    if class == TerrainClass::Broken
                        && loses_one
                        && !b
                            .path
                            .iter()
                            .any(|x| terrain_class(world, *x) == TerrainClass::Broken)
                    {
                        allowance -= 1;
                    }
                    let cost = if st.ditch.contains(&n) {
                        st.ditch_mp.max(1)
                    } else {
                        1
                    };
                    if b.spent + cost > allowance {
                        return refuse(
                            "CdB 9.6",
                            format!(
                                "{who} has {} MP left, {n} needs {cost}",
                                (allowance - b.spent).max(0)
                            ),
                        );
                    }
                    if unreliable && nearest_in(&enemies, n) <= 12 {
                        return refuse(
                            "CdB 4.3",
                            format!(
                                "{who} belongs to an unreliable allied corps: it may not move within 12 hexes of an enemy"
                            ),
                        );
                    }
                    if impulse >= 2 && nearest_in(&enemies, n) <= 4 {
                        return refuse(
                            "CdB 9.3",
                            format!(
                                "{n} is within four hexes of the enemy: no second march may go there"
                            ),
                        );
                    }
                    if nearest_in(&enemies, n) <= 4 {
                        came_near = true;
                    }
                    // Occupants of the hex entered.
                    let mut joins = None;
                    let movers_here: Vec<usize> = (0..bodies.len())
                        .filter(|j| *j != bi && bodies[*j].hex == n)
                        .collect();
                    if !movers_here.is_empty() {
                        return refuse("CdB 9.4", format!("{n} would hold two units of the group"));
                    }
                    let occupants: Vec<UnitId> = stack_at(world, n)
                        .into_iter()
                        .filter(|u| !bodies.iter().any(|x| x.units.contains(u)))
                        .filter(|u| placement(world, *u) != Placement::Eliminated)
                        .collect();
                    let remaining = b.steps.len() > k + 1;
                    if let Some(&occ) = occupants.first() {
                        if side_of(world, occ) != side {
                            if is_hidden(world, occ) {
                                return refuse("CdB 14.3", format!("{n} holds a unit in ambush"));
                            }
                            return refuse("CdB 8", format!("{n} holds an enemy unit"));
                        }
                        let occ_facing = facing(world, occ);
                        let from_rear = occ_facing.rear(n).contains(&b.hex);
                        let from_front = occ_facing.front(n).contains(&b.hex);
                        let can_join = occupants.len() == 1
                            && b.units.len() == 1
                            && occ_facing == b.facing
                            && may_stack(world, occ, lead);
                        if can_join && forward && from_rear && !remaining {
                            joins = Some((occ, 1));
                        } else if can_join && back && from_front && !remaining {
                            joins = Some((occ, 0));
                        } else if b.units.iter().all(|m| {
                            // A stack moves as one unit (CdB 8.1): each of its
                            // counters must be allowed through.
                            occupants
                                .iter()
                                .all(|o| may_pass_through(world, *m, *o, b.facing))
                        }) {
                            if !remaining {
                                return refuse(
                                    "CdB 8.2",
                                    format!("{who} may pass through {n} but not stop there"),
                                );
                            }
                        } else {
                            return refuse(
                                "CdB 8",
                                format!(
                                    "{n} is occupied by {} and {who} may neither stack with it nor pass through",
                                    name(world, occ)
                                ),
                            );
                        }
                    }
                    // Entering a zone of control (CdB 7.1).
                    let zoc_there = zoc_exerted_on(world, side, n);
                    if !zoc_there.is_empty() {
                        if b.hexes == 0 && !zoc_here.is_empty() {
                            return refuse(
                                "CdB 7.2",
                                format!(
                                    "{who} leaves an enemy zone of control: it may not move directly into another ({n})"
                                ),
                            );
                        }
                        let front_there = b.facing.front(n);
                        if let Some(e) = zoc_there
                            .iter()
                            .find(|e| hex_of(world, **e).is_some_and(|h| !front_there.contains(&h)))
                        {
                            return refuse(
                                "CdB 7.1",
                                format!(
                                    "{n} is in the zone of {}, which would be on the flank of {who}: a unit enters a zone only facing every unit that exerts it",
                                    name(world, *e)
                                ),
                            );
                        }
                        if remaining {
                            return refuse(
                                "CdB 7.1",
                                format!(
                                    "{who} must stop on entering the enemy zone of control at {n}"
                                ),
                            );
                        }
                    }
                    let nb = &mut bodies[bi];
                    nb.allowance = allowance;
                    nb.hex = n;
                    nb.spent += cost;
                    nb.hexes += 1;
                    nb.path.push(n);
                    nb.went_forward |= forward;
                    nb.went_back |= back;
                    if joins.is_some() {
                        nb.joins = joins;
                        nb.stopped = true;
                    }
                    if !zoc_there.is_empty() {
                        nb.stopped = true;
                    }
                }
            }
        }
        if group {
            let placed: Vec<_> = bodies
                .iter()
                .map(|b| (b.units[0], b.hex, b.facing))
                .collect();
            group_shape(world, &placed).map_err(|r| {
                Refusal::new(
                    r.rule,
                    format!("after movement point {}: {} (a unit may not be dropped off during the movement, CdB 9.4)", k + 1, r.reason),
                )
            })?;
        }
    }
    if let Some(b) = bodies.iter().find(|b| b.leaves.is_some() && b.hexes == 0) {
        return refuse(
            "CdB 8.1",
            format!(
                "{} is stacked: alone it must leave the hex, or move with its stack (name the hex)",
                name(world, b.units[0])
            ),
        );
    }
    if bodies.iter().all(|b| b.steps.is_empty()) {
        return refuse(
            "CdB 9",
            "give at least one step: a hex, cw, ccw or about".into(),
        );
    }
    let mp_unspent = bodies
        .iter()
        .any(|b| b.spent < b.allowance && b.units.iter().all(|u| kind(world, *u) != Kind::Ps));
    let ended_beside_obstacle = bodies.iter().any(|b| {
        b.hex.neighbors().into_iter().any(|n| {
            enemy_at(world, side, n).is_some()
                || !board.contains(n)
                || terrain_class(world, n) == TerrainClass::Impassable
                || board.hexside(b.hex, n).has(HexsideFeature::River)
        })
    });
    let fronts: Vec<UnitId> = bodies.iter().flat_map(|b| b.units.clone()).collect();
    let (cost, cost_lines) = activation_cost(
        world,
        corps,
        &fronts,
        ActivationFacts {
            turned: ever_turned,
            mp_unspent,
            ended_beside_obstacle,
            impulse,
            keep: false,
        },
    );
    let have = available(world, corps, &fronts);
    if cost > have {
        return refuse(
            "CdB 4.2",
            format!(
                "this movement costs {cost} PA ({}); {} corps has {have}",
                cost_lines.join(", "),
                possessive(&co.name)
            ),
        );
    }
    Ok(MarchPlan {
        corps,
        bodies,
        cost,
        cost_lines,
        impulse,
        came_near,
    })
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
            possessive(&w.resource::<CdbState>().corps[plan.corps].name),
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

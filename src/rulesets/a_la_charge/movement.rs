//! Movement (AlC 9), stacking (AlC 7), zones of control (AlC 11) and the knights'
//! charge bookkeeping (AlC 10): checking a move, executing it hex by hex, and the
//! reachable hexes with their cost for the window and autoplay.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use super::AlcPhase;
use crate::engine::board::Board;
use crate::engine::command::{Refusal, UnitRef};
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, SideId, UnitId, Units};

use super::*;

/// A move that passed its check.
#[derive(Clone, Debug)]
pub struct MovePlan {
    pub unit: UnitId,
    pub path: Vec<HexCoord>,
    /// MP spent entering each hex of `path`.
    pub costs: Vec<i32>,
}

/// The MP to enter `to` from `from` (None when off the map, impassable, or across an
/// unbridged river).
pub fn step_cost(world: &World, from: Option<HexCoord>, to: HexCoord) -> Result<i32, Refusal> {
    let board = world.res::<Board>();
    let Some(t) = board.terrain(to) else {
        return Err(Refusal::new("AlC 9", format!("{to} is off the map")));
    };
    if let Some(from) = from {
        if !from.is_adjacent(to) {
            return Err(Refusal::new(
                "AlC 9",
                format!("{to} is not adjacent to {from}"),
            ));
        }
        if board.hexside(from, to).is_unbridged_river() {
            return Err(Refusal::new(
                "AlC 9",
                format!("the river between {from} and {to} can be crossed only at a bridge (TEC)"),
            ));
        }
    }
    let tables = world.resource::<AlcTables>();
    let terrain = &tables.0.terrain.terrain[t.0 as usize];
    terrain.mp_cost.ok_or_else(|| {
        Refusal::new(
            "AlC 9",
            format!("{to} ({}) is impassable (TEC)", terrain.id),
        )
    })
}

fn is_visible_enemy_combat_unit(world: &World, side: SideId, hex: HexCoord) -> bool {
    combat_unit_at(world, hex).is_some_and(|u| side_of(world, u) != side && !is_hidden(world, u))
}

/// Whether a unit may act at all now (AlC 6, Kalavryai special rule 1).
pub fn check_can_act(world: &World, id: UnitId) -> Result<(), Refusal> {
    let t = turn(world);
    if side_of(world, id) != t.active {
        return Err(Refusal::new(
            "AlC 6",
            format!(
                "{} belongs to {}, and it is {} phase",
                name(world, id),
                side_name(world, side_of(world, id)),
                possessive(&side_name(world, t.active))
            ),
        ));
    }
    if placement(world, id) == Placement::Eliminated {
        return Err(Refusal::new(
            "AlC 12.6",
            format!("{} has been eliminated", name(world, id)),
        ));
    }
    let from = flags(world, id).active_from_turn;
    if t.turn < from {
        return Err(Refusal::new(
            "AlC Kalavryai special rule 1",
            format!(
                "{} cannot take any action until turn {from}",
                name(world, id)
            ),
        ));
    }
    Ok(())
}

pub fn check_move(
    world: &World,
    unit_ref: &UnitRef,
    path: &[HexCoord],
) -> Result<MovePlan, Refusal> {
    let t = turn(world);
    if super::phase(world) != AlcPhase::Movement {
        return Err(Refusal::new(
            "AlC 6",
            "units move only in their side's movement phase",
        ));
    }
    let id = resolve(world, unit_ref)?;
    check_can_act(world, id)?;
    let side = side_of(world, id);
    let f = flags(world, id);
    if f.moved {
        return Err(Refusal::new(
            "AlC 9",
            format!(
                "{} has already moved this phase: each unit finishes its movement before another begins",
                name(world, id)
            ),
        ));
    }
    if path.is_empty() {
        return Err(Refusal::new("AlC 9", "a move needs at least one hex"));
    }
    let start = match placement(world, id) {
        Placement::OnMap(h) => Some(h),
        Placement::Waiting => {
            let Some((arrives, entry)) = &f.arrival else {
                return Err(Refusal::new(
                    "AlC 4",
                    format!("{} must be placed before it can move", name(world, id)),
                ));
            };
            if t.turn < *arrives {
                return Err(Refusal::new(
                    "AlC 4",
                    format!("{} arrives on turn {arrives}", name(world, id)),
                ));
            }
            if !entry.contains(&path[0]) {
                return Err(Refusal::new(
                    "AlC 4",
                    format!(
                        "{} must enter the map by one of its entry hexes ({} to {}), not {}",
                        name(world, id),
                        entry[0],
                        entry[entry.len() - 1],
                        path[0]
                    ),
                ));
            }
            None
        }
        Placement::Eliminated => unreachable!("checked by check_can_act"),
    };
    let is_combat = !is_leader(world, id);
    let mut costs = Vec::with_capacity(path.len());
    let mut spent = 0;
    let mut prev = start;
    for (i, &h) in path.iter().enumerate() {
        let cost = step_cost(world, prev, h)?;
        spent += cost;
        if spent > f.mp_left {
            return Err(Refusal::new(
                "AlC 9",
                format!(
                    "not enough movement points to enter {h}: the path costs {spent}, {} has {}",
                    name(world, id),
                    f.mp_left
                ),
            ));
        }
        if is_visible_enemy_combat_unit(world, side, h) {
            return Err(Refusal::new(
                "AlC 7",
                format!("{h} is occupied by an enemy unit"),
            ));
        }
        let from_zoc = prev.is_some_and(|p| in_enemy_zoc(world, side, p));
        let into_zoc = in_enemy_zoc(world, side, h);
        if from_zoc && into_zoc {
            return Err(Refusal::new(
                "AlC 11",
                format!(
                    "{h} is in an enemy ZoC and {} is in one: a unit cannot move directly from one enemy ZoC to another",
                    prev.map(|p| p.label()).unwrap_or_default()
                ),
            ));
        }
        if into_zoc && i + 1 < path.len() {
            return Err(Refusal::new(
                "AlC 11",
                format!("{h} is in an enemy ZoC: movement stops on entering it"),
            ));
        }
        costs.push(cost);
        prev = Some(h);
    }
    let last = path[path.len() - 1];
    if is_combat
        && combat_unit_at(world, last).is_some_and(|u| u != id && side_of(world, u) == side)
    {
        return Err(Refusal::new(
            "AlC 7",
            format!(
                "{last} already holds a friendly combat unit: only one combat unit may occupy a hex"
            ),
        ));
    }
    Ok(MovePlan {
        unit: id,
        path: path.to_vec(),
        costs,
    })
}

/// Executes a checked move hex by hex: an ambush met on the way stops it.
pub fn execute_move(world: &mut World, plan: MovePlan) {
    let id = plan.unit;
    let side = side_of(world, id);
    let start = hex_of(world, id);
    if is_hidden(world, id) {
        setup::reveal(world, id, "it moves");
    }
    // Most games hide nothing: then no hex of the path needs the ambush checks.
    let ambush_possible = !world.resource::<AlcState>().hidden_zones.is_empty()
        && world
            .res::<Units>()
            .ids()
            .any(|u| side_of(world, u) != side && is_hidden(world, u));
    let mut walked = Vec::new();
    let mut spent = 0;
    for (&h, &cost) in plan.path.iter().zip(&plan.costs) {
        if let Some(ambusher) = combat_unit_at(world, h)
            .filter(|u| ambush_possible && side_of(world, *u) != side && is_hidden(world, *u))
        {
            setup::reveal(world, ambusher, "a unit tries to enter its hex");
            break;
        }
        set_placement(world, id, Placement::OnMap(h));
        walked.push(h);
        spent += cost;
        let open = {
            let board = world.res::<Board>();
            let tables = world.resource::<AlcTables>();
            board
                .terrain(h)
                .is_some_and(|t| tables.0.terrain.terrain[t.0 as usize].open)
        };
        {
            let mut f = flags_mut(world, id);
            f.mp_left -= cost;
            f.hexes_moved += 1;
            f.entered_open |= open;
        }
        overrun_leaders(world, h, side);
        setup::check_pillage(world, id, h);
        if !ambush_possible {
            continue;
        }
        let ambushers: Vec<UnitId> = h
            .neighbors()
            .into_iter()
            .filter_map(|n| combat_unit_at(world, n))
            .filter(|u| side_of(world, *u) != side && is_hidden(world, *u))
            .collect();
        if !ambushers.is_empty() {
            for a in ambushers {
                setup::reveal(world, a, "an enemy unit comes next to it");
            }
            break;
        }
    }
    flags_mut(world, id).moved = true;
    // Stopped short by an ambush on a hex it meant only to pass through: it falls back
    // to the last hex where it may stand (AlC 7).
    if !is_leader(world, id) {
        while let Some(&at) = walked.last() {
            let crowded = combat_unit_at(world, at).is_some_and(|u| u != id)
                || units_at(world, at)
                    .iter()
                    .any(|u| *u != id && !is_leader(world, *u));
            if !crowded {
                break;
            }
            walked.pop();
            let back = walked.last().copied().or(start);
            set_placement(world, id, back.map_or(Placement::Waiting, Placement::OnMap));
        }
    }
    if walked.is_empty() {
        return;
    }
    let route = walked
        .iter()
        .map(|h| h.label())
        .collect::<Vec<_>>()
        .join(" → ");
    match start {
        Some(s) => log(world, EventKind::Moved, "AlC 9", |w| {
            format!("{} moves {s} → {route} ({spent} MP)", plain_name(w, id))
        }),
        None => log(world, EventKind::Entered, "AlC 4", |w| {
            format!("{} enters the map: {route} ({spent} MP)", plain_name(w, id))
        }),
    }
}

/// A hex a unit can reach this phase, with the MP it costs and the path there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    pub hex: HexCoord,
    pub cost: i32,
    pub path: Vec<HexCoord>,
}

/// The hexes a unit can reach with their cheapest MP cost, and the tree of cheapest
/// paths.
pub type ReachMap = crate::rulesets::common::ReachMap<i32>;

/// Every hex the unit may end its move in, sorted by hex, each with the cheapest legal
/// path (Dijkstra over the rules of AlC 7, 9 and 11). Empty when it may not move.
pub fn reachable(world: &World, id: UnitId) -> Vec<Reach> {
    let map = reach_map(world, id);
    map.ends
        .iter()
        .map(|&(hex, cost)| Reach {
            hex,
            cost,
            path: map.path_to(hex),
        })
        .collect()
}

/// The reachable hexes without building every path: the same rules as `check_move`,
/// read from a snapshot of the board for speed.
pub fn reach_map(world: &World, id: UnitId) -> ReachMap {
    reach_map_in(world, id, &Occupancy::of(world, side_of(world, id)))
}

/// Who stands where, as one side sees it: the hexes of visible enemy units and of its
/// own combat units. One scan serves every unit of the side.
pub struct Occupancy {
    side: SideId,
    enemy_unit: Vec<bool>,
    friendly_combat: Vec<bool>,
}

impl Occupancy {
    pub fn of(world: &World, side: SideId) -> Self {
        let board = world.res::<Board>();
        let n = board.hex_count();
        let mut enemy_unit = vec![false; n];
        let mut friendly_combat = vec![false; n];
        scan_units(world, |u| {
            let Placement::OnMap(h) = u.placement else {
                return;
            };
            let i = board.index(h).expect("units stand on the map");
            if u.side != side && !u.leader && !u.hidden {
                enemy_unit[i] = true;
            }
            if u.side == side && !u.leader {
                friendly_combat[i] = true;
            }
        });
        Self {
            side,
            enemy_unit,
            friendly_combat,
        }
    }
}

/// `reach_map` with the side's occupancy already scanned.
pub fn reach_map_in(world: &World, id: UnitId, occupancy: &Occupancy) -> ReachMap {
    if super::phase(world) != AlcPhase::Movement
        || check_can_act(world, id).is_err()
        || flags(world, id).moved
    {
        return ReachMap::default();
    }
    reach_with(world, id, flags(world, id).mp_left, occupancy)
}

/// Where a unit could end a move of `mp` movement points from where it stands (or
/// where it enters, once it arrives), by the rules of AlC 7, 9 and 11: `reach_map`'s
/// search, and the threat map's for the move a unit will have next phase.
pub fn reach_with(world: &World, id: UnitId, mp: i32, occupancy: &Occupancy) -> ReachMap {
    let t = turn(world);
    let board = world.res::<Board>();
    let zoc = world.resource::<crate::engine::zoc::ZocMap>();
    let terrain = &world.resource::<AlcTables>().0.terrain.terrain;
    let side = side_of(world, id);
    let is_combat = !is_leader(world, id);
    let n = board.hex_count();
    debug_assert_eq!(occupancy.side, side);
    let (enemy_unit, friendly_combat) = (&occupancy.enemy_unit, &occupancy.friendly_combat);
    // Dijkstra over flat hex indices: the board's neighbour table, the terrain's MP
    // cost per hex and the hexsides, with no coordinate conversion in the loop.
    let enemy = side.other();
    let cost: Vec<Option<i32>> = (0..n)
        .map(|i| terrain[board.terrain_at(i).0 as usize].mp_cost)
        .collect();
    let mut best = vec![i32::MAX; n];
    let mut prev: Vec<Option<HexCoord>> = vec![None; n];
    let mut heap = std::collections::BinaryHeap::new();
    let start = hex_of(world, id).and_then(|h| board.index(h));
    let mut sources: Vec<(i32, usize)> = Vec::new();
    match (start, &flags(world, id).arrival) {
        (Some(s), _) => {
            let from_zoc = zoc.covered_at(enemy, s);
            for (dir, nb) in board.neighbor_indices(s).into_iter().enumerate() {
                if nb == crate::engine::board::NONE || board.side_at(s, dir).is_unbridged_river() {
                    continue;
                }
                let nb = nb as usize;
                if let Some(c) = cost[nb]
                    && !(from_zoc && zoc.covered_at(enemy, nb))
                {
                    sources.push((c, nb));
                }
            }
        }
        (None, Some((arrives, entry)))
            if placement(world, id) == Placement::Waiting && t.turn >= *arrives =>
        {
            for &h in entry {
                if let Some(i) = board.index(h)
                    && let Some(c) = cost[i]
                {
                    sources.push((c, i));
                }
            }
        }
        _ => return ReachMap::default(),
    }
    for (c, i) in sources {
        if c <= mp && !enemy_unit[i] && c < best[i] {
            best[i] = c;
            prev[i] = None;
            heap.push(std::cmp::Reverse((c, i)));
        }
    }
    while let Some(std::cmp::Reverse((c, i))) = heap.pop() {
        if c > best[i] || zoc.covered_at(enemy, i) {
            continue;
        }
        let here = board.hex_at(i);
        for (dir, nb) in board.neighbor_indices(i).into_iter().enumerate() {
            if nb == crate::engine::board::NONE {
                continue;
            }
            let j = nb as usize;
            if Some(j) == start || enemy_unit[j] || board.side_at(i, dir).is_unbridged_river() {
                continue;
            }
            let Some(step) = cost[j] else { continue };
            let nc = c + step;
            if nc <= mp && nc < best[j] {
                best[j] = nc;
                prev[j] = Some(here);
                heap.push(std::cmp::Reverse((nc, j)));
            }
        }
    }
    let ends = (0..n)
        .filter(|&i| best[i] != i32::MAX && !(is_combat && friendly_combat[i]))
        .map(|i| (board.hex_at(i), best[i]))
        .collect();
    ReachMap::new(board, ends, prev)
}

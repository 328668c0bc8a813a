//! Morne Plaine's map rules between two adjacent hexes: when they are on contact (no
//! river without a bridge or ford between them, no double slope), which movement,
//! combat, supports, zones of control and retreats all require, and what a step costs a
//! unit of each kind (MP movement).

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::cached::CachedWorld;
use crate::engine::command::{Refusal, UnitRef};
use crate::engine::hex::HexCoord;

use super::data::{Kind, Tables, TerrainType};

/// "Combat is not possible wherever movement forbidden (over rivers …, slopes greater
/// than one level)" (MP combat): two adjacent hexes of the map are on contact unless a
/// river without a bridge or a ford, or a double slope (a difference of two levels or
/// more), lies between them.
pub fn contact(board: &Board, a: HexCoord, b: HexCoord) -> bool {
    if !a.is_adjacent(b) || !board.contains(a) || !board.contains(b) {
        return false;
    }
    let side = board.hexside(a, b);
    let river = side.has(HexsideFeature::River)
        && !side.has(HexsideFeature::Bridge)
        && !side.has(HexsideFeature::Ford);
    let double_slope = (board.elevation(a) as i32 - board.elevation(b) as i32).abs() >= 2;
    !river && !double_slope
}

/// The terrain of a hex of the map.
pub fn terrain_at<'t>(board: &Board, tables: &'t Tables, hex: HexCoord) -> &'t TerrainType {
    let id = board.terrain(hex).unwrap_or_default();
    &tables.terrain.terrain[(id.0 as usize).min(tables.terrain.terrain.len() - 1)]
}

/// What bars a step (`step_cost`'s refusals, without their words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepBar {
    OffMap,
    NotAdjacent,
    NoContact,
    Impassable,
}

/// What it costs a unit of `kind`, in half movement points, to step from `from` into the
/// adjacent `to` (MP movement): the terrain's cost for its kind; along a road, half a
/// point whatever the hex (the designer's reading of "road 0"); a stream or a ford adds
/// its cost unless a bridge crosses it. Barred across a river or a double slope, and
/// into terrain its kind may not enter.
pub fn step_half_mp(
    board: &Board,
    tables: &Tables,
    kind: Kind,
    from: HexCoord,
    to: HexCoord,
) -> Result<u8, StepBar> {
    if !board.contains(to) {
        return Err(StepBar::OffMap);
    }
    if !from.is_adjacent(to) {
        return Err(StepBar::NotAdjacent);
    }
    if !contact(board, from, to) {
        return Err(StepBar::NoContact);
    }
    let Some(cost) = terrain_at(board, tables, to).cost.of(kind) else {
        return Err(StepBar::Impassable);
    };
    let side = board.hexside(from, to);
    let sides = &tables.terrain.hexsides;
    let base = if side.has(HexsideFeature::Road) {
        (sides.road * 2.0) as u8
    } else {
        cost * 2
    };
    let water = if side.has(HexsideFeature::Bridge) {
        sides.bridge.cost
    } else if side.has(HexsideFeature::Ford) {
        sides.ford.cost
    } else if side.has(HexsideFeature::Stream) {
        sides.stream.cost
    } else {
        0
    };
    Ok(base + water * 2)
}

/// `step_half_mp` with the refusal a player reads.
pub fn step_cost(
    board: &Board,
    tables: &Tables,
    kind: Kind,
    from: HexCoord,
    to: HexCoord,
) -> Result<u8, Refusal> {
    step_half_mp(board, tables, kind, from, to).map_err(|bar| match bar {
        StepBar::OffMap => Refusal::new("MP movement", format!("{to} is off the map")),
        StepBar::NotAdjacent => Refusal::new(
            "MP movement",
            format!("{to} is not adjacent to {from}"),
        ),
        StepBar::NoContact => Refusal::new(
            "MP movement",
            format!(
                "{from} and {to} are not on contact: a river without a bridge or ford, or a slope of more than one level, lies between them"
            ),
        ),
        StepBar::Impassable => Refusal::new(
            "MP movement",
            format!(
                "{to} ({}) is impassable to {kind:?}",
                terrain_at(board, tables, to).id
            ),
        ),
    })
}

/// What every step of the map costs each kind, in half MP (`None` where `step_cost`
/// refuses it), read from `step_cost` once per game: a movement range reads this table
/// instead of the hexside, the terrain and the contact of each step again.
/// Shared (an `Arc`) by every game of the same scenario: autoplay starts thousands.
#[derive(bevy::prelude::Resource, Clone)]
pub struct StepCosts {
    /// By kind, then by hex index and direction (N clockwise, as the board's
    /// neighbour indices).
    costs: std::sync::Arc<[Vec<[Option<u8>; 6]>; 4]>,
}

impl StepCosts {
    pub fn of(board: &Board, tables: &Tables) -> Self {
        let for_kind = |k: Kind| {
            (0..board.hex_count())
                .map(|i| {
                    let here = board.hex_at(i);
                    let mut out = [None; 6];
                    for (d, nb) in here.neighbors().into_iter().enumerate() {
                        out[d] = step_half_mp(board, tables, k, here, nb).ok();
                    }
                    out
                })
                .collect()
        };
        Self {
            costs: std::sync::Arc::new([
                for_kind(Kind::Leader),
                for_kind(Kind::Infantry),
                for_kind(Kind::Cavalry),
                for_kind(Kind::Artillery),
            ]),
        }
    }

    /// The six steps out of the hex at `index` for `kind`, by direction.
    pub fn from(&self, kind: Kind, index: usize) -> &[Option<u8>; 6] {
        let k = match kind {
            Kind::Leader => 0,
            Kind::Infantry => 1,
            Kind::Cavalry => 2,
            Kind::Artillery => 3,
        };
        &self.costs[k][index]
    }
}

// ---- moves in the world ----

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::units::{Placement, SideId, UnitId};

use super::{
    MpPhase, demoralised, flags, flags_mut, hex_of, in_enemy_zoc, kind, log, name, placement,
    plain_name, possessive, resolve, set_placement, side_name, side_of, turn, unit, unit_at,
};

/// Whether a unit is in command (MP movement: command): its leader (the side's
/// commander when its own leader is off the map) stands within its command radius, or
/// it has no leader at all. Leaders are in command.
pub fn in_command(world: &World, id: UnitId) -> bool {
    let commanders = world.resource::<super::MpState>().commanders;
    command_test(
        &unit(world, id),
        hex_of(world, id),
        commanders[side_of(world, id).0 as usize],
        |l| hex_of(world, l).map(|h| (h, unit(world, l).radius)),
    )
}

/// `in_command` from what it reads: the unit, its hex, its side's commander, and where
/// a leader stands with its command radius.
fn command_test(
    u: &super::MpUnit,
    at: Option<HexCoord>,
    commander: Option<UnitId>,
    leader_at: impl Fn(UnitId) -> Option<(HexCoord, u8)>,
) -> bool {
    if u.kind == Kind::Leader {
        return true;
    }
    let Some(at) = at else {
        return true;
    };
    let Some(own) = u.leader else { return true };
    let leader = leader_at(own).or_else(|| commander.and_then(&leader_at));
    leader.is_some_and(|(h, radius)| h.distance(at) <= radius as u32)
}

/// On entering the movement phase, each unit of the moving side gets its movement
/// allowance, in half MP: halved (rounded down) out of command, 0 for artillery that
/// bombarded this turn, less 1 for cavalry on sodden ground; reinforcements have it
/// whole (MP movement: command).
pub fn set_movement_allowances(world: &mut World) {
    let side = turn(world).active;
    let sodden = super::sodden(world);
    let commander = world.resource::<super::MpState>().commanders[side.0 as usize];
    let allowances: Vec<(UnitId, bool, u8)> = {
        let roster = super::roster(world);
        let leader_at = |l: UnitId| {
            let m = &roster[l.0 as usize];
            m.hex().map(|h| (h, m.unit.radius))
        };
        roster
            .iter()
            .filter(|m| m.side == side)
            .map(|m| {
                let command = command_test(m.unit, m.hex(), commander, leader_at);
                let ma = allowance(m.unit, command, sodden);
                (m.id, command, if m.flags.bombarded { 0 } else { ma })
            })
            .collect()
    };
    for (id, command, ma_left) in allowances {
        let mut f = flags_mut(world, id);
        f.in_command = command;
        f.ma_left = ma_left;
    }
}

/// A unit's movement allowance in half MP as its movement phase gives it (MP movement:
/// command): halved (rounded down) out of command, less 1 for cavalry on sodden ground.
/// Artillery that bombarded has none: the caller's, who knows its flags.
pub fn allowance(u: &super::MpUnit, in_command: bool, sodden: bool) -> u8 {
    let mut ma = if in_command { u.ma } else { u.ma / 2 };
    if sodden && u.kind == Kind::Cavalry {
        ma = ma.saturating_sub(1);
    }
    ma * 2
}

/// A move that passed its check.
#[derive(Clone, Debug)]
pub struct MovePlan {
    pub unit: UnitId,
    pub path: Vec<HexCoord>,
    /// Half MP spent entering each hex of `path`.
    pub costs: Vec<u8>,
}

/// "half" MP as words: 7 → "3½".
pub fn half_mp(h: u32) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else if h == 1 {
        "½".to_string()
    } else {
        format!("{}½", h / 2)
    }
}

/// Whether a unit of `side` may act now (its side's phase, on the map or arriving).
pub fn check_can_act(world: &World, id: UnitId) -> Result<(), Refusal> {
    let active = turn(world).active;
    if side_of(world, id) != active {
        return Err(Refusal::new(
            "MP generalities",
            format!(
                "{} belongs to {}, and it is {} phase",
                name(world, id),
                side_name(world, side_of(world, id)),
                possessive(&side_name(world, active))
            ),
        ));
    }
    if placement(world, id) == Placement::Eliminated {
        return Err(Refusal::new(
            "MP combat: results",
            format!("{} has been eliminated", name(world, id)),
        ));
    }
    Ok(())
}

/// Checks a move (MP movement): costs by kind within the allowance, never into an
/// enemy unit, stopping on entering an enemy zone of control, a demoralised unit never
/// entering one, ending in a free hex (one unit a hex), reinforcements by their entry
/// hexes from their turn.
pub fn check_move(
    world: &World,
    unit_ref: &UnitRef,
    path: &[HexCoord],
) -> Result<MovePlan, Refusal> {
    if super::phase(world) != MpPhase::Movement {
        return Err(Refusal::new(
            "MP generalities",
            "units move only in their side's movement phase",
        ));
    }
    let id = resolve(world, unit_ref)?;
    check_can_act(world, id)?;
    let f = flags(world, id);
    if f.moved {
        return Err(Refusal::new(
            "MP movement",
            format!("{} has already moved this phase", name(world, id)),
        ));
    }
    if f.bombarded {
        return Err(Refusal::new(
            "MP bombardment",
            format!(
                "{} bombarded this turn: a unit that bombards cannot move that turn",
                name(world, id)
            ),
        ));
    }
    if path.is_empty() {
        return Err(Refusal::new("MP movement", "a move needs at least one hex"));
    }
    let board = world.res::<Board>();
    let tables = super::tables(world);
    let k = kind(world, id);
    let side = side_of(world, id);
    let start = match placement(world, id) {
        Placement::OnMap(h) => Some(h),
        Placement::Waiting => {
            let Some((arrives, entry)) = &f.arrival else {
                return Err(Refusal::new(
                    "MP generalities",
                    format!("{} is not on the map", name(world, id)),
                ));
            };
            if turn(world).turn < *arrives {
                return Err(Refusal::new(
                    "MP movement: reinforcements",
                    format!("{} arrives on turn {arrives}", name(world, id)),
                ));
            }
            if !entry.contains(&path[0]) {
                return Err(Refusal::new(
                    "MP movement: reinforcements",
                    format!(
                        "{} enters the map by {}, not {}",
                        name(world, id),
                        crate::engine::view::word_list(
                            &entry.iter().map(|h| h.label()).collect::<Vec<_>>(),
                            "or"
                        ),
                        path[0]
                    ),
                ));
            }
            None
        }
        Placement::Eliminated => unreachable!("checked by check_can_act"),
    };
    let mut costs = Vec::with_capacity(path.len());
    let mut spent = 0u32;
    let mut prev = start;
    for (i, &h) in path.iter().enumerate() {
        let cost = match prev {
            Some(p) => step_cost(board, &tables, k, p, h)?,
            None => {
                if !board.contains(h) {
                    return Err(Refusal::new("MP movement", format!("{h} is off the map")));
                }
                let t = terrain_at(board, &tables, h);
                t.cost.of(k).map(|c| c * 2).ok_or_else(|| {
                    Refusal::new(
                        "MP movement",
                        format!("{h} ({}) is impassable to {k:?}", t.id),
                    )
                })?
            }
        };
        spent += cost as u32;
        if spent > f.ma_left as u32 {
            return Err(Refusal::new(
                "MP movement",
                format!(
                    "not enough movement points to enter {h}: the path costs {} MP, {} has {}{}",
                    half_mp(spent),
                    name(world, id),
                    half_mp(f.ma_left as u32),
                    if f.in_command || start.is_none() {
                        String::new()
                    } else {
                        " (halved out of command, MP movement: command)".to_string()
                    }
                ),
            ));
        }
        if let Some(u) = unit_at(world, h)
            && side_of(world, u) != side
        {
            return Err(Refusal::new(
                "MP movement",
                format!("{h} is occupied by an enemy unit"),
            ));
        }
        let into_zoc = in_enemy_zoc(world, side, h);
        if into_zoc && demoralised(world, id) {
            return Err(Refusal::new(
                "MP combat: demoralisation",
                format!("{h} is in an enemy zone of control: a demoralised unit may not enter one"),
            ));
        }
        if into_zoc && i + 1 < path.len() {
            return Err(Refusal::new(
                "MP movement",
                format!("{h} is in an enemy zone of control: entering it ends the move"),
            ));
        }
        costs.push(cost);
        prev = Some(h);
    }
    let last = path[path.len() - 1];
    if unit_at(world, last).is_some_and(|u| u != id) {
        return Err(Refusal::new(
            "MP generalities",
            format!("{last} is occupied: one unit a hex, leaders included"),
        ));
    }
    Ok(MovePlan {
        unit: id,
        path: path.to_vec(),
        costs,
    })
}

/// Executes a checked move hex by hex (MP movement): reaction fire from enemy
/// artillery next to each hex entered, and the marsh test on passing through a marsh,
/// either of which may end it short. A unit stopped in a friend's hex falls back along
/// its path to the last hex it may stand in.
pub fn execute_move(world: &mut World, plan: MovePlan) {
    let id = plan.unit;
    let start = hex_of(world, id);
    let tables = super::tables(world);
    let k = kind(world, id);
    let mut walked: Vec<HexCoord> = Vec::new();
    let mut spent = 0u32;
    let mut stopped: Option<String> = None;
    // The route is logged in parts, each before the reaction fire that ends it, so the
    // log reads in the order things happen: where the part not yet logged begins, how
    // many hexes of `walked` are logged, and the MP they cost.
    let (mut from, mut logged, mut spent_logged) = (start, 0usize, 0u32);
    let n = plan.path.len();
    // Where the enemy's guns stand (none moves or falls during this move): reaction
    // fire is looked for only beside them.
    let enemy = side_of(world, id).other();
    let guns: Vec<HexCoord> = world.resource::<super::MpState>().artillery[enemy.0 as usize]
        .iter()
        .filter_map(|&g| hex_of(world, g))
        .collect();
    for (i, (&h, &cost)) in plan.path.iter().zip(&plan.costs).enumerate() {
        set_placement(world, id, Placement::OnMap(h));
        walked.push(h);
        spent += cost as u32;
        {
            let mut f = flags_mut(world, id);
            f.ma_left = f.ma_left.saturating_sub(cost);
            f.hexes_moved += 1;
        }
        let reacting = if guns.iter().any(|g| g.is_adjacent(h)) {
            super::bombardment::reacting_guns(world, id, h)
        } else {
            Vec::new()
        };
        if !reacting.is_empty() {
            log_route(world, id, from, &walked[logged..], spent - spent_logged);
            (from, logged, spent_logged) = (Some(h), walked.len(), spent);
            if super::bombardment::reaction_fire(world, id, h, reacting) {
                stopped = Some("reaction fire".into());
                break;
            }
        }
        let stuck = terrain_at(world.res::<Board>(), &tables, h)
            .stuck
            .map(|s| s.of(k));
        if let Some(stuck) = stuck
            && i + 1 < n
        {
            let d = super::roll_die(world, 4, "MP movement: marsh", |w| {
                format!(
                    "the marsh test of {} in {h} (stuck on {stuck} or less)",
                    plain_name(w, id)
                )
            });
            if d <= stuck {
                stopped = Some(format!("stuck in the marsh of {h} (d4 {d} ≤ {stuck})"));
                break;
            }
        }
    }
    flags_mut(world, id).moved = true;
    if hex_of(world, id).is_none() || hex_of(world, id) != walked.last().copied() {
        // Eliminated or retreated by reaction fire: the route up to it is logged, and
        // the fire's log tells the rest.
        return;
    }
    while let Some(&at) = walked.last() {
        if super::units_at(world, at).iter().all(|u| *u == id) {
            break;
        }
        walked.pop();
        let back = walked.last().copied().or(start);
        set_placement(world, id, back.map_or(Placement::Waiting, Placement::OnMap));
    }
    if walked.len() >= logged {
        log_route(world, id, from, &walked[logged..], spent - spent_logged);
    } else {
        // Back past a hex already logged, where a reaction fire met it.
        let back = hex_of(world, id);
        log(world, EventKind::Moved, "MP generalities", |w| {
            format!(
                "{} falls back to {}: one unit a hex",
                plain_name(w, id),
                back.map_or("its entry".to_string(), |h| h.label())
            )
        });
    }
    if let Some(why) = stopped {
        log(world, EventKind::Moved, "MP movement", |w| {
            format!("{} stops: {why}", plain_name(w, id))
        });
    }
}

fn log_route(
    world: &mut World,
    id: UnitId,
    start: Option<HexCoord>,
    walked: &[HexCoord],
    spent: u32,
) {
    if walked.is_empty() {
        return;
    }
    // The words only when the log keeps them (autoplay does not).
    let route = || {
        walked
            .iter()
            .map(|h| h.label())
            .collect::<Vec<_>>()
            .join(" → ")
    };
    match start {
        Some(s) => log(world, EventKind::Moved, "MP movement", |w| {
            format!(
                "{} moves {s} → {} ({} MP)",
                plain_name(w, id),
                route(),
                half_mp(spent)
            )
        }),
        None => log(
            world,
            EventKind::Entered,
            "MP movement: reinforcements",
            |w| {
                format!(
                    "{} enters the map: {} ({} MP)",
                    plain_name(w, id),
                    route(),
                    half_mp(spent)
                )
            },
        ),
    }
}

/// The hexes a unit can reach this phase with their cheapest cost in half MP, and the
/// tree of cheapest paths.
pub type ReachMap = crate::rulesets::common::ReachMap<u32>;

/// Who stands where, by flat hex index: the unit in each hex and its side.
pub struct Occupancy {
    pub unit_at: Vec<Option<UnitId>>,
    pub side_at: Vec<Option<SideId>>,
}

impl Occupancy {
    pub fn of(world: &World) -> Self {
        Self::of_roster(world.res::<Board>(), &super::roster(world))
    }

    pub fn of_roster(board: &Board, roster: &[super::Member]) -> Self {
        let mut unit_at = vec![None; board.hex_count()];
        let mut side_at = vec![None; board.hex_count()];
        for m in roster {
            if let Some(i) = m.hex().and_then(|h| board.index(h)) {
                unit_at[i] = Some(m.id);
                side_at[i] = Some(m.side);
            }
        }
        Self { unit_at, side_at }
    }
}

/// Every hex the unit may end its move in, with the cheapest legal path: empty when it
/// may not move now.
pub fn reach_map(world: &World, id: UnitId, occupancy: &Occupancy) -> ReachMap {
    if super::phase(world) != MpPhase::Movement || check_can_act(world, id).is_err() {
        return ReachMap::default();
    }
    let f = flags(world, id);
    if f.moved || f.bombarded {
        return ReachMap::default();
    }
    reach_with(world, id, f.ma_left as u32, occupancy)
}

/// `reach_map`'s search alone, with `ma` half MP and whatever the phase (MP movement):
/// the costs by kind, never into an enemy unit, stopping in an enemy zone of control, a
/// demoralised unit never entering one, ending in a free hex; a reinforcement from its
/// entry hexes once its turn has come. The threat map asks it with the allowance the
/// unit's next movement phase gives.
pub fn reach_with(world: &World, id: UnitId, ma: u32, occupancy: &Occupancy) -> ReachMap {
    let f = flags(world, id);
    let board = world.res::<Board>();
    let zoc = world.resource::<crate::engine::zoc::ZocMap>();
    let tables = super::tables(world);
    let side = side_of(world, id);
    let enemy = side.other();
    let k = kind(world, id);
    let low_morale = demoralised(world, id);
    let n = board.hex_count();
    let mut best = vec![u32::MAX; n];
    let mut prev: Vec<Option<HexCoord>> = vec![None; n];
    let mut heap = std::collections::BinaryHeap::with_capacity(64);
    let start = hex_of(world, id);
    let enemy_at = |i: usize| occupancy.side_at[i] == Some(enemy);
    let step_costs = world.resource::<StepCosts>();
    let mut sources: Vec<(u32, usize, Option<HexCoord>)> = Vec::with_capacity(8);
    match (start, &f.arrival) {
        (Some(s), _) => {
            let i = board.index(s).expect("on the map");
            let steps = step_costs.from(k, i);
            for (d, j) in board.neighbor_indices(i).into_iter().enumerate() {
                if let Some(c) = steps[d] {
                    sources.push((c as u32, j as usize, None));
                }
            }
        }
        (None, Some((arrives, entry))) if turn(world).turn >= *arrives => {
            for &h in entry {
                if let Some(i) = board.index(h)
                    && let Some(c) = terrain_at(board, &tables, h).cost.of(k)
                {
                    sources.push((c as u32 * 2, i, None));
                }
            }
        }
        _ => return ReachMap::default(),
    }
    // The hexes reached, for the ends without a scan of the whole map.
    let mut reached: Vec<usize> = Vec::with_capacity(64);
    for (c, i, _) in sources {
        if c <= ma && !enemy_at(i) && !(low_morale && zoc.covered_at(enemy, i)) && c < best[i] {
            if best[i] == u32::MAX {
                reached.push(i);
            }
            best[i] = c;
            prev[i] = None;
            heap.push(std::cmp::Reverse((c, i)));
        }
    }
    let start_index = start.and_then(|s| board.index(s));
    while let Some(std::cmp::Reverse((c, i))) = heap.pop() {
        if c > best[i] || zoc.covered_at(enemy, i) {
            continue;
        }
        let here = board.hex_at(i);
        let steps = step_costs.from(k, i);
        for (d, j) in board.neighbor_indices(i).into_iter().enumerate() {
            let Some(step) = steps[d] else {
                continue;
            };
            let j = j as usize;
            if Some(j) == start_index || enemy_at(j) || (low_morale && zoc.covered_at(enemy, j)) {
                continue;
            }
            let nc = c + step as u32;
            if nc <= ma && nc < best[j] {
                if best[j] == u32::MAX {
                    reached.push(j);
                }
                best[j] = nc;
                prev[j] = Some(here);
                heap.push(std::cmp::Reverse((nc, j)));
            }
        }
    }
    reached.sort_unstable();
    let ends = reached
        .into_iter()
        .filter(|&i| occupancy.side_at[i].is_none())
        .map(|i| (board.hex_at(i), best[i]))
        .collect();
    ReachMap::new(board, ends, prev)
}

//! The Move Phase (spec B.2 §2, §13; the movement chapter is missing, so these are the
//! designer's readings, listed in the README): a unit moves as a body, every stand
//! stepping the same way as its first stand, up to its normal move (troops.ron) — a
//! hex in its front arc costs 1, any other way 2 (formed troops), difficult terrain
//! doubles; no stand may end a step in contact with an enemy (7.1: only a charge
//! closes to contact) nor leave a mêlée (7.32). `form` re-forms a unit: a formation,
//! a facing and its stands' hexes, which takes its Move Phase (7.7, 7.16).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::{Refusal, UnitRef};
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, HexsideFacing};
use crate::engine::units::{SideId, UnitId};

use super::data::FormationId;
use super::formation::check_shape;
use super::scenario::CmSpecialRule;
use super::*;

/// A checked move: the unit and each position of its stands, step by step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePlan {
    pub unit: UnitId,
    pub steps: Vec<Vec<HexCoord>>,
    pub cost: u32,
}

/// A checked formation change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormPlan {
    pub unit: UnitId,
    pub formation: CmFormation,
    pub stands: Vec<HexCoord>,
}

/// Every stand one hex in direction `dir`.
pub fn translate(stands: &[HexCoord], dir: usize) -> Vec<HexCoord> {
    stands.iter().map(|s| s.neighbor(dir)).collect()
}

/// Why a stand of `unit` may not stand in `hex`, if it may not: off the map, on
/// impassable terrain, on another unit's stand, or on hexes a `Passage` keeps for the
/// other side (the scenario's special rule).
pub(crate) fn blocked(
    world: &World,
    unit: UnitId,
    hex: HexCoord,
) -> Option<(&'static str, String)> {
    let board = world.res::<Board>();
    if !board.contains(hex) {
        return Some(("spec B.2 §1", format!("{hex} is off the map")));
    }
    let t = tables(world);
    let terrain = board.terrain_name(hex);
    if t.terrain_type(terrain).is_some_and(|tt| !tt.passable) {
        return Some((
            "terrain.ron",
            format!("{hex} is {terrain}: no stand enters it"),
        ));
    }
    if let Some(o) = stand_at(world, hex).filter(|o| *o != unit) {
        return Some((
            "spec B.2 §2",
            format!("{hex} holds a stand of {}", plain_name(world, o)),
        ));
    }
    if let Some(side) = passage_holder(world, hex)
        && side != side_of(world, unit)
    {
        return Some((
            "scenario: Passage",
            format!(
                "{hex} is kept for {} while they cross",
                side_name(world, side)
            ),
        ));
    }
    None
}

/// `blocked`'s tests without their words, for the many hexes one unit's steps try (a
/// charge's, a flight's, autoplay's candidate moves): the resources read once.
pub(crate) struct Ground<'w> {
    passages: Passages<'w>,
    board: &'w Board,
    tables: &'w Tables,
    index: &'w StandIndex,
    units: &'w Units,
    unit: UnitId,
    side: SideId,
    /// Units read on other stands than they hold (`Ground::past`).
    moved: &'w [(UnitId, &'w [HexCoord])],
}

impl<'w> Ground<'w> {
    pub fn of(world: &'w World, unit: UnitId) -> Self {
        Self::past(world, unit, &[])
    }

    /// The ground of `unit` once the `moved` units stand on their new stands: what a
    /// battle line's later chargers meet after its earlier ones moved (7.1, 7.7; the
    /// charge preview).
    pub fn past(world: &'w World, unit: UnitId, moved: &'w [(UnitId, &'w [HexCoord])]) -> Self {
        let units = world.res::<Units>();
        Self {
            passages: Passages::now(world),
            board: world.res::<Board>(),
            tables: &world.resource::<CmTables>().0,
            index: world.resource::<StandIndex>(),
            units,
            unit,
            side: units.side(unit),
            moved,
        }
    }

    /// The unit with a stand on `hex`, the moved units on their new stands.
    fn occupant(&self, hex: HexCoord) -> Option<UnitId> {
        if self.moved.is_empty() {
            return self.index.at(hex);
        }
        if let Some((u, _)) = self.moved.iter().find(|(_, list)| list.contains(&hex)) {
            return Some(*u);
        }
        self.index
            .at(hex)
            .filter(|o| !self.moved.iter().any(|(u, _)| u == o))
    }

    /// `touches_enemy` of the unit's side.
    pub fn touches_enemy(&self, hex: HexCoord) -> bool {
        hex.neighbors().iter().any(|n| {
            self.occupant(*n)
                .is_some_and(|o| self.units.side(o) != self.side)
        })
    }

    /// Whether `blocked(world, unit, hex)` refuses `hex`.
    pub fn blocks(&self, hex: HexCoord) -> bool {
        !self.board.contains(hex)
            || self
                .tables
                .terrain_type(self.board.terrain_name(hex))
                .is_some_and(|tt| !tt.passable)
            || self.occupant(hex).is_some_and(|o| o != self.unit)
            || self.passages.holder(hex).is_some_and(|s| s != self.side)
    }
}

/// The side a `Passage` keeps `hex` for now, when one of its stands is on those hexes.
pub(crate) fn passage_holder(world: &World, hex: HexCoord) -> Option<SideId> {
    Passages::now(world).holder(hex)
}

/// The hexes each `Passage` keeps now and the side it keeps them for: the passages in
/// force with a stand of their side on their hexes, read once for the many hexes a move
/// or a shot asks about (`passage_holder` of each).
pub(crate) struct Passages<'w>(Vec<(&'w [HexCoord], SideId)>);

impl<'w> Passages<'w> {
    pub fn now(world: &'w World) -> Self {
        Self(
            state(world)
                .special
                .iter()
                .filter_map(|r| match r {
                    CmSpecialRule::Passage {
                        side,
                        hexes,
                        until_turn,
                        ..
                    } if turn(world).turn <= *until_turn => {
                        let index = world.resource::<StandIndex>();
                        let units = world.res::<Units>();
                        let s = SideId(
                            world
                                .resource::<crate::engine::game::ScenarioInfo>()
                                .0
                                .side_index(side)?,
                        );
                        let held = hexes
                            .iter()
                            .any(|h| index.at(*h).is_some_and(|u| units.side(u) == s));
                        held.then_some((hexes.as_slice(), s))
                    }
                    _ => None,
                })
                .collect(),
        )
    }

    /// The side the first passage with `hex` among its hexes keeps it for.
    pub fn holder(&self, hex: HexCoord) -> Option<SideId> {
        self.0
            .iter()
            .find(|(hexes, _)| hexes.contains(&hex))
            .map(|(_, s)| *s)
    }
}

/// The enemy units touching a stand of `id` (7.18), once for each touch: the neighbours
/// of its stands through the stand index, the same units as a scan of every unit, found
/// without one.
pub(crate) fn enemy_contacts(world: &World, id: UnitId) -> impl Iterator<Item = UnitId> + '_ {
    let side = side_of(world, id);
    let units = world.res::<Units>();
    let index = world.resource::<StandIndex>();
    stands(world, id)
        .iter()
        .flat_map(|h| (0..6).map(move |d| h.neighbor(d)))
        .filter_map(move |h| index.at(h))
        .filter(move |&o| units.side(o) != side)
}

/// The enemy unit in contact with `id` with the lowest id, if any: the rules ask only
/// whether there is one, or name the first.
pub(crate) fn enemy_in_contact(world: &World, id: UnitId) -> Option<UnitId> {
    enemy_contacts(world, id).min()
}

/// Whether a stand in `hex` would touch an enemy stand of `side`'s.
pub(crate) fn touches_enemy(world: &World, side: SideId, hex: HexCoord) -> bool {
    let index = world.resource::<StandIndex>();
    let units = world.res::<Units>();
    hex.neighbors()
        .iter()
        .any(|n| index.at(*n).is_some_and(|o| units.side(o) != side))
}

/// Whether any stand of a unit stands in difficult terrain (7.7).
pub(crate) fn in_difficult(world: &World, list: &[HexCoord]) -> bool {
    difficult(&world.resource::<CmTables>().0, world.res::<Board>(), list)
}

/// `in_difficult` with the tables and the board in hand.
fn difficult(t: &Tables, board: &Board, list: &[HexCoord]) -> bool {
    list.iter().any(|h| {
        t.terrain_type(board.terrain_name(*h))
            .is_some_and(|tt| tt.difficult)
    })
}

/// Refuses a unit that may not act in its side's Move Phase.
fn may_act(world: &World, id: UnitId) -> Result<(), Refusal> {
    if phase(world) != CmPhase::Movement {
        return Err(Refusal::new(
            "spec B.2 §13",
            format!(
                "units move in the Move Phase, not in the {}",
                phase(world).view().label
            ),
        ));
    }
    if !is_troop(world, id) {
        return Err(Refusal::new(
            "C&M 7.15",
            format!(
                "{} is a leader: he moves with the unit his command stand is in",
                plain_name(world, id)
            ),
        ));
    }
    let side = side_of(world, id);
    if side != turn(world).active {
        return Err(Refusal::new(
            "spec B.2 §13",
            format!(
                "{} is {}'s: it is {}'s Move Phase",
                plain_name(world, id),
                side_name(world, side),
                side_name(world, turn(world).active)
            ),
        ));
    }
    if status(world, id).moved {
        return Err(Refusal::new(
            "spec B.2 §2",
            format!(
                "{} has moved or re-formed this Move Phase",
                plain_name(world, id)
            ),
        ));
    }
    if posture(world, id) == Some(Posture::Routing) {
        return Err(Refusal::new(
            "C&M 7.16",
            format!(
                "{} is routing: it flees, it does not move at will",
                plain_name(world, id)
            ),
        ));
    }
    if let Some(e) = enemy_in_contact(world, id) {
        return Err(Refusal::new(
            "C&M 7.32",
            format!(
                "{} is in mêlée with {}: the only way out is a push-back, a retirement or a break",
                plain_name(world, id),
                plain_name(world, e)
            ),
        ));
    }
    Ok(())
}

/// `check_move`'s refusals of the unit whatever its path (autoplay reads them once a
/// unit rather than once a candidate step).
pub(crate) fn may_move(world: &World, id: UnitId) -> Result<(), Refusal> {
    may_act(world, id)?;
    if posture(world, id) == Some(Posture::Halted) {
        return Err(Refusal::new(
            "C&M 7.16",
            format!(
                "{} is halted this turn: it may change formation or facing, not move",
                plain_name(world, id)
            ),
        ));
    }
    Ok(())
}

/// Checks `move UNIT HEX…`: the path of the unit's first stand, every stand stepping
/// the same way.
pub fn check_move(world: &World, unit: &UnitRef, path: &[HexCoord]) -> Result<MovePlan, Refusal> {
    let id = resolve(world, unit)?;
    may_move(world, id)?;
    check_path(world, id, path)
}

/// `check_move` of a unit `may_move` lets move: its path (`path_plan`), refused in words.
pub(crate) fn check_path(
    world: &World,
    id: UnitId,
    path: &[HexCoord],
) -> Result<MovePlan, Refusal> {
    path_plan(world, &Ground::of(world, id), path).map_err(|fault| match fault {
        PathFault::NotNext(to, from) => Refusal::new(
            "spec B.2 §2",
            format!("{to} is not next to {from}: a move goes hex by hex"),
        ),
        PathFault::Blocked(h) => {
            let (rule, why) = blocked(world, id, h).expect("`Ground::blocks` reads `blocked`");
            Refusal::new(rule, why)
        }
        PathFault::TouchesEnemy(h) => Refusal::new(
            "C&M 7.1",
            format!("a stand in {h} would touch the enemy: only a charge closes to contact"),
        ),
        PathFault::TooFar(cost, allowance) => Refusal::new(
            "troops.ron",
            format!(
                "the move costs {cost} and {} moves {allowance} (front arc 1 a hex, other ways 2, difficult terrain double)",
                plain_name(world, id)
            ),
        ),
        PathFault::Empty => Refusal::new("spec B.2 §2", "a move needs at least one hex"),
    })
}

/// Why `check_path` refuses a path, before the words.
pub(crate) enum PathFault {
    NotNext(HexCoord, HexCoord),
    Blocked(HexCoord),
    TouchesEnemy(HexCoord),
    TooFar(u32, u32),
    Empty,
}

/// `check_path` without the words of its refusals, on the ground of the unit
/// (`Ground::of`) read once for the many steps autoplay tries, which asks only which
/// are legal.
pub(crate) fn path_plan(
    world: &World,
    ground: &Ground,
    path: &[HexCoord],
) -> Result<MovePlan, PathFault> {
    let id = ground.unit;
    let allowance =
        u32::from(ground.tables.troops.troops[component::<CmUnit>(world, id).troop].normal_move);
    let f = formation(world, id);
    let start = stands(world, id);
    let mut cost = 0u32;
    let mut steps: Vec<Vec<HexCoord>> = Vec::new();
    for &to in path {
        // Where the stands are: the last step's hexes, at first their own.
        let at = steps.last().map_or(start, |l| l.as_slice());
        let Some(dir) = at[0].direction_to(to) else {
            return Err(PathFault::NotNext(to, at[0]));
        };
        let next = translate(at, dir);
        for &h in &next {
            if ground.blocks(h) {
                return Err(PathFault::Blocked(h));
            }
            if ground.touches_enemy(h) {
                return Err(PathFault::TouchesEnemy(h));
            }
        }
        let front = [0, 1, 5].contains(&((dir + 6 - f.facing.0 as usize) % 6));
        let base = if !f.formed() || front { 1 } else { 2 };
        let step = if difficult(ground.tables, ground.board, &next) {
            2 * base
        } else {
            base
        };
        cost += step;
        if cost > allowance {
            return Err(PathFault::TooFar(cost, allowance));
        }
        steps.push(next);
    }
    if steps.is_empty() {
        return Err(PathFault::Empty);
    }
    Ok(MovePlan {
        unit: id,
        steps,
        cost,
    })
}

pub fn execute_move(world: &mut World, plan: MovePlan) {
    let id = plan.unit;
    let from = stands(world, id).to_vec();
    let to = plan.steps.last().cloned().unwrap_or(from.clone());
    shift_stands(world, id, to.clone());
    component_mut::<CmStatus>(world, id).moved = true;
    log(world, EventKind::Moved, "spec B.2 §2", |w| {
        format!(
            "{} moves from {} to {} ({} of its move)",
            name(w, id),
            from[0],
            to[0],
            plan.cost
        )
    });
}

/// Checks `form UNIT FORMATION FACING [HEX…]`.
pub fn check_form(
    world: &World,
    unit: &UnitRef,
    formation_id: FormationId,
    facing: HexsideFacing,
    new: &[HexCoord],
) -> Result<FormPlan, Refusal> {
    let id = resolve(world, unit)?;
    may_act(world, id)?;
    let t = tables(world);
    let troop = &t.troops.troops[component::<CmUnit>(world, id).troop];
    let shape = t.formation(formation_id);
    if shape.foot_only && troop.category.mounted() {
        return Err(Refusal::new(
            "C&M 7.10",
            format!(
                "{formation_id:?} is for foot: {} is mounted",
                plain_name(world, id)
            ),
        ));
    }
    let old = stands(world, id).to_vec();
    let list = if new.is_empty() {
        old.clone()
    } else {
        new.to_vec()
    };
    if list.len() != old.len() {
        return Err(Refusal::new(
            "spec B.2 §2",
            format!(
                "{} has {} stands, not {}",
                plain_name(world, id),
                old.len(),
                list.len()
            ),
        ));
    }
    if !list.iter().any(|h| old.contains(h)) {
        return Err(Refusal::new(
            "spec B.2 §2",
            "a unit re-forms on its own ground: one of its stands stays where it is",
        ));
    }
    let reach = u32::from(troop.normal_move);
    let side = side_of(world, id);
    for &h in &list {
        if let Some((rule, why)) = blocked(world, id, h) {
            return Err(Refusal::new(rule, why));
        }
        if old.iter().map(|o| o.distance(h)).min().unwrap_or(0) > reach {
            return Err(Refusal::new(
                "troops.ron",
                format!("{h} is beyond {reach} hexes of every stand of the unit"),
            ));
        }
        if touches_enemy(world, side, h) && !old.contains(&h) {
            return Err(Refusal::new(
                "C&M 7.1",
                format!("a stand in {h} would touch the enemy: only a charge closes to contact"),
            ));
        }
    }
    check_shape(&list, Some(facing), shape.shape)
        .map_err(|fault| Refusal::new("spec B.2 §2", fault.describe()))?;
    Ok(FormPlan {
        unit: id,
        formation: CmFormation {
            id: formation_id,
            facing,
        },
        stands: list,
    })
}

pub fn execute_form(world: &mut World, plan: FormPlan) {
    let id = plan.unit;
    *component_mut::<CmFormation>(world, id) = plan.formation;
    component_mut::<CmStatus>(world, id).moved = true;
    shift_stands(world, id, plan.stands.clone());
    // Re-forming ends a retirement (7.16: "halt and re-form").
    if posture(world, id) == Some(Posture::Retiring) {
        set_posture(world, id, None);
    }
    log(world, EventKind::Moved, "spec B.2 §2", |w| {
        let hexes: Vec<String> = plan.stands.iter().map(|h| h.label()).collect();
        format!(
            "{} forms {:?} facing {} in {}",
            name(w, id),
            plan.formation.id,
            plan.formation.facing.name(),
            hexes.join(" ")
        )
    });
}

/// The direction of a step that takes `list` furthest from (`away`) or nearest to the
/// stands `of`, among the legal ones for `unit`; ties go to the lowest offset from
/// `prefer`. `None` when no step is legal (or none gains).
pub(crate) fn best_step(
    world: &World,
    unit: UnitId,
    list: &[HexCoord],
    of: &[HexCoord],
    away: bool,
    prefer: usize,
) -> Option<usize> {
    best_step_on(&Ground::of(world, unit), list, of, away, prefer)
}

/// `best_step` on the ground of the unit (`Ground::of`), read once for the steps of a
/// move that changes nothing else.
fn best_step_on(
    ground: &Ground,
    list: &[HexCoord],
    of: &[HexCoord],
    away: bool,
    prefer: usize,
) -> Option<usize> {
    // The stands after a step in `dir` are read without building them (`translate`).
    let stepped = |dir: usize| list.iter().map(move |s| s.neighbor(dir));
    let dist = |l: &mut dyn Iterator<Item = HexCoord>| {
        l.flat_map(|a| of.iter().map(move |b| a.distance(*b)))
            .min()
            .unwrap_or(0) as i32
    };
    let now = dist(&mut list.iter().copied());
    let mut best: Option<(i32, usize)> = None;
    for k in [0usize, 1, 5, 2, 4, 3] {
        let dir = (prefer + k) % 6;
        if stepped(dir).any(|h| ground.blocks(h)) {
            continue;
        }
        let d = dist(&mut stepped(dir));
        let gain = if away { d - now } else { now - d };
        if gain > 0 && best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, dir));
        }
        // One step moves every stand one hex: no distance, nor the least of them,
        // changes by more than 1, so no later direction gains more (the first
        // direction to gain 1 is the best).
        if gain >= 1 {
            break;
        }
    }
    best.map(|(_, d)| d)
}

/// Moves a unit up to `hexes` away from `from` (flight: retire, break, fall back,
/// evade), stepping by `best_step`; returns the hexes moved.
pub(crate) fn flee(world: &mut World, id: UnitId, from: &[UnitId], hexes: u32) -> u32 {
    let of: Vec<HexCoord> = from
        .iter()
        .flat_map(|o| stands(world, *o).to_vec())
        .collect();
    let prefer = formation(world, id).facing.reversed().0 as usize;
    let mut moved = 0;
    for _ in 0..hexes {
        let list = stands(world, id).to_vec();
        let Some(dir) = best_step(world, id, &list, &of, true, prefer) else {
            break;
        };
        shift_stands(world, id, translate(&list, dir));
        moved += 1;
    }
    moved
}

/// Moves a unit up to `hexes` towards `to`'s stands until contact (charge, pursuit,
/// follow-up); returns the hexes moved.
pub(crate) fn close_in(world: &mut World, id: UnitId, to: &[UnitId], hexes: u32) -> u32 {
    let steps = closing_steps(world, id, to, hexes);
    let moved = steps.len() as u32 - 1;
    if moved > 0 {
        let last = steps
            .into_iter()
            .next_back()
            .expect("the start is the first step");
        shift_stands(world, id, last);
    }
    moved
}

/// The stands of `id` before each step of a move of up to `hexes` towards the units `to`
/// (7.7, 7.12): the start, then after each step, until contact or no step gains; what
/// `close_in` moves, read without moving (the charge preview).
pub(crate) fn closing_steps(
    world: &World,
    id: UnitId,
    to: &[UnitId],
    hexes: u32,
) -> Vec<Vec<HexCoord>> {
    closing_steps_past(world, id, to, hexes, &[])
}

/// `closing_steps` once the `moved` units stand on their new stands (`Ground::past`):
/// a battle line's charger after the units of the line that moved before it (7.1).
pub(crate) fn closing_steps_past(
    world: &World,
    id: UnitId,
    to: &[UnitId],
    hexes: u32,
    moved: &[(UnitId, &[HexCoord])],
) -> Vec<Vec<HexCoord>> {
    let of: Vec<HexCoord> = to.iter().flat_map(|o| stands(world, *o).to_vec()).collect();
    let prefer = formation(world, id).facing.0 as usize;
    let mut steps = vec![stands(world, id).to_vec()];
    // Read without moving: the ground is the same at every step.
    let ground = Ground::past(world, id, moved);
    for _ in 0..hexes {
        let list = steps.last().expect("the start");
        if list.iter().any(|x| of.iter().any(|y| x.is_adjacent(*y))) {
            break;
        }
        let Some(dir) = best_step_on(&ground, list, &of, false, prefer) else {
            break;
        };
        steps.push(translate(list, dir));
    }
    steps
}

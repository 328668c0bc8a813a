//! The Move Phase (spec B.2 §2, §13; the movement chapter is missing, so these are the
//! designer's readings, listed in the README): a unit moves as a body, every stand
//! stepping the same way as its first stand, up to its normal move (troops.ron) — a
//! hex in its front arc costs 1, any other way 2 (formed troops), difficult terrain
//! doubles; no stand may end a step in contact with an enemy (7.1: only a charge
//! closes to contact) nor leave a mêlée (7.32). `form` re-forms a unit: a formation,
//! a facing and its stands' hexes, which takes its Move Phase (7.7, 7.16).

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
    let board = world.resource::<Board>();
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
    world: &'w World,
    board: &'w Board,
    tables: &'w Tables,
    index: &'w StandIndex,
    unit: UnitId,
    side: SideId,
}

impl<'w> Ground<'w> {
    pub fn of(world: &'w World, unit: UnitId) -> Self {
        Self {
            world,
            board: world.resource::<Board>(),
            tables: &world.resource::<CmTables>().0,
            index: world.resource::<StandIndex>(),
            unit,
            side: side_of(world, unit),
        }
    }

    /// Whether `blocked(world, unit, hex)` refuses `hex`.
    pub fn blocks(&self, hex: HexCoord) -> bool {
        !self.board.contains(hex)
            || self
                .tables
                .terrain_type(self.board.terrain_name(hex))
                .is_some_and(|tt| !tt.passable)
            || self.index.at(hex).is_some_and(|o| o != self.unit)
            || passage_holder(self.world, hex).is_some_and(|s| s != self.side)
    }
}

/// The side a `Passage` keeps `hex` for now, when one of its stands is on those hexes.
pub(crate) fn passage_holder(world: &World, hex: HexCoord) -> Option<SideId> {
    let special = &state(world).special;
    if special.is_empty() {
        return None;
    }
    let now = turn(world).turn;
    special.iter().find_map(|r| match r {
        CmSpecialRule::Passage {
            side,
            hexes,
            until_turn,
            ..
        } if now <= *until_turn && hexes.contains(&hex) => {
            let s = SideId(
                world
                    .resource::<crate::engine::game::ScenarioInfo>()
                    .0
                    .side_index(side)?,
            );
            let index = world.resource::<StandIndex>();
            let units = world.resource::<Units>();
            let held = hexes
                .iter()
                .any(|h| index.at(*h).is_some_and(|u| units.side(u) == s));
            held.then_some(s)
        }
        _ => None,
    })
}

/// Whether a stand in `hex` would touch an enemy stand of `side`'s.
pub(crate) fn touches_enemy(world: &World, side: SideId, hex: HexCoord) -> bool {
    let index = world.resource::<StandIndex>();
    let units = world.resource::<Units>();
    hex.neighbors()
        .iter()
        .any(|n| index.at(*n).is_some_and(|o| units.side(o) != side))
}

/// Whether any stand of a unit stands in difficult terrain (7.7).
pub(crate) fn in_difficult(world: &World, list: &[HexCoord]) -> bool {
    let t = tables(world);
    let board = world.resource::<Board>();
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
    if let Some(&e) = enemies_in_contact(world, id).first() {
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

/// Checks `move UNIT HEX…`: the path of the unit's first stand, every stand stepping
/// the same way.
pub fn check_move(world: &World, unit: &UnitRef, path: &[HexCoord]) -> Result<MovePlan, Refusal> {
    let id = resolve(world, unit)?;
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
    let t = tables(world);
    let allowance = u32::from(t.troops.troops[component::<CmUnit>(world, id).troop].normal_move);
    let f = formation(world, id);
    let side = side_of(world, id);
    let mut at = stands(world, id).to_vec();
    let mut cost = 0u32;
    let mut steps = Vec::new();
    let ground = Ground::of(world, id);
    for &to in path {
        let Some(dir) = at[0].direction_to(to) else {
            return Err(Refusal::new(
                "spec B.2 §2",
                format!("{to} is not next to {}: a move goes hex by hex", at[0]),
            ));
        };
        let next = translate(&at, dir);
        for &h in &next {
            // The words only for a hex that blocks.
            if ground.blocks(h)
                && let Some((rule, why)) = blocked(world, id, h)
            {
                return Err(Refusal::new(rule, why));
            }
            if touches_enemy(world, side, h) {
                return Err(Refusal::new(
                    "C&M 7.1",
                    format!(
                        "a stand in {h} would touch the enemy: only a charge closes to contact"
                    ),
                ));
            }
        }
        let front = [0, 1, 5].contains(&((dir + 6 - f.facing.0 as usize) % 6));
        let base = if !f.formed() || front { 1 } else { 2 };
        let step = if in_difficult(world, &next) {
            2 * base
        } else {
            base
        };
        cost += step;
        if cost > allowance {
            return Err(Refusal::new(
                "troops.ron",
                format!(
                    "the move costs {cost} and {} moves {allowance} (front arc 1 a hex, other ways 2, difficult terrain double)",
                    plain_name(world, id)
                ),
            ));
        }
        steps.push(next.clone());
        at = next;
    }
    if steps.is_empty() {
        return Err(Refusal::new("spec B.2 §2", "a move needs at least one hex"));
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
    let dist = |l: &[HexCoord]| {
        l.iter()
            .flat_map(|a| of.iter().map(move |b| a.distance(*b)))
            .min()
            .unwrap_or(0) as i32
    };
    let now = dist(list);
    let ground = Ground::of(world, unit);
    let mut best: Option<(i32, usize)> = None;
    for k in [0usize, 1, 5, 2, 4, 3] {
        let dir = (prefer + k) % 6;
        let next = translate(list, dir);
        if next.iter().any(|h| ground.blocks(*h)) {
            continue;
        }
        let d = dist(&next);
        let gain = if away { d - now } else { now - d };
        if gain > 0 && best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, dir));
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
    let of: Vec<HexCoord> = to.iter().flat_map(|o| stands(world, *o).to_vec()).collect();
    let prefer = formation(world, id).facing.0 as usize;
    let mut steps = vec![stands(world, id).to_vec()];
    for _ in 0..hexes {
        let list = steps.last().expect("the start");
        if list.iter().any(|x| of.iter().any(|y| x.is_adjacent(*y))) {
            break;
        }
        let Some(dir) = best_step(world, id, list, &of, false, prefer) else {
            break;
        };
        steps.push(translate(list, dir));
    }
    steps
}

//! Zones of control as components: each unit that exerts one holds the hexes of its
//! zone, and `ZocMap` counts them per side and hex for movement checks. A system
//! recomputes them whenever a unit's placement, side, facing or hiding changes. Which
//! hexes a zone covers is the ruleset's rule, given as its `ZoneShape`.

use bevy::prelude::*;

use super::board::Board;
use super::hex::HexCoord;
use super::hex::VertexFacing;
use super::units::{Facing, Hidden, Placement, SideId};

/// Marks units that exert a zone of control (which ones is the ruleset's rule).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct ExertsZoc;

/// The hexes of one unit's zone of control, and the side they count for.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct ZoneOfControl {
    pub side: Option<SideId>,
    pub hexes: Vec<HexCoord>,
}

/// The hexes a unit standing in a hex (facing a vertex, where the ruleset has facing)
/// holds in its zone of control: the ruleset's rule, inserted by it. The default
/// covers nothing.
#[derive(Resource, Clone, Copy)]
pub struct ZoneShape(pub fn(&Board, HexCoord, Option<VertexFacing>, &mut Vec<HexCoord>));

impl Default for ZoneShape {
    fn default() -> Self {
        Self(|_, _, _, _| {})
    }
}

/// For each side, how many of its units' zones cover each hex.
#[derive(Resource, Clone, Debug, Default)]
pub struct ZocMap {
    per_side: [Vec<u8>; 2],
}

impl ZocMap {
    pub fn new(board: &Board) -> Self {
        Self {
            per_side: [vec![0; board.hex_count()], vec![0; board.hex_count()]],
        }
    }

    /// Whether the hex at a board index lies in a zone of control of `side`.
    pub fn covered_at(&self, side: SideId, index: usize) -> bool {
        self.per_side[side.0 as usize][index] > 0
    }

    /// Whether `hex` lies in a zone of control of a unit of `side`.
    pub fn covered_by(&self, board: &Board, side: SideId, hex: HexCoord) -> bool {
        board
            .index(hex)
            .is_some_and(|i| self.per_side[side.0 as usize][i] > 0)
    }
}

impl ZocMap {
    fn add(&mut self, board: &Board, zone: &ZoneOfControl, sign: i8) {
        let Some(side) = zone.side else { return };
        for h in &zone.hexes {
            if let Some(i) = board.index(*h) {
                let c = &mut self.per_side[side.0 as usize][i];
                *c = c.saturating_add_signed(sign);
            }
        }
    }
}

/// Sets a unit's zone from where it stands now.
#[allow(clippy::too_many_arguments)]
fn rezone(
    board: &Board,
    shape: &ZoneShape,
    placement: &Placement,
    side: SideId,
    facing: Option<&Facing>,
    hidden: bool,
    exerts: bool,
    zone: &mut ZoneOfControl,
) {
    zone.hexes.clear();
    zone.side = None;
    if let Some(at) = placement.hex()
        && exerts
        && !hidden
    {
        zone.side = Some(side);
        (shape.0)(board, at, facing.map(|f| f.0), &mut zone.hexes);
    }
}

/// Keeps zones of control current: the zones of units whose placement, side, hiding or
/// zone-exerting status changed since the system last ran are taken out of `ZocMap`
/// and put back from their new state; a new or replaced `ZocMap` is rebuilt whole.
#[allow(clippy::type_complexity)]
pub fn recompute_zones_of_control(
    board: Res<Board>,
    shape: Res<ZoneShape>,
    mut map: ResMut<ZocMap>,
    changed: Query<
        Entity,
        Or<(
            Changed<Placement>,
            Changed<SideId>,
            Changed<Facing>,
            Added<ExertsZoc>,
            Added<Hidden>,
        )>,
    >,
    mut removed_hidden: RemovedComponents<Hidden>,
    mut removed_zoc: RemovedComponents<ExertsZoc>,
    mut units: Query<(
        &Placement,
        &SideId,
        Option<&Facing>,
        Has<Hidden>,
        Has<ExertsZoc>,
        &mut ZoneOfControl,
    )>,
) {
    if map.is_changed() {
        let n = board.hex_count();
        for side in &mut map.per_side {
            side.clear();
            side.resize(n, 0);
        }
        for (placement, side, facing, hidden, exerts, mut zone) in &mut units {
            rezone(
                &board, &shape, placement, *side, facing, hidden, exerts, &mut zone,
            );
            map.add(&board, &zone, 1);
        }
        removed_hidden.clear();
        removed_zoc.clear();
        return;
    }
    let mut todo: Vec<Entity> = changed.iter().collect();
    todo.extend(removed_hidden.read());
    todo.extend(removed_zoc.read());
    if todo.is_empty() {
        return;
    }
    todo.sort();
    todo.dedup();
    for e in todo {
        let Ok((placement, side, facing, hidden, exerts, mut zone)) = units.get_mut(e) else {
            continue;
        };
        map.add(&board, &zone, -1);
        rezone(
            &board, &shape, placement, *side, facing, hidden, exerts, &mut zone,
        );
        map.add(&board, &zone, 1);
    }
}

//! Zones of control as components: each unit that exerts one holds the hexes of its
//! zone, and `ZocMap` counts them per side and hex for movement checks. A system
//! recomputes both whenever a unit's placement changes (AlC 11: the six surrounding
//! hexes, not across a river except at a bridge).

use bevy::prelude::*;

use super::board::Board;
use super::hex::HexCoord;
use super::units::{Hidden, Placement, SideId};

/// Marks units that exert a zone of control (combat units in AlC 11).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct ExertsZoc;

/// The hexes of one unit's zone of control.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct ZoneOfControl(pub Vec<HexCoord>);

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

    /// Whether `hex` lies in a zone of control of a unit of `side`.
    pub fn covered_by(&self, board: &Board, side: SideId, hex: HexCoord) -> bool {
        board
            .index(hex)
            .is_some_and(|i| self.per_side[side.0 as usize][i] > 0)
    }
}

/// The zone a unit at `at` exerts: adjacent hexes on the map whose hexside carries no
/// unbridged river (AlC 11).
pub fn zone_around(board: &Board, at: HexCoord) -> Vec<HexCoord> {
    board
        .neighbors_on_map(at)
        .filter(|n| !board.hexside(at, *n).is_unbridged_river())
        .collect()
}

/// Recomputes every zone of control when any placement, hiding or zone-exerting
/// status changed since the system last ran.
#[allow(clippy::type_complexity)]
pub fn recompute_zones_of_control(
    board: Res<Board>,
    mut map: ResMut<ZocMap>,
    changed: Query<(), Or<(Changed<Placement>, Added<ExertsZoc>)>>,
    removed_hidden: RemovedComponents<Hidden>,
    removed_zoc: RemovedComponents<ExertsZoc>,
    mut units: Query<(
        &Placement,
        &SideId,
        Has<Hidden>,
        Has<ExertsZoc>,
        &mut ZoneOfControl,
    )>,
) {
    if changed.is_empty()
        && removed_hidden.is_empty()
        && removed_zoc.is_empty()
        && !map.per_side[0].is_empty()
        && !map.is_changed()
    {
        return;
    }
    let n = board.hex_count();
    for side in &mut map.per_side {
        side.clear();
        side.resize(n, 0);
    }
    for (placement, side, hidden, exerts, mut zone) in &mut units {
        let hexes = match placement.hex() {
            Some(at) if exerts && !hidden => zone_around(&board, at),
            _ => Vec::new(),
        };
        for h in &hexes {
            if let Some(i) = board.index(*h) {
                map.per_side[side.0 as usize][i] += 1;
            }
        }
        if zone.0 != hexes {
            zone.0 = hexes;
        }
    }
}

//! Units as entities: the components every ruleset shares (stable id, side, hex, steps,
//! leader), and the `Units` index that finds a unit by id or by hex without a query.

use bevy::prelude::*;
use serde::Serialize;

use super::board::Board;
use super::hex::HexCoord;

/// A unit's stable number: its place in the scenario's unit list. Every loop that can
/// consume dice or order events walks units in this order.
#[derive(Component, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
pub struct UnitId(pub u16);

/// The scenario's identifier and printed name of a unit.
#[derive(Component, Clone, Debug)]
pub struct UnitName {
    pub key: String,
    pub name: String,
}

/// Which side a unit fights for, as an index into the scenario's sides.
#[derive(
    Component, Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Default,
)]
pub struct SideId(pub u8);

impl SideId {
    pub fn other(self) -> Self {
        Self(1 - self.0)
    }
}

/// Where a unit is: on the map, waiting to enter, or gone.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Placement {
    OnMap(HexCoord),
    /// A reinforcement not yet on the map.
    Waiting,
    Eliminated,
}

impl Placement {
    pub fn hex(self) -> Option<HexCoord> {
        match self {
            Placement::OnMap(h) => Some(h),
            _ => None,
        }
    }
}

/// Steps left of the unit's steps (two-sided counters have 2; leaders 1).
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub struct Steps {
    pub left: u8,
    pub max: u8,
}

impl Steps {
    pub fn is_reduced(self) -> bool {
        self.left < self.max
    }
}

/// A leader: not a combat unit, may stack with friendly units.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub struct Leader {
    pub rating: i32,
    pub commander: bool,
}

/// The vertex a unit faces (CdB 6, CtB 3). A unit with a facing exerts its zone of
/// control into its two frontal hexes only (CdB 7.1).
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub struct Facing(pub super::hex::VertexFacing);

/// A unit placed in secret, seen only by its owner until revealed.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hidden;

/// Finds units by id and by hex, and knows where each is and whose it is. Every change
/// of placement goes through `relocate` and of side through `change_side` (the shared
/// rules layer's `set_placement` and `set_side`, which also write the components), so
/// the index cannot drift from the components. Placements and sides are kept here too
/// because rules ask for them in their inner loops: one resource lookup instead of a
/// resource and a component lookup.
#[derive(Resource, Clone, Debug, Default)]
pub struct Units {
    entities: Vec<Entity>,
    placements: Vec<Placement>,
    sides: Vec<SideId>,
    at_hex: Vec<Vec<UnitId>>,
}

impl Units {
    pub fn new(board: &Board) -> Self {
        Self {
            entities: Vec::new(),
            placements: Vec::new(),
            sides: Vec::new(),
            at_hex: vec![Vec::new(); board.hex_count()],
        }
    }

    pub fn register(
        &mut self,
        board: &Board,
        id: UnitId,
        entity: Entity,
        side: SideId,
        at: Placement,
    ) {
        debug_assert_eq!(id.0 as usize, self.entities.len());
        self.entities.push(entity);
        self.placements.push(at);
        self.sides.push(side);
        if let Some(i) = at.hex().and_then(|h| board.index(h)) {
            self.at_hex[i].push(id);
        }
    }

    pub fn entity(&self, id: UnitId) -> Entity {
        self.entities[id.0 as usize]
    }

    /// Where a unit is (the same as its `Placement` component).
    #[inline]
    pub fn placement(&self, id: UnitId) -> Placement {
        self.placements[id.0 as usize]
    }

    /// A unit's side (the same as its `SideId` component).
    #[inline]
    pub fn side(&self, id: UnitId) -> SideId {
        self.sides[id.0 as usize]
    }

    /// Records that `id` now fights for `side` (the shared rules layer's `set_side`
    /// writes the component too).
    pub fn change_side(&mut self, id: UnitId, side: SideId) {
        self.sides[id.0 as usize] = side;
    }

    pub fn len(&self) -> usize {
        self.entities.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    pub fn ids(&self) -> impl Iterator<Item = UnitId> + use<> {
        (0..self.entities.len() as u16).map(UnitId)
    }

    /// The units in a hex, in id order.
    pub fn at(&self, board: &Board, hex: HexCoord) -> &[UnitId] {
        board
            .index(hex)
            .map_or(&[][..], |i| self.at_hex[i].as_slice())
    }

    /// Records that `id` is now at `placement`, moving it in the hex index from the hex
    /// at flat index `from` to the one at `to` (`None`: off the map).
    pub fn relocate(
        &mut self,
        id: UnitId,
        placement: Placement,
        from: Option<usize>,
        to: Option<usize>,
    ) {
        self.placements[id.0 as usize] = placement;
        if let Some(i) = from {
            self.at_hex[i].retain(|u| *u != id);
        }
        if let Some(i) = to {
            let list = &mut self.at_hex[i];
            list.push(id);
            list.sort();
        }
    }
}

// Read by the kept id in the rules' inner loops (`engine::cached`).
crate::cached_id!(Units, Hidden, UnitName, Facing);

//! The units of a charge combat (C&M 7.15) as its arithmetic reads them: `Where` the
//! stands are (as they stand, or with the charge preview's charger at its point of
//! contact), and each unit of the combat read once (`Combatant`). The combat asks about
//! each unit many times — its frontage against every enemy, whether it faces them, its
//! factors, its result's conditions — and every look-up in the world searches for a
//! resource and a component, which was most of a charge resolution's cost.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::hex::HexCoord;
use crate::engine::units::{UnitId, Units};

use super::data::{Tables, TroopType};
use super::{CmFormation, CmMorale, CmStands, CmTables, CmUnit, component_of};

/// A unit read elsewhere than it stands, with other morale: a charger at its point of
/// contact, its fatigue and the hits of the shooting at it taken (the charge preview).
pub(crate) type Moved<'a> = (UnitId, &'a [HexCoord], CmMorale);

/// Where the units' stands are for a rule that reads them: as they stand, or with some
/// units elsewhere and with other morale (the charge preview reads a charger, or each
/// unit of a battle line, at its point of contact, fatigue taken, through the resolver's
/// own functions). The resources the combat reads are looked up once, with it.
#[derive(Clone, Copy)]
pub(crate) struct Where<'a> {
    pub world: &'a World,
    pub moved: &'a [Moved<'a>],
    pub tables: &'a Tables,
    pub board: &'a Board,
    units: &'a Units,
}

impl<'a> Where<'a> {
    /// Every unit as it stands.
    pub fn now(world: &'a World) -> Self {
        Self::with(world, &[])
    }

    /// Every unit as it stands but the `moved`: each on other stands, with other morale.
    pub fn with(world: &'a World, moved: &'a [Moved<'a>]) -> Self {
        Self {
            world,
            moved,
            tables: &world.resource::<CmTables>().0,
            board: world.res::<Board>(),
            units: world.res::<Units>(),
        }
    }

    /// A component every unit of stands has, the unit index in hand.
    fn get<C: Component>(&self, id: UnitId) -> &'a C {
        component_of(self.world, self.units, id)
    }

    pub fn stands(&self, id: UnitId) -> &'a [HexCoord] {
        match self.moved.iter().find(|(m, _, _)| *m == id) {
            Some((_, list, _)) => list,
            None => &self.get::<CmStands>(id).0,
        }
    }

    pub fn morale(&self, id: UnitId) -> CmMorale {
        match self.moved.iter().find(|(m, _, _)| *m == id) {
            Some((_, _, morale)) => *morale,
            None => *self.get::<CmMorale>(id),
        }
    }
}

/// A unit in a charge combat, each of its components read once.
#[derive(Clone, Copy)]
pub(crate) struct Combatant<'a> {
    pub id: UnitId,
    pub unit: CmUnit,
    pub troop: &'a TroopType,
    pub stands: &'a [HexCoord],
    pub formation: CmFormation,
    pub morale: CmMorale,
    /// The elevation of its highest stand (7.15's advantage of ground).
    pub height: i8,
}

impl<'a> Combatant<'a> {
    pub fn read(w: Where<'a>, id: UnitId) -> Self {
        let unit = *w.get::<CmUnit>(id);
        let stands = w.stands(id);
        Self {
            id,
            unit,
            troop: &w.tables.troops.troops[unit.troop],
            stands,
            formation: *w.get::<CmFormation>(id),
            morale: w.morale(id),
            height: stands
                .iter()
                .map(|h| w.board.elevation(*h))
                .max()
                .unwrap_or(0),
        }
    }

    /// Each of `ids`, read.
    pub fn read_all(w: Where<'a>, ids: &[UnitId]) -> Vec<Self> {
        ids.iter().map(|id| Self::read(w, *id)).collect()
    }
}

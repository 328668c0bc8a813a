//! The threat map: for the side to act, every hex with the enemy units that could
//! attack a unit there in their side's next phase, and the best odds or dice each would
//! have. Each unit's threats are the ruleset's answer (`Ruleset::threats`), read from
//! its own movement, zone-of-control, facing and combat functions; this module only
//! gathers them by hex.

use crate::engine::cached::CachedWorld;
use std::collections::BTreeMap;

use bevy::prelude::*;

use super::hex::HexCoord;
use super::ruleset::Ruleset;
use super::units::{SideId, UnitId, Units};

/// What one unit could do to a hex in its side's next phase: the ruleset's words for
/// the best attack it could make there ("6 against 2: 3-1", "2 dice at 4+"): odds
/// against the unit standing there now, or its own strength on an empty hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitThreat {
    pub hex: HexCoord,
    pub best: String,
}

/// One enemy unit that threatens a hex, with its best attack there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threat {
    pub unit: UnitId,
    pub best: String,
}

/// The threat map of one side: each hex some enemy unit could attack, with those units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreatMap {
    /// The side threatened (the side to act when the map was made).
    pub side: SideId,
    pub hexes: BTreeMap<HexCoord, Vec<Threat>>,
}

impl ThreatMap {
    /// The threats to `side`: every unit of the other sides, asked of the ruleset.
    pub fn of(world: &World, ruleset: &dyn Ruleset, side: SideId) -> Self {
        let units = world.res::<Units>();
        let mut hexes: BTreeMap<HexCoord, Vec<Threat>> = BTreeMap::new();
        for id in units.ids() {
            // A hidden unit (an ambush) threatens unseen: the map shows what the side
            // to act may know.
            if units.side(id) == side
                || units.placement(id).hex().is_none()
                || world
                    .get::<super::units::Hidden>(units.entity(id))
                    .is_some()
            {
                continue;
            }
            for t in ruleset.threats(world, id) {
                let list = hexes.entry(t.hex).or_default();
                // A ruleset may name a hex twice (two ways to attack it): the first,
                // its best, is kept.
                if !list.iter().any(|x| x.unit == id) {
                    list.push(Threat {
                        unit: id,
                        best: t.best,
                    });
                }
            }
        }
        Self { side, hexes }
    }

    /// How many enemy units could attack `hex`.
    pub fn count(&self, hex: HexCoord) -> usize {
        self.hexes.get(&hex).map_or(0, Vec::len)
    }

    /// The units that could attack `hex`, each with its best attack.
    pub fn at(&self, hex: HexCoord) -> &[Threat] {
        self.hexes.get(&hex).map_or(&[], Vec::as_slice)
    }

    /// The most units threatening any one hex (the shading's top).
    pub fn most(&self) -> usize {
        self.hexes.values().map(Vec::len).max().unwrap_or(0)
    }
}

impl ThreatMap {
    /// The map in words, a hex a line: "0504: 2 (Norman knights in 0707: 6 against 2:
    /// 3-1; Lombard foot in 0806: attack 2)", for `bataille replay --threats`.
    pub fn lines(&self, world: &World) -> Vec<String> {
        self.hexes
            .iter()
            .map(|(hex, threats)| {
                let each: Vec<String> = threats
                    .iter()
                    .map(|t| format!("{}: {}", unit_label(world, t.unit), t.best))
                    .collect();
                format!("{hex}: {} ({})", threats.len(), each.join("; "))
            })
            .collect()
    }
}

/// A unit as the threat map names it: its name and where it stands ("Norman knights
/// in 0707"), so that two units of one name are told apart.
pub fn unit_label(world: &World, id: UnitId) -> String {
    let units = world.res::<Units>();
    let name = world
        .get::<super::units::UnitName>(units.entity(id))
        .map_or_else(|| format!("unit {}", id.0), |n| n.name.clone());
    match units.placement(id).hex() {
        Some(h) => format!("{name} in {h}"),
        None => name,
    }
}

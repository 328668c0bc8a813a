//! What AlC hides, drawn again for the computer opponent: the hex of an ambush set up
//! in secret (Kalavryai special rule 1).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;

use super::AlcState;
use crate::engine::board::Board;
use crate::engine::hex::HexCoord;
use crate::engine::units::{SideId, UnitId};
use crate::rulesets::common::{redraw_hidden_units, side_of, units_at};

/// Each enemy ambush still hidden is put in a hex of its zone that `observer` sees
/// empty and has no unit of `observer` next to it: a unit coming next to the ambush
/// would have revealed it (Kalavryai special rule 1).
pub fn resample_hidden(world: &mut World, observer: SideId, rng: &mut ChaCha8Rng) {
    if world.resource::<AlcState>().hidden_zones.is_empty() {
        return;
    }
    redraw_hidden_units(world, observer, rng, |world, unit| {
        ambush_places(world, unit, observer)
    });
}

fn ambush_places(world: &World, unit: UnitId, observer: SideId) -> Vec<HexCoord> {
    let Some(zone) = world
        .resource::<AlcState>()
        .hidden_zones
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, z)| *z)
    else {
        return Vec::new();
    };
    let watched = |h: HexCoord| {
        h.neighbors().into_iter().any(|n| {
            units_at(world, n)
                .iter()
                .any(|u| side_of(world, *u) == observer)
        })
    };
    world
        .res::<Board>()
        .hexes()
        .filter(|h| zone.contains(*h) && units_at(world, *h).is_empty() && !watched(*h))
        .collect()
}

//! What CdB hides, drawn again for the computer opponent: the hexes of units in ambush,
//! set by the scenario's special rules or in the set-up, and the corps' placement each
//! side writes in secret (CdB 14.3.3).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;

use super::deployment_placement::check_ambush_hex;
use super::setup::seen_at;
use super::{CdbState, state};
use crate::engine::board::Board;
use crate::engine::hex::HexCoord;
use crate::engine::units::{SideId, UnitId};
use crate::rulesets::common::{redraw_hidden_units, units_at};

/// Each enemy unit in ambush is put in a hex its ambush allows (the scenario's zone,
/// else the set-up's distances from its edge, CdB 14.3.3) where no unit stands and
/// where `observer`'s units would not see it now (else it would have been revealed,
/// CdB 14.3). Units hidden by a simultaneous placement, until both armies are
/// revealed, are not drawn again (see the README).
pub fn resample_hidden(world: &mut World, observer: SideId, rng: &mut ChaCha8Rng) {
    redraw_hidden_units(world, observer, rng, ambush_places);
    redraw_enemy_plan(world, observer, rng);
}

/// The enemy's written order of corps, shuffled, while none of its corps is placed:
/// until then nothing of it shows (CdB 14.3.3). Once one is, the order starts to show
/// on the map, and the plan is left as written.
fn redraw_enemy_plan(world: &mut World, observer: SideId, rng: &mut ChaCha8Rng) {
    use rand::RngExt;
    let enemy = observer.other();
    let corps_side: Vec<SideId> = state(world).corps.iter().map(|c| c.side).collect();
    let mut st = world.resource_mut::<CdbState>();
    let Some(d) = st.deploy.as_mut() else {
        return;
    };
    if d.placed.iter().any(|c| corps_side[*c] == enemy) {
        return;
    }
    if let Some(plan) = d.plan[enemy.0 as usize].as_mut() {
        for i in (1..plan.len()).rev() {
            plan.swap(i, rng.random_range(0..=i));
        }
    }
}

fn ambush_places(world: &World, unit: UnitId) -> Vec<HexCoord> {
    let zone = state(world)
        .hidden_zones
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, z)| *z);
    let in_ambush = state(world)
        .deploy
        .as_ref()
        .is_some_and(|d| d.ambushers.contains(&unit));
    if zone.is_none() && !in_ambush {
        return Vec::new();
    }
    world
        .res::<Board>()
        .hexes()
        .filter(|h| match zone {
            Some(z) => z.contains(*h),
            None => check_ambush_hex(world, unit, *h).is_ok(),
        })
        .filter(|h| units_at(world, *h).is_empty() && !seen_at(world, unit, *h))
        .collect()
}

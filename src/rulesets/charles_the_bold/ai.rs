//! What CtB hides, drawn again for the computer opponent: the group the enemy chose in
//! secret, until both choices are revealed together (CtB 1.4, R-1.4d).

use bevy::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::activation::unmoved_groups;
use super::{CtbState, state};
use crate::engine::ruleset::Ruleset;
use crate::engine::units::SideId;

/// While the choices are secret, the enemy's chosen group becomes one of the groups it
/// could have chosen (those not yet activated this turn), at random.
pub fn resample_hidden(
    ruleset: &dyn Ruleset,
    world: &mut World,
    observer: SideId,
    rng: &mut ChaCha8Rng,
) {
    if !ruleset.hidden_information(world) {
        return;
    }
    let enemy = observer.other();
    if state(world).declared[enemy.0 as usize].is_none() {
        return;
    }
    let open = unmoved_groups(world, enemy);
    if open.is_empty() {
        return;
    }
    let group = open[rng.random_range(0..open.len())];
    world.resource_mut::<CtbState>().declared[enemy.0 as usize] = Some(group);
}

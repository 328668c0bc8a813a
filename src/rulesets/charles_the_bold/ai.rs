//! CtB for the computer opponent: what CtB hides, drawn again (the group the enemy chose
//! in secret, until both choices are revealed together: CtB 1.4, R-1.4d), and how
//! eagerly the side that must attack plays its playouts.

use bevy::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::activation::unmoved_groups;
use super::{CtbState, state};
use crate::engine::ruleset::Ruleset;
use crate::engine::units::SideId;

/// How many times the playouts of the side that must attack draw again a random end of
/// its activation (`Ruleset::attacker_end_redraws`). Random play ends an activation
/// after a few of its group's commands, so a group seldom closes with the enemy within
/// a playout's horizon, and the attacker's candidates score alike. Trial (ninth
/// session, normal against random play, from seed 1): the English at Falkirk won 167
/// of 200 at 3, where they won 158 of 200 at 0. Not for every ruleset: at
/// Maldon (C&M) the Vikings won 2 of seeds 11-30 at 3 against 5 at 0, and at
/// Poitiers (CdB) the Arabs none of the first 5.
pub const ATTACKER_END_REDRAWS: usize = 3;

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

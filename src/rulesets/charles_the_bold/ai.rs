//! CtB for the computer opponent: what CtB hides, drawn again (the group the enemy
//! chose in secret, until both choices are revealed together, CtB 1.4, R-1.4d), and
//! how good a position is in CtB's own terms of break points (CtB 14.0).

use bevy::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::activation::unmoved_groups;
use super::{CtbState, ranks, stand, stands_of, state};
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

/// How good a position is for `side`, for the computer opponent's playouts, in CtB's
/// own terms: each army's break points lost (CtB 14.0, R-BP) against where it breaks,
/// and with them the SP each stand has lost from a rank still standing, as that
/// share of the rank's break points: a rank costs its BP only when its last SP goes
/// (CtB 7.4), so a melee that wore a rank down scored nothing until it fell.
pub fn evaluate(world: &World, side: SideId) -> f64 {
    let st = state(world);
    let shares: Vec<(SideId, f64)> = (0..2u8)
        .map(|i| {
            let s = SideId(i);
            let worn: f64 = stands_of(world, s)
                .into_iter()
                .filter_map(|u| {
                    let spec = stand(world, u)?;
                    let bp = f64::from(spec.bp());
                    Some(
                        ranks(world, u)
                            .0
                            .iter()
                            .zip(&spec.sp0)
                            .filter(|(now, start)| now < start)
                            .map(|(now, start)| bp * f64::from(start - now) / f64::from(*start))
                            .sum::<f64>(),
                    )
                })
                .sum();
            let lost = f64::from(st.bp_lost[i as usize]) + worn;
            let breaks =
                super::victory::break_at(st.bp_total[i as usize], st.break_fraction[i as usize]);
            (s, lost / f64::from(breaks.max(1)))
        })
        .collect();
    crate::engine::evaluation::position_value_of(
        world,
        crate::engine::evaluation::share_balance(&shares, side),
        None,
        side,
    )
}

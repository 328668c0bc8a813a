//! Elephants' rampage (C&M 7.26; spec B.2 §10, the test itself missing from our copy):
//! an elephant unit that is not shaken and loses a mêlée takes its DP (in `fight`) and
//! tests: a D6 of `rampage_up_to` (charts.ron: 2) or less and it rampages — unformed, a
//! fast move (7.6's foot dice) towards the nearest unit of either side not already in
//! contact with it, and a charge on the unit it strikes, resolved at once as 7.15's
//! (the elephants charging, the unit receiving at the halt); otherwise it stays in place.

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::units::UnitId;

use super::*;

/// The nearest unit of either side not in contact with `id`, lowest id on a tie.
fn nearest(world: &World, id: UnitId) -> Option<UnitId> {
    troops(world)
        .into_iter()
        .filter(|&o| o != id && !in_contact(world, id, o))
        .min_by_key(|&o| (gap_between(world, id, o), o))
}

/// The rampage test of an elephant unit that lost a mêlée (7.26).
pub(crate) fn test(world: &mut World, id: UnitId) {
    if !is_troop(world, id) {
        return;
    }
    let up_to = tables(world).charts.melee.rampage_up_to;
    let die = super::super::common::roll(world, "C&M 7.26", |w| {
        format!("{}'s rampage test", plain_name(w, id))
    });
    if die > up_to {
        log(world, EventKind::CombatResult, "C&M 7.26", |w| {
            format!("{} stays in place", name(w, id))
        });
        return;
    }
    let Some(target) = nearest(world, id) else {
        log(world, EventKind::CombatResult, "C&M 7.26", |w| {
            format!("{} rampages, but nothing is near", name(w, id))
        });
        return;
    };
    log(world, EventKind::CombatResult, "C&M 7.26", |w| {
        format!("{} rampages towards {}", name(w, id), plain_name(w, target))
    });
    component_mut::<CmFormation>(world, id).id = FormationId::Unformed;
    let move_die = super::super::common::roll(world, "C&M 7.6", |w| {
        format!("{}'s rampage move", plain_name(w, id))
    });
    let t = tables(world);
    let hexes = moves::fast_move(
        &t.charts.charge_move,
        troop_ref(world, id).category,
        move_die,
    );
    let moved = movement::close_in(world, id, &[target], u32::from(hexes));
    let hit = is_troop(world, target) && in_contact(world, id, target);
    log(world, EventKind::Moved, "C&M 7.26", |w| {
        format!(
            "{} rampages {}{}",
            name(w, id),
            moves::hexes(moved),
            if hit {
                format!(" and charges {}", plain_name(w, target))
            } else {
                String::new()
            }
        )
    });
    if hit {
        let results = resolution::combat(world, &[target], &[id], &[false]);
        resolution::apply_results(world, results);
    }
}

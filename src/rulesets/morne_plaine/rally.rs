//! Morne Plaine's rally (MP rally): at the end of its player turn each unit of the
//! side below its initial morale regains 1 point if in command, unmoved and outside
//! enemy zones, or if next to its leader, and 2 with both; a demoralised unit only
//! next to its leader, and then 1.

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::units::UnitId;

use super::{
    all_units, flags, hex_of, in_enemy_zoc, log, plain_name, set_mv, side_of, turn, unit, values,
};

/// What a unit regains in the rally, and why; `None` when it regains nothing.
pub fn rally_gain(world: &World, id: UnitId) -> Option<(u8, String)> {
    let at = hex_of(world, id)?;
    let u = unit(world, id);
    let mv = values(world, id).mv;
    if mv >= u.mv0 {
        return None;
    }
    let f = flags(world, id);
    let side = side_of(world, id);
    let quiet = super::movement::in_command(world, id)
        && !f.moved
        && !f.shifted
        && !in_enemy_zoc(world, side, at);
    let own_leader = u
        .leader
        .filter(|l| hex_of(world, *l).is_some())
        .or_else(|| {
            world.resource::<super::MpState>().commanders[side.0 as usize]
                .filter(|c| hex_of(world, *c).is_some())
        });
    let beside = own_leader
        .and_then(|l| hex_of(world, l))
        .is_some_and(|h| h.is_adjacent(at));
    let (gain, why) = match (quiet, beside) {
        _ if mv == 0 && beside => (1, "demoralised, next to its leader"),
        _ if mv == 0 => return None,
        (true, true) => (
            2,
            "in command, unmoved, out of enemy zones and next to its leader",
        ),
        (true, false) => (1, "in command, unmoved and out of enemy zones"),
        (false, true) => (1, "next to its leader"),
        (false, false) => return None,
    };
    Some(((gain).min(u.mv0 - mv), why.to_string()))
}

/// The rally phase of the side whose player turn ends.
pub fn rally(world: &mut World) {
    let side = turn(world).active;
    let units: Vec<UnitId> = all_units(world)
        .into_iter()
        .filter(|u| side_of(world, *u) == side)
        .collect();
    let gains: Vec<(UnitId, u8, String)> = units
        .into_iter()
        .filter_map(|u| rally_gain(world, u).map(|(g, why)| (u, g, why)))
        .collect();
    for (u, gain, why) in gains {
        let mv = values(world, u).mv + gain;
        set_mv(world, u, mv);
        log(world, EventKind::MoraleCheck, "MP rally", |w| {
            format!("{} rallies +{gain} ({why}): morale {mv}", plain_name(w, u))
        });
    }
    super::refresh_zones(world);
}

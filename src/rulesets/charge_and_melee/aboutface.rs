//! Standing to receive a charge (C&M 7.13): a unit that stands may turn its unengaged
//! stands 180° (never 90°) to face a charge from the rear, taking `about_face_dps` DPs
//! (charts.ron) unless every charge on it began beyond javelin range. A unit has one facing (spec B.2 §3),
//! so it turns about whole, and only when none of its stands is engaged. A flank charge
//! cannot be faced so (90° turns are not allowed): a unit standing to receive it becomes
//! unformed when it strikes, wherever it began (7.13's last sentence).

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, HexsideFacing};
use crate::engine::units::UnitId;

use super::*;

/// Whether a step of some stand of `own` along `facing` brings it nearer some stand of
/// `other` (the test `charges::ahead` makes, for any facing).
fn towards(own: &[HexCoord], facing: HexsideFacing, other: &[HexCoord]) -> bool {
    own.iter().any(|s| {
        other
            .iter()
            .any(|t| facing.front(*s).distance(*t) < s.distance(*t))
    })
}

/// Whether `charger` comes at `target` from its rear (7.13): behind it and not ahead.
pub(crate) fn from_rear(world: &World, target: UnitId, charger: UnitId) -> bool {
    let f = formation(world, target);
    let own = stands(world, target);
    let them = stands(world, charger);
    f.formed() && towards(own, f.facing.reversed(), them) && !towards(own, f.facing, them)
}

/// Whether a charged unit may turn about to receive `chargers` (7.13): formed, no stand
/// engaged, a charger from its rear, and its stands still in its formation's shape
/// facing the other way.
pub(crate) fn may_turn_about(world: &World, id: UnitId, chargers: &[UnitId]) -> bool {
    let f = formation(world, id);
    if !f.formed() || movement::enemy_in_contact(world, id).is_some() {
        return false;
    }
    if !chargers
        .iter()
        .any(|c| is_troop(world, *c) && from_rear(world, id, *c))
    {
        return false;
    }
    let shape = tables(world).formation(f.id).shape;
    formation::check_shape(stands(world, id), Some(f.facing.reversed()), shape).is_ok()
}

/// Turns a unit about to receive the charges on it (7.13): its DPs unless every charger
/// began beyond javelin range.
pub(crate) fn turn_about(world: &mut World, id: UnitId) {
    let chargers: Vec<UnitId> = charges::charged(world)
        .into_iter()
        .find(|(t, _)| *t == id)
        .map(|(_, cs)| cs)
        .unwrap_or_default();
    let t = tables(world);
    let close = chargers.iter().any(|c| {
        is_troop(world, *c)
            && gap_between(world, id, *c) <= u32::from(t.charts.responses.javelin_range)
    });
    let f = formation(world, id);
    component_mut::<CmFormation>(world, id).facing = f.facing.reversed();
    log(world, EventKind::Moved, "C&M 7.13", |w| {
        format!(
            "{} turns about to face the charge, now facing {}",
            name(w, id),
            f.facing.reversed().name()
        )
    });
    if close && t.charts.responses.about_face_dps > 0 {
        add_dps(world, id, t.charts.responses.about_face_dps, "C&M 7.13");
    }
}

/// Whether `charger` comes at `target`'s flank (7.13): the target formed, the charger
/// neither ahead of it nor behind it (the test `charges::ahead` and `from_rear` make).
pub(crate) fn from_flank(world: &World, target: UnitId, charger: UnitId) -> bool {
    let f = formation(world, target);
    f.formed()
        && is_troop(world, charger)
        && !towards(stands(world, target), f.facing, stands(world, charger))
        && !from_rear(world, target, charger)
}

/// A unit standing to receive a charge that strikes its flank becomes unformed (7.13:
/// "A unit cannot, however, avoid becoming unformed by a flank charge").
pub(crate) fn unformed_by_flank_charge(world: &mut World, id: UnitId, charger: UnitId) {
    if !formation(world, id).formed() {
        return;
    }
    component_mut::<CmFormation>(world, id).id = FormationId::Unformed;
    log(world, EventKind::CombatResult, "C&M 7.13", |w| {
        format!(
            "{} is charged in the flank by {} and becomes unformed",
            name(w, id),
            plain_name(w, charger)
        )
    });
}

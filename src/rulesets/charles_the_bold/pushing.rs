//! A formed Combat Stand pushing through enemy skirmishers in the open on its way to a
//! formed enemy (CtB 10.6, R-10.6-push): who may, and the skirmishers' answer when it
//! comes to their hex (evade, or stand, fire if struck frontally, and be destroyed).

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::data::{DefensiveFire, Role};
use super::decision::Pending;
use super::geometry::{Side, side_touched};
use super::{CtbState, facing, hex_of, log, plain_name, side_of, stand};

/// Whether a stand is skirmishers (the `Sk` type: CtB 10.6's "skirmish stands").
pub fn skirmishers(world: &World, id: UnitId) -> bool {
    stand(world, id).is_some_and(|s| s.spec.df == DefensiveFire::Skirmisher)
}

/// Whether `mover`, standing in `from`, may push through the enemy skirmishers `sk`
/// (CtB 10.6: "Any formed attacking combat stand … can push through enemy skirmish
/// stands in the open"): a Combat Stand, the skirmishers in no melee, neither in cover
/// from it nor on ground that takes its impetus (there "they can stand, defensive fire
/// and fight"). Whether its move aims at a formed enemy is the move's to check.
pub fn pushable(world: &World, mover: UnitId, sk: UnitId, from: HexCoord) -> bool {
    let (Some(m), Some(at)) = (stand(world, mover), hex_of(world, sk)) else {
        return false;
    };
    m.spec.role == Role::Combat
        && skirmishers(world, sk)
        && side_of(world, sk) != side_of(world, mover)
        && !super::in_melee(world, sk)
        && !super::reactions::in_cover(world, at, Some(from))
        && !super::reactions::removes_impetus(world, at, Some(from), m.spec.mounted)
}

/// The move of `mover` has come to the hex of the skirmishers `sk` it pushes through
/// (CtB 10.6): struck on a flank or the rear they are destroyed without fighting; else
/// they evade, or stand (firing first if struck frontally) and are destroyed. Their
/// answer is asked of their owner; the move goes on once it is given (`opportunity::
/// go_on`).
pub fn push(world: &mut World, mover: UnitId, sk: UnitId) {
    log(world, EventKind::Special, "CtB 10.6", |w| {
        format!(
            "{} pushes through {} in the open: they evade or are destroyed",
            plain_name(w, mover),
            plain_name(w, sk)
        )
    });
    let (Some(sh), Some(mh)) = (hex_of(world, sk), hex_of(world, mover)) else {
        return;
    };
    let frontal = side_touched(sh, facing(world, sk), mh) == Some(Side::Front);
    let answer = if !frontal {
        None
    } else if super::evasion::may_evade(world, sk, mover) {
        Some(Pending::Evade {
            stand: sk,
            charger: mover,
        })
    } else if super::reactions::may_fire_defensively(world, sk, mover) {
        Some(Pending::DefensiveFire {
            stand: sk,
            charger: mover,
        })
    } else {
        None
    };
    match answer {
        Some(p) => world.resource_mut::<CtbState>().pending.push_front(p),
        None => {
            // "If hit in the flank or rear by a battle stand they will be destroyed
            // without fighting"; frontally, with nowhere to evade and no fire, "Sk who
            // do not evade are automatically destroyed".
            log(world, EventKind::Special, "CtB 10.6", |w| {
                format!(
                    "{} cannot evade {}: destroyed",
                    plain_name(w, sk),
                    plain_name(w, mover)
                )
            });
            super::results::destroy(world, sk, "CtB 10.6", true);
            super::decision::forget_destroyed(world, sk);
            super::refresh_zones(world);
        }
    }
}

/// Whether the answer of skirmishers pushed through by the suspended `mover` is still
/// awaited: its move waits for it (CtB 10.6).
pub fn awaited(world: &World, mover: Option<UnitId>) -> bool {
    let Some(mover) = mover else {
        return false;
    };
    super::state(world).pending.iter().any(|p| {
        matches!(p,
            Pending::Evade { charger, .. } | Pending::DefensiveFire { charger, .. }
                if *charger == mover)
    })
}

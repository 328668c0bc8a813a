//! Charge & mêlée's threat map: the stands of the side to act that each enemy unit
//! could fight, charge or shoot at in its next phases, from where it stands. A charge
//! is declared on a unit, not a hex (C&M 7.2), and its move is the move die's (7.6):
//! the map marks the stands of each unit it may charge (7.2-7.7, by `may_charge`, as
//! `charge` checks it) with the move die's chance of contact, the units it is in
//! contact with (a mêlée, 7.18), and those it may shoot at (spec B.2 §11, by `aim`).

use bevy::prelude::*;

use super::missile::{self, Shot};
use super::preview::contact_faces;
use super::{charges, in_contact, is_troop, side_of, stands, troops};
use crate::engine::threat::UnitThreat;
use crate::engine::units::UnitId;

/// Each stand `id` threatens, with the best it could do to that stand's unit: a mêlée
/// it is in, else a charge with its chance of contact, else a shot with its dice.
pub fn threats(world: &World, id: UnitId) -> Vec<UnitThreat> {
    if !is_troop(world, id) {
        return Vec::new();
    }
    let side = side_of(world, id);
    let mut out = Vec::new();
    for t in troops(world) {
        if side_of(world, t) == side {
            continue;
        }
        let Some(best) = best_against(world, id, t) else {
            continue;
        };
        out.extend(stands(world, t).iter().map(|&hex| UnitThreat {
            hex,
            best: best.clone(),
        }));
    }
    out
}

/// What `id` could do to `t`, in words, or `None` when it could not attack it.
fn best_against(world: &World, id: UnitId, t: UnitId) -> Option<String> {
    if in_contact(world, id, t) {
        return Some("in contact: mêlée (C&M 7.18)".into());
    }
    if charges::may_charge(world, id, t).is_ok() {
        let faces = contact_faces(world, id, t);
        if faces > 0 {
            return Some(format!(
                "charge: contact {:.0}% (C&M 7.6)",
                faces as f64 * 100.0 / 6.0
            ));
        }
    }
    let exchange = missile::aim(world, id, t).ok()?;
    let (shooting, need) = missile::volley_now(
        world,
        Shot {
            shooter: id,
            target: t,
            exchange,
        },
    );
    (shooting > 0 && need <= 6).then(|| {
        format!(
            "shoot at {}: {shooting} dice at {need}+ (spec B.2 §11)",
            missile::exchange_label(exchange)
        )
    })
}

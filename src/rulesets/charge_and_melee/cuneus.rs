//! The cuneus in mêlée (C&M 7.19): as the Mêlée Phase begins, a unit in cuneus in
//! contact moves up to `push_forward` stands (formations.ron: one) from its rear rank to
//! the front, "as long as there is space for them": an empty hex in its front rank's
//! line, beside a front stand, facing an opposing stand, the unit still in its shape
//! (rear stands each behind a front stand). On hexes a front stand faces one hex, so
//! stands already "line up exactly with opposing stands" (spec B.2 §3). Units in id
//! order; the first rear stand (in the unit's order) that may move, to the first hex
//! found (left of the rank first).

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;

use super::*;

/// Moves the cuneus' stands forward (7.19), before the mêlée's bouts are paired.
pub(crate) fn press_forward(world: &mut World) {
    for u in troops(world) {
        let f = formation(world, u);
        if f.id != FormationId::Cuneus
            || movement::enemy_in_contact(world, u).is_none()
            || posture(world, u) == Some(Posture::Routing)
        {
            continue;
        }
        let t = tables(world);
        let shape = t.formation(f.id).shape;
        let side = side_of(world, u);
        for _ in 0..t.formation(f.id).push_forward {
            let own = stands(world, u).to_vec();
            let rear: Vec<HexCoord> = own
                .iter()
                .copied()
                .filter(|s| own.contains(&f.facing.front(*s)))
                .collect();
            let d = f.facing.0 as usize;
            let room: Vec<HexCoord> = own
                .iter()
                .filter(|s| !rear.contains(s))
                .flat_map(|s| [5, 4, 1, 2].map(|k| s.neighbor((d + k) % 6)))
                .filter(|h| !own.contains(h) && movement::blocked(world, u, *h).is_none())
                .filter(|h| {
                    stand_at(world, f.facing.front(*h)).is_some_and(|o| side_of(world, o) != side)
                })
                .collect();
            let moved = rear.iter().find_map(|r| {
                room.iter().find_map(|h| {
                    let next: Vec<HexCoord> =
                        own.iter().map(|s| if s == r { *h } else { *s }).collect();
                    formation::check_shape(&next, Some(f.facing), shape)
                        .is_ok()
                        .then_some((*r, *h, next))
                })
            });
            let Some((from, to, next)) = moved else {
                break;
            };
            shift_stands(world, u, next);
            log(world, EventKind::Moved, "C&M 7.19", |w| {
                format!(
                    "{} pushes a stand forward from its rear rank, {from} to {to}",
                    name(w, u)
                )
            });
        }
    }
}

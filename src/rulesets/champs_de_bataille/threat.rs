//! Champs de Bataille's threat map: where a unit could attack in its side's next turn.
//! Melee: the frontal hexes (CdB 11.1) of every place and facing its next movement
//! phase's march reaches (the window's `march_search` over `march::begin_for`'s checks
//! for that phase: its first impulse, its corps' PA not yet thrown, CdB 4.2, 9), and
//! of where it stands. Missile: Bowmen shoot before they move or not at all (CdB 10.1),
//! so from where they stand (`may_shoot_from_its_place`). The odds are the melee's or
//! the shot's scores before the dice, as things stand (`combat::evaluate`).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use super::commands::MarchStep;
use super::data::Kind;
use super::{
    all_units, combat, enemy_at, facing, front_at, hex_of, is_hidden, kind, march, missile,
    side_of, view,
};
use crate::engine::command::UnitRef;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::threat::UnitThreat;
use crate::engine::units::UnitId;

/// Each hex `id` could attack next turn, with its scores against the unit there now
/// (before the dice), or what it would do on an empty hex. Only a stack's front unit
/// fights (CdB 8.1); baggage has no offensive force (CdB 2.4).
pub fn threats(world: &World, id: UnitId) -> Vec<UnitThreat> {
    let Some(start) = hex_of(world, id) else {
        return Vec::new();
    };
    if front_at(world, start) != Some(id) || kind(world, id) == Kind::Bag {
        return Vec::new();
    }
    let side = side_of(world, id);
    let mut places: Vec<(HexCoord, VertexFacing)> = vec![(start, facing(world, id))];
    let who = UnitRef::Hex(start);
    if let Ok((ctx, base)) = march::begin_for(world, &[(who, Vec::<MarchStep>::new())], true) {
        view::march_search(world, id, &ctx, &base, |n, b, _| {
            let place = (n, b.facing);
            if !places.contains(&place) {
                places.push(place);
            }
        });
    }
    let mut out: Vec<UnitThreat> = Vec::new();
    let mut note = |hex: HexCoord, best: String| {
        if !out.iter().any(|t| t.hex == hex) {
            out.push(UnitThreat { hex, best });
        }
    };
    // Shots first: from where it stands, they come before any melee of the turn, at
    // the nearest targets only (CdB 10.1).
    if kind(world, id) == Kind::Bw {
        let marks: Vec<(UnitId, u32)> = all_units(world)
            .into_iter()
            .filter(|t| side_of(world, *t) != side && !is_hidden(world, *t))
            .filter_map(|t| Some((t, missile::may_shoot_from_its_place(world, id, t).ok()?)))
            .collect();
        let nearest = marks.iter().map(|m| m.1).min();
        for (t, range) in marks {
            let Some(h) = hex_of(world, t).filter(|_| Some(range) == nearest) else {
                continue;
            };
            let plan = combat::evaluate(world, id, t, true, &[id], None);
            note(
                h,
                format!(
                    "shoot at {range} hexes: {} against {} (CdB 10)",
                    plan.a_score.modified(),
                    plan.d_score.modified()
                ),
            );
        }
    }
    for (at, f) in places {
        for target in f.front(at) {
            match enemy_at(world, side, target).filter(|d| !is_hidden(world, *d)) {
                Some(d) => {
                    let plan = combat::evaluate(world, id, d, false, &[], None);
                    note(
                        target,
                        format!(
                            "melee {} against {} (CdB 11)",
                            plan.a_score.modified(),
                            plan.d_score.modified()
                        ),
                    );
                }
                None if front_at(world, target).is_none_or(|u| side_of(world, u) != side) => {
                    note(target, "melee (CdB 11)".into());
                }
                None => {}
            }
        }
    }
    let board = world.res::<crate::engine::board::Board>();
    out.retain(|t| board.contains(t.hex));
    out
}

//! Push-backs and their chains (C&M 7.25, 7.27): a unit that loses a mêlée steps back its
//! own base depth (1 hex, spec B.2 §1), still facing the enemy, and pushes back in turn
//! every friendly unit immediately to its rear, and those behind them, all one hex the
//! same way; except that a formed stand pushed back against an elephant, and a cavalry
//! stand pushed back against formed foot, is eliminated (7.27's two exceptions) instead
//! of pushing; when losing that very stand would split its unit (spec B.2 §2), the unit
//! loses the stand `remove_stands` would take and the one against the friend stays,
//! blocking the push (designer's). A chain that cannot move as a whole (the map's edge, impassable ground,
//! an enemy, a `Passage`) does not move at all: the loser stays and takes the blocked
//! fall-back's DP (7.16, the designer's reading).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::data::Category;
use super::*;

/// Whether `pushed`'s stand pushed back against a stand of `friend` is eliminated
/// (7.27): a formed stand against an elephant, a cavalry stand against formed foot.
fn eliminated_against(world: &World, pushed: UnitId, friend: UnitId) -> bool {
    let me = troop(world, pushed);
    let them = troop(world, friend);
    let formed = formation(world, pushed).formed();
    (formed && them.category == Category::Elephants)
        || (me.category == Category::Cavalry
            && them.category == Category::Infantry
            && formation(world, friend).formed())
}

/// Whether `hex` may take a stand of the chain `moving`: on the map, passable, not kept
/// by a `Passage` for the other side, and empty or held by a unit of the chain.
fn free_for(world: &World, moving: &[UnitId], unit: UnitId, hex: HexCoord) -> bool {
    match movement::blocked(world, unit, hex) {
        None => true,
        Some(_) => {
            stand_at(world, hex).is_some_and(|o| moving.contains(&o)) && {
                // Held by the chain: only the other faults count.
                let board = world.res::<crate::engine::board::Board>();
                let t = tables(world);
                board.contains(hex)
                    && t.terrain_type(board.terrain_name(hex))
                        .is_none_or(|tt| tt.passable)
                    && movement::passage_holder(world, hex)
                        .is_none_or(|s| s == side_of(world, unit))
            }
        }
    }
}

/// Pushes back the mêlée's loser `id` (7.25, 7.27), beaten by `from`. Returns the hexes
/// it moved (0 or 1).
pub(crate) fn push_back(world: &mut World, id: UnitId, from: &[UnitId]) -> u32 {
    let f = formation(world, id);
    let side = side_of(world, id);
    let dir = f.facing.reversed().0 as usize;
    let friend_behind = |w: &World, u: UnitId, s: HexCoord| {
        stand_at(w, s.neighbor(dir)).filter(|o| *o != u && side_of(w, *o) == side)
    };
    let any_friend = f.formed()
        && stands(world, id)
            .iter()
            .any(|s| friend_behind(world, id, *s).is_some());
    if !any_friend {
        // Nobody behind: the plain push-back, straight back if it can (7.25).
        return movement::flee(world, id, from, 1);
    }
    // The chain (7.27): every friend immediately behind a unit of it, save the stands
    // the exceptions eliminate, found in order from the loser.
    let mut chain = vec![id];
    let mut doomed: Vec<(UnitId, HexCoord, UnitId)> = Vec::new();
    let mut i = 0;
    while i < chain.len() {
        let u = chain[i];
        for &s in stands(world, u) {
            let Some(o) = friend_behind(world, u, s) else {
                continue;
            };
            if chain.contains(&o) {
                continue;
            }
            if eliminated_against(world, u, o) {
                doomed.push((u, s, o));
            } else {
                chain.push(o);
            }
        }
        i += 1;
    }
    for (u, s, o) in doomed {
        if !is_troop(world, u) {
            continue;
        }
        if stands(world, u).contains(&s) && !splits(world, u, s) {
            log(world, EventKind::StepLost, "C&M 7.27", |w| {
                format!(
                    "{}'s stand in {s} is pushed back against {} and eliminated",
                    name(w, u),
                    name(w, o)
                )
            });
            remove_stand_at(world, u, s);
        } else {
            // Losing that very stand would leave the rest not touching (spec B.2 §2), or
            // an earlier casualty took it: the casualty is the unit's, taken where
            // `remove_stands` takes any other (designer's).
            log(world, EventKind::StepLost, "C&M 7.27", |w| {
                format!(
                    "{}'s stand in {s} is pushed back against {}: the unit loses a stand, \
                     closing up on it",
                    name(w, u),
                    name(w, o)
                )
            });
            remove_stands(world, u, 1, "C&M 7.27");
        }
    }
    chain.retain(|u| is_troop(world, *u));
    if !chain.contains(&id) {
        return 0;
    }
    let movable = chain.iter().all(|&u| {
        stands(world, u)
            .iter()
            .all(|s| free_for(world, &chain, u, s.neighbor(dir)))
    });
    if !movable {
        log(world, EventKind::CombatResult, "C&M 7.27", |w| {
            format!(
                "{} cannot push back the friends behind it",
                plain_name(w, id)
            )
        });
        return 0;
    }
    for &u in &chain {
        let next = movement::translate(stands(world, u), dir);
        shift_stands(world, u, next);
        if u != id {
            log(world, EventKind::Retreated, "C&M 7.27", |w| {
                format!("{} is pushed back by {}", name(w, u), plain_name(w, id))
            });
        }
    }
    1
}

/// Whether losing `id`'s stand in `s` would leave its other stands not one body (spec
/// B.2 §2: a unit's stands are adjacent).
fn splits(world: &World, id: UnitId, s: HexCoord) -> bool {
    let rest: Vec<HexCoord> = stands(world, id)
        .iter()
        .copied()
        .filter(|x| *x != s)
        .collect();
    formation::check_shape(&rest, None, data::Shape::Contiguous).is_err()
}

/// Removes one given stand as a casualty (7.27); the leader on it moves to the unit's
/// first other stand (designer's), and a unit left out of its formation's shape loses
/// its formation, as `remove_stands` does.
fn remove_stand_at(world: &mut World, id: UnitId, s: HexCoord) {
    let rest: Vec<HexCoord> = stands(world, id)
        .iter()
        .copied()
        .filter(|x| *x != s)
        .collect();
    component_mut::<CmMorale>(world, id).casualties += 1;
    if let Some(l) = component::<CmUnit>(world, id).leader
        && placement(world, l).hex() == Some(s)
        && let Some(&to) = rest.first()
    {
        set_placement(world, l, crate::engine::units::Placement::OnMap(to));
    }
    let f = formation(world, id);
    let shape = tables(world).formation(f.id).shape;
    if f.formed()
        && !rest.is_empty()
        && formation::check_shape(&rest, Some(f.facing), shape).is_err()
    {
        component_mut::<CmFormation>(world, id).id = FormationId::Unformed;
        log(world, EventKind::CombatResult, "C&M 7.27", |w| {
            format!("{} loses its formation", name(w, id))
        });
    }
    set_stands(world, id, rest);
}

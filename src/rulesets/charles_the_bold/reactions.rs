//! Reactions in the enemy's activation (CtB 4.0, 6.2, 10.6): a charged stand's
//! evasion and its defensive fire, offered as decisions to its owner before the melee
//! is fought, each refused and accepted like a command.

use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, UnitId};

use super::data::{DefensiveFire, Evade, ImpactRemoval};
use super::decision::Pending;
use super::geometry::{Side, in_front, side_touched};
use super::pool::Pool;
use super::{
    CtbState, acts, acts_mut, attached_general, facing, hex_of, log, plain_name, ranks,
    set_placement, stand, stand_at, status, tables,
};

/// Whether `charger` contacts `target` through its two front hexes (CtB 4.0, 6.2).
fn through_front(world: &World, target: UnitId, charger: UnitId) -> bool {
    match (hex_of(world, target), hex_of(world, charger)) {
        (Some(t), Some(c)) => side_touched(t, facing(world, target), c) == Some(Side::Front),
        _ => false,
    }
}

/// Whether the terrain of `hex` takes a charger's impetus away (CtB 6.2, 10.3).
fn removes_impetus(world: &World, hex: HexCoord, mounted: bool) -> bool {
    let t = tables(world);
    let board = world.resource::<Board>();
    t.terrain_type(board.terrain_name(hex))
        .and_then(|x| x.removes_impact)
        .is_some_and(|r| r == ImpactRemoval::All || (r == ImpactRemoval::Mounted && mounted))
}

/// Whether a stand's hex is cover (designer's Summary Sheet).
fn in_cover(world: &World, hex: HexCoord) -> bool {
    let t = tables(world);
    let board = world.resource::<Board>();
    t.terrain_type(board.terrain_name(hex))
        .is_some_and(|x| x.cover)
}

/// Whether `target` may evade `charger` (CtB 4.0): skirmishers and light cavalry, and
/// medium and heavy cavalry charged by foot that may charge cavalry; only through its
/// front, from an attacker that began in front of its front line, not in a melee, with
/// somewhere to go.
pub fn may_evade(world: &World, target: UnitId, charger: UnitId) -> bool {
    let (Some(t), Some(c)) = (stand(world, target), stand(world, charger)) else {
        return false;
    };
    let allowed = match t.spec.evade {
        Evade::Never => false,
        Evade::Always => true,
        Evade::AgainstFootThatChargesCavalry => !c.spec.mounted,
    };
    let Some(th) = hex_of(world, target) else {
        return false;
    };
    let seen = acts(world, charger)
        .move_start
        .is_some_and(|s| in_front(th, facing(world, target), s));
    allowed
        && seen
        && through_front(world, target, charger)
        && !super::in_melee(world, target)
        && !evasion_path(world, target, charger).is_empty()
}

/// The evasion (CtB 4.0): up to a full move to the rear, facing kept, each step to a
/// clear hex farther from the charger (ties to the farthest, then the lowest hex).
pub fn evasion_path(world: &World, target: UnitId, charger: UnitId) -> Vec<HexCoord> {
    let (Some(s), Some(mut pos), Some(from)) = (
        stand(world, target),
        hex_of(world, target),
        hex_of(world, charger),
    ) else {
        return Vec::new();
    };
    let t = tables(world);
    let board = world.resource::<Board>();
    let mut path = Vec::new();
    for _ in 0..s.entry.mp.0 {
        let d = pos.distance(from);
        let next = pos
            .neighbors()
            .into_iter()
            .filter(|n| board.contains(*n) && n.distance(from) > d)
            .filter(|n| stand_at(world, *n).is_none() && !path.contains(n))
            .filter(|n| super::movement::step_cost(&t, board, s.spec.terrain, pos, *n).is_some())
            .max_by_key(|n| (n.distance(from), std::cmp::Reverse(*n)));
        let Some(n) = next else { break };
        pos = n;
        path.push(n);
    }
    path
}

/// Whether `target` may fire defensively at `charger` (CtB 6.2, 10.6): through its
/// front, not already in a melee, by its type: light cavalry and artillery always;
/// skirmishers always (in the open they then die); shot not against heavy or medium
/// cavalry unless its ground takes their impetus.
pub fn may_fire_defensively(world: &World, target: UnitId, charger: UnitId) -> bool {
    let (Some(t), Some(c)) = (stand(world, target), stand(world, charger)) else {
        return false;
    };
    let Some(th) = hex_of(world, target) else {
        return false;
    };
    let allowed = match t.spec.df {
        DefensiveFire::None => false,
        DefensiveFire::Always | DefensiveFire::Skirmisher => true,
        DefensiveFire::ShotNotCavalryInOpen => {
            !(c.spec.mounted && c.spec.id != "LC") || removes_impetus(world, th, true)
        }
    };
    allowed && through_front(world, target, charger) && !super::in_melee(world, target)
}

/// The pools of a defensive fire (CtB 6.2, 6.1): the stand's remaining SP, −1D6
/// disordered; a double-rank longbow's rear rank fires too only on ground that takes
/// the charger's impetus away.
pub fn defensive_pools(world: &World, target: UnitId, charger: UnitId) -> Vec<Pool> {
    let t = stand(world, target).expect("a stand");
    let f = &tables(world).factors.fire;
    let r = &ranks(world, target).0;
    let th = hex_of(world, target).expect("on the map");
    let mounted = stand(world, charger).is_some_and(|c| c.spec.mounted);
    let double = t.special.as_ref().is_some_and(|s| s.double_rank_fire)
        && r.len() >= 2
        && (!t
            .special
            .as_ref()
            .is_some_and(|s| s.double_df_needs_no_impetus)
            || removes_impetus(world, th, mounted)
            || t.stakes);
    let mut pools = Vec::new();
    for (i, sp) in r.iter().enumerate().take(if double { 2 } else { 1 }) {
        let mut p = Pool::of_sp(*sp);
        if i == 1 {
            let rear = t
                .special
                .as_ref()
                .filter(|s| s.rear_rank != 0)
                .map_or(f.rear_rank, |s| s.rear_rank);
            p.add(i32::from(rear), "the rear rank", "CtB 6.1");
        }
        if status(world, target).disordered {
            p.add(i32::from(f.disordered), "disordered", "CtB 6.2");
        }
        pools.push(p);
    }
    pools
}

/// Offers the reactions of the stands a charge has contacted (CtB 4.0, 6.2): for each,
/// evasion first where allowed, else defensive fire; they come before the melee.
pub fn offer(world: &mut World, charger: UnitId, contacted: &[UnitId]) {
    let mut offers = Vec::new();
    for &t in contacted {
        if may_evade(world, t, charger) {
            offers.push(Pending::Evade { stand: t, charger });
        } else if may_fire_defensively(world, t, charger) {
            offers.push(Pending::DefensiveFire { stand: t, charger });
        }
    }
    let mut s = world.resource_mut::<CtbState>();
    for p in offers.into_iter().rev() {
        s.pending.push_front(p);
    }
}

/// A stand holds instead of evading: defensive fire is offered next where allowed
/// (CtB 10.6: skirmishers in the open fire, then die).
pub fn hold(world: &mut World, target: UnitId, charger: UnitId) {
    log(world, EventKind::Special, "CtB 4.0", |w| {
        format!(
            "{} stands to meet {}",
            plain_name(w, target),
            plain_name(w, charger)
        )
    });
    if may_fire_defensively(world, target, charger) {
        world
            .resource_mut::<CtbState>()
            .pending
            .push_front(Pending::DefensiveFire {
                stand: target,
                charger,
            });
    } else {
        skirmishers_in_the_open(world, target, charger);
    }
}

/// Carries out an evasion (CtB 4.0): the stand falls back, facing kept; the charger may
/// go on with the rest of its move into the hex left.
pub fn evade(world: &mut World, target: UnitId, charger: UnitId) {
    let path = evasion_path(world, target, charger);
    let Some(&end) = path.last() else {
        return;
    };
    let from = hex_of(world, target).expect("on the map");
    let rider = attached_general(world, target);
    set_placement(world, target, Placement::OnMap(end));
    if let Some(g) = rider {
        set_placement(world, g, Placement::OnMap(end));
    }
    log(world, EventKind::Retreated, "CtB 4.0", |w| {
        format!(
            "{} evades {from} → {end}, facing {}",
            plain_name(w, target),
            facing(w, target).name()
        )
    });
    let left = acts(world, charger).contact_mp_left;
    acts_mut(world, charger).resume = Some(left);
    super::refresh_zones(world);
}

/// Defensive fire (CtB 6.2): each pool thrown at the charger, whose Morale Test follows
/// each hit (at most 1 SP a pool, 2 for artillery: CtB 7.1); skirmishers in the open
/// then die (CtB 10.6).
pub fn defensive_fire(world: &mut World, target: UnitId, charger: UnitId) {
    let pools = defensive_pools(world, target, charger);
    let artillery = stand(world, target).is_some_and(|s| s.spec.id == "Art");
    let cap = super::morale::fire_cap(&tables(world).factors.fire, artillery);
    for (i, pool) in pools.iter().enumerate() {
        if pool.dice() == 0 || hex_of(world, charger).is_none() {
            continue;
        }
        let faces = super::shooting::throw_pool(world, pool.dice(), "CtB 6.2", |w| {
            format!(
                "{}{} defensive fire at {}",
                plain_name(w, target),
                if i == 1 { "'s rear rank" } else { "" },
                plain_name(w, charger)
            )
        });
        let hits = super::pool::count_hits(&faces);
        if hits > 0 {
            super::results::morale_test(world, charger, hits, cap, "CtB 6.2");
        }
    }
    skirmishers_in_the_open(world, target, charger);
    super::refresh_zones(world);
}

/// Skirmishers charged in the open by a formed stand that do not evade are destroyed,
/// after any defensive fire (CtB 6.2, 10.6); against light cavalry they fight.
fn skirmishers_in_the_open(world: &mut World, target: UnitId, charger: UnitId) {
    let is_sk = stand(world, target).is_some_and(|s| s.spec.df == DefensiveFire::Skirmisher);
    let against_lc = stand(world, charger).is_some_and(|c| c.spec.id == "LC");
    let Some(th) = hex_of(world, target) else {
        return;
    };
    let charger_mounted = stand(world, charger).is_some_and(|c| c.spec.mounted);
    if is_sk && !against_lc && !in_cover(world, th) && !removes_impetus(world, th, charger_mounted)
    {
        log(world, EventKind::Special, "CtB 10.6", |w| {
            format!(
                "{} in the open cannot stand against {}: destroyed",
                plain_name(w, target),
                plain_name(w, charger)
            )
        });
        super::results::destroy(world, target, "CtB 10.6", true);
    }
}

//! Reactions in the enemy's activation (CtB 4.0, 6.2, 6.3, 10.6): a charged stand's
//! evasion (its rules in `evasion`) and its defensive fire, the supports' fire, offered
//! as decisions to its owner before the melee is fought, each refused and accepted like
//! a command; skirmishers struck, in the open, or breaking off.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::data::{DefensiveFire, ImpactRemoval};
use super::decision::Pending;
use super::evasion::{ends, fall_back, may_evade, routes};
use super::geometry::{Side, in_front, side_touched};
use super::pool::Pool;
use super::{
    CtbState, acts, acts_mut, facing, hex_of, log, plain_name, ranks, stand, status, tables,
};

/// Whether `charger` contacts `target` through its two front hexes (CtB 4.0, 6.2).
fn through_front(world: &World, target: UnitId, charger: UnitId) -> bool {
    match (hex_of(world, target), hex_of(world, charger)) {
        (Some(t), Some(c)) => side_touched(t, facing(world, target), c) == Some(Side::Front),
        _ => false,
    }
}

/// Skirmishers struck on a flank or the rear (see `struck_skirmishers`) are destroyed
/// without fighting (CtB 10.6); whether they were.
fn strike_skirmishers(world: &mut World, target: UnitId, charger: UnitId) -> bool {
    if !struck_skirmishers(world, target, charger) {
        return false;
    }
    log(world, EventKind::Special, "CtB 10.6", |w| {
        format!(
            "{} are struck on a flank or the rear by {}: destroyed without fighting",
            plain_name(w, target),
            plain_name(w, charger)
        )
    });
    super::results::destroy(world, target, "CtB 10.6", true);
    // Destroyed without fighting: no melee is owed against them (CtB 10.2, 10.6).
    super::decision::forget_destroyed(world, target);
    true
}

/// Whether skirmishers contacted by `charger` die at once (CtB 10.6): struck on a flank
/// or the rear by a Combat Stand, or by light cavalry whose charge began behind their
/// front line.
fn struck_skirmishers(world: &World, target: UnitId, charger: UnitId) -> bool {
    let (Some(t), Some(c)) = (stand(world, target), stand(world, charger)) else {
        return false;
    };
    let Some(th) = hex_of(world, target) else {
        return false;
    };
    if t.spec.df != DefensiveFire::Skirmisher || through_front(world, target, charger) {
        return false;
    }
    if c.spec.id == "LC" {
        acts(world, charger)
            .move_start
            .is_some_and(|s| !in_front(th, facing(world, target), s))
    } else {
        c.spec.role == super::data::Role::Combat
    }
}

/// Whether the ground of a stand in `hex` takes the impetus of a charger from `from`
/// away (CtB 6.2, 10.3): the terrain of its hex, or the hexside between them (a creek,
/// field defences).
pub(super) fn removes_impetus(
    world: &World,
    hex: HexCoord,
    from: Option<HexCoord>,
    mounted: bool,
) -> bool {
    let t = tables(world);
    let board = world.res::<Board>();
    t.terrain_type(board.terrain_name(hex))
        .and_then(|x| x.removes_impact)
        .is_some_and(|r| r == ImpactRemoval::All || (r == ImpactRemoval::Mounted && mounted))
        || from.is_some_and(|f| {
            f.is_adjacent(hex) && super::defences::removes_impact_across(&t, board, f, hex, mounted)
        })
}

/// Whether a stand in `hex` is in cover from an enemy in `from` (designer's Summary
/// Sheet): its hex is cover, or it stands behind field defences facing that enemy.
pub(super) fn in_cover(world: &World, hex: HexCoord, from: Option<HexCoord>) -> bool {
    let t = tables(world);
    let board = world.res::<Board>();
    t.terrain_type(board.terrain_name(hex))
        .is_some_and(|x| x.cover)
        || from.is_some_and(|f| super::defences::behind_defences(&t, board, hex, f))
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
            !(c.spec.mounted && c.spec.id != "LC")
                || removes_impetus(world, th, hex_of(world, charger), true)
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
            || removes_impetus(world, th, hex_of(world, charger), mounted)
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
/// evasion first where allowed, else defensive fire; they come before the melee. The
/// stand whose move triggered an opportunity charge has neither (CtB 5.0, 6.2).
pub fn offer(world: &mut World, charger: UnitId, contacted: &[UnitId], trigger: Option<UnitId>) {
    offer_with(world, charger, contacted, trigger, true);
}

/// The reactions of the stands a pursuit contacts (CtB 6.2, 6.3: "any new stand
/// contacted by pursuers can fire DF or supporting fire"), not the stand it pursues,
/// and no evasion (the text grants them fire only).
pub fn offer_to_pursued(
    world: &mut World,
    pursuer: UnitId,
    contacted: &[UnitId],
    loser: Option<UnitId>,
) {
    offer_with(world, pursuer, contacted, loser, false);
}

/// The reactions to a contact made by turning in place (R-contact): no charge, so no
/// impact nor defensive fire (CtB 6.2: "charged and hit"), but an attack all the same,
/// which the stands contacted may evade where 4.0 allows: among them Sk and LC whose
/// attacker "commenced the turn adjacent to their flank and just turned to attack".
pub fn offer_evasions(world: &mut World, attacker: UnitId, contacted: &[UnitId]) {
    let offers: Vec<Pending> = contacted
        .iter()
        .filter(|t| may_evade(world, **t, attacker))
        .map(|t| Pending::Evade {
            stand: *t,
            charger: attacker,
        })
        .collect();
    let mut s = world.resource_mut::<CtbState>();
    for p in offers.into_iter().rev() {
        s.pending.push_front(p);
    }
}

fn offer_with(
    world: &mut World,
    charger: UnitId,
    contacted: &[UnitId],
    skip: Option<UnitId>,
    evasion: bool,
) {
    let mut offers = Vec::new();
    // A stand contacted with one that must be the Battle Stand (a Combat Stand, the
    // stand pursued, one contacted on its front) is a support: it has no defensive fire
    // of its own, only supporting fire at half (CtB 10.2, 6.3; the text's Flemish pike
    // example: "before the melee begins the XBow stand would have got to use
    // Supporting Fire on the Pikes at half strength").
    let battle = super::melee::battle_candidates(world, charger, contacted);
    for &t in contacted {
        if Some(t) == skip {
            continue;
        }
        // Evasion first: skirmishers caught on a flank that "can still evade" (CtB 4.0)
        // die of 10.6 only if they stand.
        if evasion && may_evade(world, t, charger) {
            offers.push(Pending::Evade { stand: t, charger });
        } else if strike_skirmishers(world, t, charger) {
            continue;
        } else if battle.contains(&t) && may_fire_defensively(world, t, charger) {
            offers.push(Pending::DefensiveFire { stand: t, charger });
        }
    }
    let offered: Vec<UnitId> = offers
        .iter()
        .filter_map(|p| match p {
            Pending::Evade { stand, .. } | Pending::DefensiveFire { stand, .. } => Some(*stand),
            _ => None,
        })
        .collect();
    for stand in supporting_shooters(world, charger, contacted) {
        if !offered.contains(&stand) && Some(stand) != skip {
            offers.push(Pending::SupportingFire { stand, charger });
        }
    }
    let mut s = world.resource_mut::<CtbState>();
    for p in offers.into_iter().rev() {
        s.pending.push_front(p);
    }
}

/// How a support fires at the charger (CtB 6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SupportingShare {
    /// Shot: half its SP, rounded up.
    Half,
    /// Artillery, in full (at most 2 SP: CtB 7.1).
    Full,
    /// Skirmishers, in full, then destroyed unless in cover.
    FullThenDie,
}

/// Whether and how `support` may fire at `charger` in support of `battle` (CtB 6.3):
/// shot at half when it would have had defensive fire as the target (CtB 6.2), and
/// always when its Battle Stand is a Combat Stand, even against HC or MC; skirmishers
/// and artillery in full; no other type.
pub fn supporting_share(
    world: &World,
    support: UnitId,
    battle: UnitId,
    charger: UnitId,
) -> Option<SupportingShare> {
    let (Some(s), Some(b), Some(c)) = (
        stand(world, support),
        stand(world, battle),
        stand(world, charger),
    ) else {
        return None;
    };
    let sh = hex_of(world, support)?;
    match s.spec.df {
        DefensiveFire::ShotNotCavalryInOpen => {
            let as_target = !(c.spec.mounted && c.spec.id != "LC")
                || removes_impetus(world, sh, hex_of(world, charger), true);
            let cs = b.spec.role == super::data::Role::Combat;
            (as_target || cs).then_some(SupportingShare::Half)
        }
        DefensiveFire::Skirmisher => Some(SupportingShare::FullThenDie),
        DefensiveFire::Always if s.spec.id == "Art" => Some(SupportingShare::Full),
        _ => None,
    }
}

/// The stands that will support the Battle Stand a charge contacted (the stands it may
/// name: CtB 10.2, 10.7) and may fire at the charger (CtB 6.3): shooters of the
/// defending side with a front hex on the charger, in no melee already (CtB 6.2).
pub fn supporting_shooters(world: &World, charger: UnitId, contacted: &[UnitId]) -> Vec<UnitId> {
    let mut out = Vec::new();
    let pending = &super::state(world).pending;
    for battle in super::melee::battle_candidates(world, charger, contacted) {
        for s in super::supports::eligible_supports(world, battle, charger) {
            let busy = pending.iter().any(|p| {
                matches!(p, Pending::Fight { stand, .. } if *stand != charger) && p.involves(s)
            });
            if out.contains(&s) || busy {
                continue;
            }
            if supporting_share(world, s, battle, charger).is_some() {
                out.push(s);
            }
        }
    }
    out
}

/// The pool of a supporting fire (CtB 6.3, 6.2): the front rank's SP, −1D6 disordered,
/// then halved rounded up for shot.
pub fn supporting_pool(world: &World, support: UnitId) -> Pool {
    let f = &tables(world).factors.fire;
    let mut p = Pool::of_sp(ranks(world, support).front());
    if status(world, support).disordered {
        p.add(i32::from(f.disordered), "disordered", "CtB 6.2");
    }
    let shot =
        stand(world, support).is_some_and(|s| s.spec.df == DefensiveFire::ShotNotCavalryInOpen);
    if shot {
        let d = p.dice() as i32;
        p.add(-(d - (d + 1) / 2), "half, rounded up", "CtB 6.3");
    }
    p
}

/// Supporting fire at a charger (CtB 6.3): the pool thrown, the charger's Morale Test
/// after any hit (at most 1 SP, 2 for artillery: CtB 7.1); skirmishers that fire are
/// then destroyed unless in cover.
pub fn supporting_fire(world: &mut World, support: UnitId, charger: UnitId) {
    let pool = supporting_pool(world, support);
    let kind = stand(world, support).map(|s| (s.spec.id == "Art", s.spec.df));
    let artillery = kind.is_some_and(|k| k.0);
    let cap = super::morale::fire_cap(&tables(world).factors.fire, artillery);
    if pool.dice() > 0 && hex_of(world, charger).is_some() {
        let faces = super::shooting::throw_pool(world, pool.dice(), "CtB 6.3", |w| {
            format!(
                "{} supporting fire at {}",
                plain_name(w, support),
                plain_name(w, charger)
            )
        });
        let hits = super::pool::count_hits(&faces);
        if hits > 0 {
            super::results::morale_test(world, charger, hits, cap, "CtB 6.3");
        }
    }
    let sk = kind.is_some_and(|k| k.1 == DefensiveFire::Skirmisher);
    if sk && hex_of(world, support).is_some_and(|h| !in_cover(world, h, hex_of(world, charger))) {
        log(world, EventKind::Special, "CtB 6.3", |w| {
            format!(
                "{} fired in support out of cover: destroyed",
                plain_name(w, support)
            )
        });
        super::results::destroy(world, support, "CtB 6.3", true);
    }
    super::refresh_zones(world);
}

/// A stand holds instead of evading: skirmishers struck on a flank die (CtB 10.6: those
/// that "can still evade" by 4.0's exceptions and do not); else defensive fire is
/// offered next where allowed (CtB 10.6: skirmishers in the open fire, then die).
pub fn hold(world: &mut World, target: UnitId, charger: UnitId) {
    log(world, EventKind::Special, "CtB 4.0", |w| {
        format!(
            "{} stands to meet {}",
            plain_name(w, target),
            plain_name(w, charger)
        )
    });
    if strike_skirmishers(world, target, charger) {
        super::refresh_zones(world);
    } else if may_fire_defensively(world, target, charger) {
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
/// after any defensive fire (CtB 6.2, 10.6: "Sk who do not evade are automatically
/// destroyed"); against light cavalry they fight. Whether they were.
pub fn skirmishers_in_the_open(world: &mut World, target: UnitId, charger: UnitId) -> bool {
    let is_sk = stand(world, target).is_some_and(|s| s.spec.df == DefensiveFire::Skirmisher);
    let against_lc = stand(world, charger).is_some_and(|c| c.spec.id == "LC");
    let Some(th) = hex_of(world, target) else {
        return false;
    };
    let charger_mounted = stand(world, charger).is_some_and(|c| c.spec.mounted);
    let from = hex_of(world, charger);
    if is_sk
        && !against_lc
        && !in_cover(world, th, from)
        && !removes_impetus(world, th, from, charger_mounted)
    {
        log(world, EventKind::Special, "CtB 10.6", |w| {
            format!(
                "{} in the open cannot stand against {}: destroyed",
                plain_name(w, target),
                plain_name(w, charger)
            )
        });
        super::results::destroy(world, target, "CtB 10.6", true);
        return true;
    }
    false
}

/// Skirmishers that begin their group's activation with an enemy stand in a front hex
/// break off (CtB 10.6: "must break off"), at once, as an evasion from the nearest of
/// them: up to a full move to the rear, facing kept; that is their first move of the
/// activation. Where they may end in more than one hex their owner chooses
/// (`Pending::BreakOff`, answered with `evade STAND HEX`); with nowhere to go they stay.
/// Returns whether a choice waits (the activation's compelled stands are then marked
/// once every break-off is made: `break_offs_done`).
pub fn break_off(world: &mut World, group: usize) -> bool {
    let mut asked = false;
    for id in super::group_stands(world, group) {
        let is_sk = stand(world, id).is_some_and(|s| s.spec.df == DefensiveFire::Skirmisher);
        let Some(at) = hex_of(world, id) else {
            continue;
        };
        if !is_sk || super::in_melee(world, id) {
            continue;
        }
        let side = super::side_of(world, id);
        let Some(enemy) = super::moving::enemies_in_front(world, side, at, facing(world, id))
            .into_iter()
            .min_by_key(|e| (hex_of(world, *e).map_or(u32::MAX, |h| h.distance(at)), *e))
        else {
            continue;
        };
        let Some(from) = hex_of(world, enemy) else {
            continue;
        };
        let ways = super::evasion::ends(world, id, from);
        if ways.len() > 1 {
            world
                .resource_mut::<super::CtbState>()
                .pending
                .extend([Pending::BreakOff { stand: id, enemy }]);
            asked = true;
            continue;
        }
        let Some(path) = routes(world, id, from).into_iter().next() else {
            log(world, EventKind::Special, "CtB 10.6", |w| {
                format!(
                    "{} must break off from {} but has nowhere to go",
                    plain_name(w, id),
                    plain_name(w, enemy)
                )
            });
            continue;
        };
        break_off_along(world, id, enemy, &path.path);
    }
    asked
}

/// A skirmisher breaks off from `enemy` along `path` (CtB 10.6): its first move of the
/// activation.
pub fn break_off_along(world: &mut World, id: UnitId, enemy: UnitId, path: &[HexCoord]) {
    let Some(at) = hex_of(world, id) else {
        return;
    };
    {
        let mut t = acts_mut(world, id);
        t.moves += 1;
        t.move_start = Some(at);
        t.hexes += path.len() as u32;
    }
    fall_back(world, id, path, "CtB 10.6", |w, from, to| {
        format!(
            "{} breaks off from {}: {from} → {to}, facing {}",
            plain_name(w, id),
            plain_name(w, enemy),
            facing(w, id).name()
        )
    });
}

/// After a chosen break-off: once none waits, the activation's impetuous stands are
/// marked compelled (CtB 9.1), as they are at once when no break-off asks.
pub fn break_offs_done(world: &mut World) {
    let waiting = super::state(world)
        .pending
        .iter()
        .any(|p| matches!(p, Pending::BreakOff { .. }));
    if let (false, Some(group)) = (waiting, super::state(world).activation) {
        super::impetuous::mark_compelled(world, group);
    }
}

/// Whether a support must evade or fire and die (CtB 10.6: "Even if the Sk are only a
/// supporting stand to a stand which has been charged they must evade, or fire/die"):
/// skirmishers out of cover from `charger` (behind field defences facing it, they are in
/// cover).
pub fn support_must_evade_or_fire(world: &World, support: UnitId, charger: UnitId) -> bool {
    stand(world, support).is_some_and(|s| s.spec.df == DefensiveFire::Skirmisher)
        && hex_of(world, support).is_some_and(|h| !in_cover(world, h, hex_of(world, charger)))
}

/// Where a supporting skirmisher evades the charger to by default (CtB 10.6, 4.0), if
/// anywhere.
pub fn support_evasion(world: &World, support: UnitId, charger: UnitId) -> Option<HexCoord> {
    let is_sk = stand(world, support).is_some_and(|s| s.spec.df == DefensiveFire::Skirmisher);
    if !is_sk || super::in_melee(world, support) {
        return None;
    }
    ends(world, support, hex_of(world, charger)?)
        .first()
        .copied()
}

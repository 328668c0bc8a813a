//! CdB for the computer opponent: what CdB hides, drawn again (the hexes of units in
//! ambush, set by the scenario's special rules or in the set-up, and the corps'
//! placement each side writes in secret, CdB 14.3.3), and how good a position is in
//! CdB's own terms of losses and demoralisation (CdB 12, 13).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;

use super::deployment_placement::ambush_ground;
use super::morale::{army_losses_halves, army_total_halves, corps_lost_halves, threshold_halves};
use super::position::Sight;
use super::setup::Watchers;
use super::{CdbState, state};
use crate::engine::board::Board;
use crate::engine::hex::HexCoord;
use crate::engine::units::{SideId, UnitId};
use crate::rulesets::common::{redraw_hidden_units, units_at};

/// Each enemy unit in ambush is put in a hex its ambush allows (the scenario's zone,
/// else the set-up's distances from its edge, CdB 14.3.3) where no unit stands and
/// where `observer`'s units would not see it now (else it would have been revealed,
/// CdB 14.3). Units hidden by a simultaneous placement, until both armies are
/// revealed, are not drawn again (see the README).
pub fn resample_hidden(world: &mut World, observer: SideId, rng: &mut ChaCha8Rng) {
    redraw_hidden_units(world, observer, rng, ambush_places);
    redraw_enemy_plan(world, observer, rng);
}

/// The enemy's written order of corps, shuffled, while none of its corps is placed:
/// until then nothing of it shows (CdB 14.3.3). Once one is, the order starts to show
/// on the map, and the plan is left as written.
fn redraw_enemy_plan(world: &mut World, observer: SideId, rng: &mut ChaCha8Rng) {
    use rand::RngExt;
    let enemy = observer.other();
    let corps_side: Vec<SideId> = state(world).corps.iter().map(|c| c.side).collect();
    let mut st = world.resource_mut::<CdbState>();
    let Some(d) = st.deploy.as_mut() else {
        return;
    };
    if d.placed.iter().any(|c| corps_side[*c] == enemy) {
        return;
    }
    if let Some(plan) = d.plan[enemy.0 as usize].as_mut() {
        for i in (1..plan.len()).rev() {
            plan.swap(i, rng.random_range(0..=i));
        }
    }
}

fn ambush_places(world: &World, unit: UnitId) -> Vec<HexCoord> {
    let zone = state(world)
        .hidden_zones
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, z)| *z);
    let in_ambush = state(world)
        .deploy
        .as_ref()
        .is_some_and(|d| d.ambushers.contains(&unit));
    if zone.is_none() && !in_ambush {
        return Vec::new();
    }
    let (watchers, sight) = (Watchers::of(world, unit), Sight::of(world));
    world
        .res::<Board>()
        .hexes()
        .filter(|h| match zone {
            Some(z) => z.contains(*h),
            None => ambush_ground(world, unit, *h),
        })
        .filter(|h| units_at(world, *h).is_empty() && !watchers.see(&sight, *h))
        .collect()
}

/// How good a position is for `side`, for the computer opponent's playouts, in CdB's
/// own terms: each army's losses as CdB 13 counts them (its eliminated counters, and
/// every counter of a demoralised corps), in halves, against the half of its counter
/// equivalents that breaks it; and, for each corps not yet demoralised, the rest of
/// its counters counted lost by the square of its share of its threshold lost (CdB
/// 12.2), so that a corps a counter from breaking is worth guarding (or, the enemy's,
/// pressing) before the end of the turn breaks it. The window's whole counters
/// (`view::morale`) would drop a Psiloi's half and show a corps' coming break only
/// once it broke: both left most playouts of a turn scored alike.
pub fn evaluate(world: &World, side: SideId) -> f64 {
    let corps = &state(world).corps;
    let shares: Vec<(SideId, f64)> = [SideId(0), SideId(1)]
        .into_iter()
        .map(|s| {
            let at_risk: f64 = (0..corps.len())
                .filter(|&c| corps[c].side == s && !corps[c].demoralised)
                .map(|c| {
                    let total = corps[c].total_halves;
                    let lost = corps_lost_halves(world, c).min(total);
                    let threshold = threshold_halves(world, c);
                    if threshold <= 0 || lost == 0 {
                        return 0.0;
                    }
                    let near = (f64::from(lost) / f64::from(threshold)).min(1.0);
                    near * near * f64::from(total - lost)
                })
                .sum();
            let lost = f64::from(army_losses_halves(world, s)) + at_risk;
            let breaks_at = (f64::from(army_total_halves(world, s)) / 2.0).max(1.0);
            (s, lost / breaks_at)
        })
        .collect();
    crate::engine::evaluation::share_value(world, &shares, side)
}

/// How much the computer's playouts weigh keeping `side`'s army together
/// (`evaluation::cohesion`, `Ruleset::cohesion_weight`): `DEFENCE_COHESION` for the
/// side that need only last, nothing for the side that must attack.
pub fn cohesion_weight(world: &World, side: SideId) -> f64 {
    if crate::engine::evaluation::time_limit_winner(world) == Some(side) {
        DEFENCE_COHESION
    } else {
        0.0
    }
}

/// CdB counts the units beside a unit in each melee (supports, CdB 11.3) and its
/// flanks (11.5), so a defence scattered by its moves is broken one unit at a time,
/// and while the armies close the playouts of random play score every move alike.
/// Trials (2026-11-28, normal against random play, release): the Romans at Soissons
/// won 11 of 40 without it (seeds 1-40), with a weight of 0.1 7 of 20, 0.3 9 of 20,
/// 0.5 10 of 20, 0.8 7 of 20 (seeds 1-20), and 0.4 17 of 40 (seeds 21-60), then 72
/// of 200 (36%) from seed 1; the Byzantines at Casilinum 100 of 201 at 0.4 (12 of 20
/// without: no gain there). Given to the side that must attack, it lost: the Arabs
/// at Poitiers won 5 of 20 at 0.4 (16 of 40 without). In A la Charge the Byzantines
/// at Kalavryai won 25 of 40 with it (89 of the first 100 without), so it is CdB's
/// alone.
const DEFENCE_COHESION: f64 = 0.4;

/// The groups `side` could march now (CdB 5.1), for the computer opponent's
/// candidates: its front-rank units on the map that are not baggage and stand in no
/// enemy zone of control (a unit in one cannot be part of a group, CdB 5.1), joined
/// where they are of one corps, face one way and stand next to each other. Those of
/// two units or more that keep CdB 5.1's shape, largest first; none outside the
/// movement phase (CdB 9).
pub fn groups(world: &World, side: SideId) -> Vec<Vec<UnitId>> {
    use super::position::in_enemy_zoc;
    use super::{facing, flags, kind, unit};
    use crate::rulesets::common::{all_units, bodies, hex_of, side_of};
    if state(world).step != super::CdbPhase::Movement {
        return Vec::new();
    }
    let free: Vec<(UnitId, HexCoord)> = all_units(world)
        .into_iter()
        .filter(|u| side_of(world, *u) == side && flags(world, *u).rank == 0)
        .filter(|u| kind(world, *u) != super::data::Kind::Bag)
        .filter_map(|u| Some((u, hex_of(world, u)?)))
        .filter(|(u, _)| !in_enemy_zoc(world, *u))
        .collect();
    let joined = |a: (UnitId, HexCoord), b: (UnitId, HexCoord)| {
        a.1.distance(b.1) == 1
            && unit(world, a.0).corps == unit(world, b.0).corps
            && facing(world, a.0) == facing(world, b.0)
    };
    bodies(&free, joined, |group| {
        super::stacking::check_is_group(world, group).is_ok()
    })
}

/// Marches that put one of `side`'s units in a flank position on an enemy unit (CdB
/// 11.4: beside its flank or rear, the enemy in the mover's frontal hexes, the mover
/// in no enemy zone of control), for the computer opponent's candidates: a unit
/// attacked from one is destroyed where it would recoil, and the flanker supports the
/// melee against it (11.3). Random marches seldom end on the one hex and facing that
/// does it. Those on an enemy already in frontal contact with one of `side`'s units
/// first (it cannot pivot to face the flanker, 11.2), then the cheapest in PA; one
/// march a unit, at most `limit`. None outside the movement phase (CdB 9).
pub fn flanking_marches(
    world: &World,
    side: SideId,
    limit: usize,
) -> Vec<crate::engine::command::Command> {
    use super::commands::{CdbCommand, MarchStep};
    use super::position::{
        EnemyLookup, enemies_in_front, exerts_zoc, frontal_contact, zoc_exerted_on,
    };
    use super::{facing, flags, kind, unit};
    use crate::engine::command::UnitRef;
    use crate::rulesets::common::{all_units, hex_of, side_of};
    if limit == 0 || state(world).step != super::CdbPhase::Movement {
        return Vec::new();
    }
    let own: Vec<UnitId> = all_units(world)
        .into_iter()
        .filter(|u| side_of(world, *u) == side)
        .collect();
    // (enemy, own unit) in frontal contact (7.3), read once for every march weighed.
    let held_by: Vec<(UnitId, UnitId)> = own
        .iter()
        .flat_map(|&o| {
            enemies_in_front(world, o)
                .into_iter()
                .filter(move |&e| frontal_contact(world, o, e))
                .map(move |e| (e, o))
        })
        .collect();
    // Visible enemies only (`enemy_at`): it never flanks a unit it cannot see.
    let enemies = EnemyLookup::new(world, side);
    let mine: Vec<UnitId> = own
        .into_iter()
        .filter(|u| flags(world, *u).rank == 0)
        .filter(|u| kind(world, *u) != super::data::Kind::Bag && !unit(world, *u).general)
        .filter(|u| hex_of(world, *u).is_some())
        .collect();
    // (tier, PA, the march): each unit's best
    let mut best: Vec<((u8, i32), crate::engine::command::Command)> = Vec::new();
    for id in mine {
        let who = UnitRef::Hex(hex_of(world, id).expect("on the map"));
        let Ok((ctx, base)) = super::march::begin(world, &[(who.clone(), Vec::new())]) else {
            continue;
        };
        let mut found: Option<((u8, i32), Vec<MarchStep>)> = None;
        super::view::march_search(world, id, &ctx, &base, |n, body, cost| {
            // A flank position is of no effect from within an enemy zone (11.4).
            let zone_free = zoc_exerted_on(world, side, n).is_empty();
            for t in body.facing.front(n) {
                let Some(e) = enemies.at(t) else {
                    continue;
                };
                if !exerts_zoc(world, e) {
                    continue;
                }
                let flank = !facing(world, e).front(t).contains(&n);
                if flank && !zone_free {
                    continue;
                }
                let held = held_by.iter().any(|&(x, o)| x == e && o != id);
                // A flank on an enemy held in front, then a support against it (its
                // other frontal hex free of enemies, 11.3), then a flank it can pivot
                // to face (6.3).
                let tier = match (flank, held) {
                    (true, true) => 0,
                    (false, true) => {
                        let other_free = body
                            .facing
                            .front(n)
                            .into_iter()
                            .filter(|x| *x != t)
                            .all(|x| enemies.at(x).is_none());
                        if !other_free {
                            continue;
                        }
                        1
                    }
                    (true, false) => 2,
                    (false, false) => continue,
                };
                let key = (tier, cost.0);
                if found.as_ref().is_none_or(|(k, _)| key < *k) {
                    found = Some((key, body.steps.clone()));
                }
            }
        });
        if let Some((key, steps)) = found {
            let command = CdbCommand::March {
                moves: vec![(who, steps)],
            }
            .command();
            best.push((key, command));
        }
    }
    best.sort_by_key(|a| a.0);
    best.into_iter().take(limit).map(|b| b.1).collect()
}

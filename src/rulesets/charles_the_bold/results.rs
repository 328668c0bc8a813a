//! What fire and melee do to stands in the game (CtB 7.0-7.4, 11.0-13.1, 2.2): the
//! Morale Test's die, SP taken off the back ranks with their break points, destroyed
//! stands and their generals' fate, and the winner's pursuit (retreats are in
//! `retreat.rs`).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, SideId, UnitId};

use super::morale::{Tester, adjusted_morale, morale_loss, take_losses};
use super::{
    CtbGeneral, CtbRanks, CtbState, attached_general, facing, hex_of, log, plain_name, ranks, roll,
    set_placement, side_of, stand, stand_at, status,
};

/// What a stand's Morale Test needs (CtB 7.0, 7.4): its front rank's figures, its
/// disorder before the test and an attached general.
pub fn tester(world: &World, id: UnitId) -> Tester {
    let s = stand(world, id).expect("a stand");
    Tester::of_ranks(
        &ranks(world, id).0,
        &s.sp0,
        status(world, id).disordered,
        attached_general(world, id).is_some(),
    )
}

/// Rolls a stand's Morale Test after `hits` (CtB 7.0) and disorders it (CtB 7.3);
/// returns its tester (as before the test) and its morale loss. The SP it costs are
/// the caller's: fire's cap, or the melee's verdict.
pub fn test_die(world: &mut World, id: UnitId, hits: u32, rule: &'static str) -> (Tester, u8) {
    let t = tester(world, id);
    let f = super::tables(world).factors.morale;
    let adjusted = adjusted_morale(&t, hits, &f);
    let face = roll(world, rule, |w| {
        format!(
            "the Morale Test of {} ({hits} hit{}, adjusted morale {adjusted})",
            plain_name(w, id),
            if hits == 1 { "" } else { "s" }
        )
    });
    let loss = morale_loss(adjusted, face, &f);
    super::disorder(world, id);
    (t, loss)
}

/// A Morale Test from fire (CtB 6.4, 7.0-7.3): disordered, and SP lost up to `cap`
/// (at least 1 if it was disordered before: CtB 7.3).
pub fn morale_test(world: &mut World, id: UnitId, hits: u32, cap: u8, rule: &'static str) {
    let (t, loss) = test_die(world, id, hits, rule);
    let sp = super::morale::sp_loss(loss, cap, t.disordered);
    log(world, EventKind::MoraleCheck, "CtB 7.0", |w| {
        format!(
            "{}: morale loss {loss}, {} SP lost{}, disordered",
            plain_name(w, id),
            sp.sp,
            if sp.by_disorder {
                " (already disordered: CtB 7.3)"
            } else {
                ""
            }
        )
    });
    if sp.sp > 0 {
        lose_sp(world, id, sp.sp, rule);
    }
}

/// Takes `sp` SP off a stand, back ranks first (CtB 7.4); each rank removed costs its
/// side the rank's break points (CtB 14.0, R-BP); with no rank left the stand is
/// destroyed (CtB 7.1). Returns whether it was destroyed.
pub fn lose_sp(world: &mut World, id: UnitId, sp: u8, rule: &'static str) -> bool {
    let mut r = ranks(world, id).0.clone();
    let removed = take_losses(&mut r, sp);
    let bp = stand(world, id).map_or(0, |s| s.bp());
    let side = side_of(world, id);
    world.resource_mut::<CtbState>().bp_lost[side.0 as usize] += removed * bp;
    let gone = r.is_empty();
    let left = r.clone();
    *super::component_mut::<CtbRanks>(world, id) = CtbRanks(r);
    log(world, EventKind::StepLost, rule, |w| {
        format!(
            "{} loses {sp} SP{}",
            plain_name(w, id),
            if gone {
                String::new()
            } else {
                format!(
                    ", now {}",
                    left.iter().map(u8::to_string).collect::<Vec<_>>().join("/")
                )
            }
        )
    });
    if gone {
        destroy(world, id, rule, false);
    }
    gone
}

/// Removes a stand from the game (CtB 7.1, 12.0, 12.1): its ongoing melees end; a general
/// attached dies with it (CtB 2.2), one with it but not attached rides to his nearest
/// stand. `off_board` is a pursuit off the map, which costs no break points (CtB 13.0).
pub fn destroy(world: &mut World, id: UnitId, rule: &'static str, count_bp: bool) {
    let hex = hex_of(world, id);
    if count_bp {
        let n = ranks(world, id).0.len() as u32;
        let bp = stand(world, id).map_or(0, |s| s.bp());
        let side = side_of(world, id);
        world.resource_mut::<CtbState>().bp_lost[side.0 as usize] += n * bp;
        *super::component_mut::<CtbRanks>(world, id) = CtbRanks(Vec::new());
    }
    let rider = attached_general(world, id);
    set_placement(world, id, Placement::Eliminated);
    world
        .resource_mut::<CtbState>()
        .melees
        .retain(|m| !m.stands.contains(&id));
    log(world, EventKind::Eliminated, rule, |w| {
        format!("{} is destroyed", plain_name(w, id))
    });
    if let Some(g) = rider {
        super::component_mut::<CtbGeneral>(world, g).attached = None;
        set_placement(world, g, Placement::Eliminated);
        if let Some(h) = hex {
            world.resource_mut::<CtbState>().fallen.push((g, h));
        }
        log(world, EventKind::Eliminated, "CtB 2.2", |w| {
            format!(
                "{} is killed with the stand: a replacement comes next round",
                plain_name(w, g)
            )
        });
    }
    if let Some(h) = hex {
        for g in super::generals_at(world, h) {
            super::generals::displace_general(world, g, "CtB 2.2");
        }
    }
}

/// Enemy generals alone in a hex a stand enters ride to their nearest stand (CtB 2.1).
pub fn displace_enemy_generals(world: &mut World, id: UnitId, hex: HexCoord) {
    let side = side_of(world, id);
    for g in super::generals_at(world, hex) {
        if side_of(world, g) != side {
            super::generals::displace_general(world, g, "CtB 2.1");
        }
    }
}

/// Whether `x` lies in the zone of control of an enemy of `side` other than the stands
/// `except` (CtB 3.5's two front hexes; skirmishers have none).
fn in_zone_of_others(world: &World, side: SideId, x: HexCoord, except: &[UnitId]) -> bool {
    super::in_enemy_zoc(world, side, x)
        && x.neighbors().into_iter().any(|n| {
            stand_at(world, n).is_some_and(|e| {
                side_of(world, e) != side
                    && !except.contains(&e)
                    && stand(world, e).is_some_and(|es| es.spec.zoc)
                    && facing(world, e).front(n).contains(&x)
            })
        })
}

/// The winner's pursuit (CtB 13.0, 13.1): the die gives how far; it follows the loser
/// into the hex it left and on along its way, without turning, stopping before any
/// stand; an enemy in its front at the end is a new melee at once, with impact.
pub fn pursue(world: &mut World, id: UnitId, from_hex: HexCoord, loser_path: Vec<HexCoord>) {
    let Some(s) = stand(world, id).cloned() else {
        return;
    };
    // The stand pursued, where its retreat ended (CtB 6.2: it fires no DF at its
    // pursuer).
    let pursued = loser_path.last().and_then(|h| stand_at(world, *h));
    let tables = super::tables(world);
    let face = roll(world, "CtB 13.0", |w| {
        format!("the pursuit of {}", plain_name(w, id))
    });
    let distance = super::verdict::pursuit_distance(
        &tables.orders.pursuit,
        s.spec.pursuit,
        super::impetuous::impetus(world, id).is_some(),
        face,
        u32::from(s.entry.mp.0),
    );
    let side = side_of(world, id);
    let start = hex_of(world, id).expect("on the map");
    let mut pos = start;
    let mut hexes = 0;
    let face_dir = facing(world, id);
    let mut way = vec![from_hex];
    if loser_path.is_empty() {
        // The loser destroyed: on in as straight a line as possible (CtB 13.1).
        if let Some(dir) = start.direction_to(from_hex) {
            let mut h = from_hex;
            for _ in 1..distance {
                h = h.neighbor(dir);
                way.push(h);
            }
        }
    } else {
        way.extend(loser_path);
    }
    let board = world.res::<Board>();
    let mut off_board = false;
    for h in way {
        // Along the loser's way without turning or sidestepping, never into a stand
        // (CtB 13.1).
        if hexes >= distance || !face_dir.front(pos).contains(&h) || stand_at(world, h).is_some() {
            break;
        }
        // Pursuing off the board, the stand is lost, not counted in lost points (CtB
        // 13.0).
        if !board.contains(h) {
            off_board = true;
            break;
        }
        if super::movement::step_cost(&tables, board, s.spec.terrain, pos, h).is_none() {
            break;
        }
        // Never with a flank or rear hex in an enemy zone of control (skirmishers
        // have none), and foot never into contact with medium or heavy cavalry (CtB
        // 13.0).
        // The zones of the stands it would contact there do not count: the text's A2
        // has a pursuit meet its enemy face on, and a stand met face on always has a
        // front hex on the pursuer's flank in our geometry.
        let contacted = super::moving::enemies_in_front(world, side, h, face_dir);
        let exposed = face_dir
            .flank(h)
            .into_iter()
            .chain(face_dir.rear(h))
            .any(|x| board.contains(x) && in_zone_of_others(world, side, x, &contacted));
        let meets_horse = !s.spec.mounted
            && contacted
                .iter()
                .any(|e| stand(world, *e).is_some_and(|x| x.spec.mounted && x.spec.id != "LC"));
        if exposed || meets_horse {
            break;
        }
        pos = h;
        hexes += 1;
        // It stops where it contacts the stand pursued or a new enemy (CtB 13.1).
        if !super::moving::enemies_in_front(world, side, pos, face_dir).is_empty() {
            break;
        }
    }
    if off_board {
        log(world, EventKind::Special, "CtB 13.0", |w| {
            format!(
                "{} pursues off the board and is lost (no lost points)",
                plain_name(w, id)
            )
        });
        destroy(world, id, "CtB 13.0", false);
        return;
    }
    if hexes == 0 {
        log(world, EventKind::Special, "CtB 13.0", |w| {
            format!("{} does not pursue", plain_name(w, id))
        });
        return;
    }
    super::carry(world, id, pos);
    displace_enemy_generals(world, id, pos);
    {
        let mut t = super::acts_mut(world, id);
        t.hexes += hexes;
        t.move_start = Some(start);
    }
    log(world, EventKind::Advanced, "CtB 13.1", |w| {
        format!("{} pursues {start} → {pos}", plain_name(w, id))
    });
    super::refresh_zones(world);
    let front = super::moving::enemies_in_front(world, side, pos, facing(world, id));
    if !front.is_empty() {
        {
            let mut t = super::acts_mut(world, id);
            t.contacted = front.clone();
            t.impact_used = false;
            // Caught, the stand pursued is the enemy Battle Stand (CtB 10.2).
            t.pursuing = pursued.filter(|p| front.contains(p));
        }
        world
            .resource_mut::<CtbState>()
            .pending
            .push_front(super::decision::Pending::Fight {
                stand: id,
                enemies: front.clone(),
                charge: true,
            });
        log(world, EventKind::CombatDeclared, "CtB 13.1", |w| {
            format!(
                "{}'s pursuit makes contact: a new melee at once, with impact",
                plain_name(w, id)
            )
        });
        super::reactions::offer_to_pursued(world, id, &front, pursued);
    }
}

//! Charles the Bold's threat map: where a stand could attack in its group's next
//! activation (CtB 1.4), by the first move that activation gives it (CtB 3.0-3.10, with
//! the zones of control, facings and contacts its search checks), the contact that
//! move or a turn in place makes (CtB 3.1, 10.0, R-contact) and its fire before or
//! after it (CtB 6.0), with the dice it would throw alone.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use super::combat::{MeleeSituation, impact_factor, melee_dice, stand_pool};
use super::impetuous::compelled_now;
use super::melee::pools_alone;
use super::moving::{makes_contact, may_contact};
use super::posture::Posture;
use super::reach::{self, Mover};
use super::shooting::{aim, in_close_combat};
use super::{
    CtbTurn, activation, facing, hex_of, in_melee, ranks, side_of, stand, stand_at, state,
};
use crate::engine::board::Board;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::threat::UnitThreat;
use crate::engine::units::UnitId;

/// How good an attack on a hex is: a melee before any fire (a melee decides the hex,
/// fire wears it down), then the most dice (a melee's own less the enemy's).
type Rank = (bool, i32);

/// Each hex `id` could attack in its group's next activation, with the dice it would
/// throw there alone: "melee 7D6 against 4D6" (its Battle Stand's pool against the
/// enemy's, no supports: CtB 10.1-10.5), "fire 3D6 at 2H" (every rank's pool: CtB 6.0,
/// 6.1), or its own dice on an empty hex. Hits are each 6 and each pair of 5s whatever
/// the pool (CtB 6.4), so the dice are the whole figure.
///
/// The activation as the rules give it, read with their own functions:
/// - a stand of a group that has not moved this round, or of any group when its side
///   has none left (the next round's), moves next; a general never fights alone;
/// - its first move (`reach::Mover::for_turn` with the record its activation begins
///   with, compelled as `impetuous::mark_compelled` would mark it then: an impetuous
///   stand's move closes on the enemy, CtB 9.1, 9.2), along hexes keeping its facing,
///   against the enemy's zones and stands as they stand now;
/// - contact through its front hexes where that move ends (skirmishers and light
///   cavalry end facing any way: every hex around, CtB 3.1), a charge after a hex or
///   more (CtB 10.3); and in its own hex every hex around, for it may turn in place to
///   face an enemy (a face for 1 MP, about as a whole move: CtB 3.1, 3.2, R-contact),
///   with no charge; `moving::may_contact` decides whom it may contact (CtB 10.0);
/// - a shooting stand fires from its hex before moving, or from where its move ends
///   (one move before: CtB 6.0), in its arc, seen and in range (`shooting::aim`);
///   artillery only where it stands;
/// - a Battle Stand of an ongoing melee fights it again, neither moving nor firing
///   (CtB 3.7, 6.0, 11.3).
pub fn threats(world: &World, id: UnitId) -> Vec<UnitThreat> {
    let (Some(me), Some(start)) = (stand(world, id), hex_of(world, id)) else {
        return Vec::new();
    };
    if !activates_next(world, id) {
        return Vec::new();
    }
    let mut best: Vec<(HexCoord, Rank, String)> = Vec::new();
    let mut note =
        |hex: HexCoord, rank: Rank, text: String| match best.iter_mut().find(|b| b.0 == hex) {
            Some(b) if b.1 >= rank => {}
            Some(b) => *b = (hex, rank, text),
            None => best.push((hex, rank, text)),
        };
    let now = Posture::now(world, id);
    if in_melee(world, id) {
        for m in state(world)
            .melees
            .iter()
            .filter(|m| m.stands.contains(&id))
        {
            let enemy = m.stands[usize::from(m.stands[0] == id)];
            if let Some(at) = hex_of(world, enemy) {
                let (rank, text) = melee(world, id, &now, Some(enemy), false);
                note(at, rank, text);
            }
        }
        return finish(best);
    }
    // The record its activation begins with (`activation::start_activation`).
    let mut record = CtbTurn::default();
    if let Some((imp, enemies)) = compelled_now(world, id) {
        record.compelled = imp;
        record.compelling = enemies;
    }
    let Some(mut mover) = Mover::for_turn(world, id, &record) else {
        return finish(best);
    };
    let ends = reach::ends(&mut mover);
    let face = facing(world, id);
    let every_facing: Vec<VertexFacing> = (0..6).map(VertexFacing).collect();
    let turned = |p: Posture, f: VertexFacing| Posture { facing: f, ..p };
    // Where it may stand facing which way, and whether it charged there.
    let mut places: Vec<(Posture, bool)> = every_facing
        .iter()
        .map(|&f| (turned(moved(now, start, 0), f), false))
        .collect();
    for (at, path) in &ends {
        let there = moved(now, at.hex, path.len() as u32);
        let facings = if me.spec.free {
            every_facing.as_slice()
        } else {
            std::slice::from_ref(&face)
        };
        places.extend(facings.iter().map(|&f| (turned(there, f), true)));
    }
    let side = side_of(world, id);
    let contacts = makes_contact(me);
    let board = world.res::<Board>();
    for &(posture, charge) in places.iter().filter(|_| contacts) {
        for target in posture.facing.front(posture.hex) {
            if !board.contains(target) {
                continue;
            }
            match stand_at(world, target) {
                Some(e) if side_of(world, e) == side => {}
                Some(e) if may_contact(world, id, e, posture.hex, start).is_err() => {}
                enemy => {
                    let (rank, text) = melee(world, id, &posture, enemy, charge);
                    note(target, rank, text);
                }
            }
        }
    }
    if me.spec.shoots && me.entry.fire.is_some() && !in_close_combat(world, id) {
        let tables = super::tables(world);
        let factors = &tables.factors.fire;
        let reach = (1..=factors.ranges.iter().map(|b| b.to).max().unwrap_or(0))
            .filter(|r| me.entry.fire_dice(1, *r, factors).is_some())
            .max()
            .unwrap_or(0);
        let shooting_from = std::iter::once((now, 0)).chain(
            places
                .iter()
                .filter(|(p, charged)| *charged && !me.spec.no_move_and_fire && p.hex != start)
                .map(|(p, _)| (*p, 1)),
        );
        for (posture, moves_before) in shooting_from {
            for target in posture.hex.within(reach) {
                let enemy = stand_at(world, target);
                if target == posture.hex
                    || !board.contains(target)
                    || enemy.is_some_and(|e| side_of(world, e) == side || in_close_combat(world, e))
                {
                    continue;
                }
                let from = (posture.hex, posture.facing);
                if let Ok(pools) = aim(world, id, from, (target, enemy), (moves_before, false)) {
                    let dice: u32 = pools.iter().map(|p| p.dice()).sum();
                    let range = posture.hex.distance(target);
                    note(
                        target,
                        (false, dice as i32),
                        format!("fire {dice}D6 at {range}H"),
                    );
                }
            }
        }
    }
    finish(best)
}

/// The stand as its first move would leave it in `hex`, having entered `hexes` hexes
/// from where it stands now.
fn moved(now: Posture, hex: HexCoord, hexes: u32) -> Posture {
    Posture {
        hex,
        moves: 1,
        hexes,
        move_start: Some(now.hex),
        ..now
    }
}

/// A melee of `id` standing as `posture` on `enemy` (none: an empty hex, where its own
/// dice are given: its front rank and its impact if it charged, CtB 10.1, 10.3).
fn melee(
    world: &World,
    id: UnitId,
    posture: &Posture,
    enemy: Option<UnitId>,
    charge: bool,
) -> (Rank, String) {
    let tables = super::tables(world);
    let m = &tables.factors.melee;
    let Some(enemy) = enemy else {
        let me = stand(world, id).expect("a stand");
        let lost = ranks(world, id).0 != me.sp0;
        let situation = MeleeSituation {
            impact: if charge {
                impact_factor(&me.entry, me.special.as_ref(), m, lost)
            } else {
                0
            },
            disordered: super::status(world, id).disordered,
            ..Default::default()
        };
        let dice = melee_dice(m, &stand_pool(m, ranks(world, id).front(), situation));
        return ((true, dice as i32), format!("melee {dice}D6"));
    };
    let [own, theirs] = pools_alone(world, id, posture, enemy, charge).map(|p| melee_dice(m, &p));
    (
        (true, own as i32 - theirs as i32),
        format!("melee {own}D6 against {theirs}D6"),
    )
}

fn finish(best: Vec<(HexCoord, Rank, String)>) -> Vec<UnitThreat> {
    best.into_iter()
        .map(|(hex, _, best)| UnitThreat { hex, best })
        .collect()
}

/// Whether a stand's group may be the next its side activates (CtB 1.4): one that has
/// not moved this round, or any once its side has none left (the next round's).
fn activates_next(world: &World, id: UnitId) -> bool {
    let Some(group) = stand(world, id).map(|s| s.group) else {
        return false;
    };
    let unmoved = activation::unmoved_groups(world, side_of(world, id));
    unmoved.contains(&group) || (unmoved.is_empty() && !state(world).waiting.contains(&group))
}

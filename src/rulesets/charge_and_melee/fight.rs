//! The Mêlée Phase (C&M 7.18-7.32), both sides at once: every stand in contact fights
//! the stand it faces (7.20, 7.22), or overlaps a friend's opponent (7.24), unformed
//! stands all round; routing stands do not fight back and a hit removes them (7.23).
//! The dice are rolled unit by unit in id order, stand by stand; then the results
//! together (7.29): losers break or are pushed back with a DP (7.25), elephants stay
//! and test for rampage (7.26, `rampage`), cavalry that
//! beat not every opponent retire (7.28), and the winners' moves are queued (7.30, 7.31).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::data::{Category, Grade};
use super::melee::{MeleeLoss, StandFight, cavalry_must_retire, hits, loss, lost, needed};
use super::results::AfterCharge;
use super::*;

/// One stand's fight: who, against whom.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bout {
    pub unit: UnitId,
    pub stand: HexCoord,
    pub foe: UnitId,
    pub foe_stand: HexCoord,
}

fn enemy_at(world: &World, side: crate::engine::units::SideId, hex: HexCoord) -> Option<UnitId> {
    stand_at(world, hex).filter(|o| side_of(world, *o) != side)
}

/// The stand a stand fights (7.20, 7.22, 7.24), if any.
fn opponent(world: &World, u: UnitId, s: HexCoord) -> Option<(UnitId, HexCoord)> {
    let side = side_of(world, u);
    let f = formation(world, u);
    if !f.formed() {
        return s
            .neighbors()
            .into_iter()
            .find_map(|n| enemy_at(world, side, n).map(|o| (o, n)));
    }
    let front = f.facing.front(s);
    if let Some(o) = enemy_at(world, side, front) {
        return Some((o, front));
    }
    let own = stands(world, u);
    f.facing.front_corners(s).into_iter().find_map(|c| {
        let aligned = own.iter().any(|x| *x != s && f.facing.front(*x) == c);
        enemy_at(world, side, c).filter(|_| aligned).map(|o| (o, c))
    })
}

/// The units that fight a mêlée now: every troop with an enemy in contact (7.18).
pub(crate) fn fighting(world: &World) -> Vec<UnitId> {
    troops(world)
        .into_iter()
        .filter(|u| movement::enemy_in_contact(world, *u).is_some())
        .collect()
}

/// Every stand's fight among `fighting` as the stands stand now (7.20, 7.22, 7.24), unit
/// by unit, stand by stand: what the Mêlée Phase rolls, in its order, and what the
/// mêlée preview reads. Routing units do not fight back (7.23).
pub(crate) fn bouts(world: &World, fighting: &[UnitId]) -> Vec<Bout> {
    let mut bouts = Vec::new();
    for &u in fighting {
        if posture(world, u) == Some(Posture::Routing) {
            continue;
        }
        for &s in stands(world, u) {
            if let Some((foe, foe_stand)) = opponent(world, u, s) {
                bouts.push(Bout {
                    unit: u,
                    stand: s,
                    foe,
                    foe_stand,
                });
            }
        }
    }
    bouts
}

/// The score a bout's stand needs on its D6 (7.20, before 7.21's limits): the chart's
/// factor and modifiers, and an avenging comitatus's bonus (3.33, 7.34).
pub(crate) fn bout_need(world: &World, b: &Bout) -> i32 {
    let chart = tables(world).charts.melee;
    let me = troop_ref(world, b.unit);
    let them = troop_ref(world, b.foe);
    let f = formation(world, b.unit);
    let board = world.res::<Board>();
    let leader_hex = component::<CmUnit>(world, b.unit)
        .leader
        .and_then(|l| placement(world, l).hex());
    let mut fight = StandFight::new(me, them);
    fight.momentum = matches!(
        posture(world, b.unit),
        Some(Posture::FollowingUp | Posture::Pursuing)
    );
    fight.rear_support = f.formed() && stands(world, b.unit).contains(&f.facing.rear(b.stand));
    fight.advantage_of_ground = board.elevation(b.stand) > board.elevation(b.foe_stand);
    fight.command_stand = leader_hex == Some(b.stand);
    needed(&chart, &fight) + personal::avenge_bonus(world, b.unit)
}

/// The Mêlée Phase, entered after the charges are resolved.
pub fn melee(world: &mut World) {
    let fighting = fighting(world);
    if fighting.is_empty() {
        return;
    }
    log(world, EventKind::PhaseStarted, "C&M 7.18", |_| {
        "Mêlée".to_string()
    });
    cuneus::press_forward(world);
    let bouts = bouts(world, &fighting);
    let t = tables(world);
    let chart = t.charts.melee;
    let n = world.res::<Units>().len();
    let mut received = vec![0u32; n];
    let mut inflicted = vec![0u32; n];
    let mut foes: Vec<Vec<UnitId>> = vec![Vec::new(); n];
    let mut routers_hit: Vec<UnitId> = Vec::new();
    for b in &bouts {
        let need = bout_need(world, b);
        let face = super::super::common::roll(world, "C&M 7.20", |w| {
            format!(
                "{}'s stand in {} against {} (needs {need})",
                plain_name(w, b.unit),
                b.stand,
                b.foe_stand
            )
        });
        for (a, z) in [(b.unit, b.foe), (b.foe, b.unit)] {
            if !foes[a.0 as usize].contains(&z) {
                foes[a.0 as usize].push(z);
            }
        }
        if hits(&chart, need, face) {
            if posture(world, b.foe) == Some(Posture::Routing) {
                routers_hit.push(b.foe);
            } else {
                received[b.foe.0 as usize] += 1;
                inflicted[b.unit.0 as usize] += 1;
            }
        }
    }
    // The results together (7.29): casualties among routers, then losers, then winners.
    for u in routers_hit {
        if is_troop(world, u) {
            remove_stands(world, u, 1, "C&M 7.23");
        }
    }
    let losers: Vec<UnitId> = fighting
        .iter()
        .copied()
        .filter(|u| lost(received[u.0 as usize], inflicted[u.0 as usize]))
        .collect();
    for &u in &fighting {
        log(world, EventKind::CombatResult, "C&M 7.25", |w| {
            format!(
                "{} inflicts {} hits and receives {}{}",
                plain_name(w, u),
                inflicted[u.0 as usize],
                received[u.0 as usize],
                if losers.contains(&u) {
                    ": it loses"
                } else {
                    ""
                }
            )
        });
    }
    let mut beaten: Vec<UnitId> = Vec::new();
    for &u in &losers {
        if !is_troop(world, u) {
            continue;
        }
        let tr = troop(world, u);
        let from = foes[u.0 as usize].clone();
        match loss(&tr, formation(world, u).formed(), morale(world, u).shaken) {
            MeleeLoss::Breaks => {
                log(world, EventKind::CombatResult, "C&M 7.25", |w| {
                    format!("{} breaks", name(w, u))
                });
                after::rout(world, u, &from);
            }
            MeleeLoss::PushedBack => {
                add_dps(world, u, 1, "C&M 7.25");
                if is_troop(world, u)
                    && pushback::push_back(world, u, &from) == 0
                    && is_troop(world, u)
                {
                    // Blocked, friends behind it too (7.27): read as the fall-back's
                    // (7.16: +1 DP).
                    add_dps(world, u, 1, "C&M 7.16");
                }
                log(world, EventKind::Retreated, "C&M 7.25", |w| {
                    format!("{} is pushed back", name(w, u))
                });
            }
            MeleeLoss::ElephantStands => {
                add_dps(world, u, 1, "C&M 7.26");
                rampage::test(world, u);
            }
            MeleeLoss::Captured => {
                log(world, EventKind::Eliminated, "C&M 7.26", |w| {
                    format!("{} is captured", name(w, u))
                });
                set_stands(world, u, Vec::new());
            }
        }
        beaten.push(u);
    }
    // The winners' moves (7.28, 7.30, 7.31), queued in id order.
    for &u in &fighting {
        if losers.contains(&u) || !is_troop(world, u) {
            continue;
        }
        let from = foes[u.0 as usize].clone();
        let beat_all = !from.is_empty() && from.iter().all(|o| beaten.contains(o));
        let tr = troop(world, u);
        let grade = component::<CmUnit>(world, u).grade;
        let moves = if cavalry_must_retire(&tr, false, beat_all) {
            vec![AfterCharge::Retire]
        } else if !beat_all {
            // Pinned (7.31): no follow-up, no pursuit.
            continue;
        } else if from.iter().all(|o| {
            !is_troop(world, *o)
                || matches!(
                    posture(world, *o),
                    Some(Posture::Routing | Posture::Retiring)
                )
        }) {
            let light = from.iter().all(|o| troop_ref(world, *o).light);
            if (tr.category == Category::Infantry && grade != Grade::C) || light {
                vec![AfterCharge::Pursue, AfterCharge::Halt]
            } else {
                vec![AfterCharge::Pursue]
            }
        } else {
            match (tr.category, grade) {
                (Category::Infantry, Grade::A | Grade::B) => {
                    vec![
                        AfterCharge::FollowUp,
                        AfterCharge::Halt,
                        AfterCharge::FallBack,
                    ]
                }
                (Category::Cavalry, Grade::A) => vec![AfterCharge::Halt, AfterCharge::FollowUp],
                (Category::Artillery, _) => vec![AfterCharge::Halt],
                _ => vec![AfterCharge::FollowUp],
            }
        };
        let rule = if moves == [AfterCharge::Retire] {
            "C&M 7.28"
        } else {
            "C&M 7.30"
        };
        let opponents = from.into_iter().filter(|o| is_troop(world, *o)).collect();
        world.resource_mut::<CmState>().after.push_back(AfterMove {
            unit: u,
            moves,
            opponents,
            rule,
            dps_unless_pursuing: 0,
        });
    }
    victory::risk_to_leaders(world, &fighting);
}

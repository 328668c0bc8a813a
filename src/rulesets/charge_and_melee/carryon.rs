//! Failure to contact (C&M 7.8): chargers whose target evaded go on up to their full
//! charge move after it; meeting a new enemy on the way, they charge it — at once unless
//! they are light troops or A grade, who may instead halt 1 JT from it (asked:
//! `carry UNIT on|halt`). The new target answers as any charged unit (7.10): the carried
//! charges are declared anew and go through the responses and a resolution of their
//! own, the chargers rolling no new move die but spending the hexes they had left.

use bevy::prelude::*;

use crate::engine::command::{Refusal, UnitRef};
use crate::engine::event::EventKind;
use crate::engine::units::UnitId;

use super::data::Grade;
use super::movement::{best_step, blocked, translate};
use super::*;

/// A charge carried on into a new opponent (7.8): the charger, the new target and the
/// hexes of its charge move it has left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CarryOn {
    pub charger: UnitId,
    pub target: UnitId,
    pub hexes: u32,
}

/// The charges carried on, waiting for the next round of responses and resolution.
#[derive(Resource, Clone, Debug, Default)]
pub struct CmCarryOn {
    /// Light or A grade chargers halted 1 JT from a new target, to be asked (7.8).
    pub choices: Vec<CarryOn>,
    /// Carried charges to declare in the next round.
    pub ready: Vec<CarryOn>,
    /// The hexes the chargers of the round being resolved have left (no new die).
    pub hexes: Vec<(UnitId, u32)>,
}

fn enemy_touching(world: &World, id: UnitId, list: &[HexCoord]) -> Option<UnitId> {
    let side = side_of(world, id);
    troops(world).into_iter().find(|o| {
        side_of(world, *o) != side
            && stands(world, *o)
                .iter()
                .any(|s| list.iter().any(|h| h.is_adjacent(*s)))
    })
}

/// A charger whose target evaded follows it up to `hexes` (7.8), stopping if it catches
/// it; a new enemy met on the way is charged (or, for light and A grade troops, the
/// charger halts 1 JT from it and is asked). Returns the hexes moved.
pub fn charge_through(world: &mut World, id: UnitId, evader: UnitId, hexes: u32) -> u32 {
    let tr = troop(world, id);
    let may_halt = tr.light || component::<CmUnit>(world, id).grade == Grade::A;
    let prefer = formation(world, id).facing.0 as usize;
    let mut moved = 0;
    while moved < hexes {
        if !is_troop(world, evader) || in_contact(world, id, evader) {
            break;
        }
        let list = stands(world, id).to_vec();
        let of = stands(world, evader).to_vec();
        let dir = best_step(world, id, &list, &of, false, prefer).or_else(|| {
            let ahead = translate(&list, prefer);
            ahead
                .iter()
                .all(|h| blocked(world, id, *h).is_none())
                .then_some(prefer)
        });
        let Some(dir) = dir else {
            break;
        };
        let next = translate(&list, dir);
        let caught = of.iter().any(|s| next.iter().any(|h| h.is_adjacent(*s)));
        let new_foe = enemy_touching(world, id, &next).filter(|o| *o != evader && !caught);
        if let Some(foe) = new_foe {
            let left = hexes - moved;
            if may_halt {
                world.resource_mut::<CmCarryOn>().choices.push(CarryOn {
                    charger: id,
                    target: foe,
                    hexes: left,
                });
                log(world, EventKind::Moved, "C&M 7.8", |w| {
                    format!(
                        "{} halts 1 JT from {}, uncovered by the evaders: it may charge on",
                        name(w, id),
                        plain_name(w, foe)
                    )
                });
            } else {
                shift_stands(world, id, next);
                moved += 1;
                world.resource_mut::<CmCarryOn>().ready.push(CarryOn {
                    charger: id,
                    target: foe,
                    hexes: left - 1,
                });
                log(world, EventKind::Moved, "C&M 7.8", |w| {
                    format!(
                        "{} charges on into {}, uncovered by the evaders",
                        name(w, id),
                        plain_name(w, foe)
                    )
                });
            }
            break;
        }
        shift_stands(world, id, next);
        moved += 1;
    }
    moved
}

/// The hexes a charger of a carried charge has left, instead of a move die (7.8).
pub fn take_hexes(world: &mut World, id: UnitId) -> Option<u32> {
    let mut c = world.resource_mut::<CmCarryOn>();
    let i = c.hexes.iter().position(|(u, _)| *u == id)?;
    Some(c.hexes.remove(i).1)
}

/// After a resolution's moves: asks the light and A grade chargers halted before a new
/// target, then declares the carried charges for a new round of responses and
/// resolution (7.8: "A new target must react according to the normal charge
/// responses"). `true` when it asked or began a round.
pub fn next_round(world: &mut World) -> bool {
    let choices = std::mem::take(&mut world.resource_mut::<CmCarryOn>().choices);
    let choices: Vec<CarryOn> = choices
        .into_iter()
        .filter(|c| is_troop(world, c.charger) && is_troop(world, c.target))
        .collect();
    if !choices.is_empty() {
        world
            .resource_mut::<CmState>()
            .decisions
            .extend(choices.into_iter().map(CmDecision::CarryOn));
        return true;
    }
    let ready = std::mem::take(&mut world.resource_mut::<CmCarryOn>().ready);
    let ready: Vec<CarryOn> = ready
        .into_iter()
        .filter(|c| {
            is_troop(world, c.charger)
                && is_troop(world, c.target)
                && posture(world, c.charger) != Some(Posture::Routing)
        })
        .collect();
    if ready.is_empty() {
        return false;
    }
    {
        let mut s = world.resource_mut::<CmState>();
        s.declared = ready
            .iter()
            .map(|c| Declared {
                charger: c.charger,
                target: c.target,
            })
            .collect();
        s.answers.clear();
    }
    world.resource_mut::<CmCarryOn>().hexes = ready.iter().map(|c| (c.charger, c.hexes)).collect();
    for c in &ready {
        log(world, EventKind::CombatDeclared, "C&M 7.8", |w| {
            format!(
                "{} carries its charge on to {}",
                name(w, c.charger),
                plain_name(w, c.target)
            )
        });
    }
    let first = state(world).initiative;
    begin_phase(world, CmPhase::ChargeResponse, first);
    true
}

/// Checks `carry UNIT on|halt` against the decision waited for.
pub fn check_carry(world: &World, unit: &UnitRef) -> Result<UnitId, Refusal> {
    let id = resolve(world, unit)?;
    match world.resource::<CmState>().decisions.front() {
        Some(CmDecision::CarryOn(c)) if c.charger == id => Ok(id),
        _ => Err(Refusal::new(
            "C&M 7.8",
            format!(
                "no carried charge is asked of {} now",
                plain_name(world, id)
            ),
        )),
    }
}

pub fn execute_carry(world: &mut World, on: bool) {
    let Some(CmDecision::CarryOn(c)) = world.resource_mut::<CmState>().decisions.pop_front() else {
        return;
    };
    if on {
        world.resource_mut::<CmCarryOn>().ready.push(c);
    }
    log(world, EventKind::CombatDeclared, "C&M 7.8", |w| {
        if on {
            format!(
                "{} charges on at {}",
                name(w, c.charger),
                plain_name(w, c.target)
            )
        } else {
            format!("{} halts", name(w, c.charger))
        }
    });
}

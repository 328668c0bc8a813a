//! Morne Plaine's threat map: where a unit could attack in its side's next player turn,
//! by its bombardment from where it stands (MP bombardment), the move its full allowance
//! gives it (MP movement, its zones of control and command), and the attack that may
//! follow on contact (MP combat), with the odds it would have alone. Supports are left
//! out on both sides: the game finds them from where every unit stands when the attack
//! is made, which both sides' moves change first.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use super::bombardment::{Firer, cannot_fire, fire_strength, strength_in, within_fire};
use super::combat::{self, charges_from, corrected, may_attack, may_attack_into};
use super::data::Kind;
use super::movement::{self, Occupancy};
use super::{hex_of, side_of, unit, unit_at};
use crate::engine::board::Board;
use crate::engine::hex::HexCoord;
use crate::engine::threat::UnitThreat;
use crate::engine::units::UnitId;

/// The best attack on one hex: the melee's rank (odds column, die modifier, charge)
/// with its words, and the bombardment's words.
#[derive(Default)]
struct OnHex {
    melee: Option<((usize, i32, bool), String)>,
    bombard: Option<String>,
}

/// Each hex `id` could attack in its side's next player turn, with what it would attack
/// there: the odds of a melee ("5 against 3: 1.5-1, die +1, charging"), the fire
/// strength of a bombardment, or its own strength on an empty hex.
///
/// Its turn as the rules give it: artillery bombards from where it stands, in range and
/// line of fire, and may not then move (MP bombardment); every unit has its movement
/// allowance as its movement phase will set it (in or out of command, sodden ground in
/// that turn: `movement::allowance`), spent by `movement::reach_with` against the
/// enemy's zones of control and units as they stand now; then it attacks a unit on
/// contact with where it stands, after a move or without one (MP combat), charging
/// where `combat::charges_from` says it does over the hexes its cheapest path enters.
/// A demoralised unit threatens nothing: it neither attacks nor fires (MP combat:
/// demoralisation).
pub fn threats(world: &World, id: UnitId) -> Vec<UnitThreat> {
    let Some(start) = hex_of(world, id) else {
        return Vec::new();
    };
    if may_attack(world, id).is_err() {
        return Vec::new();
    }
    let side = side_of(world, id);
    let sodden = super::sodden_in(world, crate::rulesets::common::next_turn_of(world, side));
    let values = unit(world, id);
    let board = world.res::<Board>();
    let mut hexes: Vec<(HexCoord, OnHex)> = Vec::new();
    let enemy_at = |h: HexCoord| unit_at(world, h).filter(|u| side_of(world, *u) != side);
    let own_at = |h: HexCoord| unit_at(world, h).is_some_and(|u| side_of(world, u) == side);

    if values.kind == Kind::Artillery && cannot_fire(world, id).is_none() {
        for target in start.within(values.range as u32) {
            if target == start || own_at(target) || within_fire(world, id, start, target).is_err() {
                continue;
            }
            let strength = match enemy_at(target) {
                Some(t) => strength_in(world, &[id], t, sodden),
                // No target, no cover to take off (MP bombardment, designer's).
                None => fire_strength(
                    &[Firer {
                        bv: values.bv,
                        distance: start.distance(target),
                    }],
                    0,
                    sodden,
                ),
            };
            on(&mut hexes, target).bombard = Some(format!("fire strength {strength}"));
        }
    }

    let ma = movement::allowance(&values, movement::in_command(world, id), sodden);
    let map = movement::reach_with(world, id, ma as u32, &Occupancy::of(world));
    let from = std::iter::once((start, 0)).chain(
        map.ends
            .iter()
            .map(|&(h, _)| (h, map.path_to(h).len() as u32)),
    );
    for (at, entered) in from {
        for target in at.neighbors() {
            if own_at(target) || may_attack_into(board, at, target).is_err() {
                continue;
            }
            let charge = charges_from(world, id, at, entered, target);
            let (rank, text) = match enemy_at(target) {
                Some(d) => {
                    let plan = combat::plan_alone(world, id, at, d, charge);
                    let mut text = combat::odds_text(world, &plan);
                    let die = plan.die_modifier();
                    if die != 0 {
                        text.push_str(&format!(", die {die:+}"));
                    }
                    ((plan.column, die, plan.charge), text)
                }
                None => {
                    let cs = corrected(world, id, target, charge).cs;
                    ((cs as usize, 0, charge), format!("attack {cs}"))
                }
            };
            let text = if rank.2 {
                format!("{text}, charging")
            } else {
                text
            };
            let melee = &mut on(&mut hexes, target).melee;
            if melee.as_ref().is_none_or(|(r, _)| rank > *r) {
                *melee = Some((rank, text));
            }
        }
    }
    hexes
        .into_iter()
        .map(|(hex, o)| {
            let best = [o.bombard, o.melee.map(|(_, t)| t)]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("; ");
            UnitThreat { hex, best }
        })
        .collect()
}

/// The entry of `hex` in the list, made empty the first time.
fn on(hexes: &mut Vec<(HexCoord, OnHex)>, hex: HexCoord) -> &mut OnHex {
    let i = match hexes.iter().position(|(h, _)| *h == hex) {
        Some(i) => i,
        None => {
            hexes.push((hex, OnHex::default()));
            hexes.len() - 1
        }
    };
    &mut hexes[i].1
}

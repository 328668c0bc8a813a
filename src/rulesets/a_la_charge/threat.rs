//! A la Charge's threat map: where a unit could attack in its side's next phase, by
//! the move its full allowance gives it (AlC 7, 9, 11) and the melee and fire checks
//! of an attack (AlC 12.1, 12.2), with the odds it would have alone (AlC 12.3, 10).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use super::combat::{self, may_fight_from, may_fire_from};
use super::data::Kind;
use super::movement::{self, Occupancy};
use super::{combat_unit_at, flags, is_hidden, is_leader, rating, side_of, unit};
use crate::engine::board::Board;
use crate::engine::hex::HexCoord;
use crate::engine::threat::UnitThreat;
use crate::engine::units::{Placement, UnitId};
use crate::rulesets::common::{next_turn_of, placement};

/// Each hex `id` could attack next phase, with the best odds it would have alone
/// against the unit there now, or its own strength on an empty hex. A knight that
/// reaches its attacking hex through open ground is counted as charging (AlC 10).
pub fn threats(world: &World, id: UnitId) -> Vec<UnitThreat> {
    let Placement::OnMap(start) = placement(world, id) else {
        return Vec::new();
    };
    if is_leader(world, id) || !acts_next_phase(world, id) {
        return Vec::new();
    }
    let side = side_of(world, id);
    let values = unit(world, id);
    let map = movement::reach_with(world, id, values.mp, &Occupancy::of(world, side));
    let board = world.res::<Board>();
    let tables = world.resource::<super::AlcTables>();
    let open = |h: HexCoord| {
        board
            .terrain(h)
            .is_some_and(|t| tables.0.terrain.terrain[t.0 as usize].open)
    };
    // Each hex it may attack from, and whether a knight charges from it.
    let mut from: Vec<(HexCoord, bool)> = vec![(start, false)];
    from.extend(map.ends.iter().map(|&(h, _)| {
        let charging = values.kind == Kind::Knights && map.path_to(h).into_iter().any(open);
        (h, charging)
    }));
    // Each hex attacked, with its best (column, text).
    let mut best: Vec<(HexCoord, usize, String)> = Vec::new();
    let mut note = |target: HexCoord, column: usize, text: String| match best
        .iter_mut()
        .find(|b| b.0 == target)
    {
        Some(b) if b.1 >= column => {}
        Some(b) => *b = (target, column, text),
        None => best.push((target, column, text)),
    };
    for &(h, charging) in &from {
        let reach = if values.kind.is_archery() {
            values.range
        } else {
            1
        };
        for target in h.within(reach) {
            if target == h || !board.contains(target) {
                continue;
            }
            let defender = combat_unit_at(world, target);
            if defender.is_some_and(|d| side_of(world, d) == side) {
                continue;
            }
            let melee = may_fight_from(world, id, h, target).is_ok();
            let fire = !melee && may_fire_from(world, id, h, target).is_ok();
            if !melee && !fire {
                continue;
            }
            let Some(d) = defender.filter(|d| !is_hidden(world, *d)) else {
                let charge = melee && charging;
                let strength = rating(world, id) + if charge { combat::CHARGE_BONUS } else { 0 };
                let text = match (fire, charge) {
                    (true, _) => format!("fire {strength}"),
                    (false, true) => format!("attack {strength}, charging"),
                    (false, false) => format!("attack {strength}"),
                };
                note(target, strength as usize, text);
                continue;
            };
            let (melee_side, fire_side): (&[UnitId], &[UnitId]) =
                if melee { (&[id], &[]) } else { (&[], &[id]) };
            let hexes = [h];
            let plan = combat::plan(
                world,
                (melee_side, if melee { &hexes } else { &[] }),
                (fire_side, if fire { &hexes } else { &[] }),
                (d, target),
                |_| melee && charging,
            );
            if let Ok(plan) = plan {
                let mut text = combat::odds_text(world, &plan);
                if !plan.chargers.is_empty() {
                    text.push_str(" (charging)");
                }
                note(target, plan.column, text);
            }
        }
    }
    best.into_iter()
        .map(|(hex, _, best)| UnitThreat { hex, best })
        .collect()
}

/// Whether the unit may act in its side's next movement phase (Kalavryai special
/// rule 1 holds some back until a turn).
fn acts_next_phase(world: &World, id: UnitId) -> bool {
    flags(world, id).active_from_turn <= next_turn_of(world, side_of(world, id))
}

//! Morne Plaine's victory (MP victory): the side holding more victory points in
//! objective hexes at the end of the last turn wins, at the level its lead reaches.

use crate::engine::scenario::VictoryLevel;

use super::data::VictoryFile;

/// The level of a lead of `difference` VP: `None` for none (a draw) or below the first
/// level, else the highest level reached (MP victory).
pub fn level_for(victory: &VictoryFile, difference: u32) -> Option<VictoryLevel> {
    victory
        .levels
        .iter()
        .rev()
        .find(|s| difference >= s.difference)
        .map(|s| s.level)
}

// ---- objectives and the end of the game ----

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::game::{Outcome, TurnState};
use crate::engine::phase::set_phase;
use crate::engine::units::SideId;

use super::{MpPhase, MpState, log, side_name, side_of, turn, unit_at};

/// An objective belongs to the side that last occupied it (MP victory): checked after
/// every command, and forts likewise (MP combat: retreat).
pub fn update_control(world: &mut World) {
    let held: Vec<Option<SideId>> = world
        .resource::<MpState>()
        .objectives
        .iter()
        .map(|o| unit_at(world, o.hex).map(|u| side_of(world, u)))
        .collect();
    let forts: Vec<Option<SideId>> = world
        .resource::<MpState>()
        .forts
        .iter()
        .map(|(h, _)| unit_at(world, *h).map(|u| side_of(world, u)))
        .collect();
    let mut taken = Vec::new();
    {
        let mut state = world.resource_mut::<MpState>();
        for (o, now) in state.objectives.iter_mut().zip(held) {
            if let Some(s) = now
                && o.holder != Some(s)
            {
                o.holder = Some(s);
                taken.push((o.name.clone(), o.hex, s));
            }
        }
        for (f, now) in state.forts.iter_mut().zip(forts) {
            if now.is_some() {
                f.1 = now;
            }
        }
    }
    for (name, hex, side) in taken {
        log(world, EventKind::Special, "MP victory", |w| {
            format!("{} takes {name} ({hex})", side_name(w, side))
        });
    }
}

/// The VP of the objectives a side holds.
pub fn vp(world: &World, side: SideId) -> u32 {
    world
        .resource::<MpState>()
        .objectives
        .iter()
        .filter(|o| o.holder == Some(side))
        .map(|o| o.vp)
        .sum()
}

/// The outcome if the game ended now.
pub fn standing(world: &World) -> Outcome {
    let tables = super::tables(world);
    let (a, b) = (vp(world, SideId(0)), vp(world, SideId(1)));
    let (leader, diff) = if a >= b {
        (SideId(0), a - b)
    } else {
        (SideId(1), b - a)
    };
    let score = format!(
        "VP {} {a} – {} {b}",
        side_name(world, SideId(0)),
        side_name(world, SideId(1))
    );
    match level_for(&tables.victory, diff) {
        Some(level) if diff > 0 => Outcome {
            winner: Some(leader),
            level: Some(level),
            reason: format!(
                "{score}: a {} victory for {}",
                level.name(),
                side_name(world, leader)
            ),
        },
        _ => Outcome {
            winner: None,
            level: None,
            reason: format!("{score}: a draw"),
        },
    }
}

/// The victory phase, after both player turns: the score so far, and after the last
/// turn the end of the game (MP victory).
pub fn tally(world: &mut World) {
    let t = turn(world).clone();
    let now = standing(world);
    let text = format!("Turn {} ends: {}", t.turn, now.reason);
    log(world, EventKind::Victory, "MP victory", |_| text);
    if t.turn >= t.last_turn {
        let reason = format!("The last turn is over. {}", now.reason);
        set_phase(world, MpPhase::GameOver);
        world.resource_mut::<TurnState>().outcome = Some(Outcome {
            reason: reason.clone(),
            ..now
        });
        log(world, EventKind::GameOver, "MP victory", |_| reason);
    }
}

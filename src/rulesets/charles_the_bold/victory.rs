//! Charles the Bold's break points as pure functions (CtB 14.0): whether an army has
//! lost the fraction of its break points that breaks it, and who breaks first when a
//! single command breaks both (R-break). Counting the losses in the game comes with
//! the plugin.

use crate::engine::cached::CachedWorld;
use std::cmp::Ordering;

/// Whether an army that has lost `lost` of its `total` break points is broken at its
/// scenario's `fraction` (lost, of): lost / total >= lost_part / of (CtB 14.0).
pub fn broken(lost: u32, total: u32, fraction: (u32, u32)) -> bool {
    let (part, of) = fraction;
    // lost / total >= part / of, in integers.
    u64::from(lost) * u64::from(of) >= u64::from(part) * u64::from(total)
}

/// The break points lost when an army breaks: the least `lost` with `broken`.
pub fn break_at(total: u32, fraction: (u32, u32)) -> u32 {
    let (part, of) = fraction;
    (u64::from(part) * u64::from(total)).div_ceil(u64::from(of.max(1))) as u32
}

/// Who loses when the same command breaks both armies (R-break): the side that has
/// lost the larger share of its break points; `None` for an exact tie (a draw).
/// `lost` and `total` are per side.
pub fn first_broken(lost: [u32; 2], total: [u32; 2]) -> Option<usize> {
    // lost[0] / total[0] against lost[1] / total[1], in integers.
    let a = u64::from(lost[0]) * u64::from(total[1]);
    let b = u64::from(lost[1]) * u64::from(total[0]);
    match a.cmp(&b) {
        Ordering::Greater => Some(0),
        Ordering::Less => Some(1),
        Ordering::Equal => None,
    }
}

// ---- in the game ----

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::game::{Outcome, ScenarioInfo, TurnState};
use crate::engine::phase::set_phase;
use crate::engine::scenario::VictoryLevel;
use crate::engine::units::SideId;

use super::{CtbPhase, CtbState, log, side_name};

fn finish(world: &mut World, outcome: Outcome) {
    let reason = outcome.reason.clone();
    world.resource_mut::<TurnState>().outcome = Some(outcome);
    log(world, EventKind::GameOver, "CtB 14.0", |_| reason);
    set_phase(world, CtbPhase::GameOver);
}

/// After every command (R-break): an army that has lost its scenario's fraction of
/// its break points is broken and loses, a major victory for the other (CtB 14.0);
/// both at once, the larger lost share breaks first, an exact tie a draw.
pub fn check_break(world: &mut World) {
    if world.res::<TurnState>().outcome.is_some() {
        return;
    }
    let s = world.resource::<CtbState>();
    let (lost, total, fraction) = (s.bp_lost, s.bp_total, s.break_fraction);
    let broken_now = [0, 1].map(|i| broken(lost[i], total[i], fraction[i]));
    if !broken_now.iter().any(|b| *b) {
        return;
    }
    let loser = match broken_now {
        [true, true] => first_broken(lost, total),
        [true, false] => Some(0),
        _ => Some(1),
    };
    let outcome = match loser {
        Some(l) => {
            let l = SideId(l as u8);
            let w = l.other();
            Outcome {
                winner: Some(w),
                level: Some(VictoryLevel::Major),
                reason: format!(
                    "{} are broken ({} of {} break points lost): {} win (CtB 14.0)",
                    side_name(world, l),
                    lost[l.0 as usize],
                    total[l.0 as usize],
                    side_name(world, w)
                ),
            }
        }
        None => Outcome {
            winner: None,
            level: None,
            reason: "Both armies break at once with equal shares lost: a draw (R-break)".into(),
        },
    };
    finish(world, outcome);
}

/// The last round is over with neither army broken: the scenario's time limit decides
/// (CtB 14.0, the scenario's `at_time_limit`, required when it is read).
pub fn time_limit(world: &mut World) {
    let info = world.resource::<ScenarioInfo>().0.clone();
    let outcome = match &info.file.at_time_limit {
        Some(tl) => Outcome {
            winner: info.side_index(&tl.winner).map(SideId),
            level: Some(tl.level),
            reason: format!(
                "The last round is over with neither army broken: {} win ({:?}, the scenario's time limit)",
                info.file
                    .sides
                    .iter()
                    .find(|s| s.id == tl.winner)
                    .map_or(tl.winner.as_str(), |s| s.name.as_str()),
                tl.level
            ),
        },
        None => Outcome {
            winner: None,
            level: None,
            reason: "The last round is over: a draw".into(),
        },
    };
    finish(world, outcome);
}

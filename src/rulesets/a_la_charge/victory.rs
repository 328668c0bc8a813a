//! Victory (AlC 13): each side's lost morale (the ratings of its eliminated units, +4
//! for a lost commander) against its army morale level in phase 5; the scenario's
//! winner at the time limit.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::game::{Outcome, ScenarioInfo, TurnState};
use crate::engine::phase::set_phase;

use super::AlcPhase;
use crate::engine::scenario::VictoryLevel;
use crate::engine::units::{Placement, SideId, UnitId, Units};

use super::*;

/// The morale a side has lost (AlC 13): the full-side ratings of its eliminated units
/// (designer's reading of "the morale ratings of the units that side has lost"), plus 4
/// if its commander has been eliminated.
pub fn lost_morale(world: &World, side: SideId) -> i32 {
    let state = world.resource::<AlcState>();
    let mut total = 0;
    let ids: Vec<UnitId> = world.res::<Units>().ids().collect();
    for id in ids {
        if placement(world, id) != Placement::Eliminated {
            continue;
        }
        if is_leader(world, id) {
            if state.commanders[side.0 as usize] == Some(id) {
                total += 4;
            }
        } else if side_of(world, id) == side {
            total += unit(world, id).ratings[0];
        }
    }
    total
}

fn finish(world: &mut World, outcome: Outcome) {
    let text = outcome.reason.clone();
    set_phase(world, AlcPhase::GameOver);
    world.resource_mut::<TurnState>().outcome = Some(outcome);
    log(world, EventKind::GameOver, "AlC 13", |_| text);
}

/// Phase 5: ends the game when a side's lost morale exceeds its level. Returns
/// whether the game is over.
pub fn check_victory(world: &mut World) -> bool {
    let levels = world.resource::<AlcState>().morale_levels;
    let lost = [lost_morale(world, SideId(0)), lost_morale(world, SideId(1))];
    let turn_no = turn(world).turn;
    for s in 0..2 {
        let who = side_name(world, SideId(s as u8));
        log(world, EventKind::Victory, "AlC 13", |_| {
            format!(
                "Turn {turn_no} victory check: {who} has lost {} morale of its level {}",
                lost[s], levels[s]
            )
        });
    }
    let over = [lost[0] > levels[0], lost[1] > levels[1]];
    let outcome = match over {
        [false, false] => return false,
        [true, false] | [false, true] => {
            let loser = SideId(if over[0] { 0 } else { 1 });
            let winner = loser.other();
            Outcome {
                winner: Some(winner),
                level: Some(VictoryLevel::Major),
                reason: format!(
                    "{} wins a major victory: {} lost {} morale, more than its level {}",
                    side_name(world, winner),
                    side_name(world, loser),
                    lost[loser.0 as usize],
                    levels[loser.0 as usize]
                ),
            }
        }
        [true, true] => {
            let excess = [lost[0] - levels[0], lost[1] - levels[1]];
            if excess[0] == excess[1] {
                Outcome {
                    winner: None,
                    level: None,
                    reason: format!(
                        "Both armies broke in the same turn by the same margin ({}): a draw (designer's choice where AlC 13 is silent)",
                        excess[0]
                    ),
                }
            } else {
                let winner = SideId(if excess[0] < excess[1] { 0 } else { 1 });
                Outcome {
                    winner: Some(winner),
                    level: Some(VictoryLevel::Minor),
                    reason: format!(
                        "Both armies broke this turn; {} exceeded its level by less ({} against {}) and wins a minor victory",
                        side_name(world, winner),
                        excess[winner.0 as usize],
                        excess[winner.other().0 as usize]
                    ),
                }
            }
        }
    };
    finish(world, outcome);
    true
}

/// The end of the last turn with no victory: the scenario says who wins (AlC 13).
pub fn time_limit(world: &mut World) {
    let scenario = world.resource::<ScenarioInfo>().0.clone();
    // Every AlC scenario has one (checked when it is read).
    let Some(rule) = &scenario.file.at_time_limit else {
        let outcome = Outcome {
            winner: None,
            level: None,
            reason:
                "The last turn ends with no army broken and no time-limit victory: a draw (AlC 13)"
                    .into(),
        };
        finish(world, outcome);
        return;
    };
    let winner = SideId(scenario.side_index(&rule.winner).unwrap_or(0));
    let level = rule.level;
    let outcome = Outcome {
        winner: Some(winner),
        level: Some(level),
        reason: format!(
            "The last turn ends with no army broken: {} wins a {} victory (scenario rules)",
            side_name(world, winner),
            level.name()
        ),
    };
    finish(world, outcome);
}

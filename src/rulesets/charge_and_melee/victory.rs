//! The turn's bookends and the end of the game (spec B.2 §5, §6, §8, §13, §14): the
//! initiative roll, the rally at the end of a turn (routers beyond bow range test to
//! halt, units at rest shed a DP), the risk to leaders whose command stand fought,
//! a leader's death and the control tests it calls (the scenario's
//! `ControlTestsOnDeath`), and victory: an army that breaks, a leader killed, ground
//! held at the end, else the scenario's result at the time limit.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::game::{Outcome, ScenarioInfo, TurnState};
use crate::engine::phase::set_phase;
use crate::engine::scenario::VictoryLevel;
use crate::engine::units::{SideId, UnitId};

use super::scenario::CmSpecialRule;
use super::*;

fn side_index(world: &World, id: &str) -> Option<SideId> {
    world
        .resource::<ScenarioInfo>()
        .0
        .side_index(id)
        .map(SideId)
}

/// The initiative (spec B.2 §13): each side rolls a D6 plus its commander's CPs; the
/// higher moves and declares first; a tie leaves it where it was.
pub fn initiative(world: &mut World) {
    let mut score = [0i32; 2];
    for (k, s) in score.iter_mut().enumerate() {
        let side = SideId(k as u8);
        let die = super::super::common::roll(world, "spec B.2 §13", |w| {
            format!("{}'s initiative", side_name(w, side))
        });
        let cps: u8 = leaders(world)
            .into_iter()
            .filter(|l| side_of(world, *l) == side)
            .map(|l| *component::<CmLeader>(world, l))
            .filter(|l| l.commander)
            .map(|l| l.cps)
            .sum();
        *s = i32::from(die) + i32::from(cps);
    }
    let before = state(world).initiative;
    let winner = match score[0].cmp(&score[1]) {
        std::cmp::Ordering::Greater => SideId(0),
        std::cmp::Ordering::Less => SideId(1),
        std::cmp::Ordering::Equal => before,
    };
    world.resource_mut::<CmState>().initiative = winner;
    world.resource_mut::<TurnState>().active = winner;
    log(world, EventKind::PhaseStarted, "spec B.2 §13", |w| {
        format!(
            "Initiative {} against {}: {} moves first",
            score[0],
            score[1],
            side_name(w, winner)
        )
    });
}

/// A control test (spec B.2 §6): the grade's die + MV − DPs (shaken 5).
fn control_score(world: &mut World, id: UnitId, rule: &'static str) -> i32 {
    let u = *component::<CmUnit>(world, id);
    let die = roll_grade(world, u.grade, rule, |w| {
        format!("{}'s control test", plain_name(w, id))
    });
    let m = morale(world, id);
    let dps = if m.shaken {
        tables(world).charts.evade.shaken_dps
    } else {
        m.dps
    };
    i32::from(die) + i32::from(u.mv) - i32::from(dps)
}

/// The end of a turn (spec B.2 §5, §13; 7.16): routers beyond bow range test to halt
/// (4 or more), the others flee on; units at rest out of contact shed a DP; then
/// victory.
pub fn rally(world: &mut World) {
    let reach = u32::from(tables(world).charts.charge_move.mounted_reach);
    for id in troops(world) {
        if !is_troop(world, id) {
            continue;
        }
        let side = side_of(world, id);
        let enemies: Vec<UnitId> = troops(world)
            .into_iter()
            .filter(|o| side_of(world, *o) != side)
            .collect();
        if posture(world, id) == Some(Posture::Routing) {
            let safe = enemies.iter().all(|o| gap_between(world, id, *o) > reach);
            if safe && control_score(world, id, "C&M 7.16") >= 4 {
                set_posture(world, id, Some(Posture::Halted));
                log(world, EventKind::MoraleCheck, "C&M 7.16", |w| {
                    format!("{} halts its flight", name(w, id))
                });
            } else if !safe {
                after::rout(world, id, &enemies);
            } else {
                set_posture(world, id, Some(Posture::Routing));
            }
            continue;
        }
        let m = morale(world, id);
        let still = !status(world, id).moved && movement::enemy_in_contact(world, id).is_none();
        if still && m.dps > 0 && posture(world, id) != Some(Posture::Retiring) {
            // 1 DP a turn, +1 per CP spent on it (spec B.2 §5; `command` in charts.ron).
            let k = &tables(world).charts.command;
            let cps = command::cps_on(world, id);
            let shed = (k.rest_dps + k.rest_per_cp * cps).min(m.dps);
            component_mut::<CmMorale>(world, id).dps -= shed;
            log(world, EventKind::MoraleCheck, "spec B.2 §5", |w| {
                if shed == 1 {
                    format!("{} rests and sheds a DP", name(w, id))
                } else {
                    format!("{} rests and sheds {shed} DPs", name(w, id))
                }
            });
        }
    }
    check(world);
    let t = turn(world).clone();
    if t.outcome.is_none() && t.turn >= t.last_turn {
        let outcome = at_time_limit(world);
        end(world, outcome);
    }
}

/// The risk to leaders whose command stand fought (spec B.2 §8): a D6, 1 a hit; then a
/// D6, 1-3 killed, 4-6 wounded (−1 CP for the rest of the game).
pub fn risk_to_leaders(world: &mut World, fought: &[UnitId]) {
    for l in leaders(world) {
        let with = component::<CmLeader>(world, l).with;
        if !fought.contains(&with) {
            continue;
        }
        let hit = super::super::common::roll(world, "spec B.2 §8", |w| {
            format!("the risk to {}", plain_name(w, l))
        });
        if hit != 1 {
            continue;
        }
        let how = super::super::common::roll(world, "spec B.2 §8", |w| {
            format!("{}'s wound", plain_name(w, l))
        });
        if how <= 3 {
            leader_dies(world, l, "spec B.2 §8");
        } else {
            let mut c = component_mut::<CmLeader>(world, l);
            c.cps = c.cps.saturating_sub(1);
            log(world, EventKind::CombatResult, "spec B.2 §8", |w| {
                format!("{} is wounded (−1 CP)", name(w, l))
            });
        }
    }
}

/// A leader dies: he leaves the map; the scenario's `ControlTestsOnDeath` units test at
/// once (spec B.2 §6: 1 or less breaks — the flight —, 2-3 halts, 4+ obeys); a
/// commander-in-chief's death tests every unit of his side for the army break (spec
/// B.2 §14, `army_break_test`), those units' tests counting for it.
pub fn leader_dies(world: &mut World, l: UnitId, rule: &'static str) {
    if placement(world, l).hex().is_none() {
        return;
    }
    let commander = component::<CmLeader>(world, l).commander;
    let side = side_of(world, l);
    set_placement(world, l, Placement::Eliminated);
    let with = component::<CmLeader>(world, l).with;
    component_mut::<CmUnit>(world, with).leader = None;
    world.resource_mut::<CmState>().dead.push(l);
    log(world, EventKind::Eliminated, rule, |w| {
        format!("{} is killed", name(w, l))
    });
    let key = world
        .get_cached::<crate::engine::units::UnitName>(entity(world, l))
        .map(|n| n.key.clone())
        .unwrap_or_default();
    let tests: Vec<UnitId> = state(world)
        .special
        .iter()
        .filter_map(|r| match r {
            CmSpecialRule::ControlTestsOnDeath { leader, units, .. } if *leader == key => {
                Some(units.clone())
            }
            _ => None,
        })
        .flatten()
        .filter_map(|k| unit_by_key(world, &k))
        .collect();
    let mut scores: Vec<(UnitId, i32)> = Vec::new();
    for id in tests {
        if !is_troop(world, id) {
            continue;
        }
        let score = control_score(world, id, "C&M 3.14");
        scores.push((id, score));
        let side = side_of(world, id);
        if score <= 1 {
            let enemies: Vec<UnitId> = troops(world)
                .into_iter()
                .filter(|o| side_of(world, *o) != side)
                .collect();
            log(world, EventKind::MoraleCheck, "C&M 3.14", |w| {
                format!("{} flees at the news", name(w, id))
            });
            after::rout(world, id, &enemies);
        } else if score <= 3 {
            set_posture(world, id, Some(Posture::Halted));
            log(world, EventKind::MoraleCheck, "C&M 3.14", |w| {
                format!("{} halts", name(w, id))
            });
        }
    }
    if commander {
        army_break_test(world, side, scores);
    }
}

/// The army break at a commander-in-chief's death (spec B.2 §14: "at once when its
/// commander-in-chief dies and more than half its units fail a control test"): every
/// unit of his side on the map takes a control test (spec B.2 §6, the grade's die + MV
/// − DPs, shaken 5), the scenario's `ControlTestsOnDeath` units counting the test they
/// took (`done`); a unit fails below the chart's `obey_from` (4: it does not obey). The
/// test is the break's alone: a unit that fails is not halted by it.
fn army_break_test(world: &mut World, side: SideId, mut done: Vec<(UnitId, i32)>) {
    for u in troops(world) {
        if side_of(world, u) == side && !done.iter().any(|(d, _)| *d == u) {
            let score = control_score(world, u, "spec B.2 §14");
            done.push((u, score));
        }
    }
    let obey = command::chart(world).obey_from;
    let failed: Vec<UnitId> = done
        .iter()
        .filter(|(_, s)| *s < obey)
        .map(|(u, _)| *u)
        .collect();
    let breaks = 2 * failed.len() > done.len();
    if breaks {
        let mut s = world.resource_mut::<CmState>();
        if !s.broken_at_death.contains(&side) {
            s.broken_at_death.push(side);
        }
    }
    log(world, EventKind::MoraleCheck, "spec B.2 §14", |w| {
        let names: Vec<String> = failed.iter().map(|u| plain_name(w, *u)).collect();
        format!(
            "{}'s commander-in-chief is dead: {} of its {} units fail their control test (below {obey}){}{}",
            side_name(w, side),
            failed.len(),
            done.len(),
            if names.is_empty() {
                String::new()
            } else {
                format!(" ({})", names.join(", "))
            },
            if breaks {
                ": more than half, the army breaks"
            } else {
                ": the army holds"
            }
        )
    });
}

/// A side's stands lost (spec B.2 §14): eliminated, captured, or in routing units.
pub fn stands_lost(world: &World, side: SideId) -> u32 {
    // `troops` of the side and their `posture`, each unit found once and the turn read
    // once (the victory conditions ask it after every command).
    let now = turn(world).turn;
    let units = world.res::<Units>();
    let standing: u32 = units
        .ids()
        .filter(|&u| units.side(u) == side && units.placement(u).hex().is_some())
        .filter_map(|u| {
            let e = world.entity(units.entity(u));
            e.get::<CmUnit>()?;
            let s = e.get::<CmStatus>().expect("units of stands have a status");
            let routing = s.posture == Some(Posture::Routing) && s.since + 1 >= now;
            let list = &e.get::<CmStands>().expect("units of stands have stands").0;
            (!routing).then_some(list.len() as u32)
        })
        .sum();
    state(world).stands_at_start[side.0 as usize].saturating_sub(standing)
}

/// Whether a side's army has broken (spec B.2 §14): half its stands lost, or more than
/// half its units failed their control test at its commander-in-chief's death.
pub fn army_broken(world: &World, side: SideId) -> bool {
    let start = state(world).stands_at_start[side.0 as usize];
    state(world).broken_at_death.contains(&side)
        || (start > 0 && 2 * stands_lost(world, side) >= start)
}

/// The victory conditions that end a game at once: an army breaking, a leader killed.
pub fn check(world: &mut World) {
    if turn(world).outcome.is_some() {
        return;
    }
    // The first condition met, read without a copy of the rules; then the game ends.
    let found = state(world).special.iter().find_map(|r| match r {
        CmSpecialRule::ArmyBreaks { side, level, .. } => side_index(world, side)
            .filter(|s| army_broken(world, *s))
            .map(|s| (s.other(), *level, format!("{} breaks", side_name(world, s)))),
        CmSpecialRule::LeaderKilled { leader, level, .. } => unit_by_key(world, leader)
            .filter(|l| state(world).dead.contains(l))
            .map(|l| {
                (
                    side_of(world, l).other(),
                    *level,
                    format!("{} is killed", plain_name(world, l)),
                )
            }),
        _ => None,
    });
    if let Some((winner, level, why)) = found {
        let reason = format!(
            "{why}: a {} victory for {}",
            level.name(),
            side_name(world, winner)
        );
        end(
            world,
            Outcome {
                winner: Some(winner),
                level: Some(level),
                reason,
            },
        );
    }
}

/// The result at the last turn's end: ground held (`HoldAtEnd`), else the scenario's
/// `at_time_limit`.
fn at_time_limit(world: &World) -> Outcome {
    for r in &state(world).special {
        if let CmSpecialRule::HoldAtEnd {
            side, hexes, level, ..
        } = r
            && let Some(s) = side_index(world, side)
        {
            let mine = hexes.iter().any(|h| {
                stand_at(world, *h)
                    .is_some_and(|u| side_of(world, u) == s && formation(world, u).formed())
            });
            let theirs = hexes
                .iter()
                .any(|h| stand_at(world, *h).is_some_and(|u| side_of(world, u) != s));
            if mine && !theirs {
                return Outcome {
                    winner: Some(s),
                    level: Some(*level),
                    reason: format!(
                        "the last turn is over and {} holds the ground: a {} victory",
                        side_name(world, s),
                        level.name()
                    ),
                };
            }
        }
    }
    let file = &world.resource::<ScenarioInfo>().0.file;
    let (winner, level) = file
        .at_time_limit
        .as_ref()
        .map(|tl| (side_index(world, &tl.winner), tl.level))
        .unwrap_or((None, VictoryLevel::Minor));
    Outcome {
        winner,
        level: winner.map(|_| level),
        reason: match winner {
            Some(w) => format!(
                "the last turn is over: a {} victory for {}",
                level.name(),
                side_name(world, w)
            ),
            None => "the last turn is over: a draw".to_string(),
        },
    }
}

fn end(world: &mut World, outcome: Outcome) {
    let reason = outcome.reason.clone();
    {
        let mut s = world.resource_mut::<CmState>();
        s.decisions.clear();
        s.after.clear();
    }
    set_phase(world, CmPhase::GameOver);
    world.resource_mut::<TurnState>().outcome = Some(outcome);
    log(world, EventKind::GameOver, "spec B.2 §14", |_| reason);
}

//! Seeking out a leader (C&M 7.33, 7.34; spec B.2 §9), before the mêlée is fought: two
//! opposing leaders whose command stands are within 1 JT of each other in a mêlée, or
//! whose comitati fight each other, may meet in personal combat. The leader of a B grade
//! comitatus must seek the other out; the leader of an A grade comitatus is asked
//! (`seek LEADER yes|no`): if he will not, his comitatus locks shields around him and
//! there is no combat. Designer's readings: a C grade comitatus's leader is asked as an
//! A grade one's; a leader with no comitatus seeks no one but, having no comitatus to
//! shield him, cannot refuse one who seeks him. They fight if one seeks and no one
//! refuses: each a D6 +
//! his CPs, ties rolled again; the lower dies (his command stand stays), the winner
//! gains 1 CP and +1 MV for every unit under his command (7.34). The dead leader's
//! comitatus avenges him (3.33, spec B.2 §9): +1 to hit in this mêlée, and it may not
//! break off (no fall-back or retirement by choice, 7.17) after it.

use bevy::prelude::*;

use crate::engine::command::{Refusal, UnitRef};
use crate::engine::event::EventKind;
use crate::engine::units::{Leader, UnitId};

use super::command::{CmCommandState, chart, commander_of, resolve_leader};
use super::data::Grade;
use super::results::AfterCharge;
use super::*;

/// How a leader meets a personal combat (7.33).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stance {
    /// The leader of a B grade comitatus must seek the other out.
    Must,
    /// The leader of another comitatus may, or have his men lock shields around him.
    May,
    /// A leader with no comitatus seeks no one, and cannot refuse (designer's).
    Passive,
}

pub fn stance(world: &World, leader: UnitId) -> Stance {
    let u = component::<CmUnit>(world, component::<CmLeader>(world, leader).with);
    match (u.comitatus, u.grade) {
        (true, Grade::B) => Stance::Must,
        (true, _) => Stance::May,
        (false, _) => Stance::Passive,
    }
}

fn in_melee(world: &World, leader: UnitId) -> bool {
    let with = component::<CmLeader>(world, leader).with;
    is_troop(world, with) && movement::enemy_in_contact(world, with).is_some()
}

/// The pairs of opposing leaders who may seek each other out (7.33), in id order, each
/// leader in one pair at most.
pub fn pairs(world: &World) -> Vec<(UnitId, UnitId)> {
    let within = u32::from(chart(world).personal_within);
    let all: Vec<UnitId> = leaders(world)
        .into_iter()
        .filter(|l| in_melee(world, *l))
        .collect();
    let mut out: Vec<(UnitId, UnitId)> = Vec::new();
    for (i, &a) in all.iter().enumerate() {
        for &b in &all[i + 1..] {
            if side_of(world, a) == side_of(world, b)
                || out
                    .iter()
                    .any(|(x, y)| [*x, *y].contains(&a) || [*x, *y].contains(&b))
            {
                continue;
            }
            let (ha, hb) = (placement(world, a).hex(), placement(world, b).hex());
            let near = matches!((ha, hb), (Some(x), Some(y)) if moves::gap(x, y) <= within);
            let (ua, ub) = (
                component::<CmLeader>(world, a).with,
                component::<CmLeader>(world, b).with,
            );
            let comitati = component::<CmUnit>(world, ua).comitatus
                && component::<CmUnit>(world, ub).comitatus
                && in_contact(world, ua, ub);
            let someone = [a, b]
                .into_iter()
                .any(|l| stance(world, l) != Stance::Passive);
            if (near || comitati) && someone {
                out.push((a, b));
            }
        }
    }
    out
}

/// Entering the personal combats (7.33): the pairs, and the question put to each
/// leader who may choose.
pub fn ask(world: &mut World) {
    let duels = pairs(world);
    {
        let mut c = world.resource_mut::<CmCommandState>();
        c.duels = duels.clone();
        c.seek.clear();
    }
    for &(a, b) in &duels {
        log(world, EventKind::CombatDeclared, "C&M 7.33", |w| {
            format!("{} and {} may seek each other out", name(w, a), name(w, b))
        });
        for (l, foe) in [(a, b), (b, a)] {
            if stance(world, l) == Stance::May {
                world
                    .resource_mut::<CmState>()
                    .decisions
                    .extend([CmDecision::Seek { leader: l, foe }]);
            }
        }
    }
}

fn answer(world: &World, l: UnitId) -> Option<bool> {
    world
        .resource::<CmCommandState>()
        .seek
        .iter()
        .find(|(x, _)| *x == l)
        .map(|(_, yes)| *yes)
}

fn seeks(world: &World, l: UnitId) -> bool {
    match stance(world, l) {
        Stance::Must => true,
        Stance::May => answer(world, l) == Some(true),
        Stance::Passive => false,
    }
}

fn refuses(world: &World, l: UnitId) -> bool {
    stance(world, l) == Stance::May && answer(world, l) != Some(true)
}

/// The personal combats, once every answer is in (7.33, 7.34).
pub fn fight(world: &mut World) {
    let duels = std::mem::take(&mut world.resource_mut::<CmCommandState>().duels);
    for (a, b) in duels {
        if !leaders(world).contains(&a) || !leaders(world).contains(&b) {
            continue;
        }
        if !(seeks(world, a) || seeks(world, b)) {
            continue;
        }
        if refuses(world, a) || refuses(world, b) {
            let shy = if refuses(world, a) { a } else { b };
            log(world, EventKind::CombatResult, "C&M 7.33", |w| {
                format!(
                    "{} does not seek the other out: his men lock shields around him, no personal combat",
                    name(w, shy)
                )
            });
            continue;
        }
        let (winner, loser) = duel(world, a, b);
        let k = chart(world);
        {
            let e = entity(world, winner);
            let mut l = world.get_mut::<CmLeader>(e).expect("a leader");
            l.cps += k.winner_cps;
            let cps = l.cps;
            if let Some(mut r) = world.get_mut::<Leader>(e) {
                r.rating = i32::from(cps);
            }
        }
        let side = side_of(world, winner);
        let own = component::<CmLeader>(world, winner).with;
        let units: Vec<UnitId> = troops(world)
            .into_iter()
            .filter(|u| {
                side_of(world, *u) == side && (*u == own || commander_of(world, *u) == Some(winner))
            })
            .collect();
        for &u in &units {
            component_mut::<CmUnit>(world, u).mv += k.winner_mv;
        }
        log(world, EventKind::CombatResult, "C&M 7.34", |w| {
            format!(
                "{} wins: {:+} CP, {:+} MV to {} unit{} under his command",
                name(w, winner),
                k.winner_cps,
                k.winner_mv,
                units.len(),
                if units.len() == 1 { "" } else { "s" }
            )
        });
        let with = component::<CmLeader>(world, loser).with;
        victory::leader_dies(world, loser, "C&M 7.34");
        if is_troop(world, with) && component::<CmUnit>(world, with).comitatus {
            world.resource_mut::<CmCommandState>().avenging.push(with);
            log(world, EventKind::CombatResult, "C&M 7.34", |w| {
                format!("{} fights to avenge its leader (3.33)", name(w, with))
            });
        }
    }
}

/// Each a D6 + his CPs, ties rolled again (spec B.2 §9): (winner, loser).
fn duel(world: &mut World, a: UnitId, b: UnitId) -> (UnitId, UnitId) {
    loop {
        let mut score = [0i32; 2];
        for (k, l) in [a, b].into_iter().enumerate() {
            let die = super::super::common::roll(world, "C&M 7.33", |w| {
                format!("{}'s personal combat", plain_name(w, l))
            });
            score[k] = i32::from(die) + i32::from(component::<CmLeader>(world, l).cps);
        }
        log(world, EventKind::CombatResult, "C&M 7.33", |w| {
            format!(
                "{} {} against {} {}",
                plain_name(w, a),
                score[0],
                plain_name(w, b),
                score[1]
            )
        });
        match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => return (a, b),
            std::cmp::Ordering::Less => return (b, a),
            std::cmp::Ordering::Equal => {}
        }
    }
}

/// An avenging comitatus's bonus to the score it needs to hit (3.33).
pub fn avenge_bonus(world: &World, unit: UnitId) -> i32 {
    if world.resource::<CmCommandState>().avenging.contains(&unit) {
        i32::from(chart(world).avenge_to_hit)
    } else {
        0
    }
}

/// An avenging comitatus may not break off (3.33; 7.17): no fall-back or retirement by
/// choice while it has another move.
pub fn no_breaking_off(world: &World, m: &mut AfterMove) {
    if avenge_bonus(world, m.unit) == 0 {
        return;
    }
    let keep: Vec<AfterCharge> = m
        .moves
        .iter()
        .copied()
        .filter(|a| !matches!(a, AfterCharge::FallBack | AfterCharge::Retire))
        .collect();
    if !keep.is_empty() {
        m.moves = keep;
    }
}

/// The end of the mêlée: the avengers have fought their next mêlée, the one that follows
/// the personal combat at once (7.34).
pub fn end_of_melee(world: &mut World) {
    world.resource_mut::<CmCommandState>().avenging.clear();
}

/// Checks `seek LEADER yes|no` against the decision waited for.
pub fn check_seek(world: &World, leader: &UnitRef) -> Result<UnitId, Refusal> {
    let l = resolve_leader(world, leader)?;
    match world.resource::<CmState>().decisions.front() {
        Some(CmDecision::Seek { leader: x, .. }) if *x == l => Ok(l),
        _ => Err(Refusal::new(
            "C&M 7.33",
            format!("no personal combat is put to {} now", plain_name(world, l)),
        )),
    }
}

pub fn execute_seek(world: &mut World, yes: bool) {
    let Some(CmDecision::Seek { leader, .. }) =
        world.resource_mut::<CmState>().decisions.pop_front()
    else {
        return;
    };
    world
        .resource_mut::<CmCommandState>()
        .seek
        .push((leader, yes));
    log(world, EventKind::CombatDeclared, "C&M 7.33", |w| {
        format!(
            "{} {}",
            name(w, leader),
            if yes {
                "seeks out the enemy leader"
            } else {
                "does not seek out the enemy leader"
            }
        )
    });
}

//! Battle lines charging as one body (C&M 7.1): "any number of units in a battle line,
//! who are being controlled by the same leader, may be combined to form a single body
//! for the charge. If, however, the leader did not spend any CPs to control his troops,
//! the units must charge individually." A battle line here is the units of one side
//! that stand side by side — each with a stand touching a stand of the next —, formed
//! and facing the same way, each answering to the same leader and within his command
//! radius, on each of which he spent CPs this turn (`spend LEADER UNIT N`). A charge
//! declared by one of them is declared by the line: each other unit charges the enemy
//! straight ahead of it, else the line's target, else the nearest enemy it may charge
//! (every charge checked as any declaration is); in the resolution the units of the
//! line in contact and all the enemies they struck fight one charge combat (7.15: a die
//! a unit, all factors totalled, divided by the number of units, rounded up), every
//! unit with stands in it sharing the outcome. Without the CPs units charge one by one.

use bevy::prelude::*;

use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::units::UnitId;

use super::command::{CmCommandState, commander_of, compelled, controlled_by, halted, in_command};
use super::*;

/// The battle line `unit` stands in as one body (7.1), itself first and the others in id
/// order; `unit` alone when no leader spent CPs to control it and a friend beside it.
pub fn body_of(world: &World, unit: UnitId) -> Vec<UnitId> {
    let Some(leader) = commander_of(world, unit) else {
        return vec![unit];
    };
    let facing = formation(world, unit).facing;
    let member = |u: UnitId| {
        is_troop(world, u)
            && commander_of(world, u) == Some(leader)
            && in_command(world, u)
            && controlled_by(world, u, leader)
            && formation(world, u).formed()
            && formation(world, u).facing == facing
    };
    if !member(unit) {
        return vec![unit];
    }
    let candidates: Vec<UnitId> = troops(world)
        .into_iter()
        .filter(|u| *u != unit && member(*u))
        .collect();
    let mut body = vec![unit];
    let mut k = 0;
    while k < body.len() {
        let at = body[k];
        for &u in &candidates {
            if !body.contains(&u) && in_contact(world, at, u) {
                body.push(u);
            }
        }
        k += 1;
    }
    body[1..].sort();
    body
}

/// The unit whose declaration made `unit` charge with its battle line, if it did.
pub fn declared_with(world: &World, unit: UnitId) -> Option<UnitId> {
    world
        .resource::<CmCommandState>()
        .bodies
        .iter()
        .find(|b| b[1..].contains(&unit))
        .map(|b| b[0])
}

/// The refusal of a unit's own charge when its battle line declared one for it (7.1).
pub fn check_not_in_body(world: &World, unit: UnitId) -> Result<(), Refusal> {
    match declared_with(world, unit) {
        Some(first) => Err(Refusal::new(
            "C&M 7.1",
            format!(
                "{} charges with its battle line as one body (declared by {})",
                plain_name(world, unit),
                plain_name(world, first)
            ),
        )),
        None => Ok(()),
    }
}

/// The enemies straight ahead of `unit`'s stands, nearest first (7.7: chargers move
/// straight ahead), within its charge reach.
fn straight_ahead(world: &World, unit: UnitId) -> Vec<UnitId> {
    let side = side_of(world, unit);
    let f = formation(world, unit);
    let reach = u32::from(tables(world).charts.charge_move.mounted_reach) + 1;
    let mut out = Vec::new();
    for step in 1..=reach {
        for s in stands(world, unit) {
            let mut at = *s;
            for _ in 0..step {
                at = f.facing.front(at);
            }
            if let Some(u) = stand_at(world, at)
                && side_of(world, u) != side
                && !out.contains(&u)
            {
                out.push(u);
            }
        }
    }
    out
}

/// What a unit of a battle line does when the line's charge is declared (7.1).
#[derive(Clone, Debug)]
pub(crate) enum Joining {
    /// It declared a charge of its own already.
    HasDeclared,
    /// Its control test rules it (halted or compelled): it does not charge.
    Ruled,
    /// It charges with the line.
    Charges(Declared),
    /// It has no enemy it may charge; why it may not charge the line's target.
    Stays(Option<String>),
}

/// A battle line's declarations (7.1), worked out without making them.
pub(crate) struct LinePlan {
    pub leader: UnitId,
    /// The line, the declaring unit first (`body_of`).
    pub body: Vec<UnitId>,
    /// What each other unit of the line does, in the body's order.
    pub joins: Vec<(UnitId, Joining)>,
}

impl LinePlan {
    /// The line's charges, the declaring unit's `d` first, in the order declared.
    pub fn charges(&self, d: Declared) -> Vec<Declared> {
        let mut out = vec![d];
        out.extend(self.joins.iter().filter_map(|(_, j)| match j {
            Joining::Charges(x) => Some(*x),
            _ => None,
        }));
        out
    }
}

/// The declarations `d` makes of its charger's controlled battle line (7.1), `declared`
/// being the charges declared so far, `d` among them: each other unit charges the enemy
/// straight ahead of it, else the line's target, else the nearest enemy it may charge,
/// each checked as its declaration would be after the ones before it. `None` when the
/// charger stands in no line, or charges with one already.
pub(crate) fn line_plan(world: &World, d: Declared, declared: &[Declared]) -> Option<LinePlan> {
    if declared_with(world, d.charger).is_some() {
        return None;
    }
    let body = body_of(world, d.charger);
    if body.len() < 2 {
        return None;
    }
    let leader = commander_of(world, d.charger).expect("a body has a leader");
    let mut declared = declared.to_vec();
    let mut joins = Vec::new();
    for &m in &body[1..] {
        if declared.iter().any(|x| x.charger == m) {
            joins.push((m, Joining::HasDeclared));
            continue;
        }
        if halted(world, m) || compelled(world, m) {
            joins.push((m, Joining::Ruled));
            continue;
        }
        let mut candidates = straight_ahead(world, m);
        candidates.push(d.target);
        let side = side_of(world, m);
        let mut others: Vec<UnitId> = troops(world)
            .into_iter()
            .filter(|o| side_of(world, *o) != side && !candidates.contains(o))
            .collect();
        others.sort_by_key(|o| (gap_between(world, m, *o), *o));
        candidates.extend(others);
        let key = super::super::common::key(world, m);
        let mut why = None;
        let found = candidates.into_iter().find_map(|t| {
            let tk = super::super::common::key(world, t);
            match charges::check_charge_among(world, &key, &tk, &declared) {
                Ok(x) => Some(x),
                Err(r) => {
                    if t == d.target {
                        why = Some(r.reason);
                    }
                    None
                }
            }
        });
        match found {
            Some(x) => {
                declared.push(x);
                joins.push((m, Joining::Charges(x)));
            }
            None => joins.push((m, Joining::Stays(why))),
        }
    }
    Some(LinePlan {
        leader,
        body,
        joins,
    })
}

/// After `d` was declared: when its charger stands in a controlled battle line (7.1),
/// the line's other units declare their charges with it, as one body (`line_plan`).
pub fn declare_line(world: &mut World, d: Declared) {
    let declared = state(world).declared.clone();
    let Some(plan) = line_plan(world, d, &declared) else {
        return;
    };
    let (body, leader) = (&plan.body, plan.leader);
    log(world, EventKind::CombatDeclared, "C&M 7.1", |w| {
        let names: Vec<String> = body.iter().map(|u| plain_name(w, *u)).collect();
        format!(
            "{} charge as one body: a battle line controlled by {}",
            names.join(", "),
            plain_name(w, leader)
        )
    });
    let mut joined = vec![d.charger];
    for (m, join) in plan.joins {
        match join {
            Joining::HasDeclared => {}
            Joining::Ruled => log(world, EventKind::CombatDeclared, "C&M 7.1", |w| {
                format!(
                    "{} does not charge with its line: its control test rules it",
                    name(w, m)
                )
            }),
            Joining::Charges(x) => {
                world.resource_mut::<CmState>().declared.push(x);
                joined.push(m);
                log(world, EventKind::CombatDeclared, "C&M 7.1", |w| {
                    format!(
                        "{} declares a charge on {} with its battle line",
                        name(w, x.charger),
                        name(w, x.target)
                    )
                });
            }
            Joining::Stays(why) => log(world, EventKind::CombatDeclared, "C&M 7.1", |w| {
                format!(
                    "{} has no enemy it may charge and stays{}",
                    name(w, m),
                    why.map(|r| format!(" ({r})")).unwrap_or_default()
                )
            }),
        }
    }
    if joined.len() > 1 {
        world.resource_mut::<CmCommandState>().bodies.push(joined);
    }
}

/// One charge combat of the resolution (7.15).
pub(crate) struct Combat {
    pub targets: Vec<UnitId>,
    /// The chargers in contact with them.
    pub attackers: Vec<UnitId>,
    /// Whether each target charged itself (a counter-charge or a charge of its own).
    pub charged: Vec<bool>,
    /// The battle line its chargers charged with as one body, if any.
    body: Option<usize>,
}

/// The charge combats of the resolution, each `(target, attackers in contact, whether
/// the target charged)`, with those of a battle line's units merged into one: the line
/// and every enemy its units struck fight together (7.1, 7.15).
pub(crate) fn merge(world: &World, combats: Vec<(UnitId, Vec<UnitId>, bool)>) -> Vec<Combat> {
    merge_bodies(&world.resource::<CmCommandState>().bodies, combats)
}

/// `merge` with the battle lines that charged as one body, `bodies`, given: the charge
/// preview's line, its declarations not yet made.
pub(crate) fn merge_bodies(
    bodies: &[Vec<UnitId>],
    combats: Vec<(UnitId, Vec<UnitId>, bool)>,
) -> Vec<Combat> {
    let body = |u: &UnitId| bodies.iter().position(|b| b.contains(u));
    let mut out: Vec<Combat> = Vec::new();
    for (target, attackers, charged) in combats {
        let key = attackers.iter().find_map(body);
        match out
            .iter_mut()
            .find(|g| key.is_some() && g.body == key && !g.targets.contains(&target))
        {
            Some(g) => {
                g.targets.push(target);
                g.charged.push(charged);
                for a in attackers {
                    if !g.attackers.contains(&a) {
                        g.attackers.push(a);
                    }
                }
            }
            None => out.push(Combat {
                targets: vec![target],
                attackers,
                charged: vec![charged],
                body: key,
            }),
        }
    }
    out
}

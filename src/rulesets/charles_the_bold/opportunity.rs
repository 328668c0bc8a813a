//! Opportunity in the enemy's activation (CtB 5.0, 6.2.1): which stands on opportunity
//! a move or a fire triggers, their answers (a charge straight at the trigger,
//! opportunity fire, or nothing) offered to their owner as a decision, and the stopped
//! move going on once they are answered.

use bevy::prelude::*;

use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{SideId, UnitId};
use crate::engine::view::Choice;

use super::commands::{CtbCommand, Step};
use super::decision::{Pending, choice};
use super::moving::{MovePlan, check_go_as};
use super::shooting::{FirePlan, check_fire_as, in_close_combat};
use super::{
    CtbState, acts, acts_mut, facing, hex_of, key, log, plain_name, side_of, stand, stands_of,
    state, status,
};

/// A move stopped by opportunity reactions: its remaining steps and final facing, made
/// once every reaction is answered and nobody charged it (CtB 5.0).
#[derive(Clone, Debug)]
pub struct Suspended {
    pub mover: UnitId,
    pub at: HexCoord,
    pub steps: Vec<Step>,
    pub facing: Option<VertexFacing>,
    /// It had entered a hex before it stopped: a contact later is still a charge.
    pub moved: bool,
    /// A group's Order Test for this move is passed already (CtB 3.8, R-3.8).
    pub tested: bool,
}

/// Whether a stand is on opportunity and free to answer (CtB 5.0): on the map,
/// undisordered, in no melee.
fn watching(world: &World, id: UnitId) -> bool {
    let s = status(world, id);
    s.opportunity && !s.disordered && hex_of(world, id).is_some() && !in_close_combat(world, id)
}

/// Whether any stand of the side opposed to `side` is on opportunity: only then does a
/// move look for reactions at each hex.
pub fn anyone_watching(world: &World, side: SideId) -> bool {
    let look = super::Lookup::new(world);
    stands_of(world, side.other())
        .into_iter()
        .any(|o| look.status(o).opportunity)
}

/// The charge a stand on opportunity makes at `target` (CtB 5.0): straight ahead,
/// forward steps only ("cannot involve any turns or sideways movement"), within its
/// first move and under every rule of movement, ending with `target` in its front;
/// the shortest, ties to the lowest hexes.
pub fn straight_charge(world: &World, id: UnitId, target: UnitId) -> Option<MovePlan> {
    let me = stand(world, id)?;
    let (at, goal) = (hex_of(world, id)?, hex_of(world, target)?);
    let mp = me.entry.mp_of_move(1);
    if at.distance(goal) > u32::from(mp) + 1 || at.distance(goal) < 2 {
        return None;
    }
    let face = facing(world, id);
    let mut frontier: Vec<Vec<HexCoord>> = vec![Vec::new()];
    for _ in 0..mp {
        let mut next = Vec::new();
        for path in &frontier {
            let pos = path.last().copied().unwrap_or(at);
            let mut fronts = face.front(pos).to_vec();
            fronts.sort();
            for h in fronts {
                let mut longer = path.clone();
                longer.push(h);
                let steps: Vec<Step> = longer.iter().map(|h| Step::Hex(*h)).collect();
                if let Ok(plan) = check_go_as(world, id, &steps, None, Some(target)) {
                    if plan.contact.contains(&target) {
                        return Some(plan);
                    }
                    if plan.contact.is_empty() {
                        next.push(longer);
                    }
                }
            }
        }
        frontier = next;
    }
    None
}

/// Opportunity fire at `target` (CtB 5.0): every rule of fire, in the enemy's
/// activation.
pub fn fire_plan(world: &World, id: UnitId, target: UnitId) -> Result<FirePlan, Refusal> {
    check_fire_as(world, id, target, false, true)
}

/// Whether `id` may charge `target` now: no other stand on opportunity has charged it
/// (CtB 5.0: "only one stand on opportunity can charge or counter-charge a single enemy
/// stand").
fn may_charge(world: &World, id: UnitId, target: UnitId) -> Option<MovePlan> {
    if acts(world, target).opportunity_charged {
        return None;
    }
    straight_charge(world, id, target)
}

/// The stands on opportunity that `mover`, in the hex it has just entered from `prev`,
/// triggers (CtB 5.0): it came closer to them ("moving towards them or moving sideways
/// in a way that brings them closer"), and each could charge it straight or fire at it;
/// before its first step (`prev` none), the stands its move will contact that could
/// counter-charge it where it stands. Each is asked once a move.
pub fn triggered(
    world: &World,
    mover: UnitId,
    prev: Option<HexCoord>,
    contact: &[UnitId],
) -> Vec<UnitId> {
    let Some(at) = hex_of(world, mover) else {
        return Vec::new();
    };
    let asked = &acts(world, mover).asked;
    stands_of(world, side_of(world, mover).other())
        .into_iter()
        .filter(|o| !asked.contains(o) && watching(world, *o))
        .filter(|o| {
            let oh = hex_of(world, *o).expect("watching stands are on the map");
            match prev {
                Some(p) => {
                    at.distance(oh) < p.distance(oh)
                        && (may_charge(world, *o, mover).is_some()
                            || fire_plan(world, *o, mover).is_ok())
                }
                None => contact.contains(o) && may_charge(world, *o, mover).is_some(),
            }
        })
        .collect()
}

/// Stops a move where the reactions it triggered are asked (CtB 5.0): each stand on
/// opportunity gets its decision; the rest of the move waits for their answers.
pub fn stop_move(world: &mut World, suspended: Suspended, stands: Vec<UnitId>) {
    let mover = suspended.mover;
    let at = suspended.at;
    acts_mut(world, mover).asked.extend(stands.iter().copied());
    log(world, EventKind::Special, "CtB 5.0", |w| {
        let names: Vec<String> = stands.iter().map(|o| plain_name(w, *o)).collect();
        format!(
            "{}'s move stops at {at}: {} on opportunity may answer it",
            plain_name(w, mover),
            names.join(", ")
        )
    });
    let mut s = world.resource_mut::<CtbState>();
    for o in stands.into_iter().rev() {
        s.pending.push_front(Pending::Opportunity {
            stand: o,
            trigger: mover,
            fired: false,
        });
    }
    s.suspended = Some(suspended);
}

/// After `shooter` fired on `target`: a target on opportunity fired on from its front
/// 2H (the wide arc through its two front hexes, as 9.2's "front 2H arc": R-arcs) may
/// fire back or counter-charge (CtB 5.0).
pub fn fired_on(world: &mut World, shooter: UnitId, target: UnitId) {
    if !watching(world, target) {
        return;
    }
    let (Some(th), Some(sh)) = (hex_of(world, target), hex_of(world, shooter)) else {
        return;
    };
    if !super::geometry::in_fire_arc(th, facing(world, target), sh) {
        return;
    }
    if may_charge(world, target, shooter).is_none() && fire_plan(world, target, shooter).is_err() {
        return;
    }
    log(world, EventKind::Special, "CtB 5.0", |w| {
        format!(
            "{} was fired on from its front: on opportunity, it may answer {}",
            plain_name(w, target),
            plain_name(w, shooter)
        )
    });
    world
        .resource_mut::<CtbState>()
        .pending
        .push_front(Pending::Opportunity {
            stand: target,
            trigger: shooter,
            fired: true,
        });
}

/// The answers a stand on opportunity has to `trigger` (CtB 5.0).
pub fn choices(world: &World, id: UnitId, trigger: UnitId) -> Vec<Choice> {
    let mut out = Vec::new();
    let at = hex_of(world, trigger);
    let charge = may_charge(world, id, trigger).is_some();
    if charge {
        out.push(choice(
            "charge".into(),
            CtbCommand::ReactCharge {
                unit: key(world, id),
            }
            .command(),
            at,
        ));
    }
    if fire_plan(world, id, trigger).is_ok() {
        out.push(choice(
            "fire".into(),
            CtbCommand::React {
                fire: Some((key(world, id), key(world, trigger))),
            }
            .command(),
            if charge { None } else { at },
        ));
    }
    out.push(choice(
        "let it be".into(),
        CtbCommand::React { fire: None }.command(),
        None,
    ));
    out
}

/// An answer to an opportunity decision, checked.
#[derive(Clone, Debug)]
pub enum Answer {
    Charge(MovePlan),
    Fire(FirePlan),
    Pass,
}

/// Checks an answer of `id` on opportunity to `trigger` (CtB 5.0).
pub fn check_answer(
    world: &World,
    id: UnitId,
    trigger: UnitId,
    command: &CtbCommand,
) -> Result<Answer, Refusal> {
    let name = super::Named(world, id);
    let refuse = |why: String| Err(Refusal::new("CtB 5.0", why));
    match command {
        CtbCommand::React { fire: None } => Ok(Answer::Pass),
        CtbCommand::React { fire: Some((u, t)) } => {
            if super::resolve(world, u)? != id || super::resolve(world, t)? != trigger {
                return refuse(format!(
                    "the stand on opportunity is {name}, and it may fire at {}",
                    plain_name(world, trigger)
                ));
            }
            fire_plan(world, id, trigger).map(Answer::Fire)
        }
        CtbCommand::ReactCharge { unit } => {
            if super::resolve(world, unit)? != id {
                return refuse(format!("the stand on opportunity is {name}"));
            }
            if acts(world, trigger).opportunity_charged {
                return refuse(format!(
                    "only one stand on opportunity may charge {}",
                    plain_name(world, trigger)
                ));
            }
            match straight_charge(world, id, trigger) {
                Some(plan) => Ok(Answer::Charge(plan)),
                None => refuse(format!(
                    "{name} cannot reach {} straight ahead, without turning or stepping sideways",
                    plain_name(world, trigger)
                )),
            }
        }
        _ => refuse(format!(
            "{name} on opportunity: `react charge`, `react fire` or `react none`"
        )),
    }
}

/// Carries out an answer (CtB 5.0): a charge ends the trigger's move (it is in
/// contact); fire and letting it be keep the stand's answer to itself.
pub fn answer(world: &mut World, id: UnitId, trigger: UnitId, answer: Answer) {
    match answer {
        Answer::Charge(plan) => {
            acts_mut(world, trigger).opportunity_charged = true;
            super::status_mut(world, id).opportunity = false;
            log(world, EventKind::Special, "CtB 5.0", |w| {
                format!(
                    "{} charges {} on opportunity: it may not evade, nor fire defensively",
                    plain_name(w, id),
                    plain_name(w, trigger)
                )
            });
            {
                let mut s = world.resource_mut::<CtbState>();
                if s.suspended.as_ref().is_some_and(|x| x.mover == trigger) {
                    s.suspended = None;
                }
            }
            acts_mut(world, trigger).resume = None;
            super::moving::execute_go(world, plan);
        }
        Answer::Fire(plan) => {
            log(world, EventKind::Special, "CtB 5.0", |w| {
                format!(
                    "{} fires on opportunity at {}",
                    plain_name(w, id),
                    plain_name(w, trigger)
                )
            });
            super::shooting::execute_fire(world, plan);
        }
        Answer::Pass => log(world, EventKind::Special, "CtB 5.0", |w| {
            format!(
                "{} lets {} be, and stays on opportunity",
                plain_name(w, id),
                plain_name(w, trigger)
            )
        }),
    }
}

/// Once no opportunity decision waits, the stopped move goes on with its remaining
/// steps (CtB 5.0), then the moves of its group move still queued (CtB 3.8); a move
/// whose steps are no longer legal stays where it is (a stopped one with the rest of
/// its MP for a `go`).
pub fn go_on(world: &mut World) {
    let mut carried = false;
    loop {
        let waiting = state(world)
            .pending
            .iter()
            .any(|p| matches!(p, Pending::Opportunity { .. }))
            // Skirmishers it pushes through answer first (CtB 10.6).
            || super::pushing::awaited(world, state(world).suspended.as_ref().map(|s| s.mover));
        if waiting {
            return;
        }
        let next = {
            let mut s = world.resource_mut::<CtbState>();
            match s.suspended.take() {
                Some(x) => Some(x),
                None if !s.queued.is_empty() => Some(s.queued.remove(0)),
                None => None,
            }
        };
        let Some(sus) = next else {
            // A group's reactions before its melees (CtB 3.8); a single move's are so
            // already.
            if carried {
                super::group::reactions_first(world);
            }
            return;
        };
        carried = true;
        carry_on(world, sus);
    }
}

/// Makes one stopped or queued move (see `go_on`).
fn carry_on(world: &mut World, sus: Suspended) {
    let mover = sus.mover;
    let stopped = !sus.tested;
    if hex_of(world, mover) != Some(sus.at)
        || in_close_combat(world, mover)
        || (stopped && acts(world, mover).resume.is_none())
    {
        return;
    }
    if sus.steps.is_empty() && sus.facing.is_none() {
        acts_mut(world, mover).resume = None;
        return;
    }
    match super::moving::check_go(world, mover, &sus.steps, sus.facing) {
        Ok(mut plan) => {
            plan.carried_on = sus.moved;
            if sus.tested {
                plan.extra = false;
            }
            super::moving::execute_go(world, plan);
        }
        Err(r) => {
            let left = acts(world, mover).resume;
            log(world, EventKind::Special, "CtB 5.0", |w| {
                format!(
                    "{} stays at {}: the rest of its move is refused ({}: {}){}",
                    plain_name(w, mover),
                    sus.at,
                    r.rule,
                    r.reason,
                    left.map_or(String::new(), |l| format!(
                        "; it has {l} MP left for a `go`"
                    ))
                )
            });
        }
    }
}

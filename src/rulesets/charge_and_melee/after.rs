//! The moves after a charge (C&M 7.16, 7.17) or a mêlée (7.29-7.31), made in the order
//! queued (losers first): a compelled move is made at once, a choice is asked of the
//! unit's player (`after UNIT MOVE`). Halt, follow-up, fall-back (1 hex, still facing;
//! blocked: +1 DP), retire (a fast move back, unformed; blocked: +1 DP), break (a fast
//! move back, unformed, routing; blocked with an enemy within 1 JT: surrenders),
//! pursue (a fast move after its opponents, unformed), capture. Fast moves roll the
//! move die of 7.6 (spec B.2 §4).

use bevy::prelude::*;

use crate::engine::command::{Refusal, UnitRef};
use crate::engine::event::EventKind;
use crate::engine::game::TurnState;
use crate::engine::units::UnitId;

use super::commands::after_word;
use super::results::AfterCharge;
use super::*;

/// Makes the queued moves until one needs a player's choice (asked: `true`) or none is
/// left (`false`).
pub fn walk(world: &mut World) -> bool {
    loop {
        let Some(mut m) = world.resource_mut::<CmState>().after.pop_front() else {
            return false;
        };
        // An avenging comitatus may not break off (3.33).
        personal::no_breaking_off(world, &mut m);
        if !is_troop(world, m.unit) {
            continue;
        }
        if m.moves.len() == 1 {
            apply(world, &m, m.moves[0]);
            continue;
        }
        world
            .resource_mut::<CmState>()
            .decisions
            .extend([CmDecision::After(m)]);
        return true;
    }
}

/// Gives the turn to the side whose decision is waited for.
pub fn show_decider(world: &mut World) {
    let side = match world.resource::<CmState>().decisions.front() {
        Some(CmDecision::Respond { unit, .. }) => side_of(world, *unit),
        Some(CmDecision::After(m)) => side_of(world, m.unit),
        Some(CmDecision::CarryOn(c)) => side_of(world, c.charger),
        Some(CmDecision::Seek { leader, .. }) => side_of(world, *leader),
        None => return,
    };
    world.resource_mut::<TurnState>().active = side;
}

/// A fast move's hexes (7.6, spec B.2 §4), its die logged.
fn fast(world: &mut World, id: UnitId, what: &'static str) -> u32 {
    let die = super::super::common::roll(world, "C&M 7.6", |w| {
        format!("{}'s {what} move", plain_name(w, id))
    });
    let t = tables(world);
    u32::from(moves::fast_move(
        &t.charts.charge_move,
        troop_ref(world, id).category,
        die,
    ))
}

/// Makes one move after a charge or mêlée.
pub fn apply(world: &mut World, m: &AfterMove, choice: AfterCharge) {
    let id = m.unit;
    let rule = m.rule;
    let word = after_word(choice);
    log(world, EventKind::Moved, rule, |w| {
        format!("{}: {word}", name(w, id))
    });
    match choice {
        AfterCharge::Halt => set_posture(world, id, Some(Posture::Halted)),
        AfterCharge::FollowUp => {
            movement::close_in(world, id, &m.opponents, 1);
            set_posture(world, id, Some(Posture::FollowingUp));
        }
        AfterCharge::FallBack => {
            if movement::flee(world, id, &m.opponents, 1) == 0 {
                add_dps(world, id, 1, "C&M 7.16");
            }
            set_posture(world, id, Some(Posture::Halted));
        }
        AfterCharge::Retire => {
            let hexes = fast(world, id, "retire");
            component_mut::<CmFormation>(world, id).id = FormationId::Unformed;
            if movement::flee(world, id, &m.opponents, hexes) == 0 {
                add_dps(world, id, 1, "C&M 7.16");
            }
            set_posture(world, id, Some(Posture::Retiring));
        }
        AfterCharge::Break => rout(world, id, &m.opponents),
        AfterCharge::Pursue => {
            let hexes = fast(world, id, "pursuit");
            component_mut::<CmFormation>(world, id).id = FormationId::Unformed;
            let chased: Vec<UnitId> = m
                .opponents
                .iter()
                .copied()
                .filter(|o| is_troop(world, *o))
                .collect();
            movement::close_in(world, id, &chased, hexes);
            set_posture(world, id, Some(Posture::Pursuing));
        }
        AfterCharge::Captured => {
            log(world, EventKind::Eliminated, rule, |w| {
                format!("{} is captured", name(w, id))
            });
            set_stands(world, id, Vec::new());
        }
    }
    if m.dps_unless_pursuing > 0 && choice != AfterCharge::Pursue && is_troop(world, id) {
        add_dps(world, id, m.dps_unless_pursuing, "C&M 7.15 results");
    }
}

/// A unit breaks (7.16): unformed, routing, a fast move away; blocked with an enemy
/// within 1 JT, it surrenders.
pub(crate) fn rout(world: &mut World, id: UnitId, from: &[UnitId]) {
    let hexes = fast(world, id, "rout");
    component_mut::<CmFormation>(world, id).id = FormationId::Unformed;
    set_posture(world, id, Some(Posture::Routing));
    let moved = movement::flee(world, id, from, hexes);
    let side = side_of(world, id);
    let near = troops(world)
        .into_iter()
        .any(|o| side_of(world, o) != side && gap_between(world, id, o) <= 1);
    if moved == 0 && near {
        log(world, EventKind::Eliminated, "C&M 7.16", |w| {
            format!("{} cannot flee and surrenders", name(w, id))
        });
        set_stands(world, id, Vec::new());
    }
}

/// Checks `after UNIT MOVE` against the decision waited for.
pub fn check_after(world: &World, unit: &UnitRef, choice: AfterCharge) -> Result<UnitId, Refusal> {
    let id = resolve(world, unit)?;
    match world.resource::<CmState>().decisions.front() {
        Some(CmDecision::After(m)) if m.unit == id => {
            if m.moves.contains(&choice) {
                Ok(id)
            } else {
                let words: Vec<&str> = m.moves.iter().map(|a| after_word(*a)).collect();
                Err(Refusal::new(
                    m.rule,
                    format!(
                        "{} may {}, not {}",
                        plain_name(world, id),
                        words.join(" or "),
                        after_word(choice)
                    ),
                ))
            }
        }
        _ => Err(Refusal::new(
            "C&M 7.16",
            format!("no move is asked of {} now", plain_name(world, id)),
        )),
    }
}

pub fn execute_after(world: &mut World, choice: AfterCharge) {
    if let Some(CmDecision::After(m)) = world.resource_mut::<CmState>().decisions.pop_front() {
        apply(world, &m, choice);
    }
}

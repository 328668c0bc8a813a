//! Missile fire (CdB 10): whether a unit of Bowmen may shoot at a target (10.1, 10.2),
//! the checks of a fire with its supporting shooters (10.3) and its execution; the
//! scores and the dice are those of `combat.rs`.

use bevy::prelude::*;

use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, line_of_hexes, line_of_sight};
use crate::engine::units::{SideId, UnitId};

use super::combat::{CombatPlan, evaluate, resolve};
use super::data::Kind;
use super::*;

/// Whether `shooter` may shoot at `target` now (CdB 10.1, 10.2), its distance if so.
pub(crate) fn can_shoot_at(world: &World, shooter: UnitId, target: UnitId) -> Result<u32, Refusal> {
    let p = unit(world, shooter).p;
    let who = name(world, shooter);
    if p.kind != Kind::Bw || p.range == 0 {
        return Err(Refusal::new(
            "CdB 10",
            format!("{who} is not a unit of Bowmen"),
        ));
    }
    let f = flags(world, shooter);
    if f.shot {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{who} has shot this turn"),
        ));
    }
    if f.moved {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{who} moved this turn: it may not shoot"),
        ));
    }
    may_shoot_from_its_place(world, shooter, target)
}

/// `can_shoot_at` but for what the unit did this turn (shot, moved): whether Bowmen
/// shoot at `target` from where they stand, and at what range. The threat map reads it
/// for their next missile phase, before they move.
pub(crate) fn may_shoot_from_its_place(
    world: &World,
    shooter: UnitId,
    target: UnitId,
) -> Result<u32, Refusal> {
    let p = unit(world, shooter).p;
    let who = name(world, shooter);
    let f = flags(world, shooter);
    if f.supported || f.rank != 0 {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{who} is supporting: it may not shoot"),
        ));
    }
    if in_enemy_zoc(world, shooter) || !enemies_in_front(world, shooter).is_empty() {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{who} is in an enemy zone of control or has an enemy in its own"),
        ));
    }
    if corps_of(world, shooter).unreliable == Some(true) {
        return Err(Refusal::new(
            "CdB 4.3",
            format!("{who} belongs to an unreliable allied corps: it may not shoot"),
        ));
    }
    let side = side_of(world, shooter);
    let (Some(sh), Some(th)) = (hex_of(world, shooter), hex_of(world, target)) else {
        return Err(Refusal::new("CdB 10", "both units must be on the map"));
    };
    if side_of(world, target) == side || is_hidden(world, target) {
        return Err(Refusal::new(
            "CdB 10",
            "the target must be a visible enemy unit",
        ));
    }
    let d = sh.distance(th);
    if d > p.range {
        return Err(Refusal::new(
            "CdB 10",
            format!("{th} is {d} hexes away; the range of {who} is {}", p.range),
        ));
    }
    let front = facing(world, shooter).front(sh);
    let through_front = d == 1 && front.contains(&th)
        || line_of_hexes(sh, th)
            .get(1)
            .is_some_and(|(x, y)| front.contains(x) || y.is_some_and(|y| front.contains(&y)));
    if !through_front {
        return Err(Refusal::new(
            "CdB 10.2",
            format!("Bowmen shoot only through their frontal hexes: {th} is not in front of {who}"),
        ));
    }
    if !clear_line(world, sh, th) {
        return Err(Refusal::new(
            "CdB 10.2",
            format!("the line from {sh} to {th} is blocked by terrain or units"),
        ));
    }
    Ok(d)
}

/// Whether bowmen in `sh` see `th` (CdB 10.2): no hex between blocks (`line_blocked`).
pub fn clear_line(world: &World, sh: HexCoord, th: HexCoord) -> bool {
    let sight = position::Sight::of(world);
    line_of_sight(sh, th, |x| line_blocked(world, &sight, x, sh, th).is_some())
}

/// `clear_line`, with what blocks at each hex between (the line-of-sight tool).
pub fn line_of_fire(world: &World, sh: HexCoord, th: HexCoord) -> crate::engine::hex::SightLine {
    let sight = position::Sight::of(world);
    crate::engine::hex::sight_line(sh, th, |x| {
        line_blocked(world, &sight, x, sh, th).map(str::to_string)
    })
}

/// What blocks a bowmen's line at `x` between `sh` and `th` (CdB 10.2), if anything.
fn line_blocked(
    world: &World,
    sight: &position::Sight,
    x: HexCoord,
    sh: HexCoord,
    th: HexCoord,
) -> Option<&'static str> {
    if x == sh || x == th {
        None
    } else if sight.blocks(x, sh, th) {
        Some("woods, buildings, an orchard or a hill higher than both ends (CdB 10.2)")
    } else if !stack_at(world, x).is_empty() {
        Some("a unit between (CdB 10.2)")
    } else {
        None
    }
}

/// The enemy units `shooter` could shoot at, with their distances.
pub(crate) fn targets_of(world: &World, shooter: UnitId) -> Vec<(UnitId, u32)> {
    let side = side_of(world, shooter);
    let Some(sh) = hex_of(world, shooter) else {
        return Vec::new();
    };
    let range = unit(world, shooter).p.range;
    let enemies = EnemyLookup::new(world, side);
    sh.within(range)
        .into_iter()
        .filter_map(|h| enemies.at(h))
        .filter(|t| !flags(world, *t).was_shot && !in_contact_with_side(world, *t, side))
        .filter_map(|t| can_shoot_at(world, shooter, t).ok().map(|d| (t, d)))
        .collect()
}

fn in_contact_with_side(world: &World, t: UnitId, side: SideId) -> bool {
    let Some(th) = hex_of(world, t) else {
        return false;
    };
    th.neighbors()
        .into_iter()
        .filter_map(|n| front_at(world, n))
        .any(|x| side_of(world, x) == side && frontal_contact(world, x, t))
}

pub(crate) fn check_missile(
    world: &World,
    fire: &[HexCoord],
    target: HexCoord,
) -> Result<CombatPlan, Refusal> {
    if state(world).step != CdbPhase::Missile {
        return Err(Refusal::new(
            "CdB 3",
            "missiles are shot in the missile phase",
        ));
    }
    let side = state(world).missile_side;
    let mut shooters = Vec::new();
    for h in fire {
        let s = front_at(world, *h)
            .ok_or_else(|| Refusal::new("CdB 10", format!("there is no unit in {h}")))?;
        if side_of(world, s) != side {
            return Err(Refusal::new(
                "CdB 10",
                format!(
                    "{} does not belong to the side shooting now",
                    name(world, s)
                ),
            ));
        }
        if shooters.contains(&s) {
            return Err(Refusal::new(
                "CdB 10.3",
                format!("{} is named twice", name(world, s)),
            ));
        }
        shooters.push(s);
    }
    let t = enemy_at(world, side, target)
        .ok_or_else(|| Refusal::new("CdB 10", format!("there is no enemy unit in {target}")))?;
    if flags(world, t).was_shot {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{} has been shot at this turn", name(world, t)),
        ));
    }
    if in_contact_with_side(world, t, side) {
        return Err(Refusal::new(
            "CdB 10.1",
            format!(
                "{} is in frontal contact with a friendly unit: no shooting at it",
                name(world, t)
            ),
        ));
    }
    let lead = shooters[0];
    let d = can_shoot_at(world, lead, t)?;
    for s in &shooters {
        let options = targets_of(world, *s);
        let nearest = options.iter().map(|o| o.1).min();
        if *s != lead {
            can_shoot_at(world, *s, t)?;
            if !shooters.iter().any(|o| {
                *o != *s
                    && hex_of(world, *o)
                        .zip(hex_of(world, *s))
                        .is_some_and(|(a, b)| a.is_adjacent(b))
            }) {
                return Err(Refusal::new(
                    "CdB 10.3",
                    format!(
                        "{} is not adjacent to another shooter: it shoots separately",
                        name(world, *s)
                    ),
                ));
            }
        }
        let mine = if *s == lead {
            d
        } else {
            can_shoot_at(world, *s, t)?
        };
        if nearest.is_some_and(|n| n < mine) {
            return Err(Refusal::new(
                "CdB 10.1",
                format!(
                    "{} must shoot at the nearest target ({} hexes)",
                    name(world, *s),
                    nearest.unwrap_or(0)
                ),
            ));
        }
    }
    Ok(evaluate(world, lead, t, true, &shooters, None))
}

pub(crate) fn execute_missile(world: &mut World, plan: CombatPlan) {
    let (a, d) = (plan.a, plan.d);
    log(world, EventKind::CombatDeclared, "CdB 10", |w| {
        let mut t = format!("{} shoots at {}", name(w, a), name(w, d));
        if !plan.a_supports.is_empty() {
            t.push_str(&format!(
                ", supported by {}",
                plan.a_supports
                    .iter()
                    .map(|s| name(w, *s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if plan.countershot {
            t.push_str("; it shoots back");
        }
        t
    });
    for s in std::iter::once(a).chain(plan.a_supports.iter().copied()) {
        flags_mut(world, s).shot = true;
    }
    flags_mut(world, d).was_shot = true;
    if plan.countershot {
        flags_mut(world, d).shot = true;
    }
    let c = unit(world, d).corps as usize;
    command_points::set_reliable(world, c, "one of its units was shot at");
    resolve(world, plan);
}

//! Random legal commands for Charles the Bold (autoplay, fuzzing): a waiting decision's
//! answers first; impetuous stands that owe their charge move at the enemy or test for
//! opportunity (CtB 9.1); in an activation a random fire, melee, rally, opportunity
//! test, turn, move or group move (CtB 3.8) of the group's stands (moves mostly towards
//! the nearest enemy, so that games come to blows), a group recovery (CtB 8.1), the
//! general's attachment or its end (CtB 2.1), or `end`.

use bevy::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::engine::command::Command;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::commands::{CtbCommand, Step};
use super::{
    CtbPhase, acts, facing, group_stands, hex_of, key, phase, side_of, stand, stands_of, state,
    status,
};
use crate::rulesets::common::{Weighted, pick};

/// The nearest enemy stand's hex, among `enemies` (each side's stands on the map,
/// listed once per command: autoplay asks for every stand of a group).
fn nearest_enemy(enemies: &[(UnitId, HexCoord)], at: HexCoord) -> Option<HexCoord> {
    enemies
        .iter()
        .map(|(_, h)| *h)
        .min_by_key(|h| (at.distance(*h), *h))
}

/// The longest legal forward move of a stand towards its nearest enemy, each step
/// checked as `dispatch::check` would the path so far (`reach::Mover`).
fn advance(
    world: &World,
    id: UnitId,
    mover: &mut Option<super::reach::Mover>,
    enemies: &[(UnitId, HexCoord)],
    rng: &mut ChaCha8Rng,
) -> Option<Command> {
    let at = hex_of(world, id)?;
    let goal = nearest_enemy(enemies, at)?;
    let f = facing(world, id);
    let mp = stand(world, id)?.entry.mp.0;
    let mut path = Vec::new();
    let mut pos = mover.as_ref().map(|m| m.start());
    for _ in 0..mp {
        let mut fronts = f.front(pos.map_or(at, |p| p.hex)).to_vec();
        fronts.sort_by_key(|h| (h.distance(goal), *h));
        if rng.random_bool(0.2) {
            fronts.reverse();
        }
        let (Some(m), Some(from)) = (mover.as_mut(), pos) else {
            break;
        };
        let mut stepped = false;
        for h in fronts {
            let Some(to) = m.step(&from, h) else {
                continue;
            };
            path.push(h);
            if m.may_end(&to, &path) {
                pos = Some(to);
                stepped = true;
                break;
            }
            path.pop();
        }
        if !stepped {
            break;
        }
    }
    (!path.is_empty()).then(|| {
        CtbCommand::Go {
            unit: key(world, id),
            steps: path.into_iter().map(Step::Hex).collect(),
            facing: None,
        }
        .command()
    })
}

/// A random legal command for the side to act.
pub fn random_command(world: &mut World, rng: &mut ChaCha8Rng) -> Command {
    if let Some(d) = super::decision::decision(world)
        && let Some(c) = pick(rng, &d.choices)
    {
        return c.command;
    }
    if phase(world) != CtbPhase::Activation {
        return Command::EndPhase;
    }
    let Some(group) = state(world).activation else {
        return Command::EndPhase;
    };
    // Impetuous stands that owe their charge move at the enemy or test for
    // opportunity before the activation may end (CtB 9.1).
    let owing = super::impetuous::owing_commands(world);
    if !owing.is_empty() {
        let mut options = Vec::new();
        for (id, complying) in owing {
            options.extend(complying);
            let c = CtbCommand::Opportunity {
                unit: key(world, id),
            }
            .command();
            if super::dispatch::check(world, &c).is_ok() {
                options.push(c);
            }
        }
        if let Some(c) = pick(rng, &options) {
            return c;
        }
    }
    // The ongoing melees owed this round are fought before the activation may end
    // (R-ongoing).
    let owed: Vec<Command> = super::ongoing::owed_ongoing(world, group)
        .into_iter()
        .map(|(own, other)| {
            CtbCommand::Fight {
                unit: key(world, own),
                enemy: key(world, other),
                with: Vec::new(),
            }
            .command()
        })
        .filter(|c| super::dispatch::check(world, c).is_ok())
        .collect();
    if !owed.is_empty() && rng.random_bool(0.5) {
        return pick(rng, &owed).expect("not empty");
    }
    let mut options: Weighted<Command> = Weighted::default();
    let side = state(world).groups[group].side;
    let enemies: Vec<(UnitId, HexCoord)> = stands_of(world, side.other())
        .into_iter()
        .filter_map(|e| hex_of(world, e).map(|h| (e, h)))
        .collect();
    // One stand's options at a time, from a random one on: the first stand with any
    // is the one that acts (each stand has its turn in the draw, and the rules check
    // one stand's candidates, not the whole group's, for each command).
    let mut stands = group_stands(world, group);
    if !stands.is_empty() {
        let k = rng.random_range(0..stands.len());
        stands.rotate_left(k);
    }
    for id in stands {
        if !options.is_empty() {
            break;
        }
        let Some(at) = hex_of(world, id) else {
            continue;
        };
        let side = side_of(world, id);
        let u = key(world, id);
        if status(world, id).disordered && acts(world, id).moves == 0 && !acts(world, id).fired {
            let c = CtbCommand::Rally {
                units: vec![u.clone()],
            }
            .command();
            if super::dispatch::check(world, &c).is_ok() {
                options.push(c, 1);
            }
        }
        // Refusals of `check_fire` that do not depend on the target, read once a stand
        // and skipping checks that could only refuse (the dice drawn stay the same).
        let t = acts(world, id);
        let spec = &stand(world, id).expect("a stand of the group").spec;
        let cannot_fire = t.fired
            || (spec.no_move_and_fire && t.moves > 0)
            || super::shooting::in_close_combat(world, id);
        let cannot_fire_moving = t.stopped || t.moves > 0 || spec.no_move_and_fire;
        let face = facing(world, id);
        if spec.shoots {
            for &(e, h) in &enemies {
                if h.distance(at) <= 6 {
                    let moving = rng.random_bool(0.3);
                    // Out of its arc (the artillery's corridor), `check_fire` refuses.
                    let in_arc = match spec.fire_arc {
                        super::data::FireArc::Corridor => super::geometry::in_corridor(at, face, h),
                        _ => super::geometry::in_fire_arc(at, face, h),
                    };
                    if cannot_fire || (moving && cannot_fire_moving) || !in_arc {
                        continue;
                    }
                    let c = CtbCommand::Fire {
                        unit: u.clone(),
                        moving,
                        target: key(world, e),
                    }
                    .command();
                    if super::dispatch::check(world, &c).is_ok() {
                        options.push(c, 2);
                    }
                }
            }
        }
        for e in super::moving::enemies_in_front(world, side, at, face) {
            let c = CtbCommand::Fight {
                unit: u.clone(),
                enemy: key(world, e),
                with: Vec::new(),
            }
            .command();
            if super::dispatch::check(world, &c).is_ok() {
                // Melees first: they are what decides a battle.
                options.push(c, 4);
            }
        }
        if rng.random_bool(0.1) {
            let c = CtbCommand::Opportunity { unit: u.clone() }.command();
            if super::dispatch::check(world, &c).is_ok() {
                options.push(c, 1);
            }
        }
        // `None`: every move of this stand is refused before its first step.
        let mut mover = super::reach::Mover::new(world, id);
        if let Some(c) = advance(world, id, &mut mover, &enemies, rng) {
            options.push(c, 3);
        }
        for step in [Step::Cw, Step::Ccw] {
            if !rng.random_bool(0.3) || mover.is_none() {
                continue;
            }
            let c = CtbCommand::Go {
                unit: u.clone(),
                steps: vec![step],
                facing: None,
            }
            .command();
            if super::dispatch::check(world, &c).is_ok() {
                options.push(c, 1);
            }
        }
    }
    if rng.random_bool(0.5)
        && let Some(c) = group_rally(world, group)
    {
        options.push(c, 2);
    }
    if rng.random_bool(0.1)
        && let Some(c) = attachment(world, group, rng)
    {
        options.push(c, 1);
    }
    if rng.random_bool(0.25)
        && let Some(c) = group_move(world, group, rng)
    {
        options.push(c, 3);
    }
    if options.is_empty() || rng.random_bool(0.06) {
        // `end` waits for the ongoing melees owed (R-ongoing).
        return pick(rng, &owed).unwrap_or(Command::EndPhase);
    }
    options.pick(rng).unwrap_or(Command::EndPhase)
}

/// A legal one-hex group move (CtB 3.8) of a random stand of the group with its
/// neighbours of the same facing, if there is one.
fn group_move(world: &World, group: usize, rng: &mut ChaCha8Rng) -> Option<Command> {
    let stands = group_stands(world, group);
    let lead = pick(rng, &stands)?;
    let at = hex_of(world, lead)?;
    let face = facing(world, lead);
    let mut units = vec![lead];
    for s in &stands {
        if *s != lead
            && facing(world, *s) == face
            && hex_of(world, *s).is_some_and(|h| h.is_adjacent(at))
        {
            units.push(*s);
        }
    }
    if units.len() < 2 {
        return None;
    }
    let keys: Vec<_> = units.iter().map(|u| key(world, *u)).collect();
    face.front(at).into_iter().find_map(|h| {
        let c = CtbCommand::Group {
            units: keys.clone(),
            path: vec![h],
        }
        .command();
        super::dispatch::check(world, &c).is_ok().then_some(c)
    })
}

/// A group recovery (CtB 8.1, R-8.1) of two disordered stands of the group side by
/// side, if there is one.
fn group_rally(world: &World, group: usize) -> Option<Command> {
    let ready: Vec<UnitId> = group_stands(world, group)
        .into_iter()
        .filter(|s| status(world, *s).disordered)
        .filter(|s| super::orders::check_rally(world, &[*s]).is_ok())
        .collect();
    ready.iter().enumerate().find_map(|(i, a)| {
        let at = hex_of(world, *a)?;
        let b = ready[i + 1..]
            .iter()
            .find(|b| hex_of(world, **b).is_some_and(|h| h.is_adjacent(at)))?;
        let c = CtbCommand::Rally {
            units: vec![key(world, *a), key(world, *b)],
        }
        .command();
        super::dispatch::check(world, &c).is_ok().then_some(c)
    })
}

/// The group's general attaching himself to the stand in his hex, or (less often)
/// ending his attachment (CtB 2.1), if legal.
fn attachment(world: &World, group: usize, rng: &mut ChaCha8Rng) -> Option<Command> {
    let g = state(world).groups[group].general;
    let attached = super::general(world, g)?.attached.is_some();
    let general = key(world, g);
    let c = if !attached {
        CtbCommand::Attach { general }
    } else if rng.random_bool(0.3) {
        CtbCommand::Detach { general }
    } else {
        return None;
    }
    .command();
    super::dispatch::check(world, &c).is_ok().then_some(c)
}

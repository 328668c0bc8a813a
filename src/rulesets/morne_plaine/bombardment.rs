//! Morne Plaine's bombardment (MP bombardment): the fire strength of the artillery that
//! fire together at one target, read on the bombardment table with a d6. The table and
//! the strength's formula are the designer's (`bombardment.ron`), the page gives neither.

/// One artillery unit firing: its bombardment value and its distance to the target.
#[derive(Clone, Copy, Debug)]
pub struct Firer {
    pub bv: u8,
    pub distance: u32,
}

/// The fire strength (designer's, `bombardment.ron`): each firer's BV less 1 for each
/// hex beyond the first (never below 0), added together, less the target hex's combat
/// value for the target's kind (so marsh and dune add 1), less 1 on sodden ground.
pub fn fire_strength(firers: &[Firer], target_defence: i8, sodden: bool) -> i32 {
    let fire: i32 = firers
        .iter()
        .map(|f| (f.bv as i32 - (f.distance as i32 - 1)).max(0))
        .sum();
    fire - target_defence as i32 - i32::from(sodden)
}

// ---- bombardment in the world ----

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, line_of_sight};
use crate::engine::units::UnitId;

use super::data::{FireResult, Kind};
use super::movement::{contact, terrain_at};
use super::{
    demoralised, flags, flags_mut, hex_of, kind, log, name, plain_name, side_of, turn, unit,
    unit_at,
};

/// A bombardment that passed its check.
#[derive(Clone, Debug)]
pub struct BombardPlan {
    pub firers: Vec<UnitId>,
    pub target: UnitId,
    pub strength: i32,
}

/// Whether artillery in `from` sees `to` (MP bombardment): units never block; an
/// intermediate hex blocks if its terrain does (towns, woods, forts, dunes, palm
/// groves) or if it stands higher than the lower end of the line (a crest); next to
/// each other, a double slope blocks.
pub fn line_of_fire(
    board: &Board,
    tables: &super::data::Tables,
    from: HexCoord,
    to: HexCoord,
) -> bool {
    if from.is_adjacent(to) {
        return contact(board, from, to);
    }
    let low = board.elevation(from).min(board.elevation(to));
    line_of_sight(from, to, |h| fire_blocked(board, tables, low, h).is_some())
}

/// `line_of_fire`, with what blocks at each hex between (the line-of-sight tool); next
/// to each other, the line is the contact across their hexside.
pub fn line_of_fire_report(
    board: &Board,
    tables: &super::data::Tables,
    from: HexCoord,
    to: HexCoord,
) -> crate::engine::hex::SightLine {
    let low = board.elevation(from).min(board.elevation(to));
    let mut line = crate::engine::hex::sight_line(from, to, |h| {
        fire_blocked(board, tables, low, h).map(str::to_string)
    });
    line.clear = line_of_fire(board, tables, from, to);
    line
}

/// What blocks a line of fire at `h` (MP bombardment), the line's lower end at `low`,
/// if anything.
fn fire_blocked(
    board: &Board,
    tables: &super::data::Tables,
    low: i8,
    h: HexCoord,
) -> Option<&'static str> {
    if terrain_at(board, tables, h).blocks_los {
        Some("terrain that blocks the line (a village, a wood, a grove)")
    } else if board.elevation(h) > low {
        Some("a crest higher than the lower end of the line")
    } else {
        None
    }
}

/// Why an artillery unit may not fire now, or `None`.
pub(crate) fn cannot_fire(world: &World, id: UnitId) -> Option<String> {
    let board = world.res::<Board>();
    let tables = super::tables(world);
    let at = hex_of(world, id)?;
    if kind(world, id) != Kind::Artillery {
        return Some(format!("{} is not artillery", name(world, id)));
    }
    if demoralised(world, id) {
        return Some(format!(
            "{} is demoralised and cannot fire (MP combat: demoralisation)",
            name(world, id)
        ));
    }
    let t = terrain_at(board, &tables, at);
    if t.no_bombard {
        return Some(format!(
            "{} stands in {} ({at}): artillery does not fire from woods or a village",
            name(world, id),
            t.id
        ));
    }
    None
}

/// The fire strength of artillery at a target (`fire_strength` in the world) this turn.
fn strength_at(world: &World, firers: &[UnitId], target: UnitId) -> i32 {
    strength_in(world, firers, target, super::sodden(world))
}

/// `strength_at` on ground sodden or not (the threat map asks it for the firers' next
/// turn).
pub(crate) fn strength_in(world: &World, firers: &[UnitId], target: UnitId, sodden: bool) -> i32 {
    let board = world.res::<Board>();
    let tables = super::tables(world);
    let to = hex_of(world, target).expect("the target stands on the map");
    let fire: Vec<Firer> = firers
        .iter()
        .map(|&f| Firer {
            bv: unit(world, f).bv,
            distance: hex_of(world, f).expect("on the map").distance(to),
        })
        .collect();
    let cover = terrain_at(board, &tables, to)
        .defence
        .of(kind(world, target));
    fire_strength(&fire, cover, sodden)
}

/// Whether artillery `f` in `from` reaches `target` (MP bombardment): within its range
/// and with a line of fire.
pub(crate) fn within_fire(
    world: &World,
    f: UnitId,
    from: HexCoord,
    target: HexCoord,
) -> Result<(), Refusal> {
    const RULE: &str = "MP bombardment";
    let d = from.distance(target);
    let range = unit(world, f).range as u32;
    if d > range {
        return Err(Refusal::new(
            RULE,
            format!(
                "{target} is {d} hexes from {}, beyond its range of {range}",
                name(world, f)
            ),
        ));
    }
    let tables = super::tables(world);
    if !line_of_fire(world.res::<Board>(), &tables, from, target) {
        return Err(Refusal::new(
            RULE,
            format!(
                "{} cannot see {target}: woods, a town, a fort, dunes, a palm grove or higher ground lies between",
                name(world, f)
            ),
        ));
    }
    Ok(())
}

/// Checks `attack fire HEX… -> TARGET` in the bombardment phase (MP bombardment): each
/// firer the active side's artillery, not demoralised, not in woods or a village, not
/// yet fired, within range and sight; the target an enemy unit not yet bombarded.
pub fn check_bombard(
    world: &World,
    melee: &[HexCoord],
    fire: &[HexCoord],
    target: HexCoord,
) -> Result<BombardPlan, Refusal> {
    const RULE: &str = "MP bombardment";
    if !melee.is_empty() || fire.is_empty() {
        return Err(Refusal::new(
            RULE,
            "in the bombardment phase artillery fires: `attack fire HEX… -> TARGET`",
        ));
    }
    let side = turn(world).active;
    let Some(t) = unit_at(world, target).filter(|u| side_of(world, *u) != side) else {
        return Err(Refusal::new(
            RULE,
            format!("there is no enemy unit in {target}"),
        ));
    };
    if flags(world, t).was_attacked {
        return Err(Refusal::new(
            RULE,
            format!(
                "{} has already been bombarded this phase: each target once, by every battery firing at it together (designer's)",
                name(world, t)
            ),
        ));
    }
    let mut firers = Vec::new();
    for &h in fire {
        let Some(f) = unit_at(world, h).filter(|u| side_of(world, *u) == side) else {
            return Err(Refusal::new(
                RULE,
                format!("there is no friendly unit in {h}"),
            ));
        };
        if firers.contains(&f) {
            return Err(Refusal::new(RULE, format!("{h} is named twice")));
        }
        if let Some(why) = cannot_fire(world, f) {
            return Err(Refusal::new(RULE, why));
        }
        if flags(world, f).bombarded {
            return Err(Refusal::new(
                RULE,
                format!(
                    "{} has already fired this phase: each artillery fires once",
                    name(world, f)
                ),
            ));
        }
        within_fire(world, f, h, target)?;
        firers.push(f);
    }
    let strength = strength_at(world, &firers, t);
    Ok(BombardPlan {
        firers,
        target: t,
        strength,
    })
}

/// Fires a checked bombardment: the strength's column, a d6, the result.
pub fn execute_bombard(world: &mut World, plan: BombardPlan) {
    for &f in &plan.firers {
        flags_mut(world, f).bombarded = true;
    }
    flags_mut(world, plan.target).was_attacked = true;
    let to = hex_of(world, plan.target).expect("on the map");
    let nearest = *plan
        .firers
        .iter()
        .min_by_key(|&&f| (hex_of(world, f).expect("on the map").distance(to), f))
        .expect("a bombardment has a firer");
    let names: Vec<String> = plan.firers.iter().map(|&f| plain_name(world, f)).collect();
    let (strength, target) = (plan.strength, plan.target);
    log(world, EventKind::CombatDeclared, "MP bombardment", |w| {
        format!(
            "{} {} {} in {to}: fire strength {strength}",
            crate::engine::view::word_list(&names, "and"),
            if names.len() == 1 {
                "bombards"
            } else {
                "bombard"
            },
            plain_name(w, target)
        )
    });
    fire_at(world, nearest, target, strength, "MP bombardment");
}

/// Reads the table at a strength and applies the result to the target: CS lost, and a
/// morale check whose failure retreats it (no victorious marker, no advance).
fn fire_at(world: &mut World, firer: UnitId, target: UnitId, strength: i32, rule: &'static str) {
    let die = super::roll(world, rule, |w| {
        format!("the fire at {}", plain_name(w, target))
    });
    let result: FireResult = super::tables(world).bombardment.result(strength, die);
    let text = result.to_string();
    log(world, EventKind::CombatResult, rule, |w| {
        format!("Bombardment result {text} on {}", plain_name(w, target))
    });
    let at = hex_of(world, firer).expect("the firer stands on the map");
    super::results::apply_fire(world, target, at, result, rule);
}

/// The enemy artillery that reacts when `mover` enters `at` (MP bombardment): each one
/// next to it that has not yet fired so in this movement phase, is not demoralised, not
/// in woods or a village and on contact with `at`, in unit order.
pub fn reacting_guns(world: &World, mover: UnitId, at: HexCoord) -> Vec<UnitId> {
    let side = side_of(world, mover);
    let board = world.res::<Board>();
    let units = world.res::<crate::engine::units::Units>();
    // Occupied hexes first: this runs for every hex entered beside a gun.
    let mut v: Vec<UnitId> = board
        .neighbors_on_map(at)
        .filter_map(|n| units.at(board, n).first().map(|u| (n, *u)))
        .filter(|(n, _)| contact(board, at, *n))
        .map(|(_, u)| u)
        .filter(|&u| side_of(world, u) != side)
        .filter(|&u| kind(world, u) == Kind::Artillery && !flags(world, u).reaction_fired)
        .filter(|&u| cannot_fire(world, u).is_none())
        .collect();
    v.sort();
    v
}

/// Reaction fire (MP bombardment): the `ready` guns (`reacting_guns`) fire in turn at
/// `mover`, which has entered `at`, at range 1, until it leaves the hex. Returns true
/// when the mover must stop (it retreated or was eliminated).
pub fn reaction_fire(world: &mut World, mover: UnitId, at: HexCoord, ready: Vec<UnitId>) -> bool {
    for a in ready {
        if hex_of(world, mover) != Some(at) {
            return true;
        }
        flags_mut(world, a).reaction_fired = true;
        let strength = strength_at(world, &[a], mover);
        log(
            world,
            EventKind::CombatDeclared,
            "MP bombardment: reaction fire",
            |w| {
                format!(
                    "{} fires at {} entering {at}: fire strength {strength}",
                    plain_name(w, a),
                    plain_name(w, mover)
                )
            },
        );
        fire_at(world, a, mover, strength, "MP bombardment: reaction fire");
    }
    hex_of(world, mover) != Some(at)
}

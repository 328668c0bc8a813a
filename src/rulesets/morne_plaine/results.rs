//! Morne Plaine's retreats, which the game makes, "never decided by the player" and
//! "whatever the existence of an enemy ZoC" (MP combat: retreat): the free hexes on
//! contact, then the eight priorities of the page in order.

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::cached::CachedWorld;
use crate::engine::hex::HexCoord;

use super::data::{Kind, RetreatClass, Tables};
use super::movement::{contact, terrain_at};

/// The edge a side retreats towards: orange north, blue south (MP combat: retreat).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetreatEdge {
    North,
    South,
}

/// Who is retreating, from where, and who caused it.
#[derive(Clone, Copy, Debug)]
pub struct Retreat {
    pub from: HexCoord,
    pub kind: Kind,
    pub edge: RetreatEdge,
    /// The hex of the attacking unit of this combat (the firing artillery for fire).
    pub attacker: HexCoord,
    /// The hex of the unit that causes the retreat: the attacker for the defender, the
    /// defender for the attacker, the artillery for fire.
    pub causer: HexCoord,
}

/// Twice the row, a half more in even columns (which lie half a hex lower): the height
/// of a hex's centre, growing southwards.
fn y2(h: HexCoord) -> i32 {
    2 * h.row + if h.col % 2 == 0 { 1 } else { 0 }
}

/// Four times the squared distance between hex centres (flat-topped hexes).
fn distance2(a: HexCoord, b: HexCoord) -> i32 {
    let (dc, dy) = (a.col - b.col, y2(a) - y2(b));
    9 * dc * dc + 3 * dy * dy
}

/// The hex the game retreats a unit into, or `None` when it has none and is eliminated
/// (MP combat: retreat, elimination). The candidates are the hexes on contact with it,
/// free (`occupied` false), passable to its kind and not a fort under enemy control
/// (`enemy_fort`). Among them the first wins by, in order:
///
/// 1. a village;
/// 2. a wood;
/// 3. not adjacent to the attacking unit;
/// 4. the hex directly opposite the unit causing the retreat;
/// 5. not across a stream;
/// 6. not adjacent to the unit causing the retreat;
/// 7. nearest its own edge;
/// 8. farthest from the attacking unit; then the lowest hex label.
pub fn retreat_choice(
    board: &Board,
    tables: &Tables,
    retreat: &Retreat,
    occupied: impl Fn(HexCoord) -> bool,
    enemy_fort: impl Fn(HexCoord) -> bool,
) -> Option<HexCoord> {
    let from = retreat.from;
    let around = from.neighbors();
    let opposite = around
        .iter()
        .position(|n| *n == retreat.causer)
        .map(|d| around[(d + 3) % 6]);
    around
        .into_iter()
        .filter(|&h| {
            contact(board, from, h)
                && !occupied(h)
                && !enemy_fort(h)
                && terrain_at(board, tables, h).cost.of(retreat.kind).is_some()
        })
        .min_by_key(|&h| {
            let terrain = terrain_at(board, tables, h);
            let stream = board.hexside(from, h).has(HexsideFeature::Stream)
                && !board.hexside(from, h).has(HexsideFeature::Bridge);
            let edge = match retreat.edge {
                RetreatEdge::North => y2(h),
                RetreatEdge::South => -y2(h),
            };
            (
                terrain.retreat != Some(RetreatClass::Village),
                terrain.retreat != Some(RetreatClass::Woods),
                h.is_adjacent(retreat.attacker),
                Some(h) != opposite,
                stream,
                h.is_adjacent(retreat.causer),
                edge,
                -distance2(h, retreat.attacker),
                (h.col, h.row),
            )
        })
}

/// A hex as an advance after combat sees it (MP combat: advance after combat).
#[derive(Clone, Copy, Debug)]
pub struct AdvanceHex {
    /// The terrain's combat value for the advancing unit's kind (its rank: dune and
    /// marsh -1, towns and woods 2 for infantry and 0 mounted, hamlet 1, fort 3).
    pub defence: i8,
    pub level: i8,
    pub objective: bool,
    pub fort: bool,
}

/// The rank of a hex for an advance: its terrain's, and at least 1 on a hill, the
/// higher of the two hexes ("Rank 1: hamlet, hill").
pub fn advance_rank(hex: &AdvanceHex, other: &AdvanceHex) -> i8 {
    if hex.level > other.level {
        hex.defence.max(1)
    } else {
        hex.defence
    }
}

/// Whether the victorious unit takes the place of the unit that retreated, or why not
/// (MP combat: advance after combat): artillery never moves after combat; a unit never
/// leaves a hex of higher rank ("These units always leave an hex for an hex of superior
/// or equal rank"), nor an objective hex unless it enters one too ("the value
/// 'objective' of hexes nullifies when … all two of objective hex"); mounted units never
/// leave a fort (the designer's reading of a garbled sentence: no hex outranks a fort);
/// and a demoralised unit does not advance into an enemy zone (it may not enter one).
pub fn advance_allowed(
    kind: Kind,
    from: &AdvanceHex,
    to: &AdvanceHex,
    demoralised_into_enemy_zoc: bool,
) -> Result<(), String> {
    if kind == Kind::Artillery {
        return Err("artillery may never move after combat".into());
    }
    if kind.is_mounted() && from.fort {
        return Err("mounted units never leave a fort".into());
    }
    let (rank_from, rank_to) = (advance_rank(from, to), advance_rank(to, from));
    if rank_to < rank_from {
        return Err(format!(
            "it would leave a hex of rank {rank_from} for one of rank {rank_to}"
        ));
    }
    if from.objective && !to.objective {
        return Err("it would leave an objective hex".into());
    }
    if demoralised_into_enemy_zoc {
        return Err("a demoralised unit may not enter an enemy zone of control".into());
    }
    Ok(())
}

// ---- results in the world ----

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::units::{Placement, UnitId};

use super::data::FireResult;
use super::{
    MpState, component_mut, flags_mut, hex_of, kind, log, plain_name, set_mv, set_placement,
    side_of, unit, unit_at, values,
};

/// Loses `n` CS points; at 0 the unit is eliminated (MP combat: results). Returns
/// whether it was eliminated.
pub fn lose_cs(world: &mut World, id: UnitId, n: u8, rule: &'static str) -> bool {
    if n == 0 || hex_of(world, id).is_none() {
        return false;
    }
    let cs = values(world, id).cs.saturating_sub(n);
    component_mut::<super::MpValues>(world, id).cs = cs;
    if cs == 0 {
        eliminate(world, id, rule, "its combat strength falls to 0");
        return true;
    }
    log(world, EventKind::StepLost, rule, |w| {
        format!("{} loses {n} CS, {cs} left", plain_name(w, id))
    });
    false
}

pub fn eliminate(world: &mut World, id: UnitId, rule: &'static str, why: &str) {
    let at = hex_of(world, id);
    log(world, EventKind::Eliminated, rule, |w| {
        format!(
            "{}{} is eliminated: {why}",
            plain_name(w, id),
            at.map(|h| format!(" in {h}")).unwrap_or_default()
        )
    });
    set_placement(world, id, Placement::Eliminated);
}

/// A morale check against `threshold` (the unit's current MV, or the charge's
/// corrected value): "A random number from 1 and 9 … If the number is greater then the
/// unit fails" (MP combat: morale check). Leaders never check. At 0 it fails and at 9
/// it passes with no die rolled. Returns whether it passed.
pub fn morale_check(world: &mut World, id: UnitId, threshold: i32, rule: &'static str) -> bool {
    if kind(world, id) == Kind::Leader {
        log(
            world,
            EventKind::MoraleCheck,
            "MP combat: morale check",
            |w| {
                format!(
                    "{} is a leader: leaders never check morale",
                    plain_name(w, id)
                )
            },
        );
        return true;
    }
    let threshold = super::combat::check_threshold(threshold);
    let (passed, how) = if threshold == 0 {
        (false, "morale 0 fails with no die".to_string())
    } else if threshold >= 9 {
        (true, "morale 9 passes with no die".to_string())
    } else {
        let n = super::roll_die(world, 9, rule, |w| {
            format!(
                "the morale check of {} (fails above {threshold})",
                plain_name(w, id)
            )
        });
        (
            super::combat::morale_check_passes(threshold, n),
            format!("{n} against {threshold}"),
        )
    };
    log(world, EventKind::MoraleCheck, rule, |w| {
        format!(
            "{} {} its morale check ({how})",
            plain_name(w, id),
            if passed { "passes" } else { "fails" }
        )
    });
    passed
}

/// How a retreat ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetreatOutcome {
    Retreated(HexCoord),
    Eliminated,
}

/// Retreats a unit one hex, by the page's priorities (`retreat_choice`), or eliminates
/// it where it has no retreat (MP combat: retreat, elimination). It loses 1 MV for
/// each enemy unit whose zone covers the hex it enters, the attacking unit excepted.
pub fn retreat(
    world: &mut World,
    id: UnitId,
    attacker_hex: HexCoord,
    causer_hex: HexCoord,
    attacking_unit: Option<UnitId>,
) -> RetreatOutcome {
    let Some(from) = hex_of(world, id) else {
        return RetreatOutcome::Eliminated;
    };
    let side = side_of(world, id);
    let choice = {
        let board = world.res::<Board>();
        let tables = super::tables(world);
        let forts = &world.resource::<MpState>().forts;
        let r = Retreat {
            from,
            kind: kind(world, id),
            edge: super::retreat_edge(world, side),
            attacker: attacker_hex,
            causer: causer_hex,
        };
        retreat_choice(
            board,
            &tables,
            &r,
            |h| unit_at(world, h).is_some(),
            |h| {
                forts
                    .iter()
                    .any(|(f, s)| *f == h && s.is_some_and(|s| s != side))
            },
        )
    };
    let Some(to) = choice else {
        eliminate(
            world,
            id,
            "MP combat: elimination",
            "it has no hex to retreat into",
        );
        return RetreatOutcome::Eliminated;
    };
    set_placement(world, id, Placement::OnMap(to));
    flags_mut(world, id).shifted = true;
    log(world, EventKind::Retreated, "MP combat: retreat", |w| {
        format!("{} retreats {from} → {to}", plain_name(w, id))
    });
    let zones: Vec<UnitId> = {
        let board = world.res::<Board>();
        board
            .neighbors_on_map(to)
            .filter(|n| contact(board, to, *n))
            .filter_map(|n| unit_at(world, n))
            .filter(|&u| side_of(world, u) != side && !super::demoralised(world, u))
            .filter(|&u| Some(u) != attacking_unit)
            .collect()
    };
    if !zones.is_empty() {
        let mv = values(world, id).mv.saturating_sub(zones.len() as u8);
        set_mv(world, id, mv);
        let n = zones.len();
        log(world, EventKind::MoraleCheck, "MP combat: retreat", |w| {
            format!(
                "{} retreats into {n} enemy zone{} of control: morale -{n}, now {mv}{}",
                plain_name(w, id),
                if n == 1 { "" } else { "s" },
                if mv == 0 { " (demoralised)" } else { "" }
            )
        });
    }
    RetreatOutcome::Retreated(to)
}

/// Applies a bombardment result to its target (MP bombardment): CS lost, then the
/// morale check, whose failure retreats it from the firing artillery in `firer_hex`.
pub fn apply_fire(
    world: &mut World,
    target: UnitId,
    firer_hex: HexCoord,
    result: FireResult,
    rule: &'static str,
) {
    if lose_cs(world, target, result.loss, rule) || !result.check {
        return;
    }
    let mv = values(world, target).mv as i32;
    if !morale_check(world, target, mv, "MP combat: morale check") {
        let firer = unit_at(world, firer_hex);
        retreat(world, target, firer_hex, firer_hex, firer);
    }
}

/// The victorious unit moves into the hex its opponent left, unless the page forbids
/// it (`advance_allowed`), logged either way (MP combat: advance after combat).
pub fn advance(world: &mut World, id: UnitId, to: HexCoord) {
    let Some(from) = hex_of(world, id) else {
        return;
    };
    if unit_at(world, to).is_some() {
        return;
    }
    let (verdict, ranks) = {
        let board = world.res::<Board>();
        let tables = super::tables(world);
        let k = kind(world, id);
        let objectives = &world.resource::<MpState>().objectives;
        let hex = |h: HexCoord| {
            let t = terrain_at(board, &tables, h);
            AdvanceHex {
                defence: t.defence.of(k),
                level: board.elevation(h),
                objective: objectives.iter().any(|o| o.hex == h),
                fort: t.fort,
            }
        };
        let demoralised_into_zoc =
            super::demoralised(world, id) && super::in_enemy_zoc(world, side_of(world, id), to);
        let (a, b) = (hex(from), hex(to));
        (
            advance_allowed(k, &a, &b, demoralised_into_zoc),
            (advance_rank(&a, &b), advance_rank(&b, &a)),
        )
    };
    match verdict {
        Ok(()) => {
            set_placement(world, id, Placement::OnMap(to));
            flags_mut(world, id).shifted = true;
            log(
                world,
                EventKind::Advanced,
                "MP combat: advance after combat",
                |w| {
                    format!(
                        "{} advances {from} → {to} (rank {} ≥ {})",
                        plain_name(w, id),
                        ranks.1,
                        ranks.0
                    )
                },
            );
        }
        Err(why) => log(
            world,
            EventKind::Advanced,
            "MP combat: advance after combat",
            |w| format!("{} stays in {from}: {why}", plain_name(w, id)),
        ),
    }
}

/// "If an elimination is the result of combat, the victorious unit regains a morale
/// point, though never more than its initial value" (MP combat).
pub fn regain_for_elimination(world: &mut World, id: UnitId) {
    let v = values(world, id).mv;
    if v < unit(world, id).mv0 {
        set_mv(world, id, v + 1);
        log(world, EventKind::MoraleCheck, "MP combat: results", |w| {
            format!(
                "{} regains a morale point for the elimination: {}",
                plain_name(w, id),
                v + 1
            )
        });
    }
}

//! Morne Plaine's retreats, which the game makes, "never decided by the player" and
//! "whatever the existence of an enemy ZoC" (MP combat: retreat): the free hexes on
//! contact, then the eight priorities of the page in order.

use crate::engine::board::{Board, HexsideFeature};
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
fn advance_rank(hex: &AdvanceHex, other: &AdvanceHex) -> i8 {
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

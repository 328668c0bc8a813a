//! Morne Plaine's map rules between two adjacent hexes: when they are on contact (no
//! river without a bridge or ford between them, no double slope), which movement,
//! combat, supports, zones of control and retreats all require, and what a step costs a
//! unit of each kind (MP movement).

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::command::Refusal;
use crate::engine::hex::HexCoord;

use super::data::{Kind, Tables, TerrainType};

/// "Combat is not possible wherever movement forbidden (over rivers …, slopes greater
/// than one level)" (MP combat): two adjacent hexes of the map are on contact unless a
/// river without a bridge or a ford, or a double slope (a difference of two levels or
/// more), lies between them.
pub fn contact(board: &Board, a: HexCoord, b: HexCoord) -> bool {
    if !a.is_adjacent(b) || !board.contains(a) || !board.contains(b) {
        return false;
    }
    let side = board.hexside(a, b);
    let river = side.has(HexsideFeature::River)
        && !side.has(HexsideFeature::Bridge)
        && !side.has(HexsideFeature::Ford);
    let double_slope = (board.elevation(a) as i32 - board.elevation(b) as i32).abs() >= 2;
    !river && !double_slope
}

/// The terrain of a hex of the map.
pub fn terrain_at<'t>(board: &Board, tables: &'t Tables, hex: HexCoord) -> &'t TerrainType {
    let id = board.terrain(hex).unwrap_or_default();
    &tables.terrain.terrain[(id.0 as usize).min(tables.terrain.terrain.len() - 1)]
}

/// What it costs a unit of `kind`, in half movement points, to step from `from` into the
/// adjacent `to` (MP movement): the terrain's cost for its kind; along a road, half a
/// point whatever the hex (the designer's reading of "road 0"); a stream or a ford adds
/// its cost unless a bridge crosses it. Refused across a river or a double slope, and
/// into terrain its kind may not enter.
pub fn step_cost(
    board: &Board,
    tables: &Tables,
    kind: Kind,
    from: HexCoord,
    to: HexCoord,
) -> Result<u8, Refusal> {
    if !board.contains(to) {
        return Err(Refusal::new("MP movement", format!("{to} is off the map")));
    }
    if !from.is_adjacent(to) {
        return Err(Refusal::new(
            "MP movement",
            format!("{to} is not adjacent to {from}"),
        ));
    }
    if !contact(board, from, to) {
        return Err(Refusal::new(
            "MP movement",
            format!(
                "{from} and {to} are not on contact: a river without a bridge or ford, or a slope of more than one level, lies between them"
            ),
        ));
    }
    let terrain = terrain_at(board, tables, to);
    let Some(cost) = terrain.cost.of(kind) else {
        return Err(Refusal::new(
            "MP movement",
            format!("{to} ({}) is impassable to {kind:?}", terrain.id),
        ));
    };
    let side = board.hexside(from, to);
    let sides = &tables.terrain.hexsides;
    let base = if side.has(HexsideFeature::Road) {
        (sides.road * 2.0) as u8
    } else {
        cost * 2
    };
    let water = if side.has(HexsideFeature::Bridge) {
        sides.bridge.cost
    } else if side.has(HexsideFeature::Ford) {
        sides.ford.cost
    } else if side.has(HexsideFeature::Stream) {
        sides.stream.cost
    } else {
        0
    };
    Ok(base + water * 2)
}

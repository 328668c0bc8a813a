//! Charles the Bold's movement costs as pure functions of the board and the tables
//! (CtB 3.0 and the missing Summary Sheet, designer's after the spec's Appendix A-T):
//! the MP a stand of a terrain class pays to step into a hex. Turns, extra moves,
//! zones of control and groups come with the plugin.

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::hex::HexCoord;

use super::data::{RiverCrossing, Tables, TerrainClass};

/// The MP a stand of `class` pays to step from `from` into the adjacent `to`, or `None`
/// where it may not: off the map, terrain impassable to its class, a river crossed
/// where no bridge or ford the table allows is (CtB Summary Sheet, designer's). Along
/// a road hexside it pays the road's cost whatever the hex; otherwise the hex's cost
/// for its class; plus the climb into a higher hex for its class, and a stream's cost
/// where no bridge crosses it.
pub fn step_cost(
    tables: &Tables,
    board: &Board,
    class: TerrainClass,
    from: HexCoord,
    to: HexCoord,
) -> Option<u8> {
    if !board.contains(to) || !from.is_adjacent(to) {
        return None;
    }
    let t = &tables.terrain;
    let side = board.hexside(from, to);
    if side.has(HexsideFeature::River) {
        let crossed = t.hexsides.river.crossing.iter().any(|c| match c {
            RiverCrossing::Bridge => side.has(HexsideFeature::Bridge),
            RiverCrossing::Ford => side.has(HexsideFeature::Ford),
        });
        if !crossed {
            return None;
        }
    }
    let terrain = tables.terrain_type(board.terrain_name(to))?;
    let hex_cost = terrain.cost.of(class)?;
    let base = if side.has(HexsideFeature::Road) {
        t.hexsides.road
    } else {
        hex_cost
    };
    let climb = if board.elevation(to) > board.elevation(from) {
        t.climb.of(class)
    } else {
        0
    };
    let stream = if side.has(HexsideFeature::Stream) && !side.has(HexsideFeature::Bridge) {
        t.hexsides.stream.cost
    } else {
        0
    };
    Some(base + climb + stream)
}

//! Charles the Bold's movement costs as pure functions of the board and the tables
//! (CtB 3.0 and the missing Summary Sheet, designer's after the spec's Appendix A-T):
//! the MP a stand of a terrain class pays to step into a hex. Turns, extra moves,
//! zones of control and groups come with the plugin.

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::hex::HexCoord;

use super::data::{RiverCrossing, Tables, TerrainClass};

/// The MP a stand of `class` pays to step from `from` into the adjacent `to`, or `None`
/// where it may not: off the map, terrain impassable to its class, a river crossed
/// where no bridge or ford the table allows is, field defences its class may not cross
/// (CtB Summary Sheet, designer's). Along a road hexside it pays the road's cost
/// whatever the hex; otherwise the hex's cost for its class; plus the climb into a
/// higher hex for its class, a stream's cost where no bridge crosses it, and the field
/// defences' cost for its class, whichever way they are crossed.
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
    let defences = if side.has(HexsideFeature::FieldDefence) {
        t.hexsides.field_defence.cost.of(class)?
    } else {
        0
    };
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
    Some(base + climb + stream + defences)
}

/// Why a stand of `class` may not step from `from` into `to` (`step_cost` is `None`),
/// for its refusal: field defences its class may not cross, a river without a crossing
/// the table allows, or the terrain.
pub fn why_not(
    tables: &Tables,
    board: &Board,
    class: TerrainClass,
    from: HexCoord,
    to: HexCoord,
) -> String {
    let side = board.hexside(from, to);
    if !board.contains(to) {
        format!("{to} is off the map")
    } else if !from.is_adjacent(to) {
        format!("{to} is not next to {from}")
    } else if side.has(HexsideFeature::FieldDefence)
        && tables
            .terrain
            .hexsides
            .field_defence
            .cost
            .of(class)
            .is_none()
    {
        format!(
            "the field defences between {from} and {to} cannot be crossed by {} (only foot crosses them, +{} MP)",
            class_name(class),
            tables
                .terrain
                .hexsides
                .field_defence
                .cost
                .of(TerrainClass::CloseFoot)
                .unwrap_or(0)
        )
    } else if side.has(HexsideFeature::River) {
        format!("the river between {from} and {to} is crossed only at a bridge or ford")
    } else {
        format!(
            "{} may not enter the {} of {to}",
            class_name(class),
            board.terrain_name(to)
        )
    }
}

/// A terrain class as the refusals name it.
fn class_name(class: TerrainClass) -> &'static str {
    match class {
        TerrainClass::CloseFoot => "close-order foot",
        TerrainClass::LightFoot => "light foot",
        TerrainClass::Mounted => "mounted stands",
        TerrainClass::LightHorse => "light horse",
        TerrainClass::Guns => "guns",
    }
}

//! Where hexes are on screen: the centre of a `CCRR` hex in world units and the hex
//! under a world point. Shared by the drawing code and the input path.

use bevy::math::Vec2;

use crate::engine::hex::HexCoord;

/// The circumradius of a drawn hex, in world units.
pub const HEX_RADIUS: f32 = 40.0;

/// The centre of a hex: flat-topped, columns left to right, rows downwards, even
/// columns half a hex lower (the engine's convention; see `engine::hex`).
pub fn hex_center(hex: HexCoord) -> Vec2 {
    let w = HEX_RADIUS * 1.5;
    let h = HEX_RADIUS * 3f32.sqrt();
    let x = (hex.col - 1) as f32 * w;
    let y = -((hex.row - 1) as f32 * h + if hex.col % 2 == 0 { h / 2.0 } else { 0.0 });
    Vec2::new(x, y)
}

/// The hex of a `columns` × `rows` map under a world point, if any. A point is in the
/// hex whose centre is nearest (hexes are the Voronoi cells of their centres).
pub fn hex_at(point: Vec2, columns: i32, rows: i32) -> Option<HexCoord> {
    let w = HEX_RADIUS * 1.5;
    let h = HEX_RADIUS * 3f32.sqrt();
    let col = (point.x / w).round() as i32 + 1;
    let row = (-point.y / h).round() as i32 + 1;
    let mut best: Option<(f32, HexCoord)> = None;
    for c in col - 1..=col + 1 {
        for r in row - 1..=row + 1 {
            let hex = HexCoord::new(c, r);
            let d = hex_center(hex).distance_squared(point);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, hex));
            }
        }
    }
    let (d, hex) = best?;
    let inside = (1..=columns).contains(&hex.col) && (1..=rows).contains(&hex.row);
    (inside && d <= HEX_RADIUS * HEX_RADIUS).then_some(hex)
}

/// The world rectangle (min, max) that holds a whole map, with a margin of half a hex.
pub fn map_bounds(columns: i32, rows: i32) -> (Vec2, Vec2) {
    let h = HEX_RADIUS * 3f32.sqrt();
    let margin = HEX_RADIUS / 2.0;
    let min = Vec2::new(-HEX_RADIUS - margin, -((rows - 1) as f32 * h + h) - margin);
    let max = Vec2::new(
        (columns - 1) as f32 * HEX_RADIUS * 1.5 + HEX_RADIUS + margin,
        h / 2.0 + margin,
    );
    (min, max)
}

//! Hex tile geometry, the paper-like base every tile shares, shared feature
//! painters (trees, rocks, hachures), the list of terrain tiles and elevation overlays.

use crate::noise::{Rng, fbm, hash01};
use crate::raster::{Canvas, P, Rgba, p, polygon_sdf};
use crate::{tiles_built, tiles_land};

/// Tile image size: a flat-topped hex of circumradius 80 is 160 wide and
/// 80·√3 ≈ 138.56 tall, centred in a 160 × 140 image.
pub const TILE_W: usize = 160;
pub const TILE_H: usize = 140;
pub const HEX_R: f32 = 80.0;
pub const CENTRE: P = p(80.0, 70.0);
/// Centre-to-centre distance of neighbouring hexes (= 80·√3).
pub const HEX_PITCH: f32 = 138.564_06;

/// Colours shared by several tiles.
pub const CLEAR: Rgba = Rgba::rgb8(222, 216, 172);
pub const INK: Rgba = Rgba::rgb8(58, 48, 36);

/// The six corners of a flat-topped hex, at 0°, 60°, … (y down, so 60° is lower right).
pub fn hex_corners(centre: P, radius: f32) -> Vec<P> {
    (0..6).map(|i| centre.polar(radius, i as f32 * 60.0)).collect()
}

/// Signed distance to the tile's hex (negative inside).
pub fn hex_sdf(q: P) -> f32 {
    polygon_sdf(q, &hex_corners(CENTRE, HEX_R))
}

/// A fresh tile canvas filled with `base` mottled by soft noise, like ink that did
/// not print quite evenly on paper. Only smooth noise is used: per-pixel grain would
/// make every PNG several times larger.
pub fn paper_base(base: Rgba, seed: u32, mottle: f32) -> Canvas {
    let mut c = Canvas::new(TILE_W, TILE_H);
    for y in 0..TILE_H {
        for x in 0..TILE_W {
            let (fx, fy) = (x as f32, y as f32);
            let n = fbm(fx, fy, 28.0, 3, seed, None) - 0.5;
            c.px[y * TILE_W + x] = base.scaled(1.0 + n * mottle);
        }
    }
    c
}

/// Draws the thin darker hex edge and cuts the tile to the hex. The edge is stroked
/// 3 px wide on the hex boundary; the half outside is cut away, leaving 1.5 px.
pub fn finish_tile(c: &mut Canvas, edge: Rgba) {
    c.outline(&hex_corners(CENTRE, HEX_R), 3.0, edge);
    c.mask_alpha(|q| crate::raster::coverage(hex_sdf(q)));
}

/// The usual edge colour: the base darkened and a little warmer, like a printed grid.
pub fn edge_of(base: Rgba) -> Rgba {
    base.scaled(0.70).mix(INK, 0.15).with_alpha(0.85)
}

/// Points on a jittered triangular lattice inside the hex, at least `margin` from
/// its edge, so features fill the hex evenly but not mechanically.
pub fn scatter(spacing: f32, jitter: f32, margin: f32, seed: u32) -> Vec<P> {
    let row = spacing * 0.866;
    let mut out = Vec::new();
    let mut j = 0;
    let mut y = 0.0;
    while y < TILE_H as f32 {
        let shift = if j % 2 == 0 { 0.0 } else { spacing / 2.0 };
        let mut i = 0;
        let mut x = shift;
        while x < TILE_W as f32 {
            let jx = (hash01(i, j, seed) - 0.5) * 2.0 * jitter;
            let jy = (hash01(i, j, seed ^ 0x9e37) - 0.5) * 2.0 * jitter;
            let q = p(x + jx, y + jy);
            if hex_sdf(q) < -margin {
                out.push(q);
            }
            x += spacing;
            i += 1;
        }
        y += row;
        j += 1;
    }
    out
}

/// Colours of a tree crown: body, shadow side and highlight.
#[derive(Clone, Copy)]
pub struct TreeColours {
    pub crown: Rgba,
    pub dark: Rgba,
    pub light: Rgba,
}

/// A round tree crown seen from above, lit from the upper left: a cast shadow, the
/// crown, a lighter top-left cap and a thin dark rim, as printed maps draw them.
pub fn tree(c: &mut Canvas, at: P, r: f32, col: TreeColours) {
    c.circle(at.add(p(r * 0.35, r * 0.4)), r, col.dark.with_alpha(0.45));
    c.circle(at, r, col.crown);
    c.circle(at.add(p(-r * 0.28, -r * 0.3)), r * 0.55, col.light.with_alpha(0.55));
    c.ring(at, r - 0.3, 0.8, col.dark.with_alpha(0.55));
}

/// A lumpy tree clump: a few overlapping crowns, for woods.
pub fn clump(c: &mut Canvas, at: P, r: f32, col: TreeColours, rng: &mut Rng) {
    let lobes: Vec<(P, f32)> = (0..3)
        .map(|k| {
            let a = k as f32 * 120.0 + rng.range(0.0, 60.0);
            (at.polar(r * 0.45, a), r * rng.range(0.6, 0.75))
        })
        .collect();
    for (q, rr) in &lobes {
        c.circle(q.add(p(rr * 0.4, rr * 0.45)), *rr, col.dark.with_alpha(0.35));
    }
    for (q, rr) in &lobes {
        c.circle(*q, *rr, col.crown);
        c.ring(*q, rr - 0.3, 0.8, col.dark.with_alpha(0.45));
    }
    for (q, rr) in &lobes {
        c.circle(q.add(p(-rr * 0.3, -rr * 0.3)), rr * 0.45, col.light.with_alpha(0.5));
    }
}

/// A small rock: an irregular polygon with a shadow and a lit facet.
pub fn rock(c: &mut Canvas, at: P, r: f32, body: Rgba, rng: &mut Rng) {
    let n = 6;
    let pts: Vec<P> = (0..n)
        .map(|k| at.polar(r * rng.range(0.7, 1.1), k as f32 * 360.0 / n as f32 + rng.range(-15.0, 15.0)))
        .collect();
    let shadow: Vec<P> = pts.iter().map(|q| q.add(p(r * 0.3, r * 0.35))).collect();
    c.polygon(&shadow, INK.with_alpha(0.3));
    c.polygon(&pts, body);
    let lit: Vec<P> = pts.iter().map(|q| at.lerp(*q, 0.55).add(p(-r * 0.2, -r * 0.25))).collect();
    c.polygon(&lit, body.scaled(1.18).with_alpha(0.8));
    c.outline(&pts, 0.7, body.scaled(0.55).with_alpha(0.7));
}

/// Fine stipple: tiny dark dots scattered over the hex.
pub fn stipple(c: &mut Canvas, count: usize, r: f32, col: Rgba, seed: u32) {
    let mut rng = Rng::new(seed);
    for _ in 0..count {
        let q = p(rng.range(4.0, 156.0), rng.range(4.0, 136.0));
        if hex_sdf(q) < -2.0 {
            c.circle(q, r * rng.range(0.7, 1.2), col);
        }
    }
}

/// Short ticks along a polyline on the side given by `side` (+1 = left of travel
/// in screen coordinates, -1 = right): the hachures of slopes, banks and ramparts.
pub fn hachures(c: &mut Canvas, path: &[P], side: f32, spacing: f32, len: f32, width: f32, col: Rgba) {
    let mut carry = spacing / 2.0;
    let mut n = 0;
    for s in path.windows(2) {
        let d = s[1].sub(s[0]);
        let l = d.len();
        if l <= 0.0 {
            continue;
        }
        let dir = d.mul(1.0 / l);
        let normal = p(dir.y, -dir.x).mul(side);
        let mut t = carry;
        while t < l {
            let base = s[0].add(dir.mul(t));
            // Alternate long and short ticks, the engraver's convention.
            let k = if n % 2 == 0 { 1.0 } else { 0.6 };
            c.line(base, base.add(normal.mul(len * k)), width, col);
            t += spacing;
            n += 1;
        }
        carry = t - l;
    }
}

/// A rectangle of half sizes (hw, hh) rotated by `angle_deg` about its centre.
pub fn rect(centre: P, hw: f32, hh: f32, angle_deg: f32) -> Vec<P> {
    let (s, co) = angle_deg.to_radians().sin_cos();
    [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        .iter()
        .map(|&(x, y)| p(centre.x + x * co - y * s, centre.y + x * s + y * co))
        .collect()
}

/// A function that paints one whole image.
pub type Painter = fn() -> Canvas;

/// Every terrain tile: file stem and painter.
pub fn terrain_tiles() -> Vec<(&'static str, Painter)> {
    vec![
        ("clear", clear as Painter),
        ("road", clear),
        ("woods", tiles_land::woods),
        ("coppice", tiles_land::coppice),
        ("olive_grove", tiles_land::olive_grove),
        ("orchard", tiles_land::orchard),
        ("vineyard", tiles_land::vineyard),
        ("palm_grove", tiles_land::palm_grove),
        ("broken", tiles_land::broken),
        ("rough", tiles_land::rough),
        ("impassable", tiles_land::impassable),
        ("ravine", tiles_land::ravine),
        ("marsh", tiles_land::marsh),
        ("mud", tiles_land::mud),
        ("dune", tiles_land::dune),
        ("lake", tiles_land::lake),
        ("water", tiles_land::water),
        ("fields", tiles_built::fields),
        ("hamlet", tiles_built::hamlet),
        ("village", tiles_built::village),
        ("town", tiles_built::town),
        ("causeway", tiles_built::causeway),
        ("fortification", tiles_built::fortification),
        ("fort", tiles_built::fort),
    ]
}

/// Open ground: just the mottled paper colour.
pub fn clear() -> Canvas {
    let mut c = paper_base(CLEAR, 11, 0.07);
    finish_tile(&mut c, edge_of(CLEAR));
    c
}

/// A hill-height overlay: translucent ochre-brown over the whole hex with a faint
/// stipple, darker for higher levels, drawn over whatever terrain tile is there.
pub fn elevation(level: u32) -> Canvas {
    let alpha = [0.18, 0.30, 0.42][(level as usize - 1).min(2)];
    let tone = Rgba::rgb8(150, 104, 52);
    let mut c = Canvas::new(TILE_W, TILE_H);
    for y in 0..TILE_H {
        for x in 0..TILE_W {
            let n = fbm(x as f32, y as f32, 30.0, 2, 700 + level, None) - 0.5;
            c.px[y * TILE_W + x] = tone.with_alpha(alpha * (1.0 + n * 0.25));
        }
    }
    stipple(&mut c, 120 + 60 * level as usize, 0.75, Rgba::rgb8(96, 62, 30).with_alpha(0.35), 710 + level);
    c.mask_alpha(|q| crate::raster::coverage(hex_sdf(q)));
    c
}

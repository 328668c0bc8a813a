//! Tiles of man-made terrain: ploughed fields, hamlet, village, town, causeway,
//! field fortification and fort.

use crate::noise::Rng;
use crate::raster::{Canvas, P, Rgba, coverage, p, star};
use crate::tiles::{
    CENTRE, CLEAR, INK, TILE_H, TILE_W, edge_of, finish_tile, hachures, hex_sdf, paper_base, rect,
};
use crate::tiles_land::marsh_painted;

const STREET: Rgba = Rgba::rgb8(204, 186, 142);
const ROOF: Rgba = Rgba::rgb8(168, 84, 60);
const GARDEN: crate::tiles::TreeColours = crate::tiles::TreeColours {
    crown: Rgba::rgb8(118, 142, 82),
    dark: Rgba::rgb8(62, 84, 48),
    light: Rgba::rgb8(160, 180, 112),
};

pub fn fields() -> Canvas {
    let base = Rgba::rgb8(214, 204, 156);
    let mut c = paper_base(base, 201, 0.06);
    // Parcels are the Voronoi cells of a few seeds; each is ploughed in its own
    // direction and crop colour, and hedges run along the cell borders.
    let seeds = [p(46.0, 36.0), p(112.0, 30.0), p(80.0, 78.0), p(30.0, 100.0), p(128.0, 100.0), p(84.0, 128.0)];
    let angles = [20.0f32, 100.0, 60.0, 150.0, 0.0, 120.0];
    let crops = [
        Rgba::rgb8(196, 170, 112),
        Rgba::rgb8(178, 184, 118),
        Rgba::rgb8(206, 186, 124),
        Rgba::rgb8(164, 140, 98),
        Rgba::rgb8(190, 192, 128),
        Rgba::rgb8(182, 156, 106),
    ];
    let hedge = Rgba::rgb8(104, 120, 70);
    let period = 4.5;
    for y in 0..TILE_H {
        for x in 0..TILE_W {
            let q = p(x as f32 + 0.5, y as f32 + 0.5);
            let mut d: Vec<(f32, usize)> = seeds.iter().enumerate().map(|(i, s)| (q.sub(*s).len(), i)).collect();
            d.sort_by(|a, b| a.0.total_cmp(&b.0));
            let cell = d[0].1;
            let (s, co) = angles[cell].to_radians().sin_cos();
            let u = (q.x * co + q.y * s) / period;
            let stripe = ((u - u.floor()) - 0.5).abs() * period; // distance to furrow centre
            let i = y * TILE_W + x;
            c.px[i] = c.px[i].mix(crops[cell], 0.85);
            let furrow = coverage(stripe - 1.0) * 0.6;
            c.px[i] = c.px[i].mix(crops[cell].scaled(0.78), furrow);
            // Half the difference of the two nearest distances approximates the
            // distance to the border between them.
            let border = (d[1].0 - d[0].0) / 2.0;
            let k = coverage(border - 0.8);
            c.px[i] = c.px[i].mix(hedge, k * 0.75);
        }
    }
    finish_tile(&mut c, edge_of(base));
    c
}

/// A building seen from above: a cast shadow, a pitched roof with one shaded
/// half, and a ridge line.
fn house(c: &mut Canvas, at: P, hw: f32, hh: f32, angle: f32, roof: Rgba) {
    c.polygon(&rect(at.add(p(1.6, 1.8)), hw, hh, angle), INK.with_alpha(0.35));
    c.polygon(&rect(at, hw, hh, angle), roof);
    let (s, co) = angle.to_radians().sin_cos();
    let half_off = p(-s, co).mul(hh / 2.0);
    c.polygon(&rect(at.add(half_off), hw, hh / 2.0, angle), roof.scaled(0.78));
    c.line(at.add(p(-co, -s).mul(hw)), at.add(p(co, s).mul(hw)), 0.8, roof.scaled(0.6));
    c.outline(&rect(at, hw, hh, angle), 0.8, roof.scaled(0.5));
}

/// Lays out a settlement: streets first, then houses that keep off the streets and
/// off each other, so the roofs read as separate buildings.
struct Settlement {
    streets: Vec<(P, P, f32)>,
    taken: Vec<(P, f32)>,
    rng: Rng,
}

impl Settlement {
    fn new(seed: u32) -> Settlement {
        Settlement { streets: Vec::new(), taken: Vec::new(), rng: Rng::new(seed) }
    }

    /// Records a street; `paint_streets` draws them all.
    fn street(&mut self, a: P, b: P, width: f32) {
        self.streets.push((a, b, width));
    }

    /// All street edges first, then all street surfaces, so crossings show no
    /// edge lines across the roadway.
    fn paint_streets(&self, c: &mut Canvas, square: Option<f32>) {
        for &(a, b, w) in &self.streets {
            c.line(a, b, w + 1.6, STREET.scaled(0.8));
        }
        if let Some(r) = square {
            c.circle(CENTRE, r + 0.8, STREET.scaled(0.8));
        }
        for &(a, b, w) in &self.streets {
            c.line(a, b, w, STREET);
        }
        if let Some(r) = square {
            c.circle(CENTRE, r, STREET);
        }
    }

    /// Whether something of radius `r` at `at` keeps off the streets, the houses
    /// already placed and the hex edge.
    fn fits(&self, at: P, r: f32) -> bool {
        self.streets.iter().all(|&(a, b, w)| crate::raster::dist_to_segment(at, a, b) > r + w / 2.0 + 1.0)
            && self.taken.iter().all(|&(q, rr)| q.sub(at).len() > (rr + r) * 0.8)
            && hex_sdf(at) < -(r + 3.0)
    }

    /// Places a house if it fits; returns whether it did.
    fn house(&mut self, c: &mut Canvas, at: P, hw: f32, hh: f32, angle: f32, roof: Rgba) -> bool {
        let reach = (hw * hw + hh * hh).sqrt();
        let clear_of_streets = self
            .streets
            .iter()
            .all(|&(a, b, w)| crate::raster::dist_to_segment(at, a, b) > hh + w / 2.0 + 1.0);
        let clear_of_houses = self.taken.iter().all(|&(q, r)| q.sub(at).len() > (r + reach) * 0.8);
        if hex_sdf(at) < -(reach + 3.0) && clear_of_streets && clear_of_houses {
            house(c, at, hw, hh, angle, roof);
            self.taken.push((at, reach));
            true
        } else {
            false
        }
    }

    /// Houses facing the street a–b on both sides, `rows` deep.
    fn line_street(&mut self, c: &mut Canvas, a: P, b: P, count: usize, rows: usize, roof: Rgba) {
        let d = b.sub(a);
        let angle = d.y.atan2(d.x).to_degrees();
        let normal = p(-d.y, d.x).mul(1.0 / d.len());
        let width = self.streets.iter().map(|s| s.2).fold(4.0, f32::max);
        for row in 0..rows {
            for side in [-1.0f32, 1.0] {
                for i in 0..count {
                    let rng = &mut self.rng;
                    let t = (i as f32 + 0.5 + rng.range(-0.15, 0.15)) / count as f32;
                    let hw = rng.range(4.5, 6.5);
                    let hh = rng.range(3.4, 4.2);
                    let off = width / 2.0 + 2.0 + hh + row as f32 * 10.0;
                    let tone = roof.scaled(rng.range(0.88, 1.08));
                    self.house(c, a.lerp(b, t).add(normal.mul(side * off)), hw, hh, angle, tone);
                }
            }
        }
    }
}

/// Where the flat-topped hex's hexside in direction `deg` (30, 90, …) has its midpoint.
fn side_mid(deg: f32) -> P {
    CENTRE.polar(69.28, deg)
}

pub fn hamlet() -> Canvas {
    let mut c = paper_base(CLEAR, 211, 0.07);
    let mut town = Settlement::new(212);
    town.street(side_mid(150.0), CENTRE.add(p(4.0, -4.0)), 4.0);
    town.paint_streets(&mut c, None);
    town.house(&mut c, CENTRE.add(p(7.0, 10.0)), 9.0, 5.0, -30.0, ROOF);
    town.house(&mut c, CENTRE.add(p(-14.0, -8.0)), 7.5, 4.6, -30.0, ROOF.scaled(0.92));
    for q in [p(104.0, 58.0), p(110.0, 68.0), p(60.0, 46.0)] {
        crate::tiles::tree(&mut c, q, 4.5, GARDEN);
    }
    finish_tile(&mut c, edge_of(CLEAR));
    c
}

pub fn village() -> Canvas {
    let mut c = paper_base(CLEAR, 221, 0.07);
    let mut town = Settlement::new(222);
    let mut rng = Rng::new(225);
    let (n, s) = (side_mid(270.0), side_mid(90.0));
    let lane_end = side_mid(30.0).lerp(CENTRE, 0.3);
    town.street(n, CENTRE, 5.0);
    town.street(CENTRE, s, 5.0);
    town.street(CENTRE, lane_end, 4.0);
    town.paint_streets(&mut c, None);
    town.line_street(&mut c, n.lerp(CENTRE, 0.25), CENTRE, 3, 1, ROOF);
    town.line_street(&mut c, CENTRE, s.lerp(CENTRE, 0.25), 3, 1, ROOF);
    town.line_street(&mut c, CENTRE, lane_end, 2, 1, ROOF);
    // Back-lot barns and a few garden trees round the edge of the village.
    for q in crate::tiles::scatter(15.0, 4.0, 14.0, 223) {
        let r = q.sub(CENTRE).len();
        if r < 34.0 && rng.next() < 0.6 {
            let tone = ROOF.scaled(rng.range(0.82, 0.98));
            town.house(&mut c, q, rng.range(3.8, 5.2), rng.range(2.8, 3.4), 90.0 * (rng.next() * 2.0).floor(), tone);
        }
    }
    for q in crate::tiles::scatter(13.0, 4.0, 12.0, 224) {
        let r = q.sub(CENTRE).len();
        if (26.0..44.0).contains(&r) && rng.next() < 0.35 && town.fits(q, 5.0) {
            crate::tiles::tree(&mut c, q, rng.range(3.6, 4.8), GARDEN);
            town.taken.push((q, 4.5));
        }
    }
    finish_tile(&mut c, edge_of(CLEAR));
    c
}

pub fn town() -> Canvas {
    let base = Rgba::rgb8(214, 204, 166);
    let mut c = paper_base(base, 231, 0.07);
    let mut town = Settlement::new(232);
    let mut rng = Rng::new(233);
    let ends = [270.0, 90.0, 210.0, 30.0];
    // The built-up area: a faint irregular tint under the streets and houses, as
    // printed maps shade a town's extent.
    let blob: Vec<P> = (0..24)
        .map(|k| CENTRE.polar(rng.range(46.0, 54.0), k as f32 * 15.0))
        .collect();
    c.polygon(&blob, Rgba::rgb8(196, 172, 146).with_alpha(0.55));
    // The market square with its grey-roofed church, laid first so houses keep off.
    town.taken.push((CENTRE, 10.0));
    for e in ends {
        town.street(CENTRE, side_mid(e), 5.0);
    }
    town.paint_streets(&mut c, Some(12.0));
    for e in ends {
        town.line_street(&mut c, CENTRE.lerp(side_mid(e), 0.2), side_mid(e).lerp(CENTRE, 0.1), 5, 2, ROOF);
    }
    // Garden trees in the gaps left between the blocks.
    for q in crate::tiles::scatter(11.0, 3.0, 10.0, 234) {
        if q.sub(CENTRE).len() < 52.0 && town.fits(q, 3.5) {
            crate::tiles::tree(&mut c, q, rng.range(3.0, 4.0), GARDEN);
            town.taken.push((q, 3.5));
        }
    }
    let grey = Rgba::rgb8(132, 128, 126);
    house(&mut c, CENTRE.add(p(1.0, -1.0)), 7.0, 3.0, 0.0, grey);
    house(&mut c, CENTRE.add(p(-2.0, -1.0)), 2.2, 5.5, 0.0, grey);
    finish_tile(&mut c, edge_of(base));
    c
}

pub fn causeway() -> Canvas {
    let base = Rgba::rgb8(184, 198, 166);
    let mut c = paper_base(base, 241, 0.10);
    marsh_painted(&mut c);
    // The raised road runs north–south through the hex, hexside midpoint to hexside
    // midpoint, with embankment hachures down both sides.
    let top = p(80.0, -2.0);
    let bottom = p(80.0, 142.0);
    let earth = Rgba::rgb8(150, 120, 80);
    c.line(top, bottom, 24.0, base.with_alpha(1.0));
    hachures(&mut c, &[p(72.0, -2.0), p(72.0, 142.0)], 1.0, 3.0, 6.0, 1.1, earth);
    hachures(&mut c, &[p(88.0, -2.0), p(88.0, 142.0)], -1.0, 3.0, 6.0, 1.1, earth);
    c.line(top, bottom, 15.0, earth.scaled(0.85));
    c.line(top, bottom, 12.0, STREET);
    c.line(top.add(p(-3.0, 0.0)), bottom.add(p(-3.0, 0.0)), 0.8, STREET.scaled(0.85));
    c.line(top.add(p(3.0, 0.0)), bottom.add(p(3.0, 0.0)), 0.8, STREET.scaled(0.85));
    finish_tile(&mut c, edge_of(base));
    c
}

/// Draws the outline of a union of polygons: all strokes first, then all fills on
/// top, so inner edges vanish and only the outer outline remains.
fn union_with_outline(c: &mut Canvas, shapes: &[Vec<P>], stroke: f32, line: Rgba, fill: Rgba) {
    for s in shapes {
        c.outline(s, stroke, line);
    }
    for s in shapes {
        c.polygon(s, fill);
    }
}

pub fn fortification() -> Canvas {
    let mut c = paper_base(CLEAR, 251, 0.07);
    let earth = Rgba::rgb8(150, 112, 70);
    let trace = star(CENTRE, 44.0, 28.0, 6);
    // Ditch, then rampart; hachures fall outward from the rampart into the ditch.
    c.outline(&trace, 12.0, Rgba::rgb8(170, 150, 110).with_alpha(0.7));
    let mut closed = trace.clone();
    closed.push(trace[0]);
    // The star is listed clockwise on screen, so outward is to the left of travel.
    hachures(&mut c, &closed, 1.0, 2.6, 6.0, 1.0, earth.scaled(0.8));
    c.outline(&trace, 4.0, earth);
    c.outline(&trace, 1.0, INK.with_alpha(0.7));
    let inner = star(CENTRE, 38.0, 24.0, 6);
    c.polygon(&inner, Rgba::rgb8(208, 198, 156));
    finish_tile(&mut c, edge_of(CLEAR));
    c
}

pub fn fort() -> Canvas {
    let mut c = paper_base(CLEAR, 261, 0.07);
    let half = 24.0;
    let mut shapes = vec![rect(CENTRE, half, half, 0.0)];
    for k in 0..4 {
        // A diamond bastion on each corner of the square curtain wall.
        let corner = CENTRE.polar(half * 1.414, 45.0 + 90.0 * k as f32);
        shapes.push(rect(corner, 10.0, 10.0, 45.0));
    }
    let glacis: Vec<Vec<P>> = shapes
        .iter()
        .map(|s| s.iter().map(|q| CENTRE.lerp(*q, 1.28)).collect())
        .collect();
    union_with_outline(&mut c, &glacis, 3.0, Rgba::rgb8(170, 150, 110), Rgba::rgb8(196, 182, 140));
    union_with_outline(&mut c, &shapes, 3.0, INK, Rgba::rgb8(176, 160, 132));
    // Parade ground and a few buildings inside the walls.
    c.polygon(&rect(CENTRE, half - 7.0, half - 7.0, 0.0), Rgba::rgb8(214, 202, 164));
    for (dx, dy, w, h) in [(-8.0, -9.0, 7.0, 3.0), (8.0, 8.0, 7.0, 3.0), (10.0, -7.0, 3.0, 6.0)] {
        house(&mut c, CENTRE.add(p(dx, dy)), w, h, 0.0, Rgba::rgb8(150, 90, 66));
    }
    finish_tile(&mut c, edge_of(CLEAR));
    c
}

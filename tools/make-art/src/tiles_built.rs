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
    let period = 5.0;
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
            let furrow = coverage(stripe - 1.0) * 0.35;
            c.px[i] = c.px[i].mix(crops[cell].scaled(0.78), furrow);
            // Half the difference of the two nearest distances approximates the
            // distance to the border between them.
            let border = (d[1].0 - d[0].0) / 2.0;
            let k = coverage(border - 1.1);
            c.px[i] = c.px[i].mix(hedge, k * 0.9);
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

/// A street: a pale band with faint darker edges.
fn street(c: &mut Canvas, path: &[P], width: f32) {
    c.polyline(path, width + 1.6, STREET.scaled(0.8));
    c.polyline(path, width, STREET);
}

/// Houses along both sides of the street a–b, alternating sides, skipping any
/// that would poke past the hex edge.
fn houses_along(c: &mut Canvas, a: P, b: P, count: usize, offset: f32, rng: &mut Rng, roof: Rgba) {
    let d = b.sub(a);
    let angle = d.y.atan2(d.x).to_degrees();
    let normal = p(-d.y, d.x).mul(1.0 / d.len());
    for i in 0..count {
        let t = (i as f32 + 0.5) / count as f32;
        let side = if i % 2 == 0 { 1.0 } else { -1.0 };
        let hw = rng.range(5.0, 8.0);
        let hh = rng.range(3.5, 4.6);
        let at = a.lerp(b, t).add(normal.mul(side * (offset + hh)));
        if hex_sdf(at) < -(hw + 4.0) {
            let tone = roof.scaled(rng.range(0.9, 1.08));
            house(c, at, hw, hh, angle, tone);
        }
    }
}

/// Where the flat-topped hex's hexside in direction `deg` (30, 90, …) has its midpoint.
fn side_mid(deg: f32) -> P {
    CENTRE.polar(69.28, deg)
}

pub fn hamlet() -> Canvas {
    let mut c = paper_base(CLEAR, 211, 0.07);
    let lane = [side_mid(150.0), CENTRE.add(p(-4.0, 6.0)), CENTRE.add(p(10.0, -8.0))];
    street(&mut c, &lane, 4.0);
    house(&mut c, CENTRE.add(p(4.0, 14.0)), 8.0, 4.6, -40.0, ROOF);
    house(&mut c, CENTRE.add(p(-14.0, -8.0)), 6.5, 4.2, -40.0, ROOF.scaled(0.92));
    finish_tile(&mut c, edge_of(CLEAR));
    c
}

pub fn village() -> Canvas {
    let mut c = paper_base(CLEAR, 221, 0.07);
    let mut rng = Rng::new(222);
    let (n, s) = (side_mid(270.0), side_mid(90.0));
    let bend = CENTRE.add(p(3.0, 0.0));
    street(&mut c, &[n, bend, s], 5.0);
    street(&mut c, &[bend, side_mid(30.0).lerp(bend, 0.35)], 4.0);
    houses_along(&mut c, n.lerp(bend, 0.2), bend, 4, 5.0, &mut rng, ROOF);
    houses_along(&mut c, bend, s.lerp(bend, 0.2), 4, 5.0, &mut rng, ROOF);
    houses_along(&mut c, bend.add(p(10.0, 6.0)), side_mid(30.0).lerp(bend, 0.4), 2, 4.5, &mut rng, ROOF);
    finish_tile(&mut c, edge_of(CLEAR));
    c
}

pub fn town() -> Canvas {
    let base = Rgba::rgb8(214, 204, 166);
    let mut c = paper_base(base, 231, 0.07);
    let mut rng = Rng::new(232);
    let ends = [30.0, 150.0, 270.0, 90.0, 210.0, 330.0];
    for e in ends {
        street(&mut c, &[CENTRE, side_mid(e)], 5.0);
    }
    // Dense blocks along every street, two rows deep.
    for e in ends {
        let a = CENTRE.lerp(side_mid(e), 0.22);
        let b = side_mid(e).lerp(CENTRE, 0.08);
        houses_along(&mut c, a, b, 5, 4.5, &mut rng, ROOF);
        houses_along(&mut c, b, a, 5, 4.5, &mut rng, ROOF.scaled(0.95));
        let mid = e + 30.0;
        let fill = CENTRE.polar(38.0, mid);
        house(&mut c, fill, 8.0, 5.0, mid + 90.0, ROOF.scaled(0.9));
    }
    // The market square and its church, grey-roofed so it stands out.
    c.circle(CENTRE, 10.0, STREET);
    let church = CENTRE.add(p(0.0, -1.0));
    house(&mut c, church, 8.0, 3.4, 0.0, Rgba::rgb8(132, 128, 126));
    house(&mut c, church.add(p(-3.0, 0.0)), 2.4, 6.5, 0.0, Rgba::rgb8(132, 128, 126));
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

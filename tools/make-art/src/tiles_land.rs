//! Natural terrain tiles: woods and groves, rocky ground, crags, ravines, marsh,
//! mud, dunes and water.

use crate::noise::{Rng, fbm};
use crate::raster::{Canvas, P, Rgba, p};
use crate::tiles::{
    CENTRE, INK, TILE_H, TreeColours, clump, edge_of, finish_tile, hachures, hex_sdf,
    paper_base, rock, scatter, stipple, tree,
};

const FOREST: TreeColours = TreeColours {
    crown: Rgba::rgb8(118, 142, 82),
    dark: Rgba::rgb8(62, 84, 48),
    light: Rgba::rgb8(160, 180, 112),
};

pub fn woods() -> Canvas {
    let base = Rgba::rgb8(150, 166, 108);
    let mut c = paper_base(base, 21, 0.10);
    let mut rng = Rng::new(22);
    let mut spots = scatter(15.0, 4.0, 8.0, 23);
    // Draw from the top down so lower crowns overlap upper ones, as seen from above
    // with light from the upper left.
    spots.sort_by(|a, b| a.y.total_cmp(&b.y));
    for q in spots {
        let r = rng.range(8.0, 10.0);
        clump(&mut c, q, r, FOREST, &mut rng);
    }
    finish_tile(&mut c, edge_of(base));
    c
}

pub fn coppice() -> Canvas {
    let base = Rgba::rgb8(206, 208, 158);
    let mut c = paper_base(base, 31, 0.07);
    stipple(&mut c, 90, 0.8, Rgba::rgb8(120, 136, 80).with_alpha(0.5), 32);
    let mut rng = Rng::new(33);
    let mut spots = scatter(27.0, 8.0, 9.0, 34);
    spots.sort_by(|a, b| a.y.total_cmp(&b.y));
    for q in spots {
        tree(&mut c, q, rng.range(4.5, 6.5), FOREST);
    }
    finish_tile(&mut c, edge_of(base));
    c
}

/// Rows of trees on a square or staggered grid, as groves and orchards are planted.
fn planted_rows(c: &mut Canvas, spacing: f32, stagger: bool, r: f32, col: TreeColours) -> Vec<P> {
    let mut planted = Vec::new();
    let rows = (TILE_H as f32 / spacing) as i32 + 1;
    for j in 0..=rows {
        let y = CENTRE.y + (j - rows / 2) as f32 * spacing;
        let shift = if stagger && j % 2 == 1 { spacing / 2.0 } else { 0.0 };
        for i in -8..=8 {
            let q = p(CENTRE.x + i as f32 * spacing + shift, y);
            if hex_sdf(q) < -(r + 4.0) {
                planted.push(q);
            }
        }
    }
    for q in &planted {
        tree(c, *q, r, col);
    }
    planted
}

pub fn olive_grove() -> Canvas {
    let base = Rgba::rgb8(216, 206, 162);
    let mut c = paper_base(base, 41, 0.07);
    let olive = TreeColours {
        crown: Rgba::rgb8(146, 152, 108),
        dark: Rgba::rgb8(88, 92, 62),
        light: Rgba::rgb8(188, 190, 150),
    };
    planted_rows(&mut c, 16.0, true, 4.6, olive);
    finish_tile(&mut c, edge_of(base));
    c
}

pub fn orchard() -> Canvas {
    let base = Rgba::rgb8(204, 212, 160);
    let mut c = paper_base(base, 51, 0.07);
    let fruit_tree = TreeColours {
        crown: Rgba::rgb8(104, 142, 78),
        dark: Rgba::rgb8(56, 84, 44),
        light: Rgba::rgb8(150, 182, 108),
    };
    let trees = planted_rows(&mut c, 17.0, false, 5.4, fruit_tree);
    // A few fruit dots tell an orchard from a grove at a glance.
    for (k, q) in trees.iter().enumerate() {
        let red = Rgba::rgb8(176, 70, 48);
        c.circle(q.add(p(1.5, 1.0)), 1.1, red);
        if k % 2 == 0 {
            c.circle(q.add(p(-2.0, 1.8)), 1.0, red);
        }
    }
    finish_tile(&mut c, edge_of(base));
    c
}

pub fn vineyard() -> Canvas {
    let base = Rgba::rgb8(218, 204, 158);
    let mut c = paper_base(base, 61, 0.07);
    let vine = Rgba::rgb8(96, 104, 60);
    let stake = Rgba::rgb8(110, 70, 84);
    let spacing = 9.0;
    for j in -8..=8 {
        let y = CENTRE.y + j as f32 * spacing;
        let shift = if j % 2 == 0 { 0.0 } else { 4.5 };
        for i in -12..=12 {
            let x = CENTRE.x + i as f32 * 9.0 + shift;
            let (a, b) = (p(x - 3.0, y), p(x + 3.0, y));
            if hex_sdf(a) < -5.0 && hex_sdf(b) < -5.0 {
                c.line(a.add(p(0.6, 0.8)), b.add(p(0.6, 0.8)), 2.4, INK.with_alpha(0.2));
                c.line(a, b, 2.4, vine);
                c.circle(p(x, y), 1.0, stake);
            }
        }
    }
    finish_tile(&mut c, edge_of(base));
    c
}

pub fn palm_grove() -> Canvas {
    let base = Rgba::rgb8(226, 210, 162);
    let mut c = paper_base(base, 71, 0.08);
    let frond = Rgba::rgb8(92, 122, 68);
    let mut rng = Rng::new(72);
    let mut spots = scatter(22.0, 6.0, 10.0, 73);
    spots.sort_by(|a, b| a.y.total_cmp(&b.y));
    for q in spots {
        let r = rng.range(6.0, 8.0);
        let turn = rng.range(0.0, 60.0);
        for k in 0..7 {
            let a = turn + k as f32 * 360.0 / 7.0;
            c.line(q.add(p(2.5, 3.0)), q.add(p(2.5, 3.0)).polar(r, a), 2.0, INK.with_alpha(0.18));
        }
        for k in 0..7 {
            let a = turn + k as f32 * 360.0 / 7.0;
            // Each frond droops: a bent two-segment stroke.
            let mid = q.polar(r * 0.6, a);
            let tip = mid.polar(r * 0.45, a + 25.0);
            c.polyline(&[q, mid, tip], 1.9, frond);
        }
        c.circle(q, 1.6, Rgba::rgb8(120, 88, 52));
    }
    finish_tile(&mut c, edge_of(base));
    c
}

pub fn broken() -> Canvas {
    let base = Rgba::rgb8(212, 198, 152);
    let mut c = paper_base(base, 81, 0.09);
    stipple(&mut c, 420, 0.8, Rgba::rgb8(100, 80, 52).with_alpha(0.6), 82);
    let mut rng = Rng::new(83);
    for q in scatter(19.0, 7.0, 8.0, 84) {
        rock(&mut c, q, rng.range(2.6, 4.0), Rgba::rgb8(168, 152, 122), &mut rng);
    }
    finish_tile(&mut c, edge_of(base));
    c
}

pub fn rough() -> Canvas {
    let base = Rgba::rgb8(196, 176, 134);
    let mut c = paper_base(base, 91, 0.12);
    stipple(&mut c, 600, 0.85, Rgba::rgb8(90, 68, 44).with_alpha(0.65), 92);
    let mut rng = Rng::new(93);
    for q in scatter(15.0, 5.0, 8.0, 94) {
        rock(&mut c, q, rng.range(3.4, 5.6), Rgba::rgb8(156, 142, 118), &mut rng);
    }
    finish_tile(&mut c, edge_of(base));
    c
}

/// One crag: a peak with a lit west face and a shaded east face, outlined in ink.
fn crag(c: &mut Canvas, at: P, w: f32, h: f32, rng: &mut Rng) {
    let peak = at.add(p(rng.range(-w * 0.2, w * 0.2), -h));
    let left = at.add(p(-w, 0.0));
    let right = at.add(p(w, 0.0));
    let foot = at.add(p(rng.range(-w * 0.2, w * 0.3), h * 0.15));
    c.polygon(&[left.add(p(3.0, 3.0)), peak.add(p(3.0, 3.0)), right.add(p(3.0, 3.0))], INK.with_alpha(0.25));
    c.polygon(&[left, peak, foot], Rgba::rgb8(190, 186, 176));
    c.polygon(&[peak, right, foot], Rgba::rgb8(118, 112, 104));
    c.polyline(&[left, peak, right], 1.2, INK.with_alpha(0.8));
    c.line(peak, foot, 0.8, INK.with_alpha(0.5));
}

pub fn impassable() -> Canvas {
    let base = Rgba::rgb8(160, 154, 144);
    let mut c = paper_base(base, 101, 0.14);
    stipple(&mut c, 200, 0.8, INK.with_alpha(0.45), 102);
    let mut rng = Rng::new(103);
    let mut spots = scatter(26.0, 5.0, 14.0, 104);
    spots.sort_by(|a, b| a.y.total_cmp(&b.y));
    for q in spots {
        let w = rng.range(9.0, 13.0);
        crag(&mut c, q.add(p(0.0, 7.0)), w, w * rng.range(1.1, 1.5), &mut rng);
    }
    finish_tile(&mut c, Rgba::rgb8(92, 86, 78).with_alpha(0.9));
    c
}

pub fn ravine() -> Canvas {
    let base = Rgba::rgb8(204, 190, 146);
    let mut c = paper_base(base, 111, 0.08);
    // The cleft runs from the north-west hexside to the south-east one, wandering.
    let start = CENTRE.polar(69.28, 210.0);
    let end = CENTRE.polar(69.28, 30.0);
    let mut rng = Rng::new(112);
    let n = 12;
    let path: Vec<P> = (0..=n)
        .map(|k| {
            let t = k as f32 / n as f32;
            let wobble = if k == 0 || k == n { 0.0 } else { rng.range(-5.0, 5.0) };
            start.lerp(end, t).add(p(-0.5, 0.866).mul(wobble))
        })
        .collect();
    let brown = Rgba::rgb8(108, 78, 48);
    hachures(&mut c, &path, 1.0, 3.2, 11.0, 1.1, brown.with_alpha(0.85));
    hachures(&mut c, &path, -1.0, 3.2, 11.0, 1.1, brown.with_alpha(0.85));
    c.polyline(&path, 7.0, Rgba::rgb8(120, 92, 60));
    c.polyline(&path, 3.0, Rgba::rgb8(60, 42, 28));
    finish_tile(&mut c, edge_of(base));
    c
}

/// The printed marsh sign: a short bar of water with a tuft of reeds on it.
fn reed_tuft(c: &mut Canvas, at: P, s: f32) {
    let reed = Rgba::rgb8(72, 98, 62);
    c.line(at.add(p(-5.0 * s, 0.0)), at.add(p(5.0 * s, 0.0)), 1.3, reed);
    for (dx, h, lean) in [(-2.6, 5.0, -2.2), (-0.9, 7.0, -0.8), (0.9, 7.5, 0.8), (2.6, 5.0, 2.2)] {
        c.line(at.add(p(dx * s, 0.0)), at.add(p((dx + lean) * s, -h * s)), 1.1, reed);
    }
}

pub fn marsh_painted(c: &mut Canvas) {
    let water = Rgba::rgb8(104, 146, 164);
    let mut rng = Rng::new(122);
    for q in scatter(16.0, 5.0, 6.0, 123) {
        let l = rng.range(4.0, 8.0);
        c.line(q.add(p(-l, 0.0)), q.add(p(l, 0.0)), 1.4, water.with_alpha(0.8));
    }
    for q in scatter(25.0, 6.0, 10.0, 124) {
        reed_tuft(c, q.add(p(0.0, -3.0)), rng.range(0.85, 1.1));
    }
}

pub fn marsh() -> Canvas {
    let base = Rgba::rgb8(184, 198, 166);
    let mut c = paper_base(base, 121, 0.10);
    marsh_painted(&mut c);
    finish_tile(&mut c, edge_of(base));
    c
}

pub fn mud() -> Canvas {
    let base = Rgba::rgb8(146, 118, 84);
    let mut c = paper_base(base, 131, 0.16);
    let mut rng = Rng::new(132);
    // Wheel ruts: pairs of dark arcs across the hex.
    for k in 0..3 {
        let y0 = 40.0 + k as f32 * 30.0 + rng.range(-6.0, 6.0);
        let path: Vec<P> = (0..=10).map(|i| p(10.0 + i as f32 * 14.0, y0 + (i as f32 * 0.7).sin() * 5.0)).collect();
        c.polyline(&path, 1.2, Rgba::rgb8(96, 74, 50).with_alpha(0.7));
        let path2: Vec<P> = path.iter().map(|q| q.add(p(0.0, 4.0))).collect();
        c.polyline(&path2, 1.2, Rgba::rgb8(96, 74, 50).with_alpha(0.7));
    }
    // Puddles: irregular blobs of dull water with a pale rim on the lit side.
    for q in scatter(34.0, 9.0, 14.0, 133) {
        let rx = rng.range(6.0, 10.0);
        let ry = rx * rng.range(0.45, 0.6);
        let blob: Vec<P> = (0..14)
            .map(|k| {
                let a = (k as f32 * 360.0 / 14.0).to_radians();
                let w = 1.0 + 0.15 * (fbm(q.x + k as f32 * 7.0, q.y, 9.0, 1, 134, None) - 0.5) * 2.0;
                q.add(p(a.cos() * rx * w, a.sin() * ry * w))
            })
            .collect();
        c.outline(&blob, 1.6, Rgba::rgb8(112, 86, 58).with_alpha(0.8));
        c.polygon(&blob, Rgba::rgb8(118, 122, 108));
        c.line(q.add(p(-rx * 0.5, -ry * 0.1)), q.add(p(rx * 0.1, -ry * 0.1)), 1.0, Rgba::rgb8(160, 168, 156).with_alpha(0.8));
    }
    stipple(&mut c, 160, 0.7, Rgba::rgb8(80, 60, 40).with_alpha(0.5), 135);
    finish_tile(&mut c, edge_of(base));
    c
}

pub fn dune() -> Canvas {
    let base = Rgba::rgb8(232, 212, 156);
    let mut c = paper_base(base, 141, 0.08);
    stipple(&mut c, 160, 0.6, Rgba::rgb8(170, 140, 90).with_alpha(0.5), 142);
    let mut rng = Rng::new(143);
    let mut spots = scatter(32.0, 6.0, 14.0, 144);
    spots.sort_by(|a, b| a.y.total_cmp(&b.y));
    for q in spots {
        // A crescent dune: a shaded lee face under a curved crest.
        let w = rng.range(12.0, 16.0);
        let crest: Vec<P> = (0..=12)
            .map(|k| {
                let t = k as f32 / 12.0 * 2.0 - 1.0;
                q.add(p(t * w, -(1.0 - t * t) * w * 0.45))
            })
            .collect();
        let mut lee = crest.clone();
        for k in (0..=12).rev() {
            let t = k as f32 / 12.0 * 2.0 - 1.0;
            lee.push(q.add(p(t * w * 0.9, -(1.0 - t * t) * w * 0.15 + 1.0)));
        }
        c.polygon(&lee, Rgba::rgb8(196, 164, 108).with_alpha(0.8));
        c.polyline(&crest, 1.4, Rgba::rgb8(150, 116, 70));
        let glint: Vec<P> = crest.iter().map(|r| r.add(p(0.0, -1.6))).collect();
        c.polyline(&glint[3..10], 1.0, Rgba::rgb8(248, 236, 200).with_alpha(0.8));
    }
    finish_tile(&mut c, edge_of(base));
    c
}

/// Water, either still (a lake: short ripples) or flowing (a river hex: long lines).
fn water_tile(base: Rgba, seed: u32, flowing: bool) -> Canvas {
    let mut c = paper_base(base, seed, 0.08);
    let light = Rgba::rgb8(206, 226, 232).with_alpha(0.75);
    let mut rng = Rng::new(seed + 1);
    if flowing {
        for k in -5..=5 {
            let y0 = CENTRE.y + k as f32 * 12.0;
            let ph = rng.range(0.0, 6.0);
            let path: Vec<P> = (0..=40).map(|i| p(i as f32 * 4.0, y0 + ((i as f32 * 0.3) + ph).sin() * 2.0)).collect();
            c.polyline(&path, 1.0, light);
        }
    } else {
        for q in scatter(19.0, 6.0, 8.0, seed + 2) {
            let w = rng.range(4.0, 7.0);
            let arc: Vec<P> = (0..=6)
                .map(|i| {
                    let t = i as f32 / 6.0 * 2.0 - 1.0;
                    q.add(p(t * w, (t * t) * 1.6 - 0.8))
                })
                .collect();
            c.polyline(&arc, 1.1, light);
        }
    }
    finish_tile(&mut c, base.scaled(0.72).with_alpha(0.9));
    c
}

pub fn lake() -> Canvas {
    water_tile(Rgba::rgb8(140, 178, 194), 151, false)
}

pub fn water() -> Canvas {
    water_tile(Rgba::rgb8(128, 170, 192), 161, true)
}


//! Unit-type symbols in the NATO-like style of board wargames: a white frame with a
//! white type mark inside, on transparent, so a sprite tint can colour them.

use crate::raster::{Canvas, P, Rgba, p, star};

pub const SYM_W: usize = 96;
pub const SYM_H: usize = 64;
/// The frame's stroke is 3 px with its outer edge 4 px in from the image edge, so
/// the stroke's centre line is 5.5 px in.
const FRAME_IN: f32 = 5.5;
const STROKE: f32 = 3.0;
/// Corners of the frame's centre line.
const TL: P = p(FRAME_IN, FRAME_IN);
const TR: P = p(SYM_W as f32 - FRAME_IN, FRAME_IN);
const BL: P = p(FRAME_IN, SYM_H as f32 - FRAME_IN);
const BR: P = p(SYM_W as f32 - FRAME_IN, SYM_H as f32 - FRAME_IN);
const MID: P = p(SYM_W as f32 / 2.0, SYM_H as f32 / 2.0);
const W: Rgba = Rgba::WHITE;

/// A function that draws one type mark inside the frame.
pub type Mark = fn(&mut Canvas);

/// Every symbol: file stem and painter.
pub fn unit_symbols() -> Vec<(&'static str, Mark)> {
    vec![
        ("infantry", infantry as Mark),
        ("heavy_infantry", heavy_infantry),
        ("light_infantry", light_infantry),
        ("pikes", pikes),
        ("spears", spears),
        ("warband", warband),
        ("archers", archers),
        ("crossbows", crossbows),
        ("handgunners", handgunners),
        ("skirmishers", skirmishers),
        ("cavalry", cavalry),
        ("heavy_cavalry", heavy_cavalry),
        ("light_cavalry", light_cavalry),
        ("mounted_archers", mounted_archers),
        ("camels", camels),
        ("elephants", elephants),
        ("artillery", artillery),
        ("leader", leader),
        ("general", general),
        ("baggage", baggage),
    ]
}

/// A symbol image: frame plus the type mark drawn by `mark`.
pub fn symbol(mark: Mark) -> Canvas {
    let mut c = Canvas::new(SYM_W, SYM_H);
    c.outline(&[TL, TR, BR, BL], STROKE, W);
    mark(&mut c);
    c
}

fn cross(c: &mut Canvas) {
    c.line(TL, BR, STROKE, W);
    c.line(BL, TR, STROKE, W);
}

/// A filled arrowhead at `tip`, pointing along the direction `from` → `tip`.
fn arrowhead(c: &mut Canvas, from: P, tip: P, len: f32, half_w: f32) {
    let d = tip.sub(from);
    let u = d.mul(1.0 / d.len());
    let n = p(-u.y, u.x);
    let back = tip.sub(u.mul(len));
    c.polygon(&[tip, back.add(n.mul(half_w)), back.sub(n.mul(half_w))], W);
}

/// A horizontal arrow with a head on the right and fletching on the left.
fn arrow(c: &mut Canvas, from: P, to: P) {
    c.line(from, to.sub(p(5.0, 0.0)), 3.0, W);
    arrowhead(c, from, to, 10.0, 6.0);
    for dx in [0.0, 4.5] {
        c.line(from.add(p(dx, 0.0)), from.add(p(dx - 4.5, -4.5)), 2.4, W);
        c.line(from.add(p(dx, 0.0)), from.add(p(dx - 4.5, 4.5)), 2.4, W);
    }
}

/// The lower wedge between the X's arms has room for a small mark around here.
const LOW: P = p(48.0, 49.0);

fn infantry(c: &mut Canvas) {
    cross(c);
}

fn heavy_infantry(c: &mut Canvas) {
    cross(c);
    c.line(p(FRAME_IN, MID.y), p(SYM_W as f32 - FRAME_IN, MID.y), STROKE, W);
}

fn light_infantry(c: &mut Canvas) {
    cross(c);
    c.ring(LOW.add(p(0.0, 1.0)), 5.5, 3.0, W);
}

fn pikes(c: &mut Canvas) {
    cross(c);
    c.line(p(MID.x, FRAME_IN), p(MID.x, SYM_H as f32 - FRAME_IN), STROKE, W);
}

fn spears(c: &mut Canvas) {
    cross(c);
    let (foot, tip) = (p(MID.x, 30.0), p(MID.x, 9.0));
    c.line(foot, tip.add(p(0.0, 5.0)), 2.6, W);
    arrowhead(c, foot, tip, 9.0, 5.0);
}

fn warband(c: &mut Canvas) {
    cross(c);
    let wave: Vec<P> = (0..=24)
        .map(|i| {
            let t = i as f32 / 24.0;
            p(30.0 + 36.0 * t, 50.0 + (t * std::f32::consts::TAU * 2.0).sin() * 3.5)
        })
        .collect();
    c.polyline(&wave, 3.0, W);
}

fn archers(c: &mut Canvas) {
    cross(c);
    arrow(c, p(30.0, 51.0), p(68.0, 51.0));
}

fn crossbows(c: &mut Canvas) {
    cross(c);
    // A crossbow seen from above: the bow across, the stock pointing down.
    let bow: Vec<P> = (0..=12)
        .map(|i| {
            let t = i as f32 / 12.0 * 2.0 - 1.0;
            p(MID.x + t * 17.0, 43.0 + t * t * 7.0)
        })
        .collect();
    c.polyline(&bow, 3.0, W);
    c.line(p(MID.x, 40.0), p(MID.x, 57.0), 3.0, W);
    c.line(p(MID.x - 16.0, 50.0), p(MID.x + 16.0, 50.0), 1.4, W);
}

fn handgunners(c: &mut Canvas) {
    cross(c);
    c.circle(LOW.add(p(0.0, 1.0)), 6.0, W);
}

fn skirmishers(c: &mut Canvas) {
    c.dashed_line(TL, BR, STROKE, 7.0, 5.0, W);
    c.dashed_line(BL, TR, STROKE, 7.0, 5.0, W);
}

fn cavalry(c: &mut Canvas) {
    c.line(BL, TR, STROKE, W);
}

fn heavy_cavalry(c: &mut Canvas) {
    // Two diagonals parallel to the cavalry one, either side of it.
    let d = TR.sub(BL);
    let n = p(-d.y, d.x).mul(1.0 / d.len());
    for off in [-5.0, 5.0] {
        if let Some((a, b)) = clip_to_frame(BL.add(n.mul(off)), d) {
            c.line(a, b, STROKE, W);
        }
    }
}

/// The part of the line through `at` with direction `d` that lies inside the
/// frame's centre-line rectangle (slab clipping), if any.
fn clip_to_frame(at: P, d: P) -> Option<(P, P)> {
    let (mut t0, mut t1) = (f32::MIN, f32::MAX);
    for (o, dd, lo, hi) in [(at.x, d.x, TL.x, BR.x), (at.y, d.y, TL.y, BR.y)] {
        if dd.abs() < 1e-6 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let (a, b) = ((lo - o) / dd, (hi - o) / dd);
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
    }
    (t0 < t1).then(|| (at.add(d.mul(t0)), at.add(d.mul(t1))))
}

fn light_cavalry(c: &mut Canvas) {
    c.dashed_line(BL, TR, STROKE, 8.0, 5.0, W);
}

fn mounted_archers(c: &mut Canvas) {
    cavalry(c);
    arrow(c, p(46.0, 48.0), p(84.0, 48.0));
}

fn camels(c: &mut Canvas) {
    cavalry(c);
    // Two humps on a back line.
    let back: Vec<P> = (0..=32)
        .map(|i| {
            let t = i as f32 / 32.0;
            let hump = (t * std::f32::consts::TAU).sin().abs() * 11.0;
            p(50.0 + 36.0 * t, 52.0 - hump)
        })
        .collect();
    c.polyline(&back, 3.0, W);
}

fn elephants(c: &mut Canvas) {
    cavalry(c);
    // A trunk hanging down and curling up at its tip, with a tusk beside it.
    let centre = p(69.0, 47.0);
    let mut curl = vec![p(60.0, 29.0), p(62.0, 40.0)];
    for i in 0..=15 {
        // From the left of the curl, down round the bottom and up the right side.
        let a = (180.0 - i as f32 * 15.0f32).to_radians();
        curl.push(p(centre.x + 7.0 * a.cos(), centre.y + 7.0 * a.sin()));
    }
    c.polyline(&curl, 3.2, W);
    c.polyline(&[p(67.0, 31.0), p(77.0, 35.0), p(84.0, 29.0)], 2.8, W);
}

fn artillery(c: &mut Canvas) {
    c.circle(MID, 9.0, W);
}

/// A flag on a staff: the leader's mark.
fn flag(c: &mut Canvas, staff_x: f32) {
    let top = 11.0;
    c.line(p(staff_x, top), p(staff_x, 55.0), 2.6, W);
    let cloth: Vec<P> = (0..=10)
        .map(|i| {
            let t = i as f32 / 10.0;
            p(staff_x + 1.0 + 24.0 * t, top + 1.0 + (t * std::f32::consts::TAU).sin() * 1.6)
        })
        .chain((0..=10).rev().map(|i| {
            let t = i as f32 / 10.0;
            p(staff_x + 1.0 + 24.0 * t, top + 15.0 + (t * std::f32::consts::TAU).sin() * 1.6)
        }))
        .collect();
    c.polygon(&cloth, W);
}

fn leader(c: &mut Canvas) {
    flag(c, 36.0);
}

fn general(c: &mut Canvas) {
    flag(c, 26.0);
    c.polygon(&star(p(66.0, 40.0), 13.0, 5.2, 5), W);
}

fn baggage(c: &mut Canvas) {
    c.ring(MID, 15.0, 3.0, W);
    for k in 0..6 {
        let a = k as f32 * 60.0 + 30.0;
        c.line(MID, MID.polar(14.0, a), 2.0, W);
    }
    c.circle(MID, 3.5, W);
}

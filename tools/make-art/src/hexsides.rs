//! Hexside pieces, each drawn horizontally and centred in its image: rivers and
//! streams (along a side), slopes and field defences (along a side, facing up),
//! roads, bridges and fords (across a side, from hex centre toward hex centre).

use crate::noise::Rng;
use crate::raster::{Canvas, Rgba, coverage, p};
use crate::tiles::{HEX_PITCH, HEX_R, INK, Painter};

/// Every hexside piece: file stem and painter.
pub fn hexside_pieces() -> Vec<(&'static str, Painter)> {
    vec![
        ("river", river as Painter),
        ("stream", stream),
        ("slope", slope),
        ("field_defence", field_defence),
        ("road", road),
        ("bridge", bridge),
        ("ford", ford),
    ]
}

/// A horizontal band with round ends along y = h/2 from x0 to x1, `radius` wide each
/// side. Its colour depends on the distance from the band's centre line, and the
/// round ends take the centre colour only: where pieces meet at a shared end, the
/// later piece's end lies over the earlier piece's middle, and a bank or edge line
/// drawn round the end would show as a dark line across it.
fn band(w: usize, h: usize, x0: f32, x1: f32, radius: f32, cap: f32, colour: impl Fn(f32) -> Rgba) -> Canvas {
    let mut c = Canvas::new(w, h);
    let cy = h as f32 / 2.0;
    let (a, b) = (p(x0, cy), p(x1, cy));
    for y in 0..h {
        for x in 0..w {
            let q = p(x as f32 + 0.5, y as f32 + 0.5);
            // The straight part is a box with square ends; the round ends have their
            // own, smaller radius `cap`, no wider than the band's inner colour, so a
            // piece's end never covers a straight neighbour's edge lines.
            // The box runs 1 px past each end so that two pieces meeting in a
            // straight line overlap instead of abutting, which would leave a faint
            // seam where both edges are only half covered.
            let ex = (x0 - 1.0 - q.x).max(q.x - x1 - 1.0);
            let ey = (q.y - cy).abs() - radius;
            let outside = p(ex.max(0.0), ey.max(0.0)).len();
            let in_box = outside + ex.max(ey).min(0.0);
            let in_cap = q.sub(a).len().min(q.sub(b).len()) - cap;
            let k = coverage(in_box.min(in_cap));
            if k > 0.0 {
                let across = if q.x < x0 - 1.0 || q.x > x1 + 1.0 { 0.0 } else { ((q.y - cy).abs() / radius).min(1.0) };
                c.blend(x, y, colour(across), k);
            }
        }
    }
    c
}

/// Water across a river or stream: flat printed blue with a thin darker bank line
/// at the edge (`bank_from` is where the bank begins, as a fraction of the half width).
fn water_across(t: f32, bank_from: f32) -> Rgba {
    let water = Rgba::rgb8(122, 168, 196);
    let bank = Rgba::rgb8(70, 108, 140);
    water.mix(bank, ((t - bank_from) / (1.0 - bank_from) * 2.0).clamp(0.0, 1.0))
}

/// River: a 16 px band along the side. The side runs from x = 10 to x = 90 (80 px);
/// round ends (radius 6.4, the water without its banks) reach past both vertices so
/// consecutive sides join.
pub fn river() -> Canvas {
    let (w, h) = (100, 28);
    let half = HEX_R / 2.0;
    let cx = w as f32 / 2.0;
    let mut c = band(w, h, cx - half, cx + half, 8.0, 6.4, |t| water_across(t, 0.78));
    // Current lines along mid-channel, kept inside the side so they do not
    // cross a neighbouring piece at the joint.
    let light = Rgba::rgb8(200, 224, 234).with_alpha(0.8);
    c.line(p(cx - 30.0, 12.2), p(cx - 6.0, 12.2), 1.0, light);
    c.line(p(cx + 2.0, 15.8), p(cx + 26.0, 15.8), 1.0, light);
    c
}

/// Stream: an 8 px band, the same water, round ends (radius 2.6) past the vertices.
pub fn stream() -> Canvas {
    let (w, h) = (96, 16);
    let half = HEX_R / 2.0;
    let cx = w as f32 / 2.0;
    band(w, h, cx - half, cx + half, 4.0, 2.6, |t| water_across(t, 0.62))
}

/// Slope: a line ON the image's horizontal centre line (which lies on the hexside)
/// with hachures hanging down from it. The top of the image is the high side.
pub fn slope() -> Canvas {
    let (w, h) = (80, 20);
    let mut c = Canvas::new(w, h);
    let cy = h as f32 / 2.0;
    let brown = Rgba::rgb8(110, 76, 44);
    let spacing = 4.0;
    let n = (w as f32 / spacing) as usize;
    for i in 0..n {
        let x = (i as f32 + 0.5) * spacing;
        let len = if i % 2 == 0 { 8.0 } else { 5.0 };
        // A tapered tick: wide where it leaves the line, pointed at the foot.
        c.polygon(&[p(x - 0.9, cy), p(x + 0.9, cy), p(x + 0.15, cy + len), p(x - 0.15, cy + len)], brown);
    }
    c.line(p(1.0, cy), p(w as f32 - 1.0, cy), 1.6, brown);
    c
}

/// Field defence: an earth bank with a palisade line along the centre and stakes
/// pointing toward the top of the image (the outside, the attacker's side).
pub fn field_defence() -> Canvas {
    let (w, h) = (84, 28);
    let mut c = Canvas::new(w, h);
    let cy = h as f32 / 2.0;
    let (x0, x1) = (3.0, w as f32 - 3.0);
    let earth = Rgba::rgb8(150, 112, 70);
    let dark = Rgba::rgb8(72, 48, 28);
    c.line(p(x0, cy + 2.5), p(x1, cy + 2.5), 6.0, earth.with_alpha(0.8));
    let n = 14;
    for i in 0..n {
        let x = x0 + 2.0 + (i as f32 + 0.5) * (x1 - x0 - 4.0) / n as f32;
        c.polygon(&[p(x - 1.3, cy), p(x + 1.3, cy), p(x + 0.5, cy - 9.0)], dark);
    }
    c.line(p(x0, cy), p(x1, cy), 2.6, dark);
    c
}

/// Road: an 11 px tan band with darker edges from one hex centre to the next
/// (138.56 px apart, centred in the image), with round ends so the pieces that
/// meet at a hex centre join.
pub fn road() -> Canvas {
    let (w, h) = (150, 20);
    let cx = w as f32 / 2.0;
    let half = HEX_PITCH / 2.0;
    band(w, h, cx - half, cx + half, 5.5, 4.2, |t| {
        let tan = Rgba::rgb8(208, 172, 114);
        let edge = Rgba::rgb8(104, 70, 40);
        tan.mix(edge, ((t - 0.72) / 0.2).clamp(0.0, 1.0))
    })
}

/// Bridge: a deck along x with parapets and splayed wing walls at both ends, and a
/// soft shadow so it reads as standing above the water.
pub fn bridge() -> Canvas {
    let (w, h) = (60, 34);
    let mut c = Canvas::new(w, h);
    let cy = h as f32 / 2.0;
    let (x0, x1) = (9.0, w as f32 - 9.0);
    let deck_half = 7.0;
    let stone = Rgba::rgb8(186, 174, 150);
    let parapet = Rgba::rgb8(104, 94, 80);
    c.polygon(&[p(x0, cy - deck_half + 3.0), p(x1, cy - deck_half + 3.0), p(x1, cy + deck_half + 3.0), p(x0, cy + deck_half + 3.0)], INK.with_alpha(0.3));
    c.polygon(&[p(x0 - 6.0, cy - deck_half - 4.0), p(x0, cy - deck_half), p(x1, cy - deck_half), p(x1 + 6.0, cy - deck_half - 4.0),
        p(x1 + 6.0, cy + deck_half + 4.0), p(x1, cy + deck_half), p(x0, cy + deck_half), p(x0 - 6.0, cy + deck_half + 4.0)], stone);
    // Planks across the deck.
    let mut x = x0 - 3.0;
    while x < x1 + 3.0 {
        c.line(p(x, cy - deck_half + 1.0), p(x, cy + deck_half - 1.0), 0.7, stone.scaled(0.82));
        x += 3.5;
    }
    for side in [-1.0f32, 1.0] {
        let y = cy + side * deck_half;
        let flare = cy + side * (deck_half + 4.0);
        c.polyline(&[p(x0 - 7.0, flare), p(x0, y), p(x1, y), p(x1 + 7.0, flare)], 2.6, parapet);
    }
    c
}

/// Ford: a pale stippled band of shallows with two staggered rows of stepping
/// stones along x, round ended.
pub fn ford() -> Canvas {
    let (w, h) = (56, 30);
    let cx = w as f32 / 2.0;
    let mut c = band(w, h, 10.0, w as f32 - 10.0, 8.5, 8.5, |t| {
        Rgba::rgb8(226, 216, 182).with_alpha(0.75 - 0.35 * t * t)
    });
    let mut rng = Rng::new(901);
    let cy = h as f32 / 2.0;
    for row in [-1.0f32, 1.0] {
        let shift = if row < 0.0 { 0.0 } else { 3.5 };
        let mut x = cx - 21.0 + shift;
        while x <= cx + 21.0 {
            let q = p(x + rng.range(-0.6, 0.6), cy + row * 3.6 + rng.range(-0.6, 0.6));
            let r = rng.range(2.0, 2.7);
            c.circle(q.add(p(0.7, 0.9)), r, INK.with_alpha(0.35));
            c.circle(q, r, Rgba::rgb8(176, 166, 144));
            c.circle(q.add(p(-0.6, -0.7)), r * 0.5, Rgba::rgb8(214, 206, 186));
            x += 7.0;
        }
    }
    c
}

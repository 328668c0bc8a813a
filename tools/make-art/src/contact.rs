//! The proofing contact sheet (never committed): every tile tessellated in a small
//! patch, a sample map with hexside pieces placed as the game places them, and
//! every symbol on coloured counters at two sizes.

use std::collections::HashMap;
use std::path::Path;

use crate::raster::{Canvas, P, Rgba, p};
use crate::tiles::{HEX_PITCH, HEX_R};

/// Every generated image by its asset path, e.g. "tiles/woods".
pub type Art = HashMap<String, Canvas>;

const TABLE: Rgba = Rgba::rgb8(90, 90, 92);

/// Centre of hex (col, row) in a flat-topped layout with odd columns shifted down.
fn hex_centre(origin: P, col: i32, row: i32, scale: f32) -> P {
    let x = HEX_R + 1.5 * HEX_R * col as f32;
    let y = HEX_PITCH / 2.0 + HEX_PITCH * row as f32 + if col % 2 == 1 { HEX_PITCH / 2.0 } else { 0.0 };
    origin.add(p(x, y).mul(scale))
}

/// Midpoint of side `k` (0 = lower right, going clockwise) of the hex at `c`,
/// and the angle of that side's outward normal, 60k + 30 degrees.
fn side(c: P, k: i32, scale: f32) -> (P, f32) {
    let normal = 60.0 * k as f32 + 30.0;
    (c.polar(HEX_PITCH / 2.0 * scale, normal), normal)
}

/// Places a piece that lies along side `k` with its image top facing `top_dir`.
fn along(sheet: &mut Canvas, piece: &Canvas, c: P, k: i32, outward_top: bool, scale: f32) {
    let (mid, normal) = side(c, k, scale);
    let top_dir = if outward_top { normal } else { normal + 180.0 };
    // Rotating by θ turns the image's top, (0, −1), to the direction θ − 90°.
    sheet.draw_sprite(piece, mid, top_dir + 90.0, scale, Rgba::WHITE);
}

/// Places a piece that crosses side `k`, its x axis from the hex centre outward.
fn across(sheet: &mut Canvas, piece: &Canvas, c: P, k: i32, scale: f32) {
    let (mid, normal) = side(c, k, scale);
    sheet.draw_sprite(piece, mid, normal, scale, Rgba::WHITE);
}

fn tiles_section(art: &Art, names: &[String]) -> Canvas {
    let s = 0.5;
    let (pw, ph) = (270.0, 250.0);
    let cols = 6;
    let rows = names.len().div_ceil(cols);
    let mut sheet = Canvas::filled(cols * pw as usize, rows * ph as usize, TABLE);
    for (i, name) in names.iter().enumerate() {
        let origin = p((i % cols) as f32 * pw + 4.0, (i / cols) as f32 * ph + 4.0);
        let (tile, overlay) = match name.strip_prefix("tiles/elevation_") {
            Some(_) => (&art["tiles/clear"], Some(&art[name])),
            None => (&art[name], None),
        };
        for col in 0..4 {
            for row in 0..3 {
                let c = hex_centre(origin, col, row, s);
                sheet.draw_sprite(tile, c, 0.0, s, Rgba::WHITE);
                if let Some(o) = overlay {
                    sheet.draw_sprite(o, c, 0.0, s, Rgba::WHITE);
                }
            }
        }
    }
    sheet
}

fn map_section(art: &Art) -> Canvas {
    let s = 1.0;
    let mut sheet = Canvas::filled(660, 640, TABLE);
    let o = p(10.0, 6.0);
    let layout = [
        ["clear", "woods", "clear", "fields", "village"],
        ["rough", "clear", "clear", "orchard", "clear"],
        ["marsh", "causeway", "clear", "woods", "town"],
        ["clear", "broken", "vineyard", "clear", "olive_grove"],
    ];
    for (row, names) in layout.iter().enumerate() {
        for (col, name) in names.iter().enumerate() {
            let c = hex_centre(o, col as i32, row as i32, s);
            sheet.draw_sprite(&art[&format!("tiles/{name}")], c, 0.0, s, Rgba::WHITE);
        }
    }
    let hc = |col, row| hex_centre(o, col, row, s);
    // A hill of two levels with slopes around it, high side facing in.
    for (col, row, lvl) in [(3, 1, 2), (3, 0, 1), (4, 1, 1)] {
        sheet.draw_sprite(&art[&format!("tiles/elevation_{lvl}")], hc(col, row), 0.0, s, Rgba::WHITE);
    }
    for k in [1, 2, 3] {
        along(&mut sheet, &art["hexsides/slope"], hc(3, 1), k, false, s);
    }
    // A river along three consecutive sides of hex (2, 1).
    for k in [0, 1, 2] {
        along(&mut sheet, &art["hexsides/river"], hc(2, 1), k, true, s);
    }
    // A road from (2, 0) south through (2, 1), bridging the river, to (2, 2), then
    // on to (3, 2) and (4, 2).
    across(&mut sheet, &art["hexsides/road"], hc(2, 0), 1, s);
    across(&mut sheet, &art["hexsides/road"], hc(2, 1), 1, s);
    across(&mut sheet, &art["hexsides/road"], hc(2, 2), 0, s);
    across(&mut sheet, &art["hexsides/road"], hc(3, 2), 5, s);
    across(&mut sheet, &art["hexsides/bridge"], hc(2, 1), 1, s);
    // A stream along two sides of (1, 3) with a ford where nothing crosses.
    for k in [4, 5] {
        along(&mut sheet, &art["hexsides/stream"], hc(1, 3), k, true, s);
    }
    across(&mut sheet, &art["hexsides/ford"], hc(1, 3), 5, s);
    // Field defences on two sides of (0, 1), facing out.
    for k in [0, 5] {
        along(&mut sheet, &art["hexsides/field_defence"], hc(0, 1), k, true, s);
    }
    sheet
}

fn symbols_section(art: &Art, names: &[String]) -> Canvas {
    let (cw, ch) = (250.0, 104.0);
    let cols = 4;
    let rows = names.len().div_ceil(cols);
    let mut sheet = Canvas::filled(cols * cw as usize, rows * ch as usize, TABLE);
    let red = Rgba::rgb8(176, 52, 44);
    let blue = Rgba::rgb8(62, 96, 160);
    let buff = Rgba::rgb8(226, 208, 160);
    for (i, name) in names.iter().enumerate() {
        let o = p((i % cols) as f32 * cw + 8.0, (i / cols) as f32 * ch + 8.0);
        let sym = &art[name];
        let big = Canvas::filled(104, 88, red);
        sheet.draw_sprite(&big, o.add(p(52.0, 44.0)), 0.0, 1.0, Rgba::WHITE);
        sheet.draw_sprite(sym, o.add(p(52.0, 40.0)), 0.0, 1.0, Rgba::WHITE);
        let small = Canvas::filled(54, 46, blue);
        sheet.draw_sprite(&small, o.add(p(140.0, 24.0)), 0.0, 1.0, Rgba::WHITE);
        sheet.draw_sprite(sym, o.add(p(140.0, 22.0)), 0.0, 0.5, Rgba::WHITE);
        let small2 = Canvas::filled(54, 46, buff);
        sheet.draw_sprite(&small2, o.add(p(200.0, 24.0)), 0.0, 1.0, Rgba::WHITE);
        sheet.draw_sprite(sym, o.add(p(200.0, 22.0)), 0.0, 0.5, Rgba::rgb8(30, 30, 30));
        sheet.draw_sprite(&small, o.add(p(140.0, 74.0)), 0.0, 1.0, Rgba::WHITE);
        sheet.draw_sprite(sym, o.add(p(140.0, 72.0)), 0.0, 0.5, Rgba::rgb8(250, 230, 120));
    }
    sheet
}

/// A nearest-neighbour enlargement of part of a canvas, for checking joins.
fn zoom(src: &Canvas, x0: usize, y0: usize, w: usize, h: usize, k: usize) -> Canvas {
    let mut out = Canvas::new(w * k, h * k);
    for y in 0..h * k {
        for x in 0..w * k {
            let (sx, sy) = ((x0 + x / k).min(src.w - 1), (y0 + y / k).min(src.h - 1));
            out.px[y * w * k + x] = src.get(sx, sy);
        }
    }
    out
}

/// Stacks canvases vertically on the table colour.
fn stack(parts: &[&Canvas]) -> Canvas {
    let w = parts.iter().map(|c| c.w).max().unwrap_or(1);
    let h = parts.iter().map(|c| c.h + 10).sum();
    let mut out = Canvas::filled(w, h, TABLE);
    let mut y = 0;
    for c in parts {
        for j in 0..c.h {
            for i in 0..c.w {
                out.px[(y + j) * w + i] = c.get(i, j);
            }
        }
        y += c.h + 10;
    }
    out
}

/// Writes `path` (everything) and three section images beside it (-tiles, -map,
/// -symbols) for looking at details.
pub fn write_contact_sheet(art: &Art, path: &Path) -> std::io::Result<()> {
    let mut names: Vec<String> = art.keys().cloned().collect();
    names.sort();
    let tiles: Vec<String> = names.iter().filter(|n| n.starts_with("tiles/")).cloned().collect();
    let symbols: Vec<String> = names.iter().filter(|n| n.starts_with("symbols/")).cloned().collect();
    let t = tiles_section(art, &tiles);
    let m = map_section(art);
    let s = symbols_section(art, &symbols);
    let stem = path.with_extension("");
    let stem = stem.to_string_lossy();
    t.save_png(Path::new(&format!("{stem}-tiles.png")))?;
    m.save_png(Path::new(&format!("{stem}-map.png")))?;
    s.save_png(Path::new(&format!("{stem}-symbols.png")))?;
    let mut single = Canvas::filled(8 * 166, tiles.len().div_ceil(8) * 146, TABLE);
    for (i, n) in tiles.iter().enumerate() {
        let at = p((i % 8) as f32 * 166.0 + 83.0, (i / 8) as f32 * 146.0 + 73.0);
        if n.contains("elevation") {
            single.draw_sprite(&art["tiles/clear"], at, 0.0, 1.0, Rgba::WHITE);
        }
        single.draw_sprite(&art[n], at, 0.0, 1.0, Rgba::WHITE);
    }
    single.save_png(Path::new(&format!("{stem}-single.png")))?;
    let pieces: Vec<&String> = names.iter().filter(|n| n.starts_with("hexsides/") || *n == "ui/paper").collect();
    let mut strip = Canvas::filled(880, 560, Rgba::rgb8(222, 216, 172));
    let mut y = 4.0;
    for n in pieces {
        let img = &art[n];
        if n == "ui/paper" {
            // Four copies side by side show whether the texture tiles.
            for (dx, dy) in [(0.0, 0.0), (256.0, 0.0), (0.0, 256.0), (256.0, 256.0)] {
                strip.draw_sprite(img, p(488.0 + dx, 150.0 + dy), 0.0, 1.0, Rgba::WHITE);
            }
            continue;
        }
        strip.draw_sprite(img, p(4.0 + img.w as f32, y + img.h as f32), 0.0, 2.0, Rgba::WHITE);
        y += img.h as f32 * 2.0 + 6.0;
    }
    strip.save_png(Path::new(&format!("{stem}-pieces.png")))?;
    zoom(&m, 220, 140, 240, 230, 3).save_png(Path::new(&format!("{stem}-zoom.png")))?;
    stack(&[&t, &m, &s]).save_png(path)
}

//! The tiny software rasteriser: an RGBA canvas, "over" blending, and anti-aliased
//! shapes (circles, capsules, polylines, polygons) drawn from signed distances.

use std::path::Path;

/// A straight (not premultiplied) sRGB colour with alpha, each channel 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rgba {
    pub r: f32,
    pub g: f32,
    pub b: f32,
    pub a: f32,
}

impl Rgba {
    pub const TRANSPARENT: Rgba = Rgba { r: 0.0, g: 0.0, b: 0.0, a: 0.0 };
    pub const WHITE: Rgba = Rgba { r: 1.0, g: 1.0, b: 1.0, a: 1.0 };

    /// An opaque colour from 0..=255 channels, as a printer's swatch would give it.
    pub const fn rgb8(r: u8, g: u8, b: u8) -> Rgba {
        Rgba { r: r as f32 / 255.0, g: g as f32 / 255.0, b: b as f32 / 255.0, a: 1.0 }
    }

    pub fn with_alpha(self, a: f32) -> Rgba {
        Rgba { a, ..self }
    }

    /// Darker (factor < 1) or lighter (factor > 1) by scaling the colour channels.
    pub fn scaled(self, factor: f32) -> Rgba {
        Rgba {
            r: (self.r * factor).clamp(0.0, 1.0),
            g: (self.g * factor).clamp(0.0, 1.0),
            b: (self.b * factor).clamp(0.0, 1.0),
            a: self.a,
        }
    }

    /// Linear mix toward `other`; t = 0 gives self.
    pub fn mix(self, other: Rgba, t: f32) -> Rgba {
        Rgba {
            r: self.r + (other.r - self.r) * t,
            g: self.g + (other.g - self.g) * t,
            b: self.b + (other.b - self.b) * t,
            a: self.a + (other.a - self.a) * t,
        }
    }
}

/// A 2-D point or vector in pixel units; pixel (i, j) covers [i, i+1) × [j, j+1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct P {
    pub x: f32,
    pub y: f32,
}

pub const fn p(x: f32, y: f32) -> P {
    P { x, y }
}

impl P {
    pub fn add(self, o: P) -> P {
        p(self.x + o.x, self.y + o.y)
    }
    pub fn sub(self, o: P) -> P {
        p(self.x - o.x, self.y - o.y)
    }
    pub fn mul(self, k: f32) -> P {
        p(self.x * k, self.y * k)
    }
    pub fn dot(self, o: P) -> f32 {
        self.x * o.x + self.y * o.y
    }
    pub fn len(self) -> f32 {
        self.dot(self).sqrt()
    }
    /// The point at `angle_deg` (y down, so positive angles turn clockwise on screen).
    pub fn polar(self, radius: f32, angle_deg: f32) -> P {
        let a = angle_deg.to_radians();
        p(self.x + radius * a.cos(), self.y + radius * a.sin())
    }
    pub fn lerp(self, o: P, t: f32) -> P {
        self.add(o.sub(self).mul(t))
    }
}

/// Distance from `q` to the segment a–b.
pub fn dist_to_segment(q: P, a: P, b: P) -> f32 {
    let ab = b.sub(a);
    let len2 = ab.dot(ab);
    let t = if len2 > 0.0 { (q.sub(a).dot(ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
    q.sub(a.add(ab.mul(t))).len()
}

/// Signed distance to a closed polygon: negative inside (even–odd rule).
pub fn polygon_sdf(q: P, pts: &[P]) -> f32 {
    let mut d = f32::MAX;
    let mut inside = false;
    let n = pts.len();
    for i in 0..n {
        let a = pts[i];
        let b = pts[(i + 1) % n];
        d = d.min(dist_to_segment(q, a, b));
        if (a.y > q.y) != (b.y > q.y) && q.x < a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    if inside { -d } else { d }
}

/// Pixel coverage from a signed distance at the pixel centre: a one-pixel linear ramp,
/// which is what makes every edge anti-aliased.
pub fn coverage(sd: f32) -> f32 {
    (0.5 - sd).clamp(0.0, 1.0)
}

#[derive(Clone)]
pub struct Canvas {
    pub w: usize,
    pub h: usize,
    pub px: Vec<Rgba>,
}

impl Canvas {
    pub fn new(w: usize, h: usize) -> Canvas {
        Canvas { w, h, px: vec![Rgba::TRANSPARENT; w * h] }
    }

    pub fn filled(w: usize, h: usize, c: Rgba) -> Canvas {
        Canvas { w, h, px: vec![c; w * h] }
    }

    pub fn get(&self, x: usize, y: usize) -> Rgba {
        self.px[y * self.w + x]
    }

    /// Porter–Duff "over" of colour `c` with extra opacity `k` onto pixel (x, y).
    pub fn blend(&mut self, x: usize, y: usize, c: Rgba, k: f32) {
        let sa = c.a * k;
        if sa <= 0.0 {
            return;
        }
        let d = &mut self.px[y * self.w + x];
        let out_a = sa + d.a * (1.0 - sa);
        if out_a <= 0.0 {
            return;
        }
        let mixc = |s: f32, dc: f32| (s * sa + dc * d.a * (1.0 - sa)) / out_a;
        *d = Rgba { r: mixc(c.r, d.r), g: mixc(c.g, d.g), b: mixc(c.b, d.b), a: out_a };
    }

    /// Draws colour `c` through a signed-distance field, visiting only the bounding
    /// box [x0, x1) × [y0, y1) so small shapes stay cheap.
    pub fn fill_sdf(&mut self, bbox: (f32, f32, f32, f32), c: Rgba, sdf: impl Fn(P) -> f32) {
        let (x0, y0, x1, y1) = bbox;
        let xa = (x0.floor().max(0.0)) as usize;
        let ya = (y0.floor().max(0.0)) as usize;
        let xb = (x1.ceil().max(0.0) as usize).min(self.w);
        let yb = (y1.ceil().max(0.0) as usize).min(self.h);
        for y in ya..yb {
            for x in xa..xb {
                let k = coverage(sdf(p(x as f32 + 0.5, y as f32 + 0.5)));
                if k > 0.0 {
                    self.blend(x, y, c, k);
                }
            }
        }
    }

    pub fn circle(&mut self, centre: P, radius: f32, c: Rgba) {
        let m = radius + 1.0;
        self.fill_sdf(bbox_around(&[centre], m), c, |q| q.sub(centre).len() - radius);
    }

    /// A ring (circle outline) of the given stroke width.
    pub fn ring(&mut self, centre: P, radius: f32, width: f32, c: Rgba) {
        let m = radius + width + 1.0;
        self.fill_sdf(bbox_around(&[centre], m), c, |q| {
            (q.sub(centre).len() - radius).abs() - width / 2.0
        });
    }

    /// A thick line with round caps (a capsule).
    pub fn line(&mut self, a: P, b: P, width: f32, c: Rgba) {
        self.polyline(&[a, b], width, c);
    }

    /// A thick open polyline with round caps and joins, drawn in one pass so the
    /// joins are not blended twice (which would show as darker knots).
    pub fn polyline(&mut self, pts: &[P], width: f32, c: Rgba) {
        if pts.is_empty() {
            return;
        }
        let half = width / 2.0;
        self.fill_sdf(bbox_around(pts, half + 1.0), c, |q| {
            let mut d = q.sub(pts[0]).len();
            for s in pts.windows(2) {
                d = d.min(dist_to_segment(q, s[0], s[1]));
            }
            d - half
        });
    }

    /// A closed outline of a polygon.
    pub fn outline(&mut self, pts: &[P], width: f32, c: Rgba) {
        let mut closed = pts.to_vec();
        closed.push(pts[0]);
        self.polyline(&closed, width, c);
    }

    pub fn polygon(&mut self, pts: &[P], c: Rgba) {
        self.fill_sdf(bbox_around(pts, 1.0), c, |q| polygon_sdf(q, pts));
    }

    /// A dashed straight line: dashes of `dash` px separated by `gap` px, centred so
    /// both ends get a whole (or equal partial) dash.
    pub fn dashed_line(&mut self, a: P, b: P, width: f32, dash: f32, gap: f32, c: Rgba) {
        let total = b.sub(a).len();
        let period = dash + gap;
        let n = ((total + gap) / period).floor().max(1.0);
        let used = n * period - gap;
        let start = (total - used) / 2.0;
        for i in 0..n as usize {
            let t0 = (start + i as f32 * period) / total;
            let t1 = (start + i as f32 * period + dash) / total;
            self.line(a.lerp(b, t0), a.lerp(b, t1), width, c);
        }
    }

    /// Multiplies every pixel's alpha by a mask in 0..=1 (used to cut tiles to the hex).
    pub fn mask_alpha(&mut self, mask: impl Fn(P) -> f32) {
        for y in 0..self.h {
            for x in 0..self.w {
                let k = mask(p(x as f32 + 0.5, y as f32 + 0.5));
                self.px[y * self.w + x].a *= k;
            }
        }
    }

    /// Bilinear sample in image coordinates, transparent outside; returns a
    /// premultiplied colour so that edges do not pick up black fringes.
    pub fn sample_premul(&self, q: P) -> [f32; 4] {
        let fx = q.x - 0.5;
        let fy = q.y - 0.5;
        let x0 = fx.floor();
        let y0 = fy.floor();
        let tx = fx - x0;
        let ty = fy - y0;
        let mut acc = [0.0f32; 4];
        for (dx, dy, wgt) in [
            (0, 0, (1.0 - tx) * (1.0 - ty)),
            (1, 0, tx * (1.0 - ty)),
            (0, 1, (1.0 - tx) * ty),
            (1, 1, tx * ty),
        ] {
            let xi = x0 as i64 + dx;
            let yi = y0 as i64 + dy;
            if xi < 0 || yi < 0 || xi >= self.w as i64 || yi >= self.h as i64 {
                continue;
            }
            let c = self.get(xi as usize, yi as usize);
            acc[0] += c.r * c.a * wgt;
            acc[1] += c.g * c.a * wgt;
            acc[2] += c.b * c.a * wgt;
            acc[3] += c.a * wgt;
        }
        acc
    }

    /// Draws `src` with its centre at `centre`, rotated by `angle_deg` (clockwise on
    /// screen) and scaled by `scale`, tinted by `tint` (multiplied), as a sprite
    /// renderer would. Used only for the contact sheet.
    pub fn draw_sprite(&mut self, src: &Canvas, centre: P, angle_deg: f32, scale: f32, tint: Rgba) {
        let half = p(src.w as f32 / 2.0, src.h as f32 / 2.0);
        let reach = half.len() * scale + 2.0;
        let (s, c) = angle_deg.to_radians().sin_cos();
        let x0 = ((centre.x - reach).floor().max(0.0)) as usize;
        let y0 = ((centre.y - reach).floor().max(0.0)) as usize;
        let x1 = ((centre.x + reach).ceil().max(0.0) as usize).min(self.w);
        let y1 = ((centre.y + reach).ceil().max(0.0) as usize).min(self.h);
        for y in y0..y1 {
            for x in x0..x1 {
                let d = p(x as f32 + 0.5, y as f32 + 0.5).sub(centre);
                // Inverse rotation, then inverse scale, into the source image.
                let local = p(d.x * c + d.y * s, -d.x * s + d.y * c).mul(1.0 / scale).add(half);
                let pm = if scale < 0.75 { src.box_sample(local, 1.0 / scale) } else { src.sample_premul(local) };
                if pm[3] <= 0.0 {
                    continue;
                }
                let col = Rgba {
                    r: pm[0] / pm[3] * tint.r,
                    g: pm[1] / pm[3] * tint.g,
                    b: pm[2] / pm[3] * tint.b,
                    a: 1.0,
                };
                self.blend(x, y, col, pm[3] * tint.a);
            }
        }
    }

    /// Area-averaged sample over a square of side `size` (for shrinking sprites).
    fn box_sample(&self, q: P, size: f32) -> [f32; 4] {
        let n = 4;
        let mut acc = [0.0f32; 4];
        for j in 0..n {
            for i in 0..n {
                let o = p((i as f32 + 0.5) / n as f32 - 0.5, (j as f32 + 0.5) / n as f32 - 0.5).mul(size);
                let s = self.sample_premul(q.add(o));
                for k in 0..4 {
                    acc[k] += s[k] / (n * n) as f32;
                }
            }
        }
        acc
    }

    /// Writes an 8-bit RGBA PNG with the strongest compression; fully transparent
    /// pixels are zeroed first so hidden colour does not cost bytes or vary.
    pub fn save_png(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut bytes = Vec::with_capacity(self.w * self.h * 4);
        for c in &self.px {
            let a = (c.a.clamp(0.0, 1.0) * 255.0).round() as u8;
            if a == 0 {
                bytes.extend_from_slice(&[0, 0, 0, 0]);
            } else {
                let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
                bytes.extend_from_slice(&[q(c.r), q(c.g), q(c.b), a]);
            }
        }
        let file = std::fs::File::create(path)?;
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), self.w as u32, self.h as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::High);
        enc.set_filter(png::Filter::Adaptive);
        let mut writer = enc.write_header().map_err(std::io::Error::other)?;
        writer.write_image_data(&bytes).map_err(std::io::Error::other)?;
        writer.finish().map_err(std::io::Error::other)?;
        Ok(())
    }
}

/// Bounding box of points grown by a margin, as (x0, y0, x1, y1).
pub fn bbox_around(pts: &[P], margin: f32) -> (f32, f32, f32, f32) {
    let mut b = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for q in pts {
        b.0 = b.0.min(q.x);
        b.1 = b.1.min(q.y);
        b.2 = b.2.max(q.x);
        b.3 = b.3.max(q.y);
    }
    (b.0 - margin, b.1 - margin, b.2 + margin, b.3 + margin)
}

/// A regular star or polygon: `points` outer vertices alternating with inner ones
/// when `inner` differs from `outer`. The first outer vertex points up.
pub fn star(centre: P, outer: f32, inner: f32, points: usize) -> Vec<P> {
    let mut v = Vec::with_capacity(points * 2);
    for i in 0..points * 2 {
        let r = if i % 2 == 0 { outer } else { inner };
        v.push(centre.polar(r, -90.0 + i as f32 * 180.0 / points as f32));
    }
    v
}

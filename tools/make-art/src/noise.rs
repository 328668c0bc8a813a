//! Deterministic hash noise: integer hashing, value noise and fractal sums, all with
//! fixed seeds so that every run writes identical bytes.

/// A well-mixed 32-bit hash of two integers and a seed (a variant of the
/// "lowbias32" integer finaliser), so neighbouring inputs give unrelated outputs.
pub fn hash(x: i32, y: i32, seed: u32) -> u32 {
    let mut h = (x as u32).wrapping_mul(0x8da6_b343)
        ^ (y as u32).wrapping_mul(0xd816_3841)
        ^ seed.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^= h >> 16;
    h
}

/// The hash as a float in [0, 1).
pub fn hash01(x: i32, y: i32, seed: u32) -> f32 {
    (hash(x, y, seed) >> 8) as f32 / (1u32 << 24) as f32
}

/// A small deterministic stream of numbers in [0, 1) for placing features.
pub struct Rng {
    state: u32,
    seed: u32,
}

impl Rng {
    pub fn new(seed: u32) -> Rng {
        Rng { state: 0, seed }
    }
    pub fn next(&mut self) -> f32 {
        self.state += 1;
        hash01(self.state as i32, 0x5eed, self.seed)
    }
    /// A value in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// Value noise in [0, 1) with lattice spacing `cell` pixels. With `period` (in
/// lattice cells, across and down) the noise wraps, which makes tileable textures.
pub fn value_noise(x: f32, y: f32, cell: f32, seed: u32, period: Option<(i32, i32)>) -> f32 {
    let fx = x / cell;
    let fy = y / cell;
    let ix = fx.floor() as i32;
    let iy = fy.floor() as i32;
    let tx = smooth(fx - ix as f32);
    let ty = smooth(fy - iy as f32);
    let wrap = |v: i32, n: Option<i32>| match n {
        Some(n) => v.rem_euclid(n),
        None => v,
    };
    let (px, py) = (period.map(|q| q.0), period.map(|q| q.1));
    let corner = |dx: i32, dy: i32| hash01(wrap(ix + dx, px), wrap(iy + dy, py), seed);
    let top = corner(0, 0) + (corner(1, 0) - corner(0, 0)) * tx;
    let bottom = corner(0, 1) + (corner(1, 1) - corner(0, 1)) * tx;
    top + (bottom - top) * ty
}

/// Fractal (several octaves of) value noise in about [0, 1): broad blotches with
/// finer detail on top, the look of uneven ink on paper.
pub fn fbm(x: f32, y: f32, cell: f32, octaves: u32, seed: u32, period: Option<(i32, i32)>) -> f32 {
    let mut sum = 0.0;
    let mut amp = 0.5;
    let mut norm = 0.0;
    let mut c = cell;
    let mut per = period;
    for o in 0..octaves {
        sum += amp * value_noise(x, y, c, seed.wrapping_add(o * 101), per);
        norm += amp;
        amp *= 0.5;
        c /= 2.0;
        per = per.map(|(a, b)| (a * 2, b * 2));
    }
    sum / norm
}

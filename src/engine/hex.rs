//! Hex geometry: `CCRR` labels, distance, neighbours, hexsides, vertex facings and
//! line of sight. Flat-topped hexes, columns vertical, even columns (1-based) half a
//! hex lower than odd ones; row numbers grow southwards.

use std::fmt;

use hexx::{Hex, HexOrientation, OffsetHexMode};
use serde::{Deserialize, Serialize};

/// Axial offsets of the six directions for flat-topped hexes with rows growing
/// southwards, clockwise from north.
const AXIAL_STEPS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// A hex on the map, by its 1-based column and row as printed on the map (`CCRR`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct HexCoord {
    pub col: i32,
    pub row: i32,
}

/// The six directions between flat-topped hexes, clockwise from north.
pub const DIRECTIONS: [&str; 6] = ["N", "NE", "SE", "S", "SW", "NW"];

impl HexCoord {
    pub const fn new(col: i32, row: i32) -> Self {
        Self { col, row }
    }

    /// Parses a `CCRR` label (exactly four digits).
    pub fn parse(label: &str) -> Option<Self> {
        let label = label.trim();
        if label.len() != 4 || !label.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let col = label[0..2].parse().ok()?;
        let row = label[2..4].parse().ok()?;
        Some(Self { col, row })
    }

    /// The `CCRR` label; columns or rows above 99 are printed with more digits.
    pub fn label(self) -> String {
        format!("{:02}{:02}", self.col, self.row)
    }

    pub(crate) fn axial(self) -> Hex {
        Hex::from_offset_coordinates(
            [self.col - 1, self.row - 1],
            OffsetHexMode::Odd,
            HexOrientation::Flat,
        )
    }

    pub(crate) fn from_axial(hex: Hex) -> Self {
        let [c, r] = hex.to_offset_coordinates(OffsetHexMode::Odd, HexOrientation::Flat);
        Self {
            col: c + 1,
            row: r + 1,
        }
    }

    pub fn distance(self, other: Self) -> u32 {
        self.axial().unsigned_distance_to(other.axial())
    }

    /// The neighbour in direction `dir` (0 = N, clockwise), which may lie off the map.
    pub fn neighbor(self, dir: usize) -> Self {
        let a = self.axial();
        let (dq, dr) = AXIAL_STEPS[dir % 6];
        Self::from_axial(Hex::new(a.x + dq, a.y + dr))
    }

    /// The six neighbours, clockwise from north.
    pub fn neighbors(self) -> [Self; 6] {
        let a = self.axial();
        AXIAL_STEPS.map(|(dq, dr)| Self::from_axial(Hex::new(a.x + dq, a.y + dr)))
    }

    /// The direction (0 = N, clockwise) of an adjacent hex, if it is adjacent.
    pub fn direction_to(self, other: Self) -> Option<usize> {
        let (a, b) = (self.axial(), other.axial());
        AXIAL_STEPS
            .iter()
            .position(|&(dq, dr)| b.x - a.x == dq && b.y - a.y == dr)
    }

    pub fn is_adjacent(self, other: Self) -> bool {
        self.distance(other) == 1
    }

    /// Every hex within `radius` (inclusive), sorted by label so consumers are deterministic.
    pub fn within(self, radius: u32) -> Vec<Self> {
        let mut hexes: Vec<Self> = self.axial().range(radius).map(Self::from_axial).collect();
        hexes.sort();
        hexes
    }
}

impl fmt::Display for HexCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col, self.row)
    }
}

impl Serialize for HexCoord {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.label())
    }
}

impl<'de> Deserialize<'de> for HexCoord {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        HexCoord::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{text}` is not a hex label: write four digits CCRR, e.g. \"0213\""
            ))
        })
    }
}

/// The side shared by two adjacent hexes, stored with the smaller hex first so that
/// both hexes name the same key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Hexside(HexCoord, HexCoord);

impl Hexside {
    /// The hexside between two hexes; `None` when they are not adjacent.
    pub fn between(a: HexCoord, b: HexCoord) -> Option<Self> {
        if !a.is_adjacent(b) {
            return None;
        }
        Some(if a <= b { Self(a, b) } else { Self(b, a) })
    }

    pub fn hexes(self) -> (HexCoord, HexCoord) {
        (self.0, self.1)
    }
}

impl fmt::Display for Hexside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.0, self.1)
    }
}

/// A facing towards a vertex of the hex (CdB 6, CtB 3): vertex `v` lies between
/// directions `v` and `v + 1` (0 = the vertex between N and NE, clockwise).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct VertexFacing(pub u8);

impl VertexFacing {
    pub fn all() -> [Self; 6] {
        std::array::from_fn(|v| Self(v as u8))
    }

    /// The two hexes the unit faces.
    pub fn front_dirs(self) -> [usize; 2] {
        let v = self.0 as usize % 6;
        [v, (v + 1) % 6]
    }

    /// The two hexes on its sides.
    pub fn flank_dirs(self) -> [usize; 2] {
        let v = self.0 as usize % 6;
        [(v + 5) % 6, (v + 2) % 6]
    }

    /// The two hexes behind it.
    pub fn rear_dirs(self) -> [usize; 2] {
        let v = self.0 as usize % 6;
        [(v + 3) % 6, (v + 4) % 6]
    }

    pub fn front(self, at: HexCoord) -> [HexCoord; 2] {
        self.front_dirs().map(|d| at.neighbor(d))
    }

    pub fn flank(self, at: HexCoord) -> [HexCoord; 2] {
        self.flank_dirs().map(|d| at.neighbor(d))
    }

    pub fn rear(self, at: HexCoord) -> [HexCoord; 2] {
        self.rear_dirs().map(|d| at.neighbor(d))
    }

    /// The vertex's name in scenarios and commands: NNE, E, SSE, SSW, W or NNW.
    pub fn name(self) -> &'static str {
        Self::NAMES[self.0 as usize % 6]
    }

    /// The facing a name gives (any case), or `None`.
    pub fn parse(s: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .map(|i| Self(i as u8))
    }

    const NAMES: [&'static str; 6] = ["NNE", "E", "SSE", "SSW", "W", "NNW"];

    /// The facing turned half round (used by CdB recoils and rearward moves).
    pub fn reversed(self) -> Self {
        Self((self.0 + 3) % 6)
    }
}

/// A facing towards a side of the hex (C&M): the unit faces the hex across side `d`
/// (a direction of `DIRECTIONS`, 0 = N, clockwise); the hexes across sides `d ± 1` are
/// its front corners, `d ± 2` its flanks, `d + 3` its rear.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct HexsideFacing(pub u8);

impl HexsideFacing {
    pub fn all() -> [Self; 6] {
        std::array::from_fn(|d| Self(d as u8))
    }

    fn dir(self, offset: usize) -> usize {
        (self.0 as usize + offset) % 6
    }

    /// The hex the unit faces.
    pub fn front(self, at: HexCoord) -> HexCoord {
        at.neighbor(self.dir(0))
    }

    /// The hexes at its front corners, left then right.
    pub fn front_corners(self, at: HexCoord) -> [HexCoord; 2] {
        [at.neighbor(self.dir(5)), at.neighbor(self.dir(1))]
    }

    /// The hexes on its flanks, left then right.
    pub fn flanks(self, at: HexCoord) -> [HexCoord; 2] {
        [at.neighbor(self.dir(4)), at.neighbor(self.dir(2))]
    }

    /// The hex behind it.
    pub fn rear(self, at: HexCoord) -> HexCoord {
        at.neighbor(self.dir(3))
    }

    /// The facing turned about.
    pub fn reversed(self) -> Self {
        Self(self.dir(3) as u8)
    }

    /// The side's name in scenarios and commands: N, NE, SE, S, SW or NW.
    pub fn name(self) -> &'static str {
        DIRECTIONS[self.dir(0)]
    }

    /// The facing a name gives (any case), or `None`.
    pub fn parse(s: &str) -> Option<Self> {
        DIRECTIONS
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .map(|i| Self(i as u8))
    }
}

/// The hexes a straight line from `from` to `to` passes through, in order, both ends
/// included. Where the line runs exactly along a hexside it touches two hexes; both
/// are returned as a pair so a ruleset can decide whether one or both must block.
pub fn line_of_hexes(from: HexCoord, to: HexCoord) -> Vec<(HexCoord, Option<HexCoord>)> {
    let n = line_length(from, to);
    (0..=n).map(|i| line_step(from, to, i)).collect()
}

/// How many steps the line from `from` to `to` takes (their distance).
fn line_length(from: HexCoord, to: HexCoord) -> u32 {
    from.axial().unsigned_distance_to(to.axial())
}

/// `f64::round` (half away from zero) for the small values of a hex line, without the
/// C library call `f64::round` compiles to on a baseline x86-64 (no SSE4.1 rounding).
pub fn round_half_away(x: f64) -> f64 {
    // Exact: `x` is far below 2^52, so the cast truncates and `x - t` has no error.
    let t = x as i64 as f64;
    let d = x - t;
    if d >= 0.5 {
        t + 1.0
    } else if d <= -0.5 {
        t - 1.0
    } else {
        t
    }
}

/// The `i`-th hex (or hexside pair) of `line_of_hexes(from, to)`, without the rest of
/// the line: a fire arc asks only where the line leaves the firer's hex.
pub fn line_step(from: HexCoord, to: HexCoord, i: u32) -> (HexCoord, Option<HexCoord>) {
    let a = from.axial();
    let b = to.axial();
    let n = line_length(from, to);
    if n == 0 {
        return (from, None);
    }
    // Cube coordinates, nudged both ways: where the two nudged lines differ the true
    // line runs along a hexside (hexx's plain `line_to` would keep only one hex).
    let cube = |h: Hex| [h.x as f64, h.y as f64, (-h.x - h.y) as f64];
    let (ca, cb) = (cube(a), cube(b));
    let round = |c: [f64; 3]| {
        let mut r = c.map(round_half_away);
        let d = [
            (r[0] - c[0]).abs(),
            (r[1] - c[1]).abs(),
            (r[2] - c[2]).abs(),
        ];
        if d[0] > d[1] && d[0] > d[2] {
            r[0] = -r[1] - r[2];
        } else if d[1] > d[2] {
            r[1] = -r[0] - r[2];
        } else {
            r[2] = -r[0] - r[1];
        }
        Hex::new(r[0] as i32, r[1] as i32)
    };
    const EPS: f64 = 1e-6;
    let t = i as f64 / n as f64;
    let at = |e: f64| {
        round([
            ca[0] + (cb[0] - ca[0]) * t + e,
            ca[1] + (cb[1] - ca[1]) * t + e,
            ca[2] + (cb[2] - ca[2]) * t - 2.0 * e,
        ])
    };
    let (p, q) = (at(EPS), at(-EPS));
    let first = HexCoord::from_axial(p);
    if p == q {
        (first, None)
    } else {
        (first, Some(HexCoord::from_axial(q)))
    }
}

/// Line of sight between two hexes: blocked when an intermediate hex blocks, or, where
/// the line runs along a hexside, when the hexes on both sides block (the usual
/// benefit of the doubt to the firer).
pub fn line_of_sight(from: HexCoord, to: HexCoord, blocks: impl Fn(HexCoord) -> bool) -> bool {
    // The steps between the ends, each worked out only when the ones before are clear
    // (`line_of_hexes` without its ends, and without the rest once one blocks).
    (1..line_length(from, to)).all(|i| match line_step(from, to, i) {
        (a, None) => !blocks(a),
        (a, Some(b)) => !(blocks(a) && blocks(b)),
    })
}

/// One step of a line of sight: the hex it crosses (the pair where it runs along a
/// hexside), and what blocks there, if anything, under the ruleset asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SightStep {
    pub hex: HexCoord,
    pub blocks: Option<String>,
    /// The hex on the other side of the hexside the line runs along, and what blocks
    /// there.
    pub beside: Option<(HexCoord, Option<String>)>,
}

impl SightStep {
    /// Whether this step stops the line: its hex blocks, and, along a hexside, the hex
    /// beside it too.
    pub fn stops(&self) -> bool {
        self.blocks.is_some()
            && self
                .beside
                .as_ref()
                .is_none_or(|(_, other)| other.is_some())
    }
}

impl std::fmt::Display for SightStep {
    /// `0605: clear`, or along a hexside `0605 | 0606 (along their hexside; both must
    /// block): woods; clear`: how the command line and the window list a line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = |why: &Option<String>| why.clone().unwrap_or_else(|| "clear".into());
        match &self.beside {
            None => write!(f, "{}: {}", self.hex, what(&self.blocks)),
            Some((other, why)) => write!(
                f,
                "{} | {} (along their hexside; both must block): {}; {}",
                self.hex,
                other,
                what(&self.blocks),
                what(why)
            ),
        }
    }
}

/// A line of sight as a player reads it: each hex between the ends (`line_of_hexes`
/// without the ends), what blocks at each (`why`: a ruleset's own reason), and whether
/// the line is clear (`line_of_sight`'s own answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SightLine {
    pub from: HexCoord,
    pub to: HexCoord,
    pub steps: Vec<SightStep>,
    pub clear: bool,
}

/// The line of sight from `from` to `to` with what blocks at each hex between them.
pub fn sight_line(
    from: HexCoord,
    to: HexCoord,
    why: impl Fn(HexCoord) -> Option<String>,
) -> SightLine {
    let line = line_of_hexes(from, to);
    let last = line.len().saturating_sub(1);
    let steps: Vec<SightStep> = line
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 0 && *i != last)
        .map(|(_, (a, b))| SightStep {
            hex: *a,
            blocks: why(*a),
            beside: b.map(|b| (b, why(b))),
        })
        .collect();
    let clear = line_of_sight(from, to, |h| why(h).is_some());
    SightLine {
        from,
        to,
        steps,
        clear,
    }
}

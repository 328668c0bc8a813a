//! Charles the Bold's geometry on the hex grid, as pure functions: the front line of a
//! stand facing a vertex (which hexes lie in front of it, R-front-line), the side of a
//! stand a hex touches (front, flank, rear: CtB 10.5), the wide fire arc and the
//! artillery's narrow corridor (CtB 6.0, R-arcs), the hexes "away" from an attacker a
//! retreat steps into (CtB 12.0, R-retreat), and the line of sight with its hilltops,
//! woods, towns and stands (CtB 6.0, R-LOS). They move to the engine if a second
//! ruleset needs them.

use crate::engine::hex::{HexCoord, VertexFacing};

/// Tolerance of the comparisons on hex centres (in hex radii).
const EPS: f64 = 1e-9;

/// The centre of a hex in the plane, in hex radii (centre to corner): flat-topped
/// hexes, x eastwards, y southwards.
pub fn centre(hex: HexCoord) -> (f64, f64) {
    let a = hex.axial();
    let (q, r) = (a.x as f64, a.y as f64);
    (1.5 * q, 3f64.sqrt() * (r + q / 2.0))
}

/// The unit vector from a hex's centre towards the vertex it faces: between the
/// centres of its two front hexes.
pub fn facing_axis(facing: VertexFacing) -> (f64, f64) {
    let origin = HexCoord::new(5, 5);
    let (ox, oy) = centre(origin);
    let [a, b] = facing.front(origin).map(centre);
    let (x, y) = (a.0 + b.0 - 2.0 * ox, a.1 + b.1 - 2.0 * oy);
    let len = (x * x + y * y).sqrt();
    (x / len, y / len)
}

/// How far ahead of the line through `at`'s centre, square to its facing, `hex`'s
/// centre lies (negative behind), and how far to the side of the facing axis.
fn ahead_and_aside(at: HexCoord, facing: VertexFacing, hex: HexCoord) -> (f64, f64) {
    let (ax, ay) = facing_axis(facing);
    let (cx, cy) = centre(at);
    let (hx, hy) = centre(hex);
    let (dx, dy) = (hx - cx, hy - cy);
    (dx * ax + dy * ay, (dx * ay - dy * ax).abs())
}

/// Whether `hex` lies in front of a stand in `at` facing `facing` (R-front-line): its
/// centre strictly ahead of the line through the stand's centre square to its facing.
/// The flank hexes lie on that line and so count as behind it.
pub fn in_front(at: HexCoord, facing: VertexFacing, hex: HexCoord) -> bool {
    ahead_and_aside(at, facing, hex).0 > EPS
}

/// The side of a stand an adjacent hex touches (CtB 10.5: front, and the four hexes
/// of its flanks and rear).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    Front,
    Flank,
    Rear,
}

/// The side of the stand in `at`, facing `facing`, that the adjacent hex `from` touches;
/// `None` when `from` is not adjacent.
pub fn side_touched(at: HexCoord, facing: VertexFacing, from: HexCoord) -> Option<Side> {
    let dir = at.direction_to(from)?;
    Some(if facing.front_dirs().contains(&dir) {
        Side::Front
    } else if facing.flank_dirs().contains(&dir) {
        Side::Flank
    } else {
        Side::Rear
    })
}

/// Whether a stand in `at` facing `facing` may fire at `target` with the wide frontal
/// arc (CtB 6.0, R-arcs): the line of fire leaves through one of its two front hexes.
/// Where the line's first step runs along a hexside, the firer has the benefit of the
/// doubt: either hex of the pair will do.
pub fn in_fire_arc(at: HexCoord, facing: VertexFacing, target: HexCoord) -> bool {
    if target == at {
        return false;
    }
    let front = facing.front(at);
    let (a, b) = crate::engine::hex::line_step(at, target, 1);
    front.contains(&a) || b.is_some_and(|b| front.contains(&b))
}

/// Whether `target` lies in the artillery's narrow corridor (CtB 6.0 "2H front",
/// R-arcs): ahead of the gun, its centre within half a hex's width (across the flats)
/// of the facing axis. Facing E from 0505: 0604, 0605, 0705, 0804, 0805, 0905, ...
pub fn in_corridor(at: HexCoord, facing: VertexFacing, target: HexCoord) -> bool {
    let (ahead, aside) = ahead_and_aside(at, facing, target);
    ahead > EPS && aside <= 3f64.sqrt() / 2.0 + EPS
}

/// The neighbours of `at` farther from `attacker` than `at` is: where a stand beaten
/// by a stand in `attacker` may step back (CtB 12.0, R-retreat), facing kept; beaten
/// from the rear, these lie ahead of it, so it retreats forwards as the text says.
pub fn away_hexes(at: HexCoord, attacker: HexCoord) -> Vec<HexCoord> {
    let d = at.distance(attacker);
    at.neighbors()
        .into_iter()
        .filter(|n| n.distance(attacker) > d)
        .collect()
}

/// What the line of sight reads of the ground and the stands (CtB 6.0, R-LOS).
pub struct SightGround<E, S, O>
where
    E: Fn(HexCoord) -> i8,
    S: Fn(HexCoord) -> bool,
    O: Fn(HexCoord) -> bool,
{
    /// A hex's height: 0 the plain, 1 a hillside, 2 a hilltop.
    pub elevation: E,
    /// Woods or a town: seen into, not through.
    pub screens: S,
    /// A stand stands there.
    pub occupied: O,
    /// How many levels above the lower end of the line an intermediate hex must rise
    /// to block it (R-LOS: 2, from `terrain.ron`).
    pub sight_levels: i8,
}

/// Whether a stand in `from` sees `to` (CtB 6.0, R-LOS): no intermediate hex rises
/// `sight_levels` above the lower end of the line, none is woods or a town (a target
/// in one is seen, being the first such hex of the line), and no stand stands in
/// between unless the shooter fires `overhead` (archers). Along a hexside both hexes
/// must block (the engine's benefit of the doubt). Symmetric: `to` sees `from` alike.
pub fn sight<E, S, O>(
    ground: &SightGround<E, S, O>,
    from: HexCoord,
    to: HexCoord,
    overhead: bool,
) -> bool
where
    E: Fn(HexCoord) -> i8,
    S: Fn(HexCoord) -> bool,
    O: Fn(HexCoord) -> bool,
{
    let lower = (ground.elevation)(from).min((ground.elevation)(to));
    crate::engine::hex::line_of_sight(from, to, |h| {
        sight_blocked(ground, lower, overhead, h).is_some()
    })
}

/// `sight`, with what blocks at each hex of the line (the window's line-of-sight tool).
pub fn sight_line<E, S, O>(
    ground: &SightGround<E, S, O>,
    from: HexCoord,
    to: HexCoord,
    overhead: bool,
) -> crate::engine::hex::SightLine
where
    E: Fn(HexCoord) -> i8,
    S: Fn(HexCoord) -> bool,
    O: Fn(HexCoord) -> bool,
{
    let lower = (ground.elevation)(from).min((ground.elevation)(to));
    crate::engine::hex::sight_line(from, to, |h| {
        sight_blocked(ground, lower, overhead, h).map(str::to_string)
    })
}

/// What blocks a line of sight at `h`, the lower end of the line at `lower` (CtB 6.0,
/// R-LOS), if anything.
fn sight_blocked<E, S, O>(
    ground: &SightGround<E, S, O>,
    lower: i8,
    overhead: bool,
    h: HexCoord,
) -> Option<&'static str>
where
    E: Fn(HexCoord) -> i8,
    S: Fn(HexCoord) -> bool,
    O: Fn(HexCoord) -> bool,
{
    if (ground.elevation)(h) - lower >= ground.sight_levels {
        Some("high ground, two levels above the lower end (CtB 6.0, R-LOS)")
    } else if (ground.screens)(h) {
        Some("woods or a town: seen into, not through (CtB 6.0)")
    } else if !overhead && (ground.occupied)(h) {
        Some("a stand between (CtB 6.0; archers fire over it)")
    } else {
        None
    }
}

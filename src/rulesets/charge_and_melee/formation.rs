//! How a unit's stands lie on the hexes (spec B.2 §2-3, formations.ron's `shape`): one
//! stand a hex, the stands adjacent, a formed unit facing one hexside (C&M 7.13, 7.20)
//! in ranks — a front rank of stands beside one another and ranks behind it, each stand
//! directly behind one of the rank ahead — and an unformed unit (7.22) anyhow, as long
//! as its stands touch. Pure functions, so the scenario loader and the later phases
//! read the same answer.

use std::collections::BTreeSet;

use crate::engine::hex::{HexCoord, HexsideFacing};

use super::data::Shape;

/// Why a set of stands is not in its formation's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeFault {
    /// Two stands in one hex (one stand a hex: spec B.2 §2).
    SameHex(HexCoord),
    /// A stand touching no other stand of the unit (the stands are adjacent: spec B.2 §2).
    NotAdjacent(HexCoord),
    /// A formed unit with no facing (C&M 7.13, 7.20: "the stand it is facing").
    NoFacing,
    /// The front rank is not one line of stands beside one another: `at` is a front
    /// stand that is neither beside nor behind the others.
    BrokenRank(HexCoord),
    /// Too few or too many ranks: (ranks, min, max).
    Ranks(u8, u8, u8),
    /// Too wide a front rank: (width, max).
    Width(u8, u8),
}

impl ShapeFault {
    /// The stand at fault, if one is.
    pub fn stand(&self) -> Option<HexCoord> {
        match self {
            Self::SameHex(h) | Self::NotAdjacent(h) | Self::BrokenRank(h) => Some(*h),
            _ => None,
        }
    }

    /// The fault in words, for a refusal.
    pub fn describe(&self) -> String {
        match self {
            Self::SameHex(h) => format!("two stands in {h}: one stand a hex"),
            Self::NotAdjacent(h) => {
                format!("the stand in {h} touches no other stand: a unit's stands are adjacent")
            }
            Self::NoFacing => "a formed unit faces a hexside: give its `facing`".into(),
            Self::BrokenRank(h) => format!(
                "the stand in {h} is neither beside nor directly behind another stand: a rank's stands stand side by side, each rank behind the one ahead"
            ),
            Self::Ranks(n, min, max) => {
                format!("{n} rank(s), where the formation has {min} to {max}")
            }
            Self::Width(n, max) => {
                format!("a front rank of {n} stands, where the formation has at most {max}")
            }
        }
    }
}

/// The stands' ranks, front first, for a formed unit facing `facing`: a stand whose
/// front hex holds a stand of the unit is in the rank behind that stand's. `None` when
/// a stand is in no rank (the front rank broken, or a stand not adjacent).
pub fn ranks(stands: &[HexCoord], facing: HexsideFacing) -> Result<Vec<Vec<HexCoord>>, ShapeFault> {
    let set = distinct(stands)?;
    // Depth: steps forward (along the facing) through stands of the unit.
    let depth = |s: HexCoord| {
        let mut d = 0usize;
        let mut at = s;
        while set.contains(&facing.front(at)) && d < 6 {
            at = facing.front(at);
            d += 1;
        }
        d
    };
    let front: Vec<HexCoord> = stands.iter().copied().filter(|&s| depth(s) == 0).collect();
    // Beside: the next stand to the right is at this one's right front corner or right
    // flank (spec B.2 §3: a line facing N lies along a row, one along a column faces
    // NE, SE, SW or NW). Within the front rank each stand has at most one such
    // neighbour on each side (a second would be directly behind the first), so the rank
    // is one line when it has one link fewer than stands.
    let right = |s: HexCoord| [facing.front_corners(s)[1], facing.flanks(s)[1]];
    let links = front
        .iter()
        .filter(|&&s| right(s).iter().any(|r| front.contains(r)))
        .count();
    if links + 1 != front.len() {
        // The rank is the line through the first front stand (the unit's `hex` when it
        // is in front); the culprit is the first front stand off that line.
        let mut line = vec![front[0]];
        let mut grown = true;
        while grown {
            grown = false;
            for &s in &front {
                let linked = line
                    .iter()
                    .any(|&o| right(o).contains(&s) || right(s).contains(&o));
                if !line.contains(&s) && linked {
                    line.push(s);
                    grown = true;
                }
            }
        }
        let lone = front
            .iter()
            .copied()
            .find(|s| !line.contains(s))
            .unwrap_or(front[0]);
        return Err(if stands.len() > 1 && lone_of(&set, lone) {
            ShapeFault::NotAdjacent(lone)
        } else {
            ShapeFault::BrokenRank(lone)
        });
    }
    let deepest = stands.iter().map(|&s| depth(s)).max().unwrap_or(0);
    let mut out = vec![Vec::new(); deepest + 1];
    for &s in stands {
        out[depth(s)].push(s);
    }
    Ok(out)
}

/// Whether `at` touches no other hex of `set`.
fn lone_of(set: &BTreeSet<HexCoord>, at: HexCoord) -> bool {
    !at.neighbors().iter().any(|n| set.contains(n))
}

/// The stands as a set, refusing two in one hex.
fn distinct(stands: &[HexCoord]) -> Result<BTreeSet<HexCoord>, ShapeFault> {
    let mut set = BTreeSet::new();
    for &s in stands {
        if !set.insert(s) {
            return Err(ShapeFault::SameHex(s));
        }
    }
    Ok(set)
}

/// Whether the stands all touch one another through stands of the unit.
fn contiguous(stands: &[HexCoord]) -> Result<(), ShapeFault> {
    let set = distinct(stands)?;
    let Some(&first) = stands.first() else {
        return Ok(());
    };
    let mut seen = BTreeSet::from([first]);
    let mut todo = vec![first];
    while let Some(h) = todo.pop() {
        for n in h.neighbors() {
            if set.contains(&n) && seen.insert(n) {
                todo.push(n);
            }
        }
    }
    match stands.iter().find(|s| !seen.contains(s)) {
        Some(&s) => Err(ShapeFault::NotAdjacent(s)),
        None => Ok(()),
    }
}

/// Checks that `stands` are in `shape` facing `facing` (C&M 7.15, 7.19, 7.22; spec B.2
/// §2-3). An unformed unit's facing, if any, is not read.
pub fn check_shape(
    stands: &[HexCoord],
    facing: Option<HexsideFacing>,
    shape: Shape,
) -> Result<(), ShapeFault> {
    contiguous(stands)?;
    let Shape::Ranks {
        min_ranks,
        max_ranks,
        max_width,
    } = shape
    else {
        return Ok(());
    };
    let facing = facing.ok_or(ShapeFault::NoFacing)?;
    let ranks = ranks(stands, facing)?;
    let n = ranks.len() as u8;
    if !(min_ranks..=max_ranks).contains(&n) {
        return Err(ShapeFault::Ranks(n, min_ranks, max_ranks));
    }
    let width = ranks[0].len() as u8;
    if width > max_width {
        return Err(ShapeFault::Width(width, max_width));
    }
    Ok(())
}

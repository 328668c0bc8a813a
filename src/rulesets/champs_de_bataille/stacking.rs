//! Units moving and standing together: groups (CdB 5.1; one column in difficult
//! terrain, 1.2), stacking as front and rear ranks (8, the support table) and passing
//! through friends (8.2).

use bevy::prelude::*;

use crate::engine::command::Refusal;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::UnitId;

use super::data::{Kind, Quality, TerrainClass};
use super::*;

/// Whether the front units of `units` form a group (CdB 5.1): same facing, each
/// adjacent to another of them.
pub(crate) fn check_is_group(world: &World, units: &[UnitId]) -> Result<(), Refusal> {
    let placed: Vec<(UnitId, HexCoord, VertexFacing)> = units
        .iter()
        .filter_map(|u| hex_of(world, *u).map(|h| (*u, h, facing(world, *u))))
        .collect();
    group_shape(world, &placed)
}

pub(super) fn group_shape(
    world: &World,
    placed: &[(UnitId, HexCoord, VertexFacing)],
) -> Result<(), Refusal> {
    group_shape_with(world, placed, |h| terrain_class(world, h))
}

/// `group_shape` with the terrain's class read by `class` (the march's checks have the
/// board and tables at hand).
pub(super) fn group_shape_with(
    world: &World,
    placed: &[(UnitId, HexCoord, VertexFacing)],
    class: impl Fn(HexCoord) -> TerrainClass,
) -> Result<(), Refusal> {
    let Some(&(first, _, f0)) = placed.first() else {
        return Ok(());
    };
    if let Some((u, ..)) = placed.iter().find(|(_, _, f)| *f != f0) {
        return Err(Refusal::new(
            "CdB 5.1",
            format!(
                "{} does not face the way {} does: a group faces one way",
                name(world, *u),
                name(world, first)
            ),
        ));
    }
    let mut hexes: Vec<HexCoord> = placed.iter().map(|(_, h, _)| *h).collect();
    hexes.sort();
    hexes.dedup();
    // CdB 1.2: in difficult terrain a group is one column, each unit behind another.
    let column_only = hexes.iter().any(|h| class(*h) == TerrainClass::Difficult);
    let linked = |a: HexCoord, b: HexCoord| {
        a.is_adjacent(b) && (!column_only || f0.front(a).contains(&b) || f0.rear(a).contains(&b))
    };
    let mut reached = vec![hexes[0]];
    let mut i = 0;
    while i < reached.len() {
        let h = reached[i];
        for n in h.neighbors() {
            if hexes.contains(&n) && !reached.contains(&n) && linked(h, n) {
                reached.push(n);
            }
        }
        i += 1;
    }
    if reached.len() < hexes.len() && column_only {
        return Err(Refusal::new(
            "CdB 1.2",
            "in difficult terrain a group must be one column, each unit behind another",
        ));
    }
    if reached.len() < hexes.len() {
        let cut = hexes
            .iter()
            .find(|h| !reached.contains(h))
            .expect("some hex not reached");
        return Err(Refusal::new(
            "CdB 5.1",
            format!(
                "the unit in {cut} is not adjacent to the rest: a group is a chain of adjacent units"
            ),
        ));
    }
    Ok(())
}

/// Whether `a` and `b` (front then rear) may share a hex (CdB 8, support table).
pub(crate) fn may_stack(world: &World, a: UnitId, b: UnitId) -> bool {
    if unit(world, a).corps != unit(world, b).corps {
        return false;
    }
    let (pa, pb) = (unit(world, a).p, unit(world, b).p);
    use Kind::*;
    match (pa.kind, pb.kind) {
        (Cv, Cv) | (Bd, Bd) | (Wb, Wb) | (Bw, Bw) | (Ps, Ps) => true,
        (Sp, Sp) => pa.quality == pb.quality,
        (Sp | Bd | Pk | Ax, Ps) | (Ps, Sp | Bd | Pk | Ax) => {
            let side = side_of(world, a);
            let supported = if pa.kind == Ps { pb.kind } else { pa.kind };
            state(world)
                .psiloi_support
                .iter()
                .any(|(s, kinds, _)| *s == side && kinds.contains(&supported))
        }
        _ => false,
    }
}

/// Whether a moving unit of kind `mover` may pass through friendly `other` (CdB 8.2).
pub(crate) fn may_pass_through(
    world: &World,
    mover: UnitId,
    other: UnitId,
    mover_facing: VertexFacing,
) -> bool {
    let (pm, po) = (unit(world, mover).p, unit(world, other).p);
    let of = facing(world, other);
    let aligned = of == mover_facing || of == mover_facing.reversed();
    if po.kind == Kind::Bag {
        return pm.kind.is_foot();
    }
    let adjacent_to_enemy = hex_of(world, other).is_some_and(|h| {
        let enemies = EnemyLookup::new(world, side_of(world, other));
        h.neighbors().into_iter().any(|n| enemies.at(n).is_some())
    });
    if adjacent_to_enemy {
        return false;
    }
    match (pm.kind, po.kind) {
        (Kind::Ps, _) | (_, Kind::Ps) => aligned,
        (Kind::Bw, Kind::Bd) => pm.quality != Quality::X && aligned,
        (Kind::Bd, Kind::Bw) => po.quality != Quality::X && aligned,
        _ => false,
    }
}

//! Field defences and the other hexsides a stand fights across, as pure functions of
//! the board and the tables (the Summary Sheet's hexside rows, designer's after the
//! spec's Appendix A-T; CtB 6.0, 6.2, 9.3, 10.3, 10.6): whose impetus a hexside takes
//! away, who stands in cover behind field defences, and who defends them.

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::hex::{HexCoord, VertexFacing};

use super::data::{ImpactRemoval, Tables};

/// Whether a stand in `from` attacking the adjacent `to` loses its impact at the
/// hexside between them (CtB 10.3 "some terrain removes the Impact Factor", the
/// Summary Sheet): a creek, or field defences whichever way they face (the charge
/// must cross them), each for the classes its row names.
pub fn removes_impact_across(
    tables: &Tables,
    board: &Board,
    from: HexCoord,
    to: HexCoord,
    mounted: bool,
) -> bool {
    let side = board.hexside(from, to);
    let sides = &tables.terrain.hexsides;
    let takes = |r: ImpactRemoval| r == ImpactRemoval::All || mounted;
    (side.has(HexsideFeature::Stream) && takes(sides.stream.removes_impact))
        || (side.has(HexsideFeature::FieldDefence) && takes(sides.field_defence.removes_impact))
}

/// Whether a stand in `hex` is in cover behind field defences from an enemy in `from`
/// (the Summary Sheet's "behind field defences", designer's after A-T): the line from
/// the enemy enters its hex across field defences that face the enemy (at a corner,
/// both sides the line touches; the benefit of the doubt to the enemy).
pub fn behind_defences(tables: &Tables, board: &Board, hex: HexCoord, from: HexCoord) -> bool {
    tables.terrain.hexsides.field_defence.cover && board.behind_field_defence(hex, from)
}

/// Whether a stand in `at` facing `facing` defends field defences (CtB 9.3, R-9.3): both
/// its front hexsides are field defences it stands behind, so an impetuous stand there
/// "will not leave field defences to attack".
pub fn defends_field_defences(board: &Board, at: HexCoord, facing: VertexFacing) -> bool {
    facing.front(at).iter().all(|h| {
        board.hexside(at, *h).has(HexsideFeature::FieldDefence)
            && board.behind_field_defence(at, *h)
    })
}

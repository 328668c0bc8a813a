//! Where a stand stands in a melee and what its activation has done (CtB 10.3-10.5):
//! the `Posture` a melee's dice read, now or where a move would bring it (the threat
//! map's), and a Battle Stand's situation and the flank strike reckoned from the two
//! stands' postures.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::UnitId;

use super::combat::{MeleeSituation, impact_factor};
use super::data::ImpactRemoval;
use super::geometry::{Side, in_front, side_touched};
use super::verdict::{attacked_frontally, rank_bonus};
use super::{acts, facing, hex_of, ranks, stand, status};

/// Where a stand stands in a melee and what its activation has done, as the melee's
/// dice read them (CtB 10.3-10.5): its hex and facing, its moves, the hexes it entered
/// and where its last move began.
#[derive(Clone, Copy, Debug)]
pub struct Posture {
    pub hex: HexCoord,
    pub facing: VertexFacing,
    pub moves: u8,
    pub hexes: u32,
    pub move_start: Option<HexCoord>,
}

impl Posture {
    /// The stand as it stands now.
    pub fn now(world: &World, id: UnitId) -> Self {
        let t = acts(world, id);
        Self {
            hex: hex_of(world, id).expect("on map"),
            facing: facing(world, id),
            moves: t.moves,
            hexes: t.hexes,
            move_start: t.move_start,
        }
    }
}

/// `situation` with each stand where and as `Posture` says.
pub(crate) fn situation_between(
    world: &World,
    (me, mine): (UnitId, &Posture),
    (enemy, theirs): (UnitId, &Posture),
    charged: bool,
) -> MeleeSituation {
    let s = stand(world, me).expect("a stand");
    let e = stand(world, enemy).expect("a stand");
    let tables = super::tables(world);
    let board = world.res::<Board>();
    let (mh, eh) = (mine.hex, theirs.hex);
    let (mf, ef) = (mine.facing, theirs.facing);
    let my_side = side_touched(mh, mf, eh).unwrap_or(Side::Rear);
    let their_side = side_touched(eh, ef, mh).unwrap_or(Side::Rear);
    let frontal_me = attacked_frontally(my_side, s.special.as_ref(), mine.moves > 0);
    let frontal_them = attacked_frontally(their_side, e.special.as_ref(), theirs.moves > 0);
    let moved = mine.hexes > 0;
    let start = mine.move_start;
    let from_behind = start.is_some_and(|st| !in_front(eh, ef, st)) && moved;
    let mut impact = 0;
    if charged && moved {
        let mut gets = true;
        // Foot has impact only against foot; cavalry none against pikes or long spears
        // frontally, nor into their flank from in front of their front line (CtB 10.3).
        if !s.spec.mounted && e.spec.mounted {
            gets = false;
        }
        if s.spec.mounted && e.spec.ranks.is_some() && (frontal_them || !from_behind) {
            gets = false;
        }
        if e.stakes && frontal_them {
            gets = false;
        }
        if let Some(t) = tables.terrain_type(board.terrain_name(eh)) {
            match t.removes_impact {
                Some(ImpactRemoval::All) => gets = false,
                Some(ImpactRemoval::Mounted) if s.spec.mounted => gets = false,
                _ => {}
            }
        }
        if super::defences::removes_impact_across(&tables, board, mh, eh, s.spec.mounted) {
            gets = false;
        }
        if gets {
            let lost = ranks(world, me).0 != s.sp0;
            impact = impact_factor(&s.entry, s.special.as_ref(), &tables.factors.melee, lost);
        }
    }
    let on_flank = !frontal_them;
    MeleeSituation {
        impact,
        rank_dice: rank_bonus(
            &s.spec,
            ranks(world, me).0.len(),
            e.spec.mounted,
            frontal_me,
        ),
        uphill: board.elevation(mh) > board.elevation(eh),
        on_flank_or_rear: on_flank,
        hc_flank_contact: on_flank && from_behind && s.spec.id == "HC" && charged,
        disordered: status(world, me).disordered,
    }
}

/// `flank_strike` with each stand where and as `Posture` says.
pub(crate) fn flank_strike_between(
    world: &World,
    (_, mine): (UnitId, &Posture),
    (d, theirs): (UnitId, &Posture),
    charge: bool,
) -> bool {
    let (ah, dh, df) = (mine.hex, theirs.hex, theirs.facing);
    let side = side_touched(dh, df, ah).unwrap_or(Side::Rear);
    let from_behind = mine.move_start.is_some_and(|st| !in_front(dh, df, st));
    let special = stand(world, d).and_then(|s| s.special.as_ref());
    charge && mine.hexes > 0 && from_behind && !attacked_frontally(side, special, theirs.moves > 0)
}

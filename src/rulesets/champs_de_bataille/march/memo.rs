//! What a march's checks read of one hex, worked out the first time a march asks
//! (`HexMemo`): a search asks again for every path through the hex.

use std::rc::Rc;

use crate::engine::board::HexsideFeature;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::super::data::TerrainClass;
use super::super::{enemy_at, nearest_in, zoc_exerted_on};
use super::MarchCtx;

/// What the checks read of one hex, worked out the first time a march asks: a search
/// asks again for every path through the hex.
#[derive(Default)]
pub(super) struct HexMemo {
    /// The enemies whose zone covers the hex (`zoc_exerted_on`).
    zoc: Option<Rc<[UnitId]>>,
    /// The distance to the nearest enemy (`nearest_in`).
    near: Option<u32>,
    /// An enemy, the map's edge, impassable terrain or a river beside it (CdB 4.2).
    beside_obstacle: Option<bool>,
}

impl MarchCtx<'_> {
    /// `field` of the memo of `hex`, worked out by `make` the first time (each time for
    /// a hex off the map, which has no memo).
    fn memo<T: Clone>(
        &self,
        hex: HexCoord,
        field: fn(&mut HexMemo) -> &mut Option<T>,
        make: impl FnOnce() -> T,
    ) -> T {
        let Some(i) = self.board.index(hex) else {
            return make();
        };
        let at = {
            let (slots, memos) = &mut *self.memo.borrow_mut();
            if slots[i] == 0 {
                memos.push(HexMemo::default());
                slots[i] = memos.len() as u32;
            }
            let at = slots[i] as usize - 1;
            if let Some(v) = field(&mut memos[at]) {
                return v.clone();
            }
            at
        };
        let v = make();
        *field(&mut self.memo.borrow_mut().1[at]) = Some(v.clone());
        v
    }

    pub(super) fn zoc_on(&self, hex: HexCoord) -> Rc<[UnitId]> {
        self.memo(
            hex,
            |m| &mut m.zoc,
            || zoc_exerted_on(self.world, self.side, hex).into(),
        )
    }

    pub(super) fn nearest_enemy(&self, hex: HexCoord) -> u32 {
        self.memo(hex, |m| &mut m.near, || nearest_in(&self.enemies, hex))
    }

    /// An enemy, the map's edge, impassable terrain or a river beside `hex` (CdB 4.2).
    pub(super) fn beside_obstacle(&self, hex: HexCoord) -> bool {
        let (world, board, side) = (self.world, self.board, self.side);
        self.memo(
            hex,
            |m| &mut m.beside_obstacle,
            || {
                hex.neighbors().into_iter().any(|n| {
                    // Most hexes are empty: `enemy_at` reads two resources.
                    (!self.units.at(board, n).is_empty() && enemy_at(world, side, n).is_some())
                        || !board.contains(n)
                        || self.class(n) == TerrainClass::Impassable
                        || board.hexside(hex, n).has(HexsideFeature::River)
                })
            },
        )
    }
}

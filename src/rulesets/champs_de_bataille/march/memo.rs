//! What a march's checks read of one hex, worked out the first time a march asks
//! (`HexMemo`): a search asks again for every path through the hex.

use std::cell::RefCell;
use std::rc::Rc;

use crate::engine::board::HexsideFeature;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::super::data::TerrainClass;
use super::super::{enemy_at, enemy_hexes, nearest_in, zoc_exerted_on};
use super::MarchCtx;

/// What the checks read of one hex, worked out the first time a march asks: a search
/// asks again for every path through the hex.
pub(super) struct HexMemo {
    /// The board's index of the hex.
    index: usize,
    /// The enemies whose zone covers the hex (`zoc_exerted_on`).
    zoc: Option<Rc<[UnitId]>>,
    /// The distance to the nearest enemy (`nearest_in`).
    near: Option<u32>,
    /// An enemy, the map's edge, impassable terrain or a river beside it (CdB 4.2).
    beside_obstacle: Option<bool>,
}

thread_local! {
    /// The slots of the last march's memo, all 0 again: a march's memo takes them and
    /// gives them back, rather than allocating and zeroing a list the map's size.
    static SPARE: RefCell<(Vec<u32>, Vec<HexMemo>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// The memos of a march's hexes.
pub(super) struct Memo {
    /// By the board's index of a hex, 1 + the index in `memos` of what was worked out
    /// of it, 0 if nothing yet.
    slots: Vec<u32>,
    memos: Vec<HexMemo>,
    /// No enemy's zone, shared.
    no_zoc: Rc<[UnitId]>,
}

impl Memo {
    pub(super) fn new(hex_count: usize) -> Memo {
        let (mut slots, memos) = SPARE.with(|s| std::mem::take(&mut *s.borrow_mut()));
        if slots.len() < hex_count {
            slots.resize(hex_count, 0);
        }
        Memo {
            slots,
            memos,
            no_zoc: Rc::new([]),
        }
    }
}

impl Drop for Memo {
    fn drop(&mut self) {
        for m in self.memos.drain(..) {
            self.slots[m.index] = 0;
        }
        SPARE.with(|s| {
            let mut s = s.borrow_mut();
            // A march checked inside another's search took none: keep the larger.
            if s.0.len() < self.slots.len() {
                *s = (
                    std::mem::take(&mut self.slots),
                    std::mem::take(&mut self.memos),
                );
            }
        });
    }
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
            let m = &mut *self.memo.borrow_mut();
            let (slots, memos) = (&mut m.slots, &mut m.memos);
            if slots[i] == 0 {
                memos.push(HexMemo {
                    index: i,
                    zoc: None,
                    near: None,
                    beside_obstacle: None,
                });
                slots[i] = memos.len() as u32;
            }
            let at = slots[i] as usize - 1;
            if let Some(v) = field(&mut memos[at]) {
                return v.clone();
            }
            at
        };
        let v = make();
        *field(&mut self.memo.borrow_mut().memos[at]) = Some(v.clone());
        v
    }

    pub(super) fn zoc_on(&self, hex: HexCoord) -> Rc<[UnitId]> {
        self.memo(
            hex,
            |m| &mut m.zoc,
            || {
                // Most hexes have no unit beside them, so no zone.
                let (units, board) = (self.units, self.board);
                if hex
                    .neighbors()
                    .iter()
                    .all(|n| units.at(board, *n).is_empty())
                {
                    return self.memo.borrow().no_zoc.clone();
                }
                zoc_exerted_on(self.world, self.side, hex).into()
            },
        )
    }

    pub(super) fn nearest_enemy(&self, hex: HexCoord) -> u32 {
        self.memo(
            hex,
            |m| &mut m.near,
            || {
                let enemies = self
                    .enemies
                    .get_or_init(|| enemy_hexes(self.world, self.side));
                nearest_in(enemies, hex)
            },
        )
    }

    /// An enemy, the map's edge, impassable terrain or a river beside `hex` (CdB 4.2).
    pub(super) fn beside_obstacle(&self, hex: HexCoord) -> bool {
        let (world, board, side) = (self.world, self.board, self.side);
        self.memo(
            hex,
            |m| &mut m.beside_obstacle,
            || {
                let on_map = board.contains(hex);
                hex.neighbors().into_iter().enumerate().any(|(d, n)| {
                    // Most hexes are empty: `enemy_at` reads two resources.
                    (!self.units.at(board, n).is_empty() && enemy_at(world, side, n).is_some())
                        || !board.contains(n)
                        || self.class(n) == TerrainClass::Impassable
                        || if on_map {
                            // The side towards neighbour `d` is held by index.
                            board.hexside_dir(hex, d).has(HexsideFeature::River)
                        } else {
                            board.hexside(hex, n).has(HexsideFeature::River)
                        }
                })
            },
        )
    }
}

//! The movement points an advancing unit spends to face each hex (CdB 9.5 priority 3),
//! searched only as far as the nearest enemy asked about needs.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::{Board, NONE};
use crate::engine::hex::VertexFacing;
use crate::engine::units::{SideId, UnitId, Units};

use super::super::data::TerrainClass;
use super::super::*;

/// The fewest movement points an advancing unit spends to stand facing each hex (the
/// hex in its front), by the board's hex index; `i32::MAX` where it never can (CdB 9.5
/// priority 3): 1 per hex entered (9.6; a ditch hex its scenario cost), 1 per vertex
/// turned; never into an enemy, an impassable hex or off the map; through friends, as
/// an advance passes through them (8.2).
///
/// Dijkstra's search by cost level, stopped (and resumed by the next `settle`) once a
/// level is done at which a hex asked about is faced: the rule wants the nearest
/// enemies only, and searching the whole map for every unit checked at the end of
/// movement was the bulk of the advance's cost. The costs below the level reached are
/// the fewest, as a whole search finds them; those above it are only bounds, and never
/// the least of the hexes asked about.
pub(super) struct FaceSearch {
    side: SideId,
    /// Best cost by (hex index, facing): flat, no hashing.
    best: Vec<i32>,
    /// Each hex is entered from up to six facings: its terrain and occupant are looked
    /// up once (0 unknown, 1 open, 2 closed).
    enterable: Vec<u8>,
    /// `queue[c]` holds the (hex, facing) reached for `c`, taken cheapest first (each
    /// step costs 1 or more MP, few in all).
    queue: Vec<Vec<(u32, u8)>>,
    /// The level being taken: every level below it is done.
    level: usize,
    /// The fewest MP found to face each hex.
    pub(super) to_face: Vec<i32>,
}

fn push(queue: &mut Vec<Vec<(u32, u8)>>, c: i32, at: u32, fv: u8) {
    let c = c as usize;
    if queue.len() <= c {
        queue.resize_with(c + 1, Vec::new);
    }
    queue[c].push((at, fv));
}

impl FaceSearch {
    pub(super) fn new(world: &World, u: UnitId) -> Self {
        let board = world.res::<Board>();
        let hexes = board.hex_count();
        let mut search = Self {
            side: side_of(world, u),
            best: vec![i32::MAX; hexes * 6],
            enterable: vec![0u8; hexes],
            queue: Vec::new(),
            level: 0,
            to_face: vec![i32::MAX; hexes],
        };
        if let Some(start) = hex_of(world, u).and_then(|h| board.index(h)) {
            let f0 = facing(world, u).0 as usize % 6;
            search.best[start * 6 + f0] = 0;
            push(&mut search.queue, 0, start as u32, f0 as u8);
        }
        search
    }

    /// Searches on until a done level faces one of `targets` (hex indices), or the
    /// search is over: then `to_face` holds the fewest MP of the nearest targets.
    pub(super) fn settle(&mut self, world: &World, targets: &[usize]) {
        let reached = |s: &Self| targets.iter().any(|t| s.to_face[*t] < s.level as i32);
        if reached(self) {
            return;
        }
        let board = world.res::<Board>();
        let st = state(world);
        let units = world.res::<Units>();
        let terrain = &world.res::<CdbTables>().0.terrain.terrain;
        while self.level < self.queue.len() {
            let Some((at, fv)) = self.queue[self.level].pop() else {
                self.level += 1;
                if reached(self) {
                    return;
                }
                continue;
            };
            let cost = self.level as i32;
            let (at, fv) = (at as usize, fv as usize);
            if self.best[at * 6 + fv] < cost {
                continue;
            }
            let around = board.neighbor_indices(at);
            // Taken at its fewest: the hexes it faces cost no more.
            for d in VertexFacing(fv as u8).front_dirs() {
                let n = around[d];
                if n != NONE && cost < self.to_face[n as usize] {
                    self.to_face[n as usize] = cost;
                }
            }
            let mut next = [(NONE, 0usize, 0i32); 4];
            next[0] = (at as u32, (fv + 1) % 6, 1);
            next[1] = (at as u32, (fv + 5) % 6, 1);
            for (slot, d) in VertexFacing(fv as u8).front_dirs().into_iter().enumerate() {
                let n = around[d];
                if n == NONE {
                    continue;
                }
                let n_hex = board.hex_at(n as usize);
                if self.enterable[n as usize] == 0 {
                    let class = board.terrain(n_hex).map_or(TerrainClass::Impassable, |t| {
                        terrain
                            .get(t.0 as usize)
                            .map_or(TerrainClass::Clear, |s| s.class)
                    });
                    let open = class != TerrainClass::Impassable
                        && (units.at(board, n_hex).is_empty()
                            || enemy_at(world, self.side, n_hex).is_none());
                    self.enterable[n as usize] = if open { 1 } else { 2 };
                }
                if self.enterable[n as usize] == 2 {
                    continue;
                }
                let step = if st.ditch.contains(&n_hex) {
                    st.ditch_mp.max(1)
                } else {
                    1
                };
                next[2 + slot] = (n, fv, step);
            }
            for (n, nf, step) in next {
                if n == NONE {
                    continue;
                }
                let c = cost + step;
                let slot = n as usize * 6 + nf;
                if c < self.best[slot] {
                    self.best[slot] = c;
                    push(&mut self.queue, c, n, nf as u8);
                }
            }
        }
    }
}

//! Where units stand on the board: stacks and their front ranks (CdB 8.1), the enemy
//! units near a hex, the ground of a hex (terrain class, fortifications, broken
//! ground), lines of sight (10.2), and zones of control (7.1) with frontal contact
//! (7.3).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{Hidden, Placement, SideId, UnitId, Units};
use crate::engine::zoc::ExertsZoc;

use super::data::{Kind, Tables, TerrainClass};
use super::*;

/// The units in a hex, front rank first.
pub(crate) fn stack_at(world: &World, hex: HexCoord) -> Vec<UnitId> {
    let units = world.res::<Units>();
    let mut v: Vec<UnitId> = units.at(world.res::<Board>(), hex).to_vec();
    v.sort_by_key(|u| {
        (
            crate::rulesets::common::component_of::<CdbFlags>(world, units, *u).rank,
            *u,
        )
    });
    v
}

/// The first of `stack_at`'s order (front rank, then id) among units of one hex,
/// without the sorted copy: `enemy_at` and `front_at` ask it in the searches' loops.
fn front_of(world: &World, units: &Units, here: &[UnitId]) -> Option<UnitId> {
    here.iter().copied().min_by_key(|u| {
        (
            crate::rulesets::common::component_of::<CdbFlags>(world, units, *u).rank,
            *u,
        )
    })
}

/// The unit that fights for a hex: its front rank.
pub(crate) fn front_at(world: &World, hex: HexCoord) -> Option<UnitId> {
    let units = world.res::<Units>();
    match units.at(world.res::<Board>(), hex) {
        [] => None,
        [u] => Some(*u),
        many => front_of(world, units, many),
    }
}

/// The units stacked with `id`, itself first.
pub(crate) fn stack_of(world: &World, id: UnitId) -> Vec<UnitId> {
    match hex_of(world, id) {
        Some(h) => {
            let mut s = stack_at(world, h);
            s.sort_by_key(|u| *u != id);
            s
        }
        None => vec![id],
    }
}

/// Enemy units of `side` that the player of `side` can see (not hidden).
pub(crate) fn enemy_at(world: &World, side: SideId, hex: HexCoord) -> Option<UnitId> {
    EnemyLookup::new(world, side).at(hex)
}

/// `enemy_at` over many hexes for one side: the roster and the board are looked up by
/// type once, where `enemy_at` looks both up at every hex (a bowman's whole range,
/// the six hexes around a general).
pub(crate) struct EnemyLookup<'w> {
    world: &'w World,
    units: &'w Units,
    board: &'w Board,
    side: SideId,
}

impl<'w> EnemyLookup<'w> {
    pub(crate) fn new(world: &'w World, side: SideId) -> Self {
        EnemyLookup {
            world,
            units: world.res::<Units>(),
            board: world.res::<Board>(),
            side,
        }
    }

    /// The visible enemy unit that fights for `hex` (`enemy_at`).
    pub(crate) fn at(&self, hex: HexCoord) -> Option<UnitId> {
        let units = self.units;
        let front = match units.at(self.board, hex) {
            [] => return None,
            [u] => *u,
            many => front_of(self.world, units, many).expect("a stack"),
        };
        (units.side(front) != self.side
            && self
                .world
                .get_cached::<Hidden>(units.entity(front))
                .is_none())
        .then_some(front)
    }
}

pub(crate) fn terrain_class(world: &World, hex: HexCoord) -> TerrainClass {
    let board = world.res::<Board>();
    match board.terrain(hex) {
        Some(t) => tables(world)
            .terrain
            .terrain
            .get(t.0 as usize)
            .map_or(TerrainClass::Clear, |s| s.class),
        None => TerrainClass::Impassable,
    }
}

/// Whether a hex is a fortification (CdB 11.6, 11.7, 11.9).
pub(crate) fn fortified(world: &World, hex: HexCoord) -> bool {
    let board = world.res::<Board>();
    board.terrain(hex).is_some_and(|t| {
        tables(world)
            .terrain
            .terrain
            .get(t.0 as usize)
            .is_some_and(|s| s.fortification)
    })
}

/// Broken or difficult ground (CdB 11.5 "in broken", the -2 modifiers).
pub(crate) fn rough(world: &World, hex: HexCoord) -> bool {
    matches!(
        terrain_class(world, hex),
        TerrainClass::Broken | TerrainClass::Difficult
    )
}

/// The board and terrain table a line of sight reads, fetched once for a whole line.
pub(crate) struct Sight<'w> {
    board: &'w Board,
    tables: &'w Tables,
    memo: Option<&'w SightMemo>,
}

/// Lines of sight over the terrain alone (`Sight::clear`), remembered by their two
/// ends: the terrain and heights never change in play, and the set-up's ambushes
/// (CdB 14.3) ask the same lines after every command, the computer opponent's drawing
/// of them for every hex of the map. 0 not yet drawn, 1 clear, 2 blocked. Not game
/// state: a world without it, or a copy without it, draws the lines again.
#[derive(Resource)]
pub(crate) struct SightMemo {
    hexes: usize,
    lines: Vec<std::sync::atomic::AtomicU8>,
}

impl SightMemo {
    pub(crate) fn for_board(board: &Board) -> Self {
        let hexes = board.hex_count();
        SightMemo {
            hexes,
            lines: (0..hexes * hexes)
                .map(|_| std::sync::atomic::AtomicU8::new(0))
                .collect(),
        }
    }
}

impl<'w> Sight<'w> {
    pub(crate) fn of(world: &'w World) -> Self {
        Sight {
            board: world.res::<Board>(),
            tables: &world.res::<CdbTables>().0,
            memo: world.get_resource::<SightMemo>(),
        }
    }

    /// Whether the terrain between `from` and `to` leaves the line of sight clear
    /// (CdB 10.2: `blocks` at every hex between the ends), remembered (`SightMemo`).
    pub(crate) fn clear(&self, from: HexCoord, to: HexCoord) -> bool {
        let draw = || {
            crate::engine::hex::line_of_sight(from, to, |x| {
                x != from && x != to && self.blocks(x, from, to)
            })
        };
        let (Some(memo), Some(a), Some(b)) =
            (self.memo, self.board.index(from), self.board.index(to))
        else {
            return draw();
        };
        use std::sync::atomic::Ordering::Relaxed;
        let Some(slot) = memo.lines.get(a * memo.hexes + b) else {
            return draw();
        };
        match slot.load(Relaxed) {
            1 => true,
            2 => false,
            _ => {
                let clear = draw();
                slot.store(if clear { 1 } else { 2 }, Relaxed);
                clear
            }
        }
    }

    /// Whether a hex blocks a line of sight between `from` and `to` (CdB 10.2): woods,
    /// buildings, orchards, or a hill higher than both ends.
    pub(crate) fn blocks(&self, x: HexCoord, from: HexCoord, to: HexCoord) -> bool {
        let blocks = self
            .board
            .terrain(x)
            .and_then(|id| self.tables.terrain.terrain.get(id.0 as usize))
            .is_some_and(|s| s.blocks_los);
        blocks || self.board.elevation(x) > self.board.elevation(from).max(self.board.elevation(to))
    }
}

pub(super) type PositionQuery = (
    &'static UnitId,
    &'static Placement,
    &'static SideId,
    Has<Hidden>,
    &'static CdbFlags,
);

/// A query over every unit's position, built once per game: whole-army scans read
/// through it rather than one `World::get` per component and unit.
#[derive(Resource)]
pub(crate) struct PositionScan(pub(super) std::sync::Mutex<QueryState<PositionQuery>>);

/// The hexes of the visible units of the enemies of `side`.
pub(crate) fn enemy_hexes(world: &World, side: SideId) -> Vec<HexCoord> {
    let scan = world.resource::<PositionScan>();
    let mut q = scan.0.lock().unwrap_or_else(|poison| poison.into_inner());
    q.iter(world)
        .filter(|(_, _, s, hidden, _)| **s != side && !hidden)
        .filter_map(|(_, p, ..)| p.hex())
        .collect()
}

/// Hex distance to the nearest enemy unit on the map.
pub(crate) fn nearest_enemy_distance(world: &World, side: SideId, hex: HexCoord) -> u32 {
    nearest_in(&enemy_hexes(world, side), hex)
}

pub(crate) fn nearest_in(hexes: &[HexCoord], hex: HexCoord) -> u32 {
    hexes
        .iter()
        .map(|h| h.distance(hex))
        .min()
        .unwrap_or(u32::MAX)
}

/// The enemy units whose zone of control covers `hex` (CdB 7.1), read from the engine's
/// zones (`ZoneOfControl`, whose shape is `frontal_zone`), which every command brings up
/// to date (`refresh_zoc`) before the rules read them.
pub(crate) fn zoc_exerted_on(world: &World, side: SideId, hex: HexCoord) -> Vec<UnitId> {
    debug_assert!(
        zones_current(world),
        "zones of control read before they were brought up to date"
    );
    let units = world.res::<Units>();
    let board = world.res::<Board>();
    let mut out = Vec::new();
    for n in hex.neighbors() {
        let (one, many);
        let stack: &[UnitId] = match units.at(board, n) {
            [] => continue,
            // One unit: its stack, without a sorted copy (`stack_at`).
            [u] => {
                one = [*u];
                &one
            }
            _ => {
                many = stack_at(world, n);
                &many
            }
        };
        for &u in stack {
            if units.side(u) != side
                && world
                    .get::<crate::engine::zoc::ZoneOfControl>(units.entity(u))
                    .is_some_and(|z| z.hexes.contains(&hex))
            {
                out.push(u);
            }
        }
    }
    out
}

/// Whether a unit exerts a zone of control: not baggage (CdB 6.1), front rank.
pub(crate) fn exerts_zoc(world: &World, id: UnitId) -> bool {
    kind(world, id) != Kind::Bag && flags(world, id).rank == 0 && hex_of(world, id).is_some()
}

/// Whether `id` stands in an enemy zone of control.
pub(crate) fn in_enemy_zoc(world: &World, id: UnitId) -> bool {
    hex_of(world, id).is_some_and(|h| !zoc_exerted_on(world, side_of(world, id), h).is_empty())
}

/// Enemy units in `id`'s zone of control (its two frontal hexes).
pub(crate) fn enemies_in_front(world: &World, id: UnitId) -> Vec<UnitId> {
    let Some(h) = hex_of(world, id) else {
        return Vec::new();
    };
    let enemies = EnemyLookup::new(world, side_of(world, id));
    facing(world, id)
        .front(h)
        .into_iter()
        .filter_map(|f| enemies.at(f))
        .collect()
}

/// Two units in frontal contact: each in the other's zone of control (CdB 7.3).
pub(crate) fn frontal_contact(world: &World, a: UnitId, b: UnitId) -> bool {
    let (Some(ha), Some(hb)) = (hex_of(world, a), hex_of(world, b)) else {
        return false;
    };
    exerts_zoc(world, a)
        && exerts_zoc(world, b)
        && facing(world, a).front(ha).contains(&hb)
        && facing(world, b).front(hb).contains(&ha)
}
/// CdB 7.1: a unit's zone of control is its two frontal hexes. (Every CdB unit has a
/// facing; one without would hold the six hexes around it.)
pub(super) fn frontal_zone(
    board: &Board,
    at: HexCoord,
    facing: Option<VertexFacing>,
    out: &mut Vec<HexCoord>,
) {
    match facing {
        Some(f) => out.extend(f.front(at).into_iter().filter(|h| board.contains(*h))),
        None => out.extend(
            board
                .neighbors_on_map(at)
                .filter(|n| !board.hexside(at, *n).is_unbridged_river()),
        ),
    }
}

/// Brings the engine's zones of control up to date: the units' `ZoneOfControl`, which
/// the rules read (`zoc_exerted_on`), and `ZocMap`, which the view shades.
pub(crate) fn refresh_zoc(world: &mut World) {
    if zones_current(world) {
        return;
    }
    // Rear ranks exert no zone (CdB 8.1: the stack is one unit): keep the marker in step.
    // One pass over the units, then the markers changed in unit order, as the rules
    // would one unit at a time.
    if !world.contains_resource::<ZoneMarkerScan>() {
        let scan = world.query::<ZoneMarkerQuery>();
        world.insert_resource(ZoneMarkerScan(std::sync::Mutex::new(scan)));
    }
    let mut changes: Vec<(UnitId, Entity, bool)> = {
        let scan = world.resource::<ZoneMarkerScan>();
        let mut q = scan.0.lock().unwrap_or_else(|poison| poison.into_inner());
        let units = world.res::<Units>();
        q.iter(world)
            .filter_map(|(e, id, u, f, hidden, has)| {
                let should = u.p.kind != Kind::Bag
                    && f.rank == 0
                    && units.placement(*id).hex().is_some()
                    && !hidden;
                (should != has).then_some((*id, e, should))
            })
            .collect()
    };
    changes.sort_by_key(|c| c.0);
    for (_, e, should) in changes {
        if should {
            world.entity_mut(e).insert(ExertsZoc);
        } else {
            world.entity_mut(e).remove::<ExertsZoc>();
        }
    }
    refresh_zones(world);
}

type ZoneMarkerQuery = (
    Entity,
    &'static UnitId,
    &'static CdbUnit,
    &'static CdbFlags,
    Has<Hidden>,
    Has<ExertsZoc>,
);

/// The query `refresh_zoc` reads the zone markers through, built once per world: a
/// query built for each refresh matched every archetype again (6% of autoplay).
#[derive(Resource)]
struct ZoneMarkerScan(std::sync::Mutex<QueryState<ZoneMarkerQuery>>);

//! The map: terrain and elevation per hex, features on hexsides, held both as
//! `HexTile` entities (for systems and the view) and as a flat `Board` resource that
//! pathfinding reads without a query.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::hex::{HexCoord, Hexside};

/// A terrain type, as an index into the ruleset's terrain table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct TerrainId(pub u8);

/// What a hexside carries. Several features may share a side (a road over a bridge).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HexsideFeature {
    River,
    Stream,
    Bridge,
    Road,
    /// A ford: a river or stream crossed on foot and horse (Morne Plaine).
    Ford,
    /// Field defences: a ditch, palisade, line of stakes or entrenchment along the
    /// hexside. They face one way: the hex behind them is the defended one
    /// (`HexsideSpec::defended`, `Board::add_field_defence`). What they do is the
    /// ruleset's; a ruleset without them refuses them in its scenario checks.
    FieldDefence,
}

/// The flag, held only on the defended hex's side, of field defences facing away from
/// it.
const DEFENDED: u8 = 64;

/// The features of one hexside, as bit flags.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct HexsideFeatures(u8);

impl HexsideFeatures {
    pub fn with(self, f: HexsideFeature) -> Self {
        Self(self.0 | Self::bit(f))
    }
    pub fn has(self, f: HexsideFeature) -> bool {
        self.0 & Self::bit(f) != 0
    }
    fn bit(f: HexsideFeature) -> u8 {
        match f {
            HexsideFeature::River => 1,
            HexsideFeature::Stream => 2,
            HexsideFeature::Bridge => 4,
            HexsideFeature::Road => 8,
            HexsideFeature::Ford => 16,
            HexsideFeature::FieldDefence => 32,
        }
    }
    /// Read from a hex's own side (`Board::hexside_dir`, or `Board::hexside(hex, _)`
    /// with `hex` on the map): that hex stands behind the field defences on this side.
    pub fn defended(self) -> bool {
        self.0 & DEFENDED != 0
    }
    /// A river that no bridge crosses here.
    pub fn is_unbridged_river(self) -> bool {
        self.has(HexsideFeature::River) && !self.has(HexsideFeature::Bridge)
    }
}

/// One hex of the map as an entity.
#[derive(Component, Clone, Copy, Debug)]
pub struct HexTile {
    pub hex: HexCoord,
    pub terrain: TerrainId,
    pub elevation: i8,
}

/// The whole map, flat, for fast lookups.
#[derive(Resource, Clone, Debug)]
pub struct Board {
    pub columns: i32,
    pub rows: i32,
    terrain: Vec<TerrainId>,
    elevation: Vec<i8>,
    /// Features of each hex's six sides, `index * 6 + direction` (both hexes of a side
    /// hold it), so movement reads them without hashing.
    sides: Vec<HexsideFeatures>,
    /// Terrain names by id, for messages.
    pub terrain_names: Vec<String>,
    /// For each hex index, the indices of its six neighbours (N clockwise), `NONE`
    /// off the map: pathfinding walks these without converting coordinates.
    neighbor_index: Vec<[u32; 6]>,
}

/// No neighbour there (off the map).
pub const NONE: u32 = u32::MAX;

impl Board {
    pub fn new(columns: i32, rows: i32, terrain_names: Vec<String>) -> Self {
        let n = (columns.max(0) * rows.max(0)) as usize;
        let mut board = Self {
            columns,
            rows,
            terrain: vec![TerrainId(0); n],
            elevation: vec![0; n],
            sides: vec![HexsideFeatures::default(); n * 6],
            terrain_names,
            neighbor_index: Vec::with_capacity(n),
        };
        let table: Vec<[u32; 6]> = board
            .hexes()
            .map(|h| {
                h.neighbors()
                    .map(|nb| board.index(nb).map_or(NONE, |i| i as u32))
            })
            .collect();
        board.neighbor_index = table;
        board
    }

    /// The hex at a flat index.
    pub fn hex_at(&self, index: usize) -> HexCoord {
        let rows = self.rows.max(1) as usize;
        HexCoord::new((index / rows) as i32 + 1, (index % rows) as i32 + 1)
    }

    /// The neighbour indices of the hex at `index` (N clockwise; `NONE` off the map).
    pub fn neighbor_indices(&self, index: usize) -> [u32; 6] {
        self.neighbor_index[index]
    }

    /// The terrain at a flat index.
    pub fn terrain_at(&self, index: usize) -> TerrainId {
        self.terrain[index]
    }

    /// The features of side `dir` of the hex at `index`.
    pub fn side_at(&self, index: usize, dir: usize) -> HexsideFeatures {
        self.sides[index * 6 + dir]
    }

    pub fn contains(&self, hex: HexCoord) -> bool {
        (1..=self.columns).contains(&hex.col) && (1..=self.rows).contains(&hex.row)
    }

    /// The index of a hex in flat per-hex tables, `None` off the map.
    pub fn index(&self, hex: HexCoord) -> Option<usize> {
        self.contains(hex)
            .then(|| ((hex.col - 1) * self.rows + (hex.row - 1)) as usize)
    }

    pub fn hex_count(&self) -> usize {
        self.terrain.len()
    }

    /// Every hex of the map, column by column.
    pub fn hexes(&self) -> impl Iterator<Item = HexCoord> + '_ {
        (1..=self.columns).flat_map(move |c| (1..=self.rows).map(move |r| HexCoord::new(c, r)))
    }

    pub fn terrain(&self, hex: HexCoord) -> Option<TerrainId> {
        self.index(hex).map(|i| self.terrain[i])
    }

    pub fn terrain_name(&self, hex: HexCoord) -> &str {
        self.terrain(hex)
            .and_then(|t| self.terrain_names.get(t.0 as usize))
            .map_or("off-map", String::as_str)
    }

    pub fn set_terrain(&mut self, hex: HexCoord, terrain: TerrainId) {
        if let Some(i) = self.index(hex) {
            self.terrain[i] = terrain;
        }
    }

    pub fn elevation(&self, hex: HexCoord) -> i8 {
        self.index(hex).map_or(0, |i| self.elevation[i])
    }

    pub fn set_elevation(&mut self, hex: HexCoord, level: i8) {
        if let Some(i) = self.index(hex) {
            self.elevation[i] = level;
        }
    }

    /// The features of the side between two hexes (none if they are not adjacent).
    pub fn hexside(&self, a: HexCoord, b: HexCoord) -> HexsideFeatures {
        match (self.index(a), a.direction_to(b)) {
            (Some(i), Some(d)) => self.sides[i * 6 + d],
            _ => match (self.index(b), b.direction_to(a)) {
                (Some(i), Some(d)) => self.sides[i * 6 + d],
                _ => HexsideFeatures::default(),
            },
        }
    }

    /// The features of the side of `hex` in direction `dir`.
    pub fn hexside_dir(&self, hex: HexCoord, dir: usize) -> HexsideFeatures {
        self.index(hex)
            .map_or_else(HexsideFeatures::default, |i| self.sides[i * 6 + dir % 6])
    }

    pub fn add_hexside_feature(&mut self, side: Hexside, feature: HexsideFeature) {
        let (a, b) = side.hexes();
        for (from, to) in [(a, b), (b, a)] {
            if let (Some(i), Some(d)) = (self.index(from), from.direction_to(to)) {
                self.sides[i * 6 + d] = self.sides[i * 6 + d].with(feature);
            }
        }
    }

    /// Field defences on the side between `defended` and the adjacent `outside`, facing
    /// `outside`: both hexes hold the feature, only `defended` holds the flag that it
    /// stands behind them. Nothing when the hexes are not adjacent.
    pub fn add_field_defence(&mut self, defended: HexCoord, outside: HexCoord) {
        let Some(side) = Hexside::between(defended, outside) else {
            return;
        };
        self.add_hexside_feature(side, HexsideFeature::FieldDefence);
        if let (Some(i), Some(d)) = (self.index(defended), defended.direction_to(outside)) {
            self.sides[i * 6 + d] = HexsideFeatures(self.sides[i * 6 + d].0 | DEFENDED);
        }
    }

    /// Whether `hex` stands behind field defences against `from`: the straight line
    /// from `from`'s centre enters `hex` across a side that defends it; where the line
    /// comes in at a corner, running along a hexside, both sides it touches must defend
    /// it (the benefit of the doubt to `from`). False for `hex` itself or off the map.
    pub fn behind_field_defence(&self, hex: HexCoord, from: HexCoord) -> bool {
        let Some(i) = self.index(hex) else {
            return false;
        };
        // Most hexes have no defended side: then no line needs drawing.
        if !(0..6).any(|d| self.sides[i * 6 + d].defended()) {
            return false;
        }
        // The line's last hex before `hex` (none when `from` is `hex`).
        let Some(k) = from.distance(hex).checked_sub(1) else {
            return false;
        };
        let (a, b) = super::hex::line_step(from, hex, k);
        let defends = |n: HexCoord| {
            hex.direction_to(n)
                .is_some_and(|d| self.sides[i * 6 + d].defended())
        };
        defends(a) && b.is_none_or(defends)
    }

    /// The neighbours of a hex that lie on the map.
    pub fn neighbors_on_map(&self, hex: HexCoord) -> impl Iterator<Item = HexCoord> + '_ {
        hex.neighbors().into_iter().filter(|h| self.contains(*h))
    }

    /// Spawns one `HexTile` entity per hex, for systems and the view.
    pub fn spawn_tiles(&self, world: &mut World) {
        let tiles: Vec<HexTile> = self
            .hexes()
            .map(|hex| HexTile {
                hex,
                terrain: self.terrain(hex).unwrap_or_default(),
                elevation: self.elevation(hex),
            })
            .collect();
        world.spawn_batch(tiles);
    }
}

/// Every hex of the map as its `HexTile` component holds it, in label order: what the
/// window draws the terrain from.
pub fn tiles(world: &World) -> Vec<HexTile> {
    let mut out: Vec<HexTile> = match world.try_query::<&HexTile>() {
        Some(mut q) => q.iter(world).copied().collect(),
        None => Vec::new(),
    };
    out.sort_by_key(|t| t.hex);
    out
}
/// A side of the map.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Hash, serde::Serialize)]
pub enum MapEdge {
    West,
    East,
    North,
    South,
}

impl MapEdge {
    pub const ALL: [MapEdge; 4] = [MapEdge::West, MapEdge::East, MapEdge::North, MapEdge::South];

    pub fn name(self) -> &'static str {
        match self {
            MapEdge::West => "West",
            MapEdge::East => "East",
            MapEdge::North => "North",
            MapEdge::South => "South",
        }
    }

    /// The edge a name gives (any case), or `None`.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s))
    }

    /// The edge across the map.
    pub fn opposite(self) -> Self {
        match self {
            MapEdge::West => MapEdge::East,
            MapEdge::East => MapEdge::West,
            MapEdge::North => MapEdge::South,
            MapEdge::South => MapEdge::North,
        }
    }
}

// Read by the kept id in the rules' inner loops (`engine::cached`).
crate::cached_id!(Board);

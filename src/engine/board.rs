//! The map: terrain and elevation per hex, features on hexsides, held both as
//! `HexTile` entities (for systems and the view) and as a flat `Board` resource that
//! pathfinding reads without a query.

use std::collections::HashMap;

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
}

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
        }
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
    hexsides: HashMap<Hexside, HexsideFeatures>,
    /// Terrain names by id, for messages.
    pub terrain_names: Vec<String>,
}

impl Board {
    pub fn new(columns: i32, rows: i32, terrain_names: Vec<String>) -> Self {
        let n = (columns.max(0) * rows.max(0)) as usize;
        Self {
            columns,
            rows,
            terrain: vec![TerrainId(0); n],
            elevation: vec![0; n],
            hexsides: HashMap::new(),
            terrain_names,
        }
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

    pub fn hexside(&self, a: HexCoord, b: HexCoord) -> HexsideFeatures {
        Hexside::between(a, b)
            .and_then(|s| self.hexsides.get(&s).copied())
            .unwrap_or_default()
    }

    pub fn add_hexside_feature(&mut self, side: Hexside, feature: HexsideFeature) {
        let f = self.hexsides.entry(side).or_default();
        *f = f.with(feature);
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

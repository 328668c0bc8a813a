//! Scenario files: the RON schema every ruleset shares (map, sides, units,
//! reinforcements, special rules, victory at the time limit), and the generic checks.
//! A ruleset checks the rest (unit types, terrain names, stacking).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use ron::extensions::Extensions;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::board::HexsideFeature;
use super::error::LocatedError;
use super::hex::HexCoord;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub name: String,
    pub date: String,
    /// The ruleset id: `a_la_charge`, ...
    pub ruleset: String,
    #[serde(default)]
    pub history: String,
    /// Where the scenario's data comes from.
    #[serde(default)]
    pub source: String,
    pub turns: u32,
    pub map: MapSpec,
    pub sides: Vec<SideSpec>,
    /// The id of the side that moves first.
    pub first: String,
    pub units: Vec<UnitSpec>,
    #[serde(default)]
    pub reinforcements: Vec<ReinforcementSpec>,
    #[serde(default)]
    pub special_rules: Vec<SpecialRule>,
    /// Optional rules switched on, e.g. `hills_block_fire`.
    #[serde(default)]
    pub options: Vec<String>,
    /// Who wins when the last turn ends with no other victory.
    pub at_time_limit: TimeLimitVictory,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    pub columns: i32,
    pub rows: i32,
    /// The terrain of every hex not listed.
    #[serde(default = "default_terrain")]
    pub default_terrain: String,
    /// Terrain name -> hexes.
    #[serde(default)]
    pub terrain: BTreeMap<String, Vec<HexCoord>>,
    #[serde(default)]
    pub hexsides: Vec<HexsideSpec>,
    /// Elevation level -> hexes (unlisted hexes are level 0).
    #[serde(default)]
    pub elevation: BTreeMap<i8, Vec<HexCoord>>,
    /// Where the terrain comes from.
    #[serde(default)]
    pub source: String,
}

fn default_terrain() -> String {
    "clear".into()
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideSpec {
    pub between: (HexCoord, HexCoord),
    pub features: Vec<HexsideFeature>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub id: String,
    pub name: String,
    /// The army morale level of AlC 13.
    #[serde(default)]
    pub morale_level: i32,
    /// The id of the side's commander-in-chief.
    #[serde(default)]
    pub commander: Option<String>,
    /// The army's Aggression Rating (CdB 14.3).
    #[serde(default)]
    pub aggression: Option<i32>,
    /// The map edge the side deploys on and flees towards (CdB 11.8, 14.3).
    #[serde(default)]
    pub edge: Option<MapEdge>,
    /// The army's corps, each under a general (CdB 4).
    #[serde(default)]
    pub corps: Vec<CorpsSpec>,
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

/// A corps of an army (CdB 4, 14.1): its general and whether it is an allied corps.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpsSpec {
    pub id: String,
    pub name: String,
    /// The unit id of the corps' general.
    pub general: String,
    /// An allied corps (CdB 4.3): its reliability is tested on its first AP roll.
    #[serde(default)]
    pub allied: bool,
    /// An allied corps of another nationality, which changes sides (CdB 4.3).
    #[serde(default)]
    pub foreign: bool,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub id: String,
    pub name: String,
    pub side: String,
    #[serde(rename = "type")]
    pub unit_type: String,
    /// Absent for reinforcements and units placed in secret.
    #[serde(default)]
    pub hex: Option<HexCoord>,
    /// Starts the game on its reduced side.
    #[serde(default)]
    pub reduced: bool,
    /// The corps the unit belongs to (CdB 4).
    #[serde(default)]
    pub corps: Option<String>,
    /// The vertex the unit faces (CdB 6): `NNE`, `E`, `SSE`, `SSW`, `W` or `NNW`.
    #[serde(default)]
    pub facing: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReinforcementSpec {
    pub unit: String,
    /// The first turn it may enter.
    pub turn: u32,
    /// The hexes through which it may enter the map.
    pub entry: Vec<HexCoord>,
}

/// A rectangle of hexes, inclusive on every side.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HexZone {
    pub min_col: i32,
    pub max_col: i32,
    pub min_row: i32,
    pub max_row: i32,
}

impl HexZone {
    pub fn contains(&self, h: HexCoord) -> bool {
        (self.min_col..=self.max_col).contains(&h.col)
            && (self.min_row..=self.max_row).contains(&h.row)
    }
}

/// The scenario special rules the engine knows; each ruleset says which it enforces.
#[derive(Clone, Debug, Deserialize)]
pub enum SpecialRule {
    /// A unit placed in secret by its owner in a zone before the first turn, unable to
    /// act before `active_from_turn` and hidden from the enemy until revealed.
    HiddenPlacement {
        unit: String,
        zone: HexZone,
        active_from_turn: u32,
        #[serde(default)]
        source: String,
    },
    /// At the start of each of `roll_side`'s movement phases, a die decides whether
    /// `unit` changes sides for good: it does on `min_roll[turn]` or more.
    Defection {
        unit: String,
        roll_side: String,
        /// (turn, least roll that succeeds), a turn absent means no roll that turn; the
        /// last entry applies to every later turn.
        min_roll: Vec<(u32, u8)>,
        #[serde(default)]
        source: String,
    },
    /// When a unit of `by_side` enters a hex of one of `columns`, every unit of the
    /// other side loses `penalty` from its strength and morale for the rest of the game.
    CampPillage {
        by_side: String,
        columns: Vec<i32>,
        penalty: i32,
        #[serde(default)]
        source: String,
    },
    /// Attacker and defender are found by a die plus each army's aggression (CdB 14.3).
    AttackerByAggression {
        #[serde(default)]
        source: String,
    },
    /// The set-up of CdB 14.3 is played: the attacker's edge roll, baggage, the corps'
    /// placement written in secret, ambushes, and the corps placed in turn in their
    /// zones. The figures are the rule's distances in hexes from the map edges.
    Deployment {
        /// The defender's most numerous corps stands within this many hexes of his edge.
        defender_main_depth: i32,
        /// The attacker's most numerous corps stands within this many hexes of his edge.
        attacker_main_depth: i32,
        /// Units stand more than this many hexes from the left and right edges.
        side_margin: i32,
        /// The other corps stand within this many hexes of their own edge.
        other_depth: i32,
        /// The defender's Psiloi in ambush stand at least this far from the enemy edge.
        psiloi_ambush_from_enemy_edge: i32,
        /// Whether the attacker chooses the edge (14.3.2); `false` keeps the sides'
        /// `edge`s, for a map whose features fix them (the Daras ditch).
        choose_edge: bool,
        #[serde(default)]
        source: String,
    },
    /// Hexes of a ditch: each costs `mp_cost` MP to enter, and units in one subtract
    /// `combat_modifier` from their combat dice (CdB Daras special rule 3).
    Ditch {
        hexes: Vec<HexCoord>,
        mp_cost: i32,
        combat_modifier: i32,
        #[serde(default)]
        source: String,
    },
    /// The units that may fight mounted or on foot change counters (CdB 2.7): before
    /// the first turn only (`in_play: false`), or also in play for 1 PA.
    Dismount {
        units: Vec<String>,
        #[serde(default)]
        in_play: bool,
        #[serde(default)]
        source: String,
    },
    /// Psiloi of `side` may stack with and support units of the `supported` kinds
    /// against the `against` kinds (CdB 8, support table line 6; scenario rules).
    PsiloiSupport {
        side: String,
        supported: Vec<String>,
        against: Vec<String>,
        #[serde(default)]
        source: String,
    },
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, serde::Serialize)]
pub enum VictoryLevel {
    Minor,
    Major,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeLimitVictory {
    pub winner: String,
    pub level: VictoryLevel,
    #[serde(default)]
    pub source: String,
}

/// A scenario read and checked, with its text kept for located errors and its hash
/// for saves.
#[derive(Clone, Debug)]
pub struct LoadedScenario {
    pub path: PathBuf,
    pub text: String,
    pub file: ScenarioFile,
    /// SHA-256 of the scenario text and of the ruleset tables it was loaded with.
    pub hash: String,
}

impl LoadedScenario {
    pub fn side_index(&self, id: &str) -> Option<u8> {
        self.file
            .sides
            .iter()
            .position(|s| s.id == id)
            .map(|i| i as u8)
    }

    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.file.units.iter().position(|u| u.id == id)
    }

    pub fn display_path(&self) -> String {
        self.path.display().to_string()
    }

    /// An error located at the `nth` occurrence of `needle` in the scenario text.
    pub fn error_at(&self, needle: &str, nth: usize, message: impl Into<String>) -> LocatedError {
        LocatedError::at_text(&self.display_path(), &self.text, needle, nth, message)
    }

    /// An error located at the `nth` place where field `key` is `"value"` (at the key
    /// alone without a value).
    pub fn field_error(
        &self,
        key: &str,
        value: Option<&str>,
        nth: usize,
        message: impl Into<String>,
    ) -> LocatedError {
        LocatedError::at_field(&self.display_path(), &self.text, key, value, nth, message)
    }

    /// An error located at the entry of unit `unit_id`, on `field` of it when present.
    pub fn unit_error(
        &self,
        unit_id: &str,
        field: Option<&str>,
        message: impl Into<String>,
    ) -> LocatedError {
        let needle = format!("\"{unit_id}\"");
        let path = self.display_path();
        let Some((line, col)) = super::error::find_nth(&self.text, &needle, 0) else {
            return LocatedError::whole_file(&path, message);
        };
        if let Some(field) = field {
            // The field on the same line as the unit's id, when the entry is one line.
            if let Some(l) = self.text.lines().nth(line - 1)
                && let Some(pos) = l.find(&format!("{field}:"))
            {
                return LocatedError::new(
                    &path,
                    &self.text,
                    line,
                    l[..pos].chars().count() + 1,
                    message,
                );
            }
        }
        LocatedError::new(&path, &self.text, line, col, message)
    }
}

pub fn sha256_hex(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The RON options every file of the project is read with: `Some` may be left out.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME)
}

/// Reads a text file, refusing binary and non-UTF-8 content with a clear message.
pub fn read_text(path: &Path) -> Result<String, LocatedError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| LocatedError::whole_file(&shown, format!("cannot read the file: {e}")))?;
    decode_text(&shown, bytes)
}

/// Checks that the bytes of a file named `shown` are text we read: at most 16 MiB,
/// UTF-8, no NUL bytes.
pub fn decode_text(shown: &str, bytes: Vec<u8>) -> Result<String, LocatedError> {
    let shown = shown.to_string();
    if bytes.len() > 16 * 1024 * 1024 {
        return Err(LocatedError::whole_file(
            &shown,
            "the file is larger than 16 MiB",
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|b| **b == b'\n').count() + 1;
        let col = upto.iter().rev().take_while(|b| **b != b'\n').count() + 1;
        LocatedError {
            file: shown.clone(),
            line,
            column: col,
            message: "the file is not UTF-8 text (binary data?)".into(),
            source_line: None,
        }
    })?;
    if text.contains('\0') {
        return Err(LocatedError::whole_file(
            &shown,
            "the file holds NUL bytes: it is binary, not text",
        ));
    }
    Ok(text)
}

/// Parses a scenario's text and runs the checks that do not depend on the ruleset.
pub fn parse_scenario(path: &Path, text: String) -> Result<ScenarioFile, LocatedError> {
    let shown = path.display().to_string();
    if text.trim().is_empty() {
        return Err(LocatedError::whole_file(
            &shown,
            "the scenario file is empty",
        ));
    }
    let file: ScenarioFile = ron_options()
        .from_str(&text)
        .map_err(|e| LocatedError::from_ron(&shown, &text, &e))?;
    let err = |needle: &str, nth: usize, msg: String| {
        LocatedError::at_text(&shown, &text, needle, nth, msg)
    };
    // At the `nth` `key: "value"` (or `key:`) of the file: a value may also occur in
    // strings and other fields.
    let at = |key: &str, value: Option<&str>, nth: usize, msg: String| {
        LocatedError::at_field(&shown, &text, key, value, nth, msg)
    };

    if file.sides.len() != 2 {
        return Err(at(
            "sides",
            None,
            0,
            format!(
                "a scenario has exactly two sides, this one has {}",
                file.sides.len()
            ),
        ));
    }
    if file.sides[0].id == file.sides[1].id {
        let id = &file.sides[0].id;
        return Err(at(
            "id",
            Some(id),
            1,
            format!("side id `{id}` is used twice"),
        ));
    }
    let side_ok = |id: &str| file.sides.iter().any(|s| s.id == id);
    if !side_ok(&file.first) {
        return Err(at(
            "first",
            Some(&file.first),
            0,
            format!("`first` names an unknown side `{}`", file.first),
        ));
    }
    if !side_ok(&file.at_time_limit.winner) {
        let w = &file.at_time_limit.winner;
        return Err(at(
            "winner",
            Some(w),
            0,
            format!("`at_time_limit` names an unknown side `{w}`"),
        ));
    }
    if file.turns == 0 || file.turns > 99 {
        return Err(at(
            "turns",
            None,
            0,
            format!("`turns` must be between 1 and 99, not {}", file.turns),
        ));
    }
    if !(1..=99).contains(&file.map.columns) || !(1..=99).contains(&file.map.rows) {
        return Err(at(
            "columns",
            None,
            0,
            format!(
                "the map must have 1 to 99 columns and rows (CCRR labels), not {}x{}",
                file.map.columns, file.map.rows
            ),
        ));
    }
    let on_map = |h: HexCoord| {
        (1..=file.map.columns).contains(&h.col) && (1..=file.map.rows).contains(&h.row)
    };
    for hexes in file.map.terrain.values().chain(file.map.elevation.values()) {
        for h in hexes {
            if !on_map(*h) {
                return Err(err(
                    &format!("\"{h}\""),
                    0,
                    format!(
                        "hex {h} is off the {}x{} map",
                        file.map.columns, file.map.rows
                    ),
                ));
            }
        }
    }
    for s in &file.map.hexsides {
        let (a, b) = s.between;
        if !a.is_adjacent(b) {
            return Err(err(
                &format!("\"{a}\""),
                0,
                format!("hexside {a}/{b}: the two hexes are not adjacent"),
            ));
        }
    }
    let mut ids = HashSet::new();
    for (i, u) in file.units.iter().enumerate() {
        // Side ids are given with `id:` too, before the units.
        let sides_named = file.sides.iter().filter(|s| s.id == u.id).count();
        if !ids.insert(u.id.as_str()) {
            return Err(at(
                "id",
                Some(&u.id),
                sides_named + 1,
                format!("unit id `{}` is used twice", u.id),
            ));
        }
        if !side_ok(&u.side) {
            return Err(at(
                "side",
                Some(&u.side),
                0,
                format!("unit `{}` belongs to an unknown side `{}`", u.id, u.side),
            ));
        }
        if let Some(h) = u.hex
            && !on_map(h)
        {
            let nth = file.units[..i].iter().filter(|o| o.hex == Some(h)).count();
            return Err(at(
                "hex",
                Some(&h.to_string()),
                nth,
                format!(
                    "unit `{}` is placed on {h}, off the {}x{} map",
                    u.id, file.map.columns, file.map.rows
                ),
            ));
        }
    }
    for side in &file.sides {
        if let Some(c) = &side.commander
            && !ids.contains(c.as_str())
        {
            return Err(at(
                "commander",
                Some(c),
                0,
                format!("side `{}` names an unknown commander `{c}`", side.id),
            ));
        }
    }
    let hidden: HashSet<&str> = file
        .special_rules
        .iter()
        .filter_map(|r| match r {
            SpecialRule::HiddenPlacement { unit, .. } => Some(unit.as_str()),
            _ => None,
        })
        .collect();
    for (i, r) in file.reinforcements.iter().enumerate() {
        // At the reinforcement's `unit: "id"`, not the unit's entry (whose type may
        // spell the same id).
        let nth = file.reinforcements[..i]
            .iter()
            .filter(|o| o.unit == r.unit)
            .count();
        let at_r = |msg: String| at("unit", Some(&r.unit), nth, msg);
        let Some(u) = file.units.iter().find(|u| u.id == r.unit) else {
            return Err(at_r(format!(
                "reinforcement names an unknown unit `{}`",
                r.unit
            )));
        };
        if u.hex.is_some() {
            return Err(at_r(format!(
                "reinforcement `{}` is also placed on the map at set-up",
                r.unit
            )));
        }
        if r.entry.is_empty() {
            return Err(at_r(format!("reinforcement `{}` has no entry hex", r.unit)));
        }
        if let Some(h) = r.entry.iter().find(|h| !on_map(**h)) {
            return Err(err(
                &format!("\"{h}\""),
                0,
                format!("reinforcement `{}` enters by {h}, off the map", r.unit),
            ));
        }
        if r.turn == 0 || r.turn > file.turns {
            return Err(at_r(format!(
                "reinforcement `{}` arrives on turn {}, outside turns 1..{}",
                r.unit, r.turn, file.turns
            )));
        }
    }
    for u in &file.units {
        let reinf = file.reinforcements.iter().any(|r| r.unit == u.id);
        if u.hex.is_none() && !reinf && !hidden.contains(u.id.as_str()) {
            return Err(at(
                "id",
                Some(&u.id),
                file.sides.iter().filter(|s| s.id == u.id).count(),
                format!(
                    "unit `{}` has no hex and is neither a reinforcement nor placed in secret",
                    u.id
                ),
            ));
        }
    }
    for r in &file.special_rules {
        let (unit, side) = match r {
            SpecialRule::HiddenPlacement { unit, .. } => (Some(unit), None),
            SpecialRule::Defection {
                unit, roll_side, ..
            } => (Some(unit), Some(("roll_side", roll_side))),
            SpecialRule::CampPillage { by_side, .. } => (None, Some(("by_side", by_side))),
            SpecialRule::PsiloiSupport { side, .. } => (None, Some(("side", side))),
            SpecialRule::AttackerByAggression { .. }
            | SpecialRule::Ditch { .. }
            | SpecialRule::Deployment { .. } => (None, None),
            SpecialRule::Dismount { units, .. } => {
                match units.iter().find(|u| !ids.contains(u.as_str())) {
                    Some(u) => (Some(u), None),
                    None => (None, None),
                }
            }
        };
        if let Some(u) = unit
            && !ids.contains(u.as_str())
        {
            return Err(at(
                "unit",
                Some(u),
                0,
                format!("special rule names an unknown unit `{u}`"),
            ));
        }
        if let Some((key, s)) = side
            && !side_ok(s)
        {
            return Err(at(
                key,
                Some(s),
                0,
                format!("special rule names an unknown side `{s}`"),
            ));
        }
    }
    Ok(file)
}

//! The tables of A la Charge as data: unit types (counter values), the Terrain
//! Effects Table and the Combat Results Table, read from `rulesets/a_la_charge/*.ron`.
//! Most printed values are missing from our copy of the rules; each file says in its
//! `source:` note which figures are printed and which are the designer's choice.

use serde::Deserialize;

use crate::engine::error::LocatedError;

/// The five kinds of unit of AlC 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Kind {
    Infantry,
    Archers,
    Knights,
    MountedArchers,
    Leader,
}

impl Kind {
    /// Archery units (AlC 12.2), foot or mounted.
    pub fn is_archery(self) -> bool {
        matches!(self, Kind::Archers | Kind::MountedArchers)
    }
    pub fn is_mounted(self) -> bool {
        matches!(self, Kind::Knights | Kind::MountedArchers)
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub id: String,
    pub kind: Kind,
    /// Strength-and-morale rating on the full side (AlC 3); a leader's rating (AlC 8).
    pub full: i32,
    /// The rating on the reduced side; absent for one-step units and leaders (AlC 12.6).
    #[serde(default)]
    pub reduced: Option<i32>,
    /// Movement points (AlC 9).
    pub mp: i32,
    /// Archery range in hexes (AlC 3, 12.1).
    #[serde(default)]
    pub range: Option<u32>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitTypesFile {
    pub source: String,
    pub types: Vec<UnitType>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainType {
    pub id: String,
    /// MP to enter (AlC 9); absent = impassable.
    #[serde(default)]
    pub mp_cost: Option<i32>,
    /// Columns shifted left when the defender is in it (AlC 12.3, TEC).
    #[serde(default)]
    pub defender_column_shift: i32,
    /// Added to the attacker's die when the defender is in it (AlC 12.3).
    #[serde(default)]
    pub die_modifier: i32,
    /// Open terrain for the knights' charge (AlC 10).
    #[serde(default)]
    pub open: bool,
    /// Blocks archery when the option `hills_block_fire` is on (AlC 9, translator's house rule).
    #[serde(default)]
    pub blocks_fire_by_option: bool,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainFile {
    pub source: String,
    pub terrain: Vec<TerrainType>,
}

/// One result of the CRT (AlC 12.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CombatResult {
    pub attacker_steps: u8,
    pub attacker_check: bool,
    pub defender_steps: u8,
    pub defender_check: bool,
    pub defender_retreat: u8,
}

impl CombatResult {
    /// Parses the codes of AlC 12.4 separated by spaces: A1 A2 AT D1 D2 DT DR1 DR2, or `-`.
    pub fn parse(code: &str) -> Result<Self, String> {
        let mut r = Self::default();
        for part in code.split_whitespace() {
            match part {
                "-" => {}
                "A1" => r.attacker_steps += 1,
                "A2" => r.attacker_steps += 2,
                "AT" => r.attacker_check = true,
                "D1" => r.defender_steps += 1,
                "D2" => r.defender_steps += 2,
                "DT" => r.defender_check = true,
                "DR1" => r.defender_retreat = r.defender_retreat.max(1),
                "DR2" => r.defender_retreat = 2,
                other => {
                    return Err(format!(
                        "`{other}` is not a result code of AlC 12.4 (A1 A2 AT D1 D2 DT DR1 DR2 or -)"
                    ));
                }
            }
        }
        Ok(r)
    }
}

impl std::fmt::Display for CombatResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if self.attacker_steps > 0 {
            parts.push(format!("A{}", self.attacker_steps));
        }
        if self.attacker_check {
            parts.push("AT".into());
        }
        if self.defender_steps > 0 {
            parts.push(format!("D{}", self.defender_steps));
        }
        if self.defender_check {
            parts.push("DT".into());
        }
        if self.defender_retreat > 0 {
            parts.push(format!("DR{}", self.defender_retreat));
        }
        if parts.is_empty() {
            parts.push("no effect".into());
        }
        write!(f, "{}", parts.join(" "))
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrtRow {
    pub die: i32,
    pub results: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrtFile {
    pub source: String,
    /// Column headings, lowest odds first: "1-3" .. "4-1" (AlC 12.3).
    pub columns: Vec<String>,
    /// Rows by modified die, lowest first.
    pub rows: Vec<CrtRow>,
}

/// The CRT, parsed.
#[derive(Clone, Debug)]
pub struct Crt {
    /// The file's `source:` note (which figures are printed), for the player aids.
    pub source: String,
    pub columns: Vec<String>,
    /// The attacker-to-defender ratio of each column, as (attacker, defender) in tenths.
    pub ratios: Vec<(i32, i32)>,
    pub min_die: i32,
    pub max_die: i32,
    /// `results[row][column]`.
    pub results: Vec<Vec<CombatResult>>,
}

impl Crt {
    /// The column of the 1-1 odds.
    pub fn even_column(&self) -> usize {
        self.ratios.iter().position(|r| r.0 == r.1).unwrap_or(0)
    }

    pub fn result(&self, column: usize, modified_die: i32) -> CombatResult {
        let row = (modified_die.clamp(self.min_die, self.max_die) - self.min_die) as usize;
        self.results[row][column]
    }
}

/// All the tables, with their text for the save hash.
#[derive(Clone, Debug)]
pub struct Tables {
    pub units: UnitTypesFile,
    pub terrain: TerrainFile,
    pub crt: Crt,
    pub texts: [String; 3],
}

pub const UNITS_RON: &str = include_str!("../../../rulesets/a_la_charge/units.ron");
pub const TERRAIN_RON: &str = include_str!("../../../rulesets/a_la_charge/terrain.ron");
pub const CRT_RON: &str = include_str!("../../../rulesets/a_la_charge/crt.ron");

use crate::rulesets::common::parse_table as parse;

/// A column heading of AlC's CRT: whole odds (AlC 12.3), in tenths as the shared layer
/// reads them.
fn parse_ratio(s: &str) -> Option<(i32, i32)> {
    crate::rulesets::common::parse_odds(s).filter(|(a, d)| a % 10 == 0 && d % 10 == 0)
}

impl Tables {
    pub fn unit_type(&self, id: &str) -> Option<(usize, &UnitType)> {
        self.units
            .types
            .iter()
            .enumerate()
            .find(|(_, t)| t.id == id)
    }

    pub fn terrain_index(&self, id: &str) -> Option<usize> {
        self.terrain.terrain.iter().position(|t| t.id == id)
    }
}

impl crate::rulesets::common::RulesetTables<3> for Tables {
    const ID: &'static str = super::ID;
    const FILES: [&'static str; 3] = ["units.ron", "terrain.ron", "crt.ron"];
    const BUILTIN: [&'static str; 3] = [UNITS_RON, TERRAIN_RON, CRT_RON];

    /// Parses the three tables; `names` are the file names shown in errors.
    fn parse(names: [&str; 3], texts: [String; 3]) -> Result<Self, LocatedError> {
        let units: UnitTypesFile = parse(names[0], &texts[0])?;
        let terrain: TerrainFile = parse(names[1], &texts[1])?;
        let crt_file: CrtFile = parse(names[2], &texts[2])?;
        let at = |i: usize, needle: &str, msg: String| {
            LocatedError::at_text(names[i], &texts[i], needle, 0, msg)
        };
        for t in &units.types {
            if t.kind != Kind::Leader && t.full <= 0 {
                return Err(at(
                    0,
                    &format!("\"{}\"", t.id),
                    format!("unit type `{}` has a rating of {}", t.id, t.full),
                ));
            }
            if t.kind.is_archery() && t.range.is_none() {
                return Err(at(
                    0,
                    &format!("\"{}\"", t.id),
                    format!("archery unit type `{}` has no range (AlC 3)", t.id),
                ));
            }
        }
        if terrain.terrain.is_empty() {
            return Err(at(1, "terrain", "the terrain table is empty".into()));
        }
        if terrain.terrain.len() > 255 {
            return Err(at(1, "terrain", "more than 255 terrain types".into()));
        }
        let ratios = crate::rulesets::common::crt_columns(
            &crt_file.columns,
            parse_ratio,
            "an odds ratio like 1-2 or 3-1",
            |needle, msg| at(2, needle, msg),
        )?;
        let mut results = Vec::new();
        let first_die = crt_file.rows.first().map_or(0, |r| r.die);
        for (expected_die, row) in (first_die..).zip(&crt_file.rows) {
            if row.die != expected_die {
                return Err(at(
                    2,
                    &format!("die: {}", row.die),
                    format!(
                        "CRT rows must follow each other by die: expected {expected_die}, found {}",
                        row.die
                    ),
                ));
            }
            if row.results.len() != ratios.len() {
                return Err(at(
                    2,
                    &format!("die: {}", row.die),
                    format!(
                        "CRT row {} has {} results for {} columns",
                        row.die,
                        row.results.len(),
                        ratios.len()
                    ),
                ));
            }
            let parsed = crate::rulesets::common::table_cells(
                "CRT",
                row.die,
                &row.results,
                CombatResult::parse,
                |needle, msg| at(2, needle, msg),
            )?;
            results.push(parsed);
        }
        if results.is_empty() {
            return Err(at(2, "rows", "the CRT has no rows".into()));
        }
        let crt = Crt {
            source: crt_file.source,
            columns: crt_file.columns,
            ratios,
            min_die: crt_file.rows[0].die,
            max_die: crt_file.rows[crt_file.rows.len() - 1].die,
            results,
        };
        Ok(Self {
            units,
            terrain,
            crt,
            texts,
        })
    }
}

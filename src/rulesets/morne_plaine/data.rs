//! The tables of Morne Plaine as data, read from `rulesets/morne_plaine/*.ron`: the
//! counter types, the terrain (movement costs, combat values), the Combat Results
//! Table, the bombardment table and the levels of victory. The page gives the CRT's shape (columns
//! 1-8 to 8-1 with a 1.5-1 column, rows 0 to 7 after the clamp, losses for both units and
//! `*` for a morale check) but not its cells; each file's `source:` note says which
//! figures are the designer's.

use serde::Deserialize;

use crate::engine::error::LocatedError;
use crate::engine::scenario::VictoryLevel;
use crate::rulesets::common::{parse_odds, table_cells};

/// The kinds of unit (MP generalities).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Kind {
    Leader,
    Infantry,
    Cavalry,
    Artillery,
}

impl Kind {
    /// Mounted units: cavalry, and leaders, who ride.
    pub fn is_mounted(self) -> bool {
        matches!(self, Kind::Cavalry | Kind::Leader)
    }
}

/// A counter type: combat strength, movement allowance, morale value, and for artillery
/// its bombardment value and range, for leaders their command radius.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub id: String,
    pub kind: Kind,
    pub cs: u8,
    pub ma: u8,
    pub mv: u8,
    #[serde(default)]
    pub bv: Option<u8>,
    #[serde(default)]
    pub range: Option<u8>,
    #[serde(default)]
    pub radius: Option<u8>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitTypesFile {
    pub source: String,
    pub types: Vec<UnitType>,
}

/// A value for each kind, in the order leader, infantry, cavalry, artillery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct PerKind<T>(pub T, pub T, pub T, pub T);

impl<T: Copy> PerKind<T> {
    pub fn of(&self, kind: Kind) -> T {
        match kind {
            Kind::Leader => self.0,
            Kind::Infantry => self.1,
            Kind::Cavalry => self.2,
            Kind::Artillery => self.3,
        }
    }
}

/// The terrain classes a retreat seeks first (MP combat: retreat, priorities 1 and 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum RetreatClass {
    Village,
    Woods,
}

/// A terrain type (MP movement, MP combat: terrain effects).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainType {
    pub id: String,
    /// MP to enter, per kind; `None` is impassable.
    pub cost: PerKind<Option<u8>>,
    /// The marsh test: stuck on a d4 at or under this, per kind.
    #[serde(default)]
    pub stuck: Option<PerKind<u8>>,
    /// The combat value of the hex (its advance rank), per kind.
    #[serde(default)]
    pub defence: PerKind<i8>,
    /// Cavalry counts half here.
    #[serde(default)]
    pub close: bool,
    /// A charge may be made here.
    #[serde(default)]
    pub open: bool,
    #[serde(default)]
    pub blocks_los: bool,
    #[serde(default)]
    pub no_bombard: bool,
    #[serde(default)]
    pub retreat: Option<RetreatClass>,
    #[serde(default)]
    pub fort: bool,
}

/// What crossing a watercourse hexside costs and does to an attack across it.
impl std::fmt::Display for FireResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.loss, self.check) {
            (0, false) => write!(f, "-"),
            (n, true) => write!(f, "{n}*"),
            (n, false) => write!(f, "{n}"),
        }
    }
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Crossing {
    pub cost: u8,
    pub attack_die: i32,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hexsides {
    pub stream: Crossing,
    pub ford: Crossing,
    pub bridge: Crossing,
    /// MP to cross a road hexside, whatever the hex entered.
    pub road: f32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainFile {
    pub source: String,
    pub terrain: Vec<TerrainType>,
    pub hexsides: Hexsides,
}

/// One cell of the bombardment table: the CS the target loses and whether it checks
/// morale ("-", "0*", "1", "1*").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FireResult {
    pub loss: u8,
    pub check: bool,
}

impl FireResult {
    pub fn parse(code: &str) -> Result<Self, String> {
        if code == "-" {
            return Ok(Self::default());
        }
        let (n, check) = match code.strip_suffix('*') {
            Some(n) => (n, true),
            None => (code, false),
        };
        match n.parse::<u8>() {
            Ok(loss) if loss <= 9 => Ok(Self { loss, check }),
            _ => Err(format!(
                "`{code}` is not a bombardment result: write -, a CS loss 0-9, and `*` for a morale check"
            )),
        }
    }
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrengthRange {
    pub min: i32,
    pub max: i32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BombardmentFile {
    pub source: String,
    pub strength: StrengthRange,
    pub rows: Vec<CrtRow>,
}

/// The bombardment table, parsed: `cells[die - 1][strength - min]`.
#[derive(Clone, Debug)]
pub struct Bombardment {
    pub strength: StrengthRange,
    pub cells: Vec<Vec<FireResult>>,
}

impl Bombardment {
    /// The result of a fire strength (clamped to the table's columns) and a d6.
    pub fn result(&self, strength: i32, die: u8) -> FireResult {
        let column =
            (strength.clamp(self.strength.min, self.strength.max) - self.strength.min) as usize;
        self.cells[(die.clamp(1, 6) - 1) as usize][column]
    }
}

/// The least VP difference that gives a level of victory (MP victory).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryStep {
    pub difference: u32,
    pub level: VictoryLevel,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryFile {
    pub source: String,
    /// From the least difference to the greatest.
    pub levels: Vec<VictoryStep>,
}

/// One cell of the CRT: the CS points each unit loses and whether it checks morale
/// (MP combat: results).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cell {
    pub attacker_loss: u8,
    pub attacker_check: bool,
    pub defender_loss: u8,
    pub defender_check: bool,
}

impl Cell {
    /// Parses "1*/0": attacker then defender, each a CS loss with `*` for a morale check.
    pub fn parse(code: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "`{code}` is not a CRT cell: write attacker/defender, each a CS loss 0-9 with `*` for a morale check, e.g. 1*/0"
            )
        };
        let (a, d) = code.split_once('/').ok_or_else(bad)?;
        let side = |s: &str| -> Option<(u8, bool)> {
            let (n, check) = match s.strip_suffix('*') {
                Some(n) => (n, true),
                None => (s, false),
            };
            let n: u8 = n.parse().ok()?;
            (n <= 9).then_some((n, check))
        };
        let (attacker_loss, attacker_check) = side(a).ok_or_else(bad)?;
        let (defender_loss, defender_check) = side(d).ok_or_else(bad)?;
        Ok(Self {
            attacker_loss,
            attacker_check,
            defender_loss,
            defender_check,
        })
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let star = |c: bool| if c { "*" } else { "" };
        write!(
            f,
            "{}{}/{}{}",
            self.attacker_loss,
            star(self.attacker_check),
            self.defender_loss,
            star(self.defender_check)
        )
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
    pub columns: Vec<String>,
    pub rows: Vec<CrtRow>,
}

/// The CRT, parsed: columns as odds in tenths, rows the modified die 0 to 7.
#[derive(Clone, Debug)]
pub struct Crt {
    pub columns: Vec<String>,
    pub ratios: Vec<(i32, i32)>,
    /// `cells[die][column]`.
    pub cells: Vec<Vec<Cell>>,
}

/// The lowest and highest modified die: beyond them the die is clamped (MP combat).
pub const DIE_ROWS: std::ops::RangeInclusive<i32> = 0..=7;

impl Crt {
    /// The cell for a column and a modified die, clamped to 0-7 (MP combat: resolution).
    pub fn cell(&self, column: usize, modified_die: i32) -> Cell {
        let row = modified_die.clamp(*DIE_ROWS.start(), *DIE_ROWS.end()) as usize;
        self.cells[row][column]
    }
}

/// All the tables, with their text for the save hash.
#[derive(Clone, Debug)]
pub struct Tables {
    pub units: UnitTypesFile,
    pub terrain: TerrainFile,
    pub crt: Crt,
    pub victory: VictoryFile,
    pub bombardment: Bombardment,
    pub charge: ChargeFile,
    pub texts: [String; 6],
}

/// The charge (`charge.ron`, designer's: MP movement: charge).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeFile {
    pub source: String,
    /// The kinds that charge.
    pub kinds: Vec<Kind>,
    /// Hexes entered this turn before the attack.
    pub min_hexes_moved: u32,
    /// The charger's and charging supporters' CS are multiplied by it, rounded down.
    pub strength_factor: f32,
    /// The charged unit's MV counts 1 less per this many CS the charger has more.
    pub check_cs_step: i32,
}

pub const UNITS_RON: &str = include_str!("../../../rulesets/morne_plaine/units.ron");
pub const CRT_RON: &str = include_str!("../../../rulesets/morne_plaine/crt.ron");
pub const TERRAIN_RON: &str = include_str!("../../../rulesets/morne_plaine/terrain.ron");
pub const VICTORY_RON: &str = include_str!("../../../rulesets/morne_plaine/victory.ron");
pub const BOMBARDMENT_RON: &str = include_str!("../../../rulesets/morne_plaine/bombardment.ron");
pub const CHARGE_RON: &str = include_str!("../../../rulesets/morne_plaine/charge.ron");

use crate::rulesets::common::parse_table as parse;

impl Tables {
    /// The terrain names, in id order, for the board.
    pub fn terrain_names(&self) -> Vec<String> {
        self.terrain.terrain.iter().map(|t| t.id.clone()).collect()
    }

    pub fn unit_type(&self, id: &str) -> Option<&UnitType> {
        self.units.types.iter().find(|t| t.id == id)
    }
}

impl crate::rulesets::common::RulesetTables<6> for Tables {
    const ID: &'static str = super::ID;
    const FILES: [&'static str; 6] = [
        "units.ron",
        "crt.ron",
        "terrain.ron",
        "victory.ron",
        "bombardment.ron",
        "charge.ron",
    ];
    const BUILTIN: [&'static str; 6] = [
        UNITS_RON,
        CRT_RON,
        TERRAIN_RON,
        VICTORY_RON,
        BOMBARDMENT_RON,
        CHARGE_RON,
    ];

    /// Parses the tables; `names` are the file names shown in errors.
    fn parse(names: [&str; 6], texts: [String; 6]) -> Result<Self, LocatedError> {
        let units: UnitTypesFile = parse(names[0], &texts[0])?;
        let crt_file: CrtFile = parse(names[1], &texts[1])?;
        let terrain: TerrainFile = parse(names[2], &texts[2])?;
        let victory: VictoryFile = parse(names[3], &texts[3])?;
        let fire: BombardmentFile = parse(names[4], &texts[4])?;
        let charge: ChargeFile = parse(names[5], &texts[5])?;
        if charge.check_cs_step < 1
            || !(1.0..=3.0).contains(&charge.strength_factor)
            || charge.kinds.contains(&Kind::Artillery)
        {
            return Err(LocatedError::at_text(
                names[5],
                &texts[5],
                "kinds",
                0,
                "a charge needs a CS step of at least 1, a strength factor from 1 to 3, and kinds other than artillery (MP movement: charge)",
            ));
        }
        let fire_at =
            |needle: &str, msg: String| LocatedError::at_text(names[4], &texts[4], needle, 0, msg);
        let columns = fire.strength.max - fire.strength.min + 1;
        if fire.strength.min > fire.strength.max || columns > 99 {
            return Err(fire_at(
                "strength",
                "the strength runs from min to max".into(),
            ));
        }
        if fire.rows.iter().map(|r| r.die).collect::<Vec<_>>() != (1..=6).collect::<Vec<_>>() {
            return Err(fire_at(
                "rows",
                "the bombardment table has one row for each die from 1 to 6, in order".into(),
            ));
        }
        let mut fire_cells = Vec::new();
        for row in &fire.rows {
            if row.results.len() != columns as usize {
                return Err(fire_at(
                    &format!("die: {}", row.die),
                    format!(
                        "bombardment row {} has {} cells for strengths {} to {}",
                        row.die,
                        row.results.len(),
                        fire.strength.min,
                        fire.strength.max
                    ),
                ));
            }
            let parsed = table_cells(
                "bombardment",
                row.die,
                &row.results,
                FireResult::parse,
                fire_at,
            )?;
            fire_cells.push(parsed);
        }
        let bombardment = Bombardment {
            strength: fire.strength,
            cells: fire_cells,
        };
        let rising = victory
            .levels
            .windows(2)
            .all(|w| w[0].difference < w[1].difference && w[0].level < w[1].level);
        if victory.levels.is_empty() || victory.levels[0].difference == 0 || !rising {
            return Err(LocatedError::at_text(
                names[3],
                &texts[3],
                "levels",
                0,
                "the victory levels rise from a difference of at least 1, each level and difference above the one before (MP victory)",
            ));
        }
        let at = |i: usize, needle: &str, msg: String| {
            LocatedError::at_text(names[i], &texts[i], needle, 0, msg)
        };
        for t in &units.types {
            let here = format!("\"{}\"", t.id);
            let fault = if t.cs == 0 {
                Some("a combat strength of at least 1".to_string())
            } else if t.ma == 0 {
                Some("a movement allowance of at least 1".to_string())
            } else if !(1..=9).contains(&t.mv) {
                Some("a morale value from 1 to 9 (the morale check is a number from 1 to 9, MP combat: morale check)".to_string())
            } else if (t.kind == Kind::Artillery) != (t.bv.is_some() && t.range.is_some()) {
                Some("a bombardment value and a range if, and only if, it is artillery (MP bombardment)".to_string())
            } else if (t.kind == Kind::Leader) != t.radius.is_some() {
                Some("a command radius if, and only if, it is a leader (MP movement)".to_string())
            } else {
                None
            };
            if let Some(what) = fault {
                return Err(at(0, &here, format!("unit type `{}` needs {what}", t.id)));
            }
        }
        for t in &terrain.terrain {
            let costs = [t.cost.0, t.cost.1, t.cost.2, t.cost.3];
            let defence = [t.defence.0, t.defence.1, t.defence.2, t.defence.3];
            let fault = if costs.iter().flatten().any(|c| !(1..=9).contains(c)) {
                Some("costs from 1 to 9 MP, or None where impassable")
            } else if t
                .stuck
                .is_some_and(|s| [s.0, s.1, s.2, s.3].iter().any(|n| *n > 4))
            {
                Some("a marsh test from 0 to 4 on the d4")
            } else if defence.iter().any(|d| !(-3..=3).contains(d)) {
                Some("defence values from -3 to 3")
            } else {
                None
            };
            if let Some(what) = fault {
                return Err(at(
                    2,
                    &format!("\"{}\"", t.id),
                    format!("terrain `{}` needs {what}", t.id),
                ));
            }
        }
        if terrain.terrain.is_empty() || terrain.terrain.len() > 255 {
            return Err(at(2, "terrain", "1 to 255 terrain types".into()));
        }
        let road = terrain.hexsides.road;
        if !(0.0..=9.0).contains(&road) || (road * 2.0).fract() != 0.0 {
            return Err(at(
                2,
                "road",
                format!("a road costs a multiple of 1/2 MP from 0 to 9, not {road}"),
            ));
        }
        let ratios = crate::rulesets::common::crt_columns(
            &crt_file.columns,
            parse_odds,
            "odds like 1-2, 1.5-1 or 3-1",
            |needle, msg| at(1, needle, msg),
        )?;
        let dies: Vec<i32> = crt_file.rows.iter().map(|r| r.die).collect();
        if dies != DIE_ROWS.collect::<Vec<_>>() {
            return Err(at(
                1,
                "rows",
                "the CRT has one row for each modified die from 0 to 7, in order (MP combat)"
                    .into(),
            ));
        }
        let mut cells = Vec::new();
        for row in &crt_file.rows {
            if row.results.len() != ratios.len() {
                return Err(at(
                    1,
                    &format!("die: {}", row.die),
                    format!(
                        "CRT row {} has {} cells for {} columns",
                        row.die,
                        row.results.len(),
                        ratios.len()
                    ),
                ));
            }
            let parsed = table_cells("CRT", row.die, &row.results, Cell::parse, |needle, msg| {
                at(1, needle, msg)
            })?;
            cells.push(parsed);
        }
        Ok(Self {
            units,
            terrain,
            victory,
            bombardment,
            charge,
            crt: Crt {
                columns: crt_file.columns,
                ratios,
                cells,
            },
            texts,
        })
    }
}

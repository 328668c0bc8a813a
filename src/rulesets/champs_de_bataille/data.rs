//! The tables of Champs de Bataille as data: unit kinds and counter types, terrain
//! classes and the Combat Results Table (CdB 11.5), read from
//! `rulesets/champs_de_bataille/*.ron`. Tactical values and movement allowances are
//! missing from our copy of the rules; each file's `source:` notes say what is printed.

use serde::Deserialize;

use crate::engine::error::LocatedError;

/// The unit types of CdB 2.4, with their DBM abbreviations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, PartialOrd, Ord)]
pub enum Kind {
    Kn,
    Cv,
    LH,
    El,
    Sp,
    Pk,
    Bd,
    Ax,
    Bw,
    Ps,
    Wb,
    Hd,
    Bag,
}

impl Kind {
    /// Mounted units (CdB 2.4 A).
    pub fn is_mounted(self) -> bool {
        matches!(self, Kind::Kn | Kind::Cv | Kind::LH | Kind::El)
    }
    /// Light units (CdB 2.6): LH, Ps, Ax.
    pub fn is_light(self) -> bool {
        matches!(self, Kind::LH | Kind::Ps | Kind::Ax)
    }
    /// Skirmishers (CdB 2.6): LH and Ps.
    pub fn is_skirmisher(self) -> bool {
        matches!(self, Kind::LH | Kind::Ps)
    }
    pub fn is_foot(self) -> bool {
        !self.is_mounted() && self != Kind::Bag
    }
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "Kn" => Kind::Kn,
            "Cv" => Kind::Cv,
            "LH" => Kind::LH,
            "El" => Kind::El,
            "Sp" => Kind::Sp,
            "Pk" => Kind::Pk,
            "Bd" => Kind::Bd,
            "Ax" => Kind::Ax,
            "Bw" => Kind::Bw,
            "Ps" => Kind::Ps,
            "Wb" => Kind::Wb,
            "Hd" => Kind::Hd,
            "Bag" => Kind::Bag,
            _ => return None,
        })
    }
}

/// Unit quality (CdB 2.3): superior, ordinary, inferior, fast, special.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum Quality {
    S,
    O,
    I,
    F,
    X,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Mount {
    Horse,
    Camel,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindSpec {
    pub id: Kind,
    pub name: String,
    pub vs_foot: i32,
    pub vs_mounted: i32,
    pub mp: i32,
    #[serde(default)]
    pub source: String,
}

/// A counter type: a kind with its quality and class, and any printed values that
/// differ from its kind's.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterSpec {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    pub quality: Quality,
    pub regular: bool,
    #[serde(default)]
    pub mp: Option<i32>,
    #[serde(default)]
    pub vs_foot: Option<i32>,
    #[serde(default)]
    pub vs_mounted: Option<i32>,
    /// Shooting range in hexes (CdB 10).
    #[serde(default)]
    pub range: Option<u32>,
    /// A Psiloi armed with bows (CdB 8, support table line 6).
    #[serde(default)]
    pub bow: bool,
    /// Mobile baggage, which flees instead of standing (CdB 2.4, 11.5).
    #[serde(default)]
    pub mobile: bool,
    /// Mounted infantry (CdB 2.8).
    #[serde(default)]
    pub mounted_infantry: Option<Mount>,
    #[serde(default)]
    pub chariot: bool,
    /// The counter of the same troops in their other state, mounted or on foot (CdB 2.7).
    #[serde(default)]
    pub other_state: Option<String>,
    #[serde(default)]
    pub source: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitsFile {
    pub source: String,
    pub kinds: Vec<KindSpec>,
    pub counters: Vec<CounterSpec>,
}

/// The terrain classes of CdB 1.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum TerrainClass {
    Clear,
    Broken,
    Difficult,
    Impassable,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainSpec {
    pub id: String,
    pub class: TerrainClass,
    /// Blocks line of sight (CdB 10.2: woods, buildings, orchards).
    #[serde(default)]
    pub blocks_los: bool,
    /// Line of sight reaches this many hexes into it, no further (CdB 1.2 woods).
    #[serde(default)]
    pub sight_into: Option<u32>,
    /// Units entering it must start their move beside it (CdB 1.2 woods).
    #[serde(default)]
    pub enter_from_edge: bool,
    /// A fortified hex (camp, wall, palisade): no recoil into it (CdB 11.6), no rear
    /// unit destroyed with a unit in front of it (11.7), its defender does not advance
    /// after melee (11.9).
    #[serde(default)]
    pub fortification: bool,
    /// Where this entry comes from, when it is not the file's general source.
    #[serde(default)]
    pub source: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainFile {
    pub source: String,
    pub terrain: Vec<TerrainSpec>,
}

/// What a combat result does to the loser (CdB 11.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Outcome {
    Recoil,
    Destroyed,
    Flight,
}

/// Where the loser stands, for the results table: clear, or broken and difficult.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Ground {
    Clear,
    Broken,
    Any,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Context {
    Melee,
    Missile,
    Any,
}

/// One line of the results table: the first line that matches the loser, its ground,
/// the winner's kind and the kind of combat gives the outcome.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultLine {
    pub loser: Vec<Kind>,
    #[serde(default = "any_ground")]
    pub ground: Ground,
    /// Winner kinds; empty means any.
    #[serde(default)]
    pub by: Vec<Kind>,
    #[serde(default = "any_context")]
    pub context: Context,
    /// Only when the loser is of this quality.
    #[serde(default)]
    pub loser_quality: Option<Quality>,
    /// Only when the winner is of this quality.
    #[serde(default)]
    pub by_quality: Option<Quality>,
    /// Only for mobile baggage.
    #[serde(default)]
    pub mobile: Option<bool>,
    /// `None`: no effect (immobile baggage outside melee).
    pub result: Option<Outcome>,
    /// The line of the printed table, for the log.
    pub text: String,
}

fn any_ground() -> Ground {
    Ground::Any
}
fn any_context() -> Context {
    Context::Any
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultsFile {
    pub source: String,
    /// Score lower than the opponent's but more than half of it.
    pub beaten: Vec<ResultLine>,
    /// Score of half or less of the opponent's.
    pub doubled: Vec<ResultLine>,
}

/// A counter's values once its kind's defaults are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    pub kind: Kind,
    pub quality: Quality,
    pub regular: bool,
    pub vs_foot: i32,
    pub vs_mounted: i32,
    pub mp: i32,
    pub range: u32,
    pub bow: bool,
    pub mobile: bool,
    pub mounted_infantry: Option<Mount>,
    pub chariot: bool,
}

/// All the tables, with their text for the save hash.
#[derive(Clone, Debug)]
pub struct Tables {
    pub units: UnitsFile,
    pub terrain: TerrainFile,
    pub results: ResultsFile,
    pub texts: [String; 3],
}

pub const FILES: [&str; 3] = ["units.ron", "terrain.ron", "results.ron"];
pub const UNITS_RON: &str = include_str!("../../../rulesets/champs_de_bataille/units.ron");
pub const TERRAIN_RON: &str = include_str!("../../../rulesets/champs_de_bataille/terrain.ron");
pub const RESULTS_RON: &str = include_str!("../../../rulesets/champs_de_bataille/results.ron");

use crate::rulesets::common::parse_table as parse;

impl Tables {
    pub fn counter_index(&self, id: &str) -> Option<usize> {
        self.units.counters.iter().position(|c| c.id == id)
    }

    pub fn counter(&self, id: &str) -> Option<&CounterSpec> {
        self.units.counters.iter().find(|c| c.id == id)
    }

    pub fn kind(&self, k: Kind) -> &KindSpec {
        self.units
            .kinds
            .iter()
            .find(|s| s.id == k)
            .expect("checked at parse: every counter's kind has an entry")
    }

    /// A counter's values, its kind's defaults filled in.
    pub fn profile(&self, c: &CounterSpec) -> Profile {
        let k = self.kind(c.kind);
        Profile {
            kind: c.kind,
            quality: c.quality,
            regular: c.regular,
            vs_foot: c.vs_foot.unwrap_or(k.vs_foot),
            vs_mounted: c.vs_mounted.unwrap_or(k.vs_mounted),
            mp: c.mp.unwrap_or(k.mp),
            range: c.range.unwrap_or(0),
            bow: c.bow,
            mobile: c.mobile,
            mounted_infantry: c.mounted_infantry,
            chariot: c.chariot,
        }
    }

    pub fn terrain_index(&self, id: &str) -> Option<usize> {
        self.terrain.terrain.iter().position(|t| t.id == id)
    }
}

impl crate::rulesets::common::RulesetTables<3> for Tables {
    const ID: &'static str = super::ID;
    const FILES: [&'static str; 3] = FILES;
    const BUILTIN: [&'static str; 3] = [UNITS_RON, TERRAIN_RON, RESULTS_RON];

    fn parse(names: [&str; 3], texts: [String; 3]) -> Result<Self, LocatedError> {
        let units: UnitsFile = parse(names[0], &texts[0])?;
        let terrain: TerrainFile = parse(names[1], &texts[1])?;
        let results: ResultsFile = parse(names[2], &texts[2])?;
        let at = |i: usize, needle: &str, msg: String| {
            LocatedError::at_text(names[i], &texts[i], needle, 0, msg)
        };
        for c in &units.counters {
            if !units.kinds.iter().any(|k| k.id == c.kind) {
                return Err(at(
                    0,
                    &format!("\"{}\"", c.id),
                    format!(
                        "counter `{}` is of kind {:?}, which has no entry in `kinds`",
                        c.id, c.kind
                    ),
                ));
            }
            if c.kind == Kind::Bw && c.range.is_none() {
                return Err(at(
                    0,
                    &format!("\"{}\"", c.id),
                    format!("bowmen counter `{}` has no range (CdB 10)", c.id),
                ));
            }
        }
        for c in &units.counters {
            if let Some(o) = &c.other_state {
                let back = units.counters.iter().find(|x| &x.id == o);
                if back.and_then(|b| b.other_state.as_ref()) != Some(&c.id) {
                    return Err(at(
                        0,
                        &format!("\"{}\"", c.id),
                        format!(
                            "counter `{}` names `{o}` as its other state, which must exist and name `{}` back (CdB 2.7)",
                            c.id, c.id
                        ),
                    ));
                }
            }
        }
        for k in &units.kinds {
            if k.mp < 0 || k.mp > 20 {
                return Err(at(
                    0,
                    &format!("{:?}", k.id),
                    format!("kind {:?} has {} MP", k.id, k.mp),
                ));
            }
        }
        if terrain.terrain.is_empty() || terrain.terrain.len() > 255 {
            return Err(at(
                1,
                "terrain",
                "the terrain table needs 1 to 255 entries".into(),
            ));
        }
        if results.beaten.is_empty() || results.doubled.is_empty() {
            return Err(at(
                2,
                "beaten",
                "both parts of the results table need lines".into(),
            ));
        }
        Ok(Self {
            units,
            terrain,
            results,
            texts,
        })
    }
}

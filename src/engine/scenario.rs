//! Scenario files: the RON schema every ruleset shares (map, sides, units,
//! reinforcements, special rules, victory at the time limit), and the generic checks.
//! A ruleset checks the rest (unit types, terrain names, stacking).

use std::any::Any;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ron::extensions::Extensions;
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
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
    /// The scenario's special rules, each a rule of its ruleset (`RulesetFields`).
    #[serde(default)]
    pub special_rules: Vec<IgnoredAny>,
    /// Optional rules switched on, e.g. `hills_block_fire`.
    #[serde(default)]
    pub options: Vec<String>,
    /// Who wins when the last turn ends with no other victory, for the rulesets that
    /// decide so (`rulesets::common::require_time_limit`).
    #[serde(default)]
    pub at_time_limit: Option<TimeLimitVictory>,
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
    /// For `field_defence`: the hex of the two behind the defences, which they face
    /// away from. Required with them, refused without them.
    #[serde(default)]
    pub defended: Option<HexCoord>,
}

/// The fields of a side every ruleset reads. A ruleset adds its own (`side_fields!`) and
/// reads them from the same entry, which is why unknown fields are its to refuse.
#[derive(Clone, Debug, Deserialize)]
pub struct SideSpec {
    pub id: String,
    pub name: String,
    /// The id of the side's commander-in-chief.
    #[serde(default)]
    pub commander: Option<String>,
}

/// The fields of a unit every ruleset reads; a ruleset adds its own (`unit_fields!`).
#[derive(Clone, Debug, Deserialize)]
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

/// How complete a victory is, from the least: rulesets use the levels they have (A la
/// Charge and Champs de Bataille minor and major; Morne Plaine all four).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum VictoryLevel {
    Minor,
    Tactical,
    Major,
    Total,
}

impl VictoryLevel {
    /// The level in words: "minor", "tactical", "major", "total".
    pub fn name(self) -> &'static str {
        match self {
            VictoryLevel::Minor => "minor",
            VictoryLevel::Tactical => "tactical",
            VictoryLevel::Major => "major",
            VictoryLevel::Total => "total",
        }
    }
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
    /// The fields every ruleset reads.
    pub file: ScenarioFile,
    /// What the ruleset read of the scenario besides `file` (`Ruleset::read_scenario`):
    /// its own fields and special rules, checked.
    pub rules: ScenarioRules,
    /// SHA-256 of the scenario text and of the ruleset tables it was loaded with.
    pub hash: String,
}

/// A ruleset's own reading of a scenario, kept with it for every game started from it.
#[derive(Clone)]
pub struct ScenarioRules(pub Arc<dyn Any + Send + Sync>);

impl ScenarioRules {
    /// Nothing read yet (before `Ruleset::read_scenario`).
    pub fn none() -> Self {
        Self(Arc::new(()))
    }
}

impl std::fmt::Debug for ScenarioRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ScenarioRules(..)")
    }
}

/// The fields a ruleset adds to the scenario schema: its own fields of each side and
/// unit (declared with `side_fields!` and `unit_fields!`, which refuse unknown fields)
/// and its special rules. They are read from the same text as `ScenarioFile`, entry by
/// entry, so `sides[i]` here is `file.sides[i]` there.
#[derive(Clone, Debug, Deserialize)]
pub struct RulesetFields<S, U, R> {
    #[serde(default = "Vec::new")]
    pub sides: Vec<S>,
    #[serde(default = "Vec::new")]
    pub units: Vec<U>,
    #[serde(default = "Vec::new")]
    pub special_rules: Vec<R>,
}

/// What the shared checks need to know of a ruleset's special rule.
pub trait SpecialRuleRefs {
    /// The unit ids the rule names.
    fn units(&self) -> Vec<&str> {
        Vec::new()
    }
    /// The side ids the rule names, each with the field that names it.
    fn sides(&self) -> Vec<(&'static str, &str)> {
        Vec::new()
    }
    /// The unit the rule places during play (in secret, ...): it needs no hex.
    fn places_unit(&self) -> Option<&str> {
        None
    }
}

/// The special rules of a ruleset that has none: any rule is refused by name.
#[derive(Clone, Debug, Deserialize)]
pub enum NoSpecialRule {}

impl SpecialRuleRefs for NoSpecialRule {}

/// Declares a ruleset's own fields of a scenario's side entry. The shared fields (`id`,
/// `name`, `commander`) are accepted and left to `SideSpec`; any other field is refused
/// with its place in the file.
#[macro_export]
macro_rules! side_fields {
    ($($item:tt)*) => {
        $crate::entry_fields! {
            ["id" _id, "name" _name, "commander" _commander]
            $($item)*
        }
    };
}

/// Declares a ruleset's own fields of a scenario's unit entry, as `side_fields!` does
/// for sides (shared: `id`, `name`, `side`, `type`, `hex`, `reduced`).
#[macro_export]
macro_rules! unit_fields {
    ($($item:tt)*) => {
        $crate::entry_fields! {
            ["id" _id, "name" _name, "side" _side, "type" _type, "hex" _hex, "reduced" _reduced]
            $($item)*
        }
    };
}

/// The struct `side_fields!` and `unit_fields!` declare: the shared fields of the entry
/// read and ignored, the ruleset's own fields, unknown fields refused.
#[doc(hidden)]
#[macro_export]
macro_rules! entry_fields {
    (
        [$($shared:literal $ignored:ident),*]
        $(#[$meta:meta])* $vis:vis struct $name:ident {
            $($(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            $(
                #[serde(rename = $shared, default)]
                $ignored: serde::de::IgnoredAny,
            )*
            $($(#[$fmeta])* $fvis $field: $ty),*
        }
    };
}

impl LoadedScenario {
    /// What the ruleset read of this scenario (`Ruleset::read_scenario`).
    pub fn rules<T: Any>(&self) -> &T {
        self.rules
            .0
            .downcast_ref()
            .expect("a scenario's rules are read by the ruleset that plays it")
    }

    /// Reads a ruleset's own fields and special rules from the scenario text, and runs
    /// the checks every ruleset shares on them: each unit or side a rule names exists,
    /// and each unit without a hex arrives as a reinforcement or is placed by a rule.
    pub fn read_fields<S, U, R>(&self) -> Result<RulesetFields<S, U, R>, LocatedError>
    where
        S: DeserializeOwned,
        U: DeserializeOwned,
        R: DeserializeOwned + SpecialRuleRefs,
    {
        let shown = self.display_path();
        let fields: RulesetFields<S, U, R> = ron_options()
            .from_str(&self.text)
            .map_err(|e| LocatedError::from_ron(&shown, &self.text, &e))?;
        let file = &self.file;
        let ids: HashSet<&str> = file.units.iter().map(|u| u.id.as_str()).collect();
        for r in &fields.special_rules {
            if let Some(u) = r.units().into_iter().find(|u| !ids.contains(u)) {
                return Err(self.field_error(
                    "unit",
                    Some(u),
                    0,
                    format!("special rule names an unknown unit `{u}`"),
                ));
            }
            if let Some((key, s)) = r
                .sides()
                .into_iter()
                .find(|(_, s)| self.side_index(s).is_none())
            {
                return Err(self.field_error(
                    key,
                    Some(s),
                    0,
                    format!("special rule names an unknown side `{s}`"),
                ));
            }
        }
        let placed: HashSet<&str> = fields
            .special_rules
            .iter()
            .filter_map(|r| r.places_unit())
            .collect();
        for u in &file.units {
            let reinf = file.reinforcements.iter().any(|r| r.unit == u.id);
            if u.hex.is_none() && !reinf && !placed.contains(u.id.as_str()) {
                return Err(self.field_error(
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
        Ok(fields)
    }

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

    /// An error located at field `key` of the `nth` entry written `tag(...)` (the
    /// `nth` special rule `Objective(...)`, say), at the entry's tag when the field is
    /// not written.
    pub fn entry_error(
        &self,
        tag: &str,
        nth: usize,
        key: &str,
        message: impl Into<String>,
    ) -> LocatedError {
        let path = self.display_path();
        match super::error::find_in_entry(&self.text, tag, nth, key) {
            Some((line, col)) => LocatedError::new(&path, &self.text, line, col, message),
            None => LocatedError::whole_file(&path, message),
        }
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
    if let Some(tl) = &file.at_time_limit
        && !side_ok(&tl.winner)
    {
        let w = &tl.winner;
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
        let fortified = s.features.contains(&HexsideFeature::FieldDefence);
        let pair = format!("(\"{a}\", \"{b}\")");
        match s.defended {
            None if fortified => {
                return Err(err(
                    &pair,
                    0,
                    format!(
                        "hexside {a}/{b}: field defences face one way: say which hex is behind them with `defended: \"{a}\"` or `defended: \"{b}\"`"
                    ),
                ));
            }
            Some(d) if !fortified => {
                return Err(err(
                    &pair,
                    0,
                    format!(
                        "hexside {a}/{b}: `defended: \"{d}\"` is only for a hexside with `field_defence`"
                    ),
                ));
            }
            Some(d) if d != a && d != b => {
                return Err(err(
                    &pair,
                    0,
                    format!(
                        "hexside {a}/{b}: the defended hex {d} is not one of the two hexes of the side"
                    ),
                ));
            }
            _ => {}
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
    Ok(file)
}

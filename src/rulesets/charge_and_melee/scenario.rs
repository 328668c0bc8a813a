//! What Charge & mêlée adds to the scenario schema, and its loader: each unit's stands
//! (1 to 6, one a hex, adjacent, in the shape of its formation: spec B.2 §2-3), its
//! formation, the hexside it faces, its grade, Morale Value, DPs and comitatus; leaders
//! with their Command Points, each with the unit his command stand is in; the terrain of
//! `terrain.ron`; and the special rules: victory conditions as data and the scenarios'
//! own rules (Maldon's passage over the causeway, control tests on a leader's death).
//! Every fault is refused with its file, line and column and the thing at fault.
//!
//! The ruleset is not registered yet, so `load` reads a scenario without the registry.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use crate::engine::error::{LocatedError, find_field};
use crate::engine::hex::{HexCoord, HexsideFacing};
use crate::engine::scenario::{
    LoadedScenario, RulesetFields, ScenarioRules, SpecialRuleRefs, VictoryLevel, parse_scenario,
    read_text, sha256_hex,
};
use crate::rulesets::common::RulesetTables;
use crate::{side_fields, unit_fields};

use super::data::{Category, FormationId, Grade, Tables};
use super::formation::check_shape;

/// The unit type of a leader: no troop type, a command stand in a unit (C&M 7.15's
/// "leader in the unit's front rank", 7.20's command stand).
pub const LEADER: &str = "leader";

side_fields! {
    /// C&M reads nothing of a side beyond the shared fields yet.
    pub struct CmSideFields {}
}

unit_fields! {
    /// C&M's fields of a unit of stands or of a leader. A unit's `hex` (shared) is its
    /// first stand; `stands` are the others.
    pub struct CmUnitFields {
        /// The unit's other stands, one a hex (spec B.2 §2).
        #[serde(default)]
        pub stands: Vec<HexCoord>,
        /// Line, Shieldwall, Cuneus, Column or Unformed (formations.ron).
        #[serde(default)]
        pub formation: Option<String>,
        /// The hexside every stand faces: N, NE, SE, S, SW or NW (spec B.2 §3).
        #[serde(default)]
        pub facing: Option<String>,
        /// A, B or C (7.3, 7.11, 7.15).
        #[serde(default)]
        pub grade: Option<Grade>,
        /// Morale Value, -2 to +2 (7.11, 7.15).
        #[serde(default)]
        pub mv: i8,
        /// DPs at the start (5.11; 5 is shaken, 7.11).
        #[serde(default)]
        pub dps: u8,
        /// A leader's household (3.33, spec B.5).
        #[serde(default)]
        pub comitatus: bool,
        /// A leader's Command Points a turn, 1 to 4 (3.x, spec B.2 §7).
        #[serde(default)]
        pub cps: Option<u8>,
        /// The unit a leader's command stand is in.
        #[serde(default)]
        pub with: Option<String>,
    }
}

/// The special rules of C&M scenarios: victory conditions and the battles' own rules.
#[derive(Clone, Debug, Deserialize)]
pub enum CmSpecialRule {
    /// When `side`'s army breaks (spec B.2 §14: half its stands lost, routing or in
    /// broken units), the other side wins at `level`.
    ArmyBreaks {
        side: String,
        level: VictoryLevel,
        #[serde(default)]
        source: String,
    },
    /// When `leader` dies, his enemies win at `level`.
    LeaderKilled {
        leader: String,
        level: VictoryLevel,
        #[serde(default)]
        source: String,
    },
    /// `side` wins at `level` when the last turn ends with a formed unit of it having a
    /// stand on one of `hexes` and no enemy stand on any.
    HoldAtEnd {
        side: String,
        hexes: Vec<HexCoord>,
        level: VictoryLevel,
        #[serde(default)]
        source: String,
    },
    /// Passage granted (Maldon's "ofermod"): until `until_turn` ends, the other side may
    /// neither shoot at, charge nor enter `hexes` while a stand of `side` is on them.
    Passage {
        side: String,
        hexes: Vec<HexCoord>,
        until_turn: u32,
        #[serde(default)]
        source: String,
    },
    /// When `leader` dies, each of `units` takes a control test at once (3.14).
    ControlTestsOnDeath {
        leader: String,
        units: Vec<String>,
        #[serde(default)]
        source: String,
    },
}

impl SpecialRuleRefs for CmSpecialRule {
    fn units(&self) -> Vec<&str> {
        match self {
            Self::LeaderKilled { leader, .. } => vec![leader],
            Self::ControlTestsOnDeath { leader, units, .. } => std::iter::once(leader.as_str())
                .chain(units.iter().map(String::as_str))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn sides(&self) -> Vec<(&'static str, &str)> {
        match self {
            Self::ArmyBreaks { side, .. }
            | Self::HoldAtEnd { side, .. }
            | Self::Passage { side, .. } => vec![("side", side)],
            _ => Vec::new(),
        }
    }
}

impl CmSpecialRule {
    /// The tag it is written with in the scenario.
    fn tag(&self) -> &'static str {
        match self {
            Self::ArmyBreaks { .. } => "ArmyBreaks",
            Self::LeaderKilled { .. } => "LeaderKilled",
            Self::HoldAtEnd { .. } => "HoldAtEnd",
            Self::Passage { .. } => "Passage",
            Self::ControlTestsOnDeath { .. } => "ControlTestsOnDeath",
        }
    }
}

/// What C&M reads of a scenario besides the shared fields.
pub type CmFields = RulesetFields<CmSideFields, CmUnitFields, CmSpecialRule>;

/// A unit of stands, read and checked.
#[derive(Clone, Debug)]
pub struct CmUnitSpec {
    /// Its index in the scenario's units.
    pub index: usize,
    pub troop: String,
    /// Every stand, the first (`hex`) first.
    pub stands: Vec<HexCoord>,
    pub formation: FormationId,
    /// `None` only for unformed troops (7.22).
    pub facing: Option<HexsideFacing>,
    pub grade: Grade,
    pub mv: i8,
    pub dps: u8,
    pub comitatus: bool,
}

/// A leader, read and checked.
#[derive(Clone, Debug)]
pub struct CmLeaderSpec {
    pub index: usize,
    pub cps: u8,
    /// The index of the unit his command stand is in.
    pub with: usize,
    pub commander: bool,
}

/// A C&M scenario's own reading, checked.
#[derive(Clone, Debug)]
pub struct CmScenario {
    pub fields: CmFields,
    pub units: Vec<CmUnitSpec>,
    pub leaders: Vec<CmLeaderSpec>,
}

/// Reads and checks a C&M scenario file with the tables beside or above it (else the
/// built-in ones), without the registry.
pub fn load(path: &Path) -> Result<(LoadedScenario, CmScenario), LocatedError> {
    load_text(path, read_text(path)?)
}

/// `load` on text already read.
pub fn load_text(path: &Path, text: String) -> Result<(LoadedScenario, CmScenario), LocatedError> {
    let file = parse_scenario(path, text.clone())?;
    if file.ruleset != super::ID {
        return Err(LocatedError::at_field(
            &path.display().to_string(),
            &text,
            "ruleset",
            Some(&file.ruleset),
            0,
            format!(
                "this loader reads `{}` scenarios, not `{}`",
                super::ID,
                file.ruleset
            ),
        ));
    }
    let tables = Tables::for_scenario(path)?;
    let mut parts = vec![text.as_str()];
    parts.extend(tables.texts.iter().map(String::as_str));
    let hash = sha256_hex(&parts);
    let mut scenario = LoadedScenario {
        path: path.to_path_buf(),
        text,
        file,
        rules: ScenarioRules::none(),
        hash,
    };
    let rules = read_scenario(&tables, &scenario)?;
    scenario.rules = ScenarioRules(Arc::new(rules.clone()));
    Ok((scenario, rules))
}

/// Where field `key` (or, with `value`, that quoted value after it) is written in the
/// entry of unit `index`; at the entry's id when it is not written there.
fn at_unit(
    scenario: &LoadedScenario,
    index: usize,
    key: &str,
    value: Option<&str>,
    message: impl Into<String>,
) -> LocatedError {
    let file = &scenario.file;
    let id = &file.units[index].id;
    let nth = file.sides.iter().filter(|s| &s.id == id).count()
        + file.units[..index].iter().filter(|u| &u.id == id).count();
    let path = scenario.display_path();
    let text = &scenario.text;
    let Some((line, col)) = find_field(text, "id", Some(id), nth) else {
        return LocatedError::at_text(&path, text, &format!("\"{id}\""), 0, message);
    };
    let lines: Vec<&str> = text.lines().collect();
    // The entry runs from its id to the parenthesis that closes it.
    let end = entry_end(&lines, line, col);
    let keyed = format!("{key}:");
    let mut seen_key = false;
    for (l, &src) in lines.iter().enumerate().take(end).skip(line - 1) {
        let code = src.split("//").next().unwrap_or("");
        let skip: usize = if l + 1 == line {
            code.char_indices().nth(col - 1).map_or(0, |(b, _)| b)
        } else {
            0
        };
        let mut from = skip;
        if !seen_key {
            let found = code[from..].match_indices(&keyed).find(|(p, _)| {
                code[..from + p]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
            });
            let Some((p, _)) = found else { continue };
            from += p;
            seen_key = true;
            if value.is_none() {
                let c = code[..from].chars().count() + 1;
                return LocatedError::new(&path, text, l + 1, c, message);
            }
        }
        if let Some(v) = value
            && let Some(p) = code[from..].find(&format!("\"{v}\""))
        {
            let c = code[..from + p].chars().count() + 1;
            return LocatedError::new(&path, text, l + 1, c, message);
        }
    }
    LocatedError::new(&path, text, line, col, message)
}

/// The 0-based index past the last line of the entry whose `id:` is at (line, col),
/// 1-based: where the parenthesis open before it closes (strings and comments skipped).
fn entry_end(lines: &[&str], line: usize, col: usize) -> usize {
    let mut depth = 1usize;
    for (l, src) in lines.iter().enumerate().skip(line - 1) {
        let mut in_string = false;
        let mut prev = ' ';
        let skip = if l + 1 == line { col - 1 } else { 0 };
        for c in src.chars().skip(skip) {
            match c {
                '"' if prev != '\\' => in_string = !in_string,
                '/' if !in_string && prev == '/' => break,
                '(' | '[' if !in_string => depth += 1,
                ')' | ']' if !in_string => {
                    depth -= 1;
                    if depth == 0 {
                        return l + 1;
                    }
                }
                _ => {}
            }
            prev = c;
        }
    }
    lines.len()
}

/// The known names of a list, for a refusal.
fn known(names: impl IntoIterator<Item = String>) -> String {
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// Checks a C&M scenario's own fields on top of the shared checks (`parse_scenario`).
pub fn read_scenario(
    tables: &Tables,
    scenario: &LoadedScenario,
) -> Result<CmScenario, LocatedError> {
    let fields: CmFields = scenario.read_fields()?;
    let file = &scenario.file;
    crate::rulesets::common::require_time_limit(scenario, "Charge & mêlée", "spec B.2 §14")?;
    if let Some(o) = file.options.first() {
        return Err(scenario.error_at(
            &format!("\"{o}\""),
            0,
            format!("unknown option `{o}` (Charge & mêlée has no optional rules yet)"),
        ));
    }
    let map = &file.map;
    for name in map.terrain.keys().chain([&map.default_terrain]) {
        if tables.terrain_type(name).is_none() {
            return Err(scenario.error_at(
                &format!("\"{name}\""),
                0,
                format!(
                    "unknown terrain `{name}` (terrain.ron has: {})",
                    tables.terrain_names().join(", ")
                ),
            ));
        }
    }
    if let Some(s) = map.hexsides.first() {
        let (a, b) = s.between;
        return Err(scenario.error_at(
            &format!("(\"{a}\", \"{b}\")"),
            0,
            format!(
                "hexside {a}/{b}: Charge & mêlée reads no hexside features yet: give the hexes' terrain (terrain.ron)"
            ),
        ));
    }
    if let Some(r) = file.reinforcements.first() {
        return Err(scenario.field_error(
            "unit",
            Some(&r.unit),
            0,
            format!(
                "reinforcement `{}`: Charge & mêlée scenarios have no reinforcements yet: every unit starts on the map",
                r.unit
            ),
        ));
    }
    let terrain_at = |h: HexCoord| {
        let name = map
            .terrain
            .iter()
            .find(|(_, hexes)| hexes.contains(&h))
            .map_or(map.default_terrain.as_str(), |(n, _)| n.as_str());
        tables
            .terrain_type(name)
            .expect("terrain names checked above")
    };
    let on_map =
        |h: HexCoord| (1..=map.columns).contains(&h.col) && (1..=map.rows).contains(&h.row);

    let mut units = Vec::new();
    let mut occupied: BTreeMap<HexCoord, usize> = BTreeMap::new();
    for (i, (u, own)) in file.units.iter().zip(&fields.units).enumerate() {
        let at =
            |key: &str, value: Option<&str>, msg: String| at_unit(scenario, i, key, value, msg);
        if u.unit_type == LEADER {
            for (present, key) in [
                (!own.stands.is_empty(), "stands"),
                (own.formation.is_some(), "formation"),
                (own.facing.is_some(), "facing"),
                (own.grade.is_some(), "grade"),
            ] {
                if present {
                    return Err(at(
                        key,
                        None,
                        format!(
                            "leader `{}` has no `{key}`: he is a command stand in the unit he is `with` (C&M 7.15, 7.20)",
                            u.id
                        ),
                    ));
                }
            }
            continue;
        }
        let Some(troop) = tables.troop(&u.unit_type) else {
            return Err(at(
                "type",
                Some(&u.unit_type),
                format!(
                    "unit `{}` has an unknown troop type `{}` (troops.ron has: {}, and `{LEADER}`)",
                    u.id,
                    u.unit_type,
                    known(tables.troops.troops.iter().map(|t| t.id.clone()))
                ),
            ));
        };
        for (present, key) in [(own.cps.is_some(), "cps"), (own.with.is_some(), "with")] {
            if present {
                return Err(at(
                    key,
                    None,
                    format!("`{key}` is a leader's: unit `{}` is {}", u.id, troop.name),
                ));
            }
        }
        let Some(formation_name) = &own.formation else {
            return Err(at(
                "id",
                Some(&u.id),
                format!(
                    "unit `{}` needs a `formation`: one of {} (formations.ron)",
                    u.id,
                    known(FormationId::ALL.iter().map(|f| format!("{f:?}")))
                ),
            ));
        };
        let Some(formation) = FormationId::ALL
            .into_iter()
            .find(|f| format!("{f:?}").eq_ignore_ascii_case(formation_name))
        else {
            return Err(at(
                "formation",
                Some(formation_name),
                format!(
                    "unit `{}` has an unknown formation `{formation_name}` (formations.ron has: {})",
                    u.id,
                    known(FormationId::ALL.iter().map(|f| format!("{f:?}")))
                ),
            ));
        };
        let shape = tables.formation(formation);
        let Some(grade) = own.grade else {
            return Err(at(
                "id",
                Some(&u.id),
                format!("unit `{}` needs a `grade`: A, B or C (C&M 7.3, 7.11)", u.id),
            ));
        };
        if !(-2..=2).contains(&own.mv) {
            return Err(at(
                "mv",
                None,
                format!(
                    "unit `{}` has a Morale Value of {}: MV is -2 to +2 (C&M 7.11, 7.15)",
                    u.id, own.mv
                ),
            ));
        }
        if own.dps > 4 {
            return Err(at(
                "dps",
                None,
                format!(
                    "unit `{}` starts with {} DPs: 0 to 4, as 5 DPs make it shaken (C&M 7.11)",
                    u.id, own.dps
                ),
            ));
        }
        if shape.foot_only && troop.category != Category::Infantry {
            return Err(at(
                "formation",
                Some(formation_name),
                format!(
                    "unit `{}` is {}: a {formation:?} is a formation of infantry (C&M 7.10, 7.20)",
                    u.id, troop.name
                ),
            ));
        }
        let facing = match &own.facing {
            Some(f) => Some(HexsideFacing::parse(f).ok_or_else(|| {
                at(
                    "facing",
                    Some(f),
                    format!(
                        "unit `{}` faces `{f}`, which is no hexside: N, NE, SE, S, SW or NW (spec B.2 §3)",
                        u.id
                    ),
                )
            })?),
            None if shape.formed => {
                return Err(at(
                    "id",
                    Some(&u.id),
                    format!(
                        "unit `{}` is formed ({formation:?}) and needs a `facing`: N, NE, SE, S, SW or NW (C&M 7.13, 7.20)",
                        u.id
                    ),
                ));
            }
            None => None,
        };
        let Some(first) = u.hex else {
            return Err(at(
                "id",
                Some(&u.id),
                format!("unit `{}` has no `hex`", u.id),
            ));
        };
        let stands: Vec<HexCoord> = std::iter::once(first)
            .chain(own.stands.iter().copied())
            .collect();
        let (min, max) = (tables.formations.min_stands, tables.formations.max_stands);
        if !(usize::from(min)..=usize::from(max)).contains(&stands.len()) {
            return Err(at(
                "stands",
                None,
                format!(
                    "unit `{}` has {} stands: a unit is {min} to {max} (its `hex` and its other `stands`; spec B.2 §2)",
                    u.id,
                    stands.len()
                ),
            ));
        }
        for (k, &s) in stands.iter().enumerate() {
            let label = s.to_string();
            let (key, value) = if k == 0 {
                ("hex", None)
            } else {
                ("stands", Some(label.as_str()))
            };
            if !on_map(s) {
                return Err(at(
                    key,
                    value,
                    format!(
                        "unit `{}` has a stand on {s}, off the {}x{} map",
                        u.id, map.columns, map.rows
                    ),
                ));
            }
            let ground = terrain_at(s);
            if !ground.passable {
                return Err(at(
                    key,
                    value,
                    format!(
                        "unit `{}` has a stand on {s}, {}: no stand may stand there (terrain.ron)",
                        u.id, ground.name
                    ),
                ));
            }
            if let Some(&other) = occupied.get(&s) {
                let other = &file.units[other].id;
                return Err(at(
                    key,
                    value,
                    format!(
                        "two stands in {s}: unit `{}` and unit `{other}` (one stand a hex, spec B.2 §2)",
                        u.id
                    ),
                ));
            }
            if stands[..k].contains(&s) {
                return Err(at(
                    key,
                    value,
                    format!(
                        "two stands of unit `{}` in {s} (one stand a hex, spec B.2 §2)",
                        u.id
                    ),
                ));
            }
        }
        if let Err(fault) = check_shape(&stands, facing, shape.shape) {
            // At the stand at fault when there is one, else at the formation.
            let label = fault.stand().map(|s| s.to_string());
            let (key, value) = match fault.stand() {
                Some(s) if s == first => ("hex", None),
                Some(_) => ("stands", label.as_deref()),
                None => ("formation", Some(formation_name.as_str())),
            };
            return Err(at(
                key,
                value,
                format!(
                    "unit `{}` is not in {formation:?} facing {}: {} (spec B.2 §2-3)",
                    u.id,
                    facing.map_or("nowhere", |f| f.name()),
                    fault.describe()
                ),
            ));
        }
        for &s in &stands {
            occupied.insert(s, i);
        }
        units.push(CmUnitSpec {
            index: i,
            troop: u.unit_type.clone(),
            stands,
            formation,
            facing,
            grade,
            mv: own.mv,
            dps: own.dps,
            comitatus: own.comitatus,
        });
    }

    let leaders = read_leaders(scenario, &fields, &units)?;
    check_special_rules(scenario, &fields)?;
    Ok(CmScenario {
        fields,
        units,
        leaders,
    })
}

/// Each leader's CPs and the unit his command stand is in; each side's commander a
/// leader of that side.
fn read_leaders(
    scenario: &LoadedScenario,
    fields: &CmFields,
    units: &[CmUnitSpec],
) -> Result<Vec<CmLeaderSpec>, LocatedError> {
    let file = &scenario.file;
    let mut leaders = Vec::new();
    for (i, (u, own)) in file.units.iter().zip(&fields.units).enumerate() {
        if u.unit_type != LEADER {
            continue;
        }
        let at =
            |key: &str, value: Option<&str>, msg: String| at_unit(scenario, i, key, value, msg);
        let cps = match own.cps {
            Some(c) if (1..=4).contains(&c) => c,
            Some(c) => {
                return Err(at(
                    "cps",
                    None,
                    format!(
                        "leader `{}` has {c} Command Points: 1 to 4 (spec B.2 §7)",
                        u.id
                    ),
                ));
            }
            None => {
                return Err(at(
                    "id",
                    Some(&u.id),
                    format!(
                        "leader `{}` needs his `cps`, 1 to 4 Command Points (spec B.2 §7)",
                        u.id
                    ),
                ));
            }
        };
        let Some(with) = &own.with else {
            return Err(at(
                "id",
                Some(&u.id),
                format!(
                    "leader `{}` needs `with`: the unit his command stand is in (C&M 7.15, 7.20)",
                    u.id
                ),
            ));
        };
        let Some(unit) = units.iter().find(|x| &file.units[x.index].id == with) else {
            let what = if file.units.iter().any(|x| &x.id == with) {
                "is not a unit of stands"
            } else {
                "does not exist"
            };
            return Err(at(
                "with",
                Some(with),
                format!("leader `{}` is with unit `{with}`, which {what}", u.id),
            ));
        };
        let unit_spec = &file.units[unit.index];
        if unit_spec.side != u.side {
            return Err(at(
                "with",
                Some(with),
                format!(
                    "leader `{}` of `{}` is with unit `{with}` of `{}`",
                    u.id, u.side, unit_spec.side
                ),
            ));
        }
        let hex = u.hex.expect("shared checks: every unit has a hex");
        if !unit.stands.contains(&hex) {
            return Err(at(
                "hex",
                None,
                format!(
                    "leader `{}` is in {hex}, where unit `{with}` has no stand: his command stand is one of its stands (C&M 7.20)",
                    u.id
                ),
            ));
        }
        let commander = file
            .sides
            .iter()
            .any(|s| s.commander.as_deref() == Some(&u.id));
        leaders.push(CmLeaderSpec {
            index: i,
            cps,
            with: unit.index,
            commander,
        });
    }
    for side in &file.sides {
        if let Some(c) = &side.commander {
            let u = &file.units[scenario.unit_index(c).expect("shared checks")];
            if u.unit_type != LEADER || u.side != side.id {
                return Err(scenario.field_error(
                    "commander",
                    Some(c),
                    0,
                    format!(
                        "side `{}`'s commander `{c}` is not a leader of that side",
                        side.id
                    ),
                ));
            }
        }
    }
    Ok(leaders)
}

/// Each special rule's hexes on the map, turns within the game, leaders leaders.
fn check_special_rules(scenario: &LoadedScenario, fields: &CmFields) -> Result<(), LocatedError> {
    let file = &scenario.file;
    let on_map = |h: &HexCoord| {
        (1..=file.map.columns).contains(&h.col) && (1..=file.map.rows).contains(&h.row)
    };
    let mut nth: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &fields.special_rules {
        let tag = r.tag();
        let n = *nth.entry(tag).and_modify(|n| *n += 1).or_insert(0);
        let at =
            |key: &str, msg: String| scenario.entry_error(tag, n, key, format!("{tag}: {msg}"));
        let is_leader = |id: &str| {
            scenario
                .unit_index(id)
                .is_some_and(|i| file.units[i].unit_type == LEADER)
        };
        match r {
            CmSpecialRule::HoldAtEnd { hexes, .. } | CmSpecialRule::Passage { hexes, .. } => {
                if hexes.is_empty() {
                    return Err(at("hexes", "no hex is given".into()));
                }
                if let Some(h) = hexes.iter().find(|h| !on_map(h)) {
                    return Err(at("hexes", format!("hex {h} is off the map")));
                }
                if let CmSpecialRule::Passage { until_turn, .. } = r
                    && !(1..=file.turns).contains(until_turn)
                {
                    return Err(at(
                        "until_turn",
                        format!("a turn from 1 to {}, not {until_turn}", file.turns),
                    ));
                }
            }
            CmSpecialRule::LeaderKilled { leader, .. } if !is_leader(leader) => {
                return Err(at("leader", format!("`{leader}` is not a leader")));
            }
            CmSpecialRule::ControlTestsOnDeath { leader, units, .. } => {
                if !is_leader(leader) {
                    return Err(at("leader", format!("`{leader}` is not a leader")));
                }
                let side = &file.units[scenario.unit_index(leader).expect("a leader")].side;
                let stranger = units.iter().find(|u| {
                    let x = &file.units[scenario.unit_index(u).expect("shared checks")];
                    x.unit_type == LEADER || &x.side != side
                });
                if let Some(u) = stranger {
                    return Err(at(
                        "units",
                        format!("`{u}` is not a unit of stands of `{leader}`'s side"),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

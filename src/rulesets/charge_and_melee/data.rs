//! The tables of Charge & mêlée as data, read from `rulesets/charge_and_melee/*.ron`: the
//! troop types and their factors, the formations, and the charts of chapter 7 (move
//! dice, evade test, charge resolution and its result bands, mêlée modifiers) with the
//! average die. Each file's `source:` note separates the printed figures from the
//! designer's; every fault is refused with its file, line and column.

use serde::Deserialize;

use crate::engine::error::{LocatedError, find_field};
use crate::rulesets::common::parse_table as parse;

// ---- troops.ron ----

/// What 7.6 (move dice), 7.10 ("charged by mounted") and 7.20 ("foot facing mounted",
/// rear support "of the same category") read of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Category {
    Infantry,
    Cavalry,
    Elephants,
    Artillery,
}

impl Category {
    /// Mounted troops (7.10, 7.15, 7.20): cavalry and elephants (designer's: the text
    /// sets elephants apart from cavalry only for the move dice, 7.6).
    pub fn mounted(self) -> bool {
        matches!(self, Self::Cavalry | Self::Elephants)
    }
}

/// The row of the Charge Response Chart (7.10) a type reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum ResponseRow {
    /// D6: counter-charge on 5-6, otherwise stand.
    ArmedRabble,
    /// Archers and crossbowmen: stand if they shot at short range, else as light
    /// infantry if light, otherwise stand.
    Missile,
    LightInfantry,
    LightCavalry,
    HeavyCavalry,
    /// Shock cavalry and elephants.
    CounterCharge,
    /// All other troops.
    Stand,
}

/// A type's restriction on initiating a charge (7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Initiative {
    Free,
    /// Crossbowmen, artillery: "not on their own", and the text's only way to charge
    /// with others names archers: read as never (designer's).
    NotAlone,
    /// Foot archers: only with the heavy infantry of their battle line, and not after
    /// shooting in the short-range exchange.
    WithHeavyInfantry,
    /// Skirmishers and light cavalry: only against unformed troops or an exposed flank
    /// or rear, unless pursuing.
    UnformedFlankOrRear,
    /// Heavy horse archers and lance & bow cavalry: not after a short-range shot from a
    /// front rank that turn.
    NotAfterFrontRankShot,
    /// Never initiates a charge (mounted infantry; wagons).
    Never,
}

/// A troop type and its factors (see `troops.ron`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopType {
    pub id: String,
    pub name: String,
    pub category: Category,
    pub light: bool,
    pub heavy: bool,
    /// Shock cavalry: must counter-charge (7.10), halt or follow up on an inconclusive
    /// charge (7.15's results).
    #[serde(default)]
    pub shock: bool,
    pub armoured: bool,
    pub response: ResponseRow,
    pub initiative: Initiative,
    /// Added by a charging or counter-charging unit (7.15) and by stands with forward
    /// momentum in mêlée (7.20).
    pub attack: u8,
    /// Added by units that receive a charge, and by stands at the halt in mêlée.
    pub defence: u8,
    pub short_range: u8,
    pub long_range: u8,
    /// Hexes in a Move Phase (the movement chapter is missing).
    pub normal_move: u8,
    pub source: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopsFile {
    pub source: String,
    pub troops: Vec<TroopType>,
}

// ---- formations.ron ----

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum FormationId {
    Line,
    Shieldwall,
    Cuneus,
    Column,
    Unformed,
}

impl FormationId {
    pub const ALL: [Self; 5] = [
        Self::Line,
        Self::Shieldwall,
        Self::Cuneus,
        Self::Column,
        Self::Unformed,
    ];
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Formation {
    pub id: FormationId,
    pub formed: bool,
    pub may_charge: bool,
    pub charge_modifier: i8,
    pub second_rank_counts: bool,
    pub push_forward: u8,
    pub foot_only: bool,
    /// How its stands lie on the hexes (`formation::check_shape`).
    pub shape: Shape,
}

/// How a formation's stands lie on the hexes (designer's, spec B.2 §2-3; see
/// `formations.ron`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Shape {
    /// A front rank of stands beside one another and up to `max_ranks - 1` ranks behind
    /// it, each stand directly behind one of the rank ahead; at most `max_width` stands
    /// in the front rank.
    Ranks {
        min_ranks: u8,
        max_ranks: u8,
        max_width: u8,
    },
    /// Any set of adjacent stands, facing nowhere (unformed troops, 7.22).
    Contiguous,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormationsFile {
    pub source: String,
    pub min_stands: u8,
    pub max_stands: u8,
    pub formations: Vec<Formation>,
}

// ---- terrain.ron ----

/// A terrain type of a hex (the terrain chapter is missing: see `terrain.ron`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainType {
    pub id: String,
    pub name: String,
    /// No stand may stand or move there.
    pub passable: bool,
    /// Difficult terrain (7.7's fatigue from 4, 7.10's light infantry).
    pub difficult: bool,
    /// One stand wide (a causeway, a bridge).
    pub defile: bool,
    /// Blocks a line of sight passing through it (spec B.2 §11, designer's: woods).
    #[serde(default)]
    pub blocks_sight: bool,
    pub source: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainFile {
    pub source: String,
    pub terrain: Vec<TerrainType>,
}

// ---- charts.ron ----

/// The troop grades (A best).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
pub enum Grade {
    A,
    B,
    C,
}

/// Which die a grade rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum DieKind {
    Average,
    D6,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradeDie {
    pub grade: Grade,
    pub die: DieKind,
}

/// A move die read as hexes: the die plus `add`, within `min..=max` (7.6).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveDice {
    pub add: i8,
    pub min: u8,
    pub max: u8,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeMoveChart {
    /// Infantry and elephants.
    pub foot: MoveDice,
    /// Cavalry.
    pub mounted: MoveDice,
    pub fatigue_from: u8,
    pub fatigue_from_difficult: u8,
    pub unformed_light_bonus: i8,
    pub shooting_evader: i8,
    /// The farthest gap, in JT, from which cavalry and elephants may charge (7.4).
    pub mounted_reach: u8,
    /// The gap, in JT, from which infantry may charge (7.4).
    pub foot_reach: u8,
}

/// The Charge Response Chart's figure (7.10).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResponsesChart {
    /// Armed rabble counter-charge on a D6 of this or more, else stand.
    pub rabble_counter_charge_from: u8,
    /// DPs for turning about to receive a charge that began within javelin range
    /// (7.13: the text gives none when it began beyond; the figure is the designer's).
    pub about_face_dps: u8,
    /// Javelin range in JT (a gap; 7.13, spec B.2 §1).
    pub javelin_range: u8,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvadeChart {
    pub shaken_dps: u8,
    pub evades_from: i32,
}

/// Command (spec B.2 §5-§7, §9; the command chapter is missing: every figure but the
/// inspiration's 3 CPs, 7.11's 1 JT and 7.34's +1 CP and +1 MV is the designer's).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandChart {
    pub source: String,
    /// A leader's command radius in JT (a gap, spec B.2 §1).
    pub radius: u8,
    /// A control test of this or more halts; below it, the worst result (3.14).
    pub halt_from: i32,
    /// A control test of this or more obeys.
    pub obey_from: i32,
    /// The troop types that make an unauthorised advance on the worst result (7.3).
    pub impetuous: Vec<String>,
    /// DPs a unit at rest sheds a turn, and more for each CP spent on it (spec B.2 §5).
    pub rest_dps: u8,
    pub rest_per_cp: u8,
    /// An inspiring leader reaches units within this gap in JT (7.11).
    pub inspire_within: u8,
    /// Leaders' command stands within this gap seek each other out (7.33).
    pub personal_within: u8,
    /// The winner of a personal combat gains these CPs and his units this MV (7.34).
    pub winner_cps: u8,
    pub winner_mv: i8,
    /// An avenging comitatus's bonus to the score needed to hit (3.33, 7.34).
    pub avenge_to_hit: i8,
}

/// A tier of outnumbering: enemy stands at least `at_least.0 : at_least.1` own (7.15).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutnumberedTier {
    pub at_least: (u8, u8),
    pub modifier: i8,
}

/// The results of a charge (7.15's chart), best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
pub enum ChargeResult {
    Victory,
    Success,
    Inconclusive,
    SetBack,
    Defeat,
    Rout,
}

impl ChargeResult {
    pub const ALL: [Self; 6] = [
        Self::Victory,
        Self::Success,
        Self::Inconclusive,
        Self::SetBack,
        Self::Defeat,
        Self::Rout,
    ];
}

/// A band of the results chart: from `from` (a side's total less the enemy's) up to the
/// band above; `None` is open downwards (the last band).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultBand {
    pub result: ChargeResult,
    pub from: Option<i32>,
    pub dps: u8,
    pub casualties: u8,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeChart {
    pub advantage_of_ground: i8,
    pub fortification: i8,
    pub supported: i8,
    pub mounted_charging_unformed_foot: i8,
    /// CPs a leader must allocate to inspire for his CPs to count (7.15).
    pub inspire_cps: u8,
    pub per_dp: i8,
    pub per_casualty: i8,
    pub shaken: i8,
    pub outnumbered: Vec<OutnumberedTier>,
    pub bands: Vec<ResultBand>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeChart {
    pub opponent_armoured: i8,
    pub foot_facing_mounted: i8,
    pub elephants_against_heavy: i8,
    pub momentum: i8,
    pub rear_support: i8,
    pub advantage_of_ground: i8,
    pub command_stand: i8,
    /// A need above this still misses on the next face up (7.21: hits on 1-5 only).
    pub surest_miss: u8,
    /// A need below this still hits on it (7.21: a 1 always hits).
    pub surest_hit: u8,
    /// A losing elephant rampages on a D6 of this or less (7.26; spec B.2 §10).
    pub rampage_up_to: u8,
}

/// The missile exchanges and shooting at chargers (spec B.2 §11; 7.14, 7.21).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissileChart {
    /// Short range: a gap of 1 to this many JT (javelins, bows, crossbows).
    pub short_range: u8,
    /// Long range (bow range): a gap above short range up to this many JT.
    pub long_range: u8,
    /// Added to the score needed against an armoured target (7.14's example: -1).
    pub armoured: i8,
    /// A need above this still misses on the next face up (7.21's 1-5).
    pub surest_miss: u8,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChartsFile {
    pub source: String,
    /// Six faces, read for plain faces 1 to 6.
    pub average_die: Vec<u8>,
    pub grades: Vec<GradeDie>,
    pub charge_move: ChargeMoveChart,
    pub responses: ResponsesChart,
    pub evade: EvadeChart,
    pub command: CommandChart,
    pub charge: ChargeChart,
    pub melee: MeleeChart,
    pub missile: MissileChart,
}

// ---- all the tables ----

pub const TROOPS_RON: &str = include_str!("../../../rulesets/charge_and_melee/troops.ron");
pub const FORMATIONS_RON: &str = include_str!("../../../rulesets/charge_and_melee/formations.ron");
pub const CHARTS_RON: &str = include_str!("../../../rulesets/charge_and_melee/charts.ron");
pub const TERRAIN_RON: &str = include_str!("../../../rulesets/charge_and_melee/terrain.ron");

/// The file names, in the order `Tables::parse` takes them.
pub const FILES: [&str; 4] = ["troops.ron", "formations.ron", "charts.ron", "terrain.ron"];

/// All the tables, checked, with their texts for the save hash.
#[derive(Clone, Debug)]
pub struct Tables {
    pub troops: TroopsFile,
    pub formations: FormationsFile,
    pub charts: ChartsFile,
    pub terrain: TerrainFile,
    pub texts: [String; 4],
}

impl Tables {
    /// A troop type by its id.
    pub fn troop(&self, id: &str) -> Option<&TroopType> {
        self.troops.troops.iter().find(|t| t.id == id)
    }

    /// A terrain type by its id.
    pub fn terrain_type(&self, id: &str) -> Option<&TerrainType> {
        self.terrain.terrain.iter().find(|t| t.id == id)
    }

    /// The terrain names, in the order of `terrain.ron`.
    pub fn terrain_names(&self) -> Vec<String> {
        self.terrain.terrain.iter().map(|t| t.id.clone()).collect()
    }

    /// A formation's figures (every formation is present: `parse` checks it).
    pub fn formation(&self, id: FormationId) -> &Formation {
        self.formations
            .formations
            .iter()
            .find(|f| f.id == id)
            .expect("parse checked every formation is given")
    }

    /// The die a grade rolls (every grade is present: `parse` checks it).
    pub fn die_of(&self, grade: Grade) -> DieKind {
        self.charts
            .grades
            .iter()
            .find(|g| g.grade == grade)
            .map_or(DieKind::D6, |g| g.die)
    }
}

impl crate::rulesets::common::RulesetTables<4> for Tables {
    const ID: &'static str = super::ID;
    const FILES: [&'static str; 4] = FILES;
    const BUILTIN: [&'static str; 4] = [TROOPS_RON, FORMATIONS_RON, CHARTS_RON, TERRAIN_RON];

    fn parse(names: [&str; 4], texts: [String; 4]) -> Result<Self, LocatedError> {
        let troops: TroopsFile = parse(names[0], &texts[0])?;
        let formations: FormationsFile = parse(names[1], &texts[1])?;
        let charts: ChartsFile = parse(names[2], &texts[2])?;
        let terrain: TerrainFile = parse(names[3], &texts[3])?;
        check_troops(names[0], &texts[0], &troops)?;
        check_formations(names[1], &texts[1], &formations)?;
        check_charts(names[2], &texts[2], &charts)?;
        check_terrain(names[3], &texts[3], &terrain)?;
        if let Some(bad) = charts
            .command
            .impetuous
            .iter()
            .find(|id| !troops.troops.iter().any(|t| &t.id == *id))
        {
            return Err(LocatedError::at_text(
                names[2],
                &texts[2],
                &format!("\"{bad}\""),
                0,
                format!(
                    "`impetuous` names `{bad}`, which is no troop type of troops.ron (C&M 7.3)"
                ),
            ));
        }
        Ok(Self {
            troops,
            formations,
            charts,
            terrain,
            texts,
        })
    }
}

// ---- checks ----

/// The place of field `key` in the entry whose `anchor` field (its `nth` occurrence,
/// quoted `value` if given) opens it: the first `key` at or after the anchor's line.
fn in_entry(
    file: &str,
    text: &str,
    anchor: (&str, Option<&str>, usize),
    key: &str,
    msg: String,
) -> LocatedError {
    let Some((line, col)) = find_field(text, anchor.0, anchor.1, anchor.2) else {
        return LocatedError::at_text(file, text, key, 0, msg);
    };
    let place = (0..)
        .map_while(|n| find_field(text, key, None, n))
        .find(|&(l, _)| l >= line)
        .unwrap_or((line, col));
    LocatedError::new(file, text, place.0, place.1, msg)
}

fn check_troops(file: &str, text: &str, t: &TroopsFile) -> Result<(), LocatedError> {
    for (i, troop) in t.troops.iter().enumerate() {
        let at =
            |key: &str, msg: String| in_entry(file, text, ("id", Some(&troop.id), 0), key, msg);
        if t.troops[..i].iter().any(|o| o.id == troop.id) {
            return Err(LocatedError::at_field(
                file,
                text,
                "id",
                Some(&troop.id),
                1,
                format!("troop type `{}` is given twice", troop.id),
            ));
        }
        for (key, value) in [
            ("attack", troop.attack),
            ("defence", troop.defence),
            ("short_range", troop.short_range),
            ("long_range", troop.long_range),
        ] {
            if value > 9 {
                return Err(at(
                    key,
                    format!(
                        "`{key}` of `{}` is {value}: a factor is 0 to 9 (C&M 7.15, 7.20)",
                        troop.id
                    ),
                ));
            }
        }
        if !(1..=9).contains(&troop.normal_move) {
            return Err(at(
                "normal_move",
                format!("`normal_move` of `{}` must be 1 to 9 hexes", troop.id),
            ));
        }
    }
    if t.troops.is_empty() {
        return Err(LocatedError::at_text(
            file,
            text,
            "troops",
            0,
            "no troop type is given",
        ));
    }
    Ok(())
}

fn check_formations(file: &str, text: &str, f: &FormationsFile) -> Result<(), LocatedError> {
    if !(1..=f.max_stands).contains(&f.min_stands) || f.max_stands > 6 {
        return Err(LocatedError::at_field(
            file,
            text,
            "max_stands",
            None,
            0,
            "a unit is at least 1 stand and `min_stands` to `max_stands`, at most 6 (spec B.2 §2: one stand a hex)",
        ));
    }
    for id in FormationId::ALL {
        let n = f.formations.iter().filter(|x| x.id == id).count();
        if n != 1 {
            let msg = format!(
                "formation `{id:?}` must be given once, not {n} times (C&M 7.3, 7.15, 7.19)"
            );
            return Err(match n {
                0 => LocatedError::at_text(file, text, "formations", 0, msg),
                _ => LocatedError::at_text(file, text, &format!("{id:?}"), 1, msg),
            });
        }
    }
    for x in &f.formations {
        let anchor = (
            "id",
            None,
            f.formations.iter().position(|y| y.id == x.id).unwrap_or(0),
        );
        if x.push_forward > 2 {
            return Err(in_entry(
                file,
                text,
                anchor,
                "push_forward",
                format!(
                    "`push_forward` of `{:?}` is at most 2 stands (C&M 7.19: one)",
                    x.id
                ),
            ));
        }
        if let Shape::Ranks {
            min_ranks,
            max_ranks,
            max_width,
        } = x.shape
            && (min_ranks == 0 || min_ranks > max_ranks || max_ranks > 6 || max_width == 0)
        {
            return Err(in_entry(
                file,
                text,
                anchor,
                "shape",
                format!(
                    "`{:?}`: ranks are 1 <= min_ranks <= max_ranks <= 6 and max_width at least 1 (spec B.2 §2)",
                    x.id
                ),
            ));
        }
        if (x.shape == Shape::Contiguous) == x.formed {
            return Err(in_entry(
                file,
                text,
                anchor,
                "shape",
                format!(
                    "`{:?}`: formed troops stand in ranks, unformed troops anyhow (C&M 7.22)",
                    x.id
                ),
            ));
        }
        if x.id == FormationId::Unformed && x.formed {
            return Err(in_entry(
                file,
                text,
                anchor,
                "formed",
                "`Unformed` cannot be formed (C&M 7.22)".into(),
            ));
        }
    }
    Ok(())
}

fn check_terrain(file: &str, text: &str, t: &TerrainFile) -> Result<(), LocatedError> {
    for (i, ty) in t.terrain.iter().enumerate() {
        if t.terrain[..i].iter().any(|o| o.id == ty.id) {
            return Err(LocatedError::at_field(
                file,
                text,
                "id",
                Some(&ty.id),
                1,
                format!("terrain `{}` is given twice", ty.id),
            ));
        }
    }
    if !t.terrain.iter().any(|ty| ty.id == "clear") {
        return Err(LocatedError::at_text(
            file,
            text,
            "terrain",
            0,
            "terrain `clear` must be given: it is every scenario's default",
        ));
    }
    Ok(())
}

fn check_charts(file: &str, text: &str, c: &ChartsFile) -> Result<(), LocatedError> {
    let at =
        |key: &str, msg: &str| LocatedError::at_field(file, text, key, None, 0, msg.to_string());
    if c.average_die.len() != 6
        || c.average_die.iter().any(|f| !(1..=6).contains(f))
        || !c.average_die.is_sorted()
    {
        return Err(at(
            "average_die",
            "the average die has six faces, each 1 to 6, in rising order (2,3,3,4,4,5)",
        ));
    }
    for g in [Grade::A, Grade::B, Grade::C] {
        if c.grades.iter().filter(|x| x.grade == g).count() != 1 {
            return Err(at("grades", &format!("grade {g:?} must be given once")));
        }
    }
    let m = &c.charge_move;
    for (key, d) in [("foot", m.foot), ("mounted", m.mounted)] {
        if d.min > d.max || d.max == 0 || d.max > 12 {
            return Err(at(
                key,
                "a move die's `min` is at most its `max`, which is 1 to 12 hexes (C&M 7.6)",
            ));
        }
    }
    for key in ["fatigue_from", "fatigue_from_difficult"] {
        let v = if key == "fatigue_from" {
            m.fatigue_from
        } else {
            m.fatigue_from_difficult
        };
        if !(1..=7).contains(&v) {
            return Err(at(
                key,
                "a fatigue threshold is a die face 1 to 6, or 7 for never (C&M 7.7)",
            ));
        }
    }
    if !(1..=7).contains(&c.responses.rabble_counter_charge_from) {
        return Err(at(
            "rabble_counter_charge_from",
            "armed rabble counter-charge from a die face 1 to 6, or 7 for never (C&M 7.10)",
        ));
    }
    let k = &c.command;
    if k.halt_from > k.obey_from {
        return Err(at(
            "halt_from",
            "a control test halts below where it obeys: `halt_from` <= `obey_from` (spec B.2 §6)",
        ));
    }
    if k.radius == 0 || k.radius > 30 {
        return Err(at(
            "radius",
            "a command radius is 1 to 30 JT (spec B.2 §7: 6)",
        ));
    }
    if c.charge.inspire_cps == 0 {
        return Err(at(
            "inspire_cps",
            "inspiring takes at least 1 CP (C&M 7.15)",
        ));
    }
    let tiers = &c.charge.outnumbered;
    let ratio_rises = tiers.windows(2).all(|w| {
        let (a, b) = (w[0].at_least, w[1].at_least);
        u32::from(a.0) * u32::from(b.1) < u32::from(b.0) * u32::from(a.1)
    });
    if !ratio_rises
        || tiers
            .iter()
            .any(|t| t.at_least.1 == 0 || t.at_least.0 <= t.at_least.1)
    {
        return Err(at(
            "outnumbered",
            "outnumbering tiers are ratios above 1:1, rising (C&M 7.15: 3:2, 2:1, 4:1)",
        ));
    }
    check_bands(file, text, &c.charge.bands)?;
    if c.melee.surest_hit == 0
        || c.melee.surest_hit > c.melee.surest_miss
        || c.melee.surest_miss > 6
    {
        return Err(at(
            "surest_miss",
            "mêlée limits are faces with 1 <= surest_hit <= surest_miss <= 6 (C&M 7.21)",
        ));
    }
    if c.melee.rampage_up_to > 6 {
        return Err(at(
            "rampage_up_to",
            "an elephant rampages on a die face 0 (never) to 6 (C&M 7.26)",
        ));
    }
    let m = &c.missile;
    if m.short_range == 0 || m.long_range < m.short_range || m.surest_miss == 0 || m.surest_miss > 6
    {
        return Err(at(
            "missile",
            "missile ranges are gaps with 1 <= short_range <= long_range, and surest_miss a face 1 to 6 (spec B.2 §11, C&M 7.21)",
        ));
    }
    Ok(())
}

/// Every result once, best first, the thresholds falling, only the last open downwards.
fn check_bands(file: &str, text: &str, bands: &[ResultBand]) -> Result<(), LocatedError> {
    let at =
        |nth: usize, key: &str, msg: String| in_entry(file, text, ("result", None, nth), key, msg);
    if bands.len() != ChargeResult::ALL.len() {
        return Err(LocatedError::at_field(
            file,
            text,
            "bands",
            None,
            0,
            format!(
                "the results chart has {} bands, not {} (C&M 7.15)",
                ChargeResult::ALL.len(),
                bands.len()
            ),
        ));
    }
    for (i, (band, want)) in bands.iter().zip(ChargeResult::ALL).enumerate() {
        if band.result != want {
            return Err(at(
                i,
                "result",
                format!("band {} must be {want:?}, best first (C&M 7.15)", i + 1),
            ));
        }
        let last = i + 1 == bands.len();
        match (band.from, last) {
            (None, false) => {
                return Err(at(
                    i,
                    "from",
                    format!("only the last band is open downwards, not {want:?}"),
                ));
            }
            (Some(_), true) => {
                return Err(at(
                    i,
                    "from",
                    format!("the last band ({want:?}) is open downwards: `from: None`"),
                ));
            }
            _ => {}
        }
        if let (Some(here), Some(Some(above))) = (band.from, (i > 0).then(|| bands[i - 1].from))
            && here >= above
        {
            return Err(at(
                i,
                "from",
                format!("{want:?} must start below the band above ({above})"),
            ));
        }
    }
    Ok(())
}

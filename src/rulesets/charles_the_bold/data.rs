//! The tables of Charles the Bold as data, read from `rulesets/charles_the_bold/*.ron`:
//! the stand types (CtB 15.1, 15.2), the terrain of the missing Summary Sheet, the dice
//! factors and caps of fire, melee and the Morale Test, the Order Tests and command
//! figures, the army lists (CtB 16.0) and the Special Units sheet (CtB 6.1). Each file's
//! `source:` note separates the printed figures from the designer's; every fault is
//! refused with its file, line and column.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::engine::error::{LocatedError, find_field, find_nth};
use crate::rulesets::common::parse_table as parse;

// ---- types.ron ----

/// Combat Stand or Support Stand (CtB 1.2, 15.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Role {
    Combat,
    Support,
}

/// The cost column a type reads in `terrain.ron`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum TerrainClass {
    CloseFoot,
    LightFoot,
    Mounted,
    LightHorse,
    Guns,
}

/// Whom a type may evade (CtB 4.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Evade {
    #[default]
    Never,
    Always,
    /// MC and HC evade only foot allowed to charge cavalry.
    AgainstFootThatChargesCavalry,
}

/// Whether a type fires defensive fire when charged in front (CtB 6.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum DefensiveFire {
    #[default]
    None,
    Always,
    /// In cover or against an attacker without impetus; in the open it fires, then dies.
    Skirmisher,
    /// Not against HC or MC in the open.
    ShotNotCavalryInOpen,
}

/// How a winning stand of the type may pursue (CtB 13.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum PursuitKind {
    Foot,
    Cavalry,
    Never,
}

/// Whether a type bounces back after a melee it does not win (CtB 11.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Bounce {
    #[default]
    Never,
    Always,
    Choice,
}

/// The fire arc (CtB 6.0): the wide frontal lines, or artillery's 2-hex corridor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum FireArc {
    #[default]
    Wide,
    Corridor,
}

/// Extra dice a rank behind the front adds frontally (CtB 10.4.1, 10.4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RankBonus {
    pub foot: u8,
    pub mounted: u8,
}

/// A sub-category of stand and every flag the text sets for it (see `types.ron`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeSpec {
    pub id: String,
    pub role: Role,
    pub mounted: bool,
    pub terrain: TerrainClass,
    #[serde(default)]
    pub heavy: bool,
    #[serde(default)]
    pub through: bool,
    #[serde(default)]
    pub displaced: bool,
    #[serde(default)]
    pub free: bool,
    #[serde(default)]
    pub turn_move: bool,
    pub zoc: bool,
    #[serde(default)]
    pub evade: Evade,
    #[serde(default)]
    pub df: DefensiveFire,
    /// MP a hex sideways (CtB 3.6, designer's).
    pub side: u8,
    /// MP a hex backwards (CtB 3.7, designer's).
    pub back: u8,
    pub pursuit: PursuitKind,
    #[serde(default)]
    pub bounce: Bounce,
    /// SP this type loses at most in a melee against foot (CtB 11.1).
    #[serde(default)]
    pub lost_vs_foot: Option<u8>,
    /// SP this type loses at most in any melee (CtB 11.1).
    #[serde(default)]
    pub lost_max: Option<u8>,
    /// SP this type inflicts at most in a melee (CtB 11.1).
    #[serde(default)]
    pub inflicts_max: Option<u8>,
    /// Charges with IF 0 (LC: CtB 10.0).
    #[serde(default)]
    pub if0_charges: bool,
    #[serde(default)]
    pub ranks: Option<RankBonus>,
    #[serde(default)]
    pub destroyed_if_beaten: bool,
    #[serde(default)]
    pub fire_arc: FireArc,
    #[serde(default)]
    pub no_move_and_fire: bool,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypesFile {
    pub source: String,
    pub types: Vec<TypeSpec>,
}

// ---- terrain.ron ----

/// A value for each terrain class, in the order close foot, light foot, mounted, light
/// horse, guns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct PerClass<T>(pub T, pub T, pub T, pub T, pub T);

impl<T: Copy> PerClass<T> {
    /// The value of one class.
    pub fn of(&self, class: TerrainClass) -> T {
        match class {
            TerrainClass::CloseFoot => self.0,
            TerrainClass::LightFoot => self.1,
            TerrainClass::Mounted => self.2,
            TerrainClass::LightHorse => self.3,
            TerrainClass::Guns => self.4,
        }
    }

    fn all(&self) -> [T; 5] {
        [self.0, self.1, self.2, self.3, self.4]
    }
}

/// Whose impetus a terrain removes when charged into (CtB 10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum ImpactRemoval {
    Mounted,
    All,
}

/// How far sight goes into a terrain (CtB 6.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Sight {
    #[default]
    Clear,
    /// Seen only in the first such hex of a line.
    OneHexInto,
}

/// A terrain type of the Summary Sheet (designer's, see `terrain.ron`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainSpec {
    pub id: String,
    /// MP to enter, per class; `None` is impassable.
    pub cost: PerClass<Option<u8>>,
    #[serde(default)]
    pub removes_impact: Option<ImpactRemoval>,
    #[serde(default)]
    pub cover: bool,
    #[serde(default)]
    pub sight: Sight,
    /// Types that may not charge into it.
    #[serde(default)]
    pub no_charge: Vec<String>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stream {
    pub cost: u8,
    pub removes_impact: ImpactRemoval,
}

/// A hexside feature that lets a river be crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RiverCrossing {
    Bridge,
    Ford,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct River {
    pub crossing: Vec<RiverCrossing>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hexsides {
    pub stream: Stream,
    pub river: River,
    /// MP a hex along road hexsides, whatever the hex.
    pub road: u8,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainFile {
    pub source: String,
    pub terrain: Vec<TerrainSpec>,
    /// Extra MP entering a higher hex, per class.
    pub climb: PerClass<u8>,
    /// R-LOS: an intermediate hex this many levels above the lower end blocks sight.
    pub sight_levels: i8,
    pub hexsides: Hexsides,
}

// ---- factors.ron ----

/// A range column of the army lists (CtB 16.0: 2H, 3H, 4H, 6H).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Column {
    H2,
    H3,
    H4,
    H6,
}

/// The ranges in hexes a column covers (R-ranges).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeBand {
    pub from: u32,
    pub to: u32,
    pub column: Column,
}

/// Dice added to or taken from a fire pool, and its caps (CtB 6.0-6.3, 7.1).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireFactors {
    pub move_before: i8,
    pub move_after: i8,
    pub rear_rank: i8,
    pub disordered: i8,
    pub cover: i8,
    pub armour_vs: Vec<String>,
    pub armour: i8,
    /// SP one firing stand costs its target at most (CtB 6.0, 7.1).
    pub cap: u8,
    /// The same for artillery firing frontal DF or supporting fire (CtB 7.1).
    pub art_frontal_cap: u8,
    pub ranges: Vec<RangeBand>,
}

/// How a supporting stand's dice count (CtB 6.3, 10.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum SupportShare {
    /// Half, rounded up.
    HalfUp,
}

/// Dice added to or taken from a melee pool, and the melee's caps (CtB 7.1, 10.x, 11.x).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeFactors {
    pub min_dice: u8,
    pub disordered: i8,
    pub uphill: i8,
    pub flank: i8,
    pub hc_flank: i8,
    pub support: SupportShare,
    pub impact_after_loss: u8,
    pub loser_cap: u8,
    /// The loser loses `loser_cap` only with a morale loss of at least this (CtB 7.1).
    pub loser_needs: u8,
    pub winner_cap: u8,
    pub ongoing_cap: u8,
    pub hc_flank_cap: u8,
}

/// The figures of the Morale Test (CtB 7.0, 7.3).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleFactors {
    /// The adjusted morale is never below this.
    pub min_adjusted: u8,
    /// Added for a general attached to the stand.
    pub general: i8,
    /// Added when the stand is disordered.
    pub disordered: i8,
    /// From this adjusted morale the test fails only on a 6 ...
    pub high: u8,
    /// ... and then costs this morale loss.
    pub high_loss: u8,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactorsFile {
    pub source: String,
    pub fire: FireFactors,
    pub melee: MeleeFactors,
    pub morale: MoraleFactors,
}

// ---- orders.ron ----

/// The order rating of a stand (CtB 1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
pub enum Class {
    A,
    B,
    C,
}

/// Which class a group's single Order Test uses (CtB 3.4, designer's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum GroupClass {
    Worst,
}

/// The Order Test (CtB 8.1, and 3.4 read as it): 1D6 + modifiers at least the class's
/// threshold.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderTest {
    #[serde(rename = "A")]
    pub a: u8,
    #[serde(rename = "B")]
    pub b: u8,
    #[serde(rename = "C")]
    pub c: u8,
    pub general: i8,
    pub out_of_range: i8,
    pub group_class: GroupClass,
}

impl OrderTest {
    /// The least modified die that passes for a class.
    pub fn threshold(&self, class: Class) -> u8 {
        match class {
            Class::A => self.a,
            Class::B => self.b,
            Class::C => self.c,
        }
    }
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRange {
    pub trained: u32,
    pub poorly_trained: u32,
    pub replacement: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Ties {
    Reroll,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Initiative {
    pub dice: u8,
    pub replacement_bonus: i8,
    pub ties: Ties,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Impetuous {
    pub poor_zone: u32,
    pub steady_zone: u32,
    pub ends_at_half_sp: bool,
}

/// The faces from `faces.0` to `faces.1` give a pursuit of `hexes` (CtB 13.0).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PursuitBand {
    pub faces: (u8, u8),
    pub hexes: u32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PursuitDice {
    pub cavalry: Vec<PursuitBand>,
    pub foot: Vec<PursuitBand>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrdersFile {
    pub source: String,
    pub order_test: OrderTest,
    pub command_range: CommandRange,
    pub initiative: Initiative,
    pub general_move: u32,
    pub impetuous: Impetuous,
    pub pursuit: PursuitDice,
    pub retreat_factor: u32,
}

// ---- armies.ron ----

/// Impetuous stands (CtB 9.0): poorly trained (Imp P) or steady (Imp S).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Impetus {
    Poor,
    Steady,
}

/// The fire columns of a list entry: dice added to the SP at each range; absent means
/// no fire at that range (CtB 16.0).
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireColumns {
    #[serde(default)]
    pub h2: Option<i8>,
    #[serde(default)]
    pub h3: Option<i8>,
    #[serde(default)]
    pub h4: Option<i8>,
    #[serde(default)]
    pub h6: Option<i8>,
}

impl FireColumns {
    /// The column's modifier, if the stand fires at that range.
    pub fn of(&self, column: Column) -> Option<i8> {
        match column {
            Column::H2 => self.h2,
            Column::H3 => self.h3,
            Column::H4 => self.h4,
            Column::H6 => self.h6,
        }
    }
}

/// One line of an army list (CtB 16.0).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyEntry {
    pub id: String,
    pub class: Class,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub imp: Option<Impetus>,
    #[serde(default)]
    pub weapon: Option<String>,
    #[serde(default)]
    pub special: Vec<String>,
    /// Archers that fire over stands (CtB 6.0).
    #[serde(default)]
    pub overhead: bool,
    /// MP for the first move of a round, and for any later one (CtB 16.0).
    pub mp: (u8, u8),
    /// SP per rank, front first (CtB 1.3, 7.4).
    pub sp: Vec<u8>,
    pub impact: u8,
    #[serde(default)]
    pub fire: Option<FireColumns>,
    /// Break points per rank (CtB 14.0, R-BP).
    pub bp: u8,
}

impl ArmyEntry {
    /// The MP of a stand's `nth` move in a round, the first being 1 (CtB 16.0: "3
    /// Movement Points the first time they move in a turn, and 2 MP for any additional").
    pub fn mp_of_move(&self, nth: u32) -> u8 {
        if nth <= 1 { self.mp.0 } else { self.mp.1 }
    }

    /// The dice a rank of `sp` throws at `range` hexes before any other factor: its SP
    /// plus the list's column for that range (CtB 1.3, 16.0). `None` when the stand has
    /// no column at that range and cannot fire there (R-ranges).
    pub fn fire_dice(&self, sp: u8, range: u32, factors: &FireFactors) -> Option<i32> {
        let column = factors
            .ranges
            .iter()
            .find(|b| (b.from..=b.to).contains(&range))?
            .column;
        let modifier = self.fire?.of(column)?;
        Some(i32::from(sp) + i32::from(modifier))
    }

    /// Break points of the whole stand, every rank counted (R-BP).
    pub fn total_bp(&self) -> u32 {
        u32::from(self.bp) * self.sp.len() as u32
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmiesFile {
    pub source: String,
    pub armies: BTreeMap<String, Vec<ArmyEntry>>,
}

// ---- special_units.ron ----

/// One entry of the Special Units sheet (CtB 6.1, 6.2, 10.0, 10.3; see its source note).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialUnit {
    pub id: String,
    #[serde(default)]
    pub double_rank_fire: bool,
    /// Dice the rear rank's fire loses (CtB 6.1).
    #[serde(default)]
    pub rear_rank: i8,
    #[serde(default)]
    pub double_df_needs_no_impetus: bool,
    #[serde(default)]
    pub stakes: bool,
    #[serde(default)]
    pub overhead: bool,
    #[serde(default)]
    pub charges_cavalry: bool,
    #[serde(default)]
    pub keeps_impact: Option<u8>,
    #[serde(default)]
    pub all_round_unmoved: bool,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialFile {
    pub source: String,
    pub units: Vec<SpecialUnit>,
}

// ---- all the tables ----

pub const TYPES_RON: &str = include_str!("../../../rulesets/charles_the_bold/types.ron");
pub const TERRAIN_RON: &str = include_str!("../../../rulesets/charles_the_bold/terrain.ron");
pub const FACTORS_RON: &str = include_str!("../../../rulesets/charles_the_bold/factors.ron");
pub const ORDERS_RON: &str = include_str!("../../../rulesets/charles_the_bold/orders.ron");
pub const ARMIES_RON: &str = include_str!("../../../rulesets/charles_the_bold/armies.ron");
pub const SPECIAL_RON: &str = include_str!("../../../rulesets/charles_the_bold/special_units.ron");

/// The file names, in the order `Tables::parse` takes them.
pub const FILES: [&str; 6] = [
    "types.ron",
    "terrain.ron",
    "factors.ron",
    "orders.ron",
    "armies.ron",
    "special_units.ron",
];

/// All the tables, checked, with their texts for the save hash.
#[derive(Clone, Debug)]
pub struct Tables {
    pub types: TypesFile,
    pub terrain: TerrainFile,
    pub factors: FactorsFile,
    pub orders: OrdersFile,
    pub armies: ArmiesFile,
    pub special: SpecialFile,
    pub texts: [String; 6],
}

/// Where a fault of a table lies: file `i` of `names`, at `needle`.
struct Locate<'a> {
    names: [&'a str; 6],
    texts: &'a [String; 6],
}

impl Locate<'_> {
    fn at(&self, i: usize, needle: &str, msg: String) -> LocatedError {
        LocatedError::at_text(self.names[i], &self.texts[i], needle, 0, msg)
    }

    /// The field `key` of the entry `id: "<id>"` of file `i`, the `nth` such entry
    /// counted from `from` (the line of an army's key, or 1); the entry's id when the
    /// field is not written on its line.
    fn field(&self, i: usize, from: usize, id: &str, key: &str, msg: String) -> LocatedError {
        let text = &self.texts[i];
        let quoted = format!("\"{id}\"");
        let place = text
            .lines()
            .enumerate()
            .skip(from.saturating_sub(1))
            .find(|(_, l)| find_field(l, "id", Some(id), 0).is_some())
            .map(|(n, line)| {
                let col = find_field(line, key, None, 0)
                    .or_else(|| find_nth(line, &quoted, 0))
                    .map_or(1, |(_, c)| c);
                (n + 1, col)
            });
        match place {
            Some((line, column)) => LocatedError::new(self.names[i], text, line, column, msg),
            None => self.at(i, &quoted, msg),
        }
    }
}

fn unique<'a>(mut ids: impl Iterator<Item = &'a String>) -> Option<&'a String> {
    let mut seen = std::collections::HashSet::new();
    ids.find(|id| !seen.insert(id.as_str()))
}

impl Tables {
    /// Parses and checks the tables; `names` are the file names shown in errors, in the
    /// order of [`FILES`].
    pub fn parse(names: [&str; 6], texts: [String; 6]) -> Result<Self, LocatedError> {
        let types: TypesFile = parse(names[0], &texts[0])?;
        let terrain: TerrainFile = parse(names[1], &texts[1])?;
        let factors: FactorsFile = parse(names[2], &texts[2])?;
        let orders: OrdersFile = parse(names[3], &texts[3])?;
        let armies: ArmiesFile = parse(names[4], &texts[4])?;
        let special: SpecialFile = parse(names[5], &texts[5])?;
        let loc = Locate {
            names,
            texts: &texts,
        };
        check_types(&loc, &types)?;
        check_terrain(&loc, &terrain, &types)?;
        check_factors(&loc, &factors, &types)?;
        check_orders(&loc, &orders)?;
        if let Some(id) = unique(special.units.iter().map(|u| &u.id)) {
            return Err(loc.at(
                5,
                &format!("\"{id}\""),
                format!("special unit `{id}` is given twice"),
            ));
        }
        check_armies(&loc, &armies, &types, &special)?;
        Ok(Self {
            types,
            terrain,
            factors,
            orders,
            armies,
            special,
            texts,
        })
    }

    /// The tables built into the program.
    pub fn builtin() -> Result<Self, LocatedError> {
        Self::read(None)
    }

    /// The tables found beside or above a scenario, else the built-in ones.
    pub fn for_scenario(scenario: &Path) -> Result<Self, LocatedError> {
        Self::read(Some(scenario))
    }

    fn read(scenario: Option<&Path>) -> Result<Self, LocatedError> {
        let (names, texts) = crate::rulesets::common::read_tables(
            scenario,
            super::ID,
            FILES,
            [
                TYPES_RON,
                TERRAIN_RON,
                FACTORS_RON,
                ORDERS_RON,
                ARMIES_RON,
                SPECIAL_RON,
            ],
        )?;
        Self::parse(
            [
                &names[0], &names[1], &names[2], &names[3], &names[4], &names[5],
            ],
            texts,
        )
    }

    /// A stand type by its id ("HC", "Pk", ...).
    pub fn type_spec(&self, id: &str) -> Option<&TypeSpec> {
        self.types.types.iter().find(|t| t.id == id)
    }

    /// The entry `id` of army list `army`.
    pub fn entry(&self, army: &str, id: &str) -> Option<&ArmyEntry> {
        self.armies.armies.get(army)?.iter().find(|e| e.id == id)
    }

    /// A Special Units entry by its id.
    pub fn special(&self, id: &str) -> Option<&SpecialUnit> {
        self.special.units.iter().find(|u| u.id == id)
    }

    /// A terrain type by its id.
    pub fn terrain_type(&self, id: &str) -> Option<&TerrainSpec> {
        self.terrain.terrain.iter().find(|t| t.id == id)
    }

    /// The terrain names, in id order, for the board.
    pub fn terrain_names(&self) -> Vec<String> {
        self.terrain.terrain.iter().map(|t| t.id.clone()).collect()
    }
}

fn check_types(loc: &Locate, types: &TypesFile) -> Result<(), LocatedError> {
    if let Some(id) = unique(types.types.iter().map(|t| &t.id)) {
        return Err(loc.at(
            0,
            &format!("\"{id}\""),
            format!("stand type `{id}` is given twice (CtB 15.0)"),
        ));
    }
    for t in &types.types {
        let fault = if !(1..=9).contains(&t.side) {
            Some(("side", "a sideways cost from 1 to 9 MP a hex (CtB 3.6)"))
        } else if !(1..=9).contains(&t.back) {
            Some(("back", "a backwards cost from 1 to 9 MP a hex (CtB 3.7)"))
        } else if [t.lost_vs_foot, t.lost_max, t.inflicts_max]
            .iter()
            .flatten()
            .any(|c| !(1..=3).contains(c))
        {
            Some(("lost", "melee caps from 1 to 3 SP (CtB 11.1)"))
        } else if t.ranks.is_some_and(|r| r.foot > 3 || r.mounted > 3) {
            Some((
                "ranks",
                "rank bonuses from 0 to 3 dice a rank (CtB 10.4.1, 10.4.2)",
            ))
        } else {
            None
        };
        if let Some((key, what)) = fault {
            return Err(loc.field(
                0,
                1,
                &t.id,
                key,
                format!("stand type `{}` needs {what}", t.id),
            ));
        }
    }
    Ok(())
}

fn check_terrain(
    loc: &Locate,
    terrain: &TerrainFile,
    types: &TypesFile,
) -> Result<(), LocatedError> {
    if terrain.terrain.is_empty() || terrain.terrain.len() > 255 {
        return Err(loc.at(1, "terrain", "1 to 255 terrain types".into()));
    }
    if let Some(id) = unique(terrain.terrain.iter().map(|t| &t.id)) {
        return Err(loc.at(
            1,
            &format!("\"{id}\""),
            format!("terrain `{id}` is given twice"),
        ));
    }
    for t in &terrain.terrain {
        let here = |key: &str, what: String| {
            loc.field(1, 1, &t.id, key, format!("terrain `{}` needs {what}", t.id))
        };
        if t.cost.all().iter().flatten().any(|c| !(1..=9).contains(c)) {
            return Err(here(
                "cost",
                "costs from 1 to 9 MP, or None where impassable".into(),
            ));
        }
        if let Some(bad) = t
            .no_charge
            .iter()
            .find(|k| !types.types.iter().any(|s| &s.id == *k))
        {
            return Err(here(
                "no_charge",
                format!("known stand types in `no_charge`, not `{bad}` (types.ron)"),
            ));
        }
    }
    if terrain.climb.all().iter().any(|c| *c > 9) {
        return Err(loc.at(1, "climb", "climbing costs from 0 to 9 MP".into()));
    }
    if !(1..=9).contains(&terrain.sight_levels) {
        return Err(loc.at(
            1,
            "sight_levels",
            "sight is blocked by a hex 1 to 9 levels above the lower end (R-LOS)".into(),
        ));
    }
    let h = &terrain.hexsides;
    if !(1..=9).contains(&h.stream.cost) || !(1..=9).contains(&h.road) {
        return Err(loc.at(1, "hexsides", "streams and roads cost 1 to 9 MP".into()));
    }
    Ok(())
}

fn check_factors(loc: &Locate, f: &FactorsFile, types: &TypesFile) -> Result<(), LocatedError> {
    let fire = &f.fire;
    let penalties = [
        ("move_before", fire.move_before),
        ("move_after", fire.move_after),
        ("rear_rank", fire.rear_rank),
        ("cover", fire.cover),
        ("armour", fire.armour),
        ("disordered", fire.disordered),
        ("disordered", f.melee.disordered),
        ("disordered", f.morale.disordered),
    ];
    for (nth, (key, v)) in penalties.iter().enumerate() {
        if !(-3..=0).contains(v) {
            // The three `disordered` fields are told apart by their order in the file.
            let nth = nth.saturating_sub(5);
            return Err(LocatedError::at_field(
                loc.names[2],
                &loc.texts[2],
                key,
                None,
                if *key == "disordered" { nth } else { 0 },
                format!("`{key}` takes dice away: a figure from -3 to 0, not {v} (CtB 6.0, 7.0)"),
            ));
        }
    }
    if let Some(bad) = fire
        .armour_vs
        .iter()
        .find(|k| !types.types.iter().any(|s| &s.id == *k))
    {
        return Err(loc.at(
            2,
            "armour_vs",
            format!("`armour_vs` names stand types of types.ron, not `{bad}`"),
        ));
    }
    let from_one = fire.ranges.first().is_some_and(|b| b.from == 1);
    let contiguous = fire.ranges.windows(2).all(|w| w[1].from == w[0].to + 1);
    if !from_one || !contiguous || fire.ranges.iter().any(|b| b.to < b.from) {
        return Err(loc.at(
            2,
            "ranges",
            "the fire ranges run from 1 hex up, each band starting after the one before (R-ranges)"
                .into(),
        ));
    }
    let m = &f.melee;
    let caps = [
        ("cap", fire.cap),
        ("art_frontal_cap", fire.art_frontal_cap),
        ("min_dice", m.min_dice),
        ("loser_cap", m.loser_cap),
        ("loser_needs", m.loser_needs),
        ("winner_cap", m.winner_cap),
        ("ongoing_cap", m.ongoing_cap),
        ("hc_flank_cap", m.hc_flank_cap),
        ("impact_after_loss", m.impact_after_loss),
    ];
    if let Some((key, v)) = caps.iter().find(|(_, v)| !(1..=5).contains(v)) {
        return Err(LocatedError::at_field(
            loc.names[2],
            &loc.texts[2],
            key,
            None,
            0,
            format!("`{key}` is a figure from 1 to 5, not {v} (CtB 7.1, 10.2, 10.3, 11.0, 11.1)"),
        ));
    }
    let mo = &f.morale;
    if !(1..=6).contains(&mo.min_adjusted)
        || !(2..=7).contains(&mo.high)
        || !(1..=5).contains(&mo.high_loss)
        || !(0..=3).contains(&mo.general)
    {
        return Err(loc.at(
            2,
            "morale:",
            "the Morale Test needs an adjusted morale of at least 1 to 6, `high` from 2 to 7, `high_loss` from 1 to 5 and a general's bonus from 0 to 3 (CtB 7.0)".into(),
        ));
    }
    Ok(())
}

fn check_orders(loc: &Locate, o: &OrdersFile) -> Result<(), LocatedError> {
    let t = &o.order_test;
    if [t.a, t.b, t.c].iter().any(|x| !(2..=6).contains(x)) || !(t.a <= t.b && t.b <= t.c) {
        return Err(loc.at(
            3,
            "order_test",
            "the Order Test's thresholds are 2 to 6, A's no higher than B's, B's no higher than C's (CtB 8.1)".into(),
        ));
    }
    if !(1..=3).contains(&o.initiative.dice) {
        return Err(loc.at(
            3,
            "initiative",
            "the initiative is 1 to 3 dice (CtB 1.4)".into(),
        ));
    }
    for (kind, bands) in [("cavalry", &o.pursuit.cavalry), ("foot", &o.pursuit.foot)] {
        let faces_ok = bands
            .iter()
            .all(|b| 1 <= b.faces.0 && b.faces.0 <= b.faces.1 && b.faces.1 <= 6);
        let rising = bands.windows(2).all(|w| w[0].faces.1 < w[1].faces.0);
        if !faces_ok || !rising || bands.iter().any(|b| b.hexes == 0) {
            return Err(loc.at(
                3,
                &format!("{kind}:"),
                format!("the {kind} pursuit bands are faces 1 to 6, rising without overlap, each of at least 1 hex (CtB 13.0)"),
            ));
        }
    }
    if o.retreat_factor == 0 || o.general_move == 0 {
        return Err(loc.at(
            3,
            "retreat_factor",
            "the retreat factor and the general's move are at least 1 (CtB 2.1, 12.0)".into(),
        ));
    }
    Ok(())
}

fn check_armies(
    loc: &Locate,
    armies: &ArmiesFile,
    types: &TypesFile,
    special: &SpecialFile,
) -> Result<(), LocatedError> {
    if armies.armies.is_empty() {
        return Err(loc.at(4, "armies", "at least one army list (CtB 16.0)".into()));
    }
    for (army, entries) in &armies.armies {
        let from = find_nth(&loc.texts[4], &format!("\"{army}\":"), 0).map_or(1, |p| p.0);
        if let Some(id) = unique(entries.iter().map(|e| &e.id)) {
            return Err(loc.field(
                4,
                from,
                id,
                "id",
                format!("`{id}` is given twice in the {army} list"),
            ));
        }
        for e in entries {
            let spec = types.types.iter().find(|t| t.id == e.kind);
            let fault: Option<(&str, String)> = if spec.is_none() {
                Some((
                    "type",
                    format!("a type of types.ron, not `{}` (CtB 15.0)", e.kind),
                ))
            } else if e.sp.is_empty() || e.sp.len() > 3 {
                Some(("sp", "1 to 3 ranks (CtB 1.2, 7.4)".into()))
            } else if e.sp.iter().any(|s| !(1..=9).contains(s)) {
                Some(("sp", "from 1 to 9 SP in each rank (CtB 1.3)".into()))
            } else if !(e.mp.0 >= e.mp.1 && e.mp.1 >= 1) {
                Some((
                    "mp",
                    "a first move of at least its later moves, and at least 1 MP (CtB 16.0)".into(),
                ))
            } else if e.impact > 5 {
                Some(("impact", "an impact factor from 0 to 5 (CtB 10.3)".into()))
            } else if !(1..=3).contains(&e.bp) {
                Some(("bp", "1 to 3 break points a rank (CtB 14.0)".into()))
            } else if e.fire.is_some() && !matches!(e.kind.as_str(), "Sh" | "Sk" | "LC" | "Art") {
                Some((
                    "fire",
                    "no fire columns: only Sh, Sk, LC and Art shoot (CtB 6.0, 15.2)".into(),
                ))
            } else if e.imp.is_some() && spec.is_some_and(|s| s.role != Role::Combat) {
                Some((
                    "imp",
                    "no impetus: only Combat Stands are impetuous (CtB 9.0)".into(),
                ))
            } else if let Some(s) = e
                .special
                .iter()
                .find(|s| !special.units.iter().any(|u| &u.id == *s))
            {
                Some((
                    "special",
                    format!("special units of special_units.ron, not `{s}` (CtB 6.1)"),
                ))
            } else {
                None
            };
            if let Some((key, what)) = fault {
                return Err(loc.field(
                    4,
                    from,
                    &e.id,
                    key,
                    format!("`{}` of the {army} list needs {what}", e.id),
                ));
            }
        }
    }
    Ok(())
}

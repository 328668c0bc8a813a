//! The tables of Charles the Bold as data, read from `rulesets/charles_the_bold/*.ron`:
//! the stand types (CtB 15.1, 15.2), the terrain of the missing Summary Sheet, the dice
//! factors and caps of fire, melee and the Morale Test, the Order Tests and command
//! figures, the army lists (CtB 16.0) and the Special Units sheet (CtB 6.1). Each file's
//! `source:` note separates the printed figures from the designer's; every fault is
//! refused with its file, line and column.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::engine::error::LocatedError;

use super::checks::Locate;
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

impl TerrainClass {
    /// The five classes, in the order of `PerClass` and of their declaration (`as u8`
    /// gives a class's place here).
    pub const ALL: [TerrainClass; 5] = [
        TerrainClass::CloseFoot,
        TerrainClass::LightFoot,
        TerrainClass::Mounted,
        TerrainClass::LightHorse,
        TerrainClass::Guns,
    ];
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
    /// Shoots: its army-list entries may have fire columns (CtB 6.0, 15.2).
    #[serde(default)]
    pub shoots: bool,
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

    /// The five values, for the checks.
    pub(super) fn all(&self) -> [T; 5] {
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

/// Field defences on a hexside: a ditch, palisade, stakes or entrenchment (the
/// Summary Sheet's row, designer's after the spec's Appendix A-T; CtB 9.3, 10.3).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldDefence {
    /// Extra MP to cross them, per class; `None`: that class may not cross.
    pub cost: PerClass<Option<u8>>,
    /// Whose impetus they take away attacking across them (CtB 10.3).
    pub removes_impact: ImpactRemoval,
    /// A stand behind them is in cover from an enemy across them: −1D6 to fire at it,
    /// and skirmishers stand (CtB 6.2, 6.3, 10.6).
    pub cover: bool,
    pub source: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hexsides {
    pub stream: Stream,
    pub river: River,
    /// MP a hex along road hexsides, whatever the hex.
    pub road: u8,
    pub field_defence: FieldDefence,
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

impl Tables {
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

impl crate::rulesets::common::RulesetTables<6> for Tables {
    const ID: &'static str = super::ID;
    const FILES: [&'static str; 6] = FILES;
    const BUILTIN: [&'static str; 6] = [
        TYPES_RON,
        TERRAIN_RON,
        FACTORS_RON,
        ORDERS_RON,
        ARMIES_RON,
        SPECIAL_RON,
    ];

    /// Parses and checks the tables; `names` are the file names shown in errors, in the
    /// order of [`FILES`].
    fn parse(names: [&str; 6], texts: [String; 6]) -> Result<Self, LocatedError> {
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
        super::checks::check_types(&loc, &types)?;
        super::checks::check_terrain(&loc, &terrain, &types)?;
        super::checks::check_factors(&loc, &factors, &types)?;
        super::checks::check_orders(&loc, &orders)?;
        if let Some(id) = super::checks::unique(special.units.iter().map(|u| &u.id)) {
            return Err(loc.at(
                5,
                &format!("\"{id}\""),
                format!("special unit `{id}` is given twice"),
            ));
        }
        super::checks::check_armies(&loc, &armies, &types, &special)?;
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
}

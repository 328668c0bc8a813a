//! What Charles the Bold adds to the scenario schema: each side's army list, command
//! groups with their generals (CtB 1.1, 2.0), training and break point (CtB 14.0); each
//! stand's group, facing and ranks, a longbow's stakes, a general attached to the stand
//! in his hex (CtB 2.1); and the special rules of its scenarios (late arrivals, panic,
//! flight).

use serde::Deserialize;

use crate::engine::scenario::{RulesetFields, SpecialRuleRefs};
use crate::{side_fields, unit_fields};

use super::data::Class;

/// A command group under its general (CtB 1.1): `general` is a unit of type `general`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    pub id: String,
    pub name: String,
    pub general: String,
    /// Added to the side's initiative roll when this group is chosen (CtB 1.4), -3..3.
    #[serde(default)]
    pub bonus: i8,
}

side_fields! {
    /// CtB's fields of a side.
    pub struct CtbSideFields {
        /// Its army list in `armies.ron` (CtB 16.0).
        #[serde(default)]
        pub army: Option<String>,
        #[serde(default)]
        pub groups: Vec<GroupSpec>,
        /// Command range 4H instead of 6H (CtB 2.0).
        #[serde(default)]
        pub poorly_trained: bool,
        /// The army breaks when it has lost this fraction of its break points
        /// (CtB 14.0): (lost, of).
        #[serde(default)]
        pub break_fraction: Option<(u32, u32)>,
    }
}

unit_fields! {
    /// CtB's fields of a stand or a general.
    pub struct CtbUnitFields {
        #[serde(default)]
        pub group: Option<String>,
        /// The vertex a stand faces (CtB 3.0): NNE, E, SSE, SSW, W or NNW.
        #[serde(default)]
        pub facing: Option<String>,
        /// Fewer ranks than its list gives.
        #[serde(default)]
        pub ranks: Option<u8>,
        /// Longbows behind stakes (CtB 10.3, Special Units).
        #[serde(default)]
        pub stakes: bool,
        /// A general attached to the stand in his hex (CtB 2.1).
        #[serde(default)]
        pub attached: bool,
    }
}

/// The special rules Charles the Bold scenarios use.
#[derive(Clone, Debug, Deserialize)]
pub enum CtbSpecialRule {
    /// From `from_round` a D6 at the start of each round brings `group` on a roll of at
    /// least `on`; certain at `certain_round`.
    Arrival {
        group: String,
        from_round: u32,
        on: u8,
        certain_round: u32,
        #[serde(default)]
        source: String,
    },
    /// When `group` first enters, each enemy stand of the `classes` takes an Order
    /// Test; failure disorders it (option `no_panic` turns it off).
    Panic {
        group: String,
        classes: Vec<Class>,
        #[serde(default)]
        source: String,
    },
    /// At the start of `round`, `group` leaves the field without costing break points
    /// (option `no_flight` turns it off).
    Flight {
        group: String,
        round: u32,
        #[serde(default)]
        source: String,
    },
}

impl SpecialRuleRefs for CtbSpecialRule {}

/// What Charles the Bold reads of a scenario besides the shared fields.
pub type CtbScenario = RulesetFields<CtbSideFields, CtbUnitFields, CtbSpecialRule>;

/// The unit type of a general (CtB 1.1), beside the army lists' stand types.
pub const GENERAL: &str = "general";

//! What A la Charge adds to the scenario schema: each side's army morale level (AlC 13)
//! and the special rules of its scenarios (a secret placement, Kalavryai's treason and
//! camp pillage).

use serde::Deserialize;

use crate::engine::scenario::{HexZone, RulesetFields, SpecialRuleRefs};
use crate::{side_fields, unit_fields};

side_fields! {
    /// AlC's fields of a side.
    pub struct AlcSideFields {
        /// The army morale level of AlC 13.
        #[serde(default)]
        pub morale_level: i32,
    }
}

unit_fields! {
    /// AlC adds no field to a unit.
    pub struct AlcUnitFields {}
}

/// The special rules A la Charge scenarios use.
#[derive(Clone, Debug, Deserialize)]
pub enum AlcSpecialRule {
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
}

impl SpecialRuleRefs for AlcSpecialRule {
    fn units(&self) -> Vec<&str> {
        match self {
            AlcSpecialRule::HiddenPlacement { unit, .. }
            | AlcSpecialRule::Defection { unit, .. } => {
                vec![unit]
            }
            AlcSpecialRule::CampPillage { .. } => Vec::new(),
        }
    }

    fn sides(&self) -> Vec<(&'static str, &str)> {
        match self {
            AlcSpecialRule::Defection { roll_side, .. } => vec![("roll_side", roll_side)],
            AlcSpecialRule::CampPillage { by_side, .. } => vec![("by_side", by_side)],
            AlcSpecialRule::HiddenPlacement { .. } => Vec::new(),
        }
    }

    fn places_unit(&self) -> Option<&str> {
        match self {
            AlcSpecialRule::HiddenPlacement { unit, .. } => Some(unit),
            _ => None,
        }
    }
}

/// What A la Charge reads of a scenario besides the shared fields.
pub type AlcScenario = RulesetFields<AlcSideFields, AlcUnitFields, AlcSpecialRule>;

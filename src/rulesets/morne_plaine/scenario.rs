//! What Morne Plaine adds to the scenario schema: each side's colour (orange or blue,
//! which gives its retreat edge), a counter's own values and the leader commanding it,
//! and the special rules of its scenarios (objective hexes and the clock).

use serde::Deserialize;

use crate::engine::hex::HexCoord;
use crate::engine::scenario::{RulesetFields, SpecialRuleRefs};
use crate::{side_fields, unit_fields};

/// A side's colour (MP generalities): orange retreats north, blue south (MP combat:
/// retreat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Colour {
    Orange,
    Blue,
}

impl Colour {
    pub fn name(self) -> &'static str {
        match self {
            Colour::Orange => "orange",
            Colour::Blue => "blue",
        }
    }
}

side_fields! {
    /// MP's fields of a side.
    pub struct MpSideFields {
        #[serde(default)]
        pub colour: Option<Colour>,
    }
}

unit_fields! {
    /// MP's fields of a unit: this counter's values where they differ from its type's,
    /// and the leader commanding it (MP movement: command).
    pub struct MpUnitFields {
        #[serde(default)]
        pub cs: Option<u8>,
        #[serde(default)]
        pub mv: Option<u8>,
        #[serde(default)]
        pub bv: Option<u8>,
        #[serde(default)]
        pub radius: Option<u8>,
        #[serde(default)]
        pub leader: Option<String>,
    }
}

/// The special rules Morne Plaine scenarios use.
#[derive(Clone, Debug, Deserialize)]
pub enum MpSpecialRule {
    /// An objective hex (MP victory), held at the start by its occupant, else by
    /// `held_by`, else by no one.
    Objective {
        hex: HexCoord,
        name: String,
        vp: u32,
        #[serde(default)]
        held_by: Option<String>,
        #[serde(default)]
        source: String,
    },
    /// The hour of turn 1, for the top bar and the log ("Turn 3 (16:00)").
    Clock {
        first_hour: u8,
        #[serde(default)]
        source: String,
    },
}

impl SpecialRuleRefs for MpSpecialRule {
    fn units(&self) -> Vec<&str> {
        Vec::new()
    }

    fn sides(&self) -> Vec<(&'static str, &str)> {
        match self {
            MpSpecialRule::Objective {
                held_by: Some(s), ..
            } => vec![("held_by", s)],
            _ => Vec::new(),
        }
    }

    fn places_unit(&self) -> Option<&str> {
        None
    }
}

/// What Morne Plaine reads of a scenario besides the shared fields.
pub type MpScenario = RulesetFields<MpSideFields, MpUnitFields, MpSpecialRule>;

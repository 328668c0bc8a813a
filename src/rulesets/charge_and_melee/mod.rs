//! Charge & mêlée (C&M): chapter 7 of a Dark-Age miniatures ruleset adapted to hexes
//! (issue 16). Being built: so far its tables (`data`) and the pure arithmetic of
//! chapter 7 — the dice (`dice`), charge and evade moves (`moves`), the evade test
//! (`evade`), the charge resolution (`charge`) and its results (`results`), the mêlée
//! hits and losers (`melee`); the stands' formations on the hexes (`formation`) and the
//! scenario format with its loader (`scenario`). The plugin is not registered yet: no scenario can name
//! this ruleset until every phase is played, so no player meets an unfinished path.

pub mod charge;
pub mod data;
pub mod dice;
pub mod eligibility;
pub mod evade;
pub mod formation;
pub mod melee;
pub mod moves;
pub mod responses;
pub mod results;
pub mod scenario;

/// The ruleset's id, as scenarios will name it and as its tables' folder is named.
pub const ID: &str = "charge_and_melee";

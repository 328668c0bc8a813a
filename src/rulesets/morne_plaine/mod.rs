//! Morne Plaine (issue 14), being built: its tables as data (`data`), the arithmetic
//! of its combat page (`combat`: odds rounded for the defender and capped, the die
//! modifiers and their clamp, the 1-9 morale check, the supports), contact and step
//! costs between hexes (`movement`), the retreat the game chooses by the page's eight
//! priorities and whether the victor advances by rank (`results`), the fire strength of
//! a bombardment (`bombardment`), and the level of a victory by VP lead (`victory`). It
//! is not yet in the registry: no scenario can name it until its phases, commands,
//! reaction fire, charge, rally and the holding of objectives are built.

pub mod bombardment;
pub mod combat;
pub mod data;
pub mod movement;
pub mod results;
pub mod victory;

/// The id scenarios will name in `ruleset:`.
pub const ID: &str = "morne_plaine";

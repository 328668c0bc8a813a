//! Morne Plaine (issue 14), being built: its tables as data (`data`) and the arithmetic
//! of its combat page (`combat`: odds rounded for the defender and capped, the die
//! modifiers and their clamp, the 1-9 morale check). It is not yet in the registry: no
//! scenario can name it until its movement, results and victory are built.

pub mod combat;
pub mod data;

/// The id scenarios will name in `ruleset:`.
pub const ID: &str = "morne_plaine";

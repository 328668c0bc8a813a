//! What a ruleset tells a player interface, in terms any ruleset can fill: a counter's
//! face, a unit's card, where a unit may move, the odds of an attack, the decision the
//! rules wait for, each side's morale. The client draws these; it decides nothing.

use crate::engine::command::Command;
use crate::engine::hex::HexCoord;
use crate::engine::units::SideId;

/// What a counter shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterFace {
    /// A short type symbol: "Kn", "Inf", "Arc", "MA", "Ldr".
    pub symbol: String,
    /// The printed values, e.g. "4-5" or "2-4 r2" or "+1".
    pub values: String,
    /// Drawn on its reduced side.
    pub reduced: bool,
    /// The vertex the counter faces (CdB 6), 0 = NNE clockwise; `None` without facing.
    pub facing: Option<u8>,
    /// Its rank in a stack (CdB 8.1): 0 for the front rank, which is drawn on top.
    pub rank: u8,
}

/// One line of a unit's card: a factor or a state, and its value.
pub type CardLine = (String, String);

/// A hex a unit may move to this phase, with the cheapest legal path there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveOption {
    pub hex: HexCoord,
    /// Movement points the path costs.
    pub cost: i32,
    /// Movement points the unit has left once there.
    pub left: i32,
    /// The path, start hex excluded.
    pub path: Vec<HexCoord>,
    /// The command that makes this move.
    pub command: Command,
    /// What else the move costs, e.g. "1 PA (CdB 4.2)"; empty when nothing.
    pub note: String,
}

/// Everything an attack's odds are made of, computed by the code that resolves it.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPreview {
    pub command: Command,
    /// The odds line, e.g. "7 against 3: 2-1".
    pub odds: String,
    /// Each modifier with its value and rule, for both sides.
    pub modifiers: Vec<String>,
    /// The die roll modifier, when there is one.
    pub die_modifier: i32,
    /// Each result the die can give, with its exact chance (sums to 1).
    pub chances: Vec<(String, f64)>,
}

/// A choice the rules offer a player, and the command that makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub command: Command,
    /// The hex a click on the map chooses it by, when it has one.
    pub hex: Option<HexCoord>,
}

/// A decision the rules wait for (a loss to allocate, a retreat, an advance, a
/// placement): who makes it, why, and every legal answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub side: SideId,
    pub prompt: String,
    pub rule: String,
    pub choices: Vec<Choice>,
}

/// A side's morale as the victory rules count it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideMorale {
    pub side: SideId,
    pub name: String,
    pub lost: i32,
    pub level: i32,
}

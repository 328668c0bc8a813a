//! How good a position is for one side, read from what the ruleset itself reports:
//! the game's outcome and victory level, each side's morale lost against its level,
//! and the victory points of its standing. The computer opponent (`ai`) scores the
//! ends of its playouts with it (`Ruleset::evaluate`).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use super::game::{Outcome, TurnState};
use super::scenario::VictoryLevel;
use super::units::SideId;
use super::view::{SideMorale, Standing};

/// A won game scores between 0.9 (a minor victory) and 1, a lost one between 0 and 0.1,
/// a draw 0.5; a game still going stays inside (0.1, 0.9), so that no lead counts
/// for as much as a win.
pub fn position_value(
    world: &World,
    morale: &[SideMorale],
    standing: Option<&Standing>,
    side: SideId,
) -> f64 {
    if let Some(outcome) = &world.res::<TurnState>().outcome {
        return outcome_value(outcome, side);
    }
    let morale = morale_balance(morale, side);
    let standing = standing.and_then(|s| standing_balance(s, side));
    let balance = match (morale, standing) {
        (Some(m), Some(s)) => 0.6 * m + 0.4 * s,
        (Some(m), None) => m,
        (None, Some(s)) => s,
        (None, None) => 0.0,
    };
    0.5 + 0.4 * balance.clamp(-1.0, 1.0)
}

/// The value of a finished game for `side`: the higher the victory level, the further
/// from a draw.
pub fn outcome_value(outcome: &Outcome, side: SideId) -> f64 {
    let Some(winner) = outcome.winner else {
        return 0.5;
    };
    let margin = match outcome.level {
        Some(VictoryLevel::Minor) => 0.9,
        Some(VictoryLevel::Tactical) => 0.95,
        Some(VictoryLevel::Major) | None => 0.98,
        Some(VictoryLevel::Total) => 1.0,
    };
    if winner == side { margin } else { 1.0 - margin }
}

/// The enemy's share of its morale level lost, less this side's: from -1 (this side
/// at its break point, the enemy untouched) to 1. `None` for a ruleset without army
/// morale.
pub fn morale_balance(morale: &[SideMorale], side: SideId) -> Option<f64> {
    if morale.is_empty() {
        return None;
    }
    let share = |m: &SideMorale| (m.lost.max(0) as f64 / m.level.max(1) as f64).min(1.0);
    let own: f64 = morale.iter().filter(|m| m.side == side).map(share).sum();
    let enemy: f64 = morale.iter().filter(|m| m.side != side).map(share).sum();
    Some(enemy - own)
}

/// This side's victory points against the enemy's, from -1 to 1. `None` when the
/// standing gives no scores.
pub fn standing_balance(standing: &Standing, side: SideId) -> Option<f64> {
    if standing.scores.is_empty() {
        return None;
    }
    let own: f64 = standing
        .scores
        .iter()
        .filter(|(s, _)| *s == side)
        .map(|(_, v)| *v as f64)
        .sum();
    let enemy: f64 = standing
        .scores
        .iter()
        .filter(|(s, _)| *s != side)
        .map(|(_, v)| *v as f64)
        .sum();
    Some((own - enemy) / (own + enemy + 1.0))
}

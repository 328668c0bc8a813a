//! How good a position is for one side, read from what the ruleset itself reports:
//! the game's outcome and victory level, each side's morale lost against its level,
//! and the victory points of its standing. The computer opponent (`ai`) scores the
//! ends of its playouts with it (`Ruleset::evaluate`), and weighs with it how near
//! the side that must attack stands to the enemy (`contact_balance`) and, where the
//! ruleset asks, how together a side's army stands (`cohesion`).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use super::board::Board;
use super::game::{Outcome, ScenarioInfo, TurnState};
use super::hex::HexCoord;
use super::scenario::VictoryLevel;
use super::units::{Leader, SideId, Units};
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
    position_value_of(world, morale_balance(morale, side), standing, side)
}

/// `position_value` with the morale balance given (from -1 to 1, as
/// `morale_balance`), for a ruleset that counts more of its losses than its
/// `SideMorale` reports (C&M's DPs on the way to a lost stand).
pub fn position_value_of(
    world: &World,
    morale: Option<f64>,
    standing: Option<&Standing>,
    side: SideId,
) -> f64 {
    if let Some(outcome) = &world.res::<TurnState>().outcome {
        return outcome_value(outcome, side);
    }
    let standing = standing.and_then(|s| standing_balance(s, side));
    let balance = match (morale, standing) {
        (Some(m), Some(s)) => 0.6 * m + 0.4 * s,
        (Some(m), None) => m,
        (None, Some(s)) => s,
        (None, None) => 0.0,
    };
    0.5 + 0.4 * balance.clamp(-1.0, 1.0)
}

/// How near `side` stands to the enemy, from -1 (a board's width away) to 1 (in
/// contact), when it must seek battle: in a scenario that names who wins when the
/// last turn ends with no other victory (`at_time_limit`), the other side, which
/// must break its enemy before then. Random play seldom brings it to battle in a
/// playout's few commands, and its morale then tells its moves nothing. `None` for
/// the side that need only last, and without such a winner (victory by points,
/// Morne Plaine: the standing tells the sides what to seek). A side's distance is the
/// mean, over its units on the map that are not leaders, of the hexes to the nearest
/// enemy unit on the map, counted along the ground its class may cross (`crosses`
/// of its `ground_class`: `Ruleset::crosses`): a unit across a river from the enemy
/// is as far as the way round, and one with no way to the enemy a board's width away.
pub fn contact_balance(
    world: &World,
    side: SideId,
    ground_class: &dyn Fn(Entity) -> u8,
    crosses: &dyn Fn(u8, HexCoord, HexCoord) -> bool,
) -> Option<f64> {
    if time_limit_winner(world)? == side {
        return None;
    }
    let on_map = |own: bool| troops_on_map(world, move |s| (s == side) == own);
    let enemies: Vec<HexCoord> = on_map(false).map(|(_, hex)| hex).collect();
    if enemies.is_empty() {
        return None;
    }
    let board = world.res::<Board>();
    let reach = board.columns.max(board.rows).max(1) as f64;
    // One search for each class of ground among the side's units.
    let mut by_class: Vec<(u8, Vec<Option<u16>>)> = Vec::new();
    let (mut sum, mut n) = (0.0, 0usize);
    for (entity, hex) in on_map(true) {
        let class = ground_class(entity);
        let k = match by_class.iter().position(|(c, _)| *c == class) {
            Some(k) => k,
            None => {
                let distance =
                    ground_distances(board, &enemies, &|from, to| crosses(class, from, to));
                by_class.push((class, distance));
                by_class.len() - 1
            }
        };
        let hexes = board
            .index(hex)
            .and_then(|i| by_class[k].1[i])
            .map_or(reach, f64::from);
        sum += (hexes / reach).min(1.0);
        n += 1;
    }
    if n == 0 {
        return None;
    }
    Some(1.0 - 2.0 * sum / n as f64)
}

/// How closely `side`'s units keep together, from 0 (each stands alone) to 1 (each
/// has two of its own beside it, in its hex or the next: a line, or a stack with a
/// support). The mean, over its units on the map that are not leaders, of the own
/// units beside each, counted to two. `None` when it has no such unit on the map.
pub fn cohesion(world: &World, side: SideId) -> Option<f64> {
    let hexes: Vec<HexCoord> = troops_on_map(world, |s| s == side)
        .map(|(_, hex)| hex)
        .collect();
    if hexes.is_empty() {
        return None;
    }
    let mut at: std::collections::HashMap<HexCoord, u32> = std::collections::HashMap::new();
    for hex in &hexes {
        *at.entry(*hex).or_default() += 1;
    }
    let count = |hex: &HexCoord| at.get(hex).copied().unwrap_or(0);
    let sum: f64 = hexes
        .iter()
        .map(|hex| {
            let beside = count(hex) - 1 + hex.neighbors().iter().map(count).sum::<u32>();
            f64::from(beside.min(2)) / 2.0
        })
        .sum();
    Some(sum / hexes.len() as f64)
}

/// The units on the map that are not leaders, of the sides `of_side` keeps, with
/// their hexes: what the nearness and cohesion terms count.
pub fn troops_on_map(
    world: &World,
    of_side: impl Fn(SideId) -> bool,
) -> impl Iterator<Item = (Entity, HexCoord)> {
    let units = world.res::<Units>();
    units
        .ids()
        .filter(move |id| of_side(units.side(*id)))
        .filter(|id| world.get::<Leader>(units.entity(*id)).is_none())
        .filter_map(|id| Some((units.entity(id), units.placement(id).hex()?)))
}

/// The hexes from each hex of the board to the nearest of `to`, by steps `crosses`
/// allows (`crosses(from, to)` of each step, walked back from `to`; the hexes of
/// `to` themselves always count); `None` where no such way leads. A breadth-first
/// search from all of `to` at once.
pub fn ground_distances(
    board: &Board,
    to: &[HexCoord],
    crosses: &dyn Fn(HexCoord, HexCoord) -> bool,
) -> Vec<Option<u16>> {
    let mut distance: Vec<Option<u16>> = vec![None; board.hex_count()];
    let mut queue = std::collections::VecDeque::new();
    for hex in to {
        if let Some(i) = board.index(*hex)
            && distance[i].is_none()
        {
            distance[i] = Some(0);
            queue.push_back(*hex);
        }
    }
    while let Some(hex) = queue.pop_front() {
        let Some(here) = board.index(hex).and_then(|i| distance[i]) else {
            continue;
        };
        for before in board.neighbors_on_map(hex) {
            let Some(i) = board.index(before) else {
                continue;
            };
            if distance[i].is_none() && crosses(before, hex) {
                distance[i] = Some(here + 1);
                queue.push_back(before);
            }
        }
    }
    distance
}

/// The side the scenario names winner when the last turn ends with no other victory
/// (`at_time_limit`): the side that need only last. `None` where there is none.
pub fn time_limit_winner(world: &World) -> Option<SideId> {
    let scenario = &world.get_resource::<ScenarioInfo>()?.0;
    let last_winner = scenario.file.at_time_limit.as_ref()?;
    let winner = scenario
        .file
        .sides
        .iter()
        .position(|s| s.id == last_winner.winner)?;
    Some(SideId(u8::try_from(winner).ok()?))
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
    let shares: Vec<(SideId, f64)> = morale
        .iter()
        .map(|m| (m.side, m.lost.max(0) as f64 / m.level.max(1) as f64))
        .collect();
    share_balance(&shares, side)
}

/// `position_value` from each side's share of its level lost (1 at its break point),
/// for a ruleset that counts more of its losses than its `SideMorale` reports (C&M's
/// DPs on the way to a lost stand, CdB's halves and corps near their threshold).
pub fn share_value(world: &World, shares: &[(SideId, f64)], side: SideId) -> f64 {
    position_value_of(world, share_balance(shares, side), None, side)
}

/// `morale_balance` from each side's share of its level lost (1 at its break point).
pub fn share_balance(shares: &[(SideId, f64)], side: SideId) -> Option<f64> {
    if shares.is_empty() {
        return None;
    }
    let share = |s: f64| s.clamp(0.0, 1.0);
    let own: f64 = shares
        .iter()
        .filter(|m| m.0 == side)
        .map(|m| share(m.1))
        .sum();
    let enemy: f64 = shares
        .iter()
        .filter(|m| m.0 != side)
        .map(|m| share(m.1))
        .sum();
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

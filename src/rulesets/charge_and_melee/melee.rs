//! The mêlée (C&M 7.20-7.28): each stand rolls a D6 against the score it needs, its
//! Attack Factor with forward momentum (following up or pursuing), its Defence Factor
//! otherwise, modified by the chart; a need of 6 or more still misses on a 6, one below
//! 1 still hits on a 1. A unit that receives more hits than it inflicts loses.

use super::data::{Category, MeleeChart, TroopType};

/// One stand's fight against the stand it faces, as 7.20 sees it.
#[derive(Clone, Copy, Debug)]
pub struct StandFight<'a> {
    pub troop: &'a TroopType,
    pub opponent: &'a TroopType,
    /// Following up or pursuing: Attack Factor and +1.
    pub momentum: bool,
    pub rear_support: bool,
    pub advantage_of_ground: bool,
    /// The stand is a leader's command stand (that stand only).
    pub command_stand: bool,
}

impl<'a> StandFight<'a> {
    /// A stand at the halt with no modifier of its own.
    pub fn new(troop: &'a TroopType, opponent: &'a TroopType) -> Self {
        Self {
            troop,
            opponent,
            momentum: false,
            rear_support: false,
            advantage_of_ground: false,
            command_stand: false,
        }
    }
}

/// The score a stand needs on its D6 (7.20), before 7.21's limits.
pub fn needed(chart: &MeleeChart, s: &StandFight) -> i32 {
    let factor = if s.momentum {
        s.troop.attack
    } else {
        s.troop.defence
    };
    let add = |on: bool, m: i8| if on { i32::from(m) } else { 0 };
    i32::from(factor)
        + add(s.opponent.armoured, chart.opponent_armoured)
        + add(
            s.troop.category == Category::Infantry && s.opponent.category.mounted(),
            chart.foot_facing_mounted,
        )
        + add(
            s.troop.category == Category::Elephants && s.opponent.heavy,
            chart.elephants_against_heavy,
        )
        + add(s.momentum, chart.momentum)
        + add(s.rear_support, chart.rear_support)
        + add(s.advantage_of_ground, chart.advantage_of_ground)
        + add(s.command_stand, chart.command_stand)
}

/// Whether a D6 `face` hits when `need` is needed (7.20, 7.21).
pub fn hits(chart: &MeleeChart, need: i32, face: u8) -> bool {
    let need = need.clamp(i32::from(chart.surest_hit), i32::from(chart.surest_miss));
    i32::from(face) <= need
}

/// How many of the six faces hit when `need` is needed: the exact odds, over 6.
pub fn hitting_faces(chart: &MeleeChart, need: i32) -> u8 {
    (1..=6).filter(|&f| hits(chart, need, f)).count() as u8
}

/// Whether a unit lost the mêlée (7.25): more hits received than inflicted.
pub fn lost(received: u32, inflicted: u32) -> bool {
    received > inflicted
}

/// What a unit that lost a mêlée does (7.25, 7.26).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeleeLoss {
    /// Unformed: breaks.
    Breaks,
    /// Takes a DP and is pushed back one hex (its base depth), still facing the enemy.
    PushedBack,
    /// An elephant not shaken: takes a DP, tests for rampage, else stays.
    ElephantStands,
    /// Artillery: captured.
    Captured,
}

/// The loss of a unit of `troop` that lost a mêlée (7.25, 7.26). A shaken elephant is
/// left out by 7.26 ("if they are not shaken") and cannot be pushed back: read as
/// breaking (designer's).
pub fn loss(troop: &TroopType, formed: bool, shaken: bool) -> MeleeLoss {
    match troop.category {
        Category::Artillery => MeleeLoss::Captured,
        Category::Elephants if !shaken => MeleeLoss::ElephantStands,
        Category::Elephants => MeleeLoss::Breaks,
        _ if !formed => MeleeLoss::Breaks,
        _ => MeleeLoss::PushedBack,
    }
}

/// Whether cavalry that did not lose must retire (7.28): they failed to break or push
/// back every opponent.
pub fn cavalry_must_retire(troop: &TroopType, lost: bool, beat_every_opponent: bool) -> bool {
    troop.category == Category::Cavalry && !lost && !beat_every_opponent
}

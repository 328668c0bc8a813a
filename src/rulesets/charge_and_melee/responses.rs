//! Charge responses (C&M 7.10) and the counter-charge's meeting point (7.12): what a
//! unit that declared no charge may answer a charge with, by its row of the Charge
//! Response Chart and its circumstances; one answer alone is compelled.

use super::data::{Category, ResponseRow, TroopType};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Response {
    Evade,
    /// Evade, waiting to shoot at the chargers at short range first: 1 JT less of
    /// evade move (7.14).
    EvadeShoot,
    CounterCharge,
    Stand,
    /// Stand to receive and hold fire: no shooting at the chargers as they come on
    /// (7.14's "may shoot").
    StandHold,
    /// Stand to receive, turned about to face a charge from the rear (7.13).
    AboutFace,
}

/// What a charged unit may answer (7.10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// The answers it may choose among; one alone is compelled.
    Choose(Vec<Response>),
    /// Armed rabble: a D6 decides, counter-charging from this face up, else standing.
    RollD6 { counter_charge_from: u8 },
}

/// The circumstances 7.10 reads.
#[derive(Clone, Copy, Debug, Default)]
pub struct Circumstances {
    /// It shot in this turn's short-range missile exchange (6.8).
    pub shot_at_short_range: bool,
    /// Light infantry formed in shieldwall.
    pub in_shieldwall: bool,
    /// In, or separated from the chargers by, difficult terrain or an obstacle.
    pub difficult_or_obstacle: bool,
}

/// What the chargers are, as 7.10 reads them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chargers {
    /// At least one is mounted ("including a combination of mounted and foot").
    pub any_mounted: bool,
    /// Every one is light.
    pub all_light: bool,
    /// Every one is cavalry or light (light cavalry may counter-charge them).
    pub all_cavalry_or_light: bool,
    /// At least one is infantry, elephants or shock cavalry (heavy cavalry may evade).
    pub any_foot_elephants_or_shock: bool,
}

impl Chargers {
    /// The chargers' description from their types; no charger gives the default.
    pub fn of(chargers: &[&TroopType]) -> Self {
        if chargers.is_empty() {
            return Self::default();
        }
        Self {
            any_mounted: chargers.iter().any(|t| t.category.mounted()),
            all_light: chargers.iter().all(|t| t.light),
            all_cavalry_or_light: chargers
                .iter()
                .all(|t| t.light || t.category == Category::Cavalry),
            any_foot_elephants_or_shock: chargers
                .iter()
                .any(|t| t.shock || matches!(t.category, Category::Infantry | Category::Elephants)),
        }
    }
}

/// The answers a unit of `troop` may give to `chargers` (7.10); `rabble_from` is the
/// face from which armed rabble counter-charge (charts.ron).
pub fn allowed(
    troop: &TroopType,
    c: &Circumstances,
    chargers: &Chargers,
    rabble_from: u8,
) -> Allowed {
    use Response::*;
    let light_infantry = || {
        if c.in_shieldwall || c.difficult_or_obstacle || chargers.any_mounted || chargers.all_light
        {
            vec![CounterCharge, Stand]
        } else {
            vec![Evade]
        }
    };
    Allowed::Choose(match troop.response {
        ResponseRow::ArmedRabble => {
            return Allowed::RollD6 {
                counter_charge_from: rabble_from,
            };
        }
        ResponseRow::Missile if c.shot_at_short_range => vec![Stand],
        // Archers that did not shoot answer as the other light infantry; crossbowmen,
        // not light, as "all other troops" (designer's reading of the chart's order).
        ResponseRow::Missile if troop.light => light_infantry(),
        ResponseRow::Missile => vec![Stand],
        ResponseRow::LightInfantry => light_infantry(),
        ResponseRow::LightCavalry if chargers.all_cavalry_or_light => vec![Evade, CounterCharge],
        ResponseRow::LightCavalry => vec![Evade],
        ResponseRow::HeavyCavalry if chargers.any_foot_elephants_or_shock => {
            vec![Evade, CounterCharge, Stand]
        }
        ResponseRow::HeavyCavalry => vec![CounterCharge, Stand],
        ResponseRow::CounterCharge => vec![CounterCharge],
        ResponseRow::Stand => vec![Stand],
    })
}

/// Armed rabble's answer on its D6 (7.10).
pub fn rabble_answer(die: u8, counter_charge_from: u8) -> Response {
    if die >= counter_charge_from {
        Response::CounterCharge
    } else {
        Response::Stand
    }
}

/// Hexes a counter-charger advances to meet a charger `gap` JT away (7.12): half way
/// (rounded down: the charger, who began it, covers the odd hex — designer's), or for
/// infantry counter-charging mounted troops 1 JT or half way, whichever is shorter; never
/// more than its own move die gave.
pub fn counter_charge_advance(
    gap: u32,
    counter_charger: Category,
    charger: Category,
    counter_move: u8,
) -> u32 {
    let half = gap / 2;
    let advance = if counter_charger == Category::Infantry && charger.mounted() {
        half.min(1)
    } else {
        half
    };
    advance.min(u32::from(counter_move))
}

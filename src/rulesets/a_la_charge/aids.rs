//! A la Charge's player aids (AlC 6, 3, 9, 12.3, 12.4): the sequence of play as the
//! ruleset runs it, and its Combat Results Table, Terrain Effects Table and unit values,
//! each read from the parsed tables the rules use (`data::Tables`).

use bevy::prelude::World;

use super::AlcPhase;
use super::data::{Kind, Tables};
use crate::engine::view::{AidTable, PlayerAids};
use crate::rulesets::common_aids::{
    TurnLayout, die_table, or_dash, signed, source_note, table_of, yes,
};

/// AlC 6: a secret set-up where a scenario has one, then each side's movement and
/// combat phases, the first side's before the other's.
pub const TURN: TurnLayout<AlcPhase> = TurnLayout {
    before: &[AlcPhase::SecretSetup],
    each: &[AlcPhase::Movement, AlcPhase::Combat],
    after: &[],
};

/// What is done in a phase, for the sequence of play.
fn what(phase: AlcPhase) -> String {
    match phase {
        AlcPhase::SecretSetup => "each side places its units in secret (AlC 4)",
        AlcPhase::Movement => "moves its units, knights may charge (AlC 9-11)",
        AlcPhase::Combat => "attacks and fires (AlC 12)",
        AlcPhase::GameOver => "",
    }
    .to_string()
}

/// The sequence of play, the step the game is at, and every table.
pub fn player_aids(tables: &Tables, world: &World) -> PlayerAids {
    PlayerAids {
        sequence: TURN.sides_sequence(world, what),
        current: TURN.current(world, super::turn(world).active),
        tables: vec![crt(tables), terrain(tables), units(tables)],
    }
}

/// The Combat Results Table (AlC 12.3, 12.4): a row per die, a column per odds.
pub fn crt(tables: &Tables) -> AidTable {
    let crt = &tables.crt;
    let mut table = die_table(
        "Combat Results Table",
        "AlC 12.3, 12.4",
        crt.columns.iter().cloned(),
        crt.min_die,
        &crt.results,
    );
    table.notes = vec![
        "odds attacker to defender, rounded for the defender; terrain shifts columns left".into(),
        "A1 A2: the attacker loses 1 or 2 steps; D1 D2: the defender; AT DT: a morale check; DR1 DR2: the defender retreats 1 or 2 hexes".into(),
        source_note(&crt.source),
    ];
    table
}

/// The Terrain Effects Table (AlC 9, 10, 12.3).
pub fn terrain(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Terrain Effects Table",
        "AlC 9, 10, 12.3",
        &[
            "terrain",
            "MP",
            "defender column shift",
            "attacker die",
            "open (charge)",
            "blocks archery (option)",
        ],
        &tables.terrain.terrain,
        |t| {
            vec![
                t.id.clone(),
                or_dash(t.mp_cost),
                if t.defender_column_shift == 0 {
                    String::new()
                } else {
                    format!("{} left", t.defender_column_shift)
                },
                if t.die_modifier == 0 {
                    String::new()
                } else {
                    signed(t.die_modifier)
                },
                yes(t.open),
                yes(t.blocks_fire_by_option),
            ]
        },
    );
    table.notes = vec!["—: impassable".into(), source_note(&tables.terrain.source)];
    table
}

/// The values of the counters (AlC 3, 8).
pub fn units(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Unit values",
        "AlC 3, 8",
        &["type", "kind", "rating", "reduced", "MP", "range"],
        &tables.units.types,
        |u| {
            vec![
                u.id.clone(),
                kind_name(u.kind).to_string(),
                if u.kind == Kind::Leader {
                    signed(u.full)
                } else {
                    u.full.to_string()
                },
                or_dash(u.reduced),
                u.mp.to_string(),
                or_dash(u.range),
            ]
        },
    );
    table.notes = vec![
        "a leader's rating is added to the unit he stacks with (AlC 8)".into(),
        source_note(&tables.units.source),
    ];
    table
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Infantry => "infantry",
        Kind::Archers => "archers",
        Kind::Knights => "knights",
        Kind::MountedArchers => "mounted archers",
        Kind::Leader => "leader",
    }
}

//! Champs de Bataille's player aids (CdB 3, 1.2, 2.3, 2.4, 11.5): the sequence of play
//! as the ruleset runs it, and its unit kinds, counters, terrain classes and Combat
//! Results Table, each read from the parsed tables the rules use (`data::Tables`).

use bevy::prelude::World;

use super::CdbPhase;
use super::data::{Context, Ground, Kind, ResultLine, Tables};
use crate::engine::view::{AidTable, PlayerAids};
use crate::rulesets::common_aids::{TurnLayout, or_dash, source_note, table_of, yes};

/// CdB 3: the set-up (CdB 14.3), then each player's sequence, the first player's
/// before the other's: action points, movement, missile combat (the active player's
/// fire, then the other's), melee.
pub const TURN: TurnLayout<CdbPhase> = TurnLayout {
    before: &[CdbPhase::Setup],
    each: &[
        CdbPhase::Command,
        CdbPhase::Movement,
        CdbPhase::Missile,
        CdbPhase::Melee,
    ],
    after: &[],
};

/// What is done in a phase, for the sequence of play.
fn what(phase: CdbPhase) -> String {
    match phase {
        CdbPhase::Setup => "both sides deploy (CdB 14.3)",
        CdbPhase::Command => "a die of action points per corps (CdB 4.1)",
        CdbPhase::Movement => "moves, spending action points (CdB 4.2, 9)",
        CdbPhase::Missile => "fires, then the other side fires back (CdB 10)",
        CdbPhase::Melee => "melees, then morale (CdB 11, 12)",
    }
    .to_string()
}

/// The sequence of play, the step the game is at, and every table.
pub fn player_aids(tables: &Tables, world: &World) -> PlayerAids {
    PlayerAids {
        sequence: TURN.sides_sequence(world, what),
        current: TURN.current(world, super::sequence_side(world)),
        tables: vec![
            results(tables, "beaten", &tables.results.beaten),
            results(tables, "doubled", &tables.results.doubled),
            kinds(tables),
            counters(tables),
            terrain(tables),
        ],
    }
}

/// One half of the Combat Results Table (CdB 11.5): the loser `beaten` (a lower score)
/// or `doubled` (half the winner's or less); the first line that matches gives the
/// result.
pub fn results(tables: &Tables, how: &str, lines: &[ResultLine]) -> AidTable {
    let mut table = table_of(
        &format!("Combat Results Table: loser {how}"),
        "CdB 11.5",
        &[
            "loser", "ground", "winner", "combat", "quality", "result", "line",
        ],
        lines,
        |line| {
            vec![
                kinds_list(&line.loser),
                match line.ground {
                    Ground::Clear => "clear",
                    Ground::Broken => "broken",
                    Ground::Any => "",
                }
                .into(),
                kinds_list(&line.by),
                match line.context {
                    Context::Melee => "melee",
                    Context::Missile => "missile",
                    Context::Any => "",
                }
                .into(),
                [
                    line.loser_quality.map(|q| format!("loser ({q:?})")),
                    line.by_quality.map(|q| format!("winner ({q:?})")),
                    line.mobile
                        .map(|m| if m { "mobile" } else { "immobile" }.into()),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", "),
                line.result
                    .map_or_else(|| "no effect".into(), |r| format!("{r:?}").to_lowercase()),
                line.text.clone(),
            ]
        },
    );
    table.notes = vec![
        "the first line that matches gives the result; an empty cell matches any".into(),
        source_note(&tables.results.source),
    ];
    table
}

fn kinds_list(kinds: &[Kind]) -> String {
    kinds
        .iter()
        .map(|k| format!("{k:?}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The unit kinds (CdB 2.4): tactical values and movement.
pub fn kinds(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Unit kinds",
        "CdB 2.4",
        &["kind", "name", "vs foot", "vs mounted", "MP"],
        &tables.units.kinds,
        |k| {
            vec![
                format!("{:?}", k.id),
                k.name.clone(),
                k.vs_foot.to_string(),
                k.vs_mounted.to_string(),
                k.mp.to_string(),
            ]
        },
    );
    table.notes = vec![source_note(&tables.units.source)];
    table
}

/// The counters of the armies (CdB 2.3, 2.4), their kind's values filled in.
pub fn counters(tables: &Tables) -> AidTable {
    table_of(
        "Counters",
        "CdB 2.3, 2.4",
        &[
            "counter",
            "name",
            "kind",
            "quality",
            "vs foot",
            "vs mounted",
            "MP",
            "range",
        ],
        &tables.units.counters,
        |c| {
            let p = tables.profile(c);
            vec![
                c.id.clone(),
                c.name.clone(),
                format!("{:?}", p.kind),
                format!("{:?}", p.quality),
                p.vs_foot.to_string(),
                p.vs_mounted.to_string(),
                p.mp.to_string(),
                or_dash((p.range > 0).then_some(p.range)),
            ]
        },
    )
}

/// The terrain (CdB 1.2, 10.2): class and what it does to sight and entry.
pub fn terrain(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Terrain",
        "CdB 1.2, 10.2",
        &[
            "terrain",
            "class",
            "blocks sight",
            "sight into",
            "enter from edge",
            "fortification",
        ],
        &tables.terrain.terrain,
        |t| {
            vec![
                t.id.clone(),
                format!("{:?}", t.class).to_lowercase(),
                yes(t.blocks_los),
                t.sight_into
                    .map_or_else(String::new, |n| format!("{n} hexes")),
                yes(t.enter_from_edge),
                yes(t.fortification),
            ]
        },
    );
    table.notes = vec![source_note(&tables.terrain.source)];
    table
}

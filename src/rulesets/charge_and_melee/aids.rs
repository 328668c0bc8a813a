//! Charge & mêlée's player aids (spec B.2 §13, C&M 7.2-7.34): the turn as the ruleset
//! runs it, and its troop types, formations, terrain and the charts of chapter 7
//! (charge moves, charge results and modifiers, mêlée, missiles, command, the average
//! die), each read from the parsed tables the rules use (`data::Tables`).

use bevy::prelude::World;

use super::CmPhase;
use super::data::{ChargeResult, MoveDice, Shape, Tables};
use crate::engine::phase::RulesetPhase;
use crate::engine::view::{AidTable, PlayerAids};
use crate::rulesets::common_aids::{TurnLayout, factor_table, signed, source_note, table_of, yes};

/// Spec B.2 §13: every phase of a turn, both sides acting in each, in this order.
pub const TURN: TurnLayout<CmPhase> = TurnLayout {
    // The phase enum's own order, without the game's end.
    before: match <CmPhase as RulesetPhase>::ALL.split_last() {
        Some((_, turn)) => turn,
        None => &[],
    },
    each: &[],
    after: &[],
};

/// What is done in a phase, for the sequence of play.
fn what(phase: CmPhase) -> String {
    match phase {
        CmPhase::Initiative => "a die each: the winner chooses who moves first",
        CmPhase::Command => "leaders allocate command points",
        CmPhase::Movement => "each side moves in turn",
        CmPhase::MissileDeclaration => "shooters declare their targets",
        CmPhase::LongRange => "long-range shooting, both sides at once",
        CmPhase::ShortRange => "short-range shooting, both sides at once",
        CmPhase::ChargeDeclaration => "each side declares its charges (C&M 7.2-7.9)",
        CmPhase::ChargeResponse => "charged units respond (C&M 7.10-7.14)",
        CmPhase::ChargeResolution => "each charge resolved (C&M 7.15-7.17)",
        CmPhase::PersonalCombat => "leaders meet (C&M 7.33, 7.34)",
        CmPhase::Melee => "mêlées fought (C&M 7.18-7.32)",
        CmPhase::Rally => "units at rest shed disorder points",
        CmPhase::GameOver => "",
    }
    .to_string()
}

/// The sequence of play, the step the game is at, and every table.
pub fn player_aids(tables: &Tables, world: &World) -> PlayerAids {
    PlayerAids {
        sequence: TURN.shared_sequence(what),
        current: TURN.current(world, crate::rulesets::common::turn(world).active),
        tables: vec![
            charge_results(tables),
            charge_modifiers(tables),
            melee(tables),
            charge_moves(tables),
            responses(tables),
            missiles(tables),
            troops(tables),
            formations(tables),
            terrain(tables),
            command(tables),
        ],
    }
}

/// The charge results (C&M 7.15): a side's total less the enemy's gives its result.
pub fn charge_results(tables: &Tables) -> AidTable {
    let bands = &tables.charts.charge.bands;
    let mut table = table_of(
        "Charge results",
        "C&M 7.15",
        &["difference", "result", "DPs", "casualties"],
        bands.iter().enumerate(),
        |(i, b)| {
            let above = i.checked_sub(1).and_then(|j| bands[j].from);
            let range = match (b.from, above) {
                (Some(from), Some(next)) if next - 1 > from => format!("{from} to {}", next - 1),
                (Some(from), Some(_)) => from.to_string(),
                (Some(from), None) => format!("{from}+"),
                (None, Some(next)) => format!("{} or less", next - 1),
                (None, None) => "any".into(),
            };
            vec![
                range,
                result_name(b.result).into(),
                b.dps.to_string(),
                b.casualties.to_string(),
            ]
        },
    );
    table.notes = vec![
        "difference: the side's die plus its modifiers, less the enemy's; DPs: disorder points"
            .into(),
        source_note(&tables.charts.source),
    ];
    table
}

fn result_name(result: ChargeResult) -> &'static str {
    match result {
        ChargeResult::Victory => "victory",
        ChargeResult::Success => "success",
        ChargeResult::Inconclusive => "inconclusive",
        ChargeResult::SetBack => "set back",
        ChargeResult::Defeat => "defeat",
        ChargeResult::Rout => "rout",
    }
}

/// The charge modifiers (C&M 7.15), outnumbering included.
pub fn charge_modifiers(tables: &Tables) -> AidTable {
    let c = &tables.charts.charge;
    let mut rows: Vec<(String, String)> = vec![
        ("advantage of ground".into(), signed(c.advantage_of_ground)),
        ("behind a fortification".into(), signed(c.fortification)),
        ("supported".into(), signed(c.supported)),
        (
            "mounted charging unformed foot".into(),
            signed(c.mounted_charging_unformed_foot),
        ),
        ("per disorder point".into(), signed(c.per_dp)),
        ("per casualty".into(), signed(c.per_casualty)),
        ("shaken".into(), signed(c.shaken)),
        (
            "CPs a leader allocates to inspire".into(),
            c.inspire_cps.to_string(),
        ),
    ];
    rows.extend(c.outnumbered.iter().map(|t| {
        (
            format!("outnumbered {}:{} or more", t.at_least.0, t.at_least.1),
            signed(t.modifier),
        )
    }));
    factor_table(
        "Charge modifiers",
        "C&M 7.15",
        rows.iter().map(|(f, v)| (f.as_str(), v.clone())).collect(),
    )
}

/// The mêlée modifiers (C&M 7.20, 7.21, 7.26).
pub fn melee(tables: &Tables) -> AidTable {
    let m = &tables.charts.melee;
    factor_table(
        "Mêlée",
        "C&M 7.20, 7.21",
        vec![
            ("opponent armoured", signed(m.opponent_armoured)),
            ("foot facing mounted", signed(m.foot_facing_mounted)),
            (
                "elephants against heavy troops",
                signed(m.elephants_against_heavy),
            ),
            ("forward momentum", signed(m.momentum)),
            ("rear support", signed(m.rear_support)),
            ("advantage of ground", signed(m.advantage_of_ground)),
            ("command stand", signed(m.command_stand)),
            ("always misses above", m.surest_miss.to_string()),
            ("always hits on", m.surest_hit.to_string()),
            (
                "a losing elephant rampages on a D6 of (C&M 7.26)",
                format!("{} or less", m.rampage_up_to),
            ),
        ],
    )
}

fn move_dice(d: &MoveDice) -> String {
    format!("D6{} ({} to {} JT)", signed(d.add), d.min, d.max)
}

/// The charge moves (C&M 7.4, 7.6, 7.7) and the average die.
pub fn charge_moves(tables: &Tables) -> AidTable {
    let ch = &tables.charts;
    let m = &ch.charge_move;
    let grades: Vec<String> = ch
        .grades
        .iter()
        .map(|g| format!("{:?}: {:?}", g.grade, g.die))
        .collect();
    factor_table(
        "Charge moves",
        "C&M 7.4, 7.6, 7.7",
        vec![
            ("infantry and elephants", move_dice(&m.foot)),
            ("cavalry", move_dice(&m.mounted)),
            ("fatigue from a move of", format!("{} JT", m.fatigue_from)),
            (
                "... in difficult terrain",
                format!("{} JT", m.fatigue_from_difficult),
            ),
            ("unformed light troops", signed(m.unformed_light_bonus)),
            ("evader who shot", signed(m.shooting_evader)),
            (
                "mounted charge from at most",
                format!("{} JT", m.mounted_reach),
            ),
            ("infantry charge from", format!("{} JT", m.foot_reach)),
            (
                "average die faces",
                ch.average_die
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            ("die by grade", grades.join(", ")),
        ],
    )
}

/// The Charge Response Chart's figures and the evade test (C&M 7.10, 7.11, 7.13).
pub fn responses(tables: &Tables) -> AidTable {
    let (r, e) = (&tables.charts.responses, &tables.charts.evade);
    let mut table = factor_table(
        "Charge responses and evasion",
        "C&M 7.10, 7.11, 7.13",
        vec![
            (
                "armed rabble counter-charge on a D6 of",
                format!("{}+", r.rabble_counter_charge_from),
            ),
            (
                "turning about for a charge from within javelin range (C&M 7.13)",
                format!("{} DP", r.about_face_dps),
            ),
            ("javelin range", format!("{} JT", r.javelin_range)),
            (
                "evade test: evades from (C&M 7.11)",
                e.evades_from.to_string(),
            ),
            ("a shaken unit counts as DPs", e.shaken_dps.to_string()),
        ],
    );
    table.notes = vec!["evade test: die + MV - DPs + inspiring CPs".into()];
    table
}

/// The missile exchanges (spec B.2 §11, C&M 7.14).
pub fn missiles(tables: &Tables) -> AidTable {
    let m = &tables.charts.missile;
    factor_table(
        "Missiles",
        "spec B.2 §11, C&M 7.14",
        vec![
            (
                "short range",
                if m.short_range == 1 {
                    "1 JT".into()
                } else {
                    format!("1 to {} JT", m.short_range)
                },
            ),
            (
                "long range",
                format!("{} to {} JT", m.short_range + 1, m.long_range),
            ),
            ("target armoured", signed(m.armoured)),
            ("always misses above", m.surest_miss.to_string()),
        ],
    )
}

/// The troop types and their factors (C&M 7.3, 7.10, 7.15, 7.20).
pub fn troops(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Troop types",
        "C&M 7.3, 7.10, 7.15, 7.20",
        &[
            "type",
            "name",
            "category",
            "light",
            "heavy",
            "armoured",
            "response",
            "initiative",
            "attack",
            "defence",
            "short",
            "long",
            "move",
        ],
        &tables.troops.troops,
        |t| {
            vec![
                t.id.clone(),
                t.name.clone(),
                format!("{:?}", t.category).to_lowercase(),
                yes(t.light),
                yes(t.heavy),
                yes(t.armoured),
                format!("{:?}", t.response),
                format!("{:?}", t.initiative),
                t.attack.to_string(),
                t.defence.to_string(),
                t.short_range.to_string(),
                t.long_range.to_string(),
                t.normal_move.to_string(),
            ]
        },
    );
    table.notes = vec![
        "short, long: missile factors; move: hexes in a Move Phase".into(),
        source_note(&tables.troops.source),
    ];
    table
}

/// The formations (C&M 7.2, 7.15, 7.22; spec B.2 §2-3).
pub fn formations(tables: &Tables) -> AidTable {
    let f = &tables.formations;
    let mut table = table_of(
        "Formations",
        "C&M 7.15, spec B.2 §2",
        &[
            "formation",
            "formed",
            "may charge",
            "charge modifier",
            "second rank counts",
            "push forward",
            "foot only",
            "shape",
        ],
        &f.formations,
        |x| {
            vec![
                format!("{:?}", x.id).to_lowercase(),
                yes(x.formed),
                yes(x.may_charge),
                signed(x.charge_modifier),
                yes(x.second_rank_counts),
                x.push_forward.to_string(),
                yes(x.foot_only),
                match x.shape {
                    Shape::Ranks {
                        min_ranks,
                        max_ranks,
                        max_width,
                    } => format!("{min_ranks}-{max_ranks} ranks, at most {max_width} wide"),
                    Shape::Contiguous => "any adjacent stands".into(),
                },
            ]
        },
    );
    table.notes = vec![
        format!("a unit has {} to {} stands", f.min_stands, f.max_stands),
        source_note(&f.source),
    ];
    table
}

/// The terrain (spec B.2 §11, C&M 7.7, 7.10).
pub fn terrain(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Terrain",
        "C&M 7.7, 7.10",
        &[
            "terrain",
            "name",
            "passable",
            "difficult",
            "defile",
            "blocks sight",
        ],
        &tables.terrain.terrain,
        |t| {
            vec![
                t.id.clone(),
                t.name.clone(),
                yes(t.passable),
                yes(t.difficult),
                yes(t.defile),
                yes(t.blocks_sight),
            ]
        },
    );
    table.notes = vec![source_note(&tables.terrain.source)];
    table
}

/// Command (spec B.2 §5-§7, C&M 7.11, 7.33, 7.34).
pub fn command(tables: &Tables) -> AidTable {
    let c = &tables.charts.command;
    let mut table = factor_table(
        "Command",
        "spec B.2 §5, C&M 7.11, 7.34",
        vec![
            ("command radius", format!("{} JT", c.radius)),
            ("control test: halts from", c.halt_from.to_string()),
            ("control test: obeys from", c.obey_from.to_string()),
            ("impetuous types", c.impetuous.join(", ")),
            ("DPs shed at rest", c.rest_dps.to_string()),
            ("... more per CP spent", c.rest_per_cp.to_string()),
            (
                "inspiring within (C&M 7.11)",
                format!("{} JT", c.inspire_within),
            ),
            (
                "leaders meet within (C&M 7.33)",
                format!("{} JT", c.personal_within),
            ),
            ("winner of a personal combat: CPs", signed(c.winner_cps)),
            ("... and his units' MV", signed(c.winner_mv)),
            ("avenging comitatus to hit", signed(c.avenge_to_hit)),
        ],
    );
    table.notes = vec![source_note(&c.source)];
    table
}

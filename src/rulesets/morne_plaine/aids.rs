//! Morne Plaine's player aids (MP generalities, bombardment, movement, combat,
//! victory): the sequence of play as the ruleset runs it, and its Combat Results Table,
//! bombardment table, terrain effects, hexsides, unit values, charge and levels of
//! victory, each read from the parsed tables the rules use (`data::Tables`).

use bevy::prelude::World;

use super::MpPhase;
use super::data::{Kind, PerKind, Tables};
use crate::engine::view::{AidTable, PlayerAids};
use crate::rulesets::common_aids::{
    TurnLayout, die_table, factor_table, or_dash, signed, source_note, table_of, yes,
};

/// MP generalities: each side's bombardment, movement, combat and the automatic rally,
/// the first side's before the other's, then the victory count that ends the turn.
pub const TURN: TurnLayout<MpPhase> = TurnLayout {
    before: &[],
    each: &[
        MpPhase::Bombardment,
        MpPhase::Movement,
        MpPhase::Combat,
        MpPhase::Rally,
    ],
    after: &[MpPhase::Victory],
};

/// What is done in a phase, for the sequence of play.
fn what(phase: MpPhase) -> String {
    match phase {
        MpPhase::Bombardment => "artillery fires",
        MpPhase::Movement => "moves, cavalry may charge",
        MpPhase::Combat => "attacks adjacent enemies",
        MpPhase::Rally => "demoralised units rally (automatic)",
        MpPhase::Victory => "victory points counted (automatic)",
        MpPhase::GameOver => "",
    }
    .to_string()
}

/// The sequence of play, the step the game is at, and every table.
pub fn player_aids(tables: &Tables, world: &World) -> PlayerAids {
    PlayerAids {
        sequence: TURN.sides_sequence(world, what),
        current: TURN.current(world, super::turn(world).active),
        tables: vec![
            crt(tables),
            bombardment(tables),
            terrain(tables),
            hexsides(tables),
            units(tables),
            charge(tables),
            victory(tables),
        ],
    }
}

/// The Combat Results Table (MP combat: resolution): a row per modified die, 0 to 7.
pub fn crt(tables: &Tables) -> AidTable {
    let crt = &tables.crt;
    let mut table = die_table(
        "Combat Results Table",
        "MP combat: resolution",
        crt.columns.iter().cloned(),
        *super::data::DIE_ROWS.start(),
        &crt.cells,
    );
    table.notes = vec![
        "attacker/defender losses in CS; * a morale check; the modified die is clamped to 0-7"
            .into(),
    ];
    table
}

/// The bombardment table (MP bombardment): a row per die, a column per fire strength.
pub fn bombardment(tables: &Tables) -> AidTable {
    let b = &tables.bombardment;
    let mut table = die_table(
        "Bombardment table",
        "MP bombardment",
        (b.strength.min..=b.strength.max).map(|s| format!("strength {s}")),
        1,
        &b.cells,
    );
    table.notes =
        vec!["losses in CS; * a morale check; - no effect; strength clamped to the columns".into()];
    table
}

/// The four values of a per-kind figure, leaders, infantry, cavalry, artillery.
fn per_kind<T: Copy>(values: &PerKind<T>, cell: impl Fn(T) -> String) -> String {
    [Kind::Leader, Kind::Infantry, Kind::Cavalry, Kind::Artillery]
        .map(|k| cell(values.of(k)))
        .join("/")
}

/// The terrain effects (MP movement, MP combat: terrain effects).
pub fn terrain(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Terrain effects",
        "MP movement, MP combat",
        &[
            "terrain",
            "MP (L/I/C/A)",
            "defence (L/I/C/A)",
            "close",
            "open (charge)",
            "blocks sight",
            "no bombardment",
            "fort",
        ],
        &tables.terrain.terrain,
        |t| {
            vec![
                t.id.clone(),
                per_kind(&t.cost, or_dash),
                if t.defence == PerKind::default() {
                    String::new()
                } else {
                    per_kind(&t.defence, signed)
                },
                yes(t.close),
                yes(t.open),
                yes(t.blocks_los),
                yes(t.no_bombard),
                yes(t.fort),
            ]
        },
    );
    table.notes = vec![
        "L/I/C/A: leaders, infantry, cavalry, artillery; — impassable; close: cavalry counts half"
            .into(),
        source_note(&tables.terrain.source),
    ];
    table
}

/// The hexsides (MP movement, MP combat): crossing costs and the attacker's die.
pub fn hexsides(tables: &Tables) -> AidTable {
    let h = &tables.terrain.hexsides;
    let mut table = table_of(
        "Hexsides",
        "MP movement, MP combat",
        &["hexside", "extra MP", "attacker die"],
        [("stream", h.stream), ("ford", h.ford), ("bridge", h.bridge)],
        |(name, c)| vec![name.to_string(), c.cost.to_string(), signed(c.attack_die)],
    );
    table.rows.push(vec![
        "road".into(),
        format!("{} a hex", h.road),
        String::new(),
    ]);
    table
}

/// The counters' values (MP generalities).
pub fn units(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Unit values",
        "MP generalities",
        &["type", "kind", "CS", "MA", "MV", "BV", "range", "radius"],
        &tables.units.types,
        |u| {
            vec![
                u.id.clone(),
                format!("{:?}", u.kind).to_lowercase(),
                u.cs.to_string(),
                u.ma.to_string(),
                u.mv.to_string(),
                or_dash(u.bv),
                or_dash(u.range),
                or_dash(u.radius),
            ]
        },
    );
    table.notes = vec![
        "CS combat strength, MA movement allowance, MV morale value, BV bombardment value".into(),
        source_note(&tables.units.source),
    ];
    table
}

/// The charge (MP movement: charge, MP combat).
pub fn charge(tables: &Tables) -> AidTable {
    let c = &tables.charge;
    let mut table = factor_table(
        "Charge",
        "MP movement: charge",
        vec![
            (
                "who charges",
                c.kinds
                    .iter()
                    .map(|k| format!("{k:?}").to_lowercase())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            ("least hexes moved", c.min_hexes_moved.to_string()),
            ("strength multiplied by", c.strength_factor.to_string()),
            (
                "charged unit's check: CS difference per step",
                c.check_cs_step.to_string(),
            ),
        ],
    );
    table.notes = vec![source_note(&c.source)];
    table
}

/// The levels of victory (MP victory): the least VP difference for each.
pub fn victory(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Levels of victory",
        "MP victory",
        &["VP difference", "victory"],
        &tables.victory.levels,
        |l| vec![format!("{}+", l.difference), l.level.name().to_string()],
    );
    table.notes = vec![
        "a smaller difference is a draw".into(),
        source_note(&tables.victory.source),
    ];
    table
}

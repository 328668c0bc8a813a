//! Charles the Bold's player aids (CtB 1.4, 2.0, 6.0, 7.0, 8.1, 10.0, 13.0, 15.0,
//! 16.0): the round as the ruleset runs it, and its terrain, stand types, army lists,
//! fire, melee and morale factors, Order Test and command figures and pursuit dice, each
//! read from the parsed tables the rules use (`data::Tables`).

use bevy::prelude::World;

use super::CtbPhase;
use super::data::{Column, ImpactRemoval, PerClass, Tables, TerrainClass};
use crate::engine::view::{AidTable, PlayerAids};
use crate::rulesets::common_aids::{
    TurnLayout, factor_table, or_dash, signed, source_note, table_of, yes,
};

/// CtB 1.4: both sides choose a group and throw for the initiative, the winner's group
/// moves, fires and fights, again until every group has moved, then the round ends.
pub const ROUND: TurnLayout<CtbPhase> = TurnLayout {
    before: &[CtbPhase::Declare, CtbPhase::Activation, CtbPhase::RoundEnd],
    each: &[],
    after: &[],
};

/// What is done in a step, for the sequence of play.
fn what(phase: CtbPhase) -> String {
    match phase {
        CtbPhase::Declare => {
            "both sides declare a group and throw 2D6 plus its general's bonus for the initiative"
        }
        CtbPhase::Activation => {
            "the winner's group moves, fires and fights; back to the choice until every group has moved"
        }
        CtbPhase::RoundEnd => "movement markers removed, the next round begins",
        CtbPhase::GameOver => "",
    }
    .to_string()
}

/// The sequence of play, the step the game is at, and every table.
pub fn player_aids(tables: &Tables, world: &World) -> PlayerAids {
    PlayerAids {
        sequence: ROUND.shared_sequence(what),
        current: ROUND.current(world, crate::rulesets::common::turn(world).active),
        tables: vec![
            terrain(tables),
            hexsides(tables),
            types(tables),
            special_units(tables),
            armies(tables),
            fire(tables),
            melee(tables),
            morale(tables),
            orders(tables),
            pursuit(tables),
        ],
    }
}

fn per_class<T: Copy>(values: &PerClass<T>, cell: impl Fn(T) -> String) -> String {
    TerrainClass::ALL.map(|c| cell(values.of(c))).join("/")
}

/// The terrain of the Summary Sheet (CtB 3.0, 6.0, 10.3): costs per movement class.
pub fn terrain(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Terrain",
        "CtB 3.0, 6.0, 10.3",
        &[
            "terrain",
            "MP (CF/LF/M/LH/G)",
            "removes impact",
            "cover",
            "sight",
            "no charge by",
        ],
        &tables.terrain.terrain,
        |t| {
            vec![
                t.id.clone(),
                per_class(&t.cost, or_dash),
                t.removes_impact.map_or_else(String::new, impact_removal),
                yes(t.cover),
                format!("{:?}", t.sight),
                t.no_charge.join(" "),
            ]
        },
    );
    table.notes = vec![
        "CF close foot, LF light foot, M mounted, LH light horse, G guns; — impassable".into(),
        format!(
            "climbing a level: +{} MP (CF/LF/M/LH/G)",
            per_class(&tables.terrain.climb, |n| n.to_string())
        ),
        source_note(&tables.terrain.source),
    ];
    table
}

fn impact_removal(removes: ImpactRemoval) -> String {
    format!("{removes:?}").to_lowercase()
}

/// The hexsides of the Summary Sheet (CtB 3.0, 9.3, 10.3): streams, rivers, roads and
/// field defences.
pub fn hexsides(tables: &Tables) -> AidTable {
    let h = &tables.terrain.hexsides;
    let crossings: Vec<String> = h
        .river
        .crossing
        .iter()
        .map(|c| format!("{c:?}").to_lowercase())
        .collect();
    let columns = [
        "hexside",
        "MP (CF/LF/M/LH/G)",
        "removes impact",
        "cover",
        "crossing",
    ];
    let rows: Vec<Vec<String>> = vec![
        vec![
            "stream".into(),
            format!("+{}", h.stream.cost),
            impact_removal(h.stream.removes_impact),
            String::new(),
            String::new(),
        ],
        vec![
            "river".into(),
            "—".into(),
            String::new(),
            String::new(),
            format!("only at a {}", crossings.join(" or ")),
        ],
        vec![
            "road".into(),
            format!("{} a hex along it", h.road),
            String::new(),
            String::new(),
            String::new(),
        ],
        vec![
            "field defences".into(),
            per_class(&h.field_defence.cost, |c| {
                c.map_or_else(|| "—".into(), |n| format!("+{n}"))
            }),
            impact_removal(h.field_defence.removes_impact),
            yes(h.field_defence.cover),
            String::new(),
        ],
    ];
    let mut table = table_of("Hexsides", "CtB 3.0, 9.3, 10.3", &columns, rows, |row| row);
    table.notes = vec![
        "— may not cross".into(),
        source_note(&h.field_defence.source),
    ];
    table
}

/// The Special Units sheet (CtB 6.1, 6.2, 10.3): what longbows, Swiss pikes and
/// schiltrons do apart.
pub fn special_units(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Special units",
        "CtB 6.1, 6.2, 10.3",
        &[
            "unit",
            "double-rank fire",
            "rear rank dice",
            "double DF without impetus",
            "stakes",
            "overhead fire",
            "charges cavalry",
            "keeps impact",
            "all round unmoved",
        ],
        &tables.special.units,
        |u| {
            vec![
                u.id.clone(),
                yes(u.double_rank_fire),
                if u.rear_rank == 0 {
                    String::new()
                } else {
                    signed(u.rear_rank)
                },
                yes(u.double_df_needs_no_impetus),
                yes(u.stakes),
                yes(u.overhead),
                yes(u.charges_cavalry),
                u.keeps_impact.map_or_else(String::new, |n| n.to_string()),
                yes(u.all_round_unmoved),
            ]
        },
    );
    table.notes = vec![source_note(&tables.special.source)];
    table
}

/// The stand types (CtB 15.0) and what each may do.
pub fn types(tables: &Tables) -> AidTable {
    let mut table = table_of(
        "Stand types",
        "CtB 15.0",
        &[
            "type",
            "role",
            "mounted",
            "class",
            "heavy",
            "ZOC",
            "shoots",
            "evades",
            "defensive fire",
            "side/back MP",
            "pursues",
        ],
        &tables.types.types,
        |t| {
            vec![
                t.id.clone(),
                format!("{:?}", t.role).to_lowercase(),
                yes(t.mounted),
                format!("{:?}", t.terrain),
                yes(t.heavy),
                yes(t.zoc),
                yes(t.shoots),
                format!("{:?}", t.evade),
                format!("{:?}", t.df),
                format!("{}/{}", t.side, t.back),
                format!("{:?}", t.pursuit),
            ]
        },
    );
    table.notes = vec![source_note(&tables.types.source)];
    table
}

/// The army lists (CtB 16.0): every entry of every army.
pub fn armies(tables: &Tables) -> AidTable {
    let rows = tables
        .armies
        .armies
        .iter()
        .flat_map(|(army, entries)| entries.iter().map(move |e| (army, e)));
    let mut table = table_of(
        "Army lists",
        "CtB 16.0",
        &[
            "army",
            "stand",
            "class",
            "type",
            "impetuous",
            "MP",
            "SP",
            "impact",
            "fire",
            "BP",
        ],
        rows,
        |(army, e)| {
            let fire = e.fire.map_or_else(String::new, |f| {
                [Column::H2, Column::H3, Column::H4, Column::H6]
                    .into_iter()
                    .filter_map(|c| f.of(c).map(|m| format!("{c:?} {}", signed(m))))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            vec![
                army.clone(),
                e.id.clone(),
                format!("{:?}", e.class),
                e.kind.clone(),
                e.imp.map_or_else(String::new, |i| format!("{i:?}")),
                format!("{}/{}", e.mp.0, e.mp.1),
                e.sp.iter().map(u8::to_string).collect::<Vec<_>>().join("/"),
                e.impact.to_string(),
                fire,
                e.bp.to_string(),
            ]
        },
    );
    table.notes = vec![
        "MP: first move of a round / any later; SP per rank, front first; fire: dice added at each range column".into(),
        source_note(&tables.armies.source),
    ];
    table
}

/// Fire (CtB 6.0-6.3, 7.1): range columns, dice factors and caps.
pub fn fire(tables: &Tables) -> AidTable {
    let f = &tables.factors.fire;
    let mut rows: Vec<(&str, String)> = vec![
        ("moved before firing", signed(f.move_before)),
        ("moving after firing", signed(f.move_after)),
        ("rear rank", signed(f.rear_rank)),
        ("disordered", signed(f.disordered)),
        ("target in cover", signed(f.cover)),
        ("armour (against shot at HC)", signed(f.armour)),
        ("SP lost to one firing stand at most", f.cap.to_string()),
        ("artillery frontal fire cap", f.art_frontal_cap.to_string()),
    ];
    let bands: Vec<String> = f
        .ranges
        .iter()
        .map(|b| format!("{}-{} hexes: {:?}", b.from, b.to, b.column))
        .collect();
    rows.push(("range columns", bands.join(", ")));
    let mut table = factor_table("Fire", "CtB 6.0", rows);
    table.notes = vec![
        format!("armour counts against {}", f.armour_vs.join(", ")),
        "dice of the pool: SP plus the army list's column for the range; hits on 6".into(),
    ];
    table
}

/// Melee (CtB 10.0-11.3): dice factors and caps.
pub fn melee(tables: &Tables) -> AidTable {
    let m = &tables.factors.melee;
    factor_table(
        "Melee",
        "CtB 10.0, 11.0",
        vec![
            ("least dice", m.min_dice.to_string()),
            ("disordered", signed(m.disordered)),
            ("uphill (CtB 10.4.3)", signed(m.uphill)),
            ("flank or rear (CtB 10.5)", signed(m.flank)),
            ("HC in flank or rear", signed(m.hc_flank)),
            ("support (CtB 10.7)", format!("{:?}", m.support)),
            ("impact after an SP loss", m.impact_after_loss.to_string()),
            ("loser loses at most", m.loser_cap.to_string()),
            (
                "... with a morale loss of at least",
                m.loser_needs.to_string(),
            ),
            ("winner loses at most", m.winner_cap.to_string()),
            ("ongoing melee cap (CtB 11.3)", m.ongoing_cap.to_string()),
            ("HC flank attack cap", m.hc_flank_cap.to_string()),
        ],
    )
}

/// The Morale Test (CtB 7.0, 7.3).
pub fn morale(tables: &Tables) -> AidTable {
    let m = &tables.factors.morale;
    let mut table = factor_table(
        "Morale Test",
        "CtB 7.0",
        vec![
            ("adjusted morale at least", m.min_adjusted.to_string()),
            ("general attached (CtB 2.2)", signed(m.general)),
            ("disordered (CtB 7.3)", signed(m.disordered)),
            ("from this morale fails only on a 6", m.high.to_string()),
            ("... and then loses", m.high_loss.to_string()),
        ],
    );
    table.notes = vec![source_note(&tables.factors.source)];
    table
}

/// The Order Test and command (CtB 2.0, 2.2, 8.1, 1.4).
pub fn orders(tables: &Tables) -> AidTable {
    let o = &tables.orders;
    let mut table = factor_table(
        "Order Test and command",
        "CtB 8.1, 2.0",
        vec![
            (
                "Order Test, class A: 1D6 at least",
                o.order_test.a.to_string(),
            ),
            (
                "Order Test, class B: 1D6 at least",
                o.order_test.b.to_string(),
            ),
            (
                "Order Test, class C: 1D6 at least",
                o.order_test.c.to_string(),
            ),
            (
                "a group's one Order Test reads its stands' class (CtB 3.4)",
                format!("{:?}", o.order_test.group_class).to_lowercase(),
            ),
            ("general with the stand", signed(o.order_test.general)),
            ("out of command range", signed(o.order_test.out_of_range)),
            ("command range (hexes)", o.command_range.trained.to_string()),
            (
                "poorly trained army's range",
                o.command_range.poorly_trained.to_string(),
            ),
            (
                "replacement's range (CtB 2.2)",
                o.command_range.replacement.to_string(),
            ),
            (
                "initiative dice (CtB 1.4)",
                format!("{}D6", o.initiative.dice),
            ),
            (
                "replacement's initiative (CtB 2.2)",
                signed(o.initiative.replacement_bonus),
            ),
            (
                "initiative ties",
                format!("{:?}", o.initiative.ties).to_lowercase(),
            ),
            (
                "a general's move (CtB 2.1)",
                format!("{} hexes", o.general_move),
            ),
            (
                "impetuous zone, poorly trained (CtB 9.1)",
                format!("{} hexes", o.impetuous.poor_zone),
            ),
            (
                "impetuous zone, trained (CtB 9.2)",
                format!("{} hexes", o.impetuous.steady_zone),
            ),
        ],
    );
    table.notes = vec![source_note(&o.source)];
    table
}

/// The pursuit dice (CtB 13.0): hexes pursued for each face.
pub fn pursuit(tables: &Tables) -> AidTable {
    let p = &tables.orders.pursuit;
    let rows = p
        .cavalry
        .iter()
        .map(|b| ("cavalry", b))
        .chain(p.foot.iter().map(|b| ("foot", b)));
    let mut table = table_of(
        "Pursuit",
        "CtB 13.0",
        &["pursuer", "1D6", "hexes"],
        rows,
        |(who, b)| {
            vec![
                who.to_string(),
                if b.faces.0 == b.faces.1 {
                    b.faces.0.to_string()
                } else {
                    format!("{}-{}", b.faces.0, b.faces.1)
                },
                b.hexes.to_string(),
            ]
        },
    );
    table.notes = vec!["any other face: no pursuit".into()];
    table
}

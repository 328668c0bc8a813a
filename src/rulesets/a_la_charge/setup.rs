//! Set-up and scenario special rules of A la Charge: the scenario checks of unit
//! types, terrain and stacking at set-up (AlC 4, 7), the secret ambush placement, the
//! Petcheneg treason roll and the camp pillage of Kalavryai 1078, and reinforcements'
//! entry.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use super::AlcPhase;
use crate::engine::command::{Refusal, UnitRef};
use crate::engine::error::LocatedError;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::scenario::LoadedScenario;

use super::scenario::{AlcScenario, AlcSpecialRule as SpecialRule};
use crate::engine::units::{Hidden, Placement, SideId, UnitId};

use super::data::{Kind, Tables};
use super::*;

/// Options this ruleset knows.
pub const OPTIONS: &[&str] = &["hills_block_fire"];

/// Kalavryai special rule 2.
#[derive(Clone, Debug)]
pub struct Defection {
    pub unit: UnitId,
    pub roll_side: SideId,
    pub min_roll: Vec<(u32, u8)>,
    pub done: bool,
}

/// Kalavryai special rule 3.
#[derive(Clone, Debug)]
pub struct Pillage {
    pub by_side: SideId,
    pub columns: Vec<i32>,
    pub penalty: i32,
}

/// Reads AlC's fields of a scenario and checks the parts that depend on its tables and
/// rules.
pub fn read_scenario(
    tables: &Tables,
    scenario: &LoadedScenario,
) -> Result<AlcScenario, LocatedError> {
    let rules: AlcScenario = scenario.read_fields()?;
    crate::rulesets::common::require_time_limit(scenario, "A la Charge", "AlC 13")?;
    crate::rulesets::common::refuse_field_defences(
        scenario,
        "A la Charge",
        "its terrain effects chart has none (AlC TEC); only rivers and bridges on hexsides",
    )?;
    let file = &scenario.file;
    let known_types = || {
        tables
            .units
            .types
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for u in &file.units {
        if tables.unit_type(&u.unit_type).is_none() {
            return Err(scenario.field_error(
                "type",
                Some(&u.unit_type),
                0,
                format!(
                    "unit `{}` has an unknown unit type `{}` (A la Charge knows: {})",
                    u.id,
                    u.unit_type,
                    known_types()
                ),
            ));
        }
    }
    for u in &file.units {
        if u.reduced
            && tables
                .unit_type(&u.unit_type)
                .is_some_and(|(_, t)| t.reduced.is_none())
        {
            return Err(scenario.unit_error(
                &u.id,
                Some("reduced"),
                format!(
                    "unit `{}` of type `{}` has one step and no reduced side (AlC 12.6)",
                    u.id, u.unit_type
                ),
            ));
        }
    }
    let known_terrain = || {
        tables
            .terrain
            .terrain
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for name in std::iter::once(&file.map.default_terrain).chain(file.map.terrain.keys()) {
        if tables.terrain_index(name).is_none() {
            return Err(scenario.error_at(
                &format!("\"{name}\""),
                0,
                format!(
                    "unknown terrain `{name}` (A la Charge knows: {})",
                    known_terrain()
                ),
            ));
        }
    }
    for o in &file.options {
        if !OPTIONS.contains(&o.as_str()) {
            return Err(scenario.error_at(
                &format!("\"{o}\""),
                0,
                format!(
                    "unknown option `{o}` (A la Charge knows: {})",
                    OPTIONS.join(", ")
                ),
            ));
        }
    }
    for (i, (side, own)) in file.sides.iter().zip(&rules.sides).enumerate() {
        if own.morale_level <= 0 {
            return Err(scenario.error_at(
                "morale_level",
                i,
                format!(
                    "side `{}` needs an army morale level above 0 (AlC 13)",
                    side.id
                ),
            ));
        }
        if let Some(c) = &side.commander {
            let spec = file
                .units
                .iter()
                .find(|u| &u.id == c)
                .expect("checked by the engine");
            if tables.unit_type(&spec.unit_type).map(|(_, t)| t.kind) != Some(Kind::Leader) {
                return Err(scenario.unit_error(
                    c,
                    Some("type"),
                    format!(
                        "commander `{c}` of side `{}` is not a leader (AlC 8)",
                        side.id
                    ),
                ));
            }
            if spec.side != side.id {
                return Err(scenario.unit_error(
                    c,
                    Some("side"),
                    format!(
                        "commander `{c}` of side `{}` belongs to side `{}`",
                        side.id, spec.side
                    ),
                ));
            }
        }
    }
    // Stacking (AlC 7): one combat unit a hex; leaders only with friendly units.
    let kind =
        |u: &crate::engine::scenario::UnitSpec| tables.unit_type(&u.unit_type).map(|(_, t)| t.kind);
    for (i, u) in file.units.iter().enumerate() {
        let Some(h) = u.hex else { continue };
        for other in &file.units[..i] {
            if other.hex != Some(h) {
                continue;
            }
            let nth = file.units[..i].iter().filter(|o| o.hex == Some(h)).count();
            if other.side != u.side {
                return Err(scenario.field_error(
                    "hex",
                    Some(&h.to_string()),
                    nth,
                    format!(
                        "`{}` and `{}` of opposing sides are both placed on {h} (AlC 7)",
                        other.id, u.id
                    ),
                ));
            }
            if kind(other) != Some(Kind::Leader) && kind(u) != Some(Kind::Leader) {
                return Err(scenario.field_error(
                    "hex",
                    Some(&h.to_string()),
                    nth,
                    format!(
                        "two combat units on {h}: `{}` and `{}`; only one combat unit may occupy a hex (AlC 7)",
                        other.id, u.id
                    ),
                ));
            }
        }
    }
    let hidden_sides: Vec<&str> = rules
        .special_rules
        .iter()
        .filter_map(|r| match r {
            SpecialRule::HiddenPlacement { unit, .. } => file
                .units
                .iter()
                .find(|u| &u.id == unit)
                .map(|u| u.side.as_str()),
            _ => None,
        })
        .collect();
    if hidden_sides.windows(2).any(|w| w[0] != w[1]) {
        return Err(scenario.error_at(
            "HiddenPlacement",
            1,
            "units placed in secret must all belong to one side: one set-up phase is played by their owner".to_string(),
        ));
    }
    for r in &rules.special_rules {
        match r {
            SpecialRule::HiddenPlacement {
                unit,
                zone,
                active_from_turn,
                ..
            } => {
                crate::rulesets::common::check_hidden_placement(scenario, unit, zone)?;
                if *active_from_turn > file.turns {
                    return Err(scenario.error_at(
                        "active_from_turn",
                        0,
                        format!(
                            "`{unit}` would never act: turn {active_from_turn} is after the last"
                        ),
                    ));
                }
            }
            SpecialRule::Defection { min_roll, unit, .. } => {
                if min_roll.is_empty() || min_roll.iter().any(|(_, r)| !(1..=6).contains(r)) {
                    return Err(scenario.error_at(
                        "min_roll",
                        0,
                        format!("the defection of `{unit}` needs rolls between 1 and 6"),
                    ));
                }
            }
            SpecialRule::CampPillage { columns, .. } => {
                if columns.iter().any(|c| !(1..=file.map.columns).contains(c)) {
                    return Err(scenario.error_at(
                        "columns",
                        1,
                        "a pillage column is off the map".to_string(),
                    ));
                }
            }
        }
    }
    Ok(rules)
}

/// Sets up the special rules' state.
pub fn populate(world: &mut World, scenario: &LoadedScenario, state: &mut AlcState) {
    let unit_id = |id: &str| UnitId(scenario.unit_index(id).expect("validated") as u16);
    let side_id = |id: &str| SideId(scenario.side_index(id).expect("validated"));
    for r in &scenario.rules::<AlcScenario>().special_rules {
        match r {
            SpecialRule::HiddenPlacement {
                unit,
                zone,
                active_from_turn,
                ..
            } => {
                let id = unit_id(unit);
                state.hidden_zones.push((id, *zone));
                let e = entity(world, id);
                world.entity_mut(e).insert(Hidden);
                flags_mut(world, id).active_from_turn = *active_from_turn;
            }
            SpecialRule::Defection {
                unit,
                roll_side,
                min_roll,
                ..
            } => {
                state.defection = Some(Defection {
                    unit: unit_id(unit),
                    roll_side: side_id(roll_side),
                    min_roll: min_roll.clone(),
                    done: false,
                });
            }
            SpecialRule::CampPillage {
                by_side,
                columns,
                penalty,
                ..
            } => {
                state.pillage = Some(Pillage {
                    by_side: side_id(by_side),
                    columns: columns.clone(),
                    penalty: *penalty,
                });
            }
        }
    }
}

/// `end` in the set-up phase needs every secret unit placed.
pub fn check_end_phase(world: &World) -> Result<(), Refusal> {
    if super::phase(world) != AlcPhase::SecretSetup {
        return Ok(());
    }
    let zones = &world.resource::<AlcState>().hidden_zones;
    if let Some((u, _)) = zones.iter().find(|(u, _)| hex_of(world, *u).is_none()) {
        return Err(Refusal::new(
            "AlC Kalavryai special rule 1",
            format!(
                "{} must be placed in secret before the game starts (`place {} HEX`)",
                name(world, *u),
                world
                    .get_cached::<crate::engine::units::UnitName>(entity(world, *u))
                    .map(|n| n.key.clone())
                    .unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

pub fn check_place(world: &World, unit_ref: &UnitRef, hex: HexCoord) -> Result<UnitId, Refusal> {
    if super::phase(world) != AlcPhase::SecretSetup {
        return Err(Refusal::new(
            "AlC 4",
            "units are placed in secret only before the first turn",
        ));
    }
    let id = resolve(world, unit_ref)?;
    let zone = world
        .resource::<AlcState>()
        .hidden_zones
        .iter()
        .find(|(u, _)| *u == id)
        .map(|(_, z)| *z)
        .ok_or_else(|| {
            Refusal::new(
                "AlC 4",
                format!("{} is not set up in secret", name(world, id)),
            )
        })?;
    if side_of(world, id) != turn(world).active {
        return Err(Refusal::new(
            "AlC 4",
            format!("{} is placed by its owner", name(world, id)),
        ));
    }
    if !zone.contains(hex) {
        return Err(Refusal::new(
            "AlC Kalavryai special rule 1",
            format!(
                "{hex} is outside the ambush zone (columns {:02}-{:02}, rows {:02}-{:02})",
                zone.min_col, zone.max_col, zone.min_row, zone.max_row
            ),
        ));
    }
    if combat_unit_at(world, hex).is_some_and(|u| u != id)
        || units_at(world, hex)
            .iter()
            .any(|u| side_of(world, *u) != side_of(world, id))
    {
        return Err(Refusal::new("AlC 7", format!("{hex} is already occupied")));
    }
    Ok(id)
}

pub fn execute_place(world: &mut World, id: UnitId, hex: HexCoord) {
    set_placement(world, id, Placement::OnMap(hex));
    let who = side_name(world, side_of(world, id));
    // The log is read by both players: it does not say where.
    log(
        world,
        EventKind::Placed,
        "AlC Kalavryai special rule 1",
        |_| format!("{who} notes the ambush's hex in secret"),
    );
}

/// Reveals a hidden unit: it is now seen, exerts its zone and may be attacked.
pub fn reveal(world: &mut World, id: UnitId, why: &str) {
    let e = entity(world, id);
    world.entity_mut(e).remove::<Hidden>();
    zones_stale(world);
    refresh_zones(world);
    let who = name(world, id);
    log(
        world,
        EventKind::Revealed,
        "AlC Kalavryai special rule 1",
        |_| format!("Ambush! {who} is revealed: {why}"),
    );
}

/// Kalavryai rule 2 on entering a movement phase: the treason roll of the side to move.
pub(crate) fn defection_roll_on_movement(world: &mut World) {
    let side = turn(world).active;
    defection_roll(world, side);
}

/// Kalavryai rule 2: at the start of the rolling side's movement phase, the treason roll.
pub fn defection_roll(world: &mut World, side: SideId) {
    let Some(d) = world.resource::<AlcState>().defection.clone() else {
        return;
    };
    if d.done || d.roll_side != side || placement(world, d.unit) == Placement::Eliminated {
        return;
    }
    let turn_no = turn(world).turn;
    let Some(&(_, need)) = d.min_roll.iter().rev().find(|(t, _)| *t <= turn_no) else {
        return;
    };
    let who = name(world, d.unit);
    let die = roll(world, "AlC Kalavryai special rule 2", |_| {
        format!("the treason of {who} (needs {need}+)")
    });
    if (die as u32) < need as u32 {
        log(
            world,
            EventKind::Special,
            "AlC Kalavryai special rule 2",
            |_| format!("{who} stay loyal to the rebels for now"),
        );
        return;
    }
    crate::rulesets::common::set_side(world, d.unit, side);
    if let Some(def) = world.resource_mut::<AlcState>().defection.as_mut() {
        def.done = true;
    }
    let mp = unit(world, d.unit).mp;
    {
        let mut f = flags_mut(world, d.unit);
        f.mp_left = mp;
        f.moved = false;
        f.hexes_moved = 0;
        f.entered_open = false;
    }
    // `set_side` marked the zones stale.
    refresh_zones(world);
    if let Some(at) = hex_of(world, d.unit) {
        overrun_leaders(world, at, side);
    }
    let to = side_name(world, side);
    log(
        world,
        EventKind::SideChanged,
        "AlC Kalavryai special rule 2",
        |_| format!("Treason! {who} go over to the {to} for the rest of the game"),
    );
}

/// Kalavryai rule 3: a unit of the pillaging side entering one of the camp columns.
pub fn check_pillage(world: &mut World, id: UnitId, at: HexCoord) {
    let state = world.resource::<AlcState>();
    let Some(p) = &state.pillage else { return };
    if state.pillaged || side_of(world, id) != p.by_side || !p.columns.contains(&at.col) {
        return;
    }
    let penalty = p.penalty;
    let victims = side_name(world, p.by_side.other());
    world.resource_mut::<AlcState>().pillaged = true;
    let who = name(world, id);
    log(
        world,
        EventKind::Special,
        "AlC Kalavryai special rule 3",
        |_| {
            format!(
                "{who} pillages the camp: every unit of the {victims} loses {penalty} from its strength and morale for the rest of the game"
            )
        },
    );
}

/// What entering a hex by retreat or advance sets off: the camp pillage, and an
/// ambush next to the unit revealed (Kalavryai rules 1 and 3).
pub fn entered_hex(world: &mut World, id: UnitId, at: HexCoord) {
    check_pillage(world, id, at);
    let side = side_of(world, id);
    for n in at.neighbors() {
        if let Some(u) = combat_unit_at(world, n)
            && side_of(world, u) != side
            && is_hidden(world, u)
        {
            reveal(world, u, "an enemy unit comes next to it");
        }
    }
}

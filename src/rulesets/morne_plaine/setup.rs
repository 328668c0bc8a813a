//! Morne Plaine's reading of a scenario (every check that depends on its tables and
//! rules, each with its line and column), and filling a world with its components,
//! objectives and first phase.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::error::LocatedError;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::scenario::LoadedScenario;
use crate::engine::units::{Leader, SideId, UnitId, Units};
use crate::engine::zoc::ExertsZoc;

use super::data::{Kind, Tables};
use super::scenario::{Colour, MpScenario, MpSpecialRule};
use super::*;

/// Options this ruleset knows: sodden ground (Waterloo, designer's after the spec): on
/// turns 1 to 3, bombardment strength -1 and cavalry MA -1.
pub const OPTIONS: &[&str] = &["sodden_ground"];

/// The turns sodden ground lasts (designer's).
pub const SODDEN_TURNS: u32 = 3;

/// Reads MP's fields of a scenario and checks the parts that depend on its tables and
/// rules.
pub fn read_scenario(
    tables: &Tables,
    scenario: &LoadedScenario,
) -> Result<MpScenario, LocatedError> {
    let rules: MpScenario = scenario.read_fields()?;
    let file = &scenario.file;
    if file.at_time_limit.is_some() {
        return Err(scenario.field_error(
            "at_time_limit",
            None,
            0,
            "Morne Plaine decides by the victory points of objective hexes (MP victory): remove `at_time_limit`",
        ));
    }
    for o in &file.options {
        if !OPTIONS.contains(&o.as_str()) {
            return Err(scenario.error_at(
                &format!("\"{o}\""),
                0,
                format!(
                    "unknown option `{o}` (Morne Plaine knows: {})",
                    OPTIONS.join(", ")
                ),
            ));
        }
    }
    let mut colours = Vec::new();
    for (i, (side, own)) in file.sides.iter().zip(&rules.sides).enumerate() {
        let Some(colour) = own.colour else {
            return Err(scenario.field_error(
                "id",
                Some(&side.id),
                0,
                format!(
                    "side `{}` needs a `colour`, Orange or Blue: it gives the edge its units retreat to (MP combat: retreat)",
                    side.id
                ),
            ));
        };
        if colours.contains(&colour) {
            return Err(scenario.field_error(
                "colour",
                None,
                i,
                format!(
                    "both sides are {}: one side is orange, the other blue (MP generalities)",
                    colour.name()
                ),
            ));
        }
        colours.push(colour);
    }
    crate::rulesets::common::refuse_field_defences(
        scenario,
        "Morne Plaine",
        "its fortifications are hexes (the terrain `fort`, MP terrain chart)",
    )?;
    let known_terrain = tables.terrain_names().join(", ");
    for name in std::iter::once(&file.map.default_terrain).chain(file.map.terrain.keys()) {
        if !tables.terrain_names().contains(name) {
            return Err(scenario.error_at(
                &format!("\"{name}\""),
                0,
                format!("unknown terrain `{name}` (Morne Plaine knows: {known_terrain})"),
            ));
        }
    }
    for h in &file.map.hexsides {
        let f = &h.features;
        let water = f.contains(&HexsideFeature::River) || f.contains(&HexsideFeature::Stream);
        for crossing in [HexsideFeature::Ford, HexsideFeature::Bridge] {
            if f.contains(&crossing) && !water {
                let (a, b) = h.between;
                let what = format!("{crossing:?}").to_lowercase();
                return Err(scenario.error_at(
                    &format!("(\"{a}\", \"{b}\")"),
                    0,
                    format!(
                        "the hexside {a}-{b} has a {what} but no river or stream to cross (MP movement)"
                    ),
                ));
            }
        }
    }
    let board = crate::engine::game::build_board(scenario, &tables.terrain_names());
    let known_types = || {
        tables
            .units
            .types
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut taken: Vec<(HexCoord, &str)> = Vec::new();
    for (u, own) in file.units.iter().zip(&rules.units) {
        let Some(t) = tables.unit_type(&u.unit_type) else {
            return Err(scenario.field_error(
                "type",
                Some(&u.unit_type),
                0,
                format!(
                    "unit `{}` has an unknown unit type `{}` (Morne Plaine knows: {})",
                    u.id,
                    u.unit_type,
                    known_types()
                ),
            ));
        };
        let fault = if u.reduced {
            Some(("reduced", "Morne Plaine counters lose CS points, not steps (MP generalities): remove `reduced`".to_string()))
        } else if own.cs == Some(0) {
            Some((
                "cs",
                "a combat strength of 0, and it must be at least 1 (MP generalities)".to_string(),
            ))
        } else if let Some(m) = own.mv.filter(|m| !(1..=9).contains(m)) {
            Some((
                "mv",
                format!(
                    "a morale value of {m}, and it must be from 1 to 9 (MP combat: morale check)"
                ),
            ))
        } else if own.bv.is_some() && t.kind != Kind::Artillery {
            Some((
                "bv",
                format!(
                    "a bombardment value, but only artillery has one (MP bombardment), and `{}` is {:?}",
                    u.unit_type, t.kind
                ),
            ))
        } else if own.radius.is_some() && t.kind != Kind::Leader {
            Some((
                "radius",
                format!(
                    "a command radius, but only leaders have one (MP movement: command), and `{}` is {:?}",
                    u.unit_type, t.kind
                ),
            ))
        } else {
            None
        };
        if let Some((field, what)) = fault {
            return Err(scenario.unit_error(
                &u.id,
                Some(field),
                format!("unit `{}`: {what}", u.id),
            ));
        }
        if let Some(l) = &own.leader {
            let leader = file.units.iter().find(|v| &v.id == l);
            let fault = match leader {
                None => Some(format!("names an unknown leader `{l}`")),
                Some(v) if v.id == u.id => Some("names itself as its leader".to_string()),
                Some(v) if v.side != u.side => {
                    Some(format!("names `{l}`, a leader of the other side"))
                }
                Some(v) if tables.unit_type(&v.unit_type).map(|t| t.kind) != Some(Kind::Leader) => {
                    Some(format!(
                        "names `{l}` as its leader, but `{l}` is not a leader"
                    ))
                }
                _ => None,
            };
            if let Some(what) = fault {
                return Err(scenario.unit_error(
                    &u.id,
                    Some("leader"),
                    format!("unit `{}` {what} (MP movement: command)", u.id),
                ));
            }
        }
        if let Some(h) = u.hex {
            if let Some((_, other)) = taken.iter().find(|(t, _)| *t == h) {
                return Err(scenario.unit_error(
                    &u.id,
                    Some("hex"),
                    format!(
                        "unit `{}` is placed in {h}, where `{other}` already stands: one unit a hex, leaders included (MP generalities)",
                        u.id
                    ),
                ));
            }
            taken.push((h, &u.id));
            if board.contains(h)
                && super::movement::terrain_at(&board, tables, h)
                    .cost
                    .of(t.kind)
                    .is_none()
            {
                return Err(scenario.unit_error(
                    &u.id,
                    Some("hex"),
                    format!(
                        "unit `{}` is placed in {h} ({}), impassable to {:?} (MP movement)",
                        u.id,
                        board.terrain_name(h),
                        t.kind
                    ),
                ));
            }
        }
    }
    // Leaders commanding leaders: no cycle (a unit's chain of command ends).
    for (start, own) in file.units.iter().zip(&rules.units) {
        let mut seen = vec![start.id.as_str()];
        let mut next = own.leader.as_deref();
        while let Some(l) = next {
            if seen.contains(&l) {
                return Err(scenario.unit_error(
                    &start.id,
                    Some("leader"),
                    format!(
                        "unit `{}`'s chain of command makes a circle: {} (MP movement: command)",
                        start.id,
                        seen.join(" → ") + " → " + l
                    ),
                ));
            }
            seen.push(l);
            next = scenario
                .unit_index(l)
                .and_then(|i| rules.units[i].leader.as_deref());
        }
    }
    for r in &file.reinforcements {
        let Some(i) = scenario.unit_index(&r.unit) else {
            continue;
        };
        let kind = tables.unit_type(&file.units[i].unit_type).map(|t| t.kind);
        for e in &r.entry {
            if board.contains(*e)
                && kind.is_some_and(|k| {
                    super::movement::terrain_at(&board, tables, *e)
                        .cost
                        .of(k)
                        .is_none()
                })
            {
                return Err(scenario.error_at(
                    &format!("\"{e}\""),
                    0,
                    format!(
                        "reinforcement `{}` enters by {e} ({}), impassable to it (MP movement)",
                        r.unit,
                        board.terrain_name(*e)
                    ),
                ));
            }
        }
    }
    let mut objectives: Vec<HexCoord> = Vec::new();
    let mut clocks = 0;
    for r in &rules.special_rules {
        match r {
            MpSpecialRule::Objective {
                hex,
                name,
                vp,
                held_by,
                ..
            } => {
                let fault = if !board.contains(*hex) {
                    Some((
                        "hex",
                        format!("objective `{name}` is at {hex}, off the map"),
                    ))
                } else if objectives.contains(hex) {
                    Some(("hex", format!("a second objective, `{name}`, in {hex}")))
                } else if *vp == 0 {
                    Some((
                        "vp",
                        format!(
                            "objective `{name}` is worth 0 VP: an objective is worth at least 1"
                        ),
                    ))
                } else {
                    None
                };
                let occupant = file.units.iter().find(|u| u.hex == Some(*hex));
                let fault = fault.or_else(|| match (occupant, held_by) {
                    (Some(u), Some(s)) if &u.side != s => Some((
                        "held_by",
                        format!(
                            "objective `{name}` is held by `{s}` but `{}` of `{}` stands in it at the start",
                            u.id, u.side
                        ),
                    )),
                    _ => None,
                });
                if let Some((field, what)) = fault {
                    // Located in this objective's own entry (its name may also be a
                    // unit's or a comment's words earlier in the file).
                    return Err(scenario.entry_error(
                        "Objective",
                        objectives.len(),
                        field,
                        format!("{what} (MP victory)"),
                    ));
                }
                objectives.push(*hex);
            }
            MpSpecialRule::Clock { first_hour, .. } => {
                clocks += 1;
                if clocks > 1 {
                    return Err(scenario.error_at(
                        "Clock(",
                        clocks - 1,
                        "a second `Clock`: a scenario has one, the hour of its turn 1 (MP generalities)",
                    ));
                }
                if *first_hour > 23 {
                    return Err(scenario.entry_error(
                        "Clock",
                        0,
                        "first_hour",
                        format!(
                            "the clock's `first_hour` is {first_hour}: the hour of turn 1 is from 0 to 23 (MP generalities)"
                        ),
                    ));
                }
            }
        }
    }
    if objectives.is_empty() {
        return Err(scenario.field_error(
            "special_rules",
            None,
            0,
            "a Morne Plaine scenario needs at least one `Objective` hex: victory is counted by them (MP victory)",
        ));
    }
    Ok(rules)
}

/// Fills the world with MP's components and state for a scenario, and enters turn 1.
pub fn populate(world: &mut World, tables: &Tables, scenario: &LoadedScenario) {
    let file = &scenario.file;
    let own = scenario.rules::<MpScenario>();
    let mut state = MpState::default();
    for (i, s) in own.sides.iter().enumerate() {
        state.colours[i] = s
            .colour
            .unwrap_or(if i == 0 { Colour::Orange } else { Colour::Blue });
        state.commanders[i] = file.sides[i]
            .commander
            .as_ref()
            .and_then(|c| scenario.unit_index(c))
            .map(|u| UnitId(u as u16));
    }
    let ids: Vec<UnitId> = world.res::<Units>().ids().collect();
    for id in ids {
        let spec = &file.units[id.0 as usize];
        let fields = &own.units[id.0 as usize];
        let t = tables
            .unit_type(&spec.unit_type)
            .expect("checked by read_scenario: every unit type exists");
        let cs = fields.cs.unwrap_or(t.cs);
        let mv = fields.mv.unwrap_or(t.mv);
        let arrival = file
            .reinforcements
            .iter()
            .find(|r| r.unit == spec.id)
            .map(|r| (r.turn, r.entry.clone()));
        if t.kind == Kind::Artillery {
            let side = side_of(world, id);
            state.artillery[side.0 as usize].push(id);
        }
        let e = entity(world, id);
        let mut ent = world.entity_mut(e);
        ent.insert((
            MpUnit {
                kind: t.kind,
                cs0: cs,
                mv0: mv,
                ma: t.ma,
                bv: fields.bv.or(t.bv).unwrap_or(0),
                range: t.range.unwrap_or(0),
                radius: fields.radius.or(t.radius).unwrap_or(0),
                leader: fields
                    .leader
                    .as_ref()
                    .and_then(|l| scenario.unit_index(l))
                    .map(|i| UnitId(i as u16)),
            },
            MpValues { cs, mv },
            MpFlags {
                arrival,
                ..default()
            },
            ExertsZoc,
        ));
        if t.kind == Kind::Leader {
            let commander = state.commanders.contains(&Some(id));
            ent.insert(Leader {
                rating: cs as i32,
                commander,
            });
        }
    }
    for r in &own.special_rules {
        match r {
            MpSpecialRule::Objective {
                hex,
                name,
                vp,
                held_by,
                ..
            } => state.objectives.push(Objective {
                hex: *hex,
                name: name.clone(),
                vp: *vp,
                holder: held_by
                    .as_ref()
                    .and_then(|s| scenario.side_index(s))
                    .map(SideId),
            }),
            MpSpecialRule::Clock { first_hour, .. } => state.first_hour = Some(*first_hour),
        }
    }
    let board = world.res::<Board>();
    state.forts = board
        .hexes()
        .filter(|h| super::movement::terrain_at(board, tables, *h).fort)
        .map(|h| (h, None))
        .collect();
    world.insert_resource(state);
    victory::update_control(world);
    refresh_zones(world);
    log(world, EventKind::TurnStarted, "MP generalities", |w| {
        format!("Turn 1{}", clock_text(w, 1))
    });
    let first = turn(world).first;
    begin_phase(world, MpPhase::Bombardment, first);
}

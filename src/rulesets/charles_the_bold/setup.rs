//! Reading a Charles the Bold scenario: its own fields checked against the tables and
//! against each other, every fault refused at its line and column with the section it
//! breaks; filling a world with its stands, generals and groups; and what the start
//! of each round brings (late arrivals, panic, flight: the scenarios' special rules).

use crate::engine::cached::CachedWorld;
use std::collections::{BTreeMap, BTreeSet};

use crate::engine::error::{LocatedError, find_field};
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::scenario::LoadedScenario;

use super::data::Tables;
use super::scenario::{CtbScenario, CtbSpecialRule, GENERAL};

/// A fault of the unit (or group) entry `id`: at its `field` when that is written on
/// the entry's line, else at the id. A unit's entry is the line giving `id: "<id>"`
/// and a `side:` (a group and its general may share an id), a group's the line giving
/// its id alone.
fn unit_fault(
    scenario: &LoadedScenario,
    id: &str,
    field: Option<&str>,
    message: String,
) -> LocatedError {
    let lines: Vec<(usize, &str)> = scenario
        .text
        .lines()
        .enumerate()
        .filter(|(_, l)| find_field(l, "id", Some(id), 0).is_some())
        .collect();
    let entry = lines
        .iter()
        .find(|(_, l)| l.contains("side:"))
        .or(lines.first());
    let Some(&(n, line)) = entry else {
        return scenario.error_at(&format!("\"{id}\""), 0, message);
    };
    let column = field
        .and_then(|f| find_field(line, f, None, 0))
        .or_else(|| find_field(line, "id", Some(id), 0))
        .map_or(1, |(_, c)| c);
    LocatedError::new(
        &scenario.display_path(),
        &scenario.text,
        n + 1,
        column,
        message,
    )
}

/// The options of Charles the Bold's scenarios: the what-ifs that turn a special rule
/// off.
pub const OPTIONS: &[&str] = &["no_panic", "no_flight"];

/// Reads and checks what a Charles the Bold scenario adds to the shared schema.
pub fn read_scenario(
    tables: &Tables,
    scenario: &LoadedScenario,
) -> Result<CtbScenario, LocatedError> {
    let rules: CtbScenario = scenario.read_fields()?;
    let file = &scenario.file;
    crate::rulesets::common::require_time_limit(scenario, "Charles the Bold", "CtB 14.0")?;
    for o in &file.options {
        if !OPTIONS.contains(&o.as_str()) {
            return Err(scenario.error_at(
                &format!("\"{o}\""),
                0,
                format!(
                    "unknown option `{o}` (Charles the Bold knows: {})",
                    OPTIONS.join(", ")
                ),
            ));
        }
    }
    // The map's terrain is terrain.ron's.
    let map = &file.map;
    for name in map.terrain.keys().chain([&map.default_terrain]) {
        if tables.terrain_type(name).is_none() {
            return Err(scenario.error_at(
                &format!("\"{name}\""),
                0,
                format!(
                    "unknown terrain `{name}` (terrain.ron has: {})",
                    tables.terrain_names().join(", ")
                ),
            ));
        }
    }
    // Each side: its army list, its break point, its groups and their generals.
    let mut group_of_side: BTreeMap<&str, &str> = BTreeMap::new();
    let mut generals: BTreeMap<&str, &str> = BTreeMap::new();
    for (side, own) in file.sides.iter().zip(&rules.sides) {
        let lists = || {
            tables
                .armies
                .armies
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(army) = &own.army else {
            return Err(scenario.field_error(
                "id",
                Some(&side.id),
                0,
                format!(
                    "side `{}` needs an `army`, one of the lists of armies.ron: {} (CtB 16.0)",
                    side.id,
                    lists()
                ),
            ));
        };
        if !tables.armies.armies.contains_key(army) {
            return Err(scenario.field_error(
                "army",
                Some(army),
                0,
                format!(
                    "unknown army list `{army}` (armies.ron has: {}; CtB 16.0)",
                    lists()
                ),
            ));
        }
        match own.break_fraction {
            Some((lost, of)) if lost >= 1 && lost <= of => {}
            Some((lost, of)) => {
                return Err(scenario.field_error(
                    "break_fraction",
                    None,
                    file.sides.iter().position(|s| s.id == side.id).unwrap_or(0),
                    format!(
                        "side `{}`: a break fraction is (lost, of) with 1 <= lost <= of, not ({lost}, {of}) (CtB 14.0)",
                        side.id
                    ),
                ));
            }
            None => {
                return Err(scenario.field_error(
                    "id",
                    Some(&side.id),
                    0,
                    format!(
                        "side `{}` needs a `break_fraction: (lost, of)`: the share of its break points whose loss breaks it (CtB 14.0)",
                        side.id
                    ),
                ));
            }
        }
        if own.groups.is_empty() {
            return Err(scenario.field_error(
                "id",
                Some(&side.id),
                0,
                format!(
                    "side `{}` needs its command `groups`, each under a general (CtB 1.1)",
                    side.id
                ),
            ));
        }
        for g in &own.groups {
            if group_of_side.insert(&g.id, &side.id).is_some() {
                return Err(scenario.field_error(
                    "id",
                    Some(&g.id),
                    1,
                    format!("group `{}` is given twice (CtB 1.1)", g.id),
                ));
            }
            if !(-3..=3).contains(&g.bonus) {
                // At the bonus on the group's line (its id is written first).
                return Err(unit_fault(
                    scenario,
                    &g.id,
                    Some("bonus"),
                    format!(
                        "group `{}`: an initiative bonus from -3 to 3, not {} (CtB 1.4)",
                        g.id, g.bonus
                    ),
                ));
            }
            let general = file.units.iter().find(|u| u.id == g.general);
            let fault = match general {
                None => Some(format!("there is no unit `{}`", g.general)),
                Some(u) if u.unit_type != GENERAL => Some(format!(
                    "`{}` is a stand of type `{}`, not a `{GENERAL}`",
                    g.general, u.unit_type
                )),
                Some(u) if u.side != side.id => {
                    Some(format!("`{}` fights for `{}`", g.general, u.side))
                }
                Some(_) => generals
                    .insert(&g.general, &g.id)
                    .map(|other| format!("`{}` already leads group `{other}`", g.general)),
            };
            if let Some(why) = fault {
                return Err(scenario.field_error(
                    "general",
                    Some(&g.general),
                    0,
                    format!(
                        "group `{}` needs a general of its side: {why} (CtB 1.1)",
                        g.id
                    ),
                ));
            }
        }
    }
    // Each unit: its group, and for a stand its list entry, facing, ranks and stakes.
    let mut stands_at: BTreeMap<HexCoord, &str> = BTreeMap::new();
    let mut general_hexes: Vec<(&str, &str, HexCoord)> = Vec::new();
    for (u, own) in file.units.iter().zip(&rules.units) {
        let Some(group) = &own.group else {
            return Err(unit_fault(
                scenario,
                &u.id,
                None,
                format!("`{}` needs the `group` it belongs to (CtB 1.1)", u.id),
            ));
        };
        match group_of_side.get(group.as_str()) {
            None => {
                return Err(unit_fault(
                    scenario,
                    &u.id,
                    Some("group"),
                    format!("`{}`: there is no group `{group}` (CtB 1.1)", u.id),
                ));
            }
            Some(side) if *side != u.side => {
                return Err(unit_fault(
                    scenario,
                    &u.id,
                    Some("group"),
                    format!(
                        "`{}` fights for `{}` but group `{group}` is `{side}`'s (CtB 1.1)",
                        u.id, u.side
                    ),
                ));
            }
            Some(_) => {}
        }
        if u.unit_type == GENERAL {
            if generals.get(u.id.as_str()) != Some(&group.as_str()) {
                return Err(unit_fault(
                    scenario,
                    &u.id,
                    Some("group"),
                    format!(
                        "general `{}` is not the general that group `{group}` names (CtB 1.1)",
                        u.id
                    ),
                ));
            }
            if let (true, Some(h)) = (own.attached, u.hex) {
                general_hexes.push((&u.id, group, h));
            }
            continue;
        }
        if own.attached {
            return Err(unit_fault(
                scenario,
                &u.id,
                Some("attached"),
                format!(
                    "`{}` is a stand: only a general is attached (CtB 2.1)",
                    u.id
                ),
            ));
        }
        let army = rules
            .sides
            .iter()
            .zip(&file.sides)
            .find(|(_, s)| s.id == u.side)
            .and_then(|(own, _)| own.army.as_deref())
            .unwrap_or_default();
        let Some(entry) = tables.entry(army, &u.unit_type) else {
            return Err(unit_fault(
                scenario,
                &u.id,
                Some("type"),
                format!(
                    "`{}` is of type `{}`, which the `{army}` list does not have (it has: {}; CtB 16.0)",
                    u.id,
                    u.unit_type,
                    tables.armies.armies[army]
                        .iter()
                        .map(|e| e.id.as_str())
                        .chain([GENERAL])
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        };
        match own.facing.as_deref().map(VertexFacing::parse) {
            Some(Some(_)) => {}
            Some(None) | None => {
                return Err(unit_fault(
                    scenario,
                    &u.id,
                    Some("facing"),
                    format!(
                        "stand `{}` needs a `facing`, a vertex of its hex: NNE, E, SSE, SSW, W or NNW (CtB 3.0)",
                        u.id
                    ),
                ));
            }
        }
        if let Some(r) = own.ranks
            && !(1..=entry.sp.len() as u8).contains(&r)
        {
            return Err(unit_fault(
                scenario,
                &u.id,
                Some("ranks"),
                format!(
                    "`{}`: from 1 to {} ranks, as its list gives, not {r} (CtB 1.2)",
                    u.id,
                    entry.sp.len()
                ),
            ));
        }
        if own.stakes && !entry.special.iter().any(|s| s == "longbow") {
            return Err(unit_fault(
                scenario,
                &u.id,
                Some("stakes"),
                format!(
                    "`{}` is not a longbow: only longbows stand behind stakes (CtB 10.3, Special Units)",
                    u.id
                ),
            ));
        }
        if let Some(h) = u.hex
            && let Some(other) = stands_at.insert(h, &u.id)
        {
            return Err(unit_fault(
                scenario,
                &u.id,
                Some("hex"),
                format!(
                    "`{}` and `{other}` are both in {h}: one stand a hex (CtB 1.2)",
                    u.id
                ),
            ));
        }
        // On terrain its type may enter (terrain.ron: no cost is impassable).
        if let Some(h) = u.hex {
            let terrain = map
                .terrain
                .iter()
                .find(|(_, hexes)| hexes.contains(&h))
                .map_or(map.default_terrain.as_str(), |(name, _)| name.as_str());
            let class = tables.type_spec(&entry.kind).map(|t| t.terrain);
            let cost = tables.terrain_type(terrain).map(|t| t.cost);
            if let (Some(class), Some(cost)) = (class, cost)
                && cost.of(class).is_none()
            {
                return Err(unit_fault(
                    scenario,
                    &u.id,
                    Some("hex"),
                    format!(
                        "`{}` ({}, type {}) stands in {terrain} at {h}, which is impassable to it (terrain.ron; CtB 3.0)",
                        u.id, u.unit_type, entry.kind
                    ),
                ));
            }
        }
    }
    // An attached general stands with a stand of his group (CtB 2.1).
    for (general, group, h) in general_hexes {
        let with = stands_at.get(&h).and_then(|id| {
            rules
                .units
                .iter()
                .zip(&file.units)
                .find(|(_, u)| u.id == *id)
                .and_then(|(own, _)| own.group.as_deref())
        });
        if with != Some(group) {
            return Err(unit_fault(
                scenario,
                general,
                Some("attached"),
                format!(
                    "general `{general}` is attached, but no stand of group `{group}` is in {h} (CtB 2.1)"
                ),
            ));
        }
    }
    // The special rules name groups and rounds that exist.
    let groups: BTreeSet<&str> = group_of_side.keys().copied().collect();
    for (n, rule) in rules.special_rules.iter().enumerate() {
        let (tag, group) = match rule {
            CtbSpecialRule::Arrival { group, .. } => ("Arrival", group),
            CtbSpecialRule::Panic { group, .. } => ("Panic", group),
            CtbSpecialRule::Flight { group, .. } => ("Flight", group),
        };
        let nth = rules.special_rules[..n]
            .iter()
            .filter(|r| std::mem::discriminant(*r) == std::mem::discriminant(rule))
            .count();
        if !groups.contains(group.as_str()) {
            return Err(scenario.entry_error(
                tag,
                nth,
                "group",
                format!("{tag}: there is no group `{group}`"),
            ));
        }
        let fault = match rule {
            CtbSpecialRule::Arrival { on, .. } if !(1..=6).contains(on) => {
                Some(("on", format!("an arrival die from 1 to 6, not {on}")))
            }
            CtbSpecialRule::Arrival {
                from_round,
                certain_round,
                ..
            } if *from_round < 1 || from_round > certain_round || *certain_round > file.turns => {
                Some((
                    "from_round",
                    format!(
                        "rounds 1 <= from_round <= certain_round <= {} (the scenario's turns), not {from_round} and {certain_round}",
                        file.turns
                    ),
                ))
            }
            CtbSpecialRule::Flight { round, .. } if *round < 1 || *round > file.turns => Some((
                "round",
                format!("a round from 1 to {}, not {round}", file.turns),
            )),
            _ => None,
        };
        if let Some((key, why)) = fault {
            return Err(scenario.entry_error(tag, nth, key, format!("{tag}: {why}")));
        }
    }
    Ok(rules)
}

// ---- filling the world ----

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::game::{GameOptions, ScenarioInfo};
use crate::engine::units::{Facing, Leader, Placement, SideId, UnitId, Units};
use crate::engine::zoc::ExertsZoc;

use super::{
    CtbGeneral, CtbPhase, CtbRanks, CtbStand, CtbState, CtbStatus, CtbTurn, Group, entity, log,
    plain_name, refresh_zones, roll, set_placement, side_name, stand_at, turn,
};

/// The command range of a side's generals (CtB 2.0): 6H, 4H for a poorly trained army.
fn range_of(tables: &Tables, poorly_trained: bool) -> u32 {
    let r = &tables.orders.command_range;
    if poorly_trained {
        r.poorly_trained
    } else {
        r.trained
    }
}

/// Gives every unit of a scenario its Charles the Bold components, and enters the
/// first choice of groups.
pub fn populate(world: &mut World, tables: &Tables, scenario: &LoadedScenario) {
    let file = &scenario.file;
    let own = scenario.rules::<CtbScenario>();
    let mut groups = Vec::new();
    let mut group_index: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, side) in own.sides.iter().enumerate() {
        for g in &side.groups {
            group_index.insert(&g.id, groups.len());
            groups.push(Group {
                id: g.id.clone(),
                name: g.name.clone(),
                side: SideId(i as u8),
                general: UnitId(scenario.unit_index(&g.general).unwrap_or(0) as u16),
                activated: false,
            });
        }
    }
    let range =
        [0, 1].map(|i| range_of(tables, own.sides.get(i).is_some_and(|s| s.poorly_trained)));
    let mut bp_total = [0u32; 2];
    let ids: Vec<UnitId> = world.res::<Units>().ids().collect();
    let mut attached: Vec<(UnitId, HexCoord)> = Vec::new();
    for id in ids {
        let spec = &file.units[id.0 as usize];
        let fields = &own.units[id.0 as usize];
        let side = scenario.side_index(&spec.side).unwrap_or(0) as usize;
        let group = fields
            .group
            .as_deref()
            .and_then(|g| group_index.get(g).copied())
            .unwrap_or(0);
        let e = entity(world, id);
        if spec.unit_type == GENERAL {
            let bonus = own.sides[side]
                .groups
                .iter()
                .find(|g| g.general == spec.id)
                .map_or(0, |g| g.bonus);
            world.entity_mut(e).insert((
                CtbGeneral {
                    group,
                    bonus,
                    range: range[side],
                    attached: None,
                    moved: false,
                },
                Leader {
                    rating: i32::from(bonus),
                    commander: false,
                },
            ));
            if let (true, Some(h)) = (fields.attached, spec.hex) {
                attached.push((id, h));
            }
            continue;
        }
        let army = own.sides[side].army.as_deref().unwrap_or_default();
        let entry = tables
            .entry(army, &spec.unit_type)
            .expect("checked by read_scenario: every stand is of its army's list")
            .clone();
        let type_spec = tables
            .type_spec(&entry.kind)
            .expect("checked with the tables: every list entry has a type")
            .clone();
        let special = entry
            .special
            .iter()
            .find_map(|s| tables.special(s))
            .cloned();
        let n = fields
            .ranks
            .map_or(entry.sp.len(), usize::from)
            .min(entry.sp.len());
        let sp0: Vec<u8> = entry.sp[..n].to_vec();
        bp_total[side] += u32::from(entry.bp) * n as u32;
        let face = fields
            .facing
            .as_deref()
            .and_then(VertexFacing::parse)
            .unwrap_or(VertexFacing(0));
        let zoc = type_spec.zoc;
        let mut ent = world.entity_mut(e);
        ent.insert((
            CtbRanks(sp0.clone()),
            CtbStand {
                entry,
                spec: type_spec,
                special,
                group,
                sp0,
                stakes: fields.stakes,
            },
            CtbStatus::default(),
            CtbTurn::default(),
            Facing(face),
        ));
        if zoc {
            ent.insert(ExertsZoc);
        }
    }
    super::CtbRoster::install(world, groups.len());
    for (g, h) in attached {
        let with = stand_at(world, h);
        super::component_mut::<CtbGeneral>(world, g).attached = with;
    }
    let mut waiting = Vec::new();
    for r in &own.special_rules {
        if let CtbSpecialRule::Arrival { group, .. } = r
            && let Some(&g) = group_index.get(group.as_str())
        {
            waiting.push(g);
        }
    }
    let break_fraction = [0, 1].map(|i| {
        own.sides
            .get(i)
            .and_then(|s| s.break_fraction)
            .unwrap_or((1, 2))
    });
    world.insert_resource(CtbState {
        phase: None,
        groups,
        declared: [None, None],
        activation: None,
        melees: Vec::new(),
        pending: Default::default(),
        last_initiative: None,
        bp_total,
        bp_lost: [0, 0],
        break_fraction,
        range,
        waiting,
        fallen: Vec::new(),
        suspended: None,
        queued: Vec::new(),
    });
    refresh_zones(world);
    log(world, EventKind::TurnStarted, "CtB 1.4", |_| {
        "Round 1".into()
    });
    start_of_round(world);
    crate::engine::phase::enter_phase(world, CtbPhase::Declare);
}

/// What a side of a scenario is, in words (`bataille check`).
pub fn side_summary(tables: &Tables, scenario: &LoadedScenario, side: usize) -> String {
    let own = scenario.rules::<CtbScenario>();
    let Some(s) = own.sides.get(side) else {
        return String::new();
    };
    let army = s.army.as_deref().unwrap_or_default();
    let side_id = &scenario.file.sides[side].id;
    let mut bp = 0u32;
    for (u, f) in scenario.file.units.iter().zip(&own.units) {
        if &u.side != side_id {
            continue;
        }
        if let Some(e) = tables.entry(army, &u.unit_type) {
            let n = f.ranks.map_or(e.sp.len(), usize::from).min(e.sp.len());
            bp += u32::from(e.bp) * n as u32;
        }
    }
    let (lost, of) = s.break_fraction.unwrap_or((1, 2));
    format!(
        "{} groups, {bp} BP, breaks at {} lost ({lost}/{of}); {} ({}H)",
        s.groups.len(),
        super::victory::break_at(bp, (lost, of)),
        if s.poorly_trained {
            "poorly trained"
        } else {
            "trained"
        },
        range_of(tables, s.poorly_trained)
    )
}

/// The start of a round: the scenario's late groups roll to arrive, a group may flee
/// (the scenarios' special rules).
pub fn start_of_round(world: &mut World) {
    replace_generals(world);
    let info = world.resource::<ScenarioInfo>().0.clone();
    let own = info.rules::<CtbScenario>();
    let round = turn(world).turn;
    let options = world.resource::<GameOptions>().clone();
    for rule in &own.special_rules {
        match rule {
            CtbSpecialRule::Arrival {
                group,
                from_round,
                on,
                certain_round,
                ..
            } => {
                let Some(g) = state_group(world, group) else {
                    continue;
                };
                if !super::state(world).waiting.contains(&g) || round < *from_round {
                    continue;
                }
                let arrives = if round >= *certain_round {
                    true
                } else {
                    let name = super::state(world).groups[g].name.clone();
                    roll(world, "CtB scenario: arrival", move |_| {
                        format!("the arrival of {name} (on {on} or more)")
                    }) >= *on
                };
                if arrives {
                    arrive(world, &info, g);
                    let panic = own.special_rules.iter().any(
                        |r| matches!(r, CtbSpecialRule::Panic { group: pg, .. } if pg == group),
                    );
                    if panic && !options.has("no_panic") {
                        panic_test(world, g);
                    }
                }
            }
            CtbSpecialRule::Flight {
                group, round: r, ..
            } if *r == round && !options.has("no_flight") => {
                if let Some(g) = state_group(world, group) {
                    flee(world, g);
                }
            }
            _ => {}
        }
    }
    refresh_zones(world);
}

/// Each general killed with his stand last round is replaced (CtB 2.2): the new one
/// appears in the hex of his group's stand nearest to where he fell (ties to the lowest
/// id: ), poor, with a command range of 4H and −2 to his group's initiative; a
/// general whose group has no stand left stays gone.
fn replace_generals(world: &mut World) {
    let fallen = std::mem::take(&mut world.resource_mut::<CtbState>().fallen);
    let tables = super::tables(world);
    let (range, bonus) = (
        tables.orders.command_range.replacement,
        tables.orders.initiative.replacement_bonus,
    );
    for (g, at) in fallen {
        let Some(group) = super::general(world, g).map(|c| c.group) else {
            continue;
        };
        let nearest = super::group_stands(world, group)
            .into_iter()
            .filter_map(|s| super::hex_of(world, s).map(|h| (at.distance(h), s, h)))
            .min_by_key(|(d, s, _)| (*d, *s));
        let Some((_, _, hex)) = nearest else {
            log(world, EventKind::Special, "CtB 2.2", |w| {
                format!(
                    "{} has no stand left: no new commander for {}",
                    super::state(w).groups[group].name,
                    super::plain_name(w, g)
                )
            });
            continue;
        };
        {
            let mut c = super::component_mut::<super::CtbGeneral>(world, g);
            c.range = range;
            c.bonus = bonus;
            c.attached = None;
            c.moved = false;
        }
        super::set_placement(world, g, Placement::OnMap(hex));
        log(world, EventKind::Special, "CtB 2.2", |w| {
            format!(
                "A new commander takes {}'s place with {} in {hex}: poor, command range {range}H, initiative {bonus:+}",
                super::plain_name(w, g),
                super::state(w).groups[group].name
            )
        });
    }
}

fn state_group(world: &World, id: &str) -> Option<usize> {
    super::state(world).groups.iter().position(|g| g.id == id)
}

/// A late group enters on its entry hexes (Arrival), each unit on the first of its
/// entry hexes free of any stand.
fn arrive(world: &mut World, info: &LoadedScenario, group: usize) {
    world
        .resource_mut::<CtbState>()
        .waiting
        .retain(|g| *g != group);
    for r in &info.file.reinforcements {
        let Some(i) = info.unit_index(&r.unit) else {
            continue;
        };
        let id = UnitId(i as u16);
        if super::group_of(world, id) != Some(group)
            || super::placement(world, id) != Placement::Waiting
        {
            continue;
        }
        let is_general = super::general(world, id).is_some();
        let free = r
            .entry
            .iter()
            .copied()
            .find(|h| is_general || stand_at(world, *h).is_none());
        if let Some(h) = free {
            set_placement(world, id, Placement::OnMap(h));
        }
    }
    log(world, EventKind::Entered, "CtB scenario: arrival", |w| {
        let g = &super::state(w).groups[group];
        format!("{} arrive: {}", side_name(w, g.side), g.name)
    });
}

/// Panic (the Swiss horns at Grandson): each enemy stand of the rule's classes takes
/// an Order Test; failure disorders it.
fn panic_test(world: &mut World, group: usize) {
    let info = world.resource::<ScenarioInfo>().0.clone();
    let own = info.rules::<CtbScenario>();
    let gid = super::state(world).groups[group].id.clone();
    let Some(CtbSpecialRule::Panic { classes, .. }) = own
        .special_rules
        .iter()
        .find(|r| matches!(r, CtbSpecialRule::Panic { group, .. } if *group == gid))
    else {
        return;
    };
    let enemy = super::state(world).groups[group].side.other();
    for id in super::stands_of(world, enemy) {
        let class = super::stand(world, id).map(|s| s.entry.class);
        if class.is_some_and(|c| classes.contains(&c)) {
            let passed = super::orders::order_test_in_game(world, id, "CtB scenario: panic");
            if !passed {
                super::disorder(world, id);
                log(world, EventKind::Special, "CtB scenario: panic", |w| {
                    format!("{} is disordered by the panic", plain_name(w, id))
                });
            }
        }
    }
}

/// A group leaves the field (Flight): its stands and general are taken off without
/// costing break points.
fn flee(world: &mut World, group: usize) {
    let side = super::state(world).groups[group].side;
    let general = super::state(world).groups[group].general;
    for id in super::group_stands(world, group) {
        set_placement(world, id, Placement::Eliminated);
    }
    set_placement(world, general, Placement::Eliminated);
    world.resource_mut::<CtbState>().waiting.push(group);
    log(world, EventKind::Special, "CtB scenario: flight", |w| {
        format!(
            "{} leaves the field: {} (no break points lost)",
            super::state(w).groups[group].name,
            side_name(w, side)
        )
    });
}

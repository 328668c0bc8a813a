//! The army set-up (CdB 14): corps, facings and stacks from the
//! scenario, attacker and defender by aggression (14.3.1), secret placements and
//! ambushes (14.3.3) with their reveal, and the scenario special rules.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::scenario::LoadedScenario;

use super::scenario::{CdbScenario, CdbSpecialRule as SpecialRule};
use crate::engine::units::{Facing, Hidden, Placement, SideId, UnitId};

use super::data::{Kind, Tables};
use super::*;

/// The optional rules of CdB (end of the text) a scenario or the command line may
/// switch on.
pub const OPTIONS: &[&str] = &[
    "march_movement",
    "demoralisation_half",
    "scenario_deployment",
    "simultaneous_placement",
    "simple_game",
];

pub fn populate(world: &mut World, scenario: &LoadedScenario, tables: &Tables) {
    let file = &scenario.file;
    let own = scenario.rules::<CdbScenario>();
    let mut st = CdbState::default();
    for (si, (side, own_side)) in file.sides.iter().zip(&own.sides).enumerate() {
        st.edges[si] = own_side.edge;
        st.cinc[si] = side
            .commander
            .as_ref()
            .and_then(|c| scenario.unit_index(c))
            .map(|u| UnitId(u as u16));
        for c in &own_side.corps {
            let g = scenario.unit_index(&c.general).expect("validated");
            let gp = tables.profile(tables.counter(&file.units[g].unit_type).expect("validated"));
            st.corps.push(Corps {
                id: c.id.clone(),
                name: c.name.clone(),
                side: SideId(si as u8),
                general: UnitId(g as u16),
                regular: gp.regular,
                allied: c.allied,
                foreign: c.foreign,
                unreliable: None,
                ap: 0,
                die: None,
                demoralised: false,
                death_test: DeathTest::None,
                total_halves: 0,
                has_halves: false,
            });
        }
    }
    let mut seen_hexes: Vec<HexCoord> = Vec::new();
    for (i, (u, own_unit)) in file.units.iter().zip(&own.units).enumerate() {
        let p = tables.profile(tables.counter(&u.unit_type).expect("validated"));
        let corps = st
            .corps
            .iter()
            .position(|c| Some(&c.id) == own_unit.corps.as_ref())
            .expect("validated") as u8;
        let co = &mut st.corps[corps as usize];
        if p.kind != Kind::Bag {
            co.total_halves += morale::halves(p.kind);
            co.has_halves |= matches!(p.kind, Kind::Ps | Kind::Hd);
        }
        let rank = match u.hex {
            Some(h) if seen_hexes.contains(&h) => 1,
            Some(h) => {
                seen_hexes.push(h);
                0
            }
            None => 0,
        };
        let id = UnitId(i as u16);
        let f = own_unit
            .facing
            .as_deref()
            .and_then(movement::parse_facing)
            .expect("validated");
        let e = world.res::<crate::engine::units::Units>().entity(id);
        world.entity_mut(e).insert((
            CdbUnit {
                p,
                counter: tables.counter_index(&u.unit_type).expect("validated") as u16,
                corps,
                general: st.corps[corps as usize].general == id,
            },
            CdbFlags { rank, ..default() },
            Facing(f),
            crate::engine::units::Steps { left: 1, max: 1 },
        ));
    }
    let mut by_aggression = false;
    let mut deployment = None;
    for r in &own.special_rules {
        match r {
            SpecialRule::Ditch {
                hexes,
                mp_cost,
                combat_modifier,
                ..
            } => {
                st.ditch = hexes.clone();
                st.ditch_mp = *mp_cost;
                st.ditch_modifier = *combat_modifier;
            }
            SpecialRule::PsiloiSupport {
                side,
                supported,
                against,
                ..
            } => {
                st.psiloi_support.push((
                    SideId(scenario.side_index(side).expect("validated")),
                    supported.iter().filter_map(|k| Kind::parse(k)).collect(),
                    against.iter().filter_map(|k| Kind::parse(k)).collect(),
                ));
            }
            SpecialRule::HiddenPlacement { unit, zone, .. } => {
                let id = UnitId(scenario.unit_index(unit).expect("validated") as u16);
                st.hidden_zones.push((id, *zone));
                let e = world.res::<crate::engine::units::Units>().entity(id);
                world.entity_mut(e).insert(Hidden);
            }
            SpecialRule::AttackerByAggression { .. } => by_aggression = true,
            SpecialRule::Deployment {
                defender_main_depth,
                attacker_main_depth,
                side_margin,
                other_depth,
                psiloi_ambush_from_enemy_edge,
                choose_edge,
                ..
            } => {
                deployment = Some(super::deployment::Distances {
                    choose_edge: *choose_edge,
                    defender_main: *defender_main_depth,
                    attacker_main: *attacker_main_depth,
                    side_margin: *side_margin,
                    other: *other_depth,
                    psiloi_far: *psiloi_ambush_from_enemy_edge,
                })
            }
            SpecialRule::Dismount { units, in_play, .. } => {
                for u in units {
                    let id = UnitId(scenario.unit_index(u).expect("validated") as u16);
                    st.dismount.push((id, *in_play));
                }
            }
        }
    }
    world.insert_resource(st);
    if by_aggression {
        attacker_by_aggression(world, scenario);
    }
    let fixed = world
        .resource::<crate::engine::game::GameOptions>()
        .has("scenario_deployment");
    // Optional rule "simple game": no baggage and no CinC. The baggage never comes on
    // the map (so it is never lost either); no corps has the CinC's point, extra PA or
    // the penalty for his death.
    if world
        .resource::<crate::engine::game::GameOptions>()
        .has("simple_game")
    {
        for u in all_units(world) {
            if kind(world, u) == Kind::Bag {
                set_placement(world, u, Placement::Waiting);
            }
        }
        let mut st = world.resource_mut::<CdbState>();
        st.cinc = [None, None];
        st.simple_game = true;
    }
    if let Some(distances) = deployment.filter(|_| !fixed) {
        super::deployment::start(world, distances);
        refresh_zoc(world);
        return;
    }
    refresh_zoc(world);
    match next_setup_side(world) {
        Some(side) => {
            world.resource_mut::<CdbState>().sequence = side;
            super::begin_phase(world, CdbPhase::Setup, side);
            log(world, EventKind::PhaseStarted, "CdB 14.3", |w| {
                format!(
                    "Set-up: {} places the units set up in secret",
                    side_name(w, side)
                )
            });
        }
        None => {
            log(world, EventKind::TurnStarted, "CdB 3", |_| {
                "Turn 1".to_string()
            });
            let first = turn(world).first;
            begin_sequence(world, first);
        }
    }
}

/// CdB 14.3.1: each player throws a die and adds his army's aggression; the higher
/// attacks and moves first (ties are thrown again).
fn attacker_by_aggression(world: &mut World, scenario: &LoadedScenario) {
    let aggression: Vec<i32> = scenario
        .rules::<CdbScenario>()
        .sides
        .iter()
        .map(|s| s.aggression.unwrap_or(0))
        .collect();
    loop {
        let a = roll(world, "CdB 14.3", |w| {
            format!(
                "{} attack (aggression {})",
                possessive(&side_name(w, SideId(0))),
                aggression[0]
            )
        }) as i32
            + aggression[0];
        let b = roll(world, "CdB 14.3", |w| {
            format!(
                "{} attack (aggression {})",
                possessive(&side_name(w, SideId(1))),
                aggression[1]
            )
        }) as i32
            + aggression[1];
        if a == b {
            continue;
        }
        let attacker = if a > b { SideId(0) } else { SideId(1) };
        world.resource_mut::<TurnState>().first = attacker;
        log(world, EventKind::Special, "CdB 14.3", |w| {
            format!(
                "{a} against {b}: {} is the attacker and moves first",
                side_name(w, attacker)
            )
        });
        return;
    }
}

/// The next side with a set-up to make, the defender first (CdB 14.3): units to place
/// in secret, or units that choose to fight mounted or on foot (CdB 2.7).
pub(crate) fn next_setup_side(world: &World) -> Option<SideId> {
    let first = turn(world).first;
    let st = state(world);
    [first.other(), first].into_iter().find(|s| {
        !st.setup_done.contains(s)
            && (st.hidden_zones.iter().any(|(u, _)| {
                side_of(world, *u) == *s && placement(world, *u) == Placement::Waiting
            }) || st.dismount.iter().any(|(u, _)| side_of(world, *u) == *s))
    })
}

pub(crate) fn check_end_setup(world: &World) -> Result<(), Refusal> {
    let side = turn(world).active;
    if let Some((u, _)) = state(world)
        .hidden_zones
        .iter()
        .find(|(u, _)| side_of(world, *u) == side && placement(world, *u) == Placement::Waiting)
    {
        return Err(Refusal::new(
            "CdB 14.3",
            format!("place {} first", name(world, *u)),
        ));
    }
    Ok(())
}

pub(crate) fn check_place(
    world: &World,
    unit_ref: &UnitRef,
    hex: HexCoord,
    facing: Option<VertexFacing>,
) -> Result<UnitId, Refusal> {
    if facing.is_some() {
        return Err(Refusal::new(
            "CdB 14.3",
            "a unit set up in secret keeps the facing the scenario gives it",
        ));
    }
    if state(world).step != CdbPhase::Setup {
        return Err(Refusal::new(
            "CdB 14.3",
            "units are placed in secret during the set-up",
        ));
    }
    let id = resolve(world, unit_ref)?;
    let Some((_, zone)) = state(world).hidden_zones.iter().find(|(u, _)| *u == id) else {
        return Err(Refusal::new(
            "CdB 14.3",
            format!("{} is not set up in secret", name(world, id)),
        ));
    };
    if side_of(world, id) != turn(world).active {
        return Err(Refusal::new(
            "CdB 14.3",
            format!("{} belongs to the other player", name(world, id)),
        ));
    }
    if placement(world, id) != Placement::Waiting {
        return Err(Refusal::new(
            "CdB 14.3",
            format!("{} is already placed", name(world, id)),
        ));
    }
    if !zone.contains(hex) || !world.res::<crate::engine::board::Board>().contains(hex) {
        return Err(Refusal::new(
            "CdB 14.3",
            format!("{hex} is outside the ambush zone of {}", name(world, id)),
        ));
    }
    if !stack_at(world, hex).is_empty()
        || terrain_class(world, hex) == data::TerrainClass::Impassable
    {
        return Err(Refusal::new(
            "CdB 14.3",
            format!("{hex} is occupied or impassable"),
        ));
    }
    Ok(id)
}

pub(crate) fn execute_place(world: &mut World, id: UnitId, hex: HexCoord) {
    set_placement(world, id, Placement::OnMap(hex));
    // The log is read by both players: the hex is not named.
    log(world, EventKind::Placed, "CdB 14.3", |w| {
        format!("{} places a unit in secret", side_name(w, side_of(w, id)))
    });
}

/// Whether a hidden unit of one side standing at `h` would be seen by the other's units
/// on the map and in view: within 3 hexes, or in line of sight for all but Psiloi
/// (CdB 14.3).
pub(crate) fn seen_at(world: &World, u: UnitId, h: HexCoord) -> bool {
    Watchers::of(world, u).see(&position::Sight::of(world), h)
}

/// The units that would see a hidden unit (CdB 14.3): the other side's units on the
/// map and in view, found once for all the hexes asked (the computer opponent asks
/// every hex of an ambush's zone).
pub(crate) struct Watchers {
    hexes: Vec<HexCoord>,
    psiloi: bool,
}

impl Watchers {
    pub(crate) fn of(world: &World, u: UnitId) -> Self {
        let side = side_of(world, u);
        let units = world.res::<crate::engine::units::Units>();
        let hexes = units
            .ids()
            .filter(|e| {
                units.side(*e) != side
                    && world
                        .get_cached::<crate::engine::units::Hidden>(units.entity(*e))
                        .is_none()
            })
            .filter_map(|e| units.placement(e).hex())
            .collect();
        Watchers {
            hexes,
            psiloi: kind(world, u) == Kind::Ps,
        }
    }

    /// Whether the unit would be seen at `h`.
    pub(crate) fn see(&self, sight: &position::Sight, h: HexCoord) -> bool {
        self.hexes
            .iter()
            .any(|&eh| eh.distance(h) <= 3 || (!self.psiloi && sight.clear(eh, h)))
    }
}

/// Ambushers seen by the enemy are revealed (CdB 14.3): Psiloi within three hexes of
/// an enemy, others in an enemy's line of sight.
pub(crate) fn reveal_seen(world: &mut World) {
    let units = world.res::<crate::engine::units::Units>();
    let hidden: Vec<UnitId> = units
        .ids()
        .filter(|u| {
            world
                .get_cached::<crate::engine::units::Hidden>(units.entity(*u))
                .is_some()
                && units.placement(*u).hex().is_some()
        })
        .collect();
    for u in hidden {
        let h = hex_of(world, u).expect("on the map");
        let seen = seen_at(world, u, h);
        if seen {
            let e = entity(world, u);
            world.entity_mut(e).remove::<Hidden>();
            zones_stale(world);
            log(world, EventKind::Revealed, "CdB 14.3", |w| {
                format!("{} is seen: the ambush is revealed", name(w, u))
            });
        }
    }
}

/// A change of counter between mounted and on foot, checked.
pub(crate) struct DismountPlan {
    pub unit: UnitId,
    pub to: usize,
    /// In play: an activation of the unit, with its cost (CdB 4.2).
    pub activation: Option<(i32, Vec<String>)>,
}

pub(crate) fn check_dismount(
    world: &World,
    unit_ref: &UnitRef,
    remount: bool,
) -> Result<DismountPlan, Refusal> {
    let id = resolve(world, unit_ref)?;
    let who = name(world, id);
    let st = state(world);
    let Some(&(_, in_play)) = st.dismount.iter().find(|(u, _)| *u == id) else {
        return Err(Refusal::new(
            "CdB 2.7",
            format!("{who} may not change between mounted and on foot (scenario rules)"),
        ));
    };
    let t = tables(world);
    let u = unit(world, id);
    let counter = &t.units.counters[u.counter as usize];
    let Some(to) = counter
        .other_state
        .as_deref()
        .and_then(|o| t.counter_index(o))
    else {
        return Err(Refusal::new(
            "CdB 2.7",
            format!("{who} has no other counter"),
        ));
    };
    if u.p.kind.is_mounted() == remount {
        return Err(Refusal::new(
            "CdB 2.7",
            format!(
                "{who} is already {}",
                if remount { "mounted" } else { "on foot" }
            ),
        ));
    }
    if side_of(world, id) != turn(world).active {
        return Err(Refusal::new(
            "CdB 2.7",
            format!("{who} belongs to the other player"),
        ));
    }
    if stack_of(world, id).len() > 1 {
        return Err(Refusal::new(
            "CdB 2.7",
            format!("{who} is stacked: it changes counter alone"),
        ));
    }
    let activation = match st.step {
        CdbPhase::Setup => None,
        CdbPhase::Movement if in_play => {
            if flags(world, id).moved {
                return Err(Refusal::new(
                    "CdB 2.7",
                    format!("{who} has moved this turn"),
                ));
            }
            // Mounting and dismounting are activations: the base cost and the
            // modifiers of the general and the CinC (CdB 4.2).
            let c = u.corps as usize;
            let (cost, why) = command_points::activation_cost(
                world,
                c,
                &[id],
                command_points::ActivationFacts::default(),
            );
            if command_points::available(world, c, &[id]) < cost {
                return Err(Refusal::new(
                    "CdB 4.2",
                    format!(
                        "{} costs {cost} PA ({}); {} corps has {} left",
                        if remount { "remounting" } else { "dismounting" },
                        why.join(", "),
                        possessive(&st.corps[c].name),
                        command_points::available(world, c, &[id])
                    ),
                ));
            }
            Some((cost, why))
        }
        CdbPhase::Movement => {
            return Err(Refusal::new(
                "CdB 2.7",
                format!("{who} chose its state before placement and keeps it for the game"),
            ));
        }
        _ => {
            return Err(Refusal::new(
                "CdB 2.7",
                "units mount or dismount in the set-up or in their movement phase",
            ));
        }
    };
    Ok(DismountPlan {
        unit: id,
        to,
        activation,
    })
}

pub(crate) fn execute_dismount(world: &mut World, plan: DismountPlan) {
    let t = tables(world);
    let id = plan.unit;
    let corps = unit(world, id).corps as usize;
    if let Some((cost, why)) = &plan.activation {
        let extra = command_points::pay(world, corps, &[id], *cost);
        flags_mut(world, id).moved = true;
        let (cost, why) = (*cost, why.join(", "));
        log(world, EventKind::Special, "CdB 4.2", |w| {
            format!(
                "{} corps spends {cost} PA ({why}){}, {}",
                possessive(&w.res::<CdbState>().corps[corps].name),
                command_points::paid_by_cinc(extra),
                command_points::left_text(w, corps)
            )
        });
    }
    let p = t.profile(&t.units.counters[plan.to]);
    let e = entity(world, id);
    {
        let mut u = world.get_mut::<CdbUnit>(e).expect("CdB units have values");
        u.p = p;
        u.counter = plan.to as u16;
        let now = *u;
        if let Some(mut r) = world.get_resource_mut::<CdbRoster>()
            && let Some(slot) = r.0.get_mut(id.0 as usize)
        {
            *slot = now;
        }
    }
    let now = t.units.counters[plan.to].name.clone();
    log(world, EventKind::Special, "CdB 2.7", |w| {
        format!(
            "{} now fights {} as {now}",
            name(w, id),
            if p.kind.is_mounted() {
                "mounted"
            } else {
                "on foot"
            }
        )
    });
}

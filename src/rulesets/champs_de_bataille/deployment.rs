//! The army set-up of CdB 14.3, played when the scenario has `Deployment` (and the
//! option `scenario_deployment` is off): the attacker chooses a map edge and a die
//! keeps or swaps it, each player puts his baggage on his edge, writes his corps'
//! placement in secret and sets his ambushes, then the corps are placed in turn in
//! their zones, the defender's most numerous first. Where one unit may be placed, and
//! its placing, are in `deployment_placement.rs`.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::board::MapEdge;
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{Hidden, Placement, SideId, UnitId};

use super::data::Kind;
use super::*;

/// The stages of CdB 14.3, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// 14.3.2: the attacker chooses a long edge; 1-4 keeps it, 5-6 swaps it.
    Edge,
    /// 14.3.2: baggage on the hexes along the own edge, the defender first.
    Baggage,
    /// 14.3.3: the corps' placement written in secret, and the ambushes.
    Plan,
    /// 14.3.4: the corps placed one at a time, the players alternating.
    Corps,
}

/// The distances of CdB 14.3 in hexes, from the scenario's `Deployment` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distances {
    pub defender_main: i32,
    pub attacker_main: i32,
    pub side_margin: i32,
    pub other: i32,
    pub psiloi_far: i32,
    pub choose_edge: bool,
}

/// The set-up under way.
#[derive(Clone, Debug)]
pub struct Deployment {
    pub distances: Distances,
    pub stage: Stage,
    pub attacker: SideId,
    /// Each side's corps (indices into `CdbState::corps`) from its left to its right,
    /// as written in secret (14.3.3).
    pub plan: [Option<Vec<usize>>; 2],
    /// The corps being placed.
    pub placing: Option<usize>,
    /// The corps placed, in order: each side's first is its main corps.
    pub placed: Vec<usize>,
    /// Units set up in ambush: placed hidden in the plan stage, not with their corps.
    pub ambushers: Vec<UnitId>,
    /// The edge die is thrown; `end` hands over to the defender.
    pub edge_rolled: bool,
    /// Optional rule "simultaneous placement": each player places all his corps
    /// unseen, the defender first, and both armies are revealed together.
    pub simultaneous: bool,
    /// Optional rule "simple game": no baggage to place.
    pub no_baggage: bool,
}

impl Deployment {
    pub fn new(distances: Distances, attacker: SideId) -> Self {
        Self {
            distances,
            stage: Stage::Edge,
            attacker,
            plan: [None, None],
            placing: None,
            placed: Vec::new(),
            ambushers: Vec::new(),
            edge_rolled: false,
            simultaneous: false,
            no_baggage: false,
        }
    }
}

pub(super) fn deployment(world: &World) -> Result<&Deployment, Refusal> {
    state(world).deploy.as_ref().ok_or_else(|| {
        Refusal::new(
            "CdB 14.3",
            "this game uses the scenario's deployment: there is no set-up to play (scenario without `Deployment`, or option `scenario_deployment`)",
        )
    })
}

pub(super) fn deployment_mut(world: &mut World) -> &mut Deployment {
    world
        .resource_mut::<CdbState>()
        .into_inner()
        .deploy
        .as_mut()
        .expect("checked")
}

// ---- geometry ----

/// The two long edges of the map, where armies set up (CdB 14.3.2). Hex columns are
/// 1.5 hex widths apart and rows √3: the map is taller than wide unless it has many
/// more columns than rows.
pub fn long_edges(board: &Board) -> [MapEdge; 2] {
    if (board.rows as f32) * 3f32.sqrt() >= board.columns as f32 * 1.5 {
        [MapEdge::West, MapEdge::East]
    } else {
        [MapEdge::North, MapEdge::South]
    }
}

/// Hexes from an edge: 1 for the hexes along it.
pub fn from_edge(board: &Board, edge: MapEdge, h: HexCoord) -> i32 {
    match edge {
        MapEdge::West => h.col,
        MapEdge::East => board.columns + 1 - h.col,
        MapEdge::North => h.row,
        MapEdge::South => board.rows + 1 - h.row,
    }
}

/// A hex's place along the own edge counted from the player's left as he faces the
/// enemy from his edge (1 = the left map edge).
pub fn lateral(board: &Board, edge: MapEdge, h: HexCoord) -> i32 {
    match edge {
        MapEdge::West => h.row,
        MapEdge::East => board.rows + 1 - h.row,
        MapEdge::North => board.columns + 1 - h.col,
        MapEdge::South => h.col,
    }
}

pub(super) fn lateral_len(board: &Board, edge: MapEdge) -> i32 {
    match edge {
        MapEdge::West | MapEdge::East => board.rows,
        MapEdge::North | MapEdge::South => board.columns,
    }
}

/// The facing towards the enemy's edge, where a vertex points at it.
pub fn facing_towards_enemy(edge: MapEdge) -> VertexFacing {
    match edge {
        MapEdge::West => VertexFacing(1),
        MapEdge::East => VertexFacing(4),
        MapEdge::North => VertexFacing(2),
        MapEdge::South => VertexFacing(0),
    }
}

pub(super) fn own_edge(world: &World, side: SideId) -> MapEdge {
    state(world).edges[side.0 as usize].expect("every CdB side has an edge")
}

pub(super) fn board(world: &World) -> &Board {
    world.res::<Board>()
}

// ---- corps ----

/// The units of a corps placed with it: neither baggage (placed on the edge) nor
/// ambushers.
pub(super) fn open_units(world: &World, corps: usize) -> Vec<UnitId> {
    let d = state(world).deploy.as_ref();
    let roster = world.get_resource::<CdbRoster>();
    all_units(world)
        .into_iter()
        .filter(|u| {
            let x = roster
                .and_then(|r| r.0.get(u.0 as usize).copied())
                .unwrap_or_else(|| unit(world, *u));
            x.corps as usize == corps
                && x.p.kind != Kind::Bag
                && !d.is_some_and(|d| d.ambushers.contains(u))
        })
        .collect()
}

/// Of every corps, by its index: how many units it places with it (`open_units`) and
/// its size in counters (CdB 14.3.4 "most numerous": baggage apart, ambushers in), from
/// one pass over the units instead of one per corps (autoplay asks for every hex).
fn corps_sizes(world: &World) -> Vec<(usize, usize)> {
    let st = state(world);
    let ambushers = st.deploy.as_ref().map_or(&[][..], |d| &d.ambushers[..]);
    let roster = world.get_resource::<CdbRoster>();
    let mut out = vec![(0, 0); st.corps.len()];
    for u in all_units(world) {
        let x = roster
            .and_then(|r| r.0.get(u.0 as usize).copied())
            .unwrap_or_else(|| unit(world, u));
        if x.p.kind == Kind::Bag {
            continue;
        }
        if let Some(size) = out.get_mut(x.corps as usize) {
            size.1 += 1;
            if !ambushers.contains(&u) {
                size.0 += 1;
            }
        }
    }
    out
}

fn side_corps(world: &World, side: SideId) -> Vec<usize> {
    state(world)
        .corps
        .iter()
        .enumerate()
        .filter(|(_, c)| c.side == side)
        .map(|(i, _)| i)
        .collect()
}

/// The side's corps still to place (a corps all in ambush has nothing to place).
pub fn corps_to_place(world: &World, side: SideId) -> Vec<usize> {
    let Some(d) = state(world).deploy.as_ref() else {
        return Vec::new();
    };
    let sizes = corps_sizes(world);
    side_corps(world, side)
        .into_iter()
        .filter(|c| !d.placed.contains(c) && sizes[*c].0 > 0)
        .collect()
}

/// The corps the side may begin to place now: its most numerous first (14.3.4).
pub fn corps_eligible(world: &World, side: SideId) -> Vec<usize> {
    let d = deployment(world).expect("in the set-up");
    let left = corps_to_place(world, side);
    let first = !d.placed.iter().any(|c| state(world).corps[*c].side == side);
    if !first {
        return left;
    }
    let sizes = corps_sizes(world);
    let most = left.iter().map(|c| sizes[*c].1).max().unwrap_or(0);
    left.into_iter().filter(|c| sizes[*c].1 == most).collect()
}

pub(super) fn corps_names(world: &World, list: &[usize]) -> String {
    list.iter()
        .map(|c| state(world).corps[*c].name.clone())
        .collect::<Vec<_>>()
        .join(", ")
}

// ---- checks ----

pub(super) fn own_waiting_or_movable(world: &World, id: UnitId) -> Result<(), Refusal> {
    if side_of(world, id) != turn(world).active {
        return Err(Refusal::new(
            "CdB 14.3",
            format!("{} belongs to the other player", name(world, id)),
        ));
    }
    Ok(())
}

pub fn check_edge(world: &World, edge: MapEdge) -> Result<(), Refusal> {
    let d = deployment(world)?;
    if d.stage != Stage::Edge || d.edge_rolled || state(world).step != CdbPhase::Setup {
        return Err(Refusal::new(
            "CdB 14.3.2",
            "the map edge is chosen once, before the baggage is placed",
        ));
    }
    let long = long_edges(board(world));
    if !long.contains(&edge) {
        return Err(Refusal::new(
            "CdB 14.3.2",
            format!(
                "the attacker chooses a long edge: {} or {}",
                long[0].name(),
                long[1].name()
            ),
        ));
    }
    Ok(())
}

pub fn check_plan(world: &World, ids: &[String]) -> Result<Vec<usize>, Refusal> {
    let d = deployment(world)?;
    if d.stage != Stage::Plan || state(world).step != CdbPhase::Setup {
        return Err(Refusal::new(
            "CdB 14.3.3",
            "the corps' placement is written after the baggage is placed, before the corps are",
        ));
    }
    let side = turn(world).active;
    let mine = side_corps(world, side);
    let st = state(world);
    let mut plan = Vec::new();
    for id in ids {
        let Some(c) = mine.iter().copied().find(|c| st.corps[*c].id == *id) else {
            return Err(Refusal::new(
                "CdB 14.3.3",
                format!(
                    "`{id}` is not a corps of {}: {}",
                    side_name(world, side),
                    mine.iter()
                        .map(|c| st.corps[*c].id.clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        };
        if plan.contains(&c) {
            return Err(Refusal::new(
                "CdB 14.3.3",
                format!("corps `{id}` is written twice"),
            ));
        }
        plan.push(c);
    }
    if plan.len() != mine.len() {
        return Err(Refusal::new(
            "CdB 14.3.3",
            format!(
                "write every corps, from left to right: {}",
                mine.iter()
                    .map(|c| st.corps[*c].id.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(plan)
}

pub fn check_ambush(world: &World, unit_ref: &UnitRef) -> Result<UnitId, Refusal> {
    let d = deployment(world)?;
    if d.stage != Stage::Plan || state(world).step != CdbPhase::Setup {
        return Err(Refusal::new(
            "CdB 14.3.3",
            "ambushes are set while the corps' placement is written",
        ));
    }
    let id = resolve(world, unit_ref)?;
    own_waiting_or_movable(world, id)?;
    if kind(world, id) == Kind::Bag {
        return Err(Refusal::new(
            "CdB 14.3.2",
            "baggage stands on its edge, not in ambush",
        ));
    }
    if d.ambushers.contains(&id) {
        return Err(Refusal::new(
            "CdB 14.3.3",
            format!("{} is already in ambush", name(world, id)),
        ));
    }
    if d.ambushers.iter().any(|u| {
        side_of(world, *u) == side_of(world, id) && placement(world, *u) == Placement::Waiting
    }) {
        return Err(Refusal::new(
            "CdB 14.3.3",
            "place the ambush already set first",
        ));
    }
    Ok(id)
}

pub fn check_end(world: &World) -> Result<(), Refusal> {
    let d = deployment(world)?;
    let side = turn(world).active;
    match d.stage {
        Stage::Edge if d.edge_rolled => Ok(()),
        Stage::Edge => Err(Refusal::new(
            "CdB 14.3.2",
            format!("{} chooses a map edge first", side_name(world, d.attacker)),
        )),
        Stage::Baggage => match waiting(world, side, |u| kind(world, u) == Kind::Bag).first() {
            Some(u) => Err(Refusal::new(
                "CdB 14.3.2",
                format!("place {} on the map edge first", name(world, *u)),
            )),
            None => Ok(()),
        },
        Stage::Plan => {
            if d.plan[side.0 as usize].is_none() {
                return Err(Refusal::new(
                    "CdB 14.3.3",
                    "write the corps' placement first (`plan`, from left to right)",
                ));
            }
            match waiting(world, side, |u| d.ambushers.contains(&u)).first() {
                Some(u) => Err(Refusal::new(
                    "CdB 14.3.3",
                    format!("place {} in ambush first", name(world, *u)),
                )),
                None => Ok(()),
            }
        }
        Stage::Corps => {
            let Some(c) = d.placing else {
                return Err(Refusal::new(
                    "CdB 14.3.4",
                    format!(
                        "place a corps first: {}",
                        corps_names(world, &corps_eligible(world, side))
                    ),
                ));
            };
            match open_units(world, c)
                .into_iter()
                .find(|u| placement(world, *u) == Placement::Waiting)
            {
                Some(u) => Err(Refusal::new(
                    "CdB 14.3.4",
                    format!("place {} with its corps first", name(world, u)),
                )),
                None => Ok(()),
            }
        }
    }
}

/// The side's units not yet placed that `filter` keeps, in id order.
pub fn waiting(world: &World, side: SideId, filter: impl Fn(UnitId) -> bool) -> Vec<UnitId> {
    all_units(world)
        .into_iter()
        .filter(|u| {
            side_of(world, *u) == side && placement(world, *u) == Placement::Waiting && filter(*u)
        })
        .collect()
}

// ---- execution ----

/// The stage after the edges: the baggage, or the written placement when the simple
/// game has no baggage.
fn after_edges(world: &mut World, defender: SideId) {
    let no_baggage = deployment(world).expect("in the set-up").no_baggage;
    deployment_mut(world).stage = if no_baggage {
        Stage::Plan
    } else {
        Stage::Baggage
    };
    begin_side(world, defender);
}

/// Starts the set-up: every unit off the map, the attacker to choose an edge.
pub fn start(world: &mut World, distances: Distances) {
    let attacker = turn(world).first;
    for u in all_units(world) {
        set_placement(world, u, Placement::Waiting);
        flags_mut(world, u).rank = 0;
    }
    let hidden: Vec<UnitId> = state(world).hidden_zones.iter().map(|(u, _)| *u).collect();
    let mut d = Deployment::new(distances, attacker);
    d.ambushers = hidden;
    let options = world.resource::<crate::engine::game::GameOptions>();
    d.simultaneous = options.has("simultaneous_placement");
    d.no_baggage = options.has("simple_game");
    world.resource_mut::<CdbState>().deploy = Some(d);
    world.resource_mut::<CdbState>().sequence = attacker;
    if !distances.choose_edge {
        log(world, EventKind::PhaseStarted, "CdB 14.3.2", |w| {
            format!(
                "Set-up: the scenario fixes the map edges; {}, the defender, places first",
                side_name(w, attacker.other())
            )
        });
        after_edges(world, attacker.other());
        return;
    }
    super::begin_phase(world, CdbPhase::Setup, attacker);
    let long = long_edges(board(world));
    log(world, EventKind::PhaseStarted, "CdB 14.3.2", |w| {
        format!(
            "Set-up: {}, the attacker, chooses the {} or the {} edge; a die of 1-4 keeps it, 5-6 gives the other",
            side_name(w, attacker),
            long[0].name(),
            long[1].name()
        )
    });
}

pub fn execute_edge(world: &mut World, chosen: MapEdge) {
    let attacker = deployment(world).expect("checked").attacker;
    let die = roll(world, "CdB 14.3.2", |w| {
        format!("{} map edge", possessive(&side_name(w, attacker)))
    });
    let edge = if die <= 4 { chosen } else { chosen.opposite() };
    {
        let mut st = world.resource_mut::<CdbState>();
        st.edges[attacker.0 as usize] = Some(edge);
        st.edges[attacker.other().0 as usize] = Some(edge.opposite());
    }
    log(world, EventKind::Special, "CdB 14.3.2", |w| {
        format!(
            "{} chose the {} edge and sets up on the {} edge; {} forms opposite, on the {} edge",
            side_name(w, attacker),
            chosen.name(),
            edge.name(),
            side_name(w, attacker.other()),
            edge.opposite().name()
        )
    });
    deployment_mut(world).edge_rolled = true;
}

fn begin_side(world: &mut World, side: SideId) {
    super::begin_phase(world, CdbPhase::Setup, side);
    let stage = deployment(world).expect("in the set-up").stage;
    log(world, EventKind::PhaseStarted, "CdB 14.3", |w| {
        let who = side_name(w, side);
        match stage {
            Stage::Edge => String::new(),
            Stage::Baggage => format!("{who} places the baggage along the map edge"),
            Stage::Plan => {
                format!("{who} writes the corps' placement in secret and sets the ambushes")
            }
            Stage::Corps => format!("{who} places a corps"),
        }
    });
}

pub fn execute_plan(world: &mut World, plan: Vec<usize>) {
    let side = turn(world).active;
    deployment_mut(world).plan[side.0 as usize] = Some(plan);
    log(world, EventKind::Special, "CdB 14.3.3", |w| {
        format!(
            "{} writes down the placement of the corps, in secret",
            side_name(w, side)
        )
    });
}

pub fn execute_ambush(world: &mut World, id: UnitId) {
    deployment_mut(world).ambushers.push(id);
    let e = entity(world, id);
    world.entity_mut(e).insert(Hidden);
    log(world, EventKind::Special, "CdB 14.3.3", |w| {
        format!("{} sets a unit in ambush", side_name(w, side_of(w, id)))
    });
}

/// `end` in the set-up: the next player or stage; after the last corps, the ambushes
/// the enemy sees are revealed and the attacker's first turn begins (CdB 14.3.4).
pub fn end_stage(world: &mut World) {
    let side = turn(world).active;
    let d = deployment(world).expect("in the set-up").clone();
    let defender = d.attacker.other();
    match d.stage {
        Stage::Edge => after_edges(world, defender),
        Stage::Baggage | Stage::Plan if side == defender => begin_side(world, d.attacker),
        Stage::Baggage => {
            deployment_mut(world).stage = Stage::Plan;
            begin_side(world, defender);
        }
        Stage::Plan => {
            deployment_mut(world).stage = Stage::Corps;
            // CdB 14.3.3 lets every troop type lie in ambush, so a side may have set
            // its whole army in ambush and have no corps to place: the first side
            // with one places first, defender first (14.3.4).
            next_to_place_corps(world, [defender, d.attacker]);
        }
        Stage::Corps => {
            let c = d.placing.expect("checked by check_end");
            {
                let d = deployment_mut(world);
                d.placed.push(c);
                d.placing = None;
            }
            let n = open_units(world, c).len();
            log(world, EventKind::Special, "CdB 14.3.4", |w| {
                format!(
                    "{} has placed {} corps ({n} counters)",
                    side_name(w, side),
                    possessive(&state(w).corps[c].name)
                )
            });
            // Players alternate corps; in simultaneous placement each places all his.
            let order = if d.simultaneous {
                [side, side.other()]
            } else {
                [side.other(), side]
            };
            next_to_place_corps(world, order);
        }
    }
}

/// The first of `order` with a corps still to place begins; with none left, the
/// armies are set up and the battle begins (CdB 14.3.4).
fn next_to_place_corps(world: &mut World, order: [SideId; 2]) {
    match order
        .into_iter()
        .find(|s| !corps_to_place(world, *s).is_empty())
    {
        Some(s) => begin_side(world, s),
        None => finish(world),
    }
}

fn finish(world: &mut World) {
    let d = deployment(world).expect("in the set-up").clone();
    let attacker = d.attacker;
    if d.simultaneous {
        for u in all_units(world) {
            if !d.ambushers.contains(&u) && hex_of(world, u).is_some() && is_hidden(world, u) {
                let e = entity(world, u);
                world.entity_mut(e).remove::<Hidden>();
            }
        }
        log(world, EventKind::Revealed, "CdB 14.3", |_| {
            "Both armies are revealed (simultaneous placement)".to_string()
        });
    }
    refresh_zoc(world);
    setup::reveal_seen(world);
    log(world, EventKind::TurnStarted, "CdB 3", |_| {
        "Turn 1".to_string()
    });
    begin_sequence(world, attacker);
}

/// The next unit to place and the stage's prompt, for the window's decision.
pub fn next_to_place(world: &World) -> Option<UnitId> {
    let d = state(world).deploy.as_ref()?;
    let side = turn(world).active;
    match d.stage {
        Stage::Edge => None,
        Stage::Baggage => waiting(world, side, |u| kind(world, u) == Kind::Bag)
            .first()
            .copied(),
        Stage::Plan => waiting(world, side, |u| d.ambushers.contains(&u))
            .first()
            .copied(),
        Stage::Corps => {
            let corps = match d.placing {
                Some(c) => c,
                None => {
                    let eligible = corps_eligible(world, side);
                    let plan = d.plan[side.0 as usize].clone().unwrap_or_default();
                    *plan
                        .iter()
                        .find(|c| eligible.contains(c))
                        .or(eligible.first())?
                }
            };
            open_units(world, corps)
                .into_iter()
                .find(|u| placement(world, *u) == Placement::Waiting)
        }
    }
}

/// Units whose placement may still change in this stage: re-placing one moves or
/// turns it.
pub fn may_replace(world: &World, id: UnitId) -> bool {
    let Some(d) = state(world).deploy.as_ref() else {
        return false;
    };
    if state(world).step != CdbPhase::Setup
        || side_of(world, id) != turn(world).active
        || hex_of(world, id).is_none()
    {
        return false;
    }
    match d.stage {
        Stage::Edge => false,
        Stage::Baggage => kind(world, id) == Kind::Bag,
        Stage::Plan => d.ambushers.contains(&id),
        Stage::Corps => {
            d.placing == Some(unit(world, id).corps as usize) && !d.ambushers.contains(&id)
        }
    }
}

/// Whether the unit waits for its placement in this game's set-up.
pub fn stage_name(world: &World) -> Option<&'static str> {
    Some(match state(world).deploy.as_ref()?.stage {
        Stage::Edge => "map edge (CdB 14.3.2)",
        Stage::Baggage => "baggage (CdB 14.3.2)",
        Stage::Plan => "written placement and ambushes (CdB 14.3.3)",
        Stage::Corps => "corps placement (CdB 14.3.4)",
    })
}

/// The plan written by a side, as corps names from left to right (for its owner).
pub fn plan_text(world: &World, side: SideId) -> Option<String> {
    let d = state(world).deploy.as_ref()?;
    d.plan[side.0 as usize]
        .as_ref()
        .map(|p| corps_names(world, p))
}

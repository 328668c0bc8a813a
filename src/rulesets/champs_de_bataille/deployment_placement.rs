//! Placing one unit in the army set-up of CdB 14.3: the baggage along its own edge
//! (14.3.2), an ambusher in its zone (14.3.3), a unit of the corps being placed within
//! its distances of the edges and in the written order of the corps (14.3.3, 14.3.4),
//! in a hex it may stand or stack in (8).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{Facing, Hidden, Placement, UnitId};

use super::data::{Kind, TerrainClass};
use super::deployment::{
    Stage, board, corps_eligible, corps_names, deployment, deployment_mut, facing_towards_enemy,
    from_edge, lateral, lateral_len, own_edge, own_waiting_or_movable,
};
use super::*;

// ---- checks ----

/// A placement checked.
pub struct PlacePlan {
    pub unit: UnitId,
    pub hex: HexCoord,
    pub facing: VertexFacing,
}

/// The hex is free for this unit: on the map, passable, and empty or holding one unit
/// it may stack with (CdB 8), of its corps and with the same facing.
fn check_room(
    world: &World,
    id: UnitId,
    hex: HexCoord,
    facing: VertexFacing,
) -> Result<(), Refusal> {
    if !board(world).contains(hex) {
        return Err(Refusal::new("CdB 14.3", format!("{hex} is off the map")));
    }
    if terrain_class(world, hex) == TerrainClass::Impassable {
        return Err(Refusal::new("CdB 14.3", format!("{hex} is impassable")));
    }
    let others: Vec<UnitId> = stack_at(world, hex)
        .into_iter()
        .filter(|u| *u != id)
        .collect();
    match others[..] {
        [] => Ok(()),
        [o] if side_of(world, o) != side_of(world, id) && is_hidden(world, o) => {
            // An enemy unit placed unseen: the hex is taken, nothing more is told.
            Err(Refusal::new("CdB 14.3", format!("{hex} is occupied")))
        }
        [o] => {
            let ambush = |u: UnitId| {
                state(world)
                    .deploy
                    .as_ref()
                    .is_some_and(|d| d.ambushers.contains(&u))
            };
            let same = side_of(world, o) == side_of(world, id)
                && super::facing(world, o) == facing
                && ambush(o) == ambush(id);
            if same && stacking::may_stack(world, o, id) {
                Ok(())
            } else {
                Err(Refusal::new(
                    "CdB 8",
                    format!(
                        "{hex} holds {}: only the pairs of the ranks-of-support table stack, of one corps and one facing",
                        name(world, o)
                    ),
                ))
            }
        }
        _ => Err(Refusal::new(
            "CdB 8",
            format!("{hex} already holds two counters"),
        )),
    }
}

/// What a placement's check knows of the unit before it looks at a hex: every check of
/// CdB 14.3 that does not depend on the hex, made once, so that listing or trying the
/// hexes of a set-up (the window's choices, autoplay) checks each hex alone. `hex`
/// gives, for every hex, the answer `check_place` gives.
pub struct PlaceCheck<'w> {
    id: UnitId,
    edge: crate::engine::board::MapEdge,
    dist: super::deployment::Distances,
    stage: StageCheck<'w>,
}

/// The part of a placement's check that depends on the stage of the set-up.
enum StageCheck<'w> {
    Baggage,
    Plan,
    Corps {
        corps: usize,
        main: bool,
        depth: i32,
        /// The written placement and every corps' spread (`corps_spreads`), or the
        /// refusal for a placement not written, given where the hex checks reach it.
        plan: Result<PlanKept<'w>, Refusal>,
    },
}

/// The hex-free part of `check_plan_kept`: the written order, where the unit's corps
/// stands in it, and every corps' size and extent.
struct PlanKept<'w> {
    plan: &'w [usize],
    at: Option<usize>,
    spreads: Vec<(i32, Option<(i32, i32)>)>,
}

pub fn check_place(
    world: &World,
    unit_ref: &UnitRef,
    hex: HexCoord,
    facing: Option<VertexFacing>,
) -> Result<PlacePlan, Refusal> {
    PlaceCheck::new(world, unit_ref)?.hex(world, hex, facing)
}

impl<'w> PlaceCheck<'w> {
    /// The checks of CdB 14.3 that do not depend on the hex, in the order
    /// `check_place` makes them: each comes before every check of the hex.
    pub fn new(world: &'w World, unit_ref: &UnitRef) -> Result<Self, Refusal> {
        let d = deployment(world)?;
        if state(world).step != CdbPhase::Setup {
            return Err(Refusal::new(
                "CdB 14.3",
                "units are placed during the set-up",
            ));
        }
        let id = resolve(world, unit_ref)?;
        own_waiting_or_movable(world, id)?;
        let side = side_of(world, id);
        let edge = own_edge(world, side);
        // The unit's name only for a refusal: most checks pass.
        let who = || name(world, id);
        let dist = d.distances;
        let stage = match d.stage {
            Stage::Edge => {
                return Err(Refusal::new(
                    "CdB 14.3.2",
                    format!("first, {} chooses a map edge", side_name(world, d.attacker)),
                ));
            }
            Stage::Baggage => {
                if kind(world, id) != Kind::Bag {
                    return Err(Refusal::new(
                        "CdB 14.3.2",
                        format!("the baggage is placed first: {} is not baggage", who()),
                    ));
                }
                StageCheck::Baggage
            }
            Stage::Plan => {
                if !d.ambushers.contains(&id) {
                    return Err(Refusal::new(
                        "CdB 14.3.3",
                        format!(
                            "now the corps' placement is written and ambushes set: set {} in ambush first (`ambush`), or place it with its corps later",
                            who()
                        ),
                    ));
                }
                StageCheck::Plan
            }
            Stage::Corps => {
                if kind(world, id) == Kind::Bag || d.ambushers.contains(&id) {
                    return Err(Refusal::new(
                        "CdB 14.3.4",
                        format!("{} is already set up (baggage or ambush)", who()),
                    ));
                }
                let corps = unit(world, id).corps as usize;
                match d.placing {
                    Some(c) if c != corps => {
                        return Err(Refusal::new(
                            "CdB 14.3.4",
                            format!(
                                "finish placing {} corps first (then `end`): {} belongs to another corps",
                                possessive(&state(world).corps[c].name),
                                who()
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => {
                        let eligible = corps_eligible(world, side);
                        if !eligible.contains(&corps) {
                            return Err(Refusal::new(
                                "CdB 14.3.4",
                                format!(
                                    "{} corps is placed or may not come yet: the first corps placed is the most numerous ({})",
                                    possessive(&state(world).corps[corps].name),
                                    corps_names(world, &eligible)
                                ),
                            ));
                        }
                    }
                }
                let main = !d.placed.iter().any(|c| state(world).corps[*c].side == side);
                let depth = match (main, side == d.attacker) {
                    (true, true) => dist.attacker_main,
                    (true, false) => dist.defender_main,
                    (false, _) => dist.other,
                };
                let plan = match &d.plan[side.0 as usize] {
                    None => Err(Refusal::new("CdB 14.3.3", "the placement is not written")),
                    Some(plan) => Ok(PlanKept {
                        plan,
                        at: plan.iter().position(|c| *c == corps),
                        // Every corps' size and extent from one pass over the units,
                        // once for all the hexes tried.
                        spreads: corps_spreads(world, id),
                    }),
                };
                StageCheck::Corps {
                    corps,
                    main,
                    depth,
                    plan,
                }
            }
        };
        Ok(Self {
            id,
            edge,
            dist,
            stage,
        })
    }

    /// The unit's placement at `hex`: the checks of the hex, in `check_place`'s order.
    pub fn hex(
        &self,
        world: &World,
        hex: HexCoord,
        facing: Option<VertexFacing>,
    ) -> Result<PlacePlan, Refusal> {
        let (id, edge, dist) = (self.id, self.edge, self.dist);
        let b = board(world);
        let facing = facing.unwrap_or_else(|| facing_towards_enemy(edge));
        match &self.stage {
            StageCheck::Baggage => {
                if from_edge(b, edge, hex) != 1 {
                    return Err(Refusal::new(
                        "CdB 14.3.2",
                        format!(
                            "baggage stands on a hex along its own ({}) map edge",
                            edge.name()
                        ),
                    ));
                }
            }
            StageCheck::Plan => check_ambush_hex(world, id, hex)?,
            StageCheck::Corps {
                corps,
                main,
                depth,
                plan,
            } => {
                let (main, depth) = (*main, *depth);
                if from_edge(b, edge, hex) > depth {
                    return Err(Refusal::new(
                        "CdB 14.3.4",
                        format!(
                            "{} stands within {depth} hexes of its {} map edge{}",
                            if main {
                                "the most numerous corps"
                            } else {
                                "a corps"
                            },
                            edge.name(),
                            if main {
                                ""
                            } else {
                                " (designer's choice: its own half of the map)"
                            }
                        ),
                    ));
                }
                let l = lateral(b, edge, hex);
                let len = lateral_len(b, edge);
                if l <= dist.side_margin || l > len - dist.side_margin {
                    return Err(Refusal::new(
                        "CdB 14.3.4",
                        format!(
                            "units stand more than {} hexes from the left and right map edges",
                            dist.side_margin
                        ),
                    ));
                }
                match plan {
                    Ok(kept) => check_plan_kept(world, dist, *corps, kept, l, len)?,
                    Err(refusal) => return Err(refusal.clone()),
                }
            }
        }
        check_room(world, id, hex, facing)?;
        Ok(PlacePlan {
            unit: id,
            hex,
            facing,
        })
    }
}

/// The written placement is followed (CdB 14.3.3): the corps stand side by side from
/// left to right in the written order, each one's units on its side of those of the
/// corps placed before, and room is left for the corps still to come. `l` is the hex's
/// line along the own edge, `len` the number of lines.
fn check_plan_kept(
    world: &World,
    dist: super::deployment::Distances,
    corps: usize,
    kept: &PlanKept,
    l: i32,
    len: i32,
) -> Result<(), Refusal> {
    let PlanKept { plan, at, spreads } = kept;
    let at = at.expect("planned");
    let corps_name = |c: usize| state(world).corps[c].name.clone();
    // The lines a corps not yet placed needs, `other` hexes deep at most.
    let lines = |c: usize| {
        let n = spreads[c].0;
        (n + dist.other - 1) / dist.other.max(1)
    };
    let mut left_bound = dist.side_margin;
    let mut right_bound = len - dist.side_margin + 1;
    let mut left_need = 0;
    let mut right_need = 0;
    let mut right_closed = false;
    for (j, other) in plan.iter().copied().enumerate() {
        if other == corps {
            continue;
        }
        match spreads[other].1 {
            Some((lo, hi)) if j < at => {
                if l < hi {
                    return Err(Refusal::new(
                        "CdB 14.3.3",
                        format!(
                            "your written placement puts {} corps on the left of {}: stand at or right of its line {hi}",
                            possessive(&corps_name(other)),
                            possessive(&corps_name(corps))
                        ),
                    ));
                }
                let _ = lo;
                left_bound = left_bound.max(hi);
                left_need = 0;
            }
            Some((lo, _)) => {
                if l > lo {
                    return Err(Refusal::new(
                        "CdB 14.3.3",
                        format!(
                            "your written placement puts {} corps on the right of {}: stand at or left of its line {lo}",
                            possessive(&corps_name(other)),
                            possessive(&corps_name(corps))
                        ),
                    ));
                }
                right_bound = right_bound.min(lo);
                right_closed = true;
            }
            None if j < at => left_need += lines(other),
            None if !right_closed => right_need += lines(other),
            None => {}
        }
    }
    if l - left_bound - 1 < left_need {
        return Err(Refusal::new(
            "CdB 14.3.3",
            format!(
                "leave room on your left for the corps your written placement puts there ({left_need} lines)"
            ),
        ));
    }
    if right_bound - l - 1 < right_need {
        return Err(Refusal::new(
            "CdB 14.3.3",
            format!(
                "leave room on your right for the corps your written placement puts there ({right_need} lines)"
            ),
        ));
    }
    Ok(())
}

/// Of every corps, by its index: how many units it places with it (`open_units`) and
/// the lateral extent (least, greatest) of those on the map, `except` one (`extent`),
/// all read in one pass over the units (CdB 14.3.3).
fn corps_spreads(world: &World, except: UnitId) -> Vec<(i32, Option<(i32, i32)>)> {
    let st = state(world);
    let b = board(world);
    let units = world.res::<crate::engine::units::Units>();
    let roster = world.get_resource::<CdbRoster>();
    let ambushers = st.deploy.as_ref().map(|d| &d.ambushers[..]).unwrap_or(&[]);
    let mut out: Vec<(i32, Option<(i32, i32)>)> = vec![(0, None); st.corps.len()];
    for u in units.ids() {
        let x = roster
            .and_then(|r| r.0.get(u.0 as usize).copied())
            .unwrap_or_else(|| unit(world, u));
        if x.p.kind == Kind::Bag || ambushers.contains(&u) {
            continue;
        }
        let c = x.corps as usize;
        let Some(spread) = out.get_mut(c) else {
            continue;
        };
        spread.0 += 1;
        if u == except {
            continue;
        }
        if let Some(h) = units.placement(u).hex() {
            let edge = st.edges[st.corps[c].side.0 as usize].expect("every CdB side has an edge");
            let l = lateral(b, edge, h);
            spread.1 = Some(match spread.1 {
                None => (l, l),
                Some((a, z)) => (a.min(l), z.max(l)),
            });
        }
    }
    out
}

/// Where a unit may lie in ambush (CdB 14.3.3): the defender's Psiloi in broken
/// terrain far enough from the enemy edge; any unit in woods or behind a wood or hill
/// in its own deployment area (revealed at once if the enemy sees it); a unit the
/// scenario sets in ambush, in its zone.
pub(crate) fn check_ambush_hex(world: &World, id: UnitId, hex: HexCoord) -> Result<(), Refusal> {
    let d = deployment(world)?;
    if ambush_ground(world, id, hex) {
        return Ok(());
    }
    if state(world).hidden_zones.iter().any(|(u, _)| *u == id) {
        return Err(Refusal::new(
            "CdB 14.3.3",
            format!(
                "{hex} is outside the ambush zone of {} (scenario rules)",
                name(world, id)
            ),
        ));
    }
    Err(Refusal::new(
        "CdB 14.3.3",
        format!(
            "an ambush lies within {} hexes of its own edge, or, for the defender's Psiloi, in broken terrain at least {} hexes from the enemy edge",
            d.distances.other, d.distances.psiloi_far
        ),
    ))
}

/// Whether `id` may lie in ambush at `hex` (CdB 14.3.3): in its zone where the
/// scenario gives one; else within the set-up's distance of its own edge, or, for the
/// defender's Psiloi, in broken terrain far enough from the enemy's. The test of
/// `check_ambush_hex` without the words of its refusal, for the computer opponent,
/// which asks it of every hex of the map.
pub(crate) fn ambush_ground(world: &World, id: UnitId, hex: HexCoord) -> bool {
    let Ok(d) = deployment(world) else {
        return false;
    };
    let st = state(world);
    if let Some((_, zone)) = st.hidden_zones.iter().find(|(u, _)| *u == id) {
        return zone.contains(hex);
    }
    let b = board(world);
    let side = side_of(world, id);
    let edge = own_edge(world, side);
    let psiloi_far = kind(world, id) == Kind::Ps
        && side != d.attacker
        && terrain_class(world, hex) == TerrainClass::Broken
        && from_edge(b, edge.opposite(), hex) >= d.distances.psiloi_far;
    psiloi_far || from_edge(b, edge, hex) <= d.distances.other
}

// ---- execution ----

pub fn execute_place(world: &mut World, plan: PlacePlan) {
    let PlacePlan {
        unit: id,
        hex,
        facing,
    } = plan;
    let from = hex_of(world, id);
    set_placement(world, id, Placement::OnMap(hex));
    let e = entity(world, id);
    world.entity_mut(e).insert(Facing(facing));
    zones_stale(world);
    // A unit turned where it stands keeps its rank; one joining a unit stands behind it.
    if from != Some(hex) {
        let rank = u8::from(stack_at(world, hex).iter().any(|u| *u != id));
        flags_mut(world, id).rank = rank;
    }
    // The rear rank left behind becomes the front.
    if let Some(old) = from.filter(|h| *h != hex) {
        for u in stack_at(world, old) {
            flags_mut(world, u).rank = 0;
        }
    }
    let d = deployment(world).expect("checked");
    let stage = d.stage;
    let hidden = d.ambushers.contains(&id);
    let unseen = stage == Stage::Corps && d.simultaneous;
    let placing = d.placing;
    if unseen {
        world.entity_mut(e).insert(Hidden);
    }
    if stage == Stage::Corps && placing.is_none() {
        let corps = unit(world, id).corps as usize;
        deployment_mut(world).placing = Some(corps);
    }
    if hidden || unseen {
        // Both players read the log: the hex is not named.
        log(world, EventKind::Placed, "CdB 14.3.3", |w| {
            format!("{} places a unit in secret", side_name(w, side_of(w, id)))
        });
    } else {
        // Baggage has no facing (CdB 6.1).
        log(world, EventKind::Placed, "CdB 14.3", |w| {
            if kind(w, id) == Kind::Bag {
                format!("{} placed", name(w, id))
            } else {
                format!("{} placed, facing {}", name(w, id), facing.name())
            }
        });
    }
}

//! The check of a march (CdB 5-9), split so that a search can extend a checked march
//! one step at a time: `begin` makes the checks made once per march, `point` one
//! movement point of every body, `finish` the checks of the whole march and its
//! action-point cost. `movement::check_march` runs them in a row; the window's move
//! options extend each checked path by one step instead of checking it from its start.

use crate::engine::cached::CachedWorld;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::{Refusal, UnitRef};
use crate::engine::game::GameOptions;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{Placement, SideId, UnitId, Units};

use super::command_points::{ActivationBase, ActivationFacts, available};
use super::commands::MarchStep;
use super::data::{Kind, Quality, Tables, TerrainClass};
use super::movement::{Body, MarchPlan, facing_name, movement_allowance};
use super::stacking::{group_shape, group_shape_with, may_pass_through, may_stack};
use super::*;

mod memo;

fn refuse<T>(rule: &'static str, msg: String) -> Result<T, Refusal> {
    Err(Refusal::new(rule, msg))
}

/// A unit's name as refusals give it, formatted only if a refusal is written.
struct Who<'w>(&'w World, UnitId);

impl std::fmt::Display for Who<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&name(self.0, self.1))
    }
}

/// (turned, MP unspent, ended beside an obstacle): what an activation's cost varies by
/// within one march's search.
type CostKey = (bool, bool, bool);

/// An activation's cost in PA and its lines (`activation_cost`), shared by the marches
/// of a search that cost the same.
pub(crate) type Cost = std::rc::Rc<(i32, Vec<String>)>;

/// What a march's checks read of the world, fetched once per march.
pub(crate) struct MarchCtx<'w> {
    world: &'w World,
    st: &'w CdbState,
    board: &'w Board,
    units: &'w Units,
    /// The units' profiles (`unit` without a resource look-up each time).
    roster: Option<&'w CdbRoster>,
    tables: Arc<Tables>,
    side: SideId,
    corps: usize,
    group: bool,
    all_skirmishers: bool,
    impulse: u8,
    unreliable: bool,
    /// The enemies' hexes, read when a distance to them is first asked.
    enemies: std::cell::OnceCell<Vec<HexCoord>>,
    /// What was worked out of each hex the march asked of (`memo::HexMemo`).
    memo: RefCell<memo::Memo>,
    /// The activation's cost by (turned, MP unspent, ended beside an obstacle).
    costs: RefCell<Vec<(CostKey, Cost)>>,
    /// What the activation's cost reads of the world whatever the march does.
    activation: std::cell::OnceCell<Rc<ActivationBase>>,
    have: std::cell::Cell<Option<i32>>,
    /// The march a unit could make in its side's next movement phase (the threat
    /// map): its first impulse, and its corps' PA not yet thrown.
    next_phase: bool,
}

/// A march checked up to movement point `k`.
#[derive(Clone, Debug)]
pub(crate) struct MarchState {
    pub bodies: Vec<Body>,
    pub k: usize,
    pub came_near: bool,
    pub ever_turned: bool,
}

impl MarchState {
    /// A copy with `step(i, body)` added to the steps of each body `i` it names, the
    /// lists made with room for the step and the hex it enters (a clone leaves none).
    pub(crate) fn extended(
        &self,
        mut step: impl FnMut(usize, &Body) -> Option<MarchStep>,
    ) -> MarchState {
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for (i, b) in self.bodies.iter().enumerate() {
            let mut steps = Vec::with_capacity(b.steps.len() + 1);
            steps.extend_from_slice(&b.steps);
            steps.extend(step(i, b));
            let mut path = Vec::with_capacity(b.path.len() + 1);
            path.extend_from_slice(&b.path);
            bodies.push(Body {
                units: b.units.clone(),
                start: b.start,
                start_facing: b.start_facing,
                hex: b.hex,
                facing: b.facing,
                steps,
                spent: b.spent,
                allowance: b.allowance,
                hexes: b.hexes,
                path,
                stopped: b.stopped,
                turned_vertices: b.turned_vertices,
                joins: b.joins,
                leaves: b.leaves,
                went_forward: b.went_forward,
                went_back: b.went_back,
            });
        }
        MarchState {
            bodies,
            k: self.k,
            came_near: self.came_near,
            ever_turned: self.ever_turned,
        }
    }
}

/// The checks made once per march: the phase, the units named, the group, impulses.
pub(crate) fn begin<'w>(
    world: &'w World,
    moves: &[(UnitRef, Vec<MarchStep>)],
) -> Result<(MarchCtx<'w>, MarchState), Refusal> {
    begin_for(world, moves, false)
}

/// `begin`, or with `next_phase` the march as the units' side's next movement phase
/// would check it, whatever the phase now: its first impulse, with no unit kept in
/// control or activated yet (CdB 4.2, 9.3, 12.3 count this turn's), and its corps' PA
/// left to the throw of that turn (`finish` does not weigh the cost). The threat map
/// reads it.
pub(crate) fn begin_for<'w>(
    world: &'w World,
    moves: &[(UnitRef, Vec<MarchStep>)],
    next_phase: bool,
) -> Result<(MarchCtx<'w>, MarchState), Refusal> {
    let st = state(world);
    if st.step != CdbPhase::Movement && !next_phase {
        return refuse("CdB 3", "units move in their movement phase".into());
    }
    if moves.is_empty() {
        return refuse("CdB 9", "name a unit to move".into());
    }
    let side = match (next_phase, moves.first()) {
        (true, Some((r, _))) => side_of(world, resolve(world, r)?),
        _ => sequence_side(world),
    };
    let options = world.resource::<GameOptions>();
    let mut bodies: Vec<Body> = Vec::new();
    for (r, steps) in moves {
        let id = resolve(world, r)?;
        let Some(h) = hex_of(world, id) else {
            return refuse("CdB 9", format!("{} is not on the map", name(world, id)));
        };
        if side_of(world, id) != side {
            return refuse(
                "CdB 9",
                format!("{} is not a unit of the side to move", name(world, id)),
            );
        }
        let stack = stack_at(world, h);
        let (units, leaves) = match r {
            UnitRef::Key(_) if stack.len() > 1 => {
                let other = *stack.iter().find(|u| **u != id).expect("two units");
                (vec![id], Some(other))
            }
            _ => (stack.clone(), None),
        };
        if bodies
            .iter()
            .any(|b| b.units.iter().any(|u| units.contains(u)))
        {
            return refuse("CdB 9.4", format!("{} is named twice", name(world, id)));
        }
        for u in &units {
            if kind(world, *u) == Kind::Bag && !unit(world, *u).p.mobile {
                return refuse(
                    "CdB 2.4",
                    format!("{} is immobile baggage", name(world, *u)),
                );
            }
            if flags(world, *u).kept && !next_phase {
                return refuse(
                    "CdB 4.2",
                    format!("{} was kept in control this turn", name(world, *u)),
                );
            }
        }
        let mut allowance = units
            .iter()
            .map(|u| movement_allowance(world, *u))
            .min()
            .unwrap_or(0);
        // CdB 9.6: mounted units have 2 MP in difficult terrain at any time in their
        // move, starting there included.
        if units.iter().any(|u| kind(world, *u).is_mounted())
            && terrain_class(world, h) == TerrainClass::Difficult
        {
            allowance = allowance.min(2);
        }
        bodies.push(Body {
            units,
            start: h,
            start_facing: facing(world, id),
            hex: h,
            facing: facing(world, id),
            steps: steps.clone(),
            spent: 0,
            allowance,
            hexes: 0,
            path: Vec::new(),
            stopped: false,
            turned_vertices: 0,
            joins: None,
            leaves,
            went_forward: false,
            went_back: false,
        });
    }
    let corps = unit(world, bodies[0].units[0]).corps as usize;
    let all_units: Vec<UnitId> = bodies.iter().flat_map(|b| b.units.clone()).collect();
    if all_units
        .iter()
        .any(|u| unit(world, *u).corps as usize != corps)
    {
        return refuse("CdB 5.1", "a group is made of units of one corps".into());
    }
    let co = &st.corps[corps];
    if co.demoralised && bodies.len() > 1 {
        return refuse(
            "CdB 12.3",
            format!(
                "{} corps is demoralised: it may activate a single counter only",
                possessive(&co.name)
            ),
        );
    }
    // "activate a single counter" (CdB 12.3): one a turn; the stack it may be is one.
    if co.demoralised
        && !next_phase
        && let Some(other) = super::all_units(world).into_iter().find(|u| {
            unit(world, *u).corps as usize == corps
                && !all_units.contains(u)
                && flags(world, *u).impulses > 0
        })
    {
        return refuse(
            "CdB 12.3",
            format!(
                "{} corps is demoralised: it may activate a single counter a turn, and {} was activated",
                possessive(&co.name),
                name(world, other)
            ),
        );
    }
    let group = bodies.len() > 1;
    if group {
        for b in &bodies {
            if in_enemy_zoc(world, b.units[0]) {
                return refuse(
                    "CdB 5.1",
                    format!(
                        "{} is in an enemy zone of control: it cannot be part of a group",
                        name(world, b.units[0])
                    ),
                );
            }
        }
        let placed: Vec<_> = bodies
            .iter()
            .map(|b| (b.units[0], b.hex, b.facing))
            .collect();
        group_shape(world, &placed)?;
        // CdB 9.4: all units move with the MPs of the slowest.
        let slowest = bodies.iter().map(|b| b.allowance).min().unwrap_or(0);
        for b in &mut bodies {
            b.allowance = slowest;
        }
    }
    let all_skirmishers = all_units.iter().all(|u| kind(world, *u).is_skirmisher());
    let impulse = if next_phase {
        1
    } else {
        all_units
            .iter()
            .map(|u| flags(world, *u).impulses)
            .max()
            .unwrap_or(0)
            + 1
    };
    if impulse >= 2 {
        if co.demoralised {
            return refuse(
                "CdB 12.3",
                "a demoralised corps' unit moves once a turn, without further impulses".into(),
            );
        }
        let irregular = all_units.iter().any(|u| !unit(world, *u).p.regular);
        let light_or_regular = all_units.iter().all(|u| {
            let p = unit(world, *u).p;
            p.regular || p.kind.is_light()
        });
        if options.has("march_movement") && (irregular && !light_or_regular || impulse > 2) {
            return refuse("CdB optional rule", "march movement (option): regulars and light troops move twice a turn, irregulars once".into());
        }
        for u in &all_units {
            let f = flags(world, *u);
            if f.near_at_start || f.came_near {
                return refuse(
                    "CdB 9.3",
                    format!(
                        "{} was within four hexes of the enemy this turn: it moves once",
                        name(world, *u)
                    ),
                );
            }
        }
    }
    let unreliable = co.unreliable == Some(true);
    let board = world.res::<Board>();
    Ok((
        MarchCtx {
            world,
            st,
            board,
            units: world.res::<Units>(),
            roster: world.get_resource::<CdbRoster>(),
            tables: tables(world),
            side,
            corps,
            group,
            all_skirmishers,
            impulse,
            unreliable,
            enemies: std::cell::OnceCell::new(),
            memo: RefCell::new(memo::Memo::new(board.hex_count())),
            costs: RefCell::new(Vec::new()),
            activation: std::cell::OnceCell::new(),
            have: std::cell::Cell::new(None),
            next_phase,
        },
        MarchState {
            bodies,
            k: 0,
            came_near: false,
            ever_turned: false,
        },
    ))
}

impl MarchCtx<'_> {
    fn unit(&self, id: UnitId) -> CdbUnit {
        match self.roster {
            Some(r) if (id.0 as usize) < r.0.len() => r.0[id.0 as usize],
            _ => unit(self.world, id),
        }
    }

    fn kind(&self, id: UnitId) -> Kind {
        self.unit(id).p.kind
    }

    fn class(&self, hex: HexCoord) -> TerrainClass {
        match self.board.terrain(hex) {
            Some(t) => self
                .tables
                .terrain
                .terrain
                .get(t.0 as usize)
                .map_or(TerrainClass::Clear, |s| s.class),
            None => TerrainClass::Impassable,
        }
    }

    /// Movement point `s.k` of every body that has a step there; then `s.k` is the next.
    pub(crate) fn point(&self, s: &mut MarchState) -> Result<(), Refusal> {
        self.point_then(s, false)
    }

    /// `point`, with `more` as if the bodies had steps after their last: a hex passed
    /// through, not stopped in (the search checks a step once, before the next is known).
    pub(crate) fn point_then(&self, s: &mut MarchState, more: bool) -> Result<(), Refusal> {
        let (world, side, board, group, all_skirmishers, st, unreliable, impulse) = (
            self.world,
            self.side,
            self.board,
            self.group,
            self.all_skirmishers,
            self.st,
            self.unreliable,
            self.impulse,
        );
        let k = s.k;
        s.k += 1;
        let bodies = &mut s.bodies;
        // The group moves together (CdB 9.4), listed in any order: at each movement
        // point a body steps once no body yet to step holds the hex it enters.
        let mut to_step: Vec<usize> = (0..bodies.len()).collect();
        while !to_step.is_empty() {
            let next = to_step
                .iter()
                .position(|&bi| match bodies[bi].steps.get(k) {
                    Some(MarchStep::Hex(n)) => {
                        !to_step.iter().any(|&j| j != bi && bodies[j].hex == *n)
                    }
                    _ => true,
                })
                .unwrap_or(0);
            let bi = to_step.remove(next);
            let Some(step) = bodies[bi].steps.get(k).copied() else {
                continue;
            };
            let b = &bodies[bi];
            let lead = b.units[0];
            let who = Who(world, lead);
            if b.stopped {
                return refuse(
                    "CdB 7.1",
                    format!("{who} has stopped at {} and cannot go on", b.hex),
                );
            }
            let zoc_here = self.zoc_on(b.hex);
            match step {
                MarchStep::Turn(n) => {
                    if b.leaves.is_some() {
                        return refuse(
                            "CdB 8.1",
                            format!(
                                "{who} is stacked: a stack turns as one unit (name it by its hex); one rank alone only moves off"
                            ),
                        );
                    }
                    if !zoc_here.is_empty() {
                        return refuse(
                            "CdB 6.2",
                            format!(
                                "{who} is in an enemy zone of control at {}: it may not reface",
                                b.hex
                            ),
                        );
                    }
                    if n == 0 {
                        continue;
                    }
                    if b.went_back {
                        return refuse(
                            "CdB 9.2",
                            format!(
                                "{who} moves to the rear: it may not change facing in that movement"
                            ),
                        );
                    }
                    let skirmisher = b.units.iter().all(|u| self.kind(*u).is_skirmisher());
                    let vertices = n.unsigned_abs() as i32;
                    let cost = if n == 3 && skirmisher && !group {
                        1
                    } else {
                        vertices
                    };
                    if group && !skirmisher && b.turned_vertices + vertices > 1 {
                        return refuse(
                            "CdB 6.2",
                            format!("{who} moves in a group: it may turn one vertex per movement"),
                        );
                    }
                    if b.spent + cost > b.allowance {
                        return refuse(
                            "CdB 6.2",
                            format!(
                                "{who} has {} MP left; turning {vertices} vertex(es) costs {cost}",
                                (b.allowance - b.spent).max(0)
                            ),
                        );
                    }
                    let nb = &mut bodies[bi];
                    nb.facing = VertexFacing(((nb.facing.0 as i32 + n as i32).rem_euclid(6)) as u8);
                    nb.spent += cost;
                    nb.turned_vertices += vertices;
                    s.ever_turned = true;
                }
                MarchStep::Hex(n) => {
                    if !board.contains(n) {
                        return refuse("CdB 9", format!("{n} is off the map"));
                    }
                    if !b.hex.is_adjacent(n) {
                        return refuse("CdB 9.1", format!("{n} is not adjacent to {}", b.hex));
                    }
                    let forward = b.facing.front(b.hex).contains(&n);
                    let back = b.facing.rear(b.hex).contains(&n);
                    if !forward && !back {
                        return refuse(
                            "CdB 9.1",
                            format!(
                                "{who} faces {}: {n} is neither a frontal nor a rear hex",
                                facing_name(b.facing)
                            ),
                        );
                    }
                    if back && group && !all_skirmishers {
                        return refuse(
                            "CdB 9.2",
                            "only a single unit or a group of skirmishers moves to the rear".into(),
                        );
                    }
                    if back && b.turned_vertices > 0 {
                        return refuse(
                            "CdB 9.2",
                            format!(
                                "{who} has changed facing: a move to the rear is made without changing facing"
                            ),
                        );
                    }
                    if (back && b.went_forward) || (forward && b.went_back) {
                        return refuse(
                            "CdB 9.2",
                            format!("{who} may not move both forward and rearward in one movement"),
                        );
                    }
                    if let Some(other) = b.leaves {
                        let rank = flags(world, lead).rank;
                        if rank == 0 && !forward {
                            return refuse(
                                "CdB 8.1",
                                format!("{who} is the front rank: alone it may only advance"),
                            );
                        }
                        if rank == 1 && !back {
                            return refuse(
                                "CdB 8.1",
                                format!("{who} is the rear rank: alone it may only move back"),
                            );
                        }
                        let _ = other;
                    }
                    // Zones of control (CdB 7.2) when starting in one.
                    if b.hexes == 0 && !zoc_here.is_empty() {
                        if !back {
                            return refuse(
                                "CdB 7.2",
                                format!(
                                    "{who} starts in an enemy zone of control: it may leave it only by moving to the rear"
                                ),
                            );
                        }
                        let mp = b.allowance;
                        if let Some(e) = zoc_here.iter().find(|e| self.unit(**e).p.mp >= mp) {
                            return refuse(
                                "CdB 7.2",
                                format!(
                                    "{who} ({mp} MP) is not faster than {} which holds it in its zone",
                                    name(world, *e)
                                ),
                            );
                        }
                        let flank_or_rear: Vec<HexCoord> = b
                            .facing
                            .flank(b.hex)
                            .into_iter()
                            .chain(b.facing.rear(b.hex))
                            .collect();
                        if zoc_here
                            .iter()
                            .any(|e| hex_of(world, *e).is_some_and(|h| flank_or_rear.contains(&h)))
                        {
                            return refuse(
                                "CdB 7.2",
                                format!(
                                    "{who} is in the zone of an enemy on its flank or rear: it may not leave"
                                ),
                            );
                        }
                    }
                    let class = self.class(n);
                    if class == TerrainClass::Impassable {
                        return refuse("CdB 9.6", format!("{n} is impassable"));
                    }
                    let p0 = self.unit(lead).p;
                    let has_chariot = b.units.iter().any(|u| self.unit(*u).p.chariot);
                    if class == TerrainClass::Difficult && has_chariot {
                        return refuse(
                            "CdB 9.6",
                            format!("chariots may not enter difficult terrain ({n})"),
                        );
                    }
                    // CdB 9.6: "in broken terrain, off road chariots may only move unit by
                    // unit, not in a group" (the maps of CdB have no roads).
                    if class == TerrainClass::Broken && group && has_chariot {
                        return refuse(
                            "CdB 9.6",
                            format!(
                                "{who} is a chariot: in broken terrain ({n}) chariots move unit by unit, not in a group"
                            ),
                        );
                    }
                    let t = &self.tables;
                    let enters_wood = board
                        .terrain(n)
                        .and_then(|id| t.terrain.terrain.get(id.0 as usize))
                        .is_some_and(|s| s.enter_from_edge);
                    if enters_wood {
                        let wood = board.terrain(n);
                        let beside = b.start == n
                            || board.terrain(b.start) == wood
                            || b.start
                                .neighbors()
                                .into_iter()
                                .any(|x| board.terrain(x) == wood);
                        if !beside {
                            return refuse(
                                "CdB 1.2",
                                format!(
                                    "units entering the wood at {n} must begin their movement next to its edge"
                                ),
                            );
                        }
                    }
                    let mut allowance = b.allowance;
                    let mounted = b.units.iter().any(|u| self.kind(*u).is_mounted());
                    if class == TerrainClass::Difficult && mounted {
                        allowance = allowance.min(2);
                    }
                    let loses_one = matches!(p0.kind, Kind::LH | Kind::Cv)
                        || (p0.kind == Kind::Kn && p0.quality == Quality::F);
                    if class == TerrainClass::Broken
                        && loses_one
                        && !b
                            .path
                            .iter()
                            .any(|x| self.class(*x) == TerrainClass::Broken)
                    {
                        allowance -= 1;
                    }
                    let cost = if st.ditch.contains(&n) {
                        st.ditch_mp.max(1)
                    } else {
                        1
                    };
                    if b.spent + cost > allowance {
                        return refuse(
                            "CdB 9.6",
                            format!(
                                "{who} has {} MP left, {n} needs {cost}",
                                (allowance - b.spent).max(0)
                            ),
                        );
                    }
                    let near = self.nearest_enemy(n);
                    if unreliable && near <= 12 {
                        return refuse(
                            "CdB 4.3",
                            format!(
                                "{who} belongs to an unreliable allied corps: it may not move within 12 hexes of an enemy"
                            ),
                        );
                    }
                    if impulse >= 2 && near <= 4 {
                        return refuse(
                            "CdB 9.3",
                            format!(
                                "{n} is within four hexes of the enemy: no second march may go there"
                            ),
                        );
                    }
                    if near <= 4 {
                        s.came_near = true;
                    }
                    // Occupants of the hex entered.
                    let mut joins = None;
                    if (0..bodies.len()).any(|j| j != bi && bodies[j].hex == n) {
                        return refuse("CdB 9.4", format!("{n} would hold two units of the group"));
                    }
                    // Most hexes are empty: their stack is not sorted (`stack_at`).
                    let occupants: Vec<UnitId> = if self.units.at(board, n).is_empty() {
                        Vec::new()
                    } else {
                        stack_at(world, n)
                    };
                    let occupants: Vec<UnitId> = occupants
                        .into_iter()
                        .filter(|u| !bodies.iter().any(|x| x.units.contains(u)))
                        .filter(|u| placement(world, *u) != Placement::Eliminated)
                        .collect();
                    let remaining = more || b.steps.len() > k + 1;
                    if let Some(&occ) = occupants.first() {
                        if side_of(world, occ) != side {
                            if is_hidden(world, occ) {
                                return refuse("CdB 14.3", format!("{n} holds a unit in ambush"));
                            }
                            return refuse("CdB 8", format!("{n} holds an enemy unit"));
                        }
                        let occ_facing = facing(world, occ);
                        let from_rear = occ_facing.rear(n).contains(&b.hex);
                        let from_front = occ_facing.front(n).contains(&b.hex);
                        let can_join = occupants.len() == 1
                            && b.units.len() == 1
                            && occ_facing == b.facing
                            && may_stack(world, occ, lead);
                        if can_join && forward && from_rear && !remaining {
                            joins = Some((occ, 1));
                        } else if can_join && back && from_front && !remaining {
                            joins = Some((occ, 0));
                        } else if b.units.iter().all(|m| {
                            // A stack moves as one unit (CdB 8.1): each of its
                            // counters must be allowed through.
                            occupants
                                .iter()
                                .all(|o| may_pass_through(world, *m, *o, b.facing))
                        }) {
                            if !remaining {
                                return refuse(
                                    "CdB 8.2",
                                    format!("{who} may pass through {n} but not stop there"),
                                );
                            }
                        } else {
                            return refuse(
                                "CdB 8",
                                format!(
                                    "{n} is occupied by {} and {who} may neither stack with it nor pass through",
                                    name(world, occ)
                                ),
                            );
                        }
                    }
                    // Entering a zone of control (CdB 7.1).
                    let zoc_there = self.zoc_on(n);
                    if !zoc_there.is_empty() {
                        if b.hexes == 0 && !zoc_here.is_empty() {
                            return refuse(
                                "CdB 7.2",
                                format!(
                                    "{who} leaves an enemy zone of control: it may not move directly into another ({n})"
                                ),
                            );
                        }
                        let front_there = b.facing.front(n);
                        if let Some(e) = zoc_there
                            .iter()
                            .find(|e| hex_of(world, **e).is_some_and(|h| !front_there.contains(&h)))
                        {
                            return refuse(
                                "CdB 7.1",
                                format!(
                                    "{n} is in the zone of {}, which would be on the flank of {who}: a unit enters a zone only facing every unit that exerts it",
                                    name(world, *e)
                                ),
                            );
                        }
                        if remaining {
                            return refuse(
                                "CdB 7.1",
                                format!(
                                    "{who} must stop on entering the enemy zone of control at {n}"
                                ),
                            );
                        }
                    }
                    let nb = &mut bodies[bi];
                    nb.allowance = allowance;
                    nb.hex = n;
                    nb.spent += cost;
                    nb.hexes += 1;
                    nb.path.push(n);
                    nb.went_forward |= forward;
                    nb.went_back |= back;
                    if joins.is_some() {
                        nb.joins = joins;
                        nb.stopped = true;
                    }
                    if !zoc_there.is_empty() {
                        nb.stopped = true;
                    }
                }
            }
        }
        if group {
            let placed: Vec<_> = bodies
                .iter()
                .map(|b| (b.units[0], b.hex, b.facing))
                .collect();
            group_shape_with(world, &placed, |h| self.class(h)).map_err(|r| {
                Refusal::new(
                    r.rule,
                    format!("after movement point {}: {} (a unit may not be dropped off during the movement, CdB 9.4)", k + 1, r.reason),
                )
            })?;
        }
        Ok(())
    }

    /// The checks of the whole march once every step is made, and its cost (CdB 4.2).
    pub(crate) fn finish(&self, s: MarchState) -> Result<MarchPlan, Refusal> {
        let cost = self.weigh(&s)?;
        Ok(MarchPlan {
            corps: self.corps,
            bodies: s.bodies,
            cost: cost.0,
            cost_lines: cost.1.clone(),
            impulse: self.impulse,
            came_near: s.came_near,
        })
    }

    /// `finish`'s checks and the march's cost, the march left as it is.
    pub(crate) fn weigh(&self, s: &MarchState) -> Result<Cost, Refusal> {
        let (world, corps, impulse) = (self.world, self.corps, self.impulse);
        let co = &self.st.corps[corps];
        let bodies = &s.bodies;
        if let Some(b) = bodies.iter().find(|b| b.leaves.is_some() && b.hexes == 0) {
            return refuse(
                "CdB 8.1",
                format!(
                    "{} is stacked: alone it must leave the hex, or move with its stack (name the hex)",
                    name(world, b.units[0])
                ),
            );
        }
        if bodies.iter().all(|b| b.steps.is_empty()) {
            return refuse(
                "CdB 9",
                "give at least one step: a hex, cw, ccw or about".into(),
            );
        }
        let mp_unspent = bodies
            .iter()
            .any(|b| b.spent < b.allowance && b.units.iter().all(|u| self.kind(*u) != Kind::Ps));
        let ended_beside_obstacle = bodies.iter().any(|b| self.beside_obstacle(b.hex));
        let fronts = || -> Vec<UnitId> { bodies.iter().flat_map(|b| b.units.clone()).collect() };
        let key = (s.ever_turned, mp_unspent, ended_beside_obstacle);
        let cached = self
            .costs
            .borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, c)| c.clone());
        let cost = match cached {
            Some(c) => c,
            None => {
                let base = self
                    .activation
                    .get_or_init(|| Rc::new(ActivationBase::of(world, corps, &fronts())));
                let c: Cost = base
                    .cost(
                        world,
                        &fronts(),
                        ActivationFacts {
                            turned: s.ever_turned,
                            mp_unspent,
                            ended_beside_obstacle,
                            impulse,
                            keep: false,
                        },
                    )
                    .into();
                self.costs.borrow_mut().push((key, c.clone()));
                c
            }
        };
        let have = match self.have.get() {
            Some(h) => h,
            None => {
                let h = available(world, corps, &fronts());
                self.have.set(Some(h));
                h
            }
        };
        if cost.0 > have && !self.next_phase {
            return refuse(
                "CdB 4.2",
                format!(
                    "this movement costs {} PA ({}); {} corps has {have}",
                    cost.0,
                    cost.1.join(", "),
                    possessive(&co.name)
                ),
            );
        }
        Ok(cost)
    }
}

//! A stand's forward moves along hexes (CtB 3.0-3.10) checked step by step, for the
//! searches that try many paths: the window's move options and autoplay's advances and
//! compelled moves. `dispatch::check` checks each path again from its start with
//! `moving::check_go` and formats every refusal; here a path's state after each step
//! is kept and extended by one step, with the rules' own movement costs, zone-of-control
//! map, facings, `may_contact` and `impetuous::check_move`, and nothing formatted.
//! `tests/it/ctb_geometry.rs` holds the move options to those of the checks on many
//! positions, and the golden games hold autoplay to the same commands.

use crate::engine::cached::CachedWorld;
use std::sync::Arc;

use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{SideId, UnitId, Units};
use crate::engine::view::MoveOption;
use crate::engine::zoc::ZocMap;

use super::commands::{CtbCommand, Step};
use super::data::{Tables, TypeSpec};
use super::{CtbPhase, CtbRoster, CtbTurn, acts, facing, hex_of, key, phase, state, status, turn};

/// Paths longer than this are not extended by the window's search (as by checks).
const MAX_PATH: usize = 6;

/// Where a path of hexes has brought the stand, and what the move has left there.
#[derive(Clone, Copy)]
pub(crate) struct At {
    pub hex: HexCoord,
    hexes: u32,
    pub mp_left: u8,
    /// The move may go no further (contact, an enemy zone entered: CtB 3.5, R-contact).
    ended: bool,
    /// A friend stands in this hex that may not be passed through (CtB 3.9): no step
    /// on from here.
    friend_blocks: bool,
    /// The move may end here: no friend in the hex, or one it displaces (CtB 3.10).
    may_end: bool,
    contact: bool,
    /// Enemy skirmishers in the open alone in its front: the move may go on past them
    /// (CtB 10.6).
    passable: bool,
    /// It has pushed through or past skirmishers: it may end only in contact with a
    /// formed enemy (CtB 10.6).
    pushing: bool,
    /// A formed (not skirmishing) enemy in its front.
    formed: bool,
}

/// What entering a hex means whatever the path (the facing does not change on a path
/// of hexes): the stand in it, its enemies in front there, whether it lies in an enemy
/// zone of control.
#[derive(Clone, Copy)]
struct HexFacts {
    occupant: Option<UnitId>,
    front: Front,
    zoc: bool,
    /// Every enemy in front is skirmishers it may push through (CtB 10.6).
    front_pushable: bool,
    /// A formed enemy is in front.
    front_formed: bool,
}

/// Enemies in the front hexes: none, all of them contactable, or one not (CtB 10.0).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Front {
    Clear,
    Contact,
    Refused,
}

/// A stand about to move, with what `check_go` reads before its first step.
pub(crate) struct Mover<'w> {
    world: &'w World,
    id: UnitId,
    side: SideId,
    spec: &'w TypeSpec,
    units: &'w Units,
    roster: &'w CtbRoster,
    board: &'w Board,
    zocs: &'w ZocMap,
    tables: Arc<Tables>,
    start: HexCoord,
    mp: u8,
    face: VertexFacing,
    started_in_zoc: bool,
    /// Only a compelled stand's move is checked against its compulsion (CtB 9.1).
    compelled: bool,
    /// The nearest enemies compelling it, which a full move closes on (CtB 9.1).
    nearest: Vec<HexCoord>,
    /// What entering each hex means, by the hex's index: a table of the whole map for
    /// the window's search, a short list for a few paths (no map-sized allocation).
    facts: Vec<Option<HexFacts>>,
    few: Vec<(usize, HexFacts)>,
}

impl<'w> Mover<'w> {
    /// The stand `id` (a stand: the caller knows) about to make a move along hexes, or
    /// `None` where `dispatch::check` refuses every such move before its first step:
    /// the battle over, a decision waiting, not an activation, not a stand of the
    /// group moving now (`own_stand`), or `check_go`'s checks of the stand.
    pub(crate) fn new(world: &'w World, id: UnitId) -> Option<Self> {
        let t = turn(world);
        let st = state(world);
        if t.outcome.is_some() || phase(world) != CtbPhase::Activation || !st.pending.is_empty() {
            return None;
        }
        let me = world.resource::<CtbRoster>().stand(id)?;
        if world.res::<Units>().side(id) != t.active || Some(me.group) != st.activation {
            return None;
        }
        Self::for_turn(world, id, acts(world, id))
    }

    /// The stand `id` about to move with `a` its record of the activation so far
    /// (`new`'s checks but those of the phase and the group): `None` where `check_go`
    /// refuses every move. The threat map asks it with the record the stand's next
    /// activation begins with.
    pub(crate) fn for_turn(world: &'w World, id: UnitId, a: &CtbTurn) -> Option<Self> {
        let roster = world.resource::<CtbRoster>();
        let me = roster.stand(id)?;
        let units = world.res::<Units>();
        let side = units.side(id);
        let start = hex_of(world, id)?;
        if super::in_melee(world, id) {
            return None;
        }
        let resumed = a.resume.is_some();
        let spec = &me.spec;
        if a.stopped
            || (a.fired && !a.moving_after && !resumed)
            || (spec.no_move_and_fire && a.fired)
        {
            return None;
        }
        let extra = a.moves >= 1 && !resumed;
        if extra && status(world, id).disordered {
            return None;
        }
        let board = world.res::<Board>();
        let zocs = world.resource::<ZocMap>();
        let started_in_zoc = !spec.free && zocs.covered_by(board, side.other(), start);
        Some(Mover {
            world,
            id,
            side,
            spec,
            units,
            roster,
            board,
            zocs,
            tables: super::tables(world),
            start,
            mp: a
                .resume
                .unwrap_or_else(|| me.entry.mp_of_move(u32::from(a.moves) + 1)),
            face: facing(world, id),
            started_in_zoc,
            compelled: a.compelled.is_some() && !resumed,
            nearest: if a.compelled.is_some() && !resumed {
                super::impetuous::nearest_compelling_with(world, id, a)
            } else {
                Vec::new()
            },
            facts: Vec::new(),
            few: Vec::new(),
        })
    }

    /// Where every move begins.
    pub(crate) fn nearest(&self) -> &[HexCoord] {
        &self.nearest
    }

    pub(crate) fn start(&self) -> At {
        At {
            hex: self.start,
            hexes: 0,
            mp_left: self.mp,
            ended: false,
            friend_blocks: false,
            may_end: true,
            contact: false,
            passable: false,
            pushing: false,
            formed: false,
        }
    }

    fn stand_at(&self, h: HexCoord) -> Option<UnitId> {
        self.units
            .at(self.board, h)
            .iter()
            .copied()
            .find(|u| self.roster.stand(*u).is_some())
    }

    fn facts(&mut self, i: usize, h: HexCoord) -> HexFacts {
        if let Some(f) = self.facts.get(i).copied().flatten() {
            return f;
        }
        if let Some((_, f)) = self.few.iter().find(|(j, _)| *j == i) {
            return *f;
        }
        let mut front = Front::Clear;
        let (mut front_pushable, mut front_formed) = (true, false);
        for e in self
            .face
            .front(h)
            .into_iter()
            .filter_map(|x| self.stand_at(x))
        {
            if self.units.side(e) == self.side {
                continue;
            }
            if super::moving::may_contact(self.world, self.id, e, h, self.start).is_err() {
                front = Front::Refused;
                break;
            }
            front = Front::Contact;
            front_pushable &= super::pushing::pushable(self.world, self.id, e, h);
            front_formed |= !super::pushing::skirmishers(self.world, e);
        }
        let f = HexFacts {
            occupant: self.stand_at(h),
            front,
            zoc: self.zocs.covered_by(self.board, self.side.other(), h),
            front_pushable: front == Front::Contact && front_pushable,
            front_formed,
        };
        match self.facts.get_mut(i) {
            Some(slot) => *slot = Some(f),
            None => self.few.push((i, f)),
        }
        f
    }

    /// One more step, into `to`, after the path that brought the stand to `from`
    /// (`check_go`'s checks of a `Step::Hex`, that step then the last), or `None`
    /// where that path is refused whatever follows.
    pub(crate) fn step(&mut self, from: &At, to: HexCoord) -> Option<At> {
        if from.ended || from.friend_blocks {
            return None;
        }
        let dir = from.hex.direction_to(to)?;
        let i = self.board.index(to)?;
        let spec = self.spec;
        let terrain =
            super::movement::step_cost(&self.tables, self.board, spec.terrain, from.hex, to)?;
        let (backwards, cost) = if spec.free || self.face.front_dirs().contains(&dir) {
            (false, terrain)
        } else if self.face.flank_dirs().contains(&dir) {
            if self.facts(i, to).zoc {
                return None;
            }
            (false, terrain.max(spec.side))
        } else {
            (true, terrain.max(spec.back))
        };
        if cost > from.mp_left && !(from.mp_left == self.mp && from.hexes == 0) {
            return None;
        }
        let f = self.facts(i, to);
        let (mut may_end, mut friend_blocks) = (true, false);
        // Going on past skirmishers in its front is pushing past them (CtB 10.6).
        let mut pushing = from.pushing || from.passable;
        if let Some(other) = f.occupant.filter(|o| *o != self.id) {
            if self.units.side(other) != self.side {
                if !super::pushing::pushable(self.world, self.id, other, from.hex) {
                    return None;
                }
                pushing = true;
            } else {
                let them = self.roster.stand(other).expect("a stand");
                may_end = them.spec.displaced
                    && (spec.id != "Sk" || them.spec.id == "Sk")
                    && !super::in_melee(self.world, other);
                friend_blocks = !spec.through && !them.spec.through;
            }
        }
        if (self.started_in_zoc && !backwards && f.front == Front::Clear)
            || f.front == Front::Refused
        {
            return None;
        }
        let contact = f.front == Front::Contact;
        Some(At {
            hex: to,
            hexes: from.hexes + 1,
            mp_left: from.mp_left.saturating_sub(cost),
            ended: (contact && !f.front_pushable) || (!spec.free && f.zoc),
            friend_blocks,
            may_end,
            contact,
            passable: f.front_pushable,
            pushing,
            formed: f.front_formed,
        })
    }

    /// Whether the move along `path` (start excluded), which brought the stand to
    /// `at`, may end there: a friend it displaces at most, and a compelled stand's
    /// move closing on the enemy (the rules' own `impetuous::check_move` on the plan
    /// `check_go` makes: only its path, contact and resumption are read).
    pub(crate) fn may_end(&mut self, at: &At, path: &[HexCoord]) -> bool {
        if !self.may_end_short(at, path) {
            return false;
        }
        // A compelled stand's move is a full move towards the nearest enemy: it may not
        // end where it could go on one hex nearer (CtB 9.1, R-9.1; `check_go_as`).
        if !self.compelled || at.contact {
            return true;
        }
        let mut more = path.to_vec();
        for n in super::impetuous::nearer_steps(&self.nearest, at.hex, at.mp_left) {
            if let Some(next) = self.step(at, n) {
                more.push(n);
                let goes_on = self.may_end_short(&next, &more);
                more.pop();
                if goes_on {
                    return false;
                }
            }
        }
        true
    }

    /// `may_end` but for the full move a compelled stand owes.
    fn may_end_short(&self, at: &At, path: &[HexCoord]) -> bool {
        // A move that pushed through skirmishers ends on a formed enemy (CtB 10.6).
        if !at.may_end || (at.pushing && !(at.contact && at.formed)) {
            return false;
        }
        if !self.compelled {
            return true;
        }
        // `impetuous::check_move` of this move, from what the search already knows: the
        // nearest compelling enemies (none: nothing compels it now) and its facing,
        // which a move along hexes keeps.
        let contact = at.contact
            && !super::moving::enemies_in_front(self.world, self.side, at.hex, self.face)
                .is_empty();
        let end = path.last().copied().unwrap_or(self.start);
        self.nearest.is_empty()
            || contact
            || super::impetuous::closes_on(&self.nearest, (self.start, self.face), (end, self.face))
    }
}

/// The move options of a stand (`view::move_options`): breadth first from its hex,
/// each hex by the first accepted path that reaches it, every accepted path of fewer
/// than `MAX_PATH` hexes extended. `None` for a unit that is not a stand.
pub(crate) fn stand_options(world: &World, id: UnitId) -> Option<Vec<MoveOption>> {
    world.resource::<CtbRoster>().stand(id)?;
    let Some(mut mover) = Mover::new(world, id) else {
        return Some(Vec::new());
    };
    let unit = key(world, id);
    let mp = mover.mp;
    Some(
        ends(&mut mover)
            .into_iter()
            .map(|(at, path)| MoveOption {
                hex: at.hex,
                cost: i32::from(mp - at.mp_left),
                left: i32::from(at.mp_left),
                per_mp: 1,
                note: String::new(),
                command: CtbCommand::Go {
                    unit: unit.clone(),
                    steps: path.iter().map(|h| Step::Hex(*h)).collect(),
                    facing: None,
                }
                .command(),
                path,
            })
            .collect(),
    )
}

/// Every hex the mover may end a move along hexes in, with where the move leaves it
/// and its path (start excluded): breadth first from its hex, each hex by the first
/// accepted path that reaches it, every accepted path of fewer than `MAX_PATH` hexes
/// extended. The move options and the threat map both read it.
pub(crate) fn ends(mover: &mut Mover) -> Vec<(At, Vec<HexCoord>)> {
    let mut out = Vec::new();
    let board = mover.board;
    mover.facts = vec![None; board.hex_count()];
    let mut seen = vec![false; board.hex_count()];
    if let Some(i) = board.index(mover.start) {
        seen[i] = true;
    }
    // Accepted paths as a tree, in the order found: (where, parent, hexes).
    let mut nodes: Vec<(At, usize)> = vec![(mover.start(), usize::MAX)];
    let mut next = 0;
    while next < nodes.len() {
        let (from, _) = nodes[next];
        let parent = next;
        next += 1;
        if from.hexes as usize >= MAX_PATH {
            continue;
        }
        for to in from.hex.neighbors() {
            if board.index(to).is_none_or(|i| seen[i]) {
                continue;
            }
            let Some(at) = mover.step(&from, to) else {
                continue;
            };
            let mut path = vec![to];
            let mut up = parent;
            while up != 0 {
                path.push(nodes[up].0.hex);
                up = nodes[up].1;
            }
            path.reverse();
            if !mover.may_end(&at, &path) {
                continue;
            }
            if let Some(i) = board.index(to) {
                seen[i] = true;
            }
            out.push((at, path));
            nodes.push((at, parent));
        }
    }
    out
}

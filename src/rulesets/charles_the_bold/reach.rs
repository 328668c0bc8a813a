//! The reach of one stand (CtB 3.0-3.10) searched incrementally for the window's move
//! options: the same breadth-first search as `view::move_options_by_checks`, which
//! checks every path again from its start with `moving::check_go` and formats each
//! refusal, but here each path extends its parent's state by one step, with the same
//! movement costs, zones of control, facings and contact rules, and nothing formatted.
//! `tests/it/ctb_geometry.rs` holds both to the same options on many positions.

use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{SideId, UnitId, Units};
use crate::engine::view::MoveOption;
use crate::engine::zoc::ZocMap;

use super::commands::{CtbCommand, Step};
use super::moving::MovePlan;
use super::{CtbRoster, CtbStand, acts, facing, hex_of, key, state, status, turn};

/// Paths longer than this are not extended (as the search by checks).
const MAX_PATH: usize = 6;

/// A path accepted: where it ends and what the move has left there.
struct Node {
    hex: HexCoord,
    parent: usize,
    len: usize,
    mp_left: u8,
    /// The move may go no further (contact, an enemy zone entered: CtB 3.5, R-contact).
    ended: bool,
    /// A friend stands in the last hex: passing on needs one of the two to pass
    /// through (CtB 3.9).
    friend_blocks: bool,
    contact: bool,
}

/// What entering a hex means whatever the path (the stand's facing does not change on
/// a path of hexes): the stand in it, its enemies in front there, and whether it lies
/// in an enemy zone of control.
#[derive(Clone, Copy)]
struct HexFacts {
    occupant: Option<UnitId>,
    /// Enemies in the front hexes at this hex: none, all contactable, or one refused.
    front: Front,
    zoc: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Front {
    Clear,
    Contact,
    Refused,
}

/// The options of a stand the search covers, or `None` where it does not (a general,
/// a unit of no checked move): the caller searches by checks then.
pub(crate) fn stand_options(world: &World, id: UnitId) -> Option<Vec<MoveOption>> {
    let roster = world.resource::<CtbRoster>();
    let me: &CtbStand = roster.stand(id)?;
    let mut out = Vec::new();
    // `dispatch::check`: the battle over, then `own_stand` (CtB 1.4).
    let t = turn(world);
    if t.outcome.is_some() || super::phase(world) == super::CtbPhase::GameOver {
        return Some(out);
    }
    let units = world.resource::<Units>();
    let side = units.side(id);
    if side != t.active || Some(me.group) != state(world).activation {
        return Some(out);
    }
    // `moving::check_go`, the checks before the first step.
    let Some(start) = hex_of(world, id) else {
        return Some(out);
    };
    if super::in_melee(world, id) {
        return Some(out);
    }
    let a = acts(world, id);
    let resumed = a.resume.is_some();
    let spec = &me.spec;
    if a.stopped || (a.fired && !a.moving_after && !resumed) || (spec.no_move_and_fire && a.fired) {
        return Some(out);
    }
    let extra = a.moves >= 1 && !resumed;
    if extra && status(world, id).disordered {
        return Some(out);
    }
    let tables = super::tables(world);
    let board = world.resource::<Board>();
    let zocs = world.resource::<ZocMap>();
    let in_zoc = |h: HexCoord| zocs.covered_by(board, side.other(), h);
    let mp = a
        .resume
        .unwrap_or_else(|| me.entry.mp_of_move(u32::from(a.moves) + 1));
    let face = facing(world, id);
    let started_in_zoc = !spec.free && in_zoc(start);
    // Only a compelled stand's move is checked against its compulsion (CtB 9.1).
    let compelled = a.compelled.is_some() && !resumed;

    let stand_at = |h: HexCoord| {
        units
            .at(board, h)
            .iter()
            .copied()
            .find(|u| roster.stand(*u).is_some())
    };
    let mut facts: Vec<Option<HexFacts>> = vec![None; board.hex_count()];
    let mut facts_of = |i: usize, h: HexCoord| -> HexFacts {
        if let Some(f) = facts[i] {
            return f;
        }
        let mut front = Front::Clear;
        for e in face.front(h).into_iter().filter_map(stand_at) {
            if units.side(e) == side {
                continue;
            }
            if super::moving::may_contact(world, id, e).is_err() {
                front = Front::Refused;
                break;
            }
            front = Front::Contact;
        }
        let f = HexFacts {
            occupant: stand_at(h),
            front,
            zoc: in_zoc(h),
        };
        facts[i] = Some(f);
        f
    };
    let mut seen = vec![false; board.hex_count()];
    if let Some(i) = board.index(start) {
        seen[i] = true;
    }
    let mut nodes = vec![Node {
        hex: start,
        parent: usize::MAX,
        len: 0,
        mp_left: mp,
        ended: false,
        friend_blocks: false,
        contact: false,
    }];
    let unit = key(world, id);
    let mut next = 0;
    while next < nodes.len() {
        let at = next;
        next += 1;
        let (pos, len, mp_left) = (nodes[at].hex, nodes[at].len, nodes[at].mp_left);
        if len >= MAX_PATH {
            continue;
        }
        // Every step on from here is refused: the move has ended, or the friend in the
        // last hex may be neither displaced nor passed through now that it is not last.
        if nodes[at].ended || nodes[at].friend_blocks {
            continue;
        }
        for (dir, to) in pos.neighbors().into_iter().enumerate() {
            let Some(i) = board.index(to) else {
                continue;
            };
            if seen[i] {
                continue;
            }
            let Some(terrain) = super::movement::step_cost(&tables, board, spec.terrain, pos, to)
            else {
                continue;
            };
            let (backwards, cost) = if spec.free || face.front_dirs().contains(&dir) {
                (false, terrain)
            } else if face.flank_dirs().contains(&dir) {
                if facts_of(i, to).zoc {
                    continue;
                }
                (false, terrain.max(spec.side))
            } else {
                (true, terrain.max(spec.back))
            };
            if cost > mp_left && !(mp_left == mp && len == 0) {
                continue;
            }
            let f = facts_of(i, to);
            let mut friend_blocks = false;
            if let Some(other) = f.occupant.filter(|o| *o != id) {
                if units.side(other) != side {
                    continue;
                }
                let them = roster.stand(other).expect("a stand");
                let may = them.spec.displaced
                    && (spec.id != "Sk" || them.spec.id == "Sk")
                    && !super::in_melee(world, other);
                if !may {
                    continue;
                }
                friend_blocks = !spec.through && !them.spec.through;
            }
            if started_in_zoc && !backwards && f.front == Front::Clear {
                continue;
            }
            if f.front == Front::Refused {
                continue;
            }
            let contact = f.front == Front::Contact;
            let node = Node {
                hex: to,
                parent: at,
                len: len + 1,
                mp_left: mp_left.saturating_sub(cost),
                ended: contact || (!spec.free && f.zoc),
                friend_blocks,
                contact,
            };
            let path = path_of(&nodes, at, to);
            if compelled && !closes(world, id, side, &path, face, &node) {
                continue;
            }
            seen[i] = true;
            out.push(MoveOption {
                hex: to,
                cost: i32::from(mp - node.mp_left),
                left: i32::from(node.mp_left),
                per_mp: 1,
                note: String::new(),
                command: CtbCommand::Go {
                    unit: unit.clone(),
                    steps: path.iter().map(|h| Step::Hex(*h)).collect(),
                    facing: None,
                }
                .command(),
                path,
            });
            nodes.push(node);
        }
    }
    Some(out)
}

/// The hexes of the path to `at`'s node and then `to`, start excluded.
fn path_of(nodes: &[Node], mut at: usize, to: HexCoord) -> Vec<HexCoord> {
    let mut path = vec![to];
    while at != 0 {
        path.push(nodes[at].hex);
        at = nodes[at].parent;
    }
    path.reverse();
    path
}

/// Whether a compelled stand's move along `path` meets its compulsion: the rules' own
/// `impetuous::check_move` on the plan `check_go` would make (only its path, contact
/// and resumption are read).
fn closes(
    world: &World,
    id: UnitId,
    side: SideId,
    path: &[HexCoord],
    face: VertexFacing,
    node: &Node,
) -> bool {
    let end = *path.last().expect("a step at least");
    let plan = MovePlan {
        stand: id,
        path: path.iter().map(|h| (*h, face)).collect(),
        extra: false,
        second_face: false,
        whole_move: false,
        hexes: path.len() as u32,
        contact: if node.contact {
            super::moving::enemies_in_front(world, side, end, face)
        } else {
            Vec::new()
        },
        mp_left: node.mp_left,
        spent: 0,
        resumed: false,
        displaced: None,
        impetus_charge: false,
    };
    super::impetuous::check_move(world, id, &plan).is_ok()
}

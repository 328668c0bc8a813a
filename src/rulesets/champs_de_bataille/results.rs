//! Applying combat results (CdB 11.6–11.9): recoil and push-back (11.6), destruction
//! with the rear unit (11.7), flight (11.8) and the impetuous advance after combat
//! (11.9), and the decisions they leave pending: the hex to recoil into, the rear unit
//! lost.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::board::MapEdge;
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{Placement, UnitId};

use super::data::Kind;
use super::*;

/// An impetuous winner's advance into the hex its enemy left (CdB 11.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advance {
    pub unit: UnitId,
    pub into: HexCoord,
}

/// One way a unit may recoil (CdB 11.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RecoilOption {
    /// The rear hex it recoils into first.
    pub first: HexCoord,
    /// The hex it ends in (beyond friends it passes through).
    pub end: HexCoord,
    /// The friend it stacks with there as its support.
    pub joins: Option<UnitId>,
    /// The friend it pushes back first, which recoils by the normal rules.
    pub pushes: Option<UnitId>,
}

/// Where a unit may recoil (CdB 11.6): into an empty rear hex, through friends of its
/// facing it may pass, onto a friend it may stack with, or pushing back a friend of
/// its facing (not elephants) or Psiloi not in an enemy zone, who recoil in turn.
pub(crate) fn recoil_options(world: &World, u: UnitId) -> Vec<RecoilOption> {
    recoil_options_at(world, u, 0, None)
}

/// `pusher`: the hex and facing of the unit pushing this one back. The pushed unit
/// goes into one of the two hexes beyond it, away from the pusher: the pusher's rear
/// directions (CdB 11.6: Psiloi of any facing are displaced "into one of the two
/// hexes opposite to the recoiling unit"; a friend of the same facing has the same
/// rear). It never recoils into the pusher's hex (two Psiloi facing each other would
/// otherwise push each other for ever).
fn recoil_options_at(
    world: &World,
    u: UnitId,
    depth: u32,
    pusher: Option<(HexCoord, VertexFacing)>,
) -> Vec<RecoilOption> {
    let Some(h) = hex_of(world, u) else {
        return Vec::new();
    };
    let f = facing(world, u);
    let rear_facing = pusher.map_or(f, |(_, pf)| pf);
    let side = side_of(world, u);
    let stack = stack_of(world, u);
    let board = world.res::<Board>();
    let mut out = Vec::new();
    for (i, r) in rear_facing.rear(h).into_iter().enumerate() {
        if Some(r) == pusher.map(|(p, _)| p) {
            continue;
        }
        let dir = rear_facing.rear_dirs()[i];
        let mut at = r;
        let mut joins = None;
        let mut pushes = None;
        let ok = loop {
            // Never into an impassable hex or a fortification (CdB 11.6).
            if !board.contains(at)
                || terrain_class(world, at) == data::TerrainClass::Impassable
                || fortified(world, at)
            {
                break false;
            }
            let occ = stack_at(world, at);
            if occ.is_empty() {
                break true;
            }
            if occ.iter().any(|o| side_of(world, *o) != side) {
                break false;
            }
            let same_facing = occ.iter().all(|o| facing(world, *o) == f);
            if same_facing
                && occ.len() == 1
                && stack.len() == 1
                && at == r
                && stacking::may_stack(world, u, occ[0])
            {
                joins = Some(occ[0]);
                break true;
            }
            // A stack recoils as one unit (CdB 8.1): each counter must be allowed
            // through.
            if same_facing
                && stack.iter().all(|m| {
                    occ.iter()
                        .all(|o| stacking::may_pass_through(world, *m, *o, f))
                })
            {
                at = at.neighbor(dir);
                continue;
            }
            // Pushing back (CdB 11.6): a friend of the same facing that is not an
            // elephant, or Psiloi of any facing outside an enemy zone of control.
            let front = occ[0];
            let psiloi = kind(world, front) == Kind::Ps && !in_enemy_zoc(world, front);
            let pushable = at == r
                && depth < 4
                && ((same_facing && kind(world, front) != Kind::El) || psiloi)
                && !recoil_options_at(world, front, depth + 1, Some((h, f))).is_empty();
            if pushable {
                pushes = Some(front);
                break true;
            }
            break false;
        };
        if ok {
            out.push(RecoilOption {
                first: r,
                end: at,
                joins,
                pushes,
            });
        }
    }
    out
}

pub(super) fn start_recoil(
    world: &mut World,
    u: UnitId,
    flee: bool,
    missile: bool,
    advance: Option<Advance>,
) {
    let opts = recoil_options(world, u);
    match opts.len() {
        0 => {
            log(world, EventKind::CombatResult, "CdB 11.6", |w| {
                format!("{} cannot recoil: destroyed", name(w, u))
            });
            enemy_rear_loss_or_destroy(world, u, missile, advance);
        }
        1 => {
            recoil_to(world, u, opts[0], 0);
            finish_recoil(world, u, flee, advance);
        }
        _ => {
            world
                .resource_mut::<CdbState>()
                .pending
                .set(Pending::Recoil {
                    unit: u,
                    options: opts.iter().map(|o| o.first).collect(),
                    flee,
                    advance,
                });
        }
    }
}

/// A unit that cannot recoil because both rear hexes hold enemy units showing it a
/// flank or rear destroys one of them too (CdB 11.7), else it is destroyed alone.
fn enemy_rear_loss_or_destroy(
    world: &mut World,
    u: UnitId,
    missile: bool,
    advance: Option<Advance>,
) {
    let h = hex_of(world, u).expect("on the map");
    let side = side_of(world, u);
    let rears: Vec<Option<UnitId>> = facing(world, u)
        .rear(h)
        .into_iter()
        .map(|r| enemy_at(world, side, r))
        .collect();
    let exposed = |world: &World, x: UnitId| {
        let xh = hex_of(world, x).expect("on the map");
        let xf = facing(world, x);
        xf.flank(xh).contains(&h) || xf.rear(xh).contains(&h)
    };
    let both_exposed = match rears[..] {
        [Some(x), Some(y)] => exposed(world, x) && exposed(world, y),
        _ => false,
    };
    let rear_hexes: Vec<Option<HexCoord>> = rears
        .iter()
        .map(|r| r.and_then(|x| hex_of(world, x)))
        .collect();
    destroy(world, u, missile, advance);
    // Both still where they stood: an elephant's fall may have moved one already.
    let unmoved = rears
        .iter()
        .zip(&rear_hexes)
        .all(|(r, at)| r.and_then(|x| hex_of(world, x)) == *at);
    if let [Some(x), Some(y)] = rears[..]
        && both_exposed
        && unmoved
    {
        let mut st = world.resource_mut::<CdbState>();
        match st.pending.front_mut() {
            None => st.pending.set(Pending::RearLoss {
                side,
                options: vec![x, y],
                effect: RearEffect::Destroyed,
                advance: None,
            }),
            // A fallen elephant's rear units: one is destroyed, the other recoils or
            // flees (both paragraphs of 11.7 apply, "in addition").
            Some(Pending::RearLoss {
                effect: effect @ RearEffect::RecoilsOrFlees,
                options,
                ..
            }) if options.len() == 2 => *effect = RearEffect::DestroyedAndOtherRecoilsOrFlees,
            _ => {}
        }
    }
}

/// Recoils a unit by one of its options, pushing back first when it must.
pub(crate) fn recoil_unit(world: &mut World, u: UnitId, opt: RecoilOption) {
    recoil_to(world, u, opt, 0);
}

fn recoil_to(world: &mut World, u: UnitId, opt: RecoilOption, depth: u32) {
    refresh_zoc(world);
    if let Some(pushed) = opt.pushes
        && let Some(first) = recoil_options_at(
            world,
            pushed,
            depth + 1,
            hex_of(world, u).map(|p| (p, facing(world, u))),
        )
        .first()
        .copied()
    {
        log(world, EventKind::Displaced, "CdB 11.6", |w| {
            format!("{} pushes back {}", name(w, u), name(w, pushed))
        });
        recoil_to(world, pushed, first, depth + 1);
        // A unit displaced by an elephant flees (CdB 11.6).
        if kind(world, u) == Kind::El {
            flight(world, pushed);
        }
    }
    let (end, joined) = (opt.end, opt.joins);
    let stack = stack_of(world, u);
    let from = hex_of(world, u);
    // Friends an elephant recoils through flee (CdB 11.6): those between its first
    // rear hex and the hex it stops in.
    let mut crossed: Vec<UnitId> = Vec::new();
    if kind(world, u) == Kind::El
        && let Some(start) = from
    {
        let dir = (0..6).find(|d| start.neighbor(*d) == opt.first);
        let mut h = opt.first;
        while let Some(d) = dir
            && h != end
        {
            if let Some(front) = front_at(world, h)
                && !stack.contains(&front)
            {
                crossed.push(front);
            }
            h = h.neighbor(d);
        }
    }
    for x in &stack {
        set_placement(world, *x, Placement::OnMap(end));
    }
    if let Some(j) = joined {
        flags_mut(world, u).rank = 0;
        flags_mut(world, j).rank = 1;
    }
    log(world, EventKind::Retreated, "CdB 11.6", |w| {
        let n = w
            .get_cached::<crate::engine::units::UnitName>(entity(w, u))
            .map(|n| n.name.clone())
            .unwrap_or_default();
        format!(
            "{n} recoils from {} to {end}",
            from.map(|h| h.label()).unwrap_or_default()
        )
    });
    flee_crossed(world, crossed);
}

fn finish_recoil(world: &mut World, u: UnitId, flee: bool, advance: Option<Advance>) {
    refresh_zoc(world);
    if flee {
        flight(world, u);
    }
    if let Some(adv) = advance {
        do_advance(world, adv);
    }
}

pub(crate) fn decide_recoil(world: &mut World, hex: HexCoord) {
    refresh_zoc(world);
    let Some(Pending::Recoil {
        unit: u,
        flee,
        advance,
        ..
    }) = world.resource_mut::<CdbState>().pending.pop_front()
    else {
        return;
    };
    let opt = recoil_options(world, u)
        .into_iter()
        .find(|o| o.first == hex)
        .expect("checked");
    recoil_to(world, u, opt, 0);
    finish_recoil(world, u, flee, advance);
}

pub(crate) fn decide_rear_loss(world: &mut World, victim: UnitId) {
    let Some(Pending::RearLoss {
        options,
        effect,
        advance,
        ..
    }) = world.resource_mut::<CdbState>().pending.pop_front()
    else {
        return;
    };
    if effect == RearEffect::RecoilsOrFlees {
        recoil_or_flee_behind_elephant(world, victim, advance);
        return;
    }
    for x in stack_of(world, victim) {
        eliminate(
            world,
            x,
            "CdB 11.7",
            "destroyed with the unit in front of it",
        );
    }
    if effect == RearEffect::DestroyedAndOtherRecoilsOrFlees
        && let Some(other) = options.into_iter().find(|o| *o != victim)
        && hex_of(world, other).is_some()
    {
        recoil_or_flee_behind_elephant(world, other, advance);
        return;
    }
    if let Some(adv) = advance {
        do_advance(world, adv);
    }
}

/// An enemy unit behind a destroyed elephant recoils if on foot, flees if mounted
/// (CdB 11.7, last paragraph); one that cannot recoil is destroyed (11.6).
fn recoil_or_flee_behind_elephant(world: &mut World, x: UnitId, advance: Option<Advance>) {
    refresh_zoc(world);
    let flee = kind(world, x).is_mounted();
    log(world, EventKind::CombatResult, "CdB 11.7", |w| {
        format!(
            "{} is behind the fallen elephant: it {}",
            name(w, x),
            if flee { "flees" } else { "recoils" }
        )
    });
    start_recoil(world, x, flee, false, advance);
}

/// Destroys a unit and its stack (CdB 8.1, 11.7), then one of two friendly units in
/// its rear hexes, at the winner's choice.
pub(super) fn destroy(world: &mut World, u: UnitId, missile: bool, advance: Option<Advance>) {
    let h = hex_of(world, u).expect("on the map");
    let f = facing(world, u);
    let side = side_of(world, u);
    let lp = unit(world, u).p;
    for x in stack_of(world, u) {
        eliminate(world, x, "CdB 11.7", "destroyed in combat");
    }
    let rears: Vec<Option<UnitId>> = f.rear(h).into_iter().map(|r| front_at(world, r)).collect();
    // An elephant destroyed by shooting or melee with enemy units in both rear hexes,
    // whatever their facing: one of them, foot or mounted, recoils or flees, at the
    // choice of the elephant's player (CdB 11.7, last paragraph; baggage is neither).
    if lp.kind == Kind::El
        && let [Some(x), Some(y)] = rears[..]
        && side_of(world, x) != side
        && side_of(world, y) != side
    {
        let options: Vec<UnitId> = [x, y]
            .into_iter()
            .filter(|r| kind(world, *r) != Kind::Bag)
            .collect();
        match options[..] {
            [] => {}
            [only] => return recoil_or_flee_behind_elephant(world, only, advance),
            _ => {
                world
                    .resource_mut::<CdbState>()
                    .pending
                    .set(Pending::RearLoss {
                        side,
                        options,
                        effect: RearEffect::RecoilsOrFlees,
                        advance,
                    });
                return;
            }
        }
    }
    let mut candidates = Vec::new();
    if let [Some(x), Some(y)] = rears[..]
        && side_of(world, x) == side
        && side_of(world, y) == side
        && lp.kind != Kind::Bag
        && (!missile || lp.kind == Kind::El)
        && !f.rear(h).into_iter().any(|r| fortified(world, r))
    {
        for r in [x, y] {
            let rk = kind(world, r);
            if rk == Kind::Bag {
                candidates.clear();
                break;
            }
            if lp.kind != Kind::Ps || rk == Kind::Ps {
                candidates.push(r);
            }
        }
        if kind(world, x) == Kind::Bag || kind(world, y) == Kind::Bag {
            candidates.clear();
        }
    }
    match candidates.len() {
        0 => {
            if let Some(adv) = advance {
                do_advance(world, adv);
            }
        }
        1 => {
            for x in stack_of(world, candidates[0]) {
                eliminate(
                    world,
                    x,
                    "CdB 11.7",
                    "destroyed with the unit in front of it",
                );
            }
            if let Some(adv) = advance {
                do_advance(world, adv);
            }
        }
        _ => {
            world
                .resource_mut::<CdbState>()
                .pending
                .set(Pending::RearLoss {
                    side: side.other(),
                    options: candidates,
                    effect: RearEffect::Destroyed,
                    advance,
                });
        }
    }
}

/// The impetuous winner moves into the vacated hex with its stack, without refacing
/// (CdB 11.9).
fn do_advance(world: &mut World, adv: Advance) {
    let Some(from) = hex_of(world, adv.unit) else {
        return;
    };
    if !stack_at(world, adv.into).is_empty() || !world.res::<Board>().contains(adv.into) {
        return;
    }
    for x in stack_of(world, adv.unit) {
        set_placement(world, x, Placement::OnMap(adv.into));
    }
    let into = adv.into;
    log(world, EventKind::Advanced, "CdB 11.9", |w| {
        format!(
            "{} is impetuous: it advances from {from} to {into}",
            name(w, adv.unit)
        )
    });
}

/// The facing towards a map edge (CdB 11.8).
pub(crate) fn facing_to_edge(edge: MapEdge) -> VertexFacing {
    match edge {
        MapEdge::West => VertexFacing(4),
        MapEdge::East => VertexFacing(1),
        MapEdge::North => VertexFacing(0),
        MapEdge::South => VertexFacing(3),
    }
}

/// Flight (CdB 11.8): faced towards its map edge, the unit moves its full allowance,
/// turning at most one vertex per hex round enemies and impassable hexes, bursting
/// through friends; off the map it is lost.
pub(crate) fn flight(world: &mut World, u: UnitId) {
    refresh_zoc(world);
    let Some(mut at) = hex_of(world, u) else {
        return;
    };
    let side = side_of(world, u);
    let Some(edge) = state(world).edges[side.0 as usize] else {
        return;
    };
    let base = facing_to_edge(edge);
    let stack = stack_of(world, u);
    for x in &stack {
        set_facing(world, *x, base);
    }
    let mp = stack
        .iter()
        .map(|x| unit(world, *x).p.mp)
        .min()
        .unwrap_or(0);
    let board = world.res::<Board>().clone();
    let blocked = |w: &World, h: HexCoord| {
        board.contains(h)
            && (terrain_class(w, h) == data::TerrainClass::Impassable
                || stack_at(w, h).iter().any(|o| side_of(w, *o) != side))
    };
    // Friends the fleeing unit may pass through, or none there: such a hex is taken
    // before one that holds a friend it would burst through (CdB 11.8 "nor avoided").
    let passable = |w: &World, h: HexCoord, carried: &[UnitId]| {
        stack_at(w, h)
            .iter()
            .filter(|o| !stack.contains(o) && !carried.contains(o))
            .all(|o| {
                stack
                    .iter()
                    .all(|m| stacking::may_pass_through(w, *m, *o, base))
            })
    };
    let start = at;
    let mut path = Vec::new();
    let mut carried: Vec<UnitId> = Vec::new();
    let mut crossed: Vec<UnitId> = Vec::new();
    let mut left = mp;
    let start_row = at.row;
    let mut off_map = false;
    let others_at = |w: &World, h: HexCoord, carried: &[UnitId]| {
        stack_at(w, h)
            .into_iter()
            .filter(|o| !stack.contains(o) && !carried.contains(o))
            .collect::<Vec<_>>()
    };
    // It never stops on another unit's hex, not even one it carries along.
    while left > 0 || !others_at(world, at, &[]).is_empty() {
        let mut choices: Vec<HexCoord> = base.front(at).to_vec();
        choices.sort_by_key(|h| (h.row - start_row).abs());
        let turned: Vec<HexCoord> = [1i32, -1]
            .into_iter()
            .map(|d| VertexFacing(((base.0 as i32 + d).rem_euclid(6)) as u8))
            .flat_map(|f| f.front(at))
            .collect();
        let open = |h: &HexCoord| {
            !blocked(world, *h) && (!board.contains(*h) || passable(world, *h, &carried))
        };
        let next = choices
            .iter()
            .copied()
            .find(open)
            .or_else(|| choices.iter().copied().find(|h| !blocked(world, *h)))
            .or_else(|| turned.iter().copied().find(open))
            .or_else(|| turned.iter().copied().find(|h| !blocked(world, *h)));
        let Some(next) = next else {
            for x in &stack {
                eliminate(world, *x, "CdB 11.8", "its flight is blocked");
            }
            return;
        };
        if !board.contains(next) {
            off_map = true;
            break;
        }
        // A friend that can be neither passed through nor avoided is burst through:
        // it goes along behind the fleeing unit for the rest of the flight.
        if passable(world, next, &carried) {
            // Friends an elephant flees through flee too (CdB 11.6).
            if kind(world, u) == Kind::El {
                for o in others_at(world, next, &carried) {
                    if !crossed.contains(&o) {
                        crossed.push(o);
                    }
                }
            }
        } else {
            for o in others_at(world, next, &carried) {
                carried.push(o);
                log(world, EventKind::Displaced, "CdB 11.8", |w| {
                    format!(
                        "{} is burst through and carried along in the flight",
                        name(w, o)
                    )
                });
            }
        }
        at = next;
        path.push(next);
        left -= 1;
        if path.len() > 64 {
            break;
        }
    }
    if off_map {
        for x in &stack {
            eliminate(
                world,
                *x,
                "CdB 11.8",
                "it flees off the map and counts as a loss",
            );
        }
        // Those carried along stand on its last hex, on the edge.
        carry_behind(world, &carried, vec![at], base);
        flee_crossed(world, crossed);
        return;
    }
    for x in &stack {
        set_placement(world, *x, Placement::OnMap(at));
    }
    log(world, EventKind::Retreated, "CdB 11.8", |w| {
        format!(
            "{} flees towards its map edge through {}",
            name(w, u),
            path.iter().map(|h| h.label()).collect::<Vec<_>>().join(" ")
        )
    });
    let came_from = path.iter().rev().nth(1).copied().or(Some(start));
    carry_behind(world, &carried, rear_spots(at, base, came_from), base);
    flee_crossed(world, crossed);
}

/// Units an elephant went through flee in turn (CdB 11.6), the front rank of each
/// stack taking its stack along.
fn flee_crossed(world: &mut World, crossed: Vec<UnitId>) {
    for c in crossed {
        if hex_of(world, c).is_none() {
            continue;
        }
        log(world, EventKind::Displaced, "CdB 11.6", |w| {
            format!("{} is crossed by an elephant and flees", name(w, c))
        });
        flight(world, c);
    }
}

/// Units burst through by a flight stand to the rear of the fleeing unit, with its
/// facing (CdB 11.8): in the hex it came from if that is one of its rear hexes, else
/// the other; a second stack burst through takes the other rear hex. With nowhere to
/// stand they stay where they were. A unit that fled off the map leaves those it
/// carried on its last hex.
fn carry_behind(world: &mut World, carried: &[UnitId], spots: Vec<HexCoord>, facing: VertexFacing) {
    if carried.is_empty() {
        return;
    }
    let board = world.res::<Board>().clone();
    // The carried units by the stack they came from.
    let mut stacks: Vec<Vec<UnitId>> = Vec::new();
    for c in carried {
        let h = hex_of(world, *c);
        match stacks.iter_mut().find(|s| hex_of(world, s[0]) == h) {
            Some(s) => s.push(*c),
            None => stacks.push(vec![*c]),
        }
    }
    let mut spots = spots.into_iter();
    for group in stacks {
        let free = |w: &World, h: HexCoord| {
            board.contains(h)
                && terrain_class(w, h) != data::TerrainClass::Impassable
                && stack_at(w, h).iter().all(|o| group.contains(o))
        };
        let Some(to) = spots.by_ref().find(|h| free(world, *h)) else {
            log(world, EventKind::Displaced, "CdB 11.8", |w| {
                format!(
                    "{} cannot stand behind the fleeing unit and stays where it was",
                    group
                        .iter()
                        .map(|c| name(w, *c))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
            continue;
        };
        for c in &group {
            set_placement(world, *c, Placement::OnMap(to));
            set_facing(world, *c, facing);
        }
        log(world, EventKind::Displaced, "CdB 11.8", |w| {
            format!(
                "{} ends the flight behind it in {to}, facing its map edge",
                group
                    .iter()
                    .map(|c| name(w, *c))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
    }
}

/// The rear hexes of a unit at `at`, the one it came from first.
fn rear_spots(at: HexCoord, facing: VertexFacing, came_from: Option<HexCoord>) -> Vec<HexCoord> {
    let mut rear: Vec<HexCoord> = facing.rear(at).to_vec();
    rear.sort_by_key(|h| Some(*h) != came_from);
    rear
}

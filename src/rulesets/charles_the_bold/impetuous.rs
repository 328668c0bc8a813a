//! Impetuous stands (CtB 9.0-9.3, R-9.1, R-9.2, R-9.3): which stands of the moving
//! group are compelled at the start of its activation, the check that a compelled
//! stand's every move closes on the enemy that compels it, the `end` refused while a
//! poorly trained one has neither moved at it nor tested for opportunity, the Order
//! Test for opportunity itself, and the moves and fights that comply (for autoplay).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::command::{Command, Refusal};
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{UnitId, Units};

use super::commands::{CtbCommand, Step};
use super::data::Impetus;
use super::geometry::{centre, facing_axis, in_fire_arc, in_front};
use super::moving::MovePlan;
use super::{CtbStatus, CtbTurn};
use super::{
    acts, acts_mut, facing, group_stands, hex_of, key, log, plain_name, ranks, side_of, stand,
    stands_of, status, status_mut, tables,
};

/// Whether a stand is impetuous now (CtB 9.0): its list says so, and it has not lost
/// half of its starting SP over all its ranks (CtB 9.3, R-9.3).
pub fn impetus(world: &World, id: UnitId) -> Option<Impetus> {
    let s = stand(world, id)?;
    let imp = s.entry.imp?;
    let start: u32 = s.sp0.iter().map(|x| u32::from(*x)).sum();
    let now = u32::from(ranks(world, id).total());
    let ends = tables(world).orders.impetuous.ends_at_half_sp;
    if ends && 2 * (start - now.min(start)) >= start {
        return None;
    }
    Some(imp)
}

/// The enemy stands that compel an impetuous stand where it stands now (CtB 9.1-9.3):
/// within 5H in its front (poorly trained) or 3H in its front 2H arc, the fire arc
/// through its two front hexes (steady, R-9.2); seen past terrain and stands (no
/// overhead sight); never skirmishers, nor cavalry for impetuous foot (CtB 9.3).
pub fn compelling(world: &World, id: UnitId) -> Vec<UnitId> {
    let (Some(imp), Some(me), Some(at)) = (impetus(world, id), stand(world, id), hex_of(world, id))
    else {
        return Vec::new();
    };
    let zones = tables(world).orders.impetuous;
    let f = facing(world, id);
    // A stand defending a creek or river (one along both its front hexsides) does not
    // cross it to attack; nor does one behind field defences along both leave them to
    // attack (CtB 9.3, R-9.3).
    let board = world.res::<crate::engine::board::Board>();
    let defending = f.front(at).iter().all(|h| {
        let side = board.hexside(at, *h);
        side.has(crate::engine::board::HexsideFeature::Stream)
            || side.has(crate::engine::board::HexsideFeature::River)
    });
    if defending || super::defences::defends_field_defences(board, at, f) {
        return Vec::new();
    }
    stands_of(world, side_of(world, id).other())
        .into_iter()
        .filter(|e| {
            let (Some(h), Some(them)) = (hex_of(world, *e), stand(world, *e)) else {
                return false;
            };
            let d = at.distance(h);
            let placed = match imp {
                Impetus::Poor => d <= zones.poor_zone && in_front(at, f, h),
                Impetus::Steady => d <= zones.steady_zone && in_fire_arc(at, f, h),
            };
            placed
                && them.spec.id != "Sk"
                && (me.spec.mounted || !them.spec.mounted)
                && super::shooting::sees(world, at, h, false)
        })
        .collect()
}

/// At the start of a group's activation (CtB 9.1, 9.2): each impetuous stand not on
/// opportunity nor in an ongoing melee with enemies that compel it is marked, with them.
pub fn mark_compelled(world: &mut World, group: usize) {
    for id in group_stands(world, group) {
        let Some((imp, enemies)) = compelled_now(world, id) else {
            continue;
        };
        let mut t = acts_mut(world, id);
        t.compelled = imp;
        t.compelling = enemies;
    }
}

/// How a stand would be compelled if its activation began now, and by which enemies
/// (CtB 9.1, 9.2): not on opportunity nor in an ongoing melee, with enemies that compel
/// it (`mark_compelled` marks it so; the threat map reads it for the stand's next
/// activation).
pub(crate) fn compelled_now(world: &World, id: UnitId) -> Option<(Option<Impetus>, Vec<UnitId>)> {
    if status(world, id).opportunity || super::in_melee(world, id) {
        return None;
    }
    let enemies = compelling(world, id);
    (!enemies.is_empty()).then(|| (impetus(world, id), enemies))
}

/// The section of a stand's compulsion.
fn rule_of(imp: Impetus) -> &'static str {
    match imp {
        Impetus::Poor => "CtB 9.1",
        Impetus::Steady => "CtB 9.2",
    }
}

/// The compulsion in force on a stand now: its kind and the enemies still on the map
/// that compel it; none once it passed a test for opportunity or is no longer
/// impetuous (CtB 9.3).
fn in_force(world: &World, id: UnitId) -> Option<(Impetus, Vec<UnitId>)> {
    // Asked for every stand of the group at every autoplay step and every hex of a
    // compelled stand's search: the unit index fetched once.
    let units = world.res::<Units>();
    let t = world.get::<CtbTurn>(units.entity(id)).expect("a stand");
    in_force_with(world, id, t)
}

/// `in_force` with `t` the stand's record of its activation.
fn in_force_with(world: &World, id: UnitId, t: &CtbTurn) -> Option<(Impetus, Vec<UnitId>)> {
    let units = world.res::<Units>();
    let e = units.entity(id);
    let imp = t.compelled?;
    if t.released
        || world.get::<CtbStatus>(e).expect("a stand").opportunity
        || impetus(world, id).is_none()
    {
        return None;
    }
    let enemies: Vec<UnitId> = t
        .compelling
        .iter()
        .copied()
        .filter(|e| units.placement(*e).hex().is_some())
        .collect();
    (!enemies.is_empty()).then_some((imp, enemies))
}

/// How squarely `to` lies ahead of a stand in `at` facing `f`: the cosine of the angle
/// between its facing and the line to `to`.
fn squareness(at: HexCoord, f: VertexFacing, to: HexCoord) -> f64 {
    let (ax, ay) = facing_axis(f);
    let (cx, cy) = centre(at);
    let (hx, hy) = centre(to);
    let (dx, dy) = (hx - cx, hy - cy);
    let len = (dx * dx + dy * dy).sqrt();
    if len == 0.0 {
        return 1.0;
    }
    (dx * ax + dy * ay) / len
}

/// The nearest of the enemies that compel a stand, counted from where it stands now.
fn nearest_hexes(world: &World, id: UnitId, enemies: &[UnitId]) -> Vec<HexCoord> {
    let Some(start) = hex_of(world, id) else {
        return Vec::new();
    };
    let hexes: Vec<HexCoord> = enemies.iter().filter_map(|e| hex_of(world, *e)).collect();
    let Some(near) = hexes.iter().map(|h| start.distance(*h)).min() else {
        return Vec::new();
    };
    hexes
        .into_iter()
        .filter(|h| start.distance(*h) == near)
        .collect()
}

/// The hexes one step beyond `end` that go on towards the nearest enemy compelling the
/// stand, for a compelled move that ends there without contact with `mp_left` MP left:
/// if the stand may enter one of them the move was not "a full move towards the
/// nearest enemy" (CtB 9.1, 9.2, R-9.1). Empty when nothing compels it.
pub fn further_steps(world: &World, id: UnitId, end: HexCoord, mp_left: u8) -> Vec<HexCoord> {
    if mp_left == 0 {
        return Vec::new();
    }
    nearer_steps(&nearest_compelling(world, id), end, mp_left)
}

/// The hexes of the nearest enemies compelling a stand now (none when nothing does):
/// what `further_steps` measures from, for searches that ask it at every hex.
pub(crate) fn nearest_compelling(world: &World, id: UnitId) -> Vec<HexCoord> {
    nearest_compelling_with(world, id, acts(world, id))
}

/// `nearest_compelling` with `t` the stand's record of its activation.
pub(crate) fn nearest_compelling_with(world: &World, id: UnitId, t: &CtbTurn) -> Vec<HexCoord> {
    in_force_with(world, id, t)
        .map_or_else(Vec::new, |(_, enemies)| nearest_hexes(world, id, &enemies))
}

/// `further_steps` from the nearest hexes already found.
pub(crate) fn nearer_steps(nearest: &[HexCoord], end: HexCoord, mp_left: u8) -> Vec<HexCoord> {
    if mp_left == 0 {
        return Vec::new();
    }
    let gap = |h: HexCoord| nearest.iter().map(|n| h.distance(*n)).min();
    let Some(now) = gap(end) else {
        return Vec::new();
    };
    end.neighbors()
        .into_iter()
        .filter(|n| gap(*n).is_some_and(|g| g < now))
        .collect()
}

/// The refusal of a compelled move that stops short (CtB 9.1, 9.2, R-9.1).
pub fn short_of_a_full_move(world: &World, id: UnitId, further: HexCoord) -> Refusal {
    let rule = acts(world, id).compelled.map_or("CtB 9.1", rule_of);
    Refusal::new(
        rule,
        format!(
            "{} is impetuous: it moves a full move towards the nearest enemy, and could go on to {further}",
            plain_name(world, id)
        ),
    )
}

/// Whether a move of a compelled stand goes at the enemy (CtB 9.1, R-9.1): it makes
/// contact, or ends nearer one of the nearest enemies that compel it, or, turning in
/// place, faces one of them more squarely ("turn towards the nearest enemy as soon as
/// possible").
fn closes(world: &World, id: UnitId, enemies: &[UnitId], plan: &MovePlan) -> bool {
    if !plan.contact.is_empty() {
        return true;
    }
    let Some(start) = hex_of(world, id) else {
        return true;
    };
    let (end, end_facing) = plan
        .path
        .last()
        .copied()
        .unwrap_or((start, facing(world, id)));
    let nearest = nearest_hexes(world, id, enemies);
    closes_on(&nearest, (start, facing(world, id)), (end, end_facing))
}

/// Whether a move from `start` to `end` (each a hex and a facing) closes on the
/// nearest compelling enemies in `nearest` (CtB 9.1): it ends nearer one, or, having
/// stayed in its hex, turned more squarely towards one; true when none compels.
pub(crate) fn closes_on(
    nearest: &[HexCoord],
    start: (HexCoord, VertexFacing),
    end: (HexCoord, VertexFacing),
) -> bool {
    let Some(near) = nearest.first().map(|h| start.0.distance(*h)) else {
        return true;
    };
    if nearest.iter().any(|h| end.0.distance(*h) < near) {
        return true;
    }
    end.0 == start.0
        && nearest
            .iter()
            .any(|h| squareness(end.0, end.1, *h) > squareness(start.0, start.1, *h) + 1e-9)
}

/// Checks a move of a stand against its compulsion (CtB 9.1, 9.2): a compelled stand
/// that moves at all moves at the enemy.
pub fn check_move(world: &World, id: UnitId, plan: &MovePlan) -> Result<(), Refusal> {
    if plan.resumed {
        return Ok(());
    }
    let Some((imp, enemies)) = in_force(world, id) else {
        return Ok(());
    };
    if closes(world, id, &enemies, plan) {
        return Ok(());
    }
    let names: Vec<String> = enemies.iter().map(|e| plain_name(world, *e)).collect();
    let alt = match imp {
        Impetus::Poor => "or test for opportunity",
        Impetus::Steady => "or stay completely still",
    };
    Err(Refusal::new(
        rule_of(imp),
        format!(
            "{} is impetuous and began within reach of {}: if it moves it must move at the nearest (closer, turning towards it, or into contact), {alt}",
            plain_name(world, id),
            names.join(", ")
        ),
    ))
}

/// A compelled stand has moved at the enemy or fought (CtB 9.1).
pub fn closed(world: &mut World, id: UnitId) {
    if acts(world, id).compelled.is_some() {
        acts_mut(world, id).closed = true;
    }
}

/// How many complying commands autoplay is offered for a stand: enough to choose among,
/// without searching every full move of a 4-MP stand in every direction each time.
const OFFERED: usize = 12;

/// The complying commands, at most `limit` of them (1: whether there is one).
fn complying(world: &World, id: UnitId, limit: usize) -> Vec<Command> {
    if in_force(world, id).is_none() {
        return Vec::new();
    }
    let Some(at) = hex_of(world, id) else {
        return Vec::new();
    };
    let u = key(world, id);
    let mut out = Vec::new();
    let side = side_of(world, id);
    for e in super::moving::enemies_in_front(world, side, at, facing(world, id)) {
        let c = CtbCommand::Fight {
            unit: u.clone(),
            enemy: key(world, e),
            with: Vec::new(),
        }
        .command();
        if super::dispatch::check(world, &c).is_ok() {
            out.push(c);
            if out.len() >= limit {
                return out;
            }
        }
    }
    let go = |steps: Vec<Step>| {
        CtbCommand::Go {
            unit: u.clone(),
            steps,
            facing: None,
        }
        .command()
    };
    for turn in [Step::Cw, Step::Ccw] {
        let c = go(vec![turn]);
        if super::dispatch::check(world, &c).is_ok() {
            out.push(c);
            if out.len() >= limit {
                return out;
            }
        }
    }
    // A compelled stand's move is checked to close on the enemy (`check_move`); the
    // steps along hexes by `reach::Mover`, as `dispatch::check` would, and a command
    // made only for a legal move.
    let Some(mut mover) = super::reach::Mover::new(world, id) else {
        return out;
    };
    let start = mover.start();
    let mut path = Vec::new();
    complying_paths(
        &mut mover,
        &start,
        &mut path,
        &mut |hexes: &[HexCoord]| {
            out.push(go(hexes.iter().copied().map(Step::Hex).collect()));
            out.len() < limit
        },
    );
    out
}

/// The hex paths of a compelled stand's move that `dispatch::check` would accept, by
/// depth: any first two steps (a sidestep may open the way), then only steps that
/// bring it nearer the enemy (a full move towards it, CtB 9.1, R-9.1); `found` is
/// given each and says whether to go on looking.
fn complying_paths(
    mover: &mut super::reach::Mover,
    at: &super::reach::At,
    path: &mut Vec<HexCoord>,
    found: &mut dyn FnMut(&[HexCoord]) -> bool,
) -> bool {
    const DEEPEST: usize = 6;
    let nearer = if path.len() >= 2 {
        Some(nearer_steps(mover.nearest(), at.hex, at.mp_left))
    } else {
        None
    };
    for n in at.hex.neighbors() {
        if path.contains(&n) || nearer.as_ref().is_some_and(|ns| !ns.contains(&n)) {
            continue;
        }
        let Some(next) = mover.step(at, n) else {
            continue;
        };
        path.push(n);
        let go_on = (!mover.may_end(&next, path) || found(path))
            && (path.len() >= DEEPEST || complying_paths(mover, &next, path, found));
        path.pop();
        if !go_on {
            return false;
        }
    }
    true
}

/// The poorly trained impetuous stands of the moving group that still owe their charge
/// (CtB 9.1): compelled, neither moved at the enemy nor on opportunity, and able to.
pub fn owing(world: &World) -> Vec<UnitId> {
    may_owe(world)
        .into_iter()
        .filter(|id| !complying(world, *id, 1).is_empty())
        .collect()
}

/// The stands that owe their charge (`owing`), each with its complying commands (at
/// most `OFFERED`): for autoplay, which needs both and would otherwise search each
/// owing stand's moves twice.
pub fn owing_commands(world: &World) -> Vec<(UnitId, Vec<Command>)> {
    may_owe(world)
        .into_iter()
        .map(|id| (id, complying(world, id, OFFERED)))
        .filter(|(_, commands)| !commands.is_empty())
        .collect()
}

/// The stands of the moving group that owe their charge if a complying move is open.
fn may_owe(world: &World) -> Vec<UnitId> {
    let Some(group) = super::state(world).activation else {
        return Vec::new();
    };
    group_stands(world, group)
        .into_iter()
        .filter(|id| {
            matches!(in_force(world, *id), Some((Impetus::Poor, _)))
                && !acts(world, *id).closed
                && !super::in_melee(world, *id)
        })
        .collect()
}

/// `end` is refused while a poorly trained impetuous stand owes its charge (CtB 9.1).
pub fn check_end(world: &World) -> Result<(), Refusal> {
    let owing = owing(world);
    if owing.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = owing.iter().map(|u| plain_name(world, *u)).collect();
    Err(Refusal::new(
        "CtB 9.1",
        format!(
            "{} {} impetuous within 5H of a visible enemy in front: {} must move at the nearest, or take an Order Test for opportunity (`opportunity STAND`), before the activation ends",
            names.join(", "),
            if names.len() == 1 { "is" } else { "are" },
            if names.len() == 1 { "it" } else { "each" }
        ),
    ))
}

/// Checks an Order Test for opportunity (CtB 5.0, 9.1): the stand's first action, not
/// disordered (it rallies first), not in a melee, not on opportunity already.
pub fn check_opportunity(world: &World, id: UnitId) -> Result<(), Refusal> {
    let name = plain_name(world, id);
    let refuse = |why: String| Err(Refusal::new("CtB 5.0", why));
    if status(world, id).opportunity {
        return refuse(format!("{name} is on opportunity already"));
    }
    if status(world, id).disordered {
        return refuse(format!(
            "{name} is disordered: it rallies first (CtB 9.1), then tests for opportunity"
        ));
    }
    if super::shooting::in_close_combat(world, id) {
        return refuse(format!("{name} is in close combat"));
    }
    let t = acts(world, id);
    super::orders::not_after_failed_rally(world, t, id)?;
    if t.moves > 0 || t.fired || t.stopped || t.fought || t.opportunity_tested {
        return refuse(format!(
            "{name} has acted this activation: the test for opportunity is its first action"
        ));
    }
    Ok(())
}

/// The Order Test for opportunity (CtB 5.0): passed, the stand is on opportunity (and an
/// impetuous one is no longer compelled: CtB 9.1); failed, nothing happens, but an
/// impetuous stand compelled must then advance.
pub fn go_on_opportunity(world: &mut World, id: UnitId) {
    let passed = super::orders::order_test_in_game(world, id, "CtB 5.0");
    acts_mut(world, id).opportunity_tested = true;
    let compelled = acts(world, id).compelled.is_some();
    if passed {
        status_mut(world, id).opportunity = true;
        acts_mut(world, id).released = true;
    }
    log(
        world,
        EventKind::Special,
        if compelled { "CtB 9.1" } else { "CtB 5.0" },
        |w| {
            let name = plain_name(w, id);
            match (passed, compelled) {
                (true, _) => format!("{name} goes on opportunity"),
                (false, true) => format!(
                    "{name} fails its test for opportunity: impetuous, it must advance at the enemy"
                ),
                (false, false) => format!("{name} fails its test for opportunity"),
            }
        },
    );
}

/// Whether an impetuous stand's second move that ends in contact goes without an
/// Order Test (CtB 9.1, R-3.3): undisordered, impetuous still.
pub fn untested_second_move(world: &World, id: UnitId, contact: bool) -> bool {
    contact
        && acts(world, id).moves == 1
        && !status(world, id).disordered
        && impetus(world, id).is_some()
}

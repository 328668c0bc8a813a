//! Fire in the game (CtB 6.0, 6.1, 6.4, 7.0-7.4): the check of a shooter and its target
//! (its turn's orders, arc, range, sight, melees), the pool of each rank, the throw,
//! and the target's Morale Test with its SP loss and disorder.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::data::FireArc;
use super::fire::{FireSituation, fire_pool};
use super::geometry::{SightGround, in_corridor, in_fire_arc, sight};
use super::pool::Pool;
use super::{acts, acts_mut, facing, hex_of, log, plain_name, side_of, stand, status};

/// A checked fire: the shooter, its target, and each rank's pool (two for a double-rank
/// longbow: CtB 6.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirePlan {
    pub shooter: UnitId,
    pub target: UnitId,
    pub moving: bool,
    pub pools: Vec<Pool>,
    /// Opportunity fire in the enemy's activation (CtB 5.0): outside the shooter's own
    /// turn record, and it triggers no reaction in turn.
    pub reaction: bool,
}

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

/// Whether a stand is fighting: the Battle Stand of an ongoing melee, or with a melee
/// waiting to be fought (CtB 6.0: "cannot fire into a close combat or if you are in
/// close combat").
pub fn in_close_combat(world: &World, id: UnitId) -> bool {
    // An opportunity decision is no melee: `involves` leaves it out.
    super::in_melee(world, id) || super::state(world).pending.iter().any(|p| p.involves(id))
}

/// Whether `from` sees `to` (CtB 6.0, R-LOS), archers firing overhead.
pub fn sees(world: &World, from: HexCoord, to: HexCoord, overhead: bool) -> bool {
    sight(&ground(world), from, to, overhead)
}

/// `sees`, with what blocks at each hex of the line (the line-of-sight tool).
pub fn sight_report(
    world: &World,
    from: HexCoord,
    to: HexCoord,
    overhead: bool,
) -> crate::engine::hex::SightLine {
    super::geometry::sight_line(&ground(world), from, to, overhead)
}

/// The ground and the stands as the line of sight reads them (CtB 6.0, R-LOS).
fn ground(
    world: &World,
) -> SightGround<
    impl Fn(HexCoord) -> i8 + '_,
    impl Fn(HexCoord) -> bool + '_,
    impl Fn(HexCoord) -> bool + '_,
> {
    let tables = super::tables(world);
    let look = super::Lookup::new(world);
    let board = look.board;
    let sight_levels = tables.terrain.sight_levels;
    SightGround {
        elevation: move |h: HexCoord| board.elevation(h),
        screens: move |h: HexCoord| {
            tables
                .terrain_type(board.terrain_name(h))
                .is_some_and(|t| t.sight == super::data::Sight::OneHexInto)
        },
        occupied: move |h: HexCoord| look.stand_at(h).is_some(),
        sight_levels,
    }
}

/// Checks a fire (CtB 6.0, 6.1): a shooting stand of the activating group that has not
/// fired and has not moved then fired, in its arc (the artillery's corridor), at a
/// range its list gives, seeing the target, neither in close combat.
pub fn check_fire(
    world: &World,
    id: UnitId,
    target: UnitId,
    moving: bool,
) -> Result<FirePlan, Refusal> {
    check_fire_as(world, id, target, moving, false)
}

/// Checks a fire in the stand's own activation, or as opportunity fire in the enemy's
/// (`reaction`, CtB 5.0): then it has neither moved nor fired, whatever its own
/// activation did (it would have left opportunity).
pub fn check_fire_as(
    world: &World,
    id: UnitId,
    target: UnitId,
    moving: bool,
    reaction: bool,
) -> Result<FirePlan, Refusal> {
    let me = stand(world, id).expect("a stand");
    let name = super::Named(world, id);
    if !me.spec.shoots || me.entry.fire.is_none() {
        return Err(refuse("CtB 6.0", format!("{name} does not shoot")));
    }
    if stand(world, target).is_none() {
        return Err(refuse("CtB 6.0", "only stands are fired at"));
    }
    if side_of(world, target) == side_of(world, id) {
        return Err(refuse("CtB 6.0", "a stand fires at the enemy"));
    }
    let fresh = super::CtbTurn::default();
    let t = if reaction { &fresh } else { acts(world, id) };
    super::orders::not_after_failed_rally(world, t, id)?;
    if t.fired {
        return Err(refuse(
            "CtB 3.0",
            format!("{name} has fired this activation"),
        ));
    }
    // A stand stopped by a second face or a failed extra move may still fire, but not
    // declare a move after it (CtB 3.1, 3.3).
    if t.stopped && moving {
        return Err(refuse(
            "CtB 3.1",
            format!("{name} may not move again this round"),
        ));
    }

    if t.moves > 0 && moving {
        return Err(refuse(
            "CtB 3.0",
            format!("{name} has moved: it may fire, but not move again after"),
        ));
    }
    if me.spec.no_move_and_fire && (t.moves > 0 || moving) {
        return Err(refuse(
            "CtB 6.0",
            "artillery can never move and fire in the one turn",
        ));
    }
    if in_close_combat(world, id) {
        return Err(refuse(
            "CtB 6.0",
            format!("{name} is in close combat and cannot fire"),
        ));
    }
    if in_close_combat(world, target) {
        return Err(refuse("CtB 6.0", "you cannot fire into a close combat"));
    }
    let from = (hex_of(world, id).expect("on map"), facing(world, id));
    let to = hex_of(world, target).expect("on map");
    let pools = aim(world, id, from, (to, Some(target)), (t.moves, moving))?;
    Ok(FirePlan {
        shooter: id,
        target,
        moving,
        pools,
        reaction,
    })
}

/// The pools of each rank of the shooter `id` in `from` facing as given, firing at
/// the hex `to` and the stand there if any, with `moves` made before and a move
/// declared after or not (CtB 6.0, 6.1): in its arc (the artillery's corridor), seen,
/// at a range its list gives, with dice to throw. `check_fire_as` asks it after its
/// checks of the turn; the threat map from where a move would bring the stand.
pub(crate) fn aim(
    world: &World,
    id: UnitId,
    (from, f): (HexCoord, crate::engine::hex::VertexFacing),
    (to, target): (HexCoord, Option<UnitId>),
    (moves_before, moving): (u8, bool),
) -> Result<Vec<Pool>, Refusal> {
    let me = stand(world, id).expect("a stand");
    let name = super::Named(world, id);
    let them = target.and_then(|t| stand(world, t));
    let target_name = || target.map_or_else(|| to.label(), |t| plain_name(world, t));
    let in_arc = match me.spec.fire_arc {
        FireArc::Corridor => in_corridor(from, f, to),
        _ => in_fire_arc(from, f, to),
    };
    if !in_arc {
        return Err(refuse(
            "CtB 6.0",
            format!("{} is not in {name}'s arc of fire", target_name()),
        ));
    }
    let overhead = me.entry.overhead || me.special.as_ref().is_some_and(|s| s.overhead);
    if !sees(world, from, to, overhead) {
        return Err(refuse(
            "CtB 6.0",
            format!("{name} cannot see {} (R-LOS)", target_name()),
        ));
    }
    let tables = super::tables(world);
    let range = from.distance(to);
    // In cover: woods, a village..., or behind field defences facing the shooter
    // (designer's Summary Sheet, after A-T).
    let board = world.res::<Board>();
    let cover = tables
        .terrain_type(board.terrain_name(to))
        .is_some_and(|t| t.cover)
        || super::defences::behind_defences(&tables, board, to, from);
    let ranks = &super::ranks(world, id).0;
    let double = me.special.as_ref().is_some_and(|s| s.double_rank_fire) && ranks.len() >= 2;
    let mut pools = Vec::new();
    for (r, sp) in ranks.iter().enumerate().take(if double { 2 } else { 1 }) {
        let situation = FireSituation {
            moves_before,
            moving_after: moving,
            rear_rank: r == 1,
            disordered: status(world, id).disordered,
            target_in_cover: cover,
            target_armoured: matches!(me.spec.id.as_str(), "Sk" | "Sh")
                && them.is_some_and(|them| tables.factors.fire.armour_vs.contains(&them.spec.id)),
        };
        let Some(pool) = fire_pool(
            &me.entry,
            me.special.as_ref(),
            &tables.factors.fire,
            *sp,
            range,
            situation,
        ) else {
            return Err(refuse(
                "CtB 16.0",
                format!("{name} does not reach {range}H (R-ranges)"),
            ));
        };
        pools.push(pool);
    }
    if pools.iter().all(|p| p.dice() == 0) {
        return Err(refuse(
            "CtB 6.0",
            format!("{name} would throw no dice at {}", target_name()),
        ));
    }
    Ok(pools)
}

/// Throws a pool one die at a time through the game's dice and logs every face at
/// once (CtB 6.4); returns the faces.
pub fn throw_pool(
    world: &mut World,
    dice: u32,
    rule: &'static str,
    what: impl FnOnce(&World) -> String,
) -> Vec<u8> {
    let mut roller = world.resource_mut::<crate::engine::dice::Dice>();
    let faces: Vec<u8> = (0..dice).map(|_| roller.d6()).collect();
    let hits = super::pool::count_hits(&faces);
    let shown = faces.clone();
    log(world, EventKind::DieRolled, rule, |w| {
        format!(
            "{}: {}D6 [{}], {hits} hit{}",
            what(w),
            shown.len(),
            shown
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            if hits == 1 { "" } else { "s" }
        )
    });
    faces
}

/// Carries out a fire: declared, it is spent (CtB 3.0); skirmishers or light cavalry
/// fired on from their front may evade before the dice (CtB 4.0), and their owner is
/// asked; otherwise the dice are thrown at once (`throw_fire`). Opportunity fire is
/// never evaded (CtB 5.0: the trigger "cannot evade").
pub fn execute_fire(world: &mut World, plan: FirePlan) {
    let (id, target) = (plan.shooter, plan.target);
    if !plan.reaction {
        let mut t = acts_mut(world, id);
        t.fired = true;
        t.moving_after = plan.moving;
        if t.moves > 0 {
            t.stopped = true;
        }
    }
    super::status_mut(world, id).opportunity = false;
    log(world, EventKind::CombatDeclared, "CtB 6.0", |w| {
        let terms: Vec<String> = plan.pools[0]
            .terms
            .iter()
            .map(|t| format!("{:+} {} ({})", t.dice, t.what, t.rule))
            .collect();
        format!(
            "{} fires at {}: {}",
            plain_name(w, id),
            plain_name(w, target),
            terms.join(", ")
        )
    });
    if !plan.reaction && super::evasion::may_evade_fire(world, target, id) {
        log(world, EventKind::Special, "CtB 4.0", |w| {
            format!(
                "{} is fired on from its front: it may evade before the dice",
                plain_name(w, target)
            )
        });
        world.resource_mut::<super::CtbState>().pending.push_front(
            super::decision::Pending::EvadeFire {
                plan: Box::new(plan),
            },
        );
        return;
    }
    throw_fire(world, plan);
}

/// Throws a fire declared (CtB 6.1, 6.4): each rank throws at the same target even if
/// the first destroys it; each hit tests morale (CtB 7.0), at most 1 SP a firing rank
/// (CtB 7.1); a target on opportunity fired on from its front may answer (CtB 5.0).
pub fn throw_fire(world: &mut World, plan: FirePlan) {
    let (id, target) = (plan.shooter, plan.target);
    let cap = super::tables(world).factors.fire.cap;
    for (r, pool) in plan.pools.iter().enumerate() {
        if pool.dice() == 0 {
            continue;
        }
        let faces = throw_pool(world, pool.dice(), "CtB 6.4", |w| {
            format!(
                "{}{} fire",
                plain_name(w, id),
                if r == 1 { "'s rear rank" } else { "" }
            )
        });
        let hits = super::pool::count_hits(&faces);
        if hits > 0 && hex_of(world, target).is_some() {
            super::results::morale_test(world, target, hits, cap, "CtB 6.4");
        }
    }
    super::refresh_zones(world);
    if !plan.reaction {
        super::opportunity::fired_on(world, id, target);
    }
}

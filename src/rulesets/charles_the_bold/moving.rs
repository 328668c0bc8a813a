//! A stand's move in the game (CtB 3.0-3.7, 3.9, 3.10): the check of every step
//! against the rules (facing, turns, sideways and backwards steps, the zone of control,
//! interpenetration, contact), then the move itself with its extra move's Order Test,
//! the general attached carried along (2.1), displacements and the melee it starts.
//! A general's own move is in `generals`.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{SideId, UnitId};

use super::commands::Step;
use super::data::TypeSpec;
use super::decision::Pending;
use super::{
    CtbState, acts, acts_mut, facing, generals_at, hex_of, log, plain_name, set_facing, side_of,
    stand, stand_at, status, status_mut,
};

/// A checked move of a stand.
#[derive(Clone, Debug)]
pub struct MovePlan {
    pub stand: UnitId,
    /// Where the stand is and faces after each step.
    pub path: Vec<(HexCoord, VertexFacing)>,
    /// The stand's second or later move: an Order Test first (CtB 3.3, R-3.3).
    pub extra: bool,
    /// A second face turned: disordered, no more movement this round (CtB 3.1).
    pub second_face: bool,
    /// About face: the whole move.
    pub whole_move: bool,
    /// Hexes entered.
    pub hexes: u32,
    /// Enemy stands in its front hexes at the end: a melee (CtB 10.2, R-contact).
    pub contact: Vec<UnitId>,
    /// MP left at the end, and spent.
    pub mp_left: u8,
    pub spent: u8,
    /// The rest of a move whose target evaded (CtB 4.0): not a new move.
    pub resumed: bool,
    /// A friendly light stand in the last hex goes to the hex the mover left, where its
    /// move began (CtB 3.10).
    pub displaced: Option<(UnitId, HexCoord)>,
    /// An impetuous stand's second move to contact: no Order Test (CtB 9.1, R-3.3).
    pub impetus_charge: bool,
    /// The steps as commanded, the final facing, and the MP left after each entry of
    /// `path`: a move stopped by an opportunity reaction goes on with the rest (CtB 5.0).
    pub steps: Vec<Step>,
    pub final_facing: Option<VertexFacing>,
    pub mp_after: Vec<u8>,
    /// An opportunity charge at this stand, which triggered it (CtB 5.0): made in the
    /// enemy's activation, outside its own turn record.
    pub reaction: Option<UnitId>,
    /// The rest of a move an opportunity reaction stopped after it had entered a hex:
    /// a contact now is still a charge (CtB 5.0, 10.3).
    pub carried_on: bool,
    /// It pushes through, or past, enemy skirmishers in the open on its way to a formed
    /// enemy (CtB 10.6, R-10.6-push).
    pub pushing: bool,
}

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

/// Whether a stand may make contact from `at` with `enemy`, its move having begun in
/// `from` (CtB 10.0, R-contact): only with a positive impact factor, except light
/// cavalry with none, which "can charge Sk or into the flank or rear of units if they
/// start behind the target units front face line"; foot against mounted only where its
/// Special Units entry lets it charge cavalry.
pub fn may_contact(
    world: &World,
    id: UnitId,
    enemy: UnitId,
    at: HexCoord,
    from: HexCoord,
) -> Result<(), Refusal> {
    let Some(me) = stand(world, id) else {
        return Ok(());
    };
    let Some(them) = stand(world, enemy) else {
        return Ok(());
    };
    if me.entry.impact == 0 {
        let behind = || {
            hex_of(world, enemy).is_some_and(|eh| {
                let ef = facing(world, enemy);
                super::geometry::side_touched(eh, ef, at) != Some(super::geometry::Side::Front)
                    && !super::geometry::in_front(eh, ef, from)
            })
        };
        if !makes_contact(me) {
            return Err(refuse(
                "CtB 10.0",
                format!(
                    "{} has impact factor 0: it may not make contact with {}",
                    plain_name(world, id),
                    plain_name(world, enemy)
                ),
            ));
        }
        if them.spec.id != "Sk" && !behind() {
            return Err(refuse(
                "CtB 10.0",
                format!(
                    "{} has impact factor 0: it may charge only skirmishers, or the flank or rear of {} from behind its front face line",
                    plain_name(world, id),
                    plain_name(world, enemy)
                ),
            ));
        }
    }
    if !me.spec.mounted
        && them.spec.mounted
        && them.spec.id != "LC"
        && !me.special.as_ref().is_some_and(|s| s.charges_cavalry)
    {
        return Err(refuse(
            "CtB 10.0",
            format!(
                "{} is foot and may not charge the mounted {} (only stands the lists allow, like Swiss pikes and schiltrons)",
                plain_name(world, id),
                plain_name(world, enemy)
            ),
        ));
    }
    Ok(())
}

/// Whether a stand may make contact with anyone at all (CtB 10.0): with an impact
/// factor, or light cavalry without one (whom `may_contact` then restricts).
pub fn makes_contact(me: &super::CtbStand) -> bool {
    me.entry.impact > 0 || me.spec.if0_charges
}

/// The enemy stands in the front hexes of a stand at `at` facing `face`.
pub fn enemies_in_front(
    world: &World,
    side: SideId,
    at: HexCoord,
    face: VertexFacing,
) -> Vec<UnitId> {
    let look = super::Lookup::new(world);
    face.front(at)
        .into_iter()
        .filter_map(|h| look.stand_at(h))
        .filter(|u| look.side(*u) != side)
        .collect()
}

fn turned(face: VertexFacing, step: Step) -> VertexFacing {
    match step {
        Step::Cw => VertexFacing((face.0 + 1) % 6),
        Step::Ccw => VertexFacing((face.0 + 5) % 6),
        Step::About => face.reversed(),
        Step::Hex(_) => face,
    }
}

/// Checks a stand's move (CtB 3.0-3.10): `steps` from where it stands, `final_facing`
/// for skirmishers and light cavalry.
pub fn check_go(
    world: &World,
    id: UnitId,
    steps: &[Step],
    final_facing: Option<VertexFacing>,
) -> Result<MovePlan, Refusal> {
    check_go_as(world, id, steps, final_facing, None)
}

/// Checks a move, in the stand's own activation (`reaction` none) or as an opportunity
/// charge at `reaction` in the enemy's (CtB 5.0): that is its first move, whatever its
/// own activation did, and no impetuous duty applies to it.
pub fn check_go_as(
    world: &World,
    id: UnitId,
    steps: &[Step],
    final_facing: Option<VertexFacing>,
    reaction: Option<UnitId>,
) -> Result<MovePlan, Refusal> {
    let plan = check_go_legal(world, id, steps, final_facing, reaction)?;
    // A compelled stand moves a full move towards the nearest enemy (CtB 9.1, 9.2,
    // a move that could go one hex farther towards it, legally, stops short.
    if reaction.is_none() && plan.contact.is_empty() && !plan.resumed {
        let end = plan.path.last().map(|p| p.0);
        let further = end.map_or_else(Vec::new, |end| {
            super::impetuous::further_steps(world, id, end, plan.mp_left)
        });
        for n in further {
            let mut more = steps.to_vec();
            more.push(Step::Hex(n));
            if check_go_legal(world, id, &more, final_facing, None).is_ok() {
                return Err(super::impetuous::short_of_a_full_move(world, id, n));
            }
        }
    }
    Ok(plan)
}

/// `check_go_as` but for the full move a compelled stand owes.
fn check_go_legal(
    world: &World,
    id: UnitId,
    steps: &[Step],
    final_facing: Option<VertexFacing>,
    reaction: Option<UnitId>,
) -> Result<MovePlan, Refusal> {
    let me = stand(world, id).expect("the caller passes a stand");
    let spec: &TypeSpec = &me.spec;
    let side = side_of(world, id);
    let name = super::Named(world, id);
    let Some(start) = hex_of(world, id) else {
        return Err(refuse("CtB 3.0", format!("{name} is not on the map")));
    };
    if super::in_melee(world, id) {
        return Err(refuse(
            "CtB 3.7",
            format!(
                "{name} is in an ongoing melee: it leaves it only by retreat, evasion or bounce"
            ),
        ));
    }
    let own = acts(world, id);
    let fresh = super::CtbTurn::default();
    let t = if reaction.is_some() { &fresh } else { own };
    super::orders::not_after_failed_rally(world, t, id)?;
    if t.stopped && t.fired && t.moves > 0 {
        return Err(refuse(
            "CtB 3.0",
            format!(
                "{name} has moved and fired: a stand moves then fires, or fires then moves once, and no more"
            ),
        ));
    }
    if t.stopped {
        return Err(refuse(
            "CtB 3.1",
            format!("{name} may not move again this round"),
        ));
    }
    let resumed = t.resume.is_some();
    if t.fired && !t.moving_after && !resumed {
        return Err(refuse(
            "CtB 3.0",
            format!(
                "{name} has fired: a stand moves then fires, or fires then moves once (declared with `fire … moving`)"
            ),
        ));
    }
    if spec.no_move_and_fire && t.fired {
        return Err(refuse(
            "CtB 6.0",
            "artillery never moves and fires in one turn",
        ));
    }
    let extra = t.moves >= 1 && !resumed;
    if extra && status(world, id).disordered {
        return Err(refuse(
            "CtB 3.3",
            format!("{name} is disordered: it may not try an extra move (R-3.3)"),
        ));
    }
    if steps.is_empty() && final_facing.is_none() {
        return Err(refuse("CtB 3.0", "a move needs at least one step"));
    }
    if final_facing.is_some() && !spec.free {
        return Err(refuse(
            "CtB 3.1",
            format!(
                "only skirmishers and light cavalry choose their final facing freely; {name} turns with cw, ccw or about"
            ),
        ));
    }
    let tables = super::tables(world);
    let board = world.res::<Board>();
    let mp = t
        .resume
        .unwrap_or_else(|| me.entry.mp_of_move(u32::from(t.moves) + 1));
    let mut mp_left = mp;
    let (mut pos, mut face) = (start, facing(world, id));
    let mut path = Vec::new();
    let mut mp_after = Vec::new();
    let (mut turns, mut hexes) = (0u32, 0u32);
    let mut ended: Option<String> = None;
    let mut second_face = false;
    let mut whole_move = false;
    let started_in_zoc = !spec.free && super::in_enemy_zoc(world, side, start);
    let mut contact = Vec::new();
    let mut displaced = None;
    let mut pushing = false;
    for (i, &step) in steps.iter().enumerate() {
        if let Some(why) = &ended {
            return Err(refuse(
                "CtB 3.0",
                format!("{name}'s move ends at {pos}: {why}"),
            ));
        }
        match step {
            Step::Cw | Step::Ccw | Step::About => {
                if step == Step::About {
                    if spec.free {
                        face = face.reversed();
                    } else {
                        if i != 0 {
                            return Err(refuse(
                                "CtB 3.2",
                                "turning to the rear is a move of its own (R-3.2)",
                            ));
                        }
                        face = face.reversed();
                        whole_move = true;
                        ended = Some("turning to the rear is the whole move (R-3.2)".into());
                    }
                } else if spec.free {
                    face = turned(face, step);
                } else {
                    if hexes > 0 && !spec.turn_move {
                        return Err(refuse(
                            "CtB 3.1",
                            format!(
                                "only shot, skirmishers and light cavalry turn and leave a hex in one move; {name} has moved"
                            ),
                        ));
                    }
                    if mp_left < 1 {
                        return Err(refuse(
                            "CtB 3.1",
                            format!("{name} has no MP left to turn (1 MP a face)"),
                        ));
                    }
                    mp_left -= 1;
                    turns += 1;
                    face = turned(face, step);
                    if turns >= 2 {
                        second_face = true;
                        ended = Some(
                            "a second face disorders it and ends its movement this round".into(),
                        );
                    }
                }
                path.push((pos, face));
                mp_after.push(mp_left);
                let front = enemies_in_front(world, side, pos, face);
                if !front.is_empty() {
                    for e in &front {
                        may_contact(world, id, *e, pos, start)?;
                    }
                    contact = front;
                    ended
                        .get_or_insert_with(|| "it has turned to face an enemy (R-contact)".into());
                }
            }
            Step::Hex(to) => {
                if !pos.is_adjacent(to) {
                    return Err(refuse("CtB 3.0", format!("{to} is not next to {pos}")));
                }
                if turns > 0 && !spec.turn_move {
                    return Err(refuse(
                        "CtB 3.1",
                        format!(
                            "only shot, skirmishers and light cavalry turn and leave a hex in one move; {name} has turned"
                        ),
                    ));
                }
                let Some(terrain) =
                    super::movement::step_cost(&tables, board, spec.terrain, pos, to)
                else {
                    return Err(refuse(
                        "CtB Summary Sheet (designer's)",
                        format!(
                            "{name} may not enter {to} from {pos}: {}",
                            super::movement::why_not(&tables, board, spec.terrain, pos, to)
                        ),
                    ));
                };
                let dir = pos.direction_to(to).expect("adjacent");
                let (kind, cost) = if spec.free || face.front_dirs().contains(&dir) {
                    ("forward", terrain)
                } else if face.flank_dirs().contains(&dir) {
                    if super::in_enemy_zoc(world, side, to) {
                        return Err(refuse(
                            "CtB 3.6",
                            format!(
                                "a sideways step never enters an enemy zone of control (R-3.6): {to}"
                            ),
                        ));
                    }
                    ("sideways", terrain.max(spec.side))
                } else {
                    ("backwards", terrain.max(spec.back))
                };
                if cost > mp_left && !(mp_left == mp && hexes == 0 && turns == 0) {
                    return Err(refuse(
                        if kind == "forward" {
                            "CtB 3.0"
                        } else if kind == "sideways" {
                            "CtB 3.6"
                        } else {
                            "CtB 3.7"
                        },
                        format!(
                            "{name} has {mp_left} MP left; a {kind} step into {to} costs {cost}"
                        ),
                    ));
                }
                mp_left = mp_left.saturating_sub(cost);
                let enemy = stand_at(world, to).filter(|o| *o != id && side_of(world, *o) != side);
                if let Some(other) = enemy
                    && super::pushing::pushable(world, id, other, pos)
                {
                    // A formed Combat Stand pushes through skirmishers in the open
                    // (CtB 10.6); they answer when it comes to their hex.
                    pushing = true;
                } else if let Some(other) = stand_at(world, to).filter(|o| *o != id) {
                    if side_of(world, other) != side {
                        return Err(refuse(
                            "CtB 3.9",
                            format!(
                                "{to} holds the enemy {}: a stand never enters an enemy's hex",
                                plain_name(world, other)
                            ),
                        ));
                    }
                    let them = stand(world, other).expect("a stand");
                    let last = i + 1 == steps.len()
                        || steps[i + 1..].iter().all(|s| !matches!(s, Step::Hex(_)));
                    if last {
                        let may = them.spec.displaced
                            && (spec.id != "Sk" || them.spec.id == "Sk")
                            && !super::in_melee(world, other);
                        if !may {
                            return Err(refuse(
                                "CtB 3.10",
                                format!(
                                    "{name} may not end its move on {} in {to}: only LI, LC, Sk and shot are displaced, never out of a melee, and skirmishers displace only skirmishers",
                                    plain_name(world, other)
                                ),
                            ));
                        }
                        displaced = Some((other, start));
                    } else if !spec.through && !them.spec.through {
                        return Err(refuse(
                            "CtB 3.9",
                            format!(
                                "{name} may not pass through {}: only shot, LC, LI and Sk pass through or are passed through",
                                plain_name(world, other)
                            ),
                        ));
                    }
                }
                let from = pos;
                pos = to;
                hexes += 1;
                path.push((pos, face));
                mp_after.push(mp_left);
                if started_in_zoc
                    && kind != "backwards"
                    && enemies_in_front(world, side, pos, face).is_empty()
                {
                    return Err(refuse(
                        "CtB 3.5",
                        format!(
                            "{name} began in an enemy zone of control: it may only make contact, turn or move backwards (R-3.5), not step to {to}"
                        ),
                    ));
                }
                let _ = from;
                let front = enemies_in_front(world, side, pos, face);
                // Skirmishers in the open alone in its front do not end a move that
                // goes on: it pushes past or through them (CtB 10.6).
                let more = steps[i + 1..].iter().any(|s| matches!(s, Step::Hex(_)));
                let passing = more
                    && !front.is_empty()
                    && front
                        .iter()
                        .all(|e| super::pushing::pushable(world, id, *e, pos));
                if !front.is_empty() {
                    for e in &front {
                        may_contact(world, id, *e, pos, start)?;
                    }
                }
                if passing {
                    pushing = true;
                }
                if !front.is_empty() && !passing {
                    contact = front;
                    ended = Some("it has made contact".into());
                } else if !spec.free && super::in_enemy_zoc(world, side, pos) {
                    ended = Some("it has entered an enemy zone of control (R-3.5)".into());
                }
            }
        }
    }
    if let Some(f) = final_facing {
        face = f;
        path.push((pos, face));
        mp_after.push(mp_left);
        let front = enemies_in_front(world, side, pos, face);
        if !front.is_empty() {
            for e in &front {
                may_contact(world, id, *e, pos, start)?;
            }
            contact = front;
        }
    }
    // Only a move aiming at a formed enemy pushes through skirmishers (CtB 10.6: "aiming
    // to hit a formed enemy"); an opportunity charge goes straight at its trigger
    // never through anyone.
    if pushing
        && (reaction.is_some()
            || !contact
                .iter()
                .any(|e| !super::pushing::skirmishers(world, *e)))
    {
        return Err(refuse(
            "CtB 10.6",
            format!(
                "{name} may push through enemy skirmishers in the open only aiming to hit a formed enemy: this move ends in contact with none"
            ),
        ));
    }
    // An undisordered impetuous stand's second move to contact needs no Order Test
    // (CtB 9.1, R-3.3).
    let impetus_charge = extra
        && reaction.is_none()
        && super::impetuous::untested_second_move(world, id, !contact.is_empty());
    let plan = MovePlan {
        stand: id,
        path,
        extra: extra && !impetus_charge,
        second_face,
        whole_move,
        hexes,
        contact,
        mp_left,
        spent: mp - mp_left,
        resumed,
        displaced,
        impetus_charge,
        steps: steps.to_vec(),
        final_facing,
        mp_after,
        reaction,
        carried_on: false,
        pushing,
    };
    if reaction.is_none() {
        super::impetuous::check_move(world, id, &plan)?;
    }
    Ok(plan)
}

/// Why a move stops before its end: stands on opportunity to ask (CtB 5.0), or enemy
/// skirmishers to push through (CtB 10.6).
enum Halt {
    Reactions(Vec<UnitId>),
    Push(UnitId),
}

/// Carries out a checked move: the extra move's Order Test first (failure disorders it
/// and ends its movement: CtB 3.3), then the steps, the general attached to it along
/// (CtB 2.1), enemy generals alone in a hex entered sent to their nearest stand, a
/// displaced friend swapped back (CtB 3.10), and the melee its contact starts.
pub fn execute_go(world: &mut World, plan: MovePlan) {
    let id = plan.stand;
    if plan.extra && !super::orders::order_test_in_game(world, id, "CtB 3.3") {
        super::disorder(world, id);
        acts_mut(world, id).stopped = true;
        log(world, EventKind::Special, "CtB 3.3", |w| {
            format!(
                "{} fails its Order Test for an extra move: disordered, it moves no more this round",
                plain_name(w, id)
            )
        });
        return;
    }
    if plan.impetus_charge {
        log(world, EventKind::Special, "CtB 9.1", |w| {
            format!(
                "{} is impetuous: its second move, to contact, needs no Order Test (R-3.3)",
                plain_name(w, id)
            )
        });
    }
    if !plan.resumed {
        super::impetuous::closed(world, id);
    }
    if !plan.resumed {
        acts_mut(world, id).asked.clear();
    }
    let start = hex_of(world, id).expect("on the map");
    let side = side_of(world, id);
    // Stands on opportunity may stop the move where it comes at them (CtB 5.0); an
    // opportunity charge triggers nothing in turn.
    let watch = plan.reaction.is_none() && super::opportunity::anyone_watching(world, side);
    let mut stop: Option<(usize, Halt)> = None;
    if watch && !plan.resumed {
        let counter = super::opportunity::triggered(world, id, None, &plan.contact);
        if !counter.is_empty() {
            stop = Some((0, Halt::Reactions(counter)));
        }
    }
    if stop.is_none() {
        for (i, &(h, f)) in plan.path.iter().enumerate() {
            let prev = hex_of(world, id).expect("on the map");
            // Enemy skirmishers in the next hex answer before it enters (CtB 10.6).
            if let Some(sk) = stand_at(world, h).filter(|u| *u != id && side_of(world, *u) != side)
            {
                stop = Some((i, Halt::Push(sk)));
                break;
            }
            if prev != h {
                super::carry(world, id, h);
                for g in generals_at(world, h) {
                    if side_of(world, g) != side {
                        super::generals::displace_general(world, g, "CtB 2.1");
                    }
                }
            }
            if facing(world, id) != f {
                set_facing(world, id, f);
            }
            let last = i + 1 == plan.path.len();
            // Never stopped while passing through a friend, nor where it makes contact.
            let alone = super::units_at(world, h)
                .into_iter()
                .all(|u| u == id || stand(world, u).is_none());
            let contact_here = last && !plan.contact.is_empty();
            if watch && prev != h && alone && !contact_here {
                super::refresh_zones(world);
                let reacting = super::opportunity::triggered(world, id, Some(prev), &plan.contact);
                if !reacting.is_empty() {
                    stop = Some((i + 1, Halt::Reactions(reacting)));
                    break;
                }
            }
        }
    }
    let end = hex_of(world, id).expect("on the map");
    let done = stop.as_ref().map_or(plan.path.len(), |s| s.0);
    let (hexes, mp_left) = match &stop {
        None => (plan.hexes, plan.mp_left),
        Some((k, _)) => {
            let mut hexes = 0;
            let mut pos = start;
            for &(h, _) in &plan.path[..*k] {
                if h != pos {
                    hexes += 1;
                    pos = h;
                }
            }
            let left = match k {
                0 => plan.mp_left + plan.spent,
                k => plan.mp_after[k - 1],
            };
            (hexes, left)
        }
    };
    let finished = stop.is_none();
    if finished && let Some((friend, to)) = plan.displaced {
        // A general attached to it goes with it (CtB 2.1: "as many times as it moves").
        super::carry(world, friend, to);
        log(world, EventKind::Displaced, "CtB 3.10", |w| {
            format!("{} is displaced to {to}", plain_name(w, friend))
        });
    }
    {
        let mut t = acts_mut(world, id);
        // Fire then move once (CtB 3.0): that move is its last, once it is over; a
        // move an opportunity reaction stopped goes on (CtB 5.0).
        if t.fired {
            t.moving_after = false;
            if finished {
                t.stopped = true;
            }
        }
        if !plan.resumed {
            t.moves += 1;
            t.move_start = Some(start);
        }
        t.resume = (!finished).then_some(mp_left);
        t.hexes += hexes;
        t.contact_mp_left = mp_left;
        if plan.second_face && finished {
            t.stopped = true;
        }
    }
    if hexes > 0 || done > 1 {
        status_mut(world, id).opportunity = false;
    }
    log(world, EventKind::Moved, "CtB 3.0", |w| {
        format!(
            "{} moves {start} → {end}, facing {}",
            plain_name(w, id),
            facing(w, id).name()
        )
    });
    if let Some((k, halt)) = stop {
        super::refresh_zones(world);
        let rest = plan
            .steps
            .get(k..)
            .map(<[Step]>::to_vec)
            .unwrap_or_default();
        let suspended = super::opportunity::Suspended {
            mover: id,
            at: end,
            steps: rest,
            facing: plan.final_facing,
            moved: hexes > 0 || plan.carried_on,
            tested: false,
        };
        match halt {
            Halt::Reactions(stands) => super::opportunity::stop_move(world, suspended, stands),
            Halt::Push(sk) => {
                world.resource_mut::<CtbState>().suspended = Some(suspended);
                super::pushing::push(world, id, sk);
            }
        }
        return;
    }
    if plan.second_face {
        super::disorder(world, id);
        log(world, EventKind::Special, "CtB 3.1", |w| {
            format!(
                "{} turns a second face: disordered, it moves no more this round",
                plain_name(w, id)
            )
        });
    }
    super::refresh_zones(world);
    if !plan.contact.is_empty() {
        let charged = plan.hexes > 0 || plan.carried_on;
        {
            let mut t = acts_mut(world, id);
            t.contacted = plan.contact.clone();
            t.impact_used = false;
        }
        world
            .resource_mut::<CtbState>()
            .pending
            .push_front(Pending::Fight {
                stand: id,
                enemies: plan.contact.clone(),
                charge: charged,
            });
        if charged {
            super::reactions::offer(world, id, &plan.contact, plan.reaction);
        } else {
            super::reactions::offer_evasions(world, id, &plan.contact);
        }
        log(world, EventKind::CombatDeclared, "CtB 10.2", |w| {
            let names: Vec<String> = plan.contact.iter().map(|e| plain_name(w, *e)).collect();
            format!(
                "{} makes contact with {}: the melee is fought now (`fight`)",
                plain_name(w, id),
                names.join(", ")
            )
        });
    }
}

//! The Charge Phase's declarations and responses (C&M 7.2-7.5, 7.10): each side in turn
//! declares its charges, the initiative side first (7.2), each checked for who may
//! initiate (7.3, `eligibility`), its reach (7.4) and that the target is ahead (7.7);
//! then every charged unit that declared no charge answers (7.10): one answer alone is
//! given at once, a choice is asked of its player, armed rabble's die is rolled in the
//! resolution step with the other dice.

use bevy::prelude::*;

use crate::engine::command::{Refusal, UnitRef};
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::eligibility::{ChargeCase, may_initiate};
use super::responses::{Allowed, Chargers, Circumstances, Response, allowed};
use super::*;

/// Whether some stand of `target` lies ahead of a stand of `charger` (7.7: chargers
/// move straight ahead): a step along the charger's facing brings them nearer.
/// Unformed chargers have no front: every way is ahead.
pub(crate) fn ahead(world: &World, charger: UnitId, target: UnitId) -> bool {
    stands_ahead(
        formation(world, charger),
        stands(world, charger),
        stands(world, target),
    )
}

/// `ahead` of a charger in formation `f` on the stands `own`, at the stands `target`.
pub(crate) fn stands_ahead(f: CmFormation, own: &[HexCoord], target: &[HexCoord]) -> bool {
    if !f.formed() {
        return true;
    }
    own.iter().any(|s| {
        target
            .iter()
            .any(|t| f.facing.front(*s).distance(*t) < s.distance(*t))
    })
}

/// Whether `charger` comes at `target`'s flank or rear, or `target` is unformed (7.3).
fn at_flank_or_rear(world: &World, charger: UnitId, target: UnitId) -> bool {
    let f = formation(world, target);
    if !f.formed() {
        return true;
    }
    !ahead(world, target, charger)
}

/// 7.3's case of a unit, as things stand.
fn case<'a>(
    world: &World,
    troop: &'a data::TroopType,
    id: UnitId,
    target: UnitId,
) -> ChargeCase<'a> {
    let u = component::<CmUnit>(world, id);
    let side = side_of(world, id);
    let mut c = ChargeCase::new(troop, u.grade);
    c.formation = formation(world, id).id;
    c.shaken = morale(world, id).shaken;
    // 7.3: pursuit, or an advance a control test compels (7.9's repeat, unauthorised).
    c.pursuing_or_unauthorised =
        posture(world, id) == Some(Posture::Pursuing) || command::compelled(world, id);
    c.inspired = command::inspired(world, id);
    c.against_unformed_flank_or_rear = at_flank_or_rear(world, id, target);
    // A leader whose command stand is in the unit charges with it (7.3).
    c.leader_charges_with_it = u.leader.is_some();
    c.shot_at_short_range = missile::shot_short(world, id);
    c.shot_from_front_rank = missile::shot_front_rank(world, id);
    let reach = u32::from(tables(world).charts.charge_move.mounted_reach);
    c.leader_in_combat_within_bow_range = leaders(world).into_iter().any(|l| {
        let with = component::<CmLeader>(world, l).with;
        side_of(world, l) == side
            && is_troop(world, with)
            && movement::enemy_in_contact(world, with).is_some()
            && gap_between(world, with, id) <= reach
    });
    c
}

/// Checks `charge UNIT -> TARGET`.
/// `check_charge`'s refusals of the charger whatever its target: a charge declared
/// already, in contact, halted or in flight (autoplay reads them once a unit).
pub(crate) fn may_declare(world: &World, id: UnitId) -> Result<(), Refusal> {
    may_declare_among(world, id, &state(world).declared)
}

/// `may_declare` with the charges `declared` so far (`check_charge_among`).
fn may_declare_among(world: &World, id: UnitId, declared: &[Declared]) -> Result<(), Refusal> {
    super::battleline::check_not_in_body(world, id)?;
    if declared.iter().any(|d| d.charger == id) {
        return Err(Refusal::new(
            "C&M 7.2",
            format!("{} has declared its charge", plain_name(world, id)),
        ));
    }
    if let Some(e) = movement::enemy_in_contact(world, id) {
        return Err(Refusal::new(
            "C&M 7.18",
            format!(
                "{} is in contact with {}: they fight in the Mêlée Phase",
                plain_name(world, id),
                plain_name(world, e)
            ),
        ));
    }
    match posture(world, id) {
        Some(Posture::Halted) => Err(Refusal::new(
            "C&M 7.16",
            format!("{} is halted this turn: no charge", plain_name(world, id)),
        )),
        Some(Posture::Routing) | Some(Posture::Retiring) => Err(Refusal::new(
            "C&M 7.16",
            format!("{} is in flight: no charge", plain_name(world, id)),
        )),
        _ => Ok(()),
    }
}

/// Whether `target` is within `id`'s charge reach (7.4): `check_charge` refuses it
/// otherwise.
pub(crate) fn within_reach(world: &World, id: UnitId, target: UnitId) -> bool {
    let t = &world.resource::<CmTables>().0;
    moves::may_charge_across(
        &t.charts.charge_move,
        troop_ref(world, id).category,
        gap_between(world, id, target),
    )
}

/// The rules a declaration's opening checks cite, and their words: a shot's (spec B.2
/// §11) or a charge's (C&M 7.2).
pub(crate) struct Opening {
    pub phase: CmPhase,
    pub phase_rule: &'static str,
    /// What is declared, and when: "shots are declared after both Move Phases".
    pub when: &'static str,
    pub leaders_rule: &'static str,
    pub leaders: &'static str,
    pub side_rule: &'static str,
    pub friend_rule: &'static str,
}

/// The checks a shot and a charge open with: the phase, both units resolved and units
/// of stands, the declaring side's own unit, an enemy target. Returns both units.
pub(crate) fn opening_checks(
    world: &World,
    o: &Opening,
    unit: &UnitRef,
    target: &UnitRef,
) -> Result<(UnitId, UnitId), Refusal> {
    if phase(world) != o.phase {
        return Err(Refusal::new(
            o.phase_rule,
            format!("{}, not in the {}", o.when, phase(world).view().label),
        ));
    }
    let id = resolve(world, unit)?;
    let tid = resolve(world, target)?;
    if !is_troop(world, id) || !is_troop(world, tid) {
        return Err(Refusal::new(o.leaders_rule, o.leaders));
    }
    let side = side_of(world, id);
    if side != turn(world).active {
        return Err(Refusal::new(
            o.side_rule,
            format!(
                "{} declares now: {} is {}'s",
                side_name(world, turn(world).active),
                plain_name(world, id),
                side_name(world, side)
            ),
        ));
    }
    if side_of(world, tid) == side {
        return Err(Refusal::new(
            o.friend_rule,
            format!("{} is a friend", plain_name(world, tid)),
        ));
    }
    Ok((id, tid))
}

pub fn check_charge(world: &World, unit: &UnitRef, target: &UnitRef) -> Result<Declared, Refusal> {
    check_charge_among(world, unit, target, &state(world).declared)
}

/// `check_charge` with the charges `declared` so far given rather than read: a battle
/// line's declarations one after the other (7.1), worked out before they are made (the
/// charge preview) as when they are.
pub(crate) fn check_charge_among(
    world: &World,
    unit: &UnitRef,
    target: &UnitRef,
    declared: &[Declared],
) -> Result<Declared, Refusal> {
    let opening = Opening {
        phase: CmPhase::ChargeDeclaration,
        phase_rule: "C&M 7.2",
        when: "charges are declared in the Charge Phase",
        leaders_rule: "C&M 7.15",
        leaders: "leaders charge with the unit their command stand is in",
        side_rule: "C&M 7.2",
        friend_rule: "C&M 7.1",
    };
    let (id, tid) = opening_checks(world, &opening, unit, target)?;
    may_charge_among(world, id, tid, declared)?;
    Ok(Declared {
        charger: id,
        target: tid,
    })
}

/// Whether `id` may charge `tid`, its phase and side apart: `check_charge`'s checks
/// once its opening ones are passed, and the threat map's for the charges an enemy
/// could declare (7.2-7.7, 7.3's cases, the scenario's passages).
pub(crate) fn may_charge(world: &World, id: UnitId, tid: UnitId) -> Result<(), Refusal> {
    may_charge_among(world, id, tid, &state(world).declared)
}

/// `may_charge` with the charges `declared` so far (`check_charge_among`).
fn may_charge_among(
    world: &World,
    id: UnitId,
    tid: UnitId,
    declared: &[Declared],
) -> Result<(), Refusal> {
    let side = side_of(world, id);
    may_declare_among(world, id, declared)?;
    let t = tables(world);
    let troop = &t.troops.troops[component::<CmUnit>(world, id).troop];
    if !within_reach(world, id, tid) {
        let gap = gap_between(world, id, tid);
        return Err(Refusal::new(
            "C&M 7.4",
            format!(
                "{} is {gap} JT away: {} charge {}",
                plain_name(world, tid),
                troop.name,
                if troop.category.mounted() {
                    format!(
                        "up to bow range ({} JT)",
                        t.charts.charge_move.mounted_reach
                    )
                } else {
                    format!("only across {} JT", t.charts.charge_move.foot_reach)
                }
            ),
        ));
    }
    if !ahead(world, id, tid) {
        return Err(Refusal::new(
            "C&M 7.7",
            format!(
                "{} is not ahead of {}: chargers move straight ahead",
                plain_name(world, tid),
                plain_name(world, id)
            ),
        ));
    }
    let c = case(world, troop, id, tid);
    // A battle line (7.1, 7.3): a friend beside it that declared a charge and may
    // charge on its own.
    let anchor = declared.iter().any(|d| {
        side_of(world, d.charger) == side && in_contact(world, d.charger, id) && {
            let other = &t.troops.troops[component::<CmUnit>(world, d.charger).troop];
            may_initiate(&t, &case(world, other, d.charger, d.target), false).is_ok()
        }
    });
    may_initiate(&t, &c, anchor).map_err(|why| Refusal::new("C&M 7.3", why))?;
    let passages = movement::Passages::now(world);
    let held: Vec<HexCoord> = stands(world, tid)
        .iter()
        .copied()
        .filter(|h| passages.holder(*h) == Some(side_of(world, tid)))
        .collect();
    if let Some(h) = held.first() {
        return Err(Refusal::new(
            "scenario: Passage",
            format!(
                "{} is crossing in {h} by leave: it may not be charged yet",
                plain_name(world, tid)
            ),
        ));
    }
    Ok(())
}

pub fn execute_charge(world: &mut World, d: Declared) {
    world.resource_mut::<CmState>().declared.push(d);
    log(world, EventKind::CombatDeclared, "C&M 7.2", |w| {
        format!(
            "{} declares a charge on {}",
            name(w, d.charger),
            name(w, d.target)
        )
    });
    // 7.1: a battle line its leader controls charges as one body.
    super::battleline::declare_line(world, d);
}

/// The units charged this turn that declared no charge, in id order, each with its
/// chargers in declaration order.
pub(crate) fn charged(world: &World) -> Vec<(UnitId, Vec<UnitId>)> {
    let s = state(world);
    let mut out: Vec<(UnitId, Vec<UnitId>)> = Vec::new();
    for d in &s.declared {
        if s.declared.iter().any(|o| o.charger == d.target) {
            continue;
        }
        match out.iter_mut().find(|(t, _)| *t == d.target) {
            Some((_, cs)) => cs.push(d.charger),
            None => out.push((d.target, vec![d.charger])),
        }
    }
    out.sort_by_key(|(t, _)| *t);
    out
}

/// What a charged unit may answer (7.10).
pub(crate) fn allowed_answers(world: &World, id: UnitId, chargers: &[UnitId]) -> Allowed {
    let t = tables(world);
    let troop = &t.troops.troops[component::<CmUnit>(world, id).troop];
    let types: Vec<&data::TroopType> = chargers
        .iter()
        .map(|c| &t.troops.troops[component::<CmUnit>(world, *c).troop])
        .collect();
    let c = Circumstances {
        shot_at_short_range: missile::shot_short(world, id),
        in_shieldwall: formation(world, id).id == FormationId::Shieldwall,
        difficult_or_obstacle: movement::in_difficult(world, stands(world, id)),
    };
    allowed(
        troop,
        &c,
        &Chargers::of(&types),
        t.charts.responses.rabble_counter_charge_from,
    )
}

/// Entering the responses (7.10): a unit with one answer gives it at once; a choice is
/// asked of its player; armed rabble waits for its die.
pub fn ask_responses(world: &mut World) {
    log(world, EventKind::PhaseStarted, "C&M 7.10", |_| {
        "Charge responses".to_string()
    });
    for (target, chargers) in charged(world) {
        let Allowed::Choose(mut options) = allowed_answers(world, target, &chargers) else {
            continue;
        };
        if options.contains(&Response::Stand) && aboutface::may_turn_about(world, target, &chargers)
        {
            // 7.13: it may stand turned about to face a charge from its rear.
            options.push(Response::AboutFace);
        }
        let may_shoot = chargers
            .iter()
            .any(|c| missile::may_shoot_at(world, target, *c));
        if options.contains(&Response::Stand) && may_shoot {
            // 7.14: it "may shoot" at its chargers; it may also hold its fire.
            options.push(Response::StandHold);
        }
        if options.contains(&Response::Evade)
            && chargers
                .iter()
                .any(|c| missile::may_shoot_at(world, target, *c))
        {
            // 7.14: it may wait to shoot at its chargers, 1 JT off its evade move.
            options.push(Response::EvadeShoot);
        }
        if options.len() == 1 {
            record_answer(world, target, options[0], "C&M 7.10");
        } else {
            world
                .resource_mut::<CmState>()
                .decisions
                .extend([CmDecision::Respond {
                    unit: target,
                    options,
                }]);
        }
    }
}

pub(crate) fn record_answer(
    world: &mut World,
    unit: UnitId,
    response: Response,
    rule: &'static str,
) {
    world
        .resource_mut::<CmState>()
        .answers
        .push(Answer { unit, response });
    log(world, EventKind::CombatDeclared, rule, |w| {
        format!(
            "{} answers: {}",
            name(w, unit),
            commands::response_word(response)
        )
    });
}

/// Checks `respond UNIT ANSWER` against the decision waited for.
pub fn check_respond(world: &World, unit: &UnitRef, response: Response) -> Result<UnitId, Refusal> {
    let id = resolve(world, unit)?;
    match world.resource::<CmState>().decisions.front() {
        Some(CmDecision::Respond { unit: u, options }) if *u == id => {
            if options.contains(&response) {
                Ok(id)
            } else {
                let words: Vec<&str> = options
                    .iter()
                    .map(|o| commands::response_word(*o))
                    .collect();
                Err(Refusal::new(
                    "C&M 7.10",
                    format!(
                        "{} may answer {}, not {}",
                        plain_name(world, id),
                        words.join(" or "),
                        commands::response_word(response)
                    ),
                ))
            }
        }
        _ => Err(Refusal::new(
            "C&M 7.10",
            format!("no answer is asked of {} now", plain_name(world, id)),
        )),
    }
}

pub fn execute_respond(world: &mut World, unit: UnitId, response: Response) {
    world.resource_mut::<CmState>().decisions.pop_front();
    let rule = match response {
        Response::AboutFace => "C&M 7.13",
        Response::EvadeShoot | Response::StandHold => "C&M 7.14",
        _ => "C&M 7.10",
    };
    record_answer(world, unit, response, rule);
    if response == Response::AboutFace {
        aboutface::turn_about(world, unit);
    }
}

//! The one resolution step of the Charge Phase (C&M 7.6-7.17; spec B.6 §1, §6): every
//! die rolled in a fixed, logged order — armed rabble's answers (7.10), evade tests
//! (7.11), the move dice of evaders, counter-chargers and chargers (7.6, 7.7, 7.12),
//! the shooting at chargers (7.14, `missile::at_chargers`) — then the moves together
//! (evaders first, counter-chargers meeting half way, chargers stopping at contact), a
//! unit standing to receive a flank charge unformed (7.13), then each charge combat's
//! dice, defender first (7.15), and
//! the results applied together (DPs, casualties, shaken), the moves after them queued
//! losers first (7.16), and the risk to leaders whose command stand fought (spec B.2 §8).

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::charge::{ChargingUnit, Frontage, outnumbered, side_score, stands_counted, supported};
use super::combatant::Combatant;
use super::data::{Category, ChargeResult};
use super::evade::{EvadeOutcome, EvadeTest, evade_outcome};
use super::responses::{Response, rabble_answer};
use super::results::{AfterCharge, ResultContext, outcome};
use super::*;

/// How a charged unit meets its chargers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Meets {
    Stands,
    Evades,
    CounterCharges,
    /// It declared a charge of its own.
    Charging,
}

struct Engagement {
    target: UnitId,
    chargers: Vec<UnitId>,
    meets: Meets,
}

fn engagements(world: &World) -> Vec<Engagement> {
    let s = state(world);
    let mut out: Vec<Engagement> = Vec::new();
    for d in &s.declared {
        match out.iter_mut().find(|e| e.target == d.target) {
            Some(e) => e.chargers.push(d.charger),
            None => {
                let charging = s.declared.iter().any(|o| o.charger == d.target);
                let meets = match s.answers.iter().find(|a| a.unit == d.target) {
                    _ if charging => Meets::Charging,
                    Some(a) => match a.response {
                        Response::Evade | Response::EvadeShoot => Meets::Evades,
                        Response::CounterCharge => Meets::CounterCharges,
                        Response::Stand | Response::StandHold | Response::AboutFace => {
                            Meets::Stands
                        }
                    },
                    None => Meets::Stands,
                };
                out.push(Engagement {
                    target: d.target,
                    chargers: vec![d.charger],
                    meets,
                });
            }
        }
    }
    out.sort_by_key(|e| e.target);
    out
}

fn category(world: &World, id: UnitId) -> Category {
    troop_ref(world, id).category
}

/// A move die (7.6) and its fatigue (7.7); the hexes it gives.
fn move_die(world: &mut World, id: UnitId, what: &'static str) -> (u8, u32) {
    let die = super::super::common::roll(world, "C&M 7.6", |w| {
        format!("{}'s {what} move", plain_name(w, id))
    });
    let t = tables(world);
    let hexes = moves::fast_move(&t.charts.charge_move, category(world, id), die);
    let difficult = movement::in_difficult(world, stands(world, id));
    if moves::fatigue_dp(&t.charts.charge_move, die, difficult) {
        add_dps(world, id, 1, "C&M 7.7");
    }
    (die, u32::from(hexes))
}

/// The resolution step: entered after the responses.
pub fn resolve(world: &mut World) {
    let mut list = engagements(world);
    if list.is_empty() {
        clear(world);
        return;
    }
    log(world, EventKind::PhaseStarted, "C&M 7.2", |_| {
        "Charge resolution: rabble, evade tests, move dice, then the combats".to_string()
    });
    let t = tables(world);
    // Charges falling on a flank, read where they begin (7.13).
    let flank: Vec<(UnitId, UnitId)> = list
        .iter()
        .flat_map(|e| e.chargers.iter().map(move |c| (e.target, *c)))
        .filter(|(u, c)| aboutface::from_flank(world, *u, *c))
        .collect();
    let waits_to_shoot = |w: &World, u: UnitId| {
        state(w)
            .answers
            .iter()
            .any(|a| a.unit == u && a.response == Response::EvadeShoot)
    };
    // 7.14: a unit that stands may hold its fire.
    let holds_fire = |w: &World, u: UnitId| {
        state(w)
            .answers
            .iter()
            .any(|a| a.unit == u && a.response == Response::StandHold)
    };
    let mut broke: Vec<UnitId> = Vec::new();
    // 1. Armed rabble's answers (7.10).
    for e in &mut list {
        let answered = state(world).answers.iter().any(|a| a.unit == e.target);
        if e.meets != Meets::Charging
            && !answered
            && troop_ref(world, e.target).response == data::ResponseRow::ArmedRabble
        {
            let die = super::super::common::roll(world, "C&M 7.10", |w| {
                format!("{}'s answer (armed rabble)", plain_name(w, e.target))
            });
            let r = rabble_answer(die, t.charts.responses.rabble_counter_charge_from);
            charges::record_answer(world, e.target, r, "C&M 7.10");
            if r == Response::CounterCharge {
                e.meets = Meets::CounterCharges;
            }
        }
    }
    // 2. Evade tests (7.11).
    for e in &mut list {
        if e.meets != Meets::Evades {
            continue;
        }
        let u = *component::<CmUnit>(world, e.target);
        let die = roll_grade(world, u.grade, "C&M 7.11", |w| {
            format!("{}'s evade test", plain_name(w, e.target))
        });
        let m = morale(world, e.target);
        let test = EvadeTest {
            die,
            morale: u.mv,
            dps: m.dps,
            shaken: m.shaken,
            inspiring_cps: command::inspiring_cps_near(world, e.target),
        };
        match evade_outcome(&t.charts.evade, &test) {
            EvadeOutcome::Evades => {}
            EvadeOutcome::ShakenAndStands => {
                make_shaken(world, e.target, "C&M 7.11");
                e.meets = Meets::Stands;
            }
            EvadeOutcome::Breaks => {
                log(world, EventKind::CombatResult, "C&M 7.11", |w| {
                    format!("{} fails to evade and breaks", name(w, e.target))
                });
                world.resource_mut::<CmState>().after.push_back(AfterMove {
                    unit: e.target,
                    moves: vec![AfterCharge::Break],
                    opponents: e.chargers.clone(),
                    rule: "C&M 7.11",
                    dps_unless_pursuing: 0,
                });
                broke.push(e.target);
                e.meets = Meets::Stands;
            }
        }
    }
    // 3. Move dice: evaders, counter-chargers, then chargers in declaration order.
    let mut evades: Vec<(UnitId, u32, Vec<UnitId>)> = Vec::new();
    let mut counters: Vec<(UnitId, u32, UnitId)> = Vec::new();
    for e in &list {
        match e.meets {
            Meets::Evades => {
                let (die, _) = move_die(world, e.target, "evade");
                let tr = troop_ref(world, e.target);
                let shoots = waits_to_shoot(world, e.target);
                let hexes =
                    moves::evade_move(&t.charts.charge_move, tr.category, tr.light, die, shoots);
                evades.push((e.target, u32::from(hexes), e.chargers.clone()));
            }
            Meets::CounterCharges => {
                let (_, hexes) = move_die(world, e.target, "counter-charge");
                counters.push((e.target, hexes, e.chargers[0]));
            }
            _ => {}
        }
    }
    let declared = state(world).declared.clone();
    let mut charges: Vec<(UnitId, u32, UnitId)> = Vec::new();
    for d in &declared {
        // A charge carried on (7.8) goes on with the hexes it had left: no new die.
        let hexes = match carryon::take_hexes(world, d.charger) {
            Some(h) => h,
            None => move_die(world, d.charger, "charge").1,
        };
        charges.push((d.charger, hexes, d.target));
    }
    // 3b. Shooting at the chargers (7.14): units standing, and evaders that said they
    // wait to shoot, unless they broke or counter-charged.
    let volleys: Vec<(UnitId, Vec<(UnitId, u32)>)> = list
        .iter()
        .filter(|e| match e.meets {
            Meets::Stands => !broke.contains(&e.target) && !holds_fire(world, e.target),
            Meets::Evades => waits_to_shoot(world, e.target),
            Meets::CounterCharges | Meets::Charging => false,
        })
        .map(|e| {
            let moves = e
                .chargers
                .iter()
                .filter_map(|c| {
                    charges
                        .iter()
                        .find(|(id, _, tg)| id == c && *tg == e.target)
                        .map(|(_, hexes, _)| (*c, *hexes))
                })
                .collect();
            (e.target, moves)
        })
        .collect();
    missile::at_chargers(world, &volleys);
    // 4. The moves: evaders first (unformed, directly away), counter-chargers half way
    // (7.12), then chargers until contact (7.7).
    for (id, hexes, from) in &evades {
        component_mut::<CmFormation>(world, *id).id = FormationId::Unformed;
        let moved = movement::flee(world, *id, from, *hexes);
        log(world, EventKind::Moved, "C&M 7.11", |w| {
            format!("{} evades {}, unformed", name(w, *id), moves::hexes(moved))
        });
    }
    for (id, hexes, charger) in &counters {
        let gap = gap_between(world, *id, *charger);
        let adv = responses::counter_charge_advance(
            gap,
            category(world, *id),
            category(world, *charger),
            *hexes as u8,
        );
        let moved = movement::close_in(world, *id, &[*charger], adv);
        log(world, EventKind::Moved, "C&M 7.12", |w| {
            format!("{} counter-charges {}", name(w, *id), moves::hexes(moved))
        });
    }
    for (id, hexes, target) in &charges {
        // 7.8: after an evader, on up to the full distance, into any new opponent.
        let evaded = evades.iter().any(|(u, _, _)| u == target);
        let moved = if evaded {
            carryon::charge_through(world, *id, *target, *hexes)
        } else {
            movement::close_in(world, *id, &[*target], *hexes)
        };
        let hit = in_contact(world, *id, *target);
        if !hit && !evaded {
            command::record_fell_short(world, *id);
        }
        log(world, EventKind::Moved, "C&M 7.7", |w| {
            format!(
                "{} charges {}{}",
                name(w, *id),
                moves::hexes(moved),
                if hit {
                    format!(" into contact with {}", plain_name(w, *target))
                } else if evaded {
                    format!(" after {}, which evaded (7.8)", plain_name(w, *target))
                } else {
                    " and falls short (7.9)".to_string()
                }
            )
        });
    }
    // 4b. A unit standing to receive a flank charge becomes unformed (7.13).
    for e in &list {
        if e.meets == Meets::Stands
            && !broke.contains(&e.target)
            && is_troop(world, e.target)
            && let Some(c) = e.chargers.iter().copied().find(|c| {
                flank.contains(&(e.target, *c))
                    && is_troop(world, *c)
                    && in_contact(world, *c, e.target)
            })
        {
            aboutface::unformed_by_flank_charge(world, e.target, c);
        }
    }
    // 5. The combats (7.15): dice, defender first, then the chargers in contact. Two
    // units that charged each other fight one combat, both charging ("opposing units
    // which successfully contact each other ... compare their relative strengths"):
    // the pair's second engagement finds it met already.
    let mut fought: Vec<UnitId> = Vec::new();
    let mut met: Vec<(UnitId, UnitId)> = Vec::new();
    let mut results: Vec<Fought> = Vec::new();
    let mut combats = Vec::new();
    for e in &list {
        if placement(world, e.target).hex().is_none() {
            continue;
        }
        let attackers: Vec<UnitId> = e
            .chargers
            .iter()
            .copied()
            .filter(|c| {
                is_troop(world, *c)
                    && in_contact(world, *c, e.target)
                    && !met.contains(&(*c, e.target))
            })
            .collect();
        if attackers.is_empty() {
            continue;
        }
        let d_charged = matches!(e.meets, Meets::CounterCharges | Meets::Charging);
        met.extend(
            attackers
                .iter()
                .flat_map(|&a| [(a, e.target), (e.target, a)]),
        );
        combats.push((e.target, attackers, d_charged));
    }
    // A battle line charging as one body fights one combat (7.1, 7.15).
    for c in battleline::merge(world, combats) {
        results.extend(combat(world, &c.targets, &c.attackers, &c.charged));
        fought.extend(&c.targets);
        fought.extend(&c.attackers);
    }
    // 6. The results together (7.16).
    apply_results(world, results);
    // 7. The risk to leaders whose command stand fought (spec B.2 §8).
    fought.sort();
    fought.dedup();
    victory::risk_to_leaders(world, &fought);
    clear(world);
}

/// A unit's result in a charge combat: the band, what it does, and its opponents.
pub(crate) type Fought = (UnitId, ChargeResult, super::results::Outcome, Vec<UnitId>);

/// One charge combat (7.15): `defenders` (one, or the enemies a battle line struck as
/// one body, 7.1) receive `attackers` (in contact), each defender charging itself when
/// its `d_charged` (a counter-charge or a charge of its own). The dice, defenders first,
/// and each unit's result; nothing is applied yet.
pub(crate) fn combat(
    world: &mut World,
    defenders: &[UnitId],
    attackers: &[UnitId],
    d_charged: &[bool],
) -> Vec<Fought> {
    let mut dice = Vec::with_capacity(defenders.len() + attackers.len());
    for &u in defenders.iter().chain(attackers) {
        let g = component::<CmUnit>(world, u).grade;
        dice.push(roll_grade(world, g, "C&M 7.15", |w| {
            format!("{}'s charge total", plain_name(w, u))
        }));
    }
    let mut results: Vec<Fought> = Vec::new();
    // Each side's scores and result, logged once the units' reads are done with.
    let mut read: Vec<(i32, i32, ChargeResult)> = Vec::new();
    {
        let w = Where::now(world);
        let chart = &w.tables.charts.charge;
        let defenders = Combatant::read_all(w, defenders);
        let attackers = Combatant::read_all(w, attackers);
        let scores = charge_scores(w, &defenders, &attackers, d_charged, &dice);
        let a_charged = vec![true; attackers.len()];
        let sides = [
            (&defenders, &attackers, d_charged),
            (&attackers, &defenders, &a_charged[..]),
        ];
        for (k, (own, enemy, flags)) in sides.iter().enumerate() {
            let result = charge::result(chart, scores[k], scores[1 - k]);
            let by_mounted = enemy.iter().all(|e| e.troop.category.mounted());
            let any_mounted = enemy.iter().any(|e| e.troop.category.mounted());
            let only_light = enemy.iter().all(|e| e.troop.light);
            let opponents: Vec<UnitId> = enemy.iter().map(|e| e.id).collect();
            for (u, &charged) in own.iter().zip(flags.iter()) {
                let foe_good_foot = enemy.iter().any(|o| {
                    o.troop.category == Category::Infantry
                        && o.formation.formed()
                        && charges::stands_ahead(o.formation, o.stands, u.stands)
                });
                let ctx = ResultContext {
                    troop: u.troop,
                    grade: u.unit.grade,
                    formation: u.formation.id,
                    shaken: u.morale.shaken,
                    charged,
                    stood_against_mounted: !charged && any_mounted,
                    charged_by_mounted_only: !charged && by_mounted,
                    charged_good_order_foot_frontally: charged
                        && u.troop.category == Category::Cavalry
                        && foe_good_foot,
                    opposed_only_by_light: only_light,
                };
                let out = outcome(chart, result, &ctx);
                results.push((u.id, result, out, opponents.clone()));
            }
            read.push((scores[k], scores[1 - k], result));
        }
    }
    for ((own_score, enemy_score, result), own) in read.into_iter().zip([defenders, attackers]) {
        log(world, EventKind::CombatResult, "C&M 7.15", |w| {
            let names: Vec<String> = own.iter().map(|u| plain_name(w, *u)).collect();
            format!(
                "{}: {} against {}: {}",
                names.join(", "),
                own_score,
                enemy_score,
                super::preview::result_name(result)
            )
        });
    }
    results
}

/// The results of charge combats together (7.16): DPs, casualties, shaken; the moves
/// queued losers first, then on an inconclusive result the initiative side first, then
/// the winners.
pub(crate) fn apply_results(world: &mut World, mut results: Vec<Fought>) {
    for (u, _, out, _) in &results {
        add_dps(world, *u, out.dps, "C&M 7.15");
        if out.casualties > 0 && is_troop(world, *u) {
            remove_stands(world, *u, out.casualties, "C&M 7.15");
        }
        if out.becomes_shaken && is_troop(world, *u) {
            make_shaken(world, *u, "C&M 7.15");
        }
    }
    let first = state(world).initiative;
    let rank = |w: &World, (u, r, _, _): &Fought| {
        let loser = matches!(
            r,
            ChargeResult::SetBack | ChargeResult::Defeat | ChargeResult::Rout
        );
        let even = *r == ChargeResult::Inconclusive;
        let mine = side_of(w, *u) == first;
        (
            if loser {
                0
            } else if even && mine {
                1
            } else if even {
                2
            } else {
                3
            },
            *u,
        )
    };
    results.sort_by_key(|r| rank(world, r));
    for (u, _, out, opponents) in results {
        world.resource_mut::<CmState>().after.push_back(AfterMove {
            unit: u,
            moves: out.moves,
            opponents,
            rule: "C&M 7.16",
            dps_unless_pursuing: out.dps_if_no_pursuit,
        });
    }
}

/// The two scores of a charge combat (7.15): the defenders' (each `d_charged` when it
/// counter-charged or charged itself) and the attackers', from their dice (the values
/// read through each unit's grade, defenders first) — the resolver's arithmetic, which
/// the charge preview runs over every face.
pub(crate) fn charge_scores(
    w: Where,
    defenders: &[Combatant],
    attackers: &[Combatant],
    d_charged: &[bool],
    dice: &[u8],
) -> [i32; 2] {
    let t = w.tables;
    let (d_dice, a_dice) = dice.split_at(defenders.len());
    let a_charged = vec![true; attackers.len()];
    let sides = [
        (defenders, attackers, d_charged, d_dice),
        (attackers, defenders, &a_charged[..], a_dice),
    ];
    // Each unit's frontage against the other side, worked out once: both sides' counts
    // and each unit's own score read it.
    let frontages = sides.map(|(own, enemy, charged, _)| {
        own.iter()
            .zip(charged.iter())
            .map(|(u, c)| frontage(u, enemy, *c))
            .collect::<Vec<_>>()
    });
    let counted = |k: usize| -> u32 { frontages[k].iter().map(stands_counted).sum() };
    let mut scores = [0i32; 2];
    for (k, (own, enemy, charged, dice)) in sides.iter().enumerate() {
        let elephants = own.iter().all(|u| u.troop.category == Category::Elephants);
        let o = outnumbered(&t.charts.charge, counted(k), counted(1 - k), elephants);
        let units: Vec<ChargingUnit> = own
            .iter()
            .zip(dice.iter())
            .zip(charged.iter())
            .zip(&frontages[k])
            .map(|(((u, die), c), f)| charging_unit(w, u, enemy, *c, *die, f))
            .collect();
        scores[k] = side_score(t, &units, o);
    }
    scores
}

fn clear(world: &mut World) {
    world
        .resource_mut::<command::CmCommandState>()
        .bodies
        .clear();
    let mut s = world.resource_mut::<CmState>();
    s.declared.clear();
    s.answers.clear();
}

/// A unit's stands in a charge combat against `enemy` (7.15: numbers, supported).
pub(crate) fn frontage(u: &Combatant, enemy: &[Combatant], charged: bool) -> Frontage {
    let own = u.stands;
    let f = u.formation;
    let touches_enemy = |s: HexCoord| {
        enemy
            .iter()
            .any(|e| e.stands.iter().any(|x| x.is_adjacent(s)))
    };
    let engaged = own.iter().filter(|s| touches_enemy(**s)).count() as u32;
    // A second rank: stands whose front hex is an engaged stand of the unit.
    let second = if f.formed() {
        own.iter()
            .map(|s| f.facing.front(*s))
            .filter(|ahead| own.contains(ahead) && touches_enemy(*ahead))
            .count() as u32
    } else {
        0
    };
    let front_rank = own
        .iter()
        .filter(|s| !f.formed() || !own.contains(&f.facing.front(**s)))
        .count() as u32;
    let spare = front_rank.saturating_sub(engaged);
    Frontage {
        engaged,
        overlapping: [spare.min(1), spare.saturating_sub(1).min(1)],
        second_rank: second,
        charged_in_cuneus: charged && f.id == FormationId::Cuneus,
        hit_in_flank_or_rear: f.formed()
            && !enemy
                .iter()
                .any(|e| charges::stands_ahead(f, own, e.stands)),
    }
}

fn charging_unit<'a>(
    w: Where,
    u: &Combatant<'a>,
    enemy: &[Combatant],
    charged: bool,
    die: u8,
    f: &Frontage,
) -> ChargingUnit<'a> {
    let m = u.morale;
    let mut c = ChargingUnit::new(u.troop, charged, die);
    c.morale = u.unit.mv;
    c.formation = u.formation.id;
    c.dps = m.dps;
    c.casualties = m.casualties;
    c.shaken = m.shaken;
    c.advantage_of_ground = enemy.iter().all(|e| u.height > e.height);
    c.supported = supported(f);
    c.leader = command::front_rank_leader(w.world, u.id);
    c.against_unformed_foot = charged
        && u.troop.category.mounted()
        && enemy
            .iter()
            .any(|e| e.troop.category == Category::Infantry && !e.formation.formed());
    c
}

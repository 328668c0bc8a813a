//! The melee in the game (CtB 10.0-11.3, 12.0, 13.0): which Battle Stands fight and
//! with which supports, each side's pool term by term, the throw, both Morale Tests,
//! the verdict with its SP losses, ongoing melees, the loser's retreat and the winner's
//! pursuit.

use bevy::prelude::*;

use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::units::UnitId;

use super::combat::{
    MeleeSituation, battle_pool, impact_factor, melee_dice, stand_pool, support_dice,
};
use super::decision::Pending;
use super::geometry::{Side, side_touched};
use super::pool::Pool;
use super::posture::{Posture, flank_strike_between, situation_between};
use super::retreat::{PursuitAfter, RetreatJob};
use super::verdict::{Fighter, Pursuit, Verdict, attacked_frontally, melee_verdict, pursuit};
use super::{
    CtbState, OngoingMelee, acts, acts_mut, facing, hex_of, log, plain_name, ranks, side_of, stand,
    state, status,
};

/// A checked melee: the two Battle Stands (the attacker first), the supports of each,
/// whether the attacker charged (impact: CtB 10.3) and each side's pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FightPlan {
    pub stands: [UnitId; 2],
    pub supports: [Vec<UnitId>; 2],
    pub charge: bool,
    pub pools: [Pool; 2],
    /// The place in the queue of the pending melee it answers, if any.
    pub answers: Option<usize>,
    /// The charge strikes the defender's flank or rear from behind its front line: it
    /// is disordered before it fights (CtB 10.5).
    pub flank_strike: bool,
    /// Other enemies the charge contacted, neither Battle Stand nor support: they
    /// retreat in disorder if their Battle Stand loses (CtB 10.2).
    pub bystanders: Vec<UnitId>,
    /// A charge reignited an ongoing melee (CtB 11.4), or a victor joining it
    /// (`charge_joined` false).
    pub reignites: bool,
    pub charge_joined: bool,
    /// The defender has chosen its supports (CtB 10.7, R-10.7).
    pub defence_chosen: bool,
}

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

/// The enemies a charger may name its opposing Battle Stand among (CtB 10.2): the stand
/// its pursuit caught; else a Combat Stand before a Support Stand, then one contacted
/// through its front before one contacted on a flank or the rear.
pub fn battle_candidates(world: &World, charger: UnitId, enemies: &[UnitId]) -> Vec<UnitId> {
    let Some(ch) = hex_of(world, charger) else {
        return Vec::new();
    };
    let mut cands: Vec<UnitId> = enemies
        .iter()
        .copied()
        .filter(|e| hex_of(world, *e).is_some() && stand(world, *e).is_some())
        .collect();
    if let Some(p) = acts(world, charger).pursuing.filter(|p| cands.contains(p)) {
        return vec![p];
    }
    let combat =
        |e: &UnitId| stand(world, *e).is_some_and(|s| s.spec.role == super::data::Role::Combat);
    if cands.iter().any(combat) {
        cands.retain(combat);
    }
    let facing_us = |e: &UnitId| {
        hex_of(world, *e)
            .is_some_and(|h| side_touched(h, facing(world, *e), ch) == Some(Side::Front))
    };
    if cands.iter().any(facing_us) {
        cands.retain(facing_us);
    }
    cands
}

/// The situation of a stand fighting `enemy` (CtB 10.3-10.5, 7.4): its impact if it
/// charged, its rank dice, uphill, flank and heavy cavalry's contact, disorder.
fn situation(world: &World, me: UnitId, enemy: UnitId, charged: bool) -> MeleeSituation {
    situation_between(
        world,
        (me, &Posture::now(world, me)),
        (enemy, &Posture::now(world, enemy)),
        charged,
    )
}

/// A stand's own pool against `enemy`; `struck` when a flank strike disorders it first.
fn own_pool(world: &World, me: UnitId, enemy: UnitId, charged: bool, struck: bool) -> Pool {
    let m = super::tables(world).factors.melee.clone();
    let mut s = situation(world, me, enemy, charged);
    s.disordered |= struck;
    stand_pool(&m, ranks(world, me).front(), s)
}

/// The two Battle Stands' own pools, without supports (CtB 10.1-10.5), of `a` charging
/// or not from where and as `posture` says into `d` as it stands now, the flank strike
/// disordering `d` first: the threat map's melee.
pub fn pools_alone(
    world: &World,
    a: UnitId,
    posture: &Posture,
    d: UnitId,
    charge: bool,
) -> [Pool; 2] {
    let m = super::tables(world).factors.melee.clone();
    let theirs = Posture::now(world, d);
    let struck = flank_strike_between(world, (a, posture), (d, &theirs), charge);
    let mine = situation_between(world, (a, posture), (d, &theirs), charge);
    let mut them = situation_between(world, (d, &theirs), (a, posture), false);
    them.disordered |= struck;
    [
        stand_pool(&m, ranks(world, a).front(), mine),
        stand_pool(&m, ranks(world, d).front(), them),
    ]
}

/// Whether a charge strikes the defender's flank or rear from behind its front line
/// after moving at least a hex (CtB 10.5): the defender is then disordered.
fn flank_strike(world: &World, a: UnitId, d: UnitId, charge: bool) -> bool {
    if hex_of(world, a).is_none() || hex_of(world, d).is_none() {
        return false;
    }
    flank_strike_between(
        world,
        (a, &Posture::now(world, a)),
        (d, &Posture::now(world, d)),
        charge,
    )
}

/// What the verdict reads of both sides of a melee, before the dice (CtB 11.0-11.2).
struct Sides {
    specs: [super::data::TypeSpec; 2],
    sps: [u8; 2],
    testers: [super::morale::Tester; 2],
    pike_front: [bool; 2],
    hc_flank: bool,
    supported: [bool; 2],
}

fn sides(world: &World, plan: &FightPlan) -> Sides {
    let specs = plan
        .stands
        .map(|u| stand(world, u).expect("a stand").spec.clone());
    let mut testers = plan.stands.map(|u| super::results::tester(world, u));
    if plan.flank_strike {
        testers[1].disordered = true;
    }
    let pike_front = [0, 1].map(|me: usize| {
        let other = plan.stands[1 - me];
        let s = stand(world, other).expect("a stand");
        let (oh, mh) = (
            hex_of(world, other).expect("on map"),
            hex_of(world, plan.stands[me]).expect("on map"),
        );
        // Frontally as 10.4 counts it: a schiltron has no flank.
        let side = side_touched(oh, facing(world, other), mh).unwrap_or(Side::Rear);
        s.spec.ranks.is_some()
            && attacked_frontally(side, s.special.as_ref(), acts(world, other).moves > 0)
    });
    // Heavy cavalry's own flank charge (CtB 11.1); not a support's that reignited it.
    let hc_flank = plan.flank_strike && !plan.reignites && specs[0].id == "HC" && !specs[1].mounted;
    Sides {
        sps: plan.stands.map(|u| ranks(world, u).total()),
        specs,
        testers,
        pike_front,
        hc_flank,
        supported: [0, 1].map(|i| !plan.supports[i].is_empty()),
    }
}

/// The verdict from both morale losses (CtB 11.0-11.3).
fn verdict_of(
    m: &super::data::MeleeFactors,
    s: &Sides,
    loss: [u8; 2],
    tested: [bool; 2],
) -> Verdict {
    let fighters = [0, 1].map(|i| Fighter {
        spec: &s.specs[i],
        morale_loss: loss[i],
        tested: tested[i],
        disordered: s.testers[i].disordered,
        sp: s.sps[i],
        supported: s.supported[i],
        hc_flank_charge: i == 0 && s.hc_flank,
        against_pike_front: s.pike_front[i],
    });
    melee_verdict(m, fighters)
}

/// The exact chance of each outcome of a checked melee (for the window's preview):
/// over both throws' hits and both Morale Tests' dice, with the verdict the resolver
/// calls (CtB 10.1, 7.0, 11.0-11.3).
pub fn chances(world: &World, plan: &FightPlan) -> Vec<(String, f64)> {
    let tables = super::tables(world);
    let (m, f) = (&tables.factors.melee, &tables.factors.morale);
    let s = sides(world, plan);
    let names = plan.stands.map(|u| plain_name(world, u));
    let hits = [0, 1].map(|i| super::pool::hit_distribution(melee_dice(m, &plan.pools[i])));
    let mut out: std::collections::BTreeMap<String, f64> = Default::default();
    let mut sure = [0.0; 6];
    sure[0] = 1.0;
    for (a, pa) in hits[0].iter().enumerate() {
        for (b, pb) in hits[1].iter().enumerate() {
            let taken = [b as u32, a as u32];
            let dist = [0, 1].map(|i| {
                if taken[i] > 0 {
                    super::morale::loss_distribution(
                        super::morale::adjusted_morale(&s.testers[i], taken[i], f),
                        f,
                    )
                } else {
                    sure
                }
            });
            for (l0, q0) in dist[0].iter().enumerate().filter(|(_, q)| **q > 0.0) {
                for (l1, q1) in dist[1].iter().enumerate().filter(|(_, q)| **q > 0.0) {
                    let v = verdict_of(m, &s, [l0 as u8, l1 as u8], [taken[0] > 0, taken[1] > 0]);
                    // Short labels: the window's panel is narrow. The order of the SP
                    // lost is the preview's (attacker, defender).
                    let key = match v {
                        Verdict::Won { loser, sp } => {
                            format!("{} wins; SP lost {}-{}", names[1 - loser], sp[0], sp[1])
                        }
                        Verdict::Ongoing { sp } => {
                            format!("ongoing melee; SP lost {}-{}", sp[0], sp[1])
                        }
                    };
                    *out.entry(key).or_default() += pa * pb * q0 * q1;
                }
            }
        }
    }
    let mut list: Vec<(String, f64)> = out.into_iter().collect();
    list.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    list
}

/// Checks `fight` (CtB 10.2, 10.7): the pending melee's stand against one of the
/// enemies it contacted, or a stand of the activating group already in front contact,
/// once a round; supports with a front hex on the enemy Battle Stand.
pub fn check_fight(
    world: &World,
    id: UnitId,
    enemy: UnitId,
    with: &[UnitId],
) -> Result<FightPlan, Refusal> {
    let name = super::Named(world, id);
    // Of a group's melees waiting together, the player fights them in the order he
    // chooses (CtB 3.8, A1): the one of this stand, else the first.
    let waiting = super::decision::waiting_fights(world);
    let (index, pending) = waiting
        .iter()
        .find(|(_, p)| {
            matches!(p, Pending::Fight { stand, enemies, .. } if *stand == id && enemies.contains(&enemy))
        })
        .or_else(|| {
            waiting
                .iter()
                .find(|(_, p)| matches!(p, Pending::Fight { stand, .. } if *stand == id))
        })
        .cloned()
        .map_or_else(
            || (0, state(world).pending.front().cloned()),
            |(i, p)| (i, Some(p)),
        );
    let contacted: Vec<UnitId> = match &pending {
        Some(Pending::Fight { enemies, .. }) => enemies.clone(),
        _ => Vec::new(),
    };
    let (charge, answers) = match pending {
        Some(Pending::Fight {
            stand,
            enemies,
            charge,
        }) => {
            if stand == id && enemies.contains(&enemy) {
                let cands = battle_candidates(world, id, &enemies);
                if !cands.contains(&enemy) {
                    return Err(refuse(
                        "CtB 10.2",
                        format!(
                            "{} cannot be the Battle Stand: a Combat Stand comes before a Support Stand, and a stand contacted in front before one on its flank; name {}",
                            plain_name(world, enemy),
                            cands
                                .iter()
                                .map(|e| plain_name(world, *e))
                                .collect::<Vec<_>>()
                                .join(" or ")
                        ),
                    ));
                }
            }
            if stand != id || !enemies.contains(&enemy) {
                return Err(refuse(
                    "CtB 10.2",
                    format!(
                        "the melee waiting is {}'s against {}",
                        plain_name(world, stand),
                        enemies
                            .iter()
                            .map(|e| plain_name(world, *e))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ),
                ));
            }
            (charge, Some(index))
        }
        Some(_) => return Err(refuse("CtB 10.2", "another decision waits")),
        None => {
            if super::phase(world) != super::CtbPhase::Activation
                || super::group_of(world, id) != state(world).activation
            {
                return Err(refuse(
                    "CtB 1.4",
                    format!("{name} is not of the group moving"),
                ));
            }
            if acts(world, id).fought {
                return Err(refuse("CtB 10.2", format!("{name} has fought this round")));
            }
            let side = side_of(world, id);
            let hex = hex_of(world, id).expect("on map");
            let front = super::moving::enemies_in_front(world, side, hex, facing(world, id));
            // An ongoing melee is fought again whichever face the enemy touches
            // (CtB 10.5, 11.3).
            let locked = state(world)
                .melees
                .iter()
                .any(|m| m.stands.contains(&id) && m.stands.contains(&enemy));
            if !locked {
                if !front.contains(&enemy) {
                    return Err(refuse(
                        "CtB 10.2",
                        format!(
                            "{} is not in {name}'s front hexes",
                            plain_name(world, enemy)
                        ),
                    ));
                }
                let at = hex_of(world, id).expect("a stand in a melee is on the map");
                let from = acts(world, id).move_start.unwrap_or(at);
                super::moving::may_contact(world, id, enemy, at, from)?;
            }
            (false, None)
        }
    };
    if stand(world, enemy).is_none() || hex_of(world, enemy).is_none() {
        return Err(refuse(
            "CtB 10.2",
            "the enemy Battle Stand is not on the map",
        ));
    }
    // A charge into an enemy Battle Stand already locked in an ongoing melee with one of
    // ours reignites that melee: its Battle Stands fight again and the charger joins as
    // a support (CtB 10.7, 11.4).
    let side = side_of(world, id);
    let partner = state(world).melees.iter().find_map(|m| {
        let i = m.stands.iter().position(|s| *s == enemy)?;
        let other = m.stands[1 - i];
        (other != id && side_of(world, other) == side).then_some(other)
    });
    if answers.is_some()
        && let Some(partner) = partner
    {
        let mut supports = vec![id];
        supports.extend(with.iter().copied().filter(|u| *u != partner && *u != id));
        // Where the charger cannot join it (it supports another melee of that enemy),
        // it fights a melee of its own.
        if let Ok(mut plan) = plan_fight(
            world,
            partner,
            enemy,
            &supports,
            false,
            answers,
            contacted.clone(),
        ) {
            plan.reignites = true;
            plan.charge_joined = charge;
            // The charger striking the Battle Stand's flank from behind its front line
            // disorders it, though the charger is only a support (CtB 10.5, 11.4).
            if !plan.flank_strike && flank_strike(world, id, enemy, charge) {
                plan.flank_strike = true;
                plan.pools[1] = defence_pool(world, &plan, &plan.supports[1]);
            }
            return Ok(plan);
        }
    }
    plan_fight(world, id, enemy, with, charge, answers, contacted)
}

/// The plan of a melee once its Battle Stands are known (CtB 10.2-10.7).
fn plan_fight(
    world: &World,
    id: UnitId,
    enemy: UnitId,
    with: &[UnitId],
    charge: bool,
    answers: Option<usize>,
    contacted: Vec<UnitId>,
) -> Result<FightPlan, Refusal> {
    let eligible = super::supports::eligible_supports(world, id, enemy);
    for w in with {
        if !eligible.contains(w) {
            return Err(refuse(
                "CtB 10.7",
                format!(
                    "{} cannot support: a support has a front hex on the enemy Battle Stand and is in no other melee",
                    plain_name(world, *w)
                ),
            ));
        }
    }
    let struck = flank_strike(world, id, enemy, charge);
    let mut supports_them = super::supports::eligible_supports(world, enemy, id);
    supports_them.retain(|u| !with.contains(u));
    let m = super::tables(world).factors.melee.clone();
    let share = |own: UnitId, foe: UnitId, charged: bool| -> (String, u32) {
        let p = own_pool(world, own, foe, charged, false);
        (plain_name(world, own), p.dice().max(1))
    };
    let mine: Vec<(String, u32)> = with
        .iter()
        .map(|u| {
            let t = acts(world, *u);
            share(*u, enemy, t.contacted.contains(&enemy) && !t.impact_used)
        })
        .collect();
    let p0 = battle_pool(
        &m,
        own_pool(
            world,
            id,
            enemy,
            charge && !acts(world, id).impact_used,
            false,
        ),
        &mine
            .iter()
            .map(|(n, d)| (n.as_str(), *d))
            .collect::<Vec<_>>(),
    );
    let _ = support_dice;
    let mut plan = FightPlan {
        stands: [id, enemy],
        supports: [with.to_vec(), Vec::new()],
        charge,
        pools: [p0, Pool::default()],
        answers,
        flank_strike: struck,
        bystanders: contacted
            .into_iter()
            .filter(|e| *e != enemy && hex_of(world, *e).is_some())
            .collect(),
        reignites: false,
        charge_joined: false,
        defence_chosen: false,
    };
    plan.pools[1] = defence_pool(world, &plan, &supports_them);
    plan.supports[1] = supports_them;
    Ok(plan)
}

/// The defending Battle Stand's pool with `supports` (CtB 10.1, 10.7): its own dice,
/// struck or not, and half of each support's.
pub fn defence_pool(world: &World, plan: &FightPlan, supports: &[UnitId]) -> Pool {
    let [id, enemy] = plan.stands;
    let theirs: Vec<(String, u32)> = supports
        .iter()
        .map(|u| {
            let p = own_pool(world, *u, id, false, false);
            (plain_name(world, *u), p.dice().max(1))
        })
        .collect();
    battle_pool(
        &super::tables(world).factors.melee,
        own_pool(world, enemy, id, false, plan.flank_strike),
        &theirs
            .iter()
            .map(|(n, d)| (n.as_str(), *d))
            .collect::<Vec<_>>(),
    )
}

/// Fights a checked melee (CtB 10.1-13.1).
pub fn execute_fight(world: &mut World, mut plan: FightPlan) {
    if let Some(i) = plan.answers.take() {
        world.resource_mut::<CtbState>().pending.remove(i);
        // One Battle Stand for each enemy stand (A1): a stand that took part in this
        // melee does not fight the enemy Battle Stand again in a melee of its own.
        let [a, d] = plan.stands;
        let mut ours = plan.supports[0].clone();
        ours.push(a);
        let mut s = world.resource_mut::<CtbState>();
        for p in s.pending.iter_mut() {
            if let Pending::Fight { stand, enemies, .. } = p
                && ours.contains(stand)
            {
                enemies.retain(|e| *e != d);
            }
        }
        s.pending
            .retain(|p| !matches!(p, Pending::Fight { enemies, .. } if enemies.is_empty()));
    }
    // Skirmishers in the open met by a formed stand do not fight: they are destroyed
    // (CtB 10.6), whatever brought the contact about (a pursuit, a trigger of
    // opportunity, a turn in place).
    if super::reactions::skirmishers_in_the_open(world, plan.stands[1], plan.stands[0]) {
        super::refresh_zones(world);
        return;
    }
    // The defender chooses its supports before the dice (CtB 10.7, R-10.7).
    if super::supports::ask_defender(world, &plan) {
        return;
    }
    super::ongoing::pull_out_supports(world, plan.stands);
    let [a, d] = plan.stands;
    if plan.reignites {
        let joined = plan.supports[0].first().copied();
        let charged = plan.charge_joined;
        log(world, EventKind::CombatDeclared, "CtB 11.4", |w| {
            let who = joined.map_or(String::new(), |j| plain_name(w, j));
            if charged {
                format!(
                    "{who} charges into the ongoing melee of {} and {}: it reignites, the charger a support",
                    plain_name(w, a),
                    plain_name(w, d)
                )
            } else {
                format!(
                    "{who} joins the ongoing melee of {} and {}: it reignites, {who} a support",
                    plain_name(w, a),
                    plain_name(w, d)
                )
            }
        });
    }
    super::impetuous::closed(world, a);
    let m = super::tables(world).factors.melee.clone();
    // A flank or rear contact from behind the front line after moving disorders the
    // stand contacted (CtB 10.5).
    let ctx = sides(world, &plan);
    if plan.flank_strike && !status(world, d).disordered {
        super::disorder(world, d);
        log(world, EventKind::Special, "CtB 10.5", |w| {
            format!(
                "{} is struck in the flank or rear: disordered",
                plain_name(w, d)
            )
        });
    }
    for (i, u) in plan.stands.iter().enumerate() {
        let u = *u;
        // The terms are written only when the log keeps text (autoplay's does not).
        let pool = &plan.pools[i];
        log(world, EventKind::CombatDeclared, "CtB 10.1", |w| {
            let terms: Vec<String> = pool
                .terms
                .iter()
                .map(|t| format!("{:+} {} ({})", t.dice, t.what, t.rule))
                .collect();
            format!("{}: {}", plain_name(w, u), terms.join(", "))
        });
    }
    let mut hits = [0u32; 2];
    for (i, h) in hits.iter_mut().enumerate() {
        let dice = melee_dice(&m, &plan.pools[i]);
        let u = plan.stands[i];
        let faces = super::shooting::throw_pool(world, dice, "CtB 10.1", |w| {
            format!("{} in melee", plain_name(w, u))
        });
        *h = super::pool::count_hits(&faces);
    }
    // Each Battle Stand hit takes a Morale Test (CtB 7.0, 11.0).
    let mut loss = [0u8; 2];
    let mut tested = [false; 2];
    for i in 0..2 {
        let taken = hits[1 - i];
        if taken > 0 {
            let (_, l) = super::results::test_die(world, plan.stands[i], taken, "CtB 11.0");
            loss[i] = l;
            tested[i] = true;
        }
    }
    let verdict = verdict_of(&m, &ctx, loss, tested);
    let specs = ctx.specs;
    for u in plan.stands {
        let mut t = acts_mut(world, u);
        t.fought = true;
        t.pursuing = None;
    }
    // Impact is spent in the first melee it is thrown in (CtB 10.3, A1).
    for u in plan
        .stands
        .iter()
        .chain(&plan.supports[0])
        .chain(&plan.supports[1])
    {
        if hex_of(world, *u).is_some() {
            acts_mut(world, *u).impact_used = true;
        }
    }
    world
        .resource_mut::<CtbState>()
        .melees
        .retain(|x| !(x.stands.contains(&a) && x.stands.contains(&d)));
    match verdict {
        Verdict::Ongoing { sp } => {
            log(world, EventKind::CombatResult, "CtB 11.3", |w| {
                format!(
                    "Equal morale losses: {} and {} stay locked in an ongoing melee",
                    plain_name(w, a),
                    plain_name(w, d)
                )
            });
            let mut alive = [true; 2];
            for i in 0..2 {
                if sp[i] > 0 {
                    alive[i] = !super::results::lose_sp(world, plan.stands[i], sp[i], "CtB 11.3");
                }
            }
            if alive == [true, true] {
                // Light and medium cavalry that do not win bounce back, disordered (CtB 11.1).
                let bouncer = [0, 1]
                    .into_iter()
                    .find(|&i| specs[i].bounce == super::data::Bounce::Always);
                match bouncer {
                    Some(i) => {
                        let u = plan.stands[i];
                        log(world, EventKind::Special, "CtB 11.1", |w| {
                            format!("{} bounces back, disordered", plain_name(w, u))
                        });
                        let from = hex_of(world, plan.stands[1 - i]).expect("on map");
                        let job = RetreatJob::bounce(world, u, from);
                        super::retreat::run(world, job.into_iter().collect(), None);
                    }
                    None => {
                        world.resource_mut::<CtbState>().melees.push(OngoingMelee {
                            stands: [a, d],
                            supports: plan.supports.clone(),
                        });
                        // Heavy cavalry choose to stay in contact or bounce, the
                        // attacker's first (CtB 11.1).
                        if let Some(i) = [0, 1]
                            .into_iter()
                            .find(|&i| specs[i].bounce == super::data::Bounce::Choice)
                        {
                            world
                                .resource_mut::<CtbState>()
                                .pending
                                .push_front(Pending::Bounce {
                                    stand: plan.stands[i],
                                    from: plan.stands[1 - i],
                                });
                        }
                    }
                }
            }
        }
        Verdict::Won { loser, sp } => {
            let (lu, wu) = (plan.stands[loser], plan.stands[1 - loser]);
            log(world, EventKind::CombatResult, "CtB 11.0", |w| {
                format!(
                    "{} wins the melee; {} loses",
                    plain_name(w, wu),
                    plain_name(w, lu)
                )
            });
            let winner_hex = hex_of(world, wu);
            let winner_alive = sp[1 - loser] == 0
                || !super::results::lose_sp(world, wu, sp[1 - loser], "CtB 11.0");
            let loser_hex = hex_of(world, lu).expect("on map");
            let loser_gone = super::results::lose_sp(world, lu, sp[loser], "CtB 11.0");
            let mut jobs = Vec::new();
            if !loser_gone
                && let Some(wh) = winner_hex
                && let Some(job) = RetreatJob::beaten(world, lu, wh, false)
            {
                jobs.push(job);
            }
            // The loser's supports retreat too, disordered (CtB 10.7), and, when the defender
            // loses, the other stands its charger contacted (CtB 10.2).
            let mut followers = plan.supports[loser].clone();
            if loser == 1 {
                let others: Vec<UnitId> = plan
                    .bystanders
                    .iter()
                    .copied()
                    .filter(|b| !followers.contains(b))
                    .collect();
                followers.extend(others);
            }
            for s in followers {
                if let (Some(_), Some(wh)) = (hex_of(world, s), winner_hex)
                    && let Some(job) = RetreatJob::beaten(world, s, wh, true)
                {
                    jobs.push(job);
                }
            }
            // The retreats, each chosen by its owner where hexes are equally preferred
            // (R-retreat), then the pursuit (CtB 13.0).
            let then = (winner_alive && hex_of(world, wu).is_some()).then_some(PursuitAfter {
                winner: wu,
                loser: lu,
                loser_hex,
                path: Vec::new(),
            });
            super::retreat::run(world, jobs, then);
        }
    }
    super::refresh_zones(world);
}

/// The winning Battle Stand pursues if it must, or is asked if it may (CtB 13.0).
pub fn offer_pursuit(
    world: &mut World,
    winner: UnitId,
    loser: UnitId,
    loser_hex: crate::engine::hex::HexCoord,
    path: Vec<crate::engine::hex::HexCoord>,
) {
    // A winner still held in another ongoing melee stays in it (CtB 13.1).
    if super::in_melee(world, winner) {
        return;
    }
    // A winner in front contact with an enemy Battle Stand locked in an ongoing melee
    // with one of ours joins that melee, which is fought again, rather than pursuing
    // (CtB 11.4, 13.1): its side answers `fight WINNER -> ENEMY`, the winner a support.
    if let Some(enemy) = super::ongoing::locked_enemy_in_front(world, winner) {
        log(world, EventKind::Special, "CtB 11.4", |w| {
            format!(
                "{} has beaten its enemy and touches {} in front, locked in an ongoing melee: it joins that melee, fought again now, rather than pursuing",
                plain_name(w, winner),
                plain_name(w, enemy)
            )
        });
        world
            .resource_mut::<CtbState>()
            .pending
            .push_front(Pending::Fight {
                stand: winner,
                enemies: vec![enemy],
                charge: false,
            });
        return;
    }
    // Read in place (no copy of either stand) before the world changes.
    let must = {
        let w = stand(world, winner).expect("a stand");
        let l = stand(world, loser).expect("a stand");
        let impact = impact_factor(
            &w.entry,
            w.special.as_ref(),
            &super::tables(world).factors.melee,
            ranks(world, winner).0 != w.sp0,
        );
        // Impetuous until it has lost half its SP (CtB 9.3, R-9.3).
        let impetuous = super::impetuous::impetus(world, winner).is_some();
        pursuit(&w.spec, impetuous, impact, &l.spec)
    };
    match must {
        Pursuit::Never => {}
        Pursuit::Must => super::results::pursue(world, winner, loser_hex, path),
        Pursuit::May => {
            world
                .resource_mut::<CtbState>()
                .pending
                .push_front(Pending::Pursue {
                    stand: winner,
                    from: loser_hex,
                    path,
                });
        }
    }
}

/// Heavy cavalry's answer after an ongoing melee (CtB 11.1): bounce up to one normal
/// move away, disordered, facing kept, ending the melee; or stay in contact.
pub fn bounce(world: &mut World, hc: UnitId, from: UnitId, bounces: bool) {
    if !bounces {
        log(world, EventKind::Special, "CtB 11.1", |w| {
            format!("{} stays in contact", plain_name(w, hc))
        });
        return;
    }
    let Some(fh) = hex_of(world, from) else {
        return;
    };
    log(world, EventKind::Special, "CtB 11.1", |w| {
        format!("{} bounces back, disordered", plain_name(w, hc))
    });
    world
        .resource_mut::<CtbState>()
        .melees
        .retain(|m| !(m.stands.contains(&hc) && m.stands.contains(&from)));
    let job = RetreatJob::bounce(world, hc, fh);
    super::retreat::run(world, job.into_iter().collect(), None);
}

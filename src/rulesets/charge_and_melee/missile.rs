//! Shooting (spec B.2 §11; C&M 7.3, 7.10, 7.14, 7.21; the shooting chapter 6.x is
//! missing, so the procedure is the spec's reading and the designer's). After both Move
//! Phases each side in turn declares its shots (`shoot UNIT -> TARGET`, one target a
//! unit a turn, the initiative side first, as charges are declared: 7.2); then the
//! long-range exchange (bows and artillery, a gap of 2-4 JT) and the short-range
//! exchange (javelins, bows, crossbows, a gap of 1 JT), each simultaneous: every stand
//! of a shooter that sees a stand of its target within the exchange's range in its
//! front arc (`sight`) rolls a D6 and hits on its factor or less, -1 against an armoured
//! target; a need under 1 has no chance (7.14's example), a need over 5 still misses on
//! a 6 (7.21). The dice go unit by unit in id order, stand by stand, and the hits land
//! together, 1 DP each (a DP on a shaken unit is a casualty, spec B.2 §5). Who shot at
//! short range, and from a front rank, is kept for the Charge Phase (7.3, 7.10, 7.14).
//! Shooting at chargers (7.14) is rolled in the charge resolution (`at_chargers`).

use bevy::prelude::*;

use crate::engine::command::{Refusal, UnitRef};
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, line_step};
use crate::engine::units::{SideId, UnitId};

use super::data::{MissileChart, TroopType};
use super::sight::Sight;
use super::*;
use crate::rulesets::common::possessive;

/// The exchange a shot falls in (spec B.2 §11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exchange {
    Long,
    Short,
}

impl Exchange {
    fn word(self) -> &'static str {
        match self {
            Exchange::Long => "long",
            Exchange::Short => "short",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Exchange::Long => "long range",
            Exchange::Short => "short range",
        }
    }
}

/// A shot declared: who shoots at whom, in which exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shot {
    pub shooter: UnitId,
    pub target: UnitId,
    pub exchange: Exchange,
}

/// This turn's shots and what they leave for the Charge Phase.
#[derive(Resource, Clone, Debug, Default)]
pub struct CmMissiles {
    /// The shots declared this turn, in order.
    pub declared: Vec<Shot>,
    /// Units that shot in this turn's short-range exchange (7.3, 7.10, 7.14).
    pub shot_short: Vec<UnitId>,
    /// ... with a stand of a front rank: no friend directly ahead of it (7.3).
    pub shot_front_rank: Vec<UnitId>,
}

fn missiles(world: &World) -> &CmMissiles {
    world.resource::<CmMissiles>()
}

/// Whether `id` shot in this turn's short-range exchange (7.3, 7.10, 7.14).
pub(crate) fn shot_short(world: &World, id: UnitId) -> bool {
    missiles(world).shot_short.contains(&id)
}

/// Whether `id` shot at short range this turn from a front rank (7.3).
pub(crate) fn shot_front_rank(world: &World, id: UnitId) -> bool {
    missiles(world).shot_front_rank.contains(&id)
}

/// The exchange a gap falls in, if any: short range 1 JT, long range beyond it to bow
/// range (spec B.2 §11); contact is mêlée (7.18).
pub fn exchange_for(chart: &MissileChart, gap: u32) -> Option<Exchange> {
    if gap == 0 {
        None
    } else if gap <= u32::from(chart.short_range) {
        Some(Exchange::Short)
    } else if gap <= u32::from(chart.long_range) {
        Some(Exchange::Long)
    } else {
        None
    }
}

/// A type's missile factor in an exchange (troops.ron).
pub fn factor(troop: &TroopType, ex: Exchange) -> u8 {
    match ex {
        Exchange::Long => troop.long_range,
        Exchange::Short => troop.short_range,
    }
}

/// The score a stand needs on its D6 (spec B.2 §11): its factor, -1 against armour.
pub fn need(chart: &MissileChart, factor: u8, armoured_target: bool) -> i32 {
    i32::from(factor)
        + if armoured_target {
            i32::from(chart.armoured)
        } else {
            0
        }
}

/// Whether a die hits: at or under the need, never above `surest_miss` (7.21's 1-5);
/// a need under 1 has no chance (7.14's example: factor 1, -1 against armour, "no
/// chance of scoring a hit").
pub fn hits(chart: &MissileChart, need: i32, die: u8) -> bool {
    need >= 1 && i32::from(die) <= need.min(i32::from(chart.surest_miss))
}

/// A stand's chance of a hit when `need` is needed: the faces that hit, over six (the
/// previews' odds).
pub fn hit_chance(chart: &MissileChart, need: i32) -> f64 {
    (1..=6u8).filter(|d| hits(chart, need, *d)).count() as f64 / 6.0
}

/// Whether the line from stand `s` to `t`, whose first step is `step` (`line_step(s, t,
/// 1)`), leaves `s` through its front hexside (the front arc of a formed stand, spec
/// B.2 §3); unformed stands shoot all round (7.22).
fn in_arc(f: CmFormation, s: HexCoord, step: (HexCoord, Option<HexCoord>)) -> bool {
    if !f.formed() {
        return true;
    }
    let front = f.facing.front(s);
    let (a, b) = step;
    a == front || b == Some(front)
}

/// A shooter's aim at a target, what it reads looked up once for all the shooter's
/// stands.
struct Aimer<'w> {
    chart: MissileChart,
    shooter: UnitId,
    formation: CmFormation,
    targets: &'w [HexCoord],
    sight: Sight<'w>,
}

impl<'w> Aimer<'w> {
    fn new(world: &'w World, shooter: UnitId, target: UnitId) -> Self {
        let sight = Sight::of(world);
        Self {
            chart: sight.tables.charts.missile,
            shooter,
            formation: *component_of(world, sight.units, shooter),
            targets: &component_of::<CmStands>(world, sight.units, target).0,
            sight,
        }
    }

    /// Whether the shooter's stand `s` stands in a front rank: no friend directly ahead
    /// of it (7.3).
    fn front_rank(&self, s: HexCoord) -> bool {
        let f = self.formation;
        let units = self.sight.units;
        !f.formed()
            || self
                .sight
                .index
                .at(f.facing.front(s))
                .is_none_or(|o| units.side(o) != units.side(self.shooter))
    }

    /// The stand of the target that `s` shoots at, if any: the nearest it sees — in its
    /// front arc, the line clear, and within the exchange's range when one is given.
    fn at(&self, s: HexCoord, range: Option<Exchange>) -> Option<HexCoord> {
        // Nearest first; at equal distance the one the line to which leaves through a
        // hexside's middle rather than along it (straight ahead before aslant). Each key
        // worked out once (the stand ends it, so no two are equal).
        let mut list: Vec<_> = self
            .targets
            .iter()
            .map(|t| {
                let step = line_step(s, *t, 1);
                (s.distance(*t), step.1.is_some(), *t, step)
            })
            .collect();
        list.sort_unstable_by_key(|&(d, aslant, t, _)| (d, aslant, t));
        list.into_iter()
            .find(|&(_, _, t, step)| {
                range.is_none_or(|ex| exchange_for(&self.chart, moves::gap(s, t)) == Some(ex))
                    && in_arc(self.formation, s, step)
                    && self.sight.clear(s, t)
            })
            .map(|(_, _, t, _)| t)
    }
}

/// Why a unit may not shoot at a target now (`aim`'s refusals before their words).
#[derive(Clone, Copy)]
enum Miss {
    NoMissiles,
    InMelee(UnitId),
    InFlight,
    TargetInMelee(UnitId),
    Passage(HexCoord),
    OutOfRange(u32),
    ShortOnly(u32),
    NoChance(i32, Exchange),
    Unseen(Exchange),
}

/// `aim`'s refusals of the shooter alone, whatever its target: no missiles, in mêlée,
/// in flight.
fn shooter_miss(world: &World, id: UnitId) -> Option<Miss> {
    let tr = troop_ref(world, id);
    if tr.short_range == 0 && tr.long_range == 0 {
        return Some(Miss::NoMissiles);
    }
    if let Some(e) = movement::enemy_in_contact(world, id) {
        return Some(Miss::InMelee(e));
    }
    if matches!(
        posture(world, id),
        Some(Posture::Routing | Posture::Retiring)
    ) {
        return Some(Miss::InFlight);
    }
    None
}

/// `aim` without the words of its refusals: the autoplay's and the declarations' scans
/// of every target ask only whether there is one.
fn aim_at(world: &World, id: UnitId, tid: UnitId) -> Result<Exchange, Miss> {
    if let Some(m) = shooter_miss(world, id) {
        return Err(m);
    }
    aim_at_target(world, id, tid)
}

/// `aim_at` once the shooter may shoot.
fn aim_at_target(world: &World, id: UnitId, tid: UnitId) -> Result<Exchange, Miss> {
    let chart = world.resource::<CmTables>().0.charts.missile;
    if let Some(f) = movement::enemy_in_contact(world, tid) {
        return Err(Miss::TargetInMelee(f));
    }
    let passages = movement::Passages::now(world);
    let side = side_of(world, tid);
    let held = stands(world, tid)
        .iter()
        .find(|h| passages.holder(**h) == Some(side));
    if let Some(h) = held {
        return Err(Miss::Passage(*h));
    }
    let gap = gap_between(world, id, tid);
    let Some(ex) = exchange_for(&chart, gap) else {
        return Err(Miss::OutOfRange(gap));
    };
    let f = factor(troop_ref(world, id), ex);
    if f == 0 {
        return Err(Miss::ShortOnly(gap));
    }
    let armoured = troop_ref(world, tid).armoured;
    let n = need(&chart, f, armoured);
    if n < 1 {
        return Err(Miss::NoChance(n, ex));
    }
    let aimer = Aimer::new(world, id, tid);
    let seen = stands(world, id)
        .iter()
        .any(|s| aimer.at(*s, Some(ex)).is_some());
    if !seen {
        return Err(Miss::Unseen(ex));
    }
    Ok(ex)
}

/// Whether `id` may shoot at `tid` now, and in which exchange (spec B.2 §11); a refusal
/// says why not.
pub(crate) fn aim(world: &World, id: UnitId, tid: UnitId) -> Result<Exchange, Refusal> {
    aim_at(world, id, tid).map_err(|m| {
        let chart = tables(world).charts.missile;
        match m {
            Miss::NoMissiles => Refusal::new(
                "spec B.2 §11",
                format!("{} have no missiles (troops.ron)", plain_name(world, id)),
            ),
            Miss::InMelee(e) => Refusal::new(
                "C&M 7.18",
                format!(
                    "{} is in mêlée with {}: it fights, it does not shoot",
                    plain_name(world, id),
                    plain_name(world, e)
                ),
            ),
            Miss::InFlight => Refusal::new(
                "C&M 7.16",
                format!("{} is in flight: it does not shoot", plain_name(world, id)),
            ),
            Miss::TargetInMelee(f) => Refusal::new(
                "spec B.2 §11",
                format!(
                    "{} is in mêlée with {}: nobody shoots into a mêlée",
                    plain_name(world, tid),
                    plain_name(world, f)
                ),
            ),
            Miss::Passage(h) => Refusal::new(
                "scenario: Passage",
                format!(
                    "{} is crossing in {h} by leave: it may not be shot at yet",
                    plain_name(world, tid)
                ),
            ),
            Miss::OutOfRange(gap) => Refusal::new(
                "spec B.2 §11",
                format!(
                    "{} is {gap} JT away: short range is {} JT, long (bow) range up to {} JT",
                    plain_name(world, tid),
                    chart.short_range,
                    chart.long_range
                ),
            ),
            Miss::ShortOnly(gap) => Refusal::new(
                "spec B.2 §11",
                format!(
                    "{} shoot only at short range ({} JT): {} is {gap} JT away",
                    troop_ref(world, id).name,
                    chart.short_range,
                    plain_name(world, tid)
                ),
            ),
            Miss::NoChance(n, ex) => Refusal::new(
                "C&M 7.14",
                format!(
                    "{} would need {n} on a D6 at {} against armoured {}: no chance of a hit",
                    plain_name(world, id),
                    ex.label(),
                    plain_name(world, tid)
                ),
            ),
            Miss::Unseen(ex) => Refusal::new(
                "spec B.2 §11",
                format!(
                    "no stand of {} sees {} within {} in its front arc",
                    plain_name(world, id),
                    plain_name(world, tid),
                    ex.label()
                ),
            ),
        }
    })
}

/// The enemy units `id` may shoot at now, in id order.
pub(crate) fn targets(world: &World, id: UnitId) -> Vec<UnitId> {
    // A shooter that may not shoot has no target: no need to try each.
    if shooter_miss(world, id).is_some() {
        return Vec::new();
    }
    let side = side_of(world, id);
    troops(world)
        .into_iter()
        .filter(|&o| side_of(world, o) != side && in_range(world, id, o))
        .filter(|&o| aim_at_target(world, id, o).is_ok())
        .collect()
}

/// Whether `tid` is within some exchange's range of `id`: `aim_at_target` refuses it
/// otherwise, and the gap is the cheapest of its tests (scans of every target ask it
/// first).
fn in_range(world: &World, id: UnitId, tid: UnitId) -> bool {
    let chart = &world.resource::<CmTables>().0.charts.missile;
    exchange_for(chart, gap_between(world, id, tid)).is_some()
}

/// Whether `id` has some target it may shoot at now (`targets` is not empty) among
/// the enemy units `foes` (each with its stands).
fn has_target(world: &World, id: UnitId, foes: &[(UnitId, &[HexCoord])]) -> bool {
    if shooter_miss(world, id).is_some() {
        return false;
    }
    let chart = world.resource::<CmTables>().0.charts.missile;
    let own = stands(world, id);
    foes.iter().any(|&(o, theirs)| {
        // `in_range`, each side's stands read once.
        let gap = own
            .iter()
            .flat_map(|x| theirs.iter().map(move |y| moves::gap(*x, *y)))
            .min()
            .unwrap_or(u32::MAX);
        exchange_for(&chart, gap).is_some() && aim_at_target(world, id, o).is_ok()
    })
}

/// Whether `side` has a shot still to declare (the declarations wait for it).
pub(crate) fn any_shot(world: &World, side: SideId) -> bool {
    let all = troops(world);
    let foes: Vec<(UnitId, &[HexCoord])> = all
        .iter()
        .filter(|o| side_of(world, **o) != side)
        .map(|o| (*o, stands(world, *o)))
        .collect();
    all.into_iter().any(|id| {
        side_of(world, id) == side
            && !missiles(world).declared.iter().any(|s| s.shooter == id)
            && has_target(world, id, &foes)
    })
}

/// Entering a side's declarations: the first side's clear the last turn's shots.
pub fn start_declarations(world: &mut World) {
    let side = turn(world).active;
    if side == state(world).initiative {
        *world.resource_mut::<CmMissiles>() = CmMissiles::default();
    }
    if any_shot(world, side) {
        log(world, EventKind::PhaseStarted, "spec B.2 §11", |w| {
            format!("{} declares its shots", side_name(w, side))
        });
    }
}

/// Checks `shoot UNIT -> TARGET`.
pub fn check_shoot(world: &World, unit: &UnitRef, target: &UnitRef) -> Result<Shot, Refusal> {
    let opening = charges::Opening {
        phase: CmPhase::MissileDeclaration,
        phase_rule: "spec B.2 §11",
        when: "shots are declared after both Move Phases",
        leaders_rule: "spec B.2 §11",
        leaders: "leaders do not shoot nor are shot at: name units of stands",
        side_rule: "spec B.2 §11",
        friend_rule: "spec B.2 §11",
    };
    let (id, tid) = charges::opening_checks(world, &opening, unit, target)?;
    if missiles(world).declared.iter().any(|s| s.shooter == id) {
        return Err(Refusal::new(
            "spec B.2 §11",
            format!(
                "{} has declared its shot: one target a turn",
                plain_name(world, id)
            ),
        ));
    }
    let exchange = aim(world, id, tid)?;
    Ok(Shot {
        shooter: id,
        target: tid,
        exchange,
    })
}

pub fn execute_shoot(world: &mut World, shot: Shot) {
    world.resource_mut::<CmMissiles>().declared.push(shot);
    log(world, EventKind::CombatDeclared, "spec B.2 §11", |w| {
        format!(
            "{} will shoot at {} at {}",
            name(w, shot.shooter),
            name(w, shot.target),
            shot.exchange.label()
        )
    });
}

/// What one unit's volley did.
struct Volley {
    hits: u8,
    shot: bool,
    from_front_rank: bool,
    /// The stands that saw the target (shooting or with no chance against its armour).
    aimed: Vec<HexCoord>,
}

/// Each of `from` (stands of `shooter`) that sees `target` shoots at it (spec B.2 §11),
/// a D6 each in stand order, logged under `rule`.
fn volley(
    world: &mut World,
    shooter: UnitId,
    from: &[HexCoord],
    target: UnitId,
    ex: Exchange,
    range: Option<Exchange>,
    rule: &'static str,
) -> Volley {
    // Each stand's aim and whether it stands in a front rank, read before the first
    // die: rolling and logging move no stand.
    let (chart, n, aims) = {
        let aimer = Aimer::new(world, shooter, target);
        let chart = aimer.chart;
        let f = factor(aimer.sight.troop(shooter), ex);
        let n = need(&chart, f, aimer.sight.troop(target).armoured);
        let aims: Vec<Option<(HexCoord, bool)>> = from
            .iter()
            .map(|s| aimer.at(*s, range).map(|at| (at, aimer.front_rank(*s))))
            .collect();
        (chart, n, aims)
    };
    let mut out = Volley {
        hits: 0,
        shot: false,
        from_front_rank: false,
        aimed: Vec::new(),
    };
    for (&s, aim) in from.iter().zip(aims) {
        let Some((at, in_front_rank)) = aim else {
            continue;
        };
        out.aimed.push(s);
        if n < 1 {
            log(world, EventKind::CombatResult, "C&M 7.14", |w| {
                format!(
                    "{} stand in {s} has no chance against armoured {}",
                    possessive(&plain_name(w, shooter)),
                    plain_name(w, target)
                )
            });
            continue;
        }
        let die = super::super::common::roll(world, rule, |w| {
            format!(
                "{} stand in {s} shoots at {} in {at} (needs {n})",
                possessive(&plain_name(w, shooter)),
                plain_name(w, target)
            )
        });
        out.shot = true;
        out.from_front_rank |= in_front_rank;
        if hits(&chart, n, die) {
            out.hits += 1;
        }
    }
    out
}

/// Lands the hits of an exchange together, target by target in id order: 1 DP a hit.
fn land(world: &mut World, mut hits: Vec<(UnitId, u8)>, rule: &'static str) {
    hits.sort_by_key(|(u, _)| *u);
    let mut merged: Vec<(UnitId, u8)> = Vec::new();
    for (u, n) in hits {
        match merged.last_mut() {
            Some((v, m)) if *v == u => *m += n,
            _ => merged.push((u, n)),
        }
    }
    for (u, n) in merged {
        if n > 0 && is_troop(world, u) {
            log(world, EventKind::CombatResult, rule, |w| {
                format!(
                    "{} is hit {n} time{}",
                    name(w, u),
                    if n == 1 { "" } else { "s" }
                )
            });
            add_dps(world, u, n, rule);
        }
    }
}

/// An exchange (spec B.2 §11): the shots declared for it, shooters in id order.
fn exchange(world: &mut World, ex: Exchange) {
    let mut shots: Vec<Shot> = missiles(world)
        .declared
        .iter()
        .copied()
        .filter(|s| s.exchange == ex)
        .collect();
    if shots.is_empty() {
        return;
    }
    shots.sort_by_key(|s| s.shooter);
    log(world, EventKind::PhaseStarted, "spec B.2 §11", |_| {
        format!("The {}-range missile exchange", ex.word())
    });
    let mut hits = Vec::new();
    for s in shots {
        if !is_troop(world, s.shooter) || !is_troop(world, s.target) {
            continue;
        }
        match aim(world, s.shooter, s.target) {
            Ok(now) if now == ex => {}
            Ok(_) => continue,
            Err(why) => {
                log(world, EventKind::CombatResult, "spec B.2 §11", |w| {
                    format!("{} does not shoot: {}", name(w, s.shooter), why.reason)
                });
                continue;
            }
        }
        let from = stands(world, s.shooter).to_vec();
        let v = volley(
            world,
            s.shooter,
            &from,
            s.target,
            ex,
            Some(ex),
            "spec B.2 §11",
        );
        if ex == Exchange::Short && v.shot {
            let mut m = world.resource_mut::<CmMissiles>();
            m.shot_short.push(s.shooter);
            if v.from_front_rank {
                m.shot_front_rank.push(s.shooter);
            }
        }
        hits.push((s.target, v.hits));
    }
    land(world, hits, "spec B.2 §11");
}

/// The long-range exchange (spec B.2 §11).
pub fn long_range(world: &mut World) {
    exchange(world, Exchange::Long);
}

/// The short-range exchange (spec B.2 §11).
pub fn short_range(world: &mut World) {
    exchange(world, Exchange::Short);
}

/// A declared shot as its exchange would roll it now: the stands that see the target
/// (one die each, `volley`) and the score each needs. The shot preview reads it.
pub(crate) fn volley_now(world: &World, shot: Shot) -> (u8, i32) {
    let chart = tables(world).charts.missile;
    let f = factor(troop_ref(world, shot.shooter), shot.exchange);
    let n = need(&chart, f, troop_ref(world, shot.target).armoured);
    let aimer = Aimer::new(world, shot.shooter, shot.target);
    let stands = stands(world, shot.shooter)
        .iter()
        .filter(|s| aimer.at(**s, Some(shot.exchange)).is_some())
        .count() as u8;
    (stands, n)
}

/// The exchange's word for a player: "long range", "short range".
pub(crate) fn exchange_label(ex: Exchange) -> &'static str {
    ex.label()
}

// ---- shooting at chargers (7.14) ----

/// Whether `id` may shoot at `charger` as it charges (7.14): a short-range factor, no
/// shot in this turn's short-range exchange, not in mêlée, and some stand that sees the
/// charger in its front arc with a chance of a hit.
pub(crate) fn may_shoot_at(world: &World, id: UnitId, charger: UnitId) -> bool {
    may_shoot_unaimed(world, id, charger) && {
        let aimer = Aimer::new(world, id, charger);
        stands(world, id)
            .iter()
            .any(|s| aimer.at(*s, None).is_some())
    }
}

/// `may_shoot_at` but for the stands' aim: the stands that see the charger are those
/// that shoot, so where none does the volley rolls and logs nothing.
fn may_shoot_unaimed(world: &World, id: UnitId, charger: UnitId) -> bool {
    let chart = world.resource::<CmTables>().0.charts.missile;
    let f = troop_ref(world, id).short_range;
    f > 0
        && !shot_short(world, id)
        && is_troop(world, charger)
        && movement::enemy_in_contact(world, id).is_none()
        && need(&chart, f, troop_ref(world, charger).armoured) >= 1
}

/// How many of `id`'s stands shoot at a lone `charger` as it comes on (7.14): those
/// that see it; each rolls one die (`at_chargers`). The charge preview reads it.
pub(crate) fn stands_shooting_at(world: &World, id: UnitId, charger: UnitId) -> u8 {
    if !may_shoot_at(world, id, charger) {
        return 0;
    }
    let aimer = Aimer::new(world, id, charger);
    stands(world, id)
        .iter()
        .filter(|s| aimer.at(**s, None).is_some())
        .count() as u8
}

/// The units that shoot at their chargers, rolled in the charge resolution after the
/// move dice and before the moves (7.14): each `(unit, [(charger, its move)])`, in
/// order. A charger is shot at when its move brings it within short range of the
/// unit ("wait to shoot at short range"); each stand shoots once, at the first charger
/// it sees, with its short-range factor; the hits land together, 1 DP each.
pub(crate) fn at_chargers(world: &mut World, volleys: &[(UnitId, Vec<(UnitId, u32)>)]) {
    let reach = u32::from(tables(world).charts.missile.short_range);
    let mut hits = Vec::new();
    for (id, chargers) in volleys {
        let mut done: Vec<HexCoord> = Vec::new();
        for &(c, hexes) in chargers {
            if !is_troop(world, *id)
                || !may_shoot_unaimed(world, *id, c)
                || gap_between(world, *id, c) > hexes + reach
            {
                continue;
            }
            // The stands that have not shot yet shoot at this charger.
            let free: Vec<HexCoord> = stands(world, *id)
                .iter()
                .copied()
                .filter(|s| !done.contains(s))
                .collect();
            // Rolling and logging move no stand: the stands that saw the charger as
            // the volley began are those that see it now.
            let v = volley(world, *id, &free, c, Exchange::Short, None, "C&M 7.14");
            done.extend_from_slice(&v.aimed);
            if v.shot {
                hits.push((c, v.hits));
            }
        }
    }
    land(world, hits, "C&M 7.14");
}

//! Melee (CdB 11.1–11.5): the obligation to fight (11.1), refacing before melee (6.3),
//! the checks of a melee, and the scores of any combat, melee or missile fire (10.4):
//! tactical values, ranks of support, tactical and quality modifiers, supports and
//! flank positions, then the dice and the line of the results table. Missile fire is
//! in `missile.rs`; applying a result in `results.rs`.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing};
use crate::engine::units::{SideId, UnitId};

use super::data::{Context, Ground, Kind, Outcome, Quality, ResultLine};
use super::missile::can_shoot_at;
use super::results::{Advance, destroy, start_recoil};
use super::*;

/// One side's score in a combat, with every term and its rule.
#[derive(Clone, Debug, Default)]
pub(crate) struct Score {
    pub base: i32,
    pub terms: Vec<(i32, String)>,
    pub quality: i32,
    pub quality_note: Option<String>,
}

impl Score {
    pub fn modified(&self) -> i32 {
        self.base + self.terms.iter().map(|t| t.0).sum::<i32>()
    }
    fn add(&mut self, v: i32, why: impl Into<String>) {
        if v != 0 {
            self.terms.push((v, why.into()));
        }
    }
}

/// A combat checked and evaluated up to the dice.
#[derive(Clone, Debug)]
pub(crate) struct CombatPlan {
    pub missile: bool,
    /// Melee attacker, or lead shooter.
    pub a: UnitId,
    pub d: UnitId,
    pub a_score: Score,
    pub d_score: Score,
    /// Units supporting each side (CdB 10.3, 11.3).
    pub a_supports: Vec<UnitId>,
    pub d_supports: Vec<UnitId>,
    /// The target shoots back (CdB 10.1, 10.4): both may suffer.
    pub countershot: bool,
    /// The defender pivots to face the attacker first (CdB 6.3, 11.2).
    pub pivot: Option<VertexFacing>,
}

fn opp_is_foot(world: &World, u: UnitId) -> bool {
    !kind(world, u).is_mounted()
}

/// The tactical value of `u` against `opp` (CdB 2.1, 10.4).
fn tactical_value(world: &World, u: UnitId, opp: UnitId) -> i32 {
    let p = unit(world, u).p;
    if opp_is_foot(world, opp) {
        p.vs_foot
    } else {
        p.vs_mounted
    }
}

fn rear_partner(world: &World, u: UnitId) -> Option<UnitId> {
    stack_of(world, u).into_iter().find(|x| *x != u)
}

/// The modifier for ranks of support (CdB 8.1 and the list of page 34).
fn rank_bonus(world: &World, front: UnitId, opp: UnitId) -> Option<(i32, &'static str)> {
    let rear = rear_partner(world, front)?;
    let (f, r) = (unit(world, front).p, unit(world, rear).p);
    let h = hex_of(world, front)?;
    let clear = !rough(world, h);
    let ok = kind(world, opp);
    use Kind::*;
    match (f.kind, r.kind) {
        (Cv, Cv) if matches!(ok, Cv | LH) => {
            Some((1, "+1 two Cavalry counters against Cv or LH (CdB 8.1)"))
        }
        (Bd, Bd) if clear && ok == Kn => Some((1, "+1 two Blades in clear against Kn (CdB 8.1)")),
        (Sp, Sp) if clear && f.quality == r.quality => {
            Some((1, "+1 two Spears of equal quality in clear (CdB 8.1)"))
        }
        (Ps, Ps) if ok == Ps && r.quality == Quality::O => Some((
            1,
            "+1 Psiloi supported by Psiloi (O) against Psiloi (CdB 8.1)",
        )),
        (Wb, Wb) => Some((1, "+1 two Warbands (CdB 8.1)")),
        (Sp | Bd | Pk | Ax, Ps) => {
            let side = side_of(world, front);
            let allowed = state(world).psiloi_support.iter().any(|(s, sup, against)| {
                *s == side && sup.contains(&f.kind) && against.contains(&ok)
            });
            let kn_x = ok == Kn && unit(world, opp).p.quality == Quality::X;
            (allowed && !kn_x).then_some((
                1,
                "+1 supported by Psiloi against this enemy (CdB 8.1, scenario rule)",
            ))
        }
        _ => None,
    }
}

/// Tactical modifiers of CdB page 34 that depend on the unit alone and its ground.
/// `defending`: the unit attacked (in melee) or shot at, the only one a "defensive
/// position" helps.
fn tactical_modifiers(
    world: &World,
    u: UnitId,
    opp: UnitId,
    missile: bool,
    defending: bool,
    score: &mut Score,
) {
    let p = unit(world, u).p;
    let Some(h) = hex_of(world, u) else { return };
    let oh = hex_of(world, opp);
    let board = world.res::<Board>();
    if let Some(oh) = oh.filter(|_| defending) {
        let higher = board.elevation(h) > board.elevation(oh);
        let behind_river = h.is_adjacent(oh) && board.hexside(h, oh).has(HexsideFeature::River);
        if higher || behind_river {
            score.add(
                1,
                "+1 defensive position: higher on a hill or behind a river (CdB p.34)",
            );
        }
    }
    let op = unit(world, opp).p;
    // "but not against chariots": the enemy's chariots only (CdB p.34).
    if p.kind == Kind::Kn
        && (!p.regular || p.quality == Quality::S)
        && op.kind == Kind::Kn
        && op.regular
        && matches!(op.quality, Quality::O | Quality::F)
        && !op.chariot
    {
        score.add(
            1,
            "+1 irregular or (S) Knights against regular Knights (O) or (F) (CdB p.34)",
        );
    }
    if corps_of(world, u).demoralised {
        score.add(-1, "-1 demoralised corps (CdB 12.3)");
    }
    let rough_here = rough(world, h);
    if p.kind == Kind::Bw && rough_here {
        score.add(-1, "-1 Bowmen in broken terrain (CdB p.34)");
    }
    if !missile {
        let opp_rough = oh.is_some_and(|x| rough(world, x));
        if p.kind.is_mounted() && (rough_here || opp_rough) {
            score.add(
                -2,
                "-2 mounted in melee in or against broken or difficult terrain (CdB p.34)",
            );
        }
        if rough_here
            && ((p.kind == Kind::Wb && matches!(p.quality, Quality::S | Quality::O))
                || p.kind == Kind::Bd)
        {
            score.add(
                -2,
                "-2 Warbands (S)/(O) or Blades in broken or difficult terrain (CdB p.34)",
            );
        }
        if rough_here
            && ((p.kind == Kind::Hd && p.quality == Quality::O)
                || matches!(p.kind, Kind::Sp | Kind::Bag))
        {
            score.add(
                -2,
                "-2 Hordes (O), Spears or Baggage in broken or difficult terrain (CdB p.34)",
            );
        }
    }
    let st = state(world);
    if st.ditch.contains(&h) {
        score.add(
            -st.ditch_modifier,
            format!("-{} in the ditch (scenario rule)", st.ditch_modifier),
        );
    }
}

/// Units of `side` supporting a melee against enemy `e` (CdB 11.3), the fighters
/// excluded: overlaps (in e's flank hex, with e in theirs) and units with e in front
/// whose other frontal hex holds no enemy in frontal contact. At most three count.
pub(crate) fn melee_supports(
    world: &World,
    side: SideId,
    e: UnitId,
    fighters: [UnitId; 2],
) -> Vec<UnitId> {
    let Some(eh) = hex_of(world, e) else {
        return Vec::new();
    };
    let ef = facing(world, e);
    let fighter_mounted = fighters
        .iter()
        .find(|f| side_of(world, **f) == side)
        .is_some_and(|f| kind(world, *f).is_mounted());
    let mut out = Vec::new();
    for n in eh.neighbors() {
        let Some(x) = front_at(world, n) else {
            continue;
        };
        if side_of(world, x) != side || fighters.contains(&x) || is_hidden(world, x) {
            continue;
        }
        let p = unit(world, x).p;
        if p.kind == Kind::Bag || (p.kind == Kind::El && fighter_mounted) {
            continue;
        }
        let xf = facing(world, x);
        let overlap = ef.flank(eh).contains(&n) && xf.flank(n).contains(&eh);
        let frontal =
            xf.front(n).contains(&eh)
                && xf.front(n).into_iter().filter(|o| *o != eh).all(|o| {
                    enemy_at(world, side, o).is_none_or(|y| !frontal_contact(world, x, y))
                });
        if overlap || frontal {
            out.push(x);
        }
    }
    out.truncate(3);
    out
}

/// Whether an enemy of `u` holds an effective flank position on it (CdB 11.4).
pub(crate) fn flank_position_on(world: &World, u: UnitId) -> Option<UnitId> {
    let h = hex_of(world, u)?;
    let f = facing(world, u);
    let side = side_of(world, u);
    f.flank(h).into_iter().chain(f.rear(h)).find_map(|n| {
        let x = enemy_at(world, side, n)?;
        let exerts = exerts_zoc(world, x) && facing(world, x).front(n).contains(&h);
        (exerts && !in_enemy_zoc(world, x)).then_some(x)
    })
}

#[allow(clippy::too_many_arguments)] // the quality rules read all of these (CdB p.34)
fn apply_quality(
    world: &World,
    u: UnitId,
    opp: UnitId,
    me: &mut Score,
    other: i32,
    missile: bool,
    shot_at: bool,
    enemy_turn: bool,
) {
    let p = unit(world, u).p;
    let q = super::quality_against(&p, kind(world, opp), missile);
    let mine = me.modified();
    // `shot_at`: the target, or a shooter its target shoots back at (CdB 10.4).
    let (v, why) = match q {
        Quality::S if !missile && mine < other && kind(world, opp) != Kind::El => {
            (1, "+1 (S) scoring less in melee")
        }
        Quality::S if missile && shot_at && mine < other => {
            (1, "+1 (S) scoring less under missile fire")
        }
        Quality::S if missile && mine < other => (1, "+1 (S) shooting and scoring less"),
        Quality::I if mine <= other => (-1, "-1 (I) scoring less or equal"),
        Quality::F if !missile && enemy_turn && mine < other => {
            (-1, "-1 (F) scoring less in melee in an enemy turn")
        }
        Quality::F if missile && shot_at && mine < other => {
            (-1, "-1 (F) scoring less under missile fire")
        }
        _ => (0, ""),
    };
    me.quality = v;
    if v != 0 {
        me.quality_note = Some(format!("{why} (CdB p.34)"));
    }
}

// ---- melee ----

/// Refacing at the start of melee (CdB 6.3): units held in an enemy zone, not in
/// frontal contact and not facing that enemy, pivot to face it by the shortest way.
pub(crate) fn reface_before_melee(world: &mut World) {
    for u in all_units(world) {
        // A unit refaced before this one changed the zones it reads.
        refresh_zoc(world);
        let Some(h) = hex_of(world, u) else { continue };
        if kind(world, u) == Kind::Bag || flags(world, u).rank != 0 || is_hidden(world, u) {
            continue;
        }
        let side = side_of(world, u);
        let holders = zoc_exerted_on(world, side, h);
        if holders.is_empty() {
            continue;
        }
        let f = facing(world, u);
        let in_contact = h
            .neighbors()
            .into_iter()
            .filter_map(|n| enemy_at(world, side, n))
            .any(|e| frontal_contact(world, u, e));
        if in_contact
            || holders
                .iter()
                .any(|e| hex_of(world, *e).is_some_and(|eh| f.front(h).contains(&eh)))
        {
            continue;
        }
        let target = holders[0];
        let Some(th) = hex_of(world, target) else {
            continue;
        };
        let nf = shortest_facing_towards(f, h, th);
        for x in stack_of(world, u) {
            set_facing(world, x, nf);
        }
        log(world, EventKind::Special, "CdB 6.3", |w| {
            format!(
                "{} pivots to face {} ({})",
                name(w, u),
                name(w, target),
                movement::facing_name(nf)
            )
        });
    }
}

/// The facing nearest `from` with `target` in its frontal hexes (ties clockwise).
pub(crate) fn shortest_facing_towards(
    from: VertexFacing,
    at: HexCoord,
    target: HexCoord,
) -> VertexFacing {
    [0i32, 1, -1, 2, -2, 3]
        .into_iter()
        .map(|d| VertexFacing(((from.0 as i32 + d).rem_euclid(6)) as u8))
        .find(|f| f.front(at).contains(&target))
        .unwrap_or(from)
}

pub(crate) fn check_melee(
    world: &World,
    from: HexCoord,
    target: HexCoord,
) -> Result<CombatPlan, Refusal> {
    if state(world).step != CdbPhase::Melee {
        return Err(Refusal::new(
            "CdB 3",
            "melees are fought in the melee phase",
        ));
    }
    let side = sequence_side(world);
    let a = front_at(world, from)
        .ok_or_else(|| Refusal::new("CdB 11", format!("there is no unit in {from}")))?;
    if side_of(world, a) != side {
        return Err(Refusal::new(
            "CdB 11.1",
            format!("{} is not a unit of the active player", name(world, a)),
        ));
    }
    if kind(world, a) == Kind::Bag {
        return Err(Refusal::new("CdB 2.4", "baggage has no offensive force"));
    }
    if flags(world, a).fought {
        return Err(Refusal::new(
            "CdB 11.1",
            format!("{} has fought a melee this turn", name(world, a)),
        ));
    }
    let d = enemy_at(world, side, target)
        .ok_or_else(|| Refusal::new("CdB 11", format!("there is no enemy unit in {target}")))?;
    if !facing(world, a).front(from).contains(&target) {
        return Err(Refusal::new(
            "CdB 11.1",
            format!(
                "{target} is not one of the frontal hexes of {}",
                name(world, a)
            ),
        ));
    }
    if flags(world, d).was_meleed {
        return Err(Refusal::new(
            "CdB 11.1",
            format!("{} has been meleed this turn", name(world, d)),
        ));
    }
    let pivot = {
        let df = facing(world, d);
        let faces = df.front(target).contains(&from);
        let contact_elsewhere = target
            .neighbors()
            .into_iter()
            .filter_map(|n| front_at(world, n))
            .filter(|x| side_of(world, *x) == side && *x != a)
            .any(|x| frontal_contact(world, d, x));
        (!faces && !contact_elsewhere && kind(world, d) != Kind::Bag)
            .then(|| shortest_facing_towards(df, target, from))
    };
    Ok(evaluate(world, a, d, false, &[], pivot))
}

/// The scores of a combat before the dice, as the resolver will use them.
pub(crate) fn evaluate(
    world: &World,
    a: UnitId,
    d: UnitId,
    missile: bool,
    shooters: &[UnitId],
    pivot: Option<VertexFacing>,
) -> CombatPlan {
    let mut a_score = Score::default();
    let mut d_score = Score::default();
    let (a_supports, d_supports, countershot);
    if missile {
        a_score.base = tactical_value(world, a, d);
        a_score.terms.push((
            0,
            format!(
                "{} tactical value {} (CdB 10.4)",
                name(world, a),
                a_score.base
            ),
        ));
        let dp = unit(world, d).p;
        d_score.base = if dp.kind == Kind::Kn {
            dp.vs_mounted
        } else {
            dp.vs_foot
        };
        tactical_modifiers(world, a, d, true, false, &mut a_score);
        tactical_modifiers(world, d, a, true, true, &mut d_score);
        let supporters: Vec<UnitId> = shooters.iter().skip(1).copied().collect();
        let ranks = rear_partner(world, a)
            .filter(|r| kind(world, *r) == Kind::Bw)
            .into_iter()
            .count();
        let malus = (supporters.len() + ranks).min(2) as i32;
        d_score.add(
            -malus,
            format!("-{malus} shooters in support or ranks (CdB 10.3)"),
        );
        a_supports = supporters;
        d_supports = Vec::new();
        countershot = can_shoot_at(world, d, a).is_ok();
        // Shooting back, the target's own rank of Bowmen counts against the shooter
        // (CdB 10.3: "for each enemy unit giving a bonus").
        let d_ranks = rear_partner(world, d)
            .filter(|r| countershot && kind(world, *r) == Kind::Bw)
            .into_iter()
            .count() as i32;
        if d_ranks > 0 {
            a_score.add(
                -d_ranks,
                format!("-{d_ranks} rank of Bowmen of the target shooting back (CdB 10.3)"),
            );
        }
    } else {
        a_score.base = tactical_value(world, a, d);
        d_score.base = tactical_value(world, d, a);
        if let Some((v, why)) = rank_bonus(world, a, d) {
            a_score.add(v, why);
        }
        if let Some((v, why)) = rank_bonus(world, d, a) {
            d_score.add(v, why);
        }
        tactical_modifiers(world, a, d, false, false, &mut a_score);
        tactical_modifiers(world, d, a, false, true, &mut d_score);
        a_supports = melee_supports(world, side_of(world, a), d, [a, d]);
        d_supports = melee_supports(world, side_of(world, d), a, [a, d]);
        let na = a_supports.len() as i32;
        let nd = d_supports.len() as i32;
        d_score.add(-na, format!("-{na} enemy supports (CdB 11.3, at most 3)"));
        a_score.add(-nd, format!("-{nd} enemy supports (CdB 11.3, at most 3)"));
        countershot = false;
    }
    CombatPlan {
        missile,
        a,
        d,
        a_score,
        d_score,
        a_supports,
        d_supports,
        countershot,
        pivot,
    }
}

pub(crate) fn execute_melee(world: &mut World, plan: CombatPlan) {
    let (a, d) = (plan.a, plan.d);
    let pivoted = plan.pivot.is_some();
    if let Some(nf) = plan.pivot {
        for x in stack_of(world, d) {
            set_facing(world, x, nf);
        }
        log(world, EventKind::Special, "CdB 11.2", |w| {
            format!(
                "{} pivots to face {} ({})",
                name(w, d),
                name(w, a),
                movement::facing_name(nf)
            )
        });
    }
    // Supports are taken as they stand after the pivot. Without a pivot the plan is
    // the check's, made of the same world.
    let plan = if pivoted {
        evaluate(world, a, d, false, &[], None)
    } else {
        plan
    };
    log(world, EventKind::CombatDeclared, "CdB 11.2", |w| {
        format!("{} attacks {} in melee", name(w, a), name(w, d))
    });
    flags_mut(world, a).fought = true;
    flags_mut(world, d).fought = true;
    flags_mut(world, d).was_meleed = true;
    for s in plan.a_supports.iter().chain(&plan.d_supports) {
        flags_mut(world, *s).supported = true;
    }
    // "gave support against an enemy unit attacked by another friendly unit" (9.5).
    for s in &plan.a_supports {
        flags_mut(world, *s).supported_since_movement = true;
    }
    resolve(world, plan);
}

/// What a pair of dice gives in a combat: the final scores and the result line of the
/// loser (CdB 11.2, 11.5). The resolver and the preview both call this.
#[derive(Clone, Debug)]
pub(crate) struct Judgement {
    pub sa: Score,
    pub sd: Score,
    pub fa: i32,
    pub fd: i32,
    /// (winner, loser, doubled, line); `None` on equal scores or a shooter that
    /// loses without being shot back at.
    pub result: Option<(UnitId, UnitId, bool, Option<ResultLine>)>,
}

pub(crate) fn judge(world: &World, plan: &CombatPlan, da: i32, dd: i32) -> Judgement {
    let (a, d) = (plan.a, plan.d);
    let mut sa = plan.a_score.clone();
    let mut sd = plan.d_score.clone();
    sa.base += da;
    sd.base += dd;
    let (ta, td) = (sa.modified(), sd.modified());
    let enemy_turn_a = side_of(world, a) != sequence_side(world);
    let enemy_turn_d = side_of(world, d) != sequence_side(world);
    let a_shot_at = plan.countershot;
    apply_quality(
        world,
        a,
        d,
        &mut sa,
        td,
        plan.missile,
        a_shot_at,
        enemy_turn_a,
    );
    apply_quality(world, d, a, &mut sd, ta, plan.missile, true, enemy_turn_d);
    let fa = ta + sa.quality;
    let fd = td + sd.quality;
    let result = if fa == fd {
        None
    } else {
        let (winner, loser, w_total, l_total) = if fa > fd {
            (a, d, fa, fd)
        } else {
            (d, a, fd, fa)
        };
        if plan.missile && loser == a && !plan.countershot {
            None
        } else {
            let doubled = l_total * 2 <= w_total;
            Some((
                winner,
                loser,
                doubled,
                result_line(world, loser, winner, plan.missile, doubled),
            ))
        }
    };
    Judgement {
        sa,
        sd,
        fa,
        fd,
        result,
    }
}

/// Throws the two dice, applies quality modifiers and the result (CdB 11.2, 11.5).
pub(super) fn resolve(world: &mut World, plan: CombatPlan) {
    let (a, d) = (plan.a, plan.d);
    let rule = if plan.missile { "CdB 10.4" } else { "CdB 11.2" };
    let da = roll(world, rule, |w| name(w, a)) as i32;
    let dd = roll(world, rule, |w| name(w, d)) as i32;
    let j = judge(world, &plan, da, dd);
    let (fa, fd) = (j.fa, j.fd);
    let (sa_text, sd_text) = (describe(&j.sa, da), describe(&j.sd, dd));
    log(world, EventKind::CombatResult, rule, |w| {
        format!(
            "{}: {sa_text} = {fa}; {}: {sd_text} = {fd}",
            name(w, a),
            name(w, d)
        )
    });
    let Some((winner, loser, doubled, line)) = j.result else {
        let why = if fa == fd {
            "Equal scores: no effect"
        } else {
            "The target scores more but does not shoot back: no effect on the shooter"
        };
        log(world, EventKind::CombatResult, "CdB 11.5", |_| {
            why.to_string()
        });
        return;
    };
    let w_total = fa.max(fd);
    let outcome = line.as_ref().and_then(|l| l.result);
    let text = line
        .map(|l| l.text.clone())
        .unwrap_or_else(|| "no line of the table applies".into());
    log(world, EventKind::CombatResult, "CdB 11.5", |w| {
        format!(
            "{} scores {} of {}: {} -> {}",
            name(w, loser),
            if doubled {
                "half or less"
            } else {
                "less but more than half"
            },
            w_total,
            text,
            outcome_name(outcome)
        )
    });
    // The vacated hex and who may advance into it (CdB 11.9): only the unit that fought.
    let advance = (!plan.missile && morale::is_impetuous(world, winner)).then(|| Advance {
        unit: winner,
        into: hex_of(world, loser).expect("the loser is on the map"),
    });
    let advance = advance.filter(|adv| {
        let wk = kind(world, adv.unit);
        // Not a foot unit that fought skirmishers, nor the defender of a fortification.
        let defends_fortification =
            adv.unit == plan.d && hex_of(world, adv.unit).is_some_and(|h| fortified(world, h));
        let fought_skirmishers = wk.is_foot() && kind(world, loser).is_skirmisher();
        !(fought_skirmishers || defends_fortification)
    });
    match outcome {
        None => {}
        // A unit under a flank position may not recoil (CdB 11.4), and a flight begins
        // with a recoil (11.8): either is destroyed instead.
        Some(o @ (Outcome::Recoil | Outcome::Flight)) => {
            if let Some(x) = flank_position_on(world, loser).filter(|_| !plan.missile) {
                log(world, EventKind::CombatResult, "CdB 11.4", |w| {
                    format!(
                        "{} holds a flank position on {}: no recoil, destroyed",
                        name(w, x),
                        name(w, loser)
                    )
                });
                destroy(world, loser, plan.missile, advance);
            } else {
                start_recoil(world, loser, o == Outcome::Flight, plan.missile, advance);
            }
        }
        Some(Outcome::Destroyed) => destroy(world, loser, plan.missile, advance),
    }
}

pub(crate) fn outcome_name(o: Option<Outcome>) -> &'static str {
    match o {
        Some(Outcome::Recoil) => "recoil",
        Some(Outcome::Destroyed) => "destroyed",
        Some(Outcome::Flight) => "flight",
        None => "no effect",
    }
}

fn describe(s: &Score, die: i32) -> String {
    let mut parts = vec![format!("die {die}"), format!("value {}", s.base - die)];
    for (v, why) in &s.terms {
        if *v != 0 {
            parts.push(format!("{v:+} {why}"));
        }
    }
    if let Some(q) = &s.quality_note {
        parts.push(q.clone());
    }
    parts.join(", ")
}

/// The line of the results table for a loser (CdB 11.5).
pub(crate) fn result_line(
    world: &World,
    loser: UnitId,
    winner: UnitId,
    missile: bool,
    doubled: bool,
) -> Option<ResultLine> {
    let t = tables(world);
    let lines = if doubled {
        &t.results.doubled
    } else {
        &t.results.beaten
    };
    let lp = unit(world, loser).p;
    let wp = unit(world, winner).p;
    let ground = if hex_of(world, loser).is_some_and(|h| rough(world, h)) {
        Ground::Broken
    } else {
        Ground::Clear
    };
    lines
        .iter()
        .find(|l| {
            l.loser.contains(&lp.kind)
                && (l.ground == Ground::Any || l.ground == ground)
                && (l.by.is_empty() || l.by.contains(&wp.kind))
                && match l.context {
                    Context::Any => true,
                    Context::Melee => !missile,
                    Context::Missile => missile,
                }
                && l.loser_quality.is_none_or(|q| q == lp.quality)
                && l.by_quality.is_none_or(|q| q == wp.quality)
                && l.mobile.is_none_or(|m| m == lp.mobile)
        })
        .cloned()
}

/// CdB 11.1: every unit of the active player with an enemy in its frontal hexes has
/// fought or supported, unless every such enemy has already been meleed.
pub(crate) fn check_melee_obligations(world: &World) -> Result<(), Refusal> {
    let side = sequence_side(world);
    for u in all_units(world) {
        if side_of(world, u) != side
            || kind(world, u) == Kind::Bag
            || flags(world, u).rank != 0
            || hex_of(world, u).is_none()
        {
            continue;
        }
        let f = flags(world, u);
        if f.fought || f.supported {
            continue;
        }
        if let Some(e) = enemies_in_front(world, u)
            .into_iter()
            .find(|e| !flags(world, *e).was_meleed)
        {
            return Err(Refusal::new(
                "CdB 11.1",
                format!(
                    "{} has {} in its frontal hexes: it must melee it or support a melee first",
                    name(world, u),
                    name(world, e)
                ),
            ));
        }
    }
    Ok(())
}

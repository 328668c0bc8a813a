//! Combat: missile fire (CdB 10) and melee (11): who may fight whom, refacing before
//! melee (6.3), the scores with tactical values, ranks of support, tactical and
//! quality modifiers, supports and flank positions, and the results: recoil (11.6),
//! destruction with the rear unit (11.7), flight (11.8) and advance (11.9).

use bevy::prelude::*;

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::hex::{HexCoord, VertexFacing, line_of_hexes, line_of_sight};
use crate::engine::scenario::MapEdge;
use crate::engine::units::{Placement, SideId, UnitId};

use super::data::{Context, Ground, Kind, Outcome, Quality, ResultLine};
use super::*;

/// An impetuous winner's advance into the hex its enemy left (CdB 11.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advance {
    pub unit: UnitId,
    pub into: HexCoord,
}

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
    let board = world.resource::<Board>();
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
            format!("{target} is not one of {}'s frontal hexes", name(world, a)),
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
    // Supports are taken as they stand after the pivot.
    let plan = evaluate(world, a, d, false, &[], None);
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
fn resolve(world: &mut World, plan: CombatPlan) {
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

// ---- results ----

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
    let board = world.resource::<Board>();
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
                && movement::may_stack(world, u, occ[0])
            {
                joins = Some(occ[0]);
                break true;
            }
            // A stack recoils as one unit (CdB 8.1): each counter must be allowed
            // through.
            if same_facing
                && stack.iter().all(|m| {
                    occ.iter()
                        .all(|o| movement::may_pass_through(world, *m, *o, f))
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

fn start_recoil(world: &mut World, u: UnitId, flee: bool, missile: bool, advance: Option<Advance>) {
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
            world.resource_mut::<CdbState>().pending = Some(Pending::Recoil {
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
        match &mut st.pending {
            None => {
                st.pending = Some(Pending::RearLoss {
                    side,
                    options: vec![x, y],
                    effect: RearEffect::Destroyed,
                    advance: None,
                })
            }
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
            .get::<crate::engine::units::UnitName>(entity(w, u))
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
    if flee {
        flight(world, u);
    }
    if let Some(adv) = advance {
        do_advance(world, adv);
    }
}

pub(crate) fn decide_recoil(world: &mut World, hex: HexCoord) {
    let Some(Pending::Recoil {
        unit: u,
        flee,
        advance,
        ..
    }) = world.resource_mut::<CdbState>().pending.take()
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
    }) = world.resource_mut::<CdbState>().pending.take()
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
fn destroy(world: &mut World, u: UnitId, missile: bool, advance: Option<Advance>) {
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
                world.resource_mut::<CdbState>().pending = Some(Pending::RearLoss {
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
            world.resource_mut::<CdbState>().pending = Some(Pending::RearLoss {
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
    if !stack_at(world, adv.into).is_empty() || !world.resource::<Board>().contains(adv.into) {
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
    let board = world.resource::<Board>().clone();
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
                    .all(|m| movement::may_pass_through(w, *m, *o, base))
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
    let board = world.resource::<Board>().clone();
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

// ---- missile fire ----

/// Whether `shooter` may shoot at `target` now (CdB 10.1, 10.2), its distance if so.
pub(crate) fn can_shoot_at(world: &World, shooter: UnitId, target: UnitId) -> Result<u32, Refusal> {
    let p = unit(world, shooter).p;
    let who = name(world, shooter);
    if p.kind != Kind::Bw || p.range == 0 {
        return Err(Refusal::new(
            "CdB 10",
            format!("{who} is not a unit of Bowmen"),
        ));
    }
    let f = flags(world, shooter);
    if f.shot {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{who} has shot this turn"),
        ));
    }
    if f.moved {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{who} moved this turn: it may not shoot"),
        ));
    }
    if f.supported || f.rank != 0 {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{who} is supporting: it may not shoot"),
        ));
    }
    if in_enemy_zoc(world, shooter) || !enemies_in_front(world, shooter).is_empty() {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{who} is in an enemy zone of control or has an enemy in its own"),
        ));
    }
    if corps_of(world, shooter).unreliable == Some(true) {
        return Err(Refusal::new(
            "CdB 4.3",
            format!("{who} belongs to an unreliable allied corps: it may not shoot"),
        ));
    }
    let side = side_of(world, shooter);
    let (Some(sh), Some(th)) = (hex_of(world, shooter), hex_of(world, target)) else {
        return Err(Refusal::new("CdB 10", "both units must be on the map"));
    };
    if side_of(world, target) == side || is_hidden(world, target) {
        return Err(Refusal::new(
            "CdB 10",
            "the target must be a visible enemy unit",
        ));
    }
    let d = sh.distance(th);
    if d > p.range {
        return Err(Refusal::new(
            "CdB 10",
            format!("{th} is {d} hexes away; {who}'s range is {}", p.range),
        ));
    }
    let front = facing(world, shooter).front(sh);
    let through_front = d == 1 && front.contains(&th)
        || line_of_hexes(sh, th)
            .get(1)
            .is_some_and(|(x, y)| front.contains(x) || y.is_some_and(|y| front.contains(&y)));
    if !through_front {
        return Err(Refusal::new(
            "CdB 10.2",
            format!("Bowmen shoot only through their frontal hexes: {th} is not in front of {who}"),
        ));
    }
    let clear = line_of_sight(sh, th, |x| {
        x != sh
            && x != th
            && (movement::blocks_sight(world, x, sh, th) || !stack_at(world, x).is_empty())
    });
    if !clear {
        return Err(Refusal::new(
            "CdB 10.2",
            format!("the line from {sh} to {th} is blocked by terrain or units"),
        ));
    }
    Ok(d)
}

/// The enemy units `shooter` could shoot at, with their distances.
pub(crate) fn targets_of(world: &World, shooter: UnitId) -> Vec<(UnitId, u32)> {
    let side = side_of(world, shooter);
    let Some(sh) = hex_of(world, shooter) else {
        return Vec::new();
    };
    let range = unit(world, shooter).p.range;
    sh.within(range)
        .into_iter()
        .filter_map(|h| enemy_at(world, side, h))
        .filter(|t| !flags(world, *t).was_shot && !in_contact_with_side(world, *t, side))
        .filter_map(|t| can_shoot_at(world, shooter, t).ok().map(|d| (t, d)))
        .collect()
}

fn in_contact_with_side(world: &World, t: UnitId, side: SideId) -> bool {
    let Some(th) = hex_of(world, t) else {
        return false;
    };
    th.neighbors()
        .into_iter()
        .filter_map(|n| front_at(world, n))
        .any(|x| side_of(world, x) == side && frontal_contact(world, x, t))
}

pub(crate) fn check_missile(
    world: &World,
    fire: &[HexCoord],
    target: HexCoord,
) -> Result<CombatPlan, Refusal> {
    if state(world).step != CdbPhase::Missile {
        return Err(Refusal::new(
            "CdB 3",
            "missiles are shot in the missile phase",
        ));
    }
    let side = state(world).missile_side;
    let mut shooters = Vec::new();
    for h in fire {
        let s = front_at(world, *h)
            .ok_or_else(|| Refusal::new("CdB 10", format!("there is no unit in {h}")))?;
        if side_of(world, s) != side {
            return Err(Refusal::new(
                "CdB 10",
                format!(
                    "{} does not belong to the side shooting now",
                    name(world, s)
                ),
            ));
        }
        if shooters.contains(&s) {
            return Err(Refusal::new(
                "CdB 10.3",
                format!("{} is named twice", name(world, s)),
            ));
        }
        shooters.push(s);
    }
    let t = enemy_at(world, side, target)
        .ok_or_else(|| Refusal::new("CdB 10", format!("there is no enemy unit in {target}")))?;
    if flags(world, t).was_shot {
        return Err(Refusal::new(
            "CdB 10.1",
            format!("{} has been shot at this turn", name(world, t)),
        ));
    }
    if in_contact_with_side(world, t, side) {
        return Err(Refusal::new(
            "CdB 10.1",
            format!(
                "{} is in frontal contact with a friendly unit: no shooting at it",
                name(world, t)
            ),
        ));
    }
    let lead = shooters[0];
    let d = can_shoot_at(world, lead, t)?;
    for s in &shooters {
        let options = targets_of(world, *s);
        let nearest = options.iter().map(|o| o.1).min();
        if *s != lead {
            can_shoot_at(world, *s, t)?;
            if !shooters.iter().any(|o| {
                *o != *s
                    && hex_of(world, *o)
                        .zip(hex_of(world, *s))
                        .is_some_and(|(a, b)| a.is_adjacent(b))
            }) {
                return Err(Refusal::new(
                    "CdB 10.3",
                    format!(
                        "{} is not adjacent to another shooter: it shoots separately",
                        name(world, *s)
                    ),
                ));
            }
        }
        let mine = if *s == lead {
            d
        } else {
            can_shoot_at(world, *s, t)?
        };
        if nearest.is_some_and(|n| n < mine) {
            return Err(Refusal::new(
                "CdB 10.1",
                format!(
                    "{} must shoot at the nearest target ({} hexes)",
                    name(world, *s),
                    nearest.unwrap_or(0)
                ),
            ));
        }
    }
    Ok(evaluate(world, lead, t, true, &shooters, None))
}

pub(crate) fn execute_missile(world: &mut World, plan: CombatPlan) {
    let (a, d) = (plan.a, plan.d);
    log(world, EventKind::CombatDeclared, "CdB 10", |w| {
        let mut t = format!("{} shoots at {}", name(w, a), name(w, d));
        if !plan.a_supports.is_empty() {
            t.push_str(&format!(
                ", supported by {}",
                plan.a_supports
                    .iter()
                    .map(|s| name(w, *s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if plan.countershot {
            t.push_str("; it shoots back");
        }
        t
    });
    for s in std::iter::once(a).chain(plan.a_supports.iter().copied()) {
        flags_mut(world, s).shot = true;
    }
    flags_mut(world, d).was_shot = true;
    if plan.countershot {
        flags_mut(world, d).shot = true;
    }
    let c = unit(world, d).corps as usize;
    command_points::set_reliable(world, c, "one of its units was shot at");
    resolve(world, plan);
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

//! Champs de Bataille as the window shows it: the check of every command, counter
//! faces with facing, unit cards, move options with their AP cost, combat previews
//! and morale, all from the functions that check and resolve. The pending decisions
//! are in `decision.rs`.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::{Command, Refusal, UnitRef};
use crate::engine::fast_hash::{FastMap, FastSet};

use super::commands::{CdbCommand, MarchStep};
use crate::engine::units::{SideId, Steps, UnitId};
use crate::engine::view::{AttackPreview, CardLine, Choice, CounterFace, MoveOption, SideMorale};

use super::data::{Kind, Quality};
use super::*;

fn unit_id(world: &World, e: Entity) -> Option<UnitId> {
    world.get::<UnitId>(e).copied()
}

/// The check `submit` runs before executing anything: the refusal it would give.
pub fn check(world: &World, command: &Command) -> Result<(), Refusal> {
    super::dispatch::check(world, command).map(|_| ())
}

pub fn counter_face(world: &World, e: Entity) -> CounterFace {
    let Some(id) = unit_id(world, e) else {
        return CounterFace {
            symbol: String::new(),
            values: String::new(),
            reduced: false,
            facing: None,
            rank: 0,
            troop: String::new(),
        };
    };
    let u = unit(world, id);
    let p = u.p;
    let q = match p.quality {
        Quality::S => "S",
        Quality::O => "O",
        Quality::I => "I",
        Quality::F => "F",
        Quality::X => "X",
    };
    // "Irr Wb(O)" as DBM writes it; a star marks the corps' general.
    let mut symbol = format!("{}{:?}({q})", if p.regular { "" } else { "Irr " }, p.kind);
    if u.general {
        symbol.push('*');
    }
    let mut values = format!("{}/{} {}", p.vs_foot, p.vs_mounted, p.mp);
    if p.range > 0 {
        values.push_str(&format!("r{}", p.range));
    }
    CounterFace {
        symbol,
        values,
        reduced: corps_of(world, id).demoralised,
        facing: (p.kind != Kind::Bag).then(|| facing(world, id).0),
        rank: flags(world, id).rank,
        troop: format!("{:?}", p.kind),
    }
}

pub fn unit_flags(world: &World, e: Entity) -> Vec<String> {
    let Some(id) = unit_id(world, e) else {
        return Vec::new();
    };
    let f = flags(world, id);
    let mut out = Vec::new();
    for (on, label) in [
        (f.moved, "moved"),
        (f.kept, "kept"),
        (f.shot, "shot"),
        (f.was_shot, "was_shot"),
        (f.fought, "fought"),
        (f.supported, "supported"),
        (f.rank == 1, "rear_rank"),
    ] {
        if on {
            out.push(label.to_string());
        }
    }
    if is_hidden(world, id) {
        out.push("hidden".into());
    }
    if corps_of(world, id).demoralised {
        out.push("demoralised".into());
    }
    if morale::is_impetuous(world, id) {
        out.push("impetuous".into());
    }
    out
}

pub fn unit_card(world: &World, e: Entity) -> Vec<CardLine> {
    let Some(id) = unit_id(world, e) else {
        return Vec::new();
    };
    let u = unit(world, id);
    let p = u.p;
    let co = corps_of(world, id);
    let f = flags(world, id);
    let mut lines: Vec<CardLine> = vec![
        (
            "Type".into(),
            format!(
                "{} {:?}({:?})",
                if p.regular { "Reg" } else { "Irr" },
                p.kind,
                p.quality
            ),
        ),
        (
            "Tactical value".into(),
            format!(
                "{} vs foot, {} vs mounted (CdB 2.1)",
                p.vs_foot, p.vs_mounted
            ),
        ),
        ("Movement".into(), format!("{} MP (CdB 9)", p.mp)),
        (
            "Facing".into(),
            movement::facing_name(facing(world, id)).to_string(),
        ),
        (
            "Corps".into(),
            format!(
                "{}{}",
                co.name,
                if u.general { " (its general)" } else { "" }
            ),
        ),
        (
            "Corps PA".into(),
            command_points::left_text(world, u.corps as usize),
        ),
    ];
    if p.range > 0 {
        lines.push(("Range".into(), format!("{} hexes (CdB 10)", p.range)));
    }
    if co.demoralised {
        lines.push((
            "Demoralised".into(),
            "-1 in combat, flees unless kept (CdB 12.3)".into(),
        ));
    }
    if morale::is_impetuous(world, id) {
        lines.push((
            "Impetuous".into(),
            "advances unless kept in control (CdB 2.5, 9.5)".into(),
        ));
    }
    if f.rank == 1 {
        lines.push((
            "Rank".into(),
            "rear rank: supports the unit in front (CdB 8.1)".into(),
        ));
    }
    for (on, label) in [
        (f.moved, "moved this turn"),
        (f.kept, "kept in control"),
        (f.shot, "has shot"),
        (f.fought, "has fought a melee"),
        (f.supported, "has supported a melee"),
    ] {
        if on {
            lines.push(("State".into(), label.into()));
        }
    }
    lines
}

/// Single-unit marches: forward or rearward hex by hex, after at most one turn.
pub fn move_options(world: &World, e: Entity) -> Result<Vec<MoveOption>, Refusal> {
    let Some(id) = unit_id(world, e) else {
        return Err(Refusal::new("CdB 2", "not a unit"));
    };
    if state(world).step != CdbPhase::Movement {
        return Err(Refusal::new("CdB 3", "units move in their movement phase"));
    }
    let who =
        UnitRef::Hex(hex_of(world, id).ok_or_else(|| Refusal::new("CdB 9", "not on the map"))?);
    // The checks made once per march; each path is then extended by one step from
    // its checked state (`march::MarchCtx::point`), as `check_march` would check it.
    let (ctx, base) = super::march::begin(world, &[(who.clone(), Vec::new())])?;
    let mut out: Vec<MoveOption> = Vec::new();
    // The notes by cost: a search's marches share a few costs.
    let mut notes: Vec<(super::march::Cost, String)> = Vec::new();
    let first_refusal = march_search(world, id, &ctx, &base, |n, b, cost| {
        if !out.iter().any(|o| o.hex == n) {
            let note = match notes.iter().find(|(c, _)| std::rc::Rc::ptr_eq(c, cost)) {
                Some((_, note)) => note.clone(),
                None => {
                    let note = format!("{} PA: {}", cost.0, cost.1.join(", "));
                    notes.push((cost.clone(), note.clone()));
                    note
                }
            };
            out.push(MoveOption {
                hex: n,
                cost: b.spent,
                left: b.allowance - b.spent,
                per_mp: 1,
                path: b.path.clone(),
                command: CdbCommand::March {
                    moves: vec![(who.clone(), b.steps.clone())],
                }
                .command(),
                note,
            });
        }
    });
    if out.is_empty() {
        return Err(first_refusal.unwrap_or_else(|| Refusal::new("CdB 9", "no legal move")));
    }
    Ok(out)
}

/// Every march of unit `id` the checks of `ctx` allow from `base`, one step at a time:
/// `reached` is told each hex it may stop in with the unit's body there and the
/// march's cost (a hex once for each facing and allowance it is reached with, cheapest
/// first). Returns the first refusal met, to say why a unit that reaches nothing may
/// not move. The window's move options and the threat map read it.
pub(crate) fn march_search(
    world: &World,
    id: UnitId,
    ctx: &super::march::MarchCtx,
    base: &super::march::MarchState,
    mut reached_at: impl FnMut(HexCoord, &movement::Body, &super::march::Cost),
) -> Option<Refusal> {
    let board = world.res::<Board>();
    let (start, f0) = simulate(world, id, &[]);
    // A start with a turn: its point is checked now (a turn is checked alike whatever
    // follows it); a refusal is met where the old search met it, on the first step.
    let with_turn = |t: i8| {
        let mut s = base.extended(|_, _| Some(MarchStep::Turn(t)));
        let f = VertexFacing(((f0.0 as i32 + t as i32).rem_euclid(6)) as u8);
        let checked = ctx.point(&mut s).map(|()| s);
        (start, f, None, checked)
    };
    // Each path (its steps are its body's) with where its steps lead, whether they go
    // to the rear (once a hex is entered), and its march checked up to its last step
    // included (or the refusal every step after it meets). Taken from the back, new
    // paths put at the front: the three starts last first, then first in, first out.
    let mut frontier: std::collections::VecDeque<Path> = [
        (start, f0, None, Ok(base.clone())),
        with_turn(1),
        with_turn(-1),
    ]
    .into();
    let mut first_refusal = None;
    let mut explored = 0;
    // Paths that reach the same hex with the same facing and allowance (broken terrain
    // lowers it), as cheaply, have the same future: only the first is extended (a
    // march is forward only or rearward only).
    let mut reached: FastMap<(HexCoord, VertexFacing, bool, i32), i32> =
        FastMap::with_capacity_and_hasher(64, Default::default());
    let mut passing: FastSet<(HexCoord, VertexFacing, usize)> = FastSet::default();
    while let Some((at, f, went_back, pre)) = frontier.pop_back() {
        explored += 1;
        if explored > 400 {
            break;
        }
        let pre = match pre {
            Ok(pre) => pre,
            Err(r) => {
                // Every step from here is refused so, the first one checked whatever
                // the refusals kept.
                if first_refusal.is_none() {
                    first_refusal = Some(r);
                }
                continue;
            }
        };
        let front = f.front(at);
        let nexts = front.iter().map(|n| (*n, false));
        for (n, back) in nexts.chain(f.rear(at).into_iter().map(|n| (n, true))) {
            // A march goes forward only or rearward only (CdB 9.2), and stays on the
            // map: once a refusal is kept, such a step would only be refused again
            // (never as a hex passed through), so it is not checked.
            if first_refusal.is_some()
                && (went_back.is_some_and(|b| b != back) || !board.contains(n))
            {
                continue;
            }
            // The step checked once, as the march's last: a march that may stop there
            // and go on is checked alike whatever follows (it has entered no zone of
            // control and joined no unit: both stop it).
            let mut s = pre.extended(|_, _| Some(MarchStep::Hex(n)));
            match ctx.point(&mut s).and_then(|()| ctx.weigh(&s)) {
                Ok(cost) => {
                    let b = &s.bodies[0];
                    reached_at(n, b, &cost);
                    let state = (n, b.facing, b.went_back, b.allowance);
                    let better = reached.get(&state).is_none_or(|old| b.spent < *old);
                    if better {
                        reached.insert(state, b.spent);
                    }
                    if better && !b.stopped && b.spent < b.allowance {
                        frontier.push_front((n, f, Some(back), Ok(s)));
                    }
                }
                Err(r) => {
                    if r.reason.contains("not stop there") {
                        // A step to a hex turns nothing: the facing is the path's.
                        let len = pre.bodies[0].steps.len() + 1;
                        if passing.insert((n, f, len)) {
                            // The step checked again as a hex passed through.
                            let mut s = pre.extended(|_, _| Some(MarchStep::Hex(n)));
                            let checked = ctx.point_then(&mut s, true).map(|()| s);
                            frontier.push_front((n, f, Some(back), checked));
                        }
                    } else if first_refusal.is_none() {
                        first_refusal = Some(r);
                    }
                }
            }
        }
    }
    first_refusal
}

/// A path of `march_search`: where its steps lead, with what facing, whether to the
/// rear (once a hex is entered), and its march checked up to its last step included or
/// the refusal any step after it meets.
type Path = (
    HexCoord,
    VertexFacing,
    Option<bool>,
    Result<super::march::MarchState, Refusal>,
);

pub(crate) fn cost_note(plan: &movement::MarchPlan) -> String {
    format!("{} PA: {}", plan.cost, plan.cost_lines.join(", "))
}

/// A group's marches (CdB 9.4): every unit takes the steps its leader takes, in the
/// same directions, after at most one turn of every unit together.
pub fn group_move_options(world: &World, units: &[UnitId]) -> Result<Vec<MoveOption>, Refusal> {
    if state(world).step != CdbPhase::Movement {
        return Err(Refusal::new("CdB 3", "units move in their movement phase"));
    }
    let lead = *units
        .first()
        .ok_or_else(|| Refusal::new("CdB 5", "an empty group"))?;
    let start = hex_of(world, lead).ok_or_else(|| Refusal::new("CdB 9", "not on the map"))?;
    stacking::check_is_group(world, units)?;
    let mut out: Vec<MoveOption> = Vec::new();
    let mut first_refusal = None;
    // The checks made once per march (`march::begin`) pass or fail alike whatever the
    // order of the units and their first turn: they are made once, for the first
    // search, and each search takes the bodies in its own order with its own turn. The
    // searches share what the checks work out of the world (the hexes' zones, distances
    // and obstacles, the activation's cost).
    let mut begun: Option<(super::march::MarchCtx, super::march::MarchState)> = None;
    for turn in [0i8, 1, -1] {
        let f0 = crate::engine::hex::VertexFacing(
            ((facing(world, lead).0 as i32 + turn as i32).rem_euclid(6)) as u8,
        );
        for dir in f0.front_dirs() {
            // Front units first, so no unit steps into a hex still held.
            let mut far = start;
            for _ in 0..40 {
                far = far.neighbor(dir);
            }
            let mut order: Vec<UnitId> = units.to_vec();
            order.sort_by_key(|u| (hex_of(world, *u).map_or(0, |h| h.distance(far)), *u));
            let keys: Vec<UnitRef> = order.iter().map(|u| key(world, *u)).collect();
            let mut ends: Vec<HexCoord> = order
                .iter()
                .map(|u| hex_of(world, *u).expect("on the map"))
                .collect();
            // The march of every length checked up to its last movement point: each
            // longer march adds a step to each unit's and checks from there, as
            // `check_march` would check it from its start.
            let first: Vec<(UnitRef, Vec<MarchStep>)> = keys
                .iter()
                .map(|k| {
                    let steps = if turn != 0 {
                        vec![MarchStep::Turn(turn)]
                    } else {
                        Vec::new()
                    };
                    (k.clone(), steps)
                })
                .collect();
            let (ctx, base) = match &mut begun {
                Some(b) => &*b,
                // Every search would be refused alike: the first refusal is this one.
                None => &*begun.insert(super::march::begin(world, &first)?),
            };
            let mut pre = super::march::MarchState {
                bodies: order
                    .iter()
                    .map(|u| {
                        let mut b = base
                            .bodies
                            .iter()
                            .find(|b| b.units[0] == *u)
                            .expect("each unit is a body")
                            .clone();
                        b.steps = first[0].1.clone();
                        b
                    })
                    .collect(),
                k: 0,
                came_near: false,
                ever_turned: false,
            };
            for _len in 1..=unit(world, lead).p.mp.max(1) as usize {
                for h in ends.iter_mut() {
                    *h = h.neighbor(dir);
                }
                // `pre` is checked up to its last movement point, or to the one before
                // (then checked again as passed through, as `check_march` would).
                let with_step = |pre: &super::march::MarchState| {
                    let mut s = pre.extended(|i, _| Some(MarchStep::Hex(ends[i])));
                    let points = s.bodies[0].steps.len();
                    let mut checked = Ok(());
                    while checked.is_ok() && s.k + 1 < points {
                        checked = ctx.point(&mut s);
                    }
                    (s, checked)
                };
                let (mut s, mut checked) = with_step(&pre);
                if checked.is_ok() {
                    checked = ctx.point(&mut s);
                }
                // A last point that may be stopped at with no body stopped is checked
                // alike when passed through (no zone entered, no unit joined): the
                // next march goes on from it.
                let goes_on = checked.is_ok() && !s.bodies.iter().any(|b| b.stopped);
                match checked.and_then(|()| ctx.weigh(&s)) {
                    Ok(cost) => {
                        let b = s
                            .bodies
                            .iter()
                            .find(|b| b.units.contains(&lead))
                            .expect("the leader moves");
                        if !out.iter().any(|o| o.hex == b.hex) {
                            let moves: Vec<(UnitRef, Vec<MarchStep>)> = keys
                                .iter()
                                .cloned()
                                .zip(s.bodies.iter().map(|b| b.steps.clone()))
                                .collect();
                            out.push(MoveOption {
                                hex: b.hex,
                                cost: b.spent,
                                left: b.allowance - b.spent,
                                per_mp: 1,
                                path: b.path.clone(),
                                note: format!("{} PA: {}", cost.0, cost.1.join(", ")),
                                command: CdbCommand::March { moves }.command(),
                            });
                        }
                    }
                    Err(r) => {
                        let passing = r.reason.contains("not stop there");
                        if first_refusal.is_none() {
                            first_refusal = Some(r);
                        }
                        if !passing {
                            break;
                        }
                    }
                }
                pre = if goes_on {
                    s
                } else {
                    // Checked up to the point before the last, which passed.
                    with_step(&pre).0
                };
            }
        }
    }
    if out.is_empty() {
        return Err(
            first_refusal.unwrap_or_else(|| Refusal::new("CdB 9.4", "the group cannot move"))
        );
    }
    Ok(out)
}

/// Keeping a unit (or its group) in control, dismounting or remounting: what is
/// legal for the unit now.
pub fn unit_actions(world: &World, e: Entity) -> Vec<Choice> {
    let Some(id) = unit_id(world, e) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let unit_key = key(world, id);
    if deployment::may_replace(world, id)
        && let Some(h) = hex_of(world, id)
    {
        let f = facing(world, id);
        for (label, turn) in [("Turn clockwise", 1), ("Turn anticlockwise", 5)] {
            let command = Command::Place {
                unit: unit_key.clone(),
                hex: h,
                facing: Some(VertexFacing((f.0 + turn) % 6)),
            };
            if check(world, &command).is_ok() {
                out.push(Choice {
                    label: format!("{label} (CdB 14.3)"),
                    command,
                    hex: None,
                });
            }
        }
    }
    for (label, command) in [
        (
            "Keep in control (CdB 4.2)",
            CdbCommand::Keep {
                units: vec![unit_key.clone()],
            }
            .command(),
        ),
        (
            "Dismount (CdB 2.7)",
            CdbCommand::Dismount {
                unit: unit_key.clone(),
                remount: false,
            }
            .command(),
        ),
        (
            "Remount (CdB 2.7)",
            CdbCommand::Dismount {
                unit: unit_key.clone(),
                remount: true,
            }
            .command(),
        ),
    ] {
        if check(world, &command).is_ok() {
            out.push(Choice {
                label: label.to_string(),
                command,
                hex: None,
            });
        }
    }
    out
}

/// The action points of the side to act, corps by corps, and the corps' morale.
pub fn status_lines(world: &World) -> Vec<String> {
    let st = state(world);
    // In the set-up the players take turns within the attacker's "sequence".
    let side = if st.step == CdbPhase::Setup {
        turn(world).active
    } else {
        sequence_side(world)
    };
    let step = match st.step {
        CdbPhase::Setup => match deployment::stage_name(world) {
            Some(stage) => format!("set-up: {stage}"),
            None => "set-up (CdB 14.3)".to_string(),
        },
        CdbPhase::Command => "action points (CdB 4.1)".to_string(),
        CdbPhase::Movement => "movement (CdB 9)".to_string(),
        CdbPhase::Missile => format!(
            "missile combat: {} shoots (CdB 10)",
            side_name(world, st.missile_side)
        ),
        CdbPhase::Melee => "melee (CdB 11)".to_string(),
    };
    let mut out = vec![format!(
        "{} sequence: {step}",
        possessive(&side_name(world, side))
    )];
    for c in &st.corps {
        let lost = morale::corps_lost_halves(
            world,
            st.corps.iter().position(|x| x.id == c.id).unwrap_or(0),
        );
        let mut line = format!(
            "{} ({}{}): ",
            c.name,
            if c.regular { "regular" } else { "irregular" },
            if c.allied { ", allied" } else { "" }
        );
        if c.side == side {
            let index = st.corps.iter().position(|x| x.id == c.id).unwrap_or(0);
            match c.die {
                Some(d) => line.push_str(&format!(
                    "{} PA left of {d}{} (CdB 4.2)",
                    c.ap,
                    command_points::cinc_extra_text(world, index)
                )),
                None => line.push_str("die not yet assigned"),
            }
        } else {
            line.push_str("enemy");
        }
        line.push_str(&format!(
            "; lost {}/{} EP{}{}",
            lost as f32 / 2.0,
            c.total_halves as f32 / 2.0,
            if c.demoralised { ", DEMORALISED" } else { "" },
            if c.unreliable == Some(true) {
                ", unreliable"
            } else {
                ""
            }
        ));
        out.push(line);
    }
    if !st.unassigned.is_empty() {
        let dice: Vec<String> = st.unassigned.iter().map(u8::to_string).collect();
        out.push(format!("Dice to assign: {} (CdB 4.1)", dice.join(" and ")));
    }
    out
}

/// CdB's state for `--state`: the step, each corps' action points, die, morale and
/// reliability (CdB 4, 12), the CinC's additional PA, and the dice to assign.
pub fn state_json(world: &World) -> serde_json::Value {
    let st = state(world);
    let sides = &world
        .resource::<crate::engine::game::ScenarioInfo>()
        .0
        .file
        .sides;
    let corps: Vec<serde_json::Value> = st
        .corps
        .iter()
        .enumerate()
        .map(|(i, c)| {
            serde_json::json!({
                "id": c.id,
                "name": c.name,
                "side": sides[c.side.0 as usize].id,
                "general": key(world, c.general).to_string(),
                "regular": c.regular,
                "allied": c.allied,
                "die": c.die,
                "pa": c.ap,
                "demoralised": c.demoralised,
                "unreliable": c.unreliable == Some(true),
                "lost_counter_equivalents": morale::corps_lost_halves(world, i) as f32 / 2.0,
                "counter_equivalents": c.total_halves as f32 / 2.0,
            })
        })
        .collect();
    serde_json::json!({
        "step": st.step.view().label,
        "sequence": sides[st.sequence.0 as usize].id,
        "corps": corps,
        "cinc_additional_pa": [st.cinc_extra[0], st.cinc_extra[1]],
        "dice_to_assign": st.unassigned,
    })
}

/// Where a unit's steps would take it, ignoring legality.
pub(crate) fn simulate(
    world: &World,
    id: UnitId,
    steps: &[MarchStep],
) -> (HexCoord, crate::engine::hex::VertexFacing) {
    let mut at = hex_of(world, id).expect("on the map");
    let mut f = facing(world, id);
    for s in steps {
        match s {
            MarchStep::Hex(h) => at = *h,
            MarchStep::Turn(n) => {
                f = crate::engine::hex::VertexFacing(((f.0 as i32 + *n as i32).rem_euclid(6)) as u8)
            }
        }
    }
    (at, f)
}

pub fn attack_command(world: &World, attackers: &[HexCoord], target: HexCoord) -> Command {
    if state(world).step == CdbPhase::Missile {
        Command::Attack {
            melee: Vec::new(),
            fire: attackers.to_vec(),
            target,
        }
    } else {
        Command::Attack {
            melee: attackers.iter().take(1).copied().collect(),
            fire: Vec::new(),
            target,
        }
    }
}

pub fn attack_preview(world: &World, command: &Command) -> Result<AttackPreview, Refusal> {
    check(world, command)?;
    let Command::Attack {
        melee,
        fire,
        target,
    } = command
    else {
        return Err(Refusal::new("CdB 11", "not an attack"));
    };
    let plan = if fire.is_empty() {
        combat::check_melee(world, melee[0], *target)?
    } else {
        missile::check_missile(world, fire, *target)?
    };
    let mut modifiers = Vec::new();
    for (who, s, sup) in [
        (plan.a, &plan.a_score, &plan.a_supports),
        (plan.d, &plan.d_score, &plan.d_supports),
    ] {
        modifiers.push(format!("{}: value {}", name(world, who), s.base));
        for (v, why) in &s.terms {
            if *v != 0 {
                modifiers.push(format!("  {v:+} {why}"));
            }
        }
        for x in sup {
            modifiers.push(format!("  supported by {}", name(world, *x)));
        }
    }
    if let Some(nf) = plan.pivot {
        modifiers.push(format!(
            "{} will first pivot to face {} (CdB 6.3); supports are counted again then",
            name(world, plan.d),
            movement::facing_name(nf)
        ));
    }
    let mut chances: Vec<(String, f64)> = Vec::new();
    for da in 1..=6 {
        for dd in 1..=6 {
            let j = combat::judge(world, &plan, da, dd);
            let label = match &j.result {
                None => "no effect".to_string(),
                Some((_, loser, _, line)) => {
                    let mut o =
                        combat::outcome_name(line.as_ref().and_then(|l| l.result)).to_string();
                    if o == "recoil"
                        && !plan.missile
                        && combat::flank_position_on(world, *loser).is_some()
                    {
                        o = "destroyed (flank position)".into();
                    }
                    format!("{} {o}", name(world, *loser))
                }
            };
            match chances.iter_mut().find(|c| c.0 == label) {
                Some(c) => c.1 += 1.0 / 36.0,
                None => chances.push((label, 1.0 / 36.0)),
            }
        }
    }
    chances.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok(AttackPreview {
        command: command.clone(),
        odds: format!(
            "{} {} against {} {} (before dice)",
            name(world, plan.a),
            plan.a_score.modified(),
            name(world, plan.d),
            plan.d_score.modified()
        ),
        modifiers,
        die_modifier: 0,
        chances,
        attack_supports: plan
            .a_supports
            .iter()
            .filter_map(|u| hex_of(world, *u))
            .collect(),
        defence_supports: plan
            .d_supports
            .iter()
            .filter_map(|u| hex_of(world, *u))
            .collect(),
    })
}

pub fn morale(world: &World) -> Vec<SideMorale> {
    [SideId(0), SideId(1)]
        .into_iter()
        .map(|s| SideMorale {
            side: s,
            name: side_name(world, s),
            lost: morale::army_losses_halves(world, s) / 2,
            level: (morale::army_total_halves(world, s) + 3) / 4,
        })
        .collect()
}

pub fn invariant_violations(world: &World) -> Vec<String> {
    let mut out = Vec::new();
    let board = world.res::<Board>();
    for hex in board.hexes() {
        let here = stack_at(world, hex);
        if here.len() > 2 {
            out.push(format!("{} units on {hex} (CdB 8)", here.len()));
        }
        if let [a, b] = here[..] {
            if side_of(world, a) != side_of(world, b) {
                out.push(format!("both sides on {hex} (CdB 8)"));
            } else if unit(world, a).corps != unit(world, b).corps {
                out.push(format!("two corps stacked on {hex} (CdB 8)"));
            }
            if flags(world, a).rank == flags(world, b).rank {
                out.push(format!("two units of the same rank on {hex} (CdB 8.1)"));
            }
        }
        if here.len() == 1 && flags(world, here[0]).rank != 0 {
            out.push(format!("a lone unit on {hex} is a rear rank (CdB 8.1)"));
        }
    }
    for c in &state(world).corps {
        if c.ap < 0 {
            out.push(format!(
                "{} corps has {} AP (CdB 4)",
                possessive(&c.name),
                c.ap
            ));
        }
    }
    for u in all_units(world) {
        if world.get::<Steps>(entity(world, u)).is_none() {
            out.push(format!("{} has no steps", name(world, u)));
        }
    }
    if turn(world).outcome.is_some() && !state(world).pending.is_empty() {
        out.push("a decision waits after the game ended (CdB 13)".into());
    }
    out
}

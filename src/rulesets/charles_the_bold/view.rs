//! What a player sees of a Charles the Bold game: counters (type, SP per rank, facing,
//! disorder), unit cards, the moves a stand may make, its own actions (rally, group
//! recovery, opportunity; a general's attachment), the fire preview with its exact
//! chances, the active group and ongoing melees outlined, the round and break points
//! in the status lines, the state for scripts, and the ruleset's invariants for the
//! trust harness.

use bevy::prelude::*;

use crate::engine::command::{Command, Refusal, UnitRef};
use crate::engine::hex::HexCoord;
use crate::engine::units::{SideId, UnitId};
use crate::engine::view::{
    AttackPreview, CardLine, Choice, CounterFace, MarkedHex, MoveOption, SideMorale,
};

use super::commands::{CtbCommand, Step};
use super::{
    CtbPhase, acts, all_units, general, hex_of, key, on_map, phase, plain_name, ranks, resolve,
    side_name, side_of, stand, state, status, turn,
};

fn unit_id(world: &World, entity: Entity) -> Option<UnitId> {
    world.get::<UnitId>(entity).copied()
}

/// The SP of each rank, front first: "5·4·4".
fn sp_text(r: &[u8]) -> String {
    r.iter().map(u8::to_string).collect::<Vec<_>>().join("/")
}

fn blank_face() -> CounterFace {
    CounterFace {
        symbol: String::new(),
        values: String::new(),
        reduced: false,
        facing: None,
        rank: 0,
        troop: String::new(),
    }
}

pub fn counter_face(world: &World, entity: Entity) -> CounterFace {
    let Some(id) = unit_id(world, entity) else {
        return blank_face();
    };
    if let Some(g) = general(world, id) {
        return CounterFace {
            symbol: "Gen".into(),
            values: format!("{:+} {}H", g.bonus, g.range),
            reduced: false,
            facing: None,
            rank: 0,
            troop: "Gen".into(),
        };
    }
    let Some(s) = stand(world, id) else {
        return blank_face();
    };
    let r = &ranks(world, id).0;
    let mut values = sp_text(r);
    let st = status(world, id);
    if st.disordered {
        values.push_str(" D");
    }
    if st.opportunity {
        values.push_str(" O");
    }
    CounterFace {
        symbol: s.spec.id.clone(),
        values,
        reduced: r.as_slice() != s.sp0.as_slice(),
        facing: Some(super::facing(world, id).0),
        rank: 0,
        troop: s.spec.id.clone(),
    }
}

pub fn unit_flags(world: &World, entity: Entity) -> Vec<String> {
    let Some(id) = unit_id(world, entity) else {
        return Vec::new();
    };
    let mut flags = Vec::new();
    if stand(world, id).is_some() {
        let st = status(world, id);
        if st.disordered {
            flags.push("disordered".into());
        }
        if st.opportunity {
            flags.push("opportunity".into());
        }
        if super::in_melee(world, id) {
            flags.push("ongoing melee".into());
        }
        let t = acts(world, id);
        if t.moves > 0 {
            flags.push(format!("moved {}", t.moves));
        }
        if t.fired {
            flags.push("fired".into());
        }
    }
    if let Some(g) = general(world, id)
        && g.attached.is_some()
    {
        flags.push("attached".into());
    }
    flags
}

pub fn unit_card(world: &World, entity: Entity) -> Vec<CardLine> {
    let Some(id) = unit_id(world, entity) else {
        return Vec::new();
    };
    let mut lines: Vec<CardLine> = vec![("Unit".into(), plain_name(world, id))];
    if let Some(g) = general(world, id) {
        lines.push(("Group".into(), state(world).groups[g.group].name.clone()));
        lines.push(("Initiative".into(), format!("{:+} (CtB 1.4)", g.bonus)));
        lines.push(("Command range".into(), format!("{}H (CtB 2.0)", g.range)));
        return lines;
    }
    let Some(s) = stand(world, id) else {
        return lines;
    };
    lines.push(("Group".into(), state(world).groups[s.group].name.clone()));
    lines.push((
        "Type".into(),
        format!("{} ({}, class {:?})", s.spec.id, s.entry.id, s.entry.class),
    ));
    lines.push((
        "SP".into(),
        format!(
            "{} of {} (CtB 1.3, 7.4)",
            sp_text(&ranks(world, id).0),
            sp_text(&s.sp0)
        ),
    ));
    lines.push((
        "MP".into(),
        format!(
            "{} first move, {} later (CtB 16.0)",
            s.entry.mp.0, s.entry.mp.1
        ),
    ));
    lines.push(("Impact".into(), format!("{} (CtB 10.3)", s.entry.impact)));
    lines.push(("Facing".into(), super::facing(world, id).name().into()));
    lines
}

/// What a selected unit may be ordered now besides moving and fighting, each a legal
/// command: a stand's rally (CtB 8.0), its group recovery with the disordered stands
/// side by side with it (CtB 8.1, R-8.1) and its test for opportunity (CtB 5.0); a
/// general's attachment to the stand in his hex or its end (CtB 2.1).
pub fn unit_actions(world: &World, entity: Entity) -> Vec<Choice> {
    let Some(id) = unit_id(world, entity) else {
        return Vec::new();
    };
    if phase(world) != CtbPhase::Activation || !state(world).pending.is_empty() {
        return Vec::new();
    }
    let u = key(world, id);
    let mut out = Vec::new();
    let mut offer = |label: String, command: Command| {
        if super::dispatch::check(world, &command).is_ok() {
            out.push(Choice {
                label,
                command,
                hex: None,
            });
        }
    };
    if let Some(g) = general(world, id) {
        let with = hex_of(world, id).and_then(|h| super::stand_at(world, h));
        if let Some(s) = g.attached.or(with) {
            let name = plain_name(world, s);
            offer(
                format!("Attach to {name} (CtB 2.1)"),
                CtbCommand::Attach { general: u.clone() }.command(),
            );
            offer(
                format!("Detach from {name} (CtB 2.1)"),
                CtbCommand::Detach { general: u }.command(),
            );
        }
        return out;
    }
    offer(
        "Rally (CtB 8.0)".into(),
        CtbCommand::Rally {
            units: vec![u.clone()],
        }
        .command(),
    );
    // The disordered stands that could rally, joined to this one side by side.
    if let Some(group) = state(world).activation {
        let ready: Vec<UnitId> = super::group_stands(world, group)
            .into_iter()
            .filter(|s| super::orders::check_rally(world, &[*s]).is_ok())
            .collect();
        if ready.contains(&id) {
            let mut body = vec![id];
            let mut grew = true;
            while grew {
                grew = false;
                for s in &ready {
                    let near = hex_of(world, *s).is_some_and(|h| {
                        body.iter()
                            .any(|b| hex_of(world, *b).is_some_and(|bh| bh.is_adjacent(h)))
                    });
                    if !body.contains(s) && near {
                        body.push(*s);
                        grew = true;
                    }
                }
            }
            if body.len() > 1 {
                let names: Vec<String> = body[1..].iter().map(|s| plain_name(world, *s)).collect();
                offer(
                    format!("Rally with {} (CtB 8.1)", names.join(", ")),
                    CtbCommand::Rally {
                        units: body.iter().map(|s| key(world, *s)).collect(),
                    }
                    .command(),
                );
            }
        }
    }
    offer(
        "Test for opportunity (CtB 5.0)".into(),
        CtbCommand::Opportunity { unit: u }.command(),
    );
    out
}

/// The hexes a stand may reach with one forward move, each with its command (CtB 3.0):
/// a stand's by the incremental search (`reach`), a general's by checks.
pub fn move_options(world: &World, entity: Entity) -> Result<Vec<MoveOption>, Refusal> {
    let Some(id) = unit_id(world, entity) else {
        return Ok(Vec::new());
    };
    if phase(world) != CtbPhase::Activation || !state(world).pending.is_empty() {
        return Ok(Vec::new());
    }
    match super::reach::stand_options(world, id) {
        Some(options) => Ok(options),
        None => move_options_by_checks(world, entity),
    }
}

/// The same options found by checking each path with the rules' checks, as a command
/// is (`dispatch::check`): the reference the incremental search is tested against, and
/// the search for generals.
pub fn move_options_by_checks(world: &World, entity: Entity) -> Result<Vec<MoveOption>, Refusal> {
    let Some(id) = unit_id(world, entity) else {
        return Ok(Vec::new());
    };
    if phase(world) != CtbPhase::Activation || !state(world).pending.is_empty() {
        return Ok(Vec::new());
    }
    let Some(start) = hex_of(world, id) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    // Breadth first: each hex is reached by its shortest path first.
    let mut frontier: std::collections::VecDeque<Vec<HexCoord>> = [Vec::new()].into();
    let mut seen = vec![start];
    while let Some(path) = frontier.pop_front() {
        let at = path.last().copied().unwrap_or(start);
        for n in at.neighbors() {
            if seen.contains(&n) {
                continue;
            }
            let mut p = path.clone();
            p.push(n);
            let steps: Vec<Step> = p.iter().map(|h| Step::Hex(*h)).collect();
            let command = CtbCommand::Go {
                unit: key(world, id),
                steps,
                facing: None,
            }
            .command();
            let plan = match super::dispatch::check(world, &command) {
                Ok(super::dispatch::Plan::Go(plan)) => plan,
                _ => continue,
            };
            {
                let mp = plan.mp_left + plan.spent;
                seen.push(n);
                out.push(MoveOption {
                    hex: n,
                    cost: i32::from(mp - plan.mp_left),
                    left: i32::from(plan.mp_left),
                    per_mp: 1,
                    note: String::new(),
                    path: p.clone(),
                    command,
                });
                if p.len() < 6 {
                    frontier.push_back(p);
                }
            }
        }
    }
    Ok(out)
}

pub fn marked_hexes(world: &World) -> Vec<MarkedHex> {
    let mut out = Vec::new();
    if let Some(g) = state(world).activation {
        for s in super::group_stands(world, g) {
            if let Some(h) = hex_of(world, s) {
                out.push(MarkedHex {
                    hex: h,
                    text: "active".into(),
                    side: Some(side_of(world, s)),
                });
            }
        }
    }
    for m in &state(world).melees {
        for s in m.stands {
            if let Some(h) = hex_of(world, s) {
                out.push(MarkedHex {
                    hex: h,
                    text: "ongoing melee".into(),
                    side: None,
                });
            }
        }
    }
    out
}

pub fn status_lines(world: &World) -> Vec<String> {
    let s = state(world);
    let mut lines = vec![format!(
        "Round {} of {}",
        turn(world).turn,
        turn(world).last_turn
    )];
    if let Some(t) = s.last_initiative {
        lines.push(format!("Last initiative: {} – {}", t[0], t[1]));
    }
    for i in 0..2u8 {
        let side = SideId(i);
        lines.push(format!(
            "{}: {} of {} BP lost, breaks at {}",
            side_name(world, side),
            s.bp_lost[i as usize],
            s.bp_total[i as usize],
            super::victory::break_at(s.bp_total[i as usize], s.break_fraction[i as usize])
        ));
    }
    lines
}

pub fn morale(world: &World) -> Vec<SideMorale> {
    let s = state(world);
    (0..2u8)
        .map(|i| SideMorale {
            side: SideId(i),
            name: side_name(world, SideId(i)),
            lost: s.bp_lost[i as usize] as i32,
            level: super::victory::break_at(s.bp_total[i as usize], s.break_fraction[i as usize])
                as i32,
        })
        .collect()
}

/// Clicking an enemy with a stand selected: the melee waiting for it, or the melee of a
/// stand already in contact (with every eligible support), else it fires (CtB 6.0,
/// 10.2, 10.7).
pub fn attack_command(world: &World, attackers: &[HexCoord], target: HexCoord) -> Command {
    let unit = attackers
        .first()
        .map_or(UnitRef::Hex(target), |h| UnitRef::Hex(*h));
    let me = attackers.first().and_then(|h| super::stand_at(world, *h));
    let enemy = super::stand_at(world, target);
    if let (Some(me), Some(enemy)) = (me, enemy) {
        let contact = match state(world).pending.front() {
            Some(super::decision::Pending::Fight { stand, enemies, .. }) => {
                *stand == me && super::melee::battle_candidates(world, me, enemies).contains(&enemy)
            }
            _ => hex_of(world, me)
                .is_some_and(|h| super::facing(world, me).front(h).contains(&target)),
        };
        if contact {
            return CtbCommand::Fight {
                unit: key(world, me),
                enemy: key(world, enemy),
                with: super::supports::eligible_supports(world, me, enemy)
                    .into_iter()
                    .map(|u| key(world, u))
                    .collect(),
            }
            .command();
        }
    }
    CtbCommand::Fire {
        unit,
        moving: false,
        target: UnitRef::Hex(target),
    }
    .command()
}

/// The fire preview (CtB 6.0-7.1): every die added or taken away with its section, and
/// the exact chance of no hit, of disorder only and of each SP lost.
pub fn attack_preview(world: &World, command: &Command) -> Result<AttackPreview, Refusal> {
    if let Some(CtbCommand::Fight { unit, enemy, with }) = CtbCommand::of(command) {
        return melee_preview(world, command, unit, enemy, with);
    }
    let Some(CtbCommand::Fire {
        unit,
        moving,
        target,
    }) = CtbCommand::of(command)
    else {
        return Err(Refusal::new("CtB 6.0", "a preview is of a fire or a melee"));
    };
    let id = resolve(world, unit)?;
    let t = resolve(world, target)?;
    if stand(world, id).is_none() {
        return Err(Refusal::new("CtB 6.0", "not a stand"));
    }
    let plan = super::shooting::check_fire(world, id, t, *moving)?;
    let tables = super::tables(world);
    let tester = super::results::tester(world, t);
    let pool = &plan.pools[0];
    let chances = super::morale::fire_distribution(
        pool.dice(),
        &tester,
        tables.factors.fire.cap,
        &tables.factors.morale,
    );
    let mut out = vec![("no hit".to_string(), chances.no_hit)];
    for (sp, p) in chances.by_sp.iter().enumerate() {
        let label = if sp == 0 {
            "disordered only".to_string()
        } else {
            format!("{sp} SP lost, disordered")
        };
        out.push((label, *p));
    }
    Ok(AttackPreview {
        command: command.clone(),
        odds: format!(
            "{} {}D6 at {}",
            plain_name(world, id),
            pool.dice(),
            plain_name(world, t)
        ),
        modifiers: pool
            .terms
            .iter()
            .map(|x| format!("{:+} {} ({})", x.dice, x.what, x.rule))
            .collect(),
        die_modifier: 0,
        chances: out,
        attack_supports: Vec::new(),
        defence_supports: Vec::new(),
    })
}

/// The melee preview (CtB 10.1-11.3): both pools term by term with their sections, and
/// the exact chance of each outcome, who wins and the SP each Battle Stand loses.
fn melee_preview(
    world: &World,
    command: &Command,
    unit: &UnitRef,
    enemy: &UnitRef,
    with: &[UnitRef],
) -> Result<AttackPreview, Refusal> {
    let id = resolve(world, unit)?;
    let e = resolve(world, enemy)?;
    let with = with
        .iter()
        .map(|w| resolve(world, w))
        .collect::<Result<Vec<_>, _>>()?;
    let plan = super::melee::check_fight(world, id, e, &with)?;
    let m = &super::tables(world).factors.melee;
    let dice = [0, 1].map(|i| super::combat::melee_dice(m, &plan.pools[i]));
    let mut modifiers = Vec::new();
    for i in 0..2 {
        let who = plain_name(world, plan.stands[i]);
        for t in &plan.pools[i].terms {
            modifiers.push(format!("{who}: {:+} {} ({})", t.dice, t.what, t.rule));
        }
    }
    modifiers.push(format!(
        "SP lost below: {} first, then {}; the loser retreats (CtB 11.0, 12.0)",
        plain_name(world, plan.stands[0]),
        plain_name(world, plan.stands[1])
    ));
    if plan.reignites {
        modifiers.push(format!(
            "{} reignites the ongoing melee as a support (CtB 11.4)",
            plain_name(world, id)
        ));
    }
    if plan.flank_strike {
        modifiers.push(format!(
            "{} is struck in the flank or rear: disordered (CtB 10.5)",
            plain_name(world, plan.stands[1])
        ));
    }
    Ok(AttackPreview {
        command: command.clone(),
        odds: format!(
            "{} {}D6 against {} {}D6",
            plain_name(world, plan.stands[0]),
            dice[0],
            plain_name(world, plan.stands[1]),
            dice[1]
        ),
        modifiers,
        die_modifier: 0,
        chances: super::melee::chances(world, &plan),
        attack_supports: plan.supports[0]
            .iter()
            .filter_map(|u| hex_of(world, *u))
            .collect(),
        defence_supports: plan.supports[1]
            .iter()
            .filter_map(|u| hex_of(world, *u))
            .collect(),
    })
}

pub fn state_json(world: &World) -> serde_json::Value {
    let s = state(world);
    let stands: Vec<serde_json::Value> = on_map(world)
        .into_iter()
        .filter(|u| stand(world, *u).is_some())
        .map(|u| {
            serde_json::json!({
                "id": key(world, u).to_string(),
                "hex": hex_of(world, u).map(|h| h.to_string()),
                "facing": super::facing(world, u).name(),
                "sp": ranks(world, u).0,
                "disordered": status(world, u).disordered,
            })
        })
        .collect();
    serde_json::json!({
        "round": turn(world).turn,
        "activation": s.activation.map(|g| s.groups[g].id.clone()),
        "bp_lost": s.bp_lost,
        "bp_total": s.bp_total,
        "melees": s.melees.len(),
        "stands": stands,
    })
}

/// The invariants of Charles the Bold (design §9) the trust harness checks after every
/// command.
pub fn invariant_violations(world: &World) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: Vec<(HexCoord, UnitId)> = Vec::new();
    let mut lost = [0u32; 2];
    for u in all_units(world) {
        let Some(s) = stand(world, u) else {
            continue;
        };
        let r = &ranks(world, u).0;
        let side = side_of(world, u).0 as usize;
        lost[side] += (s.sp0.len() - r.len()) as u32 * s.bp();
        if let Some(h) = hex_of(world, u) {
            if r.is_empty() {
                out.push(format!(
                    "{} is on the map with no rank left",
                    plain_name(world, u)
                ));
            }
            for (i, sp) in r.iter().enumerate() {
                if *sp == 0 || *sp > s.sp0[i] {
                    out.push(format!(
                        "{}'s rank {} has {sp} SP, outside 1..={} (CtB 1.2)",
                        plain_name(world, u),
                        i + 1,
                        s.sp0[i]
                    ));
                }
            }
            if let Some((_, other)) = seen.iter().find(|(x, _)| *x == h) {
                out.push(format!(
                    "{} and {} share {h}: one stand a hex (CtB 1.2)",
                    plain_name(world, u),
                    plain_name(world, *other)
                ));
            }
            seen.push((h, u));
            if status(world, u).disordered && status(world, u).opportunity {
                out.push(format!(
                    "{} is disordered and on opportunity at once (CtB 5.0)",
                    plain_name(world, u)
                ));
            }
        }
    }
    let st = state(world);
    for m in &st.melees {
        let [a, b] = m.stands;
        match (hex_of(world, a), hex_of(world, b)) {
            (Some(ha), Some(hb)) if ha.is_adjacent(hb) && side_of(world, a) != side_of(world, b) => {}
            _ => out.push(format!(
                "the ongoing melee of {} and {} does not join two adjacent enemy stands on the map (CtB 11.3)",
                plain_name(world, a),
                plain_name(world, b)
            )),
        }
    }
    for (i, l) in lost.iter().enumerate() {
        if *l > st.bp_lost[i] {
            out.push(format!(
                "{} has lost ranks worth {l} BP but counts {} lost (CtB 14.0)",
                side_name(world, SideId(i as u8)),
                st.bp_lost[i]
            ));
        }
    }
    for u in all_units(world) {
        if let Some(g) = general(world, u)
            && let Some(s) = g.attached
            && hex_of(world, s) != hex_of(world, u)
        {
            out.push(format!(
                "{} is attached to {} but not in its hex (CtB 2.1)",
                plain_name(world, u),
                plain_name(world, s)
            ));
        }
    }
    out
}

/// Where a group of stands led by the first may move together (CtB 3.8, R-3.8): the
/// first stand's hexes straight forward, each checked as the `group` command is, the
/// shortest way to each hex first.
pub fn group_move_options(world: &World, units: &[UnitId]) -> Result<Vec<MoveOption>, Refusal> {
    let lead = *units
        .first()
        .ok_or_else(|| Refusal::new("CtB 3.8", "an empty group"))?;
    let start = hex_of(world, lead).ok_or_else(|| Refusal::new("CtB 3.8", "not on the map"))?;
    let face = super::facing(world, lead);
    let keys: Vec<UnitRef> = units.iter().map(|u| key(world, *u)).collect();
    let mut out: Vec<MoveOption> = Vec::new();
    let mut first_refusal = None;
    let mut frontier: Vec<Vec<HexCoord>> = vec![Vec::new()];
    for _ in 0..6 {
        let mut next = Vec::new();
        for path in &frontier {
            let at = path.last().copied().unwrap_or(start);
            for n in face.front(at) {
                let mut p = path.clone();
                p.push(n);
                let command = CtbCommand::Group {
                    units: keys.clone(),
                    path: p.clone(),
                }
                .command();
                match super::dispatch::check(world, &command) {
                    Ok(super::dispatch::Plan::Group(plan)) => {
                        let m = &plan.members[0];
                        if !out.iter().any(|o| o.hex == n) {
                            out.push(MoveOption {
                                hex: n,
                                cost: i32::from(m.spent),
                                left: i32::from(m.mp_left),
                                per_mp: 1,
                                note: String::new(),
                                path: p.clone(),
                                command,
                            });
                        }
                        if m.contact.is_empty() {
                            next.push(p);
                        }
                    }
                    Ok(_) => {}
                    Err(r) => {
                        first_refusal.get_or_insert(r);
                    }
                }
            }
        }
        frontier = next;
    }
    match (out.is_empty(), first_refusal) {
        (true, Some(r)) => Err(r),
        _ => Ok(out),
    }
}

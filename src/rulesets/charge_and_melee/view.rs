//! What a player interface shows of a C&M game, read from the same functions that
//! check and resolve commands: a unit's counter and card, its stands (the hexes it
//! covers), where it may move, the decision waited for with every legal answer, each
//! army's stands lost against its break point, the state for `--state`, and what must
//! hold after every command.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::command::{Command, Refusal, UnitRef};
use crate::engine::hex::HexCoord;
use crate::engine::units::{SideId, UnitId, UnitName};
use crate::engine::view::{
    AttackPreview, CardLine, Choice, CounterFace, Decision, MoveOption, SideMorale, UnitBody,
};

use super::commands::{CmCommand, after_word, response_word};
use super::data::Category;
use super::formation::check_shape;
use super::*;

fn unit_of(world: &World, e: Entity) -> Option<UnitId> {
    world.get::<UnitId>(e).copied()
}

fn key_of(world: &World, id: UnitId) -> UnitRef {
    super::super::common::key(world, id)
}

/// A unit's counter: its troop symbol and stands, DPs or shaken; a leader's CPs.
pub fn counter_face(world: &World, e: Entity) -> CounterFace {
    let (symbol, values, facing) = match (world.get::<CmUnit>(e), world.get::<CmLeader>(e)) {
        (Some(u), _) => {
            let t = tables(world);
            let tr = &t.troops.troops[u.troop];
            let symbol = match tr.category {
                Category::Cavalry => "Cav",
                Category::Elephants => "El",
                Category::Artillery => "Art",
                Category::Infantry if tr.light => "LI",
                Category::Infantry => "HI",
            };
            let m = world.get::<CmMorale>(e).copied().unwrap_or_default();
            let n = world.get::<CmStands>(e).map_or(0, |s| s.0.len());
            let state = if m.shaken {
                " S".to_string()
            } else if m.dps > 0 {
                format!(" {}DP", m.dps)
            } else {
                String::new()
            };
            let f = world.get::<CmFormation>(e).copied();
            (
                symbol.to_string(),
                format!("{:?} {n}{state}", u.grade),
                f.filter(|f| f.formed()).map(|f| f.facing.0),
            )
        }
        (None, Some(l)) => ("Ldr".to_string(), format!("{} CP", l.cps), None),
        _ => (String::new(), String::new(), None),
    };
    CounterFace {
        symbol: symbol.clone(),
        values,
        reduced: world.get::<CmMorale>(e).is_some_and(|m| m.shaken),
        facing,
        rank: 0,
        troop: symbol.clone(),
    }
}

/// Every factor and state of a unit.
pub fn unit_card(world: &World, e: Entity) -> Vec<CardLine> {
    let mut out = Vec::new();
    if let Some(l) = world.get::<CmLeader>(e) {
        out.push(("Command Points".into(), l.cps.to_string()));
        out.push((
            "Commander".into(),
            if l.commander { "yes" } else { "no" }.into(),
        ));
        // This turn's allocations (spec B.2 §7).
        if let Some(id) = unit_of(world, e).filter(|id| leaders(world).contains(id)) {
            out.push((
                "CPs left this turn".into(),
                command::cps_left(world, id).to_string(),
            ));
            if command::inspiring(world, id) {
                out.push(("Inspiring".into(), "yes (C&M 7.15)".into()));
            }
        }
        return out;
    }
    let (Some(u), Some(id)) = (world.get::<CmUnit>(e), unit_of(world, e)) else {
        return out;
    };
    let t = tables(world);
    let tr = &t.troops.troops[u.troop];
    let f = formation(world, id);
    let m = super::morale(world, id);
    out.push(("Troops".into(), tr.name.clone()));
    out.push(("Grade".into(), format!("{:?}", u.grade)));
    out.push(("Morale Value".into(), format!("{:+}", u.mv)));
    out.push((
        "Attack / Defence".into(),
        format!("{} / {}", tr.attack, tr.defence),
    ));
    out.push(("Normal move".into(), tr.normal_move.to_string()));
    out.push((
        "Formation".into(),
        if f.formed() {
            format!("{:?} facing {}", f.id, f.facing.name())
        } else {
            "Unformed".into()
        },
    ));
    out.push(("Stands".into(), stands(world, id).len().to_string()));
    out.push((
        "Disorder".into(),
        if m.shaken {
            "shaken".into()
        } else {
            format!("{} DP", m.dps)
        },
    ));
    out.push(("Casualties".into(), m.casualties.to_string()));
    if let Some(p) = posture(world, id) {
        out.push(("State".into(), format!("{p:?}")));
    }
    if let Some(c) = command::control(world, id) {
        out.push(("Control test".into(), format!("{c:?} (spec B.2 §6)")));
    }
    let cps = command::cps_on(world, id);
    if cps > 0 {
        out.push(("CPs spent on it".into(), cps.to_string()));
    }
    if u.comitatus {
        out.push(("Comitatus".into(), "yes".into()));
    }
    out
}

/// A unit of stands as the window draws it: its stands, the hexside they face (none
/// when unformed, 7.22) and its formation's short word.
pub fn unit_body(world: &World, e: Entity) -> Option<UnitBody> {
    let stands = world.get::<CmStands>(e)?;
    let f = world.get::<CmFormation>(e)?;
    if stands.0.is_empty() {
        return None;
    }
    let formation = match f.id {
        FormationId::Line => "Line",
        FormationId::Shieldwall => "SW",
        FormationId::Cuneus => "Cun",
        FormationId::Column => "Col",
        FormationId::Unformed => "Unf",
    };
    Some(UnitBody {
        stands: stands.0.clone(),
        hexside: f.formed().then_some(f.facing.0),
        formation: formation.into(),
    })
}

/// A unit's stands: the hexes it covers.
pub fn unit_area(world: &World, e: Entity) -> Vec<HexCoord> {
    world
        .get::<CmStands>(e)
        .map_or_else(Vec::new, |s| s.0.clone())
}

/// Where a unit's first stand may go this Move Phase, each with the `move` command.
pub fn move_options(world: &World, e: Entity) -> Result<Vec<MoveOption>, Refusal> {
    let id = unit_of(world, e).ok_or_else(|| Refusal::new("spec B.2 §2", "no unit"))?;
    let unit = key_of(world, id);
    let Some(start) = placement(world, id).hex() else {
        return Err(Refusal::new("spec B.2 §2", "the unit is not on the map"));
    };
    // Checks the first step, so that a unit that may not move says why.
    let mut frontier: Vec<Vec<HexCoord>> = Vec::new();
    let mut first_refusal = None;
    for n in start.neighbors() {
        match movement::check_move(world, &unit, &[n]) {
            Ok(_) => frontier.push(vec![n]),
            Err(r) => {
                first_refusal.get_or_insert(r);
            }
        }
    }
    if frontier.is_empty() {
        return Err(first_refusal.unwrap_or_else(|| Refusal::new("spec B.2 §2", "no move")));
    }
    let mut best: Vec<MoveOption> = Vec::new();
    while let Some(path) = frontier.pop() {
        let Ok(plan) = movement::check_move(world, &unit, &path) else {
            continue;
        };
        let end = *path.last().expect("a path has a hex");
        let cost = plan.cost as i32;
        match best.iter_mut().find(|o| o.hex == end) {
            Some(o) if o.cost <= cost => continue,
            Some(o) => {
                o.cost = cost;
                o.path = path.clone();
                o.command = Command::Move {
                    unit: unit.clone(),
                    path: path.clone(),
                };
            }
            None => best.push(MoveOption {
                hex: end,
                cost,
                left: 0,
                per_mp: 1,
                path: path.clone(),
                command: Command::Move {
                    unit: unit.clone(),
                    path: path.clone(),
                },
                note: String::new(),
            }),
        }
        for n in end.neighbors() {
            if n != start && !path.contains(&n) {
                let mut p = path.clone();
                p.push(n);
                frontier.push(p);
            }
        }
    }
    let allowance = i32::from(troop_ref(world, id).normal_move);
    for o in &mut best {
        o.left = allowance - o.cost;
    }
    best.sort_by_key(|o| o.hex);
    Ok(best)
}

/// The charge a unit in `attackers[0]` would declare on the unit in `target`; in the
/// missile declarations, its shot (spec B.2 §11).
pub fn attack_command(world: &World, attackers: &[HexCoord], target: HexCoord) -> Command {
    let unit = attackers
        .first()
        .and_then(|h| stand_at(world, *h))
        .map_or(UnitRef::Hex(target), |u| key_of(world, u));
    let target = stand_at(world, target).map_or(UnitRef::Hex(target), |u| key_of(world, u));
    if phase(world) == CmPhase::MissileDeclaration {
        return CmCommand::Shoot { unit, target }.command();
    }
    CmCommand::Charge { unit, target }.command()
}

/// The charges and shots a selected unit of the side to declare may make now, each a
/// button naming its target: a charge with its move die's chance of contact (7.6, from
/// `preview::closing`, the path `close_in` moves along), a shot with its exchange (spec
/// B.2 §11). The reachable targets of the Charge Phase, beside the hover preview.
pub fn unit_actions(world: &World, e: Entity) -> Vec<Choice> {
    let Some(id) = unit_of(world, e).filter(|id| is_troop(world, *id)) else {
        return Vec::new();
    };
    let side = side_of(world, id);
    if side != turn(world).active {
        return Vec::new();
    }
    let unit = key_of(world, id);
    let enemies = troops(world)
        .into_iter()
        .filter(|t| side_of(world, *t) != side);
    match phase(world) {
        CmPhase::ChargeDeclaration => enemies
            .filter_map(|t| {
                let command = CmCommand::Charge {
                    unit: unit.clone(),
                    target: key_of(world, t),
                }
                .command();
                charges::check_charge(world, &unit, &key_of(world, t)).ok()?;
                let faces = super::preview::contact_faces(world, id, t);
                Some(Choice {
                    label: format!(
                        "Charge {}: contact {:.0}% (C&M 7.6)",
                        plain_name(world, t),
                        faces as f64 * 100.0 / 6.0
                    ),
                    command,
                    hex: stands(world, t).first().copied(),
                })
            })
            .collect(),
        CmPhase::MissileDeclaration => enemies
            .filter_map(|t| {
                let target = key_of(world, t);
                let shot = missile::check_shoot(world, &unit, &target).ok()?;
                Some(Choice {
                    label: format!(
                        "Shoot at {} ({}, spec B.2 §11)",
                        plain_name(world, t),
                        missile::exchange_label(shot.exchange)
                    ),
                    command: CmCommand::Shoot {
                        unit: unit.clone(),
                        target,
                    }
                    .command(),
                    hex: stands(world, t).first().copied(),
                })
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A charge's exact chances of contact and of each result if the target stands
/// (`preview`); a declared shot's chances of each number of hits, and the mêlée's of
/// two units in contact (`fight_preview`); the refusal of an illegal charge or shot.
pub fn attack_preview(world: &World, command: &Command) -> Result<AttackPreview, Refusal> {
    let pair = match CmCommand::of(command) {
        Some(CmCommand::Shoot { unit, target } | CmCommand::Charge { unit, target }) => {
            Some((unit, target))
        }
        _ => None,
    };
    // Two units in contact fight a mêlée (7.18): its chances, whatever was asked.
    if let Some((unit, target)) = pair
        && let (Ok(u), Ok(t)) = (resolve(world, unit), resolve(world, target))
        && is_troop(world, u)
        && is_troop(world, t)
        && in_contact(world, u, t)
    {
        return super::fight_preview::melee_preview(world, command, u, t);
    }
    if let Some(CmCommand::Shoot { unit, target }) = CmCommand::of(command) {
        let shot = missile::check_shoot(world, unit, target)?;
        return Ok(super::fight_preview::shot_preview(world, command, shot));
    }
    super::preview::charge_preview(world, command)
}

/// The decision waited for, with every legal answer.
pub fn decision(world: &World) -> Option<Decision> {
    let d = world.resource::<CmState>().decisions.front()?;
    Some(match d {
        CmDecision::Respond { unit, options } => Decision {
            side: side_of(world, *unit),
            prompt: format!("{} is charged: answer", plain_name(world, *unit)),
            rule: "C&M 7.10".into(),
            choices: options
                .iter()
                .map(|r| Choice {
                    label: response_word(*r).into(),
                    command: CmCommand::Respond {
                        unit: key_of(world, *unit),
                        response: *r,
                    }
                    .command(),
                    hex: None,
                })
                .collect(),
        },
        CmDecision::Seek { leader, foe } => Decision {
            side: side_of(world, *leader),
            prompt: format!(
                "{} may seek out {} in personal combat",
                plain_name(world, *leader),
                plain_name(world, *foe)
            ),
            rule: "C&M 7.33".into(),
            choices: [true, false]
                .into_iter()
                .map(|seek| Choice {
                    label: if seek { "seek" } else { "decline" }.into(),
                    command: CmCommand::Seek {
                        leader: key_of(world, *leader),
                        seek,
                    }
                    .command(),
                    hex: None,
                })
                .collect(),
        },
        CmDecision::CarryOn(c) => Decision {
            side: side_of(world, c.charger),
            prompt: format!(
                "{} may charge on at {} (or halt 1 JT from it)",
                plain_name(world, c.charger),
                plain_name(world, c.target)
            ),
            rule: "C&M 7.8".into(),
            choices: [true, false]
                .into_iter()
                .map(|on| Choice {
                    label: if on { "on" } else { "halt" }.into(),
                    command: CmCommand::Carry {
                        unit: key_of(world, c.charger),
                        on,
                    }
                    .command(),
                    hex: None,
                })
                .collect(),
        },
        CmDecision::After(m) => Decision {
            side: side_of(world, m.unit),
            prompt: format!("{}'s move after the fight", plain_name(world, m.unit)),
            rule: m.rule.into(),
            choices: m
                .moves
                .iter()
                .map(|a| Choice {
                    label: after_word(*a).into(),
                    command: CmCommand::After {
                        unit: key_of(world, m.unit),
                        choice: *a,
                    }
                    .command(),
                    hex: None,
                })
                .collect(),
        },
    })
}

/// How good the position is for `side`, for the computer opponent
/// (`Ruleset::evaluate`): each army's stands lost against its break point (spec B.2
/// §14), and each unit's DPs as part of the stand they lead to (spec B.2 §5: at the
/// chart's shaken DPs the unit is shaken, and each DP after that costs a stand). A
/// charge seldom takes a stand in the few commands a playout plays, but it always
/// deals DPs.
pub fn evaluate(world: &World, side: SideId) -> f64 {
    let shaken_at = f64::from(tables(world).charts.evade.shaken_dps);
    let troops = troops(world);
    let shares: Vec<(SideId, f64)> = (0..2u8)
        .map(|k| {
            let s = SideId(k);
            let worn: f64 = troops
                .iter()
                .filter(|u| side_of(world, **u) == s)
                .map(|u| {
                    let m = super::morale(world, *u);
                    if m.shaken {
                        shaken_at
                    } else {
                        f64::from(m.dps)
                    }
                })
                .sum();
            let lost = f64::from(victory::stands_lost(world, s)) + worn / (shaken_at + 1.0);
            let level = state(world).stands_at_start[k as usize].div_ceil(2).max(1);
            (s, lost / f64::from(level))
        })
        .collect();
    crate::engine::evaluation::share_value(world, &shares, side)
}

/// Each army's stands lost against its break point (spec B.2 §14: half its stands).
pub fn morale(world: &World) -> Vec<SideMorale> {
    (0..2u8)
        .map(|k| {
            let side = SideId(k);
            SideMorale {
                side,
                name: side_name(world, side),
                lost: victory::stands_lost(world, side) as i32,
                level: state(world).stands_at_start[k as usize].div_ceil(2) as i32,
            }
        })
        .collect()
}

/// The ruleset's flags of a unit.
pub fn unit_flags(world: &World, e: Entity) -> Vec<String> {
    let Some(id) = unit_of(world, e) else {
        return Vec::new();
    };
    if world.get::<CmUnit>(e).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let f = formation(world, id);
    out.push(format!("{:?}", f.id).to_lowercase());
    if f.formed() {
        out.push(format!("facing {}", f.facing.name()));
    }
    let m = super::morale(world, id);
    if m.shaken {
        out.push("shaken".into());
    } else if m.dps > 0 {
        out.push(format!("{} DP", m.dps));
    }
    if let Some(p) = posture(world, id) {
        out.push(format!("{p:?}").to_lowercase());
    }
    if status(world, id).moved {
        out.push("moved".into());
    }
    out
}

/// The ruleset's state for `--state`: the initiative, the charges declared, each unit's
/// stands.
pub fn state_json(world: &World) -> serde_json::Value {
    let s = state(world);
    let key = |id: UnitId| {
        world
            .get_cached::<UnitName>(entity(world, id))
            .map(|n| n.key.clone())
            .unwrap_or_default()
    };
    serde_json::json!({
        "initiative": side_name(world, s.initiative),
        "declared": s.declared.iter().map(|d| serde_json::json!({
            "charger": key(d.charger), "target": key(d.target)
        })).collect::<Vec<_>>(),
        "stands": roster(world).iter().map(|m| serde_json::json!({
            "unit": key(m.id),
            "hexes": m.stands.iter().map(|h| h.label()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "dead": s.dead.iter().map(|l| key(*l)).collect::<Vec<_>>(),
    })
}

/// What must hold after every command: a unit's stands one a hex, in its formation,
/// its placement on its first stand; no hex held by two units; DPs below the shaken
/// mark (none once shaken); routers and pursuers unformed; a leader on a stand of his
/// unit.
pub fn invariant_violations(world: &World) -> Vec<String> {
    let mut out = Vec::new();
    let t = tables(world);
    let shaken_at = t.charts.evade.shaken_dps;
    let mut seen: Vec<(HexCoord, UnitId)> = Vec::new();
    for m in roster(world) {
        let who = plain_name(world, m.id);
        if m.stands.is_empty() {
            out.push(format!("{who} is on the map with no stand (spec B.2 §2)"));
            continue;
        }
        if placement(world, m.id).hex() != Some(m.stands[0]) {
            out.push(format!(
                "{who}'s placement is not its first stand (spec B.2 §2)"
            ));
        }
        let shape = t.formation(m.formation.id).shape;
        if let Err(f) = check_shape(&m.stands, Some(m.formation.facing), shape) {
            out.push(format!("{who}: {} (spec B.2 §2-3)", f.describe()));
        }
        for h in &m.stands {
            if let Some((_, o)) = seen.iter().find(|(x, _)| x == h) {
                out.push(format!(
                    "{h} holds stands of {who} and {} (spec B.2 §2)",
                    plain_name(world, *o)
                ));
            }
            seen.push((*h, m.id));
        }
        if m.morale.shaken && m.morale.dps > 0 || m.morale.dps >= shaken_at {
            out.push(format!(
                "{who} has {} DPs shaken={} (spec B.2 §5)",
                m.morale.dps, m.morale.shaken
            ));
        }
        if matches!(
            posture(world, m.id),
            Some(Posture::Routing | Posture::Pursuing)
        ) && m.formation.formed()
        {
            out.push(format!("{who} routs or pursues in formation (C&M 7.16)"));
        }
    }
    // The stand index says what a scan of the units says (`StandIndex`).
    let board = world.res::<crate::engine::board::Board>();
    for h in board.hexes() {
        let scanned = seen.iter().find(|(x, _)| *x == h).map(|(_, o)| *o);
        if stand_at(world, h) != scanned {
            out.push(format!(
                "the stand index puts {:?} on {h}, the units {:?} (spec B.2 §2)",
                stand_at(world, h),
                scanned
            ));
        }
    }
    for l in leaders(world) {
        let with = component::<CmLeader>(world, l).with;
        let on = placement(world, l).hex();
        if !is_troop(world, with) || !stands(world, with).iter().any(|h| Some(*h) == on) {
            out.push(format!(
                "{} is not on a stand of his unit (C&M 7.15)",
                plain_name(world, l)
            ));
        }
    }
    out
}

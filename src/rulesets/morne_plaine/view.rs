//! Morne Plaine as the window and the command line show it: counter faces, unit cards,
//! move options, attack and bombardment previews, the objectives on the map, the score,
//! the state for `--state`, and the invariants the trust harness checks; all read from
//! the functions that check and resolve commands.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::{Command, Refusal};
use crate::engine::hex::HexCoord;
use crate::engine::scenario::LoadedScenario;
use crate::engine::units::{Placement, SideId, UnitId, Units};
use crate::engine::view::{AttackPreview, CardLine, CounterFace, MoveOption};

use super::data::Kind;
use super::scenario::MpScenario;
use super::*;

fn unit_id(world: &World, e: Entity) -> Option<UnitId> {
    world.get::<UnitId>(e).copied()
}

fn symbol(kind: Kind) -> &'static str {
    match kind {
        Kind::Leader => "Ldr",
        Kind::Infantry => "Inf",
        Kind::Cavalry => "Cav",
        Kind::Artillery => "Art",
    }
}

/// "orange, retreats north; holds 3 VP of objectives at the start".
pub fn side_summary(scenario: &LoadedScenario, side: usize) -> String {
    let own = scenario.rules::<MpScenario>();
    let Some(colour) = own.sides[side].colour else {
        return String::new();
    };
    let id = &scenario.file.sides[side].id;
    let vp: u32 = own
        .special_rules
        .iter()
        .filter_map(|r| match r {
            scenario::MpSpecialRule::Objective {
                hex, vp, held_by, ..
            } => {
                let occupant = scenario.file.units.iter().find(|u| u.hex == Some(*hex));
                let holder = occupant.map(|u| &u.side).or(held_by.as_ref());
                (holder == Some(id)).then_some(*vp)
            }
            _ => None,
        })
        .sum();
    let edge = match colour {
        scenario::Colour::Orange => "north",
        scenario::Colour::Blue => "south",
    };
    format!(
        "{}, retreats {edge} (MP combat: retreat); holds {vp} VP of objectives at the start (MP victory)",
        colour.name()
    )
}

/// The values of a counter: "CS-MA (MV)", its kind with "b4 r3" (bombardment value and
/// range) for artillery and "c3" (command radius) for leaders.
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
    let v = values(world, id);
    let symbol = match u.kind {
        Kind::Artillery => format!("Art b{} r{}", u.bv, u.range),
        Kind::Leader => format!("Ldr c{}", u.radius),
        k => self::symbol(k).to_string(),
    };
    CounterFace {
        symbol,
        values: format!("{}-{} ({})", v.cs, u.ma, v.mv),
        reduced: v.cs < u.cs0 || v.mv == 0,
        facing: None,
        rank: 0,
        troop: format!("{:?}", u.kind),
    }
}

pub fn unit_card(world: &World, e: Entity) -> Vec<CardLine> {
    let Some(id) = unit_id(world, e) else {
        return Vec::new();
    };
    let u = unit(world, id);
    let v = values(world, id);
    let f = flags(world, id);
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    let mut out: Vec<CardLine> = vec![
        ("Type".into(), format!("{:?} ({})", u.kind, symbol(u.kind))),
        ("Side".into(), side_name(world, side_of(world, id))),
        (
            "Combat strength (MP combat)".into(),
            format!("{} of {}", v.cs, u.cs0),
        ),
        (
            "Morale (MP combat: morale check)".into(),
            if v.mv == 0 {
                format!("0 of {}: demoralised", u.mv0)
            } else {
                format!("{} of {}", v.mv, u.mv0)
            },
        ),
        (
            "Movement (MP movement)".into(),
            format!("{} of {} MP", movement::half_mp(f.ma_left as u32), u.ma),
        ),
    ];
    if u.kind == Kind::Artillery {
        out.push((
            "Bombardment (MP bombardment)".into(),
            format!("value {}, range {}", u.bv, u.range),
        ));
        out.push(("Fired this turn".into(), yes_no(f.bombarded)));
    }
    if u.kind == Kind::Leader {
        out.push((
            "Command radius (MP movement: command)".into(),
            format!("{} hexes", u.radius),
        ));
    }
    if let Some(l) = u.leader {
        out.push(("Leader".into(), name(world, l)));
    }
    if hex_of(world, id).is_some() {
        let command = movement::in_command(world, id);
        out.push((
            "In command now (MP movement: command)".into(),
            yes_no(command),
        ));
    }
    out.push(("Moved".into(), yes_no(f.moved)));
    out.push(("Attacked (MP combat)".into(), yes_no(f.attacked)));
    out.push(("Was attacked".into(), yes_no(f.was_attacked)));
    out.push((
        "Victorious (MP combat: supports)".into(),
        yes_no(f.victorious),
    ));
    if tables(world).charge.kinds.contains(&u.kind) {
        out.push((
            "Hexes moved (MP movement: charge)".into(),
            f.hexes_moved.to_string(),
        ));
    }
    if let Some((t, entry)) = &f.arrival
        && placement(world, id) == Placement::Waiting
    {
        let hexes: Vec<String> = entry.iter().map(|h| h.label()).collect();
        out.push((
            "Arrives".into(),
            format!("turn {t}, at {}", hexes.join(" ")),
        ));
    }
    out
}

/// What a selected unit reaches besides its moves: a leader's command radius, and for a
/// brigade its leader's (MP movement: command); a battery's range, the hexes it has a
/// line of fire to (MP bombardment).
pub fn unit_area(world: &World, e: Entity) -> Vec<HexCoord> {
    let Some(id) = unit_id(world, e) else {
        return Vec::new();
    };
    let Some(at) = hex_of(world, id) else {
        return Vec::new();
    };
    let u = unit(world, id);
    let board = world.res::<Board>();
    let (centre, reach) = match u.kind {
        Kind::Leader => (at, u.radius as u32),
        Kind::Artillery => (at, u.range as u32),
        // A brigade shows its leader's command radius: where it stays in command
        // (MP movement: command).
        _ => match u.leader.and_then(|l| hex_of(world, l).map(|h| (l, h))) {
            Some((l, h)) => (h, unit(world, l).radius as u32),
            None => return Vec::new(),
        },
    };
    let t = tables(world);
    board
        .hexes()
        .filter(|h| *h != centre && h.distance(centre) <= reach)
        .filter(|h| u.kind != Kind::Artillery || bombardment::line_of_fire(board, &t, centre, *h))
        .collect()
}

pub fn move_options(world: &World, e: Entity) -> Result<Vec<MoveOption>, Refusal> {
    let id = unit_id(world, e).ok_or_else(|| Refusal::new("MP movement", "not a unit"))?;
    if phase(world) != MpPhase::Movement {
        return Err(Refusal::new(
            "MP generalities",
            "units move only in their side's movement phase",
        ));
    }
    movement::check_can_act(world, id)?;
    let f = flags(world, id);
    if f.moved {
        return Err(Refusal::new(
            "MP movement",
            format!("{} has already moved this phase", name(world, id)),
        ));
    }
    if f.bombarded {
        return Err(Refusal::new(
            "MP bombardment",
            format!("{} bombarded this turn and cannot move", name(world, id)),
        ));
    }
    let ma = f.ma_left as i32;
    let map = movement::reach_map(world, id, &movement::Occupancy::of(world));
    let unit_ref = key(world, id);
    let board = world.res::<Board>();
    let t = tables(world);
    Ok(map
        .ends
        .iter()
        .map(|&(hex, cost)| {
            let path = map.path_to(hex);
            let marsh = path[..path.len() - 1]
                .iter()
                .any(|h| movement::terrain_at(board, &t, *h).stuck.is_some());
            MoveOption {
                hex,
                cost: cost as i32,
                left: ma - cost as i32,
                per_mp: 2,
                command: Command::Move {
                    unit: unit_ref.clone(),
                    path: path.clone(),
                },
                path,
                note: if marsh {
                    "through a marsh: it may stick (MP movement: marsh)".into()
                } else {
                    String::new()
                },
            }
        })
        .collect())
}

/// In the bombardment phase every named hex fires; in the combat phase the first
/// attacks and the game finds the supports.
pub fn attack_command(world: &World, attackers: &[HexCoord], target: HexCoord) -> Command {
    if phase(world) == MpPhase::Bombardment {
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
    let Command::Attack {
        melee,
        fire,
        target,
    } = command
    else {
        return Err(Refusal::new("MP combat", "not an attack"));
    };
    if phase(world) == MpPhase::Bombardment {
        let plan = bombardment::check_bombard(world, melee, fire, *target)?;
        let t = tables(world);
        let mut chances: Vec<(String, f64)> = Vec::new();
        for die in 1..=6u8 {
            let r = t.bombardment.result(plan.strength, die).to_string();
            match chances.iter_mut().find(|(l, _)| *l == r) {
                Some((_, p)) => *p += 1.0 / 6.0,
                None => chances.push((r, 1.0 / 6.0)),
            }
        }
        return Ok(AttackPreview {
            command: command.clone(),
            odds: format!("fire strength {}", plan.strength),
            modifiers: vec![
                "strength: BV less 1 a hex beyond the first, less the target's cover (MP bombardment, designer's)".into(),
            ],
            die_modifier: 0,
            chances,
            // Combined fire names every gun: bombardment has no supports.
            attack_supports: Vec::new(),
            defence_supports: Vec::new(),
        });
    }
    let plan = combat::evaluate(world, melee, fire, *target)?;
    let mut modifiers: Vec<String> = plan
        .modifiers
        .iter()
        .map(|(why, m)| format!("die {m:+}: {why}"))
        .collect();
    for s in plan.attack.iter().skip(1) {
        modifiers.push(format!(
            "supports the attack: {} {} (MP combat: supports)",
            plain_name(world, s.unit),
            s.cs
        ));
    }
    for s in plan.defence.iter().skip(1) {
        modifiers.push(format!(
            "supports the defence: {} {} (MP combat: supports)",
            plain_name(world, s.unit),
            s.cs
        ));
    }
    if plan.charge {
        modifiers.push(format!(
            "a charge: the defender checks morale first, failing above {} (MP movement: charge, designer's)",
            combat::check_threshold(plan.charge_threshold)
        ));
    }
    Ok(AttackPreview {
        command: command.clone(),
        odds: combat::odds_text(world, &plan),
        modifiers,
        die_modifier: plan.die_modifier(),
        chances: combat::result_chances(world, &plan),
        attack_supports: support_hexes(world, &plan.attack),
        defence_supports: support_hexes(world, &plan.defence),
    })
}

/// The hexes of a side's supports (its strengths after the first, the unit named).
fn support_hexes(world: &World, side: &[combat::Strength]) -> Vec<HexCoord> {
    side.iter()
        .skip(1)
        .filter_map(|s| hex_of(world, s.unit))
        .collect()
}

/// The objective hexes: name, VP and holder, drawn in the holder's colour (MP victory).
pub fn marked_hexes(world: &World) -> Vec<MarkedHex> {
    world
        .resource::<MpState>()
        .objectives
        .iter()
        .map(|o| {
            let holder = o
                .holder
                .map(|s| side_name(world, s))
                .unwrap_or_else(|| "no one".into());
            MarkedHex {
                hex: o.hex,
                text: format!("{} ({} VP), held by {holder}", o.name, o.vp),
                side: o.holder,
            }
        })
        .collect()
}

/// The top bar's standing: the VP each side holds and the level the lead gives, were
/// the game to end now (MP victory); once it has ended, how.
pub fn standing(world: &World) -> crate::engine::view::Standing {
    let now = victory::standing(world);
    let detail = match &turn(world).outcome {
        Some(o) => o.reason.clone(),
        None => format!("{} so far (MP victory)", now.reason),
    };
    crate::engine::view::Standing {
        label: "VP".into(),
        scores: [SideId(0), SideId(1)]
            .into_iter()
            .map(|s| (s, victory::vp(world, s)))
            .collect(),
        ahead: now
            .winner
            .zip(now.level)
            .map(|(side, level)| (side, level.name().to_string())),
        detail,
    }
}

/// "Turn 3/8 (16:00)" and "VP Anglo-allied army 3 – French 5: ... so far".
pub fn status_lines(world: &World) -> Vec<String> {
    let t = turn(world);
    vec![
        format!(
            "Turn {}/{}{}",
            t.turn,
            t.last_turn,
            clock_text(world, t.turn)
        ),
        format!("{} so far (MP victory)", victory::standing(world).reason),
    ]
}

pub fn state_json(world: &World) -> serde_json::Value {
    let st = world.resource::<MpState>();
    let sides = &world
        .resource::<crate::engine::game::ScenarioInfo>()
        .0
        .file
        .sides;
    let objectives: Vec<serde_json::Value> = st
        .objectives
        .iter()
        .map(|o| {
            serde_json::json!({
                "hex": o.hex.label(),
                "name": o.name,
                "vp": o.vp,
                "holder": o.holder.map(|s| sides[s.0 as usize].id.clone()),
            })
        })
        .collect();
    let units: Vec<serde_json::Value> = world
        .res::<Units>()
        .ids()
        .filter(|id| placement(world, *id) != Placement::Eliminated)
        .map(|id| {
            let v = values(world, id);
            serde_json::json!({
                "id": key(world, id).to_string(),
                "cs": v.cs,
                "mv": v.mv,
                "ma_left": flags(world, id).ma_left as f32 / 2.0,
            })
        })
        .collect();
    serde_json::json!({
        "colours": st.colours.iter().map(|c| c.name()).collect::<Vec<_>>(),
        "vp": [victory::vp(world, SideId(0)), victory::vp(world, SideId(1))],
        "objectives": objectives,
        "units": units,
    })
}

pub fn unit_flags(world: &World, e: Entity) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(f) = world.get::<MpFlags>(e) {
        for (on, label) in [
            (f.moved, "moved"),
            (f.bombarded, "bombarded"),
            (f.attacked, "attacked"),
            (f.was_attacked, "was_attacked"),
            (f.victorious, "victorious"),
        ] {
            if on {
                out.push(label.to_string());
            }
        }
    }
    if world.get::<MpValues>(e).is_some_and(|v| v.mv == 0) {
        out.push("demoralised".into());
    }
    out
}

/// MP's invariants: one unit a hex (MP generalities), CS from 1 to its initial value,
/// MV never above its initial value, a zone of control exactly when not demoralised,
/// no demoralised unit among the last combat's supports (MP combat: demoralisation).
pub fn invariant_violations(world: &World) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(last) = world.get_resource::<combat::LastCombat>() {
        for (id, mv) in &last.supports {
            if *mv == 0 {
                out.push(format!(
                    "{} supported a combat at morale 0 (MP combat: demoralisation)",
                    name(world, *id)
                ));
            }
        }
    }
    let board = world.res::<Board>();
    for hex in board.hexes() {
        let n = units_at(world, hex).len();
        if n > 1 {
            out.push(format!("{n} units in {hex} (MP generalities)"));
        }
    }
    for id in all_units(world) {
        if placement(world, id) == Placement::Eliminated {
            continue;
        }
        let (u, v) = (unit(world, id), values(world, id));
        if v.cs == 0 || v.cs > u.cs0 {
            out.push(format!(
                "{} has CS {} of {} (MP combat)",
                name(world, id),
                v.cs,
                u.cs0
            ));
        }
        if v.mv > u.mv0 {
            out.push(format!(
                "{} has MV {} above {} (MP combat)",
                name(world, id),
                v.mv,
                u.mv0
            ));
        }
        let exerts = world
            .get::<crate::engine::zoc::ExertsZoc>(entity(world, id))
            .is_some();
        if exerts == (v.mv == 0) {
            out.push(format!(
                "{} has MV {} and {} zone of control (MP combat: demoralisation)",
                name(world, id),
                v.mv,
                if exerts { "a" } else { "no" }
            ));
        }
    }
    out
}

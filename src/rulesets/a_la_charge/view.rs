//! A la Charge as the window shows it: counter faces, unit cards, move options, attack
//! previews and the decisions waiting for a player, all read from the same functions
//! that check and resolve commands (no second copy of a rule here).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use super::AlcPhase;
use crate::engine::board::Board;
use crate::engine::command::{Command, Refusal};
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, SideId, UnitId};
use crate::engine::view::{
    AttackPreview, CardLine, Choice, CounterFace, Decision, MoveOption, SideMorale, word_list,
};

use super::data::Kind;
use super::results::{Pending, RetreatStep, advance_candidates, front, live, loss_count};
use super::*;
use crate::rulesets::common::key;

fn unit_id(world: &World, e: Entity) -> Option<UnitId> {
    world.get::<UnitId>(e).copied()
}

fn symbol(kind: Kind) -> &'static str {
    match kind {
        Kind::Infantry => "Inf",
        Kind::Archers => "Arc",
        Kind::Knights => "Kn",
        Kind::MountedArchers => "MA",
        Kind::Leader => "Ldr",
    }
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
    let v = unit(world, id);
    let reduced = steps(world, id).is_reduced();
    let values = if v.kind == Kind::Leader {
        format!("+{}", v.ratings[0])
    } else if v.range > 0 {
        format!("{}-{} r{}", rating(world, id), v.mp, v.range)
    } else {
        format!("{}-{}", rating(world, id), v.mp)
    };
    CounterFace {
        symbol: symbol(v.kind).to_string(),
        values,
        reduced,
        facing: None,
        rank: 0,
        troop: symbol(v.kind).to_string(),
    }
}

pub fn unit_card(world: &World, e: Entity) -> Vec<CardLine> {
    let Some(id) = unit_id(world, e) else {
        return Vec::new();
    };
    let v = unit(world, id);
    let f = flags(world, id);
    let s = steps(world, id);
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    let mut out: Vec<CardLine> = vec![
        ("Type".into(), format!("{:?} ({})", v.kind, symbol(v.kind))),
        ("Side".into(), side_name(world, side_of(world, id))),
    ];
    if v.kind == Kind::Leader {
        out.push(("Leader rating (AlC 8)".into(), format!("+{}", v.ratings[0])));
        let commander = world.resource::<AlcState>().commanders.contains(&Some(id));
        out.push(("Army commander (AlC 13)".into(), yes_no(commander)));
    } else {
        out.push((
            "Strength & morale (AlC 3)".into(),
            if s.max > 1 {
                format!(
                    "{} (full {}, reduced {})",
                    rating(world, id),
                    v.ratings[0],
                    v.ratings[1]
                )
            } else {
                rating(world, id).to_string()
            },
        ));
        out.push((
            "Steps (AlC 12.6)".into(),
            format!("{} of {}", s.left, s.max),
        ));
        if v.range > 0 {
            out.push((
                "Archery range (AlC 12.1)".into(),
                format!("{} hexes", v.range),
            ));
        }
    }
    out.push((
        "Movement points (AlC 9)".into(),
        format!("{} of {}", f.mp_left.max(0), v.mp),
    ));
    out.push(("Moved".into(), yes_no(f.moved)));
    out.push(("Attacked (AlC 12.1)".into(), yes_no(f.attacked)));
    out.push(("Was attacked (AlC 12.1)".into(), yes_no(f.was_attacked)));
    if v.kind == Kind::Knights {
        let charge = f.hexes_moved >= 1 && f.entered_open;
        out.push(("May charge (AlC 10)".into(), yes_no(charge)));
    }
    if !f.charged_by.is_empty() {
        let by: Vec<String> = f.charged_by.iter().map(|u| name(world, *u)).collect();
        out.push(("Charged by (AlC 10)".into(), by.join(", ")));
    }
    out.push(("Reduced".into(), yes_no(s.is_reduced())));
    if is_hidden(world, id) {
        out.push(("Hidden (Kalavryai rule 1)".into(), "yes".into()));
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
    if f.active_from_turn > turn(world).turn {
        out.push(("Acts from turn".into(), f.active_from_turn.to_string()));
    }
    out
}

/// Where a unit may move now, or why it may not move at all.
pub fn move_options(world: &World, e: Entity) -> Result<Vec<MoveOption>, Refusal> {
    let id = unit_id(world, e).ok_or_else(|| Refusal::new("AlC 9", "not a unit"))?;
    if super::phase(world) != AlcPhase::Movement {
        return Err(Refusal::new(
            "AlC 6",
            "units move only in their side's movement phase",
        ));
    }
    movement::check_can_act(world, id)?;
    let f = flags(world, id);
    if f.moved {
        return Err(Refusal::new(
            "AlC 9",
            format!("{} has already moved this phase", name(world, id)),
        ));
    }
    let mp = f.mp_left;
    let unit_ref = key(world, id);
    Ok(movement::reachable(world, id)
        .into_iter()
        .map(|r| MoveOption {
            hex: r.hex,
            cost: r.cost,
            left: mp - r.cost,
            per_mp: 1,
            command: Command::Move {
                unit: unit_ref.clone(),
                path: r.path.clone(),
            },
            path: r.path,
            note: String::new(),
        })
        .collect())
}

/// The attack command for these attackers: archery units not adjacent to the target
/// fire, everyone else fights in melee (AlC 12.1, 12.2).
pub fn attack_command(world: &World, attackers: &[HexCoord], target: HexCoord) -> Command {
    let mut melee = Vec::new();
    let mut fire = Vec::new();
    for &h in attackers {
        let archer = combat_unit_at(world, h).is_some_and(|u| unit(world, u).kind.is_archery());
        if archer && h.distance(target) > 1 {
            fire.push(h);
        } else {
            melee.push(h);
        }
    }
    Command::Attack {
        melee,
        fire,
        target,
    }
}

pub fn attack_preview(world: &World, command: &Command) -> Result<AttackPreview, Refusal> {
    let Command::Attack {
        melee,
        fire,
        target,
    } = command
    else {
        return Err(Refusal::new("AlC 12", "not an attack"));
    };
    let plan = combat::evaluate(world, melee, fire, *target)?;
    let mut modifiers = Vec::new();
    for m in &plan.attack_modifiers {
        modifiers.push(format!(
            "attack {:+}: {} ({})",
            m.value,
            m.text(world),
            m.rule
        ));
    }
    for m in &plan.defense_modifiers {
        modifiers.push(format!(
            "defence {:+}: {} ({})",
            m.value,
            m.text(world),
            m.rule
        ));
    }
    if plan.column_shift != 0 {
        modifiers.push(format!(
            "{} column(s) left for the defender's terrain (AlC 12.3, TEC)",
            plan.raw_column - plan.column
        ));
    }
    if plan.die_modifier != 0 {
        modifiers.push(format!(
            "die {:+} for the defender's terrain (AlC 12.3, TEC)",
            plan.die_modifier
        ));
    }
    let chances = combat::result_chances(world, &plan)
        .into_iter()
        .map(|(r, p)| (r.to_string(), p))
        .collect();
    Ok(AttackPreview {
        command: command.clone(),
        odds: combat::odds_text(world, &plan),
        modifiers,
        die_modifier: plan.die_modifier,
        chances,
        // A la Charge has no supports: only the units named attack (AlC 12).
        attack_supports: Vec::new(),
        defence_supports: Vec::new(),
    })
}

/// Every way to allocate `take` step losses among `pool`, each unit at most its steps.
fn loss_allocations(world: &World, pool: &[UnitId], take: u8) -> Vec<Vec<UnitId>> {
    fn walk(
        units: &[(UnitId, u8)],
        from: usize,
        left: u8,
        chosen: &mut Vec<UnitId>,
        out: &mut Vec<Vec<UnitId>>,
    ) {
        if left == 0 {
            out.push(chosen.clone());
            return;
        }
        for i in from..units.len() {
            let (u, cap) = units[i];
            let already = chosen.iter().filter(|c| **c == u).count() as u8;
            if already < cap {
                chosen.push(u);
                walk(units, i, left - 1, chosen, out);
                chosen.pop();
            }
        }
    }
    let units: Vec<(UnitId, u8)> = live(world, pool)
        .into_iter()
        .map(|u| (u, steps(world, u).left))
        .collect();
    let mut out = Vec::new();
    walk(&units, 0, take, &mut Vec::new(), &mut out);
    out
}

/// The decision the front of the queue waits for, in words (the answers to type are
/// the decision's choices); `None` when none.
fn waiting_for(world: &World) -> Option<String> {
    let p = front(world)?;
    Some(match p {
        Pending::Losses {
            side, pool, steps, ..
        } => {
            let take = loss_count(world, &pool, steps);
            let names: Vec<String> = live(world, &pool).iter().map(|u| name(world, *u)).collect();
            format!(
                "{} allocates {take} step {} among {}",
                side_name(world, side),
                if take == 1 { "loss" } else { "losses" },
                word_list(&names, "and")
            )
        }
        Pending::MoraleCheck { unit, .. } => format!("morale check of {}", name(world, unit)),
        Pending::ChooseMoraleCheck { pool } => {
            let names: Vec<String> = live(world, &pool).iter().map(|u| name(world, *u)).collect();
            format!(
                "the attacker names the unit that checks morale: {}",
                word_list(&names, "or")
            )
        }
        Pending::Retreat {
            unit,
            origin,
            done,
            total,
            chain,
            ..
        } => {
            let at = hex_of(world, unit).unwrap_or(origin);
            let opts: Vec<String> = results::retreat_options(world, unit, at, origin, done, &chain)
                .iter()
                .map(|o| match *o {
                    RetreatStep::Move(h) => h.label(),
                    RetreatStep::Displace(h, f) => {
                        format!("{h} (displacing {})", name(world, f))
                    }
                    RetreatStep::Eliminate { .. } => "none".into(),
                })
                .collect();
            let left = total - done;
            format!(
                "{} retreats {left} more {}: into {}",
                name(world, unit),
                if left == 1 { "hex" } else { "hexes" },
                word_list(&opts, "or")
            )
        }
        Pending::Advance { into, .. } => {
            let (cands, forced) = advance_candidates(world, &p);
            let names: Vec<String> = cands.iter().map(|u| name(world, *u)).collect();
            format!(
                "advance after combat into {into} with {}{}",
                word_list(&names, "or"),
                if forced {
                    "; a charging mounted unit must advance"
                } else {
                    ", or not at all"
                }
            )
        }
    })
}

/// The decision the rules wait for, with every legal answer.
pub fn decision(world: &World) -> Option<Decision> {
    if let Some(p) = front(world) {
        let prompt = waiting_for(world).unwrap_or_default();
        let active = turn(world).active;
        return Some(match &p {
            Pending::Losses {
                side, pool, steps, ..
            } => {
                let take = loss_count(world, pool, *steps);
                let choices = loss_allocations(world, pool, take)
                    .into_iter()
                    .map(|units| {
                        let names: Vec<String> = units.iter().map(|u| name(world, *u)).collect();
                        Choice {
                            label: format!("{} loses", names.join(" + ")),
                            hex: None,
                            command: Command::Lose {
                                units: units.iter().map(|u| key(world, *u)).collect(),
                            },
                        }
                    })
                    .collect();
                Decision {
                    side: *side,
                    prompt,
                    rule: "AlC 12.6".into(),
                    choices,
                }
            }
            Pending::Retreat {
                unit: u,
                origin,
                done,
                chain,
                ..
            } => {
                let at = hex_of(world, *u).unwrap_or(*origin);
                let choices = results::retreat_options(world, *u, at, *origin, *done, chain)
                    .into_iter()
                    .filter_map(|o| match o {
                        RetreatStep::Move(h) => Some((h, format!("retreat into {h}"))),
                        RetreatStep::Displace(h, f) => Some((
                            h,
                            format!("retreat into {h}, displacing {}", name(world, f)),
                        )),
                        RetreatStep::Eliminate { .. } => None,
                    })
                    .map(|(h, label)| Choice {
                        label,
                        hex: Some(h),
                        command: Command::Retreat { path: vec![h] },
                    })
                    .collect();
                Decision {
                    side: side_of(world, *u),
                    prompt,
                    rule: "AlC 12.5".into(),
                    choices,
                }
            }
            Pending::Advance { into, .. } => {
                let (cands, forced) = advance_candidates(world, &p);
                let mut choices: Vec<Choice> = cands
                    .iter()
                    .filter_map(|u| {
                        hex_of(world, *u).map(|h| Choice {
                            label: format!("{} advances into {into}", name(world, *u)),
                            hex: Some(h),
                            command: Command::Advance { from: Some(h) },
                        })
                    })
                    .collect();
                if !forced {
                    choices.push(Choice {
                        label: "no advance".into(),
                        hex: None,
                        command: Command::Advance { from: None },
                    });
                }
                Decision {
                    side: active,
                    prompt,
                    rule: "AlC 12.8".into(),
                    choices,
                }
            }
            Pending::ChooseMoraleCheck { pool } => Decision {
                side: active,
                prompt,
                rule: "AlC 12.7".into(),
                choices: live(world, pool)
                    .into_iter()
                    .map(|u| Choice {
                        label: format!("{} checks morale", name(world, u)),
                        hex: hex_of(world, u),
                        command: Command::Check {
                            unit: key(world, u),
                        },
                    })
                    .collect(),
            },
            // Applied at once by `results::process`; never waits for a player.
            Pending::MoraleCheck { .. } => return None,
        });
    }
    if super::phase(world) == AlcPhase::SecretSetup {
        return setup_decision(world);
    }
    None
}

/// The set-up phase: place the next unit set up in secret, in any free hex of its zone
/// (AlC 4, Kalavryai special rule 1); once all are placed, end the set-up.
fn setup_decision(world: &World) -> Option<Decision> {
    let zones = world.resource::<AlcState>().hidden_zones.clone();
    let board = world.res::<Board>();
    let active = turn(world).active;
    let next = zones
        .iter()
        .find(|(u, _)| hex_of(world, *u).is_none() && side_of(world, *u) == active);
    let Some((u, zone)) = next else {
        return Some(Decision {
            side: active,
            prompt: "every unit set up in secret is placed: end the set-up".into(),
            rule: "AlC 4".into(),
            choices: vec![Choice {
                label: "end the set-up".into(),
                hex: None,
                command: Command::EndPhase,
            }],
        });
    };
    let choices = board
        .hexes()
        .filter(|h| zone.contains(*h))
        .filter(|h| setup::check_place(world, &key(world, *u), *h).is_ok())
        .map(|h| Choice {
            label: format!("place {} in {h}", plain_name(world, *u)),
            hex: Some(h),
            command: Command::Place {
                unit: key(world, *u),
                hex: h,
                facing: None,
            },
        })
        .collect();
    Some(Decision {
        side: active,
        prompt: format!(
            "place {} in secret in the ambush zone (columns {:02}-{:02}, rows {:02}-{:02})",
            plain_name(world, *u),
            zone.min_col,
            zone.max_col,
            zone.min_row,
            zone.max_row
        ),
        rule: "AlC Kalavryai special rule 1".into(),
        choices,
    })
}

pub fn morale(world: &World) -> Vec<SideMorale> {
    let levels = world.resource::<AlcState>().morale_levels;
    (0..2u8)
        .map(|s| SideMorale {
            side: SideId(s),
            name: side_name(world, SideId(s)),
            lost: victory::lost_morale(world, SideId(s)),
            level: levels[s as usize],
        })
        .collect()
}

/// Checks a command without executing it (for the window's hover explanations).
pub fn check(world: &World, command: &Command) -> Result<(), Refusal> {
    super::dispatch::check(world, command).map(|_| ())
}

/// AlC's invariants: one combat unit a hex (but for a displaced unit still to retreat
/// out of it, AlC 12.5) and never two sides in one hex (AlC 7),
/// steps within the counter's sides (AlC 12.6), movement points never below zero
/// (AlC 9), no decision waiting once the game is over (AlC 13).
pub fn invariant_violations(world: &World) -> Vec<String> {
    let mut out = Vec::new();
    let board = world.res::<Board>();
    let displaced_in = match front(world) {
        Some(Pending::Retreat { unit, .. }) => hex_of(world, unit),
        _ => None,
    };
    for hex in board.hexes() {
        let here = units_at(world, hex);
        let combat = here.iter().filter(|u| !is_leader(world, **u)).count();
        let allowed = if displaced_in == Some(hex) { 2 } else { 1 };
        if combat > allowed {
            out.push(format!("{combat} combat units on {hex} (AlC 7)"));
        }
        if here
            .iter()
            .any(|u| side_of(world, *u) != side_of(world, here[0]))
        {
            out.push(format!("both sides on {hex} (AlC 7)"));
        }
    }
    let ids: Vec<UnitId> = world.res::<crate::engine::units::Units>().ids().collect();
    for id in ids {
        if placement(world, id) == Placement::Eliminated {
            continue;
        }
        let s = steps(world, id);
        if s.left == 0 || s.left > s.max || s.max > 2 {
            out.push(format!(
                "{} has {} of {} steps (AlC 12.6)",
                name(world, id),
                s.left,
                s.max
            ));
        }
        if flags(world, id).mp_left < 0 {
            out.push(format!("{} has negative MP (AlC 9)", name(world, id)));
        }
    }
    if turn(world).outcome.is_some() && front(world).is_some() {
        out.push("a decision waits after the game ended (AlC 13)".into());
    }
    out
}

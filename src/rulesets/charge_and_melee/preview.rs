//! The charge preview the window shows before a charge is declared (issue 16): the exact
//! chance that the charger's move die brings it into contact (7.6, 7.7) and of each
//! result it reads if the target stands to receive it (7.15), computed by running the
//! resolver's own functions over every face: the path of `movement::closing_steps` (what
//! `close_in` moves), `moves::fast_move` and `fatigue_dp`, and the scores of
//! `resolution::charge_scores` with each side's grade die. A charger in a controlled
//! battle line (7.1) previews the line's one combat (`line_preview`), or, where its dice
//! are too many to enumerate, its own charge alone; the preview names the units that
//! charge with it either way.

use bevy::prelude::*;

use crate::engine::command::{Command, Refusal};
use crate::engine::view::AttackPreview;

use super::charge;
use super::combatant::Combatant;
use super::commands::CmCommand;
use super::data::ChargeResult;
use super::dice::faces_by_value;
use super::fight_preview::successes;
use super::line_preview;
use super::losses::with_dps;
use super::*;

/// A result as the results chart names it.
pub fn result_name(r: ChargeResult) -> &'static str {
    match r {
        ChargeResult::Victory => "Victory",
        ChargeResult::Success => "Success",
        ChargeResult::Inconclusive => "Inconclusive",
        ChargeResult::SetBack => "Set-back",
        ChargeResult::Defeat => "Defeat",
        ChargeResult::Rout => "Rout",
    }
}

/// What the target's shooting at its charger can do (7.14): how many of its stands
/// shoot, and the chance that one hits.
#[derive(Clone, Copy, Debug)]
pub struct Volley {
    pub stands: u8,
    pub hit: f64,
}

/// The target's shooting at a lone charger as it comes on (7.14), as `at_chargers`
/// rolls it: its stands that see the charger, each hitting on the chart's need.
pub fn volley_at(world: &World, c: UnitId, t: UnitId) -> Volley {
    let tb = tables(world);
    let chart = tb.charts.missile;
    let n = missile::need(
        &chart,
        troop_ref(world, t).short_range,
        troop_ref(world, c).armoured,
    );
    Volley {
        stands: missile::stands_shooting_at(world, t, c),
        hit: missile::hit_chance(&chart, n),
    }
}

/// Whether the target shoots at a charger whose move is `hexes` (7.14: it comes within
/// short range).
pub(crate) fn shoots(world: &World, c: UnitId, t: UnitId, hexes: u32) -> bool {
    let reach = u32::from(tables(world).charts.missile.short_range);
    gap_between(world, t, c) <= hexes + reach
}

/// A charger's morale once its move die's fatigue DP (7.7), then the `hits` of the
/// shooting at it (7.14), are taken, in that order, as the resolution takes them: what
/// it fights the charge combat with.
pub(crate) fn morale_at_contact(world: &World, c: UnitId, move_face: u8, hits: u8) -> CmMorale {
    let tb = tables(world);
    let chart = &tb.charts.charge_move;
    let difficult = movement::in_difficult(world, stands(world, c));
    let fatigue = u8::from(moves::fatigue_dp(chart, move_face, difficult));
    let shaken_at = tb.charts.evade.shaken_dps;
    with_dps(
        with_dps(morale(world, c), fatigue, shaken_at),
        hits,
        shaken_at,
    )
}

/// The charger's result when its move die shows `move_face`, the target's shooting
/// (7.14) hits it `hits` times, and the combat dice give the values `target_die` and
/// `charger_die` (each read through its grade), the target standing; `None` when the
/// charge falls short (7.9). `steps` are the charger's `movement::closing_steps`
/// towards the target and `contact_at` the first in contact.
#[allow(clippy::too_many_arguments)]
pub fn charge_outcome(
    world: &World,
    c: UnitId,
    t: UnitId,
    steps: &[Vec<HexCoord>],
    contact_at: Option<usize>,
    move_face: u8,
    hits: u8,
    target_die: u8,
    charger_die: u8,
) -> Option<ChargeResult> {
    let tb = tables(world);
    let chart = &tb.charts.charge_move;
    let hexes = usize::from(moves::fast_move(
        chart,
        troop_ref(world, c).category,
        move_face,
    ));
    let k = contact_at.filter(|k| *k <= hexes)?;
    let m = morale_at_contact(world, c, move_face, hits);
    let moved = [(c, &steps[k][..], m)];
    let w = Where::with(world, &moved);
    // A target that declared a charge of its own meets its charger with its Attack
    // Factor (7.10, as the resolver reads it).
    let t_charged = state(world).declared.iter().any(|x| x.charger == t);
    let (target, charger) = (Combatant::read(w, t), Combatant::read(w, c));
    let scores = resolution::charge_scores(
        w,
        &[target],
        &[charger],
        &[t_charged],
        &[target_die, charger_die],
    );
    Some(charge::result(&tb.charts.charge, scores[1], scores[0]))
}

/// The charger's path towards its target and the first of its steps in contact: what
/// `charge_outcome` reads.
pub fn closing(world: &World, c: UnitId, t: UnitId) -> (Vec<Vec<HexCoord>>, Option<usize>) {
    closing_past(world, c, t, &[])
}

/// `closing` once the `moved` units stand on their new stands: a battle line's charger
/// after the units of the line declared before it moved (7.1; `movement::closing_steps_past`).
pub(crate) fn closing_past(
    world: &World,
    c: UnitId,
    t: UnitId,
    moved: &[(UnitId, &[HexCoord])],
) -> (Vec<Vec<HexCoord>>, Option<usize>) {
    let tb = tables(world);
    let category = troop_ref(world, c).category;
    let most = (1..=6)
        .map(|f| u32::from(moves::fast_move(&tb.charts.charge_move, category, f)))
        .max()
        .unwrap_or(0);
    let steps = movement::closing_steps_past(world, c, &[t], most, moved);
    let of = stands(world, t);
    let contact_at = steps
        .iter()
        .position(|list| list.iter().any(|x| of.iter().any(|y| x.is_adjacent(*y))));
    (steps, contact_at)
}

/// How many faces of the charger's move die bring it into contact with its target
/// (7.6): the chance of contact shown by the charge buttons and the threat map.
pub fn contact_faces(world: &World, c: UnitId, t: UnitId) -> usize {
    let (_, contact_at) = closing(world, c, t);
    let chart = &tables(world).charts.charge_move;
    let category = troop_ref(world, c).category;
    contact_at.map_or(0, |k| {
        (1..=6u8)
            .filter(|f| usize::from(moves::fast_move(chart, category, *f)) >= k)
            .count()
    })
}

/// The preview of `charge UNIT -> TARGET`: refused as the command would be; else the
/// chances, over the charger's move die and both sides' combat dice, that it falls
/// short or reads each result (the target's is the mirror: its own band). A charger in
/// a controlled battle line (7.1) gives its line's chances (`line_preview`) when its
/// dice are few enough to enumerate.
pub fn charge_preview(world: &World, command: &Command) -> Result<AttackPreview, Refusal> {
    let Some(CmCommand::Charge { unit, target }) = CmCommand::of(command) else {
        return Err(Refusal::new("C&M 7.2", "close combat begins with a charge"));
    };
    let d = charges::check_charge(world, unit, target)?;
    let (c, t) = (d.charger, d.target);
    let tb = tables(world);
    let chart = &tb.charts.charge_move;
    let tr = troop(world, c);
    let difficult = movement::in_difficult(world, stands(world, c));
    let t_charged = state(world).declared.iter().any(|x| x.charger == t);
    let grade = |id: UnitId| component::<CmUnit>(world, id).grade;
    let volley = volley_at(world, c, t);
    // The line's chances (7.1), else why they are the charger's alone.
    let line_chances = match line_preview::LineCharge::of(world, c, t) {
        Some(line) => line.chances(world),
        None => Err("no other unit of the line joins its charge".to_string()),
    };
    let (odds, chances) = match &line_chances {
        Ok(x) => (x.odds.clone(), x.chances.clone()),
        Err(_) => lone_chances(world, c, t),
    };
    let mut modifiers = vec![format!(
        "move die: {} (C&M 7.6){}",
        (1..=6)
            .map(|f| moves::fast_move(chart, tr.category, f).to_string())
            .collect::<Vec<_>>()
            .join("/"),
        if difficult {
            ", fatigue DP on 4-6 in difficult terrain (C&M 7.7)"
        } else {
            ", fatigue DP on 5-6 (C&M 7.7)"
        }
    )];
    match &line_chances {
        // The line's own lines: each charge, its contact and shooting, and its dice.
        Ok(x) => modifiers.extend(x.notes.iter().cloned()),
        Err(_) => {
            modifiers.push(format!(
                "dice: {} {:?} against {} {:?} (C&M 7.15)",
                plain_name(world, c),
                tb.die_of(grade(c)),
                plain_name(world, t),
                tb.die_of(grade(t))
            ));
            if volley.stands > 0 {
                modifiers.push(format!(
                    "{} shoots as it comes on: {} stand{}, each hits on {:.0}% (C&M 7.14)",
                    plain_name(world, t),
                    volley.stands,
                    if volley.stands == 1 { "" } else { "s" },
                    volley.hit * 100.0
                ));
            }
        }
    }
    if t_charged {
        modifiers.push(format!(
            "{} charges too: it meets the charge with its Attack Factor (C&M 7.10)",
            plain_name(world, t)
        ));
    }
    let alone = line_chances.err();
    let attack_supports = line_note(world, c, alone.as_deref(), &mut modifiers);
    Ok(AttackPreview {
        command: command.clone(),
        odds,
        modifiers,
        die_modifier: 0,
        chances,
        attack_supports,
        defence_supports: Vec::new(),
    })
}

/// The odds line and the chances of a lone charger's charge: over its move die, the
/// target's shooting (7.14) and both sides' combat dice, that it falls short or reads
/// each result if the target stands.
fn lone_chances(world: &World, c: UnitId, t: UnitId) -> (String, Vec<(String, f64)>) {
    let tb = tables(world);
    let chart = &tb.charts.charge_move;
    let tr = troop(world, c);
    let (steps, contact_at) = closing(world, c, t);
    let grade = |id: UnitId| component::<CmUnit>(world, id).grade;
    let t_faces = faces_by_value(tb.die_of(grade(t)), &tb.charts.average_die);
    let c_faces = faces_by_value(tb.die_of(grade(c)), &tb.charts.average_die);
    let volley = volley_at(world, c, t);
    let mut short = 0.0;
    let mut by_result = [0.0f64; 6];
    // A charger that takes a casualty before contact loses a stand: the preview does
    // not place the stands left, and says so with that chance.
    let mut stand_lost = 0.0;
    let mut need = None;
    let m0 = morale(world, c);
    for face in 1..=6u8 {
        let hexes = u32::from(moves::fast_move(chart, tr.category, face));
        let shooters = if shoots(world, c, t, hexes) {
            volley.stands
        } else {
            0
        };
        let hits_dist = successes(&vec![volley.hit; usize::from(shooters)]);
        for (hits, &p_hits) in hits_dist.iter().enumerate() {
            let hits = hits as u8;
            if p_hits == 0.0 {
                continue;
            }
            let casualty = morale_at_contact(world, c, face, hits).casualties > m0.casualties;
            for &(tv, tn) in &t_faces {
                for &(cv, cn) in &c_faces {
                    let p = p_hits * f64::from(tn) * f64::from(cn) / 216.0;
                    match charge_outcome(world, c, t, &steps, contact_at, face, hits, tv, cv) {
                        None => short += p,
                        Some(_) if casualty => stand_lost += p,
                        Some(r) => {
                            need = Some(need.map_or(face, |n: u8| n.min(face)));
                            by_result[result_index(r)] += p;
                        }
                    }
                }
            }
        }
    }
    let gap = gap_between(world, c, t);
    let odds = match contact_at {
        Some(k) => format!(
            "{} charges {} ({gap} JT): contact in {k} hex{} on a move die of {}+; results if it stands",
            plain_name(world, c),
            plain_name(world, t),
            if k == 1 { "" } else { "es" },
            need.map_or("-".to_string(), |n| n.to_string()),
        ),
        None => format!(
            "{} charges {} ({gap} JT): no path reaches it",
            plain_name(world, c),
            plain_name(world, t)
        ),
    };
    (odds, chance_lines(short, &by_result, stand_lost))
}

/// The index of a result in `ChargeResult::ALL`: the chances are kept in its order.
pub(crate) fn result_index(r: ChargeResult) -> usize {
    ChargeResult::ALL.iter().position(|x| *x == r).unwrap_or(0)
}

/// The chances the window lists: falling short (7.9), each result on contact (7.15),
/// and contact after a stand lost to the shooting (not previewed); those of chance 0
/// left out.
pub(crate) fn chance_lines(
    short: f64,
    by_result: &[f64; 6],
    stand_lost: f64,
) -> Vec<(String, f64)> {
    let mut chances = vec![("falls short (7.9)".to_string(), short)];
    for (i, p) in by_result.iter().enumerate() {
        chances.push((
            format!("contact, {}", result_name(ChargeResult::ALL[i])),
            *p,
        ));
    }
    chances.push((
        "contact after losing a stand to shooting (not previewed)".to_string(),
        stand_lost,
    ));
    chances.retain(|(_, p)| *p > 0.0);
    chances
}

/// When the charger stands in a controlled battle line (7.1), the line naming the units
/// that charge with it as one body, and that the combat is the line's (7.15): the
/// chances above are the line's, else, `alone` saying why, the charger's own charge
/// alone. Returns the hexes of the line's other stands, outlined with the preview.
fn line_note(
    world: &World,
    c: UnitId,
    alone: Option<&str>,
    modifiers: &mut Vec<String>,
) -> Vec<HexCoord> {
    let body = super::battleline::body_of(world, c);
    if body.len() < 2 {
        return Vec::new();
    }
    let others: Vec<String> = body[1..].iter().map(|u| plain_name(world, *u)).collect();
    let leader = super::command::commander_of(world, c)
        .map(|l| plain_name(world, l))
        .unwrap_or_default();
    let whose = match alone {
        None => "the chances are the line's".to_string(),
        Some(why) => format!("the chances are of {} alone ({why})", plain_name(world, c)),
    };
    modifiers.push(format!(
        "{} charge{} with it as one body, a battle line controlled by {leader} (C&M 7.1): \
         the units in contact fight one combat, a die a unit, the factors totalled and \
         divided by the units (C&M 7.15); {whose}",
        others.join(", "),
        if others.len() == 1 { "s" } else { "" },
    ));
    body[1..]
        .iter()
        .flat_map(|u| stands(world, *u).to_vec())
        .collect()
}

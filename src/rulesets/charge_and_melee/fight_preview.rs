//! The mêlée and shot previews the window shows (issue 16): the exact chance of each
//! outcome of the mêlée two units in contact will fight (C&M 7.20-7.25) and of each
//! number of hits a declared shot can score (spec B.2 §11), computed from the
//! resolver's own functions: `fight::bouts` and `fight::bout_need` (what the Mêlée Phase
//! rolls), `melee::hits`, `melee::lost` and `melee::loss`; `missile::volley_now` and
//! `missile::hits` (what the exchange rolls), `losses::with_dps`.

use bevy::prelude::*;

use crate::engine::command::{Command, Refusal};
use crate::engine::view::AttackPreview;

use super::fight::{Bout, bout_need, bouts, fighting};
use super::losses::with_dps;
use super::melee::{MeleeLoss, loss};
use super::missile::Shot;
use super::*;

/// The chance of each number of successes from independent trials of chances `ps`
/// (index k: exactly k successes).
pub fn successes(ps: &[f64]) -> Vec<f64> {
    let mut dist = vec![1.0];
    for &p in ps {
        let mut next = vec![0.0; dist.len() + 1];
        for (k, q) in dist.iter().enumerate() {
            next[k] += q * (1.0 - p);
            next[k + 1] += q * p;
        }
        dist = next;
    }
    dist
}

/// The chance of each difference `x - y` for `x` of distribution `xs` and `y` of `ys`,
/// indexed from `-(ys.len() - 1)`.
fn differences(xs: &[f64], ys: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; xs.len() + ys.len() - 1];
    for (x, p) in xs.iter().enumerate() {
        for (y, q) in ys.iter().enumerate() {
            out[x + ys.len() - 1 - y] += p * q;
        }
    }
    out
}

/// The chance that a difference of distribution `d` (from `differences(_, ys)`, `ys`
/// of length `offset + 1`) is above `above`.
fn above(d: &[f64], offset: usize, above: i64) -> f64 {
    d.iter()
        .enumerate()
        .filter(|(i, _)| *i as i64 - offset as i64 > above)
        .map(|(_, p)| p)
        .sum()
}

/// A bout's chance of a hit (7.20, 7.21): its faces over six.
fn bout_chance(world: &World, b: &Bout) -> (i32, f64) {
    let need = bout_need(world, b);
    let faces = super::melee::hitting_faces(&tables(world).charts.melee, need);
    (need, f64::from(faces) / 6.0)
}

/// What losing the mêlée does to `id` (7.25, 7.26), as `fight::melee` applies it.
fn loss_words(world: &World, id: UnitId) -> &'static str {
    match loss(
        troop_ref(world, id),
        formation(world, id).formed(),
        morale(world, id).shaken,
    ) {
        MeleeLoss::Breaks => "breaks (C&M 7.25)",
        MeleeLoss::PushedBack => "is pushed back with a DP (C&M 7.25)",
        MeleeLoss::ElephantStands => "takes a DP and tests for rampage (C&M 7.26)",
        MeleeLoss::Captured => "is captured (C&M 7.26)",
    }
}

/// The preview of the mêlée `u` and `t` (in contact) will fight, as the stands stand
/// now: each stand's need, and the exact chance that `u`, `t`, both or neither loses
/// (7.25: a unit that receives more hits than it inflicts). Hits on a routing unit
/// remove its stands instead (7.23) and count for neither side.
pub fn melee_preview(
    world: &World,
    command: &Command,
    u: UnitId,
    t: UnitId,
) -> Result<AttackPreview, Refusal> {
    let all = bouts(world, &fighting(world));
    let counts = |b: &Bout| posture(world, b.foe) != Some(Posture::Routing);
    // The six groups of dice: u on t, u on others, t on u, others on u, t on others,
    // others on t; each a list of chances.
    let mut groups: [Vec<f64>; 6] = Default::default();
    let mut modifiers = Vec::new();
    for b in &all {
        let (from_u, from_t, on_u, on_t) = (b.unit == u, b.unit == t, b.foe == u, b.foe == t);
        if !(from_u || from_t || on_u || on_t) {
            continue;
        }
        let (need, p) = bout_chance(world, b);
        if from_u || from_t {
            modifiers.push(format!(
                "{}'s stand in {} against {}: needs {need}, hits {:.0}% (C&M 7.20)",
                plain_name(world, b.unit),
                b.stand,
                b.foe_stand,
                p * 100.0
            ));
        }
        if !counts(b) {
            continue;
        }
        let g = match (from_u, from_t, on_u, on_t) {
            (true, _, _, true) => 0,
            (true, _, _, _) => 1,
            (_, true, true, _) => 2,
            (_, _, true, _) => 3,
            (_, true, _, _) => 4,
            _ => 5,
        };
        groups[g].push(p);
    }
    let d: Vec<Vec<f64>> = groups.iter().map(|g| successes(g)).collect();
    // u loses when (t on u + others on u) > (u on t + u on others); t loses when
    // (u on t + others on t) > (t on u + t on others). Given u's and t's hits on each
    // other, the rest are independent.
    let others_vs_u = differences(&d[3], &d[1]);
    let others_vs_t = differences(&d[5], &d[4]);
    let (ou, ot) = (d[1].len() - 1, d[4].len() - 1);
    let (mut both, mut u_only, mut t_only, mut neither) = (0.0, 0.0, 0.0, 0.0);
    for (a, pa) in d[0].iter().enumerate() {
        for (c, pc) in d[2].iter().enumerate() {
            let p = pa * pc;
            if p == 0.0 {
                continue;
            }
            let lu = above(&others_vs_u, ou, a as i64 - c as i64);
            let lt = above(&others_vs_t, ot, c as i64 - a as i64);
            both += p * lu * lt;
            u_only += p * lu * (1.0 - lt);
            t_only += p * (1.0 - lu) * lt;
            neither += p * (1.0 - lu) * (1.0 - lt);
        }
    }
    let (un, tn) = (plain_name(world, u), plain_name(world, t));
    let mut chances = vec![
        (format!("{tn} loses: it {}", loss_words(world, t)), t_only),
        (format!("{un} loses: it {}", loss_words(world, u)), u_only),
        ("both lose (other units in the mêlée)".to_string(), both),
        ("neither loses (C&M 7.25)".to_string(), neither),
    ];
    chances.retain(|(_, p)| *p > 0.0);
    let fighting_stands = |id: UnitId| all.iter().filter(|b| b.unit == id).count();
    let odds = format!(
        "{un} in mêlée with {tn}: {} stand{} against {}; a unit that receives more hits than it inflicts loses (C&M 7.25)",
        fighting_stands(u),
        if fighting_stands(u) == 1 { "" } else { "s" },
        fighting_stands(t)
    );
    Ok(AttackPreview {
        command: command.clone(),
        odds,
        modifiers,
        die_modifier: 0,
        chances,
        attack_supports: Vec::new(),
        defence_supports: Vec::new(),
    })
}

/// The preview of a shot that may be declared (spec B.2 §11): its stands that see the
/// target, the score each needs, and the exact chance of each number of hits with the
/// DPs, shaken marker and casualties they bring (1 DP a hit, spec B.2 §5).
pub fn shot_preview(world: &World, command: &Command, shot: Shot) -> AttackPreview {
    let chart = tables(world).charts.missile;
    let shaken_at = tables(world).charts.evade.shaken_dps;
    let (stands, need) = super::missile::volley_now(world, shot);
    let dist = successes(&vec![
        super::missile::hit_chance(&chart, need);
        usize::from(stands)
    ]);
    let m0 = morale(world, shot.target);
    let chances = dist
        .iter()
        .enumerate()
        .filter(|(_, q)| **q > 0.0)
        .map(|(k, q)| {
            let m = with_dps(m0, k as u8, shaken_at);
            let mut words = match k {
                0 => "no hit".to_string(),
                1 => "1 hit: 1 DP".to_string(),
                k => format!("{k} hits: {k} DPs"),
            };
            if m.shaken && !m0.shaken {
                words.push_str(", shaken");
            }
            let lost = m.casualties - m0.casualties;
            if lost > 0 {
                words.push_str(&format!(
                    ", {lost} casualt{}",
                    if lost == 1 { "y" } else { "ies" }
                ));
            }
            (words, *q)
        })
        .collect();
    let (sn, tn) = (
        plain_name(world, shot.shooter),
        plain_name(world, shot.target),
    );
    AttackPreview {
        command: command.clone(),
        odds: format!(
            "{sn} shoots at {tn} at {}: {stands} stand{} see{} it (spec B.2 §11)",
            super::missile::exchange_label(shot.exchange),
            if stands == 1 { "" } else { "s" },
            if stands == 1 { "s" } else { "" }
        ),
        modifiers: vec![
            format!(
                "each die hits on {need} or less{} (spec B.2 §11, C&M 7.21)",
                if troop_ref(world, shot.target).armoured {
                    ", -1 against armour"
                } else {
                    ""
                }
            ),
            format!(
                "{tn} has {} DP{}{}; the hits of every shot at it land together",
                m0.dps,
                if m0.dps == 1 { "" } else { "s" },
                if m0.shaken { ", shaken" } else { "" }
            ),
        ],
        die_modifier: 0,
        chances,
        attack_supports: Vec::new(),
        defence_supports: Vec::new(),
    }
}

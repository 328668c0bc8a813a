//! The charge preview of a battle line (C&M 7.1, 7.15; issue 16). A charger in a
//! controlled battle line charges as one body with the line's other units: each rolls
//! its own move die (7.6) with its fatigue (7.7), is shot at by its own target as it
//! comes on (7.14), and moves in the order declared, each after the ones before it
//! (`close_in`); the units that reach contact and all the enemies they struck fight one
//! charge combat (7.15: a die a unit, all factors totalled, divided by the number of
//! units, rounded up), every unit sharing the outcome. The preview gives the exact
//! chance of each outcome of that combat, over every face of every die, from the
//! resolver's own functions: the line's declarations (`battleline::line_plan`), each
//! unit's path after the moves before it (`preview::closing_past`), its morale at
//! contact (`preview::morale_at_contact`), the one combat the resolution forms
//! (`battleline::merge_bodies`) and its scores (`resolution::charge_scores`). Where the
//! combinations of dice pass `MOST_COMBINATIONS`, or two units of the line charge one
//! target that shoots (its stands shoot at the first charger they see, 7.14), the
//! preview is the charger's alone, and says so. As for a lone charger, the targets are
//! taken to stand, and the other charges declared are left out.

use bevy::prelude::*;

use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;

use super::battleline::{self, Combat};
use super::charge;
use super::combatant::{Combatant, Moved, Where};
use super::data::ChargeResult;
use super::dice::{faces_by_value, grade_value};
use super::fight_preview::successes;
use super::preview::{
    Volley, chance_lines, closing_past, morale_at_contact, result_index, shoots, volley_at,
};
use super::*;

/// The most combinations of faces the preview enumerates, the moves' and the combat's:
/// beyond them a line's chances are the charger's alone.
pub const MOST_COMBINATIONS: usize = 200_000;

/// A battle line's charge as it would be declared (7.1).
pub struct LineCharge {
    /// The line's charges in the order declared, the declaring unit's first.
    pub charges: Vec<Declared>,
    /// The shooting of each charge's target at its charger (7.14).
    volleys: Vec<Volley>,
}

/// Where a charger of the line ends its charge move (7.7), and the morale it fights
/// with: a unit short of contact keeps only that it fell short (it fights no combat).
#[derive(Clone, Debug, PartialEq)]
struct End {
    unit: UnitId,
    stands: Vec<HexCoord>,
    contact: bool,
    morale: CmMorale,
}

/// What a battle line's charge comes to, its targets standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// No unit of the line reaches contact (7.9).
    FallsShort,
    /// A unit that reaches contact lost a stand to the shooting (7.14): the preview
    /// does not place the stands left.
    StandLost,
    /// The line's result in its one combat (7.15).
    Result(ChargeResult),
}

/// A line's chances as the window shows them.
pub struct LineChances {
    pub odds: String,
    pub chances: Vec<(String, f64)>,
    /// A line for each charge of the line: its target and its chance of contact.
    pub notes: Vec<String>,
}

/// The units of one combat as the resolver reads them, the chargers in contact on the
/// stands they reached and with their morale at contact.
struct Fight<'a> {
    w: Where<'a>,
    defenders: Vec<Combatant<'a>>,
    attackers: Vec<Combatant<'a>>,
    charged: Vec<bool>,
}

impl Fight<'_> {
    /// The attackers' result on the dice `values` (defenders first, each read through
    /// its grade), as `resolution::combat` reads it (7.15).
    fn result(&self, values: &[u8]) -> ChargeResult {
        let scores = resolution::charge_scores(
            self.w,
            &self.defenders,
            &self.attackers,
            &self.charged,
            values,
        );
        charge::result(&self.w.tables.charts.charge, scores[1], scores[0])
    }
}

impl LineCharge {
    /// The battle line `charger` declares with its charge on `target` (7.1), when the
    /// charger stands in a controlled line and another unit of it joins the charge.
    pub fn of(world: &World, charger: UnitId, target: UnitId) -> Option<Self> {
        let d = Declared { charger, target };
        let mut declared = state(world).declared.clone();
        declared.push(d);
        let plan = battleline::line_plan(world, d, &declared)?;
        let charges = plan.charges(d);
        if charges.len() < 2 {
            return None;
        }
        let volleys = charges
            .iter()
            .map(|x| volley_at(world, x.charger, x.target))
            .collect();
        Some(Self { charges, volleys })
    }

    /// The line's outcome when each charger's move die shows its face of `move_faces`,
    /// the shooting hits it `hits` times, and each unit of the combat rolls the plain
    /// face `combat_face` gives it (read through its grade), charges in declaration
    /// order: the preview's reading of one throw of every die.
    pub fn outcome(
        &self,
        world: &World,
        move_faces: &[u8],
        hits: &[u8],
        combat_face: impl Fn(UnitId) -> u8,
    ) -> LineOutcome {
        let mut ends = Vec::new();
        for (i, (&face, &h)) in move_faces.iter().zip(hits).enumerate() {
            let path = self.path(world, i, &ends);
            ends.push(self.end(world, i, &path, face, h));
        }
        let combat = match self.combat_of(world, &ends) {
            Ok(c) => c,
            Err(o) => return o,
        };
        let t = tables(world);
        let values: Vec<u8> = combat
            .targets
            .iter()
            .chain(&combat.attackers)
            .map(|u| grade_value(&t, component::<CmUnit>(world, *u).grade, combat_face(*u)))
            .collect();
        with_fight(world, &combat, &ends, |f| {
            LineOutcome::Result(f.result(&values))
        })
    }

    /// The exact chances of the line's charge, or why the preview gives the charger's
    /// alone: a target that two units of the line charge shoots (7.14), or the
    /// combinations of faces pass `MOST_COMBINATIONS`.
    pub fn chances(&self, world: &World) -> Result<LineChances, String> {
        if let Some(t) = self.shared_shooting_target() {
            return Err(format!(
                "two of its units charge {}, whose stands shoot at the first they see (C&M 7.14)",
                plain_name(world, t)
            ));
        }
        let moves: usize = self
            .volleys
            .iter()
            .map(|v| 6 * (usize::from(v.stands) + 1))
            .product();
        if moves > MOST_COMBINATIONS {
            return Err(format!(
                "{moves} combinations of move dice and hits, too many to enumerate"
            ));
        }
        let mut states = Vec::new();
        self.spread(world, &mut Vec::new(), 1.0, &mut states);
        let tb = tables(world);
        let faces_of = |u: &UnitId| {
            faces_by_value(
                tb.die_of(component::<CmUnit>(world, *u).grade),
                &tb.charts.average_die,
            )
        };
        let mut fights = Vec::new();
        let (mut short, mut stand_lost) = (0.0, 0.0);
        let mut contact = vec![0.0; self.charges.len()];
        let mut combinations = moves;
        for (ends, p) in &states {
            for (i, e) in ends.iter().enumerate() {
                if e.contact {
                    contact[i] += p;
                }
            }
            match self.combat_of(world, ends) {
                Err(LineOutcome::StandLost) => stand_lost += p,
                Err(_) => short += p,
                Ok(combat) => {
                    let faces: Vec<Vec<(u8, u8)>> = combat
                        .targets
                        .iter()
                        .chain(&combat.attackers)
                        .map(faces_of)
                        .collect();
                    combinations += faces.iter().map(Vec::len).product::<usize>();
                    fights.push((ends, *p, combat, faces));
                }
            }
        }
        if combinations > MOST_COMBINATIONS {
            return Err(format!(
                "{combinations} combinations of dice, too many to enumerate"
            ));
        }
        let mut by_result = [0.0f64; 6];
        for (ends, p, combat, faces) in fights {
            with_fight(world, &combat, ends, |f| {
                for_each_throw(&faces, |values, weight| {
                    by_result[result_index(f.result(values))] += p * weight;
                })
            });
        }
        Ok(LineChances {
            odds: self.odds(world, 1.0 - short),
            chances: chance_lines(short, &by_result, stand_lost),
            notes: self.notes(world, &contact),
        })
    }

    /// A target that two units of the line charge and that shoots at both: its stands
    /// shoot at the first charger they see (7.14, `missile::at_chargers`), which the
    /// preview does not split.
    fn shared_shooting_target(&self) -> Option<UnitId> {
        self.charges.iter().enumerate().find_map(|(i, d)| {
            let shot = |k: usize| self.volleys[k].stands > 0;
            let again = self.charges[i + 1..]
                .iter()
                .enumerate()
                .any(|(k, x)| x.target == d.target && shot(i + 1 + k));
            (shot(i) && again).then_some(d.target)
        })
    }

    /// Charge `i`'s path towards its target once the charges before it moved to `ends`,
    /// and the first of its steps in contact.
    fn path(&self, world: &World, i: usize, ends: &[End]) -> (Vec<Vec<HexCoord>>, Option<usize>) {
        let moved: Vec<(UnitId, &[HexCoord])> =
            ends.iter().map(|e| (e.unit, &e.stands[..])).collect();
        let d = self.charges[i];
        closing_past(world, d.charger, d.target, &moved)
    }

    /// Where charge `i` ends on a move die of `face`, hit `hits` times (7.7, 7.14).
    fn end(
        &self,
        world: &World,
        i: usize,
        path: &(Vec<Vec<HexCoord>>, Option<usize>),
        face: u8,
        hits: u8,
    ) -> End {
        let c = self.charges[i].charger;
        let hexes = usize::from(self.hexes(world, i, face));
        let (steps, contact_at) = path;
        End {
            unit: c,
            stands: steps[hexes.min(steps.len() - 1)].clone(),
            contact: contact_at.is_some_and(|k| k <= hexes),
            morale: morale_at_contact(world, c, face, hits),
        }
    }

    /// The hexes charge `i`'s move die gives on `face` (7.6).
    fn hexes(&self, world: &World, i: usize, face: u8) -> u8 {
        let chart = &tables(world).charts.charge_move;
        moves::fast_move(
            chart,
            troop_ref(world, self.charges[i].charger).category,
            face,
        )
    }

    /// Every throw of the move dice and of the shooting, charge by charge in the order
    /// declared, each charge's path read after the moves before it: the line's ends with
    /// their chances, those that fight the same combat merged (a charger short of
    /// contact keeps only that).
    fn spread(&self, world: &World, ends: &mut Vec<End>, p: f64, out: &mut Vec<(Vec<End>, f64)>) {
        let i = ends.len();
        if i == self.charges.len() {
            let key: Vec<End> = ends
                .iter()
                .map(|e| match e.contact {
                    true => e.clone(),
                    false => End {
                        unit: e.unit,
                        stands: Vec::new(),
                        contact: false,
                        morale: CmMorale::default(),
                    },
                })
                .collect();
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some((_, q)) => *q += p,
                None => out.push((key, p)),
            }
            return;
        }
        let path = self.path(world, i, ends);
        let (d, v) = (self.charges[i], self.volleys[i]);
        for face in 1..=6u8 {
            let hexes = u32::from(self.hexes(world, i, face));
            let shooters = if shoots(world, d.charger, d.target, hexes) {
                v.stands
            } else {
                0
            };
            for (hits, p_hits) in successes(&vec![v.hit; usize::from(shooters)])
                .into_iter()
                .enumerate()
            {
                if p_hits == 0.0 {
                    continue;
                }
                ends.push(self.end(world, i, &path, face, hits as u8));
                self.spread(world, ends, p * p_hits / 6.0, out);
                ends.pop();
            }
        }
    }

    /// The line's one combat once its chargers stand at `ends` (7.1, 7.15): the targets
    /// they struck and the chargers in contact, formed as the resolution forms it; else
    /// why there is none (no contact) or the preview does not read it (a stand lost).
    fn combat_of(&self, world: &World, ends: &[End]) -> Result<Combat, LineOutcome> {
        // The engagements in the resolution's order: by target.
        let mut targets = self.targets();
        targets.sort();
        let s = state(world);
        let combats = targets
            .into_iter()
            .filter_map(|t| {
                let attackers: Vec<UnitId> = self
                    .charges
                    .iter()
                    .zip(ends)
                    .filter(|(d, e)| d.target == t && e.contact)
                    .map(|(d, _)| d.charger)
                    .collect();
                // A target that declared a charge of its own meets its chargers with its
                // Attack Factor (7.10, as the resolver reads it).
                let charged = s.declared.iter().any(|x| x.charger == t);
                (!attackers.is_empty()).then_some((t, attackers, charged))
            })
            .collect();
        let body: Vec<UnitId> = self.charges.iter().map(|d| d.charger).collect();
        let combat = battleline::merge_bodies(&[body], combats)
            .into_iter()
            .next()
            .ok_or(LineOutcome::FallsShort)?;
        let lost = ends.iter().any(|e| {
            combat.attackers.contains(&e.unit)
                && e.morale.casualties > morale(world, e.unit).casualties
        });
        if lost {
            return Err(LineOutcome::StandLost);
        }
        Ok(combat)
    }

    /// The line's targets, each once, in the order declared.
    fn targets(&self) -> Vec<UnitId> {
        let mut targets: Vec<UnitId> = Vec::new();
        for d in &self.charges {
            if !targets.contains(&d.target) {
                targets.push(d.target);
            }
        }
        targets
    }

    /// "the battle line of A and B charges X and Y: ...": the line's odds line.
    fn odds(&self, world: &World, contact: f64) -> String {
        let chargers: Vec<UnitId> = self.charges.iter().map(|d| d.charger).collect();
        let targets = self.targets();
        format!(
            "the battle line of {} charges {}: contact {:.0}%, the units in contact and \
             the enemies they strike fighting one combat (C&M 7.1, 7.15); results if {} stand{}",
            names(world, &chargers),
            names(world, &targets),
            contact * 100.0,
            if targets.len() == 1 { "it" } else { "they" },
            if targets.len() == 1 { "s" } else { "" },
        )
    }

    /// A line for each charge of the line: its target, its chance of reaching contact,
    /// and the target's shooting at it; then the dice of the one combat.
    fn notes(&self, world: &World, contact: &[f64]) -> Vec<String> {
        let t = tables(world);
        let die = |u: UnitId| {
            format!(
                "{} {:?}",
                plain_name(world, u),
                t.die_of(component::<CmUnit>(world, u).grade)
            )
        };
        let dice = format!(
            "dice: a die a unit in the combat, {} against {} (C&M 7.15)",
            self.charges
                .iter()
                .map(|d| die(d.charger))
                .collect::<Vec<_>>()
                .join(", "),
            self.targets()
                .into_iter()
                .map(die)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut notes: Vec<String> = self
            .charges
            .iter()
            .zip(contact)
            .zip(&self.volleys)
            .map(|((d, p), v)| {
                let shooting = if v.stands > 0 {
                    format!(
                        ", shot at by {} stand{} hitting on {:.0}% (C&M 7.14)",
                        v.stands,
                        if v.stands == 1 { "" } else { "s" },
                        v.hit * 100.0
                    )
                } else {
                    String::new()
                };
                format!(
                    "{} charges {} ({} JT): contact {:.0}% (C&M 7.6, 7.7){shooting}",
                    plain_name(world, d.charger),
                    plain_name(world, d.target),
                    gap_between(world, d.charger, d.target),
                    p * 100.0
                )
            })
            .collect();
        notes.push(dice);
        notes
    }
}

/// Runs `f` on the units of `combat`, the chargers on the stands and with the morale of
/// their `ends`.
fn with_fight<R>(world: &World, combat: &Combat, ends: &[End], f: impl FnOnce(&Fight) -> R) -> R {
    let moved: Vec<Moved> = ends
        .iter()
        .filter(|e| e.contact)
        .map(|e| (e.unit, &e.stands[..], e.morale))
        .collect();
    let w = Where::with(world, &moved);
    let fight = Fight {
        w,
        defenders: Combatant::read_all(w, &combat.targets),
        attackers: Combatant::read_all(w, &combat.attackers),
        charged: combat.charged.clone(),
    };
    f(&fight)
}

/// Calls `f` with every throw of the dice whose values and faces are `faces` (each die's
/// `(value, faces giving it)`), and the throw's chance.
fn for_each_throw(faces: &[Vec<(u8, u8)>], mut f: impl FnMut(&[u8], f64)) {
    let mut at = vec![0usize; faces.len()];
    let mut values: Vec<u8> = faces.iter().map(|d| d[0].0).collect();
    loop {
        let weight: f64 = faces
            .iter()
            .zip(&at)
            .map(|(d, &k)| f64::from(d[k].1) / 6.0)
            .product();
        f(&values, weight);
        // The next throw: the first die that can turn up does, those before it back to
        // their first value.
        let Some(k) = (0..faces.len()).find(|&k| at[k] + 1 < faces[k].len()) else {
            return;
        };
        for j in 0..k {
            at[j] = 0;
            values[j] = faces[j][0].0;
        }
        at[k] += 1;
        values[k] = faces[k][at[k]].0;
    }
}

/// Units' names as a list: "A", "A and B", "A, B and C".
fn names(world: &World, units: &[UnitId]) -> String {
    let list: Vec<String> = units.iter().map(|u| plain_name(world, *u)).collect();
    match list.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => list.join(""),
    }
}

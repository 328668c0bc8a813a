//! The arithmetic of Morne Plaine's combat page: the odds column (rounded in favour of
//! the defender, capped at 8-1 and 1-8), the die modifiers (topography, the morale
//! difference) and the clamp of the modified die to 0-7, and the 1-9 morale check.
//! the supports the game finds for both sides. Each function is the rule alone, on
//! numbers and positions, so that the rules and the window's preview share it.

use crate::engine::board::Board;
use crate::engine::cached::CachedWorld;
use crate::engine::hex::HexCoord;
use crate::engine::units::SideId;

use super::data::Crt;
use super::movement::contact;

/// A unit as the supports see it (MP combat: supports).
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    pub hex: HexCoord,
    pub side: SideId,
    /// At morale 0: it brings no support.
    pub demoralised: bool,
    /// It eliminated an enemy or made one retreat earlier in this combat phase, as the
    /// attacking or the defending unit: it supports even in contact with another enemy.
    pub victorious: bool,
}

/// The units that support an attack of the unit at `attacker` on the unit at `defender`,
/// found by the game, never chosen (MP combat: supports): "Any of the attacking
/// player's units that is on contact with the defending unit … if it is not on contact
/// with another enemy unit", and the mirror for the defender; never a demoralised unit;
/// always a victorious one. Returns the indices into `units` of the offensive and the
/// defensive supports.
pub fn supports(
    board: &Board,
    units: &[Standing],
    attacker: usize,
    defender: usize,
) -> (Vec<usize>, Vec<usize>) {
    let support_of = |own: usize, against: usize| -> Vec<usize> {
        let (side, target) = (units[own].side, units[against].hex);
        (0..units.len())
            .filter(|&i| i != own && units[i].side == side && !units[i].demoralised)
            .filter(|&i| contact(board, units[i].hex, target))
            .filter(|&i| {
                units[i].victorious
                    || !units.iter().enumerate().any(|(j, e)| {
                        j != against && e.side != side && contact(board, units[i].hex, e.hex)
                    })
            })
            .collect()
    };
    (
        support_of(attacker, defender),
        support_of(defender, attacker),
    )
}

/// The CRT column of an attack: "The ratio is reduced to one of the ratios of the
/// Combat Results Table and rounded in favour of the defender", and "Odds greater than
/// 8 – 1 are treated as 8 – 1, and odds of less than 1 – 8 are treated as 1 – 8"
/// (MP combat: resolution): the highest column whose odds are at most attack:defence,
/// the first below them all, the last above them all.
pub fn odds_column(crt: &Crt, attack: i32, defence: i32) -> usize {
    crate::rulesets::common::odds_column(&crt.ratios, attack, defence)
}

/// "The attacking unit benefits from a +1 die-roll modifier if it occupies a hex at a
/// higher elevation than the defending unit. In the opposite case there is a –1"
/// (MP combat: topography). Supporters' positions do not count.
pub fn topography_modifier(attacker_level: i8, defender_level: i8) -> i32 {
    (attacker_level as i32 - defender_level as i32).signum()
}

/// "Die roll is increased by 1 point every 2 points of difference between the morale
/// values" of the attacking and the defending unit (MP combat: morale difference). The
/// difference is taken in the order the text names the units, so a defender of higher
/// morale lowers the die; a part of 2 left over counts nothing.
pub fn morale_modifier(attacker_mv: i32, defender_mv: i32) -> i32 {
    (attacker_mv - defender_mv) / 2
}

/// "A final result of less than 0 or more than 7 is treated respectively as 0 or 7"
/// (MP combat: resolution): the CRT row of a die and its cumulative modifiers.
pub fn modified_die(die: u8, modifiers: &[i32]) -> i32 {
    (die as i32 + modifiers.iter().sum::<i32>()).clamp(0, 7)
}

/// "A random number from 1 and 9 is determined and compared to the unit's current
/// morale. If the number is greater then the unit fails" (MP combat: morale check).
pub fn morale_check_passes(morale: i32, number: u8) -> bool {
    number as i32 <= morale
}

/// The morale a check is made against, within the d9's range (MP combat: morale
/// check): a modified morale of 0 or less fails with no die, of 9 or more passes.
pub fn check_threshold(morale: i32) -> i32 {
    morale.clamp(0, 9)
}

// ---- combat in the world ----

use bevy::prelude::*;

use crate::engine::board::HexsideFeature;
use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::units::UnitId;

use super::data::{Cell, Kind};
use super::movement::terrain_at;
use super::results::{RetreatOutcome, lose_cs, morale_check, regain_for_elimination, retreat};
use super::{
    MpPhase, demoralised, flags, flags_mut, hex_of, kind, log, name, plain_name, side_of, turn,
    unit_at, values,
};

/// One unit's part in a fight: its CS as corrected, and why.
#[derive(Clone, Debug)]
pub struct Strength {
    pub unit: UnitId,
    pub cs: i32,
    pub note: String,
}

/// The supports of the last combat resolved with their morale as it was then, for the
/// trust harness's invariant that no demoralised unit supports (MP combat:
/// demoralisation).
#[derive(Resource, Default, Debug, Clone)]
pub struct LastCombat {
    pub supports: Vec<(UnitId, u8)>,
}

/// An attack that passed its check, with everything its resolution reads.
#[derive(Clone, Debug)]
pub struct AttackPlan {
    pub attacker: UnitId,
    pub defender: UnitId,
    pub attacker_hex: HexCoord,
    pub defender_hex: HexCoord,
    /// The attacker then its supports; the defender then its supports.
    pub attack: Vec<Strength>,
    pub defence: Vec<Strength>,
    pub attack_total: i32,
    pub defence_total: i32,
    pub column: usize,
    /// Each die modifier with its reason and rule.
    pub modifiers: Vec<(String, i32)>,
    /// The attack is a charge: the defender checks morale first (MP movement: charge).
    pub charge: bool,
    /// The MV the charged defender checks against.
    pub charge_threshold: i32,
}

impl AttackPlan {
    pub fn die_modifier(&self) -> i32 {
        self.modifiers.iter().map(|(_, m)| *m).sum()
    }
}

/// The water crossed between two hexes, the most favourable to cross first (bridge,
/// ford, stream), for the die modifier and the charge.
fn water_crossing(board: &Board, a: HexCoord, b: HexCoord) -> Option<HexsideFeature> {
    let side = board.hexside(a, b);
    [
        HexsideFeature::Bridge,
        HexsideFeature::Ford,
        HexsideFeature::Stream,
    ]
    .into_iter()
    .find(|f| side.has(*f))
}

/// Whether `id` charges the unit in `target` (MP movement: charge, designer's, from
/// `charge.ron`): a charging kind, not demoralised, having entered enough hexes this
/// turn, from open ground into open ground, not uphill, not across water.
pub fn charges(world: &World, id: UnitId, target: HexCoord) -> bool {
    hex_of(world, id)
        .is_some_and(|at| charges_from(world, id, at, flags(world, id).hexes_moved, target))
}

/// `charges` for the unit standing in `at` having entered `hexes_moved` hexes this turn
/// (the threat map asks it where a move would bring it).
pub fn charges_from(
    world: &World,
    id: UnitId,
    at: HexCoord,
    hexes_moved: u32,
    target: HexCoord,
) -> bool {
    let tables = super::tables(world);
    let c = &tables.charge;
    let board = world.res::<Board>();
    c.kinds.contains(&kind(world, id))
        && !demoralised(world, id)
        && hexes_moved >= c.min_hexes_moved
        && terrain_at(board, &tables, at).open
        && terrain_at(board, &tables, target).open
        && board.elevation(at) >= board.elevation(target)
        && water_crossing(board, at, target).is_none()
}

/// A unit's corrected CS in a fight whose ground is `ground` (the defender's hex for
/// the attacking side, its own for the defending side): cavalry counts half in close
/// terrain, a charger 1.5 times, rounded down, never below 1 (MP combat: supports,
/// "corrected due to a charge or to the type of terrain").
pub fn corrected(world: &World, id: UnitId, ground: HexCoord, charging: bool) -> Strength {
    let tables = super::tables(world);
    let board = world.res::<Board>();
    let mut cs = values(world, id).cs as i32;
    let mut notes = Vec::new();
    let t = terrain_at(board, &tables, ground);
    if kind(world, id) == Kind::Cavalry && t.close {
        cs /= 2;
        notes.push(format!("halved, cavalry in {}", t.id));
    }
    if charging {
        cs = (cs as f32 * tables.charge.strength_factor) as i32;
        notes.push(format!("×{} charging", tables.charge.strength_factor));
    }
    Strength {
        unit: id,
        cs: cs.max(1),
        note: notes.join(", "),
    }
}

/// Checks `attack HEX -> TARGET` in the combat phase (MP combat): one attacker of the
/// active side, not demoralised, that has not attacked, on contact with an enemy unit
/// not yet attacked; the supports are found by the game.
pub fn evaluate(
    world: &World,
    melee: &[HexCoord],
    fire: &[HexCoord],
    target: HexCoord,
) -> Result<AttackPlan, Refusal> {
    const RULE: &str = "MP combat";
    if super::phase(world) != MpPhase::Combat {
        return Err(Refusal::new(
            "MP generalities",
            "attacks are made in the combat phase, bombardments in the bombardment phase",
        ));
    }
    if !fire.is_empty() || melee.len() != 1 {
        return Err(Refusal::new(
            "MP combat: supports",
            "one unit attacks one unit: `attack HEX -> TARGET`; supports are found by the game",
        ));
    }
    let board = world.res::<Board>();
    let side = turn(world).active;
    let from = melee[0];
    let Some(a) = unit_at(world, from).filter(|u| side_of(world, *u) == side) else {
        return Err(Refusal::new(
            RULE,
            format!("there is no friendly unit in {from}"),
        ));
    };
    let Some(d) = unit_at(world, target).filter(|u| side_of(world, *u) != side) else {
        return Err(Refusal::new(
            RULE,
            format!("there is no enemy unit in {target}"),
        ));
    };
    may_attack(world, a)?;
    if flags(world, a).attacked {
        return Err(Refusal::new(
            RULE,
            format!(
                "{} has already attacked: a unit may only attack once per combat phase",
                name(world, a)
            ),
        ));
    }
    if flags(world, d).was_attacked {
        return Err(Refusal::new(
            RULE,
            format!(
                "{} has already been attacked: an enemy unit may only be attacked once",
                name(world, d)
            ),
        ));
    }
    may_attack_into(board, from, target)?;
    Ok(plan(world, a, d))
}

/// Whether the unit may attack at all (MP combat: demoralisation): a unit at morale 0
/// cannot.
pub fn may_attack(world: &World, a: UnitId) -> Result<(), Refusal> {
    if demoralised(world, a) {
        return Err(Refusal::new(
            "MP combat: demoralisation",
            format!(
                "{} is demoralised: a unit at morale 0 cannot attack",
                name(world, a)
            ),
        ));
    }
    Ok(())
}

/// Whether a unit in `from` may attack one in `target` (MP combat): next to it and on
/// contact, "combat is not possible wherever movement forbidden".
pub fn may_attack_into(board: &Board, from: HexCoord, target: HexCoord) -> Result<(), Refusal> {
    const RULE: &str = "MP combat";
    if !from.is_adjacent(target) {
        return Err(Refusal::new(
            RULE,
            format!("{from} is not next to {target}"),
        ));
    }
    if !super::movement::contact(board, from, target) {
        return Err(Refusal::new(
            RULE,
            format!(
                "{from} and {target} are not on contact: combat is not possible where movement is forbidden (a river without a bridge or ford, a slope of more than one level)"
            ),
        ));
    }
    Ok(())
}

/// An attack of `a` alone from `from` (where a move may bring it) on `d` alone, charging
/// or not: the odds and die modifiers `plan` reckons, with no supports on either side
/// (they are found from where every unit stands when the attack is made). The threat
/// map's best attack.
pub fn plan_alone(world: &World, a: UnitId, from: HexCoord, d: UnitId, charge: bool) -> AttackPlan {
    let target = hex_of(world, d).expect("on the map");
    let attack = vec![corrected(world, a, target, charge)];
    let defence = vec![corrected(world, d, target, false)];
    reckon(world, (a, from), (d, target), charge, attack, defence)
}

/// The strengths, odds and modifiers of an attack of `a` on `d`.
fn plan(world: &World, a: UnitId, d: UnitId) -> AttackPlan {
    let board = world.res::<Board>();
    let (from, target) = (
        hex_of(world, a).expect("on the map"),
        hex_of(world, d).expect("on the map"),
    );
    // A support stands next to the defender or the attacker, and what bars it stands
    // next to the support: the units within two hexes of either, in id order, are all
    // `supports` reads.
    let units = world.res::<crate::engine::units::Units>();
    let mut ids: Vec<UnitId> = Vec::with_capacity(16);
    for center in [from, target] {
        for h in center.within(2) {
            ids.extend_from_slice(units.at(board, h));
        }
    }
    ids.sort_unstable();
    ids.dedup();
    let standing: Vec<Standing> = ids
        .iter()
        .map(|&id| Standing {
            hex: hex_of(world, id).expect("in a hex of the map"),
            side: side_of(world, id),
            demoralised: demoralised(world, id),
            victorious: flags(world, id).victorious,
        })
        .collect();
    let index = |u: UnitId| ids.iter().position(|i| *i == u).expect("on the map");
    let (off, def) = supports(board, &standing, index(a), index(d));
    let charge = charges(world, a, target);
    let mut attack = vec![corrected(world, a, target, charge)];
    attack.extend(off.iter().map(|&i| {
        corrected(
            world,
            ids[i],
            target,
            charge && charges(world, ids[i], target),
        )
    }));
    let mut defence = vec![corrected(world, d, target, false)];
    defence.extend(def.iter().map(|&i| {
        corrected(
            world,
            ids[i],
            hex_of(world, ids[i]).expect("on the map"),
            false,
        )
    }));
    reckon(world, (a, from), (d, target), charge, attack, defence)
}

/// The odds column and die modifiers of an attack of `a` in `from` on `d` in `target`,
/// each side's strengths found (MP combat: resolution, topography, morale difference,
/// terrain effects; MP movement: charge).
fn reckon(
    world: &World,
    (a, from): (UnitId, HexCoord),
    (d, target): (UnitId, HexCoord),
    charge: bool,
    attack: Vec<Strength>,
    defence: Vec<Strength>,
) -> AttackPlan {
    let board = world.res::<Board>();
    let tables = super::tables(world);
    let attack_total: i32 = attack.iter().map(|s| s.cs).sum();
    let defence_total: i32 = defence.iter().map(|s| s.cs).sum();
    let column = odds_column(&tables.crt, attack_total, defence_total);
    let mut modifiers = Vec::new();
    let topo = topography_modifier(board.elevation(from), board.elevation(target));
    if topo != 0 {
        modifiers.push((
            format!(
                "attacker {} the defender (MP combat: topography)",
                if topo > 0 { "above" } else { "below" }
            ),
            topo,
        ));
    }
    let (amv, dmv) = (values(world, a).mv as i32, values(world, d).mv as i32);
    let morale = morale_modifier(amv, dmv);
    if morale != 0 {
        modifiers.push((
            format!("morale {amv} against {dmv} (MP combat: morale difference)"),
            morale,
        ));
    }
    let ground = terrain_at(board, &tables, target);
    let cover = ground.defence.of(kind(world, d)) as i32;
    if cover != 0 {
        modifiers.push((
            format!(
                "defender in {} (MP combat: terrain effects, designer's)",
                ground.id
            ),
            -cover,
        ));
    }
    if let Some(w) = water_crossing(board, from, target) {
        let sides = &tables.terrain.hexsides;
        let m = match w {
            HexsideFeature::Bridge => sides.bridge.attack_die,
            HexsideFeature::Ford => sides.ford.attack_die,
            _ => sides.stream.attack_die,
        };
        if m != 0 {
            modifiers.push((
                format!(
                    "attacking across a {} (MP combat: terrain effects, designer's)",
                    format!("{w:?}").to_lowercase()
                ),
                m,
            ));
        }
    }
    let step = tables.charge.check_cs_step.max(1);
    let charge_threshold = dmv - (values(world, a).cs as i32 - values(world, d).cs as i32) / step;
    AttackPlan {
        attacker: a,
        defender: d,
        attacker_hex: from,
        defender_hex: target,
        attack,
        defence,
        attack_total,
        defence_total,
        column,
        modifiers,
        charge,
        charge_threshold,
    }
}

/// The chance that a charged defender passes its morale check (MP movement: charge):
/// 1 for a leader, who never checks; else the d9's faces `morale_check_passes` lets
/// through at the threshold `execute_attack` uses.
pub fn charge_check_pass_chance(world: &World, plan: &AttackPlan) -> f64 {
    if !plan.charge || kind(world, plan.defender) == Kind::Leader {
        return 1.0;
    }
    let threshold = check_threshold(plan.charge_threshold);
    (1..=9u8)
        .filter(|n| morale_check_passes(threshold, *n))
        .count() as f64
        / 9.0
}

/// The chance of each outcome an attack can give, exactly: in a charge, first the
/// defender's failed check (it retreats, no CRT die: MP movement: charge); then each
/// CRT cell by the d6 and the clamp (MP combat: results).
pub fn result_chances(world: &World, plan: &AttackPlan) -> Vec<(String, f64)> {
    let tables = super::tables(world);
    let pass = charge_check_pass_chance(world, plan);
    let mut out: Vec<(String, f64)> = Vec::new();
    if pass < 1.0 {
        out.push((
            "the charge breaks the defender: it fails its check and retreats (eliminated if it cannot), no CRT die".into(),
            1.0 - pass,
        ));
    }
    if pass > 0.0 {
        for die in 1..=6u8 {
            let row = modified_die(die, &[plan.die_modifier()]);
            let cell: Cell = tables.crt.cell(plan.column, row);
            let label = cell.to_string();
            match out.iter_mut().find(|(l, _)| *l == label) {
                Some((_, p)) => *p += pass / 6.0,
                None => out.push((label, pass / 6.0)),
            }
        }
    }
    out
}

/// "7 (+2 supports) against 3: 2-1".
pub fn odds_text(world: &World, plan: &AttackPlan) -> String {
    let tables = super::tables(world);
    format!(
        "{} against {}: {}",
        plan.attack_total, plan.defence_total, tables.crt.columns[plan.column]
    )
}

fn strengths_text(world: &World, s: &[Strength]) -> String {
    s.iter()
        .map(|x| {
            if x.note.is_empty() {
                format!("{} {}", plain_name(world, x.unit), x.cs)
            } else {
                format!("{} {} ({})", plain_name(world, x.unit), x.cs, x.note)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Resolves a checked attack (MP combat): the charge's morale check, else the die on
/// the CRT; losses, then the defender's and the attacker's morale checks and retreats,
/// the victorious markers, the morale point for an elimination, the advance.
pub fn execute_attack(world: &mut World, plan: AttackPlan) {
    let (a, d) = (plan.attacker, plan.defender);
    let supports: Vec<(UnitId, u8)> = plan.attack[1..]
        .iter()
        .chain(&plan.defence[1..])
        .map(|s| (s.unit, values(world, s.unit).mv))
        .collect();
    world.resource_mut::<LastCombat>().supports = supports;
    flags_mut(world, a).attacked = true;
    flags_mut(world, d).was_attacked = true;
    // The texts only when the log keeps them (autoplay does not).
    log(world, EventKind::CombatDeclared, "MP combat", |w| {
        format!(
            "{} attacks {} in {}{}: {} (attack: {}; defence: {})",
            plain_name(w, a),
            plain_name(w, d),
            plan.defender_hex,
            if plan.charge { ", charging" } else { "" },
            odds_text(w, &plan),
            strengths_text(w, &plan.attack),
            strengths_text(w, &plan.defence),
        )
    });
    let mut defender_out = None;
    let mut attacker_out = None;
    if plan.charge && kind(world, d) != Kind::Leader {
        let threshold = plan.charge_threshold;
        if !morale_check(world, d, threshold, "MP movement: charge") {
            defender_out = Some(retreat(
                world,
                d,
                plan.attacker_hex,
                plan.attacker_hex,
                Some(a),
            ));
            finish(world, &plan, attacker_out, defender_out);
            return;
        }
    }
    let die = super::roll(world, "MP combat: resolution", |w| {
        format!("the attack on {}", plain_name(w, d))
    });
    let mods = plan.die_modifier();
    let row = modified_die(die, &[mods]);
    let cell = super::tables(world).crt.cell(plan.column, row);
    log(world, EventKind::CombatResult, "MP combat: results", |_| {
        let modtext = plan
            .modifiers
            .iter()
            .map(|(why, m)| format!("{m:+} {why}"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "Die {die}{} → row {row}: {cell}",
            if modtext.is_empty() {
                String::new()
            } else {
                format!(" {modtext}")
            }
        )
    });
    if lose_cs(world, a, cell.attacker_loss, "MP combat: results") {
        attacker_out = Some(RetreatOutcome::Eliminated);
    }
    if lose_cs(world, d, cell.defender_loss, "MP combat: results") {
        defender_out = Some(RetreatOutcome::Eliminated);
    }
    if defender_out.is_none() && cell.defender_check {
        let mv = values(world, d).mv as i32;
        if !morale_check(world, d, mv, "MP combat: morale check") {
            defender_out = Some(retreat(
                world,
                d,
                plan.attacker_hex,
                plan.attacker_hex,
                Some(a),
            ));
        }
    }
    if attacker_out.is_none() && cell.attacker_check {
        let mv = values(world, a).mv as i32;
        if !morale_check(world, a, mv, "MP combat: morale check") {
            attacker_out = Some(retreat(
                world,
                a,
                plan.attacker_hex,
                plan.defender_hex,
                Some(a),
            ));
        }
    }
    finish(world, &plan, attacker_out, defender_out);
}

/// Victorious markers, the morale point for an elimination, and the advance (MP
/// combat: supports, results, advance after combat).
fn finish(
    world: &mut World,
    plan: &AttackPlan,
    attacker_out: Option<RetreatOutcome>,
    defender_out: Option<RetreatOutcome>,
) {
    let pairs = [
        (
            plan.attacker,
            plan.attacker_hex,
            defender_out,
            plan.defender_hex,
        ),
        (
            plan.defender,
            plan.defender_hex,
            attacker_out,
            plan.attacker_hex,
        ),
    ];
    let mut advances = Vec::new();
    for (unit, own_hex, opponent_out, opponent_hex) in pairs {
        if hex_of(world, unit) != Some(own_hex) || opponent_out.is_none() {
            continue;
        }
        flags_mut(world, unit).victorious = true;
        log(world, EventKind::CombatResult, "MP combat: supports", |w| {
            format!("{} is victorious", plain_name(w, unit))
        });
        if opponent_out == Some(RetreatOutcome::Eliminated) {
            regain_for_elimination(world, unit);
        }
        advances.push((unit, opponent_hex));
    }
    super::refresh_zones(world);
    for (unit, to) in advances {
        super::results::advance(world, unit, to);
    }
}

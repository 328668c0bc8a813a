//! Combat (AlC 12.1–12.3): who may attack whom, melee and archery, the strengths with
//! the leader (AlC 8), charge (AlC 10) and archery (AlC 12.2) modifiers, the odds
//! rounded for the defender with the terrain shift, the die and the CRT. The window's
//! preview calls `evaluate` and `result_chances`, the same code that resolves.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::Refusal;
use crate::engine::event::EventKind;
use crate::engine::game::GameOptions;

use super::AlcPhase;
use crate::engine::hex::{HexCoord, line_of_sight};
use crate::engine::units::UnitId;

use super::data::{CombatResult, Crt, Kind};
use super::*;

/// One line of the odds explanation: what it adds and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modifier {
    pub unit: UnitId,
    pub what: ModifierKind,
    pub value: i32,
    pub rule: &'static str,
}

/// What a modifier is, to be put in words only when someone reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModifierKind {
    Melee,
    ArcheryInMelee,
    /// The unit charges; a friendly leader stacked with it, if any, adds nothing.
    Charge(Option<UnitId>),
    Fires,
    Defends,
    /// This leader is stacked with the unit.
    Leader(UnitId),
}

impl Modifier {
    /// The modifier in words, e.g. "Onfroy (0907) stacked with Chevaliers Normands (0907)".
    pub fn text(&self, world: &World) -> String {
        let who = name(world, self.unit);
        match self.what {
            ModifierKind::Melee => format!("{who} in melee"),
            ModifierKind::ArcheryInMelee => format!("{who} is an archery unit in melee"),
            ModifierKind::Charge(None) => format!("{who} charges"),
            ModifierKind::Charge(Some(l)) => format!(
                "{who} charges ({}, stacked with it, adds nothing)",
                name(world, l)
            ),
            ModifierKind::Fires => format!("{who} fires"),
            ModifierKind::Defends => format!("{who} defends"),
            ModifierKind::Leader(l) => format!("{} stacked with {who}", name(world, l)),
        }
    }
}

/// An attack that passed its check, with everything the odds are made of.
#[derive(Clone, Debug)]
pub struct AttackPlan {
    pub target: HexCoord,
    pub defender: UnitId,
    pub melee: Vec<UnitId>,
    pub fire: Vec<UnitId>,
    /// Knights that charge (AlC 10).
    pub chargers: Vec<UnitId>,
    pub attack: i32,
    pub defense: i32,
    pub attack_modifiers: Vec<Modifier>,
    pub defense_modifiers: Vec<Modifier>,
    /// The odds column before and after the terrain shift (AlC 12.3).
    pub raw_column: usize,
    pub column: usize,
    pub column_shift: i32,
    pub die_modifier: i32,
}

/// The CRT column of an attack strength against a defence strength, rounded in favour
/// of the defender and capped at the table's first and last columns (AlC 12.3).
pub fn odds_column(crt: &Crt, attack: i32, defense: i32) -> usize {
    crate::rulesets::common::odds_column(&crt.ratios, attack, defense)
}

fn terrain_at(world: &World, hex: HexCoord) -> super::data::TerrainType {
    let board = world.res::<Board>();
    let t = board.terrain(hex).unwrap_or_default();
    world.resource::<AlcTables>().0.terrain.terrain[t.0 as usize].clone()
}

/// What blocks a line of fire at `x` when the option hills_block_fire is on (AlC 9):
/// a hill.
fn hill_blocks(world: &World, x: HexCoord) -> Option<&'static str> {
    terrain_at(world, x)
        .blocks_fire_by_option
        .then_some("a hill (AlC 9, option hills_block_fire)")
}

/// The line of fire from `from` to `to` with what blocks it (the line-of-sight tool):
/// nothing blocks fire in A la Charge unless the option hills_block_fire makes hills
/// block it (AlC 9).
pub fn line_of_fire(world: &World, from: HexCoord, to: HexCoord) -> crate::engine::hex::SightLine {
    let hills_block = world.resource::<GameOptions>().has("hills_block_fire");
    crate::engine::hex::sight_line(from, to, |x| {
        hills_block
            .then(|| hill_blocks(world, x))
            .flatten()
            .map(str::to_string)
    })
}

fn leader_bonus(world: &World, unit: UnitId, at: HexCoord, mods: &mut Vec<Modifier>) -> i32 {
    let side = side_of(world, unit);
    let mut total = 0;
    for l in leaders_at(world, at) {
        if side_of(world, l) == side {
            let r = rating(world, l);
            mods.push(Modifier {
                unit,
                what: ModifierKind::Leader(l),
                value: r,
                rule: "AlC 8",
            });
            total += r;
        }
    }
    total
}

/// Whether a knight attacking `defender` charges (AlC 10): it moved at least one hex in
/// open terrain this turn, and the defender did not just charge it.
pub fn charges(world: &World, knight: UnitId, defender: UnitId) -> bool {
    let f = flags(world, knight);
    unit(world, knight).kind == Kind::Knights
        && f.hexes_moved >= 1
        && f.entered_open
        && !f.charged_by.contains(&defender)
}

/// Checks an attack and computes its odds without touching the game.
pub fn evaluate(
    world: &World,
    melee: &[HexCoord],
    fire: &[HexCoord],
    target: HexCoord,
) -> Result<AttackPlan, Refusal> {
    let t = turn(world);
    if super::phase(world) != AlcPhase::Combat {
        return Err(Refusal::new(
            "AlC 6",
            "attacks are made only in the attacker's combat phase",
        ));
    }
    let board = world.res::<Board>();
    if !board.contains(target) {
        return Err(Refusal::new("AlC 12.1", format!("{target} is off the map")));
    }
    let defender = combat_unit_at(world, target)
        .filter(|d| side_of(world, *d) != t.active && !is_hidden(world, *d))
        .ok_or_else(|| {
            Refusal::new(
                "AlC 12.1",
                format!("there is no enemy combat unit in {target} to attack"),
            )
        })?;
    if flags(world, defender).was_attacked {
        return Err(Refusal::new(
            "AlC 12.1",
            format!(
                "{} has already been attacked this combat phase",
                name(world, defender)
            ),
        ));
    }
    let mut seen = Vec::new();
    let mut attackers = |hexes: &[HexCoord]| -> Result<Vec<UnitId>, Refusal> {
        let mut out = Vec::new();
        for &h in hexes {
            if seen.contains(&h) {
                return Err(Refusal::new(
                    "AlC 12.1",
                    format!("{h} is named twice in the attack"),
                ));
            }
            seen.push(h);
            let u = combat_unit_at(world, h)
                .filter(|u| side_of(world, *u) == t.active)
                .ok_or_else(|| {
                    Refusal::new(
                        "AlC 12.1",
                        format!("there is no friendly combat unit in {h} to attack with"),
                    )
                })?;
            movement::check_can_act(world, u)?;
            if flags(world, u).attacked {
                return Err(Refusal::new(
                    "AlC 12.1",
                    format!("{} has already attacked this combat phase", name(world, u)),
                ));
            }
            out.push(u);
        }
        Ok(out)
    };
    let melee_units = attackers(melee)?;
    let fire_units = attackers(fire)?;
    for (&u, &h) in melee_units.iter().zip(melee) {
        may_fight_from(world, u, h, target)?;
    }
    for (&u, &h) in fire_units.iter().zip(fire) {
        may_fire_from(world, u, h, target)?;
    }
    plan(
        world,
        (&melee_units, melee),
        (&fire_units, fire),
        (defender, target),
        |u| charges(world, u, defender),
    )
}

/// What a knights' charge adds to its attack (AlC 10).
pub const CHARGE_BONUS: i32 = 2;

/// Whether unit `u` in `h` may fight `target` in melee: adjacent, and not across an
/// unbridged river (AlC 12.1).
pub fn may_fight_from(
    world: &World,
    u: UnitId,
    h: HexCoord,
    target: HexCoord,
) -> Result<(), Refusal> {
    if !h.is_adjacent(target) {
        return Err(Refusal::new(
            "AlC 12.1",
            format!(
                "{} is not adjacent to {target}: melee needs adjacent units (archers may fire from range with `fire`)",
                name(world, u)
            ),
        ));
    }
    if world.res::<Board>().hexside(h, target).is_unbridged_river() {
        return Err(Refusal::new(
            "AlC 12.1",
            format!(
                "{} cannot fight across the river between {h} and {target}",
                name(world, u)
            ),
        ));
    }
    Ok(())
}

/// Whether unit `u` in `h` may fire on `target`: an archery unit, not adjacent, in
/// range, and with a line of fire where hills block it (AlC 12.1, 12.2).
pub fn may_fire_from(
    world: &World,
    u: UnitId,
    h: HexCoord,
    target: HexCoord,
) -> Result<(), Refusal> {
    let values = unit(world, u);
    if !values.kind.is_archery() {
        return Err(Refusal::new(
            "AlC 12.2",
            format!("{} is not an archery unit and cannot fire", name(world, u)),
        ));
    }
    let d = h.distance(target);
    if d < 2 {
        return Err(Refusal::new(
            "AlC 12.2",
            format!(
                "{} is adjacent to {target}: an archery unit fights an adjacent enemy in melee (designer's reading)",
                name(world, u)
            ),
        ));
    }
    if d > values.range {
        return Err(Refusal::new(
            "AlC 12.1",
            format!(
                "{target} is {d} hexes from {}, beyond its range of {}",
                name(world, u),
                values.range
            ),
        ));
    }
    if world.resource::<GameOptions>().has("hills_block_fire")
        && !line_of_sight(h, target, |x| hill_blocks(world, x).is_some())
    {
        return Err(Refusal::new(
            "AlC 9 (option hills_block_fire)",
            format!("a hill blocks the line of fire from {h} to {target}"),
        ));
    }
    Ok(())
}

/// The strengths, modifiers and odds column of an attack whose units may make it:
/// `evaluate`'s reckoning once its checks are passed, and the threat map's (`threats`)
/// for an attack a unit could make next phase. `charging` says which knights charge
/// (AlC 10). Refused only for archery alone at less than 1-1 (AlC 12.2).
pub fn plan(
    world: &World,
    (melee_units, melee): (&[UnitId], &[HexCoord]),
    (fire_units, fire): (&[UnitId], &[HexCoord]),
    (defender, target): (UnitId, HexCoord),
    charging: impl Fn(UnitId) -> bool,
) -> Result<AttackPlan, Refusal> {
    let mut attack_modifiers = Vec::new();
    let mut attack = 0;
    let mut chargers = Vec::new();
    for (&u, &h) in melee_units.iter().zip(melee) {
        let r = rating(world, u);
        attack_modifiers.push(Modifier {
            unit: u,
            what: ModifierKind::Melee,
            value: r,
            rule: "AlC 12.3",
        });
        attack += r;
        if unit(world, u).kind.is_archery() {
            attack_modifiers.push(Modifier {
                unit: u,
                what: ModifierKind::ArcheryInMelee,
                value: -1,
                rule: "AlC 12.2",
            });
            attack -= 1;
        }
        if charging(u) {
            chargers.push(u);
            attack_modifiers.push(Modifier {
                unit: u,
                what: ModifierKind::Charge(
                    leaders_at(world, h)
                        .into_iter()
                        .find(|l| side_of(world, *l) == side_of(world, u)),
                ),
                value: CHARGE_BONUS,
                rule: "AlC 10",
            });
            attack += CHARGE_BONUS;
        } else {
            attack += leader_bonus(world, u, h, &mut attack_modifiers);
        }
    }
    for (&u, &h) in fire_units.iter().zip(fire) {
        let r = rating(world, u);
        attack_modifiers.push(Modifier {
            unit: u,
            what: ModifierKind::Fires,
            value: r,
            rule: "AlC 12.2",
        });
        attack += r + leader_bonus(world, u, h, &mut attack_modifiers);
    }
    let mut defense_modifiers = Vec::new();
    let mut defense = rating(world, defender);
    defense_modifiers.push(Modifier {
        unit: defender,
        what: ModifierKind::Defends,
        value: defense,
        rule: "AlC 12.3",
    });
    if unit(world, defender).kind.is_archery() && !melee_units.is_empty() {
        defense_modifiers.push(Modifier {
            unit: defender,
            what: ModifierKind::ArcheryInMelee,
            value: -1,
            rule: "AlC 12.2",
        });
        defense -= 1;
    }
    defense += leader_bonus(world, defender, target, &mut defense_modifiers);

    let tables = tables(world);
    let crt = &tables.crt;
    let raw_column = odds_column(crt, attack, defense);
    let terrain = terrain_at(world, target);
    let column = raw_column.saturating_sub(terrain.defender_column_shift.max(0) as usize);
    if melee_units
        .iter()
        .chain(fire_units)
        .all(|u| unit(world, *u).kind.is_archery())
        && column < crt.even_column()
    {
        return Err(Refusal::new(
            "AlC 12.2",
            format!(
                "archery units by themselves cannot attack at less than 1-1 (the odds are {})",
                crt.columns[column]
            ),
        ));
    }
    Ok(AttackPlan {
        target,
        defender,
        melee: melee_units.to_vec(),
        fire: fire_units.to_vec(),
        chargers,
        attack,
        defense,
        attack_modifiers,
        defense_modifiers,
        raw_column,
        column,
        column_shift: terrain.defender_column_shift,
        die_modifier: terrain.die_modifier,
    })
}

/// The exact chance of each result of a planned attack: the die's six faces through the
/// same CRT lookup that resolves it.
pub fn result_chances(world: &World, plan: &AttackPlan) -> Vec<(CombatResult, f64)> {
    let tables = tables(world);
    let mut out: Vec<(CombatResult, f64)> = Vec::new();
    for die in 1..=6 {
        let r = tables.crt.result(plan.column, die + plan.die_modifier);
        match out.iter_mut().find(|(x, _)| *x == r) {
            Some((_, p)) => *p += 1.0 / 6.0,
            None => out.push((r, 1.0 / 6.0)),
        }
    }
    out
}

/// A one-line summary of the odds: "7 vs 3 = 2-1, hill: 1-1".
pub fn odds_text(world: &World, plan: &AttackPlan) -> String {
    let tables = tables(world);
    let cols = &tables.crt.columns;
    let mut s = format!(
        "{} against {}: {}",
        plan.attack, plan.defense, cols[plan.raw_column]
    );
    if plan.column != plan.raw_column {
        s.push_str(&format!(
            ", {} column(s) left for the defender's {}: {}",
            plan.raw_column - plan.column,
            world.res::<Board>().terrain_name(plan.target),
            cols[plan.column]
        ));
    }
    s
}

/// Resolves a checked attack: the die, the CRT, and the results queued for applying.
pub fn execute_attack(world: &mut World, plan: AttackPlan) {
    log(world, EventKind::CombatDeclared, "AlC 12.3", |w| {
        let all: Vec<String> = plan
            .melee
            .iter()
            .chain(&plan.fire)
            .map(|u| name(w, *u))
            .collect();
        let details: Vec<String> = plan
            .attack_modifiers
            .iter()
            .chain(&plan.defense_modifiers)
            .map(|m| format!("{} {:+} ({})", m.text(w), m.value, m.rule))
            .collect();
        format!(
            "{} attack {}: {} [{}]",
            all.join(", "),
            name(w, plan.defender),
            odds_text(w, &plan),
            details.join("; ")
        )
    });
    for u in plan.melee.iter().chain(&plan.fire) {
        flags_mut(world, *u).attacked = true;
    }
    for u in plan.melee.iter().chain(&plan.fire) {
        if is_hidden(world, *u) {
            setup::reveal(world, *u, "it attacks");
        }
    }
    {
        let mut f = flags_mut(world, plan.defender);
        f.was_attacked = true;
        f.charged_by.extend(plan.chargers.iter().copied());
    }
    let die = roll(world, "AlC 12.3", |w| {
        format!("combat against {}", name(w, plan.defender))
    });
    let tables = tables(world);
    let modified = die as i32 + plan.die_modifier;
    let result = tables.crt.result(plan.column, modified);
    let column = tables.crt.columns[plan.column].clone();
    log(world, EventKind::CombatResult, "AlC 12.4", |_| {
        format!("{column}, die {modified}: {result}")
    });
    results::enqueue_combat_result(world, &plan, result);
}

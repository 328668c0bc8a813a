//! Action points (CdB 4): the dice per corps and their assignment, the cost of
//! activating a unit or a group with every modifier, allied corps' reliability (4.3)
//! and keeping units in control (4.2, 9.5, 12.3).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::command::{Refusal, UnitRef};
use crate::engine::event::EventKind;
use crate::engine::hex::line_of_sight;
use crate::engine::units::{Placement, SideId, UnitId};

use super::data::{Kind, Quality, TerrainClass};
use super::*;

/// Whether the CinC of a side is alive and on the map.
pub(crate) fn cinc_alive(world: &World, side: SideId) -> bool {
    state(world).cinc[side.0 as usize].is_some_and(|c| hex_of(world, c).is_some())
}

fn corps_alive(world: &World, corps: usize) -> bool {
    all_units(world)
        .into_iter()
        .any(|u| unit(world, u).corps as usize == corps && hex_of(world, u).is_some())
}

/// CdB 4.1 on entering the action-point step: the dice of the player whose sequence it is.
pub(crate) fn roll_action_points_of_sequence(world: &mut World) {
    let side = sequence_side(world);
    roll_action_points(world, side);
}

/// CdB 4.1: one die per corps. Irregular generals' corps, allied corps, and every
/// corps once the CinC is dead, have their die named before the throw; the regular
/// generals' dice are assigned after it.
pub(crate) fn roll_action_points(world: &mut World, side: SideId) {
    let cinc_dead = !state(world).simple_game && !cinc_alive(world, side);
    let corps: Vec<usize> = (0..state(world).corps.len())
        .filter(|c| state(world).corps[*c].side == side && corps_alive(world, *c))
        .collect();
    let mut pool = Vec::new();
    for c in corps {
        let co = state(world).corps[c].clone();
        let fixed = !co.regular || co.allied || cinc_dead;
        if fixed {
            let die = roll(world, "CdB 4.1", |_| {
                format!("the action points of {} corps", possessive(&co.name))
            });
            apply_die(world, c, die);
        } else {
            pool.push(c);
        }
    }
    if !pool.is_empty() {
        let dice: Vec<u8> = pool
            .iter()
            .map(|_| {
                roll(world, "CdB 4.1", |_| {
                    "a regular general's action points".into()
                })
            })
            .collect();
        let all_same = dice.windows(2).all(|w| w[0] == w[1]);
        if pool.len() == 1 || all_same {
            for (c, d) in pool.iter().zip(&dice) {
                apply_die(world, *c, *d);
            }
        } else {
            let names: Vec<String> = pool
                .iter()
                .map(|c| state(world).corps[*c].name.clone())
                .collect();
            let thrown: Vec<String> = dice.iter().map(u8::to_string).collect();
            world.resource_mut::<CdbState>().unassigned = dice;
            log(world, EventKind::Special, "CdB 4.1", |w| {
                format!(
                    "{} throws {} for the corps of the regular generals ({}): to be assigned",
                    side_name(w, side),
                    thrown.join(" and "),
                    names.join(", ")
                )
            });
        }
    }
    if cinc_alive(world, side) {
        world.resource_mut::<CdbState>().cinc_extra[side.0 as usize] = 1;
        log(world, EventKind::Special, "CdB 4.2", |w| {
            let cinc = state(w).cinc[side.0 as usize].map(|c| name(w, c));
            format!(
                "{}, the Commander-in-Chief, has 1 additional PA this turn, for himself or a group he leads",
                cinc.unwrap_or_default()
            )
        });
    }
    if state(world).unassigned.is_empty() {
        begin_movement(world);
    }
}

/// Gives a corps its die, with the allied corps' reliability (CdB 4.3) and the test
/// of a corps whose general fell (CdB 12.2).
fn apply_die(world: &mut World, c: usize, die: u8) {
    {
        let mut st = world.resource_mut::<CdbState>();
        st.corps[c].ap = die as i32;
        st.corps[c].die = Some(die);
    }
    let co = state(world).corps[c].clone();
    log(world, EventKind::Special, "CdB 4.1", |_| {
        format!("{} corps has {die} action points", possessive(&co.name))
    });
    if co.allied {
        match co.unreliable {
            None => {
                let unreliable = die <= 2;
                world.resource_mut::<CdbState>().corps[c].unreliable = Some(unreliable);
                if unreliable {
                    log(world, EventKind::Special, "CdB 4.3", |_| {
                        format!(
                            "{} allied corps rolled {die} on its first AP roll: unreliable",
                            possessive(&co.name)
                        )
                    });
                }
            }
            Some(true) if die == 6 => set_reliable(world, c, "a 6 on its AP roll"),
            _ => {}
        }
    }
    if co.death_test == DeathTest::Due {
        let lost = morale::corps_lost_halves(world, c);
        world.resource_mut::<CdbState>().corps[c].death_test = DeathTest::Done;
        let demoralised = (die as i32) * 2 <= lost;
        log(world, EventKind::MoraleCheck, "CdB 12.2", |_| {
            format!(
                "{} general is dead: die {die} against {} counter equivalents lost: {}",
                possessive(&co.name),
                lost as f32 / 2.0,
                if demoralised {
                    "the corps is demoralised"
                } else {
                    "the corps holds"
                }
            )
        });
        if demoralised {
            morale::demoralise(world, c);
        }
    }
}

/// An unreliable allied corps becomes reliable (CdB 4.3).
pub(crate) fn set_reliable(world: &mut World, c: usize, why: &str) {
    if state(world).corps[c].unreliable != Some(true) {
        return;
    }
    world.resource_mut::<CdbState>().corps[c].unreliable = Some(false);
    let why = why.to_string();
    log(world, EventKind::Special, "CdB 4.3", |w| {
        format!(
            "{} allied corps is no longer unreliable: {why}",
            possessive(&w.res::<CdbState>().corps[c].name)
        )
    });
}

pub(crate) fn check_assign(
    world: &World,
    dice: &[(String, u8)],
) -> Result<Vec<(usize, u8)>, Refusal> {
    let st = state(world);
    if st.step != CdbPhase::Command || st.unassigned.is_empty() {
        return Err(Refusal::new(
            "CdB 4.1",
            "no action-point dice wait to be assigned",
        ));
    }
    let side = sequence_side(world);
    let cinc_dead = !state(world).simple_game && !cinc_alive(world, side);
    let mut out = Vec::new();
    let mut left = st.unassigned.clone();
    for (id, die) in dice {
        let Some(c) = st.corps.iter().position(|c| &c.id == id && c.side == side) else {
            return Err(Refusal::new(
                "CdB 4.1",
                format!("`{id}` is not a corps of the side to act"),
            ));
        };
        let co = &st.corps[c];
        if !co.regular || co.allied || cinc_dead || co.die.is_some() {
            return Err(Refusal::new(
                "CdB 4.1",
                format!(
                    "{} corps already has its die: only regular generals' dice are assigned after the throw",
                    possessive(&co.name)
                ),
            ));
        }
        if out.iter().any(|(o, _)| *o == c) {
            return Err(Refusal::new(
                "CdB 4.1",
                format!("{} corps is named twice", possessive(&co.name)),
            ));
        }
        let Some(i) = left.iter().position(|d| d == die) else {
            return Err(Refusal::new(
                "CdB 4.1",
                format!("no die of {die} is waiting (thrown: {:?})", st.unassigned),
            ));
        };
        left.remove(i);
        out.push((c, *die));
    }
    if !left.is_empty() {
        return Err(Refusal::new(
            "CdB 4.1",
            format!("assign every die: {left:?} left"),
        ));
    }
    Ok(out)
}

pub(crate) fn execute_assign(world: &mut World, dice: &[(String, u8)]) {
    let plan = check_assign(world, dice).expect("checked before execution");
    world.resource_mut::<CdbState>().unassigned.clear();
    let side = sequence_side(world);
    let given: Vec<String> = plan
        .iter()
        .map(|(c, d)| format!("{d} to {} corps", possessive(&state(world).corps[*c].name)))
        .collect();
    log(world, EventKind::Special, "CdB 4.1", |w| {
        format!("{} assigns {}", side_name(w, side), given.join(", "))
    });
    for (c, d) in plan {
        apply_die(world, c, d);
    }
    begin_movement(world);
}

/// Irregulars (except skirmishers and cavalry (O)/(S)) and regulars (I) (except light
/// troops): the units whose turns and unspent MP cost an extra PA (CdB 4.2).
pub(crate) fn needs_drilling(p: &data::Profile) -> bool {
    if p.regular {
        p.quality == Quality::I && !p.kind.is_light()
    } else {
        !(p.kind.is_skirmisher()
            || (p.kind == Kind::Cv && matches!(p.quality, Quality::O | Quality::S)))
    }
}

/// What an activation did, for its cost (CdB 4.2).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ActivationFacts {
    pub turned: bool,
    /// Some unit (not Psiloi) left MP unspent.
    pub mp_unspent: bool,
    /// Some unit ended beside an enemy, a river or impassable terrain.
    pub ended_beside_obstacle: bool,
    /// The impulse number of this movement this turn (1 = first).
    pub impulse: u8,
    pub keep: bool,
}

/// The cost of activating `units` of corps `c`, with each modifier and its rule.
pub(crate) fn activation_cost(
    world: &World,
    c: usize,
    units: &[UnitId],
    facts: ActivationFacts,
) -> (i32, Vec<String>) {
    ActivationBase::of(world, c, units).cost(world, units, facts)
}

/// What the cost of activating some units reads of the world whatever they do: their
/// profiles, the Commander-in-Chief and the corps' general (CdB 4.2). A search of
/// their marches reads it once, then costs each march by its facts.
pub(crate) struct ActivationBase {
    drilled: bool,
    irregular: bool,
    irregular_not_skirmisher: bool,
    /// The Commander-in-Chief's and the general's modifiers, with their lines.
    after: (i32, Vec<&'static str>),
}

impl ActivationBase {
    pub(crate) fn of(world: &World, c: usize, units: &[UnitId]) -> ActivationBase {
        let profiles: Vec<_> = units.iter().map(|u| unit(world, *u).p).collect();
        let (mut cost, mut why) = (0, Vec::new());
        let side = side_of(world, units[0]);
        let st = state(world);
        let cinc = st.cinc[side.0 as usize];
        if let Some(ci) = cinc
            && units.contains(&ci)
            && !st.cinc_discount_used[side.0 as usize]
        {
            cost -= 1;
            why.push("-1 led by the Commander-in-Chief, once a turn (CdB 4.2)");
        }
        let general = st.corps[c].general;
        match hex_of(world, general) {
            None => {
                cost += 1;
                why.push("+1 the corps' general has left the map or was eliminated (CdB 4.2)");
            }
            Some(gh) => {
                if units.iter().any(|u| !in_command(world, *u, general, gh)) {
                    cost += 1;
                    why.push("+1 beyond command distance of its general (CdB 4.2)");
                }
                let enemies = EnemyLookup::new(world, side);
                if gh.neighbors().into_iter().any(|n| enemies.at(n).is_some()) {
                    cost += 1;
                    why.push("+1 its general is adjacent to an enemy unit (CdB 4.2)");
                }
            }
        }
        ActivationBase {
            drilled: profiles.iter().any(needs_drilling),
            irregular: profiles.iter().any(|p| !p.regular),
            irregular_not_skirmisher: profiles
                .iter()
                .any(|p| !p.regular && !p.kind.is_skirmisher()),
            after: (cost, why),
        }
    }

    /// The cost of an activation of `units` (those the base was read for) that did what
    /// `facts` say.
    pub(crate) fn cost(
        &self,
        world: &World,
        units: &[UnitId],
        facts: ActivationFacts,
    ) -> (i32, Vec<String>) {
        let mut cost = 1;
        let mut why = Vec::with_capacity(2 + self.after.1.len());
        why.push("1 to activate (CdB 4.2)".to_string());
        let drilled = self.drilled;
        if facts.keep {
            if self.irregular && !units.iter().all(|u| holds_advantage(world, *u)) {
                cost += 1;
                why.push("+1 irregular troops kept in control (CdB 4.2)".into());
            }
        } else {
            if drilled && facts.turned {
                cost += 1;
                why.push("+1 irregulars or regulars (I) change facing (CdB 4.2)".into());
            }
            if drilled && facts.mp_unspent && !facts.ended_beside_obstacle {
                cost += 1;
                why.push("+1 irregulars or regulars (I) leave MP unspent (CdB 4.2)".into());
            }
            // "A second or subsequent march movement": the first move of the turn is a
            // normal one, marches are the moves after it (CdB 9.3), so the surcharge
            // starts with the third move, as example 3 counts it (0, then 2, then 2 PA).
            if facts.impulse >= 3 && self.irregular_not_skirmisher {
                cost += 1;
                why.push(
                    "+1 irregulars' second or later march movement (CdB 4.2, 9.3, example 3)"
                        .into(),
                );
            }
        }
        cost += self.after.0;
        why.extend(self.after.1.iter().map(|l| l.to_string()));
        (cost.max(0), why)
    }
}

/// CdB 4.2: within 12 hexes of its general in sight, or within 5 hexes out of sight;
/// the command distance cannot cross an enemy unit or impassable terrain.
fn in_command(world: &World, u: UnitId, general: UnitId, gh: crate::engine::hex::HexCoord) -> bool {
    if u == general {
        return true;
    }
    let Some(h) = hex_of(world, u) else {
        return true;
    };
    let d = h.distance(gh);
    // Within 5 hexes in command seen or not, beyond 12 out of it seen or not: the
    // line of sight decides between.
    if !(6..=12).contains(&d) {
        return d < 6;
    }
    let side = side_of(world, u);
    let sight = position::Sight::of(world);
    let enemies = EnemyLookup::new(world, side);
    let seen = line_of_sight(h, gh, |x| {
        x != h
            && x != gh
            && (sight.blocks(x, h, gh)
                || enemies.at(x).is_some()
                || terrain_class(world, x) == TerrainClass::Impassable)
    });
    if seen { d <= 12 } else { d < 6 }
}

/// Foot troops holding a position of advantage need no extra PA to be kept in control
/// (CdB 4.2): in broken or difficult terrain, higher than the nearest enemy, or behind
/// a river.
fn holds_advantage(world: &World, u: UnitId) -> bool {
    let p = unit(world, u).p;
    if p.kind.is_mounted() {
        return false;
    }
    let Some(h) = hex_of(world, u) else {
        return false;
    };
    if rough(world, h) {
        return true;
    }
    let side = side_of(world, u);
    let board = world.res::<Board>();
    // Hidden ambushers are not known to the player: not "the nearest enemy".
    let nearest = all_units(world)
        .into_iter()
        .filter(|e| side_of(world, *e) != side && !is_hidden(world, *e))
        .filter_map(|e| hex_of(world, e))
        .min_by_key(|e| (e.distance(h), *e));
    if let Some(e) = nearest
        && board.elevation(h) > board.elevation(e)
    {
        return true;
    }
    facing(world, u)
        .front(h)
        .into_iter()
        .any(|f| board.hexside(h, f).has(HexsideFeature::River))
}

/// Spends a corps' action points, the CinC's extra PA first when he leads; returns the
/// part his extra PA paid.
pub(crate) fn pay(world: &mut World, c: usize, units: &[UnitId], cost: i32) -> i32 {
    let side = state(world).corps[c].side;
    let cinc = state(world).cinc[side.0 as usize];
    let mut st = world.resource_mut::<CdbState>();
    let mut cost = cost;
    if let Some(ci) = cinc
        && units.contains(&ci)
    {
        if !st.cinc_discount_used[side.0 as usize] {
            st.cinc_discount_used[side.0 as usize] = true;
        }
        let extra = st.cinc_extra[side.0 as usize].min(cost);
        st.cinc_extra[side.0 as usize] -= extra;
        cost -= extra;
        st.corps[c].ap -= cost;
        return extra;
    }
    st.corps[c].ap -= cost;
    0
}

/// How a payment was made, for the log: ", 1 of it the Commander-in-Chief's
/// additional PA" (CdB 4.2), or nothing.
pub(crate) fn paid_by_cinc(extra: i32) -> &'static str {
    if extra > 0 {
        ", 1 of it the Commander-in-Chief's additional PA"
    } else {
        ""
    }
}

/// What a corps has left: "2 left", and the CinC's additional PA when he stands in the
/// corps and has not spent it (CdB 4.2).
pub(crate) fn left_text(world: &World, c: usize) -> String {
    format!(
        "{} left{}",
        state(world).corps[c].ap,
        cinc_extra_text(world, c)
    )
}

/// " and the Commander-in-Chief's additional PA" while he stands in corps `c` and has
/// not spent it (CdB 4.2), else nothing.
pub(crate) fn cinc_extra_text(world: &World, c: usize) -> &'static str {
    let st = state(world);
    let side = st.corps[c].side;
    let extra = st.cinc_extra[side.0 as usize] > 0
        && st.cinc[side.0 as usize].is_some_and(|ci| unit(world, ci).corps as usize == c);
    if extra {
        " and the Commander-in-Chief's additional PA"
    } else {
        ""
    }
}

/// The action points available to activate `units` of corps `c`.
pub(crate) fn available(world: &World, c: usize, units: &[UnitId]) -> i32 {
    let st = state(world);
    let side = st.corps[c].side;
    let extra = match st.cinc[side.0 as usize] {
        Some(ci) if units.contains(&ci) => st.cinc_extra[side.0 as usize],
        _ => 0,
    };
    st.corps[c].ap + extra
}

/// A keep-in-control order, checked.
pub(crate) struct KeepPlan {
    pub corps: usize,
    pub units: Vec<UnitId>,
    pub cost: i32,
}

pub(crate) fn check_keep(world: &World, refs: &[UnitRef]) -> Result<KeepPlan, Refusal> {
    if state(world).step != CdbPhase::Movement {
        return Err(Refusal::new(
            "CdB 4.2",
            "units are kept in control in the movement phase",
        ));
    }
    let side = sequence_side(world);
    let mut units = Vec::new();
    for r in refs {
        for u in stack_of(world, resolve(world, r)?) {
            if !units.contains(&u) {
                units.push(u);
            }
        }
    }
    for u in &units {
        if side_of(world, *u) != side || placement(world, *u) == Placement::Waiting {
            return Err(Refusal::new(
                "CdB 4.2",
                format!(
                    "{} is not a unit of the side to act on the map",
                    name(world, *u)
                ),
            ));
        }
        if flags(world, *u).kept {
            return Err(Refusal::new(
                "CdB 4.2",
                format!("{} is already kept in control", name(world, *u)),
            ));
        }
        if flags(world, *u).hexes_moved > 0 {
            return Err(Refusal::new(
                "CdB 9.5",
                format!("{} has moved: it needs no keeping", name(world, *u)),
            ));
        }
        if !morale::is_impetuous(world, *u) && !corps_of(world, *u).demoralised {
            return Err(Refusal::new(
                "CdB 4.2",
                format!(
                    "{} is neither impetuous nor of a demoralised corps: it needs no keeping",
                    name(world, *u)
                ),
            ));
        }
    }
    let c = unit(world, units[0]).corps as usize;
    if units.iter().any(|u| unit(world, *u).corps as usize != c) {
        return Err(Refusal::new(
            "CdB 5.1",
            "a group is made of units of one corps",
        ));
    }
    stacking::check_is_group(world, &units)?;
    let (cost, why) = activation_cost(
        world,
        c,
        &units,
        ActivationFacts {
            keep: true,
            impulse: 1,
            ..default()
        },
    );
    let have = available(world, c, &units);
    if cost > have {
        return Err(Refusal::new(
            "CdB 4.2",
            format!(
                "keeping them costs {cost} PA ({}); the corps has {have}",
                why.join(", ")
            ),
        ));
    }
    Ok(KeepPlan {
        corps: c,
        units,
        cost,
    })
}

pub(crate) fn execute_keep(world: &mut World, plan: KeepPlan) {
    let extra = pay(world, plan.corps, &plan.units, plan.cost);
    for u in &plan.units {
        flags_mut(world, *u).kept = true;
    }
    let cost = plan.cost;
    let units = plan.units.clone();
    log(world, EventKind::Special, "CdB 4.2", |w| {
        format!(
            "{} kept in control for {cost} PA{}; {} corps has {}",
            units
                .iter()
                .map(|u| name(w, *u))
                .collect::<Vec<_>>()
                .join(", "),
            paid_by_cinc(extra),
            possessive(&state(w).corps[plan.corps].name),
            left_text(w, plan.corps)
        )
    });
}

//! Impetuous troops and their spontaneous advances (CdB 2.5, 9.5), demoralisation
//! (12) with the flight of demoralised corps, and victory (13).

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::event::EventKind;
use crate::engine::game::{GameOptions, Outcome, ScenarioInfo, TurnState};
use crate::engine::hex::{HexCoord, VertexFacing, line_step};
use crate::engine::phase::PhaseView;
use crate::engine::scenario::VictoryLevel;
use crate::engine::units::{Placement, SideId, UnitId};

use super::data::{Kind, Quality, TerrainClass};
use super::*;

mod reach;

/// CdB 2.5: irregular Kn (S)/(O)/(F), Warbands, Spears (not stacked with Bw (X)),
/// Blades (S)/(O); and any unit but baggage nearer a demoralised enemy than an
/// undemoralised one. Never units of a demoralised corps.
pub(crate) fn is_impetuous(world: &World, u: UnitId) -> bool {
    let c = corps_of(world, u);
    if c.demoralised {
        return false;
    }
    let p = unit(world, u).p;
    if p.kind == Kind::Bag {
        return false;
    }
    let by_type = !p.regular
        && match p.kind {
            Kind::Kn => matches!(p.quality, Quality::S | Quality::O | Quality::F),
            Kind::Wb => true,
            Kind::Sp => !stack_of(world, u).iter().any(|x| {
                *x != u && kind(world, *x) == Kind::Bw && unit(world, *x).p.quality == Quality::X
            }),
            Kind::Bd => matches!(p.quality, Quality::S | Quality::O),
            _ => false,
        };
    if by_type {
        return true;
    }
    // Nearer a demoralised enemy: none while no corps is demoralised.
    if !state(world).corps.iter().any(|c| c.demoralised) {
        return false;
    }
    let Some(h) = hex_of(world, u) else {
        return false;
    };
    let side = side_of(world, u);
    let mut near_demoralised = u32::MAX;
    let mut near_other = u32::MAX;
    for e in all_units(world) {
        if side_of(world, e) == side || is_hidden(world, e) {
            continue;
        }
        let Some(eh) = hex_of(world, e) else { continue };
        let d = eh.distance(h);
        if corps_of(world, e).demoralised {
            near_demoralised = near_demoralised.min(d);
        } else {
            near_other = near_other.min(d);
        }
    }
    near_demoralised < near_other
}

/// Whether a hex lies in the frontal arc of a unit at `h` facing `f`: the line to it
/// leaves through a frontal hex.
fn in_front_arc(f: VertexFacing, h: HexCoord, target: HexCoord) -> bool {
    let front = f.front(h);
    // The line's second hex (or hexside pair) alone, not the whole line.
    front.contains(&target)
        || (h != target && {
            let (x, y) = line_step(h, target, 1);
            front.contains(&x) || y.is_some_and(|y| front.contains(&y))
        })
}

/// The enemies an impetuous unit may advance on (CdB 9.5): at the first priority that
/// has any (1. the nearest within 4 hexes, 2. the nearest enemy baggage in view, 3. the
/// nearest in movement points), the nearest ones, with and without the enemies it may
/// ignore (mounted units: those in broken terrain or fortifications; all units:
/// skirmishers outside their frontal arc). Several: its player chooses (example 5).
pub(crate) fn advance_options(world: &World, u: UnitId) -> Vec<UnitId> {
    let Some(h) = hex_of(world, u) else {
        return Vec::new();
    };
    let side = side_of(world, u);
    let f = facing(world, u);
    let mounted = kind(world, u).is_mounted();
    // One pass of the position query over the army (no component look-up per unit),
    // then in id order; the stack's size from the unit index.
    let units = world.res::<crate::engine::units::Units>();
    let board = world.res::<Board>();
    let mut all: Vec<(UnitId, HexCoord)> = {
        let scan = world.resource::<PositionScan>();
        let mut q = scan.0.lock().unwrap_or_else(|poison| poison.into_inner());
        q.iter(world)
            .filter(|(_, _, s, hidden, _)| **s != side && !hidden)
            .filter_map(|(e, p, _, _, fl)| {
                let eh = p.hex()?;
                (fl.rank == 0 || units.at(board, eh).len() == 1).then_some((*e, eh))
            })
            .collect()
    };
    all.sort_unstable_by_key(|x| x.0);
    let ignorable = |e: UnitId, eh: HexCoord| {
        (mounted && (terrain_class(world, eh) == TerrainClass::Broken || fortified(world, eh)))
            || (kind(world, e).is_skirmisher() && !in_front_arc(f, h, eh))
    };
    let kept: Vec<(UnitId, HexCoord)> = all
        .iter()
        .copied()
        .filter(|(e, eh)| !ignorable(*e, *eh))
        .collect();
    let mut mp_costs = None;
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for list in [kept, all] {
        for t in nearest_by_priority(world, u, h, &list, &mut mp_costs, &mut seen) {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// The nearest enemies of `list` at the first of the three priorities of CdB 9.5 that
/// has any; `mp_costs` keeps the search of the movement points to face each hex, `seen` the lines
/// of sight to baggage hexes.
fn nearest_by_priority(
    world: &World,
    u: UnitId,
    h: HexCoord,
    list: &[(UnitId, HexCoord)],
    mp_costs: &mut Option<reach::FaceSearch>,
    seen: &mut Vec<(HexCoord, bool)>,
) -> Vec<UnitId> {
    let ties = |scored: Vec<(i32, UnitId)>| -> Vec<UnitId> {
        let best = scored.iter().map(|x| x.0).min();
        let mut out: Vec<(i32, UnitId)> =
            scored.into_iter().filter(|x| Some(x.0) == best).collect();
        out.sort();
        out.into_iter().map(|x| x.1).collect()
    };
    let within4: Vec<(i32, UnitId)> = list
        .iter()
        .filter(|(_, eh)| eh.distance(h) <= 4)
        .map(|(e, eh)| (eh.distance(h) as i32, *e))
        .collect();
    if !within4.is_empty() {
        return ties(within4);
    }
    // The nearest baggage in view: lines of sight drawn nearest first, none beyond the
    // distance of the first seen, each at most once for both lists (`seen`).
    let sight = position::Sight::of(world);
    let mut bags: Vec<(i32, UnitId, HexCoord)> = list
        .iter()
        .filter(|(e, _)| kind(world, *e) == Kind::Bag)
        .map(|(e, eh)| (eh.distance(h) as i32, *e, *eh))
        .collect();
    bags.sort_by_key(|b| b.0);
    let mut baggage: Vec<(i32, UnitId)> = Vec::new();
    for (d, e, eh) in bags {
        if baggage.first().is_some_and(|b| d > b.0) {
            break;
        }
        let visible = match seen.iter().find(|s| s.0 == eh) {
            Some(s) => s.1,
            None => {
                let v = sight.clear(h, eh);
                seen.push((eh, v));
                v
            }
        };
        if visible {
            baggage.push((d, e));
        }
    }
    if !baggage.is_empty() {
        return ties(baggage);
    }
    let board = world.res::<Board>();
    let targets: Vec<usize> = list.iter().filter_map(|(_, eh)| board.index(*eh)).collect();
    let search = mp_costs.get_or_insert_with(|| reach::FaceSearch::new(world, u));
    search.settle(world, &targets);
    let costs = &search.to_face;
    let by_mp: Vec<(i32, UnitId)> = list
        .iter()
        .filter_map(|(e, eh)| {
            let c = *costs.get(board.index(*eh)?)?;
            (c != i32::MAX).then_some((c, *e))
        })
        .collect();
    if by_mp.is_empty() {
        // Out of reach everywhere: the nearest in hexes.
        return ties(
            list.iter()
                .map(|(e, eh)| (eh.distance(h) as i32, *e))
                .collect(),
        );
    }
    ties(by_mp)
}

/// The player's choice of target for the advance waiting (CdB 9.5): it is made.
pub(crate) fn decide_advance_target(world: &mut World, target: UnitId) {
    let Some(Pending::AdvanceTarget { unit: u, .. }) =
        world.resource_mut::<CdbState>().pending.pop_front()
    else {
        return;
    };
    flags_mut(world, u).advance_checked = true;
    spontaneous_advance(world, u, Some(target));
}

/// A spontaneous advance (CdB 9.5): alone, its full allowance, facing the target
/// first, stopping once an enemy is in its zone or the way is barred.
/// `target`: the player's choice; without one, the first of the options.
fn spontaneous_advance(world: &mut World, u: UnitId, target: Option<UnitId>) {
    // Units that advanced or fled before this one changed the zones it reads.
    refresh_zoc(world);
    let Some(target) = target.or_else(|| advance_options(world, u).first().copied()) else {
        return;
    };
    let side = side_of(world, u);
    let stack = stack_of(world, u);
    // Its allowance as for a move (CdB 2.8 mounted infantry; 9.6: mounted units have 2
    // MP in difficult terrain, starting there included).
    let mut mp = stack
        .iter()
        .map(|x| movement::movement_allowance(world, *x))
        .min()
        .unwrap_or(0);
    let mut at = hex_of(world, u).expect("on the map");
    if kind(world, u).is_mounted() && terrain_class(world, at) == TerrainClass::Difficult {
        mp = mp.min(2);
    }
    let th = hex_of(world, target).expect("on the map");
    let mut f = facing(world, u);
    let mut spent = 0;
    let start = at;
    let mut path = Vec::new();
    if !in_front_arc(f, at, th) {
        let (nf, turns) = [1i32, -1, 2, -2, 3]
            .into_iter()
            .map(|d| {
                (
                    VertexFacing(((f.0 as i32 + d).rem_euclid(6)) as u8),
                    d.abs(),
                )
            })
            .find(|(nf, _)| in_front_arc(*nf, at, th))
            .unwrap_or((f, 0));
        if turns > mp {
            return;
        }
        f = nf;
        spent += turns;
    }
    let p = unit(world, u).p;
    let board = world.res::<Board>();
    let mut entered_broken = false;
    // Friends the advance passes through (CdB 8.2): it can and must, except friends
    // next to an enemy and elephants.
    let passable = |world: &World, n: HexCoord| {
        let occ = stack_at(world, n);
        occ.iter().all(|o| {
            side_of(world, *o) == side
                && !stack.contains(o)
                && kind(world, *o) != Kind::El
                && !n
                    .neighbors()
                    .into_iter()
                    .any(|x| enemy_at(world, side, x).is_some())
        })
    };
    let mut passed: Vec<UnitId> = Vec::new();
    loop {
        let on_friend = stack_at(world, at).iter().any(|o| !stack.contains(o));
        if !enemies_ahead(world, side, f, at).is_empty() && !on_friend {
            break;
        }
        let mut choices = f.front(at).to_vec();
        choices.sort_by_key(|h| (h.distance(th), *h));
        let Some(next) = choices.into_iter().find(|n| {
            board.contains(*n)
                && terrain_class(world, *n) != TerrainClass::Impassable
                && passable(world, *n)
        }) else {
            break;
        };
        let friends_there: Vec<UnitId> = stack_at(world, next);
        let class = terrain_class(world, next);
        if class == TerrainClass::Difficult && (p.kind.is_mounted() || p.chariot) {
            if p.chariot {
                break;
            }
            mp = mp.min(2);
        }
        if class == TerrainClass::Broken
            && !entered_broken
            && (matches!(p.kind, Kind::LH | Kind::Cv)
                || (p.kind == Kind::Kn && p.quality == Quality::F))
        {
            mp -= 1;
            entered_broken = true;
        }
        let cost = if state(world).ditch.contains(&next) {
            state(world).ditch_mp.max(1)
        } else {
            1
        };
        // Never beyond its allowance ("a move of its full movement allowance"): out of
        // MP on a friend's hex, it backs up to the last free hex below.
        if spent + cost > mp {
            break;
        }
        let holders = zoc_exerted_on(world, side, next);
        if holders
            .iter()
            .any(|e| hex_of(world, *e).is_some_and(|eh| !f.front(next).contains(&eh)))
        {
            break;
        }
        spent += cost;
        at = next;
        path.push(next);
        for x in friends_there {
            if !passed.contains(&x) {
                passed.push(x);
            }
        }
        let on_friend = stack_at(world, at).iter().any(|o| !stack.contains(o));
        if !holders.is_empty() && !on_friend {
            break;
        }
    }
    // Never end on a friend: back up to the last free hex of the path.
    while stack_at(world, at).iter().any(|o| !stack.contains(o)) {
        path.pop();
        at = path.last().copied().unwrap_or(start);
        if at == start {
            break;
        }
    }
    passed.retain(|x| hex_of(world, *x).is_some_and(|h| path.contains(&h)));
    if path.is_empty() && f == facing(world, u) {
        return;
    }
    for x in &stack {
        set_facing(world, *x, f);
        set_placement(world, *x, Placement::OnMap(at));
        let mut fl = flags_mut(world, *x);
        fl.advanced_spontaneously = true;
        fl.moved = true;
        fl.hexes_moved += path.len() as u32;
    }
    log(world, EventKind::Moved, "CdB 9.5", |w| {
        format!(
            "{} is out of control and advances on {} from {start}{}, facing {}",
            name(w, u),
            name(w, target),
            if path.is_empty() {
                String::new()
            } else {
                format!(
                    " through {}",
                    path.iter().map(|h| h.label()).collect::<Vec<_>>().join(" ")
                )
            },
            movement::facing_name(f)
        )
    });
    super::setup::reveal_seen(world);
    passed_through(world, u, &passed);
}

/// What befalls the friends a spontaneous advance passed through (CdB 8.2): foot
/// crossed by knights flee; impetuous troops follow with their own advance unless
/// they made one this turn; others recoil if they can.
fn passed_through(world: &mut World, by: UnitId, passed: &[UnitId]) {
    let knights = kind(world, by) == Kind::Kn;
    for &x in passed {
        refresh_zoc(world);
        if hex_of(world, x).is_none() || flags(world, x).rank != 0 {
            continue;
        }
        if knights && kind(world, x).is_foot() {
            log(world, EventKind::Special, "CdB 8.2", |w| {
                format!("{} is crossed by knights and flees", name(w, x))
            });
            results::flight(world, x);
        } else if is_impetuous(world, x) && !flags(world, x).advanced_spontaneously {
            log(world, EventKind::Special, "CdB 8.2", |w| {
                format!("{} is passed through and follows the advance", name(w, x))
            });
            spontaneous_advance(world, x, None);
        } else if let Some(opt) = results::recoil_options(world, x).first().copied() {
            log(world, EventKind::Special, "CdB 8.2", |w| {
                format!("{} is passed through and recoils", name(w, x))
            });
            results::recoil_unit(world, x, opt);
        }
    }
}

fn enemies_ahead(world: &World, side: SideId, f: VertexFacing, at: HexCoord) -> Vec<UnitId> {
    f.front(at)
        .into_iter()
        .filter_map(|h| enemy_at(world, side, h))
        .collect()
}

/// Whether an impetuous unit must be checked at the end of movement (CdB 9.5).
pub(crate) fn due_to_advance(world: &World, u: UnitId) -> bool {
    let f = flags(world, u);
    hex_of(world, u).is_some()
        && f.rank == 0
        && !f.kept
        && f.hexes_moved == 0
        && !f.advanced_spontaneously
        && !f.supported_since_movement
        && !is_hidden(world, u)
        && is_impetuous(world, u)
        && !in_enemy_zoc(world, u)
        && enemies_in_front(world, u).is_empty()
        && corps_of(world, u).unreliable != Some(true)
}

/// Whether a unit of a demoralised corps must flee at the end of movement (CdB 12.3):
/// neither kept in control nor the single counter the corps activated.
pub(crate) fn due_to_flee(world: &World, u: UnitId) -> bool {
    let f = flags(world, u);
    let p = unit(world, u).p;
    hex_of(world, u).is_some()
        && f.rank == 0
        && !f.kept
        && f.impulses == 0
        && corps_of(world, u).demoralised
        && (p.kind != Kind::Bag || p.mobile)
        && !in_enemy_zoc(world, u)
        && enemies_in_front(world, u).is_empty()
}

/// The end of a movement phase (CdB 3.2): impetuous units out of control advance,
/// then the units of demoralised corps flee, one by one in unit order. False while an
/// advance waits for its player to choose its target: the choice resumes it.
pub(crate) fn end_of_movement(world: &mut World, side: SideId) -> bool {
    // Only the moving side's units are asked (sides do not change here); each check
    // reads the zones as the last advance or flight left them.
    let own: Vec<UnitId> = all_units(world)
        .into_iter()
        .filter(|u| side_of(world, *u) == side)
        .collect();
    for &u in &own {
        refresh_zoc(world);
        if !flags(world, u).advance_checked && due_to_advance(world, u) {
            let options = advance_options(world, u);
            if options.len() > 1 {
                world
                    .resource_mut::<CdbState>()
                    .pending
                    .set(Pending::AdvanceTarget { unit: u, options });
                return false;
            }
            flags_mut(world, u).advance_checked = true;
            spontaneous_advance(world, u, options.first().copied());
        }
    }
    for &u in &own {
        refresh_zoc(world);
        if due_to_flee(world, u) {
            log(world, EventKind::Special, "CdB 12.3", |w| {
                format!(
                    "{} belongs to a demoralised corps and is not kept in control: it flees",
                    name(w, u)
                )
            });
            results::flight(world, u);
        }
    }
    for &u in &own {
        flags_mut(world, u).supported_since_movement = false;
    }
    refresh_zoc(world);
    true
}

/// Counter equivalents lost by a corps, in halves (CdB 12.1).
pub(crate) fn corps_lost_halves(world: &World, c: usize) -> i32 {
    // Asked for every corps at the end of each player turn: the placements read from
    // the unit index first, since few units are eliminated, then the roster.
    let units = world.res::<crate::engine::units::Units>();
    units
        .ids()
        .filter(|u| units.placement(*u) == Placement::Eliminated)
        .map(|u| unit(world, u))
        .filter(|x| x.corps as usize == c)
        .map(|x| halves(x.p.kind))
        .sum()
}

/// A counter's equivalents in halves (CdB 12.1).
pub(crate) fn halves(k: Kind) -> i32 {
    match k {
        Kind::Ps | Kind::Hd => 1,
        Kind::Bag => 4,
        _ => 2,
    }
}

/// The corps' demoralisation threshold in halves (CdB 12.2; optional rule: half).
pub(crate) fn threshold_halves(world: &World, c: usize) -> i32 {
    let co = &state(world).corps[c];
    let half_rule = world.resource::<GameOptions>().has("demoralisation_half");
    let (num, den) = if half_rule { (1, 2) } else { (1, 3) };
    let exact = co.total_halves * num;
    let halves_up = (exact + den - 1) / den;
    if co.has_halves {
        halves_up
    } else {
        (halves_up + 1) / 2 * 2
    }
}

/// A corps becomes demoralised (CdB 12.3), with what follows for allies (4.3).
pub(crate) fn demoralise(world: &mut World, c: usize) {
    if state(world).corps[c].demoralised {
        return;
    }
    world.resource_mut::<CdbState>().corps[c].demoralised = true;
    let co = state(world).corps[c].clone();
    log(world, EventKind::MoraleCheck, "CdB 12.3", |_| {
        format!("{} corps is demoralised", possessive(&co.name))
    });
    for o in 0..state(world).corps.len() {
        let other = state(world).corps[o].clone();
        if other.unreliable != Some(true) {
            continue;
        }
        if other.side != co.side {
            command_points::set_reliable(world, o, "an enemy corps is demoralised");
        } else if other.foreign {
            let new_side = other.side.other();
            world.resource_mut::<CdbState>().corps[o].side = new_side;
            world.resource_mut::<CdbState>().corps[o].unreliable = Some(false);
            for u in all_units(world) {
                if unit(world, u).corps as usize == o {
                    crate::rulesets::common::set_side(world, u, new_side);
                }
            }
            log(world, EventKind::SideChanged, "CdB 4.3", |w| {
                format!(
                    "{} unreliable allied corps changes sides and joins {}",
                    possessive(&other.name),
                    side_name(w, new_side)
                )
            });
        }
    }
}

/// At the end of a player's turn, every corps that has lost a third of its counter
/// equivalents is demoralised (CdB 12.2).
/// CdB 12 on leaving the melee step: the morale of the player turn.
pub(crate) fn end_of_player_turn_of_sequence(world: &mut World) {
    let side = sequence_side(world);
    end_of_player_turn(world, side);
}

pub(crate) fn end_of_player_turn(world: &mut World, _side: SideId) {
    for c in 0..state(world).corps.len() {
        if !state(world).corps[c].demoralised {
            let lost = corps_lost_halves(world, c);
            let thr = threshold_halves(world, c);
            if lost >= thr && thr > 0 {
                let name = state(world).corps[c].name.clone();
                let total = state(world).corps[c].total_halves;
                log(world, EventKind::MoraleCheck, "CdB 12.2", |_| {
                    format!(
                        "{} corps has lost {} of {} counter equivalents (threshold {})",
                        possessive(&name),
                        lost as f32 / 2.0,
                        total as f32 / 2.0,
                        thr as f32 / 2.0
                    )
                });
                demoralise(world, c);
            }
        }
    }
    check_victory(world);
}

/// The losses of a side as CdB 13 counts them, in halves: eliminated units, and every
/// unit of a demoralised corps (baggage only when destroyed).
pub(crate) fn army_losses_halves(world: &World, side: SideId) -> i32 {
    let st = state(world);
    let any_demoralised = st.corps.iter().any(|c| c.side == side && c.demoralised);
    // Every command checks victory: sides and placements read from the unit index,
    // each unit's corps and kind from the roster, in one pass.
    let units = world.res::<crate::engine::units::Units>();
    let roster = world.get_resource::<CdbRoster>();
    units
        .ids()
        .filter(|u| units.side(*u) == side)
        .filter_map(|u| {
            let gone = units.placement(u) == Placement::Eliminated;
            if !(any_demoralised || gone) {
                return None;
            }
            let x = roster
                .and_then(|r| r.0.get(u.0 as usize).copied())
                .unwrap_or_else(|| unit(world, u));
            (gone || (st.corps[x.corps as usize].demoralised && x.p.kind != Kind::Bag))
                .then(|| halves(x.p.kind))
        })
        .sum()
}

/// An army's counter equivalents, in halves, baggage not counted (CdB 12.1, 13).
pub(crate) fn army_total_halves(world: &World, side: SideId) -> i32 {
    state(world)
        .corps
        .iter()
        .filter(|c| c.side == side)
        .map(|c| c.total_halves)
        .sum()
}

fn finish(world: &mut World, outcome: Outcome) {
    // The log line cites its rule itself.
    let text = outcome.reason.trim_end_matches(" (CdB 13)").to_string();
    // The battle is over: a recoil or rear loss still to choose no longer matters.
    world.resource_mut::<CdbState>().pending.clear();
    let mut t = world.resource_mut::<TurnState>();
    t.phase = PhaseView::GAME_OVER;
    t.outcome = Some(outcome);
    log(world, EventKind::GameOver, "CdB 13", |_| text);
}

/// CdB 13: the side that first destroys at least half of the enemy's counter
/// equivalents wins. If both reach it at once, the side whose sequence it is wins
/// (designer's choice).
pub(crate) fn check_victory(world: &mut World) -> bool {
    if turn(world).outcome.is_some() {
        return true;
    }
    let broken: Vec<SideId> = [SideId(0), SideId(1)]
        .into_iter()
        .filter(|s| {
            let total = army_total_halves(world, *s);
            total > 0 && army_losses_halves(world, *s) * 2 >= total
        })
        .collect();
    let winner = match broken[..] {
        [] => return false,
        [loser] => loser.other(),
        _ => sequence_side(world),
    };
    let loser = winner.other();
    let lost = army_losses_halves(world, loser) as f32 / 2.0;
    let total = army_total_halves(world, loser) as f32 / 2.0;
    let reason = format!(
        "Victory to the {}: the {} have lost {lost} of {total} counter equivalents, half or more (CdB 13)",
        side_name(world, winner),
        side_name(world, loser)
    );
    finish(
        world,
        Outcome {
            winner: Some(winner),
            level: Some(VictoryLevel::Major),
            reason,
        },
    );
    true
}

/// The scenario's time limit (CdB sets none; each scenario names its own).
pub(crate) fn time_limit(world: &mut World) {
    let info = world.resource::<ScenarioInfo>().0.clone();
    // Every CdB scenario has one (checked when it is read).
    let Some(tl) = &info.file.at_time_limit else {
        let outcome = Outcome {
            winner: None,
            level: None,
            reason: "The last turn is over with no time-limit victory: a draw (CdB 13)".into(),
        };
        finish(world, outcome);
        return;
    };
    let winner = info.side_index(&tl.winner).map(SideId);
    let reason = format!(
        "The last turn is over: {} wins ({:?}, scenario time limit)",
        tl.winner, tl.level
    );
    finish(
        world,
        Outcome {
            winner,
            level: Some(tl.level),
            reason,
        },
    );
}

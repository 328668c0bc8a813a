//! Charles the Bold's alternating activations as pure functions (CtB 1.4): who declares
//! a group next, and the initiative roll between the two declared groups (2D6 plus the
//! group's general's bonus, ties rolled again: R-1.4a). The phases that hold the
//! secret choice, the hand-over and the rolls in the game come with the plugin.

/// Who chooses a group for the next activation (CtB 1.4, R-1.4c).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declaring {
    /// Both sides choose in secret, then the initiative is rolled.
    Both,
    /// One side only has groups left to move: it chooses openly, with no roll
    /// (R-1.4c: a roll against nothing means nothing).
    Only(usize),
    /// Every group has moved: the round ends (CtB 1.4).
    RoundOver,
}

/// Who declares, from each side's number of groups not yet moved this round.
pub fn declaring(unmoved: [usize; 2]) -> Declaring {
    match unmoved {
        [0, 0] => Declaring::RoundOver,
        [_, 0] => Declaring::Only(0),
        [0, _] => Declaring::Only(1),
        _ => Declaring::Both,
    }
}

/// One initiative throw of both sides: the dice of each and its total with the bonus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Throw {
    pub dice: [Vec<u8>; 2],
    pub totals: [i32; 2],
}

/// The initiative (CtB 1.4): each side throws `dice` D6 (the `first` side first) and
/// adds its group's bonus; the higher total moves its group; a tie is thrown again by
/// both (R-1.4a). `d6` gives each die in turn (the game's seeded dice). Returns the
/// winner and every throw made, for the log.
pub fn initiative(
    dice: u8,
    bonus: [i8; 2],
    first: usize,
    mut d6: impl FnMut() -> u8,
) -> (usize, Vec<Throw>) {
    let mut throws = Vec::new();
    loop {
        let mut thrown: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for side in [first, 1 - first] {
            thrown[side] = (0..dice).map(|_| d6()).collect();
        }
        let totals =
            [0, 1].map(|s| thrown[s].iter().map(|d| *d as i32).sum::<i32>() + bonus[s] as i32);
        throws.push(Throw {
            dice: thrown,
            totals,
        });
        match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => return (0, throws),
            std::cmp::Ordering::Less => return (1, throws),
            std::cmp::Ordering::Equal => continue,
        }
    }
}

/// The exact chance that side 0 wins the initiative with `dice` D6 a side and these
/// bonuses, ties being thrown again (for the window's preview of the roll).
pub fn initiative_chance(dice: u8, bonus: [i8; 2]) -> f64 {
    // The distribution of the sum of `dice` D6.
    let mut sums = vec![1.0f64];
    for _ in 0..dice {
        let mut next = vec![0.0; sums.len() + 6];
        for (s, p) in sums.iter().enumerate() {
            for face in 1..=6 {
                next[s + face] += p / 6.0;
            }
        }
        sums = next;
    }
    let (mut win, mut tie) = (0.0, 0.0);
    for (a, pa) in sums.iter().enumerate() {
        for (b, pb) in sums.iter().enumerate() {
            let (ta, tb) = (a as i32 + bonus[0] as i32, b as i32 + bonus[1] as i32);
            if ta > tb {
                win += pa * pb;
            } else if ta == tb {
                tie += pa * pb;
            }
        }
    }
    win / (1.0 - tie)
}

// ---- the activations in the game (CtB 1.4) ----

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::game::TurnState;
use crate::engine::phase::change_phase;
use crate::engine::units::SideId;

use super::{CtbGeneral, CtbPhase, CtbState, CtbTurn, group_stands, log, side_name, state, turn};

/// The groups of `side` that have not moved this round and have a stand on the map.
pub fn unmoved_groups(world: &World, side: SideId) -> Vec<usize> {
    // Asked at every command of the choice of groups: the state, units and roster are
    // fetched once, not for each group.
    let st = state(world);
    let on_map = super::GroupsOnMap::new(world);
    st.groups
        .iter()
        .enumerate()
        .filter(|(g, grp)| {
            grp.side == side && !grp.activated && !st.waiting.contains(g) && on_map.any(*g, side)
        })
        .map(|(g, _)| g)
        .collect()
}

/// Entering the choice of groups (CtB 1.4, R-1.4c): both sides choose, the first side
/// first; one side alone when the other has no group left; the round ends when
/// neither has.
pub fn open_declarations(world: &mut World) {
    world.resource_mut::<CtbState>().declared = [None, None];
    let unmoved = [0, 1].map(|s| unmoved_groups(world, SideId(s)).len());
    match declaring(unmoved) {
        // `end_activation` goes to the end of the round itself: a phase is never
        // changed from inside another's entry.
        Declaring::RoundOver => {}
        Declaring::Only(side) => {
            world.resource_mut::<TurnState>().active = SideId(side as u8);
            log(world, EventKind::PhaseStarted, "CtB 1.4", |w| {
                format!(
                    "Only {} have groups left to move: they choose one openly, with no roll (R-1.4c)",
                    side_name(w, SideId(side as u8))
                )
            });
        }
        Declaring::Both => {
            let first = turn(world).first;
            world.resource_mut::<TurnState>().active = first;
        }
    }
}

/// Whether both sides choose this initiative (rather than one side alone).
pub fn both_declare(world: &World) -> bool {
    [0, 1]
        .iter()
        .all(|&s| !unmoved_groups(world, SideId(s)).is_empty())
}

/// The side that chooses a group now (CtB 1.4): the first side, then the other; one
/// side alone when the other has no group left (R-1.4c); none once the choices are
/// made and wait for `end`. `TurnState.active` stays the first side's until `end`: the
/// side to choose is the decision's (design §1.1).
pub fn declarer(world: &World) -> Option<SideId> {
    let declared = state(world).declared;
    let first = turn(world).first;
    let order: Vec<SideId> = if both_declare(world) {
        vec![first, first.other()]
    } else {
        [first, first.other()]
            .into_iter()
            .filter(|s| !unmoved_groups(world, *s).is_empty())
            .collect()
    };
    order.into_iter().find(|s| declared[s.0 as usize].is_none())
}

/// Records a side's choice (CtB 1.4): with both sides choosing, it is logged as made
/// but not which (R-1.4d), and the other side chooses next; `end` reveals both and
/// rolls. One side alone chooses openly, and `end` starts its activation.
pub fn declare(world: &mut World, side: SideId, group: usize) {
    world.resource_mut::<CtbState>().declared[side.0 as usize] = Some(group);
    if !both_declare(world) {
        log(world, EventKind::Revealed, "CtB 1.4", |w| {
            format!(
                "{} will move {} (R-1.4c): `end` begins its activation",
                side_name(w, side),
                state(w).groups[group].name
            )
        });
        return;
    }
    let next = if declarer(world).is_some() {
        "the other side chooses"
    } else {
        "reveal both and roll the initiative with `end`"
    };
    log(world, EventKind::Special, "CtB 1.4", |w| {
        format!(
            "{} have chosen a group (secret): {next}",
            side_name(w, side)
        )
    });
}

/// `end` after the choices: both revealed and the initiative rolled, or the lone
/// side's group begins.
pub fn end_declarations(world: &mut World) {
    if both_declare(world) {
        reveal_and_roll(world);
        return;
    }
    let declared = state(world).declared;
    if let Some((side, group)) = declared
        .iter()
        .enumerate()
        .find_map(|(s, g)| g.map(|g| (SideId(s as u8), g)))
    {
        begin_activation(world, side, group);
    }
}

/// `end` after both choices (CtB 1.4): both groups revealed, 2D6 each plus the group's
/// general's bonus, ties thrown again (R-1.4a); the winner's group moves, the loser's
/// choice lapses (R-1.4b).
pub fn reveal_and_roll(world: &mut World) {
    let declared = state(world).declared.map(|d| d.expect("both have chosen"));
    log(world, EventKind::Revealed, "CtB 1.4", |w| {
        let s = state(w);
        format!(
            "{} chose {}; {} chose {}",
            side_name(w, s.groups[declared[0]].side),
            s.groups[declared[0]].name,
            side_name(w, s.groups[declared[1]].side),
            s.groups[declared[1]].name
        )
    });
    let bonus = declared.map(|g| group_bonus(world, g));
    let dice = super::tables(world).orders.initiative.dice;
    let first = turn(world).first.0 as usize;
    let mut faces = Vec::new();
    let (winner, throws) = {
        let mut d6 = || {
            let f = world.resource_mut::<crate::engine::dice::Dice>().d6();
            faces.push(f);
            f
        };
        initiative(dice, bonus, first, &mut d6)
    };
    for t in &throws {
        let t = t.clone();
        log(world, EventKind::DieRolled, "CtB 1.4", |w| {
            let part = |s: usize| {
                format!(
                    "{} {}{:+} = {}",
                    side_name(w, SideId(s as u8)),
                    t.dice[s]
                        .iter()
                        .map(u8::to_string)
                        .collect::<Vec<_>>()
                        .join("+"),
                    bonus[s],
                    t.totals[s]
                )
            };
            let tie = if t.totals[0] == t.totals[1] {
                ": a tie, thrown again (R-1.4a)"
            } else {
                ""
            };
            format!("Initiative: {}, {}{tie}", part(0), part(1))
        });
    }
    world.resource_mut::<CtbState>().last_initiative = throws.last().map(|t| t.totals);
    let group = declared[winner];
    begin_activation(world, SideId(winner as u8), group);
}

/// A group's general's initiative bonus (CtB 1.4; a replacement's −2: CtB 2.2).
pub fn group_bonus(world: &World, group: usize) -> i8 {
    let g = state(world).groups[group].general;
    super::general(world, g).map_or(0, |c| c.bonus)
}

fn begin_activation(world: &mut World, side: SideId, group: usize) {
    {
        let mut s = world.resource_mut::<CtbState>();
        s.activation = Some(group);
        s.declared = [None, None];
    }
    world.resource_mut::<TurnState>().active = side;
    change_phase(world, CtbPhase::Activation);
}

/// Entering an activation (CtB 1.4, 3.0): the group's stands begin with no move made;
/// a stand locked in an ongoing melee on its flank may turn to face it (CtB 10.5);
/// skirmishers with an enemy in front break off (CtB 10.6). Its
/// ongoing melees are fought when its player chooses, before `end` (R-ongoing).
pub fn start_activation(world: &mut World) {
    let Some(group) = state(world).activation else {
        return;
    };
    for id in group_stands(world, group) {
        let fought = super::acts(world, id).fought;
        *super::acts_mut(world, id) = CtbTurn {
            fought,
            ..Default::default()
        };
    }
    log(world, EventKind::PhaseStarted, "CtB 1.4", |w| {
        let g = &state(w).groups[group];
        format!("{} move {}", side_name(w, g.side), g.name)
    });
    super::ongoing::turn_to_face(world, group);
    // A break-off with a choice of hexes waits for its owner; the compelled stands
    // are marked once the skirmishers have fallen back (`break_offs_done`).
    if !super::reactions::break_off(world, group) {
        super::impetuous::mark_compelled(world, group);
    }
}

/// `end` of an activation (CtB 1.4): the group has moved; the next choice of groups.
pub fn end_activation(world: &mut World) {
    if let Some(g) = state(world).activation {
        let mut s = world.resource_mut::<CtbState>();
        s.groups[g].activated = true;
        s.activation = None;
    }
    let unmoved = [0, 1].map(|s| unmoved_groups(world, SideId(s)).len());
    if declaring(unmoved) == Declaring::RoundOver {
        change_phase(world, CtbPhase::RoundEnd);
    } else {
        change_phase(world, CtbPhase::Declare);
    }
}

/// The end of a round (CtB 1.4): the moved markers come off, the next round begins,
/// or after the last the scenario's time limit decides (CtB 14.0).
pub fn end_round(world: &mut World) {
    {
        let mut s = world.resource_mut::<CtbState>();
        for g in &mut s.groups {
            g.activated = false;
        }
    }
    let mut q = world.query::<&mut CtbTurn>();
    for mut t in q.iter_mut(world) {
        *t = CtbTurn::default();
    }
    let mut q = world.query::<&mut CtbGeneral>();
    for mut g in q.iter_mut(world) {
        g.moved = false;
    }
    let t = turn(world).clone();
    if t.turn >= t.last_turn {
        super::victory::time_limit(world);
        return;
    }
    let next = t.turn + 1;
    world.resource_mut::<TurnState>().turn = next;
    log(world, EventKind::TurnStarted, "CtB 1.4", |_| {
        format!("Round {next}")
    });
    super::setup::start_of_round(world);
    if turn(world).outcome.is_some() {
        return;
    }
    change_phase(world, CtbPhase::Declare);
}

//! Retreats (CtB 12.0-12.2, 11.1): every course a beaten stand may take by the order of
//! preference, planned without touching the world; the owner's choice among equally
//! preferred ones (R-retreat); and the course carried out with its SP and disorder.

use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::{Command, Refusal};
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;
use crate::engine::view::Decision;

use super::decision::{Pending, choice};
use super::results::{destroy, displace_enemy_generals, lose_sp};
use super::{CtbState, facing, hex_of, log, plain_name, side_of, stand, stand_at, status_mut};

/// The order of preference of a retreat's step (CtB 12.0): clear of any stand and enemy
/// zone of control, then through friends, then through an enemy zone of control (−1 SP
/// a hex), then sideways (−1 SP a hex).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Preference {
    Clear,
    Friends,
    EnemyZoc,
    Sideways,
}

/// Whether a stand is skirmishers (CtB 12.1: the one enemy a retreat may pass through).
fn skirmishers(world: &World, id: UnitId) -> bool {
    stand(world, id).is_some_and(|s| s.spec.df == super::data::DefensiveFire::Skirmisher)
}

/// One stand's retreat to make: a loser's or a support's (CtB 12.0, 10.7), or a bounce
/// (CtB 11.1), which costs no SP and never destroys the stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatJob {
    pub stand: UnitId,
    /// The hex it retreats away from.
    pub attacker: HexCoord,
    /// It ends disordered (a support: CtB 10.7; a bounce: CtB 11.1).
    pub disorder: bool,
    /// Up to this many hexes.
    pub length: u32,
    pub bounce: bool,
}

impl RetreatJob {
    /// A loser's retreat (CtB 12.0): up to twice its first-move MP in hexes.
    pub fn beaten(world: &World, id: UnitId, attacker: HexCoord, disorder: bool) -> Option<Self> {
        let mp = u32::from(stand(world, id)?.entry.mp.0);
        Some(Self {
            stand: id,
            attacker,
            disorder,
            length: mp * super::tables(world).orders.retreat_factor,
            bounce: false,
        })
    }

    /// A bounce of one move, disordered (CtB 11.1).
    pub fn bounce(world: &World, id: UnitId, from: HexCoord) -> Option<Self> {
        Some(Self {
            stand: id,
            attacker: from,
            disorder: true,
            length: u32::from(stand(world, id)?.entry.mp.0),
            bounce: true,
        })
    }
}

/// The pursuit owed once a melee's retreats are made (CtB 13.0): the winner, the
/// loser, the hex it left and the way it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PursuitAfter {
    pub winner: UnitId,
    pub loser: UnitId,
    pub loser_hex: HexCoord,
    pub path: Vec<HexCoord>,
}

/// Where one course of a retreat ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Course {
    /// Beaten artillery is destroyed (CtB 12.0).
    Beaten,
    /// It leaves the map, destroyed (CtB 12.2).
    OffMap,
    /// No hex to retreat to: destroyed (CtB 12.1).
    NoHex,
    /// It never got clear of its friends: destroyed (CtB 12.1, 12.2).
    CannotClear,
    /// It retreats along `path` (perhaps empty: a bounce with nowhere to go).
    Path {
        path: Vec<HexCoord>,
        sp_cost: u8,
        passed: Vec<UnitId>,
        enemies_passed: Vec<UnitId>,
    },
}

impl Course {
    /// The hex it ends in, for a course that keeps the stand.
    pub fn end(&self) -> Option<HexCoord> {
        match self {
            Course::Path { path, .. } => path.last().copied(),
            _ => None,
        }
    }
}

/// One course of a retreat by the order of preference (CtB 12.0-12.2, R-retreat): each
/// step to a hex no nearer `attacker`, keeping its facing, the most preferred first;
/// where several are equally preferred, `picks[step]` chooses among them (the farthest
/// from the attacker, then the lowest, by default) and `ties[step]` says how many there
/// were. Friends (and enemy skirmishers, CtB 12.1) passed through extend it until it
/// stops clear; sideways steps only where the way back is shut from the start, or to
/// get clear of friends. Off the map only from next to the edge (CtB 12.2).
fn course(
    world: &World,
    job: &RetreatJob,
    picks: &[usize],
    ties: &mut Vec<usize>,
    prefs: &mut Vec<Preference>,
) -> Course {
    let id = job.stand;
    let Some(s) = stand(world, id) else {
        return Course::NoHex;
    };
    if s.spec.destroyed_if_beaten && !job.bounce {
        return Course::Beaten;
    }
    let side = side_of(world, id);
    let Some(start) = hex_of(world, id) else {
        return Course::NoHex;
    };
    let board = world.resource::<Board>();
    let tables = super::tables(world);
    let mut pos = start;
    let mut steps = 0u32;
    let mut sp_cost = 0u8;
    let mut passed: Vec<UnitId> = Vec::new();
    let mut enemies_passed: Vec<UnitId> = Vec::new();
    let mut path = Vec::new();
    loop {
        let occupied_by_friend = stand_at(world, pos).is_some_and(|u| u != id);
        if steps >= job.length && !occupied_by_friend {
            break;
        }
        let d = pos.distance(job.attacker);
        let mut options: Vec<(Preference, u32, HexCoord)> = Vec::new();
        let mut off_board = false;
        for n in pos.neighbors() {
            if !board.contains(n) {
                if n.distance(job.attacker) > d {
                    off_board = true;
                }
                continue;
            }
            if n == start && steps > 0 {
                continue;
            }
            let nd = n.distance(job.attacker);
            if nd < d {
                continue;
            }
            let occupant = stand_at(world, n).filter(|u| *u != id);
            // Never through an enemy stand, except skirmishers (CtB 12.1).
            if occupant.is_some_and(|u| side_of(world, u) != side && !skirmishers(world, u)) {
                continue;
            }
            if super::movement::step_cost(&tables, board, s.spec.terrain, pos, n).is_none() {
                continue;
            }
            let pref = if nd == d {
                if steps > 0 && !occupied_by_friend {
                    continue;
                }
                Preference::Sideways
            } else if occupant.is_some() {
                Preference::Friends
            } else if super::in_enemy_zoc(world, side, n) {
                Preference::EnemyZoc
            } else {
                Preference::Clear
            };
            options.push((pref, nd, n));
        }
        options.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        // Beaten next to the edge it must retreat towards, it leaves the board unless
        // friends stand between (CtB 12.2).
        let edge = off_board
            && steps == 0
            && !job.bounce
            && options.first().is_none_or(|o| o.0 == Preference::Sideways);
        if edge {
            return Course::OffMap;
        }
        let Some(&(best, best_d, _)) = options.first() else {
            if job.bounce {
                break;
            }
            if off_board && steps == 0 {
                return Course::OffMap;
            }
            if occupied_by_friend {
                break;
            }
            if steps == 0 {
                return Course::NoHex;
            }
            break;
        };
        // The owner's choice among the equally preferred (R-retreat).
        let equal = options
            .iter()
            .take_while(|o| o.0 == best && o.1 == best_d)
            .count();
        let pick = picks.get(ties.len()).copied().unwrap_or(0).min(equal - 1);
        ties.push(equal);
        let (pref, _, next) = options[pick];
        prefs.push(pref);
        // 1 SP for each sideways step and each enemy zone of control passed through
        // (CtB 12.0 [3], [4], 12.1); none for a bounce.
        if !job.bounce {
            sp_cost += u8::from(pref == Preference::Sideways)
                + u8::from(super::in_enemy_zoc(world, side, next));
        }
        if pref == Preference::Friends
            && let Some(other) = stand_at(world, next)
        {
            if side_of(world, other) == side {
                passed.push(other);
            } else {
                enemies_passed.push(other);
            }
        }
        pos = next;
        path.push(next);
        steps += 1;
        if steps > job.length + 12 {
            break;
        }
    }
    if stand_at(world, pos).is_some_and(|u| u != id) {
        // Stuck among friends: back to the last hex clear of them, or, if it never got
        // clear, it cannot retreat (CtB 12.1, 12.2).
        while path
            .last()
            .is_some_and(|h| stand_at(world, *h).is_some_and(|u| u != id))
        {
            path.pop();
        }
        if path.is_empty() {
            return Course::CannotClear;
        }
        passed.retain(|f| hex_of(world, *f).is_some_and(|fh| path.contains(&fh)));
    }
    Course::Path {
        path,
        sp_cost,
        passed,
        enemies_passed,
    }
}

/// Every course the owner may choose among (R-retreat), the default first: one per hex
/// it may end in, branching wherever steps were equally preferred, and kept only if it
/// is as good as the best all the way: as few SP lost, the same preference at each
/// step.
pub fn courses(world: &World, job: &RetreatJob) -> Vec<Course> {
    type Ranked = Vec<(Course, (u8, Vec<Preference>))>;
    fn explore(
        world: &World,
        job: &RetreatJob,
        picks: Vec<usize>,
        out: &mut Ranked,
        budget: &mut u32,
    ) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let (mut ties, mut prefs) = (Vec::new(), Vec::new());
        let c = course(world, job, &picks, &mut ties, &mut prefs);
        if let Some(k) = (picks.len()..ties.len()).find(|&k| ties[k] > 1) {
            for i in 0..ties[k] {
                let mut p = picks.clone();
                p.resize(k, 0);
                p.push(i);
                explore(world, job, p, out, budget);
            }
        } else if !out.iter().any(|(o, _)| o.end() == c.end()) {
            let cost = match &c {
                Course::Path { sp_cost, .. } => *sp_cost,
                _ => u8::MAX,
            };
            out.push((c, (cost, prefs)));
        }
    }
    let mut out = Vec::new();
    // A stand retreats at most a few hexes: this bounds the search whatever the map.
    let mut budget = 256;
    explore(world, job, Vec::new(), &mut out, &mut budget);
    // Equally preferred all the way (R-retreat): the least SP lost, then the same order
    // of preference at every step; a course that keeps the stand before one that does
    // not (a destroyed stand costs the most).
    let best = out.iter().map(|(_, k)| k.clone()).min();
    out.into_iter()
        .filter(|(_, k)| Some(k) == best.as_ref())
        .map(|(c, _)| c)
        .collect()
}

/// Makes `jobs` in turn; where a stand has several courses, its owner is asked
/// (`retreat HEX`) and the rest wait. Once all are made, the pursuit owed is offered.
pub fn run(world: &mut World, mut jobs: Vec<RetreatJob>, mut then: Option<PursuitAfter>) {
    while let Some(job) = jobs.first().cloned() {
        if hex_of(world, job.stand).is_none() {
            jobs.remove(0);
            continue;
        }
        let options = courses(world, &job);
        if options.len() > 1 {
            world
                .resource_mut::<CtbState>()
                .pending
                .push_front(Pending::Retreat {
                    jobs,
                    options,
                    then,
                });
            return;
        }
        jobs.remove(0);
        let Some(c) = options.into_iter().next() else {
            continue;
        };
        let path = apply(world, &job, c);
        if let Some(t) = then.as_mut().filter(|t| t.loser == job.stand) {
            t.path = path;
        }
    }
    if let Some(t) = then
        && hex_of(world, t.winner).is_some()
    {
        super::melee::offer_pursuit(world, t.winner, t.loser, t.loser_hex, t.path);
    }
}

/// The owner's answer: the course ending in `end` (CtB 12.0, R-retreat); the other
/// retreats and the pursuit go on.
pub fn answer(world: &mut World, end: HexCoord) {
    let Some(Pending::Retreat {
        mut jobs,
        options,
        mut then,
    }) = world.resource_mut::<CtbState>().pending.pop_front()
    else {
        return;
    };
    let job = jobs.remove(0);
    let Some(c) = options.into_iter().find(|c| c.end() == Some(end)) else {
        return;
    };
    let path = apply(world, &job, c);
    if let Some(t) = then.as_mut().filter(|t| t.loser == job.stand) {
        t.path = path;
    }
    run(world, jobs, then);
}

/// The owner's decision: one choice per hex the retreat may end in, with its cost.
pub fn decision(world: &World, jobs: &[RetreatJob], options: &[Course]) -> Decision {
    let id = jobs[0].stand;
    let choices = options
        .iter()
        .filter_map(|c| {
            let Course::Path { sp_cost, .. } = c else {
                return None;
            };
            let end = c.end()?;
            let cost = if *sp_cost > 0 {
                format!(" (−{sp_cost} SP)")
            } else {
                String::new()
            };
            Some(choice(
                format!("retreat to {end}{cost}"),
                Command::Retreat { path: vec![end] },
                Some(end),
            ))
        })
        .collect();
    Decision {
        side: side_of(world, id),
        prompt: format!(
            "{} retreats: choose where, among the hexes equally preferred",
            plain_name(world, id)
        ),
        rule: "CtB 12.0".into(),
        choices,
    }
}

/// Checks the owner's answer: the last hex named ends one of the courses offered.
pub fn check_answer(
    world: &World,
    jobs: &[RetreatJob],
    options: &[Course],
    path: &[HexCoord],
) -> Result<HexCoord, Refusal> {
    let ends: Vec<HexCoord> = options.iter().filter_map(Course::end).collect();
    match path.last() {
        Some(h) if ends.contains(h) => Ok(*h),
        _ => Err(Refusal::new(
            "CtB 12.0",
            format!(
                "the retreat of {} ends in {}",
                plain_name(world, jobs[0].stand),
                ends.iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        )),
    }
}

/// Carries out one course (CtB 12.0-12.2): the stand destroyed, or moved with its
/// facing, out of its melees, disordered if a support's or a bounce's, the friends it
/// passed through disordered (CtB 3.9), and the SP it owes. Returns its path.
pub fn apply(world: &mut World, job: &RetreatJob, c: Course) -> Vec<HexCoord> {
    let id = job.stand;
    let (path, sp_cost, passed, enemies_passed) = match c {
        Course::Beaten => {
            destroy(world, id, "CtB 12.0", true);
            return Vec::new();
        }
        Course::OffMap => {
            log(world, EventKind::Retreated, "CtB 12.2", |w| {
                format!("{} retreats off the map", plain_name(w, id))
            });
            destroy(world, id, "CtB 12.2", true);
            return Vec::new();
        }
        Course::NoHex => {
            log(world, EventKind::Retreated, "CtB 12.1", |w| {
                format!("{} has no hex to retreat to", plain_name(w, id))
            });
            destroy(world, id, "CtB 12.1", true);
            return Vec::new();
        }
        Course::CannotClear => {
            log(world, EventKind::Retreated, "CtB 12.1", |w| {
                format!("{} cannot get clear of its friends", plain_name(w, id))
            });
            destroy(world, id, "CtB 12.1", true);
            return Vec::new();
        }
        Course::Path {
            path,
            sp_cost,
            passed,
            enemies_passed,
        } => (path, sp_cost, passed, enemies_passed),
    };
    for other in enemies_passed {
        log(world, EventKind::Retreated, "CtB 12.1", |w| {
            format!(
                "{} retreats through the enemy {}",
                plain_name(w, id),
                plain_name(w, other)
            )
        });
    }
    let start = hex_of(world, id).expect("on the map");
    let pos = path.last().copied().unwrap_or(start);
    if pos != start {
        super::carry(world, id, pos);
    }
    world
        .resource_mut::<CtbState>()
        .melees
        .retain(|m| !m.stands.contains(&id));
    if job.disorder {
        status_mut(world, id).disordered = true;
    }
    log(world, EventKind::Retreated, "CtB 12.0", |w| {
        format!(
            "{} retreats {start} → {pos}, facing {}",
            plain_name(w, id),
            facing(w, id).name()
        )
    });
    for &h in &path {
        displace_enemy_generals(world, id, h);
    }
    let heavy_self = stand(world, id).is_some_and(|s| s.spec.heavy);
    for friend in passed {
        // Friends passed through are disordered only where both are M/HC, LSp, Pike or
        // HI (CtB 12.0 [2], 3.9; `heavy` in types.ron): never shot, LC, LI or Sk, nor
        // guns, and never by them.
        let heavy = heavy_self && stand(world, friend).is_some_and(|f| f.spec.heavy);
        if heavy && !super::status(world, friend).disordered {
            status_mut(world, friend).disordered = true;
            log(world, EventKind::Special, "CtB 3.9", |w| {
                format!(
                    "{} is disordered by {} retreating through it",
                    plain_name(w, friend),
                    plain_name(w, id)
                )
            });
        }
    }
    if sp_cost > 0 {
        log(world, EventKind::Special, "CtB 12.0", |w| {
            format!(
                "{} pays {sp_cost} SP for retreating through enemy zones of control or sideways",
                plain_name(w, id)
            )
        });
        lose_sp(world, id, sp_cost, "CtB 12.0");
    }
    super::refresh_zones(world);
    path
}

//! Retreats (CtB 12.0-12.2, 11.1): every course a beaten stand may take by the order of
//! preference, planned without touching the world; the owner's choice among equally
//! preferred ones (R-retreat); and the course carried out with its SP and disorder.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::command::{Command, Refusal};
use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::UnitId;
use crate::engine::view::Decision;

use super::decision::{Pending, choice};
use super::results::{destroy, displace_enemy_generals, lose_sp};
use super::{CtbState, facing, hex_of, log, plain_name, side_of, stand, stand_at};

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

/// Where friendly skirmishers in `hex` are pushed back to when a retreat lands on them
/// (CtB 12.0 [2]: "Retreating stands can land in the same H as friendly Sk pushing them
/// back", R-12.0-push): one hex farther from the attacker, keeping their facing, to a
/// clear hex they may enter, out of an enemy zone of control if they can (ties to the
/// lowest hex); none if no such hex (then the retreat cannot land there). Skirmishers
/// in a melee are not pushed.
pub fn push_back(world: &World, job: &RetreatJob, hex: HexCoord) -> Option<HexCoord> {
    let sk = stand_at(world, hex).filter(|u| *u != job.stand)?;
    if side_of(world, sk) != side_of(world, job.stand)
        || !super::pushing::skirmishers(world, sk)
        || super::in_melee(world, sk)
    {
        return None;
    }
    let terrain = stand(world, sk)?.spec.terrain;
    let tables = super::tables(world);
    let board = world.res::<Board>();
    let side = side_of(world, sk);
    let d = hex.distance(job.attacker);
    hex.neighbors()
        .into_iter()
        .filter(|n| board.contains(*n) && n.distance(job.attacker) > d)
        .filter(|n| stand_at(world, *n).is_none())
        .filter(|n| super::movement::step_cost(&tables, board, terrain, hex, *n).is_some())
        .min_by_key(|n| (super::in_enemy_zoc(world, side, *n), *n))
}

/// Whether a retreat may end in `hex`: empty, or friendly skirmishers it pushes back
/// (CtB 12.0 [2]).
fn may_land(world: &World, job: &RetreatJob, hex: HexCoord) -> bool {
    stand_at(world, hex).is_none_or(|u| u == job.stand) || push_back(world, job, hex).is_some()
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

/// One step of a course: the hex entered, its preference, the SP it costs and the
/// stand passed through there, if any.
#[derive(Clone, Debug)]
struct Leg {
    hex: HexCoord,
    pref: Preference,
    sp: u8,
    through: Option<UnitId>,
}

/// How a course goes on from some hex: its steps, and whether it stops in the last
/// hex (perhaps among friends, trimmed at the end: CtB 12.1), leaves the map or has
/// nowhere to go.
#[derive(Clone, Debug)]
struct Tail {
    legs: Vec<Leg>,
    end: TailEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TailEnd {
    Stop,
    OffMap,
    NoHex,
}

impl Tail {
    fn stop() -> Self {
        Self {
            legs: Vec::new(),
            end: TailEnd::Stop,
        }
    }

    /// Its rank among the courses from the same hex (R-retreat): the SP it costs, then
    /// the preference of each step in turn.
    fn key(&self) -> (u8, Vec<Preference>) {
        (
            self.legs.iter().map(|l| l.sp).sum(),
            self.legs.iter().map(|l| l.pref).collect(),
        )
    }
}

/// A course from some hex with its rank and, if it ends among friends, the hex it is
/// cut back to (none if every hex of it is taken).
type Ranked = (Tail, (u8, Vec<Preference>), Option<Option<HexCoord>>);

/// The search for a retreat's courses (CtB 12.0-12.2, R-retreat): from each hex and
/// step count, the courses on by the order of preference, each step to a hex no
/// nearer the attacker, keeping its facing; where several hexes are equally preferred
/// every one is followed, and only the best courses from each hex are kept (as few SP,
/// then the same preference at every step), one per hex they end in. The courses
/// from a hex do not depend on how the stand got there, so each is searched once.
struct Search<'w> {
    world: &'w World,
    job: &'w RetreatJob,
    side: crate::engine::units::SideId,
    start: HexCoord,
    terrain: super::data::TerrainClass,
    tables: std::sync::Arc<super::data::Tables>,
    /// Who stands where and the zones of control, fetched once for the whole search.
    look: super::Lookup<'w>,
    zocs: &'w crate::engine::zoc::ZocMap,
    memo: std::collections::HashMap<(HexCoord, u32), Vec<Tail>>,
}

impl Search<'_> {
    fn tails(&mut self, pos: HexCoord, steps: u32) -> Vec<Tail> {
        if let Some(t) = self.memo.get(&(pos, steps)) {
            return t.clone();
        }
        let t = self.search(pos, steps);
        self.memo.insert((pos, steps), t.clone());
        t
    }

    fn search(&mut self, pos: HexCoord, steps: u32) -> Vec<Tail> {
        let (world, job) = (self.world, self.job);
        let id = job.stand;
        // A hex it may not end in (friendly skirmishers it may land on do not count:
        // CtB 12.0 [2]).
        let occupied_by_friend = !may_land(world, job, pos);
        if (steps >= job.length && !occupied_by_friend) || steps > job.length + 12 {
            return vec![Tail::stop()];
        }
        let (look, zocs) = (self.look, self.zocs);
        let board = look.board;
        let enemy = self.side.other();
        let in_enemy_zoc = |h: HexCoord| zocs.covered_by(board, enemy, h);
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
            if n == self.start && steps > 0 {
                continue;
            }
            let nd = n.distance(job.attacker);
            if nd < d {
                continue;
            }
            let occupant = look.stand_at(n).filter(|u| *u != id);
            // Never through an enemy stand, except skirmishers (CtB 12.1).
            let skirmishers = |u: UnitId| {
                look.stand(u)
                    .is_some_and(|s| s.spec.df == super::data::DefensiveFire::Skirmisher)
            };
            if occupant.is_some_and(|u| look.side(u) != self.side && !skirmishers(u)) {
                continue;
            }
            if super::movement::step_cost(&self.tables, board, self.terrain, pos, n).is_none() {
                continue;
            }
            let pref = if nd == d {
                // Sideways only where the way back is shut from the start, or to get
                // clear of friends (CtB 12.1, 12.2); otherwise the retreat stops.
                if steps > 0 && !occupied_by_friend {
                    continue;
                }
                Preference::Sideways
            } else if occupant.is_some() {
                Preference::Friends
            } else if in_enemy_zoc(n) {
                Preference::EnemyZoc
            } else {
                Preference::Clear
            };
            options.push((pref, nd, n));
        }
        options.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        let ends = |end| {
            vec![Tail {
                legs: Vec::new(),
                end,
            }]
        };
        // Beaten next to the edge it must retreat towards, it leaves the board unless
        // friends stand between (CtB 12.2).
        let edge = off_board
            && steps == 0
            && !job.bounce
            && options.first().is_none_or(|o| o.0 == Preference::Sideways);
        if edge {
            return ends(TailEnd::OffMap);
        }
        let Some(&(best, best_d, _)) = options.first() else {
            return if job.bounce || occupied_by_friend || steps > 0 {
                vec![Tail::stop()]
            } else if off_board {
                ends(TailEnd::OffMap)
            } else {
                ends(TailEnd::NoHex)
            };
        };
        let mut found: Vec<(Tail, (u8, Vec<Preference>))> = Vec::new();
        for &(pref, _, next) in options.iter().take_while(|o| o.0 == best && o.1 == best_d) {
            // 1 SP for each sideways step and each enemy zone of control passed
            // through (CtB 12.0 [3], [4], 12.1); none for a bounce.
            let sp = if job.bounce {
                0
            } else {
                u8::from(pref == Preference::Sideways) + u8::from(in_enemy_zoc(next))
            };
            let through = (pref == Preference::Friends)
                .then(|| look.stand_at(next))
                .flatten();
            for tail in self.tails(next, steps + 1) {
                let mut legs = Vec::with_capacity(tail.legs.len() + 1);
                legs.push(Leg {
                    hex: next,
                    pref,
                    sp,
                    through,
                });
                legs.extend(tail.legs);
                let t = Tail {
                    legs,
                    end: tail.end,
                };
                let key = t.key();
                found.push((t, key));
            }
        }
        // A course stuck among friends is cut back to its last hex clear of them, or to
        // nothing, which destroys the stand (CtB 12.1): ranked apart, by that hex (none
        // if all its hexes are taken: where it ends then depends on the way there).
        let occupied = |h: HexCoord| !may_land(world, job, h);
        let cut_back = |t: &Tail| -> Option<Option<HexCoord>> {
            let last = t.legs.last()?;
            occupied(last.hex).then(|| t.legs.iter().rev().map(|l| l.hex).find(|h| !occupied(*h)))
        };
        // Of the courses that stop clear, the best, one for each hex they end in; of
        // those cut back, the best for each hex they are cut back to, ranked whole at
        // the end. In the order found, so the default comes first.
        let cuts: Vec<Option<Option<HexCoord>>> = found.iter().map(|(t, _)| cut_back(t)).collect();
        let min = found
            .iter()
            .zip(&cuts)
            .filter(|(_, cut)| cut.is_none())
            .map(|((_, k), _)| k.clone())
            .min();
        let mut kept: Vec<Ranked> = Vec::new();
        for ((t, k), cut) in found.into_iter().zip(cuts) {
            if cut.is_none() && Some(&k) != min.as_ref() {
                continue;
            }
            let end = t.legs.last().map(|l| l.hex);
            let same = |(o, _, oc): &Ranked| match (&cut, oc) {
                (Some(c), Some(oc)) => c == oc,
                (None, None) => o.legs.last().map(|l| l.hex) == end,
                _ => false,
            };
            match kept.iter().position(same) {
                Some(i) if kept[i].1 <= k => {}
                Some(i) => kept[i] = (t, k, cut),
                None => kept.push((t, k, cut)),
            }
        }
        let kept: Vec<Tail> = kept.into_iter().map(|(t, _, _)| t).collect();
        kept
    }
}

/// Every course the owner may choose among (R-retreat), the default first (the
/// farthest from the attacker, then the lowest hex, at each equal step): one per hex
/// it may end in, each as good as the best all the way (as few SP lost, the same
/// preference at every step). Friends (and enemy skirmishers, CtB 12.1) passed through
/// extend it until it stops clear; sideways steps only where the way back is shut
/// from the start, or to get clear of friends; off the map only from next to the edge
/// (CtB 12.2). A course that keeps the stand is preferred to one that does not.
pub fn courses(world: &World, job: &RetreatJob) -> Vec<Course> {
    let Some(s) = stand(world, job.stand) else {
        return vec![Course::NoHex];
    };
    if s.spec.destroyed_if_beaten && !job.bounce {
        return vec![Course::Beaten];
    }
    let Some(start) = hex_of(world, job.stand) else {
        return vec![Course::NoHex];
    };
    let mut search = Search {
        world,
        job,
        side: side_of(world, job.stand),
        start,
        terrain: s.spec.terrain,
        tables: super::tables(world),
        look: super::Lookup::new(world),
        zocs: world.resource::<crate::engine::zoc::ZocMap>(),
        memo: Default::default(),
    };
    let mut ranked: Vec<(Course, (u8, Vec<Preference>))> = search
        .tails(start, 0)
        .into_iter()
        .map(|t| {
            let key = t.key();
            let course = match t.end {
                TailEnd::OffMap => Course::OffMap,
                TailEnd::NoHex => Course::NoHex,
                TailEnd::Stop => finish(world, job, t.legs),
            };
            let key = match course {
                Course::Path { .. } => key,
                _ => (u8::MAX, key.1),
            };
            (course, key)
        })
        .collect();
    let best = ranked.iter().map(|(_, k)| k.clone()).min();
    ranked.retain(|(_, k)| Some(k) == best.as_ref());
    let mut out: Vec<Course> = Vec::new();
    for (c, _) in ranked {
        if !out.iter().any(|o| o.end() == c.end()) {
            out.push(c);
        }
    }
    out
}

/// A course's steps made a path: stuck among friends, back to the last hex clear of
/// them, or, if it never got clear, it cannot retreat (CtB 12.1, 12.2).
fn finish(world: &World, job: &RetreatJob, legs: Vec<Leg>) -> Course {
    let id = job.stand;
    let side = side_of(world, id);
    let sp_cost = legs.iter().map(|l| l.sp).sum();
    let mut path: Vec<HexCoord> = legs.iter().map(|l| l.hex).collect();
    let mut passed: Vec<UnitId> = Vec::new();
    let mut enemies_passed: Vec<UnitId> = Vec::new();
    for u in legs.iter().filter_map(|l| l.through) {
        if side_of(world, u) == side {
            passed.push(u);
        } else {
            enemies_passed.push(u);
        }
    }
    let occupied = |h: &HexCoord| !may_land(world, job, *h);
    if path.last().is_some_and(occupied) {
        while path.last().is_some_and(occupied) {
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
    // Friendly skirmishers where it lands are pushed back first (CtB 12.0 [2]).
    if pos != start
        && let Some(sk) = stand_at(world, pos)
        && let Some(to) = push_back(world, job, pos)
    {
        super::carry(world, sk, to);
        super::status_mut(world, sk).opportunity = false;
        log(world, EventKind::Displaced, "CtB 12.0", |w| {
            format!(
                "{} retreats onto {} in {pos}, pushing them back to {to}",
                plain_name(w, id),
                plain_name(w, sk)
            )
        });
    }
    if pos != start {
        super::carry(world, id, pos);
    }
    world
        .resource_mut::<CtbState>()
        .melees
        .retain(|m| !m.stands.contains(&id));
    if job.disorder {
        super::disorder(world, id);
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
            super::disorder(world, friend);
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

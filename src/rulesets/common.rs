//! The shared rules layer: what every ruleset needs and would otherwise write again —
//! unit accessors, logging and dice, moving a unit, zones of control brought up to date
//! on demand, finding a unit by its scenario id, reading a ruleset's tables, the tree of
//! cheapest paths of a movement range, a random pick for autoplay, one-pass scans of
//! every unit, and the checks of a secret placement zone.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::engine::board::{Board, HexsideFeature};
use crate::engine::cached::CachedWorld;
use crate::engine::dice::Dice;
use crate::engine::error::LocatedError;
use crate::engine::event::{EventKind, GameLog};
use crate::engine::game::{ScenarioInfo, TurnState};
use crate::engine::hex::HexCoord;
use crate::engine::scenario::{HexZone, LoadedScenario, read_text};
use crate::engine::units::{Hidden, Leader, Placement, SideId, UnitId, UnitName, Units};
use crate::engine::zoc::recompute_zones_of_control;

// ---- whole-army scans ----

/// A query over every unit, built once per game: scans that look at the whole army
/// (reachability, supports, autoplay) read components through it instead of one
/// `World::get` (a resource and a type lookup each) per component and unit. `D` is the
/// ruleset's own tuple of components; the mutex lets a `&World` update the query's
/// archetypes (a zone-of-control marker added or removed moves a unit to another).
#[derive(Resource)]
pub struct UnitScan<D: bevy::ecs::query::ReadOnlyQueryData + 'static>(
    std::sync::Mutex<bevy::ecs::query::QueryState<D>>,
);

impl<D: bevy::ecs::query::ReadOnlyQueryData + 'static> UnitScan<D> {
    /// Builds the query; the ruleset calls it when it populates the world.
    pub fn install(world: &mut World) {
        let query = world.query::<D>();
        world.insert_resource(Self(std::sync::Mutex::new(query)));
    }

    /// `f` of every unit, in the query's order (not id order: sort when it matters).
    pub fn map<'w, T>(
        world: &'w World,
        mut f: impl for<'s> FnMut(<D::ReadOnly as bevy::ecs::query::QueryData>::Item<'w, 's>) -> T,
    ) -> Vec<T> {
        let scan = world.resource::<Self>();
        let mut query = scan.0.lock().unwrap_or_else(|poison| poison.into_inner());
        query.iter(world).map(&mut f).collect()
    }
}

// ---- accessors ----
// The small accessors are `#[inline]`: rules call them in their inner loops from other
// modules, which release builds may put in other codegen units.

#[inline]
pub fn entity(world: &World, id: UnitId) -> Entity {
    world.res::<Units>().entity(id)
}

/// A component every unit of the ruleset has (its values, its flags).
#[inline]
pub fn component<C: Component>(world: &World, id: UnitId) -> &C {
    component_of(world, world.res::<Units>(), id)
}

/// `component` with the unit index in hand: rules that read many units' components
/// look the index up once (a resource look-up costs as much as the component's).
#[inline]
pub fn component_of<'w, C: Component>(world: &'w World, units: &Units, id: UnitId) -> &'w C {
    world
        .get::<C>(units.entity(id))
        .unwrap_or_else(|| panic!("unit {} has no {}", id.0, std::any::type_name::<C>()))
}

#[inline]
pub fn component_mut<C: Component<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    id: UnitId,
) -> Mut<'_, C> {
    let e = entity(world, id);
    world
        .get_mut::<C>(e)
        .unwrap_or_else(|| panic!("unit {} has no {}", id.0, std::any::type_name::<C>()))
}

#[inline]
pub fn placement(world: &World, id: UnitId) -> Placement {
    world.res::<Units>().placement(id)
}

#[inline]
pub fn hex_of(world: &World, id: UnitId) -> Option<HexCoord> {
    placement(world, id).hex()
}

#[inline]
pub fn side_of(world: &World, id: UnitId) -> SideId {
    world.res::<Units>().side(id)
}

/// A unit changes sides (a defection, a foreign corps going over): its component and
/// the unit index together. Zones of control follow at the next `refresh_zones`.
pub fn set_side(world: &mut World, id: UnitId, side: SideId) {
    let e = entity(world, id);
    *world.get_mut::<SideId>(e).expect("units have a side") = side;
    world.resource_mut::<Units>().change_side(id, side);
    zones_stale(world);
}

#[inline]
pub fn is_leader(world: &World, id: UnitId) -> bool {
    world.get::<Leader>(entity(world, id)).is_some()
}

#[inline]
pub fn is_hidden(world: &World, id: UnitId) -> bool {
    world.get_cached::<Hidden>(entity(world, id)).is_some()
}

/// The unit's name with its hex, as log lines and refusals give it: "Swabians (0505)".
pub fn name(world: &World, id: UnitId) -> String {
    let n = world
        .get_cached::<UnitName>(entity(world, id))
        .expect("units have names");
    match hex_of(world, id) {
        Some(h) => format!("{} ({h})", n.name),
        None => n.name.clone(),
    }
}

/// The unit's printed name alone.
pub fn plain_name(world: &World, id: UnitId) -> String {
    world
        .get_cached::<UnitName>(entity(world, id))
        .map(|n| n.name.clone())
        .unwrap_or_default()
}

pub fn side_name(world: &World, side: SideId) -> String {
    world.resource::<ScenarioInfo>().0.file.sides[side.0 as usize]
        .name
        .clone()
}

#[inline]
pub fn turn(world: &World) -> &TurnState {
    world.res::<TurnState>()
}

/// The turn of `side`'s next phase, in a game of player turns, the first side's then
/// the other's: this turn's if `side` moves second, else the next turn's. The threat
/// maps read it for the side that does not act now.
pub fn next_turn_of(world: &World, side: SideId) -> u32 {
    let t = turn(world);
    if side == t.first { t.turn + 1 } else { t.turn }
}

/// Every unit id, in id order.
pub fn all_units(world: &World) -> Vec<UnitId> {
    world.res::<Units>().ids().collect()
}

/// The first unit in a hex, in id order (the one unit a hex of a ruleset without
/// stacking), without building a list.
#[inline]
pub fn unit_at(world: &World, hex: HexCoord) -> Option<UnitId> {
    world
        .res::<Units>()
        .at(world.res::<Board>(), hex)
        .first()
        .copied()
}

/// The units in a hex, in the hex index's order.
#[inline]
pub fn units_at(world: &World, hex: HexCoord) -> Vec<UnitId> {
    world.res::<Units>().at(world.res::<Board>(), hex).to_vec()
}

/// How a command names a unit: by its scenario id.
#[inline]
pub fn key(world: &World, id: UnitId) -> crate::engine::command::UnitRef {
    crate::engine::command::UnitRef::Key(
        world
            .get_cached::<UnitName>(entity(world, id))
            .map(|n| n.key.clone())
            .unwrap_or_default(),
    )
}

/// The unit a command names by its scenario id.
pub fn unit_by_key(world: &World, key: &str) -> Option<UnitId> {
    // Units are spawned in the scenario's order, unit `i` as `UnitId(i)`: the scenario's
    // list finds the key without reading each unit's name from the world.
    let index = world.resource::<ScenarioInfo>().0.unit_index(key)?;
    debug_assert!(
        world
            .get_cached::<UnitName>(entity(world, UnitId(index as u16)))
            .is_some_and(|n| n.key == key)
    );
    Some(UnitId(index as u16))
}

// ---- the log and the dice ----

/// Logs an event; the text is built (from the world as it is now) only when kept.
pub fn log(
    world: &mut World,
    kind: EventKind,
    rule: &'static str,
    text: impl FnOnce(&World) -> String,
) {
    // One look-up of the log when its text is off (autoplay, the benches).
    let mut events = world.resource_mut::<GameLog>();
    if !events.keep_text {
        events.push(kind, rule, String::new);
        return;
    }
    let text = text(world);
    world.resource_mut::<GameLog>().push(kind, rule, || text);
}

/// Rolls 1d6 through the game's one dice resource and logs it.
pub fn roll(world: &mut World, rule: &'static str, purpose: impl FnOnce(&World) -> String) -> u8 {
    let value = world.resource_mut::<Dice>().d6();
    log(world, EventKind::DieRolled, rule, |w| {
        format!("Die: {value} for {}", purpose(w))
    });
    value
}

/// Rolls one die of `sides` faces (a d4, a d9, ...) and logs it.
pub fn roll_die(
    world: &mut World,
    sides: u8,
    rule: &'static str,
    purpose: impl FnOnce(&World) -> String,
) -> u8 {
    let value = world.resource_mut::<Dice>().die(sides);
    log(world, EventKind::DieRolled, rule, |w| {
        format!("Die (d{sides}): {value} for {}", purpose(w))
    });
    value
}

/// Rolls the average die (2, 3, 3, 4, 4, 5) and logs it.
pub fn roll_average(
    world: &mut World,
    rule: &'static str,
    purpose: impl FnOnce(&World) -> String,
) -> u8 {
    let (value, face) = world.resource_mut::<Dice>().avd();
    log(world, EventKind::DieRolled, rule, |w| {
        format!("AvD {value} (d6 {face}) for {}", purpose(w))
    });
    value
}

// ---- moving units and their zones of control ----

/// Moves a unit (or removes it) and keeps the hex index current. Zones of control
/// follow at the next `refresh_zones`.
pub fn set_placement(world: &mut World, id: UnitId, to: Placement) {
    let units = world.res::<Units>();
    let from = units.placement(id);
    if from == to {
        return;
    }
    let e = units.entity(id);
    *world
        .get_mut::<Placement>(e)
        .expect("units have a placement") = to;
    // Indices first: borrowing the board and the units together would need a
    // `resource_scope`, which takes the resource out of the world and puts it back.
    let board = world.res::<Board>();
    let (i, j) = (
        from.hex().and_then(|h| board.index(h)),
        to.hex().and_then(|h| board.index(h)),
    );
    world.resource_mut::<Units>().relocate(id, to, i, j);
    zones_stale(world);
}

/// The zone-of-control system, kept ready to run on demand, and whether anything it
/// reads may have changed since it last ran.
#[derive(Resource, Default)]
pub struct ZoneSystem(Option<Box<dyn System<In = (), Out = ()>>>, bool);

/// Notes that placements, sides, facings or hiding changed: zones need recomputing.
pub fn zones_stale(world: &mut World) {
    match world.get_resource_mut::<ZoneSystem>() {
        Some(mut z) => z.1 = true,
        None => world.insert_resource(ZoneSystem(None, true)),
    }
}

/// Whether the zones are current (nothing changed since they were last computed).
#[inline]
pub fn zones_current(world: &World) -> bool {
    world
        .get_resource::<ZoneSystem>()
        .is_some_and(|z| !z.1 && z.0.is_some())
}

/// A world's zones after a copy of a game's state into it (`engine::snapshot`): the
/// zones are copied with the units; they are current in the copy when they were in
/// the game copied from, so that the copy reads what the game would have read.
pub fn zones_after_copy(from: &World, to: &mut World) {
    if !zones_current(from) {
        zones_stale(to);
        return;
    }
    let system = take_zone_system(to);
    to.insert_resource(ZoneSystem(Some(system), false));
}

/// The world's zone system, taken out of its resource, or built for it the first time.
fn take_zone_system(world: &mut World) -> Box<dyn System<In = (), Out = ()>> {
    world
        .get_resource_mut::<ZoneSystem>()
        .and_then(|mut s| s.0.take())
        .unwrap_or_else(|| {
            let mut s: Box<dyn System<In = (), Out = ()>> =
                Box::new(IntoSystem::into_system(recompute_zones_of_control));
            s.initialize(world);
            s
        })
}

/// Brings `ZocMap` and every unit's `ZoneOfControl` up to date.
pub fn refresh_zones(world: &mut World) {
    if zones_current(world) {
        return;
    }
    // The one zone system (the same the engine plugin schedules each frame), run on
    // demand so that rules read current zones. Held in a resource rather than run with
    // `run_system_cached`, whose registry moves the system's entity between archetypes
    // on every call: this runs after every command, and autoplay runs millions.
    let mut system = take_zone_system(world);
    let _ = system.run((), world);
    world.insert_resource(ZoneSystem(Some(system), false));
}

// ---- tables ----

/// Finds `rulesets/<id>/<file>` in the scenario's folder or one of its parents.
pub fn find_table(scenario_path: &Path, id: &str, file: &str) -> Option<PathBuf> {
    let start = scenario_path.canonicalize().ok()?;
    start
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("rulesets").join(id).join(file))
        .find(|p| p.is_file())
}

/// A ruleset's tables as one value: its `N` files, their built-in copies and how they
/// are parsed and checked; reading them (beside or above a scenario, else built in) is
/// the same for every ruleset.
pub trait RulesetTables<const N: usize>: Sized {
    /// The ruleset's id: the tables are `rulesets/<ID>/<file>`.
    const ID: &'static str;
    /// The file names, in the order `parse` takes them.
    const FILES: [&'static str; N];
    /// The copies built into the program, in the same order.
    const BUILTIN: [&'static str; N];

    /// Parses and checks the tables; `names` are the file names shown in errors.
    fn parse(names: [&str; N], texts: [String; N]) -> Result<Self, LocatedError>;

    /// The tables built into the program.
    fn builtin() -> Result<Self, LocatedError> {
        Self::read(None)
    }

    /// The tables found beside or above a scenario, else the built-in ones.
    fn for_scenario(scenario: &Path) -> Result<Self, LocatedError> {
        Self::read(Some(scenario))
    }

    /// The tables of `scenario`, or the built-in ones.
    fn read(scenario: Option<&Path>) -> Result<Self, LocatedError> {
        let (names, texts) = read_tables(scenario, Self::ID, Self::FILES, Self::BUILTIN)?;
        Self::parse(names.each_ref().map(String::as_str), texts)
    }
}

/// The names (for errors) and texts of a ruleset's table files: each found beside or
/// above the scenario when present (so edited tables take effect), else the copy built
/// into the program, named `rulesets/<id>/<file>`.
pub fn read_tables<const N: usize>(
    scenario: Option<&Path>,
    id: &str,
    files: [&str; N],
    builtin: [&str; N],
) -> Result<([String; N], [String; N]), LocatedError> {
    let mut names: [String; N] = std::array::from_fn(|_| String::new());
    let mut texts: [String; N] = std::array::from_fn(|_| String::new());
    for i in 0..N {
        match scenario.and_then(|s| find_table(s, id, files[i])) {
            Some(p) => {
                names[i] = p.display().to_string();
                texts[i] = read_text(&p)?;
            }
            None => {
                names[i] = format!("rulesets/{id}/{}", files[i]);
                texts[i] = builtin[i].to_string();
            }
        }
    }
    Ok((names, texts))
}

// ---- tables ----

/// Reads one of a ruleset's tables from its RON text; `file` names it in errors.
pub fn parse_table<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<T, LocatedError> {
    crate::engine::scenario::ron_options()
        .from_str(text)
        .map_err(|e| LocatedError::from_ron(file, text, &e))
}

/// The odds of a CRT's column headings, in tenths, each read by `read` (`like` says what
/// a heading looks like in the refusal), rising from the lowest odds to the highest, one
/// of them 1-1. `at(needle, message)` locates an error in the table's text.
pub fn crt_columns(
    columns: &[String],
    read: impl Fn(&str) -> Option<(i32, i32)>,
    like: &str,
    at: impl Fn(&str, String) -> LocatedError,
) -> Result<Vec<(i32, i32)>, LocatedError> {
    let mut ratios = Vec::new();
    for c in columns {
        ratios.push(read(c).ok_or_else(|| {
            at(
                &format!("\"{c}\""),
                format!("CRT column `{c}` is not {like}"),
            )
        })?);
    }
    if ratios.is_empty() || !ratios.windows(2).all(|w| w[0].0 * w[1].1 < w[1].0 * w[0].1) {
        return Err(at(
            "columns",
            "CRT columns must rise from the lowest odds to the highest".into(),
        ));
    }
    if !ratios.iter().any(|r| r.0 == r.1) {
        return Err(at("columns", "the CRT has no 1-1 column".into()));
    }
    Ok(ratios)
}

/// The cells of row `die` of a results table (`table` names it: "CRT", ...), each code
/// read by `read`, an error located at the first code it refuses.
pub fn table_cells<C>(
    table: &str,
    die: i32,
    codes: &[String],
    read: impl Fn(&str) -> Result<C, String>,
    at: impl Fn(&str, String) -> LocatedError,
) -> Result<Vec<C>, LocatedError> {
    codes
        .iter()
        .map(|code| {
            read(code).map_err(|m| at(&format!("\"{code}\""), format!("{table} row {die}: {m}")))
        })
        .collect()
}

// ---- odds ----

/// An odds heading of a CRT, "a-d", as (a, d) in tenths: "3-1" is (30, 10), "1.5-1" is
/// (15, 10). One side is 1; the other has at most one decimal. `None` otherwise.
pub fn parse_odds(heading: &str) -> Option<(i32, i32)> {
    let tenths = |x: &str| -> Option<i32> {
        let x = x.trim();
        let (whole, frac) = match x.split_once('.') {
            Some((w, f)) if f.len() == 1 => (w, f.parse::<i32>().ok()?),
            Some(_) => return None,
            None => (x, 0),
        };
        let whole: i32 = whole.parse().ok()?;
        (0..=99).contains(&whole).then_some(whole * 10 + frac)
    };
    let (a, d) = heading.split_once('-')?;
    let (a, d) = (tenths(a)?, tenths(d)?);
    (a > 0 && d > 0 && (a == 10 || d == 10)).then_some((a, d))
}

/// The column of `attack` against `defense` among `ratios` (lowest odds first): the
/// highest whose ratio is at most attack:defense, so the odds round in the defender's
/// favour; the first column below them all, the last above them all.
pub fn odds_column(ratios: &[(i32, i32)], attack: i32, defense: i32) -> usize {
    if defense <= 0 {
        return ratios.len().saturating_sub(1);
    }
    if attack <= 0 {
        return 0;
    }
    let mut column = 0;
    for (i, &(a, d)) in ratios.iter().enumerate() {
        if attack * d >= a * defense {
            column = i;
        }
    }
    column
}

/// The possessive of a name: "Syagrius'", "Franks'", but "Ragnachar's".
pub fn possessive(name: &str) -> String {
    if name.ends_with(['s', 'S']) {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

// ---- scenario checks ----

/// The check of a ruleset whose last turn ends in the victory the scenario names: its
/// `at_time_limit` must be there (`rule` is the section that says so).
pub fn require_time_limit(
    scenario: &LoadedScenario,
    ruleset: &str,
    rule: &str,
) -> Result<(), LocatedError> {
    if scenario.file.at_time_limit.is_some() {
        return Ok(());
    }
    Err(scenario.field_error(
        "turns",
        None,
        0,
        format!(
            "{ruleset} needs `at_time_limit: (winner: SIDE, level: Minor or Major)`: who wins when the last turn ends with no other victory ({rule})"
        ),
    ))
}

/// The check of a ruleset that has no field defences: a hexside with `field_defence`
/// is refused, at that hexside, rather than silently ignored (`why` says what the
/// ruleset has instead, with its section).
pub fn refuse_field_defences(
    scenario: &LoadedScenario,
    ruleset: &str,
    why: &str,
) -> Result<(), LocatedError> {
    let fortified = scenario
        .file
        .map
        .hexsides
        .iter()
        .find(|s| s.features.contains(&HexsideFeature::FieldDefence));
    let Some(s) = fortified else {
        return Ok(());
    };
    let (a, b) = s.between;
    Err(scenario.error_at(
        &format!("(\"{a}\", \"{b}\")"),
        0,
        format!("the hexside {a}/{b} has field defences, which {ruleset} does not have: {why}"),
    ))
}

/// The checks of a unit placed in secret in a zone: it has no hex in the unit list,
/// and its zone is a non-empty rectangle on the map.
pub fn check_hidden_placement(
    scenario: &LoadedScenario,
    unit: &str,
    zone: &HexZone,
) -> Result<(), LocatedError> {
    let file = &scenario.file;
    let spec = file.units.iter().find(|u| u.id == unit);
    if spec.is_some_and(|s| s.hex.is_some()) {
        return Err(scenario.unit_error(
            unit,
            Some("hex"),
            format!("`{unit}` is placed in secret, so it must have no hex in the unit list"),
        ));
    }
    let on_map = zone.min_col >= 1
        && zone.min_row >= 1
        && zone.max_col <= file.map.columns
        && zone.max_row <= file.map.rows
        && zone.min_col <= zone.max_col
        && zone.min_row <= zone.max_row;
    if !on_map {
        return Err(scenario.error_at(
            "zone",
            0,
            format!("the secret placement zone of `{unit}` is empty or leaves the map"),
        ));
    }
    Ok(())
}

// ---- movement ranges and autoplay ----

/// The hexes a unit can reach this phase, each with its cheapest cost (in the ruleset's
/// movement units), and the tree of cheapest paths a Dijkstra search left.
#[derive(Clone, Debug)]
pub struct ReachMap<C> {
    /// Hexes where the unit may end its move, sorted, with their cost.
    pub ends: Vec<(HexCoord, C)>,
    /// For each hex (by the board's flat index), the hex before it on its cheapest path.
    prev: Vec<Option<HexCoord>>,
    columns_rows: (i32, i32),
}

impl<C> Default for ReachMap<C> {
    fn default() -> Self {
        Self {
            ends: Vec::new(),
            prev: Vec::new(),
            columns_rows: (0, 0),
        }
    }
}

impl<C> ReachMap<C> {
    /// The result of a search over `board`: `prev` by flat hex index.
    pub fn new(board: &Board, ends: Vec<(HexCoord, C)>, prev: Vec<Option<HexCoord>>) -> Self {
        Self {
            ends,
            prev,
            columns_rows: (board.columns, board.rows),
        }
    }

    /// The cheapest path to `to` (start hex excluded).
    pub fn path_to(&self, to: HexCoord) -> Vec<HexCoord> {
        let (cols, rows) = self.columns_rows;
        let index = |h: HexCoord| ((h.col - 1) * rows + (h.row - 1)) as usize;
        let inside = |h: HexCoord| (1..=cols).contains(&h.col) && (1..=rows).contains(&h.row);
        if !inside(to) || self.prev.is_empty() {
            return Vec::new();
        }
        let mut path = vec![to];
        let mut at = self.prev[index(to)];
        while let Some(p) = at {
            path.push(p);
            at = self.prev[index(p)];
        }
        path.reverse();
        path
    }
}

/// Autoplay's candidates, each with a weight: `pick` draws exactly as `common::pick`
/// would from a list holding each candidate `weight` times in turn (the same die, the
/// same choice), without copying a candidate for each of its chances.
pub struct Weighted<T> {
    items: Vec<(T, usize)>,
    total: usize,
}

impl<T> Default for Weighted<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            total: 0,
        }
    }
}

impl<T> Weighted<T> {
    /// Adds a candidate with `weight` chances (none when 0).
    pub fn push(&mut self, item: T, weight: usize) {
        if weight > 0 {
            self.items.push((item, weight));
            self.total += weight;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// One candidate at random by weight, `None` when there is none.
    pub fn pick(self, rng: &mut rand_chacha::ChaCha8Rng) -> Option<T> {
        use rand::RngExt;
        if self.total == 0 {
            return None;
        }
        let mut k = rng.random_range(0..self.total);
        for (item, weight) in self.items {
            if k < weight {
                return Some(item);
            }
            k -= weight;
        }
        None
    }
}

/// One of `items` at random, `None` when there is none (autoplay).
pub fn pick<T: Clone>(rng: &mut rand_chacha::ChaCha8Rng, items: &[T]) -> Option<T> {
    use rand::RngExt;
    (!items.is_empty()).then(|| items[rng.random_range(0..items.len())].clone())
}

// ---- what a side cannot see, drawn again for the computer opponent ----

/// Draws again the hex of every unit hidden from `observer` (`Hidden`, of another
/// side, on the map), each among `places(world, unit)`: the hexes the rules and what
/// `observer` has seen leave open to it, read with all those units lifted off the map
/// so that their true hexes count for nothing. Units are drawn in id order, two never
/// to one hex; a unit with no place open goes to any hex its places would have had,
/// or, with none, stays where it is.
pub fn redraw_hidden_units(
    world: &mut World,
    observer: SideId,
    rng: &mut rand_chacha::ChaCha8Rng,
    places: impl Fn(&World, UnitId) -> Vec<HexCoord>,
) {
    use rand::RngExt;
    let hidden: Vec<(UnitId, Placement)> = all_units(world)
        .into_iter()
        .filter(|u| side_of(world, *u) != observer && is_hidden(world, *u))
        .filter_map(|u| hex_of(world, u).map(|_| (u, placement(world, u))))
        .collect();
    for (u, _) in &hidden {
        set_placement(world, *u, Placement::Waiting);
    }
    let mut taken: Vec<HexCoord> = Vec::new();
    for (u, was) in hidden {
        let open: Vec<HexCoord> = places(world, u)
            .into_iter()
            .filter(|h| !taken.contains(h))
            .collect();
        let to = if open.is_empty() {
            was
        } else {
            Placement::OnMap(open[rng.random_range(0..open.len())])
        };
        if let Some(h) = to.hex() {
            taken.push(h);
        }
        set_placement(world, u, to);
    }
    zones_stale(world);
    refresh_zones(world);
}

/// The bodies `units` make for the computer opponent's group marches
/// (`Ruleset::groups`): each set of units joined to the others through a chain of
/// `joined` neighbours, its ids in order; those of two units or more that `keeps`
/// accepts, largest first (then by their first id).
pub fn bodies(
    units: &[(UnitId, HexCoord)],
    joined: impl Fn((UnitId, HexCoord), (UnitId, HexCoord)) -> bool,
    keeps: impl Fn(&[UnitId]) -> bool,
) -> Vec<Vec<UnitId>> {
    let mut taken = vec![false; units.len()];
    let mut out: Vec<Vec<UnitId>> = Vec::new();
    for start in 0..units.len() {
        if taken[start] {
            continue;
        }
        taken[start] = true;
        let mut members = vec![start];
        let mut next = 0;
        while next < members.len() {
            let here = units[members[next]];
            next += 1;
            for (k, other) in units.iter().enumerate() {
                if !taken[k] && joined(here, *other) {
                    taken[k] = true;
                    members.push(k);
                }
            }
        }
        let mut body: Vec<UnitId> = members.into_iter().map(|k| units[k].0).collect();
        body.sort();
        if body.len() > 1 && keeps(&body) {
            out.push(body);
        }
    }
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
    out
}

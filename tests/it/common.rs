//! Helpers shared by the integration tests: loading the shipped scenarios, building
//! small A la Charge test positions as RON, and finding seeds that roll given dice.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use bataille::engine::dice::Dice;
use bataille::engine::game::Game;
use bataille::rulesets::parse_line;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every scenario file under scenarios/, in order.
pub fn every_scenario() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for ruleset in std::fs::read_dir(root().join("scenarios")).unwrap() {
        for file in std::fs::read_dir(ruleset.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "ron") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
}

pub fn civitate_path() -> PathBuf {
    root().join("scenarios/a_la_charge/civitate_1053.ron")
}

pub fn kalavryai_path() -> PathBuf {
    root().join("scenarios/a_la_charge/kalavryai_1078.ron")
}

/// A new game of a shipped scenario, `path` under `scenarios/` (e.g.
/// `charge_and_melee/maldon_991.ron`), with no option.
pub fn shipped(path: &str, seed: u64) -> Game {
    Game::start(&root().join("scenarios").join(path), seed, &[])
        .unwrap_or_else(|e| panic!("{path} loads: {e}"))
}

pub fn civitate(seed: u64) -> Game {
    Game::start(&civitate_path(), seed, &[]).expect("Civitate loads")
}

pub fn kalavryai(seed: u64) -> Game {
    Game::start(&kalavryai_path(), seed, &[]).expect("Kalavryai loads")
}

/// A scratch directory for files a test writes, unique per call. They all lie in one
/// directory of this run (`bataille-test-<pid>`); the first call removes those that
/// runs no longer alive left behind, so that the temporary directory does not fill
/// with a run's files every time the tests run.
pub fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    static RUN_DIR: OnceLock<PathBuf> = OnceLock::new();
    let run_dir = RUN_DIR.get_or_init(|| {
        remove_dead_runs_scratch();
        std::env::temp_dir().join(format!("bataille-test-{}", std::process::id()))
    });
    let dir = run_dir.join(format!("{}-{name}", N.fetch_add(1, Ordering::SeqCst)));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Removes the scratch directories of earlier test runs whose process has ended.
/// Whether a process lives is read from `/proc`; where there is none, nothing is
/// removed rather than a live run's files.
fn remove_dead_runs_scratch() {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("bataille-test-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !proc.join(pid.to_string()).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

pub fn write(dir: &Path, file: &str, text: &str) -> PathBuf {
    let p = dir.join(file);
    std::fs::write(&p, text).expect("write test file");
    p
}

/// A unit of a test position: (id, side "a"|"b", type, hex).
pub type U<'a> = (&'a str, &'a str, &'a str, &'a str);

/// The RON of a small A la Charge position on a 10x10 clear map. Side `a` moves first.
/// `map` is RON added to the map, e.g. `terrain: { "woods": ["0505"] }`; `extra` RON
/// added to the scenario, e.g. `special_rules: [...]`.
pub fn position_ron(units: &[U], map: &str, extra: &str) -> String {
    let list: Vec<String> = units
        .iter()
        .map(|(id, side, t, hex)| {
            // A hex written `0505r` places the unit on its reduced side.
            if let Some(h) = hex.strip_suffix('r') {
                format!("(id: \"{id}\", name: \"{id}\", side: \"{side}\", type: \"{t}\", hex: \"{h}\", reduced: true)")
            } else if hex.is_empty() {
                format!("(id: \"{id}\", name: \"{id}\", side: \"{side}\", type: \"{t}\")")
            } else {
                format!("(id: \"{id}\", name: \"{id}\", side: \"{side}\", type: \"{t}\", hex: \"{hex}\")")
            }
        })
        .collect();
    let commander = |side: &str| {
        units
            .iter()
            .find(|(_, s, t, _)| *s == side && t.starts_with("leader"))
            .map(|(id, ..)| format!(", commander: \"{id}\""))
            .unwrap_or_default()
    };
    format!(
        r#"(
    name: "Test position",
    date: "1053",
    ruleset: "a_la_charge",
    turns: 5,
    map: (columns: 10, rows: 10, {map}),
    sides: [
        (id: "a", name: "Side A", morale_level: 30{}),
        (id: "b", name: "Side B", morale_level: 30{}),
    ],
    first: "a",
    units: [
        {}
    ],
    {extra}
    at_time_limit: (winner: "b", level: Minor),
)"#,
        commander("a"),
        commander("b"),
        list.join(",\n        ")
    )
}

/// Starts a game of a test position.
pub fn position(units: &[U], map: &str, extra: &str, seed: u64) -> Game {
    game_of(&position_ron(units, map, extra), seed, &[])
}

/// Starts a game of a scenario text, with options.
pub fn game_of(ron: &str, seed: u64, options: &[&str]) -> Game {
    let dir = scratch("position");
    let path = write(&dir, "position.ron", ron);
    let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    Game::start(&path, seed, &options).unwrap_or_else(|e| panic!("test position loads: {e}"))
}

/// The first seed from which the dice roll `rolls` in that order.
pub fn seed_rolling(rolls: &[u8]) -> u64 {
    (0..1_000_000u64)
        .find(|&s| {
            let mut d = Dice::new(s);
            rolls.iter().all(|r| d.d6() == *r)
        })
        .expect("some seed rolls these dice")
}

/// Submits script lines, panicking with the refusal if one is refused.
pub fn run(game: &mut Game, lines: &[&str]) {
    for l in lines {
        let cmd = parse_line(l).expect("parses").expect("a command");
        if let Err(r) = game.submit(&cmd) {
            panic!(
                "`{l}` refused: {r}\nlog:\n{}",
                game.log().lines().collect::<Vec<_>>().join("\n")
            );
        }
    }
}

/// Submits one line and returns the refusal text, panicking if it was accepted.
pub fn refused(game: &mut Game, line: &str) -> String {
    let cmd = parse_line(line).expect("parses").expect("a command");
    match game.submit(&cmd) {
        Ok(()) => panic!("`{line}` was accepted"),
        Err(r) => r.to_string(),
    }
}

/// The unit's JSON state by id.
pub fn unit_state(game: &Game, id: &str) -> serde_json::Value {
    game.state_json()["units"]
        .as_array()
        .expect("units")
        .iter()
        .find(|u| u["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no unit {id}"))
}

pub fn hex(game: &Game, id: &str) -> Option<String> {
    unit_state(game, id)["hex"].as_str().map(str::to_string)
}

pub fn steps(game: &Game, id: &str) -> u64 {
    unit_state(game, id)["steps"].as_u64().unwrap_or(0)
}

pub fn status(game: &Game, id: &str) -> String {
    unit_state(game, id)["status"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

pub fn log_text(game: &Game) -> String {
    game.log().lines().collect::<Vec<_>>().join("\n")
}

/// The 1-based line and column of `needle` inside the first line of `text` holding
/// `line_with`: where a located error should point.
pub fn place(text: &str, line_with: &str, needle: &str) -> (usize, usize) {
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(line_with))
        .expect("the line");
    (
        n + 1,
        line[..line.find(needle).expect("the needle")]
            .chars()
            .count()
            + 1,
    )
}

/// Answers every retreat waiting for its owner's choice among equally preferred hexes
/// (CtB 12.0, R-retreat) with the first hex offered, the default course; returns how
/// many were answered.
pub fn default_retreats(game: &mut Game) -> usize {
    let mut answered = 0;
    while let Some(d) = game
        .ruleset
        .decision(&game.world)
        .filter(|d| d.rule == "CtB 12.0")
    {
        let c = d
            .choices
            .first()
            .expect("a retreat offers hexes")
            .command
            .clone();
        game.submit(&c).expect("the offered retreat is accepted");
        answered += 1;
    }
    answered
}

/// The seed a recorded script was recorded with: the first `--seed N` of its header's
/// comment lines, so that the seed is written once, beside the commands it replays.
pub fn script_seed(script: &str) -> u64 {
    script
        .lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| {
            let rest = &l[l.find("--seed ")? + "--seed ".len()..];
            rest.split_whitespace().next()?.parse().ok()
        })
        .expect("the script's header names its seed with `--seed N`")
}

/// The decision the game waits for, if any (a reaction, a choice: the engine's view).
pub fn decision(g: &Game) -> Option<bataille::engine::view::Decision> {
    g.ruleset.decision(&g.world)
}

/// A unit's facing by name (`"E"`, `"NNW"`), or empty.
pub fn facing(g: &Game, id: &str) -> String {
    unit_state(g, id)["facing"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The recorded scripts (`scripts/`), each with its scenario and options: the seed is in
/// its header (`script_seed`).
pub const RECORDED_SCRIPTS: [(&str, &[&str], &str); 7] = [
    ("a_la_charge/civitate_1053.ron", &[], "civitate_opening.txt"),
    (
        "a_la_charge/civitate_1053.ron",
        &[],
        "civitate_full_game.txt",
    ),
    (
        "champs_de_bataille/soissons_486.ron",
        &[],
        "soissons_full_game.txt",
    ),
    (
        "champs_de_bataille/soissons_486.ron",
        &["scenario_deployment"],
        "soissons_reconstructed_deployment_game.txt",
    ),
    (
        "morne_plaine/quatre_bras_1815.ron",
        &[],
        "quatre_bras_full_game.txt",
    ),
    (
        "charles_the_bold/falkirk_1298.ron",
        &[],
        "falkirk_full_game.txt",
    ),
    (
        "charge_and_melee/maldon_991.ron",
        &[],
        "maldon_full_game.txt",
    ),
];

/// A copy of `assets/` in `to`: `art.ron` and every file it names, but `altered`, which
/// is left out (`with: None`) or written with other bytes.
pub fn copy_assets(to: &Path, altered: &str, with: Option<&[u8]>) {
    let from = root().join("assets");
    let catalogue = bataille::client::art::ArtCatalogue::load(&from).expect("the shipped art");
    std::fs::create_dir_all(to).unwrap();
    std::fs::copy(from.join("art.ron"), to.join("art.ron")).unwrap();
    for (_, file) in catalogue.files() {
        let target = to.join(file);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        match (file == altered, with) {
            (false, _) => {
                std::fs::copy(from.join(file), target).unwrap();
            }
            (true, Some(bytes)) => std::fs::write(target, bytes).unwrap(),
            (true, None) => {}
        }
    }
}

//! Benchmarks: movement range of one unit, one combat resolution, and complete random
//! games (autoplay throughput), on Civitate 1053; for Champs de Bataille, the movement
//! range of a group and one melee in a warm game; for Morne Plaine (Quatre-Bras), the
//! movement range of one unit, one combat and complete random games; for Charles the
//! Bold, the reach of one stand, one melee and complete random games of Falkirk; for
//! Charge & mêlée, one charge resolution, one mêlée and complete random games of Maldon;
//! the threat map of the largest scenario of each ruleset; and one decision of the
//! computer opponent at each level, in a scenario of each ruleset.

use std::hint::black_box;
use std::path::Path;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use bataille::autoplay::play_one;
use bataille::engine::command::UnitRef;
use bataille::engine::event::GameLog;
use bataille::engine::game::Game;
use bataille::rulesets::a_la_charge::{movement, resolve};
use bataille::rulesets::load_scenario;
use bataille::rulesets::parse_line;

/// The allocator the `bataille` program runs with (`src/main.rs`), so that these
/// figures are the program's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const CIVITATE: &str = "scenarios/a_la_charge/civitate_1053.ron";

/// A new game of the scenario at `path`, as the program starts one.
fn scenario_game(path: &str, seed: u64) -> Game {
    let (s, r) = load_scenario(Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let board = bataille::engine::game::build_ruleset_board(&*r, &s);
    Game::new(s, r, board, seed, &[])
}

fn new_game(seed: u64) -> Game {
    scenario_game(CIVITATE, seed)
}

fn movement_range(c: &mut Criterion) {
    let game = new_game(1);
    // The elite knights (6 MP) at the start: the widest range on the Norman side.
    let id = resolve(&game.world, &UnitRef::Key("chev_elite".into())).unwrap();
    assert!(!movement::reach_map(&game.world, id).ends.is_empty());
    c.bench_function("movement range of one unit (knights, 6 MP)", |b| {
        b.iter(|| black_box(movement::reach_map(black_box(&game.world), id)))
    });
    c.bench_function("movement range of one unit, with every path", |b| {
        b.iter(|| black_box(movement::reachable(black_box(&game.world), id)))
    });
}

fn one_combat(c: &mut Criterion) {
    let opening = "move 0905 0805 0705 0605\nend";
    let attack = parse_line("attack 0605 -> 0505").unwrap().unwrap();
    c.bench_function("one combat resolution (check, die, CRT, results)", |b| {
        b.iter_batched(
            || {
                let mut g = new_game(7);
                g.run_script(opening).unwrap();
                g
            },
            |mut g| {
                g.submit(&attack).unwrap();
                g
            },
            BatchSize::SmallInput,
        )
    });
    c.bench_function("one combat resolution, log text off (autoplay)", |b| {
        b.iter_batched(
            || {
                let mut g = new_game(7);
                g.run_script(opening).unwrap();
                g.world.resource_mut::<GameLog>().keep_text = false;
                g
            },
            |mut g| {
                g.submit(&attack).unwrap();
                g
            },
            BatchSize::SmallInput,
        )
    });
}

/// A Champs de Bataille position on a 24x24 clear map: `pairs` Frankish Warbands facing
/// east, each in frontal contact with a Roman Blade facing west, in columns 3 hexes
/// apart, and a group of five Arab cavalry in the north-west corner.
fn cdb_game(seed: u64) -> (Game, Vec<bataille::engine::command::Command>) {
    let mut units = vec![
        "(id: \"ga\", name: \"ga\", side: \"a\", type: \"Irr Cv(O)\", hex: \"0101\", corps: \"a1\", facing: \"E\")".to_string(),
        "(id: \"gb\", name: \"gb\", side: \"b\", type: \"Reg Cv(O)\", hex: \"2424\", corps: \"b1\", facing: \"W\")".to_string(),
    ];
    for r in 3..=7 {
        units.push(format!(
            "(id: \"cv{r}\", name: \"cv\", side: \"a\", type: \"Irr Cv(O)\", hex: \"02{r:02}\", corps: \"a1\", facing: \"E\")"
        ));
    }
    let mut attacks = Vec::new();
    for c in (6..=21).step_by(3) {
        for r in (10..=22).step_by(2) {
            let wb = bataille::engine::hex::HexCoord::new(c, r);
            let bd = wb.neighbor(2);
            units.push(format!(
                "(id: \"w{c}_{r}\", name: \"w\", side: \"a\", type: \"Irr Wb(O)\", hex: \"{wb}\", corps: \"a1\", facing: \"E\")"
            ));
            units.push(format!(
                "(id: \"b{c}_{r}\", name: \"b\", side: \"b\", type: \"Reg Bd(O)\", hex: \"{bd}\", corps: \"b1\", facing: \"W\")"
            ));
            attacks.push(
                parse_line(&format!("attack {wb} -> {bd}"))
                    .unwrap()
                    .unwrap(),
            );
        }
    }
    let ron = format!(
        "(name: \"Bench\", date: \"486\", ruleset: \"champs_de_bataille\", turns: 5,
          map: (columns: 24, rows: 24),
          sides: [(id: \"a\", name: \"A\", commander: \"ga\", edge: West, corps: [(id: \"a1\", name: \"A\", general: \"ga\")]),
                  (id: \"b\", name: \"B\", commander: \"gb\", edge: East, corps: [(id: \"b1\", name: \"B\", general: \"gb\")])],
          first: \"a\", units: [{}], at_time_limit: (winner: \"b\", level: Minor))",
        units.join(",")
    );
    let dir = std::env::temp_dir().join(format!("bataille-bench-cdb-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("rulesets/champs_de_bataille")).unwrap();
    let kinds = "(id: Cv, name: \"Cv\", vs_foot: 3, vs_mounted: 3, mp: 4), (id: Wb, name: \"Wb\", vs_foot: 3, vs_mounted: 2, mp: 2), (id: Bd, name: \"Bd\", vs_foot: 5, vs_mounted: 3, mp: 2)";
    let counters = "(id: \"Irr Cv(O)\", name: \"Cv\", kind: Cv, quality: O, regular: false), (id: \"Reg Cv(O)\", name: \"Cv\", kind: Cv, quality: O, regular: true), (id: \"Irr Wb(O)\", name: \"Wb\", kind: Wb, quality: O, regular: false), (id: \"Reg Bd(O)\", name: \"Bd\", kind: Bd, quality: O, regular: true)";
    std::fs::write(
        dir.join("rulesets/champs_de_bataille/units.ron"),
        format!("(source: \"bench\", kinds: [{kinds}], counters: [{counters}])"),
    )
    .unwrap();
    let path = dir.join("cdb.ron");
    std::fs::write(&path, ron).unwrap();
    let game = Game::start(&path, seed, &[]).unwrap();
    // The game holds all it read; the file need not outlive the load.
    let _ = std::fs::remove_dir_all(&dir);
    (game, attacks)
}

fn cdb_group_movement(c: &mut Criterion) {
    let (game, _) = cdb_game(1);
    let world = &game.world;
    let group: Vec<bataille::engine::units::UnitId> = (3..=7)
        .map(|r| {
            bataille::rulesets::champs_de_bataille::resolve(world, &UnitRef::Key(format!("cv{r}")))
                .unwrap()
        })
        .collect();
    let ruleset = game.ruleset.clone();
    assert!(
        !ruleset
            .group_move_options(world, &group)
            .unwrap()
            .is_empty()
    );
    c.bench_function(
        "CdB: movement range of a group of five cavalry (4 MP)",
        |b| {
            b.iter(|| {
                black_box(
                    ruleset
                        .group_move_options(black_box(world), &group)
                        .unwrap(),
                )
            })
        },
    );
    let e = world
        .resource::<bataille::engine::units::Units>()
        .entity(group[0]);
    c.bench_function("CdB: movement range of one unit (cavalry, 4 MP)", |b| {
        b.iter(|| black_box(ruleset.move_options(black_box(world), e).unwrap()))
    });
}

fn cdb_melee(c: &mut Criterion) {
    let game = |seed| {
        let (mut g, attacks) = cdb_game(seed);
        g.run_script("end\nend\nend").unwrap();
        (g, attacks)
    };
    for (label, keep_text) in [("with log text", true), ("log text off", false)] {
        c.bench_function(
            &format!("CdB: one melee in a warm game, {label} (incl. its decisions)"),
            |b| b.iter_custom(|iters| time_combats(iters, keep_text, game)),
        );
    }
}

const QUATRE_BRAS: &str = "scenarios/morne_plaine/quatre_bras_1815.ron";

fn quatre_bras(seed: u64) -> Game {
    scenario_game(QUATRE_BRAS, seed)
}

/// Morne Plaine: the movement range of Pire's chasseurs (MA 7) in the French movement
/// phase of Quatre-Bras, turn 1.
fn mp_movement_range(c: &mut Criterion) {
    use bataille::rulesets::morne_plaine::{movement as mp_movement, resolve as mp_resolve};
    let mut game = quatre_bras(1);
    game.run_script("end").unwrap();
    let id = mp_resolve(&game.world, &UnitRef::Key("hubert".into())).unwrap();
    let occupancy = mp_movement::Occupancy::of(&game.world);
    assert!(
        !mp_movement::reach_map(&game.world, id, &occupancy)
            .ends
            .is_empty()
    );
    c.bench_function("MP movement range of one unit (light cavalry, MA 7)", |b| {
        b.iter(|| {
            let occupancy = mp_movement::Occupancy::of(black_box(&game.world));
            black_box(mp_movement::reach_map(&game.world, id, &occupancy))
        })
    });
}

/// Morne Plaine: one combat at Quatre-Bras (supports, odds, die, CRT, checks, retreat).
fn mp_one_combat(c: &mut Criterion) {
    let opening = "end\nmove gauthier 0706\nend";
    let attack = parse_line("attack 0706 -> 0705").unwrap().unwrap();
    c.bench_function("MP one combat resolution, log text off", |b| {
        b.iter_batched(
            || {
                let mut g = quatre_bras(7);
                g.run_script(opening).unwrap();
                g.world.resource_mut::<GameLog>().keep_text = false;
                g
            },
            |mut g| {
                g.submit(&attack).unwrap();
                g
            },
            BatchSize::SmallInput,
        )
    });
}

/// A 24x24 clear map of `ruleset` with 96 pairs, a unit of `types.0` of side `a` with a
/// unit of `types.1` of side `b` just south of it, each pair three rows from the next:
/// many independent combats in one game, so that each is resolved in a warm world as in
/// play. `sides` and `tail` are the scenario's side list and its last fields; `ends` the
/// phases to end before the first attack.
fn grid_of_pairs(
    ruleset: &str,
    types: (&str, &str),
    sides: &str,
    tail: &str,
    ends: &str,
    seed: u64,
) -> (Game, Vec<bataille::engine::command::Command>) {
    let mut units = Vec::new();
    let mut attacks = Vec::new();
    let mut n = 0;
    for c in (1..=23).step_by(2) {
        for r in (1..=22).step_by(3) {
            units.push(format!(
                "(id: \"a{n}\", name: \"a{n}\", side: \"a\", type: \"{}\", hex: \"{c:02}{r:02}\")",
                types.0
            ));
            units.push(format!(
                "(id: \"b{n}\", name: \"b{n}\", side: \"b\", type: \"{}\", hex: \"{c:02}{:02}\")",
                types.1,
                r + 1
            ));
            attacks.push(
                parse_line(&format!("attack {c:02}{r:02} -> {c:02}{:02}", r + 1))
                    .unwrap()
                    .unwrap(),
            );
            n += 1;
        }
    }
    let ron = format!(
        "(name: \"Bench\", date: \"1000\", ruleset: \"{ruleset}\", turns: 5,
          map: (columns: 24, rows: 24), sides: [{sides}],
          first: \"a\", units: [{}], {tail})",
        units.join(",")
    );
    let dir = std::env::temp_dir().join(format!("bataille-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{ruleset}_pairs.ron"));
    std::fs::write(&path, ron).unwrap();
    let mut g = Game::start(&path, seed, &[]).unwrap();
    // The game holds all it read; the file need not outlive the load.
    let _ = std::fs::remove_dir_all(&dir);
    g.run_script(ends).unwrap();
    (g, attacks)
}

/// Times `iters` combats in warm games made by `game` (one seed after another): each
/// attack with the decisions it leaves, answered by autoplay's random choice. An attack
/// refused because an earlier combat's retreat or advance moved one of its units is
/// not counted; a game that ends gives way to the next seed's.
fn time_combats(
    iters: u64,
    keep_text: bool,
    game: impl Fn(u64) -> (Game, Vec<bataille::engine::command::Command>),
) -> std::time::Duration {
    let mut total = std::time::Duration::ZERO;
    let mut done = 0u64;
    let mut seed = 0;
    while done < iters {
        seed += 1;
        let (mut g, attacks) = game(seed);
        g.world.resource_mut::<GameLog>().keep_text = keep_text;
        let ruleset = g.ruleset.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for attack in attacks {
            if done == iters || g.is_over() {
                break;
            }
            let start = std::time::Instant::now();
            if g.submit(black_box(&attack)).is_err() {
                continue;
            }
            while g.ruleset.pending_decision(&g.world).is_some() {
                let decision = ruleset.random_command(&mut g.world, &mut rng);
                g.submit(&decision).unwrap();
            }
            total += start.elapsed();
            done += 1;
        }
    }
    total
}

/// Norman knights against Italian foot (A la Charge).
fn alc_pairs(seed: u64) -> (Game, Vec<bataille::engine::command::Command>) {
    grid_of_pairs(
        "a_la_charge",
        ("chevaliers_normands", "infanterie_italienne"),
        "(id: \"a\", name: \"A\", morale_level: 999), (id: \"b\", name: \"B\", morale_level: 999)",
        "at_time_limit: (winner: \"b\", level: Minor)",
        "end",
        seed,
    )
}

/// Line infantry against line infantry (Morne Plaine).
fn mp_pairs(seed: u64) -> (Game, Vec<bataille::engine::command::Command>) {
    grid_of_pairs(
        "morne_plaine",
        ("line_infantry", "line_infantry"),
        "(id: \"a\", name: \"A\", colour: Orange), (id: \"b\", name: \"B\", colour: Blue)",
        "special_rules: [Objective(hex: \"2424\", name: \"Corner\", vp: 1)]",
        "end\nend",
        seed,
    )
}

fn combats_in_play(c: &mut Criterion) {
    for (label, keep_text) in [("with log text", true), ("log text off", false)] {
        c.bench_function(
            &format!("one combat resolution in a warm game, {label} (incl. its decisions)"),
            |b| b.iter_custom(|iters| time_combats(iters, keep_text, alc_pairs)),
        );
    }
}

/// Morne Plaine: one combat in a warm game (supports, odds, die, CRT, checks, retreat,
/// advance), the log text off as in autoplay.
fn mp_combats_in_play(c: &mut Criterion) {
    c.bench_function(
        "MP one combat resolution in a warm game, log text off",
        |b| b.iter_custom(|iters| time_combats(iters, false, mp_pairs)),
    );
}

/// Complete random games of a scenario, as `bataille autoplay` plays them.
fn autoplay_of(c: &mut Criterion, scenario: &str, name: &str) {
    let (s, r) = load_scenario(Path::new(scenario)).unwrap();
    let board = bataille::engine::game::build_ruleset_board(&*r, &s);
    let mut seed = 0u64;
    c.bench_function(name, |b| {
        b.iter(|| {
            seed += 1;
            let mut g = Game::new(s.clone(), r.clone(), board.clone(), seed, &[]);
            g.world.resource_mut::<GameLog>().keep_text = false;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            black_box(play_one(&mut g, &mut rng).unwrap())
        })
    });
}

fn autoplay_games(c: &mut Criterion) {
    autoplay_of(c, CIVITATE, "one complete random Civitate game (autoplay)");
}

fn mp_autoplay_games(c: &mut Criterion) {
    autoplay_of(
        c,
        QUATRE_BRAS,
        "one complete random Quatre-Bras game (autoplay)",
    );
}

const FALKIRK: &str = "scenarios/charles_the_bold/falkirk_1298.ron";
const SMALL_FALKIRK: &str = "tests/fixtures/charles_the_bold/small_falkirk.ron";

fn ctb_game(scenario: &str, seed: u64, script: &str) -> Game {
    let mut g = scenario_game(scenario, seed);
    g.run_script(script).unwrap();
    g
}

/// Charles the Bold: the reach of the mounted crossbowmen (LC, 4 MP) at Falkirk, the
/// King's battle having won the first initiative (seed 4).
fn ctb_movement_range(c: &mut Criterion) {
    let g = ctb_game(FALKIRK, 4, "declare king\ndeclare wallace\nend");
    let id =
        bataille::rulesets::charles_the_bold::resolve(&g.world, &UnitRef::Key("xbow_1".into()))
            .unwrap();
    let e = bataille::rulesets::common::entity(&g.world, id);
    assert!(!g.ruleset.move_options(&g.world, e).unwrap().is_empty());
    c.bench_function(
        "CtB movement range of one stand (light cavalry, 4 MP)",
        |b| b.iter(|| black_box(g.ruleset.move_options(black_box(&g.world), e).unwrap())),
    );
}

/// Charles the Bold: Norfolk's knights fight a schiltron (pools, two throws, both
/// Morale Tests, the verdict and its results), log text off; the defender's choice of
/// supports (CtB 10.7) and a retreat's choice of hex (CtB 12.0), if asked, are answered
/// with the first choice, so the whole melee is measured.
fn ctb_one_melee(c: &mut Criterion) {
    let opening = "declare marshal\ndeclare wallace\nend\ngo k1 0803 0704 0604\ngo k1 0505";
    let fight = parse_line("fight k1 -> s1").unwrap().unwrap();
    let resolve = |g: &mut Game| {
        g.submit(&fight).unwrap();
        while let Some(d) = g
            .ruleset
            .decision(&g.world)
            .filter(|d| d.rule == "CtB 10.7" || d.rule == "CtB 12.0")
        {
            g.submit(&d.choices[0].command).unwrap();
        }
    };
    let setup = || {
        let mut g = ctb_game(SMALL_FALKIRK, 15, opening);
        g.world.resource_mut::<GameLog>().keep_text = false;
        g
    };
    let mut check = ctb_game(SMALL_FALKIRK, 15, opening);
    resolve(&mut check);
    let text: Vec<String> = check.log().lines().collect();
    assert!(
        text.iter()
            .any(|l| l.contains("wins the melee") || l.contains("ongoing melee")),
        "the melee is resolved: {text:?}"
    );
    // As in play: the game the melee is fought in is the one just played, its world in
    // the cache (one game built, then its melee timed). The goal's figure.
    c.bench_function("CtB one melee resolution, log text off", |b| {
        b.iter_batched(
            setup,
            |mut g| {
                resolve(&mut g);
                g
            },
            BatchSize::PerIteration,
        )
    });
    // Criterion's usual batches: hundreds of games built first, then their melees timed
    // one after another, each world long out of the cache. Kept to show the cost of a
    // cold world (R-speed in the README).
    c.bench_function("CtB one melee resolution, log text off, cold worlds", |b| {
        b.iter_batched(
            setup,
            |mut g| {
                resolve(&mut g);
                g
            },
            BatchSize::SmallInput,
        )
    });
}

fn ctb_autoplay_games(c: &mut Criterion) {
    autoplay_of(c, FALKIRK, "one complete random Falkirk game (autoplay)");
}

const MALDON: &str = "scenarios/charge_and_melee/maldon_991.ron";
const SKIRMISH: &str = "tests/fixtures/charge_and_melee/skirmish.ron";
const MELEE_PAIR: &str = "tests/fixtures/charge_and_melee/melee_pair.ron";

/// Charge & mêlée: one charge resolution (C&M 7.6-7.16): the Red warband's charge on the
/// Blue foot, declared; the move die, fatigue, the move to contact, both totals, the
/// results and the moves after them queued, the risk to leaders; log text off. As in
/// play, the game just built (criterion `PerIteration`).
fn cm_one_charge(c: &mut Criterion) {
    let setup = || {
        let mut g = ctb_game(
            SKIRMISH,
            3,
            "end\nend\nend\nend\ncharge red_foot -> blue_foot\nend",
        );
        g.world.resource_mut::<GameLog>().keep_text = false;
        g
    };
    let mut check = setup();
    check.world.resource_mut::<GameLog>().keep_text = true;
    bataille::rulesets::charge_and_melee::resolution::resolve(&mut check.world);
    let text: Vec<String> = check.log().lines().collect();
    assert!(
        text.iter()
            .any(|l| l.contains(" against ") && l.contains("C&M 7.15")),
        "the charge is resolved: {text:?}"
    );
    c.bench_function("C&M one charge resolution, log text off", |b| {
        b.iter_batched(
            setup,
            |mut g| {
                bataille::rulesets::charge_and_melee::resolution::resolve(&mut g.world);
                g
            },
            BatchSize::PerIteration,
        )
    });
}

/// Charge & mêlée: one mêlée (C&M 7.18-7.31): two lines of two stands of heavy foot
/// front to front, each stand's die, the loser's DP and push-back or break, the winners'
/// moves queued; log text off; the game just built.
fn cm_one_melee(c: &mut Criterion) {
    let setup = || {
        let mut g = ctb_game(MELEE_PAIR, 1, "");
        g.world.resource_mut::<GameLog>().keep_text = false;
        g
    };
    let mut check = setup();
    check.world.resource_mut::<GameLog>().keep_text = true;
    bataille::rulesets::charge_and_melee::fight::melee(&mut check.world);
    let text: Vec<String> = check.log().lines().collect();
    assert!(
        text.iter().any(|l| l.contains("C&M 7.2")),
        "the mêlée is fought: {text:?}"
    );
    c.bench_function("C&M one melee, log text off", |b| {
        b.iter_batched(
            setup,
            |mut g| {
                bataille::rulesets::charge_and_melee::fight::melee(&mut g.world);
                g
            },
            BatchSize::PerIteration,
        )
    });
}

fn cm_autoplay_games(c: &mut Criterion) {
    autoplay_of(c, MALDON, "one complete random Maldon game (autoplay)");
}

/// The threat map (issue 18) of the side to act at the first point from turn 2 on where
/// the enemy could attack, in a random game (seed 1) of the largest scenario of each
/// ruleset: every enemy unit's next-phase reach and
/// attacks, as the window's toggle makes it. Waterloo (Morne Plaine, 110 units) is the
/// largest of all; Daras is Champs de Bataille's, past its set-up.
fn threat_maps(c: &mut Criterion) {
    for (label, path) in [
        ("AlC Civitate", CIVITATE),
        ("CdB Daras", "scenarios/champs_de_bataille/daras_530.ron"),
        ("MP Waterloo", "scenarios/morne_plaine/waterloo_1815.ron"),
        (
            "CtB Grandson",
            "scenarios/charles_the_bold/grandson_1476.ron",
        ),
        (
            "C&M Hastings",
            "scenarios/charge_and_melee/hastings_1066.ron",
        ),
    ] {
        let mut game = Game::start(Path::new(path), 1, &[]).expect("the scenario loads");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let ruleset = game.ruleset.clone();
        // From turn 2, the first position where some enemy could attack.
        while (game.turn().turn < 2 || game.threat_map().hexes.is_empty()) && !game.is_over() {
            let command = ruleset.random_command(&mut game.world, &mut rng);
            game.submit(&command)
                .expect("autoplay's commands are legal");
        }
        let map = game.threat_map();
        assert!(!map.hexes.is_empty(), "{label}: a map to make");
        eprintln!(
            "{label}: turn {}, {} hexes threatened",
            game.turn().turn,
            map.hexes.len()
        );
        c.bench_function(&format!("threat map of the side to act: {label}"), |b| {
            b.iter(|| black_box(game.threat_map()))
        });
    }
}

/// The game of `scenario` after `plies` random legal commands (autoplay's), then on
/// until the side to act has a real choice (autoplay's generator offers it at least six
/// different commands): a position in play for the computer to decide in, not one
/// where the rules leave a single answer and it plays none out.
fn game_after(scenario: &str, seed: u64, plies: usize) -> Game {
    let mut game = scenario_game(scenario, seed);
    let r = game.ruleset.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut played = 0;
    loop {
        assert!(
            !game.is_over(),
            "{scenario}: the game ended before a position to bench"
        );
        if played >= plies {
            let mut offered = std::collections::HashSet::new();
            for _ in 0..40 {
                offered.insert(r.random_command(&mut game.world, &mut rng));
            }
            if offered.len() >= 6 {
                return game;
            }
        }
        let command = r.random_command(&mut game.world, &mut rng);
        game.submit(&command).unwrap();
        played += 1;
    }
}

/// One decision of the computer (`ai::choose`) at each level, for the side to act, in
/// a scenario of each ruleset some way into a random game: the time a player waits for
/// its move (README "Its strength and speed" has the medians over whole games).
fn computer_decisions(c: &mut Criterion) {
    use bataille::ai::{Level, choose};
    let mut group = c.benchmark_group("computer decision");
    group
        .sample_size(10)
        .sampling_mode(criterion::SamplingMode::Flat);
    for (scenario, name, plies) in [
        (CIVITATE, "Civitate", 60),
        (POITIERS, "Poitiers", 200),
        (QUATRE_BRAS, "Quatre-Bras", 60),
        (FALKIRK, "Falkirk", 120),
        (MALDON, "Maldon", 60),
    ] {
        let game = game_after(scenario, 3, plies);
        let side = game.side_to_act();
        for level in Level::ALL {
            let thought = choose(&game, side, level.budget(), 7, None).unwrap();
            assert!(
                thought.playouts > 0,
                "{name}: a decision with nothing to weigh"
            );
            group.bench_function(format!("{name}, {level}"), |b| {
                b.iter(|| black_box(choose(&game, side, level.budget(), 7, None).unwrap()))
            });
        }
    }
    group.finish();
}

const POITIERS: &str = "scenarios/champs_de_bataille/poitiers_732.ron";

criterion_group!(
    benches,
    computer_decisions,
    threat_maps,
    cm_one_charge,
    cm_one_melee,
    cm_autoplay_games,
    ctb_movement_range,
    ctb_one_melee,
    ctb_autoplay_games,
    mp_movement_range,
    mp_one_combat,
    mp_combats_in_play,
    mp_autoplay_games,
    movement_range,
    one_combat,
    combats_in_play,
    autoplay_games,
    cdb_group_movement,
    cdb_melee
);
criterion_main!(benches);

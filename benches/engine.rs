//! Benchmarks: movement range of one unit, one combat resolution, and complete random
//! games (autoplay throughput), on Civitate 1053.

use std::hint::black_box;
use std::path::Path;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use bataille::autoplay::play_one;
use bataille::engine::command::{UnitRef, parse_line};
use bataille::engine::event::GameLog;
use bataille::engine::game::{Game, load_scenario};
use bataille::rulesets::a_la_charge::{movement, resolve};

const CIVITATE: &str = "scenarios/a_la_charge/civitate_1053.ron";

fn new_game(seed: u64) -> Game {
    let (s, r) = load_scenario(Path::new(CIVITATE)).expect("Civitate loads");
    let board = bataille::rulesets::build_ruleset_board(&*r, &s);
    Game::new(s, r, board, seed, &[])
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

fn autoplay_games(c: &mut Criterion) {
    let (s, r) = load_scenario(Path::new(CIVITATE)).unwrap();
    let board = bataille::rulesets::build_ruleset_board(&*r, &s);
    let mut seed = 0u64;
    c.bench_function("one complete random Civitate game (autoplay)", |b| {
        b.iter(|| {
            seed += 1;
            let mut g = Game::new(s.clone(), r.clone(), board.clone(), seed, &[]);
            g.world.resource_mut::<GameLog>().keep_text = false;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            black_box(play_one(&mut g, &mut rng).unwrap())
        })
    });
}

criterion_group!(benches, movement_range, one_combat, autoplay_games);
criterion_main!(benches);

//! The computer opponent: the same question gets the same answer, its commands are
//! saved and replay like a player's, it never sees a hidden unit or a coming die, and
//! it plays every ruleset to the end.

use std::path::PathBuf;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use bataille::ai::search::Fork;
use bataille::ai::{Level, Player, choose, decision_seed, submit_choice};
use bataille::engine::dice::Dice;
use bataille::engine::game::Game;
use bataille::engine::units::SideId;

use crate::common::*;

fn commands_of(thought: &bataille::ai::Thought) -> Vec<(String, usize, String)> {
    thought
        .candidates
        .iter()
        .map(|c| (c.command.to_string(), c.playouts, format!("{:.6}", c.mean)))
        .collect()
}

#[test]
fn ai_the_same_game_and_seed_give_the_same_choice_and_its_commands_replay() {
    let mut game = civitate(3);
    let normans = SideId(0);
    let mut chosen = Vec::new();
    assert_eq!(game.side_to_act(), normans);
    for _ in 0..6 {
        let side = game.side_to_act();
        let seed = decision_seed(11, side, &game);
        let first = choose(&game, side, Level::Easy.budget(), seed, None).unwrap();
        let again = choose(&game, side, Level::Easy.budget(), seed, None).unwrap();
        assert_eq!(commands_of(&first), commands_of(&again));
        assert!(first.playouts > 0 || first.candidates.len() == 1);
        chosen.push(submit_choice(&mut game, &first).unwrap().to_string());
    }
    assert!(chosen[0].starts_with("move "), "{chosen:?}");
    // Saved like a player's commands, and the save replays to the same game.
    let dir = scratch("ai_save");
    let path = write(&dir, "ai.ron", &game.save_text());
    let loaded = Game::load_save(&path).unwrap();
    let saved: Vec<String> = loaded.commands().iter().map(|c| c.to_string()).collect();
    assert_eq!(saved, chosen);
    assert_eq!(loaded.state_json(), game.state_json());
}

#[test]
fn ai_another_seed_may_choose_otherwise_but_always_a_legal_command() {
    let game = civitate(3);
    let side = game.side_to_act();
    let mut choices = std::collections::BTreeSet::new();
    for seed in 0..6 {
        let thought = choose(&game, side, Level::Easy.budget(), seed, None).unwrap();
        assert!(game.ruleset.check(&game.world, &thought.command).is_ok());
        choices.insert(thought.command.to_string());
    }
    assert!(choices.len() > 1, "six seeds all chose {choices:?}");
}

/// The computer chooses alike for `side` in `a` and `b`, which differ only in what
/// `side` cannot see: the same command, candidates, playouts and scores, for two seeds.
fn assert_same_choices(a: &Game, b: &Game, side: SideId) {
    for seed in [1, 2] {
        let in_a = choose(a, side, Level::Easy.budget(), seed, None).unwrap();
        let in_b = choose(b, side, Level::Easy.budget(), seed, None).unwrap();
        assert_eq!(commands_of(&in_a), commands_of(&in_b), "seed {seed}");
    }
}

/// Where the worlds drawn for `side` from eight seeds put `unit`: asserted the same in
/// `a` and `b` (its own draw says, not the game), and returned.
fn drawn_hexes(a: &Game, b: &Game, side: SideId, unit: &str) -> Vec<Option<String>> {
    let drawn = |game: &Game, seed: u64| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let world = Fork::of(game).world_for(side, &mut rng).unwrap();
        hex(&world, unit)
    };
    let draws: Vec<_> = (0..8).map(|s| drawn(a, s)).collect();
    assert_eq!(draws, (0..8).map(|s| drawn(b, s)).collect::<Vec<_>>());
    draws
}

/// Kalavryai with the Byzantine ambush (special rule 1) placed in `hex`, at the
/// Normans' first move.
fn kalavryai_with_ambush_at(hex: &str) -> Game {
    let mut game = kalavryai(5);
    run(&mut game, &[&format!("place turcs_ambush {hex}"), "end"]);
    assert_eq!(game.side_to_act(), SideId(0), "the Normans act");
    game
}

#[test]
fn ai_never_peeks_the_same_observation_gives_the_same_choice_wherever_the_ambush_is() {
    // AlC Kalavryai special rule 1: the Normans cannot know where the Turks wait.
    let a = kalavryai_with_ambush_at("1012");
    let b = kalavryai_with_ambush_at("1106");
    assert_ne!(hex(&a, "turcs_ambush"), hex(&b, "turcs_ambush"));
    let normans = SideId(0);
    assert_same_choices(&a, &b, normans);
    // The worlds it thinks on put the ambush where its own draw says, the same in both
    // games, and not always in the same hex.
    let draws = drawn_hexes(&a, &b, normans, "turcs_ambush");
    let distinct: std::collections::BTreeSet<_> = draws.iter().collect();
    assert!(distinct.len() > 2, "{draws:?}");
    // The Byzantines, who placed it, think with it where it is.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let own = Fork::of(&a).world_for(SideId(1), &mut rng).unwrap();
    assert_eq!(hex(&own, "turcs_ambush").as_deref(), Some("1012"));
}

#[test]
fn ai_never_peeks_at_the_dice_its_worlds_roll_dice_of_their_own() {
    let game = civitate(3);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut world = Fork::of(&game).world_for(SideId(0), &mut rng).unwrap();
    let mut ours = world.world.resource_mut::<Dice>();
    // The game's own dice would roll these next; the computer's world rolls its own
    // (one chance in 6^12 that twelve dice agree).
    let mut real = game.world.resource::<Dice>().clone();
    let a: Vec<u8> = (0..12).map(|_| ours.d6()).collect();
    let b: Vec<u8> = (0..12).map(|_| real.d6()).collect();
    assert_ne!(a, b);
}

/// The smallest scenario of each ruleset.
fn one_scenario_per_ruleset() -> Vec<PathBuf> {
    [
        "a_la_charge/civitate_1053.ron",
        "champs_de_bataille/soissons_486.ron",
        "morne_plaine/quatre_bras_1815.ron",
        "charles_the_bold/falkirk_1298.ron",
        "charge_and_melee/maldon_991.ron",
    ]
    .iter()
    .map(|p| root().join("scenarios").join(p))
    .collect()
}

#[test]
fn ai_plays_a_whole_game_of_every_ruleset_on_either_side() {
    for (i, path) in one_scenario_per_ruleset().into_iter().enumerate() {
        let game = Game::start(&path, 1, &[]).unwrap();
        let mut players = vec![Player::Random; 2];
        players[i % 2] = Player::Computer(Level::Easy);
        let report = bataille::ai::duel::duel(
            game.scenario.clone(),
            game.ruleset.clone(),
            &bataille::ai::duel::DuelPlan {
                players: &players,
                budgets: bataille::ai::Budgets::default(),
                seed: 1,
                games: 1,
                options: &[],
                keep_saves: true,
            },
        );
        assert!(
            report.failures.is_empty(),
            "{}: {:?}",
            path.display(),
            report.failures
        );
        assert_eq!(
            report.wins.iter().sum::<usize>() + report.draws,
            1,
            "{}: {:?}",
            path.display(),
            report.endings
        );
        assert!(!report.decision_seconds[i % 2].is_empty());
        // The computer's commands are saved like a player's: the save replays to the
        // same end (`bataille duel --saves`).
        let [(seed, text)] = &report.saves[..] else {
            panic!(
                "{}: one save a game: {:?}",
                path.display(),
                report.saves.len()
            );
        };
        assert_eq!(*seed, 1);
        let replayed = Game::load_save_text(&path.with_extension("save.ron"), text.clone())
            .unwrap_or_else(|e| panic!("{}: the duel's save: {e}", path.display()));
        assert!(replayed.is_over(), "{}", path.display());
        let ending = bataille::autoplay::ending_key(&replayed.scenario, replayed.outcome());
        assert_eq!(report.endings.get(&ending), Some(&1), "{}", path.display());
    }
}

/// Daras's set-up (CdB 14.3) with Pharas' Herules in ambush behind the hill (Daras
/// rule 2) at `hex`, at the Persians' secret plan.
fn daras_with_ambush_at(hex: &str) -> Game {
    let mut game = shipped("champs_de_bataille/daras_530.ron", 1);
    run(
        &mut game,
        &[
            "place touldon_1 0116",
            "place touldon_2 0117",
            "place touldon_3 0111",
            "place touldon_4 0112",
            "end",
            "place bunag_1 2215",
            "place bunag_2 2217",
            "place bunag_3 2209",
            "place bunag_4 2210",
            "place bunag_5 2222",
            "place bunag_6 2223",
            "end",
            "plan hermogenes belisarius",
            &format!("place pharas {hex}"),
            "end",
        ],
    );
    game
}

#[test]
fn ai_never_peeks_cdb_14_3_3_the_ambush_and_the_written_plan_are_drawn_again() {
    let a = daras_with_ambush_at("0305");
    let b = daras_with_ambush_at("0206");
    let persians = a.side_to_act();
    assert_eq!(
        a.scenario.file.sides[persians.0 as usize].id, "persians",
        "the Persians write next"
    );
    assert_same_choices(&a, &b, persians);
    let draws = drawn_hexes(&a, &b, persians, "pharas");
    let distinct: std::collections::BTreeSet<_> = draws.iter().collect();
    assert!(distinct.len() > 1, "{draws:?}");
}

#[test]
fn ai_never_peeks_ctb_1_4_the_enemy_group_chosen_in_secret_is_drawn_again() {
    let path = root().join("scenarios/charles_the_bold/falkirk_1298.ron");
    let declared = |group: &str| {
        let mut game = Game::start(&path, 4, &[]).unwrap();
        run(&mut game, &[&format!("declare {group}")]);
        game
    };
    let (a, b) = (declared("marshal"), declared("king"));
    let scots = a.side_to_act();
    assert_eq!(a.scenario.file.sides[scots.0 as usize].id, "scots");
    assert_same_choices(&a, &b, scots);
}

#[test]
fn duel_budget_argument_sets_one_level_and_refuses_malformed_ones() {
    use bataille::ai::{Budget, Budgets};
    let mut budgets = Budgets::default();
    budgets.set_from_arg("normal=8,100,30").unwrap();
    assert_eq!(
        budgets.of(Level::Normal),
        Budget {
            candidates: 8,
            playouts: 100,
            horizon: 30
        }
    );
    assert_eq!(budgets.of(Level::Hard), Level::Hard.budget());
    assert_eq!(budgets.of(Level::Easy), Level::Easy.budget());
    for bad in [
        "normal",
        "normal=1,2",
        "normal=1,2,3,4",
        "normal=a,2,3",
        "normal=0,2,3",
        "expert=1,2,3",
    ] {
        let refusal = budgets.set_from_arg(bad).unwrap_err();
        assert!(refusal.contains(&format!("`{bad}`")), "{refusal}");
    }
    // A refused argument changes nothing.
    assert_eq!(budgets.of(Level::Normal).playouts, 100);
}

/// The side to act's index in a scenario, by its id.
fn side_named(game: &Game, id: &str) -> SideId {
    let i = game
        .scenario
        .file
        .sides
        .iter()
        .position(|s| s.id == id)
        .unwrap();
    SideId(i as u8)
}

/// C&M's evaluation counts a unit's DPs as part of the stand they lead to (spec B.2
/// §5), before any stand is lost: DPs on an English unit raise the Vikings' score and
/// lower the English's, and more DPs count for more.
#[test]
fn ai_cm_evaluation_counts_dps_before_a_stand_is_lost() {
    use bataille::rulesets::charge_and_melee::CmMorale;
    let path = root().join("scenarios/charge_and_melee/maldon_991.ron");
    let mut game = Game::start(&path, 1, &[]).unwrap();
    let (english, vikings) = (side_named(&game, "english"), side_named(&game, "vikings"));
    let score = |game: &Game, side| game.ruleset.evaluate(&game.world, side);
    let (e0, v0) = (score(&game, english), score(&game, vikings));
    assert!(
        (e0 - 0.5).abs() < 1e-9 && (v0 - 0.5).abs() < 1e-9,
        "{e0} {v0}"
    );
    let units = game
        .world
        .resource::<bataille::engine::units::Units>()
        .clone();
    let unit = units
        .ids()
        .find(|u| {
            units.side(*u) == english && game.world.get::<CmMorale>(units.entity(*u)).is_some()
        })
        .unwrap();
    let mut last = v0;
    for dps in [2, 4] {
        game.world
            .get_mut::<CmMorale>(units.entity(unit))
            .unwrap()
            .dps = dps;
        let (e, v) = (score(&game, english), score(&game, vikings));
        assert!(v > last && e < 0.5, "{dps} DPs: english {e}, vikings {v}");
        assert!((e + v - 1.0).abs() < 1e-9, "{e} + {v}");
        last = v;
    }
}

/// The distance term of a playout (`evaluation::contact_balance`): at Civitate the
/// Papal army wins when the last turn ends, so only the Normans, who must break it
/// first, are scored by how near they stand; a Norman unit set down next to the enemy
/// raises it.
#[test]
fn ai_only_the_side_that_must_attack_is_scored_by_nearness() {
    use bataille::engine::evaluation::contact_balance;
    use bataille::engine::units::{Leader, Placement, Units};
    let mut game = civitate(1);
    let (normans, papal) = (side_named(&game, "normans"), side_named(&game, "papal"));
    assert_eq!(
        contact_balance(&game.world, papal, &|_| 0, &|_, _, _| true),
        None
    );
    let before = contact_balance(&game.world, normans, &|_| 0, &|_, _, _| true).unwrap();
    assert!((-1.0..=1.0).contains(&before), "{before}");
    let mut units = game.world.resource::<Units>().clone();
    let on_map = |side| {
        let units = &units;
        units
            .ids()
            .filter(move |u| units.side(*u) == side)
            .filter(|u| game.world.get::<Leader>(units.entity(*u)).is_none())
            .filter_map(|u| Some((u, units.placement(u).hex()?)))
            .collect::<Vec<_>>()
    };
    let (norman, from) = on_map(normans)[0];
    let (_, enemy) = on_map(papal)
        .into_iter()
        .min_by_key(|(_, h)| h.distance(from))
        .unwrap();
    assert!(enemy.distance(from) > 1, "the armies start apart");
    units.relocate(norman, Placement::OnMap(enemy.neighbor(0)), None, None);
    game.world.insert_resource(units);
    let after = contact_balance(&game.world, normans, &|_| 0, &|_, _, _| true).unwrap();
    assert!(after > before, "{before} -> {after}");
}

/// The cohesion term of a playout (`evaluation::cohesion`), which CdB weighs for the
/// side that need only last (`Ruleset::cohesion_weight`): at Soissons, in the
/// designer's deployment, the Gallo-Romans stand in one line, and a legion taken out
/// of it and set down alone lowers how together the army stands by its own share and
/// the share its neighbours lose.
#[test]
fn ai_cdb_weighs_a_defence_kept_together_and_a_unit_set_apart_lowers_it() {
    use bataille::engine::board::Board;
    use bataille::engine::evaluation::cohesion;
    use bataille::engine::hex::HexCoord;
    use bataille::engine::units::{Leader, Placement, Units};
    let mut game = Game::start(
        &root().join("scenarios/champs_de_bataille/soissons_486.ron"),
        1,
        &["scenario_deployment".to_string()],
    )
    .unwrap();
    let (romans, franks) = (side_named(&game, "romans"), side_named(&game, "franks"));
    assert!(game.ruleset.cohesion_weight(&game.world, romans) > 0.0);
    assert_eq!(game.ruleset.cohesion_weight(&game.world, franks), 0.0);
    let before = cohesion(&game.world, romans).unwrap();
    // Every unit of the line has two beside it; the camps stand in pairs and the
    // generals behind the line alone.
    assert!((0.7..0.8).contains(&before), "{before}");
    let hex = |label: &str| HexCoord::parse(label).unwrap();
    let mut units = game.world.resource::<Units>().clone();
    let board = game.world.resource::<Board>().clone();
    // Legio at 0514, between two stacks of a legion and its Levis armatura.
    let legion = units.at(&board, hex("0514"))[0];
    units.relocate(legion, Placement::OnMap(hex("1101")), None, None);
    game.world.insert_resource(units);
    let after = cohesion(&game.world, romans).unwrap();
    assert!(after < before, "{before} -> {after}");
    let units = game.world.resource::<Units>();
    let counted = units
        .ids()
        .filter(|u| units.side(*u) == romans && units.placement(*u).hex().is_some())
        .filter(|u| game.world.get::<Leader>(units.entity(*u)).is_none())
        .count() as f64;
    assert!(
        before - after >= 1.0 / counted - 1e-9,
        "the lone legion loses at least its own share: {before} -> {after}"
    );
}

/// Plays up to `n` random legal commands (fewer if the game ends).
fn play_random(game: &mut Game, n: usize, rng: &mut ChaCha8Rng) {
    let ruleset = game.ruleset.clone();
    for _ in 0..n {
        if game.is_over() {
            return;
        }
        let command = ruleset.random_command(&mut game.world, rng);
        game.submit(&command)
            .unwrap_or_else(|r| panic!("`{command}` refused: {r}"));
    }
}

/// What the computer's playouts rest on (`snapshot::copy_state`): a game copied into
/// another world of its scenario, even one that was played on since, plays on exactly
/// as the game replayed there would: the same log line for line, the same dice, the
/// same state and end. Every scenario, three seeds, copied at the start, early and
/// late in a random game.
#[test]
fn ai_a_copied_game_plays_on_as_the_replayed_one() {
    use bataille::engine::snapshot::copy_state;
    for path in every_scenario() {
        for seed in 1..=3u64 {
            for at in [0, 40, 160] {
                let mut played = Game::start(&path, seed, &[]).unwrap();
                play_random(&mut played, at, &mut ChaCha8Rng::seed_from_u64(seed));
                let where_ = format!("{} seed {seed} after {at}", path.display());
                // A world of the same game, played elsewhere (another random game).
                let mut copy = Game::start(&path, seed, &[]).unwrap();
                play_random(&mut copy, 120, &mut ChaCha8Rng::seed_from_u64(seed + 100));
                copy_state(&played.world, &mut copy.world)
                    .unwrap_or_else(|e| panic!("{where_}: {e}"));
                assert_eq!(copy.state_json(), played.state_json(), "{where_}");
                let mut on = ChaCha8Rng::seed_from_u64(seed + 7);
                play_random(&mut played, 400, &mut on.clone());
                play_random(&mut copy, 400, &mut on);
                let (a, b): (Vec<String>, Vec<String>) =
                    (played.log().lines().collect(), copy.log().lines().collect());
                if let Some(i) = (0..a.len().min(b.len())).find(|i| a[*i] != b[*i]) {
                    panic!("{where_}: line {i}: `{}` against `{}`", a[i], b[i]);
                }
                assert_eq!(a.len(), b.len(), "{where_}");
                assert_eq!(copy.commands(), played.commands(), "{where_}");
                assert_eq!(copy.state_json(), played.state_json(), "{where_}");
                assert_eq!(
                    format!("{:?}", copy.outcome()),
                    format!("{:?}", played.outcome()),
                    "{where_}"
                );
            }
        }
    }
}

/// Where nothing a candidate changes shows before the playouts end (a horizon of no
/// command), every candidate scores the same. The side that need only last then
/// keeps its line (it ends the phase: Civitate's Papal army, the time limit's
/// winner), while the side that must attack moves (the Normans, drawn closer by the
/// nearness term).
#[test]
fn ai_on_equal_scores_the_side_that_need_only_last_ends_the_phase_and_the_attacker_moves() {
    use bataille::ai::Budget;
    use bataille::engine::command::Command;
    let budget = Budget {
        candidates: 8,
        playouts: 24,
        horizon: 0,
    };
    let mut game = civitate(1);
    let (normans, papal) = (side_named(&game, "normans"), side_named(&game, "papal"));
    assert_eq!(game.turn().phase.label, "movement");
    let attacker = choose(&game, normans, budget, 5, None).unwrap();
    assert_ne!(
        attacker.command,
        Command::EndPhase,
        "{}",
        attacker.summary()
    );
    while game.side_to_act() != papal || game.turn().phase.label != "movement" {
        game.submit(&Command::EndPhase).unwrap();
    }
    let defender = choose(&game, papal, budget, 5, None).unwrap();
    assert!(defender.candidates.len() > 2, "{}", defender.summary());
    let best = defender.candidates[0].mean;
    assert!(
        defender.candidates.iter().all(|c| c.mean == best),
        "nothing shows within no command: {}",
        defender.summary()
    );
    assert_eq!(
        defender.command,
        Command::EndPhase,
        "{}",
        defender.summary()
    );
}

/// The nearness term counts the hexes along the ground a unit may cross
/// (`Ruleset::crosses`): at Maldon the Vikings, across the channel from the English,
/// stand farther than the straight line says, since only the causeway and the mud lead
/// over (terrain.ron's river is `passable: false`).
#[test]
fn ai_nearness_is_measured_around_water_no_stand_enters() {
    use bataille::engine::evaluation::contact_balance;
    let game = shipped("charge_and_melee/maldon_991.ron", 1);
    let vikings = side_named(&game, "vikings");
    let straight = contact_balance(&game.world, vikings, &|_| 0, &|_, _, _| true).unwrap();
    let ruleset = game.ruleset.clone();
    let around = contact_balance(
        &game.world,
        vikings,
        &|unit| ruleset.ground_class(&game.world, unit),
        &|class, from, to| ruleset.crosses(&game.world, class, from, to),
    )
    .unwrap();
    assert!(around < straight, "{around} should be below {straight}");
}

/// What each ruleset tells the nearness term no unit may cross (`Ruleset::crosses`):
/// C&M's open water (Maldon's channel, not its causeway or mud), CtB's lake no class
/// enters and the morass foot cross but horse may not (Falkirk: the English knights
/// must go round it), CdB's impassable class.
#[test]
fn ai_the_ground_each_class_crosses_is_read_from_each_rulesets_terrain() {
    use bataille::engine::hex::HexCoord;
    let crosses = |game: &Game, class: u8, from: &str, to: &str| {
        game.ruleset.crosses(
            &game.world,
            class,
            HexCoord::parse(from).unwrap(),
            HexCoord::parse(to).unwrap(),
        )
    };
    let class_at = |game: &Game, hex: &str| {
        use bataille::engine::board::Board;
        use bataille::engine::units::Units;
        let units = game.world.resource::<Units>();
        let board = game.world.resource::<Board>();
        let id = units.at(board, HexCoord::parse(hex).unwrap())[0];
        game.ruleset.ground_class(&game.world, units.entity(id))
    };
    let maldon = shipped("charge_and_melee/maldon_991.ron", 1);
    assert!(!crosses(&maldon, 0, "0105", "0106"), "the channel");
    assert!(crosses(&maldon, 0, "0805", "0806"), "the causeway");
    assert!(crosses(&maldon, 0, "0605", "0606"), "the mud");
    let grandson = shipped("charles_the_bold/grandson_1476.ron", 1);
    for class in 0..5 {
        assert!(!crosses(&grandson, class, "0114", "0115"), "the lake");
    }
    let falkirk = shipped("charles_the_bold/falkirk_1298.ron", 1);
    // The English archers in 1604, the knights of the first battle in 1302.
    let (foot, horse) = (class_at(&falkirk, "1604"), class_at(&falkirk, "1302"));
    assert_ne!(foot, horse);
    assert!(
        crosses(&falkirk, foot, "0603", "0604"),
        "foot cross the morass"
    );
    assert!(
        !crosses(&falkirk, horse, "0603", "0604"),
        "horse go round it"
    );
    let cdb = crate::cdb_common::cdb_game(
        &crate::cdb_common::cdb_position_ron(
            &[
                ("ga", "a", "Reg Cv(O)", "0202", "E"),
                ("gb", "b", "Reg Cv(O)", "1602", "W"),
            ],
            "terrain: { \"impassable\": [\"0808\"] }",
            "",
        ),
        1,
        &[],
    );
    assert!(!crosses(&cdb, 0, "0807", "0808"), "CdB's impassable class");
    assert!(crosses(&cdb, 0, "0808", "0807"), "clear");
}

/// CdB's evaluation (`ai::evaluate`) counts losses as CdB 13 does, in halves: a lost
/// Psiloi (half a counter, CdB 12.1) lowers its side's score although the window's
/// whole counters show nothing lost; and a corps nearer its threshold (CdB 12.2) loses
/// more with each counter, so the second Blade lost costs more than the first.
#[test]
fn ai_cdb_evaluation_counts_half_counters_and_a_corps_nearing_its_threshold() {
    use crate::cdb_common::{cdb, h};
    use bataille::engine::board::Board;
    use bataille::engine::units::{Placement, Units};
    let mut game = cdb(
        &[
            ("ga", "a", "Reg Cv(O)", "0202", "E"),
            ("a1", "a", "Irr Bd(O)", "0303", "E"),
            ("a2", "a", "Irr Bd(O)", "0304", "E"),
            ("a3", "a", "Irr Bd(O)", "0305", "E"),
            ("a4", "a", "Irr Bd(O)", "0306", "E"),
            ("a5", "a", "Irr Bd(O)", "0307", "E"),
            ("ps", "a", "Irr Ps(O)", "0308", "E"),
            ("gb", "b", "Reg Cv(O)", "1402", "W"),
            ("b1", "b", "Irr Bd(O)", "1303", "W"),
            ("b2", "b", "Irr Bd(O)", "1304", "W"),
            ("b3", "b", "Irr Bd(O)", "1305", "W"),
            ("b4", "b", "Irr Bd(O)", "1306", "W"),
            ("b5", "b", "Irr Bd(O)", "1307", "W"),
            ("b6", "b", "Irr Bd(O)", "1308", "W"),
            ("b7", "b", "Irr Bd(O)", "1309", "W"),
            ("b8", "b", "Irr Bd(O)", "1310", "W"),
            ("b9", "b", "Irr Bd(O)", "1311", "W"),
            ("b10", "b", "Irr Bd(O)", "1312", "W"),
            ("b11", "b", "Irr Bd(O)", "1313", "W"),
            ("b12", "b", "Irr Bd(O)", "1314", "W"),
        ],
        1,
    );
    let (a, b) = (SideId(0), SideId(1));
    let score = |game: &Game, side| game.ruleset.evaluate(&game.world, side);
    let eliminate = |game: &mut Game, hex: &str| {
        let mut units = game.world.resource::<Units>().clone();
        let board = game.world.resource::<Board>();
        let unit = units.at(board, h(hex))[0];
        units.relocate(unit, Placement::Eliminated, None, None);
        game.world.insert_resource(units);
    };
    assert!((score(&game, a) - 0.5).abs() < 1e-9, "{}", score(&game, a));
    eliminate(&mut game, "0308");
    let lost = |game: &Game| {
        game.ruleset
            .morale(&game.world)
            .iter()
            .find(|m| m.side == a)
            .unwrap()
            .lost
    };
    assert_eq!(lost(&game), 0, "the window counts whole counters");
    let after_psiloi = score(&game, a);
    assert!(after_psiloi < 0.5, "{after_psiloi}");
    assert!((after_psiloi + score(&game, b) - 1.0).abs() < 1e-9);
    // Side B's corps: 26 halves, a threshold of 10 (CdB 12.2, a third rounded up to
    // whole counters); its army breaks at 13 (CdB 13). With losses alone each Blade
    // would cost the same.
    let start = score(&game, b);
    eliminate(&mut game, "1303");
    let one = score(&game, b);
    eliminate(&mut game, "1304");
    let two = score(&game, b);
    assert!(one < start && two < one, "{start} {one} {two}");
    assert!(
        one - two > (start - one) * 1.3,
        "the second Blade costs more: {start} -> {one} -> {two}"
    );
}

#[test]
fn duel_win_interval_is_the_95_percent_wilson_interval() {
    use bataille::ai::duel::win_interval;
    let close = |got: Option<(f64, f64)>, low: f64, high: f64| {
        let (l, h) = got.expect("an interval");
        assert!(
            (l - low).abs() < 5e-4 && (h - high).abs() < 5e-4,
            "{l} {h} against {low} {high}"
        );
    };
    close(win_interval(8, 10), 0.4902, 0.9433);
    close(win_interval(174, 200), 0.8163, 0.9097);
    close(win_interval(11, 40), 0.1611, 0.4283);
    close(win_interval(0, 10), 0.0, 0.2775);
    close(win_interval(10, 10), 0.7225, 1.0);
    assert_eq!(win_interval(0, 0), None);
}

#[test]
fn duel_swap_counts_each_players_wins_over_both_seatings() {
    use bataille::ai::duel::{DuelReport, wins_by_player};
    let (hard, normal) = (
        Player::Computer(Level::Hard),
        Player::Computer(Level::Normal),
    );
    let first = DuelReport {
        games: 10,
        wins: vec![3, 6],
        draws: 1,
        ..DuelReport::default()
    };
    let swapped = DuelReport {
        games: 10,
        wins: vec![2, 8],
        ..DuelReport::default()
    };
    let seatings: [(&[Player], &DuelReport); 2] =
        [(&[hard, normal], &first), (&[normal, hard], &swapped)];
    assert_eq!(
        wins_by_player(&seatings),
        vec![(hard, 11, 20), (normal, 8, 20)]
    );
}

/// The side that must attack draws its playouts' ends of a phase again
/// (`Ruleset::attacker_end_redraws`, CtB's 3): at Falkirk, where the Scots win at the
/// time limit, the English's playout commands end fewer activations than random
/// play's, and the Scots' are random play's, command for command. The other rulesets
/// play their playouts as random play does.
#[test]
fn ai_ctb_the_attackers_playouts_end_fewer_activations_and_the_defenders_are_random_play() {
    use bataille::ai::search::playout_command;
    use bataille::engine::command::Command;
    let mut game = shipped("charles_the_bold/falkirk_1298.ron", 3);
    let ruleset = game.ruleset.clone();
    assert_eq!(ruleset.attacker_end_redraws(), 3);
    let (english, scots) = (side_named(&game, "english"), side_named(&game, "scots"));
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut ends_random, mut ends_eager, mut english_draws, mut scots_draws) = (0, 0, 0, 0);
    for _ in 0..400 {
        if game.is_over() {
            break;
        }
        let acting = game.side_to_act();
        let seed: u64 = rand::RngExt::random(&mut rng);
        let random = ruleset.random_command(&mut game.world, &mut ChaCha8Rng::seed_from_u64(seed));
        let eager = playout_command(
            &*ruleset,
            &mut game,
            (english, 3),
            &mut ChaCha8Rng::seed_from_u64(seed),
        );
        if acting == scots {
            assert_eq!(eager, random, "the Scots' commands are random play's");
            scots_draws += 1;
        } else {
            english_draws += 1;
            ends_random += usize::from(random == Command::EndPhase);
            ends_eager += usize::from(eager == Command::EndPhase);
            if random != Command::EndPhase {
                assert_eq!(eager, random, "only an end of the phase is drawn again");
            }
        }
        game.submit(&random)
            .unwrap_or_else(|r| panic!("`{random}` refused: {r}"));
    }
    assert!(
        english_draws > 50 && scots_draws > 50,
        "{english_draws} {scots_draws}"
    );
    assert!(
        ends_eager < ends_random,
        "the English end fewer activations: {ends_eager} of {english_draws} against {ends_random}"
    );
    for other in [
        "a_la_charge/civitate_1053.ron",
        "champs_de_bataille/poitiers_732.ron",
        "charge_and_melee/maldon_991.ron",
        "morne_plaine/quatre_bras_1815.ron",
    ] {
        let game = shipped(other, 1);
        assert_eq!(game.ruleset.attacker_end_redraws(), 0, "{other}");
    }
}

/// The side that must attack weighs, beside random play's draws, each unit's march
/// nearest the enemy (`directed::advancing_moves`): at Civitate's first Norman move
/// each is legal, each moves a unit of its own, each brings the Normans nearer the
/// Papal army along the ground (`contact_balance`), the limit holds, and the computer
/// at normal weighs every one of them.
#[test]
fn ai_the_side_that_must_attack_weighs_each_units_march_nearest_the_enemy() {
    use bataille::ai::directed::advancing_moves;
    use bataille::engine::command::Command;
    use bataille::engine::evaluation::contact_balance;
    let game = civitate(1);
    let normans = side_named(&game, "normans");
    assert_eq!(game.side_to_act(), normans);
    let nearness = |g: &Game| {
        contact_balance(
            &g.world,
            normans,
            &|unit| g.ruleset.ground_class(&g.world, unit),
            &|class, from, to| g.ruleset.crosses(&g.world, class, from, to),
        )
        .unwrap()
    };
    let before = nearness(&game);
    let moves = advancing_moves(&*game.ruleset, &game.world, normans, 6);
    assert_eq!(moves.len(), 6, "{moves:?}");
    assert!(advancing_moves(&*game.ruleset, &game.world, normans, 2).len() == 2);
    let mut movers = std::collections::BTreeSet::new();
    for command in &moves {
        let Command::Move { unit, .. } = command else {
            panic!("not a march: {command}");
        };
        assert!(movers.insert(unit.to_string()), "{unit} twice: {moves:?}");
        let mut after = civitate(1);
        after.submit(command).unwrap();
        assert!(nearness(&after) > before, "{command} brings no unit nearer");
    }
    let thought = choose(&game, normans, Level::Normal.budget(), 5, None).unwrap();
    let weighed: Vec<&Command> = thought.candidates.iter().map(|c| &c.command).collect();
    for command in &moves {
        assert!(
            weighed.contains(&command),
            "{command} not weighed: {weighed:?}"
        );
    }
}

/// CdB 5.1's groups for the computer's candidates (`Ruleset::groups`): at Soissons, in
/// the designer's deployment, the Franks' warbands stand in lines; each group is two
/// units or more, largest first, no unit in two, and marches together
/// (`group_move_options`); the Franks, who must attack, weigh a group's march among
/// their marches nearest the enemy; a ruleset without groups gives none.
#[test]
fn ai_cdb_5_1_groups_march_together_among_the_attackers_marches() {
    use bataille::ai::directed::advancing_moves;
    let game = Game::start(
        &root().join("scenarios/champs_de_bataille/soissons_486.ron"),
        1,
        &["scenario_deployment".to_string()],
    )
    .unwrap();
    let franks = side_named(&game, "franks");
    assert_eq!(game.side_to_act(), franks);
    let groups = game.ruleset.groups(&game.world, franks);
    assert!(groups.len() >= 2, "{groups:?}");
    assert!(groups.windows(2).all(|w| w[0].len() >= w[1].len()));
    let mut seen = std::collections::BTreeSet::new();
    let mut marching = 0;
    for group in &groups {
        assert!(group.len() >= 2, "{group:?}");
        assert!(
            group.iter().all(|u| seen.insert(*u)),
            "{group:?} shares a unit"
        );
        // A group the ruleset refuses is refused only for its action points (CdB 4.2).
        match game.ruleset.group_move_options(&game.world, group) {
            Ok(options) => marching += usize::from(!options.is_empty()),
            Err(refusal) => assert_eq!(refusal.rule, "CdB 4.2", "{group:?}: {refusal:?}"),
        }
    }
    assert!(marching > 0, "no group can march: {groups:?}");
    let moves = advancing_moves(&*game.ruleset, &game.world, franks, 6);
    assert!(
        moves.iter().any(|m| m.to_string().contains(" / ")),
        "no group's march: {moves:?}"
    );
    let civitate = civitate(1);
    assert!(civitate.ruleset.groups(&civitate.world, franks).is_empty());
}

/// CdB 11.4's flank positions among the computer's candidates
/// (`Ruleset::striking_moves`): with u2 in frontal contact with ua, u1 (two hexes
/// south of ua) is offered the march onto ua's flank, facing it, and no march of a unit
/// with no enemy to flank; the march made, u2's attack that recoils ua destroys it
/// (the dice of the text's example 8: 9 against 8). The search weighs it; a ruleset
/// without such moves offers none.
#[test]
fn ai_cdb_11_4_weighs_the_march_to_a_flank_position_on_an_enemy_held_in_front() {
    use crate::cdb_common::{cdb, seed_rolling_any};
    let units = [
        ("ga", "a", "Reg Cv(O)", "0202", "E"),
        ("u2", "a", "Reg Bd(O)", "0505", "E"),
        ("u1", "a", "Reg Bd(O)", "0607", "NNE"),
        ("as1", "a", "Reg Bd(O)", "0116", "E"),
        ("as2", "a", "Reg Bd(O)", "0115", "E"),
        ("gb", "b", "Reg Cv(O)", "1602", "W"),
        ("ua", "b", "Reg Bd(O)", "0605", "W"),
        ("bs1", "b", "Reg Bd(O)", "1616", "W"),
        ("bs2", "b", "Reg Bd(O)", "1615", "W"),
    ];
    let seed = seed_rolling_any(&[6, 4, 4]);
    let mut game = cdb(&units, seed);
    let a = side_named(&game, "a");
    let moves = game.ruleset.striking_moves(&game.world, a, 4);
    assert_eq!(moves.len(), 1, "{moves:?}");
    let march = moves[0].to_string();
    assert!(march.starts_with("march 0607 "), "u1 marches: {march}");
    let thought = choose(&game, a, Level::Normal.budget(), 5, None).unwrap();
    assert!(
        thought.candidates.iter().any(|c| c.command == moves[0]),
        "not weighed: {:?}",
        thought.candidates
    );
    game.submit(&moves[0]).unwrap();
    assert_eq!(unit_state(&game, "u1")["hex"], "0606", "{march}");
    run(&mut game, &["end", "end", "end", "attack 0505 -> 0605"]);
    let log = log_text(&game);
    assert!(
        log.contains(
            "u1 (0606) holds a flank position on ua (0605): no recoil, destroyed (CdB 11.4)"
        ),
        "{log}"
    );
    assert!(game.ruleset.striking_moves(&game.world, a, 4).is_empty());
    let civitate = civitate(1);
    let normans = side_named(&civitate, "normans");
    assert!(
        civitate
            .ruleset
            .striking_moves(&civitate.world, normans, 4)
            .is_empty()
    );
}

//! The player aids (issue 17): each ruleset's sequence of play holds every phase an
//! autoplay game passes through, in the order a turn meets them, and knows the step
//! the game is at; its tables show the cells of its RON files, read here by a parser
//! of the test's own; and `bataille aids` runs on every shipped scenario.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use bataille::engine::game::Game;
use bataille::engine::phase::{PhaseKind, PhaseView, RulesetPhase};
use bataille::engine::view::{AidTable, PlayerAids};
use bataille::rulesets::a_la_charge::AlcPhase;
use bataille::rulesets::champs_de_bataille::CdbPhase;
use bataille::rulesets::charge_and_melee::CmPhase;
use bataille::rulesets::charles_the_bold::CtbPhase;
use bataille::rulesets::morne_plaine::MpPhase;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

use crate::common::root;

fn scenario(path: &str) -> PathBuf {
    root().join("scenarios").join(path)
}

/// Every phase of a ruleset's enum but the end of the game has a step of that label
/// and rule in the sequence.
fn assert_sequence_has_every_phase<P: RulesetPhase>(aids: &PlayerAids) {
    for phase in P::ALL {
        let view = phase.view();
        if view.kind == PhaseKind::Over {
            continue;
        }
        assert!(
            aids.sequence
                .iter()
                .any(|s| s.label == view.label && s.rule == view.rule),
            "{phase:?} ({}, {}) has no step in {:?}",
            view.label,
            view.rule,
            aids.sequence
        );
    }
}

/// Plays an autoplay game of `path` (at most `commands` commands); at every point the
/// step `current_step` finds is the game's phase, the ruleset marks the same step
/// current, and within a turn the steps are first met in the sequence's order. Returns
/// the phase labels met.
fn autoplay_through_the_sequence(path: &Path, seed: u64, commands: usize) -> BTreeSet<String> {
    let mut game = Game::start(path, seed, &[]).expect("the scenario loads");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut met = BTreeSet::new();
    let mut turn = 0;
    let mut met_this_turn: Vec<usize> = Vec::new();
    let mut turns = 0;
    for _ in 0..commands {
        if game.is_over() {
            break;
        }
        let phase: PhaseView = game.turn().phase;
        let aids = game.player_aids();
        let step = aids.current_step(&phase).unwrap_or_else(|| {
            panic!(
                "turn {}: phase `{}` ({}) is not in the sequence {:?}",
                game.turn().turn,
                phase.label,
                phase.rule,
                aids.sequence
            )
        });
        assert_eq!(aids.sequence[step].label, phase.label);
        assert_eq!(
            aids.current,
            Some(step),
            "the ruleset marks the step current_step finds"
        );
        met.insert(phase.label.to_string());
        if game.turn().turn != turn {
            turn = game.turn().turn;
            turns += 1;
            met_this_turn.clear();
        }
        if !met_this_turn.contains(&step) {
            if let Some(&last) = met_this_turn.last() {
                assert!(
                    step > last,
                    "turn {turn}: step {} `{}` met after step {} `{}`: out of the sequence's order",
                    step + 1,
                    aids.sequence[step].label,
                    last + 1,
                    aids.sequence[last].label
                );
            }
            met_this_turn.push(step);
        }
        let command = game
            .ruleset
            .clone()
            .random_command(&mut game.world, &mut rng);
        game.submit(&command)
            .unwrap_or_else(|r| panic!("autoplay's `{command}` refused: {r}"));
    }
    assert!(turns >= 2, "the game reached a second turn");
    met
}

/// AlC 6: secret set-up, then each side's movement and combat, first side first.
#[test]
fn alc_6_sequence_of_play_follows_an_autoplay_game() {
    let path = scenario("a_la_charge/kalavryai_1078.ron");
    let game = Game::start(&path, 1, &[]).unwrap();
    assert_sequence_has_every_phase::<AlcPhase>(&game.player_aids());
    let met = autoplay_through_the_sequence(&path, 4, 3000);
    assert!(
        met.contains("movement") && met.contains("combat"),
        "{met:?}"
    );
}

/// CdB 3: each player's sequence of action points, movement, missile combat, melee.
#[test]
fn cdb_3_sequence_of_play_follows_an_autoplay_game() {
    let path = scenario("champs_de_bataille/soissons_486.ron");
    let game = Game::start(&path, 1, &[]).unwrap();
    assert_sequence_has_every_phase::<CdbPhase>(&game.player_aids());
    let met = autoplay_through_the_sequence(&path, 3, 3000);
    for label in [
        "set-up",
        "movement",
        "missile combat",
        "melee",
        "action points",
    ] {
        assert!(met.contains(label), "{label}: {met:?}");
    }
}

/// MP generalities: each side's bombardment, movement and combat, then the victory.
#[test]
fn mp_generalities_sequence_of_play_follows_an_autoplay_game() {
    let path = scenario("morne_plaine/quatre_bras_1815.ron");
    let game = Game::start(&path, 1, &[]).unwrap();
    let aids = game.player_aids();
    assert_sequence_has_every_phase::<MpPhase>(&aids);
    let labels: Vec<&str> = aids.sequence.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "bombardment",
            "movement",
            "combat",
            "rally",
            "bombardment",
            "movement",
            "combat",
            "rally",
            "victory"
        ]
    );
    let met = autoplay_through_the_sequence(&path, 3, 3000);
    assert!(
        met.contains("bombardment") && met.contains("combat"),
        "{met:?}"
    );
}

/// CtB 1.4: choice of groups and activation, again and again, then the round's end.
#[test]
fn ctb_1_4_sequence_of_play_follows_an_autoplay_game() {
    let path = scenario("charles_the_bold/grandson_1476.ron");
    let game = Game::start(&path, 1, &[]).unwrap();
    assert_sequence_has_every_phase::<CtbPhase>(&game.player_aids());
    let met = autoplay_through_the_sequence(&path, 3, 1500);
    assert!(
        met.contains("choice of groups") && met.contains("activation"),
        "{met:?}"
    );
}

/// Spec B.2 §13 and C&M 7: movement, missiles, charges, mêlée, in that order.
#[test]
fn cm_sequence_of_play_follows_an_autoplay_game() {
    let path = scenario("charge_and_melee/maldon_991.ron");
    let game = Game::start(&path, 1, &[]).unwrap();
    assert_sequence_has_every_phase::<CmPhase>(&game.player_aids());
    let met = autoplay_through_the_sequence(&path, 3, 3000);
    for label in [
        "movement",
        "charge declarations",
        "charge resolution",
        "mêlée",
    ] {
        assert!(met.contains(label), "{label}: {met:?}");
    }
}

/// The opening position's step: AlC's first side's movement is the second step (after
/// the secret set-up), the other side's the fourth.
#[test]
fn alc_6_current_step_tells_the_first_side_from_the_second() {
    let mut game = Game::start(&scenario("a_la_charge/civitate_1053.ron"), 1, &[]).unwrap();
    let aids = game.player_aids();
    assert_eq!(aids.current_step(&game.turn().phase), Some(1));
    game.run_script("end\nend").unwrap();
    assert_eq!(game.turn().phase.label, "movement");
    let aids = game.player_aids();
    assert_eq!(aids.current_step(&game.turn().phase), Some(3));
    assert_eq!(aids.current_step(&PhaseView::GAME_OVER), None);
}

fn table<'a>(aids: &'a PlayerAids, title: &str) -> &'a AidTable {
    aids.tables
        .iter()
        .find(|t| t.title == title)
        .unwrap_or_else(|| {
            panic!(
                "no table `{title}` in {:?}",
                aids.tables.iter().map(|t| &t.title).collect::<Vec<_>>()
            )
        })
}

fn read_ron<T: serde::de::DeserializeOwned>(file: &str) -> T {
    let path = root().join("rulesets").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    // The files write `Some` values bare (RON's implicit_some, as the rulesets read them).
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A table of a die down the side as the RON files write them.
#[derive(Deserialize)]
struct DieRows {
    rows: Vec<DieRow>,
}

#[derive(Deserialize)]
struct DieRow {
    die: i32,
    results: Vec<String>,
}

/// AlC 12.3, 12.4: the aid's CRT is crt.ron's, cell for cell, a row per die.
#[test]
fn alc_12_4_crt_aid_shows_crt_ron() {
    let game = Game::start(&scenario("a_la_charge/civitate_1053.ron"), 1, &[]).unwrap();
    let aids = game.player_aids();
    let crt = table(&aids, "Combat Results Table");
    assert_eq!(crt.rule, "AlC 12.3, 12.4");
    let file: DieRows = read_ron("a_la_charge/crt.ron");
    assert_eq!(crt.rows.len(), file.rows.len());
    for (row, line) in crt.rows.iter().zip(&file.rows) {
        assert_eq!(row[0], line.die.to_string());
        assert_eq!(row[1..], line.results[..], "die {}", line.die);
    }
    assert_eq!(crt.rows[3][4], "DR1", "die 4 at 2-1");
    #[derive(Deserialize)]
    struct Terrain {
        terrain: Vec<Named>,
    }
    let terrain: Terrain = read_ron("a_la_charge/terrain.ron");
    let aid = table(&aids, "Terrain Effects Table");
    assert_eq!(aid.rows.len(), terrain.terrain.len());
    assert_eq!(aid.rows[1][..2], ["woods", "2"]);
}

/// A cost for each of CtB's five movement classes, `None` impassable.
type ClassCosts = (Option<u8>, Option<u8>, Option<u8>, Option<u8>, Option<u8>);

#[derive(Deserialize)]
struct Named {
    id: String,
}

/// CdB 11.5: each line of the results table is results.ron's, in its order.
#[test]
fn cdb_11_5_results_aid_shows_results_ron() {
    #[derive(Deserialize)]
    struct Results {
        beaten: Vec<Line>,
        doubled: Vec<Line>,
    }
    #[derive(Deserialize)]
    struct Line {
        text: String,
    }
    let game = Game::start(&scenario("champs_de_bataille/daras_530.ron"), 1, &[]).unwrap();
    let aids = game.player_aids();
    let file: Results = read_ron("champs_de_bataille/results.ron");
    for (title, lines) in [
        ("Combat Results Table: loser beaten", &file.beaten),
        ("Combat Results Table: loser doubled", &file.doubled),
    ] {
        let aid = table(&aids, title);
        assert_eq!(aid.rule, "CdB 11.5");
        assert_eq!(aid.rows.len(), lines.len(), "{title}");
        for (row, line) in aid.rows.iter().zip(lines) {
            assert_eq!(row.last(), Some(&line.text));
        }
    }
    let kinds = table(&aids, "Unit kinds");
    let cavalry = kinds.rows.iter().find(|r| r[0] == "Cv").expect("Cv");
    assert_eq!(cavalry[4], "4", "Cv 4 MP (CdB example 4)");
}

/// MP combat and bombardment: the aids' tables are crt.ron's and bombardment.ron's.
#[test]
fn mp_crt_and_bombardment_aids_show_their_ron_files() {
    let game = Game::start(&scenario("morne_plaine/waterloo_1815.ron"), 1, &[]).unwrap();
    let aids = game.player_aids();
    for (title, file) in [
        ("Combat Results Table", "morne_plaine/crt.ron"),
        ("Bombardment table", "morne_plaine/bombardment.ron"),
    ] {
        let aid = table(&aids, title);
        let file: DieRows = read_ron(file);
        assert_eq!(aid.rows.len(), file.rows.len(), "{title}");
        for (row, line) in aid.rows.iter().zip(&file.rows) {
            assert_eq!(row[0], line.die.to_string());
            assert_eq!(row[1..], line.results[..], "{title} die {}", line.die);
        }
    }
    #[derive(Deserialize)]
    struct Units {
        types: Vec<Named>,
    }
    let units: Units = read_ron("morne_plaine/units.ron");
    let aid = table(&aids, "Unit values");
    let ids: Vec<&String> = aid.rows.iter().map(|r| &r[0]).collect();
    assert_eq!(ids, units.types.iter().map(|t| &t.id).collect::<Vec<_>>());
}

/// CtB 16.0 and the terrain sheet: every entry of every army list, and the terrain's
/// costs per class.
#[test]
fn ctb_16_0_army_lists_and_terrain_aids_show_their_ron_files() {
    #[derive(Deserialize)]
    struct Armies {
        armies: std::collections::BTreeMap<String, Vec<Entry>>,
    }
    #[derive(Deserialize)]
    struct Entry {
        id: String,
        sp: Vec<u8>,
    }
    let game = Game::start(&scenario("charles_the_bold/falkirk_1298.ron"), 1, &[]).unwrap();
    let aids = game.player_aids();
    let file: Armies = read_ron("charles_the_bold/armies.ron");
    let aid = table(&aids, "Army lists");
    assert_eq!(aid.rule, "CtB 16.0");
    let entries: Vec<(&String, &Entry)> = file
        .armies
        .iter()
        .flat_map(|(army, list)| list.iter().map(move |e| (army, e)))
        .collect();
    assert_eq!(aid.rows.len(), entries.len());
    for (row, (army, entry)) in aid.rows.iter().zip(&entries) {
        assert_eq!((&row[0], &row[1]), (*army, &entry.id));
        let sp: Vec<String> = entry.sp.iter().map(u8::to_string).collect();
        assert_eq!(row[6], sp.join("/"), "{army} {}", entry.id);
    }
    #[derive(Deserialize)]
    struct Terrain {
        terrain: Vec<Costs>,
    }
    #[derive(Deserialize)]
    struct Costs {
        id: String,
        cost: ClassCosts,
    }
    #[derive(Deserialize)]
    struct Special {
        units: Vec<Named>,
    }
    let special: Special = read_ron("charles_the_bold/special_units.ron");
    let aid = table(&aids, "Special units");
    let ids: Vec<&String> = aid.rows.iter().map(|r| &r[0]).collect();
    assert_eq!(ids, special.units.iter().map(|u| &u.id).collect::<Vec<_>>());
    let file: Terrain = read_ron("charles_the_bold/terrain.ron");
    let aid = table(&aids, "Terrain");
    assert_eq!(aid.rows.len(), file.terrain.len());
    let woods = file.terrain.iter().find(|t| t.id == "woods").unwrap();
    let row = aid.rows.iter().find(|r| r[0] == "woods").unwrap();
    let c = woods.cost;
    let cell = |v: Option<u8>| v.map_or("—".to_string(), |n| n.to_string());
    assert_eq!(
        row[1],
        [cell(c.0), cell(c.1), cell(c.2), cell(c.3), cell(c.4)].join("/")
    );
}

/// C&M 7.15: the charge results' bands and the troop types' factors are charts.ron's
/// and troops.ron's.
#[test]
fn cm_7_15_charge_results_and_troops_aids_show_their_ron_files() {
    #[derive(Deserialize)]
    struct Charts {
        charge: Charge,
        responses: Responses,
    }
    #[derive(Deserialize)]
    struct Responses {
        rabble_counter_charge_from: u8,
    }
    #[derive(Deserialize)]
    struct Charge {
        bands: Vec<Band>,
    }
    #[derive(Deserialize)]
    struct Band {
        from: Option<i32>,
        dps: u8,
    }
    #[derive(Deserialize)]
    struct Troops {
        troops: Vec<Troop>,
    }
    #[derive(Deserialize)]
    struct Troop {
        id: String,
        attack: u8,
        defence: u8,
    }
    let game = Game::start(&scenario("charge_and_melee/hastings_1066.ron"), 1, &[]).unwrap();
    let aids = game.player_aids();
    let charts: Charts = read_ron("charge_and_melee/charts.ron");
    let aid = table(&aids, "Charge results");
    assert_eq!(aid.rule, "C&M 7.15");
    assert_eq!(aid.rows.len(), charts.charge.bands.len());
    let first = &charts.charge.bands[0];
    assert_eq!(aid.rows[0][0], format!("{}+", first.from.unwrap()));
    for (row, band) in aid.rows.iter().zip(&charts.charge.bands) {
        assert_eq!(row[2], band.dps.to_string());
    }
    let aid = table(&aids, "Charge responses and evasion");
    assert_eq!(
        aid.rows[0][1],
        format!("{}+", charts.responses.rabble_counter_charge_from),
        "C&M 7.10: armed rabble counter-charge"
    );
    let troops: Troops = read_ron("charge_and_melee/troops.ron");
    let aid = table(&aids, "Troop types");
    assert_eq!(aid.rows.len(), troops.troops.len());
    for (row, troop) in aid.rows.iter().zip(&troops.troops) {
        assert_eq!(row[0], troop.id);
        assert_eq!(
            (&row[8], &row[9]),
            (&troop.attack.to_string(), &troop.defence.to_string())
        );
    }
}

/// `bataille aids` on every scenario under scenarios/: the sequence with one step
/// marked, every table with its rule and a cell for every heading in every row.
#[test]
fn aids_runs_on_every_scenario() {
    let scenarios = crate::common::every_scenario();
    assert!(scenarios.len() >= 12, "{scenarios:?}");
    for path in &scenarios {
        let game = Game::start(path, 1, &[]).unwrap_or_else(|e| panic!("{e}"));
        let aids = game.player_aids();
        let text = game.aids_text();
        let name = path.display();
        assert!(text.contains("Sequence of play:"), "{name}");
        let marked = text.lines().filter(|l| l.starts_with('>')).count();
        assert_eq!(marked, 1, "{name}: one step marked current\n{text}");
        assert!(aids.tables.len() >= 3, "{name}");
        for t in &aids.tables {
            assert!(
                !t.rule.is_empty() && !t.rows.is_empty(),
                "{name}: {}",
                t.title
            );
            assert!(
                text.contains(&format!("{} ({})", t.title, t.rule)),
                "{name}: {}",
                t.title
            );
            for row in &t.rows {
                assert_eq!(
                    row.len(),
                    t.columns.len(),
                    "{name}: {} row {row:?}",
                    t.title
                );
            }
        }
    }
}

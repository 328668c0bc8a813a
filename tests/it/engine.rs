//! Engine tests: hex geometry and facings, line of sight, dice, the command pipeline
//! as a Bevy plugin, determinism, saves and scripts.

use bataille::engine::command::{Command, UnitRef};
use bataille::engine::dice::Dice;
use bataille::engine::game::{Game, TurnState};
use bataille::engine::hex::{
    HexCoord, Hexside, HexsideFacing, VertexFacing, line_of_hexes, line_of_sight,
};
use bataille::engine::phase::PhaseKind;
use bataille::rulesets::parse_line;

use crate::common::*;

fn h(s: &str) -> HexCoord {
    HexCoord::parse(s).unwrap()
}

#[test]
fn hex_labels_round_trip_ccrr() {
    assert_eq!(h("0213"), HexCoord::new(2, 13));
    assert_eq!(h("0213").label(), "0213");
    assert_eq!(HexCoord::new(12, 1).to_string(), "1201");
    assert!(HexCoord::parse("213").is_none());
    assert!(HexCoord::parse("02A3").is_none());
    for c in 1..=20 {
        for r in 1..=20 {
            let x = HexCoord::new(c, r);
            assert_eq!(HexCoord::parse(&x.label()), Some(x));
        }
    }
}

#[test]
fn hex_neighbours_pin_the_even_columns_lower_convention() {
    // Odd column 05: its east neighbours are 0604 (NE) and 0605 (SE).
    let n: Vec<String> = h("0505").neighbors().iter().map(|x| x.label()).collect();
    assert_eq!(n, ["0504", "0604", "0605", "0506", "0405", "0404"]);
    // Even column 06 is half a hex lower: its east neighbours are 0705 and 0706.
    let n: Vec<String> = h("0605").neighbors().iter().map(|x| x.label()).collect();
    assert_eq!(n, ["0604", "0705", "0706", "0606", "0506", "0505"]);
    for a in [h("0505"), h("0605"), h("0101"), h("1010")] {
        for (d, b) in a.neighbors().into_iter().enumerate() {
            assert_eq!(a.distance(b), 1);
            assert_eq!(b.neighbor((d + 3) % 6), a, "opposite direction leads back");
            assert_eq!(a.direction_to(b), Some(d));
        }
    }
}

/// The hex line's own rounding is `f64::round` (half away from zero) wherever a line
/// can take it: every quarter, half and nudged half from -60 to 60.
#[test]
fn hex_line_rounding_is_f64_round() {
    for k in -2400..=2400 {
        let base = f64::from(k) / 40.0;
        for x in [base, base + 1e-6, base - 1e-6, base + 0.5, base - 0.5] {
            let ours = bataille::engine::hex::round_half_away(x);
            assert_eq!(ours, x.round(), "{x}");
        }
    }
    // The half away from zero, not to even.
    assert_eq!(bataille::engine::hex::round_half_away(2.5), 3.0);
    assert_eq!(bataille::engine::hex::round_half_away(-2.5), -3.0);
}

#[test]
fn hex_distance_and_within() {
    assert_eq!(h("0505").distance(h("0505")), 0);
    assert_eq!(h("0505").distance(h("0508")), 3);
    assert_eq!(h("0101").distance(h("0401")), 3);
    assert_eq!(h("0101").distance(h("0402")), 3);
    assert_eq!(h("0101").distance(h("0403")), 4);
    assert_eq!(h("0505").within(1).len(), 7);
    assert_eq!(h("0505").within(2).len(), 19);
}

#[test]
fn hexsides_are_the_same_key_from_both_hexes() {
    let a = Hexside::between(h("0505"), h("0605")).unwrap();
    let b = Hexside::between(h("0605"), h("0505")).unwrap();
    assert_eq!(a, b);
    assert!(Hexside::between(h("0505"), h("0705")).is_none());
}

#[test]
fn vertex_facings_split_the_six_neighbours_on_all_six_facings() {
    let at = h("0505");
    for f in VertexFacing::all() {
        let mut all: Vec<HexCoord> = f
            .front(at)
            .into_iter()
            .chain(f.flank(at))
            .chain(f.rear(at))
            .collect();
        all.sort();
        let mut n = at.neighbors().to_vec();
        n.sort();
        assert_eq!(all, n, "facing {f:?} covers each neighbour once");
        // The front hexes are adjacent to each other, so are the rear hexes.
        let [a, b] = f.front(at);
        assert!(a.is_adjacent(b));
        let [c, d] = f.rear(at);
        assert!(c.is_adjacent(d));
        assert_eq!(f.reversed().front(at), f.rear(at));
        // A flank hex touches one front hex and one rear hex.
        for fl in f.flank(at) {
            assert_eq!(f.front(at).iter().filter(|x| x.is_adjacent(fl)).count(), 1);
            assert_eq!(f.rear(at).iter().filter(|x| x.is_adjacent(fl)).count(), 1);
        }
    }
    // Facing vertex 0 (between N and NE) fronts 0504 and 0604.
    assert_eq!(VertexFacing(0).front(at), [h("0504"), h("0604")]);
}

#[test]
fn hexside_facings_split_the_six_neighbours_on_all_six_facings() {
    let at = h("0505");
    for f in HexsideFacing::all() {
        let mut all: Vec<HexCoord> = [f.front(at), f.rear(at)]
            .into_iter()
            .chain(f.front_corners(at))
            .chain(f.flanks(at))
            .collect();
        all.sort();
        let mut n = at.neighbors().to_vec();
        n.sort();
        assert_eq!(all, n, "facing {f:?} covers each neighbour once");
        // The front corners touch the front hex; the flanks touch the rear hex.
        for c in f.front_corners(at) {
            assert!(c.is_adjacent(f.front(at)), "{f:?}");
        }
        for fl in f.flanks(at) {
            assert!(fl.is_adjacent(f.rear(at)), "{f:?}");
        }
        assert_eq!(f.reversed().front(at), f.rear(at));
        assert_eq!(HexsideFacing::parse(f.name()), Some(f));
    }
    // Facing N fronts 0504; facing SE (a column with odd number) fronts 0605.
    assert_eq!(HexsideFacing(0).front(at), h("0504"));
    assert_eq!(HexsideFacing::parse("se").unwrap().front(at), h("0605"));
    assert_eq!(HexsideFacing::parse("up"), None);
}

#[test]
fn dice_of_any_size_and_the_average_die_stay_on_their_faces_and_replay() {
    use bataille::engine::dice::{AVERAGE_DIE, Dice};
    let (mut a, mut b) = (Dice::new(9), Dice::new(9));
    let mut seen_d9 = [false; 10];
    for _ in 0..600 {
        let (x, y) = (a.die(9), b.die(9));
        assert_eq!(x, y, "same seed, same dice");
        assert!((1..=9).contains(&x));
        seen_d9[x as usize] = true;
        let d4 = a.die(4);
        assert_eq!(d4, b.die(4));
        assert!((1..=4).contains(&d4));
        let (v, face) = a.avd();
        assert_eq!((v, face), b.avd());
        assert_eq!(v, AVERAGE_DIE[face as usize - 1]);
        assert!((2..=5).contains(&v));
    }
    assert!(
        seen_d9[1..].iter().all(|s| *s),
        "every face of the d9 comes up"
    );
    assert_eq!(a.rolled(), 1800);
    // A d6 is the same stream as before `die(n)` existed: die(6) and d6 agree.
    let (mut c, mut d) = (Dice::new(3), Dice::new(3));
    assert!((0..100).all(|_| c.d6() == d.die(6)));
}

#[test]
fn line_of_sight_along_a_hexside_needs_both_hexes_blocked() {
    // 0505 to 0705 (due east in flat-topped hexes) runs exactly along the hexside
    // between 0604 and 0605.
    let line = line_of_hexes(h("0505"), h("0705"));
    assert_eq!(line.len(), 3);
    let (a, b) = line[1];
    let pair = [a, b.expect("the middle of the line touches two hexes")];
    assert!(
        pair.contains(&h("0604")) && pair.contains(&h("0605")),
        "{pair:?}"
    );
    assert!(line_of_sight(h("0505"), h("0705"), |x| x == h("0604")));
    assert!(line_of_sight(h("0505"), h("0705"), |x| x == h("0605")));
    assert!(!line_of_sight(h("0505"), h("0705"), |x| x == h("0604") || x == h("0605")));
    // A straight column line has single hexes, and one blocker blocks.
    let line = line_of_hexes(h("0501"), h("0504"));
    assert!(line.iter().all(|(_, b)| b.is_none()));
    assert!(!line_of_sight(h("0501"), h("0504"), |x| x == h("0503")));
    assert!(line_of_sight(h("0501"), h("0504"), |x| x == h("0504") || x == h("0501")));
}

#[test]
fn dice_same_seed_same_rolls() {
    let mut a = Dice::new(42);
    let mut b = Dice::new(42);
    let ra: Vec<u8> = (0..100).map(|_| a.d6()).collect();
    let rb: Vec<u8> = (0..100).map(|_| b.d6()).collect();
    assert_eq!(ra, rb);
    assert!(ra.iter().all(|r| (1..=6).contains(r)));
    for face in 1..=6 {
        assert!(ra.contains(&face), "a hundred rolls show every face");
    }
    let mut c = Dice::new(43);
    let rc: Vec<u8> = (0..100).map(|_| c.d6()).collect();
    assert_ne!(ra, rc);
}

#[test]
fn script_lines_parse_and_print_back() {
    for line in [
        "move 0504 0604 0705",
        "move rudolf 0608",
        "attack 0705 0806 -> 0807",
        "attack 0705 fire 0904 -> 0807",
        "attack fire 0904 -> 0807",
        "lose 0705 0705",
        "retreat 0808 0809",
        "advance 0806",
        "advance none",
        "place turcs_ambush 1005",
        "end",
    ] {
        let cmd = parse_line(line).unwrap().unwrap();
        assert_eq!(cmd.to_string(), line);
    }
    assert_eq!(parse_line("  # a comment").unwrap(), None);
    assert_eq!(parse_line("").unwrap(), None);
    assert_eq!(
        parse_line("move 0504 0604 # then stop").unwrap(),
        Some(Command::Move {
            unit: UnitRef::Hex(h("0504")),
            path: vec![h("0604")]
        })
    );
    let e = parse_line("move 0504 06X4").unwrap_err();
    assert_eq!(e.column, 11);
    assert!(e.message.contains("06X4"));
    let e = parse_line("gallop 0504").unwrap_err();
    assert_eq!(e.column, 1);
    assert!(e.message.contains("unknown command `gallop`"));
    // Charge & mêlée's verbs are in the one grammar since it is registered.
    assert!(
        e.message.contains("charge") && e.message.contains("respond"),
        "{e:?}"
    );
    let e = parse_line("attack 0504 0505").unwrap_err();
    assert!(e.message.contains("->"));
}

/// A short Civitate opening used by the determinism and save tests.
const OPENING: &str = "
# Normans, turn 1
move 0905 0805 0705 0605
move 0904 0804 0704
move 0903 0803 0703 0603
end
attack 0605 -> 0505
";

fn finish_pending(game: &mut Game) {
    // Resolve whatever the opening's combat asks with the first legal choice.
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let ruleset = game.ruleset.clone();
    while game.ruleset.pending_decision(&game.world).is_some() {
        let cmd = ruleset.random_command(&mut game.world, &mut rng);
        game.submit(&cmd).unwrap();
    }
}

#[test]
fn determinism_same_seed_and_script_give_the_same_log() {
    let play = || {
        let mut g = civitate(1234);
        g.run_script(OPENING).unwrap();
        finish_pending(&mut g);
        g.run_script("end\nend\nend").unwrap();
        (log_text(&g), g.state_json())
    };
    let (log_a, state_a) = play();
    let (log_b, state_b) = play();
    assert_eq!(log_a, log_b);
    assert_eq!(state_a, state_b);
    assert!(log_a.contains("Die:"), "the opening rolls dice");
}

#[test]
fn save_then_load_replays_to_the_identical_state() {
    let dir = scratch("save");
    let mut g = civitate(99);
    g.run_script(OPENING).unwrap();
    finish_pending(&mut g);
    let save = write(&dir, "game.ron", &g.save_text());
    let loaded = Game::load_save(&save).unwrap();
    assert_eq!(loaded.state_json(), g.state_json());
    assert_eq!(log_text(&loaded), log_text(&g));
    assert_eq!(loaded.commands(), g.commands());
}

#[test]
fn undo_by_replay_never_changes_a_die() {
    // Replaying all but the last command gives the same dice as the game had then.
    let mut g = civitate(5);
    g.run_script(OPENING).unwrap();
    finish_pending(&mut g);
    let commands = g.commands().to_vec();
    let mut replay = civitate(5);
    for c in &commands[..commands.len() - 1] {
        replay.submit(c).unwrap();
    }
    replay.submit(commands.last().unwrap()).unwrap();
    assert_eq!(log_text(&replay), log_text(&g));
}

#[test]
fn save_of_a_changed_scenario_is_refused() {
    let dir = scratch("changed");
    let scenario = std::fs::read_to_string(civitate_path()).unwrap();
    let path = write(&dir, "civitate.ron", &scenario);
    let mut g = Game::start(&path, 3, &[]).unwrap();
    g.run_script("move 0905 0805\nend").unwrap();
    let save = write(&dir, "game.ron", &g.save_text());
    std::fs::write(
        &path,
        scenario.replace("morale_level: 12", "morale_level: 13"),
    )
    .unwrap();
    let err = Game::load_save(&save).err().expect("refused");
    assert!(
        err.message.contains("changed since this game was saved"),
        "{err}"
    );
    assert_eq!(err.line, 3, "points at the hash line of the save: {err}");
}

#[test]
fn a_refused_command_changes_nothing_not_even_the_dice() {
    let mut g = civitate(8);
    g.run_script(OPENING).unwrap();
    let before = (
        g.state_json(),
        log_text(&g),
        g.world.resource::<Dice>().position(),
    );
    // Wrong phase, off-map, no unit: refused.
    for bad in [
        "move 0507 0607",
        "attack 0605 -> 0505",
        "attack 0703 -> 0904",
        "lose 0303",
        "end",
    ] {
        if g.ruleset.pending_decision(&g.world).is_none() && bad == "end" {
            continue;
        }
        let cmd = parse_line(bad).unwrap().unwrap();
        if g.submit(&cmd).is_ok() {
            continue;
        }
        let after = (
            g.state_json(),
            log_text(&g),
            g.world.resource::<Dice>().position(),
        );
        assert_eq!(before, after, "`{bad}` was refused but changed the game");
    }
}

#[test]
fn the_engine_plugin_runs_commands_sent_as_messages() {
    use bataille::engine::plugin::{CommandOutcome, EnginePlugin, SubmitCommand};
    use bevy::prelude::*;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, EnginePlugin));
    let (scenario, ruleset) = bataille::rulesets::load_scenario(&civitate_path()).unwrap();
    let board = bataille::engine::game::build_ruleset_board(&*ruleset, &scenario);
    bataille::engine::game::init_world(app.world_mut(), scenario, ruleset, board, 1, &[]);
    // The phase is mirrored into the state in one frame and entered in the next.
    app.update();
    app.update();
    assert_eq!(
        *app.world().resource::<State<PhaseKind>>().get(),
        PhaseKind::Move
    );
    app.world_mut().write_message(SubmitCommand(
        parse_line("move 0905 0805").unwrap().unwrap(),
    ));
    app.world_mut()
        .write_message(SubmitCommand(parse_line("end").unwrap().unwrap()));
    app.update();
    let outcomes: Vec<CommandOutcome> = app
        .world_mut()
        .resource_mut::<Messages<CommandOutcome>>()
        .drain()
        .collect();
    assert_eq!(outcomes.len(), 2);
    assert!(outcomes.iter().all(|o| o.result.is_ok()));
    app.update();
    assert_eq!(
        app.world().resource::<TurnState>().phase.kind,
        PhaseKind::Fight
    );
    assert_eq!(
        *app.world().resource::<State<PhaseKind>>().get(),
        PhaseKind::Fight
    );
    // The Chevaliers d'Elite now stand in 0805 and exert a zone of control there.
    let zoc = app.world().resource::<bataille::engine::zoc::ZocMap>();
    let board = app.world().resource::<bataille::engine::board::Board>();
    assert!(zoc.covered_by(board, bataille::engine::units::SideId(0), h("0705")));
    assert!(!zoc.covered_by(board, bataille::engine::units::SideId(0), h("0603")));
}

#[test]
fn an_unknown_command_line_option_is_refused() {
    let err = Game::start(&civitate_path(), 1, &["hills_block_fyre".to_string()])
        .err()
        .expect("refused");
    assert!(
        err.to_string()
            .contains("unknown option `hills_block_fyre`"),
        "{err}"
    );
    assert!(
        err.to_string().contains("hills_block_fire"),
        "names the known ones: {err}"
    );
}

#[test]
fn cli_play_prints_the_log_and_stops_at_a_refused_line_with_its_number() {
    let dir = scratch("cli");
    let script = write(
        &dir,
        "s.txt",
        "move 0905 0805\n# a comment\nmove 0805 0704 0603 0502 0401 0301 0201\n",
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args([
            "play",
            civitate_path().to_str().unwrap(),
            "--seed",
            "1",
            "--script",
            script.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("moves 0905 → 0805 (1 MP) (AlC 9)"),
        "{stdout}"
    );
    assert!(
        stderr.contains("s.txt:3:") && stderr.contains("already moved") && stderr.contains("AlC 9"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));
}

#[test]
fn cli_play_state_is_json_with_every_unit() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args([
            "play",
            civitate_path().to_str().unwrap(),
            "--seed",
            "1",
            "--state",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value =
        serde_json::from_str(&stdout[stdout.find("{\n").unwrap()..]).unwrap();
    assert_eq!(json["units"].as_array().unwrap().len(), 31);
    assert_eq!(json["active_side"], "normans");
    let archers = json["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "archers")
        .unwrap();
    assert_eq!(archers["hex"], "0910");
    assert_eq!(archers["steps"], 2);
}

#[test]
fn cli_save_and_load_continue_the_same_game() {
    let dir = scratch("cli-save");
    let save = dir.join("game.ron");
    let script = write(&dir, "a.txt", "move 0905 0805\nend\n");
    let bin = env!("CARGO_BIN_EXE_bataille");
    let civ = civitate_path();
    let out = std::process::Command::new(bin)
        .args([
            "play",
            civ.to_str().unwrap(),
            "--seed",
            "5",
            "--script",
            script.to_str().unwrap(),
            "--save",
            save.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let loaded = Game::load_save(&save).unwrap();
    assert_eq!(loaded.turn().phase.kind, PhaseKind::Fight);
    assert_eq!(loaded.seed, 5);
    assert_eq!(loaded.commands().len(), 2);
}

#[test]
fn malformed_saves_are_refused_with_their_line_never_a_panic() {
    let dir = scratch("bad-saves");
    let civ = civitate_path().display().to_string();
    let good = civitate(1).save();
    let hash = good.scenario_hash.clone();
    let cases = [
        (
            "syntax.ron",
            format!("(scenario: \"{civ}\", scenario_hash: \"{hash}\" seed: 1, commands: [])"),
            1,
            "Expected",
        ),
        (
            "wrong_type.ron",
            format!(
                "(scenario: \"{civ}\", scenario_hash: \"{hash}\", seed: \"one\", commands: [])"
            ),
            1,
            "Expected integer",
        ),
        (
            "refused.ron",
            format!(
                "(\n  scenario: \"{civ}\",\n  scenario_hash: \"{hash}\",\n  seed: 1,\n  commands: [\n    \"move 0905 0805\",\n    \"move 0905 0804\",\n  ],\n)"
            ),
            7,
            "command 2 `move 0905 0804` is refused on replay",
        ),
        (
            "bad_command.ron",
            format!(
                "(\n  scenario: \"{civ}\",\n  scenario_hash: \"{hash}\",\n  seed: 1,\n  commands: [\n    \"charge 0905\",\n  ],\n)"
            ),
            6,
            "unknown command `charge`",
        ),
        (
            "missing_scenario.ron",
            format!(
                "(scenario: \"nowhere.ron\", scenario_hash: \"{hash}\", seed: 1, commands: [])"
            ),
            1,
            "cannot be loaded",
        ),
        ("empty.ron", String::new(), 0, "empty"),
    ];
    for (name, text, line, message) in cases {
        let path = write(&dir, name, &text);
        let err = Game::load_save(&path)
            .err()
            .unwrap_or_else(|| panic!("{name} was accepted"));
        assert_eq!(err.line, line, "{name}: {err}");
        assert!(err.message.contains(message), "{name}: {err}");
        assert!(err.file.ends_with(name), "{name}: {err}");
    }
}

#[test]
fn shared_rolls_of_a_d9_and_the_average_die_are_logged_with_their_rule() {
    use bataille::engine::dice::Dice;
    use bataille::engine::event::{EventKind, GameLog};
    use bataille::rulesets::common::{roll_average, roll_die};
    let mut world = bevy::prelude::World::new();
    world.insert_resource(Dice::new(4));
    world.insert_resource(GameLog::new());
    let d9 = roll_die(&mut world, 9, "C&M 17", |_| {
        "the morale of the Saxons".into()
    });
    let avd = roll_average(&mut world, "CtB 7", |_| "the fire of the archers".into());
    let log = world.resource::<GameLog>();
    assert_eq!(log.events.len(), 2);
    assert!(log.events.iter().all(|e| e.kind == EventKind::DieRolled));
    assert_eq!(
        log.events[0].text,
        format!("Die (d9): {d9} for the morale of the Saxons")
    );
    assert_eq!(log.events[0].rule, "C&M 17");
    assert!(
        log.events[1].text.starts_with(&format!("AvD {avd} (d6 ")),
        "{}",
        log.events[1].text
    );
    assert_eq!(world.resource::<Dice>().rolled(), 2);
}

/// A ruleset adds its verbs to the one script grammar: a game parses with the engine's
/// verbs and its own ruleset's, and a ruleset's command prints back as it was written.
#[test]
fn each_game_parses_the_engine_verbs_and_its_own_rulesets() {
    let civitate = civitate(1);
    let soissons = shipped("champs_de_bataille/soissons_486.ron", 1);
    let line = "march 0504 0604 cw / 0505 0605";
    let e = civitate.parse_line(line).unwrap_err();
    assert_eq!(e.column, 1);
    assert!(
        e.message
            .contains("unknown command `march` (expected move, attack, lose, retreat, check, advance, place or end)"),
        "{}",
        e.message
    );
    let cmd = soissons.parse_line(line).unwrap().unwrap();
    assert!(matches!(cmd, Command::Ruleset(_)));
    assert_eq!(cmd.to_string(), line);
    assert_eq!(
        parse_line(line).unwrap(),
        Some(cmd.clone()),
        "the one grammar"
    );
    // Errors inside a ruleset's verb keep their column.
    let e = soissons.parse_line("assign syagrius 7").unwrap_err();
    assert_eq!(
        (e.column, e.message.as_str()),
        (17, "`7` is not a die value from 1 to 6")
    );
    // A command of another ruleset reaching A la Charge is refused with the rule.
    let mut civitate = civitate;
    let r = civitate.submit(&cmd).unwrap_err();
    assert_eq!(r.rule, "AlC 9");
    assert!(
        r.reason.contains("A la Charge has no command `march`"),
        "{r}"
    );
}

/// Autoplay's weighted candidates draw exactly as the list that holds each candidate
/// as many times as its weight: the same die, the same choice, for every seed.
#[test]
fn weighted_candidates_pick_as_the_repeated_list() {
    use bataille::rulesets::common::{Weighted, pick};
    use rand::SeedableRng;
    let weights = [(1, 2), (2, 0), (3, 4), (4, 1), (5, 3)];
    for seed in 0..200 {
        let mut a = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut b = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let repeated: Vec<u32> = weights
            .iter()
            .flat_map(|(v, w)| std::iter::repeat_n(*v, *w))
            .collect();
        let mut weighted = Weighted::default();
        for (v, w) in weights {
            weighted.push(v, w);
        }
        assert_eq!(
            weighted.pick(&mut b),
            pick(&mut a, &repeated),
            "seed {seed}"
        );
        assert_eq!(
            a.get_word_pos(),
            b.get_word_pos(),
            "seed {seed}: one die each"
        );
    }
    assert!(Weighted::<u32>::default().is_empty());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    assert_eq!(Weighted::<u32>::default().pick(&mut rng), None);
}

/// `engine::cached` keeps a type's component id per world: two worlds that give the
/// same types different ids, read in turn, each read their own values, and a world
/// without the type reads none (issue 19).
#[test]
fn cached_reads_keep_each_worlds_own_component_ids() {
    use bataille::engine::cached::CachedWorld;
    use bataille::engine::units::{Facing, Hidden};
    use bevy::prelude::*;

    #[derive(Resource)]
    struct Other(#[allow(dead_code)] u32);
    let turn = |n: u32| TurnState {
        turn: n,
        last_turn: 9,
        phase: Default::default(),
        active: bataille::engine::units::SideId(0),
        first: bataille::engine::units::SideId(0),
        outcome: None,
    };

    let mut a = World::new();
    let mut b = World::new();
    let mut empty = World::new();
    // Different registration orders: the types get different ids in `a` and `b`.
    a.insert_resource(Other(1));
    a.insert_resource(turn(1));
    b.insert_resource(turn(2));
    let in_a = a.spawn(Facing(VertexFacing(3))).id();
    let in_b = b.spawn((Hidden, Facing(VertexFacing(5)))).id();
    assert_ne!(
        a.components().valid_component_id::<TurnState>(),
        b.components().valid_component_id::<TurnState>()
    );
    for _ in 0..3 {
        assert_eq!(a.res::<TurnState>().turn, 1);
        assert_eq!(b.res::<TurnState>().turn, 2);
        assert_eq!(
            a.get_cached::<Facing>(in_a).map(|f| f.0),
            Some(VertexFacing(3))
        );
        assert_eq!(
            b.get_cached::<Facing>(in_b).map(|f| f.0),
            Some(VertexFacing(5))
        );
        assert!(a.get_cached::<Hidden>(in_a).is_none());
        assert!(b.get_cached::<Hidden>(in_b).is_some());
        assert!(bataille::engine::cached::get_resource::<TurnState>(&empty).is_none());
    }
    empty.insert_resource(turn(7));
    assert_eq!(empty.res::<TurnState>().turn, 7);
}

/// Keys that differ in any part hash apart in the engine's fast maps (`fast_hash`).
#[test]
fn fast_hash_keys_apart_hash_apart() {
    use bataille::engine::fast_hash::FastSet;
    let mut set: FastSet<(i32, i32, u8, bool)> = FastSet::default();
    for c in 0..30 {
        for r in 0..30 {
            for f in 0..6 {
                set.insert((c, r, f, c % 2 == 0));
            }
        }
    }
    assert_eq!(set.len(), 30 * 30 * 6);
    assert!(set.contains(&(4, 7, 3, true)));
    assert!(!set.contains(&(4, 7, 3, false)));
}

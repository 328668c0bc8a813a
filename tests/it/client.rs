//! The window's input path, headless: clicks and hovers given as world points on the
//! map go through the client's controller to the engine, with no rendering.

use bataille::rulesets::champs_de_bataille::commands::CdbCommand;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

use bataille::client::controller::{
    ControllerPlugin, HoverInfo, Interaction, PlayerInput, first_unit_at, viewer,
};
use bataille::client::input_script::parse_input_line;
use bataille::client::layout::{hex_at, hex_center};
use bataille::client::session::Session;
use bataille::engine::command::Command;
use bataille::engine::dice::Dice;
use bataille::engine::game::Game;
use bataille::engine::hex::HexCoord;
use bataille::engine::phase::PhaseKind;
use bataille::engine::units::{Placement, SideId, Units};

use crate::common::*;

fn h(s: &str) -> HexCoord {
    HexCoord::parse(s).unwrap()
}

fn app_with(game: Game) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, ControllerPlugin))
        .insert_resource(Session::new(game, None));
    app.update();
    app
}

/// A click at a world point, as the window's cursor system sends it.
fn click_at(app: &mut App, point: Vec2) {
    let hex = hex_at(point, 12, 15).expect("the point is on the map");
    app.world_mut().write_message(PlayerInput::Hover(Some(hex)));
    app.world_mut().write_message(PlayerInput::Click(hex));
    app.update();
}

fn hover_at(app: &mut App, point: Vec2) {
    let hex = hex_at(point, 12, 15);
    app.world_mut().write_message(PlayerInput::Hover(hex));
    app.update();
}

fn placement_of(app: &App, key: &str) -> Placement {
    let game = &app.world().resource::<Session>().game;
    let units = game.world.resource::<Units>();
    let id = units
        .ids()
        .find(|id| {
            game.world
                .get::<bataille::engine::units::UnitName>(units.entity(*id))
                .is_some_and(|n| n.key == key)
        })
        .unwrap();
    *game.world.get::<Placement>(units.entity(id)).unwrap()
}

#[test]
fn layout_hex_at_inverts_hex_center_and_is_none_off_the_map() {
    for col in 1..=12 {
        for row in 1..=15 {
            let hex = HexCoord::new(col, row);
            let c = hex_center(hex);
            assert_eq!(hex_at(c, 12, 15), Some(hex));
            // A point well inside the hex, off centre, is still in it.
            assert_eq!(hex_at(c + Vec2::new(20.0, -15.0), 12, 15), Some(hex));
        }
    }
    assert_eq!(hex_at(Vec2::new(-200.0, 100.0), 12, 15), None);
}

#[test]
fn a_click_selects_a_unit_and_a_second_click_moves_it_through_the_engine() {
    let mut app = app_with(civitate(7));
    // The elite knights on 0905 (Normans move first, AlC 6).
    click_at(&mut app, hex_center(h("0905")) + Vec2::new(5.0, 5.0));
    let ui = app.world().resource::<Interaction>();
    let selected = ui.selected.expect("a click on a unit selects it");
    assert!(!ui.moves.is_empty(), "its reachable hexes are shaded");
    assert_eq!(
        first_unit_at(app.world().resource::<Session>(), h("0905")),
        Some(selected)
    );
    // Hovering a reachable hex shows the path and its cost.
    hover_at(&mut app, hex_center(h("0605")));
    match &app.world().resource::<Interaction>().hover_info {
        HoverInfo::Move(m) => {
            assert_eq!(m.hex, h("0605"));
            assert_eq!(m.path.last(), Some(&h("0605")));
            assert!(m.cost > 0 && m.left >= 0);
        }
        other => panic!("expected a move path, got {other:?}"),
    }
    click_at(&mut app, hex_center(h("0605")));
    assert_eq!(
        placement_of(&app, "chev_elite"),
        Placement::OnMap(h("0605"))
    );
    let session = app.world().resource::<Session>();
    assert_eq!(session.game.commands().len(), 1);
    assert!(matches!(session.game.commands()[0], Command::Move { .. }));
}

#[test]
fn hovering_an_illegal_hex_gives_the_rulesets_reason_with_its_section() {
    let mut app = app_with(civitate(7));
    click_at(&mut app, hex_center(h("0905")));
    // Far beyond the knights' movement points.
    hover_at(&mut app, hex_center(h("0115")));
    match &app.world().resource::<Interaction>().hover_info {
        HoverInfo::Illegal(why) => assert!(why.contains("(AlC"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    // A Papal unit cannot be moved in the Norman phase, and says why.
    click_at(&mut app, hex_center(h("0504")));
    let ui = app.world().resource::<Interaction>();
    assert!(ui.selected.is_some());
    assert!(
        ui.cannot_move
            .as_deref()
            .is_some_and(|w| w.contains("AlC 6")),
        "{:?}",
        ui.cannot_move
    );
}

#[test]
fn the_combat_preview_is_the_resolvers_own_evaluation() {
    let mut game = civitate(7);
    game.run_script("move 0905 0805 0705 0605\nend").unwrap();
    assert_eq!(game.turn().phase.kind, PhaseKind::Fight);
    let mut app = app_with(game);
    click_at(&mut app, hex_center(h("0605")));
    assert_eq!(
        app.world().resource::<Interaction>().attackers,
        vec![h("0605")]
    );
    hover_at(&mut app, hex_center(h("0505")));
    let preview = match &app.world().resource::<Interaction>().hover_info {
        HoverInfo::Attack(p) => p.clone(),
        other => panic!("expected a preview, got {other:?}"),
    };
    let total: f64 = preview.chances.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9, "chances sum to one: {total}");
    assert!(
        preview.modifiers.iter().any(|m| m.contains("(AlC 10)")),
        "{preview:?}"
    );
    // The same odds the engine resolves with: its log names the same line.
    click_at(&mut app, hex_center(h("0505")));
    let session = app.world().resource::<Session>();
    let log: Vec<String> = session
        .game
        .log()
        .events
        .iter()
        .map(|e| e.text.clone())
        .collect();
    assert!(
        log.iter().any(|l| l.contains(&preview.odds)),
        "the log holds the previewed odds `{}`",
        preview.odds
    );
    assert!(matches!(
        session.game.commands().last(),
        Some(Command::Attack { .. })
    ));
}

#[test]
fn undo_replays_without_touching_the_dice_and_stops_at_a_die_roll() {
    let mut app = app_with(civitate(7));
    click_at(&mut app, hex_center(h("0905")));
    click_at(&mut app, hex_center(h("0805")));
    let dice_before = app
        .world()
        .resource::<Session>()
        .game
        .world
        .resource::<Dice>()
        .position();
    app.world_mut().write_message(PlayerInput::Undo);
    app.update();
    assert_eq!(
        placement_of(&app, "chev_elite"),
        Placement::OnMap(h("0905"))
    );
    let session = app.world().resource::<Session>();
    assert_eq!(
        session.game.world.resource::<Dice>().position(),
        dice_before
    );
    app.world_mut().write_message(PlayerInput::Redo);
    app.update();
    assert_eq!(
        placement_of(&app, "chev_elite"),
        Placement::OnMap(h("0805"))
    );
    // A phase end cannot be undone.
    app.world_mut()
        .write_message(PlayerInput::Submit(Command::EndPhase));
    app.world_mut().write_message(PlayerInput::Undo);
    app.update();
    let ui = app.world().resource::<Interaction>();
    assert!(ui.status.starts_with("cannot undo"), "{}", ui.status);
    assert_eq!(
        app.world().resource::<Session>().game.turn().phase.kind,
        PhaseKind::Fight
    );
}

#[test]
fn kalavryai_hides_the_map_between_the_sides_and_the_ambush_from_the_enemy() {
    let mut app = app_with(kalavryai(3));
    // Set-up: the ambushing side places in secret; the rules offer the zone's hexes.
    let session = app.world().resource::<Session>();
    let decision = session.game.ruleset.decision(&session.game.world).unwrap();
    let place = decision
        .choices
        .iter()
        .find(|c| c.hex.is_some())
        .unwrap()
        .clone();
    let ambusher = decision.side;
    let hidden_hex = place.hex.unwrap();
    // The first viewer is asked to take the seat.
    assert_eq!(
        app.world().resource::<Interaction>().hand_over,
        Some(ambusher)
    );
    app.world_mut()
        .write_message(PlayerInput::Click(hidden_hex));
    app.update();
    assert!(
        app.world()
            .resource::<Interaction>()
            .status
            .starts_with("hand the seat"),
        "clicks wait for the hand-over"
    );
    app.world_mut().write_message(PlayerInput::HandOverDone);
    app.world_mut()
        .write_message(PlayerInput::Click(hidden_hex));
    app.update();
    let session = app.world().resource::<Session>();
    assert_eq!(
        session.game.commands().len(),
        1,
        "{}",
        app.world().resource::<Interaction>().status
    );
    // Its owner sees it.
    assert!(first_unit_at(session, hidden_hex).is_some());
    // End the set-up: the other side must take the seat, and does not see the ambush.
    app.world_mut()
        .write_message(PlayerInput::Submit(Command::EndPhase));
    app.update();
    let ui = app.world().resource::<Interaction>();
    let other = SideId(1 - ambusher.0);
    assert_eq!(ui.hand_over, Some(other), "status: {}", ui.status);
    assert_eq!(ui.viewer, other);
    let session = app.world().resource::<Session>();
    assert_eq!(first_unit_at(session, hidden_hex), None);
}

#[test]
fn input_scripts_parse_hands_and_commands_and_locate_errors() {
    use bataille::client::controller::parse_input_line;
    assert_eq!(
        parse_input_line("click 0905 # the elite").unwrap(),
        Some(PlayerInput::Click(h("0905")))
    );
    assert_eq!(
        parse_input_line("  hover 0605").unwrap(),
        Some(PlayerInput::Hover(Some(h("0605"))))
    );
    assert_eq!(
        parse_input_line("end").unwrap(),
        Some(PlayerInput::Submit(Command::EndPhase))
    );
    assert_eq!(parse_input_line("# nothing").unwrap(), None);
    let e = parse_input_line("click 09X5").unwrap_err();
    assert_eq!(e.column, 7);
    assert!(e.message.contains("CCRR"), "{}", e.message);
    assert!(parse_input_line("jump 0905").is_err());
    // Every shipped window script parses.
    for entry in std::fs::read_dir(root().join("scripts/window")).unwrap() {
        let path = entry.unwrap().path();
        bataille::client::controller::parse_input_script(&path).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn the_menu_catalog_lists_every_shipped_scenario_by_ruleset() {
    let entries = bataille::client::catalog::catalog(&root().join("scenarios"));
    let names: Vec<String> = entries
        .iter()
        .map(|e| {
            e.summary
                .as_ref()
                .map(|s| s.name.clone())
                .unwrap_or_else(|e| e.clone())
        })
        .collect();
    assert!(names.contains(&"Civitate".to_string()), "{names:?}");
    assert!(names.contains(&"Kalavryai".to_string()), "{names:?}");
    assert!(entries.iter().all(|e| e.summary.is_ok()));
    // A malformed file is listed with its located error, not dropped or a panic.
    let bad = bataille::client::catalog::catalog(&root().join("tests/malformed/scenarios"));
    assert!(
        bad.iter()
            .any(|e| e.summary.as_ref().is_err_and(|m| m.contains(".ron:")))
    );
}

#[test]
fn the_autosave_at_a_phase_end_resumes_the_same_game() {
    let dir = scratch("autosave");
    let autosave = dir.join("autosave.ron");
    let mut session = Session::new(civitate(11), Some(autosave.clone()));
    session
        .submit(
            &bataille::rulesets::parse_line("move 0905 0805")
                .unwrap()
                .unwrap(),
        )
        .unwrap();
    assert!(!autosave.exists(), "written at phase ends only");
    session.submit(&Command::EndPhase).unwrap();
    let resumed = Session::load(&autosave, None).unwrap();
    assert_eq!(resumed.game.commands(), session.game.commands());
    assert_eq!(
        resumed.game.world.resource::<Dice>().position(),
        session.game.world.resource::<Dice>().position()
    );
}

#[test]
fn cdb_shift_clicks_form_a_group_whose_move_shows_its_pa_cost_and_moves_all_three() {
    let game = Game::start(
        &root().join("scenarios/champs_de_bataille/soissons_486.ron"),
        3,
        &["scenario_deployment".to_string()],
    )
    .expect("Soissons loads");
    let mut app = app_with(game);
    // Seed 3: the Franks attack and move first; their irregular corps need no assignment.
    assert_eq!(
        app.world().resource::<Session>().game.turn().phase.kind,
        PhaseKind::Move
    );
    for (input, hex) in [
        (PlayerInput::Click(h("1809")), None),
        (PlayerInput::GroupClick(h("1810")), None),
        (PlayerInput::GroupClick(h("1811")), None),
        (PlayerInput::Hover(Some(h("1610"))), Some(())),
    ] {
        let _ = hex;
        app.world_mut().write_message(input);
        app.update();
    }
    let ui = app.world().resource::<Interaction>();
    assert_eq!(ui.group.len(), 3, "three units in the group");
    let HoverInfo::Move(m) = &ui.hover_info else {
        panic!(
            "1610 is where the group's first unit can lead it: {:?}",
            ui.hover_info
        );
    };
    assert!(
        m.note.contains("PA") && m.note.contains("CdB 4.2"),
        "{}",
        m.note
    );
    assert!(
        matches!(CdbCommand::of(&m.command), Some(CdbCommand::March { moves }) if moves.len() == 3)
    );
    app.world_mut().write_message(PlayerInput::Click(h("1610")));
    app.update();
    for (key, to) in [
        ("clovis_wb_1", "1610"),
        ("clovis_wb_2", "1611"),
        ("clovis_wb_4", "1612"),
    ] {
        assert_eq!(placement_of(&app, key), Placement::OnMap(h(to)), "{key}");
    }
    let ui = app.world().resource::<Interaction>();
    assert!(
        ui.group.is_empty(),
        "the group is dropped once it has moved"
    );
}

#[test]
fn cdb_set_up_hands_the_seat_over_between_players_and_a_click_places_the_unit_asked_for() {
    let game = shipped("champs_de_bataille/soissons_486.ron", 3);
    let mut app = app_with(game);
    let send = |app: &mut App, input: PlayerInput| {
        app.world_mut().write_message(input);
        app.update();
    };
    // The set-up hides the seat's secrets: the first player takes the seat.
    assert_eq!(
        app.world().resource::<Session>().game.turn().phase.kind,
        PhaseKind::Place
    );
    assert!(app.world().resource::<Interaction>().hand_over.is_some());
    send(&mut app, PlayerInput::HandOverDone);
    for line in ["edge East", "end"] {
        let cmd = bataille::rulesets::parse_line(line).unwrap().unwrap();
        send(&mut app, PlayerInput::Submit(cmd));
    }
    // The Gallo-Romans place their baggage: the screen goes up before they see it.
    assert!(
        app.world().resource::<Interaction>().hand_over.is_some(),
        "the seat changes hands"
    );
    let r = refused_click(&mut app, h("0514"));
    assert!(r.contains("hand the seat over first"), "{r}");
    send(&mut app, PlayerInput::HandOverDone);
    // A click off the edge answers nothing; a click on the edge places the baggage.
    send(&mut app, PlayerInput::Click(h("0514")));
    assert_eq!(placement_of(&app, "castra_1"), Placement::Waiting);
    assert!(
        app.world()
            .resource::<Interaction>()
            .status
            .contains("first: place Castra on a hex along your map edge"),
        "{}",
        app.world().resource::<Interaction>().status
    );
    send(&mut app, PlayerInput::Click(h("0114")));
    assert_eq!(placement_of(&app, "castra_1"), Placement::OnMap(h("0114")));
}

/// Clicks a hex and returns the status line the click left.
fn refused_click(app: &mut App, hex: bataille::engine::hex::HexCoord) -> String {
    app.world_mut().write_message(PlayerInput::Click(hex));
    app.update();
    app.world().resource::<Interaction>().status.clone()
}

/// The scenario, seed and options a window script's `# Run:` line gives.
fn run_line_of(script: &str) -> (std::path::PathBuf, u64, Vec<String>) {
    let line = script
        .lines()
        .find_map(|l| l.trim_start_matches('#').trim().strip_prefix("Run:"))
        .expect("every window script says how it is run");
    let words: Vec<&str> = line.split_whitespace().collect();
    let scenario = root().join(words[1]);
    let (mut seed, mut options) = (1, Vec::new());
    for pair in words.windows(2) {
        match pair[0] {
            "--seed" => seed = pair[1].parse().expect("a seed"),
            "--option" => options.push(pair[1].to_string()),
            _ => {}
        }
    }
    (scenario, seed, options)
}

/// Every shipped window script (those behind the README's screenshots) plays through
/// the window's input path, headless, from the scenario, seed and options of its
/// `# Run:` line, and no click or command of it is refused: a rules change that made a
/// screenshot's script stale fails here, not only in a picture nobody re-makes.
#[test]
fn every_shipped_window_script_plays_without_a_refusal() {
    for entry in std::fs::read_dir(root().join("scripts/window")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let (scenario, seed, options) = run_line_of(&text);
        let game = Game::start(&scenario, seed, &options)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut app = app_with(game);
        let inputs = bataille::client::controller::parse_input_script(&path)
            .unwrap_or_else(|e| panic!("{e}"));
        for (i, input) in inputs.into_iter().enumerate() {
            app.world_mut().write_message(input.clone());
            app.update();
            let ui = app.world().resource::<Interaction>();
            assert!(
                !ui.unheeded,
                "{}: input {} ({input:?}): {}",
                path.display(),
                i + 1,
                ui.status
            );
        }
    }
}

/// The replay view (issue 18) through the window's input path: opened on a game played
/// so far, every point shown is the game as it stood then; nothing can be played in
/// it; leaving it restores the game; `Play from here` goes on as a what-if branch whose
/// save says where it left.
#[test]
fn replay_view_steps_through_the_game_and_plays_a_branch_from_any_point() {
    use bataille::client::controller::ReplayInput;
    let script = std::fs::read_to_string(root().join("scripts/civitate_full_game.txt")).unwrap();
    let mut fresh = shipped(
        "a_la_charge/civitate_1053.ron",
        crate::common::script_seed(&script),
    );
    let mut states = vec![fresh.state_json()];
    let lines: Vec<&str> = script
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(40)
        .collect();
    for line in &lines {
        let cmd = fresh.parse_line(line).unwrap().unwrap();
        fresh.submit(&cmd).unwrap();
        states.push(fresh.state_json());
    }
    let mut game = shipped(
        "a_la_charge/civitate_1053.ron",
        crate::common::script_seed(&script),
    );
    for line in &lines {
        let cmd = game.parse_line(line).unwrap().unwrap();
        game.submit(&cmd).unwrap();
    }
    let mut app = app_with(game);
    let send = |app: &mut App, input: PlayerInput| {
        app.world_mut().write_message(input);
        app.update();
        let ui = app.world().resource::<Interaction>();
        (ui.status.clone(), ui.unheeded)
    };
    let state = |app: &App| app.world().resource::<Session>().game.state_json();
    let (status, _) = send(&mut app, PlayerInput::Replay(ReplayInput::Open));
    assert!(status.starts_with("replay: point 40 of 40"), "{status}");
    // Back step by step, then jumps: each point is the game as it stood.
    for n in (35..40).rev() {
        send(&mut app, PlayerInput::Replay(ReplayInput::Step(-1)));
        assert!(state(&app) == states[n], "point {n}");
    }
    for n in [0, 12, 13, 7, 40, 3] {
        send(&mut app, PlayerInput::Replay(ReplayInput::Seek(n)));
        assert!(state(&app) == states[n], "point {n}");
    }
    // The marks: each is where the turn, phase or side's phase is new.
    let marks = app
        .world()
        .resource::<Session>()
        .replay
        .as_ref()
        .unwrap()
        .marks
        .clone();
    assert!(marks.len() >= 3 && marks[0].after == 0, "{marks:?}");
    for m in &marks {
        send(&mut app, PlayerInput::Replay(ReplayInput::Seek(m.after)));
        let session = app.world().resource::<Session>();
        let t = session.game.turn().clone();
        let side = session.game.scenario.file.sides[t.active.0 as usize]
            .name
            .clone();
        assert_eq!(
            (t.turn, t.phase.label, side),
            (m.turn, m.phase.as_str(), m.side.clone())
        );
        assert!(state(&app) == states[m.after]);
    }
    send(&mut app, PlayerInput::Replay(ReplayInput::Seek(3)));
    // Nothing is played in a replay.
    let (status, unheeded) = send(&mut app, PlayerInput::Submit(Command::EndPhase));
    assert!(unheeded && status.contains("replay"), "{status}");
    assert!(state(&app) == states[3]);
    // Leaving restores the game as it was.
    send(&mut app, PlayerInput::Replay(ReplayInput::Leave));
    assert!(app.world().resource::<Session>().replay.is_none());
    assert!(state(&app) == states[40]);
    // A branch from point 12: the later commands are gone, the game goes on from there
    // and its save says where it left.
    send(&mut app, PlayerInput::Replay(ReplayInput::Open));
    send(&mut app, PlayerInput::Replay(ReplayInput::Seek(12)));
    let (status, _) = send(&mut app, PlayerInput::Replay(ReplayInput::PlayFromHere));
    assert!(status.contains("branch from command 12"), "{status}");
    let (status, unheeded) = send(&mut app, PlayerInput::Submit(Command::EndPhase));
    assert!(!unheeded, "{status}");
    let session = app.world().resource::<Session>();
    assert_eq!(session.game.commands().len(), 13);
    let save = session.game.save();
    assert_eq!(save.commands[..12], fresh.save().commands[..12]);
    assert_eq!(save.branch.as_ref().map(|b| b.at), Some(12));
    assert!(session.save_path().to_string_lossy().contains("branch-12"));
    // Stepping without a replay open is refused.
    let (status, unheeded) = send(&mut app, PlayerInput::Replay(ReplayInput::Step(-1)));
    assert!(unheeded && status.contains("no replay is open"), "{status}");
}

/// A replay keeps what its watcher could not see hidden (issue 18): Daras's set-up,
/// where the Byzantines place Pharas' Herules in ambush. Replayed for the Persians, the
/// ambush stays hidden at every point, though the points shown are the Byzantines'
/// own; replayed for the Byzantines it is shown; no hand-over screen comes up while
/// stepping through it.
#[test]
fn replay_view_keeps_hidden_units_from_the_side_watching() {
    use bataille::client::controller::{ReplayInput, units_seen_at, viewer};
    use bataille::engine::units::Hidden;
    let script = root().join("scripts/window/daras_ambush_setup.txt");
    let (scenario, seed, options) = run_line_of(&std::fs::read_to_string(&script).unwrap());
    let mut app = app_with(Game::start(&scenario, seed, &options).unwrap());
    for input in bataille::client::controller::parse_input_script(&script).unwrap() {
        app.world_mut().write_message(input);
        app.update();
    }
    // The ambush: a hidden Byzantine unit on the map.
    let (ambush, hex) = {
        let game = &app.world().resource::<Session>().game;
        let units = game.world.resource::<Units>();
        units
            .ids()
            .find_map(|id| {
                let e = units.entity(id);
                let hex = units.placement(id).hex()?;
                game.world.get::<Hidden>(e).map(|_| (id, hex))
            })
            .expect("Pharas' Herules in ambush")
    };
    let (byzantines, persians) = (SideId(0), SideId(1));
    assert_eq!(
        app.world()
            .resource::<Session>()
            .game
            .world
            .resource::<Units>()
            .side(ambush),
        byzantines
    );
    let len = app.world().resource::<Session>().game.commands().len();
    // Watched by the Persians: hidden at every point, whoever's point it is.
    app.world_mut()
        .resource_mut::<Session>()
        .enter_replay(persians);
    for n in (0..=len).rev() {
        app.world_mut()
            .write_message(PlayerInput::Replay(ReplayInput::Seek(n)));
        app.update();
        let session = app.world().resource::<Session>();
        assert_eq!(viewer(session), persians, "point {n}");
        assert!(
            !units_seen_at(session, hex, persians).contains(&ambush),
            "point {n}"
        );
        assert!(
            app.world().resource::<Interaction>().hand_over.is_none(),
            "point {n}"
        );
    }
    app.world_mut()
        .write_message(PlayerInput::Replay(ReplayInput::Leave));
    app.update();
    // Watched by the Byzantines: their ambush is theirs to see.
    app.world_mut()
        .resource_mut::<Session>()
        .enter_replay(byzantines);
    app.update();
    let session = app.world().resource::<Session>();
    assert_eq!(viewer(session), byzantines);
    assert!(units_seen_at(session, hex, byzantines).contains(&ambush));
}

/// The line-of-sight tool through the window's input path (issue 18): on, a click picks
/// the first hex and the next the other end; the line shown is the ruleset's own
/// (`Ruleset::sight`); nothing is selected or played; a third click starts anew; off, it
/// is gone.
#[test]
fn sight_tool_picks_two_hexes_and_shows_the_rules_line() {
    let game = shipped("charles_the_bold/grandson_1476.ron", 1);
    let mut app = app_with(game);
    let send = |app: &mut App, input: PlayerInput| {
        app.world_mut().write_message(input);
        app.update();
    };
    let ui = |app: &App| {
        let i = app.world().resource::<Interaction>();
        (i.sight_tool, i.sight_from, i.sight.clone(), i.selected)
    };
    send(&mut app, PlayerInput::ToggleSight);
    assert!(ui(&app).0);
    send(&mut app, PlayerInput::Click(h("0510")));
    assert_eq!(ui(&app).1, Some(h("0510")));
    send(&mut app, PlayerInput::Click(h("1005")));
    let (_, _, line, selected) = ui(&app);
    let session = app.world().resource::<Session>();
    let expected = session
        .game
        .ruleset
        .sight(&session.game.world, h("0510"), h("1005"))
        .unwrap();
    assert_eq!(line.as_ref(), Some(&expected));
    assert_eq!(selected, None);
    assert!(session.game.commands().is_empty(), "nothing played");
    // A third click starts a new line.
    send(&mut app, PlayerInput::Click(h("0803")));
    assert_eq!((ui(&app).1, ui(&app).2), (Some(h("0803")), None));
    send(&mut app, PlayerInput::ToggleSight);
    assert_eq!((ui(&app).0, ui(&app).1, ui(&app).2), (false, None, None));
}

/// The threat map through the window's input path (issue 18): toggled on, it is the
/// game's own (`Game::threat_map`, the ruleset's `threats`) for the side to act; it is
/// made again once a command changes the game; toggled off, it is gone.
#[test]
fn threat_map_toggles_and_follows_the_game() {
    let mut app = app_with(civitate(34));
    let send = |app: &mut App, input: PlayerInput| {
        app.world_mut().write_message(input);
        app.update();
    };
    let shown = |app: &App| app.world().resource::<Interaction>().threats.clone();
    assert_eq!(shown(&app), None);
    send(&mut app, PlayerInput::ToggleThreats);
    let expected = app.world().resource::<Session>().game.threat_map();
    assert!(!expected.hexes.is_empty());
    assert_eq!(shown(&app), Some(expected.clone()));
    // The Normans move a unit towards the Papal army: the map is made again.
    let advance = app
        .world()
        .resource::<Session>()
        .game
        .parse_line("move inf_norm_1 0807 0707 0606 0605")
        .unwrap()
        .unwrap();
    send(&mut app, PlayerInput::Submit(advance));
    let after = app.world().resource::<Session>().game.threat_map();
    assert_ne!(after, expected);
    assert_eq!(shown(&app), Some(after));
    send(&mut app, PlayerInput::ToggleThreats);
    assert_eq!(shown(&app), None);
}

#[test]
fn a_click_on_any_stand_of_a_charge_and_melee_unit_selects_it_and_its_body_is_drawn() {
    // Maldon: the Vikings' first crews stand in column on 0804, 0803 and 0802 facing S
    // (spec B.2 §2-3); a click on the rear stand (not its placement) selects the unit.
    let game = shipped("charge_and_melee/maldon_991.ron", 1);
    let mut app = app_with(game);
    let rear = h("0802");
    app.world_mut()
        .write_message(PlayerInput::Hover(Some(rear)));
    app.world_mut().write_message(PlayerInput::Click(rear));
    app.update();
    let session = app.world().resource::<Session>();
    let world = &session.game.world;
    let units = world.resource::<Units>();
    let selected = app
        .world()
        .resource::<Interaction>()
        .selected
        .expect("a click on a rear stand selects its unit");
    let e = units.entity(selected);
    assert_eq!(
        world.get::<Placement>(e),
        Some(&Placement::OnMap(h("0804")))
    );
    let body = session
        .game
        .ruleset
        .unit_body(world, e)
        .expect("a unit of stands is drawn as a body");
    assert_eq!(body.stands, vec![h("0804"), h("0803"), h("0802")]);
    assert_eq!(body.hexside, Some(3), "the column faces S");
    assert_eq!(body.formation, "Col");
    // Rulesets of one-hex counters draw no body.
    let civ = civitate(7);
    let e = civ
        .world
        .resource::<Units>()
        .entity(bataille::engine::units::UnitId(0));
    assert!(civ.ruleset.unit_body(&civ.world, e).is_none());
}

// ---- the computer opponent in the window (issue 20) ----

#[test]
fn client_the_computer_plays_its_side_on_a_thread_and_a_click_waits_for_it() {
    let mut app = app_with(civitate(3));
    app.world_mut()
        .resource_mut::<bataille::client::computer::ComputerTurn>()
        .pace = std::time::Duration::ZERO;
    // The Normans move first: the computer takes them.
    app.world_mut().write_message(PlayerInput::SetPlayer(
        "normans".into(),
        bataille::ai::Player::Computer(bataille::ai::Level::Easy),
    ));
    app.update();
    app.update();
    assert!(
        app.world()
            .resource::<bataille::client::computer::ComputerTurn>()
            .thinking
            .is_some(),
        "it thinks on its own thread"
    );
    // A person's click on its turn is not heeded.
    app.world_mut().write_message(PlayerInput::Submit(
        bataille::engine::command::Command::EndPhase,
    ));
    app.update();
    let ui = app.world().resource::<Interaction>();
    assert!(
        ui.unheeded && ui.status.contains("wait for its move"),
        "{}",
        ui.status
    );
    // It plays until the Papal side must act, one command at a time.
    let start = std::time::Instant::now();
    while app.world().resource::<Session>().game.side_to_act() == SideId(0) {
        assert!(
            start.elapsed().as_secs() < 120,
            "the computer never finished its phase"
        );
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let session = app.world().resource::<Session>();
    assert!(!session.game.commands().is_empty());
    let moves = &app
        .world()
        .resource::<bataille::client::computer::ComputerTurn>()
        .moves;
    assert_eq!(moves.len(), session.game.commands().len(), "{moves:?}");
    assert!(moves[0].starts_with("Norman Army (easy): `"), "{moves:?}");
    // Against the computer the map is the person's: no hand-over, drawn for the Papal side.
    assert_eq!(viewer(session), SideId(1));
}

#[test]
fn client_player_input_line_parses_and_names_a_bad_level() {
    assert_eq!(
        parse_input_line("player normans hard").unwrap(),
        Some(PlayerInput::SetPlayer(
            "normans".into(),
            bataille::ai::Player::Computer(bataille::ai::Level::Hard)
        ))
    );
    let e = parse_input_line("player normans expert").unwrap_err();
    assert_eq!(e.column, 16);
    assert!(e.message.contains("not a player"), "{}", e.message);
}

//! Any bytes as a script: every line goes through the command parser and the window's
//! input parser, then the script is played on Civitate; refusals are answers, panics
//! are bugs.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use bataille::client::controller::parse_input_line;
use bataille::rulesets::{load_scenario_text, parse_line};
use bataille::engine::game::Game;
use libfuzzer_sys::fuzz_target;

static CIVITATE: &str = include_str!("../../scenarios/a_la_charge/civitate_1053.ron");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        if let Ok(Some(command)) = parse_line(line) {
            // What a command prints parses back to the same command.
            assert_eq!(parse_line(&command.to_string()).ok().flatten(), Some(command));
        }
        let _ = parse_input_line(line);
    }
    static LOADED: OnceLock<(
        std::sync::Arc<bataille::engine::scenario::LoadedScenario>,
        std::sync::Arc<dyn bataille::engine::ruleset::Ruleset>,
    )> = OnceLock::new();
    let (scenario, ruleset) = LOADED.get_or_init(|| {
        load_scenario_text(Path::new("scenarios/a_la_charge/civitate_1053.ron"), CIVITATE.into())
            .expect("Civitate loads")
    });
    let board = bataille::engine::game::build_ruleset_board(&**ruleset, scenario);
    let mut game = Game::new(scenario.clone(), ruleset.clone(), board, 7, &[]);
    for line in text.lines().take(200) {
        let _ = game.submit_line(line);
    }
});

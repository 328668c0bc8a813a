//! Any bytes as a scenario file: the loader and the ruleset's checks must answer with
//! a scenario or a located error, never a panic; a scenario that loads must start.
#![no_main]

use std::path::Path;

use bataille::engine::game::Game;
use bataille::rulesets::load_scenario_text;
use bataille::engine::scenario::decode_text;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz/scenario.ron");
    let Ok(text) = decode_text("fuzz/scenario.ron", data.to_vec()) else {
        return;
    };
    if let Ok((scenario, ruleset)) = load_scenario_text(path, text) {
        let board = bataille::engine::game::build_ruleset_board(&*ruleset, &scenario);
        let _ = Game::new(scenario, ruleset, board, 1, &[]);
    }
});

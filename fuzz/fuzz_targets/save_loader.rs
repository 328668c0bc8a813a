//! Any bytes as a save file: a located error or a replayed game, never a panic. The
//! seed corpus holds real saves of the shipped scenarios (run from the repository
//! root, so that their scenario paths resolve).
#![no_main]

use std::path::Path;

use bataille::engine::game::Game;
use bataille::engine::scenario::decode_text;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = decode_text("fuzz/save.ron", data.to_vec()) else {
        return;
    };
    let _ = Game::load_save_text(Path::new("fuzz/save.ron"), text);
});

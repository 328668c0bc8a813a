//! The art catalogue (`assets/art.ron`): every terrain and troop of every shipped
//! scenario has art whose file is there, and a catalogue naming a missing image is an
//! error that names it, with its file, line and column.

use bataille::client::art::{ArtCatalogue, HEXSIDE_ART};
use bataille::client::catalog::catalog;
use bataille::engine::game::Game;
use bataille::engine::units::Units;

use crate::common::*;

#[test]
fn every_terrain_and_troop_of_every_scenario_has_art_on_disk() {
    let art = ArtCatalogue::load(&root().join("assets")).expect("assets/art.ron loads");
    // Every scenario the menu lists (`client::catalog`).
    let scenarios: Vec<_> = catalog(&root().join("scenarios"))
        .into_iter()
        .map(|e| e.path)
        .collect();
    assert_eq!(scenarios.len(), 12, "the twelve shipped scenarios");
    for path in scenarios {
        let game = Game::start(&path, 1, &[]).expect("a shipped scenario loads");
        let ruleset = game.ruleset.id();
        for terrain in game.ruleset.terrain_names() {
            let t = art
                .terrain(&terrain)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(root().join("assets").join(&t.tile).is_file(), "{}", t.tile);
        }
        let units = game.world.resource::<Units>();
        let mut drawn = 0;
        for id in units.ids() {
            let face = game.ruleset.counter_face(&game.world, units.entity(id));
            let symbol = art
                .troop_symbol(ruleset, &face.troop)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let symbol = symbol
                .unwrap_or_else(|| panic!("{}: unit {id:?} has no troop type", path.display()));
            assert!(root().join("assets").join(symbol).is_file(), "{symbol}");
            drawn += 1;
        }
        assert!(drawn > 0, "{}: units drawn", path.display());
    }
    for h in HEXSIDE_ART {
        assert!(art.hexsides.contains_key(h), "{h}");
    }
}

#[test]
fn a_catalogue_naming_a_missing_image_is_an_error_naming_it() {
    let dir = scratch("art_missing");
    let good = std::fs::read_to_string(root().join("assets/art.ron")).unwrap();
    // Every file but the marsh tile is where the catalogue says.
    copy_assets(&dir, "tiles/marsh.png", None);
    let err = ArtCatalogue::load(&dir).unwrap_err().to_string();
    let (line, column) = place(&good, "\"marsh\": (tile:", "\"tiles/marsh.png\"");
    assert!(err.contains("tiles/marsh.png"), "{err}");
    assert!(err.contains("terrain `marsh`"), "{err}");
    assert!(err.contains(&format!("art.ron:{line}:{column}")), "{err}");
}

#[test]
fn a_malformed_catalogue_is_an_error_with_its_place() {
    let dir = scratch("art_malformed");
    std::fs::write(
        dir.join("art.ron"),
        "(\n    source: \"x\",\n    terrain: {\n        \"clear\": (tile: 3),\n    },\n)\n",
    )
    .unwrap();
    let err = ArtCatalogue::load(&dir).unwrap_err().to_string();
    assert!(err.contains("art.ron:4:"), "{err}");
}

#[test]
fn a_troop_without_art_is_refused_by_name() {
    let art = ArtCatalogue::load(&root().join("assets")).unwrap();
    let err = art.troop_symbol("a_la_charge", "Catapult").unwrap_err();
    assert!(
        err.contains("`Catapult`") && err.contains("a_la_charge"),
        "{err}"
    );
    let err = art.terrain("glacier").unwrap_err();
    assert!(err.contains("`glacier`"), "{err}");
}

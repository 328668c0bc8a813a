//! Helpers shared by Charge & mêlée's integration tests (`cm_command`, `cm_shooting`,
//! `cm_personal`, `cm_chapter7` and later ones): starting a fixture through the plugin,
//! naming units, reading their stands, formation and morale, submitting lines and
//! reading refusals, the log and the decision's choices.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use crate::common::root;
use bataille::engine::game::Game;
use bataille::engine::hex::HexCoord;
use bataille::engine::ruleset::RulesetEntry;
use bataille::engine::units::UnitId;
use bataille::rulesets::charge_and_melee::{CmFormation, CmMorale, CmStands, ENTRY};
use bataille::rulesets::common::unit_by_key;

pub const REGISTRY: &[RulesetEntry] = &[ENTRY];

/// A fixture of `tests/fixtures/charge_and_melee/`.
pub fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/charge_and_melee").join(name)
}

pub fn start(path: &Path, seed: u64) -> Game {
    Game::start_with(REGISTRY, path, seed, &[]).unwrap_or_else(|e| panic!("{e}"))
}

pub fn h(s: &str) -> HexCoord {
    HexCoord::parse(s).expect("a hex")
}

pub fn hs(list: &[&str]) -> Vec<HexCoord> {
    list.iter().map(|s| h(s)).collect()
}

pub fn id(game: &Game, key: &str) -> UnitId {
    unit_by_key(&game.world, key).unwrap_or_else(|| panic!("unit {key}"))
}

pub fn entity(game: &Game, key: &str) -> bevy::prelude::Entity {
    game.world
        .resource::<bataille::engine::units::Units>()
        .entity(id(game, key))
}

pub fn stands_of(game: &Game, key: &str) -> Vec<HexCoord> {
    game.world
        .get::<CmStands>(entity(game, key))
        .expect("stands")
        .0
        .clone()
}

pub fn formation_of(game: &Game, key: &str) -> CmFormation {
    *game
        .world
        .get::<CmFormation>(entity(game, key))
        .expect("formation")
}

pub fn morale_of(game: &Game, key: &str) -> CmMorale {
    *game
        .world
        .get::<CmMorale>(entity(game, key))
        .expect("morale")
}

/// Submits a line that must be accepted, and checks the invariants after it.
pub fn line(game: &mut Game, text: &str) {
    game.submit_line(text)
        .unwrap_or_else(|(_, e)| panic!("`{text}` refused: {e}"));
    assert_eq!(
        game.ruleset.invariant_violations(&game.world),
        Vec::<String>::new()
    );
}

/// Submits a line that must be refused, and gives the refusal.
pub fn refusal(game: &mut Game, text: &str) -> String {
    match game.submit_line(text) {
        Ok(_) => panic!("`{text}` was accepted"),
        Err((_, e)) => e,
    }
}

pub fn phase(game: &Game) -> &'static str {
    game.turn().phase.label
}

pub fn active(game: &Game) -> String {
    game.scenario.file.sides[game.turn().active.0 as usize]
        .id
        .clone()
}

pub fn log_lines(game: &Game) -> Vec<String> {
    game.log().lines().collect()
}

/// The commands the decision waited for offers.
pub fn choices(game: &Game) -> Vec<String> {
    game.ruleset
        .decision(&game.world)
        .map(|d| d.choices.iter().map(|c| c.command.to_string()).collect())
        .unwrap_or_default()
}

/// Ends the phases before the Charge Phase's declarations: the Move Phase it is in and
/// the missile declarations (spec B.2 §11), which wait for a side that may shoot.
pub fn to_charges(game: &mut Game) {
    while phase(game) != "charge declarations" {
        line(game, "end");
    }
}

/// Answers a plain `stand` for the unit the decision asks, when it offers it beside
/// `stand hold` (7.14: a standing unit may hold its fire): the answer of old, which
/// shoots at the chargers.
pub fn stand_if_asked(game: &mut Game) {
    let asked = choices(game);
    if let Some(stand) = asked.iter().find(|c| c.ends_with(" stand"))
        && asked.iter().any(|c| c.ends_with(" stand hold"))
    {
        line(game, &stand.clone());
    }
}

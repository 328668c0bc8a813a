//! The rulesets this build enforces, each in its own folder with the same shape, the
//! shared rules layer they build on (`common`), and the registry that binds a
//! scenario's `ruleset:` to one of them.

pub mod a_la_charge;
pub mod champs_de_bataille;
pub mod charge_and_melee;
pub mod charles_the_bold;
pub mod common;
pub mod common_aids;
pub mod morne_plaine;

use std::path::Path;
use std::sync::Arc;

use crate::engine::command::{Command, ParseError, VerbSpec, parse_line_with};
use crate::engine::error::LocatedError;
use crate::engine::game::{Game, ScenarioLoad};
use crate::engine::ruleset::{Ruleset, RulesetEntry};

/// Every ruleset this build enforces: adding one is a folder and a line here.
pub const REGISTRY: &[RulesetEntry] = &[
    RulesetEntry {
        id: a_la_charge::ID,
        verbs: &[],
        load: |path| Ok(Arc::new(a_la_charge::AlaChargePlugin::load(path)?) as Arc<dyn Ruleset>),
    },
    RulesetEntry {
        id: morne_plaine::ID,
        verbs: &[],
        load: |path| Ok(Arc::new(morne_plaine::MornePlainePlugin::load(path)?) as Arc<dyn Ruleset>),
    },
    RulesetEntry {
        id: charles_the_bold::ID,
        verbs: charles_the_bold::commands::VERBS,
        load: |path| {
            Ok(Arc::new(charles_the_bold::CharlesTheBoldPlugin::load(path)?) as Arc<dyn Ruleset>)
        },
    },
    RulesetEntry {
        id: champs_de_bataille::ID,
        verbs: champs_de_bataille::commands::VERBS,
        load: |path| {
            Ok(
                Arc::new(champs_de_bataille::ChampsDeBataillePlugin::load(path)?)
                    as Arc<dyn Ruleset>,
            )
        },
    },
    charge_and_melee::ENTRY,
];

/// Parses one script line with the one script grammar: the engine's verbs and those of
/// every ruleset this build enforces (a game parses with its own ruleset's alone).
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let grammar: Vec<VerbSpec> = REGISTRY
        .iter()
        .flat_map(|r| r.verbs.iter().copied())
        .collect();
    parse_line_with(line, &grammar)
}

/// Reads a scenario and the ruleset it names (one of this build's), and checks both.
pub fn load_scenario(path: &Path) -> Result<ScenarioLoad, LocatedError> {
    crate::engine::game::load_scenario(REGISTRY, path)
}

/// `load_scenario` on text already read.
pub fn load_scenario_text(path: &Path, text: String) -> Result<ScenarioLoad, LocatedError> {
    crate::engine::game::load_scenario_text(REGISTRY, path, text)
}

/// Games of this build's rulesets.
impl Game {
    /// Loads a scenario and starts a game of it.
    pub fn start(path: &Path, seed: u64, options: &[String]) -> Result<Self, LocatedError> {
        Self::start_with(REGISTRY, path, seed, options)
    }

    /// Loads a save: reads it, checks the scenario has not changed, replays it.
    pub fn load_save(path: &Path) -> Result<Self, LocatedError> {
        Self::load_save_with(REGISTRY, path)
    }

    /// `load_save` on text already read; `path` names it in errors.
    pub fn load_save_text(path: &Path, text: String) -> Result<Self, LocatedError> {
        Self::load_save_text_with(REGISTRY, path, text)
    }
}

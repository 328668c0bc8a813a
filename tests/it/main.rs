//! The one integration test binary (Bevy is linked once): modules by subject.

mod common;

mod alc_rules;
mod cdb_common;
mod cdb_rules;
mod cdb_sections;
mod cdb_speed;
mod client;
mod cm_chapter7;
mod cm_command;
mod cm_common;
mod cm_data;
mod cm_eligibility;
mod cm_game;
mod cm_personal;
mod cm_responses;
mod cm_rules;
mod cm_scenario;
mod cm_shooting;
mod ctb_evasion;
mod ctb_examples;
mod ctb_field_defences;
mod ctb_fire;
mod ctb_game;
mod ctb_game_sections;
mod ctb_generals;
mod ctb_geometry;
mod ctb_group;
mod ctb_melee;
mod ctb_moves;
mod ctb_opportunity;
mod ctb_retreats;
mod ctb_rules;
mod ctb_scenario;
mod engine;
mod golden;
#[cfg(feature = "gui")]
mod gui;
mod malformed;
mod mp_game;
mod mp_rules;
mod mp_view;
mod phases;
mod replay;
mod sight;
mod toy_ruleset;
pub(crate) mod trust;

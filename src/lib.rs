//! bataille: a rules-enforcing hex wargame. `engine` is the shared, render-free core;
//! `rulesets` holds one module per published ruleset; `autoplay` plays random games;
//! `ai` is the computer opponent.

pub mod ai;
pub mod autoplay;
pub mod client;
pub mod engine;
pub mod rulesets;

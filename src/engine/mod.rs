//! The engine every ruleset shares; nothing here renders.

pub mod board;
pub mod cached;
pub mod command;
pub mod decision;
pub mod dice;
pub mod error;
pub mod evaluation;
pub mod event;
pub mod fast_hash;
pub mod game;
pub mod hex;
pub mod phase;
pub mod plugin;
pub mod replay;
pub mod ruleset;
pub mod scenario;
pub mod snapshot;
pub mod threat;
pub mod units;
pub mod view;
pub mod zoc;

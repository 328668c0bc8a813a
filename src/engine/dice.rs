//! The one seeded dice resource: every die of a game is rolled here, in command order,
//! and logged with its purpose and rule, so that the same seed and commands give the
//! same game.

use bevy::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// One die rolled, with why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DieRoll {
    pub value: u8,
    pub purpose: String,
    pub rule: &'static str,
}

#[derive(Resource, Clone, Debug)]
pub struct Dice {
    rng: ChaCha8Rng,
    pub seed: u64,
    rolled: u64,
}

impl Dice {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            seed,
            rolled: 0,
        }
    }

    /// Rolls 1d6. The caller logs the roll as an event with its purpose and rule.
    pub fn d6(&mut self) -> u8 {
        self.rolled += 1;
        self.rng.random_range(1..=6)
    }

    /// How many dice this game has rolled so far.
    pub fn rolled(&self) -> u64 {
        self.rolled
    }

    /// A fingerprint of the generator's position, to prove a refused command left it alone.
    pub fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }
}

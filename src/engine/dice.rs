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

/// The faces of the average die, 1 to 6 on a plain die.
pub const AVERAGE_DIE: [u8; 6] = [2, 3, 3, 4, 4, 5];

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
        self.die(6)
    }

    /// Rolls one die of `sides` faces, 1 to `sides` (a d4, a d9, ...; at least 1 face).
    pub fn die(&mut self, sides: u8) -> u8 {
        self.rolled += 1;
        self.rng.random_range(1..=sides.max(1))
    }

    /// Rolls the average die, whose faces read 2, 3, 3, 4, 4, 5: its value, and the
    /// plain d6 face that gave it (for the log).
    pub fn avd(&mut self) -> (u8, u8) {
        let face = self.die(6);
        (AVERAGE_DIE[face as usize - 1], face)
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

//! The dice of Charge & mêlée: A grade troops roll the average die (AvD: 2,3,3,4,4,5),
//! others a D6 (C&M 7.11, 7.15). The engine rolls the plain face; the ruleset reads it
//! through its own table of faces, so a player can type in the printed die.

use super::data::{DieKind, Grade, Tables};

/// The value a plain d6 `face` gives on a die of `kind`; a face outside 1..=6 is read as
/// the nearest face (bad input never panics).
pub fn die_value(kind: DieKind, face: u8, average_die: &[u8]) -> u8 {
    let face = face.clamp(1, 6);
    match kind {
        DieKind::D6 => face,
        DieKind::Average => average_die
            .get(usize::from(face) - 1)
            .copied()
            .unwrap_or(face),
    }
}

/// The value a unit of `grade` reads on `face` (7.11, 7.15).
pub fn grade_value(tables: &Tables, grade: Grade, face: u8) -> u8 {
    die_value(tables.die_of(grade), face, &tables.charts.average_die)
}

/// How many of the six faces of a die of `kind` give each value, lowest value first:
/// the exact odds the window shows are counts over 6.
pub fn faces_by_value(kind: DieKind, average_die: &[u8]) -> Vec<(u8, u8)> {
    let mut counts: Vec<(u8, u8)> = Vec::new();
    for face in 1..=6 {
        let v = die_value(kind, face, average_die);
        match counts.iter_mut().find(|(value, _)| *value == v) {
            Some((_, n)) => *n += 1,
            None => counts.push((v, 1)),
        }
    }
    counts.sort_unstable();
    counts
}

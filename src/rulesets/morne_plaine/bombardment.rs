//! Morne Plaine's bombardment (MP bombardment): the fire strength of the artillery that
//! fire together at one target, read on the bombardment table with a d6. The table and
//! the strength's formula are the designer's (`bombardment.ron`), the page gives neither.

/// One artillery unit firing: its bombardment value and its distance to the target.
#[derive(Clone, Copy, Debug)]
pub struct Firer {
    pub bv: u8,
    pub distance: u32,
}

/// The fire strength (designer's, `bombardment.ron`): each firer's BV less 1 for each
/// hex beyond the first (never below 0), added together, less the target hex's combat
/// value for the target's kind (so marsh and dune add 1), less 1 on sodden ground.
pub fn fire_strength(firers: &[Firer], target_defence: i8, sodden: bool) -> i32 {
    let fire: i32 = firers
        .iter()
        .map(|f| (f.bv as i32 - (f.distance as i32 - 1)).max(0))
        .sum();
    fire - target_defence as i32 - i32::from(sodden)
}

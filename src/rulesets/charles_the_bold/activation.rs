//! Charles the Bold's alternating activations as pure functions (CtB 1.4): who declares
//! a group next, and the initiative roll between the two declared groups (2D6 plus the
//! group's general's bonus, ties rolled again: R-1.4a). The phases that hold the
//! secret choice, the hand-over and the rolls in the game come with the plugin.

/// Who chooses a group for the next activation (CtB 1.4, R-1.4c).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declaring {
    /// Both sides choose in secret, then the initiative is rolled.
    Both,
    /// One side only has groups left to move: it chooses openly, with no roll
    /// (R-1.4c: a roll against nothing means nothing).
    Only(usize),
    /// Every group has moved: the round ends (CtB 1.4).
    RoundOver,
}

/// Who declares, from each side's number of groups not yet moved this round.
pub fn declaring(unmoved: [usize; 2]) -> Declaring {
    match unmoved {
        [0, 0] => Declaring::RoundOver,
        [_, 0] => Declaring::Only(0),
        [0, _] => Declaring::Only(1),
        _ => Declaring::Both,
    }
}

/// One initiative throw of both sides: the dice of each and its total with the bonus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Throw {
    pub dice: [Vec<u8>; 2],
    pub totals: [i32; 2],
}

/// The initiative (CtB 1.4): each side throws `dice` D6 (the `first` side first) and
/// adds its group's bonus; the higher total moves its group; a tie is thrown again by
/// both (R-1.4a). `d6` gives each die in turn (the game's seeded dice). Returns the
/// winner and every throw made, for the log.
pub fn initiative(
    dice: u8,
    bonus: [i8; 2],
    first: usize,
    mut d6: impl FnMut() -> u8,
) -> (usize, Vec<Throw>) {
    let mut throws = Vec::new();
    loop {
        let mut thrown: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for side in [first, 1 - first] {
            thrown[side] = (0..dice).map(|_| d6()).collect();
        }
        let totals =
            [0, 1].map(|s| thrown[s].iter().map(|d| *d as i32).sum::<i32>() + bonus[s] as i32);
        throws.push(Throw {
            dice: thrown,
            totals,
        });
        match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => return (0, throws),
            std::cmp::Ordering::Less => return (1, throws),
            std::cmp::Ordering::Equal => continue,
        }
    }
}

/// The exact chance that side 0 wins the initiative with `dice` D6 a side and these
/// bonuses, ties being thrown again (for the window's preview of the roll).
pub fn initiative_chance(dice: u8, bonus: [i8; 2]) -> f64 {
    // The distribution of the sum of `dice` D6.
    let mut sums = vec![1.0f64];
    for _ in 0..dice {
        let mut next = vec![0.0; sums.len() + 6];
        for (s, p) in sums.iter().enumerate() {
            for face in 1..=6 {
                next[s + face] += p / 6.0;
            }
        }
        sums = next;
    }
    let (mut win, mut tie) = (0.0, 0.0);
    for (a, pa) in sums.iter().enumerate() {
        for (b, pb) in sums.iter().enumerate() {
            let (ta, tb) = (a as i32 + bonus[0] as i32, b as i32 + bonus[1] as i32);
            if ta > tb {
                win += pa * pb;
            } else if ta == tb {
                tie += pa * pb;
            }
        }
    }
    win / (1.0 - tie)
}

//! Dice pools of Charles the Bold: the dice a stand throws (its SP and the factors added
//! or taken away, CtB 1.3, 6.0, 10.1), the hits they score (each 6, and each pair of 5s,
//! CtB 6.0, 6.4) and the exact distribution of hits for any number of dice.

/// One contribution to a pool: `dice` added (or taken away when negative), what it is
/// and the section that gives it, for previews and the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub dice: i32,
    pub what: String,
    pub rule: &'static str,
}

/// The dice a stand throws, term by term (CtB 1.3: "equals the number of D6 that it
/// throws when fighting close combat and firing", then modified by factors).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pool {
    pub terms: Vec<Term>,
}

impl Pool {
    /// A pool of a stand's current SP (CtB 1.3).
    pub fn of_sp(sp: u8) -> Self {
        Self {
            terms: vec![Term {
                dice: i32::from(sp),
                what: format!("{sp} SP"),
                rule: "CtB 1.3",
            }],
        }
    }

    /// Adds a term; a zero term is left out, as it changes nothing the player must see.
    pub fn add(&mut self, dice: i32, what: impl Into<String>, rule: &'static str) {
        if dice != 0 {
            self.terms.push(Term {
                dice,
                what: what.into(),
                rule,
            });
        }
    }

    /// The dice thrown: the sum of the terms, never below 0 (a pool of 0 throws nothing;
    /// melee's floor of 1D6, CtB 10.2, is the caller's because fire has none).
    pub fn dice(&self) -> u32 {
        self.terms.iter().map(|t| t.dice).sum::<i32>().max(0) as u32
    }
}

/// The hits of thrown faces: one for each 6 and one for each pair of 5s, an odd 5 scoring
/// nothing (CtB 6.0 "one hit point for each 6 or double 5 thrown", 6.4; R-hits).
pub fn count_hits(faces: &[u8]) -> u32 {
    let sixes = faces.iter().filter(|f| **f == 6).count() as u32;
    let fives = faces.iter().filter(|f| **f == 5).count() as u32;
    sixes + fives / 2
}

/// The number of the 6^n equally likely throws of `n` dice that score each number of hits
/// (index = hits, 0 to n), counted exactly. `None` beyond 49 dice, where 6^n leaves u128.
pub fn hit_counts(n: u32) -> Option<Vec<u128>> {
    if n > 49 {
        return None;
    }
    let size = n as usize + 1;
    // by_odd[p][h]: throws so far with h hits and p (0 or 1) unpaired 5s.
    let mut by_odd = [vec![0u128; size], vec![0u128; size]];
    by_odd[0][0] = 1;
    for _ in 0..n {
        let mut next = [vec![0u128; size], vec![0u128; size]];
        for p in 0..2 {
            for h in 0..size {
                let c = by_odd[p][h];
                if c == 0 {
                    continue;
                }
                // Faces 1-4 score nothing.
                next[p][h] += 4 * c;
                // A 6 is a hit.
                next[p][h + 1] += c;
                // A 5 pairs with an unpaired 5 for a hit, or waits for one.
                if p == 1 {
                    next[0][h + 1] += c;
                } else {
                    next[1][h] += c;
                }
            }
        }
        by_odd = next;
    }
    Some((0..size).map(|h| by_odd[0][h] + by_odd[1][h]).collect())
}

/// The probability of each number of hits (index = hits, 0 to n) when `n` dice are
/// thrown (CtB 6.4), by dynamic programming over the dice: the same recurrence as
/// [`hit_counts`] over probabilities, so any pool size works. The entries sum to 1.
pub fn hit_distribution(n: u32) -> Vec<f64> {
    let size = n as usize + 1;
    let mut by_odd = [vec![0f64; size], vec![0f64; size]];
    by_odd[0][0] = 1.0;
    let (blank, one) = (4.0 / 6.0, 1.0 / 6.0);
    for _ in 0..n {
        let mut next = [vec![0f64; size], vec![0f64; size]];
        for p in 0..2 {
            for h in 0..size {
                let q = by_odd[p][h];
                if q == 0.0 {
                    continue;
                }
                next[p][h] += blank * q;
                next[p][h + 1] += one * q;
                if p == 1 {
                    next[0][h + 1] += one * q;
                } else {
                    next[1][h] += one * q;
                }
            }
        }
        by_odd = next;
    }
    (0..size).map(|h| by_odd[0][h] + by_odd[1][h]).collect()
}

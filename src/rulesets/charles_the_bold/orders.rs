//! Charles the Bold's Order Test (CtB 8.1, and 3.4 read as it: ): 1D6, +1 with a
//! leader in the hex or attached to the group, −1 out of command range, against the
//! class's threshold; a group tests once at its worst class (designer's).

use super::data::{Class, GroupClass, OrderTest};

/// Whether a modified die passes: `die` (1-6), a leader with the stand or its group,
/// the stand out of command range (CtB 2.0, 8.1).
pub fn passes(test: &OrderTest, class: Class, die: u8, leader: bool, out_of_range: bool) -> bool {
    let modified = die as i32
        + if leader { test.general as i32 } else { 0 }
        + if out_of_range {
            test.out_of_range as i32
        } else {
            0
        };
    modified >= test.threshold(class) as i32
}

/// The chance, in sixths, that a stand passes (for previews and autoplay).
pub fn passing_faces(test: &OrderTest, class: Class, leader: bool, out_of_range: bool) -> u8 {
    (1..=6u8)
        .filter(|d| passes(test, class, *d, leader, out_of_range))
        .count() as u8
}

/// The class a group of stands tests at (CtB 3.4, R-3.4: the worst of its stands);
/// `None` for no stand.
pub fn group_class(test: &OrderTest, classes: impl IntoIterator<Item = Class>) -> Option<Class> {
    match test.group_class {
        GroupClass::Worst => classes.into_iter().max(),
    }
}

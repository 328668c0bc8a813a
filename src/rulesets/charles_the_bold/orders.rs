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

// ---- the Order Test in the game ----

use bevy::prelude::World;

use crate::engine::units::UnitId;

/// Whether a stand has a general with it for an Order Test (CtB 3.4, 8.1): one of its
/// group in its hex, or attached to it.
pub fn general_with(world: &World, id: UnitId) -> bool {
    let Some(hex) = super::hex_of(world, id) else {
        return false;
    };
    let group = super::group_of(world, id);
    super::generals_at(world, hex)
        .into_iter()
        .any(|g| super::group_of(world, g) == group)
}

/// Whether a stand is beyond its group's general's command range, or its general is
/// gone (CtB 2.0, R-3.4).
pub fn out_of_range(world: &World, id: UnitId) -> bool {
    let (Some(group), Some(hex)) = (super::group_of(world, id), super::hex_of(world, id)) else {
        return true;
    };
    let general = super::state(world).groups[group].general;
    match (
        super::hex_of(world, general),
        super::general(world, general),
    ) {
        (Some(at), Some(g)) => at.distance(hex) > g.range,
        _ => true,
    }
}

/// One Order Test of a stand in the game (CtB 3.4, 8.1): the die rolled and logged,
/// with its threshold and modifiers; whether it passed.
pub fn order_test_in_game(world: &mut World, id: UnitId, rule: &'static str) -> bool {
    order_test_of(world, &[id], rule)
}

/// One Order Test for a group's move (CtB 3.3, 3.8, 8.1; ): at the worst class of
/// its stands, +1 with the group's general in the hex of, or attached to, one of them,
/// −1 if any is out of command range; the die rolled and logged once.
pub fn group_order_test_in_game(world: &mut World, ids: &[UnitId], rule: &'static str) -> bool {
    order_test_of(world, ids, rule)
}

/// The Order Test of one stand or of a group's stands (a stand is a group of one).
fn order_test_of(world: &mut World, ids: &[UnitId], rule: &'static str) -> bool {
    let tables = super::tables(world);
    let test = &tables.orders.order_test;
    let classes: Vec<Class> = ids
        .iter()
        .filter_map(|id| super::stand(world, *id).map(|s| s.entry.class))
        .collect();
    let Some(class) = group_class(test, classes) else {
        return true;
    };
    let leader = ids.iter().any(|id| general_with(world, *id));
    let far = ids.iter().any(|id| out_of_range(world, *id));
    let names: Vec<String> = ids.iter().map(|id| super::plain_name(world, *id)).collect();
    let whose = if ids.len() == 1 { "the" } else { "the group's" };
    let face = super::roll(world, rule, |_| {
        let mut why = format!(
            "{whose} Order Test of {} (class {class:?}: {}+",
            names.join(", "),
            test.threshold(class)
        );
        if leader {
            why.push_str(", +1 general");
        }
        if far {
            why.push_str(", -1 out of command range");
        }
        why.push(')');
        why
    });
    passes(test, class, face, leader, far)
}

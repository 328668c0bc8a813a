//! Charles the Bold's Order Test (CtB 8.1, and 3.4 read as it: ): 1D6, +1 with a
//! leader in the hex or attached to the group, −1 out of command range, against the
//! class's threshold; a group tests once at its worst class (designer's). And the
//! rally that uses it (CtB 8.0, 8.1): a stand's, or a group recovery's.

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
    let leader = general_with(world, id);
    order_test_of(world, &[id], rule, leader)
}

/// One Order Test for a group's move (CtB 3.3, 3.8, 8.1; ): at the worst class of
/// its stands, +1 with the group's general in the hex of, or attached to, one of them,
/// −1 if any is out of command range; the die rolled and logged once.
pub fn group_order_test_in_game(world: &mut World, ids: &[UnitId], rule: &'static str) -> bool {
    let leader = ids.iter().any(|id| general_with(world, *id));
    order_test_of(world, ids, rule, leader)
}

/// Whether the group's general is attached to one of these stands (CtB 2.1, 8.1: "a
/// leader is attached to a group that is attempting a group recovery").
pub fn general_attached_to_one(world: &World, ids: &[UnitId]) -> bool {
    ids.iter().any(|id| {
        super::attached_general(world, *id)
            .is_some_and(|g| super::group_of(world, g) == super::group_of(world, *id))
    })
}

/// The Order Test of one stand or of a group's stands (a stand is a group of one),
/// `leader` giving its +1.
fn order_test_of(world: &mut World, ids: &[UnitId], rule: &'static str, leader: bool) -> bool {
    let tables = super::tables(world);
    let test = &tables.orders.order_test;
    let classes: Vec<Class> = ids
        .iter()
        .filter_map(|id| super::stand(world, *id).map(|s| s.entry.class))
        .collect();
    let Some(class) = group_class(test, classes) else {
        return true;
    };
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

// ---- rallying (CtB 8.0, 8.1) ----

use crate::engine::command::Refusal;
use crate::engine::event::EventKind;

/// Refuses any action of a stand that failed its rally this activation (CtB 8.0: "it
/// rallies but cannot move or fire or attempt to go onto opportunity", R-8.0).
pub fn not_after_failed_rally(
    world: &World,
    t: &super::CtbTurn,
    id: UnitId,
) -> Result<(), Refusal> {
    if t.failed_rally {
        return Err(Refusal::new(
            "CtB 8.0",
            format!(
                "{} failed its rally: it may not move, fire or go on opportunity this activation (R-8.0)",
                super::plain_name(world, id)
            ),
        ));
    }
    Ok(())
}

/// Checks a rally (CtB 8.0, 8.1): each stand of the group moving now, disordered, in no
/// melee, not yet acted this activation, named once; several stands are a group
/// recovery and stand side by side in one body, as a group moves.
pub fn check_rally(world: &World, ids: &[UnitId]) -> Result<(), Refusal> {
    for (i, &id) in ids.iter().enumerate() {
        let name = super::Named(world, id);
        if ids[..i].contains(&id) {
            return Err(Refusal::new("CtB 8.1", format!("{name} is named twice")));
        }
        if !super::status(world, id).disordered {
            return Err(Refusal::new("CtB 8.0", format!("{name} is not disordered")));
        }
        if super::in_melee(world, id) {
            return Err(Refusal::new(
                "CtB 8.1",
                format!("{name} is in melee: a stand in close combat cannot rally"),
            ));
        }
        let t = super::acts(world, id);
        if t.moves > 0 || t.fired || t.stopped {
            return Err(Refusal::new(
                "CtB 8.0",
                format!("{name} has acted this activation: a rally comes first"),
            ));
        }
    }
    let hexes: Vec<_> = ids
        .iter()
        .filter_map(|id| super::hex_of(world, *id))
        .collect();
    if !super::group::one_body(&hexes) {
        return Err(Refusal::new(
            "CtB 8.1",
            "a group recovery is made by stands side by side in one body (R-8.1); rally the others apart",
        ));
    }
    Ok(())
}

/// Carries out a checked rally (CtB 8.0, 8.1, R-8.0): one Order Test, a group
/// recovery's at the worst class of its stands, +1 with the group's general attached
/// to one of them, −1 if any is out of command range; passed or failed, every
/// stand loses its disorder, but after a failure none may move, fire or go on
/// opportunity this activation.
pub fn execute_rally(world: &mut World, ids: &[UnitId]) {
    let passed = match ids {
        [id] => order_test_in_game(world, *id, "CtB 8.1"),
        _ => {
            let leader = general_attached_to_one(world, ids);
            order_test_of(world, ids, "CtB 8.1", leader)
        }
    };
    for &id in ids {
        super::status_mut(world, id).disordered = false;
        if !passed {
            let mut t = super::acts_mut(world, id);
            t.failed_rally = true;
            t.stopped = true;
            t.fired = true;
        }
        super::log(world, EventKind::Special, "CtB 8.0", |w| {
            if passed {
                format!("{} rallies", super::plain_name(w, id))
            } else {
                format!(
                    "{} rallies but may not move, fire or go on opportunity this activation (R-8.0)",
                    super::plain_name(w, id)
                )
            }
        });
    }
}

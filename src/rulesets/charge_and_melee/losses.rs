//! What a unit loses and where its stands stand (spec B.2 §2, §5; C&M 7.15, 7.23):
//! DPs and the shaken marker, stands removed as casualties, and the stands' hexes set or
//! shifted with the leader on them. Moved out of `mod.rs` to keep it short; every
//! rule file reaches them through `super::*`.

use bevy::prelude::*;

use crate::engine::event::EventKind;
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, UnitId};

use super::data::FormationId;
use super::*;

/// A unit's morale after `n` more DPs (spec B.2 §5): at the chart's shaken DPs the
/// marker replaces them; each DP taken while shaken is a casualty.
pub(crate) fn with_dps(mut m: CmMorale, n: u8, shaken_at: u8) -> CmMorale {
    for _ in 0..n {
        if m.shaken {
            m.casualties += 1;
        } else {
            m.dps += 1;
            if m.dps >= shaken_at {
                m.dps = 0;
                m.shaken = true;
            }
        }
    }
    m
}

/// Adds DPs to a unit (spec B.2 §5): at 5 it becomes shaken (the marker replaces the
/// DPs); each DP taken while shaken is a casualty.
pub fn add_dps(world: &mut World, id: UnitId, n: u8, rule: &'static str) {
    if n == 0 {
        return;
    }
    let shaken_at = world.resource::<CmTables>().0.charts.evade.shaken_dps;
    let mut morale = component_mut::<CmMorale>(world, id);
    let before = *morale;
    // The count the charge preview reads too; the casualties are counted when their
    // stands are removed (`remove_stands`), below.
    let mut m = with_dps(before, n, shaken_at);
    let casualties = m.casualties - before.casualties;
    m.casualties = before.casualties;
    *morale = m;
    log(world, EventKind::CombatResult, rule, |w| {
        format!(
            "{} takes {n} DP{}{}",
            name(w, id),
            if n == 1 { "" } else { "s" },
            if m.shaken && !before.shaken {
                ": shaken"
            } else {
                ""
            }
        )
    });
    if casualties > 0 {
        remove_stands(world, id, casualties, "spec B.2 §5");
    }
}

/// Makes a unit shaken (7.11, results chart).
pub fn make_shaken(world: &mut World, id: UnitId, rule: &'static str) {
    let mut m = component_mut::<CmMorale>(world, id);
    if m.shaken {
        return;
    }
    m.shaken = true;
    m.dps = 0;
    log(world, EventKind::CombatResult, rule, |w| {
        format!("{} is shaken", name(w, id))
    });
}

/// Removes `n` stands as casualties (7.15, 7.23): the rearmost whose loss leaves the
/// rest in the unit's formation, the leader's command stand last; when none does, the
/// unit loses its formation (designer's). A unit with no stand left is eliminated, and
/// its leader with it.
pub fn remove_stands(world: &mut World, id: UnitId, n: u8, rule: &'static str) {
    for _ in 0..n {
        let list = stands(world, id).to_vec();
        if list.is_empty() {
            break;
        }
        let leader_hex = component::<CmUnit>(world, id)
            .leader
            .and_then(|l| placement(world, l).hex());
        let f = formation(world, id);
        let shape = tables(world).formation(f.id).shape;
        let without = |i: usize| {
            let mut rest = list.clone();
            rest.remove(i);
            rest
        };
        let keeps = |i: usize, shape| {
            let rest = without(i);
            rest.is_empty() || formation::check_shape(&rest, Some(f.facing), shape).is_ok()
        };
        let order: Vec<usize> = (0..list.len())
            .rev()
            .filter(|&i| Some(list[i]) != leader_hex)
            .chain((0..list.len()).filter(|&i| Some(list[i]) == leader_hex))
            .collect();
        let contiguous = data::Shape::Contiguous;
        let (i, formed) = match order.iter().find(|&&i| keeps(i, shape)) {
            Some(&i) => (i, true),
            None => (
                order
                    .iter()
                    .copied()
                    .find(|&i| keeps(i, contiguous))
                    .unwrap_or(order[0]),
                false,
            ),
        };
        let gone = list[i];
        component_mut::<CmMorale>(world, id).casualties += 1;
        log(world, EventKind::StepLost, rule, |w| {
            format!("{} loses the stand in {gone}", name(w, id))
        });
        if !formed && f.formed() {
            component_mut::<CmFormation>(world, id).id = FormationId::Unformed;
            log(world, EventKind::CombatResult, rule, |w| {
                format!("{} loses its formation", name(w, id))
            });
        }
        set_stands(world, id, without(i));
    }
}

/// Puts a unit's stands on `list`: its placement is the first; an empty list
/// eliminates it and the leader with it (designer's: 3.22 is missing).
pub fn set_stands(world: &mut World, id: UnitId, list: Vec<HexCoord>) {
    // Not a `resource_scope`: in Bevy 0.19 it takes the resource out of the world and
    // puts it back, which costs more than copying the few old hexes.
    let old = stands(world, id).to_vec();
    let mut index = world.resource_mut::<StandIndex>();
    index.unmark(&old, id);
    index.mark(&list, id);
    match list.first() {
        Some(&first) => {
            set_placement(world, id, Placement::OnMap(first));
            component_mut::<CmStands>(world, id).0 = list;
        }
        None => {
            let leader = component::<CmUnit>(world, id).leader;
            component_mut::<CmStands>(world, id).0.clear();
            set_placement(world, id, Placement::Eliminated);
            log(world, EventKind::Eliminated, "spec B.2 §2", |w| {
                format!("{} is destroyed", name(w, id))
            });
            if let Some(l) = leader.filter(|&l| placement(world, l).hex().is_some()) {
                victory::leader_dies(world, l, "spec B.2 §8");
            }
        }
    }
}

/// Moves a unit's stands to `list` (the same number, in the same order), its leader
/// with the stand he was on.
pub fn shift_stands(world: &mut World, id: UnitId, list: Vec<HexCoord>) {
    let leader_to = component::<CmUnit>(world, id).leader.and_then(|l| {
        let h = placement(world, l).hex()?;
        let i = stands(world, id).iter().position(|s| *s == h)?;
        list.get(i).map(|&to| (l, to))
    });
    if let Some((l, to)) = leader_to {
        set_placement(world, l, Placement::OnMap(to));
    }
    set_stands(world, id, list);
}

//! Filling a world from a C&M scenario (spec B.2 §2, §7): each unit of stands with its
//! troop type, grade, MV, formation, facing, DPs and every stand's hex; each leader with
//! his CPs and the unit his command stand is in; the special rules; the first turn's
//! initiative (the scenario's `first`, spec B.5) and its first phase.

use crate::engine::cached::CachedWorld;
use bevy::prelude::*;

use crate::engine::board::Board;
use crate::engine::event::EventKind;
use crate::engine::game::TurnState;
use crate::engine::hex::HexsideFacing;
use crate::engine::phase::enter_phase;
use crate::engine::scenario::LoadedScenario;
use crate::engine::units::{Leader, UnitId};

use super::data::Tables;
use super::scenario::CmScenario;
use super::*;

/// Adds C&M's components for a scenario to a world the engine has filled, and enters
/// the first turn's Move Phase.
pub fn populate(world: &mut World, tables: &Tables, scenario: &LoadedScenario) {
    let cm = scenario
        .rules
        .0
        .downcast_ref::<CmScenario>()
        .expect("read_scenario gave the C&M reading")
        .clone();
    let mut leader_of: Vec<(usize, UnitId)> = Vec::new();
    for l in &cm.leaders {
        let id = UnitId(l.index as u16);
        let e = entity(world, id);
        world.entity_mut(e).insert((
            CmLeader {
                cps: l.cps,
                with: UnitId(l.with as u16),
                commander: l.commander,
            },
            Leader {
                rating: i32::from(l.cps),
                commander: l.commander,
            },
        ));
        leader_of.push((l.with, id));
    }
    let mut stands_at_start = [0u32; 2];
    for u in &cm.units {
        let id = UnitId(u.index as u16);
        let troop = tables
            .troops
            .troops
            .iter()
            .position(|t| t.id == u.troop)
            .expect("the loader checked the troop type");
        let leader = leader_of
            .iter()
            .find(|(with, _)| *with == u.index)
            .map(|(_, l)| *l);
        let side = side_of(world, id);
        stands_at_start[side.0 as usize] += u.stands.len() as u32;
        let e = entity(world, id);
        world.entity_mut(e).insert((
            CmUnit {
                troop,
                grade: u.grade,
                mv: u.mv,
                comitatus: u.comitatus,
                leader,
            },
            CmStands(u.stands.clone()),
            CmFormation {
                id: u.formation,
                // Unformed units face nowhere (7.22): north is kept, read by no rule.
                facing: u.facing.unwrap_or(HexsideFacing(0)),
            },
            CmMorale {
                dps: u.dps,
                shaken: false,
                casualties: 0,
            },
            CmStatus::default(),
        ));
    }
    let mut index = StandIndex::new(world.res::<Board>());
    for id in troops(world) {
        index.mark(stands(world, id), id);
    }
    world.insert_resource(index);
    let first = turn(world).first;
    {
        let mut s = world.resource_mut::<CmState>();
        s.special = cm.fields.special_rules.clone();
        s.stands_at_start = stands_at_start;
        s.initiative = first;
    }
    log(world, EventKind::TurnStarted, "spec B.2 §13", |_| {
        "Turn 1".to_string()
    });
    log(world, EventKind::PhaseStarted, "spec B.5", |w| {
        format!(
            "{} has the initiative on the first turn (the scenario's `first`)",
            side_name(w, first)
        )
    });
    world.resource_mut::<TurnState>().active = first;
    enter_phase(world, CmPhase::Movement);
}

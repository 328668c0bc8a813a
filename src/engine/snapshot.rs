//! The state of a game copied into another world of the same scenario, instead of
//! replaying its commands there: each world lists the resources and components its
//! play changes (`KeptState`: the engine's, then its ruleset's), and `copy_state`
//! clones them across. Bevy cannot clone a world, and the computer opponent needs a
//! fresh copy of the game for every playout (`ai::search::Fork`).

use bevy::ecs::component::Mutable;
use bevy::prelude::*;

use super::units::Units;

/// How one kept type is copied from one world into the other.
type CopyFn = fn(&World, &mut World);

/// Every resource and component a game's play changes, and what else a copy must
/// do: what `copy_state` copies. The engine lists its own when it builds a world
/// (`game::init_world`), a ruleset its own when it registers (`Ruleset::register`).
/// What never changes after the set-up (the board, the tables, the systems) is
/// built the same in every world of the scenario and is not copied.
#[derive(Resource, Clone, Default)]
pub struct KeptState {
    copies: Vec<CopyFn>,
    after: Vec<CopyFn>,
}

impl KeptState {
    /// Copies the resource `R`, or removes it where the source has none.
    pub fn resource<R: Resource<Mutability = Mutable> + Clone>(&mut self) -> &mut Self {
        self.copies.push(copy_resource::<R>);
        self
    }

    /// Copies the component `C` of every entity that has it, and removes it from the
    /// entities that have it only in the destination.
    pub fn component<C: Component<Mutability = Mutable> + Clone>(&mut self) -> &mut Self {
        self.copies.push(copy_component::<C>);
        self
    }

    /// Runs `after` (source, destination) once every type is copied: for what a copy
    /// leaves out and must set right (whether a cache is current).
    pub fn then(&mut self, after: CopyFn) -> &mut Self {
        if !self.after.contains(&after) {
            self.after.push(after);
        }
        self
    }
}

/// A world's list of kept types, created when it has none.
pub fn keep(world: &mut World) -> Mut<'_, KeptState> {
    if !world.contains_resource::<KeptState>() {
        world.insert_resource(KeptState::default());
    }
    world.resource_mut::<KeptState>()
}

/// Copies the state of `from` into `to`, two worlds built from the same scenario,
/// ruleset and options (`Game::new`), so that `to` plays on as `from` would. Refused
/// when their units are not the same entities (a world built otherwise).
pub fn copy_state(from: &World, to: &mut World) -> Result<(), String> {
    let (Some(a), Some(b)) = (from.get_resource::<Units>(), to.get_resource::<Units>()) else {
        return Err("a world without units".into());
    };
    if a.len() != b.len() || a.ids().any(|id| a.entity(id) != b.entity(id)) {
        return Err("the worlds' units are not the same entities".into());
    }
    let Some(kept) = from.get_resource::<KeptState>() else {
        return Err("the world lists no kept state".into());
    };
    for copy in &kept.copies {
        copy(from, to);
    }
    for after in &kept.after {
        after(from, to);
    }
    Ok(())
}

fn copy_resource<R: Resource<Mutability = Mutable> + Clone>(from: &World, to: &mut World) {
    match from.get_resource::<R>() {
        Some(r) => {
            let r = r.clone();
            // Not seen as a change: a system that rebuilds a resource it finds
            // changed (the zones' map) would rebuild it from scratch, where the game
            // copied from goes on updating its own.
            match to.get_resource_mut::<R>() {
                Some(mut slot) => *slot.bypass_change_detection() = r,
                None => to.insert_resource(r),
            }
        }
        None => {
            to.remove_resource::<R>();
        }
    }
}

fn copy_component<C: Component<Mutability = Mutable> + Clone>(from: &World, to: &mut World) {
    let found: Vec<(Entity, C)> = match from.try_query::<(Entity, &C)>() {
        Some(mut q) => q.iter(from).map(|(e, c)| (e, c.clone())).collect(),
        None => Vec::new(),
    };
    if let Some(mut q) = to.try_query_filtered::<Entity, With<C>>() {
        let stale: Vec<Entity> = q
            .iter(to)
            .filter(|e| from.get_entity(*e).map_or(true, |x| !x.contains::<C>()))
            .collect();
        for e in stale {
            to.entity_mut(e).remove::<C>();
        }
    }
    for (e, c) in found {
        match to.get_mut::<C>(e) {
            // Written through change detection, unlike the resources: the zone system
            // re-zones every changed unit against the copied `ZocMap`, which is what
            // makes the zones right whether or not the source's were current.
            Some(mut slot) => *slot = c,
            None => {
                to.entity_mut(e).insert(c);
            }
        }
    }
}

//! Resource and component reads by a component id kept per thread and world: the rules'
//! hot accessors read the same few types (the unit index, the board, a ruleset's state
//! and flags) hundreds of times a command, and Bevy finds a type's id through a map on
//! every read.
//!
//! `World::resource::<R>()` looks `R`'s `TypeId` up in the world's component map, then
//! the resource's entity, then its column; the map lookup is about a third of the cost,
//! and all resource and component reads together were a fifth of Champs de Bataille's
//! autoplay (issue 19). A type named with `cached_id!` keeps, per thread, the last world
//! it was read in and its id there, so a read in the same world skips the map. A world's
//! ids are never reused and a `WorldId` is never given twice, so a kept id is `R`'s id.

use std::cell::Cell;

use bevy::ecs::component::{Component, ComponentId};
use bevy::ecs::world::WorldId;
use bevy::prelude::*;

/// The last world a type was read in, and its component id there.
pub type IdSlot = Cell<Option<(WorldId, ComponentId)>>;

/// A type whose component id is kept per thread (`cached_id!` implements it).
pub trait CachedId: Component {
    /// Runs `f` on this type's slot.
    fn with_slot<T>(f: impl FnOnce(&IdSlot) -> T) -> T;
}

/// Gives each type its own thread-local slot: `cached_id!(Units, Board);`.
#[macro_export]
macro_rules! cached_id {
    ($($t:ty),* $(,)?) => {
        $(
            impl $crate::engine::cached::CachedId for $t {
                #[inline]
                fn with_slot<T>(f: impl FnOnce(&$crate::engine::cached::IdSlot) -> T) -> T {
                    thread_local! {
                        static SLOT: $crate::engine::cached::IdSlot =
                            const { std::cell::Cell::new(None) };
                    }
                    SLOT.with(f)
                }
            }
        )*
    };
}

/// `C`'s component id in `world`, from the slot when it was last read in this world.
#[inline]
fn id_in<C: CachedId>(world: &World) -> Option<ComponentId> {
    let here = world.id();
    if let Some((w, id)) = C::with_slot(|s| s.get())
        && w == here
    {
        return Some(id);
    }
    let id = world.components().valid_component_id::<C>()?;
    C::with_slot(|s| s.set(Some((here, id))));
    Some(id)
}

/// `World::get_resource`, by the kept id.
#[inline]
pub fn get_resource<R: Resource + CachedId>(world: &World) -> Option<&R> {
    let ptr = world.get_resource_by_id(id_in::<R>(world)?)?;
    // SAFETY: the id is the one `world` registered for `R`'s type (`id_in`: looked up
    // by the type in a world with this id, and a world's ids are never reassigned), so
    // the pointer is to an `R`; `&World` allows reading it.
    Some(unsafe { ptr.deref::<R>() })
}

/// The kept-id reads as methods of the world: `world.res::<Units>()`.
pub trait CachedWorld {
    /// `World::resource`, by the kept id.
    fn res<R: Resource + CachedId>(&self) -> &R;
    /// `World::get` of a component, by the kept id.
    fn get_cached<C: CachedId>(&self, entity: Entity) -> Option<&C>;
}

impl CachedWorld for World {
    #[inline]
    #[track_caller]
    fn res<R: Resource + CachedId>(&self) -> &R {
        get_resource(self)
            .unwrap_or_else(|| panic!("resource {} missing", std::any::type_name::<R>()))
    }

    #[inline]
    fn get_cached<C: CachedId>(&self, entity: Entity) -> Option<&C> {
        let id = id_in::<C>(self)?;
        let ptr = self.get_entity(entity).ok()?.get_by_id(id).ok()?;
        // SAFETY: as in `get_resource`: the id is `C`'s in this world.
        Some(unsafe { ptr.deref::<C>() })
    }
}

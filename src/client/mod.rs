//! The desktop client. `layout`, `session` and `controller` hold the input path and the
//! game a window plays, without rendering, so headless tests drive them; the window
//! itself (map, counters, camera, panels, menu) is behind the `gui` feature.

pub mod catalog;
pub mod controller;
pub mod layout;
pub mod session;

#[cfg(feature = "gui")]
mod camera;
#[cfg(feature = "gui")]
mod map;
#[cfg(feature = "gui")]
mod panels;
#[cfg(feature = "gui")]
pub mod window;

#[cfg(feature = "gui")]
pub use window::{ClientOptions, run};

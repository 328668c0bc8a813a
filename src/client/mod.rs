//! The desktop client. `layout`, `session`, `controller` and `computer` hold the input
//! path, the game a window plays and the computer's turns, without rendering, so headless tests drive them; the window
//! itself (map, counters, camera, panels, menu) is behind the `gui` feature.

pub mod art;
pub mod catalog;
pub mod computer;
pub mod controller;
pub mod input_script;
pub mod layout;
pub mod session;
pub mod settings;

#[cfg(feature = "gui")]
mod aids_panel;
#[cfg(feature = "gui")]
mod art_assets;
#[cfg(feature = "gui")]
mod camera;
#[cfg(feature = "gui")]
mod counters;
#[cfg(feature = "gui")]
mod display;
#[cfg(feature = "gui")]
mod map;
#[cfg(feature = "gui")]
mod map_art;
#[cfg(feature = "gui")]
mod minimap;
#[cfg(feature = "gui")]
mod panels;
#[cfg(feature = "gui")]
pub mod window;

#[cfg(feature = "gui")]
pub use window::{ClientOptions, run};

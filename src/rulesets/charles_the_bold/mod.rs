//! Charles the Bold (CtB, issue 15), being built after `docs/charles_the_bold_design.md`:
//! its tables as data (`data`: stand types, terrain, factors, orders, army lists, Special
//! Units), the dice pools and their exact hit distribution (`pool`), the Morale Test
//! with its SP losses (`morale`), the geometry of stands facing a vertex (`geometry`:
//! front line, fire arc, artillery corridor, away hexes, line of sight), the Order Test
//! (`orders`), the melee's rank dice, verdict and pursuit (`verdict`), and what its
//! scenarios add to the schema, read and checked (`scenario`, `setup`), and who
//! declares a group next and the initiative roll (`activation`), the fire pool
//! (`fire`), the melee pools (`combat`), the cost of a step (`movement`) and the break
//! points (`victory`). It is not yet playable and not in the registry: no scenario can name it until its sequence of
//! play, movement, fire and melee are built.

pub mod activation;
mod checks;
pub mod combat;
pub mod data;
pub mod fire;
pub mod geometry;
pub mod morale;
pub mod movement;
pub mod orders;
pub mod pool;
pub mod scenario;
pub mod setup;
pub mod verdict;
pub mod victory;

/// The id scenarios will name in `ruleset:`.
pub const ID: &str = "charles_the_bold";

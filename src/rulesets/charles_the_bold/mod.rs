//! Charles the Bold (hex-and-miniatures rules for medieval battles, 1100-1530), being
//! built after `docs/charles_the_bold_design.md`: not yet a playable ruleset (it is not
//! in the registry). Here so far: the geometry of stands facing a vertex.

pub mod geometry;

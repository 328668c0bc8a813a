//! Champs de Bataille: one test (or more) per numbered rule section, and the worked
//! examples 1 to 6 and 8 of the text.

#[allow(unused_imports)]
use crate::cdb_common::*;

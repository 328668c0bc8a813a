//! The player aids every ruleset builds alike (issue 17): its sequence of play laid out
//! from its own phase enum (each side's player turn in turn, or phases both sides
//! play), the step a game is at, and tables made from the rows of its parsed data, with
//! numbers written as players read them.

use crate::engine::cached::CachedWorld;
use std::fmt::Display;

use bevy::prelude::World;

use crate::engine::game::TurnState;
use crate::engine::phase::RulesetPhase;
use crate::engine::units::SideId;
use crate::engine::view::{AidTable, SequenceStep};

/// A turn as a ruleset runs it: the phases of `before` once (a set-up, or phases both
/// sides play together), then the phases of `each` for the side that moves first, again
/// for the other side, then the phases of `after` once.
pub struct TurnLayout<P: 'static> {
    pub before: &'static [P],
    pub each: &'static [P],
    pub after: &'static [P],
}

impl<P: RulesetPhase> TurnLayout<P> {
    /// Every step, in order: a phase of `each` twice, once for the side that moves
    /// first and once for the other, each named as the scenario names it; `what` says
    /// what is done in a phase.
    pub fn sides_sequence(&self, world: &World, what: impl Fn(P) -> String) -> Vec<SequenceStep> {
        let [first, second] = sides_in_order(world);
        self.sequence([&first, &second], what)
    }

    /// Every step, in order: a phase of `each` twice, once per side (`sides`: the
    /// first's name, then the other's); `what` says what is done in a phase.
    fn sequence(&self, sides: [&str; 2], what: impl Fn(P) -> String) -> Vec<SequenceStep> {
        let mut steps: Vec<SequenceStep> = self.before.iter().map(|&p| step(p, what(p))).collect();
        for side in sides {
            steps.extend(
                self.each
                    .iter()
                    .map(|&p| step(p, join_detail(side, &what(p)))),
            );
        }
        steps.extend(self.after.iter().map(|&p| step(p, what(p))));
        steps
    }

    /// Every step of a layout whose phases both sides play (no player turns), in order.
    pub fn shared_sequence(&self, what: impl Fn(P) -> String) -> Vec<SequenceStep> {
        debug_assert!(
            self.each.is_empty(),
            "player turns are named after their sides: use `sequence`"
        );
        self.sequence(["", ""], what)
    }

    /// The step of `phase`, in the second side's player turn when `second`; `None` for
    /// a phase outside the layout (the end of the game).
    pub fn step_of(&self, phase: P, second: bool) -> Option<usize> {
        let (b, e) = (self.before.len(), self.each.len());
        if let Some(i) = self.before.iter().position(|&p| p == phase) {
            return Some(i);
        }
        if let Some(i) = self.each.iter().position(|&p| p == phase) {
            return Some(b + i + if second { e } else { 0 });
        }
        self.after
            .iter()
            .position(|&p| p == phase)
            .map(|i| b + 2 * e + i)
    }

    /// The step a game is at, its phase read where the ruleset keeps it and the player
    /// turn from `side` (whose player turn it is) against the side that moves first.
    pub fn current(&self, world: &World, side: SideId) -> Option<usize> {
        let second = side != world.res::<TurnState>().first;
        self.step_of(P::current(world)?, second)
    }
}

/// A step of the sequence: a phase as its ruleset shows it (label and rule), and what
/// is done in it.
pub fn step<P: RulesetPhase>(phase: P, detail: String) -> SequenceStep {
    let view = phase.view();
    SequenceStep {
        label: view.label.to_string(),
        rule: view.rule.to_string(),
        detail,
    }
}

fn join_detail(side: &str, what: &str) -> String {
    if what.is_empty() {
        side.to_string()
    } else {
        format!("{side}: {what}")
    }
}

/// The names of the side that moves first and of the other, from the scenario.
fn sides_in_order(world: &World) -> [String; 2] {
    let first = world.res::<TurnState>().first;
    [
        super::common::side_name(world, first),
        super::common::side_name(world, first.other()),
    ]
}

/// A table with its title, rule and headings, and one row for each item of `items`.
pub fn table_of<T>(
    title: &str,
    rule: &str,
    columns: &[&str],
    items: impl IntoIterator<Item = T>,
    row: impl Fn(T) -> Vec<String>,
) -> AidTable {
    AidTable {
        title: title.to_string(),
        rule: rule.to_string(),
        columns: columns.iter().map(|c| c.to_string()).collect(),
        rows: items.into_iter().map(row).collect(),
        notes: Vec::new(),
    }
}

/// A table of a die (or any number) down the side and its columns across: one row a
/// die, the first cell the die, from `first_die` up.
pub fn die_table<C: Display>(
    title: &str,
    rule: &str,
    columns: impl IntoIterator<Item = String>,
    first_die: i32,
    rows: &[Vec<C>],
) -> AidTable {
    let mut table = table_of(
        title,
        rule,
        &["die"],
        (first_die..).zip(rows),
        |(die, cells)| {
            std::iter::once(die.to_string())
                .chain(cells.iter().map(ToString::to_string))
                .collect()
        },
    );
    table.columns.extend(columns);
    table
}

/// A table of named figures, one a row: a factor and its value.
pub fn factor_table(title: &str, rule: &str, factors: Vec<(&str, String)>) -> AidTable {
    table_of(
        title,
        rule,
        &["factor", "value"],
        factors,
        |(name, value)| vec![name.to_string(), value],
    )
}

/// A modifier as players write it: "+1", "-2", "0".
pub fn signed(n: impl Into<i64>) -> String {
    let n = n.into();
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// A value, or "—" where there is none (an impassable terrain's cost, a unit without a
/// range).
pub fn or_dash<T: Display>(value: Option<T>) -> String {
    value.map_or_else(|| "—".to_string(), |v| v.to_string())
}

/// "yes" for a property a row has, nothing for one it has not, so that the yeses stand
/// out.
pub fn yes(flag: bool) -> String {
    if flag { "yes".into() } else { String::new() }
}

/// The note every table of a designer's figures carries: its file's `source:` note.
pub fn source_note(source: &str) -> String {
    format!("source: {source}")
}

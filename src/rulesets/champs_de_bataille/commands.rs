//! The verbs Champs de Bataille adds to the script grammar (group marches with facing,
//! action-point dice, keeping units in control, dismounting, the set-up's edge, plan
//! and ambushes, the target of a spontaneous advance): their type, how they print, and
//! how a script line is read into them.

use std::fmt;

use crate::engine::board::MapEdge;
use crate::engine::command::{
    Command, ParseError, RulesetCommand, UnitRef, VerbSpec, Words, unit_at,
};
use crate::engine::hex::HexCoord;

/// One step of a unit's march (CdB 9): into an adjacent hex, or a turn by vertices
/// (clockwise positive; 3 is an about-turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarchStep {
    Hex(HexCoord),
    Turn(i8),
}

impl fmt::Display for MarchStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MarchStep::Hex(h) => write!(f, "{h}"),
            MarchStep::Turn(1) => write!(f, "cw"),
            MarchStep::Turn(-1) => write!(f, "ccw"),
            MarchStep::Turn(3) => write!(f, "about"),
            MarchStep::Turn(n) if *n > 0 => {
                write!(f, "cw")?;
                for _ in 1..*n {
                    write!(f, " cw")?;
                }
                Ok(())
            }
            MarchStep::Turn(n) => {
                write!(f, "ccw")?;
                for _ in 1..-*n {
                    write!(f, " ccw")?;
                }
                Ok(())
            }
        }
    }
}

/// A command of Champs de Bataille's own.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CdbCommand {
    /// The attacker's choice of map edge before the die decides (CdB 14.3.2).
    ChooseEdge { edge: MapEdge },
    /// The corps' placement written in secret, from left to right as the player sees
    /// the battlefield from his own edge (CdB 14.3.3).
    Plan { corps: Vec<String> },
    /// Sets a unit up in ambush, to be placed in secret (CdB 14.3.3).
    Ambush { unit: UnitRef },
    /// The enemy unit an out-of-control unit's spontaneous advance heads for, when the
    /// rules leave the choice to its player (CdB 9.5, example 5).
    Towards { target: UnitRef },
    /// Move a unit or a group (CdB 5, 9.4): each unit with its own steps, taken one
    /// movement point at a time, all units together.
    March {
        moves: Vec<(UnitRef, Vec<MarchStep>)>,
    },
    /// Give the action-point dice of the regular generals to their corps (CdB 4.1):
    /// (corps id, die value).
    Assign { dice: Vec<(String, u8)> },
    /// Keep a unit or a group in control (CdB 4.2, 9.5, 12.3).
    Keep { units: Vec<UnitRef> },
    /// A unit able to fight mounted or on foot takes its other counter (CdB 2.7):
    /// `dismount` or `remount`.
    Dismount { unit: UnitRef, remount: bool },
}

impl CdbCommand {
    /// The command carrying it.
    pub fn command(self) -> Command {
        Command::Ruleset(RulesetCommand::new(self))
    }

    /// The CdB command a command is, if it is one.
    pub fn of(command: &Command) -> Option<&CdbCommand> {
        match command {
            Command::Ruleset(r) => r.get::<CdbCommand>(),
            _ => None,
        }
    }
}

impl fmt::Display for CdbCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CdbCommand::ChooseEdge { edge } => write!(f, "edge {}", edge.name()),
            CdbCommand::Plan { corps } => write!(f, "plan {}", corps.join(" ")),
            CdbCommand::Ambush { unit } => write!(f, "ambush {unit}"),
            CdbCommand::Towards { target } => write!(f, "towards {target}"),
            CdbCommand::March { moves } => {
                write!(f, "march")?;
                for (i, (unit, steps)) in moves.iter().enumerate() {
                    if i > 0 {
                        write!(f, " /")?;
                    }
                    write!(f, " {unit}")?;
                    for s in steps {
                        write!(f, " {s}")?;
                    }
                }
                Ok(())
            }
            CdbCommand::Assign { dice } => {
                write!(f, "assign")?;
                for (corps, die) in dice {
                    write!(f, " {corps} {die}")?;
                }
                Ok(())
            }
            CdbCommand::Keep { units } => {
                write!(f, "keep")?;
                for u in units {
                    write!(f, " {u}")?;
                }
                Ok(())
            }
            CdbCommand::Dismount { unit, remount } => {
                write!(
                    f,
                    "{} {unit}",
                    if *remount { "remount" } else { "dismount" }
                )
            }
        }
    }
}

/// The verbs of Champs de Bataille, in the order error messages list them.
pub const VERBS: &[VerbSpec] = &[
    VerbSpec {
        verbs: &["march"],
        parse: parse_march,
    },
    VerbSpec {
        verbs: &["edge"],
        parse: parse_edge,
    },
    VerbSpec {
        verbs: &["plan"],
        parse: parse_plan,
    },
    VerbSpec {
        verbs: &["ambush"],
        parse: parse_ambush,
    },
    VerbSpec {
        verbs: &["towards"],
        parse: parse_towards,
    },
    VerbSpec {
        verbs: &["assign"],
        parse: parse_assign,
    },
    VerbSpec {
        verbs: &["keep"],
        parse: parse_keep,
    },
    VerbSpec {
        verbs: &["dismount", "remount"],
        parse: parse_dismount,
    },
];

fn parse_edge(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "a map edge: edge West")?;
    w.at_most(1, "one map edge")?;
    let (c, e) = w.rest[0];
    let edge = MapEdge::parse(e).ok_or_else(|| ParseError {
        column: c,
        message: format!("`{e}` is not a map edge: West, East, North or South"),
    })?;
    Ok(CdbCommand::ChooseEdge { edge }.command())
}

fn parse_plan(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "the corps from left to right: plan comes syagrius")?;
    let mut corps = Vec::new();
    for &(c, s) in w.rest {
        if !s
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(ParseError {
                column: c,
                message: format!("`{s}` is not a corps id"),
            });
        }
        corps.push(s.to_string());
    }
    Ok(CdbCommand::Plan { corps }.command())
}

fn parse_ambush(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "a unit: ambush pharas")?;
    w.at_most(1, "one unit")?;
    let unit = unit_at(w.rest[0].0, w.rest[0].1)?;
    Ok(CdbCommand::Ambush { unit }.command())
}

fn parse_towards(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "an enemy unit: towards 1012")?;
    w.at_most(1, "one enemy unit")?;
    let target = unit_at(w.rest[0].0, w.rest[0].1)?;
    Ok(CdbCommand::Towards { target }.command())
}

fn parse_march(w: &Words) -> Result<Command, ParseError> {
    w.need(
        1,
        "a unit and its steps: march 0504 0604 cw 0705 / 0505 0605",
    )?;
    let mut moves = Vec::new();
    for part in w.rest.split(|(_, s)| *s == "/") {
        let Some(&(c, u)) = part.first() else {
            return Err(ParseError {
                column: w.end_column,
                message: "`march` has an empty part between `/`".into(),
            });
        };
        let unit = unit_at(c, u)?;
        let mut steps = Vec::new();
        for &(c, s) in &part[1..] {
            steps.push(match s.to_ascii_lowercase().as_str() {
                "cw" => MarchStep::Turn(1),
                "ccw" => MarchStep::Turn(-1),
                "about" => MarchStep::Turn(3),
                _ => MarchStep::Hex(HexCoord::parse(s).ok_or_else(|| ParseError {
                    column: c,
                    message: format!("`{s}` is not a step: a hex label (CCRR), cw, ccw or about"),
                })?),
            });
        }
        moves.push((unit, steps));
    }
    Ok(CdbCommand::March { moves }.command())
}

fn parse_assign(w: &Words) -> Result<Command, ParseError> {
    w.need(2, "a corps and a die: assign syagrius 5 ecdicius 3")?;
    if !w.rest.len().is_multiple_of(2) {
        return Err(ParseError {
            column: w.end_column,
            message: "`assign` takes pairs of a corps id and a die value".into(),
        });
    }
    let mut dice = Vec::new();
    for pair in w.rest.chunks(2) {
        let (c, v) = pair[1];
        let die = v
            .parse::<u8>()
            .ok()
            .filter(|d| (1..=6).contains(d))
            .ok_or_else(|| ParseError {
                column: c,
                message: format!("`{v}` is not a die value from 1 to 6"),
            })?;
        dice.push((pair[0].1.to_string(), die));
    }
    Ok(CdbCommand::Assign { dice }.command())
}

fn parse_keep(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "at least one unit: keep 0504 0505")?;
    let units = w
        .rest
        .iter()
        .map(|(c, s)| unit_at(*c, s))
        .collect::<Result<_, _>>()?;
    Ok(CdbCommand::Keep { units }.command())
}

fn parse_dismount(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "a unit: dismount 0504")?;
    w.at_most(1, "one unit")?;
    let unit = unit_at(w.rest[0].0, w.rest[0].1)?;
    Ok(CdbCommand::Dismount {
        unit,
        remount: w.verb.eq_ignore_ascii_case("remount"),
    }
    .command())
}

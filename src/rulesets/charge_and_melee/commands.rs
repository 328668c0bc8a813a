//! The verbs Charge & mêlée adds to the script grammar (spec B.6 §6): a formation
//! change or turn (`form`), a shot declared for the missile exchanges (`shoot UNIT ->
//! TARGET`, spec B.2 §11), a charge declaration (`charge UNIT -> TARGET`), a charged
//! unit's answer (`respond UNIT evade|evade shoot|countercharge|stand|stand hold|about`), a move
//! after a charge or mêlée (`after UNIT halt|follow|fallback|retire|pursue`), Command
//! Points spent on a unit (`spend LEADER UNIT N`) or to inspire (`inspire LEADER`), a
//! leader's answer to a personal combat (`seek LEADER yes|no`), a charger halted before
//! a new target (`carry UNIT on|halt`, 7.8). `move` and `end` are the engine's.

use std::fmt;

use crate::engine::command::{
    Command, ParseError, RulesetCommand, UnitRef, VerbSpec, Words, hex_at, unit_at,
};
use crate::engine::hex::{HexCoord, HexsideFacing};

use super::data::FormationId;
use super::responses::Response;
use super::results::AfterCharge;

/// A command of C&M's own.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CmCommand {
    /// Re-forms a unit in its Move Phase (spec B.2 §2): a formation, the side it faces,
    /// and where its stands stand (none given: where they are).
    Form {
        unit: UnitRef,
        formation: FormationId,
        facing: HexsideFacing,
        stands: Vec<HexCoord>,
    },
    /// Declares a shot for this turn's missile exchanges (spec B.2 §11).
    Shoot { unit: UnitRef, target: UnitRef },
    /// Declares a charge (7.2).
    Charge { unit: UnitRef, target: UnitRef },
    /// A charged unit's answer (7.10).
    Respond { unit: UnitRef, response: Response },
    /// A move after a charge or mêlée (7.16, 7.30, 7.31).
    After { unit: UnitRef, choice: AfterCharge },
    /// CPs a leader spends on a unit (spec B.2 §5-§7).
    Spend {
        leader: UnitRef,
        unit: UnitRef,
        cps: u8,
    },
    /// A leader spends 3 CPs to inspire (7.11, 7.15).
    Inspire { leader: UnitRef },
    /// A charger halted before a new target charges on, or halts (7.8).
    Carry { unit: UnitRef, on: bool },
    /// A leader seeks out the enemy leader, or not (7.33).
    Seek { leader: UnitRef, seek: bool },
}

impl CmCommand {
    /// The command carrying it.
    pub fn command(self) -> Command {
        Command::Ruleset(RulesetCommand::new(self))
    }

    /// The C&M command a command is, if it is one.
    pub fn of(command: &Command) -> Option<&CmCommand> {
        match command {
            Command::Ruleset(r) => r.get::<CmCommand>(),
            _ => None,
        }
    }
}

/// The word a response is typed as.
pub fn response_word(r: Response) -> &'static str {
    match r {
        Response::Evade => "evade",
        Response::EvadeShoot => "evade shoot",
        Response::CounterCharge => "countercharge",
        Response::Stand => "stand",
        Response::StandHold => "stand hold",
        Response::AboutFace => "about",
    }
}

/// The word a move after a charge is typed as.
pub fn after_word(a: AfterCharge) -> &'static str {
    match a {
        AfterCharge::Halt => "halt",
        AfterCharge::FollowUp => "follow",
        AfterCharge::FallBack => "fallback",
        AfterCharge::Retire => "retire",
        AfterCharge::Break => "break",
        AfterCharge::Pursue => "pursue",
        AfterCharge::Captured => "captured",
    }
}

impl fmt::Display for CmCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CmCommand::Form {
                unit,
                formation,
                facing,
                stands,
            } => {
                write!(f, "form {unit} {formation:?} {}", facing.name())?;
                for s in stands {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            CmCommand::Shoot { unit, target } => write!(f, "shoot {unit} -> {target}"),
            CmCommand::Charge { unit, target } => write!(f, "charge {unit} -> {target}"),
            CmCommand::Respond { unit, response } => {
                write!(f, "respond {unit} {}", response_word(*response))
            }
            CmCommand::After { unit, choice } => write!(f, "after {unit} {}", after_word(*choice)),
            CmCommand::Spend { leader, unit, cps } => write!(f, "spend {leader} {unit} {cps}"),
            CmCommand::Inspire { leader } => write!(f, "inspire {leader}"),
            CmCommand::Carry { unit, on } => {
                write!(f, "carry {unit} {}", if *on { "on" } else { "halt" })
            }
            CmCommand::Seek { leader, seek } => {
                write!(f, "seek {leader} {}", if *seek { "yes" } else { "no" })
            }
        }
    }
}

fn err(column: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        column,
        message: message.into(),
    }
}

fn parse_form(w: &Words) -> Result<Command, ParseError> {
    w.need(
        3,
        "a unit, a formation and a facing: form household Shieldwall N",
    )?;
    let (fc, fname) = w.rest[1];
    let formation = FormationId::ALL
        .into_iter()
        .find(|f| format!("{f:?}").eq_ignore_ascii_case(fname))
        .ok_or_else(|| {
            err(
                fc,
                format!(
                    "`{fname}` is not a formation: Line, Shieldwall, Cuneus, Column or Unformed"
                ),
            )
        })?;
    let (dc, dname) = w.rest[2];
    let facing = HexsideFacing::parse(dname).ok_or_else(|| {
        err(
            dc,
            format!("`{dname}` is not a hexside facing: N, NE, SE, S, SW or NW"),
        )
    })?;
    let stands = w.rest[3..]
        .iter()
        .map(|(c, s)| hex_at(*c, s))
        .collect::<Result<_, _>>()?;
    Ok(CmCommand::Form {
        unit: unit_at(w.rest[0].0, w.rest[0].1)?,
        formation,
        facing,
        stands,
    }
    .command())
}

/// `UNIT -> TARGET`, after `charge` or `shoot`.
fn unit_and_target(w: &Words) -> Result<(UnitRef, UnitRef), ParseError> {
    w.need(
        3,
        &format!(
            "a unit, `->` and a target: {} crew_1 -> bridge_guard",
            w.verb
        ),
    )?;
    if w.rest[1].1 != "->" {
        return Err(err(
            w.rest[1].0,
            format!("`{}` needs `->` before its target", w.verb),
        ));
    }
    w.at_most(3, "one unit and one target")?;
    Ok((
        unit_at(w.rest[0].0, w.rest[0].1)?,
        unit_at(w.rest[2].0, w.rest[2].1)?,
    ))
}

fn parse_charge(w: &Words) -> Result<Command, ParseError> {
    let (unit, target) = unit_and_target(w)?;
    Ok(CmCommand::Charge { unit, target }.command())
}

fn parse_shoot(w: &Words) -> Result<Command, ParseError> {
    let (unit, target) = unit_and_target(w)?;
    Ok(CmCommand::Shoot { unit, target }.command())
}

fn parse_respond(w: &Words) -> Result<Command, ParseError> {
    w.need(2, "a unit and an answer: respond household stand")?;
    w.at_most(3, "one unit and one answer")?;
    let c = w.rest[1].0;
    let word = w.rest[1..]
        .iter()
        .map(|(_, s)| *s)
        .collect::<Vec<_>>()
        .join(" ");
    let response = [
        Response::Evade,
        Response::EvadeShoot,
        Response::CounterCharge,
        Response::Stand,
        Response::StandHold,
        Response::AboutFace,
    ]
    .into_iter()
    .find(|r| response_word(*r).eq_ignore_ascii_case(&word))
    .ok_or_else(|| {
        err(
            c,
            format!(
                "`{word}` is no answer: evade, evade shoot (C&M 7.14), countercharge, stand, stand hold (C&M 7.14) or about"
            ),
        )
    })?;
    Ok(CmCommand::Respond {
        unit: unit_at(w.rest[0].0, w.rest[0].1)?,
        response,
    }
    .command())
}

fn parse_after(w: &Words) -> Result<Command, ParseError> {
    w.need(2, "a unit and a move: after household halt")?;
    w.at_most(2, "one unit and one move")?;
    let (c, word) = w.rest[1];
    let choice = [
        AfterCharge::Halt,
        AfterCharge::FollowUp,
        AfterCharge::FallBack,
        AfterCharge::Retire,
        AfterCharge::Pursue,
    ]
    .into_iter()
    .find(|a| after_word(*a).eq_ignore_ascii_case(word))
    .ok_or_else(|| {
        err(
            c,
            format!("`{word}` is no move: halt, follow, fallback, retire or pursue"),
        )
    })?;
    Ok(CmCommand::After {
        unit: unit_at(w.rest[0].0, w.rest[0].1)?,
        choice,
    }
    .command())
}

fn parse_spend(w: &Words) -> Result<Command, ParseError> {
    w.need(3, "a leader, a unit and CPs: spend byrhtnoth household 1")?;
    w.at_most(3, "one leader, one unit and a number of CPs")?;
    let (c, word) = w.rest[2];
    let cps = word
        .parse::<u8>()
        .ok()
        .filter(|n| (1..=9).contains(n))
        .ok_or_else(|| err(c, format!("`{word}` is no number of CPs (1 to 9)")))?;
    Ok(CmCommand::Spend {
        leader: unit_at(w.rest[0].0, w.rest[0].1)?,
        unit: unit_at(w.rest[1].0, w.rest[1].1)?,
        cps,
    }
    .command())
}

fn parse_inspire(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "a leader: inspire byrhtnoth")?;
    w.at_most(1, "one leader")?;
    Ok(CmCommand::Inspire {
        leader: unit_at(w.rest[0].0, w.rest[0].1)?,
    }
    .command())
}

fn parse_carry(w: &Words) -> Result<Command, ParseError> {
    w.need(2, "a unit and on or halt: carry red_horse on")?;
    w.at_most(2, "one unit and on or halt")?;
    let (c, word) = w.rest[1];
    let on = match word.to_ascii_lowercase().as_str() {
        "on" => true,
        "halt" => false,
        _ => return Err(err(c, format!("`{word}` is no answer: on or halt"))),
    };
    Ok(CmCommand::Carry {
        unit: unit_at(w.rest[0].0, w.rest[0].1)?,
        on,
    }
    .command())
}

fn parse_seek(w: &Words) -> Result<Command, ParseError> {
    w.need(2, "a leader and yes or no: seek byrhtnoth yes")?;
    w.at_most(2, "one leader and yes or no")?;
    let (c, word) = w.rest[1];
    let seek = match word.to_ascii_lowercase().as_str() {
        "yes" => true,
        "no" => false,
        _ => return Err(err(c, format!("`{word}` is no answer: yes or no"))),
    };
    Ok(CmCommand::Seek {
        leader: unit_at(w.rest[0].0, w.rest[0].1)?,
        seek,
    }
    .command())
}

/// The verbs C&M adds to the script grammar.
pub const VERBS: &[VerbSpec] = &[
    VerbSpec {
        verbs: &["form"],
        parse: parse_form,
    },
    VerbSpec {
        verbs: &["shoot"],
        parse: parse_shoot,
    },
    VerbSpec {
        verbs: &["charge"],
        parse: parse_charge,
    },
    VerbSpec {
        verbs: &["respond"],
        parse: parse_respond,
    },
    VerbSpec {
        verbs: &["after"],
        parse: parse_after,
    },
    VerbSpec {
        verbs: &["spend"],
        parse: parse_spend,
    },
    VerbSpec {
        verbs: &["inspire"],
        parse: parse_inspire,
    },
    VerbSpec {
        verbs: &["carry"],
        parse: parse_carry,
    },
    VerbSpec {
        verbs: &["seek"],
        parse: parse_seek,
    },
];

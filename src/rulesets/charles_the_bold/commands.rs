//! The verbs Charles the Bold adds to the script grammar (design §1.2): the secret
//! choice of a group, a stand's or a general's move with its turns, fire, a melee with
//! its supports, the defender's supports, a pursuit, a rally, a general's attachment;
//! their type, how they print, and how a script line is read into them. `end` and
//! `retreat` are the engine's.

use std::fmt;

use crate::engine::command::{
    Command, ParseError, RulesetCommand, UnitRef, VerbSpec, Words, hex_at, unit_at,
};
use crate::engine::hex::{HexCoord, VertexFacing};

/// One step of a move (CtB 3.0-3.2): into an adjacent hex, one face clockwise or
/// counter-clockwise, or about (turning to the rear, R-3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    Hex(HexCoord),
    Cw,
    Ccw,
    About,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Hex(h) => write!(f, "{h}"),
            Step::Cw => write!(f, "cw"),
            Step::Ccw => write!(f, "ccw"),
            Step::About => write!(f, "about"),
        }
    }
}

/// A command of Charles the Bold's own.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CtbCommand {
    /// The group a side wants to move next, chosen in secret (CtB 1.4, R-1.4d).
    Declare { group: String },
    /// One move of a stand, or a general's move (CtB 2.1, 3.0-3.7); `facing` is the
    /// final facing of skirmishers and light cavalry (CtB 3.1).
    Go {
        unit: UnitRef,
        steps: Vec<Step>,
        facing: Option<VertexFacing>,
    },
    /// A stand fires (CtB 6.0); `moving` declares a move after it.
    Fire {
        unit: UnitRef,
        moving: bool,
        target: UnitRef,
    },
    /// A melee between two Battle Stands, with the attacker's supports (CtB 10.2, 10.7).
    Fight {
        unit: UnitRef,
        enemy: UnitRef,
        with: Vec<UnitRef>,
    },
    /// The defender's supports in a melee (CtB 10.7): `support S1 S2 …`, or
    /// `support none`.
    Support { units: Vec<UnitRef> },
    /// The winner's optional pursuit (CtB 13.0): `None` declines it.
    Pursue { unit: Option<UnitRef> },
    /// Order Tests to recover from disorder (CtB 8.0, 8.1).
    Rally { units: Vec<UnitRef> },
    /// Heavy cavalry bounce back (`bounce STAND`) or stay (`bounce none`) (CtB 11.1).
    Bounce { unit: Option<UnitRef> },
    /// A stand charged or fired on evades (CtB 4.0): `evade STAND` by the default
    /// route, `evade STAND HEX` to the hex it ends in, or `evade STAND HEX HEX…` along
    /// those hexes (R-4.0: the owner chooses).
    Evade { unit: UnitRef, path: Vec<HexCoord> },
    /// A charged stand stands instead of evading (CtB 4.0, 10.6).
    Hold { unit: UnitRef },
    /// A reaction of the side not moving: `react fire STAND -> TARGET` (defensive fire,
    /// CtB 6.2), or `react none`.
    React { fire: Option<(UnitRef, UnitRef)> },
    /// A stand on opportunity charges the stand that triggered it (CtB 5.0):
    /// `react charge STAND`.
    ReactCharge { unit: UnitRef },
    /// An Order Test, as the stand's first action, to go on opportunity (CtB 5.0, 9.1).
    Opportunity { unit: UnitRef },
    /// A group move (CtB 3.8, R-3.8): `group S1 S2 … -> HEX…`, every stand taking the
    /// steps the first one takes through those hexes.
    Group {
        units: Vec<UnitRef>,
        path: Vec<HexCoord>,
    },
    /// A general declares himself attached to the stand of his group in his hex
    /// (CtB 2.1): `attach GENERAL`.
    Attach { general: UnitRef },
    /// A general ends his attachment and stays in the hex (CtB 2.1, R-2.1):
    /// `detach GENERAL`.
    Detach { general: UnitRef },
}

impl CtbCommand {
    /// The command carrying it.
    pub fn command(self) -> Command {
        Command::Ruleset(RulesetCommand::new(self))
    }

    /// The CtB command a command is, if it is one.
    pub fn of(command: &Command) -> Option<&CtbCommand> {
        match command {
            Command::Ruleset(r) => r.get::<CtbCommand>(),
            _ => None,
        }
    }
}

impl fmt::Display for CtbCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CtbCommand::Declare { group } => write!(f, "declare {group}"),
            CtbCommand::Go {
                unit,
                steps,
                facing,
            } => {
                write!(f, "go {unit}")?;
                for s in steps {
                    write!(f, " {s}")?;
                }
                if let Some(fc) = facing {
                    write!(f, " {}", fc.name())?;
                }
                Ok(())
            }
            CtbCommand::Fire {
                unit,
                moving,
                target,
            } => {
                write!(f, "fire {unit}")?;
                if *moving {
                    write!(f, " moving")?;
                }
                write!(f, " -> {target}")
            }
            CtbCommand::Fight { unit, enemy, with } => {
                write!(f, "fight {unit} -> {enemy}")?;
                if !with.is_empty() {
                    write!(f, " with")?;
                    for w in with {
                        write!(f, " {w}")?;
                    }
                }
                Ok(())
            }
            CtbCommand::Support { units } if units.is_empty() => write!(f, "support none"),
            CtbCommand::Support { units } => {
                write!(f, "support")?;
                for u in units {
                    write!(f, " {u}")?;
                }
                Ok(())
            }
            CtbCommand::Pursue { unit: Some(u) } => write!(f, "pursue {u}"),
            CtbCommand::Pursue { unit: None } => write!(f, "pursue none"),
            CtbCommand::Bounce { unit: Some(u) } => write!(f, "bounce {u}"),
            CtbCommand::Bounce { unit: None } => write!(f, "bounce none"),
            CtbCommand::Evade { unit, path } => {
                write!(f, "evade {unit}")?;
                for h in path {
                    write!(f, " {h}")?;
                }
                Ok(())
            }
            CtbCommand::Hold { unit } => write!(f, "hold {unit}"),
            CtbCommand::React { fire: Some((u, t)) } => write!(f, "react fire {u} -> {t}"),
            CtbCommand::React { fire: None } => write!(f, "react none"),
            CtbCommand::ReactCharge { unit } => write!(f, "react charge {unit}"),
            CtbCommand::Group { units, path } => {
                write!(f, "group")?;
                for u in units {
                    write!(f, " {u}")?;
                }
                write!(f, " ->")?;
                for h in path {
                    write!(f, " {h}")?;
                }
                Ok(())
            }
            CtbCommand::Opportunity { unit } => write!(f, "opportunity {unit}"),
            CtbCommand::Attach { general } => write!(f, "attach {general}"),
            CtbCommand::Detach { general } => write!(f, "detach {general}"),
            CtbCommand::Rally { units } => {
                write!(f, "rally")?;
                for u in units {
                    write!(f, " {u}")?;
                }
                Ok(())
            }
        }
    }
}

/// The verbs of Charles the Bold, in the order error messages list them.
pub const VERBS: &[VerbSpec] = &[
    VerbSpec {
        verbs: &["declare"],
        parse: parse_declare,
    },
    VerbSpec {
        verbs: &["go"],
        parse: parse_go,
    },
    VerbSpec {
        verbs: &["fire"],
        parse: parse_fire,
    },
    VerbSpec {
        verbs: &["fight"],
        parse: parse_fight,
    },
    VerbSpec {
        verbs: &["support"],
        parse: parse_support,
    },
    VerbSpec {
        verbs: &["pursue"],
        parse: parse_pursue,
    },
    VerbSpec {
        verbs: &["rally"],
        parse: parse_rally,
    },
    VerbSpec {
        verbs: &["evade", "hold"],
        parse: parse_evade,
    },
    VerbSpec {
        verbs: &["react"],
        parse: parse_react,
    },
    VerbSpec {
        verbs: &["bounce"],
        parse: parse_bounce,
    },
    VerbSpec {
        verbs: &["opportunity"],
        parse: parse_opportunity,
    },
    VerbSpec {
        verbs: &["group"],
        parse: parse_group,
    },
    VerbSpec {
        verbs: &["attach", "detach"],
        parse: parse_attach,
    },
];

fn parse_attach(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "the general: attach norfolk (or his hex)")?;
    w.at_most(1, "one general")?;
    let general = unit_at(w.rest[0].0, w.rest[0].1)?;
    Ok(if w.verb.eq_ignore_ascii_case("attach") {
        CtbCommand::Attach { general }
    } else {
        CtbCommand::Detach { general }
    }
    .command())
}

fn parse_group(w: &Words) -> Result<Command, ParseError> {
    let form = "group 0404 0405 0406 -> 0504 (the stands, then the first one's hexes)";
    let a = arrow(w, form)?;
    let (before, after) = (&w.rest[..a], &w.rest[a + 1..]);
    if before.len() < 2 || after.is_empty() {
        return Err(ParseError {
            column: w.rest[a].0,
            message: format!("`group` takes two stands or more, `->`, and hexes: {form}"),
        });
    }
    Ok(CtbCommand::Group {
        units: before
            .iter()
            .map(|(c, s)| unit_at(*c, s))
            .collect::<Result<_, _>>()?,
        path: after
            .iter()
            .map(|(c, s)| hex_at(*c, s))
            .collect::<Result<_, _>>()?,
    }
    .command())
}

fn parse_opportunity(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "the stand: opportunity 0903")?;
    w.at_most(1, "one stand")?;
    Ok(CtbCommand::Opportunity {
        unit: unit_at(w.rest[0].0, w.rest[0].1)?,
    }
    .command())
}

fn parse_evade(w: &Words) -> Result<Command, ParseError> {
    let evade = w.verb.eq_ignore_ascii_case("evade");
    if evade {
        w.need(
            1,
            "the stand, then where it ends or its hexes: evade 0305 0105",
        )?;
    } else {
        w.need(1, "the stand: hold 0305")?;
        w.at_most(1, "one stand")?;
    }
    let unit = unit_at(w.rest[0].0, w.rest[0].1)?;
    Ok(if evade {
        CtbCommand::Evade {
            unit,
            path: w.rest[1..]
                .iter()
                .map(|(c, s)| hex_at(*c, s))
                .collect::<Result<_, _>>()?,
        }
    } else {
        CtbCommand::Hold { unit }
    }
    .command())
}

fn parse_bounce(w: &Words) -> Result<Command, ParseError> {
    let unit = stand_or_none(w, "the heavy cavalry or `none`: bounce 0505")?;
    Ok(CtbCommand::Bounce { unit }.command())
}

fn parse_react(w: &Words) -> Result<Command, ParseError> {
    let form = "react fire 0406 -> 0506, react charge 0406, or react none";
    w.need(1, form)?;
    let (c, first) = w.rest[0];
    if first.eq_ignore_ascii_case("none") {
        w.at_most(1, "nothing after `none`")?;
        return Ok(CtbCommand::React { fire: None }.command());
    }
    if first.eq_ignore_ascii_case("charge") {
        w.need(2, form)?;
        w.at_most(2, "one stand after `charge`")?;
        return Ok(CtbCommand::ReactCharge {
            unit: unit_at(w.rest[1].0, w.rest[1].1)?,
        }
        .command());
    }
    if !first.eq_ignore_ascii_case("fire") || w.rest.len() != 4 || w.rest[2].1 != "->" {
        return Err(ParseError {
            column: c,
            message: format!("`react` takes: {form}"),
        });
    }
    Ok(CtbCommand::React {
        fire: Some((
            unit_at(w.rest[1].0, w.rest[1].1)?,
            unit_at(w.rest[3].0, w.rest[3].1)?,
        )),
    }
    .command())
}

fn parse_declare(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "a group: declare marshal")?;
    w.at_most(1, "one group")?;
    Ok(CtbCommand::Declare {
        group: w.rest[0].1.to_string(),
    }
    .command())
}

fn parse_go(w: &Words) -> Result<Command, ParseError> {
    w.need(
        2,
        "a stand and its steps: go 1302 1202 cw (a hex, cw, ccw or about)",
    )?;
    let unit = unit_at(w.rest[0].0, w.rest[0].1)?;
    let mut steps = Vec::new();
    let mut facing = None;
    let words = &w.rest[1..];
    for (i, &(c, s)) in words.iter().enumerate() {
        let step = match s.to_ascii_lowercase().as_str() {
            "cw" => Step::Cw,
            "ccw" => Step::Ccw,
            "about" => Step::About,
            _ => match VertexFacing::parse(s) {
                Some(f) if i + 1 == words.len() => {
                    facing = Some(f);
                    continue;
                }
                Some(_) => {
                    return Err(ParseError {
                        column: c,
                        message: "a final facing comes last in `go`".into(),
                    });
                }
                None => Step::Hex(hex_at(c, s)?),
            },
        };
        steps.push(step);
    }
    Ok(CtbCommand::Go {
        unit,
        steps,
        facing,
    }
    .command())
}

/// The position of `->` among the words, or an error naming the verb's form.
fn arrow(w: &Words, form: &str) -> Result<usize, ParseError> {
    w.rest
        .iter()
        .position(|(_, s)| *s == "->")
        .ok_or(ParseError {
            column: w.end_column,
            message: format!("`{}` needs `-> TARGET`: {form}", w.verb),
        })
}

fn parse_fire(w: &Words) -> Result<Command, ParseError> {
    let form = "fire 1405 -> 0905, or fire 1405 moving -> 0905";
    let a = arrow(w, form)?;
    let before = &w.rest[..a];
    let after = &w.rest[a + 1..];
    let moving = before.len() == 2 && before[1].1.eq_ignore_ascii_case("moving");
    if before.is_empty() || before.len() > 2 || (before.len() == 2 && !moving) {
        return Err(ParseError {
            column: before.get(1).map_or(w.verb_column, |x| x.0),
            message: format!("`fire` takes one stand, perhaps `moving`, before `->`: {form}"),
        });
    }
    if after.len() != 1 {
        return Err(ParseError {
            column: after.get(1).map_or(w.end_column, |x| x.0),
            message: "`fire` takes exactly one target after `->`".into(),
        });
    }
    Ok(CtbCommand::Fire {
        unit: unit_at(before[0].0, before[0].1)?,
        moving,
        target: unit_at(after[0].0, after[0].1)?,
    }
    .command())
}

fn parse_fight(w: &Words) -> Result<Command, ParseError> {
    let form = "fight 0406 -> 0506 with 0405";
    let a = arrow(w, form)?;
    if a != 1 {
        return Err(ParseError {
            column: w.rest.get(1).map_or(w.verb_column, |x| x.0),
            message: format!("`fight` takes one Battle Stand before `->`: {form}"),
        });
    }
    let after = &w.rest[a + 1..];
    let Some(&(ec, e)) = after.first() else {
        return Err(ParseError {
            column: w.end_column,
            message: format!("`fight` needs the enemy Battle Stand after `->`: {form}"),
        });
    };
    let mut with = Vec::new();
    if let Some(&(c, s)) = after.get(1) {
        if !s.eq_ignore_ascii_case("with") || after.len() < 3 {
            return Err(ParseError {
                column: c,
                message: format!("after the enemy, `with` and the supporting stands: {form}"),
            });
        }
        for &(c, s) in &after[2..] {
            with.push(unit_at(c, s)?);
        }
    }
    Ok(CtbCommand::Fight {
        unit: unit_at(w.rest[0].0, w.rest[0].1)?,
        enemy: unit_at(ec, e)?,
        with,
    }
    .command())
}

fn parse_support(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "the supporting stands, or `none`: support 0405 0407")?;
    let units = if w.rest.len() == 1 && w.rest[0].1.eq_ignore_ascii_case("none") {
        Vec::new()
    } else {
        w.rest
            .iter()
            .map(|&(c, s)| unit_at(c, s))
            .collect::<Result<_, _>>()?
    };
    Ok(CtbCommand::Support { units }.command())
}

fn parse_pursue(w: &Words) -> Result<Command, ParseError> {
    let unit = stand_or_none(w, "the winning stand or `none`: pursue 0406")?;
    Ok(CtbCommand::Pursue { unit }.command())
}

/// One stand, or `none` for a declined choice (`pursue`, `bounce`).
fn stand_or_none(w: &Words, needs: &str) -> Result<Option<UnitRef>, ParseError> {
    w.need(1, needs)?;
    w.at_most(1, "one stand or `none`")?;
    let (c, s) = w.rest[0];
    Ok(if s.eq_ignore_ascii_case("none") {
        None
    } else {
        Some(unit_at(c, s)?)
    })
}

fn parse_rally(w: &Words) -> Result<Command, ParseError> {
    w.need(1, "at least one stand: rally 0405")?;
    let units = w
        .rest
        .iter()
        .map(|&(c, s)| unit_at(c, s))
        .collect::<Result<_, _>>()?;
    Ok(CtbCommand::Rally { units }.command())
}

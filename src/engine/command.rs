//! Commands: every action and decision a player can make, in the one text grammar
//! shared by scripts, saves, the window and autoplay; and the refusal a ruleset gives
//! when a command breaks a rule.

use std::fmt;

use super::hex::HexCoord;

/// A unit named in a command: by the hex it stands in, or by its scenario id (needed
/// for leaders stacked with a unit, and for units not on the map).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnitRef {
    Hex(HexCoord),
    Key(String),
}

impl fmt::Display for UnitRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitRef::Hex(h) => write!(f, "{h}"),
            UnitRef::Key(k) => write!(f, "{k}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// Move a unit hex by hex along `path` (the start hex not included).
    Move { unit: UnitRef, path: Vec<HexCoord> },
    /// Attack the unit in `target` with the units in `melee` (adjacent) and the archers
    /// in `fire` (shooting).
    Attack {
        melee: Vec<HexCoord>,
        fire: Vec<HexCoord>,
        target: HexCoord,
    },
    /// Take pending step losses from these units, one step per mention.
    Lose { units: Vec<UnitRef> },
    /// Retreat the unit that must retreat along this path.
    Retreat { path: Vec<HexCoord> },
    /// Name the unit that takes a morale check several units share.
    Check { unit: UnitRef },
    /// Advance after combat with the unit in this hex, or decline (`None`).
    Advance { from: Option<HexCoord> },
    /// Place a unit set up in secret.
    Place { unit: UnitRef, hex: HexCoord },
    /// End the current phase.
    EndPhase,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hexes = |hs: &[HexCoord]| hs.iter().map(|h| h.label()).collect::<Vec<_>>().join(" ");
        match self {
            Command::Move { unit, path } => write!(f, "move {unit} {}", hexes(path)),
            Command::Attack {
                melee,
                fire,
                target,
            } => {
                write!(f, "attack")?;
                if !melee.is_empty() {
                    write!(f, " {}", hexes(melee))?;
                }
                if !fire.is_empty() {
                    write!(f, " fire {}", hexes(fire))?;
                }
                write!(f, " -> {target}")
            }
            Command::Lose { units } => {
                write!(f, "lose")?;
                for u in units {
                    write!(f, " {u}")?;
                }
                Ok(())
            }
            Command::Retreat { path } => write!(f, "retreat {}", hexes(path)),
            Command::Check { unit } => write!(f, "check {unit}"),
            Command::Advance { from: Some(h) } => write!(f, "advance {h}"),
            Command::Advance { from: None } => write!(f, "advance none"),
            Command::Place { unit, hex } => write!(f, "place {unit} {hex}"),
            Command::EndPhase => write!(f, "end"),
        }
    }
}

/// Why a command was refused, with the rule that refuses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub rule: &'static str,
    pub reason: String,
}

impl Refusal {
    pub fn new(rule: &'static str, reason: impl Into<String>) -> Self {
        Self {
            rule,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason, self.rule)
    }
}

impl std::error::Error for Refusal {}

/// A line of a script that is not a command, with the column of the fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub column: usize,
    pub message: String,
}

/// A word of a line with its 1-based column.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s + 1, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s + 1, &line[s..]));
    }
    out
}

fn hex_at(col: usize, word: &str) -> Result<HexCoord, ParseError> {
    HexCoord::parse(word).ok_or_else(|| ParseError {
        column: col,
        message: format!("`{word}` is not a hex label (four digits CCRR, e.g. 0504)"),
    })
}

fn unit_at(col: usize, word: &str) -> Result<UnitRef, ParseError> {
    if let Some(h) = HexCoord::parse(word) {
        return Ok(UnitRef::Hex(h));
    }
    if word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        Ok(UnitRef::Key(word.to_string()))
    } else {
        Err(ParseError {
            column: col,
            message: format!("`{word}` is neither a hex label nor a unit id"),
        })
    }
}

/// Parses one script line. Blank lines and `#` comments give `Ok(None)`.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let code = line.split('#').next().unwrap_or("");
    let w = words(code);
    let Some(&(vcol, verb)) = w.first() else {
        return Ok(None);
    };
    let rest = &w[1..];
    let end_col = code.trim_end().len() + 1;
    let need = |n: usize, what: &str| -> Result<(), ParseError> {
        if rest.len() < n {
            Err(ParseError {
                column: end_col,
                message: format!("`{verb}` needs {what}"),
            })
        } else {
            Ok(())
        }
    };
    let hexes = |ws: &[(usize, &str)]| -> Result<Vec<HexCoord>, ParseError> {
        ws.iter().map(|(c, s)| hex_at(*c, s)).collect()
    };
    let cmd = match verb.to_ascii_lowercase().as_str() {
        "move" => {
            need(2, "a unit and at least one hex: move 0504 0604 0705")?;
            Command::Move {
                unit: unit_at(rest[0].0, rest[0].1)?,
                path: hexes(&rest[1..])?,
            }
        }
        "attack" => {
            let arrow = rest
                .iter()
                .position(|(_, s)| *s == "->")
                .ok_or(ParseError {
                    column: end_col,
                    message: "`attack` needs `-> TARGET`: attack 0705 0806 -> 0807".into(),
                })?;
            let after = &rest[arrow + 1..];
            if after.len() != 1 {
                return Err(ParseError {
                    column: after.get(1).map_or(end_col, |w| w.0),
                    message: "`attack` takes exactly one target hex after `->`".into(),
                });
            }
            let before = &rest[..arrow];
            let fire_at = before
                .iter()
                .position(|(_, s)| s.eq_ignore_ascii_case("fire"));
            let (melee, fire) = match fire_at {
                Some(i) => (hexes(&before[..i])?, hexes(&before[i + 1..])?),
                None => (hexes(before)?, Vec::new()),
            };
            if melee.is_empty() && fire.is_empty() {
                return Err(ParseError {
                    column: after[0].0,
                    message: "`attack` needs at least one attacking hex before `->`".into(),
                });
            }
            Command::Attack {
                melee,
                fire,
                target: hex_at(after[0].0, after[0].1)?,
            }
        }
        "lose" => {
            need(1, "at least one unit: lose 0705")?;
            Command::Lose {
                units: rest
                    .iter()
                    .map(|(c, s)| unit_at(*c, s))
                    .collect::<Result<_, _>>()?,
            }
        }
        "retreat" => {
            need(1, "at least one hex: retreat 0808")?;
            Command::Retreat { path: hexes(rest)? }
        }
        "check" => {
            need(1, "a unit: check 0705")?;
            if rest.len() > 1 {
                return Err(ParseError {
                    column: rest[1].0,
                    message: "`check` takes one unit".into(),
                });
            }
            Command::Check {
                unit: unit_at(rest[0].0, rest[0].1)?,
            }
        }
        "advance" => {
            need(1, "a hex or `none`: advance 0806")?;
            if rest.len() > 1 {
                return Err(ParseError {
                    column: rest[1].0,
                    message: "`advance` takes one hex or `none`".into(),
                });
            }
            let (c, s) = rest[0];
            if s.eq_ignore_ascii_case("none") {
                Command::Advance { from: None }
            } else {
                Command::Advance {
                    from: Some(hex_at(c, s)?),
                }
            }
        }
        "place" => {
            need(2, "a unit and a hex: place turc_ambush 1005")?;
            if rest.len() > 2 {
                return Err(ParseError {
                    column: rest[2].0,
                    message: "`place` takes a unit and one hex".into(),
                });
            }
            Command::Place {
                unit: unit_at(rest[0].0, rest[0].1)?,
                hex: hex_at(rest[1].0, rest[1].1)?,
            }
        }
        "end" => {
            if let Some(&(c, _)) = rest.first() {
                return Err(ParseError {
                    column: c,
                    message: "`end` takes nothing after it".into(),
                });
            }
            Command::EndPhase
        }
        _ => {
            return Err(ParseError {
                column: vcol,
                message: format!(
                    "unknown command `{verb}` (expected move, attack, lose, retreat, check, advance, place or end)"
                ),
            });
        }
    };
    Ok(Some(cmd))
}

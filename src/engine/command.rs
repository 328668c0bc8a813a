//! Commands: every action and decision a player can make, in the one text grammar
//! shared by scripts, saves, the window and autoplay; and the refusal a ruleset gives
//! when a command breaks a rule.

use std::fmt;

use super::hex::{HexCoord, VertexFacing};
use super::scenario::MapEdge;

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
    /// Place a unit during the set-up, facing a vertex where the ruleset has facing
    /// (CdB 14.3); with no facing given, it faces the enemy's side of the map.
    Place {
        unit: UnitRef,
        hex: HexCoord,
        facing: Option<VertexFacing>,
    },
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
            Command::Place {
                unit,
                hex,
                facing: None,
            } => write!(f, "place {unit} {hex}"),
            Command::Place {
                unit,
                hex,
                facing: Some(v),
            } => write!(f, "place {unit} {hex} {}", v.name()),
            Command::ChooseEdge { edge } => write!(f, "edge {}", edge.name()),
            Command::Plan { corps } => write!(f, "plan {}", corps.join(" ")),
            Command::Ambush { unit } => write!(f, "ambush {unit}"),
            Command::Towards { target } => write!(f, "towards {target}"),
            Command::March { moves } => {
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
            Command::Assign { dice } => {
                write!(f, "assign")?;
                for (corps, die) in dice {
                    write!(f, " {corps} {die}")?;
                }
                Ok(())
            }
            Command::Keep { units } => {
                write!(f, "keep")?;
                for u in units {
                    write!(f, " {u}")?;
                }
                Ok(())
            }
            Command::Dismount { unit, remount } => {
                write!(
                    f,
                    "{} {unit}",
                    if *remount { "remount" } else { "dismount" }
                )
            }
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
            if rest.len() > 3 {
                return Err(ParseError {
                    column: rest[3].0,
                    message: "`place` takes a unit, one hex and perhaps a facing".into(),
                });
            }
            let facing = match rest.get(2) {
                None => None,
                Some(&(c, f)) => Some(VertexFacing::parse(f).ok_or_else(|| ParseError {
                    column: c,
                    message: format!("`{f}` is not a facing: NNE, E, SSE, SSW, W or NNW"),
                })?),
            };
            Command::Place {
                unit: unit_at(rest[0].0, rest[0].1)?,
                hex: hex_at(rest[1].0, rest[1].1)?,
                facing,
            }
        }
        "edge" => {
            need(1, "a map edge: edge West")?;
            if rest.len() > 1 {
                return Err(ParseError {
                    column: rest[1].0,
                    message: "`edge` takes one map edge".into(),
                });
            }
            let (c, e) = rest[0];
            Command::ChooseEdge {
                edge: MapEdge::parse(e).ok_or_else(|| ParseError {
                    column: c,
                    message: format!("`{e}` is not a map edge: West, East, North or South"),
                })?,
            }
        }
        "plan" => {
            need(1, "the corps from left to right: plan comes syagrius")?;
            let mut corps = Vec::new();
            for &(c, s) in rest {
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
            Command::Plan { corps }
        }
        "ambush" => {
            need(1, "a unit: ambush pharas")?;
            if rest.len() > 1 {
                return Err(ParseError {
                    column: rest[1].0,
                    message: "`ambush` takes one unit".into(),
                });
            }
            Command::Ambush {
                unit: unit_at(rest[0].0, rest[0].1)?,
            }
        }
        "towards" => {
            need(1, "an enemy unit: towards 1012")?;
            if rest.len() > 1 {
                return Err(ParseError {
                    column: rest[1].0,
                    message: "`towards` takes one enemy unit".into(),
                });
            }
            Command::Towards {
                target: unit_at(rest[0].0, rest[0].1)?,
            }
        }
        "march" => {
            need(
                1,
                "a unit and its steps: march 0504 0604 cw 0705 / 0505 0605",
            )?;
            let mut moves = Vec::new();
            for part in rest.split(|(_, s)| *s == "/") {
                let Some(&(c, u)) = part.first() else {
                    return Err(ParseError {
                        column: end_col,
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
                            message: format!(
                                "`{s}` is not a step: a hex label (CCRR), cw, ccw or about"
                            ),
                        })?),
                    });
                }
                moves.push((unit, steps));
            }
            Command::March { moves }
        }
        "assign" => {
            need(2, "a corps and a die: assign syagrius 5 ecdicius 3")?;
            if !rest.len().is_multiple_of(2) {
                return Err(ParseError {
                    column: end_col,
                    message: "`assign` takes pairs of a corps id and a die value".into(),
                });
            }
            let mut dice = Vec::new();
            for pair in rest.chunks(2) {
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
            Command::Assign { dice }
        }
        "keep" => {
            need(1, "at least one unit: keep 0504 0505")?;
            Command::Keep {
                units: rest
                    .iter()
                    .map(|(c, s)| unit_at(*c, s))
                    .collect::<Result<_, _>>()?,
            }
        }
        "dismount" | "remount" => {
            need(1, "a unit: dismount 0504")?;
            if rest.len() > 1 {
                return Err(ParseError {
                    column: rest[1].0,
                    message: format!("`{verb}` takes one unit"),
                });
            }
            Command::Dismount {
                unit: unit_at(rest[0].0, rest[0].1)?,
                remount: verb.eq_ignore_ascii_case("remount"),
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
                    "unknown command `{verb}` (expected move, march, attack, lose, retreat, check, advance, place, edge, plan, ambush, towards, assign, keep, dismount, remount or end)"
                ),
            });
        }
    };
    Ok(Some(cmd))
}

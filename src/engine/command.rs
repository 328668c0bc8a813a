//! Commands: every action and decision a player can make, in the one text grammar
//! shared by scripts, saves, the window and autoplay; and the refusal a ruleset gives
//! when a command breaks a rule.

use std::fmt;

use std::any::Any;
use std::hash::{Hash, Hasher};

use super::hex::{HexCoord, VertexFacing};

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

/// What a ruleset's own command must be for the engine to carry it: copied, compared,
/// hashed and printed back in the script grammar. Any such type is one.
pub trait RulesetVerb: Any + fmt::Debug + fmt::Display + Send + Sync {
    fn clone_box(&self) -> Box<dyn RulesetVerb>;
    fn eq_dyn(&self, other: &dyn RulesetVerb) -> bool;
    fn hash_dyn(&self, state: &mut dyn Hasher);
    fn as_any(&self) -> &dyn Any;
}

impl<T> RulesetVerb for T
where
    T: Any + Clone + PartialEq + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync,
{
    fn clone_box(&self) -> Box<dyn RulesetVerb> {
        Box::new(self.clone())
    }

    fn eq_dyn(&self, other: &dyn RulesetVerb) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn hash_dyn(&self, mut state: &mut dyn Hasher) {
        self.hash(&mut state);
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A command of a ruleset's own, which only that ruleset reads (`get`).
#[derive(Debug)]
pub struct RulesetCommand(Box<dyn RulesetVerb>);

impl RulesetCommand {
    pub fn new(verb: impl RulesetVerb) -> Self {
        Self(Box::new(verb))
    }

    /// Its verb, the first word it prints.
    pub fn verb(&self) -> String {
        let text = self.to_string();
        text.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    }

    /// The command as the ruleset's own type, when it is one.
    pub fn get<T: RulesetVerb>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }
}

impl Clone for RulesetCommand {
    fn clone(&self) -> Self {
        Self(self.0.clone_box())
    }
}

impl PartialEq for RulesetCommand {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_dyn(&*other.0)
    }
}

impl Eq for RulesetCommand {}

impl Hash for RulesetCommand {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash_dyn(state);
    }
}

impl fmt::Display for RulesetCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The words of a script line after its verb, as a ruleset's parser reads them.
pub struct Words<'a> {
    /// The verb as written.
    pub verb: &'a str,
    pub verb_column: usize,
    /// Each word after the verb with its 1-based column.
    pub rest: &'a [(usize, &'a str)],
    /// The column just past the line's last word, for "needs more" errors.
    pub end_column: usize,
}

impl Words<'_> {
    /// An error unless at least `n` words follow the verb.
    pub fn need(&self, n: usize, what: &str) -> Result<(), ParseError> {
        if self.rest.len() < n {
            Err(ParseError {
                column: self.end_column,
                message: format!("`{}` needs {what}", self.verb),
            })
        } else {
            Ok(())
        }
    }

    /// An error if more than `n` words follow the verb.
    pub fn at_most(&self, n: usize, what: &str) -> Result<(), ParseError> {
        match self.rest.get(n) {
            Some(&(column, _)) => Err(ParseError {
                column,
                message: format!("`{}` takes {what}", self.verb),
            }),
            None => Ok(()),
        }
    }
}

/// Verbs a ruleset adds to the script grammar, and how to read them.
#[derive(Clone, Copy)]
pub struct VerbSpec {
    /// The verbs (lower case) this parser reads, e.g. `["dismount", "remount"]`.
    pub verbs: &'static [&'static str],
    pub parse: fn(&Words) -> Result<Command, ParseError>,
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
    /// A command of the ruleset's own (CdB `march`, `assign`, ...), parsed by the
    /// grammar it adds to the script language.
    Ruleset(RulesetCommand),
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
            Command::Ruleset(r) => write!(f, "{r}"),
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

pub fn hex_at(col: usize, word: &str) -> Result<HexCoord, ParseError> {
    HexCoord::parse(word).ok_or_else(|| ParseError {
        column: col,
        message: format!("`{word}` is not a hex label (four digits CCRR, e.g. 0504)"),
    })
}

pub fn unit_at(col: usize, word: &str) -> Result<UnitRef, ParseError> {
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

/// The verbs every ruleset shares (`end` besides), in the order error messages list them.
const ENGINE_VERBS: &[&str] = &[
    "move", "attack", "lose", "retreat", "check", "advance", "place",
];

/// Parses one script line with the engine's verbs alone. Blank lines and `#` comments
/// give `Ok(None)`.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    parse_line_with(line, &[])
}

/// Parses one script line with the engine's verbs and those a ruleset adds.
pub fn parse_line_with(line: &str, grammar: &[VerbSpec]) -> Result<Option<Command>, ParseError> {
    let code = line.split('#').next().unwrap_or("");
    let w = words(code);
    let Some(&(vcol, verb)) = w.first() else {
        return Ok(None);
    };
    let rest = &w[1..];
    let end_col = code.trim_end().len() + 1;
    let words = Words {
        verb,
        verb_column: vcol,
        rest,
        end_column: end_col,
    };
    let need = |n: usize, what: &str| words.need(n, what);
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
        "end" => {
            if let Some(&(c, _)) = rest.first() {
                return Err(ParseError {
                    column: c,
                    message: "`end` takes nothing after it".into(),
                });
            }
            Command::EndPhase
        }
        lower => match grammar.iter().find(|spec| spec.verbs.contains(&lower)) {
            Some(spec) => (spec.parse)(&words)?,
            None => {
                let mut known: Vec<&str> = ENGINE_VERBS.to_vec();
                known.extend(grammar.iter().flat_map(|spec| spec.verbs.iter().copied()));
                known.push("end");
                let (last, first) = known.split_last().expect("the grammar has verbs");
                return Err(ParseError {
                    column: vcol,
                    message: format!(
                        "unknown command `{verb}` (expected {} or {last})",
                        first.join(", ")
                    ),
                });
            }
        },
    };
    Ok(Some(cmd))
}

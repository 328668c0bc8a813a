//! What a ruleset tells a player interface, in terms any ruleset can fill: a counter's
//! face, a unit's card, where a unit may move, the odds of an attack, the decision the
//! rules wait for, each side's morale. The client draws these; it decides nothing.

use crate::engine::command::Command;
use crate::engine::hex::HexCoord;
use crate::engine::units::SideId;

/// What a counter shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterFace {
    /// A short type symbol: "Kn", "Inf", "Arc", "MA", "Ldr".
    pub symbol: String,
    /// The printed values, e.g. "4-5" or "2-4 r2" or "+1".
    pub values: String,
    /// Drawn on its reduced side.
    pub reduced: bool,
    /// The vertex the counter faces (CdB 6), 0 = NNE clockwise; `None` without facing.
    pub facing: Option<u8>,
    /// Its rank in a stack (CdB 8.1): 0 for the front rank, which is drawn on top.
    pub rank: u8,
    /// The unit's type as its ruleset's data names it ("Kn", "Wb", "HC", "Gen"): the key
    /// `assets/art.ron` maps, per ruleset, to the symbol drawn on the counter. Empty
    /// for nothing to draw.
    pub troop: String,
}

/// A unit of several stands, one a hex, drawn as one body (C&M's units): every stand's
/// hex (the first is its placement, where its counter's text goes), the hexside its
/// stands face (0 = N, clockwise; `None` for a unit that faces nowhere) and a short
/// word for its formation, drawn on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitBody {
    pub stands: Vec<HexCoord>,
    pub hexside: Option<u8>,
    pub formation: String,
}

/// One line of a unit's card: a factor or a state, and its value.
pub type CardLine = (String, String);

/// A hex a unit may move to this phase, with the cheapest legal path there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveOption {
    pub hex: HexCoord,
    /// What the path costs, in movement points, or in fractions of one where the
    /// ruleset counts them (`per_mp`).
    pub cost: i32,
    /// What the unit has left once there, in the same units.
    pub left: i32,
    /// How many of `cost`'s units make one movement point: 1, or 2 where a ruleset
    /// counts half points (a road of ½ MP).
    pub per_mp: i32,
    /// The path, start hex excluded.
    pub path: Vec<HexCoord>,
    /// The command that makes this move.
    pub command: Command,
    /// What else the move costs, e.g. "1 PA (CdB 4.2)"; empty when nothing.
    pub note: String,
}

impl MoveOption {
    /// A value of `cost` or `left` in movement points as a player reads them: "3",
    /// "3½", "½".
    pub fn mp_text(&self, value: i32) -> String {
        let per = self.per_mp.max(1);
        let (whole, part) = (value / per, value % per);
        match (whole, part) {
            (_, 0) => whole.to_string(),
            (0, p) if per == 2 && p == 1 => "½".to_string(),
            (w, p) if per == 2 && p == 1 => format!("{w}½"),
            (w, p) => format!("{w} {p}/{per}"),
        }
    }
}

/// Everything an attack's odds are made of, computed by the code that resolves it.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPreview {
    pub command: Command,
    /// The odds line, e.g. "7 against 3: 2-1".
    pub odds: String,
    /// Each modifier with its value and rule, for both sides.
    pub modifiers: Vec<String>,
    /// The die roll modifier, when there is one.
    pub die_modifier: i32,
    /// Each result the die can give, with its exact chance (sums to 1).
    pub chances: Vec<(String, f64)>,
    /// The hexes of the units the rules add to the attack and to the defence without
    /// the player naming them (supports), outlined on the map with the preview.
    pub attack_supports: Vec<HexCoord>,
    pub defence_supports: Vec<HexCoord>,
}

/// A choice the rules offer a player, and the command that makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub command: Command,
    /// The hex a click on the map chooses it by, when it has one.
    pub hex: Option<HexCoord>,
}

/// A decision the rules wait for (a loss to allocate, a retreat, an advance, a
/// placement): who makes it, why, and every legal answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub side: SideId,
    pub prompt: String,
    pub rule: String,
    pub choices: Vec<Choice>,
}

impl Decision {
    /// Every legal answer as the command to type: "`edge West` or `edge East`". Answers
    /// that differ only in their last word are folded when there are more than three:
    /// "`place castra_2 HEX` (HEX: 0101-0113, 0116-0130)", hexes in runs down a column.
    pub fn answers(&self) -> String {
        let texts: Vec<String> = self.choices.iter().map(|c| c.command.to_string()).collect();
        // Groups by all but the last word, in the order first seen.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for t in &texts {
            let (head, last) = match t.rsplit_once(' ') {
                Some((h, l)) => (h.to_string(), Some(l.to_string())),
                None => (t.clone(), None),
            };
            match (last, groups.iter_mut().find(|(h, _)| *h == head)) {
                (Some(l), Some((_, lasts))) if !lasts.is_empty() => lasts.push(l),
                (Some(l), _) => groups.push((head, vec![l])),
                (None, _) => groups.push((head, Vec::new())),
            }
        }
        let mut parts: Vec<String> = Vec::new();
        for (head, lasts) in groups {
            if lasts.len() <= 3 {
                if lasts.is_empty() {
                    parts.push(format!("`{head}`"));
                }
                parts.extend(lasts.iter().map(|l| format!("`{head} {l}`")));
                continue;
            }
            let hexes: Option<Vec<HexCoord>> = lasts.iter().map(|l| HexCoord::parse(l)).collect();
            match hexes {
                Some(hexes) => parts.push(format!("`{head} HEX` (HEX: {})", hex_runs(hexes))),
                None => parts.push(format!("`{head} UNIT` (UNIT: {})", lasts.join(", "))),
            }
        }
        if parts.is_empty() {
            return "nothing: no legal answer".to_string();
        }
        word_list(&parts, "or")
    }

    /// What the command line shows of it: who decides, what, by which rule, and every
    /// answer to type.
    pub fn instructions(&self, side_name: &str) -> String {
        format!(
            "{side_name}: {} ({}): type {}",
            self.prompt,
            self.rule,
            self.answers()
        )
    }

    /// What it waits for, for a refusal: "PROMPT: type ANSWERS".
    pub fn waiting(&self) -> String {
        format!("{}: type {}", self.prompt, self.answers())
    }
}

/// Items in words: "a, b or c" with `word` "or" ("a, b and c" with "and").
pub fn word_list(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

/// Hexes in runs down their column: "0101-0113, 0116, 0201-0230".
pub fn hex_runs(mut hexes: Vec<HexCoord>) -> String {
    hexes.sort_by_key(|h| (h.col, h.row));
    hexes.dedup();
    let mut runs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < hexes.len() {
        let mut j = i;
        while j + 1 < hexes.len()
            && hexes[j + 1].col == hexes[i].col
            && hexes[j + 1].row == hexes[j].row + 1
        {
            j += 1;
        }
        runs.push(if j == i {
            hexes[i].label()
        } else {
            format!("{}-{}", hexes[i].label(), hexes[j].label())
        });
        i = j + 1;
    }
    runs.join(", ")
}

/// A hex the scenario's rules mark on the map (a ditch, an objective), what it is, and
/// the side it belongs to now, if any (an objective's holder: the map draws it in that
/// side's colour).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkedHex {
    pub hex: HexCoord,
    pub text: String,
    pub side: Option<SideId>,
}

/// Where the victory conditions stand, short enough for the top bar: each side's score
/// (victory points), the side ahead with the level its lead gives, and the whole
/// verdict in words for the hover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// What the scores count, e.g. "VP".
    pub label: String,
    pub scores: Vec<(SideId, u32)>,
    /// The side ahead and its level ("tactical"); `None` for a draw.
    pub ahead: Option<(SideId, String)>,
    /// "VP Anglo-allied army 5 – French 3: a tactical victory for ... so far".
    pub detail: String,
}

/// A side's morale as the victory rules count it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideMorale {
    pub side: SideId,
    pub name: String,
    pub lost: i32,
    pub level: i32,
}

/// A ruleset's player aids, as the window draws them beside the map: its sequence of
/// play, one step a row in the order a turn runs them, with the step the game is in,
/// and every table a player consults, each read from the same parsed data the rules
/// use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerAids {
    pub sequence: Vec<SequenceStep>,
    /// The step the game is in now, as the ruleset reads it (a phase each side plays in
    /// turn is two steps: this says whose); `None` before the first and after the last.
    pub current: Option<usize>,
    pub tables: Vec<AidTable>,
}

/// One step of a turn: the phase's name (its `PhaseView` label), its rule section,
/// and who acts in it or what is done ("Normans", "both sides", ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceStep {
    pub label: String,
    pub rule: String,
    pub detail: String,
}

/// A table of a ruleset (combat results, terrain effects, unit values, ...) with the
/// rule section that gives it: column headings, rows of cells as a player reads them,
/// and notes (what a code means, what is the designer's choice).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AidTable {
    pub title: String,
    pub rule: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub notes: Vec<String>,
}

impl PlayerAids {
    /// The step of the sequence a game in `phase` is at: the step the ruleset marked
    /// current when it is that phase's, else the first step of that phase's label and
    /// rule; `None` for a phase outside the sequence (the end of the game).
    pub fn current_step(&self, phase: &super::phase::PhaseView) -> Option<usize> {
        let of_phase = |s: &SequenceStep| s.label == phase.label && s.rule == phase.rule;
        self.current
            .filter(|&i| self.sequence.get(i).is_some_and(of_phase))
            .or_else(|| self.sequence.iter().position(of_phase))
    }

    /// The whole as aligned text, the step `current` marked with `>`: what
    /// `bataille aids` prints.
    pub fn text(&self, current: Option<usize>) -> String {
        let mut out = String::from("Sequence of play:\n");
        for (i, step) in self.sequence.iter().enumerate() {
            let mark = if Some(i) == current { ">" } else { " " };
            let detail = if step.detail.is_empty() {
                String::new()
            } else {
                format!(": {}", step.detail)
            };
            out += &format!(
                "{mark} {:>2}. {} ({}){detail}\n",
                i + 1,
                step.label,
                step.rule
            );
        }
        for table in &self.tables {
            out.push('\n');
            out += &table.text();
        }
        out
    }
}

impl AidTable {
    /// The table as aligned text: its title and rule, the headings, a rule line, each
    /// row with every column as wide as its widest cell, then the notes.
    pub fn text(&self) -> String {
        let width = |cell: &str| cell.chars().count();
        let mut widths: Vec<usize> = self.columns.iter().map(|c| width(c)).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                if i == widths.len() {
                    widths.push(0);
                }
                widths[i] = widths[i].max(width(cell));
            }
        }
        let line = |cells: &[String]| {
            let padded: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{c}{}", " ".repeat(widths[i] - width(c))))
                .collect();
            format!("  {}\n", padded.join("  ").trim_end())
        };
        let mut out = format!("{} ({})\n", self.title, self.rule);
        out += &line(&self.columns);
        let total = widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
        out += &format!("  {}\n", "-".repeat(total));
        for row in &self.rows {
            out += &line(row);
        }
        for note in &self.notes {
            out += &format!("  note: {note}\n");
        }
        out
    }
}

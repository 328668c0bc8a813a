//! Errors that point at the file, line and column of the fault and name the thing at
//! fault, for scenarios, rule tables, saves and scripts alike.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocatedError {
    pub file: String,
    /// 1-based; 0 when the fault has no place in the file (e.g. it cannot be read).
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The offending line of the file, shown under the message.
    pub source_line: Option<String>,
}

impl LocatedError {
    pub fn new(
        file: &str,
        source: &str,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        let source_line = (line > 0)
            .then(|| source.lines().nth(line - 1).map(str::to_string))
            .flatten();
        Self {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
            source_line,
        }
    }

    /// An error about the file as a whole (unreadable, empty, binary).
    pub fn whole_file(file: &str, message: impl Into<String>) -> Self {
        Self {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: message.into(),
            source_line: None,
        }
    }

    /// Locates `needle` (its `nth` occurrence, 0-based) in the source; when it does not
    /// occur, the error points at the top of the file.
    pub fn at_text(
        file: &str,
        source: &str,
        needle: &str,
        nth: usize,
        message: impl Into<String>,
    ) -> Self {
        let (line, column) = find_nth(source, needle, nth).unwrap_or((1, 1));
        Self::new(file, source, line, column, message)
    }

    /// Converts a RON parse error.
    /// Locates the `nth` place where field `key` is given (see [`find_field`]); when it
    /// is not found, the first occurrence of the value (or key), else the top of the file.
    pub fn at_field(
        file: &str,
        source: &str,
        key: &str,
        value: Option<&str>,
        nth: usize,
        message: impl Into<String>,
    ) -> Self {
        match find_field(source, key, value, nth) {
            Some((line, column)) => Self::new(file, source, line, column, message),
            None => Self::at_text(
                file,
                source,
                &value.map_or_else(|| key.to_string(), |v| format!("\"{v}\"")),
                0,
                message,
            ),
        }
    }

    /// Converts a RON parse error.
    pub fn from_ron(file: &str, source: &str, err: &ron::error::SpannedError) -> Self {
        let (mut line, mut col) = (err.span.start.line.max(1), err.span.start.col.max(1));
        let lines: Vec<&str> = source.lines().collect();
        if err.code == ron::error::Error::ExpectedComma {
            // RON notices a missing comma at the next token: point just after the
            // previous one, where the comma belongs.
            let (mut l, mut upto) = (line, col - 1);
            while l >= 1 {
                let prefix: String = lines.get(l - 1).unwrap_or(&"").chars().take(upto).collect();
                let code = code_part(&prefix).trim_end();
                if !code.is_empty() {
                    (line, col) = (l, code.chars().count() + 1);
                    break;
                }
                l -= 1;
                upto = usize::MAX;
            }
        } else if let Some(text) = lines.get(line - 1) {
            // RON may start the span on the blanks in front of the token at fault.
            let skip = text
                .chars()
                .skip(col - 1)
                .take_while(|c| c.is_whitespace())
                .count();
            if col - 1 + skip < text.chars().count() {
                col += skip;
            }
        }
        Self::new(file, source, line, col, err.code.to_string())
    }
}

/// The code part of a line: what comes before a `//` comment outside a string.
fn code_part(line: &str) -> &str {
    let mut lexer = Lexer::default();
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if lexer.read(c, chars.peek().map(|(_, n)| *n)) == Lexed::Comment {
            return &line[..i];
        }
    }
    line
}

/// What a character of RON source is, read left to right.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lexed {
    /// Code outside strings and comments.
    Code,
    /// Inside a string, its quotes included.
    String,
    /// The first `/` of a `//` comment: the rest of the line is comment.
    Comment,
}

/// Strings and comments in RON source, one character at a time (strings may hold
/// parentheses, quotes escaped with `\`, and `//`); a string may run over lines.
#[derive(Default)]
struct Lexer {
    in_string: bool,
    escaped: bool,
}

impl Lexer {
    /// Reads `c`, followed by `next` on its line.
    fn read(&mut self, c: char, next: Option<char>) -> Lexed {
        if self.in_string {
            match c {
                _ if self.escaped => self.escaped = false,
                '\\' => self.escaped = true,
                '"' => self.in_string = false,
                _ => {}
            }
            Lexed::String
        } else if c == '"' {
            self.in_string = true;
            Lexed::String
        } else if c == '/' && next == Some('/') {
            Lexed::Comment
        } else {
            Lexed::Code
        }
    }
}

/// The 1-based line and column of the `nth` place where the field `key` is given
/// (`key:` as a whole name, not `roll_side:` for `side`, nor inside a comment). With a
/// `value`, only `key: "value"` counts, and the column is the value's.
pub fn find_field(
    source: &str,
    key: &str,
    value: Option<&str>,
    nth: usize,
) -> Option<(usize, usize)> {
    let quoted = value.map(|v| format!("\"{v}\""));
    let mut seen = 0;
    for (i, line) in source.lines().enumerate() {
        let code = code_part(line);
        let mut from = 0;
        while let Some(pos) = code[from..].find(key) {
            let start = from + pos;
            from = start + key.len().max(1);
            let whole = code[..start]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '"'));
            let Some(rest) = code[from..].trim_start().strip_prefix(':') else {
                continue;
            };
            if !whole {
                continue;
            }
            let at = match &quoted {
                Some(q) => {
                    let v = rest.trim_start();
                    if !v.starts_with(q.as_str()) {
                        continue;
                    }
                    code.len() - v.len()
                }
                None => start,
            };
            if seen == nth {
                return Some((i + 1, code[..at].chars().count() + 1));
            }
            seen += 1;
        }
    }
    None
}

/// The 1-based line and column of the `nth` occurrence of `needle`, skipping `//` comments.
pub fn find_nth(source: &str, needle: &str, nth: usize) -> Option<(usize, usize)> {
    let mut seen = 0;
    for (i, line) in source.lines().enumerate() {
        let code = code_part(line);
        let mut from = 0;
        while let Some(pos) = code[from..].find(needle) {
            if seen == nth {
                return Some((i + 1, code[..from + pos].chars().count() + 1));
            }
            seen += 1;
            from += pos + needle.len().max(1);
        }
    }
    None
}

/// The 1-based line and column of field `key` inside the `nth` entry written
/// `tag(...)` (a special rule such as `Objective(hex: …, vp: …)`), over as many lines
/// as the entry takes; the entry's tag itself when the field is not written in it.
/// Strings (which may hold parentheses) and comments are skipped.
pub fn find_in_entry(source: &str, tag: &str, nth: usize, key: &str) -> Option<(usize, usize)> {
    let (tag_line, tag_col) = find_nth(source, &format!("{tag}("), nth)?;
    let key: Vec<char> = key.chars().collect();
    let mut depth = 0usize;
    let mut lexer = Lexer::default();
    for (l, line) in source.lines().enumerate().skip(tag_line - 1) {
        let chars: Vec<char> = line.chars().collect();
        let start = if l + 1 == tag_line { tag_col - 1 } else { 0 };
        for i in start..chars.len() {
            let c = chars[i];
            match lexer.read(c, chars.get(i + 1).copied()) {
                Lexed::String => continue,
                Lexed::Comment => break,
                Lexed::Code => {}
            }
            if c == '(' || c == '[' {
                depth += 1;
            } else if c == ')' || c == ']' {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some((tag_line, tag_col));
                }
            } else if depth == 1
                && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
                && chars[i..].starts_with(&key)
                && chars[i + key.len()..].iter().find(|c| !c.is_whitespace()) == Some(&':')
            {
                return Some((l + 1, i + 1));
            }
        }
    }
    Some((tag_line, tag_col))
}

impl fmt::Display for LocatedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: error: {}", self.file, self.message);
        }
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.column, self.message
        )?;
        if let Some(src) = &self.source_line {
            let gutter = self.line.to_string().len();
            write!(
                f,
                "\n{:gutter$} |\n{} | {}\n{:gutter$} | {}^",
                "",
                self.line,
                src,
                "",
                " ".repeat(self.column.saturating_sub(1)),
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for LocatedError {}

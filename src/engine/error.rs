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
    pub fn new(file: &str, source: &str, line: usize, column: usize, message: impl Into<String>) -> Self {
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
    pub fn at_text(file: &str, source: &str, needle: &str, nth: usize, message: impl Into<String>) -> Self {
        let (line, column) = find_nth(source, needle, nth).unwrap_or((1, 1));
        Self::new(file, source, line, column, message)
    }

    /// Converts a RON parse error.
    pub fn from_ron(file: &str, source: &str, err: &ron::error::SpannedError) -> Self {
        let pos = err.span.start;
        Self::new(file, source, pos.line.max(1), pos.col.max(1), err.code.to_string())
    }
}

/// The 1-based line and column of the `nth` occurrence of `needle`, skipping `//` comments.
pub fn find_nth(source: &str, needle: &str, nth: usize) -> Option<(usize, usize)> {
    let mut seen = 0;
    for (i, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
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

impl fmt::Display for LocatedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: error: {}", self.file, self.message);
        }
        write!(f, "{}:{}:{}: error: {}", self.file, self.line, self.column, self.message)?;
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

//! One diagnostics type for every stage, drawn in one place.
//!
//! Its input is user input: no `unwrap`, `expect` or indexing that could panic.

use serde::Serialize;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
}

/// A problem found in user input, with the place it is at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub level: Level,
    /// A full sentence.
    pub message: String,
    /// Byte range in the source file, when the problem has a place.
    pub span: Option<std::ops::Range<usize>>,
    /// What to do about it.
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Error,
            message: message.into(),
            span: None,
            hint: None,
        }
    }

    pub fn warning(message: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Warning,
            ..Diagnostic::error(message)
        }
    }

    pub fn at(mut self, span: std::ops::Range<usize>) -> Self {
        self.span = Some(span);
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
}

/// A line and column, both 1-based; the column counts characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// The line and column of a byte offset in `source`.
pub fn line_col(source: &str, offset: usize) -> LineCol {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    LineCol {
        line,
        column: source[line_start..offset].chars().count() + 1,
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Draws a diagnostic as text: the message, `file:line:column`, the source line and a caret
/// under the exact place.
pub fn render(d: &Diagnostic, file: &str, source: &str) -> String {
    let level = match d.level {
        Level::Error => "error",
        Level::Warning => "warning",
    };
    let mut out = format!("{level}: {}\n", d.message);
    match &d.span {
        Some(span) => {
            let start = line_col(source, span.start);
            out.push_str(&format!("  --> {file}:{}:{}\n", start.line, start.column));
            let text = source.lines().nth(start.line - 1).unwrap_or("");
            let gutter = start.line.to_string();
            let pad = " ".repeat(gutter.len());
            // The caret covers the span on its first line, at least one character.
            let end = line_col(source, span.end.max(span.start));
            let width = if end.line == start.line {
                (end.column.saturating_sub(start.column)).max(1)
            } else {
                (text.chars().count() + 1)
                    .saturating_sub(start.column)
                    .max(1)
            };
            out.push_str(&format!("{pad} |\n{gutter} | {text}\n"));
            out.push_str(&format!(
                "{pad} | {}{}\n",
                " ".repeat(start.column - 1),
                "^".repeat(width)
            ));
        }
        None => out.push_str(&format!("  --> {file}\n")),
    }
    if let Some(hint) = &d.hint {
        out.push_str(&format!("  = hint: {hint}\n"));
    }
    out
}

/// A diagnostic as a JSON value, with its place resolved to lines and columns.
pub fn to_json(d: &Diagnostic, file: &str, source: &str) -> serde_json::Value {
    let (start, end) = match &d.span {
        Some(s) => (
            Some(line_col(source, s.start)),
            Some(line_col(source, s.end)),
        ),
        None => (None, None),
    };
    serde_json::json!({
        "level": d.level,
        "message": d.message,
        "file": file,
        "start": start,
        "end": end,
        "hint": d.hint,
    })
}

/// The closest of `candidates` to `word`, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c.to_string())
}

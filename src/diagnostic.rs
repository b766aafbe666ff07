//! One diagnostics type for every stage, drawn in one place.
//!
//! A [`Diagnostic`] carries a stable [`Code`] (listed, with an explanation, in [`codes`] and
//! `docs/diagnostics.md`), a message, the place it is at with a label, further labelled places
//! ("first defined here") and a hint. [`render`] draws it with annotate-snippets, the renderer
//! rustc and cargo use; [`to_json`] gives the same facts to programs.
//!
//! Messages and hints are written as rustc writes them in the source, and become full
//! sentences when a diagnostic is made (a capital first letter, a full stop), so that every
//! diagnostic reads alike whoever wrote it.
//!
//! Its input is user input: no `unwrap`, `expect` or indexing that could panic.

pub mod codes;

use std::ops::Range;

use serde::Serialize;

pub use codes::Code;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
}

/// A further place that explains a diagnostic ("option declared here").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Range<usize>,
    pub text: String,
}

/// A problem found in user input, with the place it is at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub level: Level,
    /// A full sentence.
    pub message: String,
    /// Byte range in the source file, when the problem has a place.
    pub span: Option<Range<usize>>,
    /// What is wrong at `span`, in a few words, drawn under it.
    pub label: Option<String>,
    /// Other places the message refers to, each with its own label.
    pub related: Vec<Label>,
    /// What to do about it.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of `code`'s level.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            level: code.level(),
            message: sentence(&message.into()),
            span: None,
            label: None,
            related: Vec::new(),
            hint: None,
        }
    }

    pub fn at(mut self, span: Range<usize>) -> Self {
        self.span = Some(span);
        self
    }

    /// Points at `span` when there is one (a key found near a clause, say); otherwise the
    /// diagnostic keeps the place it has.
    pub fn near(self, span: Option<Range<usize>>) -> Self {
        match span {
            Some(span) => self.at(span),
            None => self,
        }
    }

    /// The label drawn under the place of the diagnostic.
    pub fn label(mut self, text: impl Into<String>) -> Self {
        self.label = Some(text.into());
        self
    }

    /// Another place, with what it is.
    pub fn also(mut self, span: Range<usize>, text: impl Into<String>) -> Self {
        self.related.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(sentence(&hint.into()));
        self
    }

    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }

    /// Shifts every place by `offset` bytes: for diagnostics found in a piece of the file (an
    /// expression) whose spans count from the start of the piece.
    pub fn shifted(mut self, offset: usize) -> Self {
        let shift = |s: &Range<usize>| offset + s.start..offset + s.end;
        self.span = self.span.as_ref().map(shift);
        for l in &mut self.related {
            l.span = shift(&l.span);
        }
        self
    }
}

/// A message as a sentence: a capital first letter, and a full stop unless it ends with one
/// already (or with `?`, `!` or `:`).
fn sentence(text: &str) -> String {
    let text = text.trim();
    let mut out = String::with_capacity(text.len() + 1);
    let mut chars = text.chars();
    if let Some(first) = chars.next() {
        out.extend(first.to_uppercase());
        out.push_str(chars.as_str());
    }
    if !out.is_empty() && !out.ends_with(['.', '?', '!', ':']) {
        out.push('.');
    }
    out
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

/// A span made safe for `source`: inside it, on character boundaries, start before end.
fn clamp(source: &str, span: &Range<usize>) -> Range<usize> {
    let start = floor_char_boundary(source, span.start.min(source.len()));
    let end = floor_char_boundary(source, span.end.min(source.len())).max(start);
    start..end
}

/// The source with control characters other than line ends and tabs written as escapes
/// (`\u{1b}`), so that a ruleset cannot drive the terminal, and a function that moves byte
/// offsets of the source to offsets of the escaped text.
fn escaped(source: &str) -> (std::borrow::Cow<'_, str>, Vec<(usize, usize)>) {
    let shown = |c: char| c.is_control() && !matches!(c, '\n' | '\r' | '\t');
    if !source.chars().any(shown) {
        return (std::borrow::Cow::Borrowed(source), Vec::new());
    }
    // (offset in the source, growth so far) at each escaped character.
    let mut shifts = Vec::new();
    let mut out = String::with_capacity(source.len() + 16);
    for (i, c) in source.char_indices() {
        if shown(c) {
            let before = out.len();
            out.extend(c.escape_unicode());
            shifts.push((i + c.len_utf8(), out.len() - before - c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    let mut total = 0;
    let cumulative = shifts
        .into_iter()
        .map(|(at, grow)| {
            total += grow;
            (at, total)
        })
        .collect();
    (std::borrow::Cow::Owned(out), cumulative)
}

fn moved(offset: usize, shifts: &[(usize, usize)]) -> usize {
    let grow = shifts
        .iter()
        .take_while(|(at, _)| *at <= offset)
        .last()
        .map_or(0, |(_, g)| *g);
    offset + grow
}

/// Control characters in text taken from the user, escaped.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// Draws a diagnostic as text: `error[E0301]: message`, `--> file:line:column`, the source
/// lines with the place underlined and labelled, the other labelled places, and the hint.
/// With `color`, ANSI styles as rustc uses them. Control characters from the user's text are
/// shown escaped.
pub fn render(d: &Diagnostic, file: &str, source: &str, color: bool) -> String {
    use annotate_snippets::{AnnotationKind, Group, Level as L, Origin, Renderer, Snippet};
    let level = match d.level {
        Level::Error => L::ERROR,
        Level::Warning => L::WARNING,
    };
    let message = plain(&d.message);
    let title = level.primary_title(message.as_str()).id(d.code.id());
    let (text, shifts) = escaped(source);
    let at = |span: &Range<usize>| {
        let s = clamp(source, span);
        moved(s.start, &shifts)..moved(s.end, &shifts)
    };
    let file = plain(file);
    let label = d.label.as_deref().map(plain);
    let related: Vec<(Range<usize>, String)> = d
        .related
        .iter()
        .map(|l| (at(&l.span), plain(&l.text)))
        .collect();
    let mut group = Group::with_title(title);
    if d.span.is_none() && related.is_empty() {
        group = group.element(Origin::path(file.as_str()));
    } else {
        // The main place (when there is one), then the places it relates to.
        let mut snippet = Snippet::source(text.as_ref()).path(file.as_str());
        if let Some(span) = &d.span {
            snippet = snippet.annotation(
                AnnotationKind::Primary
                    .span(at(span))
                    .label(label.as_deref()),
            );
        }
        for (span, text) in &related {
            snippet = snippet.annotation(
                AnnotationKind::Context
                    .span(span.clone())
                    .label(text.as_str()),
            );
        }
        group = group.element(snippet);
    }
    let hint = d.hint.as_deref().map(plain);
    if let Some(hint) = &hint {
        group = group.element(L::HELP.message(hint.as_str()));
    }
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = renderer.render(&[group]);
    out.push('\n');
    out
}

/// A diagnostic as a JSON value, with its places resolved to lines and columns (and byte
/// offsets), every label included.
pub fn to_json(d: &Diagnostic, file: &str, source: &str) -> serde_json::Value {
    let place = |s: &Range<usize>, primary: bool, text: Option<&str>| {
        let s = clamp(source, s);
        serde_json::json!({
            "start": line_col(source, s.start),
            "end": line_col(source, s.end),
            "bytes": [s.start, s.end],
            "primary": primary,
            "text": text,
        })
    };
    let (start, end) = match &d.span {
        Some(s) => {
            let s = clamp(source, s);
            (
                Some(line_col(source, s.start)),
                Some(line_col(source, s.end)),
            )
        }
        None => (None, None),
    };
    let mut labels = Vec::new();
    if let Some(span) = &d.span {
        labels.push(place(span, true, d.label.as_deref()));
    }
    for label in &d.related {
        labels.push(place(&label.span, false, Some(&label.text)));
    }
    serde_json::json!({
        "code": d.code.id(),
        "level": d.level,
        "message": d.message,
        "file": file,
        "start": start,
        "end": end,
        "labels": labels,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_become_sentences() {
        assert_eq!(sentence("a board has 2 rows"), "A board has 2 rows.");
        assert_eq!(sentence("did you mean `x`?"), "Did you mean `x`?");
        assert_eq!(sentence("`x` is unknown."), "`x` is unknown.");
    }

    #[test]
    fn escapes_keep_places() {
        let source = "a\u{1b}b = 1\nc = 2\n";
        let (text, shifts) = escaped(source);
        assert_eq!(text, "a\\u{1b}b = 1\nc = 2\n");
        assert_eq!(moved(0, &shifts), 0);
        assert_eq!(moved(2, &shifts), 7);
        let c = source.find('c').unwrap_or(0);
        assert_eq!(&text[moved(c, &shifts)..moved(c, &shifts) + 1], "c");
    }
}

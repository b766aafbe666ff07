//! Reading what the user gives: files and the prompt's lines, each bounded by a limit rather
//! than by what the file claims to hold (`/dev/zero` claims nothing and never ends).
//!
//! Every reader reads at most its limit plus one byte, so that going past the limit is seen
//! without reading on, and says which limit was passed.

use std::io::{BufRead, Read};
use std::path::Path;

/// The largest ruleset file read: the shipped ones are a few kilobytes.
pub const RULESET_BYTES: usize = 1 << 20;
/// The largest record file read: 100,000 moves (the limit on a record's moves) take less than
/// half of it.
pub const RECORD_BYTES: usize = 1 << 20;
/// The longest line read at `play`'s prompt: a move is a few characters.
pub const LINE_BYTES: usize = 1024;

/// A byte count as the README states the limits.
fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The text of a file, at most `limit` bytes of UTF-8 (a byte order mark at the start is
/// dropped). `what` names the file's kind for messages ("ruleset", "record").
pub fn read_file(path: &Path, limit: usize, what: &str) -> Result<String, String> {
    let shown = path.display();
    if path.is_dir() {
        return Err(format!("{shown} is a folder, not a {what} file"));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    file.take(cap)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() > limit {
        return Err(format!(
            "{shown} is larger than {}, the limit for a {what} file",
            size(limit)
        ));
    }
    text_of(bytes).map_err(|at| format!("{shown} is not UTF-8 text (byte {at} is not)"))
}

/// Standard input as text, at most `limit` bytes of UTF-8, as [`read_file`] reads a file.
pub fn read_stdin(limit: usize, what: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    std::io::stdin()
        .lock()
        .take(cap)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if bytes.len() > limit {
        return Err(format!(
            "standard input is larger than {}, the limit for a {what} file",
            size(limit)
        ));
    }
    text_of(bytes).map_err(|at| format!("standard input is not UTF-8 text (byte {at} is not)"))
}

/// Bytes as text, without a leading byte order mark; or the offset of the first byte that is
/// not UTF-8.
fn text_of(mut bytes: Vec<u8>) -> Result<String, usize> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| e.utf8_error().valid_up_to())
}

/// A line read at the prompt.
pub enum Line {
    /// The line, without its line end.
    Text(String),
    /// A line that is not UTF-8 text.
    NotText,
    /// A line longer than [`LINE_BYTES`]: nothing more is read.
    TooLong,
    /// The input ended (or cannot be read any more).
    End,
}

/// Reads one line of at most [`LINE_BYTES`] bytes.
pub fn read_line(input: &mut impl BufRead) -> Line {
    let mut bytes = Vec::new();
    let cap = u64::try_from(LINE_BYTES).unwrap_or(u64::MAX) + 1;
    match input.by_ref().take(cap).read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => return Line::End,
        Ok(_) => {}
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    } else if bytes.len() > LINE_BYTES {
        return Line::TooLong;
    }
    match String::from_utf8(bytes) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::NotText,
    }
}

/// The limit on a prompt line, for messages.
pub fn line_limit() -> String {
    size(LINE_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_read_up_to_the_limit_and_no_further() {
        let long = vec![b'x'; LINE_BYTES + 10];
        let mut input: &[u8] = &long;
        assert!(matches!(read_line(&mut input), Line::TooLong));
        assert_eq!(input.len(), 9, "one byte past the limit was read, no more");

        let mut fits = vec![b'y'; LINE_BYTES];
        fits.push(b'\n');
        let mut input: &[u8] = &fits;
        assert!(matches!(read_line(&mut input), Line::Text(t) if t.len() == LINE_BYTES));

        let mut input: &[u8] = b"s\xff3\r\nquit\n";
        assert!(matches!(read_line(&mut input), Line::NotText));
        assert!(matches!(read_line(&mut input), Line::Text(t) if t == "quit"));
        assert!(matches!(read_line(&mut input), Line::End));
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        assert_eq!(
            text_of(b"\xEF\xBB\xBFruleset = x\n".to_vec()),
            Ok("ruleset = x\n".into())
        );
        assert_eq!(text_of(b"ab\xffc".to_vec()), Err(2));
    }
}

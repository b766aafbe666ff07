//! Where rendered text and JSON go: a writer that keeps the first error, and writes a JSON
//! document piece by piece (open a container, add values, close it), so that a trace of any
//! length is written as it happens rather than built in memory first.
//!
//! A failed write is not a reason to panic, nor to go on writing: the first error is kept,
//! every later write is skipped, and the caller reports the error when it is done (a command
//! writing to a full disk or a closed pipe ends with exit code 2).

use std::fmt;
use std::io::{self, Write};

use serde_json::Value;

/// Text or a JSON document, written to a writer that may fail.
pub struct Output<'w> {
    out: Box<dyn Write + 'w>,
    error: Option<io::Error>,
    /// The JSON containers open, outermost first.
    open: Vec<Frame>,
}

/// A JSON container being written.
#[derive(Debug, Clone, Copy)]
struct Frame {
    array: bool,
    /// Whether an item (or field) has been written in it yet.
    items: bool,
}

/// The widest a JSON value written on one line may be, indentation included.
const LINE: usize = 96;

impl<'w> Output<'w> {
    pub fn new(out: impl Write + 'w) -> Output<'w> {
        Output {
            out: Box::new(out),
            error: None,
            open: Vec::new(),
        }
    }

    /// Writes text (nothing once a write has failed).
    pub fn text(&mut self, text: &str) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(text.as_bytes())
        {
            self.error = Some(e);
        }
    }

    /// Writes formatted text, as `write!` would, without building a `String` first.
    pub fn say(&mut self, args: fmt::Arguments<'_>) {
        if self.error.is_none()
            && let Err(e) = self.out.write_fmt(args)
        {
            self.error = Some(e);
        }
    }

    /// Sends what is buffered on (a prompt must be seen before the answer is read).
    pub fn flush(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.error = Some(e);
        }
    }

    /// Whether a write has failed.
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Flushes, then hands over the first error, if any write failed.
    pub fn finish(&mut self) -> Result<(), io::Error> {
        self.flush();
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Starts a value: the separator from the value before, the indentation, and the key
    /// when the value is a field of an object.
    fn lead(&mut self, key: Option<&str>) {
        let depth = self.open.len();
        let Some(frame) = self.open.last_mut() else {
            return;
        };
        let first = !frame.items;
        frame.items = true;
        let key = match (frame.array, key) {
            (false, Some(k)) => format!("{}: ", Value::String(k.to_string())),
            // A key in an array, or none in an object, is the caller's mistake: the document
            // stays valid JSON all the same (an object field gets an empty key).
            (false, None) => "\"\": ".to_string(),
            (true, _) => String::new(),
        };
        self.say(format_args!(
            "{}{}{key}",
            if first { "\n" } else { ",\n" },
            "  ".repeat(depth)
        ));
    }

    /// Writes a value: a field of the open object (`key`), an item of the open array, or the
    /// whole document (followed by a newline) when nothing is open.
    pub fn value(&mut self, key: Option<&str>, v: &Value) {
        self.lead(key);
        let mut text = String::new();
        pretty(v, self.open.len(), &mut text);
        if self.open.is_empty() {
            text.push('\n');
        }
        self.text(&text);
    }

    /// Opens an object (a field of the open object, an item of the open array, or the
    /// document).
    pub fn open_object(&mut self, key: Option<&str>) {
        self.open_container(key, false);
    }

    /// Opens an array, as [`Output::open_object`] opens an object.
    pub fn open_array(&mut self, key: Option<&str>) {
        self.open_container(key, true);
    }

    fn open_container(&mut self, key: Option<&str>, array: bool) {
        self.lead(key);
        self.text(if array { "[" } else { "{" });
        self.open.push(Frame {
            array,
            items: false,
        });
    }

    /// Closes the innermost open container (and ends the document with a newline when it was
    /// the outermost).
    pub fn close(&mut self) {
        let Some(frame) = self.open.pop() else {
            return;
        };
        if frame.items {
            let pad = "  ".repeat(self.open.len());
            self.say(format_args!("\n{pad}"));
        }
        self.text(if frame.array { "]" } else { "}" });
        if self.open.is_empty() {
            self.text("\n");
        }
    }
}

/// A whole JSON document, indented (see [`Output::value`]).
pub fn pretty_json(v: &Value) -> String {
    let mut out = String::new();
    pretty(v, 0, &mut out);
    out
}

/// Indented JSON, except that a value short enough to fit on its line (an event, a row of
/// holes, a list of moves) stays on one line: boards and traces are then read at a glance, as
/// in the text output.
fn pretty(v: &Value, depth: usize, out: &mut String) {
    let pad = |d: usize| "  ".repeat(d);
    if depth > 0 {
        let one_line = compact_json(v);
        if one_line.len() + 2 * depth <= LINE {
            out.push_str(&one_line);
            return;
        }
    }
    match v {
        Value::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                pretty(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            for (i, (k, item)) in map.iter().enumerate() {
                out.push_str(&format!("{}{}: ", pad(depth + 1), Value::String(k.clone())));
                pretty(item, depth + 1, out);
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push('}');
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {
            out.push_str(&v.to_string())
        }
    }
}

/// JSON on one line, with a space after each comma and colon.
pub fn compact_json(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(compact_json).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, item)| format!("{}: {}", Value::String(k.clone()), compact_json(item)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn written(f: impl FnOnce(&mut Output<'_>)) -> String {
        let mut bytes = Vec::new();
        {
            let mut out = Output::new(&mut bytes);
            f(&mut out);
        }
        String::from_utf8(bytes).expect("text")
    }

    /// A document written piece by piece reads as the same value, laid out as
    /// [`pretty_json`] lays out the whole.
    #[test]
    fn a_document_written_in_pieces_is_one_document() {
        let events: Vec<Value> = (0..3)
            .map(|i| json!({"event": "drop", "seeds": i}))
            .collect();
        let whole = json!({
            "command": "replay",
            "plies": [{ "ply": 1, "events": events, "board": {"south": [1, 2, 3], "north": [4, 5, 6], "held": 0, "padding": "to make this object longer than a line"} }],
            "empty": [],
            "ok": true,
        });
        let text = written(|out| {
            out.open_object(None);
            out.value(Some("command"), &json!("replay"));
            out.open_array(Some("plies"));
            out.open_object(None);
            out.value(Some("ply"), &json!(1));
            out.open_array(Some("events"));
            for e in &events {
                out.value(None, e);
            }
            out.close();
            out.value(Some("board"), &whole["plies"][0]["board"]);
            out.close();
            out.close();
            out.open_array(Some("empty"));
            out.close();
            out.value(Some("ok"), &json!(true));
            out.close();
        });
        let back: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back, whole);
        assert!(text.ends_with("}\n"), "{text}");
        assert!(
            text.contains("\n      \"events\": [\n        {\"event\": \"drop\", \"seeds\": 0},\n"),
            "{text}"
        );
    }

    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::StorageFull, "no space left"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The first error is kept and handed over; nothing panics.
    #[test]
    fn a_failed_write_is_kept() {
        let mut out = Output::new(Full);
        out.text("a");
        out.value(None, &json!({"b": 1}));
        assert!(out.failed());
        let e = out.finish().expect_err("the write failed");
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
    }
}

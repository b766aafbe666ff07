//! The game record: a small line-based text format a person can write by hand.
//!
//! ```text
//! # Raja Pasu, a short game
//! ruleset = raja_pasu
//! fingerprint = sha256:5e0d...
//! option last_four = none
//! position = S[0 1 0 1 1 2 1] N[0 1 0 2 1 0 1] south
//! moves = s1 n3 s5
//! moves = n2
//! ```
//!
//! One `key = value` per line; `#` starts a comment, to the end of the line. `ruleset` (a
//! shipped name or a path, relative to the record's folder) is required, once. `fingerprint`
//! (optional, at most once) is the SHA-256 of the ruleset's text the game was played under
//! ([`fingerprint`]), so that a replay can tell when the ruleset has changed since. `option
//! NAME = VALUE` sets an option, once per name. `position` (at most once) starts the game from
//! a set-up position in the notation of [`crate::notation`]. `moves` lists moves separated by
//! spaces and may be repeated: the lines are read in order. Every value keeps its byte span,
//! so that a replay can point at the exact move that went wrong.
//!
//! [`Writer`] writes a record as the game goes, so that a game cut short leaves the moves
//! played so far.
//!
//! Parsing checks only the form: whether a move is legal depends on the rules, and is the
//! replay's business.
//!
//! Its input is user input: no `unwrap`, `expect` or indexing that could panic.

use std::ops::Range;

use sha2::{Digest, Sha256};

use crate::diagnostic::{Code, Diagnostic, did_you_mean};

/// A value with its byte span in the record text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub text: String,
    pub span: Range<usize>,
}

impl Item {
    /// A value with no place in any file (for records built in code).
    pub fn new(text: impl Into<String>) -> Item {
        Item {
            text: text.into(),
            span: 0..0,
        }
    }
}

/// A parsed game record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// A shipped ruleset's name, or a path.
    pub ruleset: Item,
    /// The [`fingerprint`] of the ruleset's text the game was played under.
    pub fingerprint: Option<Item>,
    /// Option values, in file order: (name, value).
    pub options: Vec<(Item, Item)>,
    /// A set-up position to start from, in position notation.
    pub position: Option<Item>,
    /// The moves, in order, as written (`s3`, `n5`).
    pub moves: Vec<Item>,
}

const KEYS: &[&str] = &["ruleset", "fingerprint", "option", "position", "moves"];

/// How a fingerprint starts: the hash it is.
const SHA256: &str = "sha256:";

/// The fingerprint of a ruleset's text: `sha256:` and the SHA-256 of the text in hexadecimal,
/// line ends counted as `\n` (so that a file checked out with `\r\n` line ends has the same
/// fingerprint; for a file with `\n` line ends it is what `sha256sum` prints).
pub fn fingerprint(ruleset_text: &str) -> String {
    let mut hash = Sha256::new();
    for (i, line) in ruleset_text.split("\r\n").enumerate() {
        if i > 0 {
            hash.update(b"\n");
        }
        hash.update(line.as_bytes());
    }
    let digest = hash.finalize();
    let mut out = String::with_capacity(SHA256.len() + 64);
    out.push_str(SHA256);
    for byte in digest.iter() {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// Whether `text` is written as a fingerprint is.
fn is_fingerprint(text: &str) -> bool {
    text.strip_prefix(SHA256)
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The most moves a record may hold. Longer games are cut short by the rules' own endings
/// (cycles are detected), so a longer record is a mistake or hostile.
pub const MAX_MOVES: usize = 100_000;

/// Parses a record. Every problem found is returned, each at its place in `text`.
pub fn parse(text: &str) -> Result<Record, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut ruleset: Option<Item> = None;
    let mut fingerprint: Option<Item> = None;
    let mut options: Vec<(Item, Item)> = Vec::new();
    let mut position: Option<Item> = None;
    let mut moves = Vec::new();

    let mut line_start = 0;
    for raw in text.split_inclusive('\n') {
        let start = line_start;
        line_start += raw.len();
        let content = raw.split('#').next().unwrap_or("");
        let content = content.trim_end_matches(['\n', '\r']);
        if content.trim().is_empty() {
            continue;
        }
        let Some(eq) = content.find('=') else {
            let lead = content.len() - content.trim_start().len();
            errors.push(
                Diagnostic::new(Code::RecordLine, "this line is not `key = value`")
                    .at(start + lead..start + content.trim_end().len())
                    .hint("write `ruleset = NAME`, `option NAME = VALUE`, `position = S[..] N[..]` or `moves = s1 n2 ...`; `#` starts a comment"),
            );
            continue;
        };
        let key = item(&content[..eq], start);
        let value = item(&content[eq + 1..], start + eq + 1);
        let mut words = key.text.split_whitespace();
        let first = words.next().unwrap_or("");
        match first {
            "ruleset" | "fingerprint" | "position" | "moves" if words.next().is_some() => {
                errors.push(
                    Diagnostic::new(
                        Code::RecordKeyName,
                        format!("`{first}` takes no name before the `=`"),
                    )
                    .at(key.span.clone()),
                );
            }
            "ruleset" | "fingerprint" | "position" if value.text.is_empty() => {
                errors.push(
                    Diagnostic::new(Code::RecordNoValue, format!("`{first}` has no value"))
                        .at(start + eq..start + eq + 1),
                );
            }
            "ruleset" => {
                if let Some(earlier) = &ruleset {
                    errors.push(
                        Diagnostic::new(
                            Code::RecordRulesetTwice,
                            format!("the ruleset is given twice (first as `{}`)", earlier.text),
                        )
                        .at(value.span.clone()),
                    );
                } else {
                    ruleset = Some(value);
                }
            }
            "fingerprint" => {
                if fingerprint.is_some() {
                    errors.push(
                        Diagnostic::new(
                            Code::RecordFingerprintTwice,
                            "the fingerprint is given twice",
                        )
                        .at(value.span.clone()),
                    );
                } else if !is_fingerprint(&value.text) {
                    errors.push(
                        Diagnostic::new(Code::RecordFingerprint, format!("`{}` is not a fingerprint", value.text))
                            .at(value.span.clone())
                            .hint("a fingerprint is `sha256:` and 64 hexadecimal digits, as `sow play --record` writes it; or remove the line"),
                    );
                } else {
                    fingerprint = Some(value);
                }
            }
            "position" => {
                if position.is_some() {
                    errors.push(
                        Diagnostic::new(
                            Code::RecordPositionTwice,
                            "the starting position is given twice",
                        )
                        .at(value.span.clone()),
                    );
                } else {
                    position = Some(value);
                }
            }
            "moves" => {
                for m in words_of(&value) {
                    if moves.len() >= MAX_MOVES {
                        errors.push(
                            Diagnostic::new(
                                Code::RecordTooManyMoves,
                                format!("the record holds more than {MAX_MOVES} moves, the limit"),
                            )
                            .at(m.span.clone()),
                        );
                        break;
                    }
                    if !is_move_form(&m.text) {
                        errors.push(
                            Diagnostic::new(
                                Code::RecordNotAMove,
                                format!("`{}` is not a move", m.text),
                            )
                            .at(m.span.clone())
                            .hint("a move is a hole such as s3 or n5 (r7 on a ring), s3:cw where the mover chooses the direction, +3 to enter three seeds held, pass, take or leave (a capture on offer), continue or stop (a relay on offer), choose:n3 (a hole chosen for a capture), +1@s3 (an entry from a hole the mover chooses), s3+ and s3- (a seed put into s3 or picked up from it, before play), s3+stone (a piece put into s3), swap (the pie rule's offer), race (a round's race), race:s3 (the hole a player races from, where they choose it) or concede"),
                        );
                    }
                    moves.push(m);
                }
            }
            "option" => {
                let rest: Vec<&str> = words.collect();
                let [name] = rest.as_slice() else {
                    errors.push(
                        Diagnostic::new(
                            Code::RecordOptionSyntax,
                            "write one option per line: `option NAME = VALUE`",
                        )
                        .at(key.span.clone()),
                    );
                    continue;
                };
                let name_at = key.text.rfind(name).unwrap_or(0) + key.span.start;
                let name = Item {
                    text: (*name).to_string(),
                    span: name_at..name_at + name.len(),
                };
                if value.text.is_empty() || value.text.split_whitespace().count() != 1 {
                    errors.push(
                        Diagnostic::new(
                            Code::RecordOptionValue,
                            format!("option `{}` needs one value, a single word", name.text),
                        )
                        .at(if value.text.is_empty() {
                            start + eq..start + eq + 1
                        } else {
                            value.span.clone()
                        }),
                    );
                    continue;
                }
                if options.iter().any(|(n, _)| n.text == name.text) {
                    errors.push(
                        Diagnostic::new(
                            Code::RecordOptionTwice,
                            format!("option `{}` is set twice", name.text),
                        )
                        .at(name.span.clone()),
                    );
                    continue;
                }
                options.push((name, value));
            }
            other => {
                let d = Diagnostic::new(Code::RecordUnknownKey, format!("unknown key `{other}`"))
                    .at(key.span.clone());
                let d = match did_you_mean(other, KEYS.iter().copied()) {
                    Some(s) => d.hint(format!("did you mean `{s}`?")),
                    None => d.hint(format!("the keys are: {}", KEYS.join(", "))),
                };
                errors.push(d);
            }
        }
    }
    let Some(ruleset) = ruleset else {
        errors.push(
            Diagnostic::new(Code::RecordNoRuleset, "the record names no ruleset")
                .hint("add a line `ruleset = NAME` (a shipped name from `sow list`, or a path)"),
        );
        return Err(errors);
    };
    if errors.is_empty() {
        Ok(Record {
            ruleset,
            fingerprint,
            options,
            position,
            moves,
        })
    } else {
        Err(errors)
    }
}

/// The trimmed text of `raw` and its span, `offset` being where `raw` starts.
fn item(raw: &str, offset: usize) -> Item {
    let lead = raw.len() - raw.trim_start().len();
    let text = raw.trim();
    Item {
        text: text.to_string(),
        span: offset + lead..offset + lead + text.len(),
    }
}

/// The words of a value, each with its own span.
fn words_of(value: &Item) -> impl Iterator<Item = Item> + '_ {
    let mut at = 0;
    value.text.split_whitespace().map(move |w| {
        // Words come in order, so each is found after the previous one.
        let found = value.text[at..].find(w).map_or(at, |i| at + i);
        at = found + w.len();
        Item {
            text: w.to_string(),
            span: value.span.start + found..value.span.start + found + w.len(),
        }
    })
}

/// Whether `text` looks like a move: a side letter and a hole number. Which side and which
/// hole numbers exist depend on the rules.
fn is_move_form(text: &str) -> bool {
    // The notation's forms (see `crate::notation`): `pass`; a word alone, `concede`, `swap` or a
    // decision, `take`, `leave`, `continue` or `stop`; a
    // hole, `s3`, `n12` or a ring's `r7`; an entry, `+5` (`+1@s3` from a start the mover
    // chooses); the last two with a chosen
    // direction, `s3:cw`, `+5:ccw`; a seed put into a hole or picked up from it, `s3+`, `s3-`;
    // a piece put, `s3+stone`.
    if text.eq_ignore_ascii_case("pass")
        || (crate::engine::Decision::ALL.iter()).any(|d| text.eq_ignore_ascii_case(d.word()))
    {
        return true;
    }
    // A hole the mover chooses for a capture, `choose:n3`, or to race from, `race:s3`.
    if let Some((word, hole)) = text.split_once(':')
        && (word.eq_ignore_ascii_case("choose") || word.eq_ignore_ascii_case("race"))
    {
        return is_move_form(hole) && !hole.contains([':', '+', '-']);
    }
    if let Some(hole) = text.strip_suffix(['+', '-']) {
        return !hole.starts_with('+') && !hole.contains(':') && is_move_form(hole);
    }
    // A piece put into a hole, `s3+stone`: which pieces the rules have is theirs to say.
    if let Some((hole, piece)) = text.split_once('+')
        && !hole.is_empty()
        && piece
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
        && piece.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return is_move_form(hole) && !hole.starts_with('+') && !hole.contains(':');
    }
    let (what, dir) = match text.split_once(':') {
        Some((what, dir)) => (what, Some(dir)),
        None => (text, None),
    };
    // An entry from a start the mover chooses, `+1@s3` (`+1@s3:cw`).
    if let Some((count, hole)) = what.split_once('@') {
        let dir_ok =
            dir.is_none_or(|d| d.eq_ignore_ascii_case("cw") || d.eq_ignore_ascii_case("ccw"));
        return dir_ok
            && count.starts_with('+')
            && is_move_form(count)
            && !hole.starts_with('+')
            && is_move_form(hole);
    }
    let dir_ok = dir.is_none_or(|d| d.eq_ignore_ascii_case("cw") || d.eq_ignore_ascii_case("ccw"));
    let mut chars = what.chars();
    let head_ok = matches!(chars.next(), Some('s' | 'n' | 'r' | 'S' | 'N' | 'R' | '+'));
    let digits = chars.as_str();
    dir_ok && head_ok && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// How many moves [`Writer`] puts on one `moves` line.
const MOVES_PER_LINE: usize = 10;

/// Comments as `#` lines.
fn comment_lines(comments: &[String]) -> String {
    let mut out = String::new();
    for c in comments {
        for line in c.lines() {
            out.push_str(format!("# {line}").trim_end());
            out.push('\n');
        }
    }
    out
}

/// Writes a record in pieces as a game goes: [`Writer::head`] before the first move (its
/// `moves` are not written), [`Writer::next_move`] for each move, [`Writer::end`] at the end.
/// Each piece ends where a record may end, so the text written so far is always a record of
/// the moves so far.
#[derive(Debug, Clone, Default)]
pub struct Writer {
    /// Moves on the `moves` line being written.
    on_line: usize,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    /// `comments` as `#` lines, then the ruleset, fingerprint, options and position.
    pub fn head(&self, record: &Record, comments: &[String]) -> String {
        let mut out = comment_lines(comments);
        out.push_str(&format!("ruleset = {}\n", record.ruleset.text));
        if let Some(f) = &record.fingerprint {
            out.push_str(&format!("fingerprint = {}\n", f.text));
        }
        for (name, value) in &record.options {
            out.push_str(&format!("option {} = {}\n", name.text, value.text));
        }
        if let Some(p) = &record.position {
            out.push_str(&format!("position = {}\n", p.text));
        }
        out
    }

    /// A move: on the open `moves` line, or on a new one.
    pub fn next_move(&mut self, text: &str) -> String {
        let piece = match self.on_line {
            0 => format!("moves = {text}"),
            n if n >= MOVES_PER_LINE => {
                self.on_line = 0;
                format!("\nmoves = {text}")
            }
            _ => format!(" {text}"),
        };
        self.on_line += 1;
        piece
    }

    /// Ends the open `moves` line, then `comments` as `#` lines.
    pub fn end(&mut self, comments: &[String]) -> String {
        let mut out = String::new();
        if self.on_line > 0 {
            out.push('\n');
            self.on_line = 0;
        }
        out.push_str(&comment_lines(comments));
        out
    }
}

/// Writes a whole record. `comments` become `#` lines at the top (the seed, the players).
pub fn write(record: &Record, comments: &[String]) -> String {
    let mut w = Writer::new();
    let mut out = w.head(record, comments);
    for m in &record.moves {
        out.push_str(&w.next_move(&m.text));
    }
    out.push_str(&w.end(&[]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_example() {
        let text = "# A short game\nruleset = my_variant\noption last_four = none\n\
                    position = S[0 1 0 1 1 2 1] N[0 1 0 2 1 0 1] south\nmoves = s1 n3 s5  # opening\nmoves = n2\n";
        let r = parse(text).expect("parses");
        assert_eq!(r.ruleset.text, "my_variant");
        assert_eq!(r.options[0].0.text, "last_four");
        assert_eq!(r.options[0].1.text, "none");
        let moves: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["s1", "n3", "s5", "n2"]);
        assert_eq!(&text[r.moves[2].span.clone()], "s5");
        assert_eq!(&text[r.options[0].0.span.clone()], "last_four");
    }

    #[test]
    fn writes_what_it_reads() {
        let record = Record {
            ruleset: Item::new("my_variant"),
            fingerprint: Some(Item::new(fingerprint("format = 1\r\n"))),
            options: vec![(Item::new("first"), Item::new("north"))],
            position: None,
            moves: (1..=12)
                .map(|i| Item::new(format!("s{}", i % 6 + 1)))
                .collect(),
        };
        let text = write(&record, &["seed 7".to_string()]);
        let back = parse(&text).expect("parses");
        assert_eq!(back.moves.len(), 12);
        assert_eq!(back.options[0].1.text, "north");
        assert!(text.starts_with("# seed 7\n"));
        let written = |r: &Record| r.fingerprint.as_ref().map(|f| f.text.clone());
        assert_eq!(written(&back), written(&record));
        assert!(
            text.contains("\nmoves = s2 s3 s4 s5 s6 s1 s2 s3 s4 s5\nmoves = s6 s1\n"),
            "{text}"
        );
    }

    /// The fingerprint is the SHA-256 of the text with `\n` line ends: what `sha256sum`
    /// prints for the file.
    #[test]
    fn the_fingerprint_is_sha256_of_the_text() {
        // sha256("abc\n")
        let abc = "sha256:edeaaff3f1774ad2888673770c6d64097e391bc362d7d6fb34982ddf0efd18cb";
        assert_eq!(fingerprint("abc\n"), abc);
        assert_eq!(fingerprint("abc\r\n"), abc);
        assert!(is_fingerprint(abc));
        assert!(!is_fingerprint("sha256:abc"));
        let text = format!("ruleset = x\nfingerprint = {abc}\n");
        assert_eq!(
            parse(&text).expect("parses").fingerprint.map(|f| f.text),
            Some(abc.to_string())
        );
        let errors = parse("ruleset = x\nfingerprint = md5:00\n").expect_err("not a fingerprint");
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn reports_every_problem_at_its_place() {
        let text = "rulset = my_variant\nmoves = s1 x9\noption a b = c\n";
        let errors = parse(text).expect_err("three problems");
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert_eq!(errors[0].hint.as_deref(), Some("Did you mean `ruleset`?"));
        let spans: Vec<&str> = errors
            .iter()
            .filter_map(|d| d.span.clone())
            .map(|s| &text[s])
            .collect();
        assert_eq!(spans, ["rulset", "x9", "option a b"]);
    }
}

//! Hostile input: every file in `tests/hostile/` is wrong, huge or adversarial, and `sow` must
//! answer each with a precise message and a non-zero exit code: never a panic, a hang, or a
//! silent wrong answer, and never a change to the file it was given.
//!
//! - `check/*.toml`: rulesets, run as `sow check FILE`;
//! - `replay/*.sow`: game records, run as `sow replay FILE`;
//! - `cli/*.args`: command lines, one argument a line after the first-line comment.
//!
//! Each snapshot is a transcript (the command, the input, the exit code, stdout, stderr), as
//! in `tests/cli.rs`. The first line of every fixture says what it tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Longest any hostile input may take: far above what a well-behaved run needs, far below a
/// hang.
const PATIENCE: Duration = Duration::from_secs(60);

/// Runs `sow` from the crate's root with `args` and no input, failing if it hangs.
fn sow(args: &[String]) -> Run {
    let child = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sow runs");
    let pid = child.id();
    // Output is read while the child runs (a full pipe would block it), on another thread so
    // that a hang can be noticed.
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(child.wait_with_output());
    });
    let out = match receive.recv_timeout(PATIENCE) {
        Ok(out) => out.expect("sow finishes"),
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("sow {args:?} hangs: still running after {PATIENCE:?}");
        }
    };
    let clean = |b: &[u8]| {
        let text = String::from_utf8_lossy(b)
            .replace(scratch().to_str().unwrap_or("\u{0}"), "[TMP]")
            .replace(root().to_str().unwrap_or("\u{0}"), "[ROOT]");
        shipped_list_filtered(&text)
    };
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: clean(&out.stdout),
        stderr: clean(&out.stderr),
    }
}

/// The list of shipped rulesets grows as rulesets are added; snapshots show it as `[LIST]`.
fn shipped_list_filtered(text: &str) -> String {
    const OPEN: &str = "(shipped: ";
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i + OPEN.len()]);
        rest = &rest[i + OPEN.len()..];
        match rest.find(')') {
            Some(j) => {
                out.push_str("[LIST]");
                rest = &rest[j..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The transcript of one run over `inputs`, checking the invariants every hostile input must
/// keep: no panic, a non-zero exit, a message, and the input files unchanged.
fn transcript(args: &[String], inputs: &[&str]) -> (Run, String) {
    let before: Vec<Vec<u8>> = inputs
        .iter()
        .map(|f| std::fs::read(root().join(f)).expect("fixture exists"))
        .collect();
    let run = sow(args);
    for (file, old) in inputs.iter().zip(&before) {
        let now = std::fs::read(root().join(file)).expect("fixture still exists");
        assert!(&now == old, "sow {args:?} modified {file}");
    }
    assert!(
        !run.stderr.contains("panicked") && run.code != 101,
        "sow {args:?} panicked:\n{}",
        run.stderr
    );
    let shown: Vec<String> = args
        .iter()
        .map(|a| {
            if a.contains(' ') || a.is_empty() {
                format!("'{a}'")
            } else {
                a.clone()
            }
        })
        .collect();
    let mut t = format!("$ sow {}\n", shown.join(" "));
    for file in inputs {
        let text = String::from_utf8_lossy(&std::fs::read(root().join(file)).unwrap_or_default())
            .into_owned();
        t.push_str(&format!("----- {file} -----\n{text}"));
        if !text.ends_with('\n') {
            t.push_str("\n----- (no newline at the end of the file) -----\n");
        }
    }
    t.push_str(&format!(
        "----- exit code: {} -----\n----- stdout -----\n{}----- stderr -----\n{}",
        run.code, run.stdout, run.stderr
    ));
    (run, t)
}

/// The first line of a fixture must say what it tests.
fn assert_described(file: &str) {
    let text = std::fs::read_to_string(root().join(file)).expect("fixture is text");
    assert!(
        text.starts_with("# ") && text.lines().next().is_some_and(|l| l.len() > 10),
        "{file}: the first line must be a comment saying what the fixture tests"
    );
}

#[test]
fn hostile_rulesets() {
    insta::glob!("hostile/check/*.toml", |path| {
        let file = relative(path);
        assert_described(&file);
        let (run, t) = transcript(&["check".into(), file.clone()], &[&file]);
        let said = format!("{}{}", run.stdout, run.stderr);
        let errors = said.contains("error:");
        assert!(
            errors || said.contains("warning:"),
            "{file}: every hostile ruleset draws a diagnostic"
        );
        // Each diagnostic has a place, except problems of the file as a whole.
        assert_eq!(run.code, i32::from(errors), "{file}");
        insta::assert_snapshot!(t);
    });
}

#[test]
fn hostile_records() {
    insta::glob!("hostile/replay/*.sow", |path| {
        let file = relative(path);
        assert_described(&file);
        let (run, t) = transcript(&["replay".into(), file.clone()], &[&file]);
        assert_eq!(
            run.code, 1,
            "{file}: a wrong record is input checked and wrong"
        );
        assert!(
            run.stdout.contains("error:") || run.stderr.contains("error:"),
            "{file}"
        );
        insta::assert_snapshot!(t);
    });
}

#[test]
fn hostile_command_lines() {
    insta::glob!("hostile/cli/*.args", |path| {
        let file = relative(path);
        assert_described(&file);
        let text = std::fs::read_to_string(path).expect("fixture is text");
        let args: Vec<String> = text.lines().skip(1).map(str::to_string).collect();
        let (run, t) = transcript(&args, &[]);
        assert!(
            run.code == 1 || run.code == 2,
            "{file}: exit 1 (wrong input) or 2 (usage), not {}",
            run.code
        );
        assert!(
            run.stdout.contains("error:") || run.stderr.contains("error:"),
            "{file}"
        );
        insta::assert_snapshot!(t);
    });
}

/// A ruleset with more clauses than the limit: generated, since a fixture of a thousand
/// clauses would make an unreadable snapshot.
#[test]
fn too_many_clauses_is_refused() {
    let mut text = String::from(
        "format = 1\nname = \"Many\"\n[board]\nrows = 2\nholes = 6\nseeds = 4\n[sowing]\ndirection = \"ccw\"\n\
         [end]\nno_move = { remaining = \"stay\", result = \"mover_loses\" }\n",
    );
    for i in 0..=sow::check::MAX_CLAUSES {
        text.push_str(&format!(
            "[[extra_turn]]\nname = \"x{i}\"\nwhen = 'seeds(last) == 1'\n"
        ));
    }
    let path = scratch().join("hostile_many_clauses.toml");
    std::fs::write(&path, &text).expect("scratch file written");
    let run = sow(&["check".into(), path.to_string_lossy().into_owned()]);
    assert_eq!(run.code, 1);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains("this ruleset has 1001 rule clauses; the limit is 1000"),
        "{said}"
    );
}

/// A record longer than the limit on moves: refused when the record is read, at the first
/// move past the limit.
#[test]
fn too_many_moves_is_refused() {
    let mut text = String::from("# too long\nruleset = kalah\n");
    for _ in 0..=sow::record::MAX_MOVES / 10 {
        text.push_str("moves = s1 n1 s1 n1 s1 n1 s1 n1 s1 n1\n");
    }
    let path = scratch().join("hostile_many_moves.sow");
    std::fs::write(&path, &text).expect("scratch file written");
    let run = sow(&["replay".into(), path.to_string_lossy().into_owned()]);
    assert_eq!(run.code, 1);
    let line = 2 + sow::record::MAX_MOVES / 10 + 1;
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains("error: the record holds more than 100000 moves, the limit")
            && said.contains(&format!("hostile_many_moves.sow:{line}:9")),
        "{said}"
    );
}

/// Huge and binary files: no panic, a message, a non-zero exit.
#[test]
fn binary_and_huge_files() {
    let binary = scratch().join("hostile_binary.toml");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x9f, 0x92, 0x96]).expect("written");
    let run = sow(&["check".into(), binary.to_string_lossy().into_owned()]);
    assert_eq!(run.code, 2, "not UTF-8: the file cannot be read as text");
    assert!(run.stderr.contains("error:") || run.stdout.contains("error:"));

    let record = scratch().join("hostile_binary.sow");
    std::fs::write(&record, [b'r', 0xff, b'\n', 0x00]).expect("written");
    let run = sow(&["replay".into(), record.to_string_lossy().into_owned()]);
    assert!(run.code == 1 || run.code == 2, "{}", run.code);
    assert!(!run.stderr.contains("panicked"));

    // One expression of 1 MB on one line: refused by the length limit, not parsed.
    let huge = scratch().join("hostile_huge_expression.toml");
    let text = format!(
        "format = 1\nname = \"Huge\"\n[board]\nrows = 2\nholes = 6\nseeds = 4\n[sowing]\ndirection = \"ccw\"\n\
         [[extra_turn]]\nname = \"x\"\nwhen = '{}own(last)'\n[end]\nno_move = {{ remaining = \"stay\", result = \"mover_loses\" }}\n",
        "own(last) or ".repeat(80_000)
    );
    std::fs::write(&huge, text).expect("written");
    let run = sow(&["check".into(), huge.to_string_lossy().into_owned()]);
    assert_eq!(run.code, 1);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains("the limit is 4096"),
        "{}",
        said.chars().take(300).collect::<String>()
    );
}

/// A move whose relay never stops must end promptly: the engine stops it at the documented
/// lap limit (or at its first repeat, if that comes first) and applies the endless-move ending.
#[test]
fn endless_relay_ends_promptly() {
    let file = "tests/hostile/engine/endless_relay.toml";
    assert_described(file);
    let run = sow(&["replay".into(), file.into(), "--moves".into(), "s1".into()]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
}

/// `--record` never overwrites a file, least of all the ruleset being played.
#[test]
fn play_record_never_overwrites_a_file() {
    let dir = std::env::temp_dir().join(format!("sow-hostile-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ruleset = dir.join("kalah.toml");
    let original = std::fs::read_to_string("rulesets/kalah.toml").expect("kalah");
    std::fs::write(&ruleset, &original).expect("copy");
    let path = ruleset.display().to_string();
    let args: Vec<String> = [
        "play", &path, "--south", "random", "--north", "random", "--seed", "1", "--record", &path,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let run = sow(&args);
    let after = std::fs::read_to_string(&ruleset).expect("still there");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(after, original, "the ruleset was overwritten");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("never overwrites") || run.stdout.contains("never overwrites"),
        "{}",
        run.stderr
    );
}

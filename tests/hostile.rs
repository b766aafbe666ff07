//! Hostile input: every file in `tests/hostile/` is wrong, huge or adversarial, and `sow` must
//! answer each with a precise message and a non-zero exit code: never a panic, a hang, or a
//! silent wrong answer, and never a change to the file it was given.
//!
//! - `check/*.toml`: rulesets, run as `sow check FILE`;
//! - `replay/*.sow`: game records, run as `sow replay FILE`;
//! - `cli/*.args`: command lines, one argument a line after the first-line comment;
//! - `accepted/*.args`: command lines whose input is odd but means something, which `sow`
//!   must answer with exit code 0 and what it means (a byte order mark, a set-up position
//!   with no move, names holding escape sequences, ...).
//!
//! Streams and signals that a fixture cannot hold (`/dev/full` as stdout, `/dev/zero` as
//! stdin, Ctrl-C) have tests of their own below.
//!
//! Each snapshot is a transcript (the command, the input, the exit code, stdout, stderr), as
//! in `tests/cli.rs`. The first line of every fixture says what it tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;

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
    sow_with(args, root(), Stdio::null(), Stdio::piped())
}

/// Runs `sow` in `dir` with the given stdin and stdout, failing if it hangs.
fn sow_with(args: &[String], dir: &Path, stdin: Stdio, stdout: Stdio) -> Run {
    let child = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .current_dir(dir)
        .stdin(stdin)
        .stdout(stdout)
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
        let mut text = String::from_utf8_lossy(b)
            .replace(scratch().to_str().unwrap_or("\u{0}"), "[TMP]")
            .replace(root().to_str().unwrap_or("\u{0}"), "[ROOT]");
        // A shipped ruleset's fingerprint changes whenever the ruleset does.
        for (name, ruleset) in sow::catalog::SHIPPED {
            let f = sow::record::fingerprint(ruleset);
            text = text.replace(&f, &format!("sha256:[FINGERPRINT OF {name}]"));
        }
        shipped_list_filtered(&text)
    };
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: clean(&out.stdout),
        stderr: clean(&out.stderr),
    }
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
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
            .replace('\u{feff}', "[BYTE ORDER MARK]");
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
    let text = text.trim_start_matches('\u{feff}');
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
        let errors = said.contains("error[");
        assert!(
            errors || said.contains("warning["),
            "{file}: every hostile ruleset draws a diagnostic"
        );
        // Each diagnostic has a place, except problems of the file as a whole.
        assert_eq!(run.code, i32::from(errors), "{file}");
        let json = sow(&[
            "--format".into(),
            "json".into(),
            "check".into(),
            file.clone(),
        ]);
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).into_owned();
        common::assert_expected(&file, &text, &json.stdout);
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
            ["error:", "error["]
                .iter()
                .any(|e| run.stdout.contains(e) || run.stderr.contains(e)),
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
            ["error:", "error["]
                .iter()
                .any(|e| run.stdout.contains(e) || run.stderr.contains(e)),
            "{file}"
        );
        insta::assert_snapshot!(t);
    });
}

#[test]
fn hostile_inputs_answered() {
    insta::glob!("hostile/accepted/*.args", |path| {
        let file = relative(path);
        assert_described(&file);
        let text = std::fs::read_to_string(path).expect("fixture is text");
        let args: Vec<String> = text.lines().skip(1).map(str::to_string).collect();
        // The files it names are shown with it.
        let inputs: Vec<&str> = args
            .iter()
            .map(String::as_str)
            .filter(|a| a.starts_with("tests/hostile/") && root().join(a).is_file())
            .collect();
        for f in &inputs {
            assert_described(f);
        }
        let (run, t) = transcript(&args, &inputs);
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        // Nothing the input holds reaches the terminal as a control character.
        assert!(
            !format!("{}{}", run.stdout, run.stderr)
                .chars()
                .any(|c| c.is_control() && c != '\n'),
            "{file}: a control character was printed"
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
        said.contains("This ruleset has 1001 rule clauses; the limit is 1000."),
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
        said.contains("error[E0408]: The record holds more than 100000 moves, the limit.")
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
    assert!(run.stderr.contains("error") || run.stdout.contains("error"));

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

/// A match whose rounds nobody can play, each start made new by a round-end effect that counts
/// them, must not run on for ever: play stops at the engine's limit on such rounds, with no
/// result.
#[test]
fn idle_rounds_stop_at_the_limit() {
    let file = "tests/hostile/engine/idle_rounds_counted.toml";
    assert_described(file);
    let run = sow(&strings(&[
        "replay", file, "--moves", "s1 n1", "--detail", "plies",
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Round 1 has the two moves; rounds 2 to the limit + 1 end at once; the next stops.
    let limit = sow::rules::MAX_IDLE_ROUNDS;
    let last = format!("round {} ends", limit + 1);
    assert!(run.stdout.contains(&last), "{}", run.stdout.len());
    assert!(
        !run.stdout.contains(&format!("round {} ends", limit + 2)),
        "past the limit"
    );
    let tail: String = run
        .stdout
        .lines()
        .rev()
        .take(6)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        tail.contains("limit on rounds in which nobody can move"),
        "{tail}"
    );
}

/// `--record` never overwrites a file, least of all the ruleset being played, and says so
/// before the game starts.
#[test]
fn play_record_never_overwrites_a_file() {
    let dir = std::env::temp_dir().join(format!("sow-hostile-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ruleset = dir.join("kalah.toml");
    let original = std::fs::read_to_string("rulesets/kalah.toml").expect("kalah");
    std::fs::write(&ruleset, &original).expect("copy");
    let path = ruleset.display().to_string();
    let args = strings(&[
        "play", &path, "--south", "random", "--north", "random", "--seed", "1", "--record", &path,
    ]);
    let run = sow(&args);
    let after = std::fs::read_to_string(&ruleset).expect("still there");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(after, original, "the ruleset was overwritten");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stdout.is_empty(),
        "refused before the game: {}",
        run.stdout
    );
    assert!(
        run.stderr
            .contains("exists already: sow never overwrites a file"),
        "{}",
        run.stderr
    );
}

/// Output that cannot be written is an error (exit 2, said on stderr), for every command and
/// both formats; never a panic, never exit 0.
#[test]
fn output_errors_are_errors() {
    let commands: &[&[&str]] = &[
        &["check", "kalah"],
        &["replay", "kalah", "--moves", "s1 n2"],
        &["simulate", "kalah", "--games", "3", "--seed", "1"],
        &["list"],
        &["schema"],
        &[
            "play", "kalah", "--south", "random", "--north", "random", "--seed", "1",
        ],
        &["--help"],
    ];
    for command in commands {
        for json in [false, true] {
            let mut args = strings(command);
            if json {
                args.insert(0, "--format".into());
                args.insert(1, "json".into());
            }
            let full = std::fs::File::create("/dev/full").expect("/dev/full");
            let run = sow_with(&args, root(), Stdio::null(), Stdio::from(full));
            assert_eq!(run.code, 2, "sow {args:?}: {}", run.stderr);
            assert!(
                run.stderr
                    .contains("error: cannot write the output: No space left on device"),
                "sow {args:?}: {}",
                run.stderr
            );
        }
    }
    // `explain` writes its text with `print!` until it uses the shared writer; its JSON
    // already goes through it.
    let full = std::fs::File::create("/dev/full").expect("/dev/full");
    let run = sow_with(
        &strings(&["--format", "json", "explain", "kalah"]),
        root(),
        Stdio::null(),
        Stdio::from(full),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// `play`'s prompt reads a line of at most 1024 bytes: an endless line (`/dev/zero`) is
/// refused after the limit, and the game is left unfinished.
#[test]
fn an_endless_prompt_line_is_read_up_to_the_limit() {
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let run = sow_with(
        &strings(&["play", "kalah"]),
        root(),
        Stdio::from(zero),
        Stdio::piped(),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("That line is longer than 1024 bytes, the limit for one entry"),
        "{}",
        run.stdout
    );
}

/// A line that is not UTF-8 at the prompt is answered as any wrong entry is, and the game
/// goes on.
#[test]
fn a_prompt_line_that_is_not_text_is_answered() {
    let script = scratch().join("hostile_not_utf8.txt");
    std::fs::write(&script, b"s\xff1\n1\nquit\n").expect("written");
    let input = std::fs::File::open(&script).expect("script");
    let run = sow_with(
        &strings(&["play", "kalah", "--seed", "1"]),
        root(),
        Stdio::from(input),
        Stdio::piped(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("that entry is not UTF-8 text, so it is not a move"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("ply 1: South plays s1"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("You left the game"), "{}", run.stdout);
}

/// A folder (or a file) named like a shipped ruleset does not hide it; a file of that name
/// is read when written as a path, and the bare name says which it took.
#[test]
fn a_shipped_name_is_never_hidden() {
    let dir = scratch().join("hostile_shadow");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("kalah")).expect("a folder named kalah");
    let run = sow_with(
        &strings(&["check", "kalah"]),
        &dir,
        Stdio::null(),
        Stdio::piped(),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("kalah (shipped): ok"), "{}", run.stdout);

    let other = dir.join("file");
    std::fs::create_dir_all(&other).expect("folder");
    std::fs::write(other.join("kalah"), "format = 1\n").expect("a file named kalah");
    let run = sow_with(
        &strings(&["check", "kalah"]),
        &other,
        Stdio::null(),
        Stdio::piped(),
    );
    assert!(
        run.stdout.contains(
            "`kalah` is the shipped ruleset; the file kalah is not read (write ./kalah to read it)"
        ),
        "{}",
        run.stdout
    );
    let run = sow_with(
        &strings(&["check", "./kalah"]),
        &other,
        Stdio::null(),
        Stdio::piped(),
    );
    assert_eq!(run.code, 1, "the file is read: {}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGINT, SIGTERM and SIGHUP during `play --record` leave a record of the moves played,
/// closed with a line saying so; sow exits as the signal would have it (128 + its number).
#[cfg(unix)]
#[test]
fn a_signal_keeps_the_record() {
    use std::io::{BufRead, BufReader, Write};
    for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let record = scratch().join(format!("hostile_signal_{signal}.sow"));
        let _ = std::fs::remove_file(&record);
        let path = record.display().to_string();
        let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
            .args(["play", "kalah", "--seed", "1", "--record", &path])
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("sow runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        // Play s1 and s2 (North answers each), and wait for the third prompt: the moves so
        // far are then in the record.
        stdin.write_all(b"1\n2\n").expect("moves sent");
        let mut prompts = 0;
        let mut line = Vec::new();
        while prompts < 3 {
            line.clear();
            let n = stdout.read_until(b':', &mut line).expect("output");
            assert!(n > 0, "sow ended before the third prompt");
            if String::from_utf8_lossy(&line).contains("to move (") {
                prompts += 1;
            }
        }
        let status = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let out = child.wait_with_output().expect("sow ends");
        assert_eq!(out.status.code(), Some(128 + number), "SIG{signal}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("Interrupted by SIG{signal}")),
            "{stderr}"
        );
        let written = std::fs::read_to_string(&record).expect("the record is kept");
        let plies: usize = written
            .lines()
            .filter_map(|l| l.strip_prefix("moves = "))
            .map(|m| m.split_whitespace().count())
            .sum();
        assert!(
            written.contains("\nmoves = s1 n") && plies >= 3,
            "{written}"
        );
        assert!(
            written.ends_with(&format!("# result: interrupted by SIG{signal} after ply {plies}; the moves above were played\n")),
            "{written}"
        );
        let replay = sow(&strings(&["replay", &path]));
        assert_eq!(replay.code, 0, "the record replays: {}", replay.stderr);
        let _ = std::fs::remove_file(&record);
    }
}

//! The `sow` command line, run as a user runs it: the built binary over the fixture files in
//! `tests/cli/` and the example records in `tests/records/`. Each snapshot is a transcript:
//! the command, its input files, then the exit code, stdout and stderr, so that a reviewer
//! sees cause and effect together. Absolute paths are filtered out; every random run has a
//! fixed seed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder for files the commands write (records).
fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `sow` from the crate's root with `args`, feeding `stdin` if given.
fn sow(args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sow runs");
    {
        let mut input = child.stdin.take().expect("stdin is piped");
        if let Some(text) = stdin {
            input.write_all(text.as_bytes()).expect("stdin written");
        }
        // Dropping `input` closes stdin: a session reads end-of-input after the script.
    }
    let out = child.wait_with_output().expect("sow finishes");
    let clean = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .replace(scratch().to_str().unwrap_or("\u{0}"), "[TMP]")
            .replace(root().to_str().unwrap_or("\u{0}"), "[ROOT]")
    };
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: clean(&out.stdout),
        stderr: clean(&out.stderr),
    }
}

/// The transcript of one run: the command, the files it reads, stdin, then what it did.
fn transcript(args: &[&str], inputs: &[&str], stdin: Option<&str>) -> (Run, String) {
    let run = sow(args, stdin);
    let shown: Vec<String> = args
        .iter()
        .map(|a| {
            let a = a.replace(scratch().to_str().unwrap_or("\u{0}"), "[TMP]");
            if a.contains(' ') || a.is_empty() {
                format!("'{a}'")
            } else {
                a
            }
        })
        .collect();
    let mut t = format!("$ sow {}\n", shown.join(" "));
    for file in inputs {
        let text = std::fs::read_to_string(root().join(file)).expect("fixture exists");
        t.push_str(&format!("----- {file} -----\n{text}"));
    }
    if let Some(text) = stdin {
        t.push_str(&format!("----- stdin -----\n{text}"));
    }
    t.push_str(&format!(
        "----- exit code: {} -----\n----- stdout -----\n{}----- stderr -----\n{}",
        run.code, run.stdout, run.stderr
    ));
    (run, t)
}

/// The moves of a game `sow --format json` wrote (`play` or `replay`), joined by spaces.
fn played(stdout: &str) -> String {
    let doc: serde_json::Value = serde_json::from_str(stdout).expect("one JSON document");
    (doc["plies"].as_array().expect("plies").iter())
        .filter_map(|p| p["move"].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn snapshot(name: &str, args: &[&str], inputs: &[&str], stdin: Option<&str>) -> Run {
    let (run, t) = transcript(args, inputs, stdin);
    insta::assert_snapshot!(name, t);
    run
}

/// The path of a fixture relative to the crate root, as the commands are given it.
fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

// ---- check ----

/// Every fixture is wrong in some way; those that say what they expect (`# expect: CODE
/// LINE:COLUMN` lines) get exactly that: each diagnostic once, in file order, and no other.
#[test]
fn check_fixtures() {
    insta::glob!("cli/check/*.toml", |path| {
        let file = relative(path);
        let (run, t) = transcript(&["check", &file], &[&file], None);
        let errors = run.stdout.contains("error[");
        assert!(errors || run.stdout.contains("warning["), "{file}");
        assert_eq!(run.code, i32::from(errors), "{file}");
        let json = sow(&["--format", "json", "check", &file], None);
        let text = std::fs::read_to_string(path).expect("fixture");
        common::assert_expected(&file, &text, &json.stdout);
        insta::assert_snapshot!(t);
    });
}

/// The same diagnostics in colour, as a terminal shows them (ANSI escapes shown as `␛`), and
/// `--color` and `NO_COLOR` obeyed.
#[test]
fn check_in_colour() {
    let f = "tests/cli/check/six_mistakes.toml";
    let run = sow(&["--color", "always", "check", f], None);
    assert!(run.stdout.contains("\u{1b}["), "coloured");
    insta::assert_snapshot!("check_colour", run.stdout.replace('\u{1b}', "␛"));
    let plain = sow(&["--color", "never", "check", f], None);
    assert!(!plain.stdout.contains('\u{1b}'));
    let strip = |s: &str| {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    };
    assert_eq!(
        strip(&run.stdout),
        plain.stdout,
        "colour changes nothing but colour"
    );
    let forced = |no_color: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_sow"));
        c.args(["check", f])
            .current_dir(root())
            .env("CLICOLOR_FORCE", "1");
        if no_color {
            c.env("NO_COLOR", "1");
        } else {
            c.env_remove("NO_COLOR");
        }
        String::from_utf8_lossy(&c.output().expect("sow runs").stdout).into_owned()
    };
    assert!(forced(false).contains('\u{1b}'), "auto colours when forced");
    assert!(!forced(true).contains('\u{1b}'), "NO_COLOR wins in auto");
}

/// `sow check -` reads the ruleset from standard input.
#[test]
fn check_standard_input() {
    let text =
        std::fs::read_to_string(root().join("tests/cli/check/six_mistakes.toml")).expect("fixture");
    let run = snapshot("check_stdin", &["check", "-"], &[], Some(&text));
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("--> <stdin>:"), "{}", run.stdout);
    let clean = std::fs::read_to_string(root().join("rulesets/kalah.toml")).expect("kalah");
    assert_eq!(sow(&["check", "-"], Some(&clean)).code, 0);
}

/// The README's tutorial ruleset with the six mistakes of a new user, and a file with a wrong
/// format, board and no [end]: every problem in one run.
#[test]
fn check_json_carries_codes_spans_and_labels() {
    let f = "tests/cli/check/duplicate_names.toml";
    let run = snapshot(
        "check_json_labels",
        &["--format", "json", "check", f],
        &[],
        None,
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let d = &doc["files"][0]["diagnostics"][0];
    assert_eq!(d["code"], "E0112");
    let labels = d["labels"].as_array().expect("labels");
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert_eq!(labels[1]["text"], "first named here");
}

#[test]
fn check_json_several_errors() {
    let f = "tests/cli/check/several_errors.toml";
    let run = snapshot(
        "check_json_several_errors",
        &["--format", "json", "check", f],
        &[],
        None,
    );
    assert_eq!(run.code, 1);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(doc["errors"], 6);
}

#[test]
fn check_json_syntax_in_expression() {
    let f = "tests/cli/check/syntax_in_expression.toml";
    let run = snapshot(
        "check_json_syntax_in_expression",
        &["--format", "json", "check", f],
        &[],
        None,
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    // The caret is on the lone `=` of `seeds(last) = 3`: line 16, column 60.
    assert_eq!(
        doc["files"][0]["diagnostics"][0]["start"],
        serde_json::json!({"line": 16, "column": 60})
    );
}

#[test]
fn check_shipped_rulesets_are_clean() {
    let run = snapshot(
        "check_shipped",
        &["check", "raja_pasu", "sadeqa_ii"],
        &[],
        None,
    );
    assert_eq!(run.code, 0);
}

#[test]
fn check_several_files_and_a_missing_one() {
    let run = snapshot(
        "check_several_files",
        &[
            "check",
            "tests/cli/check/warnings.toml",
            "tests/cli/check/type_error.toml",
            "no_such_ruleset.toml",
        ],
        &[],
        None,
    );
    assert_eq!(run.code, 2, "a file that cannot be read is an I/O error");
}

#[test]
fn check_deny_warnings() {
    let run = snapshot(
        "check_deny_warnings",
        &["check", "--deny-warnings", "tests/cli/check/warnings.toml"],
        &[],
        None,
    );
    assert_eq!(run.code, 1);
}

#[test]
fn check_unknown_option_value() {
    let run = snapshot(
        "check_unknown_option_value",
        &["check", "raja_pasu", "--option", "last_four=sowr"],
        &[],
        None,
    );
    assert_eq!(run.code, 1);
}

// ---- replay ----

#[test]
fn replay_fixtures() {
    insta::glob!("cli/replay/*.sow", |path| {
        let file = relative(path);
        let (run, t) = transcript(&["replay", &file], &[&file], None);
        let expect_ok = file.ends_with("ruleset_beside.sow");
        assert_eq!(run.code, if expect_ok { 0 } else { 1 }, "{file}");
        insta::assert_snapshot!(t);
    });
}

#[test]
fn replay_example_records() {
    insta::glob!("records/*.sow", |path| {
        let file = relative(path);
        let (run, t) = transcript(&["replay", &file], &[&file], None);
        assert_eq!(run.code, 0, "every example record replays: {file}");
        insta::assert_snapshot!(t);
    });
}

#[test]
fn replay_laps() {
    let f = "tests/records/raja_pasu_short.sow";
    snapshot("replay_laps", &["replay", f, "--detail", "laps"], &[], None);
}

#[test]
fn replay_moves_with_every_drop() {
    snapshot(
        "replay_drops",
        &[
            "replay",
            "sadeqa_ii",
            "--moves",
            "s6 n6",
            "--detail",
            "drops",
        ],
        &[],
        None,
    );
}

#[test]
fn replay_moves_illegal_on_the_command_line() {
    let run = snapshot(
        "replay_moves_illegal",
        &["replay", "sadeqa_ii", "--moves", "s6 n6 s5"],
        &[],
        None,
    );
    assert_eq!(run.code, 1);
}

#[test]
fn replay_concede_where_the_rules_have_none() {
    let run = snapshot(
        "replay_concede_refused",
        &["replay", "kalah", "--moves", "s1 concede"],
        &[],
        None,
    );
    assert_eq!(run.code, 1);
}

#[test]
fn replay_concede_json() {
    let f = "tests/scenarios/rulesets/concede.toml";
    let args = ["--format", "json", "replay", f, "--moves", "s1 concede"];
    let run = snapshot("replay_concede_json", &args, &[], None);
    assert_eq!(run.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let ply = &doc["plies"][1];
    assert_eq!(ply["move"], "concede");
    assert_eq!(ply["events"][0]["event"], "concede");
    assert_eq!(ply["events"][0]["player"], "north");
}

#[test]
fn replay_swap_json() {
    // The pie rule: North swaps at their first turn; the JSON ply names the move and the
    // event, and the position after it is the board turned round.
    let f = "tests/scenarios/rulesets/pie.toml";
    let args = ["--format", "json", "replay", f, "--moves", "s2 swap s1"];
    let run = snapshot("replay_swap_json", &args, &[], None);
    assert_eq!(run.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let ply = &doc["plies"][1];
    assert_eq!(ply["move"], "swap");
    assert_eq!(ply["events"][0]["event"], "swap");
    assert_eq!(ply["events"][0]["player"], "north");
}

#[test]
fn replay_race_json() {
    // The race at the laps' detail: each sowing's events follow a `racer` event naming it,
    // written only where that sowing's next shown event is another's than the last named
    // (not before every hidden drop); the race's end names who finished first and whose
    // sowing was cut short.
    let f = "tests/scenarios/rulesets/race.toml";
    let args = [
        "--format",
        "json",
        "replay",
        f,
        "--from",
        "S[2 2 2 1] N[2 2 2 3] race south",
        "--moves",
        "race",
        "--detail",
        "laps",
    ];
    let run = snapshot("replay_race_json", &args, &[], None);
    assert_eq!(run.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let events = doc["plies"][0]["events"].as_array().expect("events");
    assert_eq!(events[0]["event"], "race");
    assert_eq!(events[0]["starts"]["north"], "n4");
    assert_eq!(
        events[1],
        serde_json::json!({"event": "racer", "player": "south"})
    );
    assert_eq!(events[2]["event"], "lift");
    // No two racer events in a row: each is followed by an event of its sowing.
    let racers: Vec<usize> = (0..events.len())
        .filter(|&i| events[i]["event"] == "racer")
        .collect();
    assert!(racers.windows(2).all(|w| w[1] > w[0] + 1), "{events:?}");
    let over = events
        .iter()
        .find(|e| e["event"] == "race_over")
        .expect("race_over");
    assert_eq!(over["first"], "south");
    assert_eq!(over["cut_short"], serde_json::json!(["north"]));
}

#[test]
fn replay_race_chosen_json() {
    // Each racer's choice is a ply of its own, `race:s3` (a bare hole reads the same), and the
    // race then sows from the holes chosen.
    let f = "tests/scenarios/rulesets/race_chosen.toml";
    let args = [
        "--format",
        "json",
        "replay",
        f,
        "--moves",
        "race:s1 n4 race",
        "--detail",
        "plies",
    ];
    let run = snapshot("replay_race_chosen_json", &args, &[], None);
    assert_eq!(run.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let plies = doc["plies"].as_array().expect("plies");
    let first = |i: usize| plies[i]["events"][0].clone();
    assert_eq!(
        first(0),
        serde_json::json!({"event": "race_start", "ply": 1, "player": "south", "hole": "s1"})
    );
    assert_eq!(
        first(1),
        serde_json::json!({"event": "race_start", "ply": 2, "player": "north", "hole": "n4"})
    );
    assert_eq!(first(2)["event"], "race");
    assert_eq!(
        first(2)["starts"],
        serde_json::json!({"south": "s1", "north": "n4"})
    );
}

#[test]
fn replay_swap_refused_where_not_offered() {
    // South's swap at their second turn: the offer was North's, once.
    let f = "tests/scenarios/rulesets/pie.toml";
    let run = snapshot(
        "replay_swap_refused",
        &["replay", f, "--moves", "s2 n2 swap"],
        &[],
        None,
    );
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("offers `swap` once"), "{}", run.stderr);
}

#[test]
fn replay_from_a_position() {
    let run = snapshot(
        "replay_from",
        &[
            "replay",
            "sadeqa_ii",
            "--from",
            "S[1 0 1 0 1 2] N[2 1 5 2 1 2] south",
            "--moves",
            "s6",
            "--option",
            "endless=mover_loses",
        ],
        &[],
        None,
    );
    assert_eq!(run.code, 0);
}

#[test]
fn replay_json() {
    let f = "tests/records/raja_pasu_short.sow";
    let run = snapshot("replay_json", &["--format", "json", "replay", f], &[], None);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let ply = &doc["plies"][0];
    assert_eq!(ply["mover"], "south");
    assert_eq!(ply["move"], "s1");
    assert_eq!(
        ply["board"]["south"],
        serde_json::json!([3, 1, 0, 0, 0, 14, 0])
    );
    assert_eq!(ply["board"]["held"]["south"], 15);
}

#[test]
fn replay_json_illegal_move() {
    let f = "tests/cli/replay/illegal_move.sow";
    let run = snapshot(
        "replay_json_illegal_move",
        &["--format", "json", "replay", f],
        &[],
        None,
    );
    assert_eq!(run.code, 1);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(doc["error"]["ply"], 3);
    assert_eq!(doc["error"]["legal_moves"], serde_json::json!(["s2", "s6"]));
}

// ---- play ----

/// On a ring the holes are the ring's: the prompt, the help and a bare number say `r`, and a
/// move of Sat Gol's is forced once the first is made (`r1`, then `help`, `9` that is no hole,
/// and `7`, the one legal move then).
#[test]
fn play_on_a_ring() {
    snapshot(
        "play_ring",
        &[
            "play", "sat_gol", "--south", "human", "--north", "random", "--seed", "3",
        ],
        &[],
        Some("1\nhelp\n9\n7\n"),
    );
}

#[test]
fn play_scripted_session() {
    // South is a person fed through stdin: an illegal opening (SQ-6 allows only s6), a typo,
    // a hole that does not exist, `help`, then moves (one of them empty, one on the wrong
    // side); the input then ends.
    let record = scratch().join("play_session.sow");
    // sow never overwrites a record: start from no file.
    let _ = std::fs::remove_file(&record);
    let record = record.to_str().expect("utf-8 path");
    let script = "s3\nsx\ns9\nhelp\n6\ns5\nn2\n2\n3\n";
    let run = snapshot(
        "play_session",
        &[
            "play",
            "sadeqa_ii",
            "--south",
            "human",
            "--north",
            "random",
            "--seed",
            "7",
            "--record",
            record,
        ],
        &[],
        Some(script),
    );
    assert_eq!(run.code, 0, "the end of the input ends the session cleanly");
    let written = std::fs::read_to_string(record).expect("record written");
    // The fingerprint changes with the shipped ruleset: checked here, filtered in the snapshot.
    let fingerprint =
        sow::record::fingerprint(sow::catalog::shipped("sadeqa_ii").expect("shipped"));
    assert!(
        written.contains(&format!("fingerprint = {fingerprint}\n")),
        "{written}"
    );
    let written = written.replace(&fingerprint, "[FINGERPRINT]");
    insta::assert_snapshot!("play_session_record", written);
    // The record replays.
    let replay = sow(&["replay", record], None);
    assert_eq!(replay.code, 0, "{}", replay.stderr);
}

#[test]
fn play_json_session_with_quit() {
    let run = snapshot(
        "play_json_quit",
        &[
            "--format",
            "json",
            "play",
            "sadeqa_ii",
            "--south",
            "greedy",
            "--north",
            "human",
            "--seed",
            "2",
        ],
        &[],
        Some("n5\nquit\n"),
    );
    assert_eq!(run.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(doc["ended_by"], "quit");
}

#[test]
fn play_computers_json() {
    let run = snapshot(
        "play_computers_json",
        &[
            "--format",
            "json",
            "play",
            "sadeqa_ii",
            "--south",
            "random",
            "--north",
            "greedy",
            "--seed",
            "4",
        ],
        &[],
        None,
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(doc["finished"], true);
}

#[test]
fn play_unknown_option_value() {
    let run = snapshot(
        "play_unknown_option_value",
        &["play", "raja_pasu", "--option", "last_four=nobody"],
        &[],
        None,
    );
    assert_eq!(run.code, 1);
}

#[test]
fn play_unknown_option_name_json() {
    let run = snapshot(
        "play_unknown_option_name_json",
        &[
            "--format",
            "json",
            "play",
            "raja_pasu",
            "--option",
            "lastfour=none",
        ],
        &[],
        None,
    );
    assert_eq!(run.code, 1);
}

// ---- explain, simulate, list, schema ----

/// Every shipped ruleset told back: each snapshot is read against the game's rules file.
#[test]
fn explain_every_shipped_ruleset() {
    for (name, _) in sow::catalog::SHIPPED {
        let run = snapshot(&format!("explain@{name}"), &["explain", name], &[], None);
        assert_eq!(run.code, 0, "{name}");
        assert!(run.stderr.is_empty(), "{name}: {}", run.stderr);
    }
}

/// A shipped ruleset read from its file quotes its rules file as its name does; a copy that
/// differs from it does not.
#[test]
fn explain_quotes_the_rules_file_of_a_shipped_file() {
    let by_name = sow(&["explain", "kalah"], None);
    let by_path = sow(&["explain", "rulesets/kalah.toml"], None);
    assert!(by_path.stdout.contains("  rules:   docs/rules/kalah.md\n"));
    assert!(
        by_path
            .stdout
            .contains("  > KA-5: A last seed in an empty hole of your own")
    );
    let body = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("  file:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&by_name.stdout), body(&by_path.stdout));
    let copy = scratch().join("kalah_copy.toml");
    let text = std::fs::read_to_string(root().join("rulesets/kalah.toml")).expect("kalah");
    std::fs::write(
        &copy,
        text.replace("name = \"Kalah\"", "name = \"Kalah, mine\""),
    )
    .expect("written");
    let mine = sow(&["explain", copy.to_str().expect("a path")], None);
    assert_eq!(mine.code, 0, "{}", mine.stderr);
    assert!(!mine.stdout.contains("rules:") && !mine.stdout.contains("> KA-"));
    assert!(
        mine.stdout
            .contains("Extra turn: \"last seed in own store\" [KA-4]")
    );
}

/// Fixtures that each show one way of writing a clause told back in English.
#[test]
fn explain_fixtures() {
    insta::glob!("cli/explain/*.toml", |path| {
        let file = relative(path);
        let (run, t) = transcript(&["explain", &file], &[&file], None);
        assert_eq!(run.code, 0, "{file}");
        insta::assert_snapshot!(t);
    });
}

/// The language's moves with choices, variables and sowing hooks, told back: the lifted part of
/// a hole, a relay from a named hole that turns the direction, captured seeds sown again from a
/// named hole with the capturing seed, and variables with their effects.
#[test]
fn explain_choices_and_hooks() {
    for name in [
        "choices",
        "hooks_lift",
        "hooks_relay",
        "hooks_relay_hole",
        "hooks_resow",
    ] {
        let file = format!("tests/scenarios/rulesets/{name}.toml");
        let run = snapshot(&format!("explain_{name}"), &["explain", &file], &[], None);
        assert_eq!(run.code, 0, "{file}");
    }
}

#[test]
fn explain_sadeqa_ii_with_options() {
    snapshot(
        "explain_sadeqa_ii",
        &[
            "explain",
            "sadeqa_ii",
            "--option",
            "opening=starter",
            "--option",
            "empty_row=at_once",
        ],
        &[],
        None,
    );
}

#[test]
fn explain_json() {
    let run = snapshot(
        "explain_json",
        &[
            "--format",
            "json",
            "explain",
            "tests/cli/check/warnings.toml",
        ],
        &[],
        None,
    );
    assert_eq!(run.code, 0);
}

#[test]
fn simulate_text() {
    let run = snapshot(
        "simulate_raja_pasu",
        &["simulate", "raja_pasu", "--games", "200", "--seed", "1"],
        &[],
        None,
    );
    assert_eq!(run.code, 0);
}

#[test]
fn simulate_json_greedy() {
    let run = snapshot(
        "simulate_sadeqa_ii_json",
        &[
            "--format",
            "json",
            "simulate",
            "sadeqa_ii",
            "--games",
            "300",
            "--seed",
            "1",
            "--south",
            "greedy",
        ],
        &[],
        None,
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(doc["games"], 300);
}

/// Splits a suggested command as a shell would: words, and single-quoted strings whole.
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.trim().chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => (word.push(c), any = true).0,
        }
    }
    if any {
        words.push(word);
    }
    words
}

/// A long game's example is replayed from a set-up position shortly before it, and the
/// command printed shows what it says: Lamosh's first endless move (ply 380 of a match) and
/// first cycle (ply 205), each from a position a few plies before.
#[test]
fn simulate_replays_a_long_example_from_a_position() {
    let run = sow(
        &["simulate", "lamosh", "--games", "24", "--seed", "1"],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    for (heading, shows) in [
        ("endless moves", "endless move"),
        ("cycles", "cycle: the position after"),
    ] {
        let at = (lines.iter())
            .position(|l| l.starts_with(heading))
            .expect(heading);
        let command = shell_words(lines.get(at + 1).expect("a command"));
        assert_eq!(
            command.first().map(String::as_str),
            Some("sow"),
            "{command:?}"
        );
        assert!(command.iter().any(|w| w == "--from"), "{command:?}");
        let moves = command
            .iter()
            .skip_while(|w| *w != "--moves")
            .nth(1)
            .expect("moves");
        assert!(moves.split(' ').count() <= 40, "{moves}");
        let args: Vec<&str> = command.iter().skip(1).map(String::as_str).collect();
        let replay = sow(&args, None);
        assert_eq!(replay.code, 0, "{}", replay.stderr);
        assert!(
            replay.stdout.contains(shows),
            "{heading}: {}",
            replay.stdout
        );
    }
}

/// Games stopped before play began (the players still arranging their seeds) are told apart
/// from games stopped in play, in text and JSON.
#[test]
fn simulate_tells_games_that_never_began() {
    let file = "tests/cli/simulate/arrange_forever.toml";
    let args = [
        "simulate",
        file,
        "--games",
        "20",
        "--seed",
        "1",
        "--max-plies",
        "300",
    ];
    let run = sow(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "unfinished after 300 plies 20 (20 still arranging their seeds, play not begun)"
        ),
        "{}",
        run.stdout
    );
    let mut json = vec!["--format", "json"];
    json.extend(args);
    let run = sow(&json, None);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(doc["results"]["unfinished_arranging"], 20, "{doc}");
    // Kalah has no arrangement: none of its games is counted so.
    let run = sow(
        &[
            "--format",
            "json",
            "simulate",
            "kalah",
            "--games",
            "5",
            "--max-plies",
            "3",
        ],
        None,
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(doc["results"]["unfinished"], 5, "{doc}");
    assert_eq!(doc["results"]["unfinished_arranging"], 0, "{doc}");
}

/// A round's start effects are counted, the first round's too (made as the game starts): once
/// for each player in each game of one round.
#[test]
fn simulate_counts_the_first_rounds_start_effects() {
    let file = "tests/cli/simulate/round_start_once.toml";
    let run = sow(
        &[
            "--format", "json", "simulate", file, "--games", "30", "--seed", "1",
        ],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let began = (doc["clauses"].as_array().expect("clauses").iter())
        .find(|c| c["name"] == "began")
        .expect("the effect's row");
    assert_eq!(began["fired"], 60, "{began}");
}

/// The laps a move are counted over the moves that sowed: arrangement plies (Makonn) and
/// passes (Kiuthi) sow no lap and would pull the mean below one.
#[test]
fn simulate_counts_laps_over_the_moves_that_sowed() {
    for name in ["makonn", "kiuthi"] {
        let run = sow(
            &[
                "--format", "json", "simulate", name, "--games", "20", "--seed", "3",
            ],
            None,
        );
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
        let mean = doc["laps_per_move"]["mean"].as_f64().expect("a mean");
        assert!(mean >= 1.0, "{name}: {mean} laps a move");
    }
}

#[test]
fn simulate_does_not_depend_on_threads() {
    let args = |t: &'static str| {
        [
            "--format",
            "json",
            "simulate",
            "raja_pasu",
            "--games",
            "60",
            "--seed",
            "9",
            "--threads",
            t,
        ]
    };
    let one = sow(&args("1"), None);
    let two = sow(&args("3"), None);
    assert_eq!(one.code, 0);
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn simulate_example_replays_the_endless_move() {
    // The printed command must show what it says it shows.
    let run = sow(
        &["simulate", "sadeqa_ii", "--games", "300", "--seed", "1"],
        None,
    );
    let line = run
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("sow replay"))
        .expect("an endless move example");
    let moves = line.split('\'').nth(1).expect("quoted moves");
    let replay = sow(&["replay", "sadeqa_ii", "--moves", moves], None);
    assert_eq!(replay.code, 0);
    assert!(replay.stdout.contains("endless move"), "{}", replay.stdout);
}

#[test]
fn list() {
    snapshot("list", &["list"], &[], None);
    snapshot("list_json", &["--format", "json", "list"], &[], None);
}

#[test]
fn schema_is_the_library_schema() {
    let run = sow(&["schema"], None);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, sow::schema::json());
    let head: String = run
        .stdout
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect();
    insta::assert_snapshot!("schema_head", head);
}

// ---- usage ----

#[test]
fn usage_errors() {
    let run = snapshot("usage_missing_argument", &["replay"], &[], None);
    assert_eq!(run.code, 2);
    let run = snapshot("usage_unknown_ruleset", &["play", "raja_pasuu"], &[], None);
    assert_eq!(run.code, 2);
    let run = snapshot(
        "usage_unknown_ruleset_json",
        &["--format", "json", "explain", "no_such"],
        &[],
        None,
    );
    assert_eq!(run.code, 2);
    let run = snapshot(
        "usage_bad_option_syntax",
        &["play", "raja_pasu", "--option", "last_four"],
        &[],
        None,
    );
    assert_eq!(run.code, 2);
}

#[test]
fn help() {
    snapshot("help", &["--help"], &[], None);
    snapshot("help_replay", &["replay", "--help"], &[], None);
}

// ---- records ----

/// A record names its ruleset by a path from the record's own folder, so that it replays
/// from anywhere; it carries the ruleset's fingerprint.
#[test]
fn play_record_names_the_ruleset_from_its_folder() {
    let base = scratch().join("record_paths");
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("rules")).expect("folder");
    std::fs::create_dir_all(base.join("games")).expect("folder");
    let ruleset = base.join("rules/my_kalah.toml");
    let text = std::fs::read_to_string(root().join("rulesets/kalah.toml")).expect("kalah");
    std::fs::write(&ruleset, &text).expect("copied");
    let record = base.join("games/g.sow");
    let run = sow(
        &[
            "play",
            ruleset.to_str().expect("utf-8"),
            "--south",
            "random",
            "--north",
            "random",
            "--seed",
            "5",
            "--record",
            record.to_str().expect("utf-8"),
        ],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = std::fs::read_to_string(&record).expect("record written");
    assert!(
        written.contains("\nruleset = ../rules/my_kalah.toml\n"),
        "{written}"
    );
    assert!(
        written.contains(&format!(
            "\nfingerprint = {}\n",
            sow::record::fingerprint(&text)
        )),
        "{written}"
    );
    // Replayed from another folder, the record finds its ruleset; changed, it warns.
    let replay = |dir: &Path| {
        Command::new(env!("CARGO_BIN_EXE_sow"))
            .args(["replay", record.to_str().expect("utf-8")])
            .current_dir(dir)
            .output()
            .expect("sow runs")
    };
    let out = replay(&base.join("rules"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(
        &ruleset,
        text.replace("name = \"Kalah\"", "name = \"Kalah, changed\""),
    )
    .expect("changed");
    let out = replay(&base);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning[W0006]: The ruleset has changed since this record was made"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// The result given at the end of a match is the final score of the trace's `game over`
/// line, not the reserves left after the last refill.
#[test]
fn play_result_is_the_final_score() {
    let record = scratch().join("play_result.sow");
    let _ = std::fs::remove_file(&record);
    let run = sow(
        &[
            "play",
            "pallankuli",
            "--south",
            "random",
            "--north",
            "random",
            "--seed",
            "3",
            "--record",
            record.to_str().expect("utf-8"),
        ],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let over = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("game over: "))
        .expect("the game ends");
    // `game over: North wins (South 33, North 51)` -> `North wins (South 33, North 51)`.
    let written = std::fs::read_to_string(&record).expect("record written");
    assert!(
        written.ends_with(&format!("# result: {over}\n")),
        "{over}\n{written}"
    );
    assert!(
        run.stdout.contains(&format!("Result: {over}.")),
        "{}",
        run.stdout
    );
}

/// A move stopped at the engine's lap limit (a million laps) is reported as such, not as a
/// proven endless move, and the replay `simulate` suggests for it shows it a ply a line.
#[test]
fn simulate_suggests_a_short_replay_of_a_long_move() {
    let run = sow(
        &["simulate", "sadeqa_iii", "--games", "100", "--seed", "1"],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("endless moves  none"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("1 move stopped at 1000000 laps without a repeat (not proven endless)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("stopped by a safety limit with no result 1"),
        "{}",
        run.stdout
    );
    let line = run
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("sow replay"))
        .expect("a lap-limit example");
    assert!(line.ends_with("--detail plies"), "{line}");
    let moves = line.split('\'').nth(1).expect("quoted moves");
    let replay = sow(
        &[
            "replay",
            "sadeqa_iii",
            "--moves",
            moves,
            "--detail",
            "plies",
        ],
        None,
    );
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    assert!(replay.stdout.contains("lap limit"), "{}", replay.stdout);
    assert!(replay.stdout.lines().count() < 100, "{}", replay.stdout);
}

// ---- players and analyze ----

#[test]
fn analyze_text() {
    let run = snapshot(
        "analyze_kalah",
        &[
            "analyze",
            "kalah",
            "--games",
            "200",
            "--seed",
            "1",
            "--south",
            "alphabeta:depth=2",
            "--north",
            "greedy",
            "--alternate",
        ],
        &[],
        None,
    );
    assert_eq!(run.code, 0);
}

#[test]
fn analyze_sweep() {
    let run = snapshot(
        "analyze_sweep_kalah",
        &[
            "analyze",
            "kalah",
            "--sweep=seeds,sweep",
            "--games",
            "100",
            "--seed",
            "1",
            "--south",
            "greedy",
            "--north",
            "random",
        ],
        &[],
        None,
    );
    assert_eq!(run.code, 0);
}

/// A match: rounds with their spread, matches ended by their rules.
#[test]
fn analyze_a_match() {
    let run = snapshot(
        "analyze_raja_pasu",
        &[
            "analyze",
            "raja_pasu",
            "--games",
            "40",
            "--seed",
            "5",
            "--south",
            "greedy",
            "--north",
            "greedy",
            "--opening",
            "2",
        ],
        &[],
        None,
    );
    assert_eq!(run.code, 0);
}

#[test]
fn analyze_json_does_not_depend_on_threads() {
    let args = |t: &'static str| {
        [
            "--format",
            "json",
            "analyze",
            "kalah",
            "--sweep=sweep,empty_capture",
            "--combine",
            "--games",
            "40",
            "--seed",
            "2",
            "--south",
            "alphabeta:depth=2",
            "--north",
            "mcts:playouts=30",
            "--opening",
            "2",
            "--threads",
            t,
        ]
    };
    let one = sow(&args("1"), None);
    let three = sow(&args("3"), None);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(one.stdout, three.stdout);
    let doc: serde_json::Value = serde_json::from_str(&one.stdout).expect("one JSON document");
    let readings = doc["readings"].as_array().expect("readings");
    // Every combination of two options of two values, the reference first.
    assert_eq!(readings.len(), 4);
    assert_eq!(readings[0]["changed"], serde_json::json!({}));
    assert_eq!(
        readings[0]["options"],
        serde_json::json!({ "sweep": "counted", "empty_capture": "no" })
    );
    for r in readings {
        assert_eq!(r["games"], 40);
        let results = &r["results"];
        let total: u64 = [
            "south_wins",
            "north_wins",
            "draws",
            "no_result",
            "unfinished",
        ]
        .iter()
        .map(|k| results[k]["count"].as_u64().expect("a count"))
        .sum();
        assert_eq!(total, 40);
        let ci = results["south_wins"]["ci95"]
            .as_array()
            .expect("an interval");
        let rate = results["south_wins"]["rate"].as_f64().expect("a rate");
        assert!(ci[0].as_f64().expect("low") <= rate && rate <= ci[1].as_f64().expect("high"));
        assert!(r["differs_from_reference"]["plies"].is_boolean());
        let endings: u64 = (r["endings"].as_array().expect("endings").iter())
            .map(|e| e["count"].as_u64().expect("a count"))
            .sum();
        assert_eq!(endings, 40);
    }
}

#[test]
fn analyze_writes_every_game() {
    let path = scratch().join("analyze_games.jsonl");
    let _ = std::fs::remove_file(&path);
    let file = path.to_str().expect("a path");
    let args = [
        "analyze",
        "raja_pasu",
        "--games",
        "12",
        "--seed",
        "3",
        "--south",
        "alphabeta:depth=2",
        "--north",
        "random",
        "--alternate",
        "--games-out",
        file,
    ];
    let run = sow(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("One line per game written to [TMP]/analyze_games.jsonl.")
    );
    let text = std::fs::read_to_string(&path).expect("written");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 12);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["game"], i);
        assert_eq!(line["seed"], 3 + i);
        let (south, north) = if i % 2 == 0 {
            ("alphabeta:depth=2", "random")
        } else {
            ("random", "alphabeta:depth=2")
        };
        assert_eq!(
            (line["south"].as_str(), line["north"].as_str()),
            (Some(south), Some(north))
        );
        // The moves replay to the same end.
        let moves = line["moves"].as_str().expect("moves");
        let replay = sow(
            &["--format", "json", "replay", "raja_pasu", "--moves", moves],
            None,
        );
        let doc: serde_json::Value = serde_json::from_str(&replay.stdout).expect("a replay");
        let winner = match line["result"].as_str() {
            Some("south_wins") => serde_json::json!("south"),
            Some("north_wins") => serde_json::json!("north"),
            _ => serde_json::Value::Null,
        };
        assert_eq!(doc["status"]["winner"], winner, "game {i}");
        assert_eq!(doc["status"]["round"], line["rounds"], "game {i}");
        assert_eq!(
            doc["plies"].as_array().map(Vec::len),
            line["plies"].as_u64().map(|n| n as usize)
        );
    }
    // The file is not overwritten without --force.
    let again = sow(&args, None);
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("already exists; give --force"),
        "{}",
        again.stderr
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_eq!(sow(&forced, None).code, 0);
}

/// `sow play` between two computers plays the game analyze counted first with the same seed.
#[test]
fn play_plays_the_game_analyze_counted() {
    let path = scratch().join("analyze_one.jsonl");
    let _ = std::fs::remove_file(&path);
    let players = [
        "--south",
        "alphabeta:nodes=300",
        "--north",
        "mcts:playouts=40",
    ];
    let mut args = vec!["analyze", "kalah", "--games", "1", "--seed", "11"];
    args.extend(players);
    args.extend(["--games-out", path.to_str().expect("a path")]);
    assert_eq!(sow(&args, None).code, 0);
    let line: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
    let mut play = vec!["--format", "json", "play", "kalah", "--seed", "11"];
    play.extend(players);
    let run = sow(&play, None);
    assert_eq!(Some(played(&run.stdout).as_str()), line["moves"].as_str());
}

/// Where the mover chooses the direction, the computer players' moves name it: analyze's
/// games replay move for move, and `sow play` between the same players plays the same game.
#[test]
fn search_players_choose_directions_on_the_command_line() {
    let ruleset = root().join("tests/scenarios/rulesets/choices.toml");
    let ruleset = ruleset.to_str().expect("a path");
    let path = scratch().join("analyze_choices.jsonl");
    let _ = std::fs::remove_file(&path);
    let players = [
        "--south",
        "alphabeta:depth=3",
        "--north",
        "mcts:playouts=30",
    ];
    let mut args = vec!["analyze", ruleset, "--games", "4", "--seed", "2"];
    args.extend(players);
    args.extend([
        "--max-plies",
        "200",
        "--games-out",
        path.to_str().expect("a path"),
    ]);
    let run = sow(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&path).expect("written");
    for (i, line) in text.lines().enumerate() {
        let line: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let moves = line["moves"].as_str().expect("moves");
        assert!(
            moves
                .split(' ')
                .all(|m| m == "pass" || m.ends_with(":cw") || m.ends_with(":ccw")),
            "game {i}: {moves}"
        );
        let replay = sow(
            &["--format", "json", "replay", ruleset, "--moves", moves],
            None,
        );
        assert_eq!(replay.code, 0, "game {i}: {}", replay.stderr);
        if i == 0 {
            let mut play = vec!["--format", "json", "play", ruleset, "--seed", "2"];
            play.extend(players);
            let run = sow(&play, None);
            assert_eq!(played(&run.stdout), moves);
        }
    }
}

#[test]
fn analyze_refusals() {
    let run = snapshot(
        "analyze_sweep_unknown_option",
        &["analyze", "kalah", "--sweep=seed,sweep"],
        &[],
        None,
    );
    assert_eq!(run.code, 2);
    let run = snapshot(
        "analyze_bad_player",
        &["analyze", "kalah", "--south", "alphabeta:dept=3"],
        &[],
        None,
    );
    assert_eq!(run.code, 2);
    let refused = |args: &[&str], message: &str| {
        let run = sow(args, None);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
    };
    refused(
        &[
            "analyze",
            "tests/scenarios/rulesets/hooks_relay_hole.toml",
            "--sweep",
        ],
        "has no options, so there is nothing to sweep",
    );
    refused(
        &[
            "analyze",
            "kalah",
            "--sweep=sweep",
            "--option",
            "sweep=counted",
        ],
        "`sweep` is both set by --option and swept by --sweep",
    );
    refused(
        &["analyze", "kalah", "--sweep=sweep,sweep"],
        "--sweep names `sweep` twice",
    );
    refused(&["analyze", "kalah", "--combine"], "--sweep");
    refused(
        &["analyze", "kalah", "--north", "human"],
        "only `sow play` asks a person",
    );
    refused(
        &["simulate", "kalah", "--north", "mcts:playouts=0"],
        "playouts must be a whole number",
    );
    refused(
        &["analyze", "kalah", "--games", "0"],
        "--games must be at least 1",
    );
    refused(
        &["play", "kalah", "--north", "greedy:depth=1"],
        "`greedy` takes no settings",
    );
}

#[test]
fn simulate_takes_the_search_players() {
    let run = snapshot(
        "simulate_search_players",
        &[
            "simulate",
            "kalah",
            "--games",
            "20",
            "--seed",
            "1",
            "--south",
            "alphabeta:depth=3",
            "--north",
            "mcts:playouts=50",
        ],
        &[],
        None,
    );
    assert_eq!(run.code, 0);
}

/// hint, undo, history, score and help at the prompt.
#[test]
fn play_prompt_commands() {
    let run = snapshot(
        "play_prompt_commands",
        &[
            "play",
            "kalah",
            "--north",
            "alphabeta:depth=2",
            "--hint",
            "alphabeta:depth=5",
            "--seed",
            "3",
        ],
        &[],
        Some("hint\n3\nhistory\nscore\nundo\nhistory\nundo\n1\nhint\nhelp\nquit\n"),
    );
    assert_eq!(run.code, 0);
}

/// Undo rewrites the record: it holds the moves still played.
#[test]
fn undo_rewrites_the_record() {
    let path = scratch().join("undo.sow");
    let _ = std::fs::remove_file(&path);
    let run = sow(
        &[
            "play",
            "kalah",
            "--north",
            "greedy",
            "--seed",
            "3",
            "--record",
            path.to_str().expect("a path"),
        ],
        Some("3\n1\nundo\n2\nquit\n"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let record = std::fs::read_to_string(&path).expect("a record");
    assert!(record.contains("\nmoves = s3 s2 n5\n# result:"), "{record}");
    let replay = sow(&["replay", path.to_str().expect("a path")], None);
    assert_eq!(replay.code, 0);
}

/// In a match, the running score at each new round.
#[test]
fn play_shows_the_running_score_of_a_match() {
    let run = sow(
        &[
            "play",
            "raja_pasu",
            "--south",
            "alphabeta:depth=2",
            "--north",
            "greedy",
            "--seed",
            "2",
        ],
        None,
    );
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .contains("  match score in round 2: rounds won South 1, North 0; seeds South"),
        "{}",
        run.stdout
    );
}

// ---- new, completions, man ----

/// `sow new` writes a starter that checks clean, with the schema its first line names, and
/// never overwrites a file.
#[test]
fn new_writes_a_starter_with_its_schema() {
    let dir = scratch().join("new_starter");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("folder");
    let target = dir.join("bao_la_kiswahili");
    let target = target.to_str().expect("utf-8");
    let run = sow(&["new", target], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = std::fs::read_to_string(dir.join("bao_la_kiswahili.toml")).expect("written");
    assert!(
        written.starts_with("#:schema ./ruleset.schema.json\n"),
        "{written}"
    );
    assert!(written.contains("name = \"Bao la kiswahili\""), "{written}");
    let schema = std::fs::read_to_string(dir.join("ruleset.schema.json")).expect("schema");
    assert_eq!(schema, sow::schema::json());
    let file = format!("{target}.toml");
    assert_eq!(sow(&["check", &file], None).code, 0);
    let again = sow(&["new", target], None);
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("sow never overwrites a file"),
        "{}",
        again.stderr
    );
    let missing = sow(&["new", "no/such/folder/game"], None);
    assert_eq!(missing.code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn completions_and_manual_pages() {
    for shell in ["bash", "zsh", "fish"] {
        let run = sow(&["completions", shell], None);
        assert_eq!(run.code, 0, "{shell}");
        assert!(
            run.stdout.contains("check") && run.stdout.contains("color"),
            "{shell}"
        );
    }
    let man = sow(&["man"], None);
    assert_eq!(man.code, 0);
    assert!(
        man.stdout.contains(".TH sow"),
        "{}",
        &man.stdout[..man.stdout.len().min(200)]
    );
    let dir = scratch().join("man_pages");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("folder");
    let run = sow(&["man", "--output", dir.to_str().expect("utf-8")], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.join("sow.1").is_file() && dir.join("sow-check.1").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explain_a_code() {
    let run = snapshot("explain_code", &["explain", "--code", "E0305"], &[], None);
    assert_eq!(run.code, 0);
    let run = snapshot(
        "explain_code_unknown",
        &["explain", "--code", "E0350"],
        &[],
        None,
    );
    assert_eq!(run.code, 2);
}

/// Numbers known when the game starts (`holes`, arithmetic on it) may stand in a list after
/// `in`; values that change during play may not.
#[test]
fn constants_in_a_list_after_in() {
    let base = std::fs::read_to_string(root().join("rulesets/kalah.toml")).expect("kalah");
    let ruleset =
        |when: &str| format!("{base}\n[[extra_turn]]\nname = \"listed\"\nwhen = '{when}'\n");
    let run = sow(
        &["check", "-"],
        Some(&ruleset(
            "seeds(last) in [1, holes, holes - 1] and own(last)",
        )),
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    let run = sow(
        &["check", "-"],
        Some(&ruleset("seeds(last) in [1, seeds(origin)]")),
    );
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("error[E0315]"), "{}", run.stdout);
}

/// An arrangement before play in JSON: each seed placed is a ply of its own, with its move
/// word, its events (`pick`, `put`, the capture it makes, `arranged` when a player's
/// arrangement ends) and the board after it.
#[test]
fn replay_json_arrangement() {
    let moves = "s11- s12+ s1- s11+ pass pass s12";
    let run = snapshot(
        "replay_json_arrangement",
        &["--format", "json", "replay", "makonn", "--moves", moves],
        &[],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(played(&run.stdout), moves);
}

/// Games with arrangements and relays on offer, written by `sow analyze --games-out` and
/// read back by `sow replay`: every move word (`s3+`, `s3-`, `continue`, `stop`, `pass`)
/// goes through a record.
#[test]
fn records_of_arrangements_and_decisions_replay() {
    let dir = scratch().join("records_of_arrangements");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    for (ruleset, name) in [
        ("makonn", "makonn"),
        (
            "tests/scenarios/rulesets/optional_relay.toml",
            "optional_relay",
        ),
    ] {
        let path = dir.join(format!("{name}.jsonl"));
        let _ = std::fs::remove_file(&path);
        let run = sow(
            &[
                "analyze",
                ruleset,
                "--south",
                "random",
                "--north",
                "random",
                "--games",
                "3",
                "--seed",
                "5",
                "--games-out",
                path.to_str().expect("a path"),
            ],
            None,
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let text = std::fs::read_to_string(&path).expect("written");
        let mut words = std::collections::BTreeSet::new();
        for line in text.lines() {
            let line: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let moves = line["moves"].as_str().expect("moves");
            words.extend(moves.split(' ').filter_map(|m| {
                m.ends_with('+')
                    .then_some("put")
                    .or(m.ends_with('-').then_some("pick"))
            }));
            for w in ["continue", "stop"] {
                if moves.split(' ').any(|m| m == w) {
                    words.insert(w);
                }
            }
            let record = dir.join(format!("{name}.sow"));
            // A record names its ruleset by a shipped name or a path from the record.
            let named = match sow::catalog::shipped(ruleset) {
                Some(_) => ruleset.to_string(),
                None => root().join(ruleset).display().to_string(),
            };
            std::fs::write(&record, format!("ruleset = {named}\nmoves = {moves}\n"))
                .expect("a record");
            let replay = sow(&["replay", record.to_str().expect("a path")], None);
            assert_eq!(replay.code, 0, "{name}: {}", replay.stderr);
        }
        let expected: &[&str] = if name == "makonn" {
            &["pick", "put"]
        } else {
            &["continue", "stop"]
        };
        for w in expected {
            assert!(words.contains(w), "{name}: no {w} in the games");
        }
    }
}

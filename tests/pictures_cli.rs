//! `sow draw` and `sow replay --format html` as a user runs them: what they write, and what
//! they refuse (an existing file without `--force`, a missing folder, a ply past the end, an
//! illegal move) with the exit codes of the rest of sow.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("pictures_cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn sow(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("sow runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn svg_sites(text: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(text).expect("well-formed SVG");
    doc.descendants()
        .filter_map(|n| {
            Some((
                n.attribute("data-label")?.to_string(),
                n.attribute("data-seeds")?.to_string(),
            ))
        })
        .collect()
}

fn seeds_of(sites: &[(String, String)], label: &str) -> String {
    sites
        .iter()
        .find(|(l, _)| l == label)
        .map(|(_, s)| s.clone())
        .unwrap_or_else(|| panic!("no {label}"))
}

#[test]
fn draw_writes_a_board_and_never_overwrites_without_force() {
    let dir = scratch("draw");
    let file = dir.join("board.svg");
    let path = file.display().to_string();
    let run = sow(&["draw", "kalah", "--output", &path]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, format!("wrote {path}\n"));
    let first = std::fs::read_to_string(&file).expect("written");
    assert_eq!(seeds_of(&svg_sites(&first), "s1"), "4");

    let again = sow(&["draw", "kalah", "--moves", "s1", "--output", &path]);
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("already exists; give --force"),
        "{}",
        again.stderr
    );
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), first);

    let forced = sow(&[
        "draw", "kalah", "--moves", "s1", "--output", &path, "--force",
    ]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let second = std::fs::read_to_string(&file).expect("rewritten");
    assert_eq!(seeds_of(&svg_sites(&second), "s1"), "0");
}

#[test]
fn draw_refuses_a_missing_folder_before_any_work() {
    let dir = scratch("missing");
    let path = dir.join("no/such/folder/board.svg").display().to_string();
    // The moves are illegal too, but the folder is refused first.
    let run = sow(&["draw", "kalah", "--moves", "s9", "--output", &path]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("there is no folder"), "{}", run.stderr);
}

#[test]
fn draw_a_position_and_a_record_at_a_ply() {
    // A set-up position, as `--from` takes it.
    let run = sow(&[
        "draw",
        "raja_pasu",
        "S[0 1 0 1 1 2 1] N[0 1 0 2 1 0 1] S*=3 north",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sites = svg_sites(&run.stdout);
    assert_eq!(seeds_of(&sites, "s6"), "2");
    assert_eq!(seeds_of(&sites, "S*"), "3");
    assert!(run.stdout.contains("seat-1 to-move"));

    // A record after its second ply is the same board as its first two moves.
    let record = sow(&["draw", "tests/records/raja_pasu_short.sow", "--ply", "2"]);
    let moves = sow(&["draw", "raja_pasu", "--moves", "s1 n5"]);
    assert_eq!(record.code, 0, "{}", record.stderr);
    assert_eq!(svg_sites(&record.stdout), svg_sites(&moves.stdout));
    // Ply 0 is the start.
    let start = sow(&["draw", "tests/records/raja_pasu_short.sow", "--ply", "0"]);
    assert_eq!(
        svg_sites(&start.stdout),
        svg_sites(&sow(&["draw", "raja_pasu"]).stdout)
    );

    let past = sow(&["draw", "tests/records/raja_pasu_short.sow", "--ply", "7"]);
    assert_eq!(past.code, 2);
    assert_eq!(
        past.stderr,
        "error: --ply 7 is past the end: the replay has 6 plies\n"
    );
}

#[test]
fn draw_reports_an_illegal_move_as_replay_does() {
    let dir = scratch("illegal");
    let file = dir.join("board.svg");
    let path = file.display().to_string();
    let run = sow(&["draw", "kalah", "--moves", "s1 s2", "--output", &path]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("Ply 2: North cannot play `s2`"),
        "{}",
        run.stderr
    );
    assert!(!file.exists(), "nothing is written");
}

#[test]
fn draw_in_json() {
    let dir = scratch("json");
    let path = dir.join("b.svg").display().to_string();
    let run = sow(&["--format", "json", "draw", "hus", "--output", &path]);
    assert_eq!(run.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["written"], path.as_str());
}

#[test]
fn replay_as_a_page_from_a_play_record() {
    let dir = scratch("html");
    let record = dir.join("game.sow").display().to_string();
    let play = sow(&[
        "play", "congkak", "--south", "random", "--north", "random", "--seed", "2", "--record",
        &record,
    ]);
    assert_eq!(play.code, 0, "{}", play.stderr);
    let page = dir.join("game.html");
    let path = page.display().to_string();
    let run = sow(&["replay", &record, "--format", "html", "--output", &path]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    let html = std::fs::read_to_string(&page).expect("written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<h1>Congkak: a replay</h1>"));
    // To stdout without --output; and an existing file is kept.
    let stdout = sow(&["--format", "html", "replay", &record]);
    assert_eq!(stdout.code, 0);
    assert_eq!(stdout.stdout, html);
    let again = sow(&["replay", &record, "--format", "html", "--output", &path]);
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("already exists"));
}

#[test]
fn html_is_only_for_replay() {
    let run = sow(&["--format", "html", "list"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --format html is for `sow replay` (a replay as a web page), not `sow list`; `sow draw` draws a board as SVG\n"
    );
}

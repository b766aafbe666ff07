//! `sow draw`: a board as SVG, at the start, at a set-up position, or after any ply of a
//! replay; and `sow replay --format html`: a replay as one web page. Both replay the moves
//! through `sow replay`'s own reading of records and moves (so a mistake is reported just as
//! it is there), handing each ply to a [`Picture`], which writes the file at the end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;

use sow::engine::Position;
use sow::picture::html::{Page, Replay, RuleTexts};
use sow::picture::layout::{self, Layout};
use sow::picture::svg;
use sow::render::Detail;
use sow::rules::{Player, Rules};
use sow::trace::Event;

use super::{Exit, Fail, Format, OptionArgs, Ruleset, emit_json, position_notation, replay};

const AFTER_HELP: &str = "\
Examples:
  sow draw RULESET --output board.svg                      the start of a game
  sow draw RULESET \"S[0 1 0 1 1 2 1] N[0 1 0 2 1 0 1] north\" --output board.svg
  sow draw RULESET --moves \"s3 n5 s1\" --ply 2 --output board.svg
  sow draw game.sow --ply 10 --output board.svg            a record, after ply 10
  sow draw RULESET > board.svg                             the drawing on stdout

A replay as a web page, with every lap and seed: sow replay game.sow --format html --output game.html

An existing file is never overwritten unless --force is given.";

/// Draw a board as SVG: at the start, at a position, or after a ply of a replay.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// A ruleset (a shipped name or a path), or a game record.
    #[arg(value_name = "RULESET|RECORD")]
    pub input: String,

    /// The position to draw (or to replay the moves from), in the notation `--from` takes:
    /// `S[..] N[..]`, then optionally `S*=k N*=k`, `removed S=k N=k`, `claimed S=hole N=hole`
    /// and `south` or `north`.
    #[arg(value_name = "POSITION")]
    pub position: Option<String>,

    /// Moves to play before drawing, e.g. "s3 n5 s1".
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,

    /// Draw the board after this many plies of the moves or the record (default: all of them;
    /// 0 is the start).
    #[arg(long, value_name = "N")]
    pub ply: Option<u32>,

    /// Write the SVG to this file (default: stdout).
    #[arg(long, short = 'O', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,

    #[command(flatten)]
    pub options: OptionArgs,
}

/// What a replay hands its plies to when it makes a picture instead of a trace.
pub trait Picture {
    /// Before any move is replayed (so that a bad output path costs no work).
    fn start(&mut self, ruleset: &Ruleset, start: &Position, to_move: Option<Player>);
    /// After each ply, with its events; false stops the replay there.
    fn ply(&mut self, events: &[Event], after: &Position, to_move: Option<Player>) -> bool;
    /// Writes the picture.
    fn finish(&mut self, format: Format) -> Result<(), Fail>;
}

/// Where a picture goes: a file that must not exist yet (unless `--force`), in a folder that
/// does, or stdout.
#[derive(Debug, Clone)]
pub struct Target {
    pub path: Option<PathBuf>,
    pub force: bool,
}

impl Target {
    /// Refuses, before any work, a path that cannot be written.
    pub fn check(&self) -> Result<(), Fail> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !folder.is_dir() {
            return Err(Fail::Usage(format!(
                "cannot write {}: there is no folder {}",
                path.display(),
                folder.display()
            )));
        }
        if path.is_dir() {
            return Err(Fail::Usage(format!(
                "cannot write {}: it is a folder",
                path.display()
            )));
        }
        if path.exists() && !self.force {
            return Err(Fail::Usage(format!(
                "{} already exists; give --force to overwrite it",
                path.display()
            )));
        }
        Ok(())
    }

    /// Writes `text` to the file (or stdout) and says so (on stderr, or as the JSON document).
    fn write(&self, command: &str, text: &str, format: Format) -> Result<(), Fail> {
        let Some(path) = &self.path else {
            if format == Format::Json {
                emit_json(
                    &json!({ "command": command, "ok": true, "written": null, "output": text }),
                );
            } else {
                // A closed pipe (e.g. `| head`) is not worth a panic.
                let _ = std::io::stdout().lock().write_all(text.as_bytes());
            }
            return Ok(());
        };
        let mut file = std::fs::OpenOptions::new();
        file.write(true);
        if self.force {
            file.create(true).truncate(true);
        } else {
            // Even a file made since the check is not overwritten.
            file.create_new(true);
        }
        file.open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", path.display())))?;
        match format {
            Format::Json => emit_json(&json!({
                "command": command,
                "ok": true,
                "written": path.display().to_string(),
            })),
            Format::Text => eprintln!("wrote {}", path.display()),
        }
        Ok(())
    }
}

/// The documented rules' texts for a ruleset's citations. The rule documents (with the
/// clause ids rulesets cite) are not part of sow yet, so there are none: pages show the ids.
/// The texts of the documented rules a shipped ruleset's clauses cite (`docs/rules/`); none
/// for a ruleset of the user's own.
fn rule_texts(ruleset: &Ruleset) -> RuleTexts {
    let Some((_, text)) = sow::catalog::rules_doc_for(&ruleset.source) else {
        return RuleTexts::new();
    };
    sow::explain::RulesDoc::parse(text)
        .clauses
        .into_iter()
        .map(|c| (c.id, c.text))
        .collect()
}

/// The board of these rules, with room for removed seeds when the rules can remove some or
/// the position already has.
fn board_layout(rules: &Rules, start: &Position) -> Layout {
    let sinks = layout::removes_seeds(rules) || start.taken.iter().any(|&t| t > 0);
    layout::of_rules(rules, sinks)
}

/// `options a=b`, or `default options`.
fn options_words(ruleset: &Ruleset) -> String {
    let changed = ruleset.changed_options();
    if changed.is_empty() {
        "default options".to_string()
    } else {
        let set: Vec<String> = changed.iter().map(|(n, v)| format!("{n}={v}")).collect();
        format!("options {}", set.join(" "))
    }
}

/// The board after ply N (or the last), as SVG.
struct Drawing {
    target: Target,
    stop_after: Option<u32>,
    plies: u32,
    rules: Option<(Arc<Rules>, String, String)>,
    at: Option<(Position, Option<Player>)>,
}

impl Picture for Drawing {
    fn start(&mut self, ruleset: &Ruleset, start: &Position, to_move: Option<Player>) {
        self.rules = Some((
            ruleset.rules.clone(),
            ruleset.rules.name.clone(),
            options_words(ruleset),
        ));
        self.at = Some((*start, to_move));
    }

    fn ply(&mut self, _: &[Event], after: &Position, to_move: Option<Player>) -> bool {
        if self.stop_after.is_some_and(|n| self.plies >= n) {
            // `--ply 0`: the ply just played is not drawn.
            return false;
        }
        self.plies += 1;
        self.at = Some((*after, to_move));
        self.stop_after.is_none_or(|n| self.plies < n)
    }

    fn finish(&mut self, format: Format) -> Result<(), Fail> {
        let (Some((rules, name, options)), Some((pos, to_move))) = (&self.rules, &self.at) else {
            return Err(Fail::Usage("nothing to draw".into()));
        };
        if let Some(n) = self.stop_after
            && n > self.plies
        {
            return Err(Fail::Usage(format!(
                "--ply {n} is past the end: the replay has {} {}",
                self.plies,
                if self.plies == 1 { "ply" } else { "plies" }
            )));
        }
        let layout = board_layout(rules, pos);
        let mut shown = *pos;
        if let Some(p) = to_move {
            shown.to_move = *p;
        }
        let when = if self.plies == 0 {
            "the start".to_string()
        } else {
            format!("after ply {}", self.plies)
        };
        let title = format!(
            "{name} ({options}), {when}: {}",
            if to_move.is_some() {
                position_notation(rules, &shown)
            } else {
                format!("{}, the game is over", sow::render::notation(rules, pos))
            }
        );
        let state = layout.state(pos, *to_move);
        let mut text = svg::board(
            &layout,
            &state,
            &svg::Texts {
                title: &title,
                id: "board",
            },
        );
        text.push('\n');
        self.target.write("draw", &text, format)
    }
}

/// The whole replay as a web page.
struct Web {
    target: Target,
    given: String,
    replay: Option<Replay>,
    page: Page,
}

impl Picture for Web {
    fn start(&mut self, ruleset: &Ruleset, start: &Position, to_move: Option<Player>) {
        let rules = &ruleset.rules;
        let layout = board_layout(rules, start);
        self.page = Page {
            title: format!("{}: a replay", rules.name),
            lines: vec![
                format!("{}, {}", self.given, options_words(ruleset)),
                format!("Start: {}", position_notation(rules, start)),
            ],
        };
        self.replay = Some(Replay::new(
            rules.clone(),
            layout,
            rule_texts(ruleset),
            start,
            to_move,
        ));
    }

    fn ply(&mut self, events: &[Event], after: &Position, to_move: Option<Player>) -> bool {
        if let Some(r) = &mut self.replay {
            r.ply(events, after, to_move);
        }
        true
    }

    fn finish(&mut self, format: Format) -> Result<(), Fail> {
        let Some(replay) = &self.replay else {
            return Err(Fail::Usage("nothing to replay".into()));
        };
        self.target
            .write("replay", &replay.html(&self.page), format)
    }
}

/// `sow draw`.
pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    let target = Target {
        path: args.output,
        force: args.force,
    };
    target.check()?;
    // A position or moves on the command line make the input a ruleset.
    let moves = match (&args.moves, &args.position) {
        (None, Some(_)) => Some(String::new()),
        (m, _) => m.clone(),
    };
    let replay_args = replay::Args {
        input: args.input,
        moves,
        from: args.position,
        detail: Detail::Drops,
        output: None,
        force: false,
        options: args.options,
    };
    let mut drawing = Drawing {
        target,
        stop_after: args.ply,
        plies: 0,
        rules: None,
        at: None,
    };
    replay::run_with(replay_args, format, Some(&mut drawing))
}

/// `sow replay --format html`.
pub fn replay_html(args: replay::Args) -> Result<Exit, Fail> {
    let target = Target {
        path: args.output.clone(),
        force: args.force,
    };
    target.check()?;
    let mut web = Web {
        target,
        given: args.input.clone(),
        replay: None,
        page: Page::default(),
    };
    replay::run_with(args, Format::Text, Some(&mut web))
}

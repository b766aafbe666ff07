//! `sow replay`: a recorded game, ply by ply, with the trace at the chosen detail.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use sow::diagnostic::{self, Code, Diagnostic, did_you_mean};
use sow::engine::{Game, Position};
use sow::notation::{parse_move, parse_position};
use sow::record::{self, Item};
use sow::render::{self, Detail, escape, play_traced};

use super::draw::Picture;
use super::{
    Exit, Fail, Format, Found, OptionArgs, Ruleset, diagnostics_json, input, position_notation,
    read_ruleset, render_all, say_err, side,
};

const AFTER_HELP: &str = "\
Examples:
  sow replay game.sow
  sow replay game.sow --detail drops
  sow replay RULESET --moves \"s6 n6 s2 n1\" --detail laps
  sow replay RULESET --from \"S[0 1 0 1 1 2 1] N[0 1 0 2 1 0 1] south\" --moves s5
  sow --format json replay game.sow

A record is a small text file:
  # comments start with #
  ruleset = NAME                 (a shipped name, or a path relative to the record)
  fingerprint = sha256:...       (optional: the ruleset's, to warn when it has changed)
  option NAME = VALUE            (any number of these)
  position = S[..] N[..] south   (optional: start from a set-up position)
  moves = s1 n3 s5               (may be repeated over several lines)

An illegal or impossible move stops the replay with its ply number, the position before it and
the legal moves (exit code 1).";

/// Replay a recorded game ply by ply, with the trace.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// A game record file; or, with --moves (or none at all), a ruleset.
    #[arg(value_name = "RECORD|RULESET")]
    pub input: String,

    /// The moves to replay on the ruleset, e.g. "s3 n5 s1".
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,

    /// Start from a set-up position instead of the ruleset's (or the record's) own:
    /// `S[s1 .. sN] N[n1 .. nN]`, then optionally `S*=k N*=k` (seeds held), `removed S=k N=k`
    /// (seeds removed from the game), `claimed S=hole N=hole` (claimed holes) and `south` or
    /// `north` (to move; default South). A closed hole is written `x`.
    #[arg(long, value_name = "POSITION")]
    pub from: Option<String>,

    /// How much of each ply to show: plies (the move, captures, the board after it), laps
    /// (also each lap and relay) or drops (also every seed sown).
    #[arg(long, value_enum, default_value_t = Detail::Plies)]
    pub detail: Detail,

    /// With `--format html`: write the page to this file (default: stdout).
    #[arg(long, short = 'O', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// With `--output`: overwrite the file if it exists.
    #[arg(long)]
    pub force: bool,

    #[command(flatten)]
    pub options: OptionArgs,
}

/// Text that moves or a position were read from, to point at with a caret.
struct Origin {
    file: String,
    source: String,
}

/// What to replay, wherever it came from.
struct Script {
    ruleset: Ruleset,
    moves: Vec<Item>,
    moves_from: Origin,
    position: Option<(Item, Origin)>,
    /// Warnings about the record itself (a ruleset changed since the game), at their place
    /// in it.
    record_warnings: Vec<Diagnostic>,
}

pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    run_with(args, format, None)
}

/// Replays, handing every ply to `picture` if there is one (`sow draw`, `--format html`),
/// which then writes itself instead of the trace.
pub fn run_with(
    args: Args,
    format: Format,
    mut picture: Option<&mut dyn Picture>,
) -> Result<Exit, Fail> {
    let script = if is_ruleset(&args) {
        from_command_line(&args)?
    } else {
        from_record(&args)?
    };
    script.ruleset.print_warnings(format);
    if format == Format::Text && !script.record_warnings.is_empty() {
        let origin = &script.moves_from;
        say_err(&render_all(
            &script.record_warnings,
            &origin.file,
            &origin.source,
            super::Stream::Err,
        ));
    }
    let rules = script.ruleset.rules.clone();
    let (start, mut game, at_start) = match &script.position {
        None => {
            let game = Game::new(rules.clone());
            (*game.position(), game, None)
        }
        Some((item, origin)) => {
            let pos = parse_position(&rules, &item.text).map_err(|e| {
                // The error's span is in the position's text, which starts at the item's.
                let start = item.span.start;
                Fail::Invalid {
                    file: origin.file.clone(),
                    source: origin.source.clone(),
                    diagnostics: vec![
                        Diagnostic::new(
                            Code::BadPosition,
                            format!("bad starting position: {}", e.message),
                        )
                        .at(start + e.span.start..start + e.span.end),
                    ],
                }
            })?;
            let (game, at_start) = super::game_from(&rules, pos);
            (pos, game, at_start)
        }
    };
    if let Some(p) = picture.as_deref_mut() {
        let seats = script.ruleset.rules.geometry.seats;
        if script.ruleset.rules.geometry.rows == 1 {
            // The board pictures lay out rows facing each other.
            return Err(Fail::Usage(format!(
                "{} is played on a ring of holes; pictures (`sow draw`, `--format html`) are drawn for boards of two or four rows only",
                script.ruleset.rules.name
            )));
        }
        if seats > 2 {
            // The board pictures lay out two players' rows, stores and reserves.
            return Err(Fail::Usage(format!(
                "{} has {seats} players; pictures (`sow draw`, `--format html`) are drawn for games of two players only",
                script.ruleset.rules.name
            )));
        }
        p.start(&script.ruleset, &start, game.to_move());
    }

    // A picture writes itself: the trace is not written, and a failed replay is reported on
    // stderr as usual.
    let mut out = match picture {
        Some(_) => render::Output::new(std::io::sink()),
        None => super::stdout(),
    };
    match format {
        Format::Text => {
            out.text(&header(&script.ruleset, &start));
            if let Some(ending) = &at_start {
                out.text(&ending.text);
            }
        }
        Format::Json => {
            out.open_object(None);
            out.value(Some("command"), &json!("replay"));
            out.value(Some("ruleset"), &script.ruleset.json());
            out.value(Some("start"), &super::position_json_to_move(&rules, &start));
            if let Some(ending) = &at_start {
                out.value(Some("start_ending"), &ending.json);
            }
            out.open_array(Some("plies"));
        }
    }
    let mut failure: Option<Stop> = None;
    for (i, item) in script.moves.iter().enumerate() {
        if out.failed() {
            // Nobody reads what follows: main reports the error.
            break;
        }
        let ply = i as u32 + 1;
        let before = *game.position();
        let Some(mover) = game.to_move() else {
            failure = Some(Stop {
                ply,
                item: item.clone(),
                message: format!(
                    "ply {ply}: the game is over after ply {}, but the moves go on with `{}`",
                    ply - 1,
                    item.text
                ),
                position: before,
                legal: Vec::new(),
            });
            break;
        };
        let legal: Vec<String> = game.legal_moves().iter().map(|m| m.label(&rules)).collect();
        // Read by the rules in force: the holes' owners may have changed between rounds.
        let h = match parse_move(game.rules(), mover, &item.text).and_then(|h| {
            match game.why_illegal(mover, h) {
                None => Ok(h),
                Some(reason) => Err(reason),
            }
        }) {
            Ok(h) => h,
            Err(reason) => {
                failure = Some(Stop {
                    ply,
                    item: item.clone(),
                    message: format!(
                        "ply {ply}: {} cannot play `{}`: {reason}",
                        rules.player_title(mover),
                        item.text
                    ),
                    position: before,
                    legal,
                });
                break;
            }
        };
        if let Some(p) = picture.as_deref_mut() {
            let mut events = Vec::new();
            game.play(h, &mut events).map_err(|e| {
                Fail::Usage(format!("internal error: a legal move was refused: {e}"))
            })?;
            if !p.ply(&events, game.position(), game.to_move()) {
                break;
            }
            continue;
        }
        let played = match format {
            Format::Text => play_traced(&mut game, h, args.detail, Some(&mut out), None),
            Format::Json => {
                out.open_object(None);
                out.value(Some("ply"), &json!(ply));
                out.value(Some("mover"), &json!(rules.player_key(mover)));
                out.value(Some("move"), &json!(item.text.to_lowercase()));
                out.open_array(Some("events"));
                let played = play_traced(&mut game, h, args.detail, None, Some(&mut out));
                out.close();
                played
            }
        };
        // The move was checked legal just above.
        played
            .map_err(|e| Fail::Usage(format!("internal error: a legal move was refused: {e}")))?;
        let after = game.position();
        match format {
            Format::Text => out.say(format_args!("  board {}\n", render::board(&rules, after))),
            Format::Json => super::close_ply_json(&mut out, &game),
        }
    }

    if let Some(p) = picture {
        if let Some(stop) = &failure {
            say_err(&stop.render(&script, &rules));
            return Ok(Exit::Wrong);
        }
        p.finish(format)?;
        return Ok(Exit::Ok);
    }
    let legal_now: Vec<String> = game.legal_moves().iter().map(|m| m.label(&rules)).collect();
    match format {
        Format::Text => {
            if failure.is_none()
                && let Some(p) = game.to_move()
            {
                out.say(format_args!(
                    "after ply {}: {} to move; legal moves: {}\n",
                    script.moves.len(),
                    rules.player_title(p),
                    legal_now.join(" ")
                ));
            }
            super::done(&mut out);
            if let Some(stop) = &failure {
                say_err(&stop.render(&script, &rules));
            }
        }
        Format::Json => {
            out.close();
            out.value(
                Some("status"),
                &json!({
                    "over": game.is_over(),
                    "winner": match game.status() {
                        sow::engine::Status::Over { winner } => winner.map(side),
                        sow::engine::Status::Playing | sow::engine::Status::Stopped { .. } => None,
                    },
                    "to_move": game.to_move().map(side),
                    "legal_moves": legal_now,
                    "round": game.round(),
                }),
            );
            out.value(
                Some("error"),
                &json!(failure.as_ref().map(|s| s.json(&script, &rules))),
            );
            out.value(Some("ok"), &json!(failure.is_none()));
            let mut diagnostics = script.ruleset.warnings_json();
            let origin = &script.moves_from;
            diagnostics.extend(diagnostics_json(
                &script.record_warnings,
                &origin.file,
                &origin.source,
            ));
            out.value(Some("diagnostics"), &Value::Array(diagnostics));
            out.close();
            super::done(&mut out);
        }
    }
    Ok(if failure.is_some() {
        Exit::Wrong
    } else {
        Exit::Ok
    })
}

/// Whether the input names a ruleset rather than a record: moves are given on the command
/// line, or it is a `.toml` file, or a shipped name (which always means the shipped ruleset).
fn is_ruleset(args: &Args) -> bool {
    args.moves.is_some()
        || args.input.ends_with(".toml")
        || sow::catalog::shipped(&args.input).is_some()
}

fn from_command_line(args: &Args) -> Result<Script, Fail> {
    let ruleset = Ruleset::load(&args.input, &args.options.options)?;
    let source = args.moves.clone().unwrap_or_default();
    let moves = words(&source);
    Ok(Script {
        ruleset,
        moves,
        moves_from: Origin {
            file: "--moves".into(),
            source,
        },
        position: args.from.as_deref().map(from_flag),
        record_warnings: Vec::new(),
    })
}

/// `--from`, pointed at as a one-line file of its own.
fn from_flag(text: &str) -> (Item, Origin) {
    (
        Item {
            text: text.to_string(),
            span: 0..text.len(),
        },
        Origin {
            file: "--from".into(),
            source: text.to_string(),
        },
    )
}

/// The moves of a `--moves` string, each with its span in the string.
fn words(source: &str) -> Vec<Item> {
    let mut out = Vec::new();
    let mut at = 0;
    for w in source.split_whitespace() {
        let found = source[at..].find(w).map_or(at, |i| at + i);
        at = found + w.len();
        out.push(Item {
            text: w.to_string(),
            span: found..at,
        });
    }
    out
}

fn from_record(args: &Args) -> Result<Script, Fail> {
    let path = Path::new(&args.input);
    let source = input::read_file(path, input::RECORD_BYTES, "record").map_err(|e| {
        Fail::Usage(format!(
            "{e} (to replay moves on a ruleset, give them with --moves)"
        ))
    })?;
    let file = args.input.clone();
    let invalid = |diagnostics: Vec<Diagnostic>| Fail::Invalid {
        file: file.clone(),
        source: source.clone(),
        diagnostics,
    };
    let rec = record::parse(&source).map_err(invalid)?;

    // A path is relative to the record's folder, so that a record and its ruleset can travel
    // together; records written before sow wrote it so may have it relative to where they
    // were played, which is tried next.
    let dir = path.parent().unwrap_or(Path::new(""));
    let name = &rec.ruleset.text;
    let found = read_ruleset(dir, name).or_else(|beside| {
        let from_here = read_ruleset(Path::new(""), name);
        if sow::catalog::shipped(name).is_none() && from_here.is_ok() && !dir.join(name).exists() {
            from_here
        } else {
            Err(beside)
        }
    });
    let Found {
        file: rfile,
        source: rsource,
        note,
    } = found.map_err(|message| {
        invalid(vec![
            Diagnostic::new(
                Code::RecordRuleset,
                format!("cannot load the ruleset: {message}"),
            )
            .at(rec.ruleset.span.clone()),
        ])
    })?;
    let mut record_warnings = Vec::new();
    if let Some(note) = note {
        record_warnings.push(Diagnostic::new(Code::NameNote, note).at(rec.ruleset.span.clone()));
    }
    if let Some(f) = &rec.fingerprint {
        let now = record::fingerprint(&rsource);
        if f.text != now {
            record_warnings.push(
                Diagnostic::new(Code::RulesetChanged, format!(
                    "the ruleset has changed since this record was made: its fingerprint is now {now}"
                ))
                .at(f.span.clone())
                .hint("the replay follows the ruleset as it is now, which may not be the game that was played"),
            );
        }
    }

    // Check the record's options against the ruleset here, so that a mistake is shown in the
    // record, where it was made, rather than as a problem of the ruleset.
    let plain = Ruleset::from_source(&rec.ruleset.text, rfile.clone(), rsource.clone(), &[])?;
    let mut problems = Vec::new();
    for (name, value) in &rec.options {
        let Some(decl) = plain.rules.options.iter().find(|o| o.name == name.text) else {
            let d = Diagnostic::new(
                Code::UnknownOption,
                format!("{} has no option `{}`", plain.rules.name, name.text),
            )
            .at(name.span.clone());
            let names = plain.rules.options.iter().map(|o| o.name.as_str());
            problems.push(match did_you_mean(&name.text, names) {
                Some(s) => d.hint(format!("did you mean `{s}`?")),
                None => d.hint(format!(
                    "its options are: {}",
                    plain
                        .rules
                        .options
                        .iter()
                        .map(|o| o.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            });
            continue;
        };
        if !decl.values.contains(&value.text) {
            let d = Diagnostic::new(
                Code::OptionValue,
                format!(
                    "option `{}` cannot be `{}`; its values are {}",
                    name.text,
                    value.text,
                    decl.values.join(", ")
                ),
            )
            .at(value.span.clone());
            problems.push(
                match did_you_mean(&value.text, decl.values.iter().map(String::as_str)) {
                    Some(s) => d.hint(format!("did you mean `{s}`?")),
                    None => d,
                },
            );
        }
    }
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    // Options on the command line come after the record's, so they win.
    let mut options: Vec<(String, String)> = rec
        .options
        .iter()
        .map(|(n, v)| (n.text.clone(), v.text.clone()))
        .collect();
    options.extend(args.options.options.iter().cloned());
    let ruleset = Ruleset::from_source(&rec.ruleset.text, rfile, rsource, &options)?;
    let position = match &args.from {
        Some(text) => Some(from_flag(text)),
        None => rec.position.clone().map(|p| {
            (
                p,
                Origin {
                    file: file.clone(),
                    source: source.clone(),
                },
            )
        }),
    };
    Ok(Script {
        ruleset,
        moves: rec.moves,
        moves_from: Origin { file, source },
        position,
        record_warnings,
    })
}

fn header(ruleset: &Ruleset, start: &Position) -> String {
    let rules = &ruleset.rules;
    let changed = ruleset.changed_options();
    let options = if changed.is_empty() {
        "default options".to_string()
    } else {
        let set: Vec<String> = changed.iter().map(|(n, v)| format!("{n}={v}")).collect();
        format!("options {}", set.join(" "))
    };
    format!(
        "{} ({}), {options}\nstart: {}\n",
        escape(&rules.name),
        escape(&ruleset.given),
        position_notation(rules, start)
    )
}

/// Where and why a replay stopped.
struct Stop {
    ply: u32,
    item: Item,
    message: String,
    /// The position before the ply that failed.
    position: Position,
    legal: Vec<String>,
}

impl Stop {
    fn diagnostic(&self) -> Diagnostic {
        let d = Diagnostic::new(Code::IllegalMove, self.message.clone()).at(self.item.span.clone());
        if self.legal.is_empty() {
            d.hint("remove the moves after the end of the game")
        } else {
            d.hint(format!("the legal moves are {}", self.legal.join(" ")))
        }
    }

    fn render(&self, script: &Script, rules: &sow::rules::Rules) -> String {
        let origin = &script.moves_from;
        let mut out = diagnostic::render(
            &self.diagnostic(),
            &origin.file,
            &origin.source,
            super::colored(super::Stream::Err),
        );
        out.push_str(&format!(
            "\nposition before ply {}: {}\n{}",
            self.ply,
            position_notation(rules, &self.position),
            render::picture(rules, &self.position)
        ));
        out
    }

    fn json(&self, script: &Script, rules: &sow::rules::Rules) -> Value {
        let origin = &script.moves_from;
        json!({
            "ply": self.ply,
            "move": self.item.text,
            "message": self.message,
            "position": super::position_json_to_move(rules, &self.position),
            "position_notation": position_notation(rules, &self.position),
            "legal_moves": self.legal,
            "diagnostic": diagnostic::to_json(&self.diagnostic(), &origin.file, &origin.source),
        })
    }
}

//! The command line: one module per subcommand, and what they share (loading a ruleset,
//! printing diagnostics, exit codes, the JSON document).
//!
//! Everything the program prints is printed here and in the subcommand modules; the library
//! below returns values. With `--format json` every command writes exactly one JSON document
//! on stdout, diagnostics included, and nothing else on stdout.
//!
//! Everything here reads user input: no `unwrap`, `expect` or indexing that could panic
//! (denied for the whole binary in `main.rs`).

mod analyze;
mod check;
mod completions;
mod draw;
mod explain;
mod input;
mod list;
mod lsp;
mod new;
mod play;
mod players;
mod replay;
mod schema;
mod series;
mod signals;
mod simulate;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use sow::catalog::Source;
use sow::diagnostic::{self, Code, Diagnostic};
use sow::render::{Detail, Output, escape};
use sow::rules::Rules;

const EXAMPLES: &str = "\
Examples:
  sow list                                  the rulesets shipped with sow
  sow check my_variant.toml                 every problem, with file, line, column and a caret
  sow explain RULESET                       the rules back in plain English
  sow play RULESET --north greedy           play South against the greedy player
  sow replay game.sow --detail laps
  sow replay RULESET --moves \"s6 n6 s2\"
  sow replay game.sow --format html -O game.html
  sow draw RULESET -O board.svg             the board as SVG (also a position, or after a ply)
  sow simulate RULESET --games 1000 --seed 1 --option NAME=VALUE
  sow analyze RULESET --sweep --games 500   balance, length and endings of every reading
  sow --format json replay game.sow         one JSON document on stdout
  sow new my_variant                        a starter ruleset, with the schema beside it
  sow explain --code E0305                  what a diagnostic code means

A ruleset is the name of a shipped one (see `sow list`) or the path of a .toml file.
Exit codes: 0 ok, 1 the input was checked and is wrong (a bad ruleset, an illegal move in a
record), 2 usage or I/O error.";

/// Mancala variants written as TOML rulesets, played by one generic engine.
///
/// Write a variant's rules as data, check them with exact diagnostics, read them back in plain
/// English, play them in the terminal, replay recorded games move by move with a trace of every
/// lap and capture, and simulate thousands of games to see how the variant behaves.
#[derive(Debug, Parser)]
#[command(name = "sow", version, after_help = EXAMPLES, max_term_width = 100)]
pub struct Cli {
    /// How to write results: `text` for people, `json` for programs (one JSON document on
    /// stdout, diagnostics included); `html` for `sow replay`: the replay as one web page.
    #[arg(long, global = true, value_enum, default_value_t = FormatFlag::Text)]
    pub format: FormatFlag,

    /// When to colour diagnostics: `auto` on a terminal (unless `NO_COLOR` is set), `always`,
    /// or `never`.
    #[arg(long, global = true, value_enum, default_value_t = ColorFlag::Auto)]
    pub color: ColorFlag,

    #[command(subcommand)]
    pub command: Command,
}

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `--format` as written: every command writes text or JSON; `sow replay` also a web page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatFlag {
    Text,
    Json,
    Html,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorFlag {
    Auto,
    Always,
    Never,
}

static COLOR: std::sync::OnceLock<ColorFlag> = std::sync::OnceLock::new();

/// Where text goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Out,
    Err,
}

/// Whether diagnostics written on `stream` are coloured: `--color`, and with `auto`, whether
/// the stream is a terminal and `NO_COLOR`, `CLICOLOR` and `TERM` allow it (as anstream reads
/// them).
pub fn colored(stream: Stream) -> bool {
    match COLOR.get().copied().unwrap_or(ColorFlag::Auto) {
        ColorFlag::Always => true,
        ColorFlag::Never => false,
        ColorFlag::Auto => {
            let choice = match stream {
                Stream::Out => anstream::AutoStream::choice(&std::io::stdout()),
                Stream::Err => anstream::AutoStream::choice(&std::io::stderr()),
            };
            !matches!(choice, anstream::ColorChoice::Never)
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Analyze(analyze::Args),
    Check(check::Args),
    Draw(draw::Args),
    Explain(explain::Args),
    Play(play::Args),
    Replay(replay::Args),
    Simulate(simulate::Args),
    List(list::Args),
    Schema(schema::Args),
    New(new::Args),
    Lsp(lsp::Args),
    Completions(completions::Args),
    Man(completions::ManArgs),
}

impl Command {
    fn name(&self) -> &'static str {
        match self {
            Command::Analyze(_) => "analyze",
            Command::Check(_) => "check",
            Command::Draw(_) => "draw",
            Command::Explain(_) => "explain",
            Command::Play(_) => "play",
            Command::Replay(_) => "replay",
            Command::Simulate(_) => "simulate",
            Command::List(_) => "list",
            Command::Schema(_) => "schema",
            Command::New(_) => "new",
            Command::Lsp(_) => "lsp",
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
        }
    }
    /// The `--option` arguments, for the commands that load a ruleset.
    fn options(&self) -> Option<&OptionArgs> {
        match self {
            Command::Analyze(a) => Some(&a.options),
            Command::Check(a) => Some(&a.options),
            Command::Draw(a) => Some(&a.options),
            Command::Explain(a) => Some(&a.options),
            Command::Play(a) => Some(&a.options),
            Command::Replay(a) => Some(&a.options),
            Command::Simulate(a) => Some(&a.options),
            Command::List(_)
            | Command::Schema(_)
            | Command::New(_)
            | Command::Lsp(_)
            | Command::Completions(_)
            | Command::Man(_) => None,
        }
    }
}

/// How the program ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: all went well.
    Ok,
    /// 1: the input was checked and is wrong.
    Wrong,
    /// 2: usage or I/O.
    Usage,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        match e {
            Exit::Ok => ExitCode::SUCCESS,
            Exit::Wrong => ExitCode::from(1),
            Exit::Usage => ExitCode::from(2),
        }
    }
}

/// A failure a command cannot report in its own output.
#[derive(Debug)]
pub enum Fail {
    /// Usage or I/O (exit 2): a file that cannot be read, a bad argument.
    Usage(String),
    /// The input was checked and is wrong (exit 1), with the diagnostics found in one file.
    Invalid {
        file: String,
        source: String,
        diagnostics: Vec<Diagnostic>,
    },
}

/// Runs `sow` and returns its exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let format = match cli.format {
        FormatFlag::Json => Format::Json,
        FormatFlag::Text | FormatFlag::Html => Format::Text,
    };
    let _ = COLOR.set(cli.color);
    let name = cli.command.name();
    let html = cli.format == FormatFlag::Html;
    let repeated = cli.command.options().map_or(Ok(()), OptionArgs::once_each);
    let result = repeated.and_then(|()| match cli.command {
        Command::Replay(a) if html => draw::replay_html(a),
        _ if html => Err(Fail::Usage(format!(
            "--format html is for `sow replay` (a replay as a web page), not `sow {name}`; `sow draw` draws a board as SVG"
        ))),
        Command::Analyze(a) => analyze::run(a, format),
        Command::Check(a) => check::run(a, format),
        Command::Draw(a) => draw::run(a, format),
        Command::Explain(a) => explain::run(a, format),
        Command::Play(a) => play::run(a, format),
        Command::Replay(a) => replay::run(a, format),
        Command::Simulate(a) => simulate::run(a, format),
        Command::List(a) => list::run(a, format),
        Command::Schema(a) => schema::run(a, format),
        Command::New(a) => new::run(a, format),
        Command::Lsp(a) => lsp::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => completions::man(a),
    });
    let exit = match result {
        Ok(exit) => exit,
        Err(fail) => report_failure(name, fail, format),
    };
    // Output that could not be written is a failure whatever the command found: the user
    // did not get it. (Said on stderr: stdout is what failed.)
    if let Some(e) = take_output_error() {
        say_err(&format!("error: cannot write the output: {e}\n"));
        return Exit::Usage.into();
    }
    exit.into()
}

/// clap's own errors, and `--help` / `--version`. Under `--format json` a usage error is a JSON
/// document too, so that a program reading stdout never gets plain text.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        if let Err(failed) = e.print() {
            say_err(&format!("error: cannot write the output: {failed}\n"));
            return Exit::Usage.into();
        }
        return ExitCode::SUCCESS;
    }
    let args: Vec<String> = std::env::args().collect();
    let json = args
        .windows(2)
        .any(|w| matches!(w, [flag, value] if flag == "--format" && value == "json"))
        || args.iter().any(|a| a == "--format=json");
    if json {
        emit_json(&json!({
            "ok": false,
            "error": e.kind().as_str().unwrap_or("usage error"),
            "message": e.render().to_string(),
        }));
    } else {
        let _ = e.print();
    }
    if let Some(failed) = take_output_error() {
        say_err(&format!("error: cannot write the output: {failed}\n"));
    }
    Exit::Usage.into()
}

fn report_failure(command: &str, fail: Fail, format: Format) -> Exit {
    match (fail, format) {
        (Fail::Usage(message), Format::Text) => {
            say_err(&format!("error: {}\n", escape(&message)));
            Exit::Usage
        }
        (Fail::Usage(message), Format::Json) => {
            emit_json(
                &json!({ "command": command, "ok": false, "error": message, "diagnostics": [] }),
            );
            Exit::Usage
        }
        (
            Fail::Invalid {
                file,
                source,
                diagnostics,
            },
            Format::Text,
        ) => {
            say_err(&render_all(&diagnostics, &file, &source, Stream::Err));
            say_err(&format!("{}\n", escape(&summary(&file, &diagnostics))));
            Exit::Wrong
        }
        (
            Fail::Invalid {
                file,
                source,
                diagnostics,
            },
            Format::Json,
        ) => {
            emit_json(&json!({
                "command": command,
                "ok": false,
                "error": summary(&file, &diagnostics),
                "diagnostics": diagnostics_json(&diagnostics, &file, &source),
            }));
            Exit::Wrong
        }
    }
}

/// The first error met writing stdout, kept for [`main`] to report.
static OUTPUT_ERROR: Mutex<Option<std::io::Error>> = Mutex::new(None);

fn note_output_error(e: std::io::Error) {
    if let Ok(mut first) = OUTPUT_ERROR.lock()
        && first.is_none()
    {
        *first = Some(e);
    }
}

fn take_output_error() -> Option<std::io::Error> {
    OUTPUT_ERROR.lock().ok().and_then(|mut e| e.take())
}

/// stdout, buffered, for a command's output; hand it to [`done`] at the end, so that a
/// failed write is reported (exit code 2).
pub fn stdout() -> Output<'static> {
    Output::new(std::io::BufWriter::with_capacity(
        1 << 16,
        std::io::stdout(),
    ))
}

/// Flushes a command's output and keeps its first error for [`main`] to report.
pub fn done(out: &mut Output<'_>) {
    if let Err(e) = out.finish() {
        note_output_error(e);
    }
}

/// Writes text on stdout. A write that fails is reported when the command ends (exit 2):
/// every command's output goes through this, [`emit_json`] or [`stdout`].
pub fn emit_text(text: &str) {
    let mut out = stdout();
    out.text(text);
    done(&mut out);
}

/// Writes one JSON document on stdout, as [`emit_text`] writes text.
pub fn emit_json(v: &Value) {
    let mut out = stdout();
    out.value(None, v);
    done(&mut out);
}

/// Writes on stderr. If stderr itself cannot be written there is nowhere left to say so, and
/// the exit code is all that tells.
pub fn say_err(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// Every diagnostic drawn as text for `stream`, one after another, separated by blank lines.
/// The source lines they quote are the user's text: control characters in them are shown
/// escaped (by the renderer).
pub fn render_all(diags: &[Diagnostic], file: &str, source: &str, stream: Stream) -> String {
    let color = colored(stream);
    let mut out = String::new();
    for d in diags {
        out.push_str(&diagnostic::render(d, file, source, color));
        out.push('\n');
    }
    out
}

pub fn diagnostics_json(diags: &[Diagnostic], file: &str, source: &str) -> Vec<Value> {
    diags
        .iter()
        .map(|d| diagnostic::to_json(d, file, source))
        .collect()
}

/// `file: 2 errors, 1 warning`.
pub fn summary(file: &str, diags: &[Diagnostic]) -> String {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    match (errors, warnings) {
        (0, 0) => format!("{file}: ok"),
        (e, 0) => format!("{file}: {}", plural(e, "error")),
        (0, w) => format!("{file}: ok, {}", plural(w, "warning")),
        (e, w) => format!("{file}: {}, {}", plural(e, "error"), plural(w, "warning")),
    }
}

pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `--option NAME=VALUE`, repeatable: every command that loads a ruleset takes it.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct OptionArgs {
    /// Set one of the ruleset's options (see `sow explain RULESET` for the options and their
    /// values). Repeat for several.
    #[arg(long = "option", short = 'o', value_name = "NAME=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
}

impl OptionArgs {
    /// Refuses an option given twice: which value was meant is not for sow to guess.
    fn once_each(&self) -> Result<(), Fail> {
        for (i, (name, value)) in self.options.iter().enumerate() {
            if let Some((_, first)) = self.options.iter().take(i).find(|(n, _)| n == name) {
                return Err(Fail::Usage(format!(
                    "option `{name}` is given twice (--option {name}={first} and --option {name}={value}); give each option once"
                )));
            }
        }
        Ok(())
    }
}

fn parse_option(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!(
            "`{s}` is not NAME=VALUE (for example last_four=none)"
        )),
    }
}

/// A ruleset named on the command line, loaded and checked.
pub struct Ruleset {
    /// As the user wrote it: a shipped name or a path (used again in printed commands and
    /// records).
    pub given: String,
    /// The file name shown in diagnostics.
    pub file: String,
    pub source: String,
    pub rules: Arc<Rules>,
    pub warnings: Vec<Diagnostic>,
}

impl Ruleset {
    /// Loads a shipped name or a path, with options set. A file that cannot be found is a
    /// usage error; a ruleset with errors is invalid input.
    pub fn load(given: &str, options: &[(String, String)]) -> Result<Ruleset, Fail> {
        let found = read_ruleset(Path::new(""), given).map_err(Fail::Usage)?;
        let mut ruleset = Ruleset::from_source(given, found.file, found.source, options)?;
        ruleset.notes(found.note);
        Ok(ruleset)
    }

    /// A note about how the ruleset was found, shown with its warnings.
    pub fn notes(&mut self, note: Option<String>) {
        if let Some(note) = note {
            self.warnings
                .insert(0, Diagnostic::new(Code::NameNote, note));
        }
    }

    pub fn from_source(
        given: &str,
        file: String,
        source: String,
        options: &[(String, String)],
    ) -> Result<Ruleset, Fail> {
        match sow::check::load(&source, options) {
            Ok(loaded) => Ok(Ruleset {
                given: given.to_string(),
                file,
                source,
                rules: Arc::new(loaded.rules),
                warnings: loaded.warnings,
            }),
            Err(diagnostics) => Err(Fail::Invalid {
                file,
                source,
                diagnostics,
            }),
        }
    }

    /// In text mode, the warnings go to stderr so they never mix with the command's output.
    pub fn print_warnings(&self, format: Format) {
        if format == Format::Text && !self.warnings.is_empty() {
            say_err(&render_all(
                &self.warnings,
                &self.file,
                &self.source,
                Stream::Err,
            ));
        }
    }

    pub fn warnings_json(&self) -> Vec<Value> {
        diagnostics_json(&self.warnings, &self.file, &self.source)
    }

    /// The ruleset as JSON: its name, where it came from, the options in force.
    pub fn json(&self) -> Value {
        json!({
            "name": self.rules.name,
            "given": self.given,
            "file": self.file,
            "options": options_json(&self.rules),
        })
    }

    /// The options set away from their defaults, as `--option` arguments would set them.
    pub fn changed_options(&self) -> Vec<(String, String)> {
        self.rules
            .options
            .iter()
            .filter(|o| o.value != o.default)
            .map(|o| (o.name.clone(), o.value.clone()))
            .collect()
    }
}

/// A ruleset's text, found from a name or path (relative to `dir`).
pub struct Found {
    /// The file name shown in diagnostics.
    pub file: String,
    pub source: String,
    pub note: Option<String>,
}

/// Finds and reads a ruleset: a shipped name, or a file of at most
/// [`input::RULESET_BYTES`].
pub fn read_ruleset(dir: &Path, given: &str) -> Result<Found, String> {
    let found = sow::catalog::resolve_in(dir, given)?;
    let (file, source) = match found.source {
        Source::Shipped(name, text) => (format!("{name} (shipped)"), text.to_string()),
        Source::File(path) => {
            let text = input::read_file(&path, input::RULESET_BYTES, "ruleset")?;
            (path.display().to_string(), text)
        }
    };
    Ok(Found {
        file,
        source,
        note: found.note,
    })
}

/// Every option with the value in force.
pub fn options_json(rules: &Rules) -> Value {
    let map: serde_json::Map<String, Value> = rules
        .options
        .iter()
        .map(|o| (o.name.clone(), Value::String(o.value.clone())))
        .collect();
    Value::Object(map)
}

/// Lowercase side name for JSON: "south" / "north".
pub fn side(p: sow::rules::Player) -> &'static str {
    match p {
        0 => "south",
        _ => "north",
    }
}

/// A position in the notation `--from` reads: rows, holdings and the player to move.
pub fn position_notation(rules: &Rules, pos: &sow::engine::Position) -> String {
    format!(
        "{} {}",
        sow::render::notation(rules, pos),
        rules.player_key(pos.to_move)
    )
}

/// A position as JSON, with the player to move.
pub fn position_json_to_move(rules: &Rules, pos: &sow::engine::Position) -> Value {
    let mut v = sow::render::position_json(rules, pos);
    if let Some(map) = v.as_object_mut() {
        map.insert("to_move".into(), json!(rules.player_key(pos.to_move)));
    }
    v
}

/// Labels of a list of moves, space-separated.
pub fn labels(rules: &Rules, moves: &[sow::engine::Move]) -> String {
    moves
        .iter()
        .map(|m| m.label(rules))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Quotes a command-line argument for a shell when it needs it, so that printed commands can
/// be pasted as they are.
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// What the engine did before any move, when the player to move in a set-up position cannot
/// move: the game (or its first round) ends at once. Shown after the position as given.
pub struct StartEnding {
    /// Lines of text, each ending in a newline.
    pub text: String,
    pub json: Value,
}

/// A set-up position as a game, with what happened before any move ([`StartEnding`]) when
/// the player to move could not move.
pub fn game_from(
    rules: &Arc<Rules>,
    given: sow::engine::Position,
) -> (sow::engine::Game, Option<StartEnding>) {
    let mut events = Vec::new();
    let game = sow::engine::Game::from_position_traced(rules.clone(), given, &mut events);
    if events.is_empty() {
        return (game, None);
    }
    let stuck = rules.player_title(given.to_move);
    let mut text = format!("  {stuck}, to move, has no legal move before any move:\n");
    text.push_str(&sow::render::trace_text(rules, &events, &[], Detail::Laps));
    text.push_str(&format!(
        "  board {}\n",
        sow::render::board(rules, game.position())
    ));
    let json = json!({
        "events": events.iter().map(|e| sow::render::event_json(rules, e)).collect::<Vec<_>>(),
        "position": position_json_to_move(rules, game.position()),
    });
    (game, Some(StartEnding { text, json }))
}

/// Ends a ply's object in a JSON document (`replay`, `play`) once its events are written:
/// the round, the board after the ply and the player to move next.
pub fn close_ply_json(out: &mut Output<'_>, game: &sow::engine::Game) {
    out.value(Some("round"), &json!(game.round()));
    out.value(
        Some("board"),
        &sow::render::position_json(game.rules(), game.position()),
    );
    out.value(Some("to_move"), &json!(game.to_move().map(side)));
    out.close();
}

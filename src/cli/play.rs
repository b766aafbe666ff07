//! `sow play`: a game or a whole match in the terminal, each side a person or a computer.

use std::io::{BufRead, IsTerminal, Seek, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use sow::engine::{Game, Move, Position, Status};
use sow::notation::{parse_move, parse_position, player_name};
use sow::record::{self, Item, Record};
use sow::render::{self, Detail, Output, escape, play_traced};
use sow::rules::{MAX_SEATS, Player, Rules};
use sow::trace::Event;

use super::input::{self, Line};
use super::players::{Bot, Computer, Seat, players_help};
use super::{
    Exit, Fail, Format, OptionArgs, Ruleset, done, labels, position_notation, say_err, side,
    signals,
};

const AFTER_HELP: &str = concat!(
    "\
At your turn, type a move: the side's letter and the hole number counted from your own left
(s3), or just the number (3); where the rules let you choose the direction, add it (s3:cw,
s3:ccw), and where they let you sow seeds you hold back onto the board, +3 enters three of
them. `pass` is the move of a player who cannot sow, where the rules let them wait, and
declines an extra turn that the rules make optional. Where the rules have them, `swap`
exchanges sides at your first turn when the other player moved first (the pie rule),
`race` makes a round's first ply where it opens with a race (every player sowing at once;
where each chooses the hole they race from, race:s3 or s3 chooses it first), and
`concede` gives up the game. `hint` shows the move the --hint player
would make, with its score; `undo` takes back your last move and the replies to it; `history` lists the moves;
`score` says what each side holds (in a match, the running score); `help` shows the
commands, `quit` ends the game. A mistyped or illegal move is explained and asked again.
When the input ends (Ctrl-D, or the end of a script fed on stdin) the game is left
unfinished: exit code 0. A line longer than 1024 bytes ends the input too (exit code 2).

",
    players_help!(),
    "

--record FILE creates FILE before the game starts (never an existing file) and writes each
move as it is played, so that a game cut short by Ctrl-C, a closed terminal or a kill leaves
the moves played so far; its last line says how the game ended.

Examples:
  sow play RULESET                            you (South) against the greedy player
  sow play RULESET --south greedy --north human --seed 7
  sow play RULESET --south random --north greedy --seed 1 --record game.sow
  sow play RULESET --north alphabeta:depth=8   you against alpha-beta, 8 plies deep
  sow play RULESET --option NAME=VALUE --from \"S[0 1 0 1 1 2 1] N[0 1 0 2 1 0 1]\""
);

/// Play a game (or a whole match) in the terminal.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The ruleset: a shipped name (see `sow list`) or a path.
    pub ruleset: String,

    /// Who plays South (the bottom row): human, random, greedy, alphabeta[:depth=N,nodes=N]
    /// or mcts[:playouts=N].
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    pub south: Seat,

    /// Who plays North (the top row), as --south.
    #[arg(long, default_value = "greedy", value_name = "PLAYER")]
    pub north: Seat,

    /// The player whose move `hint` shows (a computer player, as --south).
    #[arg(long, default_value = "alphabeta", value_name = "PLAYER")]
    pub hint: Bot,

    /// Seed of the computer players' choices; by default one is picked and printed, so that
    /// the game can be played again.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Write the game record to this new file, move by move (also when the game is left
    /// unfinished or interrupted).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,

    /// Start from a set-up position: `S[..] N[..]`, then optionally `S*=k N*=k`, `removed S=k
    /// N=k`, `claimed S=hole N=hole` and `south` or `north` (to move).
    #[arg(long, value_name = "POSITION")]
    pub from: Option<String>,

    /// How much of each ply to show: plies, laps or drops.
    #[arg(long, value_enum, default_value_t = Detail::Plies)]
    pub detail: Detail,

    #[command(flatten)]
    pub options: OptionArgs,
}

/// What a person typed at the prompt.
enum Entry {
    Move(Move),
    /// Take back the person's last ply and the plies after it.
    Undo,
    Quit,
    /// The input ended.
    Eof,
    /// A line longer than the limit: the input is read no further.
    TooLong,
}

/// How the session ended.
enum Ending {
    Over,
    Quit,
    Eof,
    TooLong,
    /// The screen (or the JSON document) could not be written.
    OutputFailed,
    /// The record could not be written.
    RecordFailed(std::io::Error),
}

/// What a signal needs to close the record: the record, and the plies played.
struct Session {
    record: Option<RecordFile>,
    ply: u32,
}

pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    let ruleset = Ruleset::load(&args.ruleset, &args.options.options)?;
    ruleset.print_warnings(format);
    let rules = ruleset.rules.clone();
    let seats = [args.south, args.north];
    let humans = seats.contains(&Seat::Human);

    let (start, mut game, at_start) = match &args.from {
        Some(text) => {
            let pos = parse_position(&rules, text).map_err(|e| Fail::Invalid {
                file: "--from".into(),
                source: text.clone(),
                diagnostics: vec![
                    sow::diagnostic::Diagnostic::new(
                        sow::diagnostic::Code::BadPosition,
                        format!("bad starting position: {}", e.message),
                    )
                    .at(e.span),
                ],
            })?;
            let (game, at_start) = super::game_from(&rules, pos);
            (pos, game, at_start)
        }
        None => {
            let game = Game::new(rules.clone());
            (*game.position(), game, None)
        }
    };
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut computers = seats.map(|s| match s {
        Seat::Bot(b) => Some(Computer::new(b)),
        Seat::Human => None,
    });
    // Hints draw from a generator of their own: asking for one never changes the game.
    let mut helper = Helper {
        hint: Computer::new(args.hint),
        rng: ChaCha8Rng::seed_from_u64(seed),
        played: Vec::new(),
        humans: seats.map(|s| s == Seat::Human),
        rounds: Vec::new(),
    };
    let title = format!(
        "{}, played with sow: {}, seed {seed}",
        rules.name,
        who_plays(&rules, &seats)
    );

    // The record is made before the first move: a file that exists or a folder that does
    // not is refused now, not once the game is over.
    let record = match &args.record {
        Some(path) => {
            let rec = Record {
                ruleset: Item::new(ruleset_from(&ruleset.given, path)),
                fingerprint: Some(Item::new(record::fingerprint(&ruleset.source))),
                options: ruleset
                    .changed_options()
                    .into_iter()
                    .map(|(n, v)| (Item::new(n), Item::new(v)))
                    .collect(),
                position: args
                    .from
                    .as_ref()
                    .map(|_| Item::new(position_notation(&rules, &start))),
                moves: Vec::new(),
            };
            Some(RecordFile::create(path, &rec, &title).map_err(Fail::Usage)?)
        }
        None => None,
    };
    let session = Arc::new(Mutex::new(Session { record, ply: 0 }));
    if args.record.is_some() {
        let on_signal = session.clone();
        signals::on_termination(move |signal, name| interrupted(&on_signal, signal, name))
            .map_err(|e| Fail::Usage(format!("cannot watch for Ctrl-C: {e}")))?;
    }

    // Where the game is shown: stdout in text mode; stderr in JSON mode when a person plays
    // (stdout is kept for the one JSON document); nowhere for two computers in JSON mode.
    let mut screen: Option<Output<'static>> = match (format, humans) {
        (Format::Text, _) => Some(super::stdout()),
        (Format::Json, true) => Some(Output::new(std::io::stderr())),
        (Format::Json, false) => None,
    };
    let mut doc = (format == Format::Json).then(super::stdout);
    let say = |screen: &mut Option<Output<'static>>, text: &str| {
        if let Some(out) = screen {
            out.text(text);
        }
    };

    say(
        &mut screen,
        &format!(
            "{}: {}, seed {seed}{}\n",
            escape(&rules.name),
            escape(&who_plays(&rules, &seats)),
            if args.seed.is_none() {
                format!(" (play this game again with --seed {seed})")
            } else {
                String::new()
            }
        ),
    );
    if let Some(ending) = &at_start {
        say(
            &mut screen,
            &format!(
                "start: {}\n{}",
                position_notation(&rules, &start),
                ending.text
            ),
        );
    }
    if humans {
        say(
            &mut screen,
            if rules.geometry.rows == 1 {
                "Type a move such as r3 (or just 3), `hint`, `undo`, `help` or `quit`.\n"
            } else {
                "Type a move such as s3 (or just 3), `hint`, `undo`, `help` or `quit`.\n"
            },
        );
    }
    if let Some(doc) = doc.as_mut() {
        doc.open_object(None);
        doc.value(Some("command"), &json!("play"));
        doc.value(Some("ruleset"), &ruleset.json());
        doc.value(Some("seed"), &json!(seed));
        doc.value(
            Some("players"),
            &json!({ "south": seats[0].to_string(), "north": seats[1].to_string() }),
        );
        doc.value(Some("start"), &super::position_json_to_move(&rules, &start));
        if let Some(ending) = &at_start {
            doc.value(Some("start_ending"), &ending.json);
        }
        doc.open_array(Some("plies"));
    }

    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let echo = !stdin.is_terminal();
    let mut end = None;
    let ending = loop {
        if screen.as_ref().is_some_and(Output::failed) || doc.as_ref().is_some_and(Output::failed) {
            break Ending::OutputFailed;
        }
        let Some(mover) = game.to_move() else {
            break Ending::Over;
        };
        let seat = if mover == 0 { seats[0] } else { seats[1] };
        say(
            &mut screen,
            &format!("\n{}", render::picture(&rules, game.position())),
        );
        // With more than two players, --north plays every player after the first.
        let computer = computers
            .get_mut(usize::from(mover.min(1)))
            .and_then(Option::as_mut);
        let h = match (computer, screen.as_mut()) {
            (Some(computer), _) => match computer.choose(&game, &mut rng) {
                Some(choice) => choice.mv,
                // Cannot happen: a game still playing has a legal move.
                None => break Ending::Over,
            },
            (None, Some(out)) => match ask(&game, mover, &mut input, out, echo, &mut helper) {
                Entry::Move(h) => h,
                Entry::Undo => {
                    let taken = helper.undo();
                    game = replayed(&rules, &start, args.from.is_some(), &helper.played)?;
                    let now = game.round();
                    helper.rounds.retain(|&(r, _)| r < now);
                    end = None;
                    say(
                        &mut screen,
                        &format!(
                            "  {} taken back: ply {} again, {} to move.\n",
                            plural_plies(taken),
                            game.ply() + 1,
                            game.to_move().map_or("nobody", player_name)
                        ),
                    );
                    if let Some(doc) = doc.as_mut() {
                        doc.open_object(None);
                        doc.value(Some("undo"), &json!(taken));
                        doc.value(Some("ply"), &json!(game.ply()));
                        super::close_ply_json(doc, &game);
                    }
                    let labels: Vec<String> =
                        (helper.played.iter()).map(|p| p.mv.label(&rules)).collect();
                    let written = match session.lock() {
                        Ok(mut s) => {
                            s.ply = game.ply();
                            match s.record.as_mut() {
                                Some(r) => r.rewrite(&labels),
                                None => Ok(()),
                            }
                        }
                        Err(_) => Ok(()),
                    };
                    if let Err(e) = written {
                        break Ending::RecordFailed(e);
                    }
                    continue;
                }
                Entry::Quit => break Ending::Quit,
                Entry::Eof => break Ending::Eof,
                Entry::TooLong => break Ending::TooLong,
            },
            // A person always has a screen.
            (None, None) => break Ending::Eof,
        };
        let round = game.round();
        // In a match, the game before the ply: played again with its events should the ply
        // end a round, to learn who won it (for the running score).
        let before = rules.rounds.is_some().then(|| game.clone());
        if let Some(doc) = doc.as_mut() {
            doc.open_object(None);
            doc.value(Some("ply"), &json!(game.ply() + 1));
            doc.value(Some("mover"), &json!(rules.player_key(mover)));
            doc.value(Some("player"), &json!(seat.to_string()));
            doc.value(Some("move"), &json!(h.label(&rules)));
            doc.open_array(Some("events"));
        }
        let played = play_traced(&mut game, h, args.detail, screen.as_mut(), doc.as_mut())
            // `ask` and the computer players only offer legal moves.
            .map_err(|e| Fail::Usage(format!("internal error: a legal move was refused: {e}")))?;
        end = played.end.or(end);
        helper.played.push(Played {
            mv: h,
            mover,
            round,
        });
        if let Some(doc) = doc.as_mut() {
            doc.close();
            super::close_ply_json(doc, &game);
        }
        if let Some(mut before) = before
            && game.round() != round
        {
            let mut events = Vec::new();
            if before.play(h, &mut events).is_ok() {
                helper.rounds.extend(events.iter().filter_map(|e| match e {
                    Event::RoundEnd { round, winner, .. } => Some((*round, *winner)),
                    _ => None,
                }));
            }
            if !game.is_over() {
                say(
                    &mut screen,
                    &format!("  {}\n", match_score(&game, &helper.rounds)),
                );
            }
        }
        if let Some(out) = screen.as_mut() {
            out.flush();
        }
        let written = match session.lock() {
            Ok(mut s) => {
                s.ply = game.ply();
                match s.record.as_mut() {
                    Some(r) => r.add(&h.label(&rules)),
                    None => Ok(()),
                }
            }
            Err(_) => Ok(()),
        };
        if let Err(e) = written {
            break Ending::RecordFailed(e);
        }
    };

    let result = result_line(&game, end);
    match &ending {
        Ending::Over => say(
            &mut screen,
            &format!("\n{}", render::picture(&rules, game.position())),
        ),
        Ending::Quit => say(
            &mut screen,
            &format!("You left the game after ply {}.\n", game.ply()),
        ),
        Ending::Eof => say(
            &mut screen,
            &format!(
                "\nThe input ended: the game is left unfinished after ply {}.\n",
                game.ply()
            ),
        ),
        Ending::TooLong => say(
            &mut screen,
            &format!(
                "\nThat line is longer than {}, the limit for one entry: the input is read no further, and the game is left unfinished after ply {}.\n",
                input::line_limit(),
                game.ply()
            ),
        ),
        Ending::OutputFailed | Ending::RecordFailed(_) => {}
    }
    say(&mut screen, &format!("Result: {result}.\n"));

    // Close the record: its last line says how the game ended.
    let record = session.lock().ok().and_then(|mut s| s.record.take());
    let mut exit = match ending {
        Ending::TooLong => Exit::Usage,
        _ => Exit::Ok,
    };
    let mut written = None;
    if let Some(mut file) = record {
        let closed = match &ending {
            Ending::RecordFailed(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
            _ => file.close(&format!("result: {result}")),
        };
        match closed {
            Ok(()) => {
                say(
                    &mut screen,
                    &format!("Record written to {}.\n", file.path.display()),
                );
                written = Some(file.path.display().to_string());
            }
            Err(e) => {
                say_err(&file.abandon(&e));
                exit = Exit::Usage;
            }
        }
    }

    if let Some(doc) = doc.as_mut() {
        doc.close();
        doc.value(Some("finished"), &json!(matches!(ending, Ending::Over)));
        let ended_by = match ending {
            Ending::Over => "game_over",
            Ending::Quit => "quit",
            Ending::Eof => "end_of_input",
            Ending::TooLong => "line_too_long",
            Ending::OutputFailed => "output_failed",
            Ending::RecordFailed(_) => "record_failed",
        };
        doc.value(Some("ended_by"), &json!(ended_by));
        let winner = match game.status() {
            Status::Over { winner } => winner.map(side),
            Status::Playing | Status::Stopped { .. } => None,
        };
        doc.value(Some("winner"), &json!(winner));
        doc.value(Some("result"), &json!(result));
        doc.value(Some("record"), &json!(written));
        doc.value(Some("ok"), &json!(exit == Exit::Ok));
        doc.value(Some("diagnostics"), &json!(ruleset.warnings_json()));
        doc.close();
        done(doc);
    }
    if let Some(out) = screen.as_mut() {
        done(out);
    }
    Ok(exit)
}

/// A signal arrived: the record is closed with a line saying so, then sow exits as the signal
/// would have it (128 + its number).
fn interrupted(session: &Mutex<Session>, signal: i32, name: &str) {
    let code = 128 + signal;
    // The game's thread holds the lock only while it writes a move.
    if let Ok(mut s) = session.lock()
        && let Some(mut file) = s.record.take()
    {
        let ply = s.ply;
        match file.close(&format!(
            "result: interrupted by {name} after ply {ply}; the moves above were played"
        )) {
            Ok(()) => say_err(&format!(
                "\nInterrupted by {name}: the record {} keeps the {} played.\n",
                file.path.display(),
                super::plural(ply as usize, "ply").replace("plys", "plies")
            )),
            Err(e) => say_err(&file.abandon(&e)),
        }
    }
    std::process::exit(code);
}

/// A record being written as the game goes.
struct RecordFile {
    path: PathBuf,
    file: std::fs::File,
    /// The lines before the moves, to write the record again after an undo.
    head: String,
    writer: record::Writer,
    /// Everything written so far, to be shown if the file cannot take more.
    text: String,
}

impl RecordFile {
    /// Creates the record (never over an existing file) and writes its head.
    fn create(path: &Path, rec: &Record, title: &str) -> Result<RecordFile, String> {
        let shown = path.display();
        let folder = path.parent().filter(|d| !d.as_os_str().is_empty());
        if let Some(dir) = folder
            && !dir.is_dir()
        {
            return Err(format!(
                "cannot create the record {shown}: there is no folder {}",
                dir.display()
            ));
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => format!(
                    "{shown} exists already: sow never overwrites a file (it may be the ruleset, or an earlier record); name a new one"
                ),
                _ => format!("cannot create the record {shown}: {e}"),
            })?;
        let writer = record::Writer::new();
        let head = writer.head(rec, &[title.to_string()]);
        let mut made = RecordFile {
            path: path.to_path_buf(),
            file,
            head: head.clone(),
            writer,
            text: String::new(),
        };
        made.write(&head).map_err(|e| made.abandon(&e))?;
        Ok(made)
    }

    /// Writes `piece` and hands it to the system at once: what is written survives sow.
    fn write(&mut self, piece: &str) -> std::io::Result<()> {
        self.text.push_str(piece);
        self.file.write_all(piece.as_bytes())?;
        self.file.flush()
    }

    /// Adds a move.
    fn add(&mut self, mv: &str) -> std::io::Result<()> {
        let piece = self.writer.next_move(mv);
        self.write(&piece)
    }

    /// Writes the record again with these moves (after an undo).
    fn rewrite(&mut self, moves: &[String]) -> std::io::Result<()> {
        self.file.set_len(0)?;
        self.file.rewind()?;
        self.writer = record::Writer::new();
        self.text.clear();
        let head = self.head.clone();
        self.write(&head)?;
        for m in moves {
            self.add(m)?;
        }
        Ok(())
    }

    /// Ends the record with a comment saying how the game ended.
    fn close(&mut self, how: &str) -> std::io::Result<()> {
        let piece = self.writer.end(&[how.to_string()]);
        self.write(&piece)?;
        self.file.sync_all()
    }

    /// The file could not be written (a full disk): it is removed, so that no cut-off file
    /// passes for a record, and what it should have held is given in the message instead.
    fn abandon(&self, e: &std::io::Error) -> String {
        let removed = match std::fs::remove_file(&self.path) {
            Ok(()) => "it is removed, so that no cut-off record is left behind".to_string(),
            Err(r) => format!("it could not be removed either ({r}): do not trust it"),
        };
        let mut text = self.text.clone();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        format!(
            "error: cannot write the record {}: {e}; {removed}. The record so far:\n{text}",
            self.path.display()
        )
    }
}

/// The ruleset as a record at `record` names it: a shipped name as it is, a path relative to
/// the record's folder (where `replay` looks for it).
fn ruleset_from(given: &str, record: &Path) -> String {
    if sow::catalog::shipped(given).is_some() {
        return given.to_string();
    }
    let folder = match record.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => dir.to_path_buf(),
        None => PathBuf::from("."),
    };
    let (Ok(ruleset), Ok(folder)) = (std::fs::canonicalize(given), std::fs::canonicalize(folder))
    else {
        return given.to_string();
    };
    let Some(path) = relative(&folder, &ruleset) else {
        return ruleset.display().to_string();
    };
    // A path that reads as a shipped name would be taken for it.
    if sow::catalog::shipped(&path).is_some() {
        format!("./{path}")
    } else {
        path
    }
}

/// The path of `to` from the folder `from` (both absolute), with `/` between its parts; None
/// when there is none (another drive) or it is not UTF-8.
fn relative(from: &Path, to: &Path) -> Option<String> {
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    if from.first() != to.first() {
        return None;
    }
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    for c in to.iter().skip(common) {
        parts.push(c.as_os_str().to_str()?.to_string());
    }
    Some(parts.join("/"))
}

/// Asks the person at `mover`'s seat for a move until they give a legal one, quit, or the
/// input ends. Mistakes are explained and never fatal.
fn ask(
    game: &Game,
    mover: Player,
    input: &mut impl BufRead,
    screen: &mut Output<'_>,
    echo: bool,
    helper: &mut Helper,
) -> Entry {
    let rules = game.rules();
    let legal = game.legal_moves();
    let mut offered = labels(rules, &legal.to_vec());
    if rules.concede.is_some() {
        // Never among the legal moves (players do not choose it), but a person may.
        offered.push_str(" or concede");
    }
    loop {
        screen.text(&format!(
            "{} to move ({offered}): ",
            rules.player_title(mover)
        ));
        screen.flush();
        let entry = match input::read_line(input) {
            Line::Text(text) => text,
            Line::NotText => {
                if echo {
                    screen.text("(not UTF-8 text)\n");
                }
                let letter = if mover == 0 { 's' } else { 'n' };
                screen.text(&format!(
                    "  that entry is not UTF-8 text, so it is not a move; write the side's letter and the hole number counted from the mover's left, e.g. {letter}3. Try again.\n"
                ));
                continue;
            }
            Line::TooLong => return Entry::TooLong,
            Line::End => return Entry::Eof,
        };
        let entry = entry.trim();
        // Fed from a script, the entry would not appear on the screen: show it, so that a
        // transcript reads like a session.
        if echo {
            screen.text(&format!("{}\n", escape(entry)));
        }
        match entry.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" | "exit" => return Entry::Quit,
            "help" | "?" | "h" => {
                screen.text(&help(rules, mover, &offered, helper.hint.bot()));
                continue;
            }
            "hint" => {
                screen.text(&helper.hint(game));
                continue;
            }
            "undo" | "u" => {
                if helper.can_undo() {
                    return Entry::Undo;
                }
                screen.text("  nothing to undo: no move of a person has been played yet.\n");
                continue;
            }
            "history" | "moves" => {
                screen.text(&helper.history(rules));
                continue;
            }
            "score" => {
                screen.text(&format!("  {}\n", match_score(game, &helper.rounds)));
                continue;
            }
            "board" | "b" => {
                screen.text(&render::picture(rules, game.position()));
                continue;
            }
            _ => {}
        }
        // A bare number is a hole of the player to move (on a ring, the ring's hole).
        let text = if entry.chars().all(|c| c.is_ascii_digit()) {
            format!("{}{entry}", hole_letter(rules, mover))
        } else {
            entry.to_string()
        };
        // Read by the rules in force: the holes' owners may have changed between rounds.
        match parse_move(game.rules(), mover, &text) {
            Err(why) => screen.text(&format!("  {}. Try again.\n", escape(&why))),
            Ok(h) => match game.why_illegal(mover, h) {
                // In the form the list holds (`s3` may stand for `s3:cw` or `race:s3`).
                None => return Entry::Move(game.as_listed(h)),
                Some(why) => screen.text(&format!(
                    "  {}: the legal moves are {offered}. Try again.\n",
                    escape(&why)
                )),
            },
        }
    }
}

/// Who plays whom, by the players' names: `--south` plays the first player, `--north` every
/// other ("South human, North random"; "Raja human, the others random").
fn who_plays(rules: &Rules, seats: &[Seat; 2]) -> String {
    if rules.geometry.seats > 2 {
        format!(
            "{} {}, the others {}",
            rules.player_title(0),
            seats[0],
            seats[1]
        )
    } else {
        format!(
            "{} {}, {} {}",
            rules.player_title(0),
            seats[0],
            rules.player_title(1),
            seats[1]
        )
    }
}

/// The letter of the labels of `mover`'s holes: their row's, or a ring's `r`.
fn hole_letter(rules: &Rules, mover: Player) -> char {
    match (rules.geometry.rows, mover) {
        (1, _) => 'r',
        (_, 0) => 's',
        _ => 'n',
    }
}

fn help(rules: &Rules, mover: Player, offered: &str, hint: Bot) -> String {
    let letter = hole_letter(rules, mover);
    // What else a move may say in these rules: a direction, an entry.
    let mut more = String::new();
    if rules.choose_direction {
        more.push_str(&format!(
            "  You choose the direction: add it to the hole, {letter}3:ccw or {letter}3:cw.\n"
        ));
    }
    if rules.entry.is_some() {
        more.push_str("  +N enters N of the seeds you hold, where the rules allow it (e.g. +3).\n");
    }
    if let Some(arrange) = &rules.arrange {
        let when = match arrange.at {
            sow::ruleset::ArrangeAt::Start => "Before play",
            sow::ruleset::ArrangeAt::Rounds => "At the start of every round after the first",
            sow::ruleset::ArrangeAt::Always => "Before play and at every round's start",
        };
        more.push_str(&format!(
            "  {when}, {letter}3+ puts a seed you hold into {letter}3 and {letter}3- picks one up from it;\n  \
             pass ends your arrangement, where the rules allow it.\n"
        ));
        if let Some(kind) = &rules.pieces {
            more.push_str(&format!(
                "  {letter}3+{name} puts a {name} you hold into {letter}3.\n",
                name = kind.name
            ));
        }
    }
    let optional_capture = (rules.lap_captures.iter())
        .chain(&rules.move_captures)
        .any(|c| c.optional);
    if optional_capture {
        more.push_str(
            "  Where your move stops at a capture on offer, take makes it and leave declines it.\n",
        );
    }
    if rules.relay.as_ref().is_some_and(|r| r.may_stop()) {
        more.push_str("  Where your move stops at a relay on offer, continue makes it and stop ends the move.\n");
    }
    if rules.swap.is_some() {
        more.push_str("  swap, where it is offered (the pie rule: your first turn, when the other player moved\n  first), exchanges sides: the board turns round and the other player moves again.\n");
    }
    if let Some(race) = &rules.race {
        if race.from.is_chosen() {
            more.push_str("  At a round's start each player in turn chooses the hole they race from: race:s3, or s3.\n  Then race, the only move, makes the race: every player sows at once from the hole they\n  chose, a seed each in turn, and the rules say who moves after.\n");
        } else {
            more.push_str("  race, the only move at a round's start, makes the race: every player sows at once from\n  the hole the rules name, a seed each in turn, and the rules say who moves after.\n");
        }
    }
    if rules.concede.is_some() {
        more.push_str("  concede gives up the game (the match, in a match), as the rules say.\n");
    }
    let how = if rules.geometry.rows == 1 {
        format!(
            "  A move is a hole of the ring by its label, e.g. r3, or just its number; the legal moves\n  \
             now are {offered}.\n"
        )
    } else {
        format!(
            "  A move is your side's letter and a hole number counted from your own left, e.g. {letter}3,\n  \
             or just the number. {}'s holes are {letter}1 to {letter}{}; the legal moves now are {offered}.\n",
            rules.player_title(mover),
            rules.geometry.holes_per_player
        )
    };
    format!(
        "{how}\
         {more}  \
         Commands:\n    \
         hint     the move {hint} would make, with its score\n    \
         undo     take back your last move and the replies to it\n    \
         history  the moves so far\n    \
         score    what each side holds (in a match, the running score)\n    \
         board    draw the board again\n    \
         quit     leave the game\n    \
         help     this list\n"
    )
}

/// A ply played in the session, to list, take back and replay.
#[derive(Debug, Clone, Copy)]
struct Played {
    mv: Move,
    mover: Player,
    /// The round it was played in.
    round: u32,
}

/// What the prompt's commands need besides the game: the hint player, with a generator of
/// its own (a hint never changes the game), and the plies played.
struct Helper {
    hint: Computer,
    rng: ChaCha8Rng,
    played: Vec<Played>,
    /// Which sides a person plays.
    humans: [bool; 2],
    /// In a match: each round over, with its winner (None: a draw).
    rounds: Vec<(u32, Option<Player>)>,
}

impl Helper {
    /// Whether a person's ply can be taken back.
    fn can_undo(&self) -> bool {
        self.played.iter().any(|p| self.by_person(p))
    }

    fn by_person(&self, p: &Played) -> bool {
        self.humans
            .get(usize::from(p.mover))
            .copied()
            .unwrap_or(false)
    }

    /// Takes back the last ply a person played and every ply after it; how many.
    fn undo(&mut self) -> usize {
        let Some(last) = self.played.iter().rposition(|p| self.by_person(p)) else {
            return 0;
        };
        let taken = self.played.len() - last;
        self.played.truncate(last);
        taken
    }

    /// The hint player's move and what its search said of it.
    fn hint(&mut self, game: &Game) -> String {
        let bot = self.hint.bot();
        let Some(c) = self.hint.choose(game, &mut self.rng) else {
            return "  no hint: the game is over.\n".to_string();
        };
        let mv = c.mv.label(game.rules());
        let how = match (bot, c.depth) {
            (Bot::AlphaBeta(_), Some(depth)) => {
                format!(
                    " ({} deep, {} nodes)",
                    plural_plies(depth as usize),
                    c.nodes
                )
            }
            (Bot::Mcts { .. }, _) => format!(" ({} playouts)", c.nodes),
            _ => String::new(),
        };
        match c.score {
            Some(score) => format!("  hint: {mv}, from {bot}{how}: {score}\n"),
            None => format!("  hint: {mv}, from {bot}\n"),
        }
    }

    /// The moves so far, ten to a line, by round in a match.
    fn history(&self, rules: &Rules) -> String {
        if self.played.is_empty() {
            return "  no move has been played yet.\n".to_string();
        }
        let mut out = String::from("  moves so far (ply and move):\n");
        let mut round = 0;
        let mut on_line = 0;
        for (ply, p) in (1..).zip(&self.played) {
            if rules.rounds.is_some() && p.round != round {
                round = p.round;
                if on_line > 0 {
                    out.push('\n');
                }
                out.push_str(&format!("    round {round}:\n"));
                on_line = 0;
            }
            if on_line == 10 {
                out.push('\n');
                on_line = 0;
            }
            out.push_str(if on_line == 0 { "    " } else { "  " });
            out.push_str(&format!("{ply} {}", p.mv.label(rules)));
            on_line += 1;
        }
        out.push('\n');
        out
    }
}

/// The game played again from its start up to the plies kept.
fn replayed(
    rules: &Arc<Rules>,
    start: &Position,
    set_up: bool,
    played: &[Played],
) -> Result<Game, Fail> {
    let mut game = if set_up {
        Game::from_position(rules.clone(), *start)
    } else {
        Game::new(rules.clone())
    };
    for p in played {
        game.play(p.mv, &mut ()).map_err(|e| {
            Fail::Usage(format!(
                "internal error: a move played before is refused when played again: {e}"
            ))
        })?;
    }
    Ok(game)
}

fn plural_plies(n: usize) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// What each side holds; in a match, the rounds each has won (`rounds`: each round over,
/// with its winner) and the seeds each has, in their holes and held.
fn match_score(game: &Game, rounds: &[(u32, Option<Player>)]) -> String {
    let pos = game.position();
    let rules = game.rules();
    if rules.rounds.is_some() {
        let won = |p: Player| rounds.iter().filter(|(_, w)| *w == Some(p)).count();
        let drawn = rounds.iter().filter(|(_, w)| w.is_none()).count();
        let has = |p: Player| pos.held(rules, p) + pos.row_seeds(rules, p);
        return format!(
            "match score in round {}: rounds won South {}, North {}{}; seeds South {}, North {} (in their holes and held)",
            game.round(),
            won(0),
            won(1),
            match drawn {
                0 => String::new(),
                1 => ", 1 drawn".to_string(),
                n => format!(", {n} drawn"),
            },
            has(0),
            has(1)
        );
    }
    let mut held = format!("South {}, North {}", pos.held(rules, 0), pos.held(rules, 1));
    if pos.taken.iter().any(|&t| t != 0) {
        held.push_str(&format!(
            "; removed from the game by South {}, by North {}",
            pos.taken[0], pos.taken[1]
        ));
    }
    format!("score (seeds held): {held}")
}

/// The result: the final scores of the game's end (`GameEnd`, given as `end`), or the
/// holdings now for a game left unfinished.
fn result_line(game: &Game, end: Option<(Option<Player>, [u32; MAX_SEATS])>) -> String {
    let pos: &Position = game.position();
    let rules = game.rules();
    let held_now = |p: Player| match end {
        Some((_, scores)) => scores.get(usize::from(p)).copied().unwrap_or(0),
        None => pos.held(rules, p),
    };
    let mut held = (rules.geometry.players())
        .map(|p| format!("{} {}", rules.player_title(p), held_now(p)))
        .collect::<Vec<_>>()
        .join(", ");
    if pos.taken.iter().any(|&t| t != 0) {
        held.push_str(&format!(
            "; removed from the game by South {}, by North {}",
            pos.taken[0], pos.taken[1]
        ));
    }
    match game.status() {
        Status::Over { winner: Some(w) } => format!("{} wins ({held})", rules.player_title(w)),
        Status::Over { winner: None } => format!("draw ({held})"),
        Status::Playing => format!("unfinished after ply {} ({held})", game.ply()),
        Status::Stopped { limit } => format!(
            "stopped by the engine's {} after ply {}, no result ({held})",
            sow::render::limit_name(limit),
            game.ply()
        ),
    }
}

/// A seed for a game nobody asked to reproduce: the clock is good enough, since it is printed.
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A disk that fills up mid-game: the record is removed (a cut-off record could pass
    /// for a whole one, or hold a cut-off move), and the message holds what it would have.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_leaves_no_cut_off_record() {
        let path = std::env::temp_dir().join(format!("sow-full-{}.sow", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let rec = Record {
            ruleset: Item::new("my_variant.toml"),
            fingerprint: None,
            options: Vec::new(),
            position: None,
            moves: Vec::new(),
        };
        let mut made = RecordFile::create(&path, &rec, "a test").expect("created");
        made.add("s1").expect("written");
        // From here on every write fails, as on a full disk.
        made.file = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let e = made.add("n3").expect_err("the disk is full");
        let message = made.abandon(&e);
        assert!(!path.exists(), "the cut-off record is removed");
        assert!(message.contains("No space left on device"), "{message}");
        assert!(message.contains("it is removed"), "{message}");
        assert!(
            message.contains("ruleset = my_variant.toml\nmoves = s1 n3\n"),
            "{message}"
        );
    }

    #[test]
    fn a_path_from_a_folder() {
        let from = Path::new("/a/b/games");
        assert_eq!(
            relative(from, Path::new("/a/b/rules/x.toml")).as_deref(),
            Some("../rules/x.toml")
        );
        assert_eq!(
            relative(from, Path::new("/a/b/games/x.toml")).as_deref(),
            Some("x.toml")
        );
        assert_eq!(
            relative(from, Path::new("/c/x.toml")).as_deref(),
            Some("../../../c/x.toml")
        );
    }
}

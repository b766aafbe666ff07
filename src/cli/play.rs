//! `sow play`: a game or a whole match in the terminal, each side a person or a computer.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use sow::engine::{Game, Status};
use sow::notation::{parse_move, parse_position, player_name};
use sow::record::{self, Item, Record};
use sow::render::{self, Detail};
use sow::rules::{Player, Pos, Rules};

use super::players::{self, Seat};
use super::replay::shown;
use super::{Exit, Fail, Format, OptionArgs, Ruleset, emit_json, labels, position_notation, side};

const AFTER_HELP: &str = "\
At your turn, type a move: the side's letter and the hole number counted from your own left
(s3), or just the number (3). `help` shows the commands, `quit` ends the game. A mistyped or
illegal move is explained and asked again. When the input ends (Ctrl-D, or the end of a
script fed on stdin) the game is left unfinished: exit code 0, and --record still writes the
moves played so far.

Examples:
  sow play RULESET                            you (South) against the greedy player
  sow play RULESET --south greedy --north human --seed 7
  sow play RULESET --south random --north greedy --seed 1 --record game.sow
  sow play RULESET --option NAME=VALUE --from \"S[0 1 0 1 1 2 1] N[0 1 0 2 1 0 1]\"";

/// Play a game (or a whole match) in the terminal.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The ruleset: a shipped name (see `sow list`) or a path.
    pub ruleset: String,

    /// Who plays South (the bottom row).
    #[arg(long, value_enum, default_value_t = Seat::Human)]
    pub south: Seat,

    /// Who plays North (the top row).
    #[arg(long, value_enum, default_value_t = Seat::Greedy)]
    pub north: Seat,

    /// Seed of the computer players' choices; by default one is picked and printed, so that
    /// the game can be played again.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Write the game record to this file at the end (also when the game is left unfinished).
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

/// Where the running game is shown: stdout in text mode; stderr in JSON mode when a person
/// plays (stdout is kept for the one JSON document); nowhere for two computers in JSON mode.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Screen {
    Stdout,
    Stderr,
    Off,
}

impl Screen {
    fn say(self, text: &str) {
        // A closed terminal is no reason to stop the game's bookkeeping.
        let _ = match self {
            Screen::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes()).and_then(|_| out.flush())
            }
            Screen::Stderr => {
                let mut out = std::io::stderr().lock();
                out.write_all(text.as_bytes()).and_then(|_| out.flush())
            }
            Screen::Off => Ok(()),
        };
    }
}

/// What a person typed at the prompt.
enum Entry {
    Move(Pos),
    Quit,
    /// The input ended.
    Eof,
}

/// How the session ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    Over,
    Quit,
    Eof,
}

pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    let ruleset = Ruleset::load(&args.ruleset, &args.options.options)?;
    ruleset.print_warnings(format);
    let rules = ruleset.rules.clone();
    let seats = [args.south, args.north];
    let humans = seats.contains(&Seat::Human);
    let screen = match (format, humans) {
        (Format::Text, _) => Screen::Stdout,
        (Format::Json, true) => Screen::Stderr,
        (Format::Json, false) => Screen::Off,
    };

    let mut game = match &args.from {
        Some(text) => {
            let pos = parse_position(&rules, text).map_err(|e| Fail::Invalid {
                file: "--from".into(),
                source: text.clone(),
                diagnostics: vec![
                    sow::diagnostic::Diagnostic::error(format!(
                        "bad starting position: {}",
                        e.message
                    ))
                    .at(e.span),
                ],
            })?;
            Game::from_position(rules.clone(), pos)
        }
        None => Game::new(rules.clone()),
    };
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = *game.position();

    screen.say(&format!(
        "{}: South {}, North {}, seed {seed}{}\n",
        rules.name,
        seats[0].name(),
        seats[1].name(),
        if args.seed.is_none() {
            format!(" (play this game again with --seed {seed})")
        } else {
            String::new()
        }
    ));
    if humans {
        screen.say("Type a move such as s3 (or just 3), `help` or `quit`.\n");
    }

    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let echo = !stdin.is_terminal();
    let mut moves: Vec<Item> = Vec::new();
    let mut plies: Vec<Value> = Vec::new();
    let mut events = Vec::new();
    let ending = loop {
        let Some(mover) = game.to_move() else {
            break Ending::Over;
        };
        let seat = if mover == 0 { seats[0] } else { seats[1] };
        screen.say(&format!("\n{}", render::picture(&rules, game.position())));
        let h = match seat.bot() {
            Some(bot) => match players::choose(bot, &game, &mut rng) {
                Some(h) => h,
                // Cannot happen: a game still playing has a legal move.
                None => break Ending::Over,
            },
            None => match ask(&game, mover, &mut input, screen, echo) {
                Entry::Move(h) => h,
                Entry::Quit => break Ending::Quit,
                Entry::Eof => break Ending::Eof,
            },
        };
        events.clear();
        if let Err(e) = game.play(h, &mut events) {
            // `ask` and the computer players only offer legal moves.
            return Err(Fail::Usage(format!(
                "internal error: a legal move was refused: {e:?}"
            )));
        }
        moves.push(Item::new(rules.geometry.label(h)));
        let after = *game.position();
        screen.say(&render::trace_text(&rules, &events, &[], args.detail));
        plies.push(json!({
            "ply": game.ply(),
            "round": game.round(),
            "mover": side(mover),
            "player": seat.name(),
            "move": rules.geometry.label(h),
            "board": render::position_json(&rules, &after),
            "to_move": game.to_move().map(side),
            "events": events
                .iter()
                .filter(|e| shown(e, args.detail))
                .map(|e| render::event_json(&rules, e))
                .collect::<Vec<_>>(),
        }));
    };

    let result = result_line(&game);
    match ending {
        Ending::Over => screen.say(&format!("\n{}", render::picture(&rules, game.position()))),
        Ending::Quit => screen.say(&format!("You left the game after ply {}.\n", game.ply())),
        Ending::Eof => screen.say(&format!(
            "\nThe input ended: the game is left unfinished after ply {}.\n",
            game.ply()
        )),
    }

    let written = match &args.record {
        Some(path) => {
            let rec = Record {
                ruleset: Item::new(ruleset.given.clone()),
                options: ruleset
                    .changed_options()
                    .into_iter()
                    .map(|(n, v)| (Item::new(n), Item::new(v)))
                    .collect(),
                position: args
                    .from
                    .as_ref()
                    .map(|_| Item::new(position_notation(&rules, &start))),
                moves,
            };
            let comments = [
                format!(
                    "{}, played with sow: South {}, North {}, seed {seed}",
                    rules.name,
                    seats[0].name(),
                    seats[1].name()
                ),
                format!("result: {result}"),
            ];
            // Never overwrite a file: it may be the ruleset, or an earlier record.
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| {
                    Fail::Usage(format!(
                        "cannot write the record {}: {e} (sow never overwrites a file; name a new one)",
                        path.display()
                    ))
                })?;
            std::io::Write::write_all(&mut file, record::write(&rec, &comments).as_bytes())
                .map_err(|e| {
                    Fail::Usage(format!("cannot write the record {}: {e}", path.display()))
                })?;
            screen.say(&format!("Record written to {}.\n", path.display()));
            Some(path.display().to_string())
        }
        None => None,
    };

    if format == Format::Json {
        emit_json(&json!({
            "command": "play",
            "ok": true,
            "ruleset": ruleset.json(),
            "seed": seed,
            "players": { "south": seats[0].name(), "north": seats[1].name() },
            "start": super::position_json_to_move(&rules, &start),
            "plies": plies,
            "finished": ending == Ending::Over,
            "ended_by": match ending { Ending::Over => "game_over", Ending::Quit => "quit", Ending::Eof => "end_of_input" },
            "winner": match game.status() { Status::Over { winner } => winner.map(side), Status::Playing | Status::Stopped { .. } => None },
            "result": result,
            "record": written,
            "diagnostics": ruleset.warnings_json(),
        }));
    }
    Ok(Exit::Ok)
}

/// Asks the person at `mover`'s seat for a move until they give a legal one, quit, or the
/// input ends. Mistakes are explained and never fatal.
fn ask(game: &Game, mover: Player, input: &mut impl BufRead, screen: Screen, echo: bool) -> Entry {
    let rules = game.rules();
    let legal = game.legal_moves();
    let offered = labels(rules, &legal.to_vec());
    loop {
        screen.say(&format!("{} to move ({offered}): ", player_name(mover)));
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => return Entry::Eof,
            Ok(_) => {}
        }
        let entry = line.trim();
        // Fed from a script, the entry would not appear on the screen: show it, so that a
        // transcript reads like a session.
        if echo {
            screen.say(&format!("{entry}\n"));
        }
        match entry.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" | "exit" => return Entry::Quit,
            "help" | "?" | "h" => {
                screen.say(&help(rules, mover, &offered));
                continue;
            }
            "board" | "b" => {
                screen.say(&render::picture(rules, game.position()));
                continue;
            }
            _ => {}
        }
        // A bare number is a hole of the player to move.
        let text = if entry.chars().all(|c| c.is_ascii_digit()) {
            format!("{}{entry}", if mover == 0 { 's' } else { 'n' })
        } else {
            entry.to_string()
        };
        match parse_move(rules, mover, &text) {
            Err(why) => screen.say(&format!("  {why}. Try again.\n")),
            Ok(h) => match game.why_illegal(mover, h) {
                None => return Entry::Move(h),
                Some(why) => screen.say(&format!(
                    "  {why}: the legal moves are {offered}. Try again.\n"
                )),
            },
        }
    }
}

fn help(rules: &Rules, mover: Player, offered: &str) -> String {
    let letter = if mover == 0 { 's' } else { 'n' };
    format!(
        "  A move is your side's letter and a hole number counted from your own left, e.g. {letter}3,\n  \
         or just the number. {}'s holes are {letter}1 to {letter}{}; the legal moves now are {offered}.\n  \
         Commands: board (draw the board again), quit (leave the game), help.\n",
        player_name(mover),
        rules.geometry.holes_per_player
    )
}

fn result_line(game: &Game) -> String {
    let pos = game.position();
    let rules = game.rules();
    let mut held = format!("South {}, North {}", pos.held(rules, 0), pos.held(rules, 1));
    if pos.taken != [0, 0] {
        held.push_str(&format!(
            "; removed from the game by South {}, by North {}",
            pos.taken[0], pos.taken[1]
        ));
    }
    match game.status() {
        Status::Over { winner: Some(w) } => format!("{} wins ({held})", player_name(w)),
        Status::Over { winner: None } => format!("draw ({held})"),
        Status::Playing => format!("unfinished after ply {} ({held})", game.ply()),
        Status::Stopped { limit } => format!(
            "stopped by the engine's {} after ply {}, no result ({held})",
            match limit {
                sow::trace::Limit::Laps => "lap limit",
                sow::trace::Limit::Plies => "ply limit",
            },
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

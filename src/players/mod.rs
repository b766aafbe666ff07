//! Computer players, from the random player to alpha-beta and Monte Carlo tree search, for
//! any ruleset.
//!
//! A player is named by a [`Bot`] (or a [`Seat`], which may also be a person), parsed from
//! the words the command line takes: `random`, `greedy`, `alphabeta:depth=8`,
//! `alphabeta:nodes=50000`, `mcts:playouts=2000`. A [`Computer`] is a bot with its buffers
//! (the search's table and tree, made once and reused), and chooses moves in a [`Game`].
//!
//! Every player draws exactly one number from the caller's generator per move, whatever it
//! is, and counts its work in nodes, depth or playouts, never in time: a seed gives the same
//! game on every machine, and `sow play --seed S` between two computers plays the game that
//! `sow simulate --seed S` counted first.
//!
//! ```
//! use std::sync::Arc;
//! use rand::SeedableRng;
//! use rand_chacha::ChaCha8Rng;
//! use sow::engine::Game;
//! use sow::players::{Bot, Computer};
//!
//! let text = sow::catalog::shipped("kalah").expect("a shipped ruleset");
//! let rules = Arc::new(sow::check::load(text, &[]).expect("it loads").rules);
//! let mut game = Game::new(rules);
//!
//! let bot: Bot = "alphabeta:depth=6".parse().expect("a player");
//! let mut south = Computer::new(bot);
//! let mut rng = ChaCha8Rng::seed_from_u64(1);
//! let choice = south.choose(&game, &mut rng).expect("a move to make");
//! assert!(game.legal_moves().contains(choice.mv));
//! println!("alpha-beta plays {} ({})", choice.mv.label(game.rules()),
//!     choice.score.expect("a search gives a score"));
//! game.play(choice.mv, &mut ()).expect("a legal move");
//! ```

pub mod alphabeta;
pub mod mcts;
pub mod model;

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::engine::{Game, Move};
use crate::rules::Player;

pub use alphabeta::{AlphaBeta, Budget};
pub use mcts::Mcts;
pub use model::{Model, Moves, Outcome};

/// The node budget of `alphabeta` when none is given.
pub const DEFAULT_NODES: u64 = 20_000;
/// The playouts of `mcts` when none are given.
pub const DEFAULT_PLAYOUTS: u32 = 1_000;
/// The most nodes a search may be given.
pub const MAX_NODES: u64 = 1_000_000_000_000;
/// The most playouts a search may be given.
pub const MAX_PLAYOUTS: u32 = 100_000_000;

/// A computer player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bot {
    /// Any legal move, uniformly at random.
    Random,
    /// The legal move that leaves the mover furthest ahead after the ply (seeds held, plus
    /// seeds their captures removed from the game, less the best opponent's); ties broken at
    /// random.
    Greedy,
    /// Alpha-beta search ([`alphabeta`]): iterative deepening to `depth` plies or until
    /// `nodes` moves have been played, whichever comes first.
    AlphaBeta(Budget),
    /// Monte Carlo tree search ([`mcts`]) with this many random playouts a move.
    Mcts {
        /// Playouts per move.
        playouts: u32,
    },
}

/// Who sits at a side: a person at the keyboard, or a computer player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// A person, typing moves.
    Human,
    /// A computer player.
    Bot(Bot),
}

/// Alpha-beta's budget when none is given: [`DEFAULT_NODES`] nodes, as deep as they reach.
pub const DEFAULT_BUDGET: Budget = Budget {
    depth: alphabeta::MAX_DEPTH,
    nodes: Some(DEFAULT_NODES),
};

impl Bot {
    /// Alpha-beta with the default budget.
    pub const ALPHABETA: Bot = Bot::AlphaBeta(DEFAULT_BUDGET);

    /// Whether the player searches (and so has a score for its move).
    pub fn searches(self) -> bool {
        matches!(self, Bot::AlphaBeta(_) | Bot::Mcts { .. })
    }
}

/// The players, as `--help` and errors list them.
pub const PLAYERS: &str =
    "human, random, greedy, alphabeta[:depth=N,nodes=N] and mcts[:playouts=N]";

/// A player that could not be read, with the reason in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

impl FromStr for Seat {
    type Err = SpecError;

    /// Reads `human` or a [`Bot`].
    fn from_str(text: &str) -> Result<Seat, SpecError> {
        let (name, settings) = split(text)?;
        if name == "human" {
            no_settings(name, settings)?;
            return Ok(Seat::Human);
        }
        bot(text, name, settings).map(Seat::Bot)
    }
}

impl FromStr for Bot {
    type Err = SpecError;

    /// Reads `random`, `greedy`, `alphabeta[:depth=N,nodes=N]` or `mcts[:playouts=N]`.
    fn from_str(text: &str) -> Result<Bot, SpecError> {
        let (name, settings) = split(text)?;
        if name == "human" {
            return Err(SpecError(
                "`human` is a person at the keyboard, who cannot play here: only `sow play` asks a person for moves; choose a computer player (random, greedy, alphabeta or mcts)"
                    .into(),
            ));
        }
        bot(text, name, settings)
    }
}

/// The name and the settings (after `:`) of a player.
fn split(text: &str) -> Result<(&str, Option<&str>), SpecError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(SpecError(format!("a player is needed: {PLAYERS}")));
    }
    Ok(match text.split_once(':') {
        Some((name, settings)) => (name.trim(), Some(settings)),
        None => (text, None),
    })
}

fn no_settings(name: &str, settings: Option<&str>) -> Result<(), SpecError> {
    match settings {
        None => Ok(()),
        Some(s) => Err(SpecError(format!(
            "`{name}` takes no settings, so `{name}:{s}` is not a player; write `{name}`"
        ))),
    }
}

fn bot(text: &str, name: &str, settings: Option<&str>) -> Result<Bot, SpecError> {
    match name {
        "random" => no_settings(name, settings).map(|()| Bot::Random),
        "greedy" => no_settings(name, settings).map(|()| Bot::Greedy),
        "alphabeta" => {
            let mut depth = None;
            let mut nodes = None;
            for (key, value) in pairs(name, settings, &["depth", "nodes"])? {
                match key {
                    "depth" => {
                        let d = number(key, value, 1, u64::from(alphabeta::MAX_DEPTH))?;
                        once(&mut depth, d as u32, key)?;
                    }
                    _ => once(&mut nodes, number(key, value, 1, MAX_NODES)?, key)?,
                }
            }
            Ok(Bot::AlphaBeta(match (depth, nodes) {
                (None, None) => DEFAULT_BUDGET,
                (Some(depth), nodes) => Budget { depth, nodes },
                (None, nodes) => Budget {
                    depth: alphabeta::MAX_DEPTH,
                    nodes,
                },
            }))
        }
        "mcts" => {
            let mut playouts = None;
            for (key, value) in pairs(name, settings, &["playouts"])? {
                let n = number(key, value, 1, u64::from(MAX_PLAYOUTS))?;
                once(&mut playouts, n as u32, key)?;
            }
            Ok(Bot::Mcts {
                playouts: playouts.unwrap_or(DEFAULT_PLAYOUTS),
            })
        }
        _ => {
            let known = ["human", "random", "greedy", "alphabeta", "mcts"];
            let hint = suggest(name, &known)
                .map(|k| format!("did you mean `{k}`? "))
                .unwrap_or_default();
            Err(SpecError(format!(
                "`{}` is not a player: {hint}the players are {PLAYERS}",
                text.trim()
            )))
        }
    }
}

/// The `key=value` settings of a player, each key one of `keys`.
fn pairs<'a>(
    name: &str,
    settings: Option<&'a str>,
    keys: &[&'static str],
) -> Result<Vec<(&'static str, &'a str)>, SpecError> {
    let Some(settings) = settings else {
        return Ok(Vec::new());
    };
    let listed = keys.join(" and ");
    if settings.trim().is_empty() {
        return Err(SpecError(format!(
            "nothing follows `{name}:`; write its settings as KEY=VALUE separated by commas ({listed}), e.g. {}",
            example(name)
        )));
    }
    let mut out = Vec::new();
    for part in settings.split(',') {
        let part = part.trim();
        let Some((key, value)) = part.split_once('=') else {
            return Err(SpecError(format!(
                "`{part}` in `{name}:{settings}` is not KEY=VALUE; {name}'s settings are {listed}, e.g. {}",
                example(name)
            )));
        };
        let key = key.trim();
        let Some(&known) = keys.iter().find(|&&k| k == key) else {
            let hint = suggest(key, keys)
                .map(|k| format!("did you mean `{k}`? "))
                .unwrap_or_default();
            return Err(SpecError(format!(
                "{name} has no setting `{key}`: {hint}its settings are {listed}"
            )));
        };
        out.push((known, value.trim()));
    }
    Ok(out)
}

fn example(name: &str) -> &'static str {
    match name {
        "mcts" => "mcts:playouts=2000",
        _ => "alphabeta:depth=8",
    }
}

/// A whole number from `low` to `high`.
fn number(key: &str, value: &str, low: u64, high: u64) -> Result<u64, SpecError> {
    let digits = value.replace('_', "");
    match digits.parse::<u64>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(SpecError(format!(
            "{key} must be a whole number from {low} to {high}, not `{value}`"
        ))),
    }
}

fn once<T>(slot: &mut Option<T>, value: T, key: &str) -> Result<(), SpecError> {
    if slot.is_some() {
        return Err(SpecError(format!("{key} is given twice; give it once")));
    }
    *slot = Some(value);
    Ok(())
}

/// The known word closest to `word`, if it is close.
fn suggest(word: &str, known: &[&'static str]) -> Option<&'static str> {
    known
        .iter()
        .map(|&k| (strsim::levenshtein(word, k), k))
        .filter(|&(d, k)| d <= 2.max(k.len() / 3) && d < k.len())
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

impl fmt::Display for Bot {
    /// The player as it is written on the command line, with every setting.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bot::Random => f.write_str("random"),
            Bot::Greedy => f.write_str("greedy"),
            Bot::AlphaBeta(Budget { depth, nodes }) => {
                match (*depth == alphabeta::MAX_DEPTH, nodes) {
                    (true, Some(n)) => write!(f, "alphabeta:nodes={n}"),
                    (false, Some(n)) => write!(f, "alphabeta:depth={depth},nodes={n}"),
                    (_, None) => write!(f, "alphabeta:depth={depth}"),
                }
            }
            Bot::Mcts { playouts } => write!(f, "mcts:playouts={playouts}"),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Bot(b) => b.fmt(f),
        }
    }
}

/// How good a searching player judged its move, for the seat to move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Score {
    /// Alpha-beta's margin at the end of its look-ahead: seeds ahead of the best opponent
    /// (negative: behind), counted as its evaluation counts them ([`alphabeta`]).
    Seeds(i32),
    /// Alpha-beta found a forced win in this many plies.
    WinIn(u32),
    /// Alpha-beta found that every line loses, at best in this many plies.
    LossIn(u32),
    /// Monte Carlo's mean reward through the move: a win 1, a draw ½, a loss 0.
    Expected(f64),
}

impl Score {
    /// An alpha-beta value as a score.
    pub fn of_value(v: i32) -> Score {
        if v >= alphabeta::DECIDED {
            Score::WinIn((alphabeta::WIN - v).max(0) as u32)
        } else if v <= -alphabeta::DECIDED {
            Score::LossIn((alphabeta::WIN + v).max(0) as u32)
        } else {
            Score::Seeds(v)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plies = |n: u32| {
            if n == 1 {
                "1 ply".to_string()
            } else {
                format!("{n} plies")
            }
        };
        match *self {
            Score::Seeds(0) => f.write_str("even"),
            Score::Seeds(n) if n.abs() == 1 => write!(f, "{n:+} seed"),
            Score::Seeds(n) => write!(f, "{n:+} seeds"),
            Score::WinIn(n) => write!(f, "a forced win in {}", plies(n)),
            Score::LossIn(n) => write!(f, "a loss in {} against best play", plies(n)),
            Score::Expected(p) => write!(f, "{:.0}% expected", 100.0 * p),
        }
    }
}

/// A move chosen by a computer player, and what its search said of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Choice {
    /// The move: a hole (with its direction, where the mover chooses it) or a pass, as the
    /// game lists its legal moves.
    pub mv: Move,
    /// How good the search judged it (none for the random and greedy players).
    pub score: Option<Score>,
    /// Alpha-beta: the depth searched in full.
    pub depth: Option<u32>,
    /// The work done: alpha-beta's nodes (moves played), Monte Carlo's playouts; 0 for the
    /// random and greedy players.
    pub nodes: u64,
}

/// A computer player with its buffers: the search's table and tree, made at the first move
/// and reused, so that a long series of games allocates them once.
#[derive(Debug, Clone)]
pub struct Computer {
    bot: Bot,
    brain: Brain,
}

#[derive(Debug, Clone)]
enum Brain {
    Random,
    /// The copy each candidate move is played on.
    Greedy(Option<Box<Game>>),
    AlphaBeta(Box<AlphaBeta<Game>>),
    Mcts(Box<Mcts<Game>>),
}

impl Computer {
    /// The player `bot`, with nothing allocated yet.
    pub fn new(bot: Bot) -> Computer {
        let brain = match bot {
            Bot::Random => Brain::Random,
            Bot::Greedy => Brain::Greedy(None),
            Bot::AlphaBeta(budget) => Brain::AlphaBeta(Box::new(AlphaBeta::new(budget))),
            Bot::Mcts { playouts } => Brain::Mcts(Box::new(Mcts::new(playouts))),
        };
        Computer { bot, brain }
    }

    /// Which player this is.
    pub fn bot(&self) -> Bot {
        self.bot
    }

    /// The move this player makes in `game`, or None when the game is over. Exactly one
    /// number is drawn from `rng`.
    pub fn choose(&mut self, game: &Game, rng: &mut ChaCha8Rng) -> Option<Choice> {
        let plain = |mv| Choice {
            mv,
            score: None,
            depth: None,
            nodes: 0,
        };
        match &mut self.brain {
            Brain::Random => {
                let mut moves = Moves::default();
                game.moves(&mut moves);
                if moves.is_empty() {
                    return None;
                }
                moves.get(rng.random_range(0..moves.len())).map(plain)
            }
            Brain::Greedy(scratch) => greedy(game, scratch, rng).map(plain),
            Brain::AlphaBeta(search) => search.search(game, rng).map(|found| Choice {
                mv: found.best,
                score: Some(Score::of_value(found.value)),
                depth: Some(found.depth),
                nodes: found.nodes,
            }),
            Brain::Mcts(search) => search.search(game, rng).map(|found| Choice {
                mv: found.best,
                score: Some(Score::Expected(found.value)),
                depth: None,
                nodes: u64::from(found.playouts),
            }),
        }
    }
}

/// The greedy player: every legal move played on a copy, the best margin after it kept
/// (ties in the order the moves are listed), one of them drawn at random.
fn greedy<M: Model>(
    game: &M,
    scratch: &mut Option<Box<M>>,
    rng: &mut ChaCha8Rng,
) -> Option<M::Move> {
    let mover = game.to_move()?;
    let mut moves = Moves::default();
    game.moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    let copy = scratch.get_or_insert_with(|| Box::new(game.clone()));
    let mut best = Moves::default();
    let mut best_score = i64::MIN;
    for &m in moves.as_slice() {
        copy.copy_from(game);
        if !copy.play(m) {
            continue;
        }
        let others = (0..game.seats() as Player)
            .filter(|&s| s != mover)
            .map(|s| copy.seeds(s))
            .max()
            .unwrap_or(0);
        let score = copy.seeds(mover) - others;
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(m);
        }
    }
    best.get(rng.random_range(0..best.len().max(1)))
}

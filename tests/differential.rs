//! Differential test: seeded random games of the two seed games, played move for move by the
//! generic engine on the shipped rulesets and by the hand-written reference models
//! (tests/reference/), which share no code with the engine. After every ply both must show the
//! same rows, captured seeds, closed holes, player to move, legal moves, round and result.
//!
//! Raja Pasu is played as whole matches (every round). Each game picks its moves with
//! `ChaCha8Rng::seed_from_u64(seed)`, uniformly among the legal moves in the mover's hole order,
//! so a failure is reproduced from its ruleset, options and seed alone.

mod reference;

use std::fmt::Write as _;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::raja_pasu::{self, Closed, LastFour, RajaPasu, Refill};
use reference::sadeqa_ii::{self, EmptyRow, Endless, Opening, SadeqaII};
use reference::{Observed, Outcome, Side};
use sow::engine::{Game, Position, Status};
use sow::rules::{Player, Pos, Rules};

/// Games played under the default option values, per seed game.
const GAMES: u64 = 10_000;
/// Games played under each non-default option value.
const GAMES_PER_OPTION: u64 = 1_000;
/// Plies after which a game is taken to be stuck in a loop that neither side detected.
const MAX_PLIES: usize = 100_000;

/// A reference model as the differential test drives it.
trait Model {
    /// The shipped ruleset the model is compared with.
    const RULESET: &'static str;
    /// The model under these ruleset option values (TOML name and value).
    fn with_options(options: &[(&str, &str)]) -> Self;
    /// The engine's count of the seeds the model reports in `Observed::captured`.
    fn engine_captured(rules: &Rules, pos: &Position, player: Player) -> u32;
    fn observe(&self) -> Observed;
    fn legal_mask(&self) -> u32;
    fn play(&mut self, hole: usize);
    fn result(&self) -> Option<Outcome>;
    fn round(&self) -> u32;
}

impl Model for RajaPasu {
    const RULESET: &'static str = "raja_pasu";

    fn with_options(options: &[(&str, &str)]) -> Self {
        let mut o = raja_pasu::Options::default();
        for &option in options {
            match option {
                ("last_four", "owner") => o.last_four = LastFour::Owner,
                ("last_four", "sower") => o.last_four = LastFour::Sower,
                ("last_four", "none") => o.last_four = LastFour::None,
                ("origin_skip", v) => o.origin_skip = raja_skip(v),
                ("pussa_chain", "single") => o.chain = false,
                ("pussa_chain", "necklace") => o.chain = true,
                ("closed_holes", "absent") => o.closed = Closed::Absent,
                ("closed_holes", "empty") => o.closed = Closed::Empty,
                ("refill_from", "right") => o.refill_from = Refill::Right,
                ("refill_from", "left") => o.refill_from = Refill::Left,
                ("first", v) => o.first = side(v),
                _ => panic!("no Raja Pasu reference option for {option:?}"),
            }
        }
        RajaPasu::new(o)
    }

    /// Captures go to the players' reserves.
    fn engine_captured(rules: &Rules, pos: &Position, player: Player) -> u32 {
        pos.held(rules, player)
    }

    fn observe(&self) -> Observed {
        RajaPasu::observe(self)
    }
    fn legal_mask(&self) -> u32 {
        RajaPasu::legal_mask(self)
    }
    fn play(&mut self, hole: usize) {
        RajaPasu::play(self, hole);
    }
    fn result(&self) -> Option<Outcome> {
        RajaPasu::result(self)
    }
    fn round(&self) -> u32 {
        RajaPasu::round(self)
    }
}

impl Model for SadeqaII {
    const RULESET: &'static str = "sadeqa_ii";

    fn with_options(options: &[(&str, &str)]) -> Self {
        let mut o = sadeqa_ii::Options::default();
        for &option in options {
            match option {
                ("opening", "both") => o.opening = Opening::Both,
                ("opening", "starter") => o.opening = Opening::Starter,
                ("first", v) => o.first = side(v),
                ("origin_skip", v) => o.origin_skip = sadeqa_skip(v),
                ("endless", "draw") => o.endless = Endless::Draw,
                ("endless", "mover_loses") => o.endless = Endless::MoverLoses,
                ("empty_row", "at_turn_start") => o.empty_row = EmptyRow::AtTurnStart,
                ("empty_row", "at_once") => o.empty_row = EmptyRow::AtOnce,
                _ => panic!("no Sadeqa II reference option for {option:?}"),
            }
        }
        SadeqaII::new(o)
    }

    /// Captured seeds leave the game (SQ-7); the engine counts them per capturer.
    fn engine_captured(_: &Rules, pos: &Position, player: Player) -> u32 {
        pos.taken[player as usize]
    }

    fn observe(&self) -> Observed {
        SadeqaII::observe(self)
    }
    fn legal_mask(&self) -> u32 {
        SadeqaII::legal_mask(self)
    }
    fn play(&mut self, hole: usize) {
        SadeqaII::play(self, hole);
    }
    fn result(&self) -> Option<Outcome> {
        SadeqaII::result(self)
    }
    /// Sadeqa II is a single game.
    fn round(&self) -> u32 {
        1
    }
}

fn side(value: &str) -> Side {
    match value {
        "south" => Side::South,
        "north" => Side::North,
        _ => panic!("no side {value:?}"),
    }
}

fn raja_skip(value: &str) -> raja_pasu::OriginSkip {
    match value {
        "never" => raja_pasu::OriginSkip::Never,
        "move" => raja_pasu::OriginSkip::Move,
        "lap" => raja_pasu::OriginSkip::Lap,
        _ => panic!("no origin_skip {value:?}"),
    }
}

fn sadeqa_skip(value: &str) -> sadeqa_ii::OriginSkip {
    match value {
        "never" => sadeqa_ii::OriginSkip::Never,
        "move" => sadeqa_ii::OriginSkip::Move,
        "lap" => sadeqa_ii::OriginSkip::Lap,
        _ => panic!("no origin_skip {value:?}"),
    }
}

/// The shipped ruleset `name` with these option values.
fn load(name: &str, options: &[(&str, &str)]) -> Arc<Rules> {
    let text = sow::catalog::shipped(name).expect("shipped ruleset");
    let overrides: Vec<(String, String)> = options
        .iter()
        .map(|&(k, v)| (k.to_string(), v.to_string()))
        .collect();
    match sow::check::load(text, &overrides) {
        Ok(loaded) => Arc::new(loaded.rules),
        Err(d) => panic!("{name} {options:?} does not load: {d:?}"),
    }
}

/// Everything compared after a ply.
#[derive(Debug, PartialEq)]
struct Snapshot {
    seen: Observed,
    /// Bit h-1 set: the player to move may play their hole h.
    legal: u32,
    round: u32,
    result: Option<Outcome>,
}

fn model_snapshot<M: Model>(model: &M) -> Snapshot {
    Snapshot {
        seen: model.observe(),
        legal: model.legal_mask(),
        round: model.round(),
        result: model.result(),
    }
}

fn engine_snapshot<M: Model>(game: &Game) -> Snapshot {
    let rules = game.rules();
    let g = &rules.geometry;
    let pos = game.position();
    let seeds = |p: Player| g.holes_of(p).map(|h| u32::from(pos.board[h as usize])).collect();
    let closed = |p: Player| g.holes_of(p).map(|h| pos.closed & (1 << h) != 0).collect();
    let legal = game
        .legal_moves()
        .as_slice()
        .iter()
        .fold(0, |mask, &h| mask | 1 << (g.number[h as usize] - 1));
    Snapshot {
        seen: Observed {
            south: seeds(0),
            north: seeds(1),
            captured: [0, 1].map(|p| M::engine_captured(rules, pos, p)),
            closed_south: closed(0),
            closed_north: closed(1),
            to_move: game.to_move().map(|p| [Side::South, Side::North][p as usize]),
        },
        legal,
        round: game.round(),
        result: match game.status() {
            Status::Playing => None,
            Status::Over { winner: None } => Some(Outcome::Draw),
            Status::Over { winner: Some(p) } => {
                Some(Outcome::Winner([Side::South, Side::North][p as usize]))
            }
        },
    }
}

/// Plays game `seed` through the engine and the model, comparing them after every ply.
fn play_both<M: Model>(rules: &Arc<Rules>, options: &[(&str, &str)], seed: u64) {
    let mut game = Game::new(rules.clone());
    let mut model = M::with_options(options);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // (round, hole) of every move so far.
    let mut moves: Vec<(u32, Pos)> = Vec::new();
    loop {
        let engine = engine_snapshot::<M>(&game);
        let reference = model_snapshot(&model);
        if engine != reference {
            panic!(
                "{}",
                mismatch(&game, options, seed, &moves, &engine, &reference)
            );
        }
        if game.is_over() {
            return;
        }
        assert!(
            moves.len() < MAX_PLIES,
            "{} {options:?} seed {seed}: no end after {MAX_PLIES} plies",
            M::RULESET
        );
        let legal = game.legal_moves();
        let hole = legal.as_slice()[rng.random_range(0..legal.len())];
        moves.push((game.round(), hole));
        if let Err(e) = game.play(hole, &mut ()) {
            panic!(
                "{} {options:?} seed {seed} ply {}: the engine refuses its own legal move: {e:?}",
                M::RULESET,
                moves.len()
            );
        }
        model.play(usize::from(rules.geometry.number[hole as usize]));
    }
}

/// The failure message: how to reproduce it, the moves so far and both sides' views.
fn mismatch(
    game: &Game,
    options: &[(&str, &str)],
    seed: u64,
    moves: &[(u32, Pos)],
    engine: &Snapshot,
    reference: &Snapshot,
) -> String {
    let rules = game.rules();
    let mut played = String::new();
    let mut round = 0;
    for &(r, hole) in moves {
        if r != round {
            round = r;
            let _ = write!(played, "\n  round {r}:");
        }
        let _ = write!(played, " {}", rules.geometry.label(hole));
    }
    format!(
        "engine and reference disagree: {} options {options:?} seed {seed}, after ply {} \
         (0 = the start)\nmoves:{played}\nengine board: {}\nengine:    {}\nreference: {}\n\
         engine snapshot:    {engine:?}\nreference snapshot: {reference:?}",
        rules.name,
        moves.len(),
        sow::render::board(rules, game.position()),
        show(&engine.seen),
        show(&reference.seen),
    )
}

/// `S[7 7 x 0] N[…] captured S=3 N=4, to move South`.
fn show(o: &Observed) -> String {
    let row = |seeds: &[u32], closed: &[bool]| -> String {
        let cells: Vec<String> = seeds
            .iter()
            .zip(closed)
            .map(|(s, &c)| if c { "x".into() } else { s.to_string() })
            .collect();
        cells.join(" ")
    };
    format!(
        "S[{}] N[{}] captured S={} N={}, to move {:?}",
        row(&o.south, &o.closed_south),
        row(&o.north, &o.closed_north),
        o.captured[0],
        o.captured[1],
        o.to_move
    )
}

/// `games` seeded games under these option values.
fn run<M: Model>(options: &[(&str, &str)], games: u64) {
    let rules = load(M::RULESET, options);
    for seed in 0..games {
        play_both::<M>(&rules, options, seed);
    }
}

/// `GAMES_PER_OPTION` games under each non-default value of each option, one option at a time.
fn run_option_values<M: Model>() {
    let rules = load(M::RULESET, &[]);
    let mut variants = 0;
    for option in &rules.options {
        for value in option.values.iter().filter(|v| **v != option.default) {
            run::<M>(&[(&option.name, value)], GAMES_PER_OPTION);
            variants += 1;
        }
    }
    assert!(variants > 0, "{} has no option to vary", M::RULESET);
}

#[test]
fn raja_pasu_matches() {
    run::<RajaPasu>(&[], GAMES);
}

#[test]
fn sadeqa_ii_games() {
    run::<SadeqaII>(&[], GAMES);
}

#[test]
fn raja_pasu_option_values() {
    run_option_values::<RajaPasu>();
}

#[test]
fn sadeqa_ii_option_values() {
    run_option_values::<SadeqaII>();
}

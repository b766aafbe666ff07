//! Differential test of Ako Okwe: the generic engine on the shipped ruleset against the
//! hand-written model of `tests/reference/ako_okwe.rs`, which shares no code with it, over
//! seeded random games. After every ply both must show the same rows, stores and player to
//! move, and list the same legal moves in the same order (hole by hole, counter-clockwise
//! before clockwise: the mover chooses each move's direction); at the end, the same result.
//!
//! Each game picks its moves with `ChaCha8Rng::seed_from_u64(seed)`, `random_range(0..n)` over
//! the engine's list of legal moves (the benchmarks' policy), so a failure is reproduced from
//! its option values and seed alone; the message also gives the moves and both sides' views.
//!
//! Played: `GAMES` games under each value of each option, the other options at their
//! defaults; `MIX_GAMES` under every combination of option values; and a check that the
//! ruleset loaded without options is the model's `Options::default()` (what the benchmarks
//! compare).

mod engine_view;
mod reference;

use std::fmt::Write as _;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use reference::ako_okwe::{self, AkoOkwe, Count, Dir, FirstCaptures, Move, SingleSeed, WrongCount};
use reference::{Observed, Outcome, Side};
use sow::engine::Game;
use sow::rules::Rules;

/// Games under each value of each option, the others at their defaults.
const GAMES: u64 = 1_000;
/// Games under each combination of option values.
const MIX_GAMES: u64 = 200;
/// Plies after which a game is given up as endless (none should come near it: the cycle rule
/// AO-O5 ends a game whose positions come back).
const PLY_BUDGET: u32 = 50_000;

/// The shipped ruleset with these option values.
fn load(options: &[(&str, &str)]) -> Arc<Rules> {
    engine_view::load_shipped("ako_okwe", options)
}

/// The model's options for these ruleset option values.
fn model_options(options: &[(&str, &str)]) -> ako_okwe::Options {
    let mut o = ako_okwe::Options::default();
    for &option in options {
        match option {
            ("wrong_count", "no_capture") => o.wrong_count = WrongCount::NoCapture,
            ("wrong_count", "illegal") => o.wrong_count = WrongCount::Illegal,
            ("count", "store_and_row") => o.count = Count::StoreAndRow,
            ("count", "store") => o.count = Count::Store,
            ("single_seed", "back") => o.single_seed = SingleSeed::Back,
            ("single_seed", "next") => o.single_seed = SingleSeed::Next,
            ("first_captures", "umuahia") => o.first_captures = FirstCaptures::Umuahia,
            ("first_captures", "murray") => o.first_captures = FirstCaptures::Murray,
            _ => panic!("no Ako Okwe model option for {option:?}"),
        }
    }
    o
}

/// Everything compared after a ply.
#[derive(Debug, PartialEq)]
struct Snapshot {
    seen: Observed,
    /// The legal moves in the notation (`s3:ccw`), in the order listed.
    moves: Vec<String>,
    result: Option<Outcome>,
}

/// A model's move in the notation: `s3:ccw`, `n5:cw`.
fn label(mover: Side, mv: Move) -> String {
    let row = match mover {
        Side::South => 's',
        Side::North => 'n',
    };
    let dir = match mv.dir {
        Dir::Ccw => "ccw",
        Dir::Cw => "cw",
    };
    format!("{row}{}:{dir}", mv.hole)
}

fn model_snapshot(model: &AkoOkwe) -> Snapshot {
    let seen = model.observe();
    let moves = match seen.to_move {
        Some(mover) => model
            .legal_moves()
            .into_iter()
            .map(|mv| label(mover, mv))
            .collect(),
        None => Vec::new(),
    };
    Snapshot {
        seen,
        moves,
        result: model.result(),
    }
}

fn engine_snapshot(game: &Game) -> Snapshot {
    Snapshot {
        seen: engine_view::observed(game, engine_view::held(game)),
        moves: (game.legal_moves().iter())
            .map(|m| m.label(game.rules()))
            .collect(),
        result: engine_view::outcome(game),
    }
}

/// `S[10 10 0 …] N[…] stores S=3 N=0, to move Some(North), moves [s1:ccw s1:cw …]`.
fn show(s: &Snapshot) -> String {
    let row = |seeds: &[u32]| -> String {
        let cells: Vec<String> = seeds.iter().map(u32::to_string).collect();
        cells.join(" ")
    };
    format!(
        "S[{}] N[{}] stores S={} N={}, to move {:?}, moves [{}], result {:?}",
        row(&s.seen.south),
        row(&s.seen.north),
        s.seen.captured[0],
        s.seen.captured[1],
        s.seen.to_move,
        s.moves.join(" "),
        s.result
    )
}

/// What a batch of games met, so that a pass is not vacuous.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u64,
    plies: u64,
    /// Plies that captured.
    captures: u64,
    /// Games ended by a position coming back (AO-O5).
    cycles: u64,
    /// Games ended by the player to move having no move (AO-7).
    stuck: u64,
    /// Positions where a non-empty hole of the mover's may not be sown in some direction
    /// (AO-O1 under `wrong_count = illegal`).
    refused: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, t: Tally) {
        self.games += t.games;
        self.plies += t.plies;
        self.captures += t.captures;
        self.cycles += t.cycles;
        self.stuck += t.stuck;
        self.refused += t.refused;
    }
}

/// Plays game `seed` on the engine and the model, comparing them after every ply; returns
/// what the game met, or the first disagreement with all it takes to reproduce it.
fn play_both(rules: &Arc<Rules>, options: &[(&str, &str)], seed: u64) -> Result<Tally, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone());
    let mut model = AkoOkwe::new(model_options(options));
    let mut moves: Vec<String> = Vec::new();
    let mut tally = Tally {
        games: 1,
        ..Tally::default()
    };
    loop {
        let (engine, reference) = (engine_snapshot(&game), model_snapshot(&model));
        if engine != reference {
            let mut message = String::new();
            let _ = write!(
                message,
                "engine and model disagree: options {options:?} seed {seed}, after ply {} \
                 (0 = the start)\nmoves: {}\nengine board:\n{}\nengine: {}\nmodel:  {}\n\
                 model's captures made (AO-5): S={} N={}",
                moves.len(),
                moves.join(" "),
                sow::render::board(rules, game.position()),
                show(&engine),
                show(&reference),
                model.captures()[0],
                model.captures()[1],
            );
            return Err(message);
        }
        if game.is_over() {
            if engine.result.is_none() {
                return Err(format!(
                    "options {options:?} seed {seed}: the game is over with no result \
                     ({:?}) after {} plies",
                    game.status(),
                    moves.len()
                ));
            }
            tally.plies = moves.len() as u64;
            if tally.cycles == 0 {
                tally.stuck = 1;
            }
            return Ok(tally);
        }
        let mover = match engine.seen.to_move {
            Some(Side::South) => &engine.seen.south,
            _ => &engine.seen.north,
        };
        let sowable = mover.iter().filter(|&&s| s > 0).count();
        tally.refused += u64::from(engine.moves.len() < 2 * sowable);
        if moves.len() as u32 >= PLY_BUDGET {
            return Err(format!(
                "options {options:?} seed {seed}: no end after {PLY_BUDGET} plies"
            ));
        }
        let list = game.legal_moves();
        let k = rng.random_range(0..list.len());
        let mv = list.get(k).expect("a legal move");
        let mine = model.legal_moves()[k];
        moves.push(mv.label(rules));
        let report = match game.play(mv, &mut ()) {
            Ok(report) => report,
            Err(e) => {
                return Err(format!(
                    "options {options:?} seed {seed}, ply {}: the engine refuses its own \
                     legal move {}: {e:?}\nmoves: {}",
                    moves.len(),
                    mv.label(rules),
                    moves.join(" ")
                ));
            }
        };
        let ply = model.play(mine);
        if report.cycle != ply.cycle {
            return Err(format!(
                "options {options:?} seed {seed}, ply {}: a cycle for the engine {}, for the \
                 model {}\nmoves: {}",
                moves.len(),
                report.cycle,
                ply.cycle,
                moves.join(" ")
            ));
        }
        tally.captures += u64::from(ply.captured > 0);
        tally.cycles += u64::from(ply.cycle);
    }
}

/// Plays `seeds` under these option values; fails with the first disagreements. Returns what
/// the games met.
fn run(options: &[(&str, &str)], seeds: std::ops::Range<u64>) -> Tally {
    let rules = load(options);
    let games = seeds.end - seeds.start;
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    for seed in seeds {
        match play_both(&rules, options, seed) {
            Ok(t) => tally += t,
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{options:?}: {} of {games} games disagree; the first ones:\n\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n\n")
    );
    // Every game ran to its end on both sides, capturing on the way: not a vacuous pass.
    assert!(
        tally.plies >= games * 10 && tally.captures >= games,
        "{options:?}: only {tally:?}"
    );
    println!("ako_okwe {options:?}: all agree, {tally:?}");
    tally
}

/// The option values the model knows are exactly the ruleset's.
#[test]
fn the_model_knows_every_option_value() {
    let rules = load(&[]);
    let mut seen = Vec::new();
    for option in &rules.options {
        for value in &option.values {
            model_options(&[(option.name.as_str(), value.as_str())]);
            seen.push(format!("{}={value}", option.name));
        }
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            "count=store",
            "count=store_and_row",
            "first_captures=murray",
            "first_captures=umuahia",
            "single_seed=back",
            "single_seed=next",
            "wrong_count=illegal",
            "wrong_count=no_capture",
        ]
    );
}

/// `GAMES` games under each value of each option on its own, each value its own seeds.
#[test]
fn every_option_value_plays_the_same_games() {
    let rules = load(&[]);
    let mut k = 0;
    let mut all = Tally::default();
    for option in &rules.options {
        for value in &option.values {
            let options = [(option.name.as_str(), value.as_str())];
            let tally = run(&options, k * GAMES..(k + 1) * GAMES);
            // Both endings (AO-7, AO-O5) met under every value.
            assert!(
                tally.cycles > 0 && tally.stuck > 0,
                "{options:?}: {tally:?}"
            );
            if options == [("wrong_count", "illegal")] {
                assert!(tally.refused > 0, "AO-O1 never refused a move: {tally:?}");
            } else {
                assert_eq!(tally.refused, 0, "{options:?}: {tally:?}");
            }
            all += tally;
            k += 1;
        }
    }
    assert_eq!(k, 8, "four options of two values each");
    println!("ako_okwe, every option value: {all:?}");
}

/// `MIX_GAMES` games under every combination of option values.
#[test]
fn every_combination_plays_the_same_games() {
    let rules = load(&[]);
    let mixes = engine_view::option_mixes(&rules);
    assert_eq!(mixes.len(), 16);
    for (k, mix) in (0u64..).zip(&mixes) {
        // Seeds apart from those of the single option values.
        let from = 1_000_000 + k * MIX_GAMES;
        run(mix, from..from + MIX_GAMES);
    }
}

/// The benchmarks load the ruleset without options and build the model with
/// `Options::default()`: both must mean the same game.
#[test]
fn the_default_options_are_the_models_defaults() {
    let defaults = [
        ("wrong_count", "no_capture"),
        ("count", "store_and_row"),
        ("single_seed", "back"),
        ("first_captures", "umuahia"),
    ];
    assert_eq!(model_options(&defaults), ako_okwe::Options::default());
    let rules = load(&[]);
    for seed in 0..100 {
        play_both(&rules, &[], seed).unwrap();
    }
}

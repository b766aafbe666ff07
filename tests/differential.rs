//! Differential test: seeded random games of the two seed games, played move for move by the
//! generic engine on the shipped rulesets and by the hand-written reference models
//! (tests/reference/), which share no code with the engine. After every ply both must show the
//! same rows, captured seeds, closed holes, player to move, legal moves, round and result.
//!
//! Raja Pasu is played as whole matches (every round). Each game picks its moves with
//! `ChaCha8Rng::seed_from_u64(seed)`, uniformly among the legal moves in the mover's hole order,
//! so a failure is reproduced from its ruleset, options and seed alone (the message also gives
//! the moves and both positions).
//!
//! Played: `GAMES` games of each seed game under the default options, `GAMES_PER_OPTION` under
//! each non-default option value, and under every combination of option values a few games
//! from the initial position, a few from random set-up positions, and every legal move of more
//! set-up positions (where the rare endless moves turn up).

mod engine_view;
mod reference;

use std::fmt::{self, Write as _};
use std::ops::Range;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::raja_pasu::{self, Closed, LastFour, RajaPasu, Refill};
use reference::sadeqa_ii::{self, EmptyRow, Endless, Opening, SadeqaII};
use reference::{Observed, Outcome, Side};
use sow::engine::{Game, PlyReport, Position};
use sow::notation::parse_position;
use sow::rules::{Player, Pos, Rules};

/// Games played under the default option values, per seed game.
const GAMES: u64 = 10_000;
/// Games played under each non-default option value.
const GAMES_PER_OPTION: u64 = 1_000;
/// Plies compared per game. A match under the documented rules can go on for thousands of
/// rounds between random players (no rule ends a match whose rounds repeat), so a game that
/// reaches this budget is compared up to it and left there.
const PLY_BUDGET: usize = 20_000;

/// A reference model as the differential test drives it.
trait Model {
    /// The shipped ruleset the model is compared with.
    const RULESET: &'static str;
    /// The model's options for these ruleset option values (TOML name and value).
    type Options: Copy;
    fn options(options: &[(&str, &str)]) -> Self::Options;
    /// The start of a game (or match).
    fn new(options: Self::Options) -> Self;
    /// A game (or match) from a set-up position.
    fn from_setup(options: Self::Options, setup: &Setup) -> Self;
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
    type Options = raja_pasu::Options;

    fn options(options: &[(&str, &str)]) -> Self::Options {
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
                ("refill_from", "outside_in") => o.refill_from = Refill::OutsideIn,
                ("first", v) => o.first = side(v),
                ("cycle_rule", "ends") => o.cycle = true,
                ("cycle_rule", "none") => o.cycle = false,
                ("few_seeds", "plays_on") => o.one_left = false,
                ("few_seeds", "one_left") => o.one_left = true,
                _ => panic!("no Raja Pasu reference option for {option:?}"),
            }
        }
        o
    }

    fn new(options: Self::Options) -> Self {
        RajaPasu::new(options)
    }

    fn from_setup(options: Self::Options, s: &Setup) -> Self {
        RajaPasu::from_setup(
            options,
            &s.seeds[0],
            &s.seeds[1],
            &s.closed[0],
            &s.closed[1],
            s.reserves,
            s.to_move,
        )
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
    type Options = sadeqa_ii::Options;

    fn options(options: &[(&str, &str)]) -> Self::Options {
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
                ("cycle_rule", "ends") => o.cycle = true,
                ("cycle_rule", "none") => o.cycle = false,
                _ => panic!("no Sadeqa II reference option for {option:?}"),
            }
        }
        o
    }

    fn new(options: Self::Options) -> Self {
        SadeqaII::new(options)
    }

    /// Sadeqa II has neither closed holes nor reserves.
    fn from_setup(options: Self::Options, s: &Setup) -> Self {
        assert!(s.closed.iter().flatten().all(|&c| !c) && s.reserves == [0, 0]);
        SadeqaII::from_position(options, &s.seeds[0], &s.seeds[1], s.to_move)
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
    engine_view::load_shipped(name, options)
}

/// Every combination of the values of the ruleset's options, defaults included.
fn option_mixes(rules: &Rules) -> Vec<Vec<(String, String)>> {
    rules
        .options
        .iter()
        .fold(vec![Vec::new()], |mixes, option| {
            mixes
                .iter()
                .flat_map(|mix| {
                    option.values.iter().map(move |value| {
                        let mut mix = mix.clone();
                        mix.push((option.name.clone(), value.clone()));
                        mix
                    })
                })
                .collect()
        })
}

/// Where a game starts.
#[derive(Clone, Copy, Debug)]
enum Start {
    /// The ruleset's initial position.
    Initial,
    /// A random set-up position drawn from the game's seed (see `Setup::random`).
    Setup,
}

/// A set-up position as the reference models take it: rows from each owner's left
/// ([South, North]), closed holes, reserves and the player to move.
struct Setup {
    seeds: [Vec<u32>; 2],
    closed: [Vec<bool>; 2],
    reserves: [u32; 2],
    to_move: Side,
}

impl Setup {
    /// A sparse position (0 to 3 seeds a hole), where endless moves and cycles are frequent.
    /// In a match, about one hole in eight is closed and the reserves hold the other seeds.
    fn random(rules: &Rules, rng: &mut ChaCha8Rng) -> Setup {
        let holes = usize::from(rules.geometry.holes_per_player);
        let match_play = rules.rounds.is_some();
        let mut setup = Setup {
            seeds: [vec![0; holes], vec![0; holes]],
            closed: [vec![false; holes], vec![false; holes]],
            reserves: [0, 0],
            to_move: if rng.random() {
                Side::South
            } else {
                Side::North
            },
        };
        for p in 0..2 {
            for h in 0..holes {
                if match_play && rng.random_ratio(1, 8) {
                    setup.closed[p][h] = true;
                } else {
                    setup.seeds[p][h] = rng.random_range(0..=3);
                }
            }
        }
        let on_board: u32 = setup.seeds.iter().flatten().sum();
        if match_play {
            let rest = rules.total_seeds() - on_board;
            let south = rng.random_range(0..=rest);
            setup.reserves = [south, rest - south];
        } else if on_board == 0 {
            setup.seeds[setup.to_move.index()][holes - 1] = 1;
        }
        setup
    }

    /// The position in the notation of `sow::notation::parse_position`.
    fn notation(&self) -> String {
        let row = |p: usize| {
            let cells: Vec<String> = self.seeds[p]
                .iter()
                .zip(&self.closed[p])
                .map(|(s, &c)| if c { "x".into() } else { s.to_string() })
                .collect();
            cells.join(" ")
        };
        let to_move = match self.to_move {
            Side::South => "south",
            Side::North => "north",
        };
        format!(
            "S[{}] N[{}] S*={} N*={} {to_move}",
            row(0),
            row(1),
            self.reserves[0],
            self.reserves[1]
        )
    }
}

/// What identifies one game, for the failure messages.
#[derive(Clone)]
struct Context<'a> {
    ruleset: &'a str,
    options: &'a [(&'a str, &'a str)],
    seed: u64,
    /// The set-up position the game started from, if not the initial one.
    setup: Option<String>,
}

impl fmt::Display for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} options {:?} seed {}",
            self.ruleset, self.options, self.seed
        )?;
        match &self.setup {
            Some(setup) => write!(f, " from the set-up position {setup}"),
            None => write!(f, " from the initial position"),
        }
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
    let legal = game
        .legal_moves()
        .iter()
        .fold(0, |mask, m| mask | 1 << (g.number[m.hole as usize] - 1));
    Snapshot {
        seen: engine_view::observed(game, [0, 1].map(|p| M::engine_captured(rules, pos, p))),
        legal,
        round: game.round(),
        result: engine_view::outcome(game),
    }
}

/// The engine and a reference model playing the same game.
#[derive(Clone)]
struct Pair<'a, M> {
    cx: Context<'a>,
    game: Game,
    model: M,
    /// (round, hole) of every move so far.
    moves: Vec<(u32, Pos)>,
}

impl<'a, M: Model> Pair<'a, M> {
    /// Both sides at `start`; a set-up position is drawn from `rng`.
    fn new(
        rules: &Arc<Rules>,
        options: &'a [(&'a str, &'a str)],
        start: Start,
        seed: u64,
        rng: &mut ChaCha8Rng,
    ) -> Self {
        let opts = M::options(options);
        let mut cx = Context {
            ruleset: M::RULESET,
            options,
            seed,
            setup: None,
        };
        let (game, model) = match start {
            Start::Initial => (Game::new(rules.clone()), M::new(opts)),
            Start::Setup => {
                let setup = Setup::random(rules, rng);
                let text = setup.notation();
                let pos = parse_position(rules, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
                cx.setup = Some(text);
                (
                    Game::from_position(rules.clone(), pos),
                    M::from_setup(opts, &setup),
                )
            }
        };
        Pair {
            cx,
            game,
            model,
            moves: Vec::new(),
        }
    }

    /// Panics, with all it takes to reproduce it, if the two sides disagree.
    fn check(&self) {
        let engine = engine_snapshot::<M>(&self.game);
        let reference = model_snapshot(&self.model);
        if engine != reference {
            panic!("{}", mismatch(self, &engine, &reference));
        }
    }

    /// Both sides play `hole`; returns the engine's report.
    fn play(&mut self, hole: Pos) -> PlyReport {
        self.moves.push((self.game.round(), hole));
        let report = self.game.play(hole, &mut ()).unwrap_or_else(|e| {
            panic!(
                "{}, ply {}: the engine refuses its own legal move: {e:?}",
                self.cx,
                self.moves.len()
            )
        });
        let number = self.game.rules().geometry.number[hole as usize];
        self.model.play(usize::from(number));
        report
    }
}

/// Plays game `seed` through the engine and the model, comparing them after every ply. The
/// seed draws the set-up position (for `Start::Setup`), then every move.
fn play_both<M: Model>(rules: &Arc<Rules>, options: &[(&str, &str)], start: Start, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pair = Pair::<M>::new(rules, options, start, seed, &mut rng);
    loop {
        pair.check();
        if pair.game.is_over() || pair.moves.len() >= PLY_BUDGET {
            return;
        }
        let legal = pair.game.legal_moves();
        pair.play(
            legal
                .get(rng.random_range(0..legal.len()))
                .expect("a legal move")
                .hole,
        );
    }
}

/// Plays each legal move of the set-up position of `seed` through the engine and the model,
/// comparing them after it. Returns how many of those moves were endless.
fn every_move_both<M: Model + Clone>(
    rules: &Arc<Rules>,
    options: &[(&str, &str)],
    seed: u64,
) -> u32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let pair = Pair::<M>::new(rules, options, Start::Setup, seed, &mut rng);
    pair.check();
    let mut endless = 0;
    for mv in pair.game.legal_moves().iter() {
        let mut after = pair.clone();
        endless += u32::from(after.play(mv.hole).endless);
        after.check();
    }
    endless
}

/// The failure message: how to reproduce it, the moves so far and both sides' views.
fn mismatch<M>(pair: &Pair<M>, engine: &Snapshot, reference: &Snapshot) -> String {
    let rules = pair.game.rules();
    let mut played = String::new();
    let mut round = 0;
    for &(r, hole) in &pair.moves {
        if r != round {
            round = r;
            let _ = write!(played, "\n  round {r}:");
        }
        let _ = write!(played, " {}", rules.geometry.label(hole));
    }
    format!(
        "engine and reference disagree: {}, after ply {} (0 = the start)\n\
         moves:{played}\n\
         engine board: {}\n\
         engine:    {}\n\
         reference: {}\n\
         engine snapshot:    {engine:?}\n\
         reference snapshot: {reference:?}",
        pair.cx,
        pair.moves.len(),
        sow::render::board(rules, pair.game.position()),
        show(&engine.seen),
        show(&reference.seen),
    )
}

/// `S[7 7 x 0 …] N[…] captured S=3 N=4, to move Some(South)`.
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

/// The games of `seeds` under these option values.
fn run<M: Model>(rules: &Arc<Rules>, options: &[(&str, &str)], start: Start, seeds: Range<u64>) {
    for seed in seeds {
        play_both::<M>(rules, options, start, seed);
    }
}

/// `GAMES` games under the default option values.
fn run_defaults<M: Model>() {
    run::<M>(&load(M::RULESET, &[]), &[], Start::Initial, 0..GAMES);
}

/// `GAMES_PER_OPTION` games under each non-default value of each option, one option at a time.
fn run_option_values<M: Model>() {
    let rules = load(M::RULESET, &[]);
    let mut variants = 0;
    for option in &rules.options {
        for value in option.values.iter().filter(|v| **v != option.default) {
            let options = [(option.name.as_str(), value.as_str())];
            run::<M>(
                &load(M::RULESET, &options),
                &options,
                Start::Initial,
                0..GAMES_PER_OPTION,
            );
            variants += 1;
        }
    }
    assert!(variants > 0, "{} has no option to vary", M::RULESET);
}

/// Under every combination of option values (some options only matter together: Raja Pasu's
/// `refill_from` changes nothing but hole numbers unless closed holes are on the track):
/// `games` games from the initial position, as many from random set-up positions, and every
/// move of `positions` more random set-up positions, which is what meets endless moves (rare
/// in random play). Each combination plays its own seeds.
fn run_option_mixes<M: Model + Clone>(games: u64, positions: u64) {
    let mut endless = 0;
    for (k, mix) in (0..).zip(option_mixes(&load(M::RULESET, &[]))) {
        let options: Vec<(&str, &str)> =
            mix.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let rules = load(M::RULESET, &options);
        run::<M>(&rules, &options, Start::Initial, k * games..(k + 1) * games);
        run::<M>(&rules, &options, Start::Setup, k * games..(k + 1) * games);
        for seed in k * positions..(k + 1) * positions {
            endless += every_move_both::<M>(&rules, &options, seed);
        }
    }
    assert!(endless > 0, "{}: no endless move was tried", M::RULESET);
}

#[test]
fn raja_pasu_matches() {
    run_defaults::<RajaPasu>();
}

#[test]
fn sadeqa_ii_games() {
    run_defaults::<SadeqaII>();
}

#[test]
fn raja_pasu_option_values() {
    run_option_values::<RajaPasu>();
}

#[test]
fn sadeqa_ii_option_values() {
    run_option_values::<SadeqaII>();
}

/// 144 combinations.
#[test]
fn raja_pasu_option_mixes_and_setups() {
    run_option_mixes::<RajaPasu>(10, 300);
}

/// 48 combinations.
#[test]
fn sadeqa_ii_option_mixes_and_setups() {
    run_option_mixes::<SadeqaII>(25, 100);
}

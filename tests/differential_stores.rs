//! Differential test of the two games with stores: the generic engine on the shipped Kalah and
//! Oware rulesets against the hand-written models of `tests/reference`, over seeded random
//! games for every value of every option. After every ply the boards, the stores, the player
//! to move, the legal moves and what the ply did must agree; at the end, the result.
//!
//! This is also what makes the benchmarks' native baselines (the same models) a fair measure:
//! with the same seeds, the interpreted and the native playouts play the same games.

mod engine_view;
mod reference;

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use reference::kalah::{self, Kalah, Sweep};
use reference::oware::{self, GrandSlam, Oware};
use reference::{Observed, Outcome};
use sow::engine::Game;
use sow::rules::Rules;

/// Random games per option combination.
const GAMES: u64 = 2_000;

fn rules(name: &str, options: &[(&str, &str)]) -> Arc<Rules> {
    let text = sow::catalog::shipped(name).expect("shipped ruleset");
    let overrides: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    match sow::check::load(text, &overrides) {
        Ok(l) => Arc::new(l.rules),
        Err(d) => panic!("{name} {options:?} does not load: {d:?}"),
    }
}

/// What the model shows, read from the engine's position.
fn observe(game: &Game) -> Observed {
    engine_view::observed(game, engine_view::held(game))
}

/// The engine's legal moves as the models' mask: bit `n - 1` for the mover's hole number `n`.
fn engine_mask(game: &Game) -> u32 {
    let g = &game.rules().geometry;
    game.legal_moves()
        .iter()
        .fold(0, |m, mv| m | 1 << (g.number[mv.hole as usize] - 1))
}

/// What one ply did, as both sides report it.
#[derive(Debug, PartialEq, Eq)]
struct PlyFacts {
    extra_turn: bool,
    cycle: bool,
    over: bool,
}

/// The interface of the two models that the comparison needs.
trait Model {
    fn legal_mask(&self) -> u32;
    fn play(&mut self, hole: usize) -> PlyFacts;
    fn observe(&self) -> Observed;
    fn result(&self) -> Option<Outcome>;
}

impl Model for Kalah {
    fn legal_mask(&self) -> u32 {
        Kalah::legal_mask(self)
    }
    fn play(&mut self, hole: usize) -> PlyFacts {
        let p = Kalah::play(self, hole);
        PlyFacts {
            extra_turn: p.extra_turn,
            cycle: p.cycle,
            over: p.game_over,
        }
    }
    fn observe(&self) -> Observed {
        Kalah::observe(self)
    }
    fn result(&self) -> Option<Outcome> {
        Kalah::result(self)
    }
}

impl Model for Oware {
    fn legal_mask(&self) -> u32 {
        Oware::legal_mask(self)
    }
    fn play(&mut self, hole: usize) -> PlyFacts {
        let p = Oware::play(self, hole);
        PlyFacts {
            extra_turn: p.extra_turn,
            cycle: p.cycle,
            over: p.game_over,
        }
    }
    fn observe(&self) -> Observed {
        Oware::observe(self)
    }
    fn result(&self) -> Option<Outcome> {
        Oware::result(self)
    }
}

/// The `k`-th set bit of `mask` (0-based), as a hole number (1-based).
fn nth_hole(mask: u32, k: usize) -> usize {
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize + 1
}

/// Plays game `seed` on both sides; returns a description of the first disagreement, with the
/// moves that lead to it, or the number of plies.
fn play_both<M: Model>(rules: &Arc<Rules>, mut model: M, seed: u64) -> Result<u32, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone());
    let mut moves: Vec<String> = Vec::new();
    let mut plies = 0u32;
    let fail = |moves: &[String], what: String| {
        Err(format!(
            "seed {seed}, after moves [{}]: {what}",
            moves.join(" ")
        ))
    };
    if observe(&game) != model.observe() {
        return fail(
            &moves,
            format!(
                "start: engine {:?} model {:?}",
                observe(&game),
                model.observe()
            ),
        );
    }
    loop {
        let (mask, want) = (engine_mask(&game), model.legal_mask());
        if mask != want {
            return fail(
                &moves,
                format!("legal moves: engine {mask:#08b} model {want:#08b}"),
            );
        }
        if mask == 0 {
            break;
        }
        let k = rng.random_range(0..mask.count_ones() as usize);
        let hole = nth_hole(mask, k);
        let h = game.legal_moves().get(k).expect("a legal move");
        let mover = game.to_move().expect("a player to move");
        moves.push(h.label(game.rules()));
        let report = match game.play(h, &mut ()) {
            Ok(r) => r,
            Err(e) => return fail(&moves, format!("engine refused the move: {e:?}")),
        };
        let facts = model.play(hole);
        plies += 1;
        let engine_facts = PlyFacts {
            extra_turn: report.extra_turn,
            cycle: report.cycle,
            over: game.is_over(),
        };
        if engine_facts != facts {
            return fail(
                &moves,
                format!("ply (mover {mover}): engine {engine_facts:?} model {facts:?}"),
            );
        }
        let (seen, want) = (observe(&game), model.observe());
        if seen != want {
            return fail(&moves, format!("position: engine {seen:?} model {want:?}"));
        }
    }
    let (got, want) = (engine_view::outcome(&game), model.result());
    if got != want || got.is_none() {
        return fail(&moves, format!("result: engine {got:?} model {want:?}"));
    }
    Ok(plies)
}

/// Runs `GAMES` games and fails with every disagreement found (at most a few shown).
fn run<M: Model>(label: &str, rules: Arc<Rules>, model: impl Fn() -> M) {
    let mut failures = Vec::new();
    let mut plies = 0u64;
    for seed in 0..GAMES {
        match play_both(&rules, model(), seed) {
            Ok(n) => plies += u64::from(n),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{label}: {} of {GAMES} games disagree; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // Every game ran to its end on both sides: not a vacuous pass.
    assert!(plies >= GAMES * 10, "{label}: only {plies} plies in all");
}

#[test]
fn kalah_engine_and_model_play_the_same_games() {
    for empty_capture in [false, true] {
        for sweep in [Sweep::Counted, Sweep::NotCounted] {
            let options = [
                ("empty_capture", if empty_capture { "yes" } else { "no" }),
                (
                    "sweep",
                    match sweep {
                        Sweep::Counted => "counted",
                        Sweep::NotCounted => "not_counted",
                    },
                ),
            ];
            let opts = kalah::Options {
                empty_capture,
                sweep,
                ..kalah::Options::default()
            };
            run(
                &format!("kalah {options:?}"),
                rules("kalah", &options),
                || Kalah::new(opts),
            );
        }
    }
}

#[test]
fn oware_engine_and_model_play_the_same_games() {
    for (value, grand_slam) in [
        ("capture_nothing", GrandSlam::CaptureNothing),
        ("illegal", GrandSlam::Illegal),
    ] {
        let opts = oware::Options { grand_slam };
        run(
            &format!("oware grand_slam={value}"),
            rules("oware", &[("grand_slam", value)]),
            || Oware::new(opts),
        );
    }
}

#[test]
fn the_default_options_are_the_models_defaults() {
    // The benchmarks load the rulesets without options and build the models with
    // `Options::default()`: both must mean the same game.
    let kalah_default = rules("kalah", &[]);
    let kalah_named = rules("kalah", &[("empty_capture", "no"), ("sweep", "counted")]);
    let oware_default = rules("oware", &[]);
    let oware_named = rules("oware", &[("grand_slam", "capture_nothing")]);
    for seed in 0..50 {
        for r in [&kalah_default, &kalah_named] {
            play_both(r, Kalah::new(kalah::Options::default()), seed).unwrap();
        }
        for r in [&oware_default, &oware_named] {
            play_both(r, Oware::new(oware::Options::default()), seed).unwrap();
        }
    }
}

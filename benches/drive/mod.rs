//! What the benchmarks share: the hand-written models as the benchmarks drive them, and one
//! random playout on each side (`playouts.rs` times them; `instructions.rs` plays them for an
//! instruction count).

#[path = "../../tests/reference/mod.rs"]
pub mod reference;

use std::sync::Arc;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub use reference::Outcome;
pub use reference::kalah::{self, Kalah};
pub use reference::oware::{self, Oware};
pub use reference::raja_pasu::{self, RajaPasu};
pub use reference::sadeqa_ii::{self, SadeqaII};
use sow::engine::{Game, Status};
use sow::rules::Rules;

/// The seed of the random stream of every batch.
pub const SEED: u64 = 2024;

/// A hand-written model, as the benchmark drives it.
pub trait Native: Clone {
    fn fresh() -> Self;
    /// Bit `n - 1`: the mover may play their hole `n`. 0 once the game is over.
    fn mask(&self) -> u32;
    fn play(&mut self, hole: usize);
    fn result(&self) -> Option<Outcome>;
    fn round(&self) -> u32 {
        1
    }
}

/// `Native` for a model, its options at their defaults; `round` when it plays rounds.
macro_rules! native {
    ($model:ident, $module:ident $(, $round:item)?) => {
        impl Native for $model {
            fn fresh() -> Self {
                $model::new($module::Options::default())
            }
            fn mask(&self) -> u32 {
                self.legal_mask()
            }
            fn play(&mut self, hole: usize) {
                $model::play(self, hole);
            }
            fn result(&self) -> Option<Outcome> {
                $model::result(self)
            }
            $($round)?
        }
    };
}

native!(Kalah, kalah);
native!(Oware, oware);
native!(SadeqaII, sadeqa_ii);
native!(
    RajaPasu,
    raja_pasu,
    fn round(&self) -> u32 {
        RajaPasu::round(self)
    }
);

/// How far a playout goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Span {
    /// The whole game (or match).
    Game,
    /// The first round of a match.
    Round,
}

/// How a playout ended: its plies and, once the game is over, the result.
pub type Ending = (u32, Option<Outcome>);

/// The `k`-th set bit of `mask` (0-based), as a hole number (1-based).
#[inline]
pub fn nth_hole(mask: u32, k: usize) -> usize {
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize + 1
}

pub fn engine_result(game: &Game) -> Option<Outcome> {
    match game.status() {
        Status::Playing | Status::Stopped { .. } => None,
        Status::Over { winner: None } => Some(Outcome::Draw),
        Status::Over { winner: Some(0) } => Some(Outcome::Winner(reference::Side::South)),
        Status::Over { winner: Some(_) } => Some(Outcome::Winner(reference::Side::North)),
    }
}

/// One random playout on the engine, from the start.
#[inline]
pub fn interpreted(game: &mut Game, rng: &mut ChaCha8Rng, span: Span) -> Ending {
    game.restart();
    let mut plies = 0;
    while !game.is_over() && (span == Span::Game || game.round() == 1) {
        let moves = game.legal_moves();
        let k = rng.random_range(0..moves.len());
        let _ = game.play(moves.get(k).expect("a legal move"), &mut ());
        plies += 1;
    }
    (plies, engine_result(game))
}

/// [`interpreted`], counting every clause's firings as `sow simulate` does (a tracer that takes
/// no events, so the engine keeps its fast paths).
#[inline]
pub fn interpreted_counted(
    game: &mut Game,
    rng: &mut ChaCha8Rng,
    span: Span,
    firings: &mut sow::trace::Firings,
) -> Ending {
    game.restart();
    let mut plies = 0;
    while !game.is_over() && (span == Span::Game || game.round() == 1) {
        let moves = game.legal_moves();
        let k = rng.random_range(0..moves.len());
        let _ = game.play(moves.get(k).expect("a legal move"), firings);
        firings.commit();
        plies += 1;
    }
    (plies, engine_result(game))
}

/// The same playout on a hand-written model.
#[inline]
pub fn native<N: Native>(rng: &mut ChaCha8Rng, span: Span) -> Ending {
    let mut game = N::fresh();
    let mut plies = 0;
    loop {
        let mask = game.mask();
        if mask == 0 || (span == Span::Round && game.round() != 1) {
            break;
        }
        let k = rng.random_range(0..mask.count_ones() as usize);
        game.play(nth_hole(mask, k));
        plies += 1;
    }
    (plies, game.result())
}

pub fn load(name: &str) -> Arc<Rules> {
    let text = sow::catalog::shipped(name).expect("shipped ruleset");
    Arc::new(
        sow::check::load(text, &[])
            .expect("shipped ruleset loads")
            .rules,
    )
}

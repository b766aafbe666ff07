//! What the benchmarks share: the hand-written models as the benchmarks drive them, and one
//! random playout on each side (`playouts.rs` times them; `instructions.rs` plays them for an
//! instruction count).

#[path = "../../tests/reference/mod.rs"]
pub mod reference;

use std::sync::Arc;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub use reference::Outcome;
pub use reference::ako_okwe::{self, AkoOkwe};
pub use reference::kalah::{self, Kalah};
pub use reference::oware::{self, Oware};
pub use reference::raja_pasu::{self, RajaPasu};
pub use reference::sadeqa_ii::{self, SadeqaII};
use sow::engine::{Game, Status};
use sow::rules::Rules;

/// The seed of the random stream of every batch.
pub const SEED: u64 = 2024;

/// A hand-written model, as the benchmark drives it.
///
/// The drivers play through [`Native::moves`] and [`Native::play_move`], whose defaults are a
/// move a hole ([`Native::mask`] and [`Native::play`]): a model whose mover also chooses the
/// direction overrides them, so that its moves come in the order of the engine's list (hole by
/// hole, counter-clockwise before clockwise) and the same random stream plays the same game.
pub trait Native: Clone {
    fn fresh() -> Self;
    /// Bit `n - 1`: the mover may play their hole `n`. 0 once the game is over.
    fn mask(&self) -> u32;
    /// Plays hole `hole` (1-based) for the player to move.
    fn play(&mut self, hole: usize);
    fn result(&self) -> Option<Outcome>;
    fn round(&self) -> u32 {
        1
    }
    /// The legal moves, a bit each, 0 once the game is over: the `k`-th set bit (from the
    /// lowest) is the `k`-th move of the engine's list of the same position. By default the
    /// holes of [`Native::mask`], a move each.
    fn moves(&self) -> u32 {
        self.mask()
    }
    /// Plays the move of bit `bit` of [`Native::moves`]: by default, hole `bit + 1`.
    fn play_move(&mut self, bit: u32) {
        self.play(bit as usize + 1);
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

/// Ako Okwe's mover chooses each move's direction: its legal mask has two bits a hole
/// (counter-clockwise, then clockwise), in the engine's order already.
impl Native for AkoOkwe {
    fn fresh() -> Self {
        AkoOkwe::new(ako_okwe::Options::default())
    }
    /// The holes with a legal move in some direction.
    fn mask(&self) -> u32 {
        let moves = self.legal_mask();
        (0..5).fold(0, |mask, h| {
            mask | u32::from(moves >> (2 * h) & 0b11 != 0) << h
        })
    }
    /// Plays hole `hole`'s first legal move in the engine's order (counter-clockwise if it
    /// is legal).
    fn play(&mut self, hole: usize) {
        let pair = self.legal_mask() >> (2 * (hole - 1)) & 0b11;
        self.play_move(2 * (hole as u32 - 1) + pair.trailing_zeros());
    }
    fn result(&self) -> Option<Outcome> {
        AkoOkwe::result(self)
    }
    fn moves(&self) -> u32 {
        self.legal_mask()
    }
    fn play_move(&mut self, bit: u32) {
        AkoOkwe::play(self, ako_okwe::Move::of_bit(bit as usize));
    }
}

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

/// The index of the `k`-th set bit of `mask` (both from 0).
#[inline]
pub fn nth_bit(mask: u32, k: usize) -> u32 {
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros()
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
        let moves = game.moves();
        if moves == 0 || (span == Span::Round && game.round() != 1) {
            break;
        }
        let k = rng.random_range(0..moves.count_ones() as usize);
        game.play_move(nth_bit(moves, k));
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

//! The computer players, shared by `play` and `simulate` so that `sow play --seed S` between
//! two computer players plays exactly the game `sow simulate --seed S` counted first.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use sow::engine::{Game, Move};

/// Who plays a side in `sow play`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Seat {
    /// A person, typing moves at the prompt.
    Human,
    /// Any legal move, uniformly at random.
    Random,
    /// The legal move that leaves the mover the most seeds ahead after the ply (held, plus
    /// removed by their captures); ties broken at random.
    Greedy,
}

/// A computer player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Bot {
    /// Any legal move, uniformly at random.
    Random,
    /// The legal move that maximises the mover's seeds minus the opponent's after the ply
    /// (seeds held, plus seeds their captures removed from the game); ties broken at random.
    Greedy,
}

impl Seat {
    pub fn bot(self) -> Option<Bot> {
        match self {
            Seat::Human => None,
            Seat::Random => Some(Bot::Random),
            Seat::Greedy => Some(Bot::Greedy),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Seat::Human => "human",
            Seat::Random => "random",
            Seat::Greedy => "greedy",
        }
    }
}

impl Bot {
    pub fn name(self) -> &'static str {
        match self {
            Bot::Random => "random",
            Bot::Greedy => "greedy",
        }
    }
}

/// The move a computer player makes, or None when the game is over. Exactly one number is
/// drawn from `rng` per move, whatever the player, so that games stay reproducible from the
/// seed alone.
pub fn choose(bot: Bot, game: &Game, rng: &mut ChaCha8Rng) -> Option<Move> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    match bot {
        Bot::Random => moves.get(rng.random_range(0..moves.len())),
        Bot::Greedy => {
            let mover = game.to_move()?;
            let rules = game.rules().clone();
            let mut best = Vec::with_capacity(moves.len());
            let mut best_score = i64::MIN;
            for h in moves.iter() {
                let mut copy = game.clone();
                if copy.play(h, &mut ()).is_err() {
                    continue;
                }
                let pos = copy.position();
                // Seeds a player's captures took out of the game count as theirs, as the
                // rules say of removed seeds.
                let gains = |p: u8| {
                    let taken = pos.taken.get(usize::from(p)).copied().unwrap_or(0);
                    i64::from(pos.held(&rules, p)) + i64::from(taken)
                };
                let score = gains(mover) - gains(1 - mover);
                if score > best_score {
                    best_score = score;
                    best.clear();
                }
                if score == best_score {
                    best.push(h);
                }
            }
            best.get(rng.random_range(0..best.len().max(1))).copied()
        }
    }
}

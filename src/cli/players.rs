//! The players on the command line. `--south` and `--north` read a [`Seat`] (`play`) or a
//! [`Bot`] (`simulate`, `analyze`) with the library's parser, whose errors say what is wrong
//! and what would be right; clap shows them with the option at fault (exit code 2).
//!
//! The same players make the same moves in every command: `sow play --seed S` between two
//! computers plays exactly the game `sow simulate --seed S` counted first.

pub use sow::players::{Bot, Computer, Seat};

/// The players as `--help` describes them (a macro, for `concat!`).
macro_rules! players_help {
    () => {
        "Players: human (sow play only), random, greedy (the best margin after one ply),
alphabeta[:depth=N,nodes=N] (alpha-beta search; by default nodes=20000, as deep as they
reach) and mcts[:playouts=N] (Monte Carlo tree search; by default playouts=1000). Budgets
count work, not time: a seed gives the same games on every machine."
    };
}
pub(crate) use players_help;

//! Monte Carlo tree search (UCT with random playouts) on any [`Model`].
//!
//! Each playout walks down the tree from the root, at each node taking a child not tried yet
//! (in the order the moves are listed) or else the child of highest UCB1 value (its mean
//! reward plus [`EXPLORATION`] × √(ln(parent's visits) / its visits)); adds the children of
//! the node it stops at; plays the game out at random; and credits every node on the way
//! with the reward of the seat that chose it: 1 for a win, 0 for a loss, 1/seats for a draw
//! or a game with no result. The move chosen is the root's most visited child (the first
//! listed among equals), and its value is its mean reward.
//!
//! Whose turn it is after a move is read from the model, so extra turns and any order of
//! seats need nothing special. Playouts are counted, never timed; the generator is seeded
//! from one number drawn from the caller's, so a seed gives the same game on every machine
//! (the logarithm is computed here from basic operations, which IEEE 754 rounds the same
//! everywhere, rather than by the platform's mathematics library).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::model::{MAX_MOVES, Model, Moves, Outcome};
use crate::rules::{NOBODY, Player};

/// The weight of exploration in UCB1, for rewards between 0 and 1.
pub const EXPLORATION: f64 = 1.4;

/// A playout still going after this many plies is judged by the scores: the seat ahead wins.
pub const PLAYOUT_PLIES: u32 = 2_000;

#[derive(Debug, Clone, Copy)]
struct Node<M> {
    mv: M,
    /// The seat that chose `mv` ([`NOBODY`] for the root).
    mover: Player,
    /// Where the children are in the tree, and how many (valid once `expanded`).
    first: u32,
    children: u8,
    expanded: bool,
    visits: u32,
    reward: f64,
}

/// What a search found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found<M> {
    /// The move chosen.
    pub best: M,
    /// Its mean reward for the seat to move, from 0 (always lost) to 1 (always won).
    pub value: f64,
    /// How many playouts went through it.
    pub visits: u32,
    /// Playouts made.
    pub playouts: u32,
}

/// A UCT player's search, with its tree and buffers.
#[derive(Debug, Clone)]
pub struct Mcts<M: Model> {
    playouts: u32,
    tree: Vec<Node<M::Move>>,
    path: Vec<u32>,
    scratch: Option<M>,
    moves: Moves<M::Move>,
}

impl<M: Model> Mcts<M> {
    /// A search of `playouts` playouts a move (at least 1). Nothing is allocated until the
    /// first search.
    pub fn new(playouts: u32) -> Self {
        Mcts {
            playouts: playouts.max(1),
            tree: Vec::new(),
            path: Vec::new(),
            scratch: None,
            moves: Moves::default(),
        }
    }

    /// The playouts a move.
    pub fn playouts(&self) -> u32 {
        self.playouts
    }

    /// Searches `root` and chooses a move for the seat to move; one number is drawn from
    /// `rng`, to seed the playouts. None if the game is over or has no move.
    pub fn search(&mut self, root: &M, rng: &mut impl Rng) -> Option<Found<M::Move>> {
        root.to_move()?;
        let mut dice = ChaCha8Rng::seed_from_u64(rng.random::<u64>());
        self.tree.clear();
        if self.tree.capacity() == 0 {
            // Room for a few children per playout; the tree grows past it if it must.
            self.tree
                .reserve((self.playouts as usize + 1).saturating_mul(8).min(1 << 22));
        }
        self.tree.push(Node {
            mv: M::Move::default(),
            mover: NOBODY,
            first: 0,
            children: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
        });
        let mut scratch = match self.scratch.take() {
            Some(mut s) => {
                s.copy_from(root);
                s
            }
            None => root.clone(),
        };
        let seats = root.seats().max(1);
        for _ in 0..self.playouts {
            scratch.copy_from(root);
            self.path.clear();
            self.path.push(0);
            self.descend(&mut scratch);
            let outcome = self.play_out(&mut scratch, &mut dice);
            for &i in &self.path {
                if let Some(n) = self.tree.get_mut(i as usize) {
                    n.visits += 1;
                    n.reward += reward(outcome, n.mover, seats);
                }
            }
        }
        self.scratch = Some(scratch);
        let root_node = self.tree.first().copied()?;
        let children = self.children(&root_node);
        let best = children
            .iter()
            .copied()
            .reduce(|a, b| if b.visits > a.visits { b } else { a })?;
        Some(Found {
            best: best.mv,
            value: if best.visits == 0 {
                0.5
            } else {
                best.reward / f64::from(best.visits)
            },
            visits: best.visits,
            playouts: self.playouts,
        })
    }

    fn children(&self, n: &Node<M::Move>) -> &[Node<M::Move>] {
        let first = n.first as usize;
        self.tree
            .get(first..first + usize::from(n.children))
            .unwrap_or_default()
    }

    /// Walks from the root to a node not visited yet (or a finished game), playing its moves
    /// on `game` and adding each node to the path; expands the last node it stands on.
    fn descend(&mut self, game: &mut M) {
        let mut at = 0usize;
        loop {
            let Some(seat) = game.to_move() else {
                return;
            };
            let Some(&node) = self.tree.get(at) else {
                return;
            };
            if !node.expanded {
                self.expand(at, game, seat);
            }
            let Some(&node) = self.tree.get(at) else {
                return;
            };
            let Some(next) = self.select(&node) else {
                return;
            };
            let Some(&child) = self.tree.get(next) else {
                return;
            };
            if !game.play(child.mv) {
                return;
            }
            self.path.push(next as u32);
            at = next;
            if child.visits == 0 {
                return;
            }
        }
    }

    /// Adds the children of the node at `at`, one per legal move of `seat`.
    fn expand(&mut self, at: usize, game: &M, seat: Player) {
        game.moves(&mut self.moves);
        let first = self.tree.len() as u32;
        let count = self.moves.len().min(MAX_MOVES);
        for &mv in self.moves.as_slice() {
            self.tree.push(Node {
                mv,
                mover: seat,
                first: 0,
                children: 0,
                expanded: false,
                visits: 0,
                reward: 0.0,
            });
        }
        if let Some(n) = self.tree.get_mut(at) {
            n.first = first;
            n.children = count as u8;
            n.expanded = true;
        }
    }

    /// The child to try next: the first not tried yet, else the one of highest UCB1 value.
    fn select(&self, node: &Node<M::Move>) -> Option<usize> {
        let children = self.children(node);
        if let Some(i) = children.iter().position(|c| c.visits == 0) {
            return Some(node.first as usize + i);
        }
        let log = ln(f64::from(node.visits.max(1)));
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for (i, c) in children.iter().enumerate() {
            let n = f64::from(c.visits);
            let value = c.reward / n + EXPLORATION * (log / n).sqrt();
            if value > best_value {
                best_value = value;
                best = Some(node.first as usize + i);
            }
        }
        best
    }

    /// Plays `game` out at random; how it ended.
    fn play_out(&mut self, game: &mut M, dice: &mut ChaCha8Rng) -> Outcome {
        for _ in 0..PLAYOUT_PLIES {
            if let Some(outcome) = game.outcome() {
                return outcome;
            }
            game.moves(&mut self.moves);
            if self.moves.is_empty() {
                break;
            }
            let Some(mv) = self.moves.get(dice.random_range(0..self.moves.len())) else {
                break;
            };
            if !game.play(mv) {
                break;
            }
        }
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        // Still going: the seat ahead on the scores counts as the winner.
        let seats = game.seats() as Player;
        let mut best: Option<(Player, i64)> = None;
        let mut tied = false;
        for s in 0..seats {
            let score = game.score(s);
            match best {
                Some((_, b)) if score == b => tied = true,
                Some((_, b)) if score < b => {}
                _ => {
                    best = Some((s, score));
                    tied = false;
                }
            }
        }
        match best {
            Some((s, _)) if !tied => Outcome::Win(s),
            _ => Outcome::Draw,
        }
    }
}

/// The reward of a finished playout for `seat`.
fn reward(outcome: Outcome, seat: Player, seats: usize) -> f64 {
    match outcome {
        Outcome::Win(w) if w == seat => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw | Outcome::NoResult => 1.0 / seats as f64,
    }
}

/// The natural logarithm of `x` (positive and finite), from IEEE 754's basic operations
/// only, so that it is the same on every machine: `x = m · 2^e` with `m` in [√½, √2), then
/// ln m = 2 atanh((m - 1)/(m + 1)) by its series.
fn ln(x: f64) -> f64 {
    const LN_2: f64 = std::f64::consts::LN_2;
    if !(x > 0.0 && x.is_finite()) {
        return 0.0;
    }
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    // |s| < 0.172: twelve terms are far below f64's precision.
    let mut term = s;
    let mut sum = 0.0;
    for k in 0..12 {
        sum += term / f64::from(2 * k + 1);
        term *= s2;
    }
    e as f64 * LN_2 + 2.0 * sum
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_logarithm_agrees_with_the_library() {
        for x in [1.0, 1.5, 2.0, 3.0, 10.0, 1234.5, 1e6, 0.25] {
            let (ours, theirs) = (super::ln(x), f64::ln(x));
            assert!(
                (ours - theirs).abs() < 1e-12,
                "{x}: {ours} against {theirs}"
            );
        }
    }
}

//! Monte Carlo tree search (UCT with random playouts) on any [`Model`].
//!
//! Each playout walks down the tree from the root, at each node taking the child of highest
//! UCB1 value (its mean reward plus [`EXPLORATION`] × √(ln(parent's visits) / its visits))
//! until it comes to a node with a move not tried yet: that move (the first untried in the
//! order the moves are listed) becomes a new node, one a playout. It then plays the game out
//! at random and credits every node on the way with the reward of the seat that chose it: 1
//! for a win, 0 for a loss, 1/seats for a draw or a game with no result. The move chosen is
//! the root's most visited child (the first listed among equals), and its value is its mean
//! reward. The tree never holds more than a node per playout, made room for once.
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

/// A playout still going after this many plies is judged by material ([`Model::material`]):
/// the seat ahead wins.
pub const PLAYOUT_PLIES: u32 = 2_000;

/// No node.
const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Node<M> {
    mv: M,
    /// The seat that chose `mv` ([`NOBODY`] for the root).
    mover: Player,
    /// The latest child added, and the next older sibling: the children of a node are added
    /// one a playout, in the order of its moves, each in front of the ones before.
    child: u32,
    sibling: u32,
    /// How many children there are, and how many moves the position has (once listed).
    children: u16,
    moves: Option<u16>,
    visits: u32,
    reward: f64,
}

impl<M: Default> Node<M> {
    fn new(mv: M, mover: Player, sibling: u32) -> Node<M> {
        Node {
            mv,
            mover,
            child: NONE,
            sibling,
            children: 0,
            moves: None,
            visits: 0,
            reward: 0.0,
        }
    }
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
    /// first search, which makes the tree (a node per playout, and the root) once for all.
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
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use rand::SeedableRng;
    /// use rand_chacha::ChaCha8Rng;
    /// use sow::engine::Game;
    /// use sow::players::Mcts;
    ///
    /// # let text = sow::catalog::shipped("kalah").expect("shipped");
    /// # let rules = Arc::new(sow::check::load(text, &[]).expect("it loads").rules);
    /// let game = Game::new(rules);
    /// let mut search = Mcts::new(200);
    /// let found = search.search(&game, &mut ChaCha8Rng::seed_from_u64(1)).expect("a move");
    /// assert!(game.legal_moves().contains(found.best));
    /// assert!((0.0..=1.0).contains(&found.value) && found.visits <= 200);
    /// ```
    pub fn search(&mut self, root: &M, rng: &mut impl Rng) -> Option<Found<M::Move>> {
        root.to_move()?;
        let mut dice = ChaCha8Rng::seed_from_u64(rng.random::<u64>());
        self.tree.clear();
        self.tree.reserve(self.playouts as usize + 1);
        // A path is never longer than the tree is deep.
        self.path.clear();
        self.path.reserve(self.playouts as usize + 1);
        self.tree.push(Node::new(M::Move::default(), NOBODY, NONE));
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
        // The most visited child; among equals the one added first (the first listed).
        let mut best: Option<Node<M::Move>> = None;
        let mut at = self.tree.first().map_or(NONE, |n| n.child);
        while let Some(&c) = self.tree.get(at as usize) {
            if best.is_none_or(|b| c.visits >= b.visits) {
                best = Some(c);
            }
            at = c.sibling;
        }
        let best = best?;
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

    /// Walks from the root, playing each node's move on `game` and adding it to the path,
    /// until it adds a new node (the next untried move of a node) or reaches a finished game.
    fn descend(&mut self, game: &mut M) {
        let mut at = 0usize;
        loop {
            let Some(seat) = game.to_move() else {
                return;
            };
            let Some(node) = self.tree.get(at).copied() else {
                return;
            };
            let moves = match node.moves {
                Some(n) => n,
                None => {
                    game.moves(&mut self.moves);
                    let n = u16::try_from(self.moves.len().min(MAX_MOVES)).unwrap_or(u16::MAX);
                    if let Some(x) = self.tree.get_mut(at) {
                        x.moves = Some(n);
                    }
                    n
                }
            };
            if node.children < moves {
                // Expand: the next move not tried yet, in the order listed.
                if node.moves.is_some() {
                    game.moves(&mut self.moves);
                }
                let Some(mv) = self.moves.get(usize::from(node.children)) else {
                    return;
                };
                let new = self.tree.len() as u32;
                self.tree.push(Node::new(mv, seat, node.child));
                if let Some(x) = self.tree.get_mut(at) {
                    x.child = new;
                    x.children += 1;
                }
                if game.play(mv) {
                    self.path.push(new);
                }
                return;
            }
            let Some(next) = self.select(&node) else {
                return;
            };
            let Some(child) = self.tree.get(next).copied() else {
                return;
            };
            if !game.play(child.mv) {
                return;
            }
            self.path.push(next as u32);
            at = next;
        }
    }

    /// The child of highest UCB1 value (every child has been tried); among equals the one
    /// added last.
    fn select(&self, node: &Node<M::Move>) -> Option<usize> {
        let log = ln(f64::from(node.visits.max(1)));
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        let mut at = node.child;
        while let Some(c) = self.tree.get(at as usize) {
            let n = f64::from(c.visits.max(1));
            let value = c.reward / n + EXPLORATION * (log / n).sqrt();
            if value > best_value {
                best_value = value;
                best = Some(at as usize);
            }
            at = c.sibling;
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
        // Still going: the seat ahead in material counts as the winner.
        let seats = game.seats() as Player;
        let mut best: Option<(Player, i64)> = None;
        let mut tied = false;
        for s in 0..seats {
            let score = game.material(s);
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

//! Alpha-beta search with iterative deepening, move ordering and a transposition table, on
//! any [`Model`].
//!
//! Two seats: negamax, each value from the point of view of the seat to move. More seats:
//! paranoid search, the seat at the root against all the others as one side. Whose turn it is
//! after a move is read from the model, never assumed: a move after which the same side is to
//! move (an extra turn, the next choice of a compound move) keeps the point of view, and any
//! other flips it.
//!
//! **Evaluation.** A position is worth the root seat's material less the most material among
//! the other seats (for two seats, the difference of the two), in seeds. A seat's material is
//! what the ruleset's verdicts reward ([`Model::material`]): where a verdict counts seeds (an
//! ending won by most seeds, or a match), the seeds it holds in its store or reserve, weight
//! 1, plus the seeds its captures removed from the game, weight 1; where every verdict goes
//! by who can still move (a player who cannot move loses), the seeds in its own holes, weight
//! 1, and seeds won weigh nothing. A finished game is worth [`WIN`] less the plies to it for a
//! win, its negation for a loss, and 0 for a draw or a game stopped with no result, so that
//! the search prefers the quickest win and the slowest loss.
//!
//! **Budget.** Iterative deepening runs to the depth limit, or until the node limit is spent
//! (a node is a move played); the move is then the best of the last depth searched in full.
//! Depth 1 is always searched in full. Both limits count work, not time, so a search gives
//! the same move on every machine.
//!
//! **Ties.** At the root every move is searched with a window that makes a move scoring as
//! well as the best one exact, and the move is drawn at random among the best: one number from
//! the caller's generator, whatever the number of ties.
//!
//! **Reproducibility.** Each search starts afresh: the transposition table's entries from
//! earlier searches are ignored (a generation number), and the killer moves and history
//! scores are cleared. A search's result depends on the position, the budget and the number
//! drawn, never on what the player searched before.
//!
//! **Memory.** The table ([`TABLE_ENTRIES`] entries of 16 bytes) and one game per ply of
//! depth are made by the first search and reused; a node then allocates nothing of its own
//! (the moves are listed into a buffer on the stack).

use rand::Rng;

use super::model::{MAX_MOVES, MAX_SEATS, Model, Moves, Outcome, SLOTS};
use crate::rules::Player;

/// The deepest search, in plies.
pub const MAX_DEPTH: u32 = 64;

/// The value of a won game, less the plies to it.
pub const WIN: i32 = 1_000_000;

/// Values at least this far from 0 are forced wins or losses (seed margins never come near:
/// a board holds at most 60,000 seeds).
pub const DECIDED: i32 = WIN - 10 * MAX_DEPTH as i32;

const INFINITY: i32 = 2 * WIN;

/// The transposition table's size in entries (a power of two): fixed, so that the search
/// does not depend on the machine's memory.
pub const TABLE_ENTRIES: usize = 1 << 17;

/// How far a search may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The deepest iteration, in plies (1 to [`MAX_DEPTH`]).
    pub depth: u32,
    /// The most nodes (moves played) over all iterations, if limited.
    pub nodes: Option<u64>,
}

/// What a search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found<M> {
    /// The move chosen.
    pub best: M,
    /// Its value for the seat to move (see the module's notes on evaluation).
    pub value: i32,
    /// The depth searched in full.
    pub depth: u32,
    /// The nodes searched, the unfinished last iteration included.
    pub nodes: u64,
}

/// What a table entry says of its value.
const EMPTY: u8 = 0;
const EXACT: u8 = 1;
const AT_LEAST: u8 = 2;
const AT_MOST: u8 = 3;

/// No move (in a table entry or an ordering).
const NO_SLOT: u8 = u8::MAX;

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    generation: u16,
    /// [`EMPTY`], [`EXACT`], [`AT_LEAST`] or [`AT_MOST`] in the low two bits, and the depth
    /// searched above them (six bits: a search of [`MAX_DEPTH`] is kept as one ply shallower,
    /// which only lets a later search of that depth search again).
    packed: u8,
    /// The best move's slot (below [`SLOTS`]), or [`NO_SLOT`].
    slot: u8,
}

const _: () = assert!(MAX_DEPTH <= 64 && SLOTS <= 256);

impl Entry {
    fn pack(bound: u8, depth: u32) -> u8 {
        bound & 3 | (depth.min(63) as u8) << 2
    }
    fn bound(&self) -> u8 {
        self.packed & 3
    }
    fn depth(&self) -> u32 {
        u32::from(self.packed >> 2)
    }
    fn slot(&self) -> u8 {
        self.slot
    }
}

/// An alpha-beta player's search, with its buffers.
#[derive(Debug, Clone)]
pub struct AlphaBeta<M: Model> {
    budget: Budget,
    table: Vec<Entry>,
    generation: u16,
    /// The game at each ply of the current line (0 is the root).
    stack: Vec<M>,
    /// Per ply, the two latest moves that caused a cut-off.
    killers: Vec<[Option<M::Move>; 2]>,
    /// Per seat and move slot, how much the move caused cut-offs (depth squared each time).
    history: Vec<u32>,
    nodes: u64,
    limit: u64,
    aborted: bool,
    iteration: u32,
    root: Player,
}

impl<M: Model> AlphaBeta<M> {
    /// A search with this budget (its depth is kept within 1 and [`MAX_DEPTH`]). Nothing is
    /// allocated until the first search.
    pub fn new(budget: Budget) -> Self {
        AlphaBeta {
            budget: Budget {
                depth: budget.depth.clamp(1, MAX_DEPTH),
                nodes: budget.nodes,
            },
            table: Vec::new(),
            generation: 0,
            stack: Vec::new(),
            killers: Vec::new(),
            history: Vec::new(),
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
            iteration: 0,
            root: 0,
        }
    }

    /// The budget.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Searches the position `root` and chooses a move for the seat to move, drawing one
    /// number from `rng` to choose among equally good moves; None if the game is over or has
    /// no move.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use rand::SeedableRng;
    /// use rand_chacha::ChaCha8Rng;
    /// use sow::engine::Game;
    /// use sow::players::{AlphaBeta, Budget};
    ///
    /// # let text = sow::catalog::shipped("oware").expect("shipped");
    /// # let rules = Arc::new(sow::check::load(text, &[]).expect("it loads").rules);
    /// let game = Game::new(rules);
    /// // As deep as 5000 nodes reach, and never deeper than 12 plies.
    /// let mut search = AlphaBeta::new(Budget { depth: 12, nodes: Some(5000) });
    /// let found = search.search(&game, &mut ChaCha8Rng::seed_from_u64(1)).expect("a move");
    /// assert!(game.legal_moves().contains(found.best));
    /// assert!(found.depth >= 1 && found.nodes <= 5001);
    /// // The same position, the same budget and the same number drawn: the same move.
    /// let again = AlphaBeta::new(search.budget()).search(&game, &mut ChaCha8Rng::seed_from_u64(1));
    /// assert_eq!(again, Some(found));
    /// ```
    pub fn search(&mut self, root: &M, rng: &mut impl Rng) -> Option<Found<M::Move>> {
        let me = root.to_move()?;
        self.prepare(root, me);
        let mut moves = Moves::<M::Move>::default();
        root.moves(&mut moves);
        let n = moves.len();
        if n == 0 {
            return None;
        }
        // The values of the last iteration searched in full, aligned with `moves`.
        let mut values = [-INFINITY; MAX_MOVES];
        let mut completed = 0;
        for depth in 1..=self.budget.depth {
            self.iteration = depth;
            let mut these = [-INFINITY; MAX_MOVES];
            let mut best = -INFINITY;
            for (i, &mv) in moves.as_slice().iter().enumerate() {
                if !self.advance(0, mv) {
                    continue;
                }
                if self.out_of_budget() {
                    break;
                }
                // After the first move, a window just below the best so far: a move as good
                // as the best is valued exactly, so that ties are seen.
                let alpha = if i == 0 { -INFINITY } else { best - 1 };
                let v = self.child(1, depth - 1, alpha, INFINITY, 0);
                if self.aborted {
                    break;
                }
                if let Some(slot) = these.get_mut(i) {
                    *slot = v;
                }
                best = best.max(v);
            }
            if self.aborted {
                break;
            }
            completed = depth;
            values = these;
            // The next iteration searches the best moves first (a stable sort keeps the
            // moves' own order among equals).
            sort_by_value(
                moves.as_mut_slice(),
                values.get_mut(..n).unwrap_or_default(),
            );
            if best.abs() >= DECIDED || n == 1 {
                break;
            }
        }
        let values = values.get(..n).unwrap_or_default();
        let best = values.iter().copied().max().unwrap_or(-INFINITY);
        let ties = values.iter().filter(|&&v| v == best).count();
        let pick = rng.random_range(0..ties.max(1));
        let chosen = (moves.as_slice().iter().zip(values))
            .filter(|&(_, &v)| v == best)
            .nth(pick)
            .map(|(&m, _)| m)
            .or_else(|| moves.get(0))?;
        Some(Found {
            best: chosen,
            value: best,
            depth: completed,
            nodes: self.nodes,
        })
    }

    /// Readies the buffers for a search from `root`: the table's old entries are ignored
    /// from now on, the killers and history forgotten.
    fn prepare(&mut self, root: &M, me: Player) {
        if self.table.is_empty() {
            self.table = vec![Entry::default(); TABLE_ENTRIES];
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Generations wrapped: the oldest entries would pass for new ones.
            self.table.fill(Entry::default());
            self.generation = 1;
        }
        let plies = self.budget.depth as usize + 1;
        match self.stack.first_mut() {
            Some(first) => first.copy_from(root),
            None => self.stack.push(root.clone()),
        }
        while self.stack.len() < plies {
            self.stack.push(root.clone());
        }
        self.killers.clear();
        self.killers.resize(plies, [None; 2]);
        self.history.clear();
        self.history.resize(MAX_SEATS * SLOTS, 0);
        self.nodes = 0;
        self.limit = self.budget.nodes.unwrap_or(u64::MAX);
        self.aborted = false;
        self.root = me;
    }

    /// 0 for the root seat's side, 1 for the others.
    #[inline]
    fn side(&self, seat: Player) -> u8 {
        u8::from(seat != self.root)
    }

    /// Plays `mv` from the game at `ply` into the game at `ply + 1`; false if it was refused.
    #[inline]
    fn advance(&mut self, ply: usize, mv: M::Move) -> bool {
        let Some((before, after)) = self.stack.split_at_mut_checked(ply + 1) else {
            return false;
        };
        let (Some(from), Some(to)) = (before.last(), after.first_mut()) else {
            return false;
        };
        to.copy_from(from);
        self.nodes += 1;
        to.play(mv)
    }

    /// Whether the node budget is spent (never during the first iteration); marks the search
    /// aborted if so.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes > self.limit && self.iteration > 1 {
            self.aborted = true;
        }
        self.aborted
    }

    /// The value of the game at `ply`, reached by a move of `side`, for `side`.
    fn child(&mut self, ply: usize, depth: u32, alpha: i32, beta: i32, side: u8) -> i32 {
        let Some(game) = self.stack.get(ply) else {
            return 0;
        };
        if let Some(outcome) = game.outcome() {
            return self.finished(outcome, side, ply);
        }
        let Some(seat) = game.to_move() else {
            return 0;
        };
        if depth == 0 {
            return self.evaluate(game, side);
        }
        if self.side(seat) == side {
            self.node(ply, depth, alpha, beta)
        } else {
            -self.node(ply, depth, -beta, -alpha)
        }
    }

    /// The value of a finished game for `side`, reached `ply` plies from the root.
    fn finished(&self, outcome: Outcome, side: u8, ply: usize) -> i32 {
        let won = WIN - ply as i32;
        match outcome {
            Outcome::Win(w) if self.side(w) == side => won,
            Outcome::Win(_) => -won,
            Outcome::Draw | Outcome::NoResult => 0,
        }
    }

    /// The static value of `game` for `side`: the root seat's material less the most of the
    /// others', negated for the others' side.
    fn evaluate(&self, game: &M, side: u8) -> i32 {
        let seats = game.seats().min(MAX_SEATS);
        let mine = game.material(self.root);
        let theirs = (0..seats as Player)
            .filter(|&s| s != self.root)
            .map(|s| game.material(s))
            .max()
            .unwrap_or(0);
        let margin = (mine - theirs).clamp(i64::from(-DECIDED + 1), i64::from(DECIDED - 1)) as i32;
        if side == 0 { margin } else { -margin }
    }

    /// The value of the game at `ply` (still playing) for the side to move, searched `depth`
    /// plies deep within the window (`alpha`, `beta`).
    fn node(&mut self, ply: usize, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        let Some(game) = self.stack.get(ply) else {
            return 0;
        };
        let Some(seat) = game.to_move() else {
            return 0;
        };
        let side = self.side(seat);
        let key = game.hash();
        let index = key as usize & (TABLE_ENTRIES - 1);
        let mut hinted = NO_SLOT;
        if let Some(e) = self.table.get(index)
            && e.key == key
            && e.generation == self.generation
            && e.bound() != EMPTY
        {
            hinted = e.slot();
            if e.depth() >= depth {
                let v = from_table(e.value, ply);
                match e.bound() {
                    EXACT => return v,
                    AT_LEAST if v >= beta => return v,
                    AT_MOST if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let mut moves = Moves::<M::Move>::default();
        game.moves(&mut moves);
        self.order(&mut moves, ply, seat, hinted);
        let first_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_slot = 0;
        for &mv in moves.as_slice() {
            if !self.advance(ply, mv) {
                continue;
            }
            if self.out_of_budget() {
                return 0;
            }
            let v = self.child(ply + 1, depth - 1, alpha, beta, side);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_slot = M::slot(mv) as u8;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        self.cut_by(ply, seat, mv, depth);
                        break;
                    }
                }
            }
        }
        if best == -INFINITY {
            // Every move was refused (a model at odds with its own list): nothing to learn.
            return 0;
        }
        let bound = if best <= first_alpha {
            AT_MOST
        } else if best >= beta {
            AT_LEAST
        } else {
            EXACT
        };
        let generation = self.generation;
        if let Some(e) = self.table.get_mut(index)
            && (e.generation != generation || e.key == key || e.depth() <= depth)
        {
            *e = Entry {
                key,
                value: to_table(best, ply),
                generation,
                packed: Entry::pack(bound, depth),
                slot: best_slot,
            };
        }
        best
    }

    /// Orders the moves at `ply`: the table's move, then the killers, then by history.
    fn order(&self, moves: &mut Moves<M::Move>, ply: usize, seat: Player, hinted: u8) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let row = usize::from(seat).min(MAX_SEATS - 1) * SLOTS;
        let mut keys = [0u32; MAX_MOVES];
        for (k, &mv) in keys.iter_mut().zip(moves.as_slice()) {
            let slot = M::slot(mv);
            *k = if slot == usize::from(hinted) {
                u32::MAX
            } else if killers[0] == Some(mv) {
                u32::MAX - 1
            } else if killers[1] == Some(mv) {
                u32::MAX - 2
            } else {
                self.history.get(row + slot).copied().unwrap_or(0)
            };
        }
        // Insertion sort, stable, best first: at most a few dozen moves.
        let moves = moves.as_mut_slice();
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && keys.get(j - 1) < keys.get(j) {
                keys.swap(j - 1, j);
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// Remembers that `mv` by `seat` caused a cut-off at `ply`, `depth` plies from the leaves.
    fn cut_by(&mut self, ply: usize, seat: Player, mv: M::Move, depth: u32) {
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != Some(mv)
        {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let at = usize::from(seat).min(MAX_SEATS - 1) * SLOTS + M::slot(mv);
        if let Some(h) = self.history.get_mut(at) {
            // Kept below the killers' keys.
            *h = h.saturating_add(depth * depth).min(u32::MAX - 3);
        }
    }
}

/// A value as the table keeps it: a win or loss counted from the node, not the root.
fn to_table(v: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if v >= DECIDED {
        v + ply
    } else if v <= -DECIDED {
        v - ply
    } else {
        v
    }
}

/// A value from the table, for a node `ply` plies from the root.
fn from_table(v: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if v >= DECIDED {
        v - ply
    } else if v <= -DECIDED {
        v + ply
    } else {
        v
    }
}

/// Sorts moves by their values, best first, keeping the order of equal ones.
fn sort_by_value<M: Copy>(moves: &mut [M], values: &mut [i32]) {
    for i in 1..moves.len().min(values.len()) {
        let mut j = i;
        while j > 0 && values.get(j - 1) < values.get(j) {
            values.swap(j - 1, j);
            moves.swap(j - 1, j);
            j -= 1;
        }
    }
}

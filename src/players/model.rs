//! What the search players need of a game, and the one implementation of it on the engine's
//! [`Game`]: this module is the only code of [`crate::players`] that touches the engine.
//!
//! The search is written against [`Model`], not against [`Game`], so that the engine's model
//! can change (more seats, moves made of several choices) with only this module following
//! it. The search assumes nothing about whose turn comes next: it asks [`Model::to_move`]
//! after every move, so extra turns, passes, compound moves (a hole, then a direction, by the
//! same seat) and any turn order are the same thing to it.

use crate::engine::{Game, Move, Offer, Position, Status};
use crate::rules::{Dir, EndingRule, MAX_ENTRY_CHOICES, MAX_POSITIONS, Player, Pos, Rules};
use crate::ruleset::Verdict;

/// The most moves a position may offer: a hole in each direction, where the mover chooses
/// it, and an entry of each size in each direction (a pass is only ever offered alone).
pub const MAX_MOVES: usize = 2 * MAX_POSITIONS + 2 * MAX_ENTRY_CHOICES as usize;

/// The number of slots that tables indexed by move have: [`Model::slot`] is below it. Moves
/// may share a slot (entries share theirs with sowings): a slot only orders the search.
pub const SLOTS: usize = 2 * MAX_POSITIONS;

/// The most seats at one table the search players handle.
pub const MAX_SEATS: usize = 6;

/// How a finished game came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// This seat won.
    Win(Player),
    /// Nobody won.
    Draw,
    /// Play stopped at one of the engine's safety limits: the rules give no result.
    NoResult,
}

/// The legal moves of a position, in a buffer the caller owns (listing them allocates
/// nothing).
#[derive(Debug, Clone, Copy)]
pub struct Moves<M> {
    list: [M; MAX_MOVES],
    len: usize,
}

impl<M: Copy + Default> Default for Moves<M> {
    fn default() -> Self {
        Moves {
            list: [M::default(); MAX_MOVES],
            len: 0,
        }
    }
}

impl<M: Copy> Moves<M> {
    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds a move; a move past [`MAX_MOVES`] is dropped.
    #[inline]
    pub fn push(&mut self, m: M) {
        if let Some(slot) = self.list.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    /// How many moves there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th move.
    #[inline]
    pub fn get(&self, i: usize) -> Option<M> {
        self.as_slice().get(i).copied()
    }

    /// The moves, in the order they were listed (or sorted).
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        self.list.get(..self.len).unwrap_or_default()
    }

    /// The moves, to reorder them.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        self.list.get_mut(..self.len).unwrap_or_default()
    }
}

/// A game as the search players see it.
///
/// Implementations keep every method free of heap allocation once warm (listing moves into
/// the caller's buffer, playing, copying into a value made before), so that a search
/// allocates nothing per node.
///
/// The engine's [`Game`] is one. Any game can be another: here three players take one to
/// three stones in turn, and whoever takes the last stone wins. Alpha-beta plays paranoid
/// search for three seats: the seat to move against the two others playing together.
///
/// ```
/// use rand::SeedableRng;
/// use rand_chacha::ChaCha8Rng;
/// use sow::players::model::{Model, Moves, Outcome};
/// use sow::players::{AlphaBeta, Budget, Score};
/// use sow::rules::Player;
///
/// #[derive(Clone, Debug)]
/// struct TakeAway { stones: u8, seat: Player }
///
/// impl Model for TakeAway {
///     type Move = u8;
///     fn seats(&self) -> usize { 3 }
///     fn to_move(&self) -> Option<Player> { (self.stones > 0).then_some(self.seat) }
///     fn moves(&self, out: &mut Moves<u8>) {
///         out.clear();
///         (1..=self.stones.min(3)).for_each(|m| out.push(m));
///     }
///     fn play(&mut self, m: u8) -> bool {
///         if m == 0 || m > self.stones.min(3) { return false; }
///         self.stones -= m;
///         if self.stones > 0 { self.seat = (self.seat + 1) % 3; }
///         true
///     }
///     fn copy_from(&mut self, other: &Self) { *self = other.clone(); }
///     fn seeds(&self, _: Player) -> i64 { 0 }
///     fn material(&self, _: Player) -> i64 { 0 }
///     fn outcome(&self) -> Option<Outcome> { (self.stones == 0).then_some(Outcome::Win(self.seat)) }
///     fn hash(&self) -> u64 { u64::from(self.stones) << 8 | u64::from(self.seat) }
///     fn slot(m: u8) -> usize { usize::from(m) }
/// }
///
/// let mut search = AlphaBeta::new(Budget { depth: 8, nodes: None });
/// let mut rng = ChaCha8Rng::seed_from_u64(0);
/// // Facing three stones, take them all.
/// let found = search.search(&TakeAway { stones: 3, seat: 0 }, &mut rng).expect("a move");
/// assert_eq!((found.best, Score::of_value(found.value)), (3, Score::WinIn(1)));
/// // Facing five, every move loses to two opponents who play together; the longest way
/// // to lose is to take one, and lose after three plies.
/// let found = search.search(&TakeAway { stones: 5, seat: 0 }, &mut rng).expect("a move");
/// assert_eq!((found.best, Score::of_value(found.value)), (1, Score::LossIn(3)));
/// ```
pub trait Model: Clone {
    /// A move: one choice of the seat to move.
    type Move: Copy + Eq + Default + std::fmt::Debug;

    /// How many seats the game has.
    fn seats(&self) -> usize;

    /// The seat to move, or None once the game is over.
    fn to_move(&self) -> Option<Player>;

    /// Lists the legal moves of the seat to move into `out` (emptied first), in a fixed order.
    fn moves(&self, out: &mut Moves<Self::Move>);

    /// Plays a legal move in place; false (and nothing played) if it is not one.
    fn play(&mut self, m: Self::Move) -> bool;

    /// Makes this game a copy of `other`, reusing what it holds.
    fn copy_from(&mut self, other: &Self);

    /// The seeds a seat has won: those it holds (store or reserve) plus those its captures
    /// removed from the game.
    fn seeds(&self, seat: Player) -> i64;

    /// What a seat has that the rules' verdicts reward, for the search's evaluation: where a
    /// verdict counts seeds, its [`Model::seeds`]; where the verdicts go by who can still move
    /// (a player who cannot move loses), the seeds in its own holes, its mobility.
    fn material(&self, seat: Player) -> i64;

    /// How the game ended, once it is over.
    fn outcome(&self) -> Option<Outcome>;

    /// A hash of everything that decides the game's future (not the ply count).
    fn hash(&self) -> u64;

    /// A small number for a move, below [`SLOTS`], to index tables by move (killers,
    /// history, the transposition table's best move); two moves may share one.
    fn slot(m: Self::Move) -> usize;
}

/// The engine's [`Game`] as a [`Model`]: a move is the engine's [`Move`], a hole (with its
/// direction where the mover chooses it) or a pass, as [`Game::legal_moves`] lists them.
impl Model for Game {
    type Move = Move;

    #[inline]
    fn seats(&self) -> usize {
        usize::from(self.rules().geometry.seats)
    }

    #[inline]
    fn to_move(&self) -> Option<Player> {
        Game::to_move(self)
    }

    #[inline]
    fn moves(&self, out: &mut Moves<Move>) {
        out.clear();
        for m in self.legal_moves().iter() {
            out.push(m);
        }
    }

    #[inline]
    fn play(&mut self, m: Move) -> bool {
        Game::play(self, m, &mut ()).is_ok()
    }

    #[inline]
    fn copy_from(&mut self, other: &Self) {
        self.clone_from(other);
    }

    #[inline]
    fn seeds(&self, seat: Player) -> i64 {
        let pos = self.position();
        let taken = pos.taken.get(usize::from(seat)).copied().unwrap_or(0);
        i64::from(pos.held(self.rules(), seat)) + i64::from(taken)
    }

    #[inline]
    fn material(&self, seat: Player) -> i64 {
        if verdicts_count_seeds(self.rules()) {
            self.seeds(seat)
        } else {
            i64::from(self.position().row_seeds(self.rules(), seat))
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.status() {
            Status::Playing => None,
            Status::Over { winner: Some(w) } => Some(Outcome::Win(w)),
            Status::Over { winner: None } => Some(Outcome::Draw),
            Status::Stopped { .. } => Some(Outcome::NoResult),
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        hash(self.position(), self.starter())
    }

    /// The hole for a move the rules' way or counter-clockwise, the hole plus
    /// [`MAX_POSITIONS`] clockwise, the last position's slot for a pass (a board's last
    /// position is never a hole: two are kept for stores); an entry of N seeds takes the slot
    /// of hole N - 1 (entries are few beside sowings, and a slot only orders moves).
    #[inline]
    fn slot(m: Move) -> usize {
        if m.is_pass() {
            return MAX_POSITIONS - 1;
        }
        let turned = match m.dir {
            Some(Dir::Cw) => MAX_POSITIONS,
            Some(Dir::Ccw) | None => 0,
        };
        let at = if m.is_entry() {
            usize::from(m.entered - 1)
        } else {
            usize::from(m.hole)
        };
        (at % MAX_POSITIONS + turned) % SLOTS
    }
}

/// Whether a verdict of these rules counts seeds: an ending won by most seeds, or a match
/// (whose winner is the player with the most seeds at its end). Otherwise every ending names
/// its winner by who moves (or calls a draw): the seeds won matter only as they change what
/// each side can still play.
pub fn verdicts_count_seeds(rules: &Rules) -> bool {
    let most = |e: &EndingRule| e.result == Verdict::MostSeeds;
    rules.rounds.is_some()
        || most(&rules.no_move)
        || most(&rules.endless_move)
        || rules.cycle.as_ref().is_some_and(most)
        || rules.end_when.iter().any(|(_, e)| most(e))
}

/// A Zobrist-style hash of a position and the round's starter (which rules may read): the
/// exclusive or of one key per (position, seeds) for every position holding seeds, one per
/// variable, and one per other field. Every term stands on its own, so an engine could keep the hash up to date
/// as it writes the board (the key of the old count out, the new one in) instead of computing
/// it again; an empty position's key is zero, so only occupied positions are visited here.
pub fn hash(pos: &Position, starter: Player) -> u64 {
    let mut h = 0;
    let mut rest = pos.sown();
    while rest != 0 {
        let at = u64::from(rest.trailing_zeros());
        rest &= rest - 1;
        h ^= key(at << 32 | u64::from(pos.seeds(at as Pos)));
    }
    let [r0, r1, ..] = pos.reserve;
    let [t0, t1, ..] = pos.taken;
    let [c0, c1, ..] = pos.claims;
    // Seats past the second (games of three or more players), and who is out of the match.
    for (seat, ((&r, &t), &c)) in (2u64..)
        .zip(pos.reserve.iter().zip(&pos.taken).zip(&pos.claims))
        .skip(2)
    {
        h ^= key(9 << 40 | seat << 32 | u64::from(r));
        h ^= key(10 << 40 | seat << 32 | u64::from(t));
        h ^= key(11 << 40 | seat << 32 | u64::from(c));
    }
    h ^= key(12 << 40 | u64::from(pos.out) | u64::from(pos.rotation) << 8);
    // What the player to move may do beside sowing: the same board with another offer (an
    // extra turn they may decline, the pie rule's swap, a move stopped for a decision) is
    // another position.
    // (Joined by `^`, not `|`: a term wider than 40 bits keeps every bit.)
    h ^= key(13 << 40 ^ offer_term(&pos.offer));
    for (slot, &v) in (0u64..).zip(&pos.vars) {
        // An unused slot (or a variable at 0) adds nothing, like an empty position.
        if v != 0 {
            h ^= key(8 << 40 | slot << 32 | u64::from(v as u32));
        }
    }
    h ^ key(1 << 40 | u64::from(r0))
        ^ key(2 << 40 | u64::from(r1))
        ^ key(3 << 40 | u64::from(t0))
        ^ key(4 << 40 | u64::from(t1))
        ^ key(key(pos.closed as u64) ^ key((pos.closed >> 64) as u64) ^ 5 << 40)
        ^ key(6 << 40
            | u64::from(pos.to_move)
            | u64::from(pos.moved) << 8
            | u64::from(pos.turn_sowings) << 16
            | u64::from(c0) << 24
            | u64::from(c1) << 32)
        ^ key(7 << 40 | u64::from(starter))
}

/// The race's starts, a byte a seat, as one word.
fn starts_term(starts: &crate::engine::Starts) -> u64 {
    starts.iter().fold(0, |t, &h| t << 8 | u64::from(h))
}

/// The offer of a position as one term of its hash: its kind, and for a stopped move where it
/// stands.
fn offer_term(offer: &Offer) -> u64 {
    match *offer {
        Offer::Sow => 0,
        Offer::Decline => 1,
        Offer::Swap => 2,
        // The starts chosen so far, a byte a seat, mixed.
        Offer::Race { starts } => 5 | key(starts_term(&starts)) << 3,
        Offer::RaceStart { starts } => 6 | key(starts_term(&starts)) << 3,
        Offer::Arrange { left, refill } => 3 | u64::from(left) << 8 | u64::from(refill) << 16,
        Offer::Decide(p) => {
            let stands = u64::from(p.clause)
                | u64::from(p.origin) << 16
                | u64::from(p.last) << 24
                | u64::from(p.lap_origin) << 32
                | u64::from(p.entered) << 40;
            4 | key(stands ^ key(u64::from(p.lap) | u64::from(p.captured) << 32)) << 3
        }
    }
}

/// The key of one term: a fixed, well-mixed function of it (SplitMix64's finaliser), so that
/// the keys need no table and are the same on every machine.
#[inline(always)]
fn key(term: u64) -> u64 {
    let mut z = term.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

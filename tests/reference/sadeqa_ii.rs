//! Sadeqa II (clauses SQ-1..SQ-9 of SEED-RULES.md), hand-written from the rule text.
//!
//! Board layout: index 0..6 are South's holes s1..s6, index 6..12 are North's holes n1..n6.
//! Counter-clockwise sowing is `index + 1 (mod 12)`; `opposite(i) = 11 - i`
//! (so opposite(s_i) = n_(7-i)).

use super::{Observed, Outcome, Side};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// Holes per row (SQ-1).
const N: usize = 6;
/// Holes on the board.
const H: usize = 2 * N;
/// Seeds per hole at the start (SQ-2).
const START: u32 = 3;

/// SQ-O1: who is bound by the opening rule SQ-6.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Opening {
    /// Each player's very first move must be from their hole 6 (default).
    #[default]
    Both,
    /// Only the player who moves first.
    Starter,
}

/// SQ-O3: which hole sowing jumps over.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum OriginSkip {
    /// No hole is skipped (default).
    #[default]
    Never,
    /// The hole the move was started from is skipped whenever sowing passes it.
    Move,
    /// The hole the current lap was lifted from is skipped.
    Lap,
}

/// SQ-O4: what an endless move does.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Endless {
    /// The game is drawn (default).
    #[default]
    Draw,
    /// The player who made the move loses.
    MoverLoses,
}

/// SQ-O6: when an empty row loses.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum EmptyRow {
    /// Only at the start of that player's turn (SQ-8) (default).
    #[default]
    AtTurnStart,
    /// Also at once, when the mover's own row is empty after their ply.
    AtOnce,
}

/// One field per open point of SEED-RULES.md.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Options {
    /// SQ-O1.
    pub opening: Opening,
    /// SQ-O2: who starts.
    pub first: Side,
    /// SQ-O3.
    pub origin_skip: OriginSkip,
    /// SQ-O4.
    pub endless: Endless,
    /// SQ-O6.
    pub empty_row: EmptyRow,
    /// SQ-O5: a repeated position is a draw (the default); `false`: play goes on.
    pub cycle: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            opening: Opening::Both,
            first: Side::South,
            origin_skip: OriginSkip::Never,
            endless: Endless::Draw,
            empty_row: EmptyRow::AtTurnStart,
            cycle: true,
        }
    }
}

/// What one call to `play` did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Ply {
    /// Seeds captured (and removed from the game, SQ-7) by [South, North] in this move.
    pub captured: [u32; 2],
    /// Laps sown by the move (for an endless move: the lap whose end repeated an earlier one).
    pub laps: u32,
    /// The move was endless (SQ-O4) and ended the game.
    pub endless: bool,
    /// The position after this ply repeated an earlier one of the game (SQ-O5): a draw.
    pub cycle: bool,
    /// The game ended during this call (Sadeqa II has a single round).
    pub round_over: bool,
}

/// One lap of a move, as reported by `play_traced`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Lap {
    /// The hole lifted (side, hole number 1..6 from that side's left).
    pub lifted: (Side, usize),
    /// Seeds sown in the lap.
    pub seeds: u32,
    /// The hole that received the lap's last seed.
    pub last: (Side, usize),
}

/// A position of the game, for SQ-O5. The seed total only falls (SQ-7), and the history is
/// cleared on every capture, so it is not needed in the key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct PosKey {
    board: [u32; H],
    to_move: Side,
    first_done: [bool; 2],
}

/// The lap-end states of the move being played (SQ-O4): (board, hole to lift next) → lap.
/// Short moves are scanned linearly in a reused list (no allocation); a move that grows long
/// switches to a hash map, so that even moves of tens of thousands of laps stay linear.
#[derive(Clone, Debug, Default)]
struct LapMemory {
    list: Vec<([u32; H], u8, u32)>,
    map: HashMap<([u32; H], u8), u32>,
    hashed: bool,
}

/// Length of the linear list before switching to the hash map.
const LINEAR_LAPS: usize = 64;

impl LapMemory {
    fn clear(&mut self) {
        self.list.clear();
        self.map.clear();
        self.hashed = false;
    }

    /// Record the state after lap `lap`; if it equals an earlier one, return that lap instead.
    fn repeat_or_insert(&mut self, board: &[u32; H], next: usize, lap: u32) -> Option<u32> {
        let next = next as u8;
        if !self.hashed {
            if let Some(&(_, _, earlier)) =
                self.list.iter().find(|(b, n, _)| *n == next && b == board)
            {
                return Some(earlier);
            }
            if self.list.len() < LINEAR_LAPS {
                self.list.push((*board, next, lap));
                return None;
            }
            self.hashed = true;
            self.map
                .extend(self.list.iter().map(|&(b, n, l)| ((b, n), l)));
        }
        match self.map.entry((*board, next)) {
            Entry::Occupied(e) => Some(*e.get()),
            Entry::Vacant(e) => {
                e.insert(lap);
                None
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct SadeqaII {
    opts: Options,
    board: [u32; H],
    /// Seeds captured (removed) by [South, North].
    captured: [u32; 2],
    /// Whether each player has made their first move (SQ-6).
    first_done: [bool; 2],
    to_move: Option<Side>,
    result: Option<Outcome>,
    /// SQ-O5: positions of the game since the last capture.
    history: Vec<PosKey>,
    /// SQ-O4: scratch buffer of the lap-end states of the move being played.
    laps: LapMemory,
    /// SQ-O4: (earlier lap, repeating lap) of the last endless move.
    last_repeat: Option<(u32, u32)>,
}

/// (side, hole number 1..6) of board index `i`.
fn hole_of(i: usize) -> (Side, usize) {
    if i < N {
        (Side::South, i + 1)
    } else {
        (Side::North, i - N + 1)
    }
}

/// Board index of `side`'s hole `h` (1-based, from that player's own left).
fn index_of(side: Side, h: usize) -> usize {
    side.index() * N + (h - 1)
}

impl SadeqaII {
    /// The start of a game: 3 seeds in every hole (SQ-2), `opts.first` to move (SQ-O2).
    pub fn new(opts: Options) -> Self {
        let mut game = Self::blank(opts, [START; H], opts.first);
        game.start();
        game
    }

    /// A set-up position: mid-game, so the opening rule (SQ-6) binds neither player.
    pub fn from_position(opts: Options, south: &[u32], north: &[u32], to_move: Side) -> Self {
        assert_eq!(south.len(), N, "south row must have {N} holes");
        assert_eq!(north.len(), N, "north row must have {N} holes");
        let mut board = [0; H];
        board[..N].copy_from_slice(south);
        board[N..].copy_from_slice(north);
        let mut game = Self::blank(opts, board, to_move);
        game.first_done = [true; 2];
        game.start();
        game
    }

    fn blank(opts: Options, board: [u32; H], to_move: Side) -> Self {
        SadeqaII {
            opts,
            board,
            captured: [0; 2],
            first_done: [false; 2],
            to_move: Some(to_move),
            result: None,
            history: Vec::with_capacity(64),
            laps: LapMemory::default(),
            last_repeat: None,
        }
    }

    /// SQ-8 at the start of the first turn, and the first position of the history.
    fn start(&mut self) {
        let side = self.to_move.expect("game starts with a player to move");
        if self.mask_of(side) == 0 {
            self.finish(Outcome::Winner(side.other()));
        } else {
            let key = self.key();
            self.history.push(key);
        }
    }

    /// Bit h-1 set: the player to move may play their hole h (SQ-3, SQ-6).
    pub fn legal_mask(&self) -> u32 {
        let Some(side) = self.to_move else { return 0 };
        self.mask_of(side)
    }

    fn mask_of(&self, side: Side) -> u32 {
        let base = side.index() * N;
        if self.opening_binds(side) {
            // SQ-6: the first move must be from the rightmost hole.
            return if self.board[base + N - 1] > 0 {
                1 << (N - 1)
            } else {
                0
            };
        }
        let mut mask = 0;
        for h in 0..N {
            if self.board[base + h] > 0 {
                mask |= 1 << h;
            }
        }
        mask
    }

    /// SQ-6 / SQ-O1: must `side` still make their first move from their rightmost hole?
    fn opening_binds(&self, side: Side) -> bool {
        !self.first_done[side.index()]
            && (self.opts.opening == Opening::Both || side == self.opts.first)
    }

    pub fn to_move(&self) -> Option<Side> {
        self.to_move
    }

    pub fn result(&self) -> Option<Outcome> {
        self.result
    }

    /// For the last endless move (SQ-O4): (the earlier lap, the lap whose end repeated it).
    pub fn last_repeat(&self) -> Option<(u32, u32)> {
        self.last_repeat
    }

    pub fn observe(&self) -> Observed {
        Observed {
            south: self.board[..N].to_vec(),
            north: self.board[N..].to_vec(),
            captured: self.captured,
            closed_south: vec![false; N],
            closed_north: vec![false; N],
            to_move: self.to_move,
        }
    }

    /// Play hole `hole` (1..=6 from the mover's own left). Panics if the move is illegal.
    pub fn play(&mut self, hole: usize) -> Ply {
        self.play_inner(hole, None)
    }

    /// `play`, also returning every lap of the move (for tests).
    pub fn play_traced(&mut self, hole: usize) -> (Ply, Vec<Lap>) {
        let mut trace = Vec::new();
        let ply = self.play_inner(hole, Some(&mut trace));
        (ply, trace)
    }

    fn play_inner(&mut self, hole: usize, mut trace: Option<&mut Vec<Lap>>) -> Ply {
        let side = self.to_move.expect("the game is over");
        assert!(
            (1..=N).contains(&hole) && self.legal_mask() & (1 << (hole - 1)) != 0,
            "illegal move: hole {hole} for {side:?}"
        );
        let origin = index_of(side, hole);
        let mut ply = Ply::default();
        self.first_done[side.index()] = true;
        self.last_repeat = None;
        self.laps.clear();

        // SQ-3: lift the origin.
        let mut lift = origin;
        let last = loop {
            ply.laps += 1;
            let seeds = self.board[lift];
            self.board[lift] = 0;
            let skip = match self.opts.origin_skip {
                OriginSkip::Never => usize::MAX,
                OriginSkip::Move => origin,
                OriginSkip::Lap => lift,
            };
            // Sow one seed per hole, starting in the next hole.
            let mut i = lift;
            for _ in 0..seeds {
                i = if i + 1 == H { 0 } else { i + 1 };
                if i == skip {
                    i = if i + 1 == H { 0 } else { i + 1 };
                }
                self.board[i] += 1;
            }
            if let Some(t) = trace.as_deref_mut() {
                t.push(Lap {
                    lifted: hole_of(lift),
                    seeds,
                    last: hole_of(i),
                });
            }
            // SQ-5: the last seed fell into an empty hole: the move ends.
            if self.board[i] == 1 {
                break i;
            }
            // SQ-4: relay from the last hole. SQ-O4: (board, next hole to lift) repeats?
            if let Some(earlier) = self.laps.repeat_or_insert(&self.board, i, ply.laps) {
                self.last_repeat = Some((earlier, ply.laps));
                ply.endless = true;
                ply.round_over = true;
                self.finish(match self.opts.endless {
                    Endless::Draw => Outcome::Draw,
                    Endless::MoverLoses => Outcome::Winner(side.other()),
                });
                return ply;
            }
            lift = i;
        };

        // SQ-7: capture the opposite hole, on either side; the capturing seed stays.
        let opp = H - 1 - last;
        if self.board[opp] > 0 {
            let n = self.board[opp];
            self.board[opp] = 0;
            self.captured[side.index()] += n;
            ply.captured[side.index()] += n;
            // The seed total fell: no earlier position can come back (SQ-O5).
            self.history.clear();
        }

        // SQ-O6 AtOnce: the mover's own row is empty after their ply.
        if self.opts.empty_row == EmptyRow::AtOnce
            && self.board[side.index() * N..side.index() * N + N]
                .iter()
                .all(|&s| s == 0)
        {
            ply.round_over = true;
            self.finish(Outcome::Winner(side.other()));
            return ply;
        }
        let next = side.other();
        self.to_move = Some(next);
        // SQ-8 / SQ-9: the player to move cannot move and loses.
        if self.mask_of(next) == 0 {
            ply.round_over = true;
            self.finish(Outcome::Winner(side));
            return ply;
        }
        // SQ-O5: a repeated position is a draw.
        if !self.opts.cycle {
            return ply;
        }
        let key = self.key();
        if self.history.contains(&key) {
            ply.cycle = true;
            ply.round_over = true;
            self.finish(Outcome::Draw);
            return ply;
        }
        self.history.push(key);
        ply
    }

    fn key(&self) -> PosKey {
        PosKey {
            board: self.board,
            to_move: self.to_move.expect("key of a finished game"),
            first_done: self.first_done,
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.to_move = None;
        self.result = Some(outcome);
        self.history.clear();
    }
}

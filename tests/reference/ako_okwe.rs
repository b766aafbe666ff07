//! Ako Okwe (clauses AO-1..AO-7 and open points AO-O1..AO-O5 of docs/rules/ako_okwe.md),
//! written from the rule text alone.
//!
//! The board is one array in counter-clockwise order: `s1..s5, n1..n5` (each row numbered from
//! its owner's left), so counter-clockwise is "index + 1, wrapping" and clockwise "index - 1,
//! wrapping". The stores are off the track (AO-1) and kept beside it. Seed counts are `u8`:
//! the game holds 100 seeds (AO-2).
//!
//! The mover chooses each move's direction (AO-3). The legal moves are a mask with two bits a
//! hole: bit `2(h - 1)` sows hole `h` counter-clockwise, bit `2(h - 1) + 1` clockwise, so that
//! the set bits, lowest first, list the moves in hole order, each hole's counter-clockwise move
//! before its clockwise one.

use super::{Observed, Outcome, Side};

/// Holes per row (AO-1).
const HOLES: usize = 5;
/// Holes on the board.
const BOARD: usize = 2 * HOLES;
/// Seeds per hole at the start (AO-2).
const START: u8 = 10;
/// A capture takes an odd count of at most this many seeds (AO-4).
const MAX_TAKE: u8 = 9;

/// A direction of sowing, chosen by the mover for each move (AO-3).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Dir {
    /// Counter-clockwise: s1 → s5 → n1 → n5 → s1.
    Ccw,
    /// Clockwise: s5 → s1 → n5 → n1 → s5.
    Cw,
}

impl Dir {
    /// The direction's bit within a hole's pair of bits in the legal mask.
    fn bit(self) -> usize {
        match self {
            Dir::Ccw => 0,
            Dir::Cw => 1,
        }
    }
}

/// A move: a hole of the mover's own (1..=5 from their left) and the direction to sow it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move {
    pub hole: usize,
    pub dir: Dir,
}

impl Move {
    /// The move of bit `bit` of the legal mask.
    pub fn of_bit(bit: usize) -> Move {
        Move {
            hole: bit / 2 + 1,
            dir: if bit.is_multiple_of(2) {
                Dir::Ccw
            } else {
                Dir::Cw
            },
        }
    }

    /// The move's bit in the legal mask.
    pub fn bit(self) -> usize {
        2 * (self.hole - 1) + self.dir.bit()
    }
}

/// AO-O1: a last seed making an odd count of at most nine that the mover may not take now.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum WrongCount {
    /// The move is legal and takes nothing (default).
    #[default]
    NoCapture,
    /// The move is illegal.
    Illegal,
}

/// AO-O2: what each player counts at the end.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Count {
    /// Their store and the seeds in their own row (default).
    #[default]
    StoreAndRow,
    /// Their store only (the seeds in the rows count for nobody, and stay where they are).
    Store,
}

/// AO-O3: where the seed of a hole holding one goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum SingleSeed {
    /// Back into its own hole, like the first seed of every move (default).
    #[default]
    Back,
    /// Into the next hole in the direction chosen.
    Next,
}

/// AO-O4: the sizes a player's first captures must have.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum FirstCaptures {
    /// Three, then one, then any (default).
    #[default]
    Umuahia,
    /// One, then any.
    Murray,
}

/// One field per open point of docs/rules/ako_okwe.md (AO-O5 has a single reading).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Options {
    /// AO-O1.
    pub wrong_count: WrongCount,
    /// AO-O2.
    pub count: Count,
    /// AO-O3.
    pub single_seed: SingleSeed,
    /// AO-O4.
    pub first_captures: FirstCaptures,
}

/// What one ply did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Ply {
    /// Seeds the mover took by AO-4 in this ply (the end-of-game count is not included).
    pub captured: u32,
    /// The game ended because the position came back (AO-O5).
    pub cycle: bool,
    /// The game is over after this ply.
    pub game_over: bool,
}

#[derive(Clone, Debug)]
pub struct AkoOkwe {
    opts: Options,
    /// `s1..s5, n1..n5` (counter-clockwise order).
    board: [u8; BOARD],
    /// [South, North].
    stores: [u32; 2],
    /// How many captures each player has made, [South, North] (AO-5).
    captures: [u32; 2],
    /// The player to move (meaningless once `over`).
    to_move: Side,
    /// The legal moves of the player to move (see the module's comment); 0 once `over`.
    legal: u32,
    over: bool,
    /// Positions since the last capture (or since the start), for AO-O5: a capture adds to a
    /// store, and stores never shrink, so no earlier position can come back after one.
    /// Cleared, never shrunk, so it stops allocating once warm.
    history: Vec<u128>,
}

/// Board index of `side`'s hole `hole` (1..=5 from that player's own left).
fn index(side: Side, hole: usize) -> usize {
    match side {
        Side::South => hole - 1,
        Side::North => HOLES + hole - 1,
    }
}

/// The next hole in direction `dir`.
fn step(pos: usize, dir: Dir) -> usize {
    match dir {
        Dir::Ccw => {
            if pos + 1 == BOARD {
                0
            } else {
                pos + 1
            }
        }
        Dir::Cw => {
            if pos == 0 {
                BOARD - 1
            } else {
                pos - 1
            }
        }
    }
}

/// AO-3: lifts the seeds of `origin` and sows them one a hole in direction `dir`, the first
/// into `origin` itself (AO-O3: a single seed too, or, with `SingleSeed::Next`, a single seed
/// into the next hole). Returns the hole of the last seed. `origin` must hold seeds.
fn sow(board: &mut [u8; BOARD], origin: usize, dir: Dir, single: SingleSeed) -> usize {
    let seeds = board[origin];
    board[origin] = 0;
    let mut pos = if seeds == 1 && single == SingleSeed::Next {
        step(origin, dir)
    } else {
        origin
    };
    board[pos] += 1;
    for _ in 1..seeds {
        pos = step(pos, dir);
        board[pos] += 1;
    }
    pos
}

/// AO-4: a count the last seed may capture, sizes aside: odd, at most nine.
fn takeable(seeds: u8) -> bool {
    seeds % 2 == 1 && seeds <= MAX_TAKE
}

impl AkoOkwe {
    /// The opening position: 10 seeds in every hole (AO-2), empty stores, South to move.
    pub fn new(opts: Options) -> Self {
        let mut game = AkoOkwe {
            opts,
            board: [START; BOARD],
            stores: [0, 0],
            captures: [0, 0],
            to_move: Side::South,
            legal: 0,
            over: false,
            history: Vec::with_capacity(64),
        };
        game.legal = game.moves_of(Side::South);
        if game.legal == 0 {
            game.finish();
        } else {
            game.history.push(game.key());
        }
        game
    }

    /// The legal moves of the player to move, two bits a hole (see the module's comment). 0
    /// once the game is over.
    pub fn legal_mask(&self) -> u32 {
        self.legal
    }

    /// The legal moves in order: hole by hole, counter-clockwise before clockwise.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut rest = self.legal;
        while rest != 0 {
            moves.push(Move::of_bit(rest.trailing_zeros() as usize));
            rest &= rest - 1;
        }
        moves
    }

    /// AO-5: whether `side`, having made the captures they have, may take `seeds` now.
    fn may_take(&self, side: Side, seeds: u8) -> bool {
        if !takeable(seeds) {
            return false;
        }
        let made = self.captures[side.index()];
        match (self.opts.first_captures, made) {
            (FirstCaptures::Umuahia, 0) => seeds == 3,
            (FirstCaptures::Umuahia, 1) => seeds == 1,
            (FirstCaptures::Murray, 0) => seeds == 1,
            _ => true,
        }
    }

    /// AO-3 and AO-O1: `side`'s moves. Any non-empty hole of their own, in either direction;
    /// with `WrongCount::Illegal`, not a move whose last seed makes an odd count of at most
    /// nine that `side` may not take now.
    fn moves_of(&self, side: Side) -> u32 {
        let mut mask = 0;
        for hole in 1..=HOLES {
            let origin = index(side, hole);
            if self.board[origin] == 0 {
                continue;
            }
            for dir in [Dir::Ccw, Dir::Cw] {
                if self.opts.wrong_count == WrongCount::Illegal {
                    let mut after = self.board;
                    let last = sow(&mut after, origin, dir, self.opts.single_seed);
                    if takeable(after[last]) && !self.may_take(side, after[last]) {
                        continue;
                    }
                }
                mask |= 1 << Move { hole, dir }.bit();
            }
        }
        mask
    }

    /// Plays `mv` for the player to move. Panics if the game is over or the move is illegal.
    pub fn play(&mut self, mv: Move) -> Ply {
        assert!(!self.over, "the game is over");
        assert!(
            (1..=HOLES).contains(&mv.hole) && self.legal & (1 << mv.bit()) != 0,
            "illegal move: {mv:?}"
        );
        let mover = self.to_move;
        let mut ply = Ply::default();

        // AO-3: one lap, no relay.
        let last = sow(
            &mut self.board,
            index(mover, mv.hole),
            mv.dir,
            self.opts.single_seed,
        );

        // AO-4, AO-5: the last seed's hole, in either row, odd and at most nine, of the size
        // the mover's next capture must have; any other count takes nothing (AO-O1).
        let seeds = self.board[last];
        if self.may_take(mover, seeds) {
            self.board[last] = 0;
            self.stores[mover.index()] += u32::from(seeds);
            self.captures[mover.index()] += 1;
            ply.captured = u32::from(seeds);
            self.history.clear();
        }

        // AO-6: the turn passes, captured or not.
        let next = mover.other();
        self.to_move = next;

        // AO-7: the player to move cannot move.
        self.legal = self.moves_of(next);
        if self.legal == 0 {
            self.finish();
            ply.game_over = true;
            return ply;
        }

        // AO-O5: a position that comes back ends the game, counted as AO-7 counts.
        let key = self.key();
        if self.history.contains(&key) {
            self.finish();
            ply.cycle = true;
            ply.game_over = true;
            return ply;
        }
        self.history.push(key);
        ply
    }

    pub fn observe(&self) -> Observed {
        Observed {
            south: self.board[..HOLES].iter().map(|&s| u32::from(s)).collect(),
            north: self.board[HOLES..].iter().map(|&s| u32::from(s)).collect(),
            captured: self.stores,
            closed_south: vec![false; HOLES],
            closed_north: vec![false; HOLES],
            to_move: self.to_move(),
        }
    }

    /// How many captures each player has made, [South, North] (AO-5).
    pub fn captures(&self) -> [u32; 2] {
        self.captures
    }

    pub fn to_move(&self) -> Option<Side> {
        if self.over { None } else { Some(self.to_move) }
    }

    /// AO-7: the larger count wins, equal counts draw. None while the game goes on.
    pub fn result(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let [south, north] = self.stores;
        Some(if south > north {
            Outcome::Winner(Side::South)
        } else if north > south {
            Outcome::Winner(Side::North)
        } else {
            Outcome::Draw
        })
    }

    /// AO-7, AO-O2: ends the game; with `Count::StoreAndRow` each player's row goes into their
    /// store, with `Count::Store` the rows stay as they are and count for nobody.
    fn finish(&mut self) {
        if self.opts.count == Count::StoreAndRow {
            for side in [Side::South, Side::North] {
                for hole in 1..=HOLES {
                    let i = index(side, hole);
                    self.stores[side.index()] += u32::from(self.board[i]);
                    self.board[i] = 0;
                }
            }
        }
        self.legal = 0;
        self.over = true;
    }

    /// The position for AO-O5: the board and the player to move. The stores and the players'
    /// counts of captures are left out: the history is cleared whenever they change.
    fn key(&self) -> u128 {
        let mut key = self.to_move.index() as u128;
        for &seeds in &self.board {
            key = key << 7 | u128::from(seeds);
        }
        key
    }
}

//! Kalah (2×6, a store for each player on their right), written from the rule text alone.
//!
//! The track is one array in counter-clockwise (sowing) order:
//! `s1..s6, South's store, n1..n6, North's store`, so sowing is "index + 1, wrapping".
//! The opposite of the hole at index `i` (either row) is the hole at index `12 - i`.
//! Seed counts are `u8`: the whole game never holds more than 255 seeds (checked on entry).

use super::{Observed, Outcome, Side};

/// Holes per row.
const HOLES: usize = 6;
/// Positions on the track: two rows and two stores.
const TRACK: usize = 2 * HOLES + 2;
/// Track index of South's store (after s6).
const SOUTH_STORE: usize = HOLES;
/// Track index of North's store (after n6).
const NORTH_STORE: usize = 2 * HOLES + 1;

/// What happens to the seeds left in the rows when the game ends because a row is empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sweep {
    /// Each player adds the seeds left in their own row to their own store.
    Counted,
    /// The seeds left in the rows are removed and count for nobody.
    NotCounted,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Options {
    /// Seeds per hole at the start (the rule text plays 3 to 6).
    pub seeds: u32,
    /// Capture also when the opposite hole is empty (the single capturing seed is stored).
    pub empty_capture: bool,
    /// Treatment of the seeds left in the rows when a row empties.
    pub sweep: Sweep,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seeds: 4,
            empty_capture: false,
            sweep: Sweep::Counted,
        }
    }
}

/// What one ply did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Ply {
    /// Seeds moved to each store by the capture rule in this ply, [South, North] (sowing into a
    /// store and the end-of-game sweep are not counted here).
    pub captured: [u32; 2],
    /// The last seed fell in the mover's own store (set even if the game then ended).
    pub extra_turn: bool,
    /// The game ended because the position repeated.
    pub cycle: bool,
    /// The game is over after this ply.
    pub game_over: bool,
}

#[derive(Clone)]
pub struct Kalah {
    opts: Options,
    /// `s1..s6, South store, n1..n6, North store` (counter-clockwise order).
    track: [u8; TRACK],
    /// The player to move (meaningless once `over`).
    to_move: Side,
    over: bool,
    /// Positions since the last ply that changed a store (or since the start), for the cycle
    /// rule. Cleared, never shrunk, so it stops allocating once warm.
    history: Vec<u128>,
}

/// Track index of `side`'s hole `hole` (1..=6, numbered from that player's own left).
fn hole_index(side: Side, hole: usize) -> usize {
    match side {
        Side::South => hole - 1,
        Side::North => HOLES + hole,
    }
}

/// Track index of `side`'s store.
fn store_index(side: Side) -> usize {
    match side {
        Side::South => SOUTH_STORE,
        Side::North => NORTH_STORE,
    }
}

/// Track indices of `side`'s six holes.
fn row(side: Side) -> std::ops::Range<usize> {
    match side {
        Side::South => 0..HOLES,
        Side::North => HOLES + 1..2 * HOLES + 1,
    }
}

/// The next position counter-clockwise.
fn next(pos: usize) -> usize {
    if pos + 1 == TRACK { 0 } else { pos + 1 }
}

impl Kalah {
    /// The opening position: `opts.seeds` in every hole, empty stores, South to move.
    pub fn new(opts: Options) -> Self {
        let full = vec![opts.seeds; HOLES];
        Self::from_position(opts, &full, &full, [0, 0], Side::South)
    }

    /// An arbitrary position. If a row is already empty the game ends at once (with the
    /// sweep), as it would have after the ply that emptied it.
    pub fn from_position(
        opts: Options,
        south: &[u32],
        north: &[u32],
        stores: [u32; 2],
        to_move: Side,
    ) -> Self {
        assert_eq!(south.len(), HOLES, "Kalah has {HOLES} holes per row");
        assert_eq!(north.len(), HOLES, "Kalah has {HOLES} holes per row");
        let total: u32 = south.iter().chain(north).sum::<u32>() + stores[0] + stores[1];
        assert!(total <= u32::from(u8::MAX), "at most 255 seeds in all");
        let mut track = [0u8; TRACK];
        for i in 0..HOLES {
            track[hole_index(Side::South, i + 1)] = south[i] as u8;
            track[hole_index(Side::North, i + 1)] = north[i] as u8;
        }
        track[SOUTH_STORE] = stores[0] as u8;
        track[NORTH_STORE] = stores[1] as u8;
        let mut game = Kalah {
            opts,
            track,
            to_move,
            over: false,
            history: Vec::with_capacity(64),
        };
        if game.row_empty(Side::South) || game.row_empty(Side::North) {
            game.finish(opts.sweep);
        } else {
            game.history.push(game.key());
        }
        game
    }

    /// Bit `h - 1` set when the player to move may play their hole `h`: any non-empty own hole.
    /// 0 once the game is over.
    pub fn legal_mask(&self) -> u32 {
        if self.over {
            return 0;
        }
        let mut mask = 0;
        for (bit, pos) in row(self.to_move).enumerate() {
            if self.track[pos] > 0 {
                mask |= 1 << bit;
            }
        }
        mask
    }

    /// Plays hole `hole` (1..=6 from the mover's own left) for the player to move.
    /// Panics if the game is over or the move is not legal.
    pub fn play(&mut self, hole: usize) -> Ply {
        assert!(!self.over, "the game is over");
        assert!((1..=HOLES).contains(&hole), "no hole {hole}");
        let mover = self.to_move;
        let origin = hole_index(mover, hole);
        let seeds = self.track[origin];
        assert!(seeds > 0, "illegal move: hole {hole} is empty");
        let own_store = store_index(mover);
        let opponent_store = store_index(mover.other());
        let stores_before = (self.track[SOUTH_STORE], self.track[NORTH_STORE]);
        let mut ply = Ply::default();

        // Sowing: lift the hole, one seed per position counter-clockwise starting in the next
        // position, into the mover's own store, skipping the opponent's store.
        self.track[origin] = 0;
        let mut pos = origin;
        for _ in 0..seeds {
            pos = next(pos);
            if pos == opponent_store {
                pos = next(pos);
            }
            self.track[pos] += 1;
        }

        if pos == own_store {
            // Last seed in the own store: the mover plays again.
            ply.extra_turn = true;
        } else if row(mover).contains(&pos) && self.track[pos] == 1 {
            // Last seed in an own hole that was empty: capture the opposite hole and the
            // capturing seed if the opposite is occupied (or always, with `empty_capture`).
            let opposite = 2 * HOLES - pos;
            let taken = self.track[opposite];
            if taken > 0 || self.opts.empty_capture {
                self.track[opposite] = 0;
                self.track[pos] = 0;
                self.track[own_store] += taken + 1;
                ply.captured[mover.index()] = u32::from(taken) + 1;
            }
        }
        if !ply.extra_turn {
            self.to_move = mover.other();
        }

        // End: after every ply, a player whose six holes are all empty ends the game.
        if self.row_empty(Side::South) || self.row_empty(Side::North) {
            self.finish(self.opts.sweep);
            ply.game_over = true;
            return ply;
        }

        // Cycle: a repeat of a position seen since the last ply that changed a store.
        let key = self.key();
        if (self.track[SOUTH_STORE], self.track[NORTH_STORE]) != stores_before {
            self.history.clear();
        } else if self.history.contains(&key) {
            self.finish(Sweep::Counted);
            ply.cycle = true;
            ply.game_over = true;
            return ply;
        }
        self.history.push(key);
        ply
    }

    pub fn observe(&self) -> Observed {
        let seeds = |side| row(side).map(|i| u32::from(self.track[i])).collect();
        Observed {
            south: seeds(Side::South),
            north: seeds(Side::North),
            captured: [
                u32::from(self.track[SOUTH_STORE]),
                u32::from(self.track[NORTH_STORE]),
            ],
            closed_south: vec![false; HOLES],
            closed_north: vec![false; HOLES],
            to_move: self.to_move(),
        }
    }

    pub fn to_move(&self) -> Option<Side> {
        if self.over { None } else { Some(self.to_move) }
    }

    /// The larger store wins; equal stores are a draw. None while the game goes on.
    pub fn result(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let (south, north) = (self.track[SOUTH_STORE], self.track[NORTH_STORE]);
        Some(if south > north {
            Outcome::Winner(Side::South)
        } else if north > south {
            Outcome::Winner(Side::North)
        } else {
            Outcome::Draw
        })
    }

    fn row_empty(&self, side: Side) -> bool {
        self.track[row(side)].iter().all(|&s| s == 0)
    }

    /// Ends the game; the seeds left in each row go to their owner's store (`Counted`) or are
    /// removed (`NotCounted`).
    fn finish(&mut self, sweep: Sweep) {
        for side in [Side::South, Side::North] {
            let mut left = 0;
            for pos in row(side) {
                left += self.track[pos];
                self.track[pos] = 0;
            }
            if sweep == Sweep::Counted {
                self.track[store_index(side)] += left;
            }
        }
        self.over = true;
    }

    /// The position for the cycle rule: track (board and stores) and the player to move.
    fn key(&self) -> u128 {
        let mut bytes = [0u8; 16];
        bytes[..TRACK].copy_from_slice(&self.track);
        bytes[TRACK] = self.to_move.index() as u8;
        u128::from_le_bytes(bytes)
    }
}

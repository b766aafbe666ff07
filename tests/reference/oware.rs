//! Oware, abapa rules (2×6, no stores on the track), written from the rule text alone.
//!
//! The board is one array in counter-clockwise (sowing) order: `s1..s6, n1..n6`, so sowing is
//! "index + 1, wrapping". Stores are kept beside it. Seed counts are `u8`: the whole game never
//! holds more than 255 seeds (checked on entry).

use super::{Observed, Outcome, Side};

/// Holes per row.
const HOLES: usize = 6;
/// Holes on the board.
const BOARD: usize = 2 * HOLES;
/// A store holding this many seeds ends the game.
const WINNING_STORE: u8 = 25;

/// The grand slam: a move whose capture would take every seed on the opponent's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GrandSlam {
    /// The move is legal, the sowing stands, but nothing is captured.
    CaptureNothing,
    /// The move is not legal (if that leaves no legal move, the no-move rule applies).
    Illegal,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Options {
    pub grand_slam: GrandSlam,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            grand_slam: GrandSlam::CaptureNothing,
        }
    }
}

/// What one ply did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Ply {
    /// Seeds taken by the capture rule in this ply, [South, North] (the end-of-game taking of
    /// the rows is not counted here).
    pub captured: [u32; 2],
    /// Always false: Oware has no extra turns.
    pub extra_turn: bool,
    /// The game ended because the position repeated.
    pub cycle: bool,
    /// The game is over after this ply.
    pub game_over: bool,
}

#[derive(Clone)]
pub struct Oware {
    opts: Options,
    /// `s1..s6, n1..n6` (counter-clockwise order).
    board: [u8; BOARD],
    /// [South, North].
    stores: [u8; 2],
    /// The player to move (meaningless once `over`).
    to_move: Side,
    over: bool,
    /// Positions since the last capture (or since the start), for the cycle rule. Cleared,
    /// never shrunk, so it stops allocating once warm.
    history: Vec<u128>,
}

/// Board index of `side`'s hole 1.
fn base(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => HOLES,
    }
}

/// The next hole counter-clockwise.
fn next(pos: usize) -> usize {
    if pos + 1 == BOARD { 0 } else { pos + 1 }
}

fn row_sum(board: &[u8; BOARD], side: Side) -> u8 {
    let b = base(side);
    board[b..b + HOLES].iter().sum()
}

/// A move worked out on a copy of the board, before the grand-slam rule is applied.
struct Sowing {
    /// The board after sowing (nothing removed yet).
    board: [u8; BOARD],
    /// The holes the 2-3 capture would take: `first..=last` (empty when `taken == 0`).
    first: usize,
    last: usize,
    /// Seeds in those holes.
    taken: u8,
    /// The capture would take every seed on the opponent's side.
    grand_slam: bool,
}

impl Oware {
    /// The opening position: 4 seeds in every hole, South to move.
    pub fn new(opts: Options) -> Self {
        Self::from_position(opts, &[4; HOLES], &[4; HOLES], [0, 0], Side::South)
    }

    /// An arbitrary position. The end rules are resolved at once, as after a ply: a store of
    /// 25 or more, or a player to move with no legal move, ends the game.
    pub fn from_position(
        opts: Options,
        south: &[u32],
        north: &[u32],
        stores: [u32; 2],
        to_move: Side,
    ) -> Self {
        assert_eq!(south.len(), HOLES, "Oware has {HOLES} holes per row");
        assert_eq!(north.len(), HOLES, "Oware has {HOLES} holes per row");
        let total: u32 = south.iter().chain(north).sum::<u32>() + stores[0] + stores[1];
        assert!(total <= u32::from(u8::MAX), "at most 255 seeds in all");
        let mut board = [0u8; BOARD];
        for i in 0..HOLES {
            board[base(Side::South) + i] = south[i] as u8;
            board[base(Side::North) + i] = north[i] as u8;
        }
        let mut game = Oware {
            opts,
            board,
            stores: [stores[0] as u8, stores[1] as u8],
            to_move,
            over: false,
            history: Vec::with_capacity(64),
        };
        if game.stores.iter().any(|&s| s >= WINNING_STORE) || !game.has_legal_move() {
            game.finish();
        } else {
            game.history.push(game.key());
        }
        game
    }

    /// Bit `h - 1` set when the player to move may play their hole `h`. 0 once the game is over.
    pub fn legal_mask(&self) -> u32 {
        if self.over {
            return 0;
        }
        let mover = self.to_move;
        let opponent_empty = row_sum(&self.board, mover.other()) == 0;
        let mut mask = 0;
        for i in 0..HOLES {
            if self.is_legal(mover, base(mover) + i, opponent_empty) {
                mask |= 1 << i;
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
        let origin = base(mover) + hole - 1;
        let opponent_empty = row_sum(&self.board, mover.other()) == 0;
        assert!(
            self.is_legal(mover, origin, opponent_empty),
            "illegal move: hole {hole}"
        );
        let mut ply = Ply::default();

        let sowing = self.sow(mover, origin);
        self.board = sowing.board;
        // Capture, unless it is a grand slam (only reachable here under `CaptureNothing`: the
        // sowing stands and nothing is captured).
        if sowing.taken > 0 && !sowing.grand_slam {
            self.board[sowing.first..=sowing.last].fill(0);
            self.stores[mover.index()] += sowing.taken;
            ply.captured[mover.index()] = u32::from(sowing.taken);
        }
        self.to_move = mover.other();

        // End: a store of 25 or more ends the game at once.
        if self.stores.iter().any(|&s| s >= WINNING_STORE) {
            self.finish();
            ply.game_over = true;
            return ply;
        }

        // Cycle: a repeat of a position seen since the last capture ends the game.
        let key = self.key();
        if ply.captured[mover.index()] > 0 {
            self.history.clear();
        } else if self.history.contains(&key) {
            self.finish();
            ply.cycle = true;
            ply.game_over = true;
            return ply;
        }
        self.history.push(key);

        // End: the player now to move has no legal move (empty row, or nothing feeds).
        if !self.has_legal_move() {
            self.finish();
            ply.game_over = true;
        }
        ply
    }

    pub fn observe(&self) -> Observed {
        let seeds = |side| {
            let b = base(side);
            self.board[b..b + HOLES]
                .iter()
                .map(|&s| u32::from(s))
                .collect()
        };
        Observed {
            south: seeds(Side::South),
            north: seeds(Side::North),
            captured: [u32::from(self.stores[0]), u32::from(self.stores[1])],
            closed_south: vec![false; HOLES],
            closed_north: vec![false; HOLES],
            to_move: self.to_move(),
        }
    }

    pub fn to_move(&self) -> Option<Side> {
        if self.over { None } else { Some(self.to_move) }
    }

    /// The larger store wins; equal stores (24-24) are a draw. None while the game goes on.
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

    /// Whether `mover` may play the hole at board index `origin`.
    fn is_legal(&self, mover: Side, origin: usize, opponent_empty: bool) -> bool {
        let seeds = self.board[origin];
        if seeds == 0 {
            return false;
        }
        // Feeding: with the opponent's row empty, the move must leave seeds in it. It does
        // exactly when the sowing reaches that row (6 - i seeds from own hole index i); the
        // capture can never empty it again, since that would be a grand slam.
        if opponent_empty && usize::from(seeds) < HOLES - (origin - base(mover)) {
            return false;
        }
        // Grand slam, `Illegal` reading: a move that would capture every opposing seed.
        if self.opts.grand_slam == GrandSlam::Illegal && self.sow(mover, origin).grand_slam {
            return false;
        }
        true
    }

    fn has_legal_move(&self) -> bool {
        let mover = self.to_move;
        let opponent_empty = row_sum(&self.board, mover.other()) == 0;
        (0..HOLES).any(|i| self.is_legal(mover, base(mover) + i, opponent_empty))
    }

    /// Sows the hole at `origin` on a copy of the board and finds the capture it would make.
    fn sow(&self, mover: Side, origin: usize) -> Sowing {
        let mut board = self.board;
        // Sowing: lift the hole, one seed per hole counter-clockwise starting in the next hole,
        // skipping the origin hole whenever the sowing comes round to it (12+ seeds).
        let seeds = board[origin];
        board[origin] = 0;
        let mut pos = origin;
        for _ in 0..seeds {
            pos = next(pos);
            if pos == origin {
                pos = next(pos);
            }
            board[pos] += 1;
        }
        // Capture: the last hole, if on the opponent's side with exactly 2 or 3, then each
        // hole before it (clockwise) while on the opponent's side and holding 2 or 3.
        let last = pos;
        let opponent_first = base(mover.other());
        let mut first = last + 1;
        let mut taken = 0;
        if (opponent_first..opponent_first + HOLES).contains(&last) {
            let mut q = last;
            while matches!(board[q], 2 | 3) {
                taken += board[q];
                first = q;
                if q == opponent_first {
                    break; // the opponent's row ends here
                }
                q -= 1;
            }
        }
        let grand_slam = taken > 0 && taken == row_sum(&board, mover.other());
        Sowing {
            board,
            first,
            last,
            taken,
            grand_slam,
        }
    }

    /// Ends the game: each player takes the seeds in their own row into their store.
    fn finish(&mut self) {
        for side in [Side::South, Side::North] {
            self.stores[side.index()] += row_sum(&self.board, side);
        }
        self.board = [0; BOARD];
        self.over = true;
    }

    /// The position for the cycle rule: board, stores and the player to move.
    fn key(&self) -> u128 {
        let mut bytes = [0u8; 16];
        bytes[..BOARD].copy_from_slice(&self.board);
        bytes[BOARD] = self.stores[0];
        bytes[BOARD + 1] = self.stores[1];
        bytes[BOARD + 2] = self.to_move.index() as u8;
        u128::from_le_bytes(bytes)
    }
}

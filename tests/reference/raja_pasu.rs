//! Raja Pasu (clauses RP-1..RP-12 of SEED-RULES.md), hand-written from the rule text.
//!
//! Board layout: index 0..7 are South's holes s1..s7, index 7..14 are North's holes n1..n7.
//! Counter-clockwise sowing is simply `index + 1 (mod 14)`: s1 → … → s7 → n1 → … → n7 → s1.
//! The model plays a whole match (RP-10..RP-12): `result()` is `Some` once the match is over.
//!
//! Besides RP-12, a match also ends when a round would start from a state already seen at the
//! start of an earlier round of the match (the first round's included): RP-O11 applied to round
//! starts, since no clause bounds the number of rounds and such a match would go on forever.

use super::{Observed, Outcome, Side};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// Holes per row (RP-1).
const N: usize = 7;
/// Holes on the board.
const H: usize = 2 * N;
/// Seeds per hole at the start and at each refill (RP-2, RP-10).
const FILL: u32 = 7;

/// RP-O3: who takes a four made by the **last** seed of a lap.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum LastFour {
    /// The owner of the row, like any other four (default).
    #[default]
    Owner,
    /// The player who is sowing.
    Sower,
    /// Nobody: the four stays on the board.
    None,
}

/// RP-O2 (and SQ-O3 in the other model): which hole sowing jumps over.
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

/// RP-O6: how closed holes behave.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Closed {
    /// Not on the track at all, for every purpose (default).
    #[default]
    Absent,
    /// Never sown into nor played, but an empty hole when RP-4/5/6 look at the next hole.
    Empty,
}

/// RP-O7: refill order of RP-10.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Refill {
    /// Fill from the player's rightmost hole; closed holes end up at the left end (default).
    #[default]
    Right,
    /// Fill from the player's leftmost hole.
    Left,
    /// From both ends towards the middle, leftmost first: holes 1, 7, 2, 6, 3, 5, 4.
    OutsideIn,
}

/// One field per open point of SEED-RULES.md (RP-O1, RP-O4, RP-O8 and RP-O10 have a single
/// reading in this project and are not options).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Options {
    /// RP-O3.
    pub last_four: LastFour,
    /// RP-O2.
    pub origin_skip: OriginSkip,
    /// RP-O5: necklace of RP-6 captures.
    pub chain: bool,
    /// RP-O6.
    pub closed: Closed,
    /// RP-O7.
    pub refill_from: Refill,
    /// RP-O9: who starts round 1.
    pub first: Side,
    /// RP-O11: a repeated position ends the round (the default); `false`: play goes on.
    pub cycle: bool,
    /// RP-O12: a round ends as soon as a single seed is left on the board.
    pub one_left: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            last_four: LastFour::Owner,
            origin_skip: OriginSkip::Never,
            chain: false,
            closed: Closed::Absent,
            refill_from: Refill::Right,
            first: Side::South,
            cycle: true,
            one_left: false,
        }
    }
}

/// What one call to `play` did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Ply {
    /// Seeds captured during this move (RP-6 and RP-7) by [South, North]. The seeds shared out
    /// when a round ends (RP-8, RP-O10, RP-O11) are not counted here; they show in the reserves.
    pub captured: [u32; 2],
    /// Laps sown by the move (for an endless move: the lap whose end repeated an earlier one).
    pub laps: u32,
    /// The move was endless (RP-O10) and ended the round.
    pub endless: bool,
    /// The position after this ply repeated an earlier one of the round (RP-O11).
    pub cycle: bool,
    /// This ply, or the no-move check (RP-8) right after it, ended a round.
    pub round_over: bool,
}

/// One lap of a move, as reported by `play_traced`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Lap {
    /// The hole lifted (side, hole number 1..7 from that side's left).
    pub lifted: (Side, usize),
    /// Seeds sown in the lap.
    pub seeds: u32,
    /// The hole that received the lap's last seed.
    pub last: (Side, usize),
}

/// A position of the round, for RP-O11. Reserves are left out on purpose: any capture changes
/// them, and the history is cleared on every capture, so they are equal across the history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct PosKey {
    board: [u32; H],
    closed: u16,
    to_move: Side,
}

/// The lap-end states of the move being played (RP-O10): (board, hole to lift next) → lap.
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

/// How a round ended.
enum RoundEnd {
    /// RP-8: this player takes every seed on the board and starts the next round (RP-11).
    Remainder(Side),
    /// RP-O10 / RP-O11: each player takes their own row; this player starts the next round.
    Shared(Side),
}

#[derive(Clone, Debug)]
pub struct RajaPasu {
    opts: Options,
    board: [u32; H],
    closed: [bool; H],
    reserve: [u32; 2],
    /// None once the match is over.
    to_move: Option<Side>,
    result: Option<Outcome>,
    /// Round number, 1-based.
    round: u32,
    /// RP-O11: positions of the current round since the last capture.
    history: Vec<PosKey>,
    /// The state at the start of every round of the match so far.
    /// RP-O10: scratch buffer of the lap-end states of the move being played.
    laps: LapMemory,
    /// RP-O10: (earlier lap, repeating lap) of the last endless move.
    last_repeat: Option<(u32, u32)>,
}

fn owner(hole: usize) -> Side {
    if hole < N { Side::South } else { Side::North }
}

/// (side, hole number 1..7) of board index `i`.
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

impl RajaPasu {
    /// Round 1 of a match: 7 seeds in every hole (RP-2), `opts.first` to move (RP-O9).
    pub fn new(opts: Options) -> Self {
        let mut game = Self::blank(opts, [FILL; H], Some(opts.first));
        game.start_round_history();
        game
    }

    /// A set-up position with empty reserves and no closed holes.
    pub fn from_position(opts: Options, south: &[u32], north: &[u32], to_move: Side) -> Self {
        let open = [false; N];
        Self::from_setup(opts, south, north, &open, &open, [0, 0], to_move)
    }

    /// A set-up position mid-round, with closed holes (which must be empty) and reserves.
    pub fn from_setup(
        opts: Options,
        south: &[u32],
        north: &[u32],
        closed_south: &[bool],
        closed_north: &[bool],
        reserves: [u32; 2],
        to_move: Side,
    ) -> Self {
        assert_eq!(south.len(), N, "south row must have {N} holes");
        assert_eq!(north.len(), N, "north row must have {N} holes");
        assert_eq!(closed_south.len(), N, "south row must have {N} holes");
        assert_eq!(closed_north.len(), N, "north row must have {N} holes");
        let mut board = [0; H];
        board[..N].copy_from_slice(south);
        board[N..].copy_from_slice(north);
        let mut game = Self::blank(opts, board, Some(to_move));
        game.closed[..N].copy_from_slice(closed_south);
        game.closed[N..].copy_from_slice(closed_north);
        assert!(
            (0..H).all(|i| !game.closed[i] || game.board[i] == 0),
            "a closed hole must be empty"
        );
        game.reserve = reserves;
        game.start_round_history();
        // RP-8 at the start of the first turn.
        if game.legal_mask() == 0 {
            game.end_round(RoundEnd::Remainder(to_move.other()));
        }
        game
    }

    fn blank(opts: Options, board: [u32; H], to_move: Option<Side>) -> Self {
        RajaPasu {
            opts,
            board,
            closed: [false; H],
            reserve: [0; 2],
            to_move,
            result: None,
            round: 1,
            history: Vec::with_capacity(64),
            laps: LapMemory::default(),
            last_repeat: None,
        }
    }

    /// Bit h-1 set: the player to move may play their hole h (RP-3; closed holes never, RP-10).
    pub fn legal_mask(&self) -> u32 {
        let Some(side) = self.to_move else { return 0 };
        self.mask_of(side)
    }

    fn mask_of(&self, side: Side) -> u32 {
        let base = side.index() * N;
        let mut mask = 0;
        for h in 0..N {
            let i = base + h;
            if !self.closed[i] && self.board[i] > 0 {
                mask |= 1 << h;
            }
        }
        mask
    }

    pub fn to_move(&self) -> Option<Side> {
        self.to_move
    }

    pub fn result(&self) -> Option<Outcome> {
        self.result
    }

    /// The current round, 1-based.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// For the last endless move (RP-O10): (the earlier lap, the lap whose end repeated it).
    pub fn last_repeat(&self) -> Option<(u32, u32)> {
        self.last_repeat
    }

    pub fn observe(&self) -> Observed {
        Observed {
            south: self.board[..N].to_vec(),
            north: self.board[N..].to_vec(),
            captured: self.reserve,
            closed_south: self.closed[..N].to_vec(),
            closed_north: self.closed[N..].to_vec(),
            to_move: self.to_move,
        }
    }

    /// The hole after `i` on the track for sowing: closed holes are always skipped, and so is
    /// `skip` (RP-O2).
    fn next_sow(&self, mut i: usize, skip: usize) -> usize {
        loop {
            i = if i + 1 == H { 0 } else { i + 1 };
            if !self.closed[i] && i != skip {
                return i;
            }
        }
    }

    /// The "next hole" of RP-4/RP-5/RP-6. RP-O6 Absent: closed holes are not on the track;
    /// Empty: the physical next hole (a closed hole always holds 0 seeds, so it reads as empty).
    fn next_look(&self, mut i: usize) -> usize {
        loop {
            i = if i + 1 == H { 0 } else { i + 1 };
            if self.opts.closed == Closed::Empty || !self.closed[i] {
                return i;
            }
        }
    }

    /// Play hole `hole` (1..=7 from the mover's own left). Panics if the move is illegal.
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
        let side = self.to_move.expect("the match is over");
        assert!(
            (1..=N).contains(&hole) && self.legal_mask() & (1 << (hole - 1)) != 0,
            "illegal move: hole {hole} for {side:?}"
        );
        let origin = index_of(side, hole);
        let mut ply = Ply::default();
        self.last_repeat = None;
        self.laps.clear();

        // RP-3: lift the origin.
        let mut lift = origin;
        let mut last;
        loop {
            ply.laps += 1;
            let lifted = self.board[lift];
            let mut seeds = lifted;
            self.board[lift] = 0;
            let skip = match self.opts.origin_skip {
                OriginSkip::Never => usize::MAX,
                OriginSkip::Move => origin,
                OriginSkip::Lap => lift,
            };
            // RP-O1: the first seed goes into the hole after the lifted one.
            let mut i = lift;
            while seeds > 0 {
                i = self.next_sow(i, skip);
                self.board[i] += 1;
                seeds -= 1;
                // RP-7: a four is captured at once; RP-O3 for the lap's last seed.
                if self.board[i] == 4 {
                    let taker = if seeds > 0 {
                        Some(owner(i))
                    } else {
                        match self.opts.last_four {
                            LastFour::Owner => Some(owner(i)),
                            LastFour::Sower => Some(side),
                            LastFour::None => None,
                        }
                    };
                    if let Some(t) = taker {
                        self.take(i, t, &mut ply);
                    }
                }
            }
            last = i;
            if let Some(t) = trace.as_deref_mut() {
                t.push(Lap {
                    lifted: hole_of(lift),
                    seeds: lifted,
                    last: hole_of(last),
                });
            }
            // RP-4: relay from the next hole if it holds seeds.
            let next = self.next_look(last);
            if self.board[next] == 0 {
                break;
            }
            // RP-O10: the lap-end state is (board, reserves, next hole to lift). Reserves are
            // left out: they only grow, and any capture lowers the board total, so equal boards
            // imply equal reserves.
            if let Some(earlier) = self.laps.repeat_or_insert(&self.board, next, ply.laps) {
                self.last_repeat = Some((earlier, ply.laps));
                ply.endless = true;
                ply.round_over = true;
                self.end_round(RoundEnd::Shared(side.other()));
                return ply;
            }
            lift = next;
        }

        // RP-5: the sowing ends at an empty next hole; RP-6: capture the hole beyond it.
        let gap = self.next_look(last);
        let mut beyond = self.next_look(gap);
        while self.board[beyond] > 0 {
            self.take(beyond, side, &mut ply);
            // RP-O5: necklace — continue while an empty hole is followed by an occupied one.
            if !self.opts.chain {
                break;
            }
            let gap = self.next_look(beyond);
            if self.board[gap] != 0 {
                break;
            }
            beyond = self.next_look(gap);
        }
        // RP-O4: the turn ends here.
        self.after_ply(side, &mut ply);
        ply
    }

    /// Move the contents of hole `i` into `taker`'s reserve.
    fn take(&mut self, i: usize, taker: Side, ply: &mut Ply) {
        let n = self.board[i];
        self.board[i] = 0;
        self.reserve[taker.index()] += n;
        ply.captured[taker.index()] += n;
        // Reserves changed: no earlier position of the round (RP-O11) nor lap-end state of the
        // move (RP-O10) can come back. (Clearing is only a speed-up: the board total fell.)
        self.history.clear();
        self.laps.clear();
    }

    /// Turn change, RP-O12 one-seed check, RP-8 no-move check, RP-O11 cycle check.
    fn after_ply(&mut self, mover: Side, ply: &mut Ply) {
        let next = mover.other();
        self.to_move = Some(next);
        // RP-O12: one seed left; each player takes their own row, and the player who would
        // have moved next starts the next round.
        if self.opts.one_left && self.board.iter().sum::<u32>() == 1 {
            ply.round_over = true;
            self.end_round(RoundEnd::Shared(next));
            return;
        }
        // RP-8: the next player cannot move; the mover takes the remainder.
        if self.mask_of(next) == 0 {
            ply.round_over = true;
            self.end_round(RoundEnd::Remainder(mover));
            return;
        }
        // RP-O11: a repeated position of the round.
        if !self.opts.cycle {
            return;
        }
        let key = self.key();
        if self.history.contains(&key) {
            ply.cycle = true;
            ply.round_over = true;
            self.end_round(RoundEnd::Shared(next));
            return;
        }
        self.history.push(key);
    }

    fn key(&self) -> PosKey {
        let mut closed = 0u16;
        for (i, &c) in self.closed.iter().enumerate() {
            if c {
                closed |= 1 << i;
            }
        }
        PosKey {
            board: self.board,
            closed,
            to_move: self.to_move.expect("key of a finished match"),
        }
    }

    fn start_round_history(&mut self) {
        self.history.clear();
        if self.to_move.is_some() {
            let key = self.key();
            self.history.push(key);
        }
    }

    /// End the round (RP-8, RP-O10, RP-O11), then RP-9/RP-12 match end or RP-10 refill, and
    /// the match end on a repeated round start.
    fn end_round(&mut self, how: RoundEnd) {
        let starter = match how {
            RoundEnd::Remainder(taker) => {
                let all: u32 = self.board.iter().sum();
                self.reserve[taker.index()] += all;
                taker
            }
            RoundEnd::Shared(next) => {
                self.reserve[0] += self.board[..N].iter().sum::<u32>();
                self.reserve[1] += self.board[N..].iter().sum::<u32>();
                next
            }
        };
        // Every seed has left the board.
        self.board = [0; H];
        // RP-9: the player holding more seeds at the end of the round.
        let leader = match self.reserve[0].cmp(&self.reserve[1]) {
            std::cmp::Ordering::Greater => Outcome::Winner(Side::South),
            std::cmp::Ordering::Less => Outcome::Winner(Side::North),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        // RP-12: a player who cannot open even one hole ends the match. No refill follows, so
        // the closed holes stay closed.
        if self.reserve[0] < FILL || self.reserve[1] < FILL {
            self.finish_match(leader);
            return;
        }
        // RP-10: every hole is reopened.
        self.closed = [false; H];
        // RP-10 / RP-O7 / RP-O8: fill 7 per hole while the reserve lasts; the rest are closed.
        for side in [Side::South, Side::North] {
            for k in 0..N {
                let h = match self.opts.refill_from {
                    Refill::Right => N - k,
                    Refill::Left => k + 1,
                    Refill::OutsideIn if k % 2 == 0 => k / 2 + 1,
                    Refill::OutsideIn => N - k / 2,
                };
                let i = index_of(side, h);
                if self.reserve[side.index()] >= FILL {
                    self.reserve[side.index()] -= FILL;
                    self.board[i] = FILL;
                } else {
                    self.closed[i] = true;
                }
            }
        }
        // RP-11: the next round's starter (always has a filled hole, so can move).
        self.round += 1;
        self.to_move = Some(starter);
        // The match goes on until RP-12 ends it: a round start seen before does not end it,
        // as the players choose their moves.
        let _ = leader;
        self.start_round_history();
    }

    fn finish_match(&mut self, outcome: Outcome) {
        self.to_move = None;
        self.history.clear();
        self.result = Some(outcome);
    }
}

//! Selus (clauses SL-1..SL-14 and open points SL-O1..SL-O11 of docs/rules/selus.md), written
//! from the rule text alone.
//!
//! The board is one array along the circuit of SL-2: `s1..s9, n1..n9` (each player's holes in
//! their own numbering, SL-1), so the next hole is "index + 1, wrapping", the same for both
//! players. Where the holes lie on the three rows (SL-1) matters to no rule but SL-O8, which
//! only needs the numbers: a player's outer row is their holes 1 to 6.
//!
//! A nedf (SL-8, SL-9) is kept as a bit in its maker's mask of board indices (a player may
//! hold several under SL-O3's third reading): its counters, the four it held when it was made
//! and every counter that falls into it later (SL-11), are counted at once in the maker's
//! reserve (SL-O5), and the hole itself holds 0 here. A nedf never holds exactly three (it is
//! made with four and only gains), so neither SL-6, SL-9's "holds exactly three" nor SL-10's
//! guardian test can ever apply to one, and holding 0 here changes nothing: it is never a legal
//! start (SL-11), and a counter falling into it is no drop into an occupied hole (SL-7). Seed
//! counts are `u8`: the game holds 54 counters (SL-3).
//!
//! The legal moves are a mask with one bit a hole: bit `h - 1` starts a move from the mover's
//! hole `h`, so that the set bits, lowest first, list the moves in hole order.

use std::collections::HashSet;

use super::{Observed, Outcome, Side};

/// Holes per player (SL-1).
const HOLES: usize = 9;
/// Holes on the circuit (SL-2).
const BOARD: usize = 2 * HOLES;
/// Counters per hole at the start (SL-3).
const START: u8 = 3;
/// The count that is passed over (SL-6), makes a nedf (SL-8, SL-9) and guards one (SL-10).
const THREE: u8 = 3;
/// The holes of a player's outer row, 1 to `OUTER` (SL-1, SL-O8).
const OUTER: usize = 6;

/// SL-O3: how many nedfs there may be.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum NedfLimit {
    /// At most one per player: the first of the game by SL-8, the other player's by SL-9
    /// (default).
    #[default]
    PerPlayer,
    /// One on the board: SL-8 makes it, and since it lasts SL-9 never applies.
    One,
    /// Any number ("any others"): the first of the game by SL-8, every later one by SL-9, by
    /// either player, whatever nedfs they hold already.
    Any,
}

/// SL-O4: the rule of twos of SL-12.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TwosRule {
    /// SL-12 as written: (a) a hole of more than three; (b) of the occupied holes 4 to 9, the
    /// highest-numbered two when they all hold two or three and one holds two, else any; (c) of
    /// holes 1 to 3, those of one, else of two, else of three (default).
    #[default]
    Text,
    /// The Ludii code: (1) a hole of more than three; (2) when each of holes 1 to 3 holds two or
    /// three, any hole of two; (3) any occupied hole 4 to 9; (4..6) of holes 1 to 3, those of
    /// one, else of two, else of three. The first class that is not empty is the legal set.
    Code,
}

/// SL-O6: whether the guardian of SL-10 applies.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Guardian {
    /// As the text says (default).
    #[default]
    Yes,
    /// No guardian (the Ludii code).
    No,
}

/// SL-O8: where a nedf may be made.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum NedfWhere {
    /// Any of the opponent's nine holes (default).
    #[default]
    Any,
    /// Only the opponent's outer row, their holes 1 to 6.
    OuterRow,
}

/// SL-O9: who wins when the player to move cannot move (SL-13).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Scoring {
    /// Each player counts their own holes and their nedfs; the most counters win, equal counts
    /// draw (default).
    #[default]
    Count,
    /// The player left without a move loses.
    BlockedLoses,
}

/// One field per open point of docs/rules/selus.md that has more than one reading (SL-O1,
/// SL-O2, SL-O5, SL-O7, SL-O10 and SL-O11 have a single one).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Options {
    /// SL-O3.
    pub nedf_limit: NedfLimit,
    /// SL-O4.
    pub twos_rule: TwosRule,
    /// SL-O6.
    pub guardian: Guardian,
    /// SL-O8.
    pub nedf_where: NedfWhere,
    /// SL-O9.
    pub scoring: Scoring,
}

/// What one ply did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Ply {
    /// Laps sown (for an endless move: up to the lap whose end repeated an earlier one).
    pub laps: u32,
    /// Counters passed over an opponent's hole of three (SL-6), each hole passed counted once.
    pub passed: u32,
    /// The move made the first nedf (SL-8).
    pub first_nedf: bool,
    /// Later nedfs the move made (SL-9): more than one only under `NedfLimit::Any`, where the
    /// lap lifted from the second hole of a pair may make another.
    pub later_nedfs: u32,
    /// Nedfs the move made in the opponent's middle holes, 7 to 9 in their numbering (SL-O8).
    pub inner_nedfs: u32,
    /// Counters that fell into a nedf (SL-11).
    pub fed: u32,
    /// Drops that would have made a nedf but for the guardian (SL-10).
    pub guarded: u32,
    /// The move's laps would never end (SL-O11): the game ended.
    pub endless: bool,
    /// The game ended because the position came back (SL-O11).
    pub cycle: bool,
    /// The game is over after this ply.
    pub game_over: bool,
}

/// Which clause would make a nedf.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum By {
    /// SL-8: the last counter of a lap, while no nedf exists.
    First,
    /// SL-9: the last two counters of a lap, once one exists.
    Later,
}

/// How a lap ended (SL-7, SL-8, SL-9).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum LapEnd {
    /// The last counter fell into an empty hole or into a nedf, or made the first nedf: the
    /// move ends.
    Stop,
    /// The last counter made this hole occupied (SL-7), or it is the second hole of SL-9:
    /// it is lifted and sown on.
    Relay(usize),
}

/// How the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    /// SL-13: the player to move has no move.
    Blocked,
    /// SL-O11: a move's laps would never end.
    Endless,
    /// SL-O11: the position came back.
    Cycle,
}

#[derive(Clone, Debug)]
pub struct Selus {
    opts: Options,
    /// `s1..s9, n1..n9` (the circuit's order); a nedf holds 0 (see the module's comment).
    board: [u8; BOARD],
    /// Each player's nedfs, a bit a board index (`1 << i`), [South, North].
    nedf: [u32; 2],
    /// The counters of each player's nedfs, [South, North]; at the end, their own holes too.
    reserve: [u32; 2],
    /// The player to move (once the game is over: the one who was to move when it ended).
    to_move: Side,
    /// The legal moves of the player to move (see the module's comment); 0 once over.
    legal: u16,
    over: Option<End>,
    /// Positions since the last change of a reserve (or since the start), for SL-O11: a
    /// reserve never shrinks and only grows as the board's total falls, so no earlier
    /// position can come back after one. Cleared, never shrunk.
    history: HashSet<u128>,
    /// The lap-end states of the move being played (board, hole to lift next), for SL-O11.
    laps: HashSet<u128>,
}

/// Board index of `side`'s hole `hole` (1..=9 in that player's numbering).
fn index(side: Side, hole: usize) -> usize {
    match side {
        Side::South => hole - 1,
        Side::North => HOLES + hole - 1,
    }
}

/// The owner of board index `i` (SL-1).
fn owner(i: usize) -> Side {
    if i < HOLES { Side::South } else { Side::North }
}

/// The number of board index `i` in its owner's numbering (1..=9).
fn number(i: usize) -> usize {
    i % HOLES + 1
}

/// The next hole along the circuit (SL-2).
fn next(i: usize) -> usize {
    if i + 1 == BOARD { 0 } else { i + 1 }
}

/// A hole as the notation names it: `s3`, `n7`.
pub fn name(i: usize) -> String {
    let row = match owner(i) {
        Side::South => 's',
        Side::North => 'n',
    };
    format!("{row}{}", number(i))
}

/// The board as a key: six bits a hole (54 counters at most), in circuit order.
fn board_key(board: &[u8; BOARD]) -> u128 {
    board
        .iter()
        .fold(0u128, |key, &seeds| key << 6 | u128::from(seeds))
}

impl Selus {
    /// The opening position: 3 counters in every hole (SL-3), no nedf, South to move (SL-O1).
    pub fn new(opts: Options) -> Self {
        let mut game = Selus {
            opts,
            board: [START; BOARD],
            nedf: [0, 0],
            reserve: [0, 0],
            to_move: Side::South,
            legal: 0,
            over: None,
            history: HashSet::with_capacity(256),
            laps: HashSet::with_capacity(64),
        };
        game.legal = game.moves_of(Side::South);
        if game.legal == 0 {
            game.finish(End::Blocked);
        } else {
            game.history.insert(game.key());
        }
        game
    }

    /// The legal moves of the player to move, a bit a hole (see the module's comment). 0 once
    /// the game is over.
    pub fn legal_mask(&self) -> u16 {
        self.legal
    }

    /// The legal moves in order: the mover's hole numbers, lowest first.
    pub fn legal_moves(&self) -> Vec<usize> {
        (1..=HOLES)
            .filter(|&h| self.legal & (1 << (h - 1)) != 0)
            .collect()
    }

    /// The maker of the nedf at board index `i`, if it is one.
    fn maker(&self, i: usize) -> Option<Side> {
        [Side::South, Side::North]
            .into_iter()
            .find(|s| self.nedf[s.index()] & 1 << i != 0)
    }

    /// The board indices of `side`'s nedfs, in circuit order.
    fn nedfs_of(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        let mask = self.nedf[side.index()];
        (0..BOARD).filter(move |&i| mask & 1 << i != 0)
    }

    /// How many nedfs `side` has made.
    pub fn nedf_count(&self, side: Side) -> u32 {
        self.nedf[side.index()].count_ones()
    }

    /// SL-12 and SL-O4: `side`'s moves. A nedf holds 0 here, so it is never among them, and
    /// counts as empty wherever a clause looks at counts (SL-11).
    fn moves_of(&self, side: Side) -> u16 {
        let seeds = |h: usize| self.board[index(side, h)];
        let holes = |range: std::ops::RangeInclusive<usize>, keep: &dyn Fn(u8) -> bool| -> u16 {
            range
                .filter(|&h| keep(seeds(h)))
                .fold(0, |mask, h| mask | 1 << (h - 1))
        };
        // SL-12 (a) and the code's (1): a hole of more than three.
        let big = holes(1..=HOLES, &|s| s > THREE);
        if big != 0 {
            return big;
        }
        // From here on every hole holds three or fewer.
        match self.opts.twos_rule {
            TwosRule::Text => {
                // SL-12 (b): the occupied holes 4 to 9.
                let upper = holes(4..=HOLES, &|s| s > 0);
                if upper != 0 {
                    let twos = holes(4..=HOLES, &|s| s == 2);
                    let ones = holes(4..=HOLES, &|s| s == 1);
                    if ones == 0 && twos != 0 {
                        // The highest-numbered two: the nearest the opponent along the circuit.
                        return 1 << (15 - twos.leading_zeros());
                    }
                    return upper;
                }
            }
            TwosRule::Code => {
                // (2): each of holes 1 to 3 holds two or three (an empty one fails): any two.
                if (1..=3).all(|h| seeds(h) == 2 || seeds(h) == THREE) {
                    let twos = holes(1..=HOLES, &|s| s == 2);
                    if twos != 0 {
                        return twos;
                    }
                }
                // (3): any occupied hole 4 to 9.
                let upper = holes(4..=HOLES, &|s| s > 0);
                if upper != 0 {
                    return upper;
                }
            }
        }
        // SL-12 (c), the code's (4..6): holes 1 to 3, one first, then two, then three.
        for want in 1..=THREE {
            let mask = holes(1..=3, &|s| s == want);
            if mask != 0 {
                return mask;
            }
        }
        0
    }

    /// SL-O3 and SL-O8: whether `mover` may make a nedf at board index `hole` by clause `by`,
    /// the guardian (SL-10) aside. `hole` is an opponent's hole.
    fn may_mark(&self, mover: Side, hole: usize, by: By) -> bool {
        if self.opts.nedf_where == NedfWhere::OuterRow && number(hole) > OUTER {
            return false;
        }
        let mine = self.nedf[mover.index()];
        let theirs = self.nedf[mover.other().index()];
        let exists = mine | theirs != 0;
        match (by, self.opts.nedf_limit) {
            // SL-8: while no nedf exists on the board.
            (By::First, _) => !exists,
            // SL-9 under SL-O3's default: the other player's, once the first exists (the
            // first is necessarily the other player's then).
            (By::Later, NedfLimit::PerPlayer) => exists && mine == 0,
            // The first nedf lasts and is the only one.
            (By::Later, NedfLimit::One) => false,
            // "any others": once one exists, by either player, however many they hold.
            (By::Later, NedfLimit::Any) => exists,
        }
    }

    /// SL-10 and SL-O6: whether the guardian of one of the other player's nedfs, the hole
    /// after it, holds exactly three, which bars `mover` from making a nedf.
    fn guarded(&self, mover: Side) -> bool {
        self.opts.guardian == Guardian::Yes
            && self
                .nedfs_of(mover.other())
                .any(|n| self.board[next(n)] == THREE)
    }

    /// Makes board index `hole`, which has just received its fourth counter, `mover`'s nedf:
    /// its counters go to the maker (SL-O5).
    fn mark(&mut self, mover: Side, hole: usize, ply: &mut Ply) {
        self.reserve[mover.index()] += u32::from(self.board[hole]);
        self.board[hole] = 0;
        self.nedf[mover.index()] |= 1 << hole;
        ply.inner_nedfs += u32::from(number(hole) > OUTER);
    }

    /// SL-5..SL-11: lifts `lift` and sows its counters one by one along the circuit for
    /// `mover`, starting in the next hole. `lift` must hold counters.
    fn lap(&mut self, mover: Side, lift: usize, ply: &mut Ply) -> LapEnd {
        let mut hand = self.board[lift];
        self.board[lift] = 0;
        let mut at = lift;
        while hand > 0 {
            at = next(at);
            // SL-11: a counter falling into a nedf stays there (its maker's); SL-7: the last
            // one ends the move.
            if let Some(maker) = self.maker(at) {
                self.reserve[maker.index()] += 1;
                ply.fed += 1;
                hand -= 1;
                if hand == 0 {
                    return LapEnd::Stop;
                }
                continue;
            }
            if owner(at) != mover && self.board[at] == THREE {
                // SL-8: the last counter makes the first nedf, and the move ends.
                if hand == 1 && self.may_mark(mover, at, By::First) {
                    if self.guarded(mover) {
                        ply.guarded += 1;
                    } else {
                        self.board[at] += 1;
                        self.mark(mover, at, ply);
                        ply.first_nedf = true;
                        return LapEnd::Stop;
                    }
                }
                // SL-9: the last two counters, into this hole of three and the next hole of
                // three; the first becomes a nedf, the second is lifted and sown on. The second
                // counter is dropped here, not by the loop: it is "neither passed over" and
                // makes no nedf of its own (SL-8 is for a lap's last counter while no nedf
                // exists, and one has just been made).
                if hand == 2 && self.may_mark(mover, at, By::Later) && self.board[next(at)] == THREE
                {
                    if self.guarded(mover) {
                        ply.guarded += 1;
                    } else {
                        self.board[at] += 1;
                        self.mark(mover, at, ply);
                        let second = next(at);
                        self.board[second] += 1;
                        ply.later_nedfs += 1;
                        return LapEnd::Relay(second);
                    }
                }
                // SL-6: passed over; the counter goes on to the following hole.
                ply.passed += 1;
                continue;
            }
            self.board[at] += 1;
            hand -= 1;
        }
        // SL-7: the last counter fell into a hole (not a nedf): a relay if it was occupied.
        if self.board[at] > 1 {
            LapEnd::Relay(at)
        } else {
            LapEnd::Stop
        }
    }

    /// Plays the move from the mover's hole `hole` (1..=9). Panics if the game is over or the
    /// move is illegal.
    pub fn play(&mut self, hole: usize) -> Ply {
        assert!(self.over.is_none(), "the game is over");
        assert!(
            (1..=HOLES).contains(&hole) && self.legal & (1 << (hole - 1)) != 0,
            "illegal move: hole {hole}"
        );
        let mover = self.to_move;
        let mut ply = Ply::default();
        let reserves = self.reserve;

        // SL-5, SL-7: laps until one ends in an empty hole or a nedf.
        self.laps.clear();
        let mut lift = index(mover, hole);
        loop {
            ply.laps += 1;
            match self.lap(mover, lift, &mut ply) {
                LapEnd::Stop => break,
                LapEnd::Relay(at) => {
                    // SL-O11: a lap-end state (board, hole to lift) seen before in this move
                    // comes back forever. Nedfs and reserves are left out: they change only as
                    // the board's total falls, so equal boards imply equal ones.
                    let key = board_key(&self.board) << 5 | at as u128;
                    if !self.laps.insert(key) {
                        self.finish(End::Endless);
                        ply.endless = true;
                        ply.game_over = true;
                        return ply;
                    }
                    lift = at;
                }
            }
        }
        if self.reserve != reserves {
            self.history.clear();
        }

        // SL-O1: turns alternate.
        let next = mover.other();
        self.to_move = next;

        // SL-13: the player to move cannot move.
        self.legal = self.moves_of(next);
        if self.legal == 0 {
            self.finish(End::Blocked);
            ply.game_over = true;
            return ply;
        }

        // SL-O11: a position that comes back ends the game.
        if !self.history.insert(self.key()) {
            self.finish(End::Cycle);
            ply.cycle = true;
            ply.game_over = true;
        }
        ply
    }

    pub fn observe(&self) -> Observed {
        Observed {
            south: self.board[..HOLES].iter().map(|&s| u32::from(s)).collect(),
            north: self.board[HOLES..].iter().map(|&s| u32::from(s)).collect(),
            captured: self.reserve,
            closed_south: vec![false; HOLES],
            closed_north: vec![false; HOLES],
            to_move: self.to_move(),
        }
    }

    /// Each player's nedfs as the notation names the holes (`n4`), in circuit order,
    /// [South, North].
    pub fn nedfs(&self) -> [Vec<String>; 2] {
        [Side::South, Side::North].map(|s| self.nedfs_of(s).map(name).collect())
    }

    pub fn to_move(&self) -> Option<Side> {
        if self.over.is_some() {
            None
        } else {
            Some(self.to_move)
        }
    }

    /// SL-O9, SL-O11: the larger count wins and equal counts draw; with
    /// `Scoring::BlockedLoses`, a game ended by SL-13 is lost by the player left without a
    /// move (a game ended by SL-O11 has no such player and is counted). None while the game
    /// goes on.
    pub fn result(&self) -> Option<Outcome> {
        let end = self.over?;
        if end == End::Blocked && self.opts.scoring == Scoring::BlockedLoses {
            return Some(Outcome::Winner(self.to_move.other()));
        }
        let [south, north] = self.reserve;
        Some(if south > north {
            Outcome::Winner(Side::South)
        } else if north > south {
            Outcome::Winner(Side::North)
        } else {
            Outcome::Draw
        })
    }

    /// SL-13, SL-O9, SL-O11: ends the game; each player takes the counters of their own holes
    /// (a nedf holds none here: its counters are its maker's already).
    fn finish(&mut self, end: End) {
        for (i, seeds) in self.board.iter_mut().enumerate() {
            self.reserve[owner(i).index()] += u32::from(*seeds);
            *seeds = 0;
        }
        self.legal = 0;
        self.over = Some(end);
    }

    /// The position for SL-O11: the board and the player to move. The nedfs and reserves are
    /// left out: the history is cleared whenever they change.
    fn key(&self) -> u128 {
        board_key(&self.board) << 1 | self.to_move.index() as u128
    }
}

//! The generic engine: positions, legal moves, plies, endings, rounds.
//!
//! A [`Game`] holds compiled [`Rules`] and a fixed-size [`Position`]; playing a move never
//! parses, looks names up, or allocates (the cycle history reuses its buffer).

mod compile;
mod eval;
mod history;
mod pieces;
mod race;
mod sow;

use std::sync::Arc;

pub use eval::{arith, compare};
pub(crate) use pieces::IN_HAND;
pub use pieces::{Piece, Pieces};

use crate::rules::{
    ClauseId, Dir, EndingRule, MAX_ENTRY_CHOICES, MAX_POSITIONS, MAX_SEATS, MAX_SEEDS, MAX_VARS,
    Mask, NO_HOLE, NOBODY, POS_BITS, Player, Pos, Rules, bit,
};
use crate::ruleset::{
    ClosedHoles, MatchWinner, NeutralSeeds, NextStarter, PieceRoundEnd, Remaining, RowEnd,
    VarScope, Verdict,
};
use crate::trace::{EndCause, Event, Limit, Tracer};
use compile::Program;
use eval::Cx;
use history::Brent;
use history::History;
use sow::Mover;

/// Everything that decides the future of a game, and nothing else (no ply counters), so that
/// two equal positions are the same game state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Seeds in each position (holes and stores on the track).
    pub board: [u16; MAX_POSITIONS],
    /// Seeds each player holds off the track (reserve or off-track store).
    pub reserve: [u32; MAX_SEATS],
    /// Seeds each player's captures removed from the game.
    pub taken: [u32; MAX_SEATS],
    /// Closed holes, as a mask of positions.
    pub closed: Mask,
    /// The player to move.
    pub to_move: Player,
    /// Bit p set once player p has moved in this game or round (kept only when the rules read
    /// `first_move`); and bit 6 + p ([`SWAP_DUE`]) while the pie rule waits for player p's
    /// first turn of the round (`[turns] swap`).
    pub moved: u8,
    /// Sowings made in the current turn (kept only when the rules read `turn_sowings`).
    pub turn_sowings: u8,
    /// Each player's claimed hole (see `claim` in capture clauses), or [`NO_HOLE`].
    pub claims: [Pos; MAX_SEATS],
    /// The players out of the match (a mask of seats): their turns are passed over.
    pub out: u8,
    /// How many seats the holes have moved on since the match began (see `[rounds]
    /// rotate_owners`): seat p owns the holes seat p - `rotation` owned at the start.
    pub rotation: u8,
    /// What the player to move may do beside sowing: decline the extra turn they are in, or
    /// decide on the capture their move stopped at.
    pub offer: Offer,
    /// The rules' variables (see [`crate::rules::VarInfo`]); unused slots stay 0.
    pub vars: [i32; MAX_VARS],
    /// The positions holding seeds, as a mask, kept with `board` by every write through
    /// [`Position`]'s methods, and recounted whenever a position enters a [`Game`] (so a
    /// `board` written directly counts from then on). Whether a row is empty, and which holes
    /// can be played, are then one mask operation. A function of `board`, so it changes
    /// neither equality nor hashing.
    sown: [u64; 2],
}

/// Notes in `sown` (a [`Position`]'s mask of positions holding seeds) whether position `h` (on
/// the board) holds seeds. The mask is kept as two words, so that a position's bit is one
/// shift of one word: this runs at every seed sown. (Reading the bit from [`bit`]'s table and
/// writing both words measured more instructions a ply on Kalah.)
#[inline(always)]
fn mark_sown(sown: &mut [u64; 2], h: Pos, holds: bool) {
    let (word, bit) = (usize::from(h >> 6 & 1), 1u64 << (h & 63));
    if let Some(w) = sown.get_mut(word) {
        *w = if holds { *w | bit } else { *w & !bit };
    }
}

/// What the player to move may do beside sowing, by the state of their turn. One field of the
/// position, so that listing the moves of an ordinary turn tests one thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Offer {
    /// Sow (or pass, where a player who cannot sow waits).
    #[default]
    Sow,
    /// Sow again, or decline with `pass` the extra turn they are in (`[[extra_turn]]
    /// optional`).
    Decline,
    /// Sow, or exchange sides with the first player by `swap` (`[turns] swap`, the pie rule):
    /// at the first turn of the player who did not make the round's first ply.
    Swap,
    /// Answer `take` or `leave` to the optional capture their move stopped at.
    Decide(Pending),
    /// The round's first ply is the race (`[race]`): `race`, the only move, every player
    /// sowing at once. Where the players chose their starts (`[race] from` a set of holes),
    /// `starts` holds each seat's ([`NO_HOLE`] for a seat that does not race); where the rules
    /// name them, it is all [`NO_HOLE`] and the holes are read as the race begins.
    Race { starts: Starts },
    /// Before the race, where each racer chooses the hole they race from (`[race] from` a set
    /// of holes): the player to move chooses theirs, `race:s3`. `starts` holds the choices
    /// made so far, a seat at a time in turn order from the starter ([`NO_HOLE`] for a seat
    /// that has not chosen, or could not).
    RaceStart { starts: Starts },
    /// Arrange seeds before play (`[arrange]`): put one they hold into a hole, pick one up,
    /// or end their arrangement with `pass`. `left` is the seats whose arrangement has not
    /// ended, the player to move's included; with `refill`, the refill between rounds comes
    /// once every seat has arranged (`[arrange] refill = "after"`).
    Arrange { left: u8, refill: bool },
}

impl Offer {
    /// The stopped move, if the player to move has one to decide on.
    pub fn stopped(&self) -> Option<Pending> {
        match self {
            Offer::Decide(p) => Some(*p),
            Offer::Sow
            | Offer::Decline
            | Offer::Swap
            | Offer::Race { .. }
            | Offer::RaceStart { .. }
            | Offer::Arrange { .. } => None,
        }
    }

    /// The race, with no start chosen yet (the rules name the holes, or the players have yet
    /// to choose).
    pub const RACE: Offer = Offer::Race {
        starts: [NO_HOLE; MAX_SEATS],
    };

    /// Whether the race is the next ply.
    pub fn is_race(&self) -> bool {
        matches!(self, Offer::Race { .. })
    }

    /// Whether this offer is part of the race: its choice of starts, or the race itself.
    pub fn racing(&self) -> bool {
        match self {
            Offer::Race { .. } | Offer::RaceStart { .. } => true,
            Offer::Sow
            | Offer::Decline
            | Offer::Swap
            | Offer::Decide(_)
            | Offer::Arrange { .. } => false,
        }
    }
}

/// Each seat's hole to race from ([`NO_HOLE`]: none), where the players choose them.
pub type Starts = [Pos; MAX_SEATS];

/// Where a move stands when it stops at a decision of the mover's (an optional capture whose
/// condition holds): everything the rest of the move reads, so that the move goes on exactly
/// as it would have gone on unstopped. Part of the position, so cycles and the cycle history
/// tell a move waiting for a decision from a position between moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pending {
    /// The capture clause offered.
    pub clause: ClauseId,
    /// Whether it is a move-end clause (else a lap-end one).
    pub at_move_end: bool,
    /// The move as played: its first hole, direction and seeds entered.
    pub origin: Pos,
    pub dir: Dir,
    pub entered: u16,
    /// The lap that ended: its last hole, the hole it started from, its number, whether a
    /// relay turned it against the move's direction.
    pub last: Pos,
    pub lap_origin: Pos,
    pub lap: u32,
    pub reversed: bool,
    /// Whether that lap sowed captured seeds again (`resowing`).
    pub resowing: bool,
    /// Whether the move has reached the opponent's row, and the seeds it has captured.
    pub reached_opponent: bool,
    pub captured: u32,
    /// What that lap's last hole held just before its last seed fell (`landed_on`), where the
    /// rules read it: the move goes on from the position, so the position keeps it.
    pub landed: Option<u16>,
}

impl Position {
    /// A position with an empty board, nothing held or removed, no hole closed or claimed,
    /// South to move, both players having moved.
    pub fn empty() -> Position {
        Position {
            board: [0; MAX_POSITIONS],
            reserve: [0; MAX_SEATS],
            taken: [0; MAX_SEATS],
            closed: 0,
            to_move: 0,
            moved: 0b11,
            turn_sowings: 0,
            claims: [NO_HOLE; MAX_SEATS],
            out: 0,
            rotation: 0,
            offer: Offer::Sow,
            vars: [0; MAX_VARS],
            sown: [0; 2],
        }
    }

    /// The board as far as it goes, in blocks of [`BLOCK`] positions (the last one padded
    /// with the board's unused positions, which are always empty). Copies, comparisons and
    /// hashes go a block at a time: fixed-size work the compiler lays out without a loop per
    /// position or a call to `memcpy`, and one block covers the boards of most games.
    #[inline(always)]
    fn blocks(&self, blocks: Blocks) -> &[Block] {
        let chunks = self.board.as_chunks::<BLOCK>().0;
        chunks.get(..blocks.0).unwrap_or(chunks)
    }

    /// Makes this position a copy of `other`, both having nothing past their first
    /// `positions` board entries (true of any two positions of one game). Only the blocks the
    /// board covers are copied: a whole `Position` is mostly unused board, and copying it
    /// costs a call to `memcpy` on every relaying move.
    #[inline]
    pub(crate) fn copy_from(&mut self, other: &Position, blocks: Blocks) {
        let (to, from) = (self.board.as_chunks_mut::<BLOCK>().0, other.blocks(blocks));
        for (to, from) in to.iter_mut().zip(from) {
            *to = *from;
        }
        self.reserve = other.reserve;
        self.taken = other.taken;
        self.closed = other.closed;
        self.to_move = other.to_move;
        self.moved = other.moved;
        self.turn_sowings = other.turn_sowings;
        self.claims = other.claims;
        self.out = other.out;
        self.rotation = other.rotation;
        self.offer = other.offer;
        self.vars = other.vars;
        self.sown = other.sown;
    }

    /// Recounts the mask of positions holding seeds from the board.
    pub fn recount(&mut self) {
        let sown = (0u8..)
            .zip(&self.board)
            .fold(0 as Mask, |m, (h, &s)| m | Mask::from(s != 0) << h);
        self.sown = [sown as u64, (sown >> 64) as u64];
    }

    /// The positions holding seeds, as a mask.
    #[inline]
    pub fn sown(&self) -> Mask {
        let [low, high] = self.sown;
        Mask::from(low) | Mask::from(high) << 64
    }

    /// Seeds in position `h`; [`NO_HOLE`] (and any position past the board) holds none.
    #[inline]
    pub fn seeds(&self, h: Pos) -> u16 {
        self.board.get(usize::from(h)).copied().unwrap_or(0)
    }

    /// Sets the seeds in position `h` (nothing for [`NO_HOLE`]).
    #[inline]
    pub fn set(&mut self, h: Pos, n: u16) {
        if let Some(s) = self.board.get_mut(usize::from(h)) {
            *s = n;
            mark_sown(&mut self.sown, h, n != 0);
        }
    }

    /// Empties position `h` and returns the seeds it held.
    #[inline]
    /// Lifts `n` of the seeds of `h` (none below zero, at most all it holds) and leaves the
    /// rest; returns the seeds lifted.
    pub fn lift_part(&mut self, h: Pos, n: i64) -> u16 {
        let all = self.seeds(h);
        let n = u16::try_from(n.clamp(0, i64::from(all))).unwrap_or(all);
        self.set(h, all - n);
        n
    }

    pub fn lift(&mut self, h: Pos) -> u16 {
        match self.board.get_mut(usize::from(h)) {
            Some(seeds) => {
                mark_sown(&mut self.sown, h, false);
                std::mem::take(seeds)
            }
            None => 0,
        }
    }

    /// Drops a seed into position `h` (on the board) and returns the seeds it now holds.
    ///
    /// Every position a lap sows into is on the board (below [`MAX_POSITIONS`]): the tracks
    /// of [`Tables::build`] hold only positions on the board, and a lap with nowhere to go
    /// sows back into its origin, a position on the board (a legal move, a relay hole holding
    /// seeds, or the position where the last lap ended). So the mask leaves the position as it
    /// is; it only lets the compiler drop the bounds check of the hottest loop.
    #[inline(always)]
    pub fn sow_one(&mut self, h: Pos) -> u16 {
        match self.board.get_mut(usize::from(h & POS_BITS)) {
            Some(seeds) => {
                *seeds += 1;
                mark_sown(&mut self.sown, h, true);
                *seeds
            }
            None => 0,
        }
    }

    /// Whether player `p`'s holes are all empty (nobody's are).
    #[inline]
    pub fn row_empty(&self, rules: &Rules, p: Player) -> bool {
        let row = rules.geometry.holes_mask.get(usize::from(p)).copied();
        row.is_none_or(|row| self.sown() & row == 0)
    }

    /// Seeds a player holds: their reserve plus their store on the track.
    #[inline]
    pub fn held(&self, rules: &Rules, p: Player) -> u32 {
        debug_assert!(p < NOBODY, "a player, not nobody");
        let store = rules.geometry.store_of(p).map_or(0, |s| self.seeds(s));
        let reserve = self.reserve.get(usize::from(p)).copied().unwrap_or(0);
        reserve + u32::from(store)
    }

    /// Seeds in a player's holes.
    #[inline]
    pub fn row_seeds(&self, rules: &Rules, p: Player) -> u32 {
        debug_assert!(p < NOBODY, "a player, not nobody");
        let holes = rules.geometry.holes(p);
        holes.iter().map(|&h| u32::from(self.seeds(h))).sum()
    }

    /// Gives seeds to a player: into their store on the track, or their reserve ([`NOBODY`]
    /// takes nothing).
    pub fn credit(&mut self, rules: &Rules, p: Player, seeds: u32) {
        match rules.geometry.store_of(p) {
            // Board totals never exceed MAX_SEEDS, which fits u16.
            Some(s) => {
                if let Some(b) = self.board.get_mut(usize::from(s)) {
                    *b = b.saturating_add(seeds as u16);
                    let holds = *b != 0;
                    mark_sown(&mut self.sown, s, holds);
                }
            }
            None => {
                if let Some(r) = self.reserve.get_mut(usize::from(p)) {
                    *r += seeds;
                }
            }
        }
    }

    /// Turns the board round for the pie rule (`[turns] swap`, with `turned` from
    /// [`crate::rules::Geometry::turned_round`]): each position's seeds go where the turn
    /// carries them, and the two players' reserves, removed seeds, claims, out-of-match bits
    /// and variables are exchanged, sets of holes carried hole by hole. The player to move,
    /// what each seat has sown (`moved`), the offer and, in a match, the variables that last
    /// the match (scope `game`) stay: they are the seats', not the sides'.
    pub fn turn_round(&mut self, rules: &Rules, turned: &[Pos; MAX_POSITIONS]) {
        let turn = |h: Pos| turned.get(usize::from(h)).copied().unwrap_or(h);
        let turn_mask = |m: Mask| {
            (0..MAX_POSITIONS as Pos)
                .filter(|&h| m & bit(h) != 0)
                .fold(0, |t, h| t | bit(turn(h)))
        };
        let board = self.board;
        for (h, &seeds) in (0..).zip(&board) {
            if let Some(to) = self.board.get_mut(usize::from(turn(h))) {
                *to = seeds;
            }
        }
        self.recount();
        self.reserve.swap(0, 1);
        self.taken.swap(0, 1);
        self.claims.swap(0, 1);
        self.claims = self.claims.map(turn);
        self.closed = turn_mask(self.closed);
        let out = self.out;
        self.out = out & !0b11 | (out & 1) << 1 | (out >> 1 & 1);
        for v in &rules.vars {
            if rules.rounds.is_some() && v.scope == crate::ruleset::VarScope::Game {
                // What lasts a match (points, wins) is the players', not the sides'.
                continue;
            }
            let (slot, width) = (usize::from(v.slot), usize::from(v.width));
            if v.per_player {
                let (south, north) = self.vars.split_at_mut(slot + width);
                if let (Some(a), Some(b)) = (south.get_mut(slot..), north.get_mut(..width)) {
                    a.swap_with_slice(b);
                }
            }
            if v.kind == crate::ruleset::VarKind::Holes {
                let values = if v.per_player { 2 } else { 1 };
                for k in 0..values {
                    let at = slot + k * width;
                    let set = turn_mask(crate::rules::holes_in(&self.vars, at));
                    for (q, slot) in (0..width).zip(self.vars.iter_mut().skip(at)) {
                        *slot = (set >> (32 * q)) as u32 as i32;
                    }
                }
            }
        }
    }

    /// A ply by `p`: if it is the round's first (the pie rule waiting for both players), the
    /// pie rule waits for the other player alone. (Without the pie rule, nothing: its bits are
    /// never set.)
    pub fn first_ply_by(&mut self, p: Player) {
        let both = SWAP_DUE | SWAP_DUE << 1;
        if self.moved & both == both {
            self.moved &= !(SWAP_DUE << (p & 1));
        }
    }

    /// Takes seeds from what a player holds: their reserve first, then their store on the
    /// track (at most what they hold).
    pub fn debit(&mut self, rules: &Rules, p: Player, seeds: u32) {
        let mut rest = seeds;
        if let Some(r) = self.reserve.get_mut(usize::from(p)) {
            let from_reserve = rest.min(*r);
            *r -= from_reserve;
            rest -= from_reserve;
        }
        if rest > 0
            && let Some(s) = rules.geometry.store_of(p)
        {
            // At most what the store holds, which fits u16.
            let left = u32::from(self.seeds(s)).saturating_sub(rest);
            self.set(s, left as u16);
        }
    }

    /// Seeds on the board, in reserves and removed: constant through a game. Pieces
    /// (`[pieces]`) on the board count as seeds here, those held off the board do not:
    /// [`Rules::seeds_in`] counts the seeds alone.
    pub fn total(&self) -> u32 {
        self.board.iter().map(|&s| u32::from(s)).sum::<u32>()
            + self.reserve.iter().sum::<u32>()
            + self.taken.iter().sum::<u32>()
    }

    /// Equality, comparing only the first `positions` board entries (the rest are always 0).
    #[inline]
    pub(crate) fn same_as(&self, other: &Position, blocks: Blocks) -> bool {
        self.blocks(blocks) == other.blocks(blocks)
            && self.reserve == other.reserve
            && self.taken == other.taken
            && self.closed == other.closed
            && self.to_move == other.to_move
            && self.moved == other.moved
            && self.turn_sowings == other.turn_sowings
            && self.claims == other.claims
            && self.out == other.out
            && self.rotation == other.rotation
            && self.offer == other.offer
            && self.vars == other.vars
    }

    /// Seeds banked so far; a change means no earlier position can come back.
    #[inline]
    fn banked(&self, bank: &Bank) -> u32 {
        let [a, b] = bank.stores.map(|(at, keep)| {
            // In range by construction (masked), so no bounds test.
            let seeds = self
                .board
                .get(at & (MAX_POSITIONS - 1))
                .copied()
                .unwrap_or(0);
            u32::from(seeds) & keep
        });
        // Two players (most games): their two slots; otherwise every seat's.
        let [r0, r1, ..] = self.reserve;
        let [t0, t1, ..] = self.taken;
        if bank.seats > 2 {
            return a + b + self.reserve.iter().sum::<u32>() + self.taken.iter().sum::<u32>();
        }
        a + b + r0 + r1 + t0 + t1
    }
}

/// Where a game's banked seeds are, worked out once: each store on the board as (position,
/// a mask that is all ones), or (0, 0) for a player without one.
#[derive(Debug, Clone, Copy)]
struct Bank {
    stores: [(usize, u32); 2],
    /// Players: with more than two, every reserve is counted.
    seats: u8,
}

impl Bank {
    fn of(rules: &Rules) -> Bank {
        let [south, north, ..] = rules.geometry.store;
        Bank {
            stores: [south, north].map(|s| match s {
                Some(at) if usize::from(at) < MAX_POSITIONS => (usize::from(at), u32::MAX),
                _ => (0, 0),
            }),
            seats: rules.geometry.seats,
        }
    }
}

/// A position for each position.
type Table = [Pos; MAX_POSITIONS];

/// Neighbour tables for the current closed holes and directions.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Per player, then for nobody (no track: every lap sows back into its own start): where
    /// their seeds go.
    pub lanes: [Lane; MAX_SEATS + 1],
    /// Per player: `next(h)` and `prev(h)` of the language when that player moves. On four-row
    /// boards a hole off the mover's circuit follows its owner's circuit.
    pub next: [[Pos; MAX_POSITIONS]; MAX_SEATS],
    pub prev: [[Pos; MAX_POSITIONS]; MAX_SEATS],
}

/// Where a player's seeds go.
#[derive(Debug, Clone)]
pub struct Lane {
    /// The positions their seeds go to, in sowing order (closed holes and the opponent's store
    /// left out), as one circuit: a lap walks along it by index. Reading the next position
    /// off an index, rather than off the position before it, keeps the seeds of a lap
    /// independent of each other, so the processor overlaps them. Past `len`, the entries
    /// repeat the circuit (entry `i` is entry `i % len`), so that a lap which does not run
    /// off the array's end walks it with no test for the circuit's end.
    pub track: [Pos; MAX_POSITIONS],
    /// The length of `track`, at least 1 (an empty track counts one: nothing is sown along
    /// it, as every position's entry is [`OFF_TRACK`]).
    pub len: usize,
    /// For each position: the index in `track` of the position a seed sown after it goes to,
    /// or [`OFF_TRACK`] when there is none (a position off the player's circuit, or every
    /// position closed).
    pub entry: [u8; MAX_POSITIONS],
}

/// In [`Lane::entry`]: no position to sow into after this one.
pub const OFF_TRACK: u8 = u8::MAX;

impl Lane {
    /// A lane that goes nowhere (nobody's): every lap sows back into its own start.
    pub const NONE: Lane = Lane {
        track: [NO_HOLE; MAX_POSITIONS],
        len: 1,
        entry: [OFF_TRACK; MAX_POSITIONS],
    };
}

impl Tables {
    fn build(rules: &Rules, closed: Mask, dir: Dir) -> Tables {
        let g = &rules.geometry;
        let mut t = Tables {
            lanes: [const { Lane::NONE }; MAX_SEATS + 1],
            next: [[NO_HOLE; MAX_POSITIONS]; MAX_SEATS],
            prev: [[NO_HOLE; MAX_POSITIONS]; MAX_SEATS],
        };
        let fwd = match dir {
            Dir::Ccw => &g.ccw,
            Dir::Cw => &g.cw,
        };
        // Per player: their circuit, and the other players' stores (which they do not sow).
        let stores = g.store.iter().flatten().fold(0 as Mask, |m, &s| m | bit(s));
        let own_store = |p: usize| g.store.get(p).copied().flatten().map_or(0 as Mask, bit);
        let circuits = (0..usize::from(g.seats)).zip(fwd.iter());
        let circuits = circuits.map(|(p, fwd)| (fwd, stores & !own_store(p)));
        let tables = t.lanes.iter_mut().zip(&mut t.next).zip(&mut t.prev);
        for ((fwd, opponent_store), ((lane, next), prev)) in circuits.zip(tables) {
            let Lane {
                track,
                len: track_len,
                entry,
            } = lane;
            let unsowable = closed | opponent_store;
            let unseen = match rules.closed_holes {
                ClosedHoles::Absent => unsowable,
                ClosedHoles::Empty => opponent_store,
            };
            // The circuit in sowing order, from its first position on the board.
            let mut order = [NO_HOLE; MAX_POSITIONS];
            let Some(first) = (0..g.positions).find(|&x| fwd.get(usize::from(x)) != Some(&NO_HOLE))
            else {
                continue;
            };
            let mut n = 0;
            let mut at = first;
            for slot in order.iter_mut() {
                *slot = at;
                n += 1;
                at = fwd.get(usize::from(at)).copied().unwrap_or(NO_HOLE);
                if at == first || usize::from(at) >= MAX_POSITIONS {
                    break;
                }
            }
            let order = order.get(..n).unwrap_or_default();
            // For each position of the circuit, the first one after it (or before it, going
            // the other way; itself last) not in `skip`, or NO_HOLE: one pass over the circuit
            // taken twice, against the direction looked in.
            let after = |out: &mut Table, skip: Mask, forward: bool| {
                let mut found = NO_HOLE;
                let twice = order.iter().chain(order);
                let mut step = |&x: &Pos| {
                    if let Some(slot) = out.get_mut(usize::from(x)) {
                        *slot = found;
                    }
                    if skip & bit(x) == 0 {
                        found = x;
                    }
                };
                if forward {
                    twice.rev().for_each(&mut step);
                } else {
                    twice.for_each(&mut step);
                }
            };
            let mut sow: Table = [NO_HOLE; MAX_POSITIONS];
            after(&mut sow, unsowable, true);
            after(next, unseen, true);
            after(prev, unseen, false);
            // The track: the sowable positions in order; each position's entry into it.
            let mut index = [OFF_TRACK; MAX_POSITIONS];
            let sowable = order.iter().filter(|&&x| unsowable & bit(x) == 0);
            for ((k, &x), slot) in (0u8..).zip(sowable).zip(track.iter_mut()) {
                *slot = x;
                *track_len = usize::from(k) + 1;
                if let Some(i) = index.get_mut(usize::from(x)) {
                    *i = k;
                }
            }
            // Past its end, the track repeats the circuit (see `Lane::track`); its length is at
            // least 1 (`Lane::NONE`'s, or the count of sowable positions found).
            for i in *track_len..MAX_POSITIONS {
                let again = track.get(i % *track_len).copied().unwrap_or(NO_HOLE);
                if let Some(slot) = track.get_mut(i) {
                    *slot = again;
                }
            }
            for &x in order {
                let to = sow.get(usize::from(x)).copied().unwrap_or(NO_HOLE);
                if let Some(e) = entry.get_mut(usize::from(x)) {
                    *e = index.get(usize::from(to)).copied().unwrap_or(OFF_TRACK);
                }
            }
        }
        // A hole off the mover's circuit (four rows) follows its owner's.
        for table in [&mut t.next, &mut t.prev] {
            let own = *table;
            for (mover, row) in (0u8..).zip(table.iter_mut()) {
                for (h, slot) in (0u8..).zip(row.iter_mut()) {
                    let owner = g.owner_of(h);
                    if *slot == NO_HOLE && owner != mover {
                        let theirs = own
                            .get(usize::from(owner))
                            .and_then(|r| r.get(usize::from(h)));
                        *slot = theirs.copied().unwrap_or(NO_HOLE);
                    }
                }
            }
        }
        t
    }

    /// `next(h)` / `prev(h)` for the mover. [`NO_HOLE`] has no neighbours.
    #[inline]
    pub fn look(&self, mover: Player, h: Pos, forward: bool) -> Pos {
        let table = if forward { &self.next } else { &self.prev };
        // NO_HOLE for NOBODY (no table) and for NO_HOLE (past the table).
        let row = table.get(usize::from(mover));
        row.and_then(|row| row.get(usize::from(h)))
            .copied()
            .unwrap_or(NO_HOLE)
    }
}

/// A move: what the player to move chooses for a ply. In the notation, `s3` (the rules'
/// direction), `s3:cw` (a direction the mover chooses), `+5` (five seeds the mover holds
/// entered by `[entry]`, `+5:cw` in a direction chosen), `pass`, and `take` or `leave` (the
/// mover's decision where a move stopped at an optional capture).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The hole sown from ([`NO_HOLE`] for a pass, an entry, whose first hole the rules
    /// name, or a decision).
    pub hole: Pos,
    /// The direction, when the rules let the mover choose it; `None` sows the rules' way.
    pub dir: Option<Dir>,
    /// The seeds entered from what the mover holds (`[entry]`); 0 for a sowing or a pass.
    pub entered: u16,
    /// The mover's decision at the point where their move stopped ([`Position::offer`]).
    pub decision: Option<Decision>,
    /// In the arrangement before play: one seed put into `hole` from what the mover holds,
    /// or picked up from it.
    pub place: Option<Place>,
}

/// A seed moved between the mover's hand and a hole in the arrangement before play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// One seed the mover holds, put into the hole: written `s3+`.
    Put,
    /// One seed of the hole, picked up into the mover's hand: written `s3-`.
    Pick,
    /// A piece the mover holds (`[pieces]`), put into the hole: written `s3+` and the
    /// piece's name, `s3+stone`.
    Piece,
}

impl Place {
    /// The sign the notation writes after the hole.
    pub fn sign(self) -> char {
        match self {
            Place::Put | Place::Piece => '+',
            Place::Pick => '-',
        }
    }
}

/// What the mover decides where their move stopped: at an optional capture, or at a relay
/// the rules let them decline; or, at any turn, to concede the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Make the capture, and go on as the clause says.
    Take,
    /// Leave it: the move goes on as if the clause's condition had not held.
    Leave,
    /// Make the relay: the next lap lifts the hole it names.
    Continue,
    /// Decline the relay: the move ends where its lap ended.
    Stop,
    /// Make the capture with the move's hole, the mover's choice of its `choose` set:
    /// written `choose:n3`. (The hole is the move's, so that a move stays six bytes.)
    Choose,
    /// Concede the game (`[end] concede`), at any turn: never listed among the legal moves,
    /// a way out of the game rather than a move of it. (A decision, so that a move stays six
    /// bytes.)
    Concede,
    /// Exchange sides with the first player (`[turns] swap`, the pie rule), at the first turn
    /// of the player who did not make the first ply: the board turns round and the turn
    /// passes back.
    Swap,
    /// The race (`[race]`), each round's first ply where the rules have one: every player
    /// sows at once from the hole the rules name. With a hole, where the players choose their
    /// starts (`[race] from` a set of holes): the mover's choice of the hole they race from,
    /// written `race:s3`.
    Race,
}

impl Decision {
    /// The word the notation writes.
    pub fn word(self) -> &'static str {
        match self {
            Decision::Take => "take",
            Decision::Leave => "leave",
            Decision::Continue => "continue",
            Decision::Stop => "stop",
            Decision::Choose => "choose",
            Decision::Concede => "concede",
            Decision::Swap => "swap",
            Decision::Race => "race",
        }
    }

    /// Every decision written as a word alone, as the notation reads them.
    pub const ALL: [Decision; 7] = [
        Decision::Take,
        Decision::Leave,
        Decision::Continue,
        Decision::Stop,
        Decision::Concede,
        Decision::Swap,
        Decision::Race,
    ];
}

impl Move {
    /// Passing: the move of a player who cannot sow, where the rules let them wait.
    pub const PASS: Move = Move {
        hole: NO_HOLE,
        dir: None,
        entered: 0,
        decision: None,
        place: None,
    };

    /// Conceding the game, where the rules let players concede (`[end] concede`): never
    /// listed among the legal moves.
    pub const CONCEDE: Move = Move {
        decision: Some(Decision::Concede),
        ..Move::PASS
    };

    /// Whether this concedes the game.
    pub fn is_concede(self) -> bool {
        self.decision == Some(Decision::Concede)
    }

    /// Exchanging sides with the first player (`[turns] swap`), where it is on offer.
    pub const SWAP: Move = Move {
        decision: Some(Decision::Swap),
        ..Move::PASS
    };

    /// Whether this exchanges sides (the pie rule).
    pub fn is_swap(self) -> bool {
        self.decision == Some(Decision::Swap)
    }

    /// The race (`[race]`), where it is the round's first ply.
    pub const RACE: Move = Move {
        decision: Some(Decision::Race),
        ..Move::PASS
    };

    /// The mover's choice of `hole` to race from, where the players choose their starts
    /// (`race:s3`).
    pub fn race_from(hole: Pos) -> Move {
        Move { hole, ..Move::RACE }
    }

    /// Sowing from `hole` the rules' way.
    pub fn sow(hole: Pos) -> Move {
        Move { hole, ..Move::PASS }
    }

    /// Sowing from `hole` in a direction the mover chose.
    pub fn towards(hole: Pos, dir: Dir) -> Move {
        Move {
            hole,
            dir: Some(dir),
            ..Move::PASS
        }
    }

    /// Entering `seeds` the mover holds, in `dir` where the mover chooses it.
    pub fn enter(seeds: u16, dir: Option<Dir>) -> Move {
        Move {
            dir,
            entered: seeds,
            ..Move::PASS
        }
    }

    /// Entering `seeds` the mover holds from `hole`, their choice of the entry's starts.
    pub fn enter_at(seeds: u16, hole: Pos, dir: Option<Dir>) -> Move {
        Move {
            hole,
            dir,
            entered: seeds,
            ..Move::PASS
        }
    }

    /// The mover's decision at a stopped move.
    pub fn decide(decision: Decision) -> Move {
        Move {
            decision: Some(decision),
            ..Move::PASS
        }
    }

    /// The mover's choice of `hole` at a capture whose hole they choose (`choose:n3`).
    pub fn choose(hole: Pos) -> Move {
        Move {
            hole,
            decision: Some(Decision::Choose),
            ..Move::PASS
        }
    }

    /// A seed put into `hole`, or picked up from it, in the arrangement before play.
    pub fn placing(hole: Pos, place: Place) -> Move {
        Move {
            hole,
            place: Some(place),
            ..Move::PASS
        }
    }

    /// Whether this is a pass.
    pub fn is_pass(self) -> bool {
        self.hole == NO_HOLE && self.entered == 0 && self.decision.is_none()
    }

    /// Whether this enters seeds the mover holds.
    pub fn is_entry(self) -> bool {
        self.entered > 0
    }

    /// The move as the notation writes it: `s3`, `s3:cw`, `+5`, `+5:cw`, `pass`, `take`,
    /// `leave`, `s3+`, `s3-`, `s3+stone`.
    pub fn label(self, rules: &Rules) -> String {
        if let Some(d) = self.decision {
            return match d {
                Decision::Choose => format!("choose:{}", rules.geometry.label(self.hole)),
                Decision::Race if self.hole != NO_HOLE => {
                    format!("race:{}", rules.geometry.label(self.hole))
                }
                d => d.word().into(),
            };
        }
        if let Some(place) = self.place {
            let piece = match place {
                Place::Piece => crate::render::piece_name(rules),
                Place::Put | Place::Pick => "",
            };
            return format!("{}{}{piece}", rules.geometry.label(self.hole), place.sign());
        }
        let what = if self.is_entry() && self.hole != NO_HOLE {
            format!("+{}@{}", self.entered, rules.geometry.label(self.hole))
        } else if self.is_entry() {
            format!("+{}", self.entered)
        } else if self.is_pass() {
            return "pass".into();
        } else {
            rules.geometry.label(self.hole)
        };
        match self.dir {
            None => what,
            Some(d) => format!("{what}:{}", d.word()),
        }
    }
}

/// A pass: a placeholder where a move must stand before one is chosen (the players' move
/// buffers, the root of a search tree). Not a move to play unless the rules offer it.
impl Default for Move {
    fn default() -> Move {
        Move::PASS
    }
}

impl From<Pos> for Move {
    fn from(hole: Pos) -> Move {
        Move::sow(hole)
    }
}

/// The legal moves of a position, as sets of board positions (a bit per position) and of
/// sizes of entry: no allocation, whatever the moves. The moves come out in the mover's hole
/// order (a player's holes are numbered in the order of their positions, see
/// [`crate::rules::Geometry::build`]), then the entries from the fewest seeds; where the mover
/// chooses the direction, each counter-clockwise move comes before its clockwise one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveList {
    /// The holes that may be sown from the rules' way (counter-clockwise, when the mover
    /// chooses).
    mask: Mask,
    /// When the mover chooses: the holes that may be sown from clockwise.
    cw: Mask,
    /// The small fields in one word, so that a list is copied a word at a time: whether the
    /// mover chooses the direction (bit 0), the rules' direction (bit 1: clockwise), whether
    /// the list holds the pass, listed first (bit 2), how many moves the list holds beside its sowings
    /// (bits 16..32: the pass, or the entries), and, for entries, the fewest seeds entered
    /// (bits 32..48) and the hole each direction's entry starts in (bits 48..56 and 56..64).
    meta: u64,
    /// The entries: bit k for `entry_base + k` seeds, per direction as `mask` and `cw`.
    entries: [Mask; 2],
}

const CHOOSE: u64 = 1;
const FIXED_CW: u64 = 2;
const PASS: u64 = 4;
/// `meta`: the list is the mover's decision at a stopped move, `take` then `leave`.
const DECIDE: u64 = 8;
/// `meta`, with [`DECIDE`]: the decision is on a relay, `continue` then `stop`.
const DECIDE_RELAY: u64 = 32;
/// `meta`, with [`DECIDE`]: the decision is a hole of a capture's `choose` set, one of
/// `entries[0]` (`choose:n3`), after `leave` where the capture is optional.
const DECIDE_CHOICE: u64 = 64;
/// `meta`: the list is an arrangement's: puts into the holes of `mask`, picks from those of
/// `entries[0]`, and the pass where the mover may end their arrangement.
const ARRANGE: u64 = 16;
/// `meta`: the entries are of one size (`entry_base`) from a start the mover chooses:
/// `entries[way]` holds the start holes, not the sizes.
const ENTRY_AT: u64 = 128;
/// `meta`: the list holds `swap` (the pie rule), listed last.
const SWAP: u64 = 256;
/// `meta`, with [`DECIDE`]: the list is the race (`[race]`), its one move; with
/// [`DECIDE_CHOICE`] too, the choice of the hole to race from (`race:s3`).
const RACE: u64 = 512;
/// `meta` with no entry starts (both [`NO_HOLE`]).
const NO_STARTS: u64 = (NO_HOLE as u64) << 48 | (NO_HOLE as u64) << 56;

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

/// The `n`-th position (from 0) of a mask, in order. A word at a time: boards of up to 64
/// positions never look at the second, and a word's bits clear in one instruction each.
#[inline(always)]
fn nth_hole(mask: Mask, n: usize) -> Option<Pos> {
    let (low, high) = (mask as u64, (mask >> 64) as u64);
    // A board of up to 64 positions needs no count of the first word: the bits are cleared
    // in it alone.
    let in_low = if high == 0 {
        usize::MAX
    } else {
        low.count_ones() as usize
    };
    let (mut rest, skip, base) = if n < in_low {
        (low, n, 0)
    } else {
        (high, n - in_low, 64)
    };
    for _ in 0..skip {
        rest &= rest.wrapping_sub(1);
    }
    (rest != 0).then(|| base + rest.trailing_zeros() as Pos)
}

/// The positions in a mask. Without a `popcnt` instruction in the baseline target, counting a
/// word is a dozen instructions, so a second word that is empty (every board of up to 64
/// positions) is not counted.
#[inline(always)]
fn holes_in(mask: Mask) -> u32 {
    let high = (mask >> 64) as u64;
    (mask as u64).count_ones() + if high == 0 { 0 } else { high.count_ones() }
}

/// Whether size bit `k` is set in a mask of entry sizes.
#[inline]
fn size_bit(sizes: Mask, k: usize) -> bool {
    k < Mask::BITS as usize && sizes & (1 << k) != 0
}

impl MoveList {
    fn new() -> Self {
        MoveList {
            mask: 0,
            cw: 0,
            meta: NO_STARTS,
            entries: [0; 2],
        }
    }

    /// The moves of holes sown the rules' way.
    fn of(mask: Mask, fixed: Dir) -> Self {
        MoveList {
            mask,
            meta: NO_STARTS | if fixed == Dir::Cw { FIXED_CW } else { 0 },
            ..MoveList::new()
        }
    }

    /// The moves of holes sown in a direction the mover chooses: `ccw` counter-clockwise,
    /// `cw` clockwise.
    fn choosing(ccw: Mask, cw: Mask, fixed: Dir) -> Self {
        MoveList {
            cw,
            meta: MoveList::of(ccw, fixed).meta | CHOOSE,
            ..MoveList::of(ccw, fixed)
        }
    }

    /// Passing, the only move.
    fn passing(fixed: Dir) -> Self {
        MoveList::of(0, fixed).with_pass()
    }

    /// The mover's decision at a stopped move: `take`, then `leave` (or, on a relay,
    /// `continue` then `stop`), and nothing else.
    fn deciding(fixed: Dir, relay: bool) -> Self {
        let mut list = MoveList::of(0, fixed);
        list.meta = (list.meta | DECIDE | if relay { DECIDE_RELAY } else { 0 }) + (2 << 16);
        list
    }

    /// The race, the only move (`[race]`, a round's first ply).
    fn racing(fixed: Dir) -> Self {
        let mut list = MoveList::of(0, fixed);
        list.meta = (list.meta | DECIDE | RACE) + (1 << 16);
        list
    }

    /// The choice of the hole to race from, one of `holes` (`race:s3`): a choice of holes
    /// ([`MoveList::holes_chosen`]) marked as the race's.
    fn race_starts(holes: Mask, fixed: Dir) -> Self {
        let mut list = MoveList::holes_chosen(holes, false, fixed);
        list.meta |= RACE;
        list
    }

    /// The mover's choice of one of `holes` at a stopped move, for a capture clause with
    /// `choose`: `leave` first where the capture is `optional`, then a hole at a time.
    fn holes_chosen(holes: Mask, optional: bool, fixed: Dir) -> Self {
        let mut list = MoveList::of(0, fixed);
        list.entries[0] = holes;
        let others = u64::from(holes.count_ones()) + u64::from(optional);
        list.meta = list.meta | DECIDE | DECIDE_CHOICE | others << 16;
        list
    }

    /// Whether the list is a choice of holes ([`MoveList::holes_chosen`]).
    #[inline(always)]
    fn chooses(&self) -> bool {
        self.meta & DECIDE_CHOICE != 0
    }

    /// The decisions written as a word alone of a list that is a decision's
    /// ([`MoveList::deciding`], [`MoveList::holes_chosen`]).
    fn decisions(&self) -> &'static [Decision] {
        if self.chooses() {
            let leave = u32::from(self.others()) > self.entries[0].count_ones();
            return if leave { &[Decision::Leave] } else { &[] };
        }
        if self.meta & RACE != 0 {
            return &[Decision::Race];
        }
        match (self.decide(), self.meta & DECIDE_RELAY != 0) {
            (false, _) => &[],
            (true, false) => &[Decision::Take, Decision::Leave],
            (true, true) => &[Decision::Continue, Decision::Stop],
        }
    }

    /// Whether the list is the mover's decision at a stopped move.
    #[inline(always)]
    fn decide(&self) -> bool {
        self.meta & DECIDE != 0
    }

    /// An arrangement's moves: a seed put into each hole of `puts`, one picked up from each
    /// of `picks`, a piece put into each of `pieces`, and the pass first where the mover may
    /// end their arrangement (`done`).
    fn arranging(puts: Mask, picks: Mask, pieces: Mask, done: bool, fixed: Dir) -> Self {
        let mut list = MoveList::of(puts, fixed);
        list.entries = [picks, pieces];
        let others = picks.count_ones() + pieces.count_ones();
        list.meta = list.meta | ARRANGE | u64::from(others) << 16;
        if done { list.with_pass() } else { list }
    }

    /// Whether the list is an arrangement's ([`MoveList::arranging`]).
    #[inline(always)]
    fn arranges(&self) -> bool {
        self.meta & ARRANGE != 0
    }

    /// The list with `swap` added, after its other moves (the pie rule's offer).
    fn with_swap(mut self) -> Self {
        if !self.swaps() {
            self.meta = (self.meta | SWAP) + (1 << 16);
        }
        self
    }

    /// Whether the list holds `swap`.
    #[inline(always)]
    fn swaps(&self) -> bool {
        self.meta & SWAP != 0
    }

    /// The list with the pass added, before its other moves (a mover who may decline an extra
    /// turn).
    fn with_pass(mut self) -> Self {
        if !self.pass() {
            self.meta = (self.meta | PASS) + (1 << 16);
        }
        self
    }

    /// The moves of holes sown the rules' way, with `meta` the word of [`MoveList::of`] for
    /// the rules' direction (kept by the game: one load instead of a test).
    #[inline(always)]
    fn with_meta(mask: Mask, meta: u64) -> Self {
        MoveList {
            mask,
            cw: 0,
            meta,
            entries: [0; 2],
        }
    }

    #[inline(always)]
    fn choose(&self) -> bool {
        self.meta & CHOOSE != 0
    }

    #[inline(always)]
    fn fixed(&self) -> Dir {
        if self.meta & FIXED_CW != 0 {
            Dir::Cw
        } else {
            Dir::Ccw
        }
    }

    #[inline(always)]
    fn pass(&self) -> bool {
        self.meta & PASS != 0
    }

    /// How many moves the list holds beside its sowings: the pass, or the entries.
    #[inline(always)]
    fn others(&self) -> u16 {
        (self.meta >> 16) as u16
    }

    #[inline(always)]
    fn entry_base(&self) -> u16 {
        (self.meta >> 32) as u16
    }

    fn set_entry_base(&mut self, base: u16) {
        self.meta = self.meta & !(0xffff << 32) | u64::from(base) << 32;
    }

    /// The hole where direction `way`'s entry starts.
    #[inline(always)]
    fn entry_at(&self, way: usize) -> Pos {
        match way {
            0 => (self.meta >> 48) as Pos,
            1 => (self.meta >> 56) as Pos,
            _ => NO_HOLE,
        }
    }

    fn set_entry_at(&mut self, way: usize, at: Pos) {
        let shift = if way == 0 { 48 } else { 56 };
        self.meta = self.meta & !(0xff << shift) | u64::from(at) << shift;
    }

    pub fn len(&self) -> usize {
        let chosen = if self.cw == 0 { 0 } else { holes_in(self.cw) };
        (holes_in(self.mask) + chosen) as usize + usize::from(self.others())
    }

    pub fn is_empty(&self) -> bool {
        (self.mask | self.cw) == 0 && self.others() == 0
    }

    /// Sets the entries of direction `way` (`sizes`, from `entry_base` seeds).
    fn set_entries(&mut self, way: usize, sizes: Mask) {
        if let Some(w) = self.entries.get_mut(way) {
            *w = sizes;
        }
        let count: u64 = self
            .entries
            .iter()
            .map(|w| u64::from(w.count_ones()))
            .sum::<u64>()
            + u64::from(self.pass())
            + u64::from(self.swaps());
        self.meta = self.meta & !(0xffff << 16) | count << 16;
    }

    /// The list's index of a direction's moves (0: the rules' way, or counter-clockwise when
    /// the mover chooses; 1: clockwise when the mover chooses), if a move may give it.
    fn way(&self, dir: Option<Dir>) -> Option<usize> {
        match (self.choose(), dir) {
            (true, Some(Dir::Ccw)) => Some(0),
            (true, Some(Dir::Cw)) => Some(1),
            (true, None) => None,
            (false, Some(d)) => (d == self.fixed()).then_some(0),
            (false, None) => Some(0),
        }
    }

    /// Whether `mv` is one of the moves. (Inlined into every caller: a sowing's test is a few
    /// instructions; every other kind of move is tested out of line.)
    #[inline(always)]
    pub fn contains(&self, mv: impl Into<Move>) -> bool {
        let mv = mv.into();
        if mv.decision.is_some() || mv.place.is_some() || mv.is_entry() || self.arranges() {
            return self.contains_other(mv);
        }
        if mv.is_pass() {
            return self.pass();
        }
        let bit = |mask: Mask| mask & bit(mv.hole) != 0;
        match (self.choose(), mv.dir) {
            (true, Some(Dir::Ccw)) => bit(self.mask),
            (true, Some(Dir::Cw)) => bit(self.cw),
            (true, None) => false,
            (false, Some(d)) => d == self.fixed() && bit(self.mask),
            (false, None) => bit(self.mask),
        }
    }

    /// Whether `mv`, a decision, a seed placed, an entry, or any move where the list is an
    /// arrangement's, is one of the moves.
    #[inline(never)]
    fn contains_other(&self, mv: Move) -> bool {
        if let Some(d) = mv.decision {
            return match d {
                Decision::Choose | Decision::Race if self.chooses() => {
                    // A capture's hole, or the hole to race from: the list says which.
                    let race = self.meta & RACE != 0;
                    race == (d == Decision::Race) && self.entries[0] & bit(mv.hole) != 0
                }
                Decision::Choose => false,
                Decision::Race if mv.hole != NO_HOLE => false,
                Decision::Swap => self.swaps(),
                d => self.decisions().contains(&d),
            };
        }
        if mv.place.is_some() || self.arranges() {
            return self.contains_placed(mv);
        }
        self.contains_entry(mv)
    }

    /// Whether `mv` is one of an arrangement's moves, or a seed placed is one of the moves
    /// (out of line: few rules have an arrangement).
    #[inline(never)]
    fn contains_placed(&self, mv: Move) -> bool {
        let bit = |mask: Mask| mask & bit(mv.hole) != 0;
        self.arranges()
            && match mv.place {
                Some(Place::Put) => bit(self.mask),
                Some(Place::Pick) => bit(self.entries[0]),
                Some(Place::Piece) => bit(self.entries[1]),
                None => mv.is_pass() && self.pass(),
            }
    }

    /// Whether the entry `mv` is one of the moves (out of line: few rules have entries).
    #[inline(never)]
    fn contains_entry(&self, mv: Move) -> bool {
        let Some(way) = self.way(mv.dir) else {
            return false;
        };
        if self.entries_at() {
            // One size, from a start the mover chooses.
            return mv.entered == self.entry_base()
                && (self.entries.get(way)).is_some_and(|&starts| starts & bit(mv.hole) != 0);
        }
        if mv.hole != NO_HOLE {
            return false;
        }
        mv.entered >= self.entry_base()
            && (self.entries.get(way))
                .is_some_and(|&sizes| size_bit(sizes, usize::from(mv.entered - self.entry_base())))
    }

    /// Whether sowing from `hole` is legal in some direction.
    pub fn has_hole(&self, hole: Pos) -> bool {
        (self.mask | self.cw) & bit(hole) != 0
    }

    /// The hole where an entry in `dir` (the mover's choice, or the rules' way) starts.
    pub fn entry_start(&self, dir: Option<Dir>) -> Pos {
        self.way(dir).map_or(NO_HOLE, |w| self.entry_at(w))
    }

    /// The hole a listed move starts from: its hole, or for an entry the start listed for its
    /// direction.
    pub fn start_of(&self, mv: Move) -> Pos {
        if mv.is_entry() && mv.hole == NO_HOLE {
            self.entry_start(mv.dir)
        } else {
            // A sowing's hole, or the start the mover chose for an entry.
            mv.hole
        }
    }

    /// Marks the entries as of one size from starts the mover chooses (`entries[way]` the
    /// start holes).
    fn set_entries_at(&mut self) {
        self.meta |= ENTRY_AT;
    }

    /// Whether the entries are of one size from starts the mover chooses.
    #[inline(always)]
    fn entries_at(&self) -> bool {
        self.meta & ENTRY_AT != 0
    }

    /// The `k`-th move (from 0), in the order of [`MoveList::iter`]. (Inlined into every
    /// caller: its usual path is a few instructions, the others are out of line.)
    #[inline(always)]
    pub fn get(&self, k: usize) -> Option<Move> {
        if self.meta & (PASS | ARRANGE) != 0 {
            return if k == 0 && self.pass() {
                Some(Move::PASS)
            } else {
                self.nth(k)
            };
        }
        if self.others() == 0 {
            if !self.choose() {
                return nth_hole(self.mask, k).map(Move::sow);
            }
            return self.chosen_way(k);
        }
        self.nth(k)
    }

    /// The `k`-th move of a list of sowings whose direction the mover chooses, in the order
    /// of [`MoveList::sowings`] (by hole, counter-clockwise first): a hole at a time, each
    /// counting the one or two directions it may be sown in, rather than a move at a time.
    #[inline]
    fn chosen_way(&self, mut k: usize) -> Option<Move> {
        let (ccw, cw) = (self.mask, self.cw);
        if ccw == cw {
            // Every hole both ways (the usual list where the mover chooses): two moves a hole.
            let dir = if k.is_multiple_of(2) {
                Dir::Ccw
            } else {
                Dir::Cw
            };
            return nth_hole(ccw, k / 2).map(|h| Move::towards(h, dir));
        }
        let mut rest = ccw | cw;
        while rest != 0 {
            // The lowest hole's bit, tested against both masks as it is (a shift of a
            // two-word mask by the hole's number would cost more).
            let low = rest & rest.wrapping_neg();
            rest ^= low;
            let (a, b) = (ccw & low != 0, cw & low != 0);
            let ways = usize::from(a) + usize::from(b);
            if k < ways {
                let dir = if k == 0 && a { Dir::Ccw } else { Dir::Cw };
                return Some(Move::towards(low.trailing_zeros() as Pos, dir));
            }
            k -= ways;
        }
        None
    }

    /// The `k`-th move of a list with entries: out of line, so that the usual listing's `get`
    /// stays a few instructions.
    #[inline(never)]
    fn nth(&self, k: usize) -> Option<Move> {
        self.iter().nth(k)
    }

    /// The moves, in hole order, then the entries (or the decision's two words; or an
    /// arrangement's pass, puts and picks, each in hole order).
    pub fn iter(&self) -> impl Iterator<Item = Move> + use<> {
        let decisions = self.decisions();
        // An arrangement's seeds placed, or a choice's holes: its sowings and entries are
        // then none but the pass.
        let bare = MoveList {
            mask: 0,
            entries: [0; 2],
            ..*self
        };
        let (plain, puts, picks, pieces, chosen) = if self.arranges() {
            (bare, self.mask, self.entries[0], self.entries[1], 0)
        } else if self.chooses() {
            (bare, 0, 0, 0, self.entries[0])
        } else {
            (*self, 0, 0, 0, 0)
        };
        // The holes of a mask, in order.
        let holes = |mask: Mask| {
            let mut rest = mask;
            std::iter::from_fn(move || {
                let h = (rest != 0).then(|| rest.trailing_zeros() as Pos)?;
                rest &= rest - 1;
                Some(h)
            })
        };
        let placed =
            move |mask: Mask, place: Place| holes(mask).map(move |h| Move::placing(h, place));
        let race = self.meta & RACE != 0;
        let choice = move |h| {
            if race {
                Move::race_from(h)
            } else {
                Move::choose(h)
            }
        };
        (decisions.iter().map(|&d| Move::decide(d)))
            .chain(holes(chosen).map(choice))
            .chain(plain.sowings())
            .chain(plain.entry_moves())
            .chain(placed(puts, Place::Put))
            .chain(placed(picks, Place::Pick))
            .chain(placed(pieces, Place::Piece))
            .chain(self.swaps().then_some(Move::SWAP))
    }

    /// The sowings (or the pass), in hole order.
    #[inline]
    fn sowings(&self) -> impl Iterator<Item = Move> + use<> {
        let (ccw, cw, choose, pass) = (self.mask, self.cw, self.choose(), self.pass());
        let mut rest = ccw | cw;
        let mut pending_cw: Option<Pos> = None;
        let mut passed = !pass;
        std::iter::from_fn(move || {
            if !passed {
                passed = true;
                return Some(Move::PASS);
            }
            if let Some(h) = pending_cw.take() {
                return Some(Move::towards(h, Dir::Cw));
            }
            if rest == 0 {
                return None;
            }
            let h = rest.trailing_zeros() as Pos;
            rest &= rest - 1;
            if !choose {
                return Some(Move::sow(h));
            }
            let bit = bit(h);
            match (ccw & bit != 0, cw & bit != 0) {
                (true, true) => {
                    pending_cw = Some(h);
                    Some(Move::towards(h, Dir::Ccw))
                }
                (true, false) => Some(Move::towards(h, Dir::Ccw)),
                _ => Some(Move::towards(h, Dir::Cw)),
            }
        })
    }

    /// The entries, from the fewest seeds; of each size, counter-clockwise first.
    fn entry_moves(&self) -> impl Iterator<Item = Move> + use<> {
        let (entries, base, choose) = (self.entries, self.entry_base(), self.choose());
        let at = self.entries_at();
        let dir = move |way: usize| match (choose, way) {
            (false, _) => None,
            (true, 0) => Some(Dir::Ccw),
            (true, _) => Some(Dir::Cw),
        };
        // With starts the mover chooses, bit k is hole k (one size); else size base + k.
        let enter = move |k: usize, way: usize| {
            if at {
                Move::enter_at(base, k as Pos, dir(way))
            } else {
                Move::enter(
                    base.saturating_add(u16::try_from(k).unwrap_or(u16::MAX)),
                    dir(way),
                )
            }
        };
        let mut size = 0usize;
        let mut pending: Option<usize> = None;
        std::iter::from_fn(move || {
            if let Some(k) = pending.take() {
                return Some(enter(k, 1));
            }
            while size < Mask::BITS as usize && entries != [0; 2] {
                let k = size;
                size += 1;
                match (size_bit(entries[0], k), size_bit(entries[1], k)) {
                    (true, true) => {
                        pending = Some(k);
                        return Some(enter(k, 0));
                    }
                    (true, false) => return Some(enter(k, 0)),
                    (false, true) => return Some(enter(k, 1)),
                    (false, false) => {}
                }
            }
            None
        })
    }

    /// The moves in hole order, as a vector (for display and tests).
    pub fn to_vec(&self) -> Vec<Move> {
        self.iter().collect()
    }
}

/// The state of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Playing,
    /// The game or match is over; `None` is a draw.
    Over {
        winner: Option<Player>,
    },
    /// Play was stopped by one of the engine's safety limits: the rules give no result.
    Stopped {
        limit: Limit,
    },
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The game is already over.
    GameOver,
    /// The move is not legal now.
    Illegal { mv: Move, reason: String },
}

/// The winner of a match that has just ended, its last round won by `winner`, the players
/// holding `scores`.
fn champion(
    rounds: &crate::rules::RoundsRule,
    winner: Option<Player>,
    scores: &[u32; MAX_SEATS],
) -> Option<Player> {
    match rounds.match_winner {
        MatchWinner::MostSeeds => most(scores),
        MatchWinner::LastRound => winner,
    }
}

/// The rounds of a match since the last one in which a move was made, watched for a repeat by
/// Brent's method: a round in which nobody can move is decided by its start alone, so rounds
/// that start alike, with no move between, go on for ever.
#[derive(Debug, Clone, Copy)]
struct Idle {
    /// The starts (with their round phase, see [`Idle::repeats`]) since the last move.
    watch: Brent<(Position, u32)>,
    /// The ply count at the last move.
    ply: u32,
    /// Rounds begun since the last move.
    rounds: u32,
}

impl Idle {
    fn new(start: Position, ply: u32, phase: u32) -> Idle {
        Idle {
            watch: Brent::new((start, phase), 1),
            ply,
            rounds: 0,
        }
    }

    /// A ply of an arrangement, the `ply`-th: an arrangement is no move of play, so rounds in
    /// which the players only arranged and nobody could sow stay idle.
    fn arranged(&mut self, ply: u32) {
        if self.ply.saturating_add(1) == ply {
            self.ply = ply;
        }
    }

    /// Takes the start of the next round, `ply` plies into the match and `phase` rounds
    /// since the holes last moved on (`rotate_owners`: starts alike in another phase lead to
    /// other rounds): whether it repeats an earlier start with no move made since.
    fn repeats(&mut self, start: Position, ply: u32, phase: u32) -> bool {
        if ply != self.ply {
            *self = Idle::new(start, ply, phase);
            return false;
        }
        self.rounds = self.rounds.saturating_add(1);
        let now = (start, phase);
        self.watch.repeats(|saved| *saved == now, || now).is_some()
    }
}

/// The positions the search of `[end] no_capture_reachable` makes room for at its first use.
const REACH_ROOM: usize = 1 << 13;

/// The buffers of the search of `[end] no_capture_reachable` ([`Game::capture_reachable`]): the
/// positions met and those still to search from, cleared for each search and their room kept.
/// A copy of a game starts with none (a copy searches little, and copying them would allocate).
#[derive(Debug, Default)]
struct Reach {
    seen: std::collections::HashSet<Position>,
    frontier: std::collections::VecDeque<Position>,
}

impl Clone for Reach {
    fn clone(&self) -> Reach {
        Reach::default()
    }
}

/// What a forced move of [`Game::capture_can_follow`]'s play comes to. (Returned by value:
/// boxing the position would allocate at every forced move.)
#[allow(clippy::large_enum_variant)]
enum Forced {
    /// It captures.
    Captures,
    /// Its laps never end.
    Endless,
    /// It reaches one of the engine's safety limits.
    Limit,
    /// The position after it (the turn not yet passed on), the move's direction, and
    /// whether the mover moves again (and may decline to).
    Then(Position, Dir, Option<bool>),
}

/// Why a move is illegal, before it is put in words.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Illegality {
    /// `race` where the rules have no race.
    NoRace,
    /// `race` where the round's first ply is made already.
    RaceNotNow,
    /// Anything but `race` where the round's first ply is the race.
    MustRace,
    /// Anything but `race:HOLE` where the player to move chooses the hole to race from.
    MustChooseStart,
    /// `race:HOLE` where the race is due with its starts chosen, or named by the rules.
    StartNotNow,
    /// `race:HOLE` with a hole the player may not race from.
    NoStart,
    /// `swap` where the rules have no pie rule.
    NoSwap,
    /// `swap` where the pie rule does not offer it now.
    SwapNotNow,
    /// The player's move stopped at an optional capture: they answer `take` or `leave`.
    MustDecide(crate::rules::ClauseId),
    /// The move stopped at a capture whose hole the mover chooses: another answer was given.
    MustChoose(crate::rules::ClauseId),
    /// `take` or `leave` with no move stopped for a decision.
    NoDecision,
    /// The player is arranging their seeds before play: they put, pick up or pass.
    MustArrange(crate::rules::ClauseId),
    /// A seed put or picked up when nobody is arranging.
    NoArrangement,
    /// `pass` in the arrangement where its `done` does not hold.
    NotDone(crate::rules::ClauseId),
    /// A seed put by a player who holds none.
    NothingHeld,
    /// `concede` where the rules have no `[end] concede`.
    NoConcede,
    /// `concede` by a player who is not to move, or once the game is over.
    ConcedeNotNow,
    /// A piece put by a player who holds none.
    NoPieceHeld,
    Pass,
    MustPass,
    NoDirection,
    FixedDirection,
    NotOwn,
    Closed,
    Empty,
    /// The rules have no `[entry]`.
    NoEntry,
    /// The mover holds no seed, or the entry's condition does not hold (or names no hole).
    EntryNotNow,
    /// The entry starts where the mover chooses, and this hole is not one of its starts.
    EntryStart,
    /// The entry starts where the rules say: the move names a hole.
    EntryStartFixed,
    /// The entry's size is another: at most this many (the mover chooses), or this many.
    EntrySize {
        most: u16,
        choose: bool,
    },
    Rule(crate::rules::ClauseId),
    /// A preference keeps other moves, and this one lacks its property.
    Preferred(crate::rules::ClauseId),
}

/// What one ply did, in figures (the trace has the details).
#[derive(Debug, Clone, Copy, Default)]
pub struct PlyReport {
    pub laps: u32,
    pub extra_turn: bool,
    /// The move's laps would never end (a lap-end state repeated).
    pub endless: bool,
    /// The move was stopped by one of the engine's safety limits on a move (laps or steps),
    /// with no repeat found.
    pub lap_limit: bool,
    /// Which limit stopped play, if one did.
    pub limit: Option<Limit>,
    pub cycle: bool,
    /// A round (or the game) ended with this ply.
    pub round_over: bool,
}

/// A game (or match) in progress.
#[derive(Debug, Clone)]
pub struct Game {
    rules: Arc<Rules>,
    /// The rules' expressions, compiled to closures.
    program: Arc<Program>,
    /// The neighbour tables when no hole is closed, built once: every game and most rounds
    /// start with them.
    open_tables: Arc<DirTables>,
    /// Tables built for other closed-hole masks, at most [`TABLES_KEPT`] (the rounds of a
    /// match close the same few patterns again and again). The room is reserved at set-up, so
    /// no round allocates.
    closed_tables: Vec<(Mask, DirTables)>,
    pos: Position,
    /// The position every game of these rules starts from (see [`Game::restart`]).
    opening: Position,
    /// The position as the current move began (see [`Mover::run`]).
    move_start: Position,
    /// The tables of each direction for the holes closed now.
    tables: DirTables,
    /// The mask of closed holes `tables` were built for: a round or game that starts with the
    /// same mask (every game without closed holes) keeps them, rather than copying several
    /// kilobytes of tables at every restart.
    tables_for: Mask,
    starter: Player,
    round: u32,
    ply: u32,
    status: Status,
    /// The legal moves of the player to move, listed when the position was settled.
    moves: MoveList,
    /// Positions since the last irreversible change, for finding a repeat.
    history: History,
    /// Positions at the start of each round of a match.
    round_starts: Vec<Position>,
    /// Rounds in which nobody sowed, watched for a repeat (see [`Idle`]).
    idle: Idle,
    track_first_move: bool,
    track_turn_sowings: bool,
    /// Whether some variable lasts a move, or a turn (so each move or turn resets it).
    vars_by_move: bool,
    vars_by_turn: bool,
    /// Whether something happens when the turn passes to another player: turn variables
    /// reset, or the pie rule's offer made ([`Game::close_move`]).
    turn_hook: bool,
    /// Whether a move can have more than one lap (a relay, or captured seeds sown again).
    can_relay: bool,
    /// Whether the rules have an entry that may be listed (`[entry]`).
    has_entry: bool,
    /// Every hole of the board where a move may start from any hole (`[sowing] from =
    /// "any"`), else 0: added to the mover's own holes when the legal moves are listed.
    from_any: Mask,
    /// For `[end] no_further_capture`: how many of the coming plies are forced moves already
    /// followed, with a capture or a choice after them (see [`Game::capture_can_follow`]).
    /// A function of the position, kept to save work; cleared when play moves elsewhere.
    forced_ahead: u64,
    /// The search of `[end] no_capture_reachable`: its buffers, kept between searches.
    reach: Reach,
    /// The small fields of a list of moves sown the rules' way ([`MoveList::with_meta`]).
    list_meta: u64,
    /// Legality clauses whose `when` does not depend on the hole played: evaluated once per
    /// listing of the legal moves, not once per hole.
    fixed_when: u64,
    /// Legality clauses whose `when` is false under the options chosen: never tried.
    dead_legal: u64,
    /// When the legal moves are simply the open holes holding seeds.
    plain: Plain,
    /// Whether the legal moves of an ordinary turn are always those holes, sown the rules'
    /// way (`plain` always, no direction to choose, no entry, no preference): then they are
    /// written where the game keeps them, in place ([`Game::list_moves`]).
    plain_list: bool,
    /// `pos.banked()` when the cycle history was last cleared (or the game set up), so that a
    /// ply computes it once, after the move, instead of before and after.
    banked: u32,
    /// Where the banked seeds are.
    bank: Bank,
    /// When holes change hands between rounds (`[rounds] rotate_owners`): the rules and
    /// program for each turn of the holes, by `Position::rotation`, built once at set-up so
    /// that no round compiles or allocates. Empty otherwise.
    seatings: Arc<Vec<(Arc<Rules>, Arc<Program>)>>,
    /// The player who made the last sowing move (for `remaining = "last_mover"`): read only
    /// when a round ends, and decided by the moves that follow, so not part of the position.
    last_mover: Player,
}

/// When the legal moves are the open holes holding seeds, with no legality clause to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plain {
    /// Always: there is no clause, or each is false under the options chosen.
    Always,
    /// Once the player has moved: every other clause governs only a first move (its `when` is
    /// `first_move and ...`).
    OnceMoved,
    /// Never: the clauses are tried at each listing.
    Never,
}

/// The neighbour tables of both directions (see [`Tables`]), indexed by [`Dir::index`].
pub type DirTables = [Tables; 2];

/// The tables of one direction.
fn tables_for(tables: &DirTables, dir: Dir) -> &Tables {
    let [ccw, cw] = tables;
    match dir {
        Dir::Ccw => ccw,
        Dir::Cw => cw,
    }
}

/// Effects made once for each player still in play, in turn order, that player moving (a
/// round's start or end effects); `round_winner` is the round's winner, or nobody.
fn effects_by_player<T: Tracer>(
    effects: &[compile::EffectProgram],
    (rules, tables, starter): (&Rules, &Tables, Player),
    pos: &mut Position,
    round_winner: Player,
    tracer: &mut T,
) {
    if effects.is_empty() {
        return;
    }
    let out = pos.out;
    for p in rules.geometry.players().filter(|&p| out & (1 << p) == 0) {
        let mut cx = Cx::new(rules, tables, p, starter);
        cx.round_winner = round_winner;
        sow::apply_effects(effects, pos, &cx, tracer);
    }
}

/// Builds the tables of both directions for a mask of closed holes.
fn both_tables(rules: &Rules, closed: Mask) -> DirTables {
    Dir::BOTH.map(|dir| Tables::build(rules, closed, dir))
}

/// How many closed-hole masks a game keeps the neighbour tables of.
const TABLES_KEPT: usize = 16;
/// How many positions [`Position::blocks`] go a block at a time.
const BLOCK: usize = 16;
/// A block of the board.
type Block = [u16; BLOCK];

/// How many blocks of [`BLOCK`] positions a game's board covers (at least one), worked out
/// once per game: copies, comparisons and hashes of its positions go that many blocks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blocks(usize);

impl Blocks {
    pub(crate) fn of(positions: u8) -> Blocks {
        Blocks(
            usize::from(positions)
                .div_ceil(BLOCK)
                .clamp(1, MAX_POSITIONS / BLOCK),
        )
    }
}

/// When the refill between rounds fills the holes, beside the arrangement (`[arrange]
/// refill`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Filling {
    /// At the round's end: every hole emptied into its owner's hand, then filled.
    Now,
    /// At the round's end, the filling waiting for the arrangement: every hole emptied into
    /// its owner's hand.
    Later,
    /// Once the arrangement is over: the holes it left empty are filled from what each
    /// player holds.
    AfterArrangement,
}

/// The refill between rounds (see [`Filling`]): each player fills their holes from the chosen end
/// with what they hold, the holes in `pos.closed` (out of play by the rules, or a player's
/// out of the match) left closed.
fn fill_holes<T: Tracer>(
    rules: &Rules,
    rounds: &crate::rules::RoundsRule,
    pos: &mut Position,
    when: Filling,
    tracer: &mut T,
) {
    let g = &rules.geometry;
    let seats = g.players();
    let refill = u32::from(rounds.refill);
    let shut = pos.closed;
    // With `holes_filled = "poorest"`, the player holding the fewest seeds (the first in
    // turn order on equal totals) sets how many holes everyone fills, and what the hole
    // matching their partial last hole gets.
    // What each player lays out: what they hold and what their own holes hold.
    // Once the arrangement is over, the seeds on the board stay where they are.
    let supply_of = |pos: &Position, p: Player| match when {
        Filling::AfterArrangement => pos.held(rules, p),
        Filling::Now | Filling::Later => pos.held(rules, p) + pos.row_seeds(rules, p),
    };
    let limit = if rounds.poorest {
        let active = seats.clone().filter(|&p| pos.out & (1 << p) == 0);
        let poorest = by_wealth(active, |p| supply_of(pos, p), false);
        poorest.map(|p| {
            let have = supply_of(pos, p);
            let holes = g.holes(p).len() as u32;
            let full = (have / refill).min(holes);
            let rest = have - full * refill;
            match (rounds.partial && full < holes && rest > 0, rounds.mirrored) {
                (true, true) => (full + 1, rest),
                (true, false) => (full + 1, refill),
                (false, _) => (full, refill),
            }
        })
    } else {
        None
    };
    for p in seats {
        let mut supply = supply_of(pos, p);
        if when != Filling::AfterArrangement {
            for h in g.holes_of(p) {
                pos.lift(h);
            }
        }
        if let Some(s) = g.store_of(p) {
            pos.set(s, 0);
        }
        if let Some(reserve) = pos.reserve.get_mut(usize::from(p)) {
            *reserve = 0;
        }
        if pos.out & (1 << p) != 0 {
            pos.closed |= g.holes_mask.get(usize::from(p)).copied().unwrap_or(0);
            pos.credit(rules, p, supply);
            continue;
        }
        let mine = g.holes_mask.get(usize::from(p)).copied().unwrap_or(0);
        if rounds.laid_out() || when == Filling::Later {
            // Everything goes into the player's hand, to be laid out, or to fill the
            // holes once the arrangement is over.
            pos.credit(rules, p, supply);
            if T::EVENTS {
                tracer.event(Event::Refill {
                    player: p,
                    holes: 0,
                    seeds: 0,
                    partial: None,
                    closed: shut & mine,
                    open: 0,
                    kept: supply,
                    filled: 0,
                    waiting: when == Filling::Later,
                });
            }
            continue;
        }
        let (mut filled, mut sown, mut filled_holes) = (0u8, 0u32, 0 as Mask);
        let (mut closed, mut open, mut partial) = (shut & mine, 0 as Mask, None);
        // The holes in the refill's order: from either end, or 1, N, 2, N - 1, ... (the holes
        // left closed are in the middle). One loop over them, not a closure per order: the
        // refill runs at every round's end of every match.
        let row = g.holes(p);
        let n = row.len();
        for i in 0..n {
            let j = match rounds.from {
                RowEnd::Left => i,
                RowEnd::Right => n - 1 - i,
                RowEnd::OutsideIn if i % 2 == 0 => i / 2,
                RowEnd::OutsideIn => n - 1 - i / 2,
            };
            let Some(&h) = row.get(j) else {
                continue;
            };
            if shut & bit(h) != 0 {
                // Out of play by the rules: neither filled nor counted.
                continue;
            }
            if when == Filling::AfterArrangement && pos.seeds(h) > 0 {
                // Laid out by the arrangement before this refill: neither filled nor
                // counted.
                continue;
            }
            // The most this hole may take: a full hole, or under the poorest player's
            // limit nothing past their holes and their last hole's count in the last.
            let most = match limit {
                Some((holes, _)) if u32::from(filled) >= holes => 0,
                Some((holes, last)) if u32::from(filled) + 1 == holes => last,
                _ => refill,
            };
            let put = if supply >= most || rounds.partial {
                supply.min(most)
            } else {
                0
            };
            if put > 0 {
                // put <= refill, which is a u16.
                pos.set(h, u16::try_from(put).unwrap_or(rounds.refill));
                supply -= put;
                sown += put;
                filled += 1;
                filled_holes |= bit(h);
                if put < refill {
                    partial = Some((h, put));
                }
            } else if rounds.unfilled_open {
                open |= bit(h);
            } else {
                closed |= bit(h);
            }
        }
        pos.closed |= closed;
        pos.credit(rules, p, supply);
        if T::EVENTS {
            tracer.event(Event::Refill {
                player: p,
                holes: filled,
                seeds: sown,
                partial,
                open,
                closed,
                kept: supply,
                filled: filled_holes,
                waiting: false,
            });
        }
    }
}

/// Sends every piece (`[pieces]`) still on the board at the refill to its hole's owner's hand
/// (a neutral hole's, back to its holder's), as the refill does with the seeds.
fn gather_pieces(rules: &Rules, pos: &mut Position) {
    if rules.pieces.is_none() {
        return;
    }
    let pieces = rules.piece_slots();
    let mut rest = rules.geometry.board_holes();
    while rest != 0 {
        let h = rest.trailing_zeros() as Pos;
        rest &= rest - 1;
        let n = pieces.out(pos, h, rules.geometry.owner_of(h), NOBODY);
        pos.set(h, pos.seeds(h).saturating_sub(n));
    }
}

/// The player who arranges first (`[arrange] first`), `starter` being the round's first
/// mover: richer and poorer by what each holds, on the board and off it.
fn first_arranger(
    rules: &Rules,
    pos: &Position,
    first: crate::ruleset::ArrangeFirst,
    starter: Player,
) -> Player {
    use crate::ruleset::ArrangeFirst;
    let seats = rules
        .geometry
        .players()
        .filter(|&p| pos.out & (1 << p) == 0);
    let wealth = |p: Player| pos.held(rules, p) + pos.row_seeds(rules, p);
    match first {
        ArrangeFirst::Starter => starter,
        ArrangeFirst::Poorer => by_wealth(seats, wealth, false).unwrap_or(starter),
        ArrangeFirst::Richer => by_wealth(seats, wealth, true).unwrap_or(starter),
    }
}

/// The player of `seats` holding the fewest seeds by `wealth`, the first in turn order on
/// equal totals; or, `richer`, the most, the later in turn order on equal totals (so that of
/// two equal players the first counts as the poorer either way).
fn by_wealth(
    seats: impl Iterator<Item = Player>,
    wealth: impl Fn(Player) -> u32,
    richer: bool,
) -> Option<Player> {
    // `min_by_key` keeps the first of equals, `max_by_key` the last.
    if richer {
        seats.max_by_key(|&p| wealth(p))
    } else {
        seats.min_by_key(|&p| wealth(p))
    }
}

/// How many positions the cycle history holds before it has to grow.
const HISTORY_CAPACITY: usize = 512;
/// How many round starts a match holds before the list has to grow.
const ROUNDS_CAPACITY: usize = 64;

impl Game {
    /// A new game from the ruleset's initial position.
    pub fn new(rules: Arc<Rules>) -> Game {
        let pos = Game::opening(&rules);
        let first = rules.first;
        Game::start(rules, pos, first, true, &mut ())
    }

    /// The position a game of `rules` starts from.
    fn opening(rules: &Rules) -> Position {
        let mut pos = Position {
            board: rules.initial,
            to_move: rules.first,
            moved: 0,
            ..Position::empty()
        };
        for p in rules.geometry.players() {
            let held = rules
                .held_at_start
                .get(usize::from(p))
                .copied()
                .unwrap_or(0);
            pos.credit(rules, p, held);
        }
        reset_vars(rules, &mut pos, |_| true);
        // Each player starts holding their own piece.
        rules.piece_slots().start(&mut pos);
        if let Some(arrange) = rules.arrange.as_ref().filter(|a| a.at.at_start()) {
            // Every seat arranges before play.
            pos.offer = Offer::Arrange {
                left: rules.geometry.seat_mask(),
                refill: false,
            };
            pos.to_move = first_arranger(rules, &pos, arrange.first, rules.first);
        }
        await_first_ply(rules, &mut pos);
        pos.recount();
        pos
    }

    /// A game from a set-up position. It counts as mid-game: both players have moved.
    pub fn from_position(rules: Arc<Rules>, pos: Position) -> Game {
        Game::from_position_traced(rules, pos, &mut ())
    }

    /// [`Game::from_position`], tracing what happens before any move: when the player to move
    /// cannot move, the game (or its first round) ends at once, and `tracer` hears it.
    pub fn from_position_traced<T: Tracer>(
        rules: Arc<Rules>,
        mut pos: Position,
        tracer: &mut T,
    ) -> Game {
        pos.moved = 0b11;
        pos.turn_sowings = 0;
        Game::start(rules, pos, pos.to_move, false, tracer)
    }

    fn start<T: Tracer>(
        rules: Arc<Rules>,
        mut pos: Position,
        starter: Player,
        fresh: bool,
        tracer: &mut T,
    ) -> Game {
        pos.recount();
        let track_first_move = rules.reads(crate::rules::Fact::FirstMove);
        let vars_by_move = rules.vars.iter().any(|v| v.scope == VarScope::Move);
        let vars_by_turn = rules.vars.iter().any(|v| v.scope == VarScope::Turn);
        let track_turn_sowings = rules.reads(crate::rules::Fact::TurnSowings);
        if !track_first_move {
            // The pie rule's bits stay (`SWAP_DUE`).
            pos.moved &= SWAP_DUE | SWAP_DUE << 1;
        }
        let open_tables = Arc::new(both_tables(&rules, 0));
        let tables = if pos.closed == 0 {
            (*open_tables).clone()
        } else {
            both_tables(&rules, pos.closed)
        };
        let history =
            History::with_capacity(HISTORY_CAPACITY, Blocks::of(rules.geometry.positions), {
                // The slots the variables and the pieces use, one after another from 0.
                rules.var_slots()
            })
            .with_lap(rules.reads(crate::rules::Fact::Lap) || rules.max_laps.is_some());
        let can_relay = rules.relay.is_some()
            || rules
                .lap_captures
                .iter()
                .any(|c| c.then == crate::ruleset::After::Sow);
        let fixed_when = rules
            .legal
            .iter()
            .take(64)
            .enumerate()
            .filter(|(_, l)| !eval::reads_hole(&l.when))
            .fold(0u64, |m, (i, _)| m | 1 << i);
        let dead = |l: &&crate::rules::LegalRule| l.when == crate::rules::BoolX::Const(false);
        let dead_legal = (0..64)
            .zip(&rules.legal)
            .filter(|(_, l)| dead(l))
            .fold(0u64, |m, (i, _)| m | 1 << i);
        let mut live = rules.legal.iter().filter(|l| !dead(l)).peekable();
        let plain = if live.peek().is_none() {
            Plain::Always
        } else if track_first_move && live.all(|l| eval::first_move_only(&l.when)) {
            Plain::OnceMoved
        } else {
            Plain::Never
        };
        let mut round_starts = Vec::new();
        if rules
            .rounds
            .as_ref()
            .is_some_and(|r| r.end_on_repeated_start)
        {
            round_starts.reserve(ROUNDS_CAPACITY);
            round_starts.push(pos);
        }
        let mut rules = rules;
        let mut program = Arc::new(Program::new(&rules));
        let mut seatings = Arc::new(seatings(&rules, &program));
        if rules.rounds.as_ref().is_some_and(|r| r.win_holes) {
            layouts_ahead(&mut seatings);
            extend_seatings(&mut seatings, pos.rotation);
        }
        // A set-up position whose holes have moved on plays under that turn of the holes.
        if let Some((turned, compiled)) = seatings.get(usize::from(pos.rotation)) {
            rules = turned.clone();
            program = compiled.clone();
        }
        let bank = Bank::of(&rules);
        let opening = Game::opening(&rules);
        let has_entry = program.entry.is_some();
        let rules_direction = rules.direction;
        let from_any = if rules.sow_from_any {
            rules.geometry.board_holes()
        } else {
            0
        };
        let plain_list = plain == Plain::Always
            && !rules.choose_direction
            && !has_entry
            && program.prefer.is_empty();
        let turn_hook = vars_by_turn || rules.swap.is_some();
        let mut game = Game {
            rules,
            program,
            open_tables,
            closed_tables: Vec::with_capacity(TABLES_KEPT),
            pos,
            opening,
            move_start: pos,
            tables,
            tables_for: pos.closed,
            starter,
            round: 1,
            ply: 0,
            status: Status::Playing,
            moves: MoveList::new(),
            history,
            round_starts,
            idle: Idle::new(pos, 0, 0),
            track_first_move,
            track_turn_sowings,
            vars_by_move,
            vars_by_turn,
            turn_hook,
            can_relay,
            has_entry,
            from_any,
            forced_ahead: 0,
            reach: Reach::default(),
            list_meta: MoveList::of(0, rules_direction).meta,
            fixed_when,
            dead_legal,
            plain,
            plain_list,
            banked: 0,
            bank,
            seatings,
            last_mover: NOBODY,
        };
        // A game from its start begins its first round (a position set up by hand is in the
        // middle of one).
        if fresh {
            game.round_start(tracer);
        }
        game.banked = game.pos.banked(&game.bank);
        // A position where the player to move is already stuck ends at once.
        game.settle(tracer);
        game
    }

    /// The effects at a round's start (`at = "round_start"`), once its board is laid out: once
    /// for each player still in play, in turn order, that player moving. The positions kept
    /// to find a round starting again (`round_starts`, the idle rounds') are those before
    /// them: the effects are a function of that position, so one repeats where the other does.
    #[cold]
    #[inline(never)]
    fn round_start<T: Tracer>(&mut self, tracer: &mut T) {
        if self.program.start_effects.is_empty() {
            return;
        }
        let (rules, program) = (self.rules.clone(), self.program.clone());
        let tables = tables_for(&self.tables, rules.direction);
        let effects = &program.start_effects;
        effects_by_player(
            effects,
            (&rules, tables, self.starter),
            &mut self.pos,
            NOBODY,
            tracer,
        );
    }

    /// Starts again from the initial position, reusing the buffers.
    pub fn restart(&mut self) {
        self.restart_traced(&mut ());
    }

    /// [`Game::restart`], telling `tracer` the effects of the first round's start
    /// (`at = "round_start"`), which are made there.
    pub fn restart_traced<T: Tracer>(&mut self, tracer: &mut T) {
        if let Some((rules, program)) = self.seatings.first() {
            self.rules = rules.clone();
            self.program = program.clone();
        }
        self.pos = self.opening;
        self.forced_ahead = 0;
        self.use_tables(self.opening.closed);
        self.starter = self.rules.first;
        self.round = 1;
        self.ply = 0;
        self.status = Status::Playing;
        self.history.clear();
        self.banked = self.pos.banked(&self.bank);
        self.round_starts.clear();
        if (self.rules.rounds.as_ref()).is_some_and(|r| r.end_on_repeated_start) {
            self.round_starts.push(self.pos);
        }
        self.idle = Idle::new(self.pos, 0, 0);
        self.round_start(tracer);
        self.settle(tracer);
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn position(&self) -> &Position {
        &self.pos
    }
    pub fn status(&self) -> Status {
        self.status
    }
    pub fn is_over(&self) -> bool {
        self.status != Status::Playing
    }
    pub fn to_move(&self) -> Option<Player> {
        (self.status == Status::Playing).then_some(self.pos.to_move)
    }
    pub fn round(&self) -> u32 {
        self.round
    }
    pub fn ply(&self) -> u32 {
        self.ply
    }
    pub fn starter(&self) -> Player {
        self.starter
    }

    /// The legal moves of the player to move (empty once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            return MoveList::new();
        }
        self.moves
    }

    /// The legal moves of `player`. With no legality clause to try (most rulesets, and
    /// rulesets whose clauses only govern a first move, once the player has moved), the open
    /// holes holding seeds: one mask operation.
    #[inline(always)]
    fn legal_for(&self, player: Player) -> MoveList {
        let list = self.allowed_for(player);
        if self.program.prefer.is_empty() {
            return list;
        }
        self.preferred(player, list).0
    }

    /// The legal moves of `player`, the player to move: [`Game::legal_for`], with the pass
    /// where they may decline an extra turn, or the pass alone where they cannot sow but
    /// another player can and the rules let them wait. Shared by the ply, the forced walk and
    /// the reachability search, so the three agree on when a player passes.
    #[inline(always)]
    fn moves_of(&self, player: Player) -> MoveList {
        if !matches!(self.pos.offer, Offer::Sow) {
            return self.offered_moves(player);
        }
        let list = self.legal_for(player);
        if list.is_empty() && self.rules.pass && self.another_can_move(player) {
            // The player cannot sow but another can: they pass.
            return MoveList::passing(self.rules.direction);
        }
        list
    }

    /// Writes the legal moves of `player`, the player to move, into `self.moves`. Where they
    /// are the open holes holding seeds (`plain_list`, in an ordinary turn), the list is
    /// written in place: a list built apart and then copied was read back, in wide loads,
    /// from the narrow stores that had just written it, which the processor cannot forward
    /// (a stall every ply; BENCHMARKS.md 5.17).
    #[inline(always)]
    fn list_moves(&mut self, player: Player) {
        if self.plain_list && matches!(self.pos.offer, Offer::Sow) {
            let mask = self.open_sown(player);
            if mask != 0 {
                self.moves = MoveList::with_meta(mask, self.list_meta);
                return;
            }
        }
        self.moves = self.moves_of(player);
    }

    /// The moves of a player offered more than sowing ([`Game::moves_of`]; out of line, so
    /// that an ordinary turn's listing stays short).
    #[inline(never)]
    fn offered_moves(&self, player: Player) -> MoveList {
        match self.pos.offer {
            // The mover's move stopped at an optional capture or relay: they decide, nothing
            // else.
            Offer::Decide(p) => {
                let mover = self.mover(player, p.origin, p.dir, p.entered);
                match mover.choices(&self.pos, p) {
                    Some((holes, optional)) => {
                        MoveList::holes_chosen(holes, optional, self.rules.direction)
                    }
                    None => {
                        MoveList::deciding(self.rules.direction, self.program.is_relay(p.clause))
                    }
                }
            }
            Offer::Decline => self.legal_for(player).with_pass(),
            Offer::Arrange { .. } => self.arrangement_moves(player),
            Offer::Race { .. } => MoveList::racing(self.rules.direction),
            Offer::RaceStart { starts } => {
                MoveList::race_starts(self.race_choices(player, &starts), self.rules.direction)
            }
            // The moves of an ordinary turn (the pass too, where the player cannot sow), and
            // the swap.
            Offer::Swap => {
                let list = self.legal_for(player);
                let waits = list.is_empty() && self.rules.pass && self.another_can_move(player);
                if waits {
                    MoveList::passing(self.rules.direction)
                } else {
                    list
                }
                .with_swap()
            }
            Offer::Sow => self.legal_for(player),
        }
    }

    /// The moves of `player` in the arrangement before play: a seed put into each open hole
    /// the `put` condition allows (when they hold one), one picked up from each open hole
    /// holding seeds that `pick` allows, and the pass where `done` holds.
    fn arrangement_moves(&self, player: Player) -> MoveList {
        let dir = self.rules.direction;
        let Some(arrange) = &self.program.arrange else {
            return MoveList::new();
        };
        let mut cx = self.move_context(player, dir);
        let holds = self.pos.held(&self.rules, player) > 0;
        let holds_piece = self.rules.piece_slots().held_by(&self.pos, player) > 0;
        let (mut puts, mut picks, mut pieces) = (0 as Mask, 0 as Mask, 0 as Mask);
        let mut rest = self.rules.geometry.board_holes() & !self.pos.closed;
        while rest != 0 {
            let h = rest.trailing_zeros() as Pos;
            rest &= rest - 1;
            cx.origin = h;
            if holds && (arrange.put)(&cx, &self.pos) {
                puts |= bit(h);
            }
            if self.pos.seeds(h) > 0 && (arrange.pick)(&cx, &self.pos) {
                picks |= bit(h);
            }
            if holds_piece && (arrange.place)(&cx, &self.pos) {
                pieces |= bit(h);
            }
        }
        cx.origin = NO_HOLE;
        let done = (arrange.done)(&cx, &self.pos);
        MoveList::arranging(puts, picks, pieces, done, dir)
    }

    /// The moves `player` may make by the legality clauses, before any preference.
    #[inline(always)]
    fn allowed_for(&self, player: Player) -> MoveList {
        let plain = match self.plain {
            Plain::Always => true,
            Plain::OnceMoved => self.pos.moved & (1 << (player & 7)) != 0,
            Plain::Never => false,
        };
        let dir = self.rules.direction;
        let list = if !self.rules.choose_direction {
            let mask = if plain {
                self.open_sown(player)
            } else {
                self.legal_by_clauses(player, dir)
            };
            MoveList::with_meta(mask, self.list_meta)
        } else {
            let [ccw, cw] = Dir::BOTH.map(|dir| {
                if plain {
                    self.open_sown(player)
                } else {
                    self.legal_by_clauses(player, dir)
                }
            });
            MoveList::choosing(ccw, cw, dir)
        };
        if self.has_entry {
            return self.with_entries(player, list);
        }
        list
    }

    /// `list` with the entries `player` may make added: each size the entry allows now
    /// ([`Game::entry_sizes`]) in each direction whose start is on the mover's circuit, as the
    /// legality clauses allow (each tried, with `origin` the start and `entered` the size).
    /// Out of line, and by value, so that the usual list is built where it is returned.
    #[inline(never)]
    fn with_entries(&self, player: Player, mut list: MoveList) -> MoveList {
        let Some(entry) = &self.program.entry else {
            return list;
        };
        let Some((base, sizes)) = self.entry_sizes(entry, player) else {
            return list;
        };
        list.set_entry_base(base);
        let fixed = [list.fixed()];
        let ways: &[Dir] = if list.choose() { &Dir::BOTH } else { &fixed };
        if let compile::StartFrom::Chosen(starts) = &entry.start {
            // One size, from each start of the set on the mover's circuit that the legality
            // clauses allow (each tried with `origin` the start).
            list.set_entries_at();
            for (way, &dir) in ways.iter().enumerate() {
                let mut cx = self.move_context(player, dir);
                cx.entered = base;
                let mut legal = 0 as Mask;
                let mut rest = starts(&cx, &self.pos);
                while rest != 0 {
                    let h = rest.trailing_zeros() as Pos;
                    rest &= rest - 1;
                    cx.origin = h;
                    if self.on_track(player, dir, h) && self.forbidding(&cx, h, 0, 0).is_none() {
                        legal |= 1 << h;
                    }
                }
                list.set_entries(way, legal);
            }
            return list;
        }
        for (way, &dir) in ways.iter().enumerate() {
            let Some(mut cx) = self.entry_context(entry, player, dir) else {
                continue;
            };
            let mut sizes_legal = 0 as Mask;
            for k in 0..sizes {
                cx.entered = base + k;
                if self.forbidding(&cx, cx.origin, 0, 0).is_none() {
                    sizes_legal |= 1 << k;
                }
            }
            list.set_entries(way, sizes_legal);
            list.set_entry_at(way, cx.origin);
        }
        list
    }

    /// The sizes `player` may enter now by the entry's condition and size, read in the rules'
    /// way before any legality clause: the fewest and how many in a row (from one to the most,
    /// at most [`MAX_ENTRY_CHOICES`], where the mover chooses; else the one size). None when
    /// the mover holds nothing or the entry does not apply.
    fn entry_sizes(&self, entry: &compile::EntryProgram, player: Player) -> Option<(u16, u16)> {
        let rules = &*self.rules;
        let held = self.pos.held(rules, player);
        let cx = Cx::new(rules, self.tables_of(rules.direction), player, self.starter);
        if held == 0 || !(entry.when)(&cx, &self.pos) {
            return None;
        }
        let most = (entry.seeds)(&cx, &self.pos).clamp(0, i64::from(held.min(MAX_SEEDS)));
        let most = u16::try_from(most).ok().filter(|&m| m > 0)?;
        Some(if entry.choose {
            (1, most.min(MAX_ENTRY_CHOICES as u16))
        } else {
            (most, 1)
        })
    }

    /// The context of a move by `player` in `dir` before it starts, with no hole yet.
    fn move_context(&self, player: Player, dir: Dir) -> Cx<'_> {
        let mut cx = Cx::new(&self.rules, self.tables_of(dir), player, self.starter);
        cx.dir = dir;
        cx
    }

    /// The context of an entry by `player` in `dir` before it starts, with `origin` its start
    /// hole; None when the start is off the mover's circuit, or is the mover's to choose.
    fn entry_context(
        &self,
        entry: &compile::EntryProgram,
        player: Player,
        dir: Dir,
    ) -> Option<Cx<'_>> {
        let mut cx = self.move_context(player, dir);
        let start = match &entry.start {
            compile::StartFrom::Hole(start) => start(&cx, &self.pos),
            // Each start is the mover's to choose; the listing tries them one by one.
            compile::StartFrom::Chosen(_) => NO_HOLE,
        };
        self.on_track(player, dir, start).then(|| {
            cx.origin = start;
            cx
        })
    }

    /// The moves of `list` (the legal moves of `player` by the legality clauses) that the
    /// preferences keep: each preference that applies, in order, keeps only the moves with
    /// its property when some move has it. Also returns the last preference that left a move
    /// out. (Out of line: most rules have no preference.)
    #[inline(never)]
    fn preferred(&self, player: Player, mut list: MoveList) -> (MoveList, Option<ClauseId>) {
        let mut by = None;
        for p in &self.program.prefer {
            let cx = Cx::new(
                &self.rules,
                self.tables_of(self.rules.direction),
                player,
                self.starter,
            );
            if !(p.when)(&cx, &self.pos) {
                continue;
            }
            // Per direction of the list: (its mask, the direction its moves are sown).
            let ways = if list.choose() {
                [(list.mask, Dir::Ccw), (list.cw, Dir::Cw)]
            } else {
                [(list.mask, list.fixed()), (0, list.fixed())]
            };
            let mut kept = [0 as Mask; 2];
            let mut kept_entries = [0 as Mask; 2];
            for (way, ((mask, dir), kept)) in ways.into_iter().zip(&mut kept).enumerate() {
                let mut cx = self.move_context(player, dir);
                let mut rest = mask;
                while rest != 0 {
                    // Below 64: a bit of the mask.
                    let h = rest.trailing_zeros() as Pos;
                    rest &= rest - 1;
                    cx.origin = h;
                    let holds = (p.holds)(&cx, &self.pos)
                        && p.holds_after
                            .as_ref()
                            .is_none_or(|after| self.holds_after(&cx, h, after));
                    if holds {
                        *kept |= 1 << h;
                    }
                }
                // The entries of this direction, each size tried from its start.
                let entries = list.entries.get(way).copied().unwrap_or_default();
                if entries != 0 {
                    let at = list.entries_at();
                    for k in (0..Mask::BITS as usize).filter(|&k| size_bit(entries, k)) {
                        // Bit k: a start the mover chooses (one size), or a size.
                        let (start, entered) = if at {
                            (k as Pos, list.entry_base())
                        } else {
                            (
                                list.entry_at(way),
                                list.entry_base().saturating_add(k as u16),
                            )
                        };
                        cx.origin = start;
                        cx.entered = entered;
                        let holds = (p.holds)(&cx, &self.pos)
                            && p.holds_after
                                .as_ref()
                                .is_none_or(|after| self.holds_after(&cx, start, after));
                        if holds && let Some(w) = kept_entries.get_mut(way) {
                            *w |= 1 << k;
                        }
                    }
                    cx.entered = 0;
                }
            }
            let [first, second] = kept;
            let some_kept = first != 0 || second != 0 || kept_entries != [0; 2];
            let all_kept =
                first == ways[0].0 && second == ways[1].0 && kept_entries == list.entries;
            if some_kept && !all_kept {
                list.mask = first;
                list.cw = if list.choose() { second } else { 0 };
                list.set_entries(0, kept_entries[0]);
                list.set_entries(1, kept_entries[1]);
                by = Some(p.id);
            }
        }
        (list, by)
    }

    /// The open holes holding seeds that `player` may sow from: their own, or any hole where
    /// the rules say so (`from_any`).
    #[inline(always)]
    fn open_sown(&self, player: Player) -> Mask {
        let holes = self.rules.geometry.holes_mask.get(usize::from(player));
        self.pos.sown() & (holes.copied().unwrap_or(0) | self.from_any) & !self.pos.closed
    }

    /// The tables of a direction.
    #[inline(always)]
    fn tables_of(&self, dir: Dir) -> &Tables {
        tables_for(&self.tables, dir)
    }

    /// The holes `player` may sow from in direction `dir`, by the legality clauses.
    fn legal_by_clauses(&self, player: Player, dir: Dir) -> Mask {
        // Clauses whose `when` reads no hole apply to every hole or to none: tried once.
        let rules = &*self.rules;
        let mut off = self.dead_legal;
        let mut on = 0u64;
        let fixed = self.fixed_when & !off;
        let mut cx = Cx::new(rules, self.tables_of(dir), player, self.starter);
        cx.dir = dir;
        if fixed != 0 {
            for (i, rule) in self.program.legal.iter().enumerate().take(64) {
                if fixed & (1 << i) != 0 {
                    if (rule.when)(&cx, &self.pos) {
                        on |= 1 << i;
                    } else {
                        off |= 1 << i;
                    }
                }
            }
        }
        // When every clause is known not to apply (the usual case: most rulesets have no
        // legality clause, or only ones whose `when` is off now), a hole is legal exactly when
        // it is open and not empty. This skips the per-hole clause loop, the most frequent work
        // of a playout.
        let n = rules.legal.len();
        let open = self.open_sown(player);
        if n < 64 && off == (1u64 << n) - 1 {
            return open;
        }
        // Otherwise the clauses are tried on the open holes holding seeds, in one context.
        let mut mask = open;
        let mut rest = open;
        while rest != 0 {
            let h = rest.trailing_zeros() as Pos;
            rest &= rest - 1;
            cx.origin = h;
            if self.forbidding(&cx, h, off, on).is_some() {
                mask &= !(1 << h);
            }
        }
        mask
    }

    /// Why `player` may not play `mv` now, or None if they may. (Cold: `play` calls it only
    /// for an illegal move, and it would otherwise weigh on the layout of every ply.)
    #[cold]
    pub fn why_illegal(&self, player: Player, mv: impl Into<Move>) -> Option<String> {
        let mv = mv.into();
        let g = &self.rules.geometry;
        let h = mv.hole;
        self.illegality(player, mv).map(|why| match why {
            Illegality::Pass => "passing is not a move now: a player passes only when they cannot sow and the rules let them wait, or to decline an extra turn the rules make optional".to_string(),
            Illegality::MustPass => "the player to move cannot sow: they pass".to_string(),
            Illegality::MustDecide(id) if self.program.is_relay(id) => format!(
                "the move stopped where the rule {} would relay, which the mover may do or not: answer continue or stop",
                self.rule_words(id)
            ),
            Illegality::MustDecide(id) => format!(
                "the move stopped at the capture {}, which the mover may make or not: answer take or leave",
                self.rule_words(id)
            ),
            Illegality::MustChoose(id) => format!(
                "the move stopped at the capture {}, where the mover chooses a hole: answer {}",
                self.rule_words(id),
                self.moves.iter().map(|m| m.label(&self.rules)).collect::<Vec<_>>().join(", ")
            ),
            Illegality::MustArrange(id) => format!(
                "{} is arranging their seeds before play ({}): put one they hold into a hole (s3+), pick one up (s3-), or pass where the rules let them stop",
                self.rules.player_title(player),
                self.rule_words(id)
            ),
            Illegality::NoArrangement => "nobody is arranging seeds now: s3+ and s3- are moves of an arrangement (before play, or at a round's start where the rules have one)".to_string(),
            Illegality::NotDone(id) => format!(
                "the rule {} does not let {} end their arrangement now",
                self.rule_words(id),
                self.rules.player_title(player)
            ),
            Illegality::NothingHeld => format!(
                "{} holds no seed to put",
                self.rules.player_title(player)
            ),
            Illegality::NoPieceHeld => format!(
                "{} holds no {} to put",
                self.rules.player_title(player),
                crate::render::piece_name(&self.rules)
            ),
            Illegality::NoRace => "the rules have no race: a ruleset makes each round's first ply a race with `[race]`".to_string(),
            Illegality::RaceNotNow => "the race is each round's first ply, made once: it is not the round's first ply now".to_string(),
            Illegality::MustRace => "the round's first ply is the race: every player sows at once, written `race`".to_string(),
            Illegality::MustChooseStart => format!(
                "{} chooses the hole they race from: answer {}",
                self.rules.player_title(player),
                self.moves.iter().map(|m| m.label(&self.rules)).collect::<Vec<_>>().join(", ")
            ),
            Illegality::StartNotNow => {
                "the race's starts are set: the race is due, written `race`".to_string()
            }
            Illegality::NoStart => format!(
                "{} is not a hole {} may race from: answer {}",
                g.label(h),
                self.rules.player_title(player),
                self.moves.iter().map(|m| m.label(&self.rules)).collect::<Vec<_>>().join(", ")
            ),
            Illegality::NoSwap => "the rules have no pie rule: a ruleset offers `swap` with `[turns] swap = true`".to_string(),
            Illegality::SwapNotNow => "the pie rule offers `swap` once: at the first turn of the player who did not make the round's first ply, before they move".to_string(),
            Illegality::ConcedeNotNow => "only the player to move may concede, while the game is in play".to_string(),
            Illegality::NoConcede => "the rules let nobody concede: a ruleset says what conceding does with `[end] concede`".to_string(),
            Illegality::NoDecision => "there is nothing to decide: take and leave answer a capture the rules make optional, continue and stop a relay, choose:HOLE a capture whose hole the mover chooses, where a move stopped for it".to_string(),
            Illegality::NoDirection => format!(
                "the mover chooses the direction: write {0}:ccw or {0}:cw",
                Move { dir: None, ..mv }.label(&self.rules)
            ),
            Illegality::FixedDirection => format!(
                "the rules sow {}: the direction is not the mover's to choose",
                self.rules.direction.word()
            ),
            Illegality::NotOwn => format!("{} is not a hole of the player to move", g.label(h)),
            Illegality::NoEntry => "the rules enter no seeds: a move sows a hole of the mover's".to_string(),
            Illegality::EntryNotNow => format!(
                "the rule {} lets no seeds be entered now",
                self.program.entry.as_ref().map_or_else(String::new, |e| self.rule_words(e.id))
            ),
            Illegality::EntryStart => format!(
                "{} is not a hole this entry may start in now: the legal moves are {}",
                g.label(h),
                self.moves.iter().filter(|m| m.is_entry()).map(|m| m.label(&self.rules)).collect::<Vec<_>>().join(", ")
            ),
            Illegality::EntryStartFixed => {
                "the rules name the hole the entry starts in: write the entry without a hole, as +3".to_string()
            }
            Illegality::EntrySize { most, choose: true } => format!(
                "at most {most} seeds can be entered now: write +1 to +{most}"
            ),
            Illegality::EntrySize { most, choose: false } => {
                if (self.rules.entry.as_ref()).is_some_and(|e| e.start.is_chosen()) {
                    format!(
                        "the rules enter {most} seeds now, from a hole the mover chooses: write +{most}@ and the hole, as +{most}@s3"
                    )
                } else {
                    format!("the rules enter {most} seeds now: write +{most}")
                }
            }
            Illegality::Closed => format!("{} is closed", g.label(h)),
            Illegality::Empty => format!("{} is empty", g.label(h)),
            Illegality::Preferred(id) => {
                format!(
                    "the rule {} prefers other moves to {}: {}",
                    self.rule_words(id),
                    mv.label(&self.rules),
                    (self.preferred(player, self.allowed_for(player)).0)
                        .iter()
                        .map(|m| m.label(&self.rules))
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            }
            Illegality::Rule(id) => {
                format!("the rule {} forbids {}", self.rule_words(id), mv.label(&self.rules))
            }
        })
    }

    /// A clause as messages name it: `"keep your direction" (KT-3)`.
    fn rule_words(&self, id: ClauseId) -> String {
        let clause = self.rules.clause(id);
        match clause.cites.as_deref() {
            Some(c) => format!("\"{}\" ({c})", clause.name),
            None => format!("\"{}\"", clause.name),
        }
    }

    /// Why `player` may not play `mv` now, without building the message (no allocation).
    fn illegality(&self, player: Player, mv: Move) -> Option<Illegality> {
        let rules = &*self.rules;
        let g = &rules.geometry;
        if mv.is_concede() {
            // In any phase, at the player's turn, where the rules let players concede.
            return if rules.concede.is_none() {
                Some(Illegality::NoConcede)
            } else if player != self.pos.to_move || self.is_over() {
                Some(Illegality::ConcedeNotNow)
            } else {
                None
            };
        }
        if mv.decision == Some(Decision::Race) {
            return if rules.race.is_none() {
                Some(Illegality::NoRace)
            } else if player != self.pos.to_move || !self.pos.offer.racing() || self.is_over() {
                Some(Illegality::RaceNotNow)
            } else if mv.hole == NO_HOLE && !self.pos.offer.is_race() {
                Some(Illegality::MustChooseStart)
            } else if mv.hole != NO_HOLE && self.pos.offer.is_race() {
                Some(Illegality::StartNotNow)
            } else if mv.hole != NO_HOLE && !self.moves.contains(mv) {
                Some(Illegality::NoStart)
            } else {
                None
            };
        }
        if self.pos.offer.racing()
            && player == self.pos.to_move
            && !self.is_over()
            && self.unlisted_legal(mv).is_none()
        {
            return Some(if self.pos.offer.is_race() {
                Illegality::MustRace
            } else {
                Illegality::MustChooseStart
            });
        }
        if mv.is_swap() {
            return if rules.swap.is_none() {
                Some(Illegality::NoSwap)
            } else if player != self.pos.to_move || !self.moves.swaps() || self.is_over() {
                Some(Illegality::SwapNotNow)
            } else {
                None
            };
        }
        if player == self.pos.to_move && self.unlisted_legal(mv).is_some() {
            // Written with no direction where only one is legal: `play` reads it so.
            return None;
        }
        if let Some(pending) = self.pos.offer.stopped()
            && player == self.pos.to_move
        {
            // The decision listed, or else the one the stop asks for.
            let why = if self.moves.chooses() {
                Illegality::MustChoose(pending.clause)
            } else {
                Illegality::MustDecide(pending.clause)
            };
            return (!self.moves.contains(mv)).then_some(why);
        }
        if let (Offer::Arrange { .. }, Some(arrange)) = (self.pos.offer, &self.program.arrange)
            && player == self.pos.to_move
        {
            return self.arrangement_illegality(mv, arrange.id);
        }
        if mv.place.is_some() {
            return Some(Illegality::NoArrangement);
        }
        if mv.decision.is_some() {
            return Some(Illegality::NoDecision);
        }
        let passing = self.moves.pass() && player == self.pos.to_move;
        if passing && self.moves.len() == 1 {
            return (!mv.is_pass()).then_some(Illegality::MustPass);
        }
        if mv.is_pass() {
            // A pass is legal where it is listed: declining an optional extra turn.
            return (!passing).then_some(Illegality::Pass);
        }
        let dir = match (rules.choose_direction, mv.dir) {
            (true, None) => {
                // Illegal both ways for one reason (an empty hole, say): that reason, rather
                // than a request for a direction that would not help.
                let [ccw, cw] = [Dir::Ccw, Dir::Cw]
                    .map(|d| self.illegality(player, Move { dir: Some(d), ..mv }));
                return match (ccw, cw) {
                    (Some(a), Some(b)) if a == b => Some(a),
                    _ => Some(Illegality::NoDirection),
                };
            }
            (false, Some(d)) if d != rules.direction => return Some(Illegality::FixedDirection),
            (_, d) => d.unwrap_or(rules.direction),
        };
        if mv.is_entry() {
            return self.entry_illegality(player, mv, dir);
        }
        let h = mv.hole;
        if !g.is_hole(h) || (g.owner_of(h) != player && self.from_any & bit(h) == 0) {
            return Some(Illegality::NotOwn);
        }
        if self.pos.closed & bit(h) != 0 {
            return Some(Illegality::Closed);
        }
        if self.pos.seeds(h) == 0 {
            return Some(Illegality::Empty);
        }
        let mut cx = Cx::new(rules, self.tables_of(dir), player, self.starter);
        cx.dir = dir;
        cx.origin = h;
        self.judged(player, mv, &cx, h)
    }

    /// Why the player to move, arranging their seeds under the clause `id`, may not play
    /// `mv`: the listing's tests, in its order.
    fn arrangement_illegality(&self, mv: Move, id: crate::rules::ClauseId) -> Option<Illegality> {
        if self.moves.contains(mv) {
            return None;
        }
        let h = mv.hole;
        Some(match mv.place {
            None if mv.is_pass() => Illegality::NotDone(id),
            None => Illegality::MustArrange(id),
            Some(_) if self.pos.closed & bit(h) != 0 => Illegality::Closed,
            Some(Place::Pick) if self.pos.seeds(h) == 0 => Illegality::Empty,
            Some(Place::Put) if self.pos.held(&self.rules, self.pos.to_move) == 0 => {
                Illegality::NothingHeld
            }
            Some(Place::Piece)
                if self
                    .rules
                    .piece_slots()
                    .held_by(&self.pos, self.pos.to_move)
                    == 0 =>
            {
                Illegality::NoPieceHeld
            }
            Some(_) => Illegality::Rule(id),
        })
    }

    /// What the legality clauses and the preferences say of `mv`, tried from `h` in `cx` (the
    /// move's context before it starts): the clause that forbids it or the preference that
    /// leaves it out, if any.
    fn judged(&self, player: Player, mv: Move, cx: &Cx<'_>, h: Pos) -> Option<Illegality> {
        if let Some(id) = self.forbidding(cx, h, 0, 0) {
            return Some(Illegality::Rule(id));
        }
        if self.program.prefer.is_empty() {
            return None;
        }
        // Allowed on its own: a preference may still leave it out for another move.
        let (preferred, by) = self.preferred(player, self.allowed_for(player));
        match by {
            Some(id) if !preferred.contains(mv) => Some(Illegality::Preferred(id)),
            _ => None,
        }
    }

    /// Whether `h` is on `player`'s circuit in `dir` (closed or not): where an entry may start.
    fn on_track(&self, player: Player, dir: Dir, h: Pos) -> bool {
        let lane = self.tables_of(dir).lanes.get(usize::from(player));
        lane.and_then(|l| l.entry.get(usize::from(h)))
            .is_some_and(|&k| k != OFF_TRACK)
    }

    /// Why `player` may not enter `mv.entered` seeds in `dir` now, or None if they may: the
    /// listing's tests, in its order.
    fn entry_illegality(&self, player: Player, mv: Move, dir: Dir) -> Option<Illegality> {
        let Some(entry) = &self.program.entry else {
            return Some(Illegality::NoEntry);
        };
        let Some((base, sizes)) = self.entry_sizes(entry, player) else {
            return Some(Illegality::EntryNotNow);
        };
        if !(base..base + sizes).contains(&mv.entered) {
            return Some(Illegality::EntrySize {
                most: base + sizes - 1,
                choose: entry.choose,
            });
        }
        if let compile::StartFrom::Chosen(starts) = &entry.start {
            // A start the mover chooses: one of the set, on their circuit.
            let mut cx = self.move_context(player, dir);
            let h = mv.hole;
            let among = starts(&cx, &self.pos) & bit(h) != 0;
            if !among || !self.on_track(player, dir, h) {
                return Some(Illegality::EntryStart);
            }
            cx.origin = h;
            cx.entered = mv.entered;
            return self.judged(player, mv, &cx, h);
        }
        if mv.hole != NO_HOLE {
            return Some(Illegality::EntryStartFixed);
        }
        let Some(mut cx) = self.entry_context(entry, player, dir) else {
            return Some(Illegality::EntryNotNow);
        };
        cx.entered = mv.entered;
        self.judged(player, mv, &cx, cx.origin)
    }

    /// The first legality clause that forbids sowing from `h`, an open hole of the mover
    /// holding seeds; `cx` is the move's context before it starts. The clauses of the mask
    /// `off` are known not to apply, those of `on` to apply (their `when` is not tried again).
    fn forbidding(&self, cx: &Cx<'_>, h: Pos, off: u64, on: u64) -> Option<ClauseId> {
        for (i, program) in self.program.legal.iter().enumerate() {
            let known = |mask: u64| i < 64 && mask & (1 << i) != 0;
            if known(off) || !(known(on) || (program.when)(cx, &self.pos)) {
                continue;
            }
            let after_ok = || match &program.require_after {
                Some(after) => self.holds_after(cx, h, after),
                None => true,
            };
            if !(program.require)(cx, &self.pos) || !after_ok() {
                return Some(program.id);
            }
        }
        None
    }

    /// Whether `after` holds once the move from `h` is played out on a copy. (Kept out of
    /// line: the move's set-up would otherwise weigh on every legality test.)
    #[inline(never)]
    fn holds_after(&self, cx: &Cx<'_>, h: Pos, after: &compile::Cond) -> bool {
        let mut copy = self.pos;
        let mut moved = *cx;
        self.mover(cx.mover, h, cx.dir, cx.entered)
            .run(&mut copy, &mut moved, &self.pos, &mut ());
        after(&moved, &copy)
    }

    /// Whether some legal move of some player would capture, each played out on a copy of
    /// the position (for `[end] no_capture`; out of line, as few rules have it).
    #[inline(never)]
    fn some_move_captures(&self) -> bool {
        let seats = self.rules.geometry.players();
        seats
            .filter(|&p| self.pos.out & (1 << p) == 0)
            .any(|player| {
                let list = self.legal_for(player);
                list.iter().any(|mv| {
                    let mover = self.mover_of(player, &list, mv);
                    let (mut copy, mut cx) = (self.pos, mover.context());
                    let run = mover.run(&mut copy, &mut cx, &self.pos, &mut ());
                    // A capture on offer (optional) is a capture the move can make; a relay on
                    // offer counts as one too, the laps it may lead to not followed.
                    cx.move_captures > 0 || run.stopped
                })
            })
    }

    /// Whether a capture can follow (for `[end] no_further_capture`): the play to come is
    /// followed on a copy of the position while it is forced. True as soon as a move of that
    /// play captures, or a player would have a choice; false when it comes, without a
    /// capture, to a player with no move, an endless move, an ending of `[[end.when]]`, or a
    /// position it has met before (found exactly by Brent's method, on copies: no history and
    /// no allocation). The game itself is left as it was.
    ///
    /// The forced moves found before that capture or choice are the game's next plies, so
    /// they are not followed again: `forced_ahead` counts them down, and the next walk starts
    /// where this one stopped. A game's walks thus cost about one move per ply in all.
    #[inline(never)]
    fn capture_can_follow(&mut self) -> bool {
        if self.forced_ahead > 0 {
            self.forced_ahead -= 1;
            return true;
        }
        let saved = self.pos;
        let ahead = self.forced_play_captures();
        self.pos = saved;
        // A swap on the way turned the closed holes.
        self.use_tables(saved.closed);
        self.forced_ahead = ahead.unwrap_or(0);
        ahead.is_some()
    }

    /// Whether some play to come, by any legal moves and passes, captures (for `[end]
    /// no_capture_reachable`): the positions reachable within the round are searched breadth
    /// first on copies, each once (kept in a set, so the search is exact and ends), until a
    /// move captures. A line of play stops at a player with no move and no pass, a move whose
    /// laps never end, or an ending of `[[end.when]]`. A move that would reach an engine limit,
    /// or a search past [`crate::rules::MAX_REACHED`] positions, gives no verdict: a capture
    /// may follow. The game itself is left as it was. Out of line: few rules have it.
    #[inline(never)]
    fn capture_reachable(&mut self) -> bool {
        let saved = self.pos;
        let mut reach = std::mem::take(&mut self.reach);
        if reach.seen.capacity() == 0 {
            // Room for the searches of most games, made once: a search that needs more grows
            // it (random games of Adi reach about 3,000 positions at most).
            reach.seen.reserve(REACH_ROOM);
            reach.frontier.reserve(REACH_ROOM);
        }
        reach.seen.clear();
        reach.frontier.clear();
        reach.seen.insert(saved);
        reach.frontier.push_back(saved);
        let found = self.search_captures(&mut reach);
        self.reach = reach;
        self.pos = saved;
        // A swap on the way turned the closed holes.
        self.use_tables(saved.closed);
        found
    }

    /// The search of [`Game::capture_reachable`], from the positions of `reach.frontier`.
    fn search_captures(&mut self, reach: &mut Reach) -> bool {
        while let Some(from) = reach.frontier.pop_front() {
            if reach.seen.len() > crate::rules::MAX_REACHED {
                return true;
            }
            self.pos = from;
            // Positions after a swap have their closed holes turned.
            self.use_tables(from.closed);
            let player = from.to_move;
            let list = self.moves_of(player);
            for mv in list.iter() {
                self.pos = from;
                if mv.is_pass() {
                    // A forced pass, or declining an extra turn.
                    self.close_pass(player);
                    self.reached(reach, self.rules.direction);
                    continue;
                }
                if mv.is_swap() {
                    self.swap_sides(player);
                    self.reached(reach, self.rules.direction);
                    continue;
                }
                match self.forced_move(player, &list, mv) {
                    Forced::Captures | Forced::Limit => return true,
                    Forced::Endless => {}
                    Forced::Then(pos, dir, again) => {
                        self.pos = pos;
                        self.close_move(player, again);
                        self.reached(reach, dir);
                    }
                }
            }
        }
        false
    }

    /// The search of [`Game::capture_reachable`] has reached `self.pos` after a move in `dir`
    /// (or a pass): it is searched on unless an ending of `[[end.when]]` holds there or it has
    /// been met before.
    fn reached(&self, reach: &mut Reach, dir: Dir) {
        if self.condition_ending(self.pos.to_move, dir).is_some() {
            return;
        }
        if reach.seen.insert(self.pos) {
            reach.frontier.push_back(self.pos);
        }
    }

    /// The walk of [`Game::capture_can_follow`], on `self.pos`, which it changes: the forced
    /// moves (and passes) made before a capture or a choice, or `None` when no capture follows.
    fn forced_play_captures(&mut self) -> Option<u64> {
        let mut watch = Brent::new(self.pos, 1);
        let mut walked = 0u64;
        loop {
            // Past the engine's ply limit the game stops anyway, with no result: the walk
            // stops there too, as if a capture could follow.
            if u64::from(self.ply) + walked >= u64::from(crate::rules::MAX_PLIES) {
                return Some(walked);
            }
            let player = self.pos.to_move;
            let list = self.moves_of(player);
            let mut moves = list.iter();
            let (first, second) = (moves.next(), moves.next());
            let dir = match (first, second) {
                (Some(_), Some(_)) => return Some(walked),
                (Some(mv), None) if mv.is_pass() => {
                    // A forced pass, or an extra turn the mover may only decline.
                    self.close_pass(player);
                    self.rules.direction
                }
                (Some(mv), None) if mv.is_swap() => {
                    // The pie rule's swap, by a player who has nothing else to do.
                    self.swap_sides(player);
                    self.rules.direction
                }
                (None, _) => return None,
                (Some(mv), None) => {
                    let (pos, dir, again) = match self.forced_move(player, &list, mv) {
                        Forced::Captures => return Some(walked),
                        Forced::Endless => return None,
                        // The game would stop at the engine's limit there, with no result.
                        Forced::Limit => return Some(walked),
                        Forced::Then(pos, dir, again) => (pos, dir, again),
                    };
                    self.pos = pos;
                    self.close_move(player, again);
                    dir
                }
            };
            if self.condition_ending(self.pos.to_move, dir).is_some() {
                return None;
            }
            walked += 1;
            // The same position again: the forced play goes round for ever without capturing.
            let now = &self.pos;
            if watch.repeats(|saved| saved == now, || *now).is_some() {
                return None;
            }
        }
    }

    /// The one legal move `mv` of `player` in the forced play of [`Game::capture_can_follow`],
    /// made on a copy of the position as a ply makes it (without trace or history).
    fn forced_move(&self, player: Player, list: &MoveList, mv: Move) -> Forced {
        let mover = self.mover_of(player, list, mv);
        let (mut pos, mut cx) = (self.pos, mover.context());
        if self.track_turn_sowings {
            pos.turn_sowings = pos.turn_sowings.saturating_add(1);
        }
        // The move's start as a ply keeps it, to replay an endless move from.
        let start = pos;
        let run = mover.run(&mut pos, &mut cx, &start, &mut ());
        if cx.move_captures > 0 || run.stopped {
            // A capture made, or a decision on offer (a capture or a relay): a choice, so
            // play goes on.
            return Forced::Captures;
        }
        if run.limit.is_some() {
            return Forced::Limit;
        }
        if run.endless.is_some() {
            return Forced::Endless;
        }
        if self.track_first_move {
            pos.moved |= 1 << player;
        }
        let again = (self.program.extra_turns.iter())
            .find(|(_, when, _)| when(&cx, &pos))
            .map(|&(_, _, optional)| optional);
        Forced::Then(pos, cx.dir, again)
    }

    /// What follows a move of `mover` (not a pass): the turn stays with the mover (`again`,
    /// an extra turn, `Some(true)` where they may decline it) or passes on, and what lasts a
    /// move or a turn is reset, so that it neither shows in nor tells apart the positions
    /// between plies. Returns the player to move.
    #[inline(always)]
    fn close_move(&mut self, mover: Player, again: Option<bool>) -> Player {
        // Written whatever the rules (a store is cheaper than a test of whether they can
        // decline a turn: BENCHMARKS.md 5.12).
        self.pos.offer = if again == Some(true) {
            Offer::Decline
        } else {
            Offer::Sow
        };
        let next = if again.is_some() {
            mover
        } else {
            self.pos.turn_sowings = 0;
            self.next_seat(mover)
        };
        if self.vars_by_move {
            reset_vars(&self.rules, &mut self.pos, |s| s == VarScope::Move);
        }
        // Where the turn passes: what lasts a turn is reset, and the pie rule offers `swap`
        // where it waits for this player. (One test for both, in the shape the reset alone
        // had: a separate test, or a call out of line, cost every game 8 to 10 instructions a
        // ply.)
        if next != mover && self.turn_hook {
            reset_vars(&self.rules, &mut self.pos, |s| s == VarScope::Turn);
            self.pos.to_move = next;
            self.offer_swap(Some(mover));
        }
        self.pos.to_move = next;
        next
    }

    /// Where the turn has passed from `mover` (or play begins after an arrangement, `None`):
    /// if the round's first ply was `mover`'s, the pie rule no longer waits for them; and it
    /// offers `swap` to the player to move where it waits for them alone and they are to sow
    /// (not arrange, nor decide).
    fn offer_swap(&mut self, mover: Option<Player>) {
        if self.rules.swap.is_none() {
            return;
        }
        if let Some(m) = mover {
            self.pos.first_ply_by(m);
        }
        let (due, both) = (SWAP_DUE << (self.pos.to_move & 1), SWAP_DUE | SWAP_DUE << 1);
        let waits = self.pos.moved & both;
        if waits == due && matches!(self.pos.offer, Offer::Sow) {
            self.pos.offer = Offer::Swap;
            self.pos.moved &= !both;
        }
    }

    /// What follows a pass of `mover`: the turn passes on, and what lasts a turn is reset.
    /// Returns the player to move.
    fn close_pass(&mut self, mover: Player) -> Player {
        let next = self.next_seat(mover);
        self.turn_to(next);
        self.offer_swap(Some(mover));
        next
    }

    /// The turn goes to `next`, to sow, after a ply that sowed nothing of the turn's (a pass,
    /// a swap, the race): what lasts a turn starts afresh.
    fn turn_to(&mut self, next: Player) {
        self.pos.turn_sowings = 0;
        self.pos.offer = Offer::Sow;
        if self.vars_by_turn {
            reset_vars(&self.rules, &mut self.pos, |s| s == VarScope::Turn);
        }
        self.pos.to_move = next;
    }

    /// The player whose turn follows `p`'s: the next in turn order still in the match.
    #[inline(always)]
    fn next_seat(&self, p: Player) -> Player {
        let seats = self.rules.geometry.seats;
        if seats == 2 {
            return p ^ 1;
        }
        following(seats, self.pos.out, p)
    }

    /// Whether a player other than `p`, still in the match, has a legal move.
    fn another_can_move(&self, p: Player) -> bool {
        let seats = self.rules.geometry.players();
        seats
            .filter(|&q| q != p && self.pos.out & (1 << q) == 0)
            .any(|q| !self.legal_for(q).is_empty())
    }

    /// What each player holds (store or reserve).
    fn scores(&self) -> [u32; MAX_SEATS] {
        let mut scores = [0; MAX_SEATS];
        for (p, score) in self.rules.geometry.players().zip(&mut scores) {
            *score = self.pos.held(&self.rules, p);
        }
        scores
    }

    fn mover(&self, player: Player, origin: Pos, dir: Dir, entered: u16) -> Mover<'_> {
        Mover {
            rules: &self.rules,
            program: &self.program,
            tables: self.tables_of(dir),
            back: self.tables_of(dir.reversed()),
            dir,
            player,
            starter: self.starter,
            origin,
            entered,
        }
    }

    /// The mover of `mv`, a move of `list` (the legal moves of `player`): an entry starts
    /// in the hole the list names for its direction.
    fn mover_of(&self, player: Player, list: &MoveList, mv: Move) -> Mover<'_> {
        let dir = mv.dir.unwrap_or(self.rules.direction);
        self.mover(player, list.start_of(mv), dir, mv.entered)
    }

    /// Plays one ply: the player to move plays `mv` (a hole, `Move::towards` a hole in a
    /// direction the mover chooses, or `Move::PASS`).
    ///
    /// Inlined into its callers: a playout's loop then keeps the game's fields in registers
    /// across the ply instead of saving and restoring them around a call.
    #[inline(always)]
    pub fn play<T: Tracer>(
        &mut self,
        mv: impl Into<Move>,
        tracer: &mut T,
    ) -> Result<PlyReport, MoveError> {
        let mut mv = mv.into();
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let mover = self.pos.to_move;
        // The legal moves were listed when this position was settled.
        if !self.moves.contains(mv) {
            match self.unlisted_legal(mv) {
                Some(legal) => mv = legal,
                None => {
                    let reason = self.why_illegal(mover, mv).unwrap_or_default();
                    return Err(MoveError::Illegal { mv, reason });
                }
            }
        }
        if (mv.hole == NO_HOLE && !mv.is_entry()) || mv.place.is_some() || mv.decision.is_some() {
            // No sowing: a pass, a decision at a stopped move, or a seed placed in an
            // arrangement (out of line).
            return self.play_other(mv, tracer);
        }
        // An entry starts in the hole its listing named.
        let h = self.moves.start_of(mv);
        let dir = mv.dir.unwrap_or(self.rules.direction);
        self.ply += 1;
        if T::EVENTS {
            tracer.event(Event::Move {
                ply: self.ply,
                player: mover,
                hole: h,
                dir: mv.dir,
                entered: mv.entered,
            });
        }
        if self.track_turn_sowings {
            self.pos.turn_sowings = self.pos.turn_sowings.saturating_add(1);
        }
        // The move's start: the position to record in the cycle history if the move banks
        // nothing, and the start to replay an endless move from (only rules that relay can
        // make one).
        if self.history.is_pending() || self.can_relay {
            self.move_start.copy_from(&self.pos, self.history.blocks());
        }
        let [ccw, cw] = &self.tables;
        let move_of = Mover {
            rules: &self.rules,
            program: &self.program,
            tables: match dir {
                Dir::Ccw => ccw,
                Dir::Cw => cw,
            },
            back: match dir {
                Dir::Ccw => cw,
                Dir::Cw => ccw,
            },
            dir,
            player: mover,
            starter: self.starter,
            origin: h,
            entered: mv.entered,
        };
        // The move's context, kept for the clauses read after it.
        let mut cx = move_of.context();
        let run = move_of.run(&mut self.pos, &mut cx, &self.move_start, tracer);
        // After the run: an endless move's replay takes back the firings counted before it.
        if T::FIRINGS
            && mv.is_entry()
            && let Some(entry) = &self.program.entry
        {
            tracer.fired(entry.id);
        }
        // Read now, while the move's context stands (unused if the move did not end).
        let extra = self.extra_turn(&cx, &self.pos);
        self.after_run(mover, run, (extra, cx.dir), tracer)
    }

    /// `mv` as the list of legal moves holds it, where the notation lets it be written
    /// shorter: `s3` for its one legal direction (`s3:cw`), or, while the racers choose where
    /// they race from, for `race:s3`. Records and histories write that form.
    pub fn as_listed(&self, mv: Move) -> Move {
        if self.moves.contains(mv) {
            return mv;
        }
        self.unlisted_legal(mv).unwrap_or(mv)
    }

    /// A legal move that the list does not hold as written: `mv`, written with no direction
    /// where the mover chooses it, in the one direction that is legal for it, if only one is
    /// (there is nothing to choose, so `s3` stays valid); a hole alone, while the racers
    /// choose where they race from, as that choice (`race:s3`); or a concession, where the
    /// rules let players concede (legal, though never listed).
    #[cold]
    #[inline(never)]
    fn unlisted_legal(&self, mv: Move) -> Option<Move> {
        if mv.is_concede() {
            return self.rules.concede.is_some().then_some(mv);
        }
        if let Offer::RaceStart { .. } = self.pos.offer
            && mv == Move::sow(mv.hole)
        {
            // A hole alone where the mover chooses where to race from: that choice.
            let start = Move::race_from(mv.hole);
            return self.moves.contains(start).then_some(start);
        }
        if !self.rules.choose_direction
            || mv.dir.is_some()
            || mv.is_pass()
            || mv.place.is_some()
            || mv.decision.is_some()
        {
            return None;
        }
        let legal = [Dir::Ccw, Dir::Cw]
            .map(|d| Move { dir: Some(d), ..mv })
            .map(|m| self.moves.contains(m).then_some(m));
        match legal {
            [Some(m), None] | [None, Some(m)] => Some(m),
            _ => None,
        }
    }

    /// The extra-turn clause that fires after a move that ended in `pos` where `cx` stands, if
    /// any: its id, and whether the mover may decline the turn.
    #[inline(always)]
    fn extra_turn(&self, cx: &Cx<'_>, pos: &Position) -> Option<(ClauseId, bool)> {
        (self.program.extra_turns.iter())
            .find(|(_, when, _)| when(cx, pos))
            .map(|&(id, _, optional)| (id, optional))
    }

    /// What follows a move's run, or its run after the mover's decision: an endless move or
    /// a limit ends the round or play; a move stopped for a decision leaves it to the mover;
    /// a move that ended grants an extra turn or passes the turn on.
    #[inline(always)]
    fn after_run<T: Tracer>(
        &mut self,
        mover: Player,
        run: sow::MoveRun,
        (extra, dir): (Option<(ClauseId, bool)>, Dir),
        tracer: &mut T,
    ) -> Result<PlyReport, MoveError> {
        self.last_mover = mover;
        // A move stopped for a decision is not over: its rest is still the mover's first
        // move (`first_move`) where this is.
        if self.track_first_move && !run.stopped {
            self.pos.moved |= 1 << mover;
        }
        let mut report = PlyReport {
            laps: run.laps,
            ..PlyReport::default()
        };
        if run.endless.is_some() || run.limit.is_some() {
            report.round_over = true;
            // Seeds captured to be sown, still in hand when the move stopped, go back on the
            // board where the next lap would have sown them, so every ending counts them.
            let (at, hand) = run.hand;
            if hand > 0 {
                self.pos.set(at, self.pos.seeds(at).saturating_add(hand));
                if T::EVENTS {
                    tracer.event(Event::HandBack {
                        hole: at,
                        seeds: hand,
                    });
                }
            }
            if let Some(limit) = run.limit {
                // The engine's safety limit, not a rule: play stops with no result.
                report.lap_limit = true;
                report.limit = Some(limit);
                self.stop(limit, tracer);
            } else {
                report.endless = true;
                let next_up = self.next_seat(mover);
                self.end_round(
                    self.rules.endless_move,
                    EndCause::EndlessMove,
                    mover,
                    next_up,
                    tracer,
                );
            }
            return Ok(report);
        }
        if run.stopped {
            // The move waits for the mover's decision: no ending is read in the middle of a
            // move, and the mover plays again.
            return Ok(self.settle_ply(report, tracer));
        }
        if let Some((clause, optional)) = extra {
            if T::EVENTS {
                tracer.event(Event::ExtraTurn { clause, optional });
            }
            if T::FIRINGS {
                tracer.fired(clause);
            }
            report.extra_turn = true;
        }
        // What lasts a move or a turn is gone once it is over (after the extra-turn clauses
        // read it).
        let next = self.close_move(mover, extra.map(|(_, optional)| optional));
        self.between_plies(next, dir, report, tracer)
    }

    /// A ply that sows nothing (`mv` is legal): a pass, a decision at a stopped move, or a
    /// seed placed in an arrangement.
    #[inline(never)]
    fn play_other<T: Tracer>(&mut self, mv: Move, tracer: &mut T) -> Result<PlyReport, MoveError> {
        match mv.decision {
            // Legal where the rules let players concede (`Game::unlisted_legal`).
            Some(Decision::Concede) => Ok(self.concede(tracer)),
            Some(Decision::Swap) => self.swap(tracer),
            Some(Decision::Race) if mv.hole != NO_HOLE => Ok(self.choose_start(mv.hole, tracer)),
            Some(Decision::Race) => self.race(tracer),
            Some(decision) => self.decide(mv, decision, tracer),
            None if mv.place.is_some() => Ok(self.place(mv, tracer)),
            None => self.pass(tracer),
        }
    }

    /// A decision of the player to move on the capture their move stopped at: the move goes
    /// on from where it stopped.
    #[inline(never)]
    fn decide<T: Tracer>(
        &mut self,
        mv: Move,
        decision: Decision,
        tracer: &mut T,
    ) -> Result<PlyReport, MoveError> {
        let mover = self.pos.to_move;
        let Some(pending) = self.pos.offer.stopped() else {
            // Listed only where a move stopped.
            let reason = self.why_illegal(mover, mv).unwrap_or_default();
            return Err(MoveError::Illegal { mv, reason });
        };
        self.ply += 1;
        if T::EVENTS {
            tracer.event(Event::Decided {
                ply: self.ply,
                player: mover,
                decision,
                hole: mv.hole,
            });
        }
        if self.history.is_pending() {
            self.move_start.copy_from(&self.pos, self.history.blocks());
        }
        // The move goes on in a copy, the game's rules lent to it; the start of the laps
        // that follow is kept, should they never end.
        let (mut pos, mut start) = (self.pos, self.pos);
        let move_of = self.mover(mover, pending.origin, pending.dir, pending.entered);
        let mut cx = move_of.context();
        let run = move_of.go_on(
            &mut pos,
            &mut cx,
            (pending, decision, mv.hole),
            &mut start,
            tracer,
        );
        let (extra, dir) = (self.extra_turn(&cx, &pos), cx.dir);
        self.pos = pos;
        self.after_run(mover, run, (extra, dir), tracer)
    }

    /// A seed put into a hole or picked up from it, in the arrangement before play (`mv` is
    /// legal): then the clauses tried after a seed put.
    #[inline(never)]
    fn place<T: Tracer>(&mut self, mv: Move, tracer: &mut T) -> PlyReport {
        let (mover, h) = (self.pos.to_move, mv.hole);
        self.ply += 1;
        self.pos.first_ply_by(mover);
        self.idle.arranged(self.ply);
        let seeds = self.pos.seeds(h);
        let piece = mv.place == Some(Place::Piece);
        let put = mv.place == Some(Place::Put) || piece;
        if T::FIRINGS
            && let Some(arrange) = &self.program.arrange
        {
            tracer.fired(arrange.id);
        }
        if T::EVENTS {
            tracer.event(Event::Placed {
                ply: self.ply,
                player: mover,
                hole: h,
                put,
                piece,
            });
        }
        // The pieces already in the hole are covered by what is put on them, and uncovered
        // by a seed picked up (the one on top).
        let pieces = self.rules.piece_slots();
        for owner in 0..pieces.count() {
            if let Some(there) = pieces.get(&self.pos, owner).filter(|p| p.at == h) {
                let covered = if put {
                    there.covered.saturating_add(1)
                } else {
                    there.covered.saturating_sub(1)
                };
                pieces.set(&mut self.pos, owner, Piece { covered, ..there });
            }
        }
        if piece {
            // The mover's own piece first, then those they took, in turn order.
            let mut order = std::iter::once(mover).chain(0..pieces.count());
            let held = |&owner: &Player| {
                (pieces.get(&self.pos, owner)).is_some_and(|p| p.at == NO_HOLE && p.holder == mover)
            };
            if let Some(owner) = order.find(held) {
                let placed = Piece {
                    at: h,
                    holder: mover,
                    covered: 0,
                };
                pieces.set(&mut self.pos, owner, placed);
            }
            self.pos.set(h, seeds.saturating_add(1));
        } else if put {
            self.pos.debit(&self.rules, mover, 1);
            self.pos.set(h, seeds.saturating_add(1));
        } else {
            self.pos.set(h, seeds.saturating_sub(1));
            self.pos.credit(&self.rules, mover, 1);
        }
        // The clauses run on a copy, the game's rules lent to them.
        let mut pos = self.pos;
        let placer = self.mover(mover, h, self.rules.direction, 0);
        let mut cx = placer.context();
        placer.placed(&mut pos, &mut cx, (h, put), tracer);
        self.pos = pos;
        self.last_mover = mover;
        self.settle_arranging(tracer)
    }

    /// The end of a ply of the arrangement before play. An arrangement is the players'
    /// choice, before play: its positions are left out of the cycle history, no ending is
    /// read until play has begun, and a player who can do nothing more ends their
    /// arrangement (in [`Game::settle`]).
    #[inline(never)]
    fn settle_arranging<T: Tracer>(&mut self, tracer: &mut T) -> PlyReport {
        self.history.clear();
        self.banked = self.pos.banked(&self.bank);
        self.finish_ply(PlyReport::default(), tracer)
    }

    /// The arrangement of `seat` has ended: the next seat whose arrangement has not ended is
    /// to move, or, once every seat's has, the round's first mover makes the first move.
    #[cold]
    #[inline(never)]
    fn arranged<T: Tracer>(&mut self, seat: Player, tracer: &mut T) {
        let Offer::Arrange { left, refill } = self.pos.offer else {
            return;
        };
        if T::EVENTS {
            tracer.event(Event::Arranged { player: seat });
        }
        let left = left & !(1 << (seat & 7)) & !self.pos.out;
        if left == 0 {
            // Play begins, with the race where the rules have one.
            self.pos.offer = race_offer(&self.rules).unwrap_or(Offer::Sow);
            self.pos.to_move = self.starter;
            if refill {
                self.refill_after_arrangement(tracer);
            }
            // Play begins: the pie rule's offer, where the first to sow is the seat it waits
            // for.
            self.offer_swap(None);
            return;
        }
        self.pos.offer = Offer::Arrange { left, refill };
        let mut next = self.next_seat(seat);
        while left & (1 << (next & 7)) == 0 {
            next = self.next_seat(next);
        }
        self.pos.to_move = next;
    }

    /// Every seat has arranged at a round's start whose refill waited for the arrangement
    /// (`[arrange] refill = "after"`): the holes it left empty are filled now.
    #[cold]
    #[inline(never)]
    fn refill_after_arrangement<T: Tracer>(&mut self, tracer: &mut T) {
        let rules = self.rules.clone();
        let Some(rounds) = &rules.rounds else {
            return;
        };
        let mut pos = self.pos;
        fill_holes(&rules, rounds, &mut pos, Filling::AfterArrangement, tracer);
        self.pos = pos;
        self.use_tables(pos.closed);
        self.banked = pos.banked(&self.bank);
    }

    /// The player to move concedes (`[end] concede`): the game ends, in a match the match,
    /// by the rules' concede ending, with the conceder as its `mover`.
    #[inline(never)]
    fn concede<T: Tracer>(&mut self, tracer: &mut T) -> PlyReport {
        let mover = self.pos.to_move;
        let Some(ending) = self.rules.concede else {
            return PlyReport::default();
        };
        self.ply += 1;
        if T::EVENTS {
            tracer.event(Event::Concede {
                ply: self.ply,
                player: mover,
            });
        }
        let next = self.next_seat(mover);
        self.end_round(ending, EndCause::Concede, mover, next, tracer);
        PlyReport {
            round_over: true,
            ..PlyReport::default()
        }
    }

    /// The player to move exchanges sides with the first player (`[turns] swap`, listed only
    /// where it is on offer): the board turns round, and the turn passes back.
    #[inline(never)]
    fn swap<T: Tracer>(&mut self, tracer: &mut T) -> Result<PlyReport, MoveError> {
        let mover = self.pos.to_move;
        self.ply += 1;
        if T::EVENTS {
            tracer.event(Event::Swap {
                ply: self.ply,
                player: mover,
            });
        }
        if self.history.is_pending() {
            self.move_start.copy_from(&self.pos, self.history.blocks());
        }
        let next = self.swap_sides(mover);
        // The turned board is a position of its own: what was followed ahead is not its.
        self.forced_ahead = 0;
        self.between_plies(next, self.rules.direction, PlyReport::default(), tracer)
    }

    /// The swap of `mover` made on `self.pos`: the board turned round and the turn passed
    /// (shared by the ply and the searches that play moves on copies). Returns the player to
    /// move.
    fn swap_sides(&mut self, mover: Player) -> Player {
        if let Some(turned) = &self.rules.swap {
            self.pos.turn_round(&self.rules, turned);
        }
        // The closed holes have turned with the board: sowing goes by their tables.
        self.use_tables(self.pos.closed);
        self.close_pass(mover)
    }

    /// A pass: the player to move, who cannot sow, waits, and the turn goes to the next.
    fn pass<T: Tracer>(&mut self, tracer: &mut T) -> Result<PlyReport, MoveError> {
        let mover = self.pos.to_move;
        self.ply += 1;
        if T::EVENTS {
            tracer.event(Event::Pass {
                ply: self.ply,
                player: mover,
            });
        }
        if let Offer::Arrange { .. } = self.pos.offer {
            // The player ends their arrangement.
            self.pos.first_ply_by(mover);
            self.idle.arranged(self.ply);
            self.arranged(mover, tracer);
            return Ok(self.settle_arranging(tracer));
        }
        if self.history.is_pending() {
            self.move_start.copy_from(&self.pos, self.history.blocks());
        }
        let next = self.close_pass(mover);
        self.between_plies(next, self.rules.direction, PlyReport::default(), tracer)
    }

    /// The `[[end.when]]` ending that holds now, `next` to move after a move in direction
    /// `dir`, if any. Endings are read between moves, with no hole facts.
    #[inline(always)]
    fn condition_ending(&self, next: Player, dir: Dir) -> Option<EndingRule> {
        if self.program.end_when.is_empty() {
            return None;
        }
        let mut cx = Cx::new(&self.rules, self.tables_of(dir), next, self.starter);
        cx.dir = dir;
        (self.program.end_when.iter())
            .find(|(_, when)| when(&cx, &self.pos))
            .map(|&(ending, _)| ending)
    }

    /// What follows a ply once the next player is known: the ending conditions, the cycle
    /// history, the next player's legal moves, the ply limit.
    #[inline(always)]
    fn between_plies<T: Tracer>(
        &mut self,
        next: Player,
        dir: Dir,
        mut report: PlyReport,
        tracer: &mut T,
    ) -> Result<PlyReport, MoveError> {
        if let Some(ending) = self.condition_ending(next, dir) {
            report.round_over = true;
            self.end_round(ending, EndCause::Condition, next, next, tracer);
            return Ok(report);
        }
        if let Some(ending) = self.rules.no_capture
            && !self.some_move_captures()
        {
            report.round_over = true;
            self.end_round(ending, EndCause::NoCapture, next, next, tracer);
            return Ok(report);
        }
        if let Some(ending) = self.rules.no_further_capture
            && !self.capture_can_follow()
        {
            report.round_over = true;
            self.end_round(ending, EndCause::NoFurtherCapture, next, next, tracer);
            return Ok(report);
        }
        if let Some(ending) = self.rules.no_capture_reachable
            && !self.capture_reachable()
        {
            report.round_over = true;
            self.end_round(ending, EndCause::NoCaptureReachable, next, next, tracer);
            return Ok(report);
        }
        Ok(self.settle_ply(report, tracer))
    }

    /// The end of every ply: the cycle history takes the position the ply was played from,
    /// the next position is settled, and the engine's ply limit is checked.
    #[inline(always)]
    fn settle_ply<T: Tracer>(&mut self, report: PlyReport, tracer: &mut T) -> PlyReport {
        let banked = self.pos.banked(&self.bank);
        // Entries put seeds held back on the board: with them, banking goes both ways, a
        // change of the banked count proves nothing, and the history is kept.
        if banked != self.banked && !self.has_entry {
            // No earlier position can come back, the move's start included.
            self.history.clear();
            self.banked = banked;
        } else if self.rules.cycle.is_some() {
            self.history.record_pending(&mut self.move_start);
        }
        self.finish_ply(report, tracer)
    }

    /// The end of every ply, once the cycle history has it: the next position is settled,
    /// and the engine's ply limit is checked.
    #[inline(always)]
    fn finish_ply<T: Tracer>(&mut self, mut report: PlyReport, tracer: &mut T) -> PlyReport {
        let round = self.round;
        report.cycle = self.settle(tracer);
        self.limit_plies(tracer);
        report.round_over = self.round != round || self.is_over();
        report
    }

    /// Stops play once it has taken [`crate::rules::MAX_PLIES`] plies: the engine's safety
    /// limit, not a rule, read after every ply, whether it ended a round or not.
    #[inline(always)]
    fn limit_plies<T: Tracer>(&mut self, tracer: &mut T) {
        if self.ply >= crate::rules::MAX_PLIES && !self.is_over() {
            self.stop(Limit::Plies, tracer);
        }
    }

    /// After a ply or a refill: ends the round if the player to move cannot move or the
    /// position repeats; otherwise the cycle history takes the position (see [`History`]).
    /// Returns whether a cycle was found.
    #[inline(always)]
    fn settle<T: Tracer>(&mut self, tracer: &mut T) -> bool {
        let mut cycled = false;
        // Each pass settles a round's position; a round that ends at once is followed by the
        // next one's start, settled in turn.
        loop {
            if self.is_over() {
                return cycled;
            }
            let next = self.pos.to_move;
            self.list_moves(next);
            if self.moves.is_empty() {
                if self.offer_passes_on(next, tracer) {
                    continue;
                }
                if self.idle.rounds >= crate::rules::MAX_IDLE_ROUNDS {
                    // The engine's safety limit, not a rule: play stops with no result.
                    self.stop(Limit::Rounds, tracer);
                    return cycled;
                }
                self.close_round(self.rules.no_move, EndCause::NoMove, next, next, tracer);
                continue;
            }
            if let Some(cycle) = self.rules.cycle
                && let Some(first) = self.history.settle(&self.pos, self.ply)
            {
                if T::EVENTS {
                    tracer.event(Event::Cycle {
                        first,
                        ply: self.ply,
                    });
                }
                self.close_round(cycle, EndCause::Cycle, next, next, tracer);
                cycled = true;
                continue;
            }
            return cycled;
        }
    }

    /// Where the player to move has nothing to list in an arrangement or a choice of race
    /// starts, their part in it ends and the turn passes on: whether it did. (Out of line:
    /// a round's end is where an ordinary turn lists nothing.)
    #[cold]
    #[inline(never)]
    fn offer_passes_on<T: Tracer>(&mut self, next: Player, tracer: &mut T) -> bool {
        match self.pos.offer {
            Offer::Arrange { .. } => {
                // A player who can do nothing more in the arrangement ends it.
                self.arranged(next, tracer);
                true
            }
            Offer::RaceStart { .. } => {
                // A player with no hole to race from does not race.
                self.pass_race_choice(next);
                true
            }
            Offer::Sow | Offer::Decline | Offer::Swap | Offer::Decide(_) | Offer::Race { .. } => {
                false
            }
        }
    }

    /// Stops play at one of the engine's safety limits: the game ends with no result.
    fn stop<T: Tracer>(&mut self, limit: Limit, tracer: &mut T) {
        if T::EVENTS {
            match limit {
                Limit::Laps | Limit::Steps | Limit::Rounds | Limit::Layouts => {}
                Limit::Plies => tracer.event(Event::PlyLimit { plies: self.ply }),
            }
        }
        let scores = self.scores();
        self.status = Status::Stopped { limit };
        if T::EVENTS {
            tracer.event(Event::GameEnd {
                winner: None,
                scores,
                stopped: Some(limit),
            });
        }
    }

    /// Shares the seeds of the neutral holes equally among the players still in the game;
    /// the seeds that do not divide stay on the board (in the last neutral holes).
    fn share_neutral(&mut self, rules: &Rules, shares: &mut [u32; MAX_SEATS]) -> u32 {
        let g = &rules.geometry;
        let total: u32 = (g.neutral_holes())
            .map(|h| u32::from(self.pos.seeds(h)))
            .sum();
        let out = self.pos.out;
        let players = || g.players().filter(move |&p| out & (1 << p) == 0);
        let count = players().count() as u32;
        let each = total.checked_div(count).unwrap_or(0);
        let mut owed = each * count;
        for h in g.neutral_holes() {
            let seeds = u32::from(self.pos.seeds(h));
            let lifted = seeds.min(owed);
            // At most the hole's own count, so it fits.
            self.pos.set(h, (seeds - lifted) as u16);
            owed -= lifted;
        }
        for p in players() {
            self.pos.credit(rules, p, each);
            if let Some(share) = shares.get_mut(usize::from(p)) {
                *share += each;
            }
        }
        each
    }

    /// Ends the game or round: shares out the seeds left, decides the winner, and in a match
    /// refills the board for the next round (or ends the match).
    fn end_round<T: Tracer>(
        &mut self,
        ending: EndingRule,
        cause: EndCause,
        mover: Player,
        next_up: Player,
        tracer: &mut T,
    ) {
        self.close_round(ending, cause, mover, next_up, tracer);
        self.settle(tracer);
        // A round's last ply is a ply too: past the limit, the next round is not played.
        self.limit_plies(tracer);
    }

    /// The end of a round (see [`Game::end_round`]) up to the next round's start, which is
    /// left for [`Game::settle`] to settle: so that rounds in which nobody can move follow one
    /// another in a loop, not by recursion.
    fn close_round<T: Tracer>(
        &mut self,
        ending: EndingRule,
        cause: EndCause,
        mover: Player,
        next_up: Player,
        tracer: &mut T,
    ) {
        let rules = self.rules.clone();
        let g = &rules.geometry;
        // What follows is another round, or nothing: the forced play followed is not played,
        // and an extra turn granted by the last move is not taken.
        self.forced_ahead = 0;
        self.pos.offer = Offer::Sow;
        if !self.program.end_captures.is_empty() {
            self.play_end(tracer);
        }
        let mut shares = [0u32; MAX_SEATS];
        let mut removed = 0u32;
        for p in g.players() {
            for h in g.holes_of(p) {
                let seeds = u32::from(self.pos.seeds(h));
                if seeds == 0 {
                    continue;
                }
                let to = match ending.remaining {
                    Remaining::Owners => Some(p),
                    Remaining::Mover => Some(mover),
                    Remaining::Opponent => Some(mover ^ 1),
                    // Before anyone has sown (a concession at the first ply), each their own.
                    Remaining::LastMover if self.last_mover == NOBODY => Some(p),
                    Remaining::LastMover => Some(self.last_mover),
                    Remaining::Starter => Some(self.starter),
                    Remaining::Removed => None,
                    Remaining::Stay => continue,
                };
                self.pos.set(h, 0);
                // Pieces go with the seeds of their hole, or back to their holders
                // (`[pieces] round_end`); seeds that leave the game leave them to the owner.
                let seeds = match &rules.pieces {
                    Some(kind) => {
                        let to = match kind.round_end {
                            PieceRoundEnd::Holder => NOBODY,
                            PieceRoundEnd::Remainder => to.unwrap_or(p),
                        };
                        seeds - u32::from(rules.piece_slots().out(&mut self.pos, h, to, NOBODY))
                    }
                    None => seeds,
                };
                match to {
                    Some(t) => {
                        self.pos.credit(&rules, t, seeds);
                        if let Some(share) = shares.get_mut(usize::from(t)) {
                            *share += seeds;
                        }
                    }
                    None => {
                        // Seeds that leave the game are booked to their hole's owner, so that
                        // the position still accounts for every seed.
                        removed += seeds;
                        if let Some(taken) = self.pos.taken.get_mut(usize::from(p)) {
                            *taken += seeds;
                        }
                    }
                }
            }
        }
        let neutral = if rules.neutral_seeds == NeutralSeeds::Shared {
            self.share_neutral(&rules, &mut shares)
        } else {
            0
        };
        let scores = self.scores();
        let winner = match ending.result {
            Verdict::MostSeeds => most(&scores),
            Verdict::Draw => None,
            Verdict::MoverWins => Some(mover),
            Verdict::MoverLoses => Some(mover ^ 1),
        };
        if T::FIRINGS {
            tracer.fired(ending.id);
        }
        if T::EVENTS {
            tracer.event(Event::RoundEnd {
                round: self.round,
                clause: ending.id,
                cause,
                mover,
                shares,
                removed,
                neutral,
                winner,
                scores,
                board: Box::new(self.pos),
            });
        }
        // A game of one round ends here; so does a match a player concedes, its winner the
        // ending's.
        let Some(rounds) = rules.rounds.as_ref().filter(|_| cause != EndCause::Concede) else {
            self.finish(winner, scores, tracer);
            return;
        };
        let refill = u32::from(rounds.refill);
        // The tables by field, not by `tables_of`, so that the gift may write the position.
        let tables = tables_for(&self.tables, rules.direction);
        let program = self.program.clone();
        // The round-end effects, once for each player still in the match, that player moving.
        effects_by_player(
            &program.round_effects,
            (&rules, tables, self.starter),
            &mut self.pos,
            winner.unwrap_or(NOBODY),
            tracer,
        );
        let cx = Cx::new(&rules, tables, next_up, self.starter);
        if let (Some(rule), Some(compiled)) = (&rounds.give, &program.give) {
            give(&rules, &mut self.pos, rule, compiled, &cx, tracer);
        }
        let scores = self.scores();
        let ends = (self.program.match_ends.as_ref()).is_some_and(|m| m(&cx, &self.pos));
        // Players who cannot fill one hole: with two, the match ends; with more, they leave
        // it, and it ends when at most one player is left.
        let seats = g.players();
        let active = seats.clone().filter(|&p| self.pos.out & (1 << p) == 0);
        // With a partial last hole, `least_in_last` seeds (one unless the rules say) fill a hole.
        let least = if rounds.partial {
            u32::from(rounds.least_in_last)
        } else {
            refill
        };
        // A player holding a piece can fill a hole with it, where the arrangement puts pieces.
        let places =
            (rules.arrange.as_ref()).is_some_and(|a| a.at.at_rounds() && rules.pieces.is_some());
        let pieces = self.rules.piece_slots();
        let holds_piece = |p: Player| places && pieces.all(&self.pos).any(|(_, x)| x.holder == p);
        let short = active
            .clone()
            .filter(|&p| scores.get(usize::from(p)).is_some_and(|&s| s < least))
            .filter(|&p| !holds_piece(p))
            .fold(0u8, |m, p| m | 1 << p);
        // A match of separate games starts each from the layout: nobody is short of seeds.
        let short = if rounds.restart { 0 } else { short };
        let staying = active.clone().filter(|&p| short & (1 << p) == 0).count();
        if ends || (g.seats == 2 && short != 0) || staying <= 1 {
            self.finish(champion(rounds, winner, &scores), scores, tracer);
            return;
        }
        let taker = match ending.remaining {
            Remaining::Mover => mover,
            Remaining::Opponent => mover ^ 1,
            Remaining::LastMover if self.last_mover != NOBODY => self.last_mover,
            Remaining::Starter => self.starter,
            Remaining::LastMover | Remaining::Owners | Remaining::Removed | Remaining::Stay => {
                next_up
            }
        };
        // The holes out of play for the next round, by the rules, read before the refill (and
        // before holes change hands, `rotate_owners`).
        let shut = match &program.round_closed {
            // Players' holes only: a neutral hole keeps its seeds, which a closed hole may not.
            Some(closed) => closed(&cx, &self.pos) & g.board_holes() & !g.neutral_mask(),
            None => 0,
        };
        let after_starter = self.next_seat(self.starter);
        let rotating = rounds.rotate_owners > 0 && self.round.is_multiple_of(rounds.rotate_owners);
        let starter = match rounds.next_starter {
            NextStarter::RemainderTaker => taker,
            NextStarter::Alternate => after_starter,
            NextStarter::Winner => winner.unwrap_or(after_starter),
            NextStarter::Loser => winner.map_or(after_starter, |w| w ^ 1),
            // The holes move on to the next player in turn order, out of the match or not.
            NextStarter::WithHoles if rotating => {
                if self.starter + 1 >= g.seats {
                    0
                } else {
                    self.starter + 1
                }
            }
            NextStarter::WithHoles | NextStarter::Same => self.starter,
            NextStarter::Richer | NextStarter::Poorer => {
                let score = |p: Player| scores.get(usize::from(p)).copied().unwrap_or(0);
                let richer = rounds.next_starter == NextStarter::Richer;
                by_wealth(active.clone(), score, richer).unwrap_or(after_starter)
            }
        };
        let mut pos = self.pos;
        for p in seats.clone().filter(|&p| short & (1 << p) != 0) {
            pos.out |= 1 << p;
            if T::EVENTS {
                tracer.event(Event::Out { player: p });
            }
        }
        let starter = if pos.out & (1 << starter) != 0 {
            following(g.seats, pos.out, starter)
        } else {
            starter
        };
        // Holes change hands before the refill, every `rotate_owners` rounds.
        if rotating {
            pos.rotation = (pos.rotation + 1) % g.seats.max(1);
            if T::EVENTS {
                tracer.event(Event::OwnersMoved);
            }
        }
        let mut turned = self.seatings.get(usize::from(pos.rotation)).cloned();
        let rules = match &turned {
            Some((turned, _)) => turned.clone(),
            None => rules.clone(),
        };
        let g = &rules.geometry;
        if rounds.restart {
            // A new game: the start position, but for what lasts the match.
            let (out, vars, rotation) = (pos.out, pos.vars, pos.rotation);
            pos = self.opening;
            (pos.out, pos.vars, pos.rotation) = (out, vars, rotation);
            // Every game starts with each player holding their own piece.
            rules.piece_slots().start(&mut pos);
            if T::EVENTS {
                tracer.event(Event::Restart);
            }
        } else if rounds.win_holes {
            let layout = self.refill_winning(&mut pos, rounds, tracer);
            match layout.and_then(|k| Some((k, extend_seatings(&mut self.seatings, k)?))) {
                Some((k, seating)) => {
                    pos.rotation = k;
                    turned = Some(seating);
                }
                None => {
                    // More layouts of owners than a position can name: play stops, with no
                    // result, at the refill.
                    self.pos = pos;
                    self.stop(Limit::Layouts, tracer);
                    return;
                }
            }
        } else {
            // Refill: every hole is emptied and reopened, then filled from the chosen end (the
            // holes of a player out of the match stay closed, and so do the holes out of play
            // by the rules). With no refill count the players lay out their seeds themselves
            // (`[arrange] at = "rounds"`): every hole is emptied into its owner's hand; with
            // `[arrange] refill = "after"` the filling waits for the arrangement.
            pos.closed = shut;
            gather_pieces(&rules, &mut pos);
            let later =
                (rules.arrange.as_ref()).is_some_and(|a| a.at.at_rounds() && a.refill_after);
            let when = if later { Filling::Later } else { Filling::Now };
            fill_holes(&rules, rounds, &mut pos, when, tracer);
        }
        pos.to_move = starter;
        pos.moved = 0;
        // Before the round's start is compared with earlier ones, which have it too.
        await_first_ply(&rules, &mut pos);
        pos.turn_sowings = 0;
        reset_vars(&rules, &mut pos, |s| s != VarScope::Game);
        self.round += 1;
        // Rounds in which nobody can move change nothing but by their ending and refill: once
        // one starts again as an earlier such round did, they repeat for ever.
        let phase = match rounds.rotate_owners {
            0 => 0,
            every => self.round % every,
        };
        let idle_again = self.idle.repeats(pos, self.ply, phase);
        if idle_again || rounds.end_on_repeated_start {
            if idle_again || self.round_starts.contains(&pos) {
                // The rule of the ruleset's: a round that would start from an earlier round's
                // start ends the match.
                if T::EVENTS {
                    tracer.event(Event::RepeatedStart);
                }
                self.pos = pos;
                self.finish(champion(rounds, winner, &scores), scores, tracer);
                return;
            }
            if rounds.end_on_repeated_start {
                self.round_starts.push(pos);
            }
        }
        if let Some(arrange) = rules.arrange.as_ref().filter(|a| a.at.at_rounds()) {
            // The players still in the match arrange, before the round's first move.
            pos.offer = Offer::Arrange {
                left: g.seat_mask() & !pos.out,
                refill: arrange.refill_after && !rounds.restart && !rounds.win_holes,
            };
            pos.to_move = first_arranger(&rules, &pos, arrange.first, starter);
        } else if let (true, Offer::Arrange { .. }, Some(arrange)) =
            (rounds.restart, pos.offer, rules.arrange.as_ref())
        {
            // A new game arranges as the first did: `first` says who begins (the start
            // position's arrangement, from the opening).
            pos.to_move = first_arranger(&rules, &pos, arrange.first, starter);
        }
        if let Some((turned, program)) = turned {
            self.rules = turned;
            self.program = program;
        }
        self.pos = pos;
        self.starter = starter;
        self.use_tables(pos.closed);
        self.history.clear();
        self.banked = pos.banked(&self.bank);
        if T::FIRINGS {
            tracer.fired(rounds.id);
        }
        if T::EVENTS {
            tracer.event(Event::RoundStart {
                round: self.round,
                starter,
            });
        }
        self.round_start(tracer);
    }

    /// The captures tried once play has ended (`at = "play_end"`), before the ending shares
    /// out what is left: for each player still in play, in turn order, that player moving.
    fn play_end<T: Tracer>(&mut self, tracer: &mut T) {
        // On a copy, so that each player's mover may borrow the game.
        let (mut pos, out) = (self.pos, self.pos.out);
        for player in (self.rules.geometry.players()).filter(|&p| out & (1 << p) == 0) {
            (self.mover(player, NO_HOLE, self.rules.direction, 0)).play_end(&mut pos, tracer);
        }
        self.pos = pos;
    }

    /// The refill of `[rounds] win_holes` (see [`Fill`]) on `pos`: every hole is emptied into
    /// its owner's supply, then filled anew, and the seeds left over are kept. Returns the
    /// number of the owners' layout, or `None` when the table of layouts is full.
    fn refill_winning<T: Tracer>(
        &self,
        pos: &mut Position,
        rounds: &crate::rules::RoundsRule,
        tracer: &mut T,
    ) -> Option<u8> {
        let now = &self.rules;
        let base = self.seatings.first().map_or(now, |(r, _)| r);
        let g = &base.geometry;
        let holes = g.board_holes();
        // What each player lays out: what they hold and what the holes they held hold.
        let mut supply = [0u32; MAX_SEATS];
        for (p, supply) in g.players().zip(&mut supply) {
            let on_board: u32 = (now.geometry.holes_of(p))
                .map(|h| u32::from(pos.seeds(h)))
                .sum();
            *supply = pos.held(now, p) + on_board;
        }
        // Holes nobody owned in the round just played that still hold seeds: nobody refills
        // them.
        let kept_neutral = (0..MAX_POSITIONS as Pos)
            .filter(|&h| holes & bit(h) != 0 && now.geometry.owner_of(h) == NOBODY)
            .filter(|&h| pos.seeds(h) > 0)
            .fold(0 as Mask, |m, h| m | bit(h));
        for h in (0..MAX_POSITIONS as Pos).filter(|&h| (holes & !kept_neutral) & bit(h) != 0) {
            pos.lift(h);
        }
        for p in g.players() {
            if let Some(s) = g.store_of(p) {
                pos.set(s, 0);
            }
            if let Some(reserve) = pos.reserve.get_mut(usize::from(p)) {
                *reserve = 0;
            }
        }
        let out = pos.out;
        let fill = Fill::run(g, rounds, supply, out, kept_neutral);
        for (h, &n) in (0u8..).zip(&fill.seeds) {
            if n > 0 {
                pos.set(h, n);
            }
        }
        pos.closed = fill.closed;
        for p in g.players() {
            let i = usize::from(p);
            let kept = fill.supply.get(i).copied().unwrap_or(0);
            pos.credit(base, p, kept);
            if T::EVENTS && out & (1 << p) == 0 {
                let home = g.holes_mask.get(i).copied().unwrap_or(0);
                tracer.event(Event::Refill {
                    player: p,
                    holes: fill.filled.get(i).copied().unwrap_or(0),
                    seeds: fill.sown.get(i).copied().unwrap_or(0),
                    partial: fill.partial.get(i).copied().flatten(),
                    open: fill.unfilled & !fill.closed & home,
                    closed: fill.closed & home,
                    kept,
                    filled: (0u8..)
                        .zip(&fill.filler)
                        .filter(|&(_, &f)| f == p)
                        .fold(0 as Mask, |m, (h, _)| m | bit(h)),
                    waiting: false,
                });
            }
        }
        if T::EVENTS {
            let won: [Mask; MAX_SEATS] = std::array::from_fn(|i| {
                let home = g.holes_mask.get(i).copied().unwrap_or(0);
                fill.owned.get(i).copied().unwrap_or(0) & !home
            });
            tracer.event(Event::HolesWon {
                won,
                board: Box::new(*pos),
            });
        }
        base.layouts.number(&fill.owned)
    }

    /// Sets the neighbour tables for a mask of closed holes: built once per mask and kept.
    fn use_tables(&mut self, closed: Mask) {
        if closed == self.tables_for {
            return;
        }
        self.tables_for = closed;
        if closed == 0 {
            self.tables.clone_from(&self.open_tables);
            return;
        }
        if let Some((_, kept)) = self.closed_tables.iter().find(|(m, _)| *m == closed) {
            self.tables.clone_from(kept);
            return;
        }
        self.tables = both_tables(&self.rules, closed);
        let kept = (closed, self.tables.clone());
        if self.closed_tables.len() < TABLES_KEPT {
            self.closed_tables.push(kept);
        } else if let Some(slot) = self
            .closed_tables
            .get_mut(self.round as usize % TABLES_KEPT)
        {
            *slot = kept;
        }
    }

    fn finish<T: Tracer>(
        &mut self,
        winner: Option<Player>,
        scores: [u32; MAX_SEATS],
        tracer: &mut T,
    ) {
        self.status = Status::Over { winner };
        if T::EVENTS {
            tracer.event(Event::GameEnd {
                winner,
                scores,
                stopped: None,
            });
        }
    }
}

/// A refill of `[rounds] win_holes`, worked out on its own (the game's refill and the layouts
/// built at set-up share it): every player still in the match fills their own holes (layout
/// 0's, the board's own) from the refill's end, a full hole each or, with a partial last hole,
/// what they have left if it is at least `least_in_last`; then the players with seeds left
/// fill, one hole each in turn order, the holes nobody filled, each going on round the board's
/// circuit from their own first hole in the refill's direction. A hole belongs for the round to
/// whoever filled it; a hole nobody filled stays its first owner's, closed, or, with `unfilled
/// = "open"`, is nobody's, open. The holes of `kept_neutral` (nobody's, still holding seeds)
/// are filled by nobody and stay nobody's.
struct Fill {
    /// Seeds each player has still to lay out.
    supply: [u32; MAX_SEATS],
    /// Seeds put into each hole.
    seeds: [u16; MAX_POSITIONS],
    /// Who filled each hole ([`NOBODY`]: nobody).
    filler: [Player; MAX_POSITIONS],
    /// Holes each player filled, and the seeds they put in them.
    filled: [u8; MAX_SEATS],
    sown: [u32; MAX_SEATS],
    /// Each player's partial last hole and its seeds.
    partial: [Option<(Pos, u32)>; MAX_SEATS],
    /// The holes nobody filled (but those of `kept_neutral`), and those of them closed.
    unfilled: Mask,
    closed: Mask,
    /// Each player's holes for the round.
    owned: [Mask; MAX_SEATS],
}

impl Fill {
    fn run(
        g: &crate::rules::Geometry,
        rounds: &crate::rules::RoundsRule,
        supply: [u32; MAX_SEATS],
        out: u8,
        kept_neutral: Mask,
    ) -> Fill {
        let refill = u32::from(rounds.refill);
        let least = if rounds.partial {
            u32::from(rounds.least_in_last).max(1)
        } else {
            refill
        };
        let mut fill = Fill {
            supply,
            seeds: [0; MAX_POSITIONS],
            filler: [NOBODY; MAX_POSITIONS],
            filled: [0; MAX_SEATS],
            sown: [0; MAX_SEATS],
            partial: [None; MAX_SEATS],
            unfilled: 0,
            closed: 0,
            owned: [0; MAX_SEATS],
        };
        let holes = g.board_holes() & !kept_neutral;
        let active = || g.players().filter(move |&p| out & (1 << p) == 0);
        // The refill's direction round the board: leftmost first is counter-clockwise.
        let reversed = rounds.from == RowEnd::Right;
        let circuit = if reversed { &g.cw[0] } else { &g.ccw[0] };
        // Each player's own holes first, from the refill's end.
        for p in active() {
            let row = g.holes(p);
            for k in 0..row.len() {
                let at = if reversed { row.len() - 1 - k } else { k };
                let Some(&h) = row.get(at) else { break };
                if holes & bit(h) == 0 {
                    // A hole of nobody's still holding seeds: passed over.
                    continue;
                }
                if !fill.put(p, h, refill, least) {
                    break;
                }
            }
        }
        // Then the holes nobody filled, one a player in turn, along each player's way.
        let mut at: [Pos; MAX_SEATS] = [NO_HOLE; MAX_SEATS];
        for (p, at) in g.players().zip(&mut at) {
            let row = g.holes(p);
            *at = if reversed { row.last() } else { row.first() }
                .copied()
                .unwrap_or(NO_HOLE);
        }
        loop {
            let mut any = false;
            for p in active() {
                let i = usize::from(p);
                if fill.supply.get(i).is_none_or(|&s| s < least) {
                    continue;
                }
                let Some(mut h) = at.get(i).copied() else {
                    continue;
                };
                let mut found = None;
                for _ in 0..=g.positions {
                    if holes & bit(h) != 0 && fill.filler.get(usize::from(h)) == Some(&NOBODY) {
                        found = Some(h);
                        break;
                    }
                    h = circuit.get(usize::from(h)).copied().unwrap_or(NO_HOLE);
                }
                if let Some(h) = found
                    && fill.put(p, h, refill, least)
                {
                    if let Some(a) = at.get_mut(i) {
                        *a = h;
                    }
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
        for h in (0..MAX_POSITIONS as Pos).filter(|&h| holes & bit(h) != 0) {
            let owner = match fill.filler.get(usize::from(h)).copied() {
                Some(p) if p != NOBODY => p,
                _ => {
                    fill.unfilled |= bit(h);
                    if rounds.unfilled_open {
                        continue;
                    }
                    fill.closed |= bit(h);
                    g.owner_of(h)
                }
            };
            if let Some(m) = fill.owned.get_mut(usize::from(owner)) {
                *m |= bit(h);
            }
        }
        fill
    }

    /// `p` fills `h` with a full hole, or what they have left if it is at least `least`;
    /// whether they did.
    fn put(&mut self, p: Player, h: Pos, refill: u32, least: u32) -> bool {
        let i = usize::from(p);
        let Some(supply) = self.supply.get_mut(i) else {
            return false;
        };
        let n = (*supply).min(refill);
        if n == 0 || n < least {
            return false;
        }
        *supply -= n;
        if let Some(s) = self.seeds.get_mut(usize::from(h)) {
            // n <= refill, which is a u16.
            *s = u16::try_from(n).unwrap_or(u16::MAX);
        }
        if let Some(f) = self.filler.get_mut(usize::from(h)) {
            *f = p;
        }
        if let Some(k) = self.filled.get_mut(i) {
            *k += 1;
        }
        if let Some(s) = self.sown.get_mut(i) {
            *s += n;
        }
        if n < refill
            && let Some(last) = self.partial.get_mut(i)
        {
            *last = Some((h, n));
        }
        true
    }
}

/// The most seeds a two-player game of `[rounds] win_holes` may have for the game to build,
/// at set-up, the layout of every way the seeds can be split between the players (a few
/// thousand refills worked out at most); past it layouts are built as games meet them.
const LAYOUTS_AHEAD_SEEDS: u32 = 256;

/// At set-up, for two players: the layout of owners of every split of the game's seeds between
/// them (nobody's hole holding seeds), numbered and built into `seatings`, so that no refill
/// of a game builds one (a layout first met at a refill costs a compile and allocates).
fn layouts_ahead(seatings: &mut Arc<Vec<(Arc<Rules>, Arc<Program>)>>) {
    let Some((base, _)) = seatings.first().cloned() else {
        return;
    };
    let (Some(rounds), g) = (&base.rounds, &base.geometry) else {
        return;
    };
    let total = base.total_seeds();
    if g.seats != 2 || total > LAYOUTS_AHEAD_SEEDS {
        return;
    }
    for a in 0..=total {
        for b in 0..=total - a {
            let mut supply = [0u32; MAX_SEATS];
            let [south, north, ..] = &mut supply;
            (*south, *north) = (a, b);
            let fill = Fill::run(g, rounds, supply, 0, 0);
            match base.layouts.number(&fill.owned) {
                Some(k) => {
                    extend_seatings(seatings, k);
                }
                None => return,
            }
        }
    }
}

/// The rules and program of layout `k` of the holes' owners (`[rounds] win_holes`), built
/// into `seatings` (layout 0, the rules' own, first) the first time a game meets it: a round's
/// refill, or a position set up with it. `None` for a layout the rules' table lacks.
fn extend_seatings(
    seatings: &mut Arc<Vec<(Arc<Rules>, Arc<Program>)>>,
    k: u8,
) -> Option<(Arc<Rules>, Arc<Program>)> {
    while seatings.len() <= usize::from(k) {
        let base = seatings.first()?.0.clone();
        let owned = base.layouts.get(u8::try_from(seatings.len()).ok()?)?;
        let g = &base.geometry;
        let owners: Vec<Vec<Pos>> = (g.players())
            .zip(owned)
            .map(|(p, mask)| {
                let first = g.holes(p).first().copied().unwrap_or(NO_HOLE);
                g.numbered_holes(first, mask)
            })
            .collect();
        let mut turned = (*base).clone();
        turned.geometry.assign(&owners);
        let program = Arc::new(Program::new(&turned));
        Arc::make_mut(seatings).push((Arc::new(turned), program));
    }
    seatings.get(usize::from(k)).cloned()
}

/// The rules and program for each turn of the holes, when the rounds move them
/// (`rotate_owners`): at turn r, each player owns the holes the player r seats before them
/// owned at the start. Turn 0 is the rules themselves.
fn seatings(rules: &Arc<Rules>, program: &Arc<Program>) -> Vec<(Arc<Rules>, Arc<Program>)> {
    let turns = rules.rounds.as_ref().map_or(0, |r| r.rotate_owners);
    if rules.rounds.as_ref().is_some_and(|r| r.win_holes) {
        // Layout 0; the others are built as games meet them.
        return vec![(rules.clone(), program.clone())];
    }
    if turns == 0 {
        return Vec::new();
    }
    let g = &rules.geometry;
    let seats = usize::from(g.seats);
    let start: Vec<Vec<Pos>> = g.players().map(|p| g.holes(p).to_vec()).collect();
    let mut out = vec![(rules.clone(), program.clone())];
    for r in 1..seats {
        let mut turned = (**rules).clone();
        let lists: Vec<Vec<Pos>> = (0..seats)
            .map(|p| {
                start
                    .get((p + seats - r) % seats)
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        turned.geometry.assign(&lists);
        let program = Arc::new(Program::new(&turned));
        out.push((Arc::new(turned), program));
    }
    out
}

/// The rounds' gift: when its condition holds, the giver (if still in the match) gives each
/// other player still in it the gift's seeds, as far as what they hold goes.
fn give<T: Tracer>(
    rules: &Rules,
    pos: &mut Position,
    rule: &crate::rules::GiveRule,
    program: &compile::GiveProgram,
    cx: &Cx<'_>,
    tracer: &mut T,
) {
    if !(program.when)(cx, pos) {
        return;
    }
    let from = (program.from)(cx, pos);
    let g = &rules.geometry;
    if from >= g.seats || pos.out & (1 << from) != 0 {
        return;
    }
    // Read once, before anything is given; a negative size gives nothing.
    let size = u32::try_from((program.seeds)(cx, pos).max(0)).unwrap_or(u32::MAX);
    for to in g.players() {
        if to == from || pos.out & (1 << to) != 0 {
            continue;
        }
        let seeds = size.min(pos.held(rules, from));
        if seeds == 0 {
            break;
        }
        pos.debit(rules, from, seeds);
        pos.credit(rules, to, seeds);
        if T::FIRINGS {
            tracer.fired(rule.id);
        }
        if T::EVENTS {
            tracer.event(Event::Gift {
                clause: rule.id,
                from,
                to,
                seeds,
            });
        }
    }
}

/// Sets the variables whose scope `resets` says to their first values.
/// [`Position::moved`]'s bit for South while the pie rule waits for their first turn of the
/// round; North's is the next bit. Both are set at every round's start ([`await_first_ply`]); the
/// round's first ply clears its maker's ([`Position::first_ply_by`]), and the offer to the
/// other clears both. A position set up by hand is mid-round, with neither.
pub const SWAP_DUE: u8 = 1 << 6;

/// At a round's start: where the rules have the pie rule, it waits for whoever does not make
/// the round's first ply (an arrangement's or a sowing's; a player with nothing to arrange
/// makes none); where they have a race, it is the round's first ply.
fn await_first_ply(rules: &Rules, pos: &mut Position) {
    if rules.swap.is_some() {
        pos.moved |= SWAP_DUE | SWAP_DUE << 1;
    }
    // The round's first ply is the race, or the race follows the round's arrangement (which
    // hands over to it as it ends).
    if matches!(pos.offer, Offer::Sow)
        && let Some(race) = race_offer(rules)
    {
        pos.offer = race;
    }
}

/// Where the rules have a race, the offer of a round's first ply: the choice of starts where
/// the players choose them (`[race] from` a set), else the race.
fn race_offer(rules: &Rules) -> Option<Offer> {
    let race = rules.race.as_ref()?;
    Some(if race.from.is_chosen() {
        Offer::RaceStart {
            starts: [NO_HOLE; MAX_SEATS],
        }
    } else {
        Offer::RACE
    })
}

fn reset_vars(
    rules: &Rules,
    pos: &mut Position,
    resets: impl Fn(crate::ruleset::VarScope) -> bool,
) {
    for v in &rules.vars {
        if !resets(v.scope) {
            continue;
        }
        let slots = usize::from(v.slots);
        for s in 0..slots {
            if let Some(slot) = pos.vars.get_mut(usize::from(v.slot) + s) {
                *slot = v.initial;
            }
        }
    }
}

/// The player after `p` in turn order among `seats` players, passing over those of the mask
/// `out`; `p` itself when nobody else is left.
fn following(seats: Player, out: u8, p: Player) -> Player {
    let mut q = p;
    for _ in 0..seats {
        q = if q + 1 >= seats { 0 } else { q + 1 };
        if out & (1 << (q & 7)) == 0 {
            return q;
        }
    }
    p
}

/// The player holding the most seeds, if one holds more than every other.
fn most(scores: &[u32; MAX_SEATS]) -> Option<Player> {
    let best = scores.iter().copied().max()?;
    let mut holders = (0u8..).zip(scores).filter(|&(_, &s)| s == best);
    match (holders.next(), holders.next()) {
        (Some((p, _)), None) => Some(p),
        _ => None,
    }
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::GameOver => f.write_str("the game is over"),
            MoveError::Illegal { reason, .. } => f.write_str(reason),
        }
    }
}

impl std::error::Error for MoveError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list whose directions the mover chooses gives its `k`-th move a hole at a time
    /// (`MoveList::chosen_way`); it must be the `k`-th of the list's own order, for every
    /// `k` and every pair of masks over a few holes (each hole sowable either way, one way,
    /// or not at all), and nothing past the end.
    /// `nth_hole` counts across the two words of a mask: the holes of a wide board's second
    /// word come after every hole of the first, in order, and nothing past the last.
    #[test]
    fn the_nth_hole_counts_across_both_words() {
        let holes: [Pos; 7] = [0, 5, 63, 64, 65, 100, 127];
        let mask = holes.iter().fold(0 as Mask, |m, &h| m | bit(h));
        for (n, &h) in holes.iter().enumerate() {
            assert_eq!(nth_hole(mask, n), Some(h), "n={n}");
        }
        assert_eq!(nth_hole(mask, holes.len()), None);
        assert_eq!(nth_hole(bit(64), 0), Some(64));
        assert_eq!(nth_hole(0, 0), None);
        // A list whose holes may all be sown both ways, across the words: the k-th move is
        // the k-th of the list's own order.
        let list = MoveList::choosing(mask, mask, Dir::Ccw);
        let listed: Vec<Move> = list.iter().collect();
        assert_eq!(listed.len(), 2 * holes.len());
        for k in 0..=listed.len() {
            assert_eq!(list.get(k), listed.get(k).copied(), "k={k}");
        }
    }

    #[test]
    fn the_kth_chosen_way_is_the_kth_move_listed() {
        for ccw in 0 as Mask..64 {
            for cw in 0 as Mask..64 {
                for fixed in [Dir::Ccw, Dir::Cw] {
                    let list = MoveList::choosing(ccw << 3, cw << 3, fixed);
                    let listed: Vec<Move> = list.iter().collect();
                    assert_eq!(listed.len(), list.len(), "{ccw:b} {cw:b}");
                    for k in 0..=listed.len() {
                        assert_eq!(list.get(k), listed.get(k).copied(), "{ccw:b} {cw:b} k={k}");
                    }
                }
            }
        }
    }
}

//! The cycle history: the positions since the last irreversible change (a seed banked), so
//! that a position coming back is found and ends the round.

use super::{Block, Blocks, Position};
use crate::rules::{MAX_SEATS, Mask, Player, Pos};

/// Positions recorded since the history was last cleared, with the ply after which each
/// stood, in compact form, as parallel lists: a hash of each (scanned first, so kept densely
/// on its own), the fields other than the board and the ply, and the boards (the blocks they
/// cover) laid end to end. A record is a fraction of a whole `Position` (mostly unused board
/// slots), so recording a position copies little.
///
/// A position settled while the history is empty (as it is after every capture) is not
/// recorded at once but left pending: the next move copies it as its start, and records it
/// only if that move banks nothing, as a move that banks clears the history and the record
/// with it. In games where most moves bank, most positions are never hashed or copied here.
#[derive(Debug, Clone)]
pub(super) struct History {
    keys: Vec<u64>,
    records: Vec<(Rest, u32)>,
    boards: Vec<Block>,
    /// The blocks the game's board covers.
    blocks: Blocks,
    /// The variables of each record, laid end to end: the rules' first `var_slots` of
    /// [`Position::vars`] (none for rules without variables, which then cost nothing here).
    vars: Vec<i32>,
    var_slots: usize,
    pending: Option<Pending>,
    /// Once the history is long ([`INDEXED_FROM`] records), an open-addressing table of the
    /// records by key (each slot a record's index plus one, 0 empty), so that a game which
    /// banks nothing for thousands of plies looks a position up in constant time rather
    /// than scanning every earlier one (which made such a game quadratic). Short histories,
    /// the usual case, are scanned: cheaper than hashing into a table.
    index: Vec<u32>,
    /// Whether `index` holds the records (it is rebuilt when the history grows past it).
    indexed: bool,
    /// Whether the number of the lap a stopped move stands at decides its future (a clause
    /// reads `lap`, or the rules cap a move's laps). When it does not, it is left out of the
    /// comparison, so that a move that goes on for ever through its stops, a lap a decision,
    /// comes back to a position already met.
    lap_matters: bool,
}

/// The first slot to probe for a key: its high bits, mixed (the low bits of a product are
/// the weakest).
fn home(key: u64) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize
}

/// The length from which the history keeps its records in a hash table.
const INDEXED_FROM: usize = 64;

/// What the history needs of a pending position besides the position itself, which the next
/// move keeps as its start.
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// The ply after which it stood.
    ply: u32,
    /// Its count of the turn's sowings (the move's start counts one more).
    turn_sowings: u8,
}

/// A position's fields other than the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rest {
    // Every count of seeds is at most MAX_SEEDS, which fits u16: a record stays small.
    reserve: [u16; MAX_SEATS],
    taken: [u16; MAX_SEATS],
    closed: Mask,
    to_move: Player,
    moved: u8,
    turn_sowings: u8,
    claims: [Pos; MAX_SEATS],
    out: u8,
    rotation: u8,
    offer: super::Offer,
}

impl Rest {
    fn of(pos: &Position, lap_matters: bool) -> Rest {
        let mut offer = pos.offer;
        if let super::Offer::Decide(p) = &mut offer
            && !lap_matters
        {
            p.lap = 0;
        }
        Rest {
            reserve: pos.reserve.map(|r| r as u16),
            taken: pos.taken.map(|t| t as u16),
            closed: pos.closed,
            to_move: pos.to_move,
            moved: pos.moved,
            turn_sowings: pos.turn_sowings,
            claims: pos.claims,
            out: pos.out,
            rotation: pos.rotation,
            offer,
        }
    }
}

/// A hash of a position whose board covers `blocks` and whose rules have `var_slots`
/// variables: a cheap filter before comparing in full.
#[inline(always)]
fn key(pos: &Position, blocks: Blocks, var_slots: usize) -> u64 {
    // The closed holes' first word only: the key is a filter before a full comparison.
    let mut h = pos.closed as u64 ^ (u64::from(pos.to_move) << 56) ^ (u64::from(pos.moved) << 48);
    // Four holes per step (a quarter of the multiplications of a hole-by-hole hash, which
    // are a serial chain), a whole block at a time: the padding is all zeros.
    for block in pos.blocks(blocks) {
        for &[a, b, c, d] in block.as_chunks::<4>().0 {
            let w = u64::from(a) | u64::from(b) << 16 | u64::from(c) << 32 | u64::from(d) << 48;
            h = (h.rotate_left(23) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    let vars = pos
        .vars
        .get(..var_slots)
        .unwrap_or_default()
        .iter()
        .fold(0u64, |h, &v| h.rotate_left(7) ^ u64::from(v as u32));
    h ^ u64::from(pos.reserve[0])
        ^ (u64::from(pos.reserve[1]) << 20)
        ^ (u64::from(pos.turn_sowings) << 40)
        ^ vars.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl History {
    /// An empty history with room for `records` positions of a board covering `blocks`, under
    /// rules with `var_slots` variables.
    pub fn with_capacity(records: usize, blocks: Blocks, var_slots: usize) -> History {
        History {
            keys: Vec::with_capacity(records),
            records: Vec::with_capacity(records),
            boards: Vec::with_capacity(records * blocks.0),
            blocks,
            vars: Vec::with_capacity(records * var_slots),
            var_slots,
            pending: None,
            // Room for the index of a full history, reserved now so that indexing a long
            // history allocates nothing during play.
            index: Vec::with_capacity((2 * records).next_power_of_two().max(2 * INDEXED_FROM)),
            indexed: false,
            lap_matters: true,
        }
    }

    /// The history, told whether the lap a stopped move stands at decides its future (see
    /// [`History::lap_matters`]).
    pub fn with_lap(self, lap_matters: bool) -> History {
        History {
            lap_matters,
            ..self
        }
    }

    /// The blocks the game's board covers.
    pub fn blocks(&self) -> Blocks {
        self.blocks
    }

    /// Forgets every position, the pending one included.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.records.clear();
        self.boards.clear();
        self.vars.clear();
        self.pending = None;
        self.indexed = false;
    }

    /// Takes `pos`, settled after `ply`: the ply after which it stood before, if it repeats a
    /// recorded position; otherwise it is recorded, or left pending if nothing is recorded
    /// (then nothing can repeat).
    #[inline(always)]
    pub fn settle(&mut self, pos: &Position, ply: u32) -> Option<u32> {
        if self.keys.is_empty() {
            self.pending = Some(Pending {
                ply,
                turn_sowings: pos.turn_sowings,
            });
            return None;
        }
        let key = key(pos, self.blocks, self.var_slots);
        let earlier = self.earlier(pos, key);
        if earlier.is_none() {
            self.record(pos, key, ply);
        }
        earlier
    }

    /// Whether a settled position is pending: the next move must keep its start.
    #[inline(always)]
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Records the pending position, given the start of the move played from it (a move
    /// that banked nothing). The start counted the move among the turn's sowings; the
    /// settled position had not, so the start's count is put back.
    #[inline(always)]
    pub fn record_pending(&mut self, start: &mut Position) {
        if let Some(pending) = self.pending.take() {
            start.turn_sowings = pending.turn_sowings;
            let key = key(start, self.blocks, self.var_slots);
            self.record(start, key, pending.ply);
        }
    }

    /// The ply after which `pos` (hashing to `key`) stood, if the history holds it.
    #[inline(always)]
    fn earlier(&self, pos: &Position, key: u64) -> Option<u32> {
        // Built only for a key that matches (rare): most plies scan the keys and stop.
        let rest = std::cell::OnceCell::new();
        let rest = || *rest.get_or_init(|| Rest::of(pos, self.lap_matters));
        let board = pos.blocks(self.blocks);
        let n = board.len();
        let v = self.var_slots;
        let vars = pos.vars.get(..v).unwrap_or_default();
        let same_vars = |i: usize| v == 0 || self.vars.get(i * v..(i + 1) * v) == Some(vars);
        if self.indexed {
            return self.look_up(key, |i| {
                self.records.get(i).filter(|(r, _)| *r == rest()).is_some()
                    && self.boards.get(i * n..(i + 1) * n) == Some(board)
                    && same_vars(i)
            });
        }
        // The keys are scanned on their own, in a loop that only compares (the scan runs over
        // every position since the last capture, once a ply); a match is then checked in full.
        let mut from = 0;
        while let Some(found) = (self.keys.get(from..).unwrap_or_default())
            .iter()
            .position(|&k| k == key)
        {
            let i = from + found;
            if let Some((r, ply)) = self.records.get(i)
                && *r == rest()
                && self.boards.get(i * n..(i + 1) * n) == Some(board)
                && same_vars(i)
            {
                return Some(*ply);
            }
            from = i + 1;
        }
        None
    }

    /// The ply of the record with this key for which `same` holds, looked up in the index.
    #[cold]
    fn look_up(&self, key: u64, same: impl Fn(usize) -> bool) -> Option<u32> {
        let mask = self.index.len().wrapping_sub(1);
        let mut slot = home(key) & mask;
        // The table is never more than half full, so an empty slot ends every probe.
        for _ in 0..self.index.len() {
            let i = match self.index.get(slot) {
                Some(0) | None => return None,
                Some(&i) => (i - 1) as usize,
            };
            if self.keys.get(i) == Some(&key) && same(i) {
                return self.records.get(i).map(|(_, ply)| *ply);
            }
            slot = (slot + 1) & mask;
        }
        None
    }

    /// Puts record `i` (of key `key`) into the index.
    fn insert(&mut self, key: u64, i: usize) {
        let mask = self.index.len().wrapping_sub(1);
        let mut slot = home(key) & mask;
        for _ in 0..self.index.len() {
            match self.index.get_mut(slot) {
                Some(s) if *s == 0 => {
                    // Below MAX_PLIES records, which fits u32.
                    *s = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    return;
                }
                Some(_) => slot = (slot + 1) & mask,
                None => return,
            }
        }
    }

    /// Keeps the index covering every record at most half full: built when the history
    /// reaches [`INDEXED_FROM`] records, doubled when it fills up.
    #[cold]
    fn reindex(&mut self) {
        let size = (self.keys.len() * 2)
            .next_power_of_two()
            .max(2 * INDEXED_FROM);
        self.index.clear();
        self.index.resize(size, 0);
        let keys = std::mem::take(&mut self.keys);
        for (i, &key) in keys.iter().enumerate() {
            self.insert(key, i);
        }
        self.keys = keys;
        self.indexed = true;
    }

    /// Records `pos`, hashing to `key`, as the position after `ply`.
    #[inline(always)]
    fn record(&mut self, pos: &Position, key: u64, ply: u32) {
        if self.indexed || self.keys.len() + 1 >= INDEXED_FROM {
            self.record_indexed(pos, key, ply);
            return;
        }
        self.keys.push(key);
        self.records.push((Rest::of(pos, self.lap_matters), ply));
        match pos.blocks(self.blocks) {
            // One block, the usual board: a fixed-size copy.
            [block] => self.boards.push(*block),
            board => self.boards.extend_from_slice(board),
        }
        if self.var_slots > 0 {
            self.record_vars(pos);
        }
    }

    /// Records the variables of `pos`.
    #[cold]
    fn record_vars(&mut self, pos: &Position) {
        self.vars
            .extend_from_slice(pos.vars.get(..self.var_slots).unwrap_or_default());
    }

    /// [`History::record`] for a long history: the record also goes into the index.
    #[cold]
    fn record_indexed(&mut self, pos: &Position, key: u64, ply: u32) {
        self.keys.push(key);
        self.records.push((Rest::of(pos, self.lap_matters), ply));
        self.boards.extend_from_slice(pos.blocks(self.blocks));
        self.record_vars(pos);
        let i = self.keys.len() - 1;
        if !self.indexed || 2 * self.keys.len() > self.index.len() {
            self.reindex();
        } else {
            self.insert(key, i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(seeds: u16, vars: [i32; 2]) -> Position {
        let mut pos = Position::empty();
        pos.set(0, seeds);
        pos.vars[0] = vars[0];
        pos.vars[1] = vars[1];
        pos
    }

    /// Variables are part of a position: the same board with other values is another
    /// position, in a short history (scanned) and in a long one (indexed).
    #[test]
    fn positions_that_differ_only_in_variables_are_not_repeats() {
        for filler in [0, 2 * INDEXED_FROM] {
            let mut h = History::with_capacity(8, Blocks::of(8), 2);
            // A start recorded, then positions that fill the history up to `filler`.
            h.record(&position(100, [0, 0]), 0, 0);
            for k in 0..filler {
                let p = position(200 + k as u16, [0, 0]);
                let key = key(&p, h.blocks, 2);
                h.record(&p, key, k as u32 + 1);
            }
            let first = position(1, [0, 0]);
            assert_eq!(h.settle(&first, 1000), None);
            assert_eq!(h.settle(&position(1, [1, 0]), 1001), None, "{filler}");
            assert_eq!(h.settle(&position(1, [0, 1]), 1002), None, "{filler}");
            assert_eq!(h.settle(&first, 1003), Some(1000), "{filler}");
            assert_eq!(h.settle(&position(1, [1, 0]), 1004), Some(1001), "{filler}");
        }
    }

    /// Under rules without variables the history ignores the variable slots altogether.
    #[test]
    fn rules_without_variables_record_none() {
        let mut h = History::with_capacity(8, Blocks::of(8), 0);
        h.record(&position(100, [0, 0]), 0, 0);
        assert_eq!(h.settle(&position(1, [0, 0]), 1), None);
        assert!(h.vars.is_empty());
    }
}

/// Brent's cycle detection over a sequence of states, without storing the sequence: the state
/// kept is compared with each new one, and replaced by it each time the run since it reaches
/// the next power of two. A sequence that repeats is caught within twice its period after it
/// enters the cycle. Used wherever play is followed for a repeat: a move's laps, the forced
/// play to come, rounds in which nobody moves.
#[derive(Debug, Clone, Copy)]
pub(super) struct Brent<T> {
    saved: T,
    power: u32,
    since: u32,
}

impl<T: Copy> Brent<T> {
    /// Watching from `first`, kept for the next `power` states.
    #[inline(always)]
    pub(super) fn new(first: T, power: u32) -> Brent<T> {
        Brent {
            saved: first,
            power,
            since: 0,
        }
    }

    /// Takes the next state: `Some(period)` when `same` finds it equal to the state kept,
    /// `period` states after it. `state` makes it, only when it is to be kept (a state can be
    /// a whole position, costly to copy at every step).
    #[inline(always)]
    pub(super) fn repeats(
        &mut self,
        same: impl FnOnce(&T) -> bool,
        state: impl FnOnce() -> T,
    ) -> Option<u32> {
        if same(&self.saved) {
            return Some(self.since + 1);
        }
        self.since += 1;
        if self.since == self.power {
            self.saved = state();
            self.power = self.power.saturating_mul(2);
            self.since = 0;
        }
        None
    }
}

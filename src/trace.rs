//! Trace events: what happened during play, as structured values.
//!
//! The engine reports every event to a [`Tracer`]. Playouts use `()`, which records nothing
//! and compiles away; replays and tests collect a `Vec<Event>`. Rendering to text and JSON is
//! done elsewhere (`render`), with the board's labels.
//!
//! No `unwrap`, `expect` or indexing that could panic.

use crate::rules::{ClauseId, Player, Pos};

/// Why a game or round ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndCause {
    /// The player to move had no legal move.
    NoMove,
    /// A move's laps would never end.
    EndlessMove,
    /// A position repeated with the same player to move.
    Cycle,
    /// An `[[end.when]]` condition held.
    Condition,
    /// A move reached the lap limit without repeating (treated as endless).
    LapLimit,
    /// The game reached the ply limit (treated as a cycle).
    PlyLimit,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A ply begins: `player` sows from `hole`.
    Move { ply: u32, player: Player, hole: Pos },
    /// Seeds lifted to start a lap.
    Lift { lap: u32, hole: Pos, seeds: u16 },
    /// Captured seeds taken up to be sown as a lap, starting after `after`.
    Resow { lap: u32, after: Pos, seeds: u16 },
    /// One seed dropped; `seeds` is the count after the drop.
    Drop { hole: Pos, seeds: u16 },
    /// The sowing passed over a hole (the origin).
    Skip { hole: Pos },
    /// A lap ended in `last`.
    LapEnd { lap: u32, last: Pos },
    /// The relay clause fired: the next lap lifts `hole`.
    Relay { clause: ClauseId, hole: Pos },
    /// A capture clause took `seeds` from `hole`; `to` is None when the seeds leave the game.
    Capture {
        clause: ClauseId,
        hole: Pos,
        seeds: u16,
        to: Option<Player>,
    },
    /// A capture clause's `cancel_if` held: the seeds went back.
    CaptureCancelled { clause: ClauseId, seeds: u32 },
    /// The move ended after `laps` laps in `last`.
    MoveEnd { laps: u32, last: Pos },
    /// An extra-turn clause fired: the mover sows again.
    ExtraTurn { clause: ClauseId },
    /// The state after lap `repeat` equals the state after lap `first`: the move never ends.
    EndlessMove { first: u32, repeat: u32 },
    /// A move reached the lap limit without its lap-end state repeating: it is stopped and
    /// treated as endless.
    LapLimit { laps: u32 },
    /// The game reached the ply limit: it is ended as a cycle would be.
    PlyLimit { plies: u32 },
    /// The position after ply `ply` repeats the one after ply `first` (0 = the start).
    Cycle { first: u32, ply: u32 },
    /// A game or round ended. `shares` are the seeds each player took from the board.
    RoundEnd {
        round: u32,
        clause: ClauseId,
        cause: EndCause,
        mover: Player,
        shares: [u32; 2],
        removed: u32,
        winner: Option<Player>,
        scores: [u32; 2],
    },
    /// A player refilled their holes for the next round; `closed` holds the holes left closed.
    Refill {
        player: Player,
        holes: u8,
        seeds: u32,
        closed: u64,
        kept: u32,
    },
    /// A new round starts.
    RoundStart { round: u32, starter: Player },
    /// The game or match is over.
    GameEnd {
        winner: Option<Player>,
        scores: [u32; 2],
    },
}

/// Receives events.
pub trait Tracer {
    /// False for tracers that drop everything, so the engine can skip building events.
    const ENABLED: bool = true;
    fn event(&mut self, event: Event);
    /// A point to come back to with [`Tracer::truncate`].
    fn mark(&self) -> usize;
    /// Forget every event after `mark`.
    fn truncate(&mut self, mark: usize);
}

impl Tracer for () {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
    #[inline(always)]
    fn mark(&self) -> usize {
        0
    }
    #[inline(always)]
    fn truncate(&mut self, _: usize) {}
}

impl Tracer for Vec<Event> {
    fn event(&mut self, event: Event) {
        self.push(event);
    }
    fn mark(&self) -> usize {
        self.len()
    }
    fn truncate(&mut self, mark: usize) {
        Vec::truncate(self, mark);
    }
}

//! A ply played with its trace written as it happens, as text, as JSON, or both.
//!
//! The events go to the output as the engine reports them, so a ply's memory does not grow
//! with its laps: what is held back is at most [`HOLD`] events, which covers everything the
//! engine may take back within a capture (a capture undone by its `cancel_if` took each hole
//! at most once, so at most one event per position of the board).
//!
//! The engine also takes back the laps of an endless move: it finds the repeat some laps
//! after it happened, cuts the trace back to the move's start and plays the laps again up to
//! the first repeat. Those laps cannot be held back (a move may have a million), so a ply
//! that may do this is first played on a copy of the game without a trace, and, if its move
//! turned out endless, once more with a count of events ([`Probe`]), which says which events
//! will be taken back; they are then never written.

use std::collections::VecDeque;

use super::{Detail, Output, TextTrace, event_json, shown};
use crate::engine::{Game, MoveError, PlyReport};
use crate::rules::{MAX_POSITIONS, Player, Pos, Rules};
use crate::ruleset::After;
use crate::trace::{Event, Tracer};

/// The most events held back before they are written: more than any capture can take back.
pub const HOLD: usize = 2 * MAX_POSITIONS;

/// What a ply played with [`play_traced`] did.
#[derive(Debug, Clone, Copy)]
pub struct Played {
    pub report: PlyReport,
    /// The winner and final scores, when the ply ended the game (the trace's `GameEnd`).
    pub end: Option<(Option<Player>, [u32; 2])>,
    /// False if the engine took back an event already written (which it never should): the
    /// trace written for this ply is then not the ply's trace.
    pub exact: bool,
}

/// Plays `h` in `game`, writing the ply's trace as it happens: as text to `text` and as JSON
/// items to `json` (into the array the caller has opened), each at `detail`. A write error
/// is kept in its output (see [`Output::finish`]); the ply is played all the same.
pub fn play_traced(
    game: &mut Game,
    h: Pos,
    detail: Detail,
    text: Option<&mut Output<'_>>,
    json: Option<&mut Output<'_>>,
) -> Result<Played, MoveError> {
    let rules = game.rules().clone();
    let doomed = if may_replay_laps(&rules) {
        probe(game, h)?
    } else {
        None
    };
    let mut tap = Tap {
        rules: &rules,
        detail,
        text,
        json,
        trace: TextTrace::new(detail),
        held: VecDeque::with_capacity(HOLD + 1),
        len: 0,
        written: 0,
        emitted: 0,
        doomed,
        exact: true,
        end: None,
    };
    let report = game.play(h, &mut tap)?;
    while let Some((at, e)) = tap.held.pop_front() {
        tap.write(at, &e);
    }
    if let Some(out) = tap.text.as_deref_mut() {
        tap.trace.finish(out);
    }
    Ok(Played {
        report,
        end: tap.end,
        exact: tap.exact,
    })
}

/// Whether a move of these rules can have more than one lap, and so be endless.
fn may_replay_laps(rules: &Rules) -> bool {
    rules.relay.is_some() || rules.lap_captures.iter().any(|c| c.then == After::Sow)
}

/// The events the engine will take back beyond [`HOLD`] when it plays `h`: those reported
/// before event number `.0` (counting from 1) at places from `.1` on.
fn probe(game: &Game, h: Pos) -> Result<Option<(u64, usize)>, MoveError> {
    // Untraced, a move is played in its fast path: cheap next to writing its trace.
    if !game.clone().play(h, &mut ())?.endless {
        return Ok(None);
    }
    let mut probe = Probe {
        len: 0,
        emitted: 0,
        deep: None,
    };
    game.clone().play(h, &mut probe)?;
    Ok(probe.deep)
}

/// Counts events, and notes the first time the engine takes back more than [`HOLD`].
struct Probe {
    len: usize,
    emitted: u64,
    deep: Option<(u64, usize)>,
}

impl Tracer for Probe {
    fn event(&mut self, _: Event) {
        self.emitted += 1;
        self.len += 1;
    }
    fn mark(&self) -> usize {
        self.len
    }
    fn truncate(&mut self, mark: usize) {
        if self.len.saturating_sub(mark) > HOLD && self.deep.is_none() {
            self.deep = Some((self.emitted, mark));
        }
        self.len = self.len.min(mark);
    }
}

/// The tracer that writes: events wait in `held` (at most [`HOLD`] of them) and are written
/// as they leave it.
struct Tap<'r, 'a, 'w1, 'w2> {
    rules: &'r Rules,
    detail: Detail,
    text: Option<&'a mut Output<'w1>>,
    json: Option<&'a mut Output<'w2>>,
    trace: TextTrace,
    /// Events not yet written, with their places in the trace.
    held: VecDeque<(usize, Event)>,
    /// The trace's length: the place of the next event.
    len: usize,
    /// The trace's length when the last event written was.
    written: usize,
    /// Events reported so far, including those taken back.
    emitted: u64,
    /// From [`probe`]: events that will be taken back, never to be written.
    doomed: Option<(u64, usize)>,
    exact: bool,
    end: Option<(Option<Player>, [u32; 2])>,
}

impl Tap<'_, '_, '_, '_> {
    fn write(&mut self, at: usize, e: &Event) {
        self.written = at + 1;
        if let Event::GameEnd { winner, scores } = e {
            self.end = Some((*winner, *scores));
        }
        if let Some(out) = self.text.as_deref_mut() {
            self.trace.event(self.rules, e, out);
        }
        if let Some(out) = self.json.as_deref_mut()
            && shown(e, self.detail)
        {
            out.value(None, &event_json(self.rules, e));
        }
    }
}

impl Tracer for Tap<'_, '_, '_, '_> {
    fn event(&mut self, e: Event) {
        self.emitted += 1;
        let at = self.len;
        self.len += 1;
        if let Some((until, from)) = self.doomed
            && self.emitted <= until
            && at >= from
        {
            return;
        }
        self.held.push_back((at, e));
        if self.held.len() > HOLD
            && let Some((at, e)) = self.held.pop_front()
        {
            self.write(at, &e);
        }
    }

    fn mark(&self) -> usize {
        self.len
    }

    fn truncate(&mut self, mark: usize) {
        while self.held.back().is_some_and(|(at, _)| *at >= mark) {
            self.held.pop_back();
        }
        if self.written > mark {
            self.exact = false;
        }
        self.len = self.len.min(mark);
    }
}

//! One move: laps of sowing, relays, captures, and the exact detection of endless moves.

use super::compile::{
    CaptureProgram, InFull, Lifting, Program, Redirected, RelayProgram, RelayWhen, Takes, Who,
};
use super::eval::Cx;
use super::history::Brent;
use super::{Blocks, Decision, IN_HAND, Lane, OFF_TRACK, Offer, Pending, Piece, Position, Tables};
use crate::rules::{
    ClauseId, Dir, MAX_LAPS_PER_MOVE, MAX_POSITIONS, MAX_SEATS, Mask, NO_HOLE, NOBODY, POS_BITS,
    Player, Pos, Rules, bit,
};
use crate::ruleset::{After, Destination, PieceOrder, RelayFrom, SkipOrigin, VarScope};
use crate::trace::{Event, Limit, Tracer};

/// What a move did.
#[derive(Debug, Clone, Copy)]
pub struct MoveRun {
    /// The hole the last seed fell into.
    pub last: Pos,
    /// Laps sown. (What the move captured and whether it reached the opponent's row are in
    /// the move's context, which [`Mover::run`] leaves for the clauses read after it.)
    pub laps: u32,
    /// For an endless move: the lap whose end state the move came back to, and the lap that
    /// repeated it.
    pub endless: Option<(u32, u32)>,
    /// The move was stopped by one of the engine's safety limits (laps or steps) before any
    /// repeat was found.
    pub limit: Option<Limit>,
    /// For a move stopped before its end (endless, or at the lap limit): seeds captured to be
    /// sown that were still in hand, and the hole the next lap would have sown them after.
    pub hand: (Pos, u16),
    /// The move stopped at a decision of the mover's (an optional capture on offer): the
    /// position holds where it stands ([`Position::offer`]), and the clauses of the move's
    /// end wait for it to go on.
    pub stopped: bool,
}

/// The lap from which a move is watched for a repeat. An endless move repeats forever, so
/// watching from a later lap still finds it (and `first_repeat` then locates the first repeat
/// exactly); most moves end before this lap, and so make no copy of the position to compare.
const WATCH_FROM: u32 = 32;

/// Where the next lap starts: lift `from`, or sow `hand` captured seeds after `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cursor {
    from: Pos,
    hand: u16,
    reached_opponent: bool,
    /// Whether this lap is sown against the move's direction (a relay turned it round).
    reversed: bool,
    /// The seeds the move has captured, where a clause read during the move reads them
    /// (`Program::track_captures`; else 0), so that two lap ends told apart by them differ.
    captured: u32,
}

impl Cursor {
    /// A move's first lap: lift the hole played.
    fn start(origin: Pos) -> Cursor {
        Cursor {
            from: origin,
            hand: 0,
            reached_opponent: false,
            reversed: false,
            captured: 0,
        }
    }
}

impl MoveRun {
    /// Nothing done yet.
    fn new() -> MoveRun {
        MoveRun {
            last: NO_HOLE,
            laps: 0,
            endless: None,
            limit: None,
            hand: (NO_HOLE, 0),
            stopped: false,
        }
    }

    /// The run so far, stopped for the mover's decision at the end of a lap ending in `last`.
    fn stopped_at(self, last: Pos) -> MoveRun {
        MoveRun {
            last,
            stopped: true,
            ..self
        }
    }
}

/// Where a move that went on after the mover's decision starts its next lap: the lap, the
/// laps sown before it, and what the move's context carries from lap to lap (the seeds
/// captured, whether the opponent's row was reached). Kept small: every move carries room
/// for one.
#[derive(Clone, Copy)]
pub struct Begin {
    cursor: Cursor,
    laps: u32,
    captured: u32,
    reached_opponent: bool,
}

/// The laps sown before the laps from `begin` (0 from the move's first lap).
#[inline(always)]
fn laps_before(begin: Option<Begin>) -> u32 {
    begin.map_or(0, |b| b.laps)
}

/// A run with no lap sown yet from `begin` (or from the move's start).
#[inline(always)]
fn new_run(begin: Option<Begin>) -> MoveRun {
    MoveRun {
        laps: laps_before(begin),
        ..MoveRun::new()
    }
}

/// The state a lap ends in: everything the rest of the move depends on. Two equal lap-end
/// states mean the move repeats itself forever.
#[derive(Clone, Copy, PartialEq, Eq)]
struct LapState {
    pos: Position,
    cursor: Cursor,
}

/// A move being made.
pub struct Mover<'a> {
    pub rules: &'a Rules,
    pub program: &'a Program,
    /// The tables of the move's direction, and of the other (for laps a relay turns round).
    pub tables: &'a Tables,
    pub back: &'a Tables,
    pub dir: Dir,
    pub player: Player,
    pub starter: Player,
    pub origin: Pos,
    /// The seeds the move enters from what the player holds, the first into `origin`
    /// (`[entry]`); 0 for a move that lifts `origin`.
    pub entered: u16,
}

/// How a relay comes to be tried after a lap (see [`Mover::relay_after`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Relaying {
    /// As the relay clause says; a relay the mover may decline stops the move.
    Offered,
    /// The mover chose to go on at a relay they could decline: it is made if it fires.
    Chosen,
    /// A capture's `then = "relay"` makes it, its condition not read.
    Forced,
}

/// The drop clauses' quick tests, and what they add up to: the seed counts at which some drop
/// clause may fire, so that most drops try no clause at all.
#[derive(Debug, Clone)]
pub struct Drops {
    guards: Vec<Guard>,
    counts: Counts,
    /// With many drop clauses: those whose guard names a seed count, as (count, clause) in
    /// that order, so that a drop finds the few that may fire by a binary search instead of
    /// trying them all; and the clauses with no count to test. Empty with few clauses, which
    /// are tried in turn.
    by_count: Vec<(u16, u16)>,
    unguarded: Vec<u16>,
    /// Whether drops look their clauses up (see `by_count`).
    looked_up: bool,
}

/// From how many drop clauses a drop looks the ones that may fire up by count.
const LOOKED_UP_FROM: usize = 8;

/// Whether a number of clauses is at least `n`.
fn guards_len_at_least(n: usize) -> impl Fn(usize) -> bool {
    move |len| len >= n
}

/// The seed counts at which some drop clause may fire: bit `n % 64` for a hole that now holds
/// n seeds (so a count shares its bit with counts 64 apart, which only makes the quick test
/// say yes more often); all bits when some clause may fire whatever the count. A word, so a
/// sowing loop holds it in a register.
#[derive(Debug, Clone, Copy)]
struct Counts(u64);

impl Counts {
    /// Whether no drop clause can ever fire.
    #[inline]
    fn none(self) -> bool {
        self.0 == 0
    }

    /// Whether some drop clause may fire when the hole dropped into holds `seeds` (a quick
    /// test before the clauses' own: it may say yes when none fires, never the other way).
    #[inline(always)]
    fn may_fire(self, seeds: u16) -> bool {
        self.0 & 1 << (seeds % 64) != 0
    }
}

impl Drops {
    /// Makes every drop try the drop clauses (effects at drops have no count to test).
    pub fn try_every_drop(&mut self) {
        self.counts = Counts(u64::MAX);
    }

    /// The quick tests of the drop clauses kept, in order.
    pub fn of(guards: Vec<Guard>) -> Drops {
        Drops::with_lookup(guards, guards_len_at_least(LOOKED_UP_FROM))
    }

    /// The drop clauses' tests, looked up by count when `looked_up` says of their number.
    fn with_lookup(guards: Vec<Guard>, looked_up: impl Fn(usize) -> bool) -> Drops {
        let mut counts = 0u64;
        for guard in &guards {
            match *guard {
                Guard::Never => {}
                Guard::Seeds(n) | Guard::Exactly(n) => counts |= 1 << (n % 64),
                Guard::Any => counts = u64::MAX,
            }
        }
        let looked_up = looked_up(guards.len());
        let (mut by_count, mut unguarded) = (Vec::new(), Vec::new());
        if looked_up {
            for (i, guard) in (0u16..).zip(&guards) {
                match *guard {
                    Guard::Never => {}
                    Guard::Seeds(n) | Guard::Exactly(n) => by_count.push((n, i)),
                    Guard::Any => unguarded.push(i),
                }
            }
            by_count.sort_unstable();
        }
        Drops {
            guards,
            counts: Counts(counts),
            by_count,
            unguarded,
            looked_up,
        }
    }
}

/// The position at index `k` of a track of `len` positions, moving `k` on to the next index.
/// `len` is at least 1 and at most [`MAX_POSITIONS`], and `k` stays below it.
#[inline(always)]
fn along(track: &[Pos; MAX_POSITIONS], k: &mut usize, len: usize) -> Pos {
    let at = track
        .get(*k & usize::from(POS_BITS))
        .copied()
        .unwrap_or(NO_HOLE);
    *k += 1;
    if *k >= len {
        *k = 0;
    }
    at
}

/// Sows `hand` seeds one by one along a track of `len` positions from its index `k`, with
/// nothing to do between drops; returns the position the last seed fell into (`at` if there
/// are none).
#[inline(always)]
fn sow_quietly(
    pos: &mut Position,
    (track, len): (&[Pos; MAX_POSITIONS], usize),
    mut k: usize,
    mut hand: u16,
    mut at: Pos,
) -> Pos {
    while hand > 0 {
        at = along(track, &mut k, len);
        pos.sow_one(at);
        hand -= 1;
    }
    at
}

/// The claimed holes, as a mask of positions.
#[inline]
fn claimed_mask(pos: &Position) -> Mask {
    pos.claims.iter().fold(0, |mask, &h| mask | bit(h))
}

/// What must hold for a drop clause to fire, read off its condition when the game is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// The condition is false: the clause never fires.
    Never,
    /// The condition requires `seeds(here) == n`.
    Seeds(u16),
    /// The condition is `seeds(here) == n` and nothing else: the test decides it.
    Exactly(u16),
    /// Nothing quick to test.
    Any,
}

impl Guard {
    pub fn of(x: &crate::rules::BoolX) -> Guard {
        use crate::rules::{BoolX, CmpOp, HoleX, IntX};
        match x {
            BoolX::Const(false) => Guard::Never,
            BoolX::Int(CmpOp::Eq, IntX::Seeds(HoleX::Here), IntX::Const(n))
            | BoolX::Int(CmpOp::Eq, IntX::Const(n), IntX::Seeds(HoleX::Here)) => {
                u16::try_from(*n).map_or(Guard::Never, Guard::Exactly)
            }
            BoolX::And(a, b) => match (Guard::of(a), Guard::of(b)) {
                (Guard::Never, _) | (_, Guard::Never) => Guard::Never,
                (Guard::Seeds(n) | Guard::Exactly(n), _)
                | (_, Guard::Seeds(n) | Guard::Exactly(n)) => Guard::Seeds(n),
                _ => Guard::Any,
            },
            _ => Guard::Any,
        }
    }
}

/// What every lap of a move reads of the mover's circuit and of the rules, worked out once
/// per move.
struct Route<'t> {
    /// Where the mover's seeds go, and where they go the other way (laps a relay turns
    /// round).
    lane: &'t Lane,
    back_lane: &'t Lane,
    /// The opponent's holes, when some clause asks whether the move reached them (else 0).
    watched: Mask,
    /// Whether a hole can be claimed during the move: some clause claims holes, or one is
    /// claimed already.
    claims: bool,
    skip: SkipOrigin,
    /// Whether no hole can be claimed and there is no drop clause: every drop is only a drop,
    /// unless a hole is passed over.
    quiet: bool,
    /// For laps that go on after the mover's decision: where they begin ([`Mover::go_on`]).
    begin: Option<Begin>,
}

enum LapOutcome {
    /// Another lap follows; this one ended in the given hole.
    Relay(Cursor, Pos),
    /// The move ends; the last seed fell here.
    End(Pos),
    /// The move stops for the mover's decision at the end of the lap that ended here.
    Stop(Pos),
}

/// What a clause that may ask the mover does where its condition holds ([`Mover::ask`]).
enum Asked {
    /// The move stops for the mover's decision.
    Stop,
    /// The capture is made at once.
    Go,
    /// Nothing: the clause's `choose` set is empty.
    Nothing,
}

/// Applies effect clauses at the moment `cx` stands at: each whose condition holds sets its
/// values, and is traced and counted.
#[inline(never)]
pub(super) fn apply_effects<T: Tracer>(
    effects: &[super::compile::EffectProgram],
    pos: &mut Position,
    cx: &Cx<'_>,
    tracer: &mut T,
) {
    for effect in effects {
        if effect.apply(cx, pos) {
            if T::EVENTS {
                tracer.event(Event::Effect { clause: effect.id });
            }
            if T::FIRINGS {
                tracer.fired(effect.id);
            }
        }
    }
}

impl<'a> Mover<'a> {
    /// Makes the whole move on `pos`. Endless moves are cut at the first repeated lap-end state
    /// (found with Brent's cycle detection, then located exactly by a second pass), and `pos`
    /// is left as it stands at that repeat.
    ///
    /// `start` is a copy of `pos` as the move begins, read only if the move turns out endless
    /// (the caller keeps one buffer for it rather than the move copying the position each
    /// time; for rules that cannot relay, any position will do, as no move repeats).
    ///
    /// `cx` is the move's context as the move begins ([`Mover::context`]); the move leaves it
    /// standing at the last hole (`here` and `last`), with the seeds captured and whether the
    /// opponent's row was reached, ready for the clauses read after the move.
    #[inline(always)]
    pub fn run<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        start: &Position,
        tracer: &mut T,
    ) -> MoveRun {
        self.run_from(pos, cx, start, None, tracer)
    }

    /// Makes the move ([`Mover::run`]) from its first lap, or (`begin`) from where its laps
    /// go on after the mover's decision, `start` then standing there.
    #[inline(always)]
    fn run_from<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        start: &Position,
        begin: Option<Begin>,
        tracer: &mut T,
    ) -> MoveRun {
        if T::EVENTS {
            // Every event is final when sent: first learn how the move ends, untraced and on
            // a copy (an endless move is only known as such laps after its first repeat), then
            // trace it up to there.
            let (mut copy, mut ahead_cx) = (*pos, *cx);
            let ahead = self.run_from(&mut copy, &mut ahead_cx, start, begin, &mut ());
            return self.run_traced(pos, cx, begin, ahead, tracer);
        }
        let mut run = new_run(begin);
        let mut cursor = self.first_lap(pos, begin);
        if self.program.quiet_laps
            && self.entered == 0
            && begin.is_none()
            && pos.claims == [NO_HOLE; MAX_SEATS]
        {
            // (A hole claimed already, in a position set up by hand, takes the general path.)
            match self.quiet_laps(pos, cx, tracer) {
                Ok((ended, lap_origin)) => {
                    return self.move_end(pos, cx, ended, lap_origin, tracer);
                }
                Err((so_far, next)) => (run, cursor) = (so_far, next),
            }
        }
        let route = self.route(pos, begin);
        loop {
            run.laps += 1;
            match self.lap(pos, cx, &route, cursor, run.laps, tracer) {
                LapOutcome::End(last) => {
                    run.last = last;
                    break;
                }
                LapOutcome::Stop(last) => return run.stopped_at(last),
                LapOutcome::Relay(next, _) => cursor = next,
            }
            if run.laps >= WATCH_FROM {
                // A long move: go on watching for a repeat (kept apart, so that the usual
                // short move carries none of the watch's state).
                match self.watch(pos, cx, &route, start, cursor, run, tracer) {
                    Ok((ended, _)) if ended.stopped => return ended,
                    Ok((ended, at)) => {
                        (run, cursor) = (ended, at);
                        break;
                    }
                    Err(stopped) => {
                        // No move-end captures after an endless move or the lap limit.
                        cx.at(stopped.last, stopped.last, NO_HOLE, false);
                        return stopped;
                    }
                }
            }
        }
        cx.reached_opponent |= cursor.reached_opponent;
        self.move_end(pos, cx, run, cursor.from, tracer)
    }

    /// Makes the whole move on `pos`, tracing every lap, when `ahead` (the same move played
    /// untraced) says how it ends: a move that does not end by itself stops at the lap where
    /// `ahead` stopped (the first repeat of an endless move, or the lap limit), so the trace
    /// holds exactly the laps of the untraced move and nothing is taken back.
    fn run_traced<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        begin: Option<Begin>,
        ahead: MoveRun,
        tracer: &mut T,
    ) -> MoveRun {
        let stop = match ahead.endless {
            Some((_, repeat)) => Some(repeat),
            None if ahead.limit.is_some() => Some(ahead.laps),
            None => None,
        };
        let route = self.route(pos, begin);
        let mut run = new_run(begin);
        let mut cursor = self.first_lap(pos, begin);
        loop {
            run.laps += 1;
            match self.lap(pos, cx, &route, cursor, run.laps, tracer) {
                LapOutcome::End(last) => {
                    run.last = last;
                    break;
                }
                LapOutcome::Stop(last) => return run.stopped_at(last),
                LapOutcome::Relay(next, _) => cursor = next,
            }
            if Some(run.laps) == stop {
                match (ahead.endless, ahead.limit) {
                    (Some((first, repeat)), _) => {
                        tracer.event(Event::EndlessMove { first, repeat });
                    }
                    (None, Some(Limit::Steps)) => tracer.event(Event::StepLimit { laps: run.laps }),
                    (None, _) => tracer.event(Event::LapLimit { laps: run.laps }),
                }
                // No move-end captures after an endless move or the lap limit.
                cx.at(ahead.last, ahead.last, NO_HOLE, false);
                return ahead;
            }
        }
        cx.reached_opponent |= cursor.reached_opponent;
        self.move_end(pos, cx, run, cursor.from, tracer)
    }

    /// The move's end: its last lap, from `lap_origin`, ended in `run.last`; the move-end
    /// captures are tried there.
    #[inline(always)]
    fn move_end<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        run: MoveRun,
        lap_origin: Pos,
        tracer: &mut T,
    ) -> MoveRun {
        if T::EVENTS {
            tracer.event(Event::MoveEnd {
                laps: run.laps,
                last: run.last,
            });
        }
        let last = run.last;
        cx.at(last, last, lap_origin, false);
        cx.lap = run.laps;
        self.move_end_from(pos, cx, run, lap_origin, 0, tracer)
    }

    /// The move-end captures from the `from`-th on, then the move-end effects (see
    /// [`Mover::move_end`]).
    #[inline(always)]
    fn move_end_from<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        run: MoveRun,
        lap_origin: Pos,
        from: usize,
        tracer: &mut T,
    ) -> MoveRun {
        let last = run.last;
        for rule in self.program.move_captures.get(from..).unwrap_or_default() {
            if (rule.when)(cx, pos) {
                if rule.asks {
                    match self.ask(rule, pos, cx, true, tracer) {
                        Asked::Stop => return run.stopped_at(last),
                        Asked::Nothing => continue,
                        Asked::Go => {}
                    }
                }
                self.capture(rule, pos, cx, tracer);
            }
        }
        if !self.program.move_effects.is_empty() {
            cx.at(last, last, lap_origin, false);
            apply_effects(&self.program.move_effects, pos, cx, tracer);
        }
        // After the move, there is no lap.
        cx.lap_origin = NO_HOLE;
        run
    }

    /// The clauses tried after a seed put into `h` (`put`), or picked up from it, in the
    /// arrangement before play: their captures, then their effects, with `h` as the hole
    /// (`origin`, `here` and `last`).
    pub fn placed<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        (h, put): (Pos, bool),
        tracer: &mut T,
    ) {
        let (captures, effects) = if put {
            (&self.program.put_captures, &self.program.put_effects)
        } else {
            (&self.program.pick_captures, &self.program.pick_effects)
        };
        cx.at(h, h, NO_HOLE, false);
        for rule in captures {
            if (rule.when)(cx, pos) {
                self.capture(rule, pos, cx, tracer);
            }
        }
        if !effects.is_empty() {
            cx.at(h, h, NO_HOLE, false);
            apply_effects(effects, pos, cx, tracer);
        }
    }

    /// The captures tried once play has ended (`at = "play_end"`), for the player this mover
    /// is, with no hole of a move.
    pub fn play_end<T: Tracer>(&self, pos: &mut Position, tracer: &mut T) {
        let mut cx = self.context();
        for rule in &self.program.end_captures {
            if (rule.when)(&cx, pos) {
                self.capture(rule, pos, &mut cx, tracer);
            }
        }
    }

    /// Sows a move whose laps are all quiet (see [`Program::quiet_laps`]), each in one tight
    /// loop, relaying as the relay clause says. Returns the finished move and its last lap's
    /// origin; or, as `Err`, the move so far and its next lap, for the general path to go on
    /// with, at the first lap that must pass over a hole (one long enough to come back round
    /// to it) or that starts off the track, and once the move is long enough to be watched
    /// for a repeat ([`WATCH_FROM`]).
    ///
    /// The commonest moves of the catalogue (Kalah's and Oware's single laps, Sadeqa II's
    /// relays) are such laps; sown here, they carry none of the general path's state (route,
    /// lap outcomes, claims, the watch for endless moves), which the processor would
    /// otherwise keep on the stack.
    #[inline(always)]
    fn quiet_laps<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        tracer: &mut T,
    ) -> Result<(MoveRun, Pos), (MoveRun, Cursor)> {
        let mut run = MoveRun::new();
        let Some(relay) = &self.program.relay else {
            // One lap: no relay.
            return match self.quiet_lap(pos, self.origin) {
                Some(last) => Ok((
                    MoveRun {
                        last,
                        laps: 1,
                        ..run
                    },
                    self.origin,
                )),
                None => Err((run, Cursor::start(self.origin))),
            };
        };
        let mut from = self.origin;
        loop {
            let Some(last) = self.quiet_lap(pos, from) else {
                return Err((run, Cursor::start(from)));
            };
            run.laps += 1;
            run.last = last;
            cx.lap = run.laps;
            if let RelayWhen::When(_) = relay.when {
                // Only a general condition reads the context.
                cx.at(last, last, from, false);
            }
            let Some(next) = self.relay_to(relay, cx, pos, last, false) else {
                return Ok((run, from));
            };
            if run.laps >= self.program.max_laps {
                // The ruleset's cap on laps ends the move instead of the relay.
                return Ok((run, from));
            }
            if T::FIRINGS {
                tracer.fired(relay.id);
            }
            // The general path sows the lap from which the move is watched, and watches.
            if run.laps + 1 >= WATCH_FROM {
                return Err((run, Cursor::start(next)));
            }
            from = next;
        }
    }

    /// Sows one quiet lap from `from` in one tight loop; returns the hole its last seed fell
    /// into, or `None` (with `pos` untouched) when the lap starts off the mover's track or
    /// comes back round to a hole it must pass over.
    #[inline(always)]
    fn quiet_lap(&self, pos: &mut Position, from: Pos) -> Option<Pos> {
        let lane = self.tables.lanes.get(usize::from(self.player))?;
        let k = *lane.entry.get(usize::from(from))?;
        let hand = pos.seeds(from);
        if k == OFF_TRACK || self.may_pass_over(self.rules.skip_origin, hand, lane.len, from) {
            return None;
        }
        pos.lift(from);
        // The first seed back into the hole lifted, where the rules say so (then a lap of that
        // one seed ends where it began).
        let hand = if hand >= self.program.first_back {
            pos.sow_one(from);
            hand - 1
        } else {
            hand
        };
        let k = usize::from(k);
        // The track repeats its circuit past `len`: a lap that stays within the array is one
        // run along it.
        if let Some(run) = lane.track.get(k..k + usize::from(hand)) {
            for &to in run {
                pos.sow_one(to);
            }
            return Some(run.last().copied().unwrap_or(from));
        }
        Some(sow_quietly(pos, (&lane.track, lane.len), k, hand, from))
    }

    /// Whether a lap from `lap_origin` sowing `hand` seeds along a track of `len` positions
    /// may meet a hole it must pass over under the `skip` rule. The hole passed over is the
    /// lap's origin, or the move's (which is the first lap's): a lap too short to come back
    /// round never meets its own origin, but a later lap may meet the move's.
    #[inline(always)]
    fn may_pass_over(&self, skip: SkipOrigin, hand: u16, len: usize, lap_origin: Pos) -> bool {
        match skip {
            SkipOrigin::Never => false,
            SkipOrigin::Lap => usize::from(hand) >= len,
            SkipOrigin::Move => usize::from(hand) >= len || lap_origin != self.origin,
        }
    }

    /// The mover's route, for every lap of the move. A mover with no track (nobody) gets an
    /// empty one: every lap then sows back into its own start.
    #[inline(always)]
    fn route(&self, pos: &Position, begin: Option<Begin>) -> Route<'a> {
        const NOWHERE: &Lane = &Lane::NONE;
        let claims = self.rules.claim_clause.is_some() || pos.claims != [NO_HOLE; MAX_SEATS];
        let lanes = &self.tables.lanes;
        let back = &self.back.lanes;
        Route {
            // Nobody (and any player past them) has the last lane, which goes nowhere. (In
            // range, so the compiler drops the fallback.)
            lane: lanes
                .get(usize::from(self.player).min(lanes.len() - 1))
                .unwrap_or(NOWHERE),
            back_lane: back
                .get(usize::from(self.player).min(back.len() - 1))
                .unwrap_or(NOWHERE),
            watched: if self.program.watch_reached {
                self.opponent_holes()
            } else {
                0
            },
            claims,
            skip: self.rules.skip_origin,
            quiet: !claims
                && self.program.pieces.is_none()
                && self.program.drops.counts.none()
                && self.program.skips.is_empty()
                && self.program.redirects.is_empty(),
            begin,
        }
    }

    /// The context of this move's clauses, before its first seed.
    #[inline(always)]
    pub fn context(&self) -> Cx<'a> {
        let mut cx = Cx::new(self.rules, self.tables, self.player, self.starter);
        cx.dir = self.dir;
        cx.origin = self.origin;
        cx.entered = self.entered;
        cx
    }

    /// The context the move's laps start from: the move's first, or where it went on after
    /// the mover's decision.
    #[inline(always)]
    fn start_context(&self, begin: Option<Begin>) -> Cx<'a> {
        let mut cx = self.context();
        if let Some(begin) = begin {
            cx.move_captures = begin.captured;
            cx.reached_opponent = begin.reached_opponent;
        }
        cx
    }

    /// What a clause that may ask the mover (`optional`, or `choose`) does, its condition
    /// holding where `cx` stands: the move stops for the mover's decision; or the clause is
    /// made at once, the one hole of its `choose` set, if it has one, chosen; or, its set
    /// empty, it is not made.
    #[inline(never)]
    fn ask<T: Tracer>(
        &self,
        rule: &CaptureProgram,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        at_move_end: bool,
        tracer: &mut T,
    ) -> Asked {
        let Some(choose) = &rule.choose else {
            return if self.stops_for(rule, pos, cx, at_move_end, tracer) {
                Asked::Stop
            } else {
                Asked::Go
            };
        };
        let holes = choose(cx, pos);
        if holes == 0 {
            return Asked::Nothing;
        }
        if holes.count_ones() == 1 && !rule.optional {
            // One hole to choose from is no choice.
            cx.chosen = holes.trailing_zeros() as Pos;
            return Asked::Go;
        }
        self.stop_at(rule.id, at_move_end, pos, cx);
        if T::EVENTS {
            tracer.event(Event::ChoiceOffered {
                clause: rule.id,
                holes,
                optional: rule.optional,
            });
        }
        Asked::Stop
    }

    /// The holes the mover may choose from at the clause their move stopped at (`pending`,
    /// this mover being built from it), and whether they may leave the capture, if the
    /// clause has a `choose` set. The position is the one the move stopped in, so the set
    /// reads as it did there.
    pub fn choices(&self, pos: &Position, pending: Pending) -> Option<(Mask, bool)> {
        let (rule, _) = self.offered(pending);
        let (rule, choose) = rule.and_then(|r| Some((r, r.choose.as_ref()?)))?;
        let mut cx = self.context();
        self.resume(&mut cx, pending);
        Some((choose(&cx, pos), rule.optional))
    }

    /// The clause a stopped move was offered, and its index among its moment's captures (one
    /// the program left out, its condition false under these options, is none).
    fn offered(&self, pending: Pending) -> (Option<&CaptureProgram>, usize) {
        let clauses = if pending.at_move_end {
            &self.program.move_captures
        } else {
            &self.program.lap_captures
        };
        let index = (clauses.iter())
            .position(|r| r.id == pending.clause)
            .unwrap_or(clauses.len());
        (clauses.get(index), index)
    }

    /// Sets `cx` where the stopped move `pending` stands.
    fn resume(&self, cx: &mut Cx<'a>, pending: Pending) {
        cx.move_captures = pending.captured;
        cx.reached_opponent = pending.reached_opponent;
        cx.resowing = pending.resowing;
        cx.lap = pending.lap;
        if pending.reversed {
            cx.tables = self.back;
            cx.dir = self.dir.reversed();
        }
        cx.at(pending.last, pending.last, pending.lap_origin, false);
        if let Some(before) = pending.landed {
            cx.set_landing(pending.lap, pending.last, before);
        }
    }

    /// Whether the move stops for the mover's decision at `rule`, an optional capture whose
    /// condition holds where `cx` stands: it does when the capture would take seeds (tried on a
    /// copy), and the position then holds where the move stands. A capture that would take
    /// nothing is not offered: the clause does nothing.
    #[inline(never)]
    fn stops_for<T: Tracer>(
        &self,
        rule: &CaptureProgram,
        pos: &mut Position,
        cx: &Cx<'a>,
        at_move_end: bool,
        tracer: &mut T,
    ) -> bool {
        let (mut copy, mut tried) = (*pos, *cx);
        let seeds = self.capture(rule, &mut copy, &mut tried, &mut ());
        if seeds == 0 {
            return false;
        }
        self.stop_at(rule.id, at_move_end, pos, cx);
        if T::EVENTS {
            tracer.event(Event::CaptureOffered {
                clause: rule.id,
                seeds,
            });
        }
        true
    }

    /// Stops the move where `cx` stands, for the mover's decision on `clause`: the position
    /// holds everything the rest of the move reads. What the mover may do next is only to
    /// decide (not to decline a turn they were in: this move is that turn's).
    fn stop_at(&self, clause: ClauseId, at_move_end: bool, pos: &mut Position, cx: &Cx<'_>) {
        pos.offer = Offer::Decide(Pending {
            clause,
            at_move_end,
            origin: self.origin,
            dir: self.dir,
            entered: self.entered,
            last: cx.last,
            lap_origin: cx.lap_origin,
            lap: cx.lap,
            reversed: cx.dir != self.dir,
            resowing: cx.resowing,
            reached_opponent: cx.reached_opponent,
            captured: cx.move_captures,
            landed: cx.landed_on(),
        });
    }

    /// Goes on with a move that stopped for the mover's decision (`pending`, this mover being
    /// built from it), once they have decided: the capture offered is made (`take`) or not
    /// (`leave`), and the move goes on from there exactly as it would have unstopped, up to
    /// its end or its next stop. `start` is a buffer for the position the laps after the
    /// decision start from (to replay an endless move from); `cx` is [`Mover::context`].
    pub fn go_on<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        (pending, decision, chosen): (Pending, Decision, Pos),
        start: &mut Position,
        tracer: &mut T,
    ) -> MoveRun {
        pos.offer = Offer::Sow;
        let (last, lap_origin, lap) = (pending.last, pending.lap_origin, pending.lap);
        self.resume(cx, pending);
        let decision = match decision {
            // The hole the mover chose, for a clause with `choose` (the listing offered only
            // holes of its set): the capture is made with it.
            Decision::Choose => {
                cx.chosen = chosen;
                Decision::Take
            }
            d => d,
        };
        let run = MoveRun {
            last,
            laps: lap,
            ..MoveRun::new()
        };
        if self.program.is_relay(pending.clause) {
            // A relay the mover may decline: made, or the move ends where its lap ended.
            let outcome = match decision {
                Decision::Continue => self.relay_after(
                    pos,
                    cx,
                    last,
                    lap,
                    pending.reversed,
                    Relaying::Chosen,
                    tracer,
                ),
                _ => LapOutcome::End(last),
            };
            return self.after_lap_decided(pos, cx, outcome, run, lap_origin, start, tracer);
        }
        // The clause offered, by its id (a position read back names it so); one the program
        // left out (its condition false under these options) cannot be offered.
        let (offered, index) = self.offered(pending);
        if pending.at_move_end {
            if let (Decision::Take, Some(rule)) = (decision, offered) {
                self.capture(rule, pos, cx, tracer);
            }
            return self.move_end_from(pos, cx, run, lap_origin, index + 1, tracer);
        }
        let then = match (decision, offered) {
            (Decision::Take, Some(rule)) => {
                let taken = self.capture(rule, pos, cx, tracer);
                self.after_capture(rule, taken, pos, cx, (last, lap, pending.reversed), tracer)
            }
            _ => None,
        };
        let outcome = match then {
            Some(outcome) => outcome,
            None => {
                self.lap_captures_and_relay(pos, cx, last, lap, pending.reversed, index + 1, tracer)
            }
        };
        self.after_lap_decided(pos, cx, outcome, run, lap_origin, start, tracer)
    }

    /// What follows the lap a decision was made at, once its captures and relay have given
    /// `outcome`: the lap's effects, then the laps that follow or the move's end (or another
    /// stop). The laps that follow are watched for a repeat from here (`start`).
    #[allow(clippy::too_many_arguments)]
    fn after_lap_decided<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        outcome: LapOutcome,
        run: MoveRun,
        lap_origin: Pos,
        start: &mut Position,
        tracer: &mut T,
    ) -> MoveRun {
        let (last, lap) = (run.last, run.laps);
        if let LapOutcome::Stop(_) = outcome {
            return run.stopped_at(last);
        }
        cx.at(last, last, lap_origin, false);
        self.lap_end_effects(pos, cx, last, lap_origin, tracer);
        match outcome {
            LapOutcome::Relay(cursor, _) => {
                // The move's laps go on from here, watched for a repeat from here.
                *start = *pos;
                let begin = Begin {
                    cursor,
                    laps: lap,
                    captured: cx.move_captures,
                    reached_opponent: cx.reached_opponent,
                };
                self.run_from(pos, cx, start, Some(begin), tracer)
            }
            LapOutcome::End(last) | LapOutcome::Stop(last) => {
                self.move_end(pos, cx, MoveRun { last, ..run }, lap_origin, tracer)
            }
        }
    }

    /// The move's first lap: lift the hole played or, for an entry, take the seeds entered
    /// from what the player holds into hand (an entry's first lap is the one lap that starts
    /// with seeds in hand: a lap of captured seeds sown again follows another lap).
    #[inline(always)]
    fn first_lap(&self, pos: &mut Position, begin: Option<Begin>) -> Cursor {
        if let Some(begin) = begin {
            return begin.cursor;
        }
        let mut cursor = Cursor::start(self.origin);
        if self.entered > 0 {
            // The listing entered no more than the player holds.
            pos.debit(self.rules, self.player, u32::from(self.entered));
            cursor.hand = self.entered;
        }
        cursor
    }

    /// Goes on with a move that has sown [`WATCH_FROM`] laps, watching for a repeated lap-end
    /// state with Brent's cycle detection. Returns the run and cursor when the move ends, or
    /// (as `Err`) the finished run of an endless move or of one stopped at the lap limit.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn watch<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        route: &Route<'_>,
        start: &Position,
        mut cursor: Cursor,
        mut run: MoveRun,
        tracer: &mut T,
    ) -> Result<(MoveRun, Cursor), MoveRun> {
        // Lap-end states, watched from lap WATCH_FROM's.
        let mut watch = Brent::new(LapState { pos: *pos, cursor }, 2);
        let n = Blocks::of(self.rules.geometry.positions);
        loop {
            run.laps += 1;
            match self.lap(pos, cx, route, cursor, run.laps, tracer) {
                LapOutcome::End(last) => {
                    run.last = last;
                    return Ok((run, cursor));
                }
                LapOutcome::Stop(last) => return Ok((run.stopped_at(last), cursor)),
                LapOutcome::Relay(next, _) => cursor = next,
            }
            let limit = if run.laps >= MAX_LAPS_PER_MOVE {
                Some(Limit::Laps)
            } else if cx.steps > self.program.max_steps {
                Some(Limit::Steps)
            } else {
                None
            };
            if limit.is_some() {
                run.limit = limit;
                run.hand = (cursor.from, cursor.hand);
                return Err(run);
            }
            if let Some(period) = watch.repeats(
                |saved| saved.cursor == cursor && saved.pos.same_as(pos, n),
                || LapState { pos: *pos, cursor },
            ) {
                // Found a repeat, `period` laps apart. Locate the first one exactly.
                return Err(self.replay_endless(pos, cx, route, start, period, tracer));
            }
        }
    }

    /// An endless move whose lap-end states repeat with `period`: plays it again from `start`
    /// up to the first repeat.
    #[allow(clippy::too_many_arguments)]
    fn replay_endless<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        route: &Route<'_>,
        start: &Position,
        period: u32,
        tracer: &mut T,
    ) -> MoveRun {
        let first = self.first_repeat(route, start, period);
        *pos = *start;
        // Untraced here (a traced move knows its end before it starts): only the firings
        // counted so far are taken back.
        if T::FIRINGS {
            tracer.void_move();
        }
        let mut replay = MoveRun::new();
        *cx = self.start_context(route.begin);
        let mut cursor = self.first_lap(pos, route.begin);
        let base = laps_before(route.begin);
        for lap in base + 1..=base + first + period {
            replay.laps = lap;
            match self.lap(pos, cx, route, cursor, lap, tracer) {
                LapOutcome::Relay(next, last) => {
                    cursor = next;
                    replay.last = last;
                }
                // Cannot happen: the same laps relayed the first time.
                LapOutcome::End(last) | LapOutcome::Stop(last) => {
                    replay.last = last;
                    break;
                }
            }
        }
        let first = base + first;
        replay.endless = Some((first, first + period));
        replay.hand = (cursor.from, cursor.hand);
        if T::EVENTS {
            tracer.event(Event::EndlessMove {
                first,
                repeat: first + period,
            });
        }
        replay
    }

    /// The lap after which the move's lap-end states start repeating with `period`.
    fn first_repeat(&self, route: &Route<'_>, start: &Position, period: u32) -> u32 {
        // The move's first lap from its start: an entry takes its seeds into hand first.
        let mut entered = *start;
        let begin = self.first_lap(&mut entered, route.begin);
        let start = &entered;
        let blank = self.start_context(route.begin);
        let base = laps_before(route.begin);
        let step = |pos: &mut Position, cursor: &mut Cursor, cx: &mut Cx<'a>, lap: u32| {
            if let LapOutcome::Relay(next, _) =
                self.lap(pos, cx, route, *cursor, base + lap, &mut ())
            {
                *cursor = next;
            }
        };
        let (mut slow, mut slow_cursor, mut slow_run) = (*start, begin, blank);
        let (mut fast, mut fast_cursor, mut fast_run) = (*start, begin, blank);
        step(&mut slow, &mut slow_cursor, &mut slow_run, 1);
        for lap in 1..=period + 1 {
            step(&mut fast, &mut fast_cursor, &mut fast_run, lap);
        }
        let mut first = 1;
        while (slow, slow_cursor) != (fast, fast_cursor) {
            first += 1;
            step(&mut slow, &mut slow_cursor, &mut slow_run, first);
            step(&mut fast, &mut fast_cursor, &mut fast_run, first + period);
        }
        first
    }

    /// Turns the context to the way a lap is sown: a lap sown against the move's direction
    /// (`reversed`, after a relay that turns it) reads its holes the other way too. Nothing
    /// to do in rules whose laps never turn.
    #[inline(always)]
    fn face(&self, cx: &mut Cx<'a>, reversed: bool) {
        if self.program.reverses() {
            let (tables, dir) = if reversed {
                (self.back, self.dir.reversed())
            } else {
                (self.tables, self.dir)
            };
            cx.tables = tables;
            cx.dir = dir;
        }
    }

    /// Sows one lap.
    #[inline(always)]
    fn lap<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        route: &Route<'_>,
        cursor: Cursor,
        lap: u32,
        tracer: &mut T,
    ) -> LapOutcome {
        let rules = self.rules;
        let lap_origin = cursor.from;
        cx.lap = lap;

        // An entry's seeds are in hand at its first lap; captured seeds sown again, later.
        let entering = lap == 1 && self.entered > 0;
        cx.resowing = cursor.hand != 0 && !entering;
        cx.reached_opponent |= cursor.reached_opponent;
        let mut at = cursor.from;
        let mut hand;
        self.face(cx, cursor.reversed);
        if cursor.hand == 0 {
            let mut pieces = 0;
            // Whether the lift was traced already (with the holes gathered after it).
            let mut traced = false;
            hand = match &self.program.lift {
                // The move's first lap lifts what the rules say (the rest stays), and the holes
                // gathered with it.
                Lifting::Part { first, gather, .. } if lap == 1 && at == self.origin => {
                    let (n, lifted_traced) = self.first_lift(pos, cx, (first, gather), tracer);
                    traced = lifted_traced;
                    n
                }
                // A relay's lap (a lap after the first that lifts a hole): at least one seed
                // (the relay lifts only a hole holding seeds), the hole read as `hole`.
                Lifting::Part {
                    relay: Some(lift), ..
                } if lap > 1 => {
                    let n = cx.with_hole(at, |cx| lift(cx, pos)).max(1);
                    pos.lift_part(at, n)
                }
                Lifting::WithPieces => {
                    let n = pos.lift(at);
                    pieces = self.pieces_lifted(pos, at, n);
                    n
                }
                Lifting::All | Lifting::Part { .. } => pos.lift(at),
            };
            if T::EVENTS && !traced {
                tracer.event(Event::Lift {
                    lap,
                    hole: at,
                    seeds: hand,
                    pieces,
                });
            }
            if hand >= self.program.first_back {
                if self.program.pieces.is_some() {
                    let fell = self.piece_falls(pos, at, hand);
                    cx.set_dropped(fell);
                }
                hand -= 1;
                // Back into the hole lifted (which may still hold seeds `lift` left there).
                let seeds = pos.sow_one(at);
                cx.reached_opponent |= route.watched & 1 << (at & POS_BITS) != 0;
                if T::EVENTS {
                    let pieces = self.rules.piece_slots().in_hole(pos, at);
                    tracer.event(Event::Drop {
                        hole: at,
                        seeds,
                        pieces,
                    });
                }
                if self.program.drops.counts.may_fire(seeds) {
                    self.drop_clauses(pos, cx, at, hand == 0, lap_origin, tracer);
                }
            }
        } else {
            hand = cursor.hand;
            if T::EVENTS {
                tracer.event(if entering {
                    Event::Enter {
                        lap,
                        hole: at,
                        seeds: hand,
                    }
                } else {
                    Event::Resow {
                        lap,
                        after: at,
                        seeds: hand,
                    }
                });
            }
        }
        cx.steps += u64::from(hand);
        // The lap walks the mover's track by index, from the position after the lap's start.
        // With nowhere to sow after it (every position closed, or NOBODY's missing track), the
        // seeds go back where they came from: a track of that one position.
        let stay: [Pos; MAX_POSITIONS];
        let lane = if cursor.reversed {
            route.back_lane
        } else {
            route.lane
        };
        let (track, len, mut k) = match lane.entry.get(usize::from(at)) {
            Some(&k) if k != OFF_TRACK => (&lane.track, lane.len, usize::from(k)),
            _ => {
                stay = [lap_origin; MAX_POSITIONS];
                (&stay, 1, 0)
            }
        };
        if entering {
            // Entered seeds start in the lap's first hole itself, when it is on the track (a
            // closed one is passed over as any seed passes it).
            let before = (k + len - 1) % len;
            if track.get(before) == Some(&at) {
                k = before;
            }
        }
        let watched = route.watched;
        // Whether a seed of this lap fell into an opponent's hole, kept in a register and
        // written back before any clause can read it.
        let mut reached = false;
        if !T::EVENTS && route.quiet && !self.may_pass_over(route.skip, hand, len, lap_origin) {
            // Nothing can happen between two drops: sow the lap in one tight loop (with no
            // look at the opponent's row unless a clause asks about it).
            if watched == 0 {
                at = sow_quietly(pos, (track, len), k, hand, at);
            } else {
                while hand > 0 {
                    at = along(track, &mut k, len);
                    pos.sow_one(at);
                    hand -= 1;
                    reached |= watched & (1 << (at & POS_BITS)) != 0;
                }
            }
            cx.reached_opponent |= reached;
            return self.lap_end(pos, cx, at, lap, (lap_origin, cursor.reversed), tracer);
        }
        // A track of one position cannot pass over it.
        // Entered seeds were lifted from no hole: there is no emptied origin to pass over.
        let skip = match route.skip {
            SkipOrigin::Lap if len > 1 && !entering => lap_origin,
            SkipOrigin::Move if len > 1 && self.entered == 0 => self.origin,
            _ => NO_HOLE,
        };
        let skipped = if skip == NO_HOLE {
            0
        } else {
            1 << (skip & POS_BITS)
        };
        let mut claimed = if route.claims { claimed_mask(pos) } else { 0 };
        let drops = &self.program.drops;
        // The positions where a seed needs more than a drop, tested together with one bit
        // test a seed: the skipped origin, claimed holes, and the opponent's holes until the
        // lap first reaches one (when that is watched).
        // With skip or redirect clauses, every position is a stop: each seed asks them first.
        // With pieces too: each drop asks whether a piece falls.
        let skipping = if self.program.stop_everywhere {
            Mask::MAX
        } else {
            0
        };
        let redirecting = !self.program.redirects.is_empty();
        let mut stops = claimed | skipped | watched | skipping;
        // Positions passed over since the last seed fell: a whole circuit of them, with
        // nothing changed, means no hole will ever take the seeds in hand.
        let mut passed = 0usize;
        let counts = drops.counts;
        if !T::EVENTS && stops == 0 {
            // Nothing to stop at, only drop clauses to try: no test of the seed's position,
            // until a drop clause claims a hole. (A traced move takes the loop below, so the
            // property tests compare the two.)
            while hand > 0 {
                at = along(track, &mut k, len);
                let seeds = pos.sow_one(at);
                hand -= 1;
                if counts.may_fire(seeds) {
                    self.drop_clauses(pos, cx, at, hand == 0, lap_origin, tracer);
                    claimed = claimed_mask(pos);
                    stops = claimed;
                    if stops != 0 {
                        break;
                    }
                }
            }
        }
        while hand > 0 {
            at = along(track, &mut k, len);
            let bit: Mask = 1 << (at & POS_BITS);
            if stops & bit != 0 {
                // Passed over: the origin, or a hole a skip clause names for this seed.
                let passed_by = if at == skip {
                    Some(None)
                } else if skipping != 0 && claimed & bit == 0 {
                    self.skipped_by(pos, cx, at, hand, lap_origin).map(Some)
                } else {
                    None
                };
                if let Some(clause) = passed_by {
                    if T::EVENTS {
                        tracer.event(Event::Skip { hole: at, clause });
                    }
                    if let Some(id) = clause {
                        cx.steps += 1;
                        if T::FIRINGS {
                            tracer.fired(id);
                        }
                    }
                    passed += 1;
                    if passed >= len {
                        self.refused(pos, lap_origin, hand, tracer);
                        if self.program.pieces.is_some() {
                            // Pieces in hand go back with the seeds.
                            let pieces = self.rules.piece_slots();
                            for owner in 0..pieces.count() {
                                if let Some(piece) =
                                    pieces.get(pos, owner).filter(|p| p.at == IN_HAND)
                                {
                                    let back = Piece {
                                        at: lap_origin,
                                        covered: 0,
                                        ..piece
                                    };
                                    pieces.set(pos, owner, back);
                                }
                            }
                        }
                        at = lap_origin;
                        break;
                    }
                    continue;
                }
                if redirecting
                    && claimed & bit == 0
                    && let Some(to) =
                        self.redirect(pos, cx, (at, hand, lap_origin), reached, tracer)
                {
                    // The seed went elsewhere: a last seed ends the lap where it went (out of
                    // play or to a player: at the hole it was due into).
                    passed = 0;
                    hand -= 1;
                    if to != NO_HOLE {
                        if route.claims {
                            claimed = claimed_mask(pos);
                            stops |= claimed;
                        }
                        if hand == 0 {
                            at = to;
                        }
                    }
                    continue;
                }
                if claimed & bit != 0 {
                    // A claimed hole keeps nothing: the seed goes to the claimer.
                    let claimer: Player = if pos.claims[0] == at { 0 } else { 1 };
                    pos.credit(rules, claimer, 1);
                    hand -= 1;
                    if claimer == self.player {
                        cx.move_captures += 1;
                    }
                    if T::EVENTS {
                        tracer.event(Event::Diverted {
                            clause: rules.claim_clause.unwrap_or_default(),
                            hole: at,
                            to: claimer,
                        });
                    }
                    continue;
                }
                if watched & bit != 0 {
                    // The lap reaches the opponent's row: noted, and the seed sown as usual.
                    reached = true;
                    stops &= !watched | skipping;
                }
                if self.program.pieces.is_some() {
                    let fell = self.piece_falls(pos, at, hand);
                    cx.set_dropped(fell);
                }
            }
            passed = 0;
            let seeds = pos.sow_one(at);
            hand -= 1;
            if T::EVENTS {
                let pieces = self.rules.piece_slots().in_hole(pos, at);
                tracer.event(Event::Drop {
                    hole: at,
                    seeds,
                    pieces,
                });
            }
            if counts.may_fire(seeds) {
                cx.reached_opponent |= reached;
                self.drop_clauses(pos, cx, at, hand == 0, lap_origin, tracer);
                claimed = claimed_mask(pos);
                stops = claimed | skipped | skipping | if reached { 0 } else { watched };
            }
        }
        cx.reached_opponent |= reached;
        self.lap_end(pos, cx, at, lap, (lap_origin, cursor.reversed), tracer)
    }

    /// The move's first lift where the rules say what it lifts (`[sowing] lift`) or gather
    /// other holes with it (`[sowing] gather`): the seeds in hand, and whether the lift was
    /// traced (with the holes gathered after it). Out of line: few rules have either.
    #[inline(never)]
    fn first_lift<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        (first, gather): (&Option<super::compile::Num>, &Option<super::compile::Holes>),
        tracer: &mut T,
    ) -> (u16, bool) {
        let at = self.origin;
        // The holes gathered, read before anything is lifted: open holes holding seeds, the
        // hole played left out (an entry gathers none).
        let gathered = match gather {
            Some(set) if self.entered == 0 => set(cx, pos) & pos.sown() & !pos.closed & !bit(at),
            _ => 0,
        };
        let n = match first {
            Some(lift) => {
                let n = lift(cx, pos);
                pos.lift_part(at, n)
            }
            None => pos.lift(at),
        };
        if gathered == 0 {
            return (n, false);
        }
        if T::EVENTS {
            tracer.event(Event::Lift {
                lap: 1,
                hole: at,
                seeds: n,
                pieces: 0,
            });
        }
        (self.gather(pos, gathered, n, 1, tracer), T::EVENTS)
    }

    /// Lifts every hole of `gathered` into the hand, which holds `hand` seeds; returns what it
    /// holds then. Each hole lifted is a lift of its own in the trace.
    #[cold]
    #[inline(never)]
    fn gather<T: Tracer>(
        &self,
        pos: &mut Position,
        mut gathered: Mask,
        mut hand: u16,
        lap: u32,
        tracer: &mut T,
    ) -> u16 {
        while gathered != 0 {
            let h = gathered.trailing_zeros() as Pos;
            gathered &= gathered - 1;
            let seeds = pos.lift(h);
            // The board holds at most MAX_SEEDS, which fits u16.
            hand = hand.saturating_add(seeds);
            if T::EVENTS {
                tracer.event(Event::Lift {
                    lap,
                    hole: h,
                    seeds,
                    pieces: 0,
                });
            }
        }
        hand
    }

    /// The pieces (`[pieces]`) of the hole `from` just lifted, `hand` seeds and pieces in
    /// all: each goes into the hand, marked with the drop at which it falls (the seeds in hand
    /// just before it does), by the rules' order. Returns how many there were.
    #[inline(never)]
    fn pieces_lifted(&self, pos: &mut Position, from: Pos, hand: u16) -> u16 {
        let Some(order) = self.program.pieces else {
            return 0;
        };
        let pieces = self.rules.piece_slots();
        // The hole's pieces from the top of its stack down: the least covered first.
        let mut lifted = [(0u16, 0 as Player); MAX_SEATS];
        let mut k = 0usize;
        for (owner, piece) in pieces.all(pos) {
            if piece.at == from
                && let Some(l) = lifted.get_mut(k)
            {
                *l = (piece.covered, owner);
                k += 1;
            }
        }
        let lifted = lifted.get_mut(..k).unwrap_or_default();
        lifted.sort_unstable();
        let count = k as u16;
        for (i, &(covered, owner)) in lifted.iter().enumerate() {
            let i = i as u16;
            let falls = match order {
                // Last in, first out: the seeds and pieces dropped on it fall first.
                PieceOrder::Stack => hand.saturating_sub(covered),
                PieceOrder::First => hand.saturating_sub(i),
                PieceOrder::Last => count - i,
            };
            if let Some(piece) = pieces.get(pos, owner) {
                let in_hand = Piece {
                    at: IN_HAND,
                    covered: falls,
                    ..piece
                };
                pieces.set(pos, owner, in_hand);
            }
        }
        count
    }

    /// A seed or piece is about to fall into `at`, `hand` in hand: the piece due at this drop
    /// lands there, and every piece already there is covered by one more. Returns the piece
    /// that fell (by its first owner), or [`NOBODY`] for a seed.
    #[inline(always)]
    fn piece_falls(&self, pos: &mut Position, at: Pos, hand: u16) -> Player {
        let stack = self.program.pieces == Some(PieceOrder::Stack);
        let pieces = self.rules.piece_slots();
        let mut fell = NOBODY;
        for owner in 0..pieces.count() {
            let Some(piece) = pieces.get(pos, owner) else {
                continue;
            };
            if piece.at == at && stack {
                let covered = piece.covered.saturating_add(1);
                pieces.set(pos, owner, Piece { covered, ..piece });
            } else if piece.at == IN_HAND && piece.covered == hand {
                pieces.set(
                    pos,
                    owner,
                    Piece {
                        at,
                        covered: 0,
                        ..piece
                    },
                );
                fell = owner;
            }
        }
        fell
    }

    /// The first skip clause that passes the seed in hand over `at`, if one does.
    #[inline(never)]
    fn skipped_by(
        &self,
        pos: &Position,
        cx: &mut Cx<'_>,
        at: Pos,
        hand: u16,
        lap_origin: Pos,
    ) -> Option<crate::rules::ClauseId> {
        cx.at(at, NO_HOLE, lap_origin, hand == 1);
        cx.hand = hand;
        (self.program.skips.iter())
            .find(|(_, when)| when(cx, pos))
            .map(|&(id, _)| id)
    }

    /// Sends the seed in hand due into `at` elsewhere, when a redirect clause holds: into
    /// the hole it names (its drop clauses tried there), out of play (booked to the mover's
    /// removed seeds), or to a player's holdings. Returns where it went ([`NO_HOLE`]: out of
    /// play or to a player, the lap's end staying at `at`), or none when no clause holds or
    /// the clause's player is nobody: the seed then falls into `at` as any seed does. Kept
    /// out of the lap's loop, which only games with redirects reach.
    #[inline(never)]
    fn redirect<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        (at, hand, lap_origin): (Pos, u16, Pos),
        reached: bool,
        tracer: &mut T,
    ) -> Option<Pos> {
        cx.at(at, NO_HOLE, lap_origin, hand == 1);
        cx.hand = hand;
        let (id, _, dest) = (self.program.redirects.iter()).find(|(_, when, _)| when(cx, pos))?;
        // Nobody (the owner of a neutral hole): no redirect, the seed falls where it was due.
        let player = match dest {
            Redirected::Player(who) => {
                let player = who(cx, pos);
                if !self.rules.geometry.players().contains(&player) {
                    return None;
                }
                player
            }
            _ => NOBODY,
        };
        cx.steps += 1;
        if T::FIRINGS {
            tracer.fired(*id);
        }
        let to = match dest {
            Redirected::Removed => None,
            // A hole off the board keeps the seed where it was due.
            Redirected::Hole(h) => Some(match h(cx, pos) {
                dest if dest < self.rules.geometry.positions => dest,
                _ => at,
            }),
            Redirected::Player(_) => {
                // The seed joins what the player holds, as a claimed hole's seed does.
                pos.credit(self.rules, player, 1);
                if player == self.player {
                    cx.move_captures += 1;
                }
                if T::EVENTS {
                    tracer.event(Event::Diverted {
                        clause: *id,
                        hole: at,
                        to: player,
                    });
                }
                return Some(NO_HOLE);
            }
        };
        let seeds = match to {
            Some(dest) => pos.sow_one(dest),
            None => {
                if let Some(t) = pos.taken.get_mut(usize::from(self.player)) {
                    *t += 1;
                }
                0
            }
        };
        if T::EVENTS {
            tracer.event(Event::Redirect {
                clause: *id,
                hole: at,
                to,
                seeds,
            });
        }
        let Some(dest) = to else {
            return Some(NO_HOLE);
        };
        if self.program.drops.counts.may_fire(seeds) {
            cx.reached_opponent |= reached;
            self.drop_clauses(pos, cx, dest, hand == 1, lap_origin, tracer);
        }
        Some(dest)
    }

    /// Every position of the circuit has passed the seeds in hand over, and nothing changed
    /// meanwhile, so none ever will take them: they go back into the hole the lap was lifted
    /// from, and the lap ends there.
    #[cold]
    fn refused<T: Tracer>(&self, pos: &mut Position, lap_origin: Pos, hand: u16, tracer: &mut T) {
        pos.set(lap_origin, pos.seeds(lap_origin).saturating_add(hand));
        if T::EVENTS {
            tracer.event(Event::Refused {
                hole: lap_origin,
                seeds: hand,
            });
        }
    }

    /// What follows a lap whose last seed fell into `last`: lap captures, then a relay.
    #[inline(always)]
    fn lap_end<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        last: Pos,
        lap: u32,
        (lap_origin, reversed): (Pos, bool),
        tracer: &mut T,
    ) -> LapOutcome {
        if T::EVENTS {
            tracer.event(Event::LapEnd { lap, last });
        }
        cx.at(last, last, lap_origin, false);
        let outcome = self.lap_captures_and_relay(pos, cx, last, lap, reversed, 0, tracer);
        if let LapOutcome::Stop(_) = outcome {
            // The lap's effects wait for the mover's decision.
            return outcome;
        }
        self.lap_end_effects(pos, cx, last, lap_origin, tracer);
        outcome
    }

    /// The lap's effects and the reset of lap-scoped variables, once its captures and relay
    /// are decided.
    #[inline(always)]
    fn lap_end_effects<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        last: Pos,
        lap_origin: Pos,
        tracer: &mut T,
    ) {
        if !self.program.lap_effects.is_empty() {
            // After the lap's captures (and the relay decided), its effects.
            cx.at(last, last, lap_origin, false);
            apply_effects(&self.program.lap_effects, pos, cx, tracer);
        }
        if self.program.lap_vars {
            super::reset_vars(self.rules, pos, |s| s == VarScope::Lap);
        }
    }

    /// The lap-end captures from the `from`-th on, then the relay (see [`Mover::lap_end`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn lap_captures_and_relay<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        last: Pos,
        lap: u32,
        reversed: bool,
        from: usize,
        tracer: &mut T,
    ) -> LapOutcome {
        for rule in self.program.lap_captures.get(from..).unwrap_or_default() {
            if !(rule.when)(cx, pos) {
                continue;
            }
            if rule.asks {
                match self.ask(rule, pos, cx, false, tracer) {
                    Asked::Stop => return LapOutcome::Stop(last),
                    Asked::Nothing => continue,
                    Asked::Go => {}
                }
            }
            let taken = self.capture(rule, pos, cx, tracer);
            if let Some(outcome) =
                self.after_capture(rule, taken, pos, cx, (last, lap, reversed), tracer)
            {
                return outcome;
            }
        }
        self.relay_after(pos, cx, last, lap, reversed, Relaying::Offered, tracer)
    }

    /// What a lap-end capture that took `taken` seeds does next (its `then`), the lap having
    /// ended in `last`: `None` to go on with the lap's other clauses.
    #[inline(always)]
    fn after_capture<T: Tracer>(
        &self,
        rule: &CaptureProgram,
        taken: u32,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        (last, lap, reversed): (Pos, u32, bool),
        tracer: &mut T,
    ) -> Option<LapOutcome> {
        match rule.then {
            After::Continue => {}
            After::End => return Some(LapOutcome::End(last)),
            After::Sow if taken > 0 => {
                return Some(self.resow(rule, taken, pos, cx, (last, lap, reversed), tracer));
            }
            After::Sow => {}
            After::Relay if taken > 0 => {
                return Some(self.relay_after(
                    pos,
                    cx,
                    last,
                    lap,
                    reversed,
                    Relaying::Forced,
                    tracer,
                ));
            }
            After::Relay => {}
        }
        None
    }

    /// The next lap of a capture that sows its seeds again (`then = "sow"`, having taken
    /// `taken` seeds), after a lap that ended in `last` (out of line: few rules sow captures
    /// again, and the usual lap's code stays short).
    #[inline(never)]
    fn resow<T: Tracer>(
        &self,
        rule: &CaptureProgram,
        taken: u32,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        (last, lap, reversed): (Pos, u32, bool),
        tracer: &mut T,
    ) -> LapOutcome {
        if lap >= self.program.max_laps {
            // The ruleset's cap on laps ends the move: the seeds in hand go back into the
            // hole the lap ended in.
            let seeds = u16::try_from(taken).unwrap_or(u16::MAX);
            pos.set(last, pos.seeds(last).saturating_add(seeds));
            if T::EVENTS {
                tracer.event(Event::HandBack { hole: last, seeds });
                tracer.event(Event::LapCap { laps: lap });
            }
            return LapOutcome::End(last);
        }
        // Captures of one move never exceed the board's seeds, which fit u16.
        let mut hand = u16::try_from(taken).unwrap_or(u16::MAX);
        if let Some(also) = &rule.lift_also {
            // Seeds of the hole the lap ended in go with the captured ones.
            let there = pos.seeds(last);
            let k = also(cx, pos).clamp(0, i64::from(there));
            let k = u16::try_from(k).unwrap_or(0);
            if k > 0 {
                pos.set(last, there - k);
                hand = hand.saturating_add(k);
                if T::EVENTS {
                    tracer.event(Event::Lift {
                        lap: lap + 1,
                        hole: last,
                        seeds: k,
                        pieces: 0,
                    });
                }
            }
        }
        let from = match &rule.sow_after {
            Some(after) => match after(cx, pos) {
                NO_HOLE => last,
                h => h,
            },
            None => last,
        };
        let reversed = match &rule.sow_direction {
            // Against the move's own direction, or with it; `none` (an unset direction
            // variable) keeps the lap's.
            Some(way) => match way(cx, pos) {
                0 => reversed,
                d => d != crate::rules::dir_value(self.dir),
            },
            None => reversed,
        };
        LapOutcome::Relay(
            Cursor {
                from,
                hand,
                reached_opponent: self.program.track_reached && cx.reached_opponent,
                reversed,
                captured: self.tracked_captures(cx),
            },
            last,
        )
    }

    /// The relay after a lap whose captures let the move go on. A relay the mover may
    /// decline stops the move for their decision, unless they chose to go on already or a
    /// capture made it (see [`Relaying`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn relay_after<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        last: Pos,
        lap: u32,
        reversed: bool,
        relaying: Relaying,
        tracer: &mut T,
    ) -> LapOutcome {
        if let Some(relay) = &self.program.relay
            && let Some(from) = self.relay_to(relay, cx, pos, last, relaying == Relaying::Forced)
        {
            if lap >= self.program.max_laps {
                // The ruleset's cap on laps ends the move instead of the relay.
                if T::EVENTS {
                    tracer.event(Event::LapCap { laps: lap });
                }
                return LapOutcome::End(last);
            }
            if relaying == Relaying::Offered
                && let Some(may_stop) = &relay.optional
                && may_stop(cx, pos)
            {
                self.stop_at(relay.id, false, pos, cx);
                if T::EVENTS {
                    tracer.event(Event::RelayOffered {
                        clause: relay.id,
                        hole: from,
                    });
                }
                return LapOutcome::Stop(last);
            }
            if T::EVENTS {
                tracer.event(Event::Relay {
                    clause: relay.id,
                    hole: from,
                });
            }
            if T::FIRINGS {
                tracer.fired(relay.id);
            }
            return LapOutcome::Relay(
                Cursor {
                    from,
                    hand: 0,
                    reached_opponent: self.program.track_reached && cx.reached_opponent,
                    reversed: reversed != relay.reverse,
                    captured: self.tracked_captures(cx),
                },
                last,
            );
        }
        LapOutcome::End(last)
    }

    /// The seeds the move has captured, as its lap-end states keep them (see
    /// [`Cursor::captured`]).
    #[inline(always)]
    fn tracked_captures(&self, cx: &Cx<'_>) -> u32 {
        if self.program.track_captures {
            cx.move_captures
        } else {
            0
        }
    }

    /// The hole the relay clause sends the next lap from, after a lap that ended in `last`,
    /// or `None` when it does not fire (`forced`: whatever its condition says, the hole
    /// holding seeds). `cx` stands at `last`.
    #[inline(always)]
    fn relay_to(
        &self,
        relay: &RelayProgram,
        cx: &Cx<'_>,
        pos: &Position,
        last: Pos,
        forced: bool,
    ) -> Option<Pos> {
        let (fires, least) = match &relay.when {
            _ if forced => (true, 1),
            RelayWhen::AtLeast(least) => (true, *least),
            RelayWhen::When(when) => (when(cx, pos), 1),
        };
        let from = match (&relay.hole, relay.from) {
            (Some(hole), _) => hole(cx, pos),
            (None, RelayFrom::Landing) => last,
            (None, RelayFrom::Next) => cx.tables.look(self.player, last, true),
        };
        (fires && from != NO_HOLE && u32::from(pos.seeds(from)) >= least).then_some(from)
    }

    /// The other players' holes (the opponent's, with two).
    fn opponent_holes(&self) -> Mask {
        let g = &self.rules.geometry;
        let all = g.holes_mask.iter().fold(0, |m, h| m | h);
        all & !g
            .holes_mask
            .get(usize::from(self.player))
            .copied()
            .unwrap_or(0)
    }

    /// Tries the drop clauses after a seed fell into `at`.
    #[inline(always)]
    fn drop_clauses<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        at: Pos,
        last_seed: bool,
        lap_origin: Pos,
        tracer: &mut T,
    ) {
        if cx.steps > self.program.max_steps {
            // The move is past its work limit: it stops at the end of this lap.
            return;
        }
        if last_seed && self.program.landing {
            // What the lap's last hole held before this seed, for `landed_on`, read before a
            // capture at this drop takes from it.
            cx.set_landing(cx.lap, at, pos.seeds(at).saturating_sub(1));
        }
        if !self.program.drop_effects.is_empty() {
            // After the captures of the drop, its effects.
            self.drop_captures(pos, cx, at, last_seed, lap_origin, tracer);
            cx.at(at, NO_HOLE, lap_origin, last_seed);
            apply_effects(&self.program.drop_effects, pos, cx, tracer);
            return;
        }
        self.drop_captures(pos, cx, at, last_seed, lap_origin, tracer);
    }

    /// The capture clauses of a drop.
    #[inline(always)]
    fn drop_captures<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        at: Pos,
        last_seed: bool,
        lap_origin: Pos,
        tracer: &mut T,
    ) {
        let drops = &self.program.drops;
        if drops.looked_up {
            return self.looked_up_drop_clauses(pos, cx, at, last_seed, lap_origin, tracer);
        }
        for (rule, guard) in self.program.drop_captures.iter().zip(&drops.guards) {
            self.drop_clause(rule, *guard, pos, cx, (at, last_seed, lap_origin), tracer);
        }
    }

    /// Tries one drop clause at the hole `at` just dropped into: its guard, then its
    /// condition (each term a step of work), then the capture.
    #[inline(always)]
    fn drop_clause<T: Tracer>(
        &self,
        rule: &CaptureProgram,
        guard: Guard,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        (at, last_seed, lap_origin): (Pos, bool, Pos),
        tracer: &mut T,
    ) {
        let fires = match guard {
            // Left out when the program is compiled; here for the match.
            Guard::Never => false,
            // A count looked up before may be gone: an earlier clause may have emptied the hole.
            Guard::Exactly(n) => pos.seeds(at) == n,
            Guard::Seeds(n) if pos.seeds(at) != n => false,
            Guard::Seeds(_) | Guard::Any => {
                cx.steps += rule.cost;
                cx.at(at, NO_HOLE, lap_origin, last_seed);
                (rule.when)(cx, pos)
            }
        };
        if fires {
            // A capture reads the hole dropped into as both `here` and `last`, and whether the
            // seed was the lap's last as its condition did.
            cx.at(at, at, lap_origin, last_seed);
            self.capture(rule, pos, cx, tracer);
        }
    }

    /// [`Mover::drop_clauses`] for many clauses: only those whose guard may hold at this
    /// count are tried (those guarded by another count cannot fire), in file order.
    #[inline(never)]
    fn looked_up_drop_clauses<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        at: Pos,
        last_seed: bool,
        lap_origin: Pos,
        tracer: &mut T,
    ) {
        let drops = &self.program.drops;
        let seeds = pos.seeds(at);
        let from = drops.by_count.partition_point(|&(n, _)| n < seeds);
        let counted = drops.by_count.get(from..).unwrap_or_default();
        let mut counted = counted
            .iter()
            .take_while(|&&(n, _)| n == seeds)
            .map(|&(_, i)| i);
        let mut unguarded = drops.unguarded.iter().copied();
        let (mut a, mut b) = (counted.next(), unguarded.next());
        // The two lists are each in file order: merged, the clauses are tried in file order.
        while a.is_some() || b.is_some() {
            let i = match (a, b) {
                (Some(x), Some(y)) if x < y => {
                    a = counted.next();
                    x
                }
                (Some(x), None) => {
                    a = counted.next();
                    x
                }
                (_, Some(y)) => {
                    b = unguarded.next();
                    y
                }
                (None, None) => break,
            };
            let (Some(rule), Some(guard)) = (
                self.program.drop_captures.get(usize::from(i)),
                drops.guards.get(usize::from(i)),
            ) else {
                continue;
            };
            self.drop_clause(rule, *guard, pos, cx, (at, last_seed, lap_origin), tracer);
        }
    }

    /// Fires a capture clause; returns the seeds taken.
    ///
    /// `cx` stands at the hole the clause fired at, as both `here` and `last`.
    #[inline(always)]
    fn capture<T: Tracer>(
        &self,
        program: &CaptureProgram,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        tracer: &mut T,
    ) -> u32 {
        let taken = match &program.takes {
            // Most clauses take one hole and nothing else: taken here, with none of the state
            // a chain, a claim or a cancellation needs.
            Takes::One(taken) => {
                let h = taken.hole(cx, pos);
                self.take(program, pos, cx, (h, NO_HOLE), tracer)
            }
            Takes::InFull(full) => self.capture_in_full(program, full, pos, cx, tracer),
        };
        if T::FIRINGS && taken > 0 {
            tracer.fired(program.id);
        }
        taken
    }

    /// Fires a capture clause that takes several holes, chains, claims, puts what it takes
    /// into a hole or may be cancelled.
    fn capture_in_full<T: Tracer>(
        &self,
        program: &CaptureProgram,
        full: &InFull,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        tracer: &mut T,
    ) -> u32 {
        let Some(cancel) = &full.cancel_if else {
            return self.take_all(program, full, pos, cx, tracer);
        };
        if T::EVENTS {
            // Tried first on a copy, untraced, so that a cancelled capture sends no event it
            // would have to take back.
            let (mut copy, mut tried) = (*pos, *cx);
            let total = self.take_all(program, full, &mut copy, &mut tried, &mut ());
            if total > 0 && cancel(&tried, &copy) {
                self.cancelled(program, total, tracer);
                return 0;
            }
            return self.take_all(program, full, pos, cx, tracer);
        }
        let (before, captures) = (*pos, cx.move_captures);
        let total = self.take_all(program, full, pos, cx, tracer);
        if total > 0 && cancel(cx, pos) {
            *pos = before;
            cx.move_captures = captures;
            self.cancelled(program, total, tracer);
            return 0;
        }
        total
    }

    /// Reports a capture of `seeds` that its `cancel_if` undid.
    fn cancelled<T: Tracer>(&self, program: &CaptureProgram, seeds: u32, tracer: &mut T) {
        if T::EVENTS {
            tracer.event(Event::CaptureCancelled {
                clause: program.id,
                seeds,
            });
        }
        if T::FIRINGS {
            tracer.cancelled(program.id);
        }
    }

    /// Takes every hole of a capture clause that takes several holes, chains or claims, and
    /// claims the first one taken if the clause says so; returns the seeds taken.
    fn take_all<T: Tracer>(
        &self,
        program: &CaptureProgram,
        full: &InFull,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        tracer: &mut T,
    ) -> u32 {
        let mut total = 0u32;
        let mut first = NO_HOLE;
        // Where the seeds go, read before anything is taken; a hole off the board or closed
        // could not hold them, and the clause takes nothing.
        let into = match &full.into {
            Some(into) => {
                let h = into(cx, pos);
                if !self.rules.geometry.is_hole(h) || pos.closed & crate::rules::bit(h) != 0 {
                    return 0;
                }
                h
            }
            None => NO_HOLE,
        };
        // The set as it stands before anything is taken: taking changes what its test reads.
        let mut set = full.take_set.as_ref().map_or(0, |s| s(cx, pos));
        for (i, target) in full.take.iter().enumerate() {
            let h = target.hole(cx, pos);
            if i == 0 {
                first = h;
            }
            total += self.take(program, pos, cx, (h, into), tracer);
        }
        while set != 0 {
            let h = set.trailing_zeros() as Pos;
            set &= set - 1;
            if first == NO_HOLE {
                first = h;
            }
            total += self.take(program, pos, cx, (h, into), tracer);
        }
        if let Some(chain) = &full.chain {
            // A chain never takes the same hole twice, so it always stops.
            let mut visited: Mask = bit(first);
            let mut at = first;
            while at != NO_HOLE {
                cx.bound = at;
                if !(chain.keep_going)(cx, pos) {
                    break;
                }
                let next = (chain.step)(cx, pos);
                if next == NO_HOLE || visited & bit(next) != 0 {
                    break;
                }
                visited |= bit(next);
                total += self.take(program, pos, cx, (next, into), tracer);
                // The holes taken with it, each read from it; they count as visited, so the
                // chain never steps onto one.
                for also in &chain.also {
                    cx.bound = next;
                    let h = also(cx, pos);
                    if h != NO_HOLE && visited & bit(h) == 0 {
                        visited |= bit(h);
                        total += self.take(program, pos, cx, (h, into), tracer);
                    }
                }
                at = next;
            }
            cx.bound = NO_HOLE;
        }
        if program.claim
            && first != NO_HOLE
            && total > 0
            && let Some(claim) = pos.claims.get_mut(usize::from(self.player))
            && *claim == NO_HOLE
        {
            *claim = first;
        }
        total
    }

    /// Takes the seeds of one hole `h` for a capture clause, putting them into the hole `into`
    /// where the clause says so (else `NO_HOLE`).
    #[inline(always)]
    fn take<T: Tracer>(
        &self,
        rule: &CaptureProgram,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        (h, into): (Pos, Pos),
        tracer: &mut T,
    ) -> u32 {
        let g = &self.rules.geometry;
        // A neutral hole has no owner to take it: a capture to the owner leaves it.
        if !g.is_hole(h) || (rule.to == Destination::Owner && g.owner_of(h) == NOBODY) {
            return 0;
        }
        let to = match (&rule.player, rule.to) {
            (Some(player), _) => match self.taker(player, pos, cx, h) {
                // Nobody to take it (the owner of a neutral hole): the hole is left.
                NOBODY => return 0,
                p => Some(p),
            },
            (None, Destination::Mover) => Some(self.player),
            (None, Destination::Opponent) => Some(self.player ^ 1),
            (None, Destination::Owner) => Some(g.owner_of(h)),
            // A piece's holder or owner is a rule with pieces, whose takes are taken apart
            // below, where they are found.
            (None, Destination::Removed | Destination::PieceHolder | Destination::PieceOwner) => {
                None
            }
        };
        let seeds = pos.lift(h);
        if seeds == 0 {
            return 0;
        }
        if rule.apart {
            // Pieces, and what the capture keeps where it fell: out of line, few rules have
            // them.
            return self.take_apart(rule, pos, cx, (h, seeds, into), to, tracer);
        }
        self.bank(rule, pos, cx, (h, seeds, 0, into), to, tracer)
    }

    /// Banks the `seeds` a capture took from `h` (`pieces` of them pieces, which go to the
    /// taker's hand, not their store) for `to`: their store, the seeds removed, the hand of a
    /// lap that sows them again, or the hole `into` (where it is not `NO_HOLE`). Returns the
    /// seeds taken.
    #[inline(always)]
    fn bank<T: Tracer>(
        &self,
        rule: &CaptureProgram,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        (h, seeds, pieces, into): (Pos, u16, u16, Pos),
        to: Option<Player>,
        tracer: &mut T,
    ) -> u32 {
        // What the hole's seeds are, its pieces aside.
        let banked = u32::from(seeds - pieces);
        let put = into != NO_HOLE;
        match to {
            // Seeds put into a hole stay on the board (no piece is among them: the rules
            // refuse `into` with pieces).
            _ if put => pos.set(into, pos.seeds(into) + seeds),
            // Seeds captured to be sown again stay in hand: nobody banks them.
            Some(_) if rule.then == After::Sow => {}
            Some(p) => pos.credit(self.rules, p, banked),
            None => {
                if let Some(taken) = pos.taken.get_mut(usize::from(self.player)) {
                    *taken += banked;
                }
            }
        }
        // The mover's captures: seeds banked or removed for them, and seeds they sow again or
        // put into a hole (still captured, though they go back on the board); not seeds sent
        // to another.
        if rule.then == After::Sow || put || to.is_none() || to == Some(self.player) {
            cx.move_captures += u32::from(seeds);
        }
        if T::EVENTS {
            tracer.event(Event::Capture {
                clause: rule.id,
                hole: h,
                seeds,
                pieces,
                to,
                resown: rule.then == After::Sow,
                into: put.then_some(into),
            });
        }
        u32::from(seeds)
    }
}

impl Mover<'_> {
    /// Who a capture's `player` gives the seeds of `h` to, read with `hole` naming `h`, before
    /// it is lifted; [`NOBODY`] leaves the hole.
    #[cold]
    #[inline(never)]
    fn taker(&self, player: &Who, pos: &Position, cx: &mut Cx<'_>, h: Pos) -> Player {
        let p = cx.with_hole(h, |cx| player(cx, pos));
        if self.rules.geometry.players().contains(&p) {
            p
        } else {
            NOBODY
        }
    }

    /// Who a capture to the piece just dropped gives the seeds to: its holder, or its first
    /// owner (`to = "piece_holder"` or `"piece_owner"`); the mover when a seed was dropped.
    #[cold]
    #[inline(never)]
    fn piece_taker(&self, rule: &CaptureProgram, pos: &Position, cx: &Cx<'_>) -> Player {
        match (rule.to, self.rules.piece_slots().get(pos, cx.dropped())) {
            (Destination::PieceHolder, Some(piece)) => piece.holder,
            (Destination::PieceOwner, Some(_)) => cx.dropped(),
            _ => self.player,
        }
    }

    /// A capture of the `seeds` lifted from `h` under rules with pieces (`[pieces]`) or a
    /// clause that keeps what was just dropped (`keep = "dropped"`): the seed or piece just
    /// dropped goes back where it fell, the hole's pieces go to the taker's hand (the mover's
    /// when the seeds leave the game), and the rest is banked. Returns the seeds taken.
    #[cold]
    #[inline(never)]
    fn take_apart<T: Tracer>(
        &self,
        rule: &CaptureProgram,
        pos: &mut Position,
        cx: &mut Cx<'_>,
        (h, seeds, into): (Pos, u16, Pos),
        to: Option<Player>,
        tracer: &mut T,
    ) -> u32 {
        // `to` as `take` found it, but for the piece just dropped, whose taker is found here.
        let to = match rule.to {
            Destination::PieceHolder | Destination::PieceOwner => {
                Some(self.piece_taker(rule, pos, cx))
            }
            _ => to,
        };
        let mut seeds = seeds;
        let keeps = rule.keep_dropped && h == cx.here;
        if keeps {
            seeds -= 1;
            pos.set(h, 1);
        }
        if let Some(take_seeds) = &rule.take_seeds {
            // Read with the hole as it was (`hole` naming it); the rest stays there.
            let kept = pos.seeds(h);
            pos.set(h, kept + seeds);
            let n = cx
                .with_hole(h, |cx| take_seeds(cx, pos))
                .clamp(0, i64::from(seeds));
            let n = u16::try_from(n).unwrap_or(seeds);
            pos.set(h, kept + seeds - n);
            seeds = n;
        }
        if seeds == 0 {
            return 0;
        }
        let kept = if keeps { cx.dropped() } else { NOBODY };
        let pieces = (self.rules.piece_slots()).out(pos, h, to.unwrap_or(self.player), kept);
        self.bank(rule, pos, cx, (h, seeds, pieces, into), to, tracer)
    }
}

/// A sowing made one seed at a time beside others (`[race]`): where it stands between two
/// of its drops. With the position and the move's context, everything its future depends
/// on ([`Stepping::same_as`]). Between two ticks a sowing is always inside a lap (a lap's
/// end lifts the next at once), or has ended.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stepping {
    /// The seeds in hand; the index along the track of the position the next seed goes to
    /// ([`OFF_TRACK`]: the lap's origin, off the mover's track, takes them back); the lap's
    /// origin; whether the lap is sown against the move's direction.
    hand: u16,
    k: u8,
    lap_origin: Pos,
    reversed: bool,
    /// The lap's first seed is due back into the hole lifted (`[sowing] first_seed`).
    back_first: bool,
    /// The hole the last seed fell into.
    at: Pos,
    /// Laps begun (compared only where they decide the future: it grows for ever).
    pub(super) laps: u32,
    /// The sowing has ended.
    pub(super) done: bool,
}

impl Stepping {
    /// No sowing: the place of a player who does not race.
    pub(super) const NONE: Stepping = Stepping {
        hand: 0,
        k: OFF_TRACK,
        lap_origin: NO_HOLE,
        reversed: false,
        back_first: false,
        at: NO_HOLE,
        laps: 0,
        done: true,
    };

    /// Whether two sowings stand at the same point of the same future (their laps apart).
    pub(super) fn same_as(&self, other: &Stepping) -> bool {
        (
            self.hand,
            self.k,
            self.lap_origin,
            self.reversed,
            self.back_first,
            self.done,
        ) == (
            other.hand,
            other.k,
            other.lap_origin,
            other.reversed,
            other.back_first,
            other.done,
        )
    }

    /// Whether a lap is under way: seeds in hand, or one due back into its origin.
    fn in_lap(&self) -> bool {
        self.hand > 0 || self.back_first
    }

    /// The seeds in the hand of this sowing's lap.
    pub(super) fn holding(&self) -> u16 {
        self.hand + u16::from(self.back_first)
    }
}

impl<'a> Mover<'a> {
    /// A sowing of the move's hole made one seed at a time ([`Mover::step`]), begun: its
    /// first lift made (a race makes every first lift before its first tick).
    pub(super) fn begin<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        tracer: &mut T,
    ) -> Stepping {
        let mut s = Stepping {
            hand: 0,
            k: OFF_TRACK,
            lap_origin: self.origin,
            reversed: false,
            back_first: false,
            at: self.origin,
            laps: 0,
            done: false,
        };
        self.begin_stepped_lap(pos, cx, &mut s, Cursor::start(self.origin), tracer);
        s
    }

    /// One tick of a sowing made beside others: one seed drops, with the drop clauses; after
    /// the lap's last seed, the lap's end (captures, relay) and the next lap's lift at once,
    /// or where no lap follows, the move's end. A lap that lifted nothing ends at once.
    /// Returns whether the sowing has ended.
    pub(super) fn step<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        s: &mut Stepping,
        tracer: &mut T,
    ) -> bool {
        if s.done {
            return true;
        }
        if s.in_lap() {
            let route = self.route(pos, None);
            let (to, seeds) = self.drop_next(pos, &route, s, tracer);
            cx.steps += 1;
            cx.reached_opponent |= route.watched & 1 << (to & POS_BITS) != 0;
            if self.program.drops.counts.may_fire(seeds) {
                self.drop_clauses(pos, cx, to, !s.in_lap(), s.lap_origin, tracer);
            }
            if s.in_lap() {
                return false;
            }
        }
        // The lap's end, and the next lap's lift at once, at the moment its relay is decided.
        // (A lap that takes nothing ends where it begins; its relay cannot lift an empty
        // hole, so the move ends there.)
        while !s.in_lap() {
            let lap = (s.at, s.laps, s.lap_origin, s.reversed);
            match self.lap_end(pos, cx, lap.0, lap.1, (lap.2, lap.3), tracer) {
                LapOutcome::Relay(next, _) => self.begin_stepped_lap(pos, cx, s, next, tracer),
                // A stop cannot come: a race is refused beside clauses that ask (E0147).
                LapOutcome::End(last) | LapOutcome::Stop(last) => {
                    let run = MoveRun {
                        last,
                        laps: s.laps,
                        ..MoveRun::new()
                    };
                    self.move_end(pos, cx, run, s.lap_origin, tracer);
                    s.done = true;
                    return true;
                }
            }
        }
        false
    }

    /// Begins a sowing's lap from `cursor`: lifts its hole, or takes the captured seeds it
    /// sows.
    fn begin_stepped_lap<T: Tracer>(
        &self,
        pos: &mut Position,
        cx: &mut Cx<'a>,
        s: &mut Stepping,
        cursor: Cursor,
        tracer: &mut T,
    ) {
        s.laps += 1;
        let lap = s.laps;
        cx.lap = lap;
        cx.resowing = cursor.hand != 0;
        cx.reached_opponent |= cursor.reached_opponent;
        self.face(cx, cursor.reversed);
        let at = cursor.from;
        (s.lap_origin, s.reversed, s.at) = (at, cursor.reversed, at);
        if cursor.hand == 0 {
            s.hand = pos.lift(at);
            if T::EVENTS {
                tracer.event(Event::Lift {
                    lap,
                    hole: at,
                    seeds: s.hand,
                    pieces: 0,
                });
            }
            if s.hand >= self.program.first_back {
                // The first seed goes back into the hole lifted, at the lap's first drop.
                s.hand -= 1;
                s.back_first = true;
            }
        } else {
            s.hand = cursor.hand;
            if T::EVENTS {
                tracer.event(Event::Resow {
                    lap,
                    after: at,
                    seeds: s.hand,
                });
            }
        }
        cx.steps += 1;
        let lanes = if cursor.reversed {
            &self.back.lanes
        } else {
            &self.tables.lanes
        };
        s.k = (lanes.get(usize::from(self.player)))
            .and_then(|lane| lane.entry.get(usize::from(at)).copied())
            .unwrap_or(OFF_TRACK);
    }

    /// Drops a sowing's next seed, where it falls: back into the lap's origin where the
    /// rules say so, or where the lap has no track; else the next position of the track,
    /// passing over the origin the rules skip (`skip_origin`). Returns the hole and the
    /// seeds it now holds.
    fn drop_next<T: Tracer>(
        &self,
        pos: &mut Position,
        route: &Route<'_>,
        s: &mut Stepping,
        tracer: &mut T,
    ) -> (Pos, u16) {
        let to = if s.back_first || s.k == OFF_TRACK {
            s.lap_origin
        } else {
            let lane = if s.reversed {
                route.back_lane
            } else {
                route.lane
            };
            let skip = match route.skip {
                SkipOrigin::Lap if lane.len > 1 => s.lap_origin,
                SkipOrigin::Move if lane.len > 1 => self.origin,
                _ => NO_HOLE,
            };
            let mut k = usize::from(s.k);
            let mut to = along(&lane.track, &mut k, lane.len);
            if to == skip {
                if T::EVENTS {
                    tracer.event(Event::Skip {
                        hole: to,
                        clause: None,
                    });
                }
                to = along(&lane.track, &mut k, lane.len);
            }
            s.k = u8::try_from(k).unwrap_or(OFF_TRACK);
            to
        };
        let seeds = pos.sow_one(to);
        if s.back_first {
            s.back_first = false;
        } else {
            s.hand -= 1;
        }
        s.at = to;
        if T::EVENTS {
            tracer.event(Event::Drop {
                hole: to,
                seeds,
                pieces: 0,
            });
        }
        (to, seeds)
    }

    /// A sowing cut short by the race's end, with seeds in hand: sows them on, one a hole
    /// along the lap's way, with no clause read (`back` false), or puts them back into the
    /// hole its lap was lifted from. The sowing has ended.
    pub(super) fn cut_short<T: Tracer>(
        &self,
        pos: &mut Position,
        s: &mut Stepping,
        back: bool,
        tracer: &mut T,
    ) {
        let seeds = s.holding();
        if s.done || seeds == 0 {
            s.done = true;
            return;
        }
        s.done = true;
        if back {
            let hole = s.lap_origin;
            pos.set(hole, pos.seeds(hole).saturating_add(seeds));
            (s.hand, s.back_first) = (0, false);
            if T::EVENTS {
                tracer.event(Event::HandBack { hole, seeds });
            }
            return;
        }
        let route = self.route(pos, None);
        while s.in_lap() {
            self.drop_next(pos, &route, s, tracer);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::engine::Game;

    /// A legality clause that plays the move out (`require_after`) reads what the move did,
    /// endless moves included: a relay that never stops sows around the whole board, so it
    /// has reached the opponent's row, and the clause allows it (the move then ends the game
    /// as endless).
    #[test]
    fn an_endless_move_has_reached_the_opponent() {
        let text = "format = 1\nname = \"Test board\"\n\n[board]\nrows = 2\nholes = 3\nseeds = 2\n\n\
                    [sowing]\ndirection = \"ccw\"\n\n[sowing.relay]\nfrom = \"landing\"\n\
                    when = 'true'\n\n[[legal]]\nname = \"reach\"\nrequire_after = 'reached_opponent'\n\n\
                    [end]\nno_move = { remaining = \"owners\", result = \"most_seeds\" }\n\
                    endless_move = { remaining = \"owners\", result = \"draw\" }\n";
        let rules = crate::check::load(text, &[])
            .expect("the test board loads")
            .rules;
        let mut game = Game::new(Arc::new(rules));
        let moves = game.legal_moves();
        assert_eq!(moves.len(), 3, "every hole of South is legal: {moves:?}");
        let h = moves.get(0).expect("a legal move");
        let report = game.play(h, &mut ()).expect("the move is legal");
        assert!(report.endless, "a relay that never stops is endless");
    }

    /// A capture whose `into` names no hole takes nothing, so no seed is lost; one that
    /// names a hole puts what it takes there, and the seeds are still the mover's captures.
    #[test]
    fn into_puts_the_seeds_in_a_hole_or_takes_nothing() {
        let text = |into: &str| {
            format!(
                "format = 1\nname = \"Test board\"\n\n[board]\nrows = 2\nholes = 3\nseeds = 2\n\n\
                 [sowing]\ndirection = \"ccw\"\n\n[[capture]]\nname = \"into\"\nat = \"lap_end\"\n\
                 when = 'not own(last)'\ntake = ['last']\ninto = '{into}'\nto = \"mover\"\n\n\
                 [[legal]]\nname = \"a capture\"\nprefer_after = 'move_captures > 0'\n\n\
                 [end]\nno_move = {{ remaining = \"owners\", result = \"most_seeds\" }}\n"
            )
        };
        let play = |into: &str| {
            let rules = crate::check::load(&text(into), &[])
                .expect("the test board loads")
                .rules;
            let mut game = Game::new(Arc::new(rules));
            // s3's two seeds end in n2, not the mover's: the clause fires there.
            let moves = game.legal_moves();
            let legal = moves.len();
            let s3 = (0..moves.len())
                .filter_map(|k| moves.get(k))
                .find(|m| m.hole == 2)
                .expect("s3 is legal");
            game.play(s3, &mut ()).expect("the move is legal");
            (*game.position(), legal)
        };
        // No hole holds more than 100 seeds: `first_after` names none.
        let (nowhere, legal) = play("first_after(origin, seeds(hole) > 100)");
        assert_eq!(
            legal, 3,
            "no move captures, so the preference keeps all three"
        );
        assert_eq!(nowhere.board[..3], [2, 2, 0], "South's row after s3");
        assert_eq!(nowhere.board[3..6], [3, 3, 2], "n2 keeps its seeds");
        assert_eq!(nowhere.total(), 12, "no seed lost");
        let (origin, legal) = play("origin");
        // s2 and s3 end in North's row: seeds put into a hole count in `move_captures`.
        assert_eq!(legal, 2, "the preference keeps the two moves that capture");
        assert_eq!(
            origin.board[..3],
            [2, 2, 3],
            "n2's three seeds into s3, the origin"
        );
        assert_eq!(origin.board[3..6], [3, 0, 2], "n2 emptied");
        assert_eq!(origin.total(), 12, "no seed lost");
    }

    /// Untraced, a move whose laps are all quiet is sown lap by lap in tight loops
    /// (`Mover::quiet_laps`), handing over to the general path when a lap must pass over a
    /// hole or the move grows long enough to be watched for a repeat; a traced move always
    /// takes the general path. Both must leave the same position and report: for each
    /// setting of `skip_origin`, stores on the track or off it, no relay or relays of each
    /// start and form (the threshold `RelayWhen::AtLeast` and a general condition), from every
    /// hole of South holding up to three times round the track, and over whole games (which
    /// have long and endless relays), with the first seed of a lap going on or back into the
    /// hole lifted.
    #[test]
    fn quiet_laps_sow_as_the_general_path_does() {
        use crate::engine::compile::Program;
        use crate::trace::Event;
        let relays = [
            "",
            "[sowing.relay]\nfrom = \"landing\"\nwhen = 'seeds(last) > 1'\n",
            "[sowing.relay]\nfrom = \"next\"\nwhen = 'seeds(next(last)) > 0'\n",
            "[sowing.relay]\nfrom = \"landing\"\nwhen = 'seeds(last) + 0 > 1 and not own(last)'\n",
        ];
        // Every `skip_origin` with the first seed moving on; the first seed back with the two
        // skips it can meet (the whole product is three times as long, for nothing more).
        for (skip, first) in [
            ("never", "next"),
            ("lap", "next"),
            ("move", "next"),
            ("lap", "origin"),
            ("move", "origin_always"),
        ] {
            for stores in ["track", "reserve"] {
                for relay in relays {
                    let text = format!(
                        "format = 1\nname = \"Test board\"\n\n[board]\nrows = 2\nholes = 4\nseeds = 2\n\
                         stores = \"{stores}\"\n\n[sowing]\ndirection = \"ccw\"\nskip_origin = \"{skip}\"\n\
                         first_seed = \"{first}\"\n\n\
                         {relay}\n[[capture]]\nname = \"two or three\"\nat = \"move_end\"\n\
                         when = 'not is_store(last) and seeds(last) in [2, 3]'\ntake = ['last']\nto = \"mover\"\n\n\
                         [end]\nno_move = {{ remaining = \"owners\", result = \"most_seeds\" }}\n\
                         endless_move = {{ remaining = \"owners\", result = \"draw\" }}\n\
                         cycle = {{ remaining = \"owners\", result = \"draw\" }}\n"
                    );
                    let rules = crate::check::load(&text, &[])
                        .expect("the test board loads")
                        .rules;
                    let rules = Arc::new(rules);
                    let case = format!(
                        "skip {skip}, first seed {first}, stores {stores}, relay {relay:?}"
                    );
                    assert!(Program::new(&rules).quiet_laps, "{case}: quiet laps");
                    let report = |r: crate::engine::PlyReport| (r.laps, r.endless, r.round_over);
                    // One move from a set-up position.
                    let track = usize::from(rules.geometry.positions);
                    let opening = *Game::new(rules.clone()).position();
                    for number in 1..=4 {
                        let origin = rules.geometry.hole_of[0][number - 1];
                        for seeds in 1..=3 * track + 2 {
                            let mut start = opening;
                            start.set(origin, u16::try_from(seeds).expect("a few seeds"));
                            let mut traced = Game::from_position(rules.clone(), start);
                            let mut untraced = Game::from_position(rules.clone(), start);
                            let mut events: Vec<Event> = Vec::new();
                            let a = traced.play(origin, &mut events).expect("a legal move");
                            let b = untraced.play(origin, &mut ()).expect("a legal move");
                            let case = format!("{case}, hole {number} holding {seeds}");
                            assert_eq!(untraced.position(), traced.position(), "{case}");
                            assert_eq!(report(a), report(b), "{case}");
                        }
                    }
                    // Whole games from boards of 1 to 4 seeds a hole, each ply the legal move
                    // picked by the ply number.
                    for fill in 1..=4 {
                        let mut start = opening;
                        for h in
                            (0..rules.geometry.positions).filter(|&h| rules.geometry.is_hole(h))
                        {
                            start.set(h, fill);
                        }
                        let mut traced = Game::from_position(rules.clone(), start);
                        let mut untraced = Game::from_position(rules.clone(), start);
                        for ply in 0..200usize {
                            let moves = traced.legal_moves();
                            let Some(h) = moves.get(ply % moves.len().max(1)) else {
                                break;
                            };
                            let mut events: Vec<Event> = Vec::new();
                            let a = traced.play(h, &mut events).expect("a legal move");
                            let b = untraced.play(h, &mut ()).expect("a legal move");
                            let case = format!("{case}, {fill} a hole, ply {ply}");
                            assert_eq!(untraced.position(), traced.position(), "{case}");
                            assert_eq!(report(a), report(b), "{case}");
                        }
                    }
                }
            }
        }
    }

    /// A relay condition that only asks for seeds in the hole the next lap lifts is answered
    /// by one compare (`RelayWhen::AtLeast`); the same condition written so that it is not
    /// recognised (`seeds(h) + 0 > k`) takes the general path. Both must relay the same laps:
    /// every form, both starts and thresholds on both sides of the relay's own "not empty"
    /// test, over whole games.
    #[test]
    fn a_relay_threshold_relays_as_its_condition_does() {
        use crate::engine::compile::{Program, RelayWhen};
        use crate::trace::Event;
        let load = |from: &str, when: &str| {
            let text = format!(
                "format = 1\nname = \"Test board\"\n\n[board]\nrows = 2\nholes = 5\nseeds = 3\n\n\
                 [sowing]\ndirection = \"ccw\"\n\n[sowing.relay]\nfrom = \"{from}\"\n\
                 when = '{when}'\n\n[end]\nno_move = {{ remaining = \"owners\", result = \"most_seeds\" }}\n\
                 endless_move = {{ remaining = \"owners\", result = \"draw\" }}\n\
                 cycle = {{ remaining = \"owners\", result = \"draw\" }}\n"
            );
            let rules = crate::check::load(&text, &[])
                .expect("the test board loads")
                .rules;
            Arc::new(rules)
        };
        // Plays up to 60 plies, each the legal move picked by the ply number.
        let trace = |rules: Arc<crate::rules::Rules>| {
            let mut game = Game::new(rules);
            let mut events: Vec<Event> = Vec::new();
            for ply in 0..60usize {
                let moves = game.legal_moves();
                if game.is_over() || moves.is_empty() {
                    break;
                }
                let h = moves.get(ply * 7 % moves.len()).expect("a legal move");
                game.play(h, &mut events).expect("the move is legal");
            }
            events
        };
        for (from, hole) in [("landing", "last"), ("next", "next(last)")] {
            for (op, k) in [
                (">", -1),
                (">", 0),
                (">", 1),
                (">", 3),
                (">=", 0),
                (">=", 2),
            ] {
                let short = load(from, &format!("seeds({hole}) {op} {k}"));
                let flipped = load(
                    from,
                    &format!("{k} {} seeds({hole})", if op == ">" { "<" } else { "<=" }),
                );
                let general = load(from, &format!("seeds({hole}) + 0 {op} {k}"));
                for rules in [&short, &flipped] {
                    let program = Program::new(rules);
                    assert!(
                        matches!(program.relay.map(|r| r.when), Some(RelayWhen::AtLeast(_))),
                        "{from}, {op} {k}: compiled as a threshold"
                    );
                }
                let program = Program::new(&general);
                assert!(
                    matches!(program.relay.map(|r| r.when), Some(RelayWhen::When(_))),
                    "{from}, {op} {k}: the general form is not recognised"
                );
                let expected = trace(general.clone());
                let relays = expected
                    .iter()
                    .filter(|e| matches!(e, Event::Relay { .. }))
                    .count();
                assert!(relays > 0 || k >= 3, "{from}, {op} {k}: the games relay");
                for (rules, form) in [(&short, "as written"), (&flipped, "flipped")] {
                    let got = trace(rules.clone());
                    // The first difference, not the whole traces (a game can sow a million laps).
                    let at = got.iter().zip(&expected).position(|(a, b)| a != b);
                    let shown = at.map(|i| (got.get(i), expected.get(i)));
                    assert!(
                        at.is_none() && got.len() == expected.len(),
                        "{from}, {op} {k} {form}: event {at:?} differs: {shown:?}"
                    );
                }
            }
        }
    }

    /// A hole claimed by a drop clause takes the seeds that reach it later in the same lap,
    /// whether or not the move is traced (untraced, the lap starts in a loop that watches
    /// only the drop clauses, and must leave it once a hole is claimed).
    #[test]
    fn a_hole_claimed_mid_lap_takes_the_rest_of_the_lap() {
        let text = "format = 1\nname = \"Test board\"\n\n[board]\nrows = 2\nholes = 2\nseeds = 1\n\n\
                    [sowing]\ndirection = \"ccw\"\n\n[[capture]]\nname = \"claim\"\nat = \"drop\"\n\
                    when = 'not own(here) and number(claim(mover)) == 0'\ntake = ['here']\n\
                    to = \"mover\"\nclaim = true\n\n\
                    [end]\nno_move = { remaining = \"owners\", result = \"most_seeds\" }\n";
        let rules = Arc::new(
            crate::check::load(text, &[])
                .expect("the test board loads")
                .rules,
        );
        // Nine seeds in one South hole: two laps round the four holes and one seed more, so
        // the lap passes the first North hole it reaches (and claims) a second time.
        let origin = *rules.geometry.holes(0).first().expect("South has holes");
        let mut start = crate::engine::Position::empty();
        start.set(origin, 9);
        let play = |traced: bool| {
            let mut game = Game::from_position(rules.clone(), start);
            let mut events = Vec::new();
            if traced {
                game.play(origin, &mut events).expect("the move is legal");
            } else {
                game.play(origin, &mut ()).expect("the move is legal");
            }
            *game.position()
        };
        let (untraced, traced) = (play(false), play(true));
        assert_eq!(untraced, traced, "the same move, traced or not");
        let claimed = untraced.claims[0];
        assert_ne!(claimed, crate::rules::NO_HOLE, "South claimed a hole");
        assert_eq!(untraced.seeds(claimed), 0, "a claimed hole keeps nothing");
        // The seed that made the claim, and the one that reached the hole a lap later.
        assert_eq!(untraced.reserve[0], 2, "both went to South: {untraced:?}");
        assert_eq!(untraced.total(), 9, "seeds conserved");
    }

    /// With many drop clauses a drop tries only those whose guard may hold at its count,
    /// looked up by count (`Drops::by_count`); trying every clause in turn must give the same
    /// games, event for event: clauses guarded by counts, unguarded ones, two clauses that fire
    /// at the same count (the first empties the hole, so the second must not fire: file order
    /// matters), over whole seeded games.
    #[test]
    fn looked_up_drop_clauses_fire_as_trying_each_does() {
        use crate::engine::compile::Program;
        use crate::trace::Event;
        let mut text = String::from(
            "format = 1\nname = \"Test board\"\n\n[board]\nrows = 2\nholes = 4\nseeds = 3\n\n\
             [sowing]\ndirection = \"ccw\"\n\n[sowing.relay]\nfrom = \"landing\"\n\n",
        );
        let whens = [
            "seeds(here) == 4",
            "seeds(here) == 4 and own(here)",
            "seeds(here) == 7",
            "own(here) and seeds(here) > 5",
            "seeds(here) == 2 and not own(here)",
            "seeds(here) == 4",
            "seeds(here) == 100",
            "last_seed and seeds(here) == 3",
            "seeds(here) == 3",
        ];
        for (k, when) in whens.iter().enumerate() {
            let to = if k % 2 == 0 { "mover" } else { "owner" };
            text.push_str(&format!(
                "[[capture]]\nname = \"c{k}\"\nat = \"drop\"\nwhen = '{when}'\ntake = ['here']\nto = \"{to}\"\n\n"
            ));
        }
        text.push_str(
            "[end]\nno_move = { remaining = \"owners\", result = \"most_seeds\" }\n\
             endless_move = { remaining = \"owners\", result = \"draw\" }\n\
             cycle = { remaining = \"owners\", result = \"draw\" }\n",
        );
        let rules = Arc::new(
            crate::check::load(&text, &[])
                .expect("the test board loads")
                .rules,
        );
        let looked_up = Game::new(rules.clone());
        assert!(
            looked_up.program.drops.looked_up,
            "nine clauses are looked up"
        );
        let mut one_by_one = looked_up.clone();
        let mut program = Program::new(&rules);
        program.drops = super::Drops::with_lookup(program.drops.guards.clone(), |_| false);
        one_by_one.program = Arc::new(program);
        let mut fired = 0usize;
        for seed in 0..40usize {
            let (mut a, mut b) = (looked_up.clone(), one_by_one.clone());
            for ply in 0..200usize {
                let moves = a.legal_moves();
                let Some(h) = moves.get((ply * 7 + seed) % moves.len().max(1)) else {
                    break;
                };
                let (mut ea, mut eb) = (Vec::new(), Vec::new());
                a.play(h, &mut ea).expect("a legal move");
                b.play(h, &mut eb).expect("a legal move");
                assert_eq!(ea, eb, "seed {seed}, ply {ply}");
                fired += ea
                    .iter()
                    .filter(|e| matches!(e, Event::Capture { .. }))
                    .count();
            }
        }
        assert!(fired > 100, "the clauses fire ({fired} captures)");
    }

    /// Every move ends in bounded work: a long relay on a board of many seeds, trying a
    /// costly drop clause at every seed, is stopped once past the limit on a move's work
    /// (lowered here from `MAX_STEPS_PER_MOVE`, as a test cannot wait a second a move), traced
    /// as that limit, and play stops with no result, seeds conserved.
    #[test]
    fn a_move_past_its_work_limit_stops_play() {
        use crate::engine::Status;
        use crate::engine::compile::Program;
        use crate::trace::{Event, Limit};
        let text = "format = 1\nname = \"Test board\"\n\n[board]\nrows = 2\nholes = 2\nseeds = 500\n\n\
                    [sowing]\ndirection = \"ccw\"\n\n[sowing.relay]\nfrom = \"landing\"\nwhen = 'true'\n\n\
                    [[capture]]\nname = \"never\"\nat = \"drop\"\n\
                    when = 'own(here) and seeds(here) > 100000 and seeds(next(here)) > 100000'\n\
                    take = ['here']\nto = \"mover\"\n\n\
                    [end]\nno_move = { remaining = \"owners\", result = \"most_seeds\" }\n\
                    endless_move = { remaining = \"owners\", result = \"draw\" }\n";
        let rules = Arc::new(
            crate::check::load(text, &[])
                .expect("the test board loads")
                .rules,
        );
        let mut game = Game::new(rules.clone());
        let mut program = Program::new(&rules);
        program.max_steps = 2_000_000;
        game.program = Arc::new(program);
        let h = game.legal_moves().get(0).expect("a legal move");
        let mut traced = game.clone();
        let report = game.play(h, &mut ()).expect("a legal move");
        assert_eq!(report.limit, Some(Limit::Steps), "{report:?}");
        assert_eq!(
            game.status(),
            Status::Stopped {
                limit: Limit::Steps
            }
        );
        assert_eq!(game.position().total(), 2000, "seeds conserved");
        let mut events = Vec::new();
        traced.play(h, &mut events).expect("a legal move");
        assert_eq!(traced.position(), game.position(), "traced as untraced");
        let laps = events
            .iter()
            .filter(|e| matches!(e, Event::LapEnd { .. }))
            .count();
        assert!(
            matches!(events.iter().rev().nth(1), Some(Event::StepLimit { .. })),
            "{:?}",
            events.iter().rev().take(2).collect::<Vec<_>>()
        );
        // Each lap sows several hundred seeds and tries the clause (8 terms) at most of them:
        // several thousand steps a lap, a few hundred laps in all.
        assert!((100..2000).contains(&laps), "{laps} laps");
    }
}

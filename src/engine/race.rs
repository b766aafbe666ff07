//! The race (`[race]`): a round's first ply, every player in play sowing at once from the
//! hole the rules name for them. The sowings go in lockstep: in each tick every sowing still
//! going drops one seed, in turn order from the round's starter ([`Mover::step`]). Every
//! sowing's first lift is made before the first tick, all at once; a lap's end (captures,
//! relay) and the next lap's lift come at the moment its last seed falls and take no tick.
//! A race that never ends is found exactly, as an endless move is: the states between ticks
//! are watched for a repeat.

use super::compile::StartFrom;
use super::eval::Cx;
use super::history::Brent;
use super::sow::{Mover, Stepping};
use super::{Blocks, Game, MoveError, Offer, PlyReport, Position, Starts};
use crate::rules::{MAX_LAPS_PER_MOVE, MAX_SEATS, Mask, NO_HOLE, NOBODY, Player, Pos};
use crate::ruleset::{RaceEnds, RaceNext, RaceUnfinished};
use crate::trace::{Event, Limit, Tracer};

/// The players who race, in turn order from the starter, and the hole each sows from.
#[derive(Clone, Copy)]
struct Racers {
    seats: [(Player, Pos); MAX_SEATS],
    count: usize,
}

impl Racers {
    fn iter(&self) -> impl Iterator<Item = (usize, Player, Pos)> + '_ {
        (self.seats.iter().take(self.count).enumerate()).map(|(i, &(p, h))| (i, p, h))
    }
}

/// A race between two ticks: the position, each sowing and its context, the first sowing to
/// end (its index among the racers), and the ticks gone.
#[derive(Clone, Copy)]
struct Field<'a> {
    pos: Position,
    sowings: [Stepping; MAX_SEATS],
    cxs: [Cx<'a>; MAX_SEATS],
    first: Option<usize>,
    ticks: u64,
}

/// What two states of a race are compared by: the board's blocks, and whether the laps sown
/// count (where clauses read the lap, or the rules cap laps).
#[derive(Clone, Copy)]
struct Watch {
    blocks: Blocks,
    laps: bool,
}

/// How a race played untraced comes out: over after `ticks`, or stopped there at the first
/// repeat of an endless race, or at a safety limit.
#[derive(Clone, Copy)]
enum Course {
    Over,
    Endless { first: u64, repeat: u64 },
    Limit { ticks: u64, limit: Limit },
}

impl Game {
    /// The race, the round's first ply (listed only where the position offers it).
    #[inline(never)]
    pub(super) fn race<T: Tracer>(&mut self, tracer: &mut T) -> Result<PlyReport, MoveError> {
        let starter = self.pos.to_move;
        self.ply += 1;
        let Offer::Race { starts } = self.pos.offer else {
            return Err(MoveError::GameOver);
        };
        let racers = self.racers(starter, &starts);
        if T::EVENTS {
            let mut starts = [NO_HOLE; MAX_SEATS];
            for (_, p, h) in racers.iter() {
                if let Some(s) = starts.get_mut(usize::from(p)) {
                    *s = h;
                }
            }
            tracer.event(Event::Race {
                ply: self.ply,
                player: starter,
                starts,
            });
        }
        if self.history.is_pending() {
            self.move_start.copy_from(&self.pos, self.history.blocks());
        }
        // First learn how the race comes out, untraced and on copies (an endless race is only
        // known as such after its first repeat); then play it up to there.
        let (course, ahead) = self.race_course(&racers);
        let stop = match course {
            Course::Over => None,
            Course::Endless { repeat, .. } => Some(repeat),
            Course::Limit { ticks, .. } => Some(ticks),
        };
        let mut field = if T::EVENTS || T::FIRINGS || stop.is_some() {
            // Played again: traced, its firings counted, or up to the first repeat.
            let mut field = self.field(&racers, tracer);
            while !self.race_over(&field, &racers) && Some(field.ticks) != stop {
                self.tick(&mut field, &racers, tracer);
            }
            field
        } else {
            // Untraced, uncounted and over: the race as the course played it.
            ahead
        };
        // (The settings alone: the rule's expression is not copied, which would allocate.)
        let Some((id, unfinished, rule_next)) =
            (self.rules.race.as_ref()).map(|r| (r.id, r.unfinished, r.next))
        else {
            return Err(MoveError::GameOver);
        };
        let first = field.first.and_then(|i| racers.seats.get(i)).map(|s| s.0);
        let next = match (rule_next, first) {
            (RaceNext::First, Some(p)) => p,
            (RaceNext::After, Some(p)) => self.next_seat(p),
            (RaceNext::Starter, _) | (_, None) => starter,
        };
        // A race that never ends is the first unfinished sowing's, in turn order, whose move
        // never ends.
        let endless_mover = (racers.iter())
            .find(|&(i, _, _)| field.sowings.get(i).is_some_and(|s| !s.done))
            .map_or(starter, |(_, p, _)| p);
        if stop.is_some() {
            if let (true, Course::Endless { first, repeat }) = (T::EVENTS, course) {
                let (first, repeat) = (tick_count(first), tick_count(repeat));
                tracer.event(Event::EndlessRace { first, repeat });
            }
            // Every seed still in hand goes back where its lap began, so every ending counts it.
            self.cut_short(&mut field, &racers, true, tracer);
        } else {
            // Over: with `ends = "first"`, the sowings still going are cut short.
            if T::EVENTS {
                let cut = (racers.iter())
                    .filter(|&(i, _, _)| field.sowings.get(i).is_some_and(|s| !s.done))
                    .fold(0u8, |m, (_, p, _)| m | 1 << p);
                tracer.event(Event::RaceOver {
                    first: first.unwrap_or(NOBODY),
                    next,
                    cut,
                });
            }
            let back = unfinished == RaceUnfinished::Back;
            self.cut_short(&mut field, &racers, back, tracer);
        }
        let laps = (field.sowings.iter().take(racers.count))
            .map(|s| s.laps)
            .sum();
        self.pos = field.pos;
        self.last_mover = starter;
        if self.track_first_move {
            for (_, p, _) in racers.iter() {
                self.pos.moved |= 1 << p;
            }
        }
        let mut report = PlyReport {
            laps,
            ..PlyReport::default()
        };
        match course {
            Course::Endless { .. } => {
                report.round_over = true;
                report.endless = true;
                let next_up = self.next_seat(endless_mover);
                self.end_round(
                    self.rules.endless_move,
                    super::EndCause::EndlessMove,
                    endless_mover,
                    next_up,
                    tracer,
                );
                return Ok(report);
            }
            Course::Limit { limit, .. } => {
                report.round_over = true;
                report.lap_limit = true;
                report.limit = Some(limit);
                self.stop(limit, tracer);
                return Ok(report);
            }
            _ => {}
        }
        if T::FIRINGS {
            tracer.fired(id);
        }
        self.turn_to(next);
        self.between_plies(next, self.rules.direction, report, tracer)
    }

    /// The players in play, in turn order from `starter`, with the hole each races from: the
    /// hole `[race] from` names for them, or the one they chose (`starts`), where it is an
    /// open hole of the board holding seeds on their circuit (else they do not race).
    fn racers(&self, starter: Player, starts: &Starts) -> Racers {
        let mut racers = Racers {
            seats: [(NOBODY, NO_HOLE); MAX_SEATS],
            count: 0,
        };
        let Some(from) = &self.program.race_from else {
            return racers;
        };
        let dir = self.rules.direction;
        // A hole another racer (earlier in turn order) sows from is not open to a later one.
        let mut board = self.rules.geometry.board_holes() & !self.pos.closed;
        let mut p = starter;
        loop {
            let cx = self.move_context(p, dir);
            let h = match from {
                StartFrom::Hole(hole) => hole(&cx, &self.pos),
                // The hole chosen, if the set holds it (a position set up by hand may name
                // any hole).
                StartFrom::Chosen(set) => starts
                    .get(usize::from(p))
                    .copied()
                    .filter(|&h| h != NO_HOLE && set(&cx, &self.pos) & crate::rules::bit(h) != 0)
                    .unwrap_or(NO_HOLE),
            };
            if self.may_race_from(p, h, board)
                && let Some(seat) = racers.seats.get_mut(racers.count)
            {
                *seat = (p, h);
                racers.count += 1;
                board &= !crate::rules::bit(h);
            }
            p = self.next_seat(p);
            if p == starter {
                return racers;
            }
        }
    }

    /// Whether `p` may race from `h`, with `board` the holes not closed and not taken by an
    /// earlier racer: an open hole holding seeds, on their circuit.
    fn may_race_from(&self, p: Player, h: Pos, board: Mask) -> bool {
        h != NO_HOLE
            && board & crate::rules::bit(h) != 0
            && self.pos.seeds(h) > 0
            && self.on_track(p, self.rules.direction, h)
    }

    /// The holes `player` may choose to race from (`[race] from` a set), with `starts` the
    /// holes chosen so far: the holes of the set, read with them as `mover`, that they may
    /// race from and no other racer has chosen.
    pub(super) fn race_choices(&self, player: Player, starts: &Starts) -> Mask {
        let Some(StartFrom::Chosen(set)) = &self.program.race_from else {
            return 0;
        };
        let taken = (starts.iter())
            .filter(|&&h| h != NO_HOLE)
            .fold(0, |m, &h| m | crate::rules::bit(h));
        let board = self.rules.geometry.board_holes() & !self.pos.closed & !taken;
        let dir = self.rules.direction;
        let mut holes = set(&self.move_context(player, dir), &self.pos) & board;
        let mut choices = 0;
        while holes != 0 {
            let h = holes.trailing_zeros() as Pos;
            holes &= holes - 1;
            if self.may_race_from(player, h, board) {
                choices |= crate::rules::bit(h);
            }
        }
        choices
    }

    /// `race:h`: the player to move chooses `h` (a listed move) to race from. The choice
    /// passes to the next seat in turn order, up to the starter, where the race is due.
    #[inline(never)]
    pub(super) fn choose_start<T: Tracer>(&mut self, h: Pos, tracer: &mut T) -> PlyReport {
        let player = self.pos.to_move;
        self.ply += 1;
        if T::EVENTS {
            tracer.event(Event::RaceStart {
                ply: self.ply,
                player,
                hole: h,
            });
        }
        if let Offer::RaceStart { starts } = &mut self.pos.offer
            && let Some(s) = starts.get_mut(usize::from(player))
        {
            *s = h;
        }
        self.last_mover = player;
        self.pass_race_choice(player);
        // Nothing moved on the board: no ending is read, and no position is recorded (a
        // round's start with choices made comes back only in another round).
        self.settle_arranging(tracer)
    }

    /// The choice of a start passes from `seat` (who chose, or could not) to the next seat in
    /// turn order; after the last, back at the starter, the race is due.
    pub(super) fn pass_race_choice(&mut self, seat: Player) {
        let Offer::RaceStart { starts } = self.pos.offer else {
            return;
        };
        let next = self.next_seat(seat);
        // The choice goes round once: it ends back at the round's starter, or at a seat that
        // has chosen already (a position set up in the middle of the choices does not say who
        // started the round: the seat that chose first did).
        let chosen = starts.get(usize::from(next)).is_some_and(|&h| h != NO_HOLE);
        if next == self.starter || chosen {
            self.pos.offer = Offer::Race { starts };
        }
        self.pos.to_move = next;
    }

    /// The mover of racer `p` from `h`.
    fn racer(&self, p: Player, h: Pos) -> Mover<'_> {
        self.mover(p, h, self.rules.direction, 0)
    }

    /// The race before its first tick: every sowing's first lift made, all at once.
    fn field<T: Tracer>(&self, racers: &Racers, tracer: &mut T) -> Field<'_> {
        let blank = self.move_context(self.pos.to_move, self.rules.direction);
        let mut field = Field {
            pos: self.pos,
            sowings: [Stepping::NONE; MAX_SEATS],
            cxs: [blank; MAX_SEATS],
            first: None,
            ticks: 0,
        };
        for (i, p, h) in racers.iter() {
            let mover = self.racer(p, h);
            if let (Some(s), Some(cx)) = (field.sowings.get_mut(i), field.cxs.get_mut(i)) {
                *cx = mover.context();
                if T::EVENTS {
                    tracer.event(Event::Racer { player: p });
                }
                *s = mover.begin(&mut field.pos, cx, tracer);
            }
        }
        field
    }

    /// One tick: each sowing still going drops a seed, in turn order from the starter; the
    /// first to end is noted.
    fn tick<'a, T: Tracer>(&'a self, field: &mut Field<'a>, racers: &Racers, tracer: &mut T) {
        for (i, p, h) in racers.iter() {
            let (Some(s), Some(cx)) = (field.sowings.get_mut(i), field.cxs.get_mut(i)) else {
                continue;
            };
            if s.done {
                continue;
            }
            if T::EVENTS {
                tracer.event(Event::Racer { player: p });
            }
            if self.racer(p, h).step(&mut field.pos, cx, s, tracer) && field.first.is_none() {
                field.first = Some(i);
            }
        }
        field.ticks += 1;
    }

    /// Whether the race is over: one sowing has ended (`ends = "first"`), or all have.
    fn race_over(&self, field: &Field<'_>, racers: &Racers) -> bool {
        let all = (field.sowings.iter().take(racers.count)).all(|s| s.done);
        let first = (self.rules.race.as_ref()).is_some_and(|r| r.ends == RaceEnds::First);
        all || (first && field.first.is_some())
    }

    /// The sowings still going when the race stops: the seeds in their hands sown on (no
    /// clause read), or put back (`back`).
    fn cut_short<T: Tracer>(
        &self,
        field: &mut Field<'_>,
        racers: &Racers,
        back: bool,
        tracer: &mut T,
    ) {
        for (i, p, h) in racers.iter() {
            if let Some(s) = field.sowings.get_mut(i)
                && !s.done
            {
                if T::EVENTS && s.holding() > 0 {
                    tracer.event(Event::Racer { player: p });
                }
                self.racer(p, h).cut_short(&mut field.pos, s, back, tracer);
            }
        }
    }

    /// How the race comes out, played untraced on copies: over; or endless, the states
    /// between ticks repeating (found with Brent's cycle detection, then the first repeat
    /// located exactly by a second pass); or stopped by the engine's safety limits.
    fn race_course(&self, racers: &Racers) -> (Course, Field<'_>) {
        // Where a clause reads the lap, or the rules cap the laps, the laps sown decide the
        // future too (with a cap, every sowing is finite and never repeats).
        let n = Watch {
            blocks: Blocks::of(self.rules.geometry.positions),
            laps: self.rules.reads(crate::rules::Fact::Lap) || self.rules.max_laps.is_some(),
        };
        let mut field = self.field(racers, &mut ());
        let mut watch = Brent::new(field, 2);
        loop {
            if self.race_over(&field, racers) {
                return (Course::Over, field);
            }
            self.tick(&mut field, racers, &mut ());
            let laps = field.sowings.iter().map(|s| s.laps).max().unwrap_or(0);
            let steps = field.cxs.iter().map(|cx| cx.steps).max().unwrap_or(0);
            let limit = if laps >= MAX_LAPS_PER_MOVE {
                Some(Limit::Laps)
            } else if steps > self.program.max_steps {
                Some(Limit::Steps)
            } else {
                None
            };
            if let Some(limit) = limit {
                let ticks = field.ticks;
                return (Course::Limit { ticks, limit }, field);
            }
            let same = |saved: &Field<'_>| self.same_field(saved, &field, racers, n);
            if let Some(period) = watch.repeats(same, || field) {
                let first = self.first_repeat(racers, u64::from(period), n);
                let repeat = first + u64::from(period);
                return (Course::Endless { first, repeat }, field);
            }
        }
    }

    /// The tick after which the race's states repeat with `period`.
    fn first_repeat(&self, racers: &Racers, period: u64, n: Watch) -> u64 {
        let (mut slow, mut fast) = (self.field(racers, &mut ()), self.field(racers, &mut ()));
        for _ in 0..period {
            self.tick(&mut fast, racers, &mut ());
        }
        while !self.same_field(&slow, &fast, racers, n) {
            self.tick(&mut slow, racers, &mut ());
            self.tick(&mut fast, racers, &mut ());
        }
        slow.ticks
    }

    /// Whether two states of a race have the same future: the same position, and each
    /// sowing at the same point, with the same context where clauses read it.
    fn same_field(&self, a: &Field<'_>, b: &Field<'_>, racers: &Racers, watch: Watch) -> bool {
        let captures = self.program.track_captures;
        let Watch { blocks: n, laps } = watch;
        a.pos.same_as(&b.pos, n)
            && a.first == b.first
            && (0..racers.count).all(|i| {
                let (Some(x), Some(y)) = (a.sowings.get(i), b.sowings.get(i)) else {
                    return true;
                };
                let (Some(cx), Some(cy)) = (a.cxs.get(i), b.cxs.get(i)) else {
                    return true;
                };
                x.same_as(y)
                    && (!laps || x.laps == y.laps)
                    && cx.resowing == cy.resowing
                    && cx.reached_opponent == cy.reached_opponent
                    && (!captures || cx.move_captures == cy.move_captures)
            })
    }
}

/// A tick count as the trace's lap numbers take it.
fn tick_count(ticks: u64) -> u32 {
    u32::try_from(ticks).unwrap_or(u32::MAX)
}

//! Trace events: what happened during play, as structured values.
//!
//! The engine reports every event to a [`Tracer`]. Playouts use `()`, which records nothing
//! and compiles away; replays and tests collect a `Vec<Event>`. Rendering to text and JSON is
//! done elsewhere (`render`), with the board's labels.
//!
//! No `unwrap`, `expect` or indexing that could panic.

use crate::rules::{ClauseId, MAX_SEATS, Mask, Player, Pos};

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
    /// No legal move of any player could capture (`[end] no_capture`).
    NoCapture,
    /// The play to come, as far as it was forced, could never capture (`[end]
    /// no_further_capture`).
    NoFurtherCapture,
    /// No play to come, by any moves, could capture (`[end] no_capture_reachable`).
    NoCaptureReachable,
    /// The player to move conceded (`[end] concede`).
    Concede,
}

/// One of the engine's safety limits (not rules of any game): reaching one stops play with no
/// result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// A move reached [`crate::rules::MAX_LAPS_PER_MOVE`] laps without its lap-end state
    /// repeating.
    Laps,
    /// A move took more than [`crate::rules::MAX_STEPS_PER_MOVE`] steps of work.
    Steps,
    /// The game or match reached [`crate::rules::MAX_PLIES`] plies.
    Plies,
    /// [`crate::rules::MAX_IDLE_ROUNDS`] rounds of the match in a row ended with nobody able to
    /// move.
    Rounds,
    /// A refill of `[rounds] win_holes` made a layout of the holes' owners past the
    /// [`crate::rules::MAX_LAYOUTS`] that positions can name.
    Layouts,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A ply begins: `player` sows from `hole` (in `dir`, when the mover chose it), or, when
    /// `entered` is not 0, enters that many seeds they hold, the first into `hole`.
    Move {
        ply: u32,
        player: Player,
        hole: Pos,
        dir: Option<crate::rules::Dir>,
        entered: u16,
    },
    /// Seeds the mover holds taken up to be sown as a lap, the first into `hole`.
    Enter { lap: u32, hole: Pos, seeds: u16 },
    /// Seeds lifted to start a lap.
    /// `seeds` counts the pieces (`[pieces]`) lifted too; `pieces` says how many there were.
    Lift {
        lap: u32,
        hole: Pos,
        seeds: u16,
        pieces: u16,
    },
    /// Captured seeds taken up to be sown as a lap, starting after `after`.
    Resow { lap: u32, after: Pos, seeds: u16 },
    /// One seed (or piece) dropped; `seeds` is the count after the drop, the hole's
    /// `pieces` (`[pieces]`) included.
    Drop { hole: Pos, seeds: u16, pieces: u16 },
    /// The sowing passed over a hole: the origin (`clause` none), or a hole a skip clause
    /// names for this seed.
    Skip { hole: Pos, clause: Option<ClauseId> },
    /// A lap ended in `last`.
    LapEnd { lap: u32, last: Pos },
    /// The relay clause fired: the next lap lifts `hole`.
    Relay { clause: ClauseId, hole: Pos },
    /// A capture clause took `seeds` from `hole`; `to` is None when the seeds leave the game.
    /// With `resown`, the seeds are not banked but held to be sown as the next lap (`to` is
    /// who the clause names).
    /// `seeds` counts the pieces (`[pieces]`) taken too; `pieces` says how many there were
    /// (they go to the taker's hand, to the mover's when the seeds leave the game).
    Capture {
        clause: ClauseId,
        hole: Pos,
        seeds: u16,
        pieces: u16,
        to: Option<Player>,
        resown: bool,
        /// The hole the seeds were put into (`into`), instead of being banked.
        into: Option<Pos>,
    },
    /// A seed due into a claimed hole went to the player who claimed it (`clause` is the
    /// clause that made the claim), or a redirect clause (`clause`) sent it to a player; the
    /// hole keeps nothing.
    Diverted {
        clause: ClauseId,
        hole: Pos,
        to: Player,
    },
    /// A redirect clause sent the seed due into `hole` into `to` (out of play when none);
    /// `seeds` is the count of `to` after it.
    Redirect {
        clause: ClauseId,
        hole: Pos,
        to: Option<Pos>,
        seeds: u16,
    },
    /// An optional capture clause's condition held where it would take `seeds`: the move
    /// stops there for the mover's decision (the next ply, `Decided`).
    CaptureOffered { clause: ClauseId, seeds: u32 },
    /// A capture clause whose hole the mover chooses (`choose`) held, with more than one hole
    /// to choose from (or the capture `optional`): the move stops there for the mover's choice
    /// of one of `holes` (a bit per position; the next ply, `Decided`), or `leave` where
    /// `optional`.
    ChoiceOffered {
        clause: ClauseId,
        holes: Mask,
        optional: bool,
    },
    /// The relay clause would lift `hole` for the next lap, and the rules let the mover decline
    /// it: the move stops there for their decision (the next ply, `Decided`: `continue` or
    /// `stop`).
    RelayOffered { clause: ClauseId, hole: Pos },
    /// A ply begins: `player` decides on the capture or relay their move stopped at, and the
    /// move goes on from there.
    Decided {
        ply: u32,
        player: Player,
        decision: crate::engine::Decision,
        /// The hole chosen (`choose:n3`); [`crate::rules::NO_HOLE`] for the other decisions.
        hole: Pos,
    },
    /// A ply of the arrangement before play begins: `player` puts one seed they hold into
    /// `hole` (`put`), or picks one up from it.
    Placed {
        ply: u32,
        player: Player,
        hole: Pos,
        put: bool,
        /// The mover put a piece (`[pieces]`), not a seed.
        piece: bool,
    },
    /// `player`'s arrangement before play has ended: they passed, or could do nothing more.
    Arranged { player: Player },
    /// A capture clause's `cancel_if` held: the seeds went back.
    CaptureCancelled { clause: ClauseId, seeds: u32 },
    /// The move ended after `laps` laps in `last`.
    MoveEnd { laps: u32, last: Pos },
    /// An effect clause set the rules' variables.
    Effect { clause: ClauseId },
    /// A ply begins: `player` passes: they cannot sow (where the rules let them wait), or they
    /// decline an optional extra turn.
    Pass { ply: u32, player: Player },
    /// A ply: `player` concedes the game (`[end] concede`); its round end follows.
    Concede { ply: u32, player: Player },
    /// A ply: `player` exchanges sides with the first player (`[turns] swap`, the pie rule):
    /// the board turns round ([`crate::engine::Position::turn_round`]) and the turn passes.
    Swap { ply: u32, player: Player },
    /// A ply: the race (`[race]`), begun by the round's starter `player`; each player in
    /// `starts` (by seat) sows from that hole, those holding [`crate::rules::NO_HOLE`] not
    /// racing.
    Race {
        ply: u32,
        player: Player,
        starts: [Pos; crate::rules::MAX_SEATS],
    },
    /// A ply: `player` chooses `hole` to race from (`race:s3`, where `[race] from` is a set
    /// of holes). Nothing moves: the race comes once every racer has chosen.
    RaceStart { ply: u32, player: Player, hole: Pos },
    /// In a race: the events that follow, up to the next such event, are `player`'s sowing.
    Racer { player: Player },
    /// The race is over: `first`'s sowing ended first (nobody's, [`crate::rules::NOBODY`],
    /// when nobody raced), and `next` moves. The sowings of the seats in `cut` (a bit a
    /// seat) are cut short with seeds in hand, which the events that follow sow on or put
    /// back (`[race] unfinished`).
    RaceOver {
        first: Player,
        next: Player,
        cut: u8,
    },
    /// The state of a race after tick `repeat` equals its state after tick `first`: the race
    /// never ends.
    EndlessRace { first: u32, repeat: u32 },
    /// An extra-turn clause fired: the mover sows again, or may (`optional`: their legal moves
    /// then include the pass, which declines it).
    ExtraTurn { clause: ClauseId, optional: bool },
    /// The state after lap `repeat` equals the state after lap `first`: the move never ends.
    EndlessMove { first: u32, repeat: u32 },
    /// A move reached the engine's lap limit without its lap-end state repeating: play stops
    /// with no result.
    LapLimit { laps: u32 },
    /// A move reached the engine's limit on the work of one move after `laps` laps: play
    /// stops with no result.
    StepLimit { laps: u32 },
    /// The move reached the ruleset's `max_laps`: it ends after this lap.
    LapCap { laps: u32 },
    /// A move stopped (endless, or at a limit) with `seeds` captured to be sown still in hand:
    /// they go back into `hole`, where the next lap would have sown them from.
    HandBack { hole: Pos, seeds: u16 },
    /// Every hole of the circuit passed the seeds in hand over (skip clauses): they go back
    /// into `hole`, the hole the lap was lifted from, and the lap ends there.
    Refused { hole: Pos, seeds: u16 },
    /// The game reached the engine's ply limit: play stops with no result.
    PlyLimit { plies: u32 },
    /// A round would start from the position an earlier round started from, and the match
    /// ends: by the ruleset's `end_on_repeated_start`, or because nobody has moved since that
    /// round (such rounds would repeat for ever).
    RepeatedStart,
    /// The position after ply `ply` repeats the one after ply `first` (0 = the start).
    Cycle { first: u32, ply: u32 },
    /// A game or round ended. `mover` is the player the ending names (who cannot move, who
    /// made the endless move, who is to move at a cycle or a condition); `shares` are the
    /// seeds each player took from the board and `removed` those that left the game;
    /// `neutral` is the part of each player's share that came from the neutral holes (`[end]
    /// neutral_seeds = "shared"`); `scores` what each then holds; `board` the position as the
    /// round ended, before any refill.
    RoundEnd {
        round: u32,
        clause: ClauseId,
        cause: EndCause,
        mover: Player,
        shares: [u32; MAX_SEATS],
        removed: u32,
        neutral: u32,
        winner: Option<Player>,
        scores: [u32; MAX_SEATS],
        board: Box<crate::engine::Position>,
    },
    /// Between rounds, a player who cannot fill one hole leaves the match (in a game of more
    /// than two players): their turns are passed over and their holes stay closed.
    Out { player: Player },
    /// Between rounds, `from` gave `seeds` to `to` by the rounds' gift clause.
    Gift {
        clause: ClauseId,
        from: Player,
        to: Player,
        seeds: u32,
    },
    /// Between rounds, each player's holes passed to the next player in turn order
    /// (`[rounds] rotate_owners`).
    OwnersMoved,
    /// Between rounds, after the refill of `[rounds] win_holes`: the holes each player won
    /// (filled beyond their own) and owns for the round, and the board as refilled.
    HolesWon {
        won: [Mask; MAX_SEATS],
        board: Box<crate::engine::Position>,
    },
    /// Between rounds, the board was laid out again as at the start, each player holding what
    /// they held then (`[rounds] restart`: a match of separate games).
    Restart,
    /// A player refilled their holes for the next round: `holes` holes took `seeds` in all,
    /// `refill` each but for `partial`, the last filled and the seeds it took when fewer;
    /// `closed` holds the holes left closed (unfilled, or out of play by `[rounds] closed`),
    /// `open` those left empty on the circuit (`[rounds] unfilled = "open"`). With no refill
    /// count (the players lay out their seeds, `[arrange] at = "rounds"`), every hole was
    /// emptied into the player's hand: `kept` is what they hold to lay out.
    Refill {
        player: Player,
        holes: u8,
        seeds: u32,
        partial: Option<(Pos, u32)>,
        closed: Mask,
        open: Mask,
        kept: u32,
        /// The holes filled.
        filled: Mask,
        /// The filling waits for the arrangement (`[arrange] refill = "after"`): the player
        /// holds everything for now.
        waiting: bool,
    },
    /// A new round starts.
    RoundStart { round: u32, starter: Player },
    /// The game or match is over: `winner` (`None` a draw, or no result when `stopped` names
    /// the safety limit that stopped play) and what each player holds.
    GameEnd {
        winner: Option<Player>,
        scores: [u32; MAX_SEATS],
        stopped: Option<Limit>,
    },
}

/// Receives what happens during play.
///
/// Every event the engine sends is final: a move whose laps never end is first played out
/// untraced to learn where its first repeat is, then traced up to it, so an event is never
/// taken back and a tracer may write it out at once (a replay's memory does not grow with the
/// laps of a move).
pub trait Tracer {
    /// Whether the tracer takes events. False lets the engine skip building them and take its
    /// fast paths.
    const EVENTS: bool = true;
    /// Whether the tracer counts clause firings ([`Tracer::fired`]). Counting needs no event,
    /// so a tracer that only counts keeps the engine's fast paths.
    const FIRINGS: bool = false;
    /// One event, in the order it happened.
    fn event(&mut self, event: Event);
    /// A clause fired: a capture clause took seeds (once per firing, whatever the holes it
    /// took), a relay started a lap, an extra turn was given, an ending or a round clause
    /// decided. Seeds redirected into a claimed hole are not a firing.
    #[inline(always)]
    fn fired(&mut self, _clause: ClauseId) {}
    /// A capture clause fired and its `cancel_if` undid it.
    #[inline(always)]
    fn cancelled(&mut self, _clause: ClauseId) {}
    /// The firings counted since the current move began are void: the move's laps never end,
    /// and the engine plays it again from its start up to its first repeat (counting again).
    /// Only a tracer that counts firings and takes no events is told.
    #[inline(always)]
    fn void_move(&mut self) {}
}

impl Tracer for () {
    const EVENTS: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

impl Tracer for Vec<Event> {
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}

/// Counts clause firings and nothing else, for statistics over many games (`sow simulate`):
/// it takes no events, so the engine plays as fast as untraced. A move's firings are held
/// apart until [`Firings::commit`], so that an endless move, played again to its first repeat,
/// is counted once; both buffers are sized by the ruleset's clauses, never by a move's laps.
#[derive(Debug, Clone)]
pub struct Firings {
    /// Firings per clause, committed.
    pub fired: Vec<u64>,
    /// Cancelled captures per clause, committed.
    pub cancelled: Vec<u64>,
    /// The current move's firings and cancellations per clause, and the clauses they touch.
    pending: Vec<(u64, u64)>,
    touched: Vec<ClauseId>,
}

impl Firings {
    /// Counters for a ruleset of `clauses` clauses.
    pub fn new(clauses: usize) -> Firings {
        Firings {
            fired: vec![0; clauses],
            cancelled: vec![0; clauses],
            pending: vec![(0, 0); clauses],
            touched: Vec::with_capacity(clauses),
        }
    }

    /// Adds the firings held since the last commit to the totals.
    pub fn commit(&mut self) {
        for &c in &self.touched {
            let c = usize::from(c);
            if let (Some(p), Some(f), Some(x)) = (
                self.pending.get_mut(c),
                self.fired.get_mut(c),
                self.cancelled.get_mut(c),
            ) {
                *f += p.0;
                *x += p.1;
                *p = (0, 0);
            }
        }
        self.touched.clear();
    }

    /// Sets every count to zero.
    pub fn clear(&mut self) {
        self.void_move();
        self.fired.iter_mut().for_each(|n| *n = 0);
        self.cancelled.iter_mut().for_each(|n| *n = 0);
    }

    #[inline(always)]
    fn count(&mut self, clause: ClauseId, cancelled: bool) {
        if let Some(p) = self.pending.get_mut(usize::from(clause)) {
            if *p == (0, 0) {
                self.touched.push(clause);
            }
            if cancelled {
                p.1 += 1;
            } else {
                p.0 += 1;
            }
        }
    }
}

impl Tracer for Firings {
    const EVENTS: bool = false;
    const FIRINGS: bool = true;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
    #[inline(always)]
    fn fired(&mut self, clause: ClauseId) {
        self.count(clause, false);
    }
    #[inline(always)]
    fn cancelled(&mut self, clause: ClauseId) {
        self.count(clause, true);
    }
    fn void_move(&mut self) {
        for &c in &self.touched {
            if let Some(p) = self.pending.get_mut(usize::from(c)) {
                *p = (0, 0);
            }
        }
        self.touched.clear();
    }
}

/// Checks that a trace accounts for every seed: a tracer that keeps a ledger of the seeds from
/// the events alone (each event moves seeds between the board, the hand, the players' holdings
/// and the seeds removed from the game) and notes the first event after which the ledger no
/// longer holds every seed. Start it from the position before a ply; after the ply,
/// [`Ledger::check`] compares it with the position the engine left. Tests and fuzz targets use
/// it; so can anyone who doubts a trace.
///
/// Pieces (`[pieces]`) are counted as seeds wherever the board holds them; the ledger keeps
/// no track of which unit is which, only of how many pieces are held off the board (`loose`).
#[derive(Debug, Clone)]
pub struct Ledger {
    rules: std::sync::Arc<crate::rules::Rules>,
    /// The position by the events (its `total` counts every piece on the board as a seed).
    pos: crate::engine::Position,
    /// The pieces held off the board.
    loose: u32,
    hand: u32,
    mover: Player,
    total: u32,
    events: usize,
    broken: Option<String>,
    /// Whether a round's refill moved the seeds: from there only the totals are compared.
    refilled: bool,
}

impl Ledger {
    /// A ledger of `before`, the position a ply starts from.
    pub fn new(
        rules: &std::sync::Arc<crate::rules::Rules>,
        before: &crate::engine::Position,
    ) -> Ledger {
        Ledger {
            rules: rules.clone(),
            pos: *before,
            loose: rules.units_in(before) - before.total(),
            hand: 0,
            mover: before.to_move,
            total: rules.units_in(before),
            events: 0,
            broken: None,
            refilled: false,
        }
    }

    /// The events seen.
    pub fn events(&self) -> usize {
        self.events
    }

    /// Whether the events seen held every seed throughout, put every seed in hand down, and
    /// add up to `after` (its board, holdings and removed seeds); the first problem otherwise.
    pub fn check(&self, after: &crate::engine::Position) -> Result<(), String> {
        if let Some(why) = &self.broken {
            return Err(why.clone());
        }
        if self.hand != 0 {
            return Err(format!(
                "{} seeds are still in hand after the ply",
                self.hand
            ));
        }
        let mine = (self.pos.board, self.pos.reserve, self.pos.taken);
        if self.refilled {
            if self.rules.units_in(after) != self.total {
                return Err(format!("the refilled board holds {} seeds", after.total()));
            }
        } else if mine != (after.board, after.reserve, after.taken) {
            return Err(format!(
                "the events leave {:?}, the engine {:?}",
                mine,
                (after.board, after.reserve, after.taken)
            ));
        }
        Ok(())
    }

    fn fail(&mut self, why: String) {
        if self.broken.is_none() {
            self.broken = Some(why);
        }
    }

    /// Takes `seeds` from `hole`: the whole of it, or part (what was just dropped there stays,
    /// `keep = "dropped"`; or the rest of what `take_seeds` does not take); the ply's end
    /// compares the board exactly.
    fn take(&mut self, hole: Pos, seeds: u16, e: &Event) {
        let there = self.pos.seeds(hole);
        if there < seeds {
            self.fail(format!("{e:?}: the hole holds {there}"));
        }
        self.pos.set(hole, there.saturating_sub(seeds));
    }
}

impl Tracer for Ledger {
    fn event(&mut self, e: Event) {
        self.events += 1;
        match &e {
            Event::Move { player, .. }
            | Event::Pass { player, .. }
            | Event::Concede { player, .. }
            | Event::Decided { player, .. }
            | Event::Race { player, .. }
            // In a race, each sowing's captures are its racer's.
            | Event::Racer { player } => self.mover = *player,
            Event::Swap { player, .. } => {
                // The board turns round: every seed moves with its hole.
                self.mover = *player;
                if let Some(turned) = self.rules.swap {
                    self.pos.turn_round(&self.rules, &turned);
                }
            }
            Event::Placed {
                player,
                hole,
                put,
                piece,
                ..
            } => {
                self.mover = *player;
                let (held, there) = (self.pos.held(&self.rules, *player), self.pos.seeds(*hole));
                if *piece {
                    if self.loose == 0 {
                        self.fail(format!("{e:?}: nobody holds a piece"));
                    }
                    self.loose = self.loose.saturating_sub(1);
                    self.pos.set(*hole, there.saturating_add(1));
                } else if *put {
                    if held == 0 {
                        self.fail(format!("{e:?}: the mover holds nothing"));
                    }
                    self.pos.debit(&self.rules, *player, 1);
                    self.pos.set(*hole, there.saturating_add(1));
                } else {
                    if there == 0 {
                        self.fail(format!("{e:?}: the hole is empty"));
                    }
                    self.pos.set(*hole, there.saturating_sub(1));
                    self.pos.credit(&self.rules, *player, 1);
                }
            }
            Event::Lift { hole, seeds, .. } => {
                // A lift may leave seeds behind (`lift`, `lift_also`).
                let there = self.pos.seeds(*hole);
                if there < *seeds {
                    self.fail(format!("{e:?}: the hole holds {there}"));
                }
                self.pos.set(*hole, there.saturating_sub(*seeds));
                self.hand += u32::from(*seeds);
            }
            Event::Enter { seeds, .. } => {
                // The seeds come from what the mover holds, which must hold them.
                let held = self.pos.held(&self.rules, self.mover);
                if held < u32::from(*seeds) {
                    self.fail(format!("{e:?}: the mover holds {held}"));
                }
                self.pos.debit(&self.rules, self.mover, u32::from(*seeds));
                self.hand += u32::from(*seeds);
            }
            Event::Drop { hole, seeds, .. } => {
                self.hand = self.hand.wrapping_sub(1);
                self.pos.set(*hole, self.pos.seeds(*hole).saturating_add(1));
                if self.pos.seeds(*hole) != *seeds {
                    self.fail(format!("{e:?}: the hole holds {}", self.pos.seeds(*hole)));
                }
            }
            Event::Diverted { to, .. } => {
                self.hand = self.hand.wrapping_sub(1);
                self.pos.credit(&self.rules, *to, 1);
            }
            Event::Redirect { to, seeds, .. } => {
                self.hand = self.hand.wrapping_sub(1);
                match to {
                    Some(h) => {
                        self.pos.set(*h, self.pos.seeds(*h).saturating_add(1));
                        if self.pos.seeds(*h) != *seeds {
                            self.fail(format!("{e:?}: the hole holds {}", self.pos.seeds(*h)));
                        }
                    }
                    None => {
                        if let Some(t) = self.pos.taken.get_mut(usize::from(self.mover)) {
                            *t += 1;
                        }
                    }
                }
            }
            Event::Capture {
                hole,
                seeds,
                pieces,
                to,
                resown,
                into,
                ..
            } => {
                self.take(*hole, *seeds, &e);
                // The pieces go to a hand, apart from the seeds.
                self.loose += u32::from(*pieces);
                let n = u32::from(seeds - pieces);
                match (to, resown, into) {
                    (_, _, Some(h)) => {
                        let put = u16::try_from(n).unwrap_or(u16::MAX);
                        self.pos.set(*h, self.pos.seeds(*h).saturating_add(put));
                    }
                    (_, true, None) => self.hand += n,
                    (Some(p), false, None) => self.pos.credit(&self.rules, *p, n),
                    (None, false, None) => {
                        if let Some(t) = self.pos.taken.get_mut(usize::from(self.mover)) {
                            *t += n;
                        }
                    }
                }
            }
            Event::HandBack { hole, seeds } | Event::Refused { hole, seeds } => {
                self.hand = self.hand.wrapping_sub(u32::from(*seeds));
                self.pos
                    .set(*hole, self.pos.seeds(*hole).saturating_add(*seeds));
            }
            Event::RoundEnd { board, .. } => {
                // The position as the round ended: every seed in hand put down, and from here
                // the ledger goes on from it (the sharing out is the ending's own book).
                if self.hand != 0 {
                    self.fail(format!("{e:?}: {} seeds still in hand", self.hand));
                }
                if self.rules.units_in(board) != self.total {
                    self.fail(format!(
                        "{e:?}: the board at the end holds {}",
                        board.total()
                    ));
                }
                self.loose = self.rules.units_in(board) - board.total();
                self.pos = **board;
            }
            Event::Refill { .. } => {
                // A refill moves every player's seeds at once, as the rounds' rule says; the
                // ply's end is then checked by its totals.
                self.refilled = true;
            }
            Event::HolesWon { board, .. } => {
                self.refilled = true;
                self.pos = **board;
            }
            Event::RoundStart { .. } => {}
            Event::Restart => {
                // A new game from the layout: the ply's end is checked by the game's totals (a
                // set-up position may have held fewer).
                self.refilled = true;
                self.total = self.rules.total_seeds() + self.rules.piece_count();
            }
            Event::Out { .. } | Event::OwnersMoved | Event::Gift { .. } => {
                // Between rounds, like the refill: the next ply's totals check the board.
                self.refilled = true;
            }
            Event::Resow { .. }
            | Event::Effect { .. }
            | Event::Skip { .. }
            | Event::LapEnd { .. }
            | Event::Relay { .. }
            | Event::CaptureCancelled { .. }
            | Event::CaptureOffered { .. }
            | Event::ChoiceOffered { .. }
            | Event::RelayOffered { .. }
            | Event::Arranged { .. }
            | Event::MoveEnd { .. }
            | Event::ExtraTurn { .. }
            | Event::EndlessMove { .. }
            | Event::LapLimit { .. }
            | Event::StepLimit { .. }
            | Event::LapCap { .. }
            | Event::PlyLimit { .. }
            | Event::RaceStart { .. }
            | Event::RepeatedStart
            | Event::Cycle { .. }
            | Event::RaceOver { .. }
            | Event::EndlessRace { .. }
            | Event::GameEnd { .. } => {}
        }
        if !self.refilled && self.pos.total() + self.hand + self.loose != self.total {
            let (placed, hand) = (self.pos.total() + self.loose, self.hand);
            self.fail(format!("{e:?}: {placed} seeds placed and {hand} in hand"));
        }
    }
}

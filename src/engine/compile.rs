//! Compiled rules turned into closures, once per game, for the engine to call.
//!
//! Walking the typed trees of [`crate::rules`] at every evaluation sent every node through one
//! jump table, which the processor predicts badly: about a quarter of a random playout went
//! there. A tree of closures gives each node its own call site, folds what is known when the
//! game is set up (the board's store mask, `holes`), and reads the moment's holes (`here`,
//! `last`, ...) inside the closure that uses them.

use super::Position;
use super::eval::{Cx, arith, compare};
use super::sow::{Drops, Guard};
use crate::rules::{
    Aggregate, ArithOp, BoolX, CaptureRule, ClauseId, CmpOp, DirX, EffectRule, EndingRule, Fact,
    HoleX, IntX, MAX_POSITIONS, MAX_SEATS, Mask, NO_HOLE, NOBODY, Player, PlayerX, Pos, Quantifier,
    RedirectDest, RelayRule, Rules, SetX, VarValue, bit,
};
use crate::ruleset::{After, Destination, RelayFrom, VarScope};

/// The rounds' gift, compiled: who gives, and when.
pub struct GiveProgram {
    pub from: Who,
    pub seeds: Num,
    pub when: Cond,
}

/// A compiled condition.
pub type Cond = Box<dyn Fn(&Cx<'_>, &Position) -> bool + Send + Sync>;
/// A compiled number.
pub type Num = Box<dyn Fn(&Cx<'_>, &Position) -> i64 + Send + Sync>;
/// A compiled hole.
pub type Hole = Box<dyn Fn(&Cx<'_>, &Position) -> Pos + Send + Sync>;
/// A compiled player.
pub type Who = Box<dyn Fn(&Cx<'_>, &Position) -> Player + Send + Sync>;
/// A compiled set of holes: a mask of positions.
pub type Holes = Box<dyn Fn(&Cx<'_>, &Position) -> Mask + Send + Sync>;

/// Where a redirect clause sends a seed, compiled.
pub enum Redirected {
    /// Out of play, booked to the mover's removed seeds.
    Removed,
    /// Into the hole the closure names (a hole off the board keeps the seed where it was due).
    Hole(Hole),
    /// To what the player the closure names holds.
    Player(Who),
}
/// A compiled direction: 0 none, 1 counter-clockwise, 2 clockwise.
pub type Way = Box<dyn Fn(&Cx<'_>, &Position) -> i32 + Send + Sync>;

/// `if(c, a, b)` compiled, whatever `a` and `b` give: a number, a hole, a player, a direction.
#[allow(clippy::type_complexity)]
fn either<T: 'static>(
    c: Cond,
    a: Box<dyn Fn(&Cx<'_>, &Position) -> T + Send + Sync>,
    b: Box<dyn Fn(&Cx<'_>, &Position) -> T + Send + Sync>,
) -> Box<dyn Fn(&Cx<'_>, &Position) -> T + Send + Sync> {
    Box::new(move |cx, pos| if c(cx, pos) { a(cx, pos) } else { b(cx, pos) })
}

/// A compiled effect clause.
pub struct EffectProgram {
    pub id: ClauseId,
    pub when: Cond,
    /// Whose own variables are set; `None` for the mover's (no call on the common path).
    pub player: Option<Who>,
    /// Each variable set: its first slot, whether each player has one (then `player`'s is
    /// set), and its new value.
    pub sets: Vec<(usize, bool, Value)>,
}

/// A compiled value for a variable.
pub enum Value {
    Number(Num),
    Flag(Cond),
    Dir(Way),
    /// A hole put into (`true`) or taken out of a set of holes.
    Mark(Hole, bool),
}

impl EffectProgram {
    /// Applies the effect, if its condition holds: every value is read before any is set.
    #[inline]
    pub fn apply(&self, cx: &Cx<'_>, pos: &mut Position) -> bool {
        if !(self.when)(cx, pos) {
            return false;
        }
        // Whose own variables change is read with the values, before anything is set.
        let whose = self.player.as_ref().map_or(cx.mover, |p| p(cx, pos));
        if let [(slot, per_player, value)] = self.sets.as_slice() {
            // One variable, as most effects have: nothing to keep apart.
            let v = Self::read(value, cx, pos);
            Self::write((*slot, *per_player, value), v, whose, pos);
            return true;
        }
        let mut values = [0i32; crate::rules::MAX_VARS];
        for (i, (_, _, value)) in self.sets.iter().enumerate() {
            if let Some(slot) = values.get_mut(i) {
                *slot = Self::read(value, cx, pos);
            }
        }
        for ((slot, per_player, value), v) in self.sets.iter().zip(values) {
            Self::write((*slot, *per_player, value), v, whose, pos);
        }
        true
    }

    /// A variable's new value, in its slot's form.
    #[inline(always)]
    fn read(value: &Value, cx: &Cx<'_>, pos: &Position) -> i32 {
        match value {
            Value::Number(n) => {
                let n = n(cx, pos);
                i32::try_from(n).unwrap_or(if n < 0 { i32::MIN } else { i32::MAX })
            }
            Value::Flag(c) => i32::from(c(cx, pos)),
            Value::Dir(d) => d(cx, pos),
            Value::Mark(h, _) => i32::from(h(cx, pos)),
        }
    }

    /// Writes a value read by [`Self::read`] into its variable, `whose` own where each player
    /// has one.
    #[inline(always)]
    fn write(
        (slot, per_player, value): (usize, bool, &Value),
        v: i32,
        whose: Player,
        pos: &mut Position,
    ) {
        if per_player && usize::from(whose) >= crate::rules::MAX_SEATS {
            // Nobody's own variables: a neutral hole's owner, a drawn round's winner.
            return;
        }
        let Value::Mark(_, add) = value else {
            let at = slot + if per_player { usize::from(whose) } else { 0 };
            if let Some(s) = pos.vars.get_mut(at) {
                *s = v;
            }
            return;
        };
        // A set of holes takes HOLES_WIDTH slots (a player's own: as many a player); no hole
        // changes nothing.
        let at = slot
            + if per_player {
                crate::rules::HOLES_WIDTH * usize::from(whose)
            } else {
                0
            };
        if let Ok(h) = u32::try_from(v) {
            crate::rules::mark_hole(&mut pos.vars, at, h, *add);
        }
    }
}

/// A capture clause's expressions, compiled, with what else the engine reads of the clause
/// at play time (so that playing walks one list, not the rules' and the program's side by
/// side).
pub struct CaptureProgram {
    pub id: ClauseId,
    pub to: Destination,
    /// Who receives the seeds, in place of `to`: read for each hole taken (`hole`).
    pub player: Option<Who>,
    pub then: After,
    pub claim: bool,
    pub when: Cond,
    pub takes: Takes,
    /// The work of trying the clause, in steps: the terms of its condition.
    pub cost: u64,
    /// With `then = sow`: the hole after which the seeds are sown (default the lap's last).
    pub sow_after: Option<Hole>,
    /// With `then = sow`: seeds also lifted from the lap's last hole and sown with them.
    pub lift_also: Option<Num>,
    /// With `then = sow`: the direction they are sown in (1 `ccw`, 2 `cw`; 0 keeps the lap's).
    pub sow_direction: Option<Way>,
    /// The mover may decline the capture: the move stops for their decision.
    pub optional: bool,
    /// The holes the mover chooses one of (`choose`), `chosen` in the clause's expressions.
    pub choose: Option<Holes>,
    /// Whether the clause may stop the move for the mover: `optional`, or `choose`.
    pub asks: bool,
    /// How many seeds are taken from each hole (`hole` bound to it), default all.
    pub take_seeds: Option<Num>,
    /// At a drop: the seed or piece just dropped stays where it fell.
    pub keep_dropped: bool,
    /// Whether a take sets anything aside: what `keep_dropped` keeps, pieces, or the seeds
    /// `take_seeds` leaves.
    pub apart: bool,
}

/// What a capture clause takes.
pub enum Takes {
    /// One hole and nothing else (no chain, claim or cancellation), as most clauses do: play
    /// takes it without the general machinery.
    One(Taken),
    /// Anything more.
    InFull(InFull),
}

/// A capture that takes several holes, chains, claims, puts what it takes into a hole or may
/// be cancelled.
pub struct InFull {
    pub take: Vec<Taken>,
    /// A set of holes taken after `take`, read before anything is taken.
    pub take_set: Option<Holes>,
    pub chain: Option<Chain>,
    pub cancel_if: Option<Cond>,
    /// The hole the seeds taken are put into, instead of being banked (`into`).
    pub into: Option<Hole>,
}

/// A capture's chain, compiled (see [`crate::rules::ChainRule`]).
pub struct Chain {
    pub keep_going: Cond,
    pub step: Hole,
    /// Holes taken as well at each hole stepped to.
    pub also: Vec<Hole>,
}

/// A hole a capture takes.
pub enum Taken {
    /// `here`, read from the context with no call.
    Here,
    /// `last`, likewise.
    Last,
    /// Any other hole.
    At(Hole),
}

impl Taken {
    fn of(c: &Compiler<'_>, h: &HoleX) -> Taken {
        match h {
            HoleX::Here => Taken::Here,
            HoleX::Last => Taken::Last,
            h => Taken::At(c.hole(h)),
        }
    }

    /// The hole, in the context `cx` of the capture.
    #[inline(always)]
    pub fn hole(&self, cx: &Cx<'_>, pos: &Position) -> Pos {
        match self {
            Taken::Here => cx.here,
            Taken::Last => cx.last,
            Taken::At(hole) => hole(cx, pos),
        }
    }
}

/// The relay clause, compiled.
pub struct RelayProgram {
    pub id: ClauseId,
    /// Where the next lap starts.
    pub from: RelayFrom,
    /// The hole the next lap lifts, when an expression names it (instead of `from`).
    pub hole: Option<Hole>,
    /// Whether each relay turns the direction round.
    pub reverse: bool,
    pub when: RelayWhen,
    /// Where the mover may stop instead of relaying (the move stops for their decision);
    /// `None` where they never may.
    pub optional: Option<Cond>,
}

/// When a lap relays. Whatever the condition says, the hole the next lap lifts must hold seeds.
pub enum RelayWhen {
    /// The condition only asks that the hole the next lap lifts hold at least this many seeds
    /// (as the defaults do: `seeds(last) > 1` from the landing hole, `seeds(next(last)) > 0`
    /// from the next): the relay reads that hole anyway, so the condition costs one compare.
    AtLeast(u32),
    /// Any other condition.
    When(Cond),
}

/// A legality clause's expressions, compiled.
pub struct LegalProgram {
    pub id: ClauseId,
    pub when: Cond,
    pub require: Cond,
    pub require_after: Option<Cond>,
}

/// A compiled preference over the legal moves.
pub struct PreferProgram {
    pub id: ClauseId,
    pub when: Cond,
    pub holds: Cond,
    pub holds_after: Option<Cond>,
}

/// The `[entry]`, compiled.
pub struct EntryProgram {
    pub id: ClauseId,
    pub when: Cond,
    pub seeds: Num,
    pub choose: bool,
    /// Where the first seed falls.
    pub start: StartFrom,
}

/// Where an entry's first seed falls, or where a racer's sowing starts, compiled.
pub enum StartFrom {
    /// The hole the closure names.
    Hole(Hole),
    /// A hole of the set the closure gives, the mover's choice.
    Chosen(Holes),
}

/// The `[arrange]`, compiled: each condition reads the hole tried as `origin`, but `done`.
pub struct ArrangeProgram {
    pub id: ClauseId,
    pub put: Cond,
    pub pick: Cond,
    pub done: Cond,
    /// Where the mover may put a piece they hold.
    pub place: Cond,
}

/// What a lap lifts from its hole: one choice, tried once a lap, whatever the rules' features.
pub enum Lifting {
    /// Everything, seeds alone.
    All,
    /// On the move's first lap, as many as `[sowing] lift` says; on a relay's, as many as
    /// `[sowing.relay] lift` says (its hole bound as `hole`); everything where the one that
    /// applies is not given.
    /// With `gather`, the move's first lap also lifts the holes of that set, read before
    /// anything is lifted (`[sowing] gather`).
    Part {
        first: Option<Num>,
        relay: Option<Num>,
        gather: Option<Holes>,
    },
    /// Everything, pieces (`[pieces]`) among the seeds: each is given the drop it falls at.
    WithPieces,
}

/// Every expression of a ruleset, compiled; each list is in the order of its list in
/// [`Rules`].
pub struct Program {
    /// Entering seeds the mover holds, when the rules have such a move.
    pub entry: Option<EntryProgram>,
    /// The arrangement before play, when the rules have one.
    pub arrange: Option<ArrangeProgram>,
    /// Each player's start in the race (`[race] from`), read with that player moving: the
    /// hole, or the set they choose it from.
    pub race_from: Option<StartFrom>,
    /// Captures and effects after each seed put, or picked up, in the arrangement.
    pub put_captures: Vec<CaptureProgram>,
    /// The captures tried once play has ended (`at = "play_end"`), for each player.
    pub end_captures: Vec<CaptureProgram>,
    pub put_effects: Vec<EffectProgram>,
    pub pick_captures: Vec<CaptureProgram>,
    pub pick_effects: Vec<EffectProgram>,
    pub relay: Option<RelayProgram>,
    pub drop_captures: Vec<CaptureProgram>,
    pub lap_captures: Vec<CaptureProgram>,
    pub move_captures: Vec<CaptureProgram>,
    pub legal: Vec<LegalProgram>,
    pub prefer: Vec<PreferProgram>,
    /// Each skip clause (`[[sowing.skip]]`): its id and its condition.
    pub skips: Vec<(ClauseId, Cond)>,
    /// The redirect clauses that can fire, each with where it sends the seed.
    pub redirects: Vec<(ClauseId, Cond, Redirected)>,
    /// Each extra-turn clause: its id, its condition and whether the mover may decline it.
    pub extra_turns: Vec<(ClauseId, Cond, bool)>,
    /// Each ending condition, with how the round then ends.
    pub end_when: Vec<(EndingRule, Cond)>,
    /// A quick test for each drop clause, in order, before its condition is evaluated.
    pub drops: Drops,
    /// The most laps a move may take by the rules (`u32::MAX` when they set none).
    pub max_laps: u32,
    /// The fewest seeds lifted whose first goes back into the hole lifted (`[sowing]
    /// first_seed`; see [`crate::ruleset::FirstSeed::back_from`]).
    pub first_back: u16,
    /// What a lap lifts from its hole.
    pub lift: Lifting,
    /// The engine's limit on the work of one move, in steps
    /// ([`crate::rules::MAX_STEPS_PER_MOVE`]; lower only in tests, which cannot wait for it).
    pub max_steps: u64,
    /// The rounds' `match_ends` condition.
    pub match_ends: Option<Cond>,
    /// The rounds' holes out of play for the next round.
    pub round_closed: Option<Holes>,
    /// The rounds' gift.
    pub give: Option<GiveProgram>,
    /// Effect clauses by moment.
    pub drop_effects: Vec<EffectProgram>,
    pub lap_effects: Vec<EffectProgram>,
    pub move_effects: Vec<EffectProgram>,
    /// Effects at a round's end, tried for each player still in the match.
    pub round_effects: Vec<EffectProgram>,
    /// Effects at every round's start, the first included, tried for each player in play.
    pub start_effects: Vec<EffectProgram>,
    /// Whether lap-end states must remember that the move reached the opponent's row (only
    /// when a clause read during the move looks at it).
    pub track_reached: bool,
    /// Whether lap-end states must remember the seeds the move has captured (only when a
    /// clause read during the move looks at `move_captures`: captured seeds sown again leave
    /// the position as it was, so the count alone can tell two lap ends apart).
    pub track_captures: bool,
    /// Whether any clause reads whether the move reached the opponent's row: if none does,
    /// the sowing loops do not keep track of it.
    pub watch_reached: bool,
    /// Whether every lap of a move is quiet: nothing to do between its drops, and nothing at
    /// its end but the relay (no lap-end or drop clause that may fire, no claims, nobody
    /// asking whether the move reached the opponent's row). Untraced, such laps are sown in
    /// one tight loop each (`Mover::quiet_laps`, the first seed back into the hole lifted
    /// where `first_seed` says so) until one comes back round to a hole it must pass over.
    pub quiet_laps: bool,
    /// Whether some variable goes back to its first value at the end of every lap.
    pub lap_vars: bool,
    /// Where pieces (`[pieces]`) fall in the sowing of their hole, when the rules have
    /// pieces: every drop then asks whether it is a piece's.
    pub pieces: Option<crate::ruleset::PieceOrder>,
    /// Whether a clause reads `landed_on`, which the lap's last drop then records.
    pub landing: bool,
    /// Whether every drop must stop and ask: skip or redirect clauses, or pieces.
    pub stop_everywhere: bool,
    /// Whether a lap can be sown against the move's direction: a relay turns it round, or
    /// captured seeds are sown again in a direction of their own (`sow_direction`).
    turns: bool,
}

impl Program {
    /// Whether `clause` is the relay's: a move stopped at it waits for `continue` or `stop`
    /// (else, at an optional capture, for `take` or `leave`).
    pub fn is_relay(&self, clause: ClauseId) -> bool {
        self.relay.as_ref().is_some_and(|r| r.id == clause)
    }

    /// Whether a lap can be sown against the move's direction (see `turns`).
    #[inline(always)]
    pub fn reverses(&self) -> bool {
        self.turns
    }

    pub fn new(rules: &Rules) -> Program {
        let c = Compiler { rules };
        let capture = |r: &CaptureRule| CaptureProgram {
            id: r.id,
            to: r.to,
            player: r.player.as_ref().map(|p| c.who(p)),
            then: r.then,
            claim: r.claim,
            optional: r.optional,
            choose: r.choose.as_ref().map(|s| c.set(s)),
            asks: r.optional || r.choose.is_some(),
            take_seeds: r.take_seeds.as_ref().map(|n| c.num(n)),
            keep_dropped: r.keep_dropped,
            apart: r.keep_dropped || rules.pieces.is_some() || r.take_seeds.is_some(),
            cost: r.when.size(),
            sow_after: r.sow_after.as_ref().map(|h| c.hole(h)),
            lift_also: r.lift_also.as_ref().map(|n| c.num(n)),
            sow_direction: r.sow_direction.as_ref().map(|d| c.dir(d)),
            when: c.cond(&r.when),
            takes: match r.take.as_slice() {
                [h] if !r.claim
                    && r.into.is_none()
                    && chain_of(r).is_none()
                    && r.cancel_if.is_none()
                    && r.take_set.is_none() =>
                {
                    Takes::One(Taken::of(&c, h))
                }
                _ => Takes::InFull(InFull {
                    take: r.take.iter().map(|h| Taken::of(&c, h)).collect(),
                    take_set: r.take_set.as_ref().map(|s| c.set(s)),
                    chain: chain_of(r).map(|ch| Chain {
                        keep_going: c.cond(&ch.while_),
                        step: c.hole(&ch.step),
                        also: ch.also.iter().map(|h| c.hole(h)).collect(),
                    }),
                    cancel_if: r.cancel_if.as_ref().map(|x| c.cond(x)),
                    into: r.into.as_ref().map(|h| c.hole(h)),
                }),
            },
        };
        // A clause whose condition is false under the options chosen never fires: it is left
        // out of the program, so that no ply tries it (its id stays in the rules, for the
        // lists of clauses that never fired).
        let may_fire = |x: &BoolX| *x != BoolX::Const(false);
        let captures = |list: &[CaptureRule]| {
            (list.iter())
                .filter(|r| may_fire(&r.when))
                .map(capture)
                .collect::<Vec<_>>()
        };
        let lap_captures = captures(&rules.lap_captures);
        // A drop clause that can never fire under the options chosen is left out, so that a
        // drop tries only the clauses that may.
        let (drop_captures, guards): (Vec<CaptureProgram>, Vec<Guard>) = (rules.drop_captures)
            .iter()
            .map(|r| (r, Guard::of(&r.when)))
            .filter(|(_, guard)| *guard != Guard::Never)
            .map(|(r, guard)| (capture(r), guard))
            .unzip();
        let lap_vars = rules.vars.iter().any(|v| v.scope == VarScope::Lap);
        let quiet_laps = lap_captures.is_empty()
            && !lap_vars
            && drop_captures.is_empty()
            && rules.drop_effects.is_empty()
            && rules.lap_effects.is_empty()
            && rules.lift.is_none()
            && rules.gather.is_none()
            && rules.relay.as_ref().is_none_or(|r| r.lift.is_none())
            && rules
                .relay
                .as_ref()
                .is_none_or(|r| r.hole.is_none() && !r.reverse && !r.may_stop())
            && rules.claim_clause.is_none()
            && rules.skips.iter().all(|k| !may_fire(&k.when))
            && rules.redirects.iter().all(|r| !may_fire(&r.when))
            && rules.pieces.is_none()
            && !rules.reads(Fact::ReachedOpponent)
            // `landed_on` is recorded at each lap's last drop, which quiet laps do not stop at.
            && !rules.reads(Fact::LandedOn);
        Program {
            quiet_laps,
            lap_vars,
            pieces: rules.pieces.as_ref().map(|p| p.sown),
            landing: rules.reads(Fact::LandedOn),
            max_laps: rules.max_laps.unwrap_or(u32::MAX),
            first_back: rules.first_seed.back_from(),
            drop_effects: rules.drop_effects.iter().map(|e| c.effect(e)).collect(),
            lap_effects: rules.lap_effects.iter().map(|e| c.effect(e)).collect(),
            move_effects: rules.move_effects.iter().map(|e| c.effect(e)).collect(),
            put_effects: rules.put_effects.iter().map(|e| c.effect(e)).collect(),
            put_captures: captures(&rules.put_captures),
            pick_effects: rules.pick_effects.iter().map(|e| c.effect(e)).collect(),
            pick_captures: captures(&rules.pick_captures),
            end_captures: captures(&rules.end_captures),
            race_from: (rules.race.as_ref()).map(|r| match &r.from {
                crate::rules::StartAt::Hole(h) => StartFrom::Hole(c.hole(h)),
                crate::rules::StartAt::Chosen(s) => StartFrom::Chosen(c.set(s)),
            }),
            arrange: (rules.arrange.as_ref()).map(|a| ArrangeProgram {
                id: a.id,
                put: c.cond(&a.put),
                pick: c.cond(&a.pick),
                done: c.cond(&a.done),
                place: c.cond(&a.place),
            }),
            round_effects: rules.round_effects.iter().map(|e| c.effect(e)).collect(),
            start_effects: rules.start_effects.iter().map(|e| c.effect(e)).collect(),
            max_steps: crate::rules::MAX_STEPS_PER_MOVE,
            match_ends: (rules.rounds.as_ref())
                .and_then(|r| r.match_ends.as_ref())
                .map(|x| c.cond(x)),
            round_closed: (rules.rounds.as_ref())
                .and_then(|r| r.closed.as_ref())
                .map(|x| c.set(x)),
            give: (rules.rounds.as_ref())
                .and_then(|r| r.give.as_ref())
                .map(|g| GiveProgram {
                    from: c.who(&g.from),
                    seeds: c.num(&g.seeds),
                    when: c.cond(&g.when),
                }),
            relay: (rules.relay.as_ref()).map(|r| RelayProgram {
                id: r.id,
                from: r.from,
                hole: r.hole.as_ref().map(|h| c.hole(h)),
                reverse: r.reverse,
                when: c.relay_when(r),
                optional: r.may_stop().then(|| c.cond(&r.optional)),
            }),
            lift: match (
                rules.lift.as_ref(),
                rules.relay.as_ref().and_then(|r| r.lift.as_ref()),
                rules.gather.as_ref(),
            ) {
                (None, None, None) if rules.pieces.is_some() => Lifting::WithPieces,
                (None, None, None) => Lifting::All,
                (first, relay, gather) => Lifting::Part {
                    first: first.map(|n| c.num(n)),
                    relay: relay.map(|n| c.num(n)),
                    gather: gather.map(|s| c.set(s)),
                },
            },
            stop_everywhere: !rules.skips.is_empty()
                || !rules.redirects.is_empty()
                || rules.pieces.is_some(),
            entry: (rules.entry.as_ref())
                .filter(|e| may_fire(&e.when))
                .map(|e| EntryProgram {
                    id: e.id,
                    when: c.cond(&e.when),
                    seeds: c.num(&e.seeds),
                    choose: e.choose,
                    start: match &e.start {
                        crate::rules::StartAt::Hole(h) => StartFrom::Hole(c.hole(h)),
                        crate::rules::StartAt::Chosen(s) => StartFrom::Chosen(c.set(s)),
                    },
                }),
            drop_captures,
            lap_captures,
            move_captures: captures(&rules.move_captures),
            legal: rules
                .legal
                .iter()
                .map(|l| LegalProgram {
                    id: l.id,
                    when: c.cond(&l.when),
                    require: c.cond(&l.require),
                    require_after: l.require_after.as_ref().map(|x| c.cond(x)),
                })
                .collect(),
            skips: (rules.skips.iter())
                .filter(|k| may_fire(&k.when))
                .map(|k| (k.id, c.cond(&k.when)))
                .collect(),
            redirects: (rules.redirects.iter())
                .filter(|r| may_fire(&r.when))
                .map(|r| {
                    let to = match &r.to {
                        RedirectDest::Removed => Redirected::Removed,
                        RedirectDest::Hole(h) => Redirected::Hole(c.hole(h)),
                        RedirectDest::Player(p) => Redirected::Player(c.who(p)),
                    };
                    (r.id, c.cond(&r.when), to)
                })
                .collect(),
            prefer: (rules.prefer.iter())
                .filter(|p| may_fire(&p.when))
                .map(|p| PreferProgram {
                    id: p.id,
                    when: c.cond(&p.when),
                    holds: c.cond(&p.holds),
                    holds_after: p.holds_after.as_ref().map(|x| c.cond(x)),
                })
                .collect(),
            extra_turns: (rules.extra_turns.iter())
                .filter(|x| may_fire(&x.when))
                .map(|x| (x.id, c.cond(&x.when), x.optional))
                .collect(),
            end_when: (rules.end_when.iter())
                .filter(|(x, _)| may_fire(x))
                .map(|(x, ending)| (*ending, c.cond(x)))
                .collect(),
            drops: {
                let mut drops = Drops::of(guards);
                // Effects at drops have no count to test; `landed_on` is recorded at every
                // lap's last drop, whatever a lap-end capture does to that hole since.
                if !rules.drop_effects.is_empty() || rules.reads(Fact::LandedOn) {
                    drops.try_every_drop();
                }
                drops
            },
            track_reached: rules.move_reads(Fact::ReachedOpponent),
            track_captures: rules.move_reads(Fact::MoveCaptures),
            watch_reached: rules.reads(Fact::ReachedOpponent),
            turns: rules.relay.as_ref().is_some_and(|r| r.reverse)
                || rules.lap_captures.iter().any(|r| r.sow_direction.is_some()),
        }
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Program { .. }")
    }
}

/// A capture's chain: its condition and step. A chain whose condition is false under the
/// options chosen is no chain.
fn chain_of(r: &CaptureRule) -> Option<&crate::rules::ChainRule> {
    r.chain.as_ref().filter(|c| c.while_ != BoolX::Const(false))
}

/// A table of positions read at a hole; [`NO_HOLE`] (and anything past the table) reads as
/// [`NO_HOLE`].
fn at(table: &[Pos], p: Pos) -> Pos {
    table.get(usize::from(p)).copied().unwrap_or(NO_HOLE)
}

/// `ahead(h, k)`: `k` steps from `start` along the mover's circuit in the context's direction
/// (back for a negative `k`). Each step follows the circuit's table, whose holes come back round
/// to the first hole stepped to; once the walk is back there it takes only the remainder of
/// the whole circuits left, so it makes at most twice the circuit's steps, whatever `k`.
fn ahead(cx: &Cx<'_>, start: Pos, k: i64) -> Pos {
    let forward = k >= 0;
    let mut left = k.unsigned_abs();
    if left == 0 || start == NO_HOLE {
        return start;
    }
    let mut h = cx.tables.look(cx.mover, start, forward);
    left -= 1;
    let first = h;
    let mut walked = 0u64;
    while left > 0 && h != NO_HOLE {
        h = cx.tables.look(cx.mover, h, forward);
        left -= 1;
        walked += 1;
        if h == first {
            left %= walked;
        } else if walked > 4 * crate::rules::MAX_POSITIONS as u64 {
            // No table walks this long without coming back: a safeguard, not a rule.
            break;
        }
    }
    h
}

/// The first hole after `start` round the mover's circuit in the context's direction where
/// `c` holds, `hole` bound to each in turn and `start` itself tried last; [`NO_HOLE`] when
/// none does. A circuit visits each site once before it comes back, so the walk ends within
/// a circuit; a start off the circuit (a store, no hole) walks until the circuit repeats.
fn first_after(cx: &Cx<'_>, pos: &Position, start: Pos, c: &Cond, forward: bool) -> Pos {
    if start == NO_HOLE {
        return NO_HOLE;
    }
    let mut at = *cx;
    let mut h = cx.tables.look(cx.mover, start, forward);
    let first = h;
    for _ in 0..crate::rules::MAX_POSITIONS {
        if h == NO_HOLE {
            break;
        }
        at.bound = h;
        if c(&at, pos) {
            return h;
        }
        if h == start {
            break;
        }
        h = cx.tables.look(cx.mover, h, forward);
        if h == first {
            break;
        }
    }
    NO_HOLE
}

/// Builds a closure over the position a hole expression names, with the moment's holes read in
/// place rather than through a closure of their own. `$body` sees the context as `$cx` and the
/// position as `$p`.
macro_rules! on_moment {
    ($self:ident, $h:expr, |$cx:ident, $pos:ident, $p:ident| $body:expr) => {
        match {
            let h: &HoleX = $h;
            h
        } {
            HoleX::Here => Box::new(move |$cx: &Cx<'_>, $pos: &Position| {
                let $p = $cx.here;
                $body
            }),
            HoleX::Last => Box::new(move |$cx: &Cx<'_>, $pos: &Position| {
                let $p = $cx.last;
                $body
            }),
            HoleX::Origin => Box::new(move |$cx: &Cx<'_>, $pos: &Position| {
                let $p = $cx.origin;
                $body
            }),
            HoleX::LapOrigin => Box::new(move |$cx: &Cx<'_>, $pos: &Position| {
                let $p = $cx.lap_origin;
                $body
            }),
            HoleX::Bound => Box::new(move |$cx: &Cx<'_>, $pos: &Position| {
                let $p = $cx.bound;
                $body
            }),
            other => {
                let hole = $self.hole(other);
                Box::new(move |$cx: &Cx<'_>, $pos: &Position| {
                    let $p = hole($cx, $pos);
                    $body
                })
            }
        }
    };
}

/// [`on_moment!`], also reading one step from a moment's hole in place: `opposite(last)`,
/// `next(here)`, `prev(hole)`, `behind(last)`. Deeper expressions go through the hole's own
/// closure.
macro_rules! on_hole {
    ($self:ident, $h:expr, |$cx:ident, $pos:ident, $p:ident| $body:expr) => {{
        let h: &HoleX = $h;
        let g = &$self.rules.geometry;
        match h {
            HoleX::Opposite(base) if is_moment(base) => {
                let table = g.opposite;
                on_moment!($self, base, |$cx, $pos, q| {
                    let $p = at(&table, q);
                    $body
                })
            }
            HoleX::Behind(base) if is_moment(base) => {
                let table = g.behind;
                on_moment!($self, base, |$cx, $pos, q| {
                    let $p = at(&table, q);
                    $body
                })
            }
            HoleX::Next(base) if is_moment(base) => on_moment!($self, base, |$cx, $pos, q| {
                let $p = $cx.tables.look($cx.mover, q, true);
                $body
            }),
            HoleX::Prev(base) if is_moment(base) => on_moment!($self, base, |$cx, $pos, q| {
                let $p = $cx.tables.look($cx.mover, q, false);
                $body
            }),
            other => on_moment!($self, other, |$cx, $pos, $p| $body),
        }
    }};
}

/// Whether a hole expression is one of the moment's holes, read straight from the context.
fn is_moment(h: &HoleX) -> bool {
    matches!(
        h,
        HoleX::Here | HoleX::Last | HoleX::Origin | HoleX::LapOrigin | HoleX::Bound
    )
}

/// Builds a closure comparing a number with a constant, one closure per operator.
macro_rules! against {
    ($op:expr, $k:expr, |$cx:ident, $pos:ident| $value:expr) => {{
        let k: i64 = $k;
        match $op {
            CmpOp::Eq => Box::new(move |$cx: &Cx<'_>, $pos: &Position| $value == k),
            CmpOp::Ne => Box::new(move |$cx: &Cx<'_>, $pos: &Position| $value != k),
            CmpOp::Lt => Box::new(move |$cx: &Cx<'_>, $pos: &Position| $value < k),
            CmpOp::Le => Box::new(move |$cx: &Cx<'_>, $pos: &Position| $value <= k),
            CmpOp::Gt => Box::new(move |$cx: &Cx<'_>, $pos: &Position| $value > k),
            CmpOp::Ge => Box::new(move |$cx: &Cx<'_>, $pos: &Position| $value >= k),
        }
    }};
}

struct Compiler<'r> {
    rules: &'r Rules,
}

/// `a op b` read as `b op' a`.
fn flipped(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Eq,
        CmpOp::Ne => CmpOp::Ne,
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
    }
}

/// `seeds(hole) op k`, read for every hole of a set.
#[derive(Clone, Copy)]
struct SeedTest {
    op: CmpOp,
    k: i64,
}

impl SeedTest {
    /// The holes of `holes` whose seeds pass the test.
    #[inline]
    fn holes(self, pos: &Position, holes: Mask) -> Mask {
        // Empty holes pass or fail together: decided once, from the mask of sown holes.
        let mut passing = if compare(self.op, 0, self.k) {
            holes & !pos.sown()
        } else {
            0
        };
        let mut rest = holes & pos.sown();
        while rest != 0 {
            let h = rest.trailing_zeros() as Pos;
            rest &= rest - 1;
            if compare(self.op, i64::from(pos.seeds(h)), self.k) {
                passing |= 1 << h;
            }
        }
        passing
    }
}

impl Compiler<'_> {
    fn cond(&self, x: &BoolX) -> Cond {
        let g = &self.rules.geometry;
        if let Some(class) = self.hole_class(x) {
            return class;
        }
        match x {
            &BoolX::Const(b) => Box::new(move |_, _| b),
            &BoolX::Var(slot) => {
                let slot = usize::from(slot);
                Box::new(move |_, pos| pos.vars.get(slot).is_some_and(|&v| v != 0))
            }
            BoolX::VarOf(slot, p) => {
                let (slot, who) = (usize::from(*slot), self.who(p));
                Box::new(move |cx, pos| {
                    // Nobody (a neutral hole's owner, a drawn round's winner) has no value.
                    let p = who(cx, pos);
                    let at = slot + usize::from(p);
                    p < cx.rules.geometry.seats && pos.vars.get(at).is_some_and(|&v| v != 0)
                })
            }
            BoolX::Dir(eq, a, b) => {
                let (eq, a, b) = (*eq, self.dir(a), self.dir(b));
                Box::new(move |cx, pos| (a(cx, pos) == b(cx, pos)) == eq)
            }
            BoolX::Not(a) => {
                let a = self.cond(a);
                Box::new(move |cx, pos| !a(cx, pos))
            }
            BoolX::And(..) => self.chain(x, true),
            BoolX::Or(..) => self.chain(x, false),
            BoolX::Int(op, a, b) => match (self.constant(a), self.constant(b)) {
                (_, Some(k)) => self.compare_const(*op, a, k),
                (Some(k), None) => self.compare_const(flipped(*op), b, k),
                (None, None) => {
                    let (op, a, b) = (*op, self.num(a), self.num(b));
                    Box::new(move |cx, pos| compare(op, a(cx, pos), b(cx, pos)))
                }
            },
            BoolX::Player(eq, a, b) => {
                let (eq, a, b) = (*eq, self.who(a), self.who(b));
                Box::new(move |cx, pos| (a(cx, pos) == b(cx, pos)) == eq)
            }
            BoolX::Hole(eq, a, b) => {
                let (eq, a, b) = (*eq, self.hole(a), self.hole(b));
                Box::new(move |cx, pos| (a(cx, pos) == b(cx, pos)) == eq)
            }
            BoolX::In(v, mask) => {
                let (v, mask) = (self.num(v), *mask);
                Box::new(move |cx, pos| {
                    let v = v(cx, pos);
                    (0..128).contains(&v) && mask & (1u128 << v) != 0
                })
            }
            BoolX::Own(h) => on_hole!(self, h, |cx, _pos, p| cx.owner(p) == cx.mover),
            BoolX::IsStore(h) => {
                let stores = g.store_mask;
                on_hole!(self, h, |cx, _pos, p| stores & bit(p) != 0)
            }
            BoolX::InSet(h, set) => {
                let (h, set) = (self.hole(h), self.set(set));
                Box::new(move |cx, pos| {
                    let p = h(cx, pos);
                    set(cx, pos) & bit(p) != 0
                })
            }
            BoolX::Neutral(h) => {
                let neutral = g.neutral_mask();
                on_hole!(self, h, |cx, _pos, p| neutral & bit(p) != 0)
            }
            BoolX::IsClosed(h) => {
                on_hole!(self, h, |cx, pos, p| pos.closed & bit(p) != 0)
            }
            BoolX::Claimed(h) => {
                on_hole!(self, h, |cx, pos, p| p != NO_HOLE
                    && pos.claims.contains(&p))
            }
            BoolX::Holds(quantifier, set, body) => {
                let (set, all) = (self.set(set), *quantifier == Quantifier::All);
                if let Some(test) = self.seed_test(body) {
                    // `seeds(hole) op k` at every hole: no closure per hole.
                    return Box::new(move |cx, pos| {
                        let holes = set(cx, pos);
                        let passing = test.holes(pos, holes);
                        if all { passing == holes } else { passing != 0 }
                    });
                }
                let body = self.cond(body);
                Box::new(move |cx, pos| {
                    let mut at = *cx;
                    let mut rest = set(cx, pos);
                    while rest != 0 {
                        at.bound = rest.trailing_zeros() as Pos;
                        rest &= rest - 1;
                        if body(&at, pos) != all {
                            return !all;
                        }
                    }
                    all
                })
            }
            BoolX::LastSeed => Box::new(|cx, _| cx.last_seed),
            BoolX::FirstMove => Box::new(|cx, pos| pos.moved & (1 << cx.mover) == 0),
            BoolX::ReachedOpponent => Box::new(|cx, _| cx.reached_opponent),
            BoolX::Resowing => Box::new(|cx, _| cx.resowing),
            BoolX::PieceDropped => Box::new(|cx, _| cx.dropped() != NOBODY),
        }
    }

    /// A relay's condition, as a least number of seeds in the hole the next lap lifts when
    /// it says no more than that (`seeds(h) > k`, `seeds(h) >= k` or the flipped forms, where
    /// `h` is that hole).
    fn relay_when(&self, r: &RelayRule) -> RelayWhen {
        let start = match (&r.hole, r.from) {
            (Some(h), _) => h.clone(),
            (None, RelayFrom::Landing) => HoleX::Last,
            (None, RelayFrom::Next) => HoleX::Next(Box::new(HoleX::Last)),
        };
        let compared = match &r.when {
            BoolX::Int(op, IntX::Seeds(h), k) => self.constant(k).map(|k| (*op, h, k)),
            BoolX::Int(op, k, IntX::Seeds(h)) => self.constant(k).map(|k| (flipped(*op), h, k)),
            _ => None,
        };
        let least = match compared {
            Some((CmpOp::Gt, h, k)) if *h == start => k.saturating_add(1),
            Some((CmpOp::Ge, h, k)) if *h == start => k,
            _ => return RelayWhen::When(self.cond(&r.when)),
        };
        // Past u32, no hole holds that many (a hole's seeds are a u16).
        RelayWhen::AtLeast(u32::try_from(least.max(1)).unwrap_or(u32::MAX))
    }

    /// A run of `and` (`all`) or `or` (not `all`) as one closure over its terms. Terms that
    /// only ask what kind of position one hole is are merged into one bit test (see
    /// [`Compiler::hole_class`]) and tried first; conditions have no side effects, so the
    /// order of the terms does not change the result.
    fn chain(&self, x: &BoolX, all: bool) -> Cond {
        fn terms<'x>(x: &'x BoolX, all: bool, out: &mut Vec<&'x BoolX>) {
            match (x, all) {
                (BoolX::And(a, b), true) | (BoolX::Or(a, b), false) => {
                    terms(a, all, out);
                    terms(b, all, out);
                }
                _ => out.push(x),
            }
        }
        let mut list = Vec::new();
        terms(x, all, &mut list);
        // Terms asking whether a given player's row is empty, answered together from the mask
        // of sown positions: `row_seeds(south) == 0 or row_seeds(north) == 0`.
        let rows: Vec<(Mask, bool)> = list.iter().filter_map(|t| self.row_test(t)).collect();
        if rows.len() > 1 {
            list.retain(|t| self.row_test(t).is_none());
        }
        // Terms of one class over the same hole, merged: `own(last) and not is_store(last)`.
        let mut merged: Vec<BoolX> = Vec::new();
        let mut rest: Vec<&BoolX> = Vec::new();
        for term in list {
            let same = |m: &BoolX| class_hole(m).is_some() && class_hole(m) == class_hole(term);
            match merged.iter_mut().find(|m| same(m)) {
                Some(m) if all => *m = BoolX::And(Box::new(m.clone()), Box::new(term.clone())),
                Some(m) => *m = BoolX::Or(Box::new(m.clone()), Box::new(term.clone())),
                None if class_hole(term).is_some() => merged.push(term.clone()),
                None => rest.push(term),
            }
        }
        let mut conds: Vec<Cond> = merged.iter().map(|m| self.cond(m)).collect();
        if let &[(r, e), (q, f)] = rows.as_slice() {
            // Two rows (South's and North's, as endings ask): both tests written out.
            conds.push(if all {
                Box::new(move |_, pos| {
                    let sown = pos.sown();
                    (sown & r == 0) == e && (sown & q == 0) == f
                })
            } else {
                Box::new(move |_, pos| {
                    let sown = pos.sown();
                    (sown & r == 0) == e || (sown & q == 0) == f
                })
            });
        } else if rows.len() > 1 {
            conds.push(Box::new(move |_, pos| {
                let sown = pos.sown();
                let empty = |&(row, empty): &(Mask, bool)| (sown & row == 0) == empty;
                if all {
                    rows.iter().all(empty)
                } else {
                    rows.iter().any(empty)
                }
            }));
        }
        conds.extend(rest.into_iter().map(|t| self.cond(t)));
        match (conds.len(), all) {
            (0 | 1, _) => conds.pop().unwrap_or_else(|| Box::new(move |_, _| all)),
            (2, _) => {
                let (b, a) = (conds.pop(), conds.pop());
                match (a, b) {
                    (Some(a), Some(b)) if all => Box::new(move |cx, pos| a(cx, pos) && b(cx, pos)),
                    (Some(a), Some(b)) => Box::new(move |cx, pos| a(cx, pos) || b(cx, pos)),
                    _ => Box::new(move |_, _| all),
                }
            }
            (3, _) => {
                let (c, b, a) = (conds.pop(), conds.pop(), conds.pop());
                match (a, b, c) {
                    (Some(a), Some(b), Some(c)) if all => {
                        Box::new(move |cx, pos| a(cx, pos) && b(cx, pos) && c(cx, pos))
                    }
                    (Some(a), Some(b), Some(c)) => {
                        Box::new(move |cx, pos| a(cx, pos) || b(cx, pos) || c(cx, pos))
                    }
                    _ => Box::new(move |_, _| all),
                }
            }
            (_, true) => Box::new(move |cx, pos| conds.iter().all(|c| c(cx, pos))),
            (_, false) => Box::new(move |cx, pos| conds.iter().any(|c| c(cx, pos))),
        }
    }

    /// `row_seeds(p) == 0` (or `> 0`) for a fixed player: their row's mask, and whether the
    /// test asks that it be empty.
    fn row_test(&self, x: &BoolX) -> Option<(Mask, bool)> {
        let (op, p, k) = match x {
            BoolX::Int(op, IntX::RowSeeds(PlayerX::Fixed(p)), b) => (*op, *p, self.constant(b)?),
            BoolX::Int(op, a, IntX::RowSeeds(PlayerX::Fixed(p))) => {
                (flipped(*op), *p, self.constant(a)?)
            }
            _ => return None,
        };
        let row = self
            .rules
            .geometry
            .holes_mask
            .get(usize::from(p))
            .copied()?;
        Some((row, emptiness(op, k)?))
    }

    /// A condition that depends only on which position one hole expression names and on who
    /// moves (`own`, `is_store`, `owner(h) == p` and their combinations), tabulated when the
    /// game is set up: one load at play time.
    fn hole_class(&self, x: &BoolX) -> Option<Cond> {
        let h = class_hole(x)?;
        let g = &self.rules.geometry;
        // Per mover, its value at every value a position may take (past the board: its value
        // at no hole), so that any `Pos` indexes it.
        let mut table = Box::new([[false; 256]; MAX_SEATS]);
        for (mover, row) in g.players().zip(table.iter_mut()) {
            let none = class_value(x, g, NO_HOLE, mover)?;
            for (p, value) in (0..=u8::MAX).zip(row.iter_mut()) {
                *value = if usize::from(p) < MAX_POSITIONS {
                    class_value(x, g, p, mover)?
                } else {
                    none
                };
            }
        }
        Some(on_hole!(self, h, |cx, _pos, p| {
            (table.get(usize::from(cx.mover)))
                .is_some_and(|row| row.get(usize::from(p)).copied().unwrap_or(false))
        }))
    }

    /// The value of a number known when the game is set up: a constant, or `holes`.
    fn constant(&self, x: &IntX) -> Option<i64> {
        match *x {
            IntX::Const(k) => Some(k),
            IntX::HolesPerRow => Some(i64::from(self.rules.geometry.holes_per_row)),
            _ => None,
        }
    }

    /// `a op k`, with the commonest numbers read in the comparing closure itself.
    fn compare_const(&self, op: CmpOp, a: &IntX, k: i64) -> Cond {
        if let IntX::RowSeeds(p) = a
            && let Some(empty) = emptiness(op, k)
        {
            return self.row_empty(p, empty);
        }
        match a {
            &IntX::Store(PlayerX::Fixed(p)) => {
                against!(op, k, |cx, pos| i64::from(pos.held(cx.rules, p)))
            }
            IntX::Store(PlayerX::Mover) => {
                against!(op, k, |cx, pos| i64::from(pos.held(cx.rules, cx.mover)))
            }
            IntX::Store(PlayerX::Opponent) => {
                against!(op, k, |cx, pos| i64::from(pos.held(cx.rules, cx.mover ^ 1)))
            }
            IntX::RowSeeds(PlayerX::Mover) => {
                against!(op, k, |cx, pos| i64::from(
                    pos.row_seeds(cx.rules, cx.mover)
                ))
            }
            IntX::RowSeeds(PlayerX::Opponent) => {
                against!(op, k, |cx, pos| i64::from(
                    pos.row_seeds(cx.rules, cx.mover ^ 1)
                ))
            }
            &IntX::RowSeeds(PlayerX::Fixed(p)) => {
                against!(op, k, |cx, pos| i64::from(pos.row_seeds(cx.rules, p)))
            }
            // The hole read in place when it is a moment's hole or one step from it, and the
            // comparison made a range test, with no branch on the operator.
            IntX::Seeds(h) => match within(op, k) {
                Some((low, span, outside)) => on_hole!(self, h, |_cx, pos, p| {
                    (i64::from(pos.seeds(p)).wrapping_sub(low) as u64 <= span) != outside
                }),
                None => Box::new(|_, _| false),
            },
            IntX::Number(h) => match within(op, k) {
                Some((low, span, outside)) => {
                    let numbers = self.rules.geometry.number;
                    on_hole!(self, h, |_cx, _pos, p| {
                        let n = numbers.get(usize::from(p)).map_or(0, |&n| i64::from(n));
                        (n.wrapping_sub(low) as u64 <= span) != outside
                    })
                }
                None => Box::new(|_, _| false),
            },
            a => {
                let a = self.num(a);
                against!(op, k, |cx, pos| a(cx, pos))
            }
        }
    }

    /// `row_seeds(p) == 0` (`empty`) or `row_seeds(p) > 0` (not `empty`), read from the mask
    /// of positions holding seeds. Nobody's row is empty.
    fn row_empty(&self, p: &PlayerX, empty: bool) -> Cond {
        let is_empty = |cx: &Cx<'_>, pos: &Position, p: Player| pos.row_empty(cx.rules, p);
        match p {
            PlayerX::Mover => Box::new(move |cx, pos| is_empty(cx, pos, cx.mover) == empty),
            PlayerX::Opponent => Box::new(move |cx, pos| is_empty(cx, pos, cx.mover ^ 1) == empty),
            &PlayerX::Fixed(q) => Box::new(move |cx, pos| is_empty(cx, pos, q) == empty),
            p => {
                let p = self.who(p);
                Box::new(move |cx, pos| is_empty(cx, pos, p(cx, pos)) == empty)
            }
        }
    }

    fn dir(&self, x: &DirX) -> Way {
        match x {
            DirX::Move => Box::new(|cx, _| crate::rules::dir_value(cx.dir)),
            &DirX::Const(v) => {
                let v = i32::from(v);
                Box::new(move |_, _| v)
            }
            &DirX::Var(slot) => {
                let slot = usize::from(slot);
                Box::new(move |_, pos| pos.vars.get(slot).copied().unwrap_or(0))
            }
            DirX::If(c, a, b) => either(self.cond(c), self.dir(a), self.dir(b)),
            DirX::VarOf(slot, p) => {
                let (slot, who) = (usize::from(*slot), self.who(p));
                Box::new(move |cx, pos| {
                    let p = who(cx, pos);
                    if p >= cx.rules.geometry.seats {
                        return 0;
                    }
                    let at = slot + usize::from(p);
                    pos.vars.get(at).copied().unwrap_or(0)
                })
            }
        }
    }

    fn effect(&self, e: &EffectRule) -> EffectProgram {
        EffectProgram {
            id: e.id,
            when: self.cond(&e.when),
            player: e.player.as_ref().map(|p| self.who(p)),
            sets: e
                .sets
                .iter()
                .map(|(slot, per_player, v)| {
                    let value = match v {
                        VarValue::Number(n) => Value::Number(self.num(n)),
                        VarValue::Flag(c) => Value::Flag(self.cond(c)),
                        VarValue::Dir(d) => Value::Dir(self.dir(d)),
                        VarValue::Mark(h, add) => Value::Mark(self.hole(h), *add),
                    };
                    (usize::from(*slot), *per_player, value)
                })
                .collect(),
        }
    }

    fn num(&self, x: &IntX) -> Num {
        let g = &self.rules.geometry;
        match x {
            &IntX::Const(v) => Box::new(move |_, _| v),
            &IntX::Var(slot) => {
                let slot = usize::from(slot);
                Box::new(move |_, pos| i64::from(pos.vars.get(slot).copied().unwrap_or(0)))
            }
            IntX::VarOf(slot, p) => {
                let (slot, who) = (usize::from(*slot), self.who(p));
                Box::new(move |cx, pos| {
                    let p = who(cx, pos);
                    if p >= cx.rules.geometry.seats {
                        return 0;
                    }
                    let at = slot + usize::from(p);
                    i64::from(pos.vars.get(at).copied().unwrap_or(0))
                })
            }
            IntX::Seeds(h) => on_hole!(self, h, |cx, pos, p| i64::from(pos.seeds(p))),
            IntX::Number(h) => {
                let numbers = g.number;
                on_hole!(self, h, |cx, _pos, p| numbers
                    .get(usize::from(p))
                    .map_or(0, |&n| i64::from(n)))
            }
            IntX::Store(p) => {
                let p = self.who(p);
                Box::new(move |cx, pos| match p(cx, pos) {
                    NOBODY => 0,
                    p => i64::from(pos.held(cx.rules, p)),
                })
            }
            IntX::RowSeeds(p) => {
                let p = self.who(p);
                Box::new(move |cx, pos| match p(cx, pos) {
                    NOBODY => 0,
                    p => i64::from(pos.row_seeds(cx.rules, p)),
                })
            }
            IntX::MaxSeeds(p) => {
                let p = self.who(p);
                Box::new(move |cx, pos| match p(cx, pos) {
                    NOBODY => 0,
                    p => {
                        let g = &cx.rules.geometry;
                        let most = g.holes_of(p).map(|h| pos.seeds(h)).max();
                        i64::from(most.unwrap_or(0))
                    }
                })
            }
            IntX::BoardSeeds => Box::new(|cx, pos| {
                i64::from(pos.row_seeds(cx.rules, 0) + pos.row_seeds(cx.rules, 1))
            }),
            IntX::HolesPerRow => {
                let n = i64::from(g.holes_per_row);
                Box::new(move |_, _| n)
            }
            IntX::MoveCaptures => Box::new(|cx, _| i64::from(cx.move_captures)),
            IntX::Hand => Box::new(|cx, _| i64::from(cx.hand)),
            IntX::Lap => Box::new(|cx, _| i64::from(cx.lap)),
            IntX::Entered => Box::new(|cx, _| i64::from(cx.entered)),
            IntX::TurnSowings => Box::new(|_, pos| i64::from(pos.turn_sowings)),
            IntX::Pieces(h) => {
                let pieces = self.rules.piece_slots();
                on_hole!(self, h, |cx, pos, p| i64::from(pieces.in_hole(pos, p)))
            }
            IntX::PiecesHeld(p) => {
                let p = self.who(p);
                let pieces = self.rules.piece_slots();
                Box::new(move |cx, pos| i64::from(pieces.held_by(pos, p(cx, pos))))
            }
            IntX::LandedOn => Box::new(|cx, pos| {
                // Recorded at the lap's last drop (rules that read it try the drop clauses at
                // every drop), since when captures may have changed the hole; otherwise (a
                // lap that ended elsewhere than a drop) the hole holds what it held and the
                // seed.
                match cx.landed_on() {
                    Some(before) => i64::from(before),
                    None => i64::from(pos.seeds(cx.last).saturating_sub(1)),
                }
            }),
            IntX::Count(set, body) => {
                let set = self.set(set);
                if let Some(test) = self.seed_test(body) {
                    return Box::new(move |cx, pos| {
                        i64::from(test.holes(pos, set(cx, pos)).count_ones())
                    });
                }
                let body = self.cond(body);
                Box::new(move |cx, pos| {
                    let (mut at, mut rest, mut n) = (*cx, set(cx, pos), 0);
                    while rest != 0 {
                        at.bound = rest.trailing_zeros() as Pos;
                        rest &= rest - 1;
                        n += i64::from(body(&at, pos));
                    }
                    n
                })
            }
            IntX::Over(Aggregate::Sum, set, body) if **body == IntX::Seeds(HoleX::Bound) => {
                // The seeds of a set of holes: a sum over the board, no closure per hole.
                let set = self.set(set);
                Box::new(move |cx, pos| {
                    let mut rest = set(cx, pos) & pos.sown();
                    let mut n = 0i64;
                    while rest != 0 {
                        n += i64::from(pos.seeds(rest.trailing_zeros() as Pos));
                        rest &= rest - 1;
                    }
                    n
                })
            }
            IntX::Over(aggregate, set, body) => {
                let (aggregate, set, body) = (*aggregate, self.set(set), self.num(body));
                Box::new(move |cx, pos| {
                    let (mut at, mut rest) = (*cx, set(cx, pos));
                    let mut total: Option<i64> = None;
                    while rest != 0 {
                        at.bound = rest.trailing_zeros() as Pos;
                        rest &= rest - 1;
                        let v = body(&at, pos);
                        total = Some(match (aggregate, total) {
                            (_, None) => v,
                            (Aggregate::Sum, Some(t)) => t.saturating_add(v),
                            (Aggregate::Max, Some(t)) => t.max(v),
                            (Aggregate::Min, Some(t)) => t.min(v),
                        });
                    }
                    total.unwrap_or(0)
                })
            }
            IntX::If(c, a, b) => either(self.cond(c), self.num(a), self.num(b)),
            IntX::Neg(v) => {
                let v = self.num(v);
                Box::new(move |cx, pos| v(cx, pos).saturating_neg())
            }
            IntX::Arith(op, a, b) => {
                let (a, b) = (self.num(a), self.num(b));
                match op {
                    ArithOp::Add => Box::new(move |cx, pos| a(cx, pos).saturating_add(b(cx, pos))),
                    ArithOp::Sub => Box::new(move |cx, pos| a(cx, pos).saturating_sub(b(cx, pos))),
                    ArithOp::Mul => Box::new(move |cx, pos| a(cx, pos).saturating_mul(b(cx, pos))),
                    &op => Box::new(move |cx, pos| arith(op, a(cx, pos), b(cx, pos))),
                }
            }
        }
    }

    /// A set of holes, as a mask of positions for the player it is read for.
    fn set(&self, x: &SetX) -> Holes {
        let g = &self.rules.geometry;
        let per_player = |keep: &dyn Fn(Pos) -> bool| {
            let mut masks = [0 as Mask; MAX_SEATS];
            for (p, mask) in (0u8..).zip(&mut masks) {
                for h in g.holes_of(p) {
                    if keep(h) {
                        *mask |= bit(h);
                    }
                }
            }
            masks
        };
        let n = g.holes_per_row;
        // Four rows: a player's inner row is the one facing the opponent's; three rows: their
        // holes in the middle row. Both are numbered after the player's outer row.
        let two_rows = g.rows >= 3;
        let masks = match x {
            SetX::All => {
                // Every hole of the board: the players' and the neutral ones.
                let all = g.board_holes();
                return Box::new(move |_, _| all);
            }
            &SetX::Named(mask) => return Box::new(move |_, _| mask),
            &SetX::Var(slot) => {
                let at = usize::from(slot);
                return Box::new(move |_, pos| crate::rules::holes_in(&pos.vars, at));
            }
            SetX::VarOf(slot, p) => {
                let (at, who) = (usize::from(*slot), self.who(p));
                return Box::new(move |cx, pos| {
                    let p = who(cx, pos);
                    if p >= cx.rules.geometry.seats {
                        return 0;
                    }
                    let p = usize::from(p);
                    crate::rules::holes_in(&pos.vars, at + crate::rules::HOLES_WIDTH * p)
                });
            }
            SetX::Where(set, body) => {
                let set = self.set(set);
                if let Some(test) = self.seed_test(body) {
                    return Box::new(move |cx, pos| test.holes(pos, set(cx, pos)));
                }
                let body = self.cond(body);
                return Box::new(move |cx, pos| {
                    let (mut at, mut rest, mut kept) = (*cx, set(cx, pos), 0 as Mask);
                    while rest != 0 {
                        at.bound = rest.trailing_zeros() as Pos;
                        rest &= rest - 1;
                        if body(&at, pos) {
                            kept |= 1 << at.bound;
                        }
                    }
                    kept
                });
            }
            SetX::HolesOf(_) => per_player(&|_| true),
            SetX::Inner(_) => per_player(&|h| !two_rows || g.number_of(h) > n),
            SetX::Outer(_) => per_player(&|h| two_rows && g.number_of(h) <= n),
        };
        let who = self.who(x.player().unwrap_or(&PlayerX::Mover));
        Box::new(move |cx, pos| {
            let p = who(cx, pos);
            masks.get(usize::from(p)).copied().unwrap_or(0)
        })
    }

    /// An aggregate's body that only compares the seeds of the bound hole with a number
    /// known when the game is set up (`seeds(hole) > 0`), read for a whole set at once.
    fn seed_test(&self, x: &BoolX) -> Option<SeedTest> {
        let (op, k) = match x {
            BoolX::Int(op, IntX::Seeds(HoleX::Bound), k) => (*op, self.constant(k)?),
            BoolX::Int(op, k, IntX::Seeds(HoleX::Bound)) => (flipped(*op), self.constant(k)?),
            _ => return None,
        };
        Some(SeedTest { op, k })
    }

    fn hole(&self, x: &HoleX) -> Hole {
        let g = &self.rules.geometry;
        match x {
            &HoleX::At(h) => Box::new(move |_, _| h),
            HoleX::Here => Box::new(|cx, _| cx.here),
            HoleX::Last => Box::new(|cx, _| cx.last),
            HoleX::Origin => Box::new(|cx, _| cx.origin),
            HoleX::LapOrigin => Box::new(|cx, _| cx.lap_origin),
            HoleX::Chosen => Box::new(|cx, _| cx.chosen),
            HoleX::Bound => Box::new(|cx, _| cx.bound),
            HoleX::If(c, a, b) => either(self.cond(c), self.hole(a), self.hole(b)),
            HoleX::Next(h) => {
                on_hole!(self, h, |cx, _pos, p| cx.tables.look(cx.mover, p, true))
            }
            HoleX::Prev(h) => {
                on_hole!(self, h, |cx, _pos, p| cx.tables.look(cx.mover, p, false))
            }
            HoleX::Opposite(h) => {
                let opposite = g.opposite;
                on_hole!(self, h, |_cx, _pos, p| at(&opposite, p))
            }
            HoleX::Behind(h) => {
                let behind = g.behind;
                on_hole!(self, h, |_cx, _pos, p| at(&behind, p))
            }
            HoleX::Of(p, n) => {
                let (p, n) = (self.who(p), self.num(n));
                Box::new(move |cx, pos| {
                    let (player, n) = (p(cx, pos), n(cx, pos));
                    if player == NOBODY || n < 1 {
                        return NO_HOLE;
                    }
                    let row = cx.rules.geometry.holes(player);
                    let hole = usize::try_from(n - 1).ok().and_then(|i| row.get(i));
                    hole.copied().unwrap_or(NO_HOLE)
                })
            }
            HoleX::Ahead(h, n) => {
                let (h, n) = (self.hole(h), self.num(n));
                Box::new(move |cx, pos| {
                    let (start, k) = (h(cx, pos), n(cx, pos));
                    ahead(cx, start, k)
                })
            }
            HoleX::FirstAfter(h, c, forward) => {
                let (h, c, forward) = (self.hole(h), self.cond(c), *forward);
                Box::new(move |cx, pos| first_after(cx, pos, h(cx, pos), &c, forward))
            }
            HoleX::Claim(p) => {
                let p = self.who(p);
                Box::new(move |cx, pos| {
                    let claims = &pos.claims;
                    claims
                        .get(usize::from(p(cx, pos)))
                        .copied()
                        .unwrap_or(NO_HOLE)
                })
            }
        }
    }

    fn who(&self, x: &PlayerX) -> Who {
        match x {
            PlayerX::Mover => Box::new(|cx, _| cx.mover),
            PlayerX::Opponent => Box::new(|cx, _| cx.mover ^ 1),
            PlayerX::Starter => Box::new(|cx, _| cx.starter),
            PlayerX::RoundWinner => Box::new(|cx, _| cx.round_winner),
            &PlayerX::Fixed(p) => Box::new(move |_, _| p),
            PlayerX::Owner(h) => on_hole!(self, h, |cx, _pos, p| cx.owner(p)),
            PlayerX::If(c, a, b) => either(self.cond(c), self.who(a), self.who(b)),
        }
    }
}

/// The hole a condition asks about, when all it asks is what kind of position that hole is
/// (see [`Compiler::hole_class`]).
fn class_hole(x: &BoolX) -> Option<&HoleX> {
    match x {
        BoolX::Own(h) | BoolX::IsStore(h) | BoolX::Neutral(h) => Some(h),
        BoolX::Player(_, PlayerX::Owner(h), p) | BoolX::Player(_, p, PlayerX::Owner(h))
            if !matches!(
                p,
                PlayerX::Owner(_) | PlayerX::Starter | PlayerX::RoundWinner
            ) =>
        {
            Some(h)
        }
        BoolX::Not(a) => class_hole(a),
        BoolX::And(a, b) | BoolX::Or(a, b) => {
            let h = class_hole(a)?;
            (class_hole(b)? == h).then_some(h)
        }
        _ => None,
    }
}

/// The value of a condition accepted by [`class_hole`] when its hole is the position `p` and
/// `mover` moves.
fn class_value(x: &BoolX, g: &crate::rules::Geometry, p: Pos, mover: Player) -> Option<bool> {
    let player = |x: &PlayerX| match *x {
        PlayerX::Mover => Some(mover),
        PlayerX::Opponent => Some(mover ^ 1),
        PlayerX::Fixed(q) => Some(q),
        PlayerX::Owner(_) => Some(g.owner_of(p)),
        PlayerX::Starter | PlayerX::RoundWinner | PlayerX::If(..) => None,
    };
    Some(match x {
        BoolX::Own(_) => g.owner_of(p) == mover,
        BoolX::IsStore(_) => g.is_store(p),
        BoolX::Neutral(_) => g.neutral_mask() & crate::rules::bit(p) != 0,
        BoolX::Player(eq, a, b) => (player(a)? == player(b)?) == *eq,
        BoolX::Not(a) => !class_value(a, g, p, mover)?,
        BoolX::And(a, b) => class_value(a, g, p, mover)? && class_value(b, g, p, mover)?,
        BoolX::Or(a, b) => class_value(a, g, p, mover)? || class_value(b, g, p, mover)?,
        _ => return None,
    })
}

/// `v op k` as a range test: `v` within `low..=low + span` (or outside it, when the third
/// value says so), with the difference taken in wrapping arithmetic so that one unsigned
/// comparison tests both ends. None when no `v` passes (`v < i64::MIN`, `v > i64::MAX`).
fn within(op: CmpOp, k: i64) -> Option<(i64, u64, bool)> {
    let (low, high, outside) = match op {
        CmpOp::Eq => (k, k, false),
        CmpOp::Ne => (k, k, true),
        CmpOp::Lt => (i64::MIN, k.checked_sub(1)?, false),
        CmpOp::Le => (i64::MIN, k, false),
        CmpOp::Gt => (k.checked_add(1)?, i64::MAX, false),
        CmpOp::Ge => (k, i64::MAX, false),
    };
    Some((low, high.wrapping_sub(low) as u64, outside))
}

/// Whether `row_seeds(p) op k` asks that the row be empty (`Some(true)`), or that it not be
/// (`Some(false)`): answered at the first sown hole, without summing the row.
fn emptiness(op: CmpOp, k: i64) -> Option<bool> {
    match (op, k) {
        (CmpOp::Eq | CmpOp::Le, 0) | (CmpOp::Lt, 1) => Some(true),
        (CmpOp::Ne | CmpOp::Gt, 0) | (CmpOp::Ge, 1) => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Position, Tables};

    /// Two rows of `holes` holes, a store for each player on the track.
    fn test_board(holes: u8) -> Rules {
        let text = format!(
            "format = 1\nname = \"Test board\"\n\n[board]\nrows = 2\nholes = {holes}\n\
             stores = \"track\"\nseeds = 3\n\n[sowing]\ndirection = \"ccw\"\n\n[end]\n\
             no_move = {{ remaining = \"owners\", result = \"most_seeds\" }}\n"
        );
        crate::check::load(&text, &[])
            .expect("the test board loads")
            .rules
    }

    /// A move's lap-end states keep its captures exactly where a clause read during the move
    /// reads `move_captures`, in any expression of a capture clause (here `sow_after`, which
    /// decides where the next lap starts), and not where only a clause read after the move
    /// does (an extra turn).
    #[test]
    fn lap_end_states_keep_the_captures_a_move_reads() {
        let with = |clause: &str| {
            let text = format!(
                "format = 1\nname = \"Test board\"\n\n[board]\nrows = 2\nholes = 4\nseeds = 2\n\n\
                 [sowing]\ndirection = \"ccw\"\n\n[[capture]]\nname = \"sow again\"\n\
                 at = \"lap_end\"\nwhen = 'own(last) and seeds(opposite(last)) > 0'\n\
                 take = ['opposite(last)']\nto = \"mover\"\nthen = \"sow\"\n{clause}\n\
                 [end]\nno_move = {{ remaining = \"owners\", result = \"most_seeds\" }}\n"
            );
            let rules = crate::check::load(&text, &[])
                .expect("the test board loads")
                .rules;
            Program::new(&rules).track_captures
        };
        assert!(!with(""));
        assert!(with("sow_after = 'if(move_captures > 2, origin, last)'\n"));
        assert!(!with(
            "\n[[extra_turn]]\nname = \"again\"\nwhen = 'move_captures > 0'\n"
        ));
    }

    /// `all_holes` is every hole of the board, neutral ones included; `holes_of` a player's.
    #[test]
    fn all_holes_holds_the_neutral_holes() {
        let text = "format = 1\nname = \"Neutral\"\n\n[board]\nrows = 2\nholes = 3\n\
                    seeds = 2\nneutral = [\"s2\", \"n2\"]\n\n[sowing]\ndirection = \"ccw\"\n\n\
                    [end]\nno_move = { remaining = \"owners\", result = \"most_seeds\" }\n";
        let rules = crate::check::load(text, &[]).expect("loads").rules;
        let tables = Tables::build(&rules, 0, rules.direction);
        let c = Compiler { rules: &rules };
        let pos = Position::empty();
        let cx = Cx::new(&rules, &tables, 0, 0);
        let g = &rules.geometry;
        let all = c.set(&SetX::All)(&cx, &pos);
        let holes = (0..g.positions)
            .filter(|&h| g.is_hole(h))
            .fold(0, |m, h| m | crate::rules::bit(h));
        assert_eq!(all, holes);
        let south = c.set(&SetX::HolesOf(PlayerX::Mover))(&cx, &pos);
        assert_eq!(south.count_ones(), 2);
        assert_eq!(all.count_ones(), 6);
    }

    /// Each comparison with a constant, as a range test, agrees with the comparison itself,
    /// at the ends of the range and around them.
    #[test]
    fn comparisons_as_ranges_keep_their_meaning() {
        let ops = [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ];
        let ks = [
            i64::MIN,
            i64::MIN + 1,
            -3,
            -1,
            0,
            1,
            2,
            7,
            i64::MAX - 1,
            i64::MAX,
        ];
        let mut values: Vec<i64> = ks
            .iter()
            .flat_map(|&k| [k.saturating_sub(1), k, k.saturating_add(1)])
            .collect();
        values.extend([0, 1, 5, 60_000]);
        for op in ops {
            for k in ks {
                for &v in &values {
                    let ranged = within(op, k).is_some_and(|(low, span, outside)| {
                        (v.wrapping_sub(low) as u64 <= span) != outside
                    });
                    assert_eq!(ranged, compare(op, v, k), "{v} {op:?} {k}");
                }
            }
        }
    }

    /// Aggregates over sets, against the same sums and counts made here hole by hole, on a
    /// four-row board (inner and outer rows differ) over many positions, for both movers.
    /// The quick forms (`seeds(hole) op k`, the sum of seeds) are checked against the general
    /// form of the same aggregate (a body the quick forms do not recognise).
    #[test]
    fn aggregates_keep_their_meaning() {
        let text = "format = 1\nname = \"Four\"\n[board]\nrows = 4\nholes = 3\nseeds = 1\n\
            [sowing]\ndirection = \"ccw\"\n[end]\n\
            no_move = { remaining = \"stay\", result = \"draw\" }\n";
        let rules = crate::check::load(text, &[]).expect("loads").rules;
        let g = &rules.geometry;
        let tables = Tables::build(&rules, 0, rules.direction);
        let c = Compiler { rules: &rules };
        let seeds = || IntX::Seeds(HoleX::Bound);
        // `seeds(hole) + 0`: the same number, in a form the quick paths do not take.
        let slow = || IntX::Arith(ArithOp::Add, Box::new(seeds()), Box::new(IntX::Const(0)));
        let sets = [
            SetX::HolesOf(PlayerX::Mover),
            SetX::Inner(PlayerX::Opponent),
            SetX::Outer(PlayerX::Mover),
            SetX::All,
            // `filter(all_holes, seeds(hole) >= 2)`, by the quick seed test and the general
            // path.
            SetX::Where(
                Box::new(SetX::All),
                Box::new(BoolX::Int(CmpOp::Ge, seeds(), IntX::Const(2))),
            ),
            SetX::Where(
                Box::new(SetX::HolesOf(PlayerX::Opponent)),
                Box::new(BoolX::Int(CmpOp::Ge, slow(), IntX::Const(2))),
            ),
        ];
        let members = |set: &SetX, mover: Player, pos: &Position| -> Vec<Pos> {
            (0..g.positions)
                .filter(|&h| !g.is_store(h))
                .filter(|&h| match set {
                    SetX::Where(inner, _) => {
                        let within = match **inner {
                            SetX::All => true,
                            _ => g.owner_of(h) == mover ^ 1,
                        };
                        within && pos.seeds(h) >= 2
                    }
                    SetX::All => true,
                    SetX::HolesOf(_) => g.owner_of(h) == mover,
                    SetX::Inner(_) => g.owner_of(h) == mover ^ 1 && g.number_of(h) > 3,
                    SetX::Outer(_) => g.owner_of(h) == mover && g.number_of(h) <= 3,
                    SetX::Named(mask) => mask & (1 << h) != 0,
                    // Not among the sets tried here: a variable's set is read from the
                    // position (see the sets-of-holes scenarios).
                    SetX::Var(_) | SetX::VarOf(..) => false,
                })
                .collect()
        };
        // Seeds from a small generator: every position some mix of empty and full holes.
        let mut state = 12345u64;
        for _ in 0..200 {
            let mut pos = Position::empty();
            for h in 0..g.positions {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.set(h, ((state >> 33) % 4) as u16);
            }
            for mover in [0, 1] {
                let cx = Cx::new(&rules, &tables, mover, 0);
                for set in &sets {
                    let holes = members(set, mover, &pos);
                    let values: Vec<i64> = holes.iter().map(|&h| i64::from(pos.seeds(h))).collect();
                    let s = || Box::new(set.clone());
                    let num = |x: IntX| c.num(&x)(&cx, &pos);
                    let sum: i64 = values.iter().sum();
                    assert_eq!(num(IntX::Over(Aggregate::Sum, s(), Box::new(seeds()))), sum);
                    assert_eq!(num(IntX::Over(Aggregate::Sum, s(), Box::new(slow()))), sum);
                    let most = values.iter().copied().max().unwrap_or(0);
                    let least = values.iter().copied().min().unwrap_or(0);
                    assert_eq!(num(IntX::Over(Aggregate::Max, s(), Box::new(slow()))), most);
                    assert_eq!(
                        num(IntX::Over(Aggregate::Min, s(), Box::new(slow()))),
                        least
                    );
                    for (op, k) in [
                        (CmpOp::Eq, 0),
                        (CmpOp::Gt, 1),
                        (CmpOp::Le, 2),
                        (CmpOp::Ne, 3),
                    ] {
                        let want = values.iter().filter(|&&v| compare(op, v, k)).count() as i64;
                        let quick = BoolX::Int(op, seeds(), IntX::Const(k));
                        let general = BoolX::Int(op, slow(), IntX::Const(k));
                        for body in [quick, general] {
                            let b = || Box::new(body.clone());
                            assert_eq!(num(IntX::Count(s(), b())), want, "{set:?} {body:?}");
                            let any = c.cond(&BoolX::Holds(Quantifier::Any, s(), b()))(&cx, &pos);
                            let all = c.cond(&BoolX::Holds(Quantifier::All, s(), b()))(&cx, &pos);
                            assert_eq!(any, want > 0, "any {set:?} {body:?}");
                            assert_eq!(all, want == holes.len() as i64, "all {set:?} {body:?}");
                        }
                    }
                }
            }
        }
    }

    /// Row tests answered together (`row_seeds(south) == 0 or row_seeds(north) > 0`, ...)
    /// against each row's seeds, for every combination of empty rows.
    #[test]
    fn fused_row_tests_keep_their_meaning() {
        let rules = test_board(4);
        let g = &rules.geometry;
        let tables = Tables::build(&rules, 0, rules.direction);
        let row = |p: u8, op: CmpOp, k: i64| {
            BoolX::Int(op, IntX::RowSeeds(PlayerX::Fixed(p)), IntX::Const(k))
        };
        let flipped_row = |p: u8, op: CmpOp, k: i64| {
            BoolX::Int(op, IntX::Const(k), IntX::RowSeeds(PlayerX::Fixed(p)))
        };
        let both = |a, b, all: bool| {
            if all {
                BoolX::And(Box::new(a), Box::new(b))
            } else {
                BoolX::Or(Box::new(a), Box::new(b))
            }
        };
        let c = Compiler { rules: &rules };
        for (south_empty, north_empty) in
            [(false, false), (true, false), (false, true), (true, true)]
        {
            let mut pos = Position::empty();
            for h in 0..g.positions {
                let empty = if g.owner_of(h) == 0 {
                    south_empty
                } else {
                    north_empty
                };
                if !g.is_store(h) && !empty {
                    pos.set(h, 2);
                }
            }
            // A store holding seeds never makes a row non-empty.
            for store in g.store.iter().flatten() {
                pos.set(*store, 5);
            }
            let cx = Cx::new(&rules, &tables, 0, 0);
            for all in [true, false] {
                let cases = [
                    (
                        both(row(0, CmpOp::Eq, 0), row(1, CmpOp::Eq, 0), all),
                        [true, true],
                    ),
                    (
                        both(row(0, CmpOp::Gt, 0), row(1, CmpOp::Lt, 1), all),
                        [false, true],
                    ),
                    (
                        both(flipped_row(0, CmpOp::Ge, 0), row(1, CmpOp::Ge, 1), all),
                        [true, false],
                    ),
                ];
                for (x, wants_empty) in cases {
                    let terms = [south_empty == wants_empty[0], north_empty == wants_empty[1]];
                    let expected = if all {
                        terms[0] && terms[1]
                    } else {
                        terms[0] || terms[1]
                    };
                    assert_eq!(
                        c.cond(&x)(&cx, &pos),
                        expected,
                        "{x:?} with south empty {south_empty}, north empty {north_empty}"
                    );
                }
            }
        }
    }

    /// The fused forms (one bit test per hole kind, runs of `and`/`or`) against the meaning of
    /// each term, at every position of the board and at no hole, for both movers.
    #[test]
    fn fused_conditions_keep_their_meaning() {
        let rules = test_board(5);
        let g = &rules.geometry;
        assert_ne!(g.store_mask, 0, "the test board has stores on the track");
        let tables = Tables::build(&rules, 0, rules.direction);
        let mut pos = Position::empty();
        // Seeds in the odd positions, so that `seeds(last) == 0` varies too.
        for h in (1..g.positions).step_by(2) {
            pos.set(h, 3);
        }
        let last = || HoleX::Last;
        let own = || BoolX::Own(last());
        let store = || BoolX::IsStore(last());
        let empty = || BoolX::Int(CmpOp::Eq, IntX::Seeds(last()), IntX::Const(0));
        let not = |x| BoolX::Not(Box::new(x));
        let and = |a, b| BoolX::And(Box::new(a), Box::new(b));
        let or = |a, b| BoolX::Or(Box::new(a), Box::new(b));
        let owned_by = |p| BoolX::Player(true, PlayerX::Owner(Box::new(last())), p);
        type Meaning = fn(bool, bool, bool, bool) -> bool;
        // (condition, its meaning from: the mover owns it, it is a store, the opponent owns
        // it, it is empty)
        let cases: Vec<(BoolX, Meaning)> = vec![
            (own(), |own, _, _, _| own),
            (not(own()), |own, _, _, _| !own),
            (and(own(), not(store())), |own, store, _, _| own && !store),
            (and(store(), own()), |own, store, _, _| store && own),
            (or(store(), not(own())), |own, store, _, _| store || !own),
            (owned_by(PlayerX::Opponent), |_, _, theirs, _| theirs),
            (
                and(and(own(), empty()), not(store())),
                |own, store, _, empty| own && empty && !store,
            ),
            (or(or(empty(), own()), store()), |own, store, _, empty| {
                empty || own || store
            }),
            (
                and(and(and(own(), empty()), not(store())), empty()),
                |own, store, _, empty| own && empty && !store,
            ),
        ];
        let c = Compiler { rules: &rules };
        for (x, meaning) in &cases {
            let cond = c.cond(x);
            for mover in 0..2u8 {
                for p in (0..g.positions).chain([NO_HOLE]) {
                    let mut cx = Cx::new(&rules, &tables, mover, 0);
                    cx.last = p;
                    let expected = meaning(
                        g.owner_of(p) == mover,
                        g.is_store(p),
                        g.owner_of(p) == mover ^ 1,
                        pos.seeds(p) == 0,
                    );
                    assert_eq!(cond(&cx, &pos), expected, "{x:?} at {p} for mover {mover}");
                }
            }
        }
    }
}

//! What an expression reads at one moment of play, and the arithmetic it uses.

use super::Tables;
use crate::rules::{ArithOp, BoolX, CmpOp, Dir, HoleX, IntX, NO_HOLE, Player, PlayerX, Pos, Rules};

/// Everything an expression can read at one moment, beside the position (which compiled
/// expressions take as a second argument). A move keeps one context and moves it from moment
/// to moment ([`Cx::at`]) rather than building one for each clause it tries.
#[derive(Clone, Copy)]
pub struct Cx<'a> {
    pub rules: &'a Rules,
    pub tables: &'a Tables,
    pub mover: Player,
    pub starter: Player,
    /// The direction of the move (`direction` in legality clauses).
    pub dir: Dir,
    pub here: Pos,
    pub last: Pos,
    pub origin: Pos,
    pub lap_origin: Pos,
    pub bound: Pos,
    /// The hole the mover chose for a capture clause with `choose`.
    pub chosen: Pos,
    pub last_seed: bool,
    pub move_captures: u32,
    /// In a skip clause: the seeds in hand, the one about to be sown included.
    pub hand: u16,
    /// The lap being sown (1 for the move's first), or the move's last after it.
    pub lap: u32,
    /// Whether that lap sows captured seeds again.
    pub resowing: bool,
    /// The seeds the move entered from what the mover holds (0: sown from a hole).
    pub entered: u16,
    pub reached_opponent: bool,
    /// In round-end effects: the round's winner ([`crate::rules::NOBODY`] for a draw).
    pub round_winner: Player,
    /// The move's work so far (see [`crate::rules::MAX_STEPS_PER_MOVE`]).
    pub steps: u64,
    /// Facts of the drops, in one word so that a context starts with one store more, not
    /// four (contexts are made several times a ply): the piece just dropped (bits 56 to 63;
    /// [`crate::rules::NOBODY`] for a seed), and, for `landed_on`, the lap whose last drop a
    /// drop clause was tried at (bits 0 to 31), its hole (32 to 39) and the seeds that hole held
    /// just before that drop (40 to 55).
    drops: u64,
}

impl<'a> Cx<'a> {
    /// A context with no hole facts, for legality and ending conditions.
    pub fn new(rules: &'a Rules, tables: &'a Tables, mover: Player, starter: Player) -> Self {
        Cx {
            rules,
            tables,
            mover,
            starter,
            dir: rules.direction,
            here: NO_HOLE,
            last: NO_HOLE,
            origin: NO_HOLE,
            lap_origin: NO_HOLE,
            bound: NO_HOLE,
            chosen: NO_HOLE,
            last_seed: false,
            move_captures: 0,
            hand: 0,
            lap: 0,
            resowing: false,
            entered: 0,
            reached_opponent: false,
            round_winner: crate::rules::NOBODY,
            steps: 0,
            drops: u64::from(crate::rules::NOBODY) << 56,
        }
    }

    /// Moves the context to a moment of the move: the hole it stands at, where the last seed
    /// fell, where the lap began, and whether the seed just dropped was the last in hand.
    #[inline(always)]
    pub fn at(&mut self, here: Pos, last: Pos, lap_origin: Pos, last_seed: bool) {
        self.here = here;
        self.last = last;
        self.lap_origin = lap_origin;
        self.last_seed = last_seed;
    }

    /// What `read` finds with `hole` naming `h` (a hole taken or lifted); `hole` then names
    /// again what it named before.
    #[inline(always)]
    pub fn with_hole<R>(&mut self, h: Pos, read: impl FnOnce(&Self) -> R) -> R {
        let bound = std::mem::replace(&mut self.bound, h);
        let found = read(self);
        self.bound = bound;
        found
    }

    /// The piece just dropped (by its first owner), or [`crate::rules::NOBODY`] for a seed.
    #[inline]
    pub fn dropped(&self) -> Player {
        (self.drops >> 56) as Player
    }

    /// Notes the piece just dropped (or [`crate::rules::NOBODY`]).
    #[inline]
    pub fn set_dropped(&mut self, piece: Player) {
        self.drops = self.drops & !(0xff << 56) | u64::from(piece) << 56;
    }

    /// Notes that the last drop of lap `lap` fell into `at`, which held `before` just before.
    #[inline]
    pub fn set_landing(&mut self, lap: u32, at: Pos, before: u16) {
        let landing = u64::from(lap) | u64::from(at) << 32 | u64::from(before) << 40;
        self.drops = self.drops & (0xff << 56) | landing;
    }

    /// What the hole of this lap's last drop held just before it, where a drop clause was
    /// tried there (it may have taken seeds since); `None` otherwise.
    #[inline]
    pub fn landed_on(&self) -> Option<u16> {
        let (lap, at) = (self.drops as u32, (self.drops >> 32) as Pos);
        (lap == self.lap && at == self.last && at != NO_HOLE).then_some((self.drops >> 40) as u16)
    }

    #[inline]
    pub fn owner(&self, h: Pos) -> Player {
        self.rules.geometry.owner_of(h)
    }
}

/// Saturating arithmetic; division and remainder by zero give 0.
///
/// The one quotient that does not fit, `i64::MIN / -1`, saturates to `i64::MAX` like every
/// other overflow; its remainder is 0, as it is mathematically.
pub fn arith(op: ArithOp, a: i64, b: i64) -> i64 {
    match op {
        ArithOp::Add => a.saturating_add(b),
        ArithOp::Sub => a.saturating_sub(b),
        ArithOp::Mul => a.saturating_mul(b),
        ArithOp::Div if b == 0 => 0,
        ArithOp::Div => a.saturating_div(b),
        ArithOp::Rem => a.checked_rem(b).unwrap_or(0),
    }
}

pub fn compare(op: CmpOp, a: i64, b: i64) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

/// Whether a condition reads a hole fact of the moment (`here`, `last`, `origin`, ...), so that
/// its value can differ from one hole played to another. (Read of legality clauses' `when`,
/// where `hole` can only be an aggregate's own hole, which walks its set whatever the hole
/// played: it is no fact of the moment.)
pub fn reads_hole(x: &BoolX) -> bool {
    fn hole(x: &HoleX) -> bool {
        match x {
            HoleX::Bound | HoleX::At(_) => false,
            HoleX::Here | HoleX::Last | HoleX::Origin | HoleX::LapOrigin | HoleX::Chosen => true,
            HoleX::Next(h) | HoleX::Prev(h) | HoleX::Opposite(h) | HoleX::Behind(h) => hole(h),
            HoleX::Of(p, n) => player(p) || int(n),
            HoleX::Ahead(h, n) => hole(h) || int(n),
            HoleX::FirstAfter(h, c, _) => hole(h) || reads_hole(c),
            HoleX::Claim(p) => player(p),
            HoleX::If(c, a, b) => reads_hole(c) || hole(a) || hole(b),
        }
    }
    fn player(x: &PlayerX) -> bool {
        match x {
            PlayerX::Owner(h) => hole(h),
            PlayerX::If(c, a, b) => reads_hole(c) || player(a) || player(b),
            PlayerX::Mover
            | PlayerX::Opponent
            | PlayerX::Starter
            | PlayerX::RoundWinner
            | PlayerX::Fixed(_) => false,
        }
    }
    fn int(x: &IntX) -> bool {
        match x {
            IntX::Seeds(h) | IntX::Number(h) | IntX::Pieces(h) => hole(h),
            IntX::Store(p) | IntX::RowSeeds(p) | IntX::MaxSeeds(p) | IntX::PiecesHeld(p) => {
                player(p)
            }
            IntX::Neg(a) => int(a),
            IntX::Arith(_, a, b) => int(a) || int(b),
            IntX::VarOf(_, p) => player(p),
            IntX::Over(_, set, body) => set.player().is_some_and(player) || int(body),
            IntX::Count(set, body) => set.player().is_some_and(player) || reads_hole(body),
            IntX::If(c, a, b) => reads_hole(c) || int(a) || int(b),
            IntX::Const(_)
            | IntX::BoardSeeds
            | IntX::HolesPerRow
            | IntX::MoveCaptures
            | IntX::TurnSowings
            | IntX::Hand
            | IntX::Lap
            | IntX::LandedOn
            // The same for every hole of a listing (0 for sowings; entries are tried apart).
            | IntX::Entered
            | IntX::Var(_) => false,
        }
    }
    // A listing of the legal moves is made for one direction at a time, so the move's
    // direction is fixed across its holes, as the variables are.
    fn dir(x: &crate::rules::DirX) -> bool {
        match x {
            crate::rules::DirX::VarOf(_, p) => player(p),
            crate::rules::DirX::If(c, a, b) => reads_hole(c) || dir(a) || dir(b),
            crate::rules::DirX::Move
            | crate::rules::DirX::Const(_)
            | crate::rules::DirX::Var(_) => false,
        }
    }
    match x {
        BoolX::Const(_) | BoolX::FirstMove => false,
        // Moment facts: constant outside a move, but count them as varying to be safe.
        BoolX::LastSeed | BoolX::ReachedOpponent | BoolX::Resowing | BoolX::PieceDropped => true,
        BoolX::Not(a) => reads_hole(a),
        BoolX::And(a, b) | BoolX::Or(a, b) => reads_hole(a) || reads_hole(b),
        BoolX::Int(_, a, b) => int(a) || int(b),
        BoolX::Player(_, a, b) => player(a) || player(b),
        BoolX::Hole(_, a, b) => hole(a) || hole(b),
        BoolX::In(v, _) => int(v),
        BoolX::Own(h)
        | BoolX::IsStore(h)
        | BoolX::Neutral(h)
        | BoolX::IsClosed(h)
        | BoolX::Claimed(h) => hole(h),
        BoolX::Var(_) => false,
        BoolX::VarOf(_, p) => player(p),
        BoolX::Dir(_, a, b) => dir(a) || dir(b),
        BoolX::Holds(_, set, body) => set.player().is_some_and(player) || reads_hole(body),
        BoolX::InSet(h, set) => hole(h) || set.player().is_some_and(player),
    }
}

/// Whether a condition holds only on a player's first move: `first_move`, or an `and` with it.
pub fn first_move_only(x: &BoolX) -> bool {
    match x {
        BoolX::FirstMove => true,
        BoolX::And(a, b) => first_move_only(a) || first_move_only(b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::arith;
    use crate::rules::ArithOp;

    /// A legality clause's `when` that reads the holes of a set, but no fact of the hole
    /// played, is tried once for all holes; one that reads `origin`, inside an aggregate or
    /// not, is tried per hole.
    #[test]
    fn aggregates_read_no_hole_of_the_moment_unless_their_body_does() {
        let when = |text: &str| {
            let ruleset = format!(
                "format = 1\nname = \"T\"\n[board]\nrows = 2\nholes = 4\nseeds = 2\n\
                 [sowing]\ndirection = \"ccw\"\n[[legal]]\nname = \"l\"\nwhen = '{text}'\n\
                 require = 'seeds(origin) > 0'\n[end]\n\
                 no_move = {{ remaining = \"stay\", result = \"draw\" }}\n"
            );
            let rules = crate::check::load(&ruleset, &[]).expect("loads").rules;
            super::reads_hole(&rules.legal[0].when)
        };
        assert!(!when("count(holes_of(mover), seeds(hole) == 0) > 1"));
        assert!(!when("any(all_holes, seeds(hole) > 3)"));
        assert!(when(
            "count(holes_of(mover), seeds(hole) > seeds(origin)) > 1"
        ));
        assert!(when("seeds(origin) > 1"));
    }

    /// The README promises saturating arithmetic and `x / 0 == 0`; the quotient that
    /// overflows saturates too rather than falling back to 0.
    #[test]
    fn division_saturates() {
        assert_eq!(arith(ArithOp::Div, i64::MIN, -1), i64::MAX);
        assert_eq!(arith(ArithOp::Rem, i64::MIN, -1), 0);
        assert_eq!(arith(ArithOp::Div, 7, 0), 0);
        assert_eq!(arith(ArithOp::Rem, 7, 0), 0);
        assert_eq!(arith(ArithOp::Div, -7, 2), -3);
        assert_eq!(arith(ArithOp::Div, i64::MIN, 1), i64::MIN);
    }
}

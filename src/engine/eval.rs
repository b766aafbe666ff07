//! Evaluation of compiled expressions against a position.

use super::{Position, Tables};
use crate::rules::{
    ArithOp, BoolX, CmpOp, HoleX, IntX, NO_HOLE, NOBODY, Player, PlayerX, Pos, Rules,
};

/// Everything an expression can read at one moment.
#[derive(Clone, Copy)]
pub struct Cx<'a> {
    pub rules: &'a Rules,
    pub pos: &'a Position,
    pub tables: &'a Tables,
    pub mover: Player,
    pub starter: Player,
    pub here: Pos,
    pub last: Pos,
    pub origin: Pos,
    pub lap_origin: Pos,
    pub bound: Pos,
    pub last_seed: bool,
    pub move_captures: u32,
    pub reached_opponent: bool,
}

impl<'a> Cx<'a> {
    /// A context with no hole facts, for legality and ending conditions.
    pub fn new(
        rules: &'a Rules,
        pos: &'a Position,
        tables: &'a Tables,
        mover: Player,
        starter: Player,
    ) -> Self {
        Cx {
            rules,
            pos,
            tables,
            mover,
            starter,
            here: NO_HOLE,
            last: NO_HOLE,
            origin: NO_HOLE,
            lap_origin: NO_HOLE,
            bound: NO_HOLE,
            last_seed: false,
            move_captures: 0,
            reached_opponent: false,
        }
    }

    pub fn owner(&self, h: Pos) -> Player {
        if h == NO_HOLE {
            NOBODY
        } else {
            self.rules.geometry.owner[h as usize]
        }
    }

    pub fn seeds(&self, h: Pos) -> u16 {
        if h == NO_HOLE {
            0
        } else {
            self.pos.board[h as usize]
        }
    }

    pub fn hole(&self, x: &HoleX) -> Pos {
        match x {
            HoleX::Here => self.here,
            HoleX::Last => self.last,
            HoleX::Origin => self.origin,
            HoleX::LapOrigin => self.lap_origin,
            HoleX::Bound => self.bound,
            HoleX::Next(h) => self.tables.look(self.rules, self.mover, self.hole(h), true),
            HoleX::Prev(h) => self
                .tables
                .look(self.rules, self.mover, self.hole(h), false),
            HoleX::Opposite(h) => match self.hole(h) {
                NO_HOLE => NO_HOLE,
                p => self.rules.geometry.opposite[p as usize],
            },
            HoleX::Behind(h) => match self.hole(h) {
                NO_HOLE => NO_HOLE,
                p => self.rules.geometry.behind[p as usize],
            },
            HoleX::Of(p, n) => {
                let player = self.player(p);
                let n = self.int(n);
                let g = &self.rules.geometry;
                if player == NOBODY || n < 1 || n > i64::from(g.holes_per_player) {
                    NO_HOLE
                } else {
                    g.hole_of[player as usize][(n - 1) as usize]
                }
            }
            HoleX::Claim(p) => match self.player(p) {
                NOBODY => NO_HOLE,
                p => self.pos.claims[p as usize],
            },
        }
    }

    pub fn player(&self, x: &PlayerX) -> Player {
        match x {
            PlayerX::Mover => self.mover,
            PlayerX::Opponent => 1 - self.mover,
            PlayerX::Starter => self.starter,
            PlayerX::Fixed(p) => *p,
            PlayerX::Owner(h) => self.owner(self.hole(h)),
        }
    }

    pub fn int(&self, x: &IntX) -> i64 {
        match x {
            IntX::Const(v) => *v,
            IntX::Seeds(h) => i64::from(self.seeds(self.hole(h))),
            IntX::Number(h) => match self.hole(h) {
                NO_HOLE => 0,
                p => i64::from(self.rules.geometry.number[p as usize]),
            },
            IntX::Store(p) => match self.player(p) {
                NOBODY => 0,
                p => i64::from(self.pos.held(self.rules, p)),
            },
            IntX::RowSeeds(p) => match self.player(p) {
                NOBODY => 0,
                p => i64::from(self.pos.row_seeds(self.rules, p)),
            },
            IntX::MaxSeeds(p) => match self.player(p) {
                NOBODY => 0,
                p => {
                    let g = &self.rules.geometry;
                    let most = g.holes_of(p).map(|h| self.pos.board[h as usize]).max();
                    i64::from(most.unwrap_or(0))
                }
            },
            IntX::BoardSeeds => {
                i64::from(self.pos.row_seeds(self.rules, 0) + self.pos.row_seeds(self.rules, 1))
            }
            IntX::HolesPerRow => i64::from(self.rules.geometry.holes_per_row),
            IntX::MoveCaptures => i64::from(self.move_captures),
            IntX::TurnSowings => i64::from(self.pos.turn_sowings),
            IntX::Neg(v) => self.int(v).saturating_neg(),
            IntX::Arith(op, a, b) => arith(*op, self.int(a), self.int(b)),
        }
    }

    pub fn bool(&self, x: &BoolX) -> bool {
        match x {
            BoolX::Const(b) => *b,
            BoolX::Not(b) => !self.bool(b),
            BoolX::And(a, b) => self.bool(a) && self.bool(b),
            BoolX::Or(a, b) => self.bool(a) || self.bool(b),
            BoolX::Int(op, a, b) => compare(*op, self.int(a), self.int(b)),
            BoolX::Player(eq, a, b) => (self.player(a) == self.player(b)) == *eq,
            BoolX::Hole(eq, a, b) => (self.hole(a) == self.hole(b)) == *eq,
            BoolX::In(v, mask) => {
                let v = self.int(v);
                (0..128).contains(&v) && mask & (1u128 << v) != 0
            }
            BoolX::Own(h) => self.owner(self.hole(h)) == self.mover,
            BoolX::IsStore(h) => match self.hole(h) {
                NO_HOLE => false,
                p => self.rules.geometry.store_mask & (1 << p) != 0,
            },
            BoolX::IsClosed(h) => match self.hole(h) {
                NO_HOLE => false,
                p => self.pos.closed & (1 << p) != 0,
            },
            BoolX::Claimed(h) => match self.hole(h) {
                NO_HOLE => false,
                p => self.pos.claims.contains(&p),
            },
            BoolX::LastSeed => self.last_seed,
            BoolX::FirstMove => self.pos.moved & (1 << self.mover) == 0,
            BoolX::ReachedOpponent => self.reached_opponent,
        }
    }
}

/// Saturating arithmetic; division and remainder by zero give 0.
pub fn arith(op: ArithOp, a: i64, b: i64) -> i64 {
    match op {
        ArithOp::Add => a.saturating_add(b),
        ArithOp::Sub => a.saturating_sub(b),
        ArithOp::Mul => a.saturating_mul(b),
        ArithOp::Div => a.checked_div(b).unwrap_or(0),
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
/// its value can differ from one hole played to another.
pub fn reads_hole(x: &BoolX) -> bool {
    fn hole(x: &HoleX) -> bool {
        match x {
            HoleX::Here | HoleX::Last | HoleX::Origin | HoleX::LapOrigin | HoleX::Bound => true,
            HoleX::Next(h) | HoleX::Prev(h) | HoleX::Opposite(h) | HoleX::Behind(h) => hole(h),
            HoleX::Of(p, n) => player(p) || int(n),
            HoleX::Claim(p) => player(p),
        }
    }
    fn player(x: &PlayerX) -> bool {
        match x {
            PlayerX::Owner(h) => hole(h),
            PlayerX::Mover | PlayerX::Opponent | PlayerX::Starter | PlayerX::Fixed(_) => false,
        }
    }
    fn int(x: &IntX) -> bool {
        match x {
            IntX::Seeds(h) | IntX::Number(h) => hole(h),
            IntX::Store(p) | IntX::RowSeeds(p) | IntX::MaxSeeds(p) => player(p),
            IntX::Neg(a) => int(a),
            IntX::Arith(_, a, b) => int(a) || int(b),
            IntX::Const(_)
            | IntX::BoardSeeds
            | IntX::HolesPerRow
            | IntX::MoveCaptures
            | IntX::TurnSowings => false,
        }
    }
    match x {
        BoolX::Const(_) | BoolX::FirstMove => false,
        // Moment facts: constant outside a move, but count them as varying to be safe.
        BoolX::LastSeed | BoolX::ReachedOpponent => true,
        BoolX::Not(a) => reads_hole(a),
        BoolX::And(a, b) | BoolX::Or(a, b) => reads_hole(a) || reads_hole(b),
        BoolX::Int(_, a, b) => int(a) || int(b),
        BoolX::Player(_, a, b) => player(a) || player(b),
        BoolX::Hole(_, a, b) => hole(a) || hole(b),
        BoolX::In(v, _) => int(v),
        BoolX::Own(h) | BoolX::IsStore(h) | BoolX::IsClosed(h) | BoolX::Claimed(h) => hole(h),
    }
}

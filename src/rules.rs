//! Checked and compiled rules: what the engine executes.
//!
//! Everything here is resolved: option values are folded in, names are bound to typed nodes,
//! the board's neighbour tables are precomputed. The engine never sees text.

use std::collections::BTreeMap;

use crate::ruleset::{
    After, ClosedHoles, Destination, FirstSeed, NextStarter, Remaining, RowEnd, SkipOrigin, Verdict,
};

/// The most positions (holes and stores) a board may have: a [`Mask`] has a bit for each.
pub const MAX_POSITIONS: usize = 128;
/// The most holes a board may have (two positions are kept for stores).
pub const MAX_HOLES: usize = 126;
/// A set of positions, one bit a position (bit `p` for position `p`). Every set of holes the
/// engine keeps (closed holes, a player's holes, legal moves, sets declared by the ruleset,
/// variables of kind `holes`) is one, so a position stays `Copy` and a set costs two words.
pub type Mask = u128;
/// `h & POS_BITS` is `h` for every position on the board (fewer than [`MAX_POSITIONS`], a power
/// of two): the hottest loops mask a position with it so that the compiler drops their bounds
/// checks.
pub const POS_BITS: Pos = const {
    assert!(MAX_POSITIONS.is_power_of_two() && MAX_POSITIONS <= Mask::BITS as usize);
    (MAX_POSITIONS - 1) as Pos
};
/// The most seeds a board may hold: every count fits a hole's `u16`.
pub const MAX_SEEDS: u32 = 60_000;
/// The most seeds on a board whose `[entry]` lets the mover choose how many to enter: the list
/// of legal moves keeps the sizes that may be entered as a 64-bit mask.
pub const MAX_ENTRY_CHOICES: u32 = 64;

/// The most laps one move may take. A move this long whose lap-end state has not yet repeated is
/// stopped there and treated as endless, and the trace says that the limit, not a repeat,
/// stopped it. (Exact detection needs up to about twice the lap where the repeat closes; some
/// rulesets have repeats billions of laps long.)
pub const MAX_LAPS_PER_MOVE: u32 = 1_000_000;
/// The most work one move may take, in steps: a seed sown is one step, a drop clause tried is
/// as many steps as its condition has terms. A move this long is stopped with no result (the
/// engine's safety limit, like [`MAX_LAPS_PER_MOVE`]), so that every ply ends in bounded
/// work whatever the board's seeds and the ruleset's clauses (about a second of play).
pub const MAX_STEPS_PER_MOVE: u64 = 1_000_000_000;
/// The most plies one game (or match) may take: the engine's safety limit, not a rule.
/// Reaching it stops play with no result (`Status::Stopped`), and the trace says that the
/// limit stopped it.
pub const MAX_PLIES: u32 = 100_000;
/// The most rounds of a match that may end one after another with no move made in them: rounds in
/// which nobody can move are decided by their start, and a start that repeats ends the match
/// (see the engine's idle rounds), but effects that count rounds can keep every start new.
/// Reaching it stops play with no result.
pub const MAX_IDLE_ROUNDS: u32 = 10_000;

/// The most layouts of the holes' owners a match of `[rounds] win_holes` may meet (a position
/// names its layout by a byte). Meeting one more stops play with no result.
pub const MAX_LAYOUTS: usize = 256;

/// The most positions one search of `[end] no_capture_reachable` may visit. A search that
/// would visit more gives no verdict, and play goes on.
pub const MAX_REACHED: usize = 1 << 16;

/// The most players a game may have.
pub const MAX_SEATS: usize = 6;

/// A board position: a hole or a store on the track.
pub type Pos = u8;
/// "No such hole" (the opposite of a store, a hole number out of range). Holds no seeds and
/// belongs to nobody.
pub const NO_HOLE: Pos = u8::MAX;

/// A direction of sowing, as the engine sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Counter-clockwise: s1 → sN → n1 → nN.
    Ccw = 0,
    /// Clockwise.
    Cw = 1,
}

impl Dir {
    /// Both directions, in the order moves are listed.
    pub const BOTH: [Dir; 2] = [Dir::Ccw, Dir::Cw];

    /// The index of the direction's tables.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other direction.
    pub fn reversed(self) -> Dir {
        match self {
            Dir::Ccw => Dir::Cw,
            Dir::Cw => Dir::Ccw,
        }
    }

    /// The word the notation writes.
    pub fn word(self) -> &'static str {
        match self {
            Dir::Ccw => "ccw",
            Dir::Cw => "cw",
        }
    }
}

/// A player index (a seat at the board), in turn order: 0 = South and 1 = North unless the
/// ruleset names its players.
pub type Player = u8;
/// "Nobody": the owner of [`NO_HOLE`] (past every seat).
pub const NOBODY: Player = MAX_SEATS as Player;

/// Board geometry and neighbour tables.
///
/// A position's *home* is the row (or, on four rows, the half of the board) its label comes
/// from: `s` or `n`, numbered from that home's left. Its *owner* is the seat whose hole it is.
/// Without an owners table the two are the same (South owns the `s` holes); an owners table
/// gives any seat any holes, so a label never changes when a hole changes hands.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Rows of holes: 2 or 4, or 1 for a ring (one circle of holes, labelled `r1..rN`).
    pub rows: u8,
    /// Holes in each row (on a ring, on the ring).
    pub holes_per_row: u8,
    /// Holes in each home (a row, on four rows two, on a ring the whole ring).
    pub holes_per_player: u8,
    /// Positions in use (holes plus stores on the track).
    pub positions: u8,
    /// Players (seats), 2 to [`MAX_SEATS`].
    pub seats: u8,
    /// Each player's store on the track, if the board has them.
    pub store: [Option<Pos>; MAX_SEATS],
    /// Owner of each position.
    pub owner: [Player; MAX_POSITIONS],
    /// Home of each position (0 = `s`, 1 = `n`), for its label.
    pub home: [u8; MAX_POSITIONS],
    /// Each hole's number in its home's numbering (1-based), for its label; 0 for stores.
    pub number: [u8; MAX_POSITIONS],
    /// Each hole's number in its owner's numbering (1-based); 0 for stores.
    pub seat_number: [u8; MAX_POSITIONS],
    /// `hole_of[home][number - 1]` = position: the labels' numbering.
    pub hole_of: [[Pos; MAX_POSITIONS]; 2],
    /// `seat_hole[player][number - 1]` = position: each player's holes in their own numbering.
    pub seat_hole: [[Pos; MAX_POSITIONS]; MAX_SEATS],
    /// How many holes each player owns.
    pub seat_holes: [u8; MAX_SEATS],
    /// The hole across the board (inner rows only on four-row boards).
    pub opposite: [Pos; MAX_POSITIONS],
    /// On four-row boards, the outer hole behind an inner one (and back).
    pub behind: [Pos; MAX_POSITIONS],
    /// Each player's sowing circuit, counter-clockwise: the successor of each position.
    pub ccw: [[Pos; MAX_POSITIONS]; MAX_SEATS],
    /// The same circuits clockwise.
    pub cw: [[Pos; MAX_POSITIONS]; MAX_SEATS],
    /// Mask of store positions.
    pub store_mask: Mask,
    /// Mask of each player's holes.
    pub holes_mask: [Mask; MAX_SEATS],
}

impl Geometry {
    /// The label of a position as written in moves and traces: `s3`, `n7`, `S*` (South's store).
    pub fn label(&self, pos: Pos) -> String {
        if usize::from(pos) >= MAX_POSITIONS {
            return "none".into();
        }
        let side = match self.home.get(usize::from(pos)) {
            Some(0) if self.rows == 1 => 'r',
            Some(0) => 's',
            _ => 'n',
        };
        if self.is_store(pos) {
            return format!("{}*", side.to_ascii_uppercase());
        }
        format!(
            "{side}{}",
            self.number.get(usize::from(pos)).copied().unwrap_or(0)
        )
    }

    /// The site (hole or store) a label names, as [`Geometry::label`] writes it, ignoring case.
    pub fn site_labelled(&self, label: &str) -> Option<Pos> {
        (0..self.positions).find(|&h| self.label(h).eq_ignore_ascii_case(label))
    }

    /// The board's holes as hints name them: `r1 to r9` on a ring, `s1 to s6 and n1 to n6`.
    pub fn labels_range(&self) -> String {
        let n = self.holes_per_player;
        if self.rows == 1 {
            format!("r1 to r{n}")
        } else {
            format!("s1 to s{n} and n1 to n{n}")
        }
    }

    /// Whether `pos` is a hole (not a store, not [`NO_HOLE`] nor any other position past the
    /// board's tables).
    #[inline]
    pub fn is_hole(&self, pos: Pos) -> bool {
        usize::from(pos) < MAX_POSITIONS && self.store_mask & bit(pos) == 0
    }

    /// Whether `pos` is a store on the track.
    #[inline]
    pub fn is_store(&self, pos: Pos) -> bool {
        self.store_mask & bit(pos) != 0
    }

    /// The owner of a position; [`NO_HOLE`] (and anything past the table) belongs to
    /// [`NOBODY`].
    #[inline]
    pub fn owner_of(&self, pos: Pos) -> Player {
        self.owner.get(usize::from(pos)).copied().unwrap_or(NOBODY)
    }

    /// The neutral holes (owned by nobody), in label order.
    pub fn neutral_holes(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.positions).filter(|&h| self.is_hole(h) && self.owner_of(h) == NOBODY)
    }

    /// The labels of the positions of `mask`, in the board's order.
    pub fn labels_of(&self, mask: Mask) -> Vec<String> {
        (0..self.positions)
            .filter(|&h| mask & bit(h) != 0)
            .map(|h| self.label(h))
            .collect()
    }

    /// The neutral holes, as a mask.
    pub fn neutral_mask(&self) -> Mask {
        self.neutral_holes().fold(0, |m, h| m | bit(h))
    }

    /// Every hole of the board, the players' and the neutral ones (no store).
    pub fn board_holes(&self) -> Mask {
        self.holes_mask
            .iter()
            .fold(self.neutral_mask(), |m, h| m | h)
    }

    /// A hole's number in its owner's numbering (1-based); 0 for stores and [`NO_HOLE`].
    #[inline]
    pub fn number_of(&self, pos: Pos) -> u8 {
        self.seat_number.get(usize::from(pos)).copied().unwrap_or(0)
    }

    /// A player's store on the track, if the board has them ([`NOBODY`] has none).
    #[inline]
    pub fn store_of(&self, player: Player) -> Option<Pos> {
        self.store.get(usize::from(player)).copied().flatten()
    }

    /// Every seat, one bit each.
    pub fn seat_mask(&self) -> u8 {
        u8::try_from((1u16 << self.seats.min(8)) - 1).unwrap_or(u8::MAX)
    }

    /// A player's holes, in their own numbering ([`NOBODY`] has none).
    #[inline]
    pub fn holes(&self, player: Player) -> &[Pos] {
        let count = self
            .seat_holes
            .get(usize::from(player))
            .copied()
            .unwrap_or(0);
        self.seat_hole
            .get(usize::from(player))
            .and_then(|row| row.get(..usize::from(count)))
            .unwrap_or_default()
    }

    /// All holes of a player, in their own numbering.
    pub fn holes_of(&self, player: Player) -> impl DoubleEndedIterator<Item = Pos> + '_ {
        self.holes(player).iter().copied()
    }

    /// The holes of a home (0 = `s`, 1 = `n`; a ring is one home, 0 = `r`) in its labels'
    /// numbering: the rows as drawn.
    pub fn home_holes(&self, home: u8) -> impl DoubleEndedIterator<Item = Pos> + '_ {
        let homes = if self.rows == 1 { 1 } else { 2 };
        let row = self.hole_of.get(usize::from(home)).filter(|_| home < homes);
        let holes = row.and_then(|row| row.get(..usize::from(self.holes_per_player)));
        holes.unwrap_or_default().iter().copied()
    }

    /// The board turned round, for the pie rule (`[turns] swap`): where each position's seeds
    /// go (`turned[p]`), store to store, and each player's holes onto the other's: the k-th
    /// hole of the side's labels onto the other side's k-th (`s3` onto `n3`: the board as
    /// drawn, turned half round), or, where owners tables make that no turn of the board
    /// (and on a ring), each player's k-th hole in their own numbering onto the other's.
    /// `None` where neither does: other than two players, neutral holes, one store, or
    /// owners, circuits, facing holes or holes behind that the turn does not carry onto each
    /// other.
    pub fn turned_round(&self) -> Option<[Pos; MAX_POSITIONS]> {
        if self.seats != 2 || self.neutral_mask() != 0 {
            return None;
        }
        let stores = match (self.store_of(0), self.store_of(1)) {
            (Some(s), Some(n)) => Some((s, n)),
            (None, None) => None,
            _ => return None,
        };
        // Each way of turning: where every hole goes, store onto store.
        let both_ways = |a: &[Pos], b: &[Pos]| -> Vec<(Pos, Pos)> {
            let there = a.iter().zip(b).map(|(&x, &y)| (x, y));
            let back = b.iter().zip(a).map(|(&x, &y)| (x, y));
            if a.len() == b.len() {
                there.chain(back).collect()
            } else {
                Vec::new()
            }
        };
        let mut ways = Vec::new();
        if self.rows == 1 {
            // A ring turned round by k holes, whatever the owners' blocks.
            let ring: Vec<Pos> = self.home_holes(0).collect();
            let n = ring.len();
            for k in 1..n {
                ways.push(
                    (0..n)
                        .filter_map(|i| Some((*ring.get(i)?, *ring.get((i + k) % n)?)))
                        .collect(),
                );
            }
        } else {
            let homes: [Vec<Pos>; 2] = [self.home_holes(0).collect(), self.home_holes(1).collect()];
            ways.push(both_ways(&homes[0], &homes[1]));
        }
        ways.push(both_ways(self.holes(0), self.holes(1)));
        ways.into_iter().find_map(|mut way: Vec<(Pos, Pos)>| {
            if let Some((s, n)) = stores {
                way.extend([(s, n), (n, s)]);
            }
            self.turned_by(&way)
        })
    }

    /// The board turned by `way` (each position onto another), if that is a turn of the whole
    /// board that carries the owners, the circuits, the facing holes and the holes behind onto
    /// each other.
    fn turned_by(&self, way: &[(Pos, Pos)]) -> Option<[Pos; MAX_POSITIONS]> {
        let mut turned: [Pos; MAX_POSITIONS] = std::array::from_fn(|p| p as Pos);
        for &(x, y) in way {
            *turned.get_mut(usize::from(x))? = y;
        }
        // Every position onto one of its own.
        let mut hit = [false; MAX_POSITIONS];
        for p in 0..self.positions {
            let to = hit.get_mut(usize::from(*turned.get(usize::from(p))?))?;
            if *to {
                return None;
            }
            *to = true;
        }
        let owners_turn = (0..self.positions).all(|p| {
            let (o, t) = (
                self.owner_of(p),
                self.owner_of(turned.get(usize::from(p)).copied().unwrap_or(p)),
            );
            o < 2 && t == 1 - o
        });
        if !owners_turn {
            return None;
        }
        // Positions past the table (`NO_HOLE`) stay where they are.
        let turn = |p: Pos| turned.get(usize::from(p)).copied().unwrap_or(p);
        let same = |table: &[Pos; MAX_POSITIONS], other: &[Pos; MAX_POSITIONS]| {
            (0..self.positions).all(|p| {
                let next = table.get(usize::from(p)).copied().unwrap_or(NO_HOLE);
                other.get(usize::from(turn(p))).copied().unwrap_or(NO_HOLE) == turn(next)
            })
        };
        let carried = owners_turn
            && same(&self.ccw[0], &self.ccw[1])
            && same(&self.ccw[1], &self.ccw[0])
            && same(&self.cw[0], &self.cw[1])
            && same(&self.cw[1], &self.cw[0])
            && same(&self.opposite, &self.opposite)
            && same(&self.behind, &self.behind);
        carried.then_some(turned)
    }

    /// The players, in turn order.
    pub fn players(&self) -> std::ops::Range<Player> {
        0..self.seats
    }

    /// The holes of `owned` as a player numbers them when they own them (`[rounds]
    /// win_holes`): round the board counter-clockwise from `first`, their first hole on the
    /// board as it starts.
    pub fn numbered_holes(&self, first: Pos, owned: Mask) -> Vec<Pos> {
        let mut list = Vec::new();
        let mut h = first;
        for _ in 0..self.positions {
            if owned & bit(h) != 0 && !list.contains(&h) {
                list.push(h);
            }
            h = self.ccw[0].get(usize::from(h)).copied().unwrap_or(NO_HOLE);
        }
        // Holes off the circuit, if any, last.
        for h in (0..self.positions).filter(|&h| owned & bit(h) != 0) {
            if !list.contains(&h) {
                list.push(h);
            }
        }
        list
    }

    /// Gives the holes to their owners by an owners table: each player's holes in their own
    /// numbering (the order listed). A hole in no list is neutral.
    pub fn assign(&mut self, owners: &[Vec<Pos>]) {
        self.seats = owners.len().clamp(2, MAX_SEATS) as u8;
        self.seat_holes = [0; MAX_SEATS];
        self.holes_mask = [0; MAX_SEATS];
        // A hole no list gives is neutral: nobody's, with no number of a player's.
        for h in 0..self.positions {
            if !self.is_hole(h) {
                continue;
            }
            put(&mut self.owner, h, NOBODY);
            put(&mut self.seat_number, h, 0);
        }
        for ((p, holes), ((row, count), mask)) in (0u8..).zip(owners).zip(
            (self.seat_hole.iter_mut())
                .zip(&mut self.seat_holes)
                .zip(&mut self.holes_mask),
        ) {
            for ((i, &h), slot) in (1u8..).zip(holes).zip(row.iter_mut()) {
                *slot = h;
                *count = i;
                *mask |= bit(h);
                put(&mut self.owner, h, p);
                put(&mut self.seat_number, h, i);
            }
        }
        // Every seat sows along the one circuit of a two-row board.
        let [ccw, cw] = [self.ccw[0], self.cw[0]];
        for p in 1..MAX_SEATS {
            put(&mut self.ccw, p as u8, ccw);
            put(&mut self.cw, p as u8, cw);
        }
    }
}

/// The bit of a position in a mask of positions; none for positions past [`MAX_POSITIONS`]
/// (such as [`NO_HOLE`]).
#[inline]
pub fn bit(pos: Pos) -> Mask {
    // A table: a shift of a two-word mask by a variable amount is several instructions and a
    // branch or two, and this runs in every test of a hole against a set.
    // Every u8 is an index of the table, so the lookup has no bounds check.
    BITS.get(usize::from(pos)).copied().unwrap_or(0)
}

/// [`bit`] of every value a [`Pos`] may take.
// Built at compile time: an index out of range would fail the build, not a run.
#[allow(clippy::indexing_slicing)]
static BITS: [Mask; 256] = {
    let mut bits = [0; 256];
    let mut p = 0;
    while p < MAX_POSITIONS {
        bits[p] = 1 << p;
        p += 1;
    }
    bits
};

/// A compiled hole-valued expression.
#[derive(Debug, Clone, PartialEq)]
pub enum HoleX {
    Here,
    Last,
    Origin,
    LapOrigin,
    /// `hole`: the hole a chain is at.
    Bound,
    /// `chosen`: the hole the mover chose (a capture clause's `choose`).
    Chosen,
    /// `if(c, a, b)`: `a` where the condition holds, else `b`.
    If(Box<BoolX>, Box<HoleX>, Box<HoleX>),
    Next(Box<HoleX>),
    Prev(Box<HoleX>),
    Opposite(Box<HoleX>),
    Behind(Box<HoleX>),
    /// `hole(player, number)`.
    Of(Box<PlayerX>, Box<IntX>),
    /// `ahead(h, k)`: the hole `k` holes on from `h` along the mover's circuit in the move's
    /// direction (back for a negative `k`).
    Ahead(Box<HoleX>, Box<IntX>),
    /// `first_after(h, c)`: the first hole after `h` round the mover's circuit, in the move's
    /// direction, where `c` holds with `hole` bound to it (`h` itself last); no hole if none.
    /// With `false`, `first_before`: the same search against the sowing direction.
    FirstAfter(Box<HoleX>, Box<BoolX>, bool),
    /// `claim(player)`: the hole the player has claimed, or no hole.
    Claim(Box<PlayerX>),
    /// A hole named by its label (`s4`).
    At(Pos),
}

/// A compiled direction-valued expression. Directions are 0 (`none`: a direction variable
/// not yet set), 1 (`ccw`) and 2 (`cw`).
#[derive(Debug, Clone, PartialEq)]
pub enum DirX {
    /// `direction`: the move's.
    Move,
    Const(u8),
    /// A direction variable.
    Var(u8),
    /// A player's direction variable (its first slot, and the player).
    VarOf(u8, Box<PlayerX>),
    /// `if(c, a, b)`: `a` where the condition holds, else `b`.
    If(Box<BoolX>, Box<DirX>, Box<DirX>),
}

/// The value of a direction in a variable.
pub fn dir_value(d: Dir) -> i32 {
    match d {
        Dir::Ccw => 1,
        Dir::Cw => 2,
    }
}

/// The most slots of variables a ruleset may use (a variable each player has takes one a
/// player).
pub const MAX_VARS: usize = 24;

/// A variable of the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarInfo {
    pub name: String,
    pub kind: crate::ruleset::VarKind,
    pub scope: crate::ruleset::VarScope,
    pub per_player: bool,
    /// Its first slot in [`crate::engine::Position::vars`].
    pub slot: u8,
    /// The slots one value takes ([`HOLES_WIDTH`] for a set of holes), and all its
    /// slots (one value a player for a variable each player has).
    pub width: u8,
    pub slots: u8,
    pub initial: i32,
    pub about: Option<String>,
}

/// A value an effect gives a variable.
#[derive(Debug, Clone, PartialEq)]
pub enum VarValue {
    Number(IntX),
    Flag(BoolX),
    Dir(DirX),
    /// A hole put into (`true`) or taken out of a set of holes.
    Mark(HoleX, bool),
}

/// The slots a set of holes takes in [`crate::engine::Position::vars`]: a [`Mask`] in `i32`
/// quarters, lowest first.
pub const HOLES_WIDTH: usize = Mask::BITS as usize / 32;

/// The set of holes a variable of kind `holes` holds, from its slots at `at`.
#[inline]
pub fn holes_in(vars: &[i32], at: usize) -> Mask {
    (0..HOLES_WIDTH).fold(0, |m, k| {
        m | Mask::from(vars.get(at + k).copied().unwrap_or(0) as u32) << (32 * k)
    })
}

/// Puts hole number `h` into (`add`) or takes it out of the set of holes whose slots are at
/// `at` (see [`holes_in`]); a number past the board changes nothing.
pub fn mark_hole(vars: &mut [i32], at: usize, h: u32, add: bool) {
    if h >= MAX_POSITIONS as u32 {
        return;
    }
    if let Some(s) = vars.get_mut(at + (h / 32) as usize) {
        let bit = (1u32 << (h % 32)) as i32;
        *s = if add { *s | bit } else { *s & !bit };
    }
}

/// Writes `holes` into the slots of a variable of kind `holes` at `at` (see [`holes_in`]).
pub fn put_holes(vars: &mut [i32], at: usize, holes: Mask) {
    for k in 0..HOLES_WIDTH {
        if let Some(slot) = vars.get_mut(at + k) {
            *slot = (holes >> (32 * k)) as u32 as i32;
        }
    }
}

/// A compiled effect clause: when it holds, the variables take their new values (all read
/// before any is set).
#[derive(Debug, Clone)]
pub struct EffectRule {
    pub id: ClauseId,
    pub when: BoolX,
    /// Whose own variables are set (`player`); `None` for the mover's.
    pub player: Option<PlayerX>,
    /// Each variable set: its first slot, whether each player has one (then `player`'s is
    /// set), and the value.
    pub sets: Vec<(u8, bool, VarValue)>,
}

/// A compiled player-valued expression.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerX {
    Mover,
    Opponent,
    Starter,
    /// `round_winner`: in round-end effects, the round's winner (nobody for a draw).
    RoundWinner,
    Fixed(Player),
    Owner(Box<HoleX>),
    /// `if(c, a, b)`: `a` where the condition holds, else `b`.
    If(Box<BoolX>, Box<PlayerX>, Box<PlayerX>),
}

/// A compiled number-valued expression. Arithmetic saturates; `x / 0` and `x % 0` are 0.
#[derive(Debug, Clone, PartialEq)]
pub enum IntX {
    Const(i64),
    Seeds(HoleX),
    Number(HoleX),
    Store(PlayerX),
    RowSeeds(PlayerX),
    /// `max_seeds(p)`: the most seeds in any one of the player's holes.
    MaxSeeds(PlayerX),
    BoardSeeds,
    HolesPerRow,
    MoveCaptures,
    TurnSowings,
    /// `hand`: in a skip clause, the seeds in hand, the one about to be sown included.
    Hand,
    /// `lap`: the number of the lap being sown (1 for the move's first); after the move, of
    /// its last lap.
    Lap,
    /// `entered`: the seeds the move entered from what the mover holds (`[entry]`); 0 for a
    /// move sown from a hole.
    Entered,
    /// A number variable.
    Var(u8),
    /// A player's number variable (its first slot, and the player).
    VarOf(u8, Box<PlayerX>),
    /// `pieces(h)`: the pieces (`[pieces]`) in a hole, counted in its seeds too.
    Pieces(HoleX),
    /// `pieces_held(p)`: the pieces a player holds off the board.
    PiecesHeld(PlayerX),
    /// `landed_on`: the seeds (and pieces) the hole of the lap's last drop held just before
    /// it fell, whatever that drop's captures took since.
    LandedOn,
    /// An aggregate over a set of holes: the body read with `hole` bound to each in turn.
    Over(Aggregate, Box<SetX>, Box<IntX>),
    /// `count(set, condition)`: the holes of the set where the condition holds.
    Count(Box<SetX>, Box<BoolX>),
    /// `if(condition, a, b)`: `a` where the condition holds, else `b`.
    If(Box<BoolX>, Box<IntX>, Box<IntX>),
    Neg(Box<IntX>),
    Arith(ArithOp, Box<IntX>, Box<IntX>),
}

/// Arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A compiled condition.
#[derive(Debug, Clone, PartialEq)]
pub enum BoolX {
    Const(bool),
    Not(Box<BoolX>),
    And(Box<BoolX>, Box<BoolX>),
    Or(Box<BoolX>, Box<BoolX>),
    Int(CmpOp, IntX, IntX),
    /// Equality (`true`) or inequality of two players.
    Player(bool, PlayerX, PlayerX),
    /// Equality (`true`) or inequality of two holes.
    Hole(bool, HoleX, HoleX),
    /// Membership in a set of small numbers, as a bit mask of 0..=127.
    In(IntX, u128),
    Own(HoleX),
    IsStore(HoleX),
    /// `neutral(h)`: the hole is owned by nobody.
    Neutral(HoleX),
    /// `h in S`: the hole is one of the set's.
    InSet(HoleX, SetX),
    IsClosed(HoleX),
    /// `claimed(h)`: the hole is some player's claimed hole.
    Claimed(HoleX),
    LastSeed,
    FirstMove,
    ReachedOpponent,
    /// `resowing`: the lap being sown is captured seeds sown again (`then = "sow"`).
    Resowing,
    /// `piece_dropped`: what has just been dropped is a piece (`[pieces]`), not a seed.
    PieceDropped,
    /// A flag variable.
    Var(u8),
    /// A player's flag variable.
    VarOf(u8, Box<PlayerX>),
    /// Equality (`true`) or inequality of two directions.
    Dir(bool, DirX, DirX),
    /// `any(set, condition)` or `all(set, condition)`: whether the condition holds at some
    /// hole of the set, or at every one (`hole` bound to each in turn).
    Holds(Quantifier, Box<SetX>, Box<BoolX>),
}

/// Whether a condition must hold at some hole of a set or at all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantifier {
    Any,
    All,
}

/// How an aggregate combines the values of its body over a set of holes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregate {
    /// `sum(set, n)`.
    Sum,
    /// `max(set, n)` (0 over an empty set).
    Max,
    /// `min(set, n)` (0 over an empty set).
    Min,
}

/// A compiled set of holes, read by aggregates.
#[derive(Debug, Clone, PartialEq)]
pub enum SetX {
    /// `holes_of(p)`: every hole a player owns (both rows on four-row boards; no store).
    HolesOf(PlayerX),
    /// `inner_row(p)`: the row of a player's holes that faces the opponent (a two-row
    /// board's one row).
    Inner(PlayerX),
    /// `outer_row(p)`: a four-row board's back row of a player's holes (empty on two rows).
    Outer(PlayerX),
    /// `all_holes`: every hole on the board (no store).
    All,
    /// `sets.NAME`: a set the ruleset declares, as a mask of positions.
    Named(Mask),
    /// A variable of kind `holes` (its first slot), and one each player has, read for one.
    Var(u8),
    VarOf(u8, Box<PlayerX>),
    /// `filter(S, c)`: the holes of S where c holds, `hole` being each in turn.
    Where(Box<SetX>, Box<BoolX>),
}

impl SetX {
    fn size(&self) -> u64 {
        match self {
            SetX::HolesOf(p) | SetX::Inner(p) | SetX::Outer(p) => 1 + p.size(),
            SetX::VarOf(_, p) => 1 + p.size(),
            SetX::All | SetX::Named(_) | SetX::Var(_) => 1,
            SetX::Where(s, c) => s
                .size()
                .saturating_add(c.size().saturating_mul(AGGREGATE_HOLES)),
        }
    }

    fn reads(&self, fact: Fact) -> bool {
        match self {
            SetX::HolesOf(p) | SetX::Inner(p) | SetX::Outer(p) => p.reads(fact),
            SetX::VarOf(_, p) => p.reads(fact),
            SetX::All | SetX::Named(_) | SetX::Var(_) => false,
            SetX::Where(s, c) => s.reads(fact) || c.reads(fact),
        }
    }

    /// The player the set is read for, if any.
    pub fn player(&self) -> Option<&PlayerX> {
        match self {
            SetX::HolesOf(p) | SetX::Inner(p) | SetX::Outer(p) => Some(p),
            SetX::VarOf(_, p) => Some(p),
            SetX::All | SetX::Named(_) | SetX::Var(_) | SetX::Where(..) => None,
        }
    }
}

/// The most holes an aggregate can visit: the work of its body counts this many times.
const AGGREGATE_HOLES: u64 = MAX_POSITIONS as u64;

/// A clause's identity, for traces: its name, kind and the documented clause it cites.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ClauseInfo {
    pub name: String,
    pub cites: Option<String>,
}

/// Index into [`Rules::clauses`].
pub type ClauseId = u16;

/// A capture's chain: from the hole just taken (`hole`), while `while_` holds, step to the
/// hole `step` names and take it, with the holes `also` names from it.
#[derive(Debug, Clone)]
pub struct ChainRule {
    pub while_: BoolX,
    pub step: HoleX,
    pub also: Vec<HoleX>,
}

impl ChainRule {
    /// Whether any expression of the chain reads `fact`.
    pub fn reads(&self, fact: Fact) -> bool {
        self.while_.reads(fact) || self.step.reads(fact) || self.also.iter().any(|a| a.reads(fact))
    }
}

/// A compiled capture clause.
#[derive(Debug, Clone)]
pub struct CaptureRule {
    pub id: ClauseId,
    pub when: BoolX,
    pub take: Vec<HoleX>,
    /// Every hole of a set, taken after `take` (the set read before anything is taken).
    pub take_set: Option<SetX>,
    pub to: Destination,
    /// Who receives the seeds, in place of `to`, read for each hole taken (`hole`).
    pub player: Option<PlayerX>,
    /// The hole the seeds taken are put into, instead of being banked.
    pub into: Option<HoleX>,
    pub chain: Option<ChainRule>,
    pub cancel_if: Option<BoolX>,
    pub then: After,
    pub claim: bool,
    /// With `then = sow`: the hole after which the seeds are sown (default the lap's last).
    pub sow_after: Option<HoleX>,
    /// With `then = sow`: seeds also lifted from the lap's last hole.
    pub lift_also: Option<IntX>,
    /// With `then = sow`: the direction the seeds are sown in (default the lap's).
    pub sow_direction: Option<DirX>,
    /// The holes the mover chooses one of, `chosen` in the clause's other expressions.
    pub choose: Option<SetX>,
    /// How many seeds are taken from each hole (`hole`), default all.
    pub take_seeds: Option<IntX>,
    /// The mover may decline the capture (lap-end and move-end clauses).
    pub optional: bool,
    /// At a drop: the seed or piece just dropped stays where it fell (`keep = "dropped"`).
    pub keep_dropped: bool,
}

impl CaptureRule {
    /// Whether any expression of the clause reads `fact`.
    pub fn reads(&self, fact: Fact) -> bool {
        self.when.reads(fact)
            || self.take.iter().any(|t| t.reads(fact))
            || self.take_set.as_ref().is_some_and(|x| x.reads(fact))
            || (self.chain.as_ref()).is_some_and(|c| c.reads(fact))
            || self.cancel_if.as_ref().is_some_and(|x| x.reads(fact))
            || self.sow_after.as_ref().is_some_and(|x| x.reads(fact))
            || self.lift_also.as_ref().is_some_and(|x| x.reads(fact))
            || self.sow_direction.as_ref().is_some_and(|x| x.reads(fact))
            || self.choose.as_ref().is_some_and(|x| x.reads(fact))
            || self.take_seeds.as_ref().is_some_and(|x| x.reads(fact))
            || self.into.as_ref().is_some_and(|x| x.reads(fact))
            || self.player.as_ref().is_some_and(|x| x.reads(fact))
    }
}

/// A compiled legality clause.
#[derive(Debug, Clone)]
pub struct LegalRule {
    pub id: ClauseId,
    pub when: BoolX,
    pub require: BoolX,
    pub require_after: Option<BoolX>,
}

/// A compiled preference over all the legal moves: when some legal move has the property,
/// only those that have it stay legal.
#[derive(Debug, Clone)]
pub struct PreferRule {
    pub id: ClauseId,
    /// Whether the clause applies (read without a hole, for the player to move).
    pub when: BoolX,
    /// The property before the move (`origin` the hole tried), and after it (on a copy).
    pub holds: BoolX,
    pub holds_after: Option<BoolX>,
}

/// A compiled skip clause: a seed passes over `here` when `when` holds.
#[derive(Debug, Clone)]
pub struct SkipRule {
    pub id: ClauseId,
    pub when: BoolX,
}

/// A compiled redirect clause: its condition and where the seed goes.
#[derive(Debug, Clone)]
pub struct RedirectRule {
    pub id: ClauseId,
    pub when: BoolX,
    pub to: RedirectDest,
}

/// Where a redirected seed goes.
#[derive(Debug, Clone)]
pub enum RedirectDest {
    /// Out of play, booked to the mover's removed seeds.
    Removed,
    /// Into the hole the expression names.
    Hole(HoleX),
    /// To what the player the expression names holds.
    Player(PlayerX),
}

/// The compiled `[race]`: each player's starting hole, when the race is over, what a sowing
/// cut short does with its hand, and who moves after.
#[derive(Debug, Clone)]
pub struct RaceRule {
    pub id: ClauseId,
    /// Each player's start: a hole the rules name, or one the player chooses (`race:s3`)
    /// from a set, each expression read with that player as `mover`.
    pub from: StartAt,
    pub ends: crate::ruleset::RaceEnds,
    pub unfinished: crate::ruleset::RaceUnfinished,
    pub next: crate::ruleset::RaceNext,
}

/// The compiled `[entry]`: when the mover may enter seeds they hold, how many, whether they
/// choose how many, and the hole the first falls into.
#[derive(Debug, Clone)]
pub struct EntryRule {
    pub id: ClauseId,
    pub when: BoolX,
    pub seeds: IntX,
    pub choose: bool,
    pub start: StartAt,
}

/// Where something starts: an entry's first seed (`[entry] start`), or a racer's sowing
/// (`[race] from`).
#[derive(Debug, Clone)]
pub enum StartAt {
    /// The hole an expression names.
    Hole(HoleX),
    /// A hole of a set, the mover's choice (`+1@s3`, `race:s3`).
    Chosen(SetX),
}

impl StartAt {
    /// Whether the mover chooses where it starts (their moves then name the hole).
    pub fn is_chosen(&self) -> bool {
        matches!(self, StartAt::Chosen(_))
    }
}

/// The compiled `[arrange]`: where the mover may put a seed they hold, where they may pick
/// one up, and when they may end their arrangement (each `false` where the ruleset says
/// nothing of it).
#[derive(Debug, Clone)]
pub struct ArrangeRule {
    pub id: ClauseId,
    pub put: BoolX,
    pub pick: BoolX,
    pub done: BoolX,
    /// Before the first move, at every later round's start, or both.
    pub at: crate::ruleset::ArrangeAt,
    /// Who arranges first.
    pub first: crate::ruleset::ArrangeFirst,
    /// Where the mover may put a piece they hold (`false` where the rules have no pieces).
    pub place: BoolX,
    /// Whether the refill between rounds waits for the arrangement, filling the holes it
    /// left empty.
    pub refill_after: bool,
}

/// The rules' pieces unlike seeds (`[pieces.NAME]`): one kind, one piece a player.
#[derive(Debug, Clone)]
pub struct PiecesRule {
    pub id: ClauseId,
    /// The kind's name, as moves (`s3+NAME`) and positions write it.
    pub name: String,
    /// Where a piece falls in the sowing of the hole it is lifted from.
    pub sown: crate::ruleset::PieceOrder,
    /// Where a piece on the board goes at a round's end.
    pub round_end: crate::ruleset::PieceRoundEnd,
    /// The first of the variable slots the pieces take, one a player, after the variables'.
    pub slot: u8,
}

/// A compiled extra-turn clause.
#[derive(Debug, Clone)]
pub struct ExtraRule {
    pub id: ClauseId,
    pub when: BoolX,
    /// The mover may decline the extra turn by passing.
    pub optional: bool,
}

/// A compiled ending.
#[derive(Debug, Clone, Copy)]
pub struct EndingRule {
    pub id: ClauseId,
    pub remaining: Remaining,
    pub result: Verdict,
}

/// A compiled relay.
#[derive(Debug, Clone)]
pub struct RelayRule {
    pub id: ClauseId,
    pub from: crate::ruleset::RelayFrom,
    /// The hole lifted, when an expression says it (instead of `from`).
    pub hole: Option<HoleX>,
    /// Whether each relay turns the direction round.
    pub reverse: bool,
    pub when: BoolX,
    /// Where the mover may stop instead of relaying (`false`: never).
    pub optional: BoolX,
    /// How many seeds a relay lifts from the hole it lifts (`hole`); `None` for all.
    pub lift: Option<IntX>,
}

impl RelayRule {
    /// Whether the mover may ever stop instead of relaying.
    pub fn may_stop(&self) -> bool {
        self.optional != BoolX::Const(false)
    }
}

/// The holes each player owns in one layout of owners, as masks of positions in turn order
/// (a hole in none is nobody's). Each player numbers their holes round the board
/// counter-clockwise from their first hole of layout 0 ([`Geometry::numbered_holes`]).
pub type Owned = [Mask; MAX_SEATS];

/// The layouts of the holes' owners that matches of `[rounds] win_holes` have met; layout 0 is
/// the board's own. Shared by every game of the same rules and by the positions read for them,
/// so that a position names its layout by a small number
/// ([`crate::engine::Position::rotation`]) that means the same in all of them. Read and
/// written between rounds and when positions are read, never during a move; a layout already
/// met is found without allocating.
#[derive(Debug, Clone, Default)]
pub struct Layouts(std::sync::Arc<std::sync::Mutex<Vec<Owned>>>);

impl Layouts {
    /// A table holding the board's own layout, `start`, as layout 0.
    pub fn new(start: Owned) -> Layouts {
        let mut table = Vec::with_capacity(MAX_LAYOUTS);
        table.push(start);
        Layouts(std::sync::Arc::new(std::sync::Mutex::new(table)))
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Vec<Owned>> {
        // A panic elsewhere while the lock was held leaves a table that is still whole: each
        // write is one push.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The number of a layout, added to the table if it is new; `None` when the table holds
    /// [`MAX_LAYOUTS`] others already.
    pub fn number(&self, owned: &Owned) -> Option<u8> {
        let mut table = self.table();
        if let Some(k) = table.iter().position(|t| t == owned) {
            return u8::try_from(k).ok();
        }
        if table.len() >= MAX_LAYOUTS {
            return None;
        }
        // The room for every layout is reserved with the table: no push allocates.
        table.push(*owned);
        u8::try_from(table.len() - 1).ok()
    }

    /// The layout numbered `k`, if the table has it.
    pub fn get(&self, k: u8) -> Option<Owned> {
        self.table().get(usize::from(k)).copied()
    }
}

/// A compiled match of rounds.
#[derive(Debug, Clone)]
pub struct RoundsRule {
    pub id: ClauseId,
    pub refill: u16,
    pub from: RowEnd,
    /// Whether every round starts again from the start position (a match of separate
    /// games): `refill` and `from` are then not used.
    pub restart: bool,
    /// Who wins the match when it ends.
    pub match_winner: crate::ruleset::MatchWinner,
    /// Whether the last hole a player fills may take fewer than `refill`.
    pub partial: bool,
    /// Whether every player fills only as many holes as the poorest.
    pub poorest: bool,
    /// With `poorest`: whether the hole matching the poorest's partial hole gets the same.
    pub mirrored: bool,
    /// Whether the holes nobody fills stay open.
    pub unfilled_open: bool,
    /// With `partial`: the fewest seeds a partial last hole takes (1 unless the ruleset says);
    /// a player with fewer left keeps them.
    pub least_in_last: u16,
    /// Whether players with seeds left, once every player has filled their own holes, fill
    /// the holes nobody filled and own them for the round (`win_holes`).
    pub win_holes: bool,
    pub next_starter: NextStarter,
    /// The match ends when this holds after a round (besides a player unable to fill a hole).
    pub match_ends: Option<BoolX>,
    /// The holes out of play for the next round, read before the refill.
    pub closed: Option<SetX>,
    /// The match ends when a round would start from an earlier round's start.
    pub end_on_repeated_start: bool,
    /// Every this many rounds the holes move on one player (0: never).
    pub rotate_owners: u32,
    /// The gift between rounds, if the rules have one.
    pub give: Option<GiveRule>,
}

impl RoundsRule {
    /// Whether the board is not refilled by count between rounds but laid out by the players
    /// (`[arrange] at = "rounds"` with no `refill`): every hole is emptied into its owner's
    /// hand.
    pub fn laid_out(&self) -> bool {
        self.refill == 0 && !self.restart
    }
}

/// A gift of seeds between rounds (`[rounds.give]`).
#[derive(Debug, Clone)]
pub struct GiveRule {
    pub id: ClauseId,
    pub from: PlayerX,
    pub seeds: IntX,
    pub when: BoolX,
}

/// An option with the value in force.
#[derive(Debug, Clone, serde::Serialize)]
pub struct OptionValue {
    pub name: String,
    pub value: String,
    pub default: String,
    pub values: Vec<String>,
    pub question: String,
    pub why: String,
    pub cites: Option<String>,
}

/// A checked, compiled ruleset.
#[derive(Debug, Clone)]
pub struct Rules {
    pub name: String,
    pub region: Option<String>,
    pub sources: Vec<String>,
    pub about: Option<String>,
    /// The players' names in turn order, as the ruleset writes them (`south`, `north` unless
    /// it names its own).
    pub players: Vec<String>,
    pub geometry: Geometry,
    /// Seeds per position at the start.
    pub initial: [u16; MAX_POSITIONS],
    /// Seeds each player holds at the start, beside the board (`[board] held`).
    pub held_at_start: [u32; MAX_SEATS],
    pub first: Player,
    /// The direction of every move; when the mover chooses (`choose_direction`), the one
    /// listed first.
    pub direction: Dir,
    /// Whether the mover chooses the direction of each move.
    pub choose_direction: bool,
    /// Whether a player who cannot sow passes while another can move.
    pub pass: bool,
    pub first_seed: FirstSeed,
    /// Whether a move may start from any hole (`[sowing] from = "any"`), not only the
    /// mover's own.
    pub sow_from_any: bool,
    pub skip_origin: SkipOrigin,
    pub closed_holes: ClosedHoles,
    pub relay: Option<RelayRule>,
    /// Capture clauses by moment: drop, lap end, move end.
    pub drop_captures: Vec<CaptureRule>,
    pub lap_captures: Vec<CaptureRule>,
    pub move_captures: Vec<CaptureRule>,
    pub legal: Vec<LegalRule>,
    /// Preferences over the legal moves, applied in order after the legality clauses.
    pub prefer: Vec<PreferRule>,
    pub extra_turns: Vec<ExtraRule>,
    /// Entering seeds the mover holds, as a move of its own.
    pub entry: Option<EntryRule>,
    /// The arrangement before play, when the rules have one.
    pub arrange: Option<ArrangeRule>,
    /// The pieces unlike seeds, when the rules have them.
    pub pieces: Option<PiecesRule>,
    /// Capture and effect clauses tried after each seed put, or picked up, in the
    /// arrangement.
    pub put_captures: Vec<CaptureRule>,
    pub put_effects: Vec<EffectRule>,
    pub pick_captures: Vec<CaptureRule>,
    pub pick_effects: Vec<EffectRule>,
    /// Capture clauses tried once play has ended, for each player in turn order, before the
    /// ending shares out the seeds left (`at = "play_end"`).
    pub end_captures: Vec<CaptureRule>,
    pub no_move: EndingRule,
    pub endless_move: EndingRule,
    /// What the endings do with the seeds in neutral holes.
    pub neutral_seeds: crate::ruleset::NeutralSeeds,
    /// The ending for a repeated position, when the rules have one.
    pub cycle: Option<EndingRule>,
    /// The most laps a move may take by the rules of the game (the move then ends).
    pub max_laps: Option<u32>,
    /// How many seeds a move lifts from the hole played, when not all.
    pub lift: Option<IntX>,
    /// Holes whose seeds the move's first lap lifts with the hole played (`[sowing] gather`).
    pub gather: Option<SetX>,
    pub end_when: Vec<(BoolX, EndingRule)>,
    /// The ruleset's named sets of holes (`[board.sets]`), by name, as masks of positions.
    pub sets: BTreeMap<String, Mask>,
    /// The conditions under which a seed passes over a hole (`[[sowing.skip]]`).
    pub skips: Vec<SkipRule>,
    pub redirects: Vec<RedirectRule>,
    /// The ending when no legal move of any player can capture, when the rules have one.
    pub no_capture: Option<EndingRule>,
    /// `[end] no_further_capture`: the forced play to come can never capture.
    pub no_further_capture: Option<EndingRule>,
    /// `[end] no_capture_reachable`: no play to come, by any moves, can capture.
    pub no_capture_reachable: Option<EndingRule>,
    /// `[end] concede`: the ending of a game the player to move concedes, when the rules let
    /// players concede.
    pub concede: Option<EndingRule>,
    /// `[turns] swap`, the pie rule: the board turned round ([`Geometry::turned_round`]), for
    /// the `swap` on offer at the first turn of the player who did not make the first ply.
    pub swap: Option<[Pos; MAX_POSITIONS]>,
    /// `[race]`: each round's first ply is every player sowing at once.
    pub race: Option<RaceRule>,
    pub rounds: Option<RoundsRule>,
    /// The rules' variables, in slot order.
    pub vars: Vec<VarInfo>,
    /// Effect clauses by moment: drop, lap end, move end.
    pub drop_effects: Vec<EffectRule>,
    pub lap_effects: Vec<EffectRule>,
    pub move_effects: Vec<EffectRule>,
    /// Effects at the end of a round of a match, tried for each player still in it.
    pub round_effects: Vec<EffectRule>,
    /// Effects at the start of every round, the first included, tried for each player still
    /// in play (`at = "round_start"`).
    pub start_effects: Vec<EffectRule>,
    pub options: Vec<OptionValue>,
    /// The first capture clause that claims holes, named in traces when a seed falls into a
    /// claimed hole.
    pub claim_clause: Option<ClauseId>,
    /// Every clause, indexed by [`ClauseId`].
    pub clauses: Vec<ClauseInfo>,
    /// Whether any legality clause simulates the move (costly: the engine plays it on a copy).
    pub looks_ahead: bool,
    /// The layouts of the holes' owners met by matches of `[rounds] win_holes`.
    pub layouts: Layouts,
}

impl Rules {
    /// A player's name as the ruleset writes it (`south`, `west`); `nobody` past the seats.
    pub fn player_key(&self, p: Player) -> &str {
        self.players
            .get(usize::from(p))
            .map_or("nobody", String::as_str)
    }

    /// A player's name as text shows it: `South`, `West`.
    pub fn player_title(&self, p: Player) -> String {
        title(self.player_key(p))
    }

    /// The clause with this id. Ids come from the checker, which numbers every clause it
    /// lists; an id past the list (not one of these rules') reads as a clause with no name.
    pub fn clause(&self, id: ClauseId) -> &ClauseInfo {
        static UNKNOWN: ClauseInfo = ClauseInfo {
            name: String::new(),
            cites: None,
        };
        self.clauses.get(usize::from(id)).unwrap_or(&UNKNOWN)
    }

    /// The ending with this clause id, if it is one.
    pub fn ending(&self, id: ClauseId) -> Option<&EndingRule> {
        [
            Some(&self.no_move),
            Some(&self.endless_move),
            self.cycle.as_ref(),
            self.no_capture.as_ref(),
            self.no_further_capture.as_ref(),
            self.no_capture_reachable.as_ref(),
            self.concede.as_ref(),
        ]
        .into_iter()
        .flatten()
        .chain(self.end_when.iter().map(|(_, e)| e))
        .find(|e| e.id == id)
    }

    /// Where positions keep the pieces (`[pieces]`): none where the rules have no pieces.
    pub fn piece_slots(&self) -> crate::engine::Pieces {
        match &self.pieces {
            Some(kind) => crate::engine::Pieces::new(kind.slot, self.geometry.seats),
            None => crate::engine::Pieces::NONE,
        }
    }

    /// The seeds of a position, its pieces (`[pieces]`) on the board aside: constant through
    /// a game ([`crate::engine::Position::total`] counts a piece on the board as a seed).
    pub fn seeds_in(&self, pos: &crate::engine::Position) -> u32 {
        pos.total() - self.piece_slots().on_board(pos)
    }

    /// Seeds and pieces, on the board or off it: constant through a game.
    pub fn units_in(&self, pos: &crate::engine::Position) -> u32 {
        self.seeds_in(pos) + u32::from(self.piece_slots().count())
    }

    /// The variable slots a position uses: the variables', then the pieces'.
    pub fn var_slots(&self) -> usize {
        let vars = (self.vars.iter())
            .map(|v| usize::from(v.slot) + usize::from(v.slots))
            .max()
            .unwrap_or(0);
        match &self.pieces {
            Some(kind) => usize::from(kind.slot) + usize::from(self.geometry.seats),
            None => vars,
        }
    }

    /// The pieces in the game (`[pieces]`): one a player.
    pub fn piece_count(&self) -> u32 {
        if self.pieces.is_some() {
            u32::from(self.geometry.seats)
        } else {
            0
        }
    }

    /// Total seeds at the start.
    pub fn total_seeds(&self) -> u32 {
        let board: u32 = self.initial.iter().map(|&s| u32::from(s)).sum();
        board + self.held_at_start.iter().sum::<u32>()
    }
}

impl Geometry {
    /// Lays out a board. Two rows: one shared counter-clockwise circuit
    /// `s1..sN, (S store), n1..nN, (N store)` (stores on the left come before the row instead).
    /// Four rows: each player has a circuit of their own 2N holes, numbered counter-clockwise
    /// from the left end of their outer row (outer row left to right, then inner row right to
    /// left). Three rows of N holes (N even): each player owns the row nearest them and the N/2
    /// holes of the middle row on their right, numbered `1..N` along their row from their left,
    /// then `N+1..N+N/2` along the middle row from its end on their right inwards; one shared
    /// circuit `s1..sM, n1..nM` (M = N + N/2), and only the outer rows face each other.
    /// One row is a ring: holes `r1..rN` counter-clockwise, one circuit for every
    /// player, no hole facing another; whose holes are whose is given by [`Geometry::assign`].
    pub fn build(
        rows: u8,
        holes: u8,
        stores: crate::ruleset::Stores,
        side: crate::ruleset::StoreSide,
    ) -> Geometry {
        use crate::ruleset::{StoreSide, Stores};
        if rows == 1 {
            return Geometry::ring(holes);
        }
        let n = holes as usize;
        let per = match rows {
            4 => 2 * n,
            3 => n + n / 2,
            _ => n,
        };
        let mut g = Geometry::blank(rows, holes, per as u8);
        let track = stores == Stores::Track && rows == 2;
        // The checker accepts at most MAX_HOLES holes and two stores, so every position fits
        // the tables. On a larger board (which it rejects) the positions past them are left
        // out rather than written out of bounds.
        let mut next_pos = 0usize;
        let mut take_pos = || {
            let p = Pos::try_from(next_pos).unwrap_or(NO_HOLE);
            next_pos += 1;
            p
        };
        // Each player's positions in counter-clockwise order.
        let mut circuits: [Vec<Pos>; 2] = [Vec::new(), Vec::new()];
        for (player, circuit) in (0..2u8).zip(&mut circuits) {
            let place_store = |g: &mut Geometry, circuit: &mut Vec<Pos>, p: Pos| {
                put(&mut g.owner, p, player);
                put(&mut g.home, p, player);
                put(&mut g.store, player, Some(p));
                g.store_mask |= bit(p);
                circuit.push(p);
            };
            if track && side == StoreSide::Left {
                place_store(&mut g, circuit, take_pos());
            }
            // Holes take positions in their owner's numbering order: lists of legal moves,
            // kept as position masks, come out in hole order because of it.
            let own_holes = g.hole_of.get_mut(usize::from(player));
            for (i, slot) in (0..per).zip(own_holes.into_iter().flatten()) {
                let p = take_pos();
                *slot = p;
                put(&mut g.owner, p, player);
                put(&mut g.home, p, player);
                put(&mut g.number, p, (i + 1) as u8);
                put(&mut g.seat_number, p, (i + 1) as u8);
                if let Some(mask) = g.holes_mask.get_mut(usize::from(player)) {
                    *mask |= bit(p);
                }
                circuit.push(p);
            }
            if let (Some(seat), Some(home)) = (
                g.seat_hole.get_mut(usize::from(player)),
                g.hole_of.get(usize::from(player)),
            ) {
                *seat = *home;
            }
            put(&mut g.seat_holes, player, per as u8);
            if track && side == StoreSide::Right {
                place_store(&mut g, circuit, take_pos());
            }
        }
        g.positions = Pos::try_from(next_pos.min(MAX_POSITIONS)).unwrap_or(NO_HOLE);
        // `hole(player, number)`, numbers from 1; NO_HOLE past the player's holes.
        let hole = |g: &Geometry, player: Player, number: usize| -> Pos {
            let i = number.checked_sub(1);
            i.and_then(|i| g.holes(player).get(i))
                .copied()
                .unwrap_or(NO_HOLE)
        };
        for player in 0..2u8 {
            let other = 1 - player;
            for i in 1..=per {
                let here = hole(&g, player, i);
                if rows != 4 {
                    // Two rows, and the outer rows of three: hole i faces the other's N + 1 - i
                    // (a middle-row hole of three rows, i > N, faces none).
                    if i <= n {
                        let across = hole(&g, other, n + 1 - i);
                        put(&mut g.opposite, here, across);
                    }
                } else if i > n {
                    // Inner hole i = N + j faces the opponent's inner hole 2N + 1 - j.
                    let j = i - n;
                    let across = hole(&g, other, 2 * n + 1 - j);
                    let outer = hole(&g, player, 2 * n + 1 - i);
                    put(&mut g.opposite, here, across);
                    put(&mut g.behind, here, outer);
                } else {
                    let inner = hole(&g, player, 2 * n + 1 - i);
                    put(&mut g.behind, here, inner);
                }
            }
        }
        let [south, north] = &circuits;
        let shared: Vec<Pos> = south.iter().chain(north).copied().collect();
        for ((own, ccw), cw) in circuits.iter().zip(&mut g.ccw).zip(&mut g.cw) {
            let circuit = if rows == 4 { own } else { &shared };
            // Each position with its successor, the last followed by the first.
            let successors = circuit.iter().cycle().skip(1);
            for (&p, &succ) in circuit.iter().zip(successors) {
                put(ccw, p, succ);
                put(cw, succ, p);
            }
        }
        g
    }

    /// A board with no site yet: every table empty, two seats.
    fn blank(rows: u8, holes: u8, per: u8) -> Geometry {
        Geometry {
            rows,
            holes_per_row: holes,
            holes_per_player: per,
            positions: 0,
            seats: 2,
            store: [None; MAX_SEATS],
            owner: [NOBODY; MAX_POSITIONS],
            home: [NOBODY; MAX_POSITIONS],
            number: [0; MAX_POSITIONS],
            seat_number: [0; MAX_POSITIONS],
            hole_of: [[NO_HOLE; MAX_POSITIONS]; 2],
            seat_hole: [[NO_HOLE; MAX_POSITIONS]; MAX_SEATS],
            seat_holes: [0; MAX_SEATS],
            opposite: [NO_HOLE; MAX_POSITIONS],
            behind: [NO_HOLE; MAX_POSITIONS],
            ccw: [[NO_HOLE; MAX_POSITIONS]; MAX_SEATS],
            cw: [[NO_HOLE; MAX_POSITIONS]; MAX_SEATS],
            store_mask: 0,
            holes_mask: [0; MAX_SEATS],
        }
    }

    /// A ring of `holes` holes, `r1..rN` counter-clockwise, each followed by the next and the
    /// last by the first. Until [`Geometry::assign`] gives them out, they are South's.
    fn ring(holes: u8) -> Geometry {
        let n = usize::from(holes).min(MAX_HOLES);
        let mut g = Geometry::blank(1, n as u8, n as u8);
        g.positions = n as u8;
        for (i, p) in (0..n).zip(0u8..) {
            put(&mut g.owner, p, 0);
            put(&mut g.home, p, 0);
            put(&mut g.number, p, (i + 1) as u8);
            put(&mut g.seat_number, p, (i + 1) as u8);
            if let Some(slot) = g.hole_of.get_mut(0).and_then(|row| row.get_mut(i)) {
                *slot = p;
            }
            if let Some(slot) = g.seat_hole.get_mut(0).and_then(|row| row.get_mut(i)) {
                *slot = p;
            }
            g.holes_mask[0] |= bit(p);
            let succ = ((i + 1) % n) as u8;
            for (ccw, cw) in g.ccw.iter_mut().zip(&mut g.cw) {
                put(ccw, p, succ);
                put(cw, succ, p);
            }
        }
        g.seat_holes[0] = n as u8;
        g
    }
}

/// A player's name as text shows it, from the name as a ruleset writes it: `west` → `West`.
pub fn title(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// Sets a table's entry for a position (or a player); an index past the table is ignored.
fn put<T>(table: &mut [T], at: u8, value: T) {
    if let Some(slot) = table.get_mut(usize::from(at)) {
        *slot = value;
    }
}

/// A fact of play that an expression may or may not read; the engine keeps in its positions
/// only the facts the rules read, so that positions that differ in nothing the rules can see
/// compare equal (for the exact detection of endless moves and cycles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    FirstMove,
    TurnSowings,
    ReachedOpponent,
    /// `lap`, the number of the lap sown.
    Lap,
    /// `landed_on`, what the lap's last hole held before its last seed.
    LandedOn,
    /// `move_captures`, the seeds the move has captured so far.
    MoveCaptures,
}

impl BoolX {
    /// The terms of this condition (every node of its tree): the work of evaluating it.
    pub fn size(&self) -> u64 {
        match self {
            BoolX::Not(a) => 1 + a.size(),
            BoolX::And(a, b) | BoolX::Or(a, b) => 1 + a.size() + b.size(),
            BoolX::Int(_, a, b) => 1 + a.size() + b.size(),
            BoolX::In(a, _) => 1 + a.size(),
            BoolX::Player(_, a, b) => 1 + a.size() + b.size(),
            BoolX::Hole(_, a, b) => 1 + a.size() + b.size(),
            BoolX::Own(h)
            | BoolX::IsStore(h)
            | BoolX::Neutral(h)
            | BoolX::IsClosed(h)
            | BoolX::Claimed(h) => 1 + h.size(),
            BoolX::VarOf(_, p) => 1 + p.size(),
            BoolX::Dir(_, a, b) => 1 + a.size() + b.size(),
            BoolX::Holds(_, set, body) => 1 + set.size() + AGGREGATE_HOLES * body.size(),
            BoolX::InSet(h, set) => 1 + h.size() + set.size(),
            BoolX::Const(_)
            | BoolX::LastSeed
            | BoolX::FirstMove
            | BoolX::ReachedOpponent
            | BoolX::Resowing
            | BoolX::PieceDropped
            | BoolX::Var(_) => 1,
        }
    }

    /// Whether this condition reads `fact`.
    pub fn reads(&self, fact: Fact) -> bool {
        match self {
            BoolX::FirstMove => fact == Fact::FirstMove,
            BoolX::ReachedOpponent => fact == Fact::ReachedOpponent,
            BoolX::Not(a) => a.reads(fact),
            BoolX::And(a, b) | BoolX::Or(a, b) => a.reads(fact) || b.reads(fact),
            BoolX::Int(_, a, b) => a.reads(fact) || b.reads(fact),
            BoolX::In(a, _) => a.reads(fact),
            BoolX::Player(_, a, b) => a.reads(fact) || b.reads(fact),
            BoolX::Hole(_, a, b) => a.reads(fact) || b.reads(fact),
            BoolX::Own(h)
            | BoolX::IsStore(h)
            | BoolX::Neutral(h)
            | BoolX::IsClosed(h)
            | BoolX::Claimed(h) => h.reads(fact),
            BoolX::VarOf(_, p) => p.reads(fact),
            BoolX::Dir(_, a, b) => a.reads(fact) || b.reads(fact),
            BoolX::Holds(_, set, body) => set.reads(fact) || body.reads(fact),
            BoolX::InSet(h, set) => h.reads(fact) || set.reads(fact),
            BoolX::Const(_)
            | BoolX::LastSeed
            | BoolX::Resowing
            | BoolX::PieceDropped
            | BoolX::Var(_) => false,
        }
    }
}

impl IntX {
    fn size(&self) -> u64 {
        match self {
            IntX::Seeds(h) | IntX::Number(h) | IntX::Pieces(h) => 1 + h.size(),
            IntX::Store(p) | IntX::RowSeeds(p) | IntX::MaxSeeds(p) | IntX::PiecesHeld(p) => {
                1 + p.size()
            }
            IntX::Neg(a) => 1 + a.size(),
            IntX::Arith(_, a, b) => 1 + a.size() + b.size(),
            IntX::VarOf(_, p) => 1 + p.size(),
            IntX::Over(_, set, body) => 1 + set.size() + AGGREGATE_HOLES * body.size(),
            IntX::Count(set, body) => 1 + set.size() + AGGREGATE_HOLES * body.size(),
            IntX::If(c, a, b) => 1 + c.size() + a.size().max(b.size()),
            IntX::Const(_)
            | IntX::BoardSeeds
            | IntX::HolesPerRow
            | IntX::MoveCaptures
            | IntX::TurnSowings
            | IntX::Hand
            | IntX::Lap
            | IntX::Entered
            | IntX::LandedOn
            | IntX::Var(_) => 1,
        }
    }

    fn reads(&self, fact: Fact) -> bool {
        match self {
            IntX::TurnSowings => fact == Fact::TurnSowings,
            IntX::Lap => fact == Fact::Lap,
            IntX::LandedOn => fact == Fact::LandedOn,
            IntX::MoveCaptures => fact == Fact::MoveCaptures,
            IntX::Seeds(h) | IntX::Number(h) | IntX::Pieces(h) => h.reads(fact),
            IntX::Store(p) | IntX::RowSeeds(p) | IntX::MaxSeeds(p) | IntX::PiecesHeld(p) => {
                p.reads(fact)
            }
            IntX::Neg(a) => a.reads(fact),
            IntX::Arith(_, a, b) => a.reads(fact) || b.reads(fact),
            IntX::VarOf(_, p) => p.reads(fact),
            IntX::Over(_, set, body) => set.reads(fact) || body.reads(fact),
            IntX::Count(set, body) => set.reads(fact) || body.reads(fact),
            IntX::If(c, a, b) => c.reads(fact) || a.reads(fact) || b.reads(fact),
            IntX::Const(_)
            | IntX::BoardSeeds
            | IntX::HolesPerRow
            | IntX::Hand
            | IntX::Entered
            | IntX::Var(_) => false,
        }
    }
}

impl HoleX {
    fn size(&self) -> u64 {
        match self {
            HoleX::Next(h) | HoleX::Prev(h) | HoleX::Opposite(h) | HoleX::Behind(h) => 1 + h.size(),
            HoleX::Of(p, n) => 1 + p.size() + n.size(),
            HoleX::Ahead(h, n) => 1 + h.size() + n.size(),
            HoleX::FirstAfter(h, c, _) => 1 + h.size() + AGGREGATE_HOLES * c.size(),
            HoleX::Claim(p) => 1 + p.size(),
            HoleX::If(c, a, b) => 1 + c.size() + a.size().max(b.size()),
            HoleX::Here
            | HoleX::Last
            | HoleX::Origin
            | HoleX::LapOrigin
            | HoleX::Bound
            | HoleX::Chosen
            | HoleX::At(_) => 1,
        }
    }

    fn reads(&self, fact: Fact) -> bool {
        match self {
            HoleX::Next(h) | HoleX::Prev(h) | HoleX::Opposite(h) | HoleX::Behind(h) => {
                h.reads(fact)
            }
            HoleX::Of(p, n) => p.reads(fact) || n.reads(fact),
            HoleX::Ahead(h, n) => h.reads(fact) || n.reads(fact),
            HoleX::FirstAfter(h, c, _) => h.reads(fact) || c.reads(fact),
            HoleX::Claim(p) => p.reads(fact),
            HoleX::If(c, a, b) => c.reads(fact) || a.reads(fact) || b.reads(fact),
            HoleX::Here
            | HoleX::Last
            | HoleX::Origin
            | HoleX::LapOrigin
            | HoleX::Bound
            | HoleX::Chosen
            | HoleX::At(_) => false,
        }
    }
}

impl DirX {
    fn size(&self) -> u64 {
        match self {
            DirX::VarOf(_, p) => 1 + p.size(),
            DirX::If(c, a, b) => 1 + c.size() + a.size().max(b.size()),
            DirX::Move | DirX::Const(_) | DirX::Var(_) => 1,
        }
    }

    fn reads(&self, fact: Fact) -> bool {
        match self {
            DirX::VarOf(_, p) => p.reads(fact),
            DirX::If(c, a, b) => c.reads(fact) || a.reads(fact) || b.reads(fact),
            DirX::Move | DirX::Const(_) | DirX::Var(_) => false,
        }
    }
}

impl PlayerX {
    fn size(&self) -> u64 {
        match self {
            PlayerX::Owner(h) => 1 + h.size(),
            PlayerX::If(c, a, b) => 1 + c.size() + a.size().max(b.size()),
            PlayerX::Mover
            | PlayerX::Opponent
            | PlayerX::Starter
            | PlayerX::RoundWinner
            | PlayerX::Fixed(_) => 1,
        }
    }

    fn reads(&self, fact: Fact) -> bool {
        match self {
            PlayerX::Owner(h) => h.reads(fact),
            PlayerX::If(c, a, b) => c.reads(fact) || a.reads(fact) || b.reads(fact),
            PlayerX::Mover
            | PlayerX::Opponent
            | PlayerX::Starter
            | PlayerX::RoundWinner
            | PlayerX::Fixed(_) => false,
        }
    }
}

impl Rules {
    /// Whether any condition read during a move or at its end (captures, relay, skips,
    /// redirects, effects) reads `fact`.
    pub fn move_reads(&self, fact: Fact) -> bool {
        (self.relay.as_ref())
            .is_some_and(|r| r.when.reads(fact) || r.hole.as_ref().is_some_and(|h| h.reads(fact)))
            || self.skips.iter().any(|k| k.when.reads(fact))
            || self.redirects.iter().any(|r| {
                r.when.reads(fact)
                    || match &r.to {
                        RedirectDest::Removed => false,
                        RedirectDest::Hole(h) => h.reads(fact),
                        RedirectDest::Player(p) => p.reads(fact),
                    }
            })
            || (self.drop_effects.iter())
                .chain(&self.lap_effects)
                .chain(&self.move_effects)
                .chain(&self.put_effects)
                .chain(&self.pick_effects)
                .chain(&self.round_effects)
                .chain(&self.start_effects)
                .any(|e| e.when.reads(fact))
            || self
                .drop_captures
                .iter()
                .chain(&self.lap_captures)
                .chain(&self.move_captures)
                .chain(&self.put_captures)
                .chain(&self.pick_captures)
                // Every expression of the clause: each can change what the move does next.
                .any(|c| c.reads(fact))
    }

    /// Whether any condition at all reads `fact`.
    pub fn reads(&self, fact: Fact) -> bool {
        self.move_reads(fact)
            || self.legal.iter().any(|l| {
                l.when.reads(fact)
                    || l.require.reads(fact)
                    || l.require_after.as_ref().is_some_and(|x| x.reads(fact))
            })
            || self.prefer.iter().any(|p| {
                p.when.reads(fact)
                    || p.holds.reads(fact)
                    || p.holds_after.as_ref().is_some_and(|x| x.reads(fact))
            })
            || self.extra_turns.iter().any(|x| x.when.reads(fact))
            || (self.arrange.as_ref())
                .is_some_and(|a| a.put.reads(fact) || a.pick.reads(fact) || a.done.reads(fact))
            || self.end_when.iter().any(|(c, _)| c.reads(fact))
            || self.end_captures.iter().any(|c| c.reads(fact))
            || (self.rounds.as_ref())
                .and_then(|r| r.match_ends.as_ref())
                .is_some_and(|c| c.reads(fact))
    }
}

//! Pieces unlike seeds (`[pieces]`): each player's piece, where it is, who holds it, and how
//! deep it lies in its hole.
//!
//! A piece on the board is counted in its hole as a seed, so every test of an empty hole, every
//! lift and every count of a row treats it as one. What a seed count cannot say is kept in slots
//! of the position's variables, after the ruleset's own, one a player: the history compares and
//! records only the slots a ruleset uses, so rules without pieces carry none and pay nothing for
//! them (a field of its own would be copied and compared at every ply of every game).

use super::Position;
use crate::rules::{NO_HOLE, NOBODY, Player, Pos};

/// Where a piece is while it is in the hand of a lap being sown: never a position of the
/// board, and never left there once the lap ends.
pub(crate) const IN_HAND: Pos = NO_HOLE - 1;

/// A piece unlike a seed: where it is, who holds it, and how deep it lies in its hole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The hole it is in, [`NO_HOLE`] while a player holds it off the board, or
    /// [`IN_HAND`] while a lap sows it.
    pub at: Pos,
    /// The player holding it: the one who put it on the board, or who took it since.
    pub holder: Player,
    /// Under the sown order `"stack"`: the seeds and pieces dropped on it since it came into
    /// its hole, which are sown before it when the hole is lifted (always fewer than the hole
    /// holds). In the hand of a lap: the seeds in hand just before it falls. 0 otherwise.
    pub covered: u16,
}

impl Piece {
    /// A piece its holder holds off the board.
    pub fn held_by(holder: Player) -> Piece {
        Piece {
            at: NO_HOLE,
            holder,
            covered: 0,
        }
    }

    /// The piece a variable slot holds: where, by whom, how deep, a field each.
    fn of(word: i32) -> Piece {
        let word = word as u32;
        Piece {
            at: (word & 0xff) as Pos,
            holder: ((word >> 8) & 0xff) as Player,
            covered: (word >> 16) as u16,
        }
    }

    /// The slot's word for this piece.
    fn word(self) -> i32 {
        (u32::from(self.at) | u32::from(self.holder) << 8 | u32::from(self.covered) << 16) as i32
    }
}

/// Where positions keep a ruleset's pieces: the first variable slot, and how many (one a
/// player; 0 for rules without pieces). The rules' to say ([`crate::rules::Rules::piece_slots`]),
/// not the position's, so that a position is no larger for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pieces {
    base: u8,
    count: u8,
}

impl Pieces {
    /// No pieces.
    pub const NONE: Pieces = Pieces { base: 0, count: 0 };

    /// `count` pieces, one a player, in the slots from `base`.
    pub fn new(base: u8, count: u8) -> Pieces {
        Pieces { base, count }
    }

    /// How many pieces the game has.
    pub fn count(self) -> u8 {
        self.count
    }

    /// The piece of player `owner` (its first owner), if the game has one.
    #[inline]
    pub fn get(self, pos: &Position, owner: Player) -> Option<Piece> {
        if owner >= self.count {
            return None;
        }
        let slot = usize::from(self.base) + usize::from(owner);
        pos.vars.get(slot).map(|&w| Piece::of(w))
    }

    /// Puts `piece` in the slot of player `owner`'s piece.
    #[inline]
    pub fn set(self, pos: &mut Position, owner: Player, piece: Piece) {
        if owner >= self.count {
            return;
        }
        let slot = usize::from(self.base) + usize::from(owner);
        if let Some(w) = pos.vars.get_mut(slot) {
            *w = piece.word();
        }
    }

    /// Every piece, by its first owner.
    pub fn all(self, pos: &Position) -> impl Iterator<Item = (Player, Piece)> + '_ {
        (0..self.count).filter_map(move |p| self.get(pos, p).map(|piece| (p, piece)))
    }

    /// Each player holds their own piece, off the board (the start of a game).
    pub fn start(self, pos: &mut Position) {
        for p in 0..self.count {
            self.set(pos, p, Piece::held_by(p));
        }
    }

    /// The pieces in hole `h`.
    #[inline]
    pub fn in_hole(self, pos: &Position, h: Pos) -> u16 {
        if h == NO_HOLE {
            return 0;
        }
        self.all(pos).filter(|(_, p)| p.at == h).count() as u16
    }

    /// The pieces player `p` holds off the board.
    pub fn held_by(self, pos: &Position, p: Player) -> u16 {
        let held = |(_, x): &(Player, Piece)| x.at == NO_HOLE && x.holder == p;
        self.all(pos).filter(held).count() as u16
    }

    /// The pieces on the board (or in the hand of a lap), which its counts include.
    pub fn on_board(self, pos: &Position) -> u32 {
        self.all(pos).filter(|(_, p)| p.at != NO_HOLE).count() as u32
    }

    /// Sends the pieces in hole `h` to player `to`'s hand ([`NOBODY`]: back to their
    /// holder's), but the piece of player `kept` (the one just dropped, for `keep =
    /// "dropped"`; [`NOBODY`] for none); the hole's count is left to the caller, which moves
    /// the seeds. Returns how many went. Every place that takes the seeds of a hole calls it,
    /// so that a piece goes where its hole's seeds go.
    pub fn out(self, pos: &mut Position, h: Pos, to: Player, kept: Player) -> u16 {
        let mut n = 0;
        for owner in 0..self.count {
            let Some(piece) = self.get(pos, owner) else {
                continue;
            };
            if piece.at != h || h == NO_HOLE || owner == kept {
                continue;
            }
            let holder = if to == NOBODY { piece.holder } else { to };
            self.set(pos, owner, Piece::held_by(holder));
            n += 1;
        }
        n
    }
}

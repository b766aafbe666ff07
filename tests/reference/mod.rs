//! Hand-written models of six games, written from the rule texts alone and sharing no code
//! with the `sow` engine. They are the oracle of the differential tests and the native
//! baselines of the benchmarks.
#![allow(dead_code)]

pub mod ako_okwe;
pub mod kalah;
pub mod oware;
pub mod raja_pasu;
pub mod sadeqa_ii;
pub mod selus;

/// A player. South moves first unless an option says otherwise.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Side {
    South,
    North,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
    pub fn index(self) -> usize {
        match self {
            Side::South => 0,
            Side::North => 1,
        }
    }
}

/// What the differential test compares after every ply.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Observed {
    /// South's holes s1..sN, left to right as South sees them.
    pub south: Vec<u32>,
    /// North's holes n1..nN, left to right as North sees them.
    pub north: Vec<u32>,
    /// Seeds each player holds off the track or in their store: [South, North].
    pub captured: [u32; 2],
    /// Closed holes, same order as `south` / `north` (all false for games without closing).
    pub closed_south: Vec<bool>,
    pub closed_north: Vec<bool>,
    /// The player to move, None once the game (or match) is over.
    pub to_move: Option<Side>,
}

/// The result of a finished game or match.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    Winner(Side),
    Draw,
}

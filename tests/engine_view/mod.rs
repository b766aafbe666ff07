//! The engine's game as the reference models report theirs ([`Observed`]), for the
//! differential tests: one reading of the engine, so that every test compares the same
//! things.
#![allow(dead_code)]

use sow::engine::{Game, Status};

use crate::reference::{Observed, Outcome, Side};

/// The engine's player as the models name it.
pub fn side(p: u8) -> Side {
    if p == 0 { Side::South } else { Side::North }
}

/// Each player's holes in their own numbering, the closed ones, and the player to move, read
/// from the engine; `captured` is what each player holds, as the model counts it.
pub fn observed(game: &Game, captured: [u32; 2]) -> Observed {
    let rules = game.rules();
    let g = &rules.geometry;
    let pos = game.position();
    let seeds = |p: u8| g.holes_of(p).map(|h| u32::from(pos.seeds(h))).collect();
    let closed = |p: u8| g.holes_of(p).map(|h| pos.closed & (1 << h) != 0).collect();
    Observed {
        south: seeds(0),
        north: seeds(1),
        captured,
        closed_south: closed(0),
        closed_north: closed(1),
        to_move: game.to_move().map(side),
    }
}

/// What each player holds in the engine (store or reserve).
pub fn held(game: &Game) -> [u32; 2] {
    [0, 1].map(|p| game.position().held(game.rules(), p))
}

/// The result once the game is over (none while it is played, or stopped by a limit).
pub fn outcome(game: &Game) -> Option<Outcome> {
    match game.status() {
        Status::Playing | Status::Stopped { .. } => None,
        Status::Over { winner: None } => Some(Outcome::Draw),
        Status::Over { winner: Some(p) } => Some(Outcome::Winner(side(p))),
    }
}

/// A shipped ruleset with these option values, for the differential tests.
pub fn load_shipped(name: &str, options: &[(&str, &str)]) -> std::sync::Arc<sow::rules::Rules> {
    let text = sow::catalog::shipped(name).expect("shipped ruleset");
    let overrides: Vec<(String, String)> = options
        .iter()
        .map(|&(k, v)| (k.to_string(), v.to_string()))
        .collect();
    match sow::check::load(text, &overrides) {
        Ok(loaded) => std::sync::Arc::new(loaded.rules),
        Err(d) => panic!("{name} {options:?} does not load: {d:?}"),
    }
}

/// Every combination of the ruleset's option values, each as a list of (option, value) pairs
/// in the order the options are declared.
pub fn option_mixes(rules: &sow::rules::Rules) -> Vec<Vec<(&str, &str)>> {
    let mut mixes: Vec<Vec<(&str, &str)>> = vec![Vec::new()];
    for option in &rules.options {
        mixes = mixes
            .iter()
            .flat_map(|mix| {
                option.values.iter().map(move |value| {
                    let mut mix = mix.clone();
                    mix.push((option.name.as_str(), value.as_str()));
                    mix
                })
            })
            .collect();
    }
    mixes
}

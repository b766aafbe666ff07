//! Positions round-trip: every position sow prints reads back, with
//! `sow::notation::parse_position`, as the same position. The positions are taken from
//! seeded random games of every shipped ruleset, under every value of each of its options.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::engine::{Game, Offer, Position, Status};
use sow::notation::parse_position;
use sow::render::notation;
use sow::rules::{NO_HOLE, Rules};

/// Games played per ruleset and option value.
const GAMES: u64 = 40;

/// Plies looked at per game: enough to reach rounds, refills, claims and closed holes, and it
/// keeps the test short under options with no cycle rule, whose random games can run to the
/// ply limit.
const PLIES: u32 = 2_000;

/// The position as the notation writes it: the player to move after the rest, as
/// `sow play --record` and `sow replay` print it.
fn printed(rules: &Rules, pos: &Position) -> String {
    let side = rules.player_key(pos.to_move);
    format!("{} {side}", notation(rules, pos))
}

/// What a set-up position is: mid-game (both players have moved) at the start of a turn.
fn as_set_up(pos: &Position) -> Position {
    let mut set_up = *pos;
    set_up.moved = 0b11;
    set_up.turn_sowings = 0;
    set_up
}

/// The option settings to play under: the defaults, then each other value of each option.
fn settings(text: &str) -> Vec<Vec<(String, String)>> {
    let loaded = sow::check::load(text, &[]).expect("a shipped ruleset loads");
    let mut out = vec![Vec::new()];
    for o in &loaded.rules.options {
        for v in o.values.iter().filter(|v| **v != o.default) {
            out.push(vec![(o.name.clone(), v.clone())]);
        }
    }
    out
}

#[test]
fn printed_positions_read_back_the_same() {
    let (mut checked, mut removed, mut claimed, mut closed) = (0u64, 0u64, 0u64, 0u64);
    let (mut stopped, mut arranging) = (0u64, 0u64);
    // The shipped rulesets, and one whose moves stop for the mover's decision.
    let optional = (
        "optional capture",
        include_str!("scenarios/rulesets/optional_capture.toml"),
    );
    for &(name, text) in sow::catalog::SHIPPED.iter().chain([&optional]) {
        for options in settings(text) {
            let loaded =
                sow::check::load(text, &options).unwrap_or_else(|d| panic!("{name}: {d:?}"));
            let rules = Arc::new(loaded.rules);
            let mut game = Game::new(rules.clone());
            for seed in 0..GAMES {
                game.restart();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..PLIES {
                    let pos = *game.position();
                    let text = printed(&rules, &pos);
                    let back = parse_position(&rules, &text).unwrap_or_else(|e| {
                        panic!("{name} {options:?} seed {seed}: `{text}` does not read back: {e}")
                    });
                    assert_eq!(
                        back,
                        as_set_up(&pos),
                        "{name} {options:?} seed {seed}: `{text}` reads back as another position"
                    );
                    assert_eq!(printed(&rules, &back), text, "{name}: printed again");
                    checked += 1;
                    removed += u64::from(pos.taken.iter().any(|&t| t != 0));
                    claimed += u64::from(pos.claims.iter().any(|&c| c != NO_HOLE));
                    closed += u64::from(pos.closed != 0);
                    stopped += u64::from(pos.offer.stopped().is_some());
                    arranging += u64::from(matches!(pos.offer, Offer::Arrange { .. }));
                    if game.status() != Status::Playing {
                        break;
                    }
                    let moves = game.legal_moves();
                    let Some(hole) = moves.get(rng.random_range(0..moves.len().max(1))) else {
                        break;
                    };
                    game.play(hole, &mut ())
                        .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                }
            }
        }
    }
    eprintln!(
        "{checked} positions read back; {removed} with seeds removed, {claimed} with a claimed \
         hole, {closed} with closed holes, {stopped} with a move stopped for a decision, \
         {arranging} in an arrangement before play (Makonn's)"
    );
    // The test covers the optional parts of the notation, not only the rows.
    assert!(removed > 0 && claimed > 0 && closed > 0 && stopped > 0 && arranging > 0);
}

//! The first-lap legality of the shipped Dabuda ruleset (its DB-4, written as arithmetic on the
//! hole played) against the rule itself, played out seed by seed here: on random mid-game
//! positions, the legal moves are exactly the holes whose first lap drops its last seed into an
//! empty hole or on the opponent's side (`first_lap = lands`), or whose first lap reaches the
//! opponent's row or ends in an empty hole (`first_lap = reaches`).

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::engine::Game;
use sow::notation::parse_position;

const HOLES: usize = 10;

/// Sows the first lap from South's hole `i` (0-based) on a board of 20 holes in
/// counter-clockwise order (South's 0..9, then North's), and says where its last seed fell,
/// whether that hole was empty just before, and whether the lap reached North's row.
fn first_lap(board: &[u32; 2 * HOLES], i: usize) -> (usize, bool, bool) {
    let mut b = *board;
    let mut n = std::mem::take(&mut b[i]);
    let (mut at, mut reached) = (i, false);
    loop {
        at = (at + 1) % (2 * HOLES);
        reached |= at >= HOLES;
        n -= 1;
        if n == 0 {
            return (at, b[at] == 0, reached);
        }
        b[at] += 1;
    }
}

fn check(option: &str) {
    let source = sow::catalog::shipped("dabuda").expect("shipped");
    let overrides = [("first_lap".to_string(), option.to_string())];
    let rules = Arc::new(sow::check::load(source, &overrides).expect("loads").rules);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut tried = 0;
    for _ in 0..3000 {
        let mut board = [0u32; 2 * HOLES];
        // Mostly small counts, now and then a hole of 18 to 25 that comes round the board.
        for h in &mut board {
            *h = match rng.random_range(0..10) {
                0..=3 => 0,
                9 => rng.random_range(18..26),
                _ => rng.random_range(1..5),
            };
        }
        // The game has 80 seeds: the ones not on the board are in South's reserve.
        let Some(held) = 80u32.checked_sub(board.iter().sum()) else {
            continue;
        };
        let row = |r: &[u32]| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        let text = format!(
            "S[{}] N[{}] S*={held} N*=0 south",
            row(&board[..HOLES]),
            row(&board[HOLES..])
        );
        let pos = parse_position(&rules, &text).expect("position");
        let game = Game::from_position(rules.clone(), pos);
        let legal: Vec<String> = game
            .legal_moves()
            .iter()
            .map(|m| m.label(&rules))
            .collect();
        let expected: Vec<String> = (0..HOLES)
            .filter(|&i| board[i] > 0)
            .filter(|&i| {
                let (at, empty, reached) = first_lap(&board, i);
                match option {
                    "lands" => empty || at >= HOLES,
                    _ => empty || reached,
                }
            })
            .map(|i| format!("s{}", i + 1))
            .collect();
        assert_eq!(legal, expected, "{text}, first_lap = {option}");
        tried += 1;
    }
    assert!(tried > 1000, "only {tried} positions tried");
}

#[test]
fn lands() {
    check("lands");
}

#[test]
fn reaches() {
    check("reaches");
}

//! Two computer players meet over a series of games, changing sides every game, with the sow
//! library alone:
//!
//! ```sh
//! cargo run --release --example duel -- kalah alphabeta:depth=6 greedy 20
//! cargo run --release --example duel -- rulesets/oware.toml mcts:playouts=500 random
//! ```
//!
//! Arguments: a ruleset (a shipped name or a path), two players (as `sow play` names them),
//! then optionally the number of games (10) and the first seed (1). Game `i` is played with
//! the seed `first + i`, so every game can be played again.

use std::process::ExitCode;
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sow::engine::{Game, Status};
use sow::players::{Bot, Computer};

fn main() -> ExitCode {
    match duel(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn duel(args: Vec<String>) -> Result<(), String> {
    let [ruleset, first, second, rest @ ..] = args.as_slice() else {
        return Err("usage: duel RULESET PLAYER PLAYER [GAMES] [SEED]".into());
    };
    let number = |i: usize, default: u64| -> Result<u64, String> {
        rest.get(i).map_or(Ok(default), |s| {
            s.parse()
                .map_err(|_| format!("`{s}` is not a whole number"))
        })
    };
    let (games, seed) = (number(0, 10)?, number(1, 1)?);
    let text = match sow::catalog::shipped(ruleset) {
        Some(text) => text.to_string(),
        None => std::fs::read_to_string(ruleset).map_err(|e| format!("{ruleset}: {e}"))?,
    };
    let rules = match sow::check::load(&text, &[]) {
        Ok(loaded) => Arc::new(loaded.rules),
        Err(problems) => {
            let first = problems
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_default();
            return Err(format!(
                "{ruleset} does not check: {first} (see `sow check`)"
            ));
        }
    };
    let bots: [Bot; 2] = [first.parse(), second.parse()]
        .into_iter()
        .collect::<Result<Vec<Bot>, _>>()
        .map_err(|e| e.to_string())?
        .try_into()
        .map_err(|_| "two players".to_string())?;
    let mut players = bots.map(Computer::new);
    let mut wins = [0u32; 2];
    let mut draws = 0;
    for i in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + i);
        let mut game = Game::new(rules.clone());
        // The first player plays South in even games, North in odd ones.
        let south = (i % 2) as usize;
        while let Some(mover) = game.to_move() {
            let who = south ^ usize::from(mover);
            let Some(choice) = players.get_mut(who).and_then(|p| p.choose(&game, &mut rng)) else {
                break;
            };
            game.play(choice.mv, &mut ())
                .map_err(|e| format!("a player chose an illegal move: {e}"))?;
        }
        let result = match game.status() {
            Status::Over { winner: Some(w) } => {
                let who = south ^ usize::from(w);
                if let Some(n) = wins.get_mut(who) {
                    *n += 1;
                }
                format!(
                    "{} wins",
                    bots.get(who).map(|b| b.to_string()).unwrap_or_default()
                )
            }
            Status::Over { winner: None } => {
                draws += 1;
                "draw".to_string()
            }
            Status::Stopped { .. } | Status::Playing => "no result".to_string(),
        };
        println!(
            "game {i} (seed {}): {result} after {} plies",
            seed + i,
            game.ply()
        );
    }
    println!(
        "{}: {} wins, {}: {} wins, {draws} draws",
        bots[0], wins[0], bots[1], wins[1]
    );
    Ok(())
}

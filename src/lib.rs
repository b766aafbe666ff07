//! sow: mancala rules as data.
//!
//! The pipeline, one module per stage:
//! ruleset text ([`ruleset`]) → expressions ([`expr`]) → checked, compiled rules ([`check`],
//! [`rules`]) → the generic [`engine`] → [`trace`] events → [`render`]ing as text or JSON.
//! Computer players, from random to alpha-beta and Monte Carlo tree search, are in
//! [`players`].
//!
//! # A game from a ruleset
//!
//! Load a ruleset (a shipped one by name, or any ruleset's TOML text), list the legal moves,
//! play, look ahead on a copy, ask a search player for a move, and play to the end:
//!
//! ```
//! use std::sync::Arc;
//!
//! use rand::SeedableRng;
//! use rand_chacha::ChaCha8Rng;
//! use sow::engine::{Game, Status};
//! use sow::players::{Bot, Computer, Score};
//!
//! // Kalah with five seeds a hole: options are chosen as `--option` chooses them.
//! let text = sow::catalog::shipped("kalah").expect("a shipped ruleset");
//! let options = [("seeds".to_string(), "5".to_string())];
//! let loaded = sow::check::load(text, &options).expect("the ruleset checks");
//! let rules = Arc::new(loaded.rules);
//! let mut game = Game::new(rules.clone());
//!
//! // A move is a hole (with its direction, where the mover chooses it, or a pass, where the
//! // rules allow it); its label is the notation people write (`s3`: South's third hole).
//! let labels: Vec<String> = game.legal_moves().iter().map(|m| m.label(&rules)).collect();
//! assert_eq!(labels, ["s1", "s2", "s3", "s4", "s5", "s6"]);
//!
//! // Sowing s2's five seeds ends in South's store: South moves again. `()` takes no trace;
//! // a `Vec<sow::trace::Event>` would collect every lift, drop and capture.
//! let s2 = sow::notation::parse_move(&rules, 0, "s2").expect("a hole");
//! let report = game.play(s2, &mut ()).expect("a legal move");
//! assert!(report.extra_turn);
//! assert_eq!(game.to_move(), Some(0));
//! assert_eq!(game.position().held(&rules, 0), 1);
//! assert_eq!(sow::render::notation(&rules, game.position()), "S[5 0 6 6 6 6] N[5 5 5 5 5 5] S*=1 N*=0");
//!
//! // A copy is a game of its own: trying a move on it leaves the game as it was.
//! let mut copy = game.clone();
//! copy.play(game.legal_moves().get(0).expect("a move"), &mut ()).expect("legal");
//! assert_eq!(game.ply(), 1);
//! assert_eq!(copy.ply(), 2);
//!
//! // A search player: alpha-beta, six plies deep. Its score is from the mover's side.
//! let mut south = Computer::new("alphabeta:depth=6".parse::<Bot>().expect("a player"));
//! let mut north = Computer::new(Bot::Greedy);
//! let mut rng = ChaCha8Rng::seed_from_u64(7);
//! let choice = south.choose(&game, &mut rng).expect("the game goes on");
//! assert!(game.legal_moves().contains(choice.mv));
//! assert!(matches!(choice.score, Some(Score::Seeds(_) | Score::WinIn(_) | Score::LossIn(_))));
//!
//! // Play the game out, each side choosing in turn (extra turns included).
//! while let Some(mover) = game.to_move() {
//!     let player = if mover == 0 { &mut south } else { &mut north };
//!     let choice = player.choose(&game, &mut rng).expect("a move");
//!     game.play(choice.mv, &mut ()).expect("a legal move");
//! }
//! assert!(matches!(game.status(), Status::Over { .. }));
//! ```
//!
//! Rulesets, records and set-up positions are user input, and the engine runs on what they
//! say: no `unwrap`, `expect` or indexing that could panic, anywhere in the library (unit tests
//! excepted). The lints below keep it so, in every module, new ones included.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

pub mod catalog;
pub mod check;
pub mod diagnostic;
pub mod engine;
pub mod explain;
pub mod expr;
pub mod lsp;
pub mod notation;
pub mod picture;
pub mod players;
pub mod record;
pub mod render;
pub mod rules;
pub mod ruleset;
pub mod schema;
pub mod trace;

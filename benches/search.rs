//! Speed of the search players, in nodes (moves played) per second.
//!
//! For each of Raja Pasu, Sadeqa II, Kalah and Oware, and the scenarios' small board of
//! choices (the mover chooses each move's direction, and passes when they cannot sow), from
//! positions reached by a few random plies from the start (the same positions every run):
//! - `<game>/alphabeta`: one alpha-beta search to a fixed depth; the throughput is nodes;
//! - `<game>/mcts`: one UCT search of 200 playouts; the throughput is playouts;
//! - `<game>/hash`: the position hash alone, once per node of a search, to show its share.
//!
//! A search's work depends only on the position and the budget, so every iteration searches
//! the same nodes and criterion's throughput is exact. `cargo bench --bench search` runs it.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use sow::engine::Game;
use sow::players::model::Model;
use sow::players::{AlphaBeta, Budget, Mcts};

/// The rulesets, with the alpha-beta depth searched in each (tens of thousands of nodes over
/// the positions).
const GAMES: [(&str, u32); 5] = [
    ("raja_pasu", 8),
    ("sadeqa_ii", 11),
    ("kalah", 9),
    ("oware", 8),
    ("choices", 9),
];

/// The ruleset of a name: a shipped one, or the scenarios' board of choices.
fn ruleset(name: &str) -> &'static str {
    match name {
        "choices" => include_str!("../tests/scenarios/rulesets/choices.toml"),
        _ => sow::catalog::shipped(name).expect("a shipped ruleset"),
    }
}

/// Random plies played from the start to reach the positions searched.
const OPENINGS: [u32; 3] = [0, 6, 12];

fn positions(name: &str) -> Vec<Game> {
    let rules = Arc::new(
        sow::check::load(ruleset(name), &[])
            .expect("it loads")
            .rules,
    );
    let mut out = Vec::new();
    for (i, &plies) in OPENINGS.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
        let mut game = Game::new(rules.clone());
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let h = moves.get(rng.random_range(0..moves.len())).expect("a move");
            game.play(h, &mut ()).expect("a legal move");
        }
        if !game.is_over() {
            out.push(game);
        }
    }
    out
}

fn search(c: &mut Criterion) {
    for (name, depth) in GAMES {
        let games = positions(name);
        let budget = Budget { depth, nodes: None };
        let mut ab = AlphaBeta::<Game>::new(budget);
        let nodes: u64 = games
            .iter()
            .map(|g| {
                let mut rng = ChaCha8Rng::seed_from_u64(0);
                ab.search(g, &mut rng).map_or(0, |f| f.nodes)
            })
            .sum();
        let mut group = c.benchmark_group(name);
        group.sample_size(20);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function("alphabeta", |b| {
            b.iter(|| {
                for g in &games {
                    let mut rng = ChaCha8Rng::seed_from_u64(0);
                    black_box(ab.search(g, &mut rng));
                }
            })
        });
        group.bench_function("hash", |b| {
            // As many hashes as the search has nodes, over its positions.
            let per = nodes / games.len().max(1) as u64;
            b.iter(|| {
                for g in &games {
                    for _ in 0..per {
                        black_box(black_box(g).hash());
                    }
                }
            })
        });
        let playouts = 200;
        let mut mcts = Mcts::<Game>::new(playouts);
        group.throughput(Throughput::Elements(
            u64::from(playouts) * games.len() as u64,
        ));
        group.bench_function("mcts", |b| {
            b.iter(|| {
                for g in &games {
                    let mut rng = ChaCha8Rng::seed_from_u64(0);
                    black_box(mcts.search(g, &mut rng));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, search);
criterion_main!(benches);

//! Every shipped ruleset loads without warnings and plays 1,000 seeded random games to the
//! end: no error, seeds conserved after every ply, endless moves and cycles resolved.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::engine::{Game, Status};

#[test]
fn every_shipped_ruleset_plays_a_thousand_random_games() {
    for (name, text) in sow::catalog::SHIPPED {
        let loaded = sow::check::load(text, &[]).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        assert!(loaded.warnings.is_empty(), "{name}: {:?}", loaded.warnings);
        let rules = Arc::new(loaded.rules);
        let mut game = Game::new(rules.clone());
        let (mut endless, mut cycles, mut plies) = (0u32, 0u32, 0u64);
        for seed in 0..1000u64 {
            game.restart();
            let total = rules.seeds_in(game.position());
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while game.status() == Status::Playing {
                let moves = game.legal_moves();
                assert!(
                    !moves.is_empty(),
                    "{name} seed {seed}: playing but no legal move"
                );
                let hole = moves
                    .get(rng.random_range(0..moves.len()))
                    .expect("a legal move");
                let report = game
                    .play(hole, &mut ())
                    .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                endless += u32::from(report.endless);
                cycles += u32::from(report.cycle);
                plies += 1;
                assert_eq!(
                    rules.seeds_in(game.position()),
                    total,
                    "{name} seed {seed}: seeds lost"
                );
            }
        }
        eprintln!("{name}: 1000 games, {plies} plies, {endless} endless moves, {cycles} cycles");
    }
}

//! Ruleset loading: any text as a ruleset file. Loading must not panic; every diagnostic
//! renders; a ruleset that loads plays a short game (a legal move chosen by ply number)
//! without panicking and conserving seeds.
//! Relaying rulesets are played too: the engine's lap limit bounds every move.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use sow::engine::Game;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match sow::check::load(text, &[]) {
        Err(diags) => {
            assert!(!diags.is_empty(), "a refused ruleset says why");
            for d in &diags {
                let _ = sow::diagnostic::render(d, "fuzz.toml", text);
            }
        }
        Ok(loaded) => {
            let rules = Arc::new(loaded.rules);
            let total = rules.total_seeds();
            let mut game = Game::new(rules);
            for ply in 0..200usize {
                let moves = game.legal_moves();
                let Some(h) = moves.get(ply % moves.len().max(1)) else {
                    break;
                };
                if game.play(h, &mut ()).is_err() {
                    break;
                }
                assert_eq!(game.position().total(), total, "seeds conserved");
            }
        }
    }
});

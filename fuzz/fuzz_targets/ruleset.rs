//! Ruleset loading: any text as a ruleset file. Loading must not panic; every diagnostic
//! renders; a ruleset that loads plays a short game (a legal move chosen by ply number)
//! without panicking, every ply traced into a ledger of the seeds (`sow::trace::Ledger`) that
//! must hold every seed at every event.
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
                let _ = sow::diagnostic::render(d, "fuzz.toml", text, false);
            }
        }
        Ok(loaded) => {
            let rules = Arc::new(loaded.rules);
            let total = rules.total_seeds();
            let mut game = Game::new(rules.clone());
            for ply in 0..200usize {
                let moves = game.legal_moves();
                let Some(h) = moves.get(ply % moves.len().max(1)) else {
                    break;
                };
                let mut ledger = sow::trace::Ledger::new(&rules, game.position());
                if game.play(h, &mut ledger).is_err() {
                    break;
                }
                if let Err(why) = ledger.check(game.position()) {
                    panic!("the trace loses or makes seeds: {why}");
                }
                assert_eq!(rules.seeds_in(game.position()), total, "seeds conserved");
            }
        }
    }
});

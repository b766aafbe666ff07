//! Ruleset loading: any text as a ruleset file. Loading must not panic; every diagnostic
//! renders; a ruleset that loads plays a short game (a legal move chosen by ply number)
//! without panicking and conserving seeds.
//!
//! Rulesets whose moves can have many laps (relays, captured seeds sown again) are loaded but
//! not played: the engine has no lap budget, and a relay that always continues (e.g.
//! `when = 'seeds(last) > 0'`) can run for minutes before its cycle is found, which would
//! stop every run at its first such input (see the hostile-input report).
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
            let many_laps = loaded.rules.relay.is_some()
                || loaded
                    .rules
                    .lap_captures
                    .iter()
                    .any(|c| c.then == sow::ruleset::After::Sow);
            if many_laps {
                return;
            }
            let rules = Arc::new(loaded.rules);
            let total = rules.total_seeds();
            let mut game = Game::new(rules);
            for ply in 0..200usize {
                let moves = game.legal_moves();
                let Some(&h) = moves.as_slice().get(ply % moves.len().max(1)) else {
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

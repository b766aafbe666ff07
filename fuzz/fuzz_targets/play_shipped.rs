//! Arbitrary move sequences on every shipped ruleset. The first byte picks the ruleset and
//! its option values; each further byte is a move: mostly an index into the legal moves, and
//! sometimes a raw position number (often illegal, which must be refused, never panic).
//! Every ply is traced into a ledger of the seeds (`sow::trace::Ledger`): every event must
//! hold every seed and the events must add up to the position the engine leaves. After every
//! ply the seeds are conserved, and a replay of the same moves gives the same position (the
//! engine is deterministic).
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use sow::engine::Game;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, moves)) = data.split_first() else {
        return;
    };
    let shipped = sow::catalog::SHIPPED;
    let Some(&(_, source)) = shipped.get(pick as usize % shipped.len()) else {
        return;
    };
    let Ok(plain) = sow::check::load(source, &[]) else {
        panic!("a shipped ruleset loads");
    };
    // Choose option values from the high bits of the first byte.
    let mut bits = (pick as usize) / shipped.len();
    let overrides: Vec<(String, String)> = plain
        .rules
        .options
        .iter()
        .map(|o| {
            let n = o.values.len().max(1);
            let v = o.values.get(bits % n).cloned().unwrap_or_default();
            bits /= n;
            (o.name.clone(), v)
        })
        .collect();
    let Ok(loaded) = sow::check::load(source, &overrides) else {
        panic!("a shipped ruleset loads with every option value");
    };
    let rules = Arc::new(loaded.rules);
    let total = rules.total_seeds();
    let mut game = Game::new(rules.clone());
    let mut played = Vec::new();
    for &b in moves {
        if game.is_over() {
            assert!(game.play(0, &mut ()).is_err(), "no move after the end");
            break;
        }
        let legal = game.legal_moves();
        let h = if b >= 0xF0 {
            // A raw position: 0..=15, or NO_HOLE-like values (a pass).
            sow::engine::Move::sow(if b == 0xFF { u8::MAX } else { b & 0x3F })
        } else {
            match legal.get(b as usize % legal.len().max(1)) {
                Some(h) => h,
                None => break,
            }
        };
        let mut ledger = sow::trace::Ledger::new(&rules, game.position());
        match game.play(h, &mut ledger) {
            Ok(_) => played.push(h),
            Err(_) => assert!(!legal.contains(h), "a legal move was refused"),
        }
        if let Err(why) = ledger.check(game.position()) {
            panic!("the trace loses or makes seeds: {why}");
        }
        assert_eq!(rules.seeds_in(game.position()), total, "seeds conserved");
    }
    let mut again = Game::new(rules);
    for &h in &played {
        assert!(again.play(h, &mut ()).is_ok(), "replay plays the same moves");
    }
    assert_eq!(again.position(), game.position(), "replay is deterministic");
    assert_eq!(again.status(), game.status());
});

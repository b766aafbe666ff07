//! Game records: any text as a record. Parsing must not panic and every error must point
//! inside the text; a record that parses is replayed as `sow replay` does (shipped rulesets
//! only: the fuzzer must not read files), move by move, until it ends or a move is refused.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use sow::engine::Game;
use sow::notation::{parse_move, parse_position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let record = match sow::record::parse(text) {
        Ok(r) => r,
        Err(diags) => {
            for d in &diags {
                if let Some(s) = &d.span {
                    assert!(s.start <= s.end && s.end <= text.len(), "{d:?}");
                }
                let _ = sow::diagnostic::render(d, "fuzz.sow", text, false);
            }
            return;
        }
    };
    let Some(source) = sow::catalog::shipped(&record.ruleset.text) else {
        return;
    };
    let options: Vec<(String, String)> = record
        .options
        .iter()
        .map(|(n, v)| (n.text.clone(), v.text.clone()))
        .collect();
    let Ok(loaded) = sow::check::load(source, &options) else {
        return;
    };
    let rules = Arc::new(loaded.rules);
    let mut game = match &record.position {
        None => Game::new(rules.clone()),
        Some(p) => match parse_position(&rules, &p.text) {
            Ok(pos) => {
                let total = rules.seeds_in(&pos);
                let g = Game::from_position(rules.clone(), pos);
                assert_eq!(rules.seeds_in(g.position()), total);
                g
            }
            Err(_) => return,
        },
    };
    let total = rules.seeds_in(game.position());
    for m in &record.moves {
        let Some(mover) = game.to_move() else {
            break;
        };
        let Ok(h) = parse_move(&rules, mover, &m.text) else {
            break;
        };
        if game.play(h, &mut Vec::new()).is_err() {
            break;
        }
        assert_eq!(rules.seeds_in(game.position()), total, "seeds conserved");
    }
});

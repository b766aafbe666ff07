//! Moves that stop for the mover's decision (an optional capture) and go on after it: a move
//! that goes on for ever after the decision is found endless exactly, traced or not.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::engine::{Game, Position};
use sow::trace::Event;

/// Relays from every landing hole holding more than one seed, and a capture on offer at the
/// first lap's end only: declined, the move goes on relaying, often for ever.
const RULESET: &str = r#"
format = 1
name = "Stops and endless moves"

[board]
rows = 2
holes = 3
seeds = 3
stores = "reserve"

[sowing]
direction = "ccw"

[sowing.relay]
from = "landing"

[[capture]]
name = "first landing"
at = "lap_end"
when = 'lap == 1 and seeds(last) > 1'
take = ['last']
to = "mover"
then = "end"
optional = true

[end]
no_move = { remaining = "owners", result = "most_seeds" }
endless_move = { remaining = "owners", result = "most_seeds" }
cycle = { remaining = "owners", result = "draw" }
"#;

/// Random set-up positions, each legal move played, and every stop answered both ways: the
/// traced and untraced games agree, and a move that goes on for ever after its stop is cut at
/// its first repeated lap, counted from the move's first lap.
#[test]
fn a_move_endless_after_a_decision_is_found_exactly() {
    let rules = Arc::new(sow::check::load(RULESET, &[]).expect("loads").rules);
    let mut found = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for _ in 0..3000 {
        let mut pos = Position::empty();
        for h in (0..6).map(|h| rules.geometry.holes(h / 3).get(usize::from(h % 3)).copied()) {
            let h = h.expect("a hole");
            pos.set(h, rng.random_range(0..6));
        }
        let start = Game::from_position(rules.clone(), pos);
        for mv in start.legal_moves().iter() {
            let mut stopped = start.clone();
            stopped.play(mv, &mut ()).expect("legal");
            if stopped.position().offer.stopped().is_none() {
                continue;
            }
            for answer in stopped.legal_moves().iter() {
                let (mut traced, mut untraced) = (stopped.clone(), stopped.clone());
                let mut events = Vec::new();
                traced.play(answer, &mut events).expect("legal");
                untraced.play(answer, &mut ()).expect("legal");
                assert_eq!(traced.position(), untraced.position());
                assert_eq!(traced.status(), untraced.status());
                let Some((first, repeat)) = events.iter().find_map(|e| match e {
                    Event::EndlessMove { first, repeat } => Some((*first, *repeat)),
                    _ => None,
                }) else {
                    continue;
                };
                // The laps are counted from the move's first, across the stop.
                let before = stopped.position().offer.stopped().expect("stopped").lap;
                assert!(
                    first > before && repeat > first,
                    "{first} {repeat} after {before}"
                );
                let laps_after = events
                    .iter()
                    .filter(|e| matches!(e, Event::Lift { .. }))
                    .count();
                assert_eq!(repeat as usize, before as usize + laps_after);
                found += 1;
            }
        }
    }
    eprintln!("{found} moves endless after their decision");
    assert!(
        found > 0,
        "some stopped move goes on for ever after its decision"
    );
}

//! Moves that stop for the mover's decision (an optional capture) and go on after it: a move
//! that goes on for ever after the decision is found endless exactly, traced or not.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::engine::{Game, Position};
use sow::rules::Rules;
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

/// A game from a random set-up position of the rulesets here (two rows of three holes): 0 to
/// 5 seeds a hole, South to move.
fn random_start(rules: &Arc<Rules>, rng: &mut ChaCha8Rng) -> Game {
    let mut pos = Position::empty();
    for h in (0..6).map(|h| rules.geometry.holes(h / 3).get(usize::from(h % 3)).copied()) {
        pos.set(h.expect("a hole"), rng.random_range(0..6));
    }
    Game::from_position(rules.clone(), pos)
}

/// Random set-up positions, each legal move played, and every stop answered both ways: the
/// traced and untraced games agree, and a move that goes on for ever after its stop is cut at
/// its first repeated lap, counted from the move's first lap.
#[test]
fn a_move_endless_after_a_decision_is_found_exactly() {
    let rules = Arc::new(sow::check::load(RULESET, &[]).expect("loads").rules);
    let mut found = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for _ in 0..3000 {
        let start = random_start(&rules, &mut rng);
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

/// Relays from every landing hole holding more than one seed, each of which the mover may
/// decline.
const RELAY_ON_OFFER: &str = r#"
format = 1
name = "Relays on offer"

[board]
rows = 2
holes = 3
seeds = 3
stores = "reserve"

[sowing]
direction = "ccw"

[sowing.relay]
from = "landing"
optional = true

[[capture]]
name = "facing"
at = "move_end"
when = 'own(last) and seeds(last) == 1'
take = ['opposite(last)']
to = "mover"

[end]
no_move = { remaining = "owners", result = "most_seeds" }
endless_move = { remaining = "owners", result = "most_seeds" }
cycle = { remaining = "owners", result = "draw" }
"#;

/// Random set-up positions, every legal move played and every relay on offer answered both
/// ways, for as long as the move goes on: traced and untraced play agree; `continue` makes
/// the relay and sows one lap (to the move's end or the next relay on offer), `stop` ends the
/// move where its lap ended, and the move's laps are counted across its stops.
#[test]
fn a_relay_on_offer_goes_on_one_lap_at_a_time() {
    let rules = Arc::new(sow::check::load(RELAY_ON_OFFER, &[]).expect("loads").rules);
    let (mut continued, mut stopped_there) = (0, 0);
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    for _ in 0..500 {
        let start = random_start(&rules, &mut rng);
        let mut games: Vec<Game> = start
            .legal_moves()
            .iter()
            .map(|mv| {
                let mut g = start.clone();
                g.play(mv, &mut ()).expect("legal");
                g
            })
            .collect();
        // Every line of answers, depth first, as long as the move keeps stopping (a line
        // that comes back to a position it met is a cycle, which ends the game).
        while let Some(game) = games.pop() {
            let Some(pending) = game.position().offer.stopped() else {
                continue;
            };
            for answer in game.legal_moves().iter() {
                let (mut traced, mut untraced) = (game.clone(), game.clone());
                let mut events = Vec::new();
                traced.play(answer, &mut events).expect("legal");
                untraced.play(answer, &mut ()).expect("legal");
                assert_eq!(traced.position(), untraced.position());
                assert_eq!(traced.status(), untraced.status());
                let lifts = events
                    .iter()
                    .filter(|e| matches!(e, Event::Lift { .. }))
                    .count();
                match answer.decision.map(|d| d.word()) {
                    Some("continue") => {
                        continued += 1;
                        assert_eq!(lifts, 1, "one lap: {events:?}");
                        if let Some(next) = traced.position().offer.stopped() {
                            assert_eq!(next.lap, pending.lap + 1);
                        }
                        games.push(traced);
                    }
                    Some("stop") => {
                        stopped_there += 1;
                        assert_eq!(lifts, 0);
                        assert!(traced.position().offer.stopped().is_none());
                        assert!(events.iter().any(|e| matches!(
                            e,
                            Event::MoveEnd { laps, last } if *laps == pending.lap && *last == pending.last
                        )));
                    }
                    other => panic!("{other:?} is no answer to a relay on offer"),
                }
            }
        }
    }
    eprintln!("{continued} relays made, {stopped_there} declined");
    assert!(continued > 0 && stopped_there > 0);
}

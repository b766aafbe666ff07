//! The race (`[race]`) through the library: played untraced as traced, the laps it sows
//! counted where the rules cap them, every seed kept.

use std::sync::Arc;

use sow::engine::{Game, Move, Status};
use sow::notation::parse_position;
use sow::rules::Rules;

const RACE: &str = include_str!("scenarios/rulesets/race.toml");
const ENDLESS: &str = include_str!("scenarios/rulesets/race_endless.toml");

fn rules(text: &str) -> Arc<Rules> {
    Arc::new(
        sow::check::load(text, &[])
            .expect("the test ruleset loads")
            .rules,
    )
}

/// Every layout of `seeds` seeds over a 2×4 board's holes, a hole at most `most` each.
fn layouts(seeds: u32, most: u32) -> Vec<[u32; 8]> {
    let mut out = Vec::new();
    let mut holes = [0u32; 8];
    fn fill(k: usize, left: u32, most: u32, holes: &mut [u32; 8], out: &mut Vec<[u32; 8]>) {
        if k == 8 {
            if left == 0 {
                out.push(*holes);
            }
            return;
        }
        for n in 0..=most.min(left) {
            holes[k] = n;
            fill(k + 1, left - n, most, holes, out);
        }
    }
    fill(0, seeds, most, &mut holes, &mut out);
    out
}

#[test]
fn a_race_untraced_ends_where_the_traced_race_does() {
    // The untraced race keeps the state its course was found in; the traced one plays it
    // again: the two must agree, for every setting.
    for options in [
        vec![],
        vec![("unfinished".to_string(), "back".to_string())],
        vec![("ends".to_string(), "all".to_string())],
        vec![("next".to_string(), "after".to_string())],
    ] {
        let r = Arc::new(sow::check::load(RACE, &options).expect("loads").rules);
        for holes in layouts(9, 3).into_iter().step_by(7) {
            let text = format!(
                "S[{} {} {} {}] N[{} {} {} {}] race south",
                holes[0], holes[1], holes[2], holes[3], holes[4], holes[5], holes[6], holes[7]
            );
            let pos = parse_position(&r, &text).expect("a position");
            let (mut quiet, mut traced) = (
                Game::from_position(r.clone(), pos),
                Game::from_position(r.clone(), pos),
            );
            if quiet.is_over() {
                continue;
            }
            quiet.play(Move::RACE, &mut ()).expect("the race is legal");
            let mut events = Vec::new();
            traced
                .play(Move::RACE, &mut events)
                .expect("the race is legal");
            assert_eq!(quiet.position(), traced.position(), "{text} {options:?}");
            assert_eq!(quiet.status(), traced.status(), "{text} {options:?}");
            assert_eq!(r.seeds_in(quiet.position()), 9, "{text}: seeds kept");
        }
    }
}

#[test]
fn a_race_the_lap_cap_ends_is_not_endless() {
    // The endless race of `race_endless`, with the laps capped: each sowing then ends at the
    // cap, and the laps sown tell its states apart, so no repeat is found.
    let position = "S[2 1 5 2 1 0] N[1 0 1 0 1 2] race south";
    let endless = rules(ENDLESS);
    let mut game = Game::from_position(
        endless.clone(),
        parse_position(&endless, position).expect("a position"),
    );
    let report = game.play(Move::RACE, &mut ()).expect("the race is legal");
    assert!(report.endless, "without a cap the race never ends");
    let capped_text = ENDLESS.replace(
        "direction = \"ccw\"\n",
        "direction = \"ccw\"\nmax_laps = 50\n",
    );
    let capped = rules(&capped_text);
    let mut game = Game::from_position(
        capped.clone(),
        parse_position(&capped, position).expect("a position"),
    );
    let report = game.play(Move::RACE, &mut ()).expect("the race is legal");
    assert!(!report.endless, "the cap ends the race's sowing");
    assert_eq!(report.laps, 50, "North's sowing, capped");
    assert_eq!(game.status(), Status::Playing);
    assert_eq!(capped.seeds_in(game.position()), 16, "seeds kept");
}

//! Plays seeded random games on the engine or on a hand-written model and prints the plies, so
//! that callgrind can count the instructions of each side (BENCHMARKS.md, section 5.2).
//! Instruction counts do not move from run to run, as times do on a shared machine.
//!
//! ```sh
//! cargo bench --bench instructions --no-run     # prints the binary's path
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/deps/instructions-<hash> kalah interpreted 200
//! ```
//!
//! Run with `0` games for the cost of starting up (loading and checking the ruleset, for the
//! interpreted side), to subtract. With no arguments (as `cargo bench` runs it), it plays ten
//! games of each side of each game and checks they agree.

mod drive;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use drive::{
    AkoOkwe, Kalah, Native, Oware, RajaPasu, SEED, SadeqaII, Span, interpreted,
    interpreted_counted, load, native,
};
use sow::engine::Game;

const GAMES: [&str; 5] = ["raja_pasu", "sadeqa_ii", "kalah", "oware", "ako_okwe"];

/// Plays `games` whole games (whole matches for Raja Pasu) on one side; returns the plies.
fn play(name: &str, side: &str, games: u64) -> Result<u64, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut plies = 0u64;
    if side == "interpreted" {
        let mut game = Game::new(load(name));
        for _ in 0..games {
            plies += u64::from(interpreted(&mut game, &mut rng, Span::Game).0);
        }
        return Ok(plies);
    }
    if side == "counted" {
        // The engine counting clause firings, as `sow simulate` plays.
        let rules = load(name);
        let mut firings = sow::trace::Firings::new(rules.clauses.len());
        let mut game = Game::new(rules);
        for _ in 0..games {
            plies +=
                u64::from(interpreted_counted(&mut game, &mut rng, Span::Game, &mut firings).0);
        }
        return Ok(plies);
    }
    if side != "native" {
        return Err(format!("no side {side:?}: interpreted, counted or native"));
    }
    fn run<N: Native>(rng: &mut ChaCha8Rng, games: u64) -> u64 {
        (0..games)
            .map(|_| u64::from(native::<N>(rng, Span::Game).0))
            .sum()
    }
    Ok(match name {
        "raja_pasu" => run::<RajaPasu>(&mut rng, games),
        "sadeqa_ii" => run::<SadeqaII>(&mut rng, games),
        "kalah" => run::<Kalah>(&mut rng, games),
        "oware" => run::<Oware>(&mut rng, games),
        "ako_okwe" => run::<AkoOkwe>(&mut rng, games),
        _ => return Err(format!("no native model of {name:?}: one of {GAMES:?}")),
    })
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [name, side, games] = args.as_slice() {
        let games = games
            .parse()
            .map_err(|_| format!("not a number of games: {games}"))?;
        println!("{name} {side}: {} plies", play(name, side, games)?);
        return Ok(());
    }
    for name in GAMES {
        let (a, b) = (play(name, "interpreted", 10)?, play(name, "native", 10)?);
        let c = play(name, "counted", 10)?;
        if a != b || a != c {
            return Err(format!(
                "{name}: {a} plies interpreted, {c} counted, {b} native"
            ));
        }
        println!("{name}: 10 games, {a} plies on both sides");
    }
    Ok(())
}

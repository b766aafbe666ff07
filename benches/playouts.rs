//! Speed of the rules interpreter against hand-written Rust, measured in the same run.
//!
//! For each of Raja Pasu, Sadeqa II, Kalah, Oware and Ako Okwe:
//! - `load/<game>`: checking and compiling the shipped ruleset from its text;
//! - `<game>/move/{interpreted,native}`: one ply (list the legal moves, pick one, play it) in
//!   steady state, along random games;
//! - `<game>/playout/{interpreted,counted,native}`: a batch of whole random games (for Raja
//!   Pasu, one round; `raja_pasu/match` plays whole matches). The throughput is games per
//!   second. `counted` plays the same games counting every clause's firings, as `sow simulate`
//!   does.
//!
//! Both sides play the same games: the same random policy (`random_range(0..n)` over the legal
//! moves in hole order, for Ako Okwe, whose mover chooses the direction, each hole's
//! counter-clockwise move before its clockwise one) from the same ChaCha8 streams, batch `i`
//! from seed `SEED + i`. Every timed batch is a new one, as in a real simulation: a batch
//! replayed at every iteration is partly learnt by the processor's branch predictor, which
//! flatters the side with fewer branches (BENCHMARKS.md, section 4). The natives are the
//! hand-written models of `tests/reference` (`tests/differential_stores.rs`,
//! `tests/differential_ako_okwe.rs` and the reference tests check they play the same games as
//! the engine); before measuring, the first batches are played on both sides and the plies and
//! results are compared, so the two timings are of the same work.
//!
//! `cargo bench --bench playouts` runs it (a few minutes on two cores);
//! `python3 benches/summary.py` then prints the table of `BENCHMARKS.md`.

mod drive;

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use drive::{
    AkoOkwe, Kalah, Native, Oware, RajaPasu, SEED, SadeqaII, Span, interpreted,
    interpreted_counted, load, native, nth_bit,
};
use sow::engine::Game;
use sow::rules::Rules;

/// Games in one batch, chosen so that a batch takes a few milliseconds.
fn batch_size(name: &str, span: Span) -> u64 {
    match (name, span) {
        // Whole Raja Pasu matches: about 150 plies each.
        ("raja_pasu", Span::Game) => 20,
        _ => 100,
    }
}

/// Batches played on both sides before measuring, to check they agree and to count the plies
/// of an average batch.
const CALIBRATION_BATCHES: u64 = 10;

/// The random stream of batch `i`: each timed batch plays games of its own.
fn batch_stream(i: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(SEED.wrapping_add(i))
}

/// Plays the first batches on both sides, checks they played the same games, and returns the
/// plies of a batch on average.
fn calibrate<N: Native>(rules: &Arc<Rules>, games: u64, span: Span) -> u64 {
    let mut game = Game::new(rules.clone());
    let mut plies = 0;
    for batch in 0..CALIBRATION_BATCHES {
        let (mut a, mut b) = (batch_stream(batch), batch_stream(batch));
        for i in 0..games {
            let x = interpreted(&mut game, &mut a, span);
            let y = native::<N>(&mut b, span);
            assert_eq!(
                x, y,
                "{}: game {i} of batch {batch} differs (interpreted, native)",
                rules.name
            );
            plies += u64::from(x.0);
        }
    }
    (plies + CALIBRATION_BATCHES / 2) / CALIBRATION_BATCHES
}

fn bench_playouts<N: Native>(c: &mut Criterion, name: &str, span: Span) {
    let rules = load(name);
    let games = batch_size(name, span);
    let plies = calibrate::<N>(&rules, games, span);
    let label = match span {
        Span::Game if name == "raja_pasu" => "match",
        Span::Game => "playout",
        Span::Round => "playout",
    };
    let group_name = format!("{name}/{label}");
    // Read by benches/summary.py, to turn games per second into plies per second.
    println!("calibration {group_name}: {games} games, {plies} plies (a batch, on average)");
    let mut group = c.benchmark_group(&group_name);
    group.throughput(Throughput::Elements(games));
    // Each timed batch plays games of its own (batch i plays the same games on both sides):
    // replaying one batch lets the processor's branch predictor learn its games, which no
    // real simulation allows, and which favours the side with fewer branches to learn.
    let mut game = Game::new(rules.clone());
    let mut batch = 0;
    group.bench_function("interpreted", |b| {
        b.iter(|| {
            let mut rng = batch_stream(batch);
            batch += 1;
            for _ in 0..games {
                black_box(interpreted(&mut game, &mut rng, span));
            }
        })
    });
    // The same batches counting clause firings, as `sow simulate` plays them.
    let mut firings = sow::trace::Firings::new(rules.clauses.len());
    let mut batch = 0;
    group.bench_function("counted", |b| {
        b.iter(|| {
            let mut rng = batch_stream(batch);
            batch += 1;
            for _ in 0..games {
                black_box(interpreted_counted(&mut game, &mut rng, span, &mut firings));
            }
        })
    });
    let mut batch = 0;
    group.bench_function("native", |b| {
        b.iter(|| {
            let mut rng = batch_stream(batch);
            batch += 1;
            for _ in 0..games {
                black_box(native::<N>(&mut rng, span));
            }
        })
    });
    group.finish();
}

/// Games played side by side in the one-move benchmarks.
const POOL: u64 = 16;

/// Plays one move in each game of `pool` per round, timing only the moves; a game that is over
/// starts again (untimed). Returns the time of `iters` moves.
fn time_moves<G>(
    pool: &mut [(G, ChaCha8Rng)],
    iters: u64,
    mut step: impl FnMut(&mut G, &mut ChaCha8Rng),
    mut reset_if_over: impl FnMut(&mut G),
) -> Duration {
    let mut elapsed = Duration::ZERO;
    let mut done = 0;
    while done < iters {
        let start = Instant::now();
        for (game, rng) in pool.iter_mut() {
            step(game, rng);
        }
        elapsed += start.elapsed();
        done += pool.len() as u64;
        for (game, _) in pool.iter_mut() {
            reset_if_over(game);
        }
    }
    elapsed.mul_f64(iters as f64 / done as f64)
}

/// One move (list the legal moves, pick one at random, play it) in steady state: `POOL` games
/// advance one ply per round, and a finished game starts again outside the timing, so neither
/// side pays for setting a game up (nor for a first use of a cloned buffer).
fn bench_move<N: Native>(c: &mut Criterion, name: &str) {
    let rules = load(name);
    let mut group = c.benchmark_group(format!("{name}/move"));
    group.throughput(Throughput::Elements(1));
    let rngs = || (0..POOL).map(|i| ChaCha8Rng::seed_from_u64(SEED + i));
    let mut pool: Vec<(Game, ChaCha8Rng)> = rngs().map(|r| (Game::new(rules.clone()), r)).collect();
    group.bench_function("interpreted", |b| {
        b.iter_custom(|iters| {
            time_moves(
                &mut pool,
                iters,
                |game, rng| {
                    let moves = game.legal_moves();
                    let k = rng.random_range(0..moves.len());
                    black_box(game.play(moves.get(k).expect("a legal move"), &mut ())).ok();
                },
                |game| {
                    if game.is_over() {
                        game.restart();
                    }
                },
            )
        })
    });
    let mut pool: Vec<(N, ChaCha8Rng)> = rngs().map(|r| (N::fresh(), r)).collect();
    group.bench_function("native", |b| {
        b.iter_custom(|iters| {
            time_moves(
                &mut pool,
                iters,
                |game, rng| {
                    let moves = game.moves();
                    let k = rng.random_range(0..moves.count_ones() as usize);
                    game.play_move(nth_bit(moves, k));
                },
                |game| {
                    if game.moves() == 0 {
                        *game = N::fresh();
                    }
                },
            )
        })
    });
    group.finish();
}

const GAMES: [&str; 5] = ["raja_pasu", "sadeqa_ii", "kalah", "oware", "ako_okwe"];

fn loading(c: &mut Criterion) {
    let mut group = c.benchmark_group("load");
    for name in GAMES {
        let text = sow::catalog::shipped(name).expect("shipped ruleset");
        group.bench_with_input(BenchmarkId::from_parameter(name), text, |b, text| {
            b.iter(|| sow::check::load(black_box(text), &[]).map(|l| l.rules.clauses.len()))
        });
    }
    group.finish();
}

fn one_move(c: &mut Criterion) {
    bench_move::<RajaPasu>(c, "raja_pasu");
    bench_move::<SadeqaII>(c, "sadeqa_ii");
    bench_move::<Kalah>(c, "kalah");
    bench_move::<Oware>(c, "oware");
    bench_move::<AkoOkwe>(c, "ako_okwe");
}

fn playouts(c: &mut Criterion) {
    bench_playouts::<RajaPasu>(c, "raja_pasu", Span::Round);
    bench_playouts::<RajaPasu>(c, "raja_pasu", Span::Game);
    bench_playouts::<SadeqaII>(c, "sadeqa_ii", Span::Game);
    bench_playouts::<Kalah>(c, "kalah", Span::Game);
    bench_playouts::<Oware>(c, "oware", Span::Game);
    bench_playouts::<AkoOkwe>(c, "ako_okwe", Span::Game);
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = loading, one_move, playouts
}
criterion_main!(benches);

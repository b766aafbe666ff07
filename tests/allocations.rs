//! No heap allocation on the hot path of a playout: after one warm-up game, whole random games
//! (restarted with `Game::restart`, moves listed with `legal_moves`, the random generator on the
//! stack) must not allocate at all, on every shipped ruleset and every value of its options.
//!
//! A counting global allocator counts the allocations made by the current thread only, so that
//! the test harness's own threads cannot disturb the count. The check is deterministic: it
//! counts, it does not time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use sow::engine::Game;
use sow::rules::Rules;

struct Counting;

thread_local! {
    /// Allocations (and reallocations) made by this thread so far.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the thread-local may already be gone while a thread shuts down.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only a
// const-initialised thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Games played while counting, per ruleset and option setting.
const GAMES: u64 = 200;

/// Plays one whole random game (or match) from the current state; returns its plies.
fn playout(game: &mut Game, rng: &mut ChaCha8Rng) -> u64 {
    let mut plies = 0;
    while !game.is_over() {
        let moves = game.legal_moves();
        let h = moves
            .get(rng.random_range(0..moves.len()))
            .expect("a legal move");
        game.play(h, &mut ()).expect("a legal move");
        plies += 1;
    }
    plies
}

/// Every option setting to try: the defaults, then each value of each option alone.
fn settings(text: &str) -> Vec<Vec<(String, String)>> {
    let defaults = sow::check::load(text, &[]).expect("shipped ruleset loads");
    let mut out = vec![Vec::new()];
    for o in &defaults.rules.options {
        for v in &o.values {
            if *v != o.default {
                out.push(vec![(o.name.clone(), v.clone())]);
            }
        }
    }
    out
}

/// Allocations made while playing `GAMES` random games, with the plies played. The same games
/// are played once before counting: the game's buffers (the history of positions since seeds
/// were last banked, reserved for 512 of them) grow, by doubling, only when a game needs a
/// longer stretch than any before it, and are kept across restarts; what is counted is
/// whether anything else allocates as the games are played again.
fn allocations_in_playouts(rules: Arc<Rules>, seed: u64) -> (u64, u64) {
    let mut game = Game::new(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..GAMES {
        game.restart();
        playout(&mut game, &mut rng);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let before = allocations();
    let mut plies = 0;
    for _ in 0..GAMES {
        game.restart();
        plies += playout(&mut game, &mut rng);
    }
    (allocations() - before, plies)
}

#[test]
fn the_counter_sees_allocations() {
    let before = allocations();
    let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(8));
    drop(v);
    assert_eq!(allocations() - before, 1);
}

#[test]
fn whole_random_games_do_not_allocate() {
    let mut report = Vec::new();
    let mut failed = false;
    for (name, text) in sow::catalog::SHIPPED {
        for options in settings(text) {
            let rules = match sow::check::load(text, &options) {
                Ok(l) => Arc::new(l.rules),
                Err(d) => panic!("{name} {options:?} does not load: {d:?}"),
            };
            let (allocated, plies) = allocations_in_playouts(rules, 7);
            assert!(plies > GAMES, "{name} {options:?}: only {plies} plies");
            failed |= allocated > 0;
            report.push(format!(
                "{name} {options:?}: {allocated} allocations in {GAMES} games ({plies} plies)"
            ));
        }
    }
    assert!(
        !failed,
        "allocations on the hot path:\n{}",
        report.join("\n")
    );
}

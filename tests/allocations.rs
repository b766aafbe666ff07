//! No heap allocation on the hot path of a playout: after one warm-up game, whole random games
//! (restarted with `Game::restart`, moves listed with `legal_moves`, the random generator on the
//! stack) must not allocate at all, on every shipped ruleset and every value of its options.
//!
//! The search players allocate nothing per node either, outside their transposition table
//! and tree (made by the first search): the test below counts what a search allocates apart
//! from the engine's own work (copying a game with `Game::clone_from`, playing a move on the
//! copy), which is counted on its own and reported. With `Game`'s derived `Clone`, a copy
//! allocates whenever the game holds positions in its cycle history or tables for closed
//! holes, and the copy's history then grows as it plays; on a reading without a cycle rule
//! and without rounds, the engine allocates nothing either, and the searches nothing at all.
//!
//! A counting global allocator counts the allocations made by the current thread only, so that
//! the test harness's own threads cannot disturb the count. The check is deterministic: it
//! counts, it does not time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use sow::engine::{Game, Move};
use sow::players::model::{Model, Moves, Outcome};
use sow::players::{AlphaBeta, Budget, Mcts};
use sow::rules::{Player, Rules};

struct Counting;

thread_local! {
    /// Allocations (and reallocations) made by this thread so far.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    /// Whether the thread is in the engine for a search (a method of [`Counted`]).
    static IN_ENGINE: Cell<bool> = const { Cell::new(false) };
    /// Allocations made in the engine for a search.
    static ENGINE_ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the thread-local may already be gone while a thread shuts down.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    if IN_ENGINE.try_with(Cell::get).unwrap_or(false) {
        let _ = ENGINE_ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    }
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
/// Plies of one game at most. Random games of some variants seldom end (Katra's seeds are
/// never banked, so a game ends only when one player has them all): past this many plies a
/// game takes no path it has not taken already, and the cycle history has grown well past its
/// first reservation.
const MAX_GAME_PLIES: u64 = 5_000;

/// The ply at which a player concedes, where the rules let them (`[end] concede`).
const CONCEDE_AT: u64 = 30;

fn playout(game: &mut Game, rng: &mut ChaCha8Rng) -> u64 {
    let mut plies = 0;
    while !game.is_over() && plies < MAX_GAME_PLIES {
        if plies == CONCEDE_AT && game.rules().concede.is_some() {
            game.play(Move::CONCEDE, &mut ())
                .expect("conceding is allowed");
            plies += 1;
            continue;
        }
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
    // The shipped rulesets, and the rulesets that show one feature of the language each
    // (preferences, the no-capture ending, sowing hooks, choices).
    let mut rulesets: Vec<(String, String)> = (sow::catalog::SHIPPED.iter())
        .map(|(name, text)| (name.to_string(), text.to_string()))
        .collect();
    let mut features: Vec<_> = std::fs::read_dir("tests/scenarios/rulesets")
        .expect("the feature rulesets")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    features.sort();
    for path in features {
        let text = std::fs::read_to_string(&path).expect("a feature ruleset");
        rulesets.push((path.display().to_string(), text));
    }
    for (name, text) in &rulesets {
        let text = text.as_str();
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

/// The engine's game as the search sees it, with the engine's allocations counted apart.
#[derive(Debug, Clone)]
struct Counted(Game);

/// Runs `f` in the engine, for the count.
fn engine<T>(f: impl FnOnce() -> T) -> T {
    IN_ENGINE.with(|e| e.set(true));
    let out = f();
    IN_ENGINE.with(|e| e.set(false));
    out
}

impl Model for Counted {
    type Move = Move;
    fn seats(&self) -> usize {
        engine(|| Model::seats(&self.0))
    }
    fn to_move(&self) -> Option<Player> {
        engine(|| Model::to_move(&self.0))
    }
    fn moves(&self, out: &mut Moves<Move>) {
        engine(|| Model::moves(&self.0, out))
    }
    fn play(&mut self, m: Move) -> bool {
        engine(|| Model::play(&mut self.0, m))
    }
    fn copy_from(&mut self, other: &Self) {
        engine(|| Model::copy_from(&mut self.0, &other.0))
    }
    fn seeds(&self, seat: Player) -> i64 {
        engine(|| Model::seeds(&self.0, seat))
    }
    fn material(&self, seat: Player) -> i64 {
        engine(|| Model::material(&self.0, seat))
    }
    fn outcome(&self) -> Option<Outcome> {
        engine(|| Model::outcome(&self.0))
    }
    fn hash(&self) -> u64 {
        engine(|| Model::hash(&self.0))
    }
    fn slot(m: Move) -> usize {
        <Game as Model>::slot(m)
    }
}

fn engine_allocations() -> u64 {
    ENGINE_ALLOCATIONS.with(Cell::get)
}

/// Positions along a random game of `rules`, one every few plies.
fn positions(rules: &Arc<Rules>, seed: u64) -> Vec<Counted> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone());
    let mut out = Vec::new();
    while !game.is_over() && out.len() < 12 {
        if game.ply().is_multiple_of(3) {
            out.push(Counted(game.clone()));
        }
        let moves = game.legal_moves();
        let h = moves
            .get(rng.random_range(0..moves.len()))
            .expect("a legal move");
        game.play(h, &mut ()).expect("a legal move");
    }
    out
}

/// What searches of every position allocate after a warm-up search of the first one: in all,
/// and in the engine's copies; and the nodes searched.
fn allocations_in_searches(
    positions: &[Counted],
    mut search: impl FnMut(&Counted, &mut ChaCha8Rng) -> u64,
) -> (u64, u64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    if let Some(first) = positions.first() {
        search(first, &mut rng);
    }
    let (before, copies_before) = (allocations(), engine_allocations());
    let mut nodes = 0;
    for p in positions {
        nodes += search(p, &mut rng);
    }
    (
        allocations() - before,
        engine_allocations() - copies_before,
        nodes,
    )
}

/// The rulesets the searches are checked on, with a reading of each that has no cycle rule
/// (its cycle history stays empty, so copying a game allocates nothing, unless its rounds
/// close holes).
const SEARCHED: [&str; 4] = ["kalah", "oware", "raja_pasu", "sadeqa_ii"];

/// A ruleset whose mover chooses each move's direction, and passes when they cannot sow.
const CHOICES: &str = include_str!("scenarios/rulesets/choices.toml");

fn without_cycle_rule(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("cycle ="))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn searches_allocate_nothing_per_node_but_the_engines_copies() {
    let mut report = Vec::new();
    let mut failed = false;
    let mut readings: Vec<(&str, &str, String)> = Vec::new();
    for name in SEARCHED {
        let text = sow::catalog::shipped(name).expect("shipped");
        readings.push((name, "as shipped", text.to_string()));
        readings.push((name, "no cycle rule", without_cycle_rule(text)));
    }
    readings.push(("choices", "no cycle rule", CHOICES.to_string()));
    for (name, reading, text) in readings {
        let rules = Arc::new(sow::check::load(&text, &[]).expect("loads").rules);
        assert_eq!(rules.cycle.is_none(), reading == "no cycle rule", "{name}");
        let games = positions(&rules, 3);
        let mut ab = AlphaBeta::<Counted>::new(Budget {
            depth: 5,
            nodes: Some(20_000),
        });
        let (all, copies, nodes) =
            allocations_in_searches(&games, |g, rng| ab.search(g, rng).map_or(0, |f| f.nodes));
        let mut mcts = Mcts::<Counted>::new(100);
        let (m_all, m_copies, playouts) = allocations_in_searches(&games, |g, rng| {
            mcts.search(g, rng).map_or(0, |f| u64::from(f.playouts))
        });
        assert!(nodes > 1000, "{name}: {nodes} nodes");
        // Outside the engine, nothing; without a cycle history or rounds, nothing at all.
        failed |= all != copies || m_all != m_copies;
        let quiet = reading == "no cycle rule" && rules.rounds.is_none();
        failed |= quiet && (copies > 0 || m_copies > 0);
        report.push(format!(
            "{name} ({reading}): alpha-beta {nodes} nodes, {} allocations outside the engine, {copies} in it ({:.2} a node); MCTS {playouts} playouts, {} outside, {m_copies} in the engine",
            all - copies,
            copies as f64 / nodes as f64,
            m_all - m_copies,
        ));
    }
    println!("{}", report.join("\n"));
    assert!(!failed, "allocations in searches:\n{}", report.join("\n"));
}

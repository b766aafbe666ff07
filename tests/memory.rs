//! A ply's memory is bounded by the board, not by its laps: the trace is written as the
//! events come (`sow::render::play_traced`), text and JSON alike.
//!
//! A counting global allocator keeps, for the current thread, the bytes in use and the most
//! in use at once (the peak). Endless moves of the two-hole relay ruleset
//! (`tests/hostile/engine/two_hole_relay.toml`) are replayed at `--detail drops` into a
//! writer that throws the text away: the peak of a move of hundreds of laps, and hundreds of
//! thousands of events, is the peak of a move of a few dozen. Counted, not timed.
//!
//! The same moves check that the streamed trace is exactly the trace the engine reports when
//! its events are collected first (an endless move's laps are taken back by the engine and
//! played again; the stream must not show them twice, nor the laps after the repeat).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use sow::engine::Game;
use sow::notation::parse_position;
use sow::render::{Detail, Output, event_json, play_traced, shown, trace_text};
use sow::rules::Rules;
use sow::trace::Event;

struct Counting;

thread_local! {
    /// Bytes this thread has allocated and not freed (it may free what others allocated, so
    /// the count is signed), and the most at any time since the last reset.
    static IN_USE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn add(bytes: i64) {
    // `try_with`: the thread-locals may already be gone while a thread shuts down.
    let _ = IN_USE.try_with(|u| {
        let now = u.get() + bytes;
        u.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

fn size(layout: Layout) -> i64 {
    i64::try_from(layout.size()).unwrap_or(i64::MAX)
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only
// const-initialised thread-local `Cell`s, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(size(layout));
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        add(size(layout));
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(i64::try_from(new_size).unwrap_or(i64::MAX) - size(layout));
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-size(layout));
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f`, and returns what it returned with the most bytes it had in use at once beyond
/// those in use when it started.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, i64) {
    let base = IN_USE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, PEAK.with(Cell::get) - base)
}

/// A writer that counts what it is given and keeps none of it.
struct Counter<'a>(&'a Cell<u64>);

impl std::io::Write for Counter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.set(self.0.get() + buf.len() as u64);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn rules() -> Arc<Rules> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/hostile/engine/two_hole_relay.toml"
    );
    let text = std::fs::read_to_string(path).expect("the fixture");
    Arc::new(
        sow::check::load(&text, &[])
            .expect("the fixture loads")
            .rules,
    )
}

/// A game of the two-hole relay from South 1 and North `seeds - 1`, South to move.
fn game(rules: &Arc<Rules>, seeds: u32) -> Game {
    let text = format!("S[1] N[{}] south", seeds - 1);
    let pos = parse_position(rules, &text).expect("a position of the fixture");
    Game::from_position(rules.clone(), pos)
}

/// What streaming South's move writes: the bytes of text or JSON, and the peak memory.
fn streamed(rules: &Arc<Rules>, seeds: u32, json: bool) -> (u64, i64) {
    let mut game = game(rules, seeds);
    let h = game.legal_moves().get(0).expect("a move");
    let bytes = Cell::new(0);
    let ((), peak) = peak_of(|| {
        let mut out = Output::new(Counter(&bytes));
        let played = if json {
            out.open_array(None);
            let p = play_traced(&mut game, h, Detail::Drops, None, Some(&mut out));
            out.close();
            p
        } else {
            play_traced(&mut game, h, Detail::Drops, Some(&mut out), None)
        };
        let played = played.expect("the move is legal");
        assert!(
            played.report.endless,
            "every move of the fixture is endless"
        );
        out.finish().expect("counting never fails");
    });
    (bytes.get(), peak)
}

/// The peak when the move's events are collected first and then rendered, as `replay` did
/// before it streamed: the measure sees a ply's memory grow with its laps.
fn collected(rules: &Arc<Rules>, seeds: u32) -> i64 {
    let mut game = game(rules, seeds);
    let h = game.legal_moves().get(0).expect("a move");
    let ((), peak) = peak_of(|| {
        let mut events: Vec<Event> = Vec::new();
        game.play(h, &mut events).expect("legal");
        let text = trace_text(rules, &events, &[], Detail::Drops);
        std::hint::black_box(text);
    });
    peak
}

/// Seeds on the board, with the laps the move runs before its first repeat closes (found by
/// replaying the fixture: the first repeat's lap depends on the total in no simple way).
const SHORT: u32 = 300; // 26 laps
const LONG: u32 = 700; // 467 laps

#[test]
fn the_peak_does_not_grow_with_the_laps() {
    let rules = rules();
    for json in [false, true] {
        let (short_bytes, short_peak) = streamed(&rules, SHORT, json);
        let (long_bytes, long_peak) = streamed(&rules, LONG, json);
        let kind = if json { "JSON" } else { "text" };
        eprintln!(
            "{kind}: {SHORT} seeds, {short_bytes} bytes written, peak {short_peak} bytes; \
             {LONG} seeds, {long_bytes} bytes written, peak {long_peak} bytes"
        );
        assert!(
            long_bytes > 40 * short_bytes,
            "{kind}: the long move writes much more ({long_bytes} against {short_bytes} bytes)"
        );
        // The board is the same size; what the long move holds beyond the short one is at
        // most a few lines of text, never its laps.
        assert!(
            long_peak <= short_peak + 4096,
            "{kind}: the peak grew with the laps: {short_peak} bytes for {SHORT} seeds, {long_peak} for {LONG}"
        );
        assert!(
            long_peak < 256 * 1024,
            "{kind}: {long_peak} bytes in use at once for one ply"
        );
    }
    let (short, long) = (collected(&rules, SHORT), collected(&rules, LONG));
    eprintln!("collected first: peak {short} bytes for {SHORT} seeds, {long} for {LONG}");
    assert!(
        long > 10 * short,
        "the measure sees memory that grows with the laps"
    );
}

/// The trace the engine reports, collected whole (the engine takes back what it retracts),
/// against the trace streamed.
#[test]
fn the_streamed_trace_is_the_collected_trace() {
    let rules = rules();
    for seeds in [SHORT, LONG, 100, 3] {
        let mut collected = game(&rules, seeds);
        let h = collected.legal_moves().get(0).expect("a move");
        let mut events: Vec<Event> = Vec::new();
        collected.play(h, &mut events).expect("legal");
        let board = *collected.position();
        for detail in [Detail::Plies, Detail::Laps, Detail::Drops] {
            let mut streamed = game(&rules, seeds);
            let mut text = Vec::new();
            let mut json = Vec::new();
            {
                let mut t = Output::new(&mut text);
                let mut j = Output::new(&mut json);
                j.open_array(None);
                play_traced(&mut streamed, h, detail, Some(&mut t), Some(&mut j)).expect("legal");
                j.close();
                t.say(format_args!(
                    "  board {}\n",
                    sow::render::board(&rules, streamed.position())
                ));
            }
            let text = String::from_utf8(text).expect("text");
            assert_eq!(
                text,
                trace_text(&rules, &events, &[board], detail),
                "{seeds} seeds at {detail:?}"
            );
            let json: serde_json::Value = serde_json::from_slice(&json).expect("one JSON value");
            let expected: Vec<serde_json::Value> = events
                .iter()
                .filter(|e| shown(e, detail))
                .map(|e| event_json(&rules, e))
                .collect();
            assert_eq!(
                json,
                serde_json::Value::Array(expected),
                "{seeds} seeds at {detail:?}"
            );
        }
    }
}

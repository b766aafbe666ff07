//! A ply played with its trace written as it happens, as text, as JSON, or both.
//!
//! The events go to the output as the engine reports them: the engine never takes an event
//! back (an endless move is found on an untraced copy before it is traced), so nothing is held
//! and a ply's memory does not grow with its laps.

use super::{Detail, Output, Racing, TextTrace, event_json};
use crate::engine::{Game, MoveError, PlyReport};
use crate::rules::{MAX_SEATS, Player, Rules};
use crate::trace::{Event, Tracer};

/// What a ply played with [`play_traced`] did.
#[derive(Debug, Clone, Copy)]
pub struct Played {
    pub report: PlyReport,
    /// The winner and final scores, when the ply ended the game (the trace's `GameEnd`).
    pub end: Option<(Option<Player>, [u32; MAX_SEATS])>,
}

/// Plays `h` in `game`, writing the ply's trace as it happens: as text to `text` and as JSON
/// items to `json` (into the array the caller has opened), each at `detail`. A write error
/// is kept in its output (see [`Output::finish`]); the ply is played all the same.
pub fn play_traced(
    game: &mut Game,
    h: crate::engine::Move,
    detail: Detail,
    text: Option<&mut Output<'_>>,
    json: Option<&mut Output<'_>>,
) -> Result<Played, MoveError> {
    let rules = game.rules().clone();
    let mut tap = Tap {
        rules: &rules,
        detail,
        text,
        json,
        trace: TextTrace::new(detail),
        racing: Racing::default(),
        end: None,
    };
    let report = game.play(h, &mut tap)?;
    if let Some(out) = tap.text.as_deref_mut() {
        tap.trace.finish(out);
    }
    Ok(Played {
        report,
        end: tap.end,
    })
}

/// The tracer that writes each event as it comes.
struct Tap<'r, 'a, 'w1, 'w2> {
    rules: &'r Rules,
    detail: Detail,
    text: Option<&'a mut Output<'w1>>,
    json: Option<&'a mut Output<'w2>>,
    trace: TextTrace,
    racing: Racing,
    end: Option<(Option<Player>, [u32; MAX_SEATS])>,
}

impl Tracer for Tap<'_, '_, '_, '_> {
    fn event(&mut self, e: Event) {
        if let Event::GameEnd { winner, scores, .. } = &e {
            self.end = Some((*winner, *scores));
        }
        if let Some(out) = self.text.as_deref_mut() {
            self.trace.event(self.rules, &e, out);
        }
        if let Some(out) = self.json.as_deref_mut() {
            let (racer, shown) = self.racing.filter(&e, self.detail);
            if let Some(racer) = racer {
                out.value(None, &event_json(self.rules, &racer));
            }
            if shown {
                out.value(None, &event_json(self.rules, &e));
            }
        }
    }
}

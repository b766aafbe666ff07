//! Property tests over random *valid rulesets*, not only the shipped ones: the ruleset text is
//! generated (board, sowing, relays, captures, extra turns, endings), loaded as a user's file
//! would be, and random games and random set-up positions are played on it. For each:
//! - loading succeeds (the generator writes only valid rulesets) and nothing panics;
//! - seeds are conserved at every event of the trace (a ledger moves each event's seeds
//!   between the board, the hand, the players' holdings and the removed seeds) and after every
//!   ply, for every capture destination and every `then` (captured seeds sown again included),
//!   endless moves and the ruleset's cap on laps included;
//! - a position that comes back with nothing banked in between ends the game as a cycle
//!   (so a game ends, or goes on without repeating itself);
//! - replaying the moves reproduces the same number of trace events and the same position
//!   after every ply.

use std::collections::HashSet;
use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, RngSeed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::engine::{Game, Move, Position};
use sow::rules::Rules;
use sow::trace::Ledger;

/// Plies played at most: enough for every cycle of a small board to show, few enough for a
/// fast test.
const MAX_PLIES: usize = 3_000;

/// The parameters of one generated ruleset.
#[derive(Debug, Clone)]
struct Spec {
    four_rows: bool,
    holes: u32,
    track: bool,
    store_left: bool,
    seeds: u32,
    cw: bool,
    first_seed: &'static str,
    skip_origin: &'static str,
    closed_empty: bool,
    relay: Option<&'static str>,
    captures: Vec<usize>,
    extra_turn: bool,
    row_empty_ends: bool,
    north_first: bool,
    /// Who takes the seeds left when a player cannot move, and after an endless move.
    no_move_remaining: &'static str,
    endless_remaining: &'static str,
    /// The ruleset's cap on a move's laps.
    max_laps: Option<u32>,
    /// Sowing hooks: a move leaves one seed in its hole; relays turn the direction round; the
    /// mover chooses each move's direction.
    leave_one: bool,
    reverse: bool,
    choose: bool,
    /// Rules over all the moves: a preference (read after the move, or before it) and the
    /// ending when no move can capture.
    prefer: Option<&'static str>,
    no_capture: bool,
    /// A skip clause: seeds pass over holes of three, unless last (or over every opponent
    /// hole, which lets a lap find no hole at all).
    skip: Option<&'static str>,
    /// Neutral holes (two rows of two holes or more): s1 and n1 belong to nobody, and their
    /// seeds at the end stay or are shared.
    neutral: Option<&'static str>,
    /// Marks on holes: a lap ending in a hole of three marks it (a set of holes); the sower
    /// passes over their own marked holes, and a seed due into the other's goes out of play
    /// (`removed`), into the opponent's first hole (`hole`) or to the hole's owner (`player`).
    marks: Option<&'static str>,
    /// A ring of twice `holes` holes (rows = 1), shared in two blocks; neutral holes are then
    /// r1 and the first of the second block.
    ring: bool,
    /// A set of the holes each move drops into (marked at every drop), and a capture at the
    /// lap's end of those of them that are the opponent's and hold 2 or 4 (`take_set`).
    sown_set: bool,
    /// Three rows of twice `holes` holes (rows = 3): each player's row and half the middle row.
    three_rows: bool,
    /// The sown set (`sown_set`) kept for a lap only (`scope = "lap"`) rather than the move.
    lap_set: bool,
    /// A match of rounds: holes refilled in full only (`full`), or the poorest player laying
    /// out everything with a partial last hole and the others filling as many, the matching
    /// hole the same and unfilled holes left open (`poorest`), or separate games from the
    /// layout won by two wins in a row, counted by round-end effects (`restart`), or holes won
    /// at the refill, a partial last hole of at least two seeds counting (`won`; boards of one
    /// or two rows, else `full`).
    rounds: Option<&'static str>,
    /// An entry of held seeds: of a size the mover chooses (on boards of at most 64 seeds),
    /// or of all held, from the hole after the mover's first, while their holes hold few.
    entry: Option<&'static str>,
    /// Moves from any hole (`any`); with the next move held to the first hole holding seeds
    /// after the last one's landing (`forced`, a game number set by `first_after`) and the
    /// game ended when the forced play can never capture (`forced`, and `end` alone); or the
    /// game ended when no play to come can capture (`reach`, on boards of two rows of at most
    /// two holes and three seeds a hole, whose positions are few: else `end`).
    forced: Option<&'static str>,
    /// The extra turn (with `extra_turn`) is one the mover may decline by passing.
    optional_turn: bool,
    /// The lap-end and move-end captures are ones the mover may decline (`take` or `leave`),
    /// and so is the relay (`continue` or `stop`).
    optional_capture: bool,
    /// An arrangement before play: each player lays out two seeds they hold into their own
    /// holes (`lay`), or moves seeds one at a time between their own holes until they pass
    /// with none in hand, a seed put into a hole making it three taking it (`free`); or, in a
    /// match on two rows, a layout at every later round in place of the refill, the poorer
    /// laying out freely and the richer copying it, with each player's first hole out of play
    /// while someone holds few seeds (`rounds`); or each player putting down a stone
    /// (`[pieces]`) before play and, in a match refilled by count, at every round's start
    /// before a refill that waits for it, a stone dropped on seeds taking them for its holder
    /// (`pieces`).
    arrange: Option<&'static str>,
    /// The pie rule (`[turns] swap`): the second player may exchange sides at their first
    /// turn of each round.
    swap: bool,
    /// A racing opening (`[race]`) from each player's first hole, or from a hole of their own
    /// each chooses (by the seeds a hole, odd or even): over when the first sowing
    /// ends, the others' hands sown on (`first`) or put back (`back`), or once all have
    /// ended (`all`). Without what a race cannot go with (E0147).
    race: Option<&'static str>,
}

/// Who takes the seeds left at an ending.
const REMAINING: &[&str] = &[
    "owners",
    "mover",
    "opponent",
    "removed",
    "stay",
    "starter",
    "last_mover",
];

/// Capture clauses, valid at the moment each names.
const CAPTURES: &[(&str, &str, &str, &str, bool, &str)] = &[
    // (at, when, take, to, claim, then)
    (
        "move_end",
        "own(last) and seeds(last) == 1 and seeds(opposite(last)) > 0",
        "'opposite(last)'",
        "mover",
        false,
        "continue",
    ),
    (
        "drop",
        "seeds(here) == 4",
        "'here'",
        "owner",
        false,
        "continue",
    ),
    (
        "lap_end",
        "not own(last) and seeds(last) in [2, 3]",
        "'last'",
        "mover",
        false,
        "continue",
    ),
    (
        "move_end",
        "seeds(next(last)) == 0 and seeds(next(next(last))) > 0",
        "'next(next(last))'",
        "removed",
        false,
        "continue",
    ),
    (
        "drop",
        "last_seed and seeds(here) == 2",
        "'here'",
        "opponent",
        false,
        "continue",
    ),
    // Whether the move has reached the opponent's row, read during the move and at its end.
    (
        "drop",
        "not reached_opponent and seeds(here) == 3",
        "'here'",
        "removed",
        false,
        "continue",
    ),
    (
        "move_end",
        "reached_opponent and seeds(last) == 2",
        "'last'",
        "mover",
        false,
        "continue",
    ),
    // A hole claimed at a drop: later seeds of the same lap that reach it go to the claimer.
    (
        "drop",
        "not own(here) and seeds(here) == 3 and number(claim(mover)) == 0",
        "'here'",
        "mover",
        true,
        "continue",
    ),
    // Lap-end captures that end the move, or whose seeds are sown again as the next lap (by
    // the mover, naming each destination a re-sown capture may name).
    (
        "lap_end",
        "own(last) and seeds(last) > 1 and seeds(opposite(last)) > 0",
        "'opposite(last)'",
        "mover",
        false,
        "sow",
    ),
    (
        "lap_end",
        "not own(last) and seeds(last) == 3",
        "'last', 'opposite(last)'",
        "owner",
        false,
        "sow",
    ),
    (
        "lap_end",
        "seeds(last) == 2 and seeds(next(last)) > 0",
        "'next(last)'",
        "opponent",
        false,
        "sow",
    ),
    (
        "lap_end",
        "not own(last) and seeds(last) == 4",
        "'last'",
        "removed",
        false,
        "end",
    ),
    // An even run taken back along the sowing, each hole with the one facing it (`chain`
    // with `also`).
    (
        "move_end",
        "seeds(last) > 0 and seeds(last) % 2 == 0",
        "'last', 'opposite(last)'",
        "mover",
        false,
        "a chain with the facing holes",
    ),
    // Sown again from the hole after the lap's origin, with the capturing seed.
    (
        "lap_end",
        "own(last) and seeds(last) == 3 and seeds(opposite(last)) > 0",
        "'opposite(last)'",
        "mover",
        false,
        "sow from the lap's origin",
    ),
    // A further capture of a hole of the opponent's the mover chooses (a stop for the choice
    // where there are several).
    (
        "move_end",
        "move_captures > 0 and own(last)",
        "'chosen'",
        "mover",
        false,
        "a hole chosen",
    ),
    // Seeds taken put into a hole of the board: one of three into the landing hole; a whole
    // hole into the move's origin.
    (
        "lap_end",
        "own(last) and seeds(last) == 1 and seeds(opposite(last)) == 3",
        "'opposite(last)'",
        "mover",
        false,
        "into the landing hole",
    ),
    (
        "move_end",
        "not own(last) and seeds(last) in [2, 3]",
        "'last'",
        "mover",
        false,
        "into the origin",
    ),
    // The capturing seed moves on: the move goes on by the relay, whatever its condition
    // (only with a relay).
    (
        "lap_end",
        "own(last) and seeds(last) == 1 and seeds(opposite(last)) > 0",
        "'opposite(last)'",
        "mover",
        false,
        "relay",
    ),
    // Once play has ended, each player takes the opponent's first hole.
    (
        "play_end",
        "seeds(hole(opponent, 1)) > 0",
        "'hole(opponent, 1)'",
        "mover",
        false,
        "continue",
    ),
    // Part of a hole taken: all but one of its seeds.
    (
        "lap_end",
        "not own(last) and seeds(last) == 5",
        "'last'",
        "mover",
        false,
        "all but one",
    ),
    // Sown again from the hole the lap ended in, back the way it came.
    (
        "lap_end",
        "own(last) and seeds(last) == 4 and seeds(opposite(last)) > 1",
        "'opposite(last)'",
        "mover",
        false,
        "sow back the other way",
    ),
    (
        "lap_end",
        "own(last) and seeds(last) == 5",
        "'last'",
        "opponent",
        false,
        "end",
    ),
    // Aggregates over sets of holes, and a number chosen by a condition.
    (
        "move_end",
        "own(last) and seeds(last) == 1 and sum(inner_row(opponent), seeds(hole)) > count(holes_of(mover), seeds(hole) == 0)",
        "'opposite(last)'",
        "mover",
        false,
        "continue",
    ),
    (
        "lap_end",
        "seeds(last) == if(any(holes_of(opponent), seeds(hole) > 3), 2, 3) and all(outer_row(mover), seeds(hole) < 5)",
        "'last'",
        "owner",
        false,
        "sow",
    ),
];

fn spec() -> impl Strategy<Value = Spec> {
    (
        any::<bool>(),
        // Now and then a wide board: 20 a row makes four rows 80 holes and three rows 120,
        // past the first word of a mask of positions.
        prop_oneof![7 => 1u32..=8, 1 => Just(20u32)],
        any::<bool>(),
        any::<bool>(),
        1u32..=6,
        any::<bool>(),
        prop::sample::select(vec!["next", "origin", "origin_always"]),
        prop::sample::select(vec!["never", "move", "lap"]),
        any::<bool>(),
        prop::option::of(prop::sample::select(vec!["landing", "next", "opposite"])),
        prop::collection::vec(0..CAPTURES.len(), 0..4),
        (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            prop::sample::select(REMAINING.to_vec()),
            prop::sample::select(REMAINING.to_vec()),
            prop::option::of(1u32..=6),
            (any::<bool>(), any::<bool>(), any::<bool>()),
            (
                prop::option::of(prop::sample::select(vec!["after", "before"])),
                any::<bool>(),
                prop::option::of(prop::sample::select(vec!["threes", "opponent"])),
                prop::option::of(prop::sample::select(vec!["stay", "shared"])),
                prop::option::of(prop::sample::select(vec!["removed", "hole", "player"])),
                (any::<bool>(), any::<bool>()),
                (
                    any::<bool>(),
                    any::<bool>(),
                    prop::option::of(prop::sample::select(vec![
                        "full", "poorest", "restart", "won",
                    ])),
                    prop::option::of(prop::sample::select(vec!["choose", "all"])),
                    prop::option::of(prop::sample::select(vec!["any", "forced", "end", "reach"])),
                    (
                        any::<bool>(),
                        any::<bool>(),
                        prop::option::of(prop::sample::select(vec![
                            "lay", "free", "rounds", "pieces",
                        ])),
                        any::<bool>(),
                        prop::option::of(prop::sample::select(vec!["first", "all", "back"])),
                    ),
                ),
            ),
        ),
    )
        .prop_map(
            |(
                four_rows,
                holes,
                track,
                store_left,
                seeds,
                cw,
                first_seed,
                skip_origin,
                closed_empty,
                relay,
                mut captures,
                (
                    extra_turn,
                    row_empty_ends,
                    north_first,
                    no_move_remaining,
                    endless_remaining,
                    max_laps,
                    (leave_one, reverse, choose),
                    (
                        prefer,
                        no_capture,
                        skip,
                        neutral,
                        marks,
                        (ring, sown_set),
                        (
                            three_rows,
                            lap_set,
                            rounds,
                            entry,
                            forced,
                            (optional_turn, optional_capture, arrange, swap, race),
                        ),
                    ),
                ),
            )| {
                captures.sort_unstable();
                captures.dedup();
                // A race goes with none of what a sowing made one seed a tick beside another
                // cannot follow: claims and chosen captures here, the rest below.
                if race.is_some() {
                    captures.retain(|&i| {
                        let (_, _, _, _, claim, then) = CAPTURES[i];
                        !claim && then != "a hole chosen"
                    });
                }
                let arrange = arrange.filter(|&a| race.is_none() || a != "pieces");
                let (skip, marks) = if race.is_some() {
                    (None, None)
                } else {
                    (skip, marks)
                };
                let (sown_set, leave_one) =
                    (sown_set && race.is_none(), leave_one && race.is_none());
                let (choose, optional_capture) =
                    (choose && race.is_none(), optional_capture && race.is_none());
                let (entry, swap) = if race.is_some() {
                    (None, false)
                } else {
                    (entry, swap)
                };
                // A capture that goes on by the relay needs one.
                if relay.is_none() {
                    captures.retain(|&i| CAPTURES[i].5 != "relay");
                }
                let three_rows = three_rows && !ring && !four_rows;
                // A layout between rounds needs a match refilled from what the players hold,
                // on two rows whose holes face each other: it brings its match along.
                let layout_rounds = arrange == Some("rounds") && !three_rows && !four_rows && !ring;
                let rounds = if layout_rounds { Some("full") } else { rounds };
                let arrange = match arrange {
                    Some("rounds") if !layout_rounds => Some("lay"),
                    a => a,
                };
                // Pieces go with none of the settings that would leave a piece no place: stores
                // on the track, partial lifts, redirects, claims, captures sown again, part of
                // a hole taken, holes won.
                let pieces = arrange == Some("pieces");
                if pieces {
                    captures.retain(|&i| {
                        let (_, _, _, _, claim, then) = CAPTURES[i];
                        !claim
                            && !then.starts_with("sow")
                            && !then.starts_with("into")
                            && then != "all but one"
                    });
                }
                let (track, leave_one) = (track && !pieces, leave_one && !pieces);
                let marks = marks.filter(|_| !pieces);
                let rounds = match rounds {
                    Some("won") if pieces => Some("full"),
                    r => r,
                };
                Spec {
                    four_rows: four_rows && !ring,
                    holes,
                    // Stores on the track need two rows.
                    track: track && !four_rows && !ring && !three_rows,
                    store_left,
                    seeds,
                    cw,
                    first_seed,
                    skip_origin,
                    closed_empty,
                    relay,
                    captures,
                    extra_turn,
                    row_empty_ends,
                    north_first,
                    no_move_remaining,
                    endless_remaining,
                    max_laps,
                    leave_one,
                    reverse,
                    choose,
                    prefer,
                    no_capture,
                    skip,
                    // Neutral holes keep their seeds from round to round, in a match whose
                    // holes do not change hands; their seeds are not shared where a piece could
                    // be among them.
                    neutral: neutral
                        .filter(|_| (ring || !four_rows) && holes >= 2 && rounds != Some("won"))
                        .filter(|&share| !(pieces && share == "shared")),
                    marks,
                    ring,
                    sown_set,
                    three_rows,
                    lap_set,
                    // Holes are won on boards of one or two rows only.
                    rounds: match rounds {
                        Some("won") if four_rows || three_rows => Some("full"),
                        r => r,
                    },
                    forced: match forced {
                        Some("reach")
                            if four_rows || three_rows || ring || holes > 2 || seeds > 3 =>
                        {
                            Some("end")
                        }
                        f => f,
                    },
                    optional_turn,
                    optional_capture,
                    arrange,
                    // The pie rule, on boards the same from both sides: no pieces, no neutral
                    // holes, no holes won.
                    swap: swap && !pieces && neutral.is_none() && rounds != Some("won"),
                    race,
                    entry: {
                        // The board's seeds: rings and three rows have 2 * holes a row.
                        let holes_all = match (ring, three_rows, four_rows) {
                            (true, _, _) => 2 * holes,
                            (_, true, _) => 6 * holes,
                            (_, _, true) => 4 * holes,
                            _ => 2 * holes,
                        };
                        // An arrangement that lays out held seeds adds two a player.
                        let held = if arrange == Some("lay") { 4 } else { 0 };
                        match entry {
                            Some("choose") if holes_all * seeds + held > 64 => Some("all"),
                            e => e,
                        }
                    },
                }
            },
        )
}

/// The ruleset file for a spec.
fn ruleset_text(s: &Spec) -> String {
    let mut t = String::from("format = 1\nname = \"Generated\"\n\n[board]\n");
    if s.ring {
        t += &format!("rows = 1\nholes = {}\n", 2 * s.holes);
    } else if s.three_rows {
        t += &format!("rows = 3\nholes = {}\n", 2 * s.holes);
    } else {
        t += &format!(
            "rows = {}\nholes = {}\n",
            if s.four_rows { 4 } else { 2 },
            s.holes
        );
    }
    if s.track {
        t += "stores = \"track\"\n";
        t += &format!(
            "store_side = \"{}\"\n",
            if s.store_left { "left" } else { "right" }
        );
    }
    // Half the rulesets choose the seeds (and what each player holds) by two options, one
    // choice within the other; the values in force give the same start.
    let chosen = s.seeds.is_multiple_of(2);
    if chosen {
        t += &format!(
            "seeds = {{ option = \"start\", map = {{ given = {{ option = \"fill\", map = {{ full = {n}, light = 1 }} }}, other = {n} }} }}\n",
            n = s.seeds
        );
    } else {
        t += &format!("seeds = {}\n", s.seeds);
    }
    match (s.arrange == Some("lay"), chosen) {
        (true, true) => {
            t += "held = { option = \"start\", map = { given = { south = 2, north = 2 }, other = 2 } }\n";
        }
        (true, false) => t += "held = 2\n",
        (false, _) => {}
    }
    if s.neutral.is_some() && s.ring {
        t += &format!("neutral = [\"r1\", \"r{}\"]\n", s.holes + 1);
    } else if s.neutral.is_some() {
        t += "neutral = [\"s1\", \"n1\"]\n";
    }
    if s.swap {
        t += "\n[turns]\nswap = true\n";
    }
    if let Some(race) = s.race {
        let (ends, unfinished) = match race {
            "all" => ("all", "sow"),
            "back" => ("first", "back"),
            _ => ("first", "sow"),
        };
        // Who moves after: by the seeds a hole, each reading.
        let next = ["first", "after", "starter"][usize::try_from(s.seeds % 3).unwrap_or(0)];
        let from = ["hole(mover, 1)", "holes_of(mover)"][usize::try_from(s.seeds % 2).unwrap_or(0)];
        t += &format!(
            "\n[race]\nfrom = '{from}'\nends = \"{ends}\"\nunfinished = \"{unfinished}\"\nnext = \"{next}\"\n"
        );
    }
    t += "\n[sowing]\n";
    t += &format!(
        "direction = \"{}\"\n",
        match (s.choose, s.cw) {
            (true, _) => "choose",
            (false, true) => "cw",
            (false, false) => "ccw",
        }
    );
    if s.leave_one {
        t += "lift = 'seeds(origin) - 1'\n";
    }
    // Half the rulesets without pieces gather the opponent's lone seeds into the hand of a
    // move from a hole holding an even number (`gather`).
    if s.seeds.is_multiple_of(2) && s.arrange != Some("pieces") && s.race.is_none() {
        t += "gather = 'filter(all_holes, not own(hole) and seeds(hole) == 1 and seeds(origin) % 2 == 0)'\n";
    }
    t += &format!(
        "first_seed = \"{}\"\nskip_origin = \"{}\"\nclosed_holes = \"{}\"\n",
        s.first_seed,
        s.skip_origin,
        if s.closed_empty { "empty" } else { "absent" }
    );
    if let Some(laps) = s.max_laps {
        t += &format!("max_laps = {laps}\n");
    }
    if matches!(s.forced, Some("any" | "forced")) {
        t += "from = \"any\"\n";
    }
    if s.forced == Some("forced") {
        t += "\n[vars.start]\nscope = \"game\"\n";
        t += "\n[[legal]]\nname = \"the forced start\"\nwhen = 'start > 0'\nrequire = 'number(origin) == start'\n";
        t += "\n[[effect]]\nname = \"the next start\"\nat = \"move_end\"\nwhen = 'true'\nset = { start = 'number(first_after(next(last), seeds(hole) > 0))' }\n";
    }
    match s.skip {
        Some("threes") => {
            t += "\n[[sowing.skip]]\nname = \"threes\"\nwhen = 'seeds(here) == 3 and hand > 1'\n";
        }
        Some(_) => {
            t += "\n[[sowing.skip]]\nname = \"not the opponent's\"\nwhen = 'not own(here) and not is_store(here)'\n";
        }
        None => {}
    }
    if let Some(to) = s.marks {
        t += "\n[vars.marked]\nkind = \"holes\"\nscope = \"game\"\n";
        t += "\n[[effect]]\nname = \"mark\"\nat = \"lap_end\"\nwhen = 'seeds(last) == 3'\nmark = { marked = 'last' }\n";
        t += "\n[[sowing.skip]]\nname = \"own marked\"\nwhen = 'here in marked and own(here)'\n";
        t += "\n[[sowing.redirect]]\nname = \"their marked\"\nwhen = 'here in marked and not own(here)'\n";
        t += match to {
            "removed" => "to = \"removed\"\n",
            "player" => "player = 'owner(here)'\n",
            _ => "hole = 'hole(opponent, 1)'\n",
        };
    }
    if s.sown_set {
        t += &format!(
            "\n[vars.sown]\nkind = \"holes\"\nscope = \"{}\"\n",
            if s.lap_set { "lap" } else { "move" }
        );
        t += "\n[[effect]]\nname = \"sown\"\nat = \"drop\"\nwhen = 'not is_store(here)'\nmark = { sown = 'here' }\n";
        t += "\n[[capture]]\nname = \"the sown set\"\nat = \"lap_end\"\nwhen = 'not own(last)'\ntake_set = 'filter(sown, not own(hole) and seeds(hole) in [2, 4])'\nto = \"mover\"\n";
    }
    match s.relay {
        Some("opposite") => {
            t += "\n[sowing.relay]\nhole = 'opposite(last)'\nwhen = 'seeds(last) == 1'\n";
        }
        Some(from) => t += &format!("\n[sowing.relay]\nfrom = \"{from}\"\n"),
        None => {}
    }
    if s.relay.is_some() && s.reverse {
        t += "reverse = true\n";
    }
    if s.relay.is_some() && s.leave_one {
        // Part of a relayed hole, at least one seed (a third of a hole of fewer than three
        // would be none).
        t += "lift = 'seeds(hole) / 3'\n";
    }
    if s.relay.is_some() && s.optional_capture {
        // Offered everywhere, or only where the lap ends in the mover's own row.
        t += if s.seeds.is_multiple_of(2) {
            "optional = 'own(last)'\n"
        } else {
            "optional = true\n"
        };
    }
    t += &format!(
        "\n[start]\nfirst = \"{}\"\n",
        if s.north_first { "north" } else { "south" }
    );
    for &i in &s.captures {
        let (at, when, take, to, claim, then) = CAPTURES[i];
        let then = match then {
            "sow from the lap's origin" => {
                "sow\"\nsow_after = 'lap_origin'\nlift_also = '1'\ncites = \"resown"
            }
            "all but one" => "continue\"\ntake_seeds = 'seeds(hole) - 1'\ncites = \"part",
            "into the landing hole" => {
                "continue\"\ntake_seeds = '1'\ninto = 'last'\ncites = \"into"
            }
            "into the origin" => "continue\"\ninto = 'origin'\ncites = \"into",
            "a chain with the facing holes" => {
                "continue\"\nchain = { while = 'seeds(prev(hole)) > 0 and seeds(prev(hole)) % 2 == 0', step = 'prev(hole)', also = ['opposite(hole)'] }\ncites = \"chain"
            }
            "a hole chosen" => {
                "continue\"\nchoose = 'filter(holes_of(opponent), seeds(hole) > 0)'\ncites = \"chosen"
            }
            "sow back the other way" => {
                "sow\"\nsow_direction = 'if(direction == cw, ccw, cw)'\ncites = \"resown back"
            }
            then => then,
        };
        // A third of the captures to a hole's owner name the taker by an expression: the
        // owner, or at a drop the sower for the lap's last seed.
        let to = match (to, at) {
            ("owner", "drop") if s.seeds.is_multiple_of(3) => {
                "player = 'if(last_seed, mover, owner(hole))'".to_string()
            }
            ("owner", _) if s.seeds.is_multiple_of(3) => "player = 'owner(hole)'".to_string(),
            (to, _) => format!("to = \"{to}\""),
        };
        t += &format!(
            "\n[[capture]]\nname = \"capture {i}\"\nat = \"{at}\"\nwhen = '{when}'\ntake = [{take}]\n{to}\nthen = \"{then}\"\n"
        );
        if claim {
            t += "claim = true\n";
        }
        if s.optional_capture && at != "drop" && at != "play_end" {
            t += "optional = true\n";
        }
    }
    if s.extra_turn {
        if s.track {
            t += "\n[[extra_turn]]\nname = \"into the store\"\nwhen = 'is_store(last) and own(last)'\n";
        }
        // An extra turn that banks nothing, limited by the turn's sowings: positions in the
        // middle of a turn then enter the cycle history, their count of sowings with them.
        t += "\n[[extra_turn]]\nname = \"a lone seed\"\nwhen = 'own(last) and seeds(last) == 1 and turn_sowings < 2'\n";
        if s.optional_turn {
            t += "optional = true\n";
        }
    }
    match s.prefer {
        Some("after") => {
            t += "\n[[legal]]\nname = \"capture first\"\nprefer_after = 'move_captures > 0'\n";
        }
        Some(_) => {
            t += "\n[[legal]]\nname = \"fullest first\"\nprefer = 'seeds(origin) == max(holes_of(mover), seeds(hole))'\n";
        }
        None => {}
    }
    t += &format!(
        "\n[end]\nno_move = {{ remaining = \"{}\", result = \"most_seeds\" }}\n",
        s.no_move_remaining
    );
    if s.no_capture {
        t += "no_capture = { remaining = \"owners\", result = \"most_seeds\" }\n";
    }
    if s.forced == Some("reach") {
        t += "no_capture_reachable = { remaining = \"owners\", result = \"most_seeds\" }\n";
    }
    if matches!(s.forced, Some("forced" | "end")) {
        t += "no_further_capture = { remaining = \"owners\", result = \"most_seeds\" }\n";
    }
    t += &format!(
        "endless_move = {{ remaining = \"{}\", result = \"draw\" }}\n",
        s.endless_remaining
    );
    t += "cycle = { remaining = \"owners\", result = \"most_seeds\" }\n";
    // Every generated ruleset lets a player concede; some games do (`play_out`).
    t += &format!(
        "concede = {{ remaining = \"{}\", result = \"mover_loses\" }}\n",
        s.no_move_remaining
    );
    if let Some(share) = s.neutral {
        t += &format!("neutral_seeds = \"{share}\"\n");
    }
    match s.rounds {
        Some("poorest") => {
            t += &format!(
                "\n[rounds]\nrefill = {}\nrefill_from = \"left\"\nlast_hole = \"partial\"\nholes_filled = \"poorest\"\nmatching_hole = \"same\"\nunfilled = \"open\"\nnext_starter = \"richer\"\n",
                s.seeds
            );
            // Without an arrangement: the hole each refill leaves short is marked at the
            // round's start (`at = "round_start"`) and not sown until a drop fills it up.
            if s.arrange.is_none() {
                t += "\n[vars.short]\nkind = \"holes\"\nscope = \"round\"\n";
                t += &format!(
                    "\n[[effect]]\nname = \"a short hole\"\nat = \"round_start\"\nwhen = 'any(holes_of(mover), seeds(hole) > 0 and seeds(hole) < {0})'\nmark = {{ short = 'first_after(hole(mover, 1), own(hole) and seeds(hole) > 0 and seeds(hole) < {0})' }}\n",
                    s.seeds
                );
                t += &format!(
                    "\n[[effect]]\nname = \"filled up\"\nat = \"drop\"\nwhen = 'here in short and seeds(here) >= {}'\nunmark = {{ short = 'here' }}\n",
                    s.seeds
                );
                t += "\n[[legal]]\nname = \"not from a short hole\"\nrequire = 'not (origin in short)'\n";
            }
        }
        Some("won") => {
            t += &format!(
                "\n[rounds]\nrefill = {}\nrefill_from = \"right\"\nlast_hole = \"partial\"\nleast_in_last = {}\nwin_holes = true\nunfilled = \"open\"\nnext_starter = \"winner\"\n",
                s.seeds,
                s.seeds.min(2)
            );
            // A gift whose size is an expression, from the richer.
            t += "\n[rounds.give]\nname = \"the remainder\"\nfrom = 'if(store(south) > store(north), south, north)'\nseeds = 'store(mover) % 3'\nwhen = 'store(south) != store(north)'\n";
        }
        Some("restart") => {
            t += "\n[rounds]\nrestart = true\nnext_starter = \"loser\"\nmatch_winner = \"last_round\"\nmatch_ends = 'streak(south) >= 2 or streak(north) >= 2'\n";
            t += "\n[vars.streak]\nscope = \"game\"\nper_player = true\n";
            t += "\n[[effect]]\nname = \"a win\"\nat = \"round_end\"\nwhen = 'round_winner == mover'\nset = { streak = 'streak(mover) + 1' }\n";
            // The winner ends the loser's streak: an effect on another player's variable.
            t += "\n[[effect]]\nname = \"a loss\"\nat = \"round_end\"\nwhen = 'round_winner == mover'\nplayer = 'opponent'\nset = { streak = '0' }\n";
        }
        Some(_) if s.arrange == Some("rounds") => {
            t += "\n[rounds]\nnext_starter = \"richer\"\nclosed = 'filter(all_holes, number(hole) == 1 and cut)'\nmatch_ends = 'store(south) < 2 or store(north) < 2'\n";
            t += "\n[vars.poor]\nkind = \"flag\"\nscope = \"game\"\nper_player = true\n";
            t += "\n[vars.cut]\nkind = \"flag\"\nscope = \"game\"\n";
            t += "\n[[effect]]\nname = \"the poorer\"\nat = \"round_end\"\nset = { poor = 'store(mover) < store(opponent)', cut = 'store(south) < 8 or store(north) < 8' }\n";
        }
        Some(_) => {
            t += &format!(
                "\n[rounds]\nrefill = {}\nrefill_from = \"right\"\nnext_starter = \"poorer\"\n",
                s.seeds
            );
        }
        None => {}
    }
    match s.entry {
        Some("choose") => {
            t += "\n[entry]\nchoose = true\nstart = 'hole(mover, 1)'\n";
        }
        Some(_) => {
            t += "\n[entry]\nwhen = 'count(holes_of(mover), seeds(hole) > 0) < 2'\nseeds = 'store(mover)'\nstart = 'next(hole(mover, 1))'\n";
        }
        None => {}
    }
    match s.arrange {
        Some("lay") => t += "\n[arrange]\nput = 'own(origin)'\n",
        Some("rounds") => {
            t += "\n[arrange]\nat = \"rounds\"\nfirst = \"poorer\"\nput = 'own(origin) and (poor(mover) or seeds(origin) < seeds(opposite(origin)))'\n";
        }
        Some("pieces") => {
            // Before play, and before every refill by count.
            let (at, refill) = match s.rounds {
                Some("full" | "poorest") => ("always", "after"),
                _ => ("start", "before"),
            };
            t += &format!(
                "\n[pieces.stone]\nsown = \"{}\"\n\n[arrange]\nat = \"{at}\"\nrefill = \"{refill}\"\nplace = 'own(origin) and pieces(origin) == 0'\n",
                if s.seeds.is_multiple_of(2) {
                    "stack"
                } else {
                    "last"
                }
            );
            t += "\n[[capture]]\nname = \"stone\"\nat = \"drop\"\nwhen = 'piece_dropped and seeds(here) > 1'\ntake = ['here']\nkeep = \"dropped\"\nto = \"piece_holder\"\n";
        }
        Some(_) => {
            t += "\n[arrange]\npick = 'own(origin) and store(mover) == 0'\nput = 'own(origin)'\ndone = 'store(mover) == 0'\n";
            t += "\n[[capture]]\nname = \"a third seed\"\nat = \"put\"\nwhen = 'seeds(last) == 3'\ntake = ['last']\nto = \"mover\"\n";
        }
        None => {}
    }
    if s.row_empty_ends {
        t += "\n[[end.when]]\nname = \"a row is empty\"\nwhen = 'row_seeds(south) == 0 or row_seeds(north) == 0'\nremaining = \"owners\"\nresult = \"most_seeds\"\n";
    }
    if chosen {
        t += "\n[options.start]\nquestion = \"Which start?\"\nvalues = [\"given\", \"other\"]\ndefault = \"given\"\nwhy = \"generated\"\n";
        t += "\n[options.fill]\nquestion = \"How full?\"\nvalues = [\"full\", \"light\"]\ndefault = \"full\"\nwhy = \"generated\"\n";
    }
    t
}

fn load(s: &Spec) -> Arc<Rules> {
    let text = ruleset_text(s);
    match sow::check::load(&text, &[]) {
        Ok(loaded) => Arc::new(loaded.rules),
        Err(diags) => panic!("the generated ruleset is refused: {diags:#?}\n{text}"),
    }
}

/// What a ply left behind, to compare a replay with: the events it traced and the position
/// after it (whole traces of long relay games would not fit in memory).
type Ply = (usize, Position);

/// Seeds banked so far: while this is unchanged, an earlier position can come back.
fn banked(rules: &Rules, pos: &Position) -> u32 {
    pos.held(rules, 0) + pos.held(rules, 1) + pos.taken[0] + pos.taken[1]
}

/// Plays a random game from `game`; returns the moves and what each ply left behind. A
/// position that comes back (same player to move, nothing banked since) must end the game as
/// a cycle; a game may also simply go on past the budget without repeating, as games without
/// captures can.
fn play_out(game: &mut Game, seed: u64) -> Result<(Vec<Move>, Vec<Ply>), TestCaseError> {
    let rules = game.rules().clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut total = rules.seeds_in(game.position());
    let restarts = rules.rounds.as_ref().is_some_and(|r| r.restart);
    let mut moves = Vec::new();
    let mut traces = Vec::new();
    let mut seen: HashSet<Position> = HashSet::new();
    let mut bank = banked(&rules, game.position());
    let mut round = game.round();
    seen.insert(*game.position());
    // One game in five is conceded, at a ply of its own (`[end] concede`, never listed).
    let concede_at = seed.is_multiple_of(5).then_some((seed >> 8) % 60);
    for ply in 0..MAX_PLIES {
        if game.is_over() {
            break;
        }
        let legal = game.legal_moves();
        prop_assert!(!legal.is_empty(), "a game in play has a legal move");
        prop_assert!(!legal.contains(Move::CONCEDE), "conceding is never listed");
        let h = if concede_at == Some(ply as u64) {
            Move::CONCEDE
        } else {
            legal
                .get(rng.random_range(0..legal.len()))
                .expect("a legal move")
        };
        let mut events = Ledger::new(&rules, game.position());
        game.play(h, &mut events)
            .map_err(|e| TestCaseError::fail(format!("a legal move was refused: {e}")))?;
        let pos = *game.position();
        // A new game of a match of separate games is laid out as the rules' start, whatever
        // the set-up position held.
        if restarts && game.round() != round {
            total = rules.total_seeds();
        }
        prop_assert_eq!(rules.seeds_in(&pos), total, "seeds conserved");
        prop_assert_eq!(
            events.check(&pos),
            Ok(()),
            "ply {}: the trace loses or makes seeds",
            moves.len() + 1
        );
        moves.push(h);
        traces.push((events.events(), pos));
        // A new round starts a new history: the rules compare positions within a round (a
        // match whose rounds start alike is stopped by the engine's ply limit, no rule ending
        // it).
        if banked(&rules, &pos) != bank || game.round() != round {
            bank = banked(&rules, &pos);
            round = game.round();
            seen.clear();
        }
        // Every settled position counts, mid-turn ones (after an extra turn) included: the
        // count of the turn's sowings is part of a position. An arrangement before play is
        // the players' choice, which may come back to where it was: no cycle of play.
        let arranging = matches!(pos.offer, sow::engine::Offer::Arrange { .. });
        if !arranging && !seen.insert(pos) {
            prop_assert!(
                game.is_over(),
                "ply {}: the position repeats, but no cycle was reported",
                moves.len()
            );
        }
    }
    Ok((moves, traces))
}

/// Replays `moves` on `fresh` and compares with what was recorded.
fn replays(
    mut fresh: Game,
    moves: &[Move],
    traces: &[Ply],
    end: &Game,
) -> Result<(), TestCaseError> {
    let rules = fresh.rules().clone();
    for (h, trace) in moves.iter().zip(traces) {
        let mut events = Ledger::new(&rules, fresh.position());
        fresh
            .play(*h, &mut events)
            .map_err(|e| TestCaseError::fail(format!("the replay refused a move: {e}")))?;
        prop_assert_eq!(
            (events.events(), *fresh.position()),
            *trace,
            "the replay's trace differs"
        );
    }
    prop_assert_eq!(fresh.position(), end.position());
    prop_assert_eq!(fresh.status(), end.status());
    Ok(())
}

/// Replays `moves` on `fresh` with no tracer, and compares the positions with what the traced
/// play left: untraced moves take the engine's shortcuts (a tight loop for laps where nothing
/// can happen between drops), traced moves never do.
fn replays_untraced(
    mut fresh: Game,
    moves: &[Move],
    traces: &[Ply],
    end: &Game,
) -> Result<(), TestCaseError> {
    for (ply, (h, (_, after))) in moves.iter().zip(traces).enumerate() {
        fresh
            .play(*h, &mut ())
            .map_err(|e| TestCaseError::fail(format!("the replay refused a move: {e}")))?;
        prop_assert_eq!(
            fresh.position(),
            after,
            "ply {}: untraced, the position differs",
            ply + 1
        );
    }
    prop_assert_eq!(fresh.status(), end.status());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/proptest_rulesets.txt",
        ))),
        // The same cases on every run, so that CI's time does not depend on what a run
        // happens to draw (a random case once met moves whose laps repeat only every 79,090
        // laps, under a preference that plays every move out): `PROPTEST_RNG_SEED=N` explores
        // others.
        rng_seed: std::env::var("PROPTEST_RNG_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(RngSeed::Fixed(20_261_206), RngSeed::Fixed),
        ..ProptestConfig::default()
    })]

    /// Random valid rulesets, random games from the start.
    #[test]
    fn generated_rulesets_play_safely(spec in spec(), seed in any::<u64>()) {
        let rules = load(&spec);
        let mut game = Game::new(rules.clone());
        prop_assert_eq!(rules.seeds_in(game.position()), rules.total_seeds());
        let (moves, traces) = play_out(&mut game, seed)?;
        replays(Game::new(rules.clone()), &moves, &traces, &game)?;
        replays_untraced(Game::new(rules), &moves, &traces, &game)?;
    }

    /// Random rulesets turned into matches on two rows laid out again at every round, the
    /// poorer player laying out freely and the richer copying it, with holes out of play by a
    /// rule (`[arrange] at = "rounds"`, `[rounds] closed`).
    #[test]
    fn layouts_between_rounds_play_safely(mut spec in spec(), seed in any::<u64>()) {
        spec.four_rows = false;
        spec.three_rows = false;
        spec.ring = false;
        spec.neutral = None;
        spec.rounds = Some("full");
        spec.arrange = Some("rounds");
        let rules = load(&spec);
        let mut game = Game::new(rules.clone());
        let (moves, traces) = play_out(&mut game, seed)?;
        replays(Game::new(rules.clone()), &moves, &traces, &game)?;
        replays_untraced(Game::new(rules), &moves, &traces, &game)?;
    }

    /// Random rulesets whose clauses ask whether the move has reached the opponent's row: at
    /// the move's end only (so that untraced laps with nothing to stop them take the tight
    /// loop), or also at each drop.
    #[test]
    fn reached_opponent_is_the_same_traced_or_not(
        mut spec in spec(),
        at_drops in any::<bool>(),
        seed in any::<u64>(),
    ) {
        spec.captures = if at_drops { vec![5, 6] } else { vec![6] };
        let rules = load(&spec);
        let mut game = Game::new(rules.clone());
        let (moves, traces) = play_out(&mut game, seed)?;
        replays_untraced(Game::new(rules), &moves, &traces, &game)?;
    }

    /// Random valid rulesets, random set-up positions written in position notation.
    #[test]
    fn generated_positions_play_safely(
        spec in spec(),
        cells in prop::collection::vec(0u16..8, 48),
        held in (0u32..20, 0u32..20),
        north in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rules = load(&spec);
        let per = rules.geometry.holes_per_player as usize;
        let row = |from: usize| -> String {
            (0..per)
                .map(|i| cells[(from + i) % cells.len()].to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let text = format!(
            "S[{}] N[{}] S*={} N*={} {}",
            row(0),
            row(per),
            held.0,
            held.1,
            if north { "north" } else { "south" }
        );
        // The notation refuses positions with more seeds than the ruleset, or none at all:
        // with a message, never a panic.
        let pos = match sow::notation::parse_position(&rules, &text) {
            Ok(pos) => pos,
            Err(e) => {
                prop_assert!(!e.message.is_empty());
                prop_assert!(e.span.start <= e.span.end && e.span.end <= text.len());
                return Ok(());
            }
        };
        prop_assert!(rules.seeds_in(&pos) <= rules.total_seeds());
        let mut game = Game::from_position(rules.clone(), pos);
        let (moves, traces) = play_out(&mut game, seed)?;
        replays(Game::from_position(rules, pos), &moves, &traces, &game)?;
    }
}

//! Rendering: boards and traces as text a person can check by eye, and as stable JSON.
//!
//! Positions and traces come from user input (set-up positions, records, rulesets): no
//! `unwrap`, `expect` or indexing that could panic.

use serde_json::{Value, json};

use crate::engine::Position;
use crate::notation::player_name;
use crate::rules::{NO_HOLE, Player, Pos, Rules};
use crate::trace::{EndCause, Event, Limit};
use crate::ruleset::Remaining;

/// How much of a trace to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Detail {
    /// One line per ply: the move and the board after it.
    Plies,
    /// Also each lap, relay and capture.
    Laps,
    /// Also every seed dropped.
    Drops,
}

/// `S[3 1 0 0 0 14 0] N[14 2 14 14 1 14 2] S*=15 N*=4`: each row from its owner's left, `x`
/// for a closed hole, then the seeds each player holds; then, if any, the seeds each player's
/// captures removed from the game (`removed S=3 N=0`) and the holes the players have claimed
/// (`claimed S=n4`). [`crate::notation::parse_position`] reads it back as the same position
/// (the player to move apart, which it takes as a word after).
pub fn notation(rules: &Rules, pos: &Position) -> String {
    let g = &rules.geometry;
    let row = |p: Player| -> String {
        g.holes_of(p)
            .map(|h| {
                if pos.closed & (1 << h) != 0 {
                    "x".to_string()
                } else {
                    seeds_in(pos, h).to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = format!(
        "S[{}] N[{}] S*={} N*={}",
        row(0),
        row(1),
        pos.held(rules, 0),
        pos.held(rules, 1)
    );
    let [south, north] = pos.taken;
    if south != 0 || north != 0 {
        s.push_str(&format!(" removed S={south} N={north}"));
    }
    let claims: Vec<String> = ["S", "N"]
        .iter()
        .zip(pos.claims)
        .filter(|&(_, h)| h != NO_HOLE)
        .map(|(side, h)| format!("{side}={}", g.label(h)))
        .collect();
    if !claims.is_empty() {
        s.push_str(&format!(" claimed {}", claims.join(" ")));
    }
    s
}

/// Seeds in position `h` (0 for a position beyond the board).
fn seeds_in(pos: &Position, h: Pos) -> u16 {
    pos.board.get(usize::from(h)).copied().unwrap_or(0)
}

/// The board as a trace shows it after each ply: the position in [`notation`].
pub fn board(rules: &Rules, pos: &Position) -> String {
    notation(rules, pos)
}

/// The board drawn as it stands between the players: North's row on top from North's right
/// to left (so holes face each other), South's row below.
pub fn picture(rules: &Rules, pos: &Position) -> String {
    let g = &rules.geometry;
    let cell = |h: Pos| -> String {
        if pos.closed & (1 << h) != 0 {
            " --".to_string()
        } else {
            format!("{:>3}", seeds_in(pos, h))
        }
    };
    let label = |h: Pos| format!("{:>3}", g.label(h));
    let store = |p: Player| -> String {
        let kind = if g.store.get(usize::from(p)).copied().flatten().is_some() {
            "store"
        } else {
            "reserve"
        };
        format!("{} {kind} {}", player_name(p), pos.held(rules, p))
    };
    let per = g.holes_per_row as usize;
    let mut out = String::new();
    // Rows from the top: North's back (4 rows), North's front, South's front, South's back.
    let rows: Vec<Vec<Pos>> = if g.rows == 2 {
        let north: Vec<Pos> = g.holes_of(1).rev().collect();
        let south: Vec<Pos> = g.holes_of(0).collect();
        vec![north, south]
    } else {
        // Each player's holes: the outer row, then the inner row.
        let halves = |p: Player| -> (Vec<Pos>, Vec<Pos>) {
            let holes: Vec<Pos> = g.holes_of(p).collect();
            let (outer, inner) = holes.split_at_checked(per).unwrap_or((&holes, &[]));
            (outer.to_vec(), inner.to_vec())
        };
        let (n_outer, n_inner) = halves(1);
        let (s_outer, s_inner) = halves(0);
        vec![
            n_outer.into_iter().rev().collect(),
            n_inner,
            s_inner.into_iter().rev().collect(),
            s_outer,
        ]
    };
    out.push_str(&format!("      {}\n", store(1)));
    for (i, r) in rows.iter().enumerate() {
        let top = i < rows.len() / 2;
        let labels: String = r.iter().map(|&h| label(h)).collect::<Vec<_>>().join(" ");
        let seeds: String = r.iter().map(|&h| cell(h)).collect::<Vec<_>>().join(" ");
        if top {
            out.push_str(&format!("      {labels}\n      {seeds}\n"));
        } else {
            out.push_str(&format!("      {seeds}\n      {labels}\n"));
        }
        if i + 1 == rows.len() / 2 {
            out.push_str(&format!("      {}\n", "-".repeat(per * 4 - 1)));
        }
    }
    out.push_str(&format!("      {}\n", store(0)));
    out
}

fn to_name(to: Option<Player>) -> &'static str {
    match to {
        Some(p) => player_name(p),
        None => "out of play",
    }
}

fn clause(rules: &Rules, id: u16) -> String {
    let c = rules.clause(id);
    match &c.cites {
        Some(cites) => format!("\"{}\" [{cites}]", c.name),
        None => format!("\"{}\"", c.name),
    }
}

fn cause(c: EndCause) -> &'static str {
    match c {
        EndCause::NoMove => "no legal move",
        EndCause::EndlessMove => "endless move",
        EndCause::Cycle => "position repeated",
        EndCause::Condition => "end condition",
    }
}

/// Why a round ended, naming the player the ending names.
fn why_ended(c: EndCause, mover: Player) -> String {
    let who = player_name(mover);
    match c {
        EndCause::NoMove => format!("{who} cannot move"),
        EndCause::EndlessMove => format!("{who}'s move never ends"),
        EndCause::Cycle => format!("the position repeats, {who} to move"),
        EndCause::Condition => format!("its condition holds, {who} to move"),
    }
}

/// How the seeds left on the board were shared out at a round's end.
fn shared_out(
    rules: &Rules,
    ending: u16,
    mover: Player,
    shares: [u32; 2],
    removed: u32,
    at_end: &Position,
) -> String {
    let remaining = rules.ending(ending).map(|e| e.remaining);
    let left: u32 = shares.iter().sum::<u32>() + removed;
    if remaining == Some(Remaining::Stay) {
        let on_board = at_end.row_seeds(rules, 0) + at_end.row_seeds(rules, 1);
        return match on_board {
            0 => "no seeds are left on the board".into(),
            n => format!("the {} left stay on the board, counted for nobody", seeds(n)),
        };
    }
    if left == 0 {
        return "no seeds are left on the board".into();
    }
    match remaining {
        Some(Remaining::Owners) => format!(
            "each player takes the seeds in their own holes (South {}, North {})",
            shares[0], shares[1]
        ),
        Some(Remaining::Removed) => format!("the {} left leave the game", seeds(left)),
        Some(Remaining::Mover) => format!("{} takes the {} left", player_name(mover), seeds(left)),
        Some(Remaining::Opponent) => {
            format!("{} takes the {} left", player_name(1 - mover), seeds(left))
        }
        None => format!("South takes {}, North takes {}", shares[0], shares[1]),
        Some(Remaining::Stay) => String::new(),
    }
}

/// Where captured seeds go: a player, out of the game, or into the hand to be sown again.
fn taker(to: Option<Player>, resown: bool) -> String {
    if resown {
        return "in hand, to be sown".into();
    }
    to_name(to).to_string()
}

/// A number of seeds, in words.
fn seeds(n: u32) -> String {
    if n == 1 {
        "1 seed".into()
    } else {
        format!("{n} seeds")
    }
}

/// A safety limit, in words.
fn limit_name(limit: Limit) -> &'static str {
    match limit {
        Limit::Laps => "lap limit",
        Limit::Plies => "ply limit",
    }
}

fn mask_labels(rules: &Rules, mask: u64) -> String {
    (0..64u8)
        .filter(|b| mask & (1 << b) != 0)
        .map(|b| rules.geometry.label(b))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Renders a trace as text. `boards` gives the position after each ply (by ply number order),
/// shown after the ply's events.
pub fn trace_text(rules: &Rules, events: &[Event], boards: &[Position], detail: Detail) -> String {
    let g = &rules.geometry;
    let l = |h: Pos| g.label(h);
    let mut out = String::new();
    let mut line = String::new();
    let mut ply_index = 0usize;
    let flush = |out: &mut String, line: &mut String| {
        // A continuation marker with nothing after it is not worth a line.
        if line.as_str() == "     ..." {
            line.clear();
        }
        if !line.is_empty() {
            out.push_str(line);
            out.push('\n');
            line.clear();
        }
    };
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::Move { ply, player, hole } => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "ply {ply}: {} plays {}\n",
                    player_name(*player),
                    l(*hole)
                ));
            }
            Event::Lift { lap, hole, seeds } if detail >= Detail::Laps => {
                flush(&mut out, &mut line);
                line = format!("  lap {lap}: lift {} ({seeds})", l(*hole));
            }
            Event::Resow { lap, after, seeds } if detail >= Detail::Laps => {
                flush(&mut out, &mut line);
                line = format!(
                    "  lap {lap}: sow {seeds} captured seeds after {}",
                    l(*after)
                );
            }
            Event::Drop { hole, seeds } if detail >= Detail::Drops => {
                line.push_str(&format!(" {}:{seeds}", l(*hole)));
            }
            Event::Skip { hole } if detail >= Detail::Drops => {
                line.push_str(&format!(" (skip {})", l(*hole)));
            }
            Event::LapEnd { last, .. } if detail >= Detail::Laps => {
                line.push_str(&format!(" -> ends in {}", l(*last)));
                flush(&mut out, &mut line);
            }
            Event::Relay { clause: c, hole } if detail >= Detail::Laps => {
                flush(&mut out, &mut line);
                // The relay is the ruleset's only one and has no name of its own.
                let cites = (rules.clause(*c).cites.as_ref()).map_or(String::new(), |c| format!(" [{c}]"));
                out.push_str(&format!("  relay{cites} from {}\n", l(*hole)));
            }
            Event::Capture {
                clause: c,
                hole,
                seeds,
                to,
                resown,
            } if detail >= Detail::Laps => {
                // A capture in the middle of a lap gets its own line; the lap goes on below it.
                let mid_lap = !line.is_empty();
                flush(&mut out, &mut line);
                if mid_lap {
                    line.push_str("     ...");
                }
                out.push_str(&format!(
                    "    capture {}: {} {} -> {}\n",
                    clause(rules, *c),
                    l(*hole),
                    seeds,
                    taker(*to, *resown)
                ));
            }
            Event::Capture {
                clause: c,
                hole,
                seeds,
                to,
                resown,
            } => {
                out.push_str(&format!(
                    "  capture {}: {} {} -> {}\n",
                    clause(rules, *c),
                    l(*hole),
                    seeds,
                    taker(*to, *resown)
                ));
            }
            Event::Diverted { clause: c, hole, to } if detail >= Detail::Drops => {
                line.push_str(&format!(
                    " {}:->{} ({})",
                    l(*hole),
                    player_name(*to),
                    clause(rules, *c)
                ));
            }
            Event::CaptureCancelled { clause: c, seeds } => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "  capture {} cancelled: {seeds} seeds go back\n",
                    clause(rules, *c)
                ));
            }
            Event::MoveEnd { laps, last } if detail >= Detail::Laps => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "  move ends in {} after {laps} lap{}\n",
                    l(*last),
                    if *laps == 1 { "" } else { "s" }
                ));
            }
            Event::ExtraTurn { clause: c } => {
                flush(&mut out, &mut line);
                out.push_str(&format!("  extra turn {}\n", clause(rules, *c)));
            }
            Event::EndlessMove { first, repeat } => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "  endless move: the state after lap {repeat} repeats the state after lap {first}\n"
                ));
            }
            Event::LapLimit { laps } => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "  lap limit: the move was stopped after {laps} laps without repeating; it is treated as endless\n"
                ));
            }
            Event::PlyLimit { plies } => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "  ply limit: play was stopped after {plies} plies; it ends as a cycle would\n"
                ));
            }
            Event::Cycle { first, ply } => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "  cycle: the position after ply {ply} repeats the one after ply {first}\n"
                ));
            }
            Event::RoundEnd {
                round,
                clause: c,
                cause: why,
                mover,
                shares,
                removed,
                winner,
                scores,
                board: at_end,
            } => {
                flush(&mut out, &mut line);
                let what = if rules.rounds.is_some() {
                    format!("round {round} ends")
                } else {
                    "the game ends".to_string()
                };
                let mut s = format!(
                    "{what} by {}: {}; {}",
                    clause(rules, *c),
                    why_ended(*why, *mover),
                    shared_out(rules, *c, *mover, *shares, *removed, at_end)
                );
                s.push_str(&format!(
                    "; South holds {}, North {}; {}\n",
                    scores[0],
                    scores[1],
                    match winner {
                        Some(w) => format!("{} wins", player_name(*w)),
                        None => "a draw".into(),
                    }
                ));
                out.push_str(&s);
                // In a match the board is refilled next; a single game's board is shown after
                // the ply as it ended.
                if rules.rounds.is_some() {
                    out.push_str(&format!("  board at the end {}\n", board(rules, at_end)));
                }
            }
            Event::Refill {
                player,
                holes,
                seeds,
                closed,
                kept,
            } => {
                flush(&mut out, &mut line);
                let mut s = format!(
                    "  refill {}: {holes} holes with {seeds} seeds, {kept} kept",
                    player_name(*player)
                );
                if *closed != 0 {
                    s.push_str(&format!(", closed {}", mask_labels(rules, *closed)));
                }
                out.push_str(&s);
                out.push('\n');
            }
            Event::RoundStart { round, starter } => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "round {round} starts, {} to move\n",
                    player_name(*starter)
                ));
            }
            Event::GameEnd {
                winner,
                scores,
                stopped,
            } => {
                flush(&mut out, &mut line);
                let result = match (stopped, winner) {
                    (Some(limit), _) => {
                        format!("stopped by the {}, no result", limit_name(*limit))
                    }
                    (None, Some(w)) => format!("{} wins", player_name(*w)),
                    (None, None) => "a draw".into(),
                };
                out.push_str(&format!(
                    "game over: {result} (South {}, North {})\n",
                    scores[0], scores[1]
                ));
            }
            Event::HandBack { hole, seeds } => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "  {} captured and still in hand go back into {}\n",
                    self::seeds(u32::from(*seeds)),
                    l(*hole)
                ));
            }
            Event::LapCap { laps } => {
                flush(&mut out, &mut line);
                out.push_str(&format!(
                    "  the move ends after {laps} laps, the most the rules allow\n"
                ));
            }
            Event::RepeatedStart => {
                flush(&mut out, &mut line);
                out.push_str(
                    "  the next round would start from a position an earlier round started from: the match ends\n",
                );
            }
            _ => {}
        }
        // After the last event of a ply, show the board.
        let ply_ends = match events.get(i + 1) {
            None => true,
            Some(Event::Move { .. }) => true,
            Some(_) => false,
        };
        if ply_ends
            && events
                .iter()
                .take(i + 1)
                .any(|e| matches!(e, Event::Move { .. }))
        {
            flush(&mut out, &mut line);
            if let Some(b) = boards.get(ply_index) {
                out.push_str(&format!("  board {}\n", board(rules, b)));
            }
            ply_index += 1;
        }
    }
    flush(&mut out, &mut line);
    out
}

/// An event as JSON, holes as labels.
pub fn event_json(rules: &Rules, e: &Event) -> Value {
    let g = &rules.geometry;
    let l = |h: Pos| {
        if h == NO_HOLE {
            Value::Null
        } else {
            Value::String(g.label(h))
        }
    };
    let p = |p: Player| Value::String(player_name(p).to_lowercase());
    let c = |id: u16| {
        let info = rules.clause(id);
        json!({ "name": info.name, "cites": info.cites })
    };
    match e {
        Event::Move { ply, player, hole } => {
            json!({"event": "move", "ply": ply, "player": p(*player), "hole": l(*hole)})
        }
        Event::Lift { lap, hole, seeds } => {
            json!({"event": "lift", "lap": lap, "hole": l(*hole), "seeds": seeds})
        }
        Event::Resow { lap, after, seeds } => {
            json!({"event": "resow", "lap": lap, "after": l(*after), "seeds": seeds})
        }
        Event::Drop { hole, seeds } => json!({"event": "drop", "hole": l(*hole), "seeds": seeds}),
        Event::Skip { hole } => json!({"event": "skip", "hole": l(*hole)}),
        Event::LapEnd { lap, last } => json!({"event": "lap_end", "lap": lap, "last": l(*last)}),
        Event::Relay { clause, hole } => {
            json!({"event": "relay", "clause": c(*clause), "hole": l(*hole)})
        }
        Event::Capture {
            clause,
            hole,
            seeds,
            to,
            resown,
        } => {
            json!({"event": "capture", "clause": c(*clause), "hole": l(*hole), "seeds": seeds, "to": to.map(p), "resown": resown})
        }
        Event::Diverted { clause, hole, to } => {
            json!({"event": "diverted", "clause": c(*clause), "hole": l(*hole), "to": p(*to)})
        }
        Event::CaptureCancelled { clause, seeds } => {
            json!({"event": "capture_cancelled", "clause": c(*clause), "seeds": seeds})
        }
        Event::MoveEnd { laps, last } => {
            json!({"event": "move_end", "laps": laps, "last": l(*last)})
        }
        Event::ExtraTurn { clause } => json!({"event": "extra_turn", "clause": c(*clause)}),
        Event::EndlessMove { first, repeat } => {
            json!({"event": "endless_move", "first_lap": first, "repeat_lap": repeat})
        }
        Event::LapLimit { laps } => json!({"event": "lap_limit", "laps": laps}),
        Event::PlyLimit { plies } => json!({"event": "ply_limit", "plies": plies}),
        Event::Cycle { first, ply } => json!({"event": "cycle", "first_ply": first, "ply": ply}),
        Event::RoundEnd {
            round,
            clause,
            cause: why,
            mover,
            shares,
            removed,
            winner,
            scores,
            board,
        } => json!({
            "event": "round_end", "round": round, "clause": c(*clause), "cause": cause(*why), "mover": p(*mover),
            "why": why_ended(*why, *mover),
            "taken_from_board": {"south": shares[0], "north": shares[1]}, "removed": removed,
            "winner": winner.map(p), "holdings": {"south": scores[0], "north": scores[1]},
            "board": position_json(rules, board),
        }),
        Event::Refill {
            player,
            holes,
            seeds,
            closed,
            kept,
        } => json!({
            "event": "refill", "player": p(*player), "holes": holes, "seeds": seeds,
            "closed": (0..64u8).filter(|b| closed & (1 << b) != 0).map(|b| g.label(b)).collect::<Vec<_>>(), "kept": kept,
        }),
        Event::RoundStart { round, starter } => {
            json!({"event": "round_start", "round": round, "starter": p(*starter)})
        }
        Event::GameEnd {
            winner,
            scores,
            stopped,
        } => {
            json!({"event": "game_end", "winner": winner.map(p), "stopped_by": stopped.map(limit_name), "holdings": {"south": scores[0], "north": scores[1]}})
        }
        Event::HandBack { hole, seeds } => {
            json!({"event": "hand_back", "hole": l(*hole), "seeds": seeds})
        }
        Event::LapCap { laps } => json!({"event": "lap_cap", "laps": laps}),
        Event::RepeatedStart => json!({"event": "repeated_start"}),
    }
}

/// A position as JSON: each row from its owner's left, holdings, closed holes.
pub fn position_json(rules: &Rules, pos: &Position) -> Value {
    let g = &rules.geometry;
    let row = |p: Player| g.holes_of(p).map(|h| seeds_in(pos, h)).collect::<Vec<_>>();
    let closed = |p: Player| {
        g.holes_of(p)
            .filter(|h| pos.closed & (1 << h) != 0)
            .map(|h| g.label(h))
            .collect::<Vec<_>>()
    };
    json!({
        "south": row(0), "north": row(1),
        "held": {"south": pos.held(rules, 0), "north": pos.held(rules, 1)},
        "removed": {"south": pos.taken[0], "north": pos.taken[1]},
        "closed": closed(0).into_iter().chain(closed(1)).collect::<Vec<_>>(),
    })
}

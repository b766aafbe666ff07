//! Rendering: boards and traces as text a person can check by eye, and as stable JSON.
//!
//! Positions and traces come from user input (set-up positions, records, rulesets): no
//! `unwrap`, `expect` or indexing that could panic.

mod output;
mod stream;

use std::borrow::Cow;

use serde_json::{Value, json};

pub use output::{Output, compact_json, pretty_json};
pub use stream::{Played, play_traced};

use crate::engine::Position;
use crate::rules::{ClauseId, MAX_SEATS, Mask, NO_HOLE, Player, Pos, Rules, bit};
use crate::ruleset::{NeutralSeeds, Remaining};
use crate::trace::{EndCause, Event, Limit};

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
        g.home_holes(p)
            .map(|h| {
                if pos.closed & (1 << h) != 0 {
                    "x".to_string()
                } else {
                    content(rules, seeds_in(pos, h), rules.piece_slots().in_hole(pos, h))
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
    let rows = if g.rows == 1 {
        format!("R[{}]", row(0))
    } else {
        format!("S[{}] N[{}]", row(0), row(1))
    };
    if g.seats > 2 || g.rows == 1 {
        // More than two players: each one's holdings, by name (rows are the board's homes).
        let held: Vec<String> = g
            .players()
            .map(|p| format!("{}={}", rules.player_key(p), pos.held(rules, p)))
            .collect();
        s = format!("{rows} held {}", held.join(" "));
        if pos.out != 0 {
            s.push_str(&format!(" out={}", seat_names(rules, pos.out)));
        }
    }
    if pos.rotation != 0 && rules.rounds.as_ref().is_some_and(|r| r.win_holes) {
        // The holes each player won and owns for the round: every player's holes, in turn
        // order (from the table of layouts, whichever layout `rules` is of).
        let layout = rules.layouts.get(pos.rotation).unwrap_or_default();
        let owned: Vec<String> = (g.players())
            .zip(layout)
            .map(|(_, mask)| set_labels(g, mask))
            .collect();
        s.push_str(&format!(" owners={}", owned.join("/")));
    } else if pos.rotation != 0 {
        s.push_str(&format!(" rotation={}", pos.rotation));
    }
    match &pos.offer {
        crate::engine::Offer::Sow => {}
        // The player to move may decline the extra turn they are in.
        crate::engine::Offer::Decline => s.push_str(" optional_turn"),
        // The player to move may exchange sides (the pie rule).
        crate::engine::Offer::Swap => s.push_str(" swap"),
        // The round's first ply is the race.
        crate::engine::Offer::Race { starts } => {
            s.push_str(" race");
            if starts.iter().any(|&h| h != crate::rules::NO_HOLE) {
                s.push_str(&format!("={}", start_labels(rules, starts)));
            }
        }
        // The race's starts chosen so far, the player to move choosing theirs.
        crate::engine::Offer::RaceStart { starts } => {
            s.push_str(&format!(" race_start={}", start_labels(rules, starts)));
        }
        crate::engine::Offer::Decide(p) => {
            s.push(' ');
            s.push_str(&stopped_word(rules, p));
        }
        // The players still to arrange their seeds before play.
        crate::engine::Offer::Arrange { left, refill } => {
            s.push_str(&format!(" arranging={}", seat_names(rules, *left)));
            if *refill {
                s.push_str(" then_refill");
            }
        }
    }
    let [south, north, ..] = pos.taken;
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
    // The pieces not held by their owners off the board, as they start (the others read
    // back so): `stone.south=s3^2@north`, where it is, how many are on it, who holds it.
    if let Some(kind) = &rules.pieces {
        for (owner, piece) in rules.piece_slots().all(pos) {
            if piece.at == NO_HOLE && piece.holder == owner {
                continue;
            }
            let place = if piece.at == NO_HOLE {
                "held".to_string()
            } else {
                g.label(piece.at)
            };
            s.push_str(&format!(
                " {}.{}={place}",
                kind.name,
                rules.player_key(owner)
            ));
            if piece.covered > 0 {
                s.push_str(&format!("^{}", piece.covered));
            }
            if piece.holder != owner {
                s.push_str(&format!("@{}", rules.player_key(piece.holder)));
            }
        }
    }
    // The variables that differ from their first values (the others read back as those).
    // Each value from its slots at `at` (a set of holes takes two).
    let value = |v: &crate::rules::VarInfo, at: usize| {
        let x = pos.vars.get(at).copied().unwrap_or(0);
        match v.kind {
            crate::ruleset::VarKind::Number => x.to_string(),
            crate::ruleset::VarKind::Flag => (x != 0).to_string(),
            crate::ruleset::VarKind::Direction => match x {
                1 => "ccw".into(),
                2 => "cw".into(),
                _ => "none".into(),
            },
            crate::ruleset::VarKind::Holes => set_labels(g, crate::rules::holes_in(&pos.vars, at)),
        }
    };
    let vars: Vec<String> = rules
        .vars
        .iter()
        .filter_map(|v| {
            let slots = usize::from(v.slots);
            let first = usize::from(v.slot);
            let changed =
                (first..first + slots).any(|k| pos.vars.get(k).copied().unwrap_or(0) != v.initial);
            changed.then(|| {
                let width = usize::from(v.width.max(1));
                let shown: Vec<String> = (first..first + slots)
                    .step_by(width)
                    .map(|at| value(v, at))
                    .collect();
                format!("{}={}", v.name, shown.join("/"))
            })
        })
        .collect();
    if !vars.is_empty() {
        s.push_str(&format!(" vars {}", vars.join(" ")));
    }
    s
}

/// The letter that marks a player's piece (`[pieces]`) in a drawn hole: their name's first,
/// lower-case (`s`, `n`).
fn piece_letter(rules: &Rules, owner: Player) -> char {
    let first = rules.player_key(owner).chars().next().unwrap_or('?');
    first.to_ascii_lowercase()
}

/// The pieces (`[pieces]`) player `p` holds off the board, as a drawing writes them after their
/// seeds: ` and stones s, n` (each by its first owner's letter), or nothing.
fn held_pieces(rules: &Rules, pos: &Position, p: Player) -> String {
    let letters: Vec<String> = (rules.piece_slots().all(pos))
        .filter(|(_, x)| x.at == NO_HOLE && x.holder == p)
        .map(|(owner, _)| piece_letter(rules, owner).to_string())
        .collect();
    match letters.len() {
        0 => String::new(),
        1 => format!(" and {} {}", piece_name(rules), letters.join(", ")),
        _ => format!(" and {}s {}", piece_name(rules), letters.join(", ")),
    }
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
/// to left (so holes face each other), South's row below. A store on the track is drawn at
/// its row's end, on the side the ruleset puts it (a store on its owner's right is on the
/// right of South's row and on the left of North's, as South sees the board); reserves are
/// written above and below. A claimed hole shows its claimer, `(S)` or `(N)`.
pub fn picture(rules: &Rules, pos: &Position) -> String {
    let g = &rules.geometry;
    let letter = |p: Player| if p == 0 { 'S' } else { 'N' };
    let claimer = |h: Pos| (0..2u8).find(|&p| pos.claims.get(usize::from(p)) == Some(&h));
    let cell = |h: Pos| -> String {
        let seeds = seeds_in(pos, h);
        if pos.closed & bit(h) != 0 {
            " --".to_string()
        } else if let Some(p) = claimer(h) {
            // Every seed sown there goes to the claimer, so it holds none (a refill aside).
            if seeds == 0 {
                format!("({})", letter(p))
            } else {
                format!("{:>3}", format!("{}{seeds}", letter(p)))
            }
        } else if rules.piece_slots().in_hole(pos, h) > 0 {
            // The pieces after the seeds, each by its first owner's letter: `5n`.
            let pieces = rules.piece_slots();
            let mut text = (seeds - pieces.in_hole(pos, h)).to_string();
            for (owner, _) in pieces.all(pos).filter(|(_, p)| p.at == h) {
                text.push(piece_letter(rules, owner));
            }
            format!("{text:>3}")
        } else {
            format!("{seeds:>3}")
        }
    };
    let label = |h: Pos| format!("{:>3}", g.label(h));
    if g.rows == 1 {
        return ring_picture(rules, pos, &cell);
    }
    let per = g.holes_per_row as usize;
    // Rows from the top: North's back (4 rows), North's front, South's front, South's back.
    // Each player's holes on three or four rows: their outer row, then those numbered after it
    // (their inner row, or their half of the middle row).
    let halves = |p: Player| -> (Vec<Pos>, Vec<Pos>) {
        let holes: Vec<Pos> = g.home_holes(p).collect();
        let (outer, inner) = holes.split_at_checked(per).unwrap_or((&holes, &[]));
        (outer.to_vec(), inner.to_vec())
    };
    let rows: Vec<Vec<Pos>> = if g.rows == 2 {
        let north: Vec<Pos> = g.home_holes(1).rev().collect();
        let south: Vec<Pos> = g.home_holes(0).collect();
        vec![north, south]
    } else if g.rows == 3 {
        // North's row, the middle row (North's half on South's left), South's row.
        let (n_row, n_middle) = halves(1);
        let (s_row, s_middle) = halves(0);
        let middle = n_middle.into_iter().chain(s_middle.into_iter().rev());
        vec![n_row.into_iter().rev().collect(), middle.collect(), s_row]
    } else {
        let (n_outer, n_inner) = halves(1);
        let (s_outer, s_inner) = halves(0);
        vec![
            n_outer.into_iter().rev().collect(),
            n_inner,
            s_inner.into_iter().rev().collect(),
            s_outer,
        ]
    };
    // Stores on the track sit at the ends of the line between the rows: the player whose
    // store is drawn on the left, and the part of the line left of the holes.
    let track = match (g.rows, g.store_of(0), g.store_of(1)) {
        (2, Some(south), Some(_)) => {
            let south_on_right = g.home_holes(0).last().is_some_and(|h| south > h);
            let width = rules.total_seeds().max(1).to_string().len();
            let left = if south_on_right { 1 } else { 0 };
            Some((left, width))
        }
        _ => None,
    };
    let store_part = |p: Player, width: usize, on_left: bool| {
        let held = pos.held(rules, p);
        if on_left {
            format!("{}* {held:>width$}", letter(p))
        } else {
            format!("{held:<width$} {}*", letter(p))
        }
    };
    let margin = match track {
        Some((left, width)) => " ".repeat(6 + store_part(left, width, true).len() + 1),
        None => " ".repeat(6),
    };
    let mut out = String::new();
    let reserve = |p: Player| {
        format!(
            "      {} reserve {}{}\n",
            name(rules, p),
            pos.held(rules, p),
            held_pieces(rules, pos, p)
        )
    };
    if track.is_none() {
        // The players other than South (the first) above the board, in turn order.
        for p in g.players().skip(1) {
            out.push_str(&reserve(p));
        }
    }
    for (i, r) in rows.iter().enumerate() {
        let top = i < rows.len() / 2;
        let labels: String = r.iter().map(|&h| label(h)).collect::<Vec<_>>().join(" ");
        let seeds: String = r.iter().map(|&h| cell(h)).collect::<Vec<_>>().join(" ");
        if top {
            out.push_str(&format!("{margin}{labels}\n{margin}{seeds}\n"));
        } else {
            out.push_str(&format!("{margin}{seeds}\n{margin}{labels}\n"));
        }
        // The line between the players' sides; on three rows, one each side of the middle row.
        if i + 1 == rows.len() / 2 || (rows.len() == 3 && i == 1) {
            let line = "-".repeat(per * 4 - 1);
            match track {
                Some((left, width)) => out.push_str(&format!(
                    "      {} {line} {}\n",
                    store_part(left, width, true),
                    store_part(1 - left, width, false)
                )),
                None => out.push_str(&format!("      {line}\n")),
            }
        }
    }
    if track.is_none() {
        out.push_str(&reserve(0));
    }
    for p in g.players() {
        if let Some(&h) = pos.claims.get(usize::from(p))
            && h != NO_HOLE
        {
            out.push_str(&format!(
                "      ({}) {} is claimed by {}: every seed sown there is {}'s\n",
                letter(p),
                g.label(h),
                name(rules, p),
                name(rules, p)
            ));
        }
    }
    out
}

/// A ring drawn as one line from r1 on, each player's holes between bars (their owner's
/// name under them), the last hole followed by the first; then what each player holds.
fn ring_picture(rules: &Rules, pos: &Position, cell: &dyn Fn(Pos) -> String) -> String {
    let g = &rules.geometry;
    // Runs of holes with one owner, in ring order.
    let mut runs: Vec<(Player, Vec<Pos>)> = Vec::new();
    for h in g.home_holes(0) {
        let owner = g.owner_of(h);
        match runs.last_mut() {
            Some((o, holes)) if *o == owner => holes.push(h),
            _ => runs.push((owner, vec![h])),
        }
    }
    let mut lines = [String::new(), String::new(), String::new()];
    for (owner, holes) in &runs {
        let labels: Vec<String> = holes
            .iter()
            .map(|&h| format!("{:>3}", g.label(h)))
            .collect();
        let seeds: Vec<String> = holes.iter().map(|&h| cell(h)).collect();
        let (labels, seeds) = (labels.join(" "), seeds.join(" "));
        let who = if *owner == crate::rules::NOBODY {
            "nobody".to_string()
        } else {
            name(rules, *owner)
        };
        let width = labels.len().max(who.len());
        for (line, text) in lines.iter_mut().zip([&labels, &seeds, &who]) {
            line.push_str(&format!(" |{text:>width$}"));
        }
    }
    let mut out: String = lines.iter().map(|l| format!("     {l} |\n")).collect();
    let first = g
        .home_holes(0)
        .next()
        .map(|h| g.label(h))
        .unwrap_or_default();
    let last = g
        .home_holes(0)
        .last()
        .map(|h| g.label(h))
        .unwrap_or_default();
    out.push_str(&format!("      (a ring: {last} is followed by {first})\n"));
    for p in g.players() {
        out.push_str(&format!(
            "      {} holds {}\n",
            name(rules, p),
            pos.held(rules, p)
        ));
    }
    out
}

/// A player's name as text shows it (`South`, `West`).
fn name(rules: &Rules, p: Player) -> String {
    rules.player_title(p)
}

/// Each player with a number, in turn order: `South 3, North 4`.
fn each(rules: &Rules, values: &[u32]) -> String {
    (rules.geometry.players())
        .zip(values)
        .map(|(p, v)| format!("{} {v}", name(rules, p)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each player's number as JSON, by name: `{"south": 3, "north": 4}`.
fn each_json(rules: &Rules, values: &[u32]) -> Value {
    let map: serde_json::Map<String, Value> = (rules.geometry.players())
        .zip(values)
        .map(|(p, &v)| (rules.player_key(p).to_string(), Value::from(v)))
        .collect();
    Value::Object(map)
}

fn to_name(rules: &Rules, to: Option<Player>) -> String {
    match to {
        Some(p) => name(rules, p),
        None => "out of play".into(),
    }
}

/// A clause as traces name it: `"name" [cites]`, control characters escaped.
pub fn clause(rules: &Rules, id: u16) -> String {
    let c = rules.clause(id);
    match &c.cites {
        Some(cites) => format!("\"{}\" [{}]", escape(&c.name), escape(cites)),
        None => format!("\"{}\"", escape(&c.name)),
    }
}

/// Text from a ruleset or a record, made safe to print on a terminal: control characters
/// (an escape sequence would recolour the screen, move the cursor or rewrite what is shown)
/// are written as Rust escapes, `\u{1b}`. Text without any is borrowed unchanged.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The players of a mask of seats, by name, joined by commas (`out=`, `arranging=`).
fn seat_names(rules: &Rules, seats: u8) -> String {
    (rules.geometry.players())
        .filter(|&p| seats & (1 << p) != 0)
        .map(|p| rules.player_key(p))
        .collect::<Vec<_>>()
        .join(",")
}

/// Who goes first in a round's race, as the round's start says it: the starter's drops (and,
/// where the players choose where they race from, their choice).
fn race_order(rules: &Rules, starter: Player) -> String {
    let who = name(rules, starter);
    match &rules.race {
        Some(r) if r.from.is_chosen() => format!(
            ", {who} first to choose the hole they race from, and their drops first in each tick"
        ),
        _ => format!(", {who}'s drops first in each tick"),
    }
}

/// Each player's start in the race, in seat order, joined by commas: a hole's label, or `-`
/// for none (`race=`, `race_start=`).
fn start_labels(rules: &Rules, starts: &crate::engine::Starts) -> String {
    (rules.geometry.players())
        .map(|p| match starts.get(usize::from(p)) {
            Some(&h) if h != crate::rules::NO_HOLE => rules.geometry.label(h),
            _ => "-".to_string(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// What a player does to a hole in the arrangement before play (`put`, or a pick), as text
/// and the HTML replay write it.
pub fn placed_words(rules: &Rules, put: bool, piece: bool) -> String {
    match (put, piece) {
        (_, true) => format!("puts a {} into", piece_name(rules)),
        (true, false) => "puts a seed into".to_string(),
        (false, false) => "picks up a seed from".to_string(),
    }
}

/// The name of the rules' pieces (`[pieces.NAME]`).
pub fn piece_name(rules: &Rules) -> &str {
    rules.pieces.as_ref().map_or("piece", |p| p.name.as_str())
}

/// A hole's content as positions write it: its seeds, then `+NAME` for each piece in it
/// (`5+stone`); `units` counts the pieces too.
pub fn content(rules: &Rules, units: u16, pieces: u16) -> String {
    if pieces == 0 {
        return units.to_string();
    }
    let name = piece_name(rules);
    let mut text = units.saturating_sub(pieces).to_string();
    for _ in 0..pieces {
        text.push('+');
        text.push_str(name);
    }
    text
}

/// The move a `Decided` event answers with: the decision, and the hole chosen for
/// `choose` ([`NO_HOLE`](crate::rules::NO_HOLE) for the others).
pub fn decided(decision: crate::engine::Decision, hole: Pos) -> crate::engine::Move {
    crate::engine::Move {
        hole,
        ..crate::engine::Move::decide(decision)
    }
}

/// The holes of a mask of positions, in the board's order: `n1, n2 or n4`.
fn hole_list(rules: &Rules, holes: Mask) -> String {
    let labels = rules.geometry.labels_of(holes);
    match labels.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "no hole".into(),
    }
}

/// The relay as a trace line names it: the ruleset's only one, with no name of its own, so
/// `relay` and its citation.
fn relay_words(rules: &Rules, c: ClauseId) -> String {
    let cites =
        (rules.clause(c).cites.as_ref()).map_or(String::new(), |c| format!(" [{}]", escape(c)));
    format!("relay{cites}")
}

/// A set of holes (a mask of positions) as the notation writes it: the labels joined by `+`,
/// or `-` for none.
fn set_labels(g: &crate::rules::Geometry, mask: Mask) -> String {
    let labels = g.labels_of(mask);
    if labels.is_empty() {
        "-".to_string()
    } else {
        labels.join("+")
    }
}

/// A move stopped for the mover's decision, as the position's notation writes it:
/// `stopped=c4:s3:ccw:n2:n1:2:0:0:` (the clause's number, the move's first hole and direction,
/// the lap's last hole and first hole, the lap's number, the seeds captured so far, the seeds
/// entered, then flags: `m` a move-end clause, `r` a lap against the move's direction, `s` a lap
/// of captured seeds sown again, `o` the opponent's row reached).
pub fn stopped_word(rules: &Rules, p: &crate::engine::Pending) -> String {
    let g = &rules.geometry;
    let flags: String = [
        (p.at_move_end, 'm'),
        (p.reversed, 'r'),
        (p.resowing, 's'),
        (p.reached_opponent, 'o'),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|&(_, c)| c)
    .collect();
    // What the lap's last hole held before its last seed, where the rules read it.
    let landed = p.landed.map_or(String::new(), |n| format!(":{n}"));
    format!(
        "stopped=c{}:{}:{}:{}:{}:{}:{}:{}:{flags}{landed}",
        p.clause,
        g.label(p.origin),
        p.dir.word(),
        g.label(p.last),
        g.label(p.lap_origin),
        p.lap,
        p.captured,
        p.entered
    )
}

/// In a race, the events that say whose sowing the next ones are ([`Event::Racer`]) as an
/// output shows them: one before the first shown event of a sowing other than the last one
/// named, none where nothing of a sowing is shown.
#[derive(Debug, Clone, Copy, Default)]
pub struct Racing {
    pending: Option<Player>,
    written: Option<Player>,
}

impl Racing {
    /// For `e`: the racer event to show before it, if one, and whether `e` is shown at
    /// `detail`.
    pub fn filter(&mut self, e: &Event, detail: Detail) -> (Option<Event>, bool) {
        match e {
            Event::Racer { player } => {
                self.pending = Some(*player);
                (None, false)
            }
            Event::Race { .. } | Event::RaceOver { .. } | Event::EndlessRace { .. } => {
                *self = Racing::default();
                (None, shown(e, detail))
            }
            _ if !shown(e, detail) => (None, false),
            _ => match self.pending {
                Some(p)
                    if self.written != Some(p) && shown(&Event::Racer { player: p }, detail) =>
                {
                    self.written = Some(p);
                    (Some(Event::Racer { player: p }), true)
                }
                _ => (None, true),
            },
        }
    }
}

/// Whether an event is shown at this detail, in text and JSON alike.
pub fn shown(e: &Event, detail: Detail) -> bool {
    match e {
        Event::Lift { .. }
        | Event::Resow { .. }
        | Event::Enter { .. }
        | Event::LapEnd { .. }
        | Event::Relay { .. }
        | Event::MoveEnd { .. } => detail >= Detail::Laps,
        Event::Drop { .. }
        | Event::Skip { .. }
        | Event::Diverted { .. }
        | Event::Redirect { .. } => detail >= Detail::Drops,
        // In a race, whose sowing the events that follow are (written only before one of
        // them that is shown: see [`Racing`]).
        Event::Racer { .. } => detail >= Detail::Laps,
        Event::Move { .. }
        | Event::Pass { .. }
        | Event::Concede { .. }
        | Event::Swap { .. }
        | Event::Race { .. }
        | Event::RaceStart { .. }
        | Event::RaceOver { .. }
        | Event::EndlessRace { .. }
        | Event::Decided { .. }
        | Event::Placed { .. }
        | Event::Arranged { .. }
        | Event::CaptureOffered { .. }
        | Event::ChoiceOffered { .. }
        | Event::RelayOffered { .. }
        | Event::Effect { .. }
        | Event::Capture { .. }
        | Event::CaptureCancelled { .. }
        | Event::ExtraTurn { .. }
        | Event::EndlessMove { .. }
        | Event::LapLimit { .. }
        | Event::StepLimit { .. }
        | Event::PlyLimit { .. }
        | Event::Cycle { .. }
        | Event::RoundEnd { .. }
        | Event::LapCap { .. }
        | Event::HandBack { .. }
        | Event::Refused { .. }
        | Event::RepeatedStart
        | Event::Out { .. }
        | Event::OwnersMoved
        | Event::HolesWon { .. }
        | Event::Restart
        | Event::Gift { .. }
        | Event::Refill { .. }
        | Event::RoundStart { .. }
        | Event::GameEnd { .. } => true,
    }
}

fn cause(c: EndCause) -> &'static str {
    match c {
        EndCause::NoMove => "no legal move",
        EndCause::EndlessMove => "endless move",
        EndCause::Cycle => "position repeated",
        EndCause::Condition => "end condition",
        EndCause::NoCapture => "no capture",
        EndCause::NoFurtherCapture => "no further capture",
        EndCause::NoCaptureReachable => "no capture reachable",
        EndCause::Concede => "concede",
    }
}

/// Why a round ended, naming the player the ending names.
fn why_ended(rules: &Rules, c: EndCause, mover: Player) -> String {
    let who = name(rules, mover);
    match c {
        // With passing, a round ends for want of a move only when nobody has one.
        EndCause::NoMove if rules.pass => "nobody can move".to_string(),
        EndCause::NoMove => format!("{who} cannot move"),
        EndCause::EndlessMove => format!("{who}'s move never ends"),
        EndCause::Cycle => format!("the position repeats, {who} to move"),
        EndCause::Condition => format!("its condition holds, {who} to move"),
        EndCause::NoCapture => format!("no legal move of any player can capture, {who} to move"),
        EndCause::NoFurtherCapture => {
            format!("no further capture can be made, {who} to move")
        }
        EndCause::NoCaptureReachable => {
            format!("no play to come can capture any more, {who} to move")
        }
        EndCause::Concede => format!("{who} concedes"),
    }
}

/// What each player holds at a round's end: `South holds 3, North 4`.
fn holds(rules: &Rules, scores: &[u32; MAX_SEATS]) -> String {
    let mut parts = (rules.geometry.players())
        .zip(scores)
        .map(|(p, n)| (name(rules, p), n));
    let first = parts
        .next()
        .map(|(who, n)| format!("{who} holds {n}"))
        .unwrap_or_default();
    std::iter::once(first)
        .chain(parts.map(|(who, n)| format!("{who} {n}")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How the seeds left on the board were shared out at a round's end.
fn shared_out(
    rules: &Rules,
    ending: u16,
    mover: Player,
    shares: [u32; MAX_SEATS],
    removed: u32,
    neutral: u32,
    at_end: &Position,
) -> String {
    let players = (rules.geometry.players())
        .filter(|&p| at_end.out & (1 << p) == 0)
        .count() as u32;
    let own = shares.map(|s| s.saturating_sub(neutral));
    let rest = shared_rest(rules, ending, mover, own, removed, at_end);
    if rules.geometry.neutral_mask() == 0 {
        return rest;
    }
    let left = neutral_left(rules, at_end);
    if rules.neutral_seeds != NeutralSeeds::Shared {
        return match left {
            0 => format!("{rest}; the neutral holes are empty"),
            n => format!(
                "{rest}; the {} in the neutral holes stay on the board, counted for nobody",
                seeds(n)
            ),
        };
    }
    let kept = match left {
        0 => String::new(),
        1 => ", and the 1 that does not divide stays on the board, counted for nobody".into(),
        n => format!(", and the {n} that do not divide stay on the board, counted for nobody"),
    };
    match (neutral, left) {
        (0, 0) => format!("{rest}; the neutral holes are empty"),
        (0, 1) => format!(
            "{rest}; the 1 seed of the neutral holes is too few to share and stays on the board, counted for nobody"
        ),
        (0, _) => format!(
            "{rest}; the {left} seeds of the neutral holes are too few to share and stay on the board, counted for nobody"
        ),
        (each, _) => format!(
            "{rest}; the {} of the neutral holes are shared: {each} each{kept}",
            seeds(each * players + left)
        ),
    }
}

/// Seeds left in the neutral holes.
fn neutral_left(rules: &Rules, at_end: &Position) -> u32 {
    (rules.geometry.neutral_holes())
        .map(|h| u32::from(at_end.seeds(h)))
        .sum()
}

/// How the seeds left in the players' holes were shared out at a round's end.
fn shared_rest(
    rules: &Rules,
    ending: u16,
    mover: Player,
    shares: [u32; MAX_SEATS],
    removed: u32,
    at_end: &Position,
) -> String {
    let remaining = rules.ending(ending).map(|e| e.remaining);
    let left: u32 = shares.iter().sum::<u32>() + removed;
    // With neutral holes, what is said here is of the players' holes only.
    let nothing = if rules.geometry.neutral_mask() == 0 {
        "no seeds are left on the board"
    } else {
        "no seeds are left in the players' holes"
    };
    if remaining == Some(Remaining::Stay) {
        let on_board: u32 = (rules.geometry.players())
            .map(|p| at_end.row_seeds(rules, p))
            .sum();
        return match on_board {
            0 => nothing.into(),
            1 => "the 1 seed left stays on the board, counted for nobody".into(),
            n => format!(
                "the {} left stay on the board, counted for nobody",
                seeds(n)
            ),
        };
    }
    if left == 0 {
        return nothing.into();
    }
    match remaining {
        Some(Remaining::Owners) => format!(
            "each player takes the seeds in their own holes ({})",
            each(rules, &shares)
        ),
        Some(Remaining::Removed) => format!("the {} left leave the game", seeds(left)),
        Some(Remaining::Mover) => format!("{} takes the {} left", name(rules, mover), seeds(left)),
        Some(Remaining::Opponent) => {
            format!("{} takes the {} left", name(rules, mover ^ 1), seeds(left))
        }
        Some(r @ (Remaining::LastMover | Remaining::Starter)) => {
            let (who, nobody) = if r == Remaining::Starter {
                ("who started the round", "the round's starter")
            } else {
                ("the last to move", "the last to move")
            };
            // Everything went to one player: the one with a share.
            let taker =
                (rules.geometry.players()).find(|&p| shares.get(usize::from(p)) == Some(&left));
            match taker {
                Some(p) => format!("{}, {who}, takes the {} left", name(rules, p), seeds(left)),
                // Before anyone has sown there is no last mover: each took their own.
                None if r == Remaining::LastMover => format!(
                    "nobody has sown yet, so each player takes the seeds in their own holes ({})",
                    each(rules, &shares)
                ),
                None => format!("{nobody} takes the {} left", seeds(left)),
            }
        }
        None => (rules.geometry.players())
            .zip(shares)
            .map(|(p, n)| format!("{} takes {n}", name(rules, p)))
            .collect::<Vec<_>>()
            .join(", "),
        Some(Remaining::Stay) => String::new(),
    }
}

/// Where captured seeds go: a player, out of the game, or into the hand to be sown again.
fn taker(rules: &Rules, to: Option<Player>, resown: bool) -> String {
    if resown {
        return "in hand, to be sown".into();
    }
    to_name(rules, to)
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
pub fn limit_name(limit: Limit) -> &'static str {
    match limit {
        Limit::Laps => "lap limit",
        Limit::Steps => "limit on the work of a move",
        Limit::Plies => "ply limit",
        Limit::Rounds => "limit on rounds in which nobody can move",
        Limit::Layouts => "limit on the layouts of owners a match can name",
    }
}

fn mask_labels(rules: &Rules, mask: Mask) -> String {
    rules.geometry.labels_of(mask).join(" ")
}

/// Renders a trace as text. `boards` gives the position after each ply (by ply number order),
/// shown after the ply's events.
pub fn trace_text(rules: &Rules, events: &[Event], boards: &[Position], detail: Detail) -> String {
    let mut text = Vec::new();
    {
        let mut out = Output::new(&mut text);
        let mut trace = TextTrace::new(detail);
        let mut plies = 0usize;
        for e in events {
            // A ply that moves seeds: a sowing, a decision at a move that stopped, a seed
            // placed in the arrangement before play, or a swap that turns the board round (a
            // pass changes no seed, and shows no board).
            if let Event::Move { .. }
            | Event::Decided { .. }
            | Event::Placed { .. }
            | Event::Swap { .. }
            | Event::Race { .. } = e
            {
                if plies > 0 {
                    trace.end_ply(rules, boards.get(plies - 1), &mut out);
                }
                plies += 1;
            }
            trace.event(rules, e, &mut out);
        }
        match plies.checked_sub(1) {
            Some(last) => trace.end_ply(rules, boards.get(last), &mut out),
            None => trace.finish(&mut out),
        }
    }
    // Only `str`s were written.
    String::from_utf8_lossy(&text).into_owned()
}

/// The text trace, written as the events come. Laps and captures get a line each (from
/// [`Detail::Laps`]), and at [`Detail::Drops`] every seed sown goes on its lap's line. Beyond
/// the detail it keeps only whether a line is open, so a move of a million laps is written in
/// the memory of one.
#[derive(Debug, Clone, Copy)]
pub struct TextTrace {
    detail: Detail,
    line: Line,
    /// The lap whose lift the open line ends with, nothing written after it: a further lift
    /// of the same lap (`[sowing] gather`) joins that line.
    lifted: Option<u32>,
    /// In a race: whose sowing the events are, and whose the open line is.
    racer: Option<Player>,
    line_racer: Option<Player>,
}

/// The lap line being written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// None is open.
    Closed,
    /// Its start is written, its end is not.
    Open,
    /// A capture interrupted the lap: its drops go on, on a line of their own that starts
    /// with `...` (not written until something follows it).
    Continued,
}

impl TextTrace {
    pub fn new(detail: Detail) -> TextTrace {
        TextTrace {
            detail,
            line: Line::Closed,
            lifted: None,
            racer: None,
            line_racer: None,
        }
    }

    /// Adds to the lap line, opening it if need be.
    fn push(&mut self, out: &mut Output<'_>, args: std::fmt::Arguments<'_>) {
        if self.line == Line::Continued {
            out.text("     ...");
        }
        out.say(args);
        self.line = Line::Open;
        self.lifted = None;
    }

    /// Ends the lap line, if one is open.
    pub fn finish(&mut self, out: &mut Output<'_>) {
        if self.line == Line::Open {
            out.text("\n");
        }
        self.line = Line::Closed;
        self.lifted = None;
    }

    /// Ends a ply: the lap line, then the board after the ply if one is given.
    pub fn end_ply(&mut self, rules: &Rules, board: Option<&Position>, out: &mut Output<'_>) {
        self.finish(out);
        if let Some(b) = board {
            out.say(format_args!("  board {}\n", notation(rules, b)));
        }
    }

    /// An event of `racer`'s sowing in a race, written with the racer's name (the sowings'
    /// events come interleaved, a tick at a time): whether it was one (handled, or below
    /// the detail), else it is written as any other.
    fn race_event(
        &mut self,
        rules: &Rules,
        racer: Player,
        e: &Event,
        out: &mut Output<'_>,
    ) -> bool {
        let g = &rules.geometry;
        let l = |h: Pos| g.label(h);
        let (laps, drops) = (self.detail >= Detail::Laps, self.detail >= Detail::Drops);
        let who = name(rules, racer);
        // The racer's own line goes on; another's is ended first.
        let own_line = self.line != Line::Closed && self.line_racer == Some(racer);
        match e {
            Event::Racer { player } => self.racer = Some(*player),
            Event::Race { .. } | Event::RaceOver { .. } | Event::EndlessRace { .. } => {
                self.racer = None;
                self.line_racer = None;
                return false;
            }
            Event::Lift {
                lap, hole, seeds, ..
            } => {
                if laps {
                    self.finish(out);
                    self.push(
                        out,
                        format_args!("  {who} lap {lap}: lift {} ({seeds})", l(*hole)),
                    );
                    self.line_racer = Some(racer);
                }
            }
            Event::Resow { lap, after, seeds } => {
                if laps {
                    self.finish(out);
                    self.push(
                        out,
                        format_args!(
                            "  {who} lap {lap}: sow {} after {}",
                            self::seeds(u32::from(*seeds)),
                            l(*after)
                        ),
                    );
                    self.line_racer = Some(racer);
                }
            }
            Event::Drop { hole, .. } | Event::Skip { hole, clause: None } => {
                if drops {
                    if !own_line {
                        self.finish(out);
                        self.push(out, format_args!("  {who} sows on:"));
                        self.line_racer = Some(racer);
                    }
                    match e {
                        Event::Drop { seeds, .. } => {
                            self.push(out, format_args!(" {}:{seeds}", l(*hole)));
                        }
                        _ => self.push(out, format_args!(" (skip {})", l(*hole))),
                    }
                }
            }
            Event::LapEnd { lap, last } => {
                if laps {
                    if own_line {
                        self.push(out, format_args!(" -> ends in {}", l(*last)));
                        self.finish(out);
                    } else {
                        self.finish(out);
                        out.say(format_args!("  {who} lap {lap} ends in {}\n", l(*last)));
                    }
                }
            }
            Event::Relay { clause: c, hole } => {
                if laps {
                    self.finish(out);
                    out.say(format_args!(
                        "  {who}: {} from {}\n",
                        relay_words(rules, *c),
                        l(*hole)
                    ));
                }
            }
            Event::MoveEnd { laps: n, last } => {
                if laps {
                    self.finish(out);
                    out.say(format_args!(
                        "  {who}'s sowing ends in {} after {n} lap{}\n",
                        l(*last),
                        if *n == 1 { "" } else { "s" }
                    ));
                }
            }
            Event::HandBack { hole, seeds } => {
                self.finish(out);
                out.say(format_args!(
                    "  {who} puts the {} in hand back into {}\n",
                    self::seeds(u32::from(*seeds)),
                    l(*hole)
                ));
            }
            _ => return false,
        }
        true
    }

    /// Writes one event (nothing, for an event below the detail).
    pub fn event(&mut self, rules: &Rules, e: &Event, out: &mut Output<'_>) {
        let g = &rules.geometry;
        let l = |h: Pos| g.label(h);
        let laps = self.detail >= Detail::Laps;
        let drops = self.detail >= Detail::Drops;
        if let Some(racer) = self.racer
            && self.race_event(rules, racer, e, out)
        {
            return;
        }
        match e {
            Event::Racer { player } => self.racer = Some(*player),
            Event::Race {
                ply,
                player: _,
                starts,
            } => {
                self.finish(out);
                let racing: Vec<String> = (rules.geometry.players())
                    .filter_map(|p| {
                        let h = *starts.get(usize::from(p))?;
                        (h != crate::rules::NO_HOLE)
                            .then(|| format!("{} from {}", name(rules, p), l(h)))
                    })
                    .collect();
                let out_of_it: Vec<String> = (rules.geometry.players())
                    .filter(|&p| starts.get(usize::from(p)) == Some(&crate::rules::NO_HOLE))
                    .map(|p| name(rules, p))
                    .collect();
                let who = match (racing.len(), out_of_it.is_empty()) {
                    (0, _) => "nobody can race".to_string(),
                    (_, true) => format!("{}, sowing at once", racing.join(", ")),
                    (_, false) => format!(
                        "{} ({} cannot race: no open hole holding seeds, and no other racer's, to race from)",
                        racing.join(", "),
                        out_of_it.join(", ")
                    ),
                };
                out.say(format_args!("ply {ply}: the race: {who}\n"));
            }
            Event::RaceOver { first, next, cut } => {
                self.finish(out);
                let first = if *first == crate::rules::NOBODY {
                    "nobody raced".to_string()
                } else {
                    format!("{}'s sowing ended first", name(rules, *first))
                };
                let back = (rules.race.as_ref())
                    .is_some_and(|r| r.unfinished == crate::ruleset::RaceUnfinished::Back);
                let what = if back {
                    "put back"
                } else {
                    "sown on, reading no clause"
                };
                let cut: String = (rules.geometry.players())
                    .filter(|p| cut & (1 << p) != 0)
                    .map(|p| {
                        format!(
                            "; {}'s is cut short, the seeds in hand {what}",
                            name(rules, p)
                        )
                    })
                    .collect();
                out.say(format_args!(
                    "  the race is over: {first}{cut}; {} to move\n",
                    name(rules, *next)
                ));
            }
            Event::EndlessRace { first, repeat } => {
                self.finish(out);
                out.say(format_args!(
                    "  the race never ends: its state after tick {repeat} is its state after tick {first}\n"
                ));
            }
            Event::Move {
                ply,
                player,
                hole,
                dir,
                entered,
            } => {
                self.finish(out);
                let (mv, entry) = if *entered > 0 {
                    let at = format!(
                        " (enters {} from hand at {})",
                        seeds(u32::from(*entered)),
                        l(*hole)
                    );
                    // Where the mover chose the start, the move names it.
                    let chosen = (rules.entry.as_ref()).is_some_and(|e| e.start.is_chosen());
                    let mv = if chosen {
                        crate::engine::Move::enter_at(*entered, *hole, *dir)
                    } else {
                        crate::engine::Move::enter(*entered, *dir)
                    };
                    (mv, at)
                } else {
                    let mv = match dir {
                        Some(d) => crate::engine::Move::towards(*hole, *d),
                        None => crate::engine::Move::sow(*hole),
                    };
                    (mv, String::new())
                };
                out.say(format_args!(
                    "ply {ply}: {} plays {}{entry}\n",
                    name(rules, *player),
                    mv.label(rules)
                ));
            }
            Event::Enter {
                lap,
                hole,
                seeds: n,
            } if laps => {
                self.finish(out);
                self.push(
                    out,
                    format_args!(
                        "  lap {lap}: enter {} at {}",
                        seeds(u32::from(*n)),
                        l(*hole)
                    ),
                );
            }
            Event::Lift {
                lap,
                hole,
                seeds,
                pieces,
            } if laps => {
                let lifted = content(rules, *seeds, *pieces);
                if self.line == Line::Open && self.lifted == Some(*lap) {
                    // Another hole lifted into the same hand.
                    self.push(out, format_args!(", {} ({lifted})", l(*hole)));
                } else {
                    self.finish(out);
                    self.push(
                        out,
                        format_args!("  lap {lap}: lift {} ({lifted})", l(*hole)),
                    );
                }
                self.lifted = Some(*lap);
            }
            Event::Resow { lap, after, seeds } if laps => {
                self.finish(out);
                self.push(
                    out,
                    format_args!(
                        "  lap {lap}: sow {seeds} captured seed{} after {}",
                        if *seeds == 1 { "" } else { "s" },
                        l(*after)
                    ),
                );
            }
            Event::Drop {
                hole,
                seeds,
                pieces,
            } if drops => {
                let now = content(rules, *seeds, *pieces);
                self.push(out, format_args!(" {}:{now}", l(*hole)));
            }
            Event::Skip { hole, clause: None } if drops => {
                self.push(out, format_args!(" (skip {})", l(*hole)));
            }
            Event::Skip {
                hole,
                clause: Some(c),
            } if drops => {
                let name = escape(&rules.clause(*c).name);
                self.push(out, format_args!(" (skip {} by \"{name}\")", l(*hole)));
            }
            Event::LapEnd { last, .. } if laps => {
                self.push(out, format_args!(" -> ends in {}", l(*last)));
                self.finish(out);
            }
            Event::Relay { clause: c, hole } if laps => {
                self.finish(out);
                out.say(format_args!(
                    "  {} from {}\n",
                    relay_words(rules, *c),
                    l(*hole)
                ));
            }
            Event::Redirect {
                clause: c,
                hole,
                to,
                seeds,
            } if drops => {
                let name = escape(&rules.clause(*c).name);
                match to {
                    Some(to) => self.push(
                        out,
                        format_args!(" ({} by \"{name}\") {}:{seeds}", l(*hole), l(*to)),
                    ),
                    None => self.push(
                        out,
                        format_args!(" ({} by \"{name}\": out of play)", l(*hole)),
                    ),
                }
            }
            Event::Diverted {
                clause: c,
                hole,
                to,
            } if drops => {
                self.push(
                    out,
                    format_args!(
                        " {}:->{} ({})",
                        l(*hole),
                        name(rules, *to),
                        clause(rules, *c)
                    ),
                );
            }
            Event::Capture {
                clause: c,
                hole,
                seeds,
                pieces,
                to,
                resown,
                into,
            } => {
                let dest = match into {
                    Some(h) => format!("into {}", l(*h)),
                    None => taker(rules, *to, *resown),
                };
                let capture = format!(
                    "capture {}: {} {} -> {dest}",
                    clause(rules, *c),
                    l(*hole),
                    content(rules, *seeds, *pieces),
                );
                if laps {
                    // A capture in the middle of a lap gets its own line; the lap goes on
                    // below it.
                    let mid_lap = self.line != Line::Closed;
                    self.finish(out);
                    out.say(format_args!("    {capture}\n"));
                    if mid_lap {
                        self.line = Line::Continued;
                    }
                } else {
                    out.say(format_args!("  {capture}\n"));
                }
            }
            Event::CaptureCancelled { clause: c, seeds } => {
                self.finish(out);
                out.say(format_args!(
                    "  capture {} cancelled: {seeds} seeds go back\n",
                    clause(rules, *c)
                ));
            }
            Event::MoveEnd { laps, last } if self.detail >= Detail::Laps => {
                self.finish(out);
                out.say(format_args!(
                    "  move ends in {} after {laps} lap{}\n",
                    l(*last),
                    if *laps == 1 { "" } else { "s" }
                ));
            }
            Event::Pass { ply, player } => {
                self.finish(out);
                out.say(format_args!("ply {ply}: {} passes\n", name(rules, *player)));
            }
            Event::RaceStart { ply, player, hole } => {
                self.finish(out);
                out.say(format_args!(
                    "ply {ply}: {} will race from {}\n",
                    name(rules, *player),
                    l(*hole)
                ));
            }
            Event::Concede { ply, player } => {
                self.finish(out);
                out.say(format_args!(
                    "ply {ply}: {} concedes\n",
                    name(rules, *player)
                ));
            }
            Event::Swap { ply, player } => {
                self.finish(out);
                out.say(format_args!(
                    "ply {ply}: {} swaps sides: the board turns round\n",
                    name(rules, *player)
                ));
            }
            Event::Decided {
                ply,
                player,
                decision,
                hole,
            } => {
                self.finish(out);
                let what = match decision {
                    crate::engine::Decision::Take => "takes the capture on offer".into(),
                    crate::engine::Decision::Leave => "leaves the capture on offer".into(),
                    crate::engine::Decision::Continue => "makes the relay on offer".into(),
                    crate::engine::Decision::Stop => "declines the relay on offer".into(),
                    crate::engine::Decision::Choose => format!("chooses {}", l(*hole)),
                    // A concession is traced as one (`Event::Concede`), never as a decision.
                    crate::engine::Decision::Concede => "concedes".into(),
                    // So is a swap (`Event::Swap`).
                    crate::engine::Decision::Swap => "swaps sides".into(),
                    // And the race (`Event::Race`).
                    crate::engine::Decision::Race => "races".into(),
                };
                out.say(format_args!(
                    "ply {ply}: {} {what} ({})\n",
                    name(rules, *player),
                    decided(*decision, *hole).label(rules)
                ));
            }
            Event::RelayOffered { clause: c, hole } => {
                self.finish(out);
                out.say(format_args!(
                    "  {} from {} on offer: the move stops for the mover's decision, continue or stop\n",
                    relay_words(rules, *c),
                    l(*hole)
                ));
            }
            Event::Placed {
                ply,
                player,
                hole,
                put,
                piece,
            } => {
                self.finish(out);
                out.say(format_args!(
                    "ply {ply}: {} {} {}\n",
                    name(rules, *player),
                    placed_words(rules, *put, *piece),
                    l(*hole)
                ));
            }
            Event::Arranged { player } => {
                self.finish(out);
                out.say(format_args!(
                    "  {}'s arrangement ends\n",
                    name(rules, *player)
                ));
            }
            Event::ChoiceOffered {
                clause: c,
                holes,
                optional,
            } => {
                self.finish(out);
                out.say(format_args!(
                    "  capture {} on offer: the move stops for the mover's choice of {}{}\n",
                    clause(rules, *c),
                    hole_list(rules, *holes),
                    if *optional { ", or leave" } else { "" }
                ));
            }
            Event::CaptureOffered {
                clause: c,
                seeds: n,
            } => {
                self.finish(out);
                out.say(format_args!(
                    "  capture {} on offer ({}): the move stops for the mover's decision, take or leave\n",
                    clause(rules, *c),
                    seeds(*n)
                ));
            }
            // An effect at every drop is a drop's detail: shown with the drops.
            Event::Effect { clause: c }
                if self.detail < Detail::Drops && rules.drop_effects.iter().any(|e| e.id == *c) => {
            }
            Event::Effect { clause: c } => {
                let mid_lap = self.line != Line::Closed;
                self.finish(out);
                out.say(format_args!("    effect {}\n", clause(rules, *c)));
                if mid_lap {
                    self.line = Line::Continued;
                }
            }
            Event::ExtraTurn {
                clause: c,
                optional,
            } => {
                self.finish(out);
                let may = if *optional {
                    ", which the mover may decline (pass)"
                } else {
                    ""
                };
                out.say(format_args!("  extra turn {}{may}\n", clause(rules, *c)));
            }
            Event::EndlessMove { first, repeat } => {
                self.finish(out);
                out.say(format_args!(
                    "  endless move: the state after lap {repeat} repeats the state after lap {first}\n"
                ));
            }
            Event::LapLimit { laps } => {
                self.finish(out);
                out.say(format_args!(
                    "  lap limit: the move was stopped after {laps} laps without repeating, by the engine's safety limit (not a rule): play stops with no result\n"
                ));
            }
            Event::StepLimit { laps } => {
                self.finish(out);
                out.say(format_args!(
                    "  step limit: the move was stopped after {laps} laps, past {} steps of work, by the engine's safety limit (not a rule): play stops with no result\n",
                    crate::rules::MAX_STEPS_PER_MOVE
                ));
            }
            Event::LapCap { laps } => {
                self.finish(out);
                out.say(format_args!(
                    "  the move ends after {laps} laps, the most the rules allow\n"
                ));
            }
            Event::HandBack { hole, seeds } => {
                self.finish(out);
                out.say(format_args!(
                    "  {} captured and still in hand go back into {}\n",
                    self::seeds(u32::from(*seeds)),
                    l(*hole)
                ));
            }
            Event::Refused { hole, seeds } => {
                self.finish(out);
                out.say(format_args!(
                    "  no hole takes the {} in hand: they go back into {}, where the lap began\n",
                    self::seeds(u32::from(*seeds)),
                    l(*hole)
                ));
            }
            Event::PlyLimit { plies } => {
                self.finish(out);
                out.say(format_args!(
                    "  ply limit: play was stopped after {plies} plies, by the engine's safety limit (not a rule): play stops with no result\n"
                ));
            }
            Event::RepeatedStart => {
                self.finish(out);
                out.text(
                    "  the next round would start from a position an earlier round started from: the match ends\n",
                );
            }
            Event::Cycle { first, ply } => {
                self.finish(out);
                out.say(format_args!(
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
                neutral,
                winner,
                scores,
                board: at_end,
            } => {
                self.finish(out);
                let what = if rules.rounds.is_some() {
                    format!("round {round} ends")
                } else {
                    "the game ends".to_string()
                };
                let mut s = format!(
                    "{what} by {}: {}; {}",
                    clause(rules, *c),
                    why_ended(rules, *why, *mover),
                    shared_out(rules, *c, *mover, *shares, *removed, *neutral, at_end)
                );
                s.push_str(&format!(
                    "; {}; {}\n",
                    holds(rules, scores),
                    match winner {
                        Some(w) => format!("{} wins", name(rules, *w)),
                        None => "a draw".into(),
                    }
                ));
                out.text(&s);
                // In a match the board is refilled next; a single game's board is shown after
                // the ply as it ended.
                if rules.rounds.is_some() {
                    out.say(format_args!(
                        "  board at the end {}\n",
                        notation(rules, at_end)
                    ));
                }
            }
            Event::Refill {
                player,
                holes,
                seeds,
                partial,
                closed,
                open,
                kept,
                waiting,
                ..
            } => {
                self.finish(out);
                let with = match partial {
                    Some((h, k)) => format!(" ({} with {k})", rules.geometry.label(*h)),
                    None => String::new(),
                };
                let laid_out = rules.rounds.as_ref().is_some_and(|r| r.laid_out());
                let mut s = if laid_out {
                    // No refill count: the player's seeds are all in hand, to be laid out.
                    format!("  {} holds {kept} seeds to lay out", name(rules, *player))
                } else if *waiting {
                    format!(
                        "  {} holds {kept} seeds, to refill the holes left empty once the players have arranged",
                        name(rules, *player)
                    )
                } else {
                    format!(
                        "  refill {}: {holes} hole{} with {seeds} seeds{with}, {kept} kept",
                        name(rules, *player),
                        if *holes == 1 { "" } else { "s" }
                    )
                };
                if *closed != 0 {
                    s.push_str(&format!(", closed {}", mask_labels(rules, *closed)));
                }
                if *open != 0 {
                    s.push_str(&format!(", left open {}", mask_labels(rules, *open)));
                }
                s.push('\n');
                out.text(&s);
            }
            Event::RoundStart { round, starter } => {
                self.finish(out);
                let arranged = (rules.arrange.as_ref()).filter(|a| a.at.at_rounds());
                if let Some(arrange) = arranged {
                    // An arrangement that puts no seed puts pieces down.
                    let what = if arrange.put == crate::rules::BoolX::Const(false) {
                        format!("put down their {}s", piece_name(rules))
                    } else {
                        "lay out their seeds".to_string()
                    };
                    // Where the round opens with a race, the starter's drops go first in it.
                    let then = if rules.race.is_some() {
                        format!("the race{}", race_order(rules, *starter))
                    } else {
                        format!("{} moves first", name(rules, *starter))
                    };
                    out.say(format_args!(
                        "round {round} starts: the players {what}, then {then}\n"
                    ));
                } else if rules.race.is_some() {
                    out.say(format_args!(
                        "round {round} starts with the race{}\n",
                        race_order(rules, *starter)
                    ));
                } else {
                    out.say(format_args!(
                        "round {round} starts, {} to move\n",
                        name(rules, *starter)
                    ));
                }
            }
            Event::Out { player } => {
                self.finish(out);
                out.say(format_args!(
                    "  {} cannot fill a hole and leaves the match\n",
                    name(rules, *player)
                ));
            }
            Event::OwnersMoved => {
                self.finish(out);
                out.text("  each player's holes pass to the next player\n");
            }
            Event::HolesWon { won, .. } => {
                self.finish(out);
                let winners: Vec<String> = (rules.geometry.players())
                    .zip(won)
                    .filter(|&(_, &m)| m != 0)
                    .map(|(p, &m)| format!("{} wins {}", name(rules, p), mask_labels(rules, m)))
                    .collect();
                if winners.is_empty() {
                    out.text("  nobody wins a hole\n");
                } else {
                    out.say(format_args!("  {} for the round\n", winners.join("; ")));
                }
            }
            Event::Restart => {
                self.finish(out);
                out.text("  the board is laid out again as at the start\n");
            }
            Event::Gift {
                clause: c,
                from,
                to,
                seeds: n,
            } => {
                self.finish(out);
                out.say(format_args!(
                    "  {} gives {} to {} by {}\n",
                    name(rules, *from),
                    seeds(*n),
                    name(rules, *to),
                    clause(rules, *c)
                ));
            }
            Event::GameEnd {
                winner,
                scores,
                stopped,
            } => {
                self.finish(out);
                let result = match (stopped, winner) {
                    (Some(limit), _) => {
                        format!("stopped by the {}, no result", limit_name(*limit))
                    }
                    (None, Some(w)) => format!("{} wins", name(rules, *w)),
                    (None, None) => "a draw".into(),
                };
                out.say(format_args!(
                    "game over: {result} ({})\n",
                    each(rules, scores)
                ));
            }
            Event::Lift { .. }
            | Event::Diverted { .. }
            | Event::Redirect { .. }
            | Event::Resow { .. }
            | Event::Enter { .. }
            | Event::Drop { .. }
            | Event::Skip { .. }
            | Event::LapEnd { .. }
            | Event::Relay { .. }
            | Event::MoveEnd { .. } => {}
        }
    }
}

/// Adds `key` to `v`, a JSON object: a field written only where it says something (pieces,
/// a refill waiting), so that the output of rules without it stays as it was.
fn add_field(v: &mut Value, key: &str, value: Value) {
    if let Some(fields) = v.as_object_mut() {
        fields.insert(key.into(), value);
    }
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
    let p = |p: Player| Value::String(rules.player_key(p).to_string());
    let c = |id: u16| {
        let info = rules.clause(id);
        json!({ "name": info.name, "cites": info.cites })
    };
    match e {
        Event::Move {
            ply,
            player,
            hole,
            dir,
            entered,
        } => {
            let mut v =
                json!({"event": "move", "ply": ply, "player": p(*player), "hole": l(*hole)});
            if let Some(map) = v.as_object_mut() {
                if let Some(d) = dir {
                    map.insert("direction".into(), json!(d.word()));
                }
                if *entered > 0 {
                    map.insert("entered".into(), json!(entered));
                }
            }
            v
        }
        Event::Enter { lap, hole, seeds } => {
            json!({"event": "enter", "lap": lap, "hole": l(*hole), "seeds": seeds})
        }
        Event::Lift {
            lap,
            hole,
            seeds,
            pieces,
        } => {
            let mut v = json!({"event": "lift", "lap": lap, "hole": l(*hole), "seeds": seeds});
            if *pieces > 0 {
                add_field(&mut v, "pieces", json!(pieces));
            }
            v
        }
        Event::Resow { lap, after, seeds } => {
            json!({"event": "resow", "lap": lap, "after": l(*after), "seeds": seeds})
        }
        Event::Drop {
            hole,
            seeds,
            pieces,
        } => {
            let mut v = json!({"event": "drop", "hole": l(*hole), "seeds": seeds});
            if *pieces > 0 {
                add_field(&mut v, "pieces", json!(pieces));
            }
            v
        }
        Event::Skip { hole, clause: None } => json!({"event": "skip", "hole": l(*hole)}),
        Event::Skip {
            hole,
            clause: Some(clause),
        } => json!({"event": "skip", "hole": l(*hole), "clause": c(*clause)}),
        Event::LapEnd { lap, last } => json!({"event": "lap_end", "lap": lap, "last": l(*last)}),
        Event::Relay { clause, hole } => {
            json!({"event": "relay", "clause": c(*clause), "hole": l(*hole)})
        }
        Event::Capture {
            clause,
            hole,
            seeds,
            pieces,
            to,
            resown,
            into,
        } => {
            let mut v = json!({"event": "capture", "clause": c(*clause), "hole": l(*hole), "seeds": seeds, "to": to.map(p), "resown": resown});
            if *pieces > 0 {
                add_field(&mut v, "pieces", json!(pieces));
            }
            if let Some(h) = into {
                add_field(&mut v, "into", json!(l(*h)));
            }
            v
        }
        Event::Diverted { clause, hole, to } => {
            json!({"event": "diverted", "clause": c(*clause), "hole": l(*hole), "to": p(*to)})
        }
        Event::Redirect {
            clause,
            hole,
            to,
            seeds,
        } => json!({
            "event": "redirect", "clause": c(*clause), "hole": l(*hole),
            "to": to.map(l), "seeds": seeds,
        }),
        Event::CaptureCancelled { clause, seeds } => {
            json!({"event": "capture_cancelled", "clause": c(*clause), "seeds": seeds})
        }
        Event::MoveEnd { laps, last } => {
            json!({"event": "move_end", "laps": laps, "last": l(*last)})
        }
        Event::ExtraTurn { clause, optional } => {
            if *optional {
                json!({"event": "extra_turn", "clause": c(*clause), "optional": true})
            } else {
                json!({"event": "extra_turn", "clause": c(*clause)})
            }
        }
        Event::Effect { clause } => json!({"event": "effect", "clause": c(*clause)}),
        Event::Pass { ply, player } => json!({"event": "pass", "ply": ply, "player": p(*player)}),
        Event::Concede { ply, player } => {
            json!({"event": "concede", "ply": ply, "player": p(*player)})
        }
        Event::Swap { ply, player } => {
            json!({"event": "swap", "ply": ply, "player": p(*player)})
        }
        Event::Race {
            ply,
            player,
            starts,
        } => {
            let starts: serde_json::Map<String, Value> = (rules.geometry.players())
                .filter_map(|q| {
                    let h = *starts.get(usize::from(q))?;
                    (h != crate::rules::NO_HOLE).then(|| (rules.player_key(q).to_string(), l(h)))
                })
                .collect();
            json!({"event": "race", "ply": ply, "player": p(*player), "starts": starts})
        }
        Event::RaceStart { ply, player, hole } => {
            json!({"event": "race_start", "ply": ply, "player": p(*player), "hole": l(*hole)})
        }
        Event::Racer { player } => json!({"event": "racer", "player": p(*player)}),
        Event::RaceOver { first, next, cut } => {
            let first = if *first == crate::rules::NOBODY {
                Value::Null
            } else {
                p(*first)
            };
            let cut: Vec<Value> = (rules.geometry.players())
                .filter(|q| cut & (1 << q) != 0)
                .map(p)
                .collect();
            json!({"event": "race_over", "first": first, "next": p(*next), "cut_short": cut})
        }
        Event::EndlessRace { first, repeat } => {
            json!({"event": "endless_race", "first": first, "repeat": repeat})
        }
        Event::Decided {
            ply,
            player,
            decision,
            hole,
        } => {
            let mut v = json!({"event": "decided", "ply": ply, "player": p(*player), "decision": decision.word()});
            if *decision == crate::engine::Decision::Choose {
                add_field(&mut v, "hole", l(*hole));
            }
            v
        }
        Event::CaptureOffered { clause, seeds } => {
            json!({"event": "capture_offered", "clause": c(*clause), "seeds": seeds})
        }
        Event::ChoiceOffered {
            clause,
            holes,
            optional,
        } => {
            json!({"event": "choice_offered", "clause": c(*clause), "holes": rules.geometry.labels_of(*holes), "optional": optional})
        }
        Event::Placed {
            ply,
            player,
            hole,
            put,
            piece,
        } => json!({
            "event": match (*put, *piece) { (_, true) => "place", (true, false) => "put", (false, false) => "pick" },
            "ply": ply,
            "player": p(*player),
            "hole": l(*hole),
        }),
        Event::Arranged { player } => json!({"event": "arranged", "player": p(*player)}),
        Event::RelayOffered { clause, hole } => {
            json!({"event": "relay_offered", "clause": c(*clause), "hole": l(*hole)})
        }
        Event::EndlessMove { first, repeat } => {
            json!({"event": "endless_move", "first_lap": first, "repeat_lap": repeat})
        }
        Event::LapLimit { laps } => json!({"event": "lap_limit", "laps": laps}),
        Event::StepLimit { laps } => json!({"event": "step_limit", "laps": laps}),
        Event::PlyLimit { plies } => json!({"event": "ply_limit", "plies": plies}),
        Event::Cycle { first, ply } => json!({"event": "cycle", "first_ply": first, "ply": ply}),
        Event::RoundEnd {
            round,
            clause,
            cause: why,
            mover,
            shares,
            removed,
            neutral,
            winner,
            scores,
            board,
        } => json!({
            "event": "round_end", "round": round, "clause": c(*clause), "cause": cause(*why), "mover": p(*mover),
            "why": why_ended(rules, *why, *mover),
            "taken_from_board": each_json(rules, shares), "removed": removed,
            "neutral_share": neutral,
            "winner": winner.map(p), "holdings": each_json(rules, scores),
            "board": position_json(rules, board),
        }),
        Event::Refill {
            player,
            holes,
            seeds,
            partial,
            closed,
            open,
            kept,
            waiting,
            ..
        } => {
            let labels = |m: Mask| g.labels_of(m);
            let mut v = json!({
                "event": "refill", "player": p(*player), "holes": holes, "seeds": seeds,
                "closed": labels(*closed), "kept": kept,
                "partial": partial.map(|(h, k)| json!({"hole": g.label(h), "seeds": k})),
                "open": labels(*open),
            });
            if *waiting {
                add_field(&mut v, "waiting", json!(true));
            }
            v
        }
        Event::RoundStart { round, starter } => {
            json!({"event": "round_start", "round": round, "starter": p(*starter)})
        }
        Event::GameEnd {
            winner,
            scores,
            stopped,
        } => {
            json!({"event": "game_end", "winner": winner.map(p), "stopped_by": stopped.map(limit_name), "holdings": each_json(rules, scores)})
        }
        Event::HandBack { hole, seeds } => {
            json!({"event": "hand_back", "hole": l(*hole), "seeds": seeds})
        }
        Event::Refused { hole, seeds } => {
            json!({"event": "refused", "hole": l(*hole), "seeds": seeds})
        }
        Event::LapCap { laps } => json!({"event": "lap_cap", "laps": laps}),
        Event::RepeatedStart => json!({"event": "repeated_start"}),
        Event::Out { player } => json!({"event": "out", "player": p(*player)}),
        Event::OwnersMoved => json!({"event": "owners_moved"}),
        Event::HolesWon { won, board } => {
            let won: serde_json::Map<String, Value> = (g.players())
                .zip(won)
                .map(|(q, &m)| (rules.player_key(q).to_string(), json!(g.labels_of(m))))
                .collect();
            json!({"event": "holes_won", "won": won, "board": position_json(rules, board)})
        }
        Event::Restart => json!({"event": "restart"}),
        Event::Gift {
            clause,
            from,
            to,
            seeds,
        } => {
            json!({"event": "gift", "clause": c(*clause), "from": p(*from), "to": p(*to), "seeds": seeds})
        }
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
    let mut v = json!({
        "south": row(0), "north": row(1),
        "held": {"south": pos.held(rules, 0), "north": pos.held(rules, 1)},
        "removed": {"south": pos.taken[0], "north": pos.taken[1]},
        "closed": closed(0).into_iter().chain(closed(1)).collect::<Vec<_>>(),
    });
    // The pieces (`[pieces]`), counted in the rows above where they are on the board: each
    // by its first owner, where it is (a hole, or null off the board), who holds it, and what
    // has been dropped on it since it came.
    if let Some(kind) = &rules.pieces {
        let pieces: Vec<Value> = (rules.piece_slots().all(pos))
            .map(|(owner, p)| {
                json!({
                    "name": kind.name,
                    "owner": rules.player_key(owner),
                    "hole": (p.at != NO_HOLE).then(|| g.label(p.at)),
                    "holder": rules.player_key(p.holder),
                    "covered": p.covered,
                })
            })
            .collect();
        add_field(&mut v, "pieces", json!(pieces));
    }
    // The neutral holes (`[board] neutral`), in no player's row: each by its label.
    if g.neutral_mask() != 0 {
        let neutral: serde_json::Map<String, Value> = (g.neutral_holes())
            .map(|h| (g.label(h), json!(seeds_in(pos, h))))
            .collect();
        add_field(&mut v, "neutral", Value::Object(neutral));
    }
    v
}

//! Moves and positions as people write them.
//!
//! A move is the mover's hole number counted from their own left, with the side's letter:
//! `s3` is South's third hole, `n7` North's seventh. On four-row boards holes are numbered
//! 1..2N counter-clockwise from the left end of the player's outer row. Where the rules let
//! the mover choose the direction, it follows a colon: `s3:cw`, `s3:ccw`. A player who may
//! only wait writes `pass`.
//!
//! A position is `S[3 1 0 0 0 14 0] N[14 2 14 14 1 14 2]`, each row from its owner's left,
//! optionally followed by `S*=15 N*=4` (seeds held in store or reserve), `removed S=3 N=0`
//! (seeds each player's captures removed from the game), `claimed S=n4 N=s2` (each player's
//! claimed hole) and the player to move (`south` or `north`, default South). A closed hole is
//! written `x`. It is the notation [`crate::render::notation`] writes: a printed position
//! reads back as the same position. A mistake is reported at the cell or word at fault.
//!
//! Moves and positions are user input: no `unwrap`, `expect` or indexing that could panic.

use std::ops::Range;

use crate::engine::{Move, Position};
use crate::rules::{Dir, MAX_POSITIONS, MAX_SEEDS, NO_HOLE, Player, Pos, Rules};

/// Parses a move such as `s3`, `s3:cw` or `pass` for `player`. Whether the move is legal (a
/// direction given where the rules fix it, or none where the mover chooses) is the game's to
/// say.
pub fn parse_move(rules: &Rules, player: Player, text: &str) -> Result<Move, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::PASS);
    }
    let (hole, dir) = match text.split_once(':') {
        None => (text, None),
        Some((hole, dir)) => match dir.trim().to_ascii_lowercase().as_str() {
            "cw" => (hole, Some(Dir::Cw)),
            "ccw" => (hole, Some(Dir::Ccw)),
            other => {
                return Err(format!(
                    "`{other}` is not a direction; write {}:cw (clockwise) or {}:ccw (counter-clockwise)",
                    hole.trim(),
                    hole.trim()
                ));
            }
        },
    };
    let hole = parse_hole(rules, player, hole.trim())?;
    Ok(Move { hole, dir })
}

/// Parses a hole of the mover's, such as `s3`.
fn parse_hole(rules: &Rules, player: Player, text: &str) -> Result<Pos, String> {
    let g = &rules.geometry;
    let side = if player == 0 { 's' } else { 'n' };
    let mut chars = text.chars();
    let letter = chars.next().map(|c| c.to_ascii_lowercase());
    let digits = chars.as_str();
    let number: Option<usize> = digits.parse().ok();
    match (letter, number) {
        (Some(l), Some(n)) if l == 's' || l == 'n' => {
            if l != side {
                return Err(format!(
                    "`{text}` is {}'s hole, but {} is to move",
                    if l == 's' { "South" } else { "North" },
                    player_name(player)
                ));
            }
            if n == 0 || n > g.holes_per_player as usize {
                return Err(format!(
                    "there is no hole {side}{n}: {}'s holes are {side}1 to {side}{}",
                    player_name(player),
                    g.holes_per_player
                ));
            }
            g.hole_of
                .get(usize::from(player))
                .and_then(|row| row.get(n - 1))
                .copied()
                .ok_or_else(|| format!("there is no hole {side}{n}"))
        }
        _ => Err(format!(
            "`{text}` is not a move; write the side's letter and the hole number counted from the mover's left, e.g. {side}3"
        )),
    }
}

pub fn player_name(p: Player) -> &'static str {
    match p {
        0 => "South",
        1 => "North",
        _ => "nobody",
    }
}

/// A mistake in a written position: what is wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError {
    /// What is wrong, as a sentence without a final full stop.
    pub message: String,
    /// The byte range of the position text at fault: the cell, word or row, or the whole
    /// position for a mistake of the position as a whole (too many seeds, say).
    pub span: Range<usize>,
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PositionError {}

fn fail<T>(message: impl Into<String>, span: Range<usize>) -> Result<T, PositionError> {
    Err(PositionError {
        message: message.into(),
        span,
    })
}

/// How a position is written, for messages.
const SHAPE: &str = "write it as S[...] N[...], then optionally S*=k N*=k, removed S=k N=k, claimed S=hole N=hole, and south or north";

/// A seed count as written, or why it is not one.
enum Count {
    Seeds(u32),
    /// A whole number, but more seeds than any board holds.
    TooMany,
    NotANumber,
}

fn count(text: &str) -> Count {
    match text.parse::<u32>() {
        Ok(k) if k <= MAX_SEEDS => Count::Seeds(k),
        Ok(_) => Count::TooMany,
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Count::TooMany,
        Err(_) => Count::NotANumber,
    }
}

/// `text` from byte `at` on.
fn after(text: &str, at: usize) -> &str {
    text.get(at..).unwrap_or("")
}

/// The whitespace-separated words of `text`, each with its byte range shifted by `offset`.
fn words(text: &str, offset: usize) -> Vec<(&str, Range<usize>)> {
    let mut out = Vec::new();
    let mut start = None;
    let end = std::iter::once((text.len(), ' '));
    for (i, c) in text.char_indices().chain(end) {
        match (start, c.is_whitespace()) {
            (None, false) => start = Some(i),
            (Some(b), true) => {
                out.push((text.get(b..i).unwrap_or(""), offset + b..offset + i));
                start = None;
            }
            _ => {}
        }
    }
    out
}

fn side_letter(p: Player) -> char {
    if p == 0 { 'S' } else { 'N' }
}

/// The two parts after the rows that list a value per player: `removed S=k N=k` and
/// `claimed S=hole N=hole`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Suffix {
    Removed,
    Claimed,
}

impl Suffix {
    fn word(self) -> &'static str {
        match self {
            Suffix::Removed => "removed",
            Suffix::Claimed => "claimed",
        }
    }
}

/// A position being read: what has been given so far.
struct Reader<'a> {
    rules: &'a Rules,
    pos: Position,
    rows: [bool; 2],
    held: [Option<(u32, Range<usize>)>; 2],
    to_move: bool,
    removed: [bool; 2],
    claimed: [bool; 2],
    /// Where each hole's cell is written, and each player's claimed hole.
    cells: [Option<Range<usize>>; MAX_POSITIONS],
    claim_spans: [Option<Range<usize>>; 2],
    /// The `removed` or `claimed` just read, with its span and whether a value followed it.
    suffix: Option<(Suffix, Range<usize>, bool)>,
}

impl Reader<'_> {
    /// A row: `inner` is the text between the brackets, starting at byte `inner_start`;
    /// `row` spans the whole row, brackets included.
    fn row(
        &mut self,
        player: Player,
        inner: &str,
        inner_start: usize,
        row: Range<usize>,
    ) -> Result<(), PositionError> {
        let g = &self.rules.geometry;
        let [south, north] = &mut self.rows;
        let seen = if player == 0 { south } else { north };
        if *seen {
            return fail(
                format!("the {} row is given twice", player_name(player)),
                row,
            );
        }
        *seen = true;
        let cells = words(inner, inner_start);
        let holes = usize::from(g.holes_per_player);
        if cells.len() != holes {
            let message = format!(
                "{}'s row has {} holes in this ruleset, but the position gives {}",
                player_name(player),
                g.holes_per_player,
                cells.len()
            );
            // Too many: the cells past the end of the row; too few: the row.
            let extra = cells.iter().skip(holes).map(|(_, span)| span.clone());
            let span = match extra.reduce(|a, b| a.start..b.end) {
                Some(extra) => extra,
                None => row,
            };
            return fail(message, span);
        }
        for ((cell, span), (i, h)) in cells.into_iter().zip(g.holes_of(player).enumerate()) {
            if let Some(at) = self.cells.get_mut(usize::from(h)) {
                *at = Some(span.clone());
            }
            let Some(seeds) = self.pos.board.get_mut(usize::from(h)) else {
                return fail(
                    format!("{}'s row has no hole {}", player_name(player), i + 1),
                    span,
                );
            };
            if cell == "x" {
                self.pos.closed |= 1u64.checked_shl(u32::from(h)).unwrap_or(0);
                continue;
            }
            *seeds = match count(cell) {
                // At most MAX_SEEDS, which fits a hole.
                Count::Seeds(k) => u16::try_from(k).unwrap_or(u16::MAX),
                Count::TooMany => {
                    return fail(
                        format!("`{cell}` seeds in one hole: a board holds at most {MAX_SEEDS}"),
                        span,
                    );
                }
                Count::NotANumber => {
                    return fail(
                        format!("`{cell}` is not a seed count (a closed hole is written x)"),
                        span,
                    );
                }
            };
        }
        Ok(())
    }

    /// A word after the rows (or between them).
    fn word(&mut self, word: &str, span: Range<usize>) -> Result<(), PositionError> {
        if word.starts_with("S=") {
            return self.suffix_value(0, word, span);
        }
        if word.starts_with("N=") {
            return self.suffix_value(1, word, span);
        }
        self.end_suffix()?;
        if let Some((player, v)) = word
            .strip_prefix("S*=")
            .map(|v| (0, v))
            .or_else(|| word.strip_prefix("N*=").map(|v| (1, v)))
        {
            let value = if v.is_empty() {
                span.clone()
            } else {
                span.start + 3..span.end
            };
            let k = match count(v) {
                Count::Seeds(k) => k,
                // Refused before anything adds the counts up: two holdings near u32::MAX
                // would overflow the position's total.
                Count::TooMany => {
                    return fail(
                        format!(
                            "{} holds {v} seeds; a board holds at most {MAX_SEEDS}",
                            player_name(player)
                        ),
                        value,
                    );
                }
                Count::NotANumber => {
                    return fail(format!("`{word}`: `{v}` is not a seed count"), value);
                }
            };
            let [south, north] = &mut self.held;
            let held = if player == 0 { south } else { north };
            if held.is_some() {
                return fail(
                    format!("the seeds {} holds are given twice", player_name(player)),
                    span,
                );
            }
            *held = Some((k, span));
        } else if word.eq_ignore_ascii_case("south") || word.eq_ignore_ascii_case("north") {
            if self.to_move {
                return fail("the player to move is given twice", span);
            }
            self.to_move = true;
            self.pos.to_move = if word.eq_ignore_ascii_case("south") {
                0
            } else {
                1
            };
        } else if let Some((name, value)) = word.split_once('=')
            && let Some(var) = self.rules.vars.iter().find(|v| v.name == name)
        {
            self.var(var, value, span)?;
        } else if word == "vars" {
            // Only introduces the variables that follow.
        } else if word == "removed" {
            self.suffix = Some((Suffix::Removed, span, false));
        } else if word == "claimed" {
            if self.rules.claim_clause.is_none() {
                return fail(
                    format!(
                        "{} has no claimed holes: no capture clause claims one",
                        self.rules.name
                    ),
                    span,
                );
            }
            self.suffix = Some((Suffix::Claimed, span, false));
        } else {
            return fail(
                format!("unexpected `{word}` in the position; {SHAPE}"),
                span,
            );
        }
        Ok(())
    }

    /// A variable's value: `NAME=v`, or `NAME=south/north` for one each player has.
    fn var(
        &mut self,
        var: &crate::rules::VarInfo,
        value: &str,
        span: Range<usize>,
    ) -> Result<(), PositionError> {
        let values: Vec<&str> = if var.per_player {
            value.split('/').collect()
        } else {
            vec![value]
        };
        if values.len() != if var.per_player { 2 } else { 1 } {
            return fail(
                format!(
                    "`{}` is a variable each player has: write {}=SOUTH/NORTH",
                    var.name, var.name
                ),
                span,
            );
        }
        for (k, v) in values.into_iter().enumerate() {
            let parsed = match var.kind {
                crate::ruleset::VarKind::Number => v.parse::<i32>().ok(),
                crate::ruleset::VarKind::Flag => match v {
                    "true" => Some(1),
                    "false" => Some(0),
                    _ => None,
                },
                crate::ruleset::VarKind::Direction => match v {
                    "none" => Some(0),
                    "ccw" => Some(1),
                    "cw" => Some(2),
                    _ => None,
                },
            };
            let Some(parsed) = parsed else {
                let what = match var.kind {
                    crate::ruleset::VarKind::Number => "a whole number",
                    crate::ruleset::VarKind::Flag => "true or false",
                    crate::ruleset::VarKind::Direction => "ccw, cw or none",
                };
                return fail(format!("`{v}` is not a value of `{}`: {what}", var.name), span);
            };
            if let Some(slot) = self.pos.vars.get_mut(usize::from(var.slot) + k) {
                *slot = parsed;
            }
        }
        Ok(())
    }

    /// `S=...` or `N=...` after `removed` or `claimed`.
    fn suffix_value(
        &mut self,
        player: Player,
        word: &str,
        span: Range<usize>,
    ) -> Result<(), PositionError> {
        let Some((suffix, _, given)) = &mut self.suffix else {
            return fail(
                format!(
                    "`{word}` belongs after `removed` (seeds removed from the game) or `claimed` (claimed holes); {SHAPE}"
                ),
                span,
            );
        };
        *given = true;
        let suffix = *suffix;
        let v = word.get(2..).unwrap_or("");
        let value = if v.is_empty() {
            span.clone()
        } else {
            span.start + 2..span.end
        };
        let [south, north] = match suffix {
            Suffix::Removed => &mut self.removed,
            Suffix::Claimed => &mut self.claimed,
        };
        let seen = if player == 0 { south } else { north };
        if *seen {
            return fail(
                format!("`{}` gives {} twice", suffix.word(), player_name(player)),
                span,
            );
        }
        *seen = true;
        let p = usize::from(player);
        match suffix {
            Suffix::Removed => {
                let k = match count(v) {
                    Count::Seeds(k) => k,
                    Count::TooMany => {
                        return fail(
                            format!(
                                "{}'s captures removed {v} seeds; a board holds at most {MAX_SEEDS}",
                                player_name(player)
                            ),
                            value,
                        );
                    }
                    Count::NotANumber => {
                        return fail(format!("`{word}`: `{v}` is not a seed count"), value);
                    }
                };
                if let Some(taken) = self.pos.taken.get_mut(p) {
                    *taken = k;
                }
            }
            Suffix::Claimed => {
                let g = &self.rules.geometry;
                let hole = g
                    .holes_of(0)
                    .chain(g.holes_of(1))
                    .find(|&h| g.label(h).eq_ignore_ascii_case(v));
                let Some(hole) = hole else {
                    return fail(
                        format!(
                            "`{v}` is not a hole: {}'s claimed hole is written as the side's letter and the hole number, e.g. {}1",
                            player_name(player),
                            if player == 0 { 'n' } else { 's' }
                        ),
                        value,
                    );
                };
                if let Some(claim) = self.pos.claims.get_mut(p) {
                    *claim = hole;
                }
                if let Some(at) = self.claim_spans.get_mut(p) {
                    *at = Some(value);
                }
            }
        }
        Ok(())
    }

    /// Refuses claims no game can reach: one hole claimed by both players, or a claimed hole
    /// holding seeds (every seed sown there goes to the claimer, so it could then be played).
    fn check_claims(&self) -> Result<(), PositionError> {
        let g = &self.rules.geometry;
        let [south, north] = self.pos.claims;
        if south != NO_HOLE && south == north {
            let span = self.claim_spans.get(1).cloned().flatten().unwrap_or(0..0);
            return fail(
                format!(
                    "South and North both claim {}: a hole is claimed by one player at most",
                    g.label(south)
                ),
                span,
            );
        }
        for (p, &h) in (0..2u8).zip(&self.pos.claims) {
            let seeds = self.pos.board.get(usize::from(h)).copied().unwrap_or(0);
            if h == NO_HOLE || seeds == 0 {
                continue;
            }
            let span = self
                .cells
                .get(usize::from(h))
                .cloned()
                .flatten()
                .unwrap_or(0..0);
            return fail(
                format!(
                    "{} is {}'s claimed hole, so it holds no seeds (every seed sown there is {}'s), but the position gives it {seeds}",
                    g.label(h),
                    player_name(p),
                    player_name(p)
                ),
                span,
            );
        }
        Ok(())
    }

    /// Ends a `removed` or `claimed`, which needs at least one value.
    fn end_suffix(&mut self) -> Result<(), PositionError> {
        match self.suffix.take() {
            Some((suffix, span, false)) => {
                let example = match suffix {
                    Suffix::Removed => "removed S=2 N=0",
                    Suffix::Claimed => "claimed S=n4",
                };
                fail(
                    format!(
                        "`{}` is followed by no S=... or N=...; write it as, e.g., {example}",
                        suffix.word()
                    ),
                    span,
                )
            }
            _ => Ok(()),
        }
    }
}

/// Parses a set-up position for `rules`: the rows, then optionally the seeds each player
/// holds (`S*=k N*=k`), the seeds their captures removed from the game (`removed S=k N=k`),
/// their claimed holes (`claimed S=hole N=hole`) and the player to move (`south` or
/// `north`, default South). Everything [`crate::render::notation`] writes reads back as the
/// same position. An error's span is a byte range of `text`.
pub fn parse_position(rules: &Rules, text: &str) -> Result<Position, PositionError> {
    let g = &rules.geometry;
    let lead = text.len() - text.trim_start().len();
    let whole = lead..text.trim_end().len().max(lead);
    let mut start = Position::empty();
    // The variables start at their first values; `vars` gives the others.
    for v in &rules.vars {
        let slots = if v.per_player { 2 } else { 1 };
        for k in 0..slots {
            if let Some(slot) = start.vars.get_mut(usize::from(v.slot) + k) {
                *slot = v.initial;
            }
        }
    }
    let mut r = Reader {
        rules,
        pos: start,
        rows: [false; 2],
        held: [None, None],
        to_move: false,
        removed: [false; 2],
        claimed: [false; 2],
        cells: std::array::from_fn(|_| None),
        claim_spans: [None, None],
        suffix: None,
    };
    let mut at = 0;
    loop {
        let rest = after(text, at);
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.is_empty() {
            break;
        }
        let row = if trimmed.starts_with("S[") {
            Some(0)
        } else if trimmed.starts_with("N[") {
            Some(1)
        } else {
            None
        };
        if let Some(player) = row {
            r.end_suffix()?;
            let open = at;
            let inner_start = at + 2;
            let inside = after(text, inner_start);
            let Some(len) = inside.find(']') else {
                return fail(
                    format!("a `]` is missing after {}[", side_letter(player)),
                    open..whole.end.max(inner_start),
                );
            };
            at = inner_start + len + 1;
            let inner = inside.get(..len).unwrap_or("");
            r.row(player, inner, inner_start, open..at)?;
        } else {
            let len = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
            let word = trimmed.get(..len).unwrap_or("");
            r.word(word, at..at + len)?;
            at += len;
        }
    }
    r.end_suffix()?;
    if r.rows != [true, true] {
        return fail("a position needs both rows: S[...] N[...]", whole);
    }
    r.check_claims()?;
    let mut pos = r.pos;
    for (p, held) in (0..2u8).zip(r.held) {
        let Some((k, span)) = held else {
            continue;
        };
        let store = g.store.get(usize::from(p)).copied().flatten();
        match store.and_then(|s| pos.board.get_mut(usize::from(s))) {
            Some(cell) => {
                *cell = u16::try_from(k)
                    .or_else(|_| fail(format!("{k} seeds is too many for a store"), span))?;
            }
            None => {
                if let Some(reserve) = pos.reserve.get_mut(usize::from(p)) {
                    *reserve = k;
                }
            }
        }
    }
    let total = pos.total();
    if total > rules.total_seeds() {
        return fail(
            format!(
                "the position holds {total} seeds, but {} is played with {}",
                rules.name,
                rules.total_seeds()
            ),
            whole,
        );
    }
    if total == 0 {
        return fail("the position holds no seeds", whole);
    }
    pos.recount();
    Ok(pos)
}

//! Moves and positions as people write them.
//!
//! A move is the mover's hole number counted from their own left, with the side's letter:
//! `s3` is South's third hole, `n7` North's seventh. On four-row boards holes are numbered
//! 1..2N counter-clockwise from the left end of the player's outer row. Where the rules let
//! the mover choose the direction, it follows a colon: `s3:cw`, `s3:ccw`. Seeds the mover
//! holds, entered by the rules' `[entry]`, are `+` and their number: `+5` (`+5:cw`). A player
//! who may only wait, or who declines an optional extra turn, writes `pass`. Where a move
//! stopped at an optional capture, the mover writes `take` or `leave`; at a relay they may
//! decline, `continue` or `stop`. In the arrangement
//! before play, `s3+` puts one seed the mover holds into `s3`, `s3-` picks one up from it,
//! `s3+stone` puts a piece they hold (`[pieces.stone]`), and `pass` ends the mover's
//! arrangement. Where the pie rule offers it (`[turns] swap`), `swap` exchanges sides. Where
//! a round opens with a race (`[race]`), `race` is the race, and where the players choose the
//! holes they race from, `race:s3` is the mover's choice (`s3` alone reads the same there).
//!
//! A position is `S[3 1 0 0 0 14 0] N[14 2 14 14 1 14 2]`, each row from its owner's left,
//! optionally followed by `S*=15 N*=4` (seeds held in store or reserve), `removed S=3 N=0`
//! (seeds each player's captures removed from the game), `claimed S=n4 N=s2` (each player's
//! claimed hole), `optional_turn` (the player to move is in an extra turn they may decline),
//! `swap` (the player to move may exchange sides, the pie rule's offer), `race` (the race is
//! the next ply; `race=s3,n5` with the holes the players chose, in seat order, `-` for a seat
//! that does not race), `race_start=s3,-` (the players are choosing where they race from, the
//! player to move next; `-` for a seat that has not chosen),
//! `stopped=...` (the player to move's move stopped at an optional capture, see
//! [`crate::render::stopped_word`]), `arranging=south,north` (the players whose arrangement
//! before play has not ended, the player to move among them), the pieces (`[pieces]`) not
//! held by their owners off the board (`stone.south=s3^2@north`: South's stone in s3, two
//! seeds or pieces dropped on it since, held by North; a cell shows the pieces it holds,
//! `5+stone`)
//! and the player to move (`south` or `north`, default South). A closed hole is
//! written `x`. It is the notation [`crate::render::notation`] writes: a printed position
//! reads back as the same position. A mistake is reported at the cell or word at fault.
//!
//! Moves and positions are user input: no `unwrap`, `expect` or indexing that could panic.

use std::ops::Range;

use crate::engine::{Decision, Move, Place, Position, Starts};
use crate::rules::{Dir, MAX_POSITIONS, MAX_SEATS, MAX_SEEDS, NO_HOLE, NOBODY, Player, Pos, Rules};

/// Parses a move such as `s3`, `s3:cw` or `pass` for `player`. Whether the move is legal (a
/// direction given where the rules fix it, or none where the mover chooses) is the game's to
/// say.
pub fn parse_move(rules: &Rules, player: Player, text: &str) -> Result<Move, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::PASS);
    }
    for d in Decision::ALL {
        if text.eq_ignore_ascii_case(d.word()) {
            return Ok(Move::decide(d));
        }
    }
    // A hole chosen for a capture whose hole the mover chooses, `choose:n3`; the hole the
    // mover races from, where they choose it, `race:s3`.
    if let Some((word, label)) = text.split_once(':') {
        let word = word.trim();
        if word.eq_ignore_ascii_case("choose") {
            let h = board_hole(rules, label, "choose and a hole's label, e.g. choose:n3")?;
            return Ok(Move::choose(h));
        }
        if word.eq_ignore_ascii_case("race") {
            let h = board_hole(rules, label, "race and a hole's label, e.g. race:s3")?;
            return Ok(Move::race_from(h));
        }
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
    let what = hole.trim();
    if let Some(kind) = &rules.pieces
        && let Some(label) = what.strip_suffix(kind.name.as_str())
        && let Some(label) = label.strip_suffix('+')
    {
        if dir.is_some() {
            return Err(format!(
                "`{text}`: a {name} put has no direction; write {label}+{name}",
                name = kind.name
            ));
        }
        let form = format!(
            "a hole's label and +{name}, e.g. s3+{name}",
            name = kind.name
        );
        return Ok(Move::placing(
            board_hole(rules, label, &form)?,
            Place::Piece,
        ));
    }
    if let Some((label, piece)) = what.split_once('+')
        && piece
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
    {
        return Err(match &rules.pieces {
            Some(kind) => format!(
                "`{piece}` is not a piece of {}: write {label}+{}",
                rules.name, kind.name
            ),
            None => format!(
                "{} has no pieces beside the seeds: write {label}+ to put a seed",
                rules.name
            ),
        });
    }
    for place in [Place::Put, Place::Pick] {
        if let Some(label) = what.strip_suffix(place.sign()) {
            if dir.is_some() {
                return Err(format!(
                    "`{text}`: a seed put or picked up has no direction; write {label}{}",
                    place.sign()
                ));
            }
            let form = format!("a hole's label and {0}, e.g. s3{0}", place.sign());
            return Ok(Move::placing(board_hole(rules, label, &form)?, place));
        }
    }
    if let Some(count) = what.strip_prefix('+') {
        // Seeds entered from what the mover holds: `+5`, digits only; from a start the mover
        // chooses, `+1@s3`.
        let (count, start) = match count.split_once('@') {
            Some((count, label)) => {
                let form = "+ the seeds, @ and the hole the entry starts in, e.g. +1@s3";
                (count.trim(), Some(board_hole(rules, label, form)?))
            }
            None => (count, None),
        };
        let digits = !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit());
        return match count.parse::<u16>() {
            Ok(n) if n > 0 && digits => Ok(match start {
                Some(h) => Move::enter_at(n, h, dir),
                None => Move::enter(n, dir),
            }),
            _ => Err(format!(
                "`{what}` is not an entry; write + and the number of seeds to enter, e.g. +3"
            )),
        };
    }
    let hole = parse_hole(rules, player, what)?;
    Ok(match dir {
        Some(d) => Move::towards(hole, d),
        None => Move::sow(hole),
    })
}

/// The hole of the board labelled `label` (any player's), or a message naming the `form` the
/// move is written in.
fn board_hole(rules: &Rules, label: &str, form: &str) -> Result<Pos, String> {
    let label = label.trim();
    (rules.geometry.site_labelled(label))
        .filter(|&h| rules.geometry.is_hole(h))
        .ok_or_else(|| format!("`{label}` is not a hole of the board; write {form}"))
}

/// Parses a hole of the mover's, such as `s3`.
fn parse_hole(rules: &Rules, player: Player, text: &str) -> Result<Pos, String> {
    let g = &rules.geometry;
    let own = g.holes(player);
    // Whether the mover owns one home (a row, or two on four rows): the holes of most games.
    let by_home = player < 2 && own.iter().copied().eq(g.home_holes(player));
    let side = if player == 0 { 's' } else { 'n' };
    // The example in messages: a hole of the mover's.
    let example = match own.get(2).or(own.first()) {
        Some(&h) if !by_home => g.label(h),
        _ => format!("{side}3"),
    };
    let mut chars = text.chars();
    let letter = chars.next().map(|c| c.to_ascii_lowercase());
    let digits = chars.as_str();
    let number: Option<usize> = digits.parse().ok();
    match (letter, number) {
        (Some(l), Some(n)) if (l == 'r') == (g.rows == 1) && matches!(l, 's' | 'n' | 'r') => {
            // Where moves start from any hole, a hole of the board is a move's to name.
            let anyone = rules.sow_from_any;
            if by_home && l != side && !anyone {
                return Err(format!(
                    "`{text}` is {}'s hole, but {} is to move",
                    if l == 's' { "South" } else { "North" },
                    rules.player_title(player)
                ));
            }
            if n == 0 || n > g.holes_per_player as usize {
                return Err(if by_home {
                    format!(
                        "there is no hole {side}{n}: {}'s holes are {side}1 to {side}{}",
                        rules.player_title(player),
                        g.holes_per_player
                    )
                } else {
                    format!(
                        "there is no hole {l}{n}: the holes are {l}1 to {l}{}",
                        g.holes_per_player
                    )
                });
            }
            let home = u8::from(l == 'n');
            let hole = g.home_holes(home).nth(n - 1);
            let hole = hole.ok_or_else(|| format!("there is no hole {l}{n}"))?;
            if anyone {
                return Ok(hole);
            }
            if !own.contains(&hole) && g.owner_of(hole) == NOBODY {
                return Err(format!(
                    "`{text}` is a neutral hole: no player moves from it ({} is to move)",
                    rules.player_title(player)
                ));
            }
            if !own.contains(&hole) {
                return Err(format!(
                    "`{text}` is {}'s hole, but {} is to move",
                    rules.player_title(g.owner_of(hole)),
                    rules.player_title(player)
                ));
            }
            Ok(hole)
        }
        _ if by_home => Err(format!(
            "`{text}` is not a move; write the side's letter and the hole number counted from the mover's left, e.g. {side}3"
        )),
        _ => Err(format!(
            "`{text}` is not a move; write a hole of the mover's by its row letter and its number from that row's left, e.g. {example}"
        )),
    }
}

/// The player the ruleset names `name` (any case).
fn seat_named(rules: &Rules, name: &str) -> Option<Player> {
    (rules.geometry.players()).find(|&p| rules.player_key(p).eq_ignore_ascii_case(name))
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
    held: [Option<(u32, Range<usize>)>; MAX_SEATS],
    to_move: bool,
    removed: [bool; 2],
    claimed: [bool; 2],
    /// Where each hole's cell is written, and each player's claimed hole.
    cells: [Option<Range<usize>>; MAX_POSITIONS],
    claim_spans: [Option<Range<usize>>; 2],
    /// The `removed` or `claimed` just read, with its span and whether a value followed it.
    suffix: Option<(Suffix, Range<usize>, bool)>,
    /// The pieces (`[pieces]`) each hole's cell shows (`5+stone`), and whose place a word
    /// has given (`stone.south=s3`).
    marks: [u8; MAX_POSITIONS],
    placed: [bool; MAX_SEATS],
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
        for ((cell, span), (i, h)) in cells.into_iter().zip(g.home_holes(player).enumerate()) {
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
                self.pos.closed |= crate::rules::bit(h);
                continue;
            }
            // `5+stone`: five seeds and a piece, which the hole's count includes.
            let (cell, marks) = match cell.split_once('+') {
                None => (cell, 0u16),
                Some((number, pieces)) => {
                    let name = self.rules.pieces.as_ref().map(|p| p.name.as_str());
                    let all = pieces.split('+').all(|p| Some(p) == name);
                    match name {
                        Some(_) if all => (number, pieces.split('+').count() as u16),
                        Some(name) => {
                            return fail(
                                format!(
                                    "`{cell}`: a hole holds seeds and pieces, written 5+{name}"
                                ),
                                span,
                            );
                        }
                        None => {
                            return fail(
                                format!(
                                    "`{cell}`: {} has no pieces beside the seeds (`[pieces]`)",
                                    self.rules.name
                                ),
                                span,
                            );
                        }
                    }
                }
            };
            if let Some(m) = self.marks.get_mut(usize::from(h)) {
                *m = u8::try_from(marks).unwrap_or(u8::MAX);
            }
            *seeds = marks
                + match count(cell) {
                    // At most MAX_SEEDS, which fits a hole.
                    Count::Seeds(k) => u16::try_from(k).unwrap_or(u16::MAX),
                    Count::TooMany => {
                        return fail(
                            format!(
                                "`{cell}` seeds in one hole: a board holds at most {MAX_SEEDS}"
                            ),
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
        let rules = self.rules;
        let seat = |name: &str| seat_named(rules, name);
        if let Some(p) = seat(word) {
            if self.to_move {
                return fail("the player to move is given twice", span);
            }
            self.to_move = true;
            self.pos.to_move = p;
            return Ok(());
        }
        if let Some(names) = word.strip_prefix("out=") {
            self.pos.out |= self.seats(names, span)?;
            return Ok(());
        }
        let named_holding = word
            .split_once('=')
            .and_then(|(name, v)| Some((seat(name)?, v)));
        let holding = word
            .strip_prefix("S*=")
            .map(|v| (0, v))
            .or_else(|| word.strip_prefix("N*=").map(|v| (1, v)))
            .map(|(p, v)| (p, v, 3))
            .or_else(|| named_holding.map(|(p, v)| (p, v, word.len() - v.len())));
        if let Some((player, v, skip)) = holding {
            let value = if v.is_empty() {
                span.clone()
            } else {
                span.start + skip..span.end
            };
            let k = match count(v) {
                Count::Seeds(k) => k,
                // Refused before anything adds the counts up: two holdings near u32::MAX
                // would overflow the position's total.
                Count::TooMany => {
                    return fail(
                        format!(
                            "{} holds {v} seeds; a board holds at most {MAX_SEEDS}",
                            self.rules.player_title(player)
                        ),
                        value,
                    );
                }
                Count::NotANumber => {
                    return fail(format!("`{word}`: `{v}` is not a seed count"), value);
                }
            };
            let Some(held) = self.held.get_mut(usize::from(player)) else {
                return fail(format!("`{word}` names no player"), span);
            };
            if held.is_some() {
                return fail(
                    format!(
                        "the seeds {} holds are given twice",
                        self.rules.player_title(player)
                    ),
                    span,
                );
            }
            *held = Some((k, span));
        } else if let Some(v) = word.strip_prefix("rotation=") {
            let turns = self.rules.rounds.as_ref().map_or(0, |r| r.rotate_owners);
            let seats = self.rules.geometry.seats;
            match v.parse::<u8>() {
                Ok(r) if turns > 0 && r < seats => self.pos.rotation = r,
                _ if turns == 0 => {
                    return fail(
                        format!(
                            "{}'s holes never change hands: no `rotation`",
                            self.rules.name
                        ),
                        span,
                    );
                }
                _ => {
                    return fail(
                        format!(
                            "`rotation` is how many players on the holes have moved: 0 to {}",
                            seats - 1
                        ),
                        span,
                    );
                }
            }
        } else if let Some(v) = word.strip_prefix("owners=") {
            self.owners(v, span)?;
        } else if word == "swap" {
            if self.rules.swap.is_none() {
                return fail(
                    format!(
                        "{} has no pie rule (`[turns] swap`): no `swap`",
                        self.rules.name
                    ),
                    span,
                );
            }
            // The player to move may exchange sides.
            self.pos.offer = crate::engine::Offer::Swap;
        } else if word == "race" || word.starts_with("race=") || word.starts_with("race_start=") {
            let Some(race) = &self.rules.race else {
                return fail(
                    format!("{} has no race (`[race]`): no `race`", self.rules.name),
                    span,
                );
            };
            let (key, starts) = word.split_once('=').unwrap_or((word, ""));
            if word != "race" && !race.from.is_chosen() {
                return fail(
                    format!(
                        "in {} the rules name the holes the race starts from: write `race` alone",
                        self.rules.name
                    ),
                    span,
                );
            }
            let starts = self.starts(starts, span)?;
            let none = starts.iter().all(|&h| h == NO_HOLE);
            // Where the players choose, a race with no start chosen is the choices still to
            // make (which pass over, again, every seat that had nothing to choose).
            self.pos.offer = if key == "race" && !(none && race.from.is_chosen()) {
                // The round's first ply, the race, is still to come.
                crate::engine::Offer::Race { starts }
            } else {
                // The racers are choosing where they race from.
                crate::engine::Offer::RaceStart { starts }
            };
        } else if word == "optional_turn" {
            if !self.rules.extra_turns.iter().any(|x| x.optional) {
                return fail(
                    format!(
                        "{} has no optional extra turn: no `optional_turn`",
                        self.rules.name
                    ),
                    span,
                );
            }
            self.pos.offer = crate::engine::Offer::Decline;
        } else if let Some(v) = word.strip_prefix("stopped=") {
            self.stopped(v, span)?;
        } else if let Some(names) = word.strip_prefix("arranging=") {
            if self.rules.arrange.is_none() {
                return fail(
                    format!(
                        "{} has no arrangement before play: no `arranging`",
                        self.rules.name
                    ),
                    span,
                );
            }
            let left = self.seats(names, span)?;
            self.pos.offer = crate::engine::Offer::Arrange {
                left,
                refill: false,
            };
        } else if word == "then_refill" {
            let waits = (self.rules.arrange.as_ref()).is_some_and(|a| a.refill_after);
            match self.pos.offer {
                crate::engine::Offer::Arrange { left, .. } if waits => {
                    self.pos.offer = crate::engine::Offer::Arrange { left, refill: true };
                }
                _ if !waits => {
                    return fail(
                        format!(
                            "{}'s refill never waits for an arrangement: no `then_refill`",
                            self.rules.name
                        ),
                        span,
                    );
                }
                _ => {
                    return fail("`then_refill` follows `arranging=...`", span);
                }
            }
        } else if let Some(kind) = &rules.pieces
            && let Some(rest) = word
                .strip_prefix(kind.name.as_str())
                .and_then(|r| r.strip_prefix('.'))
        {
            self.piece(rest, span)?;
        } else if word == "held" {
            // Only introduces the holdings that follow (games of more than two players).
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

    /// A piece's place (`[pieces]`), after `NAME.`: `south=s3^2@north` is South's piece in
    /// s3 with two seeds or pieces dropped on it since, held by North; `held` for off the
    /// board. By default a piece is its owner's, off the board.
    fn piece(&mut self, value: &str, span: Range<usize>) -> Result<(), PositionError> {
        let rules = self.rules;
        let name = rules.pieces.as_ref().map_or("piece", |p| p.name.as_str());
        let shape = format!(
            "write {name}.PLAYER=HOLE (or held), then ^ and the seeds on it, @ and who holds it if not its owner: {name}.south=s3^2@north"
        );
        let Some((owner, rest)) = value.split_once('=') else {
            return fail(format!("`{name}.{value}`: {shape}"), span);
        };
        let Some(owner) = seat_named(rules, owner) else {
            return fail(
                format!("`{owner}` is not one of the players; {shape}"),
                span,
            );
        };
        let (rest, holder) = match rest.split_once('@') {
            Some((rest, who)) => match seat_named(rules, who) {
                Some(p) => (rest, p),
                None => return fail(format!("`{who}` is not one of the players; {shape}"), span),
            },
            None => (rest, owner),
        };
        let (place, covered) = match rest.split_once('^') {
            Some((place, k)) => match k.parse::<u16>() {
                Ok(k) => (place, k),
                Err(_) => return fail(format!("`{k}` is not a count of seeds; {shape}"), span),
            },
            None => (rest, 0),
        };
        let at = if place == "held" {
            NO_HOLE
        } else {
            match rules
                .geometry
                .site_labelled(place)
                .filter(|&h| rules.geometry.is_hole(h))
            {
                Some(h) => h,
                None => {
                    return fail(
                        format!("`{place}` is not a hole of the board; {shape}"),
                        span,
                    );
                }
            }
        };
        if at == NO_HOLE && covered > 0 {
            return fail(
                format!("a {name} held off the board has nothing on it; {shape}"),
                span,
            );
        }
        let slot = usize::from(owner);
        if self.placed.get(slot).copied().unwrap_or(true) {
            return fail(
                format!("the {name} of {} is given twice", rules.player_title(owner)),
                span,
            );
        }
        if let Some(seen) = self.placed.get_mut(slot) {
            *seen = true;
            let piece = crate::engine::Piece {
                at,
                holder,
                covered,
            };
            self.rules.piece_slots().set(&mut self.pos, owner, piece);
        }
        Ok(())
    }

    /// Whether the holes' cells show the pieces the words put there (`5+stone` and
    /// `stone.south=s3`), each piece below as many seeds as the hole holds.
    fn check_pieces(&self, whole: Range<usize>) -> Result<(), PositionError> {
        let Some(kind) = &self.rules.pieces else {
            return Ok(());
        };
        let g = &self.rules.geometry;
        for (h, &marks) in (0u8..).zip(&self.marks) {
            let there = self.rules.piece_slots().in_hole(&self.pos, h);
            let span = self
                .cells
                .get(usize::from(h))
                .cloned()
                .flatten()
                .unwrap_or(whole.clone());
            if u16::from(marks) != there {
                return fail(
                    format!(
                        "{}'s cell shows {marks} {name}{}, but the `{name}.PLAYER=` words put {there} there; a cell shows every {name} in its hole, as in 5+{name}",
                        g.label(h),
                        if marks == 1 { "" } else { "s" },
                        name = kind.name
                    ),
                    span,
                );
            }
            let seeds = self.pos.seeds(h);
            if let Some((_, p)) = (self.rules.piece_slots().all(&self.pos))
                .find(|(_, p)| p.at == h && p.covered >= seeds)
            {
                return fail(
                    format!(
                        "{} holds {seeds} in all, so no {} there has {} on it",
                        g.label(h),
                        kind.name,
                        p.covered
                    ),
                    span,
                );
            }
        }
        Ok(())
    }

    /// Each player's start in the race, in seat order, joined by commas: a hole of the board,
    /// or `-` for none (`race=s3,n5`, `race_start=s3,-`); nothing at all is every seat's none.
    fn starts(&self, text: &str, span: Range<usize>) -> Result<Starts, PositionError> {
        let mut starts = [NO_HOLE; MAX_SEATS];
        if text.is_empty() {
            return Ok(starts);
        }
        let labels: Vec<&str> = text.split(',').collect();
        let seats = usize::from(self.rules.geometry.seats);
        if labels.len() != seats {
            return fail(
                format!(
                    "give a start for each of the {seats} players, in seat order, `-` for none: e.g. race_start=s3,-"
                ),
                span,
            );
        }
        for (start, label) in starts.iter_mut().zip(labels) {
            if label.trim() != "-" {
                *start = match board_hole(self.rules, label, "a hole's label or -") {
                    Ok(h) => h,
                    Err(e) => return fail(e, span),
                };
            }
        }
        Ok(starts)
    }

    /// Players named and joined by commas (`out=`, `arranging=`), as a mask of seats.
    fn seats(&self, names: &str, span: Range<usize>) -> Result<u8, PositionError> {
        let mut seats = 0u8;
        for name in names.split(',') {
            let Some(p) = seat_named(self.rules, name) else {
                return fail(format!("`{name}` is not one of the players"), span);
            };
            seats |= 1 << p;
        }
        Ok(seats)
    }

    /// A move stopped for the mover's decision ([`crate::render::stopped_word`]).
    fn stopped(&mut self, value: &str, span: Range<usize>) -> Result<(), PositionError> {
        let rules = self.rules;
        let g = &rules.geometry;
        let shape = "write it as stopped=cN:HOLE:DIR:LAST:LAP_ORIGIN:LAP:CAPTURED:ENTERED:FLAGS, then :LANDED where the rules read `landed_on`, as positions are printed";
        let fields: Vec<&str> = value.split(':').collect();
        let (nine, landed): (Option<&[&str; 9]>, Option<&str>) = match fields.as_slice() {
            [nine @ .., landed] if fields.len() == 10 => (nine.try_into().ok(), Some(*landed)),
            nine => (nine.try_into().ok(), None),
        };
        let Some(
            [
                clause,
                origin,
                dir,
                last,
                lap_origin,
                lap,
                captured,
                entered,
                flags,
            ],
        ) = nine
        else {
            return fail(format!("`stopped={value}`: {shape}"), span);
        };
        // What the lap's last hole held before its last seed: a count, where given.
        let landed = match landed.map(str::parse::<u16>) {
            None => None,
            Some(Ok(n)) => Some(n),
            Some(Err(_)) => return fail(format!("`stopped={value}`: {shape}"), span),
        };
        let site = |t: &str| g.site_labelled(t);
        // A clause a move can stop at: an optional capture, one whose hole the mover chooses,
        // or an optional relay.
        let optional = |id: u16| {
            (rules.lap_captures.iter().chain(&rules.move_captures))
                .any(|c| c.id == id && (c.optional || c.choose.is_some()))
                || rules
                    .relay
                    .as_ref()
                    .is_some_and(|r| r.id == id && r.may_stop())
        };
        let clause = clause.strip_prefix('c').and_then(|n| n.parse::<u16>().ok());
        let dir = match *dir {
            "ccw" => Some(Dir::Ccw),
            "cw" => Some(Dir::Cw),
            _ => None,
        };
        let parsed = (
            clause.filter(|&c| optional(c)),
            site(origin),
            dir,
            site(last),
            site(lap_origin),
            lap.parse::<u32>().ok(),
            captured.parse::<u32>().ok(),
            entered.parse::<u16>().ok(),
            flags.chars().all(|c| "mrso".contains(c)),
        );
        let (
            Some(clause),
            Some(origin),
            Some(dir),
            Some(last),
            Some(lap_origin),
            Some(lap),
            Some(captured),
            Some(entered),
            true,
        ) = parsed
        else {
            if clause.is_some_and(|c| !optional(c)) || clause.is_none() {
                return fail(
                    format!(
                        "`stopped={value}`: the clause must be an optional capture or relay, or a capture whose hole the mover chooses, of {} (c and its number)",
                        rules.name
                    ),
                    span,
                );
            }
            return fail(format!("`stopped={value}`: {shape}"), span);
        };
        self.pos.offer = crate::engine::Offer::Decide(crate::engine::Pending {
            clause,
            at_move_end: flags.contains('m'),
            origin,
            dir,
            entered,
            last,
            lap_origin,
            lap: lap.max(1),
            reversed: flags.contains('r'),
            resowing: flags.contains('s'),
            reached_opponent: flags.contains('o'),
            captured,
            landed,
        });
        Ok(())
    }

    /// The holes' owners of a match of `[rounds] win_holes`: every player's holes, in turn
    /// order, `owners=s1+s2+n1/n2+n3`, each player's as labels joined by `+` (`-` for none).
    /// A hole is given once at most; a hole no list gives is nobody's.
    fn owners(&mut self, value: &str, span: Range<usize>) -> Result<(), PositionError> {
        let rules = self.rules;
        if !rules.rounds.as_ref().is_some_and(|r| r.win_holes) {
            return fail(
                format!(
                    "{} wins no holes (`[rounds] win_holes`): no `owners`",
                    rules.name
                ),
                span,
            );
        }
        let g = &rules.geometry;
        let parts: Vec<&str> = value.split('/').collect();
        if parts.len() != usize::from(g.seats) {
            let whose: Vec<String> = (g.players())
                .map(|p| rules.player_key(p).to_string())
                .collect();
            return fail(
                format!(
                    "`owners` gives every player's holes in turn order, {} lists joined by `/` ({}), found {}",
                    g.seats,
                    whose.join(", "),
                    parts.len()
                ),
                span,
            );
        }
        let board = g.board_holes();
        let mut seen: crate::rules::Mask = 0;
        let mut layout: crate::rules::Owned = [0; crate::rules::MAX_SEATS];
        for (part, owned) in parts.iter().zip(&mut layout) {
            for label in part.split('+').filter(|l| *l != "-") {
                let hole = (g.site_labelled(label)).filter(|&h| board & crate::rules::bit(h) != 0);
                let Some(hole) = hole else {
                    return fail(
                        format!("`owners`: `{label}` is not a hole of the board"),
                        span,
                    );
                };
                if seen & crate::rules::bit(hole) != 0 {
                    return fail(format!("`owners` gives `{label}` twice"), span);
                }
                seen |= crate::rules::bit(hole);
                *owned |= crate::rules::bit(hole);
            }
        }
        match rules.layouts.number(&layout) {
            Some(k) => self.pos.rotation = k,
            None => {
                return fail(
                    format!(
                        "a match of {} has met {} layouts of owners already, the most a position can name",
                        rules.name,
                        crate::rules::MAX_LAYOUTS
                    ),
                    span,
                );
            }
        }
        Ok(())
    }

    /// A variable's value: `NAME=v`, or `NAME=v1/v2/...` for one each player has (in turn
    /// order). A set of holes is its labels joined by `+` (`covered=s3+n2`), or `-` when empty.
    fn var(
        &mut self,
        var: &crate::rules::VarInfo,
        value: &str,
        span: Range<usize>,
    ) -> Result<(), PositionError> {
        let rules = self.rules;
        let seats = usize::from(rules.geometry.seats);
        let values: Vec<&str> = if var.per_player {
            value.split('/').collect()
        } else {
            vec![value]
        };
        if values.len() != if var.per_player { seats } else { 1 } {
            let whose: Vec<String> = (rules.geometry.players())
                .map(|p| rules.player_key(p).to_uppercase())
                .collect();
            return fail(
                format!(
                    "`{}` is a variable each player has: write {}={}",
                    var.name,
                    var.name,
                    whose.join("/")
                ),
                span,
            );
        }
        let width = usize::from(var.width.max(1));
        for (k, v) in values.into_iter().enumerate() {
            let at = usize::from(var.slot) + k * width;
            if var.kind == crate::ruleset::VarKind::Holes {
                let mut mask: crate::rules::Mask = 0;
                if v != "-" {
                    for label in v.split('+') {
                        let hole = (rules.geometry.site_labelled(label))
                            .filter(|&h| rules.geometry.is_hole(h));
                        let Some(h) = hole else {
                            return fail(
                                format!(
                                    "`{label}` is not a hole of this board: `{}` is a set of holes, written s1+n3 (or - when empty)",
                                    var.name
                                ),
                                span,
                            );
                        };
                        mask |= crate::rules::bit(h);
                    }
                }
                crate::rules::put_holes(&mut self.pos.vars, at, mask);
                continue;
            }
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
                crate::ruleset::VarKind::Holes => None,
            };
            let Some(parsed) = parsed else {
                let what = match var.kind {
                    crate::ruleset::VarKind::Number => "a whole number",
                    crate::ruleset::VarKind::Flag => "true or false",
                    crate::ruleset::VarKind::Direction => "ccw, cw or none",
                    crate::ruleset::VarKind::Holes => "holes joined by +",
                };
                return fail(
                    format!("`{v}` is not a value of `{}`: {what}", var.name),
                    span,
                );
            };
            if let Some(slot) = self.pos.vars.get_mut(at) {
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
                let hole = (g.site_labelled(v))
                    .filter(|&h| g.holes_of(0).chain(g.holes_of(1)).any(|o| o == h));
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
        let [south, north, ..] = self.pos.claims;
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
        let slots = usize::from(v.slots);
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
        held: [const { None }; MAX_SEATS],
        to_move: false,
        removed: [false; 2],
        claimed: [false; 2],
        cells: std::array::from_fn(|_| None),
        claim_spans: [None, None],
        suffix: None,
        marks: [0; MAX_POSITIONS],
        placed: [false; MAX_SEATS],
    };
    // Each player holds their own piece unless a word says otherwise.
    rules.piece_slots().start(&mut r.pos);
    let mut at = 0;
    loop {
        let rest = after(text, at);
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.is_empty() {
            break;
        }
        let ring = g.rows == 1;
        if ring && (trimmed.starts_with("S[") || trimmed.starts_with("N[")) {
            return fail(
                "this board is a ring: write its holes as R[...], from r1 on",
                at..at + 2,
            );
        }
        let row = if trimmed.starts_with("S[") || (ring && trimmed.starts_with("R[")) {
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
    if g.rows == 1 && !r.rows[0] {
        return fail("a position needs the ring's holes: R[...]", whole);
    }
    if g.rows != 1 && r.rows != [true, true] {
        return fail("a position needs both rows: S[...] N[...]", whole);
    }
    r.check_claims()?;
    r.check_pieces(whole.clone())?;
    let mut pos = r.pos;
    if pos.out & (1 << (pos.to_move & 7)) != 0 {
        return fail(
            format!(
                "{} is to move but out of the match",
                rules.player_title(pos.to_move)
            ),
            whole,
        );
    }
    for (p, held) in (0u8..).zip(r.held) {
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
    let total = rules.seeds_in(&pos);
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

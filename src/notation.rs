//! Moves and positions as people write them.
//!
//! A move is the mover's hole number counted from their own left, with the side's letter:
//! `s3` is South's third hole, `n7` North's seventh. On four-row boards holes are numbered
//! 1..2N counter-clockwise from the left end of the player's outer row.
//!
//! A position is `S[3 1 0 0 0 14 0] N[14 2 14 14 1 14 2]`, each row from its owner's left,
//! optionally followed by `S*=15 N*=4` (seeds held in store or reserve) and the player to
//! move (`south` or `north`, default South). A closed hole is written `x`.
//!
//! Moves and positions are user input: no `unwrap`, `expect` or indexing that could panic.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use crate::engine::Position;
use crate::rules::{MAX_POSITIONS, MAX_SEEDS, Player, Pos, Rules};

/// Parses a move such as `s3` for `player`.
pub fn parse_move(rules: &Rules, player: Player, text: &str) -> Result<Pos, String> {
    let text = text.trim();
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

/// Parses a set-up position for `rules`.
pub fn parse_position(rules: &Rules, text: &str) -> Result<Position, String> {
    let g = &rules.geometry;
    let mut pos = Position {
        board: [0; MAX_POSITIONS],
        reserve: [0; 2],
        taken: [0; 2],
        closed: 0,
        to_move: 0,
        moved: 0b11,
        turn_sowings: 0,
        claims: [crate::rules::NO_HOLE; 2],
    };
    let mut rest = text.trim();
    let mut seen = [false; 2];
    let mut held = [None::<u32>; 2];
    while !rest.is_empty() {
        let (player, after) = if let Some(r) = rest.strip_prefix("S[") {
            (0u8, r)
        } else if let Some(r) = rest.strip_prefix("N[") {
            (1u8, r)
        } else {
            let (word, tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            rest = tail.trim_start();
            if let Some(v) = word
                .strip_prefix("S*=")
                .or_else(|| word.strip_prefix("N*="))
            {
                let k = v
                    .parse()
                    .map_err(|_| format!("`{word}`: `{v}` is not a seed count"))?;
                let [south, north] = &mut held;
                *(if word.starts_with('N') { north } else { south }) = Some(k);
            } else if word.eq_ignore_ascii_case("south") {
                pos.to_move = 0;
            } else if word.eq_ignore_ascii_case("north") {
                pos.to_move = 1;
            } else {
                return Err(format!(
                    "unexpected `{word}` in the position; write it as S[...] N[...], then optionally S*=k N*=k and south or north"
                ));
            }
            continue;
        };
        let (inside, tail) = after.split_once(']').ok_or_else(|| {
            format!(
                "a `]` is missing after {}[",
                if player == 0 { 'S' } else { 'N' }
            )
        })?;
        rest = tail.trim_start();
        let [south_seen, north_seen] = &mut seen;
        let seen_row = if player == 0 { south_seen } else { north_seen };
        if *seen_row {
            return Err(format!("the {} row is given twice", player_name(player)));
        }
        *seen_row = true;
        let cells: Vec<&str> = inside.split_whitespace().collect();
        if cells.len() != g.holes_per_player as usize {
            return Err(format!(
                "{}'s row has {} holes in this ruleset, but the position gives {}",
                player_name(player),
                g.holes_per_player,
                cells.len()
            ));
        }
        for (i, cell) in cells.iter().enumerate() {
            let h = g
                .hole_of
                .get(usize::from(player))
                .and_then(|row| row.get(i))
                .copied()
                .unwrap_or(crate::rules::NO_HOLE);
            let Some(cell_seeds) = pos.board.get_mut(usize::from(h)) else {
                return Err(format!(
                    "{}'s row has no hole {}",
                    player_name(player),
                    i + 1
                ));
            };
            if *cell == "x" {
                pos.closed |= 1u64 << h;
                continue;
            }
            let seeds: u16 = cell.parse().map_err(|_| {
                format!("`{cell}` is not a seed count (a closed hole is written x)")
            })?;
            *cell_seeds = seeds;
        }
    }
    if !seen[0] || !seen[1] {
        return Err("a position needs both rows: S[...] N[...]".into());
    }
    for (p, k) in (0..2u8).zip(held) {
        if let Some(k) = k {
            // Checked before anything adds the counts up: two reserves near u32::MAX would
            // overflow the position's total.
            if k > MAX_SEEDS {
                return Err(format!(
                    "{} holds {k} seeds; a board holds at most {MAX_SEEDS}",
                    player_name(p)
                ));
            }
            let store = g.store.get(usize::from(p)).copied().flatten();
            match store.and_then(|s| pos.board.get_mut(usize::from(s))) {
                Some(cell) => {
                    *cell = u16::try_from(k)
                        .map_err(|_| format!("{k} seeds is too many for a store"))?;
                }
                None => {
                    if let Some(reserve) = pos.reserve.get_mut(usize::from(p)) {
                        *reserve = k;
                    }
                }
            }
        }
    }
    let total = pos.total();
    if total > rules.total_seeds() {
        return Err(format!(
            "the position holds {total} seeds, but {} is played with {}",
            rules.name,
            rules.total_seeds()
        ));
    }
    if total == 0 {
        return Err("the position holds no seeds".into());
    }
    Ok(pos)
}

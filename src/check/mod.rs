//! Ruleset text → checked, compiled [`Rules`], with every problem as a [`Diagnostic`].
//!
//! Checking goes on after a problem wherever it can, so that one run reports every mistake
//! in the file. Warnings flag what is legal but suspicious.
//!
//! Everything here reads user input: no `unwrap`, `expect` or indexing that could panic.

pub mod structure;
pub mod typing;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use serde::de::DeserializeOwned;

use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::expr;
use crate::rules::*;
use crate::ruleset::{
    self, Capture, End, Ending, Expr, Moment, RelayFrom, RulesetFile, Seeds, Setting, Stores,
    Verdict,
};
use typing::{OptionScope, Scope, facts};

/// The most holes in one row.
pub const MAX_HOLES_PER_ROW: u32 = 63;

/// The most rule clauses (legality, capture, extra-turn and ending clauses together) a ruleset
/// may have: clause ids are `u16`, and no documented game needs more than a few dozen.
pub const MAX_CLAUSES: usize = 1000;

/// A loaded ruleset and the warnings found while checking it.
pub struct Loaded {
    pub rules: Rules,
    pub warnings: Vec<Diagnostic>,
}

/// Checks a ruleset as `sow check` does: [`load`] with `overrides`, then with each other value
/// of each option in turn, then with each pair of other values of two options (the other
/// options as given). A setting is checked for every value of its option, but what depends on
/// the ruleset as a whole (the board's size, a start layout's length, a clause's holes) only
/// for the values in force, so a value listed as an option and never loaded could break the
/// ruleset unseen. Errors found with other values say which; an error a pair causes is said
/// only where neither value alone caused it. Warnings are the values in force's only. Three
/// values together are not tried: the pairs keep the work near the square of the values, where
/// every combination would be their product. Every problem, warnings included.
pub fn check_every_value(source: &str, overrides: &[(String, String)]) -> Vec<Diagnostic> {
    // The file's syntax and structure do not depend on the options: read once for every load.
    let read = structure::read(source);
    let loaded = match load_read(source, &read, overrides) {
        Ok(loaded) => loaded,
        Err(diags) => return diags,
    };
    let mut diags = loaded.warnings;
    // Each other value of each option, then each pair of other values of two options: a
    // problem a pair causes that neither value causes alone is said once, naming both.
    let others: Vec<Vec<(&str, &str)>> = (loaded.rules.options.iter())
        .map(|o| {
            (o.values.iter())
                .filter(|&v| *v != o.value)
                .map(|v| (o.name.as_str(), v.as_str()))
                .collect()
        })
        .collect();
    let mut trials: Vec<Vec<(&str, &str)>> = others.iter().flatten().map(|&v| vec![v]).collect();
    for (i, first) in others.iter().enumerate() {
        for second in others.iter().skip(i + 1) {
            for &a in first {
                trials.extend(second.iter().map(|&b| vec![a, b]));
            }
        }
    }
    // What was found, as the values in force would have said it (place and message).
    let mut found_before: Vec<(Option<std::ops::Range<usize>>, String)> = Vec::new();
    for trial in trials {
        let mut with: Vec<(String, String)> = (overrides.iter())
            .filter(|(name, _)| trial.iter().all(|(n, _)| name != n))
            .cloned()
            .collect();
        with.extend(trial.iter().map(|&(n, v)| (n.to_string(), v.to_string())));
        let Err(found) = load_read(source, &read, &with) else {
            continue;
        };
        for mut d in found.into_iter().filter(Diagnostic::is_error) {
            let said = (d.span.clone(), d.message.clone());
            if trial.len() > 1 && found_before.contains(&said) {
                continue;
            }
            found_before.push(said);
            // One sentence: the values first, then the problem as the values in force would
            // have said it.
            let mut rest = d.message.chars();
            let first: String = rest
                .next()
                .into_iter()
                .flat_map(char::to_lowercase)
                .collect();
            let values: Vec<String> = (trial.iter())
                .map(|(n, v)| format!("`{n}` = \"{v}\""))
                .collect();
            d.message = format!(
                "With option{} {}: {first}{}",
                if values.len() > 1 { "s" } else { "" },
                values.join(" and "),
                rest.as_str()
            );
            let seen = |e: &Diagnostic| e.span == d.span && e.message == d.message;
            if !diags.iter().any(seen) {
                diags.push(d);
            }
        }
    }
    diags
}

/// Checks and compiles a ruleset. `overrides` set options (name, value), as `--option` does.
/// On failure, every problem found is returned, warnings included.
pub fn load(source: &str, overrides: &[(String, String)]) -> Result<Loaded, Vec<Diagnostic>> {
    load_read(source, &structure::read(source), overrides)
}

/// [`load`] of a file already read (its syntax and structure checked, `read`).
fn load_read(
    source: &str,
    read: &structure::Read,
    overrides: &[(String, String)],
) -> Result<Loaded, Vec<Diagnostic>> {
    let Some(file) = &read.file else {
        return Err(read.diagnostics.clone());
    };
    let mut checker = Checker {
        source,
        diags: Vec::new(),
        options: BTreeMap::new(),
        option_spans: BTreeMap::new(),
        used: RefCell::new(BTreeSet::new()),
        clauses: Vec::new(),
        holes_per_player: None,
        track_stores: false,
        vars: BTreeMap::new(),
        sets: BTreeMap::new(),
        players: Vec::new(),
        labels: Vec::new(),
    };
    let rules = checker.ruleset(file, overrides);
    let Checker { mut diags, .. } = checker;
    if !read.diagnostics.is_empty() {
        // The structural pass mended the tree: what the checker says of a stand-in is not
        // the author's problem (a stand-in has no place in the text).
        diags.retain(|d| match &d.span {
            Some(span) => !structure::is_stand_in(source, span),
            None => !read.stood_in,
        });
        diags.splice(0..0, read.diagnostics.iter().cloned());
    }
    // Top to bottom, as an author reads the file; problems with no place come last.
    diags.sort_by_key(|d| d.span.as_ref().map_or(usize::MAX, |s| s.start));
    match rules {
        Some(rules) if !diags.iter().any(Diagnostic::is_error) => Ok(Loaded {
            rules,
            warnings: diags,
        }),
        _ => Err(diags),
    }
}

/// `[race]`'s settings as the options in force make them (each `None` where it is in error).
struct RaceSettings {
    from: Option<StartAt>,
    enabled: Option<bool>,
    ends: Option<ruleset::RaceEnds>,
    unfinished: Option<ruleset::RaceUnfinished>,
    next: Option<ruleset::RaceNext>,
}

/// What the rest of the rules, as the options in force make them, has that a race
/// (`[race]`) cannot go with.
struct RaceClashes {
    /// A clause that may ask the mover: an optional or chosen capture, an optional relay (or
    /// one lifting part of a hole).
    asks: bool,
    /// A capture that claims holes.
    claims: bool,
    /// The pie rule.
    swap: bool,
    /// The mover chooses the direction.
    choose_direction: bool,
}

struct Checker<'a> {
    source: &'a str,
    diags: Vec<Diagnostic>,
    /// Option name → (value in force, allowed values).
    options: BTreeMap<String, (String, Vec<String>)>,
    /// Option name → where it is declared.
    option_spans: BTreeMap<String, std::ops::Range<usize>>,
    used: RefCell<BTreeSet<String>>,
    clauses: Vec<ClauseInfo>,
    /// Holes each player has, once the board is known to be valid: constant hole numbers
    /// in expressions are checked against it.
    holes_per_player: Option<i64>,
    /// Whether the board has stores on the track.
    track_stores: bool,
    /// The rules' variables, by name.
    vars: BTreeMap<String, VarInfo>,
    /// The ruleset's named sets of holes, as masks of positions.
    sets: BTreeMap<String, Mask>,
    /// The players' names, in turn order.
    players: Vec<String>,
    /// The board's holes by label, once the board is known to be valid.
    labels: Vec<(String, Pos)>,
}

impl Checker<'_> {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn clause(&mut self, name: &str, cites: &Option<String>) -> ClauseId {
        self.clauses.push(ClauseInfo {
            name: name.to_string(),
            cites: cites.clone(),
        });
        // The clause count is limited (MAX_CLAUSES) before any clause is compiled.
        ClauseId::try_from(self.clauses.len() - 1).unwrap_or(ClauseId::MAX)
    }

    fn ruleset(&mut self, f: &RulesetFile, overrides: &[(String, String)]) -> Option<Rules> {
        if *f.format.get_ref() != 1 {
            self.error(
                Diagnostic::new(
                    Code::UnknownFormat,
                    format!(
                        "format {} is not known to this version of sow",
                        f.format.get_ref()
                    ),
                )
                .at(f.format.span())
                .hint("write `format = 1`"),
            );
        }
        let clauses = f.legal.len()
            + f.capture.len()
            + f.extra_turn.len()
            + usize::from(f.entry.is_some())
            + f.end.when.len()
            + f.sowing.skip.len();
        if clauses > MAX_CLAUSES {
            self.error(
                Diagnostic::new(
                    Code::TooManyClauses,
                    format!("this ruleset has {clauses} rule clauses; the limit is {MAX_CLAUSES}"),
                )
                .hint("legality, capture, extra-turn and [[end.when]] clauses count together"),
            );
            return None;
        }
        let options = self.options(f, overrides);
        // The players first: a variable each player has takes a slot a player.
        self.players = self.players(f);
        self.vars(f);
        let mut geometry = self.geometry(&f.board);
        // Where moves may start decides whether a player may own no hole.
        let sow_from = self.setting(&f.sowing.from, "sowing.from");
        if let Some(g) = &mut geometry {
            self.owners(f, g, sow_from == Some(ruleset::SowFrom::Any));
        }
        if let Some(g) = &geometry {
            self.labels = (0..g.positions)
                .filter(|&p| g.is_hole(p))
                .map(|p| (g.label(p), p))
                .collect();
            self.holes_per_player = Some(i64::from(g.holes_per_player));
            self.track_stores = g.store.iter().any(Option::is_some);
            self.sets(&f.board, g);
        }
        if f.board.stores == Stores::Reserve && f.board.store_side != ruleset::StoreSide::Right {
            let d = Diagnostic::new(Code::StoreSideWithoutStore,
                "`store_side` places a store on the track, but this board has none (`stores = \"reserve\"`)",
            )
            .hint("add `stores = \"track\"`, or remove `store_side`");
            let d = d.near(key_near(
                self.source,
                f.board.seeds.span().start,
                "store_side",
            ));
            self.error(d);
        }
        let initial = geometry.as_ref().and_then(|g| self.initial(&f.board, g));
        // The seeds on the board at the start, once it is valid.
        let board_total: u64 = initial
            .as_ref()
            .map_or(0, |b| b.iter().map(|&n| u64::from(n)).sum());
        let held_at_start = self.held_at_start(&f.board, board_total);
        let first = self.first(f);
        let start_id = self.clause("start", &f.start.cites);
        let _ = start_id;
        let direction = self.setting(&f.sowing.direction, "sowing.direction");
        let pass = self.setting(&f.turns.pass, "turns.pass");
        let swap = self.setting(&f.turns.swap, "turns.swap");
        let first_seed = self.setting(&f.sowing.first_seed, "sowing.first_seed");
        let skip_origin = self.setting(&f.sowing.skip_origin, "sowing.skip_origin");
        let closed_holes = self.setting(&f.sowing.closed_holes, "sowing.closed_holes");
        let skips: Vec<SkipRule> = (f.sowing.skip.iter())
            .filter_map(|k| {
                let id = self.clause(&k.name, &k.cites);
                let when = self.condition(&k.when, SKIP, "in a skip clause", &k.name)?;
                Some(SkipRule { id, when })
            })
            .collect();
        let redirects: Vec<RedirectRule> = (f.sowing.redirect.iter())
            .filter_map(|r| self.redirect(r))
            .collect();
        let lift = match &f.sowing.lift {
            Some(e) => Some(self.number_expr(e, LEGAL, "in `lift`", "sowing")?),
            None => None,
        };
        let gather = match &f.sowing.gather {
            Some(e) => {
                Some(self.expression(e, LEGAL, "in `gather`", "sowing", typing::compile_set)?)
            }
            None => None,
        };
        let max_laps = match &f.sowing.max_laps {
            None => None,
            Some(n) => {
                let laps = match n.get_ref() {
                    ruleset::Count::Number(n) => Some(*n),
                    ruleset::Count::FromOption(o) => {
                        self.count_option(&o.option, "sowing.max_laps")
                    }
                };
                match laps {
                    Some(laps) if (1..MAX_LAPS_PER_MOVE).contains(&laps) => Some(laps),
                    _ => {
                        self.error(
                            Diagnostic::new(Code::MaxLaps, format!(
                                "`max_laps` must be a number of laps from 1 to {}",
                                MAX_LAPS_PER_MOVE - 1
                            ))
                            .at(n.span())
                            .hint(format!(
                                "the engine's own safety limit stops any move at {MAX_LAPS_PER_MOVE} laps"
                            )),
                        );
                        None
                    }
                }
            }
        };

        let relay = f.sowing.relay.as_ref().map(|r| {
            let id = self.clause("relay", &r.cites);
            let from = r.from.unwrap_or(RelayFrom::Landing);
            if r.from.is_none() && r.hole.is_none() {
                self.error(
                    Diagnostic::new(
                        Code::RelayFrom,
                        "the relay says neither `from` nor `hole`: which hole does the next lap lift?",
                    )
                    .hint("add `from = \"landing\"` or `from = \"next\"`, or `hole = '...'`"),
                );
            }
            let hole = r
                .hole
                .as_ref()
                .map(|h| self.hole(h, LAP_END, "in the relay's hole", "relay"));
            let default = match (&r.hole, from) {
                (Some(h), _) => format!("seeds({}) > 0", h.get_ref()),
                (None, RelayFrom::Landing) => "seeds(last) > 1".to_string(),
                (None, RelayFrom::Next) => "seeds(next(last)) > 0".to_string(),
            };
            let when = match &r.when {
                Some(e) => {
                    let before = self.diags.len();
                    let when = self.condition(e, LAP_END, "in a relay condition", "relay");
                    // A relay that only captures make (`then = "relay"`) may never fire on
                    // its own: its condition being false is no mistake.
                    if f.capture.iter().any(|c| c.then == ruleset::After::Relay) {
                        let said = self.diags.split_off(before);
                        (self.diags).extend(said.into_iter().filter(|d| d.code != Code::NeverHolds));
                    }
                    when
                }
                None => expr::parse(&default)
                    .ok()
                    .and_then(|n| self.compile_node_bool(&n, LAP_END, "in a relay condition", 0)),
            };
            let reverse = self.setting(&r.reverse, "sowing.relay.reverse");
            let optional = match r.optional.as_ref().map(|t| t.get_ref()) {
                None => Some(BoolX::Const(false)),
                Some(ruleset::Toggle::Setting(s)) => {
                    self.setting(s, "sowing.relay.optional").map(BoolX::Const)
                }
                Some(ruleset::Toggle::When(_)) => r.optional_condition().and_then(|e| {
                    self.condition(&e, LAP_END, "in the relay's `optional`", "relay")
                }),
            };
            let lift = match &r.lift {
                None => Some(None),
                Some(e) => (self.number_expr(e, LAP_END | facts::BOUND, "in the relay's `lift`", "relay"))
                    .map(Some),
            };
            (id, from, hole, reverse.zip(optional).zip(lift), when)
        });

        let mut drop_captures = Vec::new();
        let mut lap_captures = Vec::new();
        let mut move_captures = Vec::new();
        let (mut put_captures, mut pick_captures) = (Vec::new(), Vec::new());
        let mut end_captures = Vec::new();
        let mut names = BTreeMap::new();
        for c in &f.capture {
            if let Some(first) = names.insert(c.name.clone(), c.when.span().start) {
                let d = Diagnostic::new(
                    Code::DuplicateClauseName,
                    format!("two capture clauses are named \"{}\"", c.name),
                )
                .hint("give each clause its own name: traces name the clause that fired");
                let d = match key_near(self.source, c.when.span().start, "name") {
                    Some(span) => d.at(span).label("named again here"),
                    None => d,
                };
                let d = match key_near(self.source, first, "name") {
                    Some(span) => d.also(span, "first named here"),
                    None => d,
                };
                self.error(d);
            }
            if c.then == ruleset::After::Relay && f.sowing.relay.is_none() {
                let d = Diagnostic::new(
                    Code::RelayThenWithoutRelay,
                    format!(
                        "capture clause \"{}\" goes on by the relay (`then = \"relay\"`), but the rules have no relay",
                        c.name
                    ),
                )
                .hint("add [sowing.relay] (e.g. `from = \"landing\"`, whose condition the capture then overrides), or use `then = \"continue\"`");
                let d = d.near(key_near(self.source, c.when.span().start, "then"));
                self.error(d);
            }
            if let Some(rule) = self.capture(c) {
                match c.at {
                    Moment::Drop => drop_captures.push(rule),
                    Moment::LapEnd => lap_captures.push(rule),
                    Moment::MoveEnd => move_captures.push(rule),
                    Moment::Put => put_captures.push(rule),
                    Moment::Pick => pick_captures.push(rule),
                    Moment::PlayEnd => end_captures.push(rule),
                    // Refused by `capture`.
                    Moment::RoundEnd | Moment::RoundStart => {}
                }
            }
        }
        let mut prefer = Vec::new();
        for l in f
            .legal
            .iter()
            .filter(|l| l.prefer.is_some() || l.prefer_after.is_some())
        {
            let id = self.clause(&l.name, &l.cites);
            if l.require.is_some() || l.require_after.is_some() {
                let d = Diagnostic::new(Code::LegalMixed, format!(
                    "legality clause \"{}\" both requires and prefers: a clause either restricts each move (`require`, `require_after`) or prefers some moves over the others (`prefer`, `prefer_after`)",
                    l.name
                ))
                .hint("write the two as two clauses");
                let d = d.near(key_near(
                    self.source,
                    l.prefer
                        .as_ref()
                        .or(l.prefer_after.as_ref())
                        .map_or(0, |e| e.span().start),
                    "name",
                ));
                self.error(d);
            }
            let when = match &l.when {
                Some(e) => self.condition(e, AFTER_PLY, "in a preference's `when`", &l.name),
                None => Some(BoolX::Const(true)),
            };
            let holds = match &l.prefer {
                Some(e) => self.condition(e, LEGAL, "in `prefer`", &l.name),
                None => Some(BoolX::Const(true)),
            };
            let holds_after = match &l.prefer_after {
                Some(e) => self
                    .condition(e, AFTER, "in `prefer_after`", &l.name)
                    .map(Some),
                None => Some(None),
            };
            if let (Some(when), Some(holds), Some(holds_after)) = (when, holds, holds_after) {
                prefer.push(PreferRule {
                    id,
                    when,
                    holds,
                    holds_after,
                });
            }
        }
        let legal = f
            .legal
            .iter()
            .filter(|l| l.prefer.is_none() && l.prefer_after.is_none())
            .filter_map(|l| {
                let id = self.clause(&l.name, &l.cites);
                let when = match &l.when {
                    Some(e) => self.condition(e, LEGAL, "in a legality clause", &l.name)?,
                    None => BoolX::Const(true),
                };
                let require = match &l.require {
                    Some(e) => self.condition(e, LEGAL, "in a legality clause", &l.name)?,
                    None => BoolX::Const(true),
                };
                let require_after = match &l.require_after {
                    Some(e) => Some(self.condition(e, AFTER, "in `require_after`", &l.name)?),
                    None => None,
                };
                if l.require.is_none() && l.require_after.is_none() {
                    let d = Diagnostic::new(Code::LegalWithoutRequire, format!(
                        "legality clause \"{}\" has none of `require`, `require_after`, `prefer` and `prefer_after`",
                        l.name
                    ))
                    .hint("add `require = '...'` (checked before the move) or `require_after = '...'`; `prefer_after = '...'` prefers the moves with a property");
                    let d = d.near(l.when.as_ref().and_then(|w| key_near(self.source, w.span().start, "name")));
                    self.error(d);
                }
                Some(LegalRule {
                    id,
                    when,
                    require,
                    require_after,
                })
            })
            .collect::<Vec<_>>();
        let extra_turns = f
            .extra_turn
            .iter()
            .filter_map(|x| {
                let id = self.clause(&x.name, &x.cites);
                let when = self.condition(&x.when, MOVE_END, "in an extra-turn clause", &x.name)?;
                let optional = self.setting(&x.optional, "extra_turn.optional")?;
                Some(ExtraRule { id, when, optional })
            })
            .collect();
        // The seeds of the game: the board's and what the players hold at the start.
        let start_total =
            board_total + held_at_start.map_or(0, |h| h.iter().map(|&n| u64::from(n)).sum::<u64>());
        if start_total == 0
            && initial.is_some()
            && f.board.held.is_some()
            && held_at_start.is_some()
        {
            let d = Diagnostic::new(
                Code::SeedTotal,
                "the game starts with no seeds: the board is empty and nobody holds any",
            )
            .hint("give the holes seeds (`seeds = 4`) or the players some to hold (`held = 4`)");
            let d = d.near(self.source.find("\nheld").map(|at| at + 1..at + 5));
            self.error(d);
        }
        let entry = match &f.entry {
            Some(e) => Some(self.entry(e, start_total)?),
            None => None,
        };
        self.put_clauses_need_arrange(f);
        let arrange = match &f.arrange {
            Some(a) => Some(self.arrange(a)?),
            None => None,
        };
        let pieces = self.pieces(f);
        let (mut drop_effects, mut lap_effects, mut move_effects, mut round_effects) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut start_effects = Vec::new();
        let (mut put_effects, mut pick_effects) = (Vec::new(), Vec::new());
        for e in &f.effect {
            // A moment at which this effect cannot be tried: its code, what is wrong, the hint.
            let misplaced = match e.at {
                Moment::PlayEnd => Some((
                    Code::PlayEndMisplaced,
                    "is tried at play's end: only captures are",
                    "try the effect at `move_end`, or at `round_end` in a match of rounds",
                )),
                Moment::RoundStart if f.arrange.is_some() => Some((
                    Code::RoundStartMisplaced,
                    "is tried at a round's start, but the players lay their seeds out themselves (`[arrange]`)",
                    "the arrangement's plies lay the board out, so no moment comes between the layout and the first move: try the effect at `put` or at `move_end`",
                )),
                Moment::RoundEnd if f.rounds.is_none() => Some((
                    Code::RoundEndMisplaced,
                    "is tried at the round's end, but the game is not a match of rounds",
                    "round-end effects count what rounds do for the match: add [rounds], or try the effect at `move_end`",
                )),
                _ => None,
            };
            if let Some((code, wrong, hint)) = misplaced {
                let d = Diagnostic::new(code, format!("effect \"{}\" {wrong}", e.name)).hint(hint);
                // The clause's `at`, found from its condition, or else from its name.
                let named = (e.when.as_ref().map(|w| w.span().start))
                    .or_else(|| self.source.find(&format!("name = \"{}\"", e.name)));
                let d = d.near(named.and_then(|at| key_near(self.source, at, "at")));
                self.error(d);
                continue;
            }
            if let Some(rule) = self.effect(e) {
                match e.at {
                    Moment::Drop => drop_effects.push(rule),
                    Moment::LapEnd => lap_effects.push(rule),
                    Moment::MoveEnd => move_effects.push(rule),
                    Moment::Put => put_effects.push(rule),
                    Moment::Pick => pick_effects.push(rule),
                    Moment::RoundEnd => round_effects.push(rule),
                    Moment::RoundStart => start_effects.push(rule),
                    // Refused above.
                    Moment::PlayEnd => {}
                }
            }
        }
        let (no_move, endless_move, cycle, end_when) = self.end(&f.end)?;
        let neutral_seeds = self.setting(&f.end.neutral_seeds, "end.neutral_seeds");
        let no_capture = self.optional_ending("no capture", f.end.no_capture.as_ref())?;
        let no_further_capture =
            self.optional_ending("no further capture", f.end.no_further_capture.as_ref())?;
        let no_capture_reachable =
            self.optional_ending("no capture reachable", f.end.no_capture_reachable.as_ref())?;
        let concede = self.optional_ending("concede", f.end.concede.as_ref())?;
        if relay.is_some() && f.end.endless_move.is_none() {
            self.diags.push(
                Diagnostic::new(
                    Code::RelayWithoutEndless,
                    "relay sowing can go on forever, but [end] names no `endless_move` outcome; \
                 the default (each player takes their own row, most seeds wins) applies",
                )
                .hint("add `endless_move = { remaining = ..., result = ... }` under [end]"),
            );
        }
        let rounds = f.rounds.as_ref().and_then(|r| {
            let id = self.clause("rounds", &r.cites);
            let restart = self.setting(&r.restart, "rounds.restart")?;
            // The table's header, for what it lacks.
            let header = (self.source.find("\n[rounds]")).map(|at| at + 1..at + 9);
            // `unless`: the other ways out, after `restart`; `ways`: the hint's choices after the
            // key's own.
            let missing = |checker: &mut Self, key: &str, example: &str, (unless, ways): (&str, &str)| {
                let d = Diagnostic::new(
                    Code::MissingKey,
                    format!("[rounds] has no `{key}`, which is required unless every round starts again (`restart = true`){unless}"),
                )
                .label(format!("`{key}` is missing here"))
                .hint(format!("add `{key} = {example}`, {ways}"));
                checker.error(d.near(header.clone()));
            };
            // Players who lay out their own seeds at every later round need no refill count.
            let laid_out = arrange.as_ref().is_some_and(|a| a.at.at_rounds());
            let refill = match (&r.refill, restart) {
                (_, true) => 0,
                (None, false) if laid_out => 0,
                (None, false) => {
                    let laid_out_too = (
                        " or the players lay out their seeds between rounds (`[arrange] at = \"rounds\"`)",
                        "`restart = true` for a match of separate games, or an arrangement at every round (`[arrange] at = \"rounds\"`)",
                    );
                    missing(self, "refill", "4", laid_out_too);
                    return None;
                }
                (Some(refill), false) => {
                    let n = match refill.get_ref() {
                        Seeds::Uniform(n) => *n,
                        Seeds::FromOption(o) => self.count_option(&o.option, "rounds.refill")?,
                        Seeds::Layout(_) | Seeds::Chosen(_) => {
                            self.error(
                                Diagnostic::new(
                                    Code::RefillLayout,
                                    "`refill` is one number for every hole, not a layout",
                                )
                                .at(refill.span()),
                            );
                            return None;
                        }
                    };
                    if n == 0 || n > MAX_SEEDS {
                        self.error(
                            Diagnostic::new(
                                Code::RefillRange,
                                format!("`refill` must be from 1 to {MAX_SEEDS}, found {n}"),
                            )
                            .at(refill.span()),
                        );
                    }
                    n
                }
            };
            let from = match (&r.refill_from, restart) {
                (Some(from), false) => self.setting(from, "rounds.refill_from")?,
                (None, false) if refill == 0 => ruleset::RowEnd::Left,
                (None, false) => {
                    missing(self, "refill_from", "\"left\"", ("", "or `restart = true` for a match of separate games"));
                    return None;
                }
                (_, true) => ruleset::RowEnd::Left,
            };
            let anchor = r.refill.as_ref().map_or(0, |refill| refill.span().start);
            let (partial, poorest, mirrored) = (
                self.setting(&r.last_hole, "rounds.last_hole")? == ruleset::LastHole::Partial,
                self.setting(&r.holes_filled, "rounds.holes_filled")?
                    == ruleset::HolesFilled::Poorest,
                self.setting(&r.matching_hole, "rounds.matching_hole")?
                    == ruleset::MatchingHole::Same,
            );
            if restart {
                // The refill's settings mean nothing when every round starts from the layout.
                let at = header.as_ref().map_or(0, |h| h.start);
                for key in ["refill", "refill_from", "last_hole", "least_in_last", "holes_filled", "matching_hole", "unfilled", "win_holes"] {
                    if let Some(span) = key_near(self.source, at, key) {
                        self.diags.push(
                            Diagnostic::new(
                                Code::SettingWithoutEffect,
                                format!("`{key}` changes nothing with `restart = true`: every round starts again from the layout"),
                            )
                            .at(span)
                            .hint(format!("remove `{key}`, or refill the board from what the players hold (`restart = false`)")),
                        );
                    }
                }
            }
            let matching_set = !matches!(r.matching_hole, Setting::Fixed(ruleset::MatchingHole::Full));
            if matching_set && !(partial && poorest) && !restart {
                let d = Diagnostic::new(
                    Code::SettingWithoutEffect,
                    "`matching_hole` changes nothing without `holes_filled = \"poorest\"` and `last_hole = \"partial\"`: no hole matches a partial one",
                )
                .hint("remove `matching_hole`, or set the two settings it needs");
                let d = d.near(key_near(self.source, anchor, "matching_hole"));
                self.error(d);
            }
            let least_in_last = match &r.least_in_last {
                None => 1,
                Some(least) => {
                    let n = self.setting(least.get_ref(), "rounds.least_in_last")?;
                    if !partial && !restart {
                        self.diags.push(
                            Diagnostic::new(
                                Code::SettingWithoutEffect,
                                "`least_in_last` changes nothing without `last_hole = \"partial\"`: every hole is filled in full",
                            )
                            .at(least.span())
                            .hint("remove `least_in_last`, or set `last_hole = \"partial\"`"),
                        );
                    }
                    if n == 0 || (n > refill && !restart) {
                        self.error(
                            Diagnostic::new(
                                Code::RefillRange,
                                format!("`least_in_last` must be from 1 to `refill` ({refill}), found {n}"),
                            )
                            .at(least.span()),
                        );
                        return None;
                    }
                    n
                }
            };
            let win_holes = self.setting(&r.win_holes, "rounds.win_holes")? && !restart;
            let rotating = !matches!(r.rotate_owners.as_ref().map(|c| c.get_ref()), None | Some(ruleset::Count::Number(0)));
            let rows = geometry.as_ref().map_or(2, |g| g.rows);
            let clash = if !win_holes {
                None
            } else if rows > 2 {
                Some(("a board of three or four rows", "`win_holes` needs one circuit of every hole that all players sow: a board of one or two rows"))
            } else if from == ruleset::RowEnd::OutsideIn {
                Some(("`refill_from = \"outside_in\"`", "the holes a player wins follow on from their own holes in the refill's direction: refill from `left` or `right`"))
            } else if poorest {
                Some(("`holes_filled = \"poorest\"`", "with `poorest` nobody fills more holes than the poorest player, so nobody wins any"))
            } else if rotating {
                Some(("`rotate_owners`", "the holes' owners are found anew at every refill; they cannot also move on by turns"))
            } else if r.closed.is_some() {
                Some(("`closed`", "every hole is filled or won at this refill; holes out of play by a rule would leave some nobody can win"))
            } else {
                None
            };
            if let Some((what, why)) = clash {
                let d = Diagnostic::new(
                    Code::WinHolesUnsupported,
                    format!("`win_holes = true` cannot go with {what}"),
                )
                .hint(why);
                let d = d.near(key_near(self.source, anchor, "win_holes"));
                self.error(d);
                return None;
            }
            let match_ends = match &r.match_ends {
                Some(e) => Some(self.condition(e, AFTER_PLY, "in `match_ends`", "rounds")?),
                None => None,
            };
            let closed = match &r.closed {
                Some(e) => {
                    let set = self.expression(e, AFTER_PLY, "in `closed`", "rounds", typing::compile_set)?;
                    if restart {
                        self.diags.push(
                            Diagnostic::new(
                                Code::SettingWithoutEffect,
                                "`closed` changes nothing with `restart = true`: every round starts again from the layout",
                            )
                            .at(e.span())
                            .hint("remove `closed`, or refill the board from what the players hold (`restart = false`)"),
                        );
                    }
                    Some(set)
                }
                None => None,
            };
            let rotate_owners = match r.rotate_owners.as_ref().map(|c| c.get_ref()) {
                None => 0,
                Some(ruleset::Count::Number(n)) => *n,
                Some(ruleset::Count::FromOption(o)) => {
                    self.count_option(&o.option, "rounds.rotate_owners")?
                }
            };
            // Neutral holes keep their seeds from round to round, outside the refill; holes
            // that change hands between rounds would have to say whether they stay nobody's.
            let neutral = geometry.as_ref().is_some_and(|g| g.neutral_mask() != 0);
            if neutral && (win_holes || rotate_owners > 0) {
                let (what, key) = if win_holes {
                    ("`win_holes`", "win_holes")
                } else {
                    ("`rotate_owners`", "rotate_owners")
                };
                let d = Diagnostic::new(
                    Code::OwnersInvalid,
                    format!("neutral holes cannot go with {what}: the holes' owners change between rounds, and neutral holes are nobody's for the whole match"),
                )
                .hint("give the neutral holes to players, or keep the owners fixed");
                let d = d.near(key_near(self.source, anchor, key));
                self.error(d);
                return None;
            }
            Some(RoundsRule {
                id,
                refill: u16::try_from(refill).unwrap_or(u16::MAX),
                from,
                restart,
                match_winner: self.setting(&r.match_winner, "rounds.match_winner")?,
                partial,
                poorest,
                mirrored,
                unfilled_open: self.setting(&r.unfilled, "rounds.unfilled")? == ruleset::Unfilled::Open,
                least_in_last: u16::try_from(least_in_last).unwrap_or(u16::MAX),
                win_holes,
                next_starter: {
                    let next = self.setting(&r.next_starter, "rounds.next_starter")?;
                    if self.players.len() > 2 && next == ruleset::NextStarter::Loser {
                        self.error(Diagnostic::new(
                            Code::SeatsUnsupported,
                            "`next_starter = \"loser\"` names the one loser of a two-player round; this game has more players",
                        ).hint("use `alternate` (the next player in turn order), `winner` or `remainder_taker`"));
                        return None;
                    }
                    next
                },
                match_ends,
                closed,
                end_on_repeated_start: self
                    .setting(&r.end_on_repeated_start, "rounds.end_on_repeated_start")?,
                give: match &r.give {
                    None => None,
                    Some(give) => {
                        let id = self.clause(&give.name, &give.cites);
                        let from = self.expression(
                            &give.from,
                            AFTER_PLY,
                            "in a gift's `from`",
                            &give.name,
                            typing::compile_player,
                        );
                        let when = match &give.when {
                            Some(w) => self.condition(w, AFTER_PLY, "in a gift's `when`", &give.name),
                            None => Some(BoolX::Const(true)),
                        };
                        let seeds = match give.seeds.get_ref() {
                            ruleset::Amount::Number(n) => Some(IntX::Const(i64::from(*n))),
                            ruleset::Amount::Expression(_) => {
                                give.seeds_expression().and_then(|e| {
                                    self.number_expr(&e, AFTER_PLY, "in a gift's `seeds`", &give.name)
                                })
                            }
                        };
                        Some(crate::rules::GiveRule {
                            id,
                            from: from?,
                            seeds: seeds?,
                            when: when?,
                        })
                    }
                },
                rotate_owners,
            })
        });
        if let Some(a) = &arrange
            && a.refill_after
            && (!a.at.at_rounds() || rounds.as_ref().is_none_or(|r| r.restart || r.laid_out()))
        {
            let d = Diagnostic::new(
                Code::SettingWithoutEffect,
                "`refill = \"after\"` changes nothing: no refill between rounds follows this arrangement",
            )
            .hint("the refill can wait only for an arrangement at every round's start (`at = \"rounds\"` or `\"always\"`) in a match with a refill count; remove `refill`");
            let at = self.source.find("\n[arrange]").map(|at| at + 1);
            self.diags
                .push(d.near(at.and_then(|at| key_near(self.source, at, "refill"))));
        }
        if let Some(a) = &arrange
            && a.at.at_rounds()
            && rounds.as_ref().is_none_or(|r| r.restart)
        {
            let d = Diagnostic::new(
                Code::SettingWithoutEffect,
                "the arrangement is made at every later round's start, but there is no refill between rounds",
            )
            .hint("add a [rounds] table that refills the board, or arrange before play only (`at = \"start\"`; a match of separate games arranges again from the start)");
            let at = self.source.find("\n[arrange]").map(|at| at + 1);
            self.diags
                .push(d.near(at.and_then(|at| key_near(self.source, at, "at"))));
        }

        // The race's settings and its hole, read here so that the options they name count as
        // used.
        let race_settings = f.race.as_ref().map(|r| RaceSettings {
            from: self.expression(
                &r.from,
                AFTER_PLY,
                "in the race's `from`",
                r.name.as_deref().unwrap_or("race"),
                typing::compile_start,
            ),
            enabled: self.setting(&r.enabled, "race.enabled"),
            ends: self.setting(&r.ends, "race.ends"),
            unfinished: self.setting(&r.unfinished, "race.unfinished"),
            next: self.setting(&r.next, "race.next"),
        });

        // Options declared but read nowhere are likely a mistake.
        for name in f.options.keys() {
            if !self.used.borrow().contains(name.get_ref()) {
                self.diags.push(
                    Diagnostic::new(Code::OptionNeverUsed, format!("option `{}` is never used", name.get_ref()))
                        .at(name.span())
                        .hint("read it in an expression as `option.NAME` or in a setting as `{ option = \"NAME\" }`"),
                );
            }
        }

        let relay = match relay {
            Some((id, from, hole, Some(((reverse, optional), lift)), Some(when))) => {
                Some(RelayRule {
                    id,
                    from,
                    hole: match hole {
                        Some(Some(h)) => Some(h),
                        Some(None) => return None,
                        None => None,
                    },
                    reverse,
                    when,
                    optional,
                    lift,
                })
            }
            Some(_) => return None,
            None => None,
        };
        let looks_ahead = legal.iter().any(|l| l.require_after.is_some());

        let geometry = geometry?;
        let swap = self.swap(f, &geometry, rounds.as_ref(), swap?)?;
        let race = match &f.race {
            Some(r) => {
                let captures = drop_captures
                    .iter()
                    .chain(&lap_captures)
                    .chain(&move_captures);
                let asks = captures.clone().any(|c| c.optional || c.choose.is_some());
                let relay_asks = relay
                    .as_ref()
                    .is_some_and(|r| r.optional != BoolX::Const(false) || r.lift.is_some());
                let claims = captures.clone().any(|c| c.claim);
                let clashes = RaceClashes {
                    asks: asks || relay_asks,
                    claims,
                    swap: swap.is_some(),
                    choose_direction: direction? == ruleset::Direction::Choose,
                };
                self.race(f, r, race_settings, clashes)?
            }
            None => None,
        };
        let layouts = crate::rules::Layouts::new(geometry.holes_mask);
        let neutral_seeds = neutral_seeds?;
        let claim_clause = drop_captures
            .iter()
            .chain(&lap_captures)
            .chain(&move_captures)
            .find(|c| c.claim)
            .map(|c| c.id);
        let rules = Rules {
            name: f.name.clone(),
            region: f.region.clone(),
            sources: f.sources.clone(),
            about: f.about.clone(),
            initial: initial?,
            held_at_start: held_at_start?,
            geometry,
            first: first?,
            players: self.players.clone(),
            direction: match direction? {
                ruleset::Direction::Cw => Dir::Cw,
                ruleset::Direction::Ccw | ruleset::Direction::Choose => Dir::Ccw,
            },
            choose_direction: direction? == ruleset::Direction::Choose,
            pass: pass?,
            first_seed: first_seed?,
            skip_origin: skip_origin?,
            sow_from_any: sow_from? == ruleset::SowFrom::Any,
            closed_holes: closed_holes?,
            relay,
            drop_captures,
            lap_captures,
            move_captures,
            legal,
            prefer,
            extra_turns,
            entry,
            arrange,
            pieces: pieces?,
            put_captures,
            put_effects,
            pick_captures,
            pick_effects,
            end_captures,
            no_move,
            endless_move,
            neutral_seeds,
            cycle,
            no_capture,
            no_further_capture,
            no_capture_reachable,
            concede,
            swap,
            race,
            max_laps,
            lift,
            gather,
            end_when,
            sets: self.sets.clone(),
            skips,
            redirects,
            rounds,
            vars: {
                let mut vars: Vec<VarInfo> = self.vars.values().cloned().collect();
                vars.sort_by_key(|v| v.slot);
                vars
            },
            drop_effects,
            lap_effects,
            move_effects,
            round_effects,
            start_effects,
            options,
            claim_clause,
            clauses: std::mem::take(&mut self.clauses),
            looks_ahead,
            layouts,
        };
        Some(rules)
    }
}

/// The facts each kind of expression may read.
const LEGAL: u32 = facts::ORIGIN;
const AFTER: u32 = facts::ORIGIN | facts::LAST | facts::HERE | facts::MOVE;
const DROP: u32 = facts::ORIGIN | facts::LAP | facts::HERE | facts::DROP | facts::MOVE;
const SKIP: u32 = DROP | facts::HAND;
const LAP_END: u32 = facts::ORIGIN | facts::LAP | facts::HERE | facts::LAST | facts::MOVE;
const MOVE_END: u32 = LAP_END;
/// After a seed put or picked up in the arrangement: the hole is `origin`, `here` and `last`.
const PUT: u32 = AFTER;
const AFTER_PLY: u32 = 0;
const ROUND_END: u32 = facts::ROUND;
/// No move is being made at a round's start: no hole of one to read.
const ROUND_START: u32 = 0;
/// Once play has ended: no hole of a move, only the board and the player tried (`mover`).
const PLAY_END: u32 = 0;

/// Where an expression's text starts inside its TOML string: past the quotes, and past the
/// newline that TOML drops right after an opening triple quote.
fn content_offset(source: &str, span: &std::ops::Range<usize>) -> usize {
    let raw = source.get(span.start..span.end).unwrap_or("");
    let quote = if raw.starts_with("'''") || raw.starts_with("\"\"\"") {
        3
    } else if raw.starts_with('\'') || raw.starts_with('"') {
        1
    } else {
        0
    };
    let rest = &raw[quote.min(raw.len())..];
    let newline = if quote == 3 {
        if rest.starts_with("\r\n") {
            2
        } else if rest.starts_with('\n') {
            1
        } else {
            0
        }
    } else {
        0
    };
    span.start + quote + newline
}

impl Checker<'_> {
    fn options(&mut self, f: &RulesetFile, overrides: &[(String, String)]) -> Vec<OptionValue> {
        let mut out = Vec::new();
        for (name, decl) in &f.options {
            let values: Vec<String> = decl.values.iter().map(|v| v.get_ref().clone()).collect();
            let mut seen = BTreeSet::new();
            for v in &decl.values {
                if !seen.insert(v.get_ref().as_str()) {
                    self.error(
                        Diagnostic::new(
                            Code::OptionDuplicateValue,
                            format!(
                                "option `{}` lists the value \"{}\" twice",
                                name.get_ref(),
                                v.get_ref()
                            ),
                        )
                        .at(v.span()),
                    );
                }
            }
            if values.is_empty() {
                self.error(
                    Diagnostic::new(
                        Code::OptionNoValues,
                        format!("option `{}` has no values", name.get_ref()),
                    )
                    .at(name.span()),
                );
            }
            if !values.contains(decl.default.get_ref()) {
                self.error(
                    Diagnostic::new(
                        Code::OptionDefault,
                        format!(
                            "the default \"{}\" of option `{}` is not one of its values {}",
                            decl.default.get_ref(),
                            name.get_ref(),
                            typing::quoted(&values)
                        ),
                    )
                    .at(decl.default.span()),
                );
            }
            self.options.insert(
                name.get_ref().clone(),
                (decl.default.get_ref().clone(), values.clone()),
            );
            self.option_spans
                .insert(name.get_ref().clone(), name.span());
            out.push(OptionValue {
                name: name.get_ref().clone(),
                value: decl.default.get_ref().clone(),
                default: decl.default.get_ref().clone(),
                values,
                question: decl.question.clone(),
                why: decl.why.clone(),
                cites: decl.cites.clone(),
            });
        }
        for (name, value) in overrides {
            let Some((current, values)) = self.options.get_mut(name) else {
                let known: Vec<&str> = f.options.keys().map(|k| k.get_ref().as_str()).collect();
                let d = Diagnostic::new(
                    Code::UnknownOption,
                    format!("this ruleset has no option `{name}`"),
                );
                let d = match did_you_mean(name, known.iter().copied()) {
                    Some(s) => d.hint(format!("did you mean `{s}`?")),
                    None if known.is_empty() => d.hint("this ruleset declares no options"),
                    None => d.hint(format!("its options are: {}", known.join(", "))),
                };
                self.error(d);
                continue;
            };
            if !values.contains(value) {
                let d = Diagnostic::new(
                    Code::OptionValue,
                    format!(
                        "option `{name}` cannot be \"{value}\"; its values are {}",
                        typing::quoted(values)
                    ),
                );
                let d = match did_you_mean(value, values.iter().map(String::as_str)) {
                    Some(s) => d.hint(format!("did you mean \"{s}\"?")),
                    None => d,
                };
                self.error(d);
                continue;
            }
            *current = value.clone();
            if let Some(o) = out.iter_mut().find(|o| &o.name == name) {
                o.value = value.clone();
            }
        }
        out
    }

    /// Resolves a setting: its own value, or the value of the option it names (every value of
    /// the option is checked, not only the one in force).
    fn setting<T: DeserializeOwned + Clone>(&mut self, s: &Setting<T>, key: &str) -> Option<T> {
        let r = match s {
            Setting::Fixed(v) => return Some(v.clone()),
            Setting::FromOption(r) => r,
        };
        let name = r.option.get_ref();
        let Some((value, values)) = self.options.get(name).cloned() else {
            let d = Diagnostic::new(
                Code::SettingUnknownOption,
                format!("`{key}` names an unknown option `{name}`"),
            )
            .at(r.option.span());
            let d = match did_you_mean(name, self.options.keys().map(String::as_str)) {
                Some(s) => d.hint(format!("did you mean `{s}`?")),
                None => d.hint("declare it under [options]"),
            };
            self.error(d);
            return None;
        };
        self.used.borrow_mut().insert(name.clone());
        let mut chosen = None;
        for v in &values {
            let resolved = if r.map.is_empty() {
                {
                    use serde::de::IntoDeserializer;
                    let d: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
                        v.as_str().into_deserializer();
                    T::deserialize(d)
                }
                .map_err(|e| {
                    (
                        Code::OptionValueInvalidForSetting,
                        format!(
                            "option `{name}`'s value \"{v}\" is not a valid `{key}`: {}",
                            e.to_string().trim()
                        ),
                    )
                })
            } else {
                r.map.get(v).cloned().ok_or_else(|| {
                    (
                        Code::OptionMapMissing,
                        format!(
                            "the map of `{key}` has no entry for option `{name}`'s value \"{v}\""
                        ),
                    )
                })
            };
            match resolved {
                Ok(t) if *v == value => chosen = Some(t),
                Ok(_) => {}
                Err((code, message)) => {
                    self.error(Diagnostic::new(code, message).at(r.option.span()).hint(
                        "give the option values that are valid here, or add `map = { value = setting, ... }`",
                    ));
                    return None;
                }
            }
        }
        for k in r.map.keys() {
            if !values.contains(k) {
                self.error(
                    Diagnostic::new(Code::OptionMapExtra, format!(
                        "the map of `{key}` names \"{k}\", which is not a value of option `{name}`"
                    ))
                    .at(r.option.span()),
                );
            }
        }
        chosen
    }

    /// The value in force of an option whose values are all whole numbers.
    fn count_option(&mut self, name: &toml::Spanned<String>, key: &str) -> Option<u32> {
        let Some((value, values)) = self.options.get(name.get_ref()).cloned() else {
            let d = Diagnostic::new(
                Code::SettingUnknownOption,
                format!("`{key}` names an unknown option `{}`", name.get_ref()),
            )
            .at(name.span());
            let d = match did_you_mean(name.get_ref(), self.options.keys().map(String::as_str)) {
                Some(s) => d.hint(format!("did you mean `{s}`?")),
                None => d.hint("declare it under [options]"),
            };
            self.error(d);
            return None;
        };
        self.used.borrow_mut().insert(name.get_ref().clone());
        if let Some(bad) = values.iter().find(|v| v.parse::<u32>().is_err()) {
            self.error(
                Diagnostic::new(Code::OptionNotCount, format!(
                    "option `{}` gives `{key}`, so its values must be whole numbers, but one is \"{bad}\"",
                    name.get_ref()
                ))
                .at(name.span()),
            );
            return None;
        }
        value.parse().ok()
    }

    /// The players' names (`[turns] players`), checked; `south`, `north` without the key.
    fn players(&mut self, f: &RulesetFile) -> Vec<String> {
        let default = vec!["south".to_string(), "north".to_string()];
        let Some(list) = &f.turns.players else {
            return default;
        };
        let names = list.get_ref();
        if names.len() < 2 || names.len() > MAX_SEATS {
            self.error(
                Diagnostic::new(
                    Code::PlayersInvalid,
                    format!("a game has 2 to {MAX_SEATS} players, not {}", names.len()),
                )
                .at(list.span()),
            );
            return default;
        }
        let mut out: Vec<String> = Vec::new();
        for name in names {
            let word = name.get_ref();
            let mut chars = word.chars();
            let well_formed = chars.next().is_some_and(|c| c.is_ascii_lowercase())
                && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            let problem = if !well_formed {
                Some(format!(
                    "`{word}` is not a player's name: a lowercase word, such as `west`"
                ))
            } else if word == "nobody" {
                Some("`nobody` is not a player's name: it means no player".to_string())
            } else if out.contains(word) {
                Some(format!("`{word}` is named twice"))
            } else {
                None
            };
            match problem {
                Some(message) => self.error(
                    Diagnostic::new(Code::PlayersInvalid, message)
                        .at(name.span())
                        .hint("each player has a different lowercase name, in turn order"),
                ),
                None => out.push(word.clone()),
            }
        }
        if out.len() == names.len() {
            out
        } else {
            default
        }
    }

    /// The player who moves first, by name (the first player by default).
    fn first(&mut self, f: &RulesetFile) -> Option<Player> {
        let Some(first) = &f.start.first else {
            return Some(0);
        };
        let name = self.setting(first.get_ref(), "start.first")?;
        if let Some(i) = self.players.iter().position(|p| *p == name) {
            return Player::try_from(i).ok();
        }
        let d = Diagnostic::new(
            Code::UnknownPlayer,
            format!("`start.first` names `{name}`, who is not one of the players"),
        )
        .at(first.span());
        let d = match did_you_mean(&name, self.players.iter().map(String::as_str)) {
            Some(p) => d.hint(format!("did you mean `{p}`?")),
            None => d.hint(format!("the players are {}", self.players.join(", "))),
        };
        self.error(d);
        None
    }

    /// Applies `[board] owners` and `[board] neutral`, when given (and requires owners with
    /// more than two players).
    fn owners(&mut self, f: &RulesetFile, g: &mut Geometry, from_any: bool) {
        let b = &f.board;
        let seats = self.players.len();
        let anchor = b.seeds.span().start;
        // The table as a whole: `owners = { ... }` in [board], or its own `[board.owners]`.
        let place = |checker: &Checker<'_>, d: Diagnostic| {
            let header = "[board.owners]";
            let table = (checker.source.find(header)).map(|at| at..at + header.len());
            d.near(key_near(checker.source, anchor, "owners").or(table))
        };
        if seats > 2 && f.board.stores == Stores::Track {
            let d = Diagnostic::new(
                Code::SeatsUnsupported,
                format!("stores on the track are for two players; this game has {seats}"),
            )
            .hint("keep captures in reserves: `stores = \"reserve\"`");
            let d = d.near(key_near(self.source, anchor, "stores"));
            self.error(d);
            return;
        }
        if b.owners.is_empty() && b.neutral.is_empty() && g.rows != 1 {
            if seats > 2 {
                let d = Diagnostic::new(
                    Code::OwnersInvalid,
                    format!(
                        "a game of {seats} players needs `[board] owners`: whose holes are whose"
                    ),
                )
                .hint(format!(
                    "give each of {} their holes, e.g. `{} = [\"s1\", \"s2\"]`",
                    self.players.join(", "),
                    self.players.first().map_or("south", String::as_str)
                ))
                .at(b.rows.span());
                self.error(d);
            }
            return;
        }
        if g.rows == 4 {
            let (key, d) = if b.owners.is_empty() {
                let d = Diagnostic::new(
                    Code::OwnersInvalid,
                    "`neutral` is for boards of one to three rows",
                );
                ("neutral", d)
            } else {
                let d = Diagnostic::new(
                    Code::OwnersInvalid,
                    "`owners` is for boards of one to three rows",
                );
                ("owners", d)
            };
            let d = d.hint("on four rows each player owns their two rows");
            let d = match key_near(self.source, anchor, key) {
                Some(span) => d.at(span),
                None => place(self, d),
            };
            self.error(d);
            return;
        }
        let labels: Vec<(String, Pos)> = (0..g.positions)
            .filter(|&p| g.is_hole(p))
            .map(|p| (g.label(p), p))
            .collect();
        let unknown = |who: &str, label: &toml::Spanned<String>| {
            let d = Diagnostic::new(
                Code::OwnersInvalid,
                format!(
                    "{who} `{}`, which is not a hole of this board",
                    label.get_ref()
                ),
            )
            .at(label.span());
            match did_you_mean(label.get_ref(), labels.iter().map(|(l, _)| l.as_str())) {
                Some(l) => d.hint(format!("did you mean `{l}`?")),
                None => d.hint(format!("the holes are {}", g.labels_range())),
            }
        };
        let mut ok = true;
        // The neutral holes first: a hole given to a player may not be one of them.
        let mut neutral: Mask = 0;
        for label in &b.neutral {
            let Some(&(_, h)) = labels.iter().find(|(l, _)| l == label.get_ref()) else {
                self.error(unknown("`neutral` names", label));
                ok = false;
                continue;
            };
            if neutral & bit(h) != 0 {
                self.error(
                    Diagnostic::new(
                        Code::OwnersInvalid,
                        format!("`neutral` names `{}` twice", label.get_ref()),
                    )
                    .at(label.span()),
                );
                ok = false;
            }
            neutral |= bit(h);
        }
        let mut lists: Vec<Vec<Pos>> = vec![Vec::new(); seats];
        let mut whose: BTreeMap<Pos, String> = BTreeMap::new();
        // A hole given twice still has an owner: the holes given to none are told too.
        let mut twice = false;
        for (player, holes) in &b.owners {
            let Some(seat) = self.players.iter().position(|p| p == player.get_ref()) else {
                let d = Diagnostic::new(
                    Code::UnknownPlayer,
                    format!(
                        "`owners` names `{}`, who is not one of the players",
                        player.get_ref()
                    ),
                )
                .at(player.span());
                let d =
                    match did_you_mean(player.get_ref(), self.players.iter().map(String::as_str)) {
                        Some(p) => d.hint(format!("did you mean `{p}`?")),
                        None => d.hint(format!("the players are {}", self.players.join(", "))),
                    };
                self.error(d);
                ok = false;
                continue;
            };
            for label in holes {
                let Some(&(_, h)) = labels.iter().find(|(l, _)| l == label.get_ref()) else {
                    self.error(unknown(
                        &format!("`owners` gives {}", player.get_ref()),
                        label,
                    ));
                    ok = false;
                    continue;
                };
                if neutral & bit(h) != 0 {
                    self.error(
                        Diagnostic::new(
                            Code::OwnersInvalid,
                            format!(
                                "`{}` is given to {} and is neutral: a hole is a player's or nobody's",
                                label.get_ref(),
                                player.get_ref()
                            ),
                        )
                        .at(label.span()),
                    );
                    twice = true;
                    continue;
                }
                if let Some(other) = whose.insert(h, player.get_ref().clone()) {
                    self.error(
                        Diagnostic::new(
                            Code::OwnersInvalid,
                            format!(
                                "`{}` is given to {other} and to {}: a hole has one owner",
                                label.get_ref(),
                                player.get_ref()
                            ),
                        )
                        .at(label.span()),
                    );
                    twice = true;
                    continue;
                }
                if let Some(list) = lists.get_mut(seat) {
                    list.push(h);
                }
            }
        }
        if !ok {
            return;
        }
        if b.owners.is_empty() && g.rows == 1 {
            // A ring is shared out in equal blocks, in turn order counter-clockwise: the first
            // player's holes from r1, then the next player's.
            let holes: Vec<Pos> = g.home_holes(0).filter(|&h| neutral & bit(h) == 0).collect();
            if holes.is_empty() && !from_any {
                let d = Diagnostic::new(
                    Code::OwnersInvalid,
                    "every hole of the ring is neutral, so no player has a hole to move from",
                )
                .hint("let moves start from any hole, `from = \"any\"` in [sowing], or give the players holes in `[board.owners]`")
                .at(b.holes.span());
                self.error(d);
                return;
            }
            // A ring of neutral holes only is a board nobody owns (moves start anywhere).
            let nobody_owns = holes.is_empty();
            if !nobody_owns && !holes.len().is_multiple_of(seats) {
                let d = Diagnostic::new(
                    Code::OwnersInvalid,
                    format!(
                        "a ring of {} {}cannot be shared equally among {seats} players",
                        holes.len(),
                        if neutral == 0 { "holes " } else { "holes besides the neutral ones " }
                    ),
                )
                .hint("make the ring's holes a multiple of the players, or say whose holes are whose in `[board.owners]`")
                .at(b.holes.span());
                self.error(d);
                return;
            }
            if !nobody_owns {
                for (list, block) in lists.iter_mut().zip(holes.chunks(holes.len() / seats)) {
                    list.extend_from_slice(block);
                }
            }
        } else if b.owners.is_empty() {
            // Each row stays its player's, but for the neutral holes.
            for (home, list) in (0u8..).zip(lists.iter_mut()) {
                list.extend(g.home_holes(home).filter(|&h| neutral & bit(h) == 0));
            }
        } else {
            let missing: Vec<&str> = labels
                .iter()
                .filter(|(_, h)| !whose.contains_key(h) && neutral & bit(*h) == 0)
                .map(|(l, _)| l.as_str())
                .collect();
            if !missing.is_empty() {
                let d = Diagnostic::new(
                    Code::OwnersInvalid,
                    format!(
                        "`owners` gives no player {}: every hole needs an owner, or to be neutral",
                        missing.join(", ")
                    ),
                );
                let d = place(self, d);
                self.error(d);
                return;
            }
        }
        if twice {
            return;
        }
        for (name, list) in self.players.clone().iter().zip(&lists) {
            // Where moves may start from any hole, a player may own none.
            if list.is_empty() && !from_any {
                let d = Diagnostic::new(
                    Code::OwnersInvalid,
                    format!("`owners` gives {name} no hole: every player needs at least one"),
                );
                let d = place(self, d);
                self.error(d);
                return;
            }
        }
        g.assign(&lists);
    }

    /// Resolves the named sets of holes against the board's labels.
    fn sets(&mut self, b: &ruleset::Board, g: &Geometry) {
        let labels: Vec<(String, Pos)> = (0..g.positions)
            .filter(|&p| g.is_hole(p))
            .map(|p| (g.label(p), p))
            .collect();
        for (name, holes) in &b.sets {
            let mut mask: Mask = 0;
            for label in holes {
                match labels.iter().find(|(l, _)| l == label.get_ref()) {
                    Some(&(_, p)) => mask |= bit(p),
                    None => {
                        let d = Diagnostic::new(
                            Code::SetUnknownHole,
                            format!(
                                "set `{name}` names `{}`, which is not a hole of this board",
                                label.get_ref()
                            ),
                        )
                        .at(label.span());
                        let d = match did_you_mean(
                            label.get_ref(),
                            labels.iter().map(|(l, _)| l.as_str()),
                        ) {
                            Some(l) => d.hint(format!("did you mean `{l}`?")),
                            None => d.hint(format!("the holes are {}", g.labels_range())),
                        };
                        self.error(d);
                    }
                }
            }
            self.sets.insert(name.clone(), mask);
        }
    }

    fn geometry(&mut self, b: &ruleset::Board) -> Option<Geometry> {
        let rows = *b.rows.get_ref();
        let holes = match b.holes.get_ref() {
            ruleset::Count::Number(n) => *n,
            ruleset::Count::FromOption(o) => self.count_option(&o.option, "board.holes")?,
        };
        let mut ok = true;
        if ![1, 2, 3, 4].contains(&rows) {
            self.error(
                Diagnostic::new(
                    Code::BoardRows,
                    format!("a board has 2, 3 or 4 rows, or 1 for a ring of holes; not {rows}"),
                )
                .at(b.rows.span()),
            );
            ok = false;
        }
        // The size of the board, one message for whatever is wrong with it.
        let size_problem = if rows == 1 && (holes < 2 || holes > MAX_HOLES as u32) {
            Some(format!(
                "a ring holds from 2 to {MAX_HOLES} holes; found {holes}"
            ))
        } else if rows != 1
            && (holes == 0
                || holes > MAX_HOLES_PER_ROW
                || rows.saturating_mul(holes) > MAX_HOLES as u32)
        {
            Some(format!(
                "a row holds from 1 to {MAX_HOLES_PER_ROW} holes and a board at most {MAX_HOLES}; \
                 found {holes} holes in each of {rows} rows"
            ))
        } else if rows == 3 && holes % 2 != 0 {
            Some(format!(
                "a three-row board needs an even number of holes in a row, to share the middle row in halves; found {holes}"
            ))
        } else {
            None
        };
        if let Some(message) = size_problem {
            self.error(Diagnostic::new(Code::BoardHoles, message).at(b.holes.span()));
            ok = false;
        }
        if rows != 2 && b.stores == Stores::Track {
            self.error(
                Diagnostic::new(
                    Code::TrackStoreRows,
                    "stores on the track need a two-row board",
                )
                .at(b.rows.span())
                .hint(match rows {
                    1 => "use `stores = \"reserve\"` on a ring: the stores sit off it",
                    3 => "use `stores = \"reserve\"` on three rows",
                    _ => "use `stores = \"reserve\"` on four rows",
                }),
            );
            ok = false;
        }
        ok.then(|| Geometry::build(rows as u8, holes as u8, b.stores, b.store_side))
    }

    /// A value that may be chosen by an option (`key`), followed to what the values in force
    /// name: a choice's value may be a choice by another option in turn (each step goes one
    /// table deeper, so it ends). Every option the choice names is used, those of the values
    /// not chosen included.
    fn follow<T: ruleset::OptionChoice + DeserializeOwned + Clone>(
        &mut self,
        value: &T,
        key: &str,
    ) -> Option<T> {
        fn named<T: ruleset::OptionChoice>(v: &T, used: &mut BTreeSet<String>) {
            if let Some(r) = v.choice() {
                used.insert(r.option.get_ref().clone());
                r.map.values().for_each(|v| named(v, used));
            }
        }
        named(value, &mut self.used.borrow_mut());
        let mut value = value.clone();
        while let Some(r) = value.choice() {
            value = self.setting(&Setting::FromOption(r.clone()), key)?;
        }
        Some(value)
    }

    fn initial(&mut self, b: &ruleset::Board, g: &Geometry) -> Option<[u16; MAX_POSITIONS]> {
        let per = g.holes_per_player as usize;
        let seeds = self.follow(b.seeds.get_ref(), "board.seeds")?;
        let (south, north): (Vec<u32>, Vec<u32>) = match &seeds {
            Seeds::Uniform(n) => (vec![*n; per], vec![*n; per]),
            Seeds::FromOption(o) => {
                let n = self.count_option(&o.option, "board.seeds")?;
                (vec![n; per], vec![n; per])
            }
            Seeds::Layout(_) if g.rows == 1 => {
                self.error(
                    Diagnostic::new(
                        Code::LayoutLength,
                        "a layout gives the rows `south` and `north`, but this board is a ring",
                    )
                    .hint("give a ring's seeds as one number for every hole, e.g. `seeds = 4`")
                    .at(b.seeds.span()),
                );
                return None;
            }
            Seeds::Chosen(_) => return None,
            Seeds::Layout(l) => {
                for (who, v) in [("south", &l.south), ("north", &l.north)] {
                    if v.len() != per {
                        self.error(
                            Diagnostic::new(
                                Code::LayoutLength,
                                format!(
                                    "the layout gives {} holes for {who}, but {} {per}",
                                    v.len(),
                                    // The layout follows the labels: a row on two rows, whoever
                                    // owns its holes; a player's two rows on four.
                                    if g.rows == 2 {
                                        "a row has"
                                    } else {
                                        "each player has"
                                    }
                                ),
                            )
                            .at(b.seeds.span()),
                        );
                        return None;
                    }
                }
                (l.south.clone(), l.north.clone())
            }
        };
        let total: u64 = south.iter().chain(&north).map(|&s| u64::from(s)).sum();
        // An empty board is a start where the players hold the seeds (`held`, checked with
        // the game's total).
        if (total == 0 && b.held.is_none()) || total > u64::from(MAX_SEEDS) {
            self.error(
                Diagnostic::new(
                    Code::SeedTotal,
                    format!(
                        "the board starts with {total} seeds; it must hold from 1 to {MAX_SEEDS}"
                    ),
                )
                .at(b.seeds.span()),
            );
            return None;
        }
        let mut board = [0u16; MAX_POSITIONS];
        for (player, counts) in [(0usize, &south), (1, &north)] {
            for (i, &c) in counts.iter().enumerate() {
                // total <= MAX_SEEDS, so every count fits.
                let hole = g
                    .hole_of
                    .get(player)
                    .and_then(|row| row.get(i))
                    .copied()
                    .unwrap_or(NO_HOLE);
                if let Some(cell) = board.get_mut(usize::from(hole)) {
                    *cell = u16::try_from(c).unwrap_or(u16::MAX);
                }
            }
        }
        Some(board)
    }

    /// `[board] held`: the seeds each player holds at the start, such that the board's seeds
    /// (`board_total`) and the holdings together stay within [`MAX_SEEDS`].
    fn held_at_start(
        &mut self,
        b: &ruleset::Board,
        board_total: u64,
    ) -> Option<[u32; crate::rules::MAX_SEATS]> {
        let mut each = [0u32; crate::rules::MAX_SEATS];
        let Some(held) = &b.held else {
            return Some(each);
        };
        match &self.follow(held.get_ref(), "board.held")? {
            ruleset::Held::Chosen(_) => return None,
            ruleset::Held::Each(count) => {
                let n = match count {
                    ruleset::Count::Number(n) => *n,
                    ruleset::Count::FromOption(o) => self.count_option(&o.option, "board.held")?,
                };
                for slot in each.iter_mut().take(self.players.len()) {
                    *slot = n;
                }
            }
            ruleset::Held::PerPlayer(table) => {
                for (name, &n) in table {
                    let Some(p) = self.players.iter().position(|q| q == name) else {
                        let d = Diagnostic::new(
                            Code::UnknownPlayer,
                            format!("`held` names `{name}`, who is not one of the players"),
                        )
                        .at(held.span());
                        let d = match did_you_mean(name, self.players.iter().map(String::as_str)) {
                            Some(s) => d.hint(format!("did you mean `{s}`?")),
                            None => d.hint(format!("the players are {}", self.players.join(", "))),
                        };
                        self.error(d);
                        return None;
                    };
                    if let Some(slot) = each.get_mut(p) {
                        *slot = n;
                    }
                }
            }
        }
        let total = board_total + each.iter().map(|&n| u64::from(n)).sum::<u64>();
        if total > u64::from(MAX_SEEDS) {
            self.error(
                Diagnostic::new(
                    Code::SeedTotal,
                    format!(
                        "the board and what the players hold start with {total} seeds; together they must hold at most {MAX_SEEDS}"
                    ),
                )
                .at(held.span()),
            );
            return None;
        }
        Some(each)
    }

    /// The `[entry]` table: its condition and size read before the move with no hole, its
    /// start hole in the move's direction. A size the mover chooses needs a game of at most
    /// [`MAX_ENTRY_CHOICES`] seeds (`total`, on the board and held), so that the list of legal
    /// moves holds every choice.
    /// Checks `[arrange]`: its conditions read the hole tried (`origin`), except `done`.
    fn arrange(&mut self, a: &ruleset::Arrange) -> Option<ArrangeRule> {
        let name = a.name.as_deref().unwrap_or("arrangement");
        let id = self.clause(name, &a.cites);
        let put = match &a.put {
            Some(e) => self.condition(e, LEGAL, "in the arrangement's `put`", name),
            None if a.place.is_some() => Some(BoolX::Const(false)),
            None => {
                let header = (self.source.find("\n[arrange]")).map(|at| at + 1..at + 10);
                let d = Diagnostic::new(
                    Code::MissingKey,
                    "[arrange] has no `put`, which is required unless the arrangement only puts pieces (`place`)",
                )
                .label("`put` is missing here")
                .hint("add `put = 'CONDITION'`, where a seed the mover holds may be put (`origin` the hole tried), e.g. `put = 'own(origin)'`");
                self.error(d.near(header));
                None
            }
        };
        let pick = match &a.pick {
            Some(e) => self.condition(e, LEGAL, "in the arrangement's `pick`", name),
            None => Some(BoolX::Const(false)),
        };
        let done = match &a.done {
            Some(e) => self.condition(e, AFTER_PLY, "in the arrangement's `done`", name),
            None => Some(BoolX::Const(false)),
        };
        let place = match &a.place {
            Some(e) => self.condition(e, LEGAL, "in the arrangement's `place`", name),
            None => Some(BoolX::Const(false)),
        };
        let at = self.setting(&a.at, "arrange.at");
        let first = self.setting(&a.first, "arrange.first");
        let refill = self.setting(&a.refill, "arrange.refill");
        Some(ArrangeRule {
            id,
            put: put?,
            pick: pick?,
            done: done?,
            at: at?,
            first: first?,
            place: place?,
            refill_after: refill? == ruleset::ArrangeRefill::After,
        })
    }

    /// Checks `[pieces]`, and every key that speaks of pieces, against the rest of the rules:
    /// one kind of piece, whose name moves and positions can write (`s3+stone`), put on the
    /// board by the arrangement, and none of the settings that move part of a hole or send a
    /// seed elsewhere than where it is due (a piece in them would have no defined place).
    fn pieces(&mut self, f: &RulesetFile) -> Option<Option<crate::rules::PiecesRule>> {
        let refuse = |checker: &mut Self,
                      message: String,
                      hint: &str,
                      near: Option<std::ops::Range<usize>>| {
            let d = Diagnostic::new(Code::PiecesUnsupported, message).hint(hint.to_string());
            checker.error(d.near(near));
        };
        let header = self.source.find("\n[pieces").map(|at| at + 1..at + 8);
        let mut kinds = f.pieces.iter();
        let first = kinds.next();
        let place = f.arrange.as_ref().and_then(|a| a.place.as_ref());
        let Some((name, decl)) = first else {
            if let Some(place) = place {
                refuse(
                    self,
                    "the arrangement's `place` puts a piece, but the rules declare no pieces"
                        .into(),
                    "declare the pieces under [pieces.NAME], or remove `place`",
                    Some(place.span()),
                );
                return None;
            }
            for c in &f.capture {
                let to_piece = matches!(
                    c.to,
                    Some(Setting::Fixed(
                        ruleset::Destination::PieceHolder | ruleset::Destination::PieceOwner
                    ))
                );
                if to_piece {
                    refuse(
                        self,
                        format!(
                            "capture clause \"{}\" gives the seeds to a piece's holder or owner, but the rules declare no pieces",
                            c.name
                        ),
                        "declare the pieces under [pieces.NAME], or give the seeds to the `mover`, `opponent` or `owner`",
                        key_near(self.source, c.when.span().start, "to"),
                    );
                    return None;
                }
            }
            return Some(None);
        };
        if let Some((extra, _)) = kinds.next() {
            refuse(
                self,
                format!(
                    "the rules declare two kinds of piece, `{}` and `{}`; one kind is supported",
                    name.get_ref(),
                    extra.get_ref()
                ),
                "declare one kind under [pieces.NAME]: each player holds one piece of it",
                Some(extra.span()),
            );
            return None;
        }
        let word = name.get_ref().as_str();
        let writable = word.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && !matches!(
                word,
                "pass" | "concede" | "swap" | "take" | "leave" | "continue" | "stop" | "choose"
            );
        if !writable {
            refuse(
                self,
                format!(
                    "`{word}` cannot name a piece: moves write it after a hole, as in s3+{word}"
                ),
                "name it with lower-case letters, digits and `_`, starting with a letter (e.g. `stone`)",
                Some(name.span()),
            );
            return None;
        }
        let clash: Option<(&str, &str)> = if f.board.stores == ruleset::Stores::Track {
            Some((
                "stores on the track, which a piece would be sown into",
                "keep captures beside the board (`stores = \"reserve\"`), or remove the pieces",
            ))
        } else if f.sowing.lift.is_some() {
            Some((
                "`[sowing] lift`, which leaves part of a hole",
                "a piece is sown with its whole hole: remove `lift`, or the pieces",
            ))
        } else if f.sowing.gather.is_some() {
            Some((
                "`[sowing] gather`, which lifts other holes with the one played",
                "a piece is sown from its own hole: remove `gather`, or the pieces",
            ))
        } else if f.sowing.relay.as_ref().is_some_and(|r| r.lift.is_some()) {
            Some((
                "`[sowing.relay] lift`, which leaves part of a hole",
                "a piece is sown with its whole hole: remove `lift`, or the pieces",
            ))
        } else if !f.sowing.redirect.is_empty() {
            Some((
                "`[[sowing.redirect]]`, which sends a seed elsewhere than the hole it is due into",
                "remove the redirects, or the pieces",
            ))
        } else if f.capture.iter().any(|c| c.claim) {
            Some((
                "a claimed hole (`claim = true`), whose seeds go to the claimer as they fall",
                "remove `claim`, or the pieces",
            ))
        } else if f.capture.iter().any(|c| c.take_seeds.is_some()) {
            Some((
                "part of a hole taken (`take_seeds`), which would leave a piece no defined side",
                "a piece is taken with its whole hole: remove `take_seeds`, or the pieces",
            ))
        } else if f.capture.iter().any(|c| c.into.is_some()) {
            Some((
                "captured seeds put into a hole (`into`)",
                "a captured piece goes to the capturer's hand: remove `into`, or the pieces",
            ))
        } else if f.capture.iter().any(|c| c.then == ruleset::After::Sow) {
            Some((
                "captured seeds sown again (`then = \"sow\"`)",
                "a captured piece goes to the capturer's hand: remove `then = \"sow\"`, or the pieces",
            ))
        } else if f
            .rounds
            .as_ref()
            .is_some_and(|r| r.give.is_some() || !matches!(r.win_holes, Setting::Fixed(false)))
        {
            Some((
                "a gift or holes won between rounds (`[rounds.give]`, `win_holes`)",
                "remove them, or the pieces",
            ))
        } else if !matches!(
            f.end.neutral_seeds,
            Setting::Fixed(ruleset::NeutralSeeds::Stay)
        ) {
            Some((
                "neutral seeds shared at the end (`neutral_seeds`), which would split a piece",
                "leave the neutral holes' seeds on the board, or remove the pieces",
            ))
        } else if place.is_none() {
            Some((
                "no arrangement that puts a piece on the board",
                "add `place = 'CONDITION'` under [arrange] (e.g. `place = 'own(origin)'`): each player starts holding their piece",
            ))
        } else {
            None
        };
        if let Some((what, hint)) = clash {
            refuse(
                self,
                format!("pieces (`[pieces.{word}]`) cannot go with {what}"),
                hint,
                header,
            );
            return None;
        }
        // The pieces take a variable slot a player, after the variables'.
        let base = (self.vars.values())
            .map(|v| usize::from(v.slot) + usize::from(v.slots))
            .max()
            .unwrap_or(0);
        if base + self.players.len().max(2) > MAX_VARS {
            let d = Diagnostic::new(
                Code::TooManyVars,
                format!("the variables and the pieces take more than the {MAX_VARS} slots a position holds (the pieces one a player)"),
            )
            .at(name.span());
            self.error(d);
            return None;
        }
        let id = self.clause(word, &decl.cites);
        let sown = self.setting(&decl.sown, "pieces.sown");
        let round_end = self.setting(&decl.round_end, "pieces.round_end");
        Some(Some(crate::rules::PiecesRule {
            id,
            name: word.to_string(),
            sown: sown?,
            round_end: round_end?,
            slot: u8::try_from(base).unwrap_or(u8::MAX),
        }))
    }

    /// Refuses clauses tried after a seed put where the rules have no arrangement.
    fn put_clauses_need_arrange(&mut self, f: &RulesetFile) {
        if f.arrange.is_some() {
            return;
        }
        let captures = (f.capture.iter())
            .filter(|c| matches!(c.at, Moment::Put | Moment::Pick))
            .map(|c| ("capture", &c.name, Some(c.when.span().start)));
        let effects = (f.effect.iter())
            .filter(|e| matches!(e.at, Moment::Put | Moment::Pick))
            .map(|e| ("effect", &e.name, e.when.as_ref().map(|w| w.span().start)));
        for (kind, name, at) in captures.chain(effects) {
            let d = Diagnostic::new(
                Code::PutWithoutArrange,
                format!("{kind} \"{name}\" is tried after a seed put or picked up, but the rules have no arrangement before play"),
            )
            .hint("add an [arrange] table, or try the clause at `drop`, `lap_end` or `move_end`");
            let at = at.or_else(|| self.source.find(&format!("name = \"{name}\"")));
            let d = d.near(at.and_then(|at| key_near(self.source, at, "at")));
            self.error(d);
        }
    }

    fn entry(&mut self, e: &ruleset::Entry, total: u64) -> Option<EntryRule> {
        let name = e.name.as_deref().unwrap_or("entry");
        let id = self.clause(name, &e.cites);
        let when = match &e.when {
            Some(w) => self.condition(w, AFTER_PLY, "in the entry's `when`", name),
            None => Some(BoolX::Const(true)),
        };
        let seeds = match &e.seeds {
            Some(n) => self.number_expr(n, AFTER_PLY, "in the entry's `seeds`", name),
            None => Some(IntX::Store(PlayerX::Mover)),
        };
        let start = self.expression(
            &e.start,
            AFTER_PLY,
            "in the entry's `start`",
            name,
            typing::compile_start,
        );
        let choose = self.setting(&e.choose, "entry.choose");
        // Both errors below are the mover's choice of size: they point at `choose` (or at
        // `start`, where `choose` is not written near it).
        let at_choose =
            key_near(self.source, e.start.span().start, "choose").unwrap_or_else(|| e.start.span());
        if choose == Some(true) && start.as_ref().is_some_and(StartAt::is_chosen) {
            let d = Diagnostic::new(
                Code::EntryStartAndSizeChosen,
                "the mover chooses both where the entry starts and how many seeds it enters: an entry chooses one of the two",
            )
            .hint("give the entry a fixed size (`choose = false` and `seeds = '...'`), or a start hole (`start = 'hole(mover, 1)'`)");
            self.error(d.at(at_choose));
            return None;
        }
        if choose == Some(true) && total > u64::from(MAX_ENTRY_CHOICES) {
            let d = Diagnostic::new(
                Code::EntryChoiceTooLarge,
                format!(
                    "the mover chooses how many seeds to enter, but the board holds {total} seeds: at most {MAX_ENTRY_CHOICES} can be chosen among"
                ),
            )
            .hint("give the entry a fixed size (`choose = false` and `seeds = '...'`), or start with fewer seeds");
            self.error(d.at(at_choose));
            return None;
        }
        Some(EntryRule {
            id,
            when: when?,
            seeds: seeds?,
            choose: choose?,
            start: start?,
        })
    }

    /// Parses and compiles a condition written in the file.
    fn condition(&mut self, e: &Expr, facts: u32, place: &str, clause: &str) -> Option<BoolX> {
        let offset = content_offset(self.source, &e.span());
        let node = match expr::parse(e.get_ref()) {
            Ok(n) => n,
            Err(err) => {
                self.error(err.diagnostic(clause).shifted(offset));
                return None;
            }
        };
        self.board_lints(&node, offset);
        let compiled = self.compile_node_bool(&node, facts, place, offset)?;
        if compiled == BoolX::Const(false) && self.never_fires(&node, facts, place) {
            self.diags.push(
                Diagnostic::new(Code::NeverHolds, format!(
                    "the condition of \"{clause}\" is false whatever the options: it can never hold"
                ))
                .at(e.span()),
            );
        }
        Some(compiled)
    }

    /// Whether a condition folds to false under every combination of the options it reads.
    fn never_fires(&self, node: &expr::Node, facts: u32, place: &str) -> bool {
        let names: Vec<(String, Vec<String>)> = {
            let used = RefCell::new(BTreeSet::new());
            let _ = self.with_scope(&self.options, facts, place, &used, |scope| {
                typing::compile_bool(node, scope)
            });
            used.into_inner()
                .into_iter()
                .filter_map(|n| self.options.get(&n).map(|(_, vs)| (n, vs.clone())))
                .collect()
        };
        let combos: usize = names.iter().map(|(_, vs)| vs.len().max(1)).product();
        if combos > 256 {
            return false;
        }
        for k in 0..combos {
            let mut opts = self.options.clone();
            let mut rest = k;
            for (n, vs) in &names {
                if let (Some(o), Some(v)) = (opts.get_mut(n), vs.get(rest % vs.len().max(1))) {
                    o.0 = v.clone();
                }
                rest /= vs.len().max(1);
            }
            let used = RefCell::new(BTreeSet::new());
            let (result, _) = self.with_scope(&opts, facts, place, &used, |scope| {
                typing::compile_bool(node, scope)
            });
            if result != Ok(BoolX::Const(false)) {
                return false;
            }
        }
        true
    }

    /// Runs `f` with the scope an expression is compiled in: the options (`options`, with
    /// their values in force), the facts of its moment and its place. Returns what `f` returns
    /// and the warnings found.
    fn with_scope<T>(
        &self,
        options: &BTreeMap<String, (String, Vec<String>)>,
        facts: u32,
        place: &str,
        used: &RefCell<BTreeSet<String>>,
        f: impl FnOnce(&Scope<'_>) -> T,
    ) -> (T, Vec<Diagnostic>) {
        let scoped: BTreeMap<String, OptionScope<'_>> = options
            .iter()
            .map(|(k, (v, vs))| {
                (
                    k.clone(),
                    OptionScope {
                        value: v,
                        values: vs,
                        declared: self.option_spans.get(k).cloned(),
                    },
                )
            })
            .collect();
        let warnings = RefCell::new(Vec::new());
        let scope = Scope {
            facts,
            place,
            options: &scoped,
            used,
            warnings: &warnings,
            vars: &self.vars,
            sets: &self.sets,
            players: &self.players,
            labels: &self.labels,
        };
        let out = f(&scope);
        (out, warnings.into_inner())
    }

    /// Compiles with [`Checker::with_scope`], keeping the errors and warnings found, moved
    /// from the expression's text into the file.
    fn compiled<T>(
        &mut self,
        facts: u32,
        place: &str,
        offset: usize,
        f: impl FnOnce(&Scope<'_>) -> typing::Checked<T>,
    ) -> Option<T> {
        let (result, warnings) = self.with_scope(&self.options, facts, place, &self.used, f);
        let at = |mut d: Diagnostic| {
            // Only the main place counts from the expression; other labels are in the file.
            d.span = d.span.map(|s| offset + s.start..offset + s.end);
            d
        };
        self.diags.extend(warnings.into_iter().map(at));
        match result {
            Ok(x) => Some(x),
            Err(errors) => {
                self.diags.extend(errors.into_iter().map(at));
                None
            }
        }
    }

    fn compile_node_bool(
        &mut self,
        node: &expr::Node,
        facts: u32,
        place: &str,
        offset: usize,
    ) -> Option<BoolX> {
        self.compiled(facts, place, offset, |scope| {
            typing::compile_bool(node, scope)
        })
    }

    fn hole(&mut self, e: &Expr, facts: u32, place: &str, clause: &str) -> Option<HoleX> {
        self.expression(e, facts, place, clause, typing::compile_hole)
    }

    fn direction(&mut self, e: &Expr, facts: u32, place: &str, clause: &str) -> Option<DirX> {
        self.expression(e, facts, place, clause, typing::compile_direction)
    }

    fn number_expr(&mut self, e: &Expr, facts: u32, place: &str, clause: &str) -> Option<IntX> {
        self.expression(e, facts, place, clause, typing::compile_number)
    }

    /// Parses an expression of the file, lints it against the board, and compiles it with
    /// `compile` (to a hole, a number, ...), every diagnostic placed in the file.
    fn expression<T>(
        &mut self,
        e: &Expr,
        facts: u32,
        place: &str,
        clause: &str,
        compile: impl FnOnce(&expr::Node, &Scope<'_>) -> typing::Checked<T>,
    ) -> Option<T> {
        let offset = content_offset(self.source, &e.span());
        let node = match expr::parse(e.get_ref()) {
            Ok(n) => n,
            Err(err) => {
                self.error(err.diagnostic(clause).shifted(offset));
                return None;
            }
        };
        self.board_lints(&node, offset);
        self.compiled(facts, place, offset, |scope| compile(&node, scope))
    }

    /// The rules' variables: checked names, and a slot each (one a player for those each
    /// player has).
    fn vars(&mut self, f: &RulesetFile) {
        let mut slot = 0usize;
        for (name, decl) in &f.vars {
            let n = name.get_ref();
            let well_formed = n.starts_with(|c: char| c.is_ascii_lowercase())
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if !well_formed || typing::is_builtin(n) || n == "true" || n == "false" {
                self.error(
                    Diagnostic::new(
                        Code::VarName,
                        format!("`{n}` cannot name a variable: it is not a lowercase word, or the language already has it"),
                    )
                    .at(name.span())
                    .hint("choose another name: lowercase letters, digits and `_`"),
                );
                continue;
            }
            // A set of holes is a mask of every position: HOLES_WIDTH slots.
            let width = if decl.kind == ruleset::VarKind::Holes {
                HOLES_WIDTH
            } else {
                1
            };
            let slots = width
                * if decl.per_player {
                    self.players.len().max(2)
                } else {
                    1
                };
            if slot + slots > MAX_VARS {
                self.error(
                    Diagnostic::new(
                        Code::TooManyVars,
                        format!(
                            "the variables take more than the {MAX_VARS} slots a position holds"
                        ),
                    )
                    .at(name.span()),
                );
                return;
            }
            let initial = match decl.kind {
                ruleset::VarKind::Direction | ruleset::VarKind::Holes => 0,
                ruleset::VarKind::Flag => i32::from(decl.initial != 0),
                ruleset::VarKind::Number => i32::try_from(decl.initial)
                    .unwrap_or(if decl.initial < 0 { i32::MIN } else { i32::MAX }),
            };
            self.vars.insert(
                n.clone(),
                VarInfo {
                    name: n.clone(),
                    kind: decl.kind,
                    scope: decl.scope,
                    per_player: decl.per_player,
                    slot: u8::try_from(slot).unwrap_or(u8::MAX),
                    width: width as u8,
                    slots: slots as u8,
                    initial,
                    about: decl.about.clone(),
                },
            );
            slot += slots;
        }
    }

    /// A redirect clause: its condition, and where the seed goes (out of play, into a hole, or
    /// to a player).
    fn redirect(&mut self, r: &ruleset::Redirect) -> Option<RedirectRule> {
        let id = self.clause(&r.name, &r.cites);
        let when = self.condition(&r.when, SKIP, "in a redirect clause", &r.name);
        let to = match (&r.to, &r.hole, &r.player) {
            (Some(_), None, None) => RedirectDest::Removed,
            (None, Some(h), None) => {
                RedirectDest::Hole(self.hole(h, SKIP, "in a redirect clause", &r.name)?)
            }
            (None, None, Some(p)) => RedirectDest::Player(self.expression(
                p,
                SKIP,
                "in a redirect clause",
                &r.name,
                typing::compile_player,
            )?),
            (to, hole, player) => {
                let d = Diagnostic::new(
                    Code::RedirectTarget,
                    format!(
                        "redirect \"{}\" must say where the seed goes: `to = \"removed\"`, `hole = '...'` or `player = '...'`, one of them",
                        r.name
                    ),
                )
                .hint("`to = \"removed\"` puts the seed out of play; `hole = 'hole(opponent, 1)'` into another hole; `player = 'south'` to what South holds");
                // At the first place the file gives, or at the condition when it gives none.
                let first = [
                    to.as_ref().map(|t| t.span()),
                    hole.as_ref().map(|h| h.span()),
                    player.as_ref().map(|p| p.span()),
                ]
                .into_iter()
                .flatten()
                .min_by_key(|span| span.start);
                let d = d.at(first.unwrap_or_else(|| r.when.span()));
                self.error(d);
                return None;
            }
        };
        Some(RedirectRule {
            id,
            when: when?,
            to,
        })
    }

    /// An effect clause: its condition and the values it sets.
    fn effect(&mut self, e: &ruleset::Effect) -> Option<EffectRule> {
        let id = self.clause(&e.name, &e.cites);
        let facts = match e.at {
            Moment::Drop => DROP,
            Moment::LapEnd => LAP_END,
            Moment::MoveEnd => MOVE_END,
            Moment::Put | Moment::Pick => PUT,
            Moment::RoundEnd => ROUND_END,
            Moment::RoundStart => ROUND_START,
            // Refused by the caller.
            Moment::PlayEnd => PLAY_END,
        };
        let when = match &e.when {
            Some(w) => self.condition(w, facts, "in an effect", &e.name),
            None => Some(BoolX::Const(true)),
        };
        let mut sets = Vec::new();
        let mut ok = true;
        for (name, value) in &e.set {
            let Some(var) = self.vars.get(name.get_ref()).cloned() else {
                let d = Diagnostic::new(
                    Code::EffectSet,
                    format!(
                        "effect \"{}\" sets `{}`, which is not a declared variable",
                        e.name,
                        name.get_ref()
                    ),
                )
                .at(name.span());
                let d = match did_you_mean(name.get_ref(), self.vars.keys().map(String::as_str)) {
                    Some(s) => d.hint(format!("did you mean `{s}`?")),
                    None => d.hint(format!("declare it under [vars.{}]", name.get_ref())),
                };
                self.error(d);
                ok = false;
                continue;
            };
            if var.kind == ruleset::VarKind::Holes {
                self.error(
                    Diagnostic::new(
                        Code::EffectSet,
                        format!(
                            "effect \"{}\" sets `{}`, a set of holes: holes are put into it and taken out",
                            e.name,
                            name.get_ref()
                        ),
                    )
                    .at(name.span())
                    .hint(format!("write `mark = {{ {} = 'last' }}` or `unmark = {{ ... }}`", name.get_ref())),
                );
                ok = false;
                continue;
            }
            match self.expression(value, facts, "in an effect", &e.name, |node, scope| {
                typing::compile_value(node, scope, var.kind)
            }) {
                Some(v) => sets.push((var.slot, var.per_player, v)),
                None => ok = false,
            }
        }
        for (add, key, table) in [(true, "mark", &e.mark), (false, "unmark", &e.unmark)] {
            for (name, value) in table {
                let var = self.vars.get(name.get_ref()).cloned();
                let Some(var) = var.filter(|v| v.kind == ruleset::VarKind::Holes) else {
                    let d = Diagnostic::new(
                        Code::EffectSet,
                        format!(
                            "effect \"{}\" {key}s `{}`, which is not a declared set of holes",
                            e.name,
                            name.get_ref()
                        ),
                    )
                    .at(name.span());
                    let sets = self
                        .vars
                        .values()
                        .filter(|v| v.kind == ruleset::VarKind::Holes);
                    let declared = self.vars.contains_key(name.get_ref());
                    let d = match did_you_mean(name.get_ref(), sets.map(|v| v.name.as_str())) {
                        Some(s) => d.hint(format!("did you mean `{s}`?")),
                        None if declared => d.hint(format!(
                            "`{0}` holds a value, not holes: give it with `set = {{ {0} = '...' }}`, or declare it with `kind = \"holes\"`",
                            name.get_ref()
                        )),
                        None => d.hint(format!(
                            "declare it under [vars.{}] with `kind = \"holes\"`",
                            name.get_ref()
                        )),
                    };
                    self.error(d);
                    ok = false;
                    continue;
                };
                match self.hole(value, facts, "in an effect", &e.name) {
                    Some(h) => sets.push((var.slot, var.per_player, VarValue::Mark(h, add))),
                    None => ok = false,
                }
            }
        }
        if ok && sets.is_empty() {
            let d = Diagnostic::new(
                Code::EffectSet,
                format!("effect \"{}\" changes nothing", e.name),
            )
            .hint("give `set = { NAME = '...' }`, `mark` or `unmark`");
            let d = match self.source.find(&format!("name = \"{}\"", e.name)) {
                Some(at) => d.at(at..at + e.name.len() + 9),
                None => d,
            };
            self.error(d);
            ok = false;
        }
        let player = match &e.player {
            None => Some(None),
            Some(p) => {
                let whose = self.expression(
                    p,
                    facts,
                    "in an effect's `player`",
                    &e.name,
                    typing::compile_player,
                );
                if ok && whose.is_some() && !sets.iter().any(|(_, per_player, _)| *per_player) {
                    self.error(
                        Diagnostic::new(
                            Code::EffectSet,
                            format!(
                                "effect \"{}\" names whose variables it changes, but none of them is each player's own",
                                e.name
                            ),
                        )
                        .at(p.span())
                        .hint("`player` chooses among the variables declared `per_player = true`; remove it, or declare the variable so"),
                    );
                    ok = false;
                }
                whose.map(Some)
            }
        };
        let when = when?;
        let player = player?;
        ok.then_some(EffectRule {
            id,
            when,
            player,
            sets,
        })
    }

    fn capture(&mut self, c: &Capture) -> Option<CaptureRule> {
        let id = self.clause(&c.name, &c.cites);
        let facts = match c.at {
            Moment::Drop => DROP,
            Moment::LapEnd => LAP_END,
            Moment::MoveEnd => MOVE_END,
            Moment::Put | Moment::Pick => PUT,
            Moment::PlayEnd => PLAY_END,
            Moment::RoundEnd | Moment::RoundStart => {
                let (code, moment, key) = if c.at == Moment::RoundEnd {
                    (Code::RoundEndMisplaced, "the round's end", "round_end")
                } else {
                    (Code::RoundStartMisplaced, "a round's start", "round_start")
                };
                let d = Diagnostic::new(
                    code,
                    format!(
                        "capture \"{}\" is tried at {moment}: captures are made during a move",
                        c.name
                    ),
                )
                .hint(format!(
                    "try it at `drop`, `lap_end` or `move_end`; `{key}` is for effects"
                ));
                let d = d.near(key_near(self.source, c.when.span().start, "at"));
                self.error(d);
                return None;
            }
        };
        let place = "in a capture clause";
        let when = self.condition(&c.when, facts, place, &c.name);
        // The hole the mover chose is known once the condition has held.
        let choose = (c.choose.as_ref())
            .map(|e| self.expression(e, facts, place, &c.name, typing::compile_set));
        let facts = if c.choose.is_some() {
            facts | facts::CHOSEN
        } else {
            facts
        };
        let take: Vec<Option<HoleX>> = c
            .take
            .iter()
            .map(|t| self.hole(t, facts, place, &c.name))
            .collect();
        let take_set = (c.take_set.as_ref())
            .map(|e| self.expression(e, facts, place, &c.name, typing::compile_set));
        let take_seeds = (c.take_seeds.as_ref())
            .map(|e| self.number_expr(e, facts | facts::BOUND, place, &c.name));
        if c.take.is_empty() && c.take_set.is_none() {
            let d = Diagnostic::new(
                Code::CaptureTakesNothing,
                format!(
                    "capture clause \"{}\" takes no hole: `take` is empty",
                    c.name
                ),
            )
            .hint("list the holes taken, e.g. `take = ['opposite(last)']`, or give a set: `take_set = 'filter(...)'`");
            let d = d.near(key_near(self.source, c.when.span().start, "take"));
            self.error(d);
        }
        let chain = c.chain.as_ref().map(|ch| {
            let w = self.condition(&ch.while_, facts | facts::BOUND, "in a chain", &c.name);
            let s = self.hole(&ch.step, facts | facts::BOUND, "in a chain", &c.name);
            let also: Vec<Option<HoleX>> = (ch.also.iter())
                .map(|a| self.hole(a, facts | facts::BOUND, "in a chain", &c.name))
                .collect();
            (w, s, also)
        });
        let cancel_if = c
            .cancel_if
            .as_ref()
            .map(|e| self.condition(e, facts, place, &c.name));
        let to = self.capture_taker(c);
        // Read for each hole taken, before it is lifted: `hole` names it.
        let player = (c.player.as_ref()).map(|p| {
            self.expression(
                p,
                facts | facts::BOUND,
                "in a capture's `player`",
                &c.name,
                typing::compile_player,
            )
        });
        let optional = self.setting(&c.optional, "capture.optional");
        if matches!(c.at, Moment::Drop | Moment::Put | Moment::Pick) && c.choose.is_some() {
            let d = Diagnostic::new(
                Code::ChoiceNotAtStop,
                format!(
                    "capture clause \"{}\" lets the mover choose a hole but is tried {}: a move can stop for the mover's choice only at a lap's end or its end",
                    c.name,
                    if c.at == Moment::Drop { "at each seed's drop" } else { "after a seed put or picked up in the arrangement" }
                ),
            )
            .hint("try it at `lap_end` (the last seed of each lap) or `move_end`");
            let d = d.near(key_near(self.source, c.when.span().start, "choose"));
            self.error(d);
        }
        if matches!(c.at, Moment::Drop | Moment::Put | Moment::Pick)
            && !matches!(c.optional, Setting::Fixed(false))
        {
            let when = if c.at == Moment::Drop {
                "at each seed's drop"
            } else {
                "after a seed put or picked up in the arrangement"
            };
            let d = Diagnostic::new(
                Code::OptionalDropCapture,
                format!(
                    "capture clause \"{}\" is optional but tried {when}: a move can stop for the mover's decision only at a lap's end or its end",
                    c.name
                ),
            )
            .hint("try it at `lap_end` (the last seed of each lap) or `move_end`, or make it compulsory");
            let d = d.near(key_near(self.source, c.when.span().start, "optional"));
            self.error(d);
        }
        let to_piece = matches!(
            to,
            Some(ruleset::Destination::PieceHolder | ruleset::Destination::PieceOwner)
        );
        if (c.keep.is_some() || to_piece) && c.at != Moment::Drop {
            let what = if c.keep.is_some() {
                "`keep = \"dropped\"` leaves what was just dropped"
            } else {
                "`to` names the holder or owner of the piece just dropped"
            };
            let d = Diagnostic::new(
                Code::KeepNotAtDrop,
                format!("capture clause \"{}\": {what}, which only a drop capture (`at = \"drop\"`) has", c.name),
            )
            .hint("try the clause at `drop`, or give the seeds to the `mover`, `opponent` or `owner` and take the whole hole");
            let key = if c.keep.is_some() { "keep" } else { "to" };
            let d = d.near(key_near(self.source, c.when.span().start, key));
            self.error(d);
        }
        if c.then != ruleset::After::Continue && c.at != Moment::LapEnd {
            let d = Diagnostic::new(
                Code::ThenNotAtLapEnd,
                format!(
                    "capture clause \"{}\": `then` applies only to `at = \"lap_end\"` clauses",
                    c.name
                ),
            );
            let d = d.near(key_near(self.source, c.when.span().start, "then"));
            self.error(d);
        }
        if self.players.len() > 2 && to == Some(ruleset::Destination::Opponent) {
            let d = Diagnostic::new(
                Code::SeatsUnsupported,
                format!(
                    "capture `{}`: `to = \"opponent\"` names the other player of a two-player game; this one has {} players",
                    c.name,
                    self.players.len()
                ),
            )
            .hint("give the seeds to the `mover` or the hole's `owner`");
            let d = d.near(key_near(self.source, c.when.span().start, "to"));
            self.error(d);
        }
        if c.then == ruleset::After::Sow && to == Some(ruleset::Destination::Removed) {
            let d = Diagnostic::new(Code::RemovedThenSow, format!(
                "capture clause \"{}\": seeds cannot both leave the game (`to = \"removed\"`) and be sown again (`then = \"sow\"`)",
                c.name
            ))
            .hint("captured seeds that are sown again stay in play: name who takes them with `to = \"mover\"` (or `owner`, `opponent`), or remove `then = \"sow\"`");
            let d = d.near(key_near(self.source, c.when.span().start, "to"));
            self.error(d);
        }
        if c.then != ruleset::After::Sow
            && (c.sow_after.is_some() || c.lift_also.is_some() || c.sow_direction.is_some())
        {
            let d = Diagnostic::new(
                Code::ResowWithoutSow,
                format!(
                    "capture clause \"{}\": `sow_after`, `sow_direction` and `lift_also` need `then = \"sow\"`",
                    c.name
                ),
            );
            // At the first of those keys the clause has.
            let key = [
                ("sow_after", c.sow_after.is_some()),
                ("sow_direction", c.sow_direction.is_some()),
                ("lift_also", c.lift_also.is_some()),
            ]
            .into_iter()
            .find_map(|(k, given)| given.then_some(k))
            .unwrap_or("then");
            let d = d
                .near(key_near(self.source, c.when.span().start, key))
                .hint("add `then = \"sow\"` to sow the captured seeds again, or remove the key");
            self.error(d);
        }
        let sow_after = match &c.sow_after {
            Some(e) => Some(self.hole(e, facts, place, &c.name)?),
            None => None,
        };
        let lift_also = match &c.lift_also {
            Some(e) => Some(self.number_expr(e, facts, place, &c.name)?),
            None => None,
        };
        let sow_direction = match &c.sow_direction {
            Some(e) => Some(self.direction(e, facts, place, &c.name)?),
            None => None,
        };
        let into = match &c.into {
            Some(e) => Some(self.hole(e, facts, place, &c.name)?),
            None => None,
        };
        self.capture_into_fits(c, to);
        self.play_end_fits(c, to, optional);
        let take: Option<Vec<HoleX>> = take.into_iter().collect();
        let chain = match chain {
            Some((Some(while_), Some(step), also)) => Some(ChainRule {
                while_,
                step,
                also: also.into_iter().collect::<Option<_>>()?,
            }),
            Some(_) => return None,
            None => None,
        };
        Some(CaptureRule {
            id,
            when: when?,
            take: take?,
            take_set: given(take_set)?,
            to: to?,
            player: given(player)?,
            into,
            chain,
            cancel_if: given(cancel_if)?,
            then: c.then,
            claim: c.claim,
            sow_after,
            lift_also,
            sow_direction,
            choose: given(choose)?,
            take_seeds: given(take_seeds)?,
            optional: optional?,
            keep_dropped: c.keep == Some(ruleset::Keep::Dropped),
        })
    }

    /// Who a capture gives its seeds to: `to`, or `player` (a player expression, compiled by
    /// the caller; the mover stands for it in the checks that read `to`). Exactly one is given.
    fn capture_taker(&mut self, c: &Capture) -> Option<ruleset::Destination> {
        match (&c.to, &c.player) {
            (Some(to), None) => self.setting(to, "to"),
            (None, Some(_)) => Some(ruleset::Destination::Mover),
            (_, player) => {
                let d = Diagnostic::new(
                    Code::CaptureTaker,
                    format!(
                        "capture clause \"{}\" must say who receives the seeds: `to = \"...\"` or `player = '...'`, one of them",
                        c.name
                    ),
                )
                .hint("`to = \"mover\"` (or `opponent`, `owner`, `removed`) names a fixed taker; `player = 'owner(hole)'` a player expression read for each hole taken");
                let d = match player {
                    Some(p) => d.at(p.span()),
                    None => d.near(key_near(self.source, c.when.span().start, "take")),
                };
                self.error(d);
                None
            }
        }
    }

    /// Refuses what captured seeds put into a hole (`into`) cannot go with.
    fn capture_into_fits(&mut self, c: &Capture, to: Option<ruleset::Destination>) {
        if c.into.is_none() {
            return;
        }
        // (key, whether it is written so, why it cannot be), as `play_end_fits`
        let clash = [
            (
                "to",
                to == Some(ruleset::Destination::Removed),
                "they cannot also leave the game (`to = \"removed\"`)",
            ),
            (
                "then",
                c.then == ruleset::After::Sow,
                "they cannot also be sown again (`then = \"sow\"`)",
            ),
            (
                "claim",
                c.claim,
                "a claim sends the seeds later sown into its hole to the claimer",
            ),
        ]
        .into_iter()
        .find(|(_, given, _)| *given);
        if let Some((key, _, why)) = clash {
            let d = Diagnostic::new(
                Code::IntoUnsupported,
                format!(
                    "capture clause \"{}\" puts the seeds it takes into a hole (`into`): {why}",
                    c.name
                ),
            )
            .hint("remove `into` to bank the seeds, or remove the other key");
            let d = d.near(key_near(self.source, c.when.span().start, key));
            self.error(d);
        }
    }

    /// Refuses what a capture at play's end (`at = "play_end"`) cannot have: play is over.
    fn play_end_fits(
        &mut self,
        c: &Capture,
        to: Option<ruleset::Destination>,
        optional: Option<bool>,
    ) {
        if c.at != Moment::PlayEnd {
            return;
        }
        // (key, what is written, whether it is, why it cannot be)
        let clash = [
            (
                "choose",
                "choose",
                c.choose.is_some(),
                "nobody can choose a hole",
            ),
            (
                "optional",
                "optional = true",
                optional == Some(true),
                "nobody can decline it",
            ),
            (
                "claim",
                "claim = true",
                c.claim,
                "no seed is sown into a claim any more",
            ),
            (
                "to",
                "to = \"removed\"",
                to == Some(ruleset::Destination::Removed),
                "seeds that leave the game at its end are the ending's `remaining = \"removed\"`",
            ),
        ]
        .into_iter()
        .find(|(_, _, given, _)| *given);
        if let Some((key, written, _, why)) = clash {
            let d = Diagnostic::new(
                Code::PlayEndMisplaced,
                format!("capture clause \"{}\" is tried once play has ended: `{written}` cannot be there, as {why}", c.name),
            )
            .hint("remove the key, or try the clause at `move_end`");
            let d = d.near(key_near(self.source, c.when.span().start, key));
            self.error(d);
        }
    }

    #[allow(clippy::type_complexity)]
    fn end(
        &mut self,
        e: &End,
    ) -> Option<(
        EndingRule,
        EndingRule,
        Option<EndingRule>,
        Vec<(BoolX, EndingRule)>,
    )> {
        let default = Ending {
            remaining: Setting::Fixed(ruleset::Remaining::Owners),
            result: Setting::Fixed(Verdict::MostSeeds),
            enabled: Setting::Fixed(true),
            cites: None,
        };
        let no_move = self.ending("no move", &e.no_move);
        let endless = self.ending("endless move", e.endless_move.as_ref().unwrap_or(&default));
        // No cycle rule unless the ruleset gives one: a repeated position does not end play,
        // as the players may choose other moves.
        let cycle = self.optional_ending("cycle", e.cycle.as_ref())?;
        for (name, ending) in [
            ("no_move", Some(&e.no_move)),
            ("endless_move", e.endless_move.as_ref()),
        ] {
            if let Some(ending) = ending
                && self.setting(&ending.enabled, "enabled") == Some(false)
            {
                self.error(
                    Diagnostic::new(Code::EndingRequired, format!(
                        "`{name}` cannot be left out: play must end somehow when it happens"
                    ))
                    .hint("remove `enabled`, or give the outcome you want with `remaining` and `result`"),
                );
            }
        }
        let mut when = Vec::new();
        for w in &e.when {
            let ending = Ending {
                remaining: w.remaining.clone(),
                result: w.result.clone(),
                enabled: Setting::Fixed(true),
                cites: w.cites.clone(),
            };
            let rule = self.ending(&w.name, &ending);
            let cond = self.condition(&w.when, AFTER_PLY, "in an ending condition", &w.name);
            if let (Some(c), Some(r)) = (cond, rule) {
                when.push((c, r));
            }
        }
        Some((no_move?, endless?, cycle, when))
    }

    /// An ending the rules may leave out (`cycle`, `no_capture`): absent, or `enabled` off
    /// under the options in force, it is none. The outer None is an error already reported.
    /// `[turns] swap`, the pie rule: the board turned round, where the rules offer it and
    /// the board allows it (E0128 for more than two players, E0146 for the rest).
    fn swap(
        &mut self,
        f: &RulesetFile,
        g: &Geometry,
        rounds: Option<&RoundsRule>,
        on: bool,
    ) -> Option<Option<[Pos; MAX_POSITIONS]>> {
        if !on {
            return Some(None);
        }
        let header = self.source.find("[turns]").map_or(0, |at| at + 1);
        let place = key_near(self.source, header, "swap");
        let seats = self.players.len();
        if seats != 2 {
            let d = Diagnostic::new(
                Code::SeatsUnsupported,
                format!("the pie rule (`swap`) exchanges two players' sides; this game has {seats} players"),
            )
            .hint("remove `swap`, or play the game with two players");
            self.error(d.near(place));
            return None;
        }
        // The rounds' settings as the options in force make them.
        let clash = if !f.pieces.is_empty() {
            Some((
                "pieces (`[pieces]`), whose places and holders a turned board would not carry",
                "remove `swap`, or the pieces",
            ))
        } else if rounds.is_some_and(|r| r.win_holes) {
            Some((
                "holes won between rounds (`win_holes`), whose owners are the players' and not the sides'",
                "remove `swap`, or `win_holes`",
            ))
        } else if rounds.is_some_and(|r| r.rotate_owners > 0) {
            Some((
                "owners moving on between rounds (`rotate_owners`)",
                "remove `swap`, or `rotate_owners`",
            ))
        } else if g.neutral_mask() != 0 {
            Some((
                "neutral holes, which a turned board would carry onto other holes",
                "remove `swap`, or give the neutral holes to players",
            ))
        } else {
            None
        };
        if let Some((what, hint)) = clash {
            let d = Diagnostic::new(
                Code::SwapUnsupported,
                format!("the pie rule (`swap`) cannot go with {what}"),
            )
            .hint(hint);
            self.error(d.near(place));
            return None;
        }
        let Some(turned) = g.turned_round() else {
            let d = Diagnostic::new(
                Code::SwapUnsupported,
                "the pie rule (`swap`) turns the board round, but this board does not look the same from both sides: no half turn carries each player's holes onto the other's, store onto store, with the circuits and the facing holes",
            )
            .hint("give both players holes of the same shape (`[board.owners]`), or remove `swap`");
            self.error(d.near(place));
            return None;
        };
        Some(Some(turned))
    }

    /// `[race]`: its starting hole, read before the race with each player as `mover`, and its
    /// settings; refused beside what a sowing made one seed at a time beside another cannot
    /// carry (E0147).
    fn race(
        &mut self,
        f: &RulesetFile,
        r: &ruleset::Race,
        settings: Option<RaceSettings>,
        clashes: RaceClashes,
    ) -> Option<Option<RaceRule>> {
        let RaceSettings {
            from,
            enabled,
            ends,
            unfinished,
            next,
        } = settings?;
        if !enabled? {
            return Some(None);
        }
        let name = r.name.as_deref().unwrap_or("race");
        let id = self.clause(name, &r.cites);
        let lasting = self
            .vars
            .values()
            .find(|v| matches!(v.scope, ruleset::VarScope::Move | ruleset::VarScope::Lap));
        // What cannot go with a race, as the options in force make the rules: the first found.
        let clash = if clashes.swap {
            Some((
                "the pie rule (`swap`), which waits for the round's first ply of one player",
                "remove `swap`, or the race",
            ))
        } else if f.entry.is_some() {
            Some((
                "an entry (`[entry]`): a race sows holes, never seeds held",
                "remove `[entry]`, or the race",
            ))
        } else if !f.pieces.is_empty() {
            Some((
                "pieces (`[pieces]`), whose drops a sowing made one seed a tick does not follow",
                "remove the pieces, or the race",
            ))
        } else if clashes.choose_direction {
            Some((
                "a direction the mover chooses (`direction = \"choose\"`): nobody chooses in a race",
                "give the sowing one direction, or remove the race",
            ))
        } else if !f.sowing.skip.is_empty() || !f.sowing.redirect.is_empty() {
            Some((
                "skip or redirect clauses (`[[sowing.skip]]`, `[[sowing.redirect]]`), which a sowing made one seed a tick does not read",
                "remove them, or the race",
            ))
        } else if f.sowing.lift.is_some() || f.sowing.gather.is_some() {
            Some((
                "a first lift that takes part of a hole or gathers others (`lift`, `gather`)",
                "remove `lift` and `gather`, or the race",
            ))
        } else if clashes.asks {
            Some((
                "a clause that asks the mover (an optional or chosen capture, an optional relay, a relay that lifts part of a hole): nobody can be asked in the middle of a race",
                "make the clause's choice fixed, or remove the race",
            ))
        } else if clashes.claims {
            Some((
                "holes claimed during a move (`claim`)",
                "remove the claim, or the race",
            ))
        } else if lasting.is_some() {
            Some((
                "variables that last a move or a lap (`scope = \"move\"` or `\"lap\"`), which the sowings of a race would share",
                "give the variable one value a player with a longer scope, or remove the race",
            ))
        } else {
            None
        };
        if let Some((what, hint)) = clash {
            // The table's header, at a line's start (the file's first line included).
            let header = if self.source.starts_with("[race]") {
                Some(0..6)
            } else {
                (self.source.find("\n[race]")).map(|at| at + 1..at + 7)
            };
            let d = Diagnostic::new(
                Code::RaceUnsupported,
                format!("a race cannot go with {what}"),
            )
            .hint(hint);
            self.error(d.near(header));
            return None;
        }
        Some(Some(RaceRule {
            id,
            from: from?,
            ends: ends?,
            unfinished: unfinished?,
            next: next?,
        }))
    }

    fn optional_ending(&mut self, name: &str, e: Option<&Ending>) -> Option<Option<EndingRule>> {
        let Some(e) = e else {
            return Some(None);
        };
        let key = format!("{}.enabled", name.replace(' ', "_"));
        match self.setting(&e.enabled, &key)? {
            true => Some(Some(self.ending(name, e)?)),
            false => Some(None),
        }
    }

    fn ending(&mut self, name: &str, e: &Ending) -> Option<EndingRule> {
        let id = self.clause(name, &e.cites);
        let remaining = self.setting(&e.remaining, "remaining");
        let result = self.setting(&e.result, "result");
        if self.players.len() > 2 {
            let seats = self.players.len();
            let two = |what: &str| {
                Diagnostic::new(
                    Code::SeatsUnsupported,
                    format!(
                        "ending `{name}`: {what} names the one other player of a two-player game; this one has {seats} players",
                    ),
                )
            };
            // The ending's own line: `no_move = { ... }` in [end], or the key in its clause.
            let key = name.replace(' ', "_");
            let at = |checker: &Checker<'_>, d: Diagnostic, field: &str| {
                let line = checker.source.find("\n[end]").and_then(|end| {
                    key_near(checker.source, end + 1, &key)
                        .or_else(|| key_near(checker.source, end + 1, field))
                });
                let clause = checker
                    .source
                    .find(&format!("name = \"{name}\""))
                    .and_then(|at| key_near(checker.source, at, field));
                d.near(clause.or(line))
            };
            if remaining == Some(ruleset::Remaining::Opponent) {
                let d = two("`remaining = \"opponent\"`")
                    .hint("give the seeds to `owners` or to the `mover`");
                let d = at(self, d, "remaining");
                self.error(d);
            }
            if result == Some(ruleset::Verdict::MoverLoses) {
                let d = two("`result = \"mover_loses\"`").hint("use `most_seeds`");
                let d = at(self, d, "result");
                self.error(d);
            }
        }
        Some(EndingRule {
            id,
            remaining: remaining?,
            result: result?,
        })
    }
}

/// The span of `key` (as in `key = ...`) in the TOML table that contains byte `anchor`: for
/// problems with a clause as a whole, whose keys serde does not keep places for.
fn key_near(source: &str, anchor: usize, key: &str) -> Option<std::ops::Range<usize>> {
    let anchor = anchor.min(source.len());
    let is_header = |line: &str| line.trim_start().starts_with('[');
    // Lines with their start offsets.
    let mut lines = Vec::new();
    let mut at = 0;
    for line in source.split_inclusive('\n') {
        lines.push((at, line));
        at += line.len();
    }
    let here = lines
        .iter()
        .rposition(|(start, _)| *start <= anchor)
        .unwrap_or(0);
    let first = lines
        .get(..=here)?
        .iter()
        .rposition(|(_, l)| is_header(l))
        .unwrap_or(0);
    let last = lines
        .get(here + 1..)?
        .iter()
        .position(|(_, l)| is_header(l))
        .map_or(lines.len(), |i| here + 1 + i);
    lines.get(first..last)?.iter().find_map(|(start, line)| {
        let lead = line.len() - line.trim_start().len();
        let rest = line.trim_start().strip_prefix(key)?;
        rest.trim_start()
            .starts_with('=')
            .then(|| start + lead..start + lead + key.len())
    })
}

impl Checker<'_> {
    /// Refuses what the board makes impossible, where an expression says it in constants:
    /// `hole(p, k)` with no hole k, `number(h)` compared with a number no hole has, and warns
    /// of `is_store` on a board without stores on the track.
    fn board_lints(&mut self, node: &expr::Node, offset: usize) {
        use expr::{BinaryOp, NodeKind, UnaryOp};
        let Some(per) = self.holes_per_player else {
            return;
        };
        let constant = |n: &expr::Node| -> Option<i64> {
            match &n.kind {
                NodeKind::Number(k) => Some(*k),
                NodeKind::Unary(UnaryOp::Neg, x) => match &x.kind {
                    NodeKind::Number(k) => Some(k.saturating_neg()),
                    _ => None,
                },
                _ => None,
            }
        };
        let is_number_call =
            |n: &expr::Node| matches!(&n.kind, NodeKind::Call(f, _, _) if f == "number");
        let at = |n: &expr::Node| offset + n.span.start..offset + n.span.end;
        // An explicit stack: the parser bounds the depth, but this walk need not rely on it.
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            match &n.kind {
                NodeKind::Call(f, name_span, args) => {
                    if f == "hole"
                        && let Some(k) = args.get(1).and_then(constant)
                        && !(1..=per).contains(&k)
                        && let Some(arg) = args.get(1)
                    {
                        self.error(
                            Diagnostic::new(Code::ExprNoSuchHole, format!(
                                "there is no hole {k}: each player has holes 1 to {per} on this board"
                            ))
                            .at(at(arg)),
                        );
                    }
                    if f == "is_store" && !self.track_stores {
                        self.diags.push(
                            Diagnostic::new(Code::StoreTestWithoutStores,
                                "`is_store` is always false here: this board has no stores on the track",
                            )
                            .at(offset + name_span.start..offset + name_span.end)
                            .hint("captured seeds go to reserves beside the board; `store(p)` counts them"),
                        );
                    }
                    stack.extend(args.iter());
                }
                NodeKind::Binary(op, a, b) => {
                    // Only equality: `number(h) < 9` is merely always true on a short row.
                    let comparison = matches!(op, BinaryOp::Eq | BinaryOp::Ne);
                    for (call, value) in [(a, b), (b, a)] {
                        if comparison
                            && is_number_call(call)
                            && let Some(k) = constant(value)
                            && !(0..=per).contains(&k)
                        {
                            self.error(
                                Diagnostic::new(Code::ExprNoHoleNumbered, format!(
                                    "no hole is numbered {k}: each player has holes 1 to {per} on this board"
                                ))
                                .at(at(value)),
                            );
                        }
                    }
                    stack.push(a);
                    stack.push(b);
                }
                NodeKind::In(x, items) => {
                    if is_number_call(x) {
                        for item in items {
                            if let Some(k) = constant(item)
                                && !(0..=per).contains(&k)
                            {
                                self.error(
                                    Diagnostic::new(Code::ExprNoHoleNumbered, format!(
                                        "no hole is numbered {k}: each player has holes 1 to {per} on this board"
                                    ))
                                    .at(at(item)),
                                );
                            }
                        }
                    }
                    stack.push(x);
                    stack.extend(items.iter());
                }
                NodeKind::InSet(x, set) => {
                    stack.push(x);
                    stack.push(set);
                }
                NodeKind::Unary(_, x) => stack.push(x),
                NodeKind::Number(_) | NodeKind::Text(_) | NodeKind::Bool(_) | NodeKind::Name(_) => {
                }
            }
        }
    }
}

/// An optional key's compiled value: `Some(None)` where the key is absent, `None` where it was
/// given and did not compile (its errors already reported).
fn given<T>(compiled: Option<Option<T>>) -> Option<Option<T>> {
    compiled.map_or(Some(None), |v| v.map(Some))
}

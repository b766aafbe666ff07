//! A replay as one self-contained HTML page: the board ([`super::svg`]), a player in plain
//! inline script and style, and the game as JSON, with nothing fetched from anywhere.
//!
//! [`Replay`] is fed the engine's events ply by ply and works out, for every event, what it
//! changed on the board: a lift empties a hole, a drop sets its count, a capture moves seeds
//! to a store, a reserve, a hand (seeds to be sown again) or a sink, and so on. Each event is
//! one step of the page. At the end of every ply the board it worked out is compared with the
//! engine's own position; a difference (which would be a mistake here, not in the engine) is
//! corrected in that step, so the page is never wrong after a ply, and counted
//! ([`Replay::mismatches`]).
//!
//! The page keeps its current board in the DOM: each site's `<g data-site>` carries
//! `data-seeds`, `data-owner` and `data-marks`, and `<main id="replay">` carries `data-step`,
//! `data-ply`, `data-lap`, `data-hand`, `data-to-move` and `data-kind` (the step's event).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

use super::layout::{BoardState, Layout, Mark, Owner, SiteKind};
use super::svg;
use crate::engine::Position;
use crate::notation::player_name;
use crate::render::{self, Detail};
use crate::rules::{ClauseId, Player, Pos, Rules};
use crate::ruleset::After;
use crate::trace::Event;

/// The documented rules' texts by clause id (`RP-7` → its text). Rulesets cite ids; a page
/// shows the text of each id it finds here, and the id alone otherwise.
pub type RuleTexts = BTreeMap<String, String>;

/// The ids a clause's `cites` names: words such as `RP-7` or `SQ-O2` (letters, a hyphen,
/// letters and digits). A citation of a printed source names none.
pub fn cited_ids(cites: &str) -> Vec<String> {
    cites
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| {
            w.split_once('-').is_some_and(|(a, b)| {
                !a.is_empty()
                    && !b.is_empty()
                    && a.chars().all(|c| c.is_ascii_alphabetic())
                    && b.chars().all(|c| c.is_ascii_alphanumeric())
            })
        })
        .map(str::to_string)
        .collect()
}

/// One step of the page: one event and what it changed.
#[derive(Debug, Clone)]
struct Step {
    /// The event's name, as the JSON trace writes it.
    kind: String,
    ply: u32,
    lap: u32,
    /// The entry of the event list it belongs to.
    item: usize,
    text: String,
    seeds: Vec<(usize, u32)>,
    marks: Vec<(usize, Vec<Mark>)>,
    owners: Vec<(usize, Owner)>,
    hand: u32,
    /// Set on the last step of a ply: the player to move after it.
    to_move: Option<Option<Player>>,
    highlights: Vec<(usize, &'static str)>,
}

/// An entry of the event list.
#[derive(Debug, Clone)]
struct Item {
    kind: &'static str,
    text: String,
    ply: u32,
    /// The first step it covers (1-based: step 0 is the start).
    step: usize,
    clause: Option<ClauseId>,
}

/// A ply: who moved, the move, where it starts, and its last step.
#[derive(Debug, Clone)]
struct PlyInfo {
    mover: Player,
    origin: Option<usize>,
    end: usize,
}

/// What the page shows above the board.
#[derive(Debug, Clone, Default)]
pub struct Page {
    /// The page's title and heading.
    pub title: String,
    /// Lines under the heading: the options in force, where the game started.
    pub lines: Vec<String>,
}

/// A replay being built, ply by ply.
pub struct Replay {
    rules: Arc<Rules>,
    layout: Layout,
    texts: RuleTexts,
    start: BoardState,
    model: BoardState,
    hand: u32,
    lap: u32,
    ply: u32,
    steps: Vec<Step>,
    items: Vec<Item>,
    plies: Vec<PlyInfo>,
    /// In a race: whose sowing the events are (its captures are that racer's).
    racer: Option<Player>,
    result: Option<String>,
    mismatches: Vec<u32>,
}

impl Replay {
    /// A replay of `rules` from `start`, drawn on `layout`.
    pub fn new(
        rules: Arc<Rules>,
        layout: Layout,
        texts: RuleTexts,
        start: &Position,
        to_move: Option<Player>,
    ) -> Replay {
        let state = layout.state(start, to_move);
        Replay {
            rules,
            layout,
            texts,
            start: state.clone(),
            model: state,
            hand: 0,
            lap: 0,
            ply: 0,
            steps: Vec::new(),
            items: Vec::new(),
            plies: Vec::new(),
            racer: None,
            result: None,
            mismatches: Vec::new(),
        }
    }

    /// The plies whose end the events did not account for (none, unless this module is wrong).
    pub fn mismatches(&self) -> &[u32] {
        &self.mismatches
    }

    /// Steps so far.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Adds one ply: its events, the engine's position after it and the player to move then.
    pub fn ply(&mut self, events: &[Event], after: &Position, to_move: Option<Player>) {
        for e in events {
            self.event(e);
        }
        let truth = self.layout.state(after, to_move);
        let mut wrong = self.hand != 0;
        let mut seeds = Vec::new();
        let mut marks = Vec::new();
        let mut owners = Vec::new();
        for (i, (model, real)) in self.model.sites.iter().zip(&truth.sites).enumerate() {
            if model.seeds != real.seeds {
                seeds.push((i, real.seeds));
            }
            if model.marks != real.marks {
                marks.push((i, real.marks.clone()));
            }
            if model.owner != real.owner {
                owners.push((i, real.owner));
            }
        }
        wrong |= !seeds.is_empty() || !marks.is_empty() || !owners.is_empty();
        if wrong {
            self.mismatches.push(self.ply);
        }
        let end = self.steps.len();
        if let Some(last) = self.steps.last_mut() {
            last.seeds.extend(seeds);
            last.marks.extend(marks);
            last.owners.extend(owners);
            last.hand = 0;
            last.to_move = Some(to_move);
        }
        if let Some(p) = self.plies.last_mut() {
            p.end = end;
        }
        self.model = truth;
        self.hand = 0;
    }

    fn name(&self, p: Player) -> &'static str {
        player_name(p)
    }

    fn label(&self, h: Pos) -> String {
        self.rules.geometry.label(h)
    }

    /// `text`, followed by the pieces (`[pieces]`) it counts, if any.
    fn with_pieces(&self, text: String, pieces: u16) -> String {
        match pieces {
            0 => text,
            1 => format!("{text}, a {} among them", render::piece_name(&self.rules)),
            n => format!(
                "{text}, {n} {}s among them",
                render::piece_name(&self.rules)
            ),
        }
    }

    /// An event as the text trace writes it (one line, without its indent).
    fn trace_line(&self, e: &Event) -> String {
        let text = render::trace_text(&self.rules, std::slice::from_ref(e), &[], Detail::Laps);
        text.trim().to_string()
    }

    /// `“take opposite” [RP-7]`.
    fn clause_words(&self, id: ClauseId) -> String {
        let c = self.rules.clause(id);
        match &c.cites {
            Some(cites) => format!("“{}” [{cites}]", c.name),
            None => format!("“{}”", c.name),
        }
    }

    /// Every site takes its seeds from `board` (a position an event carries whole).
    fn take_seeds(&mut self, step: &mut Step, board: &Position) {
        let state = self.layout.state(board, None);
        for (i, site) in state.sites.iter().enumerate() {
            if (self.model.sites.get(i)).is_some_and(|s| s.seeds != site.seeds) {
                self.set_seeds(step, Some(i), site.seeds);
            }
        }
    }

    /// The pie rule's swap: every site's seeds and marks go to the site the board turns it
    /// onto (each player's k-th hole to the other's, store to store, reserve to reserve).
    fn turn_round(&mut self, step: &mut Step) {
        let Some(turned) = self.rules.swap else {
            return;
        };
        let other = |o: Owner| match o {
            Owner::Player(p) => Owner::Player(1 - (p & 1)),
            o => o,
        };
        let sites = self.layout.sites.clone();
        let before = self.model.sites.clone();
        for (site, now) in sites.iter().zip(&before) {
            let to = match site.pos {
                Some(p) => self
                    .layout
                    .site_of(turned.get(usize::from(p)).copied().unwrap_or(p)),
                None => sites.iter().position(|s| {
                    s.kind == site.kind && s.pos.is_none() && s.owner == other(site.owner)
                }),
            };
            let marks = now.marks.iter().map(|m| match m {
                Mark::ClaimedBy(p) => Mark::ClaimedBy(1 - (p & 1)),
                m => *m,
            });
            if let Some(to) = to {
                self.set_seeds(step, Some(to), now.seeds);
                self.set_marks(step, to, marks.collect());
            }
        }
    }

    /// Site `i` is closed (`shut`) or open, its other marks kept.
    fn set_closed(&mut self, step: &mut Step, i: usize, shut: bool) {
        let mut marks: Vec<Mark> = (self.model.sites.get(i))
            .map_or(Vec::new(), |s| s.marks.clone())
            .into_iter()
            .filter(|m| *m != Mark::Closed)
            .collect();
        if shut {
            marks.push(Mark::Closed);
            step.highlights.push((i, "closed"));
        }
        marks.sort();
        self.set_marks(step, i, marks);
    }

    fn set_seeds(&mut self, step: &mut Step, site: Option<usize>, seeds: u32) {
        if let Some(i) = site
            && let Some(s) = self.model.sites.get_mut(i)
        {
            s.seeds = seeds;
            step.seeds.push((i, seeds));
        }
    }

    /// Takes `fewer` seeds from a site (none below zero).
    fn remove_seeds(&mut self, step: &mut Step, site: Option<usize>, fewer: u32) {
        if let Some(i) = site {
            let now = self.model.sites.get(i).map_or(0, |s| s.seeds);
            self.set_seeds(step, Some(i), now.saturating_sub(fewer));
        }
    }

    fn add_seeds(&mut self, step: &mut Step, site: Option<usize>, more: u32) {
        if let Some(i) = site {
            let now = self.model.sites.get(i).map_or(0, |s| s.seeds) + more;
            self.set_seeds(step, Some(i), now);
        }
    }

    fn set_marks(&mut self, step: &mut Step, site: usize, marks: Vec<Mark>) {
        if let Some(s) = self.model.sites.get_mut(site)
            && s.marks != marks
        {
            s.marks = marks.clone();
            step.marks.push((site, marks));
        }
    }

    fn claimed_by(&self, site: Option<usize>) -> Option<Player> {
        let s = self.model.sites.get(site?)?;
        s.marks.iter().find_map(|m| match m {
            Mark::ClaimedBy(p) => Some(*p),
            Mark::Closed => None,
        })
    }

    /// Whether `p` has claimed a hole.
    fn has_claim(&self, p: Player) -> bool {
        self.model
            .sites
            .iter()
            .any(|s| s.marks.contains(&Mark::ClaimedBy(p)))
    }

    fn new_item(&mut self, kind: &'static str, text: String, clause: Option<ClauseId>) -> usize {
        self.items.push(Item {
            kind,
            text,
            ply: self.ply,
            step: self.steps.len() + 1,
            clause,
        });
        self.items.len() - 1
    }

    fn mover(&self) -> Player {
        (self.racer).unwrap_or_else(|| self.plies.last().map_or(0, |p| p.mover))
    }

    fn event(&mut self, e: &Event) {
        match e {
            Event::Racer { player } => {
                // Whose sowing a race's next events are: their holes say it on the board, and
                // what they take out of play is theirs.
                self.racer = Some(*player);
                return;
            }
            Event::Race { .. }
            | Event::RaceStart { .. }
            | Event::Move { .. }
            | Event::Pass { .. }
            | Event::Swap { .. }
            | Event::Concede { .. }
            | Event::Decided { .. }
            | Event::Placed { .. } => self.racer = None,
            _ => {}
        }
        let kind = render::event_json(&self.rules, e)
            .get("event")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let mut step = Step {
            kind,
            ply: self.ply,
            lap: self.lap,
            item: self.items.len().saturating_sub(1),
            text: String::new(),
            seeds: Vec::new(),
            marks: Vec::new(),
            owners: Vec::new(),
            hand: self.hand,
            to_move: None,
            highlights: Vec::new(),
        };
        let mut item: Option<(&'static str, String, Option<ClauseId>)> = None;
        match e {
            Event::Move {
                ply,
                player,
                hole,
                entered,
                ..
            } => {
                self.ply = *ply;
                self.lap = 0;
                step.ply = *ply;
                step.lap = 0;
                let origin = self.layout.site_of(*hole);
                self.plies.push(PlyInfo {
                    mover: *player,
                    origin,
                    end: self.steps.len() + 1,
                });
                step.text = if *entered > 0 {
                    format!(
                        "{} enters {} from hand at {}",
                        self.name(*player),
                        seeds_words(u32::from(*entered)),
                        self.label(*hole)
                    )
                } else {
                    format!("{} plays {}", self.name(*player), self.label(*hole))
                };
                item = Some(("move", format!("ply {ply}: {}", step.text), None));
                step.highlights.extend(origin.map(|i| (i, "origin")));
            }
            Event::Lift {
                lap,
                hole,
                seeds,
                pieces,
            } => {
                self.lap = *lap;
                step.lap = *lap;
                let at = self.layout.site_of(*hole);
                // A lift may leave seeds behind (`[sowing] lift`), and may join captured
                // seeds already in hand (`lift_also`).
                let there = at
                    .and_then(|i| self.model.sites.get(i))
                    .map_or(0, |s| s.seeds);
                self.set_seeds(&mut step, at, there.saturating_sub(u32::from(*seeds)));
                self.hand += u32::from(*seeds);
                step.text = format!(
                    "lap {lap}: lifts {} ({})",
                    self.label(*hole),
                    self.with_pieces(seeds_words(u32::from(*seeds)), *pieces)
                );
                item = Some(("lap", step.text.clone(), None));
                step.highlights.extend(at.map(|i| (i, "lift")));
            }
            Event::Enter { lap, hole, seeds } => {
                // Seeds the mover holds go into hand: their bank loses them.
                self.lap = *lap;
                step.lap = *lap;
                self.hand = u32::from(*seeds);
                let bank = self.layout.bank_of(&self.rules, self.mover());
                self.remove_seeds(&mut step, bank, u32::from(*seeds));
                step.text = format!(
                    "lap {lap}: takes {} from hand, the first into {}",
                    seeds_words(u32::from(*seeds)),
                    self.label(*hole)
                );
                item = Some(("lap", step.text.clone(), None));
                step.highlights
                    .extend(self.layout.site_of(*hole).map(|i| (i, "lift")));
            }
            Event::Resow { lap, after, seeds } => {
                self.lap = *lap;
                step.lap = *lap;
                self.hand = u32::from(*seeds);
                step.text = format!(
                    "lap {lap}: sows the {} captured again, after {}",
                    seeds_words(u32::from(*seeds)),
                    self.label(*after)
                );
                item = Some(("lap", step.text.clone(), None));
                step.highlights
                    .extend(self.layout.site_of(*after).map(|i| (i, "lift")));
            }
            Event::Drop {
                hole,
                seeds,
                pieces,
            } => {
                let at = self.layout.site_of(*hole);
                self.set_seeds(&mut step, at, u32::from(*seeds));
                self.hand = self.hand.saturating_sub(1);
                let now = self.with_pieces(format!("{seeds} now"), *pieces);
                step.text = format!("a seed into {} ({now})", self.label(*hole));
                step.highlights.extend(at.map(|i| (i, "drop")));
            }
            Event::Skip { hole, clause } => {
                step.text = match clause {
                    Some(c) => format!(
                        "passes over {} ({})",
                        self.label(*hole),
                        self.clause_words(*c)
                    ),
                    None => format!("passes over {}", self.label(*hole)),
                };
                step.highlights
                    .extend(self.layout.site_of(*hole).map(|i| (i, "skip")));
            }
            Event::LapEnd { lap, last } => {
                step.text = format!("lap {lap} ends in {}", self.label(*last));
                let ends = format!(", ends in {}", self.label(*last));
                if let Some(it) = self.items.last_mut()
                    && it.kind == "lap"
                {
                    it.text.push_str(&ends);
                }
                step.highlights
                    .extend(self.layout.site_of(*last).map(|i| (i, "last")));
            }
            Event::Relay { clause, hole } => {
                step.text = self.trace_line(e);
                item = Some(("relay", step.text.clone(), Some(*clause)));
                step.highlights
                    .extend(self.layout.site_of(*hole).map(|i| (i, "relay")));
            }
            Event::Diverted { clause, hole, to } => {
                // A seed due into a claimed hole goes to the claimer (a capture of the claim's
                // clause); one a redirect clause sends to a player is no capture.
                let at = self.layout.site_of(*hole);
                let dest = self.layout.bank_of(&self.rules, *to);
                self.hand = self.hand.saturating_sub(1);
                self.add_seeds(&mut step, dest, 1);
                if self.claims(*clause) {
                    step.text = format!(
                        "{} is a hole claimed by {}: the seed goes to {}",
                        self.label(*hole),
                        self.clause_words(*clause),
                        self.name(*to)
                    );
                    item = Some(("capture", step.text.clone(), Some(*clause)));
                    step.highlights.extend(at.map(|i| (i, "capture")));
                } else {
                    step.text = format!(
                        "the seed due into {} goes to {} ({})",
                        self.label(*hole),
                        self.name(*to),
                        self.clause_words(*clause)
                    );
                    step.highlights.extend(at.map(|i| (i, "skip")));
                }
                step.highlights.extend(dest.map(|i| (i, "gain")));
            }
            Event::Redirect {
                clause, hole, to, ..
            } => {
                // Into another hole, or out of play (the mover's removed seeds).
                let at = self.layout.site_of(*hole);
                let dest = match to {
                    Some(h) => self.layout.site_of(*h),
                    None => self.layout.tray_of(SiteKind::Sink, self.mover()),
                };
                self.hand = self.hand.saturating_sub(1);
                step.text = match to {
                    Some(h) => format!(
                        "the seed due into {} goes into {} ({})",
                        self.label(*hole),
                        self.label(*h),
                        self.clause_words(*clause)
                    ),
                    None => format!(
                        "the seed due into {} goes out of play ({})",
                        self.label(*hole),
                        self.clause_words(*clause)
                    ),
                };
                self.add_seeds(&mut step, dest, 1);
                step.highlights.extend(at.map(|i| (i, "skip")));
                step.highlights.extend(dest.map(|i| (i, "gain")));
            }
            Event::HandBack { hole, seeds } | Event::Refused { hole, seeds } => {
                let at = self.layout.site_of(*hole);
                self.hand = self.hand.saturating_sub(u32::from(*seeds));
                self.add_seeds(&mut step, at, u32::from(*seeds));
                step.text = self.trace_line(e);
                item = Some(("end", step.text.clone(), None));
                step.highlights.extend(at.map(|i| (i, "last")));
            }
            Event::Capture {
                clause,
                hole,
                seeds,
                pieces,
                to,
                into,
                ..
            } => {
                let at = self.layout.site_of(*hole);
                let n = u32::from(*seeds);
                // Pieces go to a hand, apart from the seeds a bank counts.
                let banked = n.saturating_sub(u32::from(*pieces));
                let claimer = self.claimed_by(at);
                let again = self.resown(*clause);
                let dest = match (to, into) {
                    (_, Some(h)) => self.layout.site_of(*h),
                    (Some(p), None) if !again => self.layout.bank_of(&self.rules, *p),
                    (Some(_), None) => None,
                    (None, None) => self.layout.tray_of(SiteKind::Sink, self.mover()),
                };
                let whose = match (to, into) {
                    (_, Some(h)) => format!("into {}", self.label(*h)),
                    (Some(p), None) if again => format!("to be sown again by {}", self.name(*p)),
                    (Some(p), None) => format!("to {}", self.name(*p)),
                    (None, None) => "out of the game".to_string(),
                };
                if claimer.is_some() && self.hand > 0 {
                    // A seed sown into a claimed hole goes to the claimer.
                    self.hand = self.hand.saturating_sub(n);
                    step.text = format!(
                        "{} is a claimed hole: the seed goes {whose}",
                        self.label(*hole)
                    );
                } else {
                    // All the hole held, but what was just dropped where a capture keeps it.
                    let there = at
                        .and_then(|i| self.model.sites.get(i))
                        .map_or(0, |s| s.seeds);
                    self.set_seeds(&mut step, at, there.saturating_sub(n));
                    step.text = format!(
                        "capture {}: {} from {} {whose}",
                        self.clause_words(*clause),
                        self.with_pieces(seeds_words(n), *pieces),
                        self.label(*hole)
                    );
                    if again {
                        self.hand += n;
                    }
                    // A claiming clause's first hole becomes the mover's.
                    if self.claims(*clause)
                        && let Some(i) = at
                        && !self.has_claim(self.mover())
                    {
                        let mut marks = self
                            .model
                            .sites
                            .get(i)
                            .map_or(Vec::new(), |s| s.marks.clone());
                        marks.push(Mark::ClaimedBy(self.mover()));
                        marks.sort();
                        self.set_marks(&mut step, i, marks);
                        step.text.push_str(&format!(
                            "; {} claims {}",
                            self.name(self.mover()),
                            self.label(*hole)
                        ));
                    }
                }
                self.add_seeds(&mut step, dest, banked);
                item = Some(("capture", step.text.clone(), Some(*clause)));
                step.highlights.extend(at.map(|i| (i, "capture")));
                step.highlights.extend(dest.map(|i| (i, "gain")));
            }
            Event::CaptureCancelled { clause, .. } => {
                step.text = self.trace_line(e);
                item = Some(("capture", step.text.clone(), Some(*clause)));
            }
            Event::MoveEnd { laps, last } => {
                step.text = format!(
                    "the move ends in {} after {laps} lap{}",
                    self.label(*last),
                    if *laps == 1 { "" } else { "s" }
                );
                item = Some(("end", step.text.clone(), None));
                step.highlights
                    .extend(self.layout.site_of(*last).map(|i| (i, "last")));
            }
            Event::Effect { clause } => {
                step.text = self.trace_line(e);
                item = Some(("turn", step.text.clone(), Some(*clause)));
            }
            Event::Pass { ply, player }
            | Event::Concede { ply, player }
            | Event::Swap { ply, player }
            | Event::RaceStart { ply, player, .. }
            | Event::Decided { ply, player, .. } => {
                // A ply that lifts no hole: a pass, a concession, a swap, a start chosen for
                // the race, or a decision at a stopped move (whose laps go on, so its lap
                // count is kept).
                self.ply = *ply;
                step.ply = *ply;
                let text = match e {
                    Event::Decided { decision, hole, .. } => {
                        let answer = render::decided(*decision, *hole).label(&self.rules);
                        format!("{} decides: {answer}", self.name(*player))
                    }
                    Event::Concede { .. } => format!("{} concedes", self.name(*player)),
                    Event::RaceStart { hole, .. } => {
                        format!(
                            "{} will race from {}",
                            self.name(*player),
                            self.label(*hole)
                        )
                    }
                    Event::Swap { .. } => {
                        self.turn_round(&mut step);
                        format!("{} swaps sides: the board turns round", self.name(*player))
                    }
                    _ => {
                        self.lap = 0;
                        step.lap = 0;
                        format!("{} passes", self.name(*player))
                    }
                };
                self.plies.push(PlyInfo {
                    mover: *player,
                    origin: None,
                    end: self.steps.len() + 1,
                });
                step.text = text;
                item = Some(("move", format!("ply {ply}: {}", step.text), None));
            }
            Event::Placed {
                ply,
                player,
                hole,
                put,
                piece,
            } => {
                // A seed between the mover's bank and a hole, in the arrangement before play.
                self.ply = *ply;
                step.ply = *ply;
                self.lap = 0;
                step.lap = 0;
                let at = self.layout.site_of(*hole);
                let bank = self.layout.bank_of(&self.rules, *player);
                self.plies.push(PlyInfo {
                    mover: *player,
                    origin: at,
                    end: self.steps.len() + 1,
                });
                let (from, to) = if *put { (bank, at) } else { (at, bank) };
                // A piece is held apart from the seeds the bank counts.
                if !*piece {
                    self.remove_seeds(&mut step, from, 1);
                }
                self.add_seeds(&mut step, to, 1);
                step.text = format!(
                    "{} {} {}",
                    self.name(*player),
                    render::placed_words(&self.rules, *put, *piece),
                    self.label(*hole)
                );
                item = Some(("move", format!("ply {ply}: {}", step.text), None));
                step.highlights
                    .extend(at.map(|i| (i, if *put { "gain" } else { "lift" })));
            }
            Event::Arranged { player } => {
                step.text = format!("{}'s arrangement ends", self.name(*player));
                item = Some(("turn", step.text.clone(), None));
            }
            Event::CaptureOffered { clause, .. }
            | Event::ChoiceOffered { clause, .. }
            | Event::RelayOffered { clause, .. } => {
                step.text = self.trace_line(e);
                item = Some(("turn", step.text.clone(), Some(*clause)));
            }
            Event::ExtraTurn { clause, .. } => {
                step.text = self.trace_line(e);
                item = Some(("turn", step.text.clone(), Some(*clause)));
            }
            Event::Race { ply, player, .. } => {
                // A ply that lifts the racers' holes as its sowings go.
                self.ply = *ply;
                step.ply = *ply;
                self.lap = 0;
                step.lap = 0;
                self.plies.push(PlyInfo {
                    mover: *player,
                    origin: None,
                    end: self.steps.len() + 1,
                });
                step.text = self.trace_line(e);
                item = Some(("move", step.text.clone(), None));
            }
            Event::RaceOver { .. } => {
                step.text = self.trace_line(e);
                item = Some(("turn", step.text.clone(), None));
            }
            Event::Racer { .. } => {}
            Event::EndlessRace { .. }
            | Event::EndlessMove { .. }
            | Event::LapLimit { .. }
            | Event::StepLimit { .. }
            | Event::LapCap { .. }
            | Event::PlyLimit { .. }
            | Event::RepeatedStart
            | Event::Out { .. }
            | Event::OwnersMoved
            | Event::Gift { .. }
            | Event::Cycle { .. } => {
                step.text = self.trace_line(e);
                item = Some(("end", step.text.clone(), None));
            }
            Event::HolesWon { board, .. } => {
                // The refill as it ended, holes won included: every site takes it, and the
                // holes nobody filled are closed or open as it says.
                self.take_seeds(&mut step, board);
                let holes: Vec<Pos> = (0..self.rules.geometry.positions)
                    .filter(|&h| self.rules.geometry.is_hole(h))
                    .collect();
                for h in holes {
                    let Some(i) = self.layout.site_of(h) else {
                        continue;
                    };
                    self.set_closed(&mut step, i, board.closed & crate::rules::bit(h) != 0);
                }
                step.text = self.trace_line(e);
                item = Some(("round", step.text.clone(), None));
            }
            Event::RoundEnd {
                clause,
                shares,
                board,
                ..
            } => {
                // The event carries the position as the round ended: every site takes it.
                self.take_seeds(&mut step, board);
                for (p, &share) in (0u8..).zip(shares) {
                    if share > 0 {
                        let bank = self.layout.bank_of(&self.rules, p);
                        step.highlights.extend(bank.map(|i| (i, "gain")));
                    }
                }
                step.text = self.trace_line(e);
                item = Some(("round", step.text.clone(), Some(*clause)));
            }
            Event::Refill { .. } if self.rules.rounds.as_ref().is_some_and(|r| r.win_holes) => {
                // Holes are won at this refill: the board as refilled comes with the holes won
                // (`HolesWon`), which every site takes then.
                step.text = self.trace_line(e);
                item = Some(("round", step.text.clone(), None));
            }
            Event::Refill {
                player,
                partial,
                closed,
                kept,
                filled,
                waiting,
                ..
            } => {
                let refill = self
                    .rules
                    .rounds
                    .as_ref()
                    .map_or(0, |r| u32::from(r.refill));
                // The refill after an arrangement leaves what was laid out where it is.
                let after_arranging = !*waiting
                    && (self.rules.arrange.as_ref())
                        .is_some_and(|a| a.at.at_rounds() && a.refill_after);
                let own: Vec<Pos> = self.rules.geometry.holes_of(*player).collect();
                for h in own {
                    let Some(i) = self.layout.site_of(h) else {
                        continue;
                    };
                    let shut = *closed & crate::rules::bit(h) != 0;
                    let count = match partial {
                        _ if *filled & crate::rules::bit(h) == 0 && after_arranging => {
                            self.model.sites.get(i).map_or(0, |s| s.seeds)
                        }
                        _ if *filled & crate::rules::bit(h) == 0 => 0,
                        Some((at, k)) if *at == h => *k,
                        _ => refill,
                    };
                    self.set_seeds(&mut step, Some(i), count);
                    self.set_closed(&mut step, i, shut);
                }
                if let Some(store) = self.rules.geometry.store_of(*player) {
                    self.set_seeds(&mut step, self.layout.site_of(store), *kept);
                } else {
                    let reserve = self.layout.tray_of(SiteKind::Reserve, *player);
                    self.set_seeds(&mut step, reserve, *kept);
                }
                step.text = self.trace_line(e);
                item = Some(("round", step.text.clone(), None));
            }
            Event::Restart => {
                // Every site as at the start: the holes' layout, nothing closed, each player
                // holding what they held then.
                let g = &self.rules.geometry;
                let holes: Vec<Pos> = (0..g.positions).filter(|&h| g.is_hole(h)).collect();
                for h in holes {
                    let Some(i) = self.layout.site_of(h) else {
                        continue;
                    };
                    let count = self
                        .rules
                        .initial
                        .get(usize::from(h))
                        .map_or(0, |&n| u32::from(n));
                    self.set_seeds(&mut step, Some(i), count);
                    // Nothing is closed or claimed at the start.
                    self.set_marks(&mut step, i, Vec::new());
                }
                let held = self.rules.held_at_start;
                for p in self.rules.geometry.players() {
                    let site = match self.rules.geometry.store_of(p) {
                        Some(store) => self.layout.site_of(store),
                        None => self.layout.tray_of(SiteKind::Reserve, p),
                    };
                    let held = held.get(usize::from(p)).copied().unwrap_or(0);
                    self.set_seeds(&mut step, site, held);
                    let sink = self.layout.tray_of(SiteKind::Sink, p);
                    if sink.is_some() {
                        self.set_seeds(&mut step, sink, 0);
                    }
                }
                step.text = self.trace_line(e);
                item = Some(("round", step.text.clone(), None));
            }
            Event::RoundStart { .. } => {
                step.text = self.trace_line(e);
                item = Some(("round", step.text.clone(), None));
            }
            Event::GameEnd { .. } => {
                step.text = self.trace_line(e);
                self.result = Some(step.text.clone());
                item = Some(("result", step.text.clone(), None));
            }
        }
        if let Some((kind, text, clause)) = item {
            step.item = self.new_item(kind, text, clause);
        }
        step.hand = self.hand;
        self.steps.push(step);
    }

    /// Whether a capture clause's seeds are sown again rather than banked.
    fn resown(&self, id: ClauseId) -> bool {
        self.rules
            .lap_captures
            .iter()
            .any(|c| c.id == id && c.then == After::Sow)
    }

    /// Whether a capture clause claims the first hole it takes.
    fn claims(&self, id: ClauseId) -> bool {
        let rules = &self.rules;
        let all = rules.drop_captures.iter().chain(&rules.lap_captures);
        all.chain(&rules.move_captures)
            .any(|c| c.id == id && c.claim)
    }

    /// The page's data: the sites, the start, every step, the event list, the clauses cited
    /// (with the texts found for their ids) and the plies.
    pub fn data(&self) -> Value {
        let marks = |m: &[Mark]| m.iter().map(|m| m.key()).collect::<Vec<_>>();
        let sites: Vec<Value> = self
            .layout
            .sites
            .iter()
            .map(|s| {
                json!({
                    "label": s.label,
                    "kind": svg::kind_key(s.kind),
                    "group": svg::group_name(s.place),
                })
            })
            .collect();
        let start = json!({
            "seeds": self.start.sites.iter().map(|s| s.seeds).collect::<Vec<_>>(),
            "marks": self.start.sites.iter().map(|s| marks(&s.marks)).collect::<Vec<_>>(),
            "owners": self.start.sites.iter().map(|s| s.owner.key()).collect::<Vec<_>>(),
            "to_move": self.start.to_move,
            "hand": 0,
        });
        let steps: Vec<Value> = self
            .steps
            .iter()
            .map(|s| {
                let mut v = json!({
                    "k": s.kind, "p": s.ply, "l": s.lap, "i": s.item, "x": s.text, "h": s.hand,
                });
                if let Some(map) = v.as_object_mut() {
                    if !s.seeds.is_empty() {
                        map.insert("s".into(), json!(s.seeds));
                    }
                    if !s.marks.is_empty() {
                        let m: Vec<Value> =
                            s.marks.iter().map(|(i, m)| json!([i, marks(m)])).collect();
                        map.insert("m".into(), Value::Array(m));
                    }
                    if !s.owners.is_empty() {
                        let o: Vec<Value> =
                            s.owners.iter().map(|(i, o)| json!([i, o.key()])).collect();
                        map.insert("o".into(), Value::Array(o));
                    }
                    if let Some(t) = s.to_move {
                        map.insert("t".into(), json!(t));
                        map.insert("e".into(), json!(1));
                    }
                    if !s.highlights.is_empty() {
                        map.insert("hl".into(), json!(s.highlights));
                    }
                }
                v
            })
            .collect();
        // The clauses the event list names, each once.
        let mut clause_ids: Vec<ClauseId> = self.items.iter().filter_map(|i| i.clause).collect();
        clause_ids.sort_unstable();
        clause_ids.dedup();
        let clauses: Vec<Value> = clause_ids
            .iter()
            .map(|&id| {
                let c = self.rules.clause(id);
                let texts: Vec<Value> = c
                    .cites
                    .as_deref()
                    .map(cited_ids)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|rule| {
                        let text = self.texts.get(&rule).cloned();
                        json!([rule, text])
                    })
                    .collect();
                json!({ "id": id, "name": c.name, "cites": c.cites, "texts": texts })
            })
            .collect();
        let clause_index = |id: ClauseId| clause_ids.iter().position(|&c| c == id);
        let items: Vec<Value> = self
            .items
            .iter()
            .map(|i| {
                json!({
                    "kind": i.kind, "text": i.text, "ply": i.ply, "step": i.step,
                    "clause": i.clause.and_then(clause_index),
                })
            })
            .collect();
        let plies: Vec<Value> = self
            .plies
            .iter()
            .map(|p| json!({ "mover": p.mover, "origin": p.origin, "end": p.end }))
            .collect();
        let seats: Vec<Value> = self
            .layout
            .seats
            .iter()
            .map(|s| json!({ "player": s.player, "name": s.name }))
            .collect();
        let dots: Vec<Value> = (0..=super::layout::MAX_DOTS)
            .map(|n| {
                let (r, at) = super::layout::dots(n);
                let at: Vec<[f64; 2]> = at.iter().map(|p| [round(p.x), round(p.y)]).collect();
                json!([round(r), at])
            })
            .collect();
        json!({
            "sites": sites,
            "seats": seats,
            "start": start,
            "steps": steps,
            "items": items,
            "clauses": clauses,
            "plies": plies,
            "dots": dots,
            "result": self.result,
        })
    }

    /// The page.
    pub fn html(&self, page: &Page) -> String {
        let board = svg::board(
            &self.layout,
            &self.start,
            &svg::Texts {
                title: &format!("{}: the board", page.title),
                id: "board",
            },
        );
        // Inside a <script> element only `</` (and `<!--`) could end it early: with every
        // `<` escaped, the JSON can say anything.
        let data = self.data().to_string().replace('<', "\\u003c");
        let lines: String = page
            .lines
            .iter()
            .map(|l| format!("<p class=\"meta\">{}</p>", svg::escape(l)))
            .collect();
        let title = svg::escape(&page.title);
        let result = match &self.result {
            Some(r) => svg::escape(r),
            None => "The record ends before the game does.".into(),
        };
        let mut out = String::with_capacity(data.len() + board.len() + 16_384);
        out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        out.push_str(&format!("<title>{title}</title>\n<style>\n"));
        out.push_str(include_str!("player.css"));
        out.push_str("</style>\n</head>\n<body>\n");
        out.push_str(&format!("<header>\n<h1>{title}</h1>\n{lines}\n</header>\n"));
        out.push_str(
            &include_str!("player.html")
                .replace("{{BOARD}}", &board)
                .replace("{{STEPS}}", &self.steps.len().to_string()),
        );
        out.push_str(&format!(
            "<footer><p id=\"result\">{result}</p><p class=\"meta\">Written by sow. Everything this page needs is inside it.</p></footer>\n"
        ));
        out.push_str("<script type=\"application/json\" id=\"sow-data\">");
        out.push_str(&data);
        out.push_str("</script>\n<script>\n");
        out.push_str(include_str!("player.js"));
        out.push_str("</script>\n</body>\n</html>\n");
        out
    }
}

fn round(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn seeds_words(n: u32) -> String {
    if n == 1 {
        "1 seed".into()
    } else {
        format!("{n} seeds")
    }
}

//! `sow analyze`: what kind of game a ruleset makes, in figures an author can trust. For a
//! pairing of players: results by side with 95% intervals, the draw rate, the first player's
//! advantage, how long games last, how they end, how often each clause fires; with
//! `--sweep`, the same for every reading of the ruleset's open points, side by side, with the
//! differences that are more than chance marked.
//!
//! The games are `simulate`'s ([`super::series`]): game `i` uses the seed `S + i`, whatever
//! the number of threads, and every reading of a sweep plays the same seeds, so that two
//! readings differ by their rules and not by their luck.

use std::io::Write;
use std::path::PathBuf;

use serde_json::{Value, json};

use sow::engine::Status;
use sow::render::escape;
use sow::rules::{ClauseId, Player, Rules};
use sow::trace::Limit;

use super::draw::Target;
use super::players::{Bot, players_help};
use super::series::{self, Plan, Played, Progress, Table};
use super::{Exit, Fail, Format, OptionArgs, Ruleset, emit_json, emit_text, plural, side};

/// The players when none are named: alpha-beta four plies deep, quick enough for a thousand
/// games in seconds and far stronger than the greedy player.
const DEFAULT_PLAYER: &str = "alphabeta:depth=4";

/// The most readings one sweep may play.
const MAX_READINGS: usize = 256;

/// z for a two-sided 95% interval or test.
const Z95: f64 = 1.959_963_984_540_054;

const AFTER_HELP: &str = concat!(
    "\
Game i is played with the seed S+i, and every reading of a sweep plays the same seeds. The
figures do not depend on --threads. Intervals [low-high] are 95% Wilson score intervals; in a
sweep, * marks a figure that differs from the first reading's by more than chance (a
two-sided test at the 5% level: two proportions, or two means).

--sweep plays every value of every option, one option at a time (the others at their
defaults, or as --option sets them); --sweep=NAME,NAME only those options; with --combine,
every combination of their values.

",
    players_help!(),
    "

Examples:
  sow analyze RULESET --games 1000 --seed 1
  sow analyze RULESET --south alphabeta:depth=6 --north greedy --alternate
  sow analyze RULESET --sweep --games 500 --seed 1
  sow analyze RULESET --sweep=NAME,NAME --combine --games-out games.jsonl
  sow --format json analyze RULESET --games 200 --seed 3"
);

/// Balance figures between two players: results with intervals, lengths, endings; --sweep
/// compares the readings of the options.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The ruleset: a shipped name (see `sow list`) or a path.
    pub ruleset: String,

    /// How many games (or matches) to play, for each reading.
    #[arg(long, short = 'n', default_value_t = 1000)]
    pub games: u64,

    /// Seed of the first game; game i uses seed+i. By default one is picked and printed.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Who plays South: random, greedy, alphabeta[:depth=N,nodes=N] or mcts[:playouts=N].
    #[arg(long, default_value = DEFAULT_PLAYER, value_name = "PLAYER")]
    pub south: Bot,

    /// Who plays North (as --south).
    #[arg(long, default_value = DEFAULT_PLAYER, value_name = "PLAYER")]
    pub north: Bot,

    /// The players change sides every game: the --south player plays North in odd games.
    #[arg(long)]
    pub alternate: bool,

    /// Plies played at random by both sides before the players take over, so that two
    /// players who always choose alike still meet in many different games.
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    pub opening: u32,

    /// Worker threads (default: one per core; at most 256).
    #[arg(long)]
    pub threads: Option<usize>,

    /// A game still going after this many plies is stopped and counted as unfinished.
    #[arg(long, default_value_t = 10_000)]
    pub max_plies: u32,

    /// Play every value of the ruleset's options (`--sweep`), or of those named
    /// (`--sweep=NAME,NAME`), and compare the readings in one table.
    #[arg(
        long,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "",
        value_name = "NAME,NAME"
    )]
    pub sweep: Option<String>,

    /// With --sweep: every combination of the swept options' values, not one option at a
    /// time.
    #[arg(long, requires = "sweep")]
    pub combine: bool,

    /// Write one line of JSON per game to FILE (JSON Lines): its seed, players, options,
    /// result, plies, rounds, ending and moves.
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,

    /// Overwrite the --games-out file if it exists.
    #[arg(long, requires = "games_out")]
    pub force: bool,

    #[command(flatten)]
    pub options: OptionArgs,
}

/// How a game came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decision {
    SouthWins,
    NorthWins,
    Draw,
    /// Stopped by one of the engine's safety limits: the rules give no result.
    NoResult,
    /// Still going at `--max-plies`.
    Unfinished,
}

impl Decision {
    fn of(played: &Played) -> Decision {
        match played.status {
            _ if played.unfinished => Decision::Unfinished,
            Status::Over { winner: Some(0) } => Decision::SouthWins,
            Status::Over { winner: Some(_) } => Decision::NorthWins,
            Status::Over { winner: None } => Decision::Draw,
            Status::Stopped { .. } | Status::Playing => Decision::NoResult,
        }
    }

    fn json(self) -> &'static str {
        match self {
            Decision::SouthWins => "south_wins",
            Decision::NorthWins => "north_wins",
            Decision::Draw => "draw",
            Decision::NoResult => "no_result",
            Decision::Unfinished => "unfinished",
        }
    }

    fn winner(self) -> Option<Player> {
        match self {
            Decision::SouthWins => Some(0),
            Decision::NorthWins => Some(1),
            Decision::Draw | Decision::NoResult | Decision::Unfinished => None,
        }
    }
}

/// What ended a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ended {
    /// An ending clause of the rules (in a match, the one that ended its last round).
    Clause(ClauseId),
    /// The engine's lap limit stopped a move.
    LapLimit,
    /// The engine's ply limit stopped the game.
    PlyLimit,
    /// `--max-plies`.
    Unfinished,
}

impl Ended {
    fn of(played: &Played) -> Ended {
        match (played.unfinished, played.status, played.ending) {
            (true, _, _) => Ended::Unfinished,
            (_, Status::Stopped { limit: Limit::Laps }, _) => Ended::LapLimit,
            (
                _,
                Status::Stopped {
                    limit: Limit::Plies,
                },
                _,
            ) => Ended::PlyLimit,
            (_, _, Some(c)) => Ended::Clause(c),
            // A game over with no ending clause fired cannot happen; count it as unfinished
            // rather than drop it.
            (_, _, None) => Ended::Unfinished,
        }
    }

    /// Its name, with the rules it cites; and its kind, for JSON.
    fn describe(self, rules: &Rules, max_plies: u32) -> (String, &'static str) {
        match self {
            Ended::Clause(id) => {
                let c = rules.clause(id);
                let kind = if rules.no_move.id == id {
                    "no_move"
                } else if rules.endless_move.id == id {
                    "endless_move"
                } else if rules.cycle.is_some_and(|e| e.id == id) {
                    "cycle"
                } else {
                    "condition"
                };
                let name = match &c.cites {
                    Some(cites) => format!("{} [{cites}]", c.name),
                    None => c.name.clone(),
                };
                (name, kind)
            }
            Ended::LapLimit => (
                format!(
                    "the engine's lap limit ({} laps in a move)",
                    sow::rules::MAX_LAPS_PER_MOVE
                ),
                "lap_limit",
            ),
            Ended::PlyLimit => (
                format!("the engine's ply limit ({} plies)", sow::rules::MAX_PLIES),
                "ply_limit",
            ),
            Ended::Unfinished => (
                format!("unfinished after --max-plies {max_plies}"),
                "unfinished",
            ),
        }
    }
}

/// One game, as the summary and `--games-out` need it.
#[derive(Debug, Clone)]
struct Row {
    index: u64,
    decision: Decision,
    /// Whether the players were swapped (the --north player played South).
    swapped: bool,
    plies: u32,
    rounds: u32,
    ended: Ended,
    held: [u32; 2],
    taken: [u32; 2],
    /// A hash of the moves, to count distinct games.
    line: u64,
    /// The moves, when they are written out.
    moves: Option<String>,
}

/// What a share of the games found.
#[derive(Debug, Clone)]
struct Found {
    rows: Vec<Row>,
    /// Per clause: firings, games in which it fired, cancellations.
    fired: Vec<u64>,
    fired_in: Vec<u64>,
    cancelled: Vec<u64>,
}

impl Found {
    fn new(clauses: usize) -> Found {
        Found {
            rows: Vec::new(),
            fired: vec![0; clauses],
            fired_in: vec![0; clauses],
            cancelled: vec![0; clauses],
        }
    }

    fn merge(mut self, mut o: Found) -> Found {
        self.rows.append(&mut o.rows);
        for (a, b) in [
            (&mut self.fired, &o.fired),
            (&mut self.fired_in, &o.fired_in),
            (&mut self.cancelled, &o.cancelled),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self
    }
}

struct Worker {
    table: Table,
    found: Found,
}

impl Worker {
    fn play(mut self, index: u64, plan: &Plan, keep_moves: bool) -> Worker {
        let mut line: u64 = 0xcbf2_9ce4_8422_2325;
        let mut moves = keep_moves.then(String::new);
        let played = self.table.play(plan, index, |game, h, _| {
            // The hole, the direction where the mover chose it (a pass is its own hole) and
            // the seeds an entry enters.
            let turned = h.dir.map_or(0, |d| d.index() as u64 + 1) << 8;
            let entered = u64::from(h.entered) << 16;
            line = (line ^ u64::from(h.hole) ^ turned ^ entered).wrapping_mul(0x0100_0000_01b3);
            if let Some(m) = moves.as_mut() {
                if !m.is_empty() {
                    m.push(' ');
                }
                m.push_str(&h.label(game.rules()));
            }
            true
        });
        let f = &mut self.found;
        for (i, &n) in self.table.firings.fired.iter().enumerate() {
            if let (Some(total), Some(games)) = (f.fired.get_mut(i), f.fired_in.get_mut(i)) {
                *total += n;
                *games += u64::from(n > 0);
            }
        }
        for (total, n) in f.cancelled.iter_mut().zip(&self.table.firings.cancelled) {
            *total += n;
        }
        f.rows.push(Row {
            index,
            decision: Decision::of(&played),
            swapped: plan.player_at(index, 0) == 1,
            plies: played.plies,
            rounds: played.rounds,
            ended: Ended::of(&played),
            held: played.held,
            taken: played.taken,
            line,
            moves,
        });
        self
    }
}

/// A count out of a total, with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy)]
struct Share {
    count: u64,
    of: u64,
}

impl Share {
    fn rate(self) -> f64 {
        if self.of == 0 {
            0.0
        } else {
            self.count as f64 / self.of as f64
        }
    }

    /// The Wilson score interval: unlike the normal approximation, it stays within [0, 1]
    /// and is sound near 0% and 100% and for small samples.
    fn interval(self) -> (f64, f64) {
        if self.of == 0 {
            return (0.0, 1.0);
        }
        let n = self.of as f64;
        let p = self.rate();
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    fn text(self) -> String {
        let (lo, hi) = self.interval();
        format!(
            "{:5.1}% [{:.1}-{:.1}]",
            100.0 * self.rate(),
            100.0 * lo,
            100.0 * hi
        )
    }

    fn json(self) -> Value {
        let (lo, hi) = self.interval();
        json!({ "count": self.count, "of": self.of, "rate": round4(self.rate()), "ci95": [round4(lo), round4(hi)] })
    }

    /// Whether two shares differ by more than chance: a two-sided two-proportion z test at
    /// the 5% level, on the pooled proportion.
    fn differs(self, o: Share) -> bool {
        if self.of == 0 || o.of == 0 {
            return false;
        }
        let pooled = (self.count + o.count) as f64 / (self.of + o.of) as f64;
        let se = (pooled * (1.0 - pooled) * (1.0 / self.of as f64 + 1.0 / o.of as f64)).sqrt();
        se > 0.0 && ((self.rate() - o.rate()) / se).abs() > Z95
    }
}

/// How a length is spread over the games.
#[derive(Debug, Clone, Copy)]
struct Spread {
    n: u64,
    mean: f64,
    sd: f64,
    median: f64,
    p95: u32,
    max: u32,
}

impl Spread {
    /// The figures of `values` (sorted here). The 95th percentile is the nearest rank: the
    /// smallest value at least 95% of the games do not exceed.
    fn of(mut values: Vec<u32>) -> Spread {
        values.sort_unstable();
        let n = values.len();
        let sum: f64 = values.iter().map(|&v| f64::from(v)).sum();
        let mean = if n == 0 { 0.0 } else { sum / n as f64 };
        let var = if n < 2 {
            0.0
        } else {
            values
                .iter()
                .map(|&v| (f64::from(v) - mean).powi(2))
                .sum::<f64>()
                / (n - 1) as f64
        };
        let at = |i: usize| values.get(i).copied().map_or(0.0, f64::from);
        let median = match n {
            0 => 0.0,
            _ if n % 2 == 1 => at(n / 2),
            _ => (at(n / 2 - 1) + at(n / 2)) / 2.0,
        };
        let rank = ((0.95 * n as f64).ceil() as usize).max(1) - 1;
        Spread {
            n: n as u64,
            mean,
            sd: var.sqrt(),
            median,
            p95: values.get(rank).copied().unwrap_or(0),
            max: values.last().copied().unwrap_or(0),
        }
    }

    fn text(&self) -> String {
        format!(
            "mean {:.1}, median {}, 95th percentile {}, max {}",
            self.mean,
            trim(self.median),
            self.p95,
            self.max
        )
    }

    fn json(&self) -> Value {
        json!({
            "mean": round4(self.mean),
            "sd": round4(self.sd),
            "median": self.median,
            "p95": self.p95,
            "max": self.max,
        })
    }

    /// Whether two means differ by more than chance: a two-sided z test at the 5% level on
    /// the difference of means (Welch's statistic; the samples are large).
    fn differs(&self, o: &Spread) -> bool {
        if self.n < 2 || o.n < 2 {
            return false;
        }
        let se = (self.sd.powi(2) / self.n as f64 + o.sd.powi(2) / o.n as f64).sqrt();
        se > 0.0 && ((self.mean - o.mean) / se).abs() > Z95
    }
}

fn trim(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The figures of one reading.
struct Summary {
    games: u64,
    south: Share,
    north: Share,
    draws: Share,
    no_result: Share,
    unfinished: Share,
    /// The side that moves first, its wins among the decided games, and its advantage: its
    /// win rate less the second side's.
    first: Player,
    first_share: Share,
    advantage: f64,
    /// Wins of the --south player and of the --north player, wherever they sat.
    players: [Share; 2],
    plies: Spread,
    rounds: Option<Spread>,
    /// Each way a game ended, with its games: the clauses in the ruleset's order, then the
    /// limits.
    endings: Vec<(Ended, Share)>,
    /// Per clause: whether it can be counted, firings per game, the share of games in which
    /// it fired, cancellations.
    clauses: Vec<(usize, bool, f64, Share, u64)>,
    distinct: u64,
}

impl Summary {
    fn of(rules: &Rules, found: &Found) -> Summary {
        let rows = &found.rows;
        let games = rows.len() as u64;
        let count = |d: Decision| Share {
            count: rows.iter().filter(|r| r.decision == d).count() as u64,
            of: games,
        };
        let (south, north) = (count(Decision::SouthWins), count(Decision::NorthWins));
        let first = rules.first;
        let (first_wins, second_wins) = if first == 0 {
            (south.count, north.count)
        } else {
            (north.count, south.count)
        };
        let player_wins = |p: usize| Share {
            count: rows
                .iter()
                .filter(|r| {
                    r.decision
                        .winner()
                        .is_some_and(|w| (usize::from(w) ^ usize::from(r.swapped)) == p)
                })
                .count() as u64,
            of: games,
        };
        let mut endings: Vec<(Ended, Share)> = Vec::new();
        for r in rows {
            match endings.iter_mut().find(|(e, _)| *e == r.ended) {
                Some((_, s)) => s.count += 1,
                None => endings.push((
                    r.ended,
                    Share {
                        count: 1,
                        of: games,
                    },
                )),
            }
        }
        endings.sort_by_key(|(e, _)| *e);
        let counted = super::simulate::countable(rules);
        let clauses = (0..rules.clauses.len())
            .map(|i| {
                let fired = found.fired.get(i).copied().unwrap_or(0);
                let per_game = if games == 0 {
                    0.0
                } else {
                    fired as f64 / games as f64
                };
                let in_games = Share {
                    count: found.fired_in.get(i).copied().unwrap_or(0),
                    of: games,
                };
                let counted = counted.get(i).copied().unwrap_or(false);
                let cancelled = found.cancelled.get(i).copied().unwrap_or(0);
                (i, counted, per_game, in_games, cancelled)
            })
            .collect();
        let mut lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
        lines.sort_unstable();
        lines.dedup();
        Summary {
            games,
            south,
            north,
            draws: count(Decision::Draw),
            no_result: count(Decision::NoResult),
            unfinished: count(Decision::Unfinished),
            first,
            first_share: Share {
                count: first_wins,
                of: first_wins + second_wins,
            },
            advantage: if games == 0 {
                0.0
            } else {
                (first_wins as f64 - second_wins as f64) / games as f64
            },
            players: [player_wins(0), player_wins(1)],
            plies: Spread::of(rows.iter().map(|r| r.plies).collect()),
            rounds: rules
                .rounds
                .as_ref()
                .map(|_| Spread::of(rows.iter().map(|r| r.rounds).collect())),
            endings,
            clauses,
            distinct: lines.len() as u64,
        }
    }

    fn json(&self, rules: &Rules, args: &Args) -> Value {
        json!({
            "games": self.games,
            "results": {
                "south_wins": self.south.json(),
                "north_wins": self.north.json(),
                "draws": self.draws.json(),
                "no_result": self.no_result.json(),
                "unfinished": self.unfinished.json(),
            },
            "first_player": {
                "side": side(self.first),
                "wins_of_decided": self.first_share.json(),
                "advantage": round4(self.advantage),
            },
            "by_player": [
                { "player": args.south.to_string(), "wins": self.players[0].json() },
                { "player": args.north.to_string(), "wins": self.players[1].json() },
            ],
            "plies": self.plies.json(),
            "rounds": self.rounds.as_ref().map(Spread::json),
            "endings": self.endings.iter().map(|(e, s)| {
                let (name, kind) = e.describe(rules, args.max_plies);
                let mut v = s.json();
                if let Some(map) = v.as_object_mut() {
                    map.insert("ending".into(), json!(name));
                    map.insert("kind".into(), json!(kind));
                }
                v
            }).collect::<Vec<_>>(),
            "clauses": self.clauses.iter().map(|&(i, counted, per_game, in_games, cancelled)| {
                let c = rules.clauses.get(i);
                json!({
                    "name": c.map(|c| c.name.clone()),
                    "cites": c.and_then(|c| c.cites.clone()),
                    "counted": counted,
                    "per_game": counted.then_some(round4(per_game)),
                    "in_games": counted.then(|| in_games.json()),
                    "cancelled": (cancelled > 0).then_some(cancelled),
                })
            }).collect::<Vec<_>>(),
            "distinct_games": self.distinct,
        })
    }
}

/// One reading of the ruleset: its options, the ones the sweep set, and what it gave.
struct Reading {
    ruleset: Ruleset,
    /// The swept options' values in this reading (empty without a sweep).
    swept: Vec<(String, String)>,
    /// Which of them differ from the reference reading's.
    changed: Vec<(String, String)>,
    found: Found,
}

impl Reading {
    fn label(&self) -> String {
        if self.changed.is_empty() {
            return "reference".into();
        }
        (self.changed.iter())
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The readings to play: the ruleset as loaded, or each reading of the sweep (the
/// reference, with the options as loaded, first).
fn readings(args: &Args, base: Ruleset) -> Result<Vec<Reading>, Fail> {
    let Some(sweep) = &args.sweep else {
        return Ok(vec![Reading {
            ruleset: base,
            swept: Vec::new(),
            changed: Vec::new(),
            found: Found::new(0),
        }]);
    };
    let options = &base.rules.options;
    if options.is_empty() {
        return Err(Fail::Usage(format!(
            "{} has no options, so there is nothing to sweep",
            base.given
        )));
    }
    let all: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    let names: Vec<String> = if sweep.trim().is_empty() {
        all.iter().map(|n| n.to_string()).collect()
    } else {
        let mut names: Vec<String> = Vec::new();
        for name in sweep.split(',').map(str::trim) {
            if !all.contains(&name) {
                let hint = all
                    .iter()
                    .map(|&k| (strsim::levenshtein(name, k), k))
                    .filter(|&(d, k)| d <= 2.max(k.len() / 3))
                    .min_by_key(|&(d, _)| d)
                    .map(|(_, k)| format!("did you mean `{k}`? "))
                    .unwrap_or_default();
                return Err(Fail::Usage(format!(
                    "--sweep: {} has no option `{name}`; {hint}its options are {}",
                    base.given,
                    all.join(", ")
                )));
            }
            if names.iter().any(|n| n == name) {
                return Err(Fail::Usage(format!(
                    "--sweep names `{name}` twice; name each option once"
                )));
            }
            names.push(name.to_string());
        }
        names
    };
    if let Some((name, _)) = (args.options.options.iter()).find(|(n, _)| names.contains(n)) {
        return Err(Fail::Usage(format!(
            "`{name}` is both set by --option and swept by --sweep; leave it out of one"
        )));
    }
    let swept: Vec<&sow::rules::OptionValue> = names
        .iter()
        .filter_map(|n| options.iter().find(|o| &o.name == n))
        .collect();
    let reference: Vec<(String, String)> = (swept.iter())
        .map(|o| (o.name.clone(), o.value.clone()))
        .collect();
    // Each reading as the values of the swept options, the reference first.
    let mut sets: Vec<Vec<(String, String)>> = vec![reference.clone()];
    if args.combine {
        let mut product: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for o in &swept {
            product = product
                .into_iter()
                .flat_map(|set| {
                    o.values.iter().map(move |v| {
                        let mut set = set.clone();
                        set.push((o.name.clone(), v.clone()));
                        set
                    })
                })
                .collect();
            if product.len() > MAX_READINGS {
                break;
            }
        }
        sets.extend(product.into_iter().filter(|s| *s != reference));
    } else {
        for (i, o) in swept.iter().enumerate() {
            for v in o.values.iter().filter(|&v| *v != o.value) {
                let mut set = reference.clone();
                if let Some(slot) = set.get_mut(i) {
                    slot.1 = v.clone();
                }
                sets.push(set);
            }
        }
    }
    if sets.len() > MAX_READINGS {
        return Err(Fail::Usage(format!(
            "--sweep would play {} readings or more, over the limit of {MAX_READINGS}; name fewer options, or leave out --combine",
            sets.len()
        )));
    }
    sets.into_iter()
        .map(|set| {
            let mut all = args.options.options.clone();
            all.extend(set.iter().cloned());
            let ruleset =
                Ruleset::from_source(&base.given, base.file.clone(), base.source.clone(), &all)?;
            let changed = set
                .iter()
                .zip(&reference)
                .filter(|(a, b)| a != b)
                .map(|(a, _)| a.clone())
                .collect();
            Ok(Reading {
                ruleset,
                swept: set,
                changed,
                found: Found::new(0),
            })
        })
        .collect()
}

pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    let base = Ruleset::load(&args.ruleset, &args.options.options)?;
    base.print_warnings(format);
    let seats = base.rules.geometry.seats;
    if seats > 2 {
        return Err(Fail::Usage(format!(
            "{} has {seats} players; `sow analyze` measures the balance between two (use `sow simulate` for the results of each player)",
            base.rules.name
        )));
    }
    if args.games == 0 {
        return Err(Fail::Usage("--games must be at least 1".into()));
    }
    let target = args.games_out.as_ref().map(|path| Target {
        path: Some(path.clone()),
        force: args.force,
    });
    if let Some(t) = &target {
        t.check()?;
    }
    let seed_given = args.seed.is_some();
    let plan = Plan {
        first_seed: args.seed.unwrap_or_else(super::simulate::fresh_seed),
        bots: [args.south, args.north],
        alternate: args.alternate,
        opening: args.opening,
        max_plies: args.max_plies,
    };
    let warnings = base.warnings_json();
    let mut readings = readings(&args, base)?;
    let pool = series::pool(args.threads)?;
    let progress = Progress::new(args.games.saturating_mul(readings.len() as u64));
    let keep_moves = target.is_some();
    for reading in &mut readings {
        let rules = &reading.ruleset.rules;
        let clauses = rules.clauses.len();
        let mut found = series::run(
            &pool,
            args.games,
            &progress,
            || Worker {
                table: Table::new(rules, &plan),
                found: Found::new(clauses),
            },
            |w, i| w.play(i, &plan, keep_moves),
            |w| w.found,
            || Found::new(clauses),
            Found::merge,
        );
        found.rows.sort_by_key(|r| r.index);
        reading.found = found;
    }
    progress.finish(pool.current_num_threads());

    let written = match (&target, &args.games_out) {
        (Some(_), Some(path)) => {
            write_games(path, args.force, &readings, &plan, args.sweep.is_some())?;
            Some(path.display().to_string())
        }
        _ => None,
    };
    let summaries: Vec<Summary> = (readings.iter())
        .map(|r| Summary::of(&r.ruleset.rules, &r.found))
        .collect();
    match format {
        Format::Text => {
            let mut out = match (readings.first(), summaries.first()) {
                (Some(r), Some(s)) if args.sweep.is_none() => {
                    one_text(&args, &plan, seed_given, r, s)
                }
                _ => sweep_text(&args, &plan, seed_given, &readings, &summaries),
            };
            if let Some(path) = &written {
                out.push_str(&format!(
                    "\nOne line per game written to {}.\n",
                    escape(path)
                ));
            }
            emit_text(&out);
        }
        Format::Json => {
            let first = readings.first().map(|r| r.ruleset.json());
            let mut doc = json!({
                "command": "analyze",
                "ok": true,
                "ruleset": first,
                "games": args.games,
                "first_seed": plan.first_seed,
                "players": { "south": args.south.to_string(), "north": args.north.to_string() },
                "alternate": args.alternate,
                "opening_plies": args.opening,
                "max_plies": args.max_plies,
                "games_out": written,
                "diagnostics": warnings,
            });
            let reference = summaries.first();
            let entries: Vec<Value> = readings
                .iter()
                .zip(&summaries)
                .map(|(r, s)| {
                    let mut v = s.json(&r.ruleset.rules, &args);
                    if args.sweep.is_some()
                        && let Some(map) = v.as_object_mut()
                    {
                        map.insert("options".into(), pairs_json(&r.swept));
                        map.insert("changed".into(), pairs_json(&r.changed));
                        if let Some(base) = reference {
                            map.insert("differs_from_reference".into(), differs_json(s, base));
                        }
                    }
                    v
                })
                .collect();
            if let Some(map) = doc.as_object_mut() {
                if args.sweep.is_some() {
                    map.insert("readings".into(), Value::Array(entries));
                } else if let Some(one) = entries.into_iter().next() {
                    map.insert("summary".into(), one);
                }
            }
            emit_json(&doc);
        }
    }
    Ok(Exit::Ok)
}

fn pairs_json(pairs: &[(String, String)]) -> Value {
    Value::Object(
        pairs
            .iter()
            .map(|(n, v)| (n.clone(), Value::String(v.clone())))
            .collect(),
    )
}

fn differs_json(s: &Summary, base: &Summary) -> Value {
    json!({
        "south_wins": s.south.differs(base.south),
        "north_wins": s.north.differs(base.north),
        "draws": s.draws.differs(base.draws),
        "first_player": s.first_share.differs(base.first_share),
        "plies": s.plies.differs(&base.plies),
        "rounds": match (&s.rounds, &base.rounds) {
            (Some(a), Some(b)) => Some(a.differs(b)),
            _ => None,
        },
    })
}

/// The head of the report: the ruleset, the games, the players.
fn head(args: &Args, plan: &Plan, seed_given: bool, ruleset: &Ruleset, what: &str) -> String {
    let rules = &ruleset.rules;
    let games = if rules.rounds.is_some() {
        match args.games {
            1 => "1 match".to_string(),
            n => format!("{n} matches"),
        }
    } else {
        plural(args.games as usize, "game")
    };
    let mut out = format!(
        "{} ({}), {what}\n{games}{}, seeds {} to {}{}, South {} vs North {}\n",
        escape(&rules.name),
        escape(&ruleset.given),
        if args.sweep.is_some() {
            " per reading"
        } else {
            ""
        },
        plan.first_seed,
        plan.seed(args.games - 1),
        if seed_given {
            ""
        } else {
            " (picked: pass --seed to repeat)"
        },
        args.south,
        args.north
    );
    let mut notes = Vec::new();
    if args.alternate {
        notes.push("the players change sides every game".to_string());
    }
    if args.opening > 0 {
        notes.push(format!(
            "the first {} at random",
            plural(args.opening as usize, "ply").replace("plys", "plies")
        ));
    }
    if !notes.is_empty() {
        out.push_str(&format!("({})\n", notes.join("; ")));
    }
    out
}

fn options_text(ruleset: &Ruleset) -> String {
    let changed = ruleset.changed_options();
    if changed.is_empty() {
        "default options".to_string()
    } else {
        (changed.iter())
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The report of one reading.
fn one_text(args: &Args, plan: &Plan, seed_given: bool, r: &Reading, s: &Summary) -> String {
    let rules = &r.ruleset.rules;
    let mut out = head(
        args,
        plan,
        seed_given,
        &r.ruleset,
        &options_text(&r.ruleset),
    );
    out.push('\n');
    out.push_str(&format!("results        South wins  {}\n", s.south.text()));
    out.push_str(&format!("               North wins  {}\n", s.north.text()));
    out.push_str(&format!("               draws       {}\n", s.draws.text()));
    if s.no_result.count > 0 {
        out.push_str(&format!(
            "               no result   {}  (stopped by an engine limit)\n",
            s.no_result.text()
        ));
    }
    if s.unfinished.count > 0 {
        out.push_str(&format!(
            "               unfinished  {}  (still going after {} plies)\n",
            s.unfinished.text(),
            args.max_plies
        ));
    }
    out.push_str(&format!(
        "first player   {} moves first and wins {} of the {} decided; advantage {:+.1} points\n",
        sow::notation::player_name(s.first),
        s.first_share.text().trim_start(),
        s.first_share.of,
        100.0 * s.advantage
    ));
    if args.south != args.north && !args.alternate {
        out.push_str(
            "               (the sides have different players: with --alternate, or one player on\n                both sides, the first player's figures are the first move's, not the player's)\n",
        );
    }
    if args.alternate || args.south != args.north {
        let width = args
            .south
            .to_string()
            .len()
            .max(args.north.to_string().len());
        out.push_str(&format!(
            "by player      {:<width$}  wins {}\n               {:<width$}  wins {}\n",
            args.south.to_string(),
            s.players[0].text(),
            args.north.to_string(),
            s.players[1].text()
        ));
    }
    let (per, pers) = if rules.rounds.is_some() {
        ("match", "matches")
    } else {
        ("game", "games")
    };
    out.push_str(&format!("plies          per {per}: {}\n", s.plies.text()));
    if let Some(rounds) = &s.rounds {
        out.push_str(&format!("rounds         per match: {}\n", rounds.text()));
    }
    out.push_str(&format!(
        "distinct       {} of {} {pers}{}\n",
        s.distinct,
        s.games,
        if s.distinct * 2 < s.games {
            " (few: --opening N plays the first N plies at random)"
        } else {
            ""
        }
    ));
    out.push_str(&format!("\nhow {pers} ended\n"));
    for (e, share) in &s.endings {
        let (name, _) = e.describe(rules, args.max_plies);
        out.push_str(&format!(
            "  {:<52} {:>7}  {}\n",
            escape(&name),
            share.count,
            share.text()
        ));
    }
    out.push_str(&format!(
        "\nclause                                        per {per}   fired in\n"
    ));
    for &(i, counted, per_game, in_games, cancelled) in &s.clauses {
        let Some(c) = rules.clauses.get(i) else {
            continue;
        };
        let title = match &c.cites {
            Some(cites) => format!("{} [{cites}]", c.name),
            None => c.name.clone(),
        };
        let title = escape(&title).into_owned();
        if !counted {
            let why = super::simulate::uncounted(rules, i);
            out.push_str(&format!("  {title:<42}        -   ({why})\n"));
            continue;
        }
        out.push_str(&format!(
            "  {title:<42} {per_game:>8.2}   {}",
            in_games.text()
        ));
        if cancelled > 0 {
            out.push_str(&format!("   cancelled {cancelled}"));
        }
        out.push('\n');
    }
    out.push_str("\n[low-high]: 95% Wilson score intervals.\n");
    out.push_str(&footer(args, plan));
    out
}

/// How to play a game again.
fn footer(args: &Args, plan: &Plan) -> String {
    let mut out = String::new();
    if args.opening == 0 {
        out.push_str(&format!(
            "Game i is played again by `sow play {} --south {} --north {} --seed {}+i`",
            super::shell_quote(&args.ruleset),
            args.south,
            args.north,
            plan.first_seed
        ));
        if args.alternate {
            out.push_str(" (odd i: the players swapped)");
        }
        out.push_str(".\n");
    }
    out
}

/// The report of a sweep: one row per reading, then the endings of each.
fn sweep_text(
    args: &Args,
    plan: &Plan,
    seed_given: bool,
    readings: &[Reading],
    summaries: &[Summary],
) -> String {
    let (Some(first), Some(base)) = (readings.first(), summaries.first()) else {
        return String::new();
    };
    let rules = &first.ruleset.rules;
    let names: Vec<&str> = first.swept.iter().map(|(n, _)| n.as_str()).collect();
    let what = format!(
        "{} readings of {}{}",
        readings.len(),
        names.join(", "),
        if args.combine {
            " (every combination)"
        } else {
            ""
        }
    );
    let mut out = head(args, plan, seed_given, &first.ruleset, &what);
    let reference = (first.swept.iter())
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    out.push_str(&format!("reference: {reference}\n\n"));
    let width = readings
        .iter()
        .map(|r| r.label().chars().count())
        .max()
        .unwrap_or(9)
        .max(9);
    let has_rounds = rules.rounds.is_some();
    out.push_str(&format!(
        "{:<width$}   {:<21}   {:<21}   {:<21}   {:<21}  {:>9}{}\n",
        "reading",
        "South wins",
        "North wins",
        "draws",
        "first player wins",
        "plies",
        if has_rounds { "     rounds" } else { "" }
    ));
    for (i, (r, s)) in readings.iter().zip(summaries).enumerate() {
        let mark = |differs: bool| if i > 0 && differs { '*' } else { ' ' };
        let cell = |share: Share, differs: bool| format!("{}{}", share.text(), mark(differs));
        let mut line = format!(
            "{:<width$}  {:<22}  {:<22}  {:<22}  {:<22}  {:>8.1}{}",
            escape(&r.label()),
            cell(s.south, s.south.differs(base.south)),
            cell(s.north, s.north.differs(base.north)),
            cell(s.draws, s.draws.differs(base.draws)),
            cell(s.first_share, s.first_share.differs(base.first_share)),
            s.plies.mean,
            mark(s.plies.differs(&base.plies)),
        );
        if let (Some(a), Some(b)) = (&s.rounds, &base.rounds) {
            line.push_str(&format!("  {:>8.2}{}", a.mean, mark(a.differs(b))));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("\nhow games ended, by reading\n");
    for (r, s) in readings.iter().zip(summaries) {
        let endings = (s.endings.iter())
            .map(|(e, share)| {
                let (name, _) = e.describe(&r.ruleset.rules, args.max_plies);
                format!("{} {:.1}%", escape(&name), 100.0 * share.rate())
            })
            .collect::<Vec<_>>()
            .join(", ");
        out.push_str(&format!("  {:<width$}  {endings}\n", escape(&r.label())));
    }
    out.push_str(&format!(
        "\n[low-high]: 95% Wilson score intervals. first player wins: of the decided games.\nplies{}: the mean per {}. *: differs from the reference by more than chance (5% level).\n",
        if has_rounds { ", rounds" } else { "" },
        if has_rounds { "match" } else { "game" }
    ));
    out.push_str(&footer(args, plan));
    out
}

/// Writes every game as a line of JSON, in the order of the readings and the games.
fn write_games(
    path: &PathBuf,
    force: bool,
    readings: &[Reading],
    plan: &Plan,
    sweep: bool,
) -> Result<(), Fail> {
    let fail = |e: std::io::Error| Fail::Usage(format!("cannot write {}: {e}", path.display()));
    let mut open = std::fs::OpenOptions::new();
    open.write(true);
    if force {
        open.create(true).truncate(true);
    } else {
        // Even a file made since the check is not overwritten.
        open.create_new(true);
    }
    let file = open.open(path).map_err(fail)?;
    let mut out = std::io::BufWriter::new(file);
    for r in readings {
        let rules = &r.ruleset.rules;
        let options = pairs_json(&r.ruleset.changed_options());
        for row in &r.found.rows {
            let (ending, kind) = row.ended.describe(rules, plan.max_plies);
            let [south, north] = [0, 1].map(|s| plan.bot(row.index, s).to_string());
            let mut line = json!({
                "game": row.index,
                "seed": plan.seed(row.index),
                "south": south,
                "north": north,
                "options": options,
                "result": row.decision.json(),
                "plies": row.plies,
                "rounds": row.rounds,
                "ending": ending,
                "ending_kind": kind,
                "held": { "south": row.held[0], "north": row.held[1] },
                "removed": { "south": row.taken[0], "north": row.taken[1] },
                "moves": row.moves,
            });
            if sweep && let Some(map) = line.as_object_mut() {
                map.insert("reading".into(), json!(r.label()));
            }
            let text = serde_json::to_string(&line).unwrap_or_default();
            out.write_all(text.as_bytes())
                .and_then(|()| out.write_all(b"\n"))
                .map_err(fail)?;
        }
    }
    out.flush().map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_published_values() {
        let close = |a: f64, b: f64| (a - b).abs() < 5e-5;
        // 5 of 100 and 0 of 100 (Wilson score, z = 1.96).
        let (lo, hi) = Share { count: 5, of: 100 }.interval();
        assert!(close(lo, 0.0215) && close(hi, 0.1118), "{lo} {hi}");
        let (lo, hi) = Share { count: 0, of: 100 }.interval();
        assert!(close(lo, 0.0) && close(hi, 0.0370), "{lo} {hi}");
        let (lo, hi) = Share { count: 50, of: 50 }.interval();
        assert!(close(lo, 0.9287) && close(hi, 1.0), "{lo} {hi}");
    }

    #[test]
    fn differences_beyond_chance() {
        let share = |count, of| Share { count, of };
        assert!(share(550, 1000).differs(share(450, 1000)));
        assert!(!share(520, 1000).differs(share(500, 1000)));
        assert!(!share(0, 10).differs(share(0, 10)));
        let a = Spread::of((0..1000).map(|i| 30 + i % 7).collect());
        let b = Spread::of((0..1000).map(|i| 31 + i % 7).collect());
        assert!(a.differs(&b));
        assert!(!a.differs(&a));
    }

    #[test]
    fn spreads_by_nearest_rank() {
        let s = Spread::of((1..=20).collect());
        assert_eq!((s.median, s.p95, s.max), (10.5, 19, 20));
        let s = Spread::of(vec![7]);
        assert_eq!((s.median, s.p95, s.max, s.sd), (7.0, 7, 7, 0.0));
        let s = Spread::of(vec![3, 1, 2]);
        assert_eq!((s.mean, s.median, s.p95), (2.0, 2.0, 3));
    }
}

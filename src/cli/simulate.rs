//! `sow simulate`: many seeded games between computer players, on all cores, and the
//! statistics an author wants about a variant.
//!
//! Game `i` uses the seed `S + i`, so every game can be played again on its own, and the
//! results do not depend on the number of threads: the tallies are sums and maxima, and the
//! example kept for endless moves and cycles is the one of the lowest-numbered game.

use serde_json::{Value, json};

use sow::engine::{Game, Move, Status};
use sow::rules::{ClauseId, ClauseInfo, MAX_SEATS, Rules};
use std::sync::Arc;

use super::players::{Bot, players_help};
use super::series::{self, Plan, Progress, Table};
use sow::render::escape;

use super::{
    Exit, Fail, Format, OptionArgs, Ruleset, emit_json, emit_text, plural, position_notation,
    shell_quote,
};

/// The longest move (in laps) whose suggested replay shows every lap: longer ones are shown
/// a ply a line, so that the command never prints millions of lines.
const LAPS_SHOWN: u32 = 200;

const AFTER_HELP: &str = concat!(
    "\
Game i is played with the seed S+i: `sow play RULESET --south random --north random --seed S+i`
plays it again. Results do not depend on --threads. For the first endless move and the first
cycle found, the exact `sow replay` command that shows it is printed. `sow analyze` gives the
balance figures (intervals, lengths, endings, option sweeps).

",
    players_help!(),
    "

Examples:
  sow simulate RULESET --games 10000 --seed 1
  sow simulate RULESET --games 1000 --seed 7 --south greedy --option NAME=VALUE
  sow simulate RULESET --games 200 --seed 1 --south mcts:playouts=2000 --north greedy
  sow simulate RULESET --games 2000 --seed 1 --threads 1      (to measure scaling)
  sow --format json simulate RULESET --games 100 --seed 3"
);

/// Play many seeded games between computer players and report statistics.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The ruleset: a shipped name (see `sow list`) or a path.
    pub ruleset: String,

    /// How many games (or matches) to play.
    #[arg(long, short = 'n', default_value_t = 1000)]
    pub games: u64,

    /// Seed of the first game; game i uses seed+i. By default one is picked and printed.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Who plays South: random, greedy, alphabeta[:depth=N,nodes=N] or mcts[:playouts=N].
    #[arg(long, default_value = "random", value_name = "PLAYER")]
    pub south: Bot,

    /// Who plays North (as --south). In a game of more than two players, --south plays the
    /// first player and --north every other.
    #[arg(long, default_value = "random", value_name = "PLAYER")]
    pub north: Bot,

    /// Worker threads (default: one per core; at most 256).
    #[arg(long)]
    pub threads: Option<usize>,

    /// A game still going after this many plies is stopped and counted as unfinished.
    #[arg(long, default_value_t = 10_000)]
    pub max_plies: u32,

    #[command(flatten)]
    pub options: OptionArgs,
}

/// The first game where something happened, to replay it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Example {
    game: u64,
    seed: u64,
    ply: u32,
    /// The laps of the ply's move.
    laps: u32,
}

fn earliest(a: Option<Example>, b: Option<Example>) -> Option<Example> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.game < x.game { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// What the games added up to.
#[derive(Debug, Clone)]
struct Tally {
    games: u64,
    wins: [u64; MAX_SEATS],
    draws: u64,
    unfinished: u64,
    /// Unfinished games stopped while the players were still arranging their seeds.
    unfinished_arranging: u64,
    plies: u64,
    plies_max: u32,
    /// Plies that sowed and ended (endless moves are counted apart), and their laps. A pass,
    /// a seed put or picked up in an arrangement and a decision that only closes a move sow
    /// no lap, and are left out: they would pull the mean below one lap a move.
    moves: u64,
    laps: u64,
    laps_max: u32,
    rounds: u64,
    rounds_max: u32,
    /// Per clause: how many times it acted.
    fired: Vec<u64>,
    /// Per capture clause: how many times `cancel_if` undid it.
    cancelled: Vec<u64>,
    endless: u64,
    endless_games: u64,
    endless_first: Option<Example>,
    /// Moves stopped by the engine's lap limit (not proven endless), and the first of them.
    lap_limits: u64,
    lap_limit_first: Option<Example>,
    /// Games stopped by one of the engine's safety limits, with no result.
    stopped: u64,
    cycles: u64,
    cycle_first: Option<Example>,
}

impl Tally {
    fn new(clauses: usize) -> Tally {
        Tally {
            games: 0,
            wins: [0; MAX_SEATS],
            draws: 0,
            unfinished: 0,
            unfinished_arranging: 0,
            plies: 0,
            plies_max: 0,
            moves: 0,
            laps: 0,
            laps_max: 0,
            rounds: 0,
            rounds_max: 0,
            fired: vec![0; clauses],
            cancelled: vec![0; clauses],
            endless: 0,
            endless_games: 0,
            endless_first: None,
            lap_limits: 0,
            lap_limit_first: None,
            stopped: 0,
            cycles: 0,
            cycle_first: None,
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.games += o.games;
        for (w, o) in self.wins.iter_mut().zip(o.wins) {
            *w += o;
        }
        self.draws += o.draws;
        self.unfinished += o.unfinished;
        self.unfinished_arranging += o.unfinished_arranging;
        self.plies += o.plies;
        self.plies_max = self.plies_max.max(o.plies_max);
        self.moves += o.moves;
        self.laps += o.laps;
        self.laps_max = self.laps_max.max(o.laps_max);
        self.rounds += o.rounds;
        self.rounds_max = self.rounds_max.max(o.rounds_max);
        for (a, b) in self.fired.iter_mut().zip(&o.fired) {
            *a += b;
        }
        for (a, b) in self.cancelled.iter_mut().zip(&o.cancelled) {
            *a += b;
        }
        self.endless += o.endless;
        self.endless_games += o.endless_games;
        self.endless_first = earliest(self.endless_first, o.endless_first);
        self.lap_limits += o.lap_limits;
        self.lap_limit_first = earliest(self.lap_limit_first, o.lap_limit_first);
        self.stopped += o.stopped;
        self.cycles += o.cycles;
        self.cycle_first = earliest(self.cycle_first, o.cycle_first);
        self
    }
}

/// One worker's table and tally.
struct Worker {
    table: Table,
    tally: Tally,
}

impl Worker {
    fn play(mut self, index: u64, plan: &Plan) -> Worker {
        let seed = plan.seed(index);
        let Worker { table, tally: t } = &mut self;
        let mut had_endless = false;
        t.games += 1;
        let played = table.play(plan, index, |game, _, report| {
            let here = Some(Example {
                game: index,
                seed,
                ply: game.ply(),
                laps: report.laps,
            });
            if report.lap_limit {
                t.lap_limits += 1;
                t.lap_limit_first = earliest(t.lap_limit_first, here);
            } else if report.endless {
                t.endless += 1;
                had_endless = true;
                t.endless_first = earliest(t.endless_first, here);
            } else if report.laps > 0 {
                t.moves += 1;
                t.laps += u64::from(report.laps);
                t.laps_max = t.laps_max.max(report.laps);
            }
            if report.cycle {
                t.cycles += 1;
                t.cycle_first = earliest(t.cycle_first, here);
            }
            true
        });
        t.unfinished += u64::from(played.unfinished);
        t.unfinished_arranging += u64::from(played.arranging);
        match played.status {
            Status::Over { winner: Some(w) } => {
                if let Some(wins) = t.wins.get_mut(usize::from(w)) {
                    *wins += 1;
                }
            }
            Status::Over { winner: None } => t.draws += 1,
            Status::Stopped { .. } => t.stopped += 1,
            Status::Playing => {}
        }
        for (total, n) in t.fired.iter_mut().zip(&table.firings.fired) {
            *total += n;
        }
        for (total, n) in t.cancelled.iter_mut().zip(&table.firings.cancelled) {
            *total += n;
        }
        t.endless_games += u64::from(had_endless);
        t.plies += u64::from(played.plies);
        t.plies_max = t.plies_max.max(played.plies);
        t.rounds += u64::from(played.rounds);
        t.rounds_max = t.rounds_max.max(played.rounds);
        self
    }
}

pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    let ruleset = Ruleset::load(&args.ruleset, &args.options.options)?;
    ruleset.print_warnings(format);
    let rules = ruleset.rules.clone();
    if args.games == 0 {
        return Err(Fail::Usage("--games must be at least 1".into()));
    }
    let seed_given = args.seed.is_some();
    let plan = Plan {
        first_seed: args.seed.unwrap_or_else(fresh_seed),
        bots: [args.south, args.north],
        alternate: false,
        opening: 0,
        max_plies: args.max_plies,
    };
    let pool = series::pool(args.threads)?;
    let progress = Progress::new(args.games);
    let clauses = rules.clauses.len();
    let tally = series::run(
        &pool,
        args.games,
        &progress,
        || Worker {
            table: Table::new(&rules, &plan),
            tally: Tally::new(clauses),
        },
        |w, i| w.play(i, &plan),
        |w| w.tally,
        || Tally::new(clauses),
        Tally::merge,
    );
    progress.finish(pool.current_num_threads());

    let endless_cmd = tally
        .endless_first
        .map(|e| replay_command(&ruleset, plan, e, e.laps <= LAPS_SHOWN, |r| r.endless));
    let limit_cmd = tally
        .lap_limit_first
        .map(|e| replay_command(&ruleset, plan, e, false, |r| r.lap_limit));
    let cycle_cmd = tally
        .cycle_first
        .map(|e| replay_command(&ruleset, plan, e, false, |r| r.cycle));
    match format {
        Format::Text => emit_text(&text(
            &ruleset,
            &args,
            plan,
            seed_given,
            &tally,
            endless_cmd.as_deref(),
            limit_cmd.as_deref(),
            cycle_cmd.as_deref(),
        )),
        Format::Json => emit_json(&json!({
            "command": "simulate",
            "ok": true,
            "ruleset": ruleset.json(),
            "games": tally.games,
            "first_seed": plan.first_seed,
            "players": { "south": args.south.to_string(), "north": args.north.to_string() },
            "max_plies": args.max_plies,
            "results": {
                "south_wins": tally.wins[0],
                "north_wins": tally.wins[1],
                "wins": (rules.geometry.players())
                    .zip(tally.wins)
                    .map(|(p, w)| (rules.player_key(p).to_string(), Value::from(w)))
                    .collect::<serde_json::Map<String, Value>>(),
                "draws": tally.draws,
                "unfinished": tally.unfinished,
                "unfinished_arranging": tally.unfinished_arranging,
                "stopped_by_a_limit": tally.stopped,
            },
            "plies": { "mean": mean3(tally.plies, tally.games), "max": tally.plies_max },
            "laps_per_move": { "mean": mean3(tally.laps, tally.moves), "max": tally.laps_max, "endless_moves_excluded": true },
            "rounds": rules.rounds.as_ref().map(|_| json!({ "mean": mean3(tally.rounds, tally.games), "max": tally.rounds_max })),
            "clauses": clauses_json(&rules, &tally),
            "endless_moves": example_json(tally.endless, tally.endless_first, endless_cmd.as_deref()),
            "lap_limit_moves": example_json(tally.lap_limits, tally.lap_limit_first, limit_cmd.as_deref()),
            "cycles": example_json(tally.cycles, tally.cycle_first, cycle_cmd.as_deref()),
            "diagnostics": ruleset.warnings_json(),
        })),
    }
    Ok(Exit::Ok)
}

fn mean(total: u64, count: u64) -> f64 {
    if count == 0 {
        0.0
    } else {
        total as f64 / count as f64
    }
}

/// A mean for JSON: three decimals say all there is to say about a sample of games.
fn mean3(total: u64, count: u64) -> f64 {
    (mean(total, count) * 1000.0).round() / 1000.0
}

fn percent(n: u64, of: u64) -> String {
    format!("{:.1}%", 100.0 * mean(n, of))
}

/// Why clause `i`, not [`countable`], has no count: it leaves no trace event, or it is the
/// concession, which is traced but never chosen by the players of a simulation.
pub(super) fn uncounted(rules: &Rules, i: usize) -> &'static str {
    if rules.concede.is_some_and(|e| usize::from(e.id) == i) {
        "players never concede"
    } else {
        "leaves no trace event"
    }
}

/// Clauses that leave a trace event when they act; the others (legality, who starts) cannot
/// be counted from the trace.
pub(super) fn countable(rules: &Rules) -> Vec<bool> {
    let mut c = vec![false; rules.clauses.len()];
    let mut mark = |id: ClauseId| {
        if let Some(x) = c.get_mut(id as usize) {
            *x = true;
        }
    };
    rules.relay.iter().for_each(|r| mark(r.id));
    rules
        .drop_captures
        .iter()
        .chain(&rules.lap_captures)
        .chain(&rules.move_captures)
        .chain(&rules.put_captures)
        .chain(&rules.pick_captures)
        .chain(&rules.end_captures)
        .for_each(|r| mark(r.id));
    // An arrangement counts each seed put or picked up.
    rules.arrange.iter().for_each(|a| mark(a.id));
    rules.extra_turns.iter().for_each(|x| mark(x.id));
    // An entry counts each entry move made; a race, each race run to its end.
    rules.entry.iter().for_each(|e| mark(e.id));
    rules.race.iter().for_each(|r| mark(r.id));
    // Skips, redirects and effects count each firing too (a skip or redirect once a seed).
    rules.skips.iter().for_each(|k| mark(k.id));
    rules.redirects.iter().for_each(|r| mark(r.id));
    (rules.drop_effects.iter())
        .chain(&rules.lap_effects)
        .chain(&rules.move_effects)
        .chain(&rules.put_effects)
        .chain(&rules.pick_effects)
        .chain(&rules.round_effects)
        .chain(&rules.start_effects)
        .for_each(|e| mark(e.id));
    [
        Some(rules.no_move),
        Some(rules.endless_move),
        rules.cycle,
        rules.no_capture,
        rules.no_further_capture,
        rules.no_capture_reachable,
        // Not `concede`: the players of a simulation never concede.
    ]
    .iter()
    .flatten()
    .for_each(|e| mark(e.id));
    rules.end_when.iter().for_each(|(_, e)| mark(e.id));
    rules.rounds.iter().for_each(|r| mark(r.id));
    (rules.rounds.iter())
        .filter_map(|r| r.give.as_ref())
        .for_each(|g| mark(g.id));
    c
}

fn clause_title(c: &ClauseInfo) -> String {
    match &c.cites {
        Some(cites) => format!("{} [{cites}]", c.name),
        None => c.name.clone(),
    }
}

/// Each clause with whether it leaves a trace event (so that its firings can be counted),
/// how many times it fired and how many times it was cancelled.
fn clause_rows<'a>(
    rules: &'a Rules,
    t: &'a Tally,
) -> impl Iterator<Item = (&'a ClauseInfo, bool, u64, u64)> + 'a {
    rules
        .clauses
        .iter()
        .zip(countable(rules))
        .zip(t.fired.iter().zip(&t.cancelled))
        .map(|((c, counted), (&fired, &cancelled))| (c, counted, fired, cancelled))
}

fn clauses_json(rules: &Rules, t: &Tally) -> Vec<Value> {
    clause_rows(rules, t)
        .map(|(c, counted, fired, cancelled)| {
            json!({
                "name": c.name,
                "cites": c.cites,
                "fired": counted.then_some(fired),
                "cancelled": (cancelled > 0).then_some(cancelled),
                "per_game": counted.then(|| mean3(fired, t.games)),
            })
        })
        .collect()
}

fn example_json(count: u64, first: Option<Example>, command: Option<&str>) -> Value {
    json!({
        "count": count,
        "first": first.map(|e| json!({ "game": e.game, "seed": e.seed, "ply": e.ply, "laps": e.laps, "replay": command })),
    })
}

/// The exact command that replays an example: the game is played again, on one thread, up to
/// the ply in question, to write its moves out. It shows every lap only when asked (`laps`),
/// else a line a ply: a game of a thousand plies, or a move of a million laps, then prints a
/// few thousand lines at most.
///
/// A game longer than [`MOVES_SHOWN`] plies is replayed from a set-up position (`--from`) a
/// few plies before the example instead, where that position, played on with the moves after
/// it, is found to give the example (`shows`: an endless move, the lap limit, a cycle) at the
/// same ply; the start nearest the example is tried first, then starts twice as far back each
/// time. A position's notation does not carry everything a game holds (the cycle rule's
/// record of earlier positions, for one), so the check is what makes the shorter command
/// exact; where no start passes it, the command lists every move of the game.
fn replay_command(
    ruleset: &Ruleset,
    plan: Plan,
    e: Example,
    laps: bool,
    shows: fn(&sow::engine::PlyReport) -> bool,
) -> String {
    let rules = &ruleset.rules;
    let mut table = Table::new(rules, &plan);
    let mut moves = Vec::new();
    // The position before each ply, kept only for a game too long to list whole.
    let long = usize::try_from(e.ply).is_ok_and(|p| p > MOVES_SHOWN);
    let mut before = Vec::new();
    if long {
        before.push(*Game::new(rules.clone()).position());
    }
    table.play(&plan, e.game, |game, h, _| {
        moves.push(h);
        if long {
            before.push(*game.position());
        }
        game.ply() < e.ply
    });
    let mut cmd = format!("sow replay {}", shell_quote(&ruleset.given));
    for (n, v) in ruleset.changed_options() {
        cmd.push_str(&format!(" --option {}", shell_quote(&format!("{n}={v}"))));
    }
    // A cycle is best replayed from the earlier time its position stood (the last such time
    // before the example, where the notation shows it); then from starts further and further
    // back.
    let last = before.len().saturating_sub(1);
    let earlier =
        (before.get(..last).unwrap_or_default().iter()).rposition(|p| before.get(last) == Some(p));
    let doubling = std::iter::successors(Some(1usize), |b| b.checked_mul(2))
        .take_while(|&back| back < moves.len())
        .map(|back| moves.len() - back);
    // Each start tried as the command will give it: in the notation `--from` reads.
    let start = (moves.len() > MOVES_SHOWN)
        .then(|| {
            earlier.into_iter().chain(doubling).find_map(|from| {
                let pos = position_notation(rules, before.get(from)?);
                let rest = moves.get(from..).unwrap_or_default();
                replays(rules, &pos, rest, shows).then_some((from, pos))
            })
        })
        .flatten();
    if let Some((_, pos)) = &start {
        cmd.push_str(&format!(" --from {}", shell_quote(pos)));
    }
    let shown = moves
        .get(start.map_or(0, |(from, _)| from)..)
        .unwrap_or_default();
    cmd.push_str(&format!(
        " --moves '{}' --detail {}",
        shown
            .iter()
            .map(|m| m.label(rules))
            .collect::<Vec<_>>()
            .join(" "),
        if laps { "laps" } else { "plies" }
    ));
    cmd
}

/// The most moves a suggested replay lists before it starts from a set-up position instead.
const MOVES_SHOWN: usize = 40;

/// Whether the game set up at `pos` (in `--from` notation), played on with `moves`, gives at
/// its last ply, and not before, what `shows` looks for.
fn replays(
    rules: &Arc<Rules>,
    pos: &str,
    moves: &[Move],
    shows: fn(&sow::engine::PlyReport) -> bool,
) -> bool {
    let Ok(start) = sow::notation::parse_position(rules, pos) else {
        return false;
    };
    let mut game = Game::from_position(rules.clone(), start);
    let last = moves.len().saturating_sub(1);
    moves
        .iter()
        .enumerate()
        .all(|(i, &mv)| match game.play(mv, &mut ()) {
            Ok(report) => shows(&report) == (i == last),
            Err(_) => false,
        })
}

fn text(
    ruleset: &Ruleset,
    args: &Args,
    plan: Plan,
    seed_given: bool,
    t: &Tally,
    endless_cmd: Option<&str>,
    limit_cmd: Option<&str>,
    cycle_cmd: Option<&str>,
) -> String {
    let rules = &ruleset.rules;
    let mut out = String::new();
    let changed = ruleset.changed_options();
    let options = if changed.is_empty() {
        "default options".to_string()
    } else {
        changed
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    out.push_str(&format!(
        "{} ({}), {options}\n",
        escape(&rules.name),
        escape(&ruleset.given)
    ));
    out.push_str(&format!(
        "{}, seeds {} to {}{}, {}\n\n",
        plural(
            t.games as usize,
            if rules.rounds.is_some() {
                "match"
            } else {
                "game"
            }
        )
        .replace("matchs", "matches"),
        plan.first_seed,
        plan.first_seed.wrapping_add(t.games - 1),
        if seed_given {
            ""
        } else {
            " (picked: pass --seed to repeat)"
        },
        (rules.geometry.players())
            .map(|p| format!(
                "{} {}",
                rules.player_title(p),
                if p == 0 { args.south } else { args.north }
            ))
            .collect::<Vec<_>>()
            .join(" vs ")
    ));
    let wins = (rules.geometry.players())
        .zip(t.wins)
        .map(|(p, w)| {
            format!(
                "{} wins {w} ({})",
                rules.player_title(p),
                percent(w, t.games)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    out.push_str(&format!(
        "results    {wins}, draws {} ({})",
        t.draws,
        percent(t.draws, t.games)
    ));
    if t.unfinished > 0 {
        out.push_str(&format!(
            ", unfinished after {} plies {}",
            args.max_plies, t.unfinished
        ));
        if t.unfinished_arranging > 0 {
            // Play (or a round) that never began: the arrangement has no ending of its own.
            out.push_str(&format!(
                " ({} still arranging their seeds, play not begun)",
                t.unfinished_arranging
            ));
        }
    }
    if t.stopped > 0 {
        out.push_str(&format!(
            ", stopped by a safety limit with no result {}",
            t.stopped
        ));
    }
    out.push('\n');
    out.push_str(&format!(
        "plies      mean {:.1} per {}, max {}\n",
        mean(t.plies, t.games),
        if rules.rounds.is_some() {
            "match"
        } else {
            "game"
        },
        t.plies_max
    ));
    out.push_str(&format!(
        "laps       mean {:.2} per move that sowed, max {} (endless moves apart)\n",
        mean(t.laps, t.moves),
        t.laps_max
    ));
    if rules.rounds.is_some() {
        out.push_str(&format!(
            "rounds     mean {:.2} per match, max {}\n",
            mean(t.rounds, t.games),
            t.rounds_max
        ));
    }

    out.push_str(&format!(
        "\nclause                                         fired   per {}\n",
        if rules.rounds.is_some() {
            "match"
        } else {
            "game"
        }
    ));
    for (i, (c, counted, fired, cancelled)) in clause_rows(rules, t).enumerate() {
        let title = escape(&clause_title(c)).into_owned();
        if !counted {
            let why = uncounted(rules, i);
            out.push_str(&format!("  {title:<42}       -   ({why})\n"));
            continue;
        }
        out.push_str(&format!(
            "  {title:<42} {fired:>7} {:>10.2}",
            mean(fired, t.games)
        ));
        if cancelled > 0 {
            out.push_str(&format!("   cancelled {cancelled}"));
        }
        if fired == 0 {
            out.push_str("   never fired");
        }
        out.push('\n');
    }

    out.push('\n');
    match t.endless_first {
        None => out.push_str("endless moves  none\n"),
        Some(e) => {
            out.push_str(&format!(
                "endless moves  {} in {}; first in game {} (seed {}), ply {}, a move of {}:\n  {}\n",
                t.endless,
                plural(t.endless_games as usize, "game"),
                e.game,
                e.seed,
                e.ply,
                plural(e.laps as usize, "lap"),
                endless_cmd.unwrap_or("")
            ));
            if e.laps > LAPS_SHOWN {
                out.push_str(&format!(
                    "  (with --detail laps it prints a line for each of its {} laps)\n",
                    e.laps
                ));
            }
        }
    }
    if let Some(e) = t.lap_limit_first {
        out.push_str(&format!(
            "lap limit      {} stopped at {} laps without a repeat (not proven endless); first in game {} (seed {}), ply {}:\n  {}\n",
            plural(t.lap_limits as usize, "move"),
            sow::rules::MAX_LAPS_PER_MOVE,
            e.game,
            e.seed,
            e.ply,
            limit_cmd.unwrap_or("")
        ));
    }
    match t.cycle_first {
        None => out.push_str("cycles         none\n"),
        Some(e) => {
            out.push_str(&format!(
                "cycles         {}; first in game {} (seed {}), ply {}:\n  {}\n",
                t.cycles,
                e.game,
                e.seed,
                e.ply,
                cycle_cmd.unwrap_or("")
            ));
        }
    }
    out
}

pub(super) fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
}

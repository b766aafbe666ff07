//! Differential test of Selus: the generic engine on the shipped ruleset against the
//! hand-written model of `tests/reference/selus.rs`, which shares no code with it, over seeded
//! random games. After every ply both must show the same rows, reserves, nedfs (the engine's
//! per-player set of holes `nedf`; its claimed holes must stay empty) and player to move, and
//! list the same legal moves in the same order (hole by hole); at the end, the same result.
//!
//! Each game picks its moves with `ChaCha8Rng::seed_from_u64(seed)`, `random_range(0..n)` over
//! the engine's list of legal moves (the benchmarks' policy), so a failure is reproduced from
//! its option values and seed alone; the message also gives the moves and both sides' views.
//!
//! Played: `GAMES` games under each value of each option, the other options at their
//! defaults; `MIX_GAMES` under every combination of option values; and a check that the
//! ruleset loaded without options is the model's `Options::default()`.

mod engine_view;
mod reference;

use std::fmt::Write as _;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use reference::selus::{self, Guardian, NedfLimit, NedfWhere, Scoring, Selus, TwosRule};
use reference::{Observed, Outcome, Side};
use sow::engine::Game;
use sow::rules::{NO_HOLE, Rules};
use sow::ruleset::VarKind;

/// Games under each value of each option, the others at their defaults.
const GAMES: u64 = 2_000;
/// Games under each combination of option values (48 of them: 150 each keeps the test's run
/// time where it was with 32 combinations of 200).
const MIX_GAMES: u64 = 150;
/// Plies after which a game is given up as endless (none should come near it: the cycle rule
/// SL-O11 ends a game whose positions come back; random games last about a hundred plies).
const PLY_BUDGET: u32 = 50_000;

/// The shipped ruleset with these option values.
fn load(options: &[(&str, &str)]) -> Arc<Rules> {
    engine_view::load_shipped("selus", options)
}

/// The model's options for these ruleset option values.
fn model_options(options: &[(&str, &str)]) -> selus::Options {
    let mut o = selus::Options::default();
    for &option in options {
        match option {
            ("nedf_limit", "per_player") => o.nedf_limit = NedfLimit::PerPlayer,
            ("nedf_limit", "one") => o.nedf_limit = NedfLimit::One,
            ("nedf_limit", "any") => o.nedf_limit = NedfLimit::Any,
            ("twos_rule", "text") => o.twos_rule = TwosRule::Text,
            ("twos_rule", "code") => o.twos_rule = TwosRule::Code,
            ("guardian", "yes") => o.guardian = Guardian::Yes,
            ("guardian", "no") => o.guardian = Guardian::No,
            ("nedf_where", "any") => o.nedf_where = NedfWhere::Any,
            ("nedf_where", "outer_row") => o.nedf_where = NedfWhere::OuterRow,
            ("result", "count") => o.scoring = Scoring::Count,
            ("result", "blocked_loses") => o.scoring = Scoring::BlockedLoses,
            _ => panic!("no Selus model option for {option:?}"),
        }
    }
    o
}

/// Everything compared after a ply.
#[derive(Debug, PartialEq)]
struct Snapshot {
    seen: Observed,
    /// Each player's nedfs (`n4`), sorted by name, [South, North]: the engine's `nedf` set of
    /// holes.
    nedfs: [Vec<String>; 2],
    /// The engine's claimed holes (`0=n4`, by player index): none, since a nedf is no claim;
    /// always empty for the model.
    claims: Vec<String>,
    /// The legal moves in the notation (`s3`), in the order listed.
    moves: Vec<String>,
    result: Option<Outcome>,
}

/// A model's move in the notation: `s3`, `n9`.
fn label(mover: Side, hole: usize) -> String {
    let row = match mover {
        Side::South => 's',
        Side::North => 'n',
    };
    format!("{row}{hole}")
}

fn model_snapshot(model: &Selus) -> Snapshot {
    let seen = model.observe();
    let moves = match seen.to_move {
        Some(mover) => model
            .legal_moves()
            .into_iter()
            .map(|hole| label(mover, hole))
            .collect(),
        None => Vec::new(),
    };
    Snapshot {
        seen,
        nedfs: model.nedfs().map(|mut n| {
            n.sort();
            n
        }),
        claims: Vec::new(),
        moves,
        result: model.result(),
    }
}

/// Each player's holes in the engine's per-player set-of-holes variable `nedf`, by name and
/// sorted, [South, North]. Player `k`'s set is a mask of positions in the `width` slots from
/// `slot + k * width`, the lowest 32 bits first.
fn engine_nedfs(game: &Game) -> [Vec<String>; 2] {
    let rules = game.rules();
    let var = (rules.vars.iter())
        .find(|v| v.name == "nedf")
        .expect("the ruleset declares `nedf`");
    assert!(
        var.kind == VarKind::Holes
            && var.per_player
            && usize::from(var.width) == sow::rules::HOLES_WIDTH,
        "`nedf` is not a per-player set of holes: {var:?}"
    );
    let vars = &game.position().vars;
    [0usize, 1].map(|k| {
        let at = usize::from(var.slot) + k * usize::from(var.width);
        let mask = (0..usize::from(var.width)).fold(0u128, |m, i| {
            m | u128::from(vars[at + i] as u32) << (32 * i)
        });
        let mut labels: Vec<String> = (0..rules.geometry.positions)
            .filter(|&h| mask & 1 << h != 0)
            .map(|h| rules.geometry.label(h))
            .collect();
        labels.sort();
        labels
    })
}

fn engine_snapshot(game: &Game) -> Snapshot {
    let rules = game.rules();
    let claims = game.position().claims;
    Snapshot {
        seen: engine_view::observed(game, engine_view::held(game)),
        nedfs: engine_nedfs(game),
        claims: (0..claims.len())
            .filter(|&p| claims[p] != NO_HOLE)
            .map(|p| format!("{}={}", p, rules.geometry.label(claims[p])))
            .collect(),
        moves: (game.legal_moves().iter())
            .map(|m| m.label(rules))
            .collect(),
        result: engine_view::outcome(game),
    }
}

/// `S[3 3 0 …] N[…] reserves S=4 N=0, nedfs S=n5+n8 N=-, to move Some(North), moves [s1 s4 …]`.
fn show(s: &Snapshot) -> String {
    let row = |seeds: &[u32]| -> String {
        let cells: Vec<String> = seeds.iter().map(u32::to_string).collect();
        cells.join(" ")
    };
    let nedf = |n: &[String]| {
        if n.is_empty() {
            "-".to_string()
        } else {
            n.join("+")
        }
    };
    format!(
        "S[{}] N[{}] reserves S={} N={}, nedfs S={} N={}, claimed [{}], to move {:?}, moves [{}], \
         result {:?}",
        row(&s.seen.south),
        row(&s.seen.north),
        s.seen.captured[0],
        s.seen.captured[1],
        nedf(&s.nedfs[0]),
        nedf(&s.nedfs[1]),
        s.claims.join(" "),
        s.seen.to_move,
        s.moves.join(" "),
        s.result
    )
}

/// What a batch of games met, so that a pass is not vacuous.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u64,
    plies: u64,
    /// Relay laps sown (SL-7, SL-9).
    relays: u64,
    /// Counters passed over an opponent's hole of three (SL-6).
    passed: u64,
    /// Nedfs made by SL-8.
    first_nedfs: u64,
    /// Nedfs made by SL-9.
    later_nedfs: u64,
    /// Nedfs made in one of the opponent's holes 7 to 9 (SL-O8).
    inner_nedfs: u64,
    /// Games in which a player held two nedfs or more (SL-O3 "any").
    multi_nedfs: u64,
    /// The most nedfs one player held in any of the games.
    most_nedfs: u64,
    /// Moves that made two nedfs or more (SL-9 again on a lap lifted from a pair's second
    /// hole, SL-O3 "any").
    multi_marks: u64,
    /// Counters fallen into a nedf (SL-11).
    fed: u64,
    /// Drops that would have made a nedf but for the guardian (SL-10).
    guarded: u64,
    /// Positions where the legal moves are not all the mover's occupied holes (SL-12).
    narrowed: u64,
    /// Games ended by a position coming back (SL-O11).
    cycles: u64,
    /// Games ended by an endless move (SL-O11).
    endless: u64,
    /// Games ended by the player to move having no move (SL-13).
    stuck: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, t: Tally) {
        self.games += t.games;
        self.plies += t.plies;
        self.relays += t.relays;
        self.passed += t.passed;
        self.first_nedfs += t.first_nedfs;
        self.later_nedfs += t.later_nedfs;
        self.inner_nedfs += t.inner_nedfs;
        self.multi_nedfs += t.multi_nedfs;
        self.most_nedfs = self.most_nedfs.max(t.most_nedfs);
        self.multi_marks += t.multi_marks;
        self.fed += t.fed;
        self.guarded += t.guarded;
        self.narrowed += t.narrowed;
        self.cycles += t.cycles;
        self.endless += t.endless;
        self.stuck += t.stuck;
    }
}

/// Plays game `seed` on the engine and the model, comparing them after every ply; returns
/// what the game met, or the first disagreement with all it takes to reproduce it.
fn play_both(rules: &Arc<Rules>, options: &[(&str, &str)], seed: u64) -> Result<Tally, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone());
    let mut model = Selus::new(model_options(options));
    let mut moves: Vec<String> = Vec::new();
    let mut tally = Tally {
        games: 1,
        ..Tally::default()
    };
    loop {
        let (engine, reference) = (engine_snapshot(&game), model_snapshot(&model));
        if engine != reference {
            let mut message = String::new();
            let _ = write!(
                message,
                "engine and model disagree: options {options:?} seed {seed}, after ply {} \
                 (0 = the start)\nmoves: {}\nengine board:\n{}\nengine: {}\nmodel:  {}",
                moves.len(),
                moves.join(" "),
                sow::render::board(rules, game.position()),
                show(&engine),
                show(&reference),
            );
            return Err(message);
        }
        if game.is_over() {
            if engine.result.is_none() {
                return Err(format!(
                    "options {options:?} seed {seed}: the game is over with no result \
                     ({:?}) after {} plies",
                    game.status(),
                    moves.len()
                ));
            }
            tally.plies = moves.len() as u64;
            if tally.cycles == 0 && tally.endless == 0 {
                tally.stuck = 1;
            }
            return Ok(tally);
        }
        let mover = match engine.seen.to_move {
            Some(Side::South) => &engine.seen.south,
            _ => &engine.seen.north,
        };
        let sowable = mover.iter().filter(|&&s| s > 0).count();
        tally.narrowed += u64::from(engine.moves.len() < sowable);
        if moves.len() as u32 >= PLY_BUDGET {
            return Err(format!(
                "options {options:?} seed {seed}: no end after {PLY_BUDGET} plies"
            ));
        }
        let list = game.legal_moves();
        let k = rng.random_range(0..list.len());
        let mv = list.get(k).expect("a legal move");
        let mine = model.legal_moves()[k];
        moves.push(mv.label(rules));
        let report = match game.play(mv, &mut ()) {
            Ok(report) => report,
            Err(e) => {
                return Err(format!(
                    "options {options:?} seed {seed}, ply {}: the engine refuses its own \
                     legal move {}: {e:?}\nmoves: {}",
                    moves.len(),
                    mv.label(rules),
                    moves.join(" ")
                ));
            }
        };
        let ply = model.play(mine);
        if (report.cycle, report.endless) != (ply.cycle, ply.endless) {
            return Err(format!(
                "options {options:?} seed {seed}, ply {}: (cycle, endless move) for the \
                 engine {:?}, for the model {:?}\nmoves: {}",
                moves.len(),
                (report.cycle, report.endless),
                (ply.cycle, ply.endless),
                moves.join(" ")
            ));
        }
        tally.relays += u64::from(ply.laps - 1);
        tally.passed += u64::from(ply.passed);
        tally.first_nedfs += u64::from(ply.first_nedf);
        tally.later_nedfs += u64::from(ply.later_nedfs);
        tally.inner_nedfs += u64::from(ply.inner_nedfs);
        tally.multi_marks += u64::from(u32::from(ply.first_nedf) + ply.later_nedfs > 1);
        let most = u64::from(
            model
                .nedf_count(Side::South)
                .max(model.nedf_count(Side::North)),
        );
        tally.most_nedfs = tally.most_nedfs.max(most);
        tally.multi_nedfs = u64::from(tally.most_nedfs > 1);
        tally.fed += u64::from(ply.fed);
        tally.guarded += u64::from(ply.guarded);
        tally.cycles += u64::from(ply.cycle);
        tally.endless += u64::from(ply.endless);
    }
}

/// Plays `seeds` under these option values; fails with the first disagreements. Returns what
/// the games met.
fn run(options: &[(&str, &str)], seeds: std::ops::Range<u64>) -> Tally {
    let rules = load(options);
    let games = seeds.end - seeds.start;
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    for seed in seeds {
        match play_both(&rules, options, seed) {
            Ok(t) => tally += t,
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{options:?}: {} of {games} games disagree; the first ones:\n\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n\n")
    );
    // Every game ran to its end on both sides, making nedfs and feeding them on the way: not
    // a vacuous pass.
    assert!(
        tally.plies >= games * 10 && tally.first_nedfs >= games / 2 && tally.fed >= games,
        "{options:?}: only {tally:?}"
    );
    // SL-O3: only "any" lets a player hold two nedfs, or one move make two.
    if model_options(options).nedf_limit != NedfLimit::Any {
        assert!(
            tally.most_nedfs <= 1 && tally.multi_marks == 0,
            "{options:?}: a player held two nedfs: {tally:?}"
        );
    }
    println!("selus {options:?}: all agree, {tally:?}");
    tally
}

/// The option values the model knows are exactly the ruleset's.
#[test]
fn the_model_knows_every_option_value() {
    let rules = load(&[]);
    let mut seen = Vec::new();
    for option in &rules.options {
        for value in &option.values {
            model_options(&[(option.name.as_str(), value.as_str())]);
            seen.push(format!("{}={value}", option.name));
        }
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            "guardian=no",
            "guardian=yes",
            "nedf_limit=any",
            "nedf_limit=one",
            "nedf_limit=per_player",
            "nedf_where=any",
            "nedf_where=outer_row",
            "result=blocked_loses",
            "result=count",
            "twos_rule=code",
            "twos_rule=text",
        ]
    );
}

/// `GAMES` games under each value of each option on its own, each value its own seeds.
#[test]
fn every_option_value_plays_the_same_games() {
    let rules = load(&[]);
    let mut k = 0;
    let mut all = Tally::default();
    for option in &rules.options {
        for value in &option.values {
            let options = [(option.name.as_str(), value.as_str())];
            let tally = run(&options, k * GAMES..(k + 1) * GAMES);
            // SL-13 ends games under every value, and SL-12 narrows the moves. SL-O11 is not
            // required: once a nedf exists no position nor lap-end state can come back (a
            // nedf never holds three, so it is never passed over and keeps every counter that
            // reaches it: cut open there, the circuit is a line on which counters only move
            // on, so the board cannot return unless its total falls), and random games make
            // the first nedf early: none of them met SL-O11.
            assert!(
                tally.stuck > 0 && tally.narrowed > 0,
                "{options:?}: {tally:?}"
            );
            // Each value shows its clause at work (or, where it removes one, its absence).
            match options[0] {
                ("nedf_limit", "one") => assert_eq!(tally.later_nedfs, 0, "{tally:?}"),
                ("guardian", "no") => assert_eq!(tally.guarded, 0, "{tally:?}"),
                ("nedf_where", "outer_row") => assert_eq!(tally.inner_nedfs, 0, "{tally:?}"),
                // "any": later nedfs by a player who holds one already.
                ("nedf_limit", "any") => assert!(
                    tally.later_nedfs > 0
                        && tally.guarded > 0
                        && tally.inner_nedfs > 0
                        && tally.multi_nedfs > 0,
                    "{options:?}: SL-9, SL-10, SL-O8's default or a second nedf of one \
                     player's never met: {tally:?}"
                ),
                _ => assert!(
                    tally.later_nedfs > 0 && tally.guarded > 0 && tally.inner_nedfs > 0,
                    "{options:?}: SL-9, SL-10 or SL-O8's default never met: {tally:?}"
                ),
            }
            all += tally;
            k += 1;
        }
    }
    assert_eq!(
        k, 11,
        "five options: nedf_limit of three values, the others of two"
    );
    println!("selus, every option value: {all:?}");
}

/// `MIX_GAMES` games under every combination of option values.
#[test]
fn every_combination_plays_the_same_games() {
    let rules = load(&[]);
    let mixes = engine_view::option_mixes(&rules);
    assert_eq!(mixes.len(), 48);
    for (k, mix) in (0u64..).zip(&mixes) {
        // Seeds apart from those of the single option values.
        let from = 1_000_000 + k * MIX_GAMES;
        let tally = run(mix, from..from + MIX_GAMES);
        if mix.contains(&("nedf_limit", "any")) {
            assert!(
                tally.multi_nedfs > 0,
                "{mix:?}: no player held two nedfs: {tally:?}"
            );
        }
    }
}

/// The ruleset loaded without options and the model's `Options::default()` must mean the
/// same game.
#[test]
fn the_default_options_are_the_models_defaults() {
    let defaults = [
        ("nedf_limit", "per_player"),
        ("twos_rule", "text"),
        ("guardian", "yes"),
        ("nedf_where", "any"),
        ("result", "count"),
    ];
    assert_eq!(model_options(&defaults), selus::Options::default());
    let rules = load(&[]);
    for seed in 0..100 {
        play_both(&rules, &[], seed).unwrap();
    }
}

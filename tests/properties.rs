//! Property tests of the engine on the shipped seed games (Raja Pasu as whole matches, Sadeqa
//! II), under any combination of their option values:
//! - seeds are conserved at every trace event, and the events of each ply account for every
//!   seed of the position after it (board, reserves, removed seeds, closed holes);
//! - the same seed plays the same game;
//! - replaying a game's moves reproduces its trace exactly.
//!
//! A game is drawn by `ChaCha8Rng::seed_from_u64(seed)`, picking uniformly among the legal moves.

use std::fmt;
use std::sync::{Arc, LazyLock};

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::engine::{Game, Position};
use sow::rules::{Player, Pos, Rules};
use sow::trace::{Event, Tracer};

/// The seed games.
const RULESETS: [&str; 2] = ["raja_pasu", "sadeqa_ii"];
/// The engine's limit on the plies of a game or match: play has stopped by then, with no
/// result where the rules let it go on for ever (Raja Pasu's `cycle_rule = "none"`).
const MAX_PLIES: usize = sow::rules::MAX_PLIES as usize;

/// A shipped ruleset under one combination of its option values.
#[derive(Clone)]
struct Case {
    ruleset: &'static str,
    options: Vec<(String, String)>,
    rules: Arc<Rules>,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.ruleset)?;
        for (name, value) in &self.options {
            write!(f, " {name}={value}")?;
        }
        Ok(())
    }
}

fn load(ruleset: &'static str, options: Vec<(String, String)>) -> Case {
    let text = sow::catalog::shipped(ruleset).expect("shipped ruleset");
    match sow::check::load(text, &options) {
        Ok(loaded) => Case {
            ruleset,
            options,
            rules: Arc::new(loaded.rules),
        },
        Err(d) => panic!("{ruleset} {options:?} does not load: {d:?}"),
    }
}

/// Every combination of the values of the ruleset's options, defaults included.
fn option_mixes(rules: &Rules) -> Vec<Vec<(String, String)>> {
    rules
        .options
        .iter()
        .fold(vec![Vec::new()], |mixes, option| {
            mixes
                .iter()
                .flat_map(|mix| {
                    option.values.iter().map(move |value| {
                        let mut mix = mix.clone();
                        mix.push((option.name.clone(), value.clone()));
                        mix
                    })
                })
                .collect()
        })
}

/// Every seed game under every combination of its option values.
static CASES: LazyLock<Vec<Case>> = LazyLock::new(|| {
    RULESETS
        .iter()
        .flat_map(|&ruleset| {
            let defaults = load(ruleset, Vec::new());
            option_mixes(&defaults.rules)
                .into_iter()
                .map(move |mix| load(ruleset, mix))
        })
        .collect()
});

fn case() -> impl Strategy<Value = Case> {
    prop::sample::select(CASES.clone())
}

/// Plays the game of `seed` to its end, reporting every ply to `tracer` and then calling
/// `after_ply`. Returns the moves played and the finished game.
fn play_random<T: Tracer>(
    rules: &Arc<Rules>,
    seed: u64,
    tracer: &mut T,
    mut after_ply: impl FnMut(&Game, &mut T),
) -> (Vec<Pos>, Game) {
    let mut game = Game::new(rules.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    while !game.is_over() {
        // The engine stops play itself after its last ply (`Status::Stopped`).
        assert!(
            moves.len() < MAX_PLIES,
            "seed {seed}: no end or stop after {MAX_PLIES} plies"
        );
        let legal = game.legal_moves();
        let hole = legal
            .get(rng.random_range(0..legal.len()))
            .expect("a legal move");
        game.play(hole, tracer).expect("a legal move");
        moves.push(hole.hole);
        after_ply(&game, tracer);
    }
    (moves, game)
}

/// Replays `moves` on `game` (from wherever it stands) and returns their trace.
fn replay(game: &mut Game, moves: &[Pos]) -> Vec<Event> {
    let mut events = Vec::new();
    for &hole in moves {
        game.play(hole, &mut events).expect("a move that was legal");
    }
    events
}

/// The seeds of a game rebuilt from its trace alone: every event moves seeds between the
/// board, the mover's hand, the players' reserves (or stores) and the removed seeds.
struct Ledger<'a> {
    rules: &'a Rules,
    pos: Position,
    /// Seeds lifted and not yet dropped.
    hand: u32,
    mover: Player,
}

impl<'a> Ledger<'a> {
    fn new(rules: &'a Rules, start: &Position) -> Self {
        Ledger {
            rules,
            pos: *start,
            hand: 0,
            mover: start.to_move,
        }
    }

    /// Applies one event; panics if it takes seeds that are not there, or loses or makes any.
    fn apply(&mut self, event: &Event) {
        let board = &mut self.pos.board;
        match *event {
            Event::Move { player, .. } => self.mover = player,
            Event::Lift { hole, seeds, .. } => {
                assert_eq!(
                    board[hole as usize], seeds,
                    "{event:?} lifts the whole hole"
                );
                board[hole as usize] = 0;
                self.hand += u32::from(seeds);
            }
            Event::Drop { hole, seeds, .. } => {
                self.hand = self.hand.checked_sub(1).expect("a drop from an empty hand");
                board[hole as usize] += 1;
                assert_eq!(
                    board[hole as usize], seeds,
                    "{event:?}: count after the drop"
                );
            }
            Event::Capture {
                hole, seeds, to, ..
            } => {
                assert_eq!(
                    board[hole as usize], seeds,
                    "{event:?} takes the whole hole"
                );
                board[hole as usize] = 0;
                self.bank(to, u32::from(seeds));
            }
            Event::RoundEnd {
                shares,
                removed,
                mover,
                ..
            } => self.share_out(shares, removed, mover),
            Event::Refill {
                player,
                holes,
                seeds,
                closed,
                kept,
                ..
            } => self.refill(player, holes, seeds, closed, kept),
            Event::Resow { .. } => panic!("the seed games never sow captured seeds: {event:?}"),
            Event::Enter { .. } => panic!("the seed games never enter held seeds: {event:?}"),
            Event::Diverted { .. } => panic!("the seed games never claim holes: {event:?}"),
            Event::Redirect { .. } => panic!("the seed games never redirect a seed: {event:?}"),
            Event::Skip { .. }
            | Event::LapEnd { .. }
            | Event::Relay { .. }
            | Event::CaptureCancelled { .. }
            | Event::MoveEnd { .. }
            | Event::ExtraTurn { .. }
            | Event::EndlessMove { .. }
            | Event::LapLimit { .. }
            | Event::StepLimit { .. }
            | Event::LapCap { .. }
            | Event::PlyLimit { .. }
            | Event::RepeatedStart
            | Event::Cycle { .. }
            | Event::RoundStart { .. }
            | Event::GameEnd { .. }
            | Event::Effect { .. }
            | Event::Pass { .. } => {}
            Event::Concede { .. } => panic!("the seed games let nobody concede: {event:?}"),
            Event::Swap { .. } => panic!("the seed games have no pie rule: {event:?}"),
            Event::Race { .. }
            | Event::RaceStart { .. }
            | Event::Racer { .. }
            | Event::RaceOver { .. }
            | Event::EndlessRace { .. } => panic!("the seed games have no race: {event:?}"),
            Event::HandBack { .. } => panic!("the seed games never sow captured seeds: {event:?}"),
            Event::Refused { .. } => panic!("the seed games have no skip clauses: {event:?}"),
            Event::Out { .. } | Event::OwnersMoved | Event::Gift { .. } => {
                panic!("the seed games have two players and fixed holes: {event:?}")
            }
            Event::Restart => panic!("the seed games refill their matches: {event:?}"),
            Event::HolesWon { .. } => panic!("the seed games win no holes: {event:?}"),
            Event::CaptureOffered { .. }
            | Event::ChoiceOffered { .. }
            | Event::RelayOffered { .. }
            | Event::Decided { .. } => {
                panic!("the seed games' captures are compulsory: {event:?}")
            }
            Event::Placed { .. } | Event::Arranged { .. } => {
                panic!("the seed games have no arrangement before play: {event:?}")
            }
        }
        assert_eq!(
            self.pos.total() + self.hand,
            self.rules.total_seeds(),
            "seeds not conserved by {event:?}"
        );
    }

    /// Seeds taken off the board: to a player, or out of the game by the mover's capture.
    fn bank(&mut self, to: Option<Player>, seeds: u32) {
        match to {
            Some(p) => self.pos.credit(self.rules, p, seeds),
            None => self.pos.taken[self.mover as usize] += seeds,
        }
    }

    /// The seeds left in the holes at a round's end: all shared out and removed, or none.
    fn share_out(&mut self, shares: [u32; sow::rules::MAX_SEATS], removed: u32, mover: Player) {
        let g = &self.rules.geometry;
        let on_holes: u32 = (0..2).map(|p| self.pos.row_seeds(self.rules, p)).sum();
        let moved = shares[0] + shares[1] + removed;
        if moved == 0 {
            return;
        }
        assert_eq!(
            moved, on_holes,
            "a round end shares out every seed in the holes"
        );
        let _ = mover;
        for p in 0..2 {
            // Seeds that leave the game are booked to their hole's owner.
            if removed > 0 {
                self.pos.taken[p as usize] += self.pos.row_seeds(self.rules, p);
            }
            for h in g.holes_of(p) {
                self.pos.board[h as usize] = 0;
            }
            self.pos.credit(self.rules, p, shares[p as usize]);
        }
    }

    /// A player's refill: all they hold goes back to fill their open holes, the rest is kept.
    fn refill(
        &mut self,
        player: Player,
        holes: u8,
        seeds: u32,
        closed: sow::rules::Mask,
        kept: u32,
    ) {
        let g = &self.rules.geometry;
        let supply = self.pos.held(self.rules, player) + self.pos.row_seeds(self.rules, player);
        assert_eq!(
            supply,
            seeds + kept,
            "the refill of player {player} loses seeds"
        );
        let open: Vec<Pos> = g
            .holes_of(player)
            .filter(|&h| closed & (1 << h) == 0)
            .collect();
        assert_eq!(
            open.len(),
            usize::from(holes),
            "refilled holes vs closed mask"
        );
        let per_hole = if holes == 0 {
            0
        } else {
            seeds / u32::from(holes)
        };
        for h in g.holes_of(player) {
            self.pos.board[h as usize] = 0;
            self.pos.closed &= !(1 << h);
        }
        for &h in &open {
            self.pos.board[h as usize] = u16::try_from(per_hole).expect("a hole's seeds fit u16");
        }
        self.pos.closed |= closed;
        if let Some(s) = g.store[player as usize] {
            self.pos.board[s as usize] = 0;
        }
        self.pos.reserve[player as usize] = 0;
        self.pos.credit(self.rules, player, kept);
    }

    /// After a ply: nothing left in hand, and the rebuilt seeds equal the engine's position.
    fn check(&self, pos: &Position) {
        assert_eq!(self.hand, 0, "seeds left in hand after the ply");
        let rebuilt = (
            self.pos.board,
            self.pos.reserve,
            self.pos.taken,
            self.pos.closed,
        );
        let engine = (pos.board, pos.reserve, pos.taken, pos.closed);
        assert_eq!(
            rebuilt, engine,
            "the trace does not account for the position"
        );
    }
}

/// Play that goes on for ever under the rules (no cycle rule) stops at the engine's ply
/// limit, even where the limit's ply is a round's last: the next round is not begun. (Seed
/// found by the property tests below.)
#[test]
fn a_match_without_end_stops_at_the_ply_limit() {
    let seed = 10_553_632_541_988_221_818;
    let mut stopped = 0;
    for case in CASES.iter() {
        let rules = &case.rules;
        let (moves, game) = play_random(rules, seed, &mut (), |_, _| {});
        if let sow::engine::Status::Stopped { .. } = game.status() {
            assert_eq!(moves.len(), MAX_PLIES, "{case:?}: stopped at the limit");
            stopped += 1;
        }
    }
    assert!(stopped > 0, "some case runs to the limit");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        // Integration tests have no lib.rs beside them for proptest's default location.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/properties.txt",
        ))),
        ..ProptestConfig::default()
    })]

    /// Seeds are conserved at every event, the events of each ply rebuild its position, and the
    /// mask of positions holding seeds agrees with the board.
    #[test]
    fn seeds_are_conserved_at_every_event(case in case(), seed in any::<u64>()) {
        let rules = &case.rules;
        let start = *Game::new(rules.clone()).position();
        let mut ledger = Ledger::new(rules, &start);
        let mut events: Vec<Event> = Vec::new();
        play_random(rules, seed, &mut events, |game, events| {
            for event in events.iter() {
                ledger.apply(event);
            }
            events.clear();
            ledger.check(game.position());
            assert_eq!(game.position().total(), rules.total_seeds());
            // The mask of positions holding seeds is kept with the board.
            let mut recounted = *game.position();
            recounted.recount();
            assert_eq!(game.position().sown(), recounted.sown(), "the mask of sown positions");
        });
    }

    /// The same seed plays the same game, whether or not the events are recorded.
    #[test]
    fn same_seed_same_game(case in case(), seed in any::<u64>()) {
        let (moves, game) = play_random(&case.rules, seed, &mut (), |_, _| {});
        let (again, replayed) = play_random(&case.rules, seed, &mut Vec::new(), |_, _| {});
        prop_assert_eq!(&moves, &again);
        prop_assert_eq!(game.position(), replayed.position());
        prop_assert_eq!(game.status(), replayed.status());
        prop_assert_eq!(game.round(), replayed.round());
    }

    /// Replaying a game's moves, in a new game or after `restart`, gives the same trace.
    #[test]
    fn replay_reproduces_the_trace(case in case(), seed in any::<u64>()) {
        let mut trace = Vec::new();
        let (moves, mut game) = play_random(&case.rules, seed, &mut trace, |_, _| {});
        let end = *game.position();
        let mut fresh = Game::new(case.rules.clone());
        prop_assert_eq!(&replay(&mut fresh, &moves), &trace);
        prop_assert_eq!(fresh.position(), &end);
        game.restart();
        prop_assert_eq!(&replay(&mut game, &moves), &trace);
        prop_assert_eq!(game.position(), &end);
    }
}

//! A seeded series of games between two computer players, on all cores: what `simulate` and
//! `analyze` share.
//!
//! Game `i` uses the seed `S + i`, so that every game can be played again on its own
//! (`sow play ... --seed S+i`), and whatever a command adds up is a sum, a maximum or a list
//! sorted by game: the figures do not depend on the number of threads. A worker holds one
//! game and two computer players, made once per share of the work rather than per game; the
//! search players' results depend on the position alone, not on what they searched before,
//! so which worker plays a game changes nothing.

use std::io::IsTerminal;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use sow::engine::{Game, Move, PlyReport, Status};
use sow::rules::{ClauseId, Player, Rules};
use sow::trace::{Event, Firings, Tracer};

use super::players::{Bot, Computer};
use super::{Fail, plural, say_err};

/// The most worker threads: beyond a few per core they only cost memory (each has its own
/// stack), and a hundred thousand once failed to start under a memory limit.
pub const MAX_THREADS: usize = 256;

/// Who plays, and how each game of the series is set up.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub first_seed: u64,
    /// The two players: the first plays South in game 0.
    pub bots: [Bot; 2],
    /// Whether the players change sides every game (the first plays North in odd games).
    pub alternate: bool,
    /// Plies played at random by both sides before the players take over.
    pub opening: u32,
    /// A game still going after this many plies is stopped and counted as unfinished.
    pub max_plies: u32,
}

impl Plan {
    /// The seed of game `index`.
    pub fn seed(&self, index: u64) -> u64 {
        self.first_seed.wrapping_add(index)
    }

    /// Which of the two players (0 or 1) plays `side` in game `index`.
    pub fn player_at(&self, index: u64, side: Player) -> usize {
        let swapped = self.alternate && index % 2 == 1;
        usize::from(side & 1) ^ usize::from(swapped)
    }

    /// The bot playing `side` in game `index`.
    pub fn bot(&self, index: u64, side: Player) -> Bot {
        let [a, b] = self.bots;
        if self.player_at(index, side) == 0 {
            a
        } else {
            b
        }
    }
}

/// How one game went.
#[derive(Debug, Clone, Copy)]
pub struct Played {
    pub status: Status,
    /// Stopped by the plan's `max_plies` (status still `Playing`).
    pub unfinished: bool,
    /// Stopped so while the players were still arranging their seeds (`[arrange]`): play,
    /// or the round, never began.
    pub arranging: bool,
    pub plies: u32,
    pub rounds: u32,
    /// The ending clause that ended the game (a match: its last round), if one did.
    pub ending: Option<ClauseId>,
    /// What each side holds at the end (seeds in store or reserve).
    pub held: [u32; 2],
    /// Seeds each side's captures removed from the game.
    pub taken: [u32; 2],
}

/// One worker's game and players.
pub struct Table {
    pub game: Game,
    computers: [Computer; 2],
    /// The clause firings of the game being played (committed move by move).
    pub firings: Firings,
    /// Per clause: whether it is an ending.
    endings: Vec<bool>,
}

impl Table {
    pub fn new(rules: &Arc<Rules>, plan: &Plan) -> Table {
        let endings = (0..rules.clauses.len())
            .map(|c| {
                ClauseId::try_from(c)
                    .ok()
                    .and_then(|id| rules.ending(id))
                    .is_some()
            })
            .collect();
        Table {
            game: Game::new(rules.clone()),
            computers: plan.bots.map(Computer::new),
            firings: Firings::new(rules.clauses.len()),
            endings,
        }
    }

    /// Plays game `index` of `plan` from the start; `each` sees the game after every ply,
    /// the move played and the ply's report, and stops the game by returning false. The
    /// firings are those of this game alone.
    pub fn play(
        &mut self,
        plan: &Plan,
        index: u64,
        mut each: impl FnMut(&Game, Move, &PlyReport) -> bool,
    ) -> Played {
        let mut rng = ChaCha8Rng::seed_from_u64(plan.seed(index));
        let game = &mut self.game;
        self.firings.clear();
        // The first round's start effects are made as the game starts: counted too.
        game.restart_traced(&mut self.firings);
        self.firings.commit();
        let mut unfinished = false;
        let mut ending = None;
        while let Some(mover) = game.to_move() {
            if game.ply() >= plan.max_plies {
                unfinished = true;
                break;
            }
            let h = if game.ply() < plan.opening {
                let moves = game.legal_moves();
                moves.get(rng.random_range(0..moves.len().max(1)))
            } else {
                let who = plan.player_at(index, mover);
                self.computers
                    .get_mut(who)
                    .and_then(|c| c.choose(game, &mut rng))
                    .map(|c| c.mv)
            };
            let Some(h) = h else { break };
            let mut watch = Watch {
                firings: &mut self.firings,
                endings: &self.endings,
                ending: None,
            };
            let Ok(report) = game.play(h, &mut watch) else {
                break;
            };
            ending = watch.ending.or(ending);
            self.firings.commit();
            if !each(game, h, &report) {
                break;
            }
        }
        let pos = game.position();
        let rules = game.rules();
        Played {
            status: game.status(),
            unfinished,
            arranging: unfinished && matches!(pos.offer, sow::engine::Offer::Arrange { .. }),
            plies: game.ply(),
            rounds: game.round(),
            ending,
            held: [pos.held(rules, 0), pos.held(rules, 1)],
            taken: [pos.taken[0], pos.taken[1]],
        }
    }
}

/// Counts firings as [`Firings`] does, and notes the last ending that fired: it takes no
/// events either, so the engine stays on its fast path.
struct Watch<'a> {
    firings: &'a mut Firings,
    endings: &'a [bool],
    ending: Option<ClauseId>,
}

impl Tracer for Watch<'_> {
    const EVENTS: bool = false;
    const FIRINGS: bool = true;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
    #[inline(always)]
    fn fired(&mut self, clause: ClauseId) {
        Tracer::fired(self.firings, clause);
        if self.endings.get(usize::from(clause)) == Some(&true) {
            self.ending = Some(clause);
        }
    }
    #[inline(always)]
    fn cancelled(&mut self, clause: ClauseId) {
        Tracer::cancelled(self.firings, clause);
    }
    fn void_move(&mut self) {
        Tracer::void_move(self.firings);
    }
}

/// The worker threads: one per core, or `threads` (at most [`MAX_THREADS`]).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Fail> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        if n == 0 {
            return Err(Fail::Usage("--threads must be at least 1".into()));
        }
        if n > MAX_THREADS {
            say_err(&format!(
                "note: --threads {n} is more than the limit of {MAX_THREADS}; {MAX_THREADS} threads are used (the results do not depend on it)\n"
            ));
        }
        pool = pool.num_threads(n.min(MAX_THREADS));
    }
    pool.build()
        .map_err(|e| Fail::Usage(format!("cannot start the worker threads: {e}")))
}

/// A progress bar on stderr, only on a terminal: piped output and tests stay deterministic.
/// (Hidden, a bar would still take its lock for every game: off a terminal there is none.)
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    started: std::time::Instant,
    games: u64,
}

impl Progress {
    pub fn new(games: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(games);
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, eta {eta}")
            {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            started: std::time::Instant::now(),
            games,
        }
    }

    fn tick(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Clears the bar and says how long the games took (on a terminal only).
    pub fn finish(&self, threads: usize) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
            let secs = self.started.elapsed().as_secs_f64();
            say_err(&format!(
                "{} in {secs:.2} s on {} ({:.0} games/s)\n",
                plural(self.games as usize, "game"),
                plural(threads, "thread"),
                self.games as f64 / secs.max(1e-9)
            ));
        }
    }
}

/// Plays games `0..games` on `pool`: each share of the work makes a worker with `init`,
/// plays its games with `play` (in order) and hands over what it found with `finish`; `merge`
/// then adds those up, from `empty`.
#[allow(clippy::too_many_arguments)]
pub fn run<W, R>(
    pool: &rayon::ThreadPool,
    games: u64,
    progress: &Progress,
    init: impl Fn() -> W + Sync + Send,
    play: impl Fn(W, u64) -> W + Sync + Send,
    finish: impl Fn(W) -> R + Sync + Send,
    empty: impl Fn() -> R + Sync + Send,
    merge: impl Fn(R, R) -> R + Sync + Send,
) -> R
where
    W: Send,
    R: Send,
{
    pool.install(|| {
        (0..games)
            .into_par_iter()
            .fold(&init, |w, i| {
                let w = play(w, i);
                progress.tick();
                w
            })
            .map(&finish)
            .reduce(&empty, &merge)
    })
}

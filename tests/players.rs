//! The search players: alpha-beta agrees with plain minimax on game trees with extra turns,
//! transpositions and three seats, and on a ruleset whose mover chooses directions and
//! passes; a search depends on the position alone; budgets hold; Monte Carlo finds a winning
//! move; every player chooses among all the legal moves, directions and passes included;
//! player specs are read, and refused, precisely.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use sow::engine::{Game, Move};
use sow::players::alphabeta::{DECIDED, WIN};
use sow::players::model::{Model, Moves, Outcome};
use sow::players::{AlphaBeta, Bot, Budget, Computer, Mcts, Score, Seat};
use sow::rules::{Dir, Player};

/// A made-up game whose tree is fixed by a seed: a state is (a counter, the ply, the seat to
/// move); a move adds 1 to 4 to the counter, so different orders reach the same state
/// (transpositions); who moves next, how many moves there are, when the game ends and the
/// scores are all functions of the state, so the same seat sometimes moves twice (extra
/// turns), and with three seats the order is irregular.
#[derive(Debug, Clone)]
struct Tree {
    seed: u64,
    seats: u8,
    counter: u64,
    ply: u32,
    seat: Player,
    /// The plies after which every game ends.
    length: u32,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Tree {
    fn new(seed: u64, seats: u8, length: u32) -> Tree {
        Tree {
            seed,
            seats,
            counter: 0,
            ply: 0,
            seat: 0,
            length,
        }
    }
    fn noise(&self, salt: u64) -> u64 {
        mix(self.seed ^ mix(self.counter ^ mix(u64::from(self.ply) << 8 ^ salt)))
    }
    fn over(&self) -> bool {
        self.ply >= self.length || (self.ply > 2 && self.noise(1).is_multiple_of(11))
    }
}

impl Model for Tree {
    type Move = u8;
    fn seats(&self) -> usize {
        usize::from(self.seats)
    }
    fn to_move(&self) -> Option<Player> {
        (!self.over()).then_some(self.seat)
    }
    fn moves(&self, out: &mut Moves<u8>) {
        out.clear();
        if self.over() {
            return;
        }
        for m in 1..=(1 + self.noise(2) % 4) as u8 {
            out.push(m);
        }
    }
    fn play(&mut self, m: u8) -> bool {
        if self.over() || m == 0 || u64::from(m) > 1 + self.noise(2) % 4 {
            return false;
        }
        self.counter += u64::from(m);
        self.ply += 1;
        // One time in four the same seat moves again; otherwise the next seat, or (three
        // seats) sometimes the one after.
        let r = self.noise(3) % 8;
        let step = match r {
            0 | 1 => 0,
            2 if self.seats > 2 => 2,
            _ => 1,
        };
        self.seat = (self.seat + step) % self.seats;
        true
    }
    fn copy_from(&mut self, other: &Self) {
        self.clone_from(other);
    }
    fn seeds(&self, seat: Player) -> i64 {
        self.material(seat)
    }
    fn material(&self, seat: Player) -> i64 {
        (mix(self.seed ^ self.counter ^ u64::from(seat) << 40 ^ u64::from(self.ply) << 20) % 21)
            as i64
    }
    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let best = (0..self.seats).map(|s| self.material(s)).max().unwrap_or(0);
        let leaders: Vec<Player> = (0..self.seats)
            .filter(|&s| self.material(s) == best)
            .collect();
        Some(match leaders.as_slice() {
            [one] => Outcome::Win(*one),
            _ => Outcome::Draw,
        })
    }
    fn hash(&self) -> u64 {
        mix(self.counter ^ u64::from(self.ply) << 32 ^ u64::from(self.seat) << 48)
    }
    fn slot(m: u8) -> usize {
        usize::from(m)
    }
}

/// Plain minimax, no pruning, no table: the root seat's side maximises the value for it,
/// the others minimise it (for two seats, that is negamax). The value of a position is the
/// root seat's score less the best other's; a finished game is WIN less its plies from the
/// root for a win of the root's side, the negation for a loss, 0 for a draw.
fn minimax<M: Model>(game: &M, root: Player, depth: u32, ply: i32) -> i32 {
    if let Some(outcome) = game.outcome() {
        return match outcome {
            Outcome::Win(w) if (w == root) => WIN - ply,
            Outcome::Win(_) => -(WIN - ply),
            Outcome::Draw | Outcome::NoResult => 0,
        };
    }
    if depth == 0 {
        let mine = game.material(root);
        let theirs = (0..game.seats() as Player)
            .filter(|&s| s != root)
            .map(|s| game.material(s))
            .max()
            .unwrap_or(0);
        return (mine - theirs) as i32;
    }
    let seat = game.to_move().expect("a game still going");
    let mut moves = Moves::default();
    game.moves(&mut moves);
    let values = moves.as_slice().iter().map(|&m| {
        let mut child = game.clone();
        assert!(child.play(m));
        minimax(&child, root, depth - 1, ply + 1)
    });
    if seat == root {
        values.max().expect("a move")
    } else {
        values.min().expect("a move")
    }
}

#[test]
fn alpha_beta_agrees_with_minimax_on_two_and_three_seats() {
    let mut checked = 0;
    for seats in [2, 3] {
        for seed in 0..60 {
            let root = Tree::new(seed, seats, 9);
            let mut moves = Moves::default();
            root.moves(&mut moves);
            for depth in [1, 2, 3, 5, 7] {
                let mut search = AlphaBeta::<Tree>::new(Budget { depth, nodes: None });
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let found = search.search(&root, &mut rng).expect("a move");
                // The search stops early with a single move, or a forced result.
                let expected = minimax(&root, 0, found.depth, 0);
                assert!(
                    found.depth == depth || moves.len() == 1 || expected.abs() >= DECIDED,
                    "seed {seed}, {seats} seats, depth {depth}: stopped at {}",
                    found.depth
                );
                assert_eq!(
                    found.value, expected,
                    "seed {seed}, {seats} seats, depth {depth}"
                );
                // The move chosen is worth that value.
                let mut child = root.clone();
                assert!(child.play(found.best));
                let worth = minimax(&child, 0, found.depth - 1, 1);
                assert_eq!(
                    worth, expected,
                    "seed {seed}, {seats} seats, depth {depth}: the move chosen"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 600);
}

#[test]
fn wins_and_losses_are_found_with_their_length() {
    // A game that ends within the depth is valued exactly: a win is WIN less its plies.
    let mut decided = 0;
    for seed in 0..200 {
        let root = Tree::new(seed, 2, 4);
        let mut moves = Moves::default();
        root.moves(&mut moves);
        if moves.len() < 2 {
            // A single move is played without looking ahead.
            continue;
        }
        let mut search = AlphaBeta::<Tree>::new(Budget {
            depth: 6,
            nodes: None,
        });
        let found = search
            .search(&root, &mut ChaCha8Rng::seed_from_u64(0))
            .expect("a move");
        assert_eq!(
            found.value,
            minimax(&root, 0, found.depth, 0),
            "seed {seed}"
        );
        assert!(
            found.value.abs() >= DECIDED || found.value == 0,
            "seed {seed}"
        );
        if found.value.abs() >= DECIDED {
            decided += 1;
            let plies = match Score::of_value(found.value) {
                Score::WinIn(n) | Score::LossIn(n) => n,
                other => panic!("seed {seed}: {other:?}"),
            };
            assert!((1..=4).contains(&plies), "seed {seed}: {plies}");
        }
    }
    assert!(decided > 100, "{decided}");
}

fn kalah() -> Arc<sow::rules::Rules> {
    let text = sow::catalog::shipped("kalah").expect("kalah");
    Arc::new(sow::check::load(text, &[]).expect("kalah loads").rules)
}

/// Positions of a random Kalah game.
fn positions(rules: &Arc<sow::rules::Rules>, seed: u64, count: usize) -> Vec<Game> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone());
    let mut out = Vec::new();
    while out.len() < count && !game.is_over() {
        out.push(game.clone());
        let moves = game.legal_moves();
        let h = moves.get(rng.random_range(0..moves.len())).expect("a move");
        game.play(h, &mut ()).expect("legal");
    }
    out
}

#[test]
fn a_search_depends_on_the_position_alone() {
    let rules = kalah();
    let games = positions(&rules, 3, 12);
    for bot in [
        "alphabeta:depth=5",
        "alphabeta:nodes=3000",
        "mcts:playouts=300",
    ] {
        let bot: Bot = bot.parse().expect("a player");
        let mut used = Computer::new(bot);
        // The used player searches every position first, in order.
        for g in &games {
            used.choose(g, &mut ChaCha8Rng::seed_from_u64(9));
        }
        for (i, g) in games.iter().enumerate() {
            let fresh = Computer::new(bot).choose(g, &mut ChaCha8Rng::seed_from_u64(i as u64));
            let again = used.choose(g, &mut ChaCha8Rng::seed_from_u64(i as u64));
            assert_eq!(fresh, again, "{bot}, position {i}");
        }
    }
}

#[test]
fn the_node_budget_is_kept() {
    let rules = kalah();
    for g in positions(&rules, 5, 8) {
        for limit in [10, 500, 5_000] {
            let mut search = AlphaBeta::<Game>::new(Budget {
                depth: 64,
                nodes: Some(limit),
            });
            let found = search
                .search(&g, &mut ChaCha8Rng::seed_from_u64(1))
                .expect("a move");
            assert!(found.depth >= 1);
            // Depth 1 is always searched in full; past it, the search stops at the limit.
            let moves = g.legal_moves().len() as u64;
            assert!(
                found.nodes <= limit.max(moves) + 1,
                "{} nodes for a limit of {limit}",
                found.nodes
            );
            assert!(g.legal_moves().contains(found.best));
        }
    }
}

/// Take-away: 1 to 3 stones a move, whoever takes the last stone wins; the winning move
/// leaves a multiple of four.
#[derive(Debug, Clone)]
struct Nim {
    stones: u32,
    seat: Player,
}

impl Model for Nim {
    type Move = u8;
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Option<Player> {
        (self.stones > 0).then_some(self.seat)
    }
    fn moves(&self, out: &mut Moves<u8>) {
        out.clear();
        for m in 1..=self.stones.min(3) as u8 {
            out.push(m);
        }
    }
    fn play(&mut self, m: u8) -> bool {
        if m == 0 || u32::from(m) > self.stones.min(3) {
            return false;
        }
        self.stones -= u32::from(m);
        if self.stones > 0 {
            self.seat = 1 - self.seat;
        }
        true
    }
    fn copy_from(&mut self, other: &Self) {
        self.clone_from(other);
    }
    fn seeds(&self, _: Player) -> i64 {
        0
    }
    fn material(&self, _: Player) -> i64 {
        0
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then_some(Outcome::Win(self.seat))
    }
    fn hash(&self) -> u64 {
        u64::from(self.stones) << 1 | u64::from(self.seat)
    }
    fn slot(m: u8) -> usize {
        usize::from(m)
    }
}

#[test]
fn both_searches_play_take_away_perfectly() {
    for stones in [5, 6, 7, 9, 10, 11] {
        let game = Nim { stones, seat: 0 };
        let right = (stones % 4) as u8;
        let mut ab = AlphaBeta::<Nim>::new(Budget {
            depth: 12,
            nodes: None,
        });
        let found = ab
            .search(&game, &mut ChaCha8Rng::seed_from_u64(0))
            .expect("a move");
        assert_eq!(found.best, right, "alpha-beta, {stones} stones");
        assert!(found.value >= DECIDED);
        let mut mcts = Mcts::<Nim>::new(3_000);
        let found = mcts
            .search(&game, &mut ChaCha8Rng::seed_from_u64(0))
            .expect("a move");
        assert_eq!(found.best, right, "mcts, {stones} stones");
    }
}

#[test]
fn players_are_read_from_their_names() {
    let read = |s: &str| s.parse::<Seat>().map(|p| p.to_string());
    assert_eq!(read("human").as_deref(), Ok("human"));
    assert_eq!(read("random").as_deref(), Ok("random"));
    assert_eq!(read(" greedy ").as_deref(), Ok("greedy"));
    assert_eq!(read("alphabeta").as_deref(), Ok("alphabeta:nodes=20000"));
    assert_eq!(
        read("alphabeta:depth=8").as_deref(),
        Ok("alphabeta:depth=8")
    );
    assert_eq!(
        read("alphabeta:nodes=1_000,depth=3").as_deref(),
        Ok("alphabeta:depth=3,nodes=1000")
    );
    assert_eq!(
        read("alphabeta:nodes=50000").as_deref(),
        Ok("alphabeta:nodes=50000")
    );
    assert_eq!(read("mcts").as_deref(), Ok("mcts:playouts=1000"));
    assert_eq!(
        read("mcts:playouts=2000").as_deref(),
        Ok("mcts:playouts=2000")
    );
    // What is printed reads back as the same player.
    for s in ["alphabeta:depth=3,nodes=1000", "mcts:playouts=7", "greedy"] {
        let bot: Bot = s.parse().expect("a player");
        assert_eq!(bot.to_string().parse::<Bot>(), Ok(bot));
    }
}

#[test]
fn bad_players_are_refused_with_the_reason() {
    let refused = |s: &str| match s.parse::<Seat>() {
        Ok(p) => panic!("{s} read as {p}"),
        Err(e) => e.to_string(),
    };
    let cases = [
        ("", "a player is needed: human, random, greedy"),
        (
            "alfabeta",
            "`alfabeta` is not a player: did you mean `alphabeta`?",
        ),
        (
            "minimax",
            "`minimax` is not a player: the players are human, random",
        ),
        ("greedy:depth=2", "`greedy` takes no settings"),
        ("human:x", "`human` takes no settings"),
        ("alphabeta:", "nothing follows `alphabeta:`"),
        (
            "alphabeta:dept=3",
            "alphabeta has no setting `dept`: did you mean `depth`?",
        ),
        (
            "alphabeta:depth",
            "`depth` in `alphabeta:depth` is not KEY=VALUE",
        ),
        (
            "alphabeta:depth=0",
            "depth must be a whole number from 1 to 64, not `0`",
        ),
        (
            "alphabeta:depth=65",
            "depth must be a whole number from 1 to 64, not `65`",
        ),
        ("alphabeta:depth=-1", "not `-1`"),
        ("alphabeta:depth=2,depth=3", "depth is given twice"),
        (
            "alphabeta:nodes=ten",
            "nodes must be a whole number from 1 to",
        ),
        (
            "mcts:playouts=0",
            "playouts must be a whole number from 1 to",
        ),
        (
            "mcts:depth=3",
            "mcts has no setting `depth`: its settings are playouts",
        ),
    ];
    for (spec, message) in cases {
        let e = refused(spec);
        assert!(e.contains(message), "{spec:?}: {e}");
    }
    let e = "human".parse::<Bot>().expect_err("not a computer");
    assert!(
        e.to_string().contains("only `sow play` asks a person"),
        "{e}"
    );
}

// ---- moves with a direction, and passes ----

/// The scenarios' ruleset of choices: the mover chooses each move's direction (and keeps it
/// for the game once chosen), and with `pass = yes` a player who cannot sow passes.
fn choices(pass: &str) -> Arc<sow::rules::Rules> {
    let text = include_str!("scenarios/rulesets/choices.toml");
    let options = [("pass".to_string(), pass.to_string())];
    Arc::new(
        sow::check::load(text, &options)
            .expect("choices loads")
            .rules,
    )
}

/// A game of the ruleset of choices from a set-up position.
fn set_up(rules: &Arc<sow::rules::Rules>, position: &str) -> Game {
    let pos = sow::notation::parse_position(rules, position).expect("a position");
    Game::from_position(rules.clone(), pos)
}

const EVERY_PLAYER: [&str; 5] = [
    "random",
    "greedy",
    "alphabeta:depth=4",
    "alphabeta:nodes=2000",
    "mcts:playouts=200",
];

/// Games where the mover chooses the direction, from the opening and from a position where
/// North is short of seeds (40 plies at most: with few seeds and no cycle rule, a game can
/// go round for ever): every player's moves are legal, each sowing names its direction, both
/// directions are played, and passes are chosen where they are the only move.
#[test]
fn every_player_chooses_directions_and_passes() {
    let rules = choices("yes");
    // Few playouts: from the set-up position a playout often goes round to its ply limit.
    let players = EVERY_PLAYER.map(|p| p.replace("playouts=200", "playouts=20"));
    for name in &players {
        let bot: Bot = name.parse().expect("a player");
        let mut players = [Computer::new(bot), Computer::new(bot)];
        let (mut ways, mut passes, mut sown) = ([0u32; 2], 0, 0);
        for seed in 0..8 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut game = if seed % 2 == 0 {
                Game::new(rules.clone())
            } else {
                set_up(&rules, "S[2 1 3 0] N[0 0 0 0] south")
            };
            while let Some(mover) = game.to_move().filter(|_| game.ply() < 40) {
                let legal = game.legal_moves();
                let choice = players[usize::from(mover)]
                    .choose(&game, &mut rng)
                    .expect("a game still going has a move");
                let mv = choice.mv;
                assert!(legal.contains(mv), "{name}: {mv:?} is not legal");
                if mv.is_pass() {
                    assert_eq!(
                        legal.to_vec(),
                        [Move::PASS],
                        "{name}: a pass beside sowings"
                    );
                    passes += 1;
                } else {
                    let dir = mv.dir.expect("the mover chooses the direction");
                    ways[dir.index()] += 1;
                    sown += 1;
                }
                assert_eq!(choice.score.is_some(), bot.searches(), "{name}");
                game.play(mv, &mut ())
                    .unwrap_or_else(|e| panic!("{name}: {} refused: {e}", mv.label(&rules)));
            }
        }
        assert!(sown > 24, "{name}: {sown} sowings");
        assert!(ways.iter().all(|&n| n > 0), "{name}: directions {ways:?}");
        assert!(passes > 0, "{name}: no pass in 8 games");
    }
}

/// A player who cannot sow while the other can has one move, the pass: every player makes
/// it, and a search looks through it. Without passing, the same position ends the game.
#[test]
fn a_player_who_cannot_sow_passes() {
    let rules = choices("yes");
    let stuck = set_up(&rules, "S[2 1 3 0] N[0 0 0 0] north");
    assert_eq!(stuck.to_move(), Some(1));
    assert_eq!(stuck.legal_moves().to_vec(), [Move::PASS]);
    for name in EVERY_PLAYER {
        let bot: Bot = name.parse().expect("a player");
        let choice = Computer::new(bot)
            .choose(&stuck, &mut ChaCha8Rng::seed_from_u64(1))
            .expect("the pass");
        assert_eq!(choice.mv, Move::PASS, "{name}");
        let mut after = stuck.clone();
        after.play(choice.mv, &mut ()).expect("the pass is legal");
        assert_eq!(after.to_move(), Some(0), "{name}");
    }
    // South to move: after some of South's moves here North has no seeds and passes (s2:ccw,
    // s2:cw, s1:ccw), so the search's lines go through passes; its value is minimax's.
    let south = set_up(&rules, "S[2 1 3 0] N[0 0 0 0] south");
    let mut search = AlphaBeta::<Game>::new(Budget {
        depth: 4,
        nodes: None,
    });
    let found = search
        .search(&south, &mut ChaCha8Rng::seed_from_u64(2))
        .expect("a move");
    assert!(south.legal_moves().contains(found.best));
    assert!(found.best.dir.is_some(), "{:?}", found.best);
    assert_eq!(found.value, minimax(&south, 0, found.depth, 0));
    // Without passing, North cannot move: the game is over before any move.
    let over = set_up(&choices("no"), "S[2 1 3 0] N[0 0 0 0] north");
    assert!(over.is_over());
    for name in EVERY_PLAYER {
        let bot: Bot = name.parse().expect("a player");
        let none = Computer::new(bot).choose(&over, &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(none, None, "{name}");
    }
}

/// Alpha-beta's values and moves agree with plain minimax along games of the ruleset of
/// choices, whose positions differ by the directions the players keep (variables the table's
/// hash must tell apart), with the moves in both directions and the passes.
#[test]
fn alpha_beta_agrees_with_minimax_on_directions_and_passes() {
    let rules = choices("yes");
    let mut checked = 0;
    for seed in 0..6 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules.clone());
        while let Some(me) = game.to_move() {
            for depth in [1, 3, 5] {
                let mut search = AlphaBeta::<Game>::new(Budget { depth, nodes: None });
                let found = search
                    .search(&game, &mut ChaCha8Rng::seed_from_u64(seed))
                    .expect("a move");
                let expected = minimax(&game, me, found.depth, 0);
                assert_eq!(found.value, expected, "seed {seed}, ply {}", game.ply());
                let mut child = game.clone();
                assert!(Model::play(&mut child, found.best));
                assert_eq!(
                    minimax(&child, me, found.depth - 1, 1),
                    expected,
                    "seed {seed}, ply {}: the move chosen",
                    game.ply()
                );
                checked += 1;
            }
            let moves = game.legal_moves();
            let mv = moves.get(rng.random_range(0..moves.len())).expect("a move");
            game.play(mv, &mut ()).expect("legal");
        }
    }
    assert!(checked > 50, "{checked}");
    // The directions are moves of their own: a hole sown both ways is two moves.
    let game = Game::new(rules);
    let moves = game.legal_moves().to_vec();
    assert_eq!(moves.len(), 8);
    assert!(moves.contains(&Move::towards(moves[0].hole, Dir::Cw)));
}

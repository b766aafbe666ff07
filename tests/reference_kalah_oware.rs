//! Hand-checked scenarios for the Kalah and Oware reference models, one or more per rule.
//! Positions are written `south = [s1..s6]`, `north = [n1..n6]`, each row from its owner's left.

mod reference;

use reference::kalah::{self, Kalah, Sweep};
use reference::oware::{self, GrandSlam, Oware};
use reference::{Observed, Outcome, Side};

fn observed(south: [u32; 6], north: [u32; 6], stores: [u32; 2], to_move: Option<Side>) -> Observed {
    Observed {
        south: south.to_vec(),
        north: north.to_vec(),
        captured: stores,
        closed_south: vec![false; 6],
        closed_north: vec![false; 6],
        to_move,
    }
}

fn kalah_at(
    opts: kalah::Options,
    south: [u32; 6],
    north: [u32; 6],
    stores: [u32; 2],
    to_move: Side,
) -> Kalah {
    Kalah::from_position(opts, &south, &north, stores, to_move)
}

fn oware_at(
    opts: oware::Options,
    south: [u32; 6],
    north: [u32; 6],
    stores: [u32; 2],
    to_move: Side,
) -> Oware {
    Oware::from_position(opts, &south, &north, stores, to_move)
}

const ILLEGAL_GRAND_SLAM: oware::Options = oware::Options {
    grand_slam: GrandSlam::Illegal,
};

/// A small deterministic generator for the random playouts.
struct Lcg(u64);

impl Lcg {
    fn pick(&mut self, mask: u32) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let bits: Vec<usize> = (0..6).filter(|b| mask & (1 << b) != 0).collect();
        bits[(self.0 >> 33) as usize % bits.len()] + 1
    }
}

fn total(o: &Observed) -> u32 {
    o.south.iter().chain(&o.north).sum::<u32>() + o.captured[0] + o.captured[1]
}

// ---------------------------------------------------------------- Kalah

#[test]
fn kalah_last_seed_in_own_store_gives_an_extra_turn() {
    let mut g = Kalah::new(kalah::Options::default());
    assert_eq!(g.legal_mask(), 0b111111);
    let ply = g.play(3); // s3: s4 s5 s6 store
    assert!(ply.extra_turn);
    assert_eq!(ply.captured, [0, 0]);
    assert_eq!(
        g.observe(),
        observed([4, 4, 0, 5, 5, 5], [4; 6], [1, 0], Some(Side::South))
    );
    let ply = g.play(1); // s1: s2 s3 s4 s5, last in an occupied hole
    assert!(!ply.extra_turn);
    assert_eq!(
        g.observe(),
        observed([0, 5, 1, 6, 6, 5], [4; 6], [1, 0], Some(Side::North))
    );
}

#[test]
fn kalah_sowing_skips_the_opponents_store() {
    // South s6 (8): own store, n1..n6, (North's store skipped), s1.
    let mut g = kalah_at(
        kalah::Options::default(),
        [2, 0, 0, 0, 0, 8],
        [1, 0, 0, 0, 0, 0],
        [0, 0],
        Side::South,
    );
    let ply = g.play(6);
    assert_eq!(ply, kalah::Ply::default());
    assert_eq!(
        g.observe(),
        observed(
            [3, 0, 0, 0, 0, 0],
            [2, 1, 1, 1, 1, 1],
            [1, 0],
            Some(Side::North)
        )
    );
    // North n6 (8): own store, s1..s6, (South's store skipped), n1, which was empty: captures
    // the opposite s6 (2) and the capturing seed.
    let mut g = kalah_at(
        kalah::Options::default(),
        [1; 6],
        [0, 0, 0, 0, 1, 8],
        [0, 0],
        Side::North,
    );
    let ply = g.play(6);
    assert_eq!(ply.captured, [0, 3]);
    assert_eq!(
        g.observe(),
        observed(
            [2, 2, 2, 2, 2, 0],
            [0, 0, 0, 0, 1, 0],
            [0, 4],
            Some(Side::South)
        )
    );
}

#[test]
fn kalah_capture_takes_the_opposite_hole_and_the_capturing_seed() {
    // South s1 (1) lands in the empty s2; the opposite is n5 (5).
    let mut g = kalah_at(
        kalah::Options::default(),
        [1, 0, 0, 0, 0, 3],
        [1, 1, 1, 1, 5, 1],
        [0, 0],
        Side::South,
    );
    let ply = g.play(1);
    assert_eq!(ply.captured, [6, 0]);
    assert!(!ply.extra_turn && !ply.game_over);
    assert_eq!(
        g.observe(),
        observed(
            [0, 0, 0, 0, 0, 3],
            [1, 1, 1, 1, 0, 1],
            [6, 0],
            Some(Side::North)
        )
    );
    // North n1 (1) lands in the empty n2; the opposite is s5 (7).
    let mut g = kalah_at(
        kalah::Options::default(),
        [1, 1, 1, 1, 7, 1],
        [1, 0, 0, 0, 0, 1],
        [0, 0],
        Side::North,
    );
    let ply = g.play(1);
    assert_eq!(ply.captured, [0, 8]);
    assert_eq!(
        g.observe(),
        observed(
            [1, 1, 1, 1, 0, 1],
            [0, 0, 0, 0, 0, 1],
            [0, 8],
            Some(Side::South)
        )
    );
}

#[test]
fn kalah_no_capture_in_an_occupied_hole() {
    let mut g = kalah_at(
        kalah::Options::default(),
        [1, 2, 0, 0, 0, 3],
        [1, 1, 1, 1, 5, 1],
        [0, 0],
        Side::South,
    );
    let ply = g.play(1);
    assert_eq!(ply.captured, [0, 0]);
    assert_eq!(
        g.observe(),
        observed(
            [0, 3, 0, 0, 0, 3],
            [1, 1, 1, 1, 5, 1],
            [0, 0],
            Some(Side::North)
        )
    );
}

#[test]
fn kalah_empty_opposite_captures_only_with_the_option() {
    let south = [1, 0, 0, 0, 0, 3];
    let north = [1, 1, 1, 1, 0, 1]; // n5, opposite s2, is empty
    let mut g = kalah_at(kalah::Options::default(), south, north, [0, 0], Side::South);
    assert_eq!(g.play(1).captured, [0, 0]);
    assert_eq!(
        g.observe(),
        observed([0, 1, 0, 0, 0, 3], north, [0, 0], Some(Side::North))
    );

    let opts = kalah::Options {
        empty_capture: true,
        ..Default::default()
    };
    let mut g = kalah_at(opts, south, north, [0, 0], Side::South);
    assert_eq!(g.play(1).captured, [1, 0]);
    assert_eq!(
        g.observe(),
        observed([0, 0, 0, 0, 0, 3], north, [1, 0], Some(Side::North))
    );
}

#[test]
fn kalah_capture_after_a_full_lap_into_the_emptied_origin() {
    // s1 (13): s2..s6, store, n1..n6, (North's store skipped), s1 again, now holding 1:
    // captures n6 (2 + 1 sown) and the capturing seed.
    let mut g = kalah_at(
        kalah::Options::default(),
        [13, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 2],
        [0, 0],
        Side::South,
    );
    let ply = g.play(1);
    assert_eq!(ply.captured, [4, 0]);
    assert_eq!(
        g.observe(),
        observed(
            [0, 1, 1, 1, 1, 1],
            [1, 1, 1, 1, 1, 0],
            [5, 0],
            Some(Side::North)
        )
    );
}

#[test]
fn kalah_game_ends_when_a_row_empties_and_the_rest_is_swept() {
    // South's last seed goes to the store (an extra turn), but South's row is now empty.
    let (south, north) = ([0, 0, 0, 0, 0, 1], [1, 2, 3, 0, 0, 0]);
    let mut g = kalah_at(
        kalah::Options::default(),
        south,
        north,
        [10, 5],
        Side::South,
    );
    let ply = g.play(6);
    assert!(ply.game_over && ply.extra_turn && !ply.cycle);
    assert_eq!(g.observe(), observed([0; 6], [0; 6], [11, 11], None));
    assert_eq!(g.result(), Some(Outcome::Draw));
    assert_eq!(g.legal_mask(), 0);
    assert_eq!(g.to_move(), None);

    // Not counted: North's six seeds are removed.
    let opts = kalah::Options {
        sweep: Sweep::NotCounted,
        ..Default::default()
    };
    let mut g = kalah_at(opts, south, north, [10, 5], Side::South);
    assert!(g.play(6).game_over);
    assert_eq!(g.observe(), observed([0; 6], [0; 6], [11, 5], None));
    assert_eq!(g.result(), Some(Outcome::Winner(Side::South)));
}

#[test]
fn kalah_game_ends_when_the_opponents_row_empties() {
    // South captures North's last seeds; South's own row is swept into South's store.
    let (south, north) = ([1, 0, 0, 0, 0, 2], [0, 0, 0, 0, 3, 0]);
    let mut g = kalah_at(kalah::Options::default(), south, north, [0, 1], Side::South);
    let ply = g.play(1);
    assert_eq!(ply.captured, [4, 0]);
    assert!(ply.game_over);
    assert_eq!(g.observe(), observed([0; 6], [0; 6], [6, 1], None));
    assert_eq!(g.result(), Some(Outcome::Winner(Side::South)));

    let opts = kalah::Options {
        sweep: Sweep::NotCounted,
        ..Default::default()
    };
    let mut g = kalah_at(opts, south, north, [0, 1], Side::South);
    assert!(g.play(1).game_over);
    assert_eq!(g.observe(), observed([0; 6], [0; 6], [4, 1], None));
}

#[test]
fn kalah_from_position_with_an_empty_row_is_over() {
    let g = kalah_at(
        kalah::Options::default(),
        [0; 6],
        [1, 0, 0, 0, 0, 2],
        [3, 4],
        Side::South,
    );
    assert_eq!(g.to_move(), None);
    assert_eq!(g.observe().captured, [3, 7]);
    assert_eq!(g.result(), Some(Outcome::Winner(Side::North)));
}

#[test]
fn kalah_random_playouts_keep_the_invariants() {
    for seeds in 3..=6 {
        for (empty_capture, sweep) in [(false, Sweep::Counted), (true, Sweep::NotCounted)] {
            let opts = kalah::Options {
                seeds,
                empty_capture,
                sweep,
            };
            let mut rng = Lcg(u64::from(seeds));
            for _ in 0..50 {
                let mut g = Kalah::new(opts);
                let start = total(&g.observe());
                while g.to_move().is_some() {
                    let mask = g.legal_mask();
                    assert_ne!(mask, 0, "a live game has a move");
                    let mover = g.to_move();
                    let ply = g.play(rng.pick(mask));
                    assert!(!ply.cycle, "Kalah cannot cycle");
                    if !ply.game_over {
                        assert_eq!(ply.extra_turn, g.to_move() == mover);
                    }
                    if sweep == Sweep::Counted || !ply.game_over {
                        assert_eq!(total(&g.observe()), start);
                    }
                }
                assert_eq!(g.legal_mask(), 0);
                assert!(g.result().is_some());
            }
        }
    }
}

// ---------------------------------------------------------------- Oware

#[test]
fn oware_opening_move() {
    let mut g = Oware::new(oware::Options::default());
    assert_eq!(g.legal_mask(), 0b111111);
    let ply = g.play(3); // s3: s4 s5 s6 n1
    assert_eq!(ply, oware::Ply::default());
    assert_eq!(
        g.observe(),
        observed(
            [4, 4, 0, 5, 5, 5],
            [5, 4, 4, 4, 4, 4],
            [0, 0],
            Some(Side::North)
        )
    );
}

#[test]
fn oware_capture_chain_runs_backward_and_stops_at_the_rows_end() {
    // s5 (4): s6 -> 2, n1 -> 2, n2 -> 3, n3 -> 2. Takes n3, n2, n1; s6 (2) is South's own.
    let mut g = oware_at(
        oware::Options::default(),
        [0, 0, 0, 0, 4, 1],
        [1, 2, 1, 4, 0, 0],
        [0, 0],
        Side::South,
    );
    let ply = g.play(5);
    assert_eq!(ply.captured, [7, 0]);
    assert_eq!(
        g.observe(),
        observed(
            [0, 0, 0, 0, 0, 2],
            [0, 0, 0, 4, 0, 0],
            [7, 0],
            Some(Side::North)
        )
    );
    // North, across the wrap: n5 (3): n6 -> 2, s1 -> 2, s2 -> 3. Takes s2, s1; not n6.
    let mut g = oware_at(
        oware::Options::default(),
        [1, 2, 0, 5, 0, 0],
        [0, 0, 0, 0, 3, 1],
        [0, 0],
        Side::North,
    );
    let ply = g.play(5);
    assert_eq!(ply.captured, [0, 5]);
    assert_eq!(
        g.observe(),
        observed(
            [0, 0, 0, 5, 0, 0],
            [0, 0, 0, 0, 0, 2],
            [0, 5],
            Some(Side::South)
        )
    );
}

#[test]
fn oware_capture_chain_breaks_on_a_hole_not_holding_2_or_3() {
    // s6 (3): n1 -> 2, n2 -> 4, n3 -> 2. Takes n3 only.
    let mut g = oware_at(
        oware::Options::default(),
        [1, 0, 0, 0, 0, 3],
        [1, 3, 1, 4, 0, 0],
        [0, 0],
        Side::South,
    );
    assert_eq!(g.play(6).captured, [2, 0]);
    assert_eq!(
        g.observe(),
        observed(
            [1, 0, 0, 0, 0, 0],
            [2, 4, 0, 4, 0, 0],
            [2, 0],
            Some(Side::North)
        )
    );
    // Last seed making 4, or landing on the own side: no capture.
    let mut g = oware_at(
        oware::Options::default(),
        [2, 1, 0, 0, 0, 1],
        [3, 1, 1, 0, 0, 0],
        [0, 0],
        Side::South,
    );
    assert_eq!(g.play(6).captured, [0, 0]);
    assert_eq!(g.observe().north, vec![4, 1, 1, 0, 0, 0]);
    let mut g = oware_at(
        oware::Options::default(),
        [2, 1, 0, 0, 0, 1],
        [3, 1, 1, 0, 0, 0],
        [0, 0],
        Side::South,
    );
    assert_eq!(g.play(1).captured, [0, 0]);
    assert_eq!(g.observe().south, vec![0, 2, 1, 0, 0, 1]);
}

#[test]
fn oware_origin_hole_is_skipped_with_12_or_more_seeds() {
    // s1 (12): s2..s6, n1..n6 (11 seeds), s1 skipped, the 12th in s2.
    let mut g = oware_at(
        oware::Options::default(),
        [12, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 1],
        [0, 0],
        Side::South,
    );
    assert_eq!(g.play(1).captured, [0, 0]);
    assert_eq!(
        g.observe(),
        observed(
            [0, 2, 1, 1, 1, 1],
            [1, 1, 1, 1, 1, 2],
            [0, 0],
            Some(Side::North)
        )
    );
    // s6 (12): n1..n6, s1..s5 (11 seeds), s6 skipped, the 12th in n1, which now holds 2 and
    // is taken (the chain stops at the row's end, and n2..n6 keep seeds: no grand slam).
    let mut g = oware_at(
        oware::Options::default(),
        [0, 0, 0, 0, 0, 12],
        [0; 6],
        [0, 0],
        Side::South,
    );
    assert_eq!(g.play(6).captured, [2, 0]);
    assert_eq!(
        g.observe(),
        observed(
            [1, 1, 1, 1, 1, 0],
            [0, 1, 1, 1, 1, 1],
            [2, 0],
            Some(Side::North)
        )
    );
}

#[test]
fn oware_grand_slam_captures_nothing_by_default() {
    // s6 (2): n1 -> 2, n2 -> 3: that would take all of North's seeds.
    let (south, north) = ([1, 0, 0, 0, 0, 2], [1, 2, 0, 0, 0, 0]);
    let mut g = oware_at(oware::Options::default(), south, north, [0, 0], Side::South);
    assert_eq!(g.legal_mask(), 0b100001);
    let ply = g.play(6);
    assert_eq!(ply.captured, [0, 0]);
    assert!(!ply.game_over);
    assert_eq!(
        g.observe(),
        observed(
            [1, 0, 0, 0, 0, 0],
            [2, 3, 0, 0, 0, 0],
            [0, 0],
            Some(Side::North)
        )
    );
}

#[test]
fn oware_grand_slam_illegal_option_removes_the_move() {
    let (south, north) = ([1, 0, 0, 0, 0, 2], [1, 2, 0, 0, 0, 0]);
    let g = oware_at(ILLEGAL_GRAND_SLAM, south, north, [0, 0], Side::South);
    assert_eq!(g.legal_mask(), 0b000001);
}

#[test]
#[should_panic(expected = "illegal move")]
fn oware_grand_slam_illegal_option_panics_when_played() {
    let (south, north) = ([1, 0, 0, 0, 0, 2], [1, 2, 0, 0, 0, 0]);
    oware_at(ILLEGAL_GRAND_SLAM, south, north, [0, 0], Side::South).play(6);
}

#[test]
fn oware_grand_slam_illegal_option_can_leave_no_move() {
    // South s6 (1) -> n1 (10). Then North's only moves, n1 (10) and n6 (5), both end in s5
    // with s1..s5 all at 2 and s6 empty: grand slams.
    let (south, north) = ([1; 6], [9, 0, 0, 0, 0, 5]);

    let mut g = oware_at(oware::Options::default(), south, north, [0, 0], Side::South);
    assert!(!g.play(6).game_over);
    assert_eq!(g.legal_mask(), 0b100001);

    // Illegal: North cannot move, so each player takes their own row.
    let mut g = oware_at(ILLEGAL_GRAND_SLAM, south, north, [0, 0], Side::South);
    let ply = g.play(6);
    assert!(ply.game_over && !ply.cycle);
    assert_eq!(g.observe(), observed([0; 6], [0; 6], [5, 15], None));
    assert_eq!(g.result(), Some(Outcome::Winner(Side::North)));
}

#[test]
fn oware_feeding_an_empty_row_is_compulsory() {
    // North is empty: s4 (2) stops at s6, s6 (1) reaches n1.
    let mut g = oware_at(
        oware::Options::default(),
        [0, 0, 0, 2, 0, 1],
        [0; 6],
        [0, 0],
        Side::South,
    );
    assert_eq!(g.legal_mask(), 0b100000);
    g.play(6);
    assert_eq!(
        g.observe(),
        observed(
            [0, 0, 0, 2, 0, 0],
            [1, 0, 0, 0, 0, 0],
            [0, 0],
            Some(Side::North)
        )
    );
    // A move that just reaches the row counts: s4 (3) sows s5, s6, n1.
    let g = oware_at(
        oware::Options::default(),
        [0, 0, 0, 3, 0, 1],
        [0; 6],
        [0, 0],
        Side::South,
    );
    assert_eq!(g.legal_mask(), 0b101000);
}

#[test]
#[should_panic(expected = "illegal move")]
fn oware_a_move_that_does_not_feed_panics() {
    oware_at(
        oware::Options::default(),
        [0, 0, 0, 2, 0, 1],
        [0; 6],
        [0, 0],
        Side::South,
    )
    .play(4);
}

#[test]
fn oware_no_feeding_move_ends_the_game() {
    // North n6 (1) -> s1, emptying North's row; no South move reaches it.
    let mut g = oware_at(
        oware::Options::default(),
        [0, 0, 1, 0, 1, 0],
        [0, 0, 0, 0, 0, 1],
        [10, 20],
        Side::North,
    );
    let ply = g.play(6);
    assert!(ply.game_over && !ply.cycle);
    assert_eq!(ply.captured, [0, 0]);
    assert_eq!(g.observe(), observed([0; 6], [0; 6], [13, 20], None));
    assert_eq!(g.result(), Some(Outcome::Winner(Side::North)));
}

#[test]
fn oware_25_seeds_end_the_game_at_once() {
    // s6 (1) -> n1 makes 2: captured, South reaches 25; North still takes n6.
    let mut g = oware_at(
        oware::Options::default(),
        [0, 0, 0, 0, 0, 1],
        [1, 0, 0, 0, 0, 1],
        [23, 10],
        Side::South,
    );
    let ply = g.play(6);
    assert_eq!(ply.captured, [2, 0]);
    assert!(ply.game_over);
    assert_eq!(g.observe(), observed([0; 6], [0; 6], [25, 11], None));
    assert_eq!(g.result(), Some(Outcome::Winner(Side::South)));
}

#[test]
fn oware_24_24_is_a_draw() {
    // s6 -> n1 captures 2 (23-24); North must feed with n6 -> s1; South cannot feed back:
    // the game ends and South takes s1.
    let mut g = oware_at(
        oware::Options::default(),
        [0, 0, 0, 0, 0, 1],
        [1, 0, 0, 0, 0, 1],
        [21, 24],
        Side::South,
    );
    assert_eq!(g.play(6).captured, [2, 0]);
    assert_eq!(g.legal_mask(), 0b100000);
    assert!(g.play(6).game_over);
    assert_eq!(g.observe(), observed([0; 6], [0; 6], [24, 24], None));
    assert_eq!(g.result(), Some(Outcome::Draw));
}

#[test]
fn oware_a_repeated_position_ends_the_game() {
    // One seed each, chasing each other round the board. Every move is forced (North's first
    // by the feeding rule); after twelve plies the opening position is back.
    let mut g = oware_at(
        oware::Options::default(),
        [0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 1],
        [23, 23],
        Side::South,
    );
    let script = [6, 6, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5];
    for (i, &hole) in script.iter().enumerate() {
        assert_eq!(g.legal_mask(), 1 << (hole - 1), "ply {i}");
        let ply = g.play(hole);
        assert_eq!(ply.captured, [0, 0]);
        let last = i == script.len() - 1;
        assert_eq!(ply.cycle, last, "ply {i}");
        assert_eq!(ply.game_over, last, "ply {i}");
    }
    assert_eq!(g.observe(), observed([0; 6], [0; 6], [24, 24], None));
    assert_eq!(g.result(), Some(Outcome::Draw));
}

#[test]
fn oware_random_playouts_keep_the_invariants() {
    for (k, opts) in [oware::Options::default(), ILLEGAL_GRAND_SLAM]
        .into_iter()
        .enumerate()
    {
        let mut rng = Lcg(k as u64 + 7);
        for _ in 0..200 {
            let mut g = Oware::new(opts);
            let mut plies = 0;
            while g.to_move().is_some() {
                let mask = g.legal_mask();
                assert_ne!(mask, 0, "a live game has a move");
                for h in 1..=6 {
                    if mask & (1 << (h - 1)) != 0 {
                        g.clone().play(h); // every listed move is playable
                    }
                }
                let ply = g.play(rng.pick(mask));
                assert!(!ply.extra_turn);
                assert_eq!(total(&g.observe()), 48);
                let o = g.observe();
                if !ply.game_over {
                    assert!(o.captured.iter().all(|&s| s < 25));
                    assert!(o.south.iter().any(|&s| s > 0) || o.north.iter().any(|&s| s > 0));
                }
                plies += 1;
                assert!(plies < 100_000, "the game must end");
            }
            assert_eq!(g.legal_mask(), 0);
            assert!(g.result().is_some());
        }
    }
}

//! The test vectors of SEED-RULES.md, and hand-checked scenarios per clause, run on the
//! hand-written reference models of Raja Pasu and Sadeqa II (tests/reference/).
//!
//! Coordinates: `S[s1 … sN] N[n1 … nN]`, each row left to right as its owner sees it.

mod reference;

use reference::{Observed, Outcome, Side};

// ---------------------------------------------------------------------------------------------
// Raja Pasu
// ---------------------------------------------------------------------------------------------

mod raja {
    use super::reference::raja_pasu::{
        Closed, Lap, LastFour, Options, OriginSkip, Ply, RajaPasu, Refill,
    };
    use super::{Observed, Outcome, Side};

    const OPEN: [bool; 7] = [false; 7];

    fn owner() -> Options {
        Options::default()
    }

    fn none() -> Options {
        Options {
            last_four: LastFour::None,
            ..Options::default()
        }
    }

    fn sower() -> Options {
        Options {
            last_four: LastFour::Sower,
            ..Options::default()
        }
    }

    fn rows(g: &RajaPasu) -> (Vec<u32>, Vec<u32>) {
        let o = g.observe();
        (o.south, o.north)
    }

    /// The whole observation of a position without closed holes.
    fn seen(
        south: [u32; 7],
        north: [u32; 7],
        reserve: [u32; 2],
        to_move: Option<Side>,
    ) -> Observed {
        Observed {
            south: south.to_vec(),
            north: north.to_vec(),
            captured: reserve,
            closed_south: OPEN.to_vec(),
            closed_north: OPEN.to_vec(),
            to_move,
        }
    }

    /// One vector of the table "South's first move from the initial position".
    fn first_move(opts: Options, hole: usize, gain: [u32; 2], south: [u32; 7], north: [u32; 7]) {
        let mut g = RajaPasu::new(opts);
        assert_eq!(g.to_move(), Some(Side::South));
        assert_eq!(g.legal_mask(), 0b111_1111);
        let ply = g.play(hole);
        assert_eq!(ply.captured, gain, "captures of s{hole}");
        assert!(!ply.endless && !ply.cycle && !ply.round_over);
        assert_eq!(
            g.observe(),
            seen(south, north, gain, Some(Side::North)),
            "s{hole} under {:?}",
            opts.last_four
        );
        // Conservation: 98 seeds in all (RP-2).
        let board: u32 = south.iter().chain(north.iter()).sum();
        assert_eq!(board + gain[0] + gain[1], 98);
    }

    #[test]
    fn vector_s1_owner() {
        first_move(
            owner(),
            1,
            [15, 4],
            [3, 1, 0, 0, 0, 14, 0],
            [14, 2, 14, 14, 1, 14, 2],
        );
    }

    #[test]
    fn vector_s2_owner() {
        first_move(
            owner(),
            2,
            [11, 8],
            [2, 3, 1, 0, 0, 0, 14],
            [0, 14, 2, 14, 14, 1, 14],
        );
    }

    #[test]
    fn vector_s3_owner() {
        first_move(
            owner(),
            3,
            [11, 8],
            [14, 2, 3, 1, 0, 0, 0],
            [14, 0, 14, 2, 14, 14, 1],
        );
    }

    #[test]
    fn vector_s6_owner() {
        first_move(
            owner(),
            6,
            [7, 12],
            [14, 14, 1, 14, 2, 3, 1],
            [0, 0, 0, 14, 0, 14, 2],
        );
    }

    #[test]
    fn vector_s7_owner() {
        first_move(
            owner(),
            7,
            [11, 8],
            [2, 14, 14, 1, 14, 2, 3],
            [1, 0, 0, 0, 14, 0, 14],
        );
    }

    #[test]
    fn vector_s1_none() {
        first_move(
            none(),
            1,
            [7, 4],
            [7, 1, 4, 0, 0, 14, 0],
            [14, 2, 14, 14, 1, 14, 2],
        );
    }

    #[test]
    fn vector_s2_none() {
        first_move(
            none(),
            2,
            [3, 8],
            [2, 7, 1, 4, 0, 0, 14],
            [0, 14, 2, 14, 14, 1, 14],
        );
    }

    #[test]
    fn vector_s3_none() {
        first_move(
            none(),
            3,
            [3, 8],
            [14, 2, 7, 1, 4, 0, 0],
            [14, 0, 14, 2, 14, 14, 1],
        );
    }

    #[test]
    fn vector_s6_none() {
        first_move(
            none(),
            6,
            [3, 8],
            [14, 14, 1, 14, 2, 7, 1],
            [4, 0, 0, 14, 0, 14, 2],
        );
    }

    #[test]
    fn vector_s7_none() {
        first_move(
            none(),
            7,
            [7, 4],
            [2, 14, 14, 1, 14, 2, 7],
            [1, 4, 0, 0, 14, 0, 14],
        );
    }

    /// "The move from s1 takes 12 laps; its last lap lifts 13 seeds from s4, wraps, and ends in
    /// s3, making a four there."
    #[test]
    fn vector_s1_laps() {
        for opts in [owner(), none()] {
            let mut g = RajaPasu::new(opts);
            let (ply, laps) = g.play_traced(1);
            assert_eq!(ply.laps, 12);
            assert_eq!(laps.len(), 12);
            assert_eq!(laps[0].lifted, (Side::South, 1));
            assert_eq!(
                laps[11],
                Lap {
                    lifted: (Side::South, 4),
                    seeds: 13,
                    last: (Side::South, 3),
                }
            );
        }
        // Under RP-O3 = none the four made by that last seed stays in s3.
        let mut g = RajaPasu::new(none());
        g.play(1);
        assert_eq!(g.observe().south[2], 4);
    }

    /// "From S[0 1 0 1 1 2 1] N[0 1 0 2 1 0 1], South plays s5; the laps never end (the
    /// position after lap 92 equals the one after lap 1)."
    #[test]
    fn vector_endless() {
        let mut g = RajaPasu::from_position(
            owner(),
            &[0, 1, 0, 1, 1, 2, 1],
            &[0, 1, 0, 2, 1, 0, 1],
            Side::South,
        );
        let ply = g.play(5);
        assert!(ply.endless);
        assert!(ply.round_over);
        assert!(!ply.cycle);
        assert_eq!(ply.laps, 92);
        assert_eq!(g.last_repeat(), Some((1, 92)));
        assert_eq!(ply.captured, [0, 0]);
        // RP-O10: each player takes their own row of the repeated lap-end position
        // S[0 1 0 1 0 3 1] N[0 1 0 2 1 0 1] (after lap 1: s5's seed into s6, s7 next).
        // The reserves (6 and 5) cannot open a hole: the match is over (RP-12), South wins.
        let o = g.observe();
        assert_eq!(o.captured, [6, 5]);
        assert_eq!(o.south, vec![0; 7]);
        assert_eq!(o.north, vec![0; 7]);
        assert_eq!(g.to_move(), None);
        assert_eq!(g.legal_mask(), 0);
        assert_eq!(g.result(), Some(Outcome::Winner(Side::South)));
    }

    /// The same endless move mid-match: the round ends, the board is refilled (RP-10) and the
    /// player who would have moved next, North, starts round 2 (RP-11).
    #[test]
    fn endless_then_refill_and_next_starter() {
        let mut g = RajaPasu::from_setup(
            owner(),
            &[0, 1, 0, 1, 1, 2, 1],
            &[0, 1, 0, 2, 1, 0, 1],
            &OPEN,
            &OPEN,
            [40, 40],
            Side::South,
        );
        let ply = g.play(5);
        assert!(ply.endless && ply.round_over);
        // Reserves 46 and 45: six holes each (42), the left end closed, 4 and 3 left over.
        let o = g.observe();
        assert_eq!(o.south, vec![0, 7, 7, 7, 7, 7, 7]);
        assert_eq!(o.north, vec![0, 7, 7, 7, 7, 7, 7]);
        assert_eq!(
            o.closed_south,
            vec![true, false, false, false, false, false, false]
        );
        assert_eq!(
            o.closed_north,
            vec![true, false, false, false, false, false, false]
        );
        assert_eq!(o.captured, [4, 3]);
        assert_eq!(o.to_move, Some(Side::North));
        assert_eq!(g.round(), 2);
        assert_eq!(g.legal_mask(), 0b111_1110);
        assert_eq!(g.result(), None);
    }

    /// RP-7: a four made mid-lap on the opponent's row goes to that row's owner.
    #[test]
    fn four_mid_lap_goes_to_row_owner() {
        // s7 (2 seeds): n1 3→4 (not the last seed: North takes it), n2 0→1; n3 empty, n4 empty.
        let mut g = RajaPasu::from_position(
            owner(),
            &[1, 0, 0, 0, 0, 0, 2],
            &[3, 0, 0, 0, 0, 0, 1],
            Side::South,
        );
        let ply = g.play(7);
        assert_eq!(ply.captured, [0, 4]);
        assert_eq!(ply.laps, 1);
        assert_eq!(
            g.observe(),
            seen(
                [1, 0, 0, 0, 0, 0, 0],
                [0, 1, 0, 0, 0, 0, 1],
                [0, 4],
                Some(Side::North)
            )
        );
    }

    /// RP-7 on the sower's own row: the sower owns it, so takes it.
    #[test]
    fn four_mid_lap_on_own_row() {
        // s1 (2 seeds): s2 3→4 (South takes it), s3 0→1; s4 empty, s5 empty.
        let mut g = RajaPasu::from_position(
            owner(),
            &[2, 3, 0, 0, 0, 0, 0],
            &[0, 0, 0, 0, 0, 0, 1],
            Side::South,
        );
        let ply = g.play(1);
        assert_eq!(ply.captured, [4, 0]);
        assert_eq!(
            rows(&g),
            (vec![0, 0, 1, 0, 0, 0, 0], vec![0, 0, 0, 0, 0, 0, 1])
        );
    }

    /// RP-O3: a four made by the lap's last seed, under the three readings.
    #[test]
    fn four_by_last_seed_rp_o3() {
        let south = [1, 0, 0, 0, 0, 0, 1];
        let north = [3, 0, 0, 0, 0, 0, 1];
        // Owner: North takes n1's four; then n2 is empty and n3 beyond it too: no pussa.
        let mut g = RajaPasu::from_position(owner(), &south, &north, Side::South);
        assert_eq!(g.play(7).captured, [0, 4]);
        assert_eq!(
            rows(&g),
            (vec![1, 0, 0, 0, 0, 0, 0], vec![0, 0, 0, 0, 0, 0, 1])
        );
        // Sower: South takes it.
        let mut g = RajaPasu::from_position(sower(), &south, &north, Side::South);
        assert_eq!(g.play(7).captured, [4, 0]);
        assert_eq!(
            rows(&g),
            (vec![1, 0, 0, 0, 0, 0, 0], vec![0, 0, 0, 0, 0, 0, 1])
        );
        // None: the four stays.
        let mut g = RajaPasu::from_position(none(), &south, &north, Side::South);
        assert_eq!(g.play(7).captured, [0, 0]);
        assert_eq!(
            rows(&g),
            (vec![1, 0, 0, 0, 0, 0, 0], vec![4, 0, 0, 0, 0, 0, 1])
        );
    }

    /// RP-6 pussa on the opponent's side: s7 → n1; n2 is empty; n3 beyond it is taken.
    #[test]
    fn pussa_on_opponent_side() {
        let mut g = RajaPasu::from_position(
            owner(),
            &[2, 0, 0, 0, 0, 0, 1],
            &[0, 0, 5, 0, 0, 0, 0],
            Side::South,
        );
        let ply = g.play(7);
        assert_eq!(ply.captured, [5, 0]);
        assert_eq!(
            g.observe(),
            seen(
                [2, 0, 0, 0, 0, 0, 0],
                [1, 0, 0, 0, 0, 0, 0],
                [5, 0],
                Some(Side::North)
            )
        );
    }

    /// RP-6 on the mover's own side: s1 → s2; s3 empty; s4 beyond it is taken by South.
    #[test]
    fn pussa_on_own_side() {
        let mut g = RajaPasu::from_position(
            owner(),
            &[1, 0, 0, 3, 0, 0, 0],
            &[0, 0, 0, 0, 0, 0, 2],
            Side::South,
        );
        assert_eq!(g.play(1).captured, [3, 0]);
        assert_eq!(
            rows(&g),
            (vec![0, 1, 0, 0, 0, 0, 0], vec![0, 0, 0, 0, 0, 0, 2])
        );
        assert_eq!(g.to_move(), Some(Side::North));
    }

    /// RP-O5: one capture by default; with `chain`, s6 beyond the next gap (s5) is taken too,
    /// and the necklace stops at s7 / n1, both empty.
    #[test]
    fn pussa_chain_rp_o5() {
        let south = [1, 0, 0, 2, 0, 3, 0];
        let north = [0, 0, 0, 0, 0, 0, 1];
        let mut g = RajaPasu::from_position(owner(), &south, &north, Side::South);
        assert_eq!(g.play(1).captured, [2, 0]);
        assert_eq!(rows(&g).0, vec![0, 1, 0, 0, 0, 3, 0]);
        let chain = Options {
            chain: true,
            ..Options::default()
        };
        let mut g = RajaPasu::from_position(chain, &south, &north, Side::South);
        assert_eq!(g.play(1).captured, [5, 0]);
        assert_eq!(rows(&g).0, vec![0, 1, 0, 0, 0, 0, 0]);
    }

    /// RP-O2 with a 14-seed lap from s1 on an otherwise empty board.
    #[test]
    fn origin_skip_rp_o2_full_lap() {
        let south = [14, 0, 0, 0, 0, 0, 0];
        let north = [0; 7];
        // Never: every hole gets 1, s1 included; relays s2, s4, s6, n1, n3, n5, n7 (1 seed
        // each, each making a 2); the last lands in s1 (2), s2 is empty, s3 (2) is taken.
        let mut g = RajaPasu::from_position(owner(), &south, &north, Side::South);
        let ply = g.play(1);
        assert_eq!(ply.laps, 8);
        assert_eq!(ply.captured, [2, 0]);
        assert_eq!(
            rows(&g),
            (vec![2, 0, 0, 0, 2, 0, 2], vec![0, 2, 0, 2, 0, 2, 0])
        );
        // Move, and Lap (the first lap's origin is the move's origin): s1 is skipped, the 14th
        // seed makes s2 = 2; relays s3, s5, s7, n2, n4, n6; n7 is last, s1 empty, s2 taken.
        for skip in [OriginSkip::Move, OriginSkip::Lap] {
            let opts = Options {
                origin_skip: skip,
                ..Options::default()
            };
            let mut g = RajaPasu::from_position(opts, &south, &north, Side::South);
            let ply = g.play(1);
            assert_eq!(ply.laps, 7, "{skip:?}");
            assert_eq!(ply.captured, [2, 0], "{skip:?}");
            assert_eq!(
                rows(&g),
                (vec![0, 0, 0, 2, 0, 2, 0], vec![2, 0, 2, 0, 2, 0, 2]),
                "{skip:?}"
            );
        }
    }

    /// RP-O2 Move vs Lap: a relay lap of 13 seeds from s3 passes the move's origin s1.
    #[test]
    fn origin_skip_rp_o2_move_vs_lap() {
        let south = [1, 0, 13, 0, 0, 0, 0];
        let north = [0; 7];
        // Never and Lap: lap 2 puts 1 in s4..n7 and s1, and the last in s2 (2); s3 is empty,
        // s4 (1) is taken.
        for skip in [OriginSkip::Never, OriginSkip::Lap] {
            let opts = Options {
                origin_skip: skip,
                ..Options::default()
            };
            let mut g = RajaPasu::from_position(opts, &south, &north, Side::South);
            let ply = g.play(1);
            assert_eq!(ply.laps, 2, "{skip:?}");
            assert_eq!(ply.captured, [1, 0], "{skip:?}");
            assert_eq!(
                rows(&g),
                (vec![1, 2, 0, 0, 1, 1, 1], vec![1; 7]),
                "{skip:?}"
            );
        }
        // Move: s1 is skipped, so lap 2 ends in s3 (1); relays s4, s6, n1, n3, n5, n7 (whose
        // seed skips s1 and makes s2 = 3), s3, s5 (2 seeds: s6, s7); n1 is empty, n2 (2) taken.
        let opts = Options {
            origin_skip: OriginSkip::Move,
            ..Options::default()
        };
        let mut g = RajaPasu::from_position(opts, &south, &north, Side::South);
        let ply = g.play(1);
        assert_eq!(ply.laps, 10);
        assert_eq!(ply.captured, [2, 0]);
        assert_eq!(
            rows(&g),
            (vec![0, 3, 0, 1, 0, 1, 3], vec![0, 0, 0, 2, 0, 2, 0])
        );
    }

    /// RP-O6: a closed n1 is skipped by sowing under both readings; as the "next hole" it is
    /// skipped (Absent) or an empty hole (Empty).
    #[test]
    fn closed_holes_rp_o6() {
        let closed_n1 = [true, false, false, false, false, false, false];
        // Sowing s7 (2 seeds) goes to n2, n3 under both readings.
        for closed in [Closed::Absent, Closed::Empty] {
            let opts = Options {
                closed,
                ..Options::default()
            };
            let mut g = RajaPasu::from_setup(
                opts,
                &[1, 0, 0, 0, 0, 0, 2],
                &[0, 0, 0, 0, 0, 0, 1],
                &OPEN,
                &closed_n1,
                [0, 0],
                Side::South,
            );
            assert_eq!(g.play(7).captured, [0, 0]);
            assert_eq!(rows(&g).1, vec![0, 1, 1, 0, 0, 0, 1], "{closed:?}");
            assert_eq!(g.observe().closed_north, closed_n1.to_vec());
        }
        let south = [1, 0, 0, 0, 0, 1, 0];
        let north = [0, 3, 0, 0, 0, 0, 1];
        // Absent: s6 → s7; the next hole is n2 (3): relay n3, n4, n5; n6 empty, n7 (1) taken.
        let mut g = RajaPasu::from_setup(
            owner(),
            &south,
            &north,
            &OPEN,
            &closed_n1,
            [0, 0],
            Side::South,
        );
        let ply = g.play(6);
        assert_eq!((ply.laps, ply.captured), (2, [1, 0]));
        assert_eq!(
            rows(&g),
            (vec![1, 0, 0, 0, 0, 0, 1], vec![0, 0, 1, 1, 1, 0, 0])
        );
        // Empty: s6 → s7; the next hole n1 is closed, so empty: the move ends and n2 beyond it
        // (3) is taken.
        let opts = Options {
            closed: Closed::Empty,
            ..Options::default()
        };
        let mut g =
            RajaPasu::from_setup(opts, &south, &north, &OPEN, &closed_n1, [0, 0], Side::South);
        let ply = g.play(6);
        assert_eq!((ply.laps, ply.captured), (1, [3, 0]));
        assert_eq!(
            rows(&g),
            (vec![1, 0, 0, 0, 0, 0, 1], vec![0, 0, 0, 0, 0, 0, 1])
        );
        // A closed hole is never a legal move, and never counts as a move for RP-8.
        let g = RajaPasu::from_setup(
            owner(),
            &[0, 0, 0, 0, 0, 0, 1],
            &[0; 7],
            &OPEN,
            &closed_n1,
            [0, 0],
            Side::South,
        );
        assert_eq!(g.legal_mask(), 0b100_0000);
    }

    /// RP-8 then RP-10: North's row is emptied by two fours (n1 mid-lap, n2 by the last seed,
    /// both North's); North cannot move, South takes the remainder (20) and starts round 2
    /// (RP-11). Refill (RP-O7 right): South fills s7, s6 (6 left over), North fills n7 (1 left).
    #[test]
    fn no_move_remainder_and_refill_closes_left_end() {
        let south = [20, 0, 0, 0, 0, 0, 2];
        let north = [3, 3, 0, 0, 0, 0, 0];
        let mut g = RajaPasu::from_position(owner(), &south, &north, Side::South);
        let ply = g.play(7);
        assert_eq!(ply.captured, [0, 8]);
        assert!(ply.round_over && !ply.endless && !ply.cycle);
        assert_eq!(g.round(), 2);
        assert_eq!(
            g.observe(),
            Observed {
                south: vec![0, 0, 0, 0, 0, 7, 7],
                north: vec![0, 0, 0, 0, 0, 0, 7],
                captured: [6, 1],
                closed_south: vec![true, true, true, true, true, false, false],
                closed_north: vec![true, true, true, true, true, true, false],
                to_move: Some(Side::South),
            }
        );
        assert_eq!(g.legal_mask(), 0b110_0000);
        assert_eq!(g.result(), None);

        // RP-O7 left: the unfilled holes are at the right end.
        let opts = Options {
            refill_from: Refill::Left,
            ..Options::default()
        };
        let mut g = RajaPasu::from_position(opts, &south, &north, Side::South);
        g.play(7);
        let o = g.observe();
        assert_eq!(o.south, vec![7, 7, 0, 0, 0, 0, 0]);
        assert_eq!(o.north, vec![7, 0, 0, 0, 0, 0, 0]);
        assert_eq!(
            o.closed_south,
            vec![false, false, true, true, true, true, true]
        );
        assert_eq!(
            o.closed_north,
            vec![false, true, true, true, true, true, true]
        );
        assert_eq!(o.captured, [6, 1]);
        assert_eq!(g.legal_mask(), 0b000_0011);
    }

    /// Round 2 of the position above, played under the default (closed holes absent): the track
    /// is s6 → s7 → n7 → s6. Hand-traced: laps from s6 (7), n7 (9, a four in s6 for South),
    /// s6 (1), n7 (3), s6 (1), n7 (1), s7 (16: fours s6 South, n7 North, s7 South), s6 (2);
    /// then s6 is empty and s7 (2) beyond it is taken.
    #[test]
    fn round_two_on_a_three_hole_track() {
        let mut g = RajaPasu::from_position(
            owner(),
            &[20, 0, 0, 0, 0, 0, 2],
            &[3, 3, 0, 0, 0, 0, 0],
            Side::South,
        );
        g.play(7);
        let ply = g.play(6);
        assert_eq!(ply.laps, 8);
        assert_eq!(ply.captured, [14, 4]);
        let o = g.observe();
        assert_eq!(o.south, vec![0; 7]);
        assert_eq!(o.north, vec![0, 0, 0, 0, 0, 0, 3]);
        assert_eq!(o.captured, [20, 5]);
        assert_eq!(o.to_move, Some(Side::North));
    }

    /// RP-8 / RP-9 / RP-12: the match ends when a reserve is below 7 after a round.
    #[test]
    fn match_end() {
        // RP-O3 sower: South takes the four in n2, North's row is empty: South takes the
        // remainder 20 → reserves 24 / 4: North cannot open a hole, South wins the match.
        let mut g = RajaPasu::from_position(
            sower(),
            &[20, 0, 0, 0, 0, 0, 2],
            &[3, 3, 0, 0, 0, 0, 0],
            Side::South,
        );
        let ply = g.play(7);
        assert_eq!(ply.captured, [4, 4]);
        assert!(ply.round_over);
        assert_eq!(g.observe(), seen([0; 7], [0; 7], [24, 4], None));
        assert_eq!(g.result(), Some(Outcome::Winner(Side::South)));
        assert_eq!(g.legal_mask(), 0);

        // The same reserves but both at least 7 after a round would continue; equal reserves
        // below 7 are a draw: a set-up position whose player to move (North) has no move at
        // once: South takes the 6 seeds on the board; reserves 6 / 6.
        let g = RajaPasu::from_setup(
            owner(),
            &[0, 0, 0, 0, 0, 0, 6],
            &[0; 7],
            &OPEN,
            &OPEN,
            [0, 6],
            Side::North,
        );
        assert_eq!(g.result(), Some(Outcome::Draw));
        assert_eq!(g.observe(), seen([0; 7], [0; 7], [6, 6], None));
    }

    /// The sequence S7 N7 S1 N1 S2 N2 … S6 N6 walks one seed per player round the board, never
    /// two holes apart, so never captures: after 14 plies the round's starting position is back.
    fn cycle_moves() -> [usize; 14] {
        [7, 7, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    }

    /// RP-O11: a cycling round ends; each player takes their own row.
    #[test]
    fn cycle_rp_o11() {
        let mut g = RajaPasu::from_position(
            owner(),
            &[0, 0, 0, 0, 0, 0, 1],
            &[0, 0, 0, 0, 0, 0, 1],
            Side::South,
        );
        let moves = cycle_moves();
        for (k, &h) in moves.iter().enumerate() {
            assert_ne!(g.legal_mask() & (1 << (h - 1)), 0);
            let ply: Ply = g.play(h);
            assert_eq!(ply.captured, [0, 0]);
            assert_eq!(ply.cycle, k == moves.len() - 1, "ply {}", k + 1);
        }
        // Reserves 1 / 1: the match is over, drawn.
        assert_eq!(g.observe(), seen([0; 7], [0; 7], [1, 1], None));
        assert_eq!(g.result(), Some(Outcome::Draw));
    }

    /// The same cycle mid-match: refill, and South (who would have moved next) starts round 2.
    #[test]
    fn cycle_then_next_starter() {
        let mut g = RajaPasu::from_setup(
            owner(),
            &[0, 0, 0, 0, 0, 0, 1],
            &[0, 0, 0, 0, 0, 0, 1],
            &OPEN,
            &OPEN,
            [20, 30],
            Side::South,
        );
        let mut last = Ply::default();
        for h in cycle_moves() {
            last = g.play(h);
        }
        assert!(last.cycle && last.round_over);
        // Reserves 21 / 31: South fills 3 holes (0 left), North 4 (3 left).
        assert_eq!(
            g.observe(),
            Observed {
                south: vec![0, 0, 0, 0, 7, 7, 7],
                north: vec![0, 0, 0, 7, 7, 7, 7],
                captured: [0, 3],
                closed_south: vec![true, true, true, true, false, false, false],
                closed_north: vec![true, true, true, false, false, false, false],
                to_move: Some(Side::South),
            }
        );
        assert_eq!(g.round(), 2);
    }

    /// RP-O9: North may start round 1.
    #[test]
    fn north_starts_rp_o9() {
        let opts = Options {
            first: Side::North,
            ..Options::default()
        };
        let mut g = RajaPasu::new(opts);
        assert_eq!(g.to_move(), Some(Side::North));
        // By symmetry North's n1 mirrors South's s1 vector.
        assert_eq!(g.play(1).captured, [4, 15]);
        let o = g.observe();
        assert_eq!(o.north, vec![3, 1, 0, 0, 0, 14, 0]);
        assert_eq!(o.south, vec![14, 2, 14, 14, 1, 14, 2]);
        assert_eq!(o.to_move, Some(Side::South));
    }

    #[test]
    #[should_panic]
    fn illegal_move_panics() {
        let mut g = RajaPasu::from_position(
            owner(),
            &[1, 0, 0, 0, 0, 0, 0],
            &[1, 0, 0, 0, 0, 0, 0],
            Side::South,
        );
        g.play(2);
    }

    /// Matches with a fixed pseudo-random policy, under every option (at most 5000 plies each):
    /// seeds are conserved (98 on board and in reserves), closed holes stay empty, and the
    /// player to move can always move.
    #[test]
    fn random_matches_invariants() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for game in 0..144 {
            let opts = Options {
                last_four: [LastFour::Owner, LastFour::Sower, LastFour::None][game % 3],
                origin_skip: [OriginSkip::Never, OriginSkip::Move, OriginSkip::Lap][(game / 3) % 3],
                chain: (game / 9) % 2 == 1,
                closed: [Closed::Absent, Closed::Empty][(game / 18) % 2],
                refill_from: [Refill::Right, Refill::Left][(game / 36) % 2],
                first: [Side::South, Side::North][(game / 72) % 2],
                ..Options::default()
            };
            let mut g = RajaPasu::new(opts);
            let mut plies = 0;
            while g.result().is_none() {
                let mask = g.legal_mask();
                assert_ne!(mask, 0);
                let holes: Vec<usize> = (1..=7).filter(|h| mask & (1 << (h - 1)) != 0).collect();
                let h = holes[(xorshift(&mut rng) % holes.len() as u64) as usize];
                g.play(h);
                let o = g.observe();
                let total: u32 = o.south.iter().chain(o.north.iter()).sum::<u32>()
                    + o.captured[0]
                    + o.captured[1];
                assert_eq!(total, 98);
                for (seeds, closed) in o
                    .south
                    .iter()
                    .chain(o.north.iter())
                    .zip(o.closed_south.iter().chain(o.closed_north.iter()))
                {
                    assert!(!closed || *seeds == 0);
                }
                plies += 1;
                // No clause bounds the number of rounds of a match (RP-O11 looks inside one
                // round only), and random play can run to hundreds of rounds: stop early.
                if plies == 5_000 {
                    break;
                }
            }
            if g.result().is_some() {
                assert_eq!(g.to_move(), None);
                assert_eq!(g.legal_mask(), 0);
            }
        }
    }

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }
}

// ---------------------------------------------------------------------------------------------
// Sadeqa II
// ---------------------------------------------------------------------------------------------

mod sadeqa {
    use super::reference::sadeqa_ii::{
        EmptyRow, Endless, Lap, Opening, Options, OriginSkip, SadeqaII,
    };
    use super::{Observed, Outcome, Side};

    fn seen(
        south: [u32; 6],
        north: [u32; 6],
        captured: [u32; 2],
        to_move: Option<Side>,
    ) -> Observed {
        Observed {
            south: south.to_vec(),
            north: north.to_vec(),
            captured,
            closed_south: vec![false; 6],
            closed_north: vec![false; 6],
            to_move,
        }
    }

    fn rows(g: &SadeqaII) -> (Vec<u32>, Vec<u32>) {
        let o = g.observe();
        (o.south, o.north)
    }

    /// "South must play s6 → S[0 4 4 0 0 1] N[5 5 1 4 4 4], 4 seeds removed (the last lap ends
    /// in the emptied n3, whose opposite s4 — South's own hole — is captured). North must then
    /// play n6 → S[1 5 5 1 0 1] N[5 5 0 4 4 0], 5 removed in all."
    #[test]
    fn vector_opening() {
        let mut g = SadeqaII::new(Options::default());
        assert_eq!(g.to_move(), Some(Side::South));
        assert_eq!(g.legal_mask(), 0b10_0000, "SQ-6: only s6");
        let (ply, laps) = g.play_traced(6);
        assert_eq!(ply.captured, [4, 0]);
        assert_eq!(ply.laps, 4);
        assert!(!ply.endless && !ply.cycle && !ply.round_over);
        assert_eq!(laps[1].lifted, (Side::North, 3), "n3 is emptied by lap 2");
        assert_eq!(laps[3].last, (Side::North, 3), "the last lap ends in n3");
        assert_eq!(
            g.observe(),
            seen(
                [0, 4, 4, 0, 0, 1],
                [5, 5, 1, 4, 4, 4],
                [4, 0],
                Some(Side::North)
            )
        );
        assert_eq!(g.legal_mask(), 0b10_0000, "SQ-6 / SQ-O1 both: only n6");
        let ply = g.play(6);
        assert_eq!(ply.captured, [0, 1]);
        assert_eq!(
            g.observe(),
            seen(
                [1, 5, 5, 1, 0, 1],
                [5, 5, 0, 4, 4, 0],
                [4, 1],
                Some(Side::South)
            )
        );
        let o = g.observe();
        let on_board: u32 = o.south.iter().chain(o.north.iter()).sum();
        assert_eq!(36 - on_board, 5, "5 removed in all");
        // Both first moves made: South may now play any occupied hole.
        assert_eq!(g.legal_mask(), 0b10_1111);
    }

    /// "From S[1 0 1 0 1 2] N[2 1 5 2 1 2], South plays s6; the laps never end." The document
    /// gives no lap indices; 229 repeating 1 is this model's count, confirmed by a separate
    /// throw-away simulation, not by the document.
    #[test]
    fn vector_endless() {
        let mut g = SadeqaII::from_position(
            Options::default(),
            &[1, 0, 1, 0, 1, 2],
            &[2, 1, 5, 2, 1, 2],
            Side::South,
        );
        let ply = g.play(6);
        assert!(ply.endless && ply.round_over && !ply.cycle);
        assert_eq!(ply.captured, [0, 0]);
        assert_eq!(g.last_repeat(), Some((1, 229)));
        assert_eq!(ply.laps, 229);
        assert_eq!(g.result(), Some(Outcome::Draw), "SQ-O4 default: draw");
        assert_eq!(g.to_move(), None);
        assert_eq!(g.legal_mask(), 0);
        // The board is left as it was at the repeated lap end (lap 1: s6's 2 seeds into n1, n2).
        assert_eq!(rows(&g), (vec![1, 0, 1, 0, 1, 0], vec![3, 2, 5, 2, 1, 2]));

        let opts = Options {
            endless: Endless::MoverLoses,
            ..Options::default()
        };
        let mut g =
            SadeqaII::from_position(opts, &[1, 0, 1, 0, 1, 2], &[2, 1, 5, 2, 1, 2], Side::South);
        assert!(g.play(6).endless);
        assert_eq!(g.result(), Some(Outcome::Winner(Side::North)));
    }

    /// SQ-6 / SQ-O1: under Starter only the first player is bound.
    #[test]
    fn opening_restriction_sq_o1() {
        let starter = Options {
            opening: Opening::Starter,
            ..Options::default()
        };
        let mut g = SadeqaII::new(starter);
        assert_eq!(g.legal_mask(), 0b10_0000);
        g.play(6);
        assert_eq!(rows(&g).1, vec![5, 5, 1, 4, 4, 4]);
        assert_eq!(g.legal_mask(), 0b11_1111, "North is free");

        // North starts and is bound; South is free from the start.
        let north_first = Options {
            opening: Opening::Starter,
            first: Side::North,
            ..Options::default()
        };
        let mut g = SadeqaII::new(north_first);
        assert_eq!(g.to_move(), Some(Side::North));
        assert_eq!(g.legal_mask(), 0b10_0000);
        let ply = g.play(6);
        // Mirror of South's opening.
        assert_eq!(ply.captured, [0, 4]);
        assert_eq!(rows(&g), (vec![5, 5, 1, 4, 4, 4], vec![0, 4, 4, 0, 0, 1]));
        assert_eq!(g.legal_mask(), 0b11_1111);

        // A set-up position is mid-game: nobody is bound.
        let g = SadeqaII::from_position(
            Options::default(),
            &[1, 0, 2, 0, 0, 0],
            &[1; 6],
            Side::South,
        );
        assert_eq!(g.legal_mask(), 0b00_0101);
    }

    #[test]
    #[should_panic]
    fn opening_restriction_panics_on_other_hole() {
        let mut g = SadeqaII::new(Options::default());
        g.play(1);
    }

    /// SQ-7: capture on the opponent's side; and no capture when the opposite hole is empty.
    #[test]
    fn capture_sq_7() {
        // s2 (2 seeds): s3, s4 (empty) → opposite n3 (3) is taken; the capturing seed stays.
        let mut g = SadeqaII::from_position(
            Options::default(),
            &[0, 2, 0, 0, 0, 0],
            &[0, 0, 3, 0, 3, 0],
            Side::South,
        );
        let ply = g.play(2);
        assert_eq!(ply.captured, [3, 0]);
        assert_eq!(
            g.observe(),
            seen(
                [0, 0, 1, 1, 0, 0],
                [0, 0, 0, 0, 3, 0],
                [3, 0],
                Some(Side::North)
            )
        );
        // The same with n3 empty: nothing is captured.
        let mut g = SadeqaII::from_position(
            Options::default(),
            &[0, 2, 0, 0, 0, 0],
            &[0, 0, 0, 0, 3, 0],
            Side::South,
        );
        assert_eq!(g.play(2).captured, [0, 0]);
        assert_eq!(rows(&g), (vec![0, 0, 1, 1, 0, 0], vec![0, 0, 0, 0, 3, 0]));
    }

    /// SQ-8 / SQ-9: South captures North's last seeds; North cannot move and loses.
    #[test]
    fn survival_win_sq_8_9() {
        let mut g = SadeqaII::from_position(
            Options::default(),
            &[0, 2, 0, 0, 0, 0],
            &[0, 0, 3, 0, 0, 0],
            Side::South,
        );
        let ply = g.play(2);
        assert!(ply.round_over);
        assert_eq!(g.result(), Some(Outcome::Winner(Side::South)));
        assert_eq!(g.observe(), seen([0, 0, 1, 1, 0, 0], [0; 6], [3, 0], None));
        assert_eq!(g.legal_mask(), 0);

        // A set-up position whose player to move has no move is lost at once.
        let g = SadeqaII::from_position(
            Options::default(),
            &[0; 6],
            &[1, 0, 0, 0, 0, 0],
            Side::South,
        );
        assert_eq!(g.result(), Some(Outcome::Winner(Side::North)));
        assert_eq!(g.to_move(), None);
    }

    /// SQ-O6: South's s6 → n1 empties South's row (n1's opposite is the emptied s6).
    #[test]
    fn empty_row_sq_o6() {
        let south = [0, 0, 0, 0, 0, 1];
        let north = [0, 0, 0, 0, 0, 1];
        // At turn start (default): play goes on, and North's n6 → s1 refills South's row
        // (s1's opposite is the emptied n6: no capture).
        let mut g = SadeqaII::from_position(Options::default(), &south, &north, Side::South);
        let ply = g.play(6);
        assert!(!ply.round_over);
        assert_eq!(rows(&g), (vec![0; 6], vec![1, 0, 0, 0, 0, 1]));
        assert_eq!(g.result(), None);
        assert_eq!(g.legal_mask(), 0b10_0001);
        let ply = g.play(6);
        assert_eq!(ply.captured, [0, 0]);
        assert_eq!(rows(&g), (vec![1, 0, 0, 0, 0, 0], vec![1, 0, 0, 0, 0, 0]));
        assert_eq!(g.to_move(), Some(Side::South));
        // Had North played n1 instead (→ n2; opposite s5 empty), South could not move and
        // would lose at the start of their turn (SQ-8).
        let mut g = SadeqaII::from_position(Options::default(), &south, &north, Side::South);
        g.play(6);
        let ply = g.play(1);
        assert!(ply.round_over);
        assert_eq!(g.result(), Some(Outcome::Winner(Side::North)));

        // At once: South loses as soon as their own ply leaves their row empty.
        let at_once = Options {
            empty_row: EmptyRow::AtOnce,
            ..Options::default()
        };
        let mut g = SadeqaII::from_position(at_once, &south, &north, Side::South);
        let ply = g.play(6);
        assert!(ply.round_over);
        assert_eq!(g.result(), Some(Outcome::Winner(Side::North)));
    }

    /// SQ-O3 with a 12-seed lap from s1 (n6 holds 1).
    #[test]
    fn origin_skip_sq_o3() {
        let south = [12, 0, 0, 0, 0, 0];
        let north = [0, 0, 0, 0, 0, 1];
        // Never: one seed everywhere, the last in the emptied s1: opposite n6 (2) is taken.
        let mut g = SadeqaII::from_position(Options::default(), &south, &north, Side::South);
        let ply = g.play(1);
        assert_eq!((ply.laps, ply.captured), (1, [2, 0]));
        assert_eq!(rows(&g), (vec![1; 6], vec![1, 1, 1, 1, 1, 0]));
        // Move: the 12th seed skips s1 into s2 (2): relays s2, s4, s6, n2, n4 (2 seeds each),
        // n6 (3: skips s1, into s2, s3, s4 — s4 was empty); opposite n3 (2) is taken.
        let opts = Options {
            origin_skip: OriginSkip::Move,
            ..Options::default()
        };
        let mut g = SadeqaII::from_position(opts, &south, &north, Side::South);
        let ply = g.play(1);
        assert_eq!((ply.laps, ply.captured), (7, [2, 0]));
        assert_eq!(rows(&g), (vec![0, 1, 3, 1, 2, 0], vec![2, 0, 0, 0, 2, 0]));
        // Lap: as Move until n6's lap (3), which now sows s1, s2, s3 (3); s3's lap (3) sows
        // s4, s5, s6 — s6 was empty; opposite n1 (2) is taken.
        let opts = Options {
            origin_skip: OriginSkip::Lap,
            ..Options::default()
        };
        let mut g = SadeqaII::from_position(opts, &south, &north, Side::South);
        let (ply, laps) = g.play_traced(1);
        assert_eq!((ply.laps, ply.captured), (8, [2, 0]));
        assert_eq!(
            laps[7],
            Lap {
                lifted: (Side::South, 3),
                seeds: 3,
                last: (Side::South, 6),
            }
        );
        assert_eq!(rows(&g), (vec![1, 1, 0, 1, 3, 1], vec![0, 0, 2, 0, 2, 0]));
    }

    /// SQ-O5: a six-ply cycle without a capture (hand-traced: S s4 relays s5, n1; N n2 relays
    /// n3; S s6 → n1; N n4 relays n5, s1; S s2 relays s3; N n6 → s1) is a draw.
    #[test]
    fn cycle_sq_o5() {
        let mut g = SadeqaII::from_position(
            Options::default(),
            &[1, 0, 0, 1, 1, 0],
            &[1, 0, 0, 0, 0, 0],
            Side::South,
        );
        let moves = [4, 2, 6, 4, 2, 6];
        let after = [
            ([1, 0, 0, 0, 0, 1], [0, 1, 1, 0, 0, 0]),
            ([1, 0, 0, 0, 0, 1], [0, 0, 0, 1, 1, 0]),
            ([1, 0, 0, 0, 0, 0], [1, 0, 0, 1, 1, 0]),
            ([0, 1, 1, 0, 0, 0], [1, 0, 0, 0, 0, 1]),
            ([0, 0, 0, 1, 1, 0], [1, 0, 0, 0, 0, 1]),
        ];
        for (k, &h) in moves.iter().enumerate() {
            let ply = g.play(h);
            assert_eq!(ply.captured, [0, 0]);
            assert_eq!(ply.cycle, k == 5, "ply {}", k + 1);
            if k < 5 {
                let (s, n) = after[k];
                assert_eq!(rows(&g), (s.to_vec(), n.to_vec()), "after ply {}", k + 1);
            }
        }
        assert_eq!(rows(&g), (vec![1, 0, 0, 1, 1, 0], vec![1, 0, 0, 0, 0, 0]));
        assert_eq!(g.result(), Some(Outcome::Draw));
        assert_eq!(g.to_move(), None);
    }

    /// Whole games with a fixed pseudo-random policy under every option: 36 seeds on the
    /// board or captured, the player to move can always move, games end.
    #[test]
    fn random_games_invariants() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for game in 0..1000 {
            let opts = Options {
                opening: [Opening::Both, Opening::Starter][game % 2],
                first: [Side::South, Side::North][(game / 2) % 2],
                origin_skip: [OriginSkip::Never, OriginSkip::Move, OriginSkip::Lap][(game / 4) % 3],
                endless: [Endless::Draw, Endless::MoverLoses][(game / 12) % 2],
                empty_row: [EmptyRow::AtTurnStart, EmptyRow::AtOnce][(game / 24) % 2],
                ..Options::default()
            };
            let mut g = SadeqaII::new(opts);
            let mut plies = 0;
            while g.result().is_none() {
                let mask = g.legal_mask();
                assert_ne!(mask, 0);
                let holes: Vec<usize> = (1..=6).filter(|h| mask & (1 << (h - 1)) != 0).collect();
                let h = holes[(xorshift(&mut rng) % holes.len() as u64) as usize];
                g.play(h);
                let o = g.observe();
                let total: u32 = o.south.iter().chain(o.north.iter()).sum::<u32>()
                    + o.captured[0]
                    + o.captured[1];
                assert_eq!(total, 36);
                plies += 1;
                assert!(plies < 100_000, "game does not end");
            }
            assert_eq!(g.legal_mask(), 0);
        }
    }

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }
}

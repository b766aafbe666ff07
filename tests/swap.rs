//! The pie rule (`[turns] swap`) through the library: offered once, at the first turn of the
//! player who did not make the first ply, listed after the sowings; the board turned round with
//! everything that belongs to a side; every seed kept.

use std::sync::Arc;

use sow::engine::{Game, Move, Offer, Position, Status};
use sow::notation::parse_position;
use sow::rules::{Rules, holes_in};

const PIE: &str = include_str!("scenarios/rulesets/pie.toml");

fn rules(text: &str) -> Arc<Rules> {
    Arc::new(
        sow::check::load(text, &[])
            .expect("the test ruleset loads")
            .rules,
    )
}

fn label(rules: &Rules, text: &str) -> u8 {
    rules
        .geometry
        .site_labelled(text)
        .expect("a label of the board")
}

/// The first slot of a variable.
fn slot(rules: &Rules, name: &str) -> usize {
    let v = rules
        .vars
        .iter()
        .find(|v| v.name == name)
        .expect("a variable");
    usize::from(v.slot)
}

#[test]
fn the_swap_is_offered_once_listed_last() {
    let r = rules(PIE);
    let mut g = Game::new(r.clone());
    assert!(
        !g.legal_moves().contains(Move::SWAP),
        "not to the first player"
    );
    g.play(Move::sow(label(&r, "s2")), &mut ())
        .expect("South sows");
    let moves: Vec<Move> = g.legal_moves().iter().collect();
    assert_eq!(moves.last(), Some(&Move::SWAP), "listed after the sowings");
    assert_eq!(g.legal_moves().len(), moves.len());
    assert_eq!(g.legal_moves().get(moves.len() - 1), Some(Move::SWAP));
    assert_eq!(g.position().offer, Offer::Swap);
    g.play(Move::sow(label(&r, "n2")), &mut ())
        .expect("North declines by sowing");
    assert!(!g.legal_moves().contains(Move::SWAP));
    assert!(
        g.why_illegal(0, Move::SWAP)
            .is_some_and(|why| why.contains("offers `swap` once"))
    );
}

#[test]
fn a_swap_turns_the_board_and_the_sides_state_round() {
    let r = rules(PIE);
    let mut pos: Position =
        parse_position(&r, "S[0 4 0] N[4 4 1] S*=2 N*=0 swap north").expect("a position");
    let (captures, emptied) = (slot(&r, "captures"), slot(&r, "emptied"));
    // South has captured twice, emptying s1 and s3; North once, emptying n2.
    pos.vars[captures] = 2;
    pos.vars[captures + 1] = 1;
    let width = sow::rules::HOLES_WIDTH;
    let mark =
        |vars: &mut [i32], at: usize, h: u8| sow::rules::mark_hole(vars, at, u32::from(h), true);
    mark(&mut pos.vars, emptied, label(&r, "s1"));
    mark(&mut pos.vars, emptied, label(&r, "s3"));
    mark(&mut pos.vars, emptied + width, label(&r, "n2"));
    let total = pos.total();
    let mut g = Game::from_position(r.clone(), pos);
    assert!(g.legal_moves().contains(Move::SWAP));
    g.play(Move::SWAP, &mut ()).expect("North swaps");
    let after = g.position();
    let expected = parse_position(&r, "S[4 4 1] N[0 4 0] S*=0 N*=2 south").expect("a position");
    assert_eq!(
        after.board, expected.board,
        "each k-th hole takes the other's seeds"
    );
    assert_eq!(after.to_move, 0, "the first player moves again");
    assert_eq!(after.offer, Offer::Sow);
    assert_eq!(after.total(), total, "every seed kept");
    assert_eq!((after.vars[captures], after.vars[captures + 1]), (1, 2));
    let set = |at: usize| holes_in(&after.vars, at);
    let bits = |labels: &[&str]| {
        labels
            .iter()
            .fold(0, |m, l| m | sow::rules::bit(label(&r, l)))
    };
    assert_eq!(set(emptied), bits(&["s2"]), "North's n2 is South's s2 now");
    assert_eq!(set(emptied + width), bits(&["n1", "n3"]));
    assert_eq!(g.status(), Status::Playing);
}

#[test]
fn a_position_set_up_by_hand_offers_no_swap_unless_it_says_so() {
    let r = rules(PIE);
    let pos = parse_position(&r, "S[0 4 0] N[4 4 1] S*=2 N*=0 north").expect("a position");
    let g = Game::from_position(r, pos);
    assert!(!g.legal_moves().contains(Move::SWAP));
}

#[test]
fn the_swap_word_needs_the_pie_rule() {
    let text = PIE.replace("default = \"yes\"", "default = \"no\"");
    let r = rules(&text);
    let err = parse_position(&r, "S[0 4 0] N[4 4 1] swap north").expect_err("no pie rule");
    assert!(err.to_string().contains("no pie rule"), "{err}");
}

#[test]
fn a_board_that_is_not_the_same_from_both_sides_is_refused() {
    let text = PIE.replace(
        "store_side = \"right\"",
        "store_side = \"right\"\n\n[board.owners]\nsouth = [\"s1\", \"s2\", \"n1\"]\nnorth = [\"s3\", \"n2\", \"n3\"]",
    );
    let Err(e) = sow::check::load(&text, &[]) else {
        panic!("an uneven board with the pie rule loads");
    };
    assert!(
        format!("{e:?}").contains("E0146") || format!("{e:?}").contains("SwapUnsupported"),
        "{e:?}"
    );
}

#[test]
fn a_ring_turns_by_as_many_holes_as_carry_the_owners() {
    // Owners alternating round a ring of eight: the turn is by one hole, r1 onto r2.
    let text = r#"
format = 1
name = "Alternating ring"

[board]
rows = 1
holes = 8
seeds = 2
stores = "reserve"

[board.owners]
south = ["r1", "r3", "r5", "r7"]
north = ["r2", "r4", "r6", "r8"]

[sowing]
direction = "ccw"

[turns]
swap = true

[end]
no_move = { remaining = "owners", result = "most_seeds" }
"#;
    let r = rules(text);
    let turned = r.swap.expect("the ring looks the same from both sides");
    for k in 1..=8u8 {
        let (from, to) = (format!("r{k}"), format!("r{}", k % 8 + 1));
        assert_eq!(
            turned[usize::from(label(&r, &from))],
            label(&r, &to),
            "{from}"
        );
    }
    let mut g = Game::new(r.clone());
    g.play(Move::sow(label(&r, "r1")), &mut ())
        .expect("South sows");
    let before = *g.position();
    g.play(Move::SWAP, &mut ()).expect("North swaps");
    for k in 1..=8u8 {
        let (from, to) = (
            label(&r, &format!("r{k}")),
            label(&r, &format!("r{}", k % 8 + 1)),
        );
        assert_eq!(g.position().seeds(to), before.seeds(from));
    }
}

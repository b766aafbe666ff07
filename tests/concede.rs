//! Conceding (`[end] concede`) through the library: legal for the player to move, in play,
//! where the rules allow it; never among the legal moves listed; ending the game at once.

use std::sync::Arc;

use sow::engine::{Game, Move, MoveError, Status};

fn game(text: &str) -> Game {
    let loaded = sow::check::load(text, &[]).expect("the test ruleset loads");
    Game::new(Arc::new(loaded.rules))
}

const CONCEDE: &str = include_str!("scenarios/rulesets/concede.toml");

#[test]
fn only_the_player_to_move_concedes_while_the_game_is_in_play() {
    let mut g = game(CONCEDE);
    assert!(!g.legal_moves().contains(Move::CONCEDE), "never listed");
    assert_eq!(g.why_illegal(0, Move::CONCEDE), None, "South, to move, may");
    assert!(
        g.why_illegal(1, Move::CONCEDE)
            .is_some_and(|why| why.contains("only the player to move")),
        "North, not to move, may not"
    );
    g.play(Move::CONCEDE, &mut ()).expect("South concedes");
    assert_eq!(g.status(), Status::Over { winner: Some(1) });
    assert!(
        g.why_illegal(1, Move::CONCEDE).is_some(),
        "not once the game is over"
    );
    assert!(matches!(
        g.play(Move::CONCEDE, &mut ()),
        Err(MoveError::GameOver)
    ));
}

#[test]
fn rules_without_a_concession_refuse_it() {
    let text = CONCEDE.replace("concede = {", "# concede = {");
    let mut g = game(&text);
    let why = g.why_illegal(0, Move::CONCEDE).expect("refused");
    assert!(why.contains("[end] concede"), "{why}");
    assert!(matches!(
        g.play(Move::CONCEDE, &mut ()),
        Err(MoveError::Illegal { .. })
    ));
    assert_eq!(g.status(), Status::Playing);
}

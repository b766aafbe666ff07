//! Scenario snapshots: each file in tests/scenarios/ sets up a position under a shipped
//! ruleset (or a small ruleset of tests/scenarios/rulesets/ that shows one feature of the
//! language) and plays moves; the snapshot holds the scenario and the full trace, so a reader
//! can check every event against the documented clause it cites.

use std::sync::Arc;

use serde::Deserialize;
use sow::engine::Game;
use sow::notation::{parse_move, parse_position};
use sow::render::{Detail, trace_text};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    /// What the scenario shows, citing the clause.
    about: String,
    ruleset: String,
    #[serde(default)]
    options: std::collections::BTreeMap<String, String>,
    /// A set-up position; the ruleset's start when absent.
    #[serde(default)]
    position: Option<String>,
    moves: Vec<String>,
    #[serde(default)]
    detail: Option<String>,
}

#[test]
fn scenarios() {
    insta::glob!("scenarios/*.toml", |path| {
        let text = std::fs::read_to_string(path).expect("read scenario");
        let s: Scenario =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let local;
        let source = match sow::catalog::shipped(&s.ruleset) {
            Some(text) => text,
            None => {
                let file = path.with_file_name(&s.ruleset);
                local = std::fs::read_to_string(&file)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                &local
            }
        };
        let overrides: Vec<(String, String)> = s.options.clone().into_iter().collect();
        let rules = match sow::check::load(source, &overrides) {
            Ok(l) => Arc::new(l.rules),
            Err(d) => panic!("{}: {d:?}", path.display()),
        };
        // A set-up position in which the player to move cannot move ends the game (or its
        // round) at once: the trace says how, before any move.
        let mut set_up = Vec::new();
        let position = (s.position.as_ref()).map(|p| parse_position(&rules, p).expect("position"));
        let mut game = match position {
            Some(p) => Game::from_position_traced(rules.clone(), p, &mut set_up),
            None => Game::new(rules.clone()),
        };
        let detail = match s.detail.as_deref() {
            Some("plies") => Detail::Plies,
            Some("laps") => Detail::Laps,
            _ => Detail::Drops,
        };
        // The start as set up: an ending at once is in the trace that follows.
        let start = position.unwrap_or(*game.position());
        let mut out = format!("start {}\n", sow::render::board(&rules, &start));
        if !set_up.is_empty() {
            out.push_str(&trace_text(&rules, &set_up, &[*game.position()], detail));
        }
        let start_total = rules.seeds_in(game.position());
        for m in &s.moves {
            let legal: Vec<String> = game.legal_moves().iter().map(|m| m.label(&rules)).collect();
            let Some(mover) = game.to_move() else {
                out.push_str(&format!("{m}: refused, the game is over\n"));
                break;
            };
            out.push_str(&format!(
                "{} to move, legal: {}\n",
                rules.player_title(mover),
                legal.join(" ")
            ));
            // Read by the rules in force: the holes' owners may have changed between rounds.
            let hole = match parse_move(game.rules(), mover, m) {
                Ok(h) => h,
                Err(e) => {
                    out.push_str(&format!("{m}: refused: {e}\n"));
                    continue;
                }
            };
            let mut events = Vec::new();
            match game.play(hole, &mut events) {
                Ok(_) => out.push_str(&trace_text(&rules, &events, &[*game.position()], detail)),
                Err(e) => out.push_str(&format!("{m}: refused: {e}\n")),
            }
            assert_eq!(
                rules.seeds_in(game.position()),
                start_total,
                "seeds are conserved"
            );
        }
        out.push_str(&format!("status {:?}\n", game.status()));
        insta::with_settings!({ description => s.about.clone(), omit_expression => true }, {
            insta::assert_snapshot!(format!("{}\n----- SCENARIO -----\n{}", out, text));
        });
    });
}

//! Pictures without a browser: the board layout of every shipped ruleset, SVG boards (parsed
//! as XML, and snapshots of a few), hand-built layouts of shapes the rules cannot make yet
//! (three rows with a neutral row, a ring of three players' holes), and the replay's steps,
//! checked against the engine over many random games of every shipped ruleset.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use sow::engine::{Game, Position};
use sow::picture::html::{Page, Replay, RuleTexts, cited_ids};
use sow::picture::layout::{
    self, BoardState, Caption, Edge, Layout, Mark, Owner, RingSpec, RowSpec, RowsSpec, SiteKind,
    SiteSpec, SiteState,
};
use sow::picture::svg;
use sow::rules::Rules;

/// A shipped ruleset, or one of the rulesets of tests/scenarios/rulesets/ that show one
/// feature of the language each.
fn rules(name: &str, options: &[(String, String)]) -> Arc<Rules> {
    let text = match sow::catalog::shipped(name) {
        Some(text) => text.to_string(),
        None => std::fs::read_to_string(format!("tests/scenarios/rulesets/{name}.toml"))
            .expect("a feature ruleset"),
    };
    Arc::new(sow::check::load(&text, options).expect("loads").rules)
}

/// The feature rulesets of tests/scenarios/rulesets/, by name.
fn feature_rulesets() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("tests/scenarios/rulesets")
        .expect("the feature rulesets")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".toml")
                .map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// The shipped rulesets the pictures draw: those of two players (`sow draw` refuses the
/// others, see `cli.rs`).
fn shipped() -> Vec<&'static str> {
    sow::catalog::SHIPPED
        .iter()
        .filter(|(_, text)| sow::check::load(text, &[]).is_ok_and(|l| l.rules.geometry.seats == 2))
        .map(|(n, _)| *n)
        .collect()
}

/// The default options, then each other value of each option on its own.
fn option_values(rules: &Rules) -> Vec<Vec<(String, String)>> {
    let mut mixes = vec![Vec::new()];
    for o in &rules.options {
        for v in o.values.iter().filter(|v| **v != o.default) {
            mixes.push(vec![(o.name.clone(), v.clone())]);
        }
    }
    mixes
}

/// Parses an SVG drawing and checks what every site shows against the state drawn.
fn check_svg(text: &str, layout: &Layout, state: &BoardState) {
    let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(root.children().any(|n| n.has_tag_name("title")));
    assert!(root.children().any(|n| n.has_tag_name("desc")));
    let sites: Vec<_> = root
        .descendants()
        .filter(|n| n.attribute("data-site").is_some())
        .collect();
    assert_eq!(sites.len(), layout.sites.len());
    for ((node, site), st) in sites.iter().zip(&layout.sites).zip(&state.sites) {
        assert_eq!(node.attribute("data-label"), Some(site.label.as_str()));
        assert_eq!(
            node.attribute("data-seeds"),
            Some(st.seeds.to_string().as_str())
        );
        assert_eq!(node.attribute("data-owner"), Some(st.owner.key().as_str()));
        let count = node
            .descendants()
            .find(|n| n.attribute("class") == Some("count"))
            .and_then(|n| n.text());
        assert_eq!(
            count,
            Some(layout::count_text(st).as_str()),
            "{}",
            site.label
        );
        let dots = node
            .descendants()
            .filter(|n| n.attribute("class") == Some("dot"))
            .count() as u32;
        let closed = st.marks.contains(&Mark::Closed);
        if site.kind == SiteKind::Hole && !closed && st.seeds <= layout::MAX_DOTS {
            assert_eq!(dots, st.seeds, "{}", site.label);
        } else {
            assert_eq!(dots, 0, "{}", site.label);
        }
    }
    // Every site is inside the drawing.
    for s in &layout.sites {
        assert!(s.at.x > 0.0 && s.at.x < layout.width, "{}", s.label);
        assert!(s.at.y > 0.0 && s.at.y < layout.height, "{}", s.label);
    }
}

fn draw(layout: &Layout, state: &BoardState, title: &str) -> String {
    let text = svg::board(layout, state, &svg::Texts { title, id: "board" });
    check_svg(&text, layout, state);
    text
}

/// Plays `plies` random legal moves (fewer if the game ends).
fn random_game(rules: &Arc<Rules>, seed: u64, plies: usize) -> Game {
    let mut game = Game::new(rules.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        let moves = game.legal_moves().to_vec();
        if moves.is_empty() {
            break;
        }
        let h = moves[rng.random_range(0..moves.len())];
        game.play(h, &mut ()).expect("legal");
    }
    game
}

#[test]
fn every_shipped_board_draws_as_well_formed_svg() {
    for name in shipped() {
        let r = rules(name, &[]);
        for (seed, plies) in [(0, 0), (1, 7), (2, 40)] {
            let game = random_game(&r, seed, plies);
            let pos = game.position();
            let layout = layout::of_rules(&r, true);
            // Every hole and store of the board is drawn once, and each player's bank.
            let g = &r.geometry;
            for p in 0..g.positions {
                assert_eq!(
                    layout.sites.iter().filter(|s| s.pos == Some(p)).count(),
                    1,
                    "{name}: {}",
                    g.label(p)
                );
            }
            for p in 0..2 {
                assert!(layout.bank_of(&r, p).is_some(), "{name}");
                assert!(layout.tray_of(SiteKind::Sink, p).is_some(), "{name}");
            }
            let state = layout.state(pos, game.to_move());
            draw(&layout, &state, name);
        }
    }
}

/// A board position as the notation writes it.
fn position(r: &Rules, text: &str) -> Position {
    sow::notation::parse_position(r, text).expect("a position")
}

/// A shipped ruleset's board at the start.
fn start_board(name: &str, title: &str) -> String {
    let r = rules(name, &[]);
    let layout = layout::of_rules(&r, false);
    let state = layout.state(Game::new(r.clone()).position(), Some(0));
    draw(&layout, &state, title)
}

#[test]
fn snapshot_kalah_start() {
    insta::assert_snapshot!(start_board("kalah", "Kalah, the start"));
}

#[test]
fn snapshot_hus_four_rows() {
    insta::assert_snapshot!(start_board("hus", "Hus, the start"));
}

#[test]
fn a_three_row_board_is_drawn_as_its_circuit_runs() {
    let r = rules("rabe", &[]);
    let layout = layout::of_rules(&r, false);
    let at = |l: &str| layout.sites.iter().find(|s| s.label == l).expect(l).at;
    // Rows from the top as South sees the board: North's row from North's right, the middle
    // row with North's half on South's left, South's row from South's left (RB-1).
    let rows = [
        ["n6", "n5", "n4", "n3", "n2", "n1"],
        ["n7", "n8", "n9", "s9", "s8", "s7"],
        ["s1", "s2", "s3", "s4", "s5", "s6"],
    ];
    for (i, row) in rows.iter().enumerate() {
        for pair in row.windows(2) {
            assert!(at(pair[0]).x < at(pair[1]).x, "{pair:?}");
            assert!((at(pair[0]).y - at(pair[1]).y).abs() < 1e-9, "{pair:?}");
        }
        if let Some(below) = rows.get(i + 1) {
            assert!(at(row[0]).y < at(below[0]).y);
            // Columns line up: s7 is in front of s6, n7 in front of n6.
            for (a, b) in row.iter().zip(below.iter()) {
                assert!((at(a).x - at(b).x).abs() < 1e-9, "{a} above {b}");
            }
        }
    }
    // A line each side of the middle row.
    assert_eq!(layout.dividers.len(), 2);
}

#[test]
fn snapshot_congkak_stores_on_the_left() {
    let r = rules("congkak", &[]);
    let layout = layout::of_rules(&r, false);
    // South's store is at South's left, North's facing it.
    let south = layout
        .site_of(r.geometry.store_of(0).expect("store"))
        .expect("drawn");
    let north = layout
        .site_of(r.geometry.store_of(1).expect("store"))
        .expect("drawn");
    assert!(layout.sites[south].at.x < layout.sites[north].at.x);
    let pos = position(&r, "S[0 25 3 0 1 7 7] N[7 7 0 8 7 7 7] S*=11 N*=1 north");
    let state = layout.state(&pos, Some(1));
    insta::assert_snapshot!(draw(&layout, &state, "Congkak, set up"));
}

#[test]
fn snapshot_closed_claimed_and_removed() {
    // A claimed hole, closed holes, seeds held and removed: every mark a position has today.
    let r = rules("toguz_kumalak", &[]);
    let pos = position(
        &r,
        "S[x x 0 25 3 9 9 1 0] N[9 0 9 12 9 9 9 9 9] S*=20 N*=3 removed S=2 N=0 claimed S=n2 north",
    );
    let layout = layout::of_rules(&r, true);
    let state = layout.state(&pos, Some(1));
    let claimed = layout.site_of(r.geometry.holes(1)[1]).expect("n2");
    assert_eq!(state.sites[claimed].marks, vec![Mark::ClaimedBy(0)]);
    insta::assert_snapshot!(draw(&layout, &state, "Toguz Kumalak, set up"));
}

fn spec(kind: SiteKind, label: &str, owner: Owner) -> SiteSpec {
    SiteSpec {
        kind,
        label: label.into(),
        owner,
        pos: None,
    }
}

/// A state for a hand-built layout: `seeds` per site, owners as laid out.
fn state_of(layout: &Layout, seeds: &[u32]) -> BoardState {
    BoardState {
        sites: layout
            .sites
            .iter()
            .zip(seeds.iter().chain(std::iter::repeat(&0)))
            .map(|(s, &n)| SiteState {
                seeds: n,
                owner: s.owner,
                marks: Vec::new(),
            })
            .collect(),
        to_move: Some(0),
    }
}

#[test]
fn three_rows_with_a_neutral_row() {
    let hole = |l: &str, o| spec(SiteKind::Hole, l, o);
    let south = Owner::Player(0);
    let north = Owner::Player(1);
    let layout = layout::rows(&RowsSpec {
        rows: vec![
            RowSpec {
                sites: (1..=5)
                    .rev()
                    .map(|k| hole(&format!("n{k}"), north))
                    .collect(),
                caption: Caption::Above,
            },
            RowSpec {
                sites: (1..=4)
                    .map(|k| hole(&format!("m{k}"), Owner::Nobody))
                    .collect(),
                caption: Caption::Below,
            },
            RowSpec {
                sites: (1..=5).map(|k| hole(&format!("s{k}"), south)).collect(),
                caption: Caption::Below,
            },
        ],
        left: vec![spec(SiteKind::Store, "N*", north)],
        right: vec![spec(SiteKind::Store, "S*", south)],
        trays: vec![(Edge::Bottom, spec(SiteKind::Sink, "removed S", south))],
        seats: vec![
            (0, "South".into(), Edge::Bottom),
            (1, "North".into(), Edge::Top),
        ],
        dividers: vec![0, 1],
    });
    // The shorter middle row is centred under the others.
    let x = |l: &str| layout.sites.iter().find(|s| s.label == l).expect(l).at.x;
    assert!((x("m1") + x("m4") - x("s1") - x("s5")).abs() < 1e-9);
    let mut state = state_of(
        &layout,
        &[3, 0, 1, 4, 2, 5, 5, 5, 5, 0, 1, 2, 3, 30, 7, 9, 2],
    );
    // Ownership that changed in play, and a mark.
    state.sites[6].owner = Owner::Player(0);
    state.sites[7].marks = vec![Mark::ClaimedBy(1)];
    let text = draw(&layout, &state, "Three rows, a neutral row in the middle");
    assert!(text.contains("owner-none"));
    assert!(text.contains("claimed-by-1"));
    insta::assert_snapshot!(text);
}

#[test]
fn a_ring_of_three_players() {
    let colours = [Owner::Player(0), Owner::Player(1), Owner::Player(2)];
    let holes: Vec<SiteSpec> = (0..12)
        .map(|i| {
            spec(
                SiteKind::Hole,
                &format!("{}{}", ["a", "b", "c"][i / 4], i % 4 + 1),
                colours[i / 4],
            )
        })
        .collect();
    let layout = layout::ring(&RingSpec {
        holes,
        middle: vec![spec(SiteKind::Store, "pot", Owner::Nobody)],
        trays: colours
            .iter()
            .enumerate()
            .map(|(p, &o)| spec(SiteKind::Reserve, &format!("{}*", ["A", "B", "C"][p]), o))
            .collect(),
        seats: (0..3).map(|p| (p, format!("Player {}", p + 1))).collect(),
    });
    // Counter-clockwise from the bottom: the first hole is at the bottom, the fourth to its
    // right, as seen from above.
    let first = layout.sites[0].at;
    let fourth = layout.sites[3].at;
    assert!(first.y > fourth.y && fourth.x > first.x);
    // Holes are evenly spaced, none overlapping.
    for (a, b) in layout
        .sites
        .iter()
        .zip(layout.sites.iter().skip(1))
        .take(11)
    {
        let d = ((a.at.x - b.at.x).powi(2) + (a.at.y - b.at.y).powi(2)).sqrt();
        assert!(d > 2.2, "{} {}", a.label, b.label);
    }
    let state = state_of(
        &layout,
        &[4, 4, 4, 4, 0, 1, 2, 3, 20, 19, 18, 0, 6, 1, 2, 3],
    );
    insta::assert_snapshot!(draw(
        &layout,
        &state,
        "A ring of twelve holes, three players"
    ));
}

#[test]
fn dots_stay_apart_and_inside_the_hole() {
    for n in 1..=layout::MAX_DOTS {
        let (r, at) = layout::dots(n);
        assert_eq!(at.len() as u32, n);
        for (i, a) in at.iter().enumerate() {
            assert!(
                (a.x * a.x + a.y * a.y).sqrt() + r <= 0.9,
                "{n} seeds: dot {i} too far out"
            );
            for b in at.iter().skip(i + 1) {
                let d = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
                assert!(d >= 2.0 * r, "{n} seeds: dots overlap");
            }
        }
    }
    assert!(layout::dots(layout::MAX_DOTS + 1).1.is_empty());
}

#[test]
fn cited_ids_are_found_in_citations() {
    assert_eq!(cited_ids("RP-4, RP-5"), ["RP-4", "RP-5"]);
    assert_eq!(cited_ids("SQ-O2"), ["SQ-O2"]);
    assert!(cited_ids("Mancala World \"Ali Guli Mane\": 2x7, 5 seeds").is_empty());
    assert!(cited_ids("Pankhurst 1971, game 92").is_empty());
}

/// Applies the page's steps as its script does, checking at every step that no seed is lost
/// (sites plus the seeds in hand), and returns the board after each step. A site counts the
/// pieces (`[pieces]`) in it as seeds, and a piece held off the board is on no site, so with
/// `pieces` pieces in the game the sum is the seeds and up to that many more (the page's
/// state after each ply is compared with the engine's exactly, by `Replay::mismatches`).
fn walk(data: &Value, total: u32, pieces: u32) -> Vec<Vec<u64>> {
    let mut seeds: Vec<u64> = data["start"]["seeds"]
        .as_array()
        .expect("seeds")
        .iter()
        .map(|v| v.as_u64().expect("a count"))
        .collect();
    let mut boards = Vec::new();
    for (i, step) in data["steps"].as_array().expect("steps").iter().enumerate() {
        for change in step["s"].as_array().into_iter().flatten() {
            let site = change[0].as_u64().expect("site") as usize;
            seeds[site] = change[1].as_u64().expect("count");
        }
        let hand = step["h"].as_u64().expect("hand");
        let sum: u64 = seeds.iter().sum::<u64>() + hand;
        let most = u64::from(total + pieces);
        assert!(
            (u64::from(total)..=most).contains(&sum),
            "step {} ({}): {sum} seeds, not {total}{}",
            i + 1,
            step["x"],
            if pieces > 0 {
                format!(" to {most}")
            } else {
                String::new()
            }
        );
        boards.push(seeds.clone());
    }
    boards
}

#[test]
fn replay_steps_account_for_every_seed_of_every_shipped_ruleset() {
    // What the games took the page through, to be sure they went where it matters.
    let mut kinds = std::collections::BTreeSet::new();
    let mut marked = 0;
    let names = shipped()
        .into_iter()
        .map(str::to_string)
        .chain(feature_rulesets());
    for name in names {
        let name = name.as_str();
        for options in option_values(&rules(name, &[])) {
            let r = rules(name, &options);
            for seed in 0..3u64 {
                let mut game = Game::new(r.clone());
                let layout = layout::of_rules(&r, true);
                let mut replay = Replay::new(
                    r.clone(),
                    layout.clone(),
                    RuleTexts::new(),
                    game.position(),
                    game.to_move(),
                );
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut ends = Vec::new();
                for _ in 0..200 {
                    let moves = game.legal_moves().to_vec();
                    if moves.is_empty() {
                        break;
                    }
                    let mut events = Vec::new();
                    let h = moves[rng.random_range(0..moves.len())];
                    game.play(h, &mut events).expect("legal");
                    replay.ply(&events, game.position(), game.to_move());
                    ends.push((replay.len(), layout.state(game.position(), game.to_move())));
                }
                assert_eq!(
                    replay.mismatches(),
                    &[] as &[u32],
                    "{name} {options:?} seed {seed}"
                );
                let total = r.seeds_in(game.position());
                let data = replay.data();
                for step in data["steps"].as_array().expect("steps") {
                    kinds.insert(step["k"].as_str().unwrap_or_default().to_string());
                    marked += usize::from(step.get("m").is_some());
                }
                let boards = walk(&data, total, r.piece_count());
                for (end, state) in ends {
                    let want: Vec<u64> = state.sites.iter().map(|s| u64::from(s.seeds)).collect();
                    assert_eq!(boards[end - 1], want, "{name} seed {seed}: step {end}");
                }
            }
        }
    }
    for kind in [
        "capture",
        "relay",
        "round_end",
        "refill",
        "round_start",
        "game_end",
        "skip",
        "resow",
    ] {
        assert!(kinds.contains(kind), "no game had a {kind}: {kinds:?}");
    }
    assert!(marked > 0, "no game closed or claimed a hole");
}

#[test]
fn a_replay_page_is_self_contained() {
    let r = rules("raja_pasu", &[]);
    let mut game = Game::new(r.clone());
    let layout = layout::of_rules(&r, false);
    let mut texts = RuleTexts::new();
    texts.insert(
        "RP-7".into(),
        "A hole brought to four </script><b>is taken</b>".into(),
    );
    let mut replay = Replay::new(r.clone(), layout, texts, game.position(), game.to_move());
    for m in ["s1", "n5", "s6"] {
        let h = sow::notation::parse_move(&r, game.to_move().expect("playing"), m).expect("move");
        let mut events = Vec::new();
        game.play(h, &mut events).expect("legal");
        replay.ply(&events, game.position(), game.to_move());
    }
    let page = replay.html(&Page {
        title: "Raja <Pasu> & co".into(),
        lines: vec!["a line".into()],
    });
    // Nothing is fetched: no external script, style, image or font.
    for needle in ["<link", " src=", "url(", "@import", "https:", "fetch("] {
        assert!(!page.contains(needle), "{needle}");
    }
    assert!(page.contains("<title>Raja &lt;Pasu&gt; &amp; co</title>"));
    // The data is one JSON document, and text in it cannot end its script element.
    let start = page.find("id=\"sow-data\">").expect("data") + "id=\"sow-data\">".len();
    let end = start + page[start..].find("</script>").expect("end of data");
    let data: Value = serde_json::from_str(&page[start..end]).expect("JSON");
    let rule = data["clauses"]
        .as_array()
        .expect("clauses")
        .iter()
        .find(|c| c["cites"] == "RP-7")
        .expect("the capture's clause");
    assert_eq!(
        rule["texts"][0][1],
        "A hole brought to four </script><b>is taken</b>"
    );
    assert_eq!(data["plies"].as_array().map(Vec::len), Some(3));
}

//! Replay pages in a real browser: headless Chromium, driven over WebDriver (chromedriver),
//! loads pages that `sow replay --format html` wrote for games of several rulesets (Raja
//! Pasu's example record, a whole Kalah game recorded by `sow play --record`, Hus on four
//! rows, Toguz Kumalak with its claimed holes), steps through them with the buttons, the keys
//! and the slider, and checks the board the page shows against sow's own JSON trace
//! (`sow --format json replay --detail drops`) at every step: each event's hole, every seed
//! accounted for, and the whole board (holes, stores, reserves, removed seeds, closed holes,
//! the player to move) after every ply. Screenshots at a desktop's and a phone's width are
//! written to `target/screenshots/` for review.
//!
//! Chromium and chromedriver are Debian's `chromium` and `chromium-driver` (`.ci/run` installs
//! them). Without them the test fails and says so; `SOW_SKIP_BROWSER=1` skips it instead.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pictures_browser");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn screenshots() -> PathBuf {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target folder")
        .to_path_buf();
    let dir = target.join("screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    dir
}

/// Runs `sow` and returns its stdout; it must succeed.
fn sow(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("sow runs");
    assert!(
        out.status.success(),
        "sow {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A program on the PATH (or at Debian's place for it).
fn find(program: &str) -> Option<PathBuf> {
    let debian = Path::new("/usr/bin").join(program);
    if debian.is_file() {
        return Some(debian);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(program))
            .find(|p| p.is_file())
    })
}

/// chromedriver on a free port of the loopback interface, ended when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_driver(chromedriver: &Path) -> Driver {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver { child, port };
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not listen on port {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    driver
}

async fn browser(driver: &Driver, chromium: &Path, profile: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium.display().to_string(),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,900",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session")
}

/// What the page shows, read from its DOM.
const READ: &str = r#"
const m = document.getElementById('replay');
const sites = Array.from(document.querySelectorAll('#board [data-site]'), g => ({
  label: g.dataset.label, kind: g.dataset.kind, seeds: +g.dataset.seeds, owner: g.dataset.owner,
  marks: g.dataset.marks, cls: g.getAttribute('class'),
  count: g.querySelector('.count').textContent,
  dots: g.querySelectorAll('.seeds .dot').length, heap: g.querySelectorAll('.seeds .heap').length,
}));
const cur = document.querySelector('#events li.current button');
return {
  step: +m.dataset.step, steps: +m.dataset.steps, ply: +m.dataset.ply, lap: +m.dataset.lap,
  hand: +m.dataset.hand, to_move: m.dataset.toMove, kind: m.dataset.kind, sites: sites,
  slider: +document.getElementById('slider').value,
  status: document.getElementById('status').textContent,
  current: cur ? cur.textContent : null, why: document.getElementById('why').textContent,
  desc: document.getElementById('board-desc').textContent,
  overflow: document.documentElement.scrollWidth > window.innerWidth + 1,
};
"#;

/// Keys typed where the focus is (a modifier holds for the keys after it), as the keyboard
/// types them: by input actions, not sent to an element, so that a button the last click
/// disabled (at the end of the game) does not refuse them.
async fn press(c: &Client, keys: &[Key]) {
    let mut actions = KeyActions::new("keyboard".into());
    let mut held = Vec::new();
    for &key in keys {
        let value = char::from(key);
        actions = actions.then(KeyAction::Down { value });
        if matches!(key, Key::Shift | Key::Control | Key::Alt | Key::Meta) {
            held.push(value);
        } else {
            actions = actions.then(KeyAction::Up { value });
        }
    }
    for value in held.into_iter().rev() {
        actions = actions.then(KeyAction::Up { value });
    }
    c.perform_actions(actions).await.expect("keys");
}

/// Moves the slider to a step, as dragging it does.
async fn slide(c: &Client, step: usize) {
    c.execute(
        "const s = document.getElementById('slider'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
        vec![json!(step)],
    )
    .await
    .expect("the slider moves");
}

async fn read(c: &Client) -> Value {
    c.execute(READ, Vec::new()).await.expect("the page answers")
}

fn site<'a>(page: &'a Value, label: &str) -> &'a Value {
    page["sites"]
        .as_array()
        .and_then(|s| s.iter().find(|x| x["label"] == label))
        .unwrap_or_else(|| panic!("no site {label} on the page"))
}

fn seeds(page: &Value, label: &str) -> u64 {
    site(page, label)["seeds"].as_u64().expect("a count")
}

fn side_letter(side: &str) -> &'static str {
    if side == "south" { "S" } else { "N" }
}

fn player_index(side: &str) -> &'static str {
    if side == "south" { "0" } else { "1" }
}

/// The whole board on the page against a board of the JSON trace.
fn same_board(page: &Value, board: &Value, to_move: &Value, at: &str) {
    for side in ["south", "north"] {
        let letter = side_letter(side).to_lowercase();
        for (i, n) in board[side].as_array().expect("a row").iter().enumerate() {
            assert_eq!(
                seeds(page, &format!("{letter}{}", i + 1)),
                n.as_u64().expect("a count"),
                "{at}: {letter}{}",
                i + 1
            );
        }
        assert_eq!(
            seeds(page, &format!("{}*", side_letter(side))),
            board["held"][side].as_u64().expect("held"),
            "{at}: held by {side}"
        );
        let removed = board["removed"][side].as_u64().expect("removed");
        let sink = page["sites"].as_array().and_then(|s| {
            s.iter()
                .find(|x| x["label"] == format!("removed {}", side_letter(side)))
        });
        match sink {
            Some(s) => assert_eq!(s["seeds"].as_u64(), Some(removed), "{at}: removed"),
            None => assert_eq!(removed, 0, "{at}: the page has no room for removed seeds"),
        }
    }
    let closed: Vec<&str> = page["sites"]
        .as_array()
        .expect("sites")
        .iter()
        .filter(|s| {
            s["marks"]
                .as_str()
                .is_some_and(|m| m.split(' ').any(|m| m == "closed"))
        })
        .map(|s| s["label"].as_str().expect("a label"))
        .collect();
    let want: Vec<&str> = board["closed"]
        .as_array()
        .expect("closed")
        .iter()
        .map(|v| v.as_str().expect("a label"))
        .collect();
    assert_eq!(closed, want, "{at}: closed holes");
    let page_to_move = page["to_move"].as_str().expect("to move");
    match to_move.as_str() {
        Some(side) => assert_eq!(page_to_move, player_index(side), "{at}: to move"),
        None => assert_eq!(page_to_move, "", "{at}: the game is over"),
    }
}

/// What every step shows must hold whatever the step: counts written as the data says, dots
/// for few seeds, and no seed lost.
fn sound(page: &Value, total: u64, at: &str) {
    let mut sum = page["hand"].as_u64().expect("hand");
    for s in page["sites"].as_array().expect("sites") {
        let n = s["seeds"].as_u64().expect("seeds");
        sum += n;
        let closed = s["marks"].as_str().is_some_and(|m| m.contains("closed"));
        let count = if closed {
            "x".to_string()
        } else {
            n.to_string()
        };
        assert_eq!(s["count"], count.as_str(), "{at}: {}", s["label"]);
        if s["kind"] == "hole" && !closed {
            if n <= 19 {
                assert_eq!(s["dots"].as_u64(), Some(n), "{at}: dots of {}", s["label"]);
            } else {
                assert_eq!(s["heap"].as_u64(), Some(1), "{at}: heap of {}", s["label"]);
            }
        }
    }
    assert_eq!(sum, total, "{at}: seeds on the page");
}

/// One event of the trace against the step the page shows for it.
fn same_event(page: &Value, e: &Value, at: &str) {
    assert_eq!(page["kind"], e["event"], "{at}");
    let hole = e["hole"].as_str();
    match e["event"].as_str() {
        Some("drop") => {
            let h = hole.expect("a hole");
            assert_eq!(Some(seeds(page, h)), e["seeds"].as_u64(), "{at}: {h}");
            assert!(
                site(page, h)["cls"]
                    .as_str()
                    .is_some_and(|c| c.contains("hl-drop")),
                "{at}"
            );
        }
        Some("lift") => {
            let h = hole.expect("a hole");
            assert_eq!(seeds(page, h), 0, "{at}: {h}");
            assert_eq!(page["hand"].as_u64(), e["seeds"].as_u64(), "{at}: in hand");
        }
        Some("capture") => {
            let h = hole.expect("a hole");
            assert_eq!(seeds(page, h), 0, "{at}: {h}");
            assert!(
                site(page, h)["cls"]
                    .as_str()
                    .is_some_and(|c| c.contains("hl-capture")),
                "{at}"
            );
        }
        Some("relay") => {
            let h = hole.expect("a hole");
            assert!(
                site(page, h)["cls"]
                    .as_str()
                    .is_some_and(|c| c.contains("hl-relay")),
                "{at}"
            );
        }
        _ => {}
    }
    // The rule a clause cites is named beside the board.
    if let Some(cites) = e["clause"]["cites"].as_str() {
        let why = page["why"].as_str().unwrap_or_default();
        assert!(why.contains(cites), "{at}: `{why}` names {cites}");
        let name = e["clause"]["name"].as_str().unwrap_or_default();
        assert!(
            page["current"].as_str().is_some_and(|t| t.contains(name)),
            "{at}"
        );
    }
}

/// A game to look at: how to get its page and its JSON trace.
struct Case {
    name: &'static str,
    /// `sow replay` arguments before the flags.
    input: Vec<String>,
}

/// The first `plies` moves of a game `sow play` records between two random players.
fn played(ruleset: &str, seed: u64, plies: Option<usize>) -> Vec<String> {
    let record = scratch().join(format!("{ruleset}-{seed}.sow"));
    let _ = std::fs::remove_file(&record);
    let seed = seed.to_string();
    let path = record.display().to_string();
    sow(&[
        "play", ruleset, "--south", "random", "--north", "random", "--seed", &seed, "--record",
        &path,
    ]);
    match plies {
        // The whole record, as `sow play` wrote it.
        None => vec![path],
        Some(n) => {
            let text = std::fs::read_to_string(&record).expect("the record");
            let moves: Vec<&str> = text
                .lines()
                .filter_map(|l| l.split('#').next())
                .filter_map(|l| l.trim().strip_prefix("moves"))
                .flat_map(|l| l.trim_start_matches([' ', '=']).split_whitespace())
                .take(n)
                .collect();
            vec![ruleset.to_string(), "--moves".into(), moves.join(" ")]
        }
    }
}

async fn check_case(c: &Client, case: &Case) {
    let page_file = scratch().join(format!("{}.html", case.name));
    let out = page_file.display().to_string();
    let mut args: Vec<&str> = vec!["--format", "html", "replay"];
    args.extend(case.input.iter().map(String::as_str));
    args.extend(["--output", &out, "--force"]);
    sow(&args);
    let mut json_args: Vec<&str> = vec!["--format", "json", "replay"];
    json_args.extend(case.input.iter().map(String::as_str));
    json_args.extend(["--detail", "drops"]);
    let trace: Value = serde_json::from_str(&sow(&json_args)).expect("one JSON document");
    assert_eq!(trace["ok"], true);
    let plies = trace["plies"].as_array().expect("plies");
    assert!(!plies.is_empty());

    c.goto(&format!("file://{out}"))
        .await
        .expect("the page loads");
    let start = read(c).await;
    let name = case.name;
    assert_eq!(start["step"], 0, "{name}");
    same_board(
        &start,
        &trace["start"],
        &trace["start"]["to_move"],
        &format!("{name} start"),
    );
    let total: u64 = start["sites"]
        .as_array()
        .expect("sites")
        .iter()
        .map(|s| s["seeds"].as_u64().unwrap_or(0))
        .sum();
    sound(&start, total, name);
    assert!(
        start["desc"]
            .as_str()
            .is_some_and(|d| d.contains("to move")),
        "{name}: text alternative"
    );

    // Forward a step at a time, by the button and by the key in turn.
    let next = c.find(Locator::Id("next")).await.expect("a next button");
    let mut seen: Vec<Value> = vec![start.clone()];
    let mut ends: Vec<usize> = Vec::new();
    for (p, ply) in plies.iter().enumerate() {
        let events = ply["events"].as_array().expect("events");
        for (k, e) in events.iter().enumerate() {
            if seen.len() % 2 == 1 {
                next.click().await.expect("a click");
            } else {
                press(c, &[Key::Right]).await;
            }
            let page = read(c).await;
            let at = format!("{name} ply {} event {} ({})", p + 1, k + 1, e["event"]);
            assert_eq!(page["step"].as_u64(), Some(seen.len() as u64), "{at}");
            assert_eq!(page["slider"], page["step"], "{at}");
            same_event(&page, e, &at);
            sound(&page, total, &at);
            if k + 1 == events.len() {
                same_board(&page, &ply["board"], &ply["to_move"], &at);
                ends.push(seen.len());
            }
            seen.push(page);
        }
    }
    let steps = seen.len() - 1;
    assert_eq!(
        seen[steps]["steps"].as_u64(),
        Some(steps as u64),
        "{name}: every event is a step"
    );
    if trace["status"]["over"] == true {
        let status = seen[steps]["status"].as_str().unwrap_or_default();
        assert!(status.contains("over"), "{name}: {status}");
    }

    // Back a ply at a time (Page Up, then the button), to the start.
    let boards = |v: &Value| -> Vec<Value> {
        v["sites"]
            .as_array()
            .expect("sites")
            .iter()
            .map(|s| json!([s["seeds"], s["marks"]]))
            .collect()
    };
    let prev_ply = c.find(Locator::Id("prev-ply")).await.expect("a button");
    for (i, &end) in ends
        .iter()
        .rev()
        .skip(1)
        .chain(std::iter::once(&0))
        .enumerate()
    {
        if i % 2 == 0 {
            press(c, &[Key::PageUp]).await;
        } else {
            prev_ply.click().await.expect("a click");
        }
        let page = read(c).await;
        assert_eq!(
            page["step"].as_u64(),
            Some(end as u64),
            "{name}: back a ply"
        );
        assert_eq!(
            boards(&page),
            boards(&seen[end]),
            "{name}: back to step {end}"
        );
    }
    // On a ply at a time, by the button and Page Down.
    let next_ply = c.find(Locator::Id("next-ply")).await.expect("a button");
    for (i, &end) in ends.iter().enumerate().take(6) {
        if i % 2 == 0 {
            next_ply.click().await.expect("a click");
        } else {
            press(c, &[Key::PageDown]).await;
        }
        let page = read(c).await;
        assert_eq!(page["step"].as_u64(), Some(end as u64), "{name}: on a ply");
    }
    // End and Home.
    press(c, &[Key::End]).await;
    assert_eq!(
        read(c).await["step"].as_u64(),
        Some(steps as u64),
        "{name}: End"
    );
    // Back a step at a time from the end matches the way forward.
    let prev = c.find(Locator::Id("prev")).await.expect("a button");
    for back in 1..=steps.min(25) {
        prev.click().await.expect("a click");
        let page = read(c).await;
        assert_eq!(
            boards(&page),
            boards(&seen[steps - back]),
            "{name}: back to step {}",
            steps - back
        );
        assert_eq!(page["hand"], seen[steps - back]["hand"], "{name}");
    }
    press(c, &[Key::Home]).await;
    assert_eq!(read(c).await["step"], 0, "{name}: Home");
    // Laps: each stop is the end of a lap or of a ply.
    let next_lap = c.find(Locator::Id("next-lap")).await.expect("a button");
    let first_end = ends.first().copied().unwrap_or(0);
    let mut guard = 0;
    loop {
        next_lap.click().await.expect("a click");
        let page = read(c).await;
        let at = page["step"].as_u64().expect("a step") as usize;
        assert!(
            page["kind"] == "lap_end" || ends.contains(&at),
            "{name}: a lap stop at {at}"
        );
        assert_eq!(boards(&page), boards(&seen[at]), "{name}: lap stop {at}");
        guard += 1;
        if at >= first_end || guard > 500 {
            break;
        }
    }
    // Shift+Left goes back a lap.
    press(c, &[Key::Shift, Key::Left]).await;
    let back = read(c).await;
    let at = back["step"].as_u64().expect("a step") as usize;
    assert!(
        at < first_end.max(1) && (at == 0 || back["kind"] == "lap_end" || ends.contains(&at)),
        "{name}: back a lap to {at}"
    );
    // The slider goes anywhere.
    for target in [steps / 3, steps / 2, steps] {
        slide(c, target).await;
        let page = read(c).await;
        assert_eq!(page["step"].as_u64(), Some(target as u64), "{name}: slider");
        assert_eq!(
            boards(&page),
            boards(&seen[target]),
            "{name}: slider at {target}"
        );
    }

    // Screenshots at a desktop's and a phone's width, mid-game; the page fits the phone.
    let middle = ends
        .get(ends.len() / 2)
        .copied()
        .unwrap_or(0)
        .saturating_sub(2);
    slide(c, middle).await;
    for (label, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        c.set_window_size(w, h).await.expect("a window size");
        let page = read(c).await;
        assert_eq!(
            page["overflow"], false,
            "{name}: wider than a {label}'s screen"
        );
        let png = c.screenshot().await.expect("a screenshot");
        std::fs::write(screenshots().join(format!("{name}-{label}.png")), png).expect("written");
    }
    c.set_window_size(1280, 900).await.expect("a window size");
}

#[tokio::test(flavor = "current_thread")]
async fn replay_pages_show_the_trace_at_every_step() {
    let (Some(chromium), Some(chromedriver)) = (find("chromium"), find("chromedriver")) else {
        if std::env::var_os("SOW_SKIP_BROWSER").is_some() {
            eprintln!("skipped: no chromium or chromedriver, and SOW_SKIP_BROWSER is set");
            return;
        }
        panic!(
            "the browser test needs headless Chromium and ChromeDriver: `apt-get install chromium chromium-driver` (as .ci/run does), or set SOW_SKIP_BROWSER=1 to skip it"
        );
    };
    let profile = scratch().join("profile");
    let _ = std::fs::remove_dir_all(&profile);
    let driver = start_driver(&chromedriver);
    let client = browser(&driver, &chromium, &profile).await;
    let cases = [
        Case {
            name: "raja_pasu",
            input: vec!["tests/records/raja_pasu_short.sow".into()],
        },
        Case {
            name: "kalah",
            input: played("kalah", 5, None),
        },
        Case {
            name: "hus",
            input: played("hus", 3, Some(10)),
        },
        Case {
            name: "toguz_kumalak",
            input: played("toguz_kumalak", 1, Some(40)),
        },
    ];
    let mut failure = None;
    for case in cases {
        // Each case runs as a task of its own, so that a failing one still lets the browser
        // be closed below.
        let c = client.clone();
        if let Err(e) = tokio::spawn(async move { check_case(&c, &case).await }).await {
            failure = Some(e);
            break;
        }
    }
    let _ = client.close().await;
    drop(driver);
    if let Some(e) = failure {
        match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(e) => panic!("{e}"),
        }
    }
}

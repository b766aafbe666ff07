//! The README's first command must keep working: run it (through the built binary) as written.

use std::process::Command;

#[test]
fn readme_main_command_runs() {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let block = readme
        .split("```sh")
        .nth(1)
        .expect("a sh block")
        .split("```")
        .next()
        .unwrap_or("");
    let first = block
        .lines()
        .find(|l| l.starts_with("cargo run"))
        .expect("a cargo run line");
    let command = first.split('#').next().unwrap_or("");
    let args: Vec<&str> = command
        .split(" -- ")
        .nth(1)
        .expect("arguments after --")
        .split_whitespace()
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(&args)
        .output()
        .expect("run sow");
    assert!(
        out.status.success(),
        "`{command}` failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("ply 1"),
        "the replay shows plies"
    );
    let commands: Vec<&str> = block.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(
        commands.get(1).is_some_and(|l| l.starts_with("cargo test")),
        "the second command runs the tests"
    );
    let ci = std::fs::read_to_string(".ci/run").expect(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test"),
        ".ci/run calls the README's test command"
    );
}

/// The tutorial ("Ten minutes"): `sow new` writes the README's ruleset, and each step runs as
/// the README says; the mistakes it names are reported, all in one run.
#[test]
fn readme_tutorial_runs() {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let tutorial = readme.split("## Ten minutes").nth(1).expect("the tutorial");
    let block = tutorial
        .split("```toml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the tutorial's ruleset");
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme_tutorial");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let sow = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sow"))
            .args(args)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("run sow")
    };
    let out = sow(&["new", "my_game"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(dir.join("my_game.toml")).expect("written");
    assert_eq!(
        written, block,
        "`sow new my_game` writes the README's ruleset"
    );
    let schema = std::fs::read_to_string(dir.join("ruleset.schema.json")).expect("schema");
    assert_eq!(
        schema,
        sow::schema::json(),
        "the schema the first line names"
    );

    // Step 1: clean as written; the typos the README names are each reported, at once.
    let out = sow(&["check", "my_game.toml"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let typos = written
        .replace("seeds(last) == 1", "seed(last) == 1")
        .replace("holes = 5", "hole = 5")
        .replace("seeds = 3 ", "seeds = \"3\"")
        .replace("\"ccw\"", "\"counterclockwise\"")
        .replace(
            "[end]\nno_move = { remaining = \"stay\", result = \"mover_loses\" }\n",
            "",
        );
    std::fs::write(dir.join("typos.toml"), typos).expect("written");
    let out = sow(&["check", "typos.toml"]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "did you mean `seeds`?",
        "[board] has no key `hole`",
        "not the string \"3\"",
        "not \"counterclockwise\"",
        "The ruleset has no [end] table",
    ] {
        assert!(
            said.to_lowercase().contains(&expected.to_lowercase()),
            "`{expected}` in:\n{said}"
        );
    }
    // Steps 2 and 3.
    let out = sow(&["explain", "my_game.toml"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("take opposite"));
    let out = sow(&["simulate", "my_game.toml", "--games", "50", "--seed", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = sow(&[
        "play",
        "my_game.toml",
        "--south",
        "random",
        "--north",
        "random",
        "--seed",
        "1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `sow new` never overwrites.
    assert_eq!(sow(&["new", "my_game"]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

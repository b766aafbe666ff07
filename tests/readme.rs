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

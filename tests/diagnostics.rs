//! The diagnostic codes: `docs/diagnostics.md` is the reference the library writes, every code
//! is explained by `sow explain --code`, and every code the checker emits is in the reference.

use std::process::Command;

use sow::diagnostic::Code;

#[test]
fn the_reference_page_is_current() {
    let generated = sow::diagnostic::codes::markdown();
    if std::env::var_os("SOW_WRITE_DOCS").is_some() {
        std::fs::write("docs/diagnostics.md", &generated).expect("write docs/diagnostics.md");
        return;
    }
    let committed = std::fs::read_to_string("docs/diagnostics.md").unwrap_or_default();
    assert!(
        committed == generated,
        "docs/diagnostics.md is stale: run `SOW_WRITE_DOCS=1 cargo test --test diagnostics` and commit it"
    );
}

#[test]
fn explain_prints_every_code() {
    for code in Code::ALL {
        let out = Command::new(env!("CARGO_BIN_EXE_sow"))
            .args(["explain", "--code", &code.id().to_lowercase()])
            .output()
            .expect("sow runs");
        assert!(out.status.success(), "{}", code.id());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with(code.id()), "{text}");
        assert!(text.contains(code.explanation()), "{text}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(["explain", "--code", "E9999"])
        .output()
        .expect("sow runs");
    assert_eq!(out.status.code(), Some(2));
}

/// Every message of every fixture is a sentence, with a code of the reference.
#[test]
fn every_fixture_diagnostic_has_a_code_and_is_a_sentence() {
    let mut seen = 0;
    for dir in ["tests/cli/check", "tests/hostile/check"] {
        for entry in std::fs::read_dir(dir).expect("fixtures") {
            let path = entry.expect("entry").path();
            let out = Command::new(env!("CARGO_BIN_EXE_sow"))
                .args(["--format", "json", "check"])
                .arg(&path)
                .output()
                .expect("sow runs");
            let doc: serde_json::Value =
                serde_json::from_slice(&out.stdout).expect("one JSON document");
            for d in doc["files"][0]["diagnostics"]
                .as_array()
                .into_iter()
                .flatten()
            {
                seen += 1;
                let code = d["code"].as_str().unwrap_or("");
                assert!(
                    Code::parse(code).is_some(),
                    "{}: code {code}",
                    path.display()
                );
                let message = d["message"].as_str().unwrap_or("");
                let first = message.chars().next().unwrap_or(' ');
                assert!(
                    (first.is_uppercase() || "`\"[".contains(first))
                        && message.ends_with(['.', '?']),
                    "{}: not a sentence: {message}",
                    path.display()
                );
            }
        }
    }
    assert!(seen > 100, "{seen}");
}

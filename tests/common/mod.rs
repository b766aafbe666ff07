//! Helpers shared by the CLI tests.
#![allow(dead_code)]

/// The diagnostics a fixture expects, from its `# expect: CODE LINE:COLUMN` comment lines
/// (`# expect: E0006` for a problem of the file as a whole), in order.
pub fn expected(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("# expect:"))
        .map(|e| e.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The diagnostics of `sow --format json check` as `CODE LINE:COLUMN` (or `CODE` without a
/// place), in the order reported.
pub fn reported(json: &str) -> Vec<String> {
    let doc: serde_json::Value = serde_json::from_str(json).expect("one JSON document");
    doc["files"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| f["diagnostics"].as_array().cloned().unwrap_or_default())
        .map(|d| {
            let code = d["code"].as_str().unwrap_or("?").to_string();
            match (d["start"]["line"].as_u64(), d["start"]["column"].as_u64()) {
                (Some(l), Some(c)) => format!("{code} {l}:{c}"),
                _ => code,
            }
        })
        .collect()
}

/// Every expected diagnostic is reported, once, in the order expected, and nothing else is.
pub fn assert_expected(file: &str, text: &str, json: &str) {
    let want = expected(text);
    if want.is_empty() {
        return;
    }
    let got = reported(json);
    for w in &want {
        let n = got.iter().filter(|g| *g == w).count();
        assert_eq!(n, 1, "{file}: `{w}` reported {n} times; reported: {got:?}");
    }
    assert_eq!(got, want, "{file}: the diagnostics, in order");
}

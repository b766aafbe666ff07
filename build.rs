//! Embeds every `rulesets/*.toml` in the binary, so that the list of shipped rulesets is the
//! folder itself and no ruleset is named in the source.

use std::fmt::Write;

fn main() {
    println!("cargo:rerun-if-changed=rulesets");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut names: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .filter_map(|p| {
                    let stem = p.file_stem()?.to_str()?.to_string();
                    Some((stem, p.display().to_string()))
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut code = String::from(
        "/// (name, file text) of every shipped ruleset.\npub const SHIPPED: &[(&str, &str)] = &[\n",
    );
    for (name, path) in names {
        let _ = writeln!(code, "    ({name:?}, include_str!({path:?})),");
    }
    code.push_str("];\n");
    let out =
        std::path::Path::new(&std::env::var("OUT_DIR").unwrap_or_default()).join("shipped.rs");
    if let Err(e) = std::fs::write(&out, code) {
        panic!("cannot write {}: {e}", out.display());
    }
}

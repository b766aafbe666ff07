//! Embeds every `rulesets/*.toml` in the binary, so that the list of shipped rulesets is the
//! folder itself and no ruleset is named in the source, and beside each the documented rules of
//! its game, `docs/rules/NAME.md`.

use std::fmt::Write;

fn main() {
    println!("cargo:rerun-if-changed=rulesets");
    // The package's folder as cargo gives it when the script runs, not when it was compiled:
    // a script built for a checkout elsewhere (a reused target directory) must still read
    // this one.
    let root = std::path::PathBuf::from(
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into()),
    );
    let dir = root.join("rulesets");
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the shipped rulesets in {}: {e}", dir.display()));
    let mut names: Vec<(String, String)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter_map(|p| {
            let stem = p.file_stem()?.to_str()?.to_string();
            Some((stem, p.display().to_string()))
        })
        .collect();
    if names.is_empty() {
        panic!("no shipped ruleset in {}", dir.display());
    }
    names.sort();
    let mut code = String::from(
        "/// (name, file text) of every shipped ruleset.\npub const SHIPPED: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &names {
        let _ = writeln!(code, "    ({name:?}, include_str!({path:?})),");
    }
    code.push_str("];\n");
    // The documented rules of each shipped game, `docs/rules/NAME.md`, for `sow explain`.
    println!("cargo:rerun-if-changed=docs/rules");
    let docs = root.join("docs/rules");
    code.push_str(
        "/// (name, file text) of the documented rules of every shipped ruleset that has them.\npub const RULES: &[(&str, &str)] = &[\n",
    );
    for (name, _) in &names {
        let doc = docs.join(format!("{name}.md"));
        if doc.exists() {
            let _ = writeln!(
                code,
                "    ({name:?}, include_str!({:?})),",
                doc.display().to_string()
            );
        }
    }
    code.push_str("];\n");
    let out =
        std::path::Path::new(&std::env::var("OUT_DIR").unwrap_or_default()).join("shipped.rs");
    if let Err(e) = std::fs::write(&out, code) {
        panic!("cannot write {}: {e}", out.display());
    }
}

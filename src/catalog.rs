//! The rulesets shipped with sow, embedded in the binary so that a name works from anywhere, and
//! the documented rules of their games (`docs/rules/NAME.md`), which `sow explain` quotes.
//!
//! No `unwrap`, `expect` or indexing that could panic.

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// The text of a shipped ruleset.
pub fn shipped(name: &str) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The documented rules of a shipped ruleset's game, as `(file, text)`.
pub fn rules_doc(name: &str) -> Option<(String, &'static str)> {
    RULES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, text)| (format!("docs/rules/{n}.md"), *text))
}

/// The documented rules for a ruleset's text: those of the shipped ruleset it is, whether it was
/// named or read from a file; none for any other text (a file changed since is not the game the
/// rules file describes).
pub fn rules_doc_for(text: &str) -> Option<(String, &'static str)> {
    SHIPPED
        .iter()
        .find(|(_, t)| *t == text)
        .and_then(|(name, _)| rules_doc(name))
}

/// Where a ruleset comes from: a path if one exists, else a shipped name.
pub fn read(name_or_path: &str) -> Result<(String, String), String> {
    let path = std::path::Path::new(name_or_path);
    if path.exists() {
        // A ruleset is a few kilobytes; refuse anything large before reading it into memory.
        const MAX_BYTES: u64 = 1 << 20;
        if let Ok(meta) = std::fs::metadata(path)
            && meta.len() > MAX_BYTES
        {
            return Err(format!(
                "{name_or_path} is {} bytes; a ruleset may be at most {MAX_BYTES} bytes",
                meta.len()
            ));
        }
        return std::fs::read_to_string(path)
            .map(|text| (name_or_path.to_string(), text))
            .map_err(|e| format!("cannot read {name_or_path}: {e}"));
    }
    match shipped(name_or_path) {
        Some(text) => Ok((format!("{name_or_path} (shipped)"), text.to_string())),
        None => {
            let names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
            let hint = crate::diagnostic::did_you_mean(name_or_path, names.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            Err(format!(
                "no file `{name_or_path}` and no shipped ruleset of that name{hint} (shipped: {})",
                names.join(", ")
            ))
        }
    }
}

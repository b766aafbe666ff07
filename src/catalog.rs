//! The rulesets shipped with sow, embedded in the binary so that a name works from anywhere.
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

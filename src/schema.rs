//! The JSON Schema of the ruleset format (draft-07, which TOML editors read), generated from
//! the types in [`crate::ruleset`].
//!
//! No `unwrap`, `expect` or indexing that could panic.

/// The schema as pretty-printed JSON, ending with a newline.
pub fn json() -> String {
    let schema = schemars::schema_for!(crate::ruleset::RulesetFile);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

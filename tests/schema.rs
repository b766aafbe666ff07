//! The committed JSON Schema must be the one the types generate.

#[test]
fn committed_schema_is_current() {
    let committed = std::fs::read_to_string("rulesets/ruleset.schema.json").unwrap_or_default();
    let generated = sow::schema::json();
    if std::env::var_os("SOW_WRITE_SCHEMA").is_some() {
        std::fs::write("rulesets/ruleset.schema.json", &generated).expect("write schema");
        return;
    }
    assert!(
        committed == generated,
        "rulesets/ruleset.schema.json is stale: run `SOW_WRITE_SCHEMA=1 cargo test --test schema` \
         (or `sow schema > rulesets/ruleset.schema.json`) and commit the result"
    );
}

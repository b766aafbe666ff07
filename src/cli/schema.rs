//! `sow schema`: the JSON Schema of the ruleset format, for editors.

use std::path::PathBuf;

use super::{Exit, Fail, Format};

const AFTER_HELP: &str = "\
TOML editors (Taplo, Even Better TOML) read the schema named on a ruleset's first line:
  #:schema ./ruleset.schema.json
and then offer completion and hover documentation for every key.

Examples:
  sow schema > rulesets/ruleset.schema.json
  sow schema --output my_rules/ruleset.schema.json";

/// Write the JSON Schema of the ruleset format (draft-07).
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Write the schema to this file instead of stdout.
    #[arg(long, short = 'O', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The schema is itself JSON, so on stdout `--format` changes nothing: the document is the
/// schema.
pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    let schema = sow::schema::json();
    let Some(path) = args.output else {
        super::emit_text(&schema);
        return Ok(Exit::Ok);
    };
    std::fs::write(&path, schema)
        .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", path.display())))?;
    match format {
        Format::Json => super::emit_json(&serde_json::json!({
            "command": "schema",
            "ok": true,
            "written": path.display().to_string(),
        })),
        Format::Text => super::say_err(&format!("wrote {}\n", path.display())),
    }
    Ok(Exit::Ok)
}

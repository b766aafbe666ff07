//! `sow explain`: the rules back in plain English, clause by clause (the library's
//! [`sow::explain`] tells them; this prints them as text or JSON).

use serde_json::json;

use super::{Exit, Fail, Format, OptionArgs, Ruleset, emit_json, emit_text};

const AFTER_HELP: &str = "\
Each clause is told in English, with the documented clause it cites and the line of the file it
comes from; expressions are shown beside their source text. Settings that an option decides show
the option and its value in force: try --option to read another reading of the rules.

Examples:
  sow explain RULESET
  sow explain my_variant.toml --option NAME=VALUE
  sow --format json explain RULESET";

/// Tell the rules of a ruleset back in plain English, clause by clause.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The ruleset: a shipped name (see `sow list`) or a path.
    pub ruleset: String,

    #[command(flatten)]
    pub options: OptionArgs,
}

pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    let ruleset = Ruleset::load(&args.ruleset, &args.options.options)?;
    ruleset.print_warnings(format);
    // A shipped ruleset, named or read from a file, quotes its game's documented rules.
    let doc = sow::catalog::rules_doc_for(&ruleset.source)
        .map(|(file, text)| (file, sow::explain::RulesDoc::parse(text)));
    let explained = sow::explain::explain(
        &ruleset.rules,
        &ruleset.source,
        doc.as_ref().map(|(file, d)| (file.as_str(), d)),
    )
    .map_err(|e| Fail::Usage(format!("cannot read {} again: {e}", ruleset.file)))?;
    match format {
        Format::Text => {
            // Names and texts come from the ruleset: control characters are escaped, line by
            // line.
            let text = explained.text(&ruleset.file);
            let lines: Vec<_> = text.lines().map(sow::render::escape).collect();
            emit_text(&format!("{}\n", lines.join("\n")));
        }
        Format::Json => emit_json(&json!({
            "command": "explain",
            "ok": true,
            "ruleset": ruleset.json(),
            "region": explained.region,
            "sources": explained.sources,
            "about": explained.about,
            "rules_file": explained.rules_file,
            "sections": explained.sections_json(),
            "options": ruleset.rules.options,
            "diagnostics": ruleset.warnings_json(),
        })),
    }
    Ok(Exit::Ok)
}

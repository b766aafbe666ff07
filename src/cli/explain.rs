//! `sow explain`: the rules back in plain English, clause by clause (the library's
//! [`sow::explain`] tells them; this prints them as text or JSON).

use serde_json::json;

use super::{Exit, Fail, Format, OptionArgs, Ruleset, emit_json, emit_text};

const AFTER_HELP: &str = "\
Each clause is told in English, with the documented clause it cites and the line of the file it
comes from; expressions are shown beside their source text. Settings that an option decides show
the option and its value in force: try --option to read another reading of the rules.

`sow explain --code E0305` tells what a diagnostic code means (docs/diagnostics.md lists
them all).

Examples:
  sow explain RULESET
  sow explain --code E0305
  sow explain my_variant.toml --option NAME=VALUE
  sow --format json explain RULESET";

/// Tell the rules of a ruleset back in plain English, clause by clause.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The ruleset: a shipped name (see `sow list`) or a path.
    #[arg(required_unless_present = "code", conflicts_with = "code")]
    pub ruleset: Option<String>,

    /// Explain a diagnostic code instead, such as E0305.
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,

    #[command(flatten)]
    pub options: OptionArgs,
}

pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    if let Some(code) = &args.code {
        return explain_code(code, format);
    }
    let Some(given) = &args.ruleset else {
        return Err(Fail::Usage("name a ruleset, or give --code CODE".into()));
    };
    let ruleset = Ruleset::load(given, &args.options.options)?;
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

/// `sow explain --code E0305`: the code's entry of docs/diagnostics.md.
fn explain_code(text: &str, format: Format) -> Result<Exit, Fail> {
    use sow::diagnostic::Code;
    let Some(code) = Code::parse(text) else {
        let ids: Vec<&str> = Code::ALL.iter().map(|c| c.id()).collect();
        let hint = sow::diagnostic::did_you_mean(&text.to_uppercase(), ids.iter().copied())
            .map(|s| format!(" (did you mean {s}?)"))
            .unwrap_or_default();
        return Err(Fail::Usage(format!(
            "there is no diagnostic code `{text}`{hint}; docs/diagnostics.md lists them all"
        )));
    };
    let level = match code.level() {
        sow::diagnostic::Level::Error => "error",
        sow::diagnostic::Level::Warning => "warning",
    };
    match format {
        Format::Text => super::emit_text(&format!(
            "{} ({level}): {}.\n\n{}\n",
            code.id(),
            code.title(),
            code.explanation()
        )),
        Format::Json => emit_json(&json!({
            "command": "explain",
            "ok": true,
            "code": code.id(),
            "level": level,
            "title": code.title(),
            "explanation": code.explanation(),
        })),
    }
    Ok(Exit::Ok)
}

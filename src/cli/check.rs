//! `sow check`: validates rulesets and reports every problem the checker finds.

use serde_json::json;

use std::path::Path;

use sow::diagnostic::{Code, Diagnostic};
use sow::render::escape;

use super::{
    Exit, Fail, Format, OptionArgs, diagnostics_json, emit_json, emit_text, plural, read_ruleset,
    render_all, say_err, summary,
};

const AFTER_HELP: &str = "\
Every problem is shown with its file, line and column, the source line and a caret under the
exact place, also inside an expression string. Warnings flag what is legal but suspicious: an
option never used, a condition that can never hold, relay sowing with no endless-move outcome.

A file is checked whole in one run: every unknown key, wrong type, unknown word, missing key or
table and number out of range (each at its place, in file order), then every problem the rules
have (the board, the options, every error in every expression). Then each other value of
each option, one at a time: an error only that value causes (a size past the board's limit, a
layout of the wrong length) says which value. Then each pair of other values of two options:
an error only the pair causes names both (three together are not tried). Each diagnostic has a code;
`sow explain --code CODE` tells what it means. `-` reads the ruleset from standard input.

Examples:
  sow check my_variant.toml
  cat my_variant.toml | sow check -
  sow check rulesets/*.toml --deny-warnings
  sow check RULESET --option NAME=VALUE
  sow --format json check my_variant.toml

Exit codes: 0 no errors (warnings allowed unless --deny-warnings), 1 problems found,
2 a file could not be read.";

/// Check rulesets: every error and warning, each with its place and a caret.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Rulesets to check: paths of .toml files, names of shipped rulesets, or `-` for
    /// standard input.
    #[arg(required = true, value_name = "RULESET")]
    pub rulesets: Vec<String>,

    /// Treat warnings as problems: exit 1 when there is any.
    #[arg(long)]
    pub deny_warnings: bool,

    #[command(flatten)]
    pub options: OptionArgs,
}

pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    let mut files = Vec::new();
    let (mut errors, mut warnings, mut unreadable) = (0, 0, 0);
    let mut text = String::new();
    for given in &args.rulesets {
        let found = if given == "-" {
            super::input::read_stdin(super::input::RULESET_BYTES, "ruleset").map(|source| {
                super::Found {
                    file: "<stdin>".into(),
                    source,
                    note: None,
                }
            })
        } else {
            read_ruleset(Path::new(""), given)
        };
        let found = match found {
            Ok(found) => found,
            Err(message) => {
                unreadable += 1;
                if format == Format::Text {
                    say_err(&format!("error: {}\n", escape(&message)));
                }
                files.push(
                    json!({ "file": given, "ok": false, "error": message, "diagnostics": [] }),
                );
                continue;
            }
        };
        let (file, source) = (found.file, found.source);
        let mut diags = sow::check::check_every_value(&source, &args.options.options);
        if let Some(note) = found.note {
            diags.insert(0, Diagnostic::new(Code::NameNote, note));
        }
        // Top to bottom, as an author reads the file; problems with no place come last.
        diags.sort_by_key(|d| d.span.as_ref().map_or(usize::MAX, |s| s.start));
        let e = diags.iter().filter(|d| d.is_error()).count();
        errors += e;
        warnings += diags.len() - e;
        text.push_str(&render_all(&diags, &file, &source, super::Stream::Out));
        text.push_str(&escape(&summary(&file, &diags)));
        text.push('\n');
        files.push(json!({
            "file": file,
            "ok": e == 0,
            "errors": e,
            "warnings": diags.len() - e,
            "diagnostics": diagnostics_json(&diags, &file, &source),
        }));
    }
    let exit = if unreadable > 0 {
        Exit::Usage
    } else if errors > 0 || (args.deny_warnings && warnings > 0) {
        Exit::Wrong
    } else {
        Exit::Ok
    };
    match format {
        Format::Text => {
            if args.rulesets.len() > 1 {
                text.push_str(&format!(
                    "checked {}: {}, {}\n",
                    plural(args.rulesets.len(), "ruleset"),
                    plural(errors, "error"),
                    plural(warnings, "warning")
                ));
            }
            emit_text(&text);
        }
        Format::Json => emit_json(&json!({
            "command": "check",
            "ok": exit == Exit::Ok,
            "errors": errors,
            "warnings": warnings,
            "files": files,
        })),
    }
    Ok(exit)
}

//! `sow new`: a starter ruleset, with the format's JSON Schema beside it so that an editor
//! completes and explains every key from the first keystroke.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::{Exit, Fail, Format};

/// The starter ruleset; `NAME` is replaced by the game's name.
const STARTER: &str = include_str!("starter.toml");

const AFTER_HELP: &str = "\
Writes NAME.toml (never over an existing file) and, beside it, ruleset.schema.json, which the
starter's first line names (`#:schema ./ruleset.schema.json`): editors that read TOML schemas
(Taplo, Even Better TOML in VS Code, taplo's language server in Neovim and Helix) then offer
completion and hover help for every key. `sow lsp` adds the checker's own diagnostics and help
inside expressions. An existing ruleset.schema.json is brought up to date.

Examples:
  sow new my_game
  sow new rules/my_game --name \"My game\"";

/// Write a starter ruleset and the schema editors read.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The file to write, with or without `.toml`.
    #[arg(value_name = "NAME")]
    pub path: PathBuf,

    /// The game's name written in the ruleset (default: from the file name).
    #[arg(long)]
    pub name: Option<String>,
}

pub fn run(args: Args, format: Format) -> Result<Exit, Fail> {
    let path = if args.path.extension().is_some_and(|e| e == "toml") {
        args.path.clone()
    } else {
        args.path.with_extension("toml")
    };
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !folder.is_dir() {
        return Err(Fail::Usage(format!(
            "the folder {} does not exist",
            folder.display()
        )));
    }
    if path.exists() {
        return Err(Fail::Usage(format!(
            "{} exists already: sow never overwrites a file",
            path.display()
        )));
    }
    let name = args.name.clone().unwrap_or_else(|| game_name(&path));
    let text = STARTER.replace("\"NAME\"", &toml_string(&name));
    write_new(&path, &text)?;
    let schema_path = folder.join("ruleset.schema.json");
    let schema = sow::schema::json();
    let schema_state = match std::fs::read_to_string(&schema_path) {
        Ok(old) if old == schema => "current",
        Ok(_) => "updated",
        Err(_) => "written",
    };
    if schema_state != "current" {
        std::fs::write(&schema_path, &schema)
            .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", schema_path.display())))?;
    }
    match format {
        Format::Text => super::emit_text(&format!(
            "wrote {}\nschema {} ({schema_state})\nnext: sow check {}\n",
            path.display(),
            schema_path.display(),
            super::shell_quote(&path.display().to_string())
        )),
        Format::Json => super::emit_json(&json!({
            "command": "new",
            "ok": true,
            "ruleset": path.display().to_string(),
            "schema": schema_path.display().to_string(),
            "schema_state": schema_state,
        })),
    }
    Ok(Exit::Ok)
}

/// Creates a file that must not exist yet.
fn write_new(path: &Path, text: &str) -> Result<(), Fail> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| Fail::Usage(format!("cannot create {}: {e}", path.display())))?;
    file.write_all(text.as_bytes())
        .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", path.display())))
}

/// `my_game.toml` -> `My game`.
fn game_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().replace(['_', '-'], " "))
        .unwrap_or_default();
    let mut chars = stem.trim().chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "My game".into(),
    }
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

//! `sow list`: the rulesets shipped inside the binary.

use serde_json::{Value, json};

use sow::render::escape;

use super::{Exit, Fail, Format, emit_json, emit_text, plural};

const AFTER_HELP: &str = "\
A shipped ruleset works by name everywhere a ruleset is asked for, from any folder:
  sow play RULESET
A path works too: sow play ./my_variant.toml. A shipped name always means the shipped ruleset,
even where a file of that name exists: write ./NAME to read such a file.";

/// List the rulesets shipped with sow.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {}

pub fn run(_args: Args, format: Format) -> Result<Exit, Fail> {
    let mut rows: Vec<Value> = Vec::new();
    for (name, text) in sow::catalog::SHIPPED {
        let row = match sow::check::load(text, &[]) {
            Ok(loaded) => {
                let r = &loaded.rules;
                let g = &r.geometry;
                json!({
                    "name": name,
                    "title": r.name,
                    "region": r.region,
                    "rows": g.rows,
                    "holes": g.holes_per_row,
                    "seeds": r.total_seeds(),
                    "match": r.rounds.is_some(),
                    "players": r.players,
                    "options": r.options.len(),
                    "loads": true,
                })
            }
            // A shipped ruleset always loads in a release; say so rather than hide it.
            Err(d) => json!({ "name": name, "loads": false, "errors": d.len() }),
        };
        rows.push(row);
    }
    match format {
        Format::Json => emit_json(&json!({ "command": "list", "ok": true, "rulesets": rows })),
        Format::Text => {
            let mut text = String::new();
            let width = sow::catalog::SHIPPED
                .iter()
                .map(|(n, _)| n.len())
                .max()
                .unwrap_or(0);
            for row in &rows {
                let name = row["name"].as_str().unwrap_or("");
                if row["loads"] == json!(false) {
                    text.push_str(&format!(
                        "{name:width$}  (does not load: run `sow check {name}`)\n"
                    ));
                    continue;
                }
                let players = row["players"].as_array().map_or(2, Vec::len);
                let players = if players > 2 {
                    format!("{players} players, ")
                } else {
                    String::new()
                };
                let kind = if row["match"] == json!(true) {
                    "a match of rounds"
                } else {
                    "a single game"
                };
                let board = if row["rows"] == json!(1) {
                    format!("a ring of {} holes", row["holes"])
                } else {
                    format!("{} rows of {} holes", row["rows"], row["holes"])
                };
                text.push_str(&format!(
                    "{name:width$}  {}{}: {board}, {} seeds, {players}{kind}, {}\n",
                    escape(row["title"].as_str().unwrap_or("")),
                    row["region"]
                        .as_str()
                        .map(|r| format!(" ({})", escape(r)))
                        .unwrap_or_default(),
                    row["seeds"],
                    plural(row["options"].as_u64().unwrap_or(0) as usize, "option"),
                ));
            }
            emit_text(&text);
        }
    }
    Ok(Exit::Ok)
}

//! The documented rules in `docs/rules/` against the shipped rulesets: every id a ruleset cites
//! is a clause of its game's rules file, every rule of the file is cited by some clause or listed
//! as not expressed, and every option of the ruleset carries an open point of the file, so that
//! the two cannot drift apart.

use std::collections::BTreeSet;

use sow::explain::{DocKind, RulesDoc, cited, is_clause_id};

/// Every `cites = "..."` value of a ruleset's text, tables and inline tables alike.
fn cites(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("cites = \"") {
        rest = &rest[i + "cites = \"".len()..];
        let end = rest.find('"').expect("a closing quote");
        out.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    out
}

#[test]
fn every_shipped_ruleset_has_its_rules_file_and_they_agree() {
    for (name, text) in sow::catalog::SHIPPED {
        let (file, doc_text) = sow::catalog::rules_doc(name)
            .unwrap_or_else(|| panic!("{name}: no docs/rules/{name}.md"));
        let on_disk =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&file))
                .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(on_disk, doc_text, "{file}: the embedded copy is stale");
        let doc = RulesDoc::parse(doc_text);
        assert!(!doc.clauses.is_empty(), "{file}: no clauses read");

        // One prefix for the file, and each id once in its own table.
        let prefixes: BTreeSet<&str> = doc
            .clauses
            .iter()
            .filter_map(|c| c.id.split_once('-').map(|(p, _)| p))
            .collect();
        assert_eq!(prefixes.len(), 1, "{file}: prefixes {prefixes:?}");
        let mut seen = BTreeSet::new();
        for c in doc
            .clauses
            .iter()
            .filter(|c| c.kind != DocKind::NotExpressed)
        {
            assert!(seen.insert(c.id.as_str()), "{file}: {} twice", c.id);
            let open =
                c.id.split_once('-')
                    .is_some_and(|(_, n)| n.starts_with('O'));
            assert_eq!(
                open,
                c.kind == DocKind::OpenPoint,
                "{file}: {} in the wrong table",
                c.id
            );
        }

        // Every id cited is a rule or an open point of the file.
        let mut cited_ids = BTreeSet::new();
        for c in cites(text) {
            for id in cited(&c) {
                assert!(
                    is_clause_id(id),
                    "{name}: `{id}` in cites = \"{c}\" is not a clause id"
                );
                assert!(
                    doc.clause(id).is_some(),
                    "{name} cites {id}, which {file} does not have"
                );
                cited_ids.insert(id.to_string());
            }
        }

        // Every rule is cited, or listed as not expressed (and then not cited).
        let not_expressed: BTreeSet<&str> = doc
            .clauses
            .iter()
            .filter(|c| c.kind == DocKind::NotExpressed)
            .map(|c| c.id.as_str())
            .collect();
        for c in doc.clauses.iter().filter(|c| c.kind == DocKind::Rule) {
            let listed = not_expressed.contains(c.id.as_str());
            assert!(
                cited_ids.contains(&c.id) != listed,
                "{file}: {} is {}",
                c.id,
                if listed {
                    "listed as not expressed but cited"
                } else {
                    "cited by no clause of the ruleset"
                }
            );
        }
        for id in &not_expressed {
            assert!(
                doc.clause(id).is_some_and(|c| c.kind == DocKind::Rule),
                "{file}: not expressed {id} is not a rule"
            );
        }

        // Every option carries an open point that names it, and cites it.
        let rules = sow::check::load(text, &[]).expect("loads").rules;
        let carried: Vec<(&str, &str)> = doc
            .clauses
            .iter()
            .filter_map(|c| c.option.as_deref().map(|o| (o, c.id.as_str())))
            .collect();
        for (option, id) in &carried {
            assert!(
                rules.options.iter().any(|o| o.name == *option),
                "{file}: {id} names option `{option}`, which {name} does not have"
            );
        }
        for o in &rules.options {
            let ids: Vec<&str> = carried
                .iter()
                .filter(|(n, _)| *n == o.name)
                .map(|(_, id)| *id)
                .collect();
            assert!(
                !ids.is_empty(),
                "{name}: option `{}` carries no open point of {file}",
                o.name
            );
            let cites = o.cites.as_deref().unwrap_or("");
            assert!(
                ids.iter().any(|id| cited(cites).any(|c| c == *id)),
                "{name}: option `{}` should cite {}",
                o.name,
                ids.join(" or ")
            );
        }
    }
}

#[test]
fn a_rules_file_reads_as_its_tables() {
    let doc = RulesDoc::parse(
        "# G\n\nIntro | not a row\n\n## Rules\n\n| id | rule |\n|---|---|\n| G-1 | Board. |\n| G-2 | Start. |\n\n\
         ## Open points\n\n| id | question | default | other readings | option |\n|---|---|---|---|---|\n\
         | G-O1 | Which way? | left | right | `way` |\n| G-O2 | Anything else? | no | — | — |\n\n\
         ## Not expressed\n\n| id | why |\n|---|---|\n| G-2 | No reason. |\n",
    );
    let rows: Vec<(&str, DocKind, &str, Option<&str>)> = doc
        .clauses
        .iter()
        .map(|c| (c.id.as_str(), c.kind, c.text.as_str(), c.option.as_deref()))
        .collect();
    assert_eq!(
        rows,
        [
            ("G-1", DocKind::Rule, "Board.", None),
            ("G-2", DocKind::Rule, "Start.", None),
            (
                "G-O1",
                DocKind::OpenPoint,
                "Which way? Default: left.",
                Some("way")
            ),
            (
                "G-O2",
                DocKind::OpenPoint,
                "Anything else? Default: no.",
                None
            ),
            ("G-2", DocKind::NotExpressed, "No reason.", None),
        ]
    );
    assert_eq!(doc.clause("G-2").map(|c| c.kind), Some(DocKind::Rule));
    assert!(is_clause_id("S3-O1") && is_clause_id("RP-12"));
    assert!(!is_clause_id("Durai 1928") && !is_clause_id("RP-") && !is_clause_id("rp-1"));
}

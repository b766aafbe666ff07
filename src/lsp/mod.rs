//! What `sow lsp` knows about a ruleset being edited: its diagnostics, hover help and
//! completions, as Language Server Protocol values. Pure functions of the text and a place in
//! it; the server loop (`sow lsp`, in the CLI) does the talking.
//!
//! Everything comes from the sources the checker uses: diagnostics from [`crate::check::load`],
//! keys and their help from the JSON Schema the format's types generate ([`crate::schema`]),
//! names and functions of expressions from [`crate::check::typing::NAMES`] and
//! [`crate::check::typing::FUNCTIONS`], options from the file itself. A key or name added
//! there is offered here with no change.
//!
//! The text is user input: no `unwrap`, `expect` or indexing that could panic.

use lsp_types as lsp;
use serde_json::Value as Schema;

use crate::check::typing::{FUNCTIONS, NAMES};
use crate::diagnostic::Level;

/// A byte offset as an LSP position: the line, and the column in UTF-16 code units.
pub fn position(source: &str, offset: usize) -> lsp::Position {
    let mut offset = offset.min(source.len());
    while offset > 0 && !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = source.get(..offset).unwrap_or("");
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let column: usize = before
        .get(start..)
        .unwrap_or("")
        .chars()
        .map(char::len_utf16)
        .sum();
    lsp::Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

/// An LSP position as a byte offset (clamped to the text).
pub fn offset(source: &str, at: lsp::Position) -> usize {
    let mut start = 0;
    for _ in 0..at.line {
        match source.get(start..).and_then(|rest| rest.find('\n')) {
            Some(i) => start += i + 1,
            None => return source.len(),
        }
    }
    let line = source.get(start..).unwrap_or("");
    let line = line.split('\n').next().unwrap_or("");
    let mut units = 0u32;
    for (i, c) in line.char_indices() {
        if units >= at.character {
            return start + i;
        }
        units += u32::try_from(c.len_utf16()).unwrap_or(2);
    }
    start + line.len()
}

fn range(source: &str, span: &std::ops::Range<usize>) -> lsp::Range {
    lsp::Range::new(position(source, span.start), position(source, span.end))
}

/// The diagnostics of `source`, as `sow check` finds them, for the document `uri`.
pub fn diagnostics(uri: &lsp::Uri, source: &str) -> Vec<lsp::Diagnostic> {
    let found = match crate::check::load(source, &[]) {
        Ok(loaded) => loaded.warnings,
        Err(diags) => diags,
    };
    found
        .iter()
        .map(|d| {
            let span = d.span.clone().unwrap_or(0..0);
            let mut message = d.message.clone();
            if let Some(label) = &d.label {
                message.push_str(&format!(" ({label})"));
            }
            if let Some(hint) = &d.hint {
                message.push_str(&format!("\nHint: {hint}"));
            }
            let related: Vec<lsp::DiagnosticRelatedInformation> = d
                .related
                .iter()
                .map(|l| lsp::DiagnosticRelatedInformation {
                    location: lsp::Location::new(uri.clone(), range(source, &l.span)),
                    message: l.text.clone(),
                })
                .collect();
            lsp::Diagnostic {
                range: range(source, &span),
                severity: Some(match d.level {
                    Level::Error => lsp::DiagnosticSeverity::ERROR,
                    Level::Warning => lsp::DiagnosticSeverity::WARNING,
                }),
                code: Some(lsp::NumberOrString::String(d.code.id().to_string())),
                source: Some("sow".into()),
                message,
                related_information: (!related.is_empty()).then_some(related),
                ..Default::default()
            }
        })
        .collect()
}

/// Where the cursor is, as far as help goes.
#[derive(Debug, PartialEq)]
enum Context {
    /// Writing a key of the table at this path (`["sowing", "relay"]`).
    Key(Vec<String>),
    /// Writing a table header `[...`.
    Header,
    /// Writing the value of `key` in the table at the path.
    Value(Vec<String>, String),
    /// Inside an expression (a single-quoted string).
    Expression,
}

/// The line of `offset`: its text, where it starts, and the cursor's place in it.
fn line_at(source: &str, offset: usize) -> (&str, usize, usize) {
    let offset = offset.min(source.len());
    let start = source
        .get(..offset)
        .and_then(|b| b.rfind('\n'))
        .map_or(0, |i| i + 1);
    let end = source
        .get(offset..)
        .and_then(|r| r.find('\n'))
        .map_or(source.len(), |i| offset + i);
    (source.get(start..end).unwrap_or(""), start, offset - start)
}

/// The path of the table the line at `offset` is in, from the last header above it.
fn table_path(source: &str, offset: usize) -> Vec<String> {
    let before = source.get(..offset.min(source.len())).unwrap_or("");
    let header = before
        .lines()
        .rev()
        .skip(1)
        .map(str::trim)
        .find(|l| l.starts_with('['));
    match header {
        Some(h) => h
            .trim_matches(['[', ']'])
            .split('.')
            .map(|k| k.trim().trim_matches(['"', '\'']).to_string())
            .filter(|k| !k.is_empty())
            .collect(),
        None => Vec::new(),
    }
}

fn context(source: &str, offset: usize) -> Context {
    let (line, _, at) = line_at(source, offset);
    let before = line.get(..at).unwrap_or(line);
    if before.trim_start().starts_with('[') && !before.contains(']') {
        return Context::Header;
    }
    if before.matches('\'').count() % 2 == 1 {
        return Context::Expression;
    }
    let mut path = table_path(source, offset);
    // Inside an inline table `key = { a = 1, b`: the keys are those of `key`.
    let mut rest = before;
    if let Some(brace) = before.rfind('{')
        && !before.get(brace..).unwrap_or("").contains('}')
    {
        if let Some((key, _)) = before.get(..brace).and_then(|b| b.rsplit_once('=')) {
            let key = key
                .rsplit([',', '{'])
                .next()
                .unwrap_or(key)
                .trim()
                .to_string();
            path.push(key);
        }
        rest = before.get(brace + 1..).unwrap_or("");
        rest = rest.rsplit(',').next().unwrap_or(rest);
    }
    match rest.split_once('=') {
        None => Context::Key(path),
        Some((key, _)) => Context::Value(path, key.trim().to_string()),
    }
}

use crate::check::structure::resolve;

/// The schema of the table at `path`.
fn table_schema<'a>(root: &'a Schema, path: &[String]) -> Option<&'a Schema> {
    let mut s = resolve(root, root);
    for key in path {
        s = resolve(root, s);
        if s.get("type").and_then(Schema::as_str) == Some("array") {
            s = resolve(root, s.get("items")?);
        }
        s = match s.get("properties").and_then(|p| p.get(key.as_str())) {
            Some(p) => p,
            None => s.get("additionalProperties").filter(|a| a.is_object())?,
        };
        s = table_branch(root, s);
    }
    let s = resolve(root, s);
    if s.get("type").and_then(Schema::as_str) == Some("array") {
        return Some(table_branch(root, s.get("items")?));
    }
    Some(s)
}

/// Of a choice (`anyOf`), the branch that is a table with properties, if any.
fn table_branch<'a>(root: &'a Schema, s: &'a Schema) -> &'a Schema {
    let r = resolve(root, s);
    let branches = r
        .get("anyOf")
        .or_else(|| r.get("oneOf"))
        .and_then(Schema::as_array);
    match branches {
        Some(bs) => bs
            .iter()
            .map(|b| resolve(root, b))
            .find(|b| b.get("properties").is_some())
            .unwrap_or(r),
        None => r,
    }
}

/// The words a value may be, with their help: the variants of an enumeration.
fn words<'a>(root: &'a Schema, s: &'a Schema) -> Vec<(String, Option<String>)> {
    let s = resolve(root, s);
    let mut out = Vec::new();
    if let Some(values) = s.get("enum").and_then(Schema::as_array) {
        let doc = s
            .get("description")
            .and_then(Schema::as_str)
            .map(str::to_string);
        for v in values {
            if let Some(w) = v.as_str() {
                out.push((w.to_string(), doc.clone()));
            }
        }
    }
    if let Some(bs) = s
        .get("anyOf")
        .or_else(|| s.get("oneOf"))
        .and_then(Schema::as_array)
    {
        for b in bs {
            out.extend(words(root, b));
        }
    }
    if s.get("type").and_then(Schema::as_str) == Some("boolean") {
        out.push(("true".into(), None));
        out.push(("false".into(), None));
    }
    out
}

fn description(s: &Schema) -> Option<String> {
    s.get("description")
        .and_then(Schema::as_str)
        .map(str::to_string)
}

/// The word at `offset`: letters, digits, `_` and `.` (for `option.NAME`), with its span.
fn word_at(source: &str, offset: usize) -> Option<(String, std::ops::Range<usize>)> {
    let (line, start, at) = line_at(source, offset);
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    let left = line
        .get(..at)?
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(at, |(i, _)| i);
    let right = line
        .get(at..)?
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(line.len(), |(i, _)| at + i);
    let word = line.get(left..right)?.to_string();
    (!word.is_empty()).then_some((word, start + left..start + right))
}

/// The options the file declares, with their question and values (read leniently: the file
/// may be half written).
fn options(source: &str) -> Vec<(String, String, Vec<String>)> {
    let (tree, _) = toml::de::DeTable::parse_recoverable(source);
    let Some(table) = tree
        .get_ref()
        .get("options")
        .and_then(|o| o.get_ref().as_table())
    else {
        return Vec::new();
    };
    table
        .iter()
        .map(|(k, v)| {
            let question = v
                .get_ref()
                .get("question")
                .and_then(|q| q.get_ref().as_str())
                .unwrap_or("")
                .to_string();
            let values = v
                .get_ref()
                .get("values")
                .and_then(|vs| vs.get_ref().as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.get_ref().as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            (k.get_ref().to_string(), question, values)
        })
        .collect()
}

/// Help for a name or function of the language.
fn expression_help(word: &str, source: &str) -> Option<String> {
    if let Some(option) = word.strip_prefix("option.") {
        let (name, question, values) = options(source).into_iter().find(|(n, _, _)| n == option)?;
        return Some(format!(
            "**option.{name}**: {question}\n\nValues: {}",
            values
                .iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(n) = NAMES.iter().find(|n| n.name == word) {
        return Some(format!("**{}**: {}\n\n{}", n.name, n.ty.word(), n.doc));
    }
    let f = FUNCTIONS.iter().find(|f| f.name == word)?;
    Some(format!(
        "**{}**: {}\n\n{}",
        signature(f),
        f.ty.word(),
        f.doc
    ))
}

fn signature(f: &crate::check::typing::FunctionDoc) -> String {
    let args: Vec<&str> = f
        .args
        .iter()
        .map(|t| match t {
            crate::check::typing::Type::Hole => "hole",
            crate::check::typing::Type::Player => "player",
            crate::check::typing::Type::Number => "number",
            crate::check::typing::Type::Bool => "condition",
            crate::check::typing::Type::Text => "string",
            crate::check::typing::Type::Option => "option",
            crate::check::typing::Type::Direction => "direction",
            crate::check::typing::Type::Set => "set of holes",
        })
        .collect();
    format!("{}({})", f.name, args.join(", "))
}

/// Hover help at `at`: a key's documentation, a value's meaning, a name or function of the
/// expression language, an option.
pub fn hover(source: &str, at: lsp::Position) -> Option<lsp::Hover> {
    let offset = offset(source, at);
    let (word, span) = word_at(source, offset)?;
    let root = crate::check::structure::schema();
    let text = match context(source, offset) {
        Context::Expression => expression_help(&word, source)?,
        Context::Header => {
            let path: Vec<String> = word.split('.').map(str::to_string).collect();
            let (last, parents) = path.split_last()?;
            let table = table_schema(root, parents)?;
            let p = table.get("properties")?.get(last.as_str())?;
            format!("**[{word}]**\n\n{}", description(p)?)
        }
        Context::Key(path) => {
            let table = table_schema(root, &path)?;
            let p = table.get("properties")?.get(word.as_str())?;
            format!("**{word}**\n\n{}", description(p)?)
        }
        Context::Value(path, key) => {
            let table = table_schema(root, &path)?;
            let p = table.get("properties")?.get(key.as_str())?;
            let described = variant_help(root, p, &word);
            match described {
                Some(d) => format!("**{word}**: {d}"),
                None => format!("**{key}**\n\n{}", description(p)?),
            }
        }
    };
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: text,
        }),
        range: Some(range(source, &span)),
    })
}

/// The documentation of the variant `word` of an enumeration.
fn variant_help(root: &Schema, s: &Schema, word: &str) -> Option<String> {
    let s = resolve(root, s);
    let is = s
        .get("enum")
        .and_then(Schema::as_array)
        .is_some_and(|vs| vs.iter().any(|v| v.as_str() == Some(word)));
    if is {
        return description(s);
    }
    s.get("anyOf")
        .or_else(|| s.get("oneOf"))
        .and_then(Schema::as_array)?
        .iter()
        .find_map(|b| variant_help(root, b, word))
}

/// Completions at `at`: keys of the table the cursor is in, table names in a header, the words
/// a value may be, and in expressions the names, functions and options.
pub fn completion(source: &str, at: lsp::Position) -> Vec<lsp::CompletionItem> {
    let offset = offset(source, at);
    let root = crate::check::structure::schema();
    let item =
        |label: String, kind, detail: Option<String>, doc: Option<String>| lsp::CompletionItem {
            label,
            kind: Some(kind),
            detail,
            documentation: doc.map(|d| {
                lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value: d,
                })
            }),
            ..Default::default()
        };
    match context(source, offset) {
        Context::Header => {
            let top = resolve(root, root);
            let mut out = Vec::new();
            if let Some(props) = top.get("properties").and_then(Schema::as_object) {
                for (k, p) in props {
                    let is_table = table_schema(root, std::slice::from_ref(k))
                        .is_some_and(|t| t.get("properties").is_some());
                    if is_table {
                        out.push(item(
                            k.clone(),
                            lsp::CompletionItemKind::MODULE,
                            None,
                            description(p),
                        ));
                    }
                }
            }
            out
        }
        Context::Key(path) => {
            let Some(table) = table_schema(root, &path) else {
                return Vec::new();
            };
            table
                .get("properties")
                .and_then(Schema::as_object)
                .map(|props| {
                    props
                        .iter()
                        .map(|(k, p)| {
                            item(
                                k.clone(),
                                lsp::CompletionItemKind::FIELD,
                                None,
                                description(p),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default()
        }
        Context::Value(path, key) => {
            let Some(p) = table_schema(root, &path)
                .and_then(|t| t.get("properties"))
                .and_then(|ps| ps.get(key.as_str()))
            else {
                return Vec::new();
            };
            let mut seen = Vec::new();
            words(root, p)
                .into_iter()
                .filter(|(w, _)| {
                    let fresh = !seen.contains(w);
                    seen.push(w.clone());
                    fresh
                })
                .map(|(w, doc)| item(w, lsp::CompletionItemKind::ENUM_MEMBER, None, doc))
                .collect()
        }
        Context::Expression => {
            let (line, _, at) = line_at(source, offset);
            let before = line.get(..at).unwrap_or("");
            let opts = options(source);
            // `option.x == "` : the option's values.
            if let Some(open) = before.rfind('"')
                && before.matches('"').count() % 2 == 1
            {
                let lhs = before.get(..open).unwrap_or("");
                let name = lhs
                    .trim_end()
                    .trim_end_matches(['=', '!'])
                    .trim_end()
                    .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .next()
                    .unwrap_or("");
                if let Some(option) = name.strip_prefix("option.") {
                    return opts
                        .iter()
                        .filter(|(n, _, _)| n == option)
                        .flat_map(|(_, q, vs)| {
                            vs.iter().map(move |v| {
                                item(
                                    v.clone(),
                                    lsp::CompletionItemKind::VALUE,
                                    Some(q.clone()),
                                    None,
                                )
                            })
                        })
                        .collect();
                }
                return Vec::new();
            }
            if before.ends_with("option.") {
                return opts
                    .into_iter()
                    .map(|(n, q, _)| item(n, lsp::CompletionItemKind::VARIABLE, Some(q), None))
                    .collect();
            }
            let mut out: Vec<lsp::CompletionItem> = NAMES
                .iter()
                .map(|n| {
                    item(
                        n.name.to_string(),
                        lsp::CompletionItemKind::VARIABLE,
                        Some(n.ty.word().to_string()),
                        Some(n.doc.to_string()),
                    )
                })
                .collect();
            out.extend(FUNCTIONS.iter().map(|f| lsp::CompletionItem {
                insert_text: Some(format!("{}($1)", f.name)),
                insert_text_format: Some(lsp::InsertTextFormat::SNIPPET),
                ..item(
                    f.name.to_string(),
                    lsp::CompletionItemKind::FUNCTION,
                    Some(signature(f)),
                    Some(f.doc.to_string()),
                )
            }));
            out.extend(opts.into_iter().map(|(n, q, _)| {
                item(
                    format!("option.{n}"),
                    lsp::CompletionItemKind::VARIABLE,
                    Some(q),
                    None,
                )
            }));
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let source = "a = 'é𝄞x'\nb = 1\n";
        let x = source.find('x').unwrap_or(0);
        let p = position(source, x);
        assert_eq!((p.line, p.character), (0, 8));
        assert_eq!(offset(source, p), x);
        assert_eq!(
            offset(source, lsp::Position::new(1, 0)),
            source.find('b').unwrap_or(0)
        );
    }

    #[test]
    fn contexts() {
        let source = "[sowing]\ndirection = \"c\"\n[[capture]]\nwhen = 'seeds(\n";
        let at = |s: &str| source.find(s).unwrap_or(0) + s.len();
        assert_eq!(
            context(source, at("direc")),
            Context::Key(vec!["sowing".into()])
        );
        assert_eq!(
            context(source, at("direction = \"c")),
            Context::Value(vec!["sowing".into()], "direction".into())
        );
        assert_eq!(context(source, at("seeds(")), Context::Expression);
        assert_eq!(context(source, at("[[cap")), Context::Header);
    }
}

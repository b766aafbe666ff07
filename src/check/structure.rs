//! The structural pass: the TOML tree, with its spans, checked against the JSON Schema that the
//! format's types generate ([`crate::schema`]), before serde reads it.
//!
//! serde stops at the first mistake; this pass walks the whole tree and reports every unknown
//! key, wrong type, unknown word, missing key or table and number out of range, each at its
//! place. It reads only the schema, never a list of keys of its own, so a key added to
//! [`crate::ruleset`] is covered as soon as it exists.
//!
//! It then mends the tree so that the rest of the checker can run and report the problems it
//! knows (a board of 3 rows, an unknown name in an expression) in the same run: what is wrong
//! is taken out, and what is missing is put in as a stand-in built from the schema, placed
//! past the end of the text so that whatever the checker says about a stand-in is dropped
//! ([`is_stand_in`]).
//!
//! Everything here reads user input: no `unwrap`, `expect` or indexing that could panic.

use std::ops::Range;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value as Schema;
use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue};

use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::ruleset::RulesetFile;

/// The ruleset file read, or not, with every problem found on the way.
pub struct Read {
    pub file: Option<RulesetFile>,
    pub diagnostics: Vec<Diagnostic>,
    /// Whether stand-ins were put in for missing values: what the checker says without a
    /// place may then be about them.
    pub stood_in: bool,
}

/// Whether a span is a stand-in's (past the end of the text).
pub fn is_stand_in(source: &str, span: &Range<usize>) -> bool {
    span.start > source.len()
}

/// The format's JSON Schema as a value, built once.
pub fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        serde_json::to_value(schemars::schema_for!(RulesetFile)).unwrap_or(Schema::Bool(true))
    })
}

/// Reads a ruleset's text: TOML syntax, then structure, then serde.
pub fn read(source: &str) -> Read {
    let (mut tree, errors) = DeTable::parse_recoverable(source);
    if !errors.is_empty() {
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        // A table defined twice makes every key of its second body a duplicate too: those
        // are said once, by the table.
        let mut twice_until = 0;
        for e in &errors {
            let start = e.span().map_or(0, |s| s.start);
            let duplicate = e.message().starts_with("duplicate key");
            if duplicate && start < twice_until {
                continue;
            }
            let d = syntax_error(source, &tree, e);
            if duplicate && line_of(source, start).trim_start().starts_with('[') {
                twice_until = next_header(source, start);
            }
            diagnostics.push(d);
        }
        return Read {
            file: None,
            diagnostics,
            stood_in: false,
        };
    }
    let root = schema();
    let whole = Spanned::new(tree.span(), DeValue::Table(tree.get_ref().clone()));
    let walker = Walker {
        root,
        tree: whole.get_ref(),
        source,
        stand_in: source.len() + 1..source.len() + 1,
    };
    let mut issues = Vec::new();
    walker.check(&whole, root, &mut Vec::new(), &mut issues);
    let stood_in = issues.iter().any(|i| i.missing);
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for issue in issues {
        match &issue.fix {
            Fix::Remove(path) => apply(tree.get_mut(), path, None),
            Fix::Insert(path, value) => apply(tree.get_mut(), path, Some(value)),
            Fix::Nothing => {}
        }
        diagnostics.extend(issue.diagnostic);
    }
    let file = match RulesetFile::deserialize(toml::de::Deserializer::from(tree)) {
        Ok(file) => Some(file),
        Err(e) => {
            let d = serde_error(&e);
            // The structural pass may have said it already, at the same place.
            if !diagnostics
                .iter()
                .any(|x| x.span.is_some() && x.span == d.span)
            {
                diagnostics.push(d);
            }
            None
        }
    };
    Read {
        file,
        diagnostics,
        stood_in,
    }
}

/// Follows `$ref`s (into `root`'s definitions) and one-branch `allOf`s (schemars wraps a
/// described reference so).
pub fn resolve<'s>(root: &'s Schema, mut s: &'s Schema) -> &'s Schema {
    for _ in 0..32 {
        if let Some(r) = s.get("$ref").and_then(Schema::as_str) {
            let name = r.trim_start_matches("#/definitions/");
            match root.get("definitions").and_then(|d| d.get(name)) {
                Some(next) => s = next,
                None => return s,
            }
        } else if let Some([one]) = s.get("allOf").and_then(Schema::as_array).map(Vec::as_slice) {
            s = one;
        } else {
            return s;
        }
    }
    s
}

/// A TOML syntax error. A duplicate key names the key and both places.
fn syntax_error(source: &str, tree: &Spanned<DeTable<'_>>, e: &toml::de::Error) -> Diagnostic {
    let span = e.span();
    let message = e.message().trim().to_string();
    if message.starts_with("duplicate key")
        && let Some(span) = &span
    {
        let key = source
            .get(span.clone())
            .unwrap_or("")
            .trim_matches(['"', '\'']);
        let mut d = Diagnostic::new(Code::DuplicateKey, format!("`{key}` is defined twice"))
            .at(span.clone())
            .label("defined again here");
        let first = if line_of(source, span.start).trim_start().starts_with('[') {
            first_header(source, span.start)
        } else {
            first_key(tree.get_ref(), key, span.start)
        };
        if let Some(first) = first {
            d = d.also(first, "first defined here");
        }
        return d.hint(
            "remove one of them; `[[table]]` (double brackets) starts a new clause each time",
        );
    }
    let mut d = Diagnostic::new(Code::TomlSyntax, message.replace('\n', "; "));
    if let Some(span) = span {
        if let Some(hint) = quote_hint(source, span.start) {
            d = d.hint(hint);
        }
        d = d.at(span);
    }
    d
}

/// The line holding byte `at`.
fn line_of(source: &str, at: usize) -> &str {
    let start = source
        .get(..at)
        .and_then(|b| b.rfind('\n'))
        .map_or(0, |i| i + 1);
    let end = source
        .get(at..)
        .and_then(|r| r.find('\n'))
        .map_or(source.len(), |i| at + i);
    source.get(start..end).unwrap_or("")
}

/// Where the table header after the line of `at` starts (or the end of the text).
fn next_header(source: &str, at: usize) -> usize {
    let mut offset = source
        .get(at..)
        .and_then(|r| r.find('\n'))
        .map_or(source.len(), |i| at + i + 1);
    for line in source.get(offset..).unwrap_or("").split_inclusive('\n') {
        if line.trim_start().starts_with('[') {
            return offset;
        }
        offset += line.len();
    }
    source.len()
}

/// The place of an earlier header written as the header at `at` is.
fn first_header(source: &str, at: usize) -> Option<Range<usize>> {
    let header = line_of(source, at).trim();
    let mut offset = 0;
    for line in source.get(..at)?.split_inclusive('\n') {
        if line.trim() == header && offset + line.len() <= at {
            let lead = line.len() - line.trim_start().len();
            return Some(offset + lead..offset + lead + header.len());
        }
        offset += line.len();
    }
    None
}

/// The place of the last key named `key` before `before`, anywhere in the tree: where a
/// duplicate was first defined.
fn first_key(table: &DeTable<'_>, key: &str, before: usize) -> Option<Range<usize>> {
    let mut best: Option<Range<usize>> = None;
    let mut tables = vec![table];
    let mut values: Vec<&DeValue<'_>> = Vec::new();
    while !tables.is_empty() || !values.is_empty() {
        while let Some(t) = tables.pop() {
            for (k, v) in t.iter() {
                let s = k.span();
                if k.get_ref() == key
                    && s.start < before
                    && best.as_ref().is_none_or(|b| b.start < s.start)
                {
                    best = Some(s);
                }
                values.push(v.get_ref());
            }
        }
        while let Some(v) = values.pop() {
            match v {
                DeValue::Table(t) => tables.push(t),
                DeValue::Array(a) => values.extend(a.iter().map(Spanned::get_ref)),
                _ => {}
            }
        }
    }
    best
}

/// The hint for a TOML error on a line whose double-quoted string holds double quotes: an
/// expression such as `when = "option.x == "a""`.
fn quote_hint(source: &str, at: usize) -> Option<String> {
    let start = source.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let end = source
        .get(at..)?
        .find('\n')
        .map_or(source.len(), |i| at + i);
    let line = source.get(start..end)?;
    let (key, value) = line.split_once('=')?;
    let value = value.trim();
    (value.starts_with('"') && !value.starts_with("\"\"\"") && value.matches('"').count() > 2)
        .then(|| {
            format!(
                "a string in double quotes ends at its next double quote: write the expression in single quotes, `{} = '{}'`",
                key.trim(),
                value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .unwrap_or(value)
            )
        })
}

/// A serde error the structural pass did not foresee (the schema says less than the types).
fn serde_error(e: &toml::de::Error) -> Diagnostic {
    let message = e.message().trim().to_string();
    let mut d = Diagnostic::new(Code::InvalidValue, message.replace('\n', "; "));
    if let Some(span) = e.span() {
        d = d.at(span);
    }
    d
}

/// A step into the tree.
#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

/// How the tree is mended after a problem.
#[derive(Debug)]
enum Fix<'i> {
    /// Take the value at the path out (an unknown key, a wrong optional value).
    Remove(Vec<Step>),
    /// Put a stand-in at the path (a wrong or missing required value, a wrong list item).
    Insert(Vec<Step>, Spanned<DeValue<'i>>),
    Nothing,
}

struct Issue<'i> {
    /// None when another diagnostic says it already.
    diagnostic: Option<Diagnostic>,
    fix: Fix<'i>,
    /// A stand-in for a missing value.
    missing: bool,
}

impl<'i> Issue<'i> {
    fn new(diagnostic: Diagnostic, fix: Fix<'i>) -> Issue<'i> {
        Issue {
            diagnostic: Some(diagnostic),
            fix,
            missing: false,
        }
    }
}

fn apply<'i>(t: &mut DeTable<'i>, path: &[Step], value: Option<&Spanned<DeValue<'i>>>) {
    match path {
        [Step::Key(k)] => set(t, k, value),
        [Step::Key(k), rest @ ..] => {
            if let Some((_, v)) = t.iter_mut().find(|(key, _)| key.get_ref() == k) {
                apply_value(v.get_mut(), rest, value);
            }
        }
        _ => {}
    }
}

fn apply_value<'i>(v: &mut DeValue<'i>, path: &[Step], value: Option<&Spanned<DeValue<'i>>>) {
    match (v, path) {
        (DeValue::Table(t), _) => apply(t, path, value),
        (DeValue::Array(a), [Step::Index(i)]) => {
            // Items are replaced, never removed, so that later paths keep their indices.
            if let (Some(slot), Some(value)) = (a.get_mut(*i), value) {
                *slot = value.clone();
            }
        }
        (DeValue::Array(a), [Step::Index(i), rest @ ..]) => {
            if let Some(x) = a.get_mut(*i) {
                apply_value(x.get_mut(), rest, value);
            }
        }
        _ => {}
    }
}

fn set<'i>(t: &mut DeTable<'i>, k: &str, value: Option<&Spanned<DeValue<'i>>>) {
    match value {
        None => {
            t.remove(&Spanned::new(0..0, k.to_string().into()));
        }
        Some(v) => {
            // Keys compare by their text, whatever their place.
            t.remove(&Spanned::new(0..0, k.to_string().into()));
            t.insert(Spanned::new(v.span(), k.to_string().into()), v.clone());
        }
    }
}

/// The kind of a TOML value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Table,
    Array,
    String,
    Integer,
    Float,
    Boolean,
    Datetime,
}

fn kind(v: &DeValue<'_>) -> Kind {
    match v {
        DeValue::String(_) => Kind::String,
        DeValue::Integer(_) => Kind::Integer,
        DeValue::Float(_) => Kind::Float,
        DeValue::Boolean(_) => Kind::Boolean,
        DeValue::Datetime(_) => Kind::Datetime,
        DeValue::Array(_) => Kind::Array,
        DeValue::Table(_) => Kind::Table,
    }
}

/// A value as a message names it: `the string "4"`, `the number -1`, `a table`.
fn found(v: &DeValue<'_>) -> String {
    match v {
        DeValue::String(s) => format!("the string \"{}\"", short(s)),
        DeValue::Integer(i) => format!("the number {}", i.as_str()),
        DeValue::Float(f) => format!("the number {}", f.as_str()),
        DeValue::Boolean(b) => format!("`{b}`"),
        DeValue::Datetime(_) => "a date".into(),
        DeValue::Array(_) => "a list".into(),
        DeValue::Table(_) => "a table".into(),
    }
}

fn short(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Where a value is, for messages: its key (`` `holes` ``, "item 2 of `take`") and the table it
/// is in (`[board]`, `[[capture]] "fours"`, "the top level").
fn place(path: &[Step], tree: &DeValue<'_>) -> (String, String) {
    let Some((last, parents)) = path.split_last() else {
        return ("the ruleset".into(), "the file".into());
    };
    match last {
        Step::Key(k) => (format!("`{k}`"), table_name(parents, tree)),
        Step::Index(i) => {
            let (list, table) = place(parents, tree);
            (format!("item {} of {list}", i + 1), table)
        }
    }
}

/// A table named as its header would be: `[sowing.relay]`, `[[capture]] "fours"`, or "the top
/// level".
fn table_name(path: &[Step], tree: &DeValue<'_>) -> String {
    if path.is_empty() {
        return "the top level".into();
    }
    let mut names = Vec::new();
    let mut here = Some(tree);
    let mut clause = None;
    for step in path {
        match step {
            Step::Key(k) => {
                names.push(k.clone());
                here = here.and_then(|v| v.get(k.as_str())).map(Spanned::get_ref);
                clause = None;
            }
            Step::Index(i) => {
                here = here.and_then(|v| v.get(*i)).map(Spanned::get_ref);
                let name = here
                    .and_then(|v| v.get("name"))
                    .and_then(|n| n.get_ref().as_str())
                    .map(|n| format!(" \"{}\"", short(n)));
                clause = Some(name.unwrap_or_else(|| format!(" number {}", i + 1)));
            }
        }
    }
    match clause {
        Some(c) => format!("[[{}]]{c}", names.join(".")),
        None => format!("[{}]", names.join(".")),
    }
}

struct Walker<'s, 't> {
    root: &'s Schema,
    /// The whole tree, for the names of clauses in messages.
    tree: &'t DeValue<'t>,
    source: &'t str,
    stand_in: Range<usize>,
}

impl<'s> Walker<'s, '_> {
    fn resolve(&self, s: &'s Schema) -> &'s Schema {
        resolve(self.root, s)
    }

    fn branches(&self, s: &'s Schema) -> Option<&'s Vec<Schema>> {
        s.get("anyOf")
            .or_else(|| s.get("oneOf"))
            .and_then(Schema::as_array)
    }

    /// The words a schema allows, when it is an enumeration (or a choice of enumerations).
    fn words(&self, s: &'s Schema) -> Option<Vec<&'s Schema>> {
        let s = self.resolve(s);
        if let Some(values) = s.get("enum").and_then(Schema::as_array) {
            return Some(values.iter().collect());
        }
        if let Some(c) = s.get("const") {
            return Some(vec![c]);
        }
        let branches = self.branches(s)?;
        let mut all = Vec::new();
        for b in branches {
            all.extend(self.words(b)?);
        }
        Some(all)
    }

    /// The kinds of TOML value a schema can accept.
    fn kinds(&self, s: &'s Schema) -> Vec<Kind> {
        let s = self.resolve(s);
        if let Some(words) = self.words(s) {
            return words.iter().filter_map(|w| json_kind(w)).collect();
        }
        if let Some(branches) = self.branches(s) {
            return branches.iter().flat_map(|b| self.kinds(b)).collect();
        }
        match s.get("type") {
            Some(Schema::String(t)) => type_kinds(t),
            Some(Schema::Array(ts)) => ts
                .iter()
                .filter_map(Schema::as_str)
                .flat_map(type_kinds)
                .collect(),
            _ => vec![
                Kind::Table,
                Kind::Array,
                Kind::String,
                Kind::Integer,
                Kind::Float,
                Kind::Boolean,
                Kind::Datetime,
            ],
        }
    }

    /// What a schema expects, for messages: "a whole number or a table `{ option = ... }`".
    fn expected(&self, s: &'s Schema) -> String {
        let mut parts = Vec::new();
        self.expected_parts(s, &mut parts);
        or_list(&parts)
    }

    fn expected_parts(&self, s: &'s Schema, parts: &mut Vec<String>) {
        let s = self.resolve(s);
        let mut add = |p: String| {
            if !p.is_empty() && !parts.contains(&p) {
                parts.push(p);
            }
        };
        if let Some(words) = self.words(s) {
            for w in words {
                add(one_of(&[w]));
            }
            return;
        }
        if let Some(branches) = self.branches(s) {
            for b in branches {
                self.expected_parts(b, parts);
            }
            return;
        }
        let types: Vec<&str> = match s.get("type") {
            Some(Schema::String(t)) => vec![t.as_str()],
            Some(Schema::Array(ts)) => ts.iter().filter_map(Schema::as_str).collect(),
            _ => vec![],
        };
        for t in types {
            add(match t {
                "integer" => "a whole number".to_string(),
                "number" => "a number".into(),
                "string" => "a string".into(),
                "boolean" => "`true` or `false`".into(),
                "array" => "a list".into(),
                "object" => {
                    let required: Vec<String> = s
                        .get("required")
                        .and_then(Schema::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(Schema::as_str)
                                .map(|k| format!("{k} = ..."))
                                .collect()
                        })
                        .unwrap_or_default();
                    if required.is_empty() {
                        "a table".into()
                    } else {
                        format!("a table `{{ {} }}`", required.join(", "))
                    }
                }
                _ => String::new(),
            });
        }
    }

    /// Checks `v` (at `path`) against `s`, adding every problem to `out`.
    fn check<'i>(
        &self,
        v: &Spanned<DeValue<'i>>,
        s: &'s Schema,
        path: &mut Vec<Step>,
        out: &mut Vec<Issue<'i>>,
    ) {
        let s = self.resolve(s);
        let value = v.get_ref();
        if let Some(all) = s.get("allOf").and_then(Schema::as_array) {
            for one in all {
                self.check(v, one, path, out);
            }
            return;
        }
        if let Some(words) = self.words(s) {
            if !words.iter().any(|w| same(value, w)) {
                out.push(self.unknown_word(v, s, &words, path));
            }
            return;
        }
        if let Some(branches) = self.branches(s) {
            let k = kind(value);
            let candidates: Vec<&Schema> = branches
                .iter()
                .filter(|b| self.kinds(b).contains(&k))
                .collect();
            if candidates.is_empty() {
                out.push(self.wrong_type(v, s, path));
                return;
            }
            let mut best: Option<Vec<Issue>> = None;
            for c in candidates {
                let mut issues = Vec::new();
                self.check(v, c, path, &mut issues);
                if issues.is_empty() {
                    return;
                }
                if best.as_ref().is_none_or(|b| issues.len() < b.len()) {
                    best = Some(issues);
                }
            }
            out.extend(best.unwrap_or_default());
            return;
        }
        if !self.kinds(s).contains(&kind(value)) {
            out.push(self.wrong_type(v, s, path));
            return;
        }
        match value {
            DeValue::Integer(i) => self.range(v, i.as_str(), i.radix(), s, path, out),
            DeValue::Array(items) => {
                if let Some(item) = s.get("items") {
                    for (i, x) in items.iter().enumerate() {
                        path.push(Step::Index(i));
                        self.check(x, item, path, out);
                        path.pop();
                    }
                }
            }
            DeValue::Table(t) => self.table(v, t, s, path, out),
            _ => {}
        }
    }

    fn table<'i>(
        &self,
        v: &Spanned<DeValue<'i>>,
        t: &DeTable<'i>,
        s: &'s Schema,
        path: &mut Vec<Step>,
        out: &mut Vec<Issue<'i>>,
    ) {
        let empty = serde_json::Map::new();
        let properties = s
            .get("properties")
            .and_then(Schema::as_object)
            .unwrap_or(&empty);
        let additional = s.get("additionalProperties");
        let table = table_name(path, self.tree);
        let mut suggested = Vec::new();
        for (k, x) in t.iter() {
            let key = k.get_ref().to_string();
            path.push(Step::Key(key.clone()));
            if let Some(p) = properties.get(&key) {
                self.check(x, p, path, out);
            } else {
                match additional {
                    Some(Schema::Bool(false)) => {
                        let message = if path.len() == 1 {
                            format!("a ruleset has no key `{key}` at the top level")
                        } else {
                            format!("{table} has no key `{key}`")
                        };
                        let d = Diagnostic::new(Code::UnknownKey, message)
                            .at(k.span())
                            .label("unknown key");
                        let absent: Vec<&str> = properties
                            .keys()
                            .map(String::as_str)
                            .filter(|p| !t.iter().any(|(k, _)| k.get_ref() == *p))
                            .collect();
                        let d = match did_you_mean(&key, absent.iter().copied()) {
                            Some(s) => {
                                let d = d.hint(format!("did you mean `{s}`?"));
                                suggested.push(s);
                                d
                            }
                            None => d.hint(format!(
                                "the keys of {} are {}",
                                if path.len() == 1 {
                                    "the top level"
                                } else {
                                    &table
                                },
                                properties
                                    .keys()
                                    .map(|k| format!("`{k}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )),
                        };
                        out.push(Issue::new(d, Fix::Remove(path.clone())));
                    }
                    Some(schema @ Schema::Object(_)) => self.check(x, schema, path, out),
                    _ => {}
                }
            }
            path.pop();
        }
        let required = s.get("required").and_then(Schema::as_array);
        for r in required.into_iter().flatten().filter_map(Schema::as_str) {
            if t.iter().any(|(k, _)| k.get_ref() == r) {
                continue;
            }
            let Some(schema) = properties.get(r) else {
                continue;
            };
            path.push(Step::Key(r.to_string()));
            let fix = match self.stand_in(schema) {
                Some(x) => Fix::Insert(path.clone(), x),
                None => Fix::Nothing,
            };
            path.pop();
            // "Did you mean `r`?" on an unknown key said it already.
            let diagnostic = (!suggested.iter().any(|s| s == r))
                .then(|| self.missing(v, r, schema, path, &table));
            out.push(Issue {
                diagnostic,
                fix,
                missing: true,
            });
        }
    }

    fn missing(
        &self,
        v: &Spanned<DeValue<'_>>,
        key: &str,
        schema: &'s Schema,
        path: &[Step],
        table: &str,
    ) -> Diagnostic {
        let is_table = self.kinds(schema) == [Kind::Table];
        let add = self.template(key, schema);
        if path.is_empty() {
            let what = if is_table {
                format!("the ruleset has no [{key}] table, which is required")
            } else {
                format!("the ruleset has no `{key}`, which is required")
            };
            return Diagnostic::new(Code::MissingKey, what).hint(format!("add {add}"));
        }
        let d = Diagnostic::new(
            Code::MissingKey,
            format!("{table} has no `{key}`, which is required"),
        )
        .label(format!("`{key}` is missing here"))
        .hint(format!("add {add}"));
        d.near(self.header(v))
    }

    /// The place of a table for "missing" messages: the first line of its header or of the
    /// inline table.
    fn header(&self, v: &Spanned<DeValue<'_>>) -> Option<Range<usize>> {
        let s = v.span();
        let text = self.source.get(s.clone())?;
        let end = text.find('\n').map_or(s.end, |i| s.start + i);
        (s.start < end).then_some(s.start..end)
    }

    /// How a missing key is written, from its schema: `` `holes = ...` `` or `[end]` with its
    /// required keys.
    fn template(&self, key: &str, s: &'s Schema) -> String {
        let r = self.resolve(s);
        let required: Vec<&str> = r
            .get("required")
            .and_then(Schema::as_array)
            .map(|a| a.iter().filter_map(Schema::as_str).collect())
            .unwrap_or_default();
        if self.kinds(s) == [Kind::Table] {
            if required.is_empty() {
                format!("a table `[{key}]`")
            } else {
                format!(
                    "a table `[{key}]` with {}",
                    required
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        } else {
            format!("`{key} = ...` ({})", self.expected(s))
        }
    }

    /// The word whose documentation starts with what was written: `"counterclockwise"` for
    /// the variant documented "Counter-clockwise: ...".
    fn described(&self, s: &'s Schema, written: &str) -> Option<String> {
        let squash = |t: &str| -> String {
            t.chars()
                .filter(char::is_ascii_alphanumeric)
                .flat_map(char::to_lowercase)
                .collect()
        };
        let written = squash(written);
        if written.len() < 3 {
            return None;
        }
        let s = self.resolve(s);
        if let Some(values) = s.get("enum").and_then(Schema::as_array)
            && let (Some(doc), [Schema::String(word)]) = (
                s.get("description").and_then(Schema::as_str),
                values.as_slice(),
            )
        {
            let head = doc.split([':', '.', ',']).next().unwrap_or("");
            return (squash(head) == written).then(|| word.clone());
        }
        self.branches(s)?
            .iter()
            .find_map(|b| self.described(b, &written))
    }

    fn unknown_word<'i>(
        &self,
        v: &Spanned<DeValue<'i>>,
        schema: &'s Schema,
        words: &[&Schema],
        path: &[Step],
    ) -> Issue<'i> {
        let (key, table) = place(path, self.tree);
        let value = v.get_ref();
        let shown = match value {
            DeValue::String(s) => format!("\"{}\"", short(s)),
            other => found(other),
        };
        let d = Diagnostic::new(
            Code::UnknownValue,
            format!("{key} in {table} is {}, not {shown}", one_of(words)),
        )
        .at(v.span())
        .label("not one of the words this key takes");
        let texts: Vec<&str> = words.iter().filter_map(|w| w.as_str()).collect();
        let near = value.as_str().and_then(|s| {
            did_you_mean(s, texts.iter().copied()).or_else(|| self.described(schema, s))
        });
        // The stand-in is the word probably meant, so that what follows is checked as meant.
        let (meant, at) = match &near {
            Some(word) => (Some(Schema::String(word.clone())), v.span()),
            None => (words.first().map(|w| (*w).clone()), self.stand_in.clone()),
        };
        let d = match near {
            Some(s) => d.hint(format!("did you mean \"{s}\"?")),
            None => d,
        };
        let stand_in = meant.and_then(|w| json_stand_in(&w, &at));
        Issue::new(d, self.fix_for(path, stand_in))
    }

    fn wrong_type<'i>(&self, v: &Spanned<DeValue<'i>>, s: &'s Schema, path: &[Step]) -> Issue<'i> {
        let (key, table) = place(path, self.tree);
        let value = v.get_ref();
        let expected = self.expected(s);
        let mut d = Diagnostic::new(
            Code::WrongType,
            format!("{key} in {table} must be {expected}, not {}", found(value)),
        )
        .at(v.span())
        .label("wrong type");
        let kinds = self.kinds(s);
        if let (true, Some(text)) = (kinds.contains(&Kind::Integer), value.as_str())
            && text.trim().parse::<i64>().is_ok()
        {
            d = d.hint(format!(
                "write the number without quotes: `{}`",
                text.trim()
            ));
        } else if let (true, Some(text)) = (kinds.contains(&Kind::String), number_text(value)) {
            d = d.hint(format!("write it in quotes: `\"{text}\"`"));
        }
        // One value where a list of such values is wanted: the stand-in is that list.
        let listed = self.list_items(s).and_then(|item| {
            let mut probe = Vec::new();
            self.check(v, item, &mut path.to_vec(), &mut probe);
            probe.is_empty().then(|| {
                let mut list = DeArray::new();
                list.push(v.clone());
                Spanned::new(v.span(), DeValue::Array(list))
            })
        });
        if listed.is_some() {
            d = d.hint(format!(
                "write it as a list: `[{}]`",
                self.source.get(v.span()).unwrap_or("...")
            ));
        }
        Issue::new(d, self.fix_for(path, listed.or_else(|| self.stand_in(s))))
    }

    /// The schema of a list's items, when `s` is a list.
    fn list_items(&self, s: &'s Schema) -> Option<&'s Schema> {
        let s = self.resolve(s);
        match s.get("type") {
            Some(Schema::String(t)) if t == "array" => s.get("items"),
            _ => None,
        }
    }

    /// A wrong value is replaced by a stand-in where there is one, so that a required key
    /// stays present; otherwise taken out.
    fn fix_for<'i>(&self, path: &[Step], stand_in: Option<Spanned<DeValue<'i>>>) -> Fix<'i> {
        match (path.last(), stand_in) {
            (Some(_), Some(x)) => Fix::Insert(path.to_vec(), x),
            (Some(Step::Key(_)), None) => Fix::Remove(path.to_vec()),
            _ => Fix::Nothing,
        }
    }

    fn range<'i>(
        &self,
        v: &Spanned<DeValue<'i>>,
        text: &str,
        radix: u32,
        s: &'s Schema,
        path: &[Step],
        out: &mut Vec<Issue<'i>>,
    ) {
        let n = i128::from_str_radix(&text.replace('_', ""), radix).unwrap_or(i128::MAX);
        let low = s
            .get("minimum")
            .and_then(Schema::as_f64)
            .map(|m| m.ceil() as i128);
        let mut high = s
            .get("maximum")
            .and_then(Schema::as_f64)
            .map(|m| m.floor() as i128);
        let format_high = match s.get("format").and_then(Schema::as_str) {
            Some("uint8") => Some(i128::from(u8::MAX)),
            Some("uint16") => Some(i128::from(u16::MAX)),
            Some("uint32") => Some(i128::from(u32::MAX)),
            Some("uint64" | "uint") => Some(i128::from(u64::MAX)),
            Some("int8") => Some(i128::from(i8::MAX)),
            Some("int16") => Some(i128::from(i16::MAX)),
            Some("int32") => Some(i128::from(i32::MAX)),
            _ => None,
        };
        high = match (high, format_high) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let (key, table) = place(path, self.tree);
        let message = match (low, high) {
            (Some(0), _) if n < 0 => format!("{key} in {table} cannot be negative (found {n})"),
            (Some(l), _) if n < l => format!("{key} in {table} must be at least {l} (found {n})"),
            (_, Some(h)) if n > h => {
                format!("{key} in {table} must be at most {h} (found {text})")
            }
            _ => return,
        };
        let d = Diagnostic::new(Code::OutOfRange, message)
            .at(v.span())
            .label("out of range");
        out.push(Issue::new(d, self.fix_for(path, self.stand_in(s))));
    }

    /// A value the schema accepts, placed past the end of the text.
    fn stand_in(&self, s: &'s Schema) -> Option<Spanned<DeValue<'static>>> {
        let s = self.resolve(s);
        let at = self.stand_in.clone();
        if let Some(words) = self.words(s) {
            return words.first().and_then(|w| json_stand_in(w, &at));
        }
        if let Some(branches) = self.branches(s) {
            return branches.iter().find_map(|b| self.stand_in(b));
        }
        let kinds = self.kinds(s);
        let value = match kinds.first()? {
            Kind::Table => {
                let mut t = DeTable::new();
                let properties = s.get("properties");
                for r in s
                    .get("required")
                    .and_then(Schema::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Schema::as_str)
                {
                    let x = self.stand_in(properties.and_then(|p| p.get(r))?)?;
                    t.insert(Spanned::new(at.clone(), r.to_string().into()), x);
                }
                DeValue::Table(t)
            }
            Kind::Array => DeValue::Array(DeArray::new()),
            Kind::String => DeValue::String(String::new().into()),
            // Zero, whatever the range: what the checker says of a stand-in is dropped.
            Kind::Integer => DeValue::Integer(Default::default()),
            Kind::Float => return None,
            Kind::Boolean => DeValue::Boolean(false),
            Kind::Datetime => return None,
        };
        Some(Spanned::new(at, value))
    }
}

fn json_stand_in(w: &Schema, at: &Range<usize>) -> Option<Spanned<DeValue<'static>>> {
    Some(Spanned::new(
        at.clone(),
        match w {
            Schema::String(s) => DeValue::String(s.clone().into()),
            Schema::Bool(b) => DeValue::Boolean(*b),
            Schema::Number(_) => DeValue::Integer(Default::default()),
            _ => return None,
        },
    ))
}

fn json_kind(w: &Schema) -> Option<Kind> {
    Some(match w {
        Schema::String(_) => Kind::String,
        Schema::Bool(_) => Kind::Boolean,
        Schema::Number(n) if n.is_i64() || n.is_u64() => Kind::Integer,
        Schema::Number(_) => Kind::Float,
        _ => return None,
    })
}

fn type_kinds(t: &str) -> Vec<Kind> {
    match t {
        "object" => vec![Kind::Table],
        "array" => vec![Kind::Array],
        "string" => vec![Kind::String],
        "integer" => vec![Kind::Integer],
        "number" => vec![Kind::Integer, Kind::Float],
        "boolean" => vec![Kind::Boolean],
        _ => vec![],
    }
}

fn number_text(v: &DeValue<'_>) -> Option<String> {
    match v {
        DeValue::Integer(i) => Some(i.as_str().to_string()),
        DeValue::Float(f) => Some(f.as_str().to_string()),
        _ => None,
    }
}

/// Whether a TOML value equals a JSON word of an enumeration.
fn same(v: &DeValue<'_>, w: &Schema) -> bool {
    match (v, w) {
        (DeValue::String(s), Schema::String(w)) => s.as_ref() == w,
        (DeValue::Boolean(b), Schema::Bool(w)) => b == w,
        (DeValue::Integer(i), Schema::Number(n)) => {
            i64::from_str_radix(i.as_str(), i.radix()).ok() == n.as_i64()
        }
        _ => false,
    }
}

/// `"ccw" or "cw"`, `one of "a", "b" or "c"`.
fn one_of(words: &[&Schema]) -> String {
    let shown: Vec<String> = words
        .iter()
        .map(|w| match w {
            Schema::String(s) => format!("\"{s}\""),
            other => other.to_string(),
        })
        .collect();
    match shown.len() {
        0 => "nothing".into(),
        1 => shown.concat(),
        2 => shown.join(" or "),
        _ => format!("one of {}", or_list(&shown)),
    }
}

fn or_list(parts: &[String]) -> String {
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

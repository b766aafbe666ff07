//! The rulesets shipped with sow, embedded in the binary so that a name works from anywhere,
//! the documented rules of their games (`docs/rules/NAME.md`), which `sow explain` quotes, and
//! how a name given by the user is resolved.
//!
//! A shipped name always means the shipped ruleset, wherever sow runs: a file or folder of
//! the same name in the current folder does not hide it (write `./kalah` for such a file).
//! Anything else is a path. Reading the file is the caller's business.
//!
//! No `unwrap`, `expect` or indexing that could panic.

use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// The text of a shipped ruleset.
pub fn shipped(name: &str) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The documented rules of a shipped ruleset's game, as `(file, text)`.
pub fn rules_doc(name: &str) -> Option<(String, &'static str)> {
    RULES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, text)| (format!("docs/rules/{n}.md"), *text))
}

/// The documented rules for a ruleset's text: those of the shipped ruleset it is, whether it was
/// named or read from a file; none for any other text (a file changed since is not the game the
/// rules file describes).
pub fn rules_doc_for(text: &str) -> Option<(String, &'static str)> {
    SHIPPED
        .iter()
        .find(|(_, t)| *t == text)
        .and_then(|(name, _)| rules_doc(name))
}

/// Where a ruleset named by the user is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A shipped ruleset: its name and text.
    Shipped(&'static str, &'static str),
    /// A file.
    File(PathBuf),
}

/// A resolved name, with a note when the name could have meant something else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub source: Source,
    /// Set when a shipped name is also the name of a file here, which is not read.
    pub note: Option<String>,
}

/// Resolves a shipped name or a path (relative paths from `dir`).
pub fn resolve_in(dir: &Path, name_or_path: &str) -> Result<Resolved, String> {
    if let Some((name, text)) = SHIPPED.iter().find(|(n, _)| *n == name_or_path) {
        let here = dir.join(name_or_path);
        let note = here.is_file().then(|| {
            format!(
                "`{name_or_path}` is the shipped ruleset; the file {} is not read (write ./{name_or_path} to read it)",
                here.display()
            )
        });
        return Ok(Resolved {
            source: Source::Shipped(name, text),
            note,
        });
    }
    let path = dir.join(name_or_path);
    if path.exists() {
        return Ok(Resolved {
            source: Source::File(path),
            note: None,
        });
    }
    let names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
    let hint = crate::diagnostic::did_you_mean(name_or_path, names.iter().copied())
        .map(|s| format!("; did you mean `{s}`?"))
        .unwrap_or_default();
    Err(format!(
        "no file `{}` and no shipped ruleset of that name{hint} (shipped: {})",
        path.display(),
        names.join(", ")
    ))
}

/// Resolves a shipped name or a path from the current folder.
pub fn resolve(name_or_path: &str) -> Result<Resolved, String> {
    resolve_in(Path::new(""), name_or_path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_or_file_named_like_a_shipped_ruleset_does_not_hide_it() {
        let Some((name, _)) = SHIPPED.first() else {
            return;
        };
        let dir = std::env::temp_dir().join(format!("sow-catalog-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(name)).expect("a folder named like a shipped ruleset");
        let found = resolve_in(&dir, name).expect("resolves");
        assert!(matches!(found.source, Source::Shipped(n, _) if n == *name));
        assert_eq!(
            found.note, None,
            "a folder is never a ruleset: nothing to say"
        );

        let other = dir.join("other");
        std::fs::create_dir_all(&other).expect("folder");
        std::fs::write(other.join(name), "not read").expect("file");
        let found = resolve_in(&other, name).expect("resolves");
        assert!(matches!(found.source, Source::Shipped(..)));
        assert!(found.note.is_some_and(|n| n.contains(&format!("./{name}"))));
        let explicit = resolve_in(&other, &format!("./{name}")).expect("resolves");
        assert_eq!(
            explicit.source,
            Source::File(other.join(format!("./{name}")))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

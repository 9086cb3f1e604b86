//! Fairy-Stockfish's variant format (`variants.ini`, issue #56): `[name:parent]` sections of
//! `key = value` lines, read into the project's own TOML definition ([`read`]) so that an
//! `.ini` variant compiles to the same kernel as a TOML one, and written from a
//! [`VariantSpec`](crate::rules::VariantSpec) ([`write`]) so that Fairy-Stockfish can play a
//! variant of ours.
//!
//! A section inherits its parent's keys (an earlier section of the same file, or one of
//! Fairy-Stockfish's built-in variants in [`CATALOGUE`]); a section without a parent starts
//! from Fairy-Stockfish's defaults, which are chess. Every key is either translated, accepted
//! at its default value only, or refused with the file, line, section and key: nothing is
//! ignored. The keys, their defaults and what is refused: `docs/variant-files.md`.

use super::VariantFileError;

mod read;
mod write;

pub use read::{translate, Translated};
pub use write::export;

/// Fairy-Stockfish's built-in variants that the engine can play, as `variants.ini` sections
/// written from their published definitions: the parents a file's section may name besides
/// its own earlier sections.
pub const CATALOGUE: &str = include_str!("../../../../../data/variants/fairy-stockfish.ini");

/// Where the catalogue's keys are reported from.
pub const CATALOGUE_ORIGIN: &str = "data/variants/fairy-stockfish.ini";

/// One `key = value` line.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) key: String,
    pub(crate) value: String,
    /// Where it was written: file, 1-based line, section.
    pub(crate) at: At,
}

/// Where a key or a section was written.
#[derive(Clone, Debug)]
pub(crate) struct At {
    pub(crate) file: String,
    pub(crate) line: usize,
    pub(crate) section: String,
}

/// A `[name]` or `[name:parent]` section.
#[derive(Clone, Debug)]
pub(crate) struct Section {
    pub(crate) name: String,
    pub(crate) parent: Option<String>,
    pub(crate) at: At,
    pub(crate) entries: Vec<Entry>,
    /// The first malformed or doubled line: an error when this section is read, not when
    /// another one of the file is.
    pub(crate) problem: Option<VariantFileError>,
}

/// Splits an `.ini` text into its sections. Lines before the first section, blank lines and
/// lines starting with `#` or `;` are comments; any other line must be `key = value`.
///
/// A line that is neither, or a key written twice in one section (Fairy-Stockfish keeps the
/// last; a doubled key is more likely a mistake), is the section's [`Section::problem`].
///
/// # Errors
/// A section header without its `]`, or a section defined twice.
pub(crate) fn sections(origin: &str, text: &str) -> Result<Vec<Section>, VariantFileError> {
    let mut out: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let s = raw.trim();
        let err = |field: &str, message: String| VariantFileError {
            file: origin.to_string(),
            line: Some(line),
            field: field.to_string(),
            message,
        };
        if s.starts_with('[') {
            let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
                return Err(err(
                    "",
                    format!("section header {s:?} is not `[name]` or `[name:parent]`"),
                ));
            };
            let (name, parent) = match inner.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim().to_string())),
                None => (inner.trim(), None),
            };
            if name.is_empty() || parent.as_deref() == Some("") {
                return Err(err("", format!("section header {s:?} names no variant")));
            }
            if let Some(prev) = out.iter().find(|x| x.name == name) {
                return Err(err(
                    "",
                    format!(
                        "section [{name}] is defined twice (also at line {})",
                        prev.at.line
                    ),
                ));
            }
            out.push(Section {
                name: name.to_string(),
                parent,
                at: At {
                    file: origin.to_string(),
                    line,
                    section: name.to_string(),
                },
                entries: Vec::new(),
                problem: None,
            });
            continue;
        }
        if s.is_empty() || s.starts_with('#') || s.starts_with(';') {
            continue;
        }
        let Some(sec) = out.last_mut() else {
            // Fairy-Stockfish skips everything before the first section.
            continue;
        };
        let Some((k, v)) = s.split_once('=') else {
            sec.problem.get_or_insert(VariantFileError {
                file: origin.to_string(),
                line: Some(line),
                field: format!("[{}]", sec.name),
                message: format!("{s:?} is not `key = value`"),
            });
            continue;
        };
        let (key, value) = (k.trim().to_string(), v.trim().to_string());
        if let Some(prev) = sec.entries.iter().find(|e| e.key == key) {
            sec.problem.get_or_insert(VariantFileError {
                file: origin.to_string(),
                line: Some(line),
                field: format!("[{}] {key}", sec.name),
                message: format!(
                    "written twice in the section (also at line {})",
                    prev.at.line
                ),
            });
            continue;
        }
        let at = At {
            file: origin.to_string(),
            line,
            section: sec.name.clone(),
        };
        sec.entries.push(Entry { key, value, at });
    }
    Ok(out)
}

/// A section with its ancestors.
pub(crate) struct Resolved {
    /// The keys in force, each where it was last written.
    pub(crate) entries: Vec<Entry>,
    /// The section's header.
    pub(crate) at: At,
    /// The sections, root first.
    pub(crate) chain: Vec<Section>,
}

/// The keys in force for `name`: its ancestors' first, each overridden by its children's
/// (Fairy-Stockfish applies a section's keys to a copy of its parent). A parent is an earlier
/// section of `file`, or else one of [`CATALOGUE`].
///
/// # Errors
/// No such section, an unknown parent, a parent defined after its child.
pub(crate) fn resolve(
    file: &[Section],
    catalogue: &[Section],
    origin: &str,
    name: &str,
) -> Result<Resolved, VariantFileError> {
    let Some(idx) = file.iter().position(|s| s.name == name) else {
        let names: Vec<&str> = file.iter().map(|s| s.name.as_str()).collect();
        return Err(VariantFileError {
            file: origin.to_string(),
            line: None,
            field: "--variant".into(),
            message: format!(
                "no section [{name}] in the file; its sections: {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        });
    };
    // The chain from the section up to its root.
    let mut chain: Vec<&Section> = vec![&file[idx]];
    let mut limit = idx;
    let mut in_file = true;
    while let Some(parent) = chain.last().and_then(|s| s.parent.clone()) {
        let child = *chain.last().expect("non-empty");
        let found = if in_file {
            file[..limit].iter().position(|s| s.name == parent)
        } else {
            None
        };
        let next = match found {
            Some(j) => {
                limit = j;
                &file[j]
            }
            None => {
                if in_file && file[limit..].iter().any(|s| s.name == parent) {
                    return Err(VariantFileError {
                        file: child.at.file.clone(),
                        line: Some(child.at.line),
                        field: format!("[{}:{parent}]", child.name),
                        message: format!(
                            "parent [{parent}] is defined after its child; define it first"
                        ),
                    });
                }
                let cat_limit = if in_file {
                    catalogue.len()
                } else {
                    catalogue
                        .iter()
                        .position(|s| s.name == child.name)
                        .unwrap_or(0)
                };
                in_file = false;
                match catalogue[..cat_limit].iter().find(|s| s.name == parent) {
                    Some(s) => s,
                    None => {
                        let known: Vec<&str> = catalogue.iter().map(|s| s.name.as_str()).collect();
                        return Err(VariantFileError {
                            file: child.at.file.clone(),
                            line: Some(child.at.line),
                            field: format!("[{}:{parent}]", child.name),
                            message: format!(
                                "unknown parent {parent:?}: not an earlier section of the file, \
                                 nor one of Fairy-Stockfish's built-in variants the engine can \
                                 play ({})",
                                known.join(", ")
                            ),
                        });
                    }
                }
            }
        };
        chain.push(next);
    }
    if let Some(p) = chain.iter().rev().find_map(|s| s.problem.clone()) {
        return Err(p);
    }
    let mut merged: Vec<Entry> = Vec::new();
    for s in chain.iter().rev() {
        for e in &s.entries {
            match merged.iter_mut().find(|m| m.key == e.key) {
                Some(m) => *m = e.clone(),
                None => merged.push(e.clone()),
            }
        }
    }
    Ok(Resolved {
        entries: merged,
        at: file[idx].at.clone(),
        chain: chain.into_iter().rev().cloned().collect(),
    })
}

/// Whether a variant file's path is Fairy-Stockfish's format (by its extension).
pub fn is_ini(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ini"))
}

/// The names of an `.ini` text's sections, in order.
///
/// # Errors
/// Those of a malformed line.
pub fn section_names(origin: &str, text: &str) -> Result<Vec<String>, VariantFileError> {
    Ok(sections(origin, text)?
        .into_iter()
        .map(|s| s.name)
        .collect())
}

/// Reads section `name` of the `.ini` file at `path`, translates it ([`translate`]) and
/// loads the translation as the process's variant file ([`super::load_text`]): the stored
/// text (`run.json`) is the TOML translation.
///
/// # Errors
/// The file cannot be read, or those of [`translate`] and [`super::load_text`], told at the
/// `.ini` key they come from.
pub fn load_ini(
    path: &std::path::Path,
    name: &str,
) -> Result<&'static super::LoadedVariant, VariantFileError> {
    let origin = path.display().to_string();
    let text = crate::textfile::read_text_file(path, super::MAX_FILE_BYTES).map_err(|e| {
        VariantFileError {
            file: origin.clone(),
            line: None,
            field: String::new(),
            message: e.to_string(),
        }
    })?;
    load_ini_text(&origin, &text, name)
}

/// [`load_ini`] of a text.
///
/// # Errors
/// Those of [`load_ini`].
pub fn load_ini_text(
    origin: &str,
    text: &str,
    name: &str,
) -> Result<&'static super::LoadedVariant, VariantFileError> {
    let t = translate(origin, text, name)?;
    super::load_text(origin, &t.toml).map_err(|e| t.remap(e))
}

/// [`super::parse`] of section `name`: the checked definition without registering it.
///
/// # Errors
/// Those of [`load_ini`].
pub fn parse_ini(
    origin: &str,
    text: &str,
    name: &str,
) -> Result<super::ParsedVariant, VariantFileError> {
    let t = translate(origin, text, name)?;
    super::parse(origin, &t.toml).map_err(|e| t.remap(e))
}

/// [`export`] of a built-in chess-family variant or the loaded variant file's.
///
/// # Errors
/// A variant that is not described as a chess-family [`VariantSpec`](crate::rules::VariantSpec),
/// or a rule the format cannot express.
pub fn export_kind(kind: crate::VariantKind) -> Result<String, String> {
    use crate::position::Variant;
    use crate::VariantKind as K;
    let spec = match kind {
        K::Chess => &crate::variants::Chess::rules().spec,
        K::Dream46 => &crate::variants::Dream46::rules().spec,
        K::File64(_) | K::File128(_) => {
            super::spec_of(kind).expect("a file variant's kind is handed out by its load")
        }
        other => {
            return Err(format!(
                "{} is not a chess-family variant (its rules are code, not a description)",
                other.name()
            ))
        }
    };
    export(spec)
}

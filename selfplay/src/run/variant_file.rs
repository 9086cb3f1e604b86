//! A variant file's definition in a run's settings (`run.json`, `sprt_config.json`): the
//! file's whole text and its hash, so a run of a file-defined variant is reproducible and
//! resumable without the file, and `merge` refuses shards of different definitions (the
//! definition is part of [`RunConfig::identity`](crate::run::format::RunConfig::identity)).
//!
//! The settings carry the variant as its [`VariantKind`], parsed once where it enters (the
//! command line, or a settings file through [`by_name`]); a file variant's kind resolves
//! once its stored definition is loaded ([`load_stored`]).

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;
use variantlab_engine::variants::file;
use variantlab_engine::VariantKind;

/// Serde of a [`VariantKind`] written as its command-line name: `#[serde(with = ...)]`.
pub mod by_name {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use variantlab_engine::VariantKind;

    /// Writes the name.
    pub fn serialize<S: Serializer>(kind: &VariantKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.name())
    }

    /// Reads a name: a built-in's, or the loaded variant file's.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<VariantKind, D::Error> {
        let name = String::deserialize(d)?;
        VariantKind::from_name(&name).map_err(D::Error::custom)
    }
}

/// The variant of a settings file (`run.json`, `sprt_config.json`) and its stored
/// definition, read before the whole file so the definition can be loaded first.
#[derive(Deserialize)]
struct Stored {
    variant: String,
    #[serde(default)]
    variant_file: Option<VariantDefinition>,
}

/// Loads the variant definition stored in the settings file at `path` ([`ensure`]), so its
/// variant's name resolves when the file is then read whole. A file that does not hold the
/// two fields is left to that whole read to report.
///
/// # Errors
/// Those of [`ensure`].
pub fn load_stored(path: &Path) -> Result<()> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(());
    };
    match serde_json::from_str::<Stored>(&text) {
        Ok(s) => ensure(&s.variant, s.variant_file.as_ref(), path),
        Err(_) => Ok(()),
    }
}

/// A variant file as stored with a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantDefinition {
    /// The variant's name (the file's `name`).
    pub name: String,
    /// FNV-1a 64 of `text`, in hex ([`file::text_hash`]).
    pub hash: String,
    /// The file's text.
    pub text: String,
}

/// The definition to store with a run of `variant`: its loaded file's, when `variant` is
/// a file variant; `None` for a built-in variant.
pub fn definition_for(variant: VariantKind) -> Option<VariantDefinition> {
    file::loaded_kind(variant).map(|l| VariantDefinition {
        name: l.name.to_string(),
        hash: l.hash.clone(),
        text: l.text.clone(),
    })
}

/// Makes the stored definition of a run's variant the loaded one (so the variant's name
/// resolves), checking that the text still has its recorded hash.
///
/// # Errors
/// A hand-edited definition, a definition that no longer loads, or a different definition
/// of the same variant name loaded already (`--variant-file` with an edited file).
pub fn ensure(variant: &str, def: Option<&VariantDefinition>, settings: &Path) -> Result<()> {
    let Some(def) = def else {
        return Ok(());
    };
    if file::text_hash(&def.text) != def.hash {
        bail!(
            "{}: the stored variant definition does not match its hash {} (edited by hand?)",
            settings.display(),
            def.hash
        );
    }
    let loaded = file::load_text(&settings.display().to_string(), &def.text)?;
    if loaded.name != variant || def.name != variant {
        bail!(
            "{}: variant {variant:?} but the stored definition is of {:?}",
            settings.display(),
            loaded.name
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};
    use variantlab_engine::VariantKind;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Settings {
        #[serde(with = "super::by_name")]
        variant: VariantKind,
    }

    /// A variant is written as its name and read back as the same kind; a name no variant
    /// has is an error that says so, where the settings are read.
    #[test]
    fn a_variant_is_written_by_name_and_parsed_once_read() {
        for kind in VariantKind::ALL {
            let text = serde_json::to_string(&Settings { variant: kind }).unwrap();
            assert_eq!(text, format!("{{\"variant\":\"{}\"}}", kind.name()));
            let back: Settings = serde_json::from_str(&text).unwrap();
            assert_eq!(back.variant, kind);
        }
        let e = serde_json::from_str::<Settings>(r#"{"variant":"xiangqi"}"#).unwrap_err();
        assert!(e.to_string().contains("unknown variant \"xiangqi\""), "{e}");
    }
}

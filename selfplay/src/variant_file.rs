//! A variant file's definition in a run's settings (`run.json`, `sprt_config.json`): the
//! file's whole text and its hash, so a run of a file-defined variant is reproducible and
//! resumable without the file, and `merge` refuses shards of different definitions (the
//! definition is part of [`RunConfig::identity`](crate::tournament::RunConfig::identity)).

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;
use variantlab_engine::variants::file;

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

/// The definition to store with a run of `variant`: the loaded file's, when `variant` is
/// its name; `None` for a built-in variant.
pub fn definition_for(variant: &str) -> Option<VariantDefinition> {
    file::loaded()
        .filter(|l| l.name == variant)
        .map(|l| VariantDefinition {
            name: l.name.to_string(),
            hash: l.hash.clone(),
            text: l.text.clone(),
        })
}

/// Makes the stored definition of a run's variant the loaded one (so the variant's name
/// resolves), checking that the text still has its recorded hash.
///
/// # Errors
/// A hand-edited definition, a definition that no longer loads, or a different variant file
/// loaded already (`--variant-file` with another file).
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

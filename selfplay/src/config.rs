//! Engine configurations: named sets of engine parameters, read from small JSON files, so two
//! versions of the engine can be compared without rebuilding.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use variantlab_engine::search::{Limits, SearchConfig};

/// One player's settings. Every field is optional in the file; missing ones take the run's
/// defaults (the command line's `--nodes`/`--depth`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    /// Name written in the CSVs.
    #[serde(default)]
    pub name: String,
    /// Nodes per move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Piece values by name (centipawns); others keep the variant's defaults.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, i32>,
    /// Whether the positional evaluation terms are on (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positional: Option<bool>,
    /// Transposition table MiB (default 2: enough for a few thousand nodes per move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash_mib: Option<usize>,
    /// Root randomisation in centipawns (default 10, so the two games of a pair between
    /// equal engines differ; seeded per game, so still reproducible).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub randomize: Option<i32>,
}

impl EngineConfig {
    /// The built-in configuration.
    pub fn default_named() -> EngineConfig {
        EngineConfig {
            name: "default".into(),
            ..EngineConfig::default()
        }
    }

    /// `default`, or a JSON file.
    ///
    /// # Errors
    /// An unreadable file, bad JSON (with line and column), or unknown fields.
    pub fn load(spec: &str) -> Result<EngineConfig> {
        if spec == "default" {
            return Ok(EngineConfig::default_named());
        }
        let text = std::fs::read_to_string(spec)
            .with_context(|| format!("reading engine configuration {spec}"))?;
        let mut c: EngineConfig =
            serde_json::from_str(&text).with_context(|| format!("engine configuration {spec}"))?;
        if c.name.is_empty() {
            c.name = std::path::Path::new(spec)
                .file_stem()
                .map_or_else(|| spec.to_string(), |s| s.to_string_lossy().into_owned());
        }
        Ok(c)
    }

    /// The search limits, falling back to the run's.
    pub fn limits(&self, default: Limits) -> Limits {
        match (self.nodes, self.depth) {
            (Some(n), _) => Limits::nodes(n),
            (None, Some(d)) => Limits::depth(d),
            _ => default,
        }
    }

    /// The search configuration for a variant whose material kinds are `kinds`.
    ///
    /// # Errors
    /// A piece value naming no material kind of the variant.
    pub fn search_config(&self, kinds: &[(&'static str, i32)], seed: u64) -> Result<SearchConfig> {
        let mut values: Vec<i32> = kinds.iter().map(|k| k.1).collect();
        for (name, &v) in &self.values {
            let Some(i) = kinds.iter().position(|k| k.0 == name) else {
                let known: Vec<&str> = kinds.iter().map(|k| k.0).collect();
                bail!(
                    "configuration {:?}: unknown piece {name:?}; known: {}",
                    self.name,
                    known.join(", ")
                );
            };
            values[i] = v;
        }
        Ok(SearchConfig {
            values,
            hash_mib: self.hash_mib.unwrap_or(2),
            positional: self.positional.unwrap_or(true),
            randomize: self.randomize.unwrap_or(10),
            seed,
        })
    }
}

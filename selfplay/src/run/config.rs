//! Engine configurations: named sets of engine parameters, read from small JSON files, so two
//! versions of the engine can be compared without rebuilding.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use variantlab_engine::eval::EvalWeights;
use variantlab_engine::nnue::Network;
use variantlab_engine::search::{EvalChoice, Limits, SearchConfig, SearchParams};
use variantlab_engine::textfile::read_text_file;
use variantlab_engine::Game;

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
    /// Search techniques switched off, by name (`null_move`, `reverse_futility`,
    /// `log_reductions`, `late_pruning`, `iterative_reduction`, `history_gravity`,
    /// `aspiration`, `countermove`, `capture_history`, `continuation_history`, `see`,
    /// `quiescence_table`, `mop_up`, `see_pruning`; `Technique::ALL`): how each technique is
    /// measured against the full search.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disable: Vec<String>,
    /// Search techniques switched on that are off by default (built, but not accepted by
    /// their SPRT: `Technique::DEFAULT_OFF`), by the same names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enable: Vec<String>,
    /// Numeric search settings by name (`lmr_divisor`, `futility_slope`, ...;
    /// `variantlab_engine::search::Param`), each an integer within its range; others keep
    /// their defaults: how a new margin or reduction is measured against the default.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, i64>,
    /// The evaluation: `"default"` (the variant's embedded network where it has one, else its
    /// linear evaluation), `"linear"` (the tuned weights where the variant has them, else the
    /// classic evaluation),
    /// `"classic"` (material plus the fixed mobility and centralisation terms), `"net:PATH"`
    /// (a network file, what `variantlab train-net` writes: docs/evaluation.md), or the path
    /// of a weights file (`data/eval/<variant>.json`, what `variantlab tune` writes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<String>,
    /// An external UCI engine's command line instead of the built-in searcher (words split
    /// on whitespace, `"double quotes"` grouping; no shell): `stockfish`,
    /// `target/release/variantlab uci`. Games with one are not reproducible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// UCI options sent to the external engine (`setoption name K value V`) after the
    /// handshake: `{"Hash": "16", "Threads": "1"}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

/// The largest engine configuration or evaluation weights file read (they are a few KiB to
/// a few dozen; a device or a huge file named by mistake is refused, not read).
pub const MAX_SETTINGS_BYTES: u64 = 1 << 20;

impl EngineConfig {
    /// The built-in configuration.
    pub fn default_named() -> EngineConfig {
        EngineConfig {
            name: "default".into(),
            ..EngineConfig::default()
        }
    }

    /// `default`, `engine:CMD` (an external UCI engine started with the command line
    /// `CMD`, named after its program), or a JSON file.
    ///
    /// # Errors
    /// An unreadable file, bad JSON (with line and column), unknown fields, or an empty
    /// or badly quoted engine command.
    pub fn load(spec: &str) -> Result<EngineConfig> {
        if spec == "default" {
            return Ok(EngineConfig::default_named());
        }
        if let Some(command) = spec.strip_prefix("engine:") {
            crate::run::engine_process::split_command(command)?;
            return Ok(EngineConfig {
                name: crate::run::engine_process::engine_name(command),
                engine: Some(command.trim().to_string()),
                ..EngineConfig::default()
            });
        }
        let text = read_text_file(std::path::Path::new(spec), MAX_SETTINGS_BYTES)
            .with_context(|| format!("reading engine configuration {spec}"))?;
        let mut c: EngineConfig =
            serde_json::from_str(&text).with_context(|| format!("engine configuration {spec}"))?;
        if c.name.is_empty() {
            c.name = std::path::Path::new(spec)
                .file_stem()
                .map_or_else(|| spec.to_string(), |s| s.to_string_lossy().into_owned());
        }
        c.check_name()
            .with_context(|| format!("engine configuration {spec}"))?;
        Ok(c)
    }

    /// Refuses a name with control characters: it is written into CSV rows and PGN tags,
    /// where a newline would split a row (and block a resume) and an escape sequence would
    /// reach the terminal of whoever reads the file.
    ///
    /// # Errors
    /// A control character, named with its position.
    pub fn check_name(&self) -> Result<()> {
        if let Some((i, c)) = self.name.chars().enumerate().find(|(_, c)| c.is_control()) {
            bail!(
                "configuration {:?}: \"name\" has a control character ({:?} at character {}); names are written into CSV rows and file names",
                self.name,
                c,
                i + 1
            );
        }
        Ok(())
    }

    /// The name as a file name (the engine's stderr log): letters, digits, `.`, `_` and `-`
    /// kept, anything else (`/`, `..` as a prefix, spaces) made `_`, so whatever a run
    /// writes stays inside its folder.
    pub fn file_name(&self) -> String {
        let safe: String = self
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let safe = safe.trim_start_matches('.');
        if safe.is_empty() {
            "engine".to_string()
        } else {
            safe.to_string()
        }
    }

    /// Whether this is an external engine (`engine` set).
    pub fn is_external(&self) -> bool {
        self.engine.is_some()
    }

    /// The search limits, falling back to the run's.
    pub fn limits(&self, default: Limits) -> Limits {
        match (self.nodes, self.depth) {
            (Some(n), _) => Limits::nodes(n),
            (None, Some(d)) => Limits::depth(d),
            _ => default,
        }
    }

    /// Checks everything about the configuration before a run starts: the limits are
    /// meaningful (at least one node, a depth of 1 to 100), the hash table can be had,
    /// every piece value names a piece of the variant, and evaluation weights fit it.
    ///
    /// # Errors
    /// The first problem, naming the configuration and the field.
    pub fn validate<G: Game>(&self) -> Result<()> {
        self.check_name()?;
        if self.nodes == Some(0) {
            bail!(
                "configuration {:?}: \"nodes\" must be at least 1",
                self.name
            );
        }
        if let Some(d) = self.depth {
            if !(1..=MAX_DEPTH).contains(&d) {
                bail!(
                    "configuration {:?}: \"depth\" must be 1 to {MAX_DEPTH}, got {d}",
                    self.name
                );
            }
        }
        if self.is_external() {
            let builtin = [
                ("values", !self.values.is_empty()),
                ("positional", self.positional.is_some()),
                ("hash_mib", self.hash_mib.is_some()),
                ("randomize", self.randomize.is_some()),
                ("disable", !self.disable.is_empty()),
                ("enable", !self.enable.is_empty()),
                ("params", !self.params.is_empty()),
                ("eval", self.eval.is_some()),
            ];
            if let Some((field, _)) = builtin.iter().find(|f| f.1) {
                bail!(
                    "configuration {:?}: {field:?} is a setting of the built-in engine; an external engine takes UCI \"options\"",
                    self.name
                );
            }
            return Ok(());
        }
        if !self.options.is_empty() {
            bail!(
                "configuration {:?}: \"options\" are UCI options of an external engine; this configuration has no \"engine\"",
                self.name
            );
        }
        check_hash(self.hash_mib.unwrap_or(2))
            .with_context(|| format!("configuration {:?}: \"hash_mib\"", self.name))?;
        self.search_config::<G>(0).map(|_| ())
    }

    /// For an external engine: starts it, completes the UCI handshake, sets the variant and
    /// options, and stops it, so a missing program or an engine that cannot play `variant`
    /// is an error before any game. Nothing to do for the built-in engine.
    ///
    /// # Errors
    /// The engine cannot be started, does not answer `uciok`/`readyok` in time, or lacks
    /// the variant or an option.
    pub fn check_engine(&self, variant: &str) -> Result<()> {
        use crate::run::engine_process::Definition;
        if let Some(command) = &self.engine {
            let mut e = crate::run::engine_process::UciEngine::start(command, None)
                .with_context(|| format!("configuration {:?}", self.name))?;
            let definition = match self.exported_definition(variant) {
                None => Definition::None,
                Some(Ok(_)) => Definition::Exported(None),
                Some(Err(why)) => Definition::Unavailable(why),
            };
            e.configure(variant, &self.options, &definition)
                .with_context(|| format!("configuration {:?}", self.name))?;
        }
        Ok(())
    }

    /// For an external engine playing the loaded variant file `variant` whose options name no
    /// `VariantPath`: the file in Fairy-Stockfish's format
    /// ([`Definition`](crate::run::engine_process::Definition)), or why it cannot be written
    /// so; `None` when there is nothing to give.
    pub fn exported_definition(&self, variant: &str) -> Option<Result<String, String>> {
        self.engine.as_ref()?;
        if self
            .options
            .keys()
            .any(|k| k.eq_ignore_ascii_case("VariantPath"))
        {
            return None;
        }
        let loaded = variantlab_engine::variants::file::loaded_named(variant)?;
        Some(
            variantlab_engine::variants::file::fsf::export_kind(loaded.kind).map_err(|e| {
                format!("{variant} cannot be written in Fairy-Stockfish's format: {e}")
            }),
        )
    }

    /// The search configuration for the variant `G`.
    ///
    /// # Errors
    /// A piece value naming no material kind of the variant, an unreadable weights file or one
    /// that does not fit the variant.
    pub fn search_config<G: Game>(&self, seed: u64) -> Result<SearchConfig> {
        let kinds = &G::start().material_kinds();
        let mut values: Vec<Option<i32>> = vec![None; kinds.len()];
        for (name, &v) in &self.values {
            let Some(i) = piece_index(kinds, name) else {
                let known: Vec<String> = kinds.iter().map(|k| piece_key(k.0)).collect();
                bail!(
                    "configuration {:?}: unknown piece {name:?}; known: {}",
                    self.name,
                    known.join(", ")
                );
            };
            values[i] = Some(v);
        }
        use variantlab_engine::search::Technique;
        let technique = |name: &str, field: &str| {
            Technique::from_name(name).ok_or_else(|| {
                let known: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
                anyhow::anyhow!(
                    "configuration {:?}: unknown technique {name:?} in \"{field}\"; known: {}",
                    self.name,
                    known.join(", ")
                )
            })
        };
        let mut disabled = Technique::DEFAULT_OFF;
        for name in &self.enable {
            disabled &= !(technique(name, "enable")? as u64);
        }
        for name in &self.disable {
            disabled |= technique(name, "disable")? as u64;
        }
        let mut params = SearchParams::default();
        for (name, &v) in &self.params {
            params
                .set(name, v)
                .with_context(|| format!("configuration {:?}: \"params\"", self.name))?;
        }
        let eval = match self.eval.as_deref() {
            None | Some("default") => EvalChoice::Default,
            Some("classic") => EvalChoice::Classic,
            Some("linear") => EvalChoice::Linear,
            Some(spec) if spec.starts_with("net:") => {
                let path = &spec["net:".len()..];
                let net = Network::read(std::path::Path::new(path)).with_context(|| {
                    format!(
                        "configuration {:?}: reading \"eval\" network {path}",
                        self.name
                    )
                })?;
                let choice = EvalChoice::Net(Arc::new(net));
                choice
                    .network::<G>()
                    .with_context(|| format!("configuration {:?}: network {path}", self.name))?;
                choice
            }
            Some(path) => {
                let text = read_text_file(std::path::Path::new(path), MAX_SETTINGS_BYTES)
                    .with_context(|| {
                        format!("configuration {:?}: reading \"eval\" {path}", self.name)
                    })?;
                let w = EvalWeights::parse(&text)
                    .with_context(|| format!("configuration {:?}: {path}", self.name))?;
                let choice = EvalChoice::Weights(Arc::new(w));
                choice
                    .evaluator::<G>()
                    .with_context(|| format!("configuration {:?}: {path}", self.name))?;
                choice
            }
        };
        Ok(SearchConfig {
            eval,
            values,
            hash_mib: self.hash_mib.unwrap_or(2),
            positional: self.positional.unwrap_or(true),
            randomize: self.randomize.unwrap_or(10),
            seed,
            disabled,
            params,
        })
    }
}

/// Nodes per move when neither a command nor a configuration says otherwise.
pub const DEFAULT_NODES: u64 = 1000;
/// Openings of every command that plays games, unless `--openings` says otherwise: six
/// seeded random plies, enough that colour-swapped pairs differ from one another, redrawn
/// until a short search finds the position balanced (`crate::run::openings`: plain random plies
/// hand the side to move a hanging piece often enough to fake a first-move advantage).
pub const DEFAULT_OPENINGS: &str = "balanced-plies:6";
/// Ply cap of a variant's games unless a command sets one (`--max-plies`): the registry's
/// ([`VariantInfo::max_plies`](variantlab_engine::variants::VariantInfo::max_plies)); a game
/// still going then is a draw.
pub fn default_max_plies(variant: variantlab_engine::VariantKind) -> u32 {
    variant.info().max_plies
}

/// The most games a run, study or match may have: far beyond any study one machine
/// plays (a billion games is about 40,000 core-hours of chess at the default nodes), small
/// enough that no count is an allocation to fear.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The most worker threads a command may use: each reserves its stack (64 MiB of address
/// space) and plays one game at a time with its own hash tables.
pub const MAX_THREADS: usize = 256;

/// Checks that `threads` games at once, each with its two players' hash tables, fit in the
/// memory this machine has available (`MemAvailable` of `/proc/meminfo`; no check where that
/// cannot be read). External engines keep their own tables and count nothing here.
///
/// # Errors
/// More table memory than is available, naming `--threads` and the configurations' sizes.
pub fn check_memory(threads: usize, games: u64, players: [&EngineConfig; 2]) -> Result<()> {
    let Some(available) = available_mib() else {
        return Ok(());
    };
    let per_game: u64 = players
        .iter()
        .filter(|p| !p.is_external())
        .map(|p| p.hash_mib.unwrap_or(2) as u64)
        .sum();
    let at_once = (threads as u64).min(games.max(1));
    let need = per_game.saturating_mul(at_once);
    if need > available {
        bail!(
            "--threads {threads}: {at_once} games at once with hash tables of {} MiB each need {need} MiB, but this machine has {available} MiB available; lower --threads or \"hash_mib\"",
            per_game
        );
    }
    Ok(())
}

/// The memory available for new work, in MiB, where the system says.
fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The deepest fixed depth a command or configuration may ask for.
pub const MAX_DEPTH: u32 = 100;

/// Whether a transposition table of `mib` MiB can be had (bounded, and the memory there).
///
/// # Errors
/// Too large, or not enough memory.
pub fn check_hash(mib: usize) -> Result<()> {
    variantlab_engine::search::tt::TranspositionTable::try_new(mib)
        .map(drop)
        .map_err(anyhow::Error::msg)
}

/// A piece's name as written in CSV columns and accepted everywhere: lower case, words
/// joined by `_` (`quantum king` -> `quantum_king`).
pub fn piece_key(name: &str) -> String {
    name.trim()
        .to_lowercase()
        .split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

/// The index of the material kind called `name`, case-insensitively and with spaces,
/// `_` or `-` between words alike.
pub fn piece_index(kinds: &[(&'static str, i32)], name: &str) -> Option<usize> {
    let key = piece_key(name);
    kinds.iter().position(|k| piece_key(k.0) == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use variantlab_engine::position::Position;
    use variantlab_engine::search::Technique;
    use variantlab_engine::variants::Chess;

    fn disabled(json: &str) -> Result<u64> {
        let c: EngineConfig = serde_json::from_str(json)?;
        c.search_config::<Position<Chess>>(0).map(|s| s.disabled)
    }

    #[test]
    fn enable_and_disable_set_technique_bits_over_the_default_set() {
        assert_eq!(disabled("{}").unwrap(), Technique::DEFAULT_OFF);
        let cm = Technique::CounterMove as u64;
        let nm = Technique::NullMove as u64;
        assert_eq!(
            disabled(r#"{"disable": ["countermove", "null_move"]}"#).unwrap(),
            Technique::DEFAULT_OFF | cm | nm
        );
        assert_eq!(
            disabled(r#"{"enable": ["countermove"]}"#).unwrap(),
            Technique::DEFAULT_OFF & !cm
        );
        // Both: "disable" wins.
        assert_eq!(
            disabled(r#"{"enable": ["countermove"], "disable": ["countermove"]}"#).unwrap(),
            Technique::DEFAULT_OFF | cm
        );
        let e = disabled(r#"{"enable": ["countermoves"]}"#).unwrap_err();
        assert!(e.to_string().contains("in \"enable\""), "{e}");
        assert!(e.to_string().contains("continuation_history"), "{e}");
    }

    #[test]
    fn names_with_control_characters_are_refused_and_file_names_stay_inside() {
        let named = |name: &str| EngineConfig {
            name: name.into(),
            ..EngineConfig::default()
        };
        for bad in ["a\nb", "x\ry", "e\u{1b}[31m", "tab\there"] {
            let e = named(bad).check_name().unwrap_err().to_string();
            assert!(e.contains("control character"), "{e}");
            assert!(named(bad).validate::<Position<Chess>>().is_err());
        }
        named("stockfish 16.1").check_name().unwrap();
        assert_eq!(named("../../../../tmp/x").file_name(), "_.._.._.._tmp_x");
        assert_eq!(named("..").file_name(), "engine");
        assert_eq!(named(".hidden").file_name(), "hidden");
        assert_eq!(named("sf-16.1_a").file_name(), "sf-16.1_a");
        assert_eq!(named("/etc/passwd").file_name(), "_etc_passwd");
    }

    #[test]
    fn params_set_search_parameters_by_name_within_their_range() {
        use variantlab_engine::search::Param;
        let params = |json: &str| -> Result<SearchParams> {
            let c: EngineConfig = serde_json::from_str(json)?;
            c.search_config::<Position<Chess>>(0).map(|s| s.params)
        };
        assert_eq!(params("{}").unwrap(), SearchParams::default());
        let p = params(r#"{"params": {"lmr_divisor": 200, "futility_slope": 90}}"#).unwrap();
        assert_eq!(p.get(Param::LmrDivisor), 200);
        assert_eq!(p.get(Param::FutilitySlope), 90);
        assert_eq!(p.get(Param::FutilityBase), 100);
        let e = params(r#"{"name": "x", "params": {"lmr_divisr": 200}}"#).unwrap_err();
        let text = format!("{e:#}");
        assert!(text.contains("configuration \"x\": \"params\""), "{text}");
        assert!(
            text.contains("unknown search parameter \"lmr_divisr\""),
            "{text}"
        );
        let e = params(r#"{"params": {"null_move_base": 11}}"#).unwrap_err();
        assert!(
            format!("{e:#}").contains("must be 1 to 10, got 11"),
            "{e:#}"
        );
        // Whole numbers only: a fraction is a JSON error naming the field.
        assert!(params(r#"{"params": {"lmr_divisor": 2.5}}"#).is_err());
        // An external engine takes UCI options, not our parameters.
        let c: EngineConfig =
            serde_json::from_str(r#"{"engine": "stockfish", "params": {"lmr_base": 50}}"#).unwrap();
        let e = c.validate::<Position<Chess>>().unwrap_err();
        assert!(
            e.to_string()
                .contains("\"params\" is a setting of the built-in engine"),
            "{e}"
        );
    }
}

//! The commands that look at the engine directly: `variants`, `perft`, `perft-all` and
//! `search`.

use crate::output::out;
use anyhow::{bail, Context, Result};
use std::time::Instant;
use variantlab_engine::perft::{divide, perft};
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::{with_variant, VariantKind};

/// `s` with its control characters escaped (`\u{1b}`): a variant file's title and notes
/// reach the terminal, and must not drive it.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `variantlab variants`: every variant's board, cells, rules file and notes.
pub fn variants_command(json: bool) -> Result<()> {
    let mut rows = Vec::new();
    let files = variantlab_engine::variants::file::loaded().map(|l| l.kind);
    for kind in VariantKind::ALL.into_iter().chain(files) {
        let info = kind.info();
        let (files, ranks, levels) = info.dims;
        rows.push(serde_json::json!({
            "name": info.name,
            "title": info.title,
            "files": files,
            "ranks": ranks,
            "levels": levels,
            "cells": info.cells,
            "rules": info.rules_file,
            "notes": info.notes,
            "max_plies": info.max_plies,
        }));
        if !json {
            out!(
                "{:<22} {:<26} {}x{}{} board, {} cells, ply cap {}  (rules: {})",
                printable(info.name),
                printable(info.title),
                files,
                ranks,
                if levels > 1 {
                    format!("x{levels}")
                } else {
                    String::new()
                },
                info.cells,
                info.max_plies,
                printable(info.rules_file)
            );
            for note in info.notes {
                out!("{:<22} - {}", "", printable(note));
            }
        }
    }
    if json {
        out!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(())
}

/// `variantlab perft`: the leaf count from a position (the start without one), or per root
/// move with `div`.
pub fn perft_command(
    kind: VariantKind,
    depth: u32,
    position: Option<&str>,
    div: bool,
    json: bool,
) -> Result<()> {
    let name = kind.name();
    with_variant!(kind, G => {
        let pos = match position {
            Some(text) => G::from_text(text).with_context(|| format!("reading --position for {name}"))?,
            None => G::start(),
        };
        let t = Instant::now();
        let nodes = if div {
            let mut total = 0;
            for (m, n) in divide(&pos, depth) {
                if !json {
                    out!("{} {n}", pos.move_text(m));
                }
                total += n;
            }
            total
        } else {
            perft(&pos, depth)
        };
        let secs = t.elapsed().as_secs_f64();
        let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
        if json {
            out!(
                "{}",
                serde_json::json!({"variant": name, "depth": depth, "nodes": nodes, "seconds": secs, "nps": nps.round()})
            );
        } else {
            out!("{name} perft({depth}) = {nodes}  ({secs:.3} s, {:.1} M nodes/s)", nps / 1e6);
        }
    });
    Ok(())
}

/// `variantlab perft-all`: perft of every variant's start position, at `depth` or (without
/// one) deepening while the next depth is predicted to take under two seconds.
pub fn perft_all_command(depth: Option<u32>) -> Result<()> {
    if let Some(depth) = depth {
        for kind in VariantKind::ALL {
            perft_command(kind, depth, None, false, false)?;
        }
        return Ok(());
    }
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            let start = G::start();
            let (mut prev_nodes, mut predicted) = (1u64, 0.0f64);
            for depth in 1..=20 {
                if predicted > 2.0 {
                    break;
                }
                let t = Instant::now();
                let nodes = perft(&start, depth);
                let secs = t.elapsed().as_secs_f64();
                out!(
                    "{} perft({depth}) = {nodes}  ({secs:.3} s, {:.1} M nodes/s)",
                    kind.name(),
                    nodes as f64 / secs.max(1e-9) / 1e6
                );
                // The next depth costs about this one times the branching factor.
                predicted = secs * nodes as f64 / prev_nodes.max(1) as f64;
                prev_nodes = nodes;
            }
        });
    }
    Ok(())
}

/// Reads piece values: `name=cp,...` or `@FILE` with one `name=cp` per line; every name must
/// be one of the variant's material kinds. Kinds not named keep the evaluation's values.
pub fn parse_values(spec: &str, kinds: &[(&'static str, i32)]) -> Result<Vec<Option<i32>>> {
    let text = match spec.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("reading piece values from {path}"))?,
        None => spec.replace(',', "\n"),
    };
    let mut values: Vec<Option<i32>> = vec![None; kinds.len()];
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((name, value)) = line.split_once('=') else {
            bail!(
                "piece values, entry {}: {line:?} is not name=centipawns",
                n + 1
            );
        };
        let Some(i) = crate::run::config::piece_index(kinds, name) else {
            let known: Vec<String> = kinds
                .iter()
                .map(|k| crate::run::config::piece_key(k.0))
                .collect();
            bail!(
                "piece values, entry {}: unknown piece {:?}; known: {}",
                n + 1,
                name.trim(),
                known.join(", ")
            );
        };
        values[i] = Some(value.trim().parse().with_context(|| {
            format!(
                "piece values, entry {}: {:?} is not a whole number",
                n + 1,
                value.trim()
            )
        })?);
    }
    Ok(values)
}

/// `variantlab search`: the best move, score, depth, nodes, nps and PV of a position (the
/// start without one), by the default search or an engine configuration's (`engine`, a JSON
/// file) with `config`'s table size, randomisation and seed.
#[allow(clippy::clone_on_copy)] // generic over variants, some of which are not Copy
pub fn search_command(
    kind: VariantKind,
    position: Option<&str>,
    limits: Limits,
    config: SearchConfig,
    engine: Option<&str>,
    values: Option<&str>,
    json: bool,
) -> Result<()> {
    let name = kind.name();
    crate::run::config::check_hash(config.hash_mib).context("--hash")?;
    let engine = engine
        .map(|spec| -> Result<_> {
            let c = crate::run::config::EngineConfig::load(spec).context("--config")?;
            if c.is_external() {
                bail!("--config {spec}: an external engine cannot run `variantlab search`; give a JSON configuration");
            }
            Ok(c)
        })
        .transpose()?;
    with_variant!(kind, G => {
        let pos = match position {
            Some(text) => G::from_text(text).with_context(|| format!("reading --position for {name}"))?,
            None => G::start(),
        };
        let mut config = match &engine {
            Some(c) => SearchConfig {
                hash_mib: config.hash_mib,
                randomize: config.randomize,
                ..c.search_config::<G>(config.seed)?
            },
            None => config,
        };
        if let Some(v) = values {
            // Each piece named here overrides the configuration's value.
            let named = parse_values(v, &pos.material_kinds())?;
            config.values.resize(named.len(), None);
            for (slot, v) in config.values.iter_mut().zip(named) {
                if v.is_some() {
                    *slot = v;
                }
            }
        }
        let mut searcher = Searcher::new(config);
        let r = searcher.search(&pos, &[], limits);
        // Print the PV in notation by replaying it.
        let mut line = Vec::new();
        let mut p = pos.clone();
        for &m in &r.pv {
            line.push(p.move_text(m));
            p.play_unchecked(m);
        }
        let best = r.best.map(|m| pos.move_text(m));
        let nps = if r.seconds > 0.0 { (r.nodes as f64 / r.seconds).round() } else { 0.0 };
        if json {
            out!(
                "{}",
                serde_json::json!({
                    "variant": name, "best": best, "score": r.score, "mate": r.mate_in(),
                    "depth": r.depth, "nodes": r.nodes, "seconds": r.seconds, "nps": nps, "pv": line,
                })
            );
        } else {
            let score = match r.mate_in() {
                Some(m) => format!("mate {m}"),
                None => format!("cp {}", r.score),
            };
            out!(
                "bestmove {}  score {score}  depth {}  nodes {}  nps {nps}  pv {}",
                best.as_deref().unwrap_or("(none)"),
                r.depth,
                r.nodes,
                line.join(" ")
            );
        }
    });
    Ok(())
}

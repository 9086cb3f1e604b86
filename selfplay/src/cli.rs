//! Command-line parsing (clap) and the subcommands.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use std::time::Instant;
use variantlab_engine::perft::{divide, perft};
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::{with_variant, VariantKind};

/// Self-play, statistics and move-generation tools for chess variants.
#[derive(Parser, Debug)]
#[command(name = "variantlab", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the variants: board sizes, cell counts and which rules are reconstructions.
    Variants {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the legal-move tree (perft) from a position.
    Perft {
        /// Variant name (see `variantlab variants`).
        #[arg(long)]
        variant: String,
        /// Depth in plies (1 to 20).
        #[arg(long)]
        depth: u32,
        /// Position in the variant's text format (default: the start position).
        #[arg(long)]
        position: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Print one JSON object: variant, depth, nodes, seconds, nps.
        #[arg(long)]
        json: bool,
    },
    /// Search a position and print the best move, score, depth, nodes, nps and PV.
    Search {
        /// Variant name (see `variantlab variants`).
        #[arg(long)]
        variant: String,
        /// Position in the variant's text format (default: the start position).
        #[arg(long)]
        position: Option<String>,
        /// Node budget (reproducible).
        #[arg(long, group = "limit")]
        nodes: Option<u64>,
        /// Fixed depth in plies (1 to 100).
        #[arg(long, group = "limit")]
        depth: Option<u32>,
        /// Time per move in milliseconds (not reproducible).
        #[arg(long, group = "limit")]
        movetime: Option<u64>,
        /// Transposition table size in MiB (0 disables it).
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Piece values overriding the defaults: `name=centipawns,...`, or `@FILE` with one
        /// `name=centipawns` per line.
        #[arg(long)]
        values: Option<String>,
        /// Root randomisation in centipawns (0 = off).
        #[arg(long, default_value_t = 0)]
        randomize: i32,
        /// Seed for the root randomisation.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Run perft on the start position of every variant (the default job until self-play).
    PerftAll {
        /// Depth for every variant.
        #[arg(long, default_value_t = 4)]
        depth: u32,
    },
}

/// Parses the command line and runs it.
pub fn run() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Variants { json } => variants(json),
        Command::Perft {
            variant,
            depth,
            position,
            divide,
            json,
        } => perft_cmd(&variant, depth, position.as_deref(), divide, json),
        Command::Search {
            variant,
            position,
            nodes,
            depth,
            movetime,
            hash,
            values,
            randomize,
            seed,
            json,
        } => {
            let limits = match (nodes, depth, movetime) {
                (Some(n), _, _) if n > 0 => Limits::nodes(n),
                (_, Some(d), _) if (1..=100).contains(&d) => Limits::depth(d),
                (_, _, Some(ms)) if ms > 0 => Limits::movetime(ms),
                (None, None, None) => {
                    bail!("give one limit: --nodes N, --depth D or --movetime MS")
                }
                _ => bail!("--nodes and --movetime must be positive, --depth between 1 and 100"),
            };
            let config = SearchConfig {
                values: Vec::new(),
                hash_mib: hash,
                positional: true,
                randomize,
                seed,
            };
            search_cmd(
                &variant,
                position.as_deref(),
                limits,
                config,
                values.as_deref(),
                json,
            )
        }
        Command::PerftAll { depth } => {
            for kind in VariantKind::ALL {
                perft_cmd(kind.name(), depth, None, false, false)?;
            }
            Ok(())
        }
    }
}

fn variant(name: &str) -> Result<VariantKind> {
    Ok(VariantKind::from_name(name)?)
}

fn variants(json: bool) -> Result<()> {
    let mut rows = Vec::new();
    for kind in VariantKind::ALL {
        let spec = kind.spec();
        let (files, ranks, levels) = spec.topology.dims();
        rows.push(serde_json::json!({
            "name": spec.name,
            "title": spec.title,
            "files": files,
            "ranks": ranks,
            "levels": levels,
            "cells": spec.topology.num_cells(),
            "rules": spec.rules_file,
            "notes": spec.notes,
        }));
        if !json {
            println!(
                "{:<16} {:<18} {}x{}{} board, {} cells  (rules: {})",
                spec.name,
                spec.title,
                files,
                ranks,
                if levels > 1 {
                    format!("x{levels}")
                } else {
                    String::new()
                },
                spec.topology.num_cells(),
                spec.rules_file
            );
            for note in spec.notes {
                println!("{:<16} - {note}", "");
            }
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(())
}

fn perft_cmd(name: &str, depth: u32, position: Option<&str>, div: bool, json: bool) -> Result<()> {
    let kind = variant(name)?;
    if !(1..=20).contains(&depth) {
        bail!("--depth must be between 1 and 20, got {depth}");
    }
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
                    println!("{} {n}", pos.move_text(m));
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
            println!(
                "{}",
                serde_json::json!({"variant": name, "depth": depth, "nodes": nodes, "seconds": secs, "nps": nps.round()})
            );
        } else {
            println!("{name} perft({depth}) = {nodes}  ({secs:.3} s, {:.1} M nodes/s)", nps / 1e6);
        }
    });
    Ok(())
}

/// Reads piece values: `name=cp,...` or `@FILE` with one `name=cp` per line; every name must
/// be one of the variant's material kinds.
pub fn parse_values(spec: &str, kinds: &[(&'static str, i32)]) -> Result<Vec<i32>> {
    let text = match spec.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("reading piece values from {path}"))?,
        None => spec.replace(',', "\n"),
    };
    let mut values: Vec<i32> = kinds.iter().map(|k| k.1).collect();
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
        let Some(i) = kinds.iter().position(|k| k.0 == name.trim()) else {
            let known: Vec<&str> = kinds.iter().map(|k| k.0).collect();
            bail!(
                "piece values, entry {}: unknown piece {:?}; known: {}",
                n + 1,
                name.trim(),
                known.join(", ")
            );
        };
        values[i] = value.trim().parse().with_context(|| {
            format!(
                "piece values, entry {}: {:?} is not a whole number",
                n + 1,
                value.trim()
            )
        })?;
    }
    Ok(values)
}

#[allow(clippy::clone_on_copy)] // generic over variants, some of which are not Copy
fn search_cmd(
    name: &str,
    position: Option<&str>,
    limits: Limits,
    mut config: SearchConfig,
    values: Option<&str>,
    json: bool,
) -> Result<()> {
    let kind = variant(name)?;
    with_variant!(kind, G => {
        let pos = match position {
            Some(text) => G::from_text(text).with_context(|| format!("reading --position for {name}"))?,
            None => G::start(),
        };
        if let Some(v) = values {
            config.values = parse_values(v, &pos.material_kinds())?;
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
            println!(
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
            println!(
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

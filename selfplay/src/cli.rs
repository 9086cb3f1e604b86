//! Command-line parsing (clap) and the subcommands.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use std::time::Instant;
use variantlab_engine::perft::{divide, perft};
use variantlab_engine::{with_variant, Game, VariantKind};

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

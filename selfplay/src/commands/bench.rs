//! `variantlab bench`: the engine's signature and speed.
//!
//! A fixed set of positions per variant is searched to a fixed depth with a fresh searcher
//! each; the total node count is the signature (any functional change to move generation,
//! ordering, evaluation or search alters it). The expected signatures live in
//! `bench/signature.txt` and a test compares them, so an unintended change fails CI and an
//! intended one is a one-line update with a reason in the commit.

use crate::output::out;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::time::Instant;
use variantlab_engine::game::Game;
use variantlab_engine::perft::perft;
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{with_variant, VariantKind};

/// Extra positions for the calibration variant (published perft positions).
const CHESS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// Search depth of the signature.
pub const DEPTH: u32 = 6;

/// Search depth of the signature for one variant: [`DEPTH`], two plies less where move lists
/// run to hundreds ([`many_moves`](variantlab_engine::variants::VariantInfo::many_moves)), so
/// every variant's bench lasts seconds.
pub fn depth(kind: VariantKind) -> u32 {
    if kind.info().many_moves {
        DEPTH - 2
    } else {
        DEPTH
    }
}

/// One variant's figures.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BenchResult {
    /// Variant name.
    pub variant: String,
    /// Positions searched.
    pub positions: usize,
    /// Total search nodes: the signature.
    pub nodes: u64,
    /// Search nodes per second.
    pub nps: f64,
    /// Perft leaves of the start position at `perft_depth`.
    pub perft_nodes: u64,
    /// Depth of that perft.
    pub perft_depth: u32,
    /// Perft leaves per second.
    pub perft_nps: f64,
}

/// The bench positions of a game type: the start, then positions after 8, 16, 24 and 32
/// seeded random plies (so every variant gets middle-game positions with no hand-picking),
/// then any fixed extras.
pub fn positions<G: Game>(extras: &[&str]) -> Vec<G> {
    let mut out = vec![G::start()];
    let mut rng = SplitMix64(0xbe9c);
    for target in [8, 16, 24, 32] {
        let mut pos = G::start();
        for _ in 0..target {
            let Some(m) = variantlab_engine::game::random_move(&pos, &mut rng) else {
                break;
            };
            pos.play_unchecked(m);
        }
        out.push(pos);
    }
    out.extend(extras.iter().filter_map(|t| G::from_text(t).ok()));
    out
}

/// Runs the bench for one variant; `with_perft` adds the perft leaf rate.
pub fn run(kind: VariantKind, with_perft: bool) -> BenchResult {
    with_variant!(kind, G => {
        let extras: &[&str] = if kind == VariantKind::Chess { CHESS } else { &[] };
        let list = positions::<G>(extras);
        let t = Instant::now();
        let mut nodes = 0;
        for p in &list {
            let mut s = Searcher::new(SearchConfig::default());
            nodes += s.search(p, &[], Limits::depth(depth(kind))).nodes;
        }
        let secs = t.elapsed().as_secs_f64().max(1e-9);
        // Perft from the start, one ply deeper while the last took under 0.1 s (so the
        // measured run lasts about 0.2 to 5 s on every board).
        let start = G::start();
        let (mut depth, mut perft_nodes, mut perft_secs) = (0, 0, 1e-9);
        while with_perft && perft_secs < 0.1 && depth < 8 {
            depth += 1;
            let t = Instant::now();
            perft_nodes = perft(&start, depth);
            perft_secs = t.elapsed().as_secs_f64().max(1e-9);
        }
        BenchResult {
            variant: kind.name().to_string(),
            positions: list.len(),
            nodes,
            nps: nodes as f64 / secs,
            perft_nodes,
            perft_depth: depth,
            perft_nps: perft_nodes as f64 / perft_secs,
        }
    })
}

/// Games per minute on one thread at `nodes` per move: `games` seeded games of the default
/// configuration from random four-ply openings, capped at 300 plies.
pub fn games_per_minute(kind: VariantKind, nodes: u64, games: u64) -> f64 {
    use crate::run::openings::Openings;
    use crate::run::play::{play_game, Adjudication, PlayerSpec, Players};
    with_variant!(kind, G => {
        let openings = Openings::parse::<G>(crate::run::config::DEFAULT_OPENINGS)
            .expect("the default openings parse");
        let spec = PlayerSpec::new::<G>(&crate::run::config::EngineConfig::default_named(),
            Limits::nodes(nodes),
            None,
            None,
        )
        .expect("the default configuration fits every variant");
        let t = Instant::now();
        for id in 0..games {
            let seed = crate::run::schedule::game_seed(7, id);
            let (start, _) = openings.opening::<G>(id, seed);
            let (mut w, mut b) = (spec.player(seed), spec.player(seed ^ 1));
            play_game(start, Players { white: &mut w, black: &mut b }, Adjudication { max_plies: kind.info().max_plies, resign: None, draw: None }, false);
        }
        games as f64 * 60.0 / t.elapsed().as_secs_f64().max(1e-9)
    })
}

/// The figures table of `bench/README.md`: perft leaf rate, search speed and self-play
/// games per minute per variant, measured now on this machine.
pub fn markdown_table(results: &[BenchResult], gpm: &[(f64, f64)]) -> String {
    let mut s = String::from(
        "| variant | perft (start) | perft leaves/s | search nodes/s | signature | games/min/core @1000 nodes | games/min/core @10000 nodes |\n|---|---|---|---|---|---|---|\n",
    );
    for (r, (g1, g10)) in results.iter().zip(gpm) {
        s += &format!(
            "| `{}` | perft({}) = {} | {:.1} M | {:.2} M | {} | {:.0} | {:.0} |\n",
            r.variant,
            r.perft_depth,
            r.perft_nodes,
            r.perft_nps / 1e6,
            r.nps / 1e6,
            r.nodes,
            g1,
            g10
        );
    }
    s
}

/// `variantlab bench`: [`run`] for each of `kinds`, printed as text or JSON; with `table`,
/// also the games per minute, written with the rest into that markdown file between its
/// `<!-- figures -->` markers.
///
/// # Errors
/// An unreadable or unwritable `table` file, or one without the markers.
pub fn command(
    kinds: &[VariantKind],
    json: bool,
    no_perft: bool,
    table: Option<&Path>,
) -> Result<()> {
    let results: Vec<_> = kinds.iter().map(|&k| run(k, !no_perft)).collect();
    if let Some(path) = table {
        let gpm: Vec<(f64, f64)> = kinds
            .iter()
            .map(|&k| (games_per_minute(k, 1000, 20), games_per_minute(k, 10000, 4)))
            .collect();
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let (Some(a), Some(b)) = (
            text.find("<!-- figures -->"),
            text.rfind("<!-- /figures -->"),
        ) else {
            bail!(
                "{}: no <!-- figures --> ... <!-- /figures --> markers",
                path.display()
            );
        };
        let new = format!(
            "{}<!-- figures -->\n{}{}",
            &text[..a],
            markdown_table(&results, &gpm),
            &text[b..]
        );
        crate::output::replace_file(path, new.as_bytes())?;
    }
    if json {
        out!("{}", serde_json::to_string_pretty(&results)?);
    } else {
        for r in &results {
            let perft = if r.perft_depth == 0 {
                String::new()
            } else {
                format!(
                    "  perft({}) {:>11}  {:>6.1} M leaves/s",
                    r.perft_depth,
                    r.perft_nodes,
                    r.perft_nps / 1e6
                )
            };
            out!(
                "{:<22} signature {:>10}  search {:>6.2} M nodes/s{perft}",
                r.variant,
                r.nodes,
                r.nps / 1e6
            );
        }
        out!(
            "total signature {}",
            results.iter().map(|r| r.nodes).sum::<u64>()
        );
    }
    Ok(())
}

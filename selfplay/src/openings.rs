//! Openings: random legal plies from the start, or positions read from a file.

use anyhow::{bail, Context, Result};
use variantlab_engine::game::{outcome, Game};
use variantlab_engine::moves::MoveBuf;
use variantlab_engine::zobrist::SplitMix64;

/// Where games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// The start position followed by this many random legal plies (seeded per pair).
    RandomPlies(u32),
    /// Position texts, one per line of a file (used in turn, cycling).
    Positions(Vec<String>),
}

impl Openings {
    /// Parses `random-plies:P` or a file path; file lines are checked against the variant.
    ///
    /// # Errors
    /// A bad `random-plies` number, an unreadable or empty file, or a line that is not a
    /// legal position (with its line number).
    pub fn parse<G: Game>(spec: &str) -> Result<Openings> {
        if let Some(p) = spec.strip_prefix("random-plies:") {
            let plies: u32 = p
                .parse()
                .with_context(|| format!("--openings random-plies:{p}: not a number of plies"))?;
            if plies > 200 {
                bail!("--openings random-plies:{plies}: at most 200 plies");
            }
            return Ok(Openings::RandomPlies(plies));
        }
        let text = std::fs::read_to_string(spec)
            .with_context(|| format!("reading openings file {spec}"))?;
        let mut positions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let pos = G::from_text(line).with_context(|| format!("{spec}, line {}", i + 1))?;
            let mut moves = G::Moves::default();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                bail!(
                    "{spec}, line {}: the game is already over in this position",
                    i + 1
                );
            }
            positions.push(line.to_string());
        }
        if positions.is_empty() {
            bail!("openings file {spec} has no positions");
        }
        Ok(Openings::Positions(positions))
    }

    /// The opening of pair `pair_id`: a position and the text of the random plies played.
    pub fn opening<G: Game>(&self, pair_id: u64, seed: u64) -> (G, String) {
        match self {
            Openings::Positions(list) => {
                let text = &list[(pair_id % list.len() as u64) as usize];
                (
                    G::from_text(text).expect("validated when read"),
                    text.clone(),
                )
            }
            Openings::RandomPlies(plies) => {
                let mut rng = SplitMix64(seed ^ 0x6f70_656e_696e_6773);
                // Re-roll until the random line leaves a game that is not over.
                loop {
                    let mut pos = G::start();
                    let mut line = Vec::new();
                    let mut history = Vec::new();
                    for _ in 0..*plies {
                        let mut moves = G::Moves::default();
                        pos.legal_moves(&mut moves);
                        if moves.is_empty() {
                            break;
                        }
                        let m = moves.as_ref()[(rng.next() % moves.len() as u64) as usize];
                        line.push(pos.move_text(m));
                        history.push(pos.hash());
                        pos.play_unchecked(m);
                    }
                    if line.len() == *plies as usize && outcome(&pos, &history).is_none() {
                        return (pos, line.join(" "));
                    }
                }
            }
        }
    }
}

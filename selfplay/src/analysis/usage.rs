//! How a run's games use the variant's special rules (`usage.csv`) and how far apart its games are
//! after the opening (`diversity.csv`), from the recorded moves: the designer's "do players use the
//! special rules at all?" and "does every game go the same way?".
//!
//! A rule is what [`Game::rules_used`] names for a move (castling, a promotion or drop of a kind,
//! Extreme 2D's absorptions and area moves, the dialectic's token steps, ...); a rule with kinds
//! has a row per kind and one, its kind empty, over all of them. Per row: its uses, the share of
//! games that use it at least once (with the 95% interval that treats a colour-swapped pair as one
//! cluster, as every rate of `stats`), and the median ply of a game's first use. Diversity: at
//! [`DIVERSITY_PLIES`] plies after each game's opening, how many games are still going and how many
//! distinct positions they are in.

use super::{pair_clusters, RunData};
use crate::run::recorded::{read_games, read_moves, replay, GameRow, Ply};
use crate::stats::{fixed, unit_mean_interval, z_for_confidence, Cluster, Estimate};
use anyhow::Result;
use std::collections::{BTreeMap, HashMap, HashSet};
use variantlab_engine::game::{Game, RuleUse};
use variantlab_engine::with_variant;

/// Plies after the opening at which the games' positions are compared.
pub const DIVERSITY_PLIES: [usize; 2] = [10, 20];

/// One rule's use over a run.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleRow {
    /// The rule and kind.
    pub rule: RuleUse,
    /// Moves that used it.
    pub uses: u64,
    /// Games that used it at least once.
    pub games_using: u64,
    /// Share of games that used it, with its interval.
    pub share: Estimate,
    /// Median ply (after the opening, from 1) of a using game's first use.
    pub first_ply_median: f64,
}

/// The positions of the games at one ply after their openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diversity {
    /// Plies after the opening.
    pub ply: usize,
    /// Games that lasted that long.
    pub reaching: usize,
    /// Distinct positions among them (by the position's hash).
    pub distinct: usize,
}

/// A run's rule usage and diversity.
#[derive(Clone, Debug, PartialEq)]
pub struct Usage {
    /// Games read.
    pub games: usize,
    /// One row per rule used, in rule order.
    pub rules: Vec<RuleRow>,
    /// One row per ply of [`DIVERSITY_PLIES`].
    pub diversity: Vec<Diversity>,
    /// Per game id, the uses of each rule (over its kinds) in that game; a game that used no
    /// rule has no entry ([`super::typical`] picks a game by them).
    pub per_game: BTreeMap<u64, BTreeMap<&'static str, u64>>,
}

/// The usage of `run`, replaying its recorded moves; `None` for a run without them.
///
/// # Errors
/// An unreadable `games.csv` or `moves.csv`, a bad opening or an illegal recorded move.
pub fn usage(run: &RunData) -> Result<Option<Usage>> {
    if !run.config.record_moves {
        return Ok(None);
    }
    let games = read_games(&run.dir)?;
    let moves = read_moves(&run.dir)?;
    with_variant!(run.config.variant, G => usage_of::<G>(run, &games, &moves)).map(Some)
}

fn usage_of<G: Game>(
    run: &RunData,
    games: &[GameRow],
    moves: &HashMap<u64, Vec<Ply>>,
) -> Result<Usage> {
    // Per rule: (game id, uses in it, ply of its first use) of each game that used it.
    let mut by_rule: BTreeMap<RuleUse, Vec<(u64, u64, usize)>> = BTreeMap::new();
    let mut seen: Vec<HashSet<u64>> = vec![HashSet::new(); DIVERSITY_PLIES.len()];
    let mut reaching = vec![0; DIVERSITY_PLIES.len()];
    let mut per_game = BTreeMap::new();
    for g in games {
        let plies = moves.get(&g.id).map(Vec::as_slice).unwrap_or(&[]);
        let mut used: BTreeMap<RuleUse, (u64, usize)> = BTreeMap::new();
        let mut at = |ply: usize, hash: u64| {
            if let Some(k) = DIVERSITY_PLIES.iter().position(|&p| p == ply) {
                seen[k].insert(hash);
                reaching[k] += 1;
            }
        };
        let last: G = replay(&run.config, &run.dir, g, plies, |ply, pos: &G, m| {
            at(ply, pos.hash());
            for u in pos.rules_used(m) {
                // A rule with kinds is counted per kind and, kind left out, over all of them.
                let all = RuleUse { kind: None, ..u };
                for key in std::iter::once(u).chain((u != all).then_some(all)) {
                    used.entry(key).or_insert((0, ply + 1)).0 += 1;
                }
            }
            Ok(())
        })?;
        at(plies.len(), last.hash());
        let whole: BTreeMap<&'static str, u64> = used
            .iter()
            .filter(|(r, _)| r.kind.is_none())
            .map(|(r, &(uses, _))| (r.rule, uses))
            .collect();
        if !whole.is_empty() {
            per_game.insert(g.id, whole);
        }
        for (rule, (uses, first)) in used {
            by_rule.entry(rule).or_default().push((g.id, uses, first));
        }
    }
    let z = z_for_confidence(0.95);
    let rules = by_rule
        .into_iter()
        .map(|(rule, list)| {
            let using: HashSet<u64> = list.iter().map(|l| l.0).collect();
            let clusters: Vec<(Cluster, f64)> = pair_clusters(
                run,
                &|g| f64::from(u8::from(using.contains(&g.id))),
                &|_| true,
            )
            .into_iter()
            .map(|c| (c, 1.0))
            .collect();
            let (low, high) = unit_mean_interval(&clusters, z);
            let mut firsts: Vec<usize> = list.iter().map(|l| l.2).collect();
            firsts.sort_unstable();
            let n = firsts.len();
            let median = (firsts[(n - 1) / 2] + firsts[n / 2]) as f64 / 2.0;
            RuleRow {
                rule,
                uses: list.iter().map(|l| l.1).sum(),
                games_using: n as u64,
                share: Estimate {
                    value: n as f64 / games.len() as f64,
                    low,
                    high,
                },
                first_ply_median: median,
            }
        })
        .collect();
    let diversity = DIVERSITY_PLIES
        .iter()
        .enumerate()
        .map(|(k, &ply)| Diversity {
            ply,
            reaching: reaching[k],
            distinct: seen[k].len(),
        })
        .collect();
    Ok(Usage {
        games: games.len(),
        rules,
        diversity,
        per_game,
    })
}

/// Columns of `usage.csv`.
pub const USAGE_HEADER: [&str; 12] = [
    "variant",
    "dir",
    "games",
    "rule",
    "kind",
    "uses",
    "uses_per_game",
    "games_using",
    "share_of_games",
    "share_low",
    "share_high",
    "first_use_ply_median",
];

/// Rows of `usage.csv` for `run`.
pub fn usage_rows(run: &RunData, u: &Usage) -> Vec<Vec<String>> {
    u.rules
        .iter()
        .map(|r| {
            vec![
                run.config.variant.name().to_string(),
                run.dir.display().to_string(),
                u.games.to_string(),
                r.rule.rule.to_string(),
                r.rule.kind.unwrap_or_default().to_string(),
                r.uses.to_string(),
                fixed(r.uses as f64 / u.games.max(1) as f64, 3),
                r.games_using.to_string(),
                fixed(r.share.value, 4),
                fixed(r.share.low, 4),
                fixed(r.share.high, 4),
                fixed(r.first_ply_median, 1),
            ]
        })
        .collect()
}

/// Columns of `diversity.csv`.
pub const DIVERSITY_HEADER: [&str; 6] = [
    "variant",
    "dir",
    "ply_after_opening",
    "games_reaching",
    "distinct_positions",
    "distinct_share",
];

/// Rows of `diversity.csv` for `run`.
pub fn diversity_rows(run: &RunData, u: &Usage) -> Vec<Vec<String>> {
    u.diversity
        .iter()
        .map(|d| {
            vec![
                run.config.variant.name().to_string(),
                run.dir.display().to_string(),
                d.ply.to_string(),
                d.reaching.to_string(),
                d.distinct.to_string(),
                fixed(d.distinct as f64 / d.reaching.max(1) as f64, 4),
            ]
        })
        .collect()
}

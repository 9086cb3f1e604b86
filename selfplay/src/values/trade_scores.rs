//! How each trade scored, in games from `trades:P` openings
//! ([`crate::run::openings::Openings::Trades`]): the direct answer to a designer's "is a Queen
//! worth a Rook, a Knight and a Pawn here?", beside the `balanced` piece values that the
//! same games feed. A trade's score is that of the side holding its dearest differing kind
//! (the Queen against a Rook, a Knight and a Pawn), with a 95% interval clustered by game
//! pair (both games of a pair start from the same position).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use variantlab_engine::game::Game;

use crate::run::recorded::RunData;
use crate::stats::{elo_from_score, unit_mean_interval, z_for_confidence, Cluster};

/// One trade's games and score.
#[derive(Clone, Debug, PartialEq)]
pub struct TradeScore {
    /// The trade, the dearer side first: `queen against rook + knight + pawn`.
    pub trade: String,
    /// Games that started with it.
    pub games: u64,
    /// The dearer side's mean score.
    pub score: f64,
    /// Its 95% interval, clustered by pair.
    pub interval: (f64, f64),
}

/// The material difference of a position (White's counts less Black's, per kind).
type Difference = Vec<i32>;

/// Tallies games given as (pair, start position, White's points): one row per distinct
/// material difference at the start, the dearer side's view, most played first. A start
/// with equal material is left out.
pub fn tally<G: Game>(games: impl IntoIterator<Item = (u64, G, f64)>) -> Vec<TradeScore> {
    let kinds = G::start().material_kinds();
    // Kinds from the dearest down: the first that differs says whose side is "dearer".
    let mut dearest: Vec<usize> = (0..kinds.len()).collect();
    dearest.sort_by_key(|&k| std::cmp::Reverse(kinds[k].1));
    let mut by_trade: BTreeMap<Difference, BTreeMap<u64, Cluster>> = BTreeMap::new();
    for (pair, pos, white_points) in games {
        let m = pos.material();
        let mut diff: Difference = (0..kinds.len())
            .map(|k| i32::from(m[0][k]) - i32::from(m[1][k]))
            .collect();
        let Some(&lead) = dearest.iter().find(|&&k| diff[k] != 0) else {
            continue;
        };
        let points = if diff[lead] < 0 {
            diff.iter_mut().for_each(|d| *d = -*d);
            1.0 - white_points
        } else {
            white_points
        };
        let c = by_trade
            .entry(diff)
            .or_default()
            .entry(pair)
            .or_insert(Cluster {
                total: 0.0,
                size: 0.0,
            });
        c.total += points;
        c.size += 1.0;
    }
    let z = z_for_confidence(0.95);
    let side = |diff: &Difference, sign: i32| -> String {
        let parts: Vec<String> = dearest
            .iter()
            .filter(|&&k| diff[k] * sign > 0)
            .map(|&k| {
                let key = crate::run::config::piece_key(kinds[k].0);
                match diff[k].abs() {
                    1 => key,
                    n => format!("{n}×{key}"),
                }
            })
            .collect();
        parts.join(" + ")
    };
    let mut out: Vec<TradeScore> = by_trade
        .into_iter()
        .map(|(diff, pairs)| {
            let clusters: Vec<(Cluster, f64)> = pairs.into_values().map(|c| (c, 1.0)).collect();
            let games: f64 = clusters.iter().map(|(c, _)| c.size).sum();
            let total: f64 = clusters.iter().map(|(c, _)| c.total).sum();
            let (lo_side, hi_side) = (side(&diff, -1), side(&diff, 1));
            TradeScore {
                trade: if lo_side.is_empty() {
                    format!("{hi_side} against nothing")
                } else {
                    format!("{hi_side} against {lo_side}")
                },
                games: games as u64,
                score: total / games,
                interval: unit_mean_interval(&clusters, z),
            }
        })
        .collect();
    out.sort_by(|a, b| b.games.cmp(&a.games).then(a.trade.cmp(&b.trade)));
    out
}

/// The trade scores of the runs among `runs` played from `trades:` openings (none where no
/// run was).
///
/// # Errors
/// An unreadable `games.csv` or an opening that does not parse.
pub fn of_runs<G: Game>(runs: &[RunData]) -> Result<Vec<TradeScore>> {
    let mut games = Vec::new();
    for (ri, run) in runs.iter().enumerate() {
        if !run.config.openings.starts_with("trades:") {
            continue;
        }
        for row in crate::run::recorded::read_games(&run.dir)? {
            let pos: G = crate::run::recorded::opening_position(&run.config, &run.dir, &row)?;
            // Pairs of different runs are different pairs.
            games.push((
                ((ri as u64) << 40) | (row.id / 2),
                pos,
                f64::from(row.white_points()),
            ));
        }
    }
    Ok(tally(games))
}

/// Writes `rows` as CSV (the score and its interval, and the same as logistic Elo).
///
/// # Errors
/// The file cannot be written.
pub fn write_csv(path: &Path, rows: &[TradeScore]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record([
        "trade",
        "games",
        "score",
        "score_low",
        "score_high",
        "elo",
        "elo_low",
        "elo_high",
    ])?;
    for r in rows {
        let (lo, hi) = r.interval;
        w.write_record([
            r.trade.clone(),
            r.games.to_string(),
            format!("{:.4}", r.score),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            format!("{:.1}", elo_from_score(r.score)),
            format!("{:.1}", elo_from_score(lo)),
            format!("{:.1}", elo_from_score(hi)),
        ])?;
    }
    w.flush()
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::openings::{even_trades, trade_start};
    use variantlab_engine::position::Position;
    use variantlab_engine::Color;
    type Chess = Position<variantlab_engine::variants::Chess>;

    #[test]
    fn a_trade_is_scored_for_the_side_with_its_dearest_piece() {
        let kinds = Chess::start().material_kinds();
        let key = |k: usize| crate::run::config::piece_key(kinds[k].0);
        let queen = even_trades::<Chess>()
            .into_iter()
            .find(|t| key(t.one) == "queen" && t.others.len() == 3)
            .expect("chess has a Queen against three pieces");
        // White gives up the Queen and wins both games of pair 0: the Queen's side scored 0.
        // Black gives it up in pair 1, a draw and a White win: the Queen's side (White) 0.75.
        let white_gives = trade_start::<Chess>(&queen, Color::White).unwrap();
        let black_gives = trade_start::<Chess>(&queen, Color::Black).unwrap();
        let rows = tally(vec![
            (0, white_gives, 1.0),
            (0, white_gives, 1.0),
            (1, black_gives, 0.5),
            (1, black_gives, 1.0),
            (2, Chess::start(), 1.0),
        ]);
        assert_eq!(rows.len(), 1, "{rows:?}");
        let r = &rows[0];
        assert!(r.trade.starts_with("queen against "), "{}", r.trade);
        for &k in &queen.others {
            assert!(r.trade.contains(&key(k)), "{}", r.trade);
        }
        assert_eq!(r.games, 4);
        assert!((r.score - 0.375).abs() < 1e-9, "{}", r.score);
        assert!(
            r.interval.0 < r.score && r.score < r.interval.1,
            "{:?}",
            r.interval
        );
    }
}

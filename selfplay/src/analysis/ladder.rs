//! The strength ladder: one variant played by the same players at several node counts
//! (`make findings`), and how each figure moves with strength.
//!
//! `stats` writes `ladder.csv` (one row per node-limited run: its level and figures) and
//! `trend.csv` (per ladder and figure, the change per doubling of nodes with its interval);
//! the report draws each ladder. A claim about a variant says whether it holds at every level.

use crate::analysis::{balance, Balance, RunData};
use crate::stats::{fixed, z_for_confidence, Estimate};
use std::collections::BTreeMap;

/// One level of a ladder: a run and its figures.
pub struct Rung<'a> {
    /// The run.
    pub run: &'a RunData,
    /// Its nodes per move.
    pub nodes: u64,
    /// Its figures.
    pub balance: Balance,
}

/// The runs of one variant by the same players from the same openings, at several node counts.
pub struct Ladder<'a> {
    /// The variant's name.
    pub variant: String,
    /// The players (`default`, or `A v B` when they differ).
    pub players: String,
    /// The levels, fewest nodes first.
    pub rungs: Vec<Rung<'a>>,
}

/// A figure of a rung, by name: the columns of `ladder.csv` and the rows of `trend.csv`.
pub const FIGURES: [(&str, usize); 4] = [
    ("white_score", 4),
    ("draw_rate", 4),
    ("unconverted_rate", 4),
    ("mean_plies", 2),
];

impl Ladder<'_> {
    /// Whether the ladder has two node counts or more (runs at one count are not a ladder).
    pub fn climbs(&self) -> bool {
        self.rungs.iter().any(|r| r.nodes != self.rungs[0].nodes)
    }
}

impl Rung<'_> {
    /// The figure named in [`FIGURES`], if the run has it.
    pub fn figure(&self, name: &str) -> Option<Estimate> {
        let b = &self.balance;
        match name {
            "white_score" => Some(b.white_score),
            "draw_rate" => Some(b.draw_rate),
            "unconverted_rate" => b.unconverted.map(|(_, e)| e),
            "mean_plies" => b.duration,
            _ => None,
        }
    }
}

/// The players of a run, as a ladder names them.
fn players(run: &RunData) -> String {
    let (w, b) = (&run.config.white.name, &run.config.black.name);
    if w == b {
        w.clone()
    } else {
        format!("{w} v {b}")
    }
}

/// The node-limited runs grouped into ladders: same variant, players, openings, seed and ply
/// cap; each group's runs in order of nodes. A group with a single level is a ladder of one.
pub fn ladders(runs: &[RunData]) -> Vec<Ladder<'_>> {
    let mut groups: BTreeMap<(String, String, String, u64, u32), Vec<Rung<'_>>> = BTreeMap::new();
    for run in runs {
        let c = &run.config;
        let Some(nodes) = c.nodes else { continue };
        let key = (
            c.variant.name().to_string(),
            players(run),
            c.openings.clone(),
            c.seed,
            c.adjudication.max_plies,
        );
        groups.entry(key).or_default().push(Rung {
            run,
            nodes,
            balance: balance(run),
        });
    }
    groups
        .into_iter()
        .map(|((variant, players, ..), mut rungs)| {
            rungs.sort_by_key(|r| r.nodes);
            Ladder {
                variant,
                players,
                rungs,
            }
        })
        .collect()
}

/// The change of a figure per doubling of nodes: the slope of the weighted least-squares line
/// through the levels' estimates against log2(nodes), each level weighted by the inverse
/// square of its standard error (its 95% interval's width / 3.92), with a 95% interval.
/// `None` with fewer than two distinct levels.
///
/// The levels of a ladder share their openings, so their errors are positively correlated;
/// taking them as independent makes the slope's interval wider than it need be, never
/// narrower.
pub fn per_doubling(points: &[(u64, Estimate)]) -> Option<Estimate> {
    let z = z_for_confidence(0.95);
    let pts: Vec<(f64, f64, f64)> = points
        .iter()
        .map(|(n, e)| {
            let se = ((e.high - e.low) / (2.0 * z)).max(1e-9);
            ((*n as f64).log2(), e.value, 1.0 / (se * se))
        })
        .collect();
    let sw: f64 = pts.iter().map(|p| p.2).sum();
    let xm = pts.iter().map(|p| p.0 * p.2).sum::<f64>() / sw;
    let ym = pts.iter().map(|p| p.1 * p.2).sum::<f64>() / sw;
    let sxx: f64 = pts.iter().map(|p| p.2 * (p.0 - xm).powi(2)).sum();
    if pts.len() < 2 || sxx <= 0.0 {
        return None;
    }
    let slope = pts
        .iter()
        .map(|p| p.2 * (p.0 - xm) * (p.1 - ym))
        .sum::<f64>()
        / sxx;
    let half = z / sxx.sqrt();
    Some(Estimate {
        value: slope,
        low: slope - half,
        high: slope + half,
    })
}

/// Columns of `ladder.csv`.
pub fn ladder_header() -> Vec<String> {
    let mut h: Vec<String> = [
        "variant",
        "players",
        "run",
        "nodes",
        "games",
        "decisive_games",
        "unconverted_games",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (name, _) in FIGURES {
        h.extend([
            name.to_string(),
            format!("{name}_low"),
            format!("{name}_high"),
        ]);
    }
    h
}

/// `ladder.csv`'s rows: every rung of every ladder.
pub fn ladder_rows(ladders: &[Ladder]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for l in ladders {
        for r in &l.rungs {
            let b = &r.balance;
            let mut row = vec![
                l.variant.clone(),
                l.players.clone(),
                r.run.dir.display().to_string(),
                r.nodes.to_string(),
                b.stats.games().to_string(),
                b.decisive.to_string(),
                b.unconverted.map_or(String::new(), |(n, _)| n.to_string()),
            ];
            for (name, digits) in FIGURES {
                let e = r.figure(name);
                row.extend(e.map_or_else(Default::default, |e| {
                    [e.value, e.low, e.high].map(|x| fixed(x, digits))
                }));
            }
            rows.push(row);
        }
    }
    rows
}

/// Columns of `trend.csv`.
pub const TREND_HEADER: [&str; 9] = [
    "variant",
    "players",
    "figure",
    "levels",
    "nodes_from",
    "nodes_to",
    "per_doubling",
    "per_doubling_low",
    "per_doubling_high",
];

/// `trend.csv`'s rows: each figure of each ladder of two node counts or more.
pub fn trend_rows(ladders: &[Ladder]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for l in ladders.iter().filter(|l| l.climbs()) {
        for (name, digits) in FIGURES {
            let points: Vec<(u64, Estimate)> = l
                .rungs
                .iter()
                .filter_map(|r| r.figure(name).map(|e| (r.nodes, e)))
                .collect();
            let Some(t) = per_doubling(&points) else {
                continue;
            };
            rows.push(vec![
                l.variant.clone(),
                l.players.clone(),
                name.to_string(),
                points.len().to_string(),
                points[0].0.to_string(),
                points[points.len() - 1].0.to_string(),
                fixed(t.value, digits),
                fixed(t.low, digits),
                fixed(t.high, digits),
            ]);
        }
    }
    rows
}

/// The report's section on the ladders of two node counts or more (empty without one): per
/// ladder, a table of its levels, White's score and the draw rate by level as interval
/// charts, and each figure's trend per doubling.
pub fn report_html(runs: &[RunData]) -> String {
    use crate::analysis::charts::{interval_chart, ChartRow};
    use crate::analysis::viewer::esc;
    let ladders: Vec<Ladder> = ladders(runs).into_iter().filter(Ladder::climbs).collect();
    if ladders.is_empty() {
        return String::new();
    }
    let mut html = String::from("<h2>Strength ladder</h2><p class=note>The same variant, players and openings at several nodes per move: does a figure hold as play gets stronger? Trends are the weighted least-squares slope per doubling of nodes, with 95% intervals (the levels share their openings, so the intervals are conservative).</p>");
    let trends = trend_rows(&ladders);
    for l in &ladders {
        html += &format!(
            "<h3>{} ({})</h3><table><tr><th>nodes</th><th>games</th><th>White score</th><th>draw rate</th><th>unconverted draws</th><th>mean plies</th></tr>",
            esc(&l.variant),
            esc(&l.players)
        );
        let show = |e: Option<Estimate>, d: usize| e.map_or("n/a".to_string(), |e| e.show(d));
        let (mut score_rows, mut draw_rows) = (Vec::new(), Vec::new());
        for r in &l.rungs {
            let b = &r.balance;
            html += &format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                r.nodes,
                b.stats.games(),
                b.white_score.show(3),
                b.draw_rate.show(3),
                b.unconverted
                    .map_or("n/a".to_string(), |(n, e)| format!("{n} ({})", e.show(3))),
                show(b.duration, 1)
            );
            let label = format!("{} nodes", r.nodes);
            let (w, d) = (&b.white_score, &b.draw_rate);
            score_rows.push(ChartRow::estimate(label.clone(), w.value, w.low, w.high, 3));
            draw_rows.push(ChartRow::estimate(label, d.value, d.low, d.high, 3));
        }
        html += "</table><ul>";
        for t in trends
            .iter()
            .filter(|t| t[0] == l.variant && t[1] == l.players)
        {
            html += &format!(
                "<li>{}: {} [{}, {}] per doubling of nodes</li>",
                esc(&t[2]),
                t[6],
                t[7],
                t[8]
            );
        }
        html += "</ul><div class=grid><div><h4>White's score</h4>";
        html += &interval_chart(&score_rows, (0.0, 1.0, 0.25), Some(0.5));
        html += "</div><div><h4>Draw rate</h4>";
        html += &interval_chart(&draw_rows, (0.0, 1.0, 0.25), None);
        html += "</div></div>";
    }
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(value: f64, half: f64) -> Estimate {
        Estimate {
            value,
            low: value - half,
            high: value + half,
        }
    }

    #[test]
    fn a_straight_line_gives_its_slope_and_the_textbook_interval() {
        // 0.50, 0.52, 0.54 at 1k, 2k, 4k with equal intervals: 0.02 per doubling, and the
        // slope's standard error is se / sqrt(sum (x - mean)^2) = se / sqrt(2).
        let t = per_doubling(&[
            (1000, e(0.50, 0.1)),
            (2000, e(0.52, 0.1)),
            (4000, e(0.54, 0.1)),
        ])
        .unwrap();
        assert!((t.value - 0.02).abs() < 1e-12, "{t:?}");
        let z = z_for_confidence(0.95);
        let se = 0.2 / (2.0 * z);
        assert!(
            (t.high - t.value - z * se / 2f64.sqrt()).abs() < 1e-12,
            "{t:?}"
        );
    }

    #[test]
    fn a_precise_level_weighs_more_than_a_rough_one() {
        // A flat pair of precise levels and a rough outlier: the line stays near flat.
        let t = per_doubling(&[
            (1000, e(0.5, 0.01)),
            (2000, e(0.5, 0.01)),
            (4000, e(0.9, 1.0)),
        ])
        .unwrap();
        assert!(t.value.abs() < 0.01, "{t:?}");
    }

    #[test]
    fn one_level_has_no_trend() {
        assert!(per_doubling(&[(1000, e(0.5, 0.1))]).is_none());
        assert!(per_doubling(&[(1000, e(0.5, 0.1)), (1000, e(0.6, 0.1))]).is_none());
    }

    /// Coverage by simulation: levels drawn around a known line with their stated errors;
    /// the 95% interval of the slope must contain the true slope about 95% of the time.
    #[test]
    fn the_interval_covers_the_true_slope() {
        let mut rng = variantlab_engine::zobrist::SplitMix64(7);
        let mut normal = || {
            // Box–Muller from two uniforms in (0, 1].
            let u = |r: &mut variantlab_engine::zobrist::SplitMix64| {
                ((r.next() >> 11) as f64 + 1.0) / (1u64 << 53) as f64
            };
            let (a, b) = (u(&mut rng), u(&mut rng));
            (-2.0 * a.ln()).sqrt() * (2.0 * std::f64::consts::PI * b).cos()
        };
        let z = z_for_confidence(0.95);
        let (trials, mut covered) = (4000, 0);
        for _ in 0..trials {
            let points: Vec<(u64, Estimate)> = [(1000u64, 0.03), (4000, 0.05), (16000, 0.02)]
                .iter()
                .map(|&(n, se)| {
                    let truth = 0.5 + 0.01 * (n as f64 / 1000.0).log2();
                    (n, e(truth + se * normal(), z * se))
                })
                .collect();
            let t = per_doubling(&points).unwrap();
            covered += usize::from(t.low <= 0.01 && 0.01 <= t.high);
        }
        let rate = covered as f64 / trials as f64;
        assert!((0.93..=0.97).contains(&rate), "coverage {rate}");
    }
}

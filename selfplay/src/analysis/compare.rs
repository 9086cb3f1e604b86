//! `variantlab compare BASE ALT...`: a variant's alternatives against it, each figure as one
//! difference ALT − BASE with its 95% interval, a verdict, and the games a run would need to
//! show a difference of a given size (docs/statistics.md, "Comparing variants").
//!
//! The runs are taken as independent samples, each clustered by colour-swapped pair as
//! `stats` clusters it, so the variance of a difference is the sum of the two runs'. Runs
//! that start from the same openings are positively correlated; taking them as independent
//! makes the interval wider than it need be, never narrower.

use crate::analysis::value_files::{piece_value_files, read_piece_values};
use crate::analysis::{
    balance, kind_values, load, pair_clusters, unconverted, white_points, write_table, Balance,
    GameRecord, RunData,
};
use crate::output::out;
use crate::stats::{
    fixed, mean_spread, normal_quantile, unit_mean_spread, z_for_confidence, Cluster, Estimate,
    GameResult, Spread,
};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The figures compared, in row order: name, its `--detect` key, digits, and whether it is a
/// rate in `[0, 1]` (whose difference lies in `[-1, 1]`).
pub const METRICS: [(&str, &str, usize, bool); 5] = [
    ("white_score", "score", 4, true),
    ("draw_rate", "draw", 4, true),
    ("decisive_rate", "decisive", 4, true),
    ("unconverted_rate", "unconverted", 4, true),
    ("mean_plies", "length", 2, false),
];

/// The `--detect` key of the piece values' rows, and the digits they are written with.
const VALUE_KEY: &str = "value";
const VALUE_DIGITS: usize = 2;

/// The differences worth detecting unless `--detect` says otherwise: two points of White's
/// score (about 14 Elo), five of the draw and decisive rates, two of the unconverted rate,
/// ten plies of length and a quarter unit of a piece's value.
pub const DEFAULT_DETECT: &str =
    "score=0.02,draw=0.05,decisive=0.05,unconverted=0.02,length=10,value=0.25";

/// The power the games needed are computed for, at the 95% interval's confidence.
pub const POWER: f64 = 0.8;

/// `--detect`'s sizes by key: [`DEFAULT_DETECT`] with the given `key=size` pairs over it.
///
/// # Errors
/// An unknown key, or a size that is not a positive number.
pub fn parse_detect(text: &str) -> Result<BTreeMap<String, f64>> {
    let mut sizes = BTreeMap::new();
    for spec in [DEFAULT_DETECT, text] {
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, size) = item
                .split_once('=')
                .with_context(|| format!("--detect {item:?}: expected KEY=SIZE"))?;
            let known = METRICS.iter().any(|m| m.1 == key) || key == VALUE_KEY;
            if !known {
                let keys: Vec<&str> = METRICS.iter().map(|m| m.1).collect();
                bail!(
                    "--detect {item:?}: no figure {key:?}; the keys are {}, {VALUE_KEY}",
                    keys.join(", ")
                );
            }
            let size: f64 = size
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite() && *x > 0.0)
                .with_context(|| {
                    format!("--detect {item:?}: the size must be a positive number")
                })?;
            sizes.insert(key.to_string(), size);
        }
    }
    Ok(sizes)
}

/// One run's figure as a difference needs it: the plain mean, the spread of its interval
/// and the games it rests on.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The plain mean (the figure `stats` writes).
    pub value: f64,
    /// The interval's centre and standard error.
    pub spread: Spread,
    /// Games.
    pub games: f64,
}

impl Sample {
    /// A rate in `[0, 1]` from clusters of games, as `stats` estimates it (the
    /// pseudo-clusters of [`unit_mean_spread`]); `None` with no games.
    pub fn unit(clusters: &[Cluster]) -> Option<Sample> {
        let weighted: Vec<(Cluster, f64)> = clusters.iter().map(|&c| (c, 1.0)).collect();
        let spread = unit_mean_spread(&weighted, z_for_confidence(0.95))?;
        let games: f64 = clusters.iter().map(|c| c.size).sum();
        let total: f64 = clusters.iter().map(|c| c.total).sum();
        Some(Sample {
            value: total / games,
            spread,
            games,
        })
    }

    /// An unbounded mean (game length) from clusters of games; `None` with fewer than two.
    pub fn mean(clusters: &[Cluster]) -> Option<Sample> {
        let spread = mean_spread(clusters)?;
        Some(Sample {
            value: spread.centre,
            spread,
            games: spread.games,
        })
    }

    /// The per-game variance behind the standard error (the pairs' correlation included):
    /// the standard error squared times the games.
    fn per_game_variance(&self) -> f64 {
        self.spread.se().powi(2) * self.games
    }
}

/// The difference `alt − base` of two independent samples: the plain means' difference, with
/// the 95% interval around the centres' difference whose variance is the sum of the two
/// (clipped to `bounds` when given).
pub fn difference(base: &Sample, alt: &Sample, bounds: Option<(f64, f64)>) -> Estimate {
    let z = z_for_confidence(0.95);
    let centre = alt.spread.centre - base.spread.centre;
    let half = z * (alt.spread.se().powi(2) + base.spread.se().powi(2)).sqrt();
    let (low, high) = (centre - half, centre + half);
    let (low, high) = bounds.map_or((low, high), |(l, h)| (low.max(l), high.min(h)));
    Estimate {
        value: alt.value - base.value,
        low,
        high,
    }
}

/// Whether an interval shows a difference: it excludes 0.
pub fn shown(d: &Estimate) -> bool {
    d.low > 0.0 || d.high < 0.0
}

/// The games per run that show a difference of `size` at 95% confidence with [`POWER`],
/// from the per-game variances the two samples observed:
/// `n = ((z_0.975 + z_power) / size)² (σ²_base + σ²_alt)`, rounded up to whole pairs.
/// `None` for a size of 0 (no number of games shows a difference of nothing).
pub fn games_needed(base: &Sample, alt: &Sample, size: f64) -> Option<u64> {
    let var = base.per_game_variance() + alt.per_game_variance();
    if size.abs() <= 0.0 || !var.is_finite() || !size.is_finite() {
        return None;
    }
    let z = z_for_confidence(0.95) + normal_quantile(POWER);
    let n = (z / size).powi(2) * var;
    Some(((n / 2.0).ceil() as u64 * 2).max(2))
}

/// One run: its balance (for the games and completeness) and each figure's sample.
struct Side<'a> {
    run: &'a RunData,
    balance: Balance,
    samples: BTreeMap<&'static str, Sample>,
}

impl<'a> Side<'a> {
    fn new(run: &'a RunData) -> Side<'a> {
        Side {
            run,
            balance: balance(run),
            samples: METRICS
                .iter()
                .filter_map(|m| Some((m.0, sample(run, m.0)?)))
                .collect(),
        }
    }

    fn name(&self) -> String {
        format!(
            "{} ({})",
            self.run.dir.display(),
            self.run.config.variant.name()
        )
    }
}

/// A figure of [`METRICS`] of a run, by name; `None` where the run cannot say (no material
/// recorded, fewer than two pairs for a length).
fn sample(run: &RunData, metric: &str) -> Option<Sample> {
    let all = |_: &GameRecord| true;
    let unit = |value: &dyn Fn(&GameRecord) -> f64| Sample::unit(&pair_clusters(run, value, &all));
    let indicator = |b: bool| f64::from(u8::from(b));
    match metric {
        "white_score" => unit(&|g| white_points(g.result)),
        "draw_rate" => unit(&|g| indicator(g.result == GameResult::Draw)),
        "decisive_rate" => unit(&|g| indicator(g.result != GameResult::Draw)),
        "unconverted_rate" => {
            let values = kind_values(run)?;
            unit(&|g| indicator(unconverted(g, &values)))
        }
        "mean_plies" => Sample::mean(&pair_clusters(run, &|g| f64::from(g.plies), &all)),
        _ => None,
    }
}

/// The piece values of a run: the first `piece_values.csv` in or beside its folder with rows
/// for its variant; per (piece, method) a sample from the value, its interval (standard
/// error: the interval's width / 3.92) and games; with the file, and each method's unit.
struct Values {
    file: PathBuf,
    samples: BTreeMap<(String, String), Sample>,
    units: BTreeMap<String, String>,
}

fn piece_values(run: &RunData) -> Result<Option<Values>> {
    let variant = run.config.variant.name();
    let z = z_for_confidence(0.95);
    for file in piece_value_files(run) {
        let rows = read_piece_values(&file)?;
        let mut found = Values {
            file: file.clone(),
            samples: BTreeMap::new(),
            units: BTreeMap::new(),
        };
        let mut any = false;
        for (i, row) in rows.iter().enumerate().filter(|(_, r)| r[0] == variant) {
            any = true;
            if row[7] == crate::values::row::UNIT_NOTE {
                found.units.insert(row[2].clone(), row[1].clone());
            }
            let num = |c: usize, what: &str| -> Result<Option<f64>> {
                if row[c].is_empty() {
                    return Ok(None);
                }
                let x: f64 = row[c]
                    .parse()
                    .ok()
                    .filter(|x: &f64| x.is_finite())
                    .with_context(|| {
                        format!(
                            "{}: line {}: {what} {:?} is not a number",
                            file.display(),
                            i + 2,
                            row[c]
                        )
                    })?;
                Ok(Some(x))
            };
            let (value, low, high, games) = (
                num(3, "value")?,
                num(4, "low")?,
                num(5, "high")?,
                num(6, "games")?,
            );
            if let (Some(value), Some(low), Some(high), Some(games)) = (value, low, high, games) {
                if games > 0.0 {
                    let se = (high - low) / (2.0 * z);
                    let spread = Spread {
                        centre: value,
                        root: se * games,
                        games,
                    };
                    found.samples.insert(
                        (row[1].clone(), row[2].clone()),
                        Sample {
                            value,
                            spread,
                            games,
                        },
                    );
                }
            }
        }
        if any {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// The pairs of two runs that start from the same position: the variants' start positions
/// are the same and the pair's opening (`games.csv`) is too. 0 for runs of different starts.
///
/// # Errors
/// An unreadable `games.csv`.
fn shared_openings(a: &RunData, b: &RunData) -> Result<usize> {
    let start =
        |r: &RunData| variantlab_engine::with_variant!(r.config.variant, G => G::start().to_text());
    if start(a) != start(b) {
        return Ok(0);
    }
    let openings = |r: &RunData| -> Result<BTreeMap<u64, String>> {
        Ok(crate::run::recorded::read_games(&r.dir)?
            .into_iter()
            .map(|g| (g.id / 2, g.opening))
            .collect())
    };
    let (oa, ob) = (openings(a)?, openings(b)?);
    Ok(oa
        .iter()
        .filter(|(pair, o)| ob.get(pair) == Some(o))
        .count())
}

/// Columns of `compare.csv`.
pub const HEADER: [&str; 17] = [
    "base",
    "base_variant",
    "alt",
    "alt_variant",
    "metric",
    "base_value",
    "alt_value",
    "difference",
    "low",
    "high",
    "verdict",
    "games_needed",
    "detect",
    "games_needed_detect",
    "base_games",
    "alt_games",
    "complete",
];

/// One comparison row: the figure, both samples and its `--detect` size and digits.
fn row(
    base: &Side,
    alt: &Side,
    metric: &str,
    (b, a): (&Sample, &Sample),
    (detect, digits, bounded): (f64, usize, bool),
) -> Vec<String> {
    let d = difference(b, a, bounded.then_some((-1.0, 1.0)));
    let needed = |size: f64| games_needed(b, a, size).map_or(String::new(), |n| n.to_string());
    vec![
        base.run.dir.display().to_string(),
        base.run.config.variant.name().to_string(),
        alt.run.dir.display().to_string(),
        alt.run.config.variant.name().to_string(),
        metric.to_string(),
        fixed(b.value, digits),
        fixed(a.value, digits),
        fixed(d.value, digits),
        fixed(d.low, digits),
        fixed(d.high, digits),
        if shown(&d) { "shown" } else { "not shown" }.to_string(),
        needed(d.value),
        fixed(detect, digits),
        needed(detect),
        fixed(b.games, 0),
        fixed(a.games, 0),
        (base.balance.complete() && alt.balance.complete()).to_string(),
    ]
}

/// The rows of one alternative against the base, and what the text says about its piece
/// values.
fn rows_of(
    base: &Side,
    alt: &Side,
    values: (&Option<Values>, &Option<Values>),
    detect: &BTreeMap<String, f64>,
) -> (Vec<Vec<String>>, String) {
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    for (name, key, digits, bounded) in METRICS {
        match (base.samples.get(name), alt.samples.get(name)) {
            (Some(b), Some(a)) => {
                rows.push(row(base, alt, name, (b, a), (detect[key], digits, bounded)));
            }
            _ => missing.push(name),
        }
    }
    let missing = if missing.is_empty() {
        String::new()
    } else {
        format!(
            "not in both runs (no material recorded, or fewer than two pairs): {}\n  ",
            missing.join(", ")
        )
    };
    let note = missing
        + &match values {
            (Some(vb), Some(va))
                if vb.file == va.file
                    && base.run.config.variant.name() == alt.run.config.variant.name() =>
            {
                format!(
                    "piece values: both runs read {}; no difference to take",
                    vb.file.display()
                )
            }
            (Some(vb), Some(va)) => {
                let mut n = 0;
                for ((piece, method), b) in &vb.samples {
                    let Some(a) = va.samples.get(&(piece.clone(), method.clone())) else {
                        continue;
                    };
                    if vb.units.get(method) != va.units.get(method) {
                        continue;
                    }
                    n += 1;
                    let metric = format!("value:{piece}:{method}");
                    rows.push(row(
                        base,
                        alt,
                        &metric,
                        (b, a),
                        (detect[VALUE_KEY], VALUE_DIGITS, false),
                    ));
                }
                format!(
                    "piece values: {n} kind(s) valued in both ({} and {})",
                    vb.file.display(),
                    va.file.display()
                )
            }
            _ => format!(
                "piece values: none found for {} (piece_values.csv in or beside the run folders)",
                [(values.0, base), (values.1, alt)]
                    .iter()
                    .filter(|(v, _)| v.is_none())
                    .map(|(_, s)| s.name())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        };
    (rows, note)
}

/// A `compare.csv` row as the terminal and the report show it: figure, base, alternative,
/// difference with its interval, verdict, games for the observed difference (`-` for none),
/// games for the `--detect` size.
fn cells(r: &[String]) -> [String; 7] {
    [
        r[4].clone(),
        r[5].clone(),
        r[6].clone(),
        format!("{} [{}, {}]", r[7], r[8], r[9]),
        r[10].clone(),
        if r[11].is_empty() {
            "-".to_string()
        } else {
            r[11].clone()
        },
        format!("{} for {}", r[13], r[12]),
    ]
}

/// Every run's side and piece values, in the runs' order.
fn sides_of(runs: &[RunData]) -> Result<(Vec<Side<'_>>, Vec<Option<Values>>)> {
    if let Some(empty) = runs.iter().find(|r| r.games.is_empty()) {
        bail!(
            "{}: the run has no games yet, so there is nothing to compare",
            empty.dir.display()
        );
    }
    let values = runs.iter().map(piece_values).collect::<Result<Vec<_>>>()?;
    Ok((runs.iter().map(Side::new).collect(), values))
}

/// The report's "Comparison" section: each run against `runs[base]`, the rows of
/// `compare.csv` at the default `--detect` sizes, one table per alternative.
///
/// # Errors
/// A run without games, an unreadable `piece_values.csv`.
pub fn report_html(runs: &[RunData], base: usize) -> Result<String> {
    use crate::analysis::viewer::esc;
    let detect = parse_detect("")?;
    let (sides, values) = sides_of(runs)?;
    let b = &sides[base];
    let mut html = format!(
        "<h2>Comparison</h2><p class=note>Each run against the base, {}, {}: the difference ALT − BASE with its 95% interval (the runs taken as independent samples, each clustered by pair), shown when the interval excludes 0; the games per run that would show the observed difference, and a difference of the default size, at 95% confidence with {:.0}% power (docs/statistics.md, \"Comparing variants\").</p>",
        esc(&b.name()),
        esc(&b.balance.games_text()),
        POWER * 100.0
    );
    for (i, alt) in sides.iter().enumerate().filter(|(i, _)| *i != base) {
        let (rows, note) = rows_of(b, alt, (&values[base], &values[i]), &detect);
        html += &format!(
            "<h3>{}, {}</h3><table><tr><th>figure</th><th>base</th><th>alternative</th><th>difference [95%]</th><th>verdict</th><th>games for it</th><th>games for a difference of</th></tr>",
            esc(&alt.name()),
            esc(&alt.balance.games_text())
        );
        for r in &rows {
            html += "<tr>";
            for (k, c) in cells(r).iter().enumerate() {
                let class = if k == 0 || k == 4 { " class=l" } else { "" };
                html += &format!("<td{class}>{}</td>", esc(c));
            }
            html += "</tr>";
        }
        html += &format!("</table><p class=note>{}</p>", esc(&note));
    }
    Ok(html)
}

/// `variantlab compare BASE ALT...`: writes `compare.csv` into `out` and prints each
/// alternative's differences against the first run folder.
///
/// # Errors
/// Fewer than two folders, a folder that is not a run or holds no games, an unreadable
/// `piece_values.csv`, a bad `--detect`, an unwritable output folder.
pub fn command(dirs: &[PathBuf], out: &Path, detect: &str) -> Result<()> {
    let detect = parse_detect(detect)?;
    if dirs.len() < 2 {
        bail!(
            "compare needs a base run folder and at least one alternative; got {}",
            dirs.first()
                .map_or("none".to_string(), |d| format!("only {}", d.display()))
        );
    }
    let runs = dirs.iter().map(|d| load(d)).collect::<Result<Vec<_>>>()?;
    let (sides, values) = sides_of(&runs)?;
    let base = &sides[0];
    let mut all = Vec::new();
    out!("base: {}, {}", base.name(), base.balance.games_text());
    for (alt, alt_values) in sides.iter().zip(&values).skip(1) {
        let (rows, note) = rows_of(base, alt, (&values[0], alt_values), &detect);
        out!(
            "\n{} against the base, {}",
            alt.name(),
            alt.balance.games_text()
        );
        out!(
            "  {:<28} {:>9} {:>9} {:>28}  {:<9}  {:>8}  {:>14}",
            "figure",
            "base",
            "alt",
            "difference [95%]",
            "verdict",
            "games*",
            "games for ±d"
        );
        for r in &rows {
            let [figure, b, a, d, verdict, needed, detect] = cells(r);
            out!("  {figure:<28} {b:>9} {a:>9} {d:>28}  {verdict:<9}  {needed:>8}  {detect:>14}");
        }
        out!("  {note}");
        let shared = shared_openings(base.run, alt.run)?;
        if shared > 0 {
            out!("  {shared} pair(s) start from the same position in both runs: their results are correlated, so these intervals (of independent runs) are wider than they need be");
        }
        all.extend(rows);
    }
    crate::output::create_folder(out)?;
    write_table(
        out,
        "compare.csv",
        HEADER.iter().map(|s| s.to_string()).collect(),
        all,
    )?;
    out!(
        "\n* games per run that would show the observed difference (95%, {:.0}% power); the last column: games for the --detect size",
        POWER * 100.0
    );
    out!("wrote {}", out.join("compare.csv").display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use variantlab_engine::zobrist::SplitMix64;

    fn uniform(r: &mut SplitMix64) -> f64 {
        (r.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A synthetic run of `pairs` colour-swapped pairs: White wins with `win`, draws with
    /// `draw`; each pair's opening moves White's win chance by ±`shift` in both its games (so
    /// they are correlated, as a pair from one opening is). Its White score, draw and length
    /// clusters (a game lasts 40 to 120 plies, longer in draws, the pair sharing half of it).
    fn run(
        r: &mut SplitMix64,
        pairs: usize,
        (win, draw, shift): (f64, f64, f64),
    ) -> [Vec<Cluster>; 3] {
        let mut out: [Vec<Cluster>; 3] = Default::default();
        for _ in 0..pairs {
            let s = if uniform(r) < 0.5 { shift } else { -shift };
            let base_len = 40.0 + 40.0 * uniform(r);
            let mut totals = [0.0; 3];
            for _ in 0..2 {
                let u = uniform(r);
                let (points, drawn) = if u < win + s {
                    (1.0, 0.0)
                } else if u < win + s + draw {
                    (0.5, 1.0)
                } else {
                    (0.0, 0.0)
                };
                totals[0] += points;
                totals[1] += drawn;
                totals[2] += base_len + 40.0 * uniform(r) + 20.0 * drawn;
            }
            for (o, t) in out.iter_mut().zip(totals) {
                o.push(Cluster {
                    total: t,
                    size: 2.0,
                });
            }
        }
        out
    }

    /// Expected White score, draw rate and length of a [`run`]'s truth.
    fn truth((win, draw, _): (f64, f64, f64)) -> [f64; 3] {
        [win + draw / 2.0, draw, 60.0 + 20.0 + 20.0 * draw]
    }

    fn samples(c: &[Vec<Cluster>; 3]) -> [Sample; 3] {
        [
            Sample::unit(&c[0]).unwrap(),
            Sample::unit(&c[1]).unwrap(),
            Sample::mean(&c[2]).unwrap(),
        ]
    }

    /// Coverage by simulation: pairs of runs of known truth (200 and 300 games), 4000 times;
    /// each figure's 95% interval of the difference must hold the true difference 93–97% of
    /// the time (here 96.1%, 95.8% and 94.5%: the pseudo-clusters make a rate's interval a
    /// little cautious at this size).
    #[test]
    fn the_difference_interval_covers_the_true_difference() {
        let mut r = SplitMix64(55);
        let (base, alt) = ((0.30, 0.40, 0.1), (0.38, 0.28, 0.1));
        let (tb, ta) = (truth(base), truth(alt));
        let trials = 4000;
        let mut covered = [0; 3];
        for _ in 0..trials {
            let b = samples(&run(&mut r, 100, base));
            let a = samples(&run(&mut r, 150, alt));
            for k in 0..3 {
                let d = difference(&b[k], &a[k], (k < 2).then_some((-1.0, 1.0)));
                let true_diff = ta[k] - tb[k];
                covered[k] += usize::from(d.low <= true_diff && true_diff <= d.high);
            }
        }
        for (k, c) in covered.iter().enumerate() {
            let rate = *c as f64 / f64::from(trials);
            assert!((0.93..=0.97).contains(&rate), "figure {k}: coverage {rate}");
        }
    }

    /// The power formula by simulation: with the games it asks for (from a first run's
    /// variances), a true difference of that size is shown in about 80% of runs, for White's
    /// score and for the draw rate (here 78.5% at 1528 games and 79.8% at 774).
    #[test]
    fn the_games_needed_show_the_difference_four_times_in_five() {
        let mut r = SplitMix64(56);
        for (k, alt) in [(0, (0.34, 0.40, 0.1)), (1, (0.30, 0.47, 0.1))] {
            let base = (0.30, 0.40, 0.1);
            let size = truth(alt)[k] - truth(base)[k];
            // A first run of each, 4000 games, to measure the per-game variances.
            let pilot_b = samples(&run(&mut r, 2000, base));
            let pilot_a = samples(&run(&mut r, 2000, alt));
            let n = games_needed(&pilot_b[k], &pilot_a[k], size).unwrap();
            assert!((600..4000).contains(&n), "{n} games");
            let trials = 4000;
            let mut hits = 0;
            for _ in 0..trials {
                let b = samples(&run(&mut r, n as usize / 2, base));
                let a = samples(&run(&mut r, n as usize / 2, alt));
                hits += usize::from(shown(&difference(&b[k], &a[k], Some((-1.0, 1.0)))));
            }
            let rate = hits as f64 / f64::from(trials);
            assert!(
                (0.75..=0.85).contains(&rate),
                "figure {k}: shown in {rate} of runs at {n} games"
            );
        }
    }

    #[test]
    fn games_needed_is_the_textbook_formula() {
        // Per-game variances 0.2 and 0.3 (se² × games), size 0.05:
        // n = (1.959964 + 0.841621)² × 0.5 / 0.0025 = 1569.8 → 1570 games (785 pairs).
        let s = |var: f64| Sample {
            value: 0.5,
            spread: Spread {
                centre: 0.5,
                root: (var * 100.0).sqrt(),
                games: 100.0,
            },
            games: 100.0,
        };
        assert_eq!(games_needed(&s(0.2), &s(0.3), 0.05), Some(1570));
        assert_eq!(games_needed(&s(0.2), &s(0.3), -0.05), Some(1570));
        assert_eq!(games_needed(&s(0.2), &s(0.3), 0.0), None);
    }

    #[test]
    fn detect_sizes_override_the_defaults_and_bad_ones_are_named() {
        let d = parse_detect("score=0.05, length=3").unwrap();
        assert_eq!(d["score"], 0.05);
        assert_eq!(d["length"], 3.0);
        assert_eq!(d["draw"], 0.05);
        let e = parse_detect("elo=3").unwrap_err().to_string();
        assert!(e.contains("\"elo\"") && e.contains("score"), "{e}");
        let e = parse_detect("draw=-1").unwrap_err().to_string();
        assert!(e.contains("positive"), "{e}");
        let e = parse_detect("draw").unwrap_err().to_string();
        assert!(e.contains("KEY=SIZE"), "{e}");
    }
}

//! `variantlab stats`: balance and game-length statistics from tournament folders.
//!
//! Metrics (after Ludii's game-evaluation metrics, restated for two players):
//! - **balance** = 1 − |white wins − black wins| / decisive games: 1 when both sides win
//!   equally often among the games someone won. Defined over decisive games so that a
//!   drawish variant does not look balanced merely because few games are won; shown beside
//!   the decisive-game count, and "n/a" with none.
//! - **first-player advantage** = White's score (wins + draws / 2) / games.
//! - **drawishness** = draws / games.
//! - **decisiveness** = 1 − drawishness.
//! - **completion** = games ended by the rules (not by the ply limit, adjudication or a
//!   forfeit) / games.
//! - **duration** = mean game length in plies.
//! - **unconverted** = draws by repetition, the move rule or the ply cap that end with one
//!   side ahead by at least [`UNCONVERTED_MARGIN_CP`] of material at the variant's own
//!   values: wins the engine did not convert, which a draw rate alone counts as evidence that
//!   the variant is drawish.
//!
//! Every rate and mean has a 95% interval that treats the two games of a colour-swapped
//! pair as one cluster (they share an opening), see `stats::unit_mean_interval`. A run with
//! fewer games than it was started for is flagged as incomplete everywhere: short games
//! finish first, so its figures lean towards short games.

pub mod charts;
pub mod compare;
pub mod ladder;
pub mod report;
pub mod typical;
pub mod usage;
pub mod value_files;
pub mod viewer;

use crate::output::out;
use crate::run::format::RunConfig;
use crate::stats::{
    elo_from_score, fixed, histogram, mean_interval, unit_mean_interval, z_for_confidence, Cluster,
    Estimate, GameResult, LengthSummary, Stats,
};
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::run::recorded::{load, GameRecord, RunData};

/// White's points in a game.
pub(crate) fn white_points(r: GameResult) -> f64 {
    match r {
        GameResult::WhiteWin => 1.0,
        GameResult::Draw => 0.5,
        GameResult::BlackWin => 0.0,
    }
}

/// Counts with pentanomial pairs (engine A is White in even games).
pub fn stats_of(games: &[GameRecord]) -> Stats {
    let mut s = Stats::default();
    let mut pairs: BTreeMap<u64, Vec<(u64, f64)>> = BTreeMap::new();
    for g in games {
        s.add_game(g.result);
        let w = white_points(g.result);
        pairs
            .entry(g.id / 2)
            .or_default()
            .push((g.id, if g.id % 2 == 0 { w } else { 1.0 - w }));
    }
    for p in pairs.values() {
        if let [a, b] = p.as_slice() {
            s.add_pair(a.1, b.1);
        }
    }
    s
}

/// Whether a game ended by the rules rather than by the ply cap, adjudication or a
/// forfeit.
fn by_rules(g: &GameRecord) -> bool {
    !matches!(
        g.termination.as_str(),
        "max_plies"
            | "adjudication"
            | "illegal_move"
            | "engine_crash"
            | "time_forfeit"
            | "engine_protocol"
    )
}

/// The material lead (centipawns at the variant's own values, [`Game::material_kinds`]) from
/// which a draw counts as unconverted: three pawns, a minor piece in chess.
///
/// [`Game::material_kinds`]: variantlab_engine::Game::material_kinds
pub const UNCONVERTED_MARGIN_CP: i64 = 300;

/// The draws that can hide an unconverted win: the ones no rule forced on a side that was
/// ahead (stalemate and insufficient material are results of the position).
const UNCONVERTED_ENDS: [&str; 3] = ["repetition", "move_rule", "max_plies"];

/// Each recorded kind's value in centipawns, in [`RunData::material_kinds`]' order; `None`
/// when the run records no material or names a kind the variant does not have.
pub(crate) fn kind_values(run: &RunData) -> Option<Vec<i64>> {
    if run.material_kinds.is_empty() {
        return None;
    }
    let kinds =
        variantlab_engine::with_variant!(run.config.variant, G => G::start().material_kinds());
    run.material_kinds
        .iter()
        .map(|k| {
            kinds
                .iter()
                .find(|(name, _)| crate::run::config::piece_key(name) == *k)
                .map(|&(_, v)| i64::from(v))
        })
        .collect()
}

/// Whether a game is an unconverted win: a draw of [`UNCONVERTED_ENDS`] with one side ahead
/// by [`UNCONVERTED_MARGIN_CP`] or more.
pub(crate) fn unconverted(g: &GameRecord, values: &[i64]) -> bool {
    let lead: i64 = g
        .material
        .iter()
        .zip(values)
        .map(|(&[w, b], v)| (i64::from(w) - i64::from(b)) * v)
        .sum();
    g.result == GameResult::Draw
        && UNCONVERTED_ENDS.contains(&g.termination.as_str())
        && lead.abs() >= UNCONVERTED_MARGIN_CP
}

/// Games the run was started for (in its shard).
pub fn expected_games(config: &RunConfig) -> u64 {
    (0..config.games).filter(|&id| config.in_shard(id)).count() as u64
}

/// Every balance figure of one run, each with its interval, computed once for the CSV, the
/// terminal and the report.
#[derive(Clone, Debug)]
pub struct Balance {
    /// Result counts (trinomial, and pentanomial from engine A's side).
    pub stats: Stats,
    /// Games the run was started for; more than `stats.games()` when it is unfinished.
    pub expected: u64,
    /// White's score per game.
    pub white_score: Estimate,
    /// White's score as logistic Elo (ends mapped from the score interval).
    pub white_elo: Estimate,
    /// Draws per game.
    pub draw_rate: Estimate,
    /// Games someone won.
    pub decisive: u64,
    /// Unconverted wins ([`unconverted`]): their count, and per game; `None` when the run
    /// records no final material.
    pub unconverted: Option<(u64, Estimate)>,
    /// 1 − |W − B| / (W + B), `None` without decisive games.
    pub balance: Option<Estimate>,
    /// Games ended by the rules, per game.
    pub completion: Estimate,
    /// Mean plies; `None` with fewer than two pairs.
    pub duration: Option<Estimate>,
    /// Engine A's logistic Elo from the pairs.
    pub engine_a_elo: Estimate,
}

impl Balance {
    /// Whether every game the run was started for is in.
    pub fn complete(&self) -> bool {
        self.stats.games() >= self.expected
    }

    /// `N games` or `N of M games (INCOMPLETE)`.
    pub fn games_text(&self) -> String {
        if self.complete() {
            format!("{} games", self.stats.games())
        } else {
            format!(
                "{} of {} games (INCOMPLETE: short games finish first, figures biased)",
                self.stats.games(),
                self.expected
            )
        }
    }
}

/// A per-game quantity (`value`) of the games `keep` admits, summed by colour-swapped pair
/// (the two games of an opening): the clusters every interval of a run is taken over.
pub(crate) fn pair_clusters(
    run: &RunData,
    value: &dyn Fn(&GameRecord) -> f64,
    keep: &dyn Fn(&GameRecord) -> bool,
) -> Vec<Cluster> {
    let mut pairs: BTreeMap<u64, Vec<&GameRecord>> = BTreeMap::new();
    for g in &run.games {
        pairs.entry(g.id / 2).or_default().push(g);
    }
    pairs
        .values()
        .filter_map(|games| {
            let kept: Vec<&&GameRecord> = games.iter().filter(|g| keep(g)).collect();
            (!kept.is_empty()).then(|| Cluster {
                total: kept.iter().map(|g| value(g)).sum(),
                size: kept.len() as f64,
            })
        })
        .collect()
}

/// Computes the balance figures of a run, clustering the games of a pair.
pub fn balance(run: &RunData) -> Balance {
    let z = z_for_confidence(0.95);
    let stats = stats_of(&run.games);
    let clusters = |value: &dyn Fn(&GameRecord) -> f64, keep: &dyn Fn(&GameRecord) -> bool| {
        pair_clusters(run, value, keep)
    };
    let unit = |cs: Vec<Cluster>| -> Estimate {
        let size: f64 = cs.iter().map(|c| c.size).sum();
        let value = if size > 0.0 {
            cs.iter().map(|c| c.total).sum::<f64>() / size
        } else {
            0.5
        };
        let weighted: Vec<(Cluster, f64)> = cs.into_iter().map(|c| (c, 1.0)).collect();
        let (low, high) = unit_mean_interval(&weighted, z);
        Estimate { value, low, high }
    };
    let all = |_: &GameRecord| true;
    let white_score = unit(clusters(&|g| white_points(g.result), &all));
    let white_elo = Estimate {
        value: elo_from_score(white_score.value),
        low: elo_from_score(white_score.low),
        high: elo_from_score(white_score.high),
    };
    let draw_rate = unit(clusters(
        &|g| f64::from(u8::from(g.result == GameResult::Draw)),
        &all,
    ));
    let decisive = stats.white_wins + stats.black_wins;
    let balance = (decisive > 0).then(|| {
        let p = unit(clusters(
            &|g| f64::from(u8::from(g.result == GameResult::WhiteWin)),
            &|g| g.result != GameResult::Draw,
        ));
        let b = |x: f64| 1.0 - (2.0 * x - 1.0).abs();
        let high = if p.low <= 0.5 && p.high >= 0.5 {
            1.0
        } else {
            b(p.low).max(b(p.high))
        };
        Estimate {
            value: b(p.value),
            low: b(p.low).min(b(p.high)),
            high,
        }
    });
    let unconverted = kind_values(run).map(|values| {
        let count = run.games.iter().filter(|g| unconverted(g, &values)).count();
        let rate = unit(clusters(
            &|g| f64::from(u8::from(unconverted(g, &values))),
            &all,
        ));
        (count as u64, rate)
    });
    let completion = unit(clusters(&|g| f64::from(u8::from(by_rules(g))), &all));
    let duration = mean_interval(&clusters(&|g| f64::from(g.plies), &all), z);
    let (al, ah) = stats.pair_elo_interval(0.95);
    Balance {
        stats,
        expected: expected_games(&run.config),
        white_score,
        white_elo,
        draw_rate,
        decisive,
        unconverted,
        balance,
        completion,
        duration,
        engine_a_elo: Estimate {
            value: stats.pair_elo(),
            low: al,
            high: ah,
        },
    }
}

/// Every termination reason the toolkit writes, in column order.
pub const TERMINATIONS: [&str; 12] = [
    "checkmate",
    "stalemate",
    "repetition",
    "move_rule",
    "insufficient_material",
    "variant_end",
    "max_plies",
    "adjudication",
    "illegal_move",
    "engine_crash",
    "time_forfeit",
    "engine_protocol",
];

/// Columns that say which run a row comes from and how it was played, shared by
/// `balance.csv` and `length.csv` so two runs of one variant can be told apart.
const RUN_COLUMNS: [&str; 12] = [
    "variant",
    "run",
    "engine_a",
    "engine_b",
    "nodes",
    "depth",
    "movetime_ms",
    "tc",
    "openings",
    "max_plies",
    "seed",
    "complete",
];

/// The [`RUN_COLUMNS`] of a run.
fn run_fields(run: &RunData, b: &Balance) -> Vec<String> {
    let c = &run.config;
    vec![
        c.variant.name().to_string(),
        run.dir.display().to_string(),
        c.white.name.clone(),
        c.black.name.clone(),
        c.nodes.map_or(String::new(), |n| n.to_string()),
        c.depth.map_or(String::new(), |d| d.to_string()),
        c.movetime.map_or(String::new(), |m| m.to_string()),
        c.tc.map_or(String::new(), |t| t.to_string()),
        c.openings.clone(),
        c.adjudication.max_plies.to_string(),
        c.seed.to_string(),
        b.complete().to_string(),
    ]
}

/// Columns of `balance.csv`.
pub fn balance_header() -> Vec<String> {
    let mut h: Vec<String> = RUN_COLUMNS.iter().map(|s| s.to_string()).collect();
    h.extend(
        [
            "games",
            "games_expected",
            "white_wins",
            "draws",
            "black_wins",
            "white_score",
            "white_score_low",
            "white_score_high",
            "white_elo",
            "white_elo_low",
            "white_elo_high",
            "draw_rate",
            "draw_rate_low",
            "draw_rate_high",
            "decisiveness",
            "decisive_games",
            "unconverted_games",
            "unconverted_rate",
            "unconverted_rate_low",
            "unconverted_rate_high",
            "balance",
            "balance_low",
            "balance_high",
            "completion",
            "completion_low",
            "completion_high",
            "duration",
            "duration_low",
            "duration_high",
            "pairs",
            "penta_ll",
            "penta_ld",
            "penta_dd_wl",
            "penta_wd",
            "penta_ww",
            "engine_a_score",
            "engine_a_elo",
            "engine_a_elo_low",
            "engine_a_elo_high",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    h.extend(TERMINATIONS.iter().map(|t| format!("end_{t}")));
    h
}

/// An estimate's three fields with `decimals` digits (empty when there is none).
fn estimate_fields(e: Option<Estimate>, decimals: usize) -> [String; 3] {
    e.map_or_else(Default::default, |e| {
        [e.value, e.low, e.high].map(|x| fixed(x, decimals))
    })
}

/// One `balance.csv` row of a run whose figures are `b` ([`balance`]).
pub fn balance_row(run: &RunData, b: &Balance) -> Vec<String> {
    let s = &b.stats;
    let mut row = run_fields(run, b);
    row.extend([
        s.games().to_string(),
        b.expected.to_string(),
        s.white_wins.to_string(),
        s.draws.to_string(),
        s.black_wins.to_string(),
    ]);
    row.extend(estimate_fields(Some(b.white_score), 4));
    row.extend(estimate_fields(Some(b.white_elo), 1));
    row.extend(estimate_fields(Some(b.draw_rate), 4));
    row.push(fixed(1.0 - b.draw_rate.value, 4));
    row.push(b.decisive.to_string());
    row.push(b.unconverted.map_or(String::new(), |(n, _)| n.to_string()));
    row.extend(estimate_fields(b.unconverted.map(|(_, rate)| rate), 4));
    row.extend(estimate_fields(b.balance, 4));
    row.extend(estimate_fields(Some(b.completion), 4));
    row.extend(estimate_fields(b.duration, 2));
    row.push(s.pairs().to_string());
    row.extend(s.penta.iter().map(|c| c.to_string()));
    row.push(fixed(s.pair_score(), 4));
    row.extend(estimate_fields(Some(b.engine_a_elo), 1));
    for t in TERMINATIONS {
        row.push(
            run.games
                .iter()
                .filter(|g| g.termination == t)
                .count()
                .to_string(),
        );
    }
    row
}

/// Bin width of the length histograms, in plies.
pub const LENGTH_BIN: u32 = 20;

/// Columns of `length.csv`.
pub fn length_header() -> Vec<String> {
    RUN_COLUMNS
        .iter()
        .chain(&[
            "subset",
            "games",
            "mean",
            "median",
            "q1",
            "q3",
            "min",
            "max",
            "histogram",
        ])
        .map(|s| s.to_string())
        .collect()
}

/// `length.csv` rows of a run (`b` its [`balance`]): all games, then White wins, draws,
/// Black wins.
pub fn length_rows(run: &RunData, b: &Balance) -> Vec<Vec<String>> {
    let subsets: [(&str, Option<GameResult>); 4] = [
        ("all", None),
        ("white_win", Some(GameResult::WhiteWin)),
        ("draw", Some(GameResult::Draw)),
        ("black_win", Some(GameResult::BlackWin)),
    ];
    let fields = run_fields(run, b);
    subsets
        .iter()
        .map(|(name, filter)| {
            let plies: Vec<u32> = run
                .games
                .iter()
                .filter(|g| filter.is_none_or(|r| g.result == r))
                .map(|g| g.plies)
                .collect();
            let l = LengthSummary::from(plies.as_slice());
            let hist: Vec<String> = histogram(&plies, LENGTH_BIN)
                .iter()
                .map(|b| format!("{}:{}", b.start, b.count))
                .collect();
            let mut row = fields.clone();
            row.extend([
                name.to_string(),
                plies.len().to_string(),
                fixed(l.mean, 2),
                fixed(l.median, 1),
                fixed(l.q1, 1),
                fixed(l.q3, 1),
                l.min.to_string(),
                l.max.to_string(),
                hist.join(" "),
            ]);
            row
        })
        .collect()
}

/// Writes `balance.csv`, `length.csv`, `ladder.csv` and `trend.csv` ([`ladder`]) for the runs
/// into `out`, `usage.csv` and `diversity.csv` ([`usage`]) for those that record moves, and
/// `typical.csv` ([`typical`]).
///
/// # Errors
/// An unwritable folder; a run whose recorded moves do not replay.
pub fn write(runs: &[RunData], out: &Path) -> Result<()> {
    crate::output::create_folder(out)?;
    let figures: Vec<Balance> = runs.iter().map(balance).collect();
    let pairs = || runs.iter().zip(&figures);
    write_table(
        out,
        "balance.csv",
        balance_header(),
        pairs().map(|(r, f)| balance_row(r, f)),
    )?;
    write_table(
        out,
        "length.csv",
        length_header(),
        pairs().flat_map(|(r, f)| length_rows(r, f)),
    )?;
    let ladders = ladder::ladders(runs);
    write_table(
        out,
        "ladder.csv",
        ladder::ladder_header(),
        ladder::ladder_rows(&ladders),
    )?;
    write_table(
        out,
        "trend.csv",
        ladder::TREND_HEADER.iter().map(|s| s.to_string()).collect(),
        ladder::trend_rows(&ladders),
    )?;
    let mut usages = Vec::new();
    let mut typical = Vec::new();
    for r in runs {
        let u = usage::usage(r)?;
        typical.push((r, typical::typical(r, u.as_ref())));
        if let Some(u) = u {
            usages.push((r, u));
        }
    }
    write_table(
        out,
        "usage.csv",
        usage::USAGE_HEADER.iter().map(|s| s.to_string()).collect(),
        usages.iter().flat_map(|(r, u)| usage::usage_rows(r, u)),
    )?;
    write_table(
        out,
        "diversity.csv",
        usage::DIVERSITY_HEADER
            .iter()
            .map(|s| s.to_string())
            .collect(),
        usages.iter().flat_map(|(r, u)| usage::diversity_rows(r, u)),
    )?;
    write_table(
        out,
        "typical.csv",
        typical::TYPICAL_HEADER
            .iter()
            .map(|s| s.to_string())
            .collect(),
        typical
            .iter()
            .flat_map(|(r, t)| typical::typical_rows(r, t)),
    )
}

/// One CSV of `stats` or `compare` in `out`: its header, then its rows.
pub(crate) fn write_table(
    out: &Path,
    name: &str,
    header: Vec<String>,
    rows: impl IntoIterator<Item = Vec<String>>,
) -> Result<()> {
    let path = out.join(name);
    let mut w =
        csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record(header)?;
    for row in rows {
        w.write_record(row)?;
    }
    w.flush()?;
    Ok(())
}

/// `variantlab stats`: `balance.csv`, `length.csv`, `ladder.csv`, `trend.csv`, `usage.csv`,
/// `diversity.csv` and `typical.csv` of the runs in `dirs`, and one line of balance figures per run.
///
/// # Errors
/// An unreadable run folder, an unwritable output folder.
pub fn stats_command(dirs: &[PathBuf], out: &Path) -> Result<()> {
    let runs = dirs.iter().map(|d| load(d)).collect::<Result<Vec<_>>>()?;
    write(&runs, out)?;
    for r in &runs {
        let b = balance(r);
        out!(
            "{:<22} {}  White {}  Elo {}  draws {}{}  balance {} of {} decisive",
            r.config.variant.name(),
            b.games_text(),
            b.white_score.show(3),
            b.white_elo.show(0),
            b.draw_rate.show(3),
            b.unconverted
                .map_or(String::new(), |(n, _)| format!(" ({n} unconverted)")),
            b.balance.map_or("n/a".to_string(), |e| e.show(3)),
            b.decisive,
        );
    }
    out!(
        "wrote balance.csv, length.csv, ladder.csv, trend.csv, usage.csv, diversity.csv and typical.csv in {}",
        out.display()
    );
    Ok(())
}

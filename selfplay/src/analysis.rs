//! `variantlab stats`: balance and game-length statistics from tournament folders.
//!
//! Metrics (after Ludii's game-evaluation metrics, restated for two players):
//! - **balance** = 1 − |white wins − black wins| / games: 1 when both sides win equally often.
//! - **first-player advantage** = White's score (wins + draws / 2) / games.
//! - **drawishness** = draws / games.
//! - **decisiveness** = 1 − drawishness.
//! - **completion** = games ended by the rules (not by the ply limit or adjudication) / games.
//! - **duration** = mean game length in plies.

use crate::stats::{histogram, GameResult, LengthSummary, Stats};
use crate::tournament::RunConfig;
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One game as the statistics see it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Game id.
    pub id: u64,
    /// Result from White's point of view.
    pub result: GameResult,
    /// Termination reason.
    pub termination: String,
    /// Plies.
    pub plies: u32,
}

/// A tournament folder, read back.
#[derive(Clone, Debug)]
pub struct RunData {
    /// Where it was read from.
    pub dir: PathBuf,
    /// Its configuration.
    pub config: RunConfig,
    /// Its games.
    pub games: Vec<GameRecord>,
}

/// Reads `run.json` and `games.csv` of a folder.
///
/// # Errors
/// A missing or malformed file, named with the line and column at fault.
pub fn load(dir: &Path) -> Result<RunData> {
    let path = dir.join("run.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("{}: no run.json (not a tournament folder?)", dir.display()))?;
    let config: RunConfig =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    let gpath = dir.join("games.csv");
    let mut reader =
        csv::Reader::from_path(&gpath).with_context(|| format!("reading {}", gpath.display()))?;
    let headers = reader
        .headers()
        .with_context(|| format!("reading {}", gpath.display()))?
        .clone();
    let col = |name: &str| -> Result<usize> {
        headers
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{}: no column {name:?}", gpath.display()))
    };
    let (cid, cres, cterm, cplies) = (
        col("game_id")?,
        col("result")?,
        col("termination")?,
        col("plies")?,
    );
    let mut games = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let line = i + 2;
        let rec = rec.with_context(|| format!("{}: line {line}", gpath.display()))?;
        if rec.len() != headers.len() {
            bail!(
                "{}: line {line} has {} fields, expected {} (a truncated file?)",
                gpath.display(),
                rec.len(),
                headers.len()
            );
        }
        let field = |c: usize| rec.get(c).unwrap_or("");
        let result = match field(cres) {
            "1-0" => GameResult::WhiteWin,
            "0-1" => GameResult::BlackWin,
            "1/2-1/2" => GameResult::Draw,
            other => bail!(
                "{}: line {line}: result {other:?} is not 1-0, 0-1 or 1/2-1/2",
                gpath.display()
            ),
        };
        let num = |c: usize, what: &str| -> Result<u64> {
            field(c).parse().with_context(|| {
                format!(
                    "{}: line {line}: {what} {:?} is not a number",
                    gpath.display(),
                    field(c)
                )
            })
        };
        games.push(GameRecord {
            id: num(cid, "game_id")?,
            result,
            termination: field(cterm).to_string(),
            plies: num(cplies, "plies")? as u32,
        });
    }
    Ok(RunData {
        dir: dir.to_path_buf(),
        config,
        games,
    })
}

/// White's points in a game.
fn white_points(r: GameResult) -> f64 {
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

/// Every termination reason the toolkit writes, in column order.
pub const TERMINATIONS: [&str; 8] = [
    "checkmate",
    "stalemate",
    "repetition",
    "move_rule",
    "insufficient_material",
    "variant_end",
    "max_plies",
    "adjudication",
];

/// Columns of `balance.csv`.
pub fn balance_header() -> Vec<String> {
    let mut h: Vec<String> = [
        "variant",
        "engine_a",
        "engine_b",
        "games",
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
        "balance",
        "completion",
        "duration",
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
    .map(|s| s.to_string())
    .collect();
    h.extend(TERMINATIONS.iter().map(|t| format!("end_{t}")));
    h
}

/// One `balance.csv` row.
pub fn balance_row(run: &RunData) -> Vec<String> {
    let s = stats_of(&run.games);
    let n = s.games().max(1) as f64;
    let (sl, sh) = s.score_interval(0.95);
    let (el, eh) = s.elo_interval(0.95);
    let (dl, dh) = s.draw_rate_interval(0.95);
    let (al, ah) = s.pair_elo_interval(0.95);
    let by_rules = run
        .games
        .iter()
        .filter(|g| g.termination != "max_plies" && g.termination != "adjudication")
        .count();
    let duration = run.games.iter().map(|g| g.plies as f64).sum::<f64>() / n;
    let f = |x: f64| format!("{x:.4}");
    let mut row = vec![
        run.config.variant.clone(),
        run.config.white.name.clone(),
        run.config.black.name.clone(),
        s.games().to_string(),
        s.white_wins.to_string(),
        s.draws.to_string(),
        s.black_wins.to_string(),
        f(s.white_score()),
        f(sl),
        f(sh),
        format!("{:.1}", s.white_elo()),
        format!("{el:.1}"),
        format!("{eh:.1}"),
        f(s.draw_rate()),
        f(dl),
        f(dh),
        f(1.0 - s.draw_rate()),
        f(1.0 - (s.white_wins as f64 - s.black_wins as f64).abs() / n),
        f(by_rules as f64 / n),
        format!("{duration:.2}"),
        s.pairs().to_string(),
    ];
    row.extend(s.penta.iter().map(|c| c.to_string()));
    row.push(f(s.pair_score()));
    row.push(format!("{:.1}", s.pair_elo()));
    row.push(format!("{al:.1}"));
    row.push(format!("{ah:.1}"));
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
pub const LENGTH_HEADER: [&str; 12] = [
    "variant",
    "engine_a",
    "engine_b",
    "subset",
    "games",
    "mean",
    "median",
    "q1",
    "q3",
    "min",
    "max",
    "histogram",
];

/// `length.csv` rows of a run: all games, then White wins, draws, Black wins.
pub fn length_rows(run: &RunData) -> Vec<Vec<String>> {
    let subsets: [(&str, Option<GameResult>); 4] = [
        ("all", None),
        ("white_win", Some(GameResult::WhiteWin)),
        ("draw", Some(GameResult::Draw)),
        ("black_win", Some(GameResult::BlackWin)),
    ];
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
            vec![
                run.config.variant.clone(),
                run.config.white.name.clone(),
                run.config.black.name.clone(),
                name.to_string(),
                plies.len().to_string(),
                format!("{:.2}", l.mean),
                format!("{:.1}", l.median),
                format!("{:.1}", l.q1),
                format!("{:.1}", l.q3),
                l.min.to_string(),
                l.max.to_string(),
                hist.join(" "),
            ]
        })
        .collect()
}

/// Writes `balance.csv` and `length.csv` for the runs into `out`.
///
/// # Errors
/// An unwritable folder.
pub fn write(runs: &[RunData], out: &Path) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let bpath = out.join("balance.csv");
    let mut b =
        csv::Writer::from_path(&bpath).with_context(|| format!("writing {}", bpath.display()))?;
    b.write_record(balance_header())?;
    for r in runs {
        b.write_record(balance_row(r))?;
    }
    b.flush()?;
    let lpath = out.join("length.csv");
    let mut l =
        csv::Writer::from_path(&lpath).with_context(|| format!("writing {}", lpath.display()))?;
    l.write_record(LENGTH_HEADER)?;
    for r in runs {
        for row in length_rows(r) {
            l.write_record(row)?;
        }
    }
    l.flush()?;
    Ok(())
}

//! Summary files written at the end of a study.

use crate::output::out;
use crate::tournament::Summary;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Writes `summary.csv`: one row per variant with counts, White's score and its 95%
/// interval, draw rate and mean length.
pub fn write_summary_csv(path: &Path, rows: &[(&str, Summary)]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record([
        "variant",
        "games",
        "white_wins",
        "draws",
        "black_wins",
        "white_score",
        "score_ci_low",
        "score_ci_high",
        "draw_rate",
        "mean_plies",
    ])?;
    for (name, s) in rows {
        let (lo, hi) = s.stats.score_interval(0.95);
        w.write_record([
            name.to_string(),
            s.games.to_string(),
            s.stats.white_wins.to_string(),
            s.stats.draws.to_string(),
            s.stats.black_wins.to_string(),
            format!("{:.4}", s.stats.white_score()),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            format!("{:.4}", s.stats.draw_rate()),
            format!("{:.2}", s.mean_plies),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// One row of an interval chart: label, value, low, high.
pub type IntervalRow = (String, f64, f64, f64);

/// Escapes text for HTML and SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A horizontal dot-and-whisker chart: one row per label with a value and its interval, on
/// an axis from `lo` to `hi`, with a dashed reference line at `reference`.
pub fn interval_chart(
    rows: &[(String, f64, f64, f64)],
    lo: f64,
    hi: f64,
    reference: Option<f64>,
    unit: &str,
) -> String {
    let (left, width, row_h) = (170.0, 420.0, 26.0);
    let height = 40.0 + row_h * rows.len() as f64;
    let x = |v: f64| left + (v.clamp(lo, hi) - lo) / (hi - lo) * width;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{height}" font-family="sans-serif" font-size="12">"#,
        left + width + 60.0
    );
    for i in 0..=4 {
        let v = lo + (hi - lo) * i as f64 / 4.0;
        s += &format!(
            r##"<line x1="{0}" y1="10" x2="{0}" y2="{1}" stroke="#ddd"/><text x="{0}" y="{2}" text-anchor="middle" fill="#555">{3:.2}{4}</text>"##,
            x(v),
            height - 22.0,
            height - 8.0,
            v,
            unit
        );
    }
    if let Some(r) = reference {
        s += &format!(
            r##"<line x1="{0}" y1="10" x2="{0}" y2="{1}" stroke="#888" stroke-dasharray="4 3"/>"##,
            x(r),
            height - 22.0
        );
    }
    for (i, (label, v, l, h)) in rows.iter().enumerate() {
        let y = 24.0 + row_h * i as f64;
        s += &format!(
            r##"<text x="{}" y="{}" text-anchor="end">{}</text><line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#1f77b4" stroke-width="2"/><circle cx="{}" cy="{y}" r="4" fill="#1f77b4"/><text x="{}" y="{}" fill="#333">{:.3}</text>"##,
            left - 8.0,
            y + 4.0,
            esc(label),
            x(*l),
            x(*h),
            x(*v),
            x(*h) + 6.0,
            y + 4.0,
            v
        );
    }
    s + "</svg>"
}

/// A histogram of (bin start, count) with bins of `width`.
pub fn histogram_chart(title: &str, bins: &[(u32, u64)], width: u32) -> String {
    let (w, h, pad) = (320.0, 150.0, 30.0);
    let max = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let n = bins.len().max(1) as f64;
    let bw = (w - 2.0 * pad) / n;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{}" font-family="sans-serif" font-size="11"><text x="{pad}" y="14" font-weight="bold">{}</text>"#,
        h + 20.0,
        esc(title)
    );
    for (i, (start, count)) in bins.iter().enumerate() {
        let bh = (h - 40.0) * *count as f64 / max;
        s += &format!(
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#ff7f0e"><title>{start}-{}: {count}</title></rect>"##,
            pad + bw * i as f64,
            h - 10.0 - bh,
            (bw - 1.0).max(1.0),
            start + width - 1
        );
    }
    if let (Some(first), Some(last)) = (bins.first(), bins.last()) {
        s += &format!(
            r##"<text x="{pad}" y="{}" fill="#555">{}</text><text x="{}" y="{}" text-anchor="end" fill="#555">{} plies</text>"##,
            h + 4.0,
            first.0,
            w - pad,
            h + 4.0,
            last.0 + width
        );
    }
    s + "</svg>"
}

/// Piece values from a `piece_values.csv` (variant, piece, method, value, low, high, games,
/// and from this version on a note); rows come back with eight fields.
fn read_piece_values(path: &Path) -> Result<Vec<Vec<String>>> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let rec = rec.with_context(|| format!("{}: line {}", path.display(), i + 2))?;
        if rec.len() != 7 && rec.len() != 8 {
            anyhow::bail!(
                "{}: line {} has {} fields, expected 8 (a truncated file?)",
                path.display(),
                i + 2,
                rec.len()
            );
        }
        let mut row: Vec<String> = rec.iter().map(String::from).collect();
        row.resize(8, String::new());
        rows.push(row);
    }
    Ok(rows)
}

/// Writes the HTML report of tournament folders: score and draw rate with intervals per
/// variant, game-length histograms, piece values with error bars (from any
/// `piece_values.csv` in or beside the folders), and each variant's reconstruction notes.
///
/// # Errors
/// An unreadable piece-value file or an unwritable output.
pub fn write_html(runs: &[crate::analysis::RunData], out: &Path) -> Result<()> {
    let mut html = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>variantlab report</title><style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}td:first-child{text-align:left}.grid{display:flex;flex-wrap:wrap;gap:8px}</style></head><body><h1>variantlab report</h1>",
    );
    html += &format!("<p>{} tournament folder(s). Intervals are 95%; the two games of a colour-swapped pair count as one cluster, and small or all-draw samples keep a real width (see docs/statistics.md). Balance is 1 − |W − B| / (W + B) over decisive games.</p>", runs.len());
    html += "<h2>Balance</h2><table><tr><th>variant</th><th>engines</th><th>settings</th><th>games</th><th>+</th><th>=</th><th>-</th><th>White score</th><th>White Elo</th><th>draw rate</th><th>balance (decisive)</th><th>mean plies</th></tr>";
    let mut score_rows = Vec::new();
    let mut draw_rows = Vec::new();
    for r in runs {
        let b = crate::analysis::balance(r);
        let s = &b.stats;
        let label = format!(
            "{} ({} v {})",
            r.config.variant, r.config.white.name, r.config.black.name
        );
        let c = &r.config;
        let limit = match (c.nodes, c.depth, c.movetime, &c.tc) {
            (_, _, _, Some(tc)) => format!("clock {tc}"),
            (_, _, Some(ms), None) => format!("{ms} ms/move"),
            (Some(n), _, None, None) => format!("{n} nodes"),
            (None, d, None, None) => format!("depth {}", d.unwrap_or(0)),
        };
        let settings = format!(
            "{limit}, openings {}, cap {} plies, seed {}{}",
            c.openings,
            c.adjudication.max_plies,
            c.seed,
            if c.reproducible {
                ""
            } else {
                ", not reproducible"
            }
        );
        let games = if b.complete() {
            s.games().to_string()
        } else {
            format!(
                "<b style=\"color:#b00\">{} of {} (incomplete)</b>",
                s.games(),
                b.expected
            )
        };
        html += &format!(
            "<tr><td>{}</td><td>{} v {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} ({} games)</td><td>{}</td></tr>",
            esc(&r.config.variant), esc(&r.config.white.name), esc(&r.config.black.name), esc(&settings), games, s.white_wins, s.draws, s.black_wins,
            b.white_score.show(3), b.white_elo.show(0), b.draw_rate.show(3),
            b.balance.map_or("n/a".to_string(), |e| e.show(3)), b.decisive,
            b.duration.map_or_else(|| "n/a".to_string(), |e| e.show(1))
        );
        score_rows.push((
            label.clone(),
            b.white_score.value,
            b.white_score.low,
            b.white_score.high,
        ));
        draw_rows.push((label, b.draw_rate.value, b.draw_rate.low, b.draw_rate.high));
    }
    html += "</table><h3>White's score</h3>";
    html += &interval_chart(&score_rows, 0.0, 1.0, Some(0.5), "");
    html += "<h3>Draw rate</h3>";
    html += &interval_chart(&draw_rows, 0.0, 1.0, None, "");
    html += "<h2>Game length</h2><div class=\"grid\">";
    for r in runs {
        let plies: Vec<u32> = r.games.iter().map(|g| g.plies).collect();
        let bins: Vec<(u32, u64)> = crate::stats::histogram(&plies, crate::analysis::LENGTH_BIN)
            .iter()
            .map(|b| (b.start, b.count))
            .collect();
        html += &histogram_chart(&r.config.variant, &bins, crate::analysis::LENGTH_BIN);
    }
    html += "</div>";
    // Piece values found in or beside the folders.
    let mut seen = std::collections::BTreeSet::new();
    let mut values = Vec::new();
    for r in runs {
        for candidate in [
            r.dir.join("piece_values.csv"),
            r.dir
                .parent()
                .map_or_else(|| r.dir.join("_"), |p| p.join("piece_values.csv")),
        ] {
            if candidate.exists() && seen.insert(candidate.clone()) {
                values.extend(read_piece_values(&candidate)?);
            }
        }
    }
    if !values.is_empty() {
        html += "<h2>Piece values (pawn units)</h2>";
        let mut by_group: std::collections::BTreeMap<(String, String), Vec<IntervalRow>> =
            Default::default();
        for v in &values {
            // An empty field (no value, no interval) is NaN: no bar is drawn.
            let num = |i: usize| v[i].parse::<f64>().unwrap_or(f64::NAN);
            by_group
                .entry((v[0].clone(), v[2].clone()))
                .or_default()
                .push((format!("{} ({} games)", v[1], v[6]), num(3), num(4), num(5)));
        }
        for ((variant, method), rows) in by_group {
            let max = rows
                .iter()
                .map(|r| r.3)
                .filter(|x| x.is_finite())
                .fold(1.0f64, f64::max)
                .ceil();
            html += &format!("<h3>{} — {}</h3>", esc(&variant), esc(&method));
            html += &interval_chart(&rows, 0.0, max, Some(1.0), "");
        }
    }
    html += "<h2>Rules: reconstructions and decisions</h2>";
    let mut variants: Vec<&str> = runs.iter().map(|r| r.config.variant.as_str()).collect();
    variants.dedup();
    for v in variants {
        if let Ok(kind) = variantlab_engine::VariantKind::from_name(v) {
            let info = kind.info();
            html += &format!(
                "<h3>{} (<code>{}</code>, rules: {})</h3><ul>",
                esc(info.title),
                esc(info.name),
                esc(info.rules_file)
            );
            for n in info.notes {
                html += &format!("<li>{}</li>", esc(n));
            }
            html += "</ul>";
        }
    }
    html += "</body></html>\n";
    std::fs::write(out, html).with_context(|| format!("writing {}", out.display()))?;
    Ok(())
}

/// `variantlab report`: one HTML page of the runs in `dirs`.
///
/// # Errors
/// An unreadable run folder, an unwritable file.
pub fn command(dirs: &[PathBuf], out: &Path) -> Result<()> {
    let runs = dirs
        .iter()
        .map(|d| crate::analysis::load(d))
        .collect::<Result<Vec<_>>>()?;
    write_html(&runs, out)?;
    out!("wrote {}", out.display());
    Ok(())
}

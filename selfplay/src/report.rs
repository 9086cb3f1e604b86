//! Summary files written at the end of a study.

use crate::output::out;
use crate::tournament::Summary;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use variantlab_engine::with_variant;

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
        let (lo, hi) = s.white_score_interval;
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

use crate::viewer::esc;

/// A horizontal dot-and-whisker chart: one row per label with a value and its interval, on
/// an axis from `lo` to `hi`, with a dashed reference line at `reference`.
pub fn interval_chart(
    rows: &[(String, f64, f64, f64)],
    lo: f64,
    hi: f64,
    reference: Option<f64>,
    unit: &str,
) -> String {
    // The label column is as wide as the longest label (about 7 px a character), so labels
    // such as `am-chess-46 (default v default)` are never clipped.
    let longest = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let (left, width, row_h) = ((longest as f64 * 7.0 + 16.0).max(120.0), 420.0, 26.0);
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

/// A histogram of (bin start, count) with bins of `width`, with a count axis on the left.
pub fn histogram_chart(title: &str, bins: &[(u32, u64)], width: u32) -> String {
    let (w, h, left, right) = (330.0, 170.0, 44.0, 12.0);
    let (top, bottom) = (24.0, h - 22.0);
    let max = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1);
    // Round the axis up to a tick step of 1, 2 or 5 times a power of ten.
    let step = {
        let raw = (max as f64 / 4.0).max(1.0);
        let p = 10f64.powf(raw.log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * p)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * p)
    };
    let top_count = (max as f64 / step).ceil() * step;
    let y = |c: f64| bottom - (bottom - top) * c / top_count;
    let n = bins.len().max(1) as f64;
    let bw = (w - left - right) / n;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11"><text x="{left}" y="14" font-weight="bold">{}</text>"#,
        esc(title)
    );
    let mut tick = 0.0;
    while tick <= top_count + 1e-9 {
        s += &format!(
            r##"<line x1="{left}" x2="{x2}" y1="{yt:.1}" y2="{yt:.1}" stroke="#e5e5e5"/><text x="{xt}" y="{yl:.1}" text-anchor="end" fill="#555">{tick}</text>"##,
            x2 = w - right,
            yt = y(tick),
            xt = left - 4.0,
            yl = y(tick) + 4.0
        );
        tick += step;
    }
    s += &format!(
        r##"<line x1="{left}" x2="{left}" y1="{top}" y2="{bottom}" stroke="#555"/><text x="10" y="{0:.1}" transform="rotate(-90 10 {0:.1})" text-anchor="middle" fill="#555">games</text>"##,
        (top + bottom) / 2.0
    );
    for (i, (start, count)) in bins.iter().enumerate() {
        let bh = bottom - y(*count as f64);
        s += &format!(
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#ff7f0e"><title>{start}-{}: {count}</title></rect>"##,
            left + bw * i as f64,
            bottom - bh,
            (bw - 1.0).max(1.0),
            start + width - 1
        );
    }
    if let (Some(first), Some(last)) = (bins.first(), bins.last()) {
        s += &format!(
            r##"<text x="{left}" y="{}" fill="#555">{}</text><text x="{}" y="{}" text-anchor="end" fill="#555">{} plies</text>"##,
            h - 6.0,
            first.0,
            w - right,
            h - 6.0,
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

/// The search limit of a run, as words.
fn limit_text(c: &crate::tournament::RunConfig) -> String {
    match (c.nodes, c.depth, c.movetime, &c.tc) {
        (_, _, _, Some(tc)) => format!("clock {tc}"),
        (_, _, Some(ms), None) => format!("{ms} ms/move"),
        (Some(n), _, None, None) => format!("{n} nodes/move"),
        (None, d, None, None) => format!("depth {}", d.unwrap_or(0)),
    }
}

/// A run's label in charts and menus.
fn run_label(r: &crate::analysis::RunData) -> String {
    format!(
        "{} ({} v {})",
        r.config.variant, r.config.white.name, r.config.black.name
    )
}

/// The page's style: tables, boards (occupant discs by owner), viewer.
const STYLE: &str = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}td:first-child,td.l{text-align:left}.grid{display:flex;flex-wrap:wrap;gap:12px}.diagram{border:1px solid #ddd;padding:6px;margin:6px 0}.legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:12px;height:12px;border:1px solid #999;margin-right:4px;vertical-align:-2px}g.occ.e{display:none}g.occ.w circle{fill:#fff;stroke:#222}g.occ.b circle{fill:#222;stroke:#000}g.occ.n circle{fill:#ffd54a;stroke:#7a5c00}g.occ.w text,g.occ.n text{fill:#111}g.occ.b text{fill:#fff}#viewer{border:2px solid #bbb;padding:8px}#vmoves{max-height:220px;overflow:auto;font-family:monospace;font-size:12px;border:1px solid #ddd;padding:4px}#vmoves span{display:inline-block;min-width:9em;cursor:pointer}#vmoves span.cur{background:#ffe08a}#vexamples button{margin:2px}.tag{font-family:monospace;font-weight:bold}.note{color:#555;font-size:13px}#selfcheck{display:none}body.shot>*:not(#viewer){display:none}body.shot{max-width:none;margin:8px}";

/// Writes the HTML report of tournament folders, one self-contained page: the runs and
/// their settings, each variant's board, score and draw rate with intervals, how games
/// ended, a game viewer (every game's moves and evaluations; boards for the example games
/// and the first games), game-length histograms, piece values (the engine's and any
/// `piece_values.csv` in or beside the folders) and each variant's rule decisions.
///
/// # Errors
/// An unreadable or truncated CSV, a recorded move that is not legal, an unwritable output.
pub fn write_html(runs: &[crate::analysis::RunData], out: &Path) -> Result<()> {
    let mut html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>variantlab report</title><style>{STYLE}</style></head><body><h1>variantlab report</h1>"
    );
    html += &format!("<p>{} tournament folder(s). Intervals are 95%; the two games of a colour-swapped pair count as one cluster, and small or all-draw samples keep a real width (see docs/statistics.md). Balance is 1 − |W − B| / (W + B) over decisive games.</p>", runs.len());

    // Runs and their settings.
    html += "<h2>Runs and settings</h2><table><tr><th>variant</th><th>White v Black</th><th>search</th><th>openings</th><th>ply cap</th><th>adjudication</th><th>games</th><th>seed</th><th>threads</th><th>moves recorded</th><th>engine</th></tr>";
    for r in runs {
        let c = &r.config;
        let b = crate::analysis::balance(r);
        let adjudication = match (c.adjudication.resign, c.adjudication.draw) {
            (None, None) => "none".to_string(),
            (resign, draw) => {
                let mut parts = Vec::new();
                if let Some((cp, moves)) = resign {
                    parts.push(format!("resign at −{cp} cp for {moves} moves"));
                }
                if let Some((cp, plies, from)) = draw {
                    parts.push(format!(
                        "draw within {cp} cp for {plies} plies from ply {from}"
                    ));
                }
                parts.join("; ")
            }
        };
        let games = if b.complete() {
            b.stats.games().to_string()
        } else {
            format!(
                "<b style=\"color:#b00\">{} of {} (incomplete)</b>",
                b.stats.games(),
                b.expected
            )
        };
        html += &format!(
            "<tr><td>{}</td><td class=l>{} v {}</td><td class=l>{}</td><td class=l>{}</td><td>{}</td><td class=l>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td class=l>{}{}</td></tr>",
            esc(&c.variant),
            esc(&c.white.name),
            esc(&c.black.name),
            esc(&limit_text(c)),
            esc(&c.openings),
            if c.adjudication.max_plies == 0 { "none".to_string() } else { format!("{} plies", c.adjudication.max_plies) },
            esc(&adjudication),
            games,
            c.seed,
            if c.reproducible { "" } else { " (not reproducible)" },
            c.threads,
            if c.record_moves { "yes" } else { "no" },
            esc(&c.engine_version),
            c.git_commit.as_ref().map_or(String::new(), |g| format!(" ({})", esc(g))),
        );
    }
    html += "</table>";

    // Games read back and replayed for the boards and the viewer.
    let budget = crate::viewer::STATE_PLY_BUDGET / runs.len().max(1);
    let mut views = Vec::new();
    let mut rows = Vec::new();
    for r in runs {
        let games = crate::recorded::read_games(&r.dir)?;
        let moves = if r.dir.join("moves.csv").exists() {
            crate::recorded::read_moves(&r.dir)?
        } else {
            Default::default()
        };
        let view = match variantlab_engine::VariantKind::from_name(&r.config.variant) {
            Ok(kind) => Some(with_variant!(kind, G => crate::viewer::run_view::<G>(
                &run_label(r),
                &r.config,
                &r.dir,
                &games,
                &moves,
                budget,
            ))?),
            Err(_) => None,
        };
        views.push(view);
        rows.push(games);
    }

    // Boards: the start position of every variant of the page.
    html += "<h2>Boards</h2><p class=note>Start positions, drawn by the engine's own diagram of each variant (hover a cell for its name). White pieces are white discs, Black's black; yellow discs are neutral markers.</p>";
    let mut drawn = std::collections::BTreeSet::new();
    for view in views.iter().flatten() {
        let variant = view.data["variant"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if !drawn.insert(variant.clone()) {
            continue;
        }
        let title = variantlab_engine::VariantKind::from_name(&variant)
            .map_or_else(|_| variant.clone(), |k| k.info().title.to_string());
        html += &format!(
            "<div class=\"diagram\" data-variant=\"{}\"><h3>{} (<code>{}</code>)</h3>{}{}</div>",
            esc(&variant),
            esc(&title),
            esc(&variant),
            crate::viewer::diagram_svg(&view.start),
            crate::viewer::legend_html(&view.start)
        );
    }

    // Balance.
    html += "<h2>Balance</h2><table><tr><th>variant</th><th>engines</th><th>games</th><th>+</th><th>=</th><th>-</th><th>White score</th><th>White Elo</th><th>draw rate</th><th>balance (decisive)</th><th>mean plies</th></tr>";
    let mut score_rows = Vec::new();
    let mut draw_rows = Vec::new();
    for r in runs {
        let b = crate::analysis::balance(r);
        let s = &b.stats;
        let label = run_label(r);
        html += &format!(
            "<tr><td>{}</td><td>{} v {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} ({} games)</td><td>{}</td></tr>",
            esc(&r.config.variant), esc(&r.config.white.name), esc(&r.config.black.name), s.games(), s.white_wins, s.draws, s.black_wins,
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

    // How the games ended.
    html += "<h2>How games ended</h2><p class=note>Per termination: games won by White, drawn, won by Black, and an example to open in the viewer.</p><table><tr><th>variant</th><th>termination</th><th>games</th><th>share</th><th>1-0</th><th>½-½</th><th>0-1</th><th>example</th></tr>";
    for (ri, games) in rows.iter().enumerate() {
        let mut by: std::collections::BTreeMap<&str, ([u64; 3], u64)> = Default::default();
        for g in games {
            let e = by.entry(g.termination.as_str()).or_insert(([0; 3], g.id));
            let k = match g.result.as_str() {
                "1-0" => 0,
                "0-1" => 2,
                _ => 1,
            };
            e.0[k] += 1;
        }
        let mut list: Vec<_> = by.into_iter().collect();
        list.sort_by_key(|(_, (n, _))| std::cmp::Reverse(n.iter().sum::<u64>()));
        for (term, (n, example)) in list {
            let total: u64 = n.iter().sum();
            // The viewer lists only the runs of known variants: its index of this run.
            let vi = views[..ri].iter().flatten().count();
            let link = if views[ri].is_some() {
                format!("<a href=\"#viewer\" data-open-game=\"{vi}:{example}\">game {example}</a>")
            } else {
                String::new()
            };
            html += &format!(
                "<tr><td>{}</td><td class=l>{}</td><td>{total}</td><td>{:.0}%</td><td>{}</td><td>{}</td><td>{}</td><td class=l>{link}</td></tr>",
                esc(&run_label(&runs[ri])),
                esc(term),
                100.0 * total as f64 / games.len().max(1) as f64,
                n[0],
                n[1],
                n[2]
            );
        }
    }
    html += "</table>";

    // The viewer.
    let with_states: usize = views.iter().flatten().map(|v| v.with_states).sum();
    let total: usize = rows.iter().map(Vec::len).sum();
    html += &format!(
        "<h2 id=\"viewer-title\">Games</h2><div id=\"viewer\"><div><label>run <select id=\"vrun\"></select></label> <label>game <select id=\"vgame\"></select></label></div><div id=\"vexamples\">examples: </div><div><button id=\"vfirst\" title=\"Home\">|&lt;</button><button id=\"vprev\" title=\"left arrow\">&lt;</button><button id=\"vnext\" title=\"right arrow\">&gt;</button><button id=\"vlast\" title=\"End\">&gt;|</button> <span class=note>keys: ← → Home End; click a move or the curve</span></div><p id=\"vstatus\"></p><p id=\"vnote\" class=note></p><div class=\"grid\"><div id=\"vboard\"></div><div><div id=\"veval\"></div><div id=\"vmoves\"></div></div></div><p class=note>Board states are embedded for {with_states} of {total} games (the example games, then the first games of each run, up to {} plies per page shared by the runs); every game's moves and evaluations are.</p></div>",
        crate::viewer::STATE_PLY_BUDGET
    );

    html += "<h2>Game length</h2><div class=\"grid\">";
    for r in runs {
        let plies: Vec<u32> = r.games.iter().map(|g| g.plies).collect();
        let bins: Vec<(u32, u64)> = crate::stats::histogram(&plies, crate::analysis::LENGTH_BIN)
            .iter()
            .map(|b| (b.start, b.count))
            .collect();
        html += &histogram_chart(&run_label(r), &bins, crate::analysis::LENGTH_BIN);
    }
    html += "</div>";

    // Piece values: the engine's, then estimates found in or beside the folders.
    let mut variants: Vec<&str> = runs.iter().map(|r| r.config.variant.as_str()).collect();
    variants.sort_unstable();
    variants.dedup();
    html += "<h2>Piece values</h2><p class=note>The engine's default material values (centipawns), per material kind.</p><div class=grid>";
    for v in &variants {
        if let Ok(kind) = variantlab_engine::VariantKind::from_name(v) {
            let kinds = with_variant!(kind, G => G::start().material_kinds());
            html += &format!("<table><tr><th colspan=2>{}</th></tr>", esc(v));
            for (name, cp) in kinds {
                html += &format!("<tr><td>{}</td><td>{cp}</td></tr>", esc(name));
            }
            html += "</table>";
        }
    }
    html += "</div>";
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
        html += "<h3>Estimated piece values (pawn units)</h3>";
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
            let finite = |f: fn(&IntervalRow) -> f64| rows.iter().map(f).filter(|x| x.is_finite());
            // The axis covers every interval: negative lows are drawn, not cut at 0.
            let max = finite(|r| r.3).fold(1.0f64, f64::max).ceil();
            let min = finite(|r| r.2).fold(0.0f64, f64::min).floor();
            html += &format!("<h4>{} — {}</h4>", esc(&variant), esc(&method));
            html += &interval_chart(&rows, min, max, Some(1.0), "");
        }
    }

    html += "<h2>Rules: reconstructions and decisions</h2><p class=note><span class=tag>[R]</span> a reconstruction taken from the rules file, <span class=tag>[D]</span> a decision of the rules file, <span class=tag>[V]</span> a decision of variantlab (docs/decisions.md).</p>";
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
                let text = esc(n);
                let text = match text.find(']') {
                    Some(i) if text.starts_with('[') => {
                        format!("<span class=tag>{}</span>{}", &text[..=i], &text[i + 1..])
                    }
                    _ => text,
                };
                html += &format!("<li>{text}</li>");
            }
            html += "</ul>";
        }
    }
    let data = serde_json::json!({
        "runs": views.iter().flatten().map(|v| &v.data).collect::<Vec<_>>(),
    });
    // `</` inside the JSON would close the script element early; `<\/` reads the same.
    let data = data.to_string().replace("</", "<\\/");
    html += &format!(
        "<pre id=\"selfcheck\"></pre><script type=\"application/json\" id=\"viewer-data\">{data}</script><script>{}</script></body></html>\n",
        include_str!("report.js")
    );
    crate::output::replace_file(out, html.as_bytes())?;
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

#[cfg(test)]
mod tests {
    use super::{histogram_chart, interval_chart};

    /// The numbers of attribute `name` in an SVG, in order.
    fn attr(svg: &str, name: &str) -> Vec<f64> {
        svg.split(&format!(" {name}=\""))
            .skip(1)
            .filter_map(|s| s.split('"').next()?.parse().ok())
            .collect()
    }

    /// A long label gets a label column wide enough for it, and an interval reaching below
    /// zero is drawn to its low end when the axis starts below zero.
    #[test]
    fn interval_chart_fits_labels_and_negative_lows() {
        let label = "am-chess-46 (default v default)".to_string();
        let svg = interval_chart(&[(label.clone(), 0.4, -0.5, 1.2)], -1.0, 2.0, None, "");
        let left = label.len() as f64 * 7.0 + 16.0;
        assert!(
            svg.contains(&format!("<text x=\"{}\"", left - 8.0)),
            "{svg}"
        );
        // The whisker: x1 at -0.5 lies a sixth of the axis right of its start (-1).
        let x1 = attr(&svg, "x1");
        let whisker = x1.last().copied().unwrap();
        assert!((whisker - (left + 420.0 / 6.0)).abs() < 1e-6, "{svg}");
    }

    /// Histograms have a count axis whose top tick covers the largest bin.
    #[test]
    fn histogram_has_a_count_axis() {
        let svg = histogram_chart("chess", &[(0, 3), (20, 17), (40, 6)], 20);
        for tick in ["0", "5", "10", "15", "20"] {
            assert!(
                svg.contains(&format!("fill=\"#555\">{tick}</text>")),
                "{tick}: {svg}"
            );
        }
        assert!(svg.contains(">games</text>"));
        assert_eq!(svg.matches("<rect").count(), 3);
    }
}

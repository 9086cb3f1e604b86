//! Summary files written at the end of a study.

use crate::output::out;
use crate::run::format::Summary;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use variantlab_engine::{with_variant, VariantKind};

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

use crate::analysis::charts::{axis, histogram_chart, interval_chart, ChartRow};
use crate::analysis::value_files::{piece_value_files, read_piece_values};
use crate::analysis::viewer::esc;

/// The search limit of a run, as words.
fn limit_text(c: &crate::run::format::RunConfig) -> String {
    match (c.nodes, c.depth, c.movetime, &c.tc) {
        (_, _, _, Some(tc)) => format!("clock {tc}"),
        (_, _, Some(ms), None) => format!("{ms} ms/move"),
        (Some(n), _, None, None) => format!("{n} nodes/move"),
        (None, d, None, None) => format!("depth {}", d.unwrap_or(0)),
    }
}

/// Each run's label in charts and menus: variant and engines, and where two runs would
/// share one, the folder's name too (two runs of one variant are told apart).
fn run_labels(runs: &[crate::analysis::RunData]) -> Vec<String> {
    let base = |r: &crate::analysis::RunData| {
        format!(
            "{} ({} v {})",
            r.config.variant.name(),
            r.config.white.name,
            r.config.black.name
        )
    };
    let plain: Vec<String> = runs.iter().map(base).collect();
    let mut labels: Vec<String> = runs
        .iter()
        .zip(&plain)
        .map(|(r, l)| {
            if plain.iter().filter(|p| *p == l).count() < 2 {
                return l.clone();
            }
            let name = r.dir.file_name().map_or_else(
                || r.dir.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            format!("{}, {name})", l.trim_end_matches(')'))
        })
        .collect();
    // Folders of one name under different parents: their place in the list tells them apart.
    for i in 0..labels.len() {
        if labels[..i].contains(&labels[i]) {
            labels[i] = format!("{} #{}", labels[i], i + 1);
        }
    }
    labels
}

/// Shares of a total, in percent to one decimal, that add up to 100.0 (largest remainders
/// get the last tenths); a count above zero never reads as 0: it is `<0.1%`.
fn shares_text(counts: &[u64]) -> Vec<String> {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return counts.iter().map(|_| "-".to_string()).collect();
    }
    let exact: Vec<f64> = counts
        .iter()
        .map(|&c| 1000.0 * c as f64 / total as f64)
        .collect();
    let mut tenths: Vec<u64> = exact.iter().map(|e| e.floor() as u64).collect();
    let mut order: Vec<usize> = (0..counts.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (exact[a] - exact[a].floor(), exact[b] - exact[b].floor());
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    let missing = 1000 - tenths.iter().sum::<u64>();
    for &i in order.iter().take(missing as usize) {
        tenths[i] += 1;
    }
    tenths
        .iter()
        .zip(counts)
        .map(|(&t, &c)| {
            if t == 0 && c > 0 {
                "<0.1%".to_string()
            } else {
                format!("{}.{}%", t / 10, t % 10)
            }
        })
        .collect()
}

/// One estimate of a `piece_values.csv` row as a chart row: a value with its interval; the
/// unit a plain marker at 1; a kind left out or not estimable as those words (an older file
/// may hold a point value beside "not estimable": it is not drawn as one).
fn value_chart_row(v: &[String]) -> ChartRow {
    let num = |i: usize| v[i].parse::<f64>().ok().filter(|x| x.is_finite());
    let note = &v[7];
    let head = note.split(':').next().unwrap_or_default();
    let (value, interval, text) = if note == crate::values::row::UNIT_NOTE {
        (Some(1.0), None, "1 (the unit)".to_string())
    } else if head == "left out" || head == "not estimable" {
        (None, None, head.to_string())
    } else {
        match (num(3), num(4).zip(num(5))) {
            (Some(x), Some(i)) => (Some(x), Some(i), crate::stats::fixed(x, 2)),
            (Some(x), None) => (
                Some(x),
                None,
                format!("{} (no interval)", crate::stats::fixed(x, 2)),
            ),
            (None, _) => (None, None, "no value".to_string()),
        }
    };
    ChartRow {
        label: format!("{} ({} games)", v[1], v[6]),
        value,
        interval,
        text,
        title: note.clone(),
    }
}

/// The estimated piece values found in or beside the run folders (`piece_values.csv`): one
/// chart per variant and method, each with its notes (why a kind has no value, warnings).
fn estimated_values_html(runs: &[crate::analysis::RunData]) -> Result<String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut values = Vec::new();
    for r in runs {
        for candidate in piece_value_files(r) {
            if seen.insert(candidate.clone()) {
                values.extend(read_piece_values(&candidate)?);
            }
        }
    }
    if values.is_empty() {
        return Ok(String::new());
    }
    let mut html = "<h2>Estimated piece values</h2><p class=note>In units of the kind marked \"the unit\" (1 by definition), with 95% intervals; hover a row for its note.</p>".to_string();
    let mut by_group: std::collections::BTreeMap<(String, String), Vec<&Vec<String>>> =
        Default::default();
    for v in &values {
        by_group
            .entry((v[0].clone(), v[2].clone()))
            .or_default()
            .push(v);
    }
    for ((variant, method), group) in by_group {
        let rows: Vec<ChartRow> = group.iter().map(|v| value_chart_row(v)).collect();
        html += &format!("<h3>{} — {}</h3>", esc(&variant), esc(&method));
        html += &interval_chart(&rows, axis(&rows, &[0.0, 1.0]), Some(1.0));
        // Each note once, with the kinds it is about.
        let mut notes: Vec<(&str, Vec<&str>)> = Vec::new();
        for v in group
            .iter()
            .filter(|v| !v[7].is_empty() && v[7] != crate::values::row::UNIT_NOTE)
        {
            match notes.iter_mut().find(|n| n.0 == v[7]) {
                Some(n) => n.1.push(&v[1]),
                None => notes.push((&v[7], vec![&v[1]])),
            }
        }
        if !notes.is_empty() {
            html += "<ul class=note>";
            for (note, pieces) in notes {
                html += &format!("<li>{}: {}</li>", esc(&pieces.join(", ")), esc(note));
            }
            html += "</ul>";
        }
    }
    Ok(html)
}

/// The "Typical games" section: each run's games chosen by [`crate::analysis::typical`]'s
/// rules, each opening in the viewer.
fn typical_html(labels: &[String], typicals: &[crate::analysis::typical::TypicalGames]) -> String {
    let mut html = String::from("<h2>Typical games</h2><p class=note>Chosen by rule (docs/statistics.md, \"Typical games\"): <b>decisive</b>, the won game whose length is nearest the median length of the run's won games; <b>long</b>, the longest game that did not reach the ply cap (the longest of all when every game did); <b>special rule</b>, the game with the most uses of the variant's special rule (named beside it; a variant file's is the rule the fewest games used). Ties go to the lowest game number; one game may fill two roles.</p><table><tr><th>variant</th><th>role</th><th>game</th><th>plies</th><th>result</th><th>termination</th><th>special rule: uses</th></tr>");
    for (ri, (label, t)) in labels.iter().zip(typicals).enumerate() {
        for g in &t.games {
            let rule = if t.rule.is_empty() {
                "–".to_string()
            } else {
                format!("{}: {}", esc(&t.rule), g.uses)
            };
            html += &format!(
                "<tr><td>{}</td><td class=l>{}</td><td class=l><a href=\"#viewer\" data-open-game=\"{ri}:{id}\">game {id}</a></td><td>{}</td><td>{}</td><td class=l>{}</td><td class=l>{rule}</td></tr>",
                esc(label),
                g.role,
                g.plies,
                g.result,
                esc(&g.termination),
                id = g.game,
            );
        }
        if t.games.is_empty() {
            html += &format!(
                "<tr><td>{}</td><td class=l colspan=6>no games</td></tr>",
                esc(label)
            );
        }
    }
    html + "</table>"
}

/// The page's style: tables, boards (occupant discs by owner), viewer.
const STYLE: &str = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}td:first-child,td.l{text-align:left}.grid{display:flex;flex-wrap:wrap;gap:12px}.diagram{border:1px solid #ddd;padding:6px;margin:6px 0}.legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:12px;height:12px;border:1px solid #999;margin-right:4px;vertical-align:-2px}g.occ.e{display:none}g.occ.w circle{fill:#fff;stroke:#222}g.occ.b circle{fill:#222;stroke:#000}g.occ.n circle{fill:#ffd54a;stroke:#7a5c00}g.occ.w text,g.occ.n text{fill:#111}g.occ.b text{fill:#fff}#viewer{border:2px solid #bbb;padding:8px}#vmoves{max-height:220px;overflow:auto;font-family:monospace;font-size:12px;border:1px solid #ddd;padding:4px}#vmoves span{display:inline-block;min-width:9em;cursor:pointer}#vmoves span.cur{background:#ffe08a}#vexamples button{margin:2px}.tag{font-family:monospace;font-weight:bold}.note{color:#555;font-size:13px}#selfcheck{display:none}body.shot>*:not(#viewer){display:none}body.shot{max-width:none;margin:8px}";

/// Writes the HTML report of tournament folders, one self-contained page, results first:
/// score and draw rate with intervals, how games ended, game-length histograms, estimated
/// piece values (any `piece_values.csv` in or beside the folders), a game viewer (every
/// game's moves and evaluations; boards for the example games and the first games); then
/// the runs and their settings, each variant's board, the engine's piece values and each
/// variant's rule decisions.
///
/// # Errors
/// An unreadable or truncated CSV, a recorded move that is not legal, an unwritable output.
pub fn write_html(runs: &[crate::analysis::RunData], out: &Path) -> Result<()> {
    write_html_compared(runs, None, out)
}

/// [`write_html`] with, when `base` names one of the runs, a "Comparison" section after the
/// balance figures: every other run against it ([`crate::analysis::compare::report_html`]).
///
/// # Errors
/// As [`write_html`]; a run without games when there is a base.
pub fn write_html_compared(
    runs: &[crate::analysis::RunData],
    base: Option<usize>,
    out: &Path,
) -> Result<()> {
    let mut html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>variantlab report</title><style>{STYLE}</style></head><body><h1>variantlab report</h1>"
    );
    html += &format!("<p>{} tournament folder(s). Intervals are 95%; the two games of a colour-swapped pair count as one cluster, and small or all-draw samples keep a real width (see docs/statistics.md). Balance is 1 − |W − B| / (W + B) over decisive games.</p>", runs.len());

    // Runs and their settings (drawn after the results).
    let mut settings = String::from("<h2>Runs and settings</h2><table><tr><th>variant</th><th>White v Black</th><th>search</th><th>openings</th><th>ply cap</th><th>adjudication</th><th>games</th><th>seed</th><th>threads</th><th>moves recorded</th><th>engine</th></tr>");
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
        settings += &format!(
            "<tr><td>{}</td><td class=l>{} v {}</td><td class=l>{}</td><td class=l>{}</td><td>{}</td><td class=l>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td class=l>{}{}</td></tr>",
            esc(c.variant.name()),
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
    settings += "</table>";
    let labels = run_labels(runs);

    // Games read back and replayed for the boards and the viewer.
    let budget = crate::analysis::viewer::STATE_PLY_BUDGET / runs.len().max(1);
    let mut views = Vec::new();
    let mut rows = Vec::new();
    let mut typicals = Vec::new();
    for r in runs {
        let typical =
            crate::analysis::typical::typical(r, crate::analysis::usage::usage(r)?.as_ref());
        let extra: Vec<(String, u64)> = typical
            .games
            .iter()
            .map(|t| (format!("typical {}", t.role), t.game))
            .collect();
        let games = crate::run::recorded::read_games(&r.dir)?;
        let moves = if r.dir.join("moves.csv").exists() {
            crate::run::recorded::read_moves(&r.dir)?
        } else {
            Default::default()
        };
        let view = with_variant!(r.config.variant, G => crate::analysis::viewer::run_view::<G>(
            &labels[views.len()],
            &r.config,
            &r.dir,
            &games,
            &moves,
            budget,
            &extra,
        ))?;
        views.push(view);
        rows.push(games);
        typicals.push(typical);
    }

    // Boards: the start position of every variant of the page.
    let mut boards = String::from("<h2>Boards</h2><p class=note>Start positions, drawn by the engine's own diagram of each variant (hover a cell for its name). White pieces are white discs, Black's black; yellow discs are neutral markers.</p>");
    let mut drawn = std::collections::BTreeSet::new();
    for (r, view) in runs.iter().zip(&views) {
        let variant = r.config.variant.name();
        if !drawn.insert(variant) {
            continue;
        }
        let title = r.config.variant.info().title;
        boards += &format!(
            "<div class=\"diagram\" data-variant=\"{}\"><h3>{} (<code>{}</code>)</h3>{}{}</div>",
            esc(variant),
            esc(title),
            esc(variant),
            crate::analysis::viewer::diagram_svg(&view.start),
            crate::analysis::viewer::legend_html(&view.start)
        );
    }

    // Balance.
    html += "<h2>Balance</h2><table><tr><th>variant</th><th>engines</th><th>games</th><th>+</th><th>=</th><th>-</th><th>White score</th><th>White Elo</th><th>draw rate</th><th>balance (decisive)</th><th>mean plies</th></tr>";
    let mut score_rows = Vec::new();
    let mut draw_rows = Vec::new();
    for (r, label) in runs.iter().zip(&labels) {
        let b = crate::analysis::balance(r);
        let s = &b.stats;
        html += &format!(
            "<tr><td>{}</td><td>{} v {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} ({} games)</td><td>{}</td></tr>",
            esc(r.config.variant.name()), esc(&r.config.white.name), esc(&r.config.black.name), s.games(), s.white_wins, s.draws, s.black_wins,
            b.white_score.show(3), b.white_elo.show(0), b.draw_rate.show(3),
            b.balance.map_or("n/a".to_string(), |e| e.show(3)), b.decisive,
            b.duration.map_or_else(|| "n/a".to_string(), |e| e.show(1))
        );
        let (w, d) = (&b.white_score, &b.draw_rate);
        score_rows.push(ChartRow::estimate(label.clone(), w.value, w.low, w.high, 3));
        draw_rows.push(ChartRow::estimate(label.clone(), d.value, d.low, d.high, 3));
    }
    html += "</table><h3>White's score</h3>";
    html += &interval_chart(&score_rows, (0.0, 1.0, 0.25), Some(0.5));
    html += "<h3>Draw rate</h3>";
    html += &interval_chart(&draw_rows, (0.0, 1.0, 0.25), None);
    if let Some(base) = base {
        html += &crate::analysis::compare::report_html(runs, base)?;
    }
    html += &crate::analysis::ladder::report_html(runs);

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
        let counts: Vec<u64> = list.iter().map(|(_, (n, _))| n.iter().sum()).collect();
        let shares = shares_text(&counts);
        for ((term, (n, example)), share) in list.into_iter().zip(shares) {
            let total: u64 = n.iter().sum();
            // The viewer lists every run: its index is the run's.
            let link =
                format!("<a href=\"#viewer\" data-open-game=\"{ri}:{example}\">game {example}</a>");
            html += &format!(
                "<tr><td>{}</td><td class=l>{}</td><td>{total}</td><td>{share}</td><td>{}</td><td>{}</td><td>{}</td><td class=l>{link}</td></tr>",
                esc(&labels[ri]),
                esc(term),
                n[0],
                n[1],
                n[2]
            );
        }
    }
    html += "</table>";
    html += &typical_html(&labels, &typicals);

    // The viewer.
    let with_states: usize = views.iter().map(|v| v.with_states).sum();
    let total: usize = rows.iter().map(Vec::len).sum();
    let viewer = format!(
        "<h2 id=\"viewer-title\">Games</h2><div id=\"viewer\"><div><label>run <select id=\"vrun\"></select></label> <label>game <select id=\"vgame\"></select></label></div><div id=\"vexamples\">examples: </div><div><button id=\"vfirst\" title=\"Home\">|&lt;</button><button id=\"vprev\" title=\"left arrow\">&lt;</button><button id=\"vnext\" title=\"right arrow\">&gt;</button><button id=\"vlast\" title=\"End\">&gt;|</button> <span class=note>keys: ← → Home End; click a move or the curve</span></div><p id=\"vstatus\"></p><p id=\"vnote\" class=note></p><div class=\"grid\"><div id=\"vboard\"></div><div><div id=\"veval\"></div><div id=\"vmoves\"></div></div></div><p class=note>Board states are embedded for {with_states} of {total} games (the example games, then the first games of each run, up to {} plies per page shared by the runs); every game's moves and evaluations are.</p></div>",
        crate::analysis::viewer::STATE_PLY_BUDGET
    );

    html += "<h2>Game length</h2><div class=\"grid\">";
    for (r, label) in runs.iter().zip(&labels) {
        let plies: Vec<u32> = r.games.iter().map(|g| g.plies).collect();
        let bins: Vec<(u32, u64)> = crate::stats::histogram(&plies, crate::analysis::LENGTH_BIN)
            .iter()
            .map(|b| (b.start, b.count))
            .collect();
        html += &histogram_chart(label, &bins, crate::analysis::LENGTH_BIN);
    }
    html += "</div>";

    // Piece values: estimates found in or beside the folders, then the engine's.
    let mut variants: Vec<VariantKind> = runs.iter().map(|r| r.config.variant).collect();
    variants.sort_unstable_by_key(|v| v.name());
    variants.dedup();
    html += &estimated_values_html(runs)?;
    html += &viewer;
    html += &settings;
    html += &boards;
    html += "<h2>The engine's piece values</h2><p class=note>The engine's default material values (centipawns), per material kind.</p><div class=grid>";
    for &kind in &variants {
        let kinds = with_variant!(kind, G => G::start().material_kinds());
        html += &format!("<table><tr><th colspan=2>{}</th></tr>", esc(kind.name()));
        for (name, cp) in kinds {
            html += &format!("<tr><td>{}</td><td>{cp}</td></tr>", esc(name));
        }
        html += "</table>";
    }
    html += "</div>";

    html += "<h2>Rules: reconstructions and decisions</h2><p class=note><span class=tag>[R]</span> a reconstruction taken from the rules file, <span class=tag>[D]</span> a decision of the rules file, <span class=tag>[V]</span> a decision of variantlab (docs/decisions.md).</p>";
    for kind in variants {
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
    let data = serde_json::json!({
        "runs": views.iter().map(|v| &v.data).collect::<Vec<_>>(),
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
    compared_command(dirs, None, out)
}

/// `variantlab report --base DIR`: [`command`], the runs compared against `base`.
///
/// # Errors
/// As [`command`]; a run without games.
pub fn compared_command(dirs: &[PathBuf], base: Option<&Path>, out: &Path) -> Result<()> {
    // The base is one of the folders, or else the page's first run.
    let mut dirs = dirs.to_vec();
    let base = base.map(|b| {
        dirs.iter().position(|d| d == b).unwrap_or_else(|| {
            dirs.insert(0, b.to_path_buf());
            0
        })
    });
    let runs = dirs
        .iter()
        .map(|d| crate::analysis::load(d))
        .collect::<Result<Vec<_>>>()?;
    write_html_compared(&runs, base, out)?;
    out!("wrote {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::shares_text;

    /// The shares of "How games ended" add up to 100.0%, and one game in 400 is not 0%.
    #[test]
    fn shares_add_up_and_none_reads_zero() {
        assert_eq!(shares_text(&[346, 53, 1]), ["86.5%", "13.3%", "0.2%"]);
        assert_eq!(shares_text(&[1, 1, 1]), ["33.4%", "33.3%", "33.3%"]);
        assert_eq!(shares_text(&[19_999, 1]), ["100.0%", "<0.1%"]);
        assert_eq!(shares_text(&[400]), ["100.0%"]);
        for counts in [[7u64, 11, 13, 17], [1, 2, 3, 994], [250, 250, 250, 250]] {
            let sum: f64 = shares_text(&counts)
                .iter()
                .map(|s| s.trim_end_matches('%').parse::<f64>().unwrap())
                .sum();
            assert!((sum - 100.0).abs() < 1e-9, "{counts:?}: {sum}");
        }
    }
}

//! The report's board diagrams and game viewer data.
//!
//! The page's script knows no variant's rules, so everything it shows is computed here: each
//! game is replayed on the engine ([`crate::run::recorded`]) and every ply becomes the list of cell
//! occupants of the variant's [`Diagram`] (cells fixed per variant, so a ply is stored as the
//! cells that changed). The script only draws: it sets the occupants of an SVG template
//! rendered here from the start position.
//!
//! Size: every game's moves and evaluations are embedded, but board states only for the
//! example games and then the first games in order, up to [`STATE_PLY_BUDGET`] plies per page
//! shared by its runs; the page says which games have no boards. A ply is stored as the cells
//! it changed (`cell:code,...`, plies separated by `;`).

use crate::run::format::RunConfig;
use crate::run::recorded::{GameRow, Ply};
use anyhow::Result;
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::Path;
use variantlab_engine::diagram::Diagram;
use variantlab_engine::game::Game;

/// Most plies with board states embedded in one page beyond the example games, shared
/// evenly by its runs. A ply costs about 10 bytes (the cells that changed, as
/// `cell:code,...`), so this bounds the boards to about a megabyte.
pub const STATE_PLY_BUDGET: usize = 100_000;

/// Escapes text for HTML and SVG.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Pixel size of a cell, so that boards of any size fit the page's width (about 1000 px):
/// Gateway's five levels side by side get cells large enough to read their letters.
fn cell_px(d: &Diagram) -> f32 {
    (1000.0 / d.size().0).clamp(18.0, 44.0).floor()
}

/// The SVG of a diagram: cells (holes crossed), labels, and one occupant group per cell
/// (`<g class="occ w|b|n|e" data-i=cell>` with a disc, a letter and a small text) that the
/// viewer's script refills for every ply.
pub fn diagram_svg(d: &Diagram) -> String {
    let s = cell_px(d);
    let (w, h) = d.size();
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{:.0}" height="{:.0}" font-family="sans-serif" data-cells="{}">"#,
        w * s + 4.0,
        h * s + 4.0,
        d.cells.len()
    );
    for c in &d.cells {
        let (x, y) = (c.x * s, c.y * s);
        let _ = write!(
            out,
            r##"<rect class="cell{}" x="{x:.1}" y="{y:.1}" width="{s}" height="{s}" fill="{}" stroke="#0003"><title>{}</title></rect>"##,
            if c.hole { " hole" } else { "" },
            if c.hole { "#666" } else { c.fill },
            esc(&c.name)
        );
        if c.hole {
            let _ = write!(
                out,
                r##"<path d="M{x:.1} {y:.1}l{s} {s}M{:.1} {y:.1}l-{s} {s}" stroke="#999"/>"##,
                x + s
            );
        }
    }
    for l in &d.labels {
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="{:.0}" fill="#444">{}</text>"##,
            l.x * s,
            l.y * s,
            (s * 0.4).max(10.0),
            esc(&l.text)
        );
    }
    for (i, c) in d.cells.iter().enumerate() {
        if c.hole {
            continue;
        }
        let (cx, cy) = (c.x * s + s / 2.0, c.y * s + s / 2.0);
        let (class, text, sub) = match &c.occupant {
            None => ("e", String::new(), String::new()),
            Some(o) => {
                let code = o.code();
                let class = &code[..1];
                let class = match class {
                    "w" => "w",
                    "b" => "b",
                    _ => "n",
                };
                (class, o.text.clone(), o.sub.clone())
            }
        };
        let _ = write!(
            out,
            r#"<g class="occ {class}" data-i="{i}"><circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}"/><text class="t" x="{cx:.1}" y="{:.1}" text-anchor="middle" font-size="{:.0}" font-weight="bold">{}</text><text class="s" x="{cx:.1}" y="{:.1}" text-anchor="middle" font-size="{:.0}">{}</text></g>"#,
            s * 0.42,
            cy + s * 0.12,
            s * 0.4,
            esc(&text),
            cy + s * 0.38,
            (s * 0.26).max(7.0),
            esc(&sub)
        );
    }
    out + "</svg>"
}

/// The legend of a diagram as HTML (swatch and meaning).
pub fn legend_html(d: &Diagram) -> String {
    let mut out = String::from("<div class=\"legend\">");
    for (fill, text) in &d.legend {
        let _ = write!(
            out,
            "<span><i style=\"background:{fill}\"></i>{}</span>",
            esc(text)
        );
    }
    out + "</div>"
}

/// Example games of a run, by what they show: the shortest win of each side, the longest
/// game, and the first game of each termination.
pub fn examples(games: &[GameRow]) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for (result, label) in [("1-0", "shortest White win"), ("0-1", "shortest Black win")] {
        if let Some(g) = games
            .iter()
            .filter(|g| g.result == result)
            .min_by_key(|g| g.plies)
        {
            out.push((label.to_string(), g.id));
        }
    }
    if let Some(g) = games
        .iter()
        .max_by_key(|g| (g.plies, std::cmp::Reverse(g.id)))
    {
        out.push(("longest game".to_string(), g.id));
    }
    let mut seen = BTreeSet::new();
    for g in games {
        if seen.insert(g.termination.as_str()) {
            out.push((format!("ended by {}", g.termination), g.id));
        }
    }
    out
}

/// One run's part of the viewer: the start diagram and the JSON the script reads.
pub struct RunView {
    /// The variant's start position, drawn.
    pub start: Diagram,
    /// `{variant, label, template, games: [...], examples: [...]}` for the script.
    pub data: Value,
    /// Games with board states embedded.
    pub with_states: usize,
}

/// Replays the games of one run and builds its viewer data, with board states for the
/// example games (`extra`, labelled, after the run's [`examples`]) and for the first games up to
/// `budget` plies.
///
/// # Errors
/// A bad opening or an illegal recorded move ([`crate::run::recorded::replay`]).
pub fn run_view<G: Game>(
    label: &str,
    run: &RunConfig,
    dir: &Path,
    games: &[GameRow],
    moves: &HashMap<u64, Vec<Ply>>,
    budget: usize,
    extra: &[(String, u64)],
) -> Result<RunView> {
    let start = G::start().diagram();
    let template = diagram_svg(&start);
    let mut examples = examples(games);
    examples.extend_from_slice(extra);
    // The examples always; then the games in order, while the budget lasts.
    let mut chosen: BTreeSet<u64> = examples.iter().map(|e| e.1).collect();
    let mut left = budget;
    for g in games {
        let n = moves.get(&g.id).map_or(0, Vec::len) + 1;
        if n > left {
            break;
        }
        if chosen.insert(g.id) {
            left -= n;
        }
    }
    let mut with_states = 0;
    let mut list = Vec::new();
    for g in games {
        let plies = moves.get(&g.id).map(Vec::as_slice).unwrap_or(&[]);
        let mut entry = json!({
            "id": g.id,
            "result": g.result,
            "term": g.termination,
            "plies": g.plies,
            "opening": g.opening,
            "moves": plies.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join(" "),
            "evals": plies.iter().map(|p| p.eval_white_cp.round() as i64).collect::<Vec<_>>(),
        });
        if chosen.contains(&g.id) {
            let first: G = crate::run::recorded::opening_position(run, dir, g)?;
            let start_codes = first.diagram().codes();
            let mut prev = start_codes.clone();
            let mut diffs: Vec<String> = Vec::with_capacity(plies.len());
            let last: G = crate::run::recorded::replay(run, dir, g, plies, |_, pos: &G, m| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                let codes = next.diagram().codes();
                let d: Vec<String> = prev
                    .iter()
                    .zip(&codes)
                    .enumerate()
                    .filter(|(_, (a, b))| a != b)
                    .map(|(i, (_, b))| format!("{i}:{b}"))
                    .collect();
                diffs.push(d.join(","));
                prev = codes;
                Ok(())
            })?;
            entry["states"] = json!({ "start": start_codes, "diffs": diffs.join(";") });
            entry["final"] = json!(last.to_text());
            with_states += 1;
        }
        list.push(entry);
    }
    let data = json!({
        "variant": run.variant.name(),
        "label": label,
        "cells": start.cells.len(),
        "template": template,
        "games": list,
        "examples": examples.iter().map(|(l, id)| json!({"label": l, "id": id})).collect::<Vec<_>>(),
    });
    Ok(RunView {
        start,
        data,
        with_states,
    })
}

/// The occupants of every ply of one embedded game (start first), decoded from the page data
/// the way the script decodes them; `None` for a game without board states.
pub fn decode_states(game: &Value) -> Option<Vec<Vec<String>>> {
    let states = game.get("states")?;
    let mut cur: Vec<String> = states["start"]
        .as_array()?
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect();
    let mut out = vec![cur.clone()];
    let diffs = states["diffs"].as_str()?;
    if !diffs.is_empty() || game["moves"].as_str().is_some_and(|m| !m.is_empty()) {
        for ply in diffs.split(';') {
            for change in ply.split(',').filter(|c| !c.is_empty()) {
                let (i, code) = change.split_once(':')?;
                *cur.get_mut(i.parse::<usize>().ok()?)? = code.to_string();
            }
            out.push(cur.clone());
        }
    }
    Some(out)
}

/// The viewer data embedded in a report page (the JSON of its `viewer-data` script).
pub fn page_data(html: &str) -> Option<Value> {
    let start = html.find("<script type=\"application/json\" id=\"viewer-data\">")?;
    let rest = &html[start..];
    let open = rest.find('>')? + 1;
    let close = rest.find("</script>")?;
    serde_json::from_str(&rest[open..close]).ok()
}

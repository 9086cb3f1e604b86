//! The HTML report's boards and game viewer, on the recorded sample runs of every variant
//! (`data/samples/`), and the page in a real browser (headless Chromium).

mod common;

use std::path::{Path, PathBuf};
use variantlab_engine::{with_variant, VariantKind};
use variantlab_selfplay::viewer::{decode_states, diagram_svg, page_data};

fn samples(variant: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/samples")
        .join(variant)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-rp-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The report of one or more folders, as text.
fn report(dirs: &[PathBuf], name: &str) -> (PathBuf, String) {
    let out = tmp(name).with_extension("html");
    variantlab_selfplay::report::command(dirs, &out).expect("report");
    let html = std::fs::read_to_string(&out).unwrap();
    (out, html)
}

/// The start diagrams: every cell of the board drawn once (holes apart), every piece once.
#[test]
fn start_boards_have_their_cells_and_pieces() {
    // (variant, board cells, holes, side cells (hands, dialectic), pieces on the board)
    let expected = [
        ("chess", 64, 0, 0, 32),
        ("dream-chess-46", 46, 18, 0, 32),
        ("dialectic", 64, 0, 9, 32),
        ("extreme-2d", 100, 0, 0, 44),
        // Each Quantum King fills a row of four cells.
        ("gateway", 180, 20, 0, 100),
        ("dai-mitregi", 256, 0, 36, 118),
    ];
    for (name, cells, holes, side, pieces) in expected {
        let kind = VariantKind::from_name(name).unwrap();
        let d = with_variant!(kind, G => G::start().diagram());
        let svg = diagram_svg(&d);
        assert_eq!(
            svg.matches("<rect class=\"cell\"").count(),
            cells + side,
            "{name}"
        );
        assert_eq!(
            svg.matches("<rect class=\"cell hole\"").count(),
            holes,
            "{name}"
        );
        let drawn = svg.matches("class=\"occ w\"").count() + svg.matches("class=\"occ b\"").count();
        assert_eq!(drawn, pieces, "{name}");
        // One occupant slot per cell that exists, so the viewer can fill any of them.
        assert_eq!(
            svg.matches("<g class=\"occ").count(),
            cells + side,
            "{name}"
        );
    }
    // Every board's cells are large enough to read a letter in, Gateway's five levels too.
    for kind in VariantKind::ALL {
        let svg = diagram_svg(&with_variant!(kind, G => G::start().diagram()));
        let cell = svg.split("<rect class=\"cell").nth(1).unwrap();
        let width: f64 = cell
            .split("width=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(width >= 36.0, "{}: cells of {width} px", kind.name());
    }
    // Extreme 2D draws a stack's discs: White's a1 is a Pawn disc carrying red.
    let d = with_variant!(VariantKind::Extreme2d, G => G::start().diagram());
    let a1 = d.cells.iter().find(|c| c.name == "a1").unwrap();
    assert_eq!(a1.occupant.as_ref().unwrap().code(), "wP/r");
    // Gateway's Quantum Kings fill four cells of a row each; Dialectic's tokens are neutral.
    let d = with_variant!(VariantKind::Gateway, G => G::start().diagram());
    let qk = d.codes().iter().filter(|c| c.ends_with("QK")).count();
    assert_eq!(qk, 8);
    let d = with_variant!(VariantKind::Dialectic, G => G::start().diagram());
    let tokens: Vec<String> = d
        .codes()
        .into_iter()
        .filter(|c| c.starts_with('n'))
        .collect();
    assert_eq!(tokens, ["nT", "nA"]);
}

/// Every embedded game's final board is the engine's own position after its opening and
/// moves, replayed here independently from the CSVs; and the page stays small.
#[test]
fn viewer_states_replay_the_recorded_games() {
    for kind in VariantKind::ALL {
        let dir = samples(kind.name());
        let (_, html) = report(std::slice::from_ref(&dir), kind.name());
        assert!(
            html.len() < 3_000_000,
            "{}: {} bytes",
            kind.name(),
            html.len()
        );
        let data = page_data(&html).expect("viewer data");
        let run = &data["runs"][0];
        assert_eq!(run["variant"], kind.name());
        let games = run["games"].as_array().unwrap();
        let games_csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        assert_eq!(games.len(), games_csv.lines().count() - 1);
        let run_json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
        let openings = run_json["openings"].as_str().unwrap();
        let random =
            openings.starts_with("random-plies:") || openings.starts_with("balanced-plies:");
        let mut checked = 0;
        for g in games.iter().filter(|g| g.get("states").is_some()).take(12) {
            let states = decode_states(g).unwrap();
            let moves: Vec<&str> = g["moves"].as_str().unwrap().split_whitespace().collect();
            assert_eq!(states.len(), moves.len() + 1);
            assert_eq!(g["evals"].as_array().unwrap().len(), moves.len());
            let (start, end, text) = with_variant!(kind, G => {
                let opening = g["opening"].as_str().unwrap();
                let mut p = if random {
                    let mut p = G::start();
                    for m in opening.split_whitespace() {
                        p.play_text(m).unwrap();
                    }
                    p
                } else {
                    G::from_text(opening).unwrap()
                };
                let start = p.diagram().codes();
                for m in &moves {
                    p.play_text(m).unwrap();
                }
                (start, p.diagram().codes(), p.to_text())
            });
            assert_eq!(states[0], start, "{} game {}", kind.name(), g["id"]);
            assert_eq!(
                states.last().unwrap(),
                &end,
                "{} game {}",
                kind.name(),
                g["id"]
            );
            assert_eq!(g["final"], text.as_str());
            // Every ply changes the board somewhere (a move, a drop, a token step).
            assert!(states.windows(2).all(|w| w[0] != w[1]), "{}", kind.name());
            checked += 1;
        }
        assert!(
            checked >= 10,
            "{}: {checked} games with boards",
            kind.name()
        );
    }
}

/// What the statistics part states: settings, terminations with their counts, examples.
#[test]
fn page_states_settings_terminations_and_examples() {
    let dir = samples("gateway");
    let (_, html) = report(std::slice::from_ref(&dir), "gateway-terms");
    let games = variantlab_selfplay::recorded::read_games(&dir).unwrap();
    let repetitions = games
        .iter()
        .filter(|g| g.termination == "repetition")
        .count();
    assert!(repetitions > 0);
    assert!(
        html.contains(&format!(
            "<td class=l>repetition</td><td>{repetitions}</td>"
        )),
        "repetition count in the termination table"
    );
    assert!(html.contains("1000 nodes/move"));
    assert!(html.contains("random-plies:4"));
    assert!(html.contains("300 plies"));
    let data = page_data(&html).unwrap();
    let examples = data["runs"][0]["examples"].as_array().unwrap();
    let longest = games.iter().map(|g| g.plies).max().unwrap();
    let ex = examples
        .iter()
        .find(|e| e["label"] == "longest game")
        .unwrap();
    let id = ex["id"].as_u64().unwrap();
    assert_eq!(games.iter().find(|g| g.id == id).unwrap().plies, longest);
    // Every termination has an example, and every example has its boards.
    let terms: std::collections::BTreeSet<&str> =
        games.iter().map(|g| g.termination.as_str()).collect();
    for t in terms {
        assert!(examples
            .iter()
            .any(|e| e["label"] == format!("ended by {t}")));
    }
    for e in examples {
        let g = data["runs"][0]["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == e["id"])
            .unwrap();
        assert!(g.get("states").is_some(), "{e}");
    }
    // Rule notes keep their tags; labels are not clipped (the label column fits the text).
    assert!(html.contains("<span class=tag>[R]</span>"));
    assert!(html.contains("gateway (default v default)"));
}

/// A truncated moves.csv is refused with the file and line, not drawn half.
#[test]
fn truncated_moves_are_refused_with_the_line() {
    let src = samples("chess");
    let dir = tmp("truncated");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["run.json", "games.csv"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let moves = std::fs::read_to_string(src.join("moves.csv")).unwrap();
    let mut lines: Vec<&str> = moves.lines().take(40).collect();
    lines.push("0,40");
    std::fs::write(dir.join("moves.csv"), lines.join("\n") + "\n").unwrap();
    let out = tmp("truncated-out").with_extension("html");
    let _ = std::fs::remove_file(&out);
    let e = variantlab_selfplay::report::command(&[dir], &out).unwrap_err();
    let e = format!("{e:#}");
    assert!(e.contains("moves.csv") && e.contains("line 41"), "{e}");
}

/// Headless Chromium, or `None` (the skip of `test` recorded) where it is not installed;
/// under CI its absence is an error (`.ci/run` installs it).
fn chromium(test: &str) -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|p| p.join(name))
                    .find(|p| p.is_file())
            })
        });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is not installed but CI is set: .ci/run installs it (apt-get install chromium)"
        );
        common::skipped(test, "chromium is not installed (apt-get install chromium)");
    }
    found
}

/// The page as the browser leaves it after its script ran, at `hash`.
fn dump_dom(browser: &Path, page: &Path, hash: &str) -> String {
    let profile = tmp("chromium-profile");
    std::fs::create_dir_all(&profile).unwrap();
    let url = format!("file://{}{hash}", page.canonicalize().unwrap().display());
    let o = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", &url])
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(
        o.status.success(),
        "chromium: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The page in the browser at `#selfcheck`: the DOM as its script left it, and what the
/// script saw (its `#selfcheck` element).
fn self_check(browser: &Path, page: &Path) -> (String, serde_json::Value) {
    let dom = dump_dom(browser, page, "#selfcheck");
    let start = dom
        .find("<pre id=\"selfcheck\">")
        .expect("self-check element")
        + 20;
    let end = start + dom[start..].find("</pre>").unwrap();
    let text = dom[start..end].replace("&quot;", "\"");
    assert!(
        !text.is_empty(),
        "the page script did not finish its self-check"
    );
    let check = serde_json::from_str(&text).expect(&text);
    (dom, check)
}

/// In a real browser: every variant's board and the viewer appear, stepping a game by key
/// and by button changes the board, the last ply draws the embedded final position, and no
/// script error is raised (the page's `#selfcheck` mode writes what it saw into the DOM).
#[test]
fn page_works_in_chromium() {
    let Some(browser) = chromium("page_works_in_chromium") else {
        return;
    };
    let dirs: Vec<PathBuf> = VariantKind::ALL.iter().map(|k| samples(k.name())).collect();
    let (page, _) = report(&dirs, "browser");
    let (_, check) = self_check(&browser, &page);
    let text = check.to_string();
    assert_eq!(check["errors"], serde_json::json!([]), "{text}");
    let runs = check["runs"].as_array().unwrap();
    assert_eq!(runs.len(), VariantKind::ALL.len());
    for (r, kind) in runs.iter().zip(VariantKind::ALL) {
        assert_eq!(r["variant"], kind.name());
        assert!(r["cells"].as_u64().unwrap() > 0);
        assert_eq!(r["diagram_cells"], r["cells"], "{r}");
        assert_eq!(r["viewer_cells"], r["cells"], "{r}");
        assert_eq!(r["key_step_changed"], true, "{r}");
        assert_eq!(r["button_step_changed"], true, "{r}");
        assert_eq!(r["ply"], 2, "{r}");
        assert_eq!(r["final_drawn"], true, "{r}");
        assert_eq!(r["back_to_start"], true, "{r}");
    }
    assert!(check["move_list"].as_u64().unwrap() > 0);
    assert_eq!(check["eval_curve"], true);
    // No chart draws a text over another, the histograms included.
    assert_eq!(check["charts"], 2 + runs.len(), "{text}");
    assert_eq!(check["chart_overlaps"], serde_json::json!([]), "{text}");
}

/// Estimated piece values as `values` writes them (the unit, kinds left out, values not
/// estimable, one with a warning) and as an older version wrote them (a point value beside
/// "not estimable"), in the browser: no NaN anywhere, no label over another, the unit a
/// plain marker, "left out" and "not estimable" as words, the axis covering every value
/// drawn; notes listed; results before settings; two runs of one variant told apart.
#[test]
fn piece_value_charts_have_no_nan_or_overlap_in_chromium() {
    let Some(browser) = chromium("piece_value_charts_have_no_nan_or_overlap_in_chromium") else {
        return;
    };
    let root = tmp("values");
    let mut dirs = Vec::new();
    for name in ["a", "b"] {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["run.json", "games.csv", "moves.csv"] {
            std::fs::copy(samples("chess").join(f), dir.join(f)).unwrap();
        }
        dirs.push(dir);
    }
    let not_estimable = "not estimable: the unit's own interval reaches zero; play more games, or choose another --unit";
    let left_out = "left out: this variant's start position cannot lose a piece of this kind (a royal piece, or one the variant cannot remove)";
    let moved = "the values still moved after 40 rounds";
    std::fs::write(
        root.join("piece_values.csv"),
        format!(
            "variant,piece,method,value,low,high,games,note
chess,pawn,imbalance,1.000,,,400,the unit: 1 by definition
chess,knight,imbalance,3.100,2.500,3.800,400,
chess,bishop,imbalance,4.810,,,400,\"{not_estimable}\"
chess,rook,imbalance,,,,400,\"{not_estimable}\"
chess,queen,imbalance,9.200,7.100,12.520,400,
chess,king,imbalance,,,,0,\"{left_out}\"
chess,pawn,balanced,1.000,,,400,the unit: 1 by definition
chess,knight,balanced,3.200,2.900,3.500,400,{moved}
chess,rook,balanced,-0.400,-1.300,0.600,400,{moved}
chess,king,balanced,,,,400,left out: never differs between the sides at a sampled position
"
        ),
    )
    .unwrap();
    let (page, html) = report(&dirs, "values-page");
    let (dom, check) = self_check(&browser, &page);
    let text = check.to_string();
    assert_eq!(check["errors"], serde_json::json!([]), "{text}");
    assert!(!dom.contains("NaN"), "NaN in the page");
    assert_eq!(check["chart_overlaps"], serde_json::json!([]), "{text}");
    // Two interval charts a method, score and draw charts, two histograms.
    assert_eq!(check["charts"], 2 + 2 + 2, "{text}");
    // The imbalance chart: the unit a square, one whisker each for knight and queen, and
    // the rest in words; the axis reaches the queen's high end (12.52): ticks to 15.
    let start = html.find("<h3>chess — imbalance</h3>").unwrap();
    let svg = &html[start..start + html[start..].find("</svg>").unwrap()];
    assert_eq!(svg.matches("<rect").count(), 1, "{svg}");
    assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
    assert_eq!(svg.matches(">not estimable</text>").count(), 2, "{svg}");
    assert_eq!(svg.matches(">left out</text>").count(), 1, "{svg}");
    assert!(
        !svg.contains(">4.81"),
        "a value not estimable drawn as one: {svg}"
    );
    assert!(
        svg.contains(">15</text>") && svg.contains(">9.20</text>"),
        "{svg}"
    );
    // The balanced chart reaches below zero, and its warning is on the page.
    let start = html.find("<h3>chess — balanced</h3>").unwrap();
    let svg = &html[start..start + html[start..].find("</svg>").unwrap()];
    assert!(svg.contains(">-2</text>"), "{svg}");
    assert!(
        html.contains(&format!("<li>knight, rook: {moved}</li>")),
        "the warning"
    );
    // Results first, then the viewer, the settings and the boards.
    let at = |h: &str| html.find(h).unwrap_or_else(|| panic!("{h}"));
    assert!(at("<h2>Balance</h2>") < at("<h2>Estimated piece values</h2>"));
    assert!(at("<h2>Estimated piece values</h2>") < at("<h2 id=\"viewer-title\">"));
    assert!(at("<h2 id=\"viewer-title\">") < at("<h2>Runs and settings</h2>"));
    assert!(at("<h2>Runs and settings</h2>") < at("<h2>Boards</h2>"));
    assert!(html.contains("chess (default v default, a)"));
    assert!(html.contains("chess (default v default, b)"));
    let _ = std::fs::remove_dir_all(&root);
}

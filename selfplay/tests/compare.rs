//! `variantlab compare` end to end: the differences of real runs against `stats`' own
//! figures, piece values beside the runs, and the inputs it must refuse.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn variantlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .output()
        .expect("runs")
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-cmp-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A small run: 8 games at 200 nodes, `variant` being `--variant NAME` or `--variant-file F`.
fn small_run(dir: &Path, variant: &[&str]) {
    let mut args = vec!["play"];
    args.extend(variant);
    args.extend(["--games", "8", "--nodes", "200", "--quiet", "--out", s(dir)]);
    let o = variantlab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `variantlab compare ARGS`, which must succeed: its stdout and `compare.csv`'s rows.
fn compare(args: &[&str], out: &Path) -> (String, Vec<Vec<String>>) {
    let mut all = vec!["compare"];
    all.extend(args);
    all.extend(["--out", s(out)]);
    let o = variantlab(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        csv_rows(&out.join("compare.csv")),
    )
}

/// A command that must fail: its stderr (and it must not have panicked).
fn refused(args: &[&str]) -> String {
    let o = variantlab(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success(), "accepted: {args:?}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let mut rows = vec![r.headers().unwrap().iter().map(String::from).collect()];
    rows.extend(
        r.records()
            .map(|x| x.unwrap().iter().map(String::from).collect()),
    );
    rows
}

/// The value of column `name` in `row` of a table whose header is `rows[0]`.
fn field<'a>(rows: &'a [Vec<String>], row: &'a [String], name: &str) -> &'a str {
    let c = rows[0].iter().position(|h| h == name).unwrap();
    &row[c]
}

fn num(x: &str) -> f64 {
    x.parse()
        .unwrap_or_else(|_| panic!("{x:?} is not a number"))
}

/// Each difference is the alternative's `stats` figure less the base's (to their rounding),
/// for chess against Dialectic and Dream Chess 46 against a variant file changing it.
#[test]
fn differences_are_the_stats_figures_subtracted() {
    let root = tmp("pairs");
    let (chess, dialectic, dream, queen) = (
        root.join("chess"),
        root.join("dialectic"),
        root.join("dream"),
        root.join("queen-back"),
    );
    small_run(&chess, &["--variant", "chess"]);
    small_run(&dialectic, &["--variant", "dialectic"]);
    small_run(&dream, &["--variant", "dream-chess-46"]);
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/dream-46-queen-back.toml");
    small_run(&queen, &["--variant-file", s(&file)]);
    let st = root.join("stats");
    let o = variantlab(&[
        "stats",
        s(&chess),
        s(&dialectic),
        s(&dream),
        s(&queen),
        "--out",
        s(&st),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let balance = csv_rows(&st.join("balance.csv"));
    let figure = |run: &Path, col: &str| -> f64 {
        let row = balance[1..]
            .iter()
            .find(|r| field(&balance, r, "run") == s(run))
            .unwrap();
        num(field(&balance, row, col))
    };
    // stats' column of each compared figure, and its rounding.
    let columns = [
        ("white_score", "white_score", 1e-4),
        ("draw_rate", "draw_rate", 1e-4),
        ("decisive_rate", "decisiveness", 1e-4),
        ("unconverted_rate", "unconverted_rate", 1e-4),
        ("mean_plies", "duration", 1e-2),
    ];
    for (base, alts) in [(&chess, vec![&dialectic]), (&dream, vec![&queen])] {
        let mut args = vec![s(base)];
        args.extend(alts.iter().map(|a| s(a)));
        let (text, rows) = compare(&args, &root.join("out"));
        assert_eq!(rows.len(), 1 + columns.len() * alts.len(), "{rows:?}");
        assert!(text.contains("piece values: none found"), "{text}");
        assert!(!text.contains("start from the same position"), "{text}");
        for (alt, chunk) in alts.iter().zip(rows[1..].chunks(columns.len())) {
            for ((metric, col, unit), row) in columns.iter().zip(chunk) {
                let f = |name| field(&rows, row, name);
                assert_eq!(
                    (f("base"), f("alt"), f("metric")),
                    (s(base), s(alt), *metric)
                );
                let (b, a, d) = (
                    num(f("base_value")),
                    num(f("alt_value")),
                    num(f("difference")),
                );
                assert!((b - figure(base, col)).abs() < unit / 2.0 + 1e-9, "{row:?}");
                assert!((a - figure(alt, col)).abs() < unit / 2.0 + 1e-9, "{row:?}");
                assert!(
                    (d - (figure(alt, col) - figure(base, col))).abs() <= 1.5 * unit,
                    "{row:?}"
                );
                let (low, high) = (num(f("low")), num(f("high")));
                assert!(low < high, "{row:?}");
                let shown = low > 0.0 || high < 0.0;
                assert_eq!(f("verdict"), if shown { "shown" } else { "not shown" });
                assert_eq!(
                    (f("base_games"), f("alt_games"), f("complete")),
                    ("8", "8", "true")
                );
                let needed = num(f("games_needed_detect"));
                assert!(needed >= 2.0 && needed % 2.0 == 0.0, "{row:?}");
            }
        }
        // The decisive rate mirrors the draw rate.
        let (draw, decisive) = (&rows[2], &rows[3]);
        assert_eq!(
            num(field(&rows, draw, "difference")),
            -num(field(&rows, decisive, "difference"))
        );
    }
}

/// Piece values in the run folders are compared kind by kind (a kind in one only, or one
/// measured in another unit, is left out), each difference's interval from the two
/// intervals' widths; and a smaller `--detect` asks for more games.
#[test]
fn piece_values_beside_the_runs_are_compared() {
    let root = tmp("values");
    let (base, alt) = (root.join("chess"), root.join("dialectic"));
    small_run(&base, &["--variant", "chess"]);
    small_run(&alt, &["--variant", "dialectic"]);
    let header = "variant,piece,method,value,low,high,games,note\n";
    std::fs::write(
        base.join("piece_values.csv"),
        format!("{header}chess,pawn,imbalance,1,,,400,the unit: 1 by definition\nchess,knight,imbalance,3.0,2.6,3.4,400,\nchess,rook,imbalance,5.0,4.5,5.5,400,\nchess,bishop,regression,3.2,3.0,3.4,400,\n"),
    )
    .unwrap();
    std::fs::write(
        alt.join("piece_values.csv"),
        format!("{header}dialectic,pawn,imbalance,1,,,100,the unit: 1 by definition\ndialectic,knight,imbalance,3.5,2.9,4.1,100,\ndialectic,philosopher,imbalance,4.0,3.0,5.0,100,\ndialectic,knight,regression,1,,,100,the unit: 1 by definition\ndialectic,bishop,regression,3.0,2.0,4.0,100,\n"),
    )
    .unwrap();
    let (text, rows) = compare(
        &[s(&base), s(&alt), "--detect", "value=0.5"],
        &root.join("out"),
    );
    let values: Vec<&Vec<String>> = rows[1..]
        .iter()
        .filter(|r| field(&rows, r, "metric").starts_with("value:"))
        .collect();
    assert_eq!(values.len(), 1, "{rows:?}\n{text}");
    let knight = values[0];
    let f = |name| field(&rows, knight, name);
    assert_eq!(f("metric"), "value:knight:imbalance");
    assert_eq!(
        (f("base_value"), f("alt_value"), f("difference")),
        ("3.00", "3.50", "0.50")
    );
    // Half-widths 0.4 and 0.6: the difference's is sqrt(0.4² + 0.6²) = 0.72.
    assert_eq!(
        (f("low"), f("high"), f("verdict")),
        ("-0.22", "1.22", "not shown")
    );
    assert_eq!(f("detect"), "0.50");
    assert_eq!(f("games_needed"), f("games_needed_detect"));
    assert!(text.contains("1 kind(s) valued in both"), "{text}");

    // Without --detect the default size (a quarter unit) needs four times the games.
    let (_, rows2) = compare(&[s(&base), s(&alt)], &root.join("out2"));
    let knight2 = rows2[1..]
        .iter()
        .find(|r| field(&rows2, r, "metric") == "value:knight:imbalance")
        .unwrap();
    let g = |rows: &[Vec<String>], r: &[String]| num(field(rows, r, "games_needed_detect"));
    let ratio = g(&rows2, knight2) / g(&rows, knight);
    assert!((ratio - 4.0).abs() < 0.02, "{ratio}");

    // The report compares the runs only when asked to, with the same rows; a base not among
    // the folders is added to the page.
    let page = |args: &[&str]| {
        let html = root.join("report.html");
        let mut all = vec!["report"];
        all.extend(args);
        all.extend(["--out", s(&html)]);
        let o = variantlab(&all);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(html).unwrap()
    };
    assert!(!page(&[s(&base), s(&alt)]).contains("Comparison"));
    let html = page(&[s(&alt), "--base", s(&base)]);
    assert!(html.contains("<h2>Comparison</h2>"), "{html}");
    let knight_row = "<td class=l>value:knight:imbalance</td><td>3.00</td><td>3.50</td><td>0.50 [-0.22, 1.22]</td><td class=l>not shown</td>";
    assert!(html.contains(knight_row), "{html}");
    assert!(html.contains(&format!("{} (chess)", s(&base))), "{html}");
}

/// Fewer than two folders, a folder that is not a run, a run without games and a bad
/// `--detect` are refused by name; an unfinished run is compared and flagged.
#[test]
fn bad_input_is_refused_and_unfinished_runs_are_flagged() {
    let root = tmp("bad");
    let run = root.join("chess");
    small_run(&run, &["--variant", "chess"]);
    let out = root.join("out");

    let e = refused(&["compare", s(&run), "--out", s(&out)]);
    assert!(
        e.contains("at least one alternative") && e.contains(s(&run)),
        "{e}"
    );

    let not_run = root.join("empty-folder");
    std::fs::create_dir_all(&not_run).unwrap();
    let e = refused(&["compare", s(&run), s(&not_run), "--out", s(&out)]);
    assert!(
        e.contains(s(&not_run)) && e.contains("not a run folder"),
        "{e}"
    );

    let no_games = root.join("no-games");
    std::fs::create_dir_all(&no_games).unwrap();
    std::fs::copy(run.join("run.json"), no_games.join("run.json")).unwrap();
    let games = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let mut lines: Vec<&str> = games.lines().collect();
    std::fs::write(no_games.join("games.csv"), format!("{}\n", lines[0])).unwrap();
    let e = refused(&["compare", s(&run), s(&no_games), "--out", s(&out)]);
    assert!(e.contains(s(&no_games)) && e.contains("no games"), "{e}");

    let e = refused(&[
        "compare",
        s(&run),
        s(&run),
        "--detect",
        "elo=5",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("elo"), "{e}");
    assert!(
        !out.join("compare.csv").exists(),
        "a refused comparison wrote its table"
    );

    // Two games short: compared, and flagged in the text and the table.
    let short = root.join("short");
    std::fs::create_dir_all(&short).unwrap();
    std::fs::copy(run.join("run.json"), short.join("run.json")).unwrap();
    lines.truncate(lines.len() - 2);
    std::fs::write(short.join("games.csv"), lines.join("\n") + "\n").unwrap();
    let (text, rows) = compare(&[s(&run), s(&short)], &out);
    assert!(text.contains("6 of 8 games (INCOMPLETE"), "{text}");
    // A copy of the base's games: the same openings, said (independent intervals are wide).
    assert!(
        text.contains("pair(s) start from the same position in both runs"),
        "{text}"
    );
    assert!(rows[1..]
        .iter()
        .all(|r| field(&rows, r, "complete") == "false"));
    assert!(rows[1..]
        .iter()
        .all(|r| field(&rows, r, "alt_games") == "6"));
}

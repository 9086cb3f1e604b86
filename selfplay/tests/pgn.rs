//! games.pgn end to end: one record per game with the tags of its games.csv row, every
//! variant's moves as movetext tokens, rebuilt whole after a kill, merged in game-id order.
//! (Reading it back with python-chess is `make pgn-check`.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn variantlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .output()
        .expect("runs")
}

fn tmp(name: &str) -> PathBuf {
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-pgn-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn play(dir: &Path, variant: &str, games: &str, extra: &[&str]) {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "play",
        "--variant",
        variant,
        "--games",
        games,
        "--nodes",
        "200",
        "--out",
        d,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let o = variantlab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A CSV as maps from column name to value.
fn csv(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            header
                .iter()
                .zip(rec.unwrap().iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// One PGN record: its tags in order and its movetext.
struct Record {
    tags: Vec<(String, String)>,
    movetext: String,
}

impl Record {
    fn tag(&self, name: &str) -> &str {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }

    /// The moves, without move numbers, comments and the result.
    fn moves(&self) -> Vec<String> {
        let mut text = String::new();
        let mut depth = 0;
        for c in self.movetext.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => text.push(c),
                _ => {}
            }
        }
        let mut tokens: Vec<String> = text
            .split_whitespace()
            .filter(|t| !t.ends_with('.'))
            .map(String::from)
            .collect();
        tokens.pop(); // the result
        tokens
    }

    /// The comments, in order.
    fn comments(&self) -> Vec<String> {
        self.movetext
            .split('{')
            .skip(1)
            .map(|c| c.split('}').next().unwrap().to_string())
            .collect()
    }
}

fn records(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.ends_with("\n\n"), "the last record is whole");
    text.split("\n\n")
        .collect::<Vec<_>>()
        .chunks(2)
        .filter(|c| c.len() == 2)
        .map(|c| Record {
            tags: c[0]
                .lines()
                .map(|l| {
                    let l = l.strip_prefix('[').unwrap().strip_suffix("\"]").unwrap();
                    let (n, v) = l.split_once(" \"").unwrap();
                    (n.to_string(), v.to_string())
                })
                .collect(),
            movetext: c[1].to_string(),
        })
        .collect()
}

/// A PGN without its `Date` tag (two runs started on different days differ only there).
fn without_date(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("[Date "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn one_record_per_game_with_the_tags_of_its_row() {
    let dir = tmp("tags");
    play(&dir, "chess", "12", &["--record-moves", "--threads", "2"]);
    let rows = csv(&dir.join("games.csv"));
    let recs = records(&dir.join("games.pgn"));
    assert_eq!(recs.len(), 12);
    assert_eq!(rows.len(), 12);
    let moves = csv(&dir.join("moves.csv"));
    for (row, rec) in rows.iter().zip(&recs) {
        let names: Vec<&str> = rec.tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names[..7],
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
            "the Seven Tag Roster comes first"
        );
        assert_eq!(rec.tag("Round"), row["game_id"], "in game-id order");
        assert_eq!(rec.tag("White"), row["white"]);
        assert_eq!(rec.tag("Black"), row["black"]);
        assert_eq!(rec.tag("Result"), row["result"]);
        assert_eq!(rec.tag("Variant"), "Standard");
        assert!(rec
            .tag("Event")
            .contains("chess balanced-plies:6, 200 nodes per move"));
        assert_eq!(rec.tag("Date").len(), 10);
        assert_eq!(
            rec.tag("FEN"),
            "",
            "games from random plies start from the start"
        );
        let opening = row["opening"].split(' ').count();
        let plies: usize = row["plies"].parse().unwrap();
        assert_eq!(rec.tag("PlyCount"), (opening + plies).to_string());
        assert_eq!(rec.moves().len(), opening + plies);
        assert_eq!(
            moves
                .iter()
                .filter(|m| m["game_id"] == row["game_id"])
                .count(),
            plies
        );
        assert_eq!(
            rec.comments(),
            ["end of opening".to_string(), row["termination"].clone()]
        );
        assert!(rec.movetext.trim_end().ends_with(&row["result"]));
        assert!(rec.movetext.lines().all(|l| l.len() <= 79));
    }

    // Without --record-moves, or with --no-pgn, there is none.
    let plain = tmp("plain");
    play(&plain, "chess", "2", &[]);
    assert!(plain.join("games.csv").exists() && !plain.join("games.pgn").exists());
    let off = tmp("off");
    play(&off, "chess", "2", &["--record-moves", "--no-pgn"]);
    assert!(off.join("moves.csv").exists() && !off.join("games.pgn").exists());
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--no-pgn",
        "--out",
        tmp("bad").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--record-moves"));
    for d in [dir, plain, off] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn every_variant_writes_its_coordinate_moves_as_tokens() {
    let positions = tmp("positions.txt");
    for name in variantlab_engine::VariantKind::ALL.map(|k| k.name()) {
        let dir = tmp(&format!("variant-{name}"));
        play(&dir, name, "2", &["--record-moves", "--max-plies", "30"]);
        let rows = csv(&dir.join("games.csv"));
        let recs = records(&dir.join("games.pgn"));
        assert_eq!(recs.len(), 2, "{name}");
        let moves = csv(&dir.join("moves.csv"));
        for (row, rec) in rows.iter().zip(&recs) {
            let expected_variant = if name == "chess" { "Standard" } else { name };
            assert_eq!(rec.tag("Variant"), expected_variant);
            let mut expected: Vec<String> = row["opening"].split(' ').map(String::from).collect();
            expected.extend(
                moves
                    .iter()
                    .filter(|m| m["game_id"] == row["game_id"])
                    .map(|m| m["move"].clone()),
            );
            if name == "chess" {
                assert_eq!(rec.moves().len(), expected.len());
            } else {
                assert_eq!(rec.moves(), expected, "{name}: the moves of moves.csv");
            }
        }
        let _ = std::fs::remove_dir_all(dir);
    }
    // A position opening is the FEN, with SetUp.
    std::fs::write(&positions, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\n").unwrap();
    let dir = tmp("fen");
    play(
        &dir,
        "chess",
        "2",
        &["--record-moves", "--openings", positions.to_str().unwrap()],
    );
    for rec in records(&dir.join("games.pgn")) {
        assert_eq!(rec.tag("SetUp"), "1");
        assert_eq!(rec.tag("FEN"), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30");
        assert!(rec.movetext.starts_with("30... K"), "{}", rec.movetext);
    }
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_file(positions);
}

#[test]
fn a_cut_record_is_rebuilt_on_resume_never_repeated() {
    let full = tmp("full");
    play(&full, "chess", "12", &["--record-moves"]);
    let pgn = std::fs::read_to_string(full.join("games.pgn")).unwrap();

    // The folder as a kill leaves it: five finished rows and a cut one, moves of a game
    // with no row yet, and games.pgn cut in the middle of its fifth record.
    let dir = tmp("cut");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(full.join("run.json"), dir.join("run.json")).unwrap();
    std::fs::copy(full.join("moves.csv"), dir.join("moves.csv")).unwrap();
    let games = std::fs::read_to_string(full.join("games.csv")).unwrap();
    let kept: Vec<&str> = games.lines().take(6).collect();
    std::fs::write(
        dir.join("games.csv"),
        format!(
            "{}\n{}",
            kept.join("\n"),
            &games.lines().nth(6).unwrap()[..20]
        ),
    )
    .unwrap();
    let cut = pgn.match_indices("[Event ").nth(4).unwrap().0 + 150;
    std::fs::write(dir.join("games.pgn"), &pgn[..cut]).unwrap();

    let o = variantlab(&["play", "--resume", dir.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(dir.join("games.pgn")).unwrap(), pgn);

    // A games.pgn lost altogether is rebuilt too.
    std::fs::remove_file(dir.join("games.pgn")).unwrap();
    let o = variantlab(&["play", "--resume", dir.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(dir.join("games.pgn")).unwrap(), pgn);
    let _ = std::fs::remove_dir_all(dir);

    // Shards merge into the single run's games.pgn.
    let shards: Vec<PathBuf> = (1..=2).map(|i| tmp(&format!("shard{i}"))).collect();
    for (i, s) in shards.iter().enumerate() {
        play(
            s,
            "chess",
            "12",
            &["--record-moves", "--shard", &format!("{}/2", i + 1)],
        );
        assert_eq!(records(&s.join("games.pgn")).len(), 6);
    }
    let merged = tmp("merged");
    let o = variantlab(&[
        "merge",
        "--out",
        merged.to_str().unwrap(),
        shards[1].to_str().unwrap(),
        shards[0].to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        without_date(&merged.join("games.pgn")),
        without_date(&full.join("games.pgn"))
    );
    for d in shards.into_iter().chain([merged, full]) {
        let _ = std::fs::remove_dir_all(d);
    }
}

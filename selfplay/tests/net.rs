//! Network data and training end to end: `datagen` files are the same whatever the thread
//! count, after a resume or an extension, and as merged shards; damaged files are clear
//! errors; `train-net` is reproducible and learns.

mod common;

use common::variantlab;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use variantlab_selfplay::net::data::{self, Tail};

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-test-net-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    assert!(
        !o.status.success(),
        "succeeded: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `datagen` of chess at 100 nodes a move into `out`, with `extra` arguments.
fn datagen(out: &Path, games: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "datagen",
        "--variant",
        "chess",
        "--games",
        games,
        "--nodes",
        "100",
        "--max-plies",
        "80",
        "--seed",
        "7",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    variantlab(&args)
}

fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

/// One thread or two, the file is the same; every record is a quiet position of its game
/// with a result and a score from the side to move's view.
#[test]
fn datagen_is_the_same_whatever_the_threads() {
    let d = tmp("threads");
    let (one, two) = (d.join("one.vldata"), d.join("two.vldata"));
    ok(&datagen(&one, "8", &["--threads", "1"]));
    ok(&datagen(&two, "8", &["--threads", "2"]));
    assert_eq!(bytes(&one), bytes(&two));
    let file = data::read(&one, Tail::Refuse).unwrap();
    assert_eq!(file.settings.variant, "chess");
    assert_eq!((file.settings.nodes, file.settings.seed), (100, 7));
    assert!(file.records.len() > 50, "{} positions", file.records.len());
    let games: std::collections::BTreeSet<u32> = file.records.iter().map(|r| r.game).collect();
    assert!(
        games.len() >= 6 && games.iter().all(|&g| g < 8),
        "{games:?}"
    );
    assert!(file.records.windows(2).all(|w| w[0].game <= w[1].game));
    for r in &file.records {
        assert!(r.ply >= 4, "plies before --skip-plies are left out");
        let pos = <variantlab_engine::position::Position<variantlab_engine::variants::Chess> as variantlab_engine::game::Game>::from_text(&r.text).unwrap();
        assert!(!variantlab_engine::game::Game::in_check(&pos));
        assert!((-1..=1).contains(&r.result));
        assert!(i32::from(r.score).abs() < 29_000, "no mate scores");
    }
    // Both sides of a decided game: the result flips with the side to move.
    let decided = file.records.iter().find(|r| r.result != 0).map(|r| r.game);
    if let Some(g) = decided {
        let results: std::collections::BTreeSet<(bool, i8)> = file
            .records
            .iter()
            .filter(|r| r.game == g)
            .map(|r| (r.text.contains(" w "), r.result))
            .collect();
        assert!(results.len() <= 2);
        let by_side: std::collections::BTreeMap<bool, i8> = results.into_iter().collect();
        if by_side.len() == 2 {
            assert_eq!(by_side[&true], -by_side[&false]);
        }
    }
}

/// A run cut by a kill (a record half written) and resumed, or a shorter run extended, gives
/// the file of one uninterrupted run.
#[test]
fn datagen_resumes_and_extends_to_the_same_file() {
    let d = tmp("resume");
    let whole = d.join("whole.vldata");
    ok(&datagen(&whole, "10", &[]));

    let grown = d.join("grown.vldata");
    ok(&datagen(&grown, "4", &[]));
    assert!(bytes(&grown).len() < bytes(&whole).len());
    ok(&datagen(&grown, "10", &[]));
    assert_eq!(bytes(&grown), bytes(&whole));

    let cut = d.join("cut.vldata");
    let full = bytes(&whole);
    let file = data::read(&whole, Tail::Refuse).unwrap();
    // Cut inside a record of game 5 or so.
    let mid = file.offsets[file.offsets.len() / 2] as usize + 7;
    std::fs::write(&cut, &full[..mid]).unwrap();
    ok(&datagen(&cut, "10", &[]));
    assert_eq!(bytes(&cut), full);

    // Other settings make other data: refused, naming the field.
    let e = err(&datagen(&whole, "10", &["--skip-plies", "5"]));
    assert!(
        e.contains("other settings") && e.contains("skip_plies: 4 there, 5 now"),
        "{e}"
    );
    let e = err(&datagen(&whole, "6", &[]));
    assert!(e.contains("can grow, not shrink"), "{e}");

    // A file another process is writing is refused, and left as it is.
    let held = std::fs::File::open(&whole).unwrap();
    held.lock().unwrap();
    let e = err(&datagen(&whole, "12", &[]));
    assert!(e.contains("being written by another process"), "{e}");
    drop(held);
    assert_eq!(bytes(&whole), full);
}

/// Two shards merged are the whole run's file; a missing or repeated shard is refused.
#[test]
fn datagen_shards_merge_into_the_whole() {
    let d = tmp("shards");
    let whole = d.join("whole.vldata");
    ok(&datagen(&whole, "8", &[]));
    let shards = d.join("shards");
    std::fs::create_dir_all(&shards).unwrap();
    ok(&datagen(&shards, "8", &["--shard", "1/2"]));
    ok(&datagen(&shards, "8", &["--shard", "2/2"]));
    let (a, b) = (
        shards.join("chess.shard-1-of-2.vldata"),
        shards.join("chess.shard-2-of-2.vldata"),
    );
    let merged = d.join("merged.vldata");
    let (sa, sb, sm) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        merged.to_str().unwrap(),
    );
    ok(&variantlab(&["datagen", "--merge", sa, sb, "--out", sm]));
    assert_eq!(bytes(&merged), bytes(&whole));
    let e = err(&variantlab(&["datagen", "--merge", sa, "--out", sm]));
    assert!(e.contains("1 of the 2 shards"), "{e}");
    let e = err(&variantlab(&["datagen", "--merge", sa, sa, "--out", sm]));
    assert!(e.contains("both are shard 1/2"), "{e}");
}

/// A cut, foreign or damaged file is an error naming the file and the byte, never a panic.
#[test]
fn damaged_data_files_are_clear_errors() {
    let d = tmp("damaged");
    let good = d.join("good.vldata");
    ok(&datagen(&good, "2", &[]));
    let full = bytes(&good);
    let file = data::read(&good, Tail::Refuse).unwrap();
    let last = *file.offsets.last().unwrap() as usize;

    let cut = d.join("cut.vldata");
    std::fs::write(&cut, &full[..last + 5]).unwrap();
    let e = format!("{:#}", data::read(&cut, Tail::Refuse).unwrap_err());
    assert!(
        e.contains("cut.vldata") && e.contains(&format!("byte {last}")) && e.contains("truncated"),
        "{e}"
    );
    let tolerated = data::read(&cut, Tail::Tolerate).unwrap();
    assert_eq!(tolerated.end, last as u64);
    assert_eq!(tolerated.records.len(), file.records.len() - 1);

    let header = d.join("header.vldata");
    std::fs::write(&header, &full[..20]).unwrap();
    let e = format!("{:#}", data::read(&header, Tail::Refuse).unwrap_err());
    assert!(
        e.contains("header.vldata") && e.contains("truncated"),
        "{e}"
    );

    let magic = d.join("magic.vldata");
    std::fs::write(&magic, b"not a data file at all").unwrap();
    let e = format!("{:#}", data::read(&magic, Tail::Refuse).unwrap_err());
    assert!(
        e.contains("byte 0") && e.contains("not a variantlab"),
        "{e}"
    );

    let mut bad = full.clone();
    bad[last + 8] = 5; // a result of 5
    let result = d.join("result.vldata");
    std::fs::write(&result, &bad).unwrap();
    let e = format!("{:#}", data::read(&result, Tail::Refuse).unwrap_err());
    assert!(
        e.contains(&format!("byte {}", last + 8)) && e.contains("result 5"),
        "{e}"
    );

    let mut bad = full.clone();
    bad[8] = 9; // version 9
    let version = d.join("version.vldata");
    std::fs::write(&version, &bad).unwrap();
    let e = format!("{:#}", data::read(&version, Tail::Refuse).unwrap_err());
    assert!(e.contains("byte 8") && e.contains("version 9"), "{e}");
}

/// `train-net` on `data` into `out` with `threads` rayon threads.
fn train(data: &[&Path], out: &Path, threads: &str, extra: &[&str]) -> Output {
    let mut args = vec!["train-net", "--quiet", "--out", out.to_str().unwrap()];
    args.push("--data");
    args.extend(data.iter().map(|p| p.to_str().unwrap()));
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(&args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("runs")
}

/// A small network trained on the scores of 60 games from random openings (material
/// imbalances to learn): the held-out loss falls well below the random network's, and the same
/// seed gives the same file on one thread or two.
#[test]
fn train_net_learns_and_is_reproducible() {
    let d = tmp("train");
    let data = d.join("chess.vldata");
    ok(&datagen(&data, "60", &["--openings", "random-plies:10"]));
    let small = [
        "--hidden",
        "16",
        "--batch",
        "256",
        "--epochs",
        "8",
        "--lr",
        "0.005",
        "--score-weight",
        "1",
        "--scale",
        "1",
        "--holdout",
        "0.3",
    ];
    let (one, two) = (d.join("one.vlnet"), d.join("two.vlnet"));
    let printed = ok(&train(&[&data], &one, "1", &small));
    ok(&train(&[&data], &two, "2", &small));
    assert_eq!(bytes(&one), bytes(&two), "one thread or two, the same net");

    let net = variantlab_engine::nnue::Network::read(&one).unwrap();
    let info = &net.info;
    assert_eq!((info.variant.as_str(), info.hidden), ("chess", 16));
    assert!(info.epochs >= 1);
    let start = info.notes["start_valid_loss"].as_f64().unwrap();
    assert!(
        info.valid_loss < start * 0.9,
        "held-out loss {start} -> {}\n{printed}",
        info.valid_loss
    );
    assert!(printed.contains("epoch 1: training loss"), "{printed}");
    // The linear evaluation's loss on the same positions, for comparison.
    let linear = info.notes["linear_valid_loss"].as_f64().unwrap();
    assert!(linear > 0.0 && linear < start, "{linear} against {start}");
    assert!(
        printed.contains("the default linear evaluation's loss"),
        "{printed}"
    );
    // The engine plays with it.
    let config = d.join("net.json");
    std::fs::write(
        &config,
        format!(r#"{{"name": "net", "eval": "net:{}"}}"#, one.display()),
    )
    .unwrap();
    let s = ok(&variantlab(&[
        "search",
        "--variant",
        "chess",
        "--nodes",
        "500",
        "--config",
        config.to_str().unwrap(),
    ]));
    assert!(s.starts_with("bestmove "), "{s}");
    let other = d.join("seed2.vlnet");
    ok(&train(
        &[&data],
        &other,
        "2",
        &[&small[..], &["--seed", "2"]].concat(),
    ));
    assert_ne!(bytes(&one), bytes(&other));
    // A shrinking step: halved after each epoch, as printed and recorded.
    let decayed = d.join("decay.vlnet");
    let printed = ok(&train(
        &[&data],
        &decayed,
        "2",
        &[&small[..], &["--lr-decay", "0.5"]].concat(),
    ));
    assert!(
        printed.contains("(step 5.00e-3;") && printed.contains("(step 2.50e-3;"),
        "{printed}"
    );
    let info = variantlab_engine::nnue::Network::read(&decayed)
        .unwrap()
        .info;
    assert_eq!(info.notes["lr_decay"].as_f64(), Some(0.5));
    assert_ne!(bytes(&one), bytes(&decayed));
    for bad in ["0", "1.5", "-0.5"] {
        let e = err(&train(&[&data], &decayed, "1", &["--lr-decay", bad]));
        assert!(
            e.contains("--lr-decay") && e.contains("above 0 and at most 1"),
            "{e}"
        );
    }
}

/// On the linear evaluation (`--on-linear`): the network starts exactly where the linear
/// evaluation stands (its first held-out loss is the linear one's), training only lowers it,
/// and the file says what it is added to.
#[test]
fn train_net_on_linear_starts_at_the_linear_evaluation() {
    let d = tmp("train-on-linear");
    let data = d.join("chess.vldata");
    ok(&datagen(&data, "40", &["--openings", "random-plies:10"]));
    let out = d.join("on.vlnet");
    let printed = ok(&train(
        &[&data],
        &out,
        "2",
        &[
            "--hidden",
            "16",
            "--batch",
            "256",
            "--epochs",
            "6",
            "--lr",
            "0.002",
            "--holdout",
            "0.3",
            "--on-linear",
        ],
    ));
    let info = variantlab_engine::nnue::Network::read(&out).unwrap().info;
    assert_eq!(info.base.as_deref(), Some("linear"));
    let start = info.notes["start_valid_loss"].as_f64().unwrap();
    let linear = info.notes["linear_valid_loss"].as_f64().unwrap();
    assert!(
        (start - linear).abs() <= 1e-5 * linear.max(1e-3),
        "starts at {start}, the linear evaluation's {linear}\n{printed}"
    );
    assert!(info.valid_loss <= start, "{printed}");
    // Without the flag the file has no base (the whole evaluation).
    let plain = d.join("plain.vlnet");
    ok(&train(
        &[&data],
        &plain,
        "2",
        &["--hidden", "8", "--epochs", "1"],
    ));
    let info = variantlab_engine::nnue::Network::read(&plain).unwrap().info;
    assert_eq!(info.base, None);
}

/// Data of another variant, and a damaged file, are refused naming the file.
#[test]
fn train_net_refuses_foreign_and_damaged_data() {
    let d = tmp("train-refuse");
    let chess = d.join("chess.vldata");
    ok(&datagen(&chess, "2", &[]));
    let dream = d.join("dream.vldata");
    ok(&variantlab(&[
        "datagen",
        "--variant",
        "dream-chess-46",
        "--games",
        "2",
        "--nodes",
        "50",
        "--max-plies",
        "30",
        "--quiet",
        "--out",
        dream.to_str().unwrap(),
    ]));
    let out = d.join("x.vlnet");
    let e = err(&train(&[&chess, &dream], &out, "1", &[]));
    assert!(
        e.contains("dream.vldata: data of dream-chess-46, not chess"),
        "{e}"
    );
    let full = bytes(&chess);
    let file = data::read(&chess, Tail::Refuse).unwrap();
    let last = *file.offsets.last().unwrap() as usize;
    // A position text that is not a position.
    let mut bad = full.clone();
    let text_at = last + data::RECORD_FIXED;
    bad[text_at..text_at + 4].copy_from_slice(b"zzzz");
    let broken = d.join("broken.vldata");
    std::fs::write(&broken, &bad).unwrap();
    let e = err(&train(&[&broken], &out, "1", &[]));
    assert!(
        e.contains("broken.vldata") && e.contains(&format!("the record at byte {last}")),
        "{e}"
    );
    std::fs::write(&broken, &full[..full.len() - 3]).unwrap();
    let e = err(&train(&[&broken], &out, "1", &[]));
    assert!(
        e.contains("broken.vldata") && e.contains("truncated"),
        "{e}"
    );
    assert!(!out.exists(), "nothing written");
}

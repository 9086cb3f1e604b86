//! Issue 49's fault-injection suite: runs killed at many moments and resumed, run files
//! truncated or with a byte flipped, and malformed positions, variant files, UCI lines and
//! option values. Nothing may be lost, nothing may panic or hang.
//!
//! One code, two sizes: a few dozen faults by default (part of `cargo test`), hundreds
//! with `VARIANTLAB_TORTURE=long` (`make torture`). Every test prints its counts.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_variantlab");

/// The long version: `VARIANTLAB_TORTURE=long`.
fn long() -> bool {
    std::env::var("VARIANTLAB_TORTURE").is_ok_and(|v| v == "long")
}

/// `short` items by default, `long` ones in the long version.
fn size(short: usize, long_: usize) -> usize {
    if long() {
        long_
    } else {
        short
    }
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-torture-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// How a bounded process ended.
struct Ran {
    /// None: killed by a signal, or hung and killed by [`run`].
    code: Option<i32>,
    hung: bool,
    stdout: String,
    stderr: String,
}

impl Ran {
    fn ok(&self) -> bool {
        self.code == Some(0)
    }
    fn panicked(&self) -> bool {
        self.code == Some(101) || self.stderr.contains("panicked")
    }
}

fn drain(r: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut r) = r {
            let _ = r.read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// Runs `variantlab args` with `stdin`, killed if it runs past `limit`.
fn run(args: &[&str], stdin: &[u8], limit: Duration) -> Ran {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("variantlab starts");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let t = Instant::now();
    let (code, hung) = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break (s.code(), false);
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = writer.join();
    Ran {
        code,
        hung,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

const LIMIT: Duration = Duration::from_secs(60);

/// The counts a test prints and checks.
#[derive(Default)]
struct Tally {
    faults: usize,
    inputs: usize,
    lost: usize,
    panics: usize,
    hangs: usize,
    unclear: usize,
    recovered: usize,
    refused: usize,
    /// A flipped byte that still reads as a valid value (a digit for another digit): the
    /// run is accepted with that value, as no checksum can tell.
    accepted_altered: usize,
    failures: Vec<String>,
}

impl Tally {
    /// Checks a process that must not panic or hang; true if it did neither.
    fn survived(&mut self, what: &str, r: &Ran) -> bool {
        if r.hung {
            self.hangs += 1;
            self.failures.push(format!("hung: {what}"));
            return false;
        }
        if r.panicked() {
            self.panics += 1;
            self.failures
                .push(format!("panicked: {what}: {}", tail(&r.stderr)));
            return false;
        }
        true
    }

    fn lose(&mut self, what: String) {
        self.lost += 1;
        self.failures.push(format!("data lost: {what}"));
    }

    fn finish(self, test: &str) {
        println!(
            "{test} ({}): faults injected {}, bad inputs tried {}, data lost {}, panics {}, \
             hangs {}, unclear errors {}; recovered {}, refused clearly {}, accepted altered {}",
            if long() { "long" } else { "short" },
            self.faults,
            self.inputs,
            self.lost,
            self.panics,
            self.hangs,
            self.unclear,
            self.recovered,
            self.refused,
            self.accepted_altered
        );
        let shown: Vec<&String> = self.failures.iter().take(20).collect();
        assert!(
            self.failures.is_empty(),
            "{test}: {} failure(s), the first ones:\n{shown:#?}",
            self.failures.len()
        );
        assert_eq!((self.lost, self.panics, self.hangs), (0, 0, 0));
    }
}

fn tail(s: &str) -> String {
    let t: Vec<&str> = s.lines().rev().take(6).collect();
    t.into_iter().rev().collect::<Vec<_>>().join(" | ")
}

fn lines_in(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |s| s.lines().count())
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

// ---------------------------------------------------------------------------------------
// (a) Killed at many moments, then resumed.

/// What a run's files say, without what legitimately differs between two runs of the same
/// settings: games.csv's timing column and games.pgn's Date tag.
fn play_result(dir: &Path) -> Option<(Vec<String>, String, String)> {
    let games = std::fs::read_to_string(dir.join("games.csv")).ok()?;
    let games = games
        .lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(a, _)| a).to_string())
        .collect();
    let moves = std::fs::read_to_string(dir.join("moves.csv")).ok()?;
    let pgn = std::fs::read_to_string(dir.join("games.pgn"))
        .ok()?
        .lines()
        .filter(|l| !l.starts_with("[Date "))
        .collect::<Vec<_>>()
        .join("\n");
    Some((games, moves, pgn))
}

/// When to kill a process: once its `file` has `lines` lines, or after a delay.
#[derive(Clone, Copy, Debug)]
enum Kill {
    AtLines(&'static str, usize),
    After(Duration),
}

/// Starts `args`, kills it (SIGKILL) at `when`; true if it was still running then.
fn kill_at(args: &[String], dir: &Path, when: Kill) -> bool {
    let mut child: Child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("variantlab starts");
    let t = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        let due = match when {
            Kill::AtLines(file, n) => lines_in(&dir.join(file)) >= n,
            Kill::After(d) => t.elapsed() >= d,
        };
        if due || t.elapsed() > LIMIT {
            break;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap(); // SIGKILL on Unix
    let _ = child.wait();
    running
}

/// The command that carries a killed run on: `--resume` once its settings file exists,
/// the first command again before.
fn carry_on(first: &[String], dir: &Path, settings: &str, verb: &str) -> Vec<String> {
    if dir.join(settings).exists() {
        [verb, "--resume", s(dir), "--quiet"]
            .map(String::from)
            .to_vec()
    } else {
        first.to_vec()
    }
}

/// Kills a command at each moment of every schedule, carries it on after each kill, and
/// checks that it ends with the uninterrupted result.
fn killed_and_resumed<R: PartialEq + std::fmt::Debug>(
    test: &str,
    first: &dyn Fn(&Path) -> Vec<String>,
    settings: &str,
    verb: &str,
    result: &dyn Fn(&Path) -> Option<R>,
    schedules: &[Vec<Kill>],
) {
    let mut t = Tally::default();
    let full = tmp(&format!("{test}-full"));
    let r = run(&as_strs(&first(&full)), b"", LIMIT);
    assert!(r.ok(), "{}", r.stderr);
    let want = result(&full).expect("the uninterrupted run's files");
    let dir = tmp(&format!("{test}-killed"));
    for (i, schedule) in schedules.iter().enumerate() {
        let _ = std::fs::remove_dir_all(&dir);
        let args = first(&dir);
        for &when in schedule {
            let next = carry_on(&args, &dir, settings, verb);
            if kill_at(&next, &dir, when) {
                t.faults += 1;
            }
        }
        let next = carry_on(&args, &dir, settings, verb);
        let r = run(&as_strs(&next), b"", LIMIT);
        let what = format!("schedule {i} {schedule:?}, then {next:?}");
        if !t.survived(&what, &r) {
            continue;
        }
        if !r.ok() {
            t.lose(format!("{what}: exit {:?}: {}", r.code, tail(&r.stderr)));
        } else if result(&dir).as_ref() != Some(&want) {
            t.lose(format!(
                "{what}: the files differ from the uninterrupted run's"
            ));
        } else {
            t.recovered += 1;
        }
    }
    t.finish(test);
}

fn as_strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Kill schedules for a run writing `rows` rows to `file` (after its header): each row
/// count alone, chains of kills, and delays from the start.
fn schedules(file: &'static str, rows: usize, delays_ms: &[u64]) -> Vec<Vec<Kill>> {
    let step = size(3, 1);
    let mut all: Vec<Vec<Kill>> = (0..rows)
        .step_by(step)
        .map(|n| vec![Kill::AtLines(file, n + 1)])
        .collect();
    // One kill after another, each during the previous one's resume.
    let chain: Vec<Kill> = (1..rows)
        .step_by(step.max(2))
        .map(|n| Kill::AtLines(file, n + 1))
        .collect();
    all.push(chain);
    for &ms in delays_ms {
        all.push(vec![Kill::After(Duration::from_millis(ms))]);
    }
    all
}

fn delays() -> Vec<u64> {
    if long() {
        (0..40).map(|i| i * 5).collect()
    } else {
        vec![0, 3, 10, 30, 80]
    }
}

#[test]
fn play_killed_at_any_moment_resumes_to_the_same_games() {
    let games = size(8, 16);
    let first = |dir: &Path| -> Vec<String> {
        let g = games.to_string();
        [
            "play",
            "--variant",
            "chess",
            "--games",
            &g,
            "--nodes",
            "200",
            "--seed",
            "7",
            "--out",
            s(dir),
            "--quiet",
            "--record-moves",
            "--threads",
            "1",
        ]
        .map(String::from)
        .to_vec()
    };
    killed_and_resumed(
        "play-kill",
        &first,
        "run.json",
        "play",
        &play_result,
        &schedules("games.csv", games, &delays()),
    );
}

#[test]
fn sprt_killed_at_any_moment_resumes_to_the_same_match() {
    let games = size(12, 24);
    let first = |dir: &Path| -> Vec<String> {
        let g = games.to_string();
        [
            "sprt",
            "--variant",
            "chess",
            "--test",
            "default",
            "--max-games",
            &g,
            "--nodes",
            "100",
            "--out",
            s(dir),
            "--quiet",
            "--threads",
            "1",
        ]
        .map(String::from)
        .to_vec()
    };
    let result = |dir: &Path| -> Option<(String, String)> {
        Some((
            std::fs::read_to_string(dir.join("sprt.csv")).ok()?,
            std::fs::read_to_string(dir.join("sprt.json")).ok()?,
        ))
    };
    killed_and_resumed(
        "sprt-kill",
        &first,
        "sprt_config.json",
        "sprt",
        &result,
        &schedules("sprt.csv", games / 2, &delays()),
    );
}

/// The files of a merged run, each as read (None: absent).
fn snapshot(dir: &Path) -> Vec<Option<Vec<u8>>> {
    ["games.csv", "moves.csv", "games.pgn", "run.json"]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).ok())
        .collect()
}

#[test]
fn merge_killed_at_any_moment_leaves_the_old_or_the_new_result() {
    let mut t = Tally::default();
    let shard = |name: &str, seed: &str, i: &str| {
        let d = tmp(&format!("merge-{name}"));
        let r = run(
            &[
                "play",
                "--variant",
                "chess",
                "--games",
                "8",
                "--nodes",
                "200",
                "--seed",
                seed,
                "--shard",
                i,
                "--out",
                s(&d),
                "--quiet",
                "--record-moves",
            ],
            b"",
            LIMIT,
        );
        assert!(r.ok(), "{}", r.stderr);
        d
    };
    let (a, b) = (shard("a", "1", "1/2"), shard("b", "1", "2/2"));
    let (c, d) = (shard("c", "2", "1/2"), shard("d", "2", "2/2"));
    let target = tmp("merge-target");
    let merge = |x: &Path, y: &Path| {
        let args = ["merge", s(x), s(y), "--out", s(&target), "--force"].map(String::from);
        args.to_vec()
    };
    let r = run(&as_strs(&merge(&a, &b)), b"", LIMIT);
    assert!(r.ok(), "{}", r.stderr);
    let old = snapshot(&target);
    let r = run(&as_strs(&merge(&c, &d)), b"", LIMIT);
    assert!(r.ok(), "{}", r.stderr);
    let new = snapshot(&target);
    assert_ne!(old, new);
    let absent = vec![None; old.len()];
    // Delays spread over the merge's run (about 20 ms), both onto an old result and into
    // a folder not there yet.
    let steps = size(16, 200) as u64;
    for i in 0..steps {
        let delay = Duration::from_micros(i * 40_000 / steps);
        let before = if i % 2 == 0 {
            let _ = std::fs::remove_dir_all(&target);
            &absent
        } else {
            let r = run(&as_strs(&merge(&a, &b)), b"", LIMIT);
            assert!(r.ok(), "{}", r.stderr);
            &old
        };
        if kill_at(&merge(&c, &d), &target, Kill::After(delay)) {
            t.faults += 1;
        }
        let now = snapshot(&target);
        let what = format!("merge killed after {delay:?}");
        if now != *before && now != new {
            let mixed: Vec<usize> = (0..now.len())
                .filter(|&k| now[k] != before[k] && now[k] != new[k])
                .collect();
            t.lose(format!(
                "{what}: the target is a mix of the old and the new result (files {mixed:?} \
                 are neither, or some are old and some new)"
            ));
        }
        let r = run(&as_strs(&merge(&c, &d)), b"", LIMIT);
        if !t.survived(&what, &r) {
            continue;
        }
        if !r.ok() || snapshot(&target) != new {
            t.lose(format!(
                "{what}: the rerun gave {:?}: {}",
                r.code,
                tail(&r.stderr)
            ));
        } else {
            t.recovered += 1;
        }
    }
    let leftovers: Vec<_> = std::fs::read_dir(target.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.starts_with("variantlab-torture-merge-target")
                && n != "variantlab-torture-merge-target"
        })
        .collect();
    if !leftovers.is_empty() {
        t.failures.push(format!(
            "left beside the target after the reruns: {leftovers:?}"
        ));
    }
    t.finish("merge-kill");
}

/// A merge killed before it removed its staging folder left that folder's lock file, and
/// every later merge into the target failed ("removing OUT.merging: Directory not empty").
#[test]
fn a_merge_killed_before_cleaning_up_does_not_block_the_next() {
    let src = tmp("stale-src");
    let r = run(
        &[
            "play",
            "--variant",
            "chess",
            "--games",
            "2",
            "--nodes",
            "100",
            "--out",
            s(&src),
            "--quiet",
        ],
        b"",
        LIMIT,
    );
    assert!(r.ok(), "{}", r.stderr);
    let out = tmp("stale-out");
    let staging = tmp("stale-out.merging");
    std::fs::create_dir(&staging).unwrap();
    // What a killed merge leaves: its lock (held by no one now) and part of its result.
    std::fs::write(staging.join("lock"), "4194304").unwrap();
    std::fs::write(staging.join("games.csv"), "game_id,pair").unwrap();
    let r = run(&["merge", s(&src), "--out", s(&out)], b"", LIMIT);
    assert!(r.ok(), "{}", r.stderr);
    assert!(!staging.exists());
    assert_eq!(
        std::fs::read(out.join("games.csv")).unwrap(),
        std::fs::read(src.join("games.csv")).unwrap()
    );
}

// ---------------------------------------------------------------------------------------
// (b) Run files truncated or with a byte flipped.

/// The damaged copies of `text`: cut at a few points of some of its lines (all in the long
/// version), and with a byte of those lines replaced.
fn damages(text: &[u8]) -> Vec<(String, Vec<u8>, bool)> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' {
            lines.push((start, i - start));
            start = i + 1;
        }
    }
    if start < text.len() {
        lines.push((start, text.len() - start));
    }
    let every = size(lines.len().div_ceil(3).max(1), 1);
    let mut out = Vec::new();
    for (n, &(start, len)) in lines.iter().enumerate().step_by(every) {
        let mut cuts = vec![0, len / 2];
        if long() {
            cuts.extend([1, len.saturating_sub(1), len]);
        }
        cuts.sort_unstable();
        cuts.dedup();
        for cut in cuts {
            out.push((
                format!("line {} cut at byte {cut}", n + 1),
                text[..start + cut].to_vec(),
                false,
            ));
        }
        if len > 0 {
            let at = start + len / 2;
            for (name, byte) in [("0xff", 0xff), ("a flipped bit", text[at] ^ 1)] {
                let mut t = text.to_vec();
                t[at] = byte;
                out.push((
                    format!("line {} byte {} set to {name}", n + 1, len / 2),
                    t,
                    true,
                ));
            }
        }
    }
    out
}

/// Copies the files of `from` into a fresh `to`.
fn copy_run(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Damages each of `files` in a copy of the finished run `full` every way [`damages`]
/// lists, then runs `readers` (which must not panic, and fail naming a file of the run) and
/// `resume` (which must give `full`'s result, or refuse naming the damaged file).
fn damaged_files<R: PartialEq>(
    t: &mut Tally,
    full: &Path,
    files: &[&str],
    resume: &dyn Fn(&Path) -> Vec<String>,
    readers: &dyn Fn(&Path) -> Vec<Vec<String>>,
    result: &dyn Fn(&Path) -> Option<R>,
    rows: &dyn Fn(&Path) -> usize,
) {
    let want = result(full).expect("the finished run's files");
    let want_rows = rows(full);
    let dir = full.with_extension("damaged");
    for file in files {
        let good = std::fs::read(full.join(file)).unwrap();
        for (how, bad, flipped) in damages(&good) {
            copy_run(full, &dir);
            std::fs::write(dir.join(file), &bad).unwrap();
            t.faults += 1;
            let what = format!("{file} {how}");
            for args in readers(&dir) {
                let r = run(&as_strs(&args), b"", LIMIT);
                if t.survived(&format!("{what}: {args:?}"), &r)
                    && !r.ok()
                    && !files.iter().any(|f| r.stderr.contains(f))
                {
                    t.unclear += 1;
                    t.failures.push(format!(
                        "{what}: {args:?}: names no file: {}",
                        tail(&r.stderr)
                    ));
                }
            }
            let args = resume(&dir);
            let r = run(&as_strs(&args), b"", LIMIT);
            if !t.survived(&format!("{what}: {args:?}"), &r) {
                continue;
            }
            if !r.ok() {
                if r.stderr.contains(file) {
                    t.refused += 1;
                } else {
                    t.unclear += 1;
                    t.failures.push(format!(
                        "{what}: {args:?}: does not name {file}: {}",
                        tail(&r.stderr)
                    ));
                }
            } else if result(&dir).as_ref() == Some(&want) {
                t.recovered += 1;
            } else if rows(&dir) < want_rows {
                t.lose(format!(
                    "{what}: {args:?} exits 0 with {} rows of {want_rows}",
                    rows(&dir)
                ));
            } else if flipped {
                t.accepted_altered += 1;
            } else {
                t.lose(format!(
                    "{what}: {args:?} exits 0 with a result unlike the run's"
                ));
            }
        }
    }
}

#[test]
fn damaged_run_files_are_recovered_or_refused_clearly() {
    let mut t = Tally::default();
    let full = tmp("damage-play");
    let r = run(
        &[
            "play",
            "--variant",
            "chess",
            "--games",
            "4",
            "--nodes",
            "200",
            "--max-plies",
            "30",
            "--out",
            s(&full),
            "--quiet",
            "--record-moves",
            "--threads",
            "1",
        ],
        b"",
        LIMIT,
    );
    assert!(r.ok(), "{}", r.stderr);
    let stats_out = tmp("damage-stats");
    damaged_files(
        &mut t,
        &full,
        &["games.csv", "moves.csv", "run.json"],
        &|d| {
            ["play", "--resume", s(d), "--quiet"]
                .map(String::from)
                .to_vec()
        },
        &|d| {
            vec![["stats", s(d), "--out", s(&stats_out)]
                .map(String::from)
                .to_vec()]
        },
        &play_result,
        &|d| lines_in(&d.join("games.csv")),
    );

    let full = tmp("damage-sprt");
    let r = run(
        &[
            "sprt",
            "--variant",
            "chess",
            "--test",
            "default",
            "--max-games",
            "4",
            "--nodes",
            "100",
            "--out",
            s(&full),
            "--quiet",
            "--threads",
            "1",
        ],
        b"",
        LIMIT,
    );
    assert!(r.ok(), "{}", r.stderr);
    let sprt_result = |d: &Path| -> Option<(String, String)> {
        Some((
            std::fs::read_to_string(d.join("sprt.csv")).ok()?,
            std::fs::read_to_string(d.join("sprt.json")).ok()?,
        ))
    };
    damaged_files(
        &mut t,
        &full,
        &["sprt_config.json", "sprt.csv"],
        &|d| {
            ["sprt", "--resume", s(d), "--quiet"]
                .map(String::from)
                .to_vec()
        },
        &|_| Vec::new(),
        &sprt_result,
        &|d| lines_in(&d.join("sprt.csv")),
    );
    t.finish("damaged-files");
}

// ---------------------------------------------------------------------------------------
// (c) Bad input: positions, variant files, UCI lines, option values.

const BAD_LIMIT: Duration = Duration::from_secs(30);

/// Runs a command given bad input: no panic, no hang, and a refusal says something.
fn bad_input(t: &mut Tally, args: &[&str], stdin: &[u8]) -> Option<Ran> {
    t.inputs += 1;
    let r = run(args, stdin, BAD_LIMIT);
    if !t.survived(&format!("{args:?}"), &r) {
        return None;
    }
    if !r.ok() && r.stderr.trim().is_empty() {
        t.unclear += 1;
        t.failures.push(format!("{args:?}: fails without a word"));
    }
    Some(r)
}

/// Every cut of `text` at a step, and copies with one character replaced.
fn mangled(text: &str, step: usize, with: &[char]) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<String> = (0..chars.len())
        .step_by(step)
        .map(|i| chars[..i].iter().collect())
        .collect();
    for (k, i) in (0..chars.len()).step_by(step).enumerate() {
        let mut c = chars.clone();
        c[i] = with[k % with.len()];
        out.push(c.into_iter().collect());
    }
    out
}

#[test]
fn malformed_positions_are_refused_without_panic() {
    let mut t = Tally::default();
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let mut positions: Vec<String> = [
        "",
        " ",
        "startpos",
        "x",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "K7/8/8/8/8/8/8/8 w - - 0 1",
        "kK6/8/8/8/8/8/8/8 w - - 0 1",
        "kk6/8/8/8/8/8/8/KK6 w - - 0 1",
        "k7/8/8/8/8/8/8/K7 w KQkq - 0 1",
        "k7/8/8/8/8/8/8/K7 w - e9 0 1",
        "k7/8/8/8/8/8/8/K7 w - a3 0 1",
        "k7/8/8/8/8/8/8/K7 w - - -1 1",
        "k7/8/8/8/8/8/8/K7 w - - 0 18446744073709551616",
        "k7/9/8/8/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/8/8/8/K7/8 w - - 0 1",
        "k7/8/8/8/8/8/8 w - - 0 1",
        "k7/8/8/8/8/8/8/K7 x - - 0 1",
        "99999999999999999999/8/8/8/8/8/8/K6k w - - 0 1",
        "P3k3/8/8/8/8/8/8/4K2p w - - 0 1",
        "k7/8/8/8/8/8/8/K6Q b - - 0 1",
        "k7/é/8/8/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/8/8/8/K7 w - - 0 1 extra words",
        "[Q]/8/8 w",
        "////////////////",
    ]
    .map(String::from)
    .to_vec();
    positions.push("/".repeat(100_000));
    positions.extend(mangled(fen, size(7, 1), &['9', 'Z', '/', ' ', '-', 'k']));
    let variants: &[&str] = if long() {
        &[
            "chess",
            "dream-chess-46",
            "dialectic",
            "extreme-2d",
            "gateway",
            "dai-mitregi",
        ]
    } else {
        &["chess", "gateway"]
    };
    for v in variants {
        for p in &positions {
            bad_input(
                &mut t,
                &["search", "--variant", v, "--position", p, "--depth", "2"],
                b"",
            );
            if long() {
                bad_input(
                    &mut t,
                    &["perft", "--variant", v, "--position", p, "--depth", "2"],
                    b"",
                );
            }
        }
    }
    t.finish("bad-positions");
}

#[test]
fn malformed_variant_files_are_refused_without_panic() {
    let mut t = Tally::default();
    let dir = tmp("toml");
    std::fs::create_dir_all(&dir).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/variants");
    let capa = std::fs::read_to_string(data.join("capablanca.toml")).unwrap();
    let piece = |betza: &str, extra: &str| {
        format!(
            "name = \"odd\"\ninherits = \"chess\"\n[[pieces]]\nname = \"odd\"\nletter = \"O\"\n\
             betza = \"{betza}\"\nvalue = 300\n{extra}"
        )
    };
    let mut files: Vec<String> = vec![
        String::new(),
        "\u{0}\u{1}\u{2}".into(),
        "name = ".into(),
        "name = \"\"\ninherits = \"chess\"".into(),
        "name = \"chess\"\ninherits = \"chess\"".into(),
        "name = \"loop\"\ninherits = \"loop\"".into(),
        "name = \"x\"\ninherits = \"nothing\"".into(),
        "name = \"x\"\ninherits = \"chess\"\n[board]\nfiles = 0\nranks = 0".into(),
        "name = \"x\"\ninherits = \"chess\"\n[board]\nfiles = 100000\nranks = 100000".into(),
        "name = \"x\"\ninherits = \"chess\"\n[board]\nfiles = -1\nranks = 8".into(),
        "name = \"x\"\ninherits = \"chess\"\n[board]\nfiles = 1\nranks = 1".into(),
        "name = \"x\"\ninherits = \"chess\"\nsetup = \"\"".into(),
        "name = \"x\"\ninherits = \"chess\"\nsetup = \"rnbqkbnr w\"".into(),
        "name = \"x\"\ninherits = \"chess\"\nsetup = \"8/8/8/8/8/8/8/8 w - - 0 1\"".into(),
        piece("", ""),
        piece("W99999", ""),
        piece("((((", ""),
        piece("ZZ", ""),
        piece("mW", ""),
        piece("W", "royal = true"),
        piece("W", "promotes_to = [\"X\"]"),
        piece("W", "value = 1e400"),
        piece("W", "value = -99999999999999999999"),
        "name = \"x\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"\"\nbetza = \"W\"".into(),
        "name = \"x\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"PP\"\nbetza = \"W\"".into(),
        "name = \"x\"\ninherits = \"chess\"\n[rules]\ncastling = [{ king = [\"z9\", \"a1\"], \
         rook = [\"a1\", \"b1\"] }]"
            .into(),
    ];
    files.push(format!("# {}\n", "x".repeat(2 << 20)));
    let lines: Vec<&str> = capa.lines().collect();
    for n in (0..lines.len()).step_by(size(6, 1)) {
        files.push(lines[..n].join("\n"));
        files.push(
            lines
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != n)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    files.extend(mangled(
        &capa,
        size(97, 5),
        &['"', '[', '9', '=', 'x', '\n'],
    ));
    for (i, text) in files.iter().enumerate() {
        let f = dir.join(format!("v{i}.toml"));
        std::fs::write(&f, text).unwrap();
        bad_input(
            &mut t,
            &["perft", "--variant-file", s(&f), "--depth", "2"],
            b"",
        );
    }
    // Not a regular file, not there.
    for f in ["/dev/zero", "/", "/nonexistent/v.toml"] {
        bad_input(&mut t, &["perft", "--variant-file", f, "--depth", "1"], b"");
    }
    t.finish("bad-variant-files");
}

#[test]
fn bad_uci_lines_are_answered_and_the_engine_goes_on() {
    let mut t = Tally::default();
    let dir = tmp("uci");
    std::fs::create_dir_all(&dir).unwrap();
    let bad_toml = dir.join("bad.toml");
    std::fs::write(&bad_toml, "name = \"x\"\ninherits = \"nothing\"").unwrap();
    let mut lines: Vec<String> = [
        "",
        "   ",
        "\t",
        "\0",
        "setoption",
        "setoption name",
        "setoption value 3",
        "setoption name UCI_Variant value nonsense",
        "setoption name UCI_Variant value",
        "setoption name UCI_Variant",
        "setoption name Hash value -1",
        "setoption name Hash value 0",
        "setoption name Hash value abc",
        "setoption name Hash value 99999999999999999999",
        "setoption name Threads value 0",
        "setoption name Threads value 100000",
        "setoption name UCI_VariantFile value /nonexistent.toml",
        "setoption name UCI_VariantFile value /dev/zero",
        "setoption name UCI_VariantFile value /",
        "setoption name EngineConfig value {",
        "setoption name EngineConfig value /nonexistent.json",
        "setoption name NoSuchOption value 1",
        "position",
        "position fen",
        "position fen garbage",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen k7/8/8/8/8/8/8/K7 w - - 0 1 moves a1a2",
        "position startpos moves",
        "position startpos moves e2e4 e2e4",
        "position startpos moves zz99",
        "position startpos moves e7e8q",
        "position startpos moves e2e4 moves e7e5",
        "position startpos moves f2f3 e7e5 g2g4 d8h4",
        "go depth 0",
        "go depth -1",
        "go depth 99999999999999999999",
        "go nodes 0",
        "go nodes abc",
        "go movetime 0",
        "go movetime -1",
        "go wtime -5 btime -5",
        "go wtime 0 btime 0 winc 0 binc 0",
        "go movestogo 0 wtime 100 btime 100",
        "go searchmoves zz99 depth 2",
        "go ponder depth 2",
        "stop",
        "ponderhit",
        "ucinewgame",
        "debug on",
        "register later",
        "eval",
        "d",
        "perft 2",
    ]
    .map(String::from)
    .to_vec();
    lines.push(format!(
        "setoption name UCI_VariantFile value {}",
        s(&bad_toml)
    ));
    lines.push("a".repeat(1 << 20));
    lines.push(format!(
        "position startpos moves {}",
        "g1f3 g8f6 f3g1 f6g8 ".repeat(100)
    ));
    let variants: &[&str] = if long() {
        &[
            "chess",
            "dream-chess-46",
            "dialectic",
            "dialectic-hegelian",
            "extreme-2d",
            "gateway",
            "dai-mitregi",
            "dai-mitregi-stepping",
        ]
    } else {
        &["chess"]
    };
    for v in variants {
        for line in &lines {
            let session = format!(
                "uci\nsetoption name UCI_Variant value {v}\n{line}\nisready\n\
                 position startpos\ngo depth 1\nisready\nquit\n"
            );
            let Some(r) = bad_input(&mut t, &["uci"], session.as_bytes()) else {
                continue;
            };
            if r.stdout.matches("readyok").count() < 2 {
                t.failures.push(format!(
                    "uci {v}: {:?}: stopped answering: {}",
                    &line[..line.len().min(80)],
                    tail(&r.stdout)
                ));
            }
        }
        // A line that is not UTF-8.
        let session = format!("uci\nsetoption name UCI_Variant value {v}\n\u{1}");
        let mut bytes = session.into_bytes();
        bytes.extend_from_slice(b"\xff\xfe position\nisready\nquit\n");
        bad_input(&mut t, &["uci"], &bytes);
    }
    t.finish("bad-uci-lines");
}

#[test]
fn bad_option_values_are_refused_without_panic() {
    let mut t = Tally::default();
    let out = tmp("options");
    let o = s(&out);
    let play: Vec<&str> = vec![
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "50",
        "--max-plies",
        "20",
        "--out",
        o,
        "--quiet",
        "--force",
    ];
    let search: Vec<&str> = vec!["search", "--variant", "chess", "--depth", "1"];
    let sprt: Vec<&str> = vec![
        "sprt",
        "--variant",
        "chess",
        "--test",
        "default",
        "--max-games",
        "2",
        "--nodes",
        "50",
        "--out",
        o,
        "--quiet",
        "--force",
    ];
    let cases: Vec<(&Vec<&str>, &str, Vec<&str>)> = vec![
        (&play, "--variant", vec!["", "nonexistent", "chess,chess"]),
        (
            &play,
            "--games",
            vec!["", "0", "-1", "abc", "1.5", "99999999999999999999"],
        ),
        (
            &play,
            "--nodes",
            vec!["", "0", "-5", "x", "99999999999999999999"],
        ),
        (&play, "--depth", vec!["-1", "x", ""]),
        (&play, "--movetime", vec!["0", "-1", "x"]),
        (
            &play,
            "--tc",
            vec!["", "+", "1+", "+1", "0+0", "-1+0", "x+y", "1+2+3"],
        ),
        (&play, "--threads", vec!["0", "-1", "x", "1000"]),
        (&play, "--seed", vec!["-1", "x", "99999999999999999999999"]),
        (
            &play,
            "--openings",
            vec![
                "",
                "balanced-plies",
                "balanced-plies:",
                "balanced-plies:x",
                "balanced-plies:-1",
                "balanced-plies:6:x",
                "random-plies:99999999999",
                "trades:",
                "trades:1:2:3",
                "/nonexistent.epd",
                "/",
            ],
        ),
        (&play, "--max-plies", vec!["0", "-1", "x"]),
        (
            &play,
            "--adjudicate-resign",
            vec!["", "x", "1:", ":1", "-1:-1", "1:2:3"],
        ),
        (
            &play,
            "--adjudicate-draw",
            vec!["", "1:2", "x:y:z", "-1:-1:-1"],
        ),
        (
            &play,
            "--shard",
            vec!["", "0/2", "3/2", "1/0", "x/y", "1/2/3"],
        ),
        (
            &play,
            "--white",
            vec!["", "/nonexistent.json", "/", "{", "engine:"],
        ),
        (&search, "--hash", vec!["0", "-1", "x", "99999999999999"]),
        (
            &search,
            "--values",
            vec![
                "",
                "x",
                "pawn=",
                "pawn=x",
                "nopiece=100",
                "@/nonexistent",
                "@/",
            ],
        ),
        (&search, "--config", vec!["/nonexistent.json", "/", ""]),
        (&search, "--nodes", vec!["0", "-1", "x"]),
        (&sprt, "--elo0", vec!["x", "nan", "inf", ""]),
        (&sprt, "--elo1", vec!["-inf", "nan"]),
        (&sprt, "--alpha", vec!["0", "1", "2", "-0.1", "nan"]),
        (&sprt, "--beta", vec!["0", "1", "nan"]),
        (&sprt, "--model", vec!["x", ""]),
        (&sprt, "--max-games", vec!["0", "-1", "x"]),
        (&sprt, "--base", vec!["", "/nonexistent.json", "engine:"]),
    ];
    for (base, option, values) in &cases {
        for value in values {
            let mut args = (*base).clone();
            args.extend([*option, *value]);
            bad_input(&mut t, &args, b"");
        }
    }
    t.finish("bad-option-values");
}

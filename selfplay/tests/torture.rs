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

#[path = "torture/bad_input.rs"]
mod bad_input;
#[path = "torture/damaged.rs"]
mod damaged;

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

/// The files of a merged run, each as read (None: absent), less run.json's `finished`
/// time, which each merge sets anew.
fn snapshot(dir: &Path) -> Vec<Option<Vec<u8>>> {
    ["games.csv", "moves.csv", "games.pgn", "run.json"]
        .iter()
        .map(|f| {
            let bytes = std::fs::read(dir.join(f)).ok()?;
            if *f != "run.json" {
                return Some(bytes);
            }
            match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Ok(serde_json::Value::Object(mut m)) => {
                    m.remove("finished");
                    Some(serde_json::to_vec(&m).unwrap())
                }
                _ => Some(bytes),
            }
        })
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
    // Delays spread over the merge's run (about 10 ms from the start), both onto an old
    // result and into a folder not there yet.
    let steps = size(16, 200) as u64;
    for i in 0..steps {
        let delay = Duration::from_micros(i * 15_000 / steps);
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

//! (b) Run files truncated or with a byte flipped: each either recovered by a resume to
//! the finished run's result or refused naming the file; never a panic, never fewer games.

use super::*;

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

/// A flipped byte turned run.json's `"openings": "balanced-plies:6"` into a file name, and
/// the resume said only "reading openings file b`lanced-plies:6", not where it came from.
#[test]
fn openings_that_cannot_be_read_name_the_settings_file() {
    let dir = tmp("openings-play");
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
            s(&dir),
            "--quiet",
        ],
        b"",
        LIMIT,
    );
    assert!(r.ok(), "{}", r.stderr);
    let sprt = tmp("openings-sprt");
    let r = run(
        &[
            "sprt",
            "--variant",
            "chess",
            "--test",
            "default",
            "--max-games",
            "2",
            "--nodes",
            "100",
            "--out",
            s(&sprt),
            "--quiet",
        ],
        b"",
        LIMIT,
    );
    assert!(r.ok(), "{}", r.stderr);
    for (d, file, verb) in [
        (&dir, "run.json", "play"),
        (&sprt, "sprt_config.json", "sprt"),
    ] {
        let path = d.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"balanced-plies:6\""), "{text}");
        std::fs::write(
            &path,
            text.replace("\"balanced-plies:6\"", "\"b`lanced-plies:6\""),
        )
        .unwrap();
        let r = run(&[verb, "--resume", s(d), "--quiet"], b"", LIMIT);
        assert!(!r.ok() && !r.panicked(), "{}", r.stderr);
        assert!(
            r.stderr.contains(file) && r.stderr.contains("b`lanced-plies:6"),
            "{}",
            r.stderr
        );
    }
}

//! Issue 49, limits: a file named on the command line or over UCI is read only if it is a
//! regular file of bounded size, so naming a device or a FIFO fails at once, naming the file,
//! instead of hanging or filling memory.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use variantlab_selfplay::config::EngineConfig;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("variantlab-limits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `EngineConfig::load(spec)`'s error, on another thread, so a read that never ends fails
/// the test instead of hanging it.
fn load_error_within_seconds(spec: &Path) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    let s = spec.to_str().unwrap().to_string();
    std::thread::spawn(move || {
        let _ = tx.send(
            EngineConfig::load(&s)
                .map(|c| c.name)
                .map_err(|e| format!("{e:#}")),
        );
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(Err(e)) => e,
        Ok(Ok(name)) => panic!("{} loaded as {name}", spec.display()),
        Err(_) => panic!("loading {} did not finish", spec.display()),
    }
}

/// A FIFO at `path`, if `mkfifo` is there.
fn fifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// `--white /dev/zero` read forever and a FIFO waited for a writer; a huge file was read whole.
#[test]
fn engine_configurations_are_regular_files_of_bounded_size() {
    let e = load_error_within_seconds(Path::new("/dev/zero"));
    assert!(
        e.contains("/dev/zero") && e.contains("not a regular file"),
        "{e}"
    );
    let dir = tmp("config");
    let f = dir.join("fifo.json");
    if fifo(&f) {
        let e = load_error_within_seconds(&f);
        assert!(
            e.contains("fifo.json") && e.contains("not a regular file"),
            "{e}"
        );
    }
    let big = dir.join("big.json");
    std::fs::write(&big, format!("{{\"name\": \"{}\"}}", "x".repeat(2 << 20))).unwrap();
    let e = load_error_within_seconds(&big);
    assert!(e.contains("big.json") && e.contains("larger than"), "{e}");
    let ok = dir.join("ok.json");
    std::fs::write(&ok, "{\"name\": \"ok\"}").unwrap();
    assert_eq!(EngineConfig::load(ok.to_str().unwrap()).unwrap().name, "ok");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `variantlab args`, killing it after 30 s: (finished in time, success, stderr).
fn variantlab_within_seconds(args: &[&str]) -> (bool, bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut e = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut e).unwrap();
            return (true, status.success(), e);
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            return (false, false, String::new());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Through the command line: `--white` naming a device, and a configuration whose `eval`
/// weights file is a FIFO.
#[test]
fn the_command_line_refuses_devices_and_fifos_as_settings() {
    let dir = tmp("cli");
    let out = dir.join("run");
    let (done, ok, e) = variantlab_within_seconds(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "100",
        "--white",
        "/dev/zero",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(done, "play --white /dev/zero did not finish");
    assert!(
        !ok && e.contains("/dev/zero") && e.contains("not a regular file"),
        "{e}"
    );
    assert!(!out.exists(), "a run folder was made");

    let weights = dir.join("weights.json");
    if fifo(&weights) {
        let cfg = dir.join("cfg.json");
        std::fs::write(
            &cfg,
            format!("{{\"eval\": {:?}}}", weights.to_str().unwrap()),
        )
        .unwrap();
        let (done, ok, e) = variantlab_within_seconds(&[
            "search",
            "--variant",
            "chess",
            "--nodes",
            "100",
            "--config",
            cfg.to_str().unwrap(),
        ]);
        assert!(done, "search with a FIFO as eval weights did not finish");
        assert!(
            !ok && e.contains("weights.json") && e.contains("not a regular file"),
            "{e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

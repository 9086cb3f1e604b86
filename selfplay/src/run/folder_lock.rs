//! One writer per run folder: a second `play`, `sprt`, `study` or `merge` on a folder that a
//! live process is still writing is refused, instead of both appending to the same CSVs
//! (which duplicates and interleaves games). The lock is an OS file lock (`flock`) on the
//! file `lock`, which also holds the writer's process id for the message; the OS drops it
//! when its process ends however it ends, so a killed run leaves nothing stale, and exactly
//! one of two racing writers wins. The file is removed when the writer finishes.

use anyhow::{Context, Result};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The lock file's name inside a run folder.
pub const LOCK_FILE: &str = "lock";

/// Exclusive use of a run folder while it is alive.
#[derive(Debug)]
pub struct FolderLock {
    path: PathBuf,
    /// Holds the OS lock; closing it releases the lock.
    _file: File,
}

impl FolderLock {
    /// Takes the folder `dir` (which must exist) for this process.
    ///
    /// # Errors
    /// A live process holds it (named, with its id), or the lock file cannot be written.
    pub fn acquire(dir: &Path) -> Result<FolderLock> {
        let path = dir.join(LOCK_FILE);
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .with_context(|| format!("creating {}", path.display()))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => return Err(refusal(dir)),
                Err(TryLockError::Error(e)) => {
                    return Err(e).with_context(|| format!("locking {}", path.display()))
                }
            }
            // The holder before us removes the file before it lets go: a lock taken on a
            // removed file guards nothing, so take the one now at the path.
            if !is_same_file(&file, &path) {
                continue;
            }
            file.set_len(0)
                .and_then(|()| writeln!(file, "{}", std::process::id()))
                .with_context(|| format!("writing {}", path.display()))?;
            return Ok(FolderLock { path, _file: file });
        }
    }
}

impl FolderLock {
    /// Records that the locked folder is now at `dir` (renamed or swapped into place while
    /// held), so the lock file is removed from there.
    pub fn moved_to(&mut self, dir: &Path) {
        self.path = dir.join(LOCK_FILE);
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still held (see `acquire`); where files cannot be told apart, kept.
        if cfg!(unix) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether the open `file` is the file at `path` now.
#[cfg(unix)]
fn is_same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn is_same_file(_: &File, _: &Path) -> bool {
    true
}

/// Refuses to touch `dir` (to replace it with `--force`, say) while a live process writes it.
///
/// # Errors
/// The folder is in use.
pub fn ensure_unused(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        drop(FolderLock::acquire(dir)?);
    }
    Ok(())
}

fn refusal(dir: &Path) -> anyhow::Error {
    let pid = std::fs::read_to_string(dir.join(LOCK_FILE))
        .ok()
        .and_then(|t| t.trim().parse::<u32>().ok());
    match pid {
        Some(pid) if pid == std::process::id() => {
            anyhow::anyhow!("{} is already in use by this process", dir.display())
        }
        Some(pid) => anyhow::anyhow!(
            "{} is in use by process {pid} (another variantlab writing this run); wait for it to finish or stop it, then resume",
            dir.display()
        ),
        None => anyhow::anyhow!(
            "{} is in use by another process (another variantlab writing this run); wait for it to finish or stop it, then resume",
            dir.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("variantlab-lock-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_held_folder_is_refused_and_freed_on_drop() {
        let d = tmp("held");
        let lock = FolderLock::acquire(&d).unwrap();
        let e = FolderLock::acquire(&d).unwrap_err().to_string();
        assert!(e.contains("in use"), "{e}");
        assert!(ensure_unused(&d).is_err());
        drop(lock);
        assert!(!d.join(LOCK_FILE).exists());
        ensure_unused(&d).unwrap();
        drop(FolderLock::acquire(&d).unwrap());
    }

    #[test]
    fn a_stale_or_garbled_lock_is_taken_over() {
        let d = tmp("stale");
        // A lock file left by a killed writer (no process has this id) holds no OS lock.
        std::fs::write(d.join(LOCK_FILE), "4294967295\n").unwrap();
        ensure_unused(&d).unwrap();
        std::fs::write(d.join(LOCK_FILE), "4294967295\n").unwrap();
        let lock = FolderLock::acquire(&d).unwrap();
        let held = std::fs::read_to_string(d.join(LOCK_FILE)).unwrap();
        assert_eq!(held.trim(), std::process::id().to_string());
        drop(lock);
        std::fs::write(d.join(LOCK_FILE), "not a pid").unwrap();
        drop(FolderLock::acquire(&d).unwrap());
    }

    /// Writers racing for a folder, from a stale lock file and from none, while winners
    /// finish and remove the file: never two holders at once.
    #[test]
    fn exactly_one_of_racing_writers_holds_the_folder() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::{Arc, Barrier};
        let d = tmp("race");
        for round in 0..40 {
            if round % 2 == 0 {
                std::fs::write(d.join(LOCK_FILE), "4294967295\n").unwrap();
            }
            let holders = Arc::new(AtomicUsize::new(0));
            let most = Arc::new(AtomicUsize::new(0));
            let wins = Arc::new(AtomicUsize::new(0));
            let barrier = Arc::new(Barrier::new(6));
            let threads: Vec<_> = (0..6)
                .map(|_| {
                    let (d, holders, most, wins, barrier) = (
                        d.clone(),
                        holders.clone(),
                        most.clone(),
                        wins.clone(),
                        barrier.clone(),
                    );
                    std::thread::spawn(move || {
                        barrier.wait();
                        for _ in 0..20 {
                            if let Ok(lock) = FolderLock::acquire(&d) {
                                let now = holders.fetch_add(1, Ordering::SeqCst) + 1;
                                most.fetch_max(now, Ordering::SeqCst);
                                wins.fetch_add(1, Ordering::SeqCst);
                                std::thread::sleep(std::time::Duration::from_micros(50));
                                holders.fetch_sub(1, Ordering::SeqCst);
                                drop(lock);
                            }
                        }
                    })
                })
                .collect();
            for t in threads {
                t.join().unwrap();
            }
            assert_eq!(
                most.load(Ordering::SeqCst),
                1,
                "round {round}: two holders at once"
            );
            assert!(
                wins.load(Ordering::SeqCst) >= 1,
                "round {round}: nobody won"
            );
        }
    }
}

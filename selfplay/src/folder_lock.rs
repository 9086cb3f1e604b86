//! One writer per run folder: a second `play`, `sprt` or `study` on a folder that a live
//! process is still writing is refused, instead of both appending to the same CSVs (which
//! duplicates and interleaves games). The lock is a file `lock` holding the writer's process
//! id; it is removed when the writer finishes, and a lock left by a killed process (no such
//! process any more) is taken over.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The lock file's name inside a run folder.
pub const LOCK_FILE: &str = "lock";

/// Exclusive use of a run folder while it is alive.
#[derive(Debug)]
pub struct FolderLock {
    path: PathBuf,
}

impl FolderLock {
    /// Takes the folder `dir` (which must exist) for this process.
    ///
    /// # Errors
    /// A live process holds it (named, with its id), or the lock file cannot be written.
    pub fn acquire(dir: &Path) -> Result<FolderLock> {
        let path = dir.join(LOCK_FILE);
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    writeln!(f, "{}", std::process::id())
                        .with_context(|| format!("writing {}", path.display()))?;
                    return Ok(FolderLock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if let Some(pid) = holder(dir) {
                        refuse(dir, pid)?;
                    }
                    // A stale lock (its process is gone, or the file is unreadable): take over.
                    match std::fs::remove_file(&path) {
                        Ok(()) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                        Err(e) => {
                            return Err(e).with_context(|| format!("removing {}", path.display()))
                        }
                    }
                }
                Err(e) => return Err(e).with_context(|| format!("creating {}", path.display())),
            }
        }
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Refuses to touch `dir` (to replace it with `--force`, say) while a live process writes it.
///
/// # Errors
/// The folder is in use.
pub fn ensure_unused(dir: &Path) -> Result<()> {
    match holder(dir) {
        Some(pid) => refuse(dir, pid),
        None => Ok(()),
    }
}

fn refuse(dir: &Path, pid: u32) -> Result<()> {
    if pid == std::process::id() {
        bail!("{} is already in use by this process", dir.display());
    }
    bail!(
        "{} is in use by process {pid} (another variantlab writing this run); wait for it to finish or stop it, then resume. If no such process runs, delete {}",
        dir.display(),
        dir.join(LOCK_FILE).display()
    )
}

/// The live process holding `dir`'s lock, if any.
fn holder(dir: &Path) -> Option<u32> {
    let text = std::fs::read_to_string(dir.join(LOCK_FILE)).ok()?;
    let pid: u32 = text.trim().parse().ok()?;
    alive(pid).then_some(pid)
}

/// Whether process `pid` exists. Where that cannot be told (no `/proc`), every holder is
/// taken to be alive: a refusal names the file to delete, a wrong takeover loses games.
fn alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
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
        // No process has this id (above Linux's pid_max).
        std::fs::write(d.join(LOCK_FILE), "4294967295\n").unwrap();
        if Path::new("/proc").is_dir() {
            ensure_unused(&d).unwrap();
            let lock = FolderLock::acquire(&d).unwrap();
            let held = std::fs::read_to_string(d.join(LOCK_FILE)).unwrap();
            assert_eq!(held.trim(), std::process::id().to_string());
            drop(lock);
        }
        std::fs::write(d.join(LOCK_FILE), "not a pid").unwrap();
        drop(FolderLock::acquire(&d).unwrap());
    }
}

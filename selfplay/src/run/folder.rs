//! What the toolkit may write and delete in a run folder. A run folder is data: `--force`
//! removes the files named here and nothing else, and refuses a folder holding anything
//! else (notes, a thesis, another tool's output), so replacing a run never loses a file the
//! toolkit did not write.

use anyhow::{bail, Context, Result};
use std::path::Path;

/// The files a run (`play`, `study`, `values`, `merge`) or an SPRT match writes into its
/// folder, besides [`LOG_DIR`]; each may also be there with `.tmp` appended (a write through
/// a temporary file cut short).
pub const FILES: &[&str] = &[
    "run.json",
    "games.csv",
    "moves.csv",
    PGN_FILE,
    OPENINGS_COPY,
    VARIANT_DEFINITION,
    crate::run::folder_lock::LOCK_FILE,
    "sprt_config.json",
    "sprt.csv",
    "sprt.json",
];

/// The folder, inside a run folder, of the external engines' standard error logs
/// (`NAME.stderr.log`).
pub const LOG_DIR: &str = "engines";

/// The PGN file of a run folder.
pub const PGN_FILE: &str = "games.pgn";

/// The run folder's copy of an openings file.
pub const OPENINGS_COPY: &str = "openings.txt";

/// The loaded variant file in Fairy-Stockfish's format, written into the run folder for an
/// external engine that reads that format ([`crate::run::engine_process::Definition`]).
pub const VARIANT_DEFINITION: &str = "variant.ini";

/// Whether `name` is a file the toolkit writes into a run folder.
fn is_ours(name: &str) -> bool {
    let base = name.strip_suffix(".tmp").unwrap_or(name);
    FILES.contains(&base)
}

/// The toolkit's files in `dir`, by path, or an error naming the first entry it did not
/// write. The lock file is left out: its holder removes it.
fn ours(dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    let mut found = Vec::new();
    if !dir.exists() {
        return Ok(found);
    }
    let foreign = |p: &Path| -> anyhow::Error {
        anyhow::anyhow!(
            "{} holds {}, which variantlab did not write; refusing to replace the run there (move that out, or choose another --out)",
            dir.display(),
            p.display()
        )
    };
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_str().unwrap_or("");
        let kind = entry.file_type()?;
        if name == LOG_DIR && kind.is_dir() {
            for log in std::fs::read_dir(&path)? {
                let log = log?;
                let lname = log.file_name();
                let lname = lname.to_str().unwrap_or("");
                if !(log.file_type()?.is_file() && lname.ends_with(".stderr.log")) {
                    return Err(foreign(&log.path()));
                }
                found.push(log.path());
            }
            found.push(path);
        } else if kind.is_file() && is_ours(name) {
            if name != crate::run::folder_lock::LOCK_FILE {
                found.push(path);
            }
        } else {
            return Err(foreign(&path));
        }
    }
    Ok(found)
}

/// The names of the entries of `dir` that the toolkit did not write (a merge target's
/// `shards/` folder, a user's notes): a merge carries them over into the folder it swaps in.
///
/// # Errors
/// An unreadable folder.
pub fn foreign(dir: &Path) -> Result<Vec<std::ffi::OsString>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        let name = entry.file_name();
        let text = name.to_str().unwrap_or("");
        let ours = if entry.file_type()?.is_dir() {
            text == LOG_DIR
        } else {
            is_ours(text)
        };
        if !ours {
            names.push(name);
        }
    }
    Ok(names)
}

/// Removes the toolkit's files from `dir`, which the caller holds locked; the folder itself
/// and its lock stay.
///
/// # Errors
/// An entry the toolkit did not write (then nothing is removed), or one that cannot be
/// removed.
pub fn clear(dir: &Path) -> Result<()> {
    for path in ours(dir)? {
        if path.is_dir() {
            std::fs::remove_dir(&path)
        } else {
            std::fs::remove_file(&path)
        }
        .with_context(|| format!("removing {}", path.display()))?;
    }
    Ok(())
}

/// Swaps the folders `a` and `b` (both existing) in one step where the system can
/// (Linux's `renameat2` with `RENAME_EXCHANGE`), so a reader or a kill sees one or the
/// other whole; elsewhere, or on a file system without it, by two renames through a third
/// name beside them.
///
/// # Errors
/// A rename refused by the system.
pub fn exchange(a: &Path, b: &Path) -> Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes());
        let (ca, cb) = (c(a)?, c(b)?);
        // SAFETY: two valid NUL-terminated paths; renameat2 reads them and nothing else.
        let rc = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if rc == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if !matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) {
            return Err(e).with_context(|| format!("swapping {} and {}", a.display(), b.display()));
        }
    }
    let mut third = b.as_os_str().to_owned();
    third.push(".old");
    let third = std::path::PathBuf::from(third);
    if third.exists() {
        bail!(
            "{} is in the way of swapping {} and {}",
            third.display(),
            a.display(),
            b.display()
        );
    }
    std::fs::rename(b, &third).with_context(|| format!("renaming {}", b.display()))?;
    std::fs::rename(a, b).with_context(|| format!("renaming {}", a.display()))?;
    std::fs::rename(&third, a).with_context(|| format!("renaming {}", third.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!(
            "variantlab-runfolder-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn clear_removes_the_toolkits_files_and_refuses_any_other() {
        let d = tmp("clear");
        for f in ["run.json", "games.csv", "moves.csv.tmp", "sprt.csv"] {
            std::fs::write(d.join(f), "x").unwrap();
        }
        std::fs::create_dir(d.join(LOG_DIR)).unwrap();
        std::fs::write(d.join(LOG_DIR).join("sf.stderr.log"), "x").unwrap();
        std::fs::write(d.join("thesis.tex"), "years of work").unwrap();
        let e = clear(&d).unwrap_err().to_string();
        assert!(
            e.contains("thesis.tex") && e.contains("did not write"),
            "{e}"
        );
        assert!(d.join("run.json").exists() && d.join("thesis.tex").exists());
        std::fs::remove_file(d.join("thesis.tex")).unwrap();
        std::fs::write(d.join(LOG_DIR).join("notes.txt"), "x").unwrap();
        assert!(clear(&d).unwrap_err().to_string().contains("notes.txt"));
        std::fs::remove_file(d.join(LOG_DIR).join("notes.txt")).unwrap();
        clear(&d).unwrap();
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
    }

    #[test]
    fn exchange_swaps_two_folders() {
        let (a, b) = (tmp("xa"), tmp("xb"));
        std::fs::write(a.join("games.csv"), "new").unwrap();
        std::fs::write(b.join("games.csv"), "old").unwrap();
        exchange(&a, &b).unwrap();
        assert_eq!(std::fs::read_to_string(b.join("games.csv")).unwrap(), "new");
        assert_eq!(std::fs::read_to_string(a.join("games.csv")).unwrap(), "old");
    }
}

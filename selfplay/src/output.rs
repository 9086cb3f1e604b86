//! The commands' standard output, shared by every command module.

/// `println!` for the command's output: a closed standard output (the reader of a pipe
/// went away, as `| head` does) ends the program quietly with success, as `grep` and `ls`
/// do, instead of panicking.
macro_rules! out {
    ($($t:tt)*) => {
        $crate::output::write_stdout(format_args!($($t)*))
    };
}
pub(crate) use out;

/// Writes one line to standard output (see [`out!`]).
pub fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    if let Err(e) = o.write_fmt(args).and_then(|()| o.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(1);
    }
}

/// The UTC calendar date (year, month, day) of a Unix time in seconds (Howard Hinnant's
/// days-to-civil algorithm): dates for weights files and PGN without a date crate.
pub fn civil_date(unix_secs: u64) -> (i64, i64, i64) {
    let z = (unix_secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Writes `bytes` to `path` through a temporary file beside it and a rename, so a reader (or
/// an interruption) never sees the file half written.
///
/// # Errors
/// An unwritable folder.
pub fn replace_file(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    replace_file_with(path, |w| Ok(std::io::Write::write_all(w, bytes)?))
}

/// Writes `v` to `path` as pretty JSON with a final newline, through [`replace_file`]: the
/// settings and summaries of runs (`run.json`, `sprt_config.json`, `sprt.json`, ...).
///
/// # Errors
/// An unwritable folder.
pub fn write_json<T: serde::Serialize>(path: &std::path::Path, v: &T) -> anyhow::Result<()> {
    replace_file(path, (serde_json::to_string_pretty(v)? + "\n").as_bytes())
}

/// [`replace_file`] for content written piece by piece: `write` fills the temporary file
/// (buffered), which then replaces `path`.
///
/// # Errors
/// An unwritable folder, or what `write` returns.
pub fn replace_file_with(
    path: &std::path::Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::io::Write;
    if path.is_dir() {
        anyhow::bail!("{} is a folder, not a file: name a file", path.display());
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let written = (|| {
        let file =
            std::fs::File::create(&tmp).with_context(|| format!("writing {}", tmp.display()))?;
        let mut w = std::io::BufWriter::new(file);
        write(&mut w).with_context(|| format!("writing {}", tmp.display()))?;
        w.flush()
            .with_context(|| format!("writing {}", tmp.display()))?;
        drop(w);
        std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))
    })();
    // A failed write leaves nothing behind: the old file (if any) stays as it was.
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Creates the output folder `path` (and its parents), saying so plainly when a file is in
/// the way.
///
/// # Errors
/// `path` is a file; an unwritable parent.
pub fn create_folder(path: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context;
    if path.is_file() {
        anyhow::bail!("{} is a file, not a folder: name a folder", path.display());
    }
    std::fs::create_dir_all(path).with_context(|| format!("creating {}", path.display()))
}

/// Reads a settings file written by [`write_json`] (`run.json`, `sprt_config.json`) into
/// `T`, whose strictness (`deny_unknown_fields`, required fields) decides what is refused.
/// serde names unknown and missing fields itself; a mistyped value's error names the field
/// from the key on its line (or the nearest line above with one), as the file is pretty
/// printed.
///
/// # Errors
/// An unreadable file or one that does not fit `T`, named with the file, line and field.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> anyhow::Result<T> {
    use anyhow::Context;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        let lines: Vec<&str> = text.lines().take(e.line()).collect();
        let key = lines
            .iter()
            .rev()
            .find_map(|l| {
                let rest = l.trim_start().strip_prefix('"')?;
                let (key, after) = rest.split_once('"')?;
                after.trim_start().starts_with(':').then_some(key)
            })
            .filter(|_| e.classify() == serde_json::error::Category::Data);
        match key {
            Some(key) => anyhow::anyhow!("{}: field `{key}`: {e}", path.display()),
            None => anyhow::anyhow!("{}: {e}", path.display()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{create_folder, replace_file};

    /// A folder where a file is to go, or a file where a folder is to go, is named as such;
    /// a failed replacement leaves no `.tmp` beside it.
    #[test]
    fn outputs_in_the_way_are_named_and_nothing_is_left() {
        let dir = std::env::temp_dir().join(format!("vl-output-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("report.html")).unwrap();
        let e = format!(
            "{:#}",
            replace_file(&dir.join("report.html"), b"x").unwrap_err()
        );
        assert!(e.contains("report.html is a folder, not a file"), "{e}");
        std::fs::write(dir.join("file"), "data").unwrap();
        let e = format!("{:#}", create_folder(&dir.join("file")).unwrap_err());
        assert!(e.contains("file is a file, not a folder"), "{e}");
        assert_eq!(std::fs::read_to_string(dir.join("file")).unwrap(), "data");
        // The content cannot be written: no .tmp is left.
        let e = super::replace_file_with(&dir.join("out.csv"), |_| anyhow::bail!("broken"));
        assert!(e.is_err());
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

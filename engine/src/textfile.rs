//! Reading a text file a user named (a variant file, an engine configuration, evaluation
//! weights): only a regular file, and only up to a size, so that a device (`/dev/zero`) or a
//! FIFO named by mistake fails at once instead of reading forever, waiting for a writer or
//! filling memory.

use std::io::Read;
use std::path::Path;
use thiserror::Error;

/// Why a file was not read (the caller names the file).
#[derive(Debug, Error)]
pub enum TextFileError {
    /// A directory, device, FIFO or socket.
    #[error("not a regular file")]
    NotRegular,
    /// Over the caller's limit.
    #[error("larger than {} KiB", .0 >> 10)]
    TooLarge(u64),
    /// Missing, unreadable, or not UTF-8.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
}

/// The text of the regular file at `path`, if it has at most `max_bytes` bytes.
///
/// # Errors
/// Not a regular file, larger than `max_bytes` (also if it grows while read), or unreadable.
pub fn read_text_file(path: &Path, max_bytes: u64) -> Result<String, TextFileError> {
    let bytes = read_file(path, max_bytes)?;
    String::from_utf8(bytes)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e).into())
}

/// The bytes of the regular file at `path`, if it has at most `max_bytes` bytes (a network
/// file, a data file's header).
///
/// # Errors
/// As [`read_text_file`], except that any bytes are accepted.
pub fn read_file(path: &Path, max_bytes: u64) -> Result<Vec<u8>, TextFileError> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(TextFileError::NotRegular);
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(TextFileError::TooLarge(max_bytes));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_up_to_the_limit_only() {
        let dir = std::env::temp_dir().join(format!("variantlab-textfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        std::fs::write(&f, "12345").unwrap();
        assert_eq!(read_text_file(&f, 5).unwrap(), "12345");
        let e = read_text_file(&f, 4).unwrap_err();
        assert!(matches!(e, TextFileError::TooLarge(4)), "{e}");
        let e = read_text_file(&dir, 5).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file");
        let e = read_text_file(Path::new("/dev/zero"), 5).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file");
        let e = read_text_file(&dir.join("missing"), 5).unwrap_err();
        assert!(e.to_string().starts_with("cannot read: "), "{e}");
        std::fs::write(&f, [0xff, 0xfe]).unwrap();
        assert!(read_text_file(&f, 5)
            .unwrap_err()
            .to_string()
            .starts_with("cannot read: "));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

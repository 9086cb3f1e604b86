//! The network training data file (`.vldata`), written by `variantlab datagen` and read by
//! `variantlab train-net`; documented in docs/evaluation.md ("Network data").
//!
//! Positions are stored as the variant's position text, so the data does not depend on the
//! network's input features: one file serves every feature set a variant may have.
//!
//! Layout (all numbers little-endian):
//! - header: the magic `VLNETDAT`, the format version (u16), the variant's name (u16 length,
//!   UTF-8), the generating settings ([`DataSettings`], u32 length, JSON);
//! - records to the end of the file, each: game index (u32), ply after the opening (u16),
//!   the search's score from the side to move's view in centipawns (i16), the game's result
//!   from the side to move's view (i8: 1 win, 0 draw, -1 loss), the position text's length
//!   (u16) and the text.

use crate::run::config::EngineConfig;
use crate::run::variant_file::VariantDefinition;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::Path;

/// The first bytes of every data file.
pub const MAGIC: &[u8; 8] = b"VLNETDAT";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of a record before its text.
pub const RECORD_FIXED: usize = 4 + 2 + 2 + 1 + 2;

/// How a data file was generated (its header's JSON). Everything but [`DataSettings::commit`]
/// and [`DataSettings::version`] is its identity: a file is resumed or extended only with the
/// same settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataSettings {
    /// The variant's name.
    pub variant: String,
    /// The variant file's definition, for a variant defined in a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_file: Option<VariantDefinition>,
    /// The engine configuration that played the games and scored the positions.
    pub engine: EngineConfig,
    /// Nodes per move (the configuration's own `nodes` wins).
    pub nodes: u64,
    /// Master seed.
    pub seed: u64,
    /// The openings spec.
    pub openings: String,
    /// The checksum of an openings file (`None` for generated openings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_checksum: Option<String>,
    /// Ply cap of each game.
    pub max_plies: u32,
    /// Plies after the opening whose positions are not kept.
    pub skip_plies: u32,
    /// `(I, N)`: the I-th of N slices of the games (by pair, as `play --shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<(u64, u64)>,
    /// variantlab's version.
    pub version: String,
    /// The git commit of the build that started the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

impl DataSettings {
    /// The settings that decide the data: without the version and commit.
    pub fn identity(&self) -> DataSettings {
        DataSettings {
            version: String::new(),
            commit: None,
            ..self.clone()
        }
    }

    /// Whether game `id` is in this file's slice.
    pub fn in_shard(&self, id: u64) -> bool {
        match self.shard {
            Some((i, n)) => (id / 2) % n == i - 1,
            None => true,
        }
    }
}

/// One position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's index in the generating run.
    pub game: u32,
    /// Plies played since the opening's position.
    pub ply: u16,
    /// The search's score, side to move's view, centipawns.
    pub score: i16,
    /// The game's result, side to move's view: 1 win, 0 draw, -1 loss.
    pub result: i8,
    /// The position in the variant's text format.
    pub text: String,
}

impl Record {
    /// Appends the record's bytes to `out`.
    ///
    /// # Errors
    /// A text longer than 65535 bytes.
    pub fn encode(&self, out: &mut Vec<u8>) -> Result<()> {
        let len = u16::try_from(self.text.len())
            .with_context(|| format!("a position text of {} bytes", self.text.len()))?;
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
        out.extend_from_slice(&self.score.to_le_bytes());
        out.extend_from_slice(&self.result.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(self.text.as_bytes());
        Ok(())
    }
}

/// The header's bytes for `settings`.
pub fn encode_header(settings: &DataSettings) -> Result<Vec<u8>> {
    let json = serde_json::to_vec(settings)?;
    let mut out = Vec::with_capacity(json.len() + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let name = settings.variant.as_bytes();
    out.extend_from_slice(&u16::try_from(name.len())?.to_le_bytes());
    out.extend_from_slice(name);
    out.extend_from_slice(&u32::try_from(json.len())?.to_le_bytes());
    out.extend_from_slice(&json);
    Ok(out)
}

/// A data file read whole.
#[derive(Clone, Debug)]
pub struct DataFile {
    /// Its settings.
    pub settings: DataSettings,
    /// Its records, in file order.
    pub records: Vec<Record>,
    /// Each record's byte offset in the file (for error messages).
    pub offsets: Vec<u64>,
    /// Bytes of the header.
    pub header_len: u64,
    /// Where the last whole record ends (the file's length unless its tail was cut).
    pub end: u64,
}

/// What to do with a cut last record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tail {
    /// An error naming the offset (a file being read for training).
    Refuse,
    /// Ignored: [`DataFile::end`] says where the whole records end (a run being resumed).
    Tolerate,
}

/// A cursor over a file's bytes that names the file and offset in its errors.
struct Bytes<'a> {
    path: &'a Path,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if self.bytes.len() - self.at < n {
            bail!(
                "{}: byte {}: the file ends inside {what} (truncated; {} of {n} bytes there)",
                self.path.display(),
                self.at,
                self.bytes.len() - self.at
            );
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u16(&mut self, what: &str) -> Result<u16> {
        Ok(u16::from_le_bytes(self.take(2, what)?.try_into()?))
    }
    fn u32(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into()?))
    }
    fn text(&mut self, n: usize, what: &str) -> Result<&'a str> {
        let at = self.at;
        let b = self.take(n, what)?;
        std::str::from_utf8(b).map_err(|e| {
            anyhow::anyhow!(
                "{}: byte {}: {what} is not UTF-8 ({e})",
                self.path.display(),
                at
            )
        })
    }
}

/// Reads a data file's header (the first bytes of `bytes`), returning its settings and
/// length.
fn read_header(path: &Path, bytes: &[u8]) -> Result<(DataSettings, usize)> {
    let mut b = Bytes { path, bytes, at: 0 };
    let magic = b.take(8, "the header")?;
    if magic != MAGIC {
        bail!(
            "{}: byte 0: not a variantlab network data file (it does not start with {:?})",
            path.display(),
            std::str::from_utf8(MAGIC).unwrap_or_default()
        );
    }
    let version = b.u16("the header")?;
    if version != VERSION {
        bail!(
            "{}: byte 8: format version {version}; this build reads version {VERSION}",
            path.display()
        );
    }
    let n = b.u16("the header")? as usize;
    let name = b.text(n, "the variant name")?.to_string();
    let n = b.u32("the header")? as usize;
    let at = b.at;
    let json = b.text(n, "the settings")?;
    let settings: DataSettings = serde_json::from_str(json)
        .with_context(|| format!("{}: byte {at}: the settings", path.display()))?;
    if settings.variant != name {
        bail!(
            "{}: byte 10: the header names variant {name:?} but its settings {:?}",
            path.display(),
            settings.variant
        );
    }
    Ok((settings, b.at))
}

/// Reads the data file `path`.
///
/// # Errors
/// An unreadable file; a bad magic, version or header; a record cut short (with
/// [`Tail::Refuse`]) or malformed: each named with the file and the byte offset.
pub fn read(path: &Path, tail: Tail) -> Result<DataFile> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .with_context(|| format!("reading {}", path.display()))?;
    let (settings, header_len) = read_header(path, &bytes)?;
    let mut b = Bytes {
        path,
        bytes: &bytes,
        at: header_len,
    };
    let (mut records, mut offsets) = (Vec::new(), Vec::new());
    while b.at < bytes.len() {
        let start = b.at;
        let left = &bytes[start..];
        let whole = left.len() >= RECORD_FIXED
            && left.len() >= RECORD_FIXED + u16::from_le_bytes([left[9], left[10]]) as usize;
        if !whole && tail == Tail::Tolerate {
            return Ok(DataFile {
                settings,
                records,
                offsets,
                header_len: header_len as u64,
                end: start as u64,
            });
        }
        let record = (|| -> Result<Record> {
            let game = b.u32("a record")?;
            let ply = b.u16("a record")?;
            let score = b.u16("a record")? as i16;
            let result = b.take(1, "a record")?[0] as i8;
            let n = b.u16("a record")? as usize;
            let text = b.text(n, "a record's position text")?.to_string();
            if !(-1..=1).contains(&result) {
                bail!(
                    "{}: byte {}: result {result} (expected -1, 0 or 1)",
                    path.display(),
                    start + 8
                );
            }
            Ok(Record {
                game,
                ply,
                score,
                result,
                text,
            })
        })();
        records.push(
            record.with_context(|| format!("{}: the record at byte {start}", path.display()))?,
        );
        offsets.push(start as u64);
    }
    Ok(DataFile {
        settings,
        records,
        offsets,
        header_len: header_len as u64,
        end: bytes.len() as u64,
    })
}

/// Writes a whole data file (through a temporary file, so a reader never sees half of it).
///
/// # Errors
/// A record that cannot be encoded, an unwritable file.
pub fn write(path: &Path, settings: &DataSettings, records: &[Record]) -> Result<()> {
    let mut bytes = encode_header(settings)?;
    for r in records {
        r.encode(&mut bytes)?;
    }
    crate::output::replace_file(path, &bytes)
}

/// Appends encoded records to an open data file and flushes them.
///
/// # Errors
/// An unwritable file.
pub fn append(file: &mut std::fs::File, path: &Path, bytes: &[u8]) -> Result<()> {
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .with_context(|| format!("writing {}", path.display()))
}

//! Chess-family variants defined in a TOML file (issue #16), so that a designer can move a
//! piece in the array, give a piece another move or drop a rule without writing Rust.
//!
//! The file is read into the same [`VariantSpec`] the built-in variants are written as and
//! compiled by the same [`Rules::compile`]; the result is kept in a process-global `OnceLock`
//! behind the marker types [`FileVariant64`] (boards of at most 64 cells) and
//! [`FileVariant128`] (at most 128). Move generation is therefore as monomorphic, and as
//! fast, as for a built-in variant (`bench/benches/perft.rs` compares Dream Chess 46 built in
//! and read from `data/variants/dream-chess-46.toml`).
//!
//! [D] One variant file per process: the compiled rules live in a static so that
//! `V::rules()` stays a plain load. Loading the same text again is a no-op; loading a
//! different one is an error, never a silent replacement.
//!
//! The format is described field by field in `docs/variant-files.md`. Every error names the
//! file, the line and the field.

use crate::bitboard::{Bb128, Bb64};
use crate::position::{Position, Variant};
use crate::rules::{Rules, VariantSpec};
use crate::variants::VariantKind;
use std::fmt;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

mod board;
mod doc;
mod ends;
pub mod fsf;
mod parse;
mod setup;

pub use parse::parse;

/// Most piece kinds a file variant may define (the role arrays of the marker types are this
/// long; 16 covers Capablanca, Grand and most fairy arrays).
pub const MAX_PIECES: usize = 16;

/// Board sizes the file variants support, for the error message of a larger board.
pub const SUPPORTED_SIZES: &str = "boards whose bounding box has at most 64 cells (8x8, 6x6, \
     9x7 ...) or at most 128 cells (10x8, 10x10, 11x11, 16x8 ...), at most 26 files";

/// The move list of the file variants, which may have drops: a drop per empty cell and
/// kind in hand besides the moves (crazyhouse reaches 301 with full hands). A variant
/// without drops stays within [`crate::moves::MoveList`]'s 256; the extra capacity is
/// stack, never initialised.
pub type DropMoveList = arrayvec::ArrayVec<crate::moves::Move, 2048>;

/// Marker type of a file-defined variant on a board of at most 64 cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FileVariant64;

/// Marker type of a file-defined variant on a board of 65 to 128 cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FileVariant128;

static RULES64: OnceLock<Rules<Bb64>> = OnceLock::new();
static RULES128: OnceLock<Rules<Bb128>> = OnceLock::new();
static LOADED: OnceLock<LoadedVariant> = OnceLock::new();
/// Serialises loads, so two threads loading at once cannot both compile.
static LOADING: Mutex<()> = Mutex::new(());

impl Variant for FileVariant64 {
    type Bb = Bb64;
    type Cells = [u8; 64];
    type Roles = [Bb64; MAX_PIECES];
    const EMPTY_CELLS: [u8; 64] = [0; 64];
    const EMPTY_ROLES: [Bb64; MAX_PIECES] = [Bb64(0); MAX_PIECES];
    type Hands = [u8; 2 * MAX_PIECES];
    const EMPTY_HANDS: [u8; 2 * MAX_PIECES] = [0; 2 * MAX_PIECES];
    type Moves = DropMoveList;
    #[inline]
    fn rules() -> &'static Rules<Bb64> {
        // VariantKind::File64 is only handed out after a successful load.
        RULES64
            .get()
            .expect("a variant file is loaded before its kind is used")
    }
}

impl Variant for FileVariant128 {
    type Bb = Bb128;
    type Cells = [u8; 128];
    type Roles = [Bb128; MAX_PIECES];
    const EMPTY_CELLS: [u8; 128] = [0; 128];
    const EMPTY_ROLES: [Bb128; MAX_PIECES] = [Bb128(0); MAX_PIECES];
    type Hands = [u8; 2 * MAX_PIECES];
    const EMPTY_HANDS: [u8; 2 * MAX_PIECES] = [0; 2 * MAX_PIECES];
    type Moves = DropMoveList;
    #[inline]
    fn rules() -> &'static Rules<Bb128> {
        RULES128
            .get()
            .expect("a variant file is loaded before its kind is used")
    }
}

/// The variant file loaded in this process.
#[derive(Debug)]
pub struct LoadedVariant {
    /// The variant's name (the file's `name`), its command-line name from now on.
    pub name: &'static str,
    /// Which marker type holds it.
    pub kind: VariantKind,
    /// Where it was read from (informational).
    pub origin: String,
    /// The file's text, stored in run.json so a run can be resumed without the file.
    pub text: String,
    /// [`text_hash`] of the text.
    pub hash: String,
}

/// The variant file loaded in this process, if any.
pub fn loaded() -> Option<&'static LoadedVariant> {
    LOADED.get()
}

/// FNV-1a 64 of a variant file's text, in hex: the identity of a definition in run.json.
pub fn text_hash(text: &str) -> String {
    format!("{:016x}", crate::zobrist::fnv1a(text.bytes()))
}

/// What is wrong with a variant file, and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VariantFileError {
    /// The file (as given).
    pub file: String,
    /// 1-based line, where the problem has one.
    pub line: Option<usize>,
    /// The field (`pieces[2].betza`, `setup`, `board.files` ...).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VariantFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if self.field.is_empty() {
            write!(f, ": {}", self.message)
        } else {
            write!(f, ": {}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for VariantFileError {}

/// Reads, checks, compiles and registers the variant file at `path`.
///
/// # Errors
/// The file cannot be read, is not a valid definition, or another definition is loaded.
pub fn load(path: &Path) -> Result<&'static LoadedVariant, VariantFileError> {
    let origin = path.display().to_string();
    if fsf::is_ini(path) {
        return Err(VariantFileError {
            file: origin,
            line: None,
            field: String::new(),
            message: "a Fairy-Stockfish .ini file holds several variants: name the section \
                      (`--variant-file FILE.ini --variant NAME`)"
                .into(),
        });
    }
    let text =
        crate::textfile::read_text_file(path, MAX_FILE_BYTES).map_err(|e| VariantFileError {
            file: origin.clone(),
            line: None,
            field: String::new(),
            message: e.to_string(),
        })?;
    load_text(&origin, &text)
}

/// The largest variant file read (a definition is a few KiB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Checks, compiles and registers a variant definition given as text (`origin` names it in
/// errors: a path, or `run.json` for a stored definition).
///
/// # Errors
/// Not a valid definition, or another definition is loaded already.
pub fn load_text(origin: &str, text: &str) -> Result<&'static LoadedVariant, VariantFileError> {
    let _guard = LOADING.lock().unwrap_or_else(|e| e.into_inner());
    let hash = text_hash(text);
    if let Some(l) = LOADED.get() {
        if l.hash == hash {
            return Ok(l);
        }
        return Err(VariantFileError {
            file: origin.to_string(),
            line: None,
            field: String::new(),
            message: format!(
                "a different variant file ({}, variant {:?}) is loaded already; one variant \
                 file per run",
                l.origin, l.name
            ),
        });
    }
    let parsed = parse(origin, text)?;
    let err = |message: String| VariantFileError {
        file: origin.to_string(),
        line: parsed.setup_line,
        field: "setup".into(),
        message,
    };
    let name: &'static str = parsed.spec.name;
    let kind = if parsed.spec.topology.num_squares() <= 64 {
        if RULES64.get().is_some() {
            return Err(err("an earlier variant file failed to load".into()));
        }
        let _ = RULES64.set(Rules::compile(parsed.spec));
        Position::<FileVariant64>::from_text(FileVariant64::rules().spec.start)
            .map_err(|e| err(e.to_string()))?;
        VariantKind::File64
    } else {
        if RULES128.get().is_some() {
            return Err(err("an earlier variant file failed to load".into()));
        }
        let _ = RULES128.set(Rules::compile(parsed.spec));
        Position::<FileVariant128>::from_text(FileVariant128::rules().spec.start)
            .map_err(|e| err(e.to_string()))?;
        VariantKind::File128
    };
    let _ = LOADED.set(LoadedVariant {
        name,
        kind,
        origin: origin.to_string(),
        text: text.to_string(),
        hash,
    });
    Ok(LOADED.get().expect("just set"))
}

/// A checked definition, ready for [`Rules::compile`].
#[derive(Debug)]
pub struct ParsedVariant {
    /// The variant as data (its strings leaked: one definition per process).
    pub spec: VariantSpec,
    /// Line of the setup, for errors found when the start position is read.
    pub setup_line: Option<usize>,
}

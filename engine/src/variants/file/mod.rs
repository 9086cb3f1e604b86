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
//! [D] Up to [`FILE_SLOTS`] variant files per process (a designer's variants compared in one
//! study, `stats`, `compare` or report): each loaded definition takes a slot, a const
//! parameter of the marker types, so that `V::rules()` stays a plain load of a static. Loading
//! the same text again is a no-op; a different definition under a name already loaded is an
//! error, never a silent replacement.
//!
//! The format is described field by field in `docs/variant-files.md`. Every error names the
//! file, the line and the field.

use crate::bitboard::{Bb128, Bb64};
use crate::position::Variant;
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

/// How many variant files one process holds at most. Each slot monomorphises the engine once
/// more per board size, so the count stays small: a designer's base and alternatives.
pub const FILE_SLOTS: usize = 3;

/// Which of the process's loaded variant files a [`VariantKind::File64`] or
/// [`VariantKind::File128`] is: handed out by a successful load only.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct FileSlot(u8);

impl FileSlot {
    /// The slot's index, below [`FILE_SLOTS`].
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Marker type of a file-defined variant on a board of at most 64 cells, in slot `SLOT`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FileVariant64<const SLOT: usize>;

/// Marker type of a file-defined variant on a board of 65 to 128 cells, in slot `SLOT`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FileVariant128<const SLOT: usize>;

static RULES64: [OnceLock<Rules<Bb64>>; FILE_SLOTS] = [const { OnceLock::new() }; FILE_SLOTS];
static RULES128: [OnceLock<Rules<Bb128>>; FILE_SLOTS] = [const { OnceLock::new() }; FILE_SLOTS];
static LOADED: [OnceLock<LoadedVariant>; FILE_SLOTS] = [const { OnceLock::new() }; FILE_SLOTS];
/// Serialises loads, so two threads loading at once cannot both compile or take one slot.
static LOADING: Mutex<()> = Mutex::new(());

impl<const SLOT: usize> Variant for FileVariant64<SLOT> {
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
        // VariantKind::File64 is only handed out after a successful load into its slot.
        RULES64[SLOT]
            .get()
            .expect("a variant file is loaded before its kind is used")
    }
}

impl<const SLOT: usize> Variant for FileVariant128<SLOT> {
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
        RULES128[SLOT]
            .get()
            .expect("a variant file is loaded before its kind is used")
    }
}

/// The chess-family description of a loaded file variant (`kind` a file variant's).
pub(crate) fn spec_of(kind: VariantKind) -> Option<&'static VariantSpec> {
    match kind {
        VariantKind::File64(s) => RULES64[s.index()].get().map(|r| &r.spec),
        VariantKind::File128(s) => RULES128[s.index()].get().map(|r| &r.spec),
        _ => None,
    }
}

/// A variant file loaded in this process.
#[derive(Debug)]
pub struct LoadedVariant {
    /// The variant's name (the file's `name`), its command-line name from now on.
    pub name: &'static str,
    /// Which marker type and slot holds it.
    pub kind: VariantKind,
    /// Where it was read from (informational).
    pub origin: String,
    /// The file's text, stored in run.json so a run can be resumed without the file.
    pub text: String,
    /// [`text_hash`] of the text.
    pub hash: String,
}

/// The variant files loaded in this process, in the order they were loaded.
pub fn loaded() -> impl Iterator<Item = &'static LoadedVariant> {
    LOADED.iter().filter_map(OnceLock::get)
}

/// The loaded variant file of `kind`, if `kind` is a file variant's.
pub fn loaded_kind(kind: VariantKind) -> Option<&'static LoadedVariant> {
    match kind {
        VariantKind::File64(s) | VariantKind::File128(s) => LOADED[s.index()].get(),
        _ => None,
    }
}

/// The loaded variant file whose variant is called `name`, if any.
pub fn loaded_named(name: &str) -> Option<&'static LoadedVariant> {
    loaded().find(|l| l.name == name)
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
    if let Some(l) = loaded().find(|l| l.hash == hash) {
        return Ok(l);
    }
    let fail = |line: Option<usize>, field: &str, message: String| VariantFileError {
        file: origin.to_string(),
        line,
        field: field.into(),
        message,
    };
    let parsed = parse(origin, text)?;
    let name: &'static str = parsed.spec.name;
    if let Some(l) = loaded_named(name) {
        return Err(fail(
            None,
            "",
            format!(
                "a different variant file ({}) defines variant {name:?} and is loaded already; \
                 two definitions of one name cannot be told apart",
                l.origin
            ),
        ));
    }
    // A slot whose rules are compiled is taken, even by a definition whose start then failed.
    let free = (0..FILE_SLOTS).find(|&i| RULES64[i].get().is_none() && RULES128[i].get().is_none());
    let Some(slot) = free else {
        return Err(fail(
            None,
            "",
            format!(
                "at most {FILE_SLOTS} variant files in one process, a file that failed to \
                 load included (loaded: {})",
                loaded().map(|l| l.name).collect::<Vec<_>>().join(", ")
            ),
        ));
    };
    let setup = |e: String| fail(parsed.setup_line, "setup", e);
    let id = FileSlot(slot as u8);
    let (kind, start) = if parsed.spec.topology.num_squares() <= 64 {
        let rules = RULES64[slot].get_or_init(|| Rules::compile(parsed.spec));
        (VariantKind::File64(id), rules.spec.start)
    } else {
        let rules = RULES128[slot].get_or_init(|| Rules::compile(parsed.spec));
        (VariantKind::File128(id), rules.spec.start)
    };
    // The start position is read before the variant is published; a start that does not read
    // leaves its slot used up (a process that goes on after such an error has one fewer).
    let started = crate::with_variant!(kind, G => G::from_text(start).map(|_| ()));
    if let Err(e) = started {
        return Err(setup(e.to_string()));
    }
    let _ = LOADED[slot].set(LoadedVariant {
        name,
        kind,
        origin: origin.to_string(),
        text: text.to_string(),
        hash,
    });
    Ok(LOADED[slot].get().expect("just set"))
}

/// A checked definition, ready for [`Rules::compile`].
#[derive(Debug)]
pub struct ParsedVariant {
    /// The variant as data (its strings leaked: one definition per process).
    pub spec: VariantSpec,
    /// Line of the setup, for errors found when the start position is read.
    pub setup_line: Option<usize>,
}

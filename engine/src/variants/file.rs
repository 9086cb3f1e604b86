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
use crate::geometry::{Coord, StepRule, Topology};
use crate::piece::{betza, PieceSpec};
use crate::position::{Position, Variant};
use crate::rules::{
    CastlingSpec, ClockRule, DoubleStep, FenStyle, PromotionRule, Rules, StalemateRule, VariantSpec,
};
use crate::variants::VariantKind;
use crate::Color;
use bitvec::prelude::*;
use serde::Deserialize;
use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use toml::Spanned;

/// Most piece kinds a file variant may define (the role arrays of the marker types are this
/// long; 16 covers Capablanca, Grand and most fairy arrays).
pub const MAX_PIECES: usize = 16;

/// Board sizes the file variants support, for the error message of a larger board.
pub const SUPPORTED_SIZES: &str = "boards whose bounding box has at most 64 cells (8x8, 6x6, \
     9x7 ...) or at most 128 cells (10x8, 10x10, 11x11, 16x8 ...), at most 26 files";

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

// ---------------------------------------------------------------------------------------
// The document as written.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    name: Option<Spanned<String>>,
    title: Option<String>,
    inherits: Option<Spanned<String>>,
    notes: Option<Vec<String>>,
    board: Option<Spanned<BoardDoc>>,
    #[serde(default)]
    pieces: Vec<Spanned<PieceDoc>>,
    setup: Option<Spanned<String>>,
    rules: Option<RulesDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardDoc {
    files: Spanned<u32>,
    ranks: Spanned<u32>,
    #[serde(default)]
    holes: Vec<Spanned<String>>,
    #[serde(default)]
    regions: Vec<Spanned<Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceDoc {
    letter: Spanned<String>,
    name: Option<Spanned<String>>,
    betza: Option<Spanned<String>>,
    value: Option<i32>,
    royal: Option<bool>,
    promotes_to: Option<Spanned<Vec<String>>>,
    promotion_zone: Option<Spanned<Vec<String>>>,
    promotion_zone_black: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    remove: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesDoc {
    position_format: Option<Spanned<String>>,
    double_step: Option<Spanned<String>>,
    double_step_rank: Option<Spanned<u32>>,
    en_passant: Option<bool>,
    castling: Option<Vec<Spanned<CastlingDoc>>>,
    promotion_mandatory: Option<bool>,
    promotion_only_lost: Option<bool>,
    move_rule: Option<u32>,
    move_rule_resets: Option<Spanned<Vec<String>>>,
    promotion_resets_clock: Option<bool>,
    repetition: Option<bool>,
    stalemate: Option<Spanned<String>>,
    insufficient_material: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CastlingDoc {
    king: Vec<String>,
    rook: Vec<String>,
    piece: Option<String>,
}

// ---------------------------------------------------------------------------------------
// The resolved model (base variant plus the file's changes).

#[derive(Clone)]
struct PieceM {
    name: String,
    letter: char,
    betza: String,
    value: i32,
    royal: bool,
    promotes_to: Vec<char>,
    /// Promotion cells, White's and Black's.
    zone: [Vec<String>; 2],
    line: Option<usize>,
}

/// Where a value came from: a line of the file, or the inherited variant.
type Line = Option<usize>;

struct Ctx<'a> {
    origin: &'a str,
    text: &'a str,
}

impl Ctx<'_> {
    fn line_of(&self, span: Range<usize>) -> usize {
        self.text[..span.start.min(self.text.len())]
            .bytes()
            .filter(|&b| b == b'\n')
            .count()
            + 1
    }
    fn at(&self, span: Range<usize>) -> Line {
        Some(self.line_of(span))
    }
    fn err(&self, line: Line, field: &str, message: impl Into<String>) -> VariantFileError {
        VariantFileError {
            file: self.origin.to_string(),
            line,
            field: field.to_string(),
            message: message.into(),
        }
    }
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn leak_chars(v: Vec<char>) -> &'static [char] {
    Box::leak(v.into_boxed_slice())
}

/// One upper-case ASCII letter.
fn letter(ctx: &Ctx, line: Line, field: &str, s: &str) -> Result<char, VariantFileError> {
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) if c.is_ascii_uppercase() => Ok(c),
        _ => Err(ctx.err(
            line,
            field,
            format!("{s:?} is not a piece letter (one upper-case letter A-Z)"),
        )),
    }
}

/// Parses and checks a variant definition without registering it.
///
/// # Errors
/// The first problem found, with its file, line and field.
pub fn parse(origin: &str, text: &str) -> Result<ParsedVariant, VariantFileError> {
    let ctx = Ctx { origin, text };
    let doc: Doc = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| ctx.line_of(s));
        ctx.err(line, "", e.message().trim().to_string())
    })?;

    // The base: an inherited built-in, or an empty chess-family variant.
    let base: Option<(VariantKind, &'static VariantSpec)> = match &doc.inherits {
        None => None,
        Some(s) => {
            let kind = match VariantKind::from_name(s.get_ref()) {
                Ok(k @ (VariantKind::Chess | VariantKind::Dream46)) => k,
                _ => {
                    return Err(ctx.err(
                        ctx.at(s.span()),
                        "inherits",
                        format!(
                            "{:?} is not a built-in chess-family variant (chess, dream-chess-46)",
                            s.get_ref()
                        ),
                    ))
                }
            };
            let spec: &'static VariantSpec = match kind {
                VariantKind::Chess => &crate::variants::Chess::rules().spec,
                _ => &crate::variants::Dream46::rules().spec,
            };
            Some((kind, spec))
        }
    };

    // Name.
    let Some(name) = &doc.name else {
        return Err(ctx.err(
            Some(1),
            "name",
            "missing: every variant file names its variant",
        ));
    };
    let name_line = ctx.at(name.span());
    let n = name.get_ref();
    if n.is_empty()
        || !n
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(ctx.err(
            name_line,
            "name",
            format!("{n:?}: use lower-case letters, digits and '-'"),
        ));
    }
    if VariantKind::ALL.iter().any(|k| k.name() == n) {
        return Err(ctx.err(
            name_line,
            "name",
            format!("{n:?} is a built-in variant; give the file's variant its own name"),
        ));
    }

    // Board.
    let topology = match &doc.board {
        Some(b) => board(&ctx, b.get_ref())?,
        None => match base {
            Some((_, spec)) => spec.topology.clone(),
            None => {
                return Err(ctx.err(
                    None,
                    "board",
                    "missing: give [board] files and ranks, or inherit a variant",
                ))
            }
        },
    };
    let (_, ranks, _) = topology.dims();
    let mirror = mirror_fn(&topology);

    // Pieces.
    let mut pieces: Vec<PieceM> = match base {
        Some((_, spec)) => spec
            .pieces
            .iter()
            .map(|p| {
                let promo = spec
                    .promotion
                    .as_ref()
                    .filter(|pr| pr.pieces.contains(&p.letter));
                PieceM {
                    name: p.name.to_string(),
                    letter: p.letter,
                    betza: p.betza.to_string(),
                    value: p.value,
                    royal: p.royal,
                    promotes_to: promo.map(|pr| pr.choices.to_vec()).unwrap_or_default(),
                    zone: promo
                        .map(|pr| {
                            [
                                pr.zone[0].iter().map(|s| s.to_string()).collect(),
                                pr.zone[1].iter().map(|s| s.to_string()).collect(),
                            ]
                        })
                        .unwrap_or_default(),
                    line: None,
                }
            })
            .collect(),
        None => Vec::new(),
    };
    for (i, pd) in doc.pieces.iter().enumerate() {
        let line = ctx.at(pd.span());
        let pd = pd.get_ref();
        let f = |k: &str| format!("pieces[{i}].{k}");
        let lline = ctx.at(pd.letter.span());
        let l = letter(&ctx, lline, &f("letter"), pd.letter.get_ref())?;
        let existing = pieces.iter().position(|p| p.letter == l);
        if let Some(j) = existing {
            if pieces[j].line.is_some() {
                return Err(ctx.err(
                    lline,
                    &f("letter"),
                    format!(
                        "letter {l} used twice (also by {} at line {})",
                        pieces[j].name,
                        pieces[j].line.unwrap_or(0)
                    ),
                ));
            }
            if pd.remove {
                pieces.remove(j);
                continue;
            }
        } else if pd.remove {
            return Err(ctx.err(
                lline,
                &f("remove"),
                format!("no inherited piece with letter {l} to remove"),
            ));
        }
        let mut p = match existing {
            Some(j) => pieces[j].clone(),
            None => {
                let (Some(name), Some(_)) = (&pd.name, &pd.betza) else {
                    return Err(ctx.err(
                        line,
                        &format!("pieces[{i}]"),
                        format!("new piece {l} needs a name and a betza movement"),
                    ));
                };
                PieceM {
                    name: name.get_ref().clone(),
                    letter: l,
                    betza: String::new(),
                    value: 0,
                    royal: false,
                    promotes_to: Vec::new(),
                    zone: Default::default(),
                    line,
                }
            }
        };
        p.line = line;
        if let Some(n) = &pd.name {
            let ok = !n.get_ref().is_empty()
                && n.get_ref()
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if !ok {
                return Err(ctx.err(
                    ctx.at(n.span()),
                    &f("name"),
                    format!(
                        "{:?}: use letters, digits, '-' and '_' (it names CSV columns)",
                        n.get_ref()
                    ),
                ));
            }
            p.name = n.get_ref().clone();
        }
        if let Some(b) = &pd.betza {
            let bl = ctx.at(b.span());
            if b.get_ref().trim().is_empty() {
                return Err(ctx.err(bl, &f("betza"), "empty movement"));
            }
            betza::parse(b.get_ref()).map_err(|e| ctx.err(bl, &f("betza"), e.to_string()))?;
            p.betza = b.get_ref().clone();
        }
        if let Some(v) = pd.value {
            p.value = v;
        }
        if let Some(r) = pd.royal {
            p.royal = r;
        }
        if let Some(c) = &pd.promotes_to {
            let cl = ctx.at(c.span());
            p.promotes_to = c
                .get_ref()
                .iter()
                .map(|s| letter(&ctx, cl, &f("promotes_to"), s))
                .collect::<Result<_, _>>()?;
            if p.promotes_to.is_empty() {
                p.zone = Default::default();
            }
        }
        if let Some(z) = &pd.promotion_zone {
            let zl = ctx.at(z.span());
            let white = zone(&ctx, &topology, zl, &f("promotion_zone"), z.get_ref())?;
            let black = match &pd.promotion_zone_black {
                Some(zb) => zone(
                    &ctx,
                    &topology,
                    ctx.at(zb.span()),
                    &f("promotion_zone_black"),
                    zb.get_ref(),
                )?,
                None => white
                    .iter()
                    .map(|s| {
                        let sq = topology.parse_square(s).expect("checked");
                        topology.square_name(mirror(sq))
                    })
                    .collect(),
            };
            p.zone = [white, black];
        }
        if !p.promotes_to.is_empty() && p.zone[0].is_empty() {
            return Err(ctx.err(
                line,
                &f("promotion_zone"),
                format!("{} promotes but has no promotion_zone", p.name),
            ));
        }
        match existing {
            Some(j) => pieces[j] = p,
            None => pieces.push(p),
        }
    }
    drop(mirror);
    if pieces.is_empty() {
        return Err(ctx.err(None, "pieces", "no pieces defined"));
    }
    if pieces.len() > MAX_PIECES {
        return Err(ctx.err(
            pieces[MAX_PIECES].line,
            "pieces",
            format!(
                "{} piece kinds; at most {MAX_PIECES} are supported",
                pieces.len()
            ),
        ));
    }
    // A name is a CSV column and a key of the piece values: one piece each.
    for (j, b) in pieces.iter().enumerate() {
        if let Some(a) = pieces[..j].iter().find(|a| a.name == b.name) {
            let m = format!(
                "{:?} names two pieces ({} and {})",
                b.name, a.letter, b.letter
            );
            return Err(ctx.err(b.line.or(a.line), "pieces", m));
        }
    }
    let royals: Vec<&PieceM> = pieces.iter().filter(|p| p.royal).collect();
    match royals.len() {
        0 => {
            return Err(ctx.err(
                None,
                "pieces",
                "no royal piece: mark exactly one piece `royal = true`",
            ))
        }
        1 => {}
        _ => {
            return Err(ctx.err(
                royals[1].line,
                "pieces",
                format!(
                    "{} royal pieces ({}); exactly one is supported",
                    royals.len(),
                    royals
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ))
        }
    }
    let has = |c: char| pieces.iter().any(|p| p.letter == c);

    // Promotion: one zone and one list of choices shared by every promoting piece.
    let promoting: Vec<&PieceM> = pieces
        .iter()
        .filter(|p| !p.promotes_to.is_empty())
        .collect();
    let rd = doc.rules.as_ref();
    let base_promo = base.and_then(|(_, s)| s.promotion.as_ref());
    let promotion = match promoting.first() {
        None => None,
        Some(first) => {
            for p in &promoting[1..] {
                if p.promotes_to != first.promotes_to || p.zone != first.zone {
                    return Err(ctx.err(
                        p.line,
                        "pieces",
                        format!(
                            "{} and {} promote differently; promoting pieces share one zone and one list of choices",
                            first.name, p.name
                        ),
                    ));
                }
            }
            for p in &promoting {
                for &c in &p.promotes_to {
                    if !has(c) {
                        return Err(ctx.err(
                            p.line,
                            "promotes_to",
                            format!("{} promotes to {c}, which is no piece here", p.name),
                        ));
                    }
                    if pieces.iter().any(|q| q.letter == c && q.royal) {
                        return Err(ctx.err(
                            p.line,
                            "promotes_to",
                            format!("{} promotes to the royal piece {c}", p.name),
                        ));
                    }
                }
            }
            Some(PromotionRule {
                pieces: leak_chars(promoting.iter().map(|p| p.letter).collect()),
                zone: [
                    first.zone[0].iter().map(|s| leak(s.clone())).collect(),
                    first.zone[1].iter().map(|s| leak(s.clone())).collect(),
                ],
                choices: leak_chars(first.promotes_to.clone()),
                mandatory: rd
                    .and_then(|r| r.promotion_mandatory)
                    .or(base_promo.map(|p| p.mandatory))
                    .unwrap_or(true),
                only_lost: rd
                    .and_then(|r| r.promotion_only_lost)
                    .or(base_promo.map(|p| p.only_lost))
                    .unwrap_or(false),
            })
        }
    };

    // Setup.
    let (start, setup_line): (String, Line) = match &doc.setup {
        Some(s) => (s.get_ref().trim().to_string(), ctx.at(s.span())),
        None => match base {
            Some((_, spec)) if doc.board.is_none() => (spec.start.to_string(), None),
            _ => {
                return Err(ctx.err(
                    None,
                    "setup",
                    "missing: give the start position (`setup = \"...\"`)",
                ))
            }
        },
    };
    check_setup(&ctx, &topology, &pieces, &start, setup_line)?;
    let piece_on = |cell: &str| -> Option<char> {
        let sq = topology.parse_square(cell)?;
        let c = topology.coord(sq);
        let board = start.split_whitespace().next()?;
        let row = board
            .split('/')
            .nth((i16::from(ranks) - 1 - c.rank) as usize)?;
        let mut file: i16 = 0;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch.is_ascii_digit() {
                // check_setup has bounded every run by the board's width.
                let mut n = ch.to_digit(10)? as i16;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d as i16;
                    chars.next();
                }
                file += n;
            } else {
                if file == c.file {
                    return Some(ch);
                }
                file += 1;
            }
        }
        None
    };

    // Rules.
    let bs = base.map(|(_, s)| s);
    let fen_style = match rd.and_then(|r| r.position_format.as_ref()) {
        Some(f) => match f.get_ref().as_str() {
            "fen" => FenStyle::Chess,
            "plain" => FenStyle::Plain,
            other => {
                return Err(ctx.err(
                    ctx.at(f.span()),
                    "rules.position_format",
                    format!("{other:?}: expected \"fen\" or \"plain\""),
                ))
            }
        },
        None => bs.map_or(FenStyle::Chess, |s| s.fen_style),
    };
    let double_step = match rd.and_then(|r| r.double_step.as_ref()) {
        Some(d) if d.get_ref().is_empty() => None,
        Some(d) => {
            let dl = ctx.at(d.span());
            let l = letter(&ctx, dl, "rules.double_step", d.get_ref())?;
            if !has(l) {
                return Err(ctx.err(dl, "rules.double_step", format!("no piece with letter {l}")));
            }
            let Some(rank) = rd.and_then(|r| r.double_step_rank.as_ref()) else {
                return Err(ctx.err(
                    dl,
                    "rules.double_step_rank",
                    "missing: the rank (White's, 1-based) the double step starts from",
                ));
            };
            let r = *rank.get_ref();
            if r < 1 || r > ranks as u32 {
                return Err(ctx.err(
                    ctx.at(rank.span()),
                    "rules.double_step_rank",
                    format!("rank {r} is not on a board of {ranks} ranks"),
                ));
            }
            Some(DoubleStep {
                letter: l,
                ranks: [r as i16 - 1, i16::from(ranks) - r as i16],
                en_passant: rd.and_then(|r| r.en_passant).unwrap_or(true),
            })
        }
        None => bs.and_then(|s| s.double_step).map(|mut d| {
            if let Some(ep) = rd.and_then(|r| r.en_passant) {
                d.en_passant = ep;
            }
            d
        }),
    };
    if let Some(d) = double_step {
        if !has(d.letter) {
            return Err(ctx.err(
                None,
                "rules.double_step",
                format!("the inherited double step is {}'s, which is removed; set double_step = \"\" or another piece", d.letter),
            ));
        }
    }
    let castling = match rd.and_then(|r| r.castling.as_ref()) {
        Some(list) => {
            let mut out = Vec::new();
            let mut dirs = Vec::new();
            for (i, c) in list.iter().enumerate() {
                let cl = ctx.at(c.span());
                let f = format!("rules.castling[{i}]");
                let c = c.get_ref();
                for (key, cells) in [("king", &c.king), ("rook", &c.rook)] {
                    if cells.len() != 2 {
                        let n = cells.len();
                        let s = if n == 1 { "" } else { "s" };
                        let m = format!("{n} cell{s}; give two, from and to (`[\"e1\", \"g1\"]`)");
                        return Err(ctx.err(cl, &format!("{f}.{key}"), m));
                    }
                }
                let mut sq = Vec::new();
                for n in c.king.iter().chain(&c.rook) {
                    match topology.parse_square(n) {
                        Some(s) if topology.exists(s) => sq.push(s),
                        _ => return Err(ctx.err(cl, &f, format!("no cell {n:?} on this board"))),
                    }
                }
                let co: Vec<Coord> = sq.iter().map(|&s| topology.coord(s)).collect();
                if co.iter().any(|c| c.rank != co[0].rank) {
                    return Err(ctx.err(
                        cl,
                        &f,
                        "the King's and the Rook's cells must be on one rank",
                    ));
                }
                let rook_letter = match &c.piece {
                    Some(p) => letter(&ctx, cl, &format!("{f}.piece"), p)?,
                    None => match piece_on(&c.rook[0]) {
                        Some(ch) if ch.is_ascii_uppercase() => ch,
                        _ => {
                            return Err(ctx.err(
                                cl,
                                &f,
                                format!(
                                    "no White piece on {} in the setup; name it with `piece`",
                                    c.rook[0]
                                ),
                            ))
                        }
                    },
                };
                if !has(rook_letter) {
                    return Err(ctx.err(cl, &f, format!("no piece with letter {rook_letter}")));
                }
                let kingside = co[1].file > co[0].file;
                if dirs.contains(&kingside) || co[1].file == co[0].file {
                    return Err(ctx.err(
                        cl,
                        &f,
                        "at most one castling each way (the King moving towards higher files: K, lower: Q)",
                    ));
                }
                dirs.push(kingside);
                let m = |s: &str| {
                    let q = topology.parse_square(s).expect("checked");
                    let mut c = topology.coord(q);
                    c.rank = i16::from(ranks) - 1 - c.rank;
                    topology.square_at(c).filter(|&x| topology.exists(x))
                };
                let mut black = Vec::new();
                for n in c.king.iter().chain(&c.rook) {
                    match m(n) {
                        Some(s) => black.push(leak(topology.square_name(s))),
                        None => {
                            return Err(ctx.err(
                                cl,
                                &f,
                                format!("Black's mirror of {n} is no cell"),
                            ))
                        }
                    }
                }
                let w = |s: &String| leak(s.clone());
                out.push((
                    kingside,
                    CastlingSpec {
                        right: if kingside { 'K' } else { 'Q' },
                        color: Color::White,
                        king: (w(&c.king[0]), w(&c.king[1])),
                        rook: (w(&c.rook[0]), w(&c.rook[1])),
                        rook_letter,
                    },
                    CastlingSpec {
                        right: if kingside { 'k' } else { 'q' },
                        color: Color::Black,
                        king: (black[0], black[1]),
                        rook: (black[2], black[3]),
                        rook_letter,
                    },
                ));
            }
            // FEN order: K, Q, k, q.
            out.sort_by_key(|(k, _, _)| !k);
            let mut v: Vec<CastlingSpec> = out.iter().map(|(_, w, _)| *w).collect();
            v.extend(out.iter().map(|(_, _, b)| *b));
            v
        }
        None => bs.map(|s| s.castling.clone()).unwrap_or_default(),
    };
    for c in &castling {
        if !has(c.rook_letter) {
            return Err(ctx.err(
                None,
                "rules.castling",
                format!(
                    "the inherited castling moves piece {}, which is removed; set castling = []",
                    c.rook_letter
                ),
            ));
        }
    }
    if !castling.is_empty() && fen_style == FenStyle::Plain {
        return Err(ctx.err(
            None,
            "rules.position_format",
            "castling needs position_format = \"fen\" (the plain format has no castling field)",
        ));
    }
    let reset_by: Vec<char> = match rd.and_then(|r| r.move_rule_resets.as_ref()) {
        Some(v) => {
            let vl = ctx.at(v.span());
            let mut out = Vec::new();
            for s in v.get_ref() {
                let l = letter(&ctx, vl, "rules.move_rule_resets", s)?;
                if !has(l) {
                    return Err(ctx.err(
                        vl,
                        "rules.move_rule_resets",
                        format!("no piece with letter {l}"),
                    ));
                }
                out.push(l);
            }
            out
        }
        None => bs
            .map(|s| {
                s.clock
                    .reset_by
                    .iter()
                    .copied()
                    .filter(|&c| has(c))
                    .collect()
            })
            .unwrap_or_default(),
    };
    let stalemate = match rd.and_then(|r| r.stalemate.as_ref()) {
        Some(s) => match s.get_ref().as_str() {
            "draw" => StalemateRule::Draw,
            "loss" => StalemateRule::Loss,
            "win" => StalemateRule::Win,
            other => {
                return Err(ctx.err(
                    ctx.at(s.span()),
                    "rules.stalemate",
                    format!(
                    "{other:?}: expected \"draw\", \"loss\" or \"win\" (for the stalemated side)"
                ),
                ))
            }
        },
        None => bs.map_or(StalemateRule::Draw, |s| s.stalemate),
    };
    let move_rule_plies = match rd.and_then(|r| r.move_rule) {
        Some(m) => m.saturating_mul(2),
        None => bs.map_or(100, |s| s.move_rule_plies),
    };

    let mut notes: Vec<&'static str> = Vec::new();
    notes.push(leak(match base {
        Some((k, _)) => format!("[V] defined in the file {origin}, inheriting {}", k.name()),
        None => format!("[V] defined in the file {origin}"),
    }));
    for n in doc.notes.iter().flatten() {
        notes.push(leak(n.clone()));
    }
    let spec = VariantSpec {
        name: leak(n.clone()),
        title: leak(doc.title.clone().unwrap_or_else(|| n.clone())),
        rules_file: leak(origin.to_string()),
        topology,
        pieces: pieces
            .iter()
            .map(|p| PieceSpec {
                name: leak(p.name.clone()),
                letter: p.letter,
                betza: leak(p.betza.clone()),
                royal: p.royal,
                value: p.value,
            })
            .collect(),
        start: leak(start),
        fen_style,
        double_step,
        promotion,
        castling,
        clock: ClockRule {
            reset_by: leak_chars(reset_by),
            promotion_resets: rd
                .and_then(|r| r.promotion_resets_clock)
                .or(bs.map(|s| s.clock.promotion_resets))
                .unwrap_or(true),
        },
        move_rule_plies,
        repetition_draw: rd
            .and_then(|r| r.repetition)
            .or(bs.map(|s| s.repetition_draw))
            .unwrap_or(true),
        stalemate,
        insufficient_material: rd
            .and_then(|r| r.insufficient_material)
            .or(bs.map(|s| s.insufficient_material))
            .unwrap_or(false),
        notes: Box::leak(notes.into_boxed_slice()),
        max_plies: bs.map_or(super::DEFAULT_MAX_PLIES, |s| s.max_plies),
    };
    Ok(ParsedVariant { spec, setup_line })
}

/// The board of a `[board]` table.
fn board(ctx: &Ctx, b: &BoardDoc) -> Result<Topology, VariantFileError> {
    let (f, r) = (*b.files.get_ref(), *b.ranks.get_ref());
    let fl = ctx.at(b.files.span());
    if !(1..=26).contains(&f) || !(1..=128).contains(&r) || f * r > 128 {
        return Err(ctx.err(
            fl,
            "board",
            format!(
                "a {f}x{r} board ({} cells) is not supported; supported are {SUPPORTED_SIZES}",
                f * r
            ),
        ));
    }
    let mut topo = Topology::rect(f as u8, r as u8);
    let mut holes = Vec::new();
    for h in &b.holes {
        match topo.parse_square(h.get_ref()) {
            Some(_) => holes.push(h.get_ref().as_str()),
            None => {
                return Err(ctx.err(
                    ctx.at(h.span()),
                    "board.holes",
                    format!("{:?} is not a cell of a {f}x{r} board", h.get_ref()),
                ))
            }
        }
    }
    let mut regions = Vec::new();
    for reg in &b.regions {
        let rl = ctx.at(reg.span());
        let mut bits = bitvec![0; topo.num_squares()];
        for part in reg.get_ref() {
            let (a, z) = part.split_once(':').unwrap_or((part, part));
            let (Some(a), Some(z)) = (topo.parse_square(a), topo.parse_square(z)) else {
                return Err(ctx.err(
                    rl,
                    "board.regions",
                    format!("{part:?} is not a cell or a rectangle \"a1:e5\" of a {f}x{r} board"),
                ));
            };
            let (ca, cz) = (topo.coord(a), topo.coord(z));
            for file in ca.file.min(cz.file)..=ca.file.max(cz.file) {
                for rank in ca.rank.min(cz.rank)..=ca.rank.max(cz.rank) {
                    let sq = topo
                        .square_at(Coord {
                            file,
                            rank,
                            level: 0,
                        })
                        .expect("inside the box");
                    bits.set(sq.index(), true);
                }
            }
        }
        regions.push(bits);
    }
    topo = topo.without(&holes);
    if !regions.is_empty() {
        topo = topo.with_rule(StepRule::SameRegion(regions));
    }
    Ok(topo)
}

/// How Black's cells are derived from White's: the rank mirror, or the half turn on boards
/// that only a half turn maps onto themselves (as `Rules::black_view`).
fn mirror_fn(topo: &Topology) -> impl Fn(crate::Square) -> crate::Square + '_ {
    let rank_mirror_fits = topo.cells().all(|sq| topo.exists(topo.rank_mirror(sq)));
    move |sq| {
        let m = topo.rank_mirror(sq);
        if rank_mirror_fits {
            return m;
        }
        let c = topo.coord(m);
        let (files, _, _) = topo.dims();
        topo.square_at(Coord {
            file: i16::from(files) - 1 - c.file,
            ..c
        })
        .unwrap_or(m)
    }
}

/// Promotion cells: cell names, or a rank number for every existing cell of that rank.
fn zone(
    ctx: &Ctx,
    topo: &Topology,
    line: Line,
    field: &str,
    entries: &[String],
) -> Result<Vec<String>, VariantFileError> {
    let (files, ranks, _) = topo.dims();
    let mut out = Vec::new();
    for e in entries {
        if let Ok(r) = e.parse::<u32>() {
            if r < 1 || r > ranks as u32 {
                return Err(ctx.err(line, field, format!("rank {r} is not on the board")));
            }
            for file in 0..i16::from(files) {
                if let Some(sq) = topo.square_at(Coord {
                    file,
                    rank: r as i16 - 1,
                    level: 0,
                }) {
                    if topo.exists(sq) {
                        out.push(topo.square_name(sq));
                    }
                }
            }
        } else {
            match topo.parse_square(e) {
                Some(sq) if topo.exists(sq) => out.push(e.clone()),
                _ => {
                    return Err(ctx.err(
                        line,
                        field,
                        format!("{e:?} is neither a cell nor a rank number of this board"),
                    ))
                }
            }
        }
    }
    Ok(out)
}

/// Whether the setup's board field fits the board: one row per rank, each covering every
/// file, `*` exactly on the holes, only known letters, one royal piece per side.
fn check_setup(
    ctx: &Ctx,
    topo: &Topology,
    pieces: &[PieceM],
    start: &str,
    line: Line,
) -> Result<(), VariantFileError> {
    let (files, ranks, _) = topo.dims();
    let err = |m: String| ctx.err(line, "setup", m);
    let board = start.split_whitespace().next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != ranks as usize {
        return Err(err(format!(
            "{} ranks in the setup, the board has {ranks}",
            rows.len()
        )));
    }
    let royal = pieces.iter().find(|p| p.royal).map(|p| p.letter);
    let mut royals = [0; 2];
    for (ri, row) in rows.iter().enumerate() {
        let rank = i16::from(ranks) - 1 - ri as i16;
        let mut file: i32 = 0;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            let cell = |file: i32| {
                topo.square_at(Coord {
                    file: i16::try_from(file).ok()?,
                    rank,
                    level: 0,
                })
            };
            if ch.is_ascii_digit() {
                let mut n = ch.to_digit(10).unwrap_or(0) as i32;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    // Saturating: a run of any length is only too long, never an overflow.
                    n = n.saturating_mul(10).saturating_add(d as i32);
                    chars.next();
                }
                let covered = file.saturating_add(n);
                if covered > i32::from(files) {
                    let covered = match covered {
                        i32::MAX => format!("more than {files}"),
                        c => c.to_string(),
                    };
                    return Err(err(format!(
                        "rank {} covers {covered} files, the board has {files}",
                        rank + 1
                    )));
                }
                for k in 0..n {
                    if cell(file + k).is_some_and(|s| !topo.exists(s)) {
                        return Err(err(format!(
                            "rank {} covers the hole {} with empty cells; write '*' there",
                            rank + 1,
                            topo.square_name(cell(file + k).expect("exists"))
                        )));
                    }
                }
                file += n;
                continue;
            }
            let Some(sq) = cell(file).filter(|_| file < files as i32) else {
                return Err(err(format!(
                    "rank {} has more than {files} cells",
                    rank + 1
                )));
            };
            if ch == '*' {
                if topo.exists(sq) {
                    return Err(err(format!(
                        "'*' on {}, which is a cell of the board (holes: [board] holes)",
                        topo.square_name(sq)
                    )));
                }
            } else {
                if !topo.exists(sq) {
                    return Err(err(format!(
                        "{ch} on {}, which is a hole",
                        topo.square_name(sq)
                    )));
                }
                let up = ch.to_ascii_uppercase();
                if !pieces.iter().any(|p| p.letter == up) {
                    return Err(err(format!(
                        "unknown piece letter {ch:?} on {}",
                        topo.square_name(sq)
                    )));
                }
                if Some(up) == royal {
                    royals[usize::from(ch.is_ascii_lowercase())] += 1;
                }
            }
            file += 1;
        }
        if file != files as i32 {
            return Err(err(format!(
                "rank {} covers {file} files, the board has {files}",
                rank + 1
            )));
        }
    }
    for (c, n) in ["White", "Black"].iter().zip(royals) {
        if n != 1 {
            return Err(err(format!(
                "{c} has {n} royal pieces ({}) in the setup; exactly one is needed",
                royal.unwrap_or('?')
            )));
        }
    }
    Ok(())
}

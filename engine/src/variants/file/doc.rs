//! The variant file as written (the TOML document) and the context its errors are reported in.

use super::VariantFileError;
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

// ---------------------------------------------------------------------------------------
// The document as written.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Doc {
    pub(super) name: Option<Spanned<String>>,
    pub(super) title: Option<String>,
    pub(super) inherits: Option<Spanned<String>>,
    pub(super) notes: Option<Vec<String>>,
    pub(super) board: Option<Spanned<BoardDoc>>,
    #[serde(default)]
    pub(super) pieces: Vec<Spanned<PieceDoc>>,
    pub(super) setup: Option<Spanned<String>>,
    pub(super) rules: Option<RulesDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BoardDoc {
    pub(super) files: Spanned<u32>,
    pub(super) ranks: Spanned<u32>,
    #[serde(default)]
    pub(super) holes: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) regions: Vec<Spanned<Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PieceDoc {
    pub(super) letter: Spanned<String>,
    pub(super) name: Option<Spanned<String>>,
    pub(super) betza: Option<Spanned<String>>,
    pub(super) value: Option<i32>,
    pub(super) royal: Option<bool>,
    pub(super) promotes_to: Option<Spanned<Vec<String>>>,
    pub(super) promotion_zone: Option<Spanned<Vec<String>>>,
    pub(super) promotion_zone_black: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    pub(super) remove: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RulesDoc {
    pub(super) position_format: Option<Spanned<String>>,
    pub(super) double_step: Option<Spanned<String>>,
    pub(super) double_step_rank: Option<Spanned<u32>>,
    pub(super) en_passant: Option<bool>,
    pub(super) double_step_first_rank: Option<Spanned<Vec<String>>>,
    pub(super) castling: Option<Vec<Spanned<CastlingDoc>>>,
    pub(super) promotion_mandatory: Option<bool>,
    pub(super) promotion_only_lost: Option<bool>,
    pub(super) move_rule: Option<u32>,
    pub(super) move_rule_resets: Option<Spanned<Vec<String>>>,
    pub(super) promotion_resets_clock: Option<bool>,
    pub(super) repetition: Option<Spanned<RepetitionDoc>>,
    pub(super) repetition_value: Option<Spanned<String>>,
    pub(super) stalemate: Option<Spanned<String>>,
    pub(super) insufficient_material: Option<bool>,
    pub(super) flag_piece: Option<Spanned<String>>,
    pub(super) flag_region: Option<Spanned<Vec<String>>>,
    pub(super) flag_region_black: Option<Spanned<Vec<String>>>,
    pub(super) flag_count: Option<Spanned<u32>>,
    pub(super) flag_blocked_win: Option<Spanned<bool>>,
    pub(super) check_count: Option<Spanned<u32>>,
    pub(super) extinction: Option<Spanned<Vec<String>>>,
    pub(super) extinction_value: Option<Spanned<String>>,
    pub(super) extinction_count: Option<Spanned<u32>>,
    pub(super) extinction_opponent_count: Option<Spanned<u32>>,
    pub(super) drops: Option<bool>,
    pub(super) drop_checks: Option<bool>,
    pub(super) must_capture: Option<bool>,
}

/// `repetition`: `true` (the third occurrence ends the game), `false` (none), or the
/// occurrence that ends it.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RepetitionDoc {
    Rule(bool),
    Occurrences(u32),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CastlingDoc {
    pub(super) king: Vec<String>,
    pub(super) rook: Vec<String>,
    pub(super) piece: Option<String>,
}

// ---------------------------------------------------------------------------------------
// The resolved model (base variant plus the file's changes).

#[derive(Clone)]
pub(super) struct PieceM {
    pub(super) name: String,
    pub(super) letter: char,
    pub(super) betza: String,
    pub(super) value: i32,
    pub(super) royal: bool,
    pub(super) promotes_to: Vec<char>,
    /// Promotion cells, White's and Black's.
    pub(super) zone: [Vec<String>; 2],
    pub(super) line: Option<usize>,
}

/// Where a value came from: a line of the file, or the inherited variant.
pub(super) type Line = Option<usize>;

pub(super) struct Ctx<'a> {
    pub(super) origin: &'a str,
    pub(super) text: &'a str,
}

impl Ctx<'_> {
    pub(super) fn line_of(&self, span: Range<usize>) -> usize {
        self.text[..span.start.min(self.text.len())]
            .bytes()
            .filter(|&b| b == b'\n')
            .count()
            + 1
    }
    pub(super) fn at(&self, span: Range<usize>) -> Line {
        Some(self.line_of(span))
    }
    pub(super) fn err(
        &self,
        line: Line,
        field: &str,
        message: impl Into<String>,
    ) -> VariantFileError {
        VariantFileError {
            file: self.origin.to_string(),
            line,
            field: field.to_string(),
            message: message.into(),
        }
    }
}

pub(super) fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

pub(super) fn leak_chars(v: Vec<char>) -> &'static [char] {
    Box::leak(v.into_boxed_slice())
}

/// One upper-case ASCII letter.
pub(super) fn letter(
    ctx: &Ctx,
    line: Line,
    field: &str,
    s: &str,
) -> Result<char, VariantFileError> {
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

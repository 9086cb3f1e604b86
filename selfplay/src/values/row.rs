//! One piece-value estimate as `piece_values.csv` holds it, and the unit the values are
//! measured in: what every estimation method ([`crate::values`], [`crate::values::tuned`])
//! writes and the report reads.

use crate::stats::{fieller_interval, fixed, z_for_confidence, RatioInterval};
use anyhow::{bail, Context, Result};

/// One estimate, as written to `piece_values.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueRow {
    /// Variant name.
    pub variant: String,
    /// Material kind.
    pub piece: String,
    /// `imbalance`, `regression`, `balanced` or `tuned`.
    pub method: String,
    /// Value in units (the pawn unless another unit was asked for); `None` when no value
    /// came out (see `note`).
    pub value: Option<f64>,
    /// 95% interval; `None` for the pawn (1 by definition) and where the data do not
    /// bound the ratio.
    pub interval: Option<(f64, f64)>,
    /// Games the estimate rests on.
    pub games: u64,
    /// Why there is no value or no interval; empty otherwise.
    pub note: String,
}

impl ValueRow {
    /// A value from a ratio `a / b` (`b` the unit's), with Fieller's interval.
    pub(crate) fn ratio(base: ValueRow, a: f64, b: f64, va: f64, vb: f64, cab: f64) -> ValueRow {
        let z = z_for_confidence(0.95);
        let (interval, note) = match fieller_interval(a, b, va, vb, cab, z) {
            _ if b <= 0.0 => (
                None,
                "not estimable: the unit's estimate is not positive".to_string(),
            ),
            RatioInterval::Bounded(lo, hi) => (Some((lo, hi)), String::new()),
            RatioInterval::NotEstimable => (
                None,
                "not estimable: the unit's own interval reaches zero; play more games, or choose another --unit".to_string(),
            ),
        };
        ValueRow {
            // No ratio without a bounded interval: a point estimate over a unit that may be
            // worth nothing is not a value (it would read as one, 12.5, where none is known).
            value: interval.map(|_| a / b),
            interval,
            note,
            ..base
        }
    }

    /// Whether the value is usable as an engine value: a bounded interval above zero.
    pub fn is_sound(&self) -> bool {
        match (self.value, self.interval) {
            (Some(_), Some((lo, _))) => lo > 0.0,
            (Some(v), None) => v == 1.0 && self.note == UNIT_NOTE,
            _ => false,
        }
    }

    /// `value [low, high]` or the reason there is none, never `-0`; a note on a value
    /// (a warning such as the balanced fit's not settling) follows it.
    pub fn show(&self) -> String {
        match (self.value, self.interval) {
            (Some(v), Some((lo, hi))) if self.note.is_empty() => {
                format!("{} [{}, {}]", fixed(v, 2), fixed(lo, 2), fixed(hi, 2))
            }
            (Some(v), Some((lo, hi))) => format!(
                "{} [{}, {}]  ({})",
                fixed(v, 2),
                fixed(lo, 2),
                fixed(hi, 2),
                self.note
            ),
            (Some(v), None) => format!("{}  ({})", fixed(v, 2), self.note),
            (None, _) => self.note.clone(),
        }
    }
}

/// The note on the calibration row.
pub const UNIT_NOTE: &str = "the unit: 1 by definition";

/// Columns of `piece_values.csv`.
pub const HEADER: [&str; 8] = [
    "variant", "piece", "method", "value", "low", "high", "games", "note",
];

/// Index of the pawn: the kind named `pawn`, or else the cheapest kind by default value.
pub fn pawn_kind(kinds: &[(&'static str, i32)]) -> Option<usize> {
    kinds.iter().position(|k| k.0 == "pawn").or_else(|| {
        kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.1 > 0)
            .min_by_key(|(_, k)| k.1)
            .map(|(i, _)| i)
    })
}

/// Index of the kind values are measured in: `unit` (a piece's key, as in
/// `piece_values.csv`: `rook`, `great_philosopher`; any case) or, by default, [`pawn_kind`].
///
/// # Errors
/// An unknown piece (the message lists this variant's), a royal piece (never captured, so
/// it has no value to measure in), or a variant without priced kinds.
pub fn unit_kind(kinds: &[(&'static str, i32)], unit: Option<&str>) -> Result<usize> {
    let Some(name) = unit else {
        return pawn_kind(kinds).context("no material kind to calibrate with");
    };
    let key = crate::run::config::piece_key(name);
    let Some(k) = kinds
        .iter()
        .position(|k| crate::run::config::piece_key(k.0).eq_ignore_ascii_case(&key))
    else {
        let known: Vec<String> = kinds
            .iter()
            .filter(|k| k.1 > 0)
            .map(|k| crate::run::config::piece_key(k.0))
            .collect();
        bail!(
            "--unit {name}: no such piece here; this variant's are {}",
            known.join(", ")
        );
    };
    if kinds[k].1 <= 0 {
        bail!("--unit {name}: a royal piece is never captured, so it has no value to measure in");
    }
    Ok(k)
}

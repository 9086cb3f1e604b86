//! The search's numeric settings (margins, reductions, windows) as named integers that an
//! engine configuration may change (`"params"`), so a new value is measured by SPRT against
//! the default without a rebuild, and a tuner outside the engine can set them.
//!
//! Every parameter has a default (the constant the search used before it was a parameter,
//! so the default search is unchanged) and a range; a value outside it is refused.

use std::fmt;

/// One numeric setting of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Param {
    /// Late-move reduction's constant, in hundredths of a ply (`base + ln d · ln i / divisor`).
    LmrBase,
    /// Late-move reduction's divisor of `ln(depth) · ln(move number)`, in hundredths.
    LmrDivisor,
    /// Reverse futility's margin per ply of depth, centipawns.
    ReverseFutilityMargin,
    /// What reverse futility's margin loses when the evaluation is improving, centipawns.
    ReverseFutilityImproving,
    /// The null move's reduction in plies before its depth and evaluation terms.
    NullMoveBase,
    /// Plies of depth per extra ply of null-move reduction.
    NullMoveDepthDivisor,
    /// Centipawns of evaluation above beta per extra ply of null-move reduction (at most two).
    NullMoveEvalDivisor,
    /// Futility pruning's margin at depth 0, centipawns.
    FutilityBase,
    /// Futility pruning's margin per ply of depth, centipawns.
    FutilitySlope,
    /// Late-move pruning's count of quiet moves at depth 0 (`(base + depth²)`, halved when
    /// not improving).
    LatePruningBase,
    /// The first aspiration window's half-width at the root, centipawns.
    AspirationWindow,
}

/// A parameter's name, default and allowed range.
struct Spec {
    name: &'static str,
    default: i32,
    min: i32,
    max: i32,
}

const fn spec(name: &'static str, default: i32, min: i32, max: i32) -> Spec {
    Spec {
        name,
        default,
        min,
        max,
    }
}

/// In the order of [`Param`].
const SPECS: [Spec; Param::ALL.len()] = [
    spec("lmr_base", 75, 0, 400),
    spec("lmr_divisor", 225, 50, 1000),
    spec("reverse_futility_margin", 90, 0, 1000),
    spec("reverse_futility_improving", 60, 0, 1000),
    spec("null_move_base", 3, 1, 10),
    spec("null_move_depth_divisor", 4, 1, 64),
    spec("null_move_eval_divisor", 200, 10, 5000),
    spec("futility_base", 100, 0, 2000),
    spec("futility_slope", 120, 0, 2000),
    spec("late_pruning_base", 3, 0, 100),
    spec("aspiration_window", 25, 1, 800),
];

impl Param {
    /// Every parameter, in declaration order.
    pub const ALL: [Param; 11] = [
        Param::LmrBase,
        Param::LmrDivisor,
        Param::ReverseFutilityMargin,
        Param::ReverseFutilityImproving,
        Param::NullMoveBase,
        Param::NullMoveDepthDivisor,
        Param::NullMoveEvalDivisor,
        Param::FutilityBase,
        Param::FutilitySlope,
        Param::LatePruningBase,
        Param::AspirationWindow,
    ];

    /// The name a configuration uses.
    pub fn name(self) -> &'static str {
        SPECS[self as usize].name
    }

    /// The value the default search uses.
    pub fn default_value(self) -> i32 {
        SPECS[self as usize].default
    }

    /// The allowed values.
    pub fn range(self) -> std::ops::RangeInclusive<i32> {
        let s = &SPECS[self as usize];
        s.min..=s.max
    }

    /// The parameter called `name`.
    pub fn from_name(name: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Why a parameter could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has this name.
    Unknown(String),
    /// The value lies outside the parameter's range.
    OutOfRange {
        /// The parameter.
        param: Param,
        /// The value refused.
        value: i64,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown(name) => {
                let known: Vec<&str> = Param::ALL.iter().map(|p| p.name()).collect();
                write!(
                    f,
                    "unknown search parameter {name:?}; known: {}",
                    known.join(", ")
                )
            }
            ParamError::OutOfRange { param, value } => {
                let r = param.range();
                write!(
                    f,
                    "search parameter {:?} must be {} to {}, got {value}",
                    param.name(),
                    r.start(),
                    r.end()
                )
            }
        }
    }
}

impl std::error::Error for ParamError {}

/// A value for every [`Param`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams([i32; Param::ALL.len()]);

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams(Param::ALL.map(Param::default_value))
    }
}

impl SearchParams {
    /// The value of `p`.
    #[inline]
    pub fn get(&self, p: Param) -> i32 {
        self.0[p as usize]
    }

    /// Sets the parameter called `name`.
    ///
    /// # Errors
    /// An unknown name or a value outside the parameter's range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let p = Param::from_name(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        let r = p.range();
        if value < i64::from(*r.start()) || value > i64::from(*r.end()) {
            return Err(ParamError::OutOfRange { param: p, value });
        }
        self.0[p as usize] = value as i32;
        Ok(())
    }

    /// The late-move reduction table these parameters give: plies for a move at depth `d`
    /// (row) that is the `i`-th tried (column), both from 1; `base + ln d · ln i / divisor`.
    pub(crate) fn lmr_table(&self, rows: usize) -> Vec<[u8; 64]> {
        let base = f64::from(self.get(Param::LmrBase)) / 100.0;
        let divisor = f64::from(self.get(Param::LmrDivisor)) / 100.0;
        (0..rows)
            .map(|d| {
                std::array::from_fn(|i| {
                    if d == 0 || i == 0 {
                        0
                    } else {
                        (base + (d as f64).ln() * (i as f64).ln() / divisor).clamp(0.0, 255.0) as u8
                    }
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_lie_in_their_ranges() {
        for (i, p) in Param::ALL.into_iter().enumerate() {
            assert_eq!(p as usize, i, "Param::ALL in declaration order");
            assert_eq!(Param::from_name(p.name()), Some(p));
            assert!(p.range().contains(&p.default_value()), "{}", p.name());
        }
    }

    #[test]
    fn set_checks_name_and_range() {
        let mut s = SearchParams::default();
        s.set("lmr_divisor", 200).unwrap();
        assert_eq!(s.get(Param::LmrDivisor), 200);
        // Only that one moved.
        for p in Param::ALL.into_iter().filter(|&p| p != Param::LmrDivisor) {
            assert_eq!(s.get(p), p.default_value(), "{}", p.name());
        }
        let e = s.set("lmr_divisr", 200).unwrap_err();
        assert!(
            e.to_string().contains("known: lmr_base, lmr_divisor"),
            "{e}"
        );
        let e = s.set("null_move_base", 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "search parameter \"null_move_base\" must be 1 to 10, got 0"
        );
        assert!(s.set("aspiration_window", i64::MAX).is_err());
        assert_eq!(
            s.get(Param::NullMoveBase),
            3,
            "a refused value changes nothing"
        );
    }

    #[test]
    fn the_default_reduction_table_is_the_former_formula() {
        let t = SearchParams::default().lmr_table(64);
        for (d, row) in t.iter().enumerate().skip(1) {
            for (i, &r) in row.iter().enumerate().skip(1) {
                let old = (0.75 + (d as f64).ln() * (i as f64).ln() / 2.25) as u8;
                assert_eq!(r, old, "depth {d}, move {i}");
            }
        }
        let mut s = SearchParams::default();
        s.set("lmr_divisor", 150).unwrap();
        let deeper = s.lmr_table(64);
        assert!(deeper[20][20] > t[20][20]);
    }
}

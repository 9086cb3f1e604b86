//! The search's numeric settings (margins, reductions, windows) as named integers that an
//! engine configuration may change (`"params"`), so a new value is measured by SPRT against
//! the default without a rebuild, and a tuner outside the engine can set them.
//!
//! Every parameter has a default (the constant the search used before it was a parameter,
//! so the default search is unchanged) and a range; a value outside it is refused.

use super::Technique;
use std::fmt;

/// Generates [`Param`] and its specification from the rows of the table below: each
/// parameter is named once (variant, configuration name, default, range, and the
/// technique it belongs to where that is off by default).
macro_rules! params {
    ($( $(#[doc = $doc:literal])+ $variant:ident => $name:literal, $default:expr, $min:expr, $max:expr, $technique:expr; )*) => {
        /// One numeric setting of the search.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(usize)]
        pub enum Param {
            $( $(#[doc = $doc])+ $variant, )*
        }

        impl Param {
            /// Every parameter, in the order of the table.
            pub const ALL: [Param; [$(Param::$variant),*].len()] = [$(Param::$variant),*];
        }

        /// In the order of [`Param`].
        const SPECS: [Spec; Param::ALL.len()] = [
            $( Spec { name: $name, default: $default, min: $min, max: $max, technique: $technique }, )*
        ];
    };
}

params! {
    /// Late-move reduction's constant, in hundredths of a ply (`base + ln d · ln i / divisor`).
    LmrBase => "lmr_base", 75, 0, 400, None;
    /// Late-move reduction's divisor of `ln(depth) · ln(move number)`, in hundredths.
    LmrDivisor => "lmr_divisor", 225, 50, 1000, None;
    /// Reverse futility's margin per ply of depth, centipawns.
    ReverseFutilityMargin => "reverse_futility_margin", 90, 0, 1000, None;
    /// What reverse futility's margin loses when the evaluation is improving, centipawns.
    ReverseFutilityImproving => "reverse_futility_improving", 60, 0, 1000, None;
    /// The null move's reduction in plies before its depth and evaluation terms.
    NullMoveBase => "null_move_base", 3, 1, 10, None;
    /// Plies of depth per extra ply of null-move reduction.
    NullMoveDepthDivisor => "null_move_depth_divisor", 4, 1, 64, None;
    /// Centipawns of evaluation above beta per extra ply of null-move reduction (at most two).
    NullMoveEvalDivisor => "null_move_eval_divisor", 200, 10, 5000, None;
    /// Futility pruning's margin at depth 0, centipawns.
    FutilityBase => "futility_base", 100, 0, 2000, None;
    /// Futility pruning's margin per ply of depth, centipawns.
    FutilitySlope => "futility_slope", 120, 0, 2000, None;
    /// Late-move pruning's count of quiet moves at depth 0 (`(base + depth²)`, halved when
    /// not improving).
    LatePruningBase => "late_pruning_base", 3, 0, 100, None;
    /// The first aspiration window's half-width at the root, centipawns.
    AspirationWindow => "aspiration_window", 25, 1, 800, None;
    /// The first iteration searched with an aspiration window.
    AspirationDepth => "aspiration_depth", 4, 1, 64, None;
    /// The factor by which a missed aspiration window widens.
    AspirationGrowth => "aspiration_growth", 3, 2, 16, None;
    /// The widest aspiration window's half-width, centipawns: beyond it the root is searched with
    /// the full window.
    AspirationMax => "aspiration_max", 800, 1, 1000, None;
    /// The deepest node reverse futility prunes.
    ReverseFutilityDepth => "reverse_futility_depth", 6, 0, 10, None;
    /// The deepest node razoring tries.
    RazorDepth => "razor_depth", 3, 0, 5, Some(Technique::Razoring);
    /// Razoring's margin below alpha at depth 0, centipawns (`margin + slope · depth²`).
    RazorMargin => "razor_margin", 300, 0, 5000, Some(Technique::Razoring);
    /// Razoring's margin per ply of depth squared, centipawns.
    RazorSlope => "razor_slope", 200, 0, 5000, Some(Technique::Razoring);
    /// The least depth at which the null move is tried.
    NullMoveDepth => "null_move_depth", 3, 1, 64, None;
    /// The most plies of null-move reduction the evaluation's margin above beta adds.
    NullMoveEvalMax => "null_move_eval_max", 2, 0, 3, None;
    /// The least depth at which ProbCut is tried.
    ProbcutDepth => "probcut_depth", 5, 1, 64, Some(Technique::ProbCut);
    /// ProbCut's bound above beta, in hundredths of the cheapest kind's value.
    ProbcutMargin => "probcut_margin", 200, 0, 2000, Some(Technique::ProbCut);
    /// How much shallower ProbCut's verifying search is than the node, plies.
    ProbcutReduction => "probcut_reduction", 4, 1, 64, Some(Technique::ProbCut);
    /// How much shallower than the node a table entry below ProbCut's bound may be and still
    /// rule ProbCut out, plies.
    ProbcutTtDepth => "probcut_tt_depth", 3, 0, 5, Some(Technique::ProbCut);
    /// The least depth at which internal iterative reduction applies.
    IirDepth => "iir_depth", 4, 1, 64, None;
    /// The least depth at which singular extensions are tried.
    SingularDepth => "singular_depth", 6, 1, 64, None;
    /// How much shallower than the node the table's entry may be for a singular extension,
    /// plies.
    SingularTtDepth => "singular_tt_depth", 3, 0, 64, None;
    /// The singular bound's distance below the table's score per ply of depth, centipawns.
    SingularMargin => "singular_margin", 2, 0, 100, None;
    /// How far below the singular bound the other moves must stay for a double extension,
    /// centipawns.
    DoubleMargin => "double_margin", 25, 0, 1000, Some(Technique::DoubleExtensions);
    /// The most double extensions on one line from the root.
    MaxDoubles => "max_doubles", 6, 0, 10, Some(Technique::DoubleExtensions);
    /// The deepest (pruning) depth at which SEE and history pruning prune a move before it is
    /// played.
    MovePruningDepth => "move_pruning_depth", 6, 0, 10, None;
    /// SEE pruning's threshold for a capture per ply of depth, in hundredths of the cheapest
    /// kind's value.
    SeeCaptureMargin => "see_capture_margin", 100, 0, 2000, None;
    /// SEE pruning's threshold for a quiet move per ply of depth squared, in hundredths of the
    /// cheapest kind's value.
    SeeQuietMargin => "see_quiet_margin", 25, 0, 2000, None;
    /// The deepest node history pruning prunes.
    HistoryPruningDepth => "history_pruning_depth", 4, 0, 7, Some(Technique::HistoryPruning);
    /// History pruning's threshold per ply of depth: the largest history score over this.
    HistoryPruningDivisor => "history_pruning_divisor", 8, 1, 1024, Some(Technique::HistoryPruning);
    /// The deepest node where captures are pruned by futility.
    CaptureFutilityDepth => "capture_futility_depth", 6, 0, 10, Some(Technique::CaptureFutility);
    /// Capture futility's margin at depth 0, centipawns.
    CaptureFutilityBase => "capture_futility_base", 200, 0, 5000, Some(Technique::CaptureFutility);
    /// Capture futility's margin per ply of depth, centipawns.
    CaptureFutilitySlope => "capture_futility_slope", 200, 0, 5000, Some(Technique::CaptureFutility);
    /// The deepest node late-move pruning prunes.
    LatePruningDepth => "late_pruning_depth", 5, 0, 64, None;
    /// The deepest (pruning) depth at which futility pruning prunes a quiet move.
    FutilityDepth => "futility_depth", 5, 0, 8, None;
    /// The least depth at which late moves are reduced by the log-log table (and losing
    /// captures with capture reductions).
    LmrDepth => "lmr_depth", 3, 1, 64, None;
    /// The first move (counted from 0) that late-move reductions reduce.
    LmrMove => "lmr_move", 2, 1, 64, None;
    /// How far a reduced search must beat the best score so far for its re-search to go a ply
    /// deeper, centipawns, before the slope.
    DeeperMargin => "deeper_margin", 40, 0, 1000, Some(Technique::ResearchDepth);
    /// What [`Param::DeeperMargin`] grows by per ply of depth, centipawns.
    DeeperSlope => "deeper_slope", 2, 0, 100, Some(Technique::ResearchDepth);
    /// A reduced search that beats the best score so far by less than this is re-searched a
    /// ply shallower, centipawns.
    ShallowerMargin => "shallower_margin", 10, 0, 1000, Some(Technique::ResearchDepth);
    /// The history bonus of a cut move per ply of depth squared.
    HistoryBonus => "history_bonus", 16, 1, 256, None;
    /// Delta pruning's margin above the victim, in hundredths of the cheapest kind's value.
    DeltaMargin => "delta_margin", 200, 0, 5000, Some(Technique::DeltaPruning);
}

/// A parameter's name, default, allowed range and technique.
struct Spec {
    name: &'static str,
    default: i32,
    min: i32,
    max: i32,
    technique: Option<Technique>,
}

impl Param {
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

    /// The technique the parameter belongs to, where that technique is an experiment (off
    /// by default, so the parameter changes nothing until a configuration enables it).
    pub fn technique(self) -> Option<Technique> {
        SPECS[self as usize].technique
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
    fn a_parameters_technique_is_an_experiment() {
        // Parameters of techniques on by default need no column: the default search reads
        // them.
        for p in Param::ALL {
            if let Some(t) = p.technique() {
                assert_eq!(
                    t.status(),
                    crate::search::Status::Experiment,
                    "{}",
                    p.name()
                );
            }
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

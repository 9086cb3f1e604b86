//! The techniques a configuration switches on and off, from one table: each row names a
//! technique once (variant, configuration name, default, documentation) and the macro
//! generates the enum, its bits, [`Technique::ALL`], the names and the default set, as the
//! variant registry does for variants.

#[cfg(doc)]
use super::Param;
#[cfg(doc)]
use crate::game::Game;

/// Whether a technique is on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// On by default: part of the tested search.
    On,
    /// An experiment: built, but off unless a configuration enables it, because its SPRT
    /// against the full search did not accept it (`docs/search.md`, "Measured strength").
    Experiment,
}

/// Generates [`Technique`] from the rows of the table below.
macro_rules! techniques {
    ($( $(#[doc = $doc:literal])+ $variant:ident => $name:literal, $status:ident; )*) => {
        /// The place of each technique in the table, which gives its bit.
        enum Row {
            $( $variant, )*
        }

        /// The techniques of the search that a configuration can switch off (or, for an
        /// experiment, on), each measured by SPRT (`docs/search.md`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u64)]
        pub enum Technique {
            $( $(#[doc = $doc])+ $variant = 1 << Row::$variant as u64, )*
        }

        impl Technique {
            /// Every technique, in the order of the table.
            pub const ALL: [Technique; [$(Technique::$variant),*].len()] =
                [$(Technique::$variant),*];

            /// The name used in configuration files.
            pub const fn name(self) -> &'static str {
                match self {
                    $( Technique::$variant => $name, )*
                }
            }

            /// Whether the technique is on by default or an experiment.
            pub const fn status(self) -> Status {
                match self {
                    $( Technique::$variant => Status::$status, )*
                }
            }
        }
    };
}

techniques! {
    /// Null-move pruning.
    NullMove => "null_move", On;
    /// Reverse futility pruning (static null move).
    ReverseFutility => "reverse_futility", On;
    /// Late-move reductions from the log-log table (off: one ply for late quiet moves).
    LogReductions => "log_reductions", On;
    /// Late-move and futility pruning of quiet moves at small depths.
    LatePruning => "late_pruning", On;
    /// Internal iterative reduction.
    IterativeReduction => "iterative_reduction", On;
    /// History with gravity and maluses (off: depth² bonuses only).
    HistoryGravity => "history_gravity", On;
    /// Aspiration windows at the root.
    Aspiration => "aspiration", On;
    /// Countermoves: the quiet move that last refuted the previous move is tried right after
    /// the killers.
    CounterMove => "countermove", Experiment;
    /// Capture history: a history of captures by moving kind, target cell and captured
    /// kind, added to the MVV-LVA order of captures.
    CaptureHistory => "capture_history", Experiment;
    /// Continuation history: the history of a quiet move given the moves one and two plies
    /// before, in the order of quiet moves and in the reductions.
    ContinuationHistory => "continuation_history", On;
    /// Static exchange evaluation ([`Game::see`], where the variant has it): captures that
    /// lose material are ordered after the quiet moves and left out of the quiescence
    /// search.
    See => "see", On;
    /// The transposition table in the quiescence search: a stored bound cuts a non-PV
    /// quiescence node, and each quiescence result is stored at depth 0 (never over a
    /// deeper entry of the same position), its best capture first next time.
    QuiescenceTable => "quiescence_table", On;
    /// Mop-up: with a lead of four of the cheapest kind or more against a side left with
    /// only its royal piece and its cheapest kind, the evaluation rewards driving the lone
    /// royal piece to the edge and bringing the other one near ([`Game::royal_cells`]).
    MopUp => "mop_up", On;
    /// SEE pruning: at depth 6 or less, away from the principal variation and once a move
    /// has been searched, a capture that loses more than one cheapest kind per ply of
    /// depth by exchange, or a quiet move that loses more than a quarter of one per depth²,
    /// is not searched (needs [`Technique::See`] and a variant that answers [`Game::see`]);
    /// a quiet move's depth is its reduced depth with [`Technique::ReducedDepthPruning`].
    SeePruning => "see_pruning", On;
    /// History pruning: at depth 4 or less, away from the principal variation and once a
    /// move has been searched, a quiet move (not a killer) whose history is below
    /// `-HISTORY_MAX / 8` ([`Param::HistoryPruningDivisor`]) per ply of depth is not searched.
    HistoryPruning => "history_pruning", Experiment;
    /// Delta pruning in the quiescence search: out of check, a capture (not a promotion)
    /// whose victim, with a margin of two cheapest kinds, cannot lift the stand-pat score to
    /// alpha is not searched.
    DeltaPruning => "delta_pruning", Experiment;
    /// Reductions of losing captures: a capture that loses material by exchange (ordered
    /// after the quiet moves), not giving check, is searched shallower first like a late
    /// quiet move, by the log-log table less one ply (at least one).
    CaptureReductions => "capture_reductions", On;
    /// Singular extensions: at depth 6 or more, when the table holds a lower bound (or exact
    /// score) for this position from nearly as deep, every other move is searched at half
    /// the depth against a bound just below the table's score; if none reaches it, the table's
    /// move is singular and searched a ply deeper. If even that bound is above beta, several
    /// moves beat beta and the node is cut (multi-cut).
    SingularExtensions => "singular_extensions", On;
    /// Correction history: how far the search's result at a node fell from its static
    /// evaluation, averaged per side to move and [`Game::correction_key`] (the material by
    /// default), is added to later static evaluations of positions with the same key before
    /// the pruning decisions and the quiescence search's stand pat use them.
    CorrectionHistory => "correction_history", Experiment;
    /// Move-rule scaling: the static evaluation shrinks as the move-count clock runs, to half
    /// its size when the rule would end the game (`(2R − clock) / 2R` for a rule of `R`
    /// plies; nothing for a variant without the rule). A side ahead then prefers the move
    /// that resets the clock (a capture, a pawn move) to shuffling towards a draw.
    MoveRuleScaling => "move_rule_scaling", Experiment;
    /// ProbCut: at depth 5 or more away from the principal variation, a capture whose
    /// exchange alone lifts the static evaluation two cheapest kinds above beta is tried
    /// first by the quiescence search, then four plies shallower, against that raised bound;
    /// if it holds, a full-depth search would very likely beat beta too, and the node is
    /// cut (needs [`Technique::See`] and a variant that answers [`Game::see`]).
    ProbCut => "probcut", Experiment;
    /// Check extensions only for checks that do not lose material: a move giving check is
    /// searched a ply deeper unless its static exchange loses (a checking piece that is
    /// simply taken only delays the reply); off, every check is extended.
    CheckExtensionSee => "check_extension_see", On;
    /// The table's score as the evaluation of the pruning decisions: where the table holds
    /// an exact score, or a bound beyond the static evaluation (a lower bound above it, an
    /// upper bound below it), reverse futility and the null move use that score instead,
    /// since a search already found the position to be worth at least (or at most) that.
    TtEval => "tt_eval", On;
    /// Deeper reductions at expected cut nodes: a node searched with a null window as the
    /// reduced or first reply of an expected all node is expected to cut, and its late quiet
    /// moves are reduced a ply more (most of them only confirm the cut the first move made).
    CutNodeReductions => "cut_node_reductions", On;
    /// The table's move before the rest: where the variant can tell that the table's move is
    /// legal without generating every move ([`Game::is_legal_move`]), it is searched first
    /// and the rest are generated only if it does not cut.
    TtMoveFirst => "tt_move_first", On;
    /// Negative extensions (with [`Technique::SingularExtensions`]): a table's move that is
    /// not singular (another move reaches the singular bound) but whose stored score is at or
    /// above beta is searched a ply shallower: the node will most likely cut with it or with
    /// the other good move.
    NegativeExtensions => "negative_extensions", Experiment;
    /// Razoring: away from the principal variation at depth 3 or less, a node whose static
    /// evaluation lies more than `razor_margin + razor_slope·depth²` ([`Param::RazorMargin`], [`Param::RazorSlope`]) below alpha is given to
    /// the quiescence search, and if that stays below alpha too, its score is returned.
    Razoring => "razoring", Experiment;
    /// Pruning at the reduced depth: futility pruning and SEE pruning of a late quiet move
    /// take the depth its late-move reduction would leave (the log-log table, one more when
    /// not improving, less its history), not the node's, so a move the reductions would
    /// search shallowly is pruned as a move at that depth would be, at any node depth.
    ReducedDepthPruning => "reduced_depth_pruning", On;
    /// Double extensions (with [`Technique::SingularExtensions`]): a table's move that every
    /// other move stays well below (the singular search's fail-soft score more than
    /// [`Param::DoubleMargin`] under its bound) is searched two plies deeper, at most
    /// [`Param::MaxDoubles`] times on one line, away from the principal variation.
    DoubleExtensions => "double_extensions", Experiment;
    /// Reverse futility returns the mean of the evaluation and beta instead of the
    /// evaluation: the evaluation's margin above beta is an estimate, and a result nearer
    /// the bound is safer to store.
    ReverseFutilityMean => "reverse_futility_mean", Experiment;
    /// A deeper or shallower re-search after a reduced one: where a late move's reduced
    /// search beats alpha, its full-depth re-search goes a ply deeper if the reduced score
    /// beat the best so far by a wide margin ([`Param::DeeperMargin`] plus [`Param::DeeperSlope`] per ply), and a
    /// ply shallower if it barely beat it ([`Param::ShallowerMargin`]): how far the reduced
    /// search overshot says how much the move is worth a closer look.
    ResearchDepth => "research_depth", Experiment;
    /// Futility pruning of captures: away from the principal variation, at depth
    /// [`Param::CaptureFutilityDepth`] or less, a capture that gives no check and whose victim,
    /// with a margin growing with depth, cannot lift the static evaluation to alpha is not
    /// searched (the main search's counterpart of the quiescence search's delta pruning).
    CaptureFutility => "capture_futility", Experiment;
    /// Fewer reductions at positions once on a principal variation: the table keeps a bit
    /// that says whether a position was searched with an open window, and a late quiet move
    /// of such a position, now searched with a null window, is reduced a ply less (as at a
    /// principal-variation node), since the line may well become the principal one again.
    TtPv => "tt_pv", Experiment;
}

impl Technique {
    /// The techniques that are built but off unless a configuration enables them
    /// (`"enable": [...]`): the experiments, whose SPRT against the full search did not
    /// accept them.
    pub const DEFAULT_OFF: u64 = {
        let mut bits = 0;
        let mut i = 0;
        while i < Technique::ALL.len() {
            if matches!(Technique::ALL[i].status(), Status::Experiment) {
                bits |= Technique::ALL[i] as u64;
            }
            i += 1;
        }
        bits
    };

    /// The technique called `name`.
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL.into_iter().find(|t| t.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table gives each technique the bit it had when the enum was written by hand (a
    /// configuration's `disabled` set is these bits), and the same default set.
    #[test]
    fn bits_and_the_default_set_are_those_of_the_hand_written_enum() {
        for (i, t) in Technique::ALL.into_iter().enumerate() {
            assert_eq!(t as u64, 1 << i, "{}", t.name());
        }
        assert_eq!(Technique::ALL.len(), 33);
        assert_eq!(Technique::CaptureFutility as u64, 2_147_483_648);
        assert_eq!(
            Technique::DEFAULT_OFF,
            128 | 256
                | 16384
                | 32768
                | 262_144
                | 524_288
                | 1_048_576
                | 33_554_432
                | 67_108_864
                | 268_435_456
                | 536_870_912
                | 1_073_741_824
                | 2_147_483_648
                | 4_294_967_296
        );
        assert_eq!(
            Technique::ALL
                .iter()
                .filter(|t| t.status() == Status::Experiment)
                .count(),
            14
        );
    }
}

//! The techniques a configuration switches on and off.

/// The techniques of the search that a configuration can switch off, each measured by SPRT
/// (`docs/search.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
pub enum Technique {
    /// Null-move pruning.
    NullMove = 1,
    /// Reverse futility pruning (static null move).
    ReverseFutility = 2,
    /// Late-move reductions from the log-log table (off: one ply for late quiet moves).
    LogReductions = 4,
    /// Late-move and futility pruning of quiet moves at small depths.
    LatePruning = 8,
    /// Internal iterative reduction.
    IterativeReduction = 16,
    /// History with gravity and maluses (off: depth² bonuses only).
    HistoryGravity = 32,
    /// Aspiration windows at the root.
    Aspiration = 64,
    /// Countermoves: the quiet move that last refuted the previous move is tried right after
    /// the killers.
    CounterMove = 128,
    /// Capture history: a history of captures by moving kind, target cell and captured
    /// kind, added to the MVV-LVA order of captures.
    CaptureHistory = 256,
    /// Continuation history: the history of a quiet move given the moves one and two plies
    /// before, in the order of quiet moves and in the reductions.
    ContinuationHistory = 512,
    /// Static exchange evaluation ([`Game::see`], where the variant has it): captures that
    /// lose material are ordered after the quiet moves and left out of the quiescence
    /// search.
    See = 1024,
    /// The transposition table in the quiescence search: a stored bound cuts a non-PV
    /// quiescence node, and each quiescence result is stored at depth 0 (never over a
    /// deeper entry of the same position), its best capture first next time.
    QuiescenceTable = 2048,
    /// Mop-up: with a lead of four of the cheapest kind or more against a side left with
    /// only its royal piece and its cheapest kind, the evaluation rewards driving the lone
    /// royal piece to the edge and bringing the other one near ([`Game::royal_cells`]).
    MopUp = 4096,
    /// SEE pruning: at depth 6 or less, away from the principal variation and once a move
    /// has been searched, a capture that loses more than one cheapest kind per ply of
    /// depth by exchange, or a quiet move that loses more than a quarter of one per depth²,
    /// is not searched (needs [`Technique::See`] and a variant that answers [`Game::see`]);
    /// a quiet move's depth is its reduced depth with [`Technique::ReducedDepthPruning`].
    SeePruning = 8192,
    /// History pruning: at depth 4 or less, away from the principal variation and once a
    /// move has been searched, a quiet move (not a killer) whose history is below
    /// `-HISTORY_MAX / 8` per ply of depth is not searched.
    HistoryPruning = 16384,
    /// Delta pruning in the quiescence search: out of check, a capture (not a promotion)
    /// whose victim, with a margin of two cheapest kinds, cannot lift the stand-pat score to
    /// alpha is not searched.
    DeltaPruning = 32768,
    /// Reductions of losing captures: a capture that loses material by exchange (ordered
    /// after the quiet moves), not giving check, is searched shallower first like a late
    /// quiet move, by the log-log table less one ply (at least one).
    CaptureReductions = 65536,
    /// Singular extensions: at depth 6 or more, when the table holds a lower bound (or exact
    /// score) for this position from nearly as deep, every other move is searched at half
    /// the depth against a bound just below the table's score; if none reaches it, the table's
    /// move is singular and searched a ply deeper. If even that bound is above beta, several
    /// moves beat beta and the node is cut (multi-cut).
    SingularExtensions = 131072,
    /// Correction history: how far the search's result at a node fell from its static
    /// evaluation, averaged per side to move and [`Game::correction_key`] (the material by
    /// default), is added to later static evaluations of positions with the same key before
    /// the pruning decisions and the quiescence search's stand pat use them.
    CorrectionHistory = 262144,
    /// Move-rule scaling: the static evaluation shrinks as the move-count clock runs, to half
    /// its size when the rule would end the game (`(2R − clock) / 2R` for a rule of `R`
    /// plies; nothing for a variant without the rule). A side ahead then prefers the move
    /// that resets the clock (a capture, a pawn move) to shuffling towards a draw.
    MoveRuleScaling = 524288,
    /// ProbCut: at depth 5 or more away from the principal variation, a capture whose
    /// exchange alone lifts the static evaluation two cheapest kinds above beta is tried
    /// first by the quiescence search, then four plies shallower, against that raised bound;
    /// if it holds, a full-depth search would very likely beat beta too, and the node is
    /// cut (needs [`Technique::See`] and a variant that answers [`Game::see`]).
    ProbCut = 1048576,
    /// Check extensions only for checks that do not lose material: a move giving check is
    /// searched a ply deeper unless its static exchange loses (a checking piece that is
    /// simply taken only delays the reply); off, every check is extended.
    CheckExtensionSee = 2097152,
    /// The table's score as the evaluation of the pruning decisions: where the table holds
    /// an exact score, or a bound beyond the static evaluation (a lower bound above it, an
    /// upper bound below it), reverse futility and the null move use that score instead,
    /// since a search already found the position to be worth at least (or at most) that.
    TtEval = 4194304,
    /// Deeper reductions at expected cut nodes: a node searched with a null window as the
    /// reduced or first reply of an expected all node is expected to cut, and its late quiet
    /// moves are reduced a ply more (most of them only confirm the cut the first move made).
    CutNodeReductions = 8388608,
    /// The table's move before the rest: where the variant can tell that the table's move is
    /// legal without generating every move ([`Game::is_legal_move`]), it is searched first
    /// and the rest are generated only if it does not cut.
    TtMoveFirst = 16777216,
    /// Negative extensions (with [`Technique::SingularExtensions`]): a table's move that is
    /// not singular (another move reaches the singular bound) but whose stored score is at or
    /// above beta is searched a ply shallower: the node will most likely cut with it or with
    /// the other good move.
    NegativeExtensions = 33554432,
    /// Razoring: away from the principal variation at depth 3 or less, a node whose static
    /// evaluation lies more than `RAZOR_MARGIN + RAZOR_SLOPE·depth²` below alpha is given to
    /// the quiescence search, and if that stays below alpha too, its score is returned.
    Razoring = 67108864,
    /// Pruning at the reduced depth: futility pruning and SEE pruning of a late quiet move
    /// take the depth its late-move reduction would leave (the log-log table, one more when
    /// not improving, less its history), not the node's, so a move the reductions would
    /// search shallowly is pruned as a move at that depth would be, at any node depth.
    ReducedDepthPruning = 134217728,
    /// Double extensions (with [`Technique::SingularExtensions`]): a table's move that every
    /// other move stays well below (the singular search's fail-soft score more than
    /// [`DOUBLE_MARGIN`] under its bound) is searched two plies deeper, at most
    /// [`MAX_DOUBLES`] times on one line, away from the principal variation.
    DoubleExtensions = 268435456,
    /// Reverse futility returns the mean of the evaluation and beta instead of the
    /// evaluation: the evaluation's margin above beta is an estimate, and a result nearer
    /// the bound is safer to store.
    ReverseFutilityMean = 536870912,
    /// A deeper or shallower re-search after a reduced one: where a late move's reduced
    /// search beats alpha, its full-depth re-search goes a ply deeper if the reduced score
    /// beat the best so far by a wide margin ([`DEEPER_MARGIN`] plus two per ply), and a
    /// ply shallower if it barely beat it ([`SHALLOWER_MARGIN`]): how far the reduced
    /// search overshot says how much the move is worth a closer look.
    ResearchDepth = 1073741824,
    /// Futility pruning of captures: away from the principal variation, at depth
    /// [`CAPTURE_FUTILITY_DEPTH`] or less, a capture that gives no check and whose victim,
    /// with a margin growing with depth, cannot lift the static evaluation to alpha is not
    /// searched (the main search's counterpart of the quiescence search's delta pruning).
    CaptureFutility = 2147483648,
    /// Fewer reductions at positions once on a principal variation: the table keeps a bit
    /// that says whether a position was searched with an open window, and a late quiet move
    /// of such a position, now searched with a null window, is reduced a ply less (as at a
    /// principal-variation node), since the line may well become the principal one again.
    TtPv = 4294967296,
}

impl Technique {
    /// Every technique, in the order of the names.
    pub const ALL: [Technique; 33] = [
        Technique::NullMove,
        Technique::ReverseFutility,
        Technique::LogReductions,
        Technique::LatePruning,
        Technique::IterativeReduction,
        Technique::HistoryGravity,
        Technique::Aspiration,
        Technique::CounterMove,
        Technique::CaptureHistory,
        Technique::ContinuationHistory,
        Technique::See,
        Technique::QuiescenceTable,
        Technique::MopUp,
        Technique::SeePruning,
        Technique::HistoryPruning,
        Technique::DeltaPruning,
        Technique::CaptureReductions,
        Technique::SingularExtensions,
        Technique::CorrectionHistory,
        Technique::MoveRuleScaling,
        Technique::ProbCut,
        Technique::CheckExtensionSee,
        Technique::TtEval,
        Technique::CutNodeReductions,
        Technique::TtMoveFirst,
        Technique::NegativeExtensions,
        Technique::Razoring,
        Technique::ReducedDepthPruning,
        Technique::DoubleExtensions,
        Technique::ReverseFutilityMean,
        Technique::ResearchDepth,
        Technique::CaptureFutility,
        Technique::TtPv,
    ];

    /// The techniques that are built but off unless a configuration enables them
    /// (`"enable": [...]`): those whose SPRT against the full search did not accept them
    /// (`docs/search.md`).
    pub const DEFAULT_OFF: u64 = Technique::CounterMove as u64
        | Technique::CaptureHistory as u64
        | Technique::HistoryPruning as u64
        | Technique::DeltaPruning as u64
        | Technique::CorrectionHistory as u64
        | Technique::MoveRuleScaling as u64
        | Technique::ProbCut as u64
        | Technique::NegativeExtensions as u64
        | Technique::Razoring as u64
        | Technique::DoubleExtensions as u64
        | Technique::ReverseFutilityMean as u64
        | Technique::ResearchDepth as u64
        | Technique::CaptureFutility as u64
        | Technique::TtPv as u64;

    /// The name used in configuration files.
    pub fn name(self) -> &'static str {
        match self {
            Technique::NullMove => "null_move",
            Technique::ReverseFutility => "reverse_futility",
            Technique::LogReductions => "log_reductions",
            Technique::LatePruning => "late_pruning",
            Technique::IterativeReduction => "iterative_reduction",
            Technique::HistoryGravity => "history_gravity",
            Technique::Aspiration => "aspiration",
            Technique::CounterMove => "countermove",
            Technique::CaptureHistory => "capture_history",
            Technique::ContinuationHistory => "continuation_history",
            Technique::See => "see",
            Technique::QuiescenceTable => "quiescence_table",
            Technique::MopUp => "mop_up",
            Technique::SeePruning => "see_pruning",
            Technique::HistoryPruning => "history_pruning",
            Technique::DeltaPruning => "delta_pruning",
            Technique::CaptureReductions => "capture_reductions",
            Technique::SingularExtensions => "singular_extensions",
            Technique::CorrectionHistory => "correction_history",
            Technique::MoveRuleScaling => "move_rule_scaling",
            Technique::ProbCut => "probcut",
            Technique::CheckExtensionSee => "check_extension_see",
            Technique::TtEval => "tt_eval",
            Technique::CutNodeReductions => "cut_node_reductions",
            Technique::TtMoveFirst => "tt_move_first",
            Technique::NegativeExtensions => "negative_extensions",
            Technique::Razoring => "razoring",
            Technique::ReducedDepthPruning => "reduced_depth_pruning",
            Technique::DoubleExtensions => "double_extensions",
            Technique::ReverseFutilityMean => "reverse_futility_mean",
            Technique::ResearchDepth => "research_depth",
            Technique::CaptureFutility => "capture_futility",
            Technique::TtPv => "tt_pv",
        }
    }

    /// The technique called `name`.
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL.into_iter().find(|t| t.name() == name)
    }
}

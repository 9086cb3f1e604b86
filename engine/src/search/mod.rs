//! Search for every variant: iterative-deepening principal-variation alpha-beta with a
//! quiescence search, check extensions, mate scores, draw detection and a transposition
//! table, generic over [`Game`] and so monomorphised per variant.
//!
//! Reproducibility: with a node or depth limit the same position, configuration and seed give
//! the same move and the same node count on any machine and thread count (each game owns its
//! searcher). Only `movetime` depends on the clock.
//!
//! ```
//! use variantlab_engine::search::{Limits, SearchConfig, Searcher};
//! use variantlab_engine::{position::Position, variants::Chess, Game};
//! let pos = Position::<Chess>::from_text("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
//! let mut s = Searcher::new(SearchConfig::default());
//! let r = s.search(&pos, &[], Limits::depth(3));
//! assert_eq!(pos.move_text(r.best.unwrap()), "a1a8");
//! ```

mod params;
pub mod tt;

pub use params::{Param, ParamError, SearchParams};

use crate::eval::{builtin, EvalWeights, Evaluator, WeightsError};
use crate::game::{repetitions, Game, Material, MAX_KINDS};
use crate::moves::{Move, MoveBuf, MoveKind};
use crate::{Color, Outcome};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable, TtHit};

/// Score of being mated at the root; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Stack for a thread that searches: move lists live on the stack, and Dai Mitregi's hold
/// thousands of moves, more than a default 2 MiB thread stack has room for.
pub const THREAD_STACK: usize = 64 << 20;

/// When to stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget (the reproducible default for self-play).
    pub nodes: Option<u64>,
    /// Wall-clock budget (not reproducible): the search stops when it is spent.
    pub movetime: Option<Duration>,
    /// With a clock rather than a fixed time per move: once an iteration ends past this, no
    /// other starts (it would likely not finish, and time not spent is kept for later moves).
    /// Without it a `movetime` is searched whole, as UCI's `go movetime` asks: an iteration
    /// cut short still gives its better move.
    pub soft_time: Option<Duration>,
}

impl Limits {
    /// A fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    /// A fixed node budget.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
    /// A fixed time per move.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }
    /// These limits with a clock's `budget` for this move: the move time is at most the
    /// budget, and no iteration starts after half of it (time not spent stays on the clock).
    pub fn on_clock(self, budget: Duration) -> Limits {
        let hard = self.movetime.map_or(budget, |m| m.min(budget));
        Limits {
            movetime: Some(hard),
            soft_time: Some(hard / 2),
            ..self
        }
    }
}

/// Engine parameters: what a named configuration changes between two engine versions.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Material values in centipawns that override the evaluation's own, indexed like
    /// [`Game::material_kinds`]; `None` or a missing entry keeps the evaluation's value (a
    /// tuned weights file's material, or the variant's default for the classic evaluation).
    pub values: Vec<Option<i32>>,
    /// Transposition table size in MiB (0 disables it).
    pub hash_mib: usize,
    /// Whether the positional terms (mobility, centralisation) are used.
    pub positional: bool,
    /// Root randomisation: each root move gets a seeded bonus in `0..=randomize` centipawns,
    /// so near-equal moves vary between games. 0 = off.
    pub randomize: i32,
    /// Seed of the root randomisation.
    pub seed: u64,
    /// Search techniques switched off (a set of [`Technique`] bits), so a build can be
    /// compared with itself minus one technique; [`Technique::DEFAULT_OFF`] by default (the
    /// techniques that are built but did not pass their SPRT).
    pub disabled: u64,
    /// The evaluation: the variant's tuned default, the classic one, or weights from a file.
    pub eval: EvalChoice,
    /// Margins, reductions and windows ([`Param`]); the defaults are the tested search.
    pub params: SearchParams,
}

/// Which evaluation a configuration uses.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum EvalChoice {
    /// The variant's embedded tuned weights ([`crate::eval::builtin`]) where it has them,
    /// else the classic evaluation.
    #[default]
    Default,
    /// Material plus the classic positional terms ([`Game::positional`]): the evaluation
    /// before tuning, kept for comparison.
    Classic,
    /// Weights read from a file.
    Weights(Arc<EvalWeights>),
}

impl EvalChoice {
    /// The evaluator this choice gives for `G`, `None` for the classic evaluation.
    ///
    /// # Errors
    /// If file weights do not fit the variant.
    pub fn evaluator<G: Game>(&self) -> Result<Option<Evaluator>, WeightsError> {
        match self {
            EvalChoice::Classic => Ok(None),
            EvalChoice::Default => match builtin(G::start().variant_name()) {
                Some(w) => Evaluator::new::<G>(&w).map(Some),
                None => Ok(None),
            },
            EvalChoice::Weights(w) => Evaluator::new::<G>(w).map(Some),
        }
    }
}

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

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            values: Vec::new(),
            hash_mib: 16,
            positional: true,
            randomize: 0,
            seed: 0,
            disabled: Technique::DEFAULT_OFF,
            eval: EvalChoice::Default,
            params: SearchParams::default(),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play (`None` only when there is no legal move).
    pub best: Option<Move>,
    /// Score in centipawns from the side to move's point of view (mates near ±30000).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Deepest ply any line of the search reached (quiescence included).
    pub seldepth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Move>,
}

impl SearchResult {
    /// Mate distance in moves if the score is a mate (positive: the side to move mates).
    pub fn mate_in(&self) -> Option<i32> {
        if self.score >= MATE_BOUND {
            Some((MATE - self.score + 1) / 2)
        } else if self.score <= -MATE_BOUND {
            Some(-(MATE + self.score) / 2)
        } else {
            None
        }
    }
}

/// A searcher: owns its transposition table and move-ordering state. One per game.
pub struct Searcher {
    config: SearchConfig,
    /// Late-move reductions by depth and move number, from the configuration's parameters.
    lmr: Vec<[u8; 64]>,
    tt: TranspositionTable,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    /// The quiet move that last refuted each move (indexed like the history).
    counters: Vec<Move>,
    /// Capture history: [`PIECE_KEYS`] piece keys of the capturing move times
    /// [`CAPTURED_SLOTS`] captured kinds.
    capture_history: Box<[i16]>,
    /// Continuation histories one and two plies back: the piece key of the earlier move
    /// times the piece key of this one, [`PIECE_KEYS`]² each.
    continuation: [Box<[i16]>; 2],
    /// The move played at each ply of the current line (`NO_MOVE` for a null move) and its
    /// piece key (`NO_KEY`), for countermoves and continuation history.
    line_moves: Vec<Move>,
    line_keys: Vec<u16>,
    /// How piece keys are made for the variant searched: kinds times cells when that fits
    /// in [`PIECE_KEYS`], else hashed.
    key_cells: usize,
    key_dense: bool,
    values: [i32; MAX_KINDS],
    /// The smallest positive value of `values` (set with them at the start of a search).
    pawn: i32,
    path: Vec<u64>,
    nodes: u64,
    limits: Limits,
    start: Instant,
    stopped: bool,
    /// Set from another thread to end the search at once (UCI `stop`).
    stop: Option<Arc<AtomicBool>>,
    seldepth: u32,
    /// Static evaluation at each ply of the current line (`NO_EVAL` in check), for the
    /// "improving" flag.
    evals: Vec<i32>,
    /// Whether the move into each ply was a null move (no two in a row).
    null_at: Vec<bool>,
    /// The move left out at each ply by a singular-extension search of the other moves.
    excluded: Vec<Option<Move>>,
    /// Double extensions on the line to each ply ([`Technique::DoubleExtensions`]).
    doubles: Vec<u8>,
    /// Correction history: per side to move and correction key ([`CORRECTIONS`] slots), the
    /// average of search result minus static evaluation, in 1/[`CORRECTION_GRAIN`] cp.
    corrections: Box<[i32]>,
    pv: Vec<Vec<Move>>,
    /// Per-ply move lists with ordering keys, reused so the search allocates nothing after
    /// warming up and keeps large lists off the stack.
    scratch: Vec<Vec<(i64, Move)>>,
    /// The evaluator of the variant last searched (built on its first search; `None` inside
    /// means the classic evaluation).
    evaluator: Option<(&'static str, Option<Evaluator>)>,
    /// Static evaluations (the weights evaluator's, mop-up included) by position hash ([`EVAL_CACHE`] slots,
    /// always replaced): iterative deepening and transpositions evaluate the same positions
    /// again, and a variant whose features walk every piece's attacks (Dai Mitregi, Gateway)
    /// spends most of its time there. The same scores, so the search is unchanged.
    eval_cache: Box<[Cell<(u64, i32)>]>,
}

/// Slots of the evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 15;

/// Slots of the correction history per side (a power of two).
const CORRECTIONS: usize = 1 << 14;

/// Fixed-point scale of the correction history's entries.
const CORRECTION_GRAIN: i32 = 256;

/// The largest correction, in centipawns.
const CORRECTION_MAX: i32 = 100;
/// An empty slot of the evaluation cache (no evaluation is this low).
const NO_CACHED: i32 = i32::MIN;

/// What the move loop needs to know about its node.
#[derive(Clone, Copy)]
struct Node {
    /// Expected to fail high ([`Searcher::negamax`]).
    cut_node: bool,
    /// The list holds only the table's move (known legal); the rest are generated if it
    /// does not cut.
    rest_pending: bool,
    depth: u32,
    ply: u32,
    in_check: bool,
    key: u64,
    eval: i32,
    improving: bool,
    /// The extension of the table's move (searched first) from the singular-extension
    /// search: 1 when singular, −1 when not singular but above beta by the table
    /// ([`Technique::NegativeExtensions`]), else 0.
    tt_extension: i32,
    /// The static evaluation before correction (`NO_EVAL` in check), and the correction
    /// history's slot (none in check or with the technique off).
    raw_eval: i32,
    slot: Option<usize>,
    /// On a principal variation now or when the table last stored the position
    /// ([`Technique::TtPv`]).
    tt_pv: bool,
}

/// History table size: (from, to) hashed into 2^16 counters.
const HISTORY: usize = 1 << 16;

/// Piece keys (moving kind and target cell, folded): the index of the capture and
/// continuation histories. 1024 holds every chess-sized board's kinds times cells exactly;
/// larger boards (Gateway's 180 cells, Dai Mitregi's 256) are hashed into it.
const PIECE_KEYS: usize = 1 << 10;

/// Captured-kind slots of the capture history: every kind, and one for "none" (a promotion
/// that captures nothing, a variant that does not say).
const CAPTURED_SLOTS: usize = MAX_KINDS + 1;

/// No piece key (a null move, the root's missing predecessor).
const NO_KEY: u16 = u16::MAX;

/// History scores stay within ±this (the "gravity" update pulls towards zero as they grow).
const HISTORY_MAX: i32 = 1 << 14;

/// The least depth at which [`Technique::ProbCut`] is tried.
const PROBCUT_DEPTH: u32 = 5;

/// Razoring's margin below alpha: `RAZOR_MARGIN + RAZOR_SLOPE·depth²` ([`Technique::Razoring`]).
const RAZOR_MARGIN: i32 = 300;
const RAZOR_SLOPE: i32 = 200;

/// How far below the singular bound (centipawns) the other moves must stay for a double
/// extension ([`Technique::DoubleExtensions`]).
const DOUBLE_MARGIN: i32 = 25;

/// The most double extensions on one line from the root.
const MAX_DOUBLES: u8 = 6;

/// How much shallower ProbCut's verifying search is than the node.
const PROBCUT_REDUCTION: u32 = 4;

/// How far a reduced search must beat the best score so far (plus two per ply of depth) for
/// its re-search to go a ply deeper ([`Technique::ResearchDepth`]).
const DEEPER_MARGIN: i32 = 40;

/// A reduced search that beats the best score so far by less than this is re-searched a
/// ply shallower ([`Technique::ResearchDepth`]).
const SHALLOWER_MARGIN: i32 = 10;

/// The depth of the full re-search of a reduced search that scored `score` against the
/// best score so far ([`Technique::ResearchDepth`]): a ply deeper than `new_depth` after a
/// wide overshoot, a ply shallower after a narrow one.
fn research_depth(new_depth: u32, score: i32, best_score: i32) -> u32 {
    if score > best_score + DEEPER_MARGIN + 2 * new_depth as i32 {
        new_depth + 1
    } else if score < best_score + SHALLOWER_MARGIN {
        new_depth.saturating_sub(1)
    } else {
        new_depth
    }
}

/// Deepest node where captures are pruned by futility ([`Technique::CaptureFutility`]).
const CAPTURE_FUTILITY_DEPTH: u32 = 6;

/// The margin of capture futility: a base and a slope per ply of depth, in centipawns.
const CAPTURE_FUTILITY_MARGIN: (i32, i32) = (200, 200);

/// Marks a ply whose static evaluation was not taken (in check).
const NO_EVAL: i32 = i32::MIN / 2;

/// Pulls a history score towards `bonus` (positive or negative), saturating at
/// [`HISTORY_MAX`].
fn update_history(h: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// [`update_history`] on a 16-bit table entry (the capture and continuation histories).
fn update_history_i16(h: &mut i16, bonus: i32) {
    let mut v = i32::from(*h);
    update_history(&mut v, bonus);
    *h = v as i16;
}

#[inline]
fn history_index(m: Move) -> usize {
    ((m.from().0 as usize) << 8 ^ m.to().0 as usize ^ (m.role().0 as usize) << 4) & (HISTORY - 1)
}

/// Bits below an ordering key that hold the move's place in the generated list (reversed),
/// so no two keys of a list are equal and taking the largest first, in whatever way, gives
/// the order of a stable sort: the same order as before picking became lazy.
const ORDER_SHIFT: u32 = 16;

/// The key of the move searched first (the table's move), above every shifted key.
const FIRST_KEY: i64 = i64::MAX;

/// Captures not yet checked by exchange are ordered above this (before the shift): above
/// the killers, which sit at `1 << 39`.
const WINNING_CAPTURES: i64 = 1 << 40;

/// How many moves are picked one at a time (selection) before the rest of the list is sorted
/// once: most cuts come within the first few moves, and the rest is then never ordered.
const LAZY_PICKS: usize = 3;

/// An ordering key with the move's place in the list below it.
#[inline]
fn order_key(key: i64, index: usize) -> i64 {
    (key << ORDER_SHIFT) | (0xFFFF - index.min(0xFFFF)) as i64
}

/// Whether a key is that of a capture ordered among the winning ones whose exchange has not
/// been evaluated yet (the table's move is searched first whatever its exchange).
#[inline]
fn unchecked_capture(key: i64) -> bool {
    key != FIRST_KEY && (key >> ORDER_SHIFT) > 1 << 39
}

/// The key of a capture found to lose material: after every quiet move, in the same order
/// among the losing captures.
#[inline]
fn losing_capture(key: i64) -> i64 {
    key - ((2 * WINNING_CAPTURES) << ORDER_SHIFT)
}

/// Puts the move with the largest key of `list[i..]` at `list[i]`: by selection for the
/// first [`LAZY_PICKS`] moves, then by sorting the rest once.
#[inline]
fn pick_largest(list: &mut [(i64, Move)], i: usize) {
    if i < LAZY_PICKS {
        let mut best = i;
        for j in i + 1..list.len() {
            if list[j].0 > list[best].0 {
                best = j;
            }
        }
        list.swap(i, best);
    } else if i == LAZY_PICKS {
        list[i..].sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
    }
}

impl Searcher {
    /// A searcher with a fresh table.
    pub fn new(config: SearchConfig) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(config.hash_mib),
            lmr: config.params.lmr_table(MAX_PLY),
            config,
            killers: vec![[Move::default(); 2]; MAX_PLY + 1],
            history: vec![0; HISTORY],
            counters: vec![Move::default(); HISTORY],
            capture_history: vec![0; PIECE_KEYS * CAPTURED_SLOTS].into_boxed_slice(),
            continuation: [
                vec![0; PIECE_KEYS * PIECE_KEYS].into_boxed_slice(),
                vec![0; PIECE_KEYS * PIECE_KEYS].into_boxed_slice(),
            ],
            line_moves: vec![Move::default(); MAX_PLY + 2],
            line_keys: vec![NO_KEY; MAX_PLY + 2],
            key_cells: 0,
            key_dense: false,
            values: [0; MAX_KINDS],
            pawn: 0,
            path: Vec::with_capacity(1024),
            nodes: 0,
            limits: Limits::default(),
            start: Instant::now(),
            stopped: false,
            stop: None,
            seldepth: 0,
            evals: vec![NO_EVAL; MAX_PLY + 2],
            null_at: vec![false; MAX_PLY + 2],
            excluded: vec![None; MAX_PLY + 2],
            doubles: vec![0; MAX_PLY + 2],
            corrections: vec![0; 2 * CORRECTIONS].into_boxed_slice(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            scratch: vec![Vec::new(); MAX_PLY + 2],
            evaluator: None,
            eval_cache: vec![Cell::new((0, NO_CACHED)); EVAL_CACHE].into_boxed_slice(),
        }
    }

    /// Late-move reduction in plies for a move at `depth` that is the `index`-th tried (both
    /// at least 1): `base + ln(depth) ln(index) / divisor` ([`Param::LmrBase`],
    /// [`Param::LmrDivisor`]; by default `0.75 + ln d ln i / 2.25`), the shape most modern
    /// alpha-beta engines use.
    fn lmr_reduction(&self, depth: u32, index: usize) -> i32 {
        i32::from(self.lmr[(depth as usize).min(MAX_PLY - 1)][index.min(63)])
    }

    /// The value of a search parameter.
    #[inline]
    fn param(&self, p: Param) -> i32 {
        self.config.params.get(p)
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Forgets everything learnt (between games), so each game is independent of the last.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers
            .iter_mut()
            .for_each(|k| *k = [Move::default(); 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.counters.iter_mut().for_each(|c| *c = Move::default());
        self.capture_history.iter_mut().for_each(|h| *h = 0);
        for t in &mut self.continuation {
            t.iter_mut().for_each(|h| *h = 0);
        }
        self.corrections.iter_mut().for_each(|c| *c = 0);
    }

    /// The correction history's slot for `pos`, when the technique is on.
    #[inline]
    fn correction_slot<G: Game>(&self, pos: &G) -> Option<usize> {
        self.on(Technique::CorrectionHistory).then(|| {
            pos.turn().index() * CORRECTIONS + (pos.correction_key() as usize & (CORRECTIONS - 1))
        })
    }

    /// The correction for a slot, in centipawns.
    #[inline]
    fn correction(&self, slot: Option<usize>) -> i32 {
        slot.map_or(0, |i| self.corrections[i] / CORRECTION_GRAIN)
    }

    /// Moves a slot's correction towards `result - raw` (the search's verdict against the
    /// static evaluation), by more the deeper the search was.
    fn update_correction(&mut self, slot: usize, result: i32, raw: i32, depth: u32) {
        let target = (result - raw).clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        let w = (depth as i32 + 1).min(16);
        let e = &mut self.corrections[slot];
        *e = (*e * (256 - w) + target * w) / 256;
    }

    /// The piece key of `m` at `pos`: its moving kind and target cell, dense where the
    /// variant's kinds times cells fit in [`PIECE_KEYS`], hashed otherwise (and from the
    /// move's cells where the variant does not report kinds).
    #[inline]
    fn piece_key<G: Game>(&self, pos: &G, m: Move) -> u16 {
        let to = m.to().0 as usize;
        let raw = match pos.moving_kind(m) {
            Some(k) if self.key_dense && to < self.key_cells => {
                return (k * self.key_cells + to) as u16
            }
            Some(k) => (k + 1) << 10 | to,
            None => (MAX_KINDS + 1 + m.from().0 as usize) << 10 | to,
        };
        ((raw as u32).wrapping_mul(0x9e37_79b1) >> (32 - PIECE_KEYS.trailing_zeros())) as u16
    }

    /// What a capture that promotes nothing wins outright: its victim's value. `None` for a
    /// promotion (it wins more than the victim) or a move that takes nothing: the bound both
    /// futility prunings of captures (delta pruning, [`Technique::CaptureFutility`]) add to
    /// the evaluation.
    #[inline]
    fn victim_value<G: Game>(&self, pos: &G, m: Move) -> Option<i32> {
        if m.kind() == MoveKind::Promotion {
            return None;
        }
        let k = pos.captured_kind(m)?;
        Some(self.values.get(k).copied().unwrap_or(0))
    }

    /// Index of a tactical move in the capture history.
    #[inline]
    fn capture_index<G: Game>(&self, pos: &G, m: Move) -> usize {
        let captured = pos
            .captured_kind(m)
            .map_or(MAX_KINDS, |k| k.min(MAX_KINDS - 1));
        self.piece_key(pos, m) as usize * CAPTURED_SLOTS + captured
    }

    /// The piece keys of the moves one and two plies before `ply` (`NO_KEY` where none).
    #[inline]
    fn continuation_context(&self, ply: u32) -> [u16; 2] {
        let p = ply as usize;
        [
            if p >= 1 {
                self.line_keys[p - 1]
            } else {
                NO_KEY
            },
            if p >= 2 {
                self.line_keys[p - 2]
            } else {
                NO_KEY
            },
        ]
    }

    /// The continuation-history score of a quiet move with piece key `key` after the
    /// moves of `context`.
    #[inline]
    fn continuation_score(&self, context: [u16; 2], key: u16) -> i32 {
        let mut sum = 0;
        for (table, &c) in self.continuation.iter().zip(&context) {
            if c != NO_KEY {
                sum += i32::from(table[c as usize * PIECE_KEYS + key as usize]);
            }
        }
        sum
    }

    /// A quiet move's history and, with `continuation`, its continuation score given the
    /// moves before (`context`); 0 without.
    fn quiet_scores<G: Game>(
        &self,
        pos: &G,
        m: Move,
        context: [u16; 2],
        continuation: bool,
    ) -> (i32, i32) {
        let c = if continuation {
            self.continuation_score(context, self.piece_key(pos, m))
        } else {
            0
        };
        (self.history[history_index(m)], c)
    }

    /// Applies `bonus` (with gravity) to the continuation histories of key `key`.
    fn update_continuation(&mut self, context: [u16; 2], key: u16, bonus: i32) {
        for (table, &c) in self.continuation.iter_mut().zip(&context) {
            if c != NO_KEY {
                update_history_i16(&mut table[c as usize * PIECE_KEYS + key as usize], bonus);
            }
        }
    }

    /// The countermove stored against the move played before `ply`, if any.
    #[inline]
    fn countermove(&self, ply: u32) -> Option<Move> {
        if ply == 0 || !self.on(Technique::CounterMove) {
            return None;
        }
        let prev = self.line_moves[ply as usize - 1];
        if prev == Move::default() {
            return None;
        }
        let c = self.counters[history_index(prev)];
        (c != Move::default()).then_some(c)
    }

    /// Whether a technique is on.
    #[inline]
    fn on(&self, t: Technique) -> bool {
        self.config.disabled & t as u64 == 0
    }

    /// Whether the side to move has material besides its cheapest kind (pawns) and royal
    /// pieces (worth 0): without it, zugzwang makes a null move's verdict unsafe.
    fn has_pieces<G: Game>(&self, pos: &G) -> bool {
        self.has_pieces_in(&pos.material(), pos.turn().index(), self.pawn_value())
    }

    /// The value of the cheapest kind worth anything (the variant's pawn); 0 when none is.
    fn pawn_value(&self) -> i32 {
        self.pawn
    }

    /// Whether `side` (0 White, 1 Black) has material of a kind worth more than `pawn`.
    fn has_pieces_in(&self, m: &Material, side: usize, pawn: i32) -> bool {
        self.values
            .iter()
            .enumerate()
            .any(|(k, &v)| v > pawn && m[side][k] > 0)
    }

    /// Builds the evaluator for `pos`'s variant unless it is already built; the configured
    /// material values override the weights' material. Weights that do not fit (which
    /// configuration loading refuses before any search) fall back to the classic evaluation.
    fn prepare_evaluator<G: Game>(&mut self, pos: &G) {
        let name = pos.variant_name();
        if matches!(&self.evaluator, Some((n, _)) if *n == name) {
            return;
        }
        let mut e = self.config.eval.evaluator::<G>().unwrap_or(None);
        if let Some(e) = &mut e {
            for (k, v) in self.config.values.iter().enumerate() {
                if let Some(v) = *v {
                    e.set_material(k, v);
                }
            }
        }
        self.evaluator = Some((name, e));
        self.eval_cache
            .iter()
            .for_each(|slot| slot.set((0, NO_CACHED)));
    }

    /// Static evaluation from the side to move's point of view.
    pub fn evaluate<G: Game>(&self, pos: &G) -> i32 {
        // Only the weights evaluator is cached: the classic one costs less than a lookup.
        let cached = matches!(&self.evaluator, Some((_, Some(_)))) && self.config.positional;
        let slot = cached.then(|| {
            let key = pos.hash();
            (key, &self.eval_cache[key as usize & (EVAL_CACHE - 1)])
        });
        if let Some((key, slot)) = slot {
            let (k, v) = slot.get();
            if k == key && v != NO_CACHED {
                return v;
            }
        }
        let mop_up = if self.on(Technique::MopUp) {
            self.mop_up(pos)
        } else {
            0
        };
        // Against a bare royal piece only the material and the mating net count (the
        // positional terms of a fitted evaluation were learnt from other positions, and in
        // Gateway they kept the strong side from driving a lone Emperor into a corner).
        let score = if mop_up != 0 && self.bare_royal(pos) {
            self.material_balance(pos) + mop_up
        } else {
            self.evaluate_position(pos) + mop_up
        };
        if let Some((key, slot)) = slot {
            slot.set((key, score));
        }
        score
    }

    /// The weights evaluation of `pos` split into feature groups (the UCI `eval` command);
    /// `None` where the configuration uses the classic evaluation.
    pub fn trace<G: Game>(&mut self, pos: &G) -> Option<crate::eval::Trace> {
        self.prepare_evaluator(pos);
        match &self.evaluator {
            Some((_, Some(e))) => Some(e.trace(pos)),
            _ => None,
        }
    }

    /// [`Searcher::evaluate`] scaled by the move-count clock ([`Technique::MoveRuleScaling`]):
    /// the score the search uses. The clock is not in the position's key, so the scaling
    /// comes after the evaluation cache.
    pub fn static_eval<G: Game>(&self, pos: &G) -> i32 {
        let score = self.evaluate(pos);
        let rule = pos.move_rule_plies();
        if rule == u32::MAX || !self.on(Technique::MoveRuleScaling) {
            return score;
        }
        let rule = rule as i64;
        let left = 2 * rule - (pos.halfmove_clock() as i64).min(rule);
        (score as i64 * left / (2 * rule)) as i32
    }

    /// The mop-up term from the side to move's point of view (see [`Technique::MopUp`]).
    /// A linear evaluation of cells cannot say it: the right cell for the lone royal piece's
    /// opponent depends on where the lone one stands. Without it the engine drew K+Q against
    /// K by the move rule (107 of 2400 chess games at 10,000 nodes a move). Up to 70 cp for
    /// the lone royal piece's distance from the centre and 70 for the royal pieces'
    /// closeness, whatever the board's size.
    fn mop_up<G: Game>(&self, pos: &G) -> i32 {
        let pawn = self.pawn_value();
        if pawn == 0 {
            return 0;
        }
        let m = pos.material();
        let total = |c: usize| -> i32 {
            self.values
                .iter()
                .enumerate()
                .map(|(k, &v)| m[c][k] as i32 * v)
                .sum()
        };
        let lead = total(0) - total(1);
        let (strong, weak) = if lead > 0 { (0, 1) } else { (1, 0) };
        if lead.abs() < 4 * pawn || self.has_pieces_in(&m, weak, pawn) {
            return 0;
        }
        let Some(r) = pos.royal_cells() else {
            return 0;
        };
        let (w, s) = (r.cells[weak], r.cells[strong]);
        let axes = [
            (w.0, s.0, r.dims.0),
            (w.1, s.1, r.dims.1),
            (w.2, s.2, r.dims.2),
        ]
        .map(|(w, s, n)| (i32::from(w), i32::from(s), i32::from(n)));
        // Twice the Manhattan distance from the centre (whole on boards of even size), the
        // Chebyshev distance between the royal pieces, the longest side; a flat board's one
        // level adds nothing.
        let centre: i32 = axes.iter().map(|&(w, _, n)| (2 * w - (n - 1)).abs()).sum();
        let apart = axes
            .iter()
            .map(|&(w, s, _)| (w - s).abs())
            .max()
            .unwrap_or(0);
        let widest = (axes.iter().map(|&(_, _, n)| n).max().unwrap_or(1) - 1).max(1);
        let span: i32 = axes.iter().map(|&(_, _, n)| n - 1).sum();
        let bonus = 70 * centre / span.max(1) + 70 * (widest - apart) / widest;
        if strong == pos.turn().index() {
            bonus
        } else {
            -bonus
        }
    }

    /// The evaluation proper: the variant's weights, or material plus the classic terms.
    fn evaluate_position<G: Game>(&self, pos: &G) -> i32 {
        if let Some((_, Some(e))) = &self.evaluator {
            if self.config.positional {
                return e.evaluate(pos);
            }
        }
        let mut score = self.material_balance(pos);
        if self.config.positional {
            score += pos.positional();
        }
        score
    }

    /// The material of the side to move less the other's, at the search's values.
    fn material_balance<G: Game>(&self, pos: &G) -> i32 {
        let m = pos.material();
        let us = pos.turn().index();
        self.values
            .iter()
            .enumerate()
            .map(|(k, v)| (m[us][k] as i32 - m[1 - us][k] as i32) * v)
            .sum()
    }

    /// Whether one side has nothing of any value left (its royal piece alone).
    /// The evaluation the pruning decisions use ([`Technique::TtEval`]): the table's score
    /// where it holds an exact score or a bound beyond `eval` on the side the bound says,
    /// otherwise `eval` (always with the technique off, in check, or for a mate score).
    fn tt_adjusted(&self, eval: i32, hit: Option<TtHit>) -> i32 {
        match hit {
            Some(h)
                if eval != NO_EVAL
                    && h.score.abs() < MATE_BOUND
                    && self.on(Technique::TtEval)
                    && match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => h.score > eval,
                        Bound::Upper => h.score < eval,
                    } =>
            {
                h.score
            }
            _ => eval,
        }
    }

    fn bare_royal<G: Game>(&self, pos: &G) -> bool {
        let m = pos.material();
        (0..2).any(|c| {
            self.values
                .iter()
                .enumerate()
                .all(|(k, &v)| v == 0 || m[c][k] == 0)
        })
    }

    /// A flag another thread may set to stop the search (checked every 1024 nodes); the
    /// search then returns its best move so far. `None` removes it.
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop = flag;
    }

    /// Searches `pos` within `limits`. `history` holds the hashes of the game's earlier
    /// positions (oldest first) for repetition detection.
    pub fn search<G: Game>(&mut self, pos: &G, history: &[u64], limits: Limits) -> SearchResult {
        self.search_reporting(pos, history, limits, &mut |_| {})
    }

    /// [`Searcher::search`], calling `report` with the result so far after every completed
    /// iteration (UCI `info` lines).
    pub fn search_reporting<G: Game>(
        &mut self,
        pos: &G,
        history: &[u64],
        limits: Limits,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        self.start = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.tt.new_search();
        let defaults = pos.material_kinds();
        for (k, v) in self.values.iter_mut().enumerate() {
            *v = self
                .config
                .values
                .get(k)
                .copied()
                .flatten()
                .or(defaults.get(k).map(|d| d.1))
                .unwrap_or(0);
        }
        self.pawn = self
            .values
            .iter()
            .copied()
            .filter(|&v| v > 0)
            .min()
            .unwrap_or(0);
        self.prepare_evaluator(pos);
        self.key_cells = pos.eval_cells();
        self.key_dense = self.key_cells > 0 && defaults.len() * self.key_cells <= PIECE_KEYS;
        self.path.clear();
        self.path.extend_from_slice(history);

        let mut root_moves = G::Moves::default();
        pos.legal_moves(&mut root_moves);
        let mut result = SearchResult {
            best: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            seconds: 0.0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            result.score = if pos.in_check() {
                -MATE
            } else {
                self.outcome_score(pos.stalemate(), pos.turn(), 0)
            };
            return result;
        }
        result.best = Some(root_moves.as_ref()[0]);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            let full = (-MATE - 1, MATE + 1);
            let (score, best) = if depth >= 4
                && self.on(Technique::Aspiration)
                && result.score.abs() < MATE_BOUND
            {
                // Aspiration: a narrow window around the last score, widened on a miss.
                let mut w = self.param(Param::AspirationWindow);
                loop {
                    let window = (result.score - w, result.score + w);
                    let (sc, bm) = self.root(pos, depth, &root_moves, window);
                    if self.stopped || (sc > window.0 && sc < window.1) {
                        break (sc, bm);
                    }
                    w *= 3;
                    if w > 800 {
                        break self.root(pos, depth, &root_moves, full);
                    }
                }
            } else {
                self.root(pos, depth, &root_moves, full)
            };
            if self.stopped && depth > 1 {
                // A partial iteration counts only if it found a better move than the last.
                if let Some(b) = best {
                    if score > result.score && Some(b) != result.best {
                        result.best = Some(b);
                        result.score = score;
                        result.pv = vec![b];
                    }
                }
                break;
            }
            result.best = best.or(result.best);
            result.score = score;
            result.depth = depth;
            result.pv = self.pv[0].clone();
            result.nodes = self.nodes;
            result.seldepth = self.seldepth;
            result.seconds = self.start.elapsed().as_secs_f64();
            report(&result);
            if self.stopped || score.abs() >= MATE_BOUND && depth as i32 > MATE - score.abs() {
                break;
            }
            if let Some(t) = limits.soft_time {
                // Another iteration costs several times the last: do not start one we
                // cannot finish.
                if self.start.elapsed() > t {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result.seldepth = self.seldepth.max(result.depth);
        result.seconds = self.start.elapsed().as_secs_f64();
        result
    }

    /// Seeded bonus of a root move, for game variety.
    fn jitter(&self, m: Move) -> i32 {
        if self.config.randomize <= 0 {
            return 0;
        }
        let mut x = crate::zobrist::SplitMix64(
            self.config.seed ^ (m.raw() as u64).wrapping_mul(0x9e37_79b9),
        );
        (x.next() % (self.config.randomize as u64 + 1)) as i32
    }

    /// One iteration at the root within `window`; returns the score (a bound when it falls
    /// outside the window) and the best move found (`None` when every move failed low).
    fn root<G: Game>(
        &mut self,
        pos: &G,
        depth: u32,
        moves: &G::Moves,
        window: (i32, i32),
    ) -> (i32, Option<Move>) {
        let tt_move = self.tt.probe(pos.hash(), 0).and_then(|h| h.mv);
        // The root keeps its own list: ply 0's scratch is reused by nothing else, but the
        // root loop outlives every deeper call.
        let mut list = self.ordered(pos, moves.as_ref(), tt_move, 0);
        self.sort_all(pos, &mut list);
        let ordered: Vec<Move> = list.into_iter().map(|e| e.1).collect();
        let (mut alpha, beta) = window;
        let mut best = None;
        self.path.push(pos.hash());
        for (i, &m) in ordered.iter().enumerate() {
            let bonus = self.jitter(m);
            self.record_line(pos, 0, m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            let ext = u32::from(child.in_check());
            let mut score;
            if i == 0 {
                score = -self.negamax(
                    &child,
                    depth - 1 + ext,
                    (-(beta - bonus), -(alpha - bonus)),
                    1,
                    false,
                ) + bonus;
            } else {
                score = -self.negamax(
                    &child,
                    depth - 1 + ext,
                    (-(alpha - bonus) - 1, -(alpha - bonus)),
                    1,
                    true,
                ) + bonus;
                if score > alpha && !self.stopped {
                    score = -self.negamax(
                        &child,
                        depth - 1 + ext,
                        (-(beta - bonus), -(alpha - bonus)),
                        1,
                        false,
                    ) + bonus;
                }
            }
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some(m);
                let tail = self.pv[1].clone();
                self.pv[0].clear();
                self.pv[0].push(m);
                self.pv[0].extend(tail);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.path.pop();
        if let Some(b) = best {
            let bound = if alpha >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt.store(
                pos.hash(),
                0,
                TtHit::new(depth, alpha, bound, Some(b), true),
            );
        }
        (alpha, best)
    }

    #[inline]
    fn check_limits(&mut self) {
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        if self.nodes & 1023 == 0 {
            if let Some(t) = self.limits.movetime {
                if self.start.elapsed() >= t {
                    self.stopped = true;
                }
            }
            if self
                .stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                self.stopped = true;
            }
        }
    }

    /// Score of a decided game for the side to move at `ply`.
    fn outcome_score(&self, o: Outcome, turn: Color, ply: u32) -> i32 {
        match o {
            Outcome::Draw { .. } => 0,
            Outcome::Decisive { winner, .. } if winner == turn => MATE - ply as i32,
            Outcome::Decisive { .. } => -MATE + ply as i32,
        }
    }

    /// Draw by repetition, move rule or dead material, from the search path.
    fn is_draw<G: Game>(&self, pos: &G) -> bool {
        pos.halfmove_clock() >= pos.move_rule_plies()
            || (pos.repetition_draw() && repetitions(pos, &self.path) >= 1)
            || pos.insufficient_material()
    }

    /// The main search of `pos` to `depth` in the window (`alpha`, `beta`). `cut_node`: a
    /// null-window node expected to fail high (the reduced reply to a late move, or the
    /// first reply at an expected all node), which [`Technique::CutNodeReductions`] reduces
    /// more.
    fn negamax<G: Game>(
        &mut self,
        pos: &G,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: u32,
        cut_node: bool,
    ) -> i32 {
        self.pv[ply as usize].clear();
        // A draw by the rules is a draw at any remaining depth: checked before the quiescence
        // search takes over, so a repetition one quiet move away is seen even where the
        // iteration (or a reduction) leaves no depth. Without this a side far ahead at a
        // shallow depth walked into the opponent's repetition.
        if let Some(o) = pos.variant_outcome() {
            return self.outcome_score(o, pos.turn(), ply);
        }
        if self.is_draw(pos) {
            return 0;
        }
        if depth == 0 || ply as usize >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        // Mate distance pruning.
        let alpha0 = alpha.max(-MATE + ply as i32);
        let beta0 = beta.min(MATE - ply as i32 - 1);
        if alpha0 >= beta0 {
            return alpha0;
        }
        let key = pos.hash();
        let pv_node = beta - alpha > 1;
        let p = ply as usize;
        // Children other than the move loop's (the null move, ProbCut) inherit the count.
        self.doubles[p + 1] = self.doubles[p];
        // In a singular-extension search the table's entry is this node's own, with its
        // best move: it neither cuts nor is replaced.
        let excluded = self.excluded[p];
        let hit = self.tt.probe(key, ply);
        if let Some(h) = hit {
            if !pv_node && excluded.is_none() && h.depth >= depth && h.cuts(alpha, beta) {
                return h.score;
            }
        }
        let in_check = pos.in_check();
        // Static evaluation (corrected by what searches of positions with the same
        // correction key found) and whether it improved on two plies ago (same side to move).
        let (raw_eval, slot, eval) = if in_check {
            (NO_EVAL, None, NO_EVAL)
        } else {
            let (raw, slot) = (self.static_eval(pos), self.correction_slot(pos));
            (raw, slot, raw + self.correction(slot))
        };
        self.evals[p] = eval;
        let improving =
            !in_check && p >= 2 && self.evals[p - 2] != NO_EVAL && eval > self.evals[p - 2];
        if !pv_node && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND {
            let eval = self.tt_adjusted(eval, hit);
            // Reverse futility: far enough above beta that a quiet reply will not bring it
            // back at this small depth.
            let margin = self.param(Param::ReverseFutilityMargin) * depth as i32
                - if improving {
                    self.param(Param::ReverseFutilityImproving)
                } else {
                    0
                };
            if depth <= 6 && eval - margin >= beta && self.on(Technique::ReverseFutility) {
                return if self.on(Technique::ReverseFutilityMean) {
                    (eval + beta) / 2
                } else {
                    eval
                };
            }
            // Razoring: so far below alpha that only a capture could help; ask the
            // quiescence search whether one does.
            let d = depth as i32;
            if depth <= 3
                && eval + RAZOR_MARGIN + RAZOR_SLOPE * d * d < alpha
                && alpha.abs() < MATE_BOUND
                && self.on(Technique::Razoring)
            {
                let score = self.quiesce(pos, alpha - 1, alpha, ply);
                if self.stopped {
                    return 0;
                }
                if score < alpha {
                    return score;
                }
            }
            // Null move: if passing still beats beta, a real move will too. Not twice in a
            // row, and not without pieces besides pawns (zugzwang).
            if depth >= 3
                && eval >= beta
                && !self.null_at[p]
                && self.on(Technique::NullMove)
                && self.has_pieces(pos)
            {
                if let Some(null) = pos.null_move() {
                    let r = self.param(Param::NullMoveBase) as u32
                        + depth / self.param(Param::NullMoveDepthDivisor) as u32
                        + ((eval - beta) / self.param(Param::NullMoveEvalDivisor)).clamp(0, 2)
                            as u32;
                    self.null_at[p + 1] = true;
                    self.line_moves[p] = Move::default();
                    self.line_keys[p] = NO_KEY;
                    self.path.push(key);
                    let score = -self.negamax(
                        &null,
                        depth.saturating_sub(1 + r),
                        (-beta, -beta + 1),
                        ply + 1,
                        !cut_node,
                    );
                    self.path.pop();
                    self.null_at[p + 1] = false;
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }
        let tt_move = hit.and_then(|h| h.mv);
        let probcut = !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= PROBCUT_DEPTH
            && beta.abs() < MATE_BOUND
            && self.on(Technique::ProbCut)
            && self.on(Technique::See);
        // The table's move, where the variant can tell it is legal here without generating
        // every move, is searched before the rest are generated ([`Searcher::negamax_moves`]):
        // a node it cuts generates nothing.
        let tt_legal = tt_move.and_then(|m| pos.is_legal_move(m));
        let lazy = tt_legal == Some(true)
            && !probcut
            && excluded.is_none()
            && self.on(Technique::TtMoveFirst);
        let mut moves = G::Moves::default();
        if !lazy {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                return if in_check {
                    -MATE + ply as i32
                } else {
                    self.outcome_score(pos.stalemate(), pos.turn(), ply)
                };
            }
        }
        if probcut {
            let probcut_beta = beta + 2 * self.pawn_value();
            // Not when the table already says this position stays below the raised bound.
            let refuted = hit.is_some_and(|h| {
                h.depth + 3 >= depth && h.bound != Bound::Lower && h.score < probcut_beta
            });
            if !refuted {
                if let Some(score) = self.probcut(
                    pos,
                    moves.as_ref(),
                    depth,
                    (probcut_beta, eval),
                    ply,
                    cut_node,
                ) {
                    return score;
                }
                if self.stopped {
                    return 0;
                }
            }
        }
        // Internal iterative reduction: with no move from the table, this node was not
        // searched before; search it a ply shallower (the next iteration fills the table).

        let depth = if tt_move.is_none() && depth >= 4 && self.on(Technique::IterativeReduction) {
            depth - 1
        } else {
            depth
        };
        // Singular extension: is the table's move the only good one here?
        let mut tt_extension = 0;
        if let (Some(h), Some(m)) = (hit, tt_move) {
            if depth >= 6
                && excluded.is_none()
                && h.depth + 3 >= depth
                && h.bound != Bound::Upper
                && h.score.abs() < MATE_BOUND
                && self.on(Technique::SingularExtensions)
                && tt_legal.unwrap_or_else(|| moves.as_ref().contains(&m))
            {
                let singular_beta = h.score - 2 * depth as i32;
                self.excluded[p] = Some(m);
                let window = (singular_beta - 1, singular_beta);
                let score = self.negamax(pos, depth / 2, window, ply, cut_node);
                self.excluded[p] = None;
                if self.stopped {
                    return 0;
                }
                // The search without the table's move is fail-soft: how far below the bound
                // the other moves stay says how singular the table's move is.
                if score < singular_beta {
                    tt_extension = if !pv_node
                        && score < singular_beta - DOUBLE_MARGIN
                        && self.doubles[p] < MAX_DOUBLES
                        && self.on(Technique::DoubleExtensions)
                    {
                        2
                    } else {
                        1
                    };
                } else if singular_beta >= beta {
                    // Multi-cut: the table's move and another beat beta.
                    return singular_beta;
                } else if h.score >= beta && self.on(Technique::NegativeExtensions) {
                    tt_extension = -1;
                }
            }
        }
        let mut list = match tt_move.filter(|_| lazy) {
            Some(m) => {
                let mut list = std::mem::take(&mut self.scratch[p]);
                list.clear();
                list.push((FIRST_KEY, m));
                list
            }
            None => self.ordered(pos, moves.as_ref(), tt_move, ply),
        };
        let node = Node {
            rest_pending: lazy,
            depth,
            ply,
            in_check,
            key,
            eval,
            improving,
            tt_extension,
            raw_eval,
            slot,
            cut_node,
            tt_pv: pv_node || hit.is_some_and(|h| h.pv),
        };
        let score = self.negamax_moves(pos, &mut list, node, alpha, beta);
        self.scratch[ply as usize] = list;
        score
    }

    /// ProbCut's captures at a node of `depth` (at least [`PROBCUT_DEPTH`]): each capture
    /// whose exchange lifts `eval` to `probcut_beta`, best victim first, is searched by the
    /// quiescence search and, if that holds, [`PROBCUT_REDUCTION`] plies shallower against
    /// the raised bound. The score of the first that holds (stored in the table as a lower
    /// bound), or `None`.
    fn probcut<G: Game>(
        &mut self,
        pos: &G,
        moves: &[Move],
        depth: u32,
        (probcut_beta, eval): (i32, i32),
        ply: u32,
        cut_node: bool,
    ) -> Option<i32> {
        let p = ply as usize;
        let mut list = std::mem::take(&mut self.scratch[p]);
        list.clear();
        for &m in moves {
            if pos.is_tactical(m)
                && pos.see_at_least(m, &self.values, probcut_beta - eval) == Some(true)
            {
                list.push((
                    order_key(pos.tactical_order(m, &self.values) as i64, list.len()),
                    m,
                ));
            }
        }
        let key = pos.hash();
        let mut found = None;
        self.path.push(key);
        for i in 0..list.len() {
            pick_largest(&mut list, i);
            let m = list[i].1;
            self.record_line(pos, ply, m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            let bounds = (-probcut_beta, -probcut_beta + 1);
            let mut score = -self.quiesce(&child, bounds.0, bounds.1, ply + 1);
            if score >= probcut_beta && !self.stopped {
                let reduced = depth - PROBCUT_REDUCTION;
                score = -self.negamax(&child, reduced, bounds, ply + 1, !cut_node);
            }
            if self.stopped {
                break;
            }
            if score >= probcut_beta {
                let result = TtHit::new(
                    depth - (PROBCUT_REDUCTION - 1),
                    score,
                    Bound::Lower,
                    Some(m),
                    false,
                );
                self.tt.store(key, ply, result);
                found = Some(score);
                break;
            }
        }
        self.path.pop();
        self.scratch[p] = list;
        found
    }

    /// Records `m` as the move played at `ply` (the countermove and continuation contexts of
    /// the plies below) and returns its piece key: computed only when the continuation
    /// history, which alone reads it, is on.
    fn record_line<G: Game>(&mut self, pos: &G, ply: u32, m: Move) -> u16 {
        let key = if self.on(Technique::ContinuationHistory) {
            self.piece_key(pos, m)
        } else {
            NO_KEY
        };
        self.line_moves[ply as usize] = m;
        self.line_keys[ply as usize] = key;
        key
    }

    /// Whether the checking move `m` is searched a ply deeper: every check, or with
    /// [`Technique::CheckExtensionSee`] those whose exchange does not lose material.
    fn extends_check<G: Game>(&self, pos: &G, m: Move) -> bool {
        !(self.on(Technique::CheckExtensionSee)
            && self.on(Technique::See)
            && pos.see_at_least(m, &self.values, 0) == Some(false))
    }

    /// The move loop of [`Searcher::negamax`], over moves already ordered.
    fn negamax_moves<G: Game>(
        &mut self,
        pos: &G,
        list: &mut Vec<(i64, Move)>,
        node: Node,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let Node {
            depth,
            ply,
            in_check,
            key,
            eval,
            improving,
            tt_extension,
            raw_eval,
            slot,
            cut_node,
            rest_pending,
            tt_pv,
        } = node;
        let excluded = self.excluded[ply as usize];
        let pv_node = beta - alpha > 1;
        self.path.push(key);
        let mut best_score = -MATE - 1;
        let mut best_move = None;
        let original_alpha = alpha;
        let mut quiets_tried: usize = 0;
        let mut quiets: [(Move, u16); 64] = [(Move::default(), NO_KEY); 64];
        let mut captures_tried: usize = 0;
        let mut captures: [usize; 32] = [0; 32];
        let killers = self.killers[ply as usize];
        let continuation = self.on(Technique::ContinuationHistory);
        let capture_history = self.on(Technique::CaptureHistory);
        let context = self.continuation_context(ply);
        let see_pruning = self.on(Technique::See) && self.on(Technique::SeePruning);
        let history_pruning =
            self.on(Technique::HistoryPruning) && self.on(Technique::HistoryGravity);
        let pawn = self.pawn_value();
        let capture_reductions = self.on(Technique::CaptureReductions);
        let reduced_depth_pruning = self.on(Technique::ReducedDepthPruning);
        let capture_futility = self.on(Technique::CaptureFutility);
        let deeper_or_shallower = self.on(Technique::ResearchDepth);
        for i in 0.. {
            if i == 1 && rest_pending {
                // The table's move did not cut: the rest now.
                self.append_rest(pos, list, ply);
            }
            if i >= list.len() {
                break;
            }
            self.next_move(pos, list, i);
            let (order, m) = list[i];
            if Some(m) == excluded {
                continue;
            }
            let tactical = pos.is_tactical(m);
            // The depth the pruning of a quiet move goes by: the node's, or with
            // reduced-depth pruning the one its late-move reduction would leave.
            // A quiet move's history and continuation scores, read once for both the pruning
            // depth and the reduction.
            let mut quiet_scores = None;
            let prune_depth = if reduced_depth_pruning && !tactical && i > 0 && !pv_node {
                let (h, c) = *quiet_scores
                    .get_or_insert_with(|| self.quiet_scores(pos, m, context, continuation));
                let r = self.lmr_reduction(depth, i + 1) + i32::from(!improving)
                    - (h + c) / HISTORY_MAX;
                (depth as i32 - r.max(0)).max(1) as u32
            } else {
                depth
            };
            // Pruning before the move is played, at small depths away from the principal
            // variation, once a move has been searched and no mate is in sight.
            if !pv_node && !in_check && i > 0 && prune_depth <= 6 && best_score > -MATE_BOUND {
                let d = prune_depth as i32;
                // SEE pruning: a move that loses material by exchange beyond a margin
                // growing with depth.
                if see_pruning {
                    let threshold = if tactical {
                        -pawn * d
                    } else {
                        -pawn * d * d / 4
                    };
                    if pos.see_at_least(m, &self.values, threshold) == Some(false) {
                        continue;
                    }
                }
                // History pruning: a quiet move that has failed often elsewhere.
                if history_pruning
                    && !tactical
                    && depth <= 4
                    && m != killers[0]
                    && m != killers[1]
                    && self.history[history_index(m)] < -(HISTORY_MAX / 8) * d
                {
                    continue;
                }
            }
            let piece_key = self.record_line(pos, ply, m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            let gives_check = child.in_check();
            let quiet = !tactical && !gives_check;
            // Futility of a capture: even its victim would leave the static evaluation too
            // far below alpha.
            if capture_futility
                && tactical
                && !gives_check
                && !pv_node
                && !in_check
                && i > 0
                && depth <= CAPTURE_FUTILITY_DEPTH
                && eval != NO_EVAL
                && best_score > -MATE_BOUND
            {
                if let Some(victim) = self.victim_value(pos, m) {
                    let (base, slope) = CAPTURE_FUTILITY_MARGIN;
                    if eval + base + slope * depth as i32 + victim <= alpha {
                        continue;
                    }
                }
            }
            // Pruning of late quiet moves at small depths, once a move has been searched
            // and no mate is in sight.
            if quiet
                && !pv_node
                && !in_check
                && i > 0
                && best_score > -MATE_BOUND
                && self.on(Technique::LatePruning)
            {
                // Late-move pruning: enough quiet moves tried.
                let limit = (self.param(Param::LatePruningBase) as u32 + depth * depth) as usize
                    / if improving { 1 } else { 2 };
                if depth <= 5 && quiets_tried >= limit {
                    continue;
                }
                // Futility: the static evaluation is too far below alpha for a quiet move.
                if prune_depth <= 5
                    && eval != NO_EVAL
                    && eval
                        + self.param(Param::FutilityBase)
                        + self.param(Param::FutilitySlope) * prune_depth as i32
                        <= alpha
                {
                    continue;
                }
            }
            // The table's move takes the singular search's extension; otherwise a check
            // that keeps material is searched a ply deeper.
            let ext = if order == FIRST_KEY && tt_extension != 0 {
                tt_extension
            } else {
                i32::from(gives_check && self.extends_check(pos, m))
            };
            let new_depth = (depth as i32 - 1 + ext).max(0) as u32;
            self.doubles[ply as usize + 1] = self.doubles[ply as usize] + u8::from(ext == 2);
            let mut score;
            if i == 0 {
                // The first reply of a principal-variation node is one too; that of an
                // expected cut node is expected to be an all node, and the other way round.
                let child_cut = !pv_node && !cut_node;
                score = -self.negamax(&child, new_depth, (-beta, -alpha), ply + 1, child_cut);
            } else {
                // Late quiet moves are searched shallower first, by the log-log table,
                // less for killers and well-scored history, more when not improving.
                let mut r = 0;
                if !self.on(Technique::LogReductions) {
                    r = i32::from(depth >= 3 && i >= 4 && quiet && !in_check);
                } else if depth >= 3 && i >= 2 && quiet && !in_check {
                    r = self.lmr_reduction(depth, i + 1);
                    if pv_node || (tt_pv && self.on(Technique::TtPv)) {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if m == killers[0] || m == killers[1] {
                        r -= 1;
                    }
                    if cut_node && self.on(Technique::CutNodeReductions) {
                        r += 1;
                    }
                    let (h, c) = *quiet_scores
                        .get_or_insert_with(|| self.quiet_scores(pos, m, context, continuation));
                    let history = if self.on(Technique::HistoryGravity) {
                        h
                    } else {
                        0
                    };
                    if continuation {
                        r -= (history + c) / HISTORY_MAX;
                    } else {
                        r -= history / (HISTORY_MAX / 2);
                    }
                    r = r.clamp(0, new_depth as i32 - 1);
                } else if capture_reductions
                    && depth >= 3
                    && tactical
                    && order < 0
                    && !gives_check
                    && !in_check
                {
                    // A losing capture (its order key is below every quiet move's).
                    r = (self.lmr_reduction(depth, i + 1) - 1).clamp(1, new_depth as i32 - 1);
                }
                let reduced = new_depth - r as u32;
                let null_window = (-alpha - 1, -alpha);
                // A reduced reply is expected to cut (the move is expected to fail low).
                let child_cut = r > 0 || !cut_node;
                score = -self.negamax(&child, reduced, null_window, ply + 1, child_cut);
                if score > alpha && r > 0 {
                    // How far the reduced search overshot sets the re-search's depth.
                    let full = if deeper_or_shallower {
                        research_depth(new_depth, score, best_score)
                    } else {
                        new_depth
                    };
                    if full > reduced {
                        score = -self.negamax(&child, full, null_window, ply + 1, !cut_node);
                    }
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, new_depth, (-beta, -alpha), ply + 1, false);
                }
            }
            if self.stopped {
                self.path.pop();
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply as usize + 1);
                    let line = &mut head[ply as usize];
                    line.clear();
                    line.push(m);
                    line.extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        let bonus = (depth * depth) as i32 * 16;
                        if !tactical {
                            let k = &mut self.killers[ply as usize];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                            // Countermove: this move refuted the one before it.
                            if ply >= 1 && self.on(Technique::CounterMove) {
                                let prev = self.line_moves[ply as usize - 1];
                                if prev != Move::default() {
                                    self.counters[history_index(prev)] = m;
                                }
                            }
                            // History with gravity: the cut move gains, the quiet moves
                            // tried before it lose.
                            if self.on(Technique::HistoryGravity) {
                                update_history(&mut self.history[history_index(m)], bonus);
                                for &(q, _) in &quiets[..quiets_tried.min(64)] {
                                    update_history(&mut self.history[history_index(q)], -bonus);
                                }
                            } else {
                                let h = &mut self.history[history_index(m)];
                                *h = (*h + (depth * depth) as i32).min(1 << 20);
                            }
                            // The same, given the moves one and two plies before.
                            if continuation {
                                self.update_continuation(context, piece_key, bonus);
                                for &(_, q) in &quiets[..quiets_tried.min(64)] {
                                    self.update_continuation(context, q, -bonus);
                                }
                            }
                        }
                        // Capture history: a capture that cut gains; the captures tried
                        // before the cut move lose.
                        if capture_history {
                            if tactical {
                                let i = self.capture_index(pos, m);
                                update_history_i16(&mut self.capture_history[i], bonus);
                            }
                            for &c in &captures[..captures_tried.min(32)] {
                                update_history_i16(&mut self.capture_history[c], -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if !tactical {
                if quiets_tried < 64 {
                    quiets[quiets_tried] = (m, piece_key);
                }
                quiets_tried += 1;
            } else if capture_history {
                if captures_tried < 32 {
                    captures[captures_tried] = self.capture_index(pos, m);
                }
                captures_tried += 1;
            }
        }
        self.path.pop();
        if excluded.is_some() {
            // Fail-soft where a move was searched (how far below the singular bound the
            // others stay); alpha where every move but the excluded one was pruned.
            return if best_move.is_some() {
                best_score
            } else {
                original_alpha
            };
        }
        let bound = Bound::of(best_score, original_alpha, beta);
        self.tt.store(
            key,
            ply,
            TtHit::new(depth, best_score, bound, best_move, tt_pv),
        );
        // The correction history learns from a quiet best move (or none) whose result the
        // bound does not leave on the static evaluation's side.
        if let Some(slot) = slot {
            if best_move.is_none_or(|m| !pos.is_tactical(m))
                && best_score.abs() < MATE_BOUND
                && !(bound == Bound::Lower && best_score <= raw_eval)
                && !(bound == Bound::Upper && best_score >= raw_eval)
            {
                self.update_correction(slot, best_score, raw_eval, depth);
            }
        }
        best_score
    }

    fn quiesce<G: Game>(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.seldepth = self.seldepth.max(ply);
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if let Some(o) = pos.variant_outcome() {
            return self.outcome_score(o, pos.turn(), ply);
        }
        let in_check = pos.in_check();
        if ply as usize >= MAX_PLY {
            return self.static_eval(pos);
        }
        let table = self.on(Technique::QuiescenceTable);
        let key = pos.hash();
        let hit = if table { self.tt.probe(key, ply) } else { None };
        if let Some(h) = hit {
            if beta - alpha == 1 && h.cuts(alpha, beta) {
                return h.score;
            }
        }
        // A deeper result of the main search for this position is not replaced.
        let store = table && hit.is_none_or(|h| h.depth == 0);
        let alpha_in = alpha;
        let mut best = -MATE + ply as i32;
        // Stand pat before any move is generated: most quiescence nodes end here, and a
        // stalemate behind a cut-off stand-pat score is left to the main search.
        if !in_check {
            let slot = self.correction_slot(pos);
            let stand = self.static_eval(pos) + self.correction(slot);
            if stand >= beta {
                if store {
                    self.tt
                        .store(key, ply, TtHit::new(0, stand, Bound::Lower, None, false));
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut moves = G::Moves::default();
        if !pos.quiescence_moves(&mut moves) {
            return if in_check {
                -MATE + ply as i32
            } else {
                self.outcome_score(pos.stalemate(), pos.turn(), ply)
            };
        }
        // In check every evasion is searched; otherwise only material-changing moves, most
        // valuable victim first, less those that lose material by exchange.
        let see = !in_check && self.on(Technique::See);
        // Delta pruning: the most a capture can lift the stand-pat score to.
        let delta = (!in_check && self.on(Technique::DeltaPruning))
            .then(|| best.saturating_add(2 * self.pawn_value()));
        let mut list = std::mem::take(&mut self.scratch[ply as usize]);
        list.clear();
        for &m in moves.as_ref() {
            if pos.is_tactical(m) {
                if let Some(base) = delta {
                    if let Some(victim) = self.victim_value(pos, m) {
                        if base.saturating_add(victim) <= alpha {
                            continue;
                        }
                    }
                }
                let key = order_key(pos.tactical_order(m, &self.values) as i64, list.len());
                list.push((key, m));
            } else if in_check {
                // Quiet evasions after every capture.
                list.push((order_key(-WINNING_CAPTURES, list.len()), m));
            }
        }
        // The stored best capture first.
        if let Some(first) = hit.and_then(|h| h.mv) {
            if let Some(e) = list.iter_mut().find(|e| e.1 == first) {
                e.0 = FIRST_KEY;
            }
        }
        let (score, best_move) = self.quiesce_moves(pos, &mut list, see, (alpha, beta), ply, best);
        self.scratch[ply as usize] = list;
        if store && !self.stopped {
            let bound = Bound::of(score, alpha_in, beta);
            self.tt
                .store(key, ply, TtHit::new(0, score, bound, best_move, false));
        }
        score
    }

    /// The move loop of [`Searcher::quiesce`] in the window `(alpha, beta)`: the best score,
    /// and the move that made it when a move beat the stand-pat score. With `see`, captures
    /// that lose material by exchange are left out.
    fn quiesce_moves<G: Game>(
        &mut self,
        pos: &G,
        list: &mut [(i64, Move)],
        see: bool,
        (mut alpha, beta): (i32, i32),
        ply: u32,
        mut best: i32,
    ) -> (i32, Option<Move>) {
        let mut best_move = None;
        for i in 0..list.len() {
            pick_largest(list, i);
            let m = list[i].1;
            // A capture that loses material by exchange is left out, checked only when it
            // comes up.
            if see && pos.see_at_least(m, &self.values, 0) == Some(false) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return (0, None);
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_move)
    }

    /// Generates the moves of `pos` and adds them to `list`, which holds the table's move
    /// alone (already searched), in their order but for that move, which stays where it is.
    /// The other moves' keys keep their order among themselves, so the search takes them as
    /// it would had they been generated with it.
    fn append_rest<G: Game>(&mut self, pos: &G, list: &mut Vec<(i64, Move)>, ply: u32) {
        let first = list[0].1;
        let mut moves = G::Moves::default();
        pos.legal_moves(&mut moves);
        self.order_into(pos, moves.as_ref(), Some(first), ply, list);
        if let Some(again) = list[1..].iter().position(|e| e.1 == first) {
            list.swap_remove(again + 1);
        }
    }

    /// Orders moves: TT move, captures (MVV-LVA plus capture history), killers, the
    /// countermove, quiet moves by history plus continuation history, then the captures that
    /// lose material by static exchange. The
    /// list is this ply's scratch buffer (allocated once, reused), which the caller puts back.
    fn ordered<G: Game>(
        &mut self,
        pos: &G,
        moves: &[Move],
        tt_move: Option<Move>,
        ply: u32,
    ) -> Vec<(i64, Move)> {
        let mut list = std::mem::take(&mut self.scratch[ply as usize]);
        list.clear();
        self.order_into(pos, moves, tt_move, ply, &mut list);
        list
    }

    /// Appends `moves` to `list` with their ordering keys ([`Searcher::ordered`]).
    fn order_into<G: Game>(
        &self,
        pos: &G,
        moves: &[Move],
        tt_move: Option<Move>,
        ply: u32,
        list: &mut Vec<(i64, Move)>,
    ) {
        let killers = self.killers[ply as usize];
        let counter = self.countermove(ply);
        let capture_history = self.on(Technique::CaptureHistory);
        let context = if self.on(Technique::ContinuationHistory) {
            self.continuation_context(ply)
        } else {
            [NO_KEY; 2]
        };
        for &m in moves {
            if Some(m) == tt_move {
                list.push((FIRST_KEY, m));
                continue;
            }
            let key = if pos.is_tactical(m) {
                let mut order = pos.tactical_order(m, &self.values) as i64;
                if capture_history {
                    order += i64::from(self.capture_history[self.capture_index(pos, m)]) / 8;
                }
                // Among the winning captures until its exchange is evaluated, when it comes
                // up ([`Searcher::next_move`]); a losing one then goes after every quiet move.
                WINNING_CAPTURES + order
            } else if m == killers[0] {
                1 << 39
            } else if m == killers[1] {
                (1 << 39) - 1
            } else if Some(m) == counter {
                (1 << 39) - 2
            } else {
                let mut h = self.history[history_index(m)] as i64;
                if context != [NO_KEY; 2] {
                    h += i64::from(self.continuation_score(context, self.piece_key(pos, m)));
                }
                h
            };
            list.push((order_key(key, list.len()), m));
        }
    }

    /// Puts the next move to search at `list[i]` ([`pick_largest`]). With SEE on, a capture
    /// that comes up among the winning ones has its exchange evaluated then, and goes after
    /// every quiet move if it loses material: most nodes cut before the later captures' exchanges are needed.
    fn next_move<G: Game>(&self, pos: &G, list: &mut [(i64, Move)], i: usize) {
        let see = self.on(Technique::See);
        // Moves a capture among the losing ones if its exchange, not yet evaluated, loses.
        let settle = |e: &mut (i64, Move)| {
            let losing = see
                && unchecked_capture(e.0)
                && pos.see_at_least(e.1, &self.values, 0) == Some(false);
            if losing {
                e.0 = losing_capture(e.0);
            }
            losing
        };
        if i < LAZY_PICKS {
            loop {
                pick_largest(list, i);
                if !settle(&mut list[i]) {
                    return;
                }
            }
        }
        if i == LAZY_PICKS {
            list[i..].iter_mut().for_each(|e| {
                settle(e);
            });
        }
        pick_largest(list, i);
    }

    /// Every move of `list` in order (the root's list, searched whole at every iteration).
    fn sort_all<G: Game>(&self, pos: &G, list: &mut [(i64, Move)]) {
        for i in 0..list.len().min(LAZY_PICKS + 1) {
            self.next_move(pos, list, i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::variants::Chess;

    type P = Position<Chess>;

    /// A quiet middlegame (Queen's Gambit structure, both sides castled): the position the
    /// tests of whole-tree effects search.
    const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8";

    fn pos(text: &str) -> P {
        P::from_text(text).unwrap()
    }

    /// Every technique on, those off by default included, but razoring: the tests search a
    /// few plies at a high bound to find a quiet mate, which razoring leaves to the
    /// quiescence search (that sees captures only) by design.
    fn all_on() -> SearchConfig {
        SearchConfig {
            disabled: Technique::Razoring as u64,
            ..SearchConfig::default()
        }
    }

    /// The default configuration with one technique switched on (`true`) or off.
    fn switched(t: Technique, on: bool) -> SearchConfig {
        let disabled = if on {
            Technique::DEFAULT_OFF & !(t as u64)
        } else {
            Technique::DEFAULT_OFF | t as u64
        };
        SearchConfig {
            disabled,
            ..SearchConfig::default()
        }
    }

    /// A searcher prepared for `p` (values, evaluator, piece keys) with empty tables.
    fn prepared(p: &P, config: SearchConfig) -> Searcher {
        let mut s = Searcher::new(config);
        s.search(p, &[], Limits::depth(1));
        s.clear();
        s
    }

    /// Ply 1's ordered list of `moves`, every exchange evaluated and every move in place (as
    /// the search would pick them).
    fn fully_ordered(s: &mut Searcher, p: &P, moves: &<P as Game>::Moves) -> Vec<(i64, Move)> {
        let mut list = s.ordered(p, moves.as_ref(), None, 1);
        s.sort_all(p, &mut list);
        list
    }

    /// Searches `p` as the node at ply 1 after `prev` (a move of the other side), with a
    /// null window at `beta`.
    fn search_after(s: &mut Searcher, p: &P, prev: Move, prev_key: u16, depth: u32, beta: i32) {
        s.line_moves[0] = prev;
        s.line_keys[0] = prev_key;
        s.negamax(p, depth, (beta - 1, beta), 1, false);
    }

    // White mates with the quiet move Rb1-b8 after Black's last move (a7-a6 here).
    const BACK_RANK: &str = "6k1/5ppp/p7/8/8/8/8/1R4K1 w - - 0 1";
    const BEFORE: &str = "6k1/p4ppp/8/8/8/8/8/1R4K1 b - - 0 1";

    #[test]
    fn a_quiet_refutation_becomes_the_countermove_of_the_move_before() {
        let p = pos(BACK_RANK);
        let mut s = prepared(&p, all_on());
        let before = pos(BEFORE);
        let prev = before.parse_move("a7a6").unwrap();
        let key = s.piece_key(&before, prev);
        assert_eq!(s.countermove(1), None);
        search_after(&mut s, &p, prev, key, 2, 5000);
        let mate = p.parse_move("b1b8").unwrap();
        assert_eq!(s.counters[history_index(prev)], mate);
        assert_eq!(s.countermove(1), Some(mate));
        // Ordered after the killers: with no table move and no captures, right behind the
        // killer of its ply.
        let mut moves = <P as Game>::Moves::default();
        p.legal_moves(&mut moves);
        s.killers[1] = [Move::default(); 2];
        let list = fully_ordered(&mut s, &p, &moves);
        assert_eq!(list[0].1, mate);
        assert_eq!(list[0].0 >> ORDER_SHIFT, (1 << 39) - 2);
        s.scratch[1] = list;
        // Switched off, nothing is recorded or used.
        let mut off = prepared(
            &p,
            SearchConfig {
                disabled: Technique::CounterMove as u64,
                ..SearchConfig::default()
            },
        );
        search_after(&mut off, &p, prev, key, 2, 5000);
        assert_eq!(off.counters[history_index(prev)], Move::default());
        assert_eq!(off.countermove(1), None);
    }

    #[test]
    fn a_quiet_cut_move_gains_continuation_history_and_the_earlier_quiets_lose() {
        let p = pos(BACK_RANK);
        let mut s = prepared(&p, all_on());
        let before = pos(BEFORE);
        let prev = before.parse_move("a7a6").unwrap();
        let key = s.piece_key(&before, prev);
        // A killer tried first that does not cut (a king move), so it is a quiet tried
        // before the cut.
        let king = p.parse_move("g1f1").unwrap();
        s.killers[1] = [king, Move::default()];
        search_after(&mut s, &p, prev, key, 2, 5000);
        let mate = p.parse_move("b1b8").unwrap();
        let cont = |s: &Searcher, m: Move| {
            s.continuation[0][key as usize * PIECE_KEYS + s.piece_key(&p, m) as usize]
        };
        assert!(cont(&s, mate) > 0, "{}", cont(&s, mate));
        assert!(cont(&s, king) < 0, "{}", cont(&s, king));
        // Two plies back there was no move (the root's predecessor): that table is untouched.
        assert!(s.continuation[1].iter().all(|&h| h == 0));
        assert!(s.continuation_score([key, NO_KEY], s.piece_key(&p, mate)) > 0);
    }

    #[test]
    fn chess_piece_keys_are_dense_and_distinct() {
        let p = P::start();
        let s = prepared(&p, all_on());
        assert!(s.key_dense);
        let mut moves = <P as Game>::Moves::default();
        p.legal_moves(&mut moves);
        let mut keys: Vec<u16> = moves.as_ref().iter().map(|&m| s.piece_key(&p, m)).collect();
        assert!(keys.iter().all(|&k| (k as usize) < 6 * 64));
        keys.sort_unstable();
        keys.dedup();
        // 20 moves; the two knight moves to no common cell, so every (kind, cell) differs.
        assert_eq!(keys.len(), 20);
    }

    #[test]
    fn a_capture_that_cuts_gains_capture_history_which_then_orders_equal_captures() {
        // The rook takes the queen and the score clears beta (the static evaluation does
        // not, so nothing is pruned before the move loop).
        let p = pos("4k3/8/8/3q4/8/8/8/R2RK3 w - - 0 1");
        let mut s = prepared(&p, all_on());
        let take = p.parse_move("d1d5").unwrap();
        s.negamax(&p, 1, (599, 600), 1, false);
        let i = s.capture_index(&p, take);
        assert!(s.capture_history[i] > 0, "{}", s.capture_history[i]);
        // Two pawn captures of equal MVV-LVA: a bonus for the second puts it first.
        let p = pos("4k3/8/8/2p1p3/3P4/8/8/4K3 w - - 0 1");
        let mut s = prepared(&p, all_on());
        let mut moves = <P as Game>::Moves::default();
        p.legal_moves(&mut moves);
        let order = |s: &mut Searcher| {
            let list = fully_ordered(s, &p, &moves);
            let first = p.move_text(list[0].1);
            s.scratch[1] = list;
            first
        };
        let (a, b) = (p.parse_move("d4c5").unwrap(), p.parse_move("d4e5").unwrap());
        let first = order(&mut s);
        let other = if first == "d4c5" { b } else { a };
        let i = s.capture_index(&p, other);
        s.capture_history[i] = 4000;
        assert_eq!(order(&mut s), p.move_text(other));
        // Switched off, the history is ignored.
        s.config.disabled = Technique::CaptureHistory as u64;
        assert_eq!(order(&mut s), first);
    }

    #[test]
    fn a_capture_tried_before_the_cut_move_loses_capture_history() {
        // The queen's capture of a pawn is tried first and does not reach beta; the quiet
        // mate Ra8 then cuts.
        let p = pos("6k1/5ppp/8/3p4/8/8/8/R2QK3 w - - 0 1");
        let mut s = prepared(&p, all_on());
        let take = p.parse_move("d1d5").unwrap();
        let score = s.negamax(&p, 1, (4999, 5000), 1, false);
        assert!(score >= MATE_BOUND, "{score}");
        let i = s.capture_index(&p, take);
        assert!(s.capture_history[i] < 0, "{}", s.capture_history[i]);
    }

    fn see(text: &str, mv: &str) -> Option<i32> {
        let p = pos(text);
        p.see(p.parse_move(mv).unwrap(), &VALUES)
    }

    /// Round values for the exchange tests: pawn, knight, bishop, rook, queen, king.
    const VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

    #[test]
    fn static_exchange_evaluation_in_chess() {
        let kinds: Vec<&str> = P::start().material_kinds().iter().map(|k| k.0).collect();
        assert_eq!(kinds, ["pawn", "knight", "bishop", "rook", "queen", "king"]);
        // A free pawn, and the same pawn defended by another: the queen is lost for it.
        assert_eq!(see("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), Some(100));
        assert_eq!(
            see("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
            Some(-800)
        );
        // A rook takes a pawn defended by a rook: alone it loses the exchange; with a second
        // rook behind it (an x-ray) the pawn is won.
        assert_eq!(
            see("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
            Some(-400)
        );
        assert_eq!(
            see("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            Some(100)
        );
        // The king may take back only where nothing takes it in turn.
        assert_eq!(see("4k3/3p4/8/8/8/8/3Q4/4K3 w - - 0 1", "d2d7"), Some(-800));
        assert_eq!(see("4k3/3p4/8/8/8/8/3Q4/3RK3 w - - 0 1", "d2d7"), Some(100));
        // En passant wins the pawn; a quiet move to an attacked cell loses the mover.
        assert_eq!(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), Some(100));
        assert_eq!(see("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1", "d1d5"), Some(-900));
        // Castling and promotions are left to MVV-LVA.
        assert_eq!(see("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), None);
        // The threshold form agrees with the exchange, with or without the shortcut of a
        // victim worth at least its capturer.
        for (text, mv) in [
            ("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
            ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            ("3qk3/8/8/3r4/8/8/3Q4/3RK3 w - - 0 1", "d2d5"),
            ("3qk3/8/2p5/3r4/8/8/3N4/3RK3 w - - 0 1", "d2b3"),
        ] {
            let p = pos(text);
            let m = p.parse_move(mv).unwrap();
            let v = p.see(m, &VALUES);
            for t in [-500, -1, 0, 1, 100, 400] {
                assert_eq!(
                    p.see_at_least(m, &VALUES, t),
                    v.map(|v| v >= t),
                    "{text} {mv} {t}"
                );
            }
        }
    }

    #[test]
    fn losing_captures_go_last_and_leave_the_quiescence_search() {
        let p = pos("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1");
        let mut s = prepared(&p, all_on());
        let mut moves = <P as Game>::Moves::default();
        p.legal_moves(&mut moves);
        let list = fully_ordered(&mut s, &p, &moves);
        let last = list.last().unwrap().1;
        s.scratch[1] = list;
        assert_eq!(p.move_text(last), "d1d5");
        let quiescence_nodes = |disabled: u64| {
            let mut s = prepared(
                &p,
                SearchConfig {
                    disabled,
                    ..SearchConfig::default()
                },
            );
            s.nodes = 0;
            s.quiesce(&p, -MATE, MATE, 1);
            s.nodes
        };
        // With SEE the losing capture is not searched: the stand-pat node alone.
        assert_eq!(quiescence_nodes(0), 1);
        assert!(quiescence_nodes(Technique::See as u64) > 1);
    }

    #[test]
    fn the_quiescence_table_stores_results_and_cuts_a_second_visit() {
        // White can win the d5 pawn: the quiescence search has a capture to search.
        let p = pos("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1");
        let mut s = prepared(&p, SearchConfig::default());
        let (alpha, beta) = (-MATE, MATE);
        let first = s.quiesce(&p, alpha, beta, 1);
        let hit =
            s.tt.probe(p.hash(), 1)
                .expect("a quiescence result is stored");
        assert_eq!((hit.depth, hit.bound, hit.score), (0, Bound::Exact, first));
        assert_eq!(hit.mv.map(|m| p.move_text(m)), Some("d1d5".to_string()));
        // A null-window visit is answered by the table: one node, the same score.
        s.nodes = 0;
        assert_eq!(s.quiesce(&p, first - 1, first, 1), first);
        assert_eq!(s.nodes, 1);
        // A deeper entry of the main search is not replaced by a quiescence result.
        s.tt.store(p.hash(), 1, TtHit::new(5, 7, Bound::Lower, None, false));
        s.quiesce(&p, alpha, beta, 1);
        assert_eq!(s.tt.probe(p.hash(), 1).unwrap().depth, 5);
        // Switched off, nothing is stored.
        let mut off = prepared(&p, switched(Technique::QuiescenceTable, false));
        off.quiesce(&p, alpha, beta, 1);
        assert!(off.tt.probe(p.hash(), 1).is_none());
    }

    /// Plays `p` out with `config` at `nodes` a move; the outcome and the plies it took.
    fn play_out<G: Game>(
        p: &G,
        config: SearchConfig,
        nodes: u64,
        max_plies: usize,
    ) -> (Option<Outcome>, usize) {
        let mut s = Searcher::new(config);
        let mut pos = p.clone();
        let mut history = Vec::new();
        for ply in 0..max_plies {
            if let Some(o) = crate::game::outcome(&pos, &history) {
                return (Some(o), ply);
            }
            let best = s.search(&pos, &history, Limits::nodes(nodes)).best.unwrap();
            history.push(pos.hash());
            pos.play_unchecked(best);
        }
        (None, max_plies)
    }

    #[test]
    fn mop_up_drives_the_lone_king_to_the_edge_and_mates() {
        let s = prepared(
            &pos("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"),
            SearchConfig::default(),
        );
        // White to move, the lone Black king in the centre against the same king on the edge.
        let centre = s.mop_up(&pos("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"));
        let edge = s.mop_up(&pos("k7/8/8/8/8/8/8/3QK3 w - - 0 1"));
        let near = s.mop_up(&pos("k7/8/1K6/8/8/8/8/3Q4 w - - 0 1"));
        assert!(
            0 < centre && centre < edge && edge < near,
            "{centre} {edge} {near}"
        );
        // The same seen from the lone side is the negative; no lead, no term.
        assert_eq!(s.mop_up(&pos("k7/8/1K6/8/8/8/8/3Q4 b - - 0 1")), -near);
        assert_eq!(s.mop_up(&pos("k7/3q4/1K6/8/8/8/8/3Q4 w - - 0 1")), 0);
        // K+Q against K from the centre, and K+R against K with Black to move and lead: mated
        // well within the move rule at 1000 nodes a move (without the term the lone king was
        // chased around the middle until the move rule).
        for (text, winner) in [
            ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", Color::White),
            ("8/8/3K4/8/4r3/8/8/4k3 b - - 0 1", Color::Black),
        ] {
            let (o, plies) = play_out(&pos(text), SearchConfig::default(), 1000, 100);
            let won = matches!(o, Some(Outcome::Decisive { winner: w, .. }) if w == winner);
            assert!(won, "{text}: {o:?} after {plies} plies");
        }
    }

    /// In three dimensions too: a lone Gateway Emperor (26 neighbours) against an Emperor, a
    /// Queen and a Rook is mated within 100 plies at 2000 nodes a move; without the term the
    /// same play-out was still going at ply 100, and in self-play the move rule drew such
    /// games (398 of 800 ended by the move rule, many with a bare Emperor against several
    /// pieces).
    #[test]
    fn mop_up_mates_a_lone_emperor_in_three_dimensions() {
        use crate::variants::gateway::Gateway;
        let p = Gateway::from_text("W: Exb2, Qxa5, Rwb5. B: Exc8. White to move.").unwrap();
        let (o, plies) = play_out(&p, SearchConfig::default(), 2000, 100);
        let won = matches!(
            o,
            Some(Outcome::Decisive {
                winner: Color::White,
                ..
            })
        );
        assert!(won, "{o:?} after {plies} plies");
    }

    #[test]
    fn a_singular_extension_search_leaves_out_its_move_and_the_table() {
        // White's only legal move is Kxb2 (a2 and b1 are attacked).
        let p = pos("k7/8/8/8/8/8/1r6/K7 w - - 0 1");
        let mut s = prepared(&p, SearchConfig::default());
        let only = p.parse_move("a1b2").unwrap();
        // Without it nothing is searched: the result is alpha, and nothing is stored.
        s.excluded[1] = Some(only);
        assert_eq!(s.negamax(&p, 6, (-51, -50), 1, false), -51);
        assert!(s.tt.probe(p.hash(), 1).is_none());
        // With it, the bare kings draw: above beta, and the result is stored.
        s.excluded[1] = None;
        assert!(s.negamax(&p, 6, (-51, -50), 1, false) >= -50);
        let hit = s.tt.probe(p.hash(), 1).expect("stored");
        assert_eq!(hit.mv, Some(only));
    }

    #[test]
    fn razoring_leaves_a_hopeless_node_to_the_quiescence_search() {
        // White is a Rook up and mates with the quiet Rb1-b8: far above the material.
        let p = pos(BACK_RANK);
        let razoring = switched(Technique::Razoring, true);
        let searched = |config: SearchConfig, window: (i32, i32)| {
            let mut s = prepared(&p, config);
            s.negamax(&p, 2, window, 1, false)
        };
        // Off, the depth-2 search finds the mate.
        assert!(searched(SearchConfig::default(), (4999, 5000)) >= MATE_BOUND);
        // On, the static evaluation lies too far below alpha: the quiescence search (captures
        // only) answers, below alpha, and the quiet mate is not seen.
        let score = searched(razoring.clone(), (4999, 5000));
        assert!(score < 4999, "{score}");
        assert!(score > 0, "{score}: White is a Rook up");
        // Not at the principal variation (an open window).
        assert!(searched(razoring, (4000, 5000)) >= MATE_BOUND);
    }

    #[test]
    fn reduced_depth_pruning_prunes_late_quiet_moves_of_a_deep_node_far_below_alpha() {
        let p = pos(MIDDLEGAME);
        let nodes = |on: bool| {
            let mut s = prepared(&p, switched(Technique::ReducedDepthPruning, on));
            s.negamax(&p, 8, (799, 800), 1, false);
            s.nodes
        };
        // At depth 8 futility pruning by the node's depth never acts (it needs depth 5 or
        // less); by the depth the reductions would leave a late quiet move, it does.
        let (off, on) = (nodes(false), nodes(true));
        assert!(on < off, "{on} nodes with, {off} without");
    }

    #[test]
    fn capture_futility_prunes_captures_that_cannot_lift_a_lost_position_to_alpha() {
        // White is a Queen down; its pawn captures win a pawn at most, far short of alpha.
        let p = pos("q3k3/8/8/2p1p1p1/1P1P1P1P/8/8/4K3 w - - 0 1");
        let nodes = |on: bool| {
            let mut s = prepared(&p, switched(Technique::CaptureFutility, on));
            let score = s.negamax(&p, 3, (299, 300), 1, false);
            (score, s.nodes)
        };
        let ((score_off, off), (score_on, on)) = (nodes(false), nodes(true));
        assert!(on < off, "{on} nodes with, {off} without");
        // Both fail low: the pruned captures could not have reached alpha.
        assert!(score_off < 300 && score_on < 300, "{score_off} {score_on}");
    }

    #[test]
    fn a_re_search_goes_deeper_after_a_wide_overshoot_and_shallower_after_a_narrow_one() {
        // The rule: the margin to go deeper grows two per ply.
        assert_eq!(research_depth(5, 100 + DEEPER_MARGIN + 11, 100), 6);
        assert_eq!(research_depth(5, 100 + DEEPER_MARGIN + 10, 100), 5);
        assert_eq!(research_depth(5, 100 + SHALLOWER_MARGIN, 100), 5);
        assert_eq!(research_depth(5, 100 + SHALLOWER_MARGIN - 1, 100), 4);
        assert_eq!(research_depth(0, 100, 100), 0);
        // Wired into the search: the re-searches change the tree.
        let p = pos(MIDDLEGAME);
        let nodes = |on: bool| {
            let mut s = prepared(&p, switched(Technique::ResearchDepth, on));
            s.search(&p, &[], Limits::depth(9));
            s.nodes
        };
        assert_ne!(nodes(true), nodes(false));
    }

    #[test]
    fn tt_pv_reduces_less_below_positions_once_on_a_principal_variation() {
        let p = pos(MIDDLEGAME);
        let nodes = |on: bool| {
            let mut s = prepared(&p, switched(Technique::TtPv, on));
            let score = s.search(&p, &[], Limits::depth(7)).score;
            // The root was searched with an open window: the table says so.
            assert!(s.tt.probe(p.hash(), 1).expect("stored").pv);
            s.nodes = 0;
            // Searched again with a null window, one ply deeper than stored.
            s.negamax(&p, 8, (score - 1, score), 1, false);
            s.nodes
        };
        let (off, on) = (nodes(false), nodes(true));
        assert!(on > off, "{on} nodes with, {off} without");
    }

    #[test]
    fn a_double_extension_deepens_a_table_move_far_above_every_other() {
        // White's Queen must take Black's (which checks and is defended by the Rook), or
        // the King steps aside and loses the Queen: the table's move stays far above the rest.
        let p = pos("3rk3/ppp5/8/8/8/8/3q1PPP/3QK3 w - - 0 1");
        let nodes = |on: bool| {
            let mut s = prepared(&p, switched(Technique::DoubleExtensions, on));
            let score = s.search(&p, &[], Limits::depth(7)).score;
            s.nodes = 0;
            // One ply deeper than stored, so the table's entry does not answer at once.
            s.negamax(&p, 8, (score - 1, score), 1, false);
            s.nodes
        };
        let (off, on) = (nodes(false), nodes(true));
        assert!(on > off, "{on} nodes with, {off} without");
    }

    #[test]
    fn reverse_futility_mean_returns_halfway_between_the_evaluation_and_beta() {
        // White is a Queen up: far above a beta of 0 at depth 3.
        let p = pos("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1");
        let searched = |on: bool| {
            let mut s = prepared(&p, switched(Technique::ReverseFutilityMean, on));
            (s.negamax(&p, 3, (-1, 0), 1, true), s.static_eval(&p))
        };
        let (score, eval) = searched(false);
        assert!(eval > 600, "{eval}");
        assert_eq!(score, eval);
        let (score, eval) = searched(true);
        assert_eq!(score, eval / 2);
    }

    #[test]
    fn probcut_cuts_on_a_capture_that_holds_above_the_raised_bound() {
        // White's rook takes Black's undefended queen: far above any beta near the
        // material before the capture.
        let p = pos("3q3k/8/8/8/8/8/8/3RK3 w - - 0 1");
        let capture = p.parse_move("d1d8").unwrap();
        let beta = 200;
        let probcut = switched(Technique::ProbCut, true);
        // With ProbCut the node is cut by the capture's reduced search: stored three plies
        // shallower than the node, as a lower bound above the raised bound, with its move.
        let mut s = prepared(&p, probcut.clone());
        let score = s.negamax(&p, 7, (beta - 1, beta), 1, false);
        let hit = s.tt.probe(p.hash(), 1).expect("stored");
        assert!(score >= beta + 2 * s.pawn_value());
        assert_eq!(
            (hit.depth, hit.bound, hit.mv),
            (4, Bound::Lower, Some(capture))
        );
        // Without it the node is searched at its own depth (a ply less by internal
        // iterative reduction, there being no table move).
        let mut s = prepared(&p, SearchConfig::default());
        assert!(s.negamax(&p, 7, (beta - 1, beta), 1, false) >= beta);
        let hit = s.tt.probe(p.hash(), 1).expect("stored");
        assert_eq!((hit.depth, hit.mv), (6, Some(capture)));
        // At the principal variation (an open window) ProbCut does not act.
        let mut s = prepared(&p, probcut);
        s.negamax(&p, 7, (beta - 100, beta), 1, false);
        assert_eq!(s.tt.probe(p.hash(), 1).expect("stored").depth, 6);
    }

    #[test]
    fn with_tt_eval_a_stored_lower_bound_above_the_evaluation_prunes_by_reverse_futility() {
        let p = P::start();
        let beta = 300;
        let on = switched(Technique::TtEval, true);
        // A shallower search found the start worth at least 1000: too shallow to cut a
        // depth-3 node, but reverse futility then takes 1000 as the evaluation.
        let searched = |config: SearchConfig, bound: Bound| {
            let mut s = prepared(&p, config);
            assert!(s.static_eval(&p).abs() < 100);
            s.tt.store(p.hash(), 1, TtHit::new(1, 1000, bound, None, false));
            s.negamax(&p, 3, (beta - 1, beta), 1, false)
        };
        assert_eq!(searched(on.clone(), Bound::Lower), 1000);
        // Off, or with a bound that says nothing beyond the evaluation (at most 1000), the
        // node is searched and the start is worth less than beta.
        let off = switched(Technique::TtEval, false);
        assert!(searched(off, Bound::Lower) < beta);
        assert!(searched(on, Bound::Upper) < beta);
    }

    #[test]
    fn cut_node_reductions_act_only_at_expected_cut_nodes() {
        let p = pos(MIDDLEGAME);
        // The same null-window node searched as an expected cut node and as an all node
        // (which makes its first reply the expected cut node).
        let nodes = |config: SearchConfig, cut_node: bool| {
            let mut s = prepared(&p, config);
            s.negamax(&p, 7, (-1, 0), 1, cut_node);
            s.nodes
        };
        // Off, the expectation changes nothing.
        let off = switched(Technique::CutNodeReductions, false);
        assert_eq!(nodes(off.clone(), true), nodes(off, false));
        // On, the nodes reduced more are others: another tree.
        let on = switched(Technique::CutNodeReductions, true);
        assert_ne!(nodes(on.clone(), true), nodes(on, false));
    }

    #[test]
    fn a_clock_budget_caps_the_move_time_and_stops_new_iterations_at_half() {
        let ms = Duration::from_millis;
        let clock = Limits::default().on_clock(ms(40));
        assert_eq!(
            (clock.movetime, clock.soft_time),
            (Some(ms(40)), Some(ms(20)))
        );
        // A fixed time per move below the budget is kept; above it, the budget wins.
        let short = Limits::movetime(30).on_clock(ms(40));
        assert_eq!(
            (short.movetime, short.soft_time),
            (Some(ms(30)), Some(ms(15)))
        );
        let long = Limits::movetime(100).on_clock(ms(40));
        assert_eq!(
            (long.movetime, long.soft_time),
            (Some(ms(40)), Some(ms(20)))
        );
        // A fixed time per move alone is searched whole.
        assert_eq!(Limits::movetime(30).soft_time, None);
    }

    #[test]
    fn with_check_extension_see_a_check_that_loses_material_is_not_extended() {
        // Qb5+ is taken by the a6 pawn; Qg6+ is safe.
        let p = pos("4k3/8/p7/8/8/3Q4/8/4K3 w - - 0 1");
        let (losing, safe) = (p.parse_move("d3b5").unwrap(), p.parse_move("d3g6").unwrap());
        for m in [losing, safe] {
            let mut child = p;
            child.play_unchecked(m);
            assert!(child.in_check());
        }
        let on = switched(Technique::CheckExtensionSee, true);
        let s = prepared(&p, on);
        assert!(!s.extends_check(&p, losing));
        assert!(s.extends_check(&p, safe));
        let off = switched(Technique::CheckExtensionSee, false);
        let s = prepared(&p, off);
        assert!(s.extends_check(&p, losing) && s.extends_check(&p, safe));
    }

    #[test]
    fn correction_history_learns_what_searches_found_for_a_pawn_structure() {
        let p = pos("4k3/pp6/8/8/8/8/PP6/3QK3 w - - 0 1");
        // The key is the pawns': other pieces elsewhere share it, a pawn moved does not.
        let same_pawns = pos("r3k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        let pawn_moved = pos("4k3/pp6/8/8/8/P7/1P6/3QK3 w - - 0 1");
        assert_eq!(p.correction_key(), same_pawns.correction_key());
        assert_ne!(p.correction_key(), pawn_moved.correction_key());
        let mut s = prepared(&p, SearchConfig::default());
        s.config.disabled &= !(Technique::CorrectionHistory as u64);
        let slot = s.correction_slot(&p).expect("switched on");
        assert_eq!(s.correction(Some(slot)), 0);
        // Deep searches that keep finding 40 cp more than the evaluation pull it there.
        for _ in 0..200 {
            s.update_correction(slot, 140, 100, 20);
        }
        assert!((38..=40).contains(&s.correction(Some(slot))));
        assert_eq!(s.correction_slot(&same_pawns), Some(slot));
        // A verdict far off moves it by at most the cap.
        for _ in 0..400 {
            s.update_correction(slot, -900, 100, 20);
        }
        assert!((-CORRECTION_MAX..=-CORRECTION_MAX + 2).contains(&s.correction(Some(slot))));
        // Switched off, there is no slot and no correction.
        s.config.disabled |= Technique::CorrectionHistory as u64;
        assert_eq!(s.correction_slot(&p), None);
        assert_eq!(s.correction(None), 0);
    }

    #[test]
    fn picking_the_largest_key_gives_the_order_of_a_stable_sort() {
        let mut rng = crate::zobrist::SplitMix64(7);
        for len in [0, 1, 2, 3, 4, 5, 9, 40, 300] {
            // Few distinct keys, so most are tied, negative ones included.
            let keys: Vec<i64> = (0..len).map(|_| (rng.next() % 7) as i64 - 3).collect();
            let mut list: Vec<(i64, Move)> = keys
                .iter()
                .enumerate()
                .map(|(i, &k)| {
                    (
                        order_key(k, i),
                        Move::normal(crate::Square(i as u16), crate::Square(0)),
                    )
                })
                .collect();
            for i in 0..list.len() {
                pick_largest(&mut list, i);
            }
            let mut stable: Vec<(i64, usize)> = keys.iter().copied().zip(0..).collect();
            stable.sort_by_key(|e| std::cmp::Reverse(e.0));
            let picked: Vec<usize> = list.iter().map(|e| e.1.from().0 as usize).collect();
            let sorted: Vec<usize> = stable.iter().map(|e| e.1).collect();
            assert_eq!(picked, sorted, "{keys:?}");
        }
    }

    #[test]
    fn technique_names_round_trip() {
        for t in Technique::ALL {
            assert_eq!(Technique::from_name(t.name()), Some(t));
        }
        assert_eq!(
            Technique::from_name("continuation_history"),
            Some(Technique::ContinuationHistory)
        );
    }

    #[test]
    fn every_search_parameter_reaches_the_search() {
        // The defaults are the default search; each parameter moved far from its default
        // changes the tree (so none is read nowhere).
        let p = pos(MIDDLEGAME);
        let nodes = |params: SearchParams| {
            let mut s = prepared(
                &p,
                SearchConfig {
                    params,
                    ..SearchConfig::default()
                },
            );
            s.search(&p, &[], Limits::depth(9));
            s.nodes
        };
        let base = nodes(SearchParams::default());
        let mut plain = prepared(&p, SearchConfig::default());
        plain.search(&p, &[], Limits::depth(9));
        assert_eq!(base, plain.nodes);
        for param in Param::ALL {
            let r = param.range();
            let far = if param.default_value() - r.start() > r.end() - param.default_value() {
                *r.start()
            } else {
                *r.end()
            };
            let mut changed = SearchParams::default();
            changed.set(param.name(), i64::from(far)).unwrap();
            assert_ne!(nodes(changed), base, "{} = {far}", param.name());
        }
    }
}

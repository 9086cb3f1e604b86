//! Search for every variant: iterative-deepening principal-variation alpha-beta with a
//! quiescence search, check extensions, mate scores, draw detection and a transposition
//! table, generic over [`crate::Game`] and so monomorphised per variant.
//!
//! Reproducibility: with a node or depth limit the same position, configuration and seed give
//! the same move and the same node count on any machine and thread count (each game owns its
//! searcher). Only `movetime` depends on the clock.
//!
//! Its parts, by concern: `config` (what a configuration sets), `technique` and `params` (the
//! tables of techniques and numeric parameters), `time` (limits), `root` (iterative
//! deepening), `negamax` (a node before its moves), `move_loop` (its moves), `quiesce`,
//! `ordering`, `history` (what the search learns) and `evaluation` (the static evaluation
//! as the search uses it); `tt` is the transposition table.
//!
//! ```
//! use variantlab_engine::search::{Limits, SearchConfig, Searcher};
//! use variantlab_engine::{position::Position, variants::Chess, Game};
//! let pos = Position::<Chess>::from_text("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
//! let mut s = Searcher::new(SearchConfig::default());
//! let r = s.search(&pos, &[], Limits::depth(3));
//! assert_eq!(pos.move_text(r.best.unwrap()), "a1a8");
//! ```

mod config;
mod evaluation;
mod history;
mod move_loop;
mod negamax;
mod ordering;
mod params;
mod quiesce;
mod root;
mod technique;
mod time;
pub mod tt;

pub use config::{EvalChoice, SearchConfig};
pub use params::{Param, ParamError, SearchParams};
pub use technique::{Status, Technique};
pub use time::Limits;

use crate::eval::Evaluator;
use crate::game::MAX_KINDS;
use crate::moves::Move;
use crate::nnue::NetStack;
use evaluation::{EVAL_CACHE, NO_CACHED};
use history::{CAPTURED_SLOTS, CORRECTIONS, HISTORY, NO_KEY, PIECE_KEYS};
use std::cell::{Cell, RefCell};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use tt::TranspositionTable;

/// Score of being mated at the root; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;

/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;

/// Stack for a thread that searches: move lists live on the stack, and Dai Mitregi's hold
/// thousands of moves, more than a default 2 MiB thread stack has room for.
pub const THREAD_STACK: usize = 64 << 20;

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
    /// The network's per-ply accumulators where the configuration evaluates with one.
    net: Option<RefCell<NetStack>>,
}

/// Marks a ply whose static evaluation was not taken (in check).
const NO_EVAL: i32 = i32::MIN / 2;

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
            net: None,
        }
    }

    /// The value of a search parameter.
    #[inline]
    fn param(&self, p: Param) -> i32 {
        self.config.params.get(p)
    }

    /// A parameter that counts plies (their ranges start at 0 or above).
    #[inline]
    fn plies(&self, p: Param) -> u32 {
        self.param(p) as u32
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

    /// Whether a technique is on.
    #[inline]
    fn on(&self, t: Technique) -> bool {
        self.config.disabled & t as u64 == 0
    }
}

#[cfg(test)]
mod tests;

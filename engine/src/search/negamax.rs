//! The main search's node: table probe, static evaluation, the pruning before the move loop (reverse futility, razoring, null move, ProbCut) and singular extensions.

use super::history::NO_KEY;
use super::ordering::{order_key, pick_largest, FIRST_KEY};
use super::tt::{Bound, TtHit};
use super::{Param, Searcher, Technique, MATE, MATE_BOUND, MAX_PLY, NO_EVAL};
use crate::game::{repetitions, Game};
use crate::moves::{Move, MoveBuf};
use crate::{Color, Outcome};

/// What the move loop needs to know about its node.
#[derive(Clone, Copy)]
pub(super) struct Node {
    /// Expected to fail high ([`Searcher::negamax`]).
    pub(super) cut_node: bool,
    /// The list holds only the table's move (known legal); the rest are generated if it
    /// does not cut.
    pub(super) rest_pending: bool,
    pub(super) depth: u32,
    pub(super) ply: u32,
    pub(super) in_check: bool,
    pub(super) key: u64,
    pub(super) eval: i32,
    pub(super) improving: bool,
    /// The extension of the table's move (searched first) from the singular-extension
    /// search: 1 when singular, −1 when not singular but above beta by the table
    /// ([`Technique::NegativeExtensions`]), else 0.
    pub(super) tt_extension: i32,
    /// The static evaluation before correction (`NO_EVAL` in check), and the correction
    /// history's slot (none in check or with the technique off).
    pub(super) raw_eval: i32,
    pub(super) slot: Option<usize>,
    /// On a principal variation now or when the table last stored the position
    /// ([`Technique::TtPv`]).
    pub(super) tt_pv: bool,
}

impl Searcher {
    /// Late-move reduction in plies for a move at `depth` that is the `index`-th tried (both
    /// at least 1): `base + ln(depth) ln(index) / divisor` ([`Param::LmrBase`],
    /// [`Param::LmrDivisor`]; by default `0.75 + ln d ln i / 2.25`), the shape most modern
    /// alpha-beta engines use.
    pub(super) fn lmr_reduction(&self, depth: u32, index: usize) -> i32 {
        i32::from(self.lmr[(depth as usize).min(MAX_PLY - 1)][index.min(63)])
    }

    /// The evaluation the pruning decisions use ([`Technique::TtEval`]): the table's score
    /// where it holds an exact score or a bound beyond `eval` on the side the bound says,
    /// otherwise `eval` (always with the technique off, in check, or for a mate score).
    pub(super) fn tt_adjusted(&self, eval: i32, hit: Option<TtHit>) -> i32 {
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

    /// Score of a decided game for the side to move at `ply`.
    pub(super) fn outcome_score(&self, o: Outcome, turn: Color, ply: u32) -> i32 {
        match o {
            Outcome::Draw { .. } => 0,
            Outcome::Decisive { winner, .. } if winner == turn => MATE - ply as i32,
            Outcome::Decisive { .. } => -MATE + ply as i32,
        }
    }

    /// The score of an end by the move rule, repetition or dead material at `ply`, from the
    /// search path: one repetition on the path is enough, scored by the repetition rule's
    /// result (a draw in chess), as Fairy-Stockfish does.
    pub(super) fn rules_end<G: Game>(&self, pos: &G, ply: u32) -> Option<i32> {
        if pos.halfmove_clock() >= pos.move_rule_plies() || pos.insufficient_material() {
            return Some(0);
        }
        let repetition = pos.repetition();
        (repetition.occurrences > 0 && repetitions(pos, &self.path) >= 1).then(|| {
            let o = repetition
                .result
                .outcome(pos.turn(), crate::Termination::Repetition);
            self.outcome_score(o, pos.turn(), ply)
        })
    }

    /// The main search of `pos` to `depth` in the window (`alpha`, `beta`). `cut_node`: a
    /// null-window node expected to fail high (the reduced reply to a late move, or the
    /// first reply at an expected all node), which [`Technique::CutNodeReductions`] reduces
    /// more.
    pub(super) fn negamax<G: Game>(
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
        if let Some(score) = self.rules_end(pos, ply) {
            return score;
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
            let (raw, slot) = (self.static_eval_at(pos, ply), self.correction_slot(pos));
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
            if depth <= self.plies(Param::ReverseFutilityDepth)
                && eval - margin >= beta
                && self.on(Technique::ReverseFutility)
            {
                return if self.on(Technique::ReverseFutilityMean) {
                    (eval + beta) / 2
                } else {
                    eval
                };
            }
            // Razoring: so far below alpha that only a capture could help; ask the
            // quiescence search whether one does.
            let d = depth as i32;
            if depth <= self.plies(Param::RazorDepth)
                && eval + self.param(Param::RazorMargin) + self.param(Param::RazorSlope) * d * d
                    < alpha
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
            if depth >= self.plies(Param::NullMoveDepth)
                && eval >= beta
                && !self.null_at[p]
                && self.on(Technique::NullMove)
                && self.has_pieces(pos)
            {
                if let Some(null) = pos.null_move() {
                    let r = self.param(Param::NullMoveBase) as u32
                        + depth / self.param(Param::NullMoveDepthDivisor) as u32
                        + ((eval - beta) / self.param(Param::NullMoveEvalDivisor))
                            .clamp(0, self.param(Param::NullMoveEvalMax))
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
            && depth >= self.plies(Param::ProbcutDepth)
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
            let probcut_beta = beta + self.pawn_value() * self.param(Param::ProbcutMargin) / 100;
            // Not when the table already says this position stays below the raised bound.
            let refuted = hit.is_some_and(|h| {
                h.depth + self.plies(Param::ProbcutTtDepth) >= depth
                    && h.bound != Bound::Lower
                    && h.score < probcut_beta
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

        let depth = if tt_move.is_none()
            && depth >= self.plies(Param::IirDepth)
            && self.on(Technique::IterativeReduction)
        {
            depth - 1
        } else {
            depth
        };
        // Singular extension: is the table's move the only good one here?
        let mut tt_extension = 0;
        if let (Some(h), Some(m)) = (hit, tt_move) {
            if depth >= self.plies(Param::SingularDepth)
                && excluded.is_none()
                && h.depth + self.plies(Param::SingularTtDepth) >= depth
                && h.bound != Bound::Upper
                && h.score.abs() < MATE_BOUND
                && self.on(Technique::SingularExtensions)
                && tt_legal.unwrap_or_else(|| moves.as_ref().contains(&m))
            {
                let singular_beta = h.score - self.param(Param::SingularMargin) * depth as i32;
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
                        && score < singular_beta - self.param(Param::DoubleMargin)
                        && i32::from(self.doubles[p]) < self.param(Param::MaxDoubles)
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

    /// ProbCut's captures at a node of `depth` (at least [`Param::ProbcutDepth`]): each capture
    /// whose exchange lifts `eval` to `probcut_beta`, best victim first, is searched by the
    /// quiescence search and, if that holds, [`Param::ProbcutReduction`] plies shallower against
    /// the raised bound. The score of the first that holds (stored in the table as a lower
    /// bound), or `None`.
    pub(super) fn probcut<G: Game>(
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
                let reduced = depth.saturating_sub(self.plies(Param::ProbcutReduction));
                score = -self.negamax(&child, reduced, bounds, ply + 1, !cut_node);
            }
            if self.stopped {
                break;
            }
            if score >= probcut_beta {
                let result = TtHit::new(
                    (depth + 1).saturating_sub(self.plies(Param::ProbcutReduction)),
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

    /// Whether the checking move `m` is searched a ply deeper: every check, or with
    /// [`Technique::CheckExtensionSee`] those whose exchange does not lose material.
    pub(super) fn extends_check<G: Game>(&self, pos: &G, m: Move) -> bool {
        !(self.on(Technique::CheckExtensionSee)
            && self.on(Technique::See)
            && pos.see_at_least(m, &self.values, 0) == Some(false))
    }
}

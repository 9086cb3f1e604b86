//! The main search's move loop: pruning of moves, extensions, late-move reductions, and what a cut teaches the histories.

use super::history::{history_index, update_history, update_history_i16, HISTORY_MAX, NO_KEY};
use super::negamax::Node;
use super::ordering::FIRST_KEY;
use super::tt::{Bound, TtHit};
use super::{Param, SearchParams, Searcher, Technique, MATE, MATE_BOUND, NO_EVAL};
use crate::game::Game;
use crate::moves::Move;

/// The depth of the full re-search of a reduced search that scored `score` against the
/// best score so far ([`Technique::ResearchDepth`]): a ply deeper than `new_depth` after a
/// wide overshoot ([`Param::DeeperMargin`] plus [`Param::DeeperSlope`] per ply), a ply
/// shallower after a narrow one ([`Param::ShallowerMargin`]).
pub(super) fn research_depth(
    params: &SearchParams,
    new_depth: u32,
    score: i32,
    best_score: i32,
) -> u32 {
    let deeper =
        params.get(Param::DeeperMargin) + params.get(Param::DeeperSlope) * new_depth as i32;
    if score > best_score + deeper {
        new_depth + 1
    } else if score < best_score + params.get(Param::ShallowerMargin) {
        new_depth.saturating_sub(1)
    } else {
        new_depth
    }
}

impl Searcher {
    /// The move loop of [`Searcher::negamax`], over moves already ordered.
    pub(super) fn negamax_moves<G: Game>(
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
            if !pv_node
                && !in_check
                && i > 0
                && prune_depth <= self.plies(Param::MovePruningDepth)
                && best_score > -MATE_BOUND
            {
                let d = prune_depth as i32;
                // SEE pruning: a move that loses material by exchange beyond a margin
                // growing with depth.
                if see_pruning {
                    let threshold = if tactical {
                        -pawn * self.param(Param::SeeCaptureMargin) * d / 100
                    } else {
                        -pawn * self.param(Param::SeeQuietMargin) * d * d / 100
                    };
                    if pos.see_at_least(m, &self.values, threshold) == Some(false) {
                        continue;
                    }
                }
                // History pruning: a quiet move that has failed often elsewhere.
                if history_pruning
                    && !tactical
                    && depth <= self.plies(Param::HistoryPruningDepth)
                    && m != killers[0]
                    && m != killers[1]
                    && self.history[history_index(m)]
                        < -(HISTORY_MAX / self.param(Param::HistoryPruningDivisor)) * d
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
                && depth <= self.plies(Param::CaptureFutilityDepth)
                && eval != NO_EVAL
                && best_score > -MATE_BOUND
            {
                if let Some(victim) = self.victim_value(pos, m) {
                    let base = self.param(Param::CaptureFutilityBase);
                    let slope = self.param(Param::CaptureFutilitySlope);
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
                if depth <= self.plies(Param::LatePruningDepth) && quiets_tried >= limit {
                    continue;
                }
                // Futility: the static evaluation is too far below alpha for a quiet move.
                if prune_depth <= self.plies(Param::FutilityDepth)
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
                } else if depth >= self.plies(Param::LmrDepth)
                    && i >= self.plies(Param::LmrMove) as usize
                    && quiet
                    && !in_check
                {
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
                    && depth >= self.plies(Param::LmrDepth)
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
                        research_depth(&self.config.params, new_depth, score, best_score)
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
                        let bonus = (depth * depth) as i32 * self.param(Param::HistoryBonus);
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
}

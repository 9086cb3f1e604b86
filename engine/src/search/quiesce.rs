//! The quiescence search: stand pat, then captures (every evasion in check).

use super::ordering::{order_key, pick_largest, FIRST_KEY, WINNING_CAPTURES};
use super::tt::{Bound, TtHit};
use super::{Param, Searcher, Technique, MATE, MAX_PLY};
use crate::game::Game;
use crate::moves::Move;

impl Searcher {
    pub(super) fn quiesce<G: Game>(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: u32) -> i32 {
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
            return self.static_eval_at(pos, ply);
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
            let stand = self.static_eval_at(pos, ply) + self.correction(slot);
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
            .then(|| best.saturating_add(self.pawn_value() * self.param(Param::DeltaMargin) / 100));
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
    pub(super) fn quiesce_moves<G: Game>(
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
}

//! Iterative deepening, aspiration windows and the root's move loop.

use super::history::PIECE_KEYS;
use super::tt::{Bound, TtHit};
use super::{Limits, Param, SearchResult, Searcher, Technique, MATE, MATE_BOUND, MAX_PLY};
use crate::game::Game;
use crate::moves::{Move, MoveBuf};
use std::time::Instant;

impl Searcher {
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
        // A game the variant's own rules have ended has no move to search.
        if pos.variant_outcome().is_none() {
            pos.legal_moves(&mut root_moves);
        }
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
            result.score = if let Some(o) = pos.variant_outcome() {
                self.outcome_score(o, pos.turn(), 0)
            } else if pos.in_check() {
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
            let (score, best) = if depth >= self.plies(Param::AspirationDepth)
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
                    w *= self.param(Param::AspirationGrowth);
                    if w > self.param(Param::AspirationMax) {
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
    pub(super) fn jitter(&self, m: Move) -> i32 {
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
    pub(super) fn root<G: Game>(
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
}

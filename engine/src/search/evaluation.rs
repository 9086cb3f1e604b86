//! The search's static evaluation: the variant's evaluator behind a cache, mop-up, material.

use super::{Searcher, Technique, MAX_PLY};
use crate::game::{Game, Material};
use crate::moves::{Move, MoveKind};

/// Slots of the evaluation cache (a power of two).
pub(super) const EVAL_CACHE: usize = 1 << 15;

/// An empty slot of the evaluation cache (no evaluation is this low).
pub(super) const NO_CACHED: i32 = i32::MIN;

impl Searcher {
    /// What a capture that promotes nothing wins outright: its victim's value. `None` for a
    /// promotion (it wins more than the victim) or a move that takes nothing: the bound both
    /// futility prunings of captures (delta pruning, [`Technique::CaptureFutility`]) add to
    /// the evaluation.
    #[inline]
    pub(super) fn victim_value<G: Game>(&self, pos: &G, m: Move) -> Option<i32> {
        if m.kind() == MoveKind::Promotion {
            return None;
        }
        let k = pos.captured_kind(m)?;
        Some(self.values.get(k).copied().unwrap_or(0))
    }

    /// Whether the side to move has material besides its cheapest kind (pawns) and royal
    /// pieces (worth 0): without it, zugzwang makes a null move's verdict unsafe.
    pub(super) fn has_pieces<G: Game>(&self, pos: &G) -> bool {
        self.has_pieces_in(&pos.material(), pos.turn().index(), self.pawn_value())
    }

    /// The value of the cheapest kind worth anything (the variant's pawn); 0 when none is.
    pub(super) fn pawn_value(&self) -> i32 {
        self.pawn
    }

    /// Whether `side` (0 White, 1 Black) has material of a kind worth more than `pawn`.
    pub(super) fn has_pieces_in(&self, m: &Material, side: usize, pawn: i32) -> bool {
        self.values
            .iter()
            .enumerate()
            .any(|(k, &v)| v > pawn && m[side][k] > 0)
    }

    /// Builds the evaluator for `pos`'s variant unless it is already built; the configured
    /// material values override the weights' material. Weights that do not fit (which
    /// configuration loading refuses before any search) fall back to the classic evaluation.
    pub(super) fn prepare_evaluator<G: Game>(&mut self, pos: &G) {
        let name = pos.variant_name();
        if matches!(&self.evaluator, Some((n, _)) if *n == name) {
            return;
        }
        // A network that does not fit (also refused when the configuration is loaded) leaves
        // the weights or classic evaluation.
        self.net = match self.config.eval.network::<G>() {
            Ok(Some(n)) => Some(std::cell::RefCell::new(crate::nnue::NetStack::new::<G>(
                n,
                MAX_PLY + 2,
            ))),
            _ => None,
        };
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
        self.evaluate_at(pos, 0)
    }

    /// [`Searcher::evaluate`] at `ply` of the search (where a network keeps that ply's
    /// accumulators).
    pub(super) fn evaluate_at<G: Game>(&self, pos: &G, ply: u32) -> i32 {
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
            self.evaluate_position(pos, ply) + mop_up
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
        self.static_eval_at(pos, 0)
    }

    /// [`Searcher::static_eval`] at `ply` of the search.
    pub(super) fn static_eval_at<G: Game>(&self, pos: &G, ply: u32) -> i32 {
        let score = self.evaluate_at(pos, ply);
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
    pub(super) fn mop_up<G: Game>(&self, pos: &G) -> i32 {
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
    pub(super) fn evaluate_position<G: Game>(&self, pos: &G, ply: u32) -> i32 {
        if let (Some(net), true) = (&self.net, self.config.positional) {
            let mut net = net.borrow_mut();
            let v = net.evaluate(pos, ply as usize);
            return if net.on_linear() {
                v + self.linear_evaluation(pos)
            } else {
                v
            };
        }
        self.linear_evaluation(pos)
    }

    /// The evaluation without a network: the weights evaluator's, or else material and the
    /// classic positional terms (material alone where `positional` is off).
    fn linear_evaluation<G: Game>(&self, pos: &G) -> i32 {
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
    pub(super) fn material_balance<G: Game>(&self, pos: &G) -> i32 {
        let m = pos.material();
        let us = pos.turn().index();
        self.values
            .iter()
            .enumerate()
            .map(|(k, v)| (m[us][k] as i32 - m[1 - us][k] as i32) * v)
            .sum()
    }

    /// Whether one side has nothing of any value left (its royal piece alone).
    pub(super) fn bare_royal<G: Game>(&self, pos: &G) -> bool {
        let m = pos.material();
        (0..2).any(|c| {
            self.values
                .iter()
                .enumerate()
                .all(|(k, &v)| v == 0 || m[c][k] == 0)
        })
    }
}

//! What the search learns as it goes: quiet, capture and continuation histories, countermoves and the correction history.

use super::{Searcher, Technique};
use crate::game::{Game, MAX_KINDS};
use crate::moves::Move;

/// Slots of the correction history per side (a power of two).
pub(super) const CORRECTIONS: usize = 1 << 14;

/// Fixed-point scale of the correction history's entries.
pub(super) const CORRECTION_GRAIN: i32 = 256;

/// The largest correction, in centipawns.
pub(super) const CORRECTION_MAX: i32 = 100;

/// History table size: (from, to) hashed into 2^16 counters.
pub(super) const HISTORY: usize = 1 << 16;

/// Piece keys (moving kind and target cell, folded): the index of the capture and
/// continuation histories. 1024 holds every chess-sized board's kinds times cells exactly;
/// larger boards (Gateway's 180 cells, Dai Mitregi's 256) are hashed into it.
pub(super) const PIECE_KEYS: usize = 1 << 10;

/// Captured-kind slots of the capture history: every kind, and one for "none" (a promotion
/// that captures nothing, a variant that does not say).
pub(super) const CAPTURED_SLOTS: usize = MAX_KINDS + 1;

/// No piece key (a null move, the root's missing predecessor).
pub(super) const NO_KEY: u16 = u16::MAX;

/// History scores stay within ±this (the "gravity" update pulls towards zero as they grow).
pub(super) const HISTORY_MAX: i32 = 1 << 14;

/// Pulls a history score towards `bonus` (positive or negative), saturating at
/// [`HISTORY_MAX`].
pub(super) fn update_history(h: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// [`update_history`] on a 16-bit table entry (the capture and continuation histories).
pub(super) fn update_history_i16(h: &mut i16, bonus: i32) {
    let mut v = i32::from(*h);
    update_history(&mut v, bonus);
    *h = v as i16;
}

#[inline]
pub(super) fn history_index(m: Move) -> usize {
    ((m.from().0 as usize) << 8 ^ m.to().0 as usize ^ (m.role().0 as usize) << 4) & (HISTORY - 1)
}

impl Searcher {
    /// The correction history's slot for `pos`, when the technique is on.
    #[inline]
    pub(super) fn correction_slot<G: Game>(&self, pos: &G) -> Option<usize> {
        self.on(Technique::CorrectionHistory).then(|| {
            pos.turn().index() * CORRECTIONS + (pos.correction_key() as usize & (CORRECTIONS - 1))
        })
    }

    /// The correction for a slot, in centipawns.
    #[inline]
    pub(super) fn correction(&self, slot: Option<usize>) -> i32 {
        slot.map_or(0, |i| self.corrections[i] / CORRECTION_GRAIN)
    }

    /// Moves a slot's correction towards `result - raw` (the search's verdict against the
    /// static evaluation), by more the deeper the search was.
    pub(super) fn update_correction(&mut self, slot: usize, result: i32, raw: i32, depth: u32) {
        let target = (result - raw).clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        let w = (depth as i32 + 1).min(16);
        let e = &mut self.corrections[slot];
        *e = (*e * (256 - w) + target * w) / 256;
    }

    /// The piece key of `m` at `pos`: its moving kind and target cell, dense where the
    /// variant's kinds times cells fit in [`PIECE_KEYS`], hashed otherwise (and from the
    /// move's cells where the variant does not report kinds).
    #[inline]
    pub(super) fn piece_key<G: Game>(&self, pos: &G, m: Move) -> u16 {
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

    /// Index of a tactical move in the capture history.
    #[inline]
    pub(super) fn capture_index<G: Game>(&self, pos: &G, m: Move) -> usize {
        let captured = pos
            .captured_kind(m)
            .map_or(MAX_KINDS, |k| k.min(MAX_KINDS - 1));
        self.piece_key(pos, m) as usize * CAPTURED_SLOTS + captured
    }

    /// The piece keys of the moves one and two plies before `ply` (`NO_KEY` where none).
    #[inline]
    pub(super) fn continuation_context(&self, ply: u32) -> [u16; 2] {
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
    pub(super) fn continuation_score(&self, context: [u16; 2], key: u16) -> i32 {
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
    pub(super) fn quiet_scores<G: Game>(
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
    pub(super) fn update_continuation(&mut self, context: [u16; 2], key: u16, bonus: i32) {
        for (table, &c) in self.continuation.iter_mut().zip(&context) {
            if c != NO_KEY {
                update_history_i16(&mut table[c as usize * PIECE_KEYS + key as usize], bonus);
            }
        }
    }

    /// The countermove stored against the move played before `ply`, if any.
    #[inline]
    pub(super) fn countermove(&self, ply: u32) -> Option<Move> {
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

    /// Records `m` as the move played at `ply` (the countermove and continuation contexts of
    /// the plies below) and returns its piece key: computed only when the continuation
    /// history, which alone reads it, is on.
    pub(super) fn record_line<G: Game>(&mut self, pos: &G, ply: u32, m: Move) -> u16 {
        let key = if self.on(Technique::ContinuationHistory) {
            self.piece_key(pos, m)
        } else {
            NO_KEY
        };
        self.line_moves[ply as usize] = m;
        self.line_keys[ply as usize] = key;
        key
    }
}

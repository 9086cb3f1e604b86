//! Move ordering: keys for the table's move, captures, killers, countermoves and history, picked lazily.

use super::history::{history_index, NO_KEY};
use super::{Searcher, Technique};
use crate::game::Game;
use crate::moves::Move;

/// Bits below an ordering key that hold the move's place in the generated list (reversed),
/// so no two keys of a list are equal and taking the largest first, in whatever way, gives
/// the order of a stable sort: the same order as before picking became lazy.
pub(super) const ORDER_SHIFT: u32 = 16;

/// The key of the move searched first (the table's move), above every shifted key.
pub(super) const FIRST_KEY: i64 = i64::MAX;

/// Captures not yet checked by exchange are ordered above this (before the shift): above
/// the killers, which sit at `1 << 39`.
pub(super) const WINNING_CAPTURES: i64 = 1 << 40;

/// How many moves are picked one at a time (selection) before the rest of the list is sorted
/// once: most cuts come within the first few moves, and the rest is then never ordered.
pub(super) const LAZY_PICKS: usize = 3;

/// An ordering key with the move's place in the list below it.
#[inline]
pub(super) fn order_key(key: i64, index: usize) -> i64 {
    (key << ORDER_SHIFT) | (0xFFFF - index.min(0xFFFF)) as i64
}

/// Whether a key is that of a capture ordered among the winning ones whose exchange has not
/// been evaluated yet (the table's move is searched first whatever its exchange).
#[inline]
pub(super) fn unchecked_capture(key: i64) -> bool {
    key != FIRST_KEY && (key >> ORDER_SHIFT) > 1 << 39
}

/// The key of a capture found to lose material: after every quiet move, in the same order
/// among the losing captures.
#[inline]
pub(super) fn losing_capture(key: i64) -> i64 {
    key - ((2 * WINNING_CAPTURES) << ORDER_SHIFT)
}

/// Puts the move with the largest key of `list[i..]` at `list[i]`: by selection for the
/// first [`LAZY_PICKS`] moves, then by sorting the rest once.
#[inline]
pub(super) fn pick_largest(list: &mut [(i64, Move)], i: usize) {
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
    /// Generates the moves of `pos` and adds them to `list`, which holds the table's move
    /// alone (already searched), in their order but for that move, which stays where it is.
    /// The other moves' keys keep their order among themselves, so the search takes them as
    /// it would had they been generated with it.
    pub(super) fn append_rest<G: Game>(&mut self, pos: &G, list: &mut Vec<(i64, Move)>, ply: u32) {
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
    pub(super) fn ordered<G: Game>(
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
    pub(super) fn order_into<G: Game>(
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
    pub(super) fn next_move<G: Game>(&self, pos: &G, list: &mut [(i64, Move)], i: usize) {
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
    pub(super) fn sort_all<G: Game>(&self, pos: &G, list: &mut [(i64, Move)]) {
        for i in 0..list.len().min(LAZY_PICKS + 1) {
            self.next_move(pos, list, i);
        }
    }
}

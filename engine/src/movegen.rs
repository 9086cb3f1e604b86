//! Legal move generation for the chess family, with no heap allocation.
//!
//! Fully legal generation (so perft can count the last ply in bulk): checkers and the cells
//! that block a sliding check, pinned pieces with the line they may move along, King moves
//! tested against attacks with the King lifted off the board, and en passant tested by
//! replaying the occupancy. Everything reads the compiled tables, so the same code serves every
//! topology (Dream Chess 46's supersquares are already in the rays and leaps).

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveBuf, MoveKind};
use crate::position::{Position, Variant};
use crate::{Color, Role, Square};
use arrayvec::ArrayVec;

/// Pinned pieces and the line each may still move along (the King's lines through 26 vectors
/// at most on the 3D board, so 32 entries suffice).
struct Pins<B> {
    pinned: B,
    lines: ArrayVec<(Square, B), 32>,
}

impl<B: Bitboard> Pins<B> {
    /// No pins (a side without a royal piece).
    fn none() -> Pins<B> {
        Pins {
            pinned: B::EMPTY,
            lines: ArrayVec::new(),
        }
    }

    #[inline]
    fn line(&self, sq: Square) -> B {
        for &(s, l) in &self.lines {
            if s == sq {
                return l;
            }
        }
        !B::EMPTY
    }
}

impl<V: Variant> Position<V> {
    /// Checkers of the side to move's King, the cells that block their sliding checks, and
    /// the pins against that King.
    fn king_safety(&self, ksq: Square, occ: V::Bb) -> (V::Bb, V::Bb, Pins<V::Bb>) {
        let t = &V::rules().tables;
        let us = self.turn;
        let them = !us;
        let ours = self.by_color[us.index()];
        let mut checkers = V::Bb::EMPTY;
        for &role in t.leap_capturing_roles(them) {
            checkers |= t.leap_capturers_of(them, role, ksq) & self.pieces(them, role);
        }
        let mut block = V::Bb::EMPTY;
        let mut pins = Pins {
            pinned: V::Bb::EMPTY,
            lines: ArrayVec::new(),
        };
        for group in t.ride_groups(them) {
            let riders = self.riders_of(group, them);
            if riders.is_empty() {
                continue;
            }
            for &slot in &group.reverse {
                let Some(b1) = t.first_blocker(slot, ksq, occ) else {
                    continue;
                };
                if riders.contains(b1) {
                    checkers.insert(b1);
                    block |= t.ride(slot, ksq, occ) & !V::Bb::from_square(b1);
                } else if ours.contains(b1) {
                    let through = occ ^ V::Bb::from_square(b1);
                    if let Some(b2) = t.first_blocker(slot, ksq, through) {
                        if riders.contains(b2) && !pins.pinned.contains(b1) {
                            pins.pinned.insert(b1);
                            pins.lines.push((b1, t.ride(slot, ksq, through)));
                        } else if riders.contains(b2) {
                            // Pinned along two lines at once: it cannot move at all.
                            for e in pins.lines.iter_mut().filter(|e| e.0 == b1) {
                                e.1 = V::Bb::EMPTY;
                            }
                        }
                    }
                }
            }
        }
        (checkers, block, pins)
    }

    /// The pieces of `side` that ride along every line of `group`.
    #[inline]
    fn riders_of(&self, group: &crate::attacks::RideGroup, side: Color) -> V::Bb {
        let mut riders = V::Bb::EMPTY;
        for &r in &group.roles {
            riders |= self.by_role.as_ref()[r.index()];
        }
        riders & self.by_color[side.index()]
    }

    /// The pieces of `us` pinned to its royal piece on `ksq` by an enemy rider (the only
    /// piece between them on the rider's line), for the evaluation.
    pub(crate) fn pinned_to_royal(&self, us: Color, ksq: Square, occ: V::Bb) -> V::Bb {
        let them = self.by_color[(!us).index()];
        let own = self.by_color[us.index()];
        V::rules().tables.pinned(ksq, occ, !us, own, |r| {
            self.by_role.as_ref()[r.index()] & them
        })
    }

    /// Quiet and capture targets of a piece, ignoring pins and checks.
    #[inline]
    fn targets(&self, role: Role, from: Square, occ: V::Bb) -> (V::Bb, V::Bb) {
        let t = &V::rules().tables;
        let us = self.turn;
        let empty = !occ;
        let enemy = self.by_color[(!us).index()];
        let mut quiet = t.leap_moves(us, role, from) & empty;
        let mut caps = t.leap_captures(us, role, from) & enemy;
        for &slot in t.rides(us, role) {
            let reach = t.ride(slot, from, occ);
            if slot.modality.moves() {
                quiet |= reach & empty;
            }
            if slot.modality.captures() {
                caps |= reach & enemy;
            }
        }
        (quiet, caps)
    }

    /// Whether `role`, dropped on `to`, would attack the enemy royal piece.
    fn drop_checks(&self, role: Role, to: Square, occ: V::Bb) -> bool {
        let Some(k) = self.king(!self.turn) else {
            return false;
        };
        let (_, captures) = self.targets(role, to, occ | V::Bb::from_square(to));
        captures.contains(k)
    }

    /// Promotion roles available to the side to move now.
    fn promotion_choices(&self) -> ArrayVec<Role, 16> {
        let rules = V::rules();
        let only_lost = rules.spec.promotion.as_ref().is_some_and(|p| p.only_lost);
        rules
            .promotion_choices
            .iter()
            .copied()
            .filter(|&r| {
                !only_lost
                    || self.pieces(self.turn, r).count() < rules.initial_count[r.index()] as u32
            })
            .collect()
    }

    /// Appends every legal move.
    pub fn legal_moves_into<M: MoveBuf>(&self, out: &mut M) {
        let start = out.len();
        self.generate::<M, false>(out);
        self.forced_captures(out, start);
    }

    /// Appends, out of check, only the legal moves that change material (captures, en
    /// passant, promotions), in the order [`Position::legal_moves_into`] gives them; in
    /// check, every legal move. For the quiescence search, which looks at no other move:
    /// the quiet moves are neither listed nor tested there.
    pub fn tactical_moves_into<M: MoveBuf>(&self, out: &mut M) {
        let start = out.len();
        self.generate::<M, true>(out);
        self.forced_captures(out, start);
    }

    /// Where captures are compulsory ([`crate::rules::VariantSpec::must_capture`]) and one
    /// of the moves appended from `start` captures, the others are dropped.
    #[inline]
    fn forced_captures<M: MoveBuf>(&self, out: &mut M, start: usize) {
        if V::rules().spec.must_capture && out.as_ref()[start..].iter().any(|&m| self.is_capture(m))
        {
            out.retain_from(start, |m| self.is_capture(m));
        }
    }

    /// Whether the legal move `m` takes a piece (as Fairy-Stockfish counts captures: a move
    /// onto an occupied cell, or en passant; never castling or a drop).
    fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castle | MoveKind::Drop => false,
            _ => self.piece_at(m.to()).is_some(),
        }
    }

    /// Legal moves; with `TACTICAL`, those of [`Position::tactical_moves_into`].
    fn generate<M: MoveBuf, const TACTICAL: bool>(&self, out: &mut M) {
        let rules = V::rules();
        let t = &rules.tables;
        let us = self.turn;
        let them = !us;
        let ours = self.by_color[us.index()];
        let occ = self.occupied();
        // A side without a royal piece is never in check: all its moves are legal.
        let ksq = self.king(us);
        let (checkers, block, pins) = match ksq {
            Some(k) => self.king_safety(k, occ),
            None => (V::Bb::EMPTY, V::Bb::EMPTY, Pins::none()),
        };
        let tactical_only = TACTICAL && checkers.is_empty();
        let enemy = self.by_color[them.index()];

        // King moves: the destination must be safe with the King lifted off its cell.
        let king_role = rules.king;
        if let Some(ksq) = ksq {
            let (kq, kc) = self.targets(king_role, ksq, occ);
            let lifted = occ ^ V::Bb::from_square(ksq);
            let king_targets = if tactical_only { kc } else { kq | kc };
            for to in king_targets.squares() {
                if !self.attacked_within(to, lifted, them) {
                    out.push(Move::normal(ksq, to));
                }
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let allowed = if checkers.any() {
            checkers | block
        } else {
            !ours
        };

        let promoting = rules.promoting;
        let mut choices: Option<ArrayVec<Role, 16>> = None;
        let mandatory = rules.spec.promotion.as_ref().is_some_and(|p| p.mandatory);
        let zone = rules.promotion_zone[us.index()];
        for r in 0..t.num_roles() {
            let role = Role(r as u8);
            if role == king_role {
                continue;
            }
            for from in self.pieces(us, role).squares() {
                let (q, c) = self.targets(role, from, occ);
                let promotes = promoting >> r & 1 != 0;
                let mut to_set = (q | c) & allowed;
                if tactical_only {
                    // Quiet moves only where they promote.
                    to_set &= if promotes { enemy | zone } else { enemy };
                }
                if pins.pinned.contains(from) {
                    to_set &= pins.line(from);
                }
                if promotes && (to_set & zone).any() {
                    let choices = choices.get_or_insert_with(|| self.promotion_choices());
                    for to in to_set.squares() {
                        if !zone.contains(to) {
                            out.push(Move::normal(from, to));
                            continue;
                        }
                        if (!mandatory || choices.is_empty())
                            && (!tactical_only || enemy.contains(to))
                        {
                            out.push(Move::normal(from, to));
                        }
                        for &p in choices.iter() {
                            out.push(Move::new(from, to, MoveKind::Promotion, p));
                        }
                    }
                } else {
                    for to in to_set.squares() {
                        out.push(Move::normal(from, to));
                    }
                }
            }
        }

        if let Some((pawn, steps)) = &rules.double_step {
            // A double step lands on an empty cell: never tactical.
            if !tactical_only {
                for from in self.pieces(us, *pawn).squares() {
                    if let Some((mid, to, _)) = steps[us.index()][from.index()] {
                        if !occ.contains(mid)
                            && !occ.contains(to)
                            && allowed.contains(to)
                            && (!pins.pinned.contains(from) || pins.line(from).contains(to))
                        {
                            out.push(Move::new(from, to, MoveKind::DoubleStep, *pawn));
                        }
                    }
                }
            }
            if let Some(ep) = self.ep {
                let victim = self.ep_victim(ep, them);
                for from in (t.leap_capturers_of(us, *pawn, ep) & self.pieces(us, *pawn)).squares()
                {
                    let after = occ ^ V::Bb::from_square(from) ^ V::Bb::from_square(victim)
                        | V::Bb::from_square(ep);
                    if ksq.is_none_or(|k| !self.attacked_within(k, after, them)) {
                        out.push(Move::new(from, ep, MoveKind::EnPassant, *pawn));
                    }
                }
            }
        }

        if let Some(drops) = rules.spec.drops.filter(|_| !tactical_only) {
            // A drop lands on an empty cell: in check, only between a rider and the King.
            let mut cells = rules.board & !occ;
            if checkers.any() {
                cells &= block;
            }
            for r in 0..t.num_roles() {
                let role = Role(r as u8);
                if self.in_hand(us, role) == 0 {
                    continue;
                }
                let mut to_set = cells;
                if rules.promoting >> r & 1 != 0 {
                    to_set &= !rules.pawn_drop_barred[us.index()];
                }
                for to in to_set.squares() {
                    if !drops.checks && self.drop_checks(role, to, occ) {
                        continue;
                    }
                    out.push(Move::new(to, to, MoveKind::Drop, role));
                }
            }
        }

        if checkers.is_empty() {
            for c in rules
                .castling
                .iter()
                .filter(|c| c.color == us && self.castling & c.bit != 0)
            {
                if Some(c.king_from) == ksq
                    && (!tactical_only || occ.contains(c.king_to))
                    && self.pieces(us, c.rook_role).contains(c.rook_from)
                    && (c.must_be_empty & occ).is_empty()
                    && c.king_path.squares().all(|s| {
                        // With the castling Rook lifted: where it is not on the board's edge,
                        // a rider beyond it hits the King's path once it has moved (as in
                        // Chess960 and Fairy-Stockfish).
                        !self.attacked_within(s, occ ^ V::Bb::from_square(c.rook_from), them)
                    })
                {
                    out.push(Move::new(
                        c.king_from,
                        c.king_to,
                        MoveKind::Castle,
                        king_role,
                    ));
                }
            }
        }
    }
}

impl<V: Variant> Position<V> {
    /// Whether `m` is one of [`Position::legal_moves_into`]'s moves, found without generating
    /// them: the search plays the transposition table's move before generating the rest,
    /// and most nodes with such a move are cut by it. A plain move or promotion is checked
    /// against its piece's targets, the promotion rules and, by playing it, the safety of
    /// the mover's King; the rarer kinds (double steps, en passant, castling) against the
    /// generated list.
    pub fn is_legal_move(&self, m: Move) -> bool {
        // Whether a capture is compulsory here takes the whole list to tell.
        if !matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion)
            || V::rules().spec.must_capture
        {
            let mut list = V::Moves::default();
            self.legal_moves_into(&mut list);
            return list.as_ref().contains(&m);
        }
        let rules = V::rules();
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let cells = self.cells.as_ref().len();
        if from.index() >= cells || to.index() >= cells {
            return false;
        }
        let Some(piece) = self.piece_at(from).filter(|p| p.color == us) else {
            return false;
        };
        let ksq = self.king(us);
        let occ = self.occupied();
        let (quiet, captures) = self.targets(piece.role, from, occ);
        if !(quiet | captures).contains(to) || (piece.role == rules.king) != (Some(from) == ksq) {
            return false;
        }
        let promotes = rules.promoting >> piece.role.index() & 1 != 0
            && rules.promotion_zone[us.index()].contains(to);
        let shape_ok = match m.kind() {
            MoveKind::Promotion => promotes && self.promotion_choices().contains(&m.role()),
            _ => {
                m.role().0 == 0
                    && (!promotes
                        || !rules.spec.promotion.as_ref().is_some_and(|p| p.mandatory)
                        || self.promotion_choices().is_empty())
            }
        };
        if !shape_ok {
            return false;
        }
        let Some(ksq) = ksq else {
            return true;
        };
        if from == ksq {
            return !self.attacked_within(to, occ ^ V::Bb::from_square(ksq), !us);
        }
        let mut after = *self;
        after.play_unchecked(m);
        !after.attacked_within(ksq, after.occupied(), !us)
    }
}

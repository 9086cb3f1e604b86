//! Dialectic Chess's evaluation features, static exchange and capture order.

use super::*;

impl<const HEGELIAN: bool> DialecticPos<HEGELIAN> {
    /// Every piece on its cell; where the weights use them (`FeatureSink::wants_activity`),
    /// mobility per kind and cramped pieces, attacks on the cells next to the enemy King
    /// (per kind too), and threatened pieces, as the chess family counts them, with the
    /// tokens as they stand.
    pub(super) fn report_features<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
        use crate::bitboard::Bb64;
        // The occupied cells only (a word per side), not all 64 of the mailbox.
        for c in Color::ALL {
            let flip = if c == Color::White { 0 } else { 56 };
            let mut bb = self.occ[c.index()];
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                sink.piece(c, ((self.board[sq] - 1) >> 1) as usize, sq ^ flip);
            }
        }
        if !sink.wants_activity() {
            return;
        }
        let t = tables();
        const ROLES: usize = PIECES.len();
        let mut attacked = [[Bb64(0); ROLES]; 2];
        let mut pieces = [[Bb64(0); ROLES]; 2];
        for c in Color::ALL {
            let own = self.occ[c.index()];
            let zone = t.king[self.kings[(!c).index()] as usize];
            let mut zone_attacks = 0;
            let mut bb = own;
            while bb != 0 {
                let sq = bb.trailing_zeros() as u8;
                bb &= bb - 1;
                let role = ((self.board[sq as usize] - 1) >> 1) as usize;
                pieces[c.index()][role].0 |= 1 << sq;
                let (reach, attacks) = self.reach_and_attacks(sq, c);
                attacked[c.index()][role].0 |= attacks;
                if role == KING as usize {
                    continue;
                }
                zone_attacks += crate::eval::report_piece_activity(
                    sink,
                    c,
                    role,
                    (reach & !own).count_ones(),
                    (reach & zone).count_ones(),
                );
            }
            sink.king_attacks(c, zone_attacks);
            sink.king_danger(c, zone_attacks);
        }
        let any = attacked.map(|side| Bb64(side.iter().fold(0, |acc, b| acc | b.0)));
        crate::eval::report_threats(
            sink,
            [&attacked[0], &attacked[1]],
            any,
            KING as usize,
            |r| PIECES[r].value,
            |c, r| pieces[c.index()][r],
            self.turn,
        );
    }

    /// The exchange on the target cell of a plain move or capture (an en passant capture
    /// too), from the attack walk with each capturer's cell emptied ([`crate::see`]).
    /// [D] A Philosopher's capture of a (Great) Philosopher counts its promotion to a Great
    /// Philosopher; a promotion in a later recapture is not counted. Token steps, pawn
    /// double steps, promotions and castling answer `None`, as in the chess family: a token
    /// step changes every Philosopher's reach at once, so no single cell settles it.
    pub(super) fn exchange(&self, m: Move, values: &[i32]) -> Option<i32> {
        use crate::see::{exchange_on_bitboards, ROYAL};
        let value = |r: u8| value_of(values, r.into());
        let role_of = |c: u8| (c - 1) >> 1;
        let worth = |c: u8| match role_of(c) {
            KING => ROYAL,
            r => value(r),
        };
        let (from, to) = (m.from().0 as u8, m.to().0 as u8);
        let mover = self.board[from as usize];
        if mover == 0 {
            return None;
        }
        let mut occ = self.occupied() & !(1u64 << from);
        let (victim, on_target) = match m.kind() {
            MoveKind::Normal => {
                let captured = self.board[to as usize];
                if captured == 0 {
                    (0, worth(mover))
                } else if role_of(mover) == PHIL && matches!(role_of(captured), PHIL | GREAT) {
                    let gain = value(GREAT) - value(PHIL);
                    (value(role_of(captured)) + gain, value(GREAT))
                } else {
                    (value(role_of(captured)), worth(mover))
                }
            }
            MoveKind::EnPassant => {
                let cap = ep_victim(to, self.turn);
                occ &= !(1u64 << cap);
                (value(PAWN), worth(mover))
            }
            _ => return None,
        };
        Some(exchange_on_bitboards(
            victim,
            on_target,
            crate::bitboard::Bb64(occ),
            !self.turn,
            |occ, by| crate::bitboard::Bb64(self.attackers_within::<false>(to, occ.0, by)),
            |sq| Some(self.board[sq.index()]).filter(|&c| c != 0).map(worth),
        ))
    }

    pub(super) fn order_captures(&self, m: Move, values: &[i32]) -> i32 {
        let val = |r: u8| value_of(values, r.into());
        let attacker = (self.board[m.from().index()].max(1) - 1) >> 1;
        let victim = match m.kind() {
            MoveKind::EnPassant => val(PAWN),
            _ => {
                let c = self.board[m.to().index()];
                if c == 0 {
                    0
                } else {
                    val((c - 1) >> 1)
                }
            }
        };
        let promo = if m.kind() == MoveKind::Promotion {
            val(m.role().0) - val(PAWN)
        } else {
            0
        };
        capture_order(victim, val(attacker), promo)
    }
}

//! Extreme 2D Chess's evaluation features, static exchange and capture order.

use super::*;

impl<const SIMPLE: bool> Extreme2dPos<SIMPLE> {
    /// Every disc of a stack on the stack's cell (a stack with two red discs counts the red
    /// cell entry twice), Pawns, Heirs and Kings once.
    pub(super) fn report_features<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
        for (sq, &s) in self.cells.iter().enumerate() {
            if s == 0 {
                continue;
            }
            let side = owner(s);
            let color = Color::ALL[side];
            let cell = if side == 0 {
                sq
            } else {
                (W - 1 - sq / W) * W + sq % W
            };
            if is_pawn(s) {
                sink.piece(color, 0, cell);
            }
            for (kind, n) in [(1, reds(s)), (2, blues(s)), (3, yellows(s))] {
                for _ in 0..n {
                    sink.piece(color, kind, cell);
                }
            }
            match role(s) {
                HEIR => sink.piece(color, 4, cell),
                KING => sink.piece(color, 5, cell),
                _ => {}
            }
        }
        if sink.wants_activity() {
            self.report_activity(sink);
        }
    }

    /// Two cheap terms, in centipawns: 4 per rank a Pawn has advanced from its start rank, and
    /// 3 per step a stack with powers stands in from the nearest edge (a stack's material is
    /// already the sum of its discs).
    pub(super) fn positional_terms(&self) -> i32 {
        let mut score = [0i32; 2];
        for (sq, &s) in self.cells.iter().enumerate() {
            if s == 0 {
                continue;
            }
            let (f, r) = ((sq % W) as i32, (sq / W) as i32);
            let side = owner(s);
            if is_pawn(s) {
                score[side] += 4 * if side == 0 { r - 2 } else { 7 - r };
            } else if s & POWERS != 0 {
                score[side] += 3 * f.min(9 - f).min(r).min(9 - r);
            }
        }
        let us = self.turn.index();
        score[us] - score[1 - us]
    }

    pub(super) fn order_captures(&self, m: Move, values: &[i32]) -> i32 {
        match m.kind() {
            MoveKind::Normal => {
                let attacker = Self::stack_value(self.cells[m.from().index()], values);
                let victim = Self::stack_value(self.cells[m.to().index()], values);
                crate::variants::kernel::capture_order(victim, attacker, 0)
            }
            MoveKind::Promotion => {
                let v = |i: usize| crate::variants::kernel::value_of(values, i);
                v(4) - 2 * v(0)
            }
            _ => 0,
        }
    }

    /// A capture's gain is the victim stack's value plus what the captor's own stack gains by
    /// absorbing its discs (a Pawn that gains a power stops counting as a Pawn); the merged
    /// stack is what the next capture takes. A quiet move answers the exchange of the moved
    /// stack on its destination; placements, swaps and promotions answer `None`, as in the
    /// chess family. Recaptures come least valuable stack first from the attack walk, each
    /// captor's cell emptied (x-rays); the King recaptures only onto a cell the other side no
    /// longer attacks; pins are ignored.
    /// \[D\] Gains are changes of [`Game::material`] (per-disc values), so a captured Heir
    /// counts its own value and nothing for the promotion its return to the reserve allows.
    pub(super) fn exchange(&self, m: Move, values: &[i32]) -> Option<i32> {
        let (first, mut on_target) = self.see_start(m, values)?;
        let to = m.to().index();
        let mut occ = (self.occ[0].0 | self.occ[1].0) & !(1u128 << m.from().index());
        let mut side = 1 - self.turn.index();
        Some(swap_with_gains(first, || {
            // Only stacks still on the board, the target's occupant excluded.
            let on_board = |occ: u128| !occ | 1u128 << to;
            let mut attackers = self.attackers_within::<false>(to, side, occ, on_board(occ));
            let mut best = (i32::MAX, 0);
            while attackers != 0 {
                let sq = attackers.trailing_zeros() as usize;
                attackers &= attackers - 1;
                let w = Self::see_worth(self.cells[sq], values);
                if w < best.0 {
                    best = (w, sq);
                }
            }
            let (w, sq) = best;
            if w == i32::MAX {
                return None;
            }
            occ &= !(1u128 << sq);
            if w == ROYAL && self.attacked(to, 1 - side, occ, on_board(occ)) {
                return None;
            }
            let (gain, merged) = Self::see_capture(self.cells[sq], on_target, values);
            on_target = merged;
            side = 1 - side;
            Some(gain)
        }))
    }

    /// Two bounds settle a threshold without the exchange: it never beats stopping after
    /// the first capture, and (values not negative) never loses more than the stack then on
    /// the target plus the power discs a recapture could absorb from it.
    pub(super) fn exchange_at_least(
        &self,
        m: Move,
        values: &[i32],
        threshold: i32,
    ) -> Option<bool> {
        let (first, on_target) = self.see_start(m, values)?;
        if first < threshold {
            return Some(false);
        }
        if role(on_target) != KING && values.iter().all(|&v| v >= 0) {
            let v = |i: usize| values.get(i).copied().unwrap_or(0);
            let powers = reds(on_target) as i32 * v(1)
                + blues(on_target) as i32 * v(2)
                + yellows(on_target) as i32 * v(3);
            if first - Self::stack_value(on_target, values) - powers >= threshold {
                return Some(true);
            }
        }
        self.see(m, values).map(|v| v >= threshold)
    }
}

impl<const SIMPLE: bool> Extreme2dPos<SIMPLE> {
    /// The evaluation's activity features, from one walk of every stack's attacks:
    /// - mobility per disc kind (the cells each power of a stack reaches that its side does
    ///   not hold; a Pawn's step);
    /// - attacks on the cells next to the enemy King, in all and per disc kind (a stack's
    ///   royal steps count for neither);
    /// - threatened stacks and forks ([`Self::report_threats`]), from the cells each side
    ///   attacks (every part of a stack: powers, royal step, a Pawn's step; the King's too).
    pub(super) fn report_activity<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
        use crate::eval::KindTerm;
        let t = tables();
        let occ = self.occ[0].0 | self.occ[1].0;
        let mut attacks = [Attacks::default(), Attacks::default()];
        for c in Color::ALL {
            let (us, them) = (c.index(), 1 - c.index());
            let own = self.occ[us].0;
            let enemy = self.occ[them].0;
            let zone = match self.king_sq[them] {
                NO_SQ => 0,
                k => t.king[k as usize],
            };
            let att = &mut attacks[us];
            // [X3]: a Pawn attacks the cell in front of it (none from the last rank).
            att.pawns = if us == 0 {
                self.pawns[0].0 << W & BOARD
            } else {
                self.pawns[1].0 >> W
            };
            att.all = att.pawns;
            let mut zone_attacks = 0;
            let mut stacks = own;
            while stacks != 0 {
                let from = stacks.trailing_zeros() as usize;
                stacks &= stacks - 1;
                let s = self.cells[from];
                if is_pawn(s) {
                    // [X3]: one step forward, onto an empty cell or an enemy.
                    let ahead = if us == 0 {
                        from + W
                    } else {
                        from.wrapping_sub(W)
                    };
                    let step = (ahead < N && own >> ahead & 1 == 0) as u32;
                    sink.mobility(c, 0, step);
                    if ahead < N && zone >> ahead & 1 != 0 {
                        zone_attacks += 1;
                        sink.kind_term(c, 0, KindTerm::ZoneAttacks, 1);
                    }
                    continue;
                }
                let mut reach = if role(s) != PLAIN { t.king[from] } else { 0 };
                for (i, cells) in self.power_targets(from, s, occ).into_iter().enumerate() {
                    if cells == 0 {
                        continue;
                    }
                    reach |= cells;
                    sink.mobility(c, i + 1, (cells & !own).count_ones());
                    let n = (cells & zone).count_ones();
                    if n > 0 {
                        zone_attacks += n;
                        sink.kind_term(c, i + 1, KindTerm::ZoneAttacks, n);
                    }
                }
                att.all |= reach;
                // The King attacks and defends but is never the cheaper attacker.
                if reach & enemy != 0 && role(s) != KING {
                    att.pieces.push((s, reach));
                }
            }
            sink.king_attacks(c, zone_attacks);
            sink.king_danger(c, zone_attacks);
        }
        self.report_threats(sink, &attacks);
    }

    /// Threatened stacks per kind, and forks, from each side's [`Attacks`]. A stack other
    /// than the King is threatened when an enemy stack of lower worth attacks it, or when the
    /// enemy attacks it and its own side does not (as in [`crate::eval::report_threats`]).
    /// Worth is the exchange's ([`Self::see_worth`]) at the default values: the sum of the
    /// stack's discs (a Pawn 100, red 450, blue 300, yellow 280, the Heir disc 200).
    ///
    /// \[D\] Only the King is royal (the rules): the Heir, which may be captured, is a target
    /// like any stack and may be the cheaper attacker; the King is neither, but its attacks
    /// (royal step and powers) count for attacking and defending.
    ///
    /// A threatened stack counts once for each of its discs, in the disc's material kind,
    /// as [`Game::material`] and the cell tables count it (a threatened `(rry)` is two
    /// threatened reds and one yellow, a bare Heir one heir); a fork is two or more
    /// threatened stacks, whatever their discs.
    pub(super) fn report_threats<S: crate::eval::FeatureSink>(
        &self,
        sink: &mut S,
        attacks: &[Attacks; 2],
    ) {
        for c in Color::ALL {
            let (us, them) = (c.index(), 1 - c.index());
            let enemy = &attacks[them];
            let mut counts = [0u32; 5];
            let mut stacks = 0;
            let mut targets = self.occ[us].0 & enemy.all;
            while targets != 0 {
                let sq = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let s = self.cells[sq];
                if role(s) == KING {
                    continue;
                }
                if attacks[us].all >> sq & 1 != 0 {
                    // Defended: threatened only by a cheaper attacker. None is cheaper than a
                    // Pawn, and an enemy Pawn is cheaper than any other stack.
                    if is_pawn(s) {
                        continue;
                    }
                    if enemy.pawns >> sq & 1 == 0 {
                        let worth = Self::stack_value(s, &DEFAULT_VALUES);
                        let cheaper = enemy.pieces.iter().any(|&(a, reach)| {
                            reach >> sq & 1 != 0 && Self::stack_value(a, &DEFAULT_VALUES) < worth
                        });
                        if !cheaper {
                            continue;
                        }
                    }
                }
                stacks += 1;
                for (n, k) in counts.iter_mut().zip(kind_counts(s)) {
                    *n += u32::from(k);
                }
            }
            for (kind, n) in counts.into_iter().enumerate() {
                if n > 0 {
                    sink.threatened(c, kind, c == self.turn, n);
                }
            }
            if stacks >= 2 {
                sink.multiple_threats(c, c == self.turn);
            }
        }
    }

    /// A stack's worth in an exchange ([`Game::see`]): its value, the King's never lost.
    pub(super) fn see_worth(s: u16, values: &[i32]) -> i32 {
        if role(s) == KING {
            ROYAL
        } else {
            Self::stack_value(s, values)
        }
    }

    /// What `captor` gains in an exchange by taking `victim`, and the stack it then forms.
    pub(super) fn see_capture(captor: u16, victim: u16, values: &[i32]) -> (i32, u16) {
        let merged = absorb(captor, victim, Self::CAP);
        let grown = Self::stack_value(merged, values) - Self::stack_value(captor, values);
        (
            (Self::see_worth(victim, values) + grown).min(ROYAL / 2),
            merged,
        )
    }

    /// The first capture of an exchange: what the normal move `m` gains and the stack it
    /// leaves on its destination (`None` for other moves).
    pub(super) fn see_start(&self, m: Move, values: &[i32]) -> Option<(i32, u16)> {
        let mover = self.cells[m.from().index()];
        if m.kind() != MoveKind::Normal || mover == 0 {
            return None;
        }
        Some(match self.cells[m.to().index()] {
            0 => (0, mover),
            victim => Self::see_capture(mover, victim, values),
        })
    }

    /// Value of a stack for move ordering, with `values` indexed like the material kinds.
    pub(super) fn stack_value(s: u16, values: &[i32]) -> i32 {
        if s == 0 {
            return 0;
        }
        let v = |i: usize| values.get(i).copied().unwrap_or(0);
        let mut x = reds(s) as i32 * v(1) + blues(s) as i32 * v(2) + yellows(s) as i32 * v(3);
        if is_pawn(s) {
            x += v(0);
        }
        match role(s) {
            HEIR => x += v(4),
            KING => x += v(5),
            _ => {}
        }
        x
    }
}

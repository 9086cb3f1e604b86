//! Dai Mitregi's evaluation features, static exchange and capture order.

use super::*;

impl<const STEPPING: bool> DaiMitregiPos<STEPPING> {
    /// Pieces on their cells, the pieces in hand per kind, and the activity features
    /// (mobility, royal-zone attacks, threats).
    pub(super) fn report_features<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
        for color in Color::ALL {
            self.each_piece(color, |sq, c| {
                let cell = match color {
                    Color::White => sq,
                    // The array is point-symmetric: Black sees the board turned half round.
                    Color::Black => NSQ - 1 - sq,
                };
                sink.piece(color, Self::kind_of(c), cell);
            });
        }
        for color in Color::ALL {
            for (kind, &n) in self.hands[color.index()].iter().enumerate() {
                if n > 0 {
                    sink.in_hand(color, kind, n as u32);
                }
            }
        }
        if sink.wants_activity() {
            self.report_activity(sink);
        }
    }

    /// The static exchange on the move's target cell, least valuable piece first, each side
    /// free to stop. A drop game's capture is worth the victim's value to its owner plus the
    /// piece the captor gains in hand (its unpromoted role's value), so that is what each
    /// capture in the exchange scores; a promotion adds the promoted form's gain. Pins and
    /// promotions on recapture are ignored; the King recaptures only onto an unattacked cell.
    /// A drop captures nothing: its exchange says whether the dropped piece can be taken
    /// for less than it is worth.
    pub(super) fn exchange(&self, m: Move, values: &[i32]) -> Option<i32> {
        let (ft, t) = (self.form(), tables());
        let value = |c: u8| value_of(values, Self::kind_of(c));
        // What losing the piece costs its owner and gains the captor.
        let worth = |c: u8| {
            if role_of(c) == KING {
                ROYAL
            } else {
                value(c) + value_of(values, role_of(c))
            }
        };
        let (from, to) = (m.from().index(), m.to().index());
        let mover = if m.kind() == MoveKind::Drop {
            code(self.turn, m.role().index(), false)
        } else {
            self.board[from]
        };
        if mover == 0 {
            return None;
        }
        let moved = if m.kind() == MoveKind::Promotion {
            mover | PROMOTED_BIT
        } else {
            mover
        };
        let victim = self.board[to];
        let mut first = if victim == 0 { 0 } else { worth(victim) };
        if role_of(mover) != KING {
            first += value(moved) - value(mover);
        }
        let mut board = self.board;
        if m.kind() != MoveKind::Drop {
            board[from] = 0;
        }
        board[to] = moved;
        let mut side = !self.turn;
        Some(swap(first, worth(moved), || {
            let (v, sq) = least_attacker(ft, t, &board, to, side, worth)?;
            board[to] = board[sq];
            board[sq] = 0;
            // The King takes only where nothing of the other side could take back.
            if v == ROYAL && attacked(ft, t, &board, to, !side) {
                return None;
            }
            side = !side;
            Some(v)
        }))
    }

    pub(super) fn order_captures(&self, m: Move, values: &[i32]) -> i32 {
        if m.kind() == MoveKind::Drop {
            return -value_of(values, m.role().index());
        }
        let c = self.board[m.from().index()];
        let attacker = value_of(values, Self::kind_of(c));
        let v = self.board[m.to().index()];
        let victim = if v == 0 {
            0
        } else {
            value_of(values, Self::kind_of(v))
        };
        let promotion = if m.kind() == MoveKind::Promotion {
            value_of(values, Self::kind_of(c | PROMOTED_BIT)) - attacker
        } else {
            0
        };
        capture_order(victim, attacker, promotion)
    }

    /// One documented term: each unpromoted Wazchick and Fearless scores 3 centipawns per
    /// rank advanced from its own back rank (pawn-rank pieces gain by nearing the promotion
    /// zone), from the side to move's point of view.
    pub(super) fn positional_terms(&self) -> i32 {
        let mut score = 0;
        for (sq, &c) in self.board.iter().enumerate() {
            if c == 0 || promoted(c) || !matches!(ROLES[role_of(c)].letter, 'Z' | 'F') {
                continue;
            }
            let color = color_of(c);
            let advance = match color {
                Color::White => sq / FILES,
                Color::Black => RANKS - 1 - sq / FILES,
            } as i32;
            score += if color == self.turn { 3 } else { -3 } * advance;
        }
        score
    }
}

impl<const STEPPING: bool> DaiMitregiPos<STEPPING> {
    /// Mobility, royal-zone attacks and threats, the evaluation's activity features (as in
    /// the chess family), from one pass that walks every piece's attacks:
    /// - mobility: the cells a non-royal piece attacks that its side does not hold;
    /// - royal-zone attacks: attacks by non-royal pieces on the cells next to the enemy King
    ///   (its step in every direction, also for a Grandpasha);
    /// - threatened pieces per kind, and forks: a piece attacked by a cheaper enemy piece
    ///   (default values; the King is never the cheaper one), or attacked and not defended.
    ///
    /// Not inlined: inlined into the search's static evaluation it worsened the code of the
    /// other terms (0.6% more instructions in the Leaping form, whose weights skip this walk).
    #[inline(never)]
    pub(super) fn report_activity<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
        let (ft, t) = (self.form(), tables());
        let zone = |c: Color| {
            let mut z = DaiBb::EMPTY;
            let k = self.kings[c.index()] as usize;
            if k < NSQ {
                for d in 0..DIRS.len() {
                    if let Some(&x) = t.rays[d * NSQ + k].first() {
                        z.insert(Square(x as u16));
                    }
                }
            }
            z
        };
        let zones = [zone(Color::White), zone(Color::Black)];
        // Per side: every cell it attacks, and the cheapest attacker of each enemy piece.
        let mut attacked = [DaiBb::EMPTY; 2];
        let mut cheapest = [[i32::MAX; NSQ]; 2];
        for color in Color::ALL {
            let (own, theirs) = (
                self.occupied[color.index()],
                self.occupied[(!color).index()],
            );
            let mut zone_attacks = 0;
            let walks = &ft.walks[color.index() * NCLASSES * NSQ..][..NCLASSES * NSQ];
            self.each_piece(color, |sq, c| {
                let class = class_of(c);
                let slides = ft.slides[color.index()][class];
                let reach = self.reach(&walks[class * NSQ + sq], slides, ft, t, sq);
                attacked[color.index()] |= reach;
                let worth = Self::default_worth(c);
                (reach & theirs).for_each_index(|target| {
                    let best = &mut cheapest[color.index()][target];
                    *best = (*best).min(worth);
                });
                if role_of(c) != KING {
                    sink.mobility(color, class, (reach & !own).count());
                    zone_attacks += (reach & zones[(!color).index()]).count();
                }
            });
            sink.king_attacks(color, zone_attacks);
            sink.king_danger(color, zone_attacks);
        }
        for color in Color::ALL {
            let (mine, enemy) = (color.index(), (!color).index());
            let mut counts = [0u32; NCLASSES];
            for sq in (self.occupied[mine] & attacked[enemy]).squares() {
                let c = self.board[sq.index()];
                if role_of(c) != KING
                    && (cheapest[enemy][sq.index()] < Self::default_worth(c)
                        || !attacked[mine].contains(sq))
                {
                    counts[class_of(c)] += 1;
                }
            }
            crate::eval::report_threat_counts(
                sink,
                color,
                color == self.turn,
                counts.into_iter().enumerate(),
            );
        }
    }

    /// The cells attacked by the piece on `sq` whose entry of [`FormTables::walks`] is `w`
    /// and whose slide directions (bits of [`DIRS`]) are `slides`.
    #[inline]
    pub(super) fn reach(
        &self,
        w: &Walk,
        slides: u8,
        ft: &FormTables,
        t: &Tables,
        sq: usize,
    ) -> DaiBb {
        let [a, b, c, d] = w.free;
        let mut reach = CellSet(a, b, c, d);
        for &(mid, to) in &ft.lame[w.lame_start as usize..][..w.lame_len as usize] {
            if self.board[mid as usize] == 0 {
                reach.add(to);
            }
        }
        let mut sl = slides;
        while sl != 0 {
            let d = sl.trailing_zeros() as usize;
            sl &= sl - 1;
            for &x in &t.rays[d * NSQ + sq] {
                reach.add(x);
                if self.board[x as usize] != 0 {
                    break;
                }
            }
        }
        reach.board()
    }
}

/// The least valuable piece of `by` that attacks `sq` on `board`, as (its worth in `worth`,
/// its cell); a royal piece is worth `ROYAL`, so it comes last.
pub(super) fn least_attacker(
    ft: &FormTables,
    t: &Tables,
    board: &[u8; NSQ],
    sq: usize,
    by: Color,
    worth: impl Fn(u8) -> i32,
) -> Option<(i32, usize)> {
    let mut best: Option<(i32, usize)> = None;
    visit_attackers(ft, t, board, sq, by, |c, from| {
        let v = worth(c);
        if best.is_none_or(|(bv, _)| v < bv) {
            best = Some((v, from));
        }
        ControlFlow::Continue(())
    });
    best
}

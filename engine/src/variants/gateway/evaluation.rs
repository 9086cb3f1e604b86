//! Gateway Chess's evaluation features, static exchange and capture order.

use super::*;

/// A cell numbered from `c`'s side: ranks counted from its camp, levels and files as they are.
fn relative_cell(c: Color, sq: usize) -> usize {
    let (f, rank, l) = coords(sq);
    let rank = if c == Color::White {
        rank
    } else {
        RANKS - 1 - rank
    };
    (l * RANKS + rank) * FILES + f
}

impl Gateway {
    /// The network's inputs: every piece on its cell as [`Gateway::report_features`] numbers
    /// it, and each side's Quantum King by its row (level and rank, from its owner's side), an
    /// extra input: it stands on no single cell.
    pub(super) fn report_inputs<S: crate::nnue::InputSink>(&self, sink: &mut S) {
        for c in Color::ALL {
            for r in 0..NROLES {
                for s in self.pieces(c, r).squares() {
                    sink.piece(c, r, relative_cell(c, s.index()));
                }
            }
            let row = self.qk[c.index()];
            if row != NO_ROW {
                sink.extra(Some(c), relative_cell(c, row as usize * FILES) / FILES);
            }
        }
    }

    /// Every piece on its cell (the Quantum King, spread over a row, has none); mobility per
    /// kind; attacks on the enemy royal zone (its Quantum King's cells and the rows it could
    /// step to, or its Emperor's neighbours: four threatened row cells are mate); threatened
    /// pieces, as the chess family counts them (the Quantum King attacks and defends, but is
    /// never the cheaper attacker); pawn structure by columns (`Gateway::report_pawn_terms`).
    pub(super) fn report_features<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
        let at = &tables().at;
        let occ = self.occupied();
        let no_entry = self.all_qk();
        let mut attacked = [[GatewayBb::EMPTY; NROLES]; 2];
        for c in Color::ALL {
            let own = self.by_color[c.index()];
            let zone = match self.emperor(!c) {
                Some(e) => at.leap_moves(!c, Role(EMPEROR as u8), e),
                None => self.qk_cells(!c) | self.qk_attacks(!c),
            };
            let mut zone_attacks = 0;
            for (r, role_attacks) in attacked[c.index()].iter_mut().enumerate() {
                let role = Role(r as u8);
                for s in self.pieces(c, r).squares() {
                    let (f, rank, l) = coords(s.index());
                    let rank = if c == Color::White {
                        rank
                    } else {
                        RANKS - 1 - rank
                    };
                    sink.piece(c, r, (l * RANKS + rank) * FILES + f);
                    let (reach, attacks) = at.reach_and_attacks(c, role, s, occ);
                    *role_attacks |= attacks;
                    zone_attacks += (attacks & zone).count();
                    if r != EMPEROR {
                        sink.mobility(c, r, (reach & !own & !no_entry).count());
                    }
                }
            }
            sink.king_attacks(c, zone_attacks);
            sink.king_danger(c, zone_attacks);
        }
        let any = [Color::White, Color::Black].map(|c| {
            attacked[c.index()]
                .iter()
                .fold(self.qk_attacks(c), |acc, &b| acc | b)
        });
        crate::eval::report_threats(
            sink,
            [&attacked[0], &attacked[1]],
            any,
            EMPEROR,
            |r| ROLES[r].value,
            |c, r| self.pieces(c, r),
            self.turn,
        );
        self.report_pawn_terms(sink);
    }

    /// The swap algorithm on the shared attack tables, as in the chess family: attackers
    /// recomputed with each capturer's cell emptied (x-rays), Quantum King cells blocking
    /// rides, pins ignored, the Emperor recapturing only onto an unattacked cell. A promotion
    /// adds its gain. The Quantum King's row captures are not counted as recaptures, and its
    /// own moves (a step to a row, a transformation) answer `None`.
    pub(super) fn exchange(&self, m: Move, values: &[i32]) -> Option<i32> {
        if !matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion) {
            return None;
        }
        let value = |r: usize| value_of(values, r);
        let worth = |r: usize| if r == EMPEROR { ROYAL } else { value(r) };
        let role_at = |sq: Square| Piece::from_code(self.board[sq.index()]).map(|p| p.role.index());
        let (from, to) = (m.from(), m.to());
        let mover = role_at(from)?;
        let moved = if m.kind() == MoveKind::Promotion {
            m.role().index()
        } else {
            mover
        };
        let first = role_at(to).map_or(0, value) + value(moved) - value(mover);
        let at = &tables().at;
        let mut occ = self.occupied();
        occ.remove(from);
        Some(exchange_on_bitboards(
            first,
            worth(moved),
            occ,
            !self.turn,
            |occ, by| at.attackers(to, occ, by, |r| self.pieces(by, r.index()) & occ),
            |sq| role_at(sq).map(worth),
        ))
    }

    pub(super) fn order_captures(&self, m: Move, values: &[i32]) -> i32 {
        let value = |r: usize| value_of(values, r);
        let role_at = |sq: usize| Piece::from_code(self.board[sq]).map(|p| p.role.index());
        match m.kind() {
            MoveKind::QuantumStep => {
                let victims =
                    tables().rows[m.to().index() / FILES] & self.by_color[(!self.turn).index()];
                let v: i32 = victims
                    .squares()
                    .filter_map(|s| role_at(s.index()))
                    .map(value)
                    .sum();
                capture_order(v, value(NROLES), 0)
            }
            MoveKind::Transform => 0,
            kind => {
                let attacker = role_at(m.from().index()).map_or(0, value);
                let victim = role_at(m.to().index()).map_or(0, value);
                let promotion = if kind == MoveKind::Promotion {
                    value(m.role().index()) - attacker
                } else {
                    0
                };
                capture_order(victim, attacker, promotion)
            }
        }
    }

    /// Two cheap terms, White minus Black, from the mover's view: 4 centipawns per rank a
    /// Pawn has advanced, and 6 per non-royal piece standing in the open field (ranks 4–7)
    /// or beyond its own gateway.
    pub(super) fn positional_terms(&self) -> i32 {
        let mut score = [0i32; 2];
        for c in Color::ALL {
            let own = self.by_color[c.index()] & !self.by_role[EMPEROR];
            for s in own.squares() {
                let r = coords(s.index()).1 as i32;
                let adv = if c == Color::White { r } else { 9 - r };
                if self.board[s.index()] != 0 && self.by_role[PAWN].contains(s) {
                    score[c.index()] += 4 * (adv - 2);
                } else if adv >= 3 {
                    score[c.index()] += 6;
                }
            }
        }
        let us = self.turn.index();
        score[us] - score[1 - us]
    }
}

impl Gateway {
    /// Reports pawn structure, the chess family's rule with the file and the neighbouring
    /// files of a flat board replaced by the Pawn's column and its four neighbour columns
    /// ([`PawnMasks`]): per side, passed pawns by rank from their owner's side, doubled and
    /// isolated pawns, and of the [`PawnDetails`](crate::eval::PawnDetails) the blocked and
    /// free passed pawns. A pawn is doubled with one of its side's pawns ahead in its column
    /// (and is then not passed: the rear one of two is doubled, not passed); passed with no
    /// enemy pawn ahead in its column or a neighbour column (one there could block or take it
    /// on its way); isolated with none of its side's pawns in a neighbour column. Only masks
    /// of the prebuilt tables: no allocation.
    ///
    /// [D] A Pawn whose column has a missing cell ahead (files a and d below a gateway rank)
    /// can never step to the last rank: it is not passed, whatever the enemy pawns.
    ///
    /// [D] A Quantum King cell counts as occupied: no piece may enter it, so a passed pawn
    /// with one on its next cell is blocked, and one with one ahead in its column is not
    /// free. The Quantum King's cells are not pawns.
    pub(super) fn report_pawn_terms<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
        let m = &tables().pawns;
        let occ = self.occupied();
        for c in Color::ALL {
            let ci = c.index();
            let (own, enemy) = (self.pieces(c, PAWN), self.pieces(!c, PAWN));
            let mut details = crate::eval::PawnDetails::default();
            let (mut doubled, mut isolated) = (0, 0);
            for s in own.squares() {
                let i = s.index();
                if (m.front_column[ci][i] & own).any() {
                    doubled += 1;
                } else if m.promotable[ci].contains(s) && (m.front_span[ci][i] & enemy).is_empty() {
                    let rank = coords(i).1;
                    let rank = if c == Color::White {
                        rank
                    } else {
                        RANKS - 1 - rank
                    };
                    sink.passed(c, rank);
                    if (m.stop[ci][i] & occ).any() {
                        details.blocked += 1;
                    }
                    if (m.front_column[ci][i] & occ).is_empty() {
                        details.free_passed += crate::eval::passed_progress(rank, RANKS);
                    }
                }
                if (m.neighbours[i] & own).is_empty() {
                    isolated += 1;
                }
            }
            sink.pawn_structure(c, doubled, isolated);
            sink.pawn_details(c, details);
        }
    }
}

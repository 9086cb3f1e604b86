//! The [`Game`] interface of the chess-family variants (those that are a [`Position`] with a
//! [`Variant`] description).

use super::chess;
use crate::bitboard::Bitboard;
use crate::eval::KindTerm;
use crate::game::{Game, Material, RoyalCells, MAX_KINDS};
use crate::moves::{Move, MoveBuf, MoveKind};
use crate::position::{Position, Variant};
use crate::see::{exchange_on_bitboards, ROYAL};
use crate::{Color, Outcome};

impl<V: Variant> Game for Position<V> {
    type Moves = V::Moves;

    fn null_move(&self) -> Option<Self> {
        if self.is_check() {
            return None;
        }
        let z = &V::rules().zobrist;
        let mut p = *self;
        if let Some(ep) = p.ep.take() {
            p.hash ^= z.ep(ep);
        }
        p.turn = !p.turn;
        p.hash ^= z.side;
        p.halfmove += 1;
        Some(p)
    }

    fn start() -> Self {
        Position::start()
    }
    fn from_text(text: &str) -> Result<Self, crate::error::PositionError> {
        Position::from_text(text)
    }
    fn variant_name(&self) -> &'static str {
        V::rules().spec.name
    }
    #[inline]
    fn turn(&self) -> Color {
        self.turn
    }
    #[inline]
    fn legal_moves(&self, out: &mut V::Moves) {
        self.legal_moves_into(out)
    }
    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        Position::play_unchecked(self, m)
    }
    fn is_legal_move(&self, m: Move) -> Option<bool> {
        Some(Position::is_legal_move(self, m))
    }
    /// Out of check the tactical moves alone; the whole list only where there are none
    /// (to tell a stalemate).
    fn quiescence_moves(&self, out: &mut V::Moves) -> bool {
        self.tactical_moves_into(out);
        // In check the tactical list is every legal move already: empty means mate.
        if out.is_empty() && !self.is_check() {
            self.legal_moves_into(out);
        }
        !out.is_empty()
    }
    #[inline]
    fn in_check(&self) -> bool {
        self.is_check()
    }
    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }
    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    /// [D] With drops a capture can be undone (the piece comes back from hand), so any earlier
    /// position may repeat: the whole game is looked at, as Fairy-Stockfish does with
    /// `capturesToHand`.
    fn repetition_plies(&self) -> u32 {
        if V::rules().spec.drops.is_some() {
            u32::MAX
        } else {
            self.halfmove
        }
    }
    fn move_rule_plies(&self) -> u32 {
        match V::rules().spec.move_rule_plies {
            0 => u32::MAX,
            n => n,
        }
    }
    fn stalemate(&self) -> Outcome {
        V::rules()
            .spec
            .stalemate
            .outcome(self.turn, crate::Termination::Stalemate)
    }
    fn repetition(&self) -> crate::rules::RepetitionRule {
        V::rules().spec.repetition
    }
    fn insufficient_material(&self) -> bool {
        V::rules().spec.insufficient_material && chess::dead_position(self)
    }
    #[inline]
    fn variant_outcome(&self) -> Option<Outcome> {
        self.end_outcome()
    }
    fn material_kinds(&self) -> Vec<(&'static str, i32)> {
        V::rules()
            .spec
            .pieces
            .iter()
            .map(|p| (p.name, p.value))
            .collect()
    }
    /// The cells of the promoting kinds (the pawn structure, as in engines' pawn
    /// correction history): it changes slowly, and what the evaluation misjudges in it
    /// stays misjudged from one position to the next.
    fn correction_key(&self) -> u64 {
        let rules = V::rules();
        let z = &rules.zobrist;
        let mut h = 0;
        let mut promoting = rules.promoting;
        while promoting != 0 {
            let role = crate::Role(promoting.trailing_zeros() as u8);
            promoting &= promoting - 1;
            for color in Color::ALL {
                let code = crate::Piece { color, role }.code();
                for sq in self.pieces(color, role).squares() {
                    h ^= z.piece(code, sq);
                }
            }
        }
        h
    }

    #[inline]
    fn material(&self) -> Material {
        let mut m = [[0; MAX_KINDS]; 2];
        for c in Color::ALL {
            for (r, count) in m[c.index()]
                .iter_mut()
                .enumerate()
                .take(V::rules().spec.pieces.len())
            {
                let role = crate::Role(r as u8);
                *count = self.pieces(c, role).count() as u16 + u16::from(self.in_hand(c, role));
            }
        }
        m
    }
    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        self.piece_at(m.to()).is_some()
            || matches!(m.kind(), MoveKind::Promotion | MoveKind::EnPassant)
    }
    #[inline]
    fn tactical_order(&self, m: Move, values: &[i32]) -> i32 {
        let value = |r: crate::Role| values.get(r.index()).copied().unwrap_or(0);
        let attacker = self.piece_at(m.from()).map_or(0, |p| value(p.role));
        let victim = match m.kind() {
            MoveKind::EnPassant => attacker,
            _ => self.piece_at(m.to()).map_or(0, |p| value(p.role)),
        };
        let promotion = if m.kind() == MoveKind::Promotion {
            value(m.role()) - attacker
        } else {
            0
        };
        super::kernel::capture_order(victim, attacker, promotion)
    }
    #[inline]
    fn moving_kind(&self, m: Move) -> Option<usize> {
        if m.kind() == MoveKind::Drop {
            return Some(m.role().index());
        }
        self.piece_at(m.from()).map(|p| p.role.index())
    }
    #[inline]
    fn captured_kind(&self, m: Move) -> Option<usize> {
        match m.kind() {
            MoveKind::EnPassant => self.piece_at(m.from()).map(|p| p.role.index()),
            _ => self.piece_at(m.to()).map(|p| p.role.index()),
        }
    }
    /// A capture of a piece worth at least the capturer wins at least their difference
    /// whatever follows (the opponent may not recapture, and the capturer may stop after a
    /// recapture): that settles a threshold of 0 without the exchange.
    fn see_at_least(&self, m: Move, values: &[i32], threshold: i32) -> Option<bool> {
        if m.kind() == MoveKind::Normal {
            let value = |r: crate::Role| values.get(r.index()).copied().unwrap_or(0);
            if let (Some(mover), Some(victim)) = (self.piece_at(m.from()), self.piece_at(m.to())) {
                if value(victim.role) - value(mover.role) >= threshold
                    && mover.role != V::rules().king
                {
                    return Some(true);
                }
            }
        }
        self.see(m, values).map(|v| v >= threshold)
    }
    /// The swap algorithm on the attack tables: attackers of the target cell recomputed
    /// after each capture with the capturer's cell emptied, so riders behind it join in
    /// (x-rays). Pins are not considered; the royal piece recaptures only onto a cell the
    /// other side no longer attacks. Promotions and castling answer `None`.
    fn see(&self, m: Move, values: &[i32]) -> Option<i32> {
        let rules = V::rules();
        let value = |r: crate::Role| values.get(r.index()).copied().unwrap_or(0);
        let (from, to) = (m.from(), m.to());
        let mover = self.piece_at(from)?;
        let (mut occ, victim) = match m.kind() {
            MoveKind::Normal => (
                self.occupied(),
                self.piece_at(to).map_or(0, |p| value(p.role)),
            ),
            MoveKind::EnPassant => {
                let mut occ = self.occupied();
                occ.remove(self.ep_victim(to, !self.turn));
                (occ, value(mover.role))
            }
            _ => return None,
        };
        let royal = |r: crate::Role| if r == rules.king { ROYAL } else { value(r) };
        occ.remove(from);
        Some(exchange_on_bitboards(
            victim,
            royal(mover.role),
            occ,
            !self.turn,
            |occ, by| self.attackers(to, occ, by),
            |sq| self.piece_at(sq).map(|p| royal(p.role)),
        ))
    }
    fn eval_cells(&self) -> usize {
        V::rules().spec.topology.num_squares()
    }
    fn royal_cells(&self) -> Option<RoyalCells> {
        let topo = &V::rules().spec.topology;
        let (files, ranks, levels) = topo.dims();
        let at = |c: Color| {
            self.king(c).map(|sq| {
                let c = topo.coord(sq);
                (c.file, c.rank, c.level)
            })
        };
        Some(RoyalCells {
            cells: [at(Color::White)?, at(Color::Black)?],
            dims: (files.into(), ranks.into(), levels.into()),
        })
    }
    /// With drops, up to [`NET_HAND`] pieces in hand per kind told apart; without, no hand
    /// inputs (the layout, and the networks made for it, as before drops existed).
    fn net_shape(&self) -> crate::features::NetShape {
        crate::features::NetShape {
            hand: if V::rules().spec.drops.is_some() {
                NET_HAND
            } else {
                0
            },
            extras: 0,
        }
    }
    /// The pieces alone (the evaluation features' walk computes pawn structure before it),
    /// and the hands.
    fn net_inputs<S: crate::nnue::InputSink>(&self, sink: &mut S) {
        let rules = V::rules();
        let nroles = rules.tables.num_roles().min(MAX_KINDS);
        self.report_hands(|c, r, n| sink.in_hand(c, r, n));
        for c in Color::ALL {
            for r in 0..nroles {
                for sq in self.pieces(c, crate::Role(r as u8)).squares() {
                    sink.piece(c, r, rules.owner_view(c, sq).index());
                }
            }
        }
    }
    /// The cells whose piece codes differ (compared eight at a time), then the hands.
    fn net_input_changes<S: crate::nnue::InputSink>(
        &self,
        before: &Self,
        gone: &mut S,
        came: &mut S,
    ) -> bool {
        let rules = V::rules();
        let nroles = rules.tables.num_roles().min(MAX_KINDS);
        let report = |code: u8, index: usize, sink: &mut S| {
            let Some(pc) = crate::Piece::from_code(code) else {
                return;
            };
            if pc.role.index() >= nroles {
                return;
            }
            let cell = rules.owner_view(pc.color, crate::Square(index as u16));
            sink.piece(pc.color, pc.role.index(), cell.index());
        };
        let (old, new) = (before.cells.as_ref(), self.cells.as_ref());
        for (chunk, (a, b)) in old.chunks(8).zip(new.chunks(8)).enumerate() {
            if a == b {
                continue;
            }
            for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
                if x != y {
                    report(x, chunk * 8 + i, gone);
                    report(y, chunk * 8 + i, came);
                }
            }
        }
        if rules.spec.drops.is_some() && self.hands != before.hands {
            for c in Color::ALL {
                for r in (0..nroles).map(|r| crate::Role(r as u8)) {
                    let (was, is) = (before.in_hand(c, r), self.in_hand(c, r));
                    if was != is {
                        gone.in_hand(c, r.index(), u32::from(was));
                        came.in_hand(c, r.index(), u32::from(is));
                    }
                }
            }
        }
        true
    }
    fn eval_features<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
        let rules = V::rules();
        let t = &rules.tables;
        self.report_hands(|c, r, n| sink.in_hand(c, r, n));
        let occ = self.occupied();
        let nroles = t.num_roles().min(MAX_KINDS);
        // Each side's pawns, where the variant has pawn structure.
        let structure = rules.pawn_structure.as_ref();
        let is_pawn = |r: usize| structure.is_some_and(|ps| ps.is_pawn(r));
        let mut pawns = [V::Bb::EMPTY; 2];
        for r in (0..t.num_roles()).filter(|&r| is_pawn(r)) {
            for c in Color::ALL {
                pawns[c.index()] |= self.pieces(c, crate::Role(r as u8));
            }
        }
        let kings = Color::ALL.map(|c| self.king(c));
        // Cells each side's pawns attack, for the unsafe mobility, the pawn threats and pushes
        // and the pawn terms.
        let mut pawn_attacks = [V::Bb::EMPTY; 2];
        for r in (0..nroles).filter(|&r| is_pawn(r)) {
            for c in Color::ALL {
                for sq in self.pieces(c, crate::Role(r as u8)).squares() {
                    pawn_attacks[c.index()] |= t.attacks(c, crate::Role(r as u8), sq, occ);
                }
            }
        }
        // Cells each side's pieces of each role attack (could capture on), for the threats,
        // and reach (could move to), for the safe checks.
        let mut attacked = [[V::Bb::EMPTY; MAX_KINDS]; 2];
        let mut reached = [[V::Bb::EMPTY; MAX_KINDS]; 2];
        for c in Color::ALL {
            let own = self.by_color(c);
            // The enemy royal piece's neighbourhood: the cells it could step to.
            let zone = self
                .king(!c)
                .map(|k| t.attacks(!c, rules.king, k, occ))
                .unwrap_or(V::Bb::EMPTY);
            let mut zone_attacks = 0;
            for (r, role_attacks) in attacked[c.index()].iter_mut().enumerate().take(nroles) {
                let role = crate::Role(r as u8);
                let role_reach = &mut reached[c.index()][r];
                for sq in self.pieces(c, role).squares() {
                    sink.piece(c, r, rules.owner_view(c, sq).index());
                    if let Some(ps) = structure.filter(|_| !is_pawn(r)) {
                        let file = ps.file[sq.index()];
                        if (file & pawns[c.index()]).is_empty() {
                            let term = if (file & pawns[(!c).index()]).is_empty() {
                                KindTerm::OpenFile
                            } else {
                                KindTerm::HalfOpenFile
                            };
                            sink.kind_term(c, r, term, 1);
                        }
                        if role != rules.king {
                            self.report_piece_placement(sink, ps, c, r, sq, pawns, kings);
                        }
                    }
                    if role == rules.king {
                        *role_attacks |= t.attacks(c, role, sq, occ);
                        continue;
                    }
                    let (reach, attacks) = t.reach_and_attacks(c, role, sq, occ);
                    *role_attacks |= attacks;
                    *role_reach |= reach;
                    if structure.is_some() && !is_pawn(r) {
                        let chased = (reach & !own & pawn_attacks[(!c).index()]).count();
                        if chased > 0 {
                            sink.kind_term(c, r, KindTerm::UnsafeMobility, chased);
                        }
                    }
                    zone_attacks += crate::eval::report_piece_activity(
                        sink,
                        c,
                        r,
                        (reach & !own).count(),
                        (reach & zone).count(),
                    );
                }
            }
            sink.king_attacks(c, zone_attacks);
            sink.king_danger(c, zone_attacks);
        }
        let any = attacked.map(|side| side[..nroles].iter().fold(V::Bb::EMPTY, |acc, &b| acc | b));
        // Weak cells of each royal zone: those no piece of the royal piece's side but the
        // royal piece itself defends; each kind's attacks on them.
        for c in Color::ALL {
            let Some(k) = self.king(!c) else { continue };
            let defended = (0..nroles)
                .filter(|&r| r != rules.king.index())
                .fold(V::Bb::EMPTY, |acc, r| acc | attacked[(!c).index()][r]);
            let weak = t.attacks(!c, rules.king, k, occ) & !defended;
            if weak.is_empty() {
                continue;
            }
            for r in (0..nroles).filter(|&r| r != rules.king.index()) {
                let hits = (attacked[c.index()][r] & weak).count();
                if hits > 0 {
                    sink.kind_term(c, r, KindTerm::WeakZone, hits);
                }
            }
        }
        // Safe checks: cells from which a piece would attack the enemy royal piece (the
        // piece's attacks seen from the royal cell, by the other side's pieces of the role),
        // that a piece of the role reaches, not held by its side and not attacked by the
        // enemy. Pawns (their pushes are no captures) and royal pieces have none.
        for c in Color::ALL {
            let Some(k) = self.king(!c) else { continue };
            let free = !self.by_color(c) & !any[(!c).index()];
            for r in (0..nroles).filter(|&r| !is_pawn(r) && r != rules.king.index()) {
                let reach = reached[c.index()][r] & free;
                if reach.is_empty() {
                    continue;
                }
                let checks = (t.attacks(!c, crate::Role(r as u8), k, occ) & reach).count();
                if checks > 0 {
                    sink.kind_term(c, r, KindTerm::SafeChecks, checks);
                }
            }
        }
        // Pieces an enemy pawn attacks, and pieces pinned to their royal piece, per kind.
        for c in Color::ALL {
            let pinned = kings[c.index()]
                .map(|k| self.pinned_to_royal(c, k, occ))
                .unwrap_or(V::Bb::EMPTY);
            for r in (0..nroles).filter(|&r| r != rules.king.index()) {
                let own = self.pieces(c, crate::Role(r as u8));
                if structure.is_some() && !is_pawn(r) {
                    let hit = (own & pawn_attacks[(!c).index()]).count();
                    if hit > 0 {
                        sink.kind_term(c, r, KindTerm::PawnThreatened, hit);
                    }
                }
                let held = (own & pinned).count();
                if held > 0 {
                    sink.kind_term(c, r, KindTerm::Pinned, held);
                }
            }
        }
        // Pawn pushes that would attack a piece: a step to an empty cell that no enemy pawn
        // attacks and that the enemy does not attack unless the pusher's side defends it.
        if structure.is_some() {
            for c in Color::ALL {
                let safe =
                    !occ & !pawn_attacks[(!c).index()] & (any[c.index()] | !any[(!c).index()]);
                let mut targets = V::Bb::EMPTY;
                for r in (0..nroles).filter(|&r| is_pawn(r)) {
                    let role = crate::Role(r as u8);
                    for sq in self.pieces(c, role).squares() {
                        for to in (t.leap_moves(c, role, sq) & safe).squares() {
                            targets |= t.attacks(c, role, to, occ);
                        }
                    }
                }
                let targets = targets & self.by_color(!c) & !pawns[(!c).index()];
                if targets.is_empty() {
                    continue;
                }
                for r in 0..nroles {
                    let hit = (targets & self.pieces(!c, crate::Role(r as u8))).count();
                    if hit > 0 {
                        sink.kind_term(!c, r, KindTerm::PushThreatened, hit);
                    }
                }
            }
        }
        crate::eval::report_threats(
            sink,
            [&attacked[0][..nroles], &attacked[1][..nroles]],
            any,
            rules.king.index(),
            |r| rules.spec.pieces[r].value,
            |c, r| self.pieces(c, crate::Role(r as u8)),
            self.turn(),
        );
        if let Some(ps) = structure {
            self.report_pawn_terms(sink, ps, pawns, pawn_attacks, any, occ);
        }
    }
    fn pawn_ranks(&self) -> usize {
        V::rules().pawn_structure.as_ref().map_or(0, |ps| ps.ranks)
    }
    fn positional(&self) -> i32 {
        crate::eval::positional(self)
    }
    fn without_material(&self, color: Color, kind: usize) -> Option<Self> {
        let role = crate::Role(u8::try_from(kind).ok()?);
        if kind >= V::rules().spec.pieces.len() || role == V::rules().king {
            return None;
        }
        let sq = self.pieces(color, role).lsb()?;
        let mut p = *self;
        p.take(sq);
        let z = &V::rules().zobrist;
        p.hash ^= z.castling(p.castling);
        p.castling &= V::rules().castling_keep[sq.index()];
        p.hash ^= z.castling(p.castling);
        // A position made by a removal is a new start: no en passant right survives it (the
        // pawn that made the right may be the one removed, and the right would then be
        // illegal).
        if let Some(ep) = p.ep.take() {
            p.hash ^= z.ep(ep);
        }
        // A removal that exposes the side not to move to check is no start position.
        match p.king(!p.turn) {
            Some(k) if p.is_attacked(k, p.turn) => None,
            _ => Some(p),
        }
    }
    fn diagram(&self) -> crate::diagram::Diagram {
        let rules = V::rules();
        let topo = &rules.spec.topology;
        let regions = topo.regions();
        // Supersquares (Dream Chess 46) tint the checkerboard: blue for White's region only,
        // red for Black's only, purple where they overlap.
        const TINTS: [[&str; 2]; 3] = [
            ["#8fb3d6", "#cfe3f5"],
            ["#d08f80", "#f5d0c8"],
            ["#a98cc6", "#e2d3f2"],
        ];
        let fill = |sq: crate::Square| {
            let inside: Vec<bool> = regions.iter().map(|r| r[sq.index()]).collect();
            let tint = match inside.as_slice() {
                [true, false] => 0,
                [false, true] => 1,
                [true, true] => 2,
                _ => return None,
            };
            let c = topo.coord(sq);
            Some(TINTS[tint][((c.file + c.rank) % 2) as usize])
        };
        let mut d = crate::diagram::Diagram::board(
            topo,
            0.0,
            |_| String::new(),
            fill,
            |sq| {
                self.piece_at(sq).map(|p| {
                    crate::diagram::Occupant::piece(
                        p.color,
                        rules.letter(Color::White, p.role).to_string(),
                    )
                })
            },
        );
        if regions.len() == 2 {
            d.legend = vec![
                (TINTS[0][1], "White's supersquare only".to_string()),
                (TINTS[1][1], "Black's supersquare only".to_string()),
                (TINTS[2][1], "both supersquares".to_string()),
            ];
        }
        if d.cells.iter().any(|c| c.hole) {
            d.legend.push(("#666", "hole (no cell)".to_string()));
        }
        d
    }
    fn to_text(&self) -> String {
        Position::to_text(self)
    }
    fn move_text(&self, m: Move) -> String {
        let rules = V::rules();
        let topo = &rules.spec.topology;
        if m.kind() == MoveKind::Drop {
            // Crazyhouse's UCI form: the dropped piece's letter, `@`, the cell.
            return format!(
                "{}@{}",
                rules.letter(Color::White, m.role()),
                topo.square_name(m.to())
            );
        }
        let mut s = topo.square_name(m.from());
        s += &topo.square_name(self.castling_text_cell(m));
        if m.kind() == MoveKind::Promotion {
            s.push(rules.letter(Color::Black, m.role()));
        }
        s
    }
}

/// Pieces in hand per kind the network tells apart (more count as this many), as Dai
/// Mitregi's: a side rarely holds more than a few of one kind.
const NET_HAND: usize = 6;

impl<V: Variant> Position<V> {
    /// The cell a move's text ends on: its destination, but for a castling whose King
    /// destination a plain King move also reaches (castling beside the King, as in 6x6
    /// variants) the castling piece's cell, as Fairy-Stockfish writes it, so that each text
    /// names one move (and `parse_move` reads Fairy-Stockfish's).
    fn castling_text_cell(&self, m: Move) -> crate::Square {
        if m.kind() != MoveKind::Castle {
            return m.to();
        }
        let mut moves = <Self as Game>::Moves::default();
        self.legal_moves(&mut moves);
        let ambiguous = moves
            .as_ref()
            .iter()
            .any(|o| o.kind() != MoveKind::Castle && o.from() == m.from() && o.to() == m.to());
        if !ambiguous {
            return m.to();
        }
        V::rules()
            .castling_of(self.turn, m.from(), m.to())
            .map_or(m.to(), |c| c.rook_from)
    }

    /// Calls `report` with each side's non-empty hand counts per kind (none without drops).
    #[inline]
    fn report_hands(&self, mut report: impl FnMut(Color, usize, u32)) {
        if V::rules().spec.drops.is_none() {
            return;
        }
        let nroles = V::rules().tables.num_roles().min(MAX_KINDS);
        for c in Color::ALL {
            for r in 0..nroles {
                let n = self.in_hand(c, crate::Role(r as u8));
                if n > 0 {
                    report(c, r, u32::from(n));
                }
            }
        }
    }

    /// Where a non-royal, non-pawn piece of role `r` on `sq` stands relative to the pawns and
    /// its royal piece (`kings`: each side's royal cell): behind a pawn, its distance from
    /// its royal piece, and its own pawns on its colour if it is colour-bound
    /// (`eval::KindTerm`).
    #[allow(clippy::too_many_arguments)]
    fn report_piece_placement<S: crate::eval::FeatureSink>(
        &self,
        sink: &mut S,
        ps: &crate::rules::PawnStructure<V::Bb>,
        c: Color,
        r: usize,
        sq: crate::Square,
        pawns: [V::Bb; 2],
        kings: [Option<crate::Square>; 2],
    ) {
        let i = sq.index();
        if (ps.stop[c.index()][i] & (pawns[0] | pawns[1])).any() {
            sink.kind_term(c, r, KindTerm::BehindPawn, 1);
        }
        if let Some(k) = kings[c.index()] {
            let d = ps.steps(k, sq);
            if d > 0 {
                sink.kind_term(c, r, KindTerm::RoyalDistance, d);
            }
        }
        if ps.is_colour_bound(r) {
            let n = (pawns[c.index()] & ps.colour[ps.parity[i] as usize]).count();
            if n > 0 {
                sink.kind_term(c, r, KindTerm::ColourPawns, n);
            }
        }
    }

    /// The pawn terms of a variant with pawn structure: passed, doubled, isolated and
    /// supported pawns, the shelter and storm, the passed pawns' details and the outposts
    /// (`eval::PawnDetails`, `KindTerm::Outpost`). `pawns`: each side's pawns;
    /// `pawn_attacks`: the cells they attack; `any`: every cell each side attacks.
    fn report_pawn_terms<S: crate::eval::FeatureSink>(
        &self,
        sink: &mut S,
        ps: &crate::rules::PawnStructure<V::Bb>,
        pawns: [V::Bb; 2],
        pawn_attacks: [V::Bb; 2],
        any: [V::Bb; 2],
        occ: V::Bb,
    ) {
        let rules = V::rules();
        let nroles = rules.tables.num_roles().min(MAX_KINDS);
        let kings = Color::ALL.map(|c| self.king(c));
        for c in Color::ALL {
            let (own, enemy) = (pawns[c.index()], pawns[(!c).index()]);
            let (own_attacks, enemy_attacks) = (any[c.index()], any[(!c).index()]);
            let enemy_pieces = self.by_color(!c);
            let (pawn_attacks, enemy_pawn_attacks) =
                (pawn_attacks[c.index()], pawn_attacks[(!c).index()]);
            let mut details = crate::eval::PawnDetails {
                supported: (own & pawn_attacks).count(),
                ..Default::default()
            };
            // Space: safe cells of the side's centre, twice behind its own pawns.
            let safe = ps.space[c.index()] & !own & !enemy_pawn_attacks;
            let mut behind = V::Bb::EMPTY;
            for sq in own.squares() {
                let i = sq.index();
                behind |= ps.file[i] & !ps.front_file[c.index()][i];
            }
            details.space = safe.count() + (safe & behind).count();
            if let Some(k) = self.king(c) {
                let [near, far] = ps.shelter[c.index()][k.index()];
                details.shelter_near = (near & own).count();
                details.shelter_far = (far & own).count();
                details.storm = ((near | far) & enemy).count();
            }
            // Outposts: in the enemy half, defended by a pawn, out of enemy pawns' reach.
            for r in (0..nroles).filter(|&r| !ps.is_pawn(r) && r != rules.king.index()) {
                let outposts = self
                    .pieces(c, crate::Role(r as u8))
                    .squares()
                    .filter(|&sq| {
                        let i = sq.index();
                        2 * ps.relative_rank[c.index()][i] as usize >= ps.ranks
                            && pawn_attacks.contains(sq)
                            && (ps.front_span[c.index()][i] & ps.neighbour_files[i] & enemy)
                                .is_empty()
                    })
                    .count() as u32;
                if outposts > 0 {
                    sink.kind_term(c, r, KindTerm::Outpost, outposts);
                }
            }
            let (mut doubled, mut isolated) = (0, 0);
            for sq in own.squares() {
                let i = sq.index();
                if (ps.front_file[c.index()][i] & own).any() {
                    doubled += 1;
                } else if (ps.front_span[c.index()][i] & enemy).is_empty() {
                    let rank = ps.relative_rank[c.index()][i] as usize;
                    sink.passed(c, rank);
                    let progress = crate::eval::passed_progress(rank, ps.ranks);
                    if (ps.front_file[c.index()][i] & occ).is_empty() {
                        details.free_passed += progress;
                    }
                    let stop = ps.stop[c.index()][i];
                    if (stop & occ).any() {
                        details.blocked += 1;
                    } else if (stop & enemy_attacks).is_empty() {
                        details.safe_stop += progress;
                    }
                    if (stop & own_attacks).any() {
                        details.defended_stop += progress;
                    }
                    if (ps.front_file[c.index()][i] & (enemy_pieces | enemy_attacks)).is_empty() {
                        details.safe_path += progress;
                    }
                    if let Some(at) = stop.lsb() {
                        let distance = |k: Option<crate::Square>| {
                            k.map_or(0, |k| ps.steps(k, at).min(5) * progress)
                        };
                        details.own_royal_distance += distance(kings[c.index()]);
                        details.enemy_royal_distance += distance(kings[(!c).index()]);
                    }
                }
                if (ps.neighbour_files[i] & own).is_empty() {
                    isolated += 1;
                } else if (ps.neighbour_files[i] & !ps.front_span[c.index()][i] & own).is_empty()
                    && (ps.stop[c.index()][i] & enemy_pawn_attacks).any()
                {
                    details.backward += 1;
                }
                if (ps.beside[i] & own).any() {
                    details.phalanx += 1;
                }
            }
            sink.pawn_structure(c, doubled, isolated);
            sink.pawn_details(c, details);
        }
    }
}

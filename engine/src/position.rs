//! The chess-family position: pieces on a board, side to move, castling, en passant and the
//! move-count clock, with an incrementally kept Zobrist hash. Copy-make: a position is a
//! small heap-free value, and playing a move mutates a copy.

use crate::bitboard::Bitboard;
use crate::ends::EndTables;
use crate::moves::{Move, MoveKind};
use crate::rules::Rules;
use crate::{Color, Outcome, Piece, Role, Square, Termination};
use std::fmt::Debug;
use std::marker::PhantomData;

/// A chess-family variant: its bitboard width, fixed-size storage, and compiled rules.
///
/// Array lengths are literals in each variant file because stable Rust cannot size an array by
/// an associated constant of a generic parameter; associated types keep that local.
pub trait Variant: Copy + Send + Sync + Debug + 'static {
    /// Bitboard wide enough for the board.
    type Bb: Bitboard;
    /// Mailbox: one piece code per cell number (0 = empty).
    type Cells: Copy + Eq + Debug + Send + Sync + AsRef<[u8]> + AsMut<[u8]>;
    /// One bitboard per role.
    type Roles: Copy + Eq + Debug + Send + Sync + AsRef<[Self::Bb]> + AsMut<[Self::Bb]>;
    /// An empty mailbox.
    const EMPTY_CELLS: Self::Cells;
    /// No pieces of any role.
    const EMPTY_ROLES: Self::Roles;
    /// Pieces in hand: one count per side and role, at `color * roles + role`. Empty
    /// (`[u8; 0]`) for a variant that can never have drops, so its positions stay as small,
    /// and its copy-make as fast, as before hands existed.
    type Hands: Copy + Eq + Debug + Send + Sync + AsRef<[u8]> + AsMut<[u8]>;
    /// Empty hands.
    const EMPTY_HANDS: Self::Hands;
    /// The move list: [`crate::moves::MoveList`] (256) where 218 legal moves is the most,
    /// longer where drops may add a move per cell and kind in hand.
    type Moves: crate::moves::MoveBuf + std::ops::Deref<Target = [Move]>;
    /// The compiled rules, built on first use.
    fn rules() -> &'static Rules<Self::Bb>;
}

/// A position of a chess-family variant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position<V: Variant> {
    pub(crate) cells: V::Cells,
    pub(crate) by_color: [V::Bb; 2],
    pub(crate) by_role: V::Roles,
    pub(crate) turn: Color,
    pub(crate) castling: u8,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// Each side's checks still to give, White first, where the variant counts checks
    /// ([`crate::ends::EndRules::check_count`]); 0 otherwise.
    pub(crate) checks: [u8; 2],
    /// Pieces in hand ([`Variant::Hands`]); all zero where the rules have no drops.
    pub(crate) hands: V::Hands,
    /// Promoted pieces that go back to hand as their unpromoted kind when captured (the
    /// position text's `~`); empty where the rules have no drops.
    pub(crate) promoted: V::Bb,
    pub(crate) _variant: PhantomData<V>,
}

impl<V: Variant> Position<V> {
    /// An empty board with White to move (a starting point for building positions).
    pub(crate) fn empty() -> Position<V> {
        Position {
            cells: V::EMPTY_CELLS,
            by_color: [V::Bb::EMPTY; 2],
            by_role: V::EMPTY_ROLES,
            turn: Color::White,
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            checks: [0; 2],
            hands: V::EMPTY_HANDS,
            promoted: V::Bb::EMPTY,
            _variant: PhantomData,
        }
    }

    /// The variant's start position.
    pub fn start() -> Position<V> {
        Position::from_text(V::rules().spec.start).expect("start position of a variant parses")
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on a cell.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.cells.as_ref()[sq.index()])
    }

    /// All pieces of one side.
    #[inline]
    pub fn by_color(&self, c: Color) -> V::Bb {
        self.by_color[c.index()]
    }

    /// All pieces of one role, both sides.
    #[inline]
    pub fn by_role(&self, r: Role) -> V::Bb {
        self.by_role.as_ref()[r.index()]
    }

    /// Pieces of one side and role.
    #[inline]
    pub fn pieces(&self, c: Color, r: Role) -> V::Bb {
        self.by_color[c.index()] & self.by_role.as_ref()[r.index()]
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> V::Bb {
        self.by_color[0] | self.by_color[1]
    }

    /// Castling rights, one bit per castling move of the variant.
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// En passant target cell, set only when a capture there is possible.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last capture or clock-resetting move.
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// Move number, starting at 1 and increasing after Black's move.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// How many pieces of `role` `color` holds in hand (0 in a variant without drops).
    #[inline]
    pub fn in_hand(&self, color: Color, role: Role) -> u8 {
        self.hands
            .as_ref()
            .get(Self::hand_slot(color, role))
            .copied()
            .unwrap_or(0)
    }

    /// Where `color`'s count of `role` stands in [`Variant::Hands`].
    #[inline]
    fn hand_slot(color: Color, role: Role) -> usize {
        color.index() * V::rules().tables.num_roles() + role.index()
    }

    /// Changes the count of `role` in `color`'s hand by `delta`, keeping the hash.
    #[inline]
    pub(crate) fn add_to_hand(&mut self, color: Color, role: Role, delta: i8) {
        let z = &V::rules().zobrist;
        let slot = &mut self.hands.as_mut()[Self::hand_slot(color, role)];
        let code = Piece { color, role }.code();
        self.hash ^= z.hand(code, *slot);
        *slot = slot.wrapping_add_signed(delta);
        self.hash ^= z.hand(code, *slot);
    }

    /// Promoted pieces that revert to their unpromoted kind when captured into hand.
    #[inline]
    pub fn promoted(&self) -> V::Bb {
        self.promoted
    }

    /// The Zobrist hash.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The royal piece's cell of a side (`None` for a side without one).
    #[inline]
    pub fn king(&self, c: Color) -> Option<Square> {
        let rules = V::rules();
        if !rules.royal[c.index()] {
            return None;
        }
        self.pieces(c, rules.king).lsb()
    }

    #[inline]
    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        let bit = V::Bb::from_square(sq);
        self.cells.as_mut()[sq.index()] = p.code();
        self.by_color[p.color.index()] |= bit;
        self.by_role.as_mut()[p.role.index()] |= bit;
        self.hash ^= V::rules().zobrist.piece(p.code(), sq);
    }

    #[inline]
    pub(crate) fn take(&mut self, sq: Square) -> Option<Piece> {
        let p = Piece::from_code(self.cells.as_ref()[sq.index()])?;
        let bit = V::Bb::from_square(sq);
        self.cells.as_mut()[sq.index()] = 0;
        self.by_color[p.color.index()] ^= bit;
        self.by_role.as_mut()[p.role.index()] ^= bit;
        self.hash ^= V::rules().zobrist.piece(p.code(), sq);
        Some(p)
    }

    /// The hash recomputed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let z = &V::rules().zobrist;
        let mut h = 0;
        for (i, &code) in self.cells.as_ref().iter().enumerate() {
            if code != 0 {
                h ^= z.piece(code, Square(i as u16));
            }
        }
        if self.turn == Color::Black {
            h ^= z.side;
        }
        h ^= z.castling(self.castling);
        if let Some(ep) = self.ep {
            h ^= z.ep(ep);
        }
        if let Some(end) = &V::rules().end {
            h ^= end.checks_key(self.checks);
        }
        let roles = V::rules().tables.num_roles().max(1);
        for (i, &n) in self.hands.as_ref().iter().enumerate() {
            let piece = Piece {
                color: if i < roles {
                    Color::White
                } else {
                    Color::Black
                },
                role: Role((i % roles) as u8),
            };
            h ^= z.hand(piece.code(), n);
        }
        for sq in self.promoted.squares() {
            h ^= z.promoted(sq);
        }
        h
    }

    /// Pieces of `by` that attack `sq` with occupancy `occ` (which may differ from the board,
    /// to ask "what if these cells were empty").
    #[inline]
    pub fn attackers(&self, sq: Square, occ: V::Bb, by: Color) -> V::Bb {
        let them = self.by_color[by.index()] & occ;
        V::rules()
            .tables
            .attackers(sq, occ, by, |r| self.by_role.as_ref()[r.index()] & them)
    }

    /// Whether `by` attacks `sq` with occupancy `occ` (stops at the first attacker found).
    #[inline]
    pub fn attacked_within(&self, sq: Square, occ: V::Bb, by: Color) -> bool {
        let them = self.by_color[by.index()] & occ;
        V::rules()
            .tables
            .attacked(sq, occ, by, |r| self.by_role.as_ref()[r.index()] & them)
    }

    /// Whether `by` attacks `sq` on the current board.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked_within(sq, self.occupied(), by)
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> V::Bb {
        match self.king(self.turn) {
            Some(k) => self.attackers(k, self.occupied(), !self.turn),
            None => V::Bb::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.king(self.turn)
            .is_some_and(|k| self.is_attacked(k, !self.turn))
    }

    /// Plays a legal move without checking it.
    pub fn play_unchecked(&mut self, m: Move) {
        let rules = V::rules();
        let z = &rules.zobrist;
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        if let Some(ep) = self.ep.take() {
            self.hash ^= z.ep(ep);
        }
        self.hash ^= z.castling(self.castling);
        let mut reset = false;
        match m.kind() {
            MoveKind::Castle => {
                let c = rules
                    .castling_of(us, from, to)
                    .expect("castling move matches a castling rule");
                let king = self.take(from).expect("king on its cell");
                let rook = self.take(c.rook_from).expect("rook on its cell");
                self.put(c.king_to, king);
                self.put(c.rook_to, rook);
            }
            MoveKind::Drop => {
                // [D] A drop cannot be undone: it resets the move-count clock, as
                // Fairy-Stockfish's do_move does.
                reset = true;
                self.add_to_hand(us, m.role(), -1);
                self.put(
                    to,
                    Piece {
                        color: us,
                        role: m.role(),
                    },
                );
            }
            kind => {
                let mut piece = self.take(from).expect("a piece on the from cell");
                if let Some(victim) = self.take(to) {
                    reset = true;
                    if rules.spec.drops.is_some() {
                        self.capture_to_hand(victim, to);
                    }
                }
                if rules.spec.drops.is_some() && self.promoted.contains(from) {
                    self.promoted.remove(from);
                    self.hash ^= z.promoted(from);
                    if kind != MoveKind::Promotion {
                        self.promoted.insert(to);
                        self.hash ^= z.promoted(to);
                    }
                }
                if rules.clock_resetters >> piece.role.0 & 1 != 0 {
                    reset = true;
                }
                match kind {
                    MoveKind::EnPassant => {
                        let victim = self.ep_victim(to, !us);
                        if let Some(pawn) = self.take(victim) {
                            if rules.spec.drops.is_some() {
                                self.capture_to_hand(pawn, victim);
                            }
                        }
                        reset = true;
                    }
                    MoveKind::Promotion => {
                        piece.role = m.role();
                        reset |= rules.spec.clock.promotion_resets;
                        if rules.spec.drops.is_some() {
                            self.promoted.insert(to);
                            self.hash ^= z.promoted(to);
                        }
                    }
                    MoveKind::DoubleStep => {
                        // The cell passed over becomes the en passant target, but only when
                        // an enemy pawn could capture there (so equal positions hash equally).
                        let (pawn, steps) = rules
                            .double_step
                            .as_ref()
                            .expect("variant has double steps");
                        let pawn = *pawn;
                        let passed = self.ep_passed(from, to);
                        let capturers = rules.tables.leap_capturers_of(!us, pawn, passed)
                            & self.pieces(!us, pawn);
                        let gives_ep = steps[us.index()][from.index()].is_some_and(|s| s.2);
                        if capturers.any() && rules.en_passant && gives_ep {
                            self.ep = Some(passed);
                            self.hash ^= z.ep(passed);
                        }
                    }
                    _ => {}
                }
                self.put(to, piece);
            }
        }
        self.castling &= rules.castling_keep[from.index()] & rules.castling_keep[to.index()];
        self.hash ^= z.castling(self.castling);
        self.halfmove = if reset { 0 } else { self.halfmove + 1 };
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.turn = !us;
        self.hash ^= z.side;
        if let Some(end) = &rules.end {
            self.count_check(end, us);
        }
        debug_assert_eq!(
            self.hash,
            self.compute_hash(),
            "incremental hash after {m:?}"
        );
    }

    /// Puts a piece just captured on `sq` into its captor's hand: as the first promoting
    /// kind if it had promoted there (crazyhouse: a promoted Queen goes back as a Pawn).
    fn capture_to_hand(&mut self, victim: Piece, sq: Square) {
        let rules = V::rules();
        let mut role = victim.role;
        if self.promoted.contains(sq) {
            self.promoted.remove(sq);
            self.hash ^= rules.zobrist.promoted(sq);
            if rules.promoting != 0 {
                role = Role(rules.promoting.trailing_zeros() as u8);
            }
        }
        self.add_to_hand(!victim.color, role, 1);
    }

    /// The cell a double-stepping pawn passed over.
    fn ep_passed(&self, from: Square, to: Square) -> Square {
        let topo = &V::rules().spec.topology;
        let (a, b) = (topo.coord(from), topo.coord(to));
        let mid = crate::geometry::Coord {
            file: a.file,
            rank: (a.rank + b.rank) / 2,
            level: a.level,
        };
        topo.square_at(mid).expect("double step passes over a cell")
    }

    /// The cell of the pawn of `victim` that an en passant capture onto `target` removes.
    pub(crate) fn ep_victim(&self, target: Square, victim: Color) -> Square {
        self.ep_victim_cell(target, victim)
            .expect("en passant victim cell exists")
    }

    /// [`Self::ep_victim`], or `None` where that cell is off the board (a position text can
    /// name any cell as the en passant target).
    pub(crate) fn ep_victim_cell(&self, target: Square, victim: Color) -> Option<Square> {
        let topo = &V::rules().spec.topology;
        let mut c = topo.coord(target);
        c.rank += if victim == Color::White { 1 } else { -1 };
        topo.square_at(c)
    }
}

/// The variant's own ends ([`crate::ends`]): the check counters and the outcome they and the
/// flag and extinction rules give.
impl<V: Variant> Position<V> {
    /// Each side's checks still to give before it wins (White first); 0 in a variant that
    /// does not count checks.
    pub fn checks_remaining(&self) -> [u8; 2] {
        self.checks
    }

    /// The end of the game by the variant's own rules ([`EndRules`]), if any, in
    /// Fairy-Stockfish's order: extinction (the side not to move first), the flag of the side
    /// that just moved, its last check.
    pub fn end_outcome(&self) -> Option<Outcome> {
        let end = V::rules().end.as_ref()?;
        let stm = self.turn;
        let decided = |winner: Color| {
            Some(Outcome::Decisive {
                winner,
                reason: Termination::VariantEnd,
            })
        };
        if let Some((roles, all, value, count, opp)) = end.extinction {
            let extinct = |ours: V::Bb, theirs: V::Bb| {
                ours.count() <= u32::from(count) && theirs.count() >= u32::from(opp)
            };
            for c in [!stm, stm] {
                // All pieces together first: Fairy-Stockfish's ALL_PIECES is type 0.
                let mut died = all && extinct(self.by_color(c), self.by_color(!c));
                let mut rs = roles;
                while rs != 0 && !died {
                    let r = Role(rs.trailing_zeros() as u8);
                    rs &= rs - 1;
                    died = extinct(self.pieces(c, r), self.pieces(!c, r));
                }
                if died {
                    return Some(value.outcome(c, Termination::VariantEnd));
                }
            }
        }
        if let Some(flag) = &end.flag {
            let flags = match flag.role {
                Some(r) => self.pieces(!stm, r),
                None => self.by_color(!stm),
            };
            if flag.reached(!stm, flags, self.occupied()) {
                return decided(!stm);
            }
        }
        if end.check_count.is_some() && self.checks[(!stm).index()] == 0 {
            return decided(!stm);
        }
        None
    }

    /// After a move by `mover`: counts the check it gave, if the variant counts checks.
    #[inline]
    pub(crate) fn count_check(&mut self, end: &EndTables<V::Bb>, mover: Color) {
        if end.check_count.is_some() && self.checks[mover.index()] > 0 && self.is_check() {
            self.hash ^= end.checks_key(self.checks);
            self.checks[mover.index()] -= 1;
            self.hash ^= end.checks_key(self.checks);
        }
    }
}

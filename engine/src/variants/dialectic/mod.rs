//! Dialectic Chess and Hegelian Dialectic Chess (gwalla, 2005):
//! `docs/rules/dialectic.md` (written from the specification `shared/rules/dialectic-chess.md`,
//! whose decision numbers [Dn] it keeps).
//!
//! Orthochess with Philosophers (`H`) on the Knight squares. A separate 3x3 *dialectic*
//! holds two tokens, the Thesis and the Antithesis. For a cell `(a, b)` the vector set is
//! `L(a,b)` (all 8 sign/swap variants). Philosophers make quiet leaps by `L(T)` and capture by
//! `L(A)`; Great Philosophers (`G`) ride the same vectors. A Philosopher capturing an enemy
//! Philosopher or Great Philosopher becomes a Great Philosopher [D9]. A turn is either a
//! main-board move or one token step (basic: tokens never share a cell [D4]; Hegelian: they
//! may, and a shared pair may also step together as the Synthesis [D6]). The visited set `V`
//! of `(T, A)` states since the last main-board move [D5] forbids repeating a state; it is
//! part of the position and of its hash. Every move, dialectic or not, must leave the mover's
//! King unattacked, with attacks evaluated under the Antithesis after the move [D10, D11].
//!
//! Implementation: a self-contained copy-make position (mailbox + `u64` occupancy), legal
//! moves by make-and-test. Philosopher leap tables for all 9 cells are precomputed once in a
//! `OnceLock`, so a token step rebuilds nothing.
//!
//! The position text and the move names are the `notation` module's; the evaluation terms, the
//! static exchange and the capture order are the `evaluation` module's.

use super::kernel::{capture_order, move_name, value_of};
use super::text::{self, Bad, Counter, Format, Runs, Spacing};
use crate::error::PositionError;
use crate::game::{Game, Material, MAX_KINDS};
use crate::geometry::Topology;
use crate::moves::{Move, MoveKind};
use crate::piece::PieceSpec;
use crate::zobrist::{SplitMix64, Zobrist};
use crate::{Color, Role, Square};
use arrayvec::ArrayVec;
use std::sync::OnceLock;

mod evaluation;
mod notation;

const PAWN: u8 = 0;
const PHIL: u8 = 1;
const BISHOP: u8 = 2;
const ROOK: u8 = 3;
const QUEEN: u8 = 4;
const KING: u8 = 5;
const GREAT: u8 = 6;

/// The pieces, indexed by the role numbers above; the Philosophers' moves are the tokens'
/// (the variant's own code), the others' those of chess.
const PIECES: [PieceSpec; 7] = [
    PieceSpec::new("pawn", 'P', "fmWfcF", 100),
    PieceSpec::new("philosopher", 'H', "", 300),
    PieceSpec::new("bishop", 'B', "B", 330),
    PieceSpec::new("rook", 'R', "R", 500),
    PieceSpec::new("queen", 'Q', "Q", 900),
    PieceSpec::new("king", 'K', "K", 0).royal(),
    PieceSpec::new("great philosopher", 'G', "", 500),
];
const LETTERS: [char; 7] = crate::piece::letters(&PIECES);

/// What `variantlab variants` says about the basic form.
pub const INFO: super::VariantInfo = super::VariantInfo {
    name: super::VariantKind::Dialectic.const_name(),
    title: "Dialectic Chess",
    rules_file: "docs/rules/dialectic.md",
    dims: (8, 8, 1),
    cells: 64,
    notes: NOTES,
    many_moves: false,
    // [V] decided games run past ply 400 (docs/decisions.md, self-play ply caps).
    max_plies: 1000,
};

/// What `variantlab variants` says about the Hegelian form: the basic form's but for its name
/// and title.
pub const INFO_HEGELIAN: super::VariantInfo = super::VariantInfo {
    name: super::VariantKind::DialecticHegelian.const_name(),
    title: "Hegelian Dialectic Chess",
    ..INFO
};

const NOTES: &[&str] = &[
    "[D] a turn is one main-board move or one token step on the 3x3 dialectic; tokens start at T(1,2), A(2,1)",
    "[D] Philosophers move quietly by the Thesis vectors and capture by the Antithesis vectors; (0,0) gives none",
    "[D] a token state (T, A) may not repeat since the last main-board move; the visited set is part of the position",
    "[D] Hegelian: tokens may share a cell, and a shared pair may step together (the Synthesis)",
    "[V] token steps do not reset the 50-move count; the en passant cell is kept only when an enemy pawn stands beside",
];

/// Move list type of both forms.
pub type DialecticMoves = ArrayVec<Move, 512>;

const START: &str = "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21";
const NO_EP: u8 = 64;
/// The castling rights' letters and bits.
const RIGHTS: [(char, u8); 4] = [('K', 1), ('Q', 2), ('k', 4), ('q', 8)];

/// The compact text's spacing, runs and error words.
const FORMAT: Format = Format {
    spacing: Spacing::Spaces,
    runs: Runs::Digit,
    too_long: "rank too long",
    side: "expected w or b",
};

struct Tables {
    /// Vectors of `L(cell)` per dialectic cell (x + 3y), with their count.
    vecs: [[(i8, i8); 8]; 9],
    nvec: [usize; 9],
    /// Philosopher leap targets per cell and square.
    leap: [[u64; 64]; 9],
    king: [u64; 64],
    zob: Zobrist,
    tok_t: [u64; 9],
    tok_a: [u64; 9],
    visited: [u64; 81],
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut vecs = [[(0i8, 0i8); 8]; 9];
        let mut nvec = [0usize; 9];
        let mut leap = [[0u64; 64]; 9];
        for cell in 0..9 {
            let (a, b) = ((cell % 3) as i8, (cell / 3) as i8);
            if a == 0 && b == 0 {
                continue; // [D3]: (0,0) gives no move
            }
            let cand = [
                (a, b),
                (a, -b),
                (-a, b),
                (-a, -b),
                (b, a),
                (b, -a),
                (-b, a),
                (-b, -a),
            ];
            for v in cand {
                if !vecs[cell][..nvec[cell]].contains(&v) {
                    vecs[cell][nvec[cell]] = v;
                    nvec[cell] += 1;
                }
            }
            for (sq, bb) in leap[cell].iter_mut().enumerate() {
                for &(dx, dy) in &vecs[cell][..nvec[cell]] {
                    if let Some(t) = offset(sq as u8, dx, dy) {
                        *bb |= 1 << t;
                    }
                }
            }
        }
        let mut king = [0u64; 64];
        for (sq, bb) in king.iter_mut().enumerate() {
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if (dx, dy) != (0, 0) {
                        if let Some(t) = offset(sq as u8, dx, dy) {
                            *bb |= 1 << t;
                        }
                    }
                }
            }
        }
        let mut rng = SplitMix64(0x000d_1a1e_c71c);
        let mut tok_t = [0; 9];
        let mut tok_a = [0; 9];
        let mut visited = [0; 81];
        for k in tok_t
            .iter_mut()
            .chain(tok_a.iter_mut())
            .chain(visited.iter_mut())
        {
            *k = rng.next();
        }
        Tables {
            vecs,
            nvec,
            leap,
            king,
            zob: Zobrist::new(64, 16, 0x000d_1a1e_c71c_0001),
            tok_t,
            tok_a,
            visited,
        }
    })
}

#[inline]
fn offset(sq: u8, dx: i8, dy: i8) -> Option<u8> {
    let x = (sq % 8) as i8 + dx;
    let y = (sq / 8) as i8 + dy;
    if (0..8).contains(&x) && (0..8).contains(&y) {
        Some((x + 8 * y) as u8)
    } else {
        None
    }
}

/// The cell of the pawn an en passant capture onto `ep` by `capturer` takes: one rank
/// behind `ep` as the capturer sees it.
#[inline]
fn ep_victim(ep: u8, capturer: Color) -> u8 {
    if capturer == Color::White {
        ep - 8
    } else {
        ep + 8
    }
}

#[inline]
fn code(color: Color, role: u8) -> u8 {
    1 + role * 2 + color as u8
}

/// The castling rights that survive a move from or to `sq` (or a piece taken off it): a King's
/// or Rook's home cell loses its rights.
#[inline]
fn rights_kept(sq: u8) -> u8 {
    match sq {
        0 => !2,
        7 => !1,
        4 => !3,
        56 => !8,
        63 => !4,
        60 => !12,
        _ => !0,
    }
}

/// The side of a piece code (not 0).
fn color_of(c: u8) -> Color {
    Color::ALL[usize::from((c - 1) & 1)]
}

/// Basic Dialectic Chess.
pub type Dialectic = DialecticPos<false>;
/// Hegelian Dialectic Chess.
pub type DialecticHegelian = DialecticPos<true>;

/// A position of Dialectic Chess (`HEGELIAN = false`) or its Hegelian form.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DialecticPos<const HEGELIAN: bool> {
    board: [u8; 64],
    occ: [u64; 2],
    kings: [u8; 2],
    turn: Color,
    castling: u8,
    ep: u8,
    thesis: u8,
    anti: u8,
    /// Bit `9 * T + A` for each visited `(T, A)` state, the current one included.
    visited: u128,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const QUEEN_DIRS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl<const HEGELIAN: bool> DialecticPos<HEGELIAN> {
    #[inline]
    fn occupied(&self) -> u64 {
        self.occ[0] | self.occ[1]
    }

    #[inline]
    fn state(&self) -> u32 {
        9 * self.thesis as u32 + self.anti as u32
    }

    /// Whether `sq` is attacked by `by`, with the current Antithesis.
    #[inline]
    fn attacked(&self, sq: u8, by: Color) -> bool {
        self.attackers_within::<true>(sq, self.occupied(), by) != 0
    }

    /// The pieces of `by` among the cells of `occ` that attack `sq` (with the current
    /// Antithesis), `occ` blocking the rides: the set the static exchange takes its
    /// recaptures from, with each capturer's cell emptied. With `ANY`, it stops at the first
    /// attacker found (the legality test only asks whether there is one).
    fn attackers_within<const ANY: bool>(&self, sq: u8, occ: u64, by: Color) -> u64 {
        let t = tables();
        let mut found = 0u64;
        let holds = |s: u8, role: u8| occ >> s & 1 != 0 && self.board[s as usize] == code(by, role);
        macro_rules! add {
            ($s:expr) => {{
                found |= 1u64 << $s;
                if ANY {
                    return found;
                }
            }};
        }
        // pawns
        let dy: i8 = if by == Color::White { -1 } else { 1 };
        for dx in [-1, 1] {
            if let Some(s) = offset(sq, dx, dy) {
                if holds(s, PAWN) {
                    add!(s);
                }
            }
        }
        let mut kb = t.king[sq as usize];
        while kb != 0 {
            let s = kb.trailing_zeros() as u8;
            kb &= kb - 1;
            if holds(s, KING) {
                add!(s);
            }
        }
        for (dirs, roles) in [(ROOK_DIRS, [ROOK, QUEEN]), (BISHOP_DIRS, [BISHOP, QUEEN])] {
            for (dx, dy) in dirs {
                let mut s = sq;
                while let Some(n) = offset(s, dx, dy) {
                    s = n;
                    if occ >> s & 1 != 0 {
                        if roles.iter().any(|&r| holds(s, r)) {
                            add!(s);
                        }
                        break;
                    }
                }
            }
        }
        let a = self.anti as usize;
        let mut lb = t.leap[a][sq as usize];
        while lb != 0 {
            let s = lb.trailing_zeros() as u8;
            lb &= lb - 1;
            if holds(s, PHIL) {
                add!(s);
            }
        }
        // Great Philosophers: only landing cells block.
        for &(dx, dy) in &t.vecs[a][..t.nvec[a]] {
            let mut s = sq;
            while let Some(n) = offset(s, dx, dy) {
                s = n;
                if occ >> s & 1 != 0 {
                    if holds(s, GREAT) {
                        add!(s);
                    }
                    break;
                }
            }
        }
        found
    }

    /// The cells the piece on `from` (of `color`) reaches by a move or a capture, and the cells
    /// it attacks (could capture on; its own pieces there are defended), with the tokens as
    /// they stand: what the evaluation's activity terms need. Castling and en passant are
    /// left out.
    fn reach_and_attacks(&self, from: u8, color: Color) -> (u64, u64) {
        let t = tables();
        let occ = self.occupied();
        let enemy = self.occ[(!color).index()];
        let ride = |dirs: &[(i8, i8)], stop_before: bool| {
            let mut cells = 0u64;
            for &(dx, dy) in dirs {
                let mut s = from;
                while let Some(n) = offset(s, dx, dy) {
                    s = n;
                    if occ >> s & 1 != 0 {
                        if !stop_before {
                            cells |= 1 << s;
                        }
                        break;
                    }
                    cells |= 1 << s;
                }
            }
            cells
        };
        let (thesis, anti) = (self.thesis as usize, self.anti as usize);
        match (self.board[from as usize] - 1) >> 1 {
            PAWN => {
                let dy = if color == Color::White { 1 } else { -1 };
                let attacks = [-1, 1]
                    .into_iter()
                    .filter_map(|dx| offset(from, dx, dy))
                    .fold(0u64, |acc, s| acc | 1 << s);
                let push = offset(from, 0, dy)
                    .filter(|&s| occ >> s & 1 == 0)
                    .map_or(0, |s| 1u64 << s);
                (push | attacks & enemy, attacks)
            }
            PHIL => {
                let attacks = t.leap[anti][from as usize];
                (
                    t.leap[thesis][from as usize] & !occ | attacks & enemy,
                    attacks,
                )
            }
            KING => (t.king[from as usize], t.king[from as usize]),
            GREAT => {
                // Quiet rides by the Thesis vectors; captures on the first occupied landing
                // cell of an Antithesis vector (only landing cells block).
                let quiet = ride(&t.vecs[thesis][..t.nvec[thesis]], true);
                let reach = ride(&t.vecs[anti][..t.nvec[anti]], false);
                let attacks = reach & occ;
                (quiet | attacks & enemy, attacks)
            }
            role => {
                let dirs: &[(i8, i8)] = match role {
                    BISHOP => &BISHOP_DIRS,
                    ROOK => &ROOK_DIRS,
                    _ => &QUEEN_DIRS,
                };
                let cells = ride(dirs, false);
                (cells, cells)
            }
        }
    }

    fn king_attacked(&self, side: Color) -> bool {
        self.attacked(self.kings[side.index()], !side)
    }

    fn full_hash(&self) -> u64 {
        let t = tables();
        let mut h = 0;
        for (s, &c) in self.board.iter().enumerate() {
            if c != 0 {
                h ^= t.zob.piece(c, Square(s as u16));
            }
        }
        if self.turn == Color::Black {
            h ^= t.zob.side;
        }
        h ^= t.zob.castling(self.castling);
        if self.ep != NO_EP {
            h ^= t.zob.ep(Square(self.ep as u16));
        }
        h ^= t.tok_t[self.thesis as usize] ^ t.tok_a[self.anti as usize];
        let mut v = self.visited;
        while v != 0 {
            let i = v.trailing_zeros() as usize;
            v &= v - 1;
            h ^= t.visited[i];
        }
        h
    }

    fn put(&mut self, sq: u8, c: u8) {
        debug_assert!(self.board[sq as usize] == 0 && c != 0);
        self.board[sq as usize] = c;
        self.occ[((c - 1) & 1) as usize] |= 1 << sq;
        self.hash ^= tables().zob.piece(c, Square(sq as u16));
    }

    fn take(&mut self, sq: u8) -> u8 {
        let c = self.board[sq as usize];
        if c != 0 {
            self.board[sq as usize] = 0;
            self.occ[((c - 1) & 1) as usize] &= !(1 << sq);
            self.hash ^= tables().zob.piece(c, Square(sq as u16));
        }
        c
    }

    fn set_ep(&mut self, ep: u8) {
        let z = &tables().zob;
        if self.ep != NO_EP {
            self.hash ^= z.ep(Square(self.ep as u16));
        }
        self.ep = ep;
        if ep != NO_EP {
            self.hash ^= z.ep(Square(ep as u16));
        }
    }

    fn set_visited(&mut self, v: u128) {
        let t = tables();
        let mut d = self.visited ^ v;
        while d != 0 {
            let i = d.trailing_zeros() as usize;
            d &= d - 1;
            self.hash ^= t.visited[i];
        }
        self.visited = v;
    }

    /// Whether a pawn of `side` stands beside the double-stepped pawn (a pseudo-legal en
    /// passant capture exists). The en passant cell is recorded (and hashed) only then.
    fn ep_capturable(&self, ep: u8, side: Color) -> bool {
        // The double-stepped pawn stands just beyond the en passant cell.
        let beyond = ep_victim(ep, side);
        [-1i8, 1]
            .iter()
            .filter_map(|&dx| offset(beyond, dx, 0))
            .any(|s| self.board[s as usize] == code(side, PAWN))
    }

    fn push_if_legal(&self, m: Move, out: &mut DialecticMoves) {
        let mut p = *self;
        p.play_unchecked(m);
        if !p.king_attacked(self.turn) {
            out.push(m);
        }
    }

    fn gen_castling(&self, from: u8, out: &mut DialecticMoves) {
        let us = self.turn;
        let (home, kbit, qbit) = if us == Color::White {
            (4u8, 1u8, 2u8)
        } else {
            (60, 4, 8)
        };
        if from != home || self.castling & (kbit | qbit) == 0 || self.king_attacked(us) {
            return;
        }
        let occ = self.occupied();
        // [D14]: attacks under the current Antithesis.
        if self.castling & kbit != 0
            && occ & (0b11 << (home + 1)) == 0
            && self.board[home as usize + 3] == code(us, ROOK)
            && !self.attacked(home + 1, !us)
        {
            self.push_if_legal(
                Move::new(
                    Square(home as u16),
                    Square(home as u16 + 2),
                    MoveKind::Castle,
                    Role(0),
                ),
                out,
            );
        }
        if self.castling & qbit != 0
            && occ & (0b111 << (home - 3)) == 0
            && self.board[home as usize - 4] == code(us, ROOK)
            && !self.attacked(home - 1, !us)
        {
            self.push_if_legal(
                Move::new(
                    Square(home as u16),
                    Square(home as u16 - 2),
                    MoveKind::Castle,
                    Role(0),
                ),
                out,
            );
        }
    }

    fn gen_tokens(&self, out: &mut DialecticMoves) {
        let shared = self.thesis == self.anti;
        for (kind, cur, other) in [
            (MoveKind::ThesisStep, self.thesis, self.anti),
            (MoveKind::AntithesisStep, self.anti, self.thesis),
            (MoveKind::SynthesisStep, self.thesis, self.anti),
        ] {
            if kind == MoveKind::SynthesisStep && !(HEGELIAN && shared) {
                continue;
            }
            let (x, y) = ((cur % 3) as i8, (cur / 3) as i8);
            for (dx, dy) in ROOK_DIRS {
                let (nx, ny) = (x + dx, y + dy);
                if !(0..3).contains(&nx) || !(0..3).contains(&ny) {
                    continue;
                }
                let cell = (nx + 3 * ny) as u8;
                if !HEGELIAN && cell == other {
                    continue; // [D4]
                }
                let (nt, na) = match kind {
                    MoveKind::ThesisStep => (cell, self.anti),
                    MoveKind::AntithesisStep => (self.thesis, cell),
                    _ => (cell, cell),
                };
                if self.visited & (1u128 << (9 * nt as u32 + na as u32)) != 0 {
                    continue; // [D5]
                }
                self.push_if_legal(
                    Move::new(Square(0), Square(cell as u16), kind, Role(0)),
                    out,
                );
            }
        }
    }

    /// The Thesis and Antithesis cells as `(x, y)` pairs.
    pub fn tokens(&self) -> ((u8, u8), (u8, u8)) {
        (
            (self.thesis % 3, self.thesis / 3),
            (self.anti % 3, self.anti / 3),
        )
    }
}

/// The 8x8 board, for cell names and the board text.
fn topology() -> &'static Topology {
    static TOPO: OnceLock<Topology> = OnceLock::new();
    TOPO.get_or_init(|| Topology::rect(8, 8))
}

impl<const HEGELIAN: bool> Game for DialecticPos<HEGELIAN> {
    type Moves = DialecticMoves;

    super::kernel::game_fields! {
        start: Self::from_text(START),
        name: if HEGELIAN { INFO_HEGELIAN.name } else { INFO.name },
        clock: halfmove,
    }
    super::kernel::notation_and_evaluation!();

    /// The two tokens' cells of the 3×3 grid (they belong to neither side).
    fn net_shape(&self) -> crate::nnue::NetShape {
        crate::nnue::NetShape {
            hand: 0,
            extras: 18,
        }
    }

    fn net_inputs<S: crate::nnue::InputSink>(&self, sink: &mut S) {
        self.report_features(&mut crate::nnue::PiecesOnly(&mut *sink));
        sink.extra(None, self.thesis as usize);
        sink.extra(None, 9 + self.anti as usize);
    }
    fn legal_moves(&self, out: &mut DialecticMoves) {
        let t = tables();
        let us = self.turn;
        let occ = self.occupied();
        let own = self.occ[us.index()];
        let enemy = self.occ[(!us).index()];
        let mut bb = own;
        while bb != 0 {
            let from = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            let f = Square(from as u16);
            let role = (self.board[from as usize] - 1) >> 1;
            let mv = |to: u8| Move::normal(f, Square(to as u16));
            match role {
                PAWN => {
                    let (dy, start, last): (i8, u8, u8) = if us == Color::White {
                        (1, 1, 7)
                    } else {
                        (-1, 6, 0)
                    };
                    let push_prom = |to: u8, out: &mut DialecticMoves| {
                        if to / 8 == last {
                            for r in [QUEEN, ROOK, BISHOP, PHIL] {
                                // [D8]
                                self.push_if_legal(
                                    Move::new(f, Square(to as u16), MoveKind::Promotion, Role(r)),
                                    out,
                                );
                            }
                        } else {
                            self.push_if_legal(mv(to), out);
                        }
                    };
                    if let Some(to) = offset(from, 0, dy) {
                        if occ & (1 << to) == 0 {
                            push_prom(to, out);
                            if from / 8 == start {
                                if let Some(to2) = offset(to, 0, dy) {
                                    if occ & (1 << to2) == 0 {
                                        self.push_if_legal(
                                            Move::new(
                                                f,
                                                Square(to2 as u16),
                                                MoveKind::DoubleStep,
                                                Role(0),
                                            ),
                                            out,
                                        );
                                    }
                                }
                            }
                        }
                    }
                    for dx in [-1, 1] {
                        if let Some(to) = offset(from, dx, dy) {
                            if enemy & (1 << to) != 0 {
                                push_prom(to, out);
                            } else if to == self.ep {
                                self.push_if_legal(
                                    Move::new(f, Square(to as u16), MoveKind::EnPassant, Role(0)),
                                    out,
                                );
                            }
                        }
                    }
                }
                PHIL => {
                    let mut q = t.leap[self.thesis as usize][from as usize] & !occ;
                    let mut c = t.leap[self.anti as usize][from as usize] & enemy;
                    while q != 0 {
                        let to = q.trailing_zeros() as u8;
                        q &= q - 1;
                        self.push_if_legal(mv(to), out);
                    }
                    while c != 0 {
                        let to = c.trailing_zeros() as u8;
                        c &= c - 1;
                        self.push_if_legal(mv(to), out);
                    }
                }
                KING => {
                    let mut k = t.king[from as usize] & !own;
                    while k != 0 {
                        let to = k.trailing_zeros() as u8;
                        k &= k - 1;
                        self.push_if_legal(mv(to), out);
                    }
                    self.gen_castling(from, out);
                }
                GREAT => {
                    let (tc, ac) = (self.thesis as usize, self.anti as usize);
                    for &(dx, dy) in &t.vecs[tc][..t.nvec[tc]] {
                        let mut s = from;
                        while let Some(n) = offset(s, dx, dy) {
                            s = n;
                            if occ & (1 << s) != 0 {
                                break;
                            }
                            self.push_if_legal(mv(s), out);
                        }
                    }
                    for &(dx, dy) in &t.vecs[ac][..t.nvec[ac]] {
                        let mut s = from;
                        while let Some(n) = offset(s, dx, dy) {
                            s = n;
                            if occ & (1 << s) != 0 {
                                if enemy & (1 << s) != 0 {
                                    self.push_if_legal(mv(s), out);
                                }
                                break;
                            }
                        }
                    }
                }
                _ => {
                    let dirs: &[(i8, i8)] = match role {
                        BISHOP => &BISHOP_DIRS,
                        ROOK => &ROOK_DIRS,
                        _ => &QUEEN_DIRS,
                    };
                    for &(dx, dy) in dirs {
                        let mut s = from;
                        while let Some(n) = offset(s, dx, dy) {
                            s = n;
                            if own & (1 << s) != 0 {
                                break;
                            }
                            self.push_if_legal(mv(s), out);
                            if enemy & (1 << s) != 0 {
                                break;
                            }
                        }
                    }
                }
            }
        }
        self.gen_tokens(out);
    }
    /// Plays any move generated by the pseudo-legal generator.
    fn play_unchecked(&mut self, m: Move) {
        let t = tables();
        let us = self.turn;
        match m.kind() {
            MoveKind::ThesisStep | MoveKind::AntithesisStep | MoveKind::SynthesisStep => {
                let cell = m.to().0 as u8;
                self.hash ^= t.tok_t[self.thesis as usize] ^ t.tok_a[self.anti as usize];
                if m.kind() != MoveKind::AntithesisStep {
                    self.thesis = cell;
                }
                if m.kind() != MoveKind::ThesisStep {
                    self.anti = cell;
                }
                self.hash ^= t.tok_t[self.thesis as usize] ^ t.tok_a[self.anti as usize];
                self.set_visited(self.visited | 1u128 << self.state());
                self.set_ep(NO_EP); // [D13]
                self.halfmove += 1; // [D12]: dialectic moves do not reset the counter
            }
            kind => {
                let from = m.from().0 as u8;
                let to = m.to().0 as u8;
                let mover = self.take(from);
                let mut captured = self.take(to);
                let role = (mover - 1) >> 1;
                let mut placed = mover;
                match kind {
                    MoveKind::EnPassant => {
                        let cap = ep_victim(to, us);
                        captured = self.take(cap);
                    }
                    MoveKind::Promotion => placed = code(us, m.role().0),
                    MoveKind::Castle => {
                        let (rf, rt) = if to > from {
                            (from + 3, from + 1)
                        } else {
                            (from - 4, from - 1)
                        };
                        let r = self.take(rf);
                        self.put(rt, r);
                    }
                    _ => {}
                }
                // [D9]: a Philosopher capturing a (Great) Philosopher becomes Great.
                if role == PHIL && captured != 0 {
                    let cr = (captured - 1) >> 1;
                    if cr == PHIL || cr == GREAT {
                        placed = code(us, GREAT);
                    }
                }
                self.put(to, placed);
                if role == KING {
                    self.kings[us.index()] = to;
                }
                let mut rights = self.castling;
                for s in [from, to] {
                    rights &= rights_kept(s);
                }
                self.hash ^= t.zob.castling(self.castling) ^ t.zob.castling(rights);
                self.castling = rights;
                let ep = if kind == MoveKind::DoubleStep && self.ep_capturable((from + to) / 2, !us)
                {
                    (from + to) / 2
                } else {
                    NO_EP
                };
                self.set_ep(ep);
                if role == PAWN || captured != 0 {
                    self.halfmove = 0;
                } else {
                    self.halfmove += 1;
                }
                self.set_visited(1u128 << self.state()); // [D5]: reset on a main-board move
            }
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.turn = !us;
        self.hash ^= t.zob.side;
        debug_assert_eq!(self.hash, self.full_hash());
    }
    fn in_check(&self) -> bool {
        self.king_attacked(self.turn)
    }
    /// [D15]: K v K, K+B v K, K+B v K+B with same-coloured Bishops.
    fn insufficient_material(&self) -> bool {
        let mut bishops = [0u32; 2];
        let mut colours = 0u8;
        for (s, &c) in self.board.iter().enumerate() {
            if c == 0 {
                continue;
            }
            match (c - 1) >> 1 {
                KING => {}
                BISHOP => {
                    bishops[((c - 1) & 1) as usize] += 1;
                    colours |= 1 << ((s % 8 + s / 8) % 2);
                }
                _ => return false,
            }
        }
        bishops[0] <= 1 && bishops[1] <= 1 && (bishops[0] + bishops[1] < 2 || colours != 3)
    }
    /// Passing flips the side to move and its hash key and drops the en passant cell; the
    /// tokens and the visited set stay as they are (a pass is neither a token step nor a
    /// main-board move, so no state is added and \[D5\]'s reset does not happen), and the
    /// halfmove clock counts the pass as a ply. `None` in check.
    fn null_move(&self) -> Option<Self> {
        if self.in_check() {
            return None;
        }
        let mut p = super::kernel::passed!(self, tables().zob.side, halfmove);
        p.set_ep(NO_EP);
        Some(p)
    }
    fn eval_cells(&self) -> usize {
        64
    }
    fn royal_cells(&self) -> Option<crate::game::RoyalCells> {
        super::kernel::flat_royal_cells(self.kings.map(usize::from), 8, 8)
    }
    /// The lowest cell's piece of `kind` taken off (not the King); a castling right whose Rook
    /// goes goes with it, and no en passant right survives. `None` where none stands, or where
    /// the side not to move would be left in check.
    fn without_material(&self, color: Color, kind: usize) -> Option<Self> {
        let role = u8::try_from(kind)
            .ok()
            .filter(|&r| usize::from(r) < PIECES.len() && r != KING)?;
        let sq = (0..64u8).find(|&s| self.board[usize::from(s)] == code(color, role))?;
        let mut p = *self;
        p.board[usize::from(sq)] = 0;
        p.occ[color.index()] &= !(1u64 << sq);
        p.castling &= rights_kept(sq);
        p.ep = NO_EP;
        p.hash = p.full_hash();
        (!p.king_attacked(!p.turn)).then_some(p)
    }
    /// Besides the moves' kinds, a Philosopher's capture of a Philosopher or Great
    /// Philosopher, which makes it a Great Philosopher [D9], counts as a promotion.
    fn rules_used(&self, m: Move) -> Vec<crate::game::RuleUse> {
        let role = |sq: Square| self.board[sq.index()].checked_sub(1).map(|c| c >> 1);
        if m.kind() == MoveKind::Normal
            && role(m.from()) == Some(PHIL)
            && matches!(role(m.to()), Some(PHIL | GREAT))
        {
            return crate::game::rules_of_kind(
                self,
                Move::new(m.from(), m.to(), MoveKind::Promotion, Role(GREAT)),
                GREAT.into(),
            );
        }
        crate::game::rules_of_kind(self, m, m.role().index())
    }
    fn material_kinds(&self) -> Vec<(&'static str, i32)> {
        crate::piece::material_kinds(&PIECES).collect()
    }
    fn material(&self) -> Material {
        let mut m = [[0; MAX_KINDS]; 2];
        for c in Color::ALL {
            let mut bb = self.occ[c.index()];
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                m[c.index()][((self.board[sq] - 1) >> 1) as usize] += 1;
            }
        }
        m
    }
    fn is_tactical(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::ThesisStep | MoveKind::AntithesisStep | MoveKind::SynthesisStep => false,
            MoveKind::Promotion | MoveKind::EnPassant => true,
            _ => self.board[m.to().index()] != 0,
        }
    }
}

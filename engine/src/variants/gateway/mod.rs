//! Gateway Chess (Charles Gilman): `docs/rules/` (from the specification
//! `shared/rules/gateway-chess.md`).
//!
//! # Rules in brief
//!
//! A 3D board of 4 files (`a`–`d`) × 10 ranks (`1`–`10`) × 5 levels (`v` top … `z` bottom)
//! without files `a` and `d` on ranks 3 and 8 (each side's two-wide, five-high *gateway*):
//! 180 cells. Cells are named level, file, rank: `xb3`. Pieces: Rook, Bishop, Unicorn (rides of
//! the 6 orthogonal, 12 diagonal and 8 triagonal directions), their compounds Queen (R+B),
//! Duchess (R+U), Governor (B+U), the leapers Knight (2:1:0), Sexton (2:1:1), Ninja (2:2:1),
//! their compounds Churchwarden (N+S), Samurai (N+J), Oberon (S+J), the Pawn (one step forward;
//! captures one diagonal step forward within a file–rank or level–rank plane; compulsory
//! promotion on the last rank to any of the twelve other non-royal types) and the royals.
//!
//! The **one-foot-in-the-grave** rule — every cell of the box spanned by a single step or leap
//! must exist — is the topology's [`StepRule::WholeBox`], so the compiled leap tables and rays
//! already obey it, for moves and threats alike, and move generation pays nothing for it.
//!
//! The **Quantum King** (QK) fills a whole row of four cells (one rank, one level). It steps the
//! row by one rank, one level, or both, onto a row that exists in full and holds no friendly
//! piece (a diagonal step also needs the two rows it passes between to exist in full); enemy
//! pieces on the row are all captured. QK cells block every ride and may not be entered, but leaps and box tests ignore
//! them. While a side has its QK: if all four cells are threatened it is checkmated; if one to
//! three are threatened it must *transform*: the QK becomes an Emperor on one unthreatened cell
//! of its row (the whole move); otherwise it plays any normal move after which no QK cell is
//! threatened, and if there is none it must transform onto any of the four cells. The Emperor
//! steps one cell in any of the 26 directions and is an ordinary royal King: checkmate loses,
//! stalemate draws. No castling, en passant or double step.
//!
//! # Reconstructions and decisions
//!
//! The original diagrams are lost: the **board shape** ([`HOLES`]) and the **start array**
//! ([`START`]) are the rules file's reconstructions, kept as data so that they can be corrected
//! if the original turns up. The rules file's decisions are followed as written (numbers of its
//! Ambiguities table): the QK captures every enemy piece on its destination row (A6); it
//! attacks every cell of each row it could step to, which matters only for Emperor check (A7);
//! a normal move must leave no QK cell threatened (A8); a threatened QK must transform even
//! when the threat could be parried (A9); the transformation target is any unthreatened cell
//! of the row (A11); promotion choices (A14); stalemate is a draw (A15); threefold repetition
//! and the 100-ply rule, reset by captures, Pawn moves and transformations (A16); box tests
//! look at existence only (A17); rides may not cross either side's QK cells (A18).
//!
//! Two points the file leaves open, decided here: a QK may not step onto (nor attack) a row
//! holding enemy QK cells, since no piece may enter a QK cell (unreachable from the start
//! array: each QK stays in its own camp). Positions where both sides hold nothing but their
//! royals are dead draws ([`Game::insufficient_material`]): a lone Emperor threatens at most
//! three cells of a row, and a lone QK can never give check (an Emperor on a row the QK attacks
//! threatens the QK cell on its own file, so the step that would give check is illegal).
//!
//! Cell numbers are the topology's: `(level * 10 + rank) * 4 + file`, level 0 being `v` (the
//! top), as [`Topology::square_name`] names levels. Every rule of the game is symmetric top to
//! bottom, so this differs from the rules file's suggested `z = 0` numbering only in labels.
//! Holes keep their numbers, so the 200 numbers need a four-word bitboard ([`GatewayBb`]).
//!
//! # Move generation
//!
//! Pseudo-legal moves come from the compiled tables ([`attack_tables`]); QK cells are added to
//! the blockers of every ride and removed from every target set. Legality follows section 6 of
//! the rules file. A move is played on a copy and tested only when it can matter: a QK step, a
//! move of a piece pinned against a QK cell or the Emperor (found once per position by looking
//! one blocker further along each ray), an Emperor move, any move while in check, and a
//! capture while the enemy still has its QK (a capture can free a row for it). Every other
//! move is legal as generated. No allocation happens during generation.
//!
//! The position text and the move names are the `notation` module's; the evaluation terms, the
//! static exchange and the capture order are the `evaluation` module's.

use super::kernel::{capture_order, move_name, value_of};
use super::text::{self, Bad, Counter, Format, Punctuation, Runs, Spacing};
use crate::attacks::AttackTables;
use crate::bitboard::{BbWide, Bitboard};
use crate::error::PositionError;
use crate::game::{Game, Material, MAX_KINDS};
use crate::geometry::{StepRule, Topology, Vector};
use crate::moves::{Move, MoveKind};
use crate::piece::{Atom, Modality, PieceSpec};
use crate::see::{exchange_on_bitboards, ROYAL};
use crate::zobrist::Zobrist;
use crate::{Color, Piece, Role, Square};
use arrayvec::ArrayVec;
use std::sync::OnceLock;

mod evaluation;
mod notation;

/// What `variantlab variants` reports.
pub const INFO: super::VariantInfo = super::VariantInfo {
    name: super::VariantKind::Gateway.const_name(),
    title: "Gateway Chess",
    rules_file: "docs/rules/gateway.md",
    dims: (4, 10, 5),
    cells: 180,
    notes: &[
        "[R] board: 4 files x 10 ranks x 5 levels (v top .. z bottom) without files a and d on ranks 3 and 8 (the gateways): 180 cells",
        "[R] setup: the start array is reconstructed (the five level diagrams are lost)",
        "[D] one-foot-in-the-grave: every cell of the box spanned by a step or leap must exist",
        "[S/D] Quantum King: four threatened row cells is checkmate; otherwise keep the row unthreatened or transform into an Emperor on an unthreatened cell; only a side with an Emperor can be stalemated",
    ],
    many_moves: false,
    // [V] decided games of 47-piece armies run past ply 400 (docs/decisions.md, self-play
    // ply caps).
    max_plies: 1500,
};

/// The bitboard of the Gateway board: 200 cell numbers (holes keep theirs, see
/// [`Topology::without`]), 180 cells, so four words.
pub type GatewayBb = BbWide<4>;

/// Files, ranks and levels of the bounding box.
const FILES: usize = 4;
const RANKS: usize = 10;
const LEVELS: usize = 5;
/// Cell numbers, holes included.
const NSQ: usize = FILES * RANKS * LEVELS;
/// Rows (one rank of one level): `level * 10 + rank`.
const NROWS: usize = RANKS * LEVELS;
/// No QK (the side has its Emperor).
const NO_ROW: u8 = u8::MAX;

/// The compact text's spacing, runs and error words.
const FORMAT: Format = Format {
    spacing: Spacing::Single,
    runs: Runs::Digit,
    too_long: "too many cells in the rank",
    side: "expected w or b",
};

/// The missing cells (R): files `a` and `d` on ranks 3 and 8, on every level.
pub const HOLES: [&str; 20] = [
    "va3", "vd3", "va8", "vd8", "wa3", "wd3", "wa8", "wd8", "xa3", "xd3", "xa8", "xd8", "ya3",
    "yd3", "ya8", "yd8", "za3", "zd3", "za8", "zd8",
];

/// The start position (R) (the rules file's reconstructed array), in the position text format.
pub const START: &str = "ommo/rnnr/pp/4/4/4/4/PP/RNNR/OMMO|cjjc/bssb/pp/4/4/4/4/PP/BSSB/CJJC|\
kkkk/bjjb/pp/4/4/4/4/PP/BJJB/KKKK|quuq/ussu/pp/4/4/4/4/PP/USSU/QUUQ|gddg/rnnr/pp/4/4/4/4/PP/RNNR/GDDG w 0 1";

/// Gateway's extra to a piece's line ([`PieceSpec`]): the vector families it rides and those
/// it leaps (each family is every permutation and sign choice of the given triple), which a
/// Betza string cannot say in three dimensions.
#[derive(Clone, Copy, Debug)]
pub struct Families {
    /// Families ridden any distance.
    pub rides: &'static [Vector],
    /// Families leapt (or stepped) once.
    pub leaps: &'static [Vector],
}

/// A table line: name, letter, value, rides, leaps.
const fn role(
    name: &'static str,
    letter: char,
    value: i32,
    rides: &'static [Vector],
    leaps: &'static [Vector],
) -> PieceSpec<Families> {
    PieceSpec::new(name, letter, "", value).with(Families { rides, leaps })
}

const ORTHO: Vector = [1, 0, 0];
const DIAG: Vector = [1, 1, 0];
const TRI: Vector = [1, 1, 1];
const KNIGHT: Vector = [2, 1, 0];
const SEXTON: Vector = [2, 1, 1];
const NINJA: Vector = [2, 2, 1];

/// Role indices.
const PAWN: usize = 0;
const EMPEROR: usize = 13;
/// Number of roles in the tables (the QK is not one: it is a row, kept apart).
const NROLES: usize = 14;

/// Every piece type but the Quantum King, one line each (the Pawn's moves are its own atoms,
/// see [`role_atoms`]). Values are starting estimates for the search.
#[rustfmt::skip]
pub const ROLES: [PieceSpec<Families>; NROLES] = [
    role("pawn", 'P', 100, &[], &[]),
    role("rook", 'R', 500, &[ORTHO], &[]),
    role("bishop", 'B', 450, &[DIAG], &[]),
    role("unicorn", 'U', 250, &[TRI], &[]),
    role("queen", 'Q', 1000, &[ORTHO, DIAG], &[]),
    role("duchess", 'D', 750, &[ORTHO, TRI], &[]),
    role("governor", 'G', 700, &[DIAG, TRI], &[]),
    role("knight", 'N', 300, &[], &[KNIGHT]),
    role("sexton", 'S', 300, &[], &[SEXTON]),
    role("ninja", 'J', 300, &[], &[NINJA]),
    role("churchwarden", 'C', 600, &[], &[KNIGHT, SEXTON]),
    role("samurai", 'M', 600, &[], &[KNIGHT, NINJA]),
    role("oberon", 'O', 600, &[], &[SEXTON, NINJA]),
    role("emperor", 'E', 0, &[], &[ORTHO, DIAG, TRI]).royal(),
];

/// Every permutation and sign choice of a triple, without repeats.
pub fn family(v: Vector) -> Vec<Vector> {
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out: Vec<Vector> = Vec::new();
    for p in perms {
        for signs in 0..8 {
            let mut w = [0i8; 3];
            for k in 0..3 {
                let x = v[p[k]];
                w[k] = if signs >> k & 1 == 1 { -x } else { x };
            }
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// The atoms of every role, indexed like [`ROLES`], from White's point of view.
pub fn role_atoms() -> Vec<Vec<Atom>> {
    ROLES
        .iter()
        .enumerate()
        .map(|(r, spec)| {
            if r == PAWN {
                let mut atoms = vec![Atom {
                    vector: [0, 1, 0],
                    range: 1,
                    modality: Modality::MoveOnly,
                }];
                for v in [[1, 1, 0], [-1, 1, 0], [0, 1, 1], [0, 1, -1]] {
                    atoms.push(Atom {
                        vector: v,
                        range: 1,
                        modality: Modality::CaptureOnly,
                    });
                }
                return atoms;
            }
            let mut atoms = Vec::new();
            for (fams, range) in [(spec.extra.rides, 0), (spec.extra.leaps, 1)] {
                for &f in fams {
                    for v in family(f) {
                        atoms.push(Atom {
                            vector: v,
                            range,
                            modality: Modality::Both,
                        });
                    }
                }
            }
            atoms
        })
        .collect()
}

/// The board: the 4 × 10 × 5 box without [`HOLES`], under the one-foot-in-the-grave rule.
pub fn topology() -> &'static Topology {
    &tables().topo
}

/// The compiled attack tables of [`role_atoms`] on [`topology`].
pub fn attack_tables() -> &'static AttackTables<GatewayBb> {
    &tables().at
}

struct Tables {
    topo: Topology,
    at: AttackTables<GatewayBb>,
    zob: Zobrist,
    /// The four cells of each full row (empty for rows on ranks 3 and 8).
    rows: [GatewayBb; NROWS],
    /// The rows a QK may step to from each row (conditions 1 and 2 of the rules file).
    steps: [ArrayVec<u8, 8>; NROWS],
    /// For each colour, ride group (of `at`) and cell: the union of the group's reverse rays,
    /// to skip a group at once when none of its riders is on its lines.
    group_lines: [Vec<GatewayBb>; 2],
    /// The masks of the pawn-structure terms.
    pawns: PawnMasks,
}

/// Per side and cell, the cells the pawn-structure terms look at, built once so that the
/// evaluation only masks bitboards. A Pawn steps along its *column* (same file and level,
/// A12) and captures into its four *neighbour columns*, those of its capture cells: file ±1
/// on its level, level ±1 on its file (fewer at the edges of the box). They take the place of
/// the file and the neighbouring files of a flat board. Only cells that exist are included.
struct PawnMasks {
    /// Cells ahead in the column (higher ranks from the side's view).
    front_column: [[GatewayBb; NSQ]; 2],
    /// Cells ahead in the column and in the neighbour columns.
    front_span: [[GatewayBb; NSQ]; 2],
    /// Every cell of the neighbour columns (the same for both sides).
    neighbours: [GatewayBb; NSQ],
    /// The next cell of the column, one rank forward (empty where it is missing).
    stop: [[GatewayBb; NSQ]; 2],
    /// The cells from which every cell ahead in the column exists, up to the last rank.
    promotable: [GatewayBb; 2],
}

/// The cell number of (file, rank, level).
#[inline]
fn cell_at(file: usize, rank: usize, level: usize) -> usize {
    (level * RANKS + rank) * FILES + file
}

fn build_pawn_masks(topo: &Topology) -> PawnMasks {
    let exists = |sq: usize| topo.exists(Square(sq as u16));
    let mut m = PawnMasks {
        front_column: [[GatewayBb::EMPTY; NSQ]; 2],
        front_span: [[GatewayBb::EMPTY; NSQ]; 2],
        neighbours: [GatewayBb::EMPTY; NSQ],
        stop: [[GatewayBb::EMPTY; NSQ]; 2],
        promotable: [GatewayBb::EMPTY; 2],
    };
    for sq in (0..NSQ).filter(|&sq| exists(sq)) {
        let (f, rank, l) = coords(sq);
        let mut columns: ArrayVec<(usize, usize), 4> = ArrayVec::new();
        if f > 0 {
            columns.push((f - 1, l));
        }
        if f + 1 < FILES {
            columns.push((f + 1, l));
        }
        if l > 0 {
            columns.push((f, l - 1));
        }
        if l + 1 < LEVELS {
            columns.push((f, l + 1));
        }
        for r in 0..RANKS {
            for &(nf, nl) in &columns {
                let n = cell_at(nf, r, nl);
                if exists(n) {
                    m.neighbours[sq].insert(Square(n as u16));
                }
            }
        }
        for c in Color::ALL {
            let ci = c.index();
            let ahead: Vec<usize> = match c {
                Color::White => (rank + 1..RANKS).collect(),
                Color::Black => (0..rank).rev().collect(),
            };
            let mut open = true;
            for (i, &r) in ahead.iter().enumerate() {
                let own = cell_at(f, r, l);
                if exists(own) {
                    m.front_column[ci][sq].insert(Square(own as u16));
                    m.front_span[ci][sq].insert(Square(own as u16));
                    if i == 0 {
                        m.stop[ci][sq].insert(Square(own as u16));
                    }
                } else {
                    open = false;
                }
                for &(nf, nl) in &columns {
                    let n = cell_at(nf, r, nl);
                    if exists(n) {
                        m.front_span[ci][sq].insert(Square(n as u16));
                    }
                }
            }
            if open {
                m.promotable[ci].insert(Square(sq as u16));
            }
        }
    }
    m
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    let topo = Topology::boxed(FILES as u8, RANKS as u8, LEVELS as u8)
        .without(&HOLES)
        .with_rule(StepRule::WholeBox);
    let at = AttackTables::build(&topo, &role_atoms());
    let zob = Zobrist::new(NSQ, 2 * NROLES + 3, 0x06a7_e3dc_4e55);
    let full = |row: i32| -> bool {
        let (level, rank) = (row / RANKS as i32, row % RANKS as i32);
        (0..FILES as i32).all(|f| {
            topo.exists(Square(
                ((level * RANKS as i32 + rank) * FILES as i32 + f) as u16,
            ))
        })
    };
    let mut rows = [GatewayBb::EMPTY; NROWS];
    let mut steps: [ArrayVec<u8, 8>; NROWS] = std::array::from_fn(|_| ArrayVec::new());
    for row in 0..NROWS {
        if !full(row as i32) {
            continue;
        }
        for f in 0..FILES {
            let sq = row * FILES + f;
            rows[row].insert(Square(sq as u16));
        }
        let (level, rank) = ((row / RANKS) as i32, (row % RANKS) as i32);
        for dl in -1..=1 {
            for dr in -1..=1 {
                if dl == 0 && dr == 0 {
                    continue;
                }
                let (l, r) = (level + dl, rank + dr);
                if !(0..LEVELS as i32).contains(&l) || !(0..RANKS as i32).contains(&r) {
                    continue;
                }
                let to = l * RANKS as i32 + r;
                let ok = full(to)
                    && (dl == 0 || dr == 0 || (full(level * RANKS as i32 + r) && full(to - dr)));
                if ok {
                    steps[row].push(to as u8);
                }
            }
        }
    }
    let group_lines = Color::ALL.map(|c| {
        let mut v = Vec::new();
        for g in at.ride_groups(c) {
            for sq in 0..NSQ {
                let mut b = GatewayBb::EMPTY;
                for slot in &g.reverse {
                    b |= at.ray(slot.vid, Square(sq as u16));
                }
                v.push(b);
            }
        }
        v
    });
    let pawns = build_pawn_masks(&topo);
    Tables {
        topo,
        at,
        zob,
        rows,
        steps,
        group_lines,
        pawns,
    }
}

/// Zobrist code of a QK of `c` (keyed on the a-file cell of its row).
#[inline]
fn qk_code(c: Color) -> u8 {
    (2 * NROLES + 1) as u8 + c as u8
}

/// The move list. A side has at most 46 non-royal pieces (enforced by `from_text`, kept by
/// play) of which at most 10 Pawns; a test checks that `46 * (most targets of any piece) +
/// 10 * 5 * 12 (promotions) + 26 + 8` fits.
pub type GatewayMoves = ArrayVec<Move, 4096>;

/// A Gateway Chess position (copy-make, no heap).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Gateway {
    board: [u8; NSQ],
    by_role: [GatewayBb; NROLES],
    by_color: [GatewayBb; 2],
    qk: [u8; 2],
    turn: Color,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
}

#[inline]
fn coords(sq: usize) -> (usize, usize, usize) {
    (sq % FILES, (sq / FILES) % RANKS, sq / (FILES * RANKS))
}

impl Gateway {
    fn empty(turn: Color) -> Gateway {
        Gateway {
            board: [0; NSQ],
            by_role: [GatewayBb::EMPTY; NROLES],
            by_color: [GatewayBb::EMPTY; 2],
            qk: [NO_ROW; 2],
            turn,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    /// The pieces of one side and role.
    #[inline]
    fn pieces(&self, c: Color, role: usize) -> GatewayBb {
        self.by_role[role] & self.by_color[c.index()]
    }

    /// The cells of `c`'s QK (empty once it has transformed).
    #[inline]
    fn qk_cells(&self, c: Color) -> GatewayBb {
        match self.qk[c.index()] {
            NO_ROW => GatewayBb::EMPTY,
            row => tables().rows[row as usize],
        }
    }

    #[inline]
    fn all_qk(&self) -> GatewayBb {
        self.qk_cells(Color::White) | self.qk_cells(Color::Black)
    }

    /// Everything that stops a ride: pieces and QK cells.
    #[inline]
    fn occupied(&self) -> GatewayBb {
        self.by_color[0] | self.by_color[1] | self.all_qk()
    }

    /// The cell of `c`'s Emperor, if it has one.
    #[inline]
    fn emperor(&self, c: Color) -> Option<Square> {
        self.pieces(c, EMPEROR).lsb()
    }

    /// Whether `c` still has its Quantum King.
    pub fn has_quantum_king(&self, c: Color) -> bool {
        self.qk[c.index()] != NO_ROW
    }

    #[inline]
    fn put(&mut self, sq: usize, c: Color, role: usize) {
        let p = Piece {
            color: c,
            role: Role(role as u8),
        };
        self.board[sq] = p.code();
        let s = Square(sq as u16);
        self.by_role[role].insert(s);
        self.by_color[c.index()].insert(s);
        self.hash ^= tables().zob.piece(p.code(), s);
    }

    #[inline]
    fn take(&mut self, sq: usize) {
        let code = self.board[sq];
        if let Some(p) = Piece::from_code(code) {
            self.board[sq] = 0;
            let s = Square(sq as u16);
            self.by_role[p.role.index()].remove(s);
            self.by_color[p.color.index()].remove(s);
            self.hash ^= tables().zob.piece(code, s);
        }
    }

    #[inline]
    fn set_qk(&mut self, c: Color, row: u8) {
        let z = &tables().zob;
        if self.qk[c.index()] != NO_ROW {
            self.hash ^= z.piece(qk_code(c), Square(self.qk[c.index()] as u16 * 4));
        }
        self.qk[c.index()] = row;
        if row != NO_ROW {
            self.hash ^= z.piece(qk_code(c), Square(row as u16 * 4));
        }
    }

    fn compute_hash(&self) -> u64 {
        let z = &tables().zob;
        let mut h = 0;
        for (sq, &code) in self.board.iter().enumerate() {
            if code != 0 {
                h ^= z.piece(code, Square(sq as u16));
            }
        }
        for c in Color::ALL {
            if self.qk[c.index()] != NO_ROW {
                h ^= z.piece(qk_code(c), Square(self.qk[c.index()] as u16 * 4));
            }
        }
        if self.turn == Color::Black {
            h ^= z.side;
        }
        h
    }

    /// The cells `c`'s QK attacks: every cell of every row it could step to (A7).
    #[inline]
    fn qk_attacks(&self, c: Color) -> GatewayBb {
        let row = self.qk[c.index()];
        if row == NO_ROW {
            return GatewayBb::EMPTY;
        }
        let t = tables();
        let block = self.by_color[c.index()] | self.qk_cells(!c);
        let mut a = GatewayBb::EMPTY;
        for &n in &t.steps[row as usize] {
            let cells = t.rows[n as usize];
            if (cells & block).is_empty() {
                a |= cells;
            }
        }
        a
    }

    /// Whether a piece of `by` could capture on `sq` (if it held an ordinary enemy piece),
    /// given the blockers `occ`.
    fn attacked(&self, sq: Square, by: Color, occ: GatewayBb) -> bool {
        let t = tables();
        let at = &t.at;
        for &r in at.leap_capturing_roles(by) {
            if (at.leap_capturers_of(by, r, sq) & self.pieces(by, r.index())).any() {
                return true;
            }
        }
        let lines = &t.group_lines[by.index()];
        for (gi, g) in at.ride_groups(by).iter().enumerate() {
            let mut riders = GatewayBb::EMPTY;
            for r in &g.roles {
                riders |= self.pieces(by, r.index());
            }
            if (riders & lines[gi * NSQ + sq.index()]).is_empty() {
                continue;
            }
            for &slot in &g.reverse {
                if let Some(b) = at.first_blocker(slot, sq, occ) {
                    if riders.contains(b) {
                        return true;
                    }
                }
            }
        }
        let row = self.qk[by.index()];
        if row == NO_ROW {
            return false;
        }
        let (row, here) = (row as usize, sq.index() / FILES);
        if (row / RANKS).abs_diff(here / RANKS) > 1 || (row % RANKS).abs_diff(here % RANKS) > 1 {
            return false;
        }
        self.qk_attacks(by).contains(sq)
    }

    /// Whether `c`'s royal is in danger: a threatened QK cell or an attacked Emperor.
    fn royal_attacked(&self, c: Color) -> bool {
        let occ = self.occupied();
        if self.has_quantum_king(c) {
            self.qk_cells(c)
                .squares()
                .any(|s| self.attacked(s, !c, occ))
        } else {
            self.emperor(c).is_some_and(|e| self.attacked(e, !c, occ))
        }
    }

    /// Whether the move leaves the mover's royal safe (copy-make).
    #[inline]
    fn safe_after(&self, m: Move) -> bool {
        let mut p = *self;
        p.make(m);
        !p.royal_attacked(self.turn)
    }

    /// Every pseudo-legal normal move and QK step of the side to move for which `keep` holds.
    #[inline]
    fn pseudo<F: FnMut(Move) -> bool>(&self, out: &mut GatewayMoves, mut keep: F) {
        let t = tables();
        let at = &t.at;
        let us = self.turn;
        let occ = self.occupied();
        let blocked = self.by_color[us.index()] | self.all_qk();
        let enemy = self.by_color[(!us).index()];
        let last = if us == Color::White { RANKS - 1 } else { 0 };
        for from in self.pieces(us, PAWN).squares() {
            let r = Role(PAWN as u8);
            let targets =
                (at.leap_moves(us, r, from) & !occ) | (at.leap_captures(us, r, from) & enemy);
            for to in targets.squares() {
                if coords(to.index()).1 == last {
                    for role in 1..EMPEROR {
                        let m = Move::new(from, to, MoveKind::Promotion, Role(role as u8));
                        if keep(m) {
                            out.push(m);
                        }
                    }
                } else {
                    let m = Move::normal(from, to);
                    if keep(m) {
                        out.push(m);
                    }
                }
            }
        }
        for role in 1..NROLES {
            let r = Role(role as u8);
            for from in self.pieces(us, role).squares() {
                let mut targets = at.leap_moves(us, r, from);
                for &slot in at.rides(us, r) {
                    targets |= at.ride(slot, from, occ);
                }
                for to in (targets & !blocked).squares() {
                    let m = Move::normal(from, to);
                    if keep(m) {
                        out.push(m);
                    }
                }
            }
        }
        let row = self.qk[us.index()];
        if row != NO_ROW {
            let block = self.by_color[us.index()] | self.qk_cells(!us);
            for &n in &t.steps[row as usize] {
                if (t.rows[n as usize] & block).is_empty() {
                    let m = Move::new(
                        Square(row as u16 * 4),
                        Square(n as u16 * 4),
                        MoveKind::QuantumStep,
                        Role(0),
                    );
                    if keep(m) {
                        out.push(m);
                    }
                }
            }
        }
    }

    fn transformation(sq: Square) -> Move {
        Move::new(sq, sq, MoveKind::Transform, Role(EMPEROR as u8))
    }

    /// The pieces of `own` that alone stand between `x` and an enemy rider of `by` on one of
    /// its lines: moving one of them may expose `x`.
    fn pinned(&self, x: Square, by: Color, occ: GatewayBb, own: GatewayBb) -> GatewayBb {
        let t = tables();
        let at = &t.at;
        let lines = &t.group_lines[by.index()];
        let mut pinned = GatewayBb::EMPTY;
        for (gi, g) in at.ride_groups(by).iter().enumerate() {
            let mut riders = GatewayBb::EMPTY;
            for r in &g.roles {
                riders |= self.pieces(by, r.index());
            }
            if (riders & lines[gi * NSQ + x.index()]).is_empty() {
                continue;
            }
            for &slot in &g.reverse {
                if let Some(b1) = at.first_blocker(slot, x, occ) {
                    if own.contains(b1) {
                        // The ray from b1 continues the ray from x (walks are memoryless).
                        if let Some(b2) = at.first_blocker(slot, b1, occ) {
                            if riders.contains(b2) {
                                pinned.insert(b1);
                            }
                        }
                    }
                }
            }
        }
        pinned
    }

    /// Plays a move without the debug hash check.
    fn make(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from().index(), m.to().index());
        match m.kind() {
            MoveKind::QuantumStep => {
                let row = (to / FILES) as u8;
                let victims = tables().rows[row as usize] & self.by_color[them.index()];
                for s in victims.squares() {
                    self.take(s.index());
                }
                self.set_qk(us, row);
                self.halfmove = if victims.any() {
                    0
                } else {
                    self.halfmove.saturating_add(1)
                };
            }
            MoveKind::Transform => {
                self.set_qk(us, NO_ROW);
                self.put(to, us, EMPEROR);
                self.halfmove = 0;
            }
            MoveKind::Promotion => {
                self.take(from);
                self.take(to);
                self.put(to, us, m.role().index());
                self.halfmove = 0;
            }
            _ => {
                let p = Piece::from_code(self.board[from]);
                let role = p.map_or(PAWN, |p| p.role.index());
                let capture = self.board[to] != 0;
                self.take(from);
                self.take(to);
                self.put(to, us, role);
                self.halfmove = if capture || role == PAWN {
                    0
                } else {
                    self.halfmove.saturating_add(1)
                };
            }
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = them;
        self.hash ^= tables().zob.side;
    }
}

impl Game for Gateway {
    type Moves = GatewayMoves;

    super::kernel::game_fields! {
        start: Self::parse_compact(START),
        name: INFO.name,
        clock: halfmove,
    }
    super::kernel::notation_and_evaluation!();

    fn net_shape(&self) -> crate::nnue::NetShape {
        crate::nnue::NetShape {
            hand: 0,
            extras: NROWS,
        }
    }

    fn net_inputs<S: crate::nnue::InputSink>(&self, sink: &mut S) {
        self.report_inputs(sink)
    }

    fn legal_moves(&self, out: &mut Self::Moves) {
        let us = self.turn;
        let them = !us;
        let occ = self.occupied();
        if self.has_quantum_king(us) {
            let cells = self.qk_cells(us);
            let mut safe = GatewayBb::EMPTY;
            for c in cells.squares() {
                if !self.attacked(c, them, occ) {
                    safe.insert(c);
                }
            }
            if safe.is_empty() {
                return; // all four threatened: checkmate
            }
            if safe != cells {
                for c in safe.squares() {
                    out.push(Self::transformation(c));
                }
                return;
            }
            // Only a move of a pinned piece, a QK step, or a capture that may free a row for
            // the enemy QK can expose a QK cell: the cells were all safe before the move.
            let own = self.by_color[us.index()];
            let mut pinned = GatewayBb::EMPTY;
            for c in cells.squares() {
                pinned |= self.pinned(c, them, occ, own);
            }
            let enemy_qk = self.has_quantum_king(them);
            self.pseudo(out, |m| {
                if m.kind() != MoveKind::QuantumStep
                    && !pinned.contains(m.from())
                    && (!enemy_qk || self.board[m.to().index()] == 0)
                {
                    true
                } else {
                    self.safe_after(m)
                }
            });
            if out.is_empty() {
                for c in cells.squares() {
                    out.push(Self::transformation(c));
                }
            }
        } else {
            let Some(e) = self.emperor(us) else {
                return;
            };
            let check = self.attacked(e, them, occ);
            let pinned = if check {
                GatewayBb::EMPTY
            } else {
                self.pinned(e, them, occ, self.by_color[us.index()])
            };
            let enemy_qk = self.has_quantum_king(them);
            self.pseudo(out, |m| {
                if !check
                    && m.from() != e
                    && !pinned.contains(m.from())
                    && (!enemy_qk || self.board[m.to().index()] == 0)
                {
                    true
                } else {
                    self.safe_after(m)
                }
            });
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        self.make(m);
        debug_assert_eq!(self.hash, self.compute_hash());
    }

    /// A side with its QK is "in check" when any of its cells is threatened (it must then
    /// transform, or is checkmated when all four are); a side with its Emperor as usual.
    fn in_check(&self) -> bool {
        self.royal_attacked(self.turn)
    }

    /// Nothing but royals on both sides: no checkmate is possible any more.
    fn insufficient_material(&self) -> bool {
        (self.by_color[0] | self.by_color[1]) == self.by_role[EMPEROR]
    }

    /// Passing flips the side to move and its hash key (no en passant exists); the halfmove
    /// clock counts the pass as a ply. `None` while the mover's royal is threatened: a QK
    /// with a threatened cell must transform (or is mated), and an Emperor in check must
    /// escape.
    fn null_move(&self) -> Option<Self> {
        (!self.in_check()).then(|| super::kernel::passed!(self, tables().zob.side, halfmove))
    }

    /// Every role of [`ROLES`], then the Quantum King.
    /// The lowest cell's piece of `kind` taken off (not a royal piece). `None` where none
    /// stands, or where the side not to move would be left with its royal threatened.
    fn without_material(&self, color: Color, kind: usize) -> Option<Self> {
        if kind >= NROLES || kind == EMPEROR {
            return None;
        }
        let sq = self.pieces(color, kind).squares().next()?;
        let mut p = *self;
        p.take(sq.index());
        (!p.royal_attacked(!p.turn)).then_some(p)
    }

    fn material_kinds(&self) -> Vec<(&'static str, i32)> {
        crate::piece::material_kinds(&ROLES)
            .chain([("quantum king", 0)])
            .collect()
    }

    fn material(&self) -> Material {
        let mut m = [[0; MAX_KINDS]; 2];
        for c in Color::ALL {
            for (r, count) in m[c.index()].iter_mut().enumerate().take(NROLES) {
                *count = self.pieces(c, r).count() as u16;
            }
            m[c.index()][NROLES] = self.has_quantum_king(c) as u16;
        }
        m
    }

    fn is_tactical(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::QuantumStep => {
                (tables().rows[m.to().index() / FILES] & self.by_color[(!self.turn).index()]).any()
            }
            MoveKind::Transform => false,
            MoveKind::Promotion => true,
            _ => self.board[m.to().index()] != 0,
        }
    }

    /// The Quantum King's moves (to a row, or its transformation) are its kind's.
    fn moving_kind(&self, m: Move) -> Option<usize> {
        match m.kind() {
            MoveKind::QuantumStep | MoveKind::Transform => Some(NROLES),
            _ => Piece::from_code(self.board[m.from().index()]).map(|p| p.role.index()),
        }
    }

    /// A row capture of the Quantum King names no single victim.
    fn captured_kind(&self, m: Move) -> Option<usize> {
        match m.kind() {
            MoveKind::QuantumStep | MoveKind::Transform => None,
            _ => Piece::from_code(self.board[m.to().index()]).map(|p| p.role.index()),
        }
    }

    fn eval_cells(&self) -> usize {
        NSQ
    }
    /// Both Emperors' cells, once both sides have transformed: a Quantum King, spread over a
    /// row and bound to its camp, is neither driven to an edge nor brought near.
    fn royal_cells(&self) -> Option<crate::game::RoyalCells> {
        let at = |c: Color| {
            self.emperor(c).map(|e| {
                let (f, rank, l) = coords(e.index());
                (f as i16, rank as i16, l as i16)
            })
        };
        Some(crate::game::RoyalCells {
            cells: [at(Color::White)?, at(Color::Black)?],
            dims: (FILES as i16, RANKS as i16, LEVELS as i16),
        })
    }

    /// The passed-pawn table has one entry per rank.
    fn pawn_ranks(&self) -> usize {
        RANKS
    }

    fn positional(&self) -> i32 {
        self.positional_terms()
    }
}

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
//! # Position text
//!
//! `<v>|<w>|<x>|<y>|<z> <side> [<halfmove> <fullmove>]`:
//!
//! * five levels from `v` (top) to `z` (bottom), separated by `|`; each level lists ranks 10
//!   down to 1 separated by `/`; each rank lists its cells from file `a` to `d`, **skipping the
//!   missing cells**, so ranks 3 and 8 hold only files `b` and `c` (two cells);
//! * a piece is its letter, upper case for White: `P` Pawn, `R` Rook, `B` Bishop, `U` Unicorn,
//!   `Q` Queen, `D` Duchess, `G` Governor, `N` Knight, `S` Sexton, `J` Ninja, `C`
//!   Churchwarden, `M` Samurai, `O` Oberon, `E` Emperor, `K` a cell of the Quantum King (all
//!   four cells of its row are written `K`); a digit `1`–`4` is a run of empty cells;
//! * `side` is `w` or `b`; the halfmove clock and fullmove number default to `0` and `1`.
//!
//! The start position is [`START`]. [`Gateway::from_text`](crate::Game::from_text) also reads
//! the rules file's piece-list form, `W: Kx1, Bwa4. B: Ezb10. White to move.` (`K` + level +
//! rank for a Quantum King; Extreme 2D's headers `White:` and `Black:` are read too). Its
//! three sentences are labelled, so they are read in any order
//! (`B: Ezb10. W: Kx1. White to move.` too; the full stop may be left out after the last one),
//! each exactly once, and so are the pieces of a list; the compact form is positional and has
//! nothing unordered. Output is always the compact form, and it round-trips exactly.
//! Impossible positions are refused with [`PositionError::Setup`]: a side without exactly one
//! royal (one QK row or one Emperor), `K` cells that do not fill exactly one row, a Pawn on its
//! own promotion rank, more than 10 Pawns or 46 non-royal pieces on a side, or the side not to
//! move having a threatened QK cell or an attacked Emperor.
//!
//! # Move text
//!
//! * moves and captures: origin and destination cell, `xb3xb4`, `wb2vc4`;
//! * promotion: the move followed by the new piece's lower-case letter, `xc9xc10q`;
//! * Quantum King step: `K>` and the destination row (level letter and rank), `K>y2`;
//! * transformation: `T@` and the Emperor's cell, `T@xb1`.

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

/// The name of a Quantum King's row (level letter and rank, `x1`).
fn row_name(row: usize) -> String {
    topology().row_name((row % RANKS) as i16, (row / RANKS) as i16)
}

fn role_of_letter(c: char) -> Option<usize> {
    crate::piece::index_of_letter(&ROLES, c)
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
    fn report_pawn_terms<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
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

    /// Parses the compact position text.
    fn parse_compact(text: &str) -> Result<Gateway, PositionError> {
        const NAMES: [&str; 4] = ["board", "side", "halfmove", "fullmove"];
        let fields = FORMAT.fields(text, &NAMES)?;
        let end = text.chars().count() + 1;
        match fields.len() {
            1 => return Err(PositionError::syntax("side", end, "missing side to move")),
            3 => {
                return Err(PositionError::syntax(
                    "fullmove",
                    end,
                    "missing fullmove number",
                ))
            }
            n if n > 4 => {
                return Err(PositionError::syntax(
                    "end",
                    fields[4].0,
                    "unexpected text after the fullmove number",
                ))
            }
            _ => {}
        }
        let mut p = Gateway::empty(Color::White);
        let mut qk_cells = [GatewayBb::EMPTY; 2];
        // A piece letter, or `K`/`k` for a cell of a Quantum King (`None`).
        let cells = FORMAT.read_board(fields[0], topology(), |chars, _| {
            let c = chars[0];
            if c.eq_ignore_ascii_case(&'k') {
                return Ok(((Color::of_case(c), None), 1));
            }
            crate::piece::read_letter(&ROLES, c)
                .map(|(color, role)| ((color, Some(role)), 1))
                .ok_or_else(|| Bad::At(0, format!("unexpected character {c:?}")))
        })?;
        for (sq, (color, role)) in cells {
            match role {
                Some(role) => p.put(sq.index(), color, role),
                None => qk_cells[color.index()].insert(sq),
            }
        }
        p.turn = FORMAT.read_side(fields[1])?;
        if fields.len() == 4 {
            let counter = Counter {
                plus: false,
                max_digits: 9,
                max: u32::MAX,
            };
            p.halfmove = counter.read(fields[2], NAMES[2], 0)?;
            p.fullmove = counter.read(fields[3], NAMES[3], 1)?;
        }
        for c in Color::ALL {
            let cells = qk_cells[c.index()];
            if cells.is_empty() {
                continue;
            }
            let row = cells.lsb().map_or(0, |s| s.index() / FILES);
            if tables().rows[row] != cells {
                return Err(PositionError::Setup(format!(
                    "the {} Quantum King cells do not fill exactly one row",
                    c.name()
                )));
            }
            p.set_qk(c, row as u8);
        }
        p.finish()
    }

    /// Parses the rules file's piece-list form: the `W:` list, the `B:` list and the side to
    /// move in any order, each exactly once, and the pieces of a list in any order.
    /// Parenthesised remarks, as in "W: Kx1 (no other White piece).", are ignored.
    fn parse_list(text: &str) -> Result<Gateway, PositionError> {
        let list = text::read_piece_list(text, Punctuation::Strict)?;
        let mut p = Gateway::empty(list.turn);
        let err = |col: usize, msg: String| PositionError::syntax("pieces", col, msg);
        for (c, col, item) in list.items {
            let letter = item.chars().next().unwrap_or(' ');
            let rest = &item[letter.len_utf8()..];
            if letter == 'K' {
                let row = topology()
                    .parse_row(rest)
                    .map(|(rank, level)| level as usize * RANKS + rank as usize)
                    .filter(|&row| tables().rows[row].any())
                    .ok_or_else(|| err(col + 1, format!("bad Quantum King row {rest:?}")))?;
                if p.has_quantum_king(c) {
                    return Err(err(col, "two Quantum Kings".into()));
                }
                p.set_qk(c, row as u8);
            } else {
                let role = role_of_letter(letter)
                    .filter(|_| letter.is_ascii_uppercase())
                    .ok_or_else(|| err(col, format!("unknown piece letter {letter:?}")))?;
                let sq = topology()
                    .parse_name(rest)
                    .filter(|&s| topology().exists(s))
                    .map(Square::index)
                    .ok_or_else(|| err(col + 1, format!("bad cell {rest:?}")))?;
                if p.board[sq] != 0 {
                    return Err(err(col + 1, format!("two pieces on {rest}")));
                }
                p.put(sq, c, role);
            }
        }
        for c in Color::ALL {
            if p.qk_cells(c) & p.by_color[0] | p.qk_cells(c) & p.by_color[1] != GatewayBb::EMPTY {
                return Err(PositionError::Setup(format!(
                    "a piece stands on the {} Quantum King's row",
                    c.name()
                )));
            }
        }
        if (p.qk_cells(Color::White) & p.qk_cells(Color::Black)).any() {
            return Err(PositionError::Setup("the Quantum Kings overlap".into()));
        }
        p.finish()
    }

    /// Checks the whole position and sets the hash.
    fn finish(mut self) -> Result<Gateway, PositionError> {
        for c in Color::ALL {
            let emperors = self.pieces(c, EMPEROR).count();
            let royals = emperors + self.has_quantum_king(c) as u32;
            if royals != 1 {
                return Err(PositionError::Setup(format!(
                    "{} must have exactly one royal (a Quantum King or an Emperor), has {royals}",
                    c.name()
                )));
            }
            let pawns = self.pieces(c, PAWN);
            if pawns.count() > 10 {
                return Err(PositionError::Setup(format!(
                    "{} has more than 10 Pawns",
                    c.name()
                )));
            }
            if self.by_color[c.index()].count() - emperors > 46 {
                return Err(PositionError::Setup(format!(
                    "{} has more than 46 non-royal pieces",
                    c.name()
                )));
            }
            let last = if c == Color::White { RANKS - 1 } else { 0 };
            if let Some(s) = pawns.squares().find(|s| coords(s.index()).1 == last) {
                return Err(PositionError::Setup(format!(
                    "unpromoted Pawn on {}",
                    topology().square_name(s)
                )));
            }
        }
        self.hash = self.compute_hash();
        if self.royal_attacked(!self.turn) {
            return Err(PositionError::Setup(format!(
                "{}, not to move, has its royal under attack",
                (!self.turn).name()
            )));
        }
        Ok(self)
    }
}

impl Game for Gateway {
    type Moves = GatewayMoves;

    super::kernel::game_fields! {
        start: Self::parse_compact(START),
        name: INFO.name,
        clock: halfmove,
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        if text::is_piece_list(text) {
            Self::parse_list(text)
        } else {
            Self::parse_compact(text)
        }
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

    fn tactical_order(&self, m: Move, values: &[i32]) -> i32 {
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

    /// The swap algorithm on the shared attack tables, as in the chess family: attackers
    /// recomputed with each capturer's cell emptied (x-rays), Quantum King cells blocking
    /// rides, pins ignored, the Emperor recapturing only onto an unattacked cell. A promotion
    /// adds its gain. The Quantum King's row captures are not counted as recaptures, and its
    /// own moves (a step to a row, a transformation) answer `None`.
    fn see(&self, m: Move, values: &[i32]) -> Option<i32> {
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
    /// Every piece on its cell (the Quantum King, spread over a row, has none); mobility per
    /// kind; attacks on the enemy royal zone (its Quantum King's cells and the rows it could
    /// step to, or its Emperor's neighbours: four threatened row cells are mate); threatened
    /// pieces, as the chess family counts them (the Quantum King attacks and defends, but is
    /// never the cheaper attacker); pawn structure by columns (`Gateway::report_pawn_terms`).
    fn eval_features<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
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

    /// The passed-pawn table has one entry per rank.
    fn pawn_ranks(&self) -> usize {
        RANKS
    }

    /// Two cheap terms, White minus Black, from the mover's view: 4 centipawns per rank a
    /// Pawn has advanced, and 6 per non-royal piece standing in the open field (ranks 4–7)
    /// or beyond its own gateway.
    fn positional(&self) -> i32 {
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

    fn diagram(&self) -> crate::diagram::Diagram {
        let topo = &tables().topo;
        let mut d = crate::diagram::Diagram::board(
            topo,
            1.0,
            |l| {
                let name = ((b'v' + l as u8) as char).to_string();
                match l {
                    0 => name + " (top)",
                    l if l == LEVELS - 1 => name + " (bottom)",
                    _ => name,
                }
            },
            |_| None,
            |sq| {
                if let Some(p) = Piece::from_code(self.board[sq.index()]) {
                    return Some(crate::diagram::Occupant::piece(
                        p.color,
                        ROLES[p.role.index()].letter.to_string(),
                    ));
                }
                // The Quantum King fills its whole row: each of its four cells says so.
                Color::ALL
                    .into_iter()
                    .find(|&c| self.qk_cells(c).contains(sq))
                    .map(|c| crate::diagram::Occupant::piece(c, "QK"))
            },
        );
        d.legend.push((
            "#666",
            "gateway hole: files a and d of ranks 3 and 8".to_string(),
        ));
        d
    }
    fn to_text(&self) -> String {
        let mut s = text::write_board(topology(), None, |sq, s| {
            let ch = if let Some(p) = Piece::from_code(self.board[sq.index()]) {
                p.color.cased(ROLES[p.role.index()].letter)
            } else if self.qk_cells(Color::White).contains(sq) {
                'K'
            } else if self.qk_cells(Color::Black).contains(sq) {
                'k'
            } else {
                return false;
            };
            s.push(ch);
            true
        });
        s.push(' ');
        s.push(self.turn.char());
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        s
    }

    fn move_text(&self, m: Move) -> String {
        match m.kind() {
            MoveKind::QuantumStep => format!("K>{}", row_name(m.to().index() / FILES)),
            MoveKind::Transform => format!("T@{}", topology().square_name(m.to())),
            MoveKind::Promotion => {
                let letter = ROLES[m.role().index() % NROLES].letter;
                move_name(topology(), m) + &letter.to_ascii_lowercase().to_string()
            }
            _ => move_name(topology(), m),
        }
    }
}

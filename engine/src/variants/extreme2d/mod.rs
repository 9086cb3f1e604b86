//! Extreme 2D Chess (Larry L. Smith, 2008): `docs/rules/` (from the specification
//! `shared/rules/extreme-2d-chess.md`).
//!
//! # Rules in brief
//!
//! A 10x10 board (files `a`–`j`, ranks `1`–`10`). Every occupied cell holds one **stack**: an
//! ownership disc on top (plain, Heir or King) and up to two power discs of each colour beneath
//! it: red (Rook slide; two reds: orthogonal *area* moves), blue (Bishop slide; two blues:
//! diagonal area moves), yellow (Knight leap; two yellows: Nightrider). A plain disc without
//! powers is a Pawn (one step forward, which also captures); a King or Heir adds a one-step
//! move in all eight directions. A stack's moves are the union of its components. A capturer
//! absorbs the victim's power discs (capped at two per colour), keeps its own role, and a
//! captured Heir goes to its owner's reserve. A Pawn's non-capturing step onto the last rank
//! is legal only while its owner's Heir is in reserve and then promotes to that Heir. When the
//! King is in check and the Heir is on the board, the King and Heir discs may swap cells. Each
//! side's first turn is placing its King and Heir on the empty c/h cells of its first rank.
//! Legal = the own King is not attacked afterwards. Checkmate wins; stalemate, the 100-ply
//! rule, threefold repetition and two bare power-less Kings draw.
//!
//! The decisions of the rules file are used as written; each is marked `[Xn]` where it is
//! implemented: i9 for Black's fourth yellow \[X1\], placement of both royals as the whole first
//! turn \[X2\], the Pawn's forward capture \[X3\], promotion \[X4\], absorption and caps \[X5\], the
//! swap only in check \[X6\], area moves with capture on the destination and diagonal areas
//! entirely on the board \[X7\], doubled discs extending single ones \[X8\], the yellow leap as a
//! Knight \[X9\], two yellows as a Nightrider \[X10\], the captured Heir going to the reserve
//! \[X11\], no castling / en passant / double step \[X12\], the draw rules \[X13\]. The inventor's
//! suggestion for first games, only the simple powers with one disc of each colour per stack
//! \[X14\], is the sibling variant `extreme-2d-simple` (\[V\]: [`Extreme2dSimple`], the cap a
//! const parameter, so the full form pays nothing for it).
//!
//! Decisions of this file (not in the rules file): the text format and move texts (in the
//! `notation` module); a position text is refused when it could not arise (same place); placement
//! and Heir-reserve status follow from the board, so the Zobrist key of the board, plus the side to
//! move, covers everything the repetition rule compares; placements count as tactical moves (they
//! are drops); the dead position of \[X13\] is reported as insufficient material.
//!
//! ```
//! use variantlab_engine::{perft::perft, variants::extreme2d::Extreme2d, Game};
//! let start = Extreme2d::start();
//! assert_eq!(perft(&start, 3), 128);
//! let p = Extreme2d::from_text("White: Ka1, (rr)h8. Black: Kj10. Black to move.").unwrap();
//! assert!(p.in_check());
//! ```

use super::text::{self, Bad, Counter, Format, Punctuation, Runs, Spacing};
use crate::bitboard::Bb128;
use crate::error::PositionError;
use crate::game::{Game, Material, MAX_KINDS};
use crate::geometry::Topology;
use crate::moves::{Move, MoveKind};
use crate::piece::PieceSpec;
use crate::see::{swap_with_gains, ROYAL};
use crate::zobrist::SplitMix64;
use crate::{Color, Role, Square};
use arrayvec::ArrayVec;
use std::sync::OnceLock;

mod evaluation;
mod notation;

use notation::owner_letter;

/// Number of cells.
const N: usize = 100;
/// Board width and height.
const W: usize = 10;

// A stack is a `u16`: bits 0–1 red discs, 2–3 blue, 4–5 yellow, 6–7 role (plain, Heir,
// King), bit 8 owner (0 White), bit 9 set on every stack (0 = empty cell).
const PRESENT: u16 = 1 << 9;
const ROLE_SHIFT: u16 = 6;
const OWNER_SHIFT: u16 = 8;
const PLAIN: u16 = 0;
const HEIR: u16 = 1;
const KING: u16 = 2;
const POWERS: u16 = 0x3f;
const NO_SQ: u8 = 255;

#[inline]
fn stack(owner: usize, role: u16, r: u16, b: u16, y: u16) -> u16 {
    PRESENT | (owner as u16) << OWNER_SHIFT | role << ROLE_SHIFT | y << 4 | b << 2 | r
}
#[inline]
fn owner(s: u16) -> usize {
    ((s >> OWNER_SHIFT) & 1) as usize
}
#[inline]
fn role(s: u16) -> u16 {
    (s >> ROLE_SHIFT) & 3
}
#[inline]
fn reds(s: u16) -> u16 {
    s & 3
}
#[inline]
fn blues(s: u16) -> u16 {
    (s >> 2) & 3
}
#[inline]
fn yellows(s: u16) -> u16 {
    (s >> 4) & 3
}
#[inline]
fn is_pawn(s: u16) -> bool {
    s & PRESENT != 0 && role(s) == PLAIN && s & POWERS == 0
}
/// What stack `s` counts of each material kind, in the order of `material_kinds`: a Pawn,
/// its red, blue and yellow discs, an Heir, a King (its material, and what a threat to it
/// threatens).
#[inline]
fn kind_counts(s: u16) -> [u16; 6] {
    [
        u16::from(is_pawn(s)),
        reds(s),
        blues(s),
        yellows(s),
        u16::from(role(s) == HEIR),
        u16::from(role(s) == KING),
    ]
}

/// Stack `s` after it captures `victim` \[X5\]: it keeps its top disc and takes the victim's
/// power discs, capped at `cap` per colour (two; one in the beginners' form \[X14\]): the
/// surplus leaves the game.
#[inline]
fn absorb(s: u16, victim: u16, cap: u16) -> u16 {
    let r = (reds(s) + reds(victim)).min(cap);
    let b = (blues(s) + blues(victim)).min(cap);
    let y = (yellows(s) + yellows(victim)).min(cap);
    (s & !POWERS) | y << 4 | b << 2 | r
}

/// The material kinds: one per disc (a stack's value is the sum of its discs'), the ownership
/// discs counted apart (a plain disc without powers is a Pawn); letters as in the position
/// text (power discs lower case there). A stack's moves are the union of its discs' (the
/// variant's own code), so the table gives no Betza.
const KINDS: [PieceSpec; 6] = [
    PieceSpec::new("pawn", 'P', "", 100),
    PieceSpec::new("red", 'R', "", 450),
    PieceSpec::new("blue", 'B', "", 300),
    PieceSpec::new("yellow", 'Y', "", 280),
    PieceSpec::new("heir", 'H', "", 200),
    PieceSpec::new("king", 'K', "", 0).royal(),
];
/// The Heir's kind in [`KINDS`].
const HEIR_KIND: usize = 4;
const _: () = assert!(KINDS[HEIR_KIND].letter == 'H');
/// Their default values: [`Game::material_kinds`], and the worth of a stack in the
/// evaluation's threats (which weigh attacker against victim, whatever the weights).
const DEFAULT_VALUES: [i32; 6] = crate::piece::values(&KINDS);

/// The cells of the board.
const BOARD: u128 = (1 << N) - 1;

// A Pawn is the cheapest stack: no stack is a cheaper attacker of it, and it is a cheaper
// attacker of any other (every other stack but the King holds a power disc or the Heir's).
const _: () = assert!(
    DEFAULT_VALUES[0] < DEFAULT_VALUES[1]
        && DEFAULT_VALUES[0] < DEFAULT_VALUES[2]
        && DEFAULT_VALUES[0] < DEFAULT_VALUES[3]
        && DEFAULT_VALUES[0] < DEFAULT_VALUES[4]
);

/// What one side attacks, for the evaluation's threats ([`Extreme2d::report_threats`]).
#[derive(Default)]
struct Attacks {
    /// Every cell the side attacks, its own stacks' cells included (it defends them).
    all: u128,
    /// The cells its Pawns attack.
    pawns: u128,
    /// Its stacks other than Pawns and the King that attack an enemy stack, each with the
    /// cells it attacks: at most 23 (22 plain discs and the Heir; see [`Extreme2dMoves`]).
    pieces: ArrayVec<(u16, u128), 23>,
}

/// What `variantlab variants` reports.
pub const INFO: super::VariantInfo = super::VariantInfo {
    name: super::VariantKind::Extreme2d.const_name(),
    title: "Extreme 2D Chess",
    rules_file: "docs/rules/extreme-2d.md",
    dims: (10, 10, 1),
    cells: 100,
    notes: NOTES,
    many_moves: false,
    max_plies: super::DEFAULT_MAX_PLIES,
};

/// What `variantlab variants` says about the simple-powers form: the full form's but for its
/// name and title.
pub const INFO_SIMPLE: super::VariantInfo = super::VariantInfo {
    name: super::VariantKind::Extreme2dSimple.const_name(),
    title: "Extreme 2D (simple powers)",
    ..INFO
};

const NOTES: &[&str] = &[
    "[D] setup: Black's fourth yellow disc on i9, not j9 (the spec's decided reading of the diagram slip)",
    "[D] draws: stalemate, 100 plies without capture, Pawn step or placement, threefold repetition, two bare power-less Kings",
    "[D] first turn: each side places King and Heir on its two empty first-rank cells (c and h)",
    "[V] simple powers (extreme-2d-simple, the inventor's first games): one disc of each colour per stack, a second one captured leaves the game, so no area moves and no Nightrider (X14)",
];

/// The move list: every move is a distinct (origin, destination) pair (a promotion replaces
/// the plain step, it never adds to it). A side has at most 24 stacks (22 plain discs, King,
/// Heir; `from_text` enforces it) and each can go only to cells not holding its own stacks, so
/// `n * (100 - n) <= 24 * 76 = 1824` for `n <= 24` stacks, plus one swap; the two placements
/// happen only on a turn with no other move. Hence 1825.
pub type Extreme2dMoves = ArrayVec<Move, 1825>;

/// Precomputed tables: steps, leaps, reach sets and the interior masks of every area move.
struct Tables {
    king: [u128; N],
    knight: [u128; N],
    /// Cells on the same rank or file: the one-red reach.
    rook_lines: [u128; N],
    /// Every other cell: the two-red reach (every rectangle lies on the board).
    all_other: [u128; N],
    /// Cells on the same diagonal: the one-blue reach.
    bishop_lines: [u128; N],
    /// Destinations of a diagonal area whose area lies on the board: the two-blue reach.
    diag_reach: [u128; N],
    /// Landing cells of the eight Nightrider lines: the two-yellow reach.
    night_lines: [u128; N],
    /// `ortho[o * 100 + d]`: the rectangle with corners `o`, `d`, minus both. Symmetric.
    ortho: Vec<u128>,
    /// `diag[o * 100 + d]`: the 45°-rotated area minus both corners (where reachable).
    diag: Vec<u128>,
    /// `night[o * 100 + d]`: the landing cells strictly between `o` and `d` on a Nightrider
    /// line.
    night: Vec<u128>,
    /// Zobrist keys per (stack code & 0x1ff, cell).
    zobrist: Vec<u64>,
    /// XORed in when Black is to move.
    side: u64,
}

const KNIGHT_VECTORS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

#[inline]
fn at(x: i32, y: i32) -> Option<usize> {
    ((0..10).contains(&x) && (0..10).contains(&y)).then_some((y * 10 + x) as usize)
}

#[inline]
fn xy(sq: usize) -> (i32, i32) {
    ((sq % W) as i32, (sq / W) as i32)
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    let mut t = Tables {
        king: [0; N],
        knight: [0; N],
        rook_lines: [0; N],
        all_other: [0; N],
        bishop_lines: [0; N],
        diag_reach: [0; N],
        night_lines: [0; N],
        ortho: vec![0; N * N],
        diag: vec![0; N * N],
        night: vec![0; N * N],
        zobrist: Vec::with_capacity(512 * N),
        side: 0,
    };
    for o in 0..N {
        let (x0, y0) = xy(o);
        for d in 0..N {
            if d == o {
                continue;
            }
            let (x1, y1) = xy(d);
            let (dx, dy) = (x1 - x0, y1 - y0);
            let bit = 1u128 << d;
            if dx.abs() <= 1 && dy.abs() <= 1 {
                t.king[o] |= bit;
            }
            if dx.abs() * dy.abs() == 2 {
                t.knight[o] |= bit;
            }
            if dx == 0 || dy == 0 {
                t.rook_lines[o] |= bit;
            }
            if dx.abs() == dy.abs() {
                t.bishop_lines[o] |= bit;
            }
            t.all_other[o] |= bit;
            // Orthogonal area [X7]: the rectangle with opposite corners o and d.
            let mut m = 0u128;
            for x in x0.min(x1)..=x0.max(x1) {
                for y in y0.min(y1)..=y0.max(y1) {
                    if let Some(c) = at(x, y) {
                        m |= 1 << c;
                    }
                }
            }
            t.ortho[o * N + d] = m & !(1 << o) & !bit;
            // Diagonal area [X7]: o + i*u + j*w; every cell must be on the board (d).
            if (dx + dy) % 2 == 0 {
                let (p, q) = ((dx + dy) / 2, (dx - dy) / 2);
                let (u, w) = ((p.signum(), p.signum()), (q.signum(), -q.signum()));
                let mut m = 0u128;
                let mut on_board = true;
                for i in 0..=p.abs() {
                    for j in 0..=q.abs() {
                        match at(x0 + i * u.0 + j * w.0, y0 + i * u.1 + j * w.1) {
                            Some(c) => m |= 1 << c,
                            None => on_board = false,
                        }
                    }
                }
                if on_board {
                    t.diag_reach[o] |= bit;
                    t.diag[o * N + d] = m & !(1 << o) & !bit;
                }
            }
        }
        // Nightrider lines [X10]: the landing cells between matter, jumped cells never do.
        for &(vx, vy) in &KNIGHT_VECTORS {
            let mut between = 0u128;
            let mut k = 1;
            while let Some(c) = at(x0 + k * vx, y0 + k * vy) {
                t.night_lines[o] |= 1 << c;
                t.night[o * N + c] = between;
                between |= 1 << c;
                k += 1;
            }
        }
    }
    let mut rng = SplitMix64(0x0e27_2d0c_4e55_2008);
    for _ in 0..512 * N {
        t.zobrist.push(rng.next());
    }
    t.side = rng.next();
    t
}

/// The cells of `cand` reachable from the area mover's origin: those whose interior mask
/// (`masks[d]`) holds no occupied cell.
#[inline]
fn area_targets(mut cand: u128, masks: &[u128], occ: u128) -> u128 {
    let mut out = 0;
    while cand != 0 {
        let d = cand.trailing_zeros() as usize;
        cand &= cand - 1;
        if masks[d] & occ == 0 {
            out |= 1 << d;
        }
    }
    out
}

/// An Extreme 2D Chess position: a stack per cell plus per-side, per-disc bitboards kept in
/// step with the cells; heap-free and `Copy`. `SIMPLE` selects the simple-powers form \[X14\].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Extreme2dPos<const SIMPLE: bool> {
    cells: [u16; N],
    occ: [Bb128; 2],
    /// Plain discs without powers.
    pawns: [Bb128; 2],
    /// Kings and Heirs (royal step).
    royals: [Bb128; 2],
    heirs: [Bb128; 2],
    /// At least one red disc.
    red1: [Bb128; 2],
    /// Two red discs.
    red2: [Bb128; 2],
    blue1: [Bb128; 2],
    blue2: [Bb128; 2],
    yellow1: [Bb128; 2],
    yellow2: [Bb128; 2],
    king_sq: [u8; 2],
    turn: Color,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
}

/// Extreme 2D Chess with its full rules.
pub type Extreme2d = Extreme2dPos<false>;

/// Extreme 2D Chess in the form its inventor suggests for first games \[X14\]: only the
/// simple powers, one disc of each colour in a stack (a second one captured leaves the game),
/// so no area moves and no Nightrider.
pub type Extreme2dSimple = Extreme2dPos<true>;

/// The 10x10 board, for cell names and the board text.
fn topology() -> &'static Topology {
    static TOPO: OnceLock<Topology> = OnceLock::new();
    TOPO.get_or_init(|| Topology::rect(W as u8, W as u8))
}

/// Name of a cell, `a1` … `j10`.
fn name(sq: usize) -> String {
    topology().square_name(Square(sq as u16))
}

/// Parses a cell name, `a1` … `j10` (no leading zero).
fn parse_cell(s: &str) -> Option<usize> {
    topology().parse_name(s).map(Square::index)
}

const START: &str = "[pr][pb]1[pb][pr][pr][pb]1[pb][pr]/1[py]1[py]2[py]1[py]1/pppppppppp/10/10/10/10/PPPPPPPPPP/1[Py]1[Py]2[Py]1[Py]1/[Pr][Pb]1[Pb][Pr][Pr][Pb]1[Pb][Pr] w 0 1";

/// The compact text's spacing, runs and error words.
const FORMAT: Format = Format {
    spacing: Spacing::Whitespace,
    runs: Runs::Number(2),
    too_long: "rank too long",
    side: "side to move must be w or b",
};

impl<const SIMPLE: bool> Extreme2dPos<SIMPLE> {
    /// The most discs of one colour a stack holds: two, or one in the beginners' form
    /// \[X14\].
    const CAP: u16 = if SIMPLE { 1 } else { 2 };

    fn empty() -> Self {
        Self {
            cells: [0; N],
            occ: [Bb128(0); 2],
            pawns: [Bb128(0); 2],
            royals: [Bb128(0); 2],
            heirs: [Bb128(0); 2],
            red1: [Bb128(0); 2],
            red2: [Bb128(0); 2],
            blue1: [Bb128(0); 2],
            blue2: [Bb128(0); 2],
            yellow1: [Bb128(0); 2],
            yellow2: [Bb128(0); 2],
            king_sq: [NO_SQ; 2],
            turn: Color::White,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    /// XORs stack `s` on `sq` into the bitboards and the hash (adds or removes it).
    #[inline]
    fn toggle(&mut self, sq: usize, s: u16) {
        let bit = 1u128 << sq;
        let c = owner(s);
        self.occ[c].0 ^= bit;
        let (ro, r, b, y) = (role(s), reds(s), blues(s), yellows(s));
        if is_pawn(s) {
            self.pawns[c].0 ^= bit;
        }
        if ro != PLAIN {
            self.royals[c].0 ^= bit;
        }
        if ro == HEIR {
            self.heirs[c].0 ^= bit;
        }
        if ro == KING {
            self.king_sq[c] = sq as u8;
        }
        if r >= 1 {
            self.red1[c].0 ^= bit;
        }
        if r == 2 {
            self.red2[c].0 ^= bit;
        }
        if b >= 1 {
            self.blue1[c].0 ^= bit;
        }
        if b == 2 {
            self.blue2[c].0 ^= bit;
        }
        if y >= 1 {
            self.yellow1[c].0 ^= bit;
        }
        if y == 2 {
            self.yellow2[c].0 ^= bit;
        }
        self.hash ^= tables().zobrist[(s & 0x1ff) as usize * N + sq];
    }

    #[inline]
    fn put(&mut self, sq: usize, s: u16) {
        debug_assert_eq!(self.cells[sq], 0);
        self.cells[sq] = s;
        self.toggle(sq, s);
    }

    #[inline]
    fn take(&mut self, sq: usize) -> u16 {
        let s = self.cells[sq];
        self.cells[sq] = 0;
        self.toggle(sq, s);
        s
    }

    /// The hash recomputed from scratch (placement and reserve status follow from the board).
    fn compute_hash(&self) -> u64 {
        let t = tables();
        let mut h = if self.turn == Color::Black { t.side } else { 0 };
        for (sq, &s) in self.cells.iter().enumerate() {
            if s != 0 {
                h ^= t.zobrist[(s & 0x1ff) as usize * N + sq];
            }
        }
        h
    }

    /// Whether side `c` has placed its King and Heir (a King is never captured).
    #[inline]
    fn placed(&self, c: usize) -> bool {
        self.king_sq[c] != NO_SQ
    }

    /// Whether side `c`'s Heir is in its reserve (placed, but not on the board) \[X11\].
    #[inline]
    fn heir_in_reserve(&self, c: usize) -> bool {
        self.placed(c) && self.heirs[c].0 == 0
    }

    /// The stack on a cell (`None` if empty), as `(white, role letter, reds, blues, yellows)`
    /// for tests and tools: role letter `P`, `H` or `K`.
    pub fn stack_at(&self, cell: &str) -> Option<(bool, char, u8, u8, u8)> {
        let sq = parse_cell(cell)?;
        let s = self.cells[sq];
        (s != 0).then(|| {
            (
                owner(s) == 0,
                owner_letter(s).to_ascii_uppercase(),
                reds(s) as u8,
                blues(s) as u8,
                yellows(s) as u8,
            )
        })
    }

    /// Whether side `c`'s Heir is in its reserve (the side has placed and its Heir is not on
    /// the board).
    pub fn heir_reserved(&self, c: Color) -> bool {
        self.heir_in_reserve(c.index())
    }

    /// Whether cell `sq` is attacked by side `by`, with `occ` as the occupancy and the stacks
    /// of `by` on `excl` ignored (a stack just captured).
    #[inline]
    fn attacked(&self, sq: usize, by: usize, occ: u128, excl: u128) -> bool {
        self.attackers_within::<true>(sq, by, occ, excl) != 0
    }

    /// The stacks of `by` (those on `excl` ignored) that attack `sq`, `occ` blocking the
    /// rides and areas: the set the static exchange takes its recaptures from. With `ANY`
    /// it stops at the first one found (the legality test asks only whether there is one).
    #[inline]
    fn attackers_within<const ANY: bool>(
        &self,
        sq: usize,
        by: usize,
        occ: u128,
        excl: u128,
    ) -> u128 {
        let t = tables();
        // A stack never attacks its own cell (a two-red stack's empty area to itself).
        let keep = !excl & !(1u128 << sq);
        // Pawns attack the cell straight in front [X3].
        let pawns = self.pawns[by].0 & keep;
        let front = if by == 0 {
            if sq >= W {
                pawns & 1 << (sq - W)
            } else {
                0
            }
        } else if sq + W < N {
            pawns & 1 << (sq + W)
        } else {
            0
        };
        let mut found = front
            | t.king[sq] & self.royals[by].0 & keep
            | t.knight[sq] & self.yellow1[by].0 & keep;
        if ANY && found != 0 {
            return found;
        }
        let row = sq * N;
        // Area masks are symmetric: the mask of (sq, s) is that of (s, sq).
        let rides = [
            (t.rook_lines[sq] & self.red1[by].0) | self.red2[by].0,
            (t.bishop_lines[sq] & self.blue1[by].0) | (t.diag_reach[sq] & self.blue2[by].0),
            t.night_lines[sq] & self.yellow2[by].0,
        ];
        for (masks, cand) in [&t.ortho, &t.diag, &t.night].into_iter().zip(rides) {
            let mut cand = cand & keep & !found;
            while cand != 0 {
                let s = cand.trailing_zeros() as usize;
                cand &= cand - 1;
                if masks[row + s] & occ == 0 {
                    found |= 1 << s;
                    if ANY {
                        return found;
                    }
                }
            }
        }
        found
    }

    /// The union of the interior masks between `sq` and every stack of `by` that could attack
    /// it along a line, area or Nightrider ride on an empty board.
    #[inline]
    fn danger(&self, sq: usize, by: usize) -> u128 {
        let t = tables();
        let row = sq * N;
        let mut out = 0;
        let mut cand = (t.rook_lines[sq] & self.red1[by].0) | self.red2[by].0;
        while cand != 0 {
            let s = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            out |= t.ortho[row + s];
        }
        let mut cand =
            (t.bishop_lines[sq] & self.blue1[by].0) | (t.diag_reach[sq] & self.blue2[by].0);
        while cand != 0 {
            let s = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            out |= t.diag[row + s];
        }
        let mut cand = t.night_lines[sq] & self.yellow2[by].0;
        while cand != 0 {
            let s = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            out |= t.night[row + s];
        }
        out
    }

    /// Destinations of the non-Pawn components of stack `s` on `from` (own cells included;
    /// the caller removes them).
    #[inline]
    fn targets(&self, from: usize, s: u16, occ: u128) -> u128 {
        let t = tables();
        let [red, blue, yellow] = self.power_targets(from, s, occ);
        let royal = if role(s) != PLAIN { t.king[from] } else { 0 };
        royal | red | blue | yellow
    }

    /// Destinations of stack `s` on `from` by each of its powers (red, blue, yellow; own
    /// cells included, nothing where it has no disc of the colour): what the move generator
    /// joins, and what the evaluation's mobility counts per disc kind.
    #[inline]
    fn power_targets(&self, from: usize, s: u16, occ: u128) -> [u128; 3] {
        let t = tables();
        let row = &t.ortho[from * N..from * N + N];
        // [X8]: a second disc extends the first (the slide is the 1-wide area).
        let red = match reds(s) {
            0 => 0,
            1 => area_targets(t.rook_lines[from], row, occ),
            _ => area_targets(t.all_other[from], row, occ),
        };
        let row = &t.diag[from * N..from * N + N];
        let blue = match blues(s) {
            0 => 0,
            1 => area_targets(t.bishop_lines[from], row, occ),
            _ => area_targets(t.diag_reach[from], row, occ),
        };
        let yellow = match yellows(s) {
            0 => 0,
            // [X9]: the 2x3 area leap is the Knight leap.
            1 => t.knight[from],
            _ => area_targets(t.night_lines[from], &t.night[from * N..from * N + N], occ),
        };
        [red, blue, yellow]
    }
}

impl<const SIMPLE: bool> Game for Extreme2dPos<SIMPLE> {
    type Moves = Extreme2dMoves;

    super::kernel::game_fields! {
        // The start array with Black's fourth yellow on i9 [X1].
        start: Self::parse_compact(START),
        name: if SIMPLE { INFO_SIMPLE.name } else { INFO.name },
        clock: halfmove,
    }
    super::kernel::notation_and_evaluation!();

    fn legal_moves(&self, out: &mut Self::Moves) {
        let us = self.turn.index();
        let them = 1 - us;
        let occ = self.occ[0].0 | self.occ[1].0;
        if !self.placed(us) {
            // [X2]: the whole first turn is placing both royals on c and h of the first rank.
            // From the start array no placement can be illegal; the King test only matters
            // for odd texts and keeps "legal = King not attacked" uniform.
            let back = if us == 0 { 0 } else { 90 };
            for (k, h) in [(back + 2, back + 7), (back + 7, back + 2)] {
                let occ2 = occ | 1 << k | 1 << h;
                if !self.attacked(k, them, occ2, 0) {
                    out.push(Move::new(
                        Square(k as u16),
                        Square(h as u16),
                        MoveKind::RoyalPlacement,
                        Role(0),
                    ));
                }
            }
            return;
        }
        let ksq = self.king_sq[us] as usize;
        let in_check = self.attacked(ksq, them, occ, 0);
        // Out of check, a move other than the King's can expose the King only by vacating a
        // cell of the area (or line) between the King and an enemy area mover, slider or
        // Nightrider: other moves need no test.
        let danger = if in_check { !0 } else { self.danger(ksq, them) };
        let own = self.occ[us].0;
        let enemy = self.occ[them].0;
        let last_rank = if us == 0 { 9 } else { 0 };
        let mut stacks = own;
        while stacks != 0 {
            let from = stacks.trailing_zeros() as usize;
            stacks &= stacks - 1;
            let s = self.cells[from];
            let from_bit = 1u128 << from;
            if is_pawn(s) {
                // [X3]/[X4]: one step forward, capturing if an enemy stands there; no double
                // step, en passant or castling exist [X12].
                if from / W == last_rank {
                    continue;
                }
                let to = if us == 0 { from + W } else { from - W };
                let to_bit = 1u128 << to;
                let kind = if to_bit & own != 0 {
                    continue;
                } else if to_bit & enemy != 0 {
                    MoveKind::Normal
                } else if to / W == last_rank {
                    if !self.heir_in_reserve(us) {
                        continue;
                    }
                    MoveKind::Promotion
                } else {
                    MoveKind::Normal
                };
                let occ2 = (occ & !from_bit) | to_bit;
                if from_bit & danger == 0 || !self.attacked(ksq, them, occ2, to_bit & enemy) {
                    let r = if kind == MoveKind::Promotion {
                        Role(HEIR as u8)
                    } else {
                        Role(0)
                    };
                    out.push(Move::new(Square(from as u16), Square(to as u16), kind, r));
                }
                continue;
            }
            let mut tg = self.targets(from, s, occ) & !own;
            let is_king = from == ksq;
            let safe = !is_king && from_bit & danger == 0;
            while tg != 0 {
                let to = tg.trailing_zeros() as usize;
                tg &= tg - 1;
                let to_bit = 1u128 << to;
                let occ2 = (occ & !from_bit) | to_bit;
                // Check rule 2: a moving King's origin is vacated before the test (XT9).
                let k = if is_king { to } else { ksq };
                if safe || !self.attacked(k, them, occ2, to_bit & enemy) {
                    out.push(Move::normal(Square(from as u16), Square(to as u16)));
                }
            }
        }
        // [X6]: the swap, only in check with the Heir on the board; the King lands on the
        // Heir's cell and must not be attacked there.
        if self.heirs[us].0 != 0 && in_check {
            let hsq = self.heirs[us].0.trailing_zeros() as usize;
            if !self.attacked(hsq, them, occ, 0) {
                out.push(Move::new(
                    Square(ksq as u16),
                    Square(hsq as u16),
                    MoveKind::RoyalSwap,
                    Role(0),
                ));
            }
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        let us = self.turn.index();
        let (from, to) = (m.from().index(), m.to().index());
        match m.kind() {
            MoveKind::RoyalPlacement => {
                self.put(from, stack(us, KING, 0, 0, 0));
                self.put(to, stack(us, HEIR, 0, 0, 0));
                self.halfmove = 0;
            }
            MoveKind::RoyalSwap => {
                // [X6]: only the top discs change places; the powers stay.
                let k = self.take(from);
                let h = self.take(to);
                let role_mask = 3 << ROLE_SHIFT;
                self.put(from, (k & !role_mask) | HEIR << ROLE_SHIFT);
                self.put(to, (h & !role_mask) | KING << ROLE_SHIFT);
                self.halfmove = self.halfmove.saturating_add(1);
            }
            MoveKind::Promotion => {
                // [X4]: the Pawn is replaced by the Heir from the reserve, without powers.
                self.take(from);
                self.put(to, stack(us, HEIR, 0, 0, 0));
                self.halfmove = 0;
            }
            _ => {
                let mut s = self.take(from);
                let pawn = is_pawn(s);
                let victim = self.cells[to];
                if victim != 0 {
                    self.take(to);
                    // [X5]: only power discs transfer, capped at two per colour; a captured
                    // Heir disc goes to its owner's reserve (it is simply off the board).
                    s = absorb(s, victim, Self::CAP);
                    self.halfmove = 0;
                } else if pawn {
                    self.halfmove = 0;
                } else {
                    // [X13]: moves of former Pawns and other stacks do not reset the clock.
                    self.halfmove = self.halfmove.saturating_add(1);
                }
                self.put(to, s);
            }
        }
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= tables().side;
        debug_assert_eq!(self.hash, self.compute_hash());
    }

    fn in_check(&self) -> bool {
        let us = self.turn.index();
        self.placed(us)
            && self.attacked(
                self.king_sq[us] as usize,
                1 - us,
                self.occ[0].0 | self.occ[1].0,
                0,
            )
    }

    /// \[X13\]: dead position only when each side has just its King and neither King holds a
    /// power disc.
    fn insufficient_material(&self) -> bool {
        (0..2).all(|c| {
            self.placed(c)
                && self.occ[c].0.count_ones() == 1
                && self.cells[self.king_sq[c] as usize] & POWERS == 0
        })
    }

    /// Passing flips the side to move and its hash key; the halfmove clock counts the pass as
    /// a ply, as the chess-family pass does. `None` while a side has not placed its royals:
    /// the first turn is the placement \[X2\], and skipping it gives a placement state no
    /// game reaches (and `from_text` refuses).
    fn null_move(&self) -> Option<Self> {
        if !self.placed(0) || !self.placed(1) || self.in_check() {
            return None;
        }
        Some(super::kernel::passed!(self, tables().side, halfmove))
    }

    /// One disc of material kind `kind` taken off the lowest cell holding one: a Pawn whole,
    /// a power disc from its stack (the whole stack where that disc was its only power, so
    /// that no Pawn appears). `None` for the Heir and the King (taking them would change the
    /// reserve and placement rules), where no such disc stands, or where the side not to move
    /// would be left in check.
    fn without_material(&self, color: Color, kind: usize) -> Option<Self> {
        let us = color.index();
        let count = |s: u16| kind_counts(s).get(kind).copied().unwrap_or(0);
        if !(0..4).contains(&kind) {
            return None;
        }
        let sq = (0..N).find(|&sq| {
            let s = self.cells[sq];
            s != 0 && owner(s) == us && count(s) > 0
        })?;
        let mut p = *self;
        let s = p.take(sq);
        let mut discs = [reds(s), blues(s), yellows(s)];
        if kind > 0 {
            discs[kind - 1] -= 1;
        }
        if kind > 0 && (role(s) != PLAIN || discs.iter().any(|&d| d > 0)) {
            p.put(sq, stack(us, role(s), discs[0], discs[1], discs[2]));
        }
        p.hash = p.compute_hash();
        let them = (!p.turn).index();
        let occ = p.occ[0].0 | p.occ[1].0;
        let check = p.placed(them) && p.attacked(p.king_sq[them] as usize, p.turn.index(), occ, 0);
        (!check).then_some(p)
    }

    /// Besides the moves' kinds: a capture that adds power discs to the captor (absorption
    /// [X5]), and a move that only a doubled disc makes: an orthogonal or diagonal area move
    /// [X7] or a Nightrider ride [X10]. A promotion is to the Heir [X4].
    fn rules_used(&self, m: Move) -> Vec<crate::game::RuleUse> {
        use crate::game::RuleUse;
        let (from, to) = (m.from().index(), m.to().index());
        match m.kind() {
            MoveKind::Promotion => vec![RuleUse {
                rule: "promotion",
                kind: Some(KINDS[HEIR_KIND].name),
            }],
            MoveKind::Normal => {
                let (s, victim) = (self.cells[from], self.cells[to]);
                let mut out = Vec::new();
                if victim != 0 && absorb(s, victim, Self::CAP) != s {
                    out.push(RuleUse {
                        rule: "absorption",
                        kind: None,
                    });
                }
                let occ = self.occ[0].0 | self.occ[1].0;
                let to_bit = 1u128 << to;
                let single = stack(
                    owner(s),
                    role(s),
                    reds(s).min(1),
                    blues(s).min(1),
                    yellows(s).min(1),
                );
                let king = if role(s) == PLAIN {
                    0
                } else {
                    tables().king[from]
                };
                let simple = self.power_targets(from, single, occ);
                if s & POWERS != 0 && (king | simple[0] | simple[1] | simple[2]) & to_bit == 0 {
                    let doubled = self.power_targets(from, s, occ);
                    let rules = [
                        "orthogonal area move",
                        "diagonal area move",
                        "nightrider ride",
                    ];
                    if let Some(k) = (0..3).find(|&k| doubled[k] & to_bit != 0) {
                        out.push(RuleUse {
                            rule: rules[k],
                            kind: None,
                        });
                    }
                }
                out
            }
            _ => crate::game::rules_of_kind(self, m, m.role().index()),
        }
    }

    fn material_kinds(&self) -> Vec<(&'static str, i32)> {
        crate::piece::material_kinds(&KINDS).collect()
    }

    fn material(&self) -> Material {
        let mut m = [[0; MAX_KINDS]; 2];
        for &s in &self.cells {
            if s == 0 {
                continue;
            }
            for (n, k) in m[owner(s)].iter_mut().zip(kind_counts(s)) {
                *n += k;
            }
        }
        m
    }

    fn eval_cells(&self) -> usize {
        N
    }

    fn positional(&self) -> i32 {
        self.positional_terms()
    }

    fn is_tactical(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Normal => self.cells[m.to().index()] != 0,
            MoveKind::Promotion | MoveKind::RoyalPlacement => true,
            _ => false,
        }
    }

    fn see_at_least(&self, m: Move, values: &[i32], threshold: i32) -> Option<bool> {
        self.exchange_at_least(m, values, threshold)
    }
}

#[cfg(test)]
mod tests;

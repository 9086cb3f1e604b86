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
//! \[X11\], no castling / en passant / double step \[X12\], the draw rules \[X13\]. The optional
//! "one disc per colour" beginner rule \[X14\] is not offered.
//!
//! Decisions of this file (not in the rules file): the text format and move texts below; a
//! position text is refused when it could not arise (see below); placement and Heir-reserve
//! status follow from the board, so the Zobrist key of the board, plus the side to move,
//! covers everything the repetition rule compares; placements count as tactical moves (they
//! are drops); the dead position of \[X13\] is reported as insufficient material.
//!
//! ```
//! use variantlab_engine::{perft::perft, variants::extreme2d::Extreme2d, Game};
//! let start = Extreme2d::start();
//! assert_eq!(perft(&start, 3), 128);
//! let p = Extreme2d::from_text("White: Ka1, (rr)h8. Black: Kj10. Black to move.").unwrap();
//! assert!(p.in_check());
//! ```
//!
//! # Position text
//!
//! `<board> <side> [<halfmove> <fullmove>]`, FEN-like:
//!
//! * `board`: ranks 10 down to 1 separated by `/`, each rank files `a` to `j`. A run of empty
//!   cells is its length (`1`–`10`, written as one number). A stack is either one ownership
//!   letter — `P` plain (a Pawn), `H` Heir, `K` King for White, `p`, `h`, `k` for Black — or a
//!   bracketed disc list `[...]` holding exactly one ownership letter and the power discs
//!   `r`, `b`, `y` (at most two of each): `[Pr]` a White Rook, `[prb]` a Black Queen,
//!   `[Krr]` a White King with two reds. Output is canonical: a bare letter when the stack
//!   has no power discs, otherwise `[` ownership letter, reds, blues, yellows `]`; any order is
//!   accepted inside the brackets.
//! * `side`: `w` or `b`. Halfmove clock and fullmove number default to `0` and `1`.
//!
//! Everything else is read off the board: a side without a King on the board has not placed
//! its King and Heir yet; a side with a King but no Heir on the board has its Heir in reserve.
//! The start position is
//! `[pr][pb]1[pb][pr][pr][pb]1[pb][pr]/1[py]1[py]2[py]1[py]1/pppppppppp/10/10/10/10/PPPPPPPPPP/1[Py]1[Py]2[Py]1[Py]1/[Pr][Pb]1[Pb][Pr][Pr][Pb]1[Pb][Pr] w 0 1`.
//!
//! [`Extreme2d::from_text`](crate::Game::from_text) also accepts the piece-list form of the
//! rules file's test positions: `White: Kh10, (rr)a1. Black: Kh8, Pc3. White to move.`
//! (Gateway's headers `W:` and `B:` are read too: one piece-list grammar,
//! [`read_piece_list`](super::text::read_piece_list)).
//!
//! Order: a stack is a set of discs (one ownership disc, counts of each power colour), and
//! the rules give the order of the discs beneath the ownership disc no meaning (a stack's
//! moves are the union of its discs' powers), so the discs inside `[...]` or `(...)` are read
//! in any order and written in the canonical one above. In the piece-list form the three
//! sentences (`White:`, `Black:`, the side to move) and the stacks of a list are read in any
//! order too. The board itself is positional.
//!
//! Impossible positions are refused with [`PositionError::Setup`]: a stack without or with two
//! ownership discs (`[Kp]`, a King stack holding a Pawn disc), three discs of one colour, two
//! Kings or two Heirs of one side, an Heir without its King, more than 22 plain discs of a side
//! or more than 8 discs of one colour on the board, occupied placement cells of an unplaced
//! side, an impossible turn for the placement state, or the side not to move in check.
//!
//! # Move text
//!
//! * moves and captures: origin and destination, `e3e4`, `a1c10`;
//! * promotion: the Pawn step followed by `h`: `e9e10h`;
//! * placement: `K@c1,H@h1` (King cell first);
//! * King–Heir swap: `e1<>h5` (King cell first; quote it in a shell).

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
/// power discs, capped at two per colour (the surplus leaves the game).
#[inline]
fn absorb(s: u16, victim: u16) -> u16 {
    let r = (reds(s) + reds(victim)).min(2);
    let b = (blues(s) + blues(victim)).min(2);
    let y = (yellows(s) + yellows(victim)).min(2);
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
    notes: &[
        "[D] setup: Black's fourth yellow disc on i9, not j9 (the spec's decided reading of the diagram slip)",
        "[D] draws: stalemate, 100 plies without capture, Pawn step or placement, threefold repetition, two bare power-less Kings",
        "[D] first turn: each side places King and Heir on its two empty first-rank cells (c and h)",
    ],
    many_moves: false,
    max_plies: super::DEFAULT_MAX_PLIES,
};

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
/// step with the cells; heap-free and `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Extreme2d {
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

/// Which disc an ownership / power letter stands for.
enum Disc {
    Owner(usize, u16),
    Power(usize),
}

fn disc(c: char) -> Option<Disc> {
    Some(match c {
        'P' => Disc::Owner(0, PLAIN),
        'H' => Disc::Owner(0, HEIR),
        'K' => Disc::Owner(0, KING),
        'p' => Disc::Owner(1, PLAIN),
        'h' => Disc::Owner(1, HEIR),
        'k' => Disc::Owner(1, KING),
        'r' => Disc::Power(0),
        'b' => Disc::Power(1),
        'y' => Disc::Power(2),
        _ => return None,
    })
}

fn owner_letter(s: u16) -> char {
    let c = match role(s) {
        PLAIN => 'P',
        HEIR => 'H',
        _ => 'K',
    };
    Color::ALL[owner(s)].cased(c)
}

/// Builds a stack from disc letters, naming the problem (for `cell`) if it is impossible.
fn stack_from_discs(discs: &[char], cell: &str) -> Result<u16, String> {
    let mut top: Option<(usize, u16, char)> = None;
    let mut counts = [0u16; 3];
    for &c in discs {
        match disc(c) {
            Some(Disc::Owner(o, r)) => {
                if let Some((_, _, first)) = top {
                    return Err(format!(
                        "{cell}: a stack has exactly one ownership disc, found {first} and {c}"
                    ));
                }
                top = Some((o, r, c));
            }
            Some(Disc::Power(i)) => {
                counts[i] += 1;
                if counts[i] > 2 {
                    let colour = ["red", "blue", "yellow"][i];
                    return Err(format!(
                        "{cell}: three {colour} discs in one stack (at most two of a colour)"
                    ));
                }
            }
            None => return Err(format!("{cell}: unknown disc {c:?}")),
        }
    }
    let (o, r, _) = top.ok_or_else(|| format!("{cell}: stack without an ownership disc"))?;
    Ok(stack(o, r, counts[0], counts[1], counts[2]))
}

/// Reads one stack of the board text: an ownership letter or a bracketed disc list.
fn read_stack(chars: &[char], sq: Square) -> Result<(u16, usize), Bad> {
    let c = chars[0];
    let (discs, used) = if c == '[' {
        let close = chars.iter().position(|&x| x == ']');
        let Some(close) = close.filter(|&k| !chars[1..k].contains(&'[')) else {
            return Err(Bad::At(0, "unclosed [".into()));
        };
        (&chars[1..close], close + 1)
    } else if matches!(c, 'P' | 'H' | 'K' | 'p' | 'h' | 'k') {
        (&chars[..1], 1)
    } else if matches!(c, 'r' | 'b' | 'y' | 'R' | 'B' | 'Y') {
        let power = c.to_ascii_lowercase();
        let m = format!("power disc {c:?} outside a stack: write e.g. [P{power}]");
        return Err(Bad::At(0, m));
    } else {
        return Err(Bad::At(0, format!("unexpected character {c:?}")));
    };
    let cell = topology().square_name(sq);
    if let Some(d) = discs.iter().find(|&&d| disc(d).is_none()) {
        let m = format!("{cell}: unknown disc {d:?} (ownership P H K / p h k, powers r b y)");
        return Err(Bad::At(0, m));
    }
    stack_from_discs(discs, &cell)
        .map(|s| (s, used))
        .map_err(Bad::Setup)
}

impl Extreme2d {
    fn empty() -> Extreme2d {
        Extreme2d {
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

    /// The evaluation's activity features, from one walk of every stack's attacks:
    /// - mobility per disc kind (the cells each power of a stack reaches that its side does
    ///   not hold; a Pawn's step);
    /// - attacks on the cells next to the enemy King, in all and per disc kind (a stack's
    ///   royal steps count for neither);
    /// - threatened stacks and forks ([`Self::report_threats`]), from the cells each side
    ///   attacks (every part of a stack: powers, royal step, a Pawn's step; the King's too).
    fn report_activity<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
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
    fn report_threats<S: crate::eval::FeatureSink>(&self, sink: &mut S, attacks: &[Attacks; 2]) {
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

    /// Validates the cells and builds the position.
    fn from_cells(
        cells: [u16; N],
        turn: Color,
        halfmove: u32,
        fullmove: u32,
    ) -> Result<Extreme2d, PositionError> {
        let setup = |m: String| Err(PositionError::Setup(m));
        let mut kings = [0; 2];
        let mut heirs = [0; 2];
        let mut plains = [0; 2];
        let mut discs = [0; 3];
        for &s in &cells {
            if s == 0 {
                continue;
            }
            let c = owner(s);
            match role(s) {
                KING => kings[c] += 1,
                HEIR => heirs[c] += 1,
                _ => plains[c] += 1,
            }
            discs[0] += reds(s);
            discs[1] += blues(s);
            discs[2] += yellows(s);
        }
        for c in Color::ALL {
            let i = c.index();
            let side = c.name();
            if kings[i] > 1 {
                return setup(format!("{side} has {} Kings (one disc exists)", kings[i]));
            }
            if heirs[i] > 1 {
                return setup(format!("{side} has {} Heirs (one disc exists)", heirs[i]));
            }
            if heirs[i] == 1 && kings[i] == 0 {
                return setup(format!(
                    "{side} has an Heir on the board but no King (both are placed together)"
                ));
            }
            if plains[i] > 22 {
                return setup(format!(
                    "{side} has {} plain discs (at most 22 exist)",
                    plains[i]
                ));
            }
            if kings[i] == 0 {
                let back = if i == 0 { 0 } else { 90 };
                for sq in [back + 2, back + 7] {
                    if cells[sq] != 0 {
                        return setup(format!(
                            "{side} has not placed its King and Heir, but its placement cell {} is occupied",
                            name(sq)
                        ));
                    }
                }
            }
        }
        for (i, colour) in ["red", "blue", "yellow"].iter().enumerate() {
            if discs[i] > 8 {
                return setup(format!(
                    "{} {colour} discs on the board (8 exist)",
                    discs[i]
                ));
            }
        }
        // [X2]: White places on ply 1, Black on ply 2.
        match (kings[0], kings[1], turn) {
            (0, 0, Color::Black) => {
                return setup("neither side has placed, so White is to move".into())
            }
            (0, 1, _) => return setup("Black has placed its King but White has not".into()),
            (1, 0, Color::White) => {
                return setup("White has placed but Black has not, so Black is to move".into())
            }
            _ => {}
        }
        let mut pos = Extreme2d::empty();
        pos.turn = turn;
        pos.halfmove = halfmove;
        pos.fullmove = fullmove;
        for (sq, &s) in cells.iter().enumerate() {
            if s != 0 {
                pos.put(sq, s);
            }
        }
        if turn == Color::Black {
            pos.hash ^= tables().side;
        }
        let them = (!turn).index();
        if pos.placed(them) {
            let occ = pos.occ[0].0 | pos.occ[1].0;
            if pos.attacked(pos.king_sq[them] as usize, turn.index(), occ, 0) {
                return setup(format!("{} is not to move but is in check", (!turn).name()));
            }
        }
        Ok(pos)
    }

    /// Reads the compact text format (see the module documentation).
    fn parse_compact(text: &str) -> Result<Extreme2d, PositionError> {
        let names = ["board", "side", "halfmove", "fullmove"];
        let fields = FORMAT.fields(text, &names)?;
        let end = text.chars().count() + 1;
        if fields.len() < 2 {
            let missing = names[fields.len()];
            return Err(PositionError::syntax(
                missing,
                end,
                format!("missing {missing} field"),
            ));
        }
        if fields.len() == 3 {
            return Err(PositionError::syntax(
                "fullmove",
                end,
                "missing fullmove field (give both clocks or neither)",
            ));
        }
        if fields.len() > 4 {
            return Err(PositionError::syntax(
                "end",
                fields[4].0,
                "unexpected text after the fullmove number",
            ));
        }
        let mut cells = [0u16; N];
        for (sq, s) in FORMAT.read_board(fields[0], topology(), read_stack)? {
            cells[sq.index()] = s;
        }
        let turn = FORMAT.read_side(fields[1])?;
        let mut clocks = [0u32, 1];
        let counter = Counter {
            plus: false,
            max_digits: usize::MAX,
            max: u32::MAX,
        };
        for k in 0..2 {
            if let Some(&f) = fields.get(2 + k) {
                clocks[k] = counter.read(f, names[2 + k], k as u32)?;
            }
        }
        Self::from_cells(cells, turn, clocks[0], clocks[1])
    }

    /// Reads the rules file's piece-list form:
    /// `White: Kh10, (rr)a1. Black: Kh8, Pc3. White to move.` The sentences, the stacks of a
    /// list and the discs in parentheses may come in any order.
    fn parse_list(text: &str) -> Result<Extreme2d, PositionError> {
        let list = text::read_piece_list(text, Punctuation::Loose)?;
        let mut cells = [0u16; N];
        for (side, tcol, t) in &list.items {
            let bad = |m: &str| {
                Err(PositionError::syntax(
                    "pieces",
                    *tcol,
                    format!("{t:?}: {m}"),
                ))
            };
            let mut rest = t.as_str();
            let letter = match rest.chars().next() {
                Some(c @ ('K' | 'H' | 'P')) => {
                    rest = &rest[1..];
                    c
                }
                _ => 'P',
            };
            let mut discs = vec![side.cased(letter)];
            if let Some(r) = rest.strip_prefix('(') {
                let Some(close) = r.find(')') else {
                    return bad("unclosed (");
                };
                for d in r[..close].chars() {
                    if !matches!(d, 'r' | 'b' | 'y') {
                        return bad("power discs are r, b, y");
                    }
                    discs.push(d);
                }
                rest = &r[close + 1..];
            } else if t.starts_with(|c: char| c.is_ascii_lowercase()) {
                return bad("expected K, H, P or (discs) before the cell");
            }
            let Some(sq) = parse_cell(rest) else {
                return bad("no cell a1..j10 at the end");
            };
            if cells[sq] != 0 {
                return bad("cell listed twice");
            }
            cells[sq] = stack_from_discs(&discs, &name(sq)).map_err(PositionError::Setup)?;
        }
        Self::from_cells(cells, list.turn, 0, 1)
    }

    /// A stack's worth in an exchange ([`Game::see`]): its value, the King's never lost.
    fn see_worth(s: u16, values: &[i32]) -> i32 {
        if role(s) == KING {
            ROYAL
        } else {
            Self::stack_value(s, values)
        }
    }

    /// What `captor` gains in an exchange by taking `victim`, and the stack it then forms.
    fn see_capture(captor: u16, victim: u16, values: &[i32]) -> (i32, u16) {
        let merged = absorb(captor, victim);
        let grown = Self::stack_value(merged, values) - Self::stack_value(captor, values);
        (
            (Self::see_worth(victim, values) + grown).min(ROYAL / 2),
            merged,
        )
    }

    /// The first capture of an exchange: what the normal move `m` gains and the stack it
    /// leaves on its destination (`None` for other moves).
    fn see_start(&self, m: Move, values: &[i32]) -> Option<(i32, u16)> {
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
    fn stack_value(s: u16, values: &[i32]) -> i32 {
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

impl Game for Extreme2d {
    type Moves = Extreme2dMoves;

    super::kernel::game_fields! {
        // The start array with Black's fourth yellow on i9 [X1].
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
                    s = absorb(s, victim);
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
    /// Every disc of a stack on the stack's cell (a stack with two red discs counts the red
    /// cell entry twice), Pawns, Heirs and Kings once.
    fn eval_features<S: crate::eval::FeatureSink>(&self, sink: &mut S) {
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
    fn positional(&self) -> i32 {
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

    fn is_tactical(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Normal => self.cells[m.to().index()] != 0,
            MoveKind::Promotion | MoveKind::RoyalPlacement => true,
            _ => false,
        }
    }

    fn tactical_order(&self, m: Move, values: &[i32]) -> i32 {
        match m.kind() {
            MoveKind::Normal => {
                let attacker = Self::stack_value(self.cells[m.from().index()], values);
                let victim = Self::stack_value(self.cells[m.to().index()], values);
                super::kernel::capture_order(victim, attacker, 0)
            }
            MoveKind::Promotion => {
                let v = |i: usize| super::kernel::value_of(values, i);
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
    fn see(&self, m: Move, values: &[i32]) -> Option<i32> {
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
    fn see_at_least(&self, m: Move, values: &[i32], threshold: i32) -> Option<bool> {
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

    fn diagram(&self) -> crate::diagram::Diagram {
        let mut d = crate::diagram::Diagram::board(
            topology(),
            0.0,
            |_| String::new(),
            |_| None,
            |sq| {
                let s = self.cells[sq.index()];
                (s != 0).then(|| {
                    let mut occupant = crate::diagram::Occupant::piece(
                        Color::ALL[owner(s)],
                        owner_letter(s).to_ascii_uppercase().to_string(),
                    );
                    // The stack's discs, as in the position text: `rrb` = two red, one blue.
                    for (n, c) in [(reds(s), 'r'), (blues(s), 'b'), (yellows(s), 'y')] {
                        for _ in 0..n {
                            occupant.sub.push(c);
                        }
                    }
                    occupant
                })
            },
        );
        d.legend.push((
            crate::diagram::LIGHT,
            "P base disc, H Heir, K King; small letters: the stack's power discs (r red, b blue, y yellow)"
                .to_string(),
        ));
        d
    }
    fn to_text(&self) -> String {
        let out = text::write_board(topology(), None, |sq, out| {
            let s = self.cells[sq.index()];
            if s == 0 {
                return false;
            }
            if s & POWERS == 0 {
                out.push(owner_letter(s));
            } else {
                out.push('[');
                out.push(owner_letter(s));
                for (n, c) in [(reds(s), 'r'), (blues(s), 'b'), (yellows(s), 'y')] {
                    for _ in 0..n {
                        out.push(c);
                    }
                }
                out.push(']');
            }
            true
        });
        format!(
            "{out} {} {} {}",
            self.turn.char(),
            self.halfmove,
            self.fullmove
        )
    }

    fn move_text(&self, m: Move) -> String {
        let (from, to) = (name(m.from().index()), name(m.to().index()));
        match m.kind() {
            MoveKind::RoyalPlacement => format!("K@{from},H@{to}"),
            MoveKind::RoyalSwap => format!("{from}<>{to}"),
            MoveKind::Promotion => format!("{from}{to}h"),
            _ => format!("{from}{to}"),
        }
    }
}

#[cfg(test)]
mod tests;

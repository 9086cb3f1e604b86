//! Dai Mitregi (Charles Gilman, 2006): a giant Shogi-like game with drops, in its two forms,
//! Leaping ([`DaiMitregi`], the default, `dai-mitregi`) and Stepping ([`DaiMitregiStepping`],
//! `dai-mitregi-stepping`). Rules: `docs/rules/` (from the specification
//! `shared/rules/dai-mitregi.md`).
//!
//! **Reconstructed:** the original setup diagram is lost, so the board (16 x 16, [`FILES`],
//! [`RANKS`], camps [`ZONE_DEPTH`] ranks deep) and the start array ([`START`]) are the rules
//! file's reconstruction, kept as data so that they can be corrected.
//!
//! Pieces are data: each role is one line of [`ROLES`] with a Betza string per form. The
//! Betza modifier `n` (lame: the halfway cell of a two-cell move must be empty) is the only
//! difference between the forms; it is handled here, by cutting the string into atoms and
//! marking the atoms of an `n` segment lame in this file's own compiled tables. Forced
//! promotion and the dead ranks for drops are derived from the same data: a piece must promote
//! (and may not be dropped) where its movement, on an empty board, has no target.
//!
//! The position text and the move names are the `notation` module's; the evaluation terms, the
//! static exchange and the capture order are the `evaluation` module's.

use super::kernel::{capture_order, move_name, value_of};
use super::text::{self, Bad, Format, Runs, Spacing};
use crate::bitboard::{BbWide, Bitboard};
use crate::error::PositionError;
use crate::game::{Game, Material, MAX_KINDS};
use crate::geometry::Topology;
use crate::moves::{Move, MoveKind};
use crate::piece::read_letter;
use crate::piece::{betza, Atom, PieceSpec};
use crate::see::{swap, ROYAL};
use crate::zobrist::SplitMix64;
use crate::{Color, Role, Square};
use arrayvec::ArrayVec;
use std::ops::ControlFlow;
use std::sync::OnceLock;

mod evaluation;
mod notation;

/// Files of the board (reconstructed).
pub const FILES: usize = 16;
/// Ranks of the board (reconstructed).
pub const RANKS: usize = 16;
/// Depth of each camp, which is the other side's promotion zone (stated).
pub const ZONE_DEPTH: usize = 4;
const NSQ: usize = FILES * RANKS;

/// The position text's spacing, runs and error words.
const FORMAT: Format = Format {
    spacing: Spacing::Single,
    runs: Runs::Number(2),
    too_long: "rank has too many cells",
    side: "expected 'w' or 'b'",
};

/// What `variantlab variants` says about the Leaping form.
pub const INFO: super::VariantInfo = super::VariantInfo {
    name: super::VariantKind::DaiMitregi.const_name(),
    title: "Dai Mitregi (Leaping)",
    rules_file: "docs/rules/dai-mitregi.md",
    dims: (FILES as u8, RANKS as u8, 1),
    cells: NSQ,
    notes: NOTES,
    many_moves: true,
    // [V] decided games run past ply 400 (docs/decisions.md, self-play ply caps).
    max_plies: 2000,
};

/// What `variantlab variants` says about the Stepping form: the Leaping form's but for its name
/// and title.
pub const INFO_STEPPING: super::VariantInfo = super::VariantInfo {
    name: super::VariantKind::DaiMitregiStepping.const_name(),
    title: "Dai Mitregi (Stepping)",
    ..INFO
};

const NOTES: &[&str] = &[
    "[R] board 16x16 with camps 4 ranks deep, and the start array, are the rules file's reconstruction (the diagram is lost)",
    "[D] promotion is optional on any move starting or ending in the zone, forced only where the piece could never move again; the King may become a Grandpasha",
    "[D] drops: unpromoted, not on dead ranks, within the deployment limits counted over the dropper's unpromoted pieces; drops may mate",
    "[D] threefold repetition of board, hands and side to move is a draw; there is no move-count rule",
    "[V] drops are quiet moves to the quiescence search (hundreds a position)",
];

/// The start position (reconstructed array of the rules file).
pub const START: &str = "whiieeyakgvooshw/1nmmccr3bbuun1/zzzzzzzzzzzzzzzz/ffffffffffffffff/16/16/16/16/16/16/16/16/FFFFFFFFFFFFFFFF/ZZZZZZZZZZZZZZZZ/1NUUBB3RCCMMN1/WHSOOVGKAYEEIIHW w -";

/// A deployment limit on drops, counted over the dropping side's unpromoted pieces of the role
/// on the board after the drop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Limit {
    /// No limit.
    None,
    /// At most this many on any one file.
    PerFile(u8),
    /// At most this many on the odd files and this many on the even files.
    PerFileParity(u8),
    /// At most this many on each cell colour.
    PerColour(u8),
}

impl Limit {
    /// The group of a cell under this limit (file, file parity or colour) and the maximum.
    fn group(self, sq: usize) -> Option<(usize, u8)> {
        let (f, r) = (sq % FILES, sq / FILES);
        match self {
            Limit::None => None,
            Limit::PerFile(n) => Some((f, n)),
            Limit::PerFileParity(n) => Some((f % 2, n)),
            Limit::PerColour(n) => Some(((f + r) % 2, n)),
        }
    }
}

/// What an unpromoted role promotes to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Promotee {
    /// Rook + Mitre.
    Goldrider = 0,
    /// Bishop + Wing.
    Silverider = 1,
    /// The King's promotion, still royal.
    Grandpasha = 2,
}

/// Dai Mitregi's extra to a role's line ([`PieceSpec`], whose Betza is the Leaping form's).
#[derive(Clone, Copy, Debug)]
pub struct RoleExtra {
    /// Betza string in the Stepping form (`n` = lame two-cell atom).
    pub stepping: &'static str,
    /// Promoted form.
    pub promotes: Promotee,
    /// Drop limit.
    pub limit: Limit,
}

/// A role's line: name, letter, value, Leaping and Stepping Betza, promotion, drop limit.
const fn role(
    name: &'static str,
    letter: char,
    value: i32,
    leaping: &'static str,
    stepping: &'static str,
    promotes: Promotee,
    limit: Limit,
) -> PieceSpec<RoleExtra> {
    PieceSpec::new(name, letter, leaping, value).with(RoleExtra {
        stepping,
        promotes,
        limit,
    })
}

use Limit::{PerColour, PerFile, PerFileParity};
use Promotee::{Goldrider, Grandpasha, Silverider};

/// Every role, data only. Index 0 is the King (royal).
#[rustfmt::skip]
pub const ROLES: [PieceSpec<RoleExtra>; 19] = [
    role("King", 'K', 0, "K", "K", Grandpasha, Limit::None).royal(),
    role("Rook", 'R', 700, "R", "R", Goldrider, Limit::None),
    role("Wing", 'W', 350, "fR", "fR", Goldrider, PerFile(2)),
    role("Bishop", 'B', 550, "B", "B", Silverider, PerColour(2)),
    role("Mitre", 'M', 300, "fB", "fB", Silverider, PerColour(2)),
    role("Knight", 'N', 300, "N", "N", Goldrider, Limit::None),
    role("Helm", 'H', 150, "ffN", "ffN", Goldrider, Limit::None),
    role("Camel", 'C', 250, "C", "C", Silverider, PerColour(2)),
    role("Hump", 'U', 120, "ffC", "ffC", Silverider, PerColour(2)),
    role("Fearless", 'F', 100, "fFfA", "fFfnA", Silverider, PerColour(16)),
    role("Wazchick", 'Z', 90, "fWfD", "fWfnD", Goldrider, PerFile(2)),
    role("Goldsow", 'G', 350, "WfFfD", "WfFfnD", Goldrider, Limit::None),
    role("Silversow", 'S', 350, "WfDA", "WfnDnA", Silverider, Limit::None),
    role("Goldboar", 'O', 350, "FDfA", "FnDfnA", Goldrider, PerColour(2)),
    role("Silverboar", 'V', 300, "fWFfA", "fWFfnA", Silverider, Limit::None),
    role("Goldmemsahib", 'E', 280, "fWDfA", "fWnDfnA", Goldrider, PerFileParity(2)),
    role("Silvermemsahib", 'Y', 370, "fWFD", "fWFnD", Silverider, Limit::None),
    role("Goldsahib", 'A', 400, "WfFA", "WfFnA", Goldrider, Limit::None),
    role("Silversahib", 'I', 280, "fFfDA", "fFfnDnA", Silverider, PerColour(2)),
];

/// The promoted forms, indexed by [`Promotee`], with the Leaping form's Betza and the
/// Stepping form's as the extra. They have no letter of their own: a promoted piece is
/// written `+` and its role's letter.
#[rustfmt::skip]
pub const PROMOTED: [PieceSpec<&str>; 3] = [
    PieceSpec::new("Goldrider", '+', "RfB", 950).with("RfB"),
    PieceSpec::new("Silverider", '+', "BfR", 900).with("BfR"),
    PieceSpec::new("Grandpasha", '+', "KDA", 0).royal().with("KnDnA"),
];

const NROLES: usize = ROLES.len();
const NCLASSES: usize = NROLES + PROMOTED.len();
/// Pieces in hand per kind the network tells apart (more count as this many): a side rarely
/// holds more than a few of one kind.
const NET_HAND: usize = 6;
const KING: usize = 0;

/// Cell code: 0 empty, else `role + 1`, bit 5 promoted, bit 6 Black.
const PROMOTED_BIT: u8 = 32;
const BLACK_BIT: u8 = 64;
const NCODES: usize = 128;
/// Most pieces of one kind a position may hold, board and hands together (the game has at
/// most 32): captures keep the total, so hand counts never pass it and the hash keys cover
/// every count.
const MAX_HAND: usize = 64;

#[inline]
fn code(color: Color, role: usize, promoted: bool) -> u8 {
    (role as u8 + 1) | if promoted { PROMOTED_BIT } else { 0 } | (color as u8) << 6
}
#[inline]
fn role_of(c: u8) -> usize {
    (c & 31) as usize - 1
}
#[inline]
fn color_of(c: u8) -> Color {
    if c & BLACK_BIT != 0 {
        Color::Black
    } else {
        Color::White
    }
}
#[inline]
fn promoted(c: u8) -> bool {
    c & PROMOTED_BIT != 0
}
/// Movement class of a code: the role, or `NROLES + promotee` when promoted.
#[inline]
fn class_of(c: u8) -> usize {
    CLASSES[(c & (BLACK_BIT - 1)) as usize] as usize
}

/// [`class_of`] per code without the colour bit, worked out at compile time. Why: one load
/// instead of the role, the promoted bit and the promotee's look-up, on every piece the
/// evaluation, the material count and the attack walk visit.
const CLASSES: [u8; BLACK_BIT as usize] = {
    let mut t = [0u8; BLACK_BIT as usize];
    let mut r = 0;
    while r < NROLES {
        t[r + 1] = r as u8;
        t[(r + 1) | PROMOTED_BIT as usize] = (NROLES + ROLES[r].extra.promotes as usize) as u8;
        r += 1;
    }
    t
};

/// [`DaiMitregiPos::default_worth`] per code without the colour bit, worked out at compile
/// time: one load per piece in the attack walk instead of a match and two look-ups.
const WORTHS: [i32; BLACK_BIT as usize] = {
    let mut t = [0i32; BLACK_BIT as usize];
    let mut r = 0;
    while r < NROLES {
        let (plain, promoted) = if r == KING {
            (ROYAL, ROYAL)
        } else {
            (
                ROLES[r].value,
                PROMOTED[ROLES[r].extra.promotes as usize].value,
            )
        };
        t[r + 1] = plain;
        t[(r + 1) | PROMOTED_BIT as usize] = promoted;
        r += 1;
    }
    t
};

/// The 8 unit directions, for rays.
const DIRS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// A compiled leap: target cell and, for a lame atom, the halfway cell that must be empty.
#[derive(Clone, Copy, Debug)]
struct Leap {
    to: u8,
    mid: u8,
    lame: bool,
}

/// A reverse leap for attack detection: from `from`, pieces of the classes in `mask` reach
/// the target (over `mid`, which must be empty when `lame`).
#[derive(Clone, Copy, Debug)]
struct RevLeap {
    from: u8,
    mid: u8,
    lame: bool,
    mask: u32,
}

/// The evaluation's view of one (color, class, cell): the leap targets as a board, the lame
/// leaps apart. Why: the attack walk ORs one board instead of adding the targets one by one,
/// and tests only the lame leaps' halfway cells.
#[derive(Clone, Copy)]
struct Walk {
    /// Targets of the leaps that are not lame.
    free: [u64; 4],
    /// The lame leaps: range into `lame` (as halfway cell, target).
    lame_start: u32,
    lame_len: u8,
}

/// The compiled tables of one form.
struct FormTables {
    /// Leaps per (color, class, cell): range into `leaps`.
    leap_idx: Vec<(u32, u16)>,
    leaps: Vec<Leap>,
    /// Per (color, class, cell), indexed as `leap_idx`.
    walks: Vec<Walk>,
    /// The lame leaps of `walks`, as (halfway cell, target).
    lame: Vec<(u8, u8)>,
    /// Slide directions (bits of [`DIRS`]) per (color, class).
    slides: [[u8; NCLASSES]; 2],
    /// Reverse leaps per (attacker color, cell).
    rev_idx: Vec<(u32, u16)>,
    rev: Vec<RevLeap>,
    /// Whether a class of a color has no move at all from a cell on an empty board.
    dead: Vec<bool>,
    /// Per (color, role): the cells an unpromoted piece may be dropped on (not dead).
    drop_cells: [[DaiBb; NROLES]; 2],
}

struct Tables {
    topo: Topology,
    forms: [FormTables; 2],
    /// Cells along each direction from each cell, nearest first.
    rays: Vec<ArrayVec<u8, 15>>,
    piece_keys: Vec<u64>,
    hand_keys: Vec<u64>,
    side_key: u64,
}

/// Cuts a Betza string with `n` (lame) modifiers into atoms with a lame flag.
///
/// # Panics
/// On a malformed string or a lame atom without a halfway cell: pieces are program data.
fn atoms_with_lameness(text: &str) -> Vec<(Atom, bool)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            i += 1;
        }
        let atom = chars[i];
        i += 1;
        if i < chars.len() && chars[i] == atom {
            i += 1;
        }
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let seg: String = chars[start..i].iter().collect();
        let lame = seg.contains('n');
        let plain: String = seg.chars().filter(|&c| c != 'n').collect();
        for a in betza::parse(&plain).unwrap_or_else(|e| panic!("{e}")) {
            if lame {
                assert!(
                    a.range == 1 && a.vector[0] % 2 == 0 && a.vector[1] % 2 == 0,
                    "lame atom without a halfway cell in {text}"
                );
            }
            out.push((a, lame));
        }
    }
    out
}

fn class_betza(class: usize, stepping: bool) -> &'static str {
    match (class.checked_sub(NROLES), stepping) {
        (None, false) => ROLES[class].betza,
        (None, true) => ROLES[class].extra.stepping,
        (Some(p), false) => PROMOTED[p].betza,
        (Some(p), true) => PROMOTED[p].extra,
    }
}

/// An atom as Black sees it. The start array is point-symmetric, so Black's pieces are
/// White's turned half a turn (cell `sq` becomes `NSQ - 1 - sq`): turning the vectors, not
/// only flipping the ranks, keeps Black's move lists in the same order as White's in the
/// colour-swapped position, so the search has no colour bias from move order.
fn half_turn(a: Atom) -> Atom {
    Atom {
        vector: [-a.vector[0], -a.vector[1], a.vector[2]],
        ..a
    }
}

/// The next cell of `bb` in the mover's order: White from cell 0 up, Black from cell 255 down
/// (the same cells once the board is turned half a turn).
#[inline]
fn next_cell(bb: &mut DaiBb, us: Color) -> Option<usize> {
    let sq = match us {
        Color::White => bb.lsb(),
        Color::Black => bb.msb(),
    }?;
    bb.remove(sq);
    Some(sq.index())
}

fn build_form(topo: &Topology, stepping: bool) -> FormTables {
    let mut leap_idx = Vec::with_capacity(2 * NCLASSES * NSQ);
    let mut leaps = Vec::new();
    let mut walks = Vec::with_capacity(2 * NCLASSES * NSQ);
    let mut lame = Vec::new();
    let mut slides = [[0u8; NCLASSES]; 2];
    let mut dead = vec![false; 2 * NCLASSES * NSQ];
    // (attacker color, target cell) -> list of (from, mid, lame, mask)
    let mut rev_lists: Vec<Vec<RevLeap>> = vec![Vec::new(); 2 * NSQ];
    for color in Color::ALL {
        for class in 0..NCLASSES {
            let atoms: Vec<(Atom, bool)> = atoms_with_lameness(class_betza(class, stepping))
                .into_iter()
                .map(|(a, l)| {
                    (
                        if color == Color::Black {
                            half_turn(a)
                        } else {
                            a
                        },
                        l,
                    )
                })
                .collect();
            for &(a, _) in &atoms {
                if a.range == 0 {
                    let d = (a.vector[0], a.vector[1]);
                    let k = DIRS
                        .iter()
                        .position(|&x| x == d)
                        .expect("riders ride unit steps");
                    slides[color.index()][class] |= 1 << k;
                } else {
                    assert_eq!(a.range, 1, "only leaps and unlimited rides are used");
                }
            }
            for sq in 0..NSQ {
                let start = leaps.len() as u32;
                let s = Square(sq as u16);
                for &(a, lame) in &atoms {
                    if a.range != 1 {
                        continue;
                    }
                    if let Some(t) = topo.walk(s, a.vector) {
                        let mid = if lame {
                            let half = [a.vector[0] / 2, a.vector[1] / 2, 0];
                            topo.walk(s, half).map_or(0, |m| m.0 as u8)
                        } else {
                            0
                        };
                        leaps.push(Leap {
                            to: t.0 as u8,
                            mid,
                            lame,
                        });
                        let list = &mut rev_lists[color.index() * NSQ + t.index()];
                        match list
                            .iter_mut()
                            .find(|r| r.from == sq as u8 && r.lame == lame && r.mid == mid)
                        {
                            Some(r) => r.mask |= 1 << class,
                            None => list.push(RevLeap {
                                from: sq as u8,
                                mid,
                                lame,
                                mask: 1 << class,
                            }),
                        }
                    }
                }
                let n = leaps.len() as u32 - start;
                leap_idx.push((start, n as u16));
                let mut free = CellSet::default();
                let lame_start = lame.len() as u32;
                for l in &leaps[start as usize..] {
                    if l.lame {
                        lame.push((l.mid, l.to));
                    } else {
                        free.add(l.to);
                    }
                }
                walks.push(Walk {
                    free: free.board().0,
                    lame_start,
                    lame_len: (lame.len() as u32 - lame_start) as u8,
                });
                let has_slide = DIRS.iter().enumerate().any(|(k, &(dx, dy))| {
                    slides[color.index()][class] & (1 << k) != 0
                        && topo.walk(s, [dx, dy, 0]).is_some()
                });
                dead[(color.index() * NCLASSES + class) * NSQ + sq] = n == 0 && !has_slide;
            }
        }
    }
    let mut rev_idx = Vec::with_capacity(2 * NSQ);
    let mut rev = Vec::new();
    for list in rev_lists {
        rev_idx.push((rev.len() as u32, list.len() as u16));
        rev.extend(list);
    }
    let mut drop_cells = [[DaiBb::EMPTY; NROLES]; 2];
    for color in Color::ALL {
        for (r, cells) in drop_cells[color.index()].iter_mut().enumerate() {
            for sq in 0..NSQ {
                if !dead[(color.index() * NCLASSES + r) * NSQ + sq] {
                    cells.insert(Square(sq as u16));
                }
            }
        }
    }
    FormTables {
        leap_idx,
        leaps,
        walks,
        lame,
        slides,
        rev_idx,
        rev,
        dead,
        drop_cells,
    }
}

fn build_tables() -> Tables {
    let topo = Topology::rect(FILES as u8, RANKS as u8);
    let forms = [build_form(&topo, false), build_form(&topo, true)];
    let mut rays = Vec::with_capacity(8 * NSQ);
    for &(dx, dy) in &DIRS {
        for sq in 0..NSQ {
            let mut r = ArrayVec::new();
            let mut s = Square(sq as u16);
            while let Some(t) = topo.walk(s, [dx, dy, 0]) {
                r.push(t.0 as u8);
                s = t;
            }
            rays.push(r);
        }
    }
    let mut rng = SplitMix64(0xda1_317e_6100);
    let piece_keys = (0..NCODES * NSQ).map(|_| rng.next()).collect();
    let hand_keys = (0..2 * NROLES * (MAX_HAND + 1))
        .map(|i| {
            if i % (MAX_HAND + 1) == 0 {
                0
            } else {
                rng.next()
            }
        })
        .collect();
    let side_key = rng.next();
    Tables {
        topo,
        forms,
        rays,
        piece_keys,
        hand_keys,
        side_key,
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

impl Tables {
    #[inline]
    fn piece_key(&self, c: u8, sq: usize) -> u64 {
        self.piece_keys[c as usize * NSQ + sq]
    }
    #[inline]
    fn hand_key(&self, color: Color, role: usize, n: u8) -> u64 {
        self.hand_keys[(color.index() * NROLES + role) * (MAX_HAND + 1) + n as usize]
    }
}

impl FormTables {
    #[inline]
    fn leaps_of(&self, color: Color, class: usize, sq: usize) -> &[Leap] {
        let (s, n) = self.leap_idx[(color.index() * NCLASSES + class) * NSQ + sq];
        &self.leaps[s as usize..s as usize + n as usize]
    }
    #[inline]
    fn dead(&self, color: Color, class: usize, sq: usize) -> bool {
        self.dead[(color.index() * NCLASSES + class) * NSQ + sq]
    }
}

/// Visits each piece of `by` that attacks `sq` on `board` (its code and cell), leapers first,
/// until `visit` says to stop; whether it stopped.
#[inline]
fn visit_attackers(
    ft: &FormTables,
    t: &Tables,
    board: &[u8; NSQ],
    sq: usize,
    by: Color,
    mut visit: impl FnMut(u8, usize) -> ControlFlow<()>,
) -> bool {
    let (s, n) = ft.rev_idx[by.index() * NSQ + sq];
    for r in &ft.rev[s as usize..s as usize + n as usize] {
        let c = board[r.from as usize];
        if c != 0
            && color_of(c) == by
            && r.mask & (1 << class_of(c)) != 0
            && (!r.lame || board[r.mid as usize] == 0)
            && visit(c, r.from as usize).is_break()
        {
            return true;
        }
    }
    for d in 0..8 {
        for &x in &t.rays[d * NSQ + sq] {
            let c = board[x as usize];
            if c != 0 {
                // The attacker slides in the opposite direction: DIRS pairs are (2k, 2k+1).
                if color_of(c) == by
                    && ft.slides[by.index()][class_of(c)] & (1 << (d ^ 1)) != 0
                    && visit(c, x as usize).is_break()
                {
                    return true;
                }
                break;
            }
        }
    }
    false
}

/// Whether `sq` is attacked by `by` on `board`.
fn attacked(ft: &FormTables, t: &Tables, board: &[u8; NSQ], sq: usize, by: Color) -> bool {
    visit_attackers(ft, t, board, sq, by, |_, _| ControlFlow::Break(()))
}

/// Worst case of the legal move list. Board moves: each side has at most 59 pieces on the
/// board (the game has 118 and each keeps its King), and one piece has at most 45 targets (a
/// Goldrider: 30 orthogonal plus 15 forward-diagonal; a Rook or Bishop has at most 30 and may
/// double them with promotion options, 60), so at most 59 * 60 = 3540 board moves. Drops: at
/// most 18 roles in hand times 256 cells = 4608. Total under 8192 + headroom: 10240.
pub const MAX_MOVES: usize = 10240;

/// The move list of Dai Mitregi.
pub type DaiMitregiMoves = ArrayVec<Move, MAX_MOVES>;

/// The board as a bitboard: 256 cells, four words.
type DaiBb = BbWide<4>;

/// A cell set built one cell at a time in four separate words, which stay in registers
/// (writing into a [`DaiBb`] by a computed word index goes through memory, one dependent
/// read-modify-write per cell; with this set the search with the walk is 9% faster).
#[derive(Default)]
struct CellSet(u64, u64, u64, u64);

impl CellSet {
    #[inline]
    fn add(&mut self, cell: u8) {
        let bit = 1u64 << (cell & 63);
        let word = cell >> 6;
        self.0 |= if word == 0 { bit } else { 0 };
        self.1 |= if word == 1 { bit } else { 0 };
        self.2 |= if word == 2 { bit } else { 0 };
        self.3 |= if word == 3 { bit } else { 0 };
    }
    #[inline]
    fn board(&self) -> DaiBb {
        BbWide([self.0, self.1, self.2, self.3])
    }
}

/// A Dai Mitregi position (copy-make, no heap); `STEPPING` picks the form.
///
/// The mailbox answers "what is on this cell"; the occupancy bitboards per side answer "which
/// cells" (the pieces to move, the empty cells to drop on) without walking 256 cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DaiMitregiPos<const STEPPING: bool> {
    board: [u8; NSQ],
    occupied: [DaiBb; 2],
    hands: [[u8; NROLES]; 2],
    kings: [u8; 2],
    /// Pieces per side and material kind (class), board and hand together: what
    /// [`Game::material`] reports. Kept up to date by [`Game::play_unchecked`] (only captures and
    /// promotions change it) so the evaluation need not walk the board a second time for it.
    counts: [[u8; NCLASSES]; 2],
    turn: Color,
    hash: u64,
    /// Plies since the position was read, the halfmove clock: no move is irreversible in a
    /// drop game (captured pieces return to play), so repetition looks back over the whole
    /// game.
    plies: u32,
}

/// The Leaping form (the default).
pub type DaiMitregi = DaiMitregiPos<false>;
/// The Stepping form.
pub type DaiMitregiStepping = DaiMitregiPos<true>;

fn in_zone(color: Color, sq: usize) -> bool {
    let r = sq / FILES;
    match color {
        Color::White => r >= RANKS - ZONE_DEPTH,
        Color::Black => r < ZONE_DEPTH,
    }
}

fn aligned(a: usize, b: usize) -> bool {
    let (fa, ra) = ((a % FILES) as i32, (a / FILES) as i32);
    let (fb, rb) = ((b % FILES) as i32, (b / FILES) as i32);
    fa == fb || ra == rb || (fa - fb).abs() == (ra - rb).abs()
}

impl<const STEPPING: bool> DaiMitregiPos<STEPPING> {
    #[inline]
    fn form(&self) -> &'static FormTables {
        &tables().forms[STEPPING as usize]
    }

    /// The piece code on a cell name, for tests: `None` if empty or not a cell.
    pub fn piece_at(&self, name: &str) -> Option<(Color, &'static str, bool)> {
        let sq = tables().topo.parse_square(name)?;
        let c = self.board[sq.index()];
        (c != 0).then(|| (color_of(c), ROLES[role_of(c)].name, promoted(c)))
    }

    /// How many pieces of the role with `letter` `color` holds in hand.
    pub fn in_hand(&self, color: Color, letter: char) -> u8 {
        crate::piece::index_of_letter(&ROLES, letter).map_or(0, |r| self.hands[color.index()][r])
    }

    fn full_hash(&self) -> u64 {
        let t = tables();
        let mut h = 0;
        for (sq, &c) in self.board.iter().enumerate() {
            if c != 0 {
                h ^= t.piece_key(c, sq);
            }
        }
        for color in Color::ALL {
            for r in 0..NROLES {
                h ^= t.hand_key(color, r, self.hands[color.index()][r]);
            }
        }
        if self.turn == Color::Black {
            h ^= t.side_key;
        }
        h
    }

    fn is_attacked(&self, sq: usize, by: Color) -> bool {
        attacked(self.form(), tables(), &self.board, sq, by)
    }

    /// Whether the side to move's King is attacked after moving `from` to `to` (and placing
    /// `code` there).
    fn exposes(&self, from: Option<usize>, to: usize, c: u8) -> bool {
        let mut b = self.board;
        if let Some(f) = from {
            b[f] = 0;
        }
        b[to] = c;
        let k = if role_of(c) == KING {
            to
        } else {
            self.kings[self.turn.index()] as usize
        };
        attacked(self.form(), tables(), &b, k, !self.turn)
    }

    /// Legal moves into `out`; drops only when `drops` (the quiescence search asks without).
    fn gen(&self, out: &mut DaiMitregiMoves, drops: bool) {
        let t = tables();
        let ft = self.form();
        let us = self.turn;
        let king = self.kings[us.index()] as usize;
        let check = self.is_attacked(king, !us);
        let mut movers = self.occupied[us.index()];
        while let Some(from) = next_cell(&mut movers, us) {
            let c = self.board[from];
            let class = class_of(c);
            let risky = check || role_of(c) == KING || aligned(from, king);
            let can_promote = !promoted(c);
            let from_zone = in_zone(us, from);
            let mut emit = |to: usize| {
                if risky && self.exposes(Some(from), to, c) {
                    return;
                }
                let (f, tt) = (Square(from as u16), Square(to as u16));
                if can_promote && (from_zone || in_zone(us, to)) {
                    out.push(Move::new(f, tt, MoveKind::Promotion, Role(0)));
                    if ft.dead(us, class, to) {
                        return;
                    }
                }
                out.push(Move::normal(f, tt));
            };
            for l in ft.leaps_of(us, class, from) {
                let d = self.board[l.to as usize];
                if (d == 0 || (color_of(d) != us && role_of(d) != KING))
                    && (!l.lame || self.board[l.mid as usize] == 0)
                {
                    emit(l.to as usize);
                }
            }
            let sl = ft.slides[us.index()][class];
            if sl != 0 {
                for i in 0..8 {
                    // Opposite directions pair up as (2k, 2k + 1): Black's i-th is White's
                    // i-th turned half a turn.
                    let d = if us == Color::Black { i ^ 1 } else { i };
                    if sl & (1 << d) == 0 {
                        continue;
                    }
                    for &x in &t.rays[d * NSQ + from] {
                        let e = self.board[x as usize];
                        if e == 0 {
                            emit(x as usize);
                        } else {
                            if color_of(e) != us && role_of(e) != KING {
                                emit(x as usize);
                            }
                            break;
                        }
                    }
                }
            }
        }
        // Drops.
        let hand = &self.hands[us.index()];
        if !drops || hand.iter().all(|&n| n == 0) {
            return;
        }
        let mut counts = [[0u8; FILES]; NROLES];
        for sq in self.occupied[us.index()].squares() {
            let (sq, c) = (sq.index(), self.board[sq.index()]);
            if !promoted(c) {
                let r = role_of(c);
                if let Some((g, _)) = ROLES[r].extra.limit.group(sq) {
                    counts[r][g] += 1;
                }
            }
        }
        let mut empty = !(self.occupied[0] | self.occupied[1]);
        if check {
            // A drop can only answer a check by blocking it: on an empty cell between the King
            // and the first piece along one of its eight lines (the halfway cell of a lame
            // two-cell attack is such a cell too). Every candidate is still tested below.
            let mut lines = DaiBb::EMPTY;
            for d in 0..8 {
                for &x in &t.rays[d * NSQ + king] {
                    if self.board[x as usize] != 0 {
                        break;
                    }
                    lines.insert(Square(x as u16));
                }
            }
            empty &= lines;
        }
        for (r, &n) in hand.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let c = code(us, r, false);
            let mut cells = empty & ft.drop_cells[us.index()][r];
            while let Some(to) = next_cell(&mut cells, us) {
                if let Some((g, max)) = ROLES[r].extra.limit.group(to) {
                    if counts[r][g] >= max {
                        continue;
                    }
                }
                if check && self.exposes(None, to, c) {
                    continue;
                }
                let s = Square(to as u16);
                out.push(Move::new(s, s, MoveKind::Drop, Role(r as u8)));
            }
        }
    }

    /// Pieces per side and material kind, board and hands, counted afresh (the position's
    /// `counts` from scratch).
    fn count_material(&self) -> [[u8; NCLASSES]; 2] {
        let mut m = [[0; NCLASSES]; 2];
        for color in Color::ALL {
            let counts = &mut m[color.index()];
            self.each_piece(color, |_, c| counts[Self::kind_of(c)] += 1);
            for (count, &n) in counts.iter_mut().zip(&self.hands[color.index()]) {
                *count += n;
            }
        }
        m
    }

    /// Calls `f(cell, code)` for each of `color`'s pieces on the board, lowest cell first.
    /// Why: the evaluation's cell tables visit only the occupied cells (about half of the 256
    /// at the start, fewer later) instead of the whole mailbox, and a word at a time rather
    /// than [`Bitboard::squares`], which rescans from the first word for every cell.
    #[inline]
    fn each_piece(&self, color: Color, mut f: impl FnMut(usize, u8)) {
        self.occupied[color.index()].for_each_index(|sq| f(sq, self.board[sq]));
    }

    /// Material kind of a code: its role, or `NROLES + promotee` when promoted.
    fn kind_of(c: u8) -> usize {
        class_of(c)
    }

    /// The default value of a piece code, [`ROYAL`] for the King (never the cheaper attacker).
    #[inline]
    fn default_worth(c: u8) -> i32 {
        WORTHS[(c & (BLACK_BIT - 1)) as usize]
    }
}

impl<const STEPPING: bool> Game for DaiMitregiPos<STEPPING> {
    type Moves = DaiMitregiMoves;

    super::kernel::game_fields! {
        start: Self::from_text(START),
        name: if STEPPING { INFO_STEPPING.name } else { INFO.name },
        clock: plies,
    }
    super::kernel::notation_and_evaluation!();

    /// Up to [`NET_HAND`] pieces in hand per kind are told apart.
    fn net_shape(&self) -> crate::nnue::NetShape {
        crate::nnue::NetShape {
            hand: NET_HAND,
            extras: 0,
        }
    }
    fn legal_moves(&self, out: &mut DaiMitregiMoves) {
        self.gen(out, true)
    }
    /// Drops are quiet, and out of check a position with a legal board move needs no drop
    /// list to know it is not stalemate.
    fn quiescence_moves(&self, out: &mut DaiMitregiMoves) -> bool {
        if self.in_check() {
            self.gen(out, true);
        } else {
            self.gen(out, false);
            if out.is_empty() {
                self.gen(out, true);
            }
        }
        !out.is_empty()
    }
    /// Plays a move (legal, from [`Game::legal_moves`]).
    fn play_unchecked(&mut self, m: Move) {
        let t = tables();
        let us = self.turn;
        let to = m.to().index();
        if m.kind() == MoveKind::Drop {
            let r = m.role().index();
            let n = self.hands[us.index()][r];
            self.hash ^= t.hand_key(us, r, n) ^ t.hand_key(us, r, n - 1);
            self.hands[us.index()][r] = n - 1;
            let c = code(us, r, false);
            self.board[to] = c;
            self.occupied[us.index()].insert(m.to());
            self.hash ^= t.piece_key(c, to);
        } else {
            let from = m.from().index();
            let c = self.board[from];
            let victim = self.board[to];
            if victim != 0 {
                let r = role_of(victim);
                let n = self.hands[us.index()][r];
                self.hash ^=
                    t.piece_key(victim, to) ^ t.hand_key(us, r, n) ^ t.hand_key(us, r, n + 1);
                self.hands[us.index()][r] = n + 1;
                self.occupied[(!us).index()].remove(m.to());
                // The victim leaves the enemy's material for ours, unpromoted, in hand.
                self.counts[(!us).index()][class_of(victim)] -= 1;
                self.counts[us.index()][r] += 1;
            }
            let nc = if m.kind() == MoveKind::Promotion {
                self.counts[us.index()][class_of(c)] -= 1;
                self.counts[us.index()][class_of(c | PROMOTED_BIT)] += 1;
                c | PROMOTED_BIT
            } else {
                c
            };
            self.board[from] = 0;
            self.board[to] = nc;
            self.occupied[us.index()].remove(m.from());
            self.occupied[us.index()].insert(m.to());
            self.hash ^= t.piece_key(c, from) ^ t.piece_key(nc, to);
            if role_of(c) == KING {
                self.kings[us.index()] = to as u8;
            }
        }
        self.turn = !us;
        self.hash ^= t.side_key;
        self.plies += 1;
        debug_assert_eq!(self.hash, self.full_hash(), "incremental hash drifted");
        debug_assert_eq!(
            self.counts,
            self.count_material(),
            "material counts drifted"
        );
    }
    fn in_check(&self) -> bool {
        self.is_attacked(self.kings[self.turn.index()] as usize, !self.turn)
    }
    /// The rules have no move-count rule.
    fn move_rule_plies(&self) -> u32 {
        u32::MAX
    }
    /// Passing flips the side to move and its hash key; the hands are hashed per owner, not
    /// per mover, so they need nothing, and the ply count counts the pass. `None` in check.
    fn null_move(&self) -> Option<Self> {
        (!self.in_check()).then(|| super::kernel::passed!(self, tables().side_key, plies))
    }
    fn eval_cells(&self) -> usize {
        NSQ
    }
    fn royal_cells(&self) -> Option<crate::game::RoyalCells> {
        super::kernel::flat_royal_cells(self.kings.map(usize::from), FILES, RANKS)
    }
    /// The lowest cell's piece of material kind `kind` taken off the board (not the King;
    /// pieces in hand stay). `None` where none stands on the board.
    fn without_material(&self, color: Color, kind: usize) -> Option<Self> {
        let sq = (0..NSQ).find(|&s| {
            let c = self.board[s];
            c != 0 && color_of(c) == color && class_of(c) == kind && role_of(c) != KING
        })?;
        let mut p = *self;
        p.counts[color.index()][kind] -= 1;
        p.board[sq] = 0;
        p.occupied[color.index()].remove(Square(sq as u16));
        p.hash = p.full_hash();
        Some(p)
    }
    /// A promotion's move carries no role: its kind is the promoted form of the piece moving.
    fn rules_used(&self, m: Move) -> Vec<crate::game::RuleUse> {
        let kind = match m.kind() {
            MoveKind::Promotion => class_of(self.board[m.from().index()] | PROMOTED_BIT),
            _ => m.role().index(),
        };
        crate::game::rules_of_kind(self, m, kind)
    }
    fn material_kinds(&self) -> Vec<(&'static str, i32)> {
        crate::piece::material_kinds(&ROLES)
            .chain(crate::piece::material_kinds(&PROMOTED))
            .collect()
    }
    fn material(&self) -> Material {
        let mut m = [[0; MAX_KINDS]; 2];
        for (side, counts) in m.iter_mut().zip(&self.counts) {
            for (wide, &n) in side.iter_mut().zip(counts) {
                *wide = n as u16;
            }
        }
        m
    }
    fn is_tactical(&self, m: Move) -> bool {
        // A drop lands on an empty cell, so it is never a capture.
        m.kind() == MoveKind::Promotion || self.board[m.to().index()] != 0
    }
    fn moving_kind(&self, m: Move) -> Option<usize> {
        if m.kind() == MoveKind::Drop {
            return Some(m.role().index());
        }
        match self.board[m.from().index()] {
            0 => None,
            c => Some(Self::kind_of(c)),
        }
    }
    fn captured_kind(&self, m: Move) -> Option<usize> {
        match self.board[m.to().index()] {
            0 => None,
            c => Some(Self::kind_of(c)),
        }
    }
    fn positional(&self) -> i32 {
        self.positional_terms()
    }
}

#[cfg(test)]
mod tests;

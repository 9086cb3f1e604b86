//! Variant descriptions (data) and their compiled form.
//!
//! A chess-family variant is a [`VariantSpec`]: a topology, a list of [`PieceSpec`]s, a start
//! position and a few rule records (pawn double step, promotion, castling, move-count rule).
//! [`Rules::compile`] turns it into tables once; the variant file keeps the result in a
//! `OnceLock` and move generation reads only the compiled form.

use crate::attacks::AttackTables;
use crate::bitboard::Bitboard;
use crate::ends::EndValue;
use crate::geometry::Topology;
use crate::piece::{betza, PieceSpec};
use crate::zobrist::Zobrist;
use crate::{Color, Role, Square};

/// How the text format writes state beyond the board and side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FenStyle {
    /// FEN: castling and en passant fields, then the two counters.
    Chess,
    /// Board and side, then optionally the two counters.
    Plain,
}

/// A pawn's initial double step and the en passant capture that goes with it.
#[derive(Clone, Copy, Debug)]
pub struct DoubleStep {
    /// The piece that may double-step.
    pub letter: char,
    /// 0-based rank from which each side may double-step, White first.
    pub ranks: [i16; 2],
    /// Whether an enemy pawn may capture the double-stepper en passant (chess: yes).
    pub en_passant: bool,
    /// Whether a side's pawns on its first rank may double-step too, White first (Horde's
    /// White). Such a step gives no en passant right: Horde's `enPassantRegion` in
    /// Fairy-Stockfish leaves out the cell it passes.
    pub first_rank: [bool; 2],
}

/// When repeated positions end the game: at a position's `occurrences`-th occurrence (3 in
/// chess; 0: never, a repeated position plays on), with `result` for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RepetitionRule {
    /// The occurrence that ends the game: 0 (never) or at least 2.
    pub occurrences: u32,
    /// What it means for the side to move then.
    pub result: EndValue,
}

impl RepetitionRule {
    /// Chess's: the third occurrence of a position is a draw.
    pub const THREEFOLD: RepetitionRule = RepetitionRule {
        occurrences: 3,
        result: EndValue::Draw,
    };
    /// No repetition rule.
    pub const NONE: RepetitionRule = RepetitionRule {
        occurrences: 0,
        result: EndValue::Draw,
    };

    /// Whether a position seen `earlier` times before ends the game here.
    pub fn ends(self, earlier: usize) -> bool {
        self.occurrences > 0 && earlier + 1 >= self.occurrences as usize
    }
}

/// Which pieces promote, where, and to what.
#[derive(Clone, Debug)]
pub struct PromotionRule {
    /// Letters of the pieces that promote.
    pub pieces: &'static [char],
    /// Promotion cells for each side, White first, by name.
    pub zone: [Vec<&'static str>; 2],
    /// Letters of the pieces one may promote to.
    pub choices: &'static [char],
    /// Whether promotion is forced (chess) or optional (Dream Chess 46).
    pub mandatory: bool,
    /// Whether a choice is available only while the side has fewer of it on the board than
    /// in the start position (Dream Chess 46: "a piece it has lost").
    pub only_lost: bool,
}

/// One castling move, written as the King's move.
#[derive(Clone, Copy, Debug)]
pub struct CastlingSpec {
    /// The FEN rights letter (`K`, `Q`, `k`, `q`).
    pub right: char,
    /// Whose castling it is.
    pub color: Color,
    /// King's cell before and after.
    pub king: (&'static str, &'static str),
    /// Rook's cell before and after.
    pub rook: (&'static str, &'static str),
    /// Letter of the piece the King castles with.
    pub rook_letter: char,
}

/// What resets the move-count clock.
#[derive(Clone, Copy, Debug)]
pub struct ClockRule {
    /// Letters of pieces whose every move resets it (chess: the Pawn).
    pub reset_by: &'static [char],
    /// Whether a promotion resets it (Dream Chess 46: Stewards move backwards, so only
    /// captures and promotions make progress).
    pub promotion_resets: bool,
}

/// Pieces in hand and drops (crazyhouse): captured pieces go to the captor's hand, demoted to
/// the first promoting kind if they had promoted, and a move may put a piece from the hand on
/// an empty cell (`P@e4`). As in Fairy-Stockfish's defaults, a Pawn (the double-stepping
/// piece) is never dropped on its side's promotion zone or first rank.
#[derive(Clone, Copy, Debug)]
pub struct DropRule {
    /// Whether a drop may give check (Fairy-Stockfish's `dropChecks`; crazyhouse: yes).
    pub checks: bool,
}

/// Per cell: the (passed, destination) cells of a double step from there, if any, and whether
/// it gives an en passant right.
pub type DoubleSteps = Vec<Option<(Square, Square, bool)>>;

/// A chess-family variant as data.
#[derive(Clone, Debug)]
pub struct VariantSpec {
    /// Command-line name (`dream-chess-46`).
    pub name: &'static str,
    /// Title for reports.
    pub title: &'static str,
    /// The project's rules reference (`docs/rules/`) this implements.
    pub rules_file: &'static str,
    /// The board.
    pub topology: Topology,
    /// The pieces; the order fixes the roles. At most one is royal; a side whose start
    /// position has none plays without one (Horde's White, Fairy-Stockfish's `king = -`).
    pub pieces: Vec<PieceSpec>,
    /// Start position in the variant's text format.
    pub start: &'static str,
    /// Text format style.
    pub fen_style: FenStyle,
    /// Pawn double step and en passant, where the variant has them.
    pub double_step: Option<DoubleStep>,
    /// Promotion, where the variant has it.
    pub promotion: Option<PromotionRule>,
    /// Castling moves.
    pub castling: Vec<CastlingSpec>,
    /// Move-count clock.
    pub clock: ClockRule,
    /// Plies without a clock reset after which the game is drawn (100 = chess's 50 moves);
    /// 0 = no move-count rule.
    pub move_rule_plies: u32,
    /// When a repeated position ends the game (chess: the third occurrence draws); without a
    /// rule it goes on (the self-play ply cap still ends the game).
    pub repetition: RepetitionRule,
    /// What stalemate means.
    pub stalemate: EndValue,
    /// Whether the FIDE dead-position shortcuts (K v K, K+minor v K, same-coloured Bishops)
    /// end the game.
    pub insufficient_material: bool,
    /// Which parts are reconstructions or decisions, for `variantlab variants`.
    pub notes: &'static [&'static str],
    /// Self-play's ply cap ([`VariantInfo::max_plies`](crate::variants::VariantInfo::max_plies)).
    pub max_plies: u32,
    /// Ends besides checkmate and stalemate (flag, check count, extinction).
    pub end: crate::ends::EndRules,
    /// Pieces in hand and drops, where the variant has them.
    pub drops: Option<DropRule>,
    /// Whether a side that can capture must (antichess, Fairy-Stockfish's `mustCapture`):
    /// where any legal move captures, the moves that do not are illegal.
    pub must_capture: bool,
}

/// A compiled castling move.
#[derive(Clone, Copy, Debug)]
pub struct Castling<B> {
    /// Rights bit.
    pub bit: u8,
    /// Owner.
    pub color: Color,
    /// King's cells.
    pub king_from: Square,
    /// King's destination.
    pub king_to: Square,
    /// Rook's cells.
    pub rook_from: Square,
    /// Rook's destination.
    pub rook_to: Square,
    /// The rook's role.
    pub rook_role: Role,
    /// Cells that must be empty (apart from the King and Rook themselves).
    pub must_be_empty: B,
    /// Cells the King passes or lands on, which must not be attacked (tested with the
    /// castling Rook lifted).
    pub king_path: B,
}

/// [`Rules::king`] of a variant without a royal piece: a role no piece has.
pub const NO_ROYAL: Role = Role(u8::MAX);

/// A [`VariantSpec`] compiled into tables.
#[derive(Debug)]
pub struct Rules<B> {
    /// The source description.
    pub spec: VariantSpec,
    /// Leap and ride tables.
    pub tables: AttackTables<B>,
    /// Hash keys.
    pub zobrist: Zobrist,
    /// Every existing cell.
    pub board: B,
    /// The royal piece ([`NO_ROYAL`] in a variant without one).
    pub king: Role,
    /// Whether each side (White first) has a royal piece: it has in the start position.
    /// A side without one is never in check and every pseudo-legal move of its is legal.
    pub royal: [bool; 2],
    /// The role that double-steps, and per side and cell the (passed, destination) cells of
    /// its double step, if it may make one from there.
    pub double_step: Option<(Role, [DoubleSteps; 2])>,
    /// Whether a double step gives the en passant right (read on every double step, kept
    /// here so the hot path does not reach into the spec).
    pub en_passant: bool,
    /// Roles that promote, as a bit set.
    pub promoting: u64,
    /// Promotion cells per side.
    pub promotion_zone: [B; 2],
    /// Roles one may promote to.
    pub promotion_choices: Vec<Role>,
    /// Per side, where its promoting pieces (Pawns) may not be dropped: its promotion zone
    /// and its first rank (Fairy-Stockfish's defaults).
    pub pawn_drop_barred: [B; 2],
    /// Start-position count of each role for White (the variants here are symmetric).
    pub initial_count: Vec<u8>,
    /// Castling moves.
    pub castling: Vec<Castling<B>>,
    /// Per cell: the castling rights that survive a move from or to it.
    pub castling_keep: Vec<u8>,
    /// Roles whose every move resets the clock, as a bit set.
    pub clock_resetters: u64,
    /// Per cell: the cell as Black sees it, for the evaluation's tables written from White's
    /// side: the rank mirror, or the half turn on boards that only a half turn maps onto
    /// themselves (Dream Chess 46's opposite supersquares).
    pub black_view: Vec<Square>,
    /// The evaluation's pawn-structure tables, where the variant has them.
    pub pawn_structure: Option<PawnStructure<B>>,
    /// The variant's own ends, where it has any ([`crate::ends`]).
    pub end: Option<crate::ends::EndTables<B>>,
}

/// Where pawn structure means something: a flat board whose promoting pieces only ever move
/// towards higher ranks (for White), like chess's pawn (not Dream Chess 46's Steward, which
/// steps sideways and back). Per side and cell, the cells ahead on the same file and on the
/// same and neighbouring files; per cell, the neighbouring files; per side and cell, the
/// rank from that side. Computed once, so the evaluation only masks.
#[derive(Clone, Debug)]
pub struct PawnStructure<B> {
    /// The pawn roles (the promoting ones), as a bit set.
    pub roles: u64,
    /// The board's ranks.
    pub ranks: usize,
    /// Cells ahead on the same file, per side and cell.
    pub front_file: [Vec<B>; 2],
    /// Cells ahead on the same and neighbouring files, per side and cell: a pawn with no
    /// enemy pawn there is passed.
    pub front_span: [Vec<B>; 2],
    /// Cells on the neighbouring files, per cell: a pawn with none of its own there is
    /// isolated.
    pub neighbour_files: Vec<B>,
    /// Rank of each cell counted from each side.
    pub relative_rank: [Vec<u8>; 2],
    /// The whole file of each cell: a piece on a file without its own pawns stands on a
    /// half-open file (open without any pawn).
    pub file: Vec<B>,
    /// Per side and royal cell, the cells of its shelter on the royal piece's and the
    /// neighbouring files: one rank ahead, and two ranks ahead.
    pub shelter: [Vec<[B; 2]>; 2],
    /// Per side and cell, the cell one rank ahead on the same file (empty on the last rank):
    /// where a passed pawn is blocked, and the cell whose distance from each royal piece counts.
    pub stop: [Vec<B>; 2],
    /// Per cell, the cells beside it: the same rank, the neighbouring files (a pawn with one
    /// of its own there stands in a phalanx).
    pub beside: Vec<B>,
    /// Per side, the cells where its space counts: the central half of the files, on the
    /// ranks of its own half past the first (chess: c to f, ranks 2 to 4).
    pub space: [B; 2],
    /// The cells of each colour of the chequering (`(file + rank) % 2`).
    pub colour: [B; 2],
    /// Per cell, its colour (0 or 1).
    pub parity: Vec<u8>,
    /// Roles bound to one colour (every move keeps the colour: chess's Bishop), as a bit
    /// set: their own pawns on their colour get a weight (`eval::KindTerm::ColourPawns`).
    pub colour_bound: u64,
    /// The distance in royal steps (the larger of the file and rank distances) between two
    /// cells, at `a * cells + b`: looked up, not computed, at every node.
    steps: Vec<u8>,
    /// The board's cell indices (the row length of `steps`).
    cells: usize,
}

impl<B: Bitboard> PawnStructure<B> {
    /// Whether role index `r` is a pawn (a promoting role).
    pub fn is_pawn(&self, r: usize) -> bool {
        self.roles >> r & 1 == 1
    }

    /// Whether role index `r` never leaves the colour of its cell.
    pub fn is_colour_bound(&self, r: usize) -> bool {
        self.colour_bound >> r & 1 == 1
    }

    /// The distance in royal steps between cells `a` and `b`.
    #[inline]
    pub fn steps(&self, a: Square, b: Square) -> u32 {
        u32::from(self.steps[a.index() * self.cells + b.index()])
    }

    /// The tables for a board and its promoting roles, or `None` where a promoting piece
    /// moves or captures other than forwards or the board has levels.
    fn build(topo: &Topology, tables: &AttackTables<B>, roles: u64) -> Option<PawnStructure<B>> {
        let (_, ranks, levels) = topo.dims();
        if roles == 0 || levels > 1 {
            return None;
        }
        // Every cell a role could go to from `sq` on an empty board.
        let reach = |role: Role, sq: Square| {
            let mut reach = tables.leap_moves(Color::White, role, sq)
                | tables.leap_captures(Color::White, role, sq);
            for &slot in tables.rides(Color::White, role) {
                reach |= tables.ride(slot, sq, B::EMPTY);
            }
            reach
        };
        for r in (0..tables.num_roles()).filter(|r| roles >> r & 1 == 1) {
            for sq in topo.cells() {
                let rank = topo.coord(sq).rank;
                if reach(Role(r as u8), sq)
                    .squares()
                    .any(|t| topo.coord(t).rank <= rank)
                {
                    return None;
                }
            }
        }
        let parity = |sq: Square| {
            let c = topo.coord(sq);
            ((c.file + c.rank) & 1) as u8
        };
        let colour_bound = (0..tables.num_roles())
            .filter(|&r| roles >> r & 1 == 0)
            .filter(|&r| {
                let mut moves = false;
                let bound = topo.cells().all(|sq| {
                    let to = reach(Role(r as u8), sq);
                    moves |= to.any();
                    to.squares().all(|t| parity(t) == parity(sq))
                });
                bound && moves
            })
            .fold(0u64, |set, r| set | 1 << r);
        let n = topo.num_squares();
        let mask = |keep: &dyn Fn(crate::geometry::Coord) -> bool| {
            let mut b = B::EMPTY;
            for t in topo.cells() {
                if keep(topo.coord(t)) {
                    b.insert(t);
                }
            }
            b
        };
        let mut front_file = [vec![B::EMPTY; n], vec![B::EMPTY; n]];
        let mut front_span = [vec![B::EMPTY; n], vec![B::EMPTY; n]];
        let mut neighbour_files = vec![B::EMPTY; n];
        let mut relative_rank = [vec![0u8; n], vec![0u8; n]];
        let mut file = vec![B::EMPTY; n];
        let mut shelter = [vec![[B::EMPTY; 2]; n], vec![[B::EMPTY; 2]; n]];
        let mut stop = [vec![B::EMPTY; n], vec![B::EMPTY; n]];
        let mut beside = vec![B::EMPTY; n];
        let mut space = [B::EMPTY; 2];
        let mut colour = [B::EMPTY; 2];
        let mut parities = vec![0u8; n];
        let (files, quarter) = (i16::from(topo.dims().0), i16::from(topo.dims().0) / 4);
        let mut steps = vec![0u8; n * n];
        for a in topo.cells() {
            for b in topo.cells() {
                let (ca, cb) = (topo.coord(a), topo.coord(b));
                let d = (ca.file - cb.file).abs().max((ca.rank - cb.rank).abs());
                steps[a.index() * n + b.index()] = d as u8;
            }
        }
        for sq in topo.cells() {
            let c = topo.coord(sq);
            let i = sq.index();
            for side in Color::ALL {
                let ahead = |r: i16| match side {
                    Color::White => r > c.rank,
                    Color::Black => r < c.rank,
                };
                front_file[side.index()][i] = mask(&|t| t.file == c.file && ahead(t.rank));
                front_span[side.index()][i] =
                    mask(&|t| (t.file - c.file).abs() <= 1 && ahead(t.rank));
                let forward = match side {
                    Color::White => 1,
                    Color::Black => -1,
                };
                let rank_ahead = |steps: i16| c.rank + forward * steps;
                shelter[side.index()][i] = [1, 2].map(|steps| {
                    mask(&|t| (t.file - c.file).abs() <= 1 && t.rank == rank_ahead(steps))
                });
                stop[side.index()][i] = mask(&|t| t.file == c.file && t.rank == rank_ahead(1));
                relative_rank[side.index()][i] = match side {
                    Color::White => c.rank as u8,
                    Color::Black => (i16::from(ranks) - 1 - c.rank) as u8,
                };
            }
            neighbour_files[i] = mask(&|t| (t.file - c.file).abs() == 1);
            file[i] = mask(&|t| t.file == c.file);
            beside[i] = mask(&|t| (t.file - c.file).abs() == 1 && t.rank == c.rank);
            parities[i] = parity(sq);
            colour[parity(sq) as usize].insert(sq);
            if c.file >= quarter && c.file < files - quarter {
                for side in Color::ALL {
                    let own_rank = relative_rank[side.index()][i] as usize;
                    if own_rank >= 1 && 2 * own_rank < ranks as usize {
                        space[side.index()].insert(sq);
                    }
                }
            }
        }
        Some(PawnStructure {
            roles,
            ranks: ranks as usize,
            front_file,
            front_span,
            neighbour_files,
            relative_rank,
            file,
            shelter,
            stop,
            beside,
            space,
            colour,
            parity: parities,
            colour_bound,
            steps,
            cells: n,
        })
    }
}

impl<B: Bitboard> Rules<B> {
    /// `sq` as the side `color` sees it ([`Rules::black_view`] for Black): the cell numbering
    /// of the evaluation's tables and the network's inputs.
    #[inline]
    pub fn owner_view(&self, color: Color, sq: Square) -> Square {
        match color {
            Color::White => sq,
            Color::Black => self.black_view[sq.index()],
        }
    }

    /// The castling of `color` whose King goes from `king_from` to `king_to`: a castling
    /// move's rule (the move holds only the King's cells).
    pub fn castling_of(
        &self,
        color: Color,
        king_from: Square,
        king_to: Square,
    ) -> Option<&Castling<B>> {
        self.castling
            .iter()
            .find(|c| c.color == color && c.king_from == king_from && c.king_to == king_to)
    }

    /// Compiles a specification.
    ///
    /// # Panics
    /// On an inconsistent specification (bad Betza string, two royal pieces, unknown letter):
    /// variant files are program data, and the test suite compiles every one of them.
    pub fn compile(spec: VariantSpec) -> Rules<B> {
        let topo = &spec.topology;
        let atoms: Vec<_> = spec
            .pieces
            .iter()
            .map(|p| betza::parse(p.betza).unwrap_or_else(|e| panic!("{}: {e}", p.name)))
            .collect();
        let tables = AttackTables::build(topo, &atoms);
        let role_of = |c: char| -> Role {
            let i = spec.pieces.iter().position(|p| p.letter == c);
            Role(i.unwrap_or_else(|| panic!("no piece with letter {c}")) as u8)
        };
        let set = |names: &[&str]| -> B {
            let mut b = B::EMPTY;
            for n in names {
                b.insert(
                    topo.parse_square(n)
                        .unwrap_or_else(|| panic!("no cell {n}")),
                );
            }
            b
        };
        let mut board = B::EMPTY;
        for sq in topo.cells() {
            board.insert(sq);
        }
        let royals: Vec<usize> = (0..spec.pieces.len())
            .filter(|&i| spec.pieces[i].royal)
            .collect();
        assert!(royals.len() <= 1, "{}: at most one royal piece", spec.name);
        let king = royals.first().map_or(NO_ROYAL, |&r| Role(r as u8));
        let double_step = spec.double_step.map(|d| {
            let steps = |color: Color| -> DoubleSteps {
                let dy = if color == Color::White { 1 } else { -1 };
                (0..topo.num_squares())
                    .map(|i| {
                        let sq = Square(i as u16);
                        if !topo.exists(sq) {
                            return None;
                        }
                        let rank = topo.coord(sq).rank;
                        let first = match color {
                            Color::White => 0,
                            Color::Black => i16::from(topo.dims().1) - 1,
                        };
                        let regular = rank == d.ranks[color.index()];
                        let from_first = d.first_rank[color.index()] && rank == first;
                        if !regular && !from_first {
                            return None;
                        }
                        let mid = topo.walk(sq, [0, dy, 0])?;
                        Some((mid, topo.walk(mid, [0, dy, 0])?, regular))
                    })
                    .collect()
            };
            (
                role_of(d.letter),
                [steps(Color::White), steps(Color::Black)],
            )
        });
        let (promoting, promotion_zone, promotion_choices) = match &spec.promotion {
            Some(p) => (
                p.pieces.iter().fold(0u64, |m, &c| m | 1 << role_of(c).0),
                [set(&p.zone[0]), set(&p.zone[1])],
                p.choices.iter().map(|&c| role_of(c)).collect(),
            ),
            None => (0, [B::EMPTY; 2], Vec::new()),
        };
        let mut initial_count = vec![0u8; spec.pieces.len()];
        let board_field = spec.start.split_whitespace().next().unwrap_or("");
        for ch in board_field.chars().filter(|c| c.is_ascii_uppercase()) {
            initial_count[role_of(ch).index()] += 1;
        }
        let royal = [true, false].map(|white| {
            royals.first().is_some_and(|&r| {
                let l = spec.pieces[r].letter;
                let l = if white { l } else { l.to_ascii_lowercase() };
                board_field.contains(l)
            })
        });
        let mut castling_keep = vec![0xffu8; topo.num_squares()];
        let castling: Vec<Castling<B>> = spec
            .castling
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let sq = |n: &str| {
                    topo.parse_square(n)
                        .unwrap_or_else(|| panic!("no cell {n}"))
                };
                let (kf, kt, rf, rt) = (sq(c.king.0), sq(c.king.1), sq(c.rook.0), sq(c.rook.1));
                let span = |a: Square, b: Square| -> B {
                    let (ca, cb) = (topo.coord(a), topo.coord(b));
                    let mut m = B::EMPTY;
                    for f in ca.file.min(cb.file)..=ca.file.max(cb.file) {
                        let mut c = ca;
                        c.file = f;
                        m.insert(topo.square_at(c).expect("castling on one rank"));
                    }
                    m
                };
                let bit = 1u8 << i;
                castling_keep[kf.index()] &= !bit;
                castling_keep[rf.index()] &= !bit;
                let own = B::from_square(kf) | B::from_square(rf);
                Castling {
                    bit,
                    color: c.color,
                    king_from: kf,
                    king_to: kt,
                    rook_from: rf,
                    rook_to: rt,
                    rook_role: role_of(c.rook_letter),
                    must_be_empty: (span(kf, kt) | span(rf, rt)) & !own,
                    king_path: span(kf, kt) & !B::from_square(kf),
                }
            })
            .collect();
        assert!(castling.len() <= 4, "at most four castling moves");
        let clock_resetters = spec
            .clock
            .reset_by
            .iter()
            .fold(0u64, |m, &c| m | 1 << role_of(c).0);
        let seed = crate::zobrist::fnv1a(spec.name.bytes());
        let mut zobrist = Zobrist::new(topo.num_squares(), 2 * spec.pieces.len() + 1, seed);
        if spec.drops.is_some() {
            zobrist = zobrist.with_hands(2 * spec.pieces.len() + 1, seed);
        }
        let rank_mirror_fits = topo.cells().all(|sq| topo.exists(topo.rank_mirror(sq)));
        let black_view = (0..topo.num_squares())
            .map(|i| {
                let sq = Square(i as u16);
                let m = topo.rank_mirror(sq);
                if rank_mirror_fits {
                    m
                } else {
                    let c = topo.coord(m);
                    let (files, _, _) = topo.dims();
                    topo.square_at(crate::geometry::Coord {
                        file: i16::from(files) - 1 - c.file,
                        ..c
                    })
                    .unwrap_or(m)
                }
            })
            .collect();
        let last = i16::from(topo.dims().1) - 1;
        let pawn_drop_barred = [(Color::White, 0), (Color::Black, last)].map(|(c, first)| {
            let mut b = promotion_zone[c.index()];
            for sq in topo.cells().filter(|&sq| topo.coord(sq).rank == first) {
                b.insert(sq);
            }
            b
        });
        let pawn_structure = PawnStructure::build(topo, &tables, promoting);
        let end = crate::ends::EndTables::compile(&spec.end, topo, role_of, seed);
        Rules {
            end,
            pawn_structure,
            en_passant: spec.double_step.is_some_and(|d| d.en_passant),
            black_view,
            king,
            royal,
            tables,
            zobrist,
            board,
            double_step,
            promoting,
            promotion_zone,
            promotion_choices,
            pawn_drop_barred,
            initial_count,
            castling,
            castling_keep,
            clock_resetters,
            spec,
        }
    }

    /// The role with FEN letter `c` (either case).
    pub fn role_of_letter(&self, c: char) -> Option<Role> {
        let up = c.to_ascii_uppercase();
        self.spec
            .pieces
            .iter()
            .position(|p| p.letter == up)
            .map(|i| Role(i as u8))
    }

    /// The FEN letter of a piece.
    pub fn letter(&self, color: Color, role: Role) -> char {
        let c = self.spec.pieces[role.index()].letter;
        match color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

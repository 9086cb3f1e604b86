//! The variants: one file each, holding only what is special about it.
//!
//! Runtime selection is [`VariantKind`] plus the [`with_variant!`](crate::with_variant) macro,
//! used once per job (a perft run, a game), so everything inside is monomorphised per variant.

pub mod chess;
pub mod dai_mitregi;
pub mod dialectic;
pub mod dream46;
pub mod extreme2d;
pub mod gateway;

use crate::bitboard::Bitboard;
use crate::game::{Game, Material, MAX_KINDS};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Position, Variant};
use crate::rules::VariantSpec;
use crate::{Color, Outcome};
use thiserror::Error;

pub use chess::Chess;
pub use dream46::Dream46;

/// Every implemented variant.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum VariantKind {
    /// Standard chess, the calibration variant.
    Chess,
    /// Dream Chess 46.
    Dream46,
    /// Extreme 2D Chess (stacks).
    Extreme2d,
    /// Gateway Chess (3D, Quantum King).
    Gateway,
    /// Dialectic Chess (Philosophers steered by tokens on a 3x3 dialectic).
    Dialectic,
    /// Hegelian Dialectic Chess (tokens may share a cell and step together).
    DialecticHegelian,
    /// Dai Mitregi, Leaping form (16x16, drops).
    DaiMitregi,
    /// Dai Mitregi, Stepping form (two-cell moves of central and Pawn-rank pieces are lame).
    DaiMitregiStepping,
}

/// What `variantlab variants` says about a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// Command-line name.
    pub name: &'static str,
    /// Title for reports.
    pub title: &'static str,
    /// The project's rules reference for the variant, relative to the repository root
    /// (`docs/rules/`).
    pub rules_file: &'static str,
    /// Files, ranks, levels of the bounding box.
    pub dims: (u8, u8, u8),
    /// Cells that exist.
    pub cells: usize,
    /// Reconstructions and decisions.
    pub notes: &'static [&'static str],
}

impl VariantInfo {
    /// The information of a chess-family variant, read off its description.
    pub fn of_spec(spec: &VariantSpec) -> VariantInfo {
        VariantInfo {
            name: spec.name,
            title: spec.title,
            rules_file: spec.rules_file,
            dims: spec.topology.dims(),
            cells: spec.topology.num_cells(),
            notes: spec.notes,
        }
    }
}

/// A variant name that is not implemented.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("unknown variant {name:?}; known variants: {}", VariantKind::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", "))]
pub struct UnknownVariant {
    /// The name given.
    pub name: String,
}

impl VariantKind {
    /// All implemented variants, in the order listed to users.
    pub const ALL: [VariantKind; 8] = [
        VariantKind::Chess,
        VariantKind::Dream46,
        VariantKind::Dialectic,
        VariantKind::DialecticHegelian,
        VariantKind::Extreme2d,
        VariantKind::Gateway,
        VariantKind::DaiMitregi,
        VariantKind::DaiMitregiStepping,
    ];

    /// Command-line name.
    pub fn name(self) -> &'static str {
        match self {
            VariantKind::Chess => "chess",
            VariantKind::Dream46 => "dream-chess-46",
            VariantKind::Extreme2d => "extreme-2d",
            VariantKind::Gateway => "gateway",
            VariantKind::Dialectic => "dialectic",
            VariantKind::DialecticHegelian => "dialectic-hegelian",
            VariantKind::DaiMitregi => "dai-mitregi",
            VariantKind::DaiMitregiStepping => "dai-mitregi-stepping",
        }
    }

    /// Board, cells and the reconstructions and decisions of the variant.
    pub fn info(self) -> VariantInfo {
        match self {
            VariantKind::Chess => VariantInfo::of_spec(&Chess::rules().spec),
            VariantKind::Dream46 => VariantInfo::of_spec(&Dream46::rules().spec),
            VariantKind::Extreme2d => extreme2d::INFO,
            VariantKind::Gateway => gateway::INFO,
            VariantKind::Dialectic => dialectic::INFO,
            VariantKind::DialecticHegelian => dialectic::INFO_HEGELIAN,
            VariantKind::DaiMitregi => dai_mitregi::INFO,
            VariantKind::DaiMitregiStepping => dai_mitregi::INFO_STEPPING,
        }
    }

    /// Looks a variant up by its command-line name.
    ///
    /// # Errors
    /// [`UnknownVariant`], listing the known names.
    pub fn from_name(name: &str) -> Result<VariantKind, UnknownVariant> {
        VariantKind::ALL
            .iter()
            .copied()
            .find(|v| v.name() == name)
            .ok_or_else(|| UnknownVariant {
                name: name.to_string(),
            })
    }
}

/// Runs `$body` with `$G` bound to the [`Game`] type of `$kind`, monomorphised per variant.
///
/// ```
/// use variantlab_engine::{with_variant, VariantKind, perft::perft};
/// let n = with_variant!(VariantKind::Chess, G => perft(&G::start(), 2));
/// assert_eq!(n, 400);
/// ```
#[macro_export]
macro_rules! with_variant {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::variants::VariantKind::Chess => {
                #[allow(unused_imports)]
                use $crate::Game as _;
                type $G = $crate::position::Position<$crate::variants::Chess>;
                $body
            }
            $crate::variants::VariantKind::Dream46 => {
                #[allow(unused_imports)]
                use $crate::Game as _;
                type $G = $crate::position::Position<$crate::variants::Dream46>;
                $body
            }
            $crate::variants::VariantKind::Extreme2d => {
                #[allow(unused_imports)]
                use $crate::Game as _;
                type $G = $crate::variants::extreme2d::Extreme2d;
                $body
            }
            $crate::variants::VariantKind::Gateway => {
                #[allow(unused_imports)]
                use $crate::Game as _;
                type $G = $crate::variants::gateway::Gateway;
                $body
            }
            $crate::variants::VariantKind::Dialectic => {
                #[allow(unused_imports)]
                use $crate::Game as _;
                type $G = $crate::variants::dialectic::Dialectic;
                $body
            }
            $crate::variants::VariantKind::DialecticHegelian => {
                #[allow(unused_imports)]
                use $crate::Game as _;
                type $G = $crate::variants::dialectic::DialecticHegelian;
                $body
            }
            $crate::variants::VariantKind::DaiMitregi => {
                #[allow(unused_imports)]
                use $crate::Game as _;
                type $G = $crate::variants::dai_mitregi::DaiMitregi;
                $body
            }
            $crate::variants::VariantKind::DaiMitregiStepping => {
                #[allow(unused_imports)]
                use $crate::Game as _;
                type $G = $crate::variants::dai_mitregi::DaiMitregiStepping;
                $body
            }
        }
    };
}

impl<V: Variant> Game for Position<V> {
    type Moves = MoveList;

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
    fn legal_moves(&self, out: &mut MoveList) {
        self.legal_moves_into(out)
    }
    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        Position::play_unchecked(self, m)
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
    fn insufficient_material(&self) -> bool {
        V::rules().spec.insufficient_material && chess::dead_position(self)
    }
    fn variant_outcome(&self) -> Option<Outcome> {
        None
    }
    fn material_kinds(&self) -> Vec<(&'static str, i32)> {
        V::rules()
            .spec
            .pieces
            .iter()
            .map(|p| (p.name, p.value))
            .collect()
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
                *count = self.pieces(c, crate::Role(r as u8)).count() as u16;
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
        16 * victim - attacker + promotion
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
        // A removal that exposes the side not to move to check is no start position.
        let k = p.king(!p.turn)?;
        (!p.is_attacked(k, p.turn)).then_some(p)
    }
    fn to_text(&self) -> String {
        Position::to_text(self)
    }
    fn move_text(&self, m: Move) -> String {
        let rules = V::rules();
        let topo = &rules.spec.topology;
        let mut s = topo.square_name(m.from());
        s += &topo.square_name(m.to());
        if m.kind() == MoveKind::Promotion {
            s.push(rules.letter(Color::Black, m.role()));
        }
        s
    }
}

//! The variants: one file each, holding only what is special about it.
//!
//! Runtime selection is [`VariantKind`] plus the [`with_variant!`](crate::with_variant) macro,
//! used once per job (a perft run, a game), so everything inside is monomorphised per variant.

pub mod chess;
pub mod dai_mitregi;
pub mod dialectic;
pub mod dream46;
pub mod extreme2d;
mod family;
pub mod gateway;

use crate::position::Variant;
use crate::rules::VariantSpec;
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

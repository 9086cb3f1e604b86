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
pub mod file;
pub mod gateway;
mod kernel;
pub mod text;

use crate::position::Variant;
use crate::rules::VariantSpec;
use thiserror::Error;

pub use chess::Chess;
pub use dream46::Dream46;

/// The registry, the one place a variant is listed: per row its doc comment, kind, command-line
/// name, [`Game`](crate::Game) type and [`VariantInfo`], in the order listed to users.
///
/// `for_each_variant!([callback], (args))` expands to `callback! { (args) rows }`; the enum,
/// its methods and [`with_variant!`](crate::with_variant) are generated that way. Exported
/// and written with `$crate` paths because `with_variant!` expands in other crates.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_variant {
    ([$($callback:tt)*], $args:tt) => {
        $($callback)*! { $args
            /// Standard chess, the calibration variant.
            Chess => "chess",
                $crate::position::Position<$crate::variants::Chess>,
                $crate::variants::VariantInfo::of_spec(&$crate::variants::Chess::rules().spec);
            /// Dream Chess 46.
            Dream46 => "dream-chess-46",
                $crate::position::Position<$crate::variants::Dream46>,
                $crate::variants::VariantInfo::of_spec(&$crate::variants::Dream46::rules().spec);
            /// Dialectic Chess (Philosophers steered by tokens on a 3x3 dialectic).
            Dialectic => "dialectic",
                $crate::variants::dialectic::Dialectic,
                $crate::variants::dialectic::INFO;
            /// Hegelian Dialectic Chess (tokens may share a cell and step together).
            DialecticHegelian => "dialectic-hegelian",
                $crate::variants::dialectic::DialecticHegelian,
                $crate::variants::dialectic::INFO_HEGELIAN;
            /// Extreme 2D Chess (stacks).
            Extreme2d => "extreme-2d",
                $crate::variants::extreme2d::Extreme2d,
                $crate::variants::extreme2d::INFO;
            /// Extreme 2D Chess with one disc of each colour per stack (the inventor's first games).
            Extreme2dSimple => "extreme-2d-simple",
                $crate::variants::extreme2d::Extreme2dSimple,
                $crate::variants::extreme2d::INFO_SIMPLE;
            /// Gateway Chess (3D, Quantum King).
            Gateway => "gateway",
                $crate::variants::gateway::Gateway,
                $crate::variants::gateway::INFO;
            /// Dai Mitregi, Leaping form (16x16, drops).
            DaiMitregi => "dai-mitregi",
                $crate::variants::dai_mitregi::DaiMitregi,
                $crate::variants::dai_mitregi::INFO;
            /// Dai Mitregi, Stepping form (two-cell moves of central and Pawn-rank pieces are lame).
            DaiMitregiStepping => "dai-mitregi-stepping",
                $crate::variants::dai_mitregi::DaiMitregiStepping,
                $crate::variants::dai_mitregi::INFO_STEPPING;
        }
    };
}

/// Generates [`VariantKind`] and its table methods from the registry rows.
macro_rules! define_variant_kind {
    (() $( $(#[$doc:meta])* $kind:ident => $name:literal, $game:ty, $info:expr; )*) => {
        /// Every implemented variant.
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
        pub enum VariantKind {
            $( $(#[$doc])* $kind, )*
            /// A variant read from a file (`--variant-file`), on a board of at most 64 cells.
            File64(file::FileSlot),
            /// A variant read from a file, on a board of 65 to 128 cells.
            File128(file::FileSlot),
        }

        impl VariantKind {
            /// All built-in variants, in the order listed to users (the file variants are not
            /// among them: they exist only once loaded, see [`file::loaded`]).
            pub const ALL: [VariantKind; [$(VariantKind::$kind),*].len()] =
                [$(VariantKind::$kind),*];

            /// Registry name (`const`, so a variant's own code can quote it); `file` for the
            /// file variants, whose names are known only once loaded.
            pub const fn const_name(self) -> &'static str {
                match self {
                    $( VariantKind::$kind => $name, )*
                    VariantKind::File64(_) | VariantKind::File128(_) => "file",
                }
            }

            /// Command-line name: the registry's, or the loaded variant file's `name`.
            pub fn name(self) -> &'static str {
                file::loaded_kind(self).map_or(self.const_name(), |l| l.name)
            }

            /// Whether this is a variant read from a file.
            pub fn is_file(self) -> bool {
                matches!(self, VariantKind::File64(_) | VariantKind::File128(_))
            }

            /// Board, cells and the reconstructions and decisions of the variant.
            pub fn info(self) -> VariantInfo {
                match self {
                    $( VariantKind::$kind => $info, )*
                    VariantKind::File64(_) | VariantKind::File128(_) => VariantInfo::of_spec(
                        file::spec_of(self).expect("a file variant's kind is handed out by its load"),
                    ),
                }
            }

            /// Looks a variant up by its command-line name (a built-in, or a loaded
            /// variant file's).
            ///
            /// # Errors
            /// [`UnknownVariant`], listing the known names.
            pub fn from_name(name: &str) -> Result<VariantKind, UnknownVariant> {
                match name {
                    $( $name => Ok(VariantKind::$kind), )*
                    _ => file::loaded_named(name).map(|l| l.kind).ok_or_else(|| UnknownVariant {
                        name: name.to_string(),
                    }),
                }
            }
        }
    };
}

for_each_variant!([define_variant_kind], ());

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
    /// Positions hold hundreds of legal moves (drops from hand): fixed-depth searches meant
    /// to last seconds (the bench signature, the search tests) go shallower there.
    pub many_moves: bool,
    /// Self-play's ply cap unless a command sets one: a game still going after this many
    /// plies is a draw (`max_plies`). [`DEFAULT_MAX_PLIES`], longer where decided games
    /// outrun it.
    pub max_plies: u32,
}

/// The ply cap of a variant whose decided games end well inside it (chess: 90% of decided
/// games by ply 240 at 4000 nodes a move).
pub const DEFAULT_MAX_PLIES: u32 = 400;

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
            // No drops in the chess family: move lists stay chess-sized.
            many_moves: false,
            max_plies: spec.max_plies,
        }
    }
}

/// A variant name that is not implemented.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("unknown variant {name:?}; known variants: {}{}", VariantKind::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", "), file::loaded().map(|l| format!(", {} (from {})", l.name, l.origin)).collect::<String>())]
pub struct UnknownVariant {
    /// The name given.
    pub name: String,
}

/// Runs `$body` with `$G` bound to the [`Game`](crate::Game) type of `$kind`, monomorphised
/// per variant.
///
/// ```
/// use variantlab_engine::{with_variant, VariantKind, perft::perft};
/// let n = with_variant!(VariantKind::Chess, G => perft(&G::start(), 2));
/// assert_eq!(n, 400);
/// ```
#[macro_export]
macro_rules! with_variant {
    ($kind:expr, $G:ident => $body:expr) => {
        $crate::for_each_variant!([$crate::__with_variant_arms], ($kind, $G, $body))
    };
}

/// The `match` of [`with_variant!`](crate::with_variant): one arm per registry row.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_variant_arms {
    (($kind:expr, $G:ident, $body:expr) $( $(#[$doc:meta])* $variant:ident => $name:literal, $game:ty, $info:expr; )*) => {
        match $kind {
            $(
                $crate::variants::VariantKind::$variant => {
                    #[allow(unused_imports)]
                    use $crate::Game as _;
                    type $G = $game;
                    $body
                }
            )*
            $crate::variants::VariantKind::File64(slot) => {
                $crate::__with_file_slot!(slot, FileVariant64, $G, $body)
            }
            $crate::variants::VariantKind::File128(slot) => {
                $crate::__with_file_slot!(slot, FileVariant128, $G, $body)
            }
        }
    };
}

/// The arms of a file variant in [`with_variant!`](crate::with_variant): one per slot
/// ([`file::FILE_SLOTS`]), each binding the marker type of that slot.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_file_slot {
    ($slot:expr, $marker:ident, $G:ident, $body:expr) => {
        match $slot.index() {
            0 => $crate::__with_file_slot!(@arm 0, $marker, $G, $body),
            1 => $crate::__with_file_slot!(@arm 1, $marker, $G, $body),
            _ => $crate::__with_file_slot!(@arm 2, $marker, $G, $body),
        }
    };
    (@arm $n:literal, $marker:ident, $G:ident, $body:expr) => {{
        #[allow(unused_imports)]
        use $crate::Game as _;
        type $G = $crate::position::Position<$crate::variants::file::$marker<$n>>;
        $body
    }};
}

/// [`__with_file_slot!`] has an arm per slot.
const _: () = assert!(file::FILE_SLOTS == 3);

#[cfg(test)]
mod tests {
    use super::VariantKind;

    /// A variant's name is written once, in the registry; its info and game quote it.
    #[test]
    fn every_name_comes_from_the_registry() {
        for kind in VariantKind::ALL {
            assert_eq!(kind.info().name, kind.name());
            let game = with_variant!(kind, G => G::start().variant_name());
            assert_eq!(game, kind.name());
            assert_eq!(VariantKind::from_name(kind.name()), Ok(kind));
        }
        assert!(VariantKind::from_name("no-such-variant").is_err());
    }
}

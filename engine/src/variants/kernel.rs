//! The kernel of the free-form variants (Dialectic, Extreme 2D, Gateway, Dai Mitregi): what
//! their positions do alike, written once. Their pieces are [`PieceSpec`](crate::piece::PieceSpec)
//! tables; the [`Game`](crate::Game) methods they answer alike come from these macros, which
//! expand inside each variant's own `impl Game`, so every variant stays compiled to its own
//! code (no dispatch at run time). Each position has the fields `turn: Color` and `hash: u64`
//! (the Zobrist hash, kept by play) and a ply clock whose name the macros take.

use crate::game::RoyalCells;

/// The [`Game`](crate::Game) methods a free-form position answers alike: `start` (its start
/// text, which cannot fail to read), `variant_name` (the registry's name, from its
/// `VariantInfo`), `turn`, `hash` and `halfmove_clock` (the field `clock`).
macro_rules! game_fields {
    (start: $start:expr, name: $name:expr, clock: $clock:ident $(,)?) => {
        fn start() -> Self {
            $start.unwrap_or_else(|e| unreachable!("start position: {e}"))
        }

        fn variant_name(&self) -> &'static str {
            $name
        }

        #[inline]
        fn turn(&self) -> crate::Color {
            self.turn
        }

        #[inline]
        fn hash(&self) -> u64 {
            self.hash
        }

        #[inline]
        fn halfmove_clock(&self) -> u32 {
            self.$clock
        }
    };
}

/// The position `$pos` with the turn passed, for [`Game::null_move`](crate::Game::null_move):
/// the side to move and its hash key `$side` flipped, the ply clock `$clock` counting the pass
/// as a ply. What else a pass changes (an en passant right) is the variant's.
macro_rules! passed {
    ($pos:expr, $side:expr, $clock:ident) => {{
        let mut p = *$pos;
        p.turn = !p.turn;
        p.hash ^= $side;
        p.$clock = p.$clock.saturating_add(1);
        p
    }};
}

/// The [`Game`](crate::Game) methods that a free-form variant keeps in its `notation` module
/// (the position text, move names and diagram: `read_text`, `write_text`, `name_move`, `draw`)
/// and its `evaluation` module (`report_features`, `exchange`, `order_captures`), forwarded
/// there.
macro_rules! notation_and_evaluation {
    () => {
        fn from_text(text: &str) -> Result<Self, crate::error::PositionError> {
            Self::read_text(text)
        }

        fn to_text(&self) -> String {
            self.write_text()
        }

        fn move_text(&self, m: crate::moves::Move) -> String {
            self.name_move(m)
        }

        fn diagram(&self) -> crate::diagram::Diagram {
            self.draw()
        }

        fn eval_features<S: crate::features::FeatureSink>(&self, sink: &mut S) {
            self.report_features(sink)
        }

        fn see(&self, m: crate::moves::Move, values: &[i32]) -> Option<i32> {
            self.exchange(m, values)
        }

        fn tactical_order(&self, m: crate::moves::Move, values: &[i32]) -> i32 {
            self.order_captures(m, values)
        }
    };
}

pub(crate) use {game_fields, notation_and_evaluation, passed};

/// The value of kind `kind` in a value list, 0 for a kind past its end.
#[inline]
pub(crate) fn value_of(values: &[i32], kind: usize) -> i32 {
    values.get(kind).copied().unwrap_or(0)
}

/// [`Game::tactical_order`](crate::Game::tactical_order)'s key for a capture or promotion:
/// most valuable victim first, then least valuable attacker (MVV-LVA), plus what a promotion
/// gains.
#[inline]
pub(crate) fn capture_order(victim: i32, attacker: i32, promotion: i32) -> i32 {
    16 * victim - attacker + promotion
}

/// A move's coordinate text: the names of its from and to cells (`e2e4`), to which a variant
/// adds its own marks (a promotion letter, `+`).
pub(crate) fn move_name(topo: &crate::geometry::Topology, m: crate::Move) -> String {
    topo.square_name(m.from()) + &topo.square_name(m.to())
}

/// [`Game::royal_cells`](crate::Game::royal_cells) of a flat board of `files` x `ranks` cells
/// numbered rank by rank, with the royal pieces on `kings` (White's first); `None` where one
/// is not on the board (a number past the last cell).
pub(crate) fn flat_royal_cells(
    kings: [usize; 2],
    files: usize,
    ranks: usize,
) -> Option<RoyalCells> {
    let at =
        |sq: usize| (sq < files * ranks).then_some(((sq % files) as i16, (sq / files) as i16, 0));
    Some(RoyalCells {
        cells: [at(kings[0])?, at(kings[1])?],
        dims: (files as i16, ranks as i16, 1),
    })
}

#[cfg(test)]
mod tests {
    use super::flat_royal_cells;

    /// Cells are numbered rank by rank; a number past the board means no royal cell.
    #[test]
    fn flat_royal_cells_reads_file_and_rank() {
        let cells = flat_royal_cells([4, 60], 8, 8).unwrap();
        assert_eq!(cells.cells, [(4, 0, 0), (4, 7, 0)]);
        assert_eq!(cells.dims, (8, 8, 1));
        let wide = flat_royal_cells([17, 255], 16, 16).unwrap();
        assert_eq!(wide.cells, [(1, 1, 0), (15, 15, 0)]);
        assert_eq!(flat_royal_cells([4, 64], 8, 8), None);
    }
}

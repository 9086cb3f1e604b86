//! The swap algorithm of a static exchange evaluation ([`crate::Game::see`]), shared by every
//! variant that answers it: the variant finds the attackers of the target cell on its own
//! board; the exchange itself (each side free to stop, the minimax back up the captures) is
//! written once here.

use crate::bitboard::Bitboard;
use crate::{Color, Square};

/// The worth of a royal piece in an exchange: it recaptures last and is never lost.
pub const ROYAL: i32 = i32::MAX / 4;

/// The value of an exchange on one cell for the side that makes the first capture.
///
/// `first` is what the first capture gains (the victim, and a promotion's gain);
/// `on_target` is the worth of the piece that then stands on the cell. `recapture` makes the
/// next capture on the cell for the side whose turn it is in the exchange: it takes that
/// side's least valuable attacker off its board (so pieces behind it join in), passes the
/// turn and returns the attacker's worth, or `None` when the side has no capture left (a
/// royal piece may only capture where nothing takes it back).
pub fn swap(first: i32, on_target: i32, mut recapture: impl FnMut() -> Option<i32>) -> i32 {
    let mut on_target = on_target;
    swap_with_gains(first, || {
        let worth = recapture()?;
        let gain = on_target.min(ROYAL / 2);
        on_target = worth;
        Some(gain)
    })
}

/// [`swap`] where a capture may gain more than the worth of the piece it takes (Extreme 2D's
/// captor absorbs the victim's discs, so the gain depends on the captor): `recapture` makes
/// the next capture as in [`swap`] but returns what that capture gains.
pub fn swap_with_gains(first: i32, mut recapture: impl FnMut() -> Option<i32>) -> i32 {
    // gains[d]: what the side that made capture d has won so far, if the exchange stopped
    // there.
    let mut gains = [0i32; 64];
    gains[0] = first;
    let mut d = 0;
    while d + 1 < gains.len() {
        let Some(gain) = recapture() else { break };
        d += 1;
        gains[d] = gain - gains[d - 1];
        // Neither side would go on: the one to capture next stands worse either way.
        if (-gains[d - 1]).max(gains[d]) < 0 {
            break;
        }
    }
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

/// [`swap`] on a board of bitboards (the chess family, Gateway): the recaptures come from
/// `attackers(occ, side)`, the pieces of `side` within `occ` that attack the target cell, and
/// `worth_at(cell)` prices each ([`ROYAL`] for a royal piece); each capturer's cell is emptied
/// from `occ`, so pieces behind it join in, and a royal piece recaptures only where nothing
/// of the other side attacks the cell any more. `side` makes the first recapture.
pub fn exchange_on_bitboards<B: Bitboard>(
    first: i32,
    on_target: i32,
    mut occ: B,
    mut side: Color,
    attackers: impl Fn(B, Color) -> B,
    worth_at: impl Fn(Square) -> Option<i32>,
) -> i32 {
    swap(first, on_target, || {
        // The least valuable attacker, the royal piece last.
        let (worth, sq) = attackers(occ, side)
            .squares()
            .filter_map(|sq| worth_at(sq).map(|v| (v, sq)))
            .min_by_key(|&(v, _)| v)?;
        occ.remove(sq);
        if worth == ROYAL && attackers(occ, !side).any() {
            return None;
        }
        side = !side;
        Some(worth)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays a fixed list of recaptures.
    fn run(first: i32, on_target: i32, recaptures: &[i32]) -> i32 {
        let mut it = recaptures.iter().copied();
        swap(first, on_target, || it.next())
    }

    #[test]
    fn each_side_may_stop() {
        // An undefended pawn.
        assert_eq!(run(100, 900, &[]), 100);
        // Queen takes a pawn defended by a pawn: the defender takes back.
        assert_eq!(run(100, 900, &[100]), -800);
        // Knight takes a pawn defended by a pawn, with a rook behind: N x P, P x N, R x P.
        assert_eq!(run(100, 300, &[100, 500]), -100);
        // Rook takes a rook defended by a queen, with a rook of ours behind: the queen does
        // not take back, so the rook is won.
        assert_eq!(run(500, 500, &[900, 500]), 500);
        // A royal recapture is counted as never lost.
        assert_eq!(run(300, 300, &[ROYAL]), 0);
    }

    #[test]
    fn gains_may_depend_on_the_captor() {
        let run = |first: i32, gains: &[i32]| {
            let mut it = gains.iter().copied();
            swap_with_gains(first, || it.next())
        };
        // A capture that wins 600 and is taken back for 1400 loses 800; with a third capture
        // worth 1500 the second side stops instead, so the first keeps its 600.
        assert_eq!(run(600, &[1400]), -800);
        assert_eq!(run(600, &[1400, 1500]), 600);
    }
}

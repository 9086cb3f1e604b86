//! The classic evaluation of the chess family: positional terms kept few and cheap.
//!
//! 1. Mobility: 2 centipawns per cell a non-royal piece attacks or can move to that is not
//!    occupied by its own side (riders dominate, as they should).
//! 2. Centralisation: 3 centipawns per step a non-royal piece stands closer to the board's
//!    centre than the edge (distance in the Chebyshev metric over the bounding box).
//!
//! Material is added by the search from the (overridable) piece-value table.

use crate::bitboard::Bitboard;
use crate::position::{Position, Variant};
use crate::{Color, Role};

/// Mobility weight per reachable cell, centipawns.
pub const MOBILITY: i32 = 2;
/// Centralisation weight per step towards the centre, centipawns.
pub const CENTRE: i32 = 3;

/// Positional score from the side to move's point of view.
pub fn positional<V: Variant>(pos: &Position<V>) -> i32 {
    let rules = V::rules();
    let t = &rules.tables;
    let topo = &rules.spec.topology;
    let (files, ranks, _) = topo.dims();
    let occ = pos.occupied();
    let mut score = [0i32; 2];
    for c in Color::ALL {
        let own = pos.by_color(c);
        for r in 0..t.num_roles() {
            let role = Role(r as u8);
            if role == rules.king {
                continue;
            }
            for sq in pos.pieces(c, role).squares() {
                let mut reach = t.leap_moves(c, role, sq) | t.leap_captures(c, role, sq);
                for &slot in t.rides(c, role) {
                    reach |= t.ride(slot, sq, occ);
                }
                score[c.index()] += MOBILITY * (reach & !own).count() as i32;
                let co = topo.coord(sq);
                let edge = (co.file.min(i16::from(files) - 1 - co.file))
                    .min(co.rank.min(i16::from(ranks) - 1 - co.rank));
                score[c.index()] += CENTRE * edge as i32;
            }
        }
    }
    let us = pos.turn().index();
    score[us] - score[1 - us]
}

//! Attack tables: every piece's atoms compiled against a topology, once per variant.
//!
//! Leaps (including single steps) become one bitboard per (colour, role, cell). Rides become
//! a ray per (vector, cell) plus a per-piece list of [`RideSlot`]s; a slider's attack along a
//! ray is `ray ^ ray_from(first_blocker)`, where the first blocker is the lowest or highest set
//! bit of `ray & occupied` because the topology numbers cells monotonically along every vector.
//! Limited-range rides AND that with a precomputed range mask. Nothing here depends on board
//! width: the same code serves `u64`, `u128` and multi-word boards.
//!
//! For attack detection the tables also hold the inverse leap tables ("from which cells does a
//! piece of this kind capture this cell?") and [`RideGroup`]s: ride vectors grouped by the set
//! of roles riding them, so a query ORs the riders of a group once and scans each ray once.

use crate::bitboard::Bitboard;
use crate::geometry::{Topology, Vector};
use crate::piece::{Atom, Modality};
use crate::{Color, Role, Square};
use std::collections::HashMap;

/// One ride of a piece: a vector, an optional range limit, and a modality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RideSlot {
    /// Index of the vector in [`AttackTables::vector`].
    pub vid: u16,
    /// Index of the range mask for this (vector, range), or `u32::MAX` for an unlimited ride.
    pub limit: u32,
    /// Move, capture or both.
    pub modality: Modality,
}

/// Capture rides shared by the same set of roles: attack detection ORs the roles' pieces once
/// and scans each ray once.
#[derive(Clone, Debug)]
pub struct RideGroup {
    /// Roles that capture along every slot of the group.
    pub roles: Vec<Role>,
    /// For each slot: the vector the attacker rides, looked up in reverse from the target.
    pub reverse: Vec<RideSlot>,
}

/// The compiled movement of every piece of a variant on its board.
#[derive(Clone, Debug)]
pub struct AttackTables<B> {
    nsq: usize,
    nroles: usize,
    leap_move: Vec<B>,
    leap_capture: Vec<B>,
    leap_capture_from: Vec<B>,
    vectors: Vec<Vector>,
    ascending: Vec<bool>,
    rays: Vec<B>,
    limits: Vec<B>,
    rides: Vec<Vec<RideSlot>>,
    groups: [Vec<RideGroup>; 2],
    leap_capturers: [Vec<Role>; 2],
}

impl<B: Bitboard> AttackTables<B> {
    /// Compiles the atoms of each role (White's point of view; Black's are flipped) on `topo`.
    ///
    /// # Panics
    /// If the board has more cells than `B` holds: a programming error in a variant file.
    pub fn build(topo: &Topology, roles: &[Vec<Atom>]) -> AttackTables<B> {
        let nsq = topo.num_squares();
        assert!(
            nsq <= B::CAPACITY,
            "board of {nsq} cells does not fit the bitboard"
        );
        let nroles = roles.len();
        let mut t = AttackTables {
            nsq,
            nroles,
            leap_move: vec![B::EMPTY; 2 * nroles * nsq],
            leap_capture: vec![B::EMPTY; 2 * nroles * nsq],
            leap_capture_from: vec![B::EMPTY; 2 * nroles * nsq],
            vectors: Vec::new(),
            ascending: Vec::new(),
            rays: Vec::new(),
            limits: Vec::new(),
            rides: vec![Vec::new(); 2 * nroles],
            groups: [Vec::new(), Vec::new()],
            leap_capturers: [Vec::new(), Vec::new()],
        };
        let mut limit_ids: HashMap<(u16, u8), u32> = HashMap::new();
        for color in Color::ALL {
            // (vid, range) -> roles capturing along it, for the groups.
            let mut capture_rides: Vec<((u16, u8), Role)> = Vec::new();
            for (r, atoms) in roles.iter().enumerate() {
                let role = Role(r as u8);
                let pi = t.piece_index(color, role);
                for atom in atoms {
                    let atom = if color == Color::Black {
                        atom.for_black()
                    } else {
                        *atom
                    };
                    if atom.range == 1 {
                        for from in topo.cells() {
                            if let Some(to) = topo.walk(from, atom.vector) {
                                let i = pi * nsq + from.index();
                                if atom.modality.moves() {
                                    t.leap_move[i].insert(to);
                                }
                                if atom.modality.captures() {
                                    t.leap_capture[i].insert(to);
                                    t.leap_capture_from[pi * nsq + to.index()].insert(from);
                                }
                            }
                        }
                        continue;
                    }
                    let vid = t.vector_id(topo, atom.vector);
                    let limit = if atom.range == 0 {
                        u32::MAX
                    } else {
                        t.limit_id(topo, &mut limit_ids, vid, atom.range)
                    };
                    t.rides[pi].push(RideSlot {
                        vid,
                        limit,
                        modality: atom.modality,
                    });
                    if atom.modality.captures() {
                        capture_rides.push(((vid, atom.range), role));
                    }
                }
                if t.leap_capture[pi * nsq..(pi + 1) * nsq]
                    .iter()
                    .any(|b| b.any())
                {
                    t.leap_capturers[color.index()].push(role);
                }
            }
            // Group the capture rides by the exact set of roles using them.
            let mut by_ride: Vec<((u16, u8), Vec<Role>)> = Vec::new();
            for (key, role) in capture_rides {
                match by_ride.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, rs)) => {
                        if !rs.contains(&role) {
                            rs.push(role)
                        }
                    }
                    None => by_ride.push((key, vec![role])),
                }
            }
            let mut groups: Vec<RideGroup> = Vec::new();
            for ((vid, range), rs) in by_ride {
                let v = t.vectors[vid as usize];
                let rev = t.vector_id(topo, [-v[0], -v[1], -v[2]]);
                let limit = if range == 0 {
                    u32::MAX
                } else {
                    t.limit_id(topo, &mut limit_ids, rev, range)
                };
                let slot = RideSlot {
                    vid: rev,
                    limit,
                    modality: Modality::CaptureOnly,
                };
                match groups.iter_mut().find(|g| g.roles == rs) {
                    Some(g) => g.reverse.push(slot),
                    None => groups.push(RideGroup {
                        roles: rs,
                        reverse: vec![slot],
                    }),
                }
            }
            t.groups[color.index()] = groups;
        }
        t
    }

    fn vector_id(&mut self, topo: &Topology, v: Vector) -> u16 {
        if let Some(i) = self.vectors.iter().position(|&w| w == v) {
            return i as u16;
        }
        let vid = self.vectors.len() as u16;
        self.vectors.push(v);
        self.ascending.push(topo.ascending(v));
        for sq in 0..self.nsq {
            let sq = Square(sq as u16);
            let mut ray = B::EMPTY;
            if topo.exists(sq) {
                for s in topo.ray(sq, v) {
                    ray.insert(s);
                }
            }
            self.rays.push(ray);
        }
        vid
    }

    fn limit_id(
        &mut self,
        topo: &Topology,
        ids: &mut HashMap<(u16, u8), u32>,
        vid: u16,
        range: u8,
    ) -> u32 {
        if let Some(&id) = ids.get(&(vid, range)) {
            return id;
        }
        let id = (self.limits.len() / self.nsq) as u32;
        let v = self.vectors[vid as usize];
        for sq in 0..self.nsq {
            let mut mask = B::EMPTY;
            let sq = Square(sq as u16);
            if topo.exists(sq) {
                for s in topo.ray(sq, v).into_iter().take(range as usize) {
                    mask.insert(s);
                }
            }
            self.limits.push(mask);
        }
        ids.insert((vid, range), id);
        id
    }

    #[inline]
    fn piece_index(&self, color: Color, role: Role) -> usize {
        color.index() * self.nroles + role.index()
    }

    /// Number of roles compiled.
    pub fn num_roles(&self) -> usize {
        self.nroles
    }

    /// Cells a piece reaches by leaps that may be quiet moves.
    #[inline]
    pub fn leap_moves(&self, color: Color, role: Role, sq: Square) -> B {
        self.leap_move[self.piece_index(color, role) * self.nsq + sq.index()]
    }

    /// Cells a piece attacks by leaps.
    #[inline]
    pub fn leap_captures(&self, color: Color, role: Role, sq: Square) -> B {
        self.leap_capture[self.piece_index(color, role) * self.nsq + sq.index()]
    }

    /// Cells from which a piece of `color` and `role` captures `sq` by a leap.
    #[inline]
    pub fn leap_capturers_of(&self, color: Color, role: Role, sq: Square) -> B {
        self.leap_capture_from[self.piece_index(color, role) * self.nsq + sq.index()]
    }

    /// Pieces of `by` that attack `sq` with occupancy `occ` (which may differ from the board,
    /// to ask "what if these cells were empty"); `pieces(role)` gives `by`'s pieces of a role
    /// that are still on the board (within `occ`).
    #[inline]
    pub fn attackers(&self, sq: Square, occ: B, by: Color, pieces: impl Fn(Role) -> B) -> B {
        self.scan_attackers::<false>(sq, occ, by, pieces)
    }

    /// Whether any piece of `by` attacks `sq` ([`attackers`](Self::attackers) stopping at the
    /// first one found): the check test after every move of the search.
    #[inline]
    pub fn attacked(&self, sq: Square, occ: B, by: Color, pieces: impl Fn(Role) -> B) -> bool {
        self.scan_attackers::<true>(sq, occ, by, pieces).any()
    }

    /// The pieces of `own` pinned to `x` by a rider of `by`: each alone between `x` and the
    /// rider on the rider's line, so that moving it may expose `x`. `pieces(role)` gives
    /// `by`'s pieces of a role.
    #[inline]
    pub fn pinned(&self, x: Square, occ: B, by: Color, own: B, pieces: impl Fn(Role) -> B) -> B {
        let mut pinned = B::EMPTY;
        for group in self.ride_groups(by) {
            let mut riders = B::EMPTY;
            for &r in &group.roles {
                riders |= pieces(r);
            }
            for &slot in &group.reverse {
                if (self.ray(slot.vid, x) & riders).is_empty() {
                    continue;
                }
                let Some(b1) = self.first_blocker(slot, x, occ) else {
                    continue;
                };
                if own.contains(b1)
                    && self
                        .first_blocker(slot, x, occ ^ B::from_square(b1))
                        .is_some_and(|b2| riders.contains(b2))
                {
                    pinned.insert(b1);
                }
            }
        }
        pinned
    }

    /// The attackers of `sq`, or with `FIRST` only the first one found.
    #[inline]
    fn scan_attackers<const FIRST: bool>(
        &self,
        sq: Square,
        occ: B,
        by: Color,
        pieces: impl Fn(Role) -> B,
    ) -> B {
        let mut found = B::EMPTY;
        for &role in self.leap_capturing_roles(by) {
            found |= self.leap_capturers_of(by, role, sq) & pieces(role);
            if FIRST && found.any() {
                return found;
            }
        }
        for group in self.ride_groups(by) {
            let mut riders = B::EMPTY;
            for &r in &group.roles {
                riders |= pieces(r);
            }
            if riders.is_empty() {
                continue;
            }
            for &slot in &group.reverse {
                // No rider on the empty-board ray: nothing to find on it (most rays, and
                // cheaper than finding the first blocker).
                if (self.ray(slot.vid, sq) & riders).is_empty() {
                    continue;
                }
                if let Some(b) = self.first_blocker(slot, sq, occ) {
                    if riders.contains(b) {
                        found.insert(b);
                        if FIRST {
                            return found;
                        }
                    }
                }
            }
        }
        found
    }

    /// Roles of `color` with at least one capturing leap.
    #[inline]
    pub fn leap_capturing_roles(&self, color: Color) -> &[Role] {
        &self.leap_capturers[color.index()]
    }

    /// The rides of a piece.
    #[inline]
    pub fn rides(&self, color: Color, role: Role) -> &[RideSlot] {
        &self.rides[self.piece_index(color, role)]
    }

    /// The capture-ride groups of `color`, for attack detection.
    #[inline]
    pub fn ride_groups(&self, color: Color) -> &[RideGroup] {
        &self.groups[color.index()]
    }

    /// The full empty-board ray from `sq` along vector `vid`.
    #[inline]
    pub fn ray(&self, vid: u16, sq: Square) -> B {
        self.rays[vid as usize * self.nsq + sq.index()]
    }

    /// The first occupied cell along a ride slot from `sq`, if it is within the ride's range.
    #[inline]
    pub fn first_blocker(&self, slot: RideSlot, sq: Square, occ: B) -> Option<Square> {
        let hit = self.ray(slot.vid, sq) & occ;
        let first = if self.ascending[slot.vid as usize] {
            hit.lsb()
        } else {
            hit.msb()
        }?;
        if slot.limit != u32::MAX
            && !self.limits[slot.limit as usize * self.nsq + sq.index()].contains(first)
        {
            return None;
        }
        Some(first)
    }

    /// The cells a ride slot reaches from `sq` given the occupancy: empty cells up to and
    /// including the first occupied one, within range.
    #[inline]
    pub fn ride(&self, slot: RideSlot, sq: Square, occ: B) -> B {
        let ray = self.ray(slot.vid, sq);
        let hit = ray & occ;
        let reach = if hit.is_empty() {
            ray
        } else {
            let first = if self.ascending[slot.vid as usize] {
                hit.lsb()
            } else {
                hit.msb()
            };
            match first {
                Some(f) => ray ^ self.ray(slot.vid, f),
                None => ray,
            }
        };
        if slot.limit == u32::MAX {
            reach
        } else {
            reach & self.limits[slot.limit as usize * self.nsq + sq.index()]
        }
    }

    /// The cells `color`'s `role` on `sq` reaches by a move or a capture (own pieces not yet
    /// removed) and its attack set ([`attacks`](Self::attacks)), in one pass over its rides:
    /// what the evaluation's mobility and threat terms need.
    pub fn reach_and_attacks(&self, color: Color, role: Role, sq: Square, occ: B) -> (B, B) {
        let mut attacks = self.leap_captures(color, role, sq);
        let mut reach = self.leap_moves(color, role, sq) | attacks;
        for &slot in self.rides(color, role) {
            let ride = self.ride(slot, sq, occ);
            reach |= ride;
            if slot.modality.captures() {
                attacks |= ride;
            }
        }
        (reach, attacks)
    }

    /// All cells `color`'s `role` on `sq` could capture on (its attack set) with the given
    /// occupancy.
    pub fn attacks(&self, color: Color, role: Role, sq: Square, occ: B) -> B {
        let mut a = self.leap_captures(color, role, sq);
        for &slot in self.rides(color, role) {
            if slot.modality.captures() {
                a |= self.ride(slot, sq, occ);
            }
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bb128;
    use crate::piece::betza;

    /// Slow reference: walk the topology cell by cell.
    fn slow_attacks(topo: &Topology, atoms: &[Atom], sq: Square, occ: &[bool]) -> Vec<Square> {
        let mut out = Vec::new();
        for a in atoms.iter().filter(|a| a.modality.captures()) {
            let mut cur = sq;
            let mut n = 0;
            while let Some(next) = topo.walk(cur, a.vector) {
                out.push(next);
                n += 1;
                if occ[next.index()] || (a.range != 0 && n >= a.range) {
                    break;
                }
                cur = next;
            }
        }
        out.sort();
        out.dedup();
        out
    }

    #[test]
    fn tables_match_a_slow_walk_exhaustively() {
        let topo = Topology::rect(10, 10).without(&["e5", "f6"]);
        let betzas = ["Q", "NN", "R3", "mWcF", "fmWfcF", "K", "BW"];
        let roles: Vec<Vec<Atom>> = betzas.iter().map(|b| betza::parse(b).unwrap()).collect();
        let t: AttackTables<Bb128> = AttackTables::build(&topo, &roles);
        let mut seed = 0x1234_5678_u64;
        for _ in 0..20 {
            let mut occ_v = vec![false; topo.num_squares()];
            let mut occ = Bb128::EMPTY;
            for sq in topo.cells() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if seed.is_multiple_of(4) {
                    occ_v[sq.index()] = true;
                    occ.insert(sq);
                }
            }
            for (r, atoms) in roles.iter().enumerate() {
                for sq in topo.cells() {
                    let got: Vec<Square> = t
                        .attacks(Color::White, Role(r as u8), sq, occ)
                        .squares()
                        .collect();
                    assert_eq!(
                        got,
                        slow_attacks(&topo, atoms, sq, &occ_v),
                        "{} {sq:?}",
                        betzas[r]
                    );
                }
            }
        }
    }
}

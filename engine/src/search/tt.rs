//! Transposition table after Stockfish's layout: 32-byte clusters of three 10-byte entries,
//! a 16-bit key check, an index by the high half of `key * clusters` (so the size need not
//! be a power of two), and replacement by depth minus eight times the age in searches.
//! Each game's searcher owns its table, so there are no atomics and no racy writes.

use crate::moves::Move;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this much (a fail-high).
    Lower,
    /// At most this much (a fail-low).
    Upper,
}

impl Bound {
    /// What a search result `score` of a window (`alpha`, `beta`) says about the true value.
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result: 10 bytes, all fields 2-byte aligned, so three fit a cluster.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Entry {
    key: u16,
    /// The move's 32 bits as two halves (a `u32` would align the entry to 12 bytes).
    mv: [u16; 2],
    score: i16,
    /// Depth in the low 7 bits; the high bit says the position was on a principal variation.
    depth: u8,
    /// Bound in the low 2 bits, generation in the high 6.
    flags: u8,
}

/// The principal-variation bit of [`Entry::depth`].
const PV_BIT: u8 = 0x80;

impl Entry {
    fn mv(&self) -> u32 {
        self.mv[0] as u32 | (self.mv[1] as u32) << 16
    }
    fn depth(&self) -> u32 {
        u32::from(self.depth & !PV_BIT)
    }
}

/// Three entries plus padding: 32 bytes, half a cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct Cluster {
    entries: [Entry; 3],
}

/// A search result as stored, and as a probe returns it.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// Best or refuting move, if one was stored.
    pub mv: Option<Move>,
    /// Stored score (already adjusted back to the probing ply for mates).
    pub score: i32,
    /// Depth searched.
    pub depth: u32,
    /// Bound type.
    pub bound: Bound,
    /// Whether the position was on a principal variation when it was stored, or at any
    /// earlier store of it ([`super::Technique::TtPv`]).
    pub pv: bool,
}

impl TtHit {
    /// A search result to store: what `depth` plies found (`score`, a `bound` on the true
    /// value, the best or refuting move), and whether the position is on a principal
    /// variation.
    pub fn new(depth: u32, score: i32, bound: Bound, mv: Option<Move>, pv: bool) -> TtHit {
        TtHit {
            mv,
            score,
            depth,
            bound,
            pv,
        }
    }

    /// Whether the stored score settles a search of the window (`alpha`, `beta`): exact, or
    /// a bound already outside the window.
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// The largest transposition table one searcher may ask for, in MiB (64 GiB).
pub const MAX_HASH_MIB: usize = 64 * 1024;

/// A transposition table sized in MiB.
#[derive(Clone, Debug)]
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mib` MiB; 0 disables it (every probe misses).
    ///
    /// # Panics
    /// When the memory cannot be had; [`TranspositionTable::try_new`] says so instead, and
    /// the command line checks sizes with it before any search starts.
    pub fn new(mib: usize) -> TranspositionTable {
        Self::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` MiB, or a message saying why it cannot be had (above
    /// [`MAX_HASH_MIB`], or the allocation failed).
    ///
    /// # Errors
    /// The size is out of range or the memory is not available.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        if mib > MAX_HASH_MIB {
            return Err(format!(
                "hash table of {mib} MiB: at most {MAX_HASH_MIB} MiB is supported"
            ));
        }
        let n = mib * 1024 * 1024 / std::mem::size_of::<Cluster>();
        let mut clusters = Vec::new();
        clusters
            .try_reserve_exact(n)
            .map_err(|_| format!("hash table of {mib} MiB: not enough memory"))?;
        clusters.resize(n, Cluster::default());
        Ok(TranspositionTable {
            clusters,
            generation: 0,
        })
    }

    /// Forgets everything (between games).
    pub fn clear(&mut self) {
        self.clusters
            .iter_mut()
            .for_each(|c| *c = Cluster::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, key: u64, ply: u32) -> Option<TtHit> {
        if self.clusters.is_empty() {
            return None;
        }
        let check = (key & 0xffff) as u16;
        let c = &self.clusters[self.index(key)];
        c.entries
            .iter()
            .find(|e| e.key == check && e.flags != 0)
            .map(|e| TtHit {
                mv: (e.mv() != 0).then(|| Move::from_raw(e.mv())),
                score: from_tt(e.score as i32, ply),
                depth: e.depth(),
                bound: match e.flags & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
                pv: e.depth & PV_BIT != 0,
            })
    }

    /// Stores a result of a search `ply` plies from the root, replacing the same position
    /// or the shallowest, oldest entry. Depths above 127 are stored as 127.
    #[inline]
    pub fn store(&mut self, key: u64, ply: u32, result: TtHit) {
        let TtHit {
            mv,
            score,
            depth,
            bound,
            pv,
        } = result;
        if self.clusters.is_empty() {
            return;
        }
        let check = (key & 0xffff) as u16;
        let generation = self.generation;
        let i = self.index(key);
        let c = &mut self.clusters[i];
        let age = |e: &Entry| ((generation as i32 - (e.flags >> 2) as i32) & 63) * 8;
        let slot = match c
            .entries
            .iter()
            .position(|e| e.key == check && e.flags != 0)
        {
            Some(s) => s,
            None => (0..3)
                .min_by_key(|&s| c.entries[s].depth() as i32 - age(&c.entries[s]))
                .unwrap_or(0),
        };
        let e = &mut c.entries[slot];
        // Keep a stored move when the new result has none for the same position.
        let keep_move = e.key == check && mv.is_none();
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *e = Entry {
            key: check,
            depth: depth.min(127) as u8 | if pv { PV_BIT } else { 0 },
            flags: b | generation << 2,
            mv: {
                let raw = if keep_move {
                    e.mv()
                } else {
                    mv.map_or(0, |m| m.raw())
                };
                [raw as u16, (raw >> 16) as u16]
            },
            score: to_tt(score, ply) as i16,
        };
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: u32) -> i32 {
    if score >= super::MATE_BOUND {
        score + ply as i32
    } else if score <= -super::MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: u32) -> i32 {
    if score >= super::MATE_BOUND {
        score - ply as i32
    } else if score <= -super::MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    #[test]
    fn cluster_is_32_bytes_and_entries_round_trip() {
        assert_eq!(std::mem::size_of::<Cluster>(), 32);
        let mut tt = TranspositionTable::new(1);
        let m = Move::normal(Square(12), Square(28));
        tt.store(
            0xdead_beef_1234,
            3,
            TtHit::new(7, -55, Bound::Lower, Some(m), true),
        );
        let hit = tt.probe(0xdead_beef_1234, 3).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound, hit.pv),
            (Some(m), -55, 7, Bound::Lower, true)
        );
        // The principal-variation bit is not part of the depth, and leaves it whole.
        tt.store(7, 0, TtHit::new(127, 0, Bound::Exact, None, false));
        assert_eq!(tt.probe(7, 0).map(|h| (h.depth, h.pv)), Some((127, false)));
        tt.store(7, 0, TtHit::new(300, 0, Bound::Exact, None, true));
        assert_eq!(tt.probe(7, 0).map(|h| (h.depth, h.pv)), Some((127, true)));
        assert!(tt.probe(0xdead_beef_1235, 3).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234, 3).is_none());
        assert!(TranspositionTable::new(0).probe(1, 0).is_none());
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        let mut tt = TranspositionTable::new(1);
        tt.store(
            42,
            5,
            TtHit::new(3, super::super::MATE - 9, Bound::Exact, None, false),
        );
        // Seen two plies nearer the root, the same mate is two plies further away.
        assert_eq!(tt.probe(42, 3).unwrap().score, super::super::MATE - 7);
    }
}

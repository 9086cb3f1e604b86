//! Board geometry: which cells exist, their coordinates, and which single steps are allowed.
//!
//! Everything about shape lives here. Move generation never shifts a whole board: every step,
//! leap and ray is produced once by walking the topology (see [`Topology::walk`]) and stored in
//! the attack tables. Cells are numbered lexicographically by (level, rank, file), so walking any
//! fixed vector visits strictly increasing or strictly decreasing numbers; that is what lets a
//! sliding attack find its first blocker with a lowest- or highest-bit scan at any width.
//!
//! ```
//! use variantlab_engine::geometry::Topology;
//! let t = Topology::rect(8, 8);
//! let e2 = t.parse_square("e2").unwrap();
//! assert_eq!(t.square_name(e2), "e2");
//! assert_eq!(t.walk(e2, [0, 2, 0]).map(|s| t.square_name(s)), Some("e4".to_string()));
//! ```

use crate::Square;
use bitvec::prelude::*;

/// A cell's position: file (x), rank (y), level (z, 0 on flat boards).
///
/// `i16`, not `i8`: a box may be 128 cells long (a 1x128 board), and a coordinate plus a step
/// or `ranks - 1 - rank` must not wrap there.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Coord {
    /// File, 0-based from the left (a = 0).
    pub file: i16,
    /// Rank, 0-based from White's side (rank 1 = 0).
    pub rank: i16,
    /// Level, 0-based from the bottom; 0 for flat boards.
    pub level: i16,
}

/// A displacement between cells: (files, ranks, levels).
pub type Vector = [i8; 3];

/// Which single steps and leaps may be made on this board, beyond both ends existing.
#[derive(Clone, Debug)]
pub enum StepRule {
    /// Any step between existing cells.
    Free,
    /// Dream Chess 46's supersquares: a step or leap is allowed only if both ends lie in one
    /// of the regions (each region is a set of cells).
    SameRegion(Vec<BitVec>),
    /// Gateway Chess's one-foot-in-the-grave rule: a step or leap is allowed only if every
    /// cell of the box spanned by its two ends (all files, ranks and levels between them, ends
    /// included) exists.
    WholeBox,
}

/// The shape of a board: its bounding box, the cells that exist in it, and the step rule.
#[derive(Clone, Debug)]
pub struct Topology {
    files: u8,
    ranks: u8,
    levels: u8,
    exists: BitVec,
    rule: StepRule,
}

impl Topology {
    /// A full rectangle of `files` x `ranks` cells.
    pub fn rect(files: u8, ranks: u8) -> Topology {
        Topology::boxed(files, ranks, 1)
    }

    /// A full box of `files` x `ranks` x `levels` cells.
    pub fn boxed(files: u8, ranks: u8, levels: u8) -> Topology {
        let n = files as usize * ranks as usize * levels as usize;
        Topology {
            files,
            ranks,
            levels,
            exists: bitvec![1; n],
            rule: StepRule::Free,
        }
    }

    /// Removes the cells whose names are given (holes keep their numbers, as in a padded
    /// board, so the board's masks stay in one familiar layout).
    ///
    /// # Panics
    /// On a name that is not a cell of the box: shapes are program data, not user input.
    pub fn without(mut self, names: &[&str]) -> Topology {
        for name in names {
            let sq = self
                .parse_square(name)
                .unwrap_or_else(|| panic!("no cell {name}"));
            self.exists.set(sq.index(), false);
        }
        self
    }

    /// Sets the step rule.
    pub fn with_rule(mut self, rule: StepRule) -> Topology {
        self.rule = rule;
        self
    }

    /// The supersquare regions of a [`StepRule::SameRegion`] board (empty for other rules),
    /// for drawing them.
    pub fn regions(&self) -> &[BitVec] {
        match &self.rule {
            StepRule::SameRegion(r) => r,
            _ => &[],
        }
    }

    /// Number of cell numbers, holes included (the length of per-cell tables).
    pub fn num_squares(&self) -> usize {
        self.exists.len()
    }

    /// Number of cells that exist.
    pub fn num_cells(&self) -> usize {
        self.exists.count_ones()
    }

    /// Files, ranks and levels of the bounding box.
    pub fn dims(&self) -> (u8, u8, u8) {
        (self.files, self.ranks, self.levels)
    }

    /// Whether `sq` is a cell of the board (not a hole, not out of range).
    pub fn exists(&self, sq: Square) -> bool {
        self.exists.get(sq.index()).is_some_and(|b| *b)
    }

    /// The cells that exist, in increasing order.
    pub fn cells(&self) -> impl Iterator<Item = Square> + '_ {
        self.exists.iter_ones().map(|i| Square(i as u16))
    }

    /// The coordinates of a cell number.
    pub fn coord(&self, sq: Square) -> Coord {
        let i = sq.index();
        let per_level = self.files as usize * self.ranks as usize;
        Coord {
            file: (i % self.files as usize) as i16,
            rank: ((i % per_level) / self.files as usize) as i16,
            level: (i / per_level) as i16,
        }
    }

    /// The cell seen from the other side of the board: same file and level, rank counted
    /// from the other end. Evaluation tables are written for White and read through this for
    /// Black.
    pub fn rank_mirror(&self, sq: Square) -> Square {
        let i = sq.index();
        let files = self.files as usize;
        let per_level = files * self.ranks as usize;
        let rank = (i % per_level) / files;
        let mirrored = self.ranks as usize - 1 - rank;
        // In two steps: `ranks - 1 - 2·rank` is negative in the upper half (a debug build
        // stopped on the overflow, a release build wrapped to the right cell).
        Square((i - rank * files + mirrored * files) as u16)
    }

    /// The cell number at a coordinate, if it lies in the box (holes included).
    pub fn square_at(&self, c: Coord) -> Option<Square> {
        if c.file < 0
            || c.rank < 0
            || c.level < 0
            || c.file >= i16::from(self.files)
            || c.rank >= i16::from(self.ranks)
            || c.level >= i16::from(self.levels)
        {
            return None;
        }
        let i = (c.level as usize * self.ranks as usize + c.rank as usize) * self.files as usize
            + c.file as usize;
        Some(Square(i as u16))
    }

    /// Whether a single step or leap from `a` to `b` is allowed by the board's rule. Both
    /// cells must exist.
    pub fn step_allowed(&self, a: Square, b: Square) -> bool {
        if !self.exists(a) || !self.exists(b) {
            return false;
        }
        match &self.rule {
            StepRule::Free => true,
            StepRule::SameRegion(regions) => regions.iter().any(|r| r[a.index()] && r[b.index()]),
            StepRule::WholeBox => {
                let (p, q) = (self.coord(a), self.coord(b));
                (p.file.min(q.file)..=p.file.max(q.file)).all(|file| {
                    (p.rank.min(q.rank)..=p.rank.max(q.rank)).all(|rank| {
                        (p.level.min(q.level)..=p.level.max(q.level)).all(|level| {
                            self.square_at(Coord { file, rank, level })
                                .is_some_and(|s| self.exists(s))
                        })
                    })
                })
            }
        }
    }

    /// One step or leap by `v` from `from`: the target if it exists and the step is allowed.
    pub fn walk(&self, from: Square, v: Vector) -> Option<Square> {
        let c = self.coord(from);
        let to = self.square_at(Coord {
            file: c.file + i16::from(v[0]),
            rank: c.rank + i16::from(v[1]),
            level: c.level + i16::from(v[2]),
        })?;
        self.step_allowed(from, to).then_some(to)
    }

    /// The cells a rider visits from `from` along `v` on an empty board, nearest first,
    /// stopping at the edge, a hole or a forbidden step.
    pub fn ray(&self, from: Square, v: Vector) -> Vec<Square> {
        let mut out = Vec::new();
        let mut cur = from;
        while let Some(next) = self.walk(cur, v) {
            out.push(next);
            cur = next;
        }
        out
    }

    /// Whether walking `v` increases cell numbers (the numbering makes this the same for
    /// every cell).
    pub fn ascending(&self, v: Vector) -> bool {
        (v[2], v[1], v[0]) > (0, 0, 0)
    }

    /// Algebraic name of a cell: file letter then rank number (`e4`); on boards with several
    /// levels the level letter comes first, counting from `v` as in Gateway Chess (`xe4`).
    pub fn square_name(&self, sq: Square) -> String {
        let c = self.coord(sq);
        let file = (b'a' + c.file as u8) as char;
        format!("{}{file}{}", self.level_prefix(c.level), c.rank + 1)
    }

    /// The level letter that starts a cell name on boards with several levels (empty on flat
    /// boards).
    fn level_prefix(&self, level: i16) -> String {
        if self.levels > 1 {
            ((b'v' + level as u8) as char).to_string()
        } else {
            String::new()
        }
    }

    /// Name of a row (every file of one rank and level): the cell name without its file
    /// letter (`x4`; `4` on flat boards), as Gateway Chess names its Quantum King's rows.
    pub fn row_name(&self, rank: i16, level: i16) -> String {
        format!("{}{}", self.level_prefix(level), rank + 1)
    }

    /// Parses a row name written as [`Topology::row_name`] writes it: `(rank, level)`, or
    /// `None` if it is malformed (a leading zero included) or outside the box.
    pub fn parse_row(&self, s: &str) -> Option<(i16, i16)> {
        let split = usize::from(self.levels > 1);
        let (level, rank) = (s.get(..split)?, s.get(split..)?);
        let c = self.coord(self.parse_name(&format!("{level}a{rank}"))?);
        Some((c.rank, c.level))
    }

    /// Parses a cell name only in the form [`Topology::square_name`] writes (no leading zero
    /// in the rank), for the texts whose names are canonical; `None` otherwise. Holes
    /// included: the caller decides whether the cell must exist.
    pub fn parse_name(&self, s: &str) -> Option<Square> {
        self.parse_square(s).filter(|&sq| self.square_name(sq) == s)
    }

    /// Parses an algebraic cell name; `None` if it is malformed or outside the box.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let level = if self.levels > 1 {
            let l = chars.next()?;
            if !('v'..='z').contains(&l) {
                return None;
            }
            l as i16 - i16::from(b'v')
        } else {
            0
        };
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        // Up to three digits: a box may have 128 ranks.
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rank: i16 = digits.parse().ok()?;
        if rank < 1 {
            return None;
        }
        self.square_at(Coord {
            file: f as i16 - i16::from(b'a'),
            rank: rank - 1,
            level,
        })
    }

    /// A set of cells given by name, as a region for [`StepRule::SameRegion`].
    ///
    /// # Panics
    /// On a name that is not in the box (program data).
    pub fn region(&self, names: &[&str]) -> BitVec {
        let mut r = bitvec![0; self.num_squares()];
        for name in names {
            let sq = self
                .parse_square(name)
                .unwrap_or_else(|| panic!("no cell {name}"));
            r.set(sq.index(), true);
        }
        r
    }

    /// The rectangle of cells with files `f0..=f1` and ranks `r0..=r1` (0-based), as a region.
    pub fn rect_region(&self, f0: i16, f1: i16, r0: i16, r1: i16) -> BitVec {
        let mut r = bitvec![0; self.num_squares()];
        for rank in r0..=r1 {
            for file in f0..=f1 {
                if let Some(sq) = self.square_at(Coord {
                    file,
                    rank,
                    level: 0,
                }) {
                    r.set(sq.index(), true);
                }
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_are_monotone_in_cell_numbers() {
        let t = Topology::boxed(5, 4, 3).without(&["wb2"]);
        let vectors: Vec<Vector> = vec![[1, 0, 0], [-1, 2, 0], [1, 1, 1], [0, -1, 1], [2, -1, -1]];
        for sq in t.cells() {
            for &v in &vectors {
                let ray = t.ray(sq, v);
                let asc = t.ascending(v);
                let mut prev = sq;
                for s in ray {
                    assert_eq!(s > prev, asc, "{v:?} from {}", t.square_name(sq));
                    prev = s;
                }
            }
        }
    }

    #[test]
    fn names_round_trip_and_reject_garbage() {
        let t = Topology::rect(10, 10);
        for sq in t.cells() {
            assert_eq!(t.parse_square(&t.square_name(sq)), Some(sq));
        }
        for bad in ["", "a", "a0", "k1", "a11", "A1", "1a", "a1x", "a-1"] {
            assert_eq!(t.parse_square(bad), None, "{bad}");
        }
    }

    /// A 1x128 board was refused and walking off its last rank overflowed an `i8`: every
    /// coordinate of a 128-cell box, and three-digit rank names, work.
    #[test]
    fn boards_of_128_cells_in_one_line() {
        let t = Topology::rect(1, 128);
        for sq in t.cells() {
            assert_eq!(t.parse_square(&t.square_name(sq)), Some(sq));
        }
        let a1 = t.parse_square("a1").unwrap();
        let a128 = t.parse_square("a128").unwrap();
        assert_eq!(t.square_name(a128), "a128");
        assert_eq!(t.parse_square("a100").map(|s| t.coord(s).rank), Some(99));
        assert_eq!(t.ray(a1, [0, 1, 0]).last(), Some(&a128));
        assert_eq!(t.ray(a1, [0, 1, 0]).len(), 127);
        assert_eq!(t.walk(a128, [0, 1, 0]), None);
        assert_eq!(t.walk(a128, [0, 7, 0]), None);
        assert_eq!(t.rank_mirror(a1), a128);
        for bad in ["a0", "a129", "a999", "a1000", "b1"] {
            assert_eq!(t.parse_square(bad), None, "{bad}");
        }

        let t = Topology::rect(128, 1);
        let first = t.cells().next().unwrap();
        let ray = t.ray(first, [1, 0, 0]);
        assert_eq!(ray.len(), 127);
        assert_eq!(t.coord(*ray.last().unwrap()).file, 127);
        assert_eq!(t.walk(*ray.last().unwrap(), [2, 0, 0]), None);
        assert_eq!(t.ray(*ray.last().unwrap(), [-1, 0, 0]).len(), 127);
    }

    #[test]
    fn region_rule_blocks_steps_across_regions() {
        let t = Topology::rect(3, 1);
        let a = t.region(&["a1", "b1"]);
        let b = t.region(&["c1"]);
        let t = t.with_rule(StepRule::SameRegion(vec![a, b]));
        let a1 = t.parse_square("a1").unwrap();
        let b1 = t.parse_square("b1").unwrap();
        assert_eq!(t.walk(a1, [1, 0, 0]), Some(b1));
        assert_eq!(t.walk(b1, [1, 0, 0]), None);
        assert_eq!(t.ray(a1, [1, 0, 0]), vec![b1]);
    }
}

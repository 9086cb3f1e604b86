//! The network's input features: what [`Game::net_inputs`] reports, numbered per perspective.
//!
//! Each side sees the position from its own point of view: a piece is "own" or "enemy", on a
//! cell numbered from its owner's side (the numbering [`Game::eval_features`] uses), so the
//! mirrored position gives the other side exactly the same inputs. Features, in order:
//! - board: `(slot · kinds + kind) · cells + cell`, slot 0 own, 1 enemy;
//! - hand (where the variant has hands): a piece count `n` of a kind turns on the first `n`
//!   of its `hand` inputs (a thermometer, so "two in hand" is "one in hand" plus one);
//! - extras: the variant's state that no piece shows (Gateway's Quantum King rows, the
//!   dialectic tokens), own and enemy, or, for state that belongs to neither side, as seen by
//!   White and by Black.

use crate::features::{InputSink, NetShape};
use crate::{Color, Game};

/// The most active inputs of one perspective (the largest arrays and full hands fit).
pub const MAX_ACTIVE: usize = 512;

/// How a variant's inputs are numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputLayout {
    /// The variant's name.
    pub variant: &'static str,
    /// Material kinds ([`Game::material_kinds`]).
    pub kinds: usize,
    /// Cells of the board's numbering ([`Game::eval_cells`]).
    pub cells: usize,
    /// Hands and extras ([`Game::net_shape`]).
    pub shape: NetShape,
    /// All inputs.
    pub features: usize,
}

impl InputLayout {
    /// The layout of `G`'s inputs.
    pub fn of<G: Game>() -> InputLayout {
        let start = G::start();
        let (kinds, cells, shape) = (
            start.material_kinds().len(),
            start.eval_cells(),
            start.net_shape(),
        );
        InputLayout {
            variant: start.variant_name(),
            kinds,
            cells,
            shape,
            features: 2 * kinds * (cells + shape.hand) + 2 * shape.extras,
        }
    }

    /// The feature set's name, stored in a network file so that a network made for other
    /// inputs (another variant, or this one's before its inputs changed) is refused.
    pub fn name(&self) -> String {
        format!(
            "{}/v1/kinds{}-cells{}-hand{}-extras{}",
            self.variant, self.kinds, self.cells, self.shape.hand, self.shape.extras
        )
    }

    /// The input of a piece of `kind` on `cell`, `slot` 0 own and 1 enemy.
    pub fn board_input(&self, slot: usize, kind: usize, cell: usize) -> usize {
        (slot * self.kinds + kind) * self.cells + cell
    }

    /// The `j`-th (from 0) hand input of `kind`, `slot` 0 own and 1 enemy.
    pub fn hand_input(&self, slot: usize, kind: usize, j: usize) -> usize {
        2 * self.kinds * self.cells + (slot * self.kinds + kind) * self.shape.hand + j
    }

    /// Extra input `index` in `slot` (own and enemy, or as seen by White and by Black).
    pub fn extra_input(&self, slot: usize, index: usize) -> usize {
        2 * self.kinds * (self.cells + self.shape.hand) + slot * self.shape.extras + index
    }
}

/// One perspective's active inputs, sorted (an input may repeat: a stack of two discs of a
/// kind is that input twice).
#[derive(Clone, Debug)]
pub struct FeatureList {
    len: usize,
    items: [u16; MAX_ACTIVE],
    /// Whether more inputs were reported than fit (the list is then unusable).
    overflow: bool,
}

impl Default for FeatureList {
    fn default() -> FeatureList {
        FeatureList {
            len: 0,
            items: [0; MAX_ACTIVE],
            overflow: false,
        }
    }
}

impl FeatureList {
    /// The inputs, sorted.
    pub fn as_slice(&self) -> &[u16] {
        &self.items[..self.len]
    }

    fn push(&mut self, f: usize) {
        if self.len == MAX_ACTIVE {
            self.overflow = true;
            return;
        }
        self.items[self.len] = f as u16;
        self.len += 1;
    }
}

/// A position's active inputs from both sides' points of view.
#[derive(Clone, Debug, Default)]
pub struct Active {
    /// White's perspective, then Black's: index by [`Color::index`]; the side to move's
    /// list is `lists[pos.turn().index()]`.
    pub lists: [FeatureList; 2],
}

impl Active {
    /// Whether both lists hold every input reported.
    pub fn complete(&self) -> bool {
        !self.lists.iter().any(|l| l.overflow)
    }
}

/// One perspective's inputs as a sink fills them: a position's whole list, or the inputs a
/// move changed.
pub(super) trait InputList {
    fn push_input(&mut self, f: usize);
}

impl InputList for FeatureList {
    fn push_input(&mut self, f: usize) {
        self.push(f);
    }
}

impl InputList for Vec<u16> {
    fn push_input(&mut self, f: usize) {
        self.push(f as u16);
    }
}

/// Numbers what a position reports ([`InputSink`]) as both perspectives' inputs.
pub(super) struct Collect<'a, L: InputList> {
    pub(super) layout: &'a InputLayout,
    /// White's perspective, then Black's.
    pub(super) lists: &'a mut [L; 2],
}

impl<L: InputList> InputSink for Collect<'_, L> {
    fn piece(&mut self, color: Color, kind: usize, cell: usize) {
        let l = self.layout;
        if kind >= l.kinds || cell >= l.cells {
            debug_assert!(false, "net input off the layout: kind {kind}, cell {cell}");
            return;
        }
        for p in Color::ALL {
            let slot = usize::from(color != p);
            self.lists[p.index()].push_input(l.board_input(slot, kind, cell));
        }
    }

    fn in_hand(&mut self, color: Color, kind: usize, count: u32) {
        let l = self.layout;
        if kind >= l.kinds {
            debug_assert!(false, "hand input off the layout: kind {kind}");
            return;
        }
        let n = (count as usize).min(l.shape.hand);
        for p in Color::ALL {
            let slot = usize::from(color != p);
            for j in 0..n {
                self.lists[p.index()].push_input(l.hand_input(slot, kind, j));
            }
        }
    }

    fn extra(&mut self, owner: Option<Color>, index: usize) {
        let l = self.layout;
        if index >= l.shape.extras {
            debug_assert!(false, "extra input off the layout: {index}");
            return;
        }
        for p in Color::ALL {
            let slot = match owner {
                Some(c) => usize::from(c != p),
                None => p.index(),
            };
            self.lists[p.index()].push_input(l.extra_input(slot, index));
        }
    }
}

/// Fills `out` with `pos`'s active inputs, each list sorted.
pub fn active_features<G: Game>(pos: &G, layout: &InputLayout, out: &mut Active) {
    for l in &mut out.lists {
        l.len = 0;
        l.overflow = false;
    }
    pos.net_inputs(&mut Collect {
        layout,
        lists: &mut out.lists,
    });
    for l in &mut out.lists {
        l.items[..l.len].sort_unstable();
    }
}

/// The inputs to add and to remove to go from `from` to `to` (both sorted), as a merge of the
/// two lists: each repeated input counts as often as it appears.
pub fn diff(from: &[u16], to: &[u16], added: &mut Vec<u16>, removed: &mut Vec<u16>) {
    added.clear();
    removed.clear();
    let (mut i, mut j) = (0, 0);
    while i < from.len() && j < to.len() {
        match from[i].cmp(&to[j]) {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                removed.push(from[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                added.push(to[j]);
                j += 1;
            }
        }
    }
    removed.extend_from_slice(&from[i..]);
    added.extend_from_slice(&to[j..]);
}

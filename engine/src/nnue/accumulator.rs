//! The search's accumulators: one pair per ply, each updated from a nearby position's by the
//! inputs that differ, never summed again from nothing when a near one is at hand.
//!
//! The search copies a position and makes a move on the copy, so there is no "unmake" to
//! undo an update: a ply's accumulators are the parent's (or, when the parent was not
//! evaluated, the last position evaluated at this ply: a sibling) plus the inputs that
//! appeared and minus those that went. Where the variant reports those inputs itself
//! ([`Game::net_input_changes`]: the cells whose pieces differ), each ply keeps its position
//! and the update costs the move's few inputs; elsewhere each ply keeps its sorted input list
//! and the two lists are compared. Either difference is exact whatever the two positions are,
//! so the result never depends on which one was used; only the cost does.

use super::inputs::{active_features, diff, Active, Collect, InputLayout};
use super::network::Network;
use crate::Game;
use std::any::Any;
use std::sync::Arc;

/// Past this many changed inputs in a perspective, summing the position's inputs again costs
/// no more than the update (a chess position has at most 32).
const MAX_CHANGES: usize = 24;

/// Accumulators for each ply of a search with one network.
pub struct NetStack {
    net: Arc<Network>,
    layout: InputLayout,
    /// `plies × 2 × hidden`: ply `p`'s White and Black perspectives.
    acc: Vec<i16>,
    /// `plies × 2`: the linear-path sums beside them.
    psqt: Vec<i32>,
    /// Where the variant reports its changed inputs: each ply's position, a `Vec<G>`.
    positions: Option<Box<dyn Any + Send>>,
    /// Input lists (the other variants'): ply `p`'s are `inputs[slot[p]]`, and
    /// `inputs[scratch]` is being filled, so that keeping the new list is a swap of two
    /// indices.
    inputs: Vec<Active>,
    slot: Vec<usize>,
    scratch: usize,
    /// Whether each ply's accumulators hold the sums of its position (or input list).
    valid: Vec<bool>,
    /// Per perspective (White's, Black's): the inputs to add and to remove.
    added: [Vec<u16>; 2],
    removed: [Vec<u16>; 2],
}

impl NetStack {
    /// Accumulators for `plies` plies of `G` with `net` (checked against `G`'s inputs by the
    /// caller: [`Network::check`]).
    pub fn new<G: Game>(net: Arc<Network>, plies: usize) -> NetStack {
        let h = net.hidden();
        let layout = InputLayout::of::<G>();
        let start = G::start();
        // Whether the variant reports its changes: asked of the start position against itself.
        let [mut gone, mut came] = [[Vec::new(), Vec::new()], [Vec::new(), Vec::new()]];
        let by_moves = start.net_input_changes(
            &start,
            &mut Collect {
                layout: &layout,
                lists: &mut gone,
            },
            &mut Collect {
                layout: &layout,
                lists: &mut came,
            },
        );
        let positions: Option<Box<dyn Any + Send>> =
            by_moves.then(|| Box::new(vec![start.clone(); plies]) as Box<dyn Any + Send>);
        let lists = if by_moves { 1 } else { plies + 1 };
        NetStack {
            layout,
            acc: vec![0; plies * 2 * h],
            psqt: vec![0; plies * 2],
            positions,
            inputs: (0..lists).map(|_| Active::default()).collect(),
            slot: (0..plies).collect(),
            scratch: if by_moves { 0 } else { plies },
            valid: vec![false; plies],
            added: [Vec::with_capacity(64), Vec::with_capacity(64)],
            removed: [Vec::with_capacity(64), Vec::with_capacity(64)],
            net,
        }
    }

    /// Whether the network is added to the linear evaluation ([`Network::on_linear`]).
    pub fn on_linear(&self) -> bool {
        self.net.on_linear()
    }

    /// The network's evaluation of `pos`, at `ply` of the search, in centipawns for the side
    /// to move.
    pub fn evaluate<G: Game>(&mut self, pos: &G, ply: usize) -> i32 {
        let p = ply.min(self.valid.len() - 1);
        let base = [p.checked_sub(1), Some(p)]
            .into_iter()
            .flatten()
            .find(|&b| self.valid[b]);
        let by_moves = self
            .positions
            .as_mut()
            .and_then(|b| b.downcast_mut::<Vec<G>>());
        match by_moves {
            Some(positions) => {
                let near = base.filter(|&b| {
                    self.added.iter_mut().for_each(Vec::clear);
                    self.removed.iter_mut().for_each(Vec::clear);
                    let layout = &self.layout;
                    pos.net_input_changes(
                        &positions[b],
                        &mut Collect {
                            layout,
                            lists: &mut self.removed,
                        },
                        &mut Collect {
                            layout,
                            lists: &mut self.added,
                        },
                    );
                    self.added[0].len() + self.removed[0].len() <= MAX_CHANGES
                });
                positions[p].clone_from(pos);
                match near {
                    Some(b) => self.update(p, b),
                    None => self.refresh(pos, p),
                }
            }
            None => self.by_lists(pos, p, base),
        }
        self.valid[p] = true;
        let us = pos.turn().index();
        let h = self.net.hidden();
        let at = |side: usize| (p * 2 + side) * h;
        self.net.output(
            &self.acc[at(us)..at(us) + h],
            &self.acc[at(1 - us)..at(1 - us) + h],
            self.psqt[p * 2 + us] - self.psqt[p * 2 + 1 - us],
        )
    }

    /// Ply `p`'s accumulators from ply `b`'s and the changes in `added` and `removed`.
    fn update(&mut self, p: usize, b: usize) {
        for side in 0..2 {
            self.update_side(p, b, side);
        }
    }

    /// [`NetStack::update`] of one perspective: from another ply, the parent's accumulator
    /// is read and this ply's written in the same pass (no copy first).
    fn update_side(&mut self, p: usize, b: usize, side: usize) {
        let h = self.net.hidden();
        let (start, src) = ((p * 2 + side) * h, (b * 2 + side) * h);
        let mut psqt = self.psqt[b * 2 + side];
        let (removed, added) = (self.removed[side].as_slice(), self.added[side].as_slice());
        let (from, to) = if b == p {
            (None, &mut self.acc[start..start + h])
        } else if b < p {
            let (lo, hi) = self.acc.split_at_mut(start);
            (Some(&lo[src..src + h]), &mut hi[..h])
        } else {
            let (lo, hi) = self.acc.split_at_mut(src);
            (Some(&hi[..h]), &mut lo[start..start + h])
        };
        self.net.apply(from, to, &mut psqt, added, removed);
        self.psqt[p * 2 + side] = psqt;
    }

    /// Ply `p`'s accumulators summed from `pos`'s inputs (listed in the scratch list).
    fn refresh<G: Game>(&mut self, pos: &G, p: usize) {
        let h = self.net.hidden();
        let list = &mut self.inputs[self.scratch];
        active_features(pos, &self.layout, list);
        for side in 0..2 {
            let start = (p * 2 + side) * h;
            let to = list.lists[side].as_slice();
            self.psqt[p * 2 + side] = self.net.refresh(to, &mut self.acc[start..start + h]);
        }
    }

    /// Ply `p`'s accumulators where the variant does not report its changes: `pos`'s inputs
    /// listed and compared with the base ply's list.
    fn by_lists<G: Game>(&mut self, pos: &G, p: usize, base: Option<usize>) {
        active_features(pos, &self.layout, &mut self.inputs[self.scratch]);
        let h = self.net.hidden();
        for side in 0..2 {
            let to = self.inputs[self.scratch].lists[side].as_slice();
            let start = (p * 2 + side) * h;
            let from = base.inspect(|&b| {
                diff(
                    self.inputs[self.slot[b]].lists[side].as_slice(),
                    to,
                    &mut self.added[side],
                    &mut self.removed[side],
                );
            });
            // Past half the list, adding every row again costs no more.
            let near = from
                .filter(|_| self.added[side].len() + self.removed[side].len() <= to.len() / 2 + 2);
            match near {
                Some(b) => self.update_side(p, b, side),
                None => {
                    let to = self.inputs[self.scratch].lists[side].as_slice();
                    self.psqt[p * 2 + side] = self.net.refresh(to, &mut self.acc[start..start + h]);
                }
            }
        }
        std::mem::swap(&mut self.slot[p], &mut self.scratch);
    }
}

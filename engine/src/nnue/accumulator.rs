//! The search's accumulators: one pair per ply, each updated from a nearby position's by the
//! inputs that differ, never summed again from nothing when a near one is at hand.
//!
//! The search copies a position and makes a move on the copy, so there is no "unmake" to
//! undo an update: a ply's accumulators are the parent's (or, when the parent was not
//! evaluated, the last position evaluated at this ply: a sibling) plus the inputs that
//! appeared and minus those that went. The difference of two sorted input lists is exact
//! whatever the two positions are, so the result never depends on which one was used; only
//! the cost does.

use super::inputs::{active_features, diff, Active, InputLayout};
use super::network::Network;
use crate::Game;
use std::sync::Arc;

/// Accumulators for each ply of a search with one network.
pub struct NetStack {
    net: Arc<Network>,
    layout: InputLayout,
    /// `plies × 2 × hidden`: ply `p`'s White and Black perspectives.
    acc: Vec<i16>,
    /// `plies × 2`: the linear-path sums beside them.
    psqt: Vec<i32>,
    /// Input lists: ply `p`'s are `inputs[slot[p]]`, and `inputs[scratch]` is being filled,
    /// so that keeping the new list is a swap of two indices.
    inputs: Vec<Active>,
    slot: Vec<usize>,
    scratch: usize,
    /// Whether each ply's accumulators hold its inputs' sums.
    valid: Vec<bool>,
    added: Vec<u16>,
    removed: Vec<u16>,
}

impl NetStack {
    /// Accumulators for `plies` plies of `G` with `net` (checked against `G`'s inputs by the
    /// caller: [`Network::check`]).
    pub fn new<G: Game>(net: Arc<Network>, plies: usize) -> NetStack {
        let h = net.hidden();
        NetStack {
            layout: InputLayout::of::<G>(),
            acc: vec![0; plies * 2 * h],
            psqt: vec![0; plies * 2],
            inputs: (0..=plies).map(|_| Active::default()).collect(),
            slot: (0..plies).collect(),
            scratch: plies,
            valid: vec![false; plies],
            added: Vec::with_capacity(64),
            removed: Vec::with_capacity(64),
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
        active_features(pos, &self.layout, &mut self.inputs[self.scratch]);
        let base = [p.checked_sub(1), Some(p)]
            .into_iter()
            .flatten()
            .find(|&b| self.valid[b]);
        let h = self.net.hidden();
        for side in 0..2 {
            let to = self.inputs[self.scratch].lists[side].as_slice();
            let start = (p * 2 + side) * h;
            let from = base.inspect(|&b| {
                diff(
                    self.inputs[self.slot[b]].lists[side].as_slice(),
                    to,
                    &mut self.added,
                    &mut self.removed,
                );
            });
            // Past half the list, adding every row again costs no more.
            let near = from.filter(|_| self.added.len() + self.removed.len() <= to.len() / 2 + 2);
            match near {
                Some(b) => {
                    if b != p {
                        let src = (b * 2 + side) * h;
                        self.acc.copy_within(src..src + h, start);
                        self.psqt[p * 2 + side] = self.psqt[b * 2 + side];
                    }
                    let acc = &mut self.acc[start..start + h];
                    let psqt = &mut self.psqt[p * 2 + side];
                    for &f in &self.removed {
                        self.net.sub_row(acc, psqt, f);
                    }
                    for &f in &self.added {
                        self.net.add_row(acc, psqt, f);
                    }
                }
                None => {
                    self.psqt[p * 2 + side] = self.net.refresh(to, &mut self.acc[start..start + h]);
                }
            }
        }
        std::mem::swap(&mut self.slot[p], &mut self.scratch);
        self.valid[p] = true;
        let us = pos.turn().index();
        let at = |side: usize| (p * 2 + side) * h;
        self.net.output(
            &self.acc[at(us)..at(us) + h],
            &self.acc[at(1 - us)..at(1 - us) + h],
            self.psqt[p * 2 + us] - self.psqt[p * 2 + 1 - us],
        )
    }
}

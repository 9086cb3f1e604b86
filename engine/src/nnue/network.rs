//! The network: its float form (what the trainer fits), its integer form (what the search
//! evaluates with) and the file that carries the integer form with how it was made.
//!
//! Shape: inputs → two accumulators of `hidden` cells (one per perspective, the same
//! weights) → SCReLU (`clamp(x, 0, 1)²`) → one output from the side to move's half and then
//! the other's, plus a linear path straight from the inputs (`psqt`: one weight per input,
//! the side to move's sum less the other's, halved). Centipawns are the output times
//! [`SCALE`]. Why the linear path: it starts at the variant's material values
//! ([`material_psqt`]), so a network trained on a few hundred thousand balanced positions
//! still knows what a Queen up is worth; without it the first chess network valued a Queen
//! at about 400 cp and lost an SPRT by 450 Elo.
//!
//! File (`.vlnet`, little-endian): the 8 bytes [`MAGIC`]; a `u32` length and that many bytes
//! of JSON ([`NetInfo`]: the variant, the input layout's name, the sizes and how the network
//! was made); the input weights (`features × hidden` `i16`, one row of `hidden` per input),
//! the accumulator biases (`hidden` `i16`), the output weights (`2 × hidden` `i16`), the
//! output bias (`i32`) and the linear path (`features` `i32`). Input weights and biases are
//! scaled by [`QA`], output weights by [`QB`], the output bias and the linear path by
//! `QA · QB`.

use super::inputs::{Active, InputLayout};
use super::kernels;
use crate::{Color, Game};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Centipawns per unit of the network's output.
pub const SCALE: f32 = 400.0;
/// Integer scale of the accumulator (input weights and biases): an activation of 1 is `QA`.
pub const QA: i32 = 255;
/// Integer scale of the output weights.
pub const QB: i32 = 256;
/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"VLNET\0\0\x02";
/// The largest network file read (a network of 4096 cells over 4096 inputs is 32 MiB).
pub const MAX_NET_BYTES: u64 = 64 << 20;
/// The largest JSON header read.
const MAX_INFO: usize = 1 << 16;

/// A network file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NetError {
    /// Not a network file, truncated, or inconsistent.
    #[error("{0}")]
    Format(String),
    /// Made for another variant or another input layout.
    #[error("the network is for inputs {found:?}, not {expected:?} (this variant's)")]
    Inputs {
        /// The variant's input layout.
        expected: String,
        /// The file's.
        found: String,
    },
}

/// How a network was made, carried in its file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NetInfo {
    /// The variant.
    pub variant: String,
    /// The input layout's name ([`InputLayout::name`]).
    pub inputs: String,
    /// Inputs.
    pub features: usize,
    /// Accumulator cells per perspective.
    pub hidden: usize,
    /// The data it was trained on (files, as given).
    #[serde(default)]
    pub data: Vec<String>,
    /// Training positions.
    #[serde(default)]
    pub positions: u64,
    /// Epochs trained (the kept epoch).
    #[serde(default)]
    pub epochs: u32,
    /// Loss on the training positions at the kept epoch.
    #[serde(default)]
    pub train_loss: f64,
    /// Loss on the held-out games' positions at the kept epoch.
    #[serde(default)]
    pub valid_loss: f64,
    /// Share of the target taken from the search score rather than the result.
    #[serde(default)]
    pub score_weight: f64,
    /// The training seed.
    #[serde(default)]
    pub seed: u64,
    /// The toolkit's commit that trained it.
    #[serde(default)]
    pub commit: String,
    /// Anything else the trainer records (its settings, time taken).
    #[serde(default)]
    pub notes: serde_json::Map<String, serde_json::Value>,
    /// What the network's output is added to: `None`, nothing (it is the whole evaluation);
    /// [`BASE_LINEAR`], the variant's linear evaluation, so that the network learns only what
    /// the hand-made terms miss (trained on their residual: `train-net --on-linear`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
}

/// [`NetInfo::base`] of a network added to the variant's linear evaluation (the embedded
/// tuned weights, else the classic terms: [`crate::search::EvalChoice::Linear`]).
pub const BASE_LINEAR: &str = "linear";

/// The network in floats: what the trainer fits.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Inputs.
    pub features: usize,
    /// Accumulator cells per perspective.
    pub hidden: usize,
    /// `features × hidden`, the row of input `f` at `f · hidden`.
    pub ft_weights: Vec<f32>,
    /// `hidden`.
    pub ft_bias: Vec<f32>,
    /// `2 × hidden`: the side to move's half first.
    pub out_weights: Vec<f32>,
    /// The output bias.
    pub out_bias: f32,
    /// `features`: the linear path's weight of each input.
    pub psqt: Vec<f32>,
}

/// The linear path's weights that make it `G`'s material balance at its default values
/// ([`Game::material_kinds`]): a piece on any cell or in hand is worth its value, to its side.
pub fn material_psqt<G: Game>() -> Vec<f32> {
    let layout = InputLayout::of::<G>();
    let values: Vec<f32> = G::start()
        .material_kinds()
        .iter()
        .map(|&(_, v)| v as f32 / SCALE)
        .collect();
    let mut psqt = vec![0.0; layout.features];
    for (kind, &v) in values.iter().enumerate() {
        // Own pieces add to the side's sum, enemy ones take from it; the output halves the
        // difference of the two sides' sums, which counts each piece twice.
        for (slot, sign) in [(0, 1.0), (1, -1.0)] {
            for cell in 0..layout.cells {
                psqt[layout.board_input(slot, kind, cell)] = sign * v;
            }
            for j in 0..layout.shape.hand {
                psqt[layout.hand_input(slot, kind, j)] = sign * v;
            }
        }
    }
    psqt
}

/// The activation: `clamp(x, 0, 1)²`.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// A network with small seeded random weights (uniform, scaled by the fan-in).
    pub fn new(features: usize, hidden: usize, seed: u64) -> FloatNet {
        let mut rng = crate::zobrist::SplitMix64(seed ^ 0x6e6e_7565_5f69_6e69);
        let mut uniform = |scale: f32| {
            let u = (rng.next() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * scale
        };
        // Inputs: a position has a few dozen active, so rows of about 1/√32.
        let ft_weights = (0..features * hidden).map(|_| uniform(0.18)).collect();
        let ft_bias = (0..hidden).map(|_| uniform(0.1) + 0.1).collect();
        let out_weights = (0..2 * hidden)
            .map(|_| uniform(1.0 / (hidden as f32).sqrt()))
            .collect();
        FloatNet {
            features,
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias: 0.0,
            psqt: vec![0.0; features],
        }
    }

    /// One perspective's linear-path sum.
    pub fn psqt_sum(&self, inputs: &[u16]) -> f32 {
        inputs.iter().map(|&f| self.psqt[f as usize]).sum()
    }

    /// One perspective's accumulator.
    pub fn accumulate(&self, inputs: &[u16]) -> Vec<f32> {
        let mut acc = self.ft_bias.clone();
        for &f in inputs {
            let row = &self.ft_weights[f as usize * self.hidden..][..self.hidden];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
        acc
    }

    /// The output (in units of [`SCALE`] centipawns) for the side `turn` to move.
    pub fn output(&self, active: &Active, turn: Color) -> f32 {
        let us = self.accumulate(active.lists[turn.index()].as_slice());
        let them = self.accumulate(active.lists[(!turn).index()].as_slice());
        let (w_us, w_them) = self.out_weights.split_at(self.hidden);
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum()
        };
        let (l_us, l_them) = (
            self.psqt_sum(active.lists[turn.index()].as_slice()),
            self.psqt_sum(active.lists[(!turn).index()].as_slice()),
        );
        dot(&us, w_us) + dot(&them, w_them) + self.out_bias + 0.5 * (l_us - l_them)
    }

    /// The evaluation in centipawns for the side `turn` to move.
    pub fn evaluate(&self, active: &Active, turn: Color) -> f32 {
        self.output(active, turn) * SCALE
    }
}

/// The network in integers: what the search evaluates with.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// How it was made, and for which inputs.
    pub info: NetInfo,
    pub(super) hidden: usize,
    pub(super) ft_weights: Vec<i16>,
    pub(super) ft_bias: Vec<i16>,
    pub(super) out_weights: Vec<i16>,
    pub(super) out_bias: i32,
    pub(super) psqt: Vec<i32>,
    /// How many of the output's products an `i32` sum holds for these output weights
    /// ([`output_chunk`]).
    pub(super) out_chunk: usize,
}

/// How many products `v² · w` (`0 ≤ v ≤ QA`) an `i32` holds the sum of, for output weights
/// `out`: a trained network's are small (a few dozen), so the output sums all its cells in
/// 32-bit lanes and widens once; weights near the `i16` limits widen every product.
fn output_chunk(out: &[i16]) -> usize {
    let largest = out
        .iter()
        .map(|w| w.unsigned_abs())
        .max()
        .unwrap_or(0)
        .max(1);
    (i32::MAX as u64 / (QA as u64 * QA as u64 * u64::from(largest))).max(1) as usize
}

fn quantize(x: f32, scale: i32, clamped: &mut usize) -> i16 {
    let v = (x * scale as f32).round();
    if !(i16::MIN as f32..=i16::MAX as f32).contains(&v) {
        *clamped += 1;
    }
    v.clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

impl Network {
    /// The integer form of `net`, for `G`'s inputs; `info`'s variant, inputs and sizes are
    /// set from `G` and `net`. Also says how many weights fell outside the integer range and
    /// were clamped (a trainer keeps that at 0 by clipping its weights).
    pub fn quantize<G: Game>(net: &FloatNet, mut info: NetInfo) -> (Network, usize) {
        let layout = InputLayout::of::<G>();
        info.variant = layout.variant.to_string();
        info.inputs = layout.name();
        info.features = net.features;
        info.hidden = net.hidden;
        let mut clamped = 0;
        let mut q = |xs: &[f32], scale: i32| -> Vec<i16> {
            xs.iter()
                .map(|&x| quantize(x, scale, &mut clamped))
                .collect()
        };
        let ft_weights = q(&net.ft_weights, QA);
        let ft_bias = q(&net.ft_bias, QA);
        let out_weights = q(&net.out_weights, QB);
        let out_bias = (net.out_bias * (QA * QB) as f32).round() as i32;
        let psqt = net
            .psqt
            .iter()
            .map(|&x| (x * (QA * QB) as f32).round() as i32)
            .collect();
        (
            Network {
                info,
                hidden: net.hidden,
                ft_weights,
                ft_bias,
                out_chunk: output_chunk(&out_weights),
                out_weights,
                out_bias,
                psqt,
            },
            clamped,
        )
    }

    /// Accumulator cells per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Whether the network's output is added to the variant's linear evaluation
    /// ([`BASE_LINEAR`]) rather than being the whole evaluation.
    pub fn on_linear(&self) -> bool {
        self.info.base.as_deref() == Some(BASE_LINEAR)
    }

    /// Whether the network fits `G`'s inputs.
    ///
    /// # Errors
    /// [`NetError::Inputs`] naming both layouts.
    pub fn check<G: Game>(&self) -> Result<(), NetError> {
        let layout = InputLayout::of::<G>();
        if self.info.inputs != layout.name() || self.info.features != layout.features {
            return Err(NetError::Inputs {
                expected: layout.name(),
                found: self.info.inputs.clone(),
            });
        }
        Ok(())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let info = serde_json::to_vec(&self.info).expect("network info serialises");
        let mut out = Vec::with_capacity(16 + info.len() + 2 * self.ft_weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(info.len() as u32).to_le_bytes());
        out.extend_from_slice(&info);
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        for p in &self.psqt {
            out.extend_from_slice(&p.to_le_bytes());
        }
        out
    }

    /// A network from a file's bytes.
    ///
    /// # Errors
    /// [`NetError::Format`] saying what is wrong and at which byte.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let bad = |m: String| Err(NetError::Format(m));
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return bad("not a variantlab network file (it does not start with VLNET)".into());
        }
        let len = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        if len > MAX_INFO || 12 + len > bytes.len() {
            return bad(format!(
                "the header says {len} bytes of description at byte 12, the file has {}",
                bytes.len()
            ));
        }
        let info: NetInfo = serde_json::from_slice(&bytes[12..12 + len])
            .map_err(|e| NetError::Format(format!("its description (bytes 12..): {e}")))?;
        if let Some(b) = info.base.as_deref().filter(|&b| b != BASE_LINEAR) {
            return bad(format!(
                "its base {b:?} is not one this build knows ({BASE_LINEAR:?}, or none)"
            ));
        }
        let (f, h) = (info.features, info.hidden);
        if h == 0 || h > 4096 || f == 0 || f > 1 << 20 {
            return bad(format!(
                "{f} inputs and {h} cells are not a network's sizes"
            ));
        }
        let words = f * h + h + 2 * h;
        let body = &bytes[12 + len..];
        let size = 2 * words + 4 + 4 * f;
        if body.len() != size {
            return bad(format!(
                "{f} inputs and {h} cells take {size} bytes of weights after the description, the file has {}",
                body.len()
            ));
        }
        let mut w: Vec<i16> = body[..2 * words]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let word = |at: usize| i32::from_le_bytes(body[at..at + 4].try_into().expect("4 bytes"));
        let out_bias = word(2 * words);
        let psqt = (0..f).map(|i| word(2 * words + 4 + 4 * i)).collect();
        let out_weights = w.split_off(f * h + h);
        let ft_bias = w.split_off(f * h);
        Ok(Network {
            info,
            hidden: h,
            ft_weights: w,
            ft_bias,
            out_chunk: output_chunk(&out_weights),
            out_weights,
            out_bias,
            psqt,
        })
    }

    /// The network in the file at `path` (at most [`MAX_NET_BYTES`]).
    ///
    /// # Errors
    /// An unreadable file, or one that is not a network ([`Network::from_bytes`]).
    pub fn read(path: &std::path::Path) -> Result<Network, NetError> {
        let bytes = crate::textfile::read_file(path, MAX_NET_BYTES)
            .map_err(|e| NetError::Format(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// Writes the network file.
    ///
    /// # Errors
    /// The file's write error.
    pub fn write(&self, path: &std::path::Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }

    /// The evaluation of `pos` in centipawns for the side to move, computed from nothing (the
    /// search updates its accumulators instead: [`super::NetStack`]).
    pub fn evaluate<G: Game>(&self, pos: &G) -> i32 {
        let layout = InputLayout::of::<G>();
        let mut a = Box::<Active>::default();
        super::inputs::active_features(pos, &layout, &mut a);
        let mut acc = [vec![0; self.hidden], vec![0; self.hidden]];
        let mut psqt = [0; 2];
        for (p, acc) in acc.iter_mut().enumerate() {
            psqt[p] = self.refresh(a.lists[p].as_slice(), acc);
        }
        let us = pos.turn().index();
        self.output(&acc[us], &acc[1 - us], psqt[us] - psqt[1 - us])
    }

    /// One perspective's accumulator from its inputs; returns its linear-path sum.
    pub(super) fn refresh(&self, inputs: &[u16], acc: &mut [i16]) -> i32 {
        let mut psqt = 0;
        self.apply(Some(&self.ft_bias), acc, &mut psqt, inputs, &[]);
        psqt
    }

    /// `to` = `from` (`to` itself where `None`) + the rows of the inputs `added` − those of
    /// `removed`, and the linear-path sum `psqt` moved by the same inputs: one pass over the
    /// accumulator whatever the number of changes ([`kernels::apply_rows`]).
    #[inline]
    pub(super) fn apply(
        &self,
        from: Option<&[i16]>,
        to: &mut [i16],
        psqt: &mut i32,
        added: &[u16],
        removed: &[u16],
    ) {
        kernels::apply_rows(&self.ft_weights, self.hidden, from, to, added, removed);
        for &f in added {
            *psqt = psqt.wrapping_add(self.psqt[f as usize]);
        }
        for &f in removed {
            *psqt = psqt.wrapping_sub(self.psqt[f as usize]);
        }
    }

    /// Centipawns from the side to move's and the other side's accumulators and the
    /// difference of their linear-path sums.
    pub(super) fn output(&self, us: &[i16], them: &[i16], psqt: i32) -> i32 {
        let (w_us, w_them) = self.out_weights.split_at(self.hidden);
        // One v² · w fits an i32 (255² · 32768 < 2³¹), and `out_chunk` of them their sum, so
        // the products are summed in i32 lanes (vectorised) and each chunk's sum widened.
        let dot = |acc: &[i16], w: &[i16]| kernels::screlu_dot(acc, w, QA, self.out_chunk);
        let sum = (dot(us, w_us) + dot(them, w_them)) / i64::from(QA)
            + i64::from(self.out_bias)
            + i64::from(psqt) / 2;
        (sum * SCALE as i64 / i64::from(QA * QB)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The output's chunked i32 sums equal the sum widened at every product, for small
    /// trained-size weights (one chunk) and for weights at the `i16` limits (chunks of one).
    #[test]
    fn the_output_sums_exactly_whatever_the_weights() {
        let mut rng = crate::zobrist::SplitMix64(5);
        for largest in [66i32, 2000, 32767] {
            let hidden = 128;
            let mut draw = |range: i32| (rng.next() % (2 * range as u64 + 1)) as i32 - range;
            let out_weights: Vec<i16> = (0..2 * hidden).map(|_| draw(largest) as i16).collect();
            let us: Vec<i16> = (0..hidden).map(|_| draw(400) as i16).collect();
            let them: Vec<i16> = (0..hidden).map(|_| draw(400) as i16).collect();
            let net = Network {
                info: NetInfo::default(),
                hidden,
                ft_weights: Vec::new(),
                ft_bias: Vec::new(),
                out_chunk: output_chunk(&out_weights),
                out_weights,
                out_bias: 17,
                psqt: Vec::new(),
            };
            let reference = |acc: &[i16], w: &[i16]| -> i64 {
                acc.iter()
                    .zip(w)
                    .map(|(&a, &w)| {
                        let v = i64::from(a.clamp(0, QA as i16));
                        v * v * i64::from(w)
                    })
                    .sum()
            };
            let (w_us, w_them) = net.out_weights.split_at(hidden);
            let sum = (reference(&us, w_us) + reference(&them, w_them)) / i64::from(QA) + 17 + 3;
            let expected = (sum * SCALE as i64 / i64::from(QA * QB)) as i32;
            assert_eq!(
                net.output(&us, &them, 6),
                expected,
                "weights up to {largest}"
            );
        }
        assert_eq!(output_chunk(&[i16::MIN]), 1);
        assert!(output_chunk(&[66, -12]) >= 128);
    }
}

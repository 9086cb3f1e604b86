//! The trainer's arithmetic: the float network's forward and backward pass over a batch of
//! positions, its loss, and Adam. Hand-written because the first layer is sparse: a
//! position touches only its active inputs' rows, a few dozen of thousands.
//!
//! Loss of a position: `(σ(K · (out + base)) − target)²`, where `out · SCALE` is the network's
//! centipawns, so `σ(K · out)` is `σ(K · cp / 400)`, the expected result the tuner uses;
//! `base` is what the output is added to (the linear evaluation, for a network trained on its
//! residual, else 0).
//!
//! Reproducible whatever the thread count: a batch is cut into chunks of [`CHUNK`]
//! positions, each chunk's gradient is summed in position order on whichever thread, and
//! the chunks' gradients are added in chunk order.

use rayon::prelude::*;
use variantlab_engine::nnue::{screlu, FloatNet};

/// Positions per chunk of a batch (fixed, so sums do not depend on the thread count).
pub const CHUNK: usize = 256;
/// Input weights and accumulator biases are kept within ±this: times `QA` = 255 they stay
/// far inside `i16`, and the sum of a position's rows does too.
pub const FT_CLIP: f32 = 1.98;
/// Output weights are kept within ±this: times `QB` = 256 they fit `i16`.
pub const OUT_CLIP: f32 = 127.0;
/// The linear path's weights are kept within ±this (in units of 400 cp: 40,000 cp), far
/// inside the `i32` they become times `QA · QB`.
pub const PSQT_CLIP: f32 = 100.0;

/// Positions as the network sees them: each position's side-to-move inputs, then the other
/// side's, as slices of one array.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Start of each position's two lists in `features`: position `i`'s side to move's list
    /// is `features[starts[2i]..starts[2i + 1]]`, the other's `..starts[2i + 2]`.
    pub starts: Vec<u32>,
    /// The inputs.
    pub features: Vec<u16>,
    /// Target of each position (an expected result, 0 to 1).
    pub target: Vec<f32>,
    /// What the network's output is added to, per position, in its units (`SCALE`
    /// centipawns): the linear evaluation for a network trained on its residual; empty for
    /// none.
    pub base: Vec<f32>,
}

impl Inputs {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.target.len()
    }
    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }
    /// Adds a position.
    pub fn push(&mut self, us: &[u16], them: &[u16], target: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.features.extend_from_slice(us);
        self.starts.push(self.features.len() as u32);
        self.features.extend_from_slice(them);
        self.starts.push(self.features.len() as u32);
        self.target.push(target);
    }
    /// What position `i`'s output is added to (0 without a base).
    #[inline]
    pub fn base(&self, i: usize) -> f32 {
        self.base.get(i).copied().unwrap_or(0.0)
    }
    /// Position `i`'s two lists.
    pub fn lists(&self, i: usize) -> [&[u16]; 2] {
        let s = |k: usize| self.starts[k] as usize;
        [
            &self.features[s(2 * i)..s(2 * i + 1)],
            &self.features[s(2 * i + 1)..s(2 * i + 2)],
        ]
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network's output for lists `[us, them]`, with both accumulators (before the
/// activation) left in `acc`.
fn forward(net: &FloatNet, lists: [&[u16]; 2], acc: &mut [Vec<f32>; 2]) -> f32 {
    let h = net.hidden;
    let mut out = net.out_bias;
    for (p, list) in lists.iter().enumerate() {
        let a = &mut acc[p];
        a.clear();
        a.extend_from_slice(&net.ft_bias);
        for &f in *list {
            let row = &net.ft_weights[f as usize * h..][..h];
            a.iter_mut().zip(row).for_each(|(x, w)| *x += w);
        }
        let w = &net.out_weights[p * h..][..h];
        out += a.iter().zip(w).map(|(&x, &w)| screlu(x) * w).sum::<f32>();
        // The linear path: half the side to move's sum less half the other's.
        let sign = if p == 0 { 0.5 } else { -0.5 };
        out += sign * list.iter().map(|&f| net.psqt[f as usize]).sum::<f32>();
    }
    out
}

/// The mean loss of positions `rows` of `data`.
pub fn loss(net: &FloatNet, data: &Inputs, rows: &[usize], k: f32) -> f64 {
    let parts: Vec<f64> = rows
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut acc = [Vec::new(), Vec::new()];
            chunk
                .iter()
                .map(|&i| {
                    let p = sigmoid(k * (forward(net, data.lists(i), &mut acc) + data.base(i)));
                    let e = (p - data.target[i]) as f64;
                    e * e
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / rows.len().max(1) as f64
}

/// A gradient of the network's parameters (laid out as [`FloatNet`]'s).
#[derive(Clone, Debug)]
pub struct Gradient {
    /// Of the input weights.
    pub ft_weights: Vec<f32>,
    /// Of the accumulator biases.
    pub ft_bias: Vec<f32>,
    /// Of the output weights.
    pub out_weights: Vec<f32>,
    /// Of the output bias.
    pub out_bias: f32,
    /// Of the linear path's weights.
    pub psqt: Vec<f32>,
}

impl Gradient {
    /// All zero, for `net`.
    pub fn zero(net: &FloatNet) -> Gradient {
        Gradient {
            ft_weights: vec![0.0; net.ft_weights.len()],
            ft_bias: vec![0.0; net.hidden],
            out_weights: vec![0.0; 2 * net.hidden],
            out_bias: 0.0,
            psqt: vec![0.0; net.features],
        }
    }
}

/// One chunk's gradient: dense for the small parameters, the input weights only for the
/// rows its positions touch (`rows`, in order of first touch, with their values in
/// `ft`).
struct ChunkGradient {
    rows: Vec<u16>,
    ft: Vec<f32>,
    ft_bias: Vec<f32>,
    out_weights: Vec<f32>,
    out_bias: f32,
    /// The linear path's, by the rows in `rows`.
    psqt: Vec<f32>,
    loss: f64,
}

fn chunk_gradient(net: &FloatNet, data: &Inputs, chunk: &[usize], k: f32) -> ChunkGradient {
    let h = net.hidden;
    let mut slot = vec![u32::MAX; net.features];
    let mut g = ChunkGradient {
        rows: Vec::new(),
        ft: Vec::new(),
        ft_bias: vec![0.0; h],
        out_weights: vec![0.0; 2 * h],
        out_bias: 0.0,
        psqt: Vec::new(),
        loss: 0.0,
    };
    let mut acc = [Vec::with_capacity(h), Vec::with_capacity(h)];
    let mut d_acc = vec![0.0f32; h];
    for &i in chunk {
        let lists = data.lists(i);
        let p = sigmoid(k * (forward(net, lists, &mut acc) + data.base(i)));
        let e = p - data.target[i];
        g.loss += (e as f64) * (e as f64);
        // d(e²)/d out = 2e · σ' · K.
        let d_out = 2.0 * e * p * (1.0 - p) * k;
        g.out_bias += d_out;
        for (side, list) in lists.iter().enumerate() {
            let w = &net.out_weights[side * h..][..h];
            let gw = &mut g.out_weights[side * h..][..h];
            for j in 0..h {
                let x = acc[side][j];
                gw[j] += d_out * screlu(x);
                d_acc[j] = if x > 0.0 && x < 1.0 {
                    d_out * w[j] * 2.0 * x
                } else {
                    0.0
                };
                g.ft_bias[j] += d_acc[j];
            }
            let d_psqt = if side == 0 { 0.5 * d_out } else { -0.5 * d_out };
            for &f in *list {
                let s = &mut slot[f as usize];
                if *s == u32::MAX {
                    *s = g.rows.len() as u32;
                    g.rows.push(f);
                    g.ft.resize(g.ft.len() + h, 0.0);
                    g.psqt.push(0.0);
                }
                let row = &mut g.ft[*s as usize * h..][..h];
                row.iter_mut().zip(&d_acc).for_each(|(r, d)| *r += d);
                g.psqt[*s as usize] += d_psqt;
            }
        }
    }
    g
}

/// The gradient of the mean loss over positions `rows` (and that loss), added into `grad`
/// (which must be zero; only rows touched are written, and `touched` lists them).
pub fn gradient(
    net: &FloatNet,
    data: &Inputs,
    rows: &[usize],
    k: f32,
    grad: &mut Gradient,
    touched: &mut Vec<u16>,
) -> f64 {
    let h = net.hidden;
    let parts: Vec<ChunkGradient> = rows
        .par_chunks(CHUNK)
        .map(|chunk| chunk_gradient(net, data, chunk, k))
        .collect();
    let scale = 1.0 / rows.len().max(1) as f32;
    let mut seen = vec![false; net.features];
    let mut loss = 0.0;
    touched.clear();
    for part in parts {
        loss += part.loss;
        for (r, &f) in part.rows.iter().enumerate() {
            if !seen[f as usize] {
                seen[f as usize] = true;
                touched.push(f);
            }
            let dst = &mut grad.ft_weights[f as usize * h..][..h];
            let src = &part.ft[r * h..][..h];
            dst.iter_mut().zip(src).for_each(|(d, s)| *d += s * scale);
            grad.psqt[f as usize] += part.psqt[r] * scale;
        }
        grad.ft_bias
            .iter_mut()
            .zip(&part.ft_bias)
            .for_each(|(d, s)| *d += s * scale);
        grad.out_weights
            .iter_mut()
            .zip(&part.out_weights)
            .for_each(|(d, s)| *d += s * scale);
        grad.out_bias += part.out_bias * scale;
    }
    loss / rows.len().max(1) as f64
}

/// Adam's state: the moments of every parameter.
#[derive(Clone, Debug)]
pub struct Adam {
    m: Gradient,
    v: Gradient,
    t: i32,
    /// Step size.
    pub lr: f32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;

/// One step's size and bias corrections.
#[derive(Clone, Copy)]
struct Step {
    lr: f32,
    c1: f32,
    c2: f32,
}

#[inline]
fn adam_one(w: &mut f32, g: f32, m: &mut f32, v: &mut f32, s: Step, clip: f32) {
    *m = BETA1 * *m + (1.0 - BETA1) * g;
    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
    *w -= s.lr * (*m / s.c1) / ((*v / s.c2).sqrt() + EPS);
    *w = w.clamp(-clip, clip);
}

impl Adam {
    /// Zero moments for `net`.
    pub fn new(net: &FloatNet, lr: f32) -> Adam {
        Adam {
            m: Gradient::zero(net),
            v: Gradient::zero(net),
            t: 0,
            lr,
        }
    }

    /// One step on every parameter (dense: the moments of untouched rows decay as Adam's
    /// do), each weight clipped to what the integer network can hold afterwards.
    pub fn step(&mut self, net: &mut FloatNet, g: &Gradient) {
        self.t += 1;
        let s = Step {
            lr: self.lr,
            c1: 1.0 - BETA1.powi(self.t),
            c2: 1.0 - BETA2.powi(self.t),
        };
        let h = net.hidden;
        net.ft_weights
            .par_chunks_mut(h * 64)
            .zip(g.ft_weights.par_chunks(h * 64))
            .zip(self.m.ft_weights.par_chunks_mut(h * 64))
            .zip(self.v.ft_weights.par_chunks_mut(h * 64))
            .for_each(|(((w, g), m), v)| {
                for j in 0..w.len() {
                    adam_one(&mut w[j], g[j], &mut m[j], &mut v[j], s, FT_CLIP);
                }
            });
        for j in 0..h {
            adam_one(
                &mut net.ft_bias[j],
                g.ft_bias[j],
                &mut self.m.ft_bias[j],
                &mut self.v.ft_bias[j],
                s,
                FT_CLIP,
            );
        }
        for j in 0..2 * h {
            adam_one(
                &mut net.out_weights[j],
                g.out_weights[j],
                &mut self.m.out_weights[j],
                &mut self.v.out_weights[j],
                s,
                OUT_CLIP,
            );
        }
        adam_one(
            &mut net.out_bias,
            g.out_bias,
            &mut self.m.out_bias,
            &mut self.v.out_bias,
            s,
            f32::MAX,
        );
        for j in 0..net.features {
            adam_one(
                &mut net.psqt[j],
                g.psqt[j],
                &mut self.m.psqt[j],
                &mut self.v.psqt[j],
                s,
                PSQT_CLIP,
            );
        }
    }
}

/// Sets the rows `touched` of `g`'s input weights and all of its small parameters back to
/// zero, for the next batch.
pub fn clear(g: &mut Gradient, touched: &[u16], hidden: usize) {
    for &f in touched {
        g.ft_weights[f as usize * hidden..][..hidden].fill(0.0);
    }
    g.ft_bias.fill(0.0);
    g.out_weights.fill(0.0);
    g.out_bias = 0.0;
    g.psqt.fill(0.0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use variantlab_engine::game::Game;
    use variantlab_engine::nnue::{active_features, Active, InputLayout, SCALE};
    use variantlab_engine::position::Position;
    use variantlab_engine::variants::Chess;

    type G = Position<Chess>;

    /// A few chess positions' inputs, with made-up targets.
    fn sample() -> (Inputs, Vec<G>) {
        let layout = InputLayout::of::<G>();
        let mut data = Inputs::default();
        let mut positions = Vec::new();
        let mut pos = G::start();
        let line = [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6",
        ];
        for (i, m) in line.iter().enumerate() {
            let mut a = Active::default();
            active_features(&pos, &layout, &mut a);
            let us = pos.turn().index();
            data.push(
                a.lists[us].as_slice(),
                a.lists[1 - us].as_slice(),
                [0.2, 0.9, 0.5, 0.65][i % 4],
            );
            positions.push(pos);
            pos.play_text(m).unwrap();
        }
        (data, positions)
    }

    /// The trainer's forward pass is the engine's float reference, from both sides.
    #[test]
    fn forward_matches_the_engines_float_network() {
        let (data, positions) = sample();
        let net = FloatNet::new(InputLayout::of::<G>().features, 16, 3);
        let layout = InputLayout::of::<G>();
        let mut acc = [Vec::new(), Vec::new()];
        for (i, pos) in positions.iter().enumerate() {
            let mut a = Active::default();
            active_features(pos, &layout, &mut a);
            let ours = forward(&net, data.lists(i), &mut acc) * SCALE;
            let theirs = net.evaluate(&a, pos.turn());
            assert!((ours - theirs).abs() < 1e-3, "{ours} against {theirs}");
        }
    }

    /// The analytic gradient matches central finite differences of the loss, for every kind
    /// of parameter (input rows in use, biases, both output halves).
    #[test]
    fn gradient_matches_finite_differences() {
        let (data, _) = sample();
        let mut net = FloatNet::new(InputLayout::of::<G>().features, 8, 11);
        // Accumulators well inside (0, 1), away from the activation's kinks.
        net.ft_weights.iter_mut().for_each(|w| *w *= 0.1);
        net.ft_bias.iter_mut().for_each(|b| *b = 0.5);
        net.out_weights.iter_mut().for_each(|w| *w *= 4.0);
        net.psqt = variantlab_engine::nnue::material_psqt::<G>();
        let rows: Vec<usize> = (0..data.len()).collect();
        let k = 1.3;
        let mut g = Gradient::zero(&net);
        let mut touched = Vec::new();
        gradient(&net, &data, &rows, k, &mut g, &mut touched);
        assert!(!touched.is_empty());
        let h = net.hidden;
        let f = touched[touched.len() / 2] as usize;
        let mut checked = 0;
        let mut check = |name: &str, get: &dyn Fn(&mut FloatNet) -> &mut f32, analytic: f32| {
            let eps = 1e-2f32;
            let mut a = net.clone();
            *get(&mut a) += eps;
            let mut b = net.clone();
            *get(&mut b) -= eps;
            let numeric = ((loss(&a, &data, &rows, k) - loss(&b, &data, &rows, k))
                / (2.0 * eps as f64)) as f32;
            let tol = 1e-4 + 2e-2 * numeric.abs().max(analytic.abs());
            assert!(
                (numeric - analytic).abs() <= tol,
                "{name}: analytic {analytic}, numeric {numeric}"
            );
            checked += 1;
        };
        for j in [0, h / 2, h - 1] {
            check(
                "input weight",
                &|n| &mut n.ft_weights[f * h + j],
                g.ft_weights[f * h + j],
            );
            check("bias", &|n| &mut n.ft_bias[j], g.ft_bias[j]);
            check("out us", &|n| &mut n.out_weights[j], g.out_weights[j]);
            check(
                "out them",
                &|n| &mut n.out_weights[h + j],
                g.out_weights[h + j],
            );
        }
        check("out bias", &|n| &mut n.out_bias, g.out_bias);
        check("linear path", &|n| &mut n.psqt[f], g.psqt[f]);
        assert_eq!(checked, 14);
        // A row no position touches has no gradient.
        let unused = (0..net.features)
            .find(|f| !touched.contains(&(*f as u16)))
            .unwrap();
        assert!(g.ft_weights[unused * h..][..h].iter().all(|&x| x == 0.0));
    }
}

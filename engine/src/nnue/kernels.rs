//! The network's two inner loops, written plainly for the compiler to vectorise and compiled
//! twice ([`multiversion`]): for the build's baseline (x86-64-v2: 128-bit SSE) and for AVX2
//! (256-bit), the one chosen by what the processor has when the program runs. The results
//! are the same integers either way; only the width of each step differs.

use multiversion::multiversion;

/// Accumulator cells handled at once: 64 `i16` are four AVX2 registers (eight SSE ones), so a
/// tile stays in registers while every changed input's row is added to it.
const TILE: usize = 64;

/// `to` = `from` (`to` itself where `None`) + the rows of `added` − the rows of `removed`,
/// a row being `hidden` weights from `weights` (input `f`'s at `f · hidden`); wrapping, as the
/// accumulator's arithmetic is (a sum of rows fits once the network is quantised).
#[multiversion(targets("x86_64+avx2"))]
pub(super) fn apply_rows(
    weights: &[i16],
    hidden: usize,
    from: Option<&[i16]>,
    to: &mut [i16],
    added: &[u16],
    removed: &[u16],
) {
    let tiles = hidden / TILE;
    for t in 0..tiles {
        let start = t * TILE;
        let mut tile: [i16; TILE] = tile_at(from.unwrap_or(&*to), start);
        for &f in removed {
            let row: [i16; TILE] = tile_at(weights, f as usize * hidden + start);
            for (a, w) in tile.iter_mut().zip(row) {
                *a = a.wrapping_sub(w);
            }
        }
        for &f in added {
            let row: [i16; TILE] = tile_at(weights, f as usize * hidden + start);
            for (a, w) in tile.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
        to[start..start + TILE].copy_from_slice(&tile);
    }
    // A width that is not a whole number of tiles: the rest cell by cell.
    for i in tiles * TILE..hidden {
        let mut a = from.unwrap_or(&*to)[i];
        for &f in removed {
            a = a.wrapping_sub(weights[f as usize * hidden + i]);
        }
        for &f in added {
            a = a.wrapping_add(weights[f as usize * hidden + i]);
        }
        to[i] = a;
    }
}

/// The `TILE` values of `xs` from `start`, as an array the compiler keeps in registers.
#[inline(always)]
fn tile_at(xs: &[i16], start: usize) -> [i16; TILE] {
    xs[start..start + TILE].try_into().expect("a whole tile")
}

/// `Σ clamp(a, 0, qa)² · w` over an accumulator and its output weights, the products summed
/// in `i32` lanes `chunk` at a time (as many as an `i32` provably holds for these weights) and
/// each chunk's sum widened.
#[multiversion(targets("x86_64+avx2"))]
pub(super) fn screlu_dot(acc: &[i16], weights: &[i16], qa: i32, chunk: usize) -> i64 {
    acc.chunks(chunk)
        .zip(weights.chunks(chunk))
        .map(|(a, w)| {
            let sum: i32 = a
                .iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let v = i32::from(a).clamp(0, qa);
                    v * i32::from(w) * v
                })
                .sum();
            i64::from(sum)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tiled update equals adding and removing the rows one by one, whatever the width
    /// (a whole number of tiles or not), in place or from another accumulator.
    #[test]
    fn tiled_rows_equal_rows_one_by_one() {
        let mut rng = crate::zobrist::SplitMix64(11);
        for hidden in [8, 64, 100, 128, 200] {
            let features = 40;
            let weights: Vec<i16> = (0..features * hidden)
                .map(|_| (rng.next() % 4001) as i16 - 2000)
                .collect();
            let from: Vec<i16> = (0..hidden)
                .map(|_| (rng.next() % 801) as i16 - 400)
                .collect();
            let (added, removed) = ([3u16, 17, 39], [0u16, 22]);
            let mut expected = from.clone();
            for (&f, sign) in removed
                .iter()
                .map(|f| (f, -1i16))
                .chain(added.iter().map(|f| (f, 1)))
            {
                let row = &weights[f as usize * hidden..][..hidden];
                expected
                    .iter_mut()
                    .zip(row)
                    .for_each(|(e, &w)| *e = e.wrapping_add(sign.wrapping_mul(w)));
            }
            let mut to = vec![0; hidden];
            apply_rows(&weights, hidden, Some(&from), &mut to, &added, &removed);
            assert_eq!(to, expected, "from another accumulator, {hidden} cells");
            let mut acc = from.clone();
            apply_rows(&weights, hidden, None, &mut acc, &added, &removed);
            assert_eq!(acc, expected, "in place, {hidden} cells");
        }
    }
}

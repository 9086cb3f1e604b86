//! The hot bitboard operations on each storage, and bitvec for comparison: the evidence for
//! keeping bitvec out of move generation (it builds shapes and tables at start-up only).

use bitvec::prelude::*;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use variantlab_engine::bitboard::{Bb128, Bb64, BbWide, Bitboard};
use variantlab_engine::Square;

/// Pops every cell of a set built from `cells`, summing their numbers.
fn pop_all<B: Bitboard>(cells: &[u16]) -> u32 {
    let mut b = B::EMPTY;
    for &c in cells {
        b.insert(Square(c));
    }
    let mut sum = 0;
    while let Some(s) = b.pop_lsb() {
        sum += s.0 as u32;
    }
    sum
}

fn bench_storages(c: &mut Criterion) {
    let cells: Vec<u16> = (0..60).step_by(3).collect();
    let mut group = c.benchmark_group("bitboard_pop_all");
    group.bench_function("Bb64", |b| b.iter(|| pop_all::<Bb64>(black_box(&cells))));
    group.bench_function("Bb128", |b| b.iter(|| pop_all::<Bb128>(black_box(&cells))));
    group.bench_function("BbWide4", |b| {
        b.iter(|| pop_all::<BbWide<4>>(black_box(&cells)))
    });
    group.bench_function("bitvec256", |b| {
        b.iter(|| {
            let mut v = bitvec![u64, Lsb0; 0; 256];
            for &c in black_box(&cells) {
                v.set(c as usize, true);
            }
            v.iter_ones().map(|i| i as u32).sum::<u32>()
        })
    });
    group.finish();
}

/// Extreme 2D's orthogonal area move needs every cell of the rectangle between origin and
/// destination empty. Two ways to test that on the 100-cell board: AND the occupancy with a
/// mask precomputed per (from, to) pair (what the engine does), or walk the rectangle's cells
/// in a mailbox.
fn bench_area_emptiness(c: &mut Criterion) {
    const W: usize = 10;
    let mut masks = vec![Bb128(0); 100 * 100];
    for from in 0..100 {
        for to in 0..100 {
            let (f0, r0, f1, r1) = (from % W, from / W, to % W, to / W);
            let mut m = 0u128;
            for r in r0.min(r1)..=r0.max(r1) {
                for f in f0.min(f1)..=f0.max(f1) {
                    m |= 1 << (r * W + f);
                }
            }
            m &= !(1u128 << from) & !(1u128 << to);
            masks[from * 100 + to] = Bb128(m);
        }
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut occ = 0u128;
    let mut mailbox = [false; 100];
    for (i, cell) in mailbox.iter_mut().enumerate() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        if seed.is_multiple_of(5) {
            occ |= 1 << i;
            *cell = true;
        }
    }
    let pairs: Vec<(usize, usize)> = (0..100)
        .flat_map(|a| (0..100).map(move |b| (a, b)))
        .filter(|(a, b)| a % 7 == 0 && b % 3 == 0)
        .collect();
    let mut group = c.benchmark_group("area_move_emptiness");
    group.bench_function("mask_and", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter(|&&(f, t)| (masks[f * 100 + t] & Bb128(black_box(occ))).is_empty())
                .count()
        })
    });
    group.bench_function("cell_walk", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter(|&&(from, to)| {
                    let (f0, r0, f1, r1) = (from % W, from / W, to % W, to / W);
                    (r0.min(r1)..=r0.max(r1)).all(|r| {
                        (f0.min(f1)..=f0.max(f1)).all(|f| {
                            let i = r * W + f;
                            i == from || i == to || !black_box(&mailbox)[i]
                        })
                    })
                })
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_storages, bench_area_emptiness);
criterion_main!(benches);

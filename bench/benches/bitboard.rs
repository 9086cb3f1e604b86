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

criterion_group!(benches, bench_storages);
criterion_main!(benches);

//! What copy-make costs, per variant: the search plays every move on a copy of the position
//! (`clone` then `play_unchecked`), once per node it visits. Make/unmake would replace the
//! copy by an undo, so this figure's share of a search node (the `search` group's time per
//! node) bounds what it could gain. Per move, over every legal move of the bench positions;
//! the benchmark's name carries the position's size.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use variantlab_engine::{with_variant, Game, Move, VariantKind};
use variantlab_selfplay::bench::positions;

/// What the search does for each node it visits (generic, as there).
fn copy_and_play<G: Game>(pos: &G, m: Move) -> G {
    let mut child = pos.clone();
    child.play_unchecked(m);
    child
}

fn bench_make(c: &mut Criterion) {
    let mut group = c.benchmark_group("make");
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            // Each position with its legal moves: the parent stays in cache, as in a search.
            let cases: Vec<(G, Vec<Move>)> = positions::<G>(&[])
                .into_iter()
                .map(|pos| {
                    let mut list = <G as Game>::Moves::default();
                    pos.legal_moves(&mut list);
                    let moves = list.as_ref().to_vec();
                    (pos, moves)
                })
                .collect();
            let count: usize = cases.iter().map(|(_, moves)| moves.len()).sum();
            group.throughput(Throughput::Elements(count as u64));
            let size = std::mem::size_of::<G>();
            group.bench_function(BenchmarkId::new(format!("copy-{size}B-and-play"), kind.name()), |b| {
                b.iter(|| {
                    for (pos, moves) in &cases {
                        for &m in moves {
                            black_box(copy_and_play(black_box(pos), m));
                        }
                    }
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_make);
criterion_main!(benches);

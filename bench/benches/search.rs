//! Fixed-depth search per variant (the signature's depth): nodes per second of the whole
//! searcher (movegen, eval, ordering, TT). Each run asserts the node count of its first run,
//! so the figure always measures the same tree.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::{with_variant, VariantKind};
use variantlab_selfplay::bench::depth;

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            let pos = G::start();
            let d = depth(kind);
            let run = || Searcher::new(SearchConfig::default()).search(&pos, &[], Limits::depth(d)).nodes;
            let nodes = run();
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{}-d{d}", kind.name()), |b| b.iter(|| assert_eq!(run(), nodes)));
        });
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);

//! The static evaluation per variant (its embedded tuned weights), per position over the
//! bench positions: the largest share of a search's time (`docs/search.md`), and the figure
//! an incremental update of the evaluation would have to lower (`docs/evaluation.md`).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use variantlab_engine::search::EvalChoice;
use variantlab_engine::{with_variant, VariantKind};
use variantlab_selfplay::bench::positions;

fn bench_eval(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval");
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            let Some(evaluator) = EvalChoice::Default.evaluator::<G>().expect("embedded weights fit") else {
                continue;
            };
            let cases = positions::<G>(&[]);
            group.throughput(Throughput::Elements(cases.len() as u64));
            group.bench_function(kind.name(), |b| {
                b.iter(|| cases.iter().map(|p| evaluator.evaluate(black_box(p))).sum::<i32>())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);

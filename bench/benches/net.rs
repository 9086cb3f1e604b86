//! Nodes per second of a search that evaluates with a network (256 cells per perspective,
//! random weights: the speed does not depend on them) against the same search with the
//! variant's linear evaluation (its embedded tuned weights), and with the network added to the
//! linear evaluation (`net-on-linear`), per variant over the bench positions at a fixed node
//! count: what a network costs or saves (docs/evaluation.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::sync::Arc;
use variantlab_engine::nnue::{FloatNet, InputLayout, NetInfo, Network, BASE_LINEAR};
use variantlab_engine::search::{EvalChoice, Limits, SearchConfig, Searcher};
use variantlab_engine::{with_variant, Game, VariantKind};
use variantlab_selfplay::bench::positions;

const NODES: u64 = 20_000;
const HIDDEN: usize = 256;

fn searches<G: Game>(config: &SearchConfig, cases: &[G]) -> u64 {
    cases
        .iter()
        .map(|p| {
            let mut s = Searcher::new(config.clone());
            s.search(p, &[], Limits::nodes(NODES)).nodes
        })
        .sum()
}

fn bench_net(c: &mut Criterion) {
    let mut group = c.benchmark_group("net");
    group.sample_size(10);
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            let layout = InputLayout::of::<G>();
            let float = FloatNet::new(layout.features, HIDDEN, 1);
            let (net, _) = Network::quantize::<G>(&float, NetInfo::default());
            let on_linear = NetInfo { base: Some(BASE_LINEAR.into()), ..NetInfo::default() };
            let (added, _) = Network::quantize::<G>(&float, on_linear);
            let cases = positions::<G>(&[]);
            for (name, eval) in [
                ("linear", EvalChoice::Linear),
                ("net", EvalChoice::Net(Arc::new(net.clone()))),
                ("net-on-linear", EvalChoice::Net(Arc::new(added))),
            ] {
                let config = SearchConfig { eval, ..SearchConfig::default() };
                group.throughput(Throughput::Elements(searches(&config, &cases)));
                group.bench_function(format!("{}/{name}", kind.name()), |b| {
                    b.iter(|| searches(&config, &cases))
                });
            }
        });
    }
    group.finish();
}

criterion_group!(benches, bench_net);
criterion_main!(benches);

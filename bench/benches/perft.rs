//! Move generation and perft per variant. Every perft benchmark asserts its node count, so a
//! faster but wrong generator cannot post a figure.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use variantlab_engine::perft::perft;
use variantlab_engine::{with_variant, VariantKind};

/// (variant, position or None for the start, depth, expected nodes)
const CASES: &[(&str, Option<&str>, u32, u64)] = &[
    ("chess", None, 4, 197_281),
    (
        "chess",
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        3,
        97_862,
    ),
    ("dream-chess-46", None, 5, 778_735),
    ("extreme-2d", None, 5, 137_200),
    ("gateway", None, 3, 32_040),
    ("dialectic", None, 4, 451_047),
    ("dialectic-hegelian", None, 4, 474_521),
    ("dai-mitregi", None, 3, 883_872),
    ("dai-mitregi-stepping", None, 3, 512_640),
    // The rules file's T9: four pieces in hand, so most moves are drops.
    (
        "dai-mitregi",
        Some("8k7/16/16/16/4+Z11/16/16/4Z11/6B9/10E5/16/2E13/16/4Z11/4B11/7K8 w [ZHBE]"),
        3,
        1_938_684,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for &(name, fen, depth, expected) in CASES {
        let kind = VariantKind::from_name(name).expect("known variant");
        with_variant!(kind, G => {
            let pos = fen.map_or_else(G::start, |f| G::from_text(f).expect("bench position"));
            let nodes = perft(&pos, depth);
            if expected != 0 {
                assert_eq!(nodes, expected, "{name} perft({depth})");
            }
            group.throughput(Throughput::Elements(nodes));
            let id = BenchmarkId::new(name, format!("{}-d{depth}", if fen.is_some() { "pos" } else { "start" }));
            group.bench_function(id, |b| b.iter(|| assert_eq!(perft(&pos, depth), nodes)));
        });
    }
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            let pos = G::start();
            group.bench_function(kind.name(), |b| {
                b.iter(|| {
                    let mut list = <G as variantlab_engine::Game>::Moves::default();
                    pos.legal_moves(&mut list);
                    list.as_ref().len()
                })
            });
        });
    }
    group.finish();
}

/// Dream Chess 46 built in against the same variant read from `data/variants/` (issue #16):
/// a file-defined variant compiles into the same tables behind its own monomorphic marker
/// type, so the two should run at the same speed. Same positions, same node counts.
fn bench_file_variant(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/variants/dream-chess-46.toml");
    let file = variantlab_engine::variants::file::load(&path).expect("dream-chess-46.toml loads");
    let mut group = c.benchmark_group("variant_file");
    group.sample_size(10);
    let (depth, expected) = (5, 778_735);
    for (label, kind) in [("builtin", VariantKind::Dream46), ("file", file.kind)] {
        with_variant!(kind, G => {
            let pos = G::start();
            assert_eq!(perft(&pos, depth), expected, "{label} perft({depth})");
            group.throughput(Throughput::Elements(expected));
            group.bench_function(BenchmarkId::new("dream-chess-46-perft-d5", label), |b| {
                b.iter(|| assert_eq!(perft(&pos, depth), expected))
            });
            group.throughput(Throughput::Elements(1));
            group.bench_function(BenchmarkId::new("dream-chess-46-legal-moves", label), |b| {
                b.iter(|| {
                    let mut list = <G as variantlab_engine::Game>::Moves::default();
                    pos.legal_moves(&mut list);
                    list.as_ref().len()
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_movegen, bench_file_variant);
criterion_main!(benches);

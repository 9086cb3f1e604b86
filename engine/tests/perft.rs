//! Perft suites as data: `data/perft/<variant>.perft`, one generic reader.
//!
//! Each suite runs up to a node limit so the whole test stays within CI's budget; set
//! `VARIANTLAB_PERFT_LIMIT` to raise or lower it.

use variantlab_engine::perft::perft;
use variantlab_engine::{with_variant, VariantKind};

struct Case {
    id: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn read_suite(variant: &str) -> Vec<Case> {
    let path = format!(
        "{}/../data/perft/{variant}.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    let (mut id, mut fen) = (String::new(), String::new());
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = rest.to_string(),
            "epd" => fen = rest.to_string(),
            "perft" => {
                let mut it = rest.split_whitespace();
                let depth = it.next().and_then(|d| d.parse().ok());
                let nodes = it.next().and_then(|d| d.parse().ok());
                let (Some(depth), Some(nodes)) = (depth, nodes) else {
                    panic!("{path}:{}: bad perft line", n + 1)
                };
                cases.push(Case {
                    id: id.clone(),
                    fen: fen.clone(),
                    depth,
                    nodes,
                });
            }
            _ => panic!("{path}:{}: unknown key {key}", n + 1),
        }
    }
    assert!(!cases.is_empty(), "{path} has no cases");
    cases
}

fn node_limit() -> u64 {
    std::env::var("VARIANTLAB_PERFT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000_000)
}

fn run_suite(kind: VariantKind) {
    let variant = kind.name();
    let limit = node_limit();
    let mut ran = 0;
    for case in read_suite(variant) {
        if case.nodes > limit {
            continue;
        }
        let got = with_variant!(kind, G => {
            let pos = G::from_text(&case.fen).unwrap_or_else(|e| panic!("{variant} {}: {e}", case.id));
            perft(&pos, case.depth)
        });
        assert_eq!(
            got, case.nodes,
            "{variant} {} depth {}",
            case.id, case.depth
        );
        ran += 1;
    }
    assert!(ran > 0, "{variant}: no case within the node limit");
}

/// Every variant's suite, `data/perft/<variant>.perft`.
#[test]
fn perft_every_variant() {
    for kind in VariantKind::ALL {
        run_suite(kind);
    }
}

/// Every variant names its rules reference, and the file is in the repository.
#[test]
fn every_variant_has_its_rules_reference() {
    for kind in VariantKind::ALL {
        let file = kind.info().rules_file;
        assert!(file.starts_with("docs/rules/"), "{file}");
        let path = format!("{}/../{file}", env!("CARGO_MANIFEST_DIR"));
        assert!(std::path::Path::new(&path).exists(), "{path} missing");
    }
}

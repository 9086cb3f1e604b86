//! The evaluation as data: the search's sum and the tuner's feature vector agree, tables are
//! mirrored correctly for Black, and weights files round-trip and are checked.

use variantlab_engine::eval::{EvalWeights, Evaluator, FeatureRecorder, Layout, Provenance};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{with_variant, Color, Game, VariantKind};

/// Seeded weights in ±50 for every feature.
fn random_weights(n: usize, seed: u64) -> Vec<[i32; 2]> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| {
            [
                (rng.next() % 101) as i32 - 50,
                (rng.next() % 101) as i32 - 50,
            ]
        })
        .collect()
}

/// Positions of a seeded random game.
fn random_game<G: Game>(seed: u64, plies: usize) -> Vec<G> {
    let mut rng = SplitMix64(seed);
    let mut pos = G::start();
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let Some(m) = variantlab_engine::game::random_move(&pos, &mut rng) else {
            break;
        };
        pos.play_unchecked(m);
        out.push(pos.clone());
    }
    out
}

#[test]
fn the_search_sum_is_the_tuners_dot_product() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            let layout = Layout::of(&G::start());
            let weights = random_weights(layout.len(), 7);
            let e = Evaluator::from_dense::<G>(weights.clone());
            let mut rec = FeatureRecorder::new(layout);
            for pos in random_game::<G>(3, 60) {
                rec.record(&pos);
                let ph = e.phase(&pos);
                let (mut mg, mut eg) = (0i64, 0i64);
                for &(j, n) in &rec.features {
                    mg += n as i64 * weights[j as usize][0] as i64;
                    eg += n as i64 * weights[j as usize][1] as i64;
                }
                let white = (mg * ph as i64 + eg * (256 - ph as i64)) / 256;
                let ours = if pos.turn() == Color::White { white } else { -white };
                assert_eq!(
                    e.evaluate(&pos) as i64,
                    ours,
                    "{}: {}",
                    kind.name(),
                    pos.to_text()
                );
            }
        });
    }
}

#[test]
fn symmetric_start_positions_evaluate_to_the_tempo() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            let start = G::start();
            let layout = Layout::of(&start);
            assert!(layout.cells > 0, "{} has cell tables", kind.name());
            let mut weights = random_weights(layout.len(), 11);
            weights[layout.tempo()] = [0, 0];
            let e = Evaluator::from_dense::<G>(weights);
            assert_eq!(e.evaluate(&start), 0, "{}: a cell is mirrored wrongly", kind.name());
            assert_eq!(e.phase(&start), 256, "{}: the start is all middle game", kind.name());
        });
    }
}

#[test]
fn weights_files_round_trip_and_are_checked() {
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    let start = G::start();
    let layout = Layout::of(&start);
    let kinds = start.material_kinds();
    let dense = random_weights(layout.len(), 5);
    let w = EvalWeights::from_dense("chess", &kinds, layout, &dense, Provenance::default());
    let back = EvalWeights::parse(&w.to_json()).expect("own output parses");
    assert_eq!(back, w);
    assert_eq!(back.dense("chess", &kinds, layout).unwrap(), dense);
    assert!(Evaluator::new::<G>(&back).is_ok());

    let err = back.dense("dream-chess-46", &kinds, layout).unwrap_err();
    assert!(err.to_string().contains("are for \"chess\""), "{err}");
    let mut missing = back.clone();
    missing.kinds.pop();
    let err = missing.dense("chess", &kinds, layout).unwrap_err();
    assert!(err.to_string().contains("kinds"), "{err}");
    let mut short = back.clone();
    short.kinds[1].cells_mg.truncate(10);
    let err = short.dense("chess", &kinds, layout).unwrap_err();
    assert!(
        err.to_string().contains("knight's cell table has 10"),
        "{err}"
    );
    let err = EvalWeights::parse("{\"variant\": \"chess\",").unwrap_err();
    assert!(err.to_string().contains("line 1"), "{err}");
}

#[test]
fn embedded_weights_fit_their_variants() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            if let Some(w) = variantlab_engine::eval::builtin(kind.name()) {
                Evaluator::new::<G>(&w).unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
            }
        });
    }
}

//! The evaluation as data: the search's sum and the tuner's feature vector agree, tables are
//! mirrored correctly for Black, and weights files round-trip and are checked.

use variantlab_engine::eval::{EvalWeights, Evaluator, FeatureRecorder, Layout, Provenance};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{with_variant, Color, Game, VariantKind};

#[path = "common/feature_calls.rs"]
mod feature_calls;
use feature_calls::FeatureCalls;

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

/// The trace of the UCI `eval` command splits the score the search uses, nothing lost or
/// counted twice, and files each weight under the group its feature belongs to.
#[test]
fn the_trace_adds_up_to_the_evaluation() {
    use variantlab_engine::eval::{KindTerm, TraceGroup};
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            let layout = Layout::of(&G::start());
            let e = Evaluator::from_dense::<G>(random_weights(layout.len(), 13));
            for pos in random_game::<G>(9, 80) {
                let t = e.trace(&pos);
                let side = if pos.turn() == Color::White { 1 } else { -1 };
                assert_eq!(e.evaluate(&pos), side * t.white_score(), "{}", kind.name());
                assert_eq!(t.groups.len(), TraceGroup::ALL.len());
            }
            let last = layout.kinds - 1;
            assert_eq!(layout.group(layout.material(last)), TraceGroup::Material);
            assert_eq!(layout.group(layout.pair(0)), TraceGroup::Material);
            assert_eq!(layout.group(layout.in_hand(0)), TraceGroup::InHand);
            assert_eq!(layout.group(layout.mobility(last)), TraceGroup::Mobility);
            assert_eq!(layout.group(layout.threatened(0, false)), TraceGroup::Threats);
            assert_eq!(layout.group(layout.cell(last, layout.cells - 1)), TraceGroup::Cells);
            assert_eq!(
                layout.group(layout.kind_term(0, KindTerm::SafeChecks)),
                TraceGroup::RoyalSafety
            );
            assert_eq!(
                layout.group(layout.kind_term(last, KindTerm::Pinned)),
                TraceGroup::Threats
            );
            assert_eq!(layout.group(layout.king_danger()), TraceGroup::RoyalSafety);
            assert_eq!(layout.group(layout.tempo()), TraceGroup::Tempo);
            assert_eq!(layout.group(layout.doubled()), TraceGroup::Pawns);
            assert_eq!(layout.group(layout.multiple_threats(true)), TraceGroup::Threats);
            assert_eq!(layout.group(layout.storm()), TraceGroup::RoyalSafety);
            assert_eq!(layout.group(layout.space()), TraceGroup::Space);
            assert_eq!(layout.group(layout.defended_stop()), TraceGroup::Passed);
            assert_eq!(layout.group(layout.royal_distance(true)), TraceGroup::Passed);
            if layout.pawn_ranks > 0 {
                assert_eq!(layout.group(layout.passed(0)), TraceGroup::Passed);
            }
        });
    }
}

/// Weights that leave mobility, royal-zone attacks and threats at zero let a variant skip its
/// attack walk (`FeatureSink::wants_activity`); the score must still be the dot product the
/// tuner sees, which records those features whatever the weights.
#[test]
fn skipping_zero_activity_terms_keeps_the_score() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            let layout = Layout::of(&G::start());
            let mut weights = random_weights(layout.len(), 11);
            for i in layout.activity() {
                weights[i] = [0, 0];
            }
            let e = Evaluator::from_dense::<G>(weights.clone());
            let mut rec = FeatureRecorder::new(layout);
            for pos in random_game::<G>(5, 60) {
                rec.record(&pos);
                let ph = e.phase(&pos) as i64;
                let (mut mg, mut eg) = (0i64, 0i64);
                for &(j, n) in &rec.features {
                    mg += n as i64 * weights[j as usize][0] as i64;
                    eg += n as i64 * weights[j as usize][1] as i64;
                }
                let white = (mg * ph + eg * (256 - ph)) / 256;
                let ours = if pos.turn() == Color::White { white } else { -white };
                assert_eq!(e.evaluate(&pos) as i64, ours, "{}", kind.name());
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
    let mut long = back.clone();
    long.passed_eg.push(5);
    let err = long.dense("chess", &kinds, layout).unwrap_err();
    assert!(
        err.to_string()
            .contains("passed-pawn table has 9 entries, the board 8"),
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

#[test]
fn chess_reports_passed_doubled_and_isolated_pawns() {
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    // White: d6 passed (rank 6 = index 5), c3 passed (index 2), c2 doubled behind c3 (and
    // so not counted as passed), none isolated (the c and d files touch). Black, ranks
    // counted from its side: a7 and g7 passed (index 1), h2 passed (index 6); a7 isolated.
    let pos = G::from_text("4k3/p5p1/3P4/8/8/2P5/2P4p/4K3 w - - 0 1").unwrap();
    assert_eq!(pos.pawn_ranks(), 8);
    let calls = FeatureCalls::of(&pos);
    let mut passed = calls.passed.clone();
    passed.sort_by_key(|&(c, r)| (c == Color::Black, r));
    assert_eq!(
        passed,
        vec![
            (Color::White, 2),
            (Color::White, 5),
            (Color::Black, 1),
            (Color::Black, 1),
            (Color::Black, 6)
        ]
    );
    assert_eq!(
        calls.structure,
        vec![(Color::White, 1, 0), (Color::Black, 0, 1)]
    );
    // Pawns on neighbouring files facing each other: neither is passed, both isolated.
    let pos = G::from_text("4k3/p7/8/8/8/1P6/8/4K3 w - - 0 1").unwrap();
    let calls = FeatureCalls::of(&pos);
    assert!(calls.passed.is_empty(), "{:?}", calls.passed);
    assert_eq!(
        calls.structure,
        vec![(Color::White, 0, 1), (Color::Black, 0, 1)]
    );
}

#[test]
fn chess_reports_shelter_passed_pawn_details_files_outposts_and_zone_attacks() {
    use variantlab_engine::eval::{KindTerm, PawnDetails};
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    // Kinds: pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5.
    // White: King e1 with f2 one rank ahead in its shelter (d2, e2, f2) and nothing two ranks
    // ahead. a4, c4 and d5 are each defended by a pawn (b3, b3, c4). Passed pawns, progress
    // = rank index - 2: a4 (1, its file ahead empty: free; next cell a5 is 4 king steps from
    // e1 and 5, the cap, from g8), b3 (0), c4 (1; the Knight on c6 stands on its file; c5 is
    // 4 steps from either King), d5 (2; blocked by the Knight on d6, which is 5 steps from
    // e1 and 3 from g8). Own distances 4 + 4 + 2*5 = 18, enemy 5 + 4 + 2*3 = 15. The Knight
    // on c6 is an outpost (enemy half, defended by d5, no Black pawn on the b- or d-file
    // ahead); next to Black's King, the Queen on h5 attacks f7 and the pawn on h6 reaches h7
    // and g7 (a pawn's reach: its push and its captures); the King stands on the open e-file. Black: King g8 sheltered by f7 and g7, with White's h6 in its shelter (a
    // storm); the Knight on d6 and the Rook on b8 stand on files with White pawns only.
    let pos = G::from_text("1r4k1/5pp1/2Nn3P/3P3Q/P1P5/1P6/5PPP/3RK3 w - - 0 1").unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(
        calls.details,
        vec![
            (
                Color::White,
                PawnDetails {
                    shelter_near: 1,
                    shelter_far: 0,
                    storm: 0,
                    supported: 3,
                    blocked: 1,
                    own_royal_distance: 18,
                    enemy_royal_distance: 15,
                    free_passed: 1,
                    // f2, g2, h2; none backward (b3 has no pawn level or behind on the
                    // a- and c-files, but no Black pawn attacks b4); space: c2-f4 less the
                    // pawns on f2 and c4, 10 cells, five of them behind c4 and d5.
                    phalanx: 3,
                    backward: 0,
                    space: 15,
                    // a5 and c5 are safe next cells, a5 defended by the Knight on c6; no
                    // path is safe (Black's Rook and Knight attack a8 and c8).
                    safe_path: 0,
                    safe_stop: 2,
                    defended_stop: 1,
                }
            ),
            (
                Color::Black,
                PawnDetails {
                    shelter_near: 2,
                    storm: 1,
                    // f7 and g7 side by side; space: c5-f7 less its f7 and the cells
                    // White's pawns attack (c6, e6, d5).
                    phalanx: 2,
                    space: 8,
                    ..PawnDetails::default()
                }
            )
        ]
    );
    let terms = [
        KindTerm::ZoneAttacks,
        KindTerm::OpenFile,
        KindTerm::HalfOpenFile,
        KindTerm::Outpost,
    ];
    assert_eq!(
        calls.kind_terms_of(&terms),
        vec![
            (Color::White, 0, KindTerm::ZoneAttacks, 2),
            (Color::White, 4, KindTerm::ZoneAttacks, 1),
            (Color::White, 5, KindTerm::OpenFile, 1),
            (Color::Black, 1, KindTerm::HalfOpenFile, 1),
            (Color::Black, 3, KindTerm::HalfOpenFile, 1),
            (Color::White, 1, KindTerm::Outpost, 1),
        ]
    );
    // A variant without pawn structure reports no pawn terms, files or outposts.
    let calls = FeatureCalls::of(&variantlab_engine::position::Position::<
        variantlab_engine::variants::Dream46,
    >::start());
    let pawn_terms = [
        KindTerm::HalfOpenFile,
        KindTerm::OpenFile,
        KindTerm::Outpost,
    ];
    assert!(calls.details.is_empty() && calls.kind_terms_of(&pawn_terms).is_empty());
}

#[test]
fn chess_reports_phalanxes_backward_pawns_space_and_piece_placement() {
    use variantlab_engine::eval::KindTerm;
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    // Kinds: pawn 0, knight 1, bishop 2. White: f2 and g2 stand side by side (a phalanx of
    // two); d2 is backward (c3, its only neighbour, is ahead of it, and Black's e4 attacks
    // d3); b2 is not (nothing attacks b3). Space, c2-f4: less the pawns on c3, d2 and f2 and
    // the cells e4 attacks (d3, f3), 7 cells, c2 behind c3 counted twice. The Knight on c2
    // stands behind the pawn on c3, two steps from its King; the Bishop on c1, two steps
    // from it, has four of its pawns on its colour (b2, c3, d2, f2; not g2). Black: e4 is
    // isolated, so not backward; its space, c5-f7, is all safe, e5 to e7 behind e4. The
    // Bishop on e5 stands behind e4 (the next cell towards White), three steps from its King;
    // none of its pawns is on its colour.
    let pos = G::from_text("4k3/8/8/4b3/4p3/2P5/1PNP1PP1/2B1K3 w - - 0 1").unwrap();
    let calls = FeatureCalls::of(&pos);
    let new_terms: Vec<_> = calls
        .details
        .iter()
        .map(|(c, d)| (*c, d.phalanx, d.backward, d.space))
        .collect();
    assert_eq!(
        new_terms,
        vec![(Color::White, 2, 1, 8), (Color::Black, 0, 0, 15)]
    );
    assert_eq!(
        calls.kind_terms_of(&[
            KindTerm::BehindPawn,
            KindTerm::RoyalDistance,
            KindTerm::ColourPawns
        ]),
        vec![
            (Color::White, 1, KindTerm::BehindPawn, 1),
            (Color::White, 1, KindTerm::RoyalDistance, 2),
            (Color::White, 2, KindTerm::RoyalDistance, 2),
            (Color::White, 2, KindTerm::ColourPawns, 4),
            (Color::Black, 2, KindTerm::BehindPawn, 1),
            (Color::Black, 2, KindTerm::RoyalDistance, 3),
        ]
    );
    // Only the Bishop is bound to its colour.
    let rules =
        <variantlab_engine::variants::Chess as variantlab_engine::position::Variant>::rules();
    let ps = rules.pawn_structure.as_ref().unwrap();
    assert_eq!(ps.colour_bound, 1 << 2);
}

#[test]
fn chess_reports_passed_pawns_with_safe_paths_and_next_cells() {
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    // White's passed pawns: b4 (progress 1), d5 (2), g6 (3). Black attacks a7, b7 and b8
    // (its King) and e7, f6 and h6 (its Knight on g8). b4: b5 is safe, but its King attacks
    // b7 and b8. d5: nothing of Black's holds or attacks d6, d7 or d8, a safe path; no White
    // piece attacks d6. g6: g7 is safe and White's Bishop on h6 defends it, but Black's
    // Knight holds g8. Black has no pawns.
    let pos = G::from_text("k5n1/8/6PB/3P4/1P6/8/8/4K3 w - - 0 1").unwrap();
    let calls = FeatureCalls::of(&pos);
    let terms: Vec<_> = calls
        .details
        .iter()
        .map(|(c, d)| (*c, d.safe_path, d.safe_stop, d.defended_stop))
        .collect();
    assert_eq!(
        terms,
        vec![(Color::White, 2, 1 + 2 + 3, 3), (Color::Black, 0, 0, 0)]
    );
    // A Black Rook on g7 instead of the Knight: g6 is blocked, its next cell still defended;
    // the Rook attacks the seventh rank, so d5's path is no longer safe (d6 still is).
    let pos = G::from_text("k7/6r1/6PB/3P4/1P6/8/8/4K3 w - - 0 1").unwrap();
    let calls = FeatureCalls::of(&pos);
    let white = calls.details[0].1;
    assert_eq!(
        (
            white.blocked,
            white.safe_path,
            white.safe_stop,
            white.defended_stop
        ),
        (1, 0, 1 + 2, 3)
    );
}

#[test]
fn chess_reports_safe_checks_and_cramped_pieces() {
    use variantlab_engine::eval::KindTerm;
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    // Kinds: knight 1, bishop 2, rook 3. White's Knight on e4 reaches d6 and f6, from where it
    // would check the King on e8; Black's Bishop on h2 attacks d6 (through g3, f4, e5), so
    // only f6 is safe. The Rook on a1 reaches a8, from where it would check along the empty
    // eighth rank, and nothing of Black's attacks a8. The Knight on g2 reaches e3, f4 and h4
    // (three cells: not cramped); the Bishop on h1 reaches only g2, its own Knight: no cell,
    // three below three. Black's Bishop reaches g3, a checking cell, but White's Knight on e4
    // attacks it; Black's Rook stops at its own Bishop on h2 and reaches no checking cell.
    let pos = G::from_text("4k2r/8/8/8/4N3/8/6Nb/R3K2B w - - 0 1").unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(
        calls.kind_terms_of(&[KindTerm::SafeChecks, KindTerm::Cramped]),
        vec![
            (Color::White, 2, KindTerm::Cramped, 3),
            (Color::White, 1, KindTerm::SafeChecks, 1),
            (Color::White, 3, KindTerm::SafeChecks, 1),
        ]
    );
}

#[test]
fn chess_reports_attacks_on_cells_only_the_royal_piece_defends() {
    use variantlab_engine::eval::KindTerm;
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    // Kinds: bishop 2, rook 3. White's King on g1: its pawns defend none of f1, h1, f2, g2 and
    // h2, so all are weak; Black's Rook on a2 and Bishop on c5 both attack f2 (once each).
    // Black's King on e8: its Bishop defends e7 and f8; White attacks none of the rest.
    let pos = G::from_text("4k3/8/8/2b5/8/8/r4PPP/6K1 w - - 0 1").unwrap();
    assert_eq!(
        FeatureCalls::of(&pos).kind_terms_of(&[KindTerm::WeakZone]),
        vec![
            (Color::Black, 2, KindTerm::WeakZone, 1),
            (Color::Black, 3, KindTerm::WeakZone, 1),
        ]
    );
    // A White Knight on h3 defends f2: no weak cell is attacked any more.
    let pos = G::from_text("4k3/8/8/2b5/8/7N/r4PPP/6K1 w - - 0 1").unwrap();
    assert!(FeatureCalls::of(&pos)
        .kind_terms_of(&[KindTerm::WeakZone])
        .is_empty());
}

#[test]
fn pieces_count_with_their_sides_pawns() {
    use variantlab_engine::eval::KindTerm;
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    // Kinds: pawn 0, knight 1, rook 3, king 5. White: a Knight, two Rooks and eight pawns;
    // Black: a Knight, a Rook and four pawns. Knight 1×8 − 1×4 = 4, Rook 2×8 − 1×4 = 12;
    // neither the pawns nor the Kings (worth nothing) count.
    let pos = G::from_text("r3k1n1/pppp4/8/8/8/8/PPPPPPPP/RN2K2R w - - 0 1").unwrap();
    let layout = Layout::of(&pos);
    let mut rec = FeatureRecorder::new(layout);
    rec.record(&pos);
    let own_pawns: Vec<(usize, i16)> = (0..layout.kinds)
        .filter_map(|k| {
            let i = layout.kind_term(k, KindTerm::OwnPawns) as u32;
            rec.features.iter().find(|f| f.0 == i).map(|f| (k, f.1))
        })
        .collect();
    assert_eq!(own_pawns, vec![(1, 4), (3, 12)]);
    // The search's sum agrees, with a weight only there.
    let mut weights = vec![[0, 0]; layout.len()];
    weights[layout.kind_term(3, KindTerm::OwnPawns)] = [5, 5];
    assert_eq!(Evaluator::from_dense::<G>(weights).evaluate(&pos), 60);
}

#[test]
fn chess_reports_cells_enemy_pawns_attack_and_pawn_push_threats() {
    use variantlab_engine::eval::KindTerm;
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    let terms = [KindTerm::UnsafeMobility, KindTerm::PushThreatened];
    // Kinds: knight 1. Black's Knight on d5 reaches f4, which White's pawn on e3 attacks (one
    // unsafe cell of eight); the push e3-e4 goes to a cell no Black piece attacks and would
    // attack the Knight.
    let pos = G::from_text("4k3/8/8/3n4/8/4P3/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        FeatureCalls::of(&pos).kind_terms_of(&terms),
        vec![
            (Color::Black, 1, KindTerm::UnsafeMobility, 1),
            (Color::Black, 1, KindTerm::PushThreatened, 1),
        ]
    );
    // A Black pawn on f5 attacks e4: the push is no threat (the pawn itself is no victim).
    let pos = G::from_text("4k3/8/8/3n1p2/8/4P3/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        FeatureCalls::of(&pos).kind_terms_of(&terms),
        vec![(Color::Black, 1, KindTerm::UnsafeMobility, 1)]
    );
    // A Black Rook on e7 attacks e4 and nothing of White's defends it: no threat; a White
    // Knight on c3 defends e4, and the push threatens the Knight again.
    let pos = G::from_text("4k3/4r3/8/3n4/8/4P3/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        FeatureCalls::of(&pos).kind_terms_of(&[KindTerm::PushThreatened]),
        vec![]
    );
    let pos = G::from_text("4k3/4r3/8/3n4/8/2N1P3/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        FeatureCalls::of(&pos).kind_terms_of(&[KindTerm::PushThreatened]),
        vec![(Color::Black, 1, KindTerm::PushThreatened, 1)]
    );
}

#[test]
fn chess_reports_pieces_pawns_attack_and_pinned_pieces() {
    use variantlab_engine::eval::KindTerm;
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    let terms = [KindTerm::PawnThreatened, KindTerm::Pinned];
    // Kinds: knight 1, bishop 2. Black's Bishop on b4 pins White's Knight on d2 to the King
    // on e1; Black's pawn on e4 attacks White's Bishop on d3.
    let pos = G::from_text("4k3/8/8/8/1b2p3/3B4/3N4/4K3 w - - 0 1").unwrap();
    assert_eq!(
        FeatureCalls::of(&pos).kind_terms_of(&terms),
        vec![
            (Color::White, 1, KindTerm::Pinned, 1),
            (Color::White, 2, KindTerm::PawnThreatened, 1),
        ]
    );
    // A second White piece on c3 between them: no pin.
    let pos = G::from_text("4k3/8/8/8/1b2p3/2NB4/3N4/4K3 w - - 0 1").unwrap();
    assert_eq!(
        FeatureCalls::of(&pos).kind_terms_of(&terms),
        vec![(Color::White, 2, KindTerm::PawnThreatened, 1)]
    );
}

#[test]
fn dialectic_reports_mobility_by_the_tokens_and_threats() {
    use variantlab_engine::eval::KindTerm;
    use variantlab_engine::variants::dialectic::Dialectic;
    // Kinds: pawn 0, philosopher 1. With the Thesis on (1,1) the Philosopher on d4 moves
    // quietly like a Ferz (c3, e3, c5, e5) and with the Antithesis on (2,1) captures like a
    // Knight (the pawn on e6): five cells. Black's pawn on e6 reaches only e5 (no capture on
    // d5 or f5): one cell, two below three. Nothing defends it, so it is threatened (White
    // moves next). Neither side reaches a cell next to the enemy King.
    let pos = Dialectic::from_text("4k3/8/4p3/8/3H4/8/8/4K3 w - - 0 1 T11A21").unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(
        calls.mobility,
        vec![(Color::White, 1, 5), (Color::Black, 0, 1)]
    );
    assert_eq!(
        calls.kind_terms_of(&[KindTerm::Cramped, KindTerm::ZoneAttacks]),
        vec![(Color::Black, 0, KindTerm::Cramped, 2)]
    );
    assert_eq!(
        calls.king_attacks,
        vec![(Color::White, 0), (Color::Black, 0)]
    );
    assert_eq!(calls.threatened, vec![(Color::Black, 0, false, 1)]);
    // With the tokens swapped the Philosopher moves like a Knight and captures like a Ferz:
    // b3, b5, c2, c6, e2, f3, f5 (e6 is held), eight less one.
    let swapped = Dialectic::from_text("4k3/8/4p3/8/3H4/8/8/4K3 w - - 0 1 T21A11").unwrap();
    assert_eq!(FeatureCalls::of(&swapped).mobility[0], (Color::White, 1, 7));
}

#[test]
fn extreme2d_reports_mobility_per_power_and_royal_zone_attacks() {
    use variantlab_engine::eval::KindTerm;
    use variantlab_engine::variants::extreme2d::Extreme2d;
    // Kinds: pawn 0, red 1, blue 2, yellow 3. White's Rook stack on a5 slides to a6-a10,
    // a4-a2 (its King on a1 stops it) and b5-d5 (its Pawn on e5): 11. The Pawn steps to e6.
    // The Bishop stack on h7 slides to i8 and j9, g8-e10, i6-j5 and g6-b1: 13, and j9 is next
    // to Black's King on j10. Black's Knight stack on h8 leaps to g10, i10, f9, j9, f7, j7,
    // g6 and i6: 8. White's King reaches nothing of Black's zone by a power.
    let text = "White: Ka1, (r)a5, Pe5, (b)h7. Black: Kj10, (y)h8. White to move.";
    let pos = Extreme2d::from_text(text).unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(
        calls.mobility,
        vec![
            (Color::White, 1, 11),
            (Color::White, 0, 1),
            (Color::White, 2, 13),
            (Color::Black, 3, 8)
        ]
    );
    assert_eq!(
        calls.king_attacks,
        vec![(Color::White, 1), (Color::Black, 0)]
    );
    assert_eq!(
        calls.kind_terms_of(&[KindTerm::ZoneAttacks]),
        vec![(Color::White, 2, KindTerm::ZoneAttacks, 1)]
    );
}

#[test]
fn extreme2d_reports_threatened_stacks_per_disc() {
    use variantlab_engine::variants::extreme2d::Extreme2d;
    // Kinds: pawn 0, red 1, blue 2, yellow 3, heir 4. A stack's worth is the sum of its
    // discs' default values (Pawn 100, red 450, blue 300, yellow 280, Heir disc 200); the King
    // is never the cheaper attacker. A threatened stack counts once per disc, in the disc's
    // kind; a fork is two or more threatened stacks. White to move.
    // White:
    // - the Queen stack (rb) on e4 (750) is attacked by Black's Knight stack (y) on d6 (280,
    //   the leap d6-e4): cheaper, so it is threatened although the Pawn on e3 defends it
    //   (a Pawn attacks the cell in front): one red and one blue;
    // - the Knight stack (y) on h5 (280) is attacked by Black's Rook stack (r) on h9 (450,
    //   down the h-file), a dearer attacker, and the Pawn on h4 defends it: not threatened;
    // - the Pawn on c5 is attacked by Black's Pawn on c6 (as dear) and nothing defends it:
    //   threatened;
    // - the Pawns on e3 and h4 are not attacked, and the King never counts.
    // So two threatened stacks: a fork for White.
    // Black:
    // - the Pawn on c6 is attacked by the Pawn on c5 and the Queen stack on e4 (along the
    //   diagonal d5-c6), and nothing defends it: threatened;
    // - the Knight stack (y) on b2 is attacked only by White's King on a1, whose disc is worth
    //   nothing but which is never the cheaper attacker, and the Rook stack on b9 defends it
    //   down the b-file: not threatened;
    // - d6, h9 and b9 are not attacked.
    let text = "White: Ka1, (rb)e4, Pe3, (y)h5, Ph4, Pc5. \
                Black: Kj10, (y)d6, (r)h9, Pc6, (y)b2, (r)b9. White to move.";
    let pos = Extreme2d::from_text(text).unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(
        calls.threatened_by_side(),
        vec![
            (Color::White, 0, true, 1),
            (Color::White, 1, true, 1),
            (Color::White, 2, true, 1),
            (Color::Black, 0, false, 1)
        ]
    );
    assert_eq!(calls.multiple, vec![(Color::White, true)]);
    // The Heir is no royal piece: it is a target and may be the cheaper attacker. Black to
    // move. Black's bare Heir on d6 (200) steps onto e5 and d5: White's Bishop stack (b) on e5
    // (300) is attacked by a cheaper stack, so it is threatened although the Pawn on e4
    // defends it; the Pawn on d5 (100) is attacked by a dearer one and nothing defends it,
    // so it is threatened too: a fork for White, not to move. The Heir is attacked by the
    // Pawn on d5 (cheaper) and is threatened although Black's Rook stack on d10 defends it.
    let text = "White: Ka1, (b)e5, Pe4, Pd5. Black: Kj10, Hd6, (r)d10. Black to move.";
    let calls = FeatureCalls::of(&Extreme2d::from_text(text).unwrap());
    assert_eq!(
        calls.threatened_by_side(),
        vec![
            (Color::White, 0, false, 1),
            (Color::White, 2, false, 1),
            (Color::Black, 4, true, 1)
        ]
    );
    assert_eq!(calls.multiple, vec![(Color::White, false)]);
    // With a red disc under the Heir (650) it is the dearer attacker of the defended Bishop
    // stack, which is no longer threatened; the Heir stack still is, now one heir and one
    // red, and White keeps one threatened Pawn (no fork).
    let text = "White: Ka1, (b)e5, Pe4, Pd5. Black: Kj10, H(r)d6, (r)d10. Black to move.";
    let calls = FeatureCalls::of(&Extreme2d::from_text(text).unwrap());
    assert_eq!(
        calls.threatened_by_side(),
        vec![
            (Color::White, 0, false, 1),
            (Color::Black, 1, true, 1),
            (Color::Black, 4, true, 1)
        ]
    );
    assert!(calls.multiple.is_empty(), "{:?}", calls.multiple);
}

#[test]
fn pawn_structure_only_where_pawns_only_move_forward() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            // Gateway's Pawns only move forward too, along their columns.
            let expected = match kind.name() {
                "chess" => 8,
                "gateway" => 10,
                _ => 0,
            };
            assert_eq!(G::start().pawn_ranks(), expected, "{}", kind.name());
        });
    }
}

#[test]
fn gateway_reports_mobility_royal_zone_and_threats() {
    use variantlab_engine::variants::gateway::Gateway;
    // Kinds: rook 1, knight 7. White's Rook on wb5 rides 3 cells along its rank, 5 up and 4
    // down its file, 1 level up and 3 down: 16. Black's Rook on yc3 rides 2 down and 7 up
    // its file, 1 along rank 3 (a3 and d3 are holes), 3 levels up and 1 down: 14. It attacks
    // yc2 and yc1, cells of rows White's Quantum King on x1 could step to (y2, y1): two royal
    // zone attacks; nothing of White's reaches Black's zone (row z10, z9, y10, y9). The
    // Knight on wc7 attacks the Rook on wb5 (cheaper): White, to move, has one threatened
    // Rook; nothing attacks a Black piece.
    let pos = Gateway::from_text("W: Kx1, Rwb5. B: Kz10, Nwc7, Ryc3. White to move.").unwrap();
    let calls = FeatureCalls::of(&pos);
    let rook_mobility: Vec<_> = calls
        .mobility
        .iter()
        .filter(|m| m.1 == 1)
        .copied()
        .collect();
    assert_eq!(
        rook_mobility,
        vec![(Color::White, 1, 16), (Color::Black, 1, 14)]
    );
    assert_eq!(
        calls.king_attacks,
        vec![(Color::White, 0), (Color::Black, 2)]
    );
    assert_eq!(calls.threatened, vec![(Color::White, 1, true, 1)]);
    assert!(calls.multiple.is_empty(), "{:?}", calls.multiple);
    // A second White Rook on wd7 attacks the Knight along rank 7: a dearer attacker, but
    // nothing defends the Knight, so Black, not to move, has one threatened Knight.
    let pos =
        Gateway::from_text("W: Kx1, Rwb5, Rwd7. B: Kz10, Nwc7, Ryc3. White to move.").unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(
        calls.threatened_by_side(),
        vec![(Color::White, 1, true, 1), (Color::Black, 7, false, 1)]
    );
}

#[test]
fn gateway_reports_passed_doubled_and_isolated_pawns_by_columns() {
    use variantlab_engine::eval::PawnDetails;
    use variantlab_engine::variants::gateway::Gateway;
    // A Pawn's column is its file on its level; its neighbour columns are those of its four
    // capture cells: file ±1 on its level, level ±1 on its file (levels v w x y z, v on
    // top). White moves up the ranks, Black down; ranks are 0-based from the owner's side.
    //
    // White:
    // - xb4 and xb6 share column xb: xb4 is doubled (and so not looked at as passed).
    // - xb6 is passed (no Black Pawn on ranks 7-10 of xb, xa, xc, wb or yb), rank 6 = index
    //   5; the Black Knight on its next cell xb7 blocks it, so it is not free either.
    // - xc5 is stopped by the Black Pawn on yc7, in its neighbour column yc one level down
    //   (yc7 takes on xc6): a rule that looked only at the neighbouring files b and d of its
    //   own level would call it passed. Not isolated: xb4 and xb6 are in its neighbour column
    //   xb (which makes them not isolated either).
    // - vc7 is passed, rank index 6, and free: nothing on vc8, vc9, vc10; its progress is
    //   6 - 10/4 = 4. Isolated: no White Pawn on vb, vd or wc.
    // So White: two passed pawns, one doubled, one isolated, one blocked, free 4.
    // Black (ranks counted from rank 10 down):
    // - yc7 (index 3) is not passed: White's xc5 is ahead of it in neighbour column xc.
    //   Isolated (no Black Pawn on yb, yd, xc or zc).
    // - zb4 (index 6) is passed (no White Pawn on ranks 1-3 of zb, za, zc or yb); its next
    //   cell zb3 is empty, so not blocked, but the White Knight on zb2 is ahead in its
    //   column, so not free. Isolated (no Black Pawn on za, zc or yb).
    let pos = Gateway::from_text(
        "W: Kx1, Pxb4, Pxb6, Pxc5, Pvc7, Nzb2. B: Kz10, Pyc7, Pzb4, Nxb7. White to move.",
    )
    .unwrap();
    assert_eq!(pos.pawn_ranks(), 10);
    let calls = FeatureCalls::of(&pos);
    let mut passed = calls.passed.clone();
    passed.sort_by_key(|&(c, r)| (c == Color::Black, r));
    assert_eq!(
        passed,
        vec![(Color::White, 5), (Color::White, 6), (Color::Black, 6)]
    );
    assert_eq!(
        calls.structure,
        vec![(Color::White, 1, 1), (Color::Black, 0, 2)]
    );
    assert_eq!(
        calls.details,
        vec![
            (
                Color::White,
                PawnDetails {
                    blocked: 1,
                    free_passed: 4,
                    ..PawnDetails::default()
                }
            ),
            (Color::Black, PawnDetails::default())
        ]
    );
    // The missing cells and the Quantum King. White's wa5 has no enemy Pawn anywhere, but
    // wa8 does not exist (a gateway hole): it can never step to the last rank, so it is not
    // passed. Not isolated: wb9 is in its neighbour column wb (and wa5 in wb9's). wb9 is
    // passed, rank index 8, and blocked: its next cell wb10 is a cell of Black's Quantum
    // King, which no piece may enter (it is not free either). Black has no Pawns. (Black is
    // to move: wb9 threatens wa10 and wc10, so Black must transform.)
    let pos = Gateway::from_text("W: Kx1, Pwa5, Pwb9. B: Kw10. Black to move.").unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(calls.passed, vec![(Color::White, 8)]);
    assert_eq!(
        calls.structure,
        vec![(Color::White, 0, 0), (Color::Black, 0, 0)]
    );
    assert_eq!(
        calls.details,
        vec![
            (
                Color::White,
                PawnDetails {
                    blocked: 1,
                    ..PawnDetails::default()
                }
            ),
            (Color::Black, PawnDetails::default())
        ]
    );
}

#[test]
fn chess_reports_threatened_pieces() {
    type G = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;
    // Kinds: pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5. White (to move): the
    // knight on d5 is attacked by the pawn on e6 (cheaper); the rook on a1 by the bishop on
    // f6 along the long diagonal (cheaper); the pawns on e4 and g3 by the queen on h4, and
    // nothing defends them. Black: the queen on h4 is attacked by the pawn on g3 (cheaper);
    // the bishop on f6 by the knight on d5, and nothing defends it; the pawn on e6 is not
    // attacked.
    let pos = G::from_text("4k3/8/4pb2/3N4/4P2q/6P1/8/R3K3 w - - 0 1").unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(
        calls.threatened_by_side(),
        vec![
            (Color::White, 0, true, 2),
            (Color::White, 1, true, 1),
            (Color::White, 3, true, 1),
            (Color::Black, 2, false, 1),
            (Color::Black, 4, false, 1)
        ]
    );
    // Both sides have two or more threatened pieces.
    assert_eq!(
        calls.multiple,
        vec![(Color::White, true), (Color::Black, false)]
    );
    // An undefended piece attacked by a dearer one is threatened too; a defended one is not.
    let pos = G::from_text("4k3/8/8/3n4/8/4N3/8/4K3 b - - 0 1").unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(
        calls.threatened_by_side(),
        vec![(Color::White, 1, false, 1), (Color::Black, 1, true, 1)]
    );
    assert!(calls.multiple.is_empty(), "{:?}", calls.multiple);
    let pos = G::from_text("4k3/8/4p3/3n4/8/4N3/8/4K3 b - - 0 1").unwrap();
    let calls = FeatureCalls::of(&pos);
    assert_eq!(calls.threatened, vec![(Color::White, 1, false, 1)]);
}

//! Search sanity in every variant, on positions found by seeded random play (so every
//! variant gets them without hand-made positions): a mate in one is found, a claimed mate in
//! two is checked by brute force, an undefended high-value piece is taken, and the chosen move
//! is always legal.

use variantlab_engine::game::{outcome, Game};
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{with_variant, Move, Outcome, Termination, VariantKind};

fn legal<G: Game>(p: &G) -> Vec<Move> {
    let mut m = G::Moves::default();
    p.legal_moves(&mut m);
    m.as_ref().to_vec()
}

fn mated<G: Game>(p: &G) -> bool {
    matches!(outcome(p, &[]), Some(Outcome::Decisive { winner, reason: Termination::Checkmate }) if winner != p.turn())
}

fn mates_in_one<G: Game>(p: &G) -> Vec<Move> {
    legal(p)
        .into_iter()
        .filter(|&m| {
            let mut c = p.clone();
            c.play_unchecked(m);
            c.in_check() && mated(&c)
        })
        .collect()
}

/// Whether `m` forces mate on the next move: every reply allows a mate in one.
fn forces_mate_in_two<G: Game>(p: &G, m: Move) -> bool {
    let mut c = p.clone();
    c.play_unchecked(m);
    if mated(&c) {
        return true;
    }
    let replies = legal(&c);
    !replies.is_empty()
        && replies.iter().all(|&r| {
            let mut d = c.clone();
            d.play_unchecked(r);
            !mates_in_one(&d).is_empty()
        })
}

/// Positions along seeded random games, biased towards captures so material comes off.
fn positions<G: Game>(seed: u64, games: usize) -> Vec<G> {
    let mut rng = SplitMix64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = G::start();
        for _ in 0..300 {
            let moves = legal(&p);
            if moves.is_empty() || outcome(&p, &[]).is_some() {
                break;
            }
            out.push(p.clone());
            let tactical: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| p.is_tactical(m))
                .collect();
            let pool = if !tactical.is_empty() && rng.next() % 2 == 0 {
                &tactical
            } else {
                &moves
            };
            p.play_unchecked(pool[(rng.next() % pool.len() as u64) as usize]);
        }
    }
    out
}

fn check_variant<G: Game>(name: &str, games: usize) {
    let all = positions::<G>(42, games);
    let mut searcher = Searcher::new(SearchConfig::default());
    let (mut mate1, mut mate2, mut hanging, mut legal_checked) = (0, 0, 0, 0);
    let mut mate2_tries = 0;
    let values: Vec<i32> = G::start().material_kinds().iter().map(|k| k.1).collect();
    for p in &all {
        let moves = legal(p);
        // Mate in one: the search must find one.
        if mate1 < 12 && !mates_in_one(p).is_empty() {
            let r = searcher.search(p, &[], Limits::depth(2));
            let mut c = p.clone();
            c.play_unchecked(r.best.unwrap());
            assert!(mated(&c), "{name}: missed a mate in one in {}", p.to_text());
            mate1 += 1;
            continue;
        }
        // A claimed mate in two must hold up against every defence.
        // Checks narrow the tree: try positions where the side to move can give one.
        if mate2 < 4
            && mate2_tries < 60
            && moves.len() <= 60
            && moves.iter().any(|&m| {
                let mut c = p.clone();
                c.play_unchecked(m);
                c.in_check()
            })
        {
            mate2_tries += 1;
            let r = searcher.search(
                p,
                &[],
                Limits {
                    depth: Some(4),
                    nodes: Some(200_000),
                    movetime: None,
                },
            );
            if r.mate_in() == Some(2) {
                assert!(
                    forces_mate_in_two(p, r.best.unwrap()),
                    "{name}: false mate in two in {}",
                    p.to_text()
                );
                mate2 += 1;
            }
        }
        // An undefended piece worth at least three pawns is taken (or something better done).
        if hanging < 12 {
            for &m in &moves {
                if !p.is_tactical(m) {
                    continue;
                }
                let before = p.material();
                let mut c = p.clone();
                c.play_unchecked(m);
                let after = c.material();
                let them = 1 - p.turn().index();
                let gain: i32 = (0..values.len())
                    .map(|k| (before[them][k] as i32 - after[them][k] as i32) * values[k])
                    .sum();
                let recapture = legal(&c).into_iter().any(|r| c.is_tactical(r));
                if gain >= 300 && !recapture && !c.in_check() && outcome(&c, &[]).is_none() {
                    let us = p.turn().index();
                    let balance: i32 = (0..values.len())
                        .map(|k| (before[us][k] as i32 - before[them][k] as i32) * values[k])
                        .sum();
                    let r = searcher.search(p, &[], Limits::depth(3));
                    assert!(
                        r.score >= balance + gain - 150,
                        "{name}: left a free {gain} cp in {} (material {balance}, score {})",
                        p.to_text(),
                        r.score
                    );
                    hanging += 1;
                    break;
                }
            }
        }
        if legal_checked < 20 && !moves.is_empty() {
            let r = searcher.search(p, &[], Limits::nodes(500));
            assert!(moves.contains(&r.best.unwrap()));
            legal_checked += 1;
        }
    }
    assert!(mate1 >= 1, "{name}: no mate-in-one position found to test");
    assert!(
        hanging >= 1,
        "{name}: no hanging-piece position found to test"
    );
    eprintln!(
        "{name}: {mate1} mates in one, {mate2} mates in two, {hanging} hanging pieces checked"
    );
}

#[test]
fn every_variant_mates_and_takes_free_material() {
    for kind in VariantKind::ALL {
        // Mates are rarer on the 3D board (a Quantum King must have all four cells attacked),
        // so Gateway gets more random games.
        let games = if kind == VariantKind::Gateway {
            300
        } else {
            40
        };
        with_variant!(kind, G => check_variant::<G>(kind.name(), games));
    }
}

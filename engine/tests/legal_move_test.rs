//! `Game::is_legal_move`, which lets the search play the transposition table's move before
//! generating the rest: wherever a variant answers, the answer must be exactly whether the
//! move is in its legal list. Checked for every move seen anywhere in a set of seeded random
//! games (so most are moves of other positions, as a table's move from a colliding key would
//! be), plus each of them with every promotion role and a stray role, on every position of
//! those games and on fixed positions with castling, en passant, promotions, pins and checks.

#[path = "common/random_games.rs"]
mod random_games;

use random_games::{legal, positions};
use std::path::Path;
use variantlab_engine::game::Game;
use variantlab_engine::variants::file;
use variantlab_engine::{with_variant, Move, MoveKind, Role, VariantKind};

/// Checks every candidate on every position; returns how many answers the variant gave and
/// how many of those were "legal".
fn check<G: Game>(name: &str, positions: &[G]) -> (usize, usize) {
    let mut candidates: Vec<Move> = positions.iter().flat_map(legal).collect();
    let variants: Vec<Move> = candidates
        .iter()
        .flat_map(|&m| {
            let roles =
                (0..8).map(move |r| Move::new(m.from(), m.to(), MoveKind::Promotion, Role(r)));
            roles.chain([Move::new(m.from(), m.to(), MoveKind::Normal, Role(3))])
        })
        .collect();
    candidates.extend(variants);
    candidates.sort_by_key(|m| m.raw());
    candidates.dedup();
    let (mut answered, mut yes) = (0, 0);
    for p in positions {
        let list = legal(p);
        for &m in &candidates {
            if let Some(answer) = p.is_legal_move(m) {
                assert_eq!(
                    answer,
                    list.contains(&m),
                    "{name}: {} at {}",
                    p.move_text(m),
                    p.to_text()
                );
                answered += 1;
                yes += usize::from(answer);
            }
        }
        // Every legal move is recognised as such.
        for &m in &list {
            assert_ne!(
                p.is_legal_move(m),
                Some(false),
                "{name}: {} at {}",
                p.move_text(m),
                p.to_text()
            );
        }
    }
    (answered, yes)
}

#[test]
fn the_chess_family_tells_legal_moves_without_generating_them() {
    let fixed = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
        "3k4/8/8/q7/8/8/3P4/4K3 w - - 0 1",
    ];
    let chess = VariantKind::from_name("chess").unwrap();
    let (answered, yes) = with_variant!(chess, G => {
        let mut ps = positions::<G>(7, 40, 160);
        ps.extend(fixed.iter().map(|f| G::from_text(f).unwrap()));
        check("chess", &ps)
    });
    assert!(answered > 100_000 && yes > 5_000, "{answered} {yes}");
    let dream = VariantKind::from_name("dream-chess-46").unwrap();
    let (answered, _) =
        with_variant!(dream, G => check("dream-chess-46", &positions::<G>(8, 30, 160)));
    assert!(answered > 10_000);
    // Grand chess from its file: promotion on three ranks, only to a piece already lost.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/variants/grand.toml");
    let grand = file::load(&path).unwrap_or_else(|e| panic!("{e}")).kind;
    let (answered, _) = with_variant!(grand, G => check("grand", &positions::<G>(9, 20, 200)));
    assert!(answered > 10_000);
}

#[test]
fn the_other_variants_answer_correctly_or_not_at_all() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            check(kind.name(), &positions::<G>(3, 4, 60));
        });
    }
}

//! `Game::quiescence_moves`, the list the quiescence search reads: at least every legal
//! tactical move, every legal move in check, and an answer that says whether the position
//! has a legal move at all. The chess family lists only the tactical moves out of check, in
//! the order of the whole legal list, so its searches are the same as when the quiescence
//! search read that list (the bench signatures check the rest).

#[path = "common/random_games.rs"]
mod random_games;

use random_games::{legal, positions};
use std::path::Path;
use variantlab_engine::game::Game;
use variantlab_engine::variants::file;
use variantlab_engine::{with_variant, Move, VariantKind};

/// Checks the contract on every position; with `exact`, that out of check the list is the
/// legal list's tactical moves in their order. Returns how many positions listed fewer moves
/// than the legal list.
fn check<G: Game>(name: &str, positions: &[G], exact: bool) -> usize {
    let mut shorter = 0;
    for p in positions {
        let all = legal(p);
        let mut out = G::Moves::default();
        let any = p.quiescence_moves(&mut out);
        let got = out.as_ref();
        let at = || format!("{name} at {}", p.to_text());
        assert_eq!(any, !all.is_empty(), "{}", at());
        let tactical: Vec<Move> = all.iter().copied().filter(|&m| p.is_tactical(m)).collect();
        let needed = if p.in_check() { &all } else { &tactical };
        for m in needed {
            assert!(got.contains(m), "{}: {} missing", at(), p.move_text(*m));
        }
        for m in got {
            assert!(
                all.contains(m),
                "{}: {} is not legal",
                at(),
                p.move_text(*m)
            );
        }
        if exact && !p.in_check() && !tactical.is_empty() {
            assert_eq!(got, &tactical[..], "{}", at());
        }
        shorter += usize::from(got.len() < all.len());
    }
    shorter
}

#[test]
fn the_chess_family_lists_its_tactical_moves_in_order() {
    let fixed = [
        // En passant, castling both ways, promotions with and without captures.
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        // A stalemate, and a position whose only moves are quiet.
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "7k/8/8/8/8/8/8/K7 w - - 0 1",
    ];
    let chess = VariantKind::from_name("chess").unwrap();
    let shorter = with_variant!(chess, G => {
        let mut ps = positions::<G>(11, 40, 160);
        ps.extend(fixed.iter().map(|f| G::from_text(f).unwrap()));
        check("chess", &ps, true)
    });
    assert!(shorter > 1000, "{shorter}");
    let dream = VariantKind::from_name("dream-chess-46").unwrap();
    with_variant!(dream, G => check("dream-chess-46", &positions::<G>(12, 30, 160), true));
    // Grand chess from its file: promotion on three ranks, only to a piece already lost.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/variants/grand.toml");
    let grand = file::load(&path).unwrap_or_else(|e| panic!("{e}")).kind;
    with_variant!(grand, G => check("grand", &positions::<G>(13, 20, 200), true));
}

#[test]
fn every_variant_keeps_the_contract() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => {
            check(kind.name(), &positions::<G>(5, 6, 120), false);
        });
    }
}

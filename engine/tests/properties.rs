//! Properties that must hold at every ply of random playouts in every variant: legal moves
//! never leave the mover's King attacked, the incremental hash equals a full recomputation,
//! the position text round-trips, and every move's text parses back to the same move.

use variantlab_engine::game::outcome;
use variantlab_engine::position::{Position, Variant};
use variantlab_engine::variants::{Chess, Dream46};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::Game;

fn playouts<V: Variant>(games: usize, seed: u64) -> usize {
    let mut rng = SplitMix64(seed);
    let mut plies = 0;
    for _ in 0..games {
        let mut pos = Position::<V>::start();
        let mut history = Vec::new();
        for _ in 0..400 {
            assert_eq!(pos.zobrist(), pos.compute_hash());
            let text = pos.to_text();
            let back = Position::<V>::from_text(&text).unwrap();
            assert_eq!(back.to_text(), text);
            assert_eq!(back.zobrist(), pos.zobrist(), "{text}");
            let mut list = Default::default();
            pos.legal_moves(&mut list);
            let moves: &[variantlab_engine::Move] = list.as_ref();
            for &m in moves {
                assert_eq!(pos.parse_move(&pos.move_text(m)), Some(m), "{text}");
                let mut child = pos;
                child.play_unchecked(m);
                let k = child.king(pos.turn()).unwrap();
                assert!(
                    !child.is_attacked(k, child.turn()),
                    "{text}: {} leaves the King attacked",
                    pos.move_text(m)
                );
            }
            if outcome(&pos, &history).is_some() {
                break;
            }
            history.push(pos.zobrist());
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play_unchecked(m);
            plies += 1;
        }
    }
    plies
}

#[test]
fn chess_playouts_keep_invariants() {
    assert!(playouts::<Chess>(60, 1) > 3000);
}

#[test]
fn dream46_playouts_keep_invariants() {
    assert!(playouts::<Dream46>(60, 2) > 3000);
}

/// Crazyhouse (`data/variants/crazyhouse.toml`): hands, drops and promoted pieces keep the
/// hash, the text and the move names (the only variant file this test process loads).
#[test]
fn crazyhouse_playouts_keep_invariants() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/variants/crazyhouse.toml");
    variantlab_engine::variants::file::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(playouts::<variantlab_engine::variants::file::FileVariant64<0>>(8, 3) > 500);
    drops_reset_the_clock_and_repetition_looks_past_captures();
}

/// A drop resets the move-count clock, and a repeated position is found across captures (the
/// captured pieces are in hand), as Fairy-Stockfish plays crazyhouse; chess looks back only to
/// the last capture. Called by the crazyhouse test, which loads the file.
fn drops_reset_the_clock_and_repetition_looks_past_captures() {
    use variantlab_engine::game::repetitions;
    use variantlab_engine::variants::file::FileVariant64;
    fn line<V: Variant>(moves: &[&str]) -> (Position<V>, Vec<u64>) {
        let mut p = Position::<V>::start();
        let mut history = Vec::new();
        for m in moves {
            history.push(p.hash());
            p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        (p, history)
    }
    let captures = ["e2e4", "d7d5", "e4d5", "d8d5"];
    // The position after the captures, as if it had stood at the start too.
    let (zh, mut history) = line::<FileVariant64<0>>(&captures);
    assert_eq!(zh.halfmove_clock(), 0);
    history[0] = zh.hash();
    assert_eq!(repetitions(&zh, &history), 1);
    let (chess, mut history) = line::<Chess>(&captures);
    history[0] = chess.hash();
    assert_eq!(repetitions(&chess, &history), 0);

    let (zh, _) = line::<FileVariant64<0>>(&["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"]);
    assert_eq!(zh.halfmove_clock(), 2);
    let (zh, _) =
        line::<FileVariant64<0>>(&["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "P@d4"]);
    assert_eq!(zh.halfmove_clock(), 0, "a drop resets the clock");
}

#[test]
fn fools_mate_is_checkmate_and_bare_kings_are_dead() {
    use variantlab_engine::{Color, Outcome, Termination};
    let mut p = Position::<Chess>::start();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        p.play_text(m).unwrap();
    }
    assert_eq!(
        outcome(&p, &[]),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: Termination::Checkmate
        })
    );
    let bare = Position::<Chess>::from_text("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap();
    assert_eq!(
        outcome(&bare, &[]),
        Some(Outcome::Draw {
            reason: Termination::InsufficientMaterial
        })
    );
    let stale = Position::<Chess>::from_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(
        outcome(&stale, &[]),
        Some(Outcome::Draw {
            reason: Termination::Stalemate
        })
    );
}

#[test]
fn threefold_repetition_and_move_rule() {
    use variantlab_engine::{Outcome, Termination};
    let mut p = Position::<Dream46>::start();
    let mut history = Vec::new();
    let shuffle = ["c1d3", "f8e6", "d3c1", "e6f8"];
    for (i, m) in shuffle.iter().cycle().take(8).enumerate() {
        assert_eq!(outcome(&p, &history), None, "ply {i}");
        history.push(p.zobrist());
        p.play_text(m).unwrap();
    }
    assert_eq!(
        outcome(&p, &history),
        Some(Outcome::Draw {
            reason: Termination::Repetition
        })
    );
    // Steward moves do not reset the Dream Chess 46 clock; captures do.
    let mut q =
        Position::<Dream46>::from_text("***4k/***5/***5/8/8/5***/2S2***/K4*** w 99 80").unwrap();
    q.play_text("c2c3").unwrap();
    assert_eq!(q.halfmove(), 100);
    assert_eq!(
        outcome(&q, &[]),
        Some(Outcome::Draw {
            reason: Termination::MoveRule
        })
    );
}

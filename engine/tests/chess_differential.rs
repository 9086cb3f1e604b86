//! Standard chess against two independent implementations: shakmaty (legal move sets, check
//! status and positions after random playouts) and the mailbox reference generator written
//! from the FIDE Laws (`reference/chess.rs`).

#[path = "reference/chess.rs"]
mod reference_chess;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess as Sm, EnPassantMode, Position as _};
use variantlab_engine::position::Position;
use variantlab_engine::variants::Chess;
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::Game;

fn sm_from(fen: &str) -> Sm {
    let f: Fen = fen.parse().unwrap();
    f.into_position(CastlingMode::Standard).unwrap()
}

fn our_moves(pos: &Position<Chess>) -> Vec<String> {
    let mut list = Default::default();
    pos.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| pos.move_text(m)).collect();
    v.sort();
    v
}

fn sm_moves(pos: &Sm) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| UciMove::from_standard(m).to_string())
        .collect();
    v.sort();
    v
}

fn compare(fen: &str) {
    let ours = Position::<Chess>::from_text(fen).unwrap();
    let theirs = sm_from(fen);
    assert_eq!(our_moves(&ours), sm_moves(&theirs), "moves differ in {fen}");
    assert_eq!(ours.is_check(), theirs.is_check(), "check differs in {fen}");
}

#[test]
fn suite_positions_agree_with_shakmaty() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        compare(fen);
    }
}

#[test]
fn random_playouts_agree_with_shakmaty() {
    let mut rng = SplitMix64(7);
    let mut plies = 0;
    for game in 0..400 {
        let mut ours = Position::<Chess>::start();
        let mut theirs = Sm::default();
        for _ in 0..300 {
            let fen = ours.to_text();
            let sm_fen = Fen::from_position(theirs.clone(), EnPassantMode::PseudoLegal).to_string();
            assert_eq!(fen, sm_fen, "game {game}: positions diverged");
            let moves = our_moves(&ours);
            assert_eq!(
                moves,
                sm_moves(&theirs),
                "game {game}: moves differ in {fen}"
            );
            assert_eq!(
                ours.is_check(),
                theirs.is_check(),
                "game {game}: check differs in {fen}"
            );
            if moves.is_empty() {
                break;
            }
            let pick = &moves[(rng.next() % moves.len() as u64) as usize];
            ours.play_text(pick).unwrap();
            let uci: UciMove = pick.parse().unwrap();
            let mv = uci.to_move(&theirs).unwrap();
            theirs = theirs.play(&mv).unwrap();
            plies += 1;
        }
    }
    assert!(plies > 10_000, "only {plies} plies compared");
}

#[test]
fn mailbox_reference_agrees_on_perft_and_random_games() {
    for (fen, depth, nodes) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            3,
            8902,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            2,
            2039,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 2812),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            2,
            264,
        ),
    ] {
        assert_eq!(
            reference_chess::parse(fen).unwrap().perft(depth),
            nodes,
            "{fen}"
        );
    }
    let mut rng = SplitMix64(8);
    let mut plies = 0;
    for game in 0..300 {
        let mut ours = Position::<Chess>::start();
        for _ in 0..250 {
            let fen = ours.to_text();
            let r = reference_chess::parse(&fen).unwrap();
            let moves = our_moves(&ours);
            assert_eq!(moves, r.legal_moves(), "game {game}: {fen}");
            assert_eq!(ours.is_check(), r.in_check(), "game {game}: {fen}");
            if moves.is_empty() {
                break;
            }
            ours.play_text(&moves[(rng.next() % moves.len() as u64) as usize])
                .unwrap();
            plies += 1;
        }
    }
    assert!(plies > 20_000);
}

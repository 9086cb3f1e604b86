//! Unit tests of the search's parts.

use super::history::{history_index, CORRECTION_MAX};
use super::move_loop::research_depth;
use super::ordering::{order_key, pick_largest, ORDER_SHIFT};
use super::tt::{Bound, TtHit};
use super::*;
use crate::game::Game;
use crate::position::Position;
use crate::variants::Chess;
use crate::{Color, Outcome};
use std::time::Duration;

type P = Position<Chess>;

/// A quiet middlegame (Queen's Gambit structure, both sides castled): the position the
/// tests of whole-tree effects search.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8";

fn pos(text: &str) -> P {
    P::from_text(text).unwrap()
}

/// Every technique on, those off by default included, but razoring: the tests search a
/// few plies at a high bound to find a quiet mate, which razoring leaves to the
/// quiescence search (that sees captures only) by design.
fn all_on() -> SearchConfig {
    SearchConfig {
        disabled: Technique::Razoring as u64,
        ..SearchConfig::default()
    }
}

/// The default configuration with one technique switched on (`true`) or off.
fn switched(t: Technique, on: bool) -> SearchConfig {
    let disabled = if on {
        Technique::DEFAULT_OFF & !(t as u64)
    } else {
        Technique::DEFAULT_OFF | t as u64
    };
    SearchConfig {
        disabled,
        ..SearchConfig::default()
    }
}

/// A searcher prepared for `p` (values, evaluator, piece keys) with empty tables.
fn prepared(p: &P, config: SearchConfig) -> Searcher {
    let mut s = Searcher::new(config);
    s.search(p, &[], Limits::depth(1));
    s.clear();
    s
}

/// Ply 1's ordered list of `moves`, every exchange evaluated and every move in place (as
/// the search would pick them).
fn fully_ordered(s: &mut Searcher, p: &P, moves: &<P as Game>::Moves) -> Vec<(i64, Move)> {
    let mut list = s.ordered(p, moves.as_ref(), None, 1);
    s.sort_all(p, &mut list);
    list
}

/// Searches `p` as the node at ply 1 after `prev` (a move of the other side), with a
/// null window at `beta`.
fn search_after(s: &mut Searcher, p: &P, prev: Move, prev_key: u16, depth: u32, beta: i32) {
    s.line_moves[0] = prev;
    s.line_keys[0] = prev_key;
    s.negamax(p, depth, (beta - 1, beta), 1, false);
}

// White mates with the quiet move Rb1-b8 after Black's last move (a7-a6 here).
const BACK_RANK: &str = "6k1/5ppp/p7/8/8/8/8/1R4K1 w - - 0 1";
const BEFORE: &str = "6k1/p4ppp/8/8/8/8/8/1R4K1 b - - 0 1";

#[test]
fn a_quiet_refutation_becomes_the_countermove_of_the_move_before() {
    let p = pos(BACK_RANK);
    let mut s = prepared(&p, all_on());
    let before = pos(BEFORE);
    let prev = before.parse_move("a7a6").unwrap();
    let key = s.piece_key(&before, prev);
    assert_eq!(s.countermove(1), None);
    search_after(&mut s, &p, prev, key, 2, 5000);
    let mate = p.parse_move("b1b8").unwrap();
    assert_eq!(s.counters[history_index(prev)], mate);
    assert_eq!(s.countermove(1), Some(mate));
    // Ordered after the killers: with no table move and no captures, right behind the
    // killer of its ply.
    let mut moves = <P as Game>::Moves::default();
    p.legal_moves(&mut moves);
    s.killers[1] = [Move::default(); 2];
    let list = fully_ordered(&mut s, &p, &moves);
    assert_eq!(list[0].1, mate);
    assert_eq!(list[0].0 >> ORDER_SHIFT, (1 << 39) - 2);
    s.scratch[1] = list;
    // Switched off, nothing is recorded or used.
    let mut off = prepared(
        &p,
        SearchConfig {
            disabled: Technique::CounterMove as u64,
            ..SearchConfig::default()
        },
    );
    search_after(&mut off, &p, prev, key, 2, 5000);
    assert_eq!(off.counters[history_index(prev)], Move::default());
    assert_eq!(off.countermove(1), None);
}

#[test]
fn a_quiet_cut_move_gains_continuation_history_and_the_earlier_quiets_lose() {
    let p = pos(BACK_RANK);
    let mut s = prepared(&p, all_on());
    let before = pos(BEFORE);
    let prev = before.parse_move("a7a6").unwrap();
    let key = s.piece_key(&before, prev);
    // A killer tried first that does not cut (a king move), so it is a quiet tried
    // before the cut.
    let king = p.parse_move("g1f1").unwrap();
    s.killers[1] = [king, Move::default()];
    search_after(&mut s, &p, prev, key, 2, 5000);
    let mate = p.parse_move("b1b8").unwrap();
    let cont = |s: &Searcher, m: Move| {
        s.continuation[0][key as usize * PIECE_KEYS + s.piece_key(&p, m) as usize]
    };
    assert!(cont(&s, mate) > 0, "{}", cont(&s, mate));
    assert!(cont(&s, king) < 0, "{}", cont(&s, king));
    // Two plies back there was no move (the root's predecessor): that table is untouched.
    assert!(s.continuation[1].iter().all(|&h| h == 0));
    assert!(s.continuation_score([key, NO_KEY], s.piece_key(&p, mate)) > 0);
}

#[test]
fn chess_piece_keys_are_dense_and_distinct() {
    let p = P::start();
    let s = prepared(&p, all_on());
    assert!(s.key_dense);
    let mut moves = <P as Game>::Moves::default();
    p.legal_moves(&mut moves);
    let mut keys: Vec<u16> = moves.as_ref().iter().map(|&m| s.piece_key(&p, m)).collect();
    assert!(keys.iter().all(|&k| (k as usize) < 6 * 64));
    keys.sort_unstable();
    keys.dedup();
    // 20 moves; the two knight moves to no common cell, so every (kind, cell) differs.
    assert_eq!(keys.len(), 20);
}

#[test]
fn a_capture_that_cuts_gains_capture_history_which_then_orders_equal_captures() {
    // The rook takes the queen and the score clears beta (the static evaluation does
    // not, so nothing is pruned before the move loop).
    let p = pos("4k3/8/8/3q4/8/8/8/R2RK3 w - - 0 1");
    let mut s = prepared(&p, all_on());
    let take = p.parse_move("d1d5").unwrap();
    s.negamax(&p, 1, (599, 600), 1, false);
    let i = s.capture_index(&p, take);
    assert!(s.capture_history[i] > 0, "{}", s.capture_history[i]);
    // Two pawn captures of equal MVV-LVA: a bonus for the second puts it first.
    let p = pos("4k3/8/8/2p1p3/3P4/8/8/4K3 w - - 0 1");
    let mut s = prepared(&p, all_on());
    let mut moves = <P as Game>::Moves::default();
    p.legal_moves(&mut moves);
    let order = |s: &mut Searcher| {
        let list = fully_ordered(s, &p, &moves);
        let first = p.move_text(list[0].1);
        s.scratch[1] = list;
        first
    };
    let (a, b) = (p.parse_move("d4c5").unwrap(), p.parse_move("d4e5").unwrap());
    let first = order(&mut s);
    let other = if first == "d4c5" { b } else { a };
    let i = s.capture_index(&p, other);
    s.capture_history[i] = 4000;
    assert_eq!(order(&mut s), p.move_text(other));
    // Switched off, the history is ignored.
    s.config.disabled = Technique::CaptureHistory as u64;
    assert_eq!(order(&mut s), first);
}

#[test]
fn a_capture_tried_before_the_cut_move_loses_capture_history() {
    // The queen's capture of a pawn is tried first and does not reach beta; the quiet
    // mate Ra8 then cuts.
    let p = pos("6k1/5ppp/8/3p4/8/8/8/R2QK3 w - - 0 1");
    let mut s = prepared(&p, all_on());
    let take = p.parse_move("d1d5").unwrap();
    let score = s.negamax(&p, 1, (4999, 5000), 1, false);
    assert!(score >= MATE_BOUND, "{score}");
    let i = s.capture_index(&p, take);
    assert!(s.capture_history[i] < 0, "{}", s.capture_history[i]);
}

fn see(text: &str, mv: &str) -> Option<i32> {
    let p = pos(text);
    p.see(p.parse_move(mv).unwrap(), &VALUES)
}

/// Round values for the exchange tests: pawn, knight, bishop, rook, queen, king.
const VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

#[test]
fn static_exchange_evaluation_in_chess() {
    let kinds: Vec<&str> = P::start().material_kinds().iter().map(|k| k.0).collect();
    assert_eq!(kinds, ["pawn", "knight", "bishop", "rook", "queen", "king"]);
    // A free pawn, and the same pawn defended by another: the queen is lost for it.
    assert_eq!(see("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), Some(100));
    assert_eq!(
        see("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        Some(-800)
    );
    // A rook takes a pawn defended by a rook: alone it loses the exchange; with a second
    // rook behind it (an x-ray) the pawn is won.
    assert_eq!(
        see("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
        Some(-400)
    );
    assert_eq!(
        see("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
        Some(100)
    );
    // The king may take back only where nothing takes it in turn.
    assert_eq!(see("4k3/3p4/8/8/8/8/3Q4/4K3 w - - 0 1", "d2d7"), Some(-800));
    assert_eq!(see("4k3/3p4/8/8/8/8/3Q4/3RK3 w - - 0 1", "d2d7"), Some(100));
    // En passant wins the pawn; a quiet move to an attacked cell loses the mover.
    assert_eq!(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), Some(100));
    assert_eq!(see("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1", "d1d5"), Some(-900));
    // Castling and promotions are left to MVV-LVA.
    assert_eq!(see("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), None);
    // The threshold form agrees with the exchange, with or without the shortcut of a
    // victim worth at least its capturer.
    for (text, mv) in [
        ("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
        ("3qk3/8/8/3r4/8/8/3Q4/3RK3 w - - 0 1", "d2d5"),
        ("3qk3/8/2p5/3r4/8/8/3N4/3RK3 w - - 0 1", "d2b3"),
    ] {
        let p = pos(text);
        let m = p.parse_move(mv).unwrap();
        let v = p.see(m, &VALUES);
        for t in [-500, -1, 0, 1, 100, 400] {
            assert_eq!(
                p.see_at_least(m, &VALUES, t),
                v.map(|v| v >= t),
                "{text} {mv} {t}"
            );
        }
    }
}

#[test]
fn losing_captures_go_last_and_leave_the_quiescence_search() {
    let p = pos("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1");
    let mut s = prepared(&p, all_on());
    let mut moves = <P as Game>::Moves::default();
    p.legal_moves(&mut moves);
    let list = fully_ordered(&mut s, &p, &moves);
    let last = list.last().unwrap().1;
    s.scratch[1] = list;
    assert_eq!(p.move_text(last), "d1d5");
    let quiescence_nodes = |disabled: u64| {
        let mut s = prepared(
            &p,
            SearchConfig {
                disabled,
                ..SearchConfig::default()
            },
        );
        s.nodes = 0;
        s.quiesce(&p, -MATE, MATE, 1);
        s.nodes
    };
    // With SEE the losing capture is not searched: the stand-pat node alone.
    assert_eq!(quiescence_nodes(0), 1);
    assert!(quiescence_nodes(Technique::See as u64) > 1);
}

#[test]
fn the_quiescence_table_stores_results_and_cuts_a_second_visit() {
    // White can win the d5 pawn: the quiescence search has a capture to search.
    let p = pos("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1");
    // The linear evaluation, under which taking the pawn is the best line (chess's network
    // prefers standing pat here, and the table's mechanics are what is tested).
    let config = SearchConfig {
        eval: EvalChoice::Linear,
        ..SearchConfig::default()
    };
    let mut s = prepared(&p, config);
    let (alpha, beta) = (-MATE, MATE);
    let first = s.quiesce(&p, alpha, beta, 1);
    let hit =
        s.tt.probe(p.hash(), 1)
            .expect("a quiescence result is stored");
    assert_eq!((hit.depth, hit.bound, hit.score), (0, Bound::Exact, first));
    assert_eq!(hit.mv.map(|m| p.move_text(m)), Some("d1d5".to_string()));
    // A null-window visit is answered by the table: one node, the same score.
    s.nodes = 0;
    assert_eq!(s.quiesce(&p, first - 1, first, 1), first);
    assert_eq!(s.nodes, 1);
    // A deeper entry of the main search is not replaced by a quiescence result.
    s.tt.store(p.hash(), 1, TtHit::new(5, 7, Bound::Lower, None, false));
    s.quiesce(&p, alpha, beta, 1);
    assert_eq!(s.tt.probe(p.hash(), 1).unwrap().depth, 5);
    // Switched off, nothing is stored.
    let mut off = prepared(&p, switched(Technique::QuiescenceTable, false));
    off.quiesce(&p, alpha, beta, 1);
    assert!(off.tt.probe(p.hash(), 1).is_none());
}

/// Plays `p` out with `config` at `nodes` a move; the outcome and the plies it took.
fn play_out<G: Game>(
    p: &G,
    config: SearchConfig,
    nodes: u64,
    max_plies: usize,
) -> (Option<Outcome>, usize) {
    let mut s = Searcher::new(config);
    let mut pos = p.clone();
    let mut history = Vec::new();
    for ply in 0..max_plies {
        if let Some(o) = crate::game::outcome(&pos, &history) {
            return (Some(o), ply);
        }
        let best = s.search(&pos, &history, Limits::nodes(nodes)).best.unwrap();
        history.push(pos.hash());
        pos.play_unchecked(best);
    }
    (None, max_plies)
}

#[test]
fn mop_up_drives_the_lone_king_to_the_edge_and_mates() {
    let s = prepared(
        &pos("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"),
        SearchConfig::default(),
    );
    // White to move, the lone Black king in the centre against the same king on the edge.
    let centre = s.mop_up(&pos("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"));
    let edge = s.mop_up(&pos("k7/8/8/8/8/8/8/3QK3 w - - 0 1"));
    let near = s.mop_up(&pos("k7/8/1K6/8/8/8/8/3Q4 w - - 0 1"));
    assert!(
        0 < centre && centre < edge && edge < near,
        "{centre} {edge} {near}"
    );
    // The same seen from the lone side is the negative; no lead, no term.
    assert_eq!(s.mop_up(&pos("k7/8/1K6/8/8/8/8/3Q4 b - - 0 1")), -near);
    assert_eq!(s.mop_up(&pos("k7/3q4/1K6/8/8/8/8/3Q4 w - - 0 1")), 0);
    // K+Q against K from the centre, and K+R against K with Black to move and lead: mated
    // well within the move rule at 1000 nodes a move (without the term the lone king was
    // chased around the middle until the move rule).
    for (text, winner) in [
        ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", Color::White),
        ("8/8/3K4/8/4r3/8/8/4k3 b - - 0 1", Color::Black),
    ] {
        let (o, plies) = play_out(&pos(text), SearchConfig::default(), 1000, 100);
        let won = matches!(o, Some(Outcome::Decisive { winner: w, .. }) if w == winner);
        assert!(won, "{text}: {o:?} after {plies} plies");
    }
}

/// In three dimensions too: a lone Gateway Emperor (26 neighbours) against an Emperor, a
/// Queen and a Rook is mated within 100 plies at 2000 nodes a move; without the term the
/// same play-out was still going at ply 100, and in self-play the move rule drew such
/// games (398 of 800 ended by the move rule, many with a bare Emperor against several
/// pieces).
#[test]
fn mop_up_mates_a_lone_emperor_in_three_dimensions() {
    use crate::variants::gateway::Gateway;
    let p = Gateway::from_text("W: Exb2, Qxa5, Rwb5. B: Exc8. White to move.").unwrap();
    let (o, plies) = play_out(&p, SearchConfig::default(), 2000, 100);
    let won = matches!(
        o,
        Some(Outcome::Decisive {
            winner: Color::White,
            ..
        })
    );
    assert!(won, "{o:?} after {plies} plies");
}

#[test]
fn a_singular_extension_search_leaves_out_its_move_and_the_table() {
    // White's only legal move is Kxb2 (a2 and b1 are attacked).
    let p = pos("k7/8/8/8/8/8/1r6/K7 w - - 0 1");
    let mut s = prepared(&p, SearchConfig::default());
    let only = p.parse_move("a1b2").unwrap();
    // Without it nothing is searched: the result is alpha, and nothing is stored.
    s.excluded[1] = Some(only);
    assert_eq!(s.negamax(&p, 6, (-51, -50), 1, false), -51);
    assert!(s.tt.probe(p.hash(), 1).is_none());
    // With it, the bare kings draw: above beta, and the result is stored.
    s.excluded[1] = None;
    assert!(s.negamax(&p, 6, (-51, -50), 1, false) >= -50);
    let hit = s.tt.probe(p.hash(), 1).expect("stored");
    assert_eq!(hit.mv, Some(only));
}

#[test]
fn razoring_leaves_a_hopeless_node_to_the_quiescence_search() {
    // White is a Rook up and mates with the quiet Rb1-b8: far above the material.
    let p = pos(BACK_RANK);
    let razoring = switched(Technique::Razoring, true);
    let searched = |config: SearchConfig, window: (i32, i32)| {
        let mut s = prepared(&p, config);
        s.negamax(&p, 2, window, 1, false)
    };
    // Off, the depth-2 search finds the mate.
    assert!(searched(SearchConfig::default(), (4999, 5000)) >= MATE_BOUND);
    // On, the static evaluation lies too far below alpha: the quiescence search (captures
    // only) answers, below alpha, and the quiet mate is not seen.
    let score = searched(razoring.clone(), (4999, 5000));
    assert!(score < 4999, "{score}");
    assert!(score > 0, "{score}: White is a Rook up");
    // Not at the principal variation (an open window).
    assert!(searched(razoring, (4000, 5000)) >= MATE_BOUND);
}

#[test]
fn reduced_depth_pruning_prunes_late_quiet_moves_of_a_deep_node_far_below_alpha() {
    let p = pos(MIDDLEGAME);
    let nodes = |on: bool| {
        let mut s = prepared(&p, switched(Technique::ReducedDepthPruning, on));
        s.negamax(&p, 8, (799, 800), 1, false);
        s.nodes
    };
    // At depth 8 futility pruning by the node's depth never acts (it needs depth 5 or
    // less); by the depth the reductions would leave a late quiet move, it does.
    let (off, on) = (nodes(false), nodes(true));
    assert!(on < off, "{on} nodes with, {off} without");
}

#[test]
fn capture_futility_prunes_captures_that_cannot_lift_a_lost_position_to_alpha() {
    // White is a Queen down; its pawn captures win a pawn at most, far short of alpha.
    let p = pos("q3k3/8/8/2p1p1p1/1P1P1P1P/8/8/4K3 w - - 0 1");
    let nodes = |on: bool| {
        let mut s = prepared(&p, switched(Technique::CaptureFutility, on));
        let score = s.negamax(&p, 3, (299, 300), 1, false);
        (score, s.nodes)
    };
    let ((score_off, off), (score_on, on)) = (nodes(false), nodes(true));
    assert!(on < off, "{on} nodes with, {off} without");
    // Both fail low: the pruned captures could not have reached alpha.
    assert!(score_off < 300 && score_on < 300, "{score_off} {score_on}");
}

#[test]
fn a_re_search_goes_deeper_after_a_wide_overshoot_and_shallower_after_a_narrow_one() {
    // The rule: the margin to go deeper grows two per ply.
    let params = SearchParams::default();
    let deeper_margin = Param::DeeperMargin.default_value();
    let shallower_margin = Param::ShallowerMargin.default_value();
    let research_depth = |d, score, best| research_depth(&params, d, score, best);
    assert_eq!(research_depth(5, 100 + deeper_margin + 11, 100), 6);
    assert_eq!(research_depth(5, 100 + deeper_margin + 10, 100), 5);
    assert_eq!(research_depth(5, 100 + shallower_margin, 100), 5);
    assert_eq!(research_depth(5, 100 + shallower_margin - 1, 100), 4);
    assert_eq!(research_depth(0, 100, 100), 0);
    // Wired into the search: the re-searches change the tree.
    let p = pos(MIDDLEGAME);
    let nodes = |on: bool| {
        let mut s = prepared(&p, switched(Technique::ResearchDepth, on));
        s.search(&p, &[], Limits::depth(9));
        s.nodes
    };
    assert_ne!(nodes(true), nodes(false));
}

#[test]
fn tt_pv_reduces_less_below_positions_once_on_a_principal_variation() {
    let p = pos(MIDDLEGAME);
    let nodes = |on: bool| {
        let mut s = prepared(&p, switched(Technique::TtPv, on));
        let score = s.search(&p, &[], Limits::depth(7)).score;
        // The root was searched with an open window: the table says so.
        assert!(s.tt.probe(p.hash(), 1).expect("stored").pv);
        s.nodes = 0;
        // Searched again with a null window, one ply deeper than stored.
        s.negamax(&p, 8, (score - 1, score), 1, false);
        s.nodes
    };
    let (off, on) = (nodes(false), nodes(true));
    assert!(on > off, "{on} nodes with, {off} without");
}

#[test]
fn a_double_extension_deepens_a_table_move_far_above_every_other() {
    // White's Queen must take Black's (which checks and is defended by the Rook), or
    // the King steps aside and loses the Queen: the table's move stays far above the rest.
    let p = pos("3rk3/ppp5/8/8/8/8/3q1PPP/3QK3 w - - 0 1");
    let nodes = |on: bool| {
        let mut s = prepared(&p, switched(Technique::DoubleExtensions, on));
        let score = s.search(&p, &[], Limits::depth(7)).score;
        s.nodes = 0;
        // One ply deeper than stored, so the table's entry does not answer at once.
        s.negamax(&p, 8, (score - 1, score), 1, false);
        s.nodes
    };
    let (off, on) = (nodes(false), nodes(true));
    assert!(on > off, "{on} nodes with, {off} without");
}

#[test]
fn reverse_futility_mean_returns_halfway_between_the_evaluation_and_beta() {
    // White is a Queen up: far above a beta of 0 at depth 3.
    let p = pos("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1");
    let searched = |on: bool| {
        let mut s = prepared(&p, switched(Technique::ReverseFutilityMean, on));
        (s.negamax(&p, 3, (-1, 0), 1, true), s.static_eval(&p))
    };
    let (score, eval) = searched(false);
    assert!(eval > 600, "{eval}");
    assert_eq!(score, eval);
    let (score, eval) = searched(true);
    assert_eq!(score, eval / 2);
}

#[test]
fn probcut_cuts_on_a_capture_that_holds_above_the_raised_bound() {
    // White's rook takes Black's undefended queen: far above any beta near the
    // material before the capture.
    let p = pos("3q3k/8/8/8/8/8/8/3RK3 w - - 0 1");
    let capture = p.parse_move("d1d8").unwrap();
    let beta = 200;
    let probcut = switched(Technique::ProbCut, true);
    // With ProbCut the node is cut by the capture's reduced search: stored three plies
    // shallower than the node, as a lower bound above the raised bound, with its move.
    let mut s = prepared(&p, probcut.clone());
    let score = s.negamax(&p, 7, (beta - 1, beta), 1, false);
    let hit = s.tt.probe(p.hash(), 1).expect("stored");
    assert!(score >= beta + 2 * s.pawn_value());
    assert_eq!(
        (hit.depth, hit.bound, hit.mv),
        (4, Bound::Lower, Some(capture))
    );
    // Without it the node is searched at its own depth (a ply less by internal
    // iterative reduction, there being no table move).
    let mut s = prepared(&p, SearchConfig::default());
    assert!(s.negamax(&p, 7, (beta - 1, beta), 1, false) >= beta);
    let hit = s.tt.probe(p.hash(), 1).expect("stored");
    assert_eq!((hit.depth, hit.mv), (6, Some(capture)));
    // At the principal variation (an open window) ProbCut does not act.
    let mut s = prepared(&p, probcut);
    s.negamax(&p, 7, (beta - 100, beta), 1, false);
    assert_eq!(s.tt.probe(p.hash(), 1).expect("stored").depth, 6);
}

#[test]
fn with_tt_eval_a_stored_lower_bound_above_the_evaluation_prunes_by_reverse_futility() {
    let p = P::start();
    let beta = 300;
    let on = switched(Technique::TtEval, true);
    // A shallower search found the start worth at least 1000: too shallow to cut a
    // depth-3 node, but reverse futility then takes 1000 as the evaluation.
    let searched = |config: SearchConfig, bound: Bound| {
        let mut s = prepared(&p, config);
        assert!(s.static_eval(&p).abs() < 100);
        s.tt.store(p.hash(), 1, TtHit::new(1, 1000, bound, None, false));
        s.negamax(&p, 3, (beta - 1, beta), 1, false)
    };
    assert_eq!(searched(on.clone(), Bound::Lower), 1000);
    // Off, or with a bound that says nothing beyond the evaluation (at most 1000), the
    // node is searched and the start is worth less than beta.
    let off = switched(Technique::TtEval, false);
    assert!(searched(off, Bound::Lower) < beta);
    assert!(searched(on, Bound::Upper) < beta);
}

#[test]
fn cut_node_reductions_act_only_at_expected_cut_nodes() {
    let p = pos(MIDDLEGAME);
    // The same null-window node searched as an expected cut node and as an all node
    // (which makes its first reply the expected cut node).
    let nodes = |config: SearchConfig, cut_node: bool| {
        let mut s = prepared(&p, config);
        s.negamax(&p, 7, (-1, 0), 1, cut_node);
        s.nodes
    };
    // Off, the expectation changes nothing.
    let off = switched(Technique::CutNodeReductions, false);
    assert_eq!(nodes(off.clone(), true), nodes(off, false));
    // On, the nodes reduced more are others: another tree.
    let on = switched(Technique::CutNodeReductions, true);
    assert_ne!(nodes(on.clone(), true), nodes(on, false));
}

#[test]
fn a_clock_budget_caps_the_move_time_and_stops_new_iterations_at_half() {
    let ms = Duration::from_millis;
    let clock = Limits::default().on_clock(ms(40));
    assert_eq!(
        (clock.movetime, clock.soft_time),
        (Some(ms(40)), Some(ms(20)))
    );
    // A fixed time per move below the budget is kept; above it, the budget wins.
    let short = Limits::movetime(30).on_clock(ms(40));
    assert_eq!(
        (short.movetime, short.soft_time),
        (Some(ms(30)), Some(ms(15)))
    );
    let long = Limits::movetime(100).on_clock(ms(40));
    assert_eq!(
        (long.movetime, long.soft_time),
        (Some(ms(40)), Some(ms(20)))
    );
    // A fixed time per move alone is searched whole.
    assert_eq!(Limits::movetime(30).soft_time, None);
}

#[test]
fn with_check_extension_see_a_check_that_loses_material_is_not_extended() {
    // Qb5+ is taken by the a6 pawn; Qg6+ is safe.
    let p = pos("4k3/8/p7/8/8/3Q4/8/4K3 w - - 0 1");
    let (losing, safe) = (p.parse_move("d3b5").unwrap(), p.parse_move("d3g6").unwrap());
    for m in [losing, safe] {
        let mut child = p;
        child.play_unchecked(m);
        assert!(child.in_check());
    }
    let on = switched(Technique::CheckExtensionSee, true);
    let s = prepared(&p, on);
    assert!(!s.extends_check(&p, losing));
    assert!(s.extends_check(&p, safe));
    let off = switched(Technique::CheckExtensionSee, false);
    let s = prepared(&p, off);
    assert!(s.extends_check(&p, losing) && s.extends_check(&p, safe));
}

#[test]
fn correction_history_learns_what_searches_found_for_a_pawn_structure() {
    let p = pos("4k3/pp6/8/8/8/8/PP6/3QK3 w - - 0 1");
    // The key is the pawns': other pieces elsewhere share it, a pawn moved does not.
    let same_pawns = pos("r3k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
    let pawn_moved = pos("4k3/pp6/8/8/8/P7/1P6/3QK3 w - - 0 1");
    assert_eq!(p.correction_key(), same_pawns.correction_key());
    assert_ne!(p.correction_key(), pawn_moved.correction_key());
    let mut s = prepared(&p, SearchConfig::default());
    s.config.disabled &= !(Technique::CorrectionHistory as u64);
    let slot = s.correction_slot(&p).expect("switched on");
    assert_eq!(s.correction(Some(slot)), 0);
    // Deep searches that keep finding 40 cp more than the evaluation pull it there.
    for _ in 0..200 {
        s.update_correction(slot, 140, 100, 20);
    }
    assert!((38..=40).contains(&s.correction(Some(slot))));
    assert_eq!(s.correction_slot(&same_pawns), Some(slot));
    // A verdict far off moves it by at most the cap.
    for _ in 0..400 {
        s.update_correction(slot, -900, 100, 20);
    }
    assert!((-CORRECTION_MAX..=-CORRECTION_MAX + 2).contains(&s.correction(Some(slot))));
    // Switched off, there is no slot and no correction.
    s.config.disabled |= Technique::CorrectionHistory as u64;
    assert_eq!(s.correction_slot(&p), None);
    assert_eq!(s.correction(None), 0);
}

#[test]
fn picking_the_largest_key_gives_the_order_of_a_stable_sort() {
    let mut rng = crate::zobrist::SplitMix64(7);
    for len in [0, 1, 2, 3, 4, 5, 9, 40, 300] {
        // Few distinct keys, so most are tied, negative ones included.
        let keys: Vec<i64> = (0..len).map(|_| (rng.next() % 7) as i64 - 3).collect();
        let mut list: Vec<(i64, Move)> = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                (
                    order_key(k, i),
                    Move::normal(crate::Square(i as u16), crate::Square(0)),
                )
            })
            .collect();
        for i in 0..list.len() {
            pick_largest(&mut list, i);
        }
        let mut stable: Vec<(i64, usize)> = keys.iter().copied().zip(0..).collect();
        stable.sort_by_key(|e| std::cmp::Reverse(e.0));
        let picked: Vec<usize> = list.iter().map(|e| e.1.from().0 as usize).collect();
        let sorted: Vec<usize> = stable.iter().map(|e| e.1).collect();
        assert_eq!(picked, sorted, "{keys:?}");
    }
}

#[test]
fn technique_names_round_trip() {
    for t in Technique::ALL {
        assert_eq!(Technique::from_name(t.name()), Some(t));
    }
    assert_eq!(
        Technique::from_name("continuation_history"),
        Some(Technique::ContinuationHistory)
    );
}

#[test]
fn every_search_parameter_reaches_the_search() {
    // The defaults are the default search; each parameter moved far from its default
    // changes the tree (so none is read nowhere).
    let p = pos(MIDDLEGAME);
    // A parameter of an experiment is measured with its technique switched on.
    let nodes = |params: SearchParams, technique: Option<Technique>| {
        let disabled = technique.map_or(Technique::DEFAULT_OFF, |t| {
            Technique::DEFAULT_OFF & !(t as u64)
        });
        let mut s = prepared(
            &p,
            SearchConfig {
                params,
                disabled,
                ..SearchConfig::default()
            },
        );
        s.search(&p, &[], Limits::depth(9));
        s.nodes
    };
    let base = nodes(SearchParams::default(), None);
    let mut plain = prepared(&p, SearchConfig::default());
    plain.search(&p, &[], Limits::depth(9));
    assert_eq!(base, plain.nodes);
    // Some parameters act only where another setting lets them: the aspiration window's
    // growth and widest half-width once a window misses, which the default window never
    // does here; ProbCut's table depth where ProbCut is tried at every depth; history
    // pruning's depth with a threshold that prunes.
    let setting = |param: Param| {
        let mut s = SearchParams::default();
        let other = match param {
            Param::AspirationGrowth | Param::AspirationMax => Some(("aspiration_window", 1)),
            Param::ProbcutTtDepth => Some(("probcut_depth", 1)),
            Param::HistoryPruningDepth => Some(("history_pruning_divisor", 1024)),
            _ => None,
        };
        if let Some((name, value)) = other {
            s.set(name, value).unwrap();
        }
        s
    };
    let mut unread = Vec::new();
    for param in Param::ALL {
        let base = nodes(setting(param), param.technique());
        let r = param.range();
        let far = if param.default_value() - r.start() > r.end() - param.default_value() {
            *r.start()
        } else {
            *r.end()
        };
        let mut changed = setting(param);
        changed.set(param.name(), i64::from(far)).unwrap();
        if nodes(changed, param.technique()) == base {
            unread.push(format!("{} = {far}", param.name()));
        }
    }
    assert!(unread.is_empty(), "no change in the tree: {unread:?}");
}

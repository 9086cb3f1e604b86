//! Search sanity in every variant: mates in one and two, a hanging Queen, legal and safe
//! moves from random positions, and reproducibility.

use variantlab_engine::game::outcome;
use variantlab_engine::position::{Position, Variant};
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::variants::{Chess, Dream46};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{Game, Outcome, Termination};

fn best<G: Game>(pos: &G, limits: Limits) -> String {
    let mut s = Searcher::new(SearchConfig::default());
    let r = s.search(pos, &[], limits);
    pos.move_text(r.best.expect("a move"))
}

fn is_mate_after<G: Game>(pos: &G, mv: &str) -> bool {
    let mut p = pos.clone();
    p.play_text(mv).unwrap();
    matches!(
        outcome(&p, &[]),
        Some(Outcome::Decisive {
            reason: Termination::Checkmate,
            ..
        })
    )
}

#[test]
fn chess_mate_in_one() {
    let p = Position::<Chess>::from_text("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    let mut s = Searcher::new(SearchConfig::default());
    let r = s.search(&p, &[], Limits::depth(4));
    assert_eq!(p.move_text(r.best.unwrap()), "a1a8");
    assert_eq!(r.mate_in(), Some(1));
}

#[test]
fn chess_mate_in_two() {
    let p = Position::<Chess>::from_text("7k/8/8/8/8/8/R7/1R5K w - - 0 1").unwrap();
    let mut s = Searcher::new(SearchConfig::default());
    let r = s.search(&p, &[], Limits::depth(5));
    assert_eq!(r.mate_in(), Some(2), "{r:?}");
    assert!(r.pv.len() >= 3);
    let mut q = p;
    for &m in &r.pv[..2] {
        q.play_unchecked(m);
    }
    assert!(is_mate_after(&q, &q.move_text(r.pv[2])));
}

#[test]
fn dream46_mate_in_one() {
    let p = Position::<Dream46>::from_text("***4k/***Q4/***4S/8/8/5***/5***/K4*** w").unwrap();
    let mv = best(&p, Limits::depth(3));
    assert!(is_mate_after(&p, &mv), "{mv}");
}

#[test]
fn dream46_mate_in_two() {
    // E.g. 1.Qd7 (threat Qg7#, g7 guarded by the Steward) Kg8 2.Qg7#; 1.Qg6 would stalemate.
    let p = Position::<Dream46>::from_text("***4k/***5/***Q3S/8/8/5***/5***/K4*** w").unwrap();
    let mut s = Searcher::new(SearchConfig::default());
    let r = s.search(&p, &[], Limits::depth(6));
    assert_eq!(r.mate_in(), Some(2), "{r:?}");
    let mut q = p;
    for &m in &r.pv[..2] {
        q.play_unchecked(m);
    }
    assert!(is_mate_after(&q, &q.move_text(r.pv[2])));
}

#[test]
fn takes_a_hanging_queen() {
    let p = Position::<Chess>::from_text("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
    assert_eq!(best(&p, Limits::depth(4)), "d2d5");
    let p = Position::<Dream46>::from_text("***4k/***5/***5/4q3/8/5***/1P3***/K4*** w").unwrap();
    assert_eq!(best(&p, Limits::depth(4)), "b2e5");
}

fn safe_moves_from_random_positions<V: Variant>(seed: u64) {
    let mut rng = SplitMix64(seed);
    for _ in 0..10 {
        let mut pos = Position::<V>::start();
        for _ in 0..(rng.next() % 30) {
            let mut list = Default::default();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos.play_unchecked(list[(rng.next() % list.len() as u64) as usize]);
        }
        let mut list = Default::default();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            continue;
        }
        let mut s = Searcher::new(SearchConfig::default());
        let r = s.search(&pos, &[], Limits::nodes(3000));
        let m = r.best.unwrap();
        assert!(list.contains(&m));
        let mut child = pos;
        child.play_unchecked(m);
        let k = child.king(pos.turn()).unwrap();
        assert!(!child.is_attacked(k, child.turn()));
    }
}

#[test]
fn moves_are_legal_and_keep_the_king_safe() {
    safe_moves_from_random_positions::<Chess>(3);
    safe_moves_from_random_positions::<Dream46>(4);
}

#[test]
fn same_position_limits_and_seed_give_the_same_result() {
    let p = Position::<Chess>::start();
    for config in [
        SearchConfig::default(),
        SearchConfig {
            randomize: 20,
            seed: 99,
            ..SearchConfig::default()
        },
    ] {
        let a = Searcher::new(config.clone()).search(&p, &[], Limits::nodes(20_000));
        let b = Searcher::new(config.clone()).search(&p, &[], Limits::nodes(20_000));
        assert_eq!(
            (a.best, a.score, a.nodes, a.depth, &a.pv),
            (b.best, b.score, b.nodes, b.depth, &b.pv)
        );
        assert!(
            a.nodes >= 20_000 && a.nodes < 21_000,
            "node limit respected: {}",
            a.nodes
        );
        let c = Searcher::new(config).search(&p, &[], Limits::depth(5));
        assert_eq!(c.depth, 5);
    }
}

#[test]
fn randomisation_varies_the_opening_move_with_the_seed() {
    let p = Position::<Chess>::start();
    let moves: std::collections::BTreeSet<_> = (0..12)
        .map(|seed| {
            let config = SearchConfig {
                randomize: 30,
                seed,
                ..SearchConfig::default()
            };
            Searcher::new(config)
                .search(&p, &[], Limits::depth(3))
                .best
                .map(|m| m.raw())
        })
        .collect();
    assert!(moves.len() > 1, "{moves:?}");
}

#[test]
fn repetition_is_a_draw_even_at_depth_one() {
    // White is a Queen up. The move a depth-1 search prefers is made, answered, and both are
    // taken back: playing it again repeats a position. At depth 1 the root's children have no
    // depth left, and the repetition must still count as a draw, so White plays another move.
    let start = Position::<Chess>::from_text("7k/8/8/8/8/8/8/1Q4K1 w - - 10 40").unwrap();
    let first = best(&start, Limits::depth(1));
    let mut p = start;
    let mut history = Vec::new();
    let back = format!("{}{}", &first[2..4], &first[0..2]);
    for text in [first.as_str(), "h8g8", back.as_str(), "g8h8"] {
        history.push(p.hash());
        p.play_text(text).unwrap();
    }
    assert_eq!(p.hash(), start.hash());
    let r = Searcher::new(SearchConfig::default()).search(&p, &history, Limits::depth(1));
    let again = p.move_text(r.best.unwrap());
    assert_ne!(again, first, "walked into a repetition");
    assert!(r.score > 500, "{}", r.score);
}

#[test]
fn configured_values_override_only_the_kinds_they_name() {
    // A zero-value Queen makes White's extra Queen worthless; the other kinds keep the
    // evaluation's own material (the tuned weights' Rook, not a default table's).
    let q = Position::<Chess>::from_text("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1").unwrap();
    let r = Position::<Chess>::from_text("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    let prepared = |values: Vec<Option<i32>>| {
        let mut s = Searcher::new(SearchConfig {
            values,
            ..SearchConfig::default()
        });
        s.search(&q, &[], Limits::depth(1));
        s
    };
    let plain = prepared(Vec::new());
    let zero_queen = prepared(vec![None, None, None, None, Some(0)]);
    assert!(plain.evaluate(&q) > 500, "{}", plain.evaluate(&q));
    let pawnless = zero_queen.evaluate(&q);
    // What is left is the Queen's placement and activity (cell table, mobility), not its
    // material: a small part of the plain evaluation (990 against 100 with stop 39's weights).
    assert!(
        pawnless.abs() * 4 < plain.evaluate(&q),
        "{pawnless} {}",
        plain.evaluate(&q)
    );
    assert_eq!(plain.evaluate(&r), zero_queen.evaluate(&r));
}

/// The static evaluation shrinks with the move-count clock, to half at the rule's end, unless
/// the technique is off; a variant without the rule (Dai Mitregi) keeps it whole.
#[test]
fn move_rule_scaling_halves_the_evaluation_at_the_rules_end() {
    use variantlab_engine::search::Technique;
    type G = Position<Chess>;
    let at = |clock: u32| {
        G::from_text(&format!("4k3/8/8/8/8/8/4P3/R3K3 w - - {clock} 80")).expect("valid")
    };
    // A first search builds the variant's evaluator. The technique is off by default.
    let mut s = Searcher::new(SearchConfig {
        disabled: Technique::DEFAULT_OFF & !(Technique::MoveRuleScaling as u64),
        ..SearchConfig::default()
    });
    s.search(&at(0), &[], Limits::depth(1));
    let fresh = s.static_eval(&at(0));
    assert!(fresh > 300, "{fresh}");
    assert_eq!(s.static_eval(&at(50)), fresh * 150 / 200);
    assert_eq!(s.static_eval(&at(100)), fresh / 2);
    let mut off = Searcher::new(SearchConfig::default());
    off.search(&at(0), &[], Limits::depth(1));
    assert_eq!(off.static_eval(&at(100)), off.static_eval(&at(0)));
    assert_eq!(off.static_eval(&at(0)), fresh);
    use variantlab_engine::variants::dai_mitregi::DaiMitregi;
    // Ten plies in, its clock (plies since the position was read) is 10.
    let mut dm = DaiMitregi::start();
    for _ in 0..10 {
        let mut moves = Default::default();
        dm.legal_moves(&mut moves);
        dm.play_unchecked(moves.as_ref()[0]);
    }
    assert_eq!(dm.halfmove_clock(), 10);
    s.search(&dm, &[], Limits::depth(1));
    assert_eq!(s.static_eval(&dm), s.evaluate(&dm));
}

/// docs/search.md's table of search parameters lists every parameter with the default and
/// range the code has (the code is the source; the table is what a user reads).
#[test]
fn the_parameter_table_in_the_docs_matches_the_code() {
    use variantlab_engine::search::Param;
    let path = format!("{}/../docs/search.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("docs/search.md");
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .filter(|c: &Vec<String>| c.len() > 4 && Param::from_name(c[1].trim_matches('`')).is_some())
        .collect();
    assert_eq!(rows.len(), Param::ALL.len(), "one row per parameter");
    for p in Param::ALL {
        let row = rows
            .iter()
            .find(|c| c[1].trim_matches('`') == p.name())
            .unwrap_or_else(|| panic!("no row for {}", p.name()));
        let r = p.range();
        assert_eq!(row[2], p.default_value().to_string(), "{}", p.name());
        assert_eq!(row[3], format!("{}–{}", r.start(), r.end()), "{}", p.name());
    }
}

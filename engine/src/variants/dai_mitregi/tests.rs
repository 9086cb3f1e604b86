//! Tests of Dai Mitregi internals (the attack walk against the leap lists) that need its
//! private items.

use super::*;

/// The attack walk's tables reach the same cells as the leap lists of move generation,
/// over the positions of a random game.
fn walk_matches_leap_lists<const S: bool>() {
    let (t, mut rng) = (tables(), SplitMix64(7));
    let mut pos = DaiMitregiPos::<S>::start();
    let mut moves = DaiMitregiMoves::new();
    for _ in 0..200 {
        let ft = pos.form();
        for color in Color::ALL {
            pos.each_piece(color, |sq, c| {
                let class = class_of(c);
                let mut want = DaiBb::EMPTY;
                for l in ft.leaps_of(color, class, sq) {
                    if !l.lame || pos.board[l.mid as usize] == 0 {
                        want.insert(Square(l.to.into()));
                    }
                }
                for d in (0..8).filter(|d| ft.slides[color.index()][class] & (1 << d) != 0) {
                    for &x in &t.rays[d * NSQ + sq] {
                        want.insert(Square(x.into()));
                        if pos.board[x as usize] != 0 {
                            break;
                        }
                    }
                }
                let w = &ft.walks[(color.index() * NCLASSES + class) * NSQ + sq];
                let slides = ft.slides[color.index()][class];
                assert_eq!(
                    pos.reach(w, slides, ft, t, sq),
                    want,
                    "{} at {sq}",
                    pos.to_text()
                );
            });
        }
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.next() as usize % moves.len()]);
    }
}

#[test]
fn walk_matches_leap_lists_leaping() {
    walk_matches_leap_lists::<false>();
}

#[test]
fn walk_matches_leap_lists_stepping() {
    walk_matches_leap_lists::<true>();
}

//! `Game::null_move` of the free-form variants (Extreme 2D, Gateway, both Dialectic forms, both
//! Dai Mitregi forms), on positions of seeded random games: the pass flips the turn, gives
//! exactly the position its own text reads back as (hash, text, check, legal moves, and the
//! hash after each legal move), passing twice restores the hash, and no pass is offered in
//! check.

#[path = "common/random_games.rs"]
mod random_games;

use random_games::legal;
use variantlab_engine::game::{outcome, Game};
use variantlab_engine::variants::dai_mitregi::{DaiMitregi, DaiMitregiStepping};
use variantlab_engine::variants::dialectic::{Dialectic, DialecticHegelian};
use variantlab_engine::variants::extreme2d::Extreme2d;
use variantlab_engine::variants::gateway::Gateway;
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::Move;

/// Positions along seeded random games, biased towards captures (so material comes off and
/// checks happen) and, every fourth ply, towards a checking move where one exists.
fn positions<G: Game>(seed: u64, games: usize, plies: usize) -> Vec<G> {
    let mut rng = SplitMix64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = G::start();
        for ply in 0..plies {
            let moves = legal(&p);
            if moves.is_empty() || outcome(&p, &[]).is_some() {
                break;
            }
            out.push(p.clone());
            let pick = |pool: &[Move], rng: &mut SplitMix64| {
                pool[(rng.next() % pool.len() as u64) as usize]
            };
            let checking = if ply % 4 == 3 {
                moves.iter().copied().find(|&m| {
                    let mut c = p.clone();
                    c.play_unchecked(m);
                    c.in_check()
                })
            } else {
                None
            };
            let tactical: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| p.is_tactical(m))
                .collect();
            let m = match checking {
                Some(m) => m,
                None if !tactical.is_empty() && rng.next().is_multiple_of(2) => {
                    pick(&tactical, &mut rng)
                }
                None => pick(&moves, &mut rng),
            };
            p.play_unchecked(m);
        }
    }
    out
}

/// Hashes after each legal move, in the generator's order.
fn children<G: Game>(p: &G, moves: &[Move]) -> Vec<u64> {
    moves
        .iter()
        .map(|&m| {
            let mut c = p.clone();
            c.play_unchecked(m);
            c.hash()
        })
        .collect()
}

/// No en passant exists in the variant.
fn no_ep(_: &str) -> bool {
    false
}

/// The Dialectic text has an en passant cell (its fourth field, FEN-like).
fn dialectic_ep(text: &str) -> bool {
    text.split(' ').nth(3) != Some("-")
}

/// Checks every position of the games (`has_ep`: whether a position text holds an en
/// passant cell); returns (passes checked, positions in check).
fn check_variant<G: Game>(
    seed: u64,
    games: usize,
    plies: usize,
    has_ep: fn(&str) -> bool,
) -> (usize, usize) {
    let (mut passes, mut checks) = (0, 0);
    for p in positions::<G>(seed, games, plies) {
        let text = p.to_text();
        if p.in_check() {
            checks += 1;
            assert!(p.null_move().is_none(), "pass offered in check: {text}");
            continue;
        }
        let Some(null) = p.null_move() else {
            continue;
        };
        passes += 1;
        assert_eq!(null.turn(), !p.turn(), "turn not flipped: {text}");
        assert_ne!(null.hash(), p.hash(), "hash unchanged by the pass: {text}");
        let null_text = null.to_text();
        let back = G::from_text(&null_text)
            .unwrap_or_else(|e| panic!("pass of {text} gives unreadable {null_text}: {e}"));
        assert_eq!(
            back.to_text(),
            null_text,
            "text does not round-trip: {text}"
        );
        assert_eq!(
            null.hash(),
            back.hash(),
            "hash differs from re-read: {null_text}"
        );
        assert_eq!(null.turn(), back.turn());
        assert_eq!(
            null.in_check(),
            back.in_check(),
            "check differs from re-read: {null_text}"
        );
        let moves = legal(&null);
        assert_eq!(
            moves,
            legal(&back),
            "legal moves differ from re-read: {null_text}"
        );
        assert_eq!(
            children(&null, &moves),
            children(&back, &moves),
            "positions after the moves differ from re-read: {null_text}"
        );
        if let Some(twice) = null.null_move() {
            assert_eq!(twice.turn(), p.turn());
            if has_ep(&text) {
                // The first pass dropped the en passant cell for good.
                assert_ne!(twice.hash(), p.hash(), "en passant cell kept: {text}");
                let four = twice.null_move().and_then(|n| n.null_move()).unwrap();
                assert_eq!(
                    four.hash(),
                    twice.hash(),
                    "four passes differ from two: {text}"
                );
            } else {
                assert_eq!(twice.hash(), p.hash(), "two passes change the hash: {text}");
            }
        }
    }
    assert!(passes >= 100, "only {passes} passes checked");
    (passes, checks)
}

#[test]
fn null_move_extreme2d() {
    assert!(
        Extreme2d::start().null_move().is_none(),
        "pass before placing"
    );
    check_variant::<Extreme2d>(0x4e55_0001, 4, 120, no_ep);
}

#[test]
fn null_move_gateway() {
    check_variant::<Gateway>(0x4e55_0002, 4, 120, no_ep);
}

#[test]
fn null_move_dialectic() {
    check_variant::<Dialectic>(0x4e55_0003, 4, 120, dialectic_ep);
}

#[test]
fn null_move_dialectic_hegelian() {
    check_variant::<DialecticHegelian>(0x4e55_0004, 4, 120, dialectic_ep);
}

#[test]
fn null_move_dai_mitregi() {
    check_variant::<DaiMitregi>(0x4e55_0005, 3, 120, no_ep);
}

#[test]
fn null_move_dai_mitregi_stepping() {
    check_variant::<DaiMitregiStepping>(0x4e55_0006, 3, 120, no_ep);
}

/// Every variant meets positions in check along its games, and offers no pass there.
#[test]
fn null_move_none_in_check() {
    let checks = [
        check_variant::<Extreme2d>(0x4e55_0011, 3, 120, no_ep).1,
        check_variant::<Gateway>(0x4e55_0012, 3, 120, no_ep).1,
        check_variant::<Dialectic>(0x4e55_0013, 3, 120, dialectic_ep).1,
        check_variant::<DialecticHegelian>(0x4e55_0014, 3, 120, dialectic_ep).1,
        check_variant::<DaiMitregi>(0x4e55_0015, 2, 120, no_ep).1,
        check_variant::<DaiMitregiStepping>(0x4e55_0016, 2, 120, no_ep).1,
    ];
    for (i, &n) in checks.iter().enumerate() {
        assert!(n > 0, "variant {i}: no position in check met");
    }
    // Fixed positions in check, from the variants' own documentation.
    let p = Extreme2d::from_text("White: Ka1, (rr)h8. Black: Kj10. Black to move.").unwrap();
    assert!(p.in_check() && p.null_move().is_none());
}

/// Dialectic's pass drops the en passant cell (hash and text) and keeps the tokens and the
/// visited states.
#[test]
fn null_move_dialectic_en_passant_and_visited() {
    let ep = "rhbqkbhr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RHBQKBHR b KQkq e3 0 3 T12A21";
    let p = Dialectic::from_text(ep).unwrap();
    assert_eq!(p.to_text(), ep, "the en passant cell is kept here");
    let null = p.null_move().unwrap();
    assert_eq!(
        null.to_text(),
        "rhbqkbhr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RHBQKBHR w KQkq - 1 3 T12A21"
    );
    assert_eq!(
        null.hash(),
        Dialectic::from_text(&null.to_text()).unwrap().hash()
    );
    // Passing twice loses the en passant cell and nothing else.
    let no_ep = Dialectic::from_text(&ep.replace("e3", "-")).unwrap();
    assert_eq!(null.null_move().unwrap().hash(), no_ep.hash());

    let visited = "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR b KQkq - 2 2 T10A21 V1121,1221";
    let p = DialecticHegelian::from_text(visited).unwrap();
    let null = p.null_move().unwrap();
    assert_eq!(
        null.to_text(),
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 3 2 T10A21 V1121,1221"
    );
    let back = DialecticHegelian::from_text(&null.to_text()).unwrap();
    assert_eq!(null.hash(), back.hash());
    assert_eq!(legal(&null), legal(&back));
}

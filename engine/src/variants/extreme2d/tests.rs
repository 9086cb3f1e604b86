//! Tests of Extreme 2D internals (area masks, the static exchange, the attack walk, threats)
//! that need its private items.

use super::*;

#[test]
fn masks_are_symmetric() {
    let t = tables();
    for a in 0..N {
        for b in 0..N {
            assert_eq!(t.ortho[a * N + b], t.ortho[b * N + a]);
            assert_eq!(t.diag[a * N + b], t.diag[b * N + a]);
            assert_eq!(t.night[a * N + b], t.night[b * N + a]);
            assert_eq!(t.diag_reach[a] >> b & 1, t.diag_reach[b] >> a & 1);
        }
    }
}

/// The material kinds' default values: pawn, red, blue, yellow, heir, king.
const VALUES: [i32; 6] = [100, 450, 300, 280, 200, 0];

fn see(text: &str, mv: &str) -> Option<i32> {
    let p = Extreme2d::from_text(text).unwrap();
    let m = p.parse_move(mv).unwrap();
    p.see(m, &VALUES)
}

#[test]
fn see_counts_the_absorbed_discs() {
    assert_eq!(
        Extreme2d::start().material_kinds()[..],
        [
            ("pawn", 100),
            ("red", 450),
            ("blue", 300),
            ("yellow", 280),
            ("heir", 200),
            ("king", 0)
        ]
    );
    // An undefended (by): the Rook wins its 580 and absorbs both discs, 580 more.
    let free = "White: Ka2, (r)e1. Black: Kj10, (by)e5. White to move.";
    assert_eq!(see(free, "e1e5"), Some(1160));
    // A Pawn that takes a Rook gains a red disc but stops being a Pawn: 450 + 450 - 100.
    let pawn = "White: Ka2, Pe4. Black: Kj10, (r)e5. White to move.";
    assert_eq!(see(pawn, "e4e5"), Some(800));
}

#[test]
fn see_caps_absorption_at_two_per_colour() {
    // The (rr) absorbs no third red: only the victim's 450.
    let red = "White: Ka2, (rr)e1. Black: Kj10, (r)e5. White to move.";
    assert_eq!(see(red, "e1e5"), Some(450));
    // The yellow disc is still absorbed: 730 + 280.
    let mixed = "White: Ka2, (rr)e1. Black: Kj10, (ry)e5. White to move.";
    assert_eq!(see(mixed, "e1e5"), Some(1010));
}

#[test]
fn see_of_a_defended_stack_uses_the_merged_stack() {
    // (r)xe5 wins 300 + 300; the Pawn e6 takes back the (rb), 750, and absorbs both
    // discs, 750 - 100: 600 - 1400 = -800 (White 450 against 400 becomes 0 against 750).
    let defended = "White: Ka2, (r)e1. Black: Kj10, (b)e5, Pe6. White to move.";
    assert_eq!(see(defended, "e1e5"), Some(-800));
    // A quiet move onto the Pawn's cell in front loses the Rook and its red disc.
    let quiet = "White: Ka2, (r)e1. Black: Kj10, Pe5. White to move.";
    assert_eq!(see(quiet, "e1e4"), Some(-800));
    assert_eq!(see(quiet, "e1d1"), Some(0));
}

#[test]
fn see_lets_a_slider_behind_join_in() {
    // The Rook on e1 joins once e2 has left: if the Pawn took back (1400), the (rrb)
    // would follow (750 + 750), so Black stops and White keeps 600.
    let xray = "White: Ka2, (r)e2, (r)e1. Black: Kj10, (b)e5, Pe6. White to move.";
    assert_eq!(see(xray, "e2e5"), Some(600));
    // A second Rook off the line does not count.
    let aside = "White: Ka2, (r)e2, (r)d1. Black: Kj10, (b)e5, Pe6. White to move.";
    assert_eq!(see(aside, "e2e5"), Some(-800));
}

#[test]
fn see_king_recaptures_only_onto_a_safe_cell() {
    // (r)xe5 wins 600; the King takes back the (rb), 750, and absorbs it, 750 more.
    let alone = "White: Ke4, (b)e5. Black: Ka10, (r)e8. Black to move.";
    assert_eq!(see(alone, "e8e5"), Some(600 - 1500));
    // With a second Rook behind on e9 the King may not take back.
    let backed = "White: Ke4, (b)e5. Black: Ka10, (r)e9, (r)e8. Black to move.";
    assert_eq!(see(backed, "e8e5"), Some(600));
}

#[test]
fn see_leaves_special_moves_alone() {
    let start = Extreme2d::start();
    let placement = start.parse_move("K@c1,H@h1").unwrap();
    assert_eq!(start.see(placement, &VALUES), None);
    let promotion = Extreme2d::from_text("White: Ka1, Pe9. Black: Kj1. White to move.").unwrap();
    assert_eq!(
        promotion.see(promotion.parse_move("e9e10h").unwrap(), &VALUES),
        None
    );
}

/// The threshold form agrees with the exchange on every move of random games, the
/// shortcuts included.
#[test]
fn see_at_least_agrees_with_see() {
    let mut rng = SplitMix64(11);
    let mut answered = 0;
    for _ in 0..20 {
        let mut p = Extreme2d::start();
        for _ in 0..60 {
            let mut moves = Extreme2dMoves::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let v = p.see(m, &VALUES);
                answered += v.is_some() as u32;
                for t in [-1500, -800, -200, -1, 0, 1, 200, 600, 1200] {
                    assert_eq!(p.see_at_least(m, &VALUES, t), v.map(|v| v >= t));
                }
            }
            p.play_unchecked(moves[rng.next() as usize % moves.len()]);
        }
    }
    assert!(answered > 10_000, "{answered}");
}

/// Every stack of the set, and only those, can capture on the cell: checked against the
/// move generator's targets over positions of random games.
#[test]
fn attackers_agree_with_the_moves() {
    let mut rng = SplitMix64(7);
    let mut checked = 0;
    for _ in 0..20 {
        let mut p = Extreme2d::start();
        for _ in 0..60 {
            let occ = p.occ[0].0 | p.occ[1].0;
            for by in 0..2 {
                for sq in 0..N {
                    let mut want = 0u128;
                    let mut stacks = p.occ[by].0 & !(1u128 << sq);
                    while stacks != 0 {
                        let from = stacks.trailing_zeros() as usize;
                        stacks &= stacks - 1;
                        let s = p.cells[from];
                        let hits = if is_pawn(s) {
                            let ahead = if by == 0 {
                                from + W
                            } else {
                                from.wrapping_sub(W)
                            };
                            ahead == sq
                        } else {
                            p.targets(from, s, occ) >> sq & 1 != 0
                        };
                        if hits {
                            want |= 1 << from;
                        }
                    }
                    assert_eq!(p.attackers_within::<false>(sq, by, occ, 0), want);
                    assert_eq!(p.attacked(sq, by, occ, 0), want != 0);
                    checked += want.count_ones();
                }
            }
            let mut moves = Extreme2dMoves::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rng.next() as usize % moves.len()]);
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// The threat calls of the evaluation, and nothing else.
#[derive(Default)]
struct ThreatCalls {
    threatened: Vec<(Color, usize, bool, u32)>,
    multiple: Vec<(Color, bool)>,
}

impl crate::eval::FeatureSink for ThreatCalls {
    fn piece(&mut self, _: Color, _: usize, _: usize) {}
    fn mobility(&mut self, _: Color, _: usize, _: u32) {}
    fn king_attacks(&mut self, _: Color, _: u32) {}
    fn threatened(&mut self, color: Color, kind: usize, to_move: bool, count: u32) {
        self.threatened.push((color, kind, to_move, count));
    }
    fn multiple_threats(&mut self, color: Color, to_move: bool) {
        self.multiple.push((color, to_move));
    }
    fn king_danger(&mut self, _: Color, _: u32) {}
    fn in_hand(&mut self, _: Color, _: usize, _: u32) {}
    fn passed(&mut self, _: Color, _: usize) {}
    fn pawn_structure(&mut self, _: Color, _: u32, _: u32) {}
    fn kind_term(&mut self, _: Color, _: usize, _: crate::eval::KindTerm, _: u32) {}
    fn pawn_details(&mut self, _: Color, _: crate::eval::PawnDetails) {}
}

/// The evaluation's threatened stacks and forks agree, over positions of random games,
/// with a brute-force reading of the rule, stack by stack, from the static exchange's
/// attack walk (every stack that could capture on a cell, legality aside; the walk is
/// checked against the move generator in `attackers_agree_with_the_moves`): a stack other
/// than the King is threatened when an enemy stack other than the King of lower worth
/// attacks it, or when an enemy stack attacks it and no stack of its side does; it
/// counts once per disc, in the disc's kind. And every stack that a legal capture of the
/// side to move takes with a cheaper stack (not the King) is among the threatened ones.
///
/// Why not the legal captures throughout: the feature reads the attacks of the standing
/// position, as in every variant, while legal captures leave out pinned stacks and the
/// King's captures onto attacked cells, and a recapture after the capture sees the
/// capturer's origin emptied (a defender behind it joins in): a different quantity.
#[test]
fn threats_agree_with_the_attack_walk() {
    let mut rng = SplitMix64(13);
    let (mut threatened, mut cheaper_defended, mut forks) = (0, 0, 0);
    for _ in 0..20 {
        let mut p = Extreme2d::start();
        for _ in 0..80 {
            let occ = p.occ[0].0 | p.occ[1].0;
            let mut want = ThreatCalls::default();
            let mut sets = [0u128; 2];
            for c in Color::ALL {
                let (us, them) = (c.index(), 1 - c.index());
                let mut counts = [0u32; 5];
                let mut stacks = 0;
                for sq in 0..N {
                    let s = p.cells[sq];
                    if s == 0 || owner(s) != us || role(s) == KING {
                        continue;
                    }
                    let attackers = p.attackers_within::<false>(sq, them, occ, 0);
                    let defended = p.attackers_within::<false>(sq, us, occ, 0) != 0;
                    let worth = Extreme2d::stack_value(s, &VALUES);
                    let cheaper = (0..N).any(|a| {
                        attackers >> a & 1 != 0
                            && role(p.cells[a]) != KING
                            && Extreme2d::stack_value(p.cells[a], &VALUES) < worth
                    });
                    if attackers == 0 || (defended && !cheaper) {
                        continue;
                    }
                    cheaper_defended += (cheaper && defended) as u32;
                    sets[us] |= 1 << sq;
                    stacks += 1;
                    for (n, k) in counts.iter_mut().zip(kind_counts(s)) {
                        *n += u32::from(k);
                    }
                }
                let to_move = c == p.turn;
                for (kind, n) in counts.into_iter().enumerate() {
                    if n > 0 {
                        want.threatened.push((c, kind, to_move, n));
                    }
                }
                if stacks >= 2 {
                    want.multiple.push((c, to_move));
                    forks += 1;
                }
                threatened += stacks;
            }
            let mut got = ThreatCalls::default();
            p.report_activity(&mut got);
            assert_eq!(got.threatened, want.threatened, "{}", p.to_text());
            assert_eq!(got.multiple, want.multiple, "{}", p.to_text());
            let mut moves = Extreme2dMoves::new();
            p.legal_moves(&mut moves);
            for &m in &moves {
                let (mover, victim) = (p.cells[m.from().index()], p.cells[m.to().index()]);
                if m.kind() == MoveKind::Normal
                    && victim != 0
                    && role(mover) != KING
                    && Extreme2d::stack_value(mover, &VALUES)
                        < Extreme2d::stack_value(victim, &VALUES)
                {
                    let them = 1 - p.turn.index();
                    assert!(sets[them] >> m.to().index() & 1 != 0, "{}", p.move_text(m));
                }
            }
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rng.next() as usize % moves.len()]);
        }
    }
    assert!(
        threatened > 1000 && cheaper_defended > 100 && forks > 100,
        "{threatened} {cheaper_defended} {forks}"
    );
}

#[test]
fn start_round_trips() {
    let p = Extreme2d::start();
    assert_eq!(p.to_text(), START);
    assert_eq!(p.hash, p.compute_hash());
}

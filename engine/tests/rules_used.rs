//! `Game::rules_used`, what the rule-usage table of `variantlab stats` counts: on every legal
//! move of positions from seeded random games of every variant, a move of a special kind names
//! its rule, a promotion names the kind it makes, and each variant's own rules show up.

#[path = "common/random_games.rs"]
mod random_games;

use random_games::{legal, positions};
use std::collections::BTreeSet;
use variantlab_engine::game::Game;
use variantlab_engine::moves::MoveKind;
use variantlab_engine::variants::extreme2d::Extreme2d;
use variantlab_engine::{with_variant, VariantKind};

/// The rules each variant's random games must show among their legal moves.
fn expected(kind: VariantKind) -> &'static [&'static str] {
    match kind.name() {
        "chess" => &["castling", "promotion"],
        "dialectic" | "dialectic-hegelian" => {
            &["thesis step", "antithesis step", "castling", "promotion"]
        }
        "extreme-2d" => &["royal placement", "absorption", "orthogonal area move"],
        "extreme-2d-simple" => &["royal placement", "absorption"],
        "gateway" => &["transformation"],
        "dai-mitregi" | "dai-mitregi-stepping" => &["drop", "promotion"],
        _ => &[],
    }
}

/// The rules named among the legal moves of random games of `G`, checking each move's.
fn rules_seen<G: Game>(variant: &str) -> BTreeSet<&'static str> {
    let names: Vec<&str> = G::start().material_kinds().iter().map(|k| k.0).collect();
    let mut seen = BTreeSet::new();
    for p in positions::<G>(7, 12, 160) {
        for m in legal(&p) {
            let used = p.rules_used(m);
            if let Some(rule) = m.kind().rule_name() {
                assert!(
                    used.iter().any(|u| u.rule == rule),
                    "{variant}: {} in {} uses {rule}, not {used:?}",
                    p.move_text(m),
                    p.to_text()
                );
            }
            for u in &used {
                seen.insert(u.rule);
                if u.rule != "promotion" {
                    continue;
                }
                // The promoted kind is the one the mover gains.
                let made = u.kind.unwrap_or_else(|| {
                    panic!("{variant}: promotion {} names no kind", p.move_text(m))
                });
                let mut after = p.clone();
                after.play_unchecked(m);
                let us = p.turn().index();
                let (before, now) = (p.material()[us], after.material()[us]);
                let gained: Vec<&str> = (0..names.len())
                    .filter(|&k| now[k] > before[k])
                    .map(|k| names[k])
                    .collect();
                // (Dai Mitregi's captor also gains the piece it takes, in hand.)
                let captures = p.captured_kind(m).is_some();
                assert!(
                    gained.contains(&made) && (gained.len() == 1 || captures && gained.len() == 2),
                    "{variant}: {} in {} makes {made}, gains {gained:?}",
                    p.move_text(m),
                    p.to_text()
                );
            }
        }
    }
    seen
}

#[test]
fn special_moves_name_their_rules_and_promotions_the_kind_they_make() {
    for kind in VariantKind::ALL {
        let seen = with_variant!(kind, G => rules_seen::<G>(kind.name()));
        for rule in expected(kind) {
            assert!(
                seen.contains(rule),
                "{}: no {rule} in {seen:?}",
                kind.name()
            );
        }
        if kind.name() == "chess" {
            assert!(seen.is_subset(&["castling", "promotion", "en passant"].into()));
        }
    }
}

/// A stack with two reds reaches cells off its lines only by an area move [X7]; its Rook moves
/// are ordinary.
#[test]
fn extreme_2d_names_area_moves_only_where_a_single_disc_could_not_go() {
    let p = Extreme2d::from_text("White: Ka1, Hj1, (rr)e5. Black: Kj10, Pi10, Pj9. White to move.")
        .unwrap();
    let mut area = 0;
    for m in legal(&p) {
        let (from, to) = (p.move_text(m)[..2].to_string(), &p.move_text(m)[2..]);
        if from != "e5" || m.kind() != MoveKind::Normal {
            continue;
        }
        let on_lines = to.starts_with('e') || to[1..] == *"5";
        let rules: Vec<&str> = p.rules_used(m).iter().map(|u| u.rule).collect();
        if on_lines {
            assert!(rules.is_empty(), "e5{to}: {rules:?}");
        } else {
            assert_eq!(rules, ["orthogonal area move"], "e5{to}");
            area += 1;
        }
    }
    assert!(area > 0);
}

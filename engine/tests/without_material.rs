//! `Game::without_material` (material-odds games and `trades:` openings) in every variant.

#[path = "common/random_games.rs"]
mod random_games;

use random_games::positions;
use variantlab_engine::game::Game;
use variantlab_engine::{with_variant, VariantKind};

/// `Game::without_material` (material-odds games and `trades:` openings) in every variant, on
/// the start and on positions of random games: a removal takes exactly one of the kind off the
/// side's material, leaves a position whose text reads back to the same position and hash, and
/// at the start every non-royal kind on the board can be given up by both sides.
#[test]
fn every_variant_gives_up_one_piece_of_a_kind_exactly() {
    for kind in VariantKind::ALL {
        with_variant!(kind, G => removals::<G>(kind.name()));
    }
}

fn removals<G: Game>(variant: &str) {
    let start = G::start();
    let kinds = start.material_kinds();
    let mut given_up = vec![false; kinds.len()];
    for (i, p) in std::iter::once(start.clone())
        .chain(positions::<G>(3, 4, 60))
        .enumerate()
    {
        for color in variantlab_engine::Color::ALL {
            for (k, given) in given_up.iter_mut().enumerate() {
                let Some(after) = p.without_material(color, k) else {
                    continue;
                };
                *given |= i == 0;
                let (before, now) = (p.material(), after.material());
                for c in 0..2 {
                    for j in 0..kinds.len() {
                        let want = before[c][j] - u16::from(c == color.index() && j == k);
                        assert_eq!(
                            now[c][j],
                            want,
                            "{variant}: {} of {}",
                            kinds[j].0,
                            p.to_text()
                        );
                    }
                }
                let text = after.to_text();
                let back = G::from_text(&text).unwrap_or_else(|e| panic!("{variant}: {text}: {e}"));
                assert_eq!(back.hash(), after.hash(), "{variant}: {text}");
                assert_eq!(back.to_text(), text);
            }
        }
    }
    // At the start every kind on the board but the royal ones (and Extreme 2D's Heir, whose
    // removal would change the reserve rule) can be given up by one side at least.
    for (k, (name, value)) in kinds.iter().enumerate() {
        let on_board = start.material()[0][k] + start.material()[1][k] > 0;
        let kept = *value == 0 || (variant == "extreme-2d" && *name == "heir");
        assert!(
            given_up[k] || !on_board || kept,
            "{variant}: the start cannot give up a {name}"
        );
    }
}

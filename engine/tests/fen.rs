//! Position-text suites as data (`data/fen/<variant>.{valid,invalid}`), and fuzzing: no input
//! makes the parser panic.

use proptest::prelude::*;
use variantlab_engine::{with_variant, VariantKind};

fn lines(variant: &str, ext: &str) -> Vec<String> {
    let path = format!("{}/../data/fen/{variant}.{ext}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn valid_texts_round_trip_exactly() {
    for kind in VariantKind::ALL {
        for text in lines(kind.name(), "valid") {
            let back = with_variant!(kind, G => {
                let p = G::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
                let again = G::from_text(&p.to_text()).unwrap();
                assert_eq!(again.hash(), p.hash());
                p.to_text()
            });
            assert_eq!(back, text);
        }
    }
}

#[test]
fn invalid_texts_fail_with_a_located_message() {
    for kind in VariantKind::ALL {
        let cases = lines(kind.name(), "invalid");
        assert!(cases.len() >= 5);
        for line in cases {
            let (text, want) = line
                .rsplit_once(" | ")
                .unwrap_or(("", line.trim_start_matches("| ")));
            let err = with_variant!(kind, G => G::from_text(text).err());
            let msg = err
                .unwrap_or_else(|| panic!("{} accepted {text:?}", kind.name()))
                .to_string();
            assert!(msg.contains(want), "{text:?}: got {msg:?}, want {want:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn arbitrary_text_never_panics(s in "[ -~]{0,90}") {
        for kind in VariantKind::ALL {
            with_variant!(kind, G => { let _ = G::from_text(&s); });
        }
    }

    #[test]
    fn mutated_start_positions_never_panic(i in 0usize..80, c in "[ -~/*0-9KQRBNPSCkqrbnpsc]{1,3}") {
        for kind in VariantKind::ALL {
            with_variant!(kind, G => {
                let start = G::start().to_text();
                let i = i.min(start.len());
                let s = format!("{}{}{}", &start[..i], c, &start[(i + 1).min(start.len())..]);
                if let Ok(p) = G::from_text(&s) {
                    // Whatever parses must write back to something that parses the same.
                    let again = G::from_text(&p.to_text()).unwrap();
                    prop_assert_eq!(again.to_text(), p.to_text());
                }
            });
        }
    }
}

/// A position made by removing a piece keeps no en passant right: the pawn that just made
/// one may be the piece removed, and the text would then name an impossible right.
#[test]
fn removing_a_piece_leaves_no_en_passant_right() {
    use variantlab_engine::game::Game;
    use variantlab_engine::position::Position;
    use variantlab_engine::Color;
    type Chess = Position<variantlab_engine::variants::Chess>;
    // Black has just played e7-e5 next to White's d5 pawn: the right is e6.
    let pos = Chess::from_text("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2").unwrap();
    assert!(pos.to_text().contains(" e6 "), "{}", pos.to_text());
    // The lowest-numbered Black pawn is the one on e5.
    let removed = pos.without_material(Color::Black, 0).unwrap();
    let text = removed.to_text();
    assert_eq!(text, "4k3/8/8/3P4/8/8/8/4K3 w - - 0 2");
    assert_eq!(Chess::from_text(&text).unwrap().hash(), removed.hash());
}
